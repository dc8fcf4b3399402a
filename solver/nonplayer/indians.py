"""The Non-player Indian Command and Special Activity (8.7.1-8.7.4), the Non-player
British answer to a Trade request (8.4.6), and how many War Parties the Indians
Activate when they defend (8.7.9).

The first box is picked by the opening sentences of 8.7.1-8.7.4: Raid when Support
plus 1D6 does not exceed Opposition; else Gather when it would place two or more
Villages or a D6 is below the Available War Parties; else Scout when a space holds
British Regulars and a War Party; else March. Each box either executes or names the
box its "IF NONE" (or "unable to execute") sends the turn to
(:data:`INDIANS_BOXES`, run by :func:`~legalis.solver.nonplayer.flowchart.run_boxes`):
Raid to Gather, Gather to March, March to Gather, Scout to March; a box reached a
second time is a Pass.

Moves are built from the bullets and carried out through the
:class:`~legalis.solver.nonplayer.flowchart.TurnContext` (how it checks them, and
the Limited and Brilliant Stroke scopes, are described there). The Skirmish of a
Scout is the British Regulars' (3.4.3), not the Indians' Special Activity.

>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> context = TurnContext(load_scenario("lod", "1775"), "indians", LoggedRandom(0))
>>> indians_command(context)
>>> [step.move.name for step in context.steps]
['gather', 'war_path']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from legalis.model.coin.limits import stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.command_base import RESOURCES, Command, command_refusal
from legalis.model.lod.commands import apply_command, raid_origins
from legalis.model.lod.special import (
    SpecialActivity,
    apply_special,
    command_parts,
    special_during,
    special_refusal,
    special_view,
)
from legalis.solver.nonplayer.board import (
    british_controls,
    control_if,
    leader_space,
    rebellion_controls,
    side_pieces,
    spaces,
)
from legalis.solver.nonplayer.flowchart import Box, TurnContext, run_boxes
from legalis.solver.nonplayer.priorities import enemy_order
from legalis.solver.nonplayer.spaces import Priority, random_space, select_spaces
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "INDIANS_BOXES",
    "IndiansOptions",
    "british_trade_offer",
    "defending_activations",
    "first_box",
    "gather_box",
    "gather_villages",
    "indians_boxes",
    "indians_command",
    "march_box",
    "raid_box",
    "scout_box",
    "scout_wanted",
    "trade",
    "war_path",
]

RAID_SPACES = 3  # 8.7.1: up to three spaces
GATHER_SPACES = 4  # 8.7.2: up to four spaces
MARCH_SPACES = 3  # 8.7.3: into up to three spaces
VILLAGE_WAR_PARTIES = 3  # 8.7.2: a Village where three War Parties are
CORNPLANTER_WAR_PARTIES = 2  # 8.7.2: two with Cornplanter
VILLAGE_COST = 2  # 3.4.1: two War Parties make a Village
GROWTH_SPACES = 2  # 8.7.2 third bullet: up to two spaces
MARCH_STACK = 3  # 8.7.3: 3+ War Parties where a Village may go
WP = "war_party"
UNDERGROUND = "war_party:underground"
ACTIVE = "war_party:active"
GATHER_LEVELS = ("neutral", "passive_opposition", "passive_support")  # 3.4.1
REBELLION_TARGETS = ("patriot_fort", "militia", "continental", "french_regular")

Entry = tuple[str, str, int]


@dataclass(frozen=True)
class IndiansOptions:
    """The readings taken where 8.7.1-8.7.4 are unclear (``docs/rules-questions.md``).

    ``player_trade_offer``: the Resources a British player is taken to give when the
    Indians request them in a Trade (capped by the British Resources; 0: the Indians
    take the +1 of 4.4.1).
    ``scout_anywhere``: when no destination meets any of the three Scout priorities,
    the Scout still goes to any destination (ties by 8.2); ``False``: the Scout box
    is unable and the Indians March.
    ``village_site_by_command``: "a space where Gather could place a Village" (8.7.3)
    is read by the Command (3.4.1: two War Parties, one with Cornplanter); ``False``:
    by the Non-player's own Gather (8.7.2: three, two with Cornplanter).
    ``war_path_when_broke``: with Indian Resources at 0, War Path is still executed
    when Trade is not possible (``True``), or the Indians take no Special Activity.
    ``scout_cubes``: which British cubes make up the Scout's "most Regulars and
    Tories": ``"alternate"`` takes them alternately, beginning with the type most in
    the origin (Regulars if even), as 8.1.2 removes pieces and as the Playbook's
    Scout example moves two Regulars and a Tory; ``"regulars_first"``: as many
    Regulars as possible.

    >>> IndiansOptions().player_trade_offer
    0
    """

    player_trade_offer: int = 0
    scout_anywhere: bool = True
    village_site_by_command: bool = True
    war_path_when_broke: bool = True
    scout_cubes: Literal["alternate", "regulars_first"] = "alternate"


DEFAULTS = IndiansOptions()


# ---------------------------------------------------------------------- small queries


def _is_province(state: CoinState, space: str) -> bool:
    return state.rules.map.is_province(space)


def _is_reserve(state: CoinState, space: str) -> bool:
    return state.rules.map.is_reserve(space)


def _population(state: CoinState, space: str) -> int:
    return state.rules.map.population(space)


def _war_parties(state: CoinState, space: str, status: str | None = None) -> int:
    return state.pieces(space, WP, status)


def _gather_province(state: CoinState, space: str) -> bool:
    """3.4.1: a Province at Neutral or a Passive level."""
    return _is_province(state, space) and state.support(space) in GATHER_LEVELS


def _provinces(state: CoinState) -> list[str]:
    return [s for s in spaces(state) if _is_province(state, s)]


def _cornplanter(state: CoinState, space: str) -> bool:
    return state.leader("Cornplanter") == space


def _british_played(context: TurnContext, british_is_player: bool) -> bool:
    return british_is_player or "british" in context.players


def _special_allowed(context: TurnContext) -> bool:
    return context.scope.special_activity and not context.special_used


def _afford(context: TurnContext, cost: int) -> bool:
    return context.scope.free or cost <= context.state.track(RESOURCES["indians"])


def _removed_count(removed: Iterable[Entry]) -> int:
    return sum(n for _, _, n in removed)


def _enemy_rank(state: CoinState, space: str, removed: Iterable[Entry]) -> tuple[int, ...]:
    """How early ``removed`` comes in the 8.1.2 order of enemy pieces to target in
    ``space`` (the positions it takes, lowest first): the smaller, the better."""
    total = sum(state.pieces(space, kind) for kind in REBELLION_TARGETS)
    order = enemy_order(state, space, "indians", total, types=REBELLION_TARGETS)
    used: set[int] = set()
    for _, kind, n in removed:
        piece, _, status = kind.partition(":")
        for _ in range(n):
            at = next(
                (
                    i
                    for i, (p, s) in enumerate(order)
                    if i not in used and p == piece and (not status or s == status)
                ),
                len(order) + len(used),
            )
            used.add(at)
    return tuple(sorted(used))


def _best_removal(
    state: CoinState, moves: Sequence[SpecialActivity], space: str
) -> SpecialActivity:
    """Among strikes in ``space`` removing equally many, the one 8.1.2 targets."""
    return min(moves, key=lambda m: (_enemy_rank(state, space, m.removed), m.option))


# ---------------------------------------------------------------------- 8.4.6, 8.7.9


def british_trade_offer(state: CoinState, rng: LoggedRandom, trace: Trace) -> int:
    """8.4.6: what Non-player British offer when the Indians request Trade: with
    Indian Resources below British Resources, roll 1D6, and if it is below British
    Resources offer half of it rounded up; else nothing.

    >>> state = CoinState.new("lod")
    >>> state.set_track("british_resources", 10)
    >>> offer = british_trade_offer(state, LoggedRandom(0), Trace())
    >>> 1 <= offer <= 3
    True
    >>> state.set_track("indians_resources", 10)
    >>> british_trade_offer(state, LoggedRandom(0), Trace())
    0
    """
    indians, british = state.track("indians_resources"), state.track("british_resources")
    if indians >= british:
        trace.step(
            "8.4.6", f"Indian Resources {indians} not below British {british}: no offer", [], 0
        )
        return 0
    face = rng.randrange(6) + 1
    offer = (face + 1) // 2 if face < british else 0
    trace.step(
        "8.4.6",
        f"Trade offer: 1D6 {face} against British Resources {british}",
        [],
        offer,
        dice=[face],
    )
    return offer


def defending_activations(state: CoinState, space: str) -> int:
    """8.7.9: the Underground War Parties the Non-player Indians Activate when they
    defend in a Battle in ``space``: all but one where a Village is, else none (the
    value of :attr:`~legalis.model.lod.battle.BattleChoice.activate_defender`).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "war_party", 3, new_status="underground")
    >>> defending_activations(state, "Virginia")
    0
    >>> state.move_pieces("Available", "Virginia", "village", 1)
    >>> defending_activations(state, "Virginia")
    2
    """
    if not state.pieces(space, "village"):
        return 0
    return max(_war_parties(state, space, "underground") - 1, 0)


# ---------------------------------------------------------------------- Special Activities


def trade(
    state: CoinState,
    command: Command | None,
    rng: LoggedRandom,
    trace: Trace,
    *,
    british_is_player: bool = False,
    offer: int | None = None,
    options: IndiansOptions = DEFAULTS,
) -> SpecialActivity | None:
    """8.7.1 TRADE: in the Village space with most Underground War Parties (ties by
    8.2), requesting Resources from the British: a Non-player British answers by
    8.4.6, a player by ``options.player_trade_offer``; ``offer`` gives the answer
    when it is already known. None when no Village space has an Underground War Party.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Quebec", "village", 1)
    >>> state.move_pieces("Available", "Quebec", "war_party", 2, new_status="underground")
    >>> trade(state, None, LoggedRandom(0), Trace()).spaces
    ('Quebec',)
    """
    places = [
        s
        for s in _provinces(state)
        if state.pieces(s, "village") and _war_parties(state, s, "underground")
    ]
    if not places:
        trace.step("8.7.1", "Trade: no Underground War Party at a Village", [], None)
        return None
    most = Priority(
        "Trade: the Village space with most Underground War Parties",
        lambda s, x: True,
        lambda s, x: _war_parties(s, x, "underground"),
        rule="8.7.1",
    )
    (space,) = select_spaces(state, places, [most], 1, rng, trace)
    if offer is None:
        if british_is_player:
            offer = min(options.player_trade_offer, state.track("british_resources"))
            trace.step("8.7.1", "Trade: the British player's answer", [], offer)
        else:
            offer = british_trade_offer(state, rng, trace)
    move = SpecialActivity("indians", "trade", command, (space,), amount=offer)
    return move if special_refusal(state, move) is None else None


def war_path(
    state: CoinState, command: Command | None, rng: LoggedRandom, trace: Trace
) -> SpecialActivity | None:
    """8.7.1 WAR PATH in one space: first to remove a Patriot Fort, then to remove
    the most Rebellion pieces (which ones by 8.1.2); within that a Province with a
    Village first (ties by 8.2). None when no War Path is possible.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "war_party", 2, new_status="underground")
    >>> state.move_pieces("Available", "Virginia", "militia", 1)
    >>> state.move_pieces("Available", "Virginia", "continental", 1)
    >>> war_path(state, None, LoggedRandom(0), Trace()).removed
    (('Virginia', 'continental', 1), ('Virginia', 'militia:underground', 1))
    """
    legal = list(special_view(state, "indians", "war_path", command))
    if not legal:
        trace.step("8.7.1", "War Path: not possible", [], None)
        return None

    def strength(move: SpecialActivity) -> tuple[bool, int]:
        return move.option == "fort", _removed_count(move.removed)

    best = max(strength(m) for m in legal)
    pool = [m for m in legal if strength(m) == best]
    why = "a Patriot Fort" if best[0] else f"{best[1]} Rebellion piece(s)"
    priorities = [
        Priority(
            f"War Path: {why}, a Village there",
            lambda s, x: bool(s.pieces(x, "village")),
            rule="8.7.1",
        ),
        Priority(f"War Path: {why}, elsewhere", lambda s, x: True, rule="8.7.1"),
    ]
    (space,) = select_spaces(state, sorted({m.spaces[0] for m in pool}), priorities, 1, rng, trace)
    return _best_removal(state, [m for m in pool if m.spaces == (space,)], space)


def _plunder(state: CoinState, command: Command | None, space: str) -> SpecialActivity:
    """4.4.3 in ``space``: the War Party removed is an Active one if there is one
    (8.1.2: Active before Underground)."""
    kind = ACTIVE if _war_parties(state, space, "active") else UNDERGROUND
    return SpecialActivity("indians", "plunder", command, (space,), removed=((space, kind, 1),))


def _war_path_or_trade(
    context: TurnContext,
    command: Command,
    rule: str,
    british_is_player: bool,
    options: IndiansOptions,
) -> None:
    """The Special Activity after a Command (8.7.1-8.7.4): War Path, or if that is
    not possible Trade; with no Indian Resources, Trade first (8.7.1 WAR PATH)."""
    if not _special_allowed(context):
        return
    state, rng, trace = context.state, context.rng, context.trace
    british = _british_played(context, british_is_player)
    move: SpecialActivity | None = None
    if state.track(RESOURCES["indians"]) == 0:
        trace.step("8.7.1", "War Path with no Indian Resources: Trade instead", [], "trade")
        move = trade(state, command, rng, trace, british_is_player=british, options=options)
        if move is None and not options.war_path_when_broke:
            return
    if move is None:
        move = war_path(state, command, rng, trace)
    if move is None:
        move = trade(state, command, rng, trace, british_is_player=british, options=options)
    if move is None:
        trace.step(rule, "no War Path or Trade possible: no Special Activity", [], None)
        return
    trace.step(rule, f"Special Activity: {move.name}", ["war_path", "trade"], move.name)
    context.special(move)


# ---------------------------------------------------------------------- which box first


def scout_wanted(state: CoinState) -> bool:
    """8.7.4: a space holds British Regulars and a War Party (else 8.7.3 March).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "war_party", 1)
    >>> scout_wanted(state)
    False
    >>> state.move_pieces("Available", "Virginia", "british_regular", 1)
    >>> scout_wanted(state)
    True
    """
    return any(state.pieces(s, "british_regular") and _war_parties(state, s) for s in spaces(state))


def _village_site(state: CoinState, space: str, least: int, with_cornplanter: int) -> bool:
    if not _gather_province(state, space) or stacking_room(state, space) < 1:
        return False
    need = with_cornplanter if _cornplanter(state, space) else least
    return _war_parties(state, space) >= need


def gather_villages(state: CoinState, *, limited: bool = False, free: bool = False) -> int:
    """8.7.2: how many Villages the Non-player Gather would place by its first
    bullet (a space with room and three War Parties, two with Cornplanter), as far
    as Villages, the space limit and Resources (the first Reserve free) go.

    >>> state = CoinState.new("lod")
    >>> for space in ("Quebec", "Northwest"):
    ...     state.move_pieces("Available", space, "war_party", 3)
    >>> gather_villages(state)  # no Resources: the first Reserve only, free
    1
    >>> state.set_track("indians_resources", 1)
    >>> gather_villages(state), gather_villages(state, limited=True)
    (2, 1)
    """
    sites = [
        s
        for s in _provinces(state)
        if _village_site(state, s, VILLAGE_WAR_PARTIES, CORNPLANTER_WAR_PARTIES)
    ]
    most = min(len(sites), state.available("village"), 1 if limited else GATHER_SPACES)
    if not free:
        reserve = any(_is_reserve(state, s) for s in sites)
        most = min(most, state.track(RESOURCES["indians"]) + (1 if reserve else 0))
    return most


def first_box(context: TurnContext, options: IndiansOptions = DEFAULTS) -> str:
    """The box the Indian flowchart starts from (the opening sentences of
    8.7.1-8.7.4), traced; each D6 is rolled only when its sentence is reached.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> first_box(TurnContext(state, "indians", LoggedRandom(0)))
    'gather'
    """
    state, trace = context.state, context.trace
    boxes = ["raid", "gather", "scout", "march"]
    support, opposition = state.total_support(), state.total_opposition()
    die = context.roll(6, "8.7.1", f"Raid if Support {support} + 1D6 <= Opposition {opposition}")
    if support + die <= opposition:
        trace.step("8.7.1", "Support + 1D6 does not exceed Opposition: Raid", boxes, "raid")
        return "raid"
    scope = context.scope
    villages = gather_villages(state, limited=scope.limited, free=scope.free)
    if villages >= 2:
        trace.step("8.7.2", f"Gather would place {villages} Villages", boxes[1:], "gather")
        return "gather"
    available = state.available(WP)
    if context.roll(6, "8.7.2", f"Gather if below {available} Available War Parties") < available:
        trace.step("8.7.2", "D6 below the Available War Parties: Gather", boxes[1:], "gather")
        return "gather"
    chosen = "scout" if scout_wanted(state) else "march"
    trace.step(
        "8.7.4" if chosen == "scout" else "8.7.3",
        "a space with British Regulars and a War Party"
        if chosen == "scout"
        else "no space with British Regulars and a War Party",
        boxes[2:],
        chosen,
    )
    return chosen


# ---------------------------------------------------------------------- 8.7.1 Raid


@dataclass
class _MidRaid:
    """The Special Activity planned where the Raid's Resources fell to zero: its
    name, its space (the Trade's answer too), and how many targets were paid for
    before it."""

    name: str
    space: str
    paid: int
    offer: int | None = None


@dataclass
class _RaidPlan:
    """A Raid (8.7.1) under construction on a copy of the state (its Resources
    paid as each target is selected): the targets in the order selected, where
    each one's War Party comes from, the Special Activity planned on the way."""

    context: TurnContext
    british_is_player: bool
    options: IndiansOptions
    work: CoinState = field(init=False)
    targets: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    mid: _MidRaid | None = None

    def __post_init__(self) -> None:
        self.work = self.context.state.copy()

    @property
    def left(self) -> int:
        return self.work.track(RESOURCES["indians"])

    @property
    def free(self) -> bool:
        return self.context.scope.free

    def own(self, space: str) -> int:
        """Underground War Parties of the space's own (not moved in by this Raid)."""
        incoming = 1 if space in self.sources else 0
        return _war_parties(self.work, space, "underground") - incoming

    def spare(self, origin: str) -> int:
        """Underground War Parties that may leave ``origin``: a target Activating
        its own keeps one, and a Village space keeps its last War Party (8.7.1)."""
        keep = 1 if origin in self.targets and origin not in self.sources else 0
        most = self.own(origin) - keep
        if self.work.pieces(origin, "village"):
            most = min(most, _war_parties(self.work, origin) - 1)
        return max(most, 0)

    def origins(self, target: str) -> list[str]:
        found = [o for o in raid_origins(self.work, target) if o != target and self.spare(o)]
        bound = self.context.bound
        if bound is not None and target != bound:  # 8.3.7: starting from the Leader
            return [o for o in found if o == bound]
        return found

    def needs_party(self, target: str) -> bool:
        """8.7.1: a War Party moves in where the target has no Underground one of
        its own, or where War Parties do not outnumber Rebellion pieces."""
        rebels = side_pieces(self.work, target, "rebellion")
        return self.own(target) < 1 or _war_parties(self.work, target) <= rebels

    def candidate(self, state: CoinState, target: str) -> bool:
        board = state.rules.map
        bound = self.context.bound
        involves = (
            bound is None
            or target == bound
            or (self.needs_party(target) and bool(self.origins(target)))
        )
        return (
            target not in self.targets
            and board.is_colony(target)
            and state.support_value(target) < 0
            and (self.own(target) >= 1 or bool(self.origins(target)))
            and involves
        )

    def plunder_after(self, state: CoinState, target: str) -> bool:
        moved = 1 if self.needs_party(target) and self.origins(target) else 0
        return _war_parties(state, target) + moved > side_pieces(state, target, "rebellion")

    def select(self) -> str | None:
        priorities = [
            Priority(
                "Raid: Plunder possible after the Raid movement",
                lambda s, x: self.candidate(s, x) and self.plunder_after(s, x),
                _population,
                rule="8.7.1",
            ),
            Priority("Raid: elsewhere", self.candidate, _population, rule="8.7.1"),
        ]
        chosen = select_spaces(
            self.work, spaces(self.work), priorities, 1, self.context.rng, self.context.trace
        )
        return chosen[0] if chosen else None

    def add(self, target: str) -> None:
        self.targets.append(target)
        if not self.free:
            self.work.set_track(RESOURCES["indians"], self.left - 1)
        if not self.needs_party(target):
            return
        origins = self.origins(target)
        if not origins:
            return
        most = Priority(
            f"Raid: a War Party into {target} from the origin with most to spare",
            lambda s, o: True,
            lambda s, o: self.spare(o),
            rule="8.7.1",
        )
        (origin,) = select_spaces(
            self.work, origins, [most], 1, self.context.rng, self.context.trace
        )
        self.sources[target] = origin
        self.work.move_pieces(origin, target, WP, 1, "underground", "underground")

    def plan_mid(self) -> None:
        """8.7.1: Resources fell to zero: Plunder, or if not possible Trade, planned
        here and carried out on the copy; their gain pays for further targets."""
        work, rng, trace = self.work, self.context.rng, self.context.trace
        plunder = [
            t for t in self.targets if _war_parties(work, t) > side_pieces(work, t, "rebellion")
        ]
        move: SpecialActivity | None = None
        if plunder:
            most = Priority(
                "Plunder: a Raid space, highest Population",
                lambda s, x: True,
                _population,
                rule="8.7.1",
            )
            (space,) = select_spaces(work, plunder, [most], 1, rng, trace)
            move = _plunder(work, None, space)
        else:
            british = _british_played(self.context, self.british_is_player)
            move = trade(work, None, rng, trace, british_is_player=british, options=self.options)
        if move is None:
            trace.step("8.7.1", "Resources fell to zero: no Plunder or Trade possible", [], None)
            return
        self.mid = _MidRaid(move.name, move.spaces[0], len(self.targets), move.amount)
        self.work = apply_special(work, move).state
        trace.step(
            "8.7.1",
            f"Resources fell to zero during the Raid: {move.name}",
            ["plunder", "trade"],
            move.name,
        )

    def command(self, targets: Sequence[str]) -> Command:
        moves = tuple(
            sorted((self.sources[t], t, UNDERGROUND, 1) for t in targets if t in self.sources)
        )
        return Command("indians", "raid", tuple(sorted(targets)), moves=moves)


def _mid_move(plan: _RaidPlan, state: CoinState, command: Command) -> SpecialActivity | None:
    """The planned mid-Raid Special Activity as it would be executed on ``state``."""
    mid = plan.mid
    assert mid is not None
    if mid.name == "plunder":
        move = _plunder(state, command, mid.space)
    else:
        move = SpecialActivity("indians", "trade", command, (mid.space,), amount=mid.offer or 0)
    return move if special_refusal(state, move) is None else None


def _after_trade(plan: _RaidPlan, command: Command, state: CoinState) -> SpecialActivity | None:
    """A Trade planned mid-Raid but executed later: the space chosen again on
    ``state``, the British answer kept."""
    context = plan.context
    mid = plan.mid
    assert mid is not None
    british = _british_played(context, plan.british_is_player)
    return trade(
        state,
        command,
        context.rng,
        context.trace,
        british_is_player=british,
        offer=mid.offer,
        options=plan.options,
    )


def _raid_around(context: TurnContext, plan: _RaidPlan, move: Command) -> Command | None:
    """8.7.1: the Plunder (or Trade) made when Resources fell to zero, "before
    completing the Raid": before the whole Raid if it can be made there; else, once
    the targets paid so far are carried out (a Plunder needing their War Party),
    between them and the others, which its gain pays for (4.1 "during"); if it
    cannot come there either, the Raid stops at the targets paid for. Returns the
    Raid carried out, or None when no target is left after the paid ones (the Raid
    and then its Special Activity are the caller's)."""
    mid = plan.mid
    assert mid is not None
    special = _mid_move(plan, context.state, move)
    if special is not None:
        trial = apply_special(context.state, special, LoggedRandom(0)).state
        if command_refusal(trial, move, options=context.command_options) is None:
            context.special(special)
            context.command(move)
            return move
    before = plan.targets[: mid.paid]
    if len(before) == len(plan.targets):
        return None
    first, _ = command_parts(move, before)
    trial = apply_command(context.state, first, options=context.command_options).state
    special = (
        _mid_move(plan, trial, move) if mid.name == "plunder" else _after_trade(plan, move, trial)
    )
    if special is not None and _fits_during(context, move, before, special):
        context.command_during(move, before, special)
        return move
    context.trace.step("8.7.1", f"no {mid.name} can follow the first targets: the Raid stops "
                       "at the targets paid for", plan.targets, list(before))  # fmt: skip
    context.command(first)
    return first


def _fits_during(
    context: TurnContext, move: Command, before: Sequence[str], special: SpecialActivity
) -> bool:
    """Whether ``special`` can come between ``move``'s ``before`` spaces and its
    others, and its gain pays for them."""
    try:
        special_during(context.state, move, before, special, None, context.command_options)
    except IllegalMoveError:
        return False
    return True


def raid_box(
    context: TurnContext, options: IndiansOptions = DEFAULTS, british_is_player: bool = False
) -> str | None:
    """8.7.1 Raid in up to three Colonies at Opposition with or next to an
    Underground War Party (or within reach of Dragging Canoe): where Plunder will be
    possible after the Raid movement first, highest Population within each; a War
    Party moves into each target without one or where War Parties do not outnumber
    Rebellion pieces, never the last one of a Village space. Where Resources fall to
    zero, Plunder or else Trade before the Raid is complete (its gain pays for the
    further targets); with no Special Activity so far, War Path or else Trade after.
    IF NONE: Gather.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> raid_box(TurnContext(load_scenario("lod", "1775"), "indians", LoggedRandom(0)))
    'gather'
    """
    plan = _RaidPlan(context, british_is_player, options)
    limit = context.space_limit(RAID_SPACES)
    allowed = _special_allowed(context)
    while len(plan.targets) < limit and (plan.free or plan.left > 0):
        target = plan.select()
        if target is None:
            break
        plan.add(target)
        if not plan.free and plan.left == 0 and allowed and plan.mid is None:
            plan.plan_mid()
    if not plan.targets:
        context.trace.step("8.7.1", "no Raid possible", [], None)
        return "gather"
    move = context.stamp(plan.command(plan.targets))
    if plan.mid is not None:
        done = _raid_around(context, plan, move)
        if done is None:
            # Resources ran out at the last target, and the Special Activity needs
            # the Raid's movement: the Raid, then it
            context.command(move)
            done = move
            after = (
                _mid_move(plan, context.state, move)
                if plan.mid.name == "plunder"
                else _after_trade(plan, move, context.state)
            )
            if after is not None:
                context.special(after)
        if context.special_used:
            return None
        move = done
    else:
        context.command(move)
    _war_path_or_trade(context, move, "8.7.1", british_is_player, options)
    return None


# ---------------------------------------------------------------------- 8.7.2 Gather


@dataclass
class _GatherPlan:
    """A Gather (8.7.2) under construction: the Provinces in the order selected,
    what is placed, removed and moved, on a copy of the state."""

    context: TurnContext
    work: CoinState = field(init=False)
    selected: list[str] = field(default_factory=list)
    placed: Counter[tuple[str, str]] = field(default_factory=Counter)
    removed: Counter[tuple[str, str]] = field(default_factory=Counter)
    moves: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    war_parties: int = 0
    villages: int = 0
    provinces: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.work = self.context.state.copy()
        self.provinces = _provinces(self.work)
        # 3.4.1: placements draw on the pieces Available when the Gather begins
        self.war_parties = self.work.available(WP)
        self.villages = self.work.available("village")

    @property
    def limit(self) -> int:
        return self.context.space_limit(GATHER_SPACES)

    def cost(self, more: str | None = None) -> int:
        """3.4.1: one Resource per Province, the first Indian Reserve free."""
        chosen = [*self.selected, *([more] if more else [])]
        reserve = any(_is_reserve(self.work, s) for s in chosen)
        return len(chosen) - (1 if reserve else 0)

    def open(self, state: CoinState, space: str) -> bool:
        return (
            space not in self.selected
            and len(self.selected) < self.limit
            and space in self.context.within_bound([space])
            and _gather_province(state, space)
            and _afford(self.context, self.cost(space))
        )

    def pick(self, priorities: list[Priority]) -> str | None:
        chosen = select_spaces(
            self.work, self.provinces, priorities, 1, self.context.rng, self.context.trace
        )
        return chosen[0] if chosen else None

    def command(self) -> Command:
        def entries(counts: Counter[tuple[str, str]]) -> tuple[Entry, ...]:
            return tuple(sorted((s, k, n) for (s, k), n in counts.items() if n))

        return Command(
            "indians",
            "gather",
            tuple(sorted(self.selected)),
            placed=entries(self.placed),
            removed=entries(self.removed),
            moves=tuple(sorted((o, d, k, n) for (o, d, k), n in self.moves.items() if n)),
        )


def _gather_villages(plan: _GatherPlan) -> None:
    """8.7.2 first bullet: a Village in each space with room and three War Parties
    (two with Cornplanter, who makes one War Party enough), the Indian Leader's first;
    the War Parties it replaces Active first (8.1.2)."""
    work = plan.work
    leader = leader_space(work, "indians")

    def site(s: CoinState, x: str) -> bool:
        return (
            plan.villages > 0
            and plan.open(s, x)
            and _village_site(s, x, VILLAGE_WAR_PARTIES, CORNPLANTER_WAR_PARTIES)
        )

    priorities = [
        Priority(
            "Village: with the Indian Leader", lambda s, x: x == leader and site(s, x), rule="8.7.2"
        ),
        Priority("Village", site, rule="8.7.2"),
    ]
    while (space := plan.pick(priorities)) is not None:
        need = 1 if _cornplanter(work, space) else VILLAGE_COST
        active = min(need, _war_parties(work, space, "active"))
        for kind, n in ((ACTIVE, active), (UNDERGROUND, need - active)):
            if n:
                plan.removed[(space, kind)] += n
                work.move_pieces(space, "Available", WP, n, kind.partition(":")[2])
        plan.placed[(space, "village")] += 1
        work.move_pieces("Available", space, "village", 1)
        plan.villages -= 1
        plan.selected.append(space)


def _gather_at_villages(plan: _GatherPlan) -> None:
    """8.7.2 second bullet: War Parties at Villages (as many as the Villages allow,
    one more than there are), first where enemy pieces are, then where no War Party
    is Underground, then with the Indian Leader, then elsewhere."""
    leader = leader_space(plan.work, "indians")

    def at_village(s: CoinState, x: str) -> bool:
        return plan.war_parties > 0 and bool(s.pieces(x, "village")) and plan.open(s, x)

    priorities = [
        Priority(
            "War Parties at a Village with enemy pieces",
            lambda s, x: at_village(s, x) and side_pieces(s, x, "rebellion") > 0,
            rule="8.7.2",
        ),
        Priority(
            "War Parties at a Village with no Underground War Party",
            lambda s, x: at_village(s, x) and not _war_parties(s, x, "underground"),
            rule="8.7.2",
        ),
        Priority(
            "War Parties at the Indian Leader's Village",
            lambda s, x: x == leader and at_village(s, x),
            rule="8.7.2",
        ),
        Priority("War Parties at a Village", at_village, rule="8.7.2"),
    ]
    while (space := plan.pick(priorities)) is not None:
        n = min(plan.work.pieces(space, "village") + 1, plan.war_parties)
        plan.placed[(space, WP)] += n
        plan.work.move_pieces("Available", space, WP, n, new_status="underground")
        plan.war_parties -= n
        plan.selected.append(space)


def _gather_growth(plan: _GatherPlan) -> None:
    """8.7.2 third bullet: with a Village Available, one War Party in each of up to
    two spaces with room for a Village: two War Parties there first, then one, then
    elsewhere."""
    if plan.villages < 1:
        return

    def room(s: CoinState, x: str) -> bool:
        return plan.war_parties > 0 and plan.open(s, x) and stacking_room(s, x) >= 1

    def holding(n: int | None) -> Callable[[CoinState, str], bool]:
        return lambda s, x: (n is None or _war_parties(s, x) == n) and room(s, x)

    priorities = [
        Priority("a War Party where two are, room for a Village", holding(2), rule="8.7.2"),
        Priority("a War Party where one is, room for a Village", holding(1), rule="8.7.2"),
        Priority("a War Party where a Village has room", holding(None), rule="8.7.2"),
    ]
    for _ in range(GROWTH_SPACES):
        space = plan.pick(priorities)
        if space is None:
            return
        plan.placed[(space, WP)] += 1
        plan.work.move_pieces("Available", space, WP, 1, new_status="underground")
        plan.war_parties -= 1
        plan.selected.append(space)


def _active_movers(state: CoinState, origin: str) -> int:
    """Active War Parties that may leave ``origin`` without adding Rebellion Control
    there (8.7.2 fourth bullet)."""
    have = _war_parties(state, origin, "active")
    if rebellion_controls(state, origin):
        return have
    for n in range(have, 0, -1):
        if control_if(state, origin, {ACTIVE: -n}) != "rebellion":
            return n
    return 0


def _gather_move_in(plan: _GatherPlan) -> None:
    """8.7.2 fourth bullet: no War Party left Available and fewer than four spaces
    selected: one more Village space takes in every adjacent Active War Party that
    may come without adding Rebellion Control, then its Active War Parties go
    Underground; the space where most Active War Parties go Underground (ties 8.2)."""
    if plan.war_parties > 0 or len(plan.selected) >= plan.limit:
        return
    work = plan.work
    board = work.rules.map

    def incoming(x: str) -> dict[str, int]:
        movers = {o: _active_movers(work, o) for o in board.adjacent(x) if _is_province(work, o)}
        return {o: n for o, n in movers.items() if n > 0}

    def flipped(s: CoinState, x: str) -> int:
        return sum(incoming(x).values()) + _war_parties(s, x, "active")

    def mover(s: CoinState, x: str) -> bool:
        return plan.open(s, x) and bool(s.pieces(x, "village")) and flipped(s, x) > 0

    most = Priority("a Village space taking in Active War Parties", mover, flipped, rule="8.7.2")
    space = plan.pick([most])
    if space is None:
        return
    for origin, n in incoming(space).items():
        plan.moves[(origin, space, ACTIVE)] += n
        work.move_pieces(origin, space, WP, n, "active", "active")
    active = _war_parties(work, space, "active")
    work.flip(space, WP, active, "active", "underground")
    plan.selected.append(space)


def gather_box(
    context: TurnContext, options: IndiansOptions = DEFAULTS, british_is_player: bool = False
) -> str | None:
    """8.7.2 Gather in up to four spaces: Villages, War Parties at Villages, War
    Parties where a Village may grow, then one space taking in Active War Parties;
    then War Path or else Trade. IF NONE: March.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1776"), "indians", LoggedRandom(0))
    >>> gather_box(context) is None, context.steps[0].move.name
    (True, 'gather')
    """
    plan = _GatherPlan(context)
    _gather_villages(plan)
    _gather_at_villages(plan)
    _gather_growth(plan)
    _gather_move_in(plan)
    if not plan.selected:
        context.trace.step("8.7.2", "no Gather possible", [], None)
        return "march"
    move = context.command(plan.command())
    _war_path_or_trade(context, move, "8.7.2", british_is_player, options)
    return None


# ---------------------------------------------------------------------- 8.7.3 March


@dataclass
class _MarchPlan:
    """An Indian March (8.7.3) under construction on a copy of the state."""

    context: TurnContext
    options: IndiansOptions
    work: CoinState = field(init=False)
    moves: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    entered: dict[str, set[str]] = field(default_factory=dict)  # destination: origins
    provinces: list[str] = field(init=False)
    # spare() by origin, until the next destination is entered or War Party moved
    known_spare: dict[str, tuple[int, int]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.work = self.context.state.copy()
        self.provinces = _provinces(self.work)

    @property
    def origins(self) -> set[str]:
        return {o for (o, _, _) in self.moves}

    def village_site(self, space: str) -> bool:
        """A space where Gather could place a Village (8.7.3), by
        ``options.village_site_by_command``."""
        if self.work.available("village") < 1:
            return False
        if self.options.village_site_by_command:
            return _village_site(self.work, space, VILLAGE_COST, 1)
        return _village_site(self.work, space, VILLAGE_WAR_PARTIES, CORNPLANTER_WAR_PARTIES)

    def spare(self, origin: str) -> tuple[int, int]:
        """(Underground, Active) War Parties that may leave ``origin``, Underground
        first: never its last War Party where a Village is, nor its last three where
        Gather could place a Village, nor so many that Rebellion Control is added."""
        if origin not in self.known_spare:
            self.known_spare[origin] = self._spare(origin)
        return self.known_spare[origin]

    def _spare(self, origin: str) -> tuple[int, int]:
        work = self.work
        if origin in self.entered or not _is_province(work, origin):
            return 0, 0
        if origin not in self.context.within_bound([origin]):
            return 0, 0  # 8.3.7: the Brilliant Stroke's first Command
        total = _war_parties(work, origin)
        keep = 1 if work.pieces(origin, "village") else 0
        if self.village_site(origin):
            keep = max(keep, min(MARCH_STACK, total))
        most = total - keep
        underground = _war_parties(work, origin, "underground")
        if not rebellion_controls(work, origin):
            while most > 0:
                ug = min(most, underground)
                change = {UNDERGROUND: -ug, ACTIVE: -(most - ug)}
                if control_if(work, origin, change) != "rebellion":
                    break
                most -= 1
        ug = min(max(most, 0), underground)
        return ug, max(most - ug, 0)

    def spare_of(self, state: CoinState, origin: str, phase: int) -> int:
        return self.spare(origin)[phase]

    def spares(self, destination: str) -> dict[str, int]:
        """The War Parties each adjacent space may send to ``destination``, where any."""
        board = self.work.rules.map
        found = {o: sum(self.spare(o)) for o in board.adjacent(destination)}
        return {o: n for o, n in found.items() if n}

    def sendable(self, destination: str, reserves_only: bool) -> int:
        """The War Parties that may come into ``destination`` (only from Reserves
        if ``reserves_only``)."""
        return sum(
            n
            for o, n in self.spares(destination).items()
            if not reserves_only or _is_reserve(self.work, o)
        )

    def cost(self, reserves_only: bool) -> int:
        """3.4.2: one per destination with one more, the first entered only from
        Reserves free (the new one if ``reserves_only``)."""
        board = self.work.rules.map
        free = reserves_only or any(
            all(board.is_reserve(o) for o in origins) for origins in self.entered.values()
        )
        return len(self.entered) + 1 - (1 if free else 0)

    def reserves_only(self, destination: str, need: int) -> bool | None:
        """Whether ``destination`` may be paid for: None if not, True if only with
        War Parties from Reserves (the free destination), False if from anywhere."""
        if len(self.entered) >= self.context.space_limit(MARCH_SPACES):
            return None
        if _afford(self.context, self.cost(False)):
            return False
        if self.sendable(destination, True) < need:
            return None
        return True if _afford(self.context, self.cost(True)) else None

    def movable(self, destination: str, need: int) -> bool:
        if destination in self.entered or destination in self.origins:
            return False
        how = self.reserves_only(destination, need)
        if how is None:
            return False
        return self.sendable(destination, how) >= need

    def bring(self, destination: str, need: int, rule: str) -> None:
        """Move ``need`` War Parties into ``destination``: Underground ones first,
        then Active ones, from the origin with most to spare first (ties 8.2)."""
        how = self.reserves_only(destination, need)
        self.entered[destination] = set()
        self.known_spare.clear()
        for phase, status in ((0, "underground"), (1, "active")):
            while need > 0:
                pool = [
                    o
                    for o in self.spares(destination)
                    if self.spare(o)[phase] and (not how or _is_reserve(self.work, o))
                ]
                if not pool:
                    break
                most = Priority(
                    f"March: most {status.capitalize()} War Parties to spare",
                    lambda s, o: True,
                    partial(self.spare_of, phase=phase),
                    rule=rule,
                )
                (origin,) = select_spaces(
                    self.work, sorted(pool), [most], 1, self.context.rng, self.context.trace
                )
                n = min(self.spare(origin)[phase], need)
                self.work.move_pieces(origin, destination, WP, n, status, status)
                self.known_spare.clear()
                self.moves[(origin, destination, f"{WP}:{status}")] += n
                self.entered[destination].add(origin)
                need -= n

    def pick(self, priorities: list[Priority]) -> str | None:
        chosen = select_spaces(
            self.work, self.provinces, priorities, 1, self.context.rng, self.context.trace
        )
        return chosen[0] if chosen else None

    def command(self) -> Command:
        moves = tuple(sorted((o, d, k, n) for (o, d, k), n in self.moves.items() if n))
        return Command("indians", "march", tuple(sorted(self.entered)), moves=moves)


def _march_village_site(plan: _MarchPlan) -> None:
    """8.7.3 second bullet: with a Village Available, 3+ War Parties in one more
    Neutral or Passive space with room for a Village (ties 8.2)."""
    if plan.work.available("village") < 1:
        return

    def need(s: CoinState, x: str) -> int:
        return MARCH_STACK - _war_parties(s, x)

    def site(s: CoinState, x: str) -> bool:
        return (
            _gather_province(s, x)
            and stacking_room(s, x) >= 1
            and need(s, x) > 0
            and plan.movable(x, need(s, x))
        )

    space = plan.pick(
        [Priority("March: 3+ War Parties where a Village may go", site, rule="8.7.3")]
    )
    if space is not None:
        plan.bring(space, need(plan.work, space), "8.7.3")


def _rebels_over(state: CoinState, space: str) -> int:
    """War Parties needed so that Royalist pieces match the Rebellion's (1.7)."""
    return side_pieces(state, space, "rebellion") - side_pieces(state, space, "royalist")


def _march_control(plan: _MarchPlan) -> None:
    """8.7.3 third bullet: March to remove Rebellion Control, spaces with no Active
    Support first (ties 8.2), up to the destination limit."""

    def removable(s: CoinState, x: str) -> bool:
        return rebellion_controls(s, x) and plan.movable(x, _rebels_over(s, x))

    priorities = [
        Priority(
            "March: remove Rebellion Control, no Active Support",
            lambda s, x: s.support(x) != "active_support" and removable(s, x),
            rule="8.7.3",
        ),
        Priority("March: remove Rebellion Control", removable, rule="8.7.3"),
    ]
    while (space := plan.pick(priorities)) is not None:
        plan.bring(space, _rebels_over(plan.work, space), "8.7.3")


def march_box(
    context: TurnContext, options: IndiansOptions = DEFAULTS, british_is_player: bool = False
) -> str | None:
    """8.7.3 March into up to three spaces, Underground War Parties first: 3+ War
    Parties where a Village may go, then to remove Rebellion Control; then War Path
    or else Trade. IF NONE: Gather.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1775"), "indians", LoggedRandom(0))
    >>> march_box(context) is None, context.steps[0].move.moves
    (True, (('Southwest', 'Northwest', 'war_party:underground', 1),))
    """
    plan = _MarchPlan(context, options)
    _march_village_site(plan)
    _march_control(plan)
    if not plan.entered:
        context.trace.step("8.7.3", "no March possible", [], None)
        return "gather"
    move = context.command(plan.command())
    _war_path_or_trade(context, move, "8.7.3", british_is_player, options)
    return None


# ---------------------------------------------------------------------- 8.7.4 Scout


def _scout_group(
    state: CoinState, origin: str, options: IndiansOptions
) -> tuple[int, int, str] | None:
    """8.7.4: one War Party (an Active one if any: it is Activated anyway) and the
    most Regulars and Tories (made up as ``options.scout_cubes`` says) that leave
    British Control and no Rebellion Control added in ``origin``; None when no
    Regular can go."""
    kind = ACTIVE if _war_parties(state, origin, "active") else UNDERGROUND
    regulars, tories = state.pieces(origin, "british_regular"), state.pieces(origin, "tory")
    british, rebel = british_controls(state, origin), rebellion_controls(state, origin)
    for total in range(regulars + min(tories, regulars), 0, -1):
        r, t = _scout_cubes(regulars, tories, total, options)
        after = control_if(state, origin, {"british_regular": -r, "tory": -t, kind: -1})
        if (british and after != "british") or (not rebel and after == "rebellion"):
            continue  # only the total changes Control, not how it is made up
        return r, t, kind
    return None


def _scout_cubes(
    regulars: int, tories: int, total: int, options: IndiansOptions
) -> tuple[int, int]:
    """``total`` British cubes out of ``regulars`` and ``tories``: at least one
    Regular, Tories no more than Regulars (3.4.3).

    >>> _scout_cubes(3, 3, 3, DEFAULTS), _scout_cubes(3, 1, 3, DEFAULTS)
    ((2, 1), (2, 1))
    >>> _scout_cubes(3, 3, 3, IndiansOptions(scout_cubes="regulars_first"))
    (3, 0)
    """
    if options.scout_cubes == "regulars_first":
        r = min(regulars, total)
        return r, total - r
    r = t = 0
    regular_turn = regulars >= tories
    while r + t < total:
        if (regular_turn or t >= min(tories, r)) and r < regulars:
            r += 1
        else:
            t += 1
        regular_turn = not regular_turn
    return r, t


def _scout_move(origin: str, destination: str, group: tuple[int, int, str]) -> Command:
    regulars, tories, kind = group
    moves = [(origin, destination, "british_regular", regulars), (origin, destination, kind, 1)]
    if tories:
        moves.append((origin, destination, "tory", tories))
    return Command("indians", "scout", (destination,), moves=tuple(sorted(moves)))


def _scout_skirmish(state: CoinState, destination: str) -> SpecialActivity | None:
    """8.7.4 second bullet: the Scout's Skirmish in the destination, to remove a
    Patriot Fort if possible, else the most enemy pieces (which ones by 8.1.2)."""
    legal = [
        m for m in special_view(state, "british", "skirmish", None) if m.spaces == (destination,)
    ]
    if not legal:
        return None
    forts = [m for m in legal if m.option == "fort"]
    if forts:
        return forts[0]
    most = max(_removed_count(m.removed) for m in legal)
    return _best_removal(
        state, [m for m in legal if _removed_count(m.removed) == most], destination
    )


def _ends_rebellion_control(context: TurnContext, move: Command) -> bool:
    """Whether the Scout and its Skirmish would remove Rebellion Control there."""
    (destination,) = move.spaces
    state = context.state
    if not rebellion_controls(state, destination):
        return False
    after = apply_command(state, context.stamp(move), options=context.command_options).state
    skirmish = _scout_skirmish(after, destination)
    if skirmish is not None:
        after = apply_special(after, skirmish).state
    return not rebellion_controls(after, destination)


def scout_box(
    context: TurnContext, options: IndiansOptions = DEFAULTS, british_is_player: bool = False
) -> str | None:
    """8.7.4 Scout into one space: one War Party with the most Regulars and Tories
    that keep the origin's Control, first to a Patriot Fort, then to a Village space
    with enemy pieces, then to remove Rebellion Control (the most cubes moving within
    each, ties 8.2); the British Regulars Skirmish there; then War Path or else Trade.
    IF NONE (or the British or Indians cannot pay, 8.1): March.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1776")
    >>> state.set_track("indians_resources", 2)
    >>> context = TurnContext(state, "indians", LoggedRandom(0))
    >>> scout_box(context) is None, context.steps[0].move.name
    (True, 'scout')
    """
    state, trace = context.state, context.trace
    if not context.scope.free and (
        state.track("british_resources") < 1 or state.track(RESOURCES["indians"]) < 1
    ):
        trace.step("8.1", "Scout: the Indians or the British cannot pay", [], None)
        return "march"
    routes: dict[str, dict[str, Command]] = {}
    board = state.rules.map
    for origin in _provinces(state):
        if not (state.pieces(origin, "british_regular") and _war_parties(state, origin)):
            continue
        group = _scout_group(state, origin, options)
        if group is None:
            continue
        for destination in board.adjacent(origin):
            move = _scout_move(origin, destination, group)
            if _is_province(state, destination) and context.admits(move):
                routes.setdefault(destination, {})[origin] = move
    if not routes:
        trace.step("8.7.4", "no Scout move possible", [], None)
        return "march"

    def cubes(move: Command) -> int:
        return sum(n for _, _, kind, n in move.moves if not kind.startswith(WP))

    def most_cubes(s: CoinState, x: str) -> int:
        return max(cubes(m) for m in routes[x].values())

    priorities = [
        Priority(
            "Scout: to a Patriot Fort",
            lambda s, x: bool(s.pieces(x, "patriot_fort")),
            most_cubes,
            rule="8.7.4",
        ),
        Priority(
            "Scout: to a Village space with enemy pieces",
            lambda s, x: bool(s.pieces(x, "village")) and side_pieces(s, x, "rebellion") > 0,
            most_cubes,
            rule="8.7.4",
        ),
        Priority(
            "Scout: to remove Rebellion Control",
            lambda s, x: any(_ends_rebellion_control(context, m) for m in routes[x].values()),
            most_cubes,
            rule="8.7.4",
        ),
    ]
    if options.scout_anywhere:
        priorities.append(Priority("Scout: anywhere", lambda s, x: True, most_cubes, rule="8.7.4"))
    chosen = select_spaces(state, sorted(routes), priorities, 1, context.rng, trace)
    if not chosen:
        trace.step("8.7.4", "no Scout destination meets a priority", sorted(routes), None)
        return "march"
    (destination,) = chosen
    best = max(cubes(m) for m in routes[destination].values())
    origins = [o for o, m in routes[destination].items() if cubes(m) == best]
    origin = random_space(
        state,
        origins,
        context.rng,
        trace,
        rule="8.7.4",
        what="Scout: the origin moving the most Regulars and Tories",
    )
    move = context.command(routes[destination][origin])
    skirmish = _scout_skirmish(context.state, destination)
    if skirmish is not None:
        trace.step(
            "8.7.4", f"the Scout's Skirmish: {skirmish.option}", [destination], skirmish.removed
        )
        context.special(skirmish)
    else:
        trace.step("8.7.4", "no Skirmish possible after the Scout", [destination], None)
    _war_path_or_trade(context, move, "8.7.4", british_is_player, options)
    return None


# ---------------------------------------------------------------------- the flowchart


def indians_boxes(
    options: IndiansOptions = DEFAULTS, *, british_is_player: bool = False
) -> dict[str, Box]:
    """The Indian Command boxes by name under ``options``; each returns the box its
    "IF NONE" (or "unable to execute") names.

    >>> sorted(indians_boxes())
    ['gather', 'march', 'raid', 'scout']
    """
    return {
        name: partial(box, options=options, british_is_player=british_is_player)
        for name, box in (
            ("raid", raid_box),
            ("gather", gather_box),
            ("march", march_box),
            ("scout", scout_box),
        )
    }


INDIANS_BOXES: dict[str, Box] = indians_boxes()
"""The Indian Command boxes under the default readings (whether the British are
played is read from ``context.players``)."""


def indians_command(
    context: TurnContext,
    *,
    british_is_player: bool = False,
    options: IndiansOptions | None = None,
) -> None:
    """Run the Indian Command and Special Activity flowchart (8.7.1-8.7.4) on
    ``context``: the first box by the opening sentences, then each box's
    fall-through until one executes (or the Indians Pass, 2.3.3). The British are
    a player when ``british_is_player`` or named in ``context.players`` (a Trade
    request is then theirs to answer, 8.7.1).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1778"), "indians", LoggedRandom(1))
    >>> indians_command(context)
    >>> context.passed is None
    True
    """
    chosen = options or DEFAULTS
    boxes = indians_boxes(chosen, british_is_player=british_is_player)
    run_boxes(context, boxes, first_box(context, chosen))
