"""What the browser table asks of the server at a heavy Liberty or Death decision
(an Event of 11 million executions beside the Commands): the count, the groups
with their counts, the first page and a page of the last group, each timed with
the counts of repeated distribution problems kept and, side by side, recomputed
every time (the counting before they were kept).

    python benchmarks/table_requests.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import legalis.solver.distribute as distribute
from legalis.model.core.views import move_groups

import legalis

STATE = (
    Path(__file__).parents[1]
    / "tests/solver/lodgame/data/an_event_of_eleven_million_executions.json"
)


def requests(game: Any, raw: dict[str, Any]) -> dict[str, Callable[[], object]]:
    """Each request of the table, on a state read afresh (as the server reads it)."""

    def fresh() -> Any:
        return game.state_from_json(raw).legal_moves()

    def last_page() -> object:
        view = fresh()
        last = move_groups(view, game.move_group)[-1]
        return [view.nth(last.offset + i) for i in range(min(20, last.count or 0))]

    return {
        "count": lambda: fresh().count(),
        "groups": lambda: move_groups(fresh(), game.move_group),
        "first page of 50": lambda: [m for _, m in zip(range(50), fresh(), strict=False)],
        "a page of the last group": last_page,
    }


def timed(work: Callable[[], object], repeat: int, kept: bool) -> float:
    kept_counting = distribute._count_cached
    best = float("inf")
    for _ in range(repeat):
        distribute._KEPT_COUNTS.clear()
        if not kept:  # the counting before counts were kept
            distribute._count_cached = lambda problem: problem._count_now()
        try:
            start = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - start)
        finally:
            distribute._count_cached = kept_counting
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=3, help="Runs of each; the best is shown.")
    args = parser.parse_args()
    raw = json.loads(STATE.read_text())
    game = legalis.load_game("lod", raw["options"])
    print(f"{'request':<26}{'kept':>10}{'recomputed':>13}{'ratio':>8}")
    for name, work in requests(game, raw).items():
        kept = timed(work, args.repeat, kept=True)
        recomputed = timed(work, args.repeat, kept=False)
        print(f"{name:<26}{kept:>9.2f}s{recomputed:>12.2f}s{recomputed / kept:>7.1f}x")


if __name__ == "__main__":
    main()
