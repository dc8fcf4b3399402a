"""The moves of an EU:PoP game and their JSON: two chance moves (an Age's deck
prepared, an Event's dice rolled), taking an Event from the display (16.2), and a
choice at a step of the Event being resolved (16.3, 16.5).

A step's choice is the very move of its view (:mod:`legalis.solver.eupop_play`),
wrapped in :class:`Decide` with the player and the step's rule, so a move reads
without the state: its JSON names the choice's kind, and the choice itself is
written by :func:`~legalis.model.eupop.play.jsonable` and read by
:func:`~legalis.solver.eupop_play.move_from_json`.

>>> from legalis.model.eupop.effects import GainG
>>> move = Decide("france", "16.3 Gain G", GainG("saxony"))
>>> move_to_json(move)
{'type': 'decide', 'player': 'france', 'rule': '16.3 Gain G', 'kind': 'GainG', \
'choice': {'area': 'saxony'}}
>>> move_from_json(move_to_json(move)) == move, describe(move)
(True, 'france gains a G in saxony')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from legalis.model.errors import InputError
from legalis.model.eupop import effects as fx
from legalis.model.eupop import religion, secondary
from legalis.model.eupop.play import jsonable
from legalis.model.eupop.resolution import readable
from legalis.solver import eupop_play

__all__ = [
    "CHOICE_KINDS",
    "SEED_OUTCOMES",
    "Decide",
    "PrepareDeck",
    "Roll",
    "TakeEvent",
    "describe",
    "move_from_json",
    "move_to_json",
]

SEED_OUTCOMES = 2**31  # a Roll's seeds: 0 to 2**31 - 1


@dataclass(frozen=True)
class PrepareDeck:
    """Chance (16 Preparing Event Decks): the deck of ``age``, its two halves each
    shuffled apart, top card first; the first half lies on the second."""

    age: int
    first_half: tuple[str, ...]
    second_half: tuple[str, ...]


@dataclass(frozen=True)
class Roll:
    """Chance: the seed of every die and random draw while one Event is resolved
    (a taken Event's, or the symbols of the unpicked one, 16.4)."""

    seed: int


@dataclass(frozen=True)
class TakeEvent:
    """16.2: ``player`` takes the Event in display ``slot`` (1 is the leftmost);
    ``event`` names it when it lies face up, None when it is face down (it is
    revealed as it is taken)."""

    player: str
    slot: int
    event: str | None


@dataclass(frozen=True)
class Decide:
    """A choice at a step of the Event being resolved: the player who decides, the
    step's rule, and the choice, a move of the step's view."""

    player: str
    rule: str
    choice: Any


# The classes a step's choice may be; any other choice is a plain value (a name, a
# number, a list of them).
CHOICE_KINDS: dict[str, type] = {
    kind.__name__: kind
    for kind in (
        fx.PlaceInfluence,
        fx.GainAlliance,
        fx.GainMarriage,
        fx.GainG,
        fx.GainTown,
        fx.DevelopTown,
        fx.GainUnits,
        eupop_play.Stop,
        secondary.NativeChoice,
        secondary.Expansion,
        religion.Placement,
    )
}
_TYPES: dict[str, type] = {
    "prepare": PrepareDeck,
    "roll": Roll,
    "take": TakeEvent,
    "decide": Decide,
}


def move_to_json(move: Any) -> dict[str, Any]:
    """A move as JSON, ``type`` naming its kind.

    >>> move_to_json(TakeEvent("england", 4, None))
    {'type': 'take', 'player': 'england', 'slot': 4, 'event': None}
    """
    if isinstance(move, PrepareDeck):
        return {
            "type": "prepare",
            "age": move.age,
            "first_half": list(move.first_half),
            "second_half": list(move.second_half),
        }
    if isinstance(move, Roll):
        return {"type": "roll", "seed": move.seed}
    if isinstance(move, TakeEvent):
        return {"type": "take", "player": move.player, "slot": move.slot, "event": move.event}
    if isinstance(move, Decide):
        kind = type(move.choice).__name__
        return {
            "type": "decide",
            "player": move.player,
            "rule": move.rule,
            "kind": kind if kind in CHOICE_KINDS else None,
            "choice": jsonable(move.choice),
        }
    raise InputError(f"not an EU:PoP move: {move!r}", path="move", allowed=sorted(_TYPES))


def move_from_json(raw: Any, *, path: str = "move") -> Any:
    """The move written by :func:`move_to_json`; anything else is an
    :class:`InputError` naming the field and what it allows.

    >>> move_from_json({"type": "roll", "seed": 7})
    Roll(seed=7)
    >>> move_from_json({"type": "take", "player": "france", "slot": "2", "event": None})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: move.slot: expected a whole number, not '2'
    """
    if not isinstance(raw, dict):
        raise InputError(f"expected an object, not {raw!r}", path=path)
    kind = raw.get("type")
    if kind not in _TYPES:
        raise InputError(f"unknown move type {kind!r}", path=f"{path}.type", allowed=sorted(_TYPES))
    fields = {
        "prepare": ("age", "first_half", "second_half"),
        "roll": ("seed",),
        "take": ("player", "slot", "event"),
        "decide": ("player", "rule", "kind", "choice"),
    }[kind]
    unknown = sorted(set(raw) - {"type", *fields})
    if unknown:
        raise InputError(
            f"unknown field {unknown[0]!r}", path=f"{path}.{unknown[0]}", allowed=fields
        )
    for name in fields:
        if name not in raw:
            raise InputError("a required field is missing", path=f"{path}.{name}")
    if kind == "prepare":
        return PrepareDeck(
            _number(raw, "age", path),
            _names(raw, "first_half", path),
            _names(raw, "second_half", path),
        )
    if kind == "roll":
        return Roll(_number(raw, "seed", path))
    if kind == "take":
        event = raw["event"]
        if event is not None and not isinstance(event, str):
            raise InputError(f"expected an event id or null, not {event!r}", path=f"{path}.event")
        return TakeEvent(_text(raw, "player", path), _number(raw, "slot", path), event)
    return Decide(_text(raw, "player", path), _text(raw, "rule", path), _choice(raw, path))


def _number(raw: dict[str, Any], name: str, path: str) -> int:
    value = raw[name]
    if type(value) is not int:
        raise InputError(f"expected a whole number, not {value!r}", path=f"{path}.{name}")
    return value


def _text(raw: dict[str, Any], name: str, path: str) -> str:
    value = raw[name]
    if not isinstance(value, str):
        raise InputError(f"expected a string, not {value!r}", path=f"{path}.{name}")
    return value


def _names(raw: dict[str, Any], name: str, path: str) -> tuple[str, ...]:
    value = raw[name]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InputError("expected a list of event ids", path=f"{path}.{name}")
    return tuple(value)


def _choice(raw: dict[str, Any], path: str) -> Any:
    kind = raw["kind"]
    if kind is not None and kind not in CHOICE_KINDS:
        raise InputError(
            f"unknown kind of choice {kind!r}", path=f"{path}.kind", allowed=sorted(CHOICE_KINDS)
        )
    try:
        return eupop_play.move_from_json(raw["choice"], CHOICE_KINDS.get(kind or ""))
    except InputError as error:  # the reader names the CLI's flag: name the field instead
        raise InputError(error.message, path=f"{path}.choice", allowed=error.allowed) from error


# ---------------------------------------------------------------------- for people


def describe(move: Any) -> str:
    """One line for people.

    >>> describe(TakeEvent("france", 2, "13A-2"))
    'france takes 13A-2 from slot 2'
    >>> describe(Decide("france", "16.3 Gain/place Influence",
    ...                 fx.PlaceInfluence((("saxony", 2),))))
    'france places 2 Influence in saxony'
    """
    if isinstance(move, PrepareDeck):
        count = len(move.first_half) + len(move.second_half)
        return f"the Event Deck of Age {move.age} is prepared ({count} Events)"
    if isinstance(move, Roll):
        return f"the Event's dice are rolled (seed {move.seed})"
    if isinstance(move, TakeEvent):
        what = move.event or "the face-down Event"
        return f"{move.player} takes {what} from slot {move.slot}"
    if isinstance(move, Decide):
        return f"{move.player} {_choice_text(move.rule, move.choice)}"
    return str(move)


def _places(placed: tuple[tuple[str, int], ...], what: str) -> str:
    return ", ".join(f"{n} {what} in {place}" for place, n in placed)


def _take_back(move: fx.GainAlliance | fx.GainMarriage) -> str:
    return f", taking back the marker on {move.take_back}" if move.take_back else ""


_PHRASES: dict[type, Callable[[Any], str]] = {
    fx.PlaceInfluence: lambda m: "places " + (_places(m.placed, "Influence") or "no Influence"),
    fx.GainAlliance: lambda m: f"gains an Alliance with {m.target}{_take_back(m)}",
    fx.GainMarriage: lambda m: f"gains a Royal Marriage with {m.target}{_take_back(m)}",
    fx.GainG: lambda m: f"gains a G in {m.area}",
    fx.GainTown: lambda m: f"gains a {'v' if m.vassal else 't'} on {m.province}",
    fx.DevelopTown: lambda m: f"develops the Small t on {m.province} into a Large t",
    fx.GainUnits: lambda m: "places " + _places(m.placed, "Ships" if m.ships else "Units"),
    eupop_play.Stop: lambda m: "takes the effect for no further item",
    secondary.Expansion: lambda m: f"expands {m.dnpr} into {m.province}",
    religion.Placement: lambda m: (
        f"places a {m.token} token in {m.area}"
        + (f" (the ^ of {m.take_from})" if m.take_from else "")
    ),
    secondary.NativeChoice: lambda m: (
        (f"puts u on {m.town}" if m.town else "puts no u")
        + (f", ignoring the {m.ignore} effect" if m.ignore else "")
    ),
}
# A plain value's meaning comes from its step's rule.
_PLAIN: dict[str, Callable[[Any], str]] = {
    eupop_play.AB_RULE: lambda side: f"takes side {side})",
    fx.MERCHANT: lambda _: "gains a Merchant",
    fx.INFLUENCE + ": Opponent I discarded": lambda discards: (
        "discards " + ", ".join(f"{n} I of {who} in {area}" for area, who, n in discards)
    ),
    secondary.REBELLION: lambda province: f"rolls the Rebel Die for {province}",
    secondary.LOST: lambda sea: f"removes a Ship in {sea}",
    secondary.PIRATES: lambda node: f"places the Pirate Ship in {node}",
    secondary.CARDINAL: lambda index: f"removes the C at position {index + 1} of the Curia",
    secondary.DISLOYAL: lambda area: f"picks {area} for the disloyal v",
}


def _choice_text(rule: str, choice: Any) -> str:
    phrase = _PHRASES.get(type(choice))
    if phrase is not None:
        return phrase(choice)
    plain = _PLAIN.get(rule)
    if plain is not None:
        return plain(choice)
    return f"chooses {readable(jsonable(choice))} ({rule})"
