"""The Seven Years War as a registered game.

>>> game = SevenYearsGame()
>>> state = game.new_initial_state()
>>> game.name, state.to_move
('sevenyears', 'chance')
"""

from __future__ import annotations

from typing import Any

from legalis.model.core.documents import SCHEMA_DIALECT
from legalis.model.core.views import RandomSource
from legalis.model.sevenyears.data import PLAYERS, SevenYearsData, area_key, load_data
from legalis.model.sevenyears.heuristics import greedy_move
from legalis.model.sevenyears.moves import (
    CHANCE_MOVES,
    DifficultyDiscard,
    ExecuteDiscard,
    Lay,
    Move,
    Pass,
    PlayEffect,
    describe,
    move_from_json,
    move_to_json,
)
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.state import SevenYearsState, rules_for, state_from_json


class SevenYearsGame:
    """The Seven Years War card game with one set of rule options."""

    name = "sevenyears"
    title = "The Seven Years War"
    players = PLAYERS
    seat_kinds: tuple[str, ...] = ("random", "greedy", "human")

    def __init__(
        self, options: SevenYearsOptions | None = None, data: SevenYearsData | None = None
    ) -> None:
        self.options = options or SevenYearsOptions()
        self.data = data or load_data()
        self._rules = rules_for(self.data, self.options)

    def new_initial_state(self) -> SevenYearsState:
        """The opening position: the 88 cards wait for the first shuffle."""
        return SevenYearsState.opening(self._rules)

    def state_from_json(self, raw: Any, *, source: str | None = None) -> SevenYearsState:
        return state_from_json(raw, source=source, data=self.data)

    def move_from_json(self, raw: Any) -> Move:
        return move_from_json(raw, self.data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move, self.data)

    def describe_move(self, move: Move) -> str:
        return describe(move, self.data)

    def move_group(self, move: Move) -> str:
        """The heading a person's list shows the move under: its phase and kind.

        >>> SevenYearsGame().move_group(Pass(0))
        'Pass'
        """
        if isinstance(move, CHANCE_MOVES):
            return "Chance"
        return {
            ExecuteDiscard: "Execute: discard and draw",
            PlayEffect: "Turmoil: play an effect card",
            Lay: "Conflict: lay a card",
            Pass: "Pass",
            DifficultyDiscard: "Difficulty: discard a card",
        }[type(move)]

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of a state document and of a move document, for this game's
        cards (:mod:`legalis.model.sevenyears.schema`).

        >>> found = SevenYearsGame().schemas()
        >>> found["state"]["title"], sorted(found["move"]["discriminator"]["mapping"])[-1]
        ('SevenYearsState', 'shuffle')
        """
        # pydantic builds the schemas; play never needs it, so it loads only here
        from legalis.model.sevenyears.schema import move_document_model, state_document_model

        documents = {
            "state": state_document_model(self.data),
            "move": move_document_model(self.data),
        }
        return {
            kind: {"$schema": SCHEMA_DIALECT, **model.model_json_schema()}
            for kind, model in documents.items()
        }

    def greedy_move(self, state: SevenYearsState, rng: RandomSource) -> Any:
        return greedy_move(state, rng)

    def result_of(self, state: SevenYearsState) -> dict[str, Any] | None:
        """``{"winner": "british" | "french" | None, "condition": ...}`` once over."""
        if state.result is None:
            return None
        winner, condition = state.result
        return {"winner": PLAYERS[winner] if winner >= 0 else None, "condition": condition}

    def describe_result(self, result: dict[str, Any] | None) -> str:
        """The result of :meth:`result_of` for people.

        >>> SevenYearsGame().describe_result({"winner": "french", "condition": "medals"})
        'french wins on medals'
        """
        if result is None:
            return "unfinished"
        if result["winner"] is None:
            return "a draw (campaigns and medals tied)"
        how = {
            "europe": "by winning the European Campaign",
            "colonies": "on colonial campaigns won",
            "medals": "on medals",
        }[result["condition"]]
        return f"{result['winner']} wins {how}"

    def describe_item(self, item: object) -> str:
        """A card of a hand, for people: ``Forts (4, any, any area)``."""
        card = self.data.cards[int(item)]  # type: ignore[call-overload]
        value = card.effect or str(card.force) + ("*" if card.difficulty else "")
        return f"{card.name} ({value} {card.use} {card.location})"

    def render(self, state: SevenYearsState, viewer: str | None = None) -> list[str]:
        """Lines for people: turn, medals and cards laid per area, and ``viewer``'s hand."""
        lines = [
            f"Turn {state.turn} of {self.data.turns}, {state.phase} phase; {state.to_move} to move"
        ]
        for index, area in enumerate(self.data.areas):
            owner = state.closed[index]
            won = f" won by {PLAYERS[owner]}" if owner >= 0 else ""
            laid = ", ".join(
                f"{PLAYERS[p][0].upper()}:{self.data.cards[c].name}"
                for _, p, c in state.grid[index]
            )
            lines.append(
                f"  {area.name:<14} medals B {state.medals[0][index]} "
                f"F {state.medals[1][index]}{won}" + (f"  laid: {laid}" if laid else "")
            )
        if viewer in PLAYERS:
            hand = sorted(state.hands[PLAYERS.index(viewer)])
            lines.append(
                f"  {viewer} hand: " + "; ".join(self.describe_item(card) for card in hand)
            )
        return lines

    def summary(self, state: SevenYearsState) -> dict[str, Any]:
        """Turn, phase, medals per area and won Campaigns, for display."""
        keys = [area_key(area) for area in self.data.areas]
        return {
            "turn": state.turn,
            "phase": state.phase,
            "to_move": state.to_move,
            "medals": {PLAYERS[p]: dict(zip(keys, state.medals[p], strict=True)) for p in (0, 1)},
            "campaigns": {
                keys[a]: (PLAYERS[o] if o >= 0 else None) for a, o in enumerate(state.closed)
            },
            "hand_sizes": {PLAYERS[p]: len(state.hands[p]) for p in (0, 1)},
            "deck": len(state.deck),
            "discard": len(state.discard),
            "result": self.result_of(state),
        }
