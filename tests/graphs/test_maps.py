"""The generic map functions, on small hand-made graphs and on random ones."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.graphs.maps import (
    adjacent_spaces,
    build_graph,
    connected_groups,
    nearest_spaces,
    random_space_order,
    spaces_within,
)

# A small map drawn by hand:
#
#   a - b - c - d
#       |       |
#       e ----- f      g (alone)
RECORDS = [
    {"name": "a", "fort": False, "adjacent": ["b"]},
    {"name": "b", "fort": False, "adjacent": ["a", "c", "e"]},
    {"name": "c", "fort": True, "adjacent": ["b", "d"]},
    {"name": "d", "fort": False, "adjacent": ["c", "f"]},
    {"name": "e", "fort": True, "adjacent": ["b", "f"]},
    {"name": "f", "fort": False, "adjacent": ["d", "e"]},
    {"name": "g", "fort": True, "adjacent": []},
]


def has_fort(name: str, attrs: Mapping[str, Any]) -> bool:
    return bool(attrs["fort"])


@pytest.fixture
def small() -> nx.Graph:
    return build_graph(RECORDS)


def test_build_graph_keeps_order_attributes_and_edges(small):
    assert list(small.nodes) == list("abcdefg")
    assert small.nodes["c"] == {"fort": True}
    assert small.number_of_edges() == 6
    assert small.has_edge("f", "e") and not small.has_edge("a", "c")


def test_build_graph_refuses_an_unknown_neighbour():
    records = [{"name": "a", "adjacent": ["b", "zz"]}, {"name": "b", "adjacent": ["a"]}]
    with pytest.raises(ValueError, match="'a' lists unknown space 'zz'"):
        build_graph(records)


def test_build_graph_refuses_one_way_adjacency_unless_asked_to_complete_it():
    records = [{"name": "a", "adjacent": ["b"]}, {"name": "b", "adjacent": []}]
    with pytest.raises(ValueError, match="'a' lists 'b' as adjacent, but 'b' does not list 'a'"):
        build_graph(records)
    G = build_graph(records, symmetrize=True)
    assert adjacent_spaces(G, "b") == ["a"]


def test_build_graph_refuses_duplicates_and_loops():
    with pytest.raises(ValueError, match="'a' is listed twice"):
        build_graph([{"name": "a", "adjacent": []}, {"name": "a", "adjacent": []}])
    with pytest.raises(ValueError, match="'a' lists itself"):
        build_graph([{"name": "a", "adjacent": ["a"]}])


def test_adjacent_spaces_are_sorted(small):
    assert adjacent_spaces(small, "b") == ["a", "c", "e"]
    assert adjacent_spaces(small, "g") == []


def test_spaces_within(small):
    assert spaces_within(small, "a", 0) == {"a": 0}
    assert spaces_within(small, "a", 2) == {"a": 0, "b": 1, "c": 2, "e": 2}
    assert spaces_within(small, "a", 9) == {"a": 0, "b": 1, "c": 2, "e": 2, "d": 3, "f": 3}
    assert list(spaces_within(small, "d", 1)) == ["d", "c", "f"]


def test_nearest_spaces(small):
    # From d, the Forts at c (1 step) beat e (2 steps); from f, e is 1 step.
    assert nearest_spaces(small, "d", has_fort) == ["c"]
    assert nearest_spaces(small, "f", has_fort) == ["e"]
    # From a, c and e are both 2 steps away.
    assert nearest_spaces(small, "a", has_fort) == ["c", "e"]
    # A space that satisfies the predicate is its own nearest.
    assert nearest_spaces(small, "e", has_fort) == ["e"]
    # g holds a Fort but cannot be reached.
    assert nearest_spaces(small, "a", lambda name, attrs: name == "g") == []


def test_connected_groups(small):
    without_forts = connected_groups(small, lambda name, attrs: not attrs["fort"])
    # Equal sizes: the group with the smaller first name comes first.
    assert without_forts == [{"a", "b"}, {"d", "f"}]
    assert connected_groups(small, has_fort) == [{"c"}, {"e"}, {"g"}]
    assert connected_groups(small, lambda name, attrs: False) == []
    assert connected_groups(small, lambda name, attrs: True) == [set("abcdef"), {"g"}]


TABLE = {(1, 1): ["p"], (1, 2): ["q", "r"], (2, 1): ["s"], (2, 2): ["t"]}
CYCLE = ["p", "q", "r", "s", "t"]


def test_random_space_order_follows_the_cycle_from_the_box():
    assert random_space_order(TABLE, CYCLE, 1, 1) == ["p", "q", "r", "s", "t"]
    assert random_space_order(TABLE, CYCLE, 1, 2) == ["q", "r", "s", "t", "p"]
    # The last box leads back round to the first.
    assert random_space_order(TABLE, CYCLE, 2, 2) == ["t", "p", "q", "r", "s"]


def test_random_space_order_refuses_a_roll_off_the_table():
    with pytest.raises(ValueError, match="column 3, row 1"):
        random_space_order(TABLE, CYCLE, 3, 1)
    with pytest.raises(ValueError, match="not in the cycle"):
        random_space_order({(1, 1): ["x"]}, CYCLE, 1, 1)


# Random graphs: a node count and a set of edges over range(n), named as strings.
@st.composite
def graphs(draw: st.DrawFn) -> nx.Graph:
    n = draw(st.integers(min_value=1, max_value=12))
    names = [f"s{i:02d}" for i in range(n)]
    pairs = list(itertools.combinations(names, 2))
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    marks = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    G = nx.Graph()
    G.add_nodes_from((name, {"mark": mark}) for name, mark in zip(names, marks, strict=True))
    G.add_edges_from(edges)
    return G


def marked(name: str, attrs: Mapping[str, Any]) -> bool:
    return bool(attrs["mark"])


@settings(max_examples=200, deadline=None, database=None)
@given(G=graphs(), data=st.data())
def test_spaces_within_agrees_with_shortest_paths(G, data):
    start = data.draw(st.sampled_from(sorted(G)))
    n = data.draw(st.integers(min_value=0, max_value=12))
    within = spaces_within(G, start, n)
    lengths = nx.shortest_path_length(G, source=start)
    assert within == {name: d for name, d in lengths.items() if d <= n}
    # the same from plain neighbour lists, as a game in play keeps them
    assert spaces_within({name: list(G.adj[name]) for name in G}, start, n) == within
    assert within[start] == 0
    assert list(within.values()) == sorted(within.values())


@settings(max_examples=200, deadline=None, database=None)
@given(G=graphs(), data=st.data())
def test_nearest_spaces_are_satisfying_spaces_at_the_least_distance(G, data):
    start = data.draw(st.sampled_from(sorted(G)))
    lengths = nx.shortest_path_length(G, source=start)
    reachable = {name: d for name, d in lengths.items() if G.nodes[name]["mark"]}
    found = nearest_spaces(G, start, marked)
    assert found == sorted(found)
    if not reachable:
        assert found == []
        return
    least = min(reachable.values())
    assert found == sorted(name for name, d in reachable.items() if d == least)


@settings(max_examples=200, deadline=None, database=None)
@given(G=graphs())
def test_connected_groups_partition_the_satisfying_spaces(G):
    groups = connected_groups(G, marked)
    chosen = {name for name in G if G.nodes[name]["mark"]}
    assert set().union(*groups) == chosen
    assert sum(len(group) for group in groups) == len(chosen)
    owner = {name: index for index, group in enumerate(groups) for name in group}
    for a, b in G.edges:
        if a in chosen and b in chosen:
            assert owner[a] == owner[b]
    for group in groups:
        assert nx.is_connected(G.subgraph(group))
    assert groups == connected_groups(G, marked)


@settings(max_examples=200, deadline=None, database=None)
@given(G=graphs())
def test_build_graph_round_trips_a_symmetric_listing(G):
    records = [
        {"name": name, **attrs, "adjacent": sorted(G.adj[name])} for name, attrs in G.nodes.items()
    ]
    rebuilt = build_graph(records)
    assert list(rebuilt.nodes(data=True)) == list(G.nodes(data=True))
    assert nx.utils.edges_equal(rebuilt.edges, G.edges)


@settings(max_examples=200, deadline=None, database=None)
@given(
    size=st.integers(min_value=1, max_value=10),
    data=st.data(),
)
def test_random_space_order_lists_every_space_once_box_first(size, data):
    cycle = data.draw(st.permutations([f"s{i}" for i in range(size)]))
    start = data.draw(st.integers(min_value=0, max_value=size - 1))
    length = data.draw(st.integers(min_value=1, max_value=min(2, size)))
    box = [cycle[(start + k) % size] for k in range(length)]
    order = random_space_order({(1, 1): box}, cycle, 1, 1)
    assert sorted(order) == sorted(cycle)
    assert order[:length] == box
    # The rest follows the cycle on from the box's last space.
    assert order == [cycle[(start + k) % size] for k in range(size)]
