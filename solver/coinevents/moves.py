"""The moves of a game of one COIN event card: the chance draw of the card, then
one execution of its Event (:class:`~legalis.solver.events.EventMove`), and their JSON.

A draw is written ``{"type": "draw", "card": 11}``; an execution as
:meth:`EventMove.to_json <legalis.solver.events.EventMove.to_json>` writes it (no
``type``: the document of ``coin-event-move``).

>>> move_from_json({"type": "draw", "card": 11})
Draw(card=11)
>>> move = move_from_json({"card": 11, "side": "shaded", "faction": "us", "steps": [0]})
>>> move.side, move_to_json(move) == {"card": 11, "side": "shaded", "faction": "us", "steps": [0]}
('shaded', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from legalis.model.errors import InputError
from legalis.solver.events import EventMove, event_move_from_json

__all__ = ["DRAW", "Draw", "Move", "move_from_json", "move_to_json"]

DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Draw:
    """The chance move that reveals the card played: its number.

    >>> Draw(11).to_json()
    {'type': 'draw', 'card': 11}
    """

    card: int

    def to_json(self) -> dict[str, Any]:
        return {"type": DRAW, "card": self.card}


Move = Draw | EventMove


def move_from_json(raw: Any, *, path: str = "move") -> Move:
    """A draw (an object with ``"type": "draw"``) or an execution of the Event (an
    event move object); malformed input is an :class:`InputError` naming the field.

    >>> move_from_json({"type": "draw", "card": "11"})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: move.card: expected a card number (1 or more), got '11'
    """
    if isinstance(raw, dict) and "type" in raw:
        if raw["type"] != DRAW:
            raise InputError(
                f"unknown move type {raw['type']!r} (an Event's execution has no type)",
                path=f"{path}.type",
                allowed=[DRAW],
            )
        for key in raw:
            if key not in ("type", "card"):
                raise InputError(
                    f"unknown field {key!r}", path=f"{path}.{key}", allowed=["type", "card"]
                )
        card = raw.get("card")
        if not isinstance(card, int) or isinstance(card, bool) or card < 1:
            raise InputError(
                f"expected a card number (1 or more), got {card!r}", path=f"{path}.card"
            )
        return Draw(card)
    return event_move_from_json(raw, path=path)


def move_to_json(move: Move) -> dict[str, Any]:
    """The JSON of a move, which :func:`move_from_json` reads back to the same move."""
    return move.to_json()
