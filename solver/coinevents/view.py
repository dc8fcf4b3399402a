"""Every legal execution of a card's Event by one Faction, whichever side is taken.

The executing Faction carries out either the unshaded or the shaded text, never
both (5.2): the view chains the two sides' lazy views
(:func:`~legalis.solver.events.legal_event_moves`), the unshaded executions first.
It counts by adding the sides' counts (neither lists its moves to count them where
it can count them), finds the n-th move in the side it falls in, and refuses a move
of another card, another Faction or a side the card does not print, citing the rule.

>>> from legalis.model.coin.deck import bundled_deck
>>> from legalis.model.coin.scenarios import load_scenario
>>> view = CardEventsView(load_scenario("fitl", "short"), bundled_deck("fitl").card(9), "us")
>>> [side.count() for side in view.sides], view.count()
([5, 1], 6)
>>> view.nth(5).side, view.refusal(view.nth(5)._replace(faction="vc")).rule
('shaded', '5.1')
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from legalis.model.coin.deck import SIDES, Card
from legalis.model.coin.state import CoinState
from legalis.model.core.views import MoveView, Refusal, Verdict
from legalis.model.errors import IllegalMoveError
from legalis.solver.events import RULE_DUAL_USE, EventMove, EventMovesView, legal_event_moves

__all__ = ["RULE_EXECUTE", "CardEventsView"]

RULE_EXECUTE = "5.1"


class CardEventsView(MoveView[EventMove]):
    """The legal executions of ``card``'s printed sides by ``faction`` on ``board``:
    ``sides`` holds one :class:`EventMovesView` per printed side, unshaded first.
    ``deadline`` (a ``time.monotonic()`` value) bounds every search of the sides."""

    def __init__(
        self, board: CoinState, card: Card, faction: str, *, deadline: float | None = None
    ) -> None:
        self.card = card
        self.faction = faction
        self.sides: tuple[EventMovesView, ...] = tuple(
            legal_event_moves(board, card, side, faction, deadline=deadline)
            for side in SIDES
            if getattr(card, side) is not None
        )

    def __iter__(self) -> Iterator[EventMove]:
        return chain.from_iterable(self.sides)

    def count(self) -> int:
        return sum(side.count() for side in self.sides)

    def __bool__(self) -> bool:
        # the first execution found depth first answers, without counting them all
        return any(next(iter(side), None) is not None for side in self.sides)

    def nth(self, index: int) -> EventMove:
        if index < 0:
            raise IndexError(index)
        rest = index
        for side in self.sides:
            ways = side.count()
            if rest < ways:
                return side.nth(rest)
            rest -= ways
        raise IndexError(index)

    def side_view(self, side: str) -> EventMovesView | None:
        """The view of the printed side ``side``; None if the card does not print it."""
        return next((view for view in self.sides if view.side_name == side), None)

    def refusal(self, move: object) -> Refusal | None:
        if not isinstance(move, EventMove):
            return Refusal("the move here is an execution of the card's Event", RULE_EXECUTE)
        if move.card != self.card.number:
            return Refusal(
                f"the card played is {self.card.number} ({self.card.title}), not {move.card}",
                RULE_EXECUTE,
            )
        if move.faction != self.faction:
            return Refusal(
                f"{self.faction} executes this card's Event, not {move.faction}", RULE_EXECUTE
            )
        view = self.side_view(move.side)
        if view is None:
            printed = " or ".join(view.side_name for view in self.sides)
            return Refusal(
                f"card {self.card.number} prints no {move.side!r} side: take {printed}",
                RULE_DUAL_USE,
            )
        return view.refusal(move)

    def justification(self, move: EventMove) -> Verdict:
        view = self.side_view(move.side)
        assert view is not None  # a legal move's side is printed
        return view.justification(move)

    def unplayable(self) -> Refusal | None:
        """Why no side may be executed at all (a Pivotal Event's precondition for
        play unmet, 5.1.4), or None when some side may."""
        refused = [side.unplayable for side in self.sides]
        if refused and all(reason is not None for reason in refused):
            return refused[0]
        return None

    def apply(self, move: EventMove) -> CoinState:
        """The board after ``move``; an illegal move raises :class:`IllegalMoveError`
        with its rule."""
        refused = self.refusal(move)
        if refused is not None:
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        view = self.side_view(move.side)
        assert view is not None  # a legal move's side is printed
        return view.apply(move)
