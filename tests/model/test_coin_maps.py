"""The bundled COIN maps (LoD 1.3, FitL) and the LoD Random Spaces table (8.2).

The expected facts below are written out by hand from the printed maps and
tables, not read back from the data files, so a slip in a file shows up here.
"""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from importlib import resources
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.coin.mapdata import (
    CoinMap,
    RandomSpaces,
    SpaceInfo,
    load_map,
    load_random_spaces,
    parse_map,
    parse_random_spaces,
)
from legalis.model.errors import InputError

PACKAGES = {"lod": "legalis.model.lod", "fitl": "legalis.model.fitl"}


def raw(game: str, filename: str = "map.toml") -> dict[str, Any]:
    text = resources.files(PACKAGES[game]).joinpath(filename).read_text("utf-8")
    return tomllib.loads(text)


@pytest.fixture(scope="module")
def lod() -> CoinMap:
    return load_map("lod")


@pytest.fixture(scope="module")
def fitl() -> CoinMap:
    return load_map("fitl")


@pytest.fixture(scope="module")
def rs() -> RandomSpaces:
    return load_random_spaces()


# --- both maps ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_raw_adjacency_lists_are_symmetric(game):
    rows = raw(game)["space"]
    listed = {row["name"]: row["adjacent"] for row in rows}
    for name, neighbours in listed.items():
        assert len(set(neighbours)) == len(neighbours), name
        for other in neighbours:
            assert other in listed, (name, other)
            assert name in listed[other], f"{name} lists {other}, not the other way"


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_graph_adjacency_is_symmetric_and_matches_the_file(game):
    board = load_map(game)
    assert not board.graph.is_directed()
    for row in raw(game)["space"]:
        assert set(board.graph.adj[row["name"]]) == set(row["adjacent"])
        for other in board.graph.adj[row["name"]]:
            assert board.are_adjacent(other, row["name"])
    assert nx.is_connected(board.graph)
    assert nx.number_of_selfloops(board.graph) == 0


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_graph_nodes_carry_the_space_facts(game):
    board = load_map(game)
    assert list(board.graph.nodes) == board.names()
    for info in board.spaces:
        attrs = board.graph.nodes[info.name]
        assert SpaceInfo(name=info.name, **attrs) == info


def test_load_map_is_cached_and_refuses_unknown_games():
    assert load_map("lod") is load_map("lod")
    with pytest.raises(InputError, match="no map for game 'chess'") as caught:
        load_map("chess")
    assert caught.value.allowed == ["lod", "fitl"]


# --- Liberty or Death (1.3) --------------------------------------------------

LOD_CITIES = {
    "Quebec City": 1,
    "Boston": 1,
    "New York City": 2,
    "Philadelphia": 1,
    "Norfolk": 1,
    "Charles Town": 1,
    "Savannah": 1,
}
LOD_COLONIES = {
    "New Hampshire": 1,
    "Massachusetts": 2,
    "Connecticut-Rhode Island": 2,
    "New York": 2,
    "New Jersey": 1,
    "Pennsylvania": 2,
    "Maryland-Delaware": 2,
    "Virginia": 2,
    "North Carolina": 2,
    "South Carolina": 2,
    "Georgia": 1,
}
LOD_RESERVES = {"Quebec": 0, "Northwest": 0, "Southwest": 0, "Florida": 0}


def test_lod_has_22_spaces_and_the_west_indies_box(lod):
    assert len(lod.spaces) == 22
    assert lod.boxes == ("West Indies",)
    assert lod.is_box("West Indies") and not lod.has_space("West Indies")
    assert "West Indies" not in lod.graph


def test_lod_types_and_populations(lod):
    # 1.3: 7 Cities, 11 Colonies, 4 Indian Reserves.
    assert Counter(info.type for info in lod.spaces) == {"City": 7, "Colony": 11, "Reserve": 4}
    for expected, kind in (
        (LOD_CITIES, "City"),
        (LOD_COLONIES, "Colony"),
        (LOD_RESERVES, "Reserve"),
    ):
        assert {name: lod.population(name) for name in lod.of_type(kind)} == expected
    totals = Counter()
    for info in lod.spaces:
        totals[info.type] += info.population
    # 1.3: population totals Cities 8, Colonies 19; Reserves are 0.
    assert totals == {"City": 8, "Colony": 19, "Reserve": 0}


def test_lod_coastal_spaces(lod):
    inland = {info.name for info in lod.spaces if not info.coastal}
    assert inland == {"Quebec", "Northwest", "Southwest"}
    # Florida is a Reserve, yet coastal.
    assert lod.is_coastal("Florida")


def test_lod_space_kinds(lod):
    assert lod.is_city("Boston") and not lod.is_province("Boston")
    assert lod.is_colony("Georgia") and lod.is_province("Georgia")
    assert lod.is_reserve("Northwest") and lod.is_province("Northwest")
    assert not lod.is_loc("Northwest")
    info = lod.space("Virginia")
    assert (info.econ, info.terrain, info.country) == (0, None, None)


# 1.3 map table: a few whole neighbourhoods.
LOD_NEIGHBOURS = {
    "New York": {
        "New Hampshire",
        "Massachusetts",
        "Connecticut-Rhode Island",
        "New York City",
        "New Jersey",
        "Pennsylvania",
        "Quebec",
        "Northwest",
    },
    "Quebec City": {"Quebec", "New Hampshire"},
    "Quebec": {"Quebec City", "New York", "Northwest"},
    "Massachusetts": {"Boston", "New Hampshire", "New York", "Connecticut-Rhode Island"},
    "New Jersey": {"New York City", "New York", "Philadelphia", "Pennsylvania"},
    "Northwest": {
        "Quebec",
        "New York",
        "Pennsylvania",
        "Maryland-Delaware",
        "Virginia",
        "Southwest",
    },
    "Southwest": {
        "Northwest",
        "Virginia",
        "North Carolina",
        "South Carolina",
        "Georgia",
        "Florida",
    },
    "Charles Town": {"North Carolina", "South Carolina"},
    "Florida": {"Southwest", "Georgia"},
}


@pytest.mark.parametrize("space", sorted(LOD_NEIGHBOURS))
def test_lod_adjacency_spot_checks(lod, space):
    assert set(lod.adjacent(space)) == LOD_NEIGHBOURS[space]


def test_lod_non_adjacencies_and_edge_count(lod):
    assert not lod.are_adjacent("Boston", "New York")
    assert not lod.are_adjacent("Philadelphia", "New York City")
    assert not lod.are_adjacent("Quebec City", "Boston")
    # 41 pairs: the 82 entries of the 1.3 table's adjacency column, each pair twice.
    assert lod.graph.number_of_edges() == 41


def test_lod_within(lod):
    assert lod.within("Savannah", 1) == {"Savannah": 0, "Georgia": 1, "South Carolina": 1}
    two = lod.within("Florida", 2)
    assert two["Savannah"] == 2 and two["Virginia"] == 2 and "Norfolk" not in two


def test_unknown_space_names_the_closest_valid_names(lod):
    with pytest.raises(InputError) as caught:
        lod.space("New Yrok")
    err = caught.value
    assert "'New Yrok'" in err.message and "did you mean New York" in err.message
    assert err.allowed == lod.names()
    with pytest.raises(InputError, match="unknown space 'Atlantis'"):
        lod.adjacent("Atlantis")


# --- Random Spaces (8.2) -----------------------------------------------------

# The printed table, by (column, row), top space first.
RANDOM_TABLE = {
    (1, 1): ("Quebec City",),
    (1, 2): ("Quebec", "New York"),
    (1, 3): ("New Hampshire",),
    (1, 4): ("Connecticut-Rhode Island",),
    (1, 5): ("New York City",),
    (1, 6): ("New Jersey",),
    (2, 1): ("Northwest", "Maryland-Delaware"),
    (2, 2): ("Philadelphia",),
    (2, 3): ("Pennsylvania",),
    (2, 4): ("Norfolk",),
    (2, 5): ("Southwest", "Virginia"),
    (2, 6): ("Charles Town",),
    (3, 1): ("North Carolina",),
    (3, 2): ("Savannah",),
    (3, 3): ("Florida", "South Carolina"),
    (3, 4): ("Georgia",),
    (3, 5): ("Boston",),
    (3, 6): ("Massachusetts",),
}


def test_random_spaces_table_is_the_printed_one(rs):
    assert dict(rs.table) == RANDOM_TABLE


def test_random_spaces_cycle_holds_every_space_once(rs, lod):
    assert len(rs.cycle) == 22 == len(set(rs.cycle))
    assert set(rs.cycle) == set(lod.names())
    # Reading the table down each column, bottom of one column to the top of
    # the next, gives the cycle (8.2).
    reading = [
        name for column in (1, 2, 3) for row in range(1, 7) for name in RANDOM_TABLE[column, row]
    ]
    assert list(rs.cycle) == reading


def test_random_spaces_order_worked_by_hand(rs):
    # 8.2: a roll of column 1, row 1 is Quebec City; the arrows then run down the
    # table, so the order is the whole cycle.
    assert rs.order(1, 1) == list(rs.cycle)
    # 8.2: column 1, row 2 names Quebec over New York; New Hampshire is next down.
    assert rs.order(1, 2)[:4] == ["Quebec", "New York", "New Hampshire", "Connecticut-Rhode Island"]
    assert rs.order(1, 2)[-1] == "Quebec City"
    # 8.2: from the bottom of column 1 (New Jersey) to the top of column 2.
    assert rs.order(1, 6)[:3] == ["New Jersey", "Northwest", "Maryland-Delaware"]
    # 8.2: Southwest over Virginia, then Charles Town and on into column 3.
    assert rs.order(2, 5)[:5] == [
        "Southwest",
        "Virginia",
        "Charles Town",
        "North Carolina",
        "Savannah",
    ]
    # 8.2: Massachusetts leads back to Quebec City.
    assert rs.order(3, 6)[:3] == ["Massachusetts", "Quebec City", "Quebec"]
    for column in (1, 2, 3):
        for row in range(1, 7):
            order = rs.order(column, row)
            assert sorted(order) == sorted(rs.cycle)


def test_random_spaces_first_candidate(rs):
    # 8.2 example: Florida is chosen before South Carolina.
    assert rs.first(3, 3, {"Florida", "South Carolina"}) == "Florida"
    assert rs.first(3, 3, {"South Carolina", "Georgia"}) == "South Carolina"
    # Charles Town rolled, not a candidate: down the column past North Carolina,
    # Savannah, Florida, South Carolina and Georgia to Boston.
    assert rs.first(2, 6, {"Boston", "Norfolk"}) == "Boston"
    assert rs.first(1, 1, set()) is None


def test_random_spaces_refuse_a_roll_off_the_table(rs):
    with pytest.raises(InputError, match="column 4, row 1"):
        rs.order(4, 1)
    with pytest.raises(InputError, match="column 1, row 0"):
        rs.order(1, 0)


def test_random_spaces_loader_checks():
    names = load_map("lod").names()
    data = raw("lod", "random_spaces.toml")
    broken = copy.deepcopy(data)
    broken["cycle"][3] = "Quebec"
    with pytest.raises(InputError, match="listed twice") as caught:
        parse_random_spaces(broken, names)
    assert caught.value.path == "cycle[3]"
    broken = copy.deepcopy(data)
    broken["box"][1]["spaces"] = ["New York", "Quebec"]
    with pytest.raises(InputError, match="'Quebec' does not follow 'New York'"):
        parse_random_spaces(broken, names)
    broken = copy.deepcopy(data)
    del broken["box"][-1]
    with pytest.raises(InputError, match="expected 18 boxes"):
        parse_random_spaces(broken, names)
    broken = copy.deepcopy(data)
    broken["box"][0]["row"] = 7
    with pytest.raises(InputError) as caught:
        parse_random_spaces(broken, names)
    assert caught.value.path == "box[0].row"


# --- Fire in the Lake ---------------------------------------------------------

FITL_CITIES = {"Hue", "Da Nang", "Kontum", "Qui Nhon", "Cam Ranh", "An Loc", "Saigon", "Can Tho"}


def test_fitl_has_8_cities_22_provinces_17_locs(fitl):
    assert len(fitl.spaces) == 47
    assert Counter(info.type for info in fitl.spaces) == {"City": 8, "Province": 22, "LoC": 17}
    assert set(fitl.of_type("City")) == FITL_CITIES
    assert fitl.boxes == ()


def test_fitl_countries(fitl):
    by_country: dict[str | None, set[str]] = {}
    for info in fitl.spaces:
        by_country.setdefault(info.country, set()).add(info.name)
    assert by_country["Laos"] == {"Central Laos", "Southern Laos"}
    assert by_country["Cambodia"] == {
        "Northeast Cambodia",
        "The Fishhook",
        "The Parrot's Beak",
        "Sihanoukville",
    }
    assert by_country["North Vietnam"] == {"North Vietnam"}
    assert len(by_country["South Vietnam"]) == 40
    assert set(by_country) == {"South Vietnam", "North Vietnam", "Laos", "Cambodia"}


def test_fitl_terrain_econ_and_population_by_type(fitl):
    rows = {row["name"]: row for row in raw("fitl")["space"]}
    for info in fitl.spaces:
        if info.type == "LoC":
            assert "econ" in rows[info.name], info.name
            assert info.population == 0 and info.terrain is None
        elif info.type == "City":
            assert info.econ == 0 and info.terrain is None
        else:
            assert info.econ == 0 and info.terrain in ("Highland", "Jungle", "Lowland")
    provinces = [info for info in fitl.spaces if info.type == "Province"]
    assert Counter(info.terrain for info in provinces) == {
        "Highland": 6,
        "Jungle": 10,
        "Lowland": 6,
    }
    # The printed Econ values of the 17 LoCs add up to 15.
    assert sum(info.econ for info in fitl.spaces) == 15


# Printed on the map.
FITL_FACTS = [
    # (space, type, population, econ, terrain, coastal)
    ("Saigon", "City", 6, 0, None, True),
    ("Hue", "City", 2, 0, None, True),
    ("Kontum", "City", 1, 0, None, False),
    ("North Vietnam", "Province", 0, 0, "Highland", True),
    ("Quang Tri-Thua Thien", "Province", 2, 0, "Highland", True),
    ("Tay Ninh", "Province", 2, 0, "Jungle", False),
    ("Kien Giang-An Xuyen", "Province", 2, 0, "Lowland", True),
    ("Sihanoukville", "Province", 0, 0, "Jungle", True),
    ("Pleiku-Darlac", "Province", 1, 0, "Highland", False),
    ("Saigon -- Can Tho", "LoC", 0, 2, None, False),
    ("Da Nang -- Dak To", "LoC", 0, 0, None, False),
    ("Can Tho -- Bac Lieu", "LoC", 0, 0, None, True),
    ("Hue -- Khe Sanh", "LoC", 0, 1, None, True),
]


@pytest.mark.parametrize("fact", FITL_FACTS, ids=[fact[0] for fact in FITL_FACTS])
def test_fitl_space_facts(fitl, fact):
    name, kind, population, econ, terrain, coastal = fact
    info = fitl.space(name)
    assert (info.type, info.population, info.econ, info.terrain, info.coastal) == (
        kind,
        population,
        econ,
        terrain,
        coastal,
    )


FITL_NEIGHBOURS = {
    # Saigon: four Provinces, Kien Phong, and the four LoCs leaving it.
    "Saigon": {
        "Binh Tuy-Binh Thuan",
        "Quang Duc-Long Khanh",
        "Tay Ninh",
        "Kien Phong",
        "Kien Hoa-Vinh Binh",
        "Saigon -- Cam Ranh",
        "Saigon -- Da Lat",
        "Saigon -- An Loc -- Ban Me Thuot",
        "Saigon -- Can Tho",
    },
    # North Vietnam touches only Central Laos, Quang Tri and the Khe Sanh road.
    "North Vietnam": {"Central Laos", "Quang Tri-Thua Thien", "Hue -- Khe Sanh"},
    # Hue: its Province and its two LoCs.
    "Hue": {"Quang Tri-Thua Thien", "Hue -- Khe Sanh", "Hue -- Da Nang"},
    # Sihanoukville: the Parrot's Beak and the coast of Kien Giang.
    "Sihanoukville": {"The Parrot's Beak", "Kien Giang-An Xuyen"},
    # Can Tho -- Long Phu: Can Tho, Ba Xuyen and Kien Hoa.
    "Can Tho -- Long Phu": {"Can Tho", "Ba Xuyen", "Kien Hoa-Vinh Binh"},
}


@pytest.mark.parametrize("space", sorted(FITL_NEIGHBOURS))
def test_fitl_adjacency_spot_checks(fitl, space):
    assert set(fitl.adjacent(space)) == FITL_NEIGHBOURS[space]


def test_fitl_one_way_listings_of_the_source_are_both_ways(fitl):
    # The source lists each of these pairs from one side only.
    for a, b in (
        ("Da Nang -- Dak To", "Kontum -- Dak To"),
        ("Cam Ranh -- Da Lat", "Quang Duc-Long Khanh"),
        ("Saigon -- An Loc -- Ban Me Thuot", "Khanh Hoa"),
    ):
        assert fitl.are_adjacent(a, b) and fitl.are_adjacent(b, a)
        assert a in fitl.adjacent(b) and b in fitl.adjacent(a)


def test_fitl_locs_meet_only_at_towns_that_are_not_spaces(fitl):
    pairs = {
        frozenset(edge)
        for edge in fitl.graph.edges
        if fitl.is_loc(edge[0]) and fitl.is_loc(edge[1])
    }
    assert pairs == {
        frozenset(pair)
        for pair in (
            ("Da Nang -- Dak To", "Kontum -- Dak To"),
            ("Ban Me Thuot -- Da Lat", "Cam Ranh -- Da Lat"),
            ("Ban Me Thuot -- Da Lat", "Saigon -- Da Lat"),
            ("Cam Ranh -- Da Lat", "Saigon -- Da Lat"),
            ("Ban Me Thuot -- Da Lat", "Kontum -- Ban Me Thuot"),
            ("Ban Me Thuot -- Da Lat", "Saigon -- An Loc -- Ban Me Thuot"),
            ("Kontum -- Ban Me Thuot", "Saigon -- An Loc -- Ban Me Thuot"),
        )
    }


# --- loader checks ------------------------------------------------------------


def lod_rows() -> dict[str, Any]:
    return copy.deepcopy(raw("lod"))


@pytest.mark.parametrize(
    ("field", "value", "path", "match"),
    [
        ("population", True, "space[3].population", "expected int"),
        ("population", -1, "space[3].population", "below 0"),
        ("type", "Town", "space[3].type", "unknown value 'Town'"),
        ("coastal", "yes", "space[3].coastal", "expected bool"),
        ("terrain", "Swamp", "space[3].terrain", "unknown value 'Swamp'"),
        ("country", "Canada", "space[3].country", "unknown value 'Canada'"),
        ("adjacent", "Boston", "space[3].adjacent", "expected list"),
        ("adjacent", [7], "space[3].adjacent[0]", "expected a space name"),
    ],
)
def test_parse_map_names_the_bad_field(field, value, path, match):
    data = lod_rows()
    data["space"][3][field] = value
    with pytest.raises(InputError, match=match) as caught:
        parse_map("lod", data)
    assert caught.value.path == path


def test_parse_map_refuses_missing_fields_unknown_and_one_way_neighbours():
    data = lod_rows()
    del data["space"][0]["coastal"]
    with pytest.raises(InputError) as caught:
        parse_map("lod", data)
    assert caught.value.path == "space[0].coastal"

    data = lod_rows()
    data["space"][1]["adjacent"].append("Massachusets")
    with pytest.raises(InputError, match="did you mean Massachusetts") as caught:
        parse_map("lod", data)
    assert caught.value.path == "space[1].adjacent[2]"

    data = lod_rows()
    data["space"][1]["adjacent"].append("Savannah")
    with pytest.raises(InputError, match=r"'Boston' lists 'Savannah'.*does not list 'Boston'"):
        parse_map("lod", data)

    data = lod_rows()
    data["space"][2]["name"] = "Boston"
    with pytest.raises(InputError, match="listed twice"):
        parse_map("lod", data)

    data = lod_rows()
    data["box"][0]["population"] = 1
    with pytest.raises(InputError) as caught:
        parse_map("lod", data)
    assert caught.value.path == "box[0].population"


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.text(max_size=12),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
FIELDS = st.sampled_from(
    ["name", "type", "population", "econ", "terrain", "coastal", "country", "adjacent", "extra"]
)


@settings(max_examples=300, deadline=None, database=None)
@given(index=st.integers(0, 21), field=FIELDS, value=VALUES, delete=st.booleans())
def test_a_damaged_map_loads_or_gives_an_input_error(index, field, value, delete):
    data = lod_rows()
    row = data["space"][index]
    if delete:
        row.pop(field, None)
    else:
        row[field] = value
    try:
        board = parse_map("lod", data)
    except InputError as err:
        assert err.path and err.path.startswith(("space", "box"))
    else:
        assert len(board.spaces) == 22
