"""Fire in the Lake as a registered game: one card of the deck, its Event executed
by one Faction (rules 5.1-5.5).

The card is drawn at random from the deck's Event cards, unless the ``card`` option
names it; the first Faction of its Faction order executes it, unless the
``faction`` option names another. Its legal moves are every legal execution of
either side (5.2); once one is carried out the game is over. No victory is
modelled: the result has no winner, and the greedy seat weighs the Factions'
victory margins (7.2) only to choose.

>>> import random
>>> game = FitlGame()
>>> state = game.new_initial_state()
>>> state.to_move
'chance'
>>> state.play(state.sample_chance(random.Random(5)))
>>> game.summary(state)["to_move"], game.summary(state)["card"]["title"]
('nva', 'Monsoon Resupply Lag')

The greedy seat takes the execution best for its own margin: here, of the three
pairs of Provinces the US may set to Passive Support, the pair worth most Support.

>>> game = FitlGame({"card": 25, "faction": "us"})
>>> game.describe_move(game.greedy_move(game.new_initial_state(), random.Random(1)))
'us: unshaded Event of card 25 (Provincial Elections): Quang Tin-Quang Ngai, Kien Hoa-Vinh Binh'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from legalis.model.coin.scenarios import scenario_names
from legalis.model.coin.state import rules_for
from legalis.model.core.game import OptionSpec
from legalis.model.fitl.victory import victory_margins
from legalis.solver.coinevents.game import CoinEventGame
from legalis.solver.coinevents.options import EventOptions
from legalis.solver.coinevents.state import CoinEventState

__all__ = ["FitlGame", "FitlState", "option_specs"]

GAME = "fitl"
FitlState = CoinEventState
"""A Fire in the Lake state of :class:`FitlGame`."""


def option_specs() -> tuple[OptionSpec, ...]:
    """Every option of :class:`FitlGame`: its name, values, default and rule.

    >>> [(spec.name, spec.default) for spec in option_specs()]
    [('scenario', 'short'), ('deck', None), ('card', None), ('faction', None)]
    """
    defaults = EventOptions.from_json(None, game=GAME)
    return (
        OptionSpec(
            "scenario",
            tuple(scenario_names(GAME)),
            defaults.scenario,
            "2.1",
            "the scenario whose set-up is the board",
        ),
        OptionSpec(
            "deck",
            None,
            defaults.deck,
            "5.0",
            "a deck TOML file; none: the bundled sample deck",
        ),
        OptionSpec(
            "card",
            None,
            defaults.card,
            "5.0",
            "the number of the card played; none: drawn at random from the deck's Event cards",
        ),
        OptionSpec(
            "faction",
            (*rules_for(GAME).faction_ids, None),
            defaults.faction,
            "5.1",
            "the executing Faction; none: the first of the card's Faction order",
        ),
    )


class FitlGame(CoinEventGame):
    """Fire in the Lake: one card's Event, executed by one Faction."""

    def __init__(self, options: Mapping[str, Any] | EventOptions | None = None) -> None:
        super().__init__(GAME, options, margins=victory_margins)
