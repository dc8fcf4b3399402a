"""What stays fixed through one LoD game: the options, the scenario, the deck, and
which Factions the Non-player rules play.

>>> rules = LodRules.build(LodOptions.from_json({"scenario": "1778"}))
>>> rules.campaigns, len(rules.winter_cards) >= 1
((1778, 1779, 1780), True)
>>> LodOptions.from_json({"scenario": "1999"})
Traceback (most recent call last):
legalis.model.errors.InputError: options.scenario: no scenario '1999' (allowed: 1775, 1776, 1778)
>>> [spec.rule for spec in option_specs() if spec.name == "removal_pool"]
['3.6.7']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from itertools import combinations
from typing import Any

from legalis.model.coin.deck import Card, Deck, bundled_deck, of_game, read_deck
from legalis.model.coin.effects import Roll as RollEffect
from legalis.model.coin.effects import Side
from legalis.model.coin.scenarios import Release, Scenario, scenario_info, scenario_names
from legalis.model.core.game import OptionSpec
from legalis.model.core.options import option_values, settable
from legalis.model.core.records import walk
from legalis.model.core.views import RandomSource
from legalis.model.errors import InputError
from legalis.solver.nonplayer.options import NonplayerOptions

__all__ = ["FACTIONS", "LodOptions", "LodRules", "option_specs"]

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


# Each option's rule (the most specific paragraph its entry in
# docs/rules-questions.md reads) and a line for people; the values and defaults
# come from the option classes.
_ABOUT: dict[str, tuple[str, str]] = {
    "scenario": ("2.1", "the scenario to set up: its pieces and campaign years"),
    "nonplayers": ("1.5", "the Factions the Non-player rules of section 8 play"),
    "deck": ("2.1", "a deck TOML file to play with; none: the bundled sample deck"),
    # Commands (CommandOptions)
    "march_in_place": ("3.2.3", "a March destination may be selected with nothing moving in"),
    "muster_tories_beside_new_regulars": (
        "3.2.1",
        "Regulars this Muster placed count for placing Tories beside them",
    ),
    "muster_idle_spaces": ("3.2.1", "a selected Muster space may receive nothing"),
    "muster_colony_beside_open_city": (
        "3.2.1",
        "a Colony takes Regulars only next to a City that is not Blockaded",
    ),
    "rally_continentals_at_new_fort": (
        "3.3.1",
        "a Fort this Rally built lets its space turn Militia into Continentals",
    ),
    # Battle (BattleOptions)
    "washington_double": (
        "3.6.8",
        "whether Washington doubles Win-the-Day shifts always or at the Patriots' choice",
    ),
    "removal_pool": (
        "3.6.7",
        "whether an attacker loses only the pieces of the Factions fighting or any of its side's",
    ),
    "elimination_scope": ("3.6.8", "which of a side's pieces must be gone for it to be eliminated"),
    "regular_share": ("3.6.5", "which attacking cubes count for the half-Regulars modifier"),
    "attacker_modifiers": (
        "3.6.5",
        "whose Underground pieces and Leaders give the attacker's modifiers",
    ),
    "common_cause_losses": (
        "3.6.7",
        "whether War Parties fighting as Tories are lost as Tories or after every cube",
    ),
    "event_modifier_scope": (
        "5.1",
        "whether an Event's modifiers of the next Battle apply in one space or the whole Command",
    ),
    "event_modifiers_last": (
        "2.3.6",
        "whether an Event's unused Battle modifiers wait for a Battle or lapse with the card",
    ),
    # sequence of play (SequenceOptions)
    "treaty_half_rounding": (
        "8.1",
        "whether half of an odd CBC counts a half toward the Treaty of Alliance or rounds down",
    ),
    # British (BritishOptions)
    "rebellion_city_needs_pieces": (
        "8.4.1",
        "a City must hold Rebellion pieces to rank first in Garrison and Naval Pressure",
    ),
    "skirmish_cubes": ("8.1.2", "which Rebellion cubes a British Skirmish removes"),
    "battle_before_march": ("8.4.4", "Battle is tried before March when both sentences hold"),
    "garrison_origins": ("8.4.1", "how the spaces sending Regulars to a Garrison are picked"),
    # Patriots (PatriotOptions)
    "battle_activation": (
        "8.5.1",
        "whether the Patriots Activate Underground Militia to win a Battle",
    ),
    "strike_most": ("8.5.1", "Partisans and Skirmish remove two pieces where they can"),
    "persuade_when_spent": (
        "8.5.2",
        "when a Rally or Rabble-Rousing that spends the Resources stops for Persuasion",
    ),
    # French (FrenchOptions)
    "battle_space": (
        "8.6.6",
        "which pieces make a space hold both sides for the French March and Battle",
    ),
    "agent_short_militia": ("8.6.2", "what Agent Mobilization places with one Militia Available"),
    "patriots_join": ("8.6.6", "where the Patriots join a French Battle"),
    "overflow_shifts": (
        "8.6.6",
        "the French place Win-the-Day shifts the Battle space cannot take",
    ),
    "muster_preparer": ("8.6.4", "which Préparer la Guerre follows a French Muster"),
    # Indians (IndiansOptions)
    "player_trade_offer": (
        "8.4.6",
        "the Resources a British player gives the Indians' Trade (0: they take 1)",
    ),
    "scout_anywhere": ("8.7.4", "a Scout with no priority destination goes anywhere, not March"),
    "village_site_by_command": (
        "8.7.3",
        "a March keeps three War Parties where the Gather Command could place a Village",
    ),
    "war_path_when_broke": (
        "8.7.1",
        "War Path when the Indians have no Resources and cannot Trade",
    ),
    "scout_cubes": ("8.7.4", "which Regulars and Tories go with a Scout"),
    # supply (SupplyChoiceOptions)
    "shift_unneeded": ("8.4.7", "the British shift in every unpaid supply space that can shift"),
    "village_site": ("6.2.1", "where a Non-player places the Indians' supply Village"),
    # one-player victory (OnePlayerOptions)
    "difficulty": ("8.8", "the One-Player Difficulty Option"),
    "margin": ("8.8", "which victory margin ranks the Factions at a Victory Phase"),
}


def option_specs() -> tuple[OptionSpec, ...]:
    """Every option a LoD game takes by name: ``scenario``, ``nonplayers`` (every
    combination of Factions, in Faction order), ``deck`` (a file name: any value),
    then each reading of :class:`NonplayerOptions`, its values and default read
    from its option class (``None``: a count).

    >>> specs = {spec.name: spec for spec in option_specs()}
    >>> specs["scenario"].allowed, specs["scenario"].default
    (('1775', '1776', '1778'), '1776')
    >>> specs["skirmish_cubes"].allowed, specs["skirmish_cubes"].rule
    (('least_first', 'alternate'), '8.1.2')
    >>> len(specs["nonplayers"].allowed), specs["nonplayers"].default
    (16, ())
    """
    defaults = LodOptions()
    every_mix = tuple(
        mix for size in range(len(FACTIONS) + 1) for mix in combinations(FACTIONS, size)
    )
    own = {"scenario": tuple(scenario_names("lod")), "nonplayers": every_mix, "deck": None}
    specs = [
        OptionSpec(name, allowed, getattr(defaults, name), *_ABOUT[name])
        for name, allowed in own.items()
    ]
    groups = NonplayerOptions()
    for group in fields(groups):
        options = getattr(groups, group.name)
        for name in settable(type(options)):
            specs.append(
                OptionSpec(
                    name, option_values(type(options), name), getattr(options, name), *_ABOUT[name]
                )
            )
    return tuple(specs)


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
