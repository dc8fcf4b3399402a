"""Areas and Sea Zones: land clusters of alike Areas and what lies next to them.

A region map is an undirected :class:`networkx.Graph` with two kinds of node,
told apart by the node attribute ``kind``: ``"area"`` (land) and ``"sea"``. An
edge between two Areas is a land border (attribute ``mountain`` true for a
mountain border); an edge between an Area and a Sea Zone says the Area touches
that Sea Zone. Two Areas on one Sea Zone are adjacent *across* it. Everything
here is a free function over such a graph; the games say what labels mean.

>>> G = region_graph(
...     areas={"A": ["B"], "B": ["A"], "C": [], "D": []},
...     seas={"S": ["B", "C"]},
... )
>>> land_neighbours(G, "B"), sea_neighbours(G, "B")
(['A'], ['C'])
>>> labels = {"A": "x", "B": "x", "C": "x", "D": "y"}
>>> [(label, sorted(group)) for label, group in land_clusters(G, labels)]
[('x', ['A', 'B']), ('x', ['C']), ('y', ['D'])]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

__all__ = [
    "Cluster",
    "cluster_neighbours",
    "land_adjacent",
    "land_clusters",
    "land_neighbours",
    "region_graph",
    "sea_neighbours",
]

Cluster = tuple[str, frozenset[str]]
"""A label and the Areas of one land-connected cluster carrying it."""


def region_graph(
    areas: Mapping[str, Iterable[str]],
    seas: Mapping[str, Iterable[str]] | None = None,
    *,
    mountains: Iterable[tuple[str, str]] = (),
) -> nx.Graph:
    """The region map from each Area's land borders and each Sea Zone's Areas.

    Borders must be listed from both sides, and every name must be an Area: a
    one-sided or unknown border is a :class:`ValueError` naming it.

    >>> G = region_graph({"A": ["B"], "B": ["A"]}, {"S": ["A"]}, mountains=[("A", "B")])
    >>> G.edges["A", "B"]["mountain"], G.nodes["S"]["kind"]
    (True, 'sea')
    >>> region_graph({"A": ["B"], "B": []})
    Traceback (most recent call last):
    ...
    ValueError: A borders B, but B does not list A
    """
    G = nx.Graph()
    for area in areas:
        G.add_node(area, kind="area")
    for area, borders in areas.items():
        for other in borders:
            if other not in areas:
                raise ValueError(f"{area} borders unknown Area {other!r}")
            if area not in areas[other]:
                raise ValueError(f"{area} borders {other}, but {other} does not list {area}")
            G.add_edge(area, other, mountain=False)
    for a, b in mountains:
        if not G.has_edge(a, b):
            raise ValueError(f"the mountain border {a}-{b} is not a border")
        G.edges[a, b]["mountain"] = True
    for sea, touching in (seas or {}).items():
        if sea in areas:
            raise ValueError(f"{sea!r} is both an Area and a Sea Zone")
        G.add_node(sea, kind="sea")
        for area in touching:
            if area not in areas:
                raise ValueError(f"Sea Zone {sea} touches unknown Area {area!r}")
            G.add_edge(area, sea)
    return G


def _is_area(G: nx.Graph, node: str) -> bool:
    return bool(G.nodes[node].get("kind") == "area")


def land_neighbours(G: nx.Graph, area: str) -> list[str]:
    """The Areas sharing a land border with ``area``, sorted.

    >>> land_neighbours(region_graph({"A": ["B"], "B": ["A"]}, {"S": ["A"]}), "A")
    ['B']
    """
    return sorted(n for n in G.adj[area] if _is_area(G, n))


def sea_neighbours(G: nx.Graph, area: str) -> list[str]:
    """The other Areas on a Sea Zone ``area`` touches, sorted (land neighbours too,
    if they also share a Sea Zone).

    >>> sea_neighbours(region_graph({"A": [], "B": []}, {"S": ["A", "B"]}), "A")
    ['B']
    """
    found = {
        other
        for sea in G.adj[area]
        if not _is_area(G, sea)
        for other in G.adj[sea]
        if other != area
    }
    return sorted(found)


def land_clusters(G: nx.Graph, labels: Mapping[str, str | None]) -> list[Cluster]:
    """The land-connected clusters of Areas that carry the same label.

    Two Areas share a cluster when a chain of land borders joins them through
    Areas of that label only; an Area with no such neighbour is a cluster of its
    own. Areas labelled ``None`` (or missing) are in none. Sorted by label, then
    largest first, then by the smallest name.

    >>> G = region_graph({"A": ["B"], "B": ["A", "C"], "C": ["B"]})
    >>> [(l, sorted(c)) for l, c in land_clusters(G, {"A": "p", "B": "q", "C": "p"})]
    [('p', ['A']), ('p', ['C']), ('q', ['B'])]
    """
    clusters: list[Cluster] = []
    for label in sorted({value for value in labels.values() if value is not None}):
        view = nx.subgraph_view(
            G, filter_node=lambda node, label=label: _is_area(G, node) and labels.get(node) == label
        )
        groups = sorted(nx.connected_components(view), key=lambda g: (-len(g), min(g)))
        clusters.extend((label, frozenset(group)) for group in groups)
    return clusters


def cluster_neighbours(G: nx.Graph, areas: Iterable[str], *, across_sea: bool = True) -> list[str]:
    """The Areas outside ``areas`` adjacent to one of them, by land or (when
    ``across_sea``) across a Sea Zone; sorted.

    >>> G = region_graph({"A": ["B"], "B": ["A"], "C": []}, {"S": ["B", "C"]})
    >>> cluster_neighbours(G, ["A"]), cluster_neighbours(G, ["B"], across_sea=False)
    (['B'], ['A'])
    >>> cluster_neighbours(G, ["B"])
    ['A', 'C']
    """
    inside = set(areas)
    found: set[str] = set()
    for area in inside:
        found.update(land_neighbours(G, area))
        if across_sea:
            found.update(sea_neighbours(G, area))
    return sorted(found - inside)


def land_adjacent(G: nx.Graph, first: Iterable[str], second: Iterable[str]) -> bool:
    """Whether an Area of ``first`` shares a land border with an Area of ``second``
    (or the two share an Area).

    >>> G = region_graph({"A": ["B"], "B": ["A"], "C": []}, {"S": ["B", "C"]})
    >>> land_adjacent(G, ["A"], ["B"]), land_adjacent(G, ["B"], ["C"])
    (True, False)
    """
    second_set = set(second)
    return any(
        area in second_set or any(n in second_set for n in land_neighbours(G, area))
        for area in first
    )
