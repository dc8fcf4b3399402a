"""A sweep's pictures, as PNG and SVG: the win rates of every cell with their
Wilson intervals, and the spread of game lengths and decisions per cell.

The files are the same for the same results (no date, fixed hash salt), so a
resumed study that played nothing new leaves them as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no window, whatever the machine has

import matplotlib.pyplot as plt

__all__ = ["FORMATS", "draw_plots"]

FORMATS = ("png", "svg")
_METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


def _save(figure: Any, stem: Path) -> list[str]:
    written = []
    with plt.rc_context({"svg.hashsalt": "legalis", "svg.fonttype": "none"}):
        for kind in FORMATS:
            path = stem.with_suffix(f".{kind}")
            figure.savefig(
                path, format=kind, dpi=110, bbox_inches="tight", metadata=_METADATA[kind]
            )
            written.append(str(path))
    plt.close(figure)
    return written


def _win_rates(summary: Mapping[str, Any], stem: Path) -> list[str]:
    cells, sides = summary["cells"], [*summary["players"], "draw"]
    shown = [side for side in sides if any(c["wins"][side]["games"] for c in cells)] or sides
    height = max(2.5, 0.45 * len(cells) * max(1, len(shown)) / 2 + 1.2)
    figure, axes = plt.subplots(figsize=(8, height))
    step = 0.8 / len(shown)
    for number, side in enumerate(shown):
        rows = [row - 0.4 + step * (number + 0.5) for row in range(len(cells))]
        share = [c["wins"][side]["share"] or 0.0 for c in cells]
        low = [s - c["wins"][side]["low"] for s, c in zip(share, cells, strict=True)]
        high = [c["wins"][side]["high"] - s for s, c in zip(share, cells, strict=True)]
        axes.errorbar(share, rows, xerr=[low, high], fmt="o", capsize=3, label=side)
    axes.set_yticks(range(len(cells)), [_short(c["label"]) for c in cells])
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel(
        f"share of finished games won ({int(summary['confidence'] * 100)}% Wilson interval)"
    )
    axes.set_title(f"{summary['game']}: wins per cell")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    axes.grid(axis="x", alpha=0.3)
    return _save(figure, stem)


def _lengths(
    summary: Mapping[str, Any], values: Mapping[str, Mapping[str, Sequence[float]]], stem: Path
) -> list[str]:
    cells = summary["cells"]
    height = max(2.5, 0.4 * len(cells) + 1.2)
    figure, (turns, decisions) = plt.subplots(1, 2, figsize=(11, height), sharey=True)
    labels = [_short(c["label"]) for c in cells]
    for axes, name in ((turns, "turns"), (decisions, "decisions")):
        data = [list(values[c["key"]][name]) or [0] for c in cells]
        axes.boxplot(data, orientation="horizontal", tick_labels=labels, showmeans=True)
        axes.set_xlabel(f"{name} per finished game")
        axes.grid(axis="x", alpha=0.3)
    turns.invert_yaxis()
    figure.suptitle(f"{summary['game']}: game length per cell")
    return _save(figure, stem)


def _short(label: str, width: int = 60) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def draw_plots(
    summary: Mapping[str, Any], values: Mapping[str, Mapping[str, Sequence[float]]], folder: Path
) -> list[str]:
    """Write ``win-rates`` and ``lengths`` (PNG and SVG) into ``folder``; ``values``
    holds each cell's ``turns`` and ``decisions`` per finished game. The paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    return [
        *_win_rates(summary, folder / "win-rates"),
        *_lengths(summary, values, folder / "lengths"),
    ]
