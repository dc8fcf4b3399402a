"""Automatic players: ``random`` (uniform over legal moves) and ``greedy`` (the game's heuristic).

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> game = SevenYearsGame()
>>> state, rng = game.new_initial_state(), LoggedRandom(2)
>>> state.play(state.sample_chance(rng))
>>> RandomPlayer().choose(state, rng) in state.legal_moves()
True
"""

from __future__ import annotations

from typing import Any, Protocol

from legalis.model.core.game import Game
from legalis.model.core.views import RandomSource


class Player(Protocol):
    """Chooses a move at a decision the state awaits."""

    name: str

    def choose(self, state: Any, rng: RandomSource) -> Any: ...


class RandomPlayer:
    """Picks uniformly among the legal moves, by rank, without listing them."""

    name = "random"

    def choose(self, state: Any, rng: RandomSource) -> Any:
        return state.legal_moves().random(rng)


class GreedyPlayer:
    """Follows the game's documented greedy heuristic."""

    name = "greedy"

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, state: Any, rng: RandomSource) -> Any:
        return self.game.greedy_move(state, rng)


AUTOMATIC_PLAYERS = ("random", "greedy")


def automatic_player(kind: str, game: Game) -> Player:
    """The automatic player called ``kind``."""
    if kind == "random":
        return RandomPlayer()
    if kind == "greedy":
        return GreedyPlayer(game)
    raise ValueError(f"unknown player kind {kind!r}")
