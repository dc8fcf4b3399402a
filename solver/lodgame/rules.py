"""What stays fixed through one LoD game: the options, the scenario, the deck, and
which Factions the Non-player rules play.

>>> rules = LodRules.build(LodOptions.from_json({"scenario": "1778"}))
>>> rules.campaigns, len(rules.winter_cards) >= 1
((1778, 1779, 1780), True)
>>> LodOptions.from_json({"scenario": "1999"})
Traceback (most recent call last):
legalis.model.errors.InputError: options.scenario: no scenario '1999' (allowed: 1775, 1776, 1778)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from legalis.model.coin.deck import Card, Deck, bundled_deck, of_game, read_deck
from legalis.model.coin.effects import Roll as RollEffect
from legalis.model.coin.effects import Side
from legalis.model.coin.scenarios import Release, Scenario, scenario_info, scenario_names
from legalis.model.core.records import walk
from legalis.model.core.views import RandomSource
from legalis.model.errors import InputError
from legalis.solver.nonplayer.options import NonplayerOptions

__all__ = ["FACTIONS", "LodOptions", "LodRules"]

FACTIONS = ("british", "patriots", "french", "indians")
PILE = 10  # 2.1 Deck Preparation: Event cards per pile
WINTER_AMONG = 4  # ... a Winter Quarters card shuffled into the pile's bottom 4
PLAIN_WINTER = 1000  # numbers of the plain Winter Quarters cards a deck lacking them gets


@dataclass(frozen=True)
class LodOptions:
    """A LoD game's options: ``scenario`` (1775, 1776, 1778), ``nonplayers`` (the
    Factions the Non-player rules of section 8 play: it changes the rules, 8.1-8.8),
    ``deck`` (a deck TOML file; None: the bundled sample deck) and ``readings``
    (the named readings of unclear rules, :class:`NonplayerOptions`' names).

    >>> LodOptions.from_json({"nonplayers": "french,indians"}).nonplayers
    ('french', 'indians')
    """

    scenario: str = "1776"
    nonplayers: tuple[str, ...] = ()
    deck: str | None = None
    readings: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None, *, path: str = "options") -> LodOptions:
        body = dict(raw or {})
        scenario = str(body.pop("scenario", cls.scenario))
        if scenario not in scenario_names("lod"):
            raise InputError(f"no scenario {scenario!r}", path=f"{path}.scenario",
                             allowed=scenario_names("lod"))  # fmt: skip
        nonplayers = body.pop("nonplayers", ())
        if isinstance(nonplayers, str):
            nonplayers = [n for n in nonplayers.split(",") if n]
        if not isinstance(nonplayers, list | tuple) or any(n not in FACTIONS for n in nonplayers):
            raise InputError(f"expected Factions, got {nonplayers!r}", path=f"{path}.nonplayers",
                             allowed=FACTIONS)  # fmt: skip
        deck = body.pop("deck", None)
        if deck is not None and not isinstance(deck, str):
            raise InputError(f"expected a file name, got {deck!r}", path=f"{path}.deck")
        NonplayerOptions.from_json(body, path=path)  # refuses unknown names and values
        ordered = tuple(f for f in FACTIONS if f in nonplayers)
        return cls(scenario, ordered, deck, body)

    def to_json(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "nonplayers": list(self.nonplayers),
                "deck": self.deck, **self.readings}  # fmt: skip

    @staticmethod
    def names() -> list[str]:
        """Every option name."""
        return ["scenario", "nonplayers", "deck", *NonplayerOptions.names()]


@dataclass(frozen=True, eq=False)
class LodRules:
    """The options with what they load: scenario, deck and readings."""

    options: LodOptions
    scenario: Scenario
    deck: Deck
    nonplayer_options: NonplayerOptions

    @classmethod
    def build(cls, options: LodOptions) -> LodRules:
        deck = (of_game(read_deck(options.deck), "lod", "deck") if options.deck
                else bundled_deck("lod"))  # fmt: skip
        readings = NonplayerOptions.from_json(options.readings)
        return cls(options, scenario_info("lod", options.scenario), deck, readings)

    @property
    def key(self) -> dict[str, Any]:
        return self.options.to_json()

    @property
    def nonplayers(self) -> tuple[str, ...]:
        return self.options.nonplayers

    @property
    def campaigns(self) -> tuple[int, ...]:
        return tuple(int(y) for y in self.scenario.details["campaigns"])

    @property
    def releases(self) -> tuple[Release, ...]:
        return tuple(self.scenario.releases)

    @property
    def command_options(self) -> Any:
        return self.nonplayer_options.command

    @property
    def battle_options(self) -> Any:
        return self.nonplayer_options.battle

    @cached_property
    def cards(self) -> dict[int, Card]:
        found = {card.number: card for card in self.deck.cards}
        for index in range(len(self.campaigns)):
            number = PLAIN_WINTER + index + 1
            found[number] = Card(
                number=number, title="Winter Quarters", kind="winter_quarters", unshaded=Side()
            )
        return found

    @cached_property
    def event_cards(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.deck.cards if c.kind == "event")

    @cached_property
    def winter_cards(self) -> tuple[int, ...]:
        """The deck's Winter Quarters cards; plain ones (no Event) where it has too few."""
        own = [c.number for c in self.deck.cards if c.kind == "winter_quarters"]
        plain = [PLAIN_WINTER + i + 1 for i in range(len(self.campaigns))]
        return tuple(own + plain[: max(0, len(self.campaigns) - len(own))])

    def card(self, number: int) -> Card:
        try:
            return self.cards[number]
        except KeyError:
            raise InputError(f"no card {number} in this deck", path="card",
                             allowed=sorted(self.cards)) from None  # fmt: skip

    def is_winter(self, number: int) -> bool:
        return self.card(number).kind == "winter_quarters"

    @cached_property
    def _orders(self) -> dict[int, tuple[str, ...]]:
        data = self.scenario.state.rules.data
        return {n: tuple(data.faction(f).id for f in c.factions) for n, c in self.cards.items()}

    def order(self, card: Card) -> tuple[str, ...]:
        """The card's Faction order, as Faction ids (2.3.2)."""
        return self._orders[card.number]

    def prepare_deck(self, rng: RandomSource) -> tuple[int, ...]:
        """2.1: per campaign a pile of 10 Event cards dealt at random with a Winter
        Quarters card shuffled into its bottom four; the first year's pile on top. A
        deck with fewer Event cards than the piles need deals its cards again once
        every one has been dealt (so a small sample deck still plays a whole game)."""
        events = list(self.event_cards)
        if len(events) < PILE:
            raise InputError(f"a LoD game needs {PILE} Event cards, the deck has {len(events)}",
                             path="deck")  # fmt: skip
        winters = list(self.winter_cards)
        rng.shuffle(winters)
        pool: list[int] = []
        order: list[int] = []
        for pile in range(len(self.campaigns)):
            cards: list[int] = []
            for _ in range(PILE):
                if not pool:
                    pool = events[:]
                    rng.shuffle(pool)
                cards.append(pool.pop())
            at = PILE - WINTER_AMONG + rng.randrange(WINTER_AMONG + 1)
            cards.insert(at, winters[pile])
            order += cards
        return tuple(order)

    @cached_property
    def _rolls(self) -> dict[tuple[int, str], tuple[int, ...]]:
        found: dict[tuple[int, str], tuple[int, ...]] = {}
        for card in self.cards.values():
            for side in ("unshaded", "shaded"):
                printed = getattr(card, side)
                if printed is not None:
                    nodes = walk(printed)
                    dice = tuple(node.dice for node in nodes if isinstance(node, RollEffect))
                    if dice:
                        found[(card.number, side)] = dice
        return found

    def roll_dice(self, number: int, side: str) -> tuple[int, ...]:
        """The dice of each roll the side's text names, in order."""
        return self._rolls.get((number, side), ())
