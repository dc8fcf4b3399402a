"""Many games of one game with the same seats: wins by seat and by victory
condition, lengths and decisions.

>>> from legalis.registry import load_game
>>> from legalis.solver.players import RandomPlayer
>>> game = load_game("sevenyears")
>>> seats = dict.fromkeys(game.players, RandomPlayer())
>>> figures = simulate(game, seats, 3, 1, show_progress=False)
>>> figures["games"], sum(figures["wins"].values())
(3, 3)
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from rich.table import Table

from legalis.solver.players import Player
from legalis.solver.playout import play_game
from legalis.terminal import interruptible, out, plural, progress

__all__ = ["print_simulation", "simulate"]


def print_simulation(game: Any, stats: dict[str, Any]) -> None:
    played, seed, kinds = stats["games"], stats["seed"], stats["players"]
    if stats["interrupted"]:
        out.print(f"interrupted: {played} of {stats['games_requested']} games finished")
    if not played:
        return
    seats = ", ".join(f"{side} {kind}" for side, kind in kinds.items())
    out.print(
        f"{plural(played, 'game')} of {game.title} ({seats}), seeds {seed}..{seed + played - 1}"
    )
    table = Table("winner", "games", "share", *stats["conditions"])
    for side, count in stats["wins"].items():
        share = f"{100 * count / played:.1f}%"
        by_condition = stats["by_condition"].get(side, {})
        table.add_row(
            side, str(count), share, *(str(by_condition.get(c, 0)) for c in stats["conditions"])
        )
    out.print(table)
    out.print(
        f"mean game length {stats['mean_turns']:.2f} turns, "
        f"{stats['mean_decisions']:.1f} decisions per game, "
        f"{stats['games_per_second']:.0f} games/s"
    )


def simulate(
    game: Any, players: dict[str, Player], count: int, seed: int, *, show_progress: bool
) -> dict[str, Any]:
    """Play ``count`` games with seeds ``seed..seed+count-1`` and gather the figures.

    Ctrl-C stops it after the game under way: the figures are those of the games
    finished, marked ``interrupted``.
    """
    wins: Counter[str] = Counter()
    by_condition: dict[str, Counter[str]] = {}
    turns = decisions = played = 0
    started = time.perf_counter()
    with progress(count, "simulating", show_progress) as advance, interruptible() as stop:
        for index in range(count):
            if stop():
                break
            record = play_game(game, players, seed + index, record=False)
            played += 1
            result = record.result or {"winner": None, "condition": "draw"}
            side = result["winner"] or "draw"
            wins[side] += 1
            by_condition.setdefault(side, Counter())[result["condition"]] += 1
            turns += record.turns
            decisions += record.decisions
            advance(1)
    elapsed = time.perf_counter() - started
    conditions = sorted({c for counter in by_condition.values() for c in counter})
    ordered = {side: wins.get(side, 0) for side in (*game.players, "draw")}
    return {
        "game": game.name,
        "games": played,
        "games_requested": count,
        "interrupted": played < count,
        "seed": seed,
        "options": game.options.to_json(),
        "wins": ordered,
        "conditions": conditions,
        "by_condition": {side: dict(counter) for side, counter in by_condition.items()},
        "mean_turns": turns / max(played, 1),
        "mean_decisions": decisions / max(played, 1),
        "seconds": elapsed,
        "games_per_second": played / elapsed if elapsed else 0.0,
    }
