"""The moves of a whole Liberty or Death game, and their JSON.

A move is a frozen dataclass: the chance moves that prepare the deck (2.1) and
roll a card's dice, the Sequence of Play's own moves (Pass, a Brilliant Stroke
played or declined, an Event executed, an action ended), and the moves of the
model that a decision takes as they are: a Command, a Special Activity, a
Blockade move after a Battle, and each Winter Quarters choice. JSON names the
type in ``"type"`` and gives the fields; :func:`move_from_json` reads it back,
every field checked against its type.

>>> move = Pass("patriots")
>>> move_to_json(move)
{'type': 'pass', 'faction': 'patriots'}
>>> move_from_json(move_to_json(move)) == move
True
>>> move_from_json({"type": "pass", "faction": 3})
Traceback (most recent call last):
legalis.model.errors.InputError: move.faction: expected a string, got 3
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from legalis.model.errors import InputError
from legalis.model.lod.battle import BattleChoice, BlockadeShift
from legalis.model.lod.command_base import Command
from legalis.model.lod.special import SpecialActivity
from legalis.model.lod.supply import (
    BritishSupply,
    FrenchSupply,
    IndianSupply,
    PatriotSupply,
    WestIndiesBattle,
    WestIndiesUpkeep,
)
from legalis.model.lod.winter import Desertion, NavalWithdrawal, SupportSpending
from legalis.solver.events import EventMove, event_move_from_json

__all__ = [
    "Decline",
    "Done",
    "During",
    "Fight",
    "LodMove",
    "Pass",
    "PlayEvent",
    "Prepare",
    "Redeploy",
    "Roll",
    "Skip",
    "Stroke",
    "move_from_json",
    "move_to_json",
]


@dataclass(frozen=True)
class Prepare:
    """Chance (2.1 Deck Preparation): the draw deck, top card first, by card number;
    the Winter Quarters cards lie in it where the shuffle put them."""

    order: tuple[int, ...]


@dataclass(frozen=True)
class Roll:
    """Chance: the seed of every die rolled while this card is played (Battles,
    Naval Pressure, Trade, an Event's roll, the Winter Quarters Round's)."""

    seed: int


@dataclass(frozen=True)
class Pass:
    """2.3.3: the Faction Passes, gains its Resources and stays Eligible."""

    faction: str


@dataclass(frozen=True)
class Stroke:
    """2.3.8-2.3.9: the Faction plays a Brilliant Stroke card it holds (``card``: its
    name, as ``"Treaty of Alliance"``), cancelling the card or Trumping a Stroke."""

    faction: str
    card: str


@dataclass(frozen=True)
class Decline:
    """The Faction lets the moment to play a Brilliant Stroke go by."""

    faction: str


@dataclass(frozen=True)
class PlayEvent:
    """2.3.4: the Faction executes the card's Event, every choice of it made."""

    event: EventMove

    @property
    def faction(self) -> str:
        return self.event.faction


@dataclass(frozen=True)
class Fight:
    """A Battle Command (3.6) with the sides' decisions in each space (none given:
    no Activations, no overflow shifts); its dice come from the card's roll."""

    command: Command
    decisions: tuple[BattleChoice, ...] = ()

    @property
    def faction(self) -> str:
        return self.command.faction


@dataclass(frozen=True)
class During:
    """4.1: a Command carried out in its ``before`` spaces, then ``special``, then in
    its other spaces."""

    command: Command
    before: tuple[str, ...]
    special: SpecialActivity

    @property
    def faction(self) -> str:
        return self.command.faction


@dataclass(frozen=True)
class Done:
    """The Faction ends its action: no (more) Special Activity or follow-up."""

    faction: str


@dataclass(frozen=True)
class Skip:
    """The Faction does not take a free action an Event or a Brilliant Stroke grants."""

    faction: str


@dataclass(frozen=True)
class Redeploy:
    """6.5.2: the Faction's Leader goes to ``space`` (or stays where it is)."""

    faction: str
    space: str


LodMove = Union[  # noqa: UP007  (a runtime union of classes, read by the JSON codec)
    Prepare, Roll, Pass, Stroke, Decline, PlayEvent, Fight, During, Done, Skip, Redeploy,
    Command, SpecialActivity, BlockadeShift, BritishSupply, PatriotSupply, FrenchSupply,
    IndianSupply, WestIndiesBattle, WestIndiesUpkeep, SupportSpending, NavalWithdrawal,
    Desertion,
]  # fmt: skip

TYPES: dict[str, type] = {
    "prepare": Prepare, "roll": Roll, "pass": Pass, "stroke": Stroke, "decline": Decline,
    "event": PlayEvent, "fight": Fight, "during": During, "done": Done, "skip": Skip,
    "redeploy": Redeploy, "command": Command, "special_activity": SpecialActivity,
    "blockade_shift": BlockadeShift, "british_supply": BritishSupply,
    "patriot_supply": PatriotSupply, "french_supply": FrenchSupply,
    "indian_supply": IndianSupply, "west_indies_battle": WestIndiesBattle,
    "west_indies_upkeep": WestIndiesUpkeep, "support": SupportSpending,
    "naval_withdrawal": NavalWithdrawal, "desertion": Desertion,
}  # fmt: skip
TYPE_NAMES = {kind: name for name, kind in TYPES.items()}


def move_to_json(move: Any) -> dict[str, Any]:
    """The move as JSON: ``{"type": ..., field: value, ...}`` (defaults left out)."""
    name = TYPE_NAMES.get(type(move))
    if name is None:
        raise InputError(f"not a LoD move: {type(move).__name__}", path="move",
                         allowed=sorted(TYPES))  # fmt: skip
    return {"type": name, **_fields(move)}


def _fields(value: Any) -> dict[str, Any]:
    if isinstance(value, EventMove):
        return value.to_json()
    return {
        field.name: _encode(getattr(value, field.name))
        for field in dataclasses.fields(value)
        if getattr(value, field.name) != field.default
    }


def _encode(value: Any) -> Any:
    if isinstance(value, EventMove) or dataclasses.is_dataclass(value):
        return _fields(value)
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def move_from_json(raw: Any, *, path: str = "move") -> Any:
    """The move written by :func:`move_to_json`; anything else is an InputError
    naming the field."""
    if not isinstance(raw, dict):
        raise InputError(f"expected an object, got {type(raw).__name__}", path=path)
    name = raw.get("type")
    if name not in TYPES:
        raise InputError(f"unknown move type {name!r}", path=f"{path}.type",
                         allowed=sorted(TYPES))  # fmt: skip
    body = {key: value for key, value in raw.items() if key != "type"}
    return _decode(TYPES[name], body, path)


def _decode(kind: Any, raw: Any, path: str) -> Any:
    if kind is EventMove:
        return event_move_from_json(raw, path=path)
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = get_args(kind)
        if raw is None and type(None) in options:
            return None
        (other,) = [option for option in options if option is not type(None)]
        return _decode(other, raw, path)
    if origin is tuple:
        return _decode_tuple(get_args(kind), raw, path)
    if origin is Literal:
        if raw not in get_args(kind):
            raise InputError(f"expected one of {list(get_args(kind))}, got {raw!r}", path=path)
        return raw
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _decode_dataclass(kind, raw, path)
    return _decode_scalar(kind, raw, path)


def _decode_tuple(args: tuple[Any, ...], raw: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(raw, list):
        raise InputError(f"expected a list, got {raw!r}", path=path)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_decode(args[0], item, f"{path}[{i}]") for i, item in enumerate(raw))
    if len(raw) != len(args):
        raise InputError(f"expected {len(args)} items, got {len(raw)}", path=path)
    pairs = enumerate(zip(args, raw, strict=True))
    return tuple(_decode(a, item, f"{path}[{i}]") for i, (a, item) in pairs)


@cache
def _hints(kind: type) -> dict[str, Any]:
    return get_type_hints(kind)


def _decode_dataclass(kind: type, raw: Any, path: str) -> Any:
    if not isinstance(raw, dict):
        raise InputError(f"expected an object, got {raw!r}", path=path)
    fields = {field.name: field for field in dataclasses.fields(kind) if field.init}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}", path=f"{path}.{unknown[0]}",
                         allowed=sorted(fields))  # fmt: skip
    hints = _hints(kind)
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name in raw:
            values[name] = _decode(hints[name], raw[name], f"{path}.{name}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise InputError("a required field is missing", path=f"{path}.{name}")
    return kind(**values)


def _decode_scalar(kind: Any, raw: Any, path: str) -> Any:
    wanted = {str: "a string", int: "a whole number", bool: "true or false"}
    if kind in wanted:
        exact = type(raw) is kind  # a bool is no number, a number no bool
        if not exact:
            raise InputError(f"expected {wanted[kind]}, got {raw!r}", path=path)
        return raw
    raise InputError(f"cannot read a {kind!r}", path=path)  # pragma: no cover - data bug
