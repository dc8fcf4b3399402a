"""The JSON documents of a game of one COIN event card as pydantic models, for JSON
Schema and for clients that validate before they send.

A state holds the game's options, the card, the executing Faction, the execution
carried out (a ``coin-event-move`` document) and the board (the game's COIN state
document); a move is a draw or an execution. The readers of
:mod:`legalis.solver.coinevents.state` and :mod:`legalis.solver.coinevents.moves`
stay the authority: they also check what no schema says, such as that the card is
in the deck.

>>> Move = move_document_model()
>>> Move.model_validate({"type": "draw", "card": 11}).root.card
11
>>> schema = state_document_model("fitl").model_json_schema()
>>> sorted(schema["properties"])
['board', 'card', 'executed', 'faction', 'game', 'models', 'options']
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, cast

from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.scenarios import scenario_names
from legalis.model.coin.schema import state_document_model as board_document_model
from legalis.model.core.document_models import (
    OMITTED,
    camel,
    closed_object,
    count,
    name_type,
    one_of,
)
from legalis.solver.coinevents.moves import DRAW
from legalis.solver.event_documents import EventMoveDocument
from pydantic import BaseModel, RootModel

__all__ = ["move_document_model", "state_document_model"]


def _draw_model() -> type[BaseModel]:
    return closed_object(
        "Draw",
        "The chance move that reveals the card played.",
        {
            "type": (Literal["draw"], ...),
            "card": (count(1), ..., "The number of the card drawn"),
        },
    )


@cache
def move_document_model() -> type[RootModel[Any]]:
    """A move: the draw of the card (``type`` ``draw``) or an execution of its Event
    (an event move document, which has no ``type``).

    >>> sorted(move_document_model().model_json_schema()["$defs"])[:2]
    ['Draw', 'EventMoveDocument']
    """
    assert DRAW == "draw"
    doc = "A move of a game of one event card: the card's draw or an execution of it."
    model: type[RootModel[Any]] = one_of(
        "CoinEventGameMove", doc, [_draw_model(), EventMoveDocument], tag=None
    )
    return model


@cache
def state_document_model(game: str) -> type[BaseModel]:
    """A state of the game of one ``game`` event card, as ``to_json`` writes it."""
    data = load_game_data(game)
    faction = name_type(f"{camel(game)}Faction", data.faction_ids())
    options = closed_object(
        f"{camel(game)}EventOptions",
        "The options the state was made under.",
        {
            "scenario": (name_type(f"{camel(game)}Scenario", scenario_names(game)), ...),
            "deck": (str | None, ..., "A deck TOML file; null: the bundled sample deck"),
            "card": (count(1) | None, ..., "The card played; null: drawn at random"),
            "faction": (faction | None, ..., "The executing Faction; null: the card's first"),
        },
    )
    return closed_object(
        f"{camel(game)}EventState",
        f"A {data.name} game of one event card: the card, who executes it, whether "
        "the Event has been executed, and the board.",
        {
            "game": (cast(Any, Literal)[game], ...),
            "options": (options, ...),
            "models": (str, OMITTED, "What the state models, in words"),
            "card": (count(1) | None, ..., "The card played; null until it is drawn"),
            "faction": (faction | None, ..., "The executing Faction; null until the card"),
            "executed": (EventMoveDocument | None, ..., "The execution carried out, if any"),
            "board": (board_document_model(game), ..., "The board"),
        },
    )
