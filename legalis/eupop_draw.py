"""A drawing of an EU:PoP map for checking 16.5 spreads at a glance: Areas coloured
by faith, land borders (solid) and sea links (dotted), clusters outlined, and the
Areas the next placement may reach ringed in red. Saved as SVG."""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import networkx as nx

from legalis.model.eupop.religion import (
    Kind,
    SpreadProgress,
    religion_clusters,
    revolution_clusters,
    spread_moves,
)
from legalis.model.eupop.state import EuState

__all__ = ["draw_spread", "spread_summary"]

COLOURS = {
    "catholic": "#f2e6c9",
    "protestant": "#7fb3e6",
    "counter_reformed": "#e6a07f",
    "orthodox": "#c9a7e6",
    "muslim": "#8fd19e",
}


def spread_summary(state: EuState, spread: str) -> dict[str, Any]:
    """The clusters and the Areas the next placement may reach, as JSON."""
    kind: Kind = "revolution" if spread == "revolution" else "religion"
    clusters = religion_clusters(state) if kind == "religion" else revolution_clusters(state)
    moves = list(spread_moves(state, SpreadProgress(kind)))
    return {
        "spread": kind,
        "clusters": [{"label": label, "areas": sorted(areas)} for label, areas in clusters],
        "reachable": sorted({m.area for m in moves}),
        "placements": [m.to_json() for m in moves],
    }


def draw_spread(state: EuState, spread: str = "religion") -> tuple[str, dict[str, Any]]:
    """The map drawn as SVG text, and its :func:`spread_summary`."""
    summary = spread_summary(state, spread)
    G = state.map.graph
    areas = sorted(state.map.areas)
    shown = nx.Graph()
    shown.add_nodes_from(areas)
    land = sorted((a, b) for a, b in G.edges if a in state.map.areas and b in state.map.areas)
    sea = sorted(
        {tuple(sorted((a, b))) for a in areas for b in state.map.sea_neighbours(a) if a != b}
    )
    shown.add_edges_from(land)
    shown.add_edges_from(sea)
    pos = nx.spring_layout(shown, seed=7)
    faith = {a: state.areas[a].faith if a in state.areas else "catholic" for a in areas}
    fig, ax = plt.subplots(figsize=(8, 6))
    nx.draw_networkx_edges(shown, pos, edgelist=land, ax=ax, width=2.0)
    nx.draw_networkx_edges(shown, pos, edgelist=sea, ax=ax, style="dotted", edge_color="#3a6ea5")
    nx.draw_networkx_nodes(
        shown, pos, nodelist=areas, ax=ax, node_color=[COLOURS[faith[a]] for a in areas],
        edgecolors="#444444", node_size=900,
    )  # fmt: skip
    reach = summary["reachable"]
    if reach:
        nx.draw_networkx_nodes(
            shown, pos, nodelist=reach, ax=ax, node_color="none", edgecolors="red",
            linewidths=3.0, node_size=1300,
        )  # fmt: skip
    revolutionary = [a for a in areas if a in state.areas and state.areas[a].revolutionary]
    if revolutionary:
        nx.draw_networkx_nodes(shown, pos, nodelist=revolutionary, ax=ax, node_shape="^",
                               node_color="black", node_size=120)  # fmt: skip
    labels = {a: state.map.areas[a].name for a in areas}
    nx.draw_networkx_labels(shown, pos, labels=labels, ax=ax, font_size=9)
    for index, cluster in enumerate(summary["clusters"]):
        xs = [pos[a][0] for a in cluster["areas"]]
        ys = [pos[a][1] for a in cluster["areas"]]
        ax.add_patch(
            matplotlib.patches.Rectangle(
                (min(xs) - 0.12, min(ys) - 0.12), max(xs) - min(xs) + 0.24,
                max(ys) - min(ys) + 0.24, fill=False, linestyle="--", edgecolor="#555555",
            )
        )  # fmt: skip
        ax.annotate(f"cluster {index + 1}: {cluster['label']}", (min(xs) - 0.12, max(ys) + 0.14),
                    fontsize=7)  # fmt: skip
    ax.set_title(f"16.5 spread of {summary['spread']}: red rings = reachable Areas")
    ax.set_axis_off()
    drawing = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "legalis"}):
        fig.savefig(drawing, format="svg", metadata={"Date": None})
    plt.close(fig)
    return drawing.getvalue(), summary
