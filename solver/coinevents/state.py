"""The state of a game of one COIN event card: the board, the card, who executes
its Event, and whether it has been.

Play goes: the card is drawn (a chance move, unless the ``card`` option names it),
then the executing Faction carries out one side of its Event (5.1-5.2), and the
game is over. Capabilities (5.3) and Momentum (5.4) the Event plays are in force
on the board afterwards; free Operations and Special Activities it grants (5.5)
are recorded on the board, not carried out.

>>> from legalis.solver.coinevents.options import EventOptions, EventRules
>>> import random
>>> state = CoinEventState.opening(EventRules.build("fitl", EventOptions("short")))
>>> state.to_move, state.is_chance
('chance', True)
>>> state.play(state.sample_chance(random.Random(3)))
>>> state.to_move, state.card.number, state.legal_moves().count()
('nva', 32, 5)
>>> state.play(state.legal_moves().nth(0))
>>> state.is_over, state.to_move, state.result["condition"]
(True, 'none', 'event executed')
"""

from __future__ import annotations

from typing import Any

from legalis.model.coin.deck import SIDES, Card
from legalis.model.coin.state import CoinState
from legalis.model.coin.state import state_from_json as board_from_json
from legalis.model.core.views import ListView, MoveView, RandomSource, Refusal
from legalis.model.errors import IllegalMoveError, InputError, reading
from legalis.solver.coinevents.moves import Draw, Move
from legalis.solver.coinevents.options import RULE_PIVOTAL, EventRules
from legalis.solver.coinevents.view import RULE_EXECUTE, CardEventsView
from legalis.solver.events import EventMove, event_move_from_json

__all__ = ["CHANCE", "MODELS", "NOBODY", "RULE_DRAW", "CoinEventState", "state_from_json"]

CHANCE = "chance"
NOBODY = "none"  # who is to move once the game is over
RULE_DRAW = "2.2"  # the card played is the one revealed from the deck
MODELS = (
    "one side of one card's Event, executed by one Faction (rules 5.1-5.5): free "
    "Operations and Special Activities the Event grants are recorded, not carried out; "
    "the Sequence of Play, Operations, Special Activities, Coup Rounds and victory are "
    "not modelled"
)
"""What the state models, as its JSON and its summary say it."""
_FIELDS = ("game", "options", "models", "card", "faction", "executed", "board")


class CoinEventState:
    """One position of a game of one event card.

    - ``rules``: the options and what they load (:class:`EventRules`), shared by copies;
    - ``board``: the COIN board (:class:`CoinState`), the scenario's set-up until the
      Event is executed, then the board after it;
    - ``card_number``: the card played, or None until it is drawn;
    - ``faction``: the Faction id executing the card's Event, once the card is known;
    - ``executed``: the execution carried out (an :class:`EventMove`), or None.
    """

    __slots__ = ("_view", "board", "card_number", "executed", "faction", "rules")

    def __init__(
        self,
        rules: EventRules,
        board: CoinState,
        card_number: int | None = None,
        faction: str | None = None,
        executed: EventMove | None = None,
    ) -> None:
        self.rules = rules
        self.board = board
        self.card_number = card_number
        self.faction = faction
        self.executed = executed
        self._view: CardEventsView | None = None  # the executions here, kept once made

    @classmethod
    def opening(cls, rules: EventRules) -> CoinEventState:
        """The scenario's set-up with the card the ``card`` option names, or none yet."""
        state = cls(rules, rules.scenario.state.copy())
        number = rules.options.card
        if number is not None:
            state.card_number = number
            state.faction = rules.executing_faction(rules.card(number))
        return state

    # ------------------------------------------------------------------ who moves

    @property
    def game(self) -> str:
        """The COIN game's id (``"fitl"``)."""
        return self.rules.game

    @property
    def turn(self) -> int:
        """Always 1: one card is played."""
        return 1

    @property
    def phase(self) -> str:
        """Where play stands: ``draw`` (the card is to be drawn), ``event`` (its Event
        is to be executed) or ``over``."""
        if self.is_chance:
            return "draw"
        return "over" if self.is_over else "event"

    @property
    def card(self) -> Card | None:
        """The card played, once known."""
        return None if self.card_number is None else self.rules.card(self.card_number)

    @property
    def is_chance(self) -> bool:
        """Whether the card is still to be drawn (the only chance move)."""
        return self.card_number is None

    @property
    def is_over(self) -> bool:
        """Whether the Event has been executed, or the card has no legal execution."""
        if self.executed is not None:
            return True
        return not self.is_chance and not self._events()

    @property
    def to_move(self) -> str:
        """``"chance"`` until the card is drawn, then the executing Faction's id, and
        ``"none"`` once the game is over."""
        if self.is_chance:
            return CHANCE
        if self.is_over:
            return NOBODY
        assert self.faction is not None
        return self.faction

    @property
    def result(self) -> dict[str, Any] | None:
        """None until over; then who won (nobody: no victory is modelled), how it ended,
        the card and the Faction, and the side executed or why none could be."""
        if not self.is_over:
            return None
        card = self.card
        assert card is not None
        found: dict[str, Any] = {"winner": None, "card": card.number, "title": card.title}
        if self.executed is not None:
            return found | {
                "condition": "event executed",
                "side": self.executed.side,
                "faction": self.executed.faction,
                "rule": RULE_EXECUTE,
            }
        refused = self._events().unplayable()
        return found | {
            "condition": "no legal execution",
            "faction": self.faction,
            "reason": refused.reason if refused else "no execution can be carried out",
            "rule": refused.rule if refused else RULE_EXECUTE,
        }

    # ------------------------------------------------------------------ moves

    def _events(self, deadline: float | None = None) -> CardEventsView:
        if deadline is not None:
            return self._events_view(deadline)
        if self._view is None:
            self._view = self._events_view(None)
        return self._view

    def _events_view(self, deadline: float | None) -> CardEventsView:
        card = self.card
        assert card is not None and self.faction is not None
        return CardEventsView(self.board, card, self.faction, deadline=deadline)

    def legal_moves(self, *, deadline: float | None = None) -> MoveView[Any]:
        """The draws of the card while it is unknown, then every legal execution of
        either side of its Event by the executing Faction (a lazy view), and nothing
        once the game is over. ``deadline`` bounds the executions' searches."""
        if self.is_chance:
            pile = self.rules.draw_pile
            return ListView([Draw(number) for number in pile], self._draw_refusal)
        if self.executed is not None:
            return ListView([], self._over_refusal)
        return self._events(deadline)

    def _draw_refusal(self, move: object) -> Refusal | None:
        if not isinstance(move, Draw):
            return Refusal("the card is drawn first", RULE_DRAW)
        if move.card in self.rules.draw_pile:
            return None
        number = move.card
        known = [card.number for card in self.rules.deck.cards]
        if number in known and self.rules.card(number).kind == "pivotal":
            return Refusal(
                f"card {number} is a Pivotal Event, held by its Faction, not drawn", RULE_PIVOTAL
            )
        return Refusal(f"card {number} is not among the cards drawn here", RULE_DRAW)

    def _over_refusal(self, move: object) -> Refusal | None:
        return Refusal("the Event has been executed: nothing more is played", RULE_EXECUTE)

    def play(self, move: Move) -> None:
        """Carry out ``move`` on this state; an illegal move raises
        :class:`IllegalMoveError` with the rule that refuses it."""
        view = self.legal_moves()
        refused = view.refusal(move)
        if refused is not None:
            raise IllegalMoveError(refused.reason, rule=refused.rule)
        if isinstance(move, Draw):
            self.card_number = move.card
            self.faction = self.rules.executing_faction(self.rules.card(move.card))
        else:
            assert isinstance(view, CardEventsView)
            self.board = view.apply(move)
            self.executed = move
        self._view = None

    def apply(self, move: Move) -> CoinEventState:
        """The state after ``move``, this one unchanged."""
        after = self.copy()
        after._view = self._view  # the board is not changed in place: the view still holds
        after.play(move)
        return after

    def sample_chance(self, rng: RandomSource) -> Draw:
        """The card drawn: one of the draw pile, each equally likely."""
        if not self.is_chance:
            raise IllegalMoveError("no chance move is due: the card is known", rule=RULE_DRAW)
        pile = self.rules.draw_pile
        return Draw(pile[rng.randrange(len(pile))])

    # ------------------------------------------------------------------ copies and JSON

    def copy(self) -> CoinEventState:
        return CoinEventState(
            self.rules, self.board.copy(), self.card_number, self.faction, self.executed
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CoinEventState):
            return NotImplemented
        return (
            self.rules.options == other.rules.options
            and self.card_number == other.card_number
            and self.faction == other.faction
            and self.executed == other.executed
            and self.board == other.board
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: play changes it

    def __repr__(self) -> str:
        return (
            f"<CoinEventState {self.rules.game} card={self.card_number} "
            f"faction={self.faction} executed={self.executed is not None}>"
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON; :func:`state_from_json` reads it back exactly."""
        return {
            "game": self.rules.game,
            "options": self.rules.options.to_json(),
            "models": MODELS,
            "card": self.card_number,
            "faction": self.faction,
            "executed": None if self.executed is None else self.executed.to_json(),
            "board": self.board.to_json(),
        }

    def invariant_problems(self) -> list[str]:
        """Every broken invariant as ``path: problem (rule)``; empty when sound."""
        problems = [f"board.{problem}" for problem in self.board.invariant_problems()]
        if self.card_number is None:
            if self.faction is not None or self.executed is not None:
                problems.append("card: a Faction executes only once the card is known (5.1)")
            return problems
        problems += _card_problems(self)
        return problems


def _card_problems(state: CoinEventState) -> list[str]:
    """What is wrong with the card, the Faction and the execution of ``state``."""
    rules, number = state.rules, state.card_number
    if number not in {card.number for card in rules.deck.cards}:
        return [f"card: no card {number} in this deck"]
    card = rules.card(number)
    problems = []
    if rules.options.card is not None and number != rules.options.card:
        problems.append(f"card: the card option names card {rules.options.card}")
    if state.faction is None:
        problems.append(
            f"faction: card {number} is known, but not who executes it ({RULE_EXECUTE})"
        )
    elif state.faction not in card.factions:
        problems.append(f"faction: card {number} does not list {state.faction} ({RULE_EXECUTE})")
    elif rules.options.faction is not None and state.faction != rules.options.faction:
        problems.append(f"faction: the faction option names {rules.options.faction}")
    executed = state.executed
    if executed is None:
        refused = rules.unplayable(state.board, card)
        if refused is not None:
            problems.append(f"card: {refused}")
    elif (executed.card, executed.faction) != (number, state.faction):
        problems.append(f"executed: not card {number} executed by {state.faction} (5.1)")
    elif executed.side not in SIDES or getattr(card, executed.side) is None:
        problems.append(f"executed.side: card {number} prints no {executed.side!r} side (5.2)")
    return problems


def state_from_json(raw: Any, rules: EventRules, *, source: str | None = None) -> CoinEventState:
    """The state :meth:`CoinEventState.to_json` wrote, under ``rules``; a bad field is
    an :class:`InputError` naming its path (and ``source``, the file).

    >>> from legalis.solver.coinevents.options import EventOptions
    >>> rules = EventRules.build("fitl", EventOptions("short"))
    >>> raw = CoinEventState.opening(rules).to_json() | {"card": 8, "faction": "nva"}
    >>> state_from_json(raw, rules)
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: state: card: card 8 is the nva Pivotal Event, which is not available here (5.1.4)
    """  # noqa: E501
    with reading(source):
        return _read(raw, rules, "state")


def _read(raw: Any, rules: EventRules, path: str) -> CoinEventState:
    if not isinstance(raw, dict):
        raise InputError("expected an object", path=path)
    if raw.get("game") != rules.game:
        raise InputError(
            f"not a state of this game (game {raw.get('game')!r})",
            path=f"{path}.game",
            allowed=[rules.game],
        )
    for key in raw:
        if key not in _FIELDS:
            raise InputError(f"unknown field {key!r}", path=f"{path}.{key}", allowed=_FIELDS)
    for key in ("options", "card", "faction", "executed", "board"):
        if key not in raw:
            raise InputError("missing field", path=f"{path}.{key}")
    if raw["options"] != rules.options.to_json():
        raise InputError(
            "the state was written under other options: load the game with the state's own",
            path=f"{path}.options",
        )
    if not isinstance(raw.get("models", ""), str):
        raise InputError("expected a sentence", path=f"{path}.models")
    card = raw["card"]
    if card is not None:
        if not isinstance(card, int) or isinstance(card, bool):
            raise InputError(f"expected a card number or null, got {card!r}", path=f"{path}.card")
        rules.card(card, path=f"{path}.card")
    faction = raw["faction"]
    if faction is not None and faction not in rules.scenario.state.rules.faction_ids:
        raise InputError(
            f"unknown Faction {faction!r}",
            path=f"{path}.faction",
            allowed=rules.scenario.state.rules.faction_ids,
        )
    executed = raw["executed"]
    move = None if executed is None else event_move_from_json(executed, path=f"{path}.executed")
    state = CoinEventState(rules, _board(raw["board"], rules.game, f"{path}.board"), card, faction)
    state.executed = move
    problems = state.invariant_problems()
    if problems:
        raise InputError(problems[0], path=path)
    return state


def _board(raw: Any, game: str, path: str) -> CoinState:
    try:
        return board_from_json(raw, game)
    except InputError as error:
        inner = f"{path}.{error.path}" if error.path else path
        raise InputError(error.message, path=inner, allowed=error.allowed) from error
