"""A sweep's figures for people: one row per cell, then its failures and its
slowest decisions, each with the command that replays it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Column, Table

from legalis.terminal import out, plural

__all__ = ["print_summary"]


def _wins(cell: Mapping[str, Any], sides: list[str]) -> str:
    """Each side's share of the cell's finished games with its interval, and how
    many of its wins each victory condition gave."""
    lines = []
    width = max(len(side) for side in sides)
    for side in sides:
        share = cell["wins"][side]
        if share["share"] is None:
            return "-"
        conditions = cell["by_condition"].get(side, {})
        how = ", ".join(f"{name} {won['games']}" for name, won in conditions.items())
        lines.append(
            f"{side:<{width}} {100 * share['share']:>3.0f}%  "
            f"{100 * share['low']:.0f}-{100 * share['high']:.0f}" + (f"  ({how})" if how else "")
        )
    return "\n".join(lines)


def _length(cell: Mapping[str, Any]) -> str:
    if cell["turns"] is None:
        return "-"
    return (
        f"{cell['turns']['mean']:.1f} turns\n{cell['decisions']['mean']:.0f} decisions\n"
        f"{cell['seconds_per_game']['mean']:.3f} s/game"
    )


def _labels(cells: list[Mapping[str, Any]]) -> tuple[str, list[str]]:
    """What every cell shares, and each cell's own settings: the parts of the cells'
    labels that are not the same in all of them."""
    if len(cells) == 1:
        return "", [cells[0]["label"]]
    parts = [cell["label"].split(", ") for cell in cells]
    common = [part for part in parts[0] if all(part in others for others in parts)]
    own = [", ".join(p for p in cell_parts if p not in common) or "-" for cell_parts in parts]
    return ", ".join(common), own


def print_summary(summary: Mapping[str, Any], folder: str, run: Mapping[str, Any]) -> None:
    """The figures of ``summary`` as a table, the failures and the slowest decisions."""
    if run["interrupted"]:
        out.print(
            f"interrupted: {run['played']} of {run['missing']} games played this run; "
            "the same command resumes the study"
        )
    cells = summary["cells"]
    drawn = any(cell["wins"]["draw"]["games"] for cell in cells)
    shown = [*summary["players"], *(["draw"] if drawn else [])]
    common, labels = _labels(cells)
    if common:
        out.print(f"every cell: {common}", markup=False)
    table = Table(
        Column("cell", overflow="fold", ratio=2, min_width=14),
        Column("games", no_wrap=True),
        Column(f"won ({int(100 * summary['confidence'])}% interval; by condition)", ratio=3),
        Column("length (mean)", no_wrap=True, min_width=13),
        title=f"{summary['game']}: {plural(summary['played'], 'game')} of "
        f"{summary['planned']} planned",
    )
    for cell, label in zip(cells, labels, strict=True):
        failed = f"\n[red]{cell['failed']} failed[/red]" if cell["failed"] else ""
        table.add_row(
            label,
            f"{cell['finished']}/{cell['planned']}{failed}",
            _wins(cell, shown),
            _length(cell),
        )
    out.print(table)
    for cell in summary["cells"]:
        for failure in cell["failures"]:
            out.print(
                f"[red]failed[/red] {cell['label']}, game {failure['index']} (seed "
                f"{failure['seed']}): {failure['kind']}: {failure['type']}: {failure['message']}"
            )
            out.print(f"  replay: {failure['replay']}", markup=False)
    slowest = sorted(
        ((entry, cell) for cell in summary["cells"] for entry in cell["slowest"]),
        key=lambda pair: -pair[0]["seconds"],
    )[:3]
    for entry, cell in slowest:
        out.print(
            f"slow: {entry['seconds']:.3f} s, {entry['seat']} ({entry['kind']}) at decision "
            f"{entry['decision']} of game {entry['index']}, {cell['label']}",
            markup=False,
        )
        out.print(f"  reproduce: {entry['reproduce']}", markup=False)
    out.print(f"results, summary.json and plots in {folder}", markup=False)
