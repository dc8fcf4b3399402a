"""Non-players playing Liberty or Death on their own: each Event card is offered to
the first two Eligible Factions in the card's order (2.3.2), each takes its
Non-player turn (8.3-8.7), and the Factions that acted are Ineligible for the next
card (2.3.6). Winter Quarters cards are dealt into the deck as the scenario
prepares it, and each runs a whole Winter Quarters Round with Non-player choices
(6.0); the game ends at a Victory Check or after the last Round. The states met
are reachable by legal play, which the tests of the flowcharts and the bot
benchmark draw on.

Kept short on purpose: a Faction that Passes stays Eligible, no Brilliant Stroke
is played, and the Winter Quarters cards' own Events are not modelled.

>>> from legalis.model.coin.deck import bundled_deck
>>> from legalis.model.coin.scenarios import scenario_info
>>> scenario = scenario_info("lod", "1778")
>>> taken = list(nonplayer_playout(scenario, bundled_deck("lod").cards, LoggedRandom(4), 3))
>>> len(taken), taken[0].state is scenario.state
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from legalis.model.coin.deck import Card, event_cards
from legalis.model.coin.scenarios import Scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError, SolverLimitError
from legalis.model.lod.commands import (
    COMMANDS,
    apply_command,
    available_commands,
    command_view,
    fight_battles,
)
from legalis.solver.nonplayer.turn import NonplayerTurn, nonplayer_turn
from legalis.solver.nonplayer.winter_round import WinterRound, winter_quarters_round

__all__ = ["PlayoutTurn", "WinterCard", "nonplayer_playout", "playout_deck", "random_commands"]

ACTING = 2  # 2.3.2: the 1st and 2nd Eligible Factions
PILE = 10  # Deck Preparation: Event cards dealt per campaign
WINTER_AMONG = 4  # ... a Winter Quarters card shuffled into the pile's bottom 4


@dataclass(frozen=True)
class WinterCard:
    """A Winter Quarters card of the playout deck, ending the campaign ``year``."""

    year: int


@dataclass(frozen=True)
class PlayoutTurn:
    """One Non-player turn of a playout: the state it started from, the card, the
    Faction, the seed its dice came from, and what it did; ``winter``: the Winter
    Quarters Round played just before it, if any (``state`` is the one it left)."""

    state: CoinState
    card: Card
    faction: str
    seed: int
    turn: NonplayerTurn
    winter: WinterRound | None = None


def playout_deck(
    events: Sequence[Card], campaigns: Sequence[int], rng: LoggedRandom
) -> list[Card | WinterCard]:
    """The cards in the order they are played: per campaign, a pile of 10 Event
    cards drawn from ``events`` with a Winter Quarters card shuffled into its
    bottom four (Deck Preparation; the piles may repeat a card when ``events`` is
    a small sample); each Winter Quarters card then comes before the Event card
    played ahead of it, as 2.3.7 switches them when it is revealed.

    >>> from legalis.model.coin.deck import bundled_deck
    >>> deck = playout_deck(bundled_deck("lod").cards, [1778, 1779], LoggedRandom(0))
    >>> len(deck), [c for c in deck if isinstance(c, WinterCard)]
    (22, [WinterCard(year=1778), WinterCard(year=1779)])
    """
    pool = event_cards(events)
    if len(pool) < PILE:
        raise InputError(f"a playout deck needs {PILE} Event cards, got {len(pool)}",
                         path="cards")  # fmt: skip
    deck: list[Card | WinterCard] = []
    for year in campaigns:
        order = list(range(len(pool)))
        for i in range(PILE):  # a partial shuffle: the pile's 10 cards
            j = i + rng.randrange(len(order) - i)
            order[i], order[j] = order[j], order[i]
        pile: list[Card | WinterCard] = [pool[i] for i in order[:PILE]]
        at = PILE - WINTER_AMONG + rng.randrange(WINTER_AMONG + 1)
        pile.insert(at, WinterCard(year))
        pile[at - 1], pile[at] = pile[at], pile[at - 1]  # 2.3.7: the switch
        deck += pile
    return deck


def nonplayer_playout(
    scenario: Scenario, cards: Sequence[Card], rng: LoggedRandom, turns: int
) -> Iterator[PlayoutTurn]:
    """Up to ``turns`` Non-player turns of ``scenario`` played with a deck dealt from
    ``cards`` (:func:`playout_deck`); each turn's dice, and each Winter Quarters
    Round's, come from a seed drawn from ``rng``, so a turn can be replayed alone.
    Fewer turns come when the game ends first."""
    campaigns = list(scenario.details.get("campaigns", ()))
    deck = playout_deck(cards, campaigns, rng)
    state = scenario.state
    ineligible: set[str] = set()
    winter: WinterRound | None = None
    rounds = taken = 0
    for at, card in enumerate(deck):
        if isinstance(card, WinterCard):
            rounds += 1
            on_deck = deck[at + 1] if at + 1 < len(deck) else None
            first = on_deck.factions[0] if isinstance(on_deck, Card) else None
            winter = winter_quarters_round(
                state, LoggedRandom(rng.randrange(2**31)), year=card.year,
                releases=scenario.releases, leader_change_faction=first,
                round_number=rounds, final=card.year == campaigns[-1],
            )  # fmt: skip
            state = winter.state
            ineligible = set()  # 6.7: all Factions Eligible
            if winter.outcome != "continue":
                return
            continue
        order = [faction for faction in card.factions if faction not in ineligible]
        acted: set[str] = set()
        for faction in order[:ACTING]:
            seed = rng.randrange(2**31)
            decided = nonplayer_turn(state, card, faction, LoggedRandom(seed))
            yield PlayoutTurn(state, card, faction, seed, decided, winter)
            winter = None
            if decided.choice != "pass":
                acted.add(faction)
            state = decided.state
            taken += 1
            if taken == turns:
                return
        ineligible = acted


def random_commands(state: CoinState, rng: random.Random, steps: int) -> CoinState:
    """The state after ``steps`` Commands of random Factions, each drawn uniformly
    from its legal moves (a Battle fought with ``rng``): states the flowcharts'
    tests start from. A Command with no legal move, or too many to rank, is skipped.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> random_commands(state, random.Random(3), 4) != state
    True
    """
    factions = sorted(COMMANDS)
    for _ in range(steps):
        faction = rng.choice(factions)
        name = rng.choice(available_commands(state, faction))
        try:
            view = command_view(state, faction, name)
            count = view.count()
            if not count:
                continue
            move = view.nth(rng.randrange(count))
        except SolverLimitError:
            continue
        if name == "battle":
            state = fight_battles(state, move, rng)[0].state
        else:
            state = apply_command(state, move).state
    return state
