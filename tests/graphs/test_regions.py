"""Region maps: land clusters of alike Areas and their neighbours, on small hand-made
maps (EU:PoP 16.5, Spread of Religious Ideas: a cluster is joined by land; a lone
Area is its own cluster; adjacency to a cluster may be traced across a Sea Zone)."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from legalis.graphs.regions import (
    cluster_neighbours,
    land_adjacent,
    land_clusters,
    land_neighbours,
    region_graph,
    sea_neighbours,
)

# A coast:  W - X - Y   Z (an island)
#           \___ Sea S ___/  (X and Z touch S)
COAST = region_graph(
    areas={"W": ["X"], "X": ["W", "Y"], "Y": ["X"], "Z": []},
    seas={"S": ["X", "Z"]},
)


def test_a_sea_zone_does_not_join_a_cluster() -> None:
    # 16.5: "any body of Areas connected by Land that share the same Religion"
    labels = {"W": "protestant", "X": "protestant", "Y": "catholic", "Z": "protestant"}
    clusters = [(label, sorted(areas)) for label, areas in land_clusters(COAST, labels)]
    assert clusters == [
        ("catholic", ["Y"]),
        ("protestant", ["W", "X"]),
        ("protestant", ["Z"]),  # 16.5: a lone Area is a separate cluster
    ]


def test_a_different_religion_between_splits_a_cluster() -> None:
    labels = {"W": "protestant", "X": "catholic", "Y": "protestant"}
    assert sorted(sorted(a) for _, a in land_clusters(COAST, labels) if _ == "protestant") == [
        ["W"],
        ["Y"],
    ]


def test_unlabelled_areas_are_in_no_cluster() -> None:
    assert land_clusters(COAST, {"W": None, "X": None}) == []


def test_neighbours_of_a_cluster_across_the_sea() -> None:
    # 16.5 step 1: "Adjacency may here be traced across a Sea Zone."
    assert cluster_neighbours(COAST, ["W", "X"]) == ["Y", "Z"]
    assert cluster_neighbours(COAST, ["W", "X"], across_sea=False) == ["Y"]
    assert cluster_neighbours(COAST, ["Z"]) == ["X"]
    assert cluster_neighbours(COAST, ["Z"], across_sea=False) == []


def test_land_and_sea_neighbours_are_areas_only() -> None:
    assert land_neighbours(COAST, "X") == ["W", "Y"]
    assert sea_neighbours(COAST, "X") == ["Z"]
    assert sea_neighbours(COAST, "W") == []


def test_land_adjacency_of_two_realms() -> None:
    assert land_adjacent(COAST, ["W"], ["X", "Y"])
    assert not land_adjacent(COAST, ["W"], ["Y"])
    assert not land_adjacent(COAST, ["X"], ["Z"])  # across the sea is not by land
    assert land_adjacent(COAST, ["X"], ["X"])


@pytest.mark.parametrize(
    ("areas", "seas", "mountains", "message"),
    [
        ({"A": ["B"], "B": []}, {}, [], "does not list"),
        ({"A": ["Q"]}, {}, [], "unknown Area 'Q'"),
        ({"A": []}, {"A": []}, [], "both an Area and a Sea Zone"),
        ({"A": []}, {"S": ["Q"]}, [], "unknown Area 'Q'"),
        ({"A": [], "B": []}, {}, [("A", "B")], "not a border"),
    ],
)
def test_a_broken_map_is_refused_with_the_reason(
    areas: dict[str, list[str]],
    seas: dict[str, list[str]],
    mountains: list[tuple[str, str]],
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        region_graph(areas, seas, mountains=mountains)


@given(
    st.integers(min_value=1, max_value=9).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))),
            st.lists(st.sampled_from(["p", "c", None]), min_size=n, max_size=n),
        )
    )
)
def test_clusters_partition_the_labelled_areas_into_land_components(
    case: tuple[int, set[tuple[int, int]], list[str | None]],
) -> None:
    n, pairs, labels = case
    borders: dict[str, set[str]] = {f"a{i}": set() for i in range(n)}
    for i, j in pairs:
        if i != j:
            borders[f"a{i}"].add(f"a{j}")
            borders[f"a{j}"].add(f"a{i}")
    G = region_graph({a: sorted(b) for a, b in borders.items()})
    named = {f"a{i}": label for i, label in enumerate(labels)}
    clusters = land_clusters(G, named)
    covered = [area for _, group in clusters for area in group]
    assert sorted(covered) == sorted(a for a, label in named.items() if label is not None)
    for label, group in clusters:
        assert all(named[a] == label for a in group)
        assert nx.is_connected(G.subgraph(group))
        # maximal: no Area of the same label borders the cluster from outside
        assert all(named.get(n) != label for n in cluster_neighbours(G, group, across_sea=False))
