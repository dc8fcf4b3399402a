"""What a sweep found, per cell: wins by seat and by victory condition with Wilson
95% intervals, game lengths and decisions, the slowest decisions with the state
that reproduces each, and every failure with the log that replays it.

>>> wilson(7, 20)
(0.1812, 0.5671)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import binomtest

from legalis.registry import load_game
from legalis.sweep.play import decision_state
from legalis.sweep.store import FAILURES_FOLDER, SLOWEST_FOLDER, ResultStore
from legalis.sweep.study import Cell, Study

__all__ = ["DRAW", "summarize", "wilson"]

DRAW = "draw"
CONFIDENCE = 0.95


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score interval at 95% of a proportion, rounded to 4 places (no
    trials: nothing is known, the whole range)."""
    if trials == 0:
        return 0.0, 1.0
    interval = binomtest(successes, trials).proportion_ci(CONFIDENCE, method="wilson")
    return round(float(interval.low), 4), round(float(interval.high), 4)


def _share(count: int, trials: int) -> dict[str, Any]:
    low, high = wilson(count, trials)
    return {
        "games": count,
        "share": round(count / trials, 4) if trials else None,
        "low": low,
        "high": high,
    }


def _spread(values: Sequence[float]) -> dict[str, Any] | None:
    if not values:
        return None
    array = np.asarray(values, dtype=float)
    p10, median, p90 = np.percentile(array, [10, 50, 90])
    return {
        "mean": round(float(array.mean()), 3),
        "median": float(median),
        "min": float(array.min()),
        "max": float(array.max()),
        "p10": float(p10),
        "p90": float(p90),
    }


def _slowest(
    study: Study, cell: Cell, outcomes: Sequence[Mapping[str, Any]], folder: Path
) -> list[dict[str, Any]]:
    """The cell's slowest decisions, each with a state file that reproduces it
    (written once: the game is played again to that decision)."""
    timed = sorted(
        (
            {**entry, "index": o["index"], "seed": o["seed"]}
            for o in outcomes
            for entry in o["slowest"]
        ),
        key=lambda entry: -entry["seconds"],
    )[: study.slowest]
    kinds = dict(cell.seats)
    found = []
    for entry in timed:
        path = (
            folder
            / SLOWEST_FOLDER
            / f"{cell.key}-game{entry['index']}-decision{entry['decision']}.json"
        )
        if not path.exists():
            state = decision_state(study, cell, entry["seed"], entry["decision"])
            raw = state.to_json()
            if cell.deck is not None and isinstance(raw.get("options"), dict):
                raw["options"]["deck"] = cell.deck.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
        kind = kinds[entry["seat"]]
        found.append(
            {
                "seconds": round(entry["seconds"], 4),
                "index": entry["index"],
                "seed": entry["seed"],
                "decision": entry["decision"],
                "seat": entry["seat"],
                "kind": kind,
                "state": str(path),
                "reproduce": f"legalis bot {study.game} --state {path} --kind {kind}",
            }
        )
    return found


def _failures(
    cell: Cell, outcomes: Sequence[Mapping[str, Any]], game: str, folder: Path
) -> list[dict[str, Any]]:
    """Every failed game of the cell, its log and traceback written beside the results."""
    found = []
    for outcome in outcomes:
        failure = outcome["failure"]
        if failure is None:
            continue
        stem = folder / FAILURES_FOLDER / f"{cell.key}-game{outcome['index']}"
        stem.parent.mkdir(parents=True, exist_ok=True)
        log, trace = stem.with_suffix(".log"), stem.with_suffix(".traceback.txt")
        log.write_text(failure["log"], encoding="utf-8")
        trace.write_text(failure["traceback"], encoding="utf-8")
        found.append(
            {
                "index": outcome["index"],
                "seed": outcome["seed"],
                "kind": failure["kind"],
                "type": failure["type"],
                "message": failure["message"],
                "moves": outcome["moves"],
                "log": str(log),
                "traceback": str(trace),
                "replay": f"legalis replay {game} {log}",
            }
        )
    return found


def _cell_summary(
    study: Study,
    cell: Cell,
    players: Sequence[str],
    outcomes: Sequence[Mapping[str, Any]],
    folder: Path,
) -> dict[str, Any]:
    finished = [o for o in outcomes if o["status"] == "ok"]
    played = len(finished)
    winners = Counter(o["winner"] or DRAW for o in finished)
    conditions: dict[str, Counter[str]] = {}
    for outcome in finished:
        conditions.setdefault(outcome["winner"] or DRAW, Counter())[outcome["condition"]] += 1
    return {
        **cell.to_json(),
        "planned": study.games,
        "played": len(outcomes),
        "finished": played,
        "failed": len(outcomes) - played,
        "wins": {side: _share(winners[side], played) for side in (*players, DRAW)},
        "by_condition": {
            side: {name: _share(count, played) for name, count in sorted(c.items())}
            for side, c in conditions.items()
        },
        "turns": _spread([o["turns"] for o in finished]),
        "decisions": _spread([o["decisions"] for o in finished]),
        "seconds_per_game": _spread([o["seconds"] for o in outcomes]),
        "slowest": _slowest(study, cell, outcomes, folder),
        "failures": _failures(cell, outcomes, study.game, folder),
    }


def summarize(
    study: Study,
    store: ResultStore,
    folder: Path,
    on_cell: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The study's figures, cell by cell, from the games kept in ``store`` (the
    slowest decisions' states and the failures' logs are written into ``folder``)."""
    players = list(load_game(study.game).players)
    cells = []
    for cell in study.cells:
        cells.append(
            _cell_summary(study, cell, players, store.outcomes(cell.key, study.games), folder)
        )
        if on_cell is not None:
            on_cell(1)
    played = sum(c["played"] for c in cells)
    return {
        "study": study.to_json(),
        "game": study.game,
        "players": players,
        "confidence": CONFIDENCE,
        "planned": study.games * len(study.cells),
        "played": played,
        "failed": sum(c["failed"] for c in cells),
        "complete": played == study.games * len(study.cells),
        "cells": cells,
    }
