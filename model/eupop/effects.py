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
from typing import Literal

from legalis.model.core.views import RandomSource, Refusal
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop.state import (
    INFLUENCE_PER_AREA,
    MAX_MERCHANTS,
    AreaState,
    EuState,
    Idea,
)

__all__ = [
    "ACTION",
    "ALLIANCE",
    "DEVELOP",
    "DNPR",
    "EVENT_WAR_STEPS",
    "GENERAL",
    "G_RULE",
    "INFLUENCE",
    "MARRIAGE",
    "MERCHANT",
    "REJECT",
    "RESEARCH",
    "TERMINATE",
    "TOWN",
    "UNITS",
    "WAR",
    "ActionOutcome",
    "DeclareWar",
    "DevelopTown",
    "DnprPlacement",
    "EffectOptions",
    "GainAlliance",
    "GainG",
    "GainMarriage",
    "GainTown",
    "GainUnits",
    "PlaceInfluence",
    "RejectRuler",
    "ResearchIdea",
    "ResearchScore",
    "TakeAction",
    "TerminateAlliance",
    "ab_options",
    "alliance_ignored",
    "alliance_loss",
    "apply_alliance",
    "apply_develop",
    "apply_dnpr",
    "apply_g",
    "apply_influence",
    "apply_marriage",
    "apply_merchant",
    "apply_reject",
    "apply_research",
    "apply_terminate",
    "apply_town",
    "apply_units",
    "chooser",
    "default_dow_allowed",
    "default_marriage_eligible",
    "dnpr_placement",
    "event_war",
    "find_idea",
    "inclusive_or",
    "influence_areas",
    "influence_room",
    "marriage_ignored",
    "next_clockwise",
    "npr_answer",
    "overflow",
    "pr_core_provinces",
    "refuse_action",
    "refuse_alliance",
    "refuse_develop",
    "refuse_discards",
    "refuse_dnpr",
    "refuse_g",
    "refuse_influence",
    "refuse_marriage",
    "refuse_merchant",
    "refuse_reject",
    "refuse_research",
    "refuse_terminate",
    "refuse_town",
    "refuse_units",
    "refuse_war",
    "removable_ideas",
    "research_all",
    "resolution_order",
    "resolve_action",
    "terminate_ignored",
    "unit_places",
    "war_ineligible",
    "war_targets",
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
ACTION = "16.3 Gain Action"
RESEARCH = "16.3 Research Idea"
DNPR = "16.3 Placing DNPR tokens"
TERMINATE = "16.3 Terminate/Remove Alliance"
REJECT = "16.3 Reject Ruler"
WAR = "16.3 Wars triggered by Events"
EVENT_WAR_STEPS = (3, 4, 5, 6, 7)


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


def default_dow_allowed(state: EuState, aggressor: str, target: str) -> bool:
    """Option ``dow_allowed`` (default): the DoW restrictions (p. 22) are not in the
    rules at hand; a PR may not declare on itself, an Annexed Realm, a Realm it is
    already at War with, its own Ally or Vassal, or a Realm carrying its M."""
    realm = state.realms.get(target)
    if realm is None or target == aggressor or realm.status == "annexed":
        return False
    if target in _enemies(state, aggressor) or aggressor in realm.enemies:
        return False
    return (
        realm.ally != aggressor and realm.overlord != aggressor and aggressor not in realm.marriages
    )


@dataclass(frozen=True)
class EffectOptions:
    """The named readings of unclear points (``docs/rules-questions.md``).

    ``influence_up_to``: the gained I may be placed only in part (default False:
    placed as far as the Areas' room allows). ``replaced_alliance_returns``: an
    Opponent's A replaced by yours goes back to that Opponent's available markers
    (default True). ``marriage_eligible``: who may receive an M. ``units_split``:
    gained Units may be spread over several locations (default False: one location).
    ``skip_passed``: the next Turn after a gained Action skips players who have Passed
    (default True). ``research_points``: what a Research scores (default 0, as printed).
    ``fill_empty_slot``: an Idea brought onto the display with nothing to remove takes
    an empty slot of its column before a new row is made (default True).
    ``loss_rounding``: half the Tax Income lost when an Active Ally's Alliance ends
    (default "down"). ``terminated_alliance_returns``: a terminated A goes back to its
    player's markers (default True). ``dow_allowed``: the DoW restrictions.
    """

    influence_up_to: bool = False
    replaced_alliance_returns: bool = True
    marriage_eligible: Callable[[EuState, str, str], bool] = default_marriage_eligible
    units_split: bool = False
    skip_passed: bool = True
    research_points: int = 0
    fill_empty_slot: bool = True
    loss_rounding: Literal["down", "up"] = "down"
    terminated_alliance_returns: bool = True
    dow_allowed: Callable[[EuState, str, str], bool] = default_dow_allowed


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


# ---------------------------------------------------------------- Gain Action


@dataclass(frozen=True)
class TakeAction:
    """Take the gained ``action`` (named in bold italics on the Event) now, or decline
    it. The Action's own rules are not in chapter 16: only its name is kept."""

    action: str
    take: bool = True


@dataclass(frozen=True)
class ActionOutcome:
    """What follows the choice: ``actor`` takes ``action`` now (None: declined), then
    ``finishes_turn`` finishes their Turn (the Active player, when the beneficiary was
    not; None otherwise), then ``next_turn`` takes the next Turn clockwise."""

    action: str
    actor: str | None
    finishes_turn: str | None
    next_turn: str | None


def next_clockwise(state: EuState, after: str, options: EffectOptions = DEFAULT) -> str | None:
    """The player whose Turn follows ``after``'s clockwise; with ``skip_passed``, players
    who have Passed are skipped, ``after`` last; None when everyone has Passed."""
    order = state.clockwise_from(after)
    for player in order[1:] + order[:1]:
        if not (options.skip_passed and state.realms[player].passed):
            return player
    return None


def refuse_action(state: EuState, player: str, action: str, move: object) -> Refusal | None:
    """Whether ``move`` takes or declines the ``action`` ``player`` gained."""
    if not isinstance(move, TakeAction):
        return Refusal("not a take/decline choice", ACTION)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", ACTION)
    if state.active is None:
        return Refusal("no Active player: no Turn to finish", ACTION)
    if move.action != action:
        return Refusal(f"the Event gives {action!r}, not {move.action!r}", ACTION)
    return None


def resolve_action(
    state: EuState, player: str, action: str, move: TakeAction, options: EffectOptions = DEFAULT
) -> ActionOutcome:
    """Who acts, and in what order, once ``player`` takes or declines the Action."""
    _check(refuse_action(state, player, action, move))
    active = state.active
    assert active is not None
    return ActionOutcome(
        action=action,
        actor=player if move.take else None,
        finishes_turn=None if player == active else active,
        next_turn=next_clockwise(state, active, options),
    )


# ---------------------------------------------------------------- Research Idea


@dataclass(frozen=True)
class ResearchIdea:
    """Research ``idea`` (``research`` False: choose not to). ``remove``: the unpicked
    non-Basic Idea of the same type taken off the display for an Idea not on it."""

    idea: str
    research: bool = True
    remove: str | None = None


@dataclass(frozen=True)
class ResearchScore:
    """One player's score for a Research: ``researcher`` Researched the Idea, and
    ``player`` (the researcher or an Opponent who had it) scores ``points``."""

    researcher: str
    player: str
    points: int


def find_idea(state: EuState, idea: str) -> tuple[str, int] | None:
    """Where ``idea`` lies on the Idea display: ``(type, row)``; None when not on it."""
    for kind, column in state.idea_display.items():
        for row, card in enumerate(column):
            if card is not None and card.name == idea:
                return kind, row
    return None


def removable_ideas(state: EuState, idea_type: str) -> list[str]:
    """The unpicked non-Basic Ideas of the type on display, in row order."""
    column = state.idea_display.get(idea_type, [])
    return [c.name for c in column if c is not None and not c.basic and not c.picked_by]


def refuse_research(
    state: EuState, player: str, idea: str, idea_type: str, move: object
) -> Refusal | None:
    """Whether ``move`` Researches (or not) the Event's ``idea`` of ``idea_type``."""
    if not isinstance(move, ResearchIdea):
        return Refusal("not a Research choice", RESEARCH)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", RESEARCH)
    if move.idea != idea:
        return Refusal(f"the Event names {idea!r}, not {move.idea!r}", RESEARCH)
    where = find_idea(state, idea)
    if where is not None and where[0] != idea_type:
        return Refusal(f"{idea} is on display as a {where[0]} Idea, not {idea_type}", RESEARCH)
    if not move.research:
        if move.remove is not None:
            return Refusal("nothing is removed when you do not Research", RESEARCH)
        return None
    if where is not None:
        card = state.idea_display[where[0]][where[1]]
        if card is not None and player in card.picked_by:
            return Refusal(f"you already have {idea}", RESEARCH)
        if move.remove is not None:
            return Refusal(f"{idea} is on display: no Idea is removed", RESEARCH)
        return None
    removable = removable_ideas(state, idea_type)
    if removable and move.remove not in removable:
        return Refusal(
            f"choose an unpicked non-Basic {idea_type} Idea to remove: one of {removable}",
            RESEARCH,
        )
    if not removable and move.remove is not None:
        return Refusal(f"no unpicked non-Basic {idea_type} Idea to remove: a new row", RESEARCH)
    return None


def apply_research(
    state: EuState,
    player: str,
    idea: str,
    idea_type: str,
    move: ResearchIdea,
    options: EffectOptions = DEFAULT,
    rng: RandomSource | None = None,
) -> tuple[EuState, tuple[ResearchScore, ...]]:
    """The new state and the scores; ``rng`` shuffles the Idea deck when an Idea goes
    back to it (without one the removed Idea is put at the bottom)."""
    _check(refuse_research(state, player, idea, idea_type, move))
    if not move.research:
        return state.copy(), ()
    new = state.copy()
    where = find_idea(new, idea)
    if where is None:
        column = new.idea_display.setdefault(idea_type, [None] * _rows(new))
        if idea in new.idea_deck:
            new.idea_deck.remove(idea)
        if move.remove is not None:
            row = next(i for i, c in enumerate(column) if c is not None and c.name == move.remove)
            new.idea_deck.append(move.remove)
            if rng is not None:
                rng.shuffle(new.idea_deck)
        elif options.fill_empty_slot and None in column:
            row = column.index(None)
        else:
            for other in new.idea_display.values():
                other.append(None)
            row = len(column) - 1
        column[row] = Idea(name=idea)
        where = (idea_type, row)
    card = new.idea_display[where[0]][where[1]]
    assert card is not None
    holders = [p for p in new.clockwise_from(player) if p != player and p in card.picked_by]
    card.picked_by.append(player)
    scores = tuple(
        ResearchScore(player, scorer, options.research_points) for scorer in [player, *holders]
    )
    return new, scores


def _rows(state: EuState) -> int:
    return max((len(column) for column in state.idea_display.values()), default=0)


def research_all(
    state: EuState,
    idea: str,
    idea_type: str,
    moves: Mapping[str, ResearchIdea],
    options: EffectOptions = DEFAULT,
    rng: RandomSource | None = None,
) -> tuple[EuState, tuple[ResearchScore, ...]]:
    """Several players Research the same Idea: each in turn, the Active player first
    and then clockwise; each Research scores as one alone does. Only the first to
    bring the Idea onto the display may name an Idea to remove."""
    scores: list[ResearchScore] = []
    for player in resolution_order(state, list(moves)):
        state, more = apply_research(state, player, idea, idea_type, moves[player], options, rng)
        scores.extend(more)
    return state, tuple(scores)


# ---------------------------------------------------------------- DNPR tokens


@dataclass(frozen=True)
class DnprPlacement:
    """Where a DNPR's tokens go: ``capital`` gets the token with a C; ``plain`` get a
    token; ``beneath`` get it under a t/v (each then a Core Province of the DNPR);
    ``skipped`` are PR Core Provinces, where no token goes."""

    dnpr: str
    capital: str | None
    plain: tuple[str, ...]
    beneath: tuple[str, ...]
    skipped: tuple[str, ...]


def pr_core_provinces(state: EuState) -> set[str]:
    """Every Province in some PR's ``core_provinces``."""
    return {p for player in state.players for p in state.realms[player].core_provinces}


def refuse_dnpr(
    state: EuState, dnpr: str, provinces: Sequence[str], capital: str
) -> Refusal | None:
    realm = state.realms.get(dnpr)
    if realm is None or realm.kind != "dnpr":
        return Refusal(f"{dnpr!r} is not a DNPR", DNPR)
    for province in [*provinces, capital]:
        if province not in state.provinces:
            return Refusal(f"unknown Province {province!r}", DNPR)
    if capital not in provinces:
        return Refusal(f"the Capital {capital} is not among the listed Provinces", DNPR)
    return None


def dnpr_placement(
    state: EuState, dnpr: str, provinces: Sequence[str], capital: str, *, under_towns: bool = True
) -> DnprPlacement:
    """The placement the Event's list gives; ``under_towns`` False when the card says a
    t/v is not to have a token beneath it (the Province then gets none)."""
    _check(refuse_dnpr(state, dnpr, provinces, capital))
    cores = pr_core_provinces(state)
    plain: list[str] = []
    beneath: list[str] = []
    skipped: list[str] = []
    for province in dict.fromkeys(provinces):
        if province in cores:
            skipped.append(province)
        elif state.provinces[province].town_of is not None:
            (beneath if under_towns else skipped).append(province)
        else:
            plain.append(province)
    placed = capital in plain or capital in beneath
    return DnprPlacement(
        dnpr=dnpr,
        capital=capital if placed else None,
        plain=tuple(p for p in plain if p != capital),
        beneath=tuple(p for p in beneath if p != capital),
        skipped=tuple(skipped),
    )


def apply_dnpr(state: EuState, placement: DnprPlacement) -> EuState:
    """Place the tokens: a token's Province without a t/v is the DNPR's; one under a t/v
    keeps its t/v and becomes a Core Province of the DNPR."""
    new = state.copy()
    realm = new.realms[placement.dnpr]
    spots = [*placement.plain, *placement.beneath]
    if placement.capital is not None:
        spots.append(placement.capital)
        realm.capital = placement.capital
    for name in spots:
        province = new.provinces[name]
        province.dnpr_token = placement.dnpr
        if province.town_of is None:
            province.owner = placement.dnpr
        elif name not in realm.core_provinces:
            realm.core_provinces.append(name)
    if placement.capital is not None:
        new.provinces[placement.capital].capital = True
    return new


# ---------------------------------------------------------------- Terminate Alliance


@dataclass(frozen=True)
class TerminateAlliance:
    """End your Alliance with ``realm``; for an Active Ally, the Allied Units lost:
    ``reserve`` from the Manpower Reserve and ``armies`` ``(area, count)`` entries."""

    realm: str
    reserve: int = 0
    armies: tuple[tuple[str, int], ...] = ()


def alliance_loss(state: EuState, player: str, realm: str, options: EffectOptions = DEFAULT) -> int:
    """The Allied Units lost: half the NPR's pre-War Tax Income (rounded by
    ``loss_rounding``) for an Active Ally, as far as the PR has Units; else 0."""
    ally = state.realms[realm]
    if not ally.active_ally:
        return 0
    half = ally.tax_income // 2 if options.loss_rounding == "down" else -(-ally.tax_income // 2)
    held = state.realms[player].manpower + sum(state.land_units.get(player, {}).values())
    return min(half, held)


def terminate_ignored(state: EuState, player: str, realm: str) -> Refusal | None:
    """Why ``player`` has no Alliance with ``realm`` to end, or None."""
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", TERMINATE)
    target = state.realms.get(realm)
    if target is None or target.ally != player:
        return Refusal(f"{realm!r} has no A of yours", TERMINATE)
    return None


def refuse_terminate(
    state: EuState, player: str, move: object, options: EffectOptions = DEFAULT
) -> Refusal | None:
    if not isinstance(move, TerminateAlliance):
        return Refusal("not an Alliance termination", TERMINATE)
    refused = terminate_ignored(state, player, move.realm)
    if refused is not None:
        return refused
    if move.reserve < 0 or move.reserve > state.realms[player].manpower:
        return Refusal(f"{move.reserve} Units are not in your Manpower Reserve", TERMINATE)
    units = state.land_units.get(player, {})
    seen: set[str] = set()
    for area, count in move.armies:
        if area in seen or count <= 0 or count > units.get(area, 0):
            return Refusal(f"you have no Army of {count} Units in {area} to lose", TERMINATE)
        seen.add(area)
    lost = move.reserve + sum(count for _, count in move.armies)
    owed = alliance_loss(state, player, move.realm, options)
    if lost != owed:
        return Refusal(f"{lost} Allied Units lost; {owed} are owed", TERMINATE)
    return None


def apply_terminate(
    state: EuState, player: str, move: TerminateAlliance, options: EffectOptions = DEFAULT
) -> EuState:
    """Remove the A (back to the player's markers with ``terminated_alliance_returns``);
    for an Active Ally, lose the Units and let the PR's Enemies place War tokens on it."""
    _check(refuse_terminate(state, player, move, options))
    new = state.copy()
    realm = new.realms[move.realm]
    was_active = realm.active_ally
    realm.ally = None
    realm.active_ally = False
    if options.terminated_alliance_returns:
        new.realms[player].alliance_markers += 1
    if not was_active:
        return new
    new.realms[player].manpower -= move.reserve
    units = new.land_units.setdefault(player, {})
    for area, count in move.armies:
        units[area] -= count
        if units[area] == 0:
            del units[area]
    for enemy in resolution_order(new, sorted(_enemies(state, player) & set(state.players))):
        if enemy != move.realm and enemy not in realm.enemies:
            realm.enemies.append(enemy)
            realm.at_war = True
    return new


# ---------------------------------------------------------------- Reject Ruler


@dataclass(frozen=True)
class RejectRuler:
    """Reject the Event's historical Ruler (``reject`` False: keep to the Event's other
    option, when the card leaves the choice)."""

    reject: bool = True


def refuse_reject(state: EuState, player: str, move: object, *, forced: bool) -> Refusal | None:
    if not isinstance(move, RejectRuler):
        return Refusal("not a Reject Ruler choice", REJECT)
    if not _is_player(state, player):
        return Refusal(f"{player!r} is not a player", REJECT)
    if forced and not move.reject:
        return Refusal("the Event forces you to Reject the Ruler", REJECT)
    return None


def apply_reject(
    state: EuState, player: str, new_ruler: str, move: RejectRuler, *, forced: bool
) -> tuple[EuState, tuple[str, ...]]:
    """Once the Event is resolved: discard the current Ruler and the Event card with the
    ``new_ruler``; the state and the discarded names (current Ruler first)."""
    _check(refuse_reject(state, player, move, forced=forced))
    new = state.copy()
    if not move.reject:
        return new, ()
    mine = new.realms[player]
    gone = [c.name for c in mine.characters if c.role == "ruler"]
    mine.characters = [c for c in mine.characters if c.role != "ruler"]
    return new, (*gone, new_ruler)


# ---------------------------------------------------------------- Wars


@dataclass(frozen=True)
class DeclareWar:
    """A DoW made by an Event: ``aggressor`` on ``target``, running only ``steps`` of
    the Declare War Action sequence (p. 16, not in chapter 16)."""

    aggressor: str
    target: str
    steps: tuple[int, ...] = EVENT_WAR_STEPS


def war_ineligible(
    state: EuState, aggressor: str, target: str, options: EffectOptions = DEFAULT
) -> Refusal | None:
    """Why no DoW is made on ``target``, or None when the aggressor declares."""
    attacker = state.realms.get(aggressor)
    if attacker is None:
        return Refusal(f"unknown Realm {aggressor!r}", WAR)
    if target not in state.realms or target == aggressor:
        return Refusal(f"{target!r} is not another Realm", WAR)
    if attacker.kind != "player":
        return None  # an NPR aggressor declares: "you" reads "the NPR"
    if attacker.passed:
        return Refusal(f"{aggressor} has Passed: no DoW via an Event", WAR)
    if not options.dow_allowed(state, aggressor, target):
        return Refusal(f"a DoW restriction forbids {aggressor} to declare on {target}", WAR)
    return None


def event_war(
    state: EuState, aggressor: str, target: str, options: EffectOptions = DEFAULT
) -> DeclareWar | None:
    """The DoW an Event naming ``target`` makes, or None when the target is ineligible."""
    if war_ineligible(state, aggressor, target, options) is not None:
        return None
    return DeclareWar(aggressor, target)


def war_targets(
    state: EuState, aggressor: str, targets: Sequence[str], options: EffectOptions = DEFAULT
) -> list[str]:
    """The eligible targets among those the Event lets the aggressor select."""
    return [
        t for t in dict.fromkeys(targets) if war_ineligible(state, aggressor, t, options) is None
    ]


def refuse_war(
    state: EuState,
    aggressor: str,
    targets: Sequence[str],
    move: object,
    options: EffectOptions = DEFAULT,
) -> Refusal | None:
    """A selected target: ``move`` a :class:`DeclareWar` on an eligible one, or None
    (no DoW) only when there is none."""
    eligible = war_targets(state, aggressor, targets, options)
    if move is None:
        if eligible:
            return Refusal(f"an eligible target must be selected: one of {eligible}", WAR)
        return None
    if not isinstance(move, DeclareWar) or move.aggressor != aggressor:
        return Refusal(f"not a DoW by {aggressor}", WAR)
    if move.steps != EVENT_WAR_STEPS:
        return Refusal("a DoW by an Event runs only steps 3-7", WAR)
    if move.target not in targets:
        return Refusal(f"{move.target} is not a target the Event offers", WAR)
    return war_ineligible(state, aggressor, move.target, options)
