"""The card list and the rule numbers of The Seven Years War, read and checked.

The checks are plain functions over the raw TOML so that ``legalis verify`` can
report every problem of a broken card file, while :func:`load_data` refuses the
first one with the field path.

>>> data = load_data()
>>> len(data.cards), data.deck_size, data.cards[0].name
(49, 88, 'Clive of India')
>>> [data.areas[a].name for a in data.cards[1].areas]
['North America', 'India', 'West Indies']
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from legalis.model.core.documents import package_folder, read_document
from legalis.model.errors import InputError

BRITISH, FRENCH = 0, 1
PLAYERS = ("british", "french")
USE_LETTERS = "BFALV"
LOCATION_LETTERS = "NEWICA-"
EFFECT_LETTERS = "XZ"
FORCE_RANGE = (0, 7)
GAME_NUMBERS = (
    "turns",
    "hand_size",
    "execute_max_discards",
    "medals_per_player",
    "campaign_lead",
    "x_discards",
    "z_draws",
    "card_types",
    "deck_size",
)


@dataclass(frozen=True)
class Area:
    code: str
    name: str
    colonial: bool


@dataclass(frozen=True)
class CardType:
    """One line of the card list. ``force`` is 0 for effect cards (they have none)."""

    index: int
    name: str
    copies: int
    force: int
    effect: str  # "", "X" or "Z"
    use: str
    location: str
    difficulty: bool
    areas: tuple[int, ...]  # the Campaign Areas its location covers


@dataclass(frozen=True)
class DataProblem:
    """One thing wrong with the card data: a check code, the field path, the fault."""

    check: str
    path: str
    message: str


@dataclass(frozen=True)
class SevenYearsData:
    cards: tuple[CardType, ...]
    areas: tuple[Area, ...]
    turns: int
    hand_size: int
    execute_max_discards: int
    medals_per_player: int
    campaign_lead: int
    x_discards: int
    z_draws: int
    deck_size: int

    def card_index(self, name: str, *, path: str = "card") -> int:
        """The index of the card called ``name``; an :class:`InputError` if none is."""
        for card in self.cards:
            if card.name == name:
                return card.index
        raise InputError(f"unknown card {name!r}", path=path, allowed=self.card_names())

    def card_names(self) -> list[str]:
        return [card.name for card in self.cards]

    def area_index(self, name: str, *, path: str = "area") -> int:
        for index, area in enumerate(self.areas):
            if name in (area.name, area.code, area_key(area)):
                return index
        raise InputError(
            f"unknown area {name!r}", path=path, allowed=[area_key(a) for a in self.areas]
        )

    def full_deck(self) -> list[int]:
        """Every card of the deck, copies included, in card-list order."""
        return [card.index for card in self.cards for _ in range(card.copies)]


def area_key(area: Area) -> str:
    """The JSON name of an area: ``"north_america"``."""
    return area.name.lower().replace(" ", "_")


def read_bundled(name: str) -> dict[str, Any]:
    """The parsed TOML file ``name`` shipped with the model."""
    text = package_folder("legalis.model.sevenyears").joinpath(name).read_text("utf-8")
    return tomllib.loads(text)


def read_toml(path: str) -> dict[str, Any]:
    """A TOML file from disk; errors name the file."""
    result: dict[str, Any] = read_document(path, "toml")
    return result


def check_cards(raw_cards: Mapping[str, Any], raw_game: Mapping[str, Any]) -> list[DataProblem]:
    """Every problem of the card list, checked against the rule numbers.

    >>> check_cards({"card": [{"name": "Bad", "copies": 0, "force": 9, "use": "Q",
    ...               "location": "E"}]}, {"card_types": 1, "deck_size": 0})[0].check
    'copies-positive'
    """
    problems: list[DataProblem] = []
    cards = raw_cards.get("card")
    if not isinstance(cards, list) or not cards:
        return [DataProblem("card-list", "card", "no [[card]] tables")]
    names: set[str] = set()
    total = 0
    for index, card in enumerate(cards):
        problems.extend(_check_card(card, f"card[{index}]", names))
        copies = card.get("copies") if isinstance(card, dict) else None
        if isinstance(copies, int) and not isinstance(copies, bool):
            total += copies
    expected_types = raw_game.get("card_types")
    if expected_types is not None and expected_types != len(cards):
        problems.append(
            DataProblem(
                "deck-size", "card", f"{len(cards)} card types, the rules say {expected_types}"
            )
        )
    expected_cards = raw_game.get("deck_size")
    if expected_cards is not None and expected_cards != total:
        problems.append(
            DataProblem(
                "deck-size", "card", f"{total} cards in all, the rules say {expected_cards}"
            )
        )
    return problems


def _check_card(card: Any, path: str, names: set[str]) -> list[DataProblem]:
    if not isinstance(card, dict):
        return [DataProblem("card-fields", path, "not a table")]
    problems: list[DataProblem] = []

    def fault(check: str, field: str, message: str) -> None:
        problems.append(DataProblem(check, f"{path}.{field}", message))

    known = {"name", "copies", "force", "effect", "use", "location", "difficulty"}
    for field in sorted(set(card) - known):
        fault("card-fields", field, f"unknown field (allowed: {', '.join(sorted(known))})")
    name = card.get("name")
    if not isinstance(name, str) or not name.strip():
        fault("card-fields", "name", "missing or empty name")
    elif name in names:
        fault("unique-names", "name", f"{name!r} appears twice")
    else:
        names.add(name)
    copies = card.get("copies")
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        fault(
            "copies-positive",
            "copies",
            f"copies must be a whole number of 1 or more, not {copies!r}",
        )
    force, effect = card.get("force"), card.get("effect")
    if (force is None) == (effect is None):
        fault(
            "force-or-effect",
            "force",
            "a card has either a force or an effect (X or Z), not both or neither",
        )
    if force is not None and (
        not isinstance(force, int)
        or isinstance(force, bool)
        or not FORCE_RANGE[0] <= force <= FORCE_RANGE[1]
    ):
        fault("force-range", "force", f"force must be 0-7, not {force!r}")
    if effect is not None and effect not in tuple(EFFECT_LETTERS):  # not "" nor "XZ" either
        fault("effect-letter", "effect", f"effect must be X or Z, not {effect!r}")
    use = card.get("use")
    if use not in tuple(USE_LETTERS):
        fault("use-letter", "use", f"use must be one of B, F, A, L, V, not {use!r}")
    location = card.get("location")
    if location not in tuple(LOCATION_LETTERS):
        fault(
            "location-letter",
            "location",
            f"location must be one of N, E, W, I, C, A, -, not {location!r}",
        )
    elif effect is not None and location != "-":
        fault(
            "effect-location", "location", f"an effect card carries location '-', not {location!r}"
        )
    elif force is not None and location == "-":
        fault("effect-location", "location", "a force card needs a Campaign Area, not '-'")
    difficulty = card.get("difficulty", False)
    if not isinstance(difficulty, bool):
        fault("card-fields", "difficulty", f"difficulty must be true or false, not {difficulty!r}")
    elif difficulty and force is None:
        fault("difficulty-force", "difficulty", "the * mark belongs to force cards only")
    return problems


def check_game(raw_game: Mapping[str, Any]) -> list[DataProblem]:
    """Problems of the rule numbers and areas."""
    problems = [
        DataProblem(
            "game-numbers", key, f"{key} must be a positive whole number, not {raw_game.get(key)!r}"
        )
        for key in GAME_NUMBERS
        if not isinstance(raw_game.get(key), int)
        or isinstance(raw_game.get(key), bool)
        or raw_game[key] < 1
    ]
    areas = raw_game.get("area")
    if not isinstance(areas, list) or not all(isinstance(area, dict) for area in areas):
        return [*problems, DataProblem("areas", "area", "expected four [[area]] tables")]
    codes = [area.get("code") for area in areas]
    if sorted(str(code) for code in codes) != sorted("ENIW"):
        problems.append(DataProblem("areas", "area", f"the four areas are E, N, I, W, not {codes}"))
    for index, area in enumerate(areas):
        if not isinstance(area.get("name"), str) or not isinstance(area.get("colonial"), bool):
            problems.append(
                DataProblem("areas", f"area[{index}]", "an area needs a name, colonial true/false")
            )
    if [area.get("colonial") for area in areas].count(False) != 1:
        problems.append(DataProblem("areas", "area", "exactly one area (Europe) is not colonial"))
    return problems


def build_data(
    raw_cards: Mapping[str, Any], raw_game: Mapping[str, Any], *, source: str
) -> SevenYearsData:
    """Checked data from raw TOML tables; the first problem raises :class:`InputError`."""
    problems = check_game(raw_game) + check_cards(raw_cards, raw_game)
    if problems:
        first = problems[0]
        raise InputError(f"{first.message} [{first.check}]", source=source, path=first.path)
    areas = tuple(Area(a["code"], a["name"], bool(a["colonial"])) for a in raw_game["area"])
    codes = [area.code for area in areas]
    colonies = tuple(i for i, area in enumerate(areas) if area.colonial)
    cards = []
    for index, raw in enumerate(raw_cards["card"]):
        location = raw["location"]
        covered: tuple[int, ...]
        if location == "A":
            covered = tuple(range(len(areas)))
        elif location == "C":
            covered = colonies
        elif location == "-":
            covered = ()
        else:
            covered = (codes.index(location),)
        cards.append(
            CardType(
                index=index,
                name=raw["name"],
                copies=raw["copies"],
                force=raw.get("force", 0),
                effect=raw.get("effect", ""),
                use=raw["use"],
                location=location,
                difficulty=raw.get("difficulty", False),
                areas=covered,
            )
        )
    return SevenYearsData(
        cards=tuple(cards),
        areas=areas,
        **{key: raw_game[key] for key in GAME_NUMBERS if key != "card_types"},
    )


@cache
def load_data() -> SevenYearsData:
    """The bundled card list and rule numbers."""
    return build_data(read_bundled("cards.toml"), read_bundled("game.toml"), source="cards.toml")
