"""16.5 Secondary Effects: the symbols along the bottom edge of an Event.

Covered here: Character Mortality, Unrest/Rebellion, Native Uprising, Lost at Sea,
Pirates, Cardinal Dies, Attrition, Disloyal Vassals, DNPR Expansion and Activate
Power Struggle (the two spreads live in :mod:`legalis.model.eupop.religion`).

For each symbol that involves a choice, a ``*_moves`` function gives the legal
choices as a :class:`~legalis.model.core.views.ListView` (refusals name
``"16.5 <symbol>"``) and an ``apply_*`` function plays one, returning a new state.
``auto_*`` functions resolve a symbol by the seed's auto-resolution rules, each
step recorded in a :class:`~legalis.model.eupop.resolution.ResolutionLog`;
:func:`resolve_symbols` resolves a card's symbols left to right. Unclear readings
are :class:`SecondaryOptions` fields, recorded in ``docs/rules-questions.md``
("EU:PoP secondary effects").

>>> from legalis.model.eupop.state import small_state
>>> state = small_state()
>>> log = ResolutionLog()
>>> new = resolve_symbols(state, [Symbol("cardinal_dies")], log=log)
>>> new == state, log.lines()
(True, ['16.5 Cardinal Dies: nothing (no C but Roma in the Curia; from none)'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from legalis.graphs.regions import cluster_neighbours
from legalis.model.core.views import ListView, RandomSource, Refusal
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import AreaState, EuState

__all__ = [
    "SYMBOLS",
    "Expansion",
    "NativeChoice",
    "SecondaryOptions",
    "Symbol",
    "activate_power_struggle",
    "apply_cardinal",
    "apply_disloyal",
    "apply_expansion",
    "apply_lost_at_sea",
    "apply_native_uprising",
    "apply_pirates",
    "attrition",
    "auto_cardinal",
    "auto_expansion",
    "auto_pirates",
    "cardinal_moves",
    "character_mortality",
    "disloyal_areas",
    "disloyal_moves",
    "expansion_moves",
    "lost_at_sea_moves",
    "native_uprising_moves",
    "pirate_moves",
    "realm_adjacent_areas",
    "rebellion_moves",
    "record_rebel_die",
    "resolve_symbols",
    "unrest_rebellion",
]

SYMBOLS = {
    "character_mortality": "16.5 Character Mortality",
    "unrest_rebellion": "16.5 Unrest/Rebellion",
    "native_uprising": "16.5 Native Uprising",
    "lost_at_sea": "16.5 Lost at Sea",
    "pirates": "16.5 Pirates",
    "cardinal_dies": "16.5 Cardinal Dies",
    "attrition": "16.5 Attrition",
    "disloyal_vassals": "16.5 Disloyal Vassals",
    "dnpr_expansion": "16.5 DNPR Expansion",
    "activate_power_struggle": "16.5 Activate Power Struggle",
}
MORTALITY, REBELLION, NATIVE, LOST, PIRATES, CARDINAL, ATTRITION, DISLOYAL, DNPR, POWER = (
    SYMBOLS.values()
)
UNITS_PER_CASUALTY = 4  # 16.5 Attrition: "1 Land Unit ... for every 4 Deployed Land Units"

RebelDie = Callable[[EuState, str, str, RandomSource, ResolutionLog], EuState]


@dataclass(frozen=True)
class Symbol:
    """One symbol: ``kind`` a key of :data:`SYMBOLS`; ``arg`` the mortality symbol
    (Character Mortality) or the DNPR colour (DNPR Expansion)."""

    kind: str
    arg: str | None = None


@dataclass(frozen=True)
class NativeChoice:
    """16.5 Native Uprising: the Distant t that gains u (None: none), and which of
    the two effects the Active player ignores (None: neither)."""

    town: str | None
    ignore: Literal["colonist", "unrest"] | None = None


@dataclass(frozen=True)
class Expansion:
    """16.5 DNPR Expansion: the DNPR and the Province that gets its token."""

    dnpr: str
    province: str


def record_rebel_die(
    state: EuState, player: str, province: str, rng: RandomSource, log: ResolutionLog
) -> EuState:
    """The default ``rebel_die_outcome``: roll one six-sided Rebel Die (seeded,
    logged) and change nothing; the faces' meaning (p. 37) is not in the seed."""
    face = rng.randrange(6) + 1
    log.decide(REBELLION, f"Rebel Die for {player} (outcome not modelled)", [province], face)
    return state


@dataclass(frozen=True)
class SecondaryOptions:
    """Readings of unclear points (see ``docs/rules-questions.md``).

    ``rebel_die_outcome``: rolls one Rebel Die for a player's Province and returns
    the new state (default :func:`record_rebel_die`).
    ``realm_adjacency``: ``"same_or_land_border"`` (default) a Province is adjacent
    to a Realm when its Area holds one of the Realm's Provinces or borders one by
    land; ``"land_border"`` only Areas bordering one by land (not its own Areas).
    ``cardinal_tie``: ``"rightmost"`` (default) with PRs tied for the most C, the
    rightmost C of any of them; ``"seat_order"`` the rightmost C of the tied PR
    first in clockwise order from the Active player (from the first seat if none).
    ``lost_at_sea_pick``: how a player choosing for themselves picks the Ship:
    ``"alphabetical"`` (default) the first eligible Sea Zone by id;
    ``"largest_stack"`` the Sea Zone with most of their Ships, then alphabetical.
    ``native_ignore``: what an auto-resolved Active player ignores (default
    ``"unrest"``).
    """

    rebel_die_outcome: RebelDie = record_rebel_die
    realm_adjacency: Literal["same_or_land_border", "land_border"] = "same_or_land_border"
    cardinal_tie: Literal["rightmost", "seat_order"] = "rightmost"
    lost_at_sea_pick: Literal["alphabetical", "largest_stack"] = "alphabetical"
    native_ignore: Literal["colonist", "unrest"] | None = "unrest"


def _refuser(offered: Sequence[Any], rule: str, why: Callable[[Any], str]) -> Any:
    allowed = set(offered)

    def refuse(move: object) -> Refusal | None:
        if move in allowed:
            return None
        return Refusal(why(move), rule)

    return refuse


def _check(view: ListView[Any], move: object) -> None:
    refused = view.refusal(move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)


def _area_state(state: EuState, area: str) -> AreaState:
    return state.areas.setdefault(area, AreaState())


# ---------------------------------------------------------------------- Character Mortality


def character_mortality(state: EuState, symbol: str, log: ResolutionLog) -> EuState:
    """Every character showing ``symbol`` gets an H; with a second H it dies and its
    card is discarded (removed from its Realm)."""
    new = state.copy()
    for name in sorted(new.realms):
        realm = new.realms[name]
        kept = []
        for character in realm.characters:
            if symbol not in character.symbols:
                kept.append(character)
            elif character.ill_health == 0:
                character.ill_health = 1
                kept.append(character)
                log.decide(MORTALITY, f"shows {symbol}: gains H", [character.name], name)
            else:
                log.decide(MORTALITY, f"shows {symbol}: second H, dies", [character.name], name)
        realm.characters = kept
    return new


# ---------------------------------------------------------------------- Unrest/Rebellion


def _unrest_provinces(state: EuState, player: str) -> list[str]:
    return sorted(
        name
        for name, p in state.provinces.items()
        if p.unrest and (p.owner == player or p.town_of == player)
    )


def rebellion_moves(state: EuState) -> ListView[str]:
    """The Active player's Province to roll the one Rebel Die for."""
    offered = _unrest_provinces(state, state.active) if state.active else []

    def why(move: object) -> str:
        if state.active is None:
            return "no Active player: everyone rolls for every Province with Unrest"
        return f"{move!r} is not a Province of {state.active} with Unrest"

    return ListView(offered, _refuser(offered, REBELLION, why))


def unrest_rebellion(
    state: EuState,
    rng: RandomSource,
    log: ResolutionLog,
    options: SecondaryOptions | None = None,
    active_province: str | None = None,
) -> EuState:
    """Every player rolls a Rebel Die per Province with u, clockwise from the Active
    player; the Active player rolls at most 1, for ``active_province`` (auto: the
    alphabetically first)."""
    options = options or SecondaryOptions()
    new = state.copy()
    for player in state.clockwise_from(state.active):
        provinces = _unrest_provinces(state, player)
        if player == state.active and provinces:
            view = rebellion_moves(state)
            if active_province is None:
                active_province = provinces[0]
                log.decide(REBELLION, "Active player rolls 1: alphabetical", provinces,
                           active_province)  # fmt: skip
            _check(view, active_province)
            provinces = [active_province]
        for province in provinces:
            new = options.rebel_die_outcome(new, player, province, rng, log)
    return new


# ---------------------------------------------------------------------- Native Uprising


def _distant_towns(state: EuState, player: str) -> list[str]:
    return sorted(
        name
        for name, p in state.provinces.items()
        if p.distant and p.town is not None and p.town_of == player and not p.unrest
    )


def native_uprising_moves(state: EuState, player: str) -> ListView[NativeChoice]:
    """A player's choices: a Distant t without u for the u (None when there is
    none); the Active player may also ignore one of the two effects."""
    towns: list[str | None] = list(_distant_towns(state, player)) or [None]
    offered = [NativeChoice(t) for t in towns]
    if player == state.active:
        offered += [NativeChoice(t, "colonist") for t in towns]
        offered.append(NativeChoice(None, "unrest"))

    def why(move: object) -> str:
        if not isinstance(move, NativeChoice):
            return "not a Native Uprising choice"
        if move.ignore is not None and player != state.active:
            return "only the Active player may ignore an effect"
        if move.ignore == "unrest" and move.town is not None:
            return "ignoring the u places no u"
        return f"{move.town!r} is not a Distant t of {player} without u"

    return ListView(offered, _refuser(offered, NATIVE, why))


def apply_native_uprising(state: EuState, player: str, choice: NativeChoice) -> EuState:
    """Lose 1 Colonist from the Pool (if any) and gain u in the chosen t."""
    _check(native_uprising_moves(state, player), choice)
    new = state.copy()
    realm = new.realms[player]
    if choice.ignore != "colonist" and realm.colonists > 0:
        realm.colonists -= 1
    if choice.town is not None:
        new.provinces[choice.town].unrest = True
    return new


def _auto_native(
    state: EuState, player: str, options: SecondaryOptions, log: ResolutionLog
) -> NativeChoice:
    towns = _distant_towns(state, player)
    ignore = options.native_ignore if player == state.active else None
    town = None if ignore == "unrest" or not towns else towns[0]
    log.decide(NATIVE, f"{player}: first Distant t alphabetically; ignores {ignore or 'nothing'}",
               towns, town)  # fmt: skip
    return NativeChoice(town, ignore)


# ---------------------------------------------------------------------- Lost at Sea


def lost_at_sea_moves(state: EuState, victim: str) -> ListView[str]:
    """The Sea Zones holding a Ship of ``victim`` not next to one of its Friendly
    Ports: one of these loses a Ship."""
    safe = set(state.friendly_ports.get(victim, []))
    offered = sorted(s for s, n in state.ships.get(victim, {}).items() if n > 0 and s not in safe)

    def why(move: object) -> str:
        if move in safe:
            return f"{move} is next to a Friendly Port of {victim}"
        return f"{victim} has no Ship in {move!r}"

    return ListView(offered, _refuser(offered, LOST, why))


def apply_lost_at_sea(state: EuState, victim: str, sea: str) -> EuState:
    _check(lost_at_sea_moves(state, victim), sea)
    new = state.copy()
    new.ships[victim][sea] -= 1
    return new


def _auto_lost(state: EuState, victim: str, options: SecondaryOptions, log: ResolutionLog) -> str:
    seas = list(lost_at_sea_moves(state, victim))
    if options.lost_at_sea_pick == "largest_stack":
        sea = min(seas, key=lambda s: (-state.ships[victim][s], s))
    else:
        sea = seas[0]
    log.decide(LOST, f"{victim} chooses for themselves ({options.lost_at_sea_pick})", seas, sea)
    return sea


# ---------------------------------------------------------------------- Pirates


def pirate_moves(state: EuState) -> ListView[str]:
    """Maritime Trade Nodes; those with at least 1 Merchant if there are any."""
    maritime = sorted(n for n, t in state.trade_nodes.items() if t.maritime)
    busy = [n for n in maritime if sum(state.trade_nodes[n].merchants.values()) > 0]
    offered = busy or maritime

    def why(move: object) -> str:
        if move in maritime:
            return f"{move} has no Merchant, and a node with a Merchant exists"
        return f"{move!r} is not a Maritime Trade Node"

    return ListView(offered, _refuser(offered, PIRATES, why))


def apply_pirates(state: EuState, node: str) -> EuState:
    _check(pirate_moves(state), node)
    new = state.copy()
    new.trade_nodes[node].pirates += 1
    return new


def auto_pirates(state: EuState, rng: RandomSource, log: ResolutionLog) -> str | None:
    """Most Merchants; first tie-break Expanded; second random (``rng``)."""
    nodes = list(pirate_moves(state))
    if not nodes:
        log.decide(PIRATES, "no Maritime Trade Node", [], None)
        return None
    keys: tuple[tuple[str, Callable[[str], int]], ...] = (
        ("most Merchants", lambda n: -sum(state.trade_nodes[n].merchants.values())),
        ("Expanded node", lambda n: 0 if state.trade_nodes[n].expanded else 1),
    )
    pool = nodes
    for label, key in keys:
        best = min(key(n) for n in pool)
        pool = [n for n in pool if key(n) == best]
        if len(pool) == 1:
            log.decide(PIRATES, label, nodes, pool[0])
            return pool[0]
    chosen = pool[rng.randrange(len(pool))]
    log.decide(PIRATES, "random", pool, chosen)
    return chosen


# ---------------------------------------------------------------------- Cardinal Dies


def cardinal_moves(state: EuState) -> ListView[int]:
    """Positions (0 = leftmost) of the C that may be removed: any but Roma's."""
    offered = [i for i, owner in enumerate(state.curia) if owner != "roma"]

    def why(move: object) -> str:
        if isinstance(move, int) and 0 <= move < len(state.curia):
            return "the Roma C may not be removed"
        return f"no C at position {move!r}"

    return ListView(offered, _refuser(offered, CARDINAL, why))


def apply_cardinal(state: EuState, index: int) -> EuState:
    """Remove the C and slide the rest left."""
    _check(cardinal_moves(state), index)
    new = state.copy()
    del new.curia[index]
    return new


def auto_cardinal(
    state: EuState, log: ResolutionLog, options: SecondaryOptions | None = None
) -> int | None:
    """The rightmost C of the PR with the most C; ties by ``options.cardinal_tie``."""
    options = options or SecondaryOptions()
    positions = list(cardinal_moves(state))
    if not positions:
        log.decide(CARDINAL, "no C but Roma in the Curia", [], None)
        return None
    counts = {p: state.curia.count(p) for p in {state.curia[i] for i in positions}}
    most = max(counts.values())
    tied = sorted(p for p, n in counts.items() if n == most)
    if len(tied) == 1:
        owner, label = tied[0], "the PR with the most C"
    elif options.cardinal_tie == "rightmost":
        owner = state.curia[max(i for i in positions if state.curia[i] in tied)]
        label = "tied PRs: the rightmost C among them"
    else:
        owner = next(p for p in state.clockwise_from(state.active) if p in tied)
        label = "tied PRs: the first in seat order"
    index = max(i for i in positions if state.curia[i] == owner)
    log.decide(CARDINAL, label, tied, owner)
    log.decide(CARDINAL, f"the rightmost C of {owner}", positions, index)
    return index


# ---------------------------------------------------------------------- Attrition


def attrition(state: EuState, log: ResolutionLog) -> EuState:
    """Each PR at War but the Active player loses 1 Land Unit per 4 Deployed, as
    Casualties, from its largest stacks first (ties: alphabetical Area)."""
    new = state.copy()
    for player in state.clockwise_from(state.active):
        if player == state.active or not state.realms[player].at_war:
            continue
        units = new.land_units.get(player, {})
        loss = sum(units.values()) // UNITS_PER_CASUALTY
        for _ in range(loss):
            area = min((a for a, n in units.items() if n > 0), key=lambda a: (-units[a], a))
            units[area] -= 1
            new.realms[player].casualties += 1
            log.decide(ATTRITION, f"{player}: a Casualty from the largest stack",
                       sorted(units), area)  # fmt: skip
    return new


# ---------------------------------------------------------------------- Disloyal Vassals


def _vassals(state: EuState, player: str, area: str) -> list[str]:
    return [
        p
        for p in state.map.areas[area].provinces
        if p in state.provinces
        and state.provinces[p].vassal
        and state.provinces[p].town_of == player
    ]


def _has_marriage(state: EuState, player: str, area: str) -> bool:
    owners = {
        state.provinces[p].owner for p in state.map.areas[area].provinces if p in state.provinces
    }
    return any(o is not None and player in state.realms[o].marriages for o in owners)


def disloyal_areas(state: EuState, player: str) -> list[str]:
    """The Areas with ``player``'s v where it has no I and no M, or fewer I than
    some Opponent."""
    found = []
    for area in sorted(state.map.areas):
        if not _vassals(state, player, area):
            continue
        influence = state.areas.get(area, AreaState()).influence
        mine = influence.get(player, 0)
        bare = mine == 0 and not _has_marriage(state, player, area)
        outdone = any(influence.get(o, 0) > mine for o in state.players if o != player)
        if bare or outdone:
            found.append(area)
    return found


def disloyal_moves(state: EuState, player: str) -> ListView[str]:
    """The qualifying Areas with the most of ``player``'s v: one must be picked."""
    areas = disloyal_areas(state, player)
    most = max((len(_vassals(state, player, a)) for a in areas), default=0)
    offered = [a for a in areas if len(_vassals(state, player, a)) == most]

    def why(move: object) -> str:
        if move in areas:
            return f"{move} has fewer of {player}'s v than another qualifying Area"
        return f"{move!r} is not an Area where {player}'s v are disloyal"

    return ListView(offered, _refuser(offered, DISLOYAL, why))


def apply_disloyal(state: EuState, player: str, area: str) -> EuState:
    """u on all the player's v in ``area``; Rebels on each equal to its Tax Value,
    except for the Active player."""
    _check(disloyal_moves(state, player), area)
    new = state.copy()
    for name in _vassals(state, player, area):
        province = new.provinces[name]
        province.unrest = True
        if player != state.active:
            province.rebels += province.tax
    return new


# ---------------------------------------------------------------------- DNPR Expansion


def realm_adjacent_areas(
    state: EuState, realm: str, options: SecondaryOptions | None = None
) -> tuple[list[str], list[str]]:
    """The Areas whose Provinces are adjacent to ``realm``: those holding one of its
    Provinces, and those bordering one of those by land (``options.realm_adjacency``
    drops the first group)."""
    options = options or SecondaryOptions()
    own = state.areas_of(realm)
    bordering = cluster_neighbours(state.map.graph, own, across_sea=False)
    if options.realm_adjacency == "land_border":
        return [], bordering
    return own, bordering


def _dnprs(state: EuState, color: str) -> list[str]:
    return sorted(
        name
        for name, r in state.realms.items()
        if r.kind == "dnpr"
        and r.color == color
        and r.status != "annexed"
        and not r.active_ally
        and state.provinces_of(name)
    )


def _core_of_player(state: EuState, province: str) -> bool:
    return any(province in state.realms[p].core_provinces for p in state.players)


def _eligible(state: EuState, dnpr: str, province: str) -> bool:
    p = state.provinces[province]
    if p.owner == dnpr or p.occupied_by is not None or _core_of_player(state, province):
        return False
    if p.owner is not None and p.owner == state.realms[dnpr].ally:
        return False
    if p.capital:
        owner = state.realms.get(p.owner or "")
        last = (
            owner is not None
            and owner.kind == "npr"
            and state.provinces_of(p.owner or "") == [province]
        )
        return last
    return True


def _atlantic_port(state: EuState, dnpr: str) -> bool:
    for province in state.provinces_of(dnpr):
        if state.provinces[province].port:
            for sea in state.map.seas_of(state.map.area_of(province)):
                if state.sea_mark(sea) == "none":
                    return True
    return False


def expansion_moves(
    state: EuState, color: str, options: SecondaryOptions | None = None
) -> ListView[Expansion]:
    """Every (DNPR of ``color``, Province) the symbol allows."""
    offered: list[Expansion] = []
    for dnpr in _dnprs(state, color):
        own, bordering = realm_adjacent_areas(state, dnpr, options)
        places = {
            p
            for a in own + bordering
            for p in state.map.areas[a].provinces
            if p in state.provinces and _eligible(state, dnpr, p)
        }
        if state.age >= 2 and _atlantic_port(state, dnpr):
            places |= {
                n
                for n, p in state.provinces.items()
                if p.territory and p.owner is None and p.dnpr_token is None
            }
        offered += [Expansion(dnpr, p) for p in sorted(places)]

    def why(move: object) -> str:
        if not isinstance(move, Expansion):
            return "not a DNPR Expansion"
        if move.dnpr not in _dnprs(state, color):
            return f"{move.dnpr!r} is not a DNPR of colour {color} in play, nor an Active Ally"
        if move.province not in state.provinces:
            return f"unknown Province {move.province!r}"
        p = state.provinces[move.province]
        if p.capital:
            return "a Capital, and not the last Province of an NPR"
        if p.occupied_by is not None:
            return "the Province is Occupied"
        if p.owner is not None and p.owner == state.realms[move.dnpr].ally:
            return "the Province is Owned by the DNPR's Ally"
        if _core_of_player(state, move.province):
            return "a Core Province of a PR"
        if p.owner == move.dnpr:
            return "the DNPR already Owns it"
        return "the Province is not adjacent to the DNPR"

    return ListView(offered, _refuser(offered, DNPR, why))


def apply_expansion(
    state: EuState, color: str, move: Expansion, log: ResolutionLog,
    options: SecondaryOptions | None = None,
) -> EuState:  # fmt: skip
    """Place the DNPR's token: the Province becomes the DNPR's; a t/v on it gains u
    (the token lies beneath it, a Core Province of the DNPR)."""
    _check(expansion_moves(state, color, options), move)
    new = state.copy()
    province = new.provinces[move.province]
    before = province.owner
    province.owner = move.dnpr
    province.dnpr_token = move.dnpr
    if province.town is not None:
        province.unrest = True
    previous = state.realms.get(before or "")
    if previous is not None and previous.kind == "npr" and previous.ally is not None:
        log.decide(DNPR + ": CB", "an NPR Allied to a PR lost a Province: the PR may place "
                   "a CB token on the DNPR's Capital", [previous.ally], previous.ally)  # fmt: skip
    return new


def _npr_tax(state: EuState, province: str) -> int:
    return state.realms[state.provinces[province].owner or ""].tax_income


def auto_expansion(
    state: EuState, color: str, log: ResolutionLog, options: SecondaryOptions | None = None
) -> EuState:
    """Every DNPR of ``color`` (alphabetically) Annexes an adjacent NPR Province:
    Areas where it Owns Provinces first, then Areas adjacent by land; the NPR with
    the lowest Tax Income; ties (and the Province within the chosen NPR) by
    alphabetical order of the Provinces."""
    for dnpr in _dnprs(state, color):
        own, bordering = realm_adjacent_areas(state, dnpr, options)
        chosen = None
        for tier, areas in (("Areas where it Owns Provinces", own), ("Areas by land", bordering)):
            candidates = sorted(
                p
                for a in areas
                for p in state.map.areas[a].provinces
                if p in state.provinces
                and state.provinces[p].owner is not None
                and state.realms[state.provinces[p].owner or ""].kind == "npr"
                and _eligible(state, dnpr, p)
            )
            if not candidates:
                continue
            low = min(_npr_tax(state, p) for p in candidates)
            lowest = [p for p in candidates if _npr_tax(state, p) == low]
            realms = sorted({state.provinces[p].owner or "" for p in lowest})
            label = f"{tier}; lowest Tax Income {low}"
            if len(realms) > 1:
                label += "; tied Realms: alphabetical Province"
            elif len(lowest) > 1:
                label += "; alphabetical Province"
            chosen = lowest[0]
            log.decide(f"{DNPR} ({dnpr})", label, candidates, chosen)
            break
        if chosen is None:
            log.decide(f"{DNPR} ({dnpr})", "no eligible adjacent NPR Province", [], None)
            continue
        state = apply_expansion(state, color, Expansion(dnpr, chosen), log, options)
    return state


# ---------------------------------------------------------------------- Power Struggle


def activate_power_struggle(state: EuState, log: ResolutionLog) -> EuState:
    """The Upcoming Power Struggle becomes the Active one; its Battleground Areas
    get markers (those of the previous Active one are removed). Scoring is not
    part of this symbol."""
    upcoming = state.upcoming_power_struggle
    if upcoming is None:
        log.decide(POWER, "no Upcoming Power Struggle in play", [], None)
        return state
    new = state.copy()
    for marked in new.areas.values():
        marked.battleground = False
    for ground in state.power_struggles[upcoming]:
        _area_state(new, ground).battleground = True
    new.active_power_struggle = upcoming
    new.upcoming_power_struggle = None
    log.decide(POWER, "the Upcoming one becomes Active", state.power_struggles[upcoming], upcoming)
    return new


# ---------------------------------------------------------------------- a card's symbols

Chooser = Callable[[str, str, ListView[Any]], Any]


class _NoDraw:
    def randrange(self, stop: int, /) -> int:
        raise IllegalMoveError("a random draw is needed: give a seeded rng", rule="16.5")

    def shuffle(self, items: list[Any], /) -> None:
        raise IllegalMoveError("a random draw is needed: give a seeded rng", rule="16.5")


def resolve_symbols(
    state: EuState,
    symbols: Sequence[Symbol],
    *,
    log: ResolutionLog,
    rng: RandomSource | None = None,
    options: SecondaryOptions | None = None,
    choose: Chooser | None = None,
) -> EuState:
    """Resolve a card's symbols left to right; a new state.

    Every player's choice goes to ``choose(rule, player, view)`` when it is given:
    the Active player's, and each affected player's own where the symbol lets them
    pick (Native Uprising, Disloyal Vassals: "any affected PR must pick"); the
    answer is checked against the view. With no ``choose``, or no Active player
    (an unpicked Event, 16.4), every choice follows the auto-resolution rules and
    the defaults of ``options``."""
    options = options or SecondaryOptions()
    draw: RandomSource = rng if rng is not None else _NoDraw()
    active = state.active

    def pick(rule: str, player: str, view: ListView[Any], auto: Callable[[], Any]) -> Any:
        if choose is not None and active is not None and view:
            move = choose(rule, player, view)
            _check(view, move)
            log.decide(rule, f"chosen by {player}", list(view), move)
            return move
        return auto()

    for symbol in symbols:
        kind = symbol.kind
        if kind not in SYMBOLS:
            raise InputError("unknown symbol", path="symbols", allowed=SYMBOLS)
        if kind in ("character_mortality", "dnpr_expansion") and symbol.arg is None:
            raise InputError(f"{kind} needs its symbol or colour", path="symbols")
        if kind == "character_mortality":
            state = character_mortality(state, symbol.arg or "", log)
        elif kind == "unrest_rebellion":
            province = None
            if active is not None and rebellion_moves(state):
                province = pick(REBELLION, active, rebellion_moves(state), _none)
            state = unrest_rebellion(state, draw, log, options, province)
        elif kind == "native_uprising":
            for player in state.clockwise_from(active):
                now = state
                choice = pick(NATIVE, player, native_uprising_moves(now, player),
                              partial(_auto_native, now, player, options, log))  # fmt: skip
                state = apply_native_uprising(state, player, choice)
        elif kind == "lost_at_sea":
            for victim in state.clockwise_from(active):
                if victim == active or not lost_at_sea_moves(state, victim):
                    continue
                now = state
                sea = pick(LOST, active or "", lost_at_sea_moves(now, victim),
                           partial(_auto_lost, now, victim, options, log))  # fmt: skip
                state = apply_lost_at_sea(state, victim, sea)
        elif kind == "pirates":
            now = state
            node = pick(PIRATES, active or "", pirate_moves(now),
                        partial(auto_pirates, now, draw, log))  # fmt: skip
            if node is not None:
                state = apply_pirates(state, node)
        elif kind == "cardinal_dies":
            now = state
            index = pick(CARDINAL, active or "", cardinal_moves(now),
                         partial(auto_cardinal, now, log, options))  # fmt: skip
            if index is not None:
                state = apply_cardinal(state, index)
        elif kind == "attrition":
            state = attrition(state, log)
        elif kind == "disloyal_vassals":
            for player in state.clockwise_from(active):
                areas = disloyal_moves(state, player)
                if not areas:
                    continue
                area = pick(DISLOYAL, player, areas, partial(_first, areas, log))
                state = apply_disloyal(state, player, area)
        elif kind == "dnpr_expansion":
            color = symbol.arg or ""
            expansions = expansion_moves(state, color, options)
            if choose is not None and active is not None and expansions:
                move = pick(DNPR, active, expansions, _none)
                state = apply_expansion(state, color, move, log, options)
            else:
                state = auto_expansion(state, color, log, options)
        else:
            state = activate_power_struggle(state, log)
    return state


def _none() -> None:
    return None


def _first(view: ListView[str], log: ResolutionLog) -> str:
    area = view.nth(0)
    log.decide(DISLOYAL, "an Area with the most v: alphabetical", list(view), area)
    return area
