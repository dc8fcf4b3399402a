"""The Non-player French Command and Special Activity (8.6.1-8.6.6): which Command
the French take, how each box builds its move, and the Special Activity that goes
with it.

The first box is picked by the opening sentences of 8.6.1-8.6.6. Before the Treaty
of Alliance a D3 above the Patriot Resources picks Roderigue Hortalez et Cie, else
Agent Mobilization. After it a D6 below the Available French Regulars picks Muster;
else Battle where Rebellion cubes and Leaders outnumber the British pieces in a
space holding both French and British pieces; else March. Each box either executes
or names the box its "IF NONE" (or "unable to execute") sends the turn to
(:data:`FRENCH_BOXES`, run by
:func:`~legalis.solver.nonplayer.flowchart.run_boxes`).

Moves are built from the bullets and carried out through the
:class:`~legalis.solver.nonplayer.flowchart.TurnContext` (how it checks them, and
the Limited and Brilliant Stroke scopes, are described there).

>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> context = TurnContext(load_scenario("lod", "1778"), "french", LoggedRandom(2))
>>> french_command(context)
>>> [step.move.name for step in context.steps]
['muster', 'skirmish']
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import (
    MAX_SHIFTS_WASHINGTON,
    WEST_INDIES,
    BattleChoice,
    BattleResult,
    force_level,
    resolve_battle,
)
from legalis.model.lod.command_base import RESOURCES, Command, command_view
from legalis.model.lod.march import march_reach
from legalis.model.lod.special import SpecialActivity, special_refusal, special_view
from legalis.solver.nonplayer.board import (
    TrialDice,
    control_if,
    rebellion_controls,
    spaces,
)
from legalis.solver.nonplayer.flowchart import PASS, Box, TurnContext, run_boxes
from legalis.solver.nonplayer.patriots import blockades_after_win, free_rally
from legalis.solver.nonplayer.priorities import enemy_order
from legalis.solver.nonplayer.sequence import ResourcePurse
from legalis.solver.nonplayer.spaces import Priority, select_spaces, support_score
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "FRENCH_BOXES",
    "FrenchOptions",
    "agent_mobilization_box",
    "battle_box",
    "battle_wanted",
    "first_box",
    "french_boxes",
    "french_command",
    "hortalez_box",
    "march_box",
    "muster_box",
    "naval_pressure",
    "preparer_after_treaty",
    "preparer_before_treaty",
    "skirmish",
]

AGENT_MILITIA = 2  # 3.5.1: two Militia, else one Continental
MUSTER_MOST = 4  # 3.5.3: up to four French Regulars
MUSTER_WEST_INDIES_BELOW = 4  # 8.6.4: fewer than four Available: the West Indies
FRENCH_CUBES = ("french_regular", "continental")
BRITISH_CUBES = ("british_regular", "tory")
PATRIOT_UNITS = ("continental", "militia")
SPECIAL_ORDER = ("skirmish", "preparer", "naval_pressure")  # 8.6.3, 8.6.5
BATTLE_SPECIAL_ORDER = ("naval_pressure", "skirmish", "preparer")  # 8.6.6

Entry = tuple[str, str, int]


@dataclass(frozen=True)
class FrenchOptions:
    """The readings taken where 8.6.1-8.6.6 are unclear (``docs/rules-questions.md``).

    ``battle_space``: the Battle and March sentences (8.6.5, 8.6.6) count a space
    "with both" as one with ``"french_and_british"`` pieces (default: where the
    French may then Battle) or with ``"rebellion_cubes_and_british"`` pieces.
    ``agent_short_militia``: with one Militia Available, Agent Mobilization places
    ``"continental"`` (default: two Militia are not possible, so the Continental,
    else the lone Militia) or ``"militia"`` (the lone Militia first).
    ``patriots_join``: a French Battle includes the Patriots (who pay) where
    ``"continentals"`` are (default) or where ``"any_unit"`` of theirs is.
    ``overflow_shifts``: the Patriots put Win-the-Day shifts the Battle space
    cannot take in adjacent spaces, most Support first (default ``True``);
    ``False``: none are placed.
    ``muster_preparer``: 8.6.4 names the Préparer la Guerre of ``"8.6.1"`` after a
    Muster (default, as written: a Squadron, else Regulars, no die) where March and
    Hortalez name that of ``"8.6.3"`` (the D6, then +2 Resources at 0).

    >>> FrenchOptions().patriots_join
    'continentals'
    """

    battle_space: Literal["french_and_british", "rebellion_cubes_and_british"] = (
        "french_and_british"
    )
    agent_short_militia: Literal["continental", "militia"] = "continental"
    patriots_join: Literal["continentals", "any_unit"] = "continentals"
    overflow_shifts: bool = True
    muster_preparer: Literal["8.6.1", "8.6.3"] = "8.6.1"


DEFAULTS = FrenchOptions()


# ---------------------------------------------------------------------- small queries


def _is_city(state: CoinState, space: str) -> bool:
    return space != WEST_INDIES and state.rules.map.is_city(space)


def _is_colony(state: CoinState, space: str) -> bool:
    return space != WEST_INDIES and state.rules.map.is_colony(space)


def _population(state: CoinState, space: str) -> int:
    return 0 if space == WEST_INDIES else state.rules.map.population(space)


def _cities(state: CoinState) -> list[str]:
    return sorted(state.rules.map.of_type("City"))


def _toa(state: CoinState) -> bool:
    return state.flag("toa_played")


def _rebellion_leaders(state: CoinState, space: str) -> int:
    """The Patriot and French Leaders in ``space``."""
    return sum(
        1
        for leader in state.rules.data.leaders
        if leader.faction in ("patriots", "french") and state.leader(leader.name) == space
    )


def _entries(space: str, picks: Sequence[tuple[str, str]]) -> tuple[Entry, ...]:
    """Picks of :mod:`~legalis.solver.nonplayer.priorities` as sorted entries of
    ``space`` (piece kind, number)."""
    counted = Counter(kind for kind, _ in picks)
    return tuple(sorted((space, kind, n) for kind, n in counted.items()))


# ---------------------------------------------------------------------- which box first


def battle_wanted(state: CoinState, options: FrenchOptions = DEFAULTS) -> bool:
    """8.6.5 / 8.6.6: Rebellion cubes plus Leaders outnumber the British pieces in a
    space (or the West Indies) holding both (``options.battle_space``).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "french_regular", 2)
    >>> state.move_pieces("Available", "Boston", "british_regular", 2)
    >>> battle_wanted(state)
    False
    >>> state.set_leader("Rochambeau", "Boston")
    >>> battle_wanted(state)
    True
    """
    for space in spaces(state, west_indies=True):
        british = state.faction_pieces(space, "british")
        rebels = sum(state.pieces(space, kind) for kind in FRENCH_CUBES)
        ours = rebels
        if options.battle_space == "french_and_british":
            ours = state.pieces(space, "french_regular")
        if british and ours and rebels + _rebellion_leaders(state, space) > british:
            return True
    return False


def first_box(context: TurnContext, options: FrenchOptions = DEFAULTS) -> str:
    """The box the French flowchart starts from (the opening sentences of
    8.6.1-8.6.6), traced with its die.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> state.set_track("patriots_resources", 3)  # no D3 exceeds 3
    >>> first_box(TurnContext(state, "french", LoggedRandom(0)))
    'agent_mobilization'
    """
    state = context.state
    if not _toa(state):
        patriots = state.track(RESOURCES["patriots"])
        roll = context.roll(3, "8.6.1", f"Hortalez if above {patriots} Patriot Resources")
        chosen = "hortalez" if roll > patriots else "agent_mobilization"
        context.trace.step(
            "8.6.1" if chosen == "hortalez" else "8.6.2",
            "before the Treaty of Alliance",
            ["hortalez", "agent_mobilization"],
            chosen,
        )
        return chosen
    available = state.available("french_regular")
    if context.roll(6, "8.6.4", f"Muster if below {available} Available Regulars") < available:
        context.trace.step(
            "8.6.4",
            "D6 below the Available French Regulars: Muster",
            ["muster", "march", "battle"],
            "muster",
        )
        return "muster"
    chosen = "battle" if battle_wanted(state, options) else "march"
    context.trace.step(
        "8.6.6" if chosen == "battle" else "8.6.5",
        "Rebellion cubes + Leaders outnumber British pieces somewhere",
        ["march", "battle"],
        chosen,
    )
    return chosen


# ---------------------------------------------------------------------- Special Activities


def preparer_before_treaty(state: CoinState, command: Command | None) -> SpecialActivity | None:
    """8.6.1 PRÉPARER LA GUERRE before the Treaty of Alliance: a Squadron from
    Unavailable to the West Indies, else up to three French Regulars from
    Unavailable to Available; else none.

    >>> state = CoinState.new("lod")
    >>> preparer_before_treaty(state, None).option
    'squadron'
    """
    for option in ("squadron", "regulars"):
        move = SpecialActivity("french", "preparer", command, option=option)
        if special_refusal(state, move) is None:
            return move
    return None


def preparer_after_treaty(
    context: TurnContext, command: Command | None, resources_left: int
) -> SpecialActivity | None:
    """8.6.3 PRÉPARER LA GUERRE after the Treaty of Alliance: a D6 at most the
    Unavailable French Regulars + Blockades moves a Squadron (else Regulars) out of
    Unavailable; with nothing moved and ``resources_left`` (the French Resources
    once the Command is paid) at 0, +2 French Resources; else None. The D6 is rolled
    only when something is Unavailable.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_marker("Unavailable", "West Indies", "blockade", 3)
    >>> preparer_after_treaty(TurnContext(state, "french", LoggedRandom(0)), None, 0).option
    'resources'
    """
    state = context.state
    waiting = state.pieces("Unavailable", "french_regular") + state.markers(
        "Unavailable", "blockade"
    )
    options: tuple[str, ...] = ()
    if waiting:
        roll = context.roll(6, "8.6.3", f"Préparer if at most {waiting} Unavailable")
        if roll <= waiting:
            options = ("squadron", "regulars")
    if resources_left == 0:
        options = (*options, "resources")
    for option in options:
        move = SpecialActivity("french", "preparer", command, option=option)
        if special_refusal(state, move) is None:
            return move
    return None


def skirmish(
    state: CoinState, command: Command | None, rng: LoggedRandom, trace: Trace
) -> SpecialActivity | None:
    """8.6.3 SKIRMISH: in the West Indies if possible, else in one space with French
    and British pieces not selected for Battle or Muster (where a British Fort can
    go first, then where the most British cubes can; ties by 8.2); a Fort if
    possible, else as many British cubes as possible (8.1.2 order). None when no
    Skirmish can accompany ``command``.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_pieces("Available", "Virginia", "french_regular", 2)
    >>> state.move_pieces("Available", "Virginia", "british_regular", 1)
    >>> state.move_pieces("Available", "Virginia", "tory", 2)
    >>> skirmish(state, None, LoggedRandom(0), Trace()).removed
    (('Virginia', 'british_regular', 1), ('Virginia', 'tory', 1))
    """
    legal = list(special_view(state, "french", "skirmish", command))
    if not legal:
        return None
    by_space: dict[str, list[SpecialActivity]] = {}
    for move in legal:
        by_space.setdefault(move.spaces[0], []).append(move)

    def cubes_out(space: str) -> int:
        return max(sum(n for *_, n in m.removed) for m in by_space[space] if m.option != "fort")

    def fort_out(s: CoinState, space: str) -> bool:
        return any(m.option == "fort" for m in by_space[space])

    if WEST_INDIES in by_space:
        space = WEST_INDIES
        trace.step("8.6.3", "Skirmish in the West Indies", sorted(by_space), space)
    else:
        priorities = [
            Priority("a British Fort removed", fort_out, rule="8.6.3"),
            Priority(
                "most British cubes removed",
                lambda s, x: True,
                lambda s, x: cubes_out(x),
                rule="8.6.3",
            ),
        ]
        (space,) = select_spaces(state, sorted(by_space), priorities, 1, rng, trace)
    options = by_space[space]
    fort = [m for m in options if m.option == "fort"]
    if fort:
        return fort[0]
    most = cubes_out(space)
    picks = enemy_order(state, space, "french", most, types=BRITISH_CUBES)
    wanted = _entries(space, picks)
    for move in options:
        if move.removed == wanted:
            return move
    return next(m for m in options if sum(n for *_, n in m.removed) == most)


def naval_pressure(
    state: CoinState,
    command: Command | None,
    rng: LoggedRandom,
    trace: Trace,
    battle_spaces: Sequence[str] = (),
) -> SpecialActivity | None:
    """8.6.3 NAVAL PRESSURE: one Blockade added (a Squadron from the West Indies),
    first to a City selected for Battle, then to the City with most Support (8.1.1;
    ties by 8.2). None when no Squadron is in the West Indies: a rearrangement adds
    no Blockade.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_marker("Unavailable", "West Indies", "blockade")
    >>> state.set_support("New York City", "active_support")
    >>> naval_pressure(state, None, LoggedRandom(0), Trace()).spaces
    ('New York City',)
    """
    if not state.markers(WEST_INDIES, "blockade"):
        trace.step("8.6.3", "Naval Pressure: no Squadron in the West Indies to add", [], None)
        return None
    legal = {
        m.spaces[0]: m
        for m in special_view(state, "french", "naval_pressure", command)
        if m.option == "place"
    }
    if not legal:
        return None
    priorities = [
        Priority("a City selected for Battle", lambda s, c: c in battle_spaces, rule="8.6.3"),
        Priority("most Support", lambda s, c: True, support_score, rule="8.6.3"),
    ]
    (city,) = select_spaces(state, sorted(legal), priorities, 1, rng, trace)
    return legal[city]


def _special(
    context: TurnContext,
    command: Command,
    order: Sequence[str],
    *,
    battle_spaces: Sequence[str] = (),
    resources_left: int | None = None,
) -> None:
    """Carry out the first Special Activity of ``order`` that is possible (8.6.3,
    8.6.4, 8.6.5, 8.6.6), or none: ``"preparer"`` is 8.6.3's Préparer la Guerre
    (read against ``resources_left``, the French Resources once the Command is
    paid; by default those of the state), ``"preparer_8.6.1"`` that of 8.6.1."""
    rule = "8.6.6" if battle_spaces else "8.6.3"
    if not context.special_allowed:
        context.trace.step(rule, "no Special Activity with this Command", order, None)
        return
    state = context.state
    left = state.track(RESOURCES["french"]) if resources_left is None else resources_left
    for name in order:
        move: SpecialActivity | None
        if name == "skirmish":
            move = skirmish(state, command, context.rng, context.trace)
        elif name == "naval_pressure":
            move = naval_pressure(state, command, context.rng, context.trace, battle_spaces)
        elif name == "preparer_8.6.1":
            move = preparer_before_treaty(state, command)
        else:
            move = preparer_after_treaty(context, command, left)
        if move is not None:
            context.trace.step(rule, f"Special Activity: {name}", order, name)
            context.special(move)
            return
    context.trace.step(rule, "no Special Activity possible", order, None)


# ---------------------------------------------------------------------- 8.6.1 / 8.6.3 Hortalez


def hortalez_box(context: TurnContext, options: FrenchOptions = DEFAULTS) -> str | None:
    """Roderigue Hortalez et Cie: up to 1D3 French Resources to the Patriots. Before
    the Treaty of Alliance (8.6.1) then Préparer la Guerre (unable: Agent
    Mobilization); after it (8.6.3) then Skirmish, Préparer la Guerre or Naval
    Pressure if Resources went to the Patriots (unable: Pass).

    >>> state = CoinState.new("lod")
    >>> state.set_track("french_resources", 1)
    >>> context = TurnContext(state, "french", LoggedRandom(0))
    >>> hortalez_box(context) is None, [step.move.name for step in context.steps]
    (True, ['hortalez', 'preparer'])
    >>> context.state.track("patriots_resources")
    2
    """
    state = context.state
    toa = _toa(state)
    rule = "8.6.3" if toa else "8.6.1"
    if context.bound is not None:  # 8.3.7: Hortalez selects no space
        context.trace.step(rule, "Hortalez cannot involve the Leader", [], None)
        return PASS if toa else "agent_mobilization"
    resources = state.track(RESOURCES["french"])
    if not context.scope.free and resources == 0:
        context.trace.step(rule, "no French Resources for Hortalez", [], None)
        return PASS if toa else "agent_mobilization"
    amount = 0
    if not context.scope.free:
        amount = min(context.roll(3, rule, "Hortalez: up to 1D3 Resources"), resources)
    before = state.track(RESOURCES["patriots"])
    move = context.command(Command("french", "hortalez", amount=amount))
    if not toa:
        special = preparer_before_treaty(context.state, move)
        if special is None or not context.special_allowed:
            context.trace.step(rule, "no Préparer la Guerre", [], None)
        else:
            context.special(special)
        return None
    if context.state.track(RESOURCES["patriots"]) > before:
        _special(context, move, SPECIAL_ORDER)
    else:
        context.trace.step(rule, "no Resources reached the Patriots: no Special Activity", [], None)
    return None


# ---------------------------------------------------------------------- 8.6.2 Agent Mobilization


def agent_mobilization_box(context: TurnContext, options: FrenchOptions = DEFAULTS) -> str | None:
    """8.6.2 Agent Mobilization: two Militia (else one Continental) in Quebec, New
    York, New Hampshire or Massachusetts, where it adds Rebellion Control (the most
    Population first), then where most Patriot units are; then Préparer la Guerre.
    IF NONE: Hortalez.

    >>> state = CoinState.new("lod")
    >>> state.set_track("french_resources", 1)
    >>> state.move_pieces("Available", "Massachusetts", "british_regular", 1)
    >>> context = TurnContext(state, "french", LoggedRandom(0))
    >>> agent_mobilization_box(context) is None, context.steps[0].move.spaces
    (True, ('Massachusetts',))
    """
    state = context.state
    scope = context.scope
    view = command_view(
        state,
        "french",
        "agent_mobilization",
        limited=scope.limited,
        free=scope.free,
        options=context.command_options,
    )
    legal = list(view)
    if not legal:
        context.trace.step("8.6.2", "no Agent Mobilization possible", [], None)
        return "hortalez"
    militia, continentals = state.available("militia"), state.available("continental")
    if militia >= AGENT_MILITIA:
        kind = "militia"
    elif options.agent_short_militia == "continental":
        kind = "continental" if continentals else "militia"
    else:
        kind = "militia" if militia else "continental"
    moves = {m.spaces[0]: m for m in legal if m.placed[0][1] == kind}
    context.trace.step(
        "8.6.2", "two Militia, else one Continental", ["militia", "continental"], kind
    )

    def adds_control(s: CoinState, x: str) -> bool:
        (_, piece, n) = moves[x].placed[0]
        return not rebellion_controls(s, x) and control_if(s, x, {piece: n}) == "rebellion"

    priorities = [
        Priority("adds Rebellion Control", adds_control, _population, rule="8.6.2"),
        Priority(
            "most Patriot units",
            lambda s, x: True,
            lambda s, x: sum(s.pieces(x, k) for k in PATRIOT_UNITS),
            rule="8.6.2",
        ),
    ]
    (space,) = select_spaces(state, sorted(moves), priorities, 1, context.rng, context.trace)
    move = context.command(moves[space])
    special = preparer_before_treaty(context.state, move)
    if special is not None and context.special_allowed:
        context.special(special)
    else:
        context.trace.step("8.6.2", "no Préparer la Guerre", [], None)
    return None


# ---------------------------------------------------------------------- 8.6.4 Muster


def muster_box(context: TurnContext, options: FrenchOptions = DEFAULTS) -> str | None:
    """8.6.4 Muster: with fewer than four French Regulars Available and no Rebellion
    Control of the West Indies, all of them there; otherwise as many as possible in a
    City or Colony with Rebellion Control, one with Continentals first (ties by
    8.2). Then Skirmish, Préparer la Guerre (as 8.6.4 names it, 8.6.1's by default)
    or Naval Pressure. IF NONE: Hortalez (8.6.3).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1778")
    >>> state.set_track("french_resources", 1)  # a Muster costs 2
    >>> muster_box(TurnContext(state, "french", LoggedRandom(0)))
    'hortalez'
    """
    state = context.state
    available = state.available("french_regular")
    n = min(MUSTER_MOST, available)
    where: list[str] = []
    if _toa(state) and n:
        if available < MUSTER_WEST_INDIES_BELOW and state.control(WEST_INDIES) != "rebellion":
            where = [WEST_INDIES]
            context.trace.step(
                "8.6.4", "fewer than four Available: the West Indies", [], WEST_INDIES
            )
        else:
            pool = [
                s
                for s in state.rules.spaces
                if (_is_city(state, s) or _is_colony(state, s))
                and context.admits(Command("french", "muster", (s,), ((s, "french_regular", n),)))
            ]
            priorities = [
                Priority(
                    "Rebellion Control, Continentals there",
                    lambda s, x: bool(s.pieces(x, "continental")),
                    rule="8.6.4",
                ),
                Priority("Rebellion Control, elsewhere", lambda s, x: True, rule="8.6.4"),
            ]
            where = select_spaces(state, sorted(pool), priorities, 1, context.rng, context.trace)
    move = None
    if where:
        move = Command("french", "muster", (where[0],), ((where[0], "french_regular", n),))
    if move is None or not context.admits(move):
        context.trace.step("8.6.4", "the Muster cannot be executed", [], None)
        return "hortalez"
    done = context.command(move)
    preparer = "preparer_8.6.1" if options.muster_preparer == "8.6.1" else "preparer"
    _special(context, done, ("skirmish", preparer, "naval_pressure"))
    return None


# ---------------------------------------------------------------------- 8.6.5 March


class _MarchPlan:
    """The groups a French March moves (8.6.5), worked on a copy of the state.
    Continentals go with French Regulars 1 for 1, the Patriots paying for each
    destination they enter (3.5.4); a destination holds a Patriot piece already or
    Continentals enter it."""

    def __init__(self, context: TurnContext) -> None:
        self.context = context
        self.start = context.state
        self.work = context.state.copy()
        self.left: dict[str, Counter[str]] = {
            space: Counter({kind: self.start.pieces(space, kind) for kind in FRENCH_CUBES})
            for space in context.within_bound(self.start.rules.spaces)
            if self.start.pieces(space, "french_regular")
        }
        self.reach = {o: set(march_reach(self.start, "french", o)) for o in self.left}
        self.moves: Counter[tuple[str, str, str]] = Counter()
        self.destinations: list[str] = []
        self.allied: set[str] = set()
        free = context.scope.free
        self.purse = ResourcePurse(self.start, "french", free=free)
        self.patriots = ResourcePurse(self.start, "patriots", free=free)
        self.limit = context.space_limit(len(self.start.rules.spaces))
        # the largest group by origin, whether Continentals may go, and whether the
        # destination is open without them (all it depends on), until pieces move
        self._largest: dict[tuple[str, bool, bool], Counter[str]] = {}

    def may_select(self, destination: str) -> bool:
        if destination in self.destinations:
            return True
        return len(self.destinations) < self.limit and (self.purse.free or self.purse.left > 0)

    def continentals_may_enter(self, destination: str) -> bool:
        return destination in self.allied or self.patriots.free or self.patriots.left > 0

    def enterable(self, destination: str, continentals: int) -> bool:
        """3.5.4: a Patriot piece there before the March, or Continentals entering."""
        return bool(
            continentals
            or destination in self.allied
            or self.start.faction_pieces(destination, "patriots")
        )

    def group(self, origin: str, destination: str, *, continentals: bool) -> Counter[str]:
        """The largest group ``origin`` can send to ``destination`` (Regulars first,
        Continentals 1 for 1) without losing Rebellion Control of ``origin``. Not to be
        changed: the same group answers other destinations."""
        if origin == destination or origin in self.destinations:
            return Counter()
        if destination not in self.reach[origin]:
            return Counter()
        patriots_there = self.enterable(destination, 0)
        key = (origin, continentals, patriots_there)
        if key not in self._largest:
            self._largest[key] = self._largest_group(origin, continentals, patriots_there)
        return self._largest[key]

    def _largest_group(self, origin: str, continentals: bool, patriots_there: bool) -> Counter[str]:
        left = self.left[origin]
        most = left["continental"] if continentals else 0
        held = rebellion_controls(self.work, origin)
        # the most pieces first, Regulars before Continentals within a size
        sizes = sorted(
            ((r, c) for r in range(left["french_regular"] + 1) for c in range(min(most, r) + 1)),
            key=lambda rc: (-(rc[0] + rc[1]), -rc[0]),
        )
        for regulars, cont in sizes:
            if not regulars or not (cont or patriots_there):
                continue
            group = Counter({"french_regular": regulars, "continental": cont})
            change = {kind: -n for kind, n in group.items() if n}
            if not held or control_if(self.work, origin, change) == "rebellion":
                return +group
        return Counter()

    def groups(self, destination: str) -> dict[str, Counter[str]]:
        continentals = self.continentals_may_enter(destination)
        found = {}
        for origin in self.left:
            group = self.group(origin, destination, continentals=continentals)
            if group:
                found[origin] = group
        return found

    def select(self, destination: str) -> None:
        if destination not in self.destinations:
            self.purse.take()
            self.destinations.append(destination)

    def move(self, origin: str, destination: str, group: Counter[str]) -> None:
        self.select(destination)
        if group["continental"] and destination not in self.allied:
            self.patriots.take()
            self.allied.add(destination)
        for kind, n in group.items():
            if n:
                self.work.move_pieces(origin, destination, kind, n)
                self.moves[(origin, destination, kind)] += n
                self.left[origin][kind] -= n
        self._largest.clear()

    def command(self) -> Command:
        moves = tuple(sorted((o, d, k, n) for (o, d, k), n in self.moves.items() if n))
        return Command(
            "french",
            "march",
            tuple(sorted(self.destinations)),
            moves=moves,
            allied=tuple(sorted(self.allied)),
        )


def _add_control(plan: _MarchPlan) -> None:
    """8.6.5 second bullet: as many French Regulars and Continentals as can go into
    spaces where they add Rebellion Control, Cities then Colonies, most British
    pieces first (ties by 8.2)."""
    work = plan.work

    def gains(destination: str) -> bool:
        if rebellion_controls(work, destination) or not plan.may_select(destination):
            return False
        total: Counter[str] = Counter()
        for group in plan.groups(destination).values():
            total.update(group)
        return bool(total) and control_if(work, destination, total) == "rebellion"

    def british(s: CoinState, x: str) -> int:
        return s.faction_pieces(x, "british")

    priorities = [
        Priority(
            "Rebellion Control of a City",
            lambda s, x: _is_city(s, x) and gains(x),
            british,
            rule="8.6.5",
        ),
        Priority(
            "Rebellion Control of a Colony",
            lambda s, x: _is_colony(s, x) and gains(x),
            british,
            rule="8.6.5",
        ),
    ]
    while True:
        chosen = select_spaces(
            work, sorted(work.rules.spaces), priorities, 1, plan.context.rng, plan.context.trace
        )
        if not chosen:
            return
        (destination,) = chosen
        for origin, group in sorted(plan.groups(destination).items()):
            plan.move(origin, destination, group)


def _distances(state: CoinState, targets: set[str]) -> dict[str, int]:
    """Steps over adjacent spaces from each map space to the nearest of ``targets``."""
    board = state.rules.map
    found = dict.fromkeys(targets, 0)
    queue = deque(sorted(targets))
    while queue:
        here = queue.popleft()
        for near in board.adjacent(here):
            if near not in found:
                found[near] = found[here] + 1
                queue.append(near)
    return found


def _towards_british(plan: _MarchPlan) -> None:
    """8.6.5 third bullet: French Regulars neither in nor next to a space with British
    pieces March to a space nearer the nearest British pieces (the nearest first,
    ties by 8.2), each origin's Regulars that can go as one group."""
    work, board = plan.work, plan.work.rules.map
    british = {s for s in work.rules.spaces if work.faction_pieces(s, "british")}
    if not british:
        return
    far = _distances(work, british)

    def closer(origin: str) -> list[str]:
        return [
            d
            for d in plan.reach[origin]
            if far.get(d, 10**6) < far.get(origin, 10**6)
            and plan.may_select(d)
            and plan.group(origin, d, continentals=False)
        ]

    def lonely(s: CoinState, origin: str) -> bool:
        near = {origin, *board.adjacent(origin)}
        return not near & british and bool(closer(origin))

    done: set[str] = set()
    while True:
        pool = [o for o in sorted(plan.left) if o not in done and plan.left[o]["french_regular"]]
        chosen = select_spaces(
            work,
            pool,
            [Priority("French Regulars far from the British", lonely, rule="8.6.5")],
            1,
            plan.context.rng,
            plan.context.trace,
        )
        if not chosen:
            return
        (origin,) = chosen
        done.add(origin)
        nearest = Priority(
            "nearer the nearest British",
            lambda s, d: True,
            lambda s, d: -far.get(d, 10**6),
            rule="8.6.5",
        )
        (destination,) = select_spaces(
            work, sorted(closer(origin)), [nearest], 1, plan.context.rng, plan.context.trace
        )
        plan.move(origin, destination, plan.group(origin, destination, continentals=False))


def _one_regular(plan: _MarchPlan) -> None:
    """8.6.5 fourth bullet: one French Regular into a space with Patriot and British
    pieces (ties by 8.2)."""
    work, start = plan.work, plan.start
    origins: dict[str, list[str]] = {}
    for destination in sorted(start.rules.spaces):
        both = start.faction_pieces(destination, "patriots") and start.faction_pieces(
            destination, "british"
        )
        if not both or not plan.may_select(destination):
            continue
        able = [o for o in sorted(plan.left) if plan.group(o, destination, continentals=False)]
        if able:
            origins[destination] = able
    anywhere = Priority("Patriot and British pieces there", lambda s, x: True, rule="8.6.5")
    chosen = select_spaces(
        work, sorted(origins), [anywhere], 1, plan.context.rng, plan.context.trace
    )
    if not chosen:
        return
    (destination,) = chosen
    source = Priority("a French Regular to send", lambda s, x: True, rule="8.6.5")
    (origin,) = select_spaces(
        work, origins[destination], [source], 1, plan.context.rng, plan.context.trace
    )
    plan.move(origin, destination, Counter({"french_regular": 1}))


def march_box(context: TurnContext, options: FrenchOptions = DEFAULTS) -> str | None:
    """8.6.5 March: losing no Rebellion Control, French Regulars and Continentals add
    Rebellion Control (Cities, then Colonies, most British pieces first); then French
    Regulars far from the British move towards the nearest; if neither, one Regular
    joins Patriots facing British. Then Skirmish, Préparer la Guerre or Naval
    Pressure. IF NONE: Muster.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> march_box(TurnContext(load_scenario("lod", "1775"), "french", LoggedRandom(0)))
    'muster'
    """
    if not _toa(context.state):
        context.trace.step("8.6.5", "no March before the Treaty of Alliance", [], None)
        return "muster"
    plan = _MarchPlan(context)
    _add_control(plan)
    _towards_british(plan)
    if not plan.moves:
        _one_regular(plan)
    if not plan.moves:
        context.trace.step("8.6.5", "no March possible", [], None)
        return "muster"
    move = plan.command()
    if not context.admits(move):
        context.trace.step("8.6.5", "the March cannot be paid for", [], None)
        return "muster"
    done = context.command(move)
    _special(context, done, SPECIAL_ORDER)
    return None


# ---------------------------------------------------------------------- 8.6.6 Battle


def _rebellion_wins(context: TurnContext, space: str, join: bool) -> bool:
    """8.6.6: the Rebellion Force Level plus modifiers exceeds the Royalist's (the
    Patriots joining when ``join``)."""
    state = context.state
    choice = BattleChoice(space, "french", ally_pays=join)
    fought = resolve_battle(state, choice, TrialDice(), context.battle_options)
    rebel = force_level(state, choice, "rebellion")
    royal = force_level(state, choice, "royalist")
    rebel += sum(m.value for m in fought.defender_loss_modifiers)
    royal += sum(m.value for m in fought.attacker_loss_modifiers)
    return rebel > royal


def _patriots_may_join(state: CoinState, space: str, options: FrenchOptions) -> bool:
    if options.patriots_join == "continentals":
        return bool(state.pieces(space, "continental"))
    return any(state.pieces(space, kind) for kind in PATRIOT_UNITS)


def _overflow(state: CoinState, space: str, options: FrenchOptions) -> tuple[str, ...]:
    """Where the Patriots put Win-the-Day shifts the Battle space cannot take: the
    adjacent spaces, most Support first, then highest Population (8.1.1)."""
    if not options.overflow_shifts or space == WEST_INDIES:
        return ()
    near = sorted(
        state.rules.map.adjacent(space),
        key=lambda x: (-support_score(state, x), -_population(state, x), x),
    )
    return tuple(x for x in near for _ in range(MAX_SHIFTS_WASHINGTON))


def battle_box(context: TurnContext, options: FrenchOptions = DEFAULTS) -> str | None:
    """8.6.6 Battle in every space (and the West Indies) with French and British
    pieces where the Rebellion Force Level (the Patriots joining where their
    Continentals are and they can pay) plus modifiers exceeds the Royalist's,
    highest Population first; Naval Pressure, Skirmish (not in a Battle space) or
    Préparer la Guerre before the Battles; a free Patriot Rally per Rebellion Win the
    Day. IF NONE: March.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> battle_box(TurnContext(load_scenario("lod", "1775"), "french", LoggedRandom(0)))
    'march'
    """
    state = context.state
    free = context.scope.free
    patriots = ResourcePurse(state, "patriots", free=free)
    join_wanted: dict[str, bool] = {}
    for space in spaces(state, west_indies=True):
        if not (state.pieces(space, "french_regular") and state.faction_pieces(space, "british")):
            continue
        if not context.admits(Command("french", "battle", (space,))):
            continue
        joinable = _patriots_may_join(state, space, options) and context.admits(
            Command("french", "battle", (space,), allied=(space,))
        )
        if joinable and _rebellion_wins(context, space, True):
            join_wanted[space] = True
        elif _rebellion_wins(context, space, False):
            join_wanted[space] = False
    population = Priority("highest Population", lambda s, x: True, _population, rule="8.6.6")
    order = select_spaces(
        state,
        sorted(join_wanted),
        [population],
        context.space_limit(len(join_wanted)),
        context.rng,
        context.trace,
    )
    purse = ResourcePurse(state, "french", free=free)
    chosen: list[str] = []
    allied: list[str] = []
    for space in order:
        # the Patriots short of Resources: the space counts only if won without them
        joins = join_wanted[space] and (patriots.free or patriots.left > 0)
        if join_wanted[space] and not joins and not _rebellion_wins(context, space, False):
            continue
        if not purse.take():
            break
        if joins:
            patriots.take()
            allied.append(space)
        chosen.append(space)
    if not chosen:
        context.trace.step("8.6.6", "no space selected for Battle: abort, March", [], None)
        return "march"
    move = context.stamp(
        Command("french", "battle", tuple(sorted(chosen)), allied=tuple(sorted(allied)))
    )
    left = state.track(RESOURCES["french"]) - (0 if free else len(chosen))
    _special(context, move, BATTLE_SPECIAL_ORDER, battle_spaces=chosen, resources_left=left)
    decisions = {
        space: BattleChoice(
            space,
            "french",
            ally_pays=space in allied,
            rebellion_shifts=_overflow(context.state, space, options),
        )
        for space in move.spaces
    }
    results = context.battle(move, decisions)
    _after_battles(context, results)
    return None


def _after_battles(context: TurnContext, results: Sequence[BattleResult]) -> None:
    """8.6.6: the French Blockade move of a won City, and a free Patriot Rally in
    one space (8.5.2, by the Patriots' own priorities) for each space where the
    Rebellion Wins the Day."""
    for result in results:
        if not (result.win_the_day and result.winner == "rebellion"):
            continue
        for follow in result.follow_ups:
            if follow.action == "move_blockade":
                blockades_after_win(context, follow, "8.6.6")
        context.trace.step("8.6.6", "the Rebellion Wins the Day: a free Patriot Rally", [], "rally")
        free_rally(context)


# ---------------------------------------------------------------------- the flowchart


def french_boxes(options: FrenchOptions = DEFAULTS) -> dict[str, Box]:
    """The French Command boxes by name under ``options``; each returns the box its
    "IF NONE" (or "unable to execute") names.

    >>> sorted(french_boxes())
    ['agent_mobilization', 'battle', 'hortalez', 'march', 'muster']
    """
    boxes: dict[str, Callable[..., str | None]] = {
        "hortalez": hortalez_box,
        "agent_mobilization": agent_mobilization_box,
        "muster": muster_box,
        "march": march_box,
        "battle": battle_box,
    }
    return {name: partial(box, options=options) for name, box in boxes.items()}


FRENCH_BOXES: dict[str, Box] = french_boxes()
"""The French Command boxes under the default readings."""


def french_command(context: TurnContext, options: FrenchOptions | None = None) -> None:
    """Run the French Command and Special Activity flowchart (8.6.1-8.6.6) on
    ``context``: the first box by the opening sentences, then each box's fall-through
    until one executes (or the French Pass, 2.3.3).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1775"), "french", LoggedRandom(1))
    >>> french_command(context)
    >>> context.passed is None
    True
    """
    chosen = options or DEFAULTS
    run_boxes(context, french_boxes(chosen), first_box(context, chosen))
