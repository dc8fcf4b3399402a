"""Playing whole games: one seeded source drives chance and the automatic players.

>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> from legalis.solver.players import RandomPlayer
>>> game = SevenYearsGame()
>>> players = {"british": RandomPlayer(), "french": RandomPlayer()}
>>> first, again = play_game(game, players, seed=5), play_game(game, players, seed=5)
>>> first.result == again.result and first.moves == again.moves
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from legalis.model.core.game import Game
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.players import Player

CHANCE = "chance"
Observer = Callable[[Any, str, Any], None]


@dataclass
class GameRecord:
    """One finished game: every move with who made it, and the result."""

    game: str
    seed: int
    options: dict[str, Any]
    players: dict[str, str]
    moves: list[tuple[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    turns: int = 0
    decisions: int = 0
    final_state: Any = None


def play_game(
    game: Game,
    players: Mapping[str, Player],
    seed: int,
    *,
    record: bool = True,
    observer: Observer | None = None,
) -> GameRecord:
    """Play one game from the opening; the same seed and players give the same game.

    ``observer(state_before, by, move)`` sees every move; ``record=False`` keeps
    only the counts, for fast simulation.
    """
    rng = LoggedRandom(seed)
    state = game.new_initial_state()
    options = getattr(game, "options", None)
    out = GameRecord(
        game=game.name,
        seed=seed,
        options=options.to_json() if options is not None else {},
        players={side: player.name for side, player in players.items()},
    )
    while not state.is_over:
        by = state.to_move
        if by == CHANCE:
            move = state.sample_chance(rng)
        else:
            move = players[by].choose(state, rng)
            out.decisions += 1
        if observer is not None:
            observer(state, by, move)
        if record:
            out.moves.append((by, move))
        state.play(move)
    out.result = game.result_of(state)
    out.turns = game.summary(state)["turn"]
    out.final_state = state
    return out


def first_decision(game: Game, seed: int) -> tuple[Any, list[Any]]:
    """A new game after its seeded chance moves (the shuffle, the deck, the dice):
    its first decision and those chance moves, so that a log of the game can start
    from the opening.

    >>> from legalis.model.sevenyears.game import SevenYearsGame
    >>> state, opening = first_decision(SevenYearsGame(), 1)
    >>> state.is_chance, len(opening) > 0
    (False, True)
    """
    state, rng = game.new_initial_state(), LoggedRandom(seed)
    opening = []
    while state.is_chance and not state.is_over:
        move = state.sample_chance(rng)
        opening.append(move)
        state.play(move)
    return state, opening
