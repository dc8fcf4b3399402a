"""Non-player Events (8.1 "Event, Command or Pass?", 8.3): whether a Non-player
Faction plays an Event, which side, and how it carries it out.

The execution is chosen decision by decision on the event interpreter's runs
(never by listing the legal moves), and the result is always a move that
:func:`~legalis.solver.events.legal_event_moves` accepts. Every choice is traced
with its paragraph; every die comes from the injected source.

>>> from legalis.model.coin.deck import bundled_deck
>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> card = bundled_deck("lod").card(6)  # Indians: a sword
>>> result = nonplayer_event(load_scenario("lod", "1775"), card, "indians", LoggedRandom(1))
>>> result.choice, result.rule
('command', '8.1')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from legalis.model.coin import effects as fx
from legalis.model.coin.deck import Card, Instruction
from legalis.model.coin.interpret import (
    Context,
    OptionChoice,
    PieceChoice,
    Run,
    condition_holds,
    resume,
    start,
)
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.events import (
    EventMove,
    EventMovesView,
    legal_event_moves,
    precondition_refusal,
    selections,
)
from legalis.solver.nonplayer.priorities import (
    enemy_order,
    place_order,
    remove_friendly_order,
)
from legalis.solver.nonplayer.spaces import (
    Priority,
    opposition_score,
    roll_random_space,
    select_spaces,
    support_score,
)
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "ChoosesExecution",
    "EventOutcome",
    "NonplayerEvent",
    "Preference",
    "Trial",
    "WantsEvent",
    "benefit_order",
    "event_side",
    "harm_target",
    "ineffective_reason",
    "nonplayer_event",
    "play_when_effective",
]


@dataclass(frozen=True)
class EventOutcome:
    """An Event as the Non-player would carry it out (8.3), before it decides to:
    the state before and after, the card and side, the executing Faction, and the
    effects of the side (free actions it grants are among them)."""

    before: CoinState
    after: CoinState
    card: Card
    side: str
    faction: str

    @property
    def effects(self) -> tuple[Any, ...]:
        return tuple(self.card.side(self.side).effects)


WantsEvent = Callable[[EventOutcome, LoggedRandom, Trace], bool]
"""The Faction's own "Event or Command?" conditions (8.4-8.7): given the Event's
outcome, the dice and the trace, whether the Faction plays it."""

Preference = Callable[[CoinState, str, tuple[str, ...]], bool]
"""Spaces an Event execution takes first (8.3.5: those matching the question),
given the state, the space and the piece types the effect puts into it."""

Trial = Callable[[Preference], EventOutcome | None]
"""The Event carried out taking the preferred spaces first; None when Ineffective."""


@runtime_checkable
class ChoosesExecution(Protocol):
    """An "Event or Command?" box whose questions about spaces have the Event
    carried out with the spaces matching the question first (8.3.5): it returns
    the outcome to play, or None to decline."""

    def decide(
        self, plain: EventOutcome, trial: Trial, rng: LoggedRandom, trace: Trace
    ) -> EventOutcome | None: ...


def play_when_effective(outcome: EventOutcome, rng: LoggedRandom, trace: Trace) -> bool:
    """The default "Event or Command?" answer: play the Event (whenever it is
    Effective, which :func:`nonplayer_event` checks itself)."""
    return True


@dataclass(frozen=True)
class NonplayerEvent:
    """A Non-player's Event decision.

    ``choice`` is ``"event"`` (``move`` is the execution and ``state`` the state
    after it) or ``"command"``: the Event is not played and the Faction goes on
    with its flowchart to a Command and Special Activity (``move`` is None and
    ``state`` the unchanged state). ``rule`` and ``reason`` say why.
    ``checked_by``: the view of the side's legal executions that found ``move``
    legal (it keeps what the check carried out).
    """

    choice: str
    move: EventMove | None
    state: CoinState
    trace: Trace
    rule: str
    reason: str
    side: str | None = None
    log: tuple[str, ...] = field(default=())
    checked_by: EventMovesView | None = field(default=None, compare=False, repr=False)


def _side_id(state: CoinState, faction: str) -> str:
    return state.rules.data.side_of(faction)


def _friends(state: CoinState, faction: str) -> list[str]:
    side = _side_id(state, faction)
    return [f for f in state.rules.data.faction_ids() if _side_id(state, f) == side]


def _royalist(state: CoinState, faction: str) -> bool:
    return _side_id(state, faction) == _side_id(state, "british")


def event_side(state: CoinState, card: Card, faction: str) -> str:
    """The side a Non-player executes (8.3.2): Event Instructions first, then the
    shaded text for Patriots and French, the unshaded for British and Indians; a
    card with one text is executed on that text.

    >>> from legalis.model.coin.deck import bundled_deck
    >>> card = bundled_deck("lod").card(13)
    >>> event_side(CoinState.new("lod"), card, "french"), event_side(
    ...     CoinState.new("lod"), card, "indians")
    ('shaded', 'unshaded')
    """
    printed = [s for s in ("unshaded", "shaded") if getattr(card, s) is not None]
    instruction = _instruction(card, faction)
    if instruction is not None and instruction.side in printed:
        return instruction.side
    if len(printed) == 1:
        return printed[0]
    return "unshaded" if _royalist(state, faction) else "shaded"


def _instruction(card: Card, faction: str) -> Instruction | None:
    if card.marks.get(faction) != "musket":
        return None
    return card.instructions.get(faction)


def benefit_order(
    state: CoinState,
    faction: str,
    players: Iterable[str],
    rng: LoggedRandom,
    trace: Trace,
) -> list[str]:
    """Who gets an Event's benefits, best first (8.3.5): the executing Faction,
    the other friendly Faction, then the enemies in random order, Non-players
    before players.

    >>> from legalis.model.core.randomness import LoggedRandom
    >>> order = benefit_order(CoinState.new("lod"), "french", {"british"},
    ...                       LoggedRandom(3), Trace())
    >>> order
    ['french', 'patriots', 'indians', 'british']
    """
    humans = set(players)
    friends = _friends(state, faction)
    order = [faction] + [f for f in friends if f != faction]
    enemies = [f for f in state.rules.data.faction_ids() if f not in friends]
    for group in ([e for e in enemies if e not in humans], [e for e in enemies if e in humans]):
        group = list(group)
        while group:
            pick = group.pop(rng.randrange(len(group))) if len(group) > 1 else group.pop()
            order.append(pick)
    trace.step("8.3.5", "who benefits, in order", state.rules.data.faction_ids(), order)
    return order


def harm_target(
    state: CoinState,
    faction: str,
    players: Iterable[str],
    rng: LoggedRandom,
    trace: Trace,
) -> str:
    """The Faction an Event's harm falls on (8.3.5): a random enemy, a player first.

    >>> from legalis.model.core.randomness import LoggedRandom
    >>> harm_target(CoinState.new("lod"), "british", {"french"}, LoggedRandom(0), Trace())
    'french'
    """
    humans = set(players)
    friends = _friends(state, faction)
    enemies = [f for f in state.rules.data.faction_ids() if f not in friends]
    pool = [e for e in enemies if e in humans] or enemies
    pick = pool[rng.randrange(len(pool))] if len(pool) > 1 else pool[0]
    trace.step("8.3.5", "who is harmed (a random enemy, player first)", pool, pick)
    return pick


# ---------------------------------------------------------------------- 8.3.3


def _friendly_per_space(state: CoinState, slots: list[bool]) -> list[int]:
    """The friendly pieces (``slots`` marks their slots) in each map space."""
    rules, counts = state.rules, state.counts
    width = rules.n_slots
    return [
        sum(counts[base + slot] for slot in range(width) if slots[slot])
        for base in range(0, rules.n_spaces * width, width)
    ]


def ineffective_reason(before: CoinState, after: CoinState, faction: str) -> str | None:
    """Why the change from ``before`` to ``after`` makes the Event Ineffective for
    ``faction`` (8.3.3), or None when it is Effective.

    >>> state = CoinState.new("lod")
    >>> ineffective_reason(state, state.copy(), "british")
    'no effect at all'
    """
    if before == after:
        return "no effect at all"
    shift = (after.total_support() - after.total_opposition()) - (
        before.total_support() - before.total_opposition()
    )
    if (shift < 0) if _royalist(before, faction) else (shift > 0):
        return "the Support-Opposition difference shifts in favour of the enemy (8.3.6)"
    rules = before.rules
    friends = set(_friends(before, faction))
    slots = [rules.piece_types[piece].faction in friends for piece in rules.slot_piece]
    # the change but for friendly pieces: after's friendly pieces put back as they were
    others = after.copy()
    width = rules.n_slots
    for slot, friendly in enumerate(slots):
        if friendly:  # the slot's counts in successive locations lie ``width`` apart
            others.counts[slot::width] = before.counts[slot::width]
    if others == before:
        was, now = _friendly_per_space(before, slots), _friendly_per_space(after, slots)
        gained = any(n > old for n, old in zip(now, was, strict=True))
        if not gained and sum(now) < sum(was):
            return "its only effect removes friendly pieces without replacing them"
    return None


# ---------------------------------------------------------------------- choices


def _piece_side(state: CoinState, kind: str) -> str:
    piece = kind.partition(":")[0]
    return state.rules.data.side_of(state.rules.data.piece(piece).faction)


def _support_selection(
    run: Run, decision: PieceChoice, rng: LoggedRandom, trace: Trace
) -> list[list[int]]:
    """Spaces for a shift or set of Support (8.3.6)."""
    state, step = run.state, run.pending[0]
    royalist = _royalist(state, decision.chooser)

    def gain(_: CoinState, space: str) -> tuple[int, int]:
        after = state.copy()
        if isinstance(step, fx.Shift):
            after.shift_support(space, step.levels)
        else:
            after.set_support(space, step.level)
        sup = support_score(after, space) - support_score(state, space)
        opp = opposition_score(after, space) - opposition_score(state, space)
        return (sup, -opp) if royalist else (opp, -sup)

    spaces = list(decision.spaces)
    most = decision.max_spaces if decision.max_spaces is not None else len(spaces)
    must = min(most, len(spaces)) if decision.spaces_exact and not decision.up_to else 0
    priorities = [
        Priority("spaces to shift", lambda s, x: True, gain, limit=must, rule="8.3.6"),
        Priority("further gain", lambda s, x: gain(s, x) > (0, 0), gain, rule="8.3.6"),
    ]
    chosen = select_spaces(state, spaces, priorities, most, rng, trace)
    return [[1 if space in chosen else 0] for space in spaces]


def _harmful(run: Run, decision: PieceChoice) -> bool:
    """Whether the effect works against the chooser's side."""
    state, step = run.state, run.pending[0]
    mine = _side_id(state, decision.chooser)
    ours = [_piece_side(state, kind) == mine for kind in decision.types]
    if isinstance(step, fx.Place | fx.GoUnderground):
        return not any(ours)
    if isinstance(step, fx.Remove | fx.Replace | fx.Activate):
        return all(ours)
    return False


_TAKING_STEPS = (fx.Remove, fx.Replace, fx.MovePieces, fx.Activate, fx.GoUnderground)


def _kind_orders(run: Run, decision: PieceChoice) -> Callable[[int, int], list[int]]:
    """The kinds (indices of ``decision.types``) to take in a space, best first
    (8.1.2), as a function of the space's index and the most to take. The state
    stays as it is while a decision is made, so each order is worked out once."""
    state, step = run.state, run.pending[0]
    types = decision.types
    chooser = decision.chooser
    mine = _side_id(state, chooser)
    pieces = list(dict.fromkeys(kind.partition(":")[0] for kind in types))
    enemy = [t for t in pieces if _piece_side(state, t) != mine]
    friendly = [t for t in pieces if _piece_side(state, t) == mine]
    other = [t for t in friendly if state.rules.data.piece(t).faction != chooser]
    own = [t for t in friendly if t not in other]
    orders: dict[tuple[int, int], list[int]] = {}

    def picks(index: int, limit: int) -> list[tuple[str, str]]:
        space = decision.spaces[index]
        if isinstance(step, fx.Place):
            supply = {t: decision.room[index][types.index(t)] for t in pieces}
            if decision.pool is not None:
                for t in pieces:
                    have = decision.pool[types.index(t)]
                    if have is not None:
                        supply[t] = min(supply[t], have)
            return place_order(state, space, chooser, limit, types=pieces, supply=supply)
        if not isinstance(step, _TAKING_STEPS):
            return []
        found = enemy_order(state, space, chooser, limit, types=enemy) if enemy else []
        # friendly pieces: the other friendly Faction's first (8.3.5)
        for group in (other, own):
            if group:
                found += remove_friendly_order(state, space, chooser, limit, types=group)
        return found

    def ordered(index: int, limit: int) -> list[int]:
        key = (index, limit)
        if key not in orders:
            out: list[int] = []
            for piece, status in picks(index, limit):
                for kind in (f"{piece}:{status}", piece):
                    if kind in types:
                        out.append(types.index(kind))
                        break
            orders[key] = out
        return orders[key]

    return ordered


def _fill(
    decision: PieceChoice,
    index: int,
    pool: list[int | None],
    total_left: int | None,
    ordered_kinds: Callable[[int, int], list[int]],
) -> list[int]:
    """The amounts of each kind a space takes: the 8.1.2 order first
    (``ordered_kinds``), then any other kind it can still take (so the selection is
    maximal, 5.1.3)."""
    room = decision.room[index]
    # the space room binds the kinds that stack (Forts and Villages beside Tories)
    stacks = decision.space_kinds or (True,) * len(decision.types)
    shared = decision.space_room[index] if decision.space_room is not None else 10**9
    cap = min(
        decision.per_space if decision.per_space is not None else 10**9,
        total_left if total_left is not None else 10**9,
        shared if decision.space_kinds is None else 10**9,
    )
    row = [0] * len(decision.types)
    optional = decision.optional or (False,) * len(decision.types)
    taken = stacked = 0  # the pieces in the row, and those of them that stack

    def fits(kind: int) -> bool:
        have = pool[kind]
        return (
            taken < cap
            and row[kind] < room[kind]
            and (have is None or row[kind] < have)
            and not optional[kind]
            and (not stacks[kind] or stacked < shared)
        )

    def add(kind: int) -> None:
        nonlocal taken, stacked
        row[kind] += 1
        taken += 1
        stacked += stacks[kind]

    for kind in ordered_kinds(index, cap):
        if fits(kind):
            add(kind)
    for kind in range(len(row)):
        while fits(kind):
            add(kind)
    return row


def _piece_selection(
    run: Run,
    decision: PieceChoice,
    rng: LoggedRandom,
    trace: Trace,
    prefer: Preference | None = None,
) -> list[list[int]]:
    """Spaces and pieces for a piece decision (8.3.4, 8.3.5, 8.1.2, 8.2); the
    spaces ``prefer`` matches first."""
    rows = [[0] * len(decision.types) for _ in decision.spaces]
    if decision.up_to and _harmful(run, decision):
        trace.step("8.3.5", f"{decision.what}: none (up to, against its own side)", [], "none")
        return rows
    pool: list[int | None] = (
        list(decision.pool) if decision.pool is not None else [None] * len(decision.types)
    )
    total_left = decision.total
    most = decision.max_spaces if decision.max_spaces is not None else len(decision.spaces)
    chosen: set[int] = set()
    stacking = [run.state.rules.data.piece(k.partition(":")[0]).stacking for k in decision.types]
    entering = _entering(run.pending[0])
    ordered_kinds = _kind_orders(run, decision)
    while len(chosen) < most and (total_left is None or total_left > 0):
        fills = {
            i: _fill(decision, i, pool, total_left, ordered_kinds)
            for i in range(len(decision.spaces))
            if i not in chosen
        }
        keys = {
            i: (
                prefer is not None and prefer(run.state, decision.spaces[i], entering),
                sum(n for n, s in zip(row, stacking, strict=True) if s),
                sum(row),
            )
            for i, row in fills.items()
            if any(row)
        }
        if not keys:
            break
        best = max(keys.values())
        tied = [decision.spaces[i] for i, key in keys.items() if key == best]
        dice: tuple[int, ...] = ()
        if len(tied) == 1:
            space = tied[0]
        else:
            space, dice = roll_random_space(tied, rng)
        index = decision.spaces.index(space)
        first = "matching the question, then " if prefer is not None else ""
        trace.step(
            "8.3.5",
            f"{decision.what}: space ({first}most Forts/Villages, then pieces; ties 8.2)",
            tied,
            space,
            dice=dice,
        )
        row = fills[index]
        rows[index] = row
        chosen.add(index)
        for kind, n in enumerate(row):
            have = pool[kind]
            if have is not None:
                pool[kind] = have - n
        if total_left is not None:
            total_left -= sum(row)
        picked = [f"{n} {decision.types[k]}" for k, n in enumerate(row) if n]
        trace.step("8.1.2", f"pieces in {space}", decision.types, ", ".join(picked))
    return rows


_PIECE_STEPS = (fx.Place, fx.Remove, fx.Replace, fx.MovePieces, fx.Activate, fx.GoUnderground)


def _text_limits(decision: PieceChoice) -> bool:
    """Whether the text limits the pieces beyond what 8.1.2's order can keep to: a
    minimum, caps inside the group, types taken last."""
    return bool(decision.caps or decision.last or decision.at_least is not None)


def _any_selection(decision: PieceChoice, rng: LoggedRandom, trace: Trace) -> list[list[int]]:
    """A decision no priority of section 8 speaks to (markers, a space selected, a
    Leader placed, a box transfer, a Tunnel, limits the text adds): one of its legal
    selections at random (8.3.8)."""
    legal = list(selections(decision)) or [
        tuple((0,) * len(decision.types) for _ in decision.spaces)
    ]
    pick = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
    trace.step("8.3.8", f"{decision.chooser}: {decision.what}", range(len(legal)), pick)
    return [list(row) for row in pick]


def _entering(step: Any) -> tuple[str, ...]:
    """The piece types an effect puts into the spaces it selects."""
    if isinstance(step, fx.Place):
        return tuple(step.pieces)
    if isinstance(step, fx.Replace):
        return tuple(step.by)
    return ()


def _option_target(state: CoinState, effects: Iterable[Any]) -> tuple[set[str], set[str]]:
    """The Factions an option of a "choose" effect helps and harms: pieces placed,
    Resources gained and free actions help their owner; pieces removed or Activated
    and Resources lost harm theirs (the examples of 8.3.5)."""
    data = state.rules.data
    helped: set[str] = set()
    harmed: set[str] = set()
    resource_tracks = {f"{f}_resources": f for f in data.faction_ids()}
    for effect in effects:
        if isinstance(effect, fx.Place | fx.Replace):
            helped |= {data.piece(p).faction for p in effect.pieces}
        elif isinstance(effect, fx.Remove | fx.Activate):
            harmed |= {data.piece(p).faction for p in effect.pieces}
        elif isinstance(effect, fx.Adjust) and effect.track in resource_tracks:
            (helped if effect.delta > 0 else harmed).add(resource_tracks[effect.track])
        elif isinstance(effect, fx.FreeAction):
            helped.add(effect.faction)
    return helped, harmed


def _choose_option(
    run: Run,
    decision: OptionChoice,
    faction: str,
    players: Iterable[str],
    rng: LoggedRandom,
    trace: Trace,
) -> int:
    """Which option of a "choose" effect a Non-player takes. Options that each help
    one Faction (and harm none): the first in the 8.3.5 order of benefit; options
    that each harm one Faction: the 8.3.5 target of harm; otherwise random (8.3.8)."""
    step = run.pending[0]
    targets = [_option_target(run.state, option) for option in getattr(step, "options", ())]
    label = f"{decision.chooser}: {decision.what}"
    helps = [next(iter(h)) for h, harm in targets if len(h) == 1 and not harm]
    hurts = [next(iter(harm)) for h, harm in targets if len(harm) == 1 and not h]
    if len(targets) == decision.count and len(helps) == decision.count == len(set(helps)):
        order = benefit_order(run.state, faction, players, rng, trace)
        option = min(range(decision.count), key=lambda i: order.index(helps[i]))
        trace.step("8.3.5", f"{label}, the option helping {helps[option]}", helps, option)
        return option
    if len(targets) == decision.count and len(hurts) == decision.count == len(set(hurts)):
        victim = harm_target(run.state, faction, players, rng, trace)
        if victim in hurts:
            option = hurts.index(victim)
            trace.step("8.3.5", f"{label}, the option harming {victim}", hurts, option)
            return option
    # options are numbered from decision.first: a die roll's totals start at the dice
    option = decision.first + rng.randrange(decision.count)
    trace.step("8.3.8", label, decision.options(), option)
    return option


def _execute(
    root: Run,
    card: Card,
    side: str,
    faction: str,
    rng: LoggedRandom,
    trace: Trace,
    players: Iterable[str],
    prefer: Preference | None = None,
) -> tuple[EventMove, Run]:
    """The Non-player's execution of the side from ``root``, the run at its first
    decision (it is read, never changed: each choice resumes on a copy)."""
    run = root
    steps: list[Any] = []
    while run.decision is not None:
        decision = run.decision
        if isinstance(decision, OptionChoice):
            option = _choose_option(run, decision, faction, players, rng, trace)
            steps.append(option)
            run = resume(run, option)
            continue
        step = run.pending[0]
        fixed_shift = isinstance(step, fx.Shift) and not (step.either or step.toward)
        if isinstance(step, fx.SetSupport) or fixed_shift:
            rows = _support_selection(run, decision, rng, trace)
        elif isinstance(step, _PIECE_STEPS) and not _text_limits(decision):
            rows = _piece_selection(run, decision, rng, trace, prefer)
        else:
            rows = _any_selection(decision, rng, trace)
        selection = tuple(tuple(row) for row in rows)
        steps.append(decision.atoms(selection))
        run = resume(run, selection)
    return EventMove(card.number, side, faction, tuple(steps)), run


def nonplayer_event(
    state: CoinState,
    card: Card,
    faction: str,
    rng: LoggedRandom,
    trace: Trace | None = None,
    *,
    wants_event: WantsEvent | ChoosesExecution = play_when_effective,
    players: Iterable[str] = (),
) -> NonplayerEvent:
    """Whether Non-player ``faction`` plays ``card``'s Event, and how (8.1, 8.3).

    A sword under the Faction's symbol: the Event is ignored. A musket: the
    card's Event Instructions apply (side, a condition without which the Event is
    Ineffective). Then ``wants_event`` (the Faction's own conditions, 8.4-8.7)
    decides; an Ineffective Event (8.3.3) gives way to a Command and Special
    Activity. ``players``: the Factions a person plays (8.3.5 puts them last for
    benefits and first for harm).
    """
    trace = trace if trace is not None else Trace()
    data = state.rules.data
    faction = data.faction(faction, path="faction").id
    name = data.faction(faction).name
    mark = card.marks.get(faction)

    def command(rule: str, reason: str, side: str | None = None) -> NonplayerEvent:
        trace.step(rule, "Event or Command?", ["event", "command"], "command")
        return NonplayerEvent("command", None, state, trace, rule, reason, side)

    if mark == "sword":
        return command("8.1", f"a sword under the {name} symbol: the Event is ignored")
    side = event_side(state, card, faction)
    instruction = _instruction(card, faction)
    printed = [s for s in ("unshaded", "shaded") if getattr(card, s) is not None]
    trace.step("8.3.2", "side", printed, side)
    context = Context(faction, card.number, side)
    if precondition_refusal(state, card, card.side(side), context) is not None:
        return command("5.1.4", "the Event's precondition for play is not met", side)
    text = instruction.text if instruction is not None else ""
    effective_if = instruction.effective_if if instruction is not None else None
    if effective_if is not None and not condition_holds(state, effective_if, context):
        why = text or "the Event Instruction's condition is not met"
        return command("8.3.1", f"Event Instruction: {why} (Ineffective, 8.3.3)", side)
    root = start(state, card.side(side), context)  # shared by the trials of 8.3.5
    move, run = _execute(root, card, side, faction, rng, trace, players)
    reason = ineffective_reason(state, run.state, faction)
    if reason is not None:
        return command("8.3.3", f"Ineffective: {reason}", side)
    plain = EventOutcome(state, run.state, card, side, faction)
    # a ChoosesExecution, told by its method: isinstance with a Protocol is slow
    decide = getattr(wants_event, "decide", None)
    if decide is not None:
        tried: dict[int, tuple[EventMove, Run, Trace]] = {}

        def trial(prefer: Preference) -> EventOutcome | None:
            scratch = Trace()
            found = _execute(root, card, side, faction, rng, scratch, players, prefer)
            if ineffective_reason(state, found[1].state, faction) is not None:
                return None
            outcome = EventOutcome(state, found[1].state, card, side, faction)
            tried[id(outcome)] = (*found, scratch)
            return outcome

        chosen = decide(plain, trial, rng, trace)
        if chosen is None:
            return command("8.1", "the Faction's Event or Command? conditions decline it", side)
        if id(chosen) in tried:  # 8.3.5: carried out with the question's spaces first
            move, run, scratch = tried[id(chosen)]
            trace.steps.extend(scratch.steps)
    elif not cast(WantsEvent, wants_event)(plain, rng, trace):
        return command("8.1", "the Faction's Event or Command? conditions decline it", side)
    checker = legal_event_moves(state, card, side, faction, root=root)
    refused = checker.refusal(move)
    if refused is not None:  # the choices above are made within the decisions offered
        raise AssertionError(f"Non-player execution refused: {refused.reason}")
    trace.step("8.1", "Event or Command?", ["event", "command"], "event")
    return NonplayerEvent("event", move, run.state, trace, "8.3", "plays the Event", side,
                          run.log, checker)  # fmt: skip
