"""Every legal way to execute an event: a lazy view over fully specified executions.

An execution (:class:`EventMove`) names the card, the side and the executing
Faction, and for each decision the event's text asks for, in order, what was
chosen: the pieces taken to or from each space (markers, a Leader, the spaces
selected, or a shift's direction, as ``[space, kind, 1]``), or the option picked
(a Faction chosen, or the total of a die roll, a chance step every total of which
is a move). Every move of the view is maximal under 5.1.3: what can be carried
out is carried out.

The view iterates lazily (depth first over the decisions), so a first page costs
what its moves cost, however many follow. It counts without listing when the last
decision is the only one left (the selection enumerator counts it by dynamic
programming), and a move whose arrival is the last decision by tallying its
departures. It answers ``in``, and :meth:`EventMovesView.explain` says why a move
is legal or not, citing the rule. A ``deadline`` bounds every search of the view:
past it, :class:`~legalis.model.errors.SolverLimitError` is raised.

>>> from legalis.model.coin.deck import deck_from_toml
>>> from legalis.model.coin.state import CoinState
>>> deck = deck_from_toml({"game": "lod", "card": [{"number": 1, "title": "Town Meeting",
...     "factions": ["Patriots"], "shaded": {"effects": [
...         {"op": "place", "pieces": ["militia"], "count": 1,
...          "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 2}}]}}]})
>>> view = legal_event_moves(CoinState.new("lod"), deck.card(1), "shaded", "patriots")
>>> view.count()  # 2 of the 7 Cities, one Militia each
21
>>> move = next(iter(view))
>>> move.steps
((('Charles Town', 'militia', 1), ('Savannah', 'militia', 1)),)
>>> view.explain(move).legal, view.apply(move).pieces("Savannah", "militia")
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, NamedTuple

from legalis.model.coin import effects as fx
from legalis.model.coin.deck import Card
from legalis.model.coin.interpret import (
    IMMEDIATE,
    ArrivalSpace,
    Context,
    OptionChoice,
    PieceChoice,
    Run,
    arrival_choice,
    arrival_spaces,
    arrivals_independent_of_departure,
    condition_holds,
    piece_and_status,
    resume,
    start,
)
from legalis.model.coin.limits import hold_refusal
from legalis.model.coin.state import CoinState
from legalis.model.core.views import MoveView, Refusal, Verdict
from legalis.model.errors import IllegalMoveError, InputError, SolverLimitError
from legalis.solver.deadline import check_deadline
from legalis.solver.distribute import Distribution

Atoms = tuple[tuple[str, str, int], ...]
Step = Atoms | int
RULE_DUAL_USE = "5.2"


class EventMove(NamedTuple):
    """One fully specified execution of a card's side by a Faction (a named tuple:
    cheap to make by the million, hashable, comparable)."""

    card: int
    side: str
    faction: str
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "side": self.side,
            "faction": self.faction,
            "steps": [
                step if isinstance(step, int) else [list(atom) for atom in step]
                for step in self.steps
            ],
        }


def describe_steps(steps: Sequence[Step]) -> str:
    """An event move's choices as a line for people: for each decision, the pieces
    taken to or from each space (a space chosen for itself is named alone) or the
    number of the option picked as the move records it, decisions apart by ``;``.

    >>> describe_steps(((("Saigon", "us_troop", 2), ("Hue", "space", 1)), 0, ()))
    '2 us_troop in Saigon, Hue; option 0; nothing'
    >>> describe_steps(())
    'no choice to make'
    """
    parts = []
    for step in steps:
        if isinstance(step, int):
            parts.append(f"option {step}")
            continue
        taken = (space if kind == "space" else f"{n} {kind} in {space}" for space, kind, n in step)
        parts.append(", ".join(taken) or "nothing")
    return "; ".join(parts) or "no choice to make"


def event_move_from_json(raw: Any, *, path: str = "move") -> EventMove:
    """An :class:`EventMove` from JSON; malformed input raises :class:`InputError`."""
    if not isinstance(raw, dict):
        raise InputError("an event move is a JSON object", path=path)
    for key in ("card", "side", "faction", "steps"):
        if key not in raw:
            raise InputError("missing field", path=f"{path}.{key}")
    if not isinstance(raw["card"], int) or isinstance(raw["card"], bool):
        raise InputError("a card number", path=f"{path}.card")
    if not isinstance(raw["steps"], list):
        raise InputError("a list of steps", path=f"{path}.steps")
    steps: list[Step] = []
    for index, step in enumerate(raw["steps"]):
        where = f"{path}.steps[{index}]"
        if isinstance(step, int) and not isinstance(step, bool):
            steps.append(step)
            continue
        if not isinstance(step, list):
            raise InputError(
                "a step is an option number or a list of [space, piece, count]", path=where
            )
        atoms = []
        for j, atom in enumerate(step):
            ok = (
                isinstance(atom, list)
                and len(atom) == 3
                and isinstance(atom[0], str)
                and isinstance(atom[1], str)
                and isinstance(atom[2], int)
                and not isinstance(atom[2], bool)
                and atom[2] > 0
            )
            if not ok:
                raise InputError(
                    "expected [space, piece type, positive count]", path=f"{where}[{j}]"
                )
            atoms.append((atom[0], atom[1], atom[2]))
        steps.append(tuple(atoms))
    return EventMove(raw["card"], str(raw["side"]), str(raw["faction"]), tuple(steps))


def _atom_labels(
    decision: PieceChoice, problem: Distribution
) -> list[dict[tuple[int, ...], Atoms]]:
    """For each space, each row it may take as the atoms it stands for."""
    types = decision.types
    return [
        {row: tuple((space, t, n) for t, n in zip(types, row, strict=True) if n) for row in rows}
        for space, rows in zip(decision.spaces, problem.rows, strict=True)
    ]


def distribution(choice: PieceChoice) -> Distribution:
    """The enumerator's problem for a piece decision."""
    return Distribution(
        room=choice.room,
        per_space=choice.per_space,
        total=choice.total,
        spaces=choice.max_spaces,
        spaces_exact=choice.spaces_exact,
        pool=choice.pool,
        up_to=choice.up_to,
        space_room=choice.space_room,
        optional=choice.optional,
        space_kinds=choice.space_kinds,
    )


def _quiet_after(run: Run) -> bool:
    """Whether the steps after the awaited one can ask for nothing more."""
    return all(isinstance(step, IMMEDIATE) for step in run.pending[1:])


Selection = tuple[tuple[int, ...], ...]


CONSTRAINED_MOST = 200_000
"""The most selections a decision with limits of the text's own is judged over, one
by one; past it, :class:`SolverLimitError`."""


@lru_cache(maxsize=256)
def constrained_selections(decision: PieceChoice) -> tuple[Selection, ...]:
    """The legal selections of a decision whose text adds limits of its own (a
    minimum, caps inside the group, kinds taken last): those within the plain
    bounds that keep the limits and, under 5.1.3, are maximal among them (an exact
    count), or reach the minimum as far as any selection can (``at_least``).

    >>> from legalis.model.coin.interpret import PieceChoice
    >>> # up to 3 of Tory or Fort from one space holding 2 and 1; at least 2 of them
    >>> choice = PieceChoice("remove", "patriots", ("Boston",), ("tory", "fort"),
    ...                      ((2, 1),), total=3, up_to=True, at_least=2)
    >>> constrained_selections(choice)
    (((1, 1),), ((2, 0),), ((2, 1),))
    """
    plain = distribution(decision)
    exact = not decision.up_to
    relaxed = replace(plain, up_to=True, spaces_exact=plain.spaces_exact and not exact)
    if relaxed.count() > CONSTRAINED_MOST:
        raise SolverLimitError(
            f"{decision.what}: {relaxed.count()} selections to judge against the text's "
            f"limits, more than {CONSTRAINED_MOST}"
        )
    kept = [sel for sel in relaxed if decision.constraint_refusal(sel) is None]
    if decision.at_least is not None and decision.per_space is not None:
        # "1-2 in each space": each space chosen (every one, when the text names no
        # number of spaces) takes the minimum, as far as it can
        every = decision.max_spaces is None
        floors = [
            min(decision.at_least, max((sum(sel[space]) for sel in kept), default=0))
            for space in range(len(decision.spaces))
        ]
        # and as many spaces are chosen as the text says, as far as exist (5.1.3)
        spaces = sum(1 for floor in floors if floor)
        wanted = 0 if not decision.spaces_exact else min(decision.max_spaces or spaces, spaces)
        kept = [
            sel
            for sel in kept
            if all(
                (not every and not sum(row)) or sum(row) >= floor
                for row, floor in zip(sel, floors, strict=True)
            )
            and sum(1 for row in sel if any(row)) >= wanted
        ]
    elif decision.at_least is not None:
        most = max((_taken(sel) for sel in kept), default=0)
        floor = min(decision.at_least, most)
        kept = [sel for sel in kept if _taken(sel) >= floor]
    if exact:
        members = set(kept)
        kept = [sel for sel in kept if not any(more in members for more in _one_more(sel))]
    return tuple(sorted(kept))


def _taken(selection: Selection) -> int:
    return sum(sum(row) for row in selection)


def _one_more(selection: Selection) -> Iterator[Selection]:
    """Every selection with one more piece than ``selection``."""
    for s, row in enumerate(selection):
        for k in range(len(row)):
            grown = (*row[:k], row[k] + 1, *row[k + 1 :])
            yield (*selection[:s], grown, *selection[s + 1 :])


def selections(decision: PieceChoice) -> Iterator[Selection]:
    """Every legal selection of a piece decision, in the enumerator's order."""
    if decision.constrained:
        return iter(constrained_selections(decision))
    return iter(distribution(decision))


def selection_count(decision: PieceChoice) -> int:
    """How many legal selections a piece decision has, counted without listing
    unless its text adds limits of its own."""
    if decision.constrained:
        return len(constrained_selections(decision))
    return distribution(decision).count()


def selection_refusal(decision: PieceChoice, selection: Selection) -> str | None:
    """Why ``selection`` is not legal for ``decision`` (None if it is)."""
    if not decision.constrained:
        return distribution(decision).refusal(selection, (decision.spaces, decision.types))
    if selection in constrained_selections(decision):
        return None
    broken = decision.constraint_refusal(selection)
    if broken is not None:
        return broken
    plain = distribution(decision)
    outside = replace(plain, up_to=True).refusal(selection, (decision.spaces, decision.types))
    if outside is not None:
        return outside
    if decision.at_least is not None and _taken(selection) < decision.at_least:
        return f"at least {decision.at_least}, as far as the pieces allow (5.1.3)"
    return "more can be carried out: do all that can be done (5.1.3)"


def _last_decision(run: Run) -> bool:
    """Whether the awaited decision is a piece choice after which nothing more can be
    asked: then its selections are the moves, counted and ranked without running on.

    A move's departure is never last: its arrival is decided next.
    """
    return (
        isinstance(run.decision, PieceChoice)
        and not isinstance(run.pending[0], fx.MovePieces)
        and _quiet_after(run)
    )


def _last_move(run: Run) -> fx.MovePieces | None:
    """The move whose departure is awaited, when its arrival is the last decision and
    depends on the departure only through the pieces moving and the spaces they
    leave: then the moves can be counted without listing the departures."""
    current = run.pending[0] if run.pending else None
    if (
        isinstance(run.decision, PieceChoice)
        and not run.decision.constrained
        and isinstance(current, fx.MovePieces)
        and _quiet_after(run)
        and arrivals_independent_of_departure(current)
    ):
        return current
    return None


class _Replay(NamedTuple):
    """A move carried out from a view's start: the run after it (None if refused),
    why it was refused, and the Faction that made each decision up to there."""

    run: Run | None
    refusal: Refusal | None
    deciders: tuple[str, ...]


class EventMovesView(MoveView[EventMove]):
    """The legal executions of one side of one card by one Faction, in one state."""

    def __init__(
        self,
        state: CoinState,
        card: Card,
        side: str,
        faction: str,
        *,
        deadline: float | None = None,
        root: Run | None = None,
    ) -> None:
        self.deadline = deadline
        self.state = state
        self.card = card
        self.side_name = side
        self.faction = state.rules.data.faction(faction, path="faction").id
        self.side = card.side(side)
        self.context = Context(self.faction, card.number, side)
        self._root = root if root is not None else start(state, self.side, self.context)
        self._counts: dict[int, int] = {}
        self._replays: dict[EventMove, _Replay] = {}
        self.unplayable = precondition_refusal(state, card, self.side, self.context)

    # ------------------------------------------------------------------ walking

    def _check_time(self) -> None:
        check_deadline(
            self.deadline,
            f"the moves of card {self.card.number} ({self.side_name}, {self.faction})",
        )

    def _choices(self, run: Run) -> Iterator[tuple[Step, Any]]:
        """(step as recorded in a move, choice to resume with) for the awaited decision."""
        decision = run.decision
        if isinstance(decision, OptionChoice):
            for option in decision.options():
                yield option, option
        else:
            assert isinstance(decision, PieceChoice)
            for selection in selections(decision):
                yield decision.atoms(selection), selection

    def _walk(self, run: Run, steps: tuple[Step, ...]) -> Iterator[EventMove]:
        self._check_time()
        number, side, faction = self.card.number, self.side_name, self.faction
        if run.finished:
            yield EventMove(number, side, faction, steps)
            return
        decision = run.decision
        if _last_decision(run) and isinstance(decision, PieceChoice) and decision.constrained:
            for selection in constrained_selections(decision):
                yield EventMove(number, side, faction, (*steps, decision.atoms(selection)))
            return
        if _last_decision(run):
            assert isinstance(decision, PieceChoice)
            # the last decision: its selections are the moves; nothing after it to run
            problem = distribution(decision)
            for atoms in problem.walk(_atom_labels(decision, problem)):
                self._check_time()
                yield EventMove(number, side, faction, (*steps, atoms))
            return
        for step, choice in self._choices(run):
            yield from self._walk(resume(run, choice), (*steps, step))

    def __iter__(self) -> Iterator[EventMove]:
        if self.unplayable is not None:
            return iter(())
        return self._walk(self._root, ())

    def _count(self, run: Run) -> int:
        self._check_time()
        if run.finished:
            return 1
        decision = run.decision
        if _last_decision(run):
            assert isinstance(decision, PieceChoice)
            return selection_count(decision)
        move = _last_move(run)
        if move is not None:
            try:
                return self._count_move(run, move)
            except SolverLimitError:
                self._check_time()  # the time is up: say so in this view's words
                raise
        total = 0
        for _, choice in self._choices(run):
            total += self._count(resume(run, choice))
        return total

    def _count_move(self, run: Run, move: fx.MovePieces) -> int:
        """The executions of a move whose arrival is the last decision, counted
        without listing the departures.

        The ways to arrive depend on a departure only through the pieces of each
        type moving and how many of the spaces they leave are arrival spaces of each
        kind (same room for each type); the departure distribution is tallied by
        those numbers, and each tally multiplied by its ways to arrive.
        """
        departure = run.decision
        assert isinstance(departure, PieceChoice)
        types = len(move.pieces)
        # arrival spaces of one kind: the same room for each type and in all
        by_kind: dict[tuple[tuple[int, ...], int | None], list[ArrivalSpace]] = {}
        for candidate in arrival_spaces(run.state, move, self.context):
            by_kind.setdefault(candidate[1:], []).append(candidate)
        kinds = list(by_kind.values())
        kind_of = {space: index for index, spaces in enumerate(kinds) for space, _, _ in spaces}
        moved_type = [move.pieces.index(piece_and_status(kind)[0]) for kind in departure.types]
        problem = distribution(departure)
        features = []
        for space, rows in zip(departure.spaces, problem.rows, strict=True):
            left = kind_of.get(space)
            feature = {}
            for row in rows:
                sums = [0] * (types + len(kinds))
                for kind, amount in zip(moved_type, row, strict=True):
                    sums[kind] += amount
                if left is not None and any(row):
                    sums[types + left] = 1
                feature[row] = tuple(sums)
            features.append(feature)
        tallies = problem.tally(features, types + len(kinds), self.deadline)
        most = max((sum(vector[:types]) for vector in tallies), default=0)
        by_pool: dict[tuple[int, ...], Callable[[Sequence[int]], int]] = {}
        total = 0
        for vector, departures in tallies.items():
            self._check_time()
            moving, gone = vector[:types], vector[types:]
            staying = [space for spaces, n in zip(kinds, gone, strict=True) for space in spaces[n:]]
            if not staying:
                total += departures  # nowhere to arrive: nothing more is decided
                continue
            arrival = distribution(arrival_choice(move, departure.chooser, staying, moving))
            if arrival.kinds_independent:
                total += departures * arrival.count()
                continue
            if gone not in by_pool:  # one table for every number of pieces moving
                widest = arrival_choice(move, departure.chooser, staying, [most] * types)
                template = replace(distribution(widest), pool=None, total=most)
                by_pool[gone] = template.counts_by_pool(self.deadline)
            total += departures * by_pool[gone](moving)
        return total

    def count(self) -> int:
        """How many legal executions there are; the last decision, and a last move's
        departures, are counted, not listed."""
        if 0 not in self._counts:
            self._counts[0] = 0 if self.unplayable else self._count(self._root)
        return self._counts[0]

    def nth(self, index: int) -> EventMove:
        if not 0 <= index < self.count():
            raise IndexError(index)
        run, steps = self._root, list[Step]()
        while not run.finished:
            self._check_time()
            decision = run.decision
            if _last_decision(run):
                assert isinstance(decision, PieceChoice)
                selection = (
                    constrained_selections(decision)[index]
                    if decision.constrained
                    else distribution(decision).nth(index)
                )
                steps.append(decision.atoms(selection))
                run = resume(run, selection)
                continue
            for step, choice in self._choices(run):
                after = resume(run, choice)
                ways = self._count(after)
                if index < ways:
                    steps.append(step)
                    run = after
                    break
                index -= ways
        return EventMove(self.card.number, self.side_name, self.faction, tuple(steps))

    # ------------------------------------------------------------------ checking

    def _replay(self, move: object) -> _Replay:
        """``move`` carried out step by step from the start, or refused at the first
        bad step; kept for each move, as a move is checked, then carried out."""
        if not isinstance(move, EventMove):
            return _Replay(None, Refusal("not an event move", "5.1"), ())
        if move not in self._replays:
            deciders: list[str] = []
            run, refused = self._carry_out_steps(move, deciders)
            self._replays[move] = _Replay(run, refused, tuple(deciders))
        return self._replays[move]

    def _carry_out_steps(
        self, move: EventMove, deciders: list[str]
    ) -> tuple[Run | None, Refusal | None]:
        """The run after ``move``'s steps, or the refusal of the first bad one; the
        Faction awaited at each step is appended to ``deciders``."""
        if move.card != self.card.number:
            return None, Refusal(f"this view is for card {self.card.number}", "5.1")
        if move.side != self.side_name:
            return None, Refusal(
                f"one side only, and this view is for the {self.side_name} side", RULE_DUAL_USE
            )
        if move.faction != self.faction:
            return None, Refusal(f"the executing Faction here is {self.faction}", "5.1")
        if self.unplayable is not None:
            return None, self.unplayable
        run = self._root
        for number, step in enumerate(move.steps, start=1):
            decision = run.decision
            forbidden = _forbidden_placement(run.state, number, step)
            if forbidden is not None:
                return None, forbidden
            if decision is None:
                return None, Refusal(f"step {number}: the event is already carried out", "5.1.3")
            deciders.append(decision.chooser)
            if isinstance(decision, OptionChoice):
                options = decision.options()
                if not isinstance(step, int) or step not in options:
                    return None, Refusal(
                        f"step {number}: {decision.chooser} picks an option "
                        f"{options.start}-{options.stop - 1} ({decision.what})",
                        "5.1",
                    )
                run = resume(run, step)
                continue
            if isinstance(step, int):
                return None, Refusal(
                    f"step {number}: {decision.what} needs pieces, not an option", "5.1"
                )
            unnamed = _status_unnamed(decision, step)
            if unnamed is not None:
                return None, Refusal(f"step {number}: {unnamed}", "5.1")
            try:
                selection = decision.selection(step)
            except ValueError as error:
                return None, Refusal(f"step {number}: {error} ({decision.what})", "5.1.1")
            why = selection_refusal(decision, selection)
            if why is not None:
                return None, Refusal(f"step {number} ({decision.what}): {why}", _rule_of(why))
            run = resume(run, selection)
        if run.decision is not None:
            return None, Refusal(f"incomplete: {run.decision.what} is still to be decided", "5.1.3")
        return run, None

    def refusal(self, move: object) -> Refusal | None:
        return self._replay(move).refusal

    def deciders(self, move: EventMove) -> list[str]:
        """The Faction id that makes each decision of ``move``, in step order: the
        executing Faction unless the text gives the choice to another (5.1). An
        illegal move raises :class:`IllegalMoveError`.

        >>> from legalis.model.coin.deck import deck_from_toml
        >>> deck = deck_from_toml({"game": "lod", "card": [{"number": 2, "title": "Informers",
        ...     "factions": ["British"], "unshaded": {"effects": [
        ...         {"op": "remove", "pieces": ["militia"], "count": 1, "chooser": "Patriots",
        ...          "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 1}},
        ...         {"op": "place", "pieces": ["tory"], "count": 1,
        ...          "where": {"filter": {"is": "named", "names": ["Boston", "Norfolk"]},
        ...                    "spaces": 1}}]}}]})
        >>> state = CoinState.new("lod")
        >>> state.move_pieces("Available", "Boston", "militia")
        >>> view = legal_event_moves(state, deck.card(2), "unshaded", "british")
        >>> move = next(iter(view))
        >>> move.steps
        ((('Boston', 'militia:underground', 1),), (('Norfolk', 'tory', 1),))
        >>> view.deciders(move)
        ['patriots', 'british']
        """
        _, refused, deciders = self._replay(move)
        if refused is not None:
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        return list(deciders)

    def justification(self, move: EventMove) -> Verdict:
        run = self._replay(move).run
        done = "; ".join(run.log) if run is not None and run.log else "nothing could be done"
        return Verdict(True, f"carries out all it can (5.1.3): {done}", "5.1; 5.1.1; 5.1.3")

    def explain(self, move: object) -> Verdict:
        """Why ``move`` is legal (what it does) or not (the first step refused, and why)."""
        return self.verdict(move)

    def apply(self, move: EventMove) -> CoinState:
        """The state after ``move`` (a state of its own for each call); an illegal move
        raises :class:`IllegalMoveError`."""
        run, refused, _ = self._replay(move)
        if refused is not None or run is None:
            assert refused is not None
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        broken = run.state.invariant_problems()
        if broken:  # the interpreter's own fault: no legal move may break an invariant
            raise AssertionError(f"event left the state unsound: {broken[0]}")
        return run.state.copy()


def precondition_refusal(
    state: CoinState, card: Card, side: fx.Side, context: Context
) -> Refusal | None:
    """Why a Brilliant Stroke or Pivotal Event may not be played here: its
    precondition for play (the side's first ``if``, with nothing ``otherwise``) is
    not met, so the card has no legal execution at all (5.1.4); ``None`` if it may.

    >>> from legalis.model.coin.deck import bundled_deck
    >>> from legalis.model.coin.scenarios import load_scenario
    >>> card = bundled_deck("lod").card(15)
    >>> view = legal_event_moves(load_scenario("lod", "1775"), card, "unshaded", "patriots")
    >>> view.count(), view.unplayable.rule
    (0, '5.1.4')
    """
    effects = side.effects
    special = card.kind in ("brilliant_stroke", "pivotal")  # 5.1.4: the cards with one
    if not special or not effects or not isinstance(effects[0], fx.When):
        return None
    first = effects[0]
    if first.otherwise or condition_holds(state, first.condition, context):
        return None
    kind = "Brilliant Stroke" if card.kind == "brilliant_stroke" else "Pivotal Event"
    return Refusal(f"the {kind}'s precondition for play is not met", "5.1.4")


def _status_unnamed(decision: PieceChoice, step: Atoms) -> str | None:
    """A step naming a piece type where the choice is between its statuses: say so."""
    for _, piece, _ in step:
        if piece in decision.types:
            continue
        kinds = [kind for kind in decision.types if kind.startswith(f"{piece}:")]
        if kinds:
            return f"name the status of the {piece} taken: {' or '.join(kinds)}"
    return None


def _forbidden_placement(state: CoinState, number: int, step: object) -> Refusal | None:
    """A step naming pieces where they may never be now (a City for Indians, the map
    for the French before the Treaty of Alliance): refused under that rule, which is
    the reason the event offers no such choice."""
    if not isinstance(step, tuple):
        return None
    rules = state.rules
    for atom in step:
        space, piece = atom[0], atom[1]
        if space not in rules.loc_index or piece not in rules.piece_index:
            continue  # unknown names are refused with the choices they are not among
        refused = hold_refusal(state, piece, space)
        if refused is not None:
            return Refusal(f"step {number}: {refused.reason} ({space})", refused.rule)
    return None


def _rule_of(reason: str) -> str:
    for rule in ("5.1.1", "5.1.3"):
        if rule in reason:
            return rule
    return "5.1"


def legal_event_moves(
    state: CoinState,
    card: Card,
    side: str,
    faction: str,
    *,
    deadline: float | None = None,
    root: Run | None = None,
) -> EventMovesView:
    """The lazy view of every legal execution of ``card``'s ``side`` by ``faction``.

    A side the card does not print is refused (5.2), as is an unknown Faction.
    ``deadline`` (a ``time.monotonic()`` value) bounds the view's searches: counting,
    listing and finding the n-th move raise :class:`SolverLimitError` once it has
    passed. ``root``: the side begun on ``state`` by the executing Faction
    (:func:`~legalis.model.coin.interpret.start`), when the caller has it already.
    """
    return EventMovesView(state, card, side, faction, deadline=deadline, root=root)
