"""Non-player choices in the Supply Phase (6.2): the British pay for the cubes the
Support Phase needs, shift where they cannot pay and remove the rest (8.4.7); the
Patriots (8.5.5) and the French (8.6.7) pay where losing their units would change
Control; the Indians pay where moving their War Parties would add Rebellion
Control or where Gather could build a Village (8.7.5); after the West Indies
Battle the French (8.6.8) and the British (8.4.8) pay to keep their Regulars there
or send them to Available. Spaces are picked by the paragraphs' priorities
(8.1.3), ties by the Random Spaces table (8.2), each step traced.

>>> from legalis.model.core.randomness import LoggedRandom
>>> state = CoinState.new("lod")
>>> state.set_track("patriots_resources", 1)
>>> state.move_pieces("Available", "Virginia", "militia", 2)
>>> state.move_pieces("Available", "Virginia", "tory", 2)  # no Control: out of supply
>>> state.move_pieces("Available", "Virginia", "british_regular", 1)  # British Control
>>> state.move_pieces("Available", "Quebec", "village", 1)
>>> trace = Trace()
>>> nonplayer_supply(state, "patriots", SUPPLY, LoggedRandom(0), trace)
PatriotSupply(paid=(), removed=(('Virginia', 'militia:underground', 1),))
>>> trace.steps[-1].rule
'8.5.5'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from legalis.model.coin.limits import stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.supply import (
    BATTLE,
    PAY,
    REMOVE,
    SHIFT,
    SUPPLY,
    UPKEEP,
    BritishSupply,
    FrenchSupply,
    IndianSupply,
    PatriotSupply,
    SupplyDecision,
    WestIndiesBattle,
    WestIndiesUpkeep,
    nearest,
    out_of_supply,
    supply_refusal,
    village_sites,
)
from legalis.model.lod.winter import WEST_INDIES_BONUS, resources_phase, support_options
from legalis.solver.nonplayer.priorities import remove_friendly_order
from legalis.solver.nonplayer.spaces import Priority, random_space, select_spaces
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "SupplyChoiceOptions",
    "expected_british_earnings",
    "nonplayer_decider",
    "nonplayer_supply",
]

AVAILABLE = "Available"
_GATHER_LEVELS = ("neutral", "passive_support", "passive_opposition")  # 3.4.1


@dataclass(frozen=True)
class SupplyChoiceOptions:
    """The readings of the Non-player supply paragraphs that are switchable
    (``docs/rules-questions.md``).

    ``shift_unneeded`` (8.4.7): the British shift toward Active Opposition only in
    spaces whose cubes the Support Phase needs and that they could not pay for
    (default), or also where the cubes are not needed (``True``).
    ``village_site`` (6.2.1, no Non-player paragraph): the Indian Reserve for the
    supply Village is a ``"random"`` one (8.2, default) or the one with
    ``"most_war_parties"`` (ties by 8.2).

    >>> SupplyChoiceOptions().village_site
    'random'
    """

    shift_unneeded: bool = False
    village_site: Literal["random", "most_war_parties"] = "random"


def _pop(state: CoinState, space: str) -> int:
    return state.rules.map.population(space)


def _without(state: CoinState, space: str, pieces: tuple[str, ...]) -> CoinState:
    """The state with every piece of ``pieces`` gone from ``space`` (to Available)."""
    after = state.copy()
    for piece in pieces:
        for status in state.rules.data.piece(piece).statuses:
            n = after.pieces(space, piece, status)
            if n:
                after.move_pieces(space, AVAILABLE, piece, n, status)
    return after


def _can_shift(state: CoinState, space: str, faction: str) -> bool:
    """Whether the Support Phase could shift ``space`` for the Faction (6.4.1, 6.4.2)."""
    return any(levels for _, levels, _ in support_options(state, faction, space))


# ---------------------------------------------------------------------- 8.4.7 British


def expected_british_earnings(state: CoinState) -> int:
    """8.4.7: what the British expect from the Resources Phase (6.3.1) counting
    their Forts and Cities but not the West Indies.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "New York City", "tory", 1)
    >>> state.move_pieces("Available", "Quebec", "british_fort", 1)
    >>> state.move_pieces("Available", "West Indies", "british_regular", 1)
    >>> expected_british_earnings(state)  # 1 Fort + New York City 2, the +5 aside
    3
    """
    trial = state.copy()
    trial.set_track("british_resources", 0)
    earned = resources_phase(trial)[0].track("british_resources")
    indies = WEST_INDIES_BONUS if state.control(WEST_INDIES) == "british" else 0
    return earned - indies


def _reward_cost(state: CoinState, space: str) -> int | None:
    """The least a Reward Loyalty that shifts ``space`` costs (6.4.1), or None."""
    costs = [cost for _, levels, cost in support_options(state, "british", space) if levels]
    return min(costs) if costs else None


def _cubes_needed(state: CoinState, space: str, expected: int) -> bool:
    """8.4.7: the British cubes in ``space`` are needed for the Support Phase: they
    allow a Reward Loyalty the British can afford with ``expected`` Resources, or
    without them the Patriots could hold Committees of Correspondence there."""
    cost = _reward_cost(state, space)
    if cost is not None and cost <= expected:
        return True
    if _can_shift(state, space, "patriots"):
        return False  # the cubes do not prevent it now
    return _can_shift(_without(state, space, ("british_regular", "tory")), space, "patriots")


def _british(
    state: CoinState, rng: LoggedRandom, trace: Trace, options: SupplyChoiceOptions
) -> BritishSupply:
    pool = out_of_supply(state, "british")
    left = state.track("british_resources")
    earnings = expected_british_earnings(state)
    decided: dict[str, str] = {}
    by_population = Priority("cubes needed for the Support Phase, highest Population",
                             lambda s, x: True, _pop, rule="8.4.7")  # fmt: skip
    while left >= 1:
        needed = [s for s in pool if _cubes_needed(state, s, left - 1 + earnings)]
        if not needed:
            break
        (space,) = select_spaces(state, needed, [by_population], 1, rng, trace)
        decided[space] = PAY
        pool.remove(space)
        left -= 1
    for space in pool:
        need = _cubes_needed(state, space, left + earnings)
        shift = state.can_have_support(space) and state.support_value(space) > -2
        if (need or options.shift_unneeded) and shift:
            decided[space], why = SHIFT, "cubes needed, no Resources to pay: shift"
        elif need:
            decided[space], why = REMOVE, "cubes needed but no supply possible: remove"
        else:
            decided[space], why = REMOVE, "cubes not needed for the Support Phase: remove"
        trace.step("8.4.7", why, [space], decided[space])
    return BritishSupply(tuple(sorted(decided.items())))


# ---------------------------------------------------------------------- 8.5.5 Patriots


def _patriot_removal(state: CoinState, space: str) -> tuple[tuple[str, str, int], ...]:
    """One for every two Patriot units, removed per 8.1.2 (Active Militia before
    Underground, the last Continental kept while another unit can go)."""
    due = (state.pieces(space, "continental") + state.pieces(space, "militia")) // 2
    picks = remove_friendly_order(state, space, "patriots", due, types=("continental", "militia"))
    tally: dict[str, int] = {}
    for piece, status in picks:
        kind = f"militia:{status}" if piece == "militia" else piece
        tally[kind] = tally.get(kind, 0) + 1
    return tuple(sorted((space, kind, n) for kind, n in tally.items()))


def _after_removal(state: CoinState, removal: tuple[tuple[str, str, int], ...]) -> CoinState:
    after = state.copy()
    for space, kind, n in removal:
        piece, _, status = kind.partition(":")
        after.move_pieces(space, AVAILABLE, piece, n, status or None)
    return after


def _patriots(state: CoinState, rng: LoggedRandom, trace: Trace) -> PatriotSupply:
    spaces = out_of_supply(state, "patriots")
    removal = {s: _patriot_removal(state, s) for s in spaces}
    after = {s: _after_removal(state, removal[s]) for s in spaces}

    def changes(s: CoinState, x: str) -> bool:
        return after[x].control(x) != s.control(x)

    def loyalty(s: CoinState, x: str) -> bool:
        return changes(s, x) and _can_shift(after[x], x, "british")

    def villages_population(s: CoinState, x: str) -> tuple[int, int]:
        return s.pieces(x, "village"), _pop(s, x)

    priorities = [
        Priority("removal would change Control and allow Reward Loyalty; most Villages, "
                 "highest Population", loyalty, villages_population, rule="8.5.5"),
        Priority("removal would change Control; most Villages, highest Population",
                 changes, villages_population, rule="8.5.5"),
    ]  # fmt: skip
    left = state.track("patriots_resources")
    paid = select_spaces(state, spaces, priorities, left, rng, trace)
    removed: list[tuple[str, str, int]] = []
    for space in spaces:
        if space not in paid:
            removed += removal[space]
            trace.step("8.5.5", "no Control change or no Resources: remove per 8.1.2", [space],
                       removal[space])  # fmt: skip
    return PatriotSupply(tuple(sorted(paid)), tuple(sorted(removed)))


# ---------------------------------------------------------------------- 8.6.7 French


def _french(state: CoinState, rng: LoggedRandom, trace: Trace) -> FrenchSupply:
    spaces = out_of_supply(state, "french")
    after = {s: _without(state, s, ("french_regular",)) for s in spaces}

    def changes(s: CoinState, x: str) -> bool:
        return after[x].control(x) != s.control(x)

    def loyalty(s: CoinState, x: str) -> bool:
        return changes(s, x) and _can_shift(after[x], x, "british")

    priorities = [
        Priority("moving would change Control and allow Reward Loyalty; highest Population",
                 loyalty, _pop, rule="8.6.7"),
        Priority("moving would change Control; highest Population", changes, _pop,
                 rule="8.6.7"),
    ]  # fmt: skip
    left = state.track("french_resources")
    paid = select_spaces(state, spaces, priorities, left, rng, trace)
    forts = [s for s in state.rules.spaces if state.pieces(s, "patriot_fort")]
    choices = _pay_or_retreat(state, spaces, paid, forts, "Patriot Fort", "8.6.7", rng, trace)
    return FrenchSupply(tuple(sorted(choices.items())))


# ---------------------------------------------------------------------- 8.7.5 Indians


def _gather_village(state: CoinState, space: str) -> bool:
    """3.4.1 as 8.7.5 asks: a Gather could replace War Parties here with a Village
    (a Province at Neutral or Passive, room, a Village Available, two War Parties or
    one with Cornplanter)."""
    needed = 1 if state.leader("Cornplanter") == space else 2
    return (
        state.support(space) in _GATHER_LEVELS
        and stacking_room(state, space) >= 1
        and state.available("village") > 0
        and state.pieces(space, "war_party") >= needed
    )


def _village_site(
    state: CoinState, rng: LoggedRandom, trace: Trace, options: SupplyChoiceOptions
) -> str | None:
    sites = village_sites(state)
    if not sites:
        return None
    if options.village_site == "most_war_parties":
        most = Priority("supply Village: the Indian Reserve with most War Parties",
                        lambda s, x: True, lambda s, x: s.pieces(x, "war_party"),
                        rule="6.2.1")  # fmt: skip
        return select_spaces(state, sites, [most], 1, rng, trace)[0]
    return random_space(state, sites, rng, trace, what="supply Village: an Indian Reserve (6.2.1)")


def _indians(
    state: CoinState, rng: LoggedRandom, trace: Trace, options: SupplyChoiceOptions
) -> IndianSupply:
    village = _village_site(state, rng, trace, options)
    placed = state.copy()
    if village is not None:
        placed.move_pieces(AVAILABLE, village, "village", 1)
    spaces = out_of_supply(placed, "indians")

    def adds_rebellion(s: CoinState, x: str) -> bool:
        gone = _without(s, x, ("war_party",))
        return s.control(x) != "rebellion" and gone.control(x) == "rebellion"

    priorities = [
        Priority("moving the War Parties would add Rebellion Control", adds_rebellion,
                 rule="8.7.5"),
        Priority("Gather could place a Village", _gather_village, rule="8.7.5"),
    ]  # fmt: skip
    left = state.track("indians_resources")
    paid = select_spaces(placed, spaces, priorities, left, rng, trace)
    villages = [s for s in state.rules.spaces if placed.pieces(s, "village")]
    choices = _pay_or_retreat(placed, spaces, paid, villages, "Village", "8.7.5", rng, trace)
    return IndianSupply(village, tuple(sorted(choices.items())))


def _pay_or_retreat(
    state: CoinState,
    spaces: Sequence[str],
    paid: Sequence[str],
    bases: Sequence[str],
    base: str,
    rule: str,
    rng: LoggedRandom,
    trace: Trace,
) -> dict[str, str]:
    """Supply paid in the ``paid`` spaces; from each other space the units go to
    the nearest of ``bases`` (ties at random, 8.2), or to Available with none."""
    choices = {s: PAY for s in paid}
    for space in spaces:
        if space in paid:
            continue
        closest = nearest(state, space, bases)
        if closest:
            choices[space] = random_space(state, closest, rng, trace, rule=rule,
                                          what=f"nearest {base} from {space}")  # fmt: skip
        else:
            choices[space] = AVAILABLE
            trace.step(rule, f"no {base} on the map: to Available", [space], AVAILABLE)
    return choices


# ---------------------------------------------------------------------- 6.2.2 West Indies


def _upkeep(state: CoinState, faction: str, trace: Trace) -> WestIndiesUpkeep:
    """8.6.8: the French keep every Regular left in the West Indies if they can pay;
    8.4.8: the British keep theirs only with British Control there and a Resource."""
    regular = "french_regular" if faction == "french" else "british_regular"
    have = state.pieces(WEST_INDIES, regular)
    funds = state.track(f"{faction}_resources") >= 1
    if faction == "french":
        keep, rule = have > 0 and funds, "8.6.8"
        why = "pay to keep the French Regulars" if keep else "return them to Available"
    else:
        control = state.control(WEST_INDIES) == "british"
        keep, rule = have > 0 and control and funds, "8.4.8"
        why = ("British Control: pay to keep the Regulars" if keep else
               "no British Control or no Resources: return the Regulars")  # fmt: skip
    move = WestIndiesUpkeep(faction, have if keep else 0)
    trace.step(rule, why, [0, have] if have else [0], move.kept)
    return move


# ---------------------------------------------------------------------- the decision


def nonplayer_supply(
    state: CoinState,
    faction: str,
    step: str,
    rng: LoggedRandom,
    trace: Trace,
    options: SupplyChoiceOptions | None = None,
) -> SupplyDecision:
    """The Non-player ``faction``'s move for one step of
    :func:`~legalis.model.lod.supply.supply_steps`, by its paragraph.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.set_track("british_resources", 1)
    >>> state.move_pieces("Available", "West Indies", "british_regular", 2)
    >>> nonplayer_supply(state, "british", UPKEEP, LoggedRandom(0), Trace())
    WestIndiesUpkeep(faction='british', kept=2)
    """
    chosen = options or SupplyChoiceOptions()
    move: SupplyDecision
    if step == SUPPLY and faction == "british":
        move = _british(state, rng, trace, chosen)
    elif step == SUPPLY and faction == "patriots":
        move = _patriots(state, rng, trace)
    elif step == SUPPLY and faction == "french":
        move = _french(state, rng, trace)
    elif step == SUPPLY:
        move = _indians(state, rng, trace, chosen)
    elif step == BATTLE:
        move = WestIndiesBattle()
        trace.step("6.2.2", "the French must fight in the West Indies", [move], move)
    elif step == UPKEEP:
        move = _upkeep(state, faction, trace)
    else:
        raise InputError(f"no Supply Phase step {step!r}", path="step",
                         allowed=[SUPPLY, BATTLE, UPKEEP])  # fmt: skip
    refused = supply_refusal(state, move)
    if refused is not None:  # the picks above are made among the legal choices
        raise AssertionError(f"Non-player supply refused: {refused.reason} ({refused.rule})")
    return move


def nonplayer_decider(
    rng: LoggedRandom, trace: Trace, options: SupplyChoiceOptions | None = None
) -> Callable[[CoinState, str, str], SupplyDecision]:
    """The ``decide`` of :func:`~legalis.model.lod.supply.supply_phase` for
    Non-players sharing ``rng`` and ``trace``.

    >>> from legalis.model.lod.supply import supply_phase
    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Quebec", "tory", 1)
    >>> state.move_pieces("Available", "Quebec", "village", 1)
    >>> after, log = supply_phase(state, nonplayer_decider(LoggedRandom(0), Trace()), None)
    >>> log
    ['6.2.1: 1 tory from Quebec to Available']
    """

    def decide(state: CoinState, faction: str, step: str) -> SupplyDecision:
        return nonplayer_supply(state, faction, step, rng, trace, options)

    return decide
