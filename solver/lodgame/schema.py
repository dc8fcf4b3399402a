"""The JSON documents of a whole Liberty or Death game as pydantic models: a game
state as :func:`~legalis.solver.lodgame.json.state_to_json` writes it, and a move as
:func:`~legalis.solver.lodgame.moves.move_to_json` writes it.

The move models are made from the move dataclasses themselves (``TYPES``), field by
field, as :func:`~legalis.solver.lodgame.moves.move_from_json` reads them: one
closed object per move type, told apart by ``type``; a field left at its default
may be left out. The board of a state is the COIN state document
(:func:`legalis.model.coin.schema.state_document_model`). Play never loads this
module: pydantic is for the published schemas and the clients that validate.

>>> Move = move_document_model()
>>> Move.model_validate({"type": "pass", "faction": "british"}).root.type
'pass'
>>> sorted(lod_schemas()["move"]["discriminator"]["mapping"])[:3]
['blockade_shift', 'british_supply', 'command']
"""

from __future__ import annotations

import copy
import dataclasses
import types
from functools import cache
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin, get_type_hints

from legalis.model.coin.schema import state_document_model as board_document_model
from legalis.model.core.document_models import (
    OMITTED,
    camel,
    closed_object,
    count,
    list_of,
    name_type,
    one_of,
)
from legalis.model.core.documents import SCHEMA_DIALECT
from legalis.solver.event_documents import EventMoveDocument
from legalis.solver.events import EventMove
from legalis.solver.lodgame.json import STAGES, WINTER_STEPS
from legalis.solver.lodgame.moves import TYPES
from legalis.solver.lodgame.rules import FACTIONS, option_specs
from legalis.solver.lodgame.state import CHANCE, WINTER_PHASES, Action
from pydantic import AfterValidator, BaseModel, Field, RootModel

__all__ = ["lod_schemas", "move_document_model", "state_document_model"]

FIRST_ACTIONS = ("command", "command_sa", "event")  # what the 1st Eligible did (2.3.4)
FACTION = name_type("Faction", FACTIONS)


class _Models:
    """Pydantic models made from dataclasses, each made once so that a class used
    in several places is one ``$defs`` entry."""

    def __init__(self) -> None:
        self.made: dict[type, type[BaseModel]] = {}

    def annotation(self, kind: Any) -> Any:
        """The pydantic type of a field typed ``kind``, as the move reader reads it:
        a tuple is a JSON list, a dataclass an object, an event move its document."""
        if kind is EventMove:
            return EventMoveDocument
        origin = get_origin(kind)
        parts = get_args(kind)
        if origin in (Union, types.UnionType):
            return cast(Any, Union)[tuple(self.annotation(part) for part in parts)]
        if origin is tuple:
            if len(parts) == 2 and parts[1] is Ellipsis:
                return list_of(self.annotation(parts[0]))
            return cast(Any, tuple)[tuple(self.annotation(part) for part in parts)]
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            return self.model(kind)
        if origin is Literal or kind in (str, int, bool, type(None)):
            return kind
        raise TypeError(f"no JSON form for {kind!r}")  # pragma: no cover - a new field type

    def fields(self, kind: type) -> dict[str, tuple[Any, Any]]:
        """The JSON keys of dataclass ``kind``: each field's type and default (``...``:
        required)."""
        hints = get_type_hints(kind)
        found: dict[str, tuple[Any, Any]] = {}
        for field in dataclasses.fields(kind):
            if not field.init:  # pragma: no cover - no move has one
                continue
            default = ... if field.default is dataclasses.MISSING else field.default
            found[field.name] = (self.annotation(hints[field.name]), default)
        return found

    def model(self, kind: type) -> type[BaseModel]:
        """The closed object model of dataclass ``kind``, described by its docstring."""
        if kind not in self.made:
            self.made[kind] = closed_object(kind.__name__, kind.__doc__ or "", self.fields(kind))
        return self.made[kind]


@cache
def _models() -> _Models:
    return _Models()


@cache
def move_document_model() -> type[RootModel[Any]]:
    """The model of a LoD move document: one object per move type of ``TYPES``,
    its ``type`` the name ``move_to_json`` writes.

    >>> schema = move_document_model().model_json_schema()
    >>> schema["$defs"]["RedeployMove"]["required"]
    ['type', 'faction', 'space']
    """
    models = _models()
    members: list[Any] = []
    for name, kind in TYPES.items():
        spec: dict[str, tuple[Any, Any]] = {"type": (cast(Any, Literal)[name], ...)}
        spec.update(models.fields(kind))
        members.append(closed_object(f"{camel(name)}Move", kind.__doc__ or "", spec))
    doc = "A move of a Liberty or Death game: a Faction's decision or a chance outcome."
    model: type[RootModel[Any]] = one_of("LodMove", doc, members)
    return model


def _options_model() -> type[BaseModel]:
    """The options object: each option of :func:`option_specs` with its values."""
    spec: dict[str, tuple[Any, Any, str]] = {}
    for option in option_specs():
        if option.allowed is None:  # a count, or a file name
            kind: Any = count(0) if isinstance(option.default, int) else str | None
        elif option.allowed == (True, False):
            kind = bool
        elif all(isinstance(value, tuple) for value in option.allowed):  # of the Factions
            kind = list_of(FACTION)
        else:
            kind = cast(Any, Literal)[option.allowed]
        spec[option.name] = (kind, option.default, f"{option.rule}: {option.help}")
    return closed_object(
        "LodOptions",
        "The game's rule options (docs/rules-questions.md); one left out takes its default.",
        spec,
    )


def _due_decision(item: list[str | int]) -> list[str | int]:
    if item[0] not in WINTER_STEPS or item[1] not in FACTIONS:
        raise ValueError("expected [step, Faction, ...]")
    return item


def _winter_model() -> type[BaseModel]:
    # a decision due: [step, Faction, then the step's own names and numbers]
    due = Annotated[
        list[str | int],
        Field(
            min_length=2,
            json_schema_extra={
                "prefixItems": [{"enum": list(WINTER_STEPS)}, {"enum": list(FACTIONS)}]
            },
        ),
        AfterValidator(_due_decision),
    ]
    return closed_object(
        "WinterRound",
        "The Winter Quarters Round under way (6.0): its phase, the decisions still due "
        "in it (each names its step and Faction), its number and year, and whether it "
        "is the final one.",
        {
            "phase": (cast(Any, Literal)[(*WINTER_PHASES, "start")], ...),
            "due": (list_of(due), ...),
            "number": (int, ...),
            "year": (int, ...),
            "final": (bool, ...),
        },
    )


@cache
def state_document_model() -> type[BaseModel]:
    """The model of a whole LoD game's state document; its ``board`` is the COIN
    state document of ``lod``.

    >>> schema = state_document_model().model_json_schema()
    >>> schema["properties"]["stage"]["enum"][:3], "LibertyOrDeathState" in schema["$defs"]
    (['prepare', 'roll', 'window'], True)
    """
    faction, card = FACTION, count(1)
    return closed_object(
        "LodGameState",
        "A state of a whole Liberty or Death game, as `legalis new lod` writes it: the "
        "board, the deck, the card played and the one on deck, who acted on it, the "
        "action under way and the Winter Quarters Round's progress. `to_move` and the "
        "cards' titles are written for people: the reader works them out.",
        {
            "game": (Literal["lod"], ...),
            "options": (_options_model(), ...),
            "to_move": (
                name_type("ToMove", (*FACTIONS, CHANCE, "none")),
                OMITTED,
                "Who decides next (none: the game is over)",
            ),
            "stage": (cast(Any, Literal)[STAGES], ..., "Where play stands"),
            "card": (card | None, ..., "The number of the card being played"),
            "card_title": (str | None, OMITTED),
            "on_deck": (card | None, ..., "The number of the card on deck (2.3.7)"),
            "on_deck_title": (str | None, OMITTED),
            "deck": (list_of(card), ..., "The draw deck, top card first"),
            "winters": (int, ..., "Winter Quarters Rounds played"),
            "dice_seed": (int, ..., "The seed of the card's dice (a Roll move's)"),
            "dice_drawn": (int, ..., "Dice drawn from that seed so far"),
            "first_did": (
                cast(Any, Literal)[FIRST_ACTIONS] | None,
                ...,
                "What the 1st Eligible Faction did on this card (2.3.4)",
            ),
            "acted": (list_of(faction), ..., "The Factions that acted on this card"),
            "to_ask": (list_of(faction), ..., "The Eligible Factions still to choose"),
            "window": (
                list_of(faction),
                ...,
                "The Factions still to be asked for a Brilliant Stroke (2.3.8)",
            ),
            "stroke": (
                cast(Any, tuple)[faction, str] | None,
                ...,
                "The Brilliant Stroke standing: [Faction, card name]",
            ),
            "stroke_played": (bool, ...),
            "action": (_models().model(Action) | None, ..., "The action under way"),
            "winter": (_winter_model() | None, ...),
            "result": (dict[str, Any] | None, ..., "How the game ended (null: not over)"),
            "board": (board_document_model("lod"), ..., "The pieces, markers and tracks"),
        },
    )


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    return {
        "state": {"$schema": SCHEMA_DIALECT, **state_document_model().model_json_schema()},
        "move": {"$schema": SCHEMA_DIALECT, **move_document_model().model_json_schema()},
    }


def lod_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas (Draft 2020-12) of a whole LoD game's ``state`` and ``move``
    documents, each a fresh copy to change at will.

    >>> lod_schemas()["state"]["title"]
    'LodGameState'
    """
    return copy.deepcopy(_schemas())
