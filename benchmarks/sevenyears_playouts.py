"""Random-vs-random playouts of The Seven Years War, on one core.

Prints, side by side with the target, the time of 10,000 complete games, and the
time to list every legal move of an average decision against counting them and
against drawing one random move by rank (what a random player does).

    python benchmarks/sevenyears_playouts.py [--games 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from legalis.solver.players import RandomPlayer
from legalis.solver.playout import play_game

from legalis.registry import load_game

TARGET_SECONDS_PER_10K = 20.0


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity)"


def playouts(games: int, seed: int) -> tuple[float, float]:
    game = load_game("sevenyears")
    players = {"british": RandomPlayer(), "french": RandomPlayer()}
    decisions = 0
    started = time.perf_counter()
    for index in range(games):
        decisions += play_game(game, players, seed + index, record=False).decisions
    return time.perf_counter() - started, decisions / games


def decision_timings(samples: int, seed: int) -> dict[str, dict[str, float]]:
    """Per decision kind: mean microseconds to list all moves, to count, to draw one."""
    game = load_game("sevenyears")
    rng = random.Random(seed)
    timings: dict[str, dict[str, list[float]]] = {}
    taken = 0
    while taken < samples:
        state = game.new_initial_state()
        while not state.is_over and taken < samples:
            if state.is_chance:
                state.play(state.sample_chance(rng))
                continue
            kind = state.pending[0]
            row = timings.setdefault(kind, {"list": [], "count": [], "random": [], "moves": []})
            copy = state.copy()
            start = time.perf_counter()
            moves = list(copy.legal_moves())
            row["list"].append(time.perf_counter() - start)
            copy = state.copy()
            start = time.perf_counter()
            copy.legal_moves().count()
            row["count"].append(time.perf_counter() - start)
            copy = state.copy()
            start = time.perf_counter()
            copy.legal_moves().random(rng)
            row["random"].append(time.perf_counter() - start)
            row["moves"].append(len(moves))
            taken += 1
            state.play(state.legal_moves().random(rng))
    everything = {
        name: [value for row in timings.values() for value in row[name]]
        for name in ("list", "count", "random", "moves")
    }
    timings["(every)"] = everything
    return {
        kind: {
            name: statistics.fmean(values) * (1 if name == "moves" else 1e6)
            for name, values in row.items()
        }
        for kind, row in timings.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=20_000, help="decisions timed one by one")
    args = parser.parse_args()
    print(pin_to_one_core())
    seconds, decisions = playouts(args.games, args.seed)
    per_10k = seconds * 10_000 / args.games
    print(
        f"{args.games} random-vs-random games: {seconds:.2f} s, "
        f"{args.games / seconds:.0f} games/s, "
        f"{decisions:.1f} decisions per game"
    )
    print(
        f"10,000 games: {per_10k:.2f} s against a target of {TARGET_SECONDS_PER_10K:.0f} s "
        f"(target / measured = {TARGET_SECONDS_PER_10K / per_10k:.2f})"
    )
    print()
    print(
        f"{'decision':<11}{'moves':>8}{'list us':>10}{'count us':>10}{'random us':>11}"
        f"{'list/count':>12}{'list/random':>13}"
    )
    for kind, row in sorted(decision_timings(args.samples, args.seed).items()):
        print(
            f"{kind:<11}{row['moves']:>8.1f}{row['list']:>10.1f}{row['count']:>10.1f}{row['random']:>11.1f}"
            f"{row['list'] / row['count']:>12.1f}{row['list'] / row['random']:>13.1f}"
        )


if __name__ == "__main__":
    main()
