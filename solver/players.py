"""Automatic players: ``random`` (uniform over legal moves), ``greedy`` (the game's heuristic)
and, in a game that has one, the rules' own ``nonplayer`` seat.

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> game = SevenYearsGame()
>>> state, rng = game.new_initial_state(), LoggedRandom(2)
>>> state.play(state.sample_chance(rng))
>>> RandomPlayer().choose(state, rng) in state.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from legalis.model.core.game import Game
from legalis.model.core.views import RandomSource
from legalis.model.errors import InputError, clip


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


NONPLAYER = "nonplayer"  # a seat the game's own rules play (LoD section 8)


def seat_kinds(game: Game) -> tuple[str, ...]:
    """The kinds of player that may take a seat of ``game``, ``human`` among them.

    >>> from legalis.model.sevenyears.game import SevenYearsGame
    >>> seat_kinds(SevenYearsGame())
    ('random', 'greedy', 'human')
    """
    return tuple(game.seat_kinds)


def seat_plan(
    game: Game,
    defaults: Mapping[str, str],
    pairs: Sequence[str],
    kinds: Sequence[str],
    where: str = "--seat",
) -> dict[str, str]:
    """Who plays each seat: the ``defaults``, then each ``SEAT=KIND`` of ``pairs``,
    every kind one of ``kinds``; a bad pair names ``where``.

    >>> from legalis.model.sevenyears.game import SevenYearsGame
    >>> game = SevenYearsGame()
    >>> everyone = dict.fromkeys(game.players, "random")
    >>> seat_plan(game, everyone, ["french=greedy"], ("random", "greedy"))
    {'british': 'random', 'french': 'greedy'}
    """
    seats = dict(defaults)
    for pair in pairs:
        seat, sep, kind = (part.strip() for part in pair.partition("="))
        if not sep:
            raise InputError(f"expected SEAT=KIND, got {clip(pair)!r}", path=where,
                             allowed=game.players)  # fmt: skip
        if seat not in game.players:
            raise InputError(f"no seat {clip(seat)!r} in {game.name}", path=where,
                             allowed=game.players)  # fmt: skip
        if kind not in kinds:
            raise InputError(f"unknown player {clip(kind)!r} for {seat}", path=where,
                             allowed=kinds)  # fmt: skip
        seats[seat] = kind
    return seats


def seated_options(
    option_names: Sequence[str], options: Mapping[str, Any], seats: Mapping[str, str]
) -> dict[str, Any]:
    """The rule ``options`` with the seats played by the rules named, where the game
    reads an option ``nonplayers`` (the Non-player rules change the game, LoD 8.1).

    >>> seated_options(("scenario", "nonplayers"), {"scenario": "1778"},
    ...                {"british": "nonplayer", "patriots": "random"})
    {'scenario': '1778', 'nonplayers': ['british']}
    """
    if "nonplayers" not in option_names:
        return dict(options)
    return {**options, "nonplayers": [seat for seat, kind in seats.items() if kind == NONPLAYER]}


def automatic_player(kind: str, game: Game, seat: str | None = None) -> Player:
    """The automatic player called ``kind``; a ``nonplayer`` plays ``seat`` by the rules."""
    if kind == "random":
        return RandomPlayer()
    if kind == "greedy":
        return GreedyPlayer(game)
    if kind == NONPLAYER and seat is not None and NONPLAYER in seat_kinds(game):
        seated: Player = cast(Any, game).nonplayer_seat(seat)  # not every Game has one
        return seated
    raise ValueError(f"unknown player kind {kind!r}")
