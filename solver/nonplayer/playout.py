"""Non-players playing Liberty or Death cards on their own: each Event card is
offered to the first two Eligible Factions in the card's order (2.3.2), each takes
its Non-player turn (8.3-8.7), and the Factions that acted are Ineligible for the
next card (2.3.6). The states met are reachable by legal play, which the tests of
the flowcharts and the bot benchmark draw on.

The sequence of play is kept short on purpose: no Winter Quarters card is dealt
and a Faction that Passes stays Eligible.

>>> from legalis.model.coin.deck import bundled_deck
>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> taken = list(nonplayer_playout(state, bundled_deck("lod").cards, LoggedRandom(4), 3))
>>> len(taken), taken[0].state is state
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from legalis.model.coin.deck import Card
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import SolverLimitError
from legalis.model.lod.commands import (
    COMMANDS,
    apply_command,
    available_commands,
    command_view,
    fight_battles,
)
from legalis.solver.nonplayer.turn import NonplayerTurn, nonplayer_turn

__all__ = ["PlayoutTurn", "nonplayer_playout", "random_commands"]

ACTING = 2  # 2.3.2: the 1st and 2nd Eligible Factions


@dataclass(frozen=True)
class PlayoutTurn:
    """One Non-player turn of a playout: the state it started from, the card, the
    Faction, the seed its dice came from, and what it did."""

    state: CoinState
    card: Card
    faction: str
    seed: int
    turn: NonplayerTurn


def nonplayer_playout(
    state: CoinState, cards: Sequence[Card], rng: LoggedRandom, turns: int
) -> Iterator[PlayoutTurn]:
    """``turns`` Non-player turns from ``state``, the Event cards drawn at random
    from ``cards`` (Brilliant Stroke cards are left out); each turn's dice come from
    a seed drawn from ``rng``, so it can be replayed alone."""
    deck = [card for card in cards if card.kind == "event"]
    ids = {state.rules.data.faction(f).name: state.rules.data.faction(f).id
           for f in state.rules.data.faction_ids()}  # fmt: skip
    ineligible: set[str] = set()
    taken = 0
    while taken < turns:
        card = deck[rng.randrange(len(deck))]
        order = [ids[name] for name in card.factions if ids[name] not in ineligible]
        acted: set[str] = set()
        for faction in order[:ACTING]:
            seed = rng.randrange(2**31)
            decided = nonplayer_turn(state, card, faction, LoggedRandom(seed))
            yield PlayoutTurn(state, card, faction, seed, decided)
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
