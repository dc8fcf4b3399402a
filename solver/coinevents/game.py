"""A game of one COIN event card as a registered game: the card is drawn, one
Faction executes its Event, and the game ends.

:class:`CoinEventGame` is written for any COIN game whose events legalis models;
:mod:`legalis.solver.coinevents.fitl` makes it Fire in the Lake's.

>>> game = CoinEventGame("fitl", {"card": 11})
>>> state = game.new_initial_state()
>>> state.to_move, state.legal_moves().count()
('us', 475)
>>> game.describe_move(state.legal_moves().nth(400))  # doctest: +NORMALIZE_WHITESPACE
'us: shaded Event of card 11 (Reserve Divisions Mobilized): 1 us_troop in Kontum,
 1 us_troop in Pleiku-Darlac, 1 us_troop in Binh Tuy-Binh Thuan'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from legalis.model.coin.deck import SIDES, Card
from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.state import CoinState
from legalis.model.core.views import MoveView, RandomSource
from legalis.model.errors import SolverLimitError
from legalis.solver.coinevents.moves import Draw, Move, move_from_json, move_to_json
from legalis.solver.coinevents.options import EventOptions, EventRules
from legalis.solver.coinevents.state import MODELS, CoinEventState, state_from_json
from legalis.solver.events import EventMove, describe_steps

__all__ = ["GREEDY_SAMPLE", "SEAT_KINDS", "CoinEventGame", "Margins"]

SEAT_KINDS = ("random", "greedy", "human")
GREEDY_SAMPLE = 12  # executions the greedy seat weighs when there are more
Margins = Callable[[CoinState], Mapping[str, int]]
"""Each Faction's victory margin on a board, where the game models victory."""


class CoinEventGame:
    """One card of the COIN game ``game`` (``"fitl"``, ``"lod"``), with its options
    (:class:`EventOptions`). ``margins`` gives the Factions' victory margins, which
    the greedy seat and the summary read; without it the greedy seat takes the first
    of its sample."""

    seat_kinds: tuple[str, ...] = SEAT_KINDS

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | EventOptions | None = None,
        *,
        margins: Margins | None = None,
    ) -> None:
        data = load_game_data(game)
        self.name = game
        self.title = data.name
        self.players: tuple[str, ...] = tuple(data.faction_ids())
        self.options = (
            options
            if isinstance(options, EventOptions)
            else EventOptions.from_json(options, game=game)
        )
        self.rules = EventRules.build(game, self.options)
        self.margins = margins

    def new_initial_state(self) -> CoinEventState:
        """The scenario's set-up; the card is drawn next unless the ``card`` option
        names it, and then the executing Faction is to move."""
        return CoinEventState.opening(self.rules)

    def state_from_json(self, raw: Any, *, source: str | None = None) -> CoinEventState:
        return state_from_json(raw, self.rules, source=source)

    def move_from_json(self, raw: Any) -> Move:
        return move_from_json(raw)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of a state (as ``to_json`` writes it) and of a move."""
        from legalis.model.core.documents import SCHEMA_DIALECT
        from legalis.solver.coinevents.schema import move_document_model, state_document_model

        return {
            "state": {"$schema": SCHEMA_DIALECT,
                      **state_document_model(self.name).model_json_schema()},
            "move": {"$schema": SCHEMA_DIALECT, **move_document_model().model_json_schema()},
        }  # fmt: skip

    # ------------------------------------------------------------------ people

    def _title(self, number: int) -> str:
        found = [card.title for card in self.rules.deck.cards if card.number == number]
        return f" ({found[0]})" if found else ""

    def describe_move(self, move: Move) -> str:
        """One line for people, e.g. ``us: unshaded Event of card 11 (...): 2 us_troop
        in Saigon, 2 us_troop in Hue``."""
        if isinstance(move, Draw):
            return f"chance: card {move.card}{self._title(move.card)} is drawn"
        return (
            f"{move.faction}: {move.side} Event of card {move.card}{self._title(move.card)}: "
            + describe_steps(move.steps)
        )

    def move_group(self, move: Move) -> str:
        """The heading a person's list shows the move under.

        >>> CoinEventGame("fitl").move_group(Draw(11))
        'Chance'
        """
        if isinstance(move, Draw):
            return "Chance"
        return f"Event ({move.side})"

    def describe_item(self, item: object) -> str:
        if isinstance(item, Card):
            return f"{item.number} {item.title}"
        return str(item)

    def result_of(self, state: CoinEventState) -> dict[str, Any] | None:
        """None until over; then ``winner`` (None: victory is not modelled),
        ``condition`` (``event executed`` or ``no legal execution``), the card, the
        Faction, and the side executed or why none could be."""
        return state.result

    def describe_result(self, result: dict[str, Any] | None) -> str:
        """The result of :meth:`result_of` for people.

        >>> CoinEventGame("fitl").describe_result({"winner": None, "condition":
        ...     "event executed", "card": 11, "title": "X", "side": "shaded", "faction": "us"})
        'us executed the shaded Event of card 11 (X); no winner: victory is not modelled'
        """
        if result is None:
            return "unfinished: the Event is still to be executed"
        card = f"card {result['card']} ({result['title']})"
        if result["condition"] == "event executed":
            done = f"{result['faction']} executed the {result['side']} Event of {card}"
        else:
            done = (
                f"{result['faction']} could not execute {card}: {result['reason']} "
                f"({result['rule']})"
            )
        return f"{done}; no winner: victory is not modelled"

    def summary(self, state: CoinEventState) -> dict[str, Any]:
        """Where play stands, for display: what the state models, who is to move, the
        card, the lasting effects and free actions on the board, the tracks, the
        victory margins (where modelled), and the result. ``turn`` is always 1: one
        card is played; ``phase`` is ``draw``, ``event`` or ``over``."""
        board = state.board
        card = state.card
        return {
            "game": self.name,
            "scenario": self.options.scenario,
            "models": MODELS,
            "turn": state.turn,
            "phase": state.phase,
            "to_move": state.to_move,
            "card": None if card is None else _card_summary(card),
            "faction": state.faction,
            "executed": None if state.executed is None else state.executed.side,
            "capabilities": dict(sorted(board.capabilities.items())),
            "momentum": sorted(board.momentum),
            "free_actions": [dict(grant) for grant in board.free_actions],
            "tracks": {track.id: board.track(track.id) for track in board.data.tracks},
            "support": {"total": board.total_support(), "opposition": board.total_opposition()},
            "margins": None if self.margins is None else dict(self.margins(board)),
            "result": state.result,
        }

    def render(self, state: CoinEventState, viewer: str | None = None) -> list[str]:
        """Lines for people: the scenario, the card and its sides, who executes it,
        the lasting effects in force, the free actions granted and a short board
        summary; everything is open, so ``viewer`` changes nothing."""
        info = self.summary(state)
        lines = [
            f"{self.title}, scenario {self.options.scenario} "
            f"({self.rules.scenario.title}): {_standing(state)}"
        ]
        card = info["card"]
        if card is None:
            lines.append(f"  card: not drawn yet ({len(self.rules.draw_pile)} to draw from)")
        else:
            order = ", ".join(card["factions"])
            lines.append(f"  card {card['number']} {card['title']} (Faction order: {order})")
            lines += [f"    {side}: {card[side]}" for side in SIDES if card[side] is not None]
            lines.append(f"  executing Faction: {info['faction']}")
        capabilities = [f"{name} ({side})" for name, side in info["capabilities"].items()]
        lines.append("  Capabilities in force: " + (", ".join(capabilities) or "none"))
        lines.append("  Momentum in force: " + (", ".join(info["momentum"]) or "none"))
        for grant in info["free_actions"]:
            lines.append(
                f"  free {grant['action']} ({grant['kind']}) granted to {grant['faction']}"
                " (recorded, not carried out)"
            )
        lines.append("  " + ", ".join(f"{name} {value}" for name, value in info["tracks"].items()))
        lines.append(f"  pieces on the map: {_pieces_on_map(state.board)}")
        support = info["support"]
        lines.append(
            f"  Total Support {support['total']}, Total Opposition {support['opposition']}"
        )
        if info["margins"] is not None:
            margins = ", ".join(f"{f} {m:+d}" for f, m in info["margins"].items())
            lines.append(f"  victory margins: {margins}")
        lines.append(f"  models: {MODELS}")
        return lines

    # ------------------------------------------------------------------ greedy

    def greedy_move(self, state: CoinEventState, rng: RandomSource) -> Move:
        """The card draw at chance; else, of up to 12 executions drawn at random (all
        of them when there are no more), the one after which the executing Faction's
        victory margin is highest, ties going to the first in the view's order. A
        game without margins takes the first of the sample; a view too large to
        count, its first execution."""
        if state.is_chance:
            return state.sample_chance(rng)
        view: MoveView[EventMove] = state.legal_moves()
        try:
            total = view.count()
        except SolverLimitError:
            return next(iter(view))
        if total <= GREEDY_SAMPLE:
            picks = list(range(total))
        else:
            picks = sorted({rng.randrange(total) for _ in range(GREEDY_SAMPLE)})
        moves = [view.nth(index) for index in picks]
        if self.margins is None or len(moves) == 1:
            return moves[0]
        faction = state.to_move
        margins = self.margins
        return max(moves, key=lambda move: margins(state.apply(move).board)[faction])


def _card_summary(card: Card) -> dict[str, Any]:
    return {
        "number": card.number,
        "title": card.title,
        "kind": card.kind,
        "factions": list(card.factions),
        **{side: getattr(card, side).text if getattr(card, side) else None for side in SIDES},
    }


def _standing(state: CoinEventState) -> str:
    if state.is_chance:
        return "the card is to be drawn"
    result = state.result
    if result is None:
        return f"{state.to_move} to execute the Event"
    if result["condition"] == "event executed":
        return f"{result['faction']} executed the {result['side']} Event; over"
    return f"no legal execution ({result['rule']}); over"


def _pieces_on_map(board: CoinState) -> str:
    """Each Faction's pieces on the map and Available, e.g. ``us 30 (10 Available)``."""
    factions = board.rules.faction_ids
    on_map = dict.fromkeys(factions, 0)
    for space in board.rules.spaces:
        for faction in factions:
            on_map[faction] += board.faction_pieces(space, faction)
    available = dict.fromkeys(factions, 0)
    for piece in board.data.pieces:
        available[piece.faction] += board.available(piece.id)
    return ", ".join(f"{f} {on_map[f]} ({available[f]} Available)" for f in factions)
