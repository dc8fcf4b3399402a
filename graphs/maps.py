"""Maps as networkx graphs: building them from records, distances, groups, orders.

A map is an undirected :class:`networkx.Graph` whose nodes are space names and whose
node attributes are the space's facts (type, population, terrain, ...). Everything
here is a free function over such a graph and knows nothing about any one game:
the games hand their records and predicates in. networkx is imported by the
functions that need it, not by this module: a game in play reads its adjacency
from :func:`adjacency_lists` and :func:`spaces_within`, which take plain
mappings too, and never loads networkx (megabytes a process keeps).

>>> import networkx as nx
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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "Predicate",
    "adjacency_lists",
    "adjacent_spaces",
    "build_graph",
    "connected_groups",
    "nearest_spaces",
    "random_space_order",
    "spaces_within",
]

Predicate = Callable[[str, Mapping[str, Any]], bool]
"""A test on one space: its name and its attribute dict."""


def adjacency_lists(
    records: Iterable[Mapping[str, Any]], *, symmetrize: bool = False
) -> dict[str, list[str]]:
    """Check the ``adjacent`` lists of the records and give each space's neighbours.

    The checks and ``symmetrize`` are those of :func:`build_graph`, which builds
    its graph from this answer; the neighbours of each space are in the order
    listed, then any a ``symmetrize`` supplied.

    Raises
    ------
    ValueError
        As :func:`build_graph`.

    Examples
    --------
    >>> adjacency_lists([{"name": "A", "adjacent": ["B"]}, {"name": "B", "adjacent": []}],
    ...                 symmetrize=True)
    {'A': ['B'], 'B': ['A']}
    >>> adjacency_lists([{"name": "A", "adjacent": ["A"]}])
    Traceback (most recent call last):
    ...
    ValueError: space 'A' lists itself as adjacent
    """
    listed: dict[str, list[str]] = {}
    for record in records:
        name = record["name"]
        if name in listed:
            raise ValueError(f"space {name!r} is listed twice")
        listed[name] = list(record.get("adjacent", ()))
    neighbours: dict[str, list[str]] = {name: [] for name in listed}
    for name, others in listed.items():
        for other in others:
            if other not in listed:
                raise ValueError(f"space {name!r} lists unknown space {other!r} as adjacent")
            if other == name:
                raise ValueError(f"space {name!r} lists itself as adjacent")
            if not symmetrize and name not in listed[other]:
                raise ValueError(
                    f"space {name!r} lists {other!r} as adjacent, but {other!r} does not list"
                    f" {name!r}"
                )
            for a, b in ((name, other), (other, name)):
                if b not in neighbours[a]:
                    neighbours[a].append(b)
    return neighbours


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
    import networkx as nx

    records = list(records)
    neighbours = adjacency_lists(records, symmetrize=symmetrize)
    G = nx.Graph()
    for record in records:
        attributes = {k: v for k, v in record.items() if k not in ("name", "adjacent")}
        G.add_node(record["name"], **attributes)
    for name, others in neighbours.items():
        for other in others:
            G.add_edge(name, other)
    return G


def adjacent_spaces(G: nx.Graph, space: str) -> list[str]:
    """The spaces adjacent to ``space``, sorted by name.

    Examples
    --------
    >>> import networkx as nx
    >>> adjacent_spaces(nx.Graph([("b", "a"), ("b", "c")]), "b")
    ['a', 'c']
    """
    return sorted(G.adj[space])


def spaces_within(G: nx.Graph | Mapping[str, Iterable[str]], space: str, n: int) -> dict[str, int]:
    """Every space at most ``n`` steps from ``space``, with its distance in steps.

    ``G`` is a graph or a mapping of each space to its neighbours. ``space``
    itself is included at distance 0. Keys are in order of distance, then name,
    so the result prints the same every time.

    Examples
    --------
    >>> import networkx as nx
    >>> spaces_within(nx.path_graph(["a", "b", "c", "d"]), "b", 1)
    {'b': 0, 'a': 1, 'c': 1}
    >>> spaces_within({"a": ["b"], "b": ["a", "c"], "c": ["b"]}, "a", 5)
    {'a': 0, 'b': 1, 'c': 2}
    """
    found = {space: 0}
    frontier = [space]
    for distance in range(1, n + 1):
        reached = [other for name in frontier for other in G[name] if other not in found]
        if not reached:
            break
        found.update(dict.fromkeys(reached, distance))
        frontier = list(dict.fromkeys(reached))
    return dict(sorted(found.items(), key=lambda item: (item[1], item[0])))


def nearest_spaces(G: nx.Graph, start: str, predicate: Predicate) -> list[str]:
    """The spaces at the smallest distance from ``start`` that satisfy ``predicate``.

    ``start`` itself counts, at distance 0. The answer is sorted by name and is
    empty when no space reachable from ``start`` satisfies the predicate (a move
    "to the nearest Fort" with no Fort on the map).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(["a", "b", "c", "d", "e"])
    >>> nx.set_node_attributes(G, {"a": True, "e": True}, "fort")
    >>> nearest_spaces(G, "c", lambda name, attrs: attrs.get("fort", False))
    ['a', 'e']
    >>> nearest_spaces(G, "a", lambda name, attrs: name == "z")
    []
    """
    import networkx as nx

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
    >>> import networkx as nx
    >>> G = nx.path_graph(["a", "b", "c", "d", "e"])
    >>> [sorted(group) for group in connected_groups(G, lambda name, attrs: name != "c")]
    [['a', 'b'], ['d', 'e']]
    """
    import networkx as nx

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
