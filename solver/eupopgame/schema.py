"""The JSON documents of an EU:PoP game as pydantic models, for their published
JSON Schemas (Draft 2020-12): a state as
:func:`~legalis.solver.eupopgame.json.state_to_json` writes it, with the map's own
:class:`~legalis.model.eupop.state.EuState` schema, and a move as
:func:`~legalis.solver.eupopgame.moves.move_to_json` writes it. The engine's
readers stay the authority: they also check what no schema can say, such as that
the choice numbers replay.

>>> sorted(state_schema()["properties"])[:4], state_schema()["$schema"] == DIALECT
(['current', 'deck', 'display', 'end'], True)
>>> MoveDocument.model_validate({"type": "roll", "seed": 3}).root
Roll(type='roll', seed=3)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from legalis.model.eupop.state import EuState
from legalis.solver.eupopgame.moves import CHOICE_KINDS, SEED_OUTCOMES
from legalis.solver.eupopgame.options import EupopOptions
from legalis.solver.eupopgame.state import STAGES
from pydantic import BaseModel, ConfigDict, Field, RootModel, create_model

__all__ = ["DIALECT", "MoveDocument", "StateDocument", "move_schema", "state_schema"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
Seed = Annotated[int, Field(ge=0, lt=SEED_OUTCOMES)]
Stage = Literal[STAGES]  # type: ignore[valid-type]
ChoiceKind = Literal[tuple(CHOICE_KINDS)]  # type: ignore[valid-type]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _options_model() -> type[BaseModel]:
    """Every option with the values it takes; a count is a whole number from 0."""
    fields: dict[str, Any] = {}
    defaults = EupopOptions().to_json()
    for name in EupopOptions.names():
        allowed = EupopOptions.allowed(name)
        if name == "nonplayers":
            kind: Any = list[str]
        elif allowed is None:
            kind = Annotated[int, Field(ge=0)]
        else:
            kind = Literal[allowed]
        fields[name] = (kind, defaults[name])
    return create_model("EupopOptions", __base__=_Closed, **fields)


class Deck(_Closed):
    """The current Age's Event Deck, top first, and the Ages still to come."""

    age: Annotated[int, Field(ge=1, le=4)]
    cards: list[str]
    ages_left: list[int]


class Slot(_Closed):
    """A place of the Event display (16.2)."""

    event: str
    face_up: bool
    taken_by: str | None


class Current(_Closed):
    """The Event being resolved: who took it from which slot, its seed, the choice
    numbers (1-based) of its steps so far."""

    event: str
    player: str
    slot: Annotated[int, Field(ge=1)]
    seed: Seed | None
    choices: list[Annotated[int, Field(ge=1)]]


class StateDocument(_Closed):
    """A state of an EU:PoP game."""

    game: Literal["eupop"]
    options: _options_model()  # type: ignore[valid-type]
    stage: Stage
    round: Annotated[int, Field(ge=1)]
    end: Literal["decks", "rounds"] | None
    map: EuState
    deck: Deck | None
    display: list[Slot]
    current: Current | None
    log: list[str]


class Prepare(_Closed):
    type: Literal["prepare"]
    age: int
    first_half: list[str]
    second_half: list[str]


class Roll(_Closed):
    type: Literal["roll"]
    seed: Seed


class Take(_Closed):
    type: Literal["take"]
    player: str
    slot: Annotated[int, Field(ge=1)]
    event: str | None


class Decide(_Closed):
    type: Literal["decide"]
    player: str
    rule: str
    kind: ChoiceKind | None = Field(  # type: ignore[valid-type]
        description="The class of the choice; null: a plain value."
    )
    choice: Any


class MoveDocument(
    RootModel[Annotated[Prepare | Roll | Take | Decide, Field(discriminator="type")]]
):
    """A move of an EU:PoP game."""


def _published(model: type[BaseModel], title: str, description: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    return {"$schema": DIALECT, **schema, "title": title, "description": description}


def state_schema() -> dict[str, Any]:
    """The JSON Schema of a game state."""
    return _published(
        StateDocument,
        "EU:PoP game state",
        "A state of an EU:PoP game (chapter 16), as EupopState.to_json "
        "writes it and EupopGame.state_from_json reads it.",
    )


def move_schema() -> dict[str, Any]:
    """The JSON Schema of a game move."""
    return _published(
        MoveDocument,
        "EU:PoP game move",
        "A move of an EU:PoP game: a chance move (prepare, roll), an Event "
        "taken from the display (take), or a step's choice (decide).",
    )
