"""Games per second of a sweep against its backend and number of workers, beside the
same games played in this process, one after another, with no backend at all.

For each game and backend it prints: the time to start the backend and warm its
workers (each imports legalis and loads the games of a few games' play), the wall time
of the games, games per second, the speed-up over the in-process run, and the
overhead per game: the workers' time (wall x workers) less the time the games took
inside their tasks, per game. A study of LoD uses every scenario with the
Non-players at every seat; the Seven Years War, its random players.

    python benchmarks/sweep_scale.py [--lod-games 40] [--sevenyears-games 2000]
                                     [--workers 1,2] [--backends local,ray]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from legalis.backends import open_backend
from legalis.sweep import run_study
from legalis.sweep.play import batch_of, play_batch
from legalis.sweep.store import open_store
from legalis.sweep.study import Study, study_from_axes


def studies(lod_games: int, sevenyears_games: int) -> dict[str, Study]:
    return {
        "lod": study_from_axes(
            "lod",
            scenarios=["1775", "1776", "1778"],
            games=max(1, lod_games // 3),
            invariants="end",
        ),
        "sevenyears": study_from_axes("sevenyears", games=sevenyears_games, invariants="end"),
    }


def in_process(study: Study) -> tuple[float, float, int]:
    """(wall seconds, seconds inside the games, games) of the study played here."""
    started, inside, games = time.perf_counter(), 0.0, 0
    for cell in study.cells:
        for outcome in play_batch(batch_of(study, cell, range(study.games))):
            inside += outcome["seconds"]
            games += 1
    return time.perf_counter() - started, inside, games


def on_backend(study: Study, backend: str, workers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        with open_backend(backend, workers=workers) as runner:
            # the workers start, import and load each cell's game before the clock runs
            warm = study.with_counts(seed=study.seed + 1, games=2 * workers)
            run_study(warm, Path(folder) / "warm", runner, size=1)
            ready = time.perf_counter()
            run_study(study, Path(folder), runner)
            wall = time.perf_counter() - ready
        with open_store(Path(folder), study) as store:
            outcomes = [o for cell in study.cells for o in store.outcomes(cell.key, study.games)]
    inside = sum(o["seconds"] for o in outcomes)
    return {"start": ready - started, "wall": wall, "games": len(outcomes), "inside": inside}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lod-games", type=int, default=60)
    parser.add_argument("--sevenyears-games", type=int, default=2000)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--backends", default="local,ray")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    backends = args.backends.split(",")
    print(
        f"{'game':<11} {'backend':<10} {'workers':>7} {'start s':>8} {'games':>6} "
        f"{'wall s':>8} {'games/s':>8} {'x here':>7} {'overhead ms/game':>17}"
    )
    for name, study in studies(args.lod_games, args.sevenyears_games).items():
        wall, inside, games = in_process(study)
        here = games / wall
        print(
            f"{name:<11} {'in process':<10} {1:>7} {0:>8.1f} {games:>6} {wall:>8.2f} "
            f"{here:>8.1f} {1:>7.2f} {1000 * (wall - inside) / games:>17.2f}"
        )
        for backend in backends:
            for count in workers:
                got = on_backend(study, backend, count)
                rate = got["games"] / got["wall"]
                overhead = 1000 * (got["wall"] * count - got["inside"]) / got["games"]
                print(
                    f"{name:<11} {backend:<10} {count:>7} {got['start']:>8.1f} "
                    f"{got['games']:>6} {got['wall']:>8.2f} {rate:>8.1f} "
                    f"{rate / here:>7.2f} {overhead:>17.2f}"
                )


if __name__ == "__main__":
    main()
