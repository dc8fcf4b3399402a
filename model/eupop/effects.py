"""The Standard Event effects of EU:PoP (16.3): who may gain what, and the result.

Each effect has a move (a frozen, hashable record of the choice), a refusal
function (``None`` when the move is legal, else a :class:`Refusal` naming
``16.3 <effect>``) and an apply function giving a new state (the old one is never
changed). The general guidelines of 16.3 are small functions: the inclusive "or",
the forced A)/B) choice, the clockwise order, who chooses, and NPRs saying yes.
The lazy views of the legal choices are in :mod:`legalis.solver.eupop`.

>>> from legalis.model.eupop.state import small_state
>>> state = small_state()
>>> refuse_g(state, "france", GainG("saxony")) is None
True
>>> apply_g(state, "france", GainG("saxony")).areas["saxony"].g
['france']
>>> ab_options(can_a=False, can_b=True)
('B',)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from legalis.model.core.views import Refusal
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop.state import INFLUENCE_PER_AREA, MAX_MERCHANTS, AreaState, EuState

__all__ = [
    "ALLIANCE",
    "DEVELOP",
    "GENERAL",
    "G_RULE",
    "INFLUENCE",
    "MARRIAGE",
    "MERCHANT",
    "TOWN",
    "UNITS",
    "DevelopTown",
    "EffectOptions",
    "GainAlliance",
    "GainG",
    "GainMarriage",
    "GainTown",
    "GainUnits",
    "PlaceInfluence",
    "ab_options",
    "alliance_ignored",
    "apply_alliance",
    "apply_develop",
    "apply_g",
    "apply_influence",
    "apply_marriage",
    "apply_merchant",
    "apply_town",
    "apply_units",
    "chooser",
    "default_marriage_eligible",
    "inclusive_or",
    "influence_areas",
    "influence_room",
    "marriage_ignored",
    "npr_answer",
    "overflow",
    "refuse_alliance",
    "refuse_develop",
    "refuse_discards",
    "refuse_g",
    "refuse_influence",
    "refuse_marriage",
    "refuse_merchant",
    "refuse_town",
    "refuse_units",
    "resolution_order",
    "unit_places",
]

INFLUENCE = "16.3 Gain/place Influence"
ALLIANCE = "16.3 Gain Alliance"
MARRIAGE = "16.3 Gain Royal Marriage"
G_RULE = "16.3 Gain G"
TOWN = "16.3 Gain/place t or v"
DEVELOP = "16.3 Develop a Small t into a Large t"
MERCHANT = "16.3 Gain Merchant"
UNITS = "16.3 Gain Military Unit"
GENERAL = "16.3 General Event guidelines"


def default_marriage_eligible(state: EuState, player: str, target: str) -> bool:
    """Option ``marriage_eligible`` (default): the partner page (p. 32) is not in the
    rules at hand, so a Realm is an eligible Marriage partner when it is a
    Non-player Realm that is not Annexed and carries no M of this player yet."""
    realm = state.realms.get(target)
    return (
        realm is not None
        and realm.kind in ("npr", "dnpr")
        and realm.status != "annexed"
        and player not in realm.marriages
    )


@dataclass(frozen=True)
class EffectOptions:
    """The named readings of unclear points (``docs/rules-questions.md``).

    ``influence_up_to``: the gained I may be placed only in part (default False:
    placed as far as the Areas' room allows). ``replaced_alliance_returns``: an
    Opponent's A replaced by yours goes back to that Opponent's available markers
    (default True). ``marriage_eligible``: who may receive an M. ``units_split``:
    gained Units may be spread over several locations (default False: one location).
    """

    influence_up_to: bool = False
    replaced_alliance_returns: bool = True
    marriage_eligible: Callable[[EuState, str, str], bool] = default_marriage_eligible
    units_split: bool = False


DEFAULT = EffectOptions()


def _check(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise IllegalMoveError(refusal.reason, rule=refusal.rule)


def _is_player(state: EuState, player: str) -> bool:
    return player in state.players


# ---------------------------------------------------------------- general guidelines


def inclusive_or(items: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """16.3: "or" in a list is inclusive: every non-empty subset, smallest first.

    >>> list(inclusive_or(["a", "b"]))
    [('a',), ('b',), ('a', 'b')]
    """
    for size in range(1, len(items) + 1):
        yield from combinations(items, size)


def ab_options(*, can_a: bool, can_b: bool) -> tuple[str, ...]:
    """16.3: the A)/B) options open: the one that can be met when only one can,
    either when both or neither can."""
    if can_a != can_b:
        return ("A",) if can_a else ("B",)
    return ("A", "B")


def resolution_order(
    state: EuState, concerned: Sequence[str], first: str | None = None
) -> list[str]:
    """16.3: effects on several players go clockwise, from the Active player unless
    the card names another ``first``."""
    wanted = set(concerned)
    return [p for p in state.clockwise_from(first or state.active) if p in wanted]


def chooser(state: EuState, gainer: str) -> str | None:
    """16.3: the PR that gains or loses chooses; ``None`` for an NPR (it says yes)."""
    return gainer if _is_player(state, gainer) else None


def npr_answer() -> bool:
    """16.3: NPRs say "yes" when offered an Alliance or when they "may" do something."""
    return True


# ---------------------------------------------------------------- Influence


@dataclass(frozen=True)
class PlaceInfluence:
    """I placed per Area, and Opponents' I discarded to make room: ``(area, opponent,
    amount)`` entries."""

    placed: tuple[tuple[str, int], ...]
    discards: tuple[tuple[str, str, int], ...] = ()


def influence_areas(state: EuState, areas: Sequence[str]) -> list[str]:
    """The named Areas where I may go: those with a Province Owned by an NPR or a
    Vassal Realm (16.3 Gain/place Influence), in the given order."""
    open_: list[str] = []
    for area in areas:
        if area not in state.map.areas:
            continue
        for province in state.map.areas[area].provinces:
            owner = state.provinces.get(province)
            realm = state.realms.get(owner.owner or "") if owner is not None else None
            if realm is not None and realm.kind in ("npr", "dnpr") and realm.status != "annexed":
                open_.append(area)
                break
    return open_


def influence_room(state: EuState, player: str, area: str) -> int:
    """How much of the player's I the Area can take, Opponents' I being discardable."""
    influence = state.areas[area].influence if area in state.areas else {}
    return INFLUENCE_PER_AREA - influence.get(player, 0)


def overflow(state: EuState, player: str, area: str, amount: int) -> int:
    """How many Opponent I must go for ``amount`` more of the player's I to fit."""
    total = state.influence_total(area) if area in state.areas else 0
    return max(0, total + amount - INFLUENCE_PER_AREA)


def refuse_discards(
    state: EuState, player: str, area: str, amount: int, discards: Mapping[str, int]
) -> Refusal | None:
    """Whether ``discards`` (opponent -> I) makes room for exactly ``amount`` more I."""
    need = overflow(state, player, area, amount)
    influence = state.areas[area].influence if area in state.areas else {}
    for opponent, count in discards.items():
        if opponent == player or not _is_player(state, opponent):
            return Refusal(f"{opponent!r} is not an Opponent", INFLUENCE)
        if not 0 < count <= influence.get(opponent, 0):
            return Refusal(f"{opponent} has not {count} I in {area} to discard", INFLUENCE)
    if sum(discards.values()) != need:
        return Refusal(
            f"{area} needs {need} Opponent I discarded to fit {amount} I, not "
            f"{sum(discards.values())} (discard only as required)",
            INFLUENCE,
        )
    return None


def refuse_influence(
    state: EuState,
    player: str,
    amount: int,
    areas: Sequence[str],
    move: object,
    options: EffectOptions = DEFAULT,
    *,
    placement_only: bool = False,
) -> Refusal | None:
    """Whether ``move`` places ``amount`` I in the named ``areas`` legally;
    ``placement_only`` leaves the discards to a later choice."""
    if not isinstance(move, PlaceInfluence):
        return Refusal("not an Influence placement", INFLUENCE)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", INFLUENCE)
    open_ = influence_areas(state, areas)
    placed: dict[str, int] = {}
    for area, count in move.placed:
        if area in placed or count <= 0:
            return Refusal(f"{area} listed twice or with no I", INFLUENCE)
        if area not in areas:
            return Refusal(f"{area} is not named by the effect", INFLUENCE)
        if area not in open_:
            return Refusal(f"{area} has no Province Owned by an NPR or a Vassal Realm", INFLUENCE)
        if count > influence_room(state, player, area):
            return Refusal(f"{area} would hold more than {INFLUENCE_PER_AREA} I", INFLUENCE)
        placed[area] = count
    used = sum(placed.values())
    if used > amount:
        return Refusal(f"{used} I placed, only {amount} gained", INFLUENCE)
    room = sum(influence_room(state, player, area) for area in open_)
    if not options.influence_up_to and used < min(amount, room):
        return Refusal(f"{used} I placed where {min(amount, room)} fit", INFLUENCE)
    if placement_only:
        return None
    by_area: dict[str, dict[str, int]] = {}
    for area, opponent, count in move.discards:
        if area not in placed or opponent in by_area.get(area, {}):
            return Refusal(f"discard in {area} does not match a placement", INFLUENCE)
        by_area.setdefault(area, {})[opponent] = count
    for area, count in placed.items():
        refused = refuse_discards(state, player, area, count, by_area.get(area, {}))
        if refused is not None:
            return refused
    return None


def apply_influence(
    state: EuState,
    player: str,
    amount: int,
    areas: Sequence[str],
    move: PlaceInfluence,
    options: EffectOptions = DEFAULT,
) -> EuState:
    _check(refuse_influence(state, player, amount, areas, move, options))
    new = state.copy()
    for area, opponent, count in move.discards:
        influence = new.areas[area].influence
        influence[opponent] -= count
        if influence[opponent] == 0:
            del influence[opponent]
    for area, count in move.placed:
        if area not in new.areas:
            new.areas[area] = AreaState()
        influence = new.areas[area].influence
        influence[player] = influence.get(player, 0) + count
    return new


# ---------------------------------------------------------------- Alliance and Marriage


@dataclass(frozen=True)
class GainAlliance:
    """Your A on ``target``; ``take_back``: the Realm whose A of yours you take from
    the map when you have none available."""

    target: str
    take_back: str | None = None


@dataclass(frozen=True)
class GainMarriage:
    """Your M on ``target``; ``take_back`` as for :class:`GainAlliance`."""

    target: str
    take_back: str | None = None


def alliance_ignored(state: EuState, player: str, target: str) -> Refusal | None:
    """Why the effect is ignored for ``target``, or ``None`` when it may take effect."""
    realm = state.realms.get(target)
    if realm is None or realm.kind == "player":
        return Refusal(f"{target!r} is not a Non-player Realm", ALLIANCE)
    if realm.status != "independent":
        return Refusal(f"{target} is {realm.status}: the effect is ignored", ALLIANCE)
    if realm.at_war or realm.enemies:
        return Refusal(f"{target} is at War: the effect is ignored", ALLIANCE)
    if realm.ally == player:
        return Refusal(f"{target} is already your Ally", ALLIANCE)
    if realm.ally is not None:
        own = sum(state.areas[a].influence.get(player, 0) for a in state.areas_of(target)
                  if a in state.areas)  # fmt: skip
        theirs = sum(state.areas[a].influence.get(realm.ally, 0)
                     for a in state.areas_of(target) if a in state.areas)  # fmt: skip
        if own < theirs:
            return Refusal(
                f"replacing {realm.ally}'s A needs at least its {theirs} I in "
                f"{target}'s Areas; you have {own}",
                ALLIANCE,
            )
    return None


def marriage_ignored(
    state: EuState, player: str, target: str, options: EffectOptions = DEFAULT
) -> Refusal | None:
    if not options.marriage_eligible(state, player, target):
        return Refusal(f"{target} is not an eligible Marriage partner", MARRIAGE)
    return None


def _take_back_refusal(
    state: EuState, player: str, target: str, take_back: str | None, marriage: bool
) -> Refusal | None:
    rule = MARRIAGE if marriage else ALLIANCE
    mine = state.realms[player]
    available = mine.marriage_markers if marriage else mine.alliance_markers
    mark = "M" if marriage else "A"
    if available > 0:
        if take_back is not None:
            return Refusal(f"you have an {mark} available: none is taken from the map", rule)
        return None
    if take_back is None:
        return Refusal(f"no {mark} available: name one of yours to take from the map", rule)
    realm = state.realms.get(take_back)
    if take_back == target or realm is None:
        return Refusal(f"{take_back!r} cannot give back an {mark}", rule)
    holds = player in realm.marriages if marriage else realm.ally == player
    if not holds:
        return Refusal(f"{take_back} has no {mark} of yours", rule)
    if realm.active_ally:
        return Refusal(f"{take_back} is an Active Ally (K)", rule)
    if realm.disputed_succession:
        return Refusal(f"{take_back} is a Disputed Succession (L)", rule)
    return None


def refuse_alliance(state: EuState, player: str, move: object) -> Refusal | None:
    if not isinstance(move, GainAlliance):
        return Refusal("not an Alliance choice", ALLIANCE)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", ALLIANCE)
    return alliance_ignored(state, player, move.target) or _take_back_refusal(
        state, player, move.target, move.take_back, marriage=False
    )


def refuse_marriage(
    state: EuState, player: str, move: object, options: EffectOptions = DEFAULT
) -> Refusal | None:
    if not isinstance(move, GainMarriage):
        return Refusal("not a Royal Marriage choice", MARRIAGE)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", MARRIAGE)
    return marriage_ignored(state, player, move.target, options) or _take_back_refusal(
        state, player, move.target, move.take_back, marriage=True
    )


def apply_alliance(
    state: EuState, player: str, move: GainAlliance, options: EffectOptions = DEFAULT
) -> EuState:
    _check(refuse_alliance(state, player, move))
    new = state.copy()
    mine = new.realms[player]
    if move.take_back is not None:
        old = new.realms[move.take_back]
        old.ally = None
        old.active_ally = False
    else:
        mine.alliance_markers -= 1
    target = new.realms[move.target]
    if target.ally is not None and options.replaced_alliance_returns:
        new.realms[target.ally].alliance_markers += 1
    target.ally = player
    target.active_ally = False
    return new


def apply_marriage(
    state: EuState, player: str, move: GainMarriage, options: EffectOptions = DEFAULT
) -> EuState:
    _check(refuse_marriage(state, player, move, options))
    new = state.copy()
    if move.take_back is not None:
        new.realms[move.take_back].marriages.remove(player)
    else:
        new.realms[player].marriage_markers -= 1
    new.realms[move.target].marriages.append(player)
    return new


# ---------------------------------------------------------------- G


@dataclass(frozen=True)
class GainG:
    area: str


def refuse_g(state: EuState, player: str, move: object) -> Refusal | None:
    if not isinstance(move, GainG):
        return Refusal("not a G placement", G_RULE)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", G_RULE)
    if move.area not in state.map.areas:
        return Refusal(f"unknown Area {move.area!r}", G_RULE)
    if move.area in state.areas and player in state.areas[move.area].g:
        return Refusal(f"you already have a G in {move.area}: only 1 G in each Area", G_RULE)
    return None


def apply_g(state: EuState, player: str, move: GainG) -> EuState:
    _check(refuse_g(state, player, move))
    new = state.copy()
    if move.area not in new.areas:
        new.areas[move.area] = AreaState()
    new.areas[move.area].g.append(player)
    return new


# ---------------------------------------------------------------- t and v


@dataclass(frozen=True)
class GainTown:
    """A Small t (or, with ``vassal``, a v) on ``province``."""

    province: str
    vassal: bool = False


def refuse_town(state: EuState, player: str, move: object) -> Refusal | None:
    if not isinstance(move, GainTown):
        return Refusal("not a t/v placement", TOWN)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", TOWN)
    province = state.provinces.get(move.province)
    if province is None:
        return Refusal(f"unknown Province {move.province!r}", TOWN)
    if province.town_of is not None:
        whose = "yours" if province.town_of == player else f"{province.town_of}'s"
        return Refusal(f"{move.province} already has a t/v ({whose})", TOWN)
    occupier = province.occupied_by
    if occupier is not None and occupier != player and _is_player(state, occupier):
        return Refusal(f"{move.province} is Occupied by {occupier}", TOWN)
    if (
        province.owner is not None
        and province.owner != player
        and _is_player(state, province.owner)
    ):
        return Refusal(f"{move.province} is Owned by {province.owner}", TOWN)
    return None


def apply_town(state: EuState, player: str, move: GainTown) -> EuState:
    _check(refuse_town(state, player, move))
    new = state.copy()
    province = new.provinces[move.province]
    province.town = "small"
    province.town_of = player
    province.vassal = move.vassal
    return new


@dataclass(frozen=True)
class DevelopTown:
    province: str


def refuse_develop(state: EuState, player: str, move: object) -> Refusal | None:
    if not isinstance(move, DevelopTown):
        return Refusal("not a development", DEVELOP)
    province = state.provinces.get(move.province)
    if province is None:
        return Refusal(f"unknown Province {move.province!r}", DEVELOP)
    if province.town_of != player or province.vassal:
        return Refusal(f"{move.province} has no t Owned by you", DEVELOP)
    if province.town != "small":
        return Refusal(f"the t on {move.province} is not Small", DEVELOP)
    return None


def apply_develop(state: EuState, player: str, move: DevelopTown) -> EuState:
    _check(refuse_develop(state, player, move))
    new = state.copy()
    new.provinces[move.province].town = "large"
    return new


# ---------------------------------------------------------------- Merchant


def refuse_merchant(state: EuState, player: str) -> Refusal | None:
    """A third Merchant only with exactly 2 now; never a fourth."""
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", MERCHANT)
    have = state.realms[player].merchants
    if have >= MAX_MERCHANTS:
        return Refusal(f"you have {have} Merchants: a third only when you have 2", MERCHANT)
    return None


def apply_merchant(state: EuState, player: str) -> EuState:
    _check(refuse_merchant(state, player))
    new = state.copy()
    new.realms[player].merchants += 1
    return new


# ---------------------------------------------------------------- Military Units


@dataclass(frozen=True)
class GainUnits:
    """Regular Units placed: ``(place, count)`` entries; ``ships`` for Sea Zones."""

    placed: tuple[tuple[str, int], ...]
    ships: bool = False


def _enemies(state: EuState, player: str) -> set[str]:
    mine = set(state.realms[player].enemies)
    return mine | {p for p in state.players if player in state.realms[p].enemies}


def unit_places(state: EuState, player: str, places: Sequence[str], ships: bool) -> list[str]:
    """The named places where no Battle is triggered: no Units of a PR at War with you."""
    table = state.ships if ships else state.land_units
    known = state.map.seas if ships else state.map.areas
    enemies = _enemies(state, player)
    return [
        place
        for place in places
        if place in known and not any(table.get(e, {}).get(place, 0) > 0 for e in enemies)
    ]


def refuse_units(
    state: EuState,
    player: str,
    amount: int,
    places: Sequence[str],
    move: object,
    options: EffectOptions = DEFAULT,
) -> Refusal | None:
    if not isinstance(move, GainUnits):
        return Refusal("not a Unit placement", UNITS)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", UNITS)
    open_ = unit_places(state, player, places, move.ships)
    seen: set[str] = set()
    for place, count in move.placed:
        if place in seen or count <= 0:
            return Refusal(f"{place} listed twice or with no Units", UNITS)
        if place not in open_:
            return Refusal(f"placing in {place} would trigger a Battle, or it is not named", UNITS)
        seen.add(place)
    if len(seen) > 1 and not options.units_split:
        return Refusal("the Units go to one location", UNITS)
    gained = min(amount, state.realms[player].units_available) if open_ else 0
    used = sum(count for _, count in move.placed)
    if used != gained:
        return Refusal(f"{used} Units placed; {gained} are gained from Available", UNITS)
    return None


def apply_units(
    state: EuState,
    player: str,
    amount: int,
    places: Sequence[str],
    move: GainUnits,
    options: EffectOptions = DEFAULT,
) -> EuState:
    _check(refuse_units(state, player, amount, places, move, options))
    new = state.copy()
    table = new.ships if move.ships else new.land_units
    spread = table.setdefault(player, {})
    for place, count in move.placed:
        spread[place] = spread.get(place, 0) + count
        new.realms[player].units_available -= count
    return new
