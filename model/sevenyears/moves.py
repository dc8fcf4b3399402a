"""Moves of The Seven Years War: player decisions and chance outcomes.

Every move is frozen, hashable and JSON-serialisable by card and area names.

>>> from legalis.model.sevenyears.data import load_data
>>> data = load_data()
>>> move = Lay(0, data.card_index("Forts"), 0)
>>> move_to_json(move, data)
{'type': 'lay', 'player': 'british', 'card': 'Forts', 'area': 'europe'}
>>> move_from_json(move_to_json(move, data), data) == move
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from legalis.model.errors import InputError
from legalis.model.sevenyears.data import PLAYERS, SevenYearsData, area_key


@dataclass(frozen=True, slots=True)
class ExecuteDiscard:
    """Execute phase: discard these cards (sorted card indices, up to 5) and draw as many."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayEffect:
    """Turmoil phase: play an X or Z card."""

    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Lay:
    """Conflict phase: lay a card face up onto a Campaign Area."""

    player: int
    card: int
    area: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Turmoil or Conflict phase: play no card now."""

    player: int


@dataclass(frozen=True, slots=True)
class DifficultyDiscard:
    """Difficulty phase: ``player`` picks which of ``victim``'s cards in ``area`` is discarded."""

    player: int
    victim: int
    area: int
    card: int


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the discard pile, shuffled, becomes the deck; ``order[-1]`` is drawn first."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CoinFlip:
    """Chance: the player who wins the coin flip."""

    winner: int


@dataclass(frozen=True, slots=True)
class RandomDiscard:
    """Chance: the cards an X card makes ``player`` discard at random (sorted)."""

    player: int
    cards: tuple[int, ...]


Move = (
    ExecuteDiscard
    | PlayEffect
    | Lay
    | Pass
    | DifficultyDiscard
    | Shuffle
    | CoinFlip
    | RandomDiscard
)
CHANCE_MOVES = (Shuffle, CoinFlip, RandomDiscard)

_TYPE_NAMES: dict[type, str] = {
    ExecuteDiscard: "execute_discard",
    PlayEffect: "play_effect",
    Lay: "lay",
    Pass: "pass",
    DifficultyDiscard: "difficulty_discard",
    Shuffle: "shuffle",
    CoinFlip: "coin_flip",
    RandomDiscard: "random_discard",
}
MOVE_FIELDS: dict[str, tuple[str, ...]] = {
    "execute_discard": ("player", "cards"),
    "play_effect": ("player", "card"),
    "lay": ("player", "card", "area"),
    "pass": ("player",),
    "difficulty_discard": ("player", "victim", "area", "card"),
    "shuffle": ("order",),
    "coin_flip": ("winner",),
    "random_discard": ("player", "cards"),
}
"""The JSON fields of each move type, after ``type``, in the order written."""
_CLASSES = {name: cls for cls, name in _TYPE_NAMES.items()}
_PLAYER_FIELDS = ("player", "victim", "winner")
_CARD_LISTS = ("cards", "order")


def move_to_json(move: Move, data: SevenYearsData) -> dict[str, Any]:
    """The move as a JSON object naming players, cards and areas."""
    kind = _TYPE_NAMES[type(move)]
    out: dict[str, Any] = {"type": kind}
    for field in MOVE_FIELDS[kind]:
        value = getattr(move, field)
        if field in _PLAYER_FIELDS:
            out[field] = PLAYERS[value]
        elif field == "card":
            out[field] = data.cards[value].name
        elif field == "area":
            out[field] = area_key(data.areas[value])
        else:
            out[field] = [data.cards[card].name for card in value]
    return out


def move_from_json(raw: Any, data: SevenYearsData, *, path: str = "move") -> Move:
    """A move from its JSON object; errors name the field and the allowed values."""
    if not isinstance(raw, dict):
        raise InputError("a move is a JSON object", path=path)
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise InputError(f"unknown move type {kind!r}", path=f"{path}.type", allowed=MOVE_FIELDS)
    extra = set(raw) - {"type", *MOVE_FIELDS[kind]}
    if extra:
        raise InputError(
            f"unexpected field {sorted(extra)[0]!r}", path=path, allowed=MOVE_FIELDS[kind]
        )
    values: dict[str, Any] = {}
    for field in MOVE_FIELDS[kind]:
        where = f"{path}.{field}"
        if field not in raw:
            raise InputError("missing field", path=where)
        value = raw[field]
        if field in _PLAYER_FIELDS:
            if value not in PLAYERS:
                raise InputError(f"unknown player {value!r}", path=where, allowed=PLAYERS)
            values[field] = PLAYERS.index(value)
        elif field == "card":
            values[field] = data.card_index(_text(value, where), path=where)
        elif field == "area":
            values[field] = data.area_index(_text(value, where), path=where)
        else:
            if not isinstance(value, list):
                raise InputError("expected a list of card names", path=where)
            cards = [
                data.card_index(_text(v, f"{where}[{i}]"), path=f"{where}[{i}]")
                for i, v in enumerate(value)
            ]
            values[field] = tuple(cards) if field == "order" else tuple(sorted(cards))
    move: Move = _CLASSES[kind](**values)
    return move


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"expected a name, got {value!r}", path=path)
    return value


def describe(move: Move, data: SevenYearsData) -> str:
    """One line for people: ``british lays Forts on Europe``."""
    if isinstance(move, ExecuteDiscard):
        if not move.cards:
            return f"{PLAYERS[move.player]} keeps the whole hand"
        return f"{PLAYERS[move.player]} discards {_names(move.cards, data)}"
    if isinstance(move, PlayEffect):
        card = data.cards[move.card]
        return f"{PLAYERS[move.player]} plays {card.name} ({card.effect})"
    if isinstance(move, Lay):
        card_name, area_name = data.cards[move.card].name, data.areas[move.area].name
        return f"{PLAYERS[move.player]} lays {card_name} on {area_name}"
    if isinstance(move, Pass):
        return f"{PLAYERS[move.player]} passes"
    if isinstance(move, DifficultyDiscard):
        return (
            f"{PLAYERS[move.victim]} loses {data.cards[move.card].name} from "
            f"{data.areas[move.area].name} (chosen by {PLAYERS[move.player]})"
        )
    if isinstance(move, Shuffle):
        return f"the discard pile is shuffled into a deck of {len(move.order)}"
    if isinstance(move, CoinFlip):
        return f"{PLAYERS[move.winner]} wins the coin flip"
    return f"{PLAYERS[move.player]} discards at random {_names(move.cards, data)}"


def _names(cards: tuple[int, ...], data: SevenYearsData) -> str:
    return ", ".join(data.cards[card].name for card in cards)
