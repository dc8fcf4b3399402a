"""Where the bundled maps draw their spaces: LoD, FitL and EU:PoP.

Every space, box, Area and Sea Zone has a centre on its map's frame; the drawn
rectangles never overlap; neighbours keep the compass order of the real map
(the expected directions below come from geography, not from the files); and a
file with a bad or missing position is refused with the path of the field.
"""

from __future__ import annotations

import copy
import itertools
import tomllib
from importlib import resources
from typing import Any

import pytest
from legalis.model.coin.mapdata import load_map as load_coin_map
from legalis.model.coin.mapdata import parse_map
from legalis.model.errors import InputError
from legalis.model.eupop.mapdata import load_map as load_eupop_map

GAP = 8  # the least room between two drawn rectangles, in map units

FRAMES = {
    "lod": ((1200, 1400), (150, 84)),
    "fitl": ((1300, 1700), (140, 70)),
    "eupop": ((1800, 1300), (120, 48)),
}


def board(game: str) -> tuple[dict[str, tuple[float, float]], list[str], list[str]]:
    """The positions of ``game``, the names drawn as rectangles, the names drawn as labels."""
    if game == "eupop":
        eu = load_eupop_map("bundled")
        return dict(eu.positions), list(eu.areas), list(eu.seas)
    coin = load_coin_map(game)
    return dict(coin.positions), [*coin.names(), *coin.boxes], []


@pytest.mark.parametrize("game", ["lod", "fitl", "eupop"])
def test_every_place_has_a_position_inside_the_frame(game):
    (width, height), box = FRAMES[game]
    loaded = load_eupop_map("bundled") if game == "eupop" else load_coin_map(game)
    assert loaded.frame == (width, height)
    assert loaded.box == box
    positions, drawn, labels = board(game)
    assert set(positions) == {*drawn, *labels}
    for name in drawn:
        x, y = positions[name]
        # the whole rectangle lies on the frame, not only its centre
        assert box[0] / 2 <= x <= width - box[0] / 2, name
        assert box[1] / 2 <= y <= height - box[1] / 2, name
    for name in labels:
        x, y = positions[name]
        assert 0 <= x <= width and 0 <= y <= height, name


def test_the_maps_have_their_number_of_places():
    assert len(board("lod")[1]) == 23  # 22 spaces and the West Indies box
    assert len(board("fitl")[1]) == 47
    assert len(board("eupop")[1]) == 94
    assert len(board("eupop")[2]) == 17


@pytest.mark.parametrize("game", ["lod", "fitl", "eupop"])
def test_no_two_drawn_rectangles_overlap(game):
    _, (box_w, box_h) = FRAMES[game]
    positions, drawn, _ = board(game)
    crowded = [
        (a, b)
        for a, b in itertools.combinations(drawn, 2)
        if abs(positions[a][0] - positions[b][0]) < box_w + GAP
        and abs(positions[a][1] - positions[b][1]) < box_h + GAP
    ]
    assert crowded == []


def north_of(positions: dict[str, tuple[float, float]], a: str, b: str) -> bool:
    return positions[a][1] < positions[b][1]  # y grows downward


def west_of(positions: dict[str, tuple[float, float]], a: str, b: str) -> bool:
    return positions[a][0] < positions[b][0]


COMPASS = {
    "lod": [
        ("north", "Quebec City", "Boston"),
        ("north", "Boston", "New York City"),
        ("north", "New York City", "Philadelphia"),
        ("north", "Charles Town", "Savannah"),
        ("north", "Georgia", "Florida"),
        ("north", "New York", "New York City"),
        ("west", "Northwest", "Pennsylvania"),
        ("west", "New Jersey", "New York City"),
        ("west", "Massachusetts", "Boston"),
        ("west", "Southwest", "South Carolina"),
        ("west", "Florida", "West Indies"),
        ("north", "Florida", "West Indies"),
    ],
    "fitl": [
        ("north", "North Vietnam", "Hue"),
        ("north", "Hue", "Saigon"),
        ("west", "Central Laos", "Quang Tri-Thua Thien"),
        ("north", "Saigon", "Can Tho"),
        ("west", "Sihanoukville", "Can Tho"),
        ("north", "Kontum", "An Loc"),
        ("west", "Tay Ninh", "Saigon"),
    ],
    "eupop": [
        ("west", "portugal", "castile"),
        ("north", "brittany_&_normandy", "aquitaine"),
        ("north", "scotland", "east_anglia"),
        ("north", "naples", "sicily"),
        ("north", "syria", "egypt"),
        ("west", "moscow_&_ryazan", "perm"),
        ("north", "norrland", "gotaland_&_skane"),
        ("west", "ireland", "east_anglia"),
    ],
}


@pytest.mark.parametrize(
    ("game", "direction", "a", "b"),
    [(game, *fact) for game, facts in COMPASS.items() for fact in facts],
)
def test_neighbours_keep_their_compass_order(game, direction, a, b):
    positions, _, _ = board(game)
    check = north_of if direction == "north" else west_of
    assert check(positions, a, b), f"{a} is not {direction} of {b}"


# --- loader checks ------------------------------------------------------------


def raw(package: str) -> dict[str, Any]:
    text = resources.files(package).joinpath("map.toml").read_text("utf-8")
    return tomllib.loads(text)


@pytest.fixture
def lod_data() -> dict[str, Any]:
    return copy.deepcopy(raw("legalis.model.lod"))


@pytest.fixture
def eupop_data() -> dict[str, Any]:
    return copy.deepcopy(raw("legalis.model.eupop"))


@pytest.mark.parametrize(
    ("at", "match"),
    [
        ([1300, 40], "x = 1300 is off the frame"),
        ([40, -1], "y = -1 is off the frame"),
        ([40, 1401], "y = 1401 is off the frame"),
        (["40", 40], "expected a list of two numbers"),
        ([True, 40], "expected a list of two numbers"),
        ([40], "expected a list of two numbers"),
        ([40, 40, 40], "expected a list of two numbers"),
        ("40, 40", "expected a list of two numbers"),
        ([float("nan"), 40], "expected a list of two numbers"),
    ],
)
def test_a_bad_space_position_names_its_path(lod_data, at, match):
    lod_data["space"][3]["at"] = at
    with pytest.raises(InputError, match=match) as caught:
        parse_map("lod", lod_data, source="lod/map.toml")
    assert caught.value.path == "space[3].at"
    assert caught.value.source == "lod/map.toml"


def test_a_bad_box_position_names_its_path(lod_data):
    lod_data["box"][0]["at"] = [5000, 10]
    with pytest.raises(InputError, match="off the frame") as caught:
        parse_map("lod", lod_data)
    assert caught.value.path == "box[0].at"


def test_one_space_without_a_position_is_refused(lod_data):
    del lod_data["space"][5]["at"]
    with pytest.raises(InputError, match="'Charles Town' has no position") as caught:
        parse_map("lod", lod_data)
    assert caught.value.path == "space[5].at"


def test_the_box_needs_a_position_when_the_spaces_have_one(lod_data):
    del lod_data["box"][0]["at"]
    with pytest.raises(InputError, match="'West Indies' has no position") as caught:
        parse_map("lod", lod_data)
    assert caught.value.path == "box[0].at"


def test_positions_need_a_frame(lod_data):
    del lod_data["frame"]
    with pytest.raises(InputError, match="frame") as caught:
        parse_map("lod", lod_data)
    assert caught.value.path == "frame"


@pytest.mark.parametrize(
    ("frame", "path"),
    [
        ("big", "frame"),
        ({"height": 1400}, "frame.width"),
        ({"width": 0, "height": 1400}, "frame.width"),
        ({"width": 1200, "height": "tall"}, "frame.height"),
        ({"width": 1200, "height": 1400, "box": [150]}, "frame.box"),
        ({"width": 1200, "height": 1400, "box": [150, -1]}, "frame.box"),
    ],
)
def test_a_bad_frame_names_its_field(lod_data, frame, path):
    lod_data["frame"] = frame
    with pytest.raises(InputError) as caught:
        parse_map("lod", lod_data)
    assert caught.value.path == path


def test_a_map_without_positions_still_loads(lod_data):
    del lod_data["frame"]
    for row in [*lod_data["space"], *lod_data["box"]]:
        del row["at"]
    lod = parse_map("lod", lod_data)
    assert lod.frame is None and lod.box is None and lod.positions == {}
    assert len(lod.spaces) == 22


def test_eupop_bad_positions_name_their_path(eupop_data):
    eupop_data["area"][4]["at"] = [40, 1300.5]
    with pytest.raises(InputError, match=r"y = 1300\.5 is off the frame") as caught:
        load_eupop_map(eupop_data)
    assert caught.value.path == "map.area[4].at"

    eupop_data = raw("legalis.model.eupop")
    eupop_data["sea"][2]["at"] = [None, 3]
    with pytest.raises(InputError, match="expected a list of two numbers") as caught:
        load_eupop_map(eupop_data)
    assert caught.value.path == "map.sea[2].at"

    eupop_data = raw("legalis.model.eupop")
    del eupop_data["sea"][0]["at"]
    with pytest.raises(InputError, match="'adriatic_sea' has no position") as caught:
        load_eupop_map(eupop_data)
    assert caught.value.path == "map.sea[0].at"

    eupop_data = raw("legalis.model.eupop")
    del eupop_data["area"][1]["at"]
    with pytest.raises(InputError, match="'algiers' has no position") as caught:
        load_eupop_map(eupop_data)
    assert caught.value.path == "map.area[1].at"


def test_eupop_positions_need_a_frame():
    small = {"area": [{"id": "a", "at": [1, 2]}]}
    with pytest.raises(InputError, match="frame") as caught:
        load_eupop_map(small)
    assert caught.value.path == "map.frame"
