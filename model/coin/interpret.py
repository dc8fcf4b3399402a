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
from legalis.model.coin.limits import clamp, may_hold, may_hold_marker, stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.records import field_default
from legalis.model.errors import InputError

RULE_LIMITS = "5.1.1"
RULE_IMPLEMENT = "5.1.3"
LEVELS = ("active_opposition", "passive_opposition", "neutral", "passive_support", "active_support")


@dataclass(frozen=True)
class Context:
    """Who executes the event (5.1): the Faction that makes every choice the text
    does not give to another. ``bindings``: what the side bound so far (spaces
    chosen or acted in, a die roll, a number of pieces, a Faction), by name; they
    belong to the run, never to the state.

    >>> Context("british").bind("s1", ("Boston",)).bound("s1")
    ('Boston',)
    """

    faction: str
    card: int | None = None
    side: str | None = None
    bindings: tuple[tuple[str, Bound], ...] = ()

    def bound(self, name: str) -> Bound | None:
        """What ``name`` is bound to, or None when nothing bound it (yet)."""
        for key, value in reversed(self.bindings):
            if key == name:
                return value
        return None

    def bind(self, name: str, value: Bound) -> Context:
        """This context with ``name`` bound to ``value`` (a later binding wins)."""
        return replace(self, bindings=(*self.bindings, (name, value)))


Bound = tuple[str, ...] | int | str
"""A bound value: spaces (a tuple of names), a number, or a Faction id."""


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
    at_least: int | None = None
    caps: tuple[tuple[tuple[int, ...], int], ...] = ()
    last: tuple[int, ...] = ()
    space_kinds: tuple[bool, ...] | None = None

    @property
    def constrained(self) -> bool:
        """Whether the text adds limits the plain distribution does not state: a
        minimum under "up to" (``at_least``), caps inside the group (``caps``:
        kind indices and their most), kinds taken only last (``last``)."""
        return self.at_least is not None or bool(self.caps) or bool(self.last)

    def constraint_refusal(self, selection: Sequence[Sequence[int]]) -> str | None:
        """Why ``selection`` breaks a cap or takes a ``last`` kind too early; None if
        it keeps them (the minimum and 5.1.3 are judged over all selections)."""
        for kinds, most in self.caps:
            taken = sum(row[k] for row in selection for k in kinds)
            if taken > most:
                names = " or ".join(self.types[k] for k in kinds)
                return f"no more than {most} {names} (the text's limit)"
        for space, row, room in zip(self.spaces, selection, self.room, strict=True):
            first = [k for k in range(len(row)) if k not in self.last]
            if any(row[k] for k in self.last) and any(row[k] < room[k] for k in first):
                return (
                    f"{' or '.join(self.types[k] for k in self.last)} in {space} are taken "
                    "only once the others there are gone (the text's order)"
                )
        return None

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
    """Pick one of ``count`` options, numbered from ``first``: the effect sequences
    of a "choose", the Factions of a ``choose_faction`` (``labels``: their ids), or
    the total of a die roll, decided by ``chooser`` ``"chance"``.

    >>> roll = OptionChoice("a roll of 1 die", CHANCE, 6, first=1)
    >>> list(roll.options())
    [1, 2, 3, 4, 5, 6]
    """

    what: str
    chooser: str
    count: int
    first: int = 0
    labels: tuple[str, ...] = ()

    def options(self) -> range:
        """The option numbers a move may record for this decision."""
        return range(self.first, self.first + self.count)


CHANCE = "chance"
"""The chooser of a die roll: no Faction, every total an outcome of the move."""


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


@dataclass(frozen=True)
class _SupportSpend:
    """One Faction's spending in a LoD Support Phase (6.4) run out of turn by an event:
    a pick among the legal spendings of ``model.lod.winter.support_view``."""

    faction: str

    @property
    def op(self) -> str:
        """What the log calls this step, as it calls an effect by its ``op``."""
        return "a Support Phase spending"


Step = Any  # an effect of the language, or an internal _Arrive or _SupportSpend


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
    an option number for an :class:`OptionChoice`. The caller checks legality.
    """
    if run.decision is None:
        raise ValueError("the run is finished: no decision is awaited")
    state = run.state.copy()
    step, rest = run.pending[0], run.pending[1:]
    log = list(run.log)
    context = run.context
    follow: tuple[Step, ...] = ()
    if isinstance(run.decision, OptionChoice):
        option = int(choice)
        if isinstance(step, fx.Roll):
            context = context.bind(step.bind, option)
            log.append(f"rolled {option} ({step.dice} {'die' if step.dice == 1 else 'dice'})")
        elif isinstance(step, fx.ChooseFaction):
            picked = run.decision.labels[option - run.decision.first]
            context = context.bind(step.bind, picked)
            log.append(f"{run.decision.chooser} chooses the {picked}")
        elif isinstance(step, _SupportSpend):
            from legalis.model.lod.winter import apply_support_spending, support_view

            spending = support_view(state, step.faction).nth(option)
            state, lines = apply_support_spending(state, spending)
            log.extend(lines)
        else:
            assert isinstance(step, fx.Choose)
            follow = step.options[option]
            log.append(f"{run.decision.chooser} chooses option {option + 1}")
    else:
        atoms = run.decision.atoms(choice)
        follow, context = _carry_out(state, step, run.decision, atoms, context, log)
    return _advance(Run(state, context, follow + rest, None, tuple(log)))


# ---------------------------------------------------------------------- running


IMMEDIATE = (
    fx.Adjust,
    fx.SetTrack,
    fx.SetLasting,
    fx.FreeAction,
    fx.Eligibility,
    fx.AtPhase,
    fx.BattleModifier,
    fx.CardAction,
)
"""The effects carried out as they come: they never ask for a decision."""


def _advance(run: Run) -> Run:
    """Carry out effects that need no decision until one does, or none are left."""
    state, pending, log = run.state, run.pending, list(run.log)
    context = run.context
    while pending:
        step, rest = pending[0], pending[1:]
        if isinstance(step, IMMEDIATE):
            context = _immediate(state, step, context, log)
        elif isinstance(step, fx.When):
            branch = (
                step.then if condition_holds(state, step.condition, context) else step.otherwise
            )
            pending = tuple(branch) + rest
            continue
        elif isinstance(step, fx.Procedure):
            pending = _procedure(state, step, context, log) + rest
            continue
        else:
            step = _settled(state, step, context)
            decision = _decision(state, step, context)
            if decision is not None:
                return Run(state, context, (step, *rest), decision, tuple(log))
            context = _nothing_done(state, step, context, log)
        pending = rest
    return Run(state, context, (), None, tuple(log))


def _nothing_done(state: CoinState, step: Step, context: Context, log: list[str]) -> Context:
    """A step with nothing to choose: what it binds is bound empty (or, for a
    ``select`` of every matching space, to all of them), and the log says so."""
    if isinstance(step, fx.Select) and step.where.spaces is None:
        spaces = tuple(matching(state, step.where.filter, context))
        log.append(f"{step.bind}: every matching space, {', '.join(spaces) or 'none'}")
        return context.bind(step.bind, spaces)
    if isinstance(step, fx.Marker) and _fixed_marker_move(step):
        _move_markers(state, step, log)
        return context
    log.append(f"nothing can be done for {step.op} ({RULE_IMPLEMENT})")
    return _bind_acted(step, context, ())


def _immediate(state: CoinState, step: Step, context: Context, log: list[str]) -> Context:
    """Carry out an effect that asks no decision; the context with what it bound."""
    if isinstance(step, fx.Adjust):
        return _adjust(state, step, context, log)
    if isinstance(step, fx.SetTrack):
        _set_track(state, step, context, log)
    elif isinstance(step, fx.SetLasting):
        _set_lasting(state, step, context, log)
    elif isinstance(step, fx.FreeAction):
        _grant(state, step, context, log)
    elif isinstance(step, fx.Eligibility):
        _eligibility(state, step, context, log)
    elif isinstance(step, fx.AtPhase):
        state.deferred.append(
            {"phase": step.phase, "faction": context.faction, "effects": _tables(step.effects)}
        )
        log.append(f"{len(step.effects)} effects deferred to the {step.phase} phase")
    elif isinstance(step, fx.BattleModifier):
        state.battle_modifiers.append(
            {
                "faction": context.faction,
                "role": step.role,
                "loss_level": step.loss_level,
                "force_level": step.force_level,
            }
        )
        log.append(f"the next Battle's {step.role} is modified")
    else:
        assert isinstance(step, fx.CardAction)
        _card_action(state, step, context, log)
    return context


def _decision(state: CoinState, step: Step, context: Context) -> Decision | None:
    """The decision a step needs, or None when there is nothing at all to choose."""
    if isinstance(step, fx.Choose):
        chooser = _chooser(state, step.chooser, context)
        return OptionChoice(f"one of {len(step.options)} options", chooser, len(step.options))
    if isinstance(step, fx.Roll):
        return OptionChoice(f"a roll of {step.dice} dice", CHANCE, 5 * step.dice + 1, step.dice)
    if isinstance(step, fx.ChooseFaction):
        factions = tuple(_factions(state, step.factions, context))
        chooser = _chooser(state, step.chooser, context)
        return OptionChoice("one Faction", chooser, len(factions), labels=factions)
    if isinstance(step, fx.Marker) and _fixed_marker_move(step):
        return None
    if isinstance(step, _SupportSpend):
        from legalis.model.lod.winter import support_view

        ways = support_view(state, step.faction).count()  # nothing spent is one of them
        return OptionChoice(f"a Support Phase spending (6.4), {ways} ways", step.faction, ways)
    if isinstance(step, _Arrive):
        choice = _arrive_choice(state, step, context)
    elif isinstance(step, fx.Shift | fx.SetSupport):
        choice = _support_choice(state, step, context)
    elif isinstance(step, fx.Select):
        if step.where.spaces is None:
            return None
        choice = _space_choice(state, step.where, ("space",), step.chooser, context, "select")
    elif isinstance(step, fx.PlaceLeader):
        where = step.where.model_copy(
            update={
                "spaces": 1,
                "up_to": False,
                "filter": fx.AllOf(filters=(step.where.filter, fx.Anywhere())),
            }
        )
        choice = _space_choice(
            state,
            where,
            (step.leader,),
            step.chooser,
            context,
            f"where {step.leader} goes",
        )
    elif isinstance(step, fx.Marker):
        choice = _marker_choice(state, step, context)
    else:
        choice = _piece_choice(state, step, context)
    if not choice.spaces:
        return None
    return choice


# ---------------------------------------------------------------------- filters


def space_matches(state: CoinState, space: str, where: fx.Filter, context: Context) -> bool:
    """Whether ``space`` matches ``where`` in ``state``."""
    return _matcher(state, where, context)(space)


def _matcher(state: CoinState, where: fx.Filter, context: Context) -> Callable[[str], bool]:
    """``where`` as a test of one space: the filter is read once, so that testing
    every space of the map does not walk it again for each; the state is read when
    a space is tested."""
    board = state.rules.map
    if isinstance(where, fx.Anywhere):
        return board.has_space
    if isinstance(where, fx.NamedSpaces):
        names = where.names
        return lambda space: space in names
    if isinstance(where, fx.AllOf):
        parts = [_matcher(state, f, context) for f in where.filters]
        return lambda space: all(part(space) for part in parts)
    if isinstance(where, fx.AnyOf):
        parts = [_matcher(state, f, context) for f in where.filters]
        return lambda space: any(part(space) for part in parts)
    if isinstance(where, fx.NoneOf):
        inner = _matcher(state, where.filter, context)
        return lambda space: not inner(space)
    if isinstance(where, fx.BoundSpaces):
        bound = context.bound(where.name)
        spaces = bound if isinstance(bound, tuple) else ()
        return lambda space: space in spaces
    on_map = _map_matcher(state, where, context)
    # the other filters describe map spaces, never boxes
    return lambda space: board.has_space(space) and on_map(space)


def _map_matcher(state: CoinState, where: fx.Filter, context: Context) -> Callable[[str], bool]:
    """A filter about map spaces as a test of one map space."""
    board = state.rules.map
    if isinstance(where, fx.TypeIs):
        types = where.types
        return lambda space: board.space(space).type in types
    if isinstance(where, fx.PopulationIs):
        compare, population = fx.COMPARE[where.compare], where.value
        return lambda space: compare(board.space(space).population, population)
    if isinstance(where, fx.ControlIs):
        control = where.control
        return lambda space: (state.control(space) or "none") == control
    if isinstance(where, fx.PiecesPresent):
        pieces, status = where.pieces, where.status
        compare, present = fx.COMPARE[where.compare], where.value
        return lambda space: compare(
            sum(state.pieces(space, piece, status) for piece in pieces), present
        )
    if isinstance(where, fx.SupportIs):
        levels = where.levels
        return lambda space: state.support(space) in levels
    if isinstance(where, fx.AdjacentTo):
        near = _matcher(state, where.filter, context)
        distance, include_self = where.distance, where.include_self
        return lambda space: any(
            near(other) for other in within(state, space, distance, include_self=include_self)
        )
    if isinstance(where, fx.MarkersPresent):
        marker, compare, markers = where.marker, fx.COMPARE[where.compare], where.value
        return lambda space: compare(state.markers(space, marker), markers)
    if isinstance(where, fx.CountryIs):
        countries = where.countries
        return lambda space: board.space(space).country in countries
    if isinstance(where, fx.TerrainIs):
        terrains = where.terrains
        return lambda space: board.space(space).terrain in terrains
    assert isinstance(where, fx.CoastalIs)
    coastal = where.coastal
    return lambda space: board.space(space).coastal == coastal


def within(state: CoinState, space: str, distance: int, *, include_self: bool) -> list[str]:
    """The spaces at most ``distance`` moves from ``space`` over the map's adjacency
    (1: its neighbours), ``space`` itself only when ``include_self``.

    >>> from legalis.model.coin.state import CoinState
    >>> within(CoinState.new("lod"), "Florida", 1, include_self=True)
    ['Florida', 'Georgia', 'Southwest']
    """
    board = state.rules.map
    seen = {space: 0}
    frontier = [space]
    for step in range(1, distance + 1):
        frontier = [n for s in frontier for n in board.adjacent(s) if n not in seen]
        for name in frontier:
            seen.setdefault(name, step)
    return sorted(name for name, steps in seen.items() if steps or include_self)


def matching(state: CoinState, where: fx.Filter, context: Context) -> list[str]:
    """Every map space (and, by name, box) that ``where`` matches, in map order."""
    board = state.rules.map
    matches = _matcher(state, where, context)
    candidates = [s.name for s in board.spaces] + list(board.boxes)
    return [name for name in candidates if matches(name)]


def condition_holds(state: CoinState, condition: fx.Condition, context: Context) -> bool:
    """Whether a condition of the text holds now."""
    if isinstance(condition, fx.FlagSet):
        return state.flag(condition.flag) == condition.value
    if isinstance(condition, fx.TrackCompare):
        track = track_id(state, condition.track, context)
        value = 0 if track is None else state.track(track)
        return fx.COMPARE[condition.compare](value, condition.value)
    if isinstance(condition, fx.LastingInForce):
        side = state.capability(condition.name)
        if side is not None:
            return condition.side is None or side == condition.side
        return condition.name in state.momentum
    if isinstance(condition, fx.SpacesCount):
        found = len(matching(state, condition.filter, context))
        return fx.COMPARE[condition.compare](found, condition.value)
    if isinstance(condition, fx.ExecutingFaction):
        return context.faction in {
            resolve_faction(state, name, context, path="factions") for name in condition.factions
        }
    if isinstance(condition, fx.QuantityCompare):
        right = condition.right
        value = right if isinstance(right, int) else amount_value(state, right, context)
        return fx.COMPARE[condition.compare](amount_value(state, condition.left, context), value)
    if isinstance(condition, fx.AllTrue):
        return all(condition_holds(state, c, context) for c in condition.conditions)
    if isinstance(condition, fx.AnyTrue):
        return any(condition_holds(state, c, context) for c in condition.conditions)
    assert isinstance(condition, fx.NotTrue)
    return not condition_holds(state, condition.condition, context)


# ---------------------------------------------------------------------- names and amounts


def resolve_faction(state: CoinState, name: str, context: Context, *, path: str = "faction") -> str:
    """A Faction named by an effect as its id: ``executing`` is the Faction playing
    the card, ``$name`` the Faction a ``choose_faction`` bound; any other name is
    the game's (an unknown one raises :class:`InputError` naming ``path``).

    >>> from legalis.model.coin.state import CoinState
    >>> state, context = CoinState.new("fitl"), Context("vc").bind("f1", "nva")
    >>> [resolve_faction(state, name, context) for name in ("executing", "$f1", "ARVN")]
    ['vc', 'nva', 'arvn']
    """
    if name == "executing":
        return context.faction
    if name.startswith("$"):
        bound = context.bound(name[1:])
        if not isinstance(bound, str):
            raise InputError(f"no Faction is bound to {name!r} here", path=path)
        return bound
    return state.rules.data.faction(name, path=path).id


def track_id(state: CoinState, track: str, context: Context) -> str | None:
    """A track named by an effect: ``executing_resources`` is the Resources of the
    executing Faction, None for a Faction without Resources (the FitL US, whose
    text about its own Resources then does nothing, 5.1.3).

    >>> from legalis.model.coin.state import CoinState
    >>> state = CoinState.new("fitl")
    >>> [track_id(state, "executing_resources", Context(f)) for f in ("nva", "us")]
    ['nva_resources', None]
    """
    if track == "executing_resources":
        own = f"{context.faction}_resources"
        return own if own in state.rules.track_index else None
    return track


def relative_types(
    state: CoinState, pieces: Sequence[str], relative: fx.Relative | None, context: Context
) -> tuple[str, ...]:
    """``pieces`` narrowed to the executing Faction's own, its side's (``friendly``)
    or the other side's (``enemy``) types; all of them when ``relative`` is None.

    >>> from legalis.model.coin.state import CoinState
    >>> relative_types(CoinState.new("lod"), ("tory", "militia", "british_regular"),
    ...                "friendly", Context("british"))
    ('tory', 'british_regular')
    """
    if relative is None:
        return tuple(pieces)
    data = state.rules.data
    side = data.side_of(context.faction)
    kept = []
    for piece in pieces:
        owner = data.piece(piece, path="pieces").faction
        same_side = data.side_of(owner) == side
        if {"own": owner == context.faction, "friendly": same_side, "enemy": not same_side}[
            relative
        ]:
            kept.append(piece)
    return tuple(kept)


def amount_value(state: CoinState, amount: fx.Amount, context: Context) -> int:
    """What an :class:`~legalis.model.coin.effects.Amount` comes to now:
    ``quantity * times / per`` rounded as the text says (down unless it says up),
    plus ``plus``, less ``minus`` when given (then never below 0).

    >>> from legalis.model.coin.state import CoinState
    >>> from legalis.model.coin.effects import Amount
    >>> state = CoinState.new("fitl")
    >>> state.set_track("trail", 3)
    >>> half_up = {"quantity": {"of": "track", "track": "trail"}, "per": 2, "round": "up"}
    >>> amount_value(state, Amount.model_validate(half_up), Context("nva"))
    2
    """
    value = quantity_value(state, amount.quantity, context) * amount.times
    whole = -(-value // amount.per) if amount.round == "up" else value // amount.per
    if amount.minus is None:
        return whole + amount.plus
    return max(0, whole + amount.plus - quantity_value(state, amount.minus, context))


def quantity_value(state: CoinState, quantity: fx.Quantity, context: Context) -> int:
    """The number a quantity of the language reads from the state (and the run's
    bindings) now."""
    if isinstance(quantity, fx.OfPieces):
        types = relative_types(state, quantity.pieces, quantity.relative, context)
        if quantity.box is not None:
            box = _box_name(state, quantity.box)
            return sum(state.pieces(box, piece) for piece in types)
        where = quantity.where or fx.Anywhere()
        spaces = [s for s in matching(state, where, context) if state.rules.map.has_space(s)]
        return sum(
            state.pieces(space, piece, quantity.status) for space in spaces for piece in types
        )
    if isinstance(quantity, fx.OfSpaces):
        return len(matching(state, quantity.filter, context))
    if isinstance(quantity, fx.OfTrack):
        track = track_id(state, quantity.track, context)
        return 0 if track is None else state.track(track)
    if isinstance(quantity, fx.OfPopulation):
        board = state.rules.map
        return sum(
            board.space(s).population
            for s in matching(state, quantity.filter, context)
            if board.has_space(s)
        )
    if isinstance(quantity, fx.OfMarkers):
        where = quantity.where or fx.Anywhere()
        return sum(state.markers(s, quantity.marker) for s in matching(state, where, context))
    if isinstance(quantity, fx.OfCards):
        return len(state.card_list(quantity.list))
    if isinstance(quantity, fx.OfBound):
        bound = context.bound(quantity.name)
        if isinstance(bound, tuple):
            return len(bound)  # "for each space selected"
        return bound if isinstance(bound, int) else 0
    assert isinstance(quantity, fx.OfVictory)
    return victory_margin(state, resolve_faction(state, quantity.faction, context))


def victory_margin(state: CoinState, faction: str) -> int:
    """A Faction's victory margin as its game's victory check reads it (7.2): the
    smaller of its two LoD margins, the FitL score above its threshold; positive
    when the Faction meets its condition."""
    if state.game == "lod":
        from legalis.model.lod.victory import check_margins  # game knowledge stays in lod

        return min(check_margins(state)[faction])
    from legalis.model.fitl.victory import victory_margins

    return victory_margins(state)[faction]


def count_number(state: CoinState, count: fx.Count, context: Context, everything: int) -> int:
    """The number a count stands for now: ``n``, its amount (never below 0), or for
    ``all`` ``everything`` (all the pieces it could act on)."""
    if count.all:
        return everything
    if count.amount is not None:
        return max(0, amount_value(state, count.amount, context))
    return count.n


# ---------------------------------------------------------------------- piece choices


def _chooser(state: CoinState, named: str | None, context: Context) -> str:
    """Who decides (5.1): the Faction the text names, else the executing Faction."""
    if named is None:
        return context.faction
    return resolve_faction(state, named, context, path="chooser")


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


def _counts(effect: Any, number: int) -> dict[str, Any]:
    up_to = _up_to(effect)
    if effect.where.per_space:
        return {"per_space": number, "up_to": up_to}
    return {"total": number, "up_to": up_to}


PieceStep = (
    fx.Place
    | fx.Remove
    | fx.Replace
    | fx.MovePieces
    | fx.Activate
    | fx.GoUnderground
    | fx.Tunnel
    | fx.Transfer
)


def _settled(state: CoinState, step: Step, context: Context) -> Step:
    """A piece effect as it reads now: types narrowed by ``relative`` (and a
    replacement's by ``by_relative``) to the executing Faction's, a count's amount
    evaluated. The rest of the run sees this form, so a move replays the same."""
    if not isinstance(step, PieceStep):
        return step
    update: dict[str, Any] = {}
    if step.relative is not None:
        update["pieces"] = relative_types(state, step.pieces, step.relative, context)
        update["relative"] = None
    if isinstance(step, fx.Replace) and step.by_relative is not None:
        update["by"] = relative_types(state, step.by, step.by_relative, context)
        update["by_relative"] = None
    if step.count.amount is not None:
        number = count_number(state, step.count, context, 0)
        update["count"] = step.count.model_copy(update={"n": number, "amount": None})
    return step.model_copy(update=update) if update else step


def _piece_choice(state: CoinState, effect: Step, context: Context) -> PieceChoice:
    """The distribution a piece effect allows, limited by 5.1.1."""
    chooser = _chooser(state, effect.chooser, context)
    types = tuple(effect.pieces)
    for piece in types:
        state.rules.data.piece(piece, path="pieces")
    spaces, rooms, shared = [], [], []
    pool: tuple[int | None, ...] | None = None
    space_room: tuple[int, ...] | None = None
    optional: tuple[bool, ...] | None = None
    cap: int | None = None
    space_kinds: tuple[bool, ...] | None = None
    if isinstance(effect, fx.Place):
        source = _box_name(state, effect.source)
        pool = tuple(state.pieces(source, p) for p in types)
        stacking = tuple(_stacks(state, p) for p in types)
        for space in matching(state, effect.where.filter, context):
            if space == source:
                continue
            room, row = _entry_room(state, space, types, stacking)
            spaces.append(space)
            rooms.append(row)
            shared.append(room)
        if any(stacking):
            space_room = tuple(shared)
            # only the kinds that stack share the room (Forts beside Tories)
            space_kinds = None if all(stacking) else stacking
    elif isinstance(effect, fx.Transfer):
        source = _box_name(state, effect.source)
        destination = _box_name(state, effect.destination)
        spaces.append(source)
        rooms.append(
            tuple(
                state.pieces(source, p) if may_hold(state, p, destination)[0] else 0 for p in types
            )
        )
    else:
        statuses = _statuses_taken(state, effect, context)
        if isinstance(effect, fx.Tunnel):
            types = tuple(p for p in types if state.rules.data.piece(p).can_tunnel)
            cap = tunnel_room(state)
        else:
            types, optional = _kinds_by_status(state, effect, context, types)
        may_leave = _may_leave(state, effect, context)
        counted = [_counted_statuses(state, kind, statuses) for kind in types]
        for space in matching(state, effect.where.filter, context):
            spaces.append(space)
            rooms.append(
                tuple(
                    sum(state.pieces(space, piece, s) for s in read)
                    if may_leave(space, kind)
                    else 0
                    for kind, (piece, read) in zip(types, counted, strict=True)
                )
            )
    keep = [i for i, row in enumerate(rooms) if any(row)]
    everything = (
        sum(p or 0 for p in pool)
        if pool is not None
        else (max((sum(rooms[i]) for i in keep), default=0) if effect.where.per_space
              else sum(sum(rooms[i]) for i in keep))
    )  # fmt: skip
    number = count_number(state, effect.count, context, everything)
    if cap is not None:
        number = min(number, cap)
    return PieceChoice(
        what=_describe(effect, number),
        chooser=chooser,
        spaces=tuple(spaces[i] for i in keep),
        types=types,
        room=tuple(_bounded(rooms[i], number) for i in keep),
        pool=pool,
        space_room=tuple(min(space_room[i], number) for i in keep) if space_room else None,
        optional=optional,
        at_least=effect.count.at_least,
        caps=_caps(effect, types),
        last=tuple(k for k, kind in enumerate(types) if piece_and_status(kind)[0] in effect.last),
        space_kinds=space_kinds,
        **(_counts(effect, number) if cap is None else {"total": number, "up_to": _up_to(effect)}),
        **_limits(effect.where),
    )


def _up_to(effect: Any) -> bool:
    """Whether the count leaves the amount to the chooser: "up to", or "N-M"."""
    return bool(effect.count.up_to or effect.count.at_least is not None)


def _caps(effect: Any, types: tuple[str, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The text's caps inside the group, as kind indices and their most."""
    return tuple(
        (
            tuple(k for k, kind in enumerate(types) if piece_and_status(kind)[0] in limit.pieces),
            limit.at_most,
        )
        for limit in effect.limits
    )


def tunnel_room(state: CoinState) -> int:
    """How many more Bases may be Tunneled: the Tunnel markers not yet on the map
    (FitL 1.4.4); 0 in a game without them."""
    rules = state.rules
    for limit in rules.data.status_limits:
        if limit.status == "tunneled":
            tunneled = sum(
                state.pieces(space, piece.id, "tunneled")
                for space in rules.spaces
                for piece in rules.data.pieces
                if "tunneled" in piece.statuses
            )
            return max(0, limit.count - tunneled)
    return 0


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
    leaves Tunneled Bases alone unless the text names them (FitL 5.1.1). A status
    the text gives (``taking``: "2 Underground Guerrillas") keeps only that one.
    """
    taking = getattr(effect, "taking", None)
    statuses: tuple[str | None, ...]
    if isinstance(effect, fx.Activate):
        statuses = ("underground",)
    elif isinstance(effect, fx.GoUnderground | fx.Tunnel):
        statuses = ("active",)
    elif isinstance(effect, fx.Remove) and (effect.tunneled or taking == "tunneled"):
        statuses = ("active", "underground", "tunneled")
    else:
        statuses = ("active", "underground")
    return statuses if taking is None else tuple(s for s in statuses if s == taking)


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
        allowed = data.piece(piece).statuses
        taken = [s for s in statuses if s in allowed]
        if len(taken) > 1 and isinstance(effect, fx.Remove | fx.Replace | fx.MovePieces):
            kinds += [f"{piece}{STATUS_MARK}{status}" for status in taken]
        else:
            kinds.append(piece)
    own_tunnels = [
        f"{p}{STATUS_MARK}tunneled"
        for p in types
        if isinstance(effect, fx.Remove)
        and not effect.tunneled
        and effect.taking is None
        and data.piece(p).can_tunnel
        and data.piece(p).faction == context.faction
    ]
    if not own_tunnels:
        return tuple(kinds), None
    return tuple(kinds + own_tunnels), (False,) * len(kinds) + (True,) * len(own_tunnels)


def _counted_statuses(
    state: CoinState, kind: str, statuses: tuple[str | None, ...]
) -> tuple[str, tuple[str | None, ...]]:
    """A choice's kind as its piece type and the statuses its pieces are taken in:
    the kind's own status, else those of ``statuses`` the type can have."""
    piece, status = piece_and_status(kind)
    if status is not None:
        return piece, (status,)
    allowed = state.rules.data.piece(piece).statuses
    return piece, tuple(s for s in statuses if s in allowed)


def _entry_room(
    state: CoinState, space: str, types: tuple[str, ...], stacking: tuple[bool, ...]
) -> tuple[int, tuple[int, ...]]:
    """The stacking room of ``space`` and how many pieces of each type may enter it
    (5.1.1): that room for a type that stacks (``stacking``), no limit for another,
    none where the type may not be."""
    room = stacking_room(state, space)
    return room, tuple(
        (room if stacks else _UNLIMITED) if may_hold(state, piece, space)[0] else 0
        for piece, stacks in zip(types, stacking, strict=True)
    )


def _describe(effect: Any, number: int) -> str:
    count = f"{'up to ' if effect.count.up_to else ''}{number}"
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
    stacking = tuple(_stacks(state, p) for p in types)
    shared = any(stacking)
    out = []
    for space in matching(state, effect.to.filter, context):
        room, row = _entry_room(state, space, types, stacking)
        if any(row):
            out.append((space, row, room if shared else None))
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


TOWARD = ("toward_support", "toward_opposition")
"""The kinds of a shift whose direction the chooser picks in each space."""


def shift_steps(level: str, effect: fx.Shift) -> int:
    """The signed levels ``effect`` moves a space at ``level`` (0: it cannot move):
    ``levels`` steps, no further than the end of the scale or, with ``toward``, than
    that level.

    >>> shift = fx.Shift(levels=2, toward="neutral")
    >>> shift_steps("active_support", shift), shift_steps("passive_opposition", shift)
    (-2, 1)
    """
    here = LEVELS.index(level)
    if effect.toward is not None:
        gap = LEVELS.index(effect.toward) - here
        return max(-abs(effect.levels), min(abs(effect.levels), gap))
    return max(-here, min(len(LEVELS) - 1 - here, effect.levels))


def _support_choice(
    state: CoinState, effect: fx.Shift | fx.SetSupport, context: Context
) -> PieceChoice:
    """The spaces a shift or a new support level can be applied to; for a shift in
    either direction, the direction too (one of :data:`TOWARD` per space)."""
    candidates, rooms = [], []
    for space in matching(state, effect.where.filter, context):
        if not state.rules.map.has_space(space) or not state.can_have_support(space):
            continue
        if isinstance(effect, fx.Shift) and effect.either:
            up = shift_steps(state.support(space), effect.model_copy(update={"levels": 1})) != 0
            down = shift_steps(state.support(space), effect.model_copy(update={"levels": -1})) != 0
            row: tuple[int, ...] = (int(up), int(down))
        elif isinstance(effect, fx.Shift):
            row = (int(shift_steps(state.support(space), effect) != 0),)
        else:
            row = (int(state.support(space) != effect.level),)
        if any(row):
            candidates.append(space)
            rooms.append(row)
    what = f"shift {effect.levels:+d}" if isinstance(effect, fx.Shift) else f"set {effect.level}"
    either = isinstance(effect, fx.Shift) and effect.either
    return PieceChoice(
        what=f"{what}{' either way' if either else ''} in each chosen space",
        chooser=_chooser(state, effect.chooser, context),
        spaces=tuple(candidates),
        types=TOWARD if either else ("space",),
        room=tuple(rooms),
        per_space=1,
        **_limits(effect.where),
    )


def _space_choice(
    state: CoinState,
    where: fx.Where,
    types: tuple[str, ...],
    chooser: str | None,
    context: Context,
    what: str,
) -> PieceChoice:
    """A choice of spaces of ``where``: one atom per chosen space; as many as the
    text says, or as exist (5.1.3), fewer only with ``up_to``."""
    candidates = [
        space
        for space in matching(state, where.filter, context)
        if state.rules.map.has_space(space)
    ]
    return PieceChoice(
        what=what,
        chooser=_chooser(state, chooser, context),
        spaces=tuple(candidates),
        types=types,
        room=tuple((1,) * len(types) for _ in candidates),
        per_space=1,
        **_limits(where),
    )


def _marker_choice(state: CoinState, effect: fx.Marker, context: Context) -> PieceChoice:
    """Where markers go (from their stock or ``source``) or come from: a marker lies
    only on its space types, needs its flag, and one marker of a kind marks a
    space once, except markers of a conserved pool (Squadrons) that stack; placing
    is limited by the markers there are (5.1.1)."""
    rules = state.rules
    kind = rules.marker_types[rules.marker(effect.marker, path="marker")]
    pool_spec = rules.data.pool(kind.pool)
    taking = effect.action == "remove" or (effect.action == "move" and effect.source is None)
    candidates = [
        space for space in matching(state, effect.where.filter, context) if space != effect.source
    ]
    spaces, rooms = [], []
    for space in candidates:
        here = state.markers(space, effect.marker)
        if taking:
            room = here
        elif not may_hold_marker(state, effect.marker, space)[0]:
            room = 0
        else:
            room = _UNLIMITED if pool_spec.conserved else max(0, 1 - here)
        if room:
            spaces.append(space)
            rooms.append((room,))
    stock = None if taking else marker_stock(state, effect.marker, effect.source)
    everything = stock if stock is not None else sum(r for (r,) in rooms)
    number = count_number(state, effect.count, context, everything)
    return PieceChoice(
        what=f"{effect.action} {number} {kind.name} markers",
        chooser=_chooser(state, effect.chooser, context),
        spaces=tuple(spaces),
        types=(effect.marker,),
        room=tuple(_bounded(row, number) for row in rooms),
        pool=None if stock is None else (stock,),
        at_least=effect.count.at_least,
        **_counts(effect, number),
        **_limits(effect.where),
    )


def marker_stock(state: CoinState, marker: str, source: str | None) -> int:
    """The markers of a kind there are to place: those at ``source`` when named,
    else those of a conserved pool in its first box other than its home (the West
    Indies for Squadrons), else the pool's markers not yet on the board.

    >>> from legalis.model.coin.state import CoinState
    >>> state = CoinState.new("lod")
    >>> marker_stock(state, "propaganda", None), marker_stock(state, "blockade", "Unavailable")
    (12, 3)
    """
    rules = state.rules
    kind = rules.marker_types[rules.marker(marker)]
    pool = rules.data.pool(kind.pool)
    if source is None and pool.conserved:
        source = next((box for box in kind.boxes if box != kind.home), kind.home)
    if source is not None:
        return state.markers(_location_name(state, source), marker)
    placed = sum(
        state.markers(location, other.id)
        for location in rules.locations
        for other in rules.marker_types
        if other.pool == kind.pool
    )
    return max(0, pool.count - placed)


def _location_name(state: CoinState, name: str) -> str:
    """A space or box named by the text (a box also by its id)."""
    for box in state.rules.data.boxes:
        if name == box.id:
            return box.name
    return state.rules.locations[state.rules.location(name, path="source")]


def _fixed_marker_move(step: Step) -> bool:
    """A marker move between two named places: nothing to choose."""
    return (
        isinstance(step, fx.Marker)
        and step.action == "move"
        and step.source is not None
        and step.destination is not None
    )


def _move_markers(state: CoinState, step: fx.Marker, log: list[str]) -> None:
    source = _location_name(state, step.source or "")
    destination = _location_name(state, step.destination or "")
    here = state.markers(source, step.marker)
    number = here if step.count.all else min(step.count.n, here)
    if number and may_hold_marker(state, step.marker, destination)[0]:
        state.move_marker(source, destination, step.marker, number)
        log.append(f"{number} {step.marker} markers: {source} -> {destination}")
    else:
        log.append(f"no {step.marker} markers can move to {destination} ({RULE_IMPLEMENT})")


# ---------------------------------------------------------------------- carrying out


def _carry_out(
    state: CoinState,
    step: Step,
    decision: PieceChoice,
    atoms: tuple[tuple[str, str, int], ...],
    context: Context,
    log: list[str],
) -> tuple[tuple[Step, ...], Context]:
    """Apply a chosen distribution; return any steps it adds (a move's arrival) and
    the context with what the step binds."""
    follow = _apply_choice(state, step, atoms, context, log)
    return follow, _bind_acted(step, context, atoms)


def _bind_acted(step: Step, context: Context, atoms: Sequence[tuple[str, str, int]]) -> Context:
    """Bind what a step acted on, as its ``bind`` fields ask: the spaces with a
    non-zero atom (in order, once each) and the number of pieces it took or placed.
    A step that could do nothing binds no spaces and 0 pieces."""
    spaces = tuple(dict.fromkeys(space for space, _, amount in atoms if amount))
    moved = sum(amount for _, _, amount in atoms)
    if isinstance(step, fx.Select):
        return context.bind(step.bind, spaces)
    if isinstance(step, _Arrive):
        effect = step.effect
        if effect.to.bind is not None:
            context = context.bind(effect.to.bind, spaces)
        return context if effect.bind is None else context.bind(effect.bind, moved)
    where = getattr(step, "where", None)
    if isinstance(where, fx.Where) and where.bind is not None:
        context = context.bind(where.bind, spaces)
    if isinstance(step, fx.MovePieces) and not atoms:  # no arrival follows
        if step.to.bind is not None:
            context = context.bind(step.to.bind, ())
        return context if step.bind is None else context.bind(step.bind, 0)
    if isinstance(step, PieceStep) and not isinstance(step, fx.MovePieces) and step.bind:
        context = context.bind(step.bind, moved)
    return context


def _apply_choice(
    state: CoinState,
    step: Step,
    atoms: tuple[tuple[str, str, int], ...],
    context: Context,
    log: list[str],
) -> tuple[Step, ...]:
    if isinstance(step, fx.Select):
        log.append(f"{step.bind}: {', '.join(space for space, _, _ in atoms)}")
        return ()
    if isinstance(step, fx.PlaceLeader):
        for space, _, _ in atoms:
            state.set_leader(step.leader, space)
            log.append(f"{step.leader} to {space}")
        return ()
    if isinstance(step, fx.Marker):
        _apply_markers(state, step, atoms, log)
        return ()
    if isinstance(step, fx.Transfer):
        destination = _box_name(state, step.destination)
        for box, piece, amount in atoms:
            state.move_pieces(box, destination, piece, amount)
            log.append(f"{amount} {piece}: {box} -> {destination}")
        return ()
    if isinstance(step, fx.Tunnel):
        for space, piece, amount in atoms:
            state.flip(space, piece, amount, "active", "tunneled")
            log.append(f"{space}: {amount} {piece} tunneled")
        return ()
    if isinstance(step, fx.Shift):
        for space, kind, _ in atoms:
            before = state.support(space)
            shift = step
            if kind in TOWARD:
                shift = step.model_copy(
                    update={"levels": abs(step.levels) * (1 if kind == TOWARD[0] else -1)}
                )
            after = state.shift_support(space, shift_steps(before, shift))
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
    for space, kind, amount in atoms:
        piece, order = _counted_statuses(state, kind, statuses)
        left = amount
        for status in order:
            here = min(left, state.pieces(space, piece, status))
            if here:
                state.take(space, piece, here, status)
                left -= here
        taken.append((space, piece, amount))
    assert isinstance(step, fx.Remove | fx.Replace | fx.MovePieces)
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
    removed, placed_for = step.ratio
    for space, _, amount in taken:
        left = amount * placed_for // removed  # "every 1 Tory with 3 Militia": 1:3
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
            log.append(f"{left} replacements not placed in {space} ({RULE_LIMITS})")


def _apply_markers(
    state: CoinState, step: fx.Marker, atoms: Sequence[tuple[str, str, int]], log: list[str]
) -> None:
    """Put or take the chosen markers: placed from their stock (or ``source``), taken
    to ``destination`` or, for a conserved pool, back to its home box (1.9)."""
    rules = state.rules
    kind = rules.marker_types[rules.marker(step.marker)]
    conserved = rules.data.pool(kind.pool).conserved
    taking = step.action == "remove" or (step.action == "move" and step.source is None)
    for space, marker, amount in atoms:
        if taking:
            home = step.destination or (kind.home if conserved else None)
            if home is None:
                state.take_marker(space, marker, amount)
            else:
                state.move_marker(space, _location_name(state, home), marker, amount)
            log.append(f"{amount} {kind.name} removed from {space}")
            continue
        source = step.source
        if source is None and conserved:
            source = next((box for box in kind.boxes if box != kind.home), kind.home)
        if source is None:
            state.add_marker(space, marker, amount)
        else:
            state.move_marker(_location_name(state, source), space, marker, amount)
        log.append(f"{amount} {kind.name} placed in {space}")


def _adjust(state: CoinState, effect: fx.Adjust, context: Context, log: list[str]) -> Context:
    """Change a track within its range (5.1.1); ``bind`` names the size of the change
    made, so a transfer's second track gains only what the first lost."""
    track = track_id(state, effect.track, context)
    if track is None:
        log.append(f"{context.faction} has no Resources: nothing to change ({RULE_IMPLEMENT})")
        return context if effect.bind is None else context.bind(effect.bind, 0)
    delta = effect.delta
    if effect.amount is not None:
        delta = (-1 if effect.delta < 0 else 1) * amount_value(state, effect.amount, context)
    before = state.track(track)
    after = clamp(state, track, before + delta)
    state.set_track(track, after)
    clamped = " (held at the cap, 5.1.1)" if after != before + delta else ""
    log.append(f"{track}: {before} -> {after}{clamped}")
    return context if effect.bind is None else context.bind(effect.bind, abs(after - before))


def _set_track(state: CoinState, effect: fx.SetTrack, context: Context, log: list[str]) -> None:
    """Set a track, raise it to (``at_least``) or lower it to (``at_most``) a value,
    within its range (5.1.1)."""
    track = track_id(state, effect.track, context)
    if track is None:
        log.append(f"{context.faction} has no Resources: nothing to set ({RULE_IMPLEMENT})")
        return
    value = effect.value
    wanted = value if isinstance(value, int) else amount_value(state, value, context)
    before = state.track(track)
    if effect.mode == "at_least":
        wanted = max(before, wanted)
    elif effect.mode == "at_most":
        wanted = min(before, wanted)
    after = clamp(state, track, wanted)
    state.set_track(track, after)
    log.append(f"{track}: {before} -> {after}")


def _factions(state: CoinState, names: Sequence[str], context: Context) -> list[str]:
    """The Faction ids of an effect's ``factions`` (``all``: every Faction)."""
    out: list[str] = []
    for name in names:
        found = (
            list(state.rules.faction_ids)
            if name == "all"
            else [resolve_faction(state, name, context, path="factions")]
        )
        out += [faction for faction in found if faction not in out]
    return out


def _eligibility(
    state: CoinState, effect: fx.Eligibility, context: Context, log: list[str]
) -> None:
    """Eligibility as the text changes it (2.3): recorded for the card's end in
    ``eligibility_at_end``, which the Sequence of Play applies in place of its own
    adjustment; a Faction made Ineligible is also Ineligible at once, so it takes no
    further part in this card."""
    for faction in _factions(state, effect.factions, context):
        if effect.to == "eligible":
            state.eligibility_at_end[faction] = "eligible"
        else:
            state.set_eligibility(faction, "ineligible")
            state.eligibility_at_end[faction] = (
                "ineligible_through_next" if effect.through_next_card else "ineligible"
            )
        log.append(f"{faction}: {state.eligibility_at_end[faction]} at the card's end")


def _set_lasting(state: CoinState, effect: fx.SetLasting, context: Context, log: list[str]) -> None:
    """Put a lasting effect in force; its duration and rules are kept with it (a
    ``recurring`` rule's effects run at its ``at``, not now)."""
    side = effect.side or context.side or "unshaded"
    if effect.kind == "capability":
        state.set_capability(effect.name, side)
    elif effect.kind == "momentum":
        state.add_momentum(effect.name)
    else:
        state.set_flag(effect.name)
    if effect.duration is not None or effect.rules:
        state.lasting_rules[effect.name] = {
            "kind": effect.kind,
            "side": side if effect.kind == "capability" else None,
            "duration": effect.duration,
            "rules": _rule_tables(effect),
        }
    unmodelled = sum(not rule.modelled for rule in effect.rules)
    note = f" ({unmodelled} of its rules not modelled)" if unmodelled else ""
    log.append(f"{effect.kind} {effect.name} in force{note}")


def _tables(effects: Sequence[fx.Effect]) -> list[dict[str, Any]]:
    """Effects as the plain tables a deck writes, kept in the state."""
    tables: list[dict[str, Any]] = fx.side_to_toml(fx.Side(effects=tuple(effects))).get(
        "effects", []
    )
    return tables


def _rule_tables(effect: fx.SetLasting) -> list[dict[str, Any]]:
    """The lasting rules of ``effect`` as the plain tables a deck writes, kept in the
    state (read from the effect's own table: building a model to carry them
    validates them again, which is slow)."""
    return list(_tables((effect,))[0].get("rules", []))


FREE_MODIFIERS = (
    "as_faction", "with_special", "times", "count", "no_activation", "hits", "force_level",
    "pieces", "remove_per_space", "remove_pieces", "note",
)  # fmt: skip


def _grant(state: CoinState, effect: fx.FreeAction, context: Context, log: list[str]) -> None:
    """Record a free action for its Faction to take (LoD 5.3, FitL 5.5): it costs no
    Resources and leaves Eligibility alone, except the actions the game lists as
    paying even when free (FitL Pacification, Trail Improvement, Agitation). What
    the text changes about it is kept as the grant's ``modifiers``."""
    faction = resolve_faction(state, effect.faction, context)
    spaces = None
    if effect.where is not None:
        spaces = matching(state, effect.where.filter, context)
    pays = effect.action in state.rules.data.paying_free_actions
    grant: dict[str, Any] = {
        "faction": faction,
        "action": effect.action,
        "kind": effect.kind,
        "limited": effect.limited,
        "spaces": spaces,
        "pays_resources": pays,
    }
    modifiers = {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in ((name, getattr(effect, name)) for name in FREE_MODIFIERS)
        if value != field_default(fx.FreeAction, name)
    }
    if effect.as_faction is not None:
        modifiers["as_faction"] = resolve_faction(state, effect.as_faction, context)
    if effect.origin is not None:
        modifiers["origin"] = matching(state, effect.origin.filter, context)
    if effect.where is not None and effect.where.spaces is not None:
        modifiers["where_spaces"] = effect.where.spaces  # "in one space": how many of them
    if modifiers:
        grant["modifiers"] = modifiers
    state.free_actions.append(grant)
    limited = "Limited " if effect.limited else ""
    paying = ", paying Resources (5.5)" if pays else ""
    log.append(f"{faction} may take a free {limited}{effect.action} ({effect.kind}){paying}")


def _card_action(state: CoinState, effect: fx.CardAction, context: Context, log: list[str]) -> None:
    """Cancel, remove or flip a Capability or Momentum in force; any other act on a
    card (return, play, allow, or a target not in force) is recorded in
    ``card_actions`` for the game to carry out."""
    target = effect.target
    if effect.action in ("cancel", "remove") and state.capability(target) is not None:
        state.set_capability(target, None)
        state.lasting_rules.pop(target, None)
        log.append(f"Capability {target} removed")
        return
    if effect.action in ("cancel", "remove") and target in state.momentum:
        state.clear_momentum(target)
        state.lasting_rules.pop(target, None)
        log.append(f"Momentum {target} ended")
        return
    side = state.capability(target)
    if effect.action == "flip" and side is not None:
        state.set_capability(target, "shaded" if side == "unshaded" else "unshaded")
        log.append(f"Capability {target} flipped")
        return
    faction = None if effect.faction is None else resolve_faction(state, effect.faction, context)
    state.card_actions.append(
        {
            "action": effect.action,
            "target": target,
            "faction": faction,
            "count": effect.count,
            "side": effect.side,
        }
    )
    log.append(f"{effect.action} {target}: recorded for the game to carry out")


def _procedure(
    state: CoinState, effect: fx.Procedure, context: Context, log: list[str]
) -> tuple[Step, ...]:
    """Run a rules procedure out of turn where the project models it (LoD Desertion,
    6.6: its removals become the steps that follow, chooser by chooser; LoD Support
    Phase, 6.4: the British, then the Patriots, or the Factions the text names, each
    pick a spending); record any other for the game, with a log line saying it is
    not modelled here."""
    if effect.name == "support_phase" and state.game == "lod":
        from legalis.model.lod.winter import SUPPORT_ACTIONS

        named = _factions(state, effect.factions, context) if effect.factions else SUPPORT_ACTIONS
        log.append("Support Phase (6.4) out of turn")
        return tuple(_SupportSpend(f) for f in SUPPORT_ACTIONS if f in named)
    if effect.name == "desertion" and state.game == "lod":
        from legalis.model.lod.winter import desertion_steps  # game knowledge stays in lod

        where = effect.where or fx.Where()
        steps: list[Step] = []
        for chooser, piece, number, rule in desertion_steps(state):
            if effect.pieces and piece not in effect.pieces:
                continue
            steps.append(
                fx.Remove(
                    pieces=(piece,),
                    count=fx.Count(n=number),
                    chooser=chooser,
                    where=fx.Where(filter=where.filter, per_space=False),
                )
            )
            log.append(f"Desertion ({rule}): {chooser} removes {number} {piece}")
        return tuple(steps)
    spaces = None
    if effect.where is not None:
        spaces = matching(state, effect.where.filter, context)
    state.procedures.append(
        {
            "name": effect.name,
            "faction": context.faction,
            "factions": _factions(state, effect.factions, context),
            "pieces": list(effect.pieces),
            "spaces": spaces,
            "note": effect.note,
        }
    )
    log.append(f"procedure {effect.name}: recorded, not modelled here")
    return ()


__all__ = [
    "CHANCE",
    "IMMEDIATE",
    "TOWARD",
    "ArrivalSpace",
    "Bound",
    "Context",
    "Decision",
    "OptionChoice",
    "PieceChoice",
    "Run",
    "amount_value",
    "arrival_choice",
    "arrival_spaces",
    "arrivals_independent_of_departure",
    "condition_holds",
    "count_number",
    "marker_stock",
    "matching",
    "quantity_value",
    "relative_types",
    "replace",
    "resolve_faction",
    "resume",
    "shift_steps",
    "space_matches",
    "start",
    "track_id",
    "tunnel_room",
    "victory_margin",
    "within",
]
