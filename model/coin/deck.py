"""Decks of COIN event cards: TOML in, validated cards out.

A deck file names its game and lists cards; each card has a number, a title, the
Faction order, the Non-player marks (LoD muskets and swords), and an unshaded
and/or shaded :class:`~legalis.model.coin.effects.Side`. A LoD deck also holds its
Winter Quarters cards (``kind = "winter_quarters"``, LoD 2.1): one side, ``unshaded``,
the Event carried out at the end of the Reset Phase (6.7), and no Faction order needed.

>>> deck = deck_from_toml({"game": "lod", "card": [{"number": 7, "title": "A Quiet Harbour",
...     "factions": ["British", "Patriots", "French", "Indians"],
...     "unshaded": {"text": "British Resources +2.",
...                  "effects": [{"op": "adjust", "track": "british_resources", "delta": 2}]}}]})
>>> card = deck.card(7)
>>> card.title, card.dual_use, card.unshaded.effects[0].delta
('A Quiet Harbour', False, 2)

Faction names are read once, here: the printed names ("British") and the ids
("british") are both accepted, and every Faction a card or its effects name is held
as its id, so everything after compares ids.

>>> card.factions
('british', 'patriots', 'french', 'indians')

A Winter Quarters card prints its Event on one side, ``unshaded``:

>>> winter = {"number": 201, "title": "Thaw", "kind": "winter_quarters",
...     "unshaded": {"text": "Indian Resources +2."}}
>>> deck_from_toml({"game": "lod", "card": [winter]}).winter_cards()[0].factions
()
>>> try:
...     deck_from_toml({"game": "lod", "card": [winter | {"shaded": {"text": "x"}}]})
... except InputError as refused:
...     print(refused.path)
deck.card[0].shaded
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from copy import deepcopy
from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from legalis.model.coin.effects import Condition, Node, Side, json_schema, validated
from legalis.model.coin.gamedata import load_game_data
from legalis.model.core.documents import package_folder, read_document
from legalis.model.core.records import Keys, Rule, record
from legalis.model.errors import InputError

if TYPE_CHECKING:
    from pydantic import ValidationInfo

CardKind = Literal["event", "brilliant_stroke", "pivotal", "winter_quarters"]
SIDES = ("unshaded", "shaded")
WINTER_QUARTERS = "winter_quarters"


def _card_rules(schema: dict[str, Any]) -> None:
    # the JSON Schema form of ``Card._has_a_side``, ``_an_order`` and ``_one_winter_side``
    printed = {"type": "object"}
    schema["anyOf"] = [{"required": [side], "properties": {side: printed}} for side in SIDES]
    schema["if"] = {"required": ["kind"], "properties": {"kind": {"const": WINTER_QUARTERS}}}
    schema["then"] = {"required": ["unshaded"], "not": {"required": ["shaded"]}}
    schema["else"] = {"required": ["factions"], "properties": {"factions": {"minItems": 1}}}


@record
class Instruction(Node):
    """A Faction's Event Instruction for a musket-marked card (LoD 8.3.1): the text,
    the side a Non-player executes instead of the 8.3.2 default, and a condition
    without which the Event is Ineffective (8.3.3) for that Faction."""

    text: str = ""
    side: Literal["unshaded", "shaded"] | None = None
    effective_if: Condition | None = None


def _an_order(factions: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
    if not factions and info.data.get("kind", "event") != WINTER_QUARTERS:
        raise ValueError(
            "a card needs its Faction order, at least one Faction (only a Winter "
            "Quarters card may have none)"
        )
    return factions


def _one_winter_side(shaded: Side | None, info: ValidationInfo) -> Side | None:
    if shaded is not None and info.data.get("kind") == WINTER_QUARTERS:
        raise ValueError("a Winter Quarters card prints one side, unshaded: its Event (6.0)")
    return shaded


@record
class Card(Node):
    """One card. ``factions`` is the Faction order (ids); ``marks`` maps a
    Faction id to ``musket`` or ``sword`` (LoD 8.1); ``instructions`` a Faction id to
    its Event Instruction (LoD 8.3.1).

    A Winter Quarters card prints one side, ``unshaded``: the Event of its Winter
    Quarters Round (LoD 6.0). It needs no Faction order; one it lists names who makes
    the Event's choices (``docs/rules-questions.md``).
    """

    # validate_default: a card without a Faction order is checked too (``_an_order``)
    __pydantic_config__: ClassVar[dict[str, Any]] = {
        **Node.__pydantic_config__,
        "json_schema_extra": _card_rules,
        "validate_default": True,
    }

    number: Annotated[int, Rule("Field", ge=1)]
    title: Annotated[str, Rule("Field", min_length=1)]
    period: str | None = None
    kind: CardKind = "event"  # before the fields whose checks read it
    factions: Annotated[tuple[str, ...], Rule("AfterValidator", _an_order)] = ()
    marks: dict[str, Literal["musket", "sword"]] = field(default_factory=dict)
    instructions: dict[str, Instruction] = field(default_factory=dict)
    unshaded: Side | None = None
    shaded: Annotated[Side | None, Rule("AfterValidator", _one_winter_side)] = None

    def _check(self) -> None:
        if self.unshaded is None and self.shaded is None:
            raise ValueError("a card needs an unshaded or a shaded side")

    @property
    def dual_use(self) -> bool:
        """Both sides printed: the executing Faction picks one, never both (5.2)."""
        return self.unshaded is not None and self.shaded is not None

    def side(self, name: str) -> Side:
        """The ``unshaded`` or ``shaded`` side; an :class:`InputError` if the card lacks it."""
        chosen = getattr(self, name, None) if name in SIDES else None
        if chosen is None:
            printed = [side for side in SIDES if getattr(self, side) is not None]
            raise InputError(
                f"card {self.number} has no {name!r} side", path="side", allowed=printed
            )
        return chosen  # type: ignore[no-any-return]


@record
class Deck(Node):
    __pydantic_config__: ClassVar[dict[str, Any]] = {
        **Node.__pydantic_config__,
        "alias_generator": Keys(cards="card"),
    }

    game: Literal["lod", "fitl"]
    cards: Annotated[tuple[Card, ...], Rule("Field", min_length=1)]

    def _check(self) -> None:
        seen: set[int] = set()
        for card in self.cards:
            if card.number in seen:
                raise ValueError(f"card number {card.number} appears twice")
            seen.add(card.number)

    def card(self, number: int) -> Card:
        """The card numbered ``number``; an :class:`InputError` listing the deck's numbers."""
        for card in self.cards:
            if card.number == number:
                return card
        raise InputError(
            f"no card {number} in this deck", path="card", allowed=[c.number for c in self.cards]
        )

    def event_cards(self) -> tuple[Card, ...]:
        """The deck's Event cards (:func:`event_cards`).

        >>> len(bundled_deck("lod").event_cards()) >= 10  # a pile's worth (2.1)
        True
        """
        return event_cards(self.cards)

    def winter_cards(self) -> tuple[Card, ...]:
        """The Winter Quarters cards, one shuffled into each pile (LoD 2.1).

        >>> [card.number for card in bundled_deck("lod").winter_cards()]
        [201, 202, 203, 204, 205, 206, 207, 208]
        """
        return tuple(card for card in self.cards if card.kind == WINTER_QUARTERS)


def event_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The Event cards among ``cards``, the ones dealt into the draw deck's piles (LoD
    2.1): no Brilliant Stroke (held by its Faction, 2.3.8), Pivotal Event (FitL 5.1.4)
    or Winter Quarters card (one per pile, placed apart).

    >>> cards = bundled_deck("lod").cards
    >>> sorted({card.kind for card in cards}), {card.kind for card in event_cards(cards)}
    (['brilliant_stroke', 'event', 'winter_quarters'], {'event'})
    """
    return tuple(card for card in cards if card.kind == "event")


def deck_json_schema() -> dict[str, Any]:
    """The JSON Schema of a deck: the TOML file's tables, read as JSON.

    >>> schema = deck_json_schema()
    >>> schema["title"], schema["required"]
    ('Deck', ['game', 'card'])
    >>> schema["$defs"]["Card"]["anyOf"][1]  # a card prints one side or both
    {'properties': {'shaded': {'type': 'object'}}, 'required': ['shaded']}
    """
    return json_schema(Deck)


def deck_from_toml(raw: Mapping[str, Any], *, source: str | None = None) -> Deck:
    """A deck from parsed TOML; every error names its field path (``card[3].shaded...``).

    A card's Faction order, marks and instructions must name Factions of the game
    (an :class:`InputError` lists them); they and the Factions its effects name are
    held as ids (:func:`_with_faction_ids`).

    >>> try:
    ...     deck_from_toml({"game": "lod", "card": [{"number": 1, "title": "Stray",
    ...         "factions": ["British", "Nobody"], "unshaded": {"text": "x"}}]})
    ... except InputError as refused:
    ...     print(refused.path, refused.allowed)
    deck.card[0].factions[1] ['British', 'Patriots', 'French', 'Indians']
    """
    return validated(Deck, _with_faction_ids(raw, source), source=source, path="deck")


def _with_faction_ids(raw: Mapping[str, Any], source: str | None) -> Mapping[str, Any]:
    """``raw`` with every Faction name turned into its id: those of the cards (their
    order, marks and instructions), refused when unknown, and those of the effects
    (free actions, choosers, "executing" conditions), where an unknown name is left
    for ``legalis verify`` to report (``name.unknown-faction``). A deck of no known
    game, or not shaped as one, is returned as it is for validation to refuse."""
    game = raw.get("game")
    cards = raw.get("card")
    if game not in ("lod", "fitl") or not isinstance(cards, list):
        return raw
    data = load_game_data(game)
    ids = {key: f.id for f in data.factions for key in (f.id, f.name)}
    names = [faction.name for faction in data.factions]

    def known(name: object, path: str) -> object:
        if isinstance(name, str) and name not in ids:
            raise InputError(f"unknown Faction {name!r}", source=source, path=path, allowed=names)
        return ids[name] if isinstance(name, str) else name  # validation names a wrong type

    out = dict(raw)
    out["card"] = deepcopy(cards)
    for index, card in enumerate(out["card"]):
        if not isinstance(card, dict):
            continue
        path = f"deck.card[{index}]"
        factions = card.get("factions")
        if isinstance(factions, list):
            card["factions"] = [known(f, f"{path}.factions[{i}]") for i, f in enumerate(factions)]
        for key in ("marks", "instructions"):
            table = card.get(key)
            if isinstance(table, dict):
                card[key] = {known(k, f"{path}.{key}.{k}"): v for k, v in table.items()}
        for key in ("instructions", *SIDES):
            _effect_ids(card.get(key), ids)
    return out


def _effect_ids(node: Any, ids: Mapping[str, str]) -> None:
    """Turn, in place, the known Faction names of effects and conditions into ids."""
    if isinstance(node, list):
        for item in node:
            _effect_ids(item, ids)
        return
    if not isinstance(node, dict):
        return
    if node.get("op") == "free" and isinstance(node.get("faction"), str):
        node["faction"] = ids.get(node["faction"], node["faction"])
    if isinstance(node.get("chooser"), str):
        node["chooser"] = ids.get(node["chooser"], node["chooser"])
    if node.get("if") == "executing" and isinstance(node.get("factions"), list):
        node["factions"] = [ids.get(f, f) if isinstance(f, str) else f for f in node["factions"]]
    for value in node.values():
        _effect_ids(value, ids)


def of_game(deck: Deck, game: str, path: str) -> Deck:
    """``deck``, refused (an :class:`InputError` at ``path``) when it is another game's.

    >>> try:
    ...     of_game(bundled_deck("fitl"), "lod", "--deck")
    ... except InputError as refused:
    ...     print(refused)
    --deck: a fitl deck, not lod (allowed: lod)
    """
    if deck.game != game:
        raise InputError(f"a {deck.game} deck, not {game}", path=path, allowed=[game])
    return deck


def read_deck(path: str) -> Deck:
    """A deck TOML file from disk."""
    return deck_from_toml(read_document(path, "toml"), source=path)


def bundled_deck(game: str, name: str = "sample") -> Deck:
    """A deck shipped with the game's model, e.g. ``bundled_deck("lod")``, read without
    pydantic: play needs no validation of what the package ships."""
    folder = package_folder(f"legalis.model.{game}").joinpath("decks")
    entry = folder.joinpath(f"{name}.toml")
    if not entry.is_file():
        raise InputError(f"no bundled deck {name!r} for {game!r}", path="deck")
    source = f"{game}/decks/{name}.toml"
    # read as trusted: the tests validate every bundled deck (``test_bundled_decks_are_valid``)
    return Deck.trusted(_with_faction_ids(tomllib.loads(entry.read_text("utf-8")), source))
