"""The meaning of event effects: one interpreter for every card of every COIN game.

An event side runs as a program over a state. Effects that need no decision
(a track change, a lasting marker, a condition) are carried out as they come; an
effect that needs one stops the run at a :class:`Decision` that says exactly what
may be chosen. Its limits are those no event may break (5.1.1): stacking, where a
piece may be, the pieces a source box holds, Tunneled Bases, track caps. They are
applied here and only here, so that no card states them.

A decision is either a distribution of pieces over spaces (:class:`PieceChoice`,
read by the solver's enumerator) or the pick of an option (:class:`OptionChoice`).
:func:`start` runs a side up to its first decision; :func:`resume` carries out a
choice and runs on to the next one; a run with no decision left is finished.

>>> from legalis.model.coin.state import CoinState
>>> from legalis.model.coin.effects import side_from_toml
>>> side = side_from_toml({"effects": [
...     {"op": "adjust", "track": "patriots_resources", "delta": 3},
...     {"op": "place", "pieces": ["militia"], "count": 2,
...      "where": {"filter": {"is": "named", "names": ["Boston", "Massachusetts"]}, "spaces": 1}}]})
>>> run = start(CoinState.new("lod"), side, Context(faction="patriots"))
>>> run.state.track("patriots_resources"), run.decision.spaces, run.decision.room
(3, ('Boston', 'Massachusetts'), ((2,), (2,)))
>>> done = resume(run, ((0,), (2,)))
>>> done.finished, done.state.pieces("Massachusetts", "militia", "underground")
(True, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from legalis.model.coin import effects as fx
from legalis.model.coin.limits import clamp, may_hold, stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.errors import InputError

RULE_LIMITS = "5.1.1"
RULE_IMPLEMENT = "5.1.3"
LEVELS = ("active_opposition", "passive_opposition", "neutral", "passive_support", "active_support")


@dataclass(frozen=True)
class Context:
    """Who executes the event (5.1): the Faction that makes every choice the text
    does not give to another."""

    faction: str
    card: int | None = None
    side: str | None = None


@dataclass(frozen=True)
class PieceChoice:
    """How many pieces of each type to take to (or from) each candidate space.

    The fields after ``types`` are those of the solver's ``Distribution``: ``room``
    is already limited by 5.1.1, and a selection must be maximal unless ``up_to``
    (5.1.3). ``what`` says what the choice is for, in words.
    """

    what: str
    chooser: str
    spaces: tuple[str, ...]
    types: tuple[str, ...]
    room: tuple[tuple[int, ...], ...]
    per_space: int | None = None
    total: int | None = None
    max_spaces: int | None = None
    spaces_exact: bool = True
    pool: tuple[int | None, ...] | None = None
    up_to: bool = False
    space_room: tuple[int, ...] | None = None
    optional: tuple[bool, ...] | None = None

    def atoms(self, selection: Sequence[Sequence[int]]) -> tuple[tuple[str, str, int], ...]:
        """The non-zero (space, piece type, amount) of a selection, in space order."""
        return tuple(
            (space, piece, amount)
            for space, row in zip(self.spaces, selection, strict=True)
            for piece, amount in zip(self.types, row, strict=True)
            if amount
        )

    def selection(self, atoms: Sequence[tuple[str, str, int]]) -> tuple[tuple[int, ...], ...]:
        """The selection that ``atoms`` describe; unknown spaces or types raise ValueError."""
        rows = [[0] * len(self.types) for _ in self.spaces]
        for space, piece, amount in atoms:
            if space not in self.spaces or piece not in self.types:
                raise ValueError(f"{amount} {piece} in {space} is not among the choices")
            rows[self.spaces.index(space)][self.types.index(piece)] += amount
        return tuple(tuple(row) for row in rows)


@dataclass(frozen=True)
class OptionChoice:
    """Pick one of ``count`` options of a "choose" effect."""

    what: str
    chooser: str
    count: int


Decision = PieceChoice | OptionChoice


@dataclass(frozen=True)
class _Arrive:
    """The second half of a move: where pieces that left their spaces arrive."""

    effect: fx.MovePieces
    pieces: tuple[tuple[str, str, int], ...]  # (origin, piece type, amount)

    @property
    def op(self) -> str:
        """What the log calls this step, as it calls an effect by its ``op``."""
        return "the arrival of a move"


Step = Any  # an effect of the language, or an internal _Arrive


@dataclass(frozen=True)
class Run:
    """A side being carried out: the state so far, the effects still to come, and the
    decision awaited (None once finished). ``log`` lists what was done, in words."""

    state: CoinState
    context: Context
    pending: tuple[Step, ...]
    decision: Decision | None
    log: tuple[str, ...] = field(default=())

    @property
    def finished(self) -> bool:
        return self.decision is None


def start(state: CoinState, side: fx.Side, context: Context) -> Run:
    """Begin carrying out ``side`` on a copy of ``state``; runs to the first decision."""
    return _advance(Run(state.copy(), context, tuple(side.effects), None))


def resume(run: Run, choice: Any) -> Run:
    """Carry out ``choice`` for the awaited decision and run on to the next one.

    ``choice`` is a selection (a row of amounts per space) for a :class:`PieceChoice`,
    an option index for an :class:`OptionChoice`. The caller checks legality.
    """
    if run.decision is None:
        raise ValueError("the run is finished: no decision is awaited")
    state = run.state.copy()
    step, rest = run.pending[0], run.pending[1:]
    log = list(run.log)
    follow: tuple[Step, ...] = ()
    if isinstance(run.decision, OptionChoice):
        assert isinstance(step, fx.Choose)
        follow = step.options[int(choice)]
        log.append(f"{run.decision.chooser} chooses option {int(choice) + 1}")
    else:
        atoms = run.decision.atoms(choice)
        follow = _carry_out(state, step, run.decision, atoms, run.context, log)
    return _advance(Run(state, run.context, follow + rest, None, tuple(log)))


# ---------------------------------------------------------------------- running


def _advance(run: Run) -> Run:
    """Carry out effects that need no decision until one does, or none are left."""
    state, pending, log = run.state, run.pending, list(run.log)
    context = run.context
    while pending:
        step, rest = pending[0], pending[1:]
        if isinstance(step, fx.Adjust):
            _adjust(state, step, log)
        elif isinstance(step, fx.SetLasting):
            _set_lasting(state, step, context, log)
        elif isinstance(step, fx.FreeAction):
            _grant(state, step, context, log)
        elif isinstance(step, fx.When):
            branch = (
                step.then if condition_holds(state, step.condition, context) else step.otherwise
            )
            pending = tuple(branch) + rest
            continue
        else:
            decision = _decision(state, step, context)
            if decision is not None:
                return Run(state, context, pending, decision, tuple(log))
            log.append(f"nothing can be done for {step.op} ({RULE_IMPLEMENT})")
        pending = rest
    return Run(state, context, (), None, tuple(log))


def _decision(state: CoinState, step: Step, context: Context) -> Decision | None:
    """The decision a step needs, or None when there is nothing at all to choose."""
    if isinstance(step, fx.Choose):
        chooser = _chooser(state, step.chooser, context)
        return OptionChoice(f"one of {len(step.options)} options", chooser, len(step.options))
    if isinstance(step, _Arrive):
        choice = _arrive_choice(state, step, context)
    elif isinstance(step, fx.Shift | fx.SetSupport):
        choice = _support_choice(state, step, context)
    else:
        choice = _piece_choice(state, step, context)
    if not choice.spaces:
        return None
    return choice


# ---------------------------------------------------------------------- filters


def space_matches(state: CoinState, space: str, where: fx.Filter, context: Context) -> bool:
    """Whether ``space`` matches ``where`` in ``state``."""
    board = state.rules.map
    if isinstance(where, fx.Anywhere):
        return board.has_space(space)
    if isinstance(where, fx.NamedSpaces):
        return space in where.names
    if isinstance(where, fx.AllOf):
        return all(space_matches(state, space, f, context) for f in where.filters)
    if isinstance(where, fx.AnyOf):
        return any(space_matches(state, space, f, context) for f in where.filters)
    if isinstance(where, fx.NoneOf):
        return not space_matches(state, space, where.filter, context)
    if not board.has_space(space):
        return False  # the other filters describe map spaces, never boxes
    info = board.space(space)
    if isinstance(where, fx.TypeIs):
        return info.type in where.types
    if isinstance(where, fx.PopulationIs):
        return fx.COMPARE[where.compare](info.population, where.value)
    if isinstance(where, fx.ControlIs):
        control = state.control(space)
        return (control or "none") == where.control
    if isinstance(where, fx.PiecesPresent):
        present = sum(state.pieces(space, piece, where.status) for piece in where.pieces)
        return fx.COMPARE[where.compare](present, where.value)
    if isinstance(where, fx.SupportIs):
        return state.support(space) in where.levels
    if isinstance(where, fx.AdjacentTo):
        return any(
            space_matches(state, other, where.filter, context) for other in board.adjacent(space)
        )
    if isinstance(where, fx.CountryIs):
        return info.country in where.countries
    if isinstance(where, fx.TerrainIs):
        return info.terrain in where.terrains
    assert isinstance(where, fx.CoastalIs)
    return info.coastal == where.coastal


def matching(state: CoinState, where: fx.Filter, context: Context) -> list[str]:
    """Every map space (and, by name, box) that ``where`` matches, in map order."""
    board = state.rules.map
    candidates = [s.name for s in board.spaces] + list(board.boxes)
    return [name for name in candidates if space_matches(state, name, where, context)]


def condition_holds(state: CoinState, condition: fx.Condition, context: Context) -> bool:
    """Whether a condition of the text holds now."""
    if isinstance(condition, fx.FlagSet):
        return state.flag(condition.flag) == condition.value
    if isinstance(condition, fx.TrackCompare):
        return fx.COMPARE[condition.compare](state.track(condition.track), condition.value)
    if isinstance(condition, fx.LastingInForce):
        side = state.capability(condition.name)
        if side is not None:
            return condition.side is None or side == condition.side
        return condition.name in state.momentum
    if isinstance(condition, fx.SpacesCount):
        found = len(matching(state, condition.filter, context))
        return fx.COMPARE[condition.compare](found, condition.value)
    if isinstance(condition, fx.ExecutingFaction):
        data = state.rules.data
        return context.faction in {
            data.faction(name, path="factions").id for name in condition.factions
        }
    if isinstance(condition, fx.AllTrue):
        return all(condition_holds(state, c, context) for c in condition.conditions)
    if isinstance(condition, fx.AnyTrue):
        return any(condition_holds(state, c, context) for c in condition.conditions)
    assert isinstance(condition, fx.NotTrue)
    return not condition_holds(state, condition.condition, context)


# ---------------------------------------------------------------------- piece choices


def _chooser(state: CoinState, named: str | None, context: Context) -> str:
    """Who decides (5.1): the Faction the text names, else the executing Faction."""
    if named is None:
        return context.faction
    return state.rules.data.faction(named, path="chooser").id


def _box_name(state: CoinState, source: str) -> str:
    """A source named in the text (``available``, ``casualties``, ...) as a box name."""
    data = state.rules.data
    for box in data.boxes:
        if source in (box.id, box.name):
            return box.name
    raise InputError(
        f"unknown box {source!r}", path="source", allowed=[box.id for box in data.boxes]
    )


def _stacks(state: CoinState, piece: str) -> bool:
    return state.rules.data.piece(piece).stacking


def _limits(where: fx.Where) -> dict[str, Any]:
    return {
        "max_spaces": where.spaces,
        "spaces_exact": not where.up_to,
    }


def _counts(
    effect: fx.Place | fx.Remove | fx.Replace | fx.MovePieces | fx.Activate | fx.GoUnderground,
) -> dict[str, Any]:
    if effect.where.per_space:
        return {"per_space": effect.count.n, "up_to": effect.count.up_to}
    return {"total": effect.count.n, "up_to": effect.count.up_to}


def _piece_choice(state: CoinState, effect: Step, context: Context) -> PieceChoice:
    """The distribution a piece effect allows, limited by 5.1.1."""
    chooser = _chooser(state, effect.chooser, context)
    types = tuple(effect.pieces)
    for piece in types:
        state.rules.data.piece(piece, path="pieces")
    spaces, rooms, shared = [], [], []
    if isinstance(effect, fx.Place):
        source = _box_name(state, effect.source)
        pool: tuple[int | None, ...] | None = tuple(state.pieces(source, p) for p in types)
        for space in matching(state, effect.where.filter, context):
            if space == source:
                continue
            room = stacking_room(state, space)
            row = tuple(
                (room if _stacks(state, p) else _UNLIMITED) if may_hold(state, p, space)[0] else 0
                for p in types
            )
            spaces.append(space)
            rooms.append(row)
            shared.append(room if any(_stacks(state, p) for p in types) else _UNLIMITED)
        space_room = tuple(shared) if any(_stacks(state, p) for p in types) else None
        optional = None
    else:
        pool = None
        space_room = None
        statuses = _statuses_taken(state, effect, context)
        types, optional = _kinds_by_status(state, effect, context, types)
        may_leave = _may_leave(state, effect, context)
        for space in matching(state, effect.where.filter, context):
            spaces.append(space)
            rooms.append(
                tuple(
                    _present(state, space, p, statuses) if may_leave(space, p) else 0 for p in types
                )
            )
    keep = [i for i, row in enumerate(rooms) if any(row)]
    return PieceChoice(
        what=_describe(effect),
        chooser=chooser,
        spaces=tuple(spaces[i] for i in keep),
        types=types,
        room=tuple(_bounded(rooms[i], effect.count.n) for i in keep),
        pool=pool,
        space_room=tuple(min(space_room[i], effect.count.n) for i in keep) if space_room else None,
        optional=optional,
        **_counts(effect),
        **_limits(effect.where),
    )


_UNLIMITED = 10**6


def _may_leave(state: CoinState, effect: Step, context: Context) -> Callable[[str, str], bool]:
    """Whether pieces of a kind may be taken from a space: for a move, only if some
    other space could receive them (5.1.3: a piece with nowhere to go is not moved,
    5.1.1: nor is it lost). A destination that depends on the departure is judged
    when the pieces arrive."""
    if not isinstance(effect, fx.MovePieces) or not arrivals_independent_of_departure(effect):
        return lambda space, kind: True
    candidates = arrival_spaces(state, effect, context)
    position = {piece: index for index, piece in enumerate(effect.pieces)}

    def may(space: str, kind: str) -> bool:
        index = position[piece_and_status(kind)[0]]
        return any(row[index] and other != space for other, row, _ in candidates)

    return may


def _bounded(row: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Room no larger than the count: a space never takes more than the text's number."""
    return tuple(min(r, count) for r in row)


def _statuses_taken(state: CoinState, effect: Any, context: Context) -> tuple[str | None, ...]:
    """The statuses of the pieces an effect acts on.

    Activate takes Underground pieces, going Underground takes Active ones. Removal
    leaves Tunneled Bases alone unless the text names them (FitL 5.1.1).
    """
    if isinstance(effect, fx.Activate):
        return ("underground",)
    if isinstance(effect, fx.GoUnderground):
        return ("active",)
    if isinstance(effect, fx.Remove) and effect.tunneled:
        return ("active", "underground", "tunneled")
    return ("active", "underground")


STATUS_MARK = ":"


def piece_and_status(kind: str) -> tuple[str, str | None]:
    """A choice's piece kind split into its piece type and the one status it takes
    (``None``: any status the effect takes).

    >>> piece_and_status("militia:underground"), piece_and_status("tory")
    (('militia', 'underground'), ('tory', None))
    """
    piece, _, status = kind.partition(STATUS_MARK)
    return piece, status or None


def _kinds_by_status(
    state: CoinState, effect: Any, context: Context, types: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[bool, ...] | None]:
    """The kinds a taking effect chooses among (5.1: the deciding Faction chooses
    which pieces). A type whose pieces may be taken in more than one status is
    offered once per status, as ``<type>:<status>``, so the Faction picks, say,
    Underground or Active Militia. The executing Faction's own Tunneled Bases may
    be taken but never have to be (FitL 5.1.1): they are ``<type>:tunneled``,
    marked optional."""
    data = state.rules.data
    statuses = _statuses_taken(state, effect, context)
    kinds: list[str] = []
    for piece in types:
        taken = [s for s in statuses if s in data.piece(piece).statuses]
        if len(taken) > 1 and isinstance(effect, fx.Remove | fx.Replace | fx.MovePieces):
            kinds += [f"{piece}{STATUS_MARK}{status}" for status in taken]
        else:
            kinds.append(piece)
    own_tunnels = [
        f"{p}{STATUS_MARK}tunneled"
        for p in types
        if isinstance(effect, fx.Remove)
        and not effect.tunneled
        and data.piece(p).can_tunnel
        and data.piece(p).faction == context.faction
    ]
    if not own_tunnels:
        return tuple(kinds), None
    return tuple(kinds + own_tunnels), (False,) * len(kinds) + (True,) * len(own_tunnels)


def _present(state: CoinState, space: str, kind: str, statuses: tuple[str | None, ...]) -> int:
    piece, status = piece_and_status(kind)
    if status is not None:
        return state.pieces(space, piece, status)
    allowed = state.rules.data.piece(piece).statuses
    return sum(state.pieces(space, piece, s) for s in statuses if s in allowed)


def _describe(effect: Any) -> str:
    count = f"{'up to ' if effect.count.up_to else ''}{effect.count.n}"
    where = "in each chosen space" if effect.where.per_space else "in all"
    return f"{effect.op} {count} {' or '.join(effect.pieces)} {where}"


ArrivalSpace = tuple[str, tuple[int, ...], int | None]
"""A space moved pieces may arrive in: its name, its room for each moved type, and
the stacking room the moved types share there (``None``: no moved type stacks)."""


def arrival_spaces(
    state: CoinState, effect: fx.MovePieces, context: Context
) -> tuple[ArrivalSpace, ...]:
    """Every space where pieces of ``effect`` could arrive, within 5.1.1, before the
    room is limited to the pieces actually moving; the spaces they leave are
    excluded only later (:func:`arrival_choice`)."""
    types = tuple(effect.pieces)
    stacking = any(_stacks(state, p) for p in types)
    out = []
    for space in matching(state, effect.to.filter, context):
        room = stacking_room(state, space)
        row = tuple(
            (room if _stacks(state, p) else _UNLIMITED) if may_hold(state, p, space)[0] else 0
            for p in types
        )
        if any(row):
            out.append((space, row, room if stacking else None))
    return tuple(out)


def arrival_choice(
    effect: fx.MovePieces, chooser: str, candidates: Sequence[ArrivalSpace], moving: Sequence[int]
) -> PieceChoice:
    """Where ``moving`` pieces (an amount per type of ``effect``) arrive: every one of
    them, among ``candidates`` (the arrival spaces other than those they left)."""
    total = sum(moving)
    shared = [room for _, _, room in candidates if room is not None]
    return PieceChoice(
        what=f"where the {total} moved pieces arrive",
        chooser=chooser,
        spaces=tuple(space for space, _, _ in candidates),
        types=tuple(effect.pieces),
        room=tuple(
            tuple(min(r, m) for r, m in zip(row, moving, strict=True)) for _, row, _ in candidates
        ),
        total=total,
        pool=tuple(moving),
        space_room=tuple(min(r, total) for r in shared) if shared else None,
        **_limits(effect.to),
    )


def arrivals_independent_of_departure(effect: fx.MovePieces) -> bool:
    """Whether the spaces the moved pieces may arrive in, and their room, are the
    same before and after the pieces leave, the spaces they leave aside: true unless
    the destination looks at the pieces or Control of a neighbouring space, which a
    departure may change.

    >>> from legalis.model.coin.effects import side_from_toml
    >>> near_militia = {"is": "adjacent", "filter": {"is": "pieces", "pieces": ["militia"]}}
    >>> [arrivals_independent_of_departure(side_from_toml({"effects": [
    ...     {"op": "move", "pieces": ["tory"], "to": {"filter": to}}]}).effects[0])
    ...  for to in ({"is": "type", "types": ["City"]}, near_militia)]
    [True, False]
    """
    return not _looks_next_door(effect.to.filter)


def _looks_next_door(where: fx.Filter) -> bool:
    """Whether ``where`` reads pieces or Control of a space other than the one tested."""
    if isinstance(where, fx.AdjacentTo):
        return _reads_pieces(where.filter)
    if isinstance(where, fx.AllOf | fx.AnyOf):
        return any(_looks_next_door(f) for f in where.filters)
    if isinstance(where, fx.NoneOf):
        return _looks_next_door(where.filter)
    return False


def _reads_pieces(where: fx.Filter) -> bool:
    if isinstance(where, fx.PiecesPresent | fx.ControlIs):
        return True
    if isinstance(where, fx.AdjacentTo | fx.NoneOf):
        return _reads_pieces(where.filter)
    if isinstance(where, fx.AllOf | fx.AnyOf):
        return any(_reads_pieces(f) for f in where.filters)
    return False


def _arrive_choice(state: CoinState, step: _Arrive, context: Context) -> PieceChoice:
    """Where the moved pieces arrive: every one of them, within 5.1.1."""
    effect = step.effect
    moving = [sum(a for _, p, a in step.pieces if p == piece) for piece in effect.pieces]
    origins = {origin for origin, _, _ in step.pieces}
    candidates = [c for c in arrival_spaces(state, effect, context) if c[0] not in origins]
    return arrival_choice(effect, _chooser(state, effect.chooser, context), candidates, moving)


def _support_choice(
    state: CoinState, effect: fx.Shift | fx.SetSupport, context: Context
) -> PieceChoice:
    """The spaces a shift or a new support level can be applied to."""
    candidates = []
    for space in matching(state, effect.where.filter, context):
        if not state.rules.map.has_space(space) or not state.can_have_support(space):
            continue
        level = LEVELS.index(state.support(space))
        if isinstance(effect, fx.Shift):
            changes = level < len(LEVELS) - 1 if effect.levels > 0 else level > 0
        else:
            changes = state.support(space) != effect.level
        if changes:
            candidates.append(space)
    what = f"shift {effect.levels:+d}" if isinstance(effect, fx.Shift) else f"set {effect.level}"
    return PieceChoice(
        what=f"{what} in each chosen space",
        chooser=_chooser(state, effect.chooser, context),
        spaces=tuple(candidates),
        types=("space",),
        room=tuple((1,) for _ in candidates),
        per_space=1,
        **_limits(effect.where),
    )


# ---------------------------------------------------------------------- carrying out


def _carry_out(
    state: CoinState,
    step: Step,
    decision: PieceChoice,
    atoms: tuple[tuple[str, str, int], ...],
    context: Context,
    log: list[str],
) -> tuple[Step, ...]:
    """Apply a chosen distribution; return any steps it adds (a move's arrival)."""
    if isinstance(step, fx.Shift):
        for space, _, _ in atoms:
            before = state.support(space)
            after = state.shift_support(space, step.levels)
            log.append(f"{space}: {before} -> {after}")
        return ()
    if isinstance(step, fx.SetSupport):
        for space, _, _ in atoms:
            state.set_support(space, step.level)
            log.append(f"{space}: set to {step.level}")
        return ()
    if isinstance(step, fx.Place):
        source = _box_name(state, step.source)
        for space, piece, amount in atoms:
            state.move_pieces(source, space, piece, amount, None, step.status)
            log.append(f"place {amount} {piece} in {space} from {source}")
        return ()
    if isinstance(step, fx.Activate | fx.GoUnderground):
        old, new = (
            ("underground", "active")
            if isinstance(step, fx.Activate)
            else ("active", "underground")
        )
        for space, piece, amount in atoms:
            state.flip(space, piece, amount, old, new)
            log.append(f"{space}: {amount} {piece} {old} -> {new}")
        return ()
    if isinstance(step, _Arrive):
        for space, piece, amount in atoms:
            state.add(space, piece, amount, None)
            log.append(f"{amount} {piece} arrive in {space}")
        return ()
    # Remove, Replace and the departure of a Move take pieces from spaces
    statuses = _statuses_taken(state, step, context)
    taken: list[tuple[str, str, int]] = []
    order: tuple[str | None, ...]
    for space, kind, amount in atoms:
        piece, status = piece_and_status(kind)
        if status is not None:
            order = (status,)
        else:
            allowed = state.rules.data.piece(piece).statuses
            order = tuple(s for s in statuses if s in allowed)
        left = amount
        for status in order:
            here = min(left, state.pieces(space, piece, status))
            if here:
                state.take(space, piece, here, status)
                left -= here
        taken.append((space, piece, amount))
    if isinstance(step, fx.MovePieces):
        log.append(f"take {sum(a for _, _, a in taken)} pieces to move")
        return (_Arrive(step, tuple(taken)),)
    destination = (
        _box_name(state, step.destination or "available")
        if isinstance(step, fx.Remove)
        else _box_name(state, "available")
    )
    for space, piece, amount in taken:
        state.add(destination, piece, amount)
        log.append(f"remove {amount} {piece} from {space} to {destination}")
    if isinstance(step, fx.Replace):
        _replace(state, step, taken, log)
    return ()


def _replace(
    state: CoinState, step: fx.Replace, taken: list[tuple[str, str, int]], log: list[str]
) -> None:
    """Put replacements where pieces were removed, as far as Available pieces and
    stacking allow; the rest are removed only (5.1.1). Alternatives named by the
    text are used in the order it names them."""
    source = _box_name(state, step.source)
    for space, _, amount in taken:
        left = amount
        for piece in step.by:
            if not left or not may_hold(state, piece, space)[0]:
                continue
            room = stacking_room(state, space) if _stacks(state, piece) else left
            placed = min(left, room, state.pieces(source, piece))
            if placed:
                state.move_pieces(source, space, piece, placed)
                log.append(f"replace with {placed} {piece} in {space}")
                left -= placed
        if left:
            log.append(f"{left} removed without replacement in {space} ({RULE_LIMITS})")


def _adjust(state: CoinState, effect: fx.Adjust, log: list[str]) -> None:
    before = state.track(effect.track)
    after = clamp(state, effect.track, before + effect.delta)
    state.set_track(effect.track, after)
    clamped = " (held at the cap, 5.1.1)" if after != before + effect.delta else ""
    log.append(f"{effect.track}: {before} -> {after}{clamped}")


def _set_lasting(state: CoinState, effect: fx.SetLasting, context: Context, log: list[str]) -> None:
    if effect.kind == "capability":
        state.set_capability(effect.name, effect.side or context.side or "unshaded")
    elif effect.kind == "momentum":
        state.add_momentum(effect.name)
    else:
        state.set_flag(effect.name)
    log.append(f"{effect.kind} {effect.name} in force")


def _grant(state: CoinState, effect: fx.FreeAction, context: Context, log: list[str]) -> None:
    """Record a free action for its Faction to take (LoD 5.3, FitL 5.5): it costs no
    Resources and leaves Eligibility alone, except the actions the game lists as
    paying even when free (FitL Pacification, Trail Improvement, Agitation)."""
    faction = state.rules.data.faction(effect.faction, path="faction").id
    spaces = None
    if effect.where is not None:
        spaces = matching(state, effect.where.filter, context)
    pays = effect.action in state.rules.data.paying_free_actions
    state.free_actions.append(
        {
            "faction": faction,
            "action": effect.action,
            "kind": effect.kind,
            "limited": effect.limited,
            "spaces": spaces,
            "pays_resources": pays,
        }
    )
    limited = "Limited " if effect.limited else ""
    paying = ", paying Resources (5.5)" if pays else ""
    log.append(f"{faction} may take a free {limited}{effect.action} ({effect.kind}){paying}")


__all__ = [
    "ArrivalSpace",
    "Context",
    "Decision",
    "OptionChoice",
    "PieceChoice",
    "Run",
    "arrival_choice",
    "arrival_spaces",
    "arrivals_independent_of_departure",
    "condition_holds",
    "matching",
    "replace",
    "resume",
    "space_matches",
    "start",
]
