"""The options of a game of one COIN event card, and the setting they load.

A game of this kind plays a single card of a COIN game: the scenario gives the
board, the deck the cards, and the card is drawn at random unless an option names
it; one Faction executes its Event. :class:`EventOptions` reads the options as the
command line and the HTTP API pass them (text or JSON values); :class:`EventRules`
loads the scenario and the deck they name and checks the card and the Faction
against them.

>>> options = EventOptions.from_json({"card": "11", "faction": "US"}, game="fitl")
>>> options.to_json()
{'scenario': 'short', 'deck': None, 'card': 11, 'faction': 'us'}
>>> rules = EventRules.build("fitl", options)
>>> rules.card(11).title, rules.executing_faction(rules.card(11))
('Reserve Divisions Mobilized', 'us')
>>> EventOptions.from_json({"scenario": "long"}, game="fitl")
Traceback (most recent call last):
...
legalis.model.errors.InputError: options.scenario: no fitl scenario 'long' (allowed: short)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from legalis.model.coin.deck import Card, Deck, bundled_deck, of_game, read_deck
from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.scenarios import Scenario, scenario_info, scenario_names
from legalis.model.coin.state import CoinState
from legalis.model.errors import InputError

__all__ = ["OPTION_NAMES", "PIVOTAL_LIST", "EventOptions", "EventRules"]

OPTION_NAMES = ("scenario", "deck", "card", "faction")
PIVOTAL_LIST = "pivotal_available"
"""The board's list of the Factions whose Pivotal Event is still in their hands."""
RULE_PIVOTAL = "5.1.4"
_NONE_TEXT = ("", "none", "null")  # how a command line writes "no value"


@dataclass(frozen=True)
class EventOptions:
    """What a game of one event card is set up with.

    - ``scenario``: the scenario whose set-up is the board (default: the first of
      the game's scenarios by name, ``short`` for Fire in the Lake);
    - ``deck``: a deck TOML file, or None for the sample deck bundled with the game;
    - ``card``: the number of the card played, or None to draw it at random from
      the deck's Event cards (a chance move);
    - ``faction``: the executing Faction's id, or None for the first Faction of the
      card's Faction order.

    >>> EventOptions.from_json(None, game="fitl").scenario
    'short'
    """

    scenario: str
    deck: str | None = None
    card: int | None = None
    faction: str | None = None

    @classmethod
    def from_json(
        cls, raw: Mapping[str, Any] | None, *, game: str, path: str = "options"
    ) -> EventOptions:
        """The options named in ``raw`` (the rest at their defaults); an unknown name
        or a bad value is an :class:`InputError` at ``options.<name>`` with the
        values allowed.

        >>> EventOptions.from_json({"faction": "Viet Cong"}, game="fitl")
        Traceback (most recent call last):
        ...
        legalis.model.errors.InputError: options.faction: unknown Faction 'Viet Cong' (allowed: us, arvn, nva, vc, none)
        """  # noqa: E501
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise InputError("options must be an object", path=path)
        for name in raw:
            if name not in OPTION_NAMES:
                raise InputError(
                    f"unknown option {name!r}", path=f"{path}.{name}", allowed=OPTION_NAMES
                )
        return cls(
            scenario=_scenario(game, raw.get("scenario"), f"{path}.scenario"),
            deck=_deck(raw.get("deck"), f"{path}.deck"),
            card=_card(raw.get("card"), f"{path}.card"),
            faction=_faction(game, raw.get("faction"), f"{path}.faction"),
        )

    def to_json(self) -> dict[str, Any]:
        """The options as JSON, which :meth:`from_json` reads back to the same."""
        return {
            "scenario": self.scenario,
            "deck": self.deck,
            "card": self.card,
            "faction": self.faction,
        }


def _scenario(game: str, value: Any, path: str) -> str:
    names = scenario_names(game)
    if value is None:
        return names[0]
    if not isinstance(value, str) or value not in names:
        raise InputError(f"no {game} scenario {value!r}", path=path, allowed=names)
    return value


def _deck(value: Any, path: str) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in _NONE_TEXT):
        return None
    if not isinstance(value, str):
        raise InputError(f"expected a deck file name, got {value!r}", path=path)
    return value


def _card(value: Any, path: str) -> int | None:
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in _NONE_TEXT:
            return None
        value = int(text) if text.isdigit() else value
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InputError(f"expected a card number (1 or more) or none, got {value!r}", path=path)
    return value


def _faction(game: str, value: Any, path: str) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in _NONE_TEXT):
        return None
    data = load_game_data(game)
    allowed = [*data.faction_ids(), "none"]  # none: the first of the card's order
    if not isinstance(value, str):
        raise InputError(f"expected a Faction, got {value!r}", path=path, allowed=allowed)
    try:
        return data.faction(value.strip(), path=path).id
    except InputError as error:
        raise InputError(error.message, path=path, allowed=allowed) from error


@dataclass(frozen=True, eq=False)
class EventRules:
    """The options with what they load: the scenario and the deck, checked together.

    ``card`` must be a card of the deck that may be played on the scenario's board
    (an Event card, or a Pivotal Event whose Faction still holds it, 5.1.4), and
    ``faction`` one the card's Faction order lists.
    """

    game: str
    options: EventOptions
    scenario: Scenario
    deck: Deck

    @classmethod
    def build(cls, game: str, options: EventOptions) -> EventRules:
        """Load and check what ``options`` name; a bad option is an :class:`InputError`
        at ``options.<name>``.

        >>> EventRules.build("fitl", EventOptions("short", card=8))
        Traceback (most recent call last):
        ...
        legalis.model.errors.InputError: options.card: card 8 is the nva Pivotal Event, which is not available here (5.1.4) (allowed: 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, ... (64 in all))
        """  # noqa: E501
        deck = (
            of_game(read_deck(options.deck), game, "options.deck")
            if options.deck is not None
            else bundled_deck(game)
        )
        rules = cls(game, options, scenario_info(game, options.scenario), deck)
        board = rules.scenario.state
        if options.card is not None:
            card = rules.card(options.card, path="options.card")
            refused = rules.unplayable(board, card)
            if refused is not None:
                raise InputError(refused, path="options.card", allowed=rules.playable_cards(board))
            if options.faction is not None and options.faction not in card.factions:
                raise InputError(
                    f"card {card.number} does not list {options.faction} in its Faction order",
                    path="options.faction",
                    allowed=card.factions,
                )
        elif not rules.draw_pile:
            where = "options.faction" if options.faction is not None else "options.deck"
            raise InputError("the deck has no Event card to draw for this Faction", path=where)
        return rules

    def card(self, number: int, *, path: str = "card") -> Card:
        """The deck's card ``number``; another number is an :class:`InputError`."""
        try:
            return self.deck.card(number)
        except InputError as error:
            raise InputError(error.message, path=path, allowed=error.allowed) from None

    def unplayable(self, board: CoinState, card: Card) -> str | None:
        """Why ``card`` cannot be the card played on ``board`` (None if it can): only
        Event cards are played, and a Pivotal Event only while its Faction holds it
        (5.1.4), as the board's list of available Pivotal Events says."""
        if card.kind == "event":
            return None
        if card.kind == "pivotal" and PIVOTAL_LIST in board.rules.list_ids:
            owner = card.factions[0]
            if owner in board.card_list(PIVOTAL_LIST):
                return None
            return (
                f"card {card.number} is the {owner} Pivotal Event, which is not available "
                f"here ({RULE_PIVOTAL})"
            )
        return f"card {card.number} is a {card.kind} card, not an Event to execute"

    def playable_cards(self, board: CoinState) -> list[int]:
        """The numbers of the deck's cards that may be played on ``board``."""
        return [card.number for card in self.deck.cards if self.unplayable(board, card) is None]

    @cached_property
    def draw_pile(self) -> tuple[int, ...]:
        """The cards a chance draw picks among: the deck's Event cards (Pivotal Events
        are held by their Factions, not drawn, 5.1.4) whose Faction order lists the
        ``faction`` option, when it is set."""
        wanted = self.options.faction
        return tuple(
            card.number
            for card in self.deck.event_cards()
            if wanted is None or wanted in card.factions
        )

    def executing_faction(self, card: Card) -> str:
        """Who executes ``card``: the ``faction`` option, else the first Faction of the
        card's order (the first to be offered the card)."""
        return self.options.faction or card.factions[0]
