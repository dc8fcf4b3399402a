"""Sweeps: many games of one game over a grid of settings, on this machine's cores
or a Ray cluster, with results that depend on neither.

A study (:mod:`legalis.sweep.study`) is cut into batches of games of one cell
(:mod:`legalis.sweep.play`); a backend (:mod:`legalis.backends`) plays them; each
finished batch is kept at once (:mod:`legalis.sweep.store`), so a stopped run
resumes where it stopped; the figures (:mod:`legalis.sweep.report`) and the plots
(:mod:`legalis.sweep.plots`) are made from what was kept.

>>> import tempfile
>>> from legalis.backends import open_backend
>>> from legalis.sweep.study import study_from_axes
>>> study = study_from_axes("sevenyears", games=4, seats=["default", "french=greedy"])
>>> with tempfile.TemporaryDirectory() as folder, open_backend("local", workers=2) as backend:
...     run = run_study(study, Path(folder), backend)
...     summary = report_study(study, Path(folder))
>>> run["played"], summary["played"], summary["failed"]
(8, 8, 0)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from legalis.backends import Backend
from legalis.sweep.play import Batch, batch_of, play_batch
from legalis.sweep.plots import draw_plots
from legalis.sweep.report import summarize
from legalis.sweep.store import ResultStore, open_store
from legalis.sweep.study import Study

__all__ = ["SUMMARY_FILE", "plan", "report_study", "run_study"]

SUMMARY_FILE = "summary.json"
MAX_BATCH = 64  # games per task at most: a Ctrl-C loses at most this many per worker
TASKS_PER_WORKER = 16  # enough tasks that the workers finish close together


def _never() -> bool:
    return False


def batch_size(missing: int, workers: int) -> int:
    """Games per task: few enough that every worker gets many tasks, many enough
    that a task's overhead is spread over its games.

    >>> batch_size(10_000, 2), batch_size(40, 2), batch_size(1, 8)
    (64, 1, 1)
    """
    return max(1, min(MAX_BATCH, missing // (workers * TASKS_PER_WORKER)))


def plan(study: Study, store: ResultStore, workers: int, size: int | None = None) -> list[Batch]:
    """The tasks that play every game of ``study`` not yet in ``store``."""
    missing = {
        cell: sorted(set(range(study.games)) - store.finished(cell.key)) for cell in study.cells
    }
    size = size or batch_size(sum(len(m) for m in missing.values()), workers)
    return [
        batch_of(study, cell, indices[start : start + size])
        for cell, indices in missing.items()
        for start in range(0, len(indices), size)
    ]


def run_study(
    study: Study,
    folder: Path,
    backend: Backend,
    *,
    size: int | None = None,
    fresh: bool = False,
    stop: Callable[[], bool] = _never,
    on_start: Callable[[int], None] | None = None,
    on_games: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play the games of ``study`` missing from ``folder`` on ``backend``, keeping
    each batch as it finishes. ``on_start(missing)`` hears how many games are to
    play; ``on_games(games, failed)`` hears of each batch kept. Stopped by
    ``stop()``, it returns with what was kept (``interrupted``)."""
    with open_store(folder, study, fresh=fresh) as store:
        batches = plan(study, store, backend.workers, size)
        missing = sum(len(batch.games) for batch in batches)
        if on_start is not None:
            on_start(missing)
        played = failed = 0
        for _, outcomes in backend.unordered(play_batch, batches, stop):
            store.add(outcomes)
            lost = sum(outcome["status"] != "ok" for outcome in outcomes)
            played, failed = played + len(outcomes), failed + lost
            if on_games is not None:
                on_games(len(outcomes), lost)
    return {"missing": missing, "played": played, "failed": failed, "interrupted": played < missing}


def report_study(
    study: Study, folder: Path, *, on_cell: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """The figures of the games kept in ``folder``, written there as summary.json
    with the plots, the slowest decisions' states and the failures' logs."""
    with open_store(folder, study) as store:
        summary = summarize(study, store, folder, on_cell)
        values: dict[str, dict[str, list[float]]] = {
            cell.key: {"turns": [], "decisions": []} for cell in study.cells
        }
        for cell in study.cells:
            for outcome in store.outcomes(cell.key, study.games):
                if outcome["status"] == "ok":
                    values[cell.key]["turns"].append(outcome["turns"])
                    values[cell.key]["decisions"].append(outcome["decisions"])
    summary["plots"] = draw_plots(summary, values, folder)
    (folder / SUMMARY_FILE).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary
