"""The JSON document of an event move, for JSON Schema and the HTTP API's bodies.

Play reads moves with :func:`~legalis.solver.events.event_move_from_json`; this model
describes the same document at the edge.
"""

from __future__ import annotations

from typing import Annotated, Literal

from legalis.model.core.documents import prose_description
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

AtomDocument = tuple[StrictStr, StrictStr, Annotated[StrictInt, Field(ge=1)]]
"""One ``[space, piece type, count]`` of a piece decision."""
OptionDocument = Annotated[StrictInt, Field(ge=0)]
"""The number of the option picked at a choice."""


class EventMoveDocument(BaseModel):
    """An event move as JSON, as EventMove.to_json writes it and event_move_from_json
    reads it: per decision, the [space, piece type, count] triples chosen, or the
    number of the option picked.

    >>> move = {"card": 1, "side": "shaded", "faction": "patriots", "steps": [0]}
    >>> move["steps"].append([["Boston", "militia", 1]])
    >>> EventMoveDocument.model_validate(move).steps
    [0, [('Boston', 'militia', 1)]]
    >>> move["steps"][1][0][2] = 0  # a count of no pieces
    >>> EventMoveDocument.model_validate(move)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 2 validation errors for EventMoveDocument
    ...
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra=prose_description)

    card: StrictInt = Field(ge=1, description="The event card's number.")
    side: Literal["unshaded", "shaded"]
    faction: StrictStr = Field(min_length=1, description="The executing Faction's id.")
    steps: list[OptionDocument | list[AtomDocument]]
