"""Maps as networkx graphs: building them from records, distances, groups, orders.

A map is an undirected :class:`networkx.Graph` whose nodes are space names and whose
node attributes are the space's facts (type, population, terrain, ...). Everything
here is a free function over such a graph and knows nothing about any one game:
the games hand their records and predicates in.

>>> G = build_graph([
...     {"name": "A", "pop": 1, "adjacent": ["B"]},
...     {"name": "B", "pop": 0, "adjacent": ["A", "C"]},
...     {"name": "C", "pop": 2, "adjacent": ["B"]},
... ])
>>> adjacent_spaces(G, "B")
['A', 'C']
>>> spaces_within(G, "A", 2)
{'A': 0, 'B': 1, 'C': 2}
>>> nearest_spaces(G, "B", lambda name, attrs: attrs["pop"] > 0)
['A', 'C']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import networkx as nx

__all__ = [
    "Predicate",
    "adjacent_spaces",
    "build_graph",
    "connected_groups",
    "nearest_spaces",
    "random_space_order",
    "spaces_within",
]

Predicate = Callable[[str, Mapping[str, Any]], bool]
"""A test on one space: its name and its attribute dict."""


def build_graph(records: Iterable[Mapping[str, Any]], *, symmetrize: bool = False) -> nx.Graph:
    """Build the map graph from one record per space.

    Parameters
    ----------
    records : iterable of mappings
        Each record has a ``name`` and an ``adjacent`` list of names; every other
        key becomes a node attribute (``name`` itself is the node).
    symmetrize : bool, default False
        When False, a space listing a neighbour that does not list it back is an
        error. When True, the missing reverse listing is supplied instead.

    Returns
    -------
    networkx.Graph
        Nodes in record order, one edge per adjacent pair.

    Raises
    ------
    ValueError
        A duplicate name, a neighbour that is not a space, a space adjacent to
        itself, or (unless ``symmetrize``) a one-way adjacency. The message names
        the space.

    Examples
    --------
    >>> G = build_graph([{"name": "A", "adjacent": ["B"]}, {"name": "B", "adjacent": []}],
    ...                 symmetrize=True)
    >>> sorted(G.edges())
    [('A', 'B')]
    >>> build_graph([{"name": "A", "adjacent": ["B"]}, {"name": "B", "adjacent": []}])
    Traceback (most recent call last):
    ...
    ValueError: space 'A' lists 'B' as adjacent, but 'B' does not list 'A'
    """
    G = nx.Graph()
    listed: dict[str, list[str]] = {}
    for record in records:
        name = record["name"]
        if name in listed:
            raise ValueError(f"space {name!r} is listed twice")
        listed[name] = list(record.get("adjacent", ()))
        G.add_node(name, **{k: v for k, v in record.items() if k not in ("name", "adjacent")})
    for name, neighbours in listed.items():
        for other in neighbours:
            if other not in listed:
                raise ValueError(f"space {name!r} lists unknown space {other!r} as adjacent")
            if other == name:
                raise ValueError(f"space {name!r} lists itself as adjacent")
            if not symmetrize and name not in listed[other]:
                raise ValueError(
                    f"space {name!r} lists {other!r} as adjacent, but {other!r} does not list"
                    f" {name!r}"
                )
            G.add_edge(name, other)
    return G


def adjacent_spaces(G: nx.Graph, space: str) -> list[str]:
    """The spaces adjacent to ``space``, sorted by name.

    Examples
    --------
    >>> adjacent_spaces(nx.Graph([("b", "a"), ("b", "c")]), "b")
    ['a', 'c']
    """
    return sorted(G.adj[space])


def spaces_within(G: nx.Graph, space: str, n: int) -> dict[str, int]:
    """Every space at most ``n`` steps from ``space``, with its distance in steps.

    ``space`` itself is included at distance 0. Keys are in order of distance,
    then name, so the result prints the same every time.

    Examples
    --------
    >>> spaces_within(nx.path_graph(["a", "b", "c", "d"]), "b", 1)
    {'b': 0, 'a': 1, 'c': 1}
    """
    found = nx.single_source_shortest_path_length(G, space, cutoff=n)
    return dict(sorted(found.items(), key=lambda item: (item[1], item[0])))


def nearest_spaces(G: nx.Graph, start: str, predicate: Predicate) -> list[str]:
    """The spaces at the smallest distance from ``start`` that satisfy ``predicate``.

    ``start`` itself counts, at distance 0. The answer is sorted by name and is
    empty when no space reachable from ``start`` satisfies the predicate (a move
    "to the nearest Fort" with no Fort on the map).

    Examples
    --------
    >>> G = nx.path_graph(["a", "b", "c", "d", "e"])
    >>> nx.set_node_attributes(G, {"a": True, "e": True}, "fort")
    >>> nearest_spaces(G, "c", lambda name, attrs: attrs.get("fort", False))
    ['a', 'e']
    >>> nearest_spaces(G, "a", lambda name, attrs: name == "z")
    []
    """
    best: int | None = None
    found: list[str] = []
    # single_source_shortest_path_length yields in breadth-first order, so the
    # first distance at which anything matches is the smallest one.
    for name, distance in nx.single_source_shortest_path_length(G, start).items():
        if best is not None and distance > best:
            break
        if predicate(name, G.nodes[name]):
            best = distance
            found.append(name)
    return sorted(found)


def connected_groups(G: nx.Graph, predicate: Predicate) -> list[set[str]]:
    """The connected groups of the spaces that satisfy ``predicate``.

    The groups are the connected components of the subgraph induced by those
    spaces: two satisfying spaces share a group when a path of satisfying spaces
    joins them. Groups are sorted largest first, then by their smallest name.

    Examples
    --------
    >>> G = nx.path_graph(["a", "b", "c", "d", "e"])
    >>> [sorted(group) for group in connected_groups(G, lambda name, attrs: name != "c")]
    [['a', 'b'], ['d', 'e']]
    """
    view = nx.subgraph_view(G, filter_node=lambda name: predicate(name, G.nodes[name]))
    groups = [set(group) for group in nx.connected_components(view)]
    return sorted(groups, key=lambda group: (-len(group), min(group)))


def random_space_order(
    table: Mapping[tuple[int, int], Sequence[str]],
    cycle: Sequence[str],
    column: int,
    row: int,
) -> list[str]:
    """Every space in the order a Random Spaces roll would try them.

    The rolled box's spaces come first, top first; then the arrows are followed
    from the last of them around the whole cycle, skipping spaces already listed.
    Taking the first candidate of this list is the same as rolling and following
    the arrows until a candidate is reached.

    Parameters
    ----------
    table : mapping of (column, row) to a sequence of names
        The boxes of the table; a box names one space or more, top first.
    cycle : sequence of names
        Every space once, in the order the arrows lead; the last leads back to
        the first.
    column, row : int
        The roll.

    Returns
    -------
    list of str
        Every space of ``cycle`` exactly once.

    Raises
    ------
    ValueError
        The roll is not a box of the table, or the box names a space that is not
        in the cycle.

    Examples
    --------
    >>> table = {(1, 1): ["a"], (1, 2): ["b", "c"], (2, 1): ["d"]}
    >>> random_space_order(table, ["a", "b", "c", "d"], 1, 2)
    ['b', 'c', 'd', 'a']
    """
    try:
        box = list(table[(column, row)])
    except KeyError:
        raise ValueError(f"no box at column {column}, row {row}") from None
    if not box:
        raise ValueError(f"box at column {column}, row {row} names no space")
    position = {name: index for index, name in enumerate(cycle)}
    for name in box:
        if name not in position:
            raise ValueError(f"box at column {column}, row {row} names {name!r}, not in the cycle")
    order = list(dict.fromkeys(box))
    seen = set(order)
    start = position[box[-1]]
    for step in range(1, len(cycle) + 1):
        name = cycle[(start + step) % len(cycle)]
        if name not in seen:
            seen.add(name)
            order.append(name)
    return order
