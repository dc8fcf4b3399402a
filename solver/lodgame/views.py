"""The legal moves of a whole LoD game at each decision, as one lazy view, and the
refusal of any other move with its rule.

A decision's moves come from the model's own views, chained: Pass, the Event's
executions (:func:`~legalis.solver.events.legal_event_moves`), each Command's
moves (:func:`~legalis.model.lod.commands.command_view`), the Special Activities
paired with the Command just executed (:func:`~legalis.model.lod.special.special_view`),
a Battle's follow-ups, ``Done``; the Winter Quarters phases' views. Counting adds
the parts' counts, so nothing is listed to count it.

A Special Activity may also come before its Command, or during it (4.1): such a
move is checked by the rules and accepted, but the lists give each Command with
its Special Activity after it, so that one action is not listed twice.

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.solver.lodgame.game import LodGame
>>> state = LodGame({"scenario": "1775"}).new_initial_state()
>>> rng = LoggedRandom(3)
>>> while state.is_chance:
...     state.play(state.sample_chance(rng))
>>> view = state.legal_moves()
>>> state.stage, Decline(state.to_move) in view, view.count() == sum(1 for _ in view)
('window', True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from legalis.model.coin.mapdata import load_map
from legalis.model.coin.state import CoinState
from legalis.model.core.views import (
    ListView,
    MoveView,
    RandomSource,
    Refusal,
    SeedChances,
    Verdict,
)
from legalis.model.errors import IllegalMoveError, SolverLimitError
from legalis.model.lod.battle import (
    BlockadeShift,
    FollowUp,
    blockade_shift_refusal,
    blockade_shift_view,
)
from legalis.model.lod.command_base import Command, rules_for
from legalis.model.lod.commands import available_commands, command_refusal, command_view
from legalis.model.lod.special import (
    SpecialActivity,
    available_special_activities,
    special_during,
    special_refusal,
    special_view,
)
from legalis.solver.events import EventMovesView, legal_event_moves
from legalis.solver.lodgame.moves import (
    Decline,
    Done,
    During,
    Fight,
    Pass,
    PlayEvent,
    Prepare,
    Roll,
    Stroke,
)
from legalis.solver.lodgame.state import Action, LodState, offer_taken, winter_refusal, winter_view
from legalis.solver.nonplayer.sequence import involves_leader

__all__ = [
    "ChainView",
    "action_has_moves",
    "event_choices",
    "event_view",
    "leader_can_lead",
    "leader_involved",
    "legal_moves",
    "refusal",
]

SEED_OUTCOMES = 2**31
FILTER_MOST = 200_000  # moves a narrowed view lists to count
DRAWS_MOST = 200  # rejected draws before a narrowed part's first moves are listed
SCAN_MOST = 500  # the narrowed part's moves then looked through
KEPT_LISTED = 100  # the kept moves then listed to draw from


class ChainView(MoveView[Any]):
    """The moves of several views one after the other, refused by one rule."""

    def __init__(self, parts: Sequence[MoveView[Any]], refuse: Callable[[object], Refusal | None],
                 why: Callable[[Any], Verdict] | None = None) -> None:  # fmt: skip
        self.parts = [part for part in parts]
        self._refuse = refuse
        self._why = why
        self._counts: list[int] | None = None

    def counts(self) -> list[int]:
        if self._counts is None:
            self._counts = [part.count() for part in self.parts]
        return self._counts

    def __iter__(self) -> Iterator[Any]:
        for part in self.parts:
            yield from part

    def count(self) -> int:
        return sum(self.counts())

    def sections(self) -> Sequence[MoveView[Any]]:
        return self.parts

    def nth(self, index: int) -> Any:
        if index < 0:
            raise IndexError(index)
        for part, size in zip(self.parts, self.counts(), strict=True):
            if index < size:
                return part.nth(index)
            index -= size
        raise IndexError(index)

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)

    def justification(self, move: Any) -> Verdict:
        return self._why(move) if self._why else super().justification(move)

    def __bool__(self) -> bool:
        return any(bool(part) for part in self.parts)

    def random(self, rng: RandomSource) -> Any:
        """A uniformly random legal move: a narrowed part is drawn from by rejection
        (its moves stand among the wider view's), so no part needs listing. When
        200 draws find nothing, the move is drawn from the other parts and the
        moves kept among the first 500 of each narrowed part (not uniform then:
        ``rules-questions.md``, Commands narrowed by a grant or the Leader)."""
        bounds = [part.bound() if isinstance(part, FilteredView) else part.count()
                  for part in self.parts]  # fmt: skip
        total = sum(bounds)
        if not total:
            raise IndexError("no legal move")
        for _ in range(DRAWS_MOST):
            index = rng.randrange(total)
            for part, size in zip(self.parts, bounds, strict=True):
                if index < size:
                    found = part.candidate(index) if isinstance(part, FilteredView) else (
                        part.nth(index))  # fmt: skip
                    if found is not None:
                        return found
                    break
                index -= size
        found = [m for part in self.parts if isinstance(part, FilteredView)
                 for m in part.first_kept()]  # fmt: skip
        exact = [part for part in self.parts if not isinstance(part, FilteredView)]
        listed = ListView(found, self._refuse)
        return ChainView([*exact, listed], self._refuse).random(rng)


class MappedView(MoveView[Any]):
    """A view whose moves are another view's, each wrapped (a Battle as a Fight)."""

    def __init__(self, inner: MoveView[Any], wrap: Callable[[Any], Any],
                 refuse: Callable[[object], Refusal | None]) -> None:  # fmt: skip
        self.inner, self.wrap, self._refuse = inner, wrap, refuse

    def __iter__(self) -> Iterator[Any]:
        return (self.wrap(move) for move in self.inner)

    def count(self) -> int:
        return self.inner.count()

    def nth(self, index: int) -> Any:
        return self.wrap(self.inner.nth(index))

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)


class FilteredView(MoveView[Any]):
    """Another view's moves that pass ``keep``: counted by listing them, up to
    200,000 (past that a :class:`SolverLimitError`); a random one is drawn by
    rejection from the other view, so drawing needs no count."""

    def __init__(self, inner: MoveView[Any], keep: Callable[[Any], bool],
                 refuse: Callable[[object], Refusal | None]) -> None:  # fmt: skip
        self.inner, self.keep, self._refuse = inner, keep, refuse
        self._moves: list[Any] | None = None

    def _all(self) -> list[Any]:
        if self._moves is None:
            if self.inner.count() > FILTER_MOST:
                raise SolverLimitError(f"more than {FILTER_MOST} moves to sift for this "
                                       "decision's limits: not counted")  # fmt: skip
            self._moves = [move for move in self.inner if self.keep(move)]
        return self._moves

    def bound(self) -> int:
        """At least as many as the moves kept: the other view's count."""
        return self.inner.count()

    def candidate(self, index: int) -> Any | None:
        """The other view's ``index``-th move if it is kept, else None."""
        move = self.inner.nth(index)
        return move if self.keep(move) else None

    def __bool__(self) -> bool:
        """Some move is kept: listed up to 200,000, past that drawn for (200 draws)."""
        if self.inner.count() <= FILTER_MOST:
            return bool(self._all())
        return self.draw(_Draws(DRAWS_MOST)) is not None

    def draw(self, source: RandomSource | _Draws) -> Any | None:
        """A kept move drawn by rejection, or None after 200 draws found none."""
        total = self.inner.count()
        for _ in range(DRAWS_MOST):
            found = self.candidate(source.randrange(total)) if total else None
            if found is not None:
                return found
        return None

    def first_kept(self) -> list[Any]:
        """Up to 100 kept moves among the first 500 of the other view."""
        return list(islice(filter(self.keep, islice(self.inner, SCAN_MOST)), KEPT_LISTED))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all()) if self._moves is not None else self.inner.filter(self.keep)

    def count(self) -> int:
        return len(self._all())

    def nth(self, index: int) -> Any:
        return self._all()[index]

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)


class _Draws:
    """Draws of a fixed seed, for the yes/no of a narrowed view (the same answer
    every time it is asked)."""

    def __init__(self, seed: int) -> None:
        import random

        self._source = random.Random(seed)

    def randrange(self, stop: int, /) -> int:
        return self._source.randrange(stop)


# ---------------------------------------------------------------------- building blocks


def event_view(
    state: LodState, side: str, faction: str, cache: dict[Any, Any] | None = None
) -> EventMovesView:
    """The card's Event executions by ``faction`` (one view per state, side, Faction),
    kept in ``cache``: the state's own unless a move being carried out passes the
    one it was checked with."""
    known = state.cache if cache is None else cache
    key = _event_key(state, side, faction)
    view = known.get(key)
    if view is None:
        card = state.card
        assert card is not None
        view = legal_event_moves(state.coin, card, side, faction)
        known[key] = view
    return view


def keep_event_view(state: LodState, view: EventMovesView) -> None:
    """Keep ``view``, built on this very state's CoinState for its card, as the
    state's view of its side and Faction (with the executions it already checked)."""
    if view.state is state.coin and view.card.number == state.card_number:
        state.cache[_event_key(state, view.side_name, view.faction)] = view


def _event_key(state: LodState, side: str, faction: str) -> tuple[Any, ...]:
    return ("event", state.card_number, side, faction, id(state.coin))


def event_choices(state: LodState, faction: str, sides: Sequence[str]) -> MoveView[Any]:
    """Every execution of the printed ``sides`` as ``PlayEvent`` moves; a side with a
    die roll keeps only the executions with the card's rolled totals."""
    card = state.card
    assert card is not None
    parts: list[MoveView[Any]] = []
    for side in sides:
        if getattr(card, side) is None:
            continue
        view = event_view(state, side, faction)
        mapped = MappedView(view, PlayEvent, lambda move: refusal(state, move))
        if state.rules.roll_dice(card.number, side):
            parts.append(FilteredView(mapped, _rolled_as_dealt(state, view), _refuser(state)))
        else:
            parts.append(mapped)
    return ChainView(parts, lambda move: refusal(state, move))


def _rolled_as_dealt(state: LodState, view: EventMovesView) -> Callable[[Any], bool]:
    def keep(move: Any) -> bool:
        return state.event_rolls(move.event, view) is None

    return keep


def within_grant(move: Any, allowed: set[str] | tuple[str, ...]) -> bool:
    """5.3: an action granted in named spaces selects one or more of them and no
    other; a Garrison, which selects no space, sends its Regulars only into them.

    >>> garrison = Command("british", "garrison", moves=(("Boston", "Quebec City",
    ...                                                    "british_regular", 2),))
    >>> within_grant(garrison, ("Quebec City",)), within_grant(garrison, ("Boston",))
    (True, False)
    """
    chosen = set(move.spaces)
    if not chosen and isinstance(move, Command):
        chosen = {destination for _, destination, _, _ in move.moves}
    return bool(chosen) and chosen <= set(allowed)


def _in_spaces(spaces: set[str] | tuple[str, ...]) -> Callable[[Any], bool]:
    def keep(move: Any) -> bool:
        return within_grant(move, spaces)

    return keep


def _commands_meeting(check: Callable[[Command], bool]) -> Callable[[Any], bool]:
    def keep(move: Any) -> bool:
        return check(_command_of(move))

    return keep


def leader_involved(coin: CoinState, command: Command) -> bool:
    """1.10: the Command selects the Leader's space or moves pieces from it."""
    return involves_leader(coin, command.faction, command)


LEADER_SEARCH = SCAN_MOST  # moves of one Command searched for one involving the Leader


def leader_can_lead(state: LodState, faction: str) -> bool:
    """1.10: whether a free Limited Command can involve the Faction's Leader. Each
    Command's moves are searched in order, the smallest first, up to 500 of them
    (a Limited March of the British can have a million): past that, the Command is
    taken as unable to (``rules-questions.md``: Brilliant Stroke and the Leader)."""
    views = [command_view(state.coin, faction, name, limited=True, free=True,
                          options=state.rules.command_options)
             for name in available_commands(state.coin, faction)]  # fmt: skip
    for view in sorted(views, key=lambda v: v.count()):
        if any(leader_involved(state.coin, move) for move in islice(view, LEADER_SEARCH)):
            return True
    return False


def _leader_reach(state: LodState, action: Action) -> frozenset[str] | None:
    """The spaces a Limited Command must select within when it must involve the
    Faction's Leader (1.10, the last Command of a Brilliant Stroke): the Leader's
    space, or a space next to it that pieces march to from it (a Limited Command
    selects one space); None when no Leader narrows the Command."""
    if not (action.leader and action.commands == 1 and action.limited):
        return None
    coin = state.coin
    at = {str(coin.leader(leader.name)) for leader in coin.rules.data.leaders
          if leader.faction == action.faction}  # fmt: skip
    board = load_map("lod")
    spaces = {space for space in at if board.has_space(space) and not board.is_box(space)}
    return frozenset(spaces | {near for space in spaces for near in board.adjacent(space)})


def _wrap_battle(move: Command) -> Any:
    return Fight(move) if move.name == "battle" else move


def _command_parts(state: LodState, action: Action) -> list[MoveView[Any]]:
    coin, faction = state.coin, action.faction
    names = action.names or tuple(available_commands(coin, faction))
    if action.declared is not None:
        names = (action.declared.name,)
    parts: list[MoveView[Any]] = []
    refuse = _refuser(state)
    options = state.rules.command_options
    for name in names:
        if name not in available_commands(coin, faction):
            continue
        # a grant's spaces, and the spaces of a Command a Special Activity declared,
        # narrow the view itself where the Command ranks them alone: sifting a whole
        # view for them can pass the counting limit (a Rally has some 10^5 moves)
        rules = rules_for(faction, name, options)
        within = None
        if rules is not None and rules.moves_within is not None:
            declared = None if action.declared is None else action.declared.spaces
            for spaces in (action.spaces, declared, _leader_reach(state, action)):
                if spaces is not None:
                    within = frozenset(spaces) if within is None else within & frozenset(spaces)
        view = command_view(coin, faction, name, limited=action.limited, free=action.free,
                            options=options, within=within)  # fmt: skip
        narrowed = _narrowing(state, action, spaces_checked=within is not None)
        if narrowed is None:
            parts.append(MappedView(view, _wrap_battle, refuse))
        else:
            parts.append(FilteredView(MappedView(view, _wrap_battle, refuse),
                                      _commands_meeting(narrowed), refuse))  # fmt: skip
    return parts


def _narrowing(state: LodState, action: Action, *, spaces_checked: bool = False
               ) -> Callable[[Command], bool] | None:  # fmt: skip
    """What a Command of this action must also meet: a grant's spaces (unless its
    view already keeps to them), the Leader on the last Command of a Brilliant
    Stroke, the Command a Special Activity declared."""
    checks: list[Callable[[Command], bool]] = []
    if action.spaces is not None and not spaces_checked:
        allowed = set(action.spaces)
        checks.append(lambda c: within_grant(c, allowed))
    if action.leader and action.commands == 1:
        checks.append(lambda c: leader_involved(state.coin, c))
    if action.declared is not None:
        declared = action.declared
        checks.append(lambda c: c.spaces == declared.spaces)
    if not checks:
        return None
    return lambda c: all(check(c) for check in checks)


def _same_command(one: Command | None, other: Command) -> bool:
    """The same Command selection (the Leaders following it aside, 1.10)."""
    return one is not None and (one.faction, one.name, one.spaces, one.moves) == (
        other.faction, other.name, other.spaces, other.moves)  # fmt: skip


def _command_of(move: Any) -> Command:
    return move if isinstance(move, Command) else move.command


def _special_parts(state: LodState, action: Action) -> Iterator[MoveView[Any]]:
    """The views of the Special Activities left to the action, each built when
    reached (whether any move is left stops at the first view that has one)."""
    if action.specials <= 0 or (action.paired and action.command is None):
        return
    coin, faction = state.coin, action.faction
    names = action.special_names or tuple(available_special_activities(coin, faction))
    paired = action.command if action.paired else None
    for name in names:
        if name not in available_special_activities(coin, faction):
            continue
        view = special_view(coin, faction, name, paired)
        if action.spaces is not None and not action.paired:
            yield FilteredView(view, _in_spaces(set(action.spaces)), _refuser(state))
        else:
            yield view


def _offer_parts(state: LodState, action: Action) -> Iterator[MoveView[Any]]:
    """The views of a Battle's follow-ups still open, each built when reached."""
    for offer in action.offers:
        view = _offer_view(state, offer)
        if view is not None:
            yield view


def _offer_view(state: LodState, offer: FollowUp) -> MoveView[Any] | None:
    if offer.action == "move_blockade":
        return blockade_shift_view(state.coin, offer)
    if offer.action == "skirmish":
        return FilteredView(special_view(state.coin, offer.faction, "skirmish", None),
                            _in_spaces((offer.space,)), _refuser(state))  # fmt: skip
    if offer.action == "rally":
        return command_view(state.coin, offer.faction, "rally", limited=True, free=True,
                            options=state.rules.command_options)  # fmt: skip
    return None


def _offer_open(state: LodState, offer: FollowUp) -> bool:
    """Whether a Battle's follow-up has a legal move. A free Rally is first asked
    of its plainest moves, one Militia placed in one space, each checked by the
    Rally's own rules: its whole view (milliseconds to build) only when none is
    legal."""
    if offer.action == "rally" and any(
        command_refusal(state.coin, move, options=state.rules.command_options) is None
        for move in _one_militia_rallies(state.coin, offer.faction)
    ):
        return True
    view = _offer_view(state, offer)
    return view is not None and bool(view)


def _one_militia_rallies(coin: CoinState, faction: str) -> Iterator[Command]:
    """A free Limited Rally placing one Militia, in each map space in turn (none
    when no Militia is Available to place)."""
    if not coin.available("militia"):
        return
    for space in coin.rules.spaces:
        yield Command(faction, "rally", (space,), ((space, "militia", 1),), limited=True,
                      free=True)  # fmt: skip


def may_end(state: LodState, action: Action) -> bool:
    """Whether ``Done`` ends the action now: a 1st or 2nd Eligible's once its Command
    is executed (2.3.4); a Brilliant Stroke's once a Command involved the Leader,
    or none still can (1.10); a grant or the Treaty's at any time (5.3)."""
    if action.slot in ("first", "second"):
        return action.command is not None and action.declared is None
    if action.slot == "stroke" and action.leader and action.commands > 0:
        return not leader_can_lead(state, action.faction)
    return action.declared is None


def action_has_moves(state: LodState, action: Action) -> bool:
    """Whether anything but ``Done`` is left to the action (the cheap parts asked
    first, a Command's views built only when nothing else is left)."""
    if action.declared is not None:
        return True
    if any(_offer_open(state, offer) for offer in action.offers):
        return True
    if any(bool(part) for part in _special_parts(state, action)):
        return True
    return action.commands > 0 and any(bool(part) for part in _command_parts(state, action))


# ---------------------------------------------------------------------- the view


def legal_moves(state: LodState) -> MoveView[Any]:
    """The legal moves at ``state``'s decision (or its chance outcomes)."""
    cached = state.cache.get("moves")
    if cached is None:
        cached = _build(state)
        state.cache["moves"] = cached
    return cached


def _refuser(state: LodState) -> Callable[[object], Refusal | None]:
    return lambda move: refusal(state, move)


def _build(state: LodState) -> MoveView[Any]:
    refuse = _refuser(state)
    if state.stage == "over":
        return ListView([], refuse)
    if state.is_chance:
        # the deck's orders number in the trillions: checked, not listed (2.1)
        unlisted = "deck orders (2.1)" if state.stage == "prepare" else None
        return SeedChances(Roll, SEED_OUTCOMES, lambda move: refusal(state, move),
                           unlisted=unlisted)  # fmt: skip
    faction = state.to_move
    if state.stage == "window":
        strokes = [Stroke(faction, card) for card in state.playable_strokes(faction)]
        return ListView([*strokes, Decline(faction)], refuse)
    if state.stage == "winter":
        return winter_view(state)
    if state.stage == "choose":
        parts: list[MoveView[Any]] = [ListView([Pass(faction)], refuse)]
        if _event_allowed(state):
            parts.append(event_choices(state, faction, ("unshaded", "shaded")))
        parts += _command_parts(state, state.start_action(faction))
        return ChainView(parts, refuse)
    action = state.action
    assert action is not None
    parts = [*_offer_parts(state, action), *_special_parts(state, action)]
    if action.commands > 0:
        parts += _command_parts(state, action)
    if may_end(state, action):
        parts.append(ListView([Done(faction)], refuse))
    return ChainView(parts, refuse)


def _event_allowed(state: LodState) -> bool:
    """2.3.4: the 1st Eligible may execute the Event; the 2nd only after a Command
    with a Special Activity."""
    return state.slot() == "first" or state.first_did == "command_sa"


# ---------------------------------------------------------------------- refusals


def refusal(state: LodState, move: object, checked_on: CoinState | None = None) -> Refusal | None:
    """Why ``move`` is not legal at ``state`` (None: it is). The answer is kept with
    the state's cache: a seat asks before it moves, and ``play`` asks again.
    ``checked_on``: a state on which the model's refusal of the move's Command or
    Special Activity, under this game's options, found it legal: at an equal state
    that refusal is not asked again."""
    try:
        known = state.cache.setdefault("refusals", {})
        if move in known:
            return known[move]  # type: ignore[no-any-return]
    except TypeError:  # a move that cannot be hashed is asked afresh
        return _refusal(state, move, checked_on)
    found = known[move] = _refusal(state, move, checked_on)
    return found


def _accepted(state: LodState, checked_on: CoinState | None) -> bool:
    """Whether the model's refusal of the move was asked at a state equal to this one
    (and found it legal)."""
    return checked_on is not None and checked_on == state.coin


def _refusal(state: LodState, move: object, checked_on: CoinState | None) -> Refusal | None:
    if state.stage == "over":
        return Refusal("the game is over", "7.1")
    if state.stage == "prepare":
        return _prepare_refusal(state, move)
    if state.stage == "roll":
        if isinstance(move, Roll) and 0 <= move.seed < SEED_OUTCOMES:
            return None
        return Refusal("the card's dice are rolled: a Roll with a seed is due", "2.3.7")
    if state.stage == "winter":
        return winter_refusal(state, move)
    faction = state.to_move
    if getattr(move, "faction", None) != faction and not _offer_move(state, move):
        return Refusal(f"the {faction} are to decide here", "2.3.2")
    if state.stage == "window":
        return _window_refusal(state, move)
    if state.stage == "choose":
        return _choose_refusal(state, move, checked_on)
    assert state.action is not None
    return action_refusal(state, state.action, move, checked_on)


def _offer_move(state: LodState, move: object) -> bool:
    """A Battle's follow-up is decided within the winner's action (3.6.8)."""
    action = state.action
    if state.stage != "action" or action is None:
        return False
    if isinstance(move, BlockadeShift):
        return True
    return isinstance(move, Command | SpecialActivity) and any(
        o.action == move.name and o.faction == move.faction for o in action.offers
    )


def _prepare_refusal(state: LodState, move: object) -> Refusal | None:
    if not isinstance(move, Prepare):
        return Refusal("the deck is prepared first (a Prepare move)", "2.1")
    rules = state.rules
    piles = len(rules.campaigns)
    if len(move.order) != piles * 11:
        return Refusal(f"{piles} piles of 10 Event cards and a Winter Quarters card", "2.1")
    winters = [n for n in move.order if n in rules.cards and rules.is_winter(n)]
    if sorted(set(winters)) != sorted(winters) or not set(winters) <= set(rules.winter_cards):
        return Refusal("each pile has its own Winter Quarters card of the deck", "2.1")
    events = set(rules.event_cards)
    for pile in range(piles):
        cards = move.order[pile * 11 : pile * 11 + 11]
        if sum(1 for n in cards[:6] if n in winters) or sum(1 for n in cards if n in winters) != 1:
            return Refusal(f"pile {pile + 1}: its Winter Quarters card is among its bottom 5 "
                           "cards", "2.1")  # fmt: skip
        if not all(n in events for n in cards if n not in winters):
            return Refusal(f"pile {pile + 1}: Event cards of the deck only", "2.1")
    return None


def _window_refusal(state: LodState, move: object) -> Refusal | None:
    if isinstance(move, Decline):
        return None
    if not isinstance(move, Stroke):
        return Refusal("play a Brilliant Stroke or decline", "2.3.8")
    return state.stroke_refusal(move.faction, move.card, trumping=state.stroke)


def _choose_refusal(state: LodState, move: object, checked_on: CoinState | None) -> Refusal | None:
    faction = state.to_move
    if isinstance(move, Pass):
        return None
    if isinstance(move, PlayEvent):
        if not _event_allowed(state):
            return Refusal("the 2nd Eligible may execute the Event only after the 1st "
                           "executed a Command with a Special Activity", "2.3.4")  # fmt: skip
        card = state.card
        assert card is not None
        if move.event.card != card.number or getattr(card, move.event.side, None) is None:
            return Refusal(f"the card played is {card.number}, with its printed sides", "5.2")
        view = event_view(state, move.event.side, faction)
        return view.refusal(move.event) or state.event_rolls(move.event, view)
    return action_refusal(state, state.start_action(faction), move, checked_on)


def action_refusal(
    state: LodState, action: Action, move: object, checked_on: CoinState | None = None
) -> Refusal | None:
    """Why ``move`` is not the next step of ``action`` (``checked_on``: as for
    :func:`refusal`)."""
    coin = state.coin
    if isinstance(move, Done):
        if may_end(state, action):
            return None
        return Refusal("the action is not complete: its Command is still due", "2.3.4")
    if isinstance(move, BlockadeShift):
        offer = next((o for o in action.offers if o.action == "move_blockade"
                      and o.space == move.source), None)  # fmt: skip
        if offer is None:
            return Refusal(f"no Battle won in {move.source} offers a Blockade move", "3.6.8")
        return blockade_shift_refusal(coin, offer, move)
    offer = offer_taken(action, move)
    if isinstance(move, SpecialActivity):
        if offer is not None:
            if move.spaces != (offer.space,):
                return Refusal(f"the {offer.note} is in {offer.space}", offer.rule)
            return None if _accepted(state, checked_on) else special_refusal(coin, move)
        return _special_refusal(state, action, move, checked_on)
    if isinstance(move, Command) and offer is not None:  # 3.6.8's free Rally
        if _accepted(state, checked_on):
            return None
        return command_refusal(coin, move, options=state.rules.command_options)
    if isinstance(move, Command | Fight | During):
        return _command_refusal(state, action, move, checked_on)
    return Refusal("not a move of this action", "2.3.4")


def _command_refusal(
    state: LodState, action: Action, move: Command | Fight | During, checked_on: CoinState | None
) -> Refusal | None:
    command = _command_of(move)
    if action.commands <= 0:
        return Refusal("this action has no Command left", "2.3.4")
    if command.faction != action.faction:
        return Refusal(f"a Command of the {action.faction}", "2.3.4")
    if action.names is not None and command.name not in action.names:
        return Refusal(f"the Command granted is {', '.join(action.names)}", "5.3")
    if (command.name == "battle") != isinstance(move, Fight | During) and not (
        isinstance(move, During) and command.name != "battle"
    ):  # fmt: skip
        return Refusal("a Battle is given as a Fight, with its decisions", "3.6")
    if command.limited != action.limited:
        rule = "8.1" if action.faction in state.rules.nonplayers else "2.3.5"
        word = "a Limited" if action.limited else "a full"
        return Refusal(f"{word} Command is due here", rule)
    if command.free != action.free:
        return Refusal("free" if action.free else "not free: the Command is paid", "3.1.2")
    narrowed = _narrowing(state, action)
    if narrowed is not None and not narrowed(command):
        if action.spaces is not None and not within_grant(command, action.spaces):
            return Refusal(f"the grant's spaces are {list(action.spaces)}", "5.3")
        if action.declared is not None:
            return Refusal("the Command its Special Activity declared is due", "4.1")
        return Refusal("the Leader must be involved in a Limited Command", "1.10")
    # 4.1: a Special Activity during may pay its way
    if not isinstance(move, During) and not _accepted(state, checked_on):
        refused = command_refusal(state.coin, command, options=state.rules.command_options)
        if refused is not None:
            return refused
    if isinstance(move, Fight):
        for choice in move.decisions:
            if (choice.space, choice.attacker, choice.ally_pays) != (
                choice.space, command.faction, choice.space in command.allied
            ) or choice.space not in command.spaces:  # fmt: skip
                return Refusal(f"{choice.space}: the decisions do not match the Battle", "3.6")
    if isinstance(move, During):
        if action.specials <= 0:
            return Refusal("no Special Activity is left to this action", "4.1")
        try:
            special_during(state.coin, command, move.before, move.special, state.dice(),
                           state.rules.command_options)  # fmt: skip
        except IllegalMoveError as error:
            return Refusal(error.reason, error.rule)
    return None


def _special_refusal(
    state: LodState, action: Action, move: SpecialActivity, checked_on: CoinState | None
) -> Refusal | None:
    if action.specials <= 0:
        return Refusal("no Special Activity goes with this action", "2.3.5")
    if move.faction != action.faction:
        return Refusal(f"a Special Activity of the {action.faction}", "4.1")
    if action.special_names is not None and move.name not in action.special_names:
        return Refusal(f"the Special Activity granted is {', '.join(action.special_names)}", "5.3")
    if action.paired:
        if action.command is not None and not _same_command(move.command, action.command):
            return Refusal("the Special Activity goes with the Command executed", "4.1")
        if action.command is None:
            if move.command is None or move.command.faction != action.faction:
                return Refusal("a Special Activity first names the Command it goes with", "4.1")
            if action.commands <= 0:
                return Refusal("no Command is left to this action", "4.1")
    elif move.command is not None and not (
        action.slot == "stroke" and move.command.faction == action.faction
    ):  # 8.3.7: a Non-player's Stroke may match its Activity to its first Command
        return Refusal("this Special Activity is independent of any Command", "2.3.8")
    outside = action.spaces is not None and not within_grant(move, action.spaces)
    if outside and not action.paired:
        assert action.spaces is not None
        return Refusal(f"the grant's spaces are {list(action.spaces)}", "5.3")
    return None if _accepted(state, checked_on) else special_refusal(state.coin, move)
