"""The bundled COIN scenarios against their printed set-ups.

Expected numbers are worked by hand from the scenario set-ups (LoD 1775, 1776
and 1778 scenario pages; the FitL Short scenario) and from the rules they cite:
Total Support and Opposition (1.6), Control (1.7). The piece inventory below is
the games' Available Forces tables / force pool, written out again here so the
conservation check does not read the engine's own data.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from legalis.model.coin.scenarios import (
    load_scenario,
    parse_scenario,
    scenario_info,
    scenario_names,
)
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.errors import InputError

INVENTORY = {
    "lod": {
        "british_regular": 25, "tory": 25, "british_fort": 6, "continental": 20, "militia": 15,
        "patriot_fort": 6, "french_regular": 15, "war_party": 15, "village": 12,
    },
    "fitl": {
        "us_troop": 40, "irregular": 6, "us_base": 6, "arvn_troop": 30, "police": 30,
        "ranger": 6, "arvn_base": 3, "nva_troop": 40, "nva_guerrilla": 20, "nva_base": 9,
        "vc_guerrilla": 30, "vc_base": 9,
    },
}  # fmt: skip

BUNDLED = [("lod", "1775"), ("lod", "1776"), ("lod", "1778"), ("fitl", "short")]


def count(entry: Any) -> int:
    """A piece entry of the JSON: a bare count or a count per status."""
    return sum(entry.values()) if isinstance(entry, dict) else int(entry)


def totals(j: dict[str, Any]) -> dict[str, int]:
    """Every piece type's total over the spaces and boxes of a state's JSON."""
    found: dict[str, int] = {}
    for section in ("spaces", "boxes"):
        for entry in j[section].values():
            for piece, value in entry["pieces"].items():
                found[piece] = found.get(piece, 0) + count(value)
    return found


def test_the_bundled_scenarios_are_listed() -> None:
    assert scenario_names("lod") == ["1775", "1776", "1778"]
    assert scenario_names("fitl") == ["short"]


@pytest.mark.parametrize(("game", "name"), BUNDLED)
def test_every_scenario_is_sound_and_conserves_every_piece(game: str, name: str) -> None:
    state = load_scenario(game, name)
    assert state.invariant_problems() == []
    found = totals(state.to_json())
    assert {piece: found.get(piece, 0) for piece in INVENTORY[game]} == INVENTORY[game]


@pytest.mark.parametrize(("game", "name"), BUNDLED)
def test_json_round_trip_is_exact_for_every_scenario(game: str, name: str) -> None:
    state = load_scenario(game, name, period_events=True)
    j = state.to_json()
    again = state_from_json(json.loads(json.dumps(j)), game)
    assert again == state
    assert again.to_json() == j
    assert json.dumps(again.to_json()) == json.dumps(j)


def test_load_scenario_gives_a_fresh_copy_each_time() -> None:
    first = load_scenario("lod", "1775")
    first.move_pieces("Boston", "Available", "british_regular", 3)
    first.set_track("british_resources", 40)
    second = load_scenario("lod", "1775")
    assert second.pieces("Boston", "british_regular") == 3
    assert second.track("british_resources") == 6


# ---------------------------------------------------------------------- LoD 1775


def test_1775_spot_checks() -> None:
    state = load_scenario("lod", "1775")
    # "Boston: British Control, Passive Support; British: 3 Regulars, 1 Fort, Gage"
    assert state.pieces("Boston", "british_regular") == 3
    assert state.pieces("Boston", "british_fort") == 1
    assert state.support("Boston") == "passive_support"
    assert state.leader("Gage") == "Boston"
    # "Unavailable: British: 12 Regulars, 12 Tories; French: 15 Regulars, 3 Squadrons"
    assert state.pieces("Unavailable", "british_regular") == 12
    assert state.pieces("Unavailable", "french_regular") == 15
    assert state.markers("Unavailable", "blockade") == 3
    # "Available: Patriots: 19 Continentals, 11 Militia, 5 Forts"
    assert (state.available("continental"), state.available("militia")) == (19, 11)
    assert state.available("patriot_fort") == 5
    # Militia set up Underground (1.4.3)
    assert state.pieces("Massachusetts", "militia", "underground") == 1
    assert state.track("british_resources") == 6 and state.track("fni") == 0
    assert not state.flag("toa_played")
    assert "Treaty of Alliance" in state.card_list("brilliant_strokes")
    assert all(state.eligibility(f) == "eligible" for f in state.rules.faction_ids)


def test_1775_totals_by_hand() -> None:
    state = load_scenario("lod", "1775")
    # 1.6: Quebec City (pop 1), Boston (1), New York City (2) at Passive Support:
    # 1 + 1 + 2 = 4. Massachusetts (pop 2) at Active Opposition: 2 x 2 = 4.
    assert state.total_support() == 1 + 1 + 2
    assert state.total_opposition() == 2 * 2


def test_1775_control_by_hand() -> None:
    state = load_scenario("lod", "1775")
    # 1.7, New York: Royalist 1 Regular + 2 Tories + 1 War Party = 4 against 1 Militia,
    # a British piece present: British Control.
    assert state.control("New York") == "british"
    # Northwest: 2 War Parties, no British, no Rebellion: no Control.
    assert state.control("Northwest") is None
    # Philadelphia: 1 Militia against nothing: Rebellion Control.
    assert state.control("Philadelphia") == "rebellion"
    # An empty space has no Control.
    assert state.control("Georgia") is None


# ---------------------------------------------------------------------- LoD 1776


def test_1776_spot_checks() -> None:
    state = load_scenario("lod", "1776")
    # "West Indies: French: 2 Squadrons"; "Unavailable: French: 9 Regulars, 1 Squadron"
    assert state.markers("West Indies", "blockade") == 2
    assert state.markers("Unavailable", "blockade") == 1
    assert state.pieces("Unavailable", "french_regular") == 9
    # "Available: French: 6 Regulars" (Available, not on the map, before the ToA)
    assert state.available("french_regular") == 6
    # "New York: British: 3 Regulars, 3 Tories; Patriots: 3 Continentals, Washington;
    #  Indians: 2 War Parties, Brant"
    assert state.pieces("New York", "continental") == 3
    assert state.leader("Washington") == state.leader("Brant") == "New York"
    assert (state.track("cbc"), state.track("crc"), state.track("french_preparations")) == (
        1,
        3,
        9,
    )
    # 1.6: Support 1 (Quebec City) + 2 (New York City) = 3; Opposition: Boston passive
    # (pop 1) + Massachusetts active (2 x 2) = 5.
    assert (state.total_support(), state.total_opposition()) == (3, 5)
    # 1.7, North Carolina: 1 Continental + 1 Militia against 1 War Party.
    assert state.control("North Carolina") == "rebellion"


# ---------------------------------------------------------------------- LoD 1778


def test_1778_spot_checks() -> None:
    state = load_scenario("lod", "1778")
    assert state.flag("toa_played")
    assert "Treaty of Alliance" not in state.card_list("brilliant_strokes")
    # "West Indies: French: 3 Regulars, 3 Squadrons"
    assert state.pieces("West Indies", "french_regular") == 3
    assert state.markers("West Indies", "blockade") == 3
    # "Connecticut-RI: British: 2 Tories; Patriots: 1 Fort; French: 4 Regulars, Rochambeau"
    assert state.pieces("Connecticut-Rhode Island", "french_regular") == 4
    assert state.leader("Rochambeau") == "Connecticut-Rhode Island"
    # "Unavailable: none"
    assert state.to_json()["boxes"]["Unavailable"]["pieces"] == {}
    assert state.available("militia") == 1


def test_1778_totals_by_hand() -> None:
    state = load_scenario("lod", "1778")
    # 1.6 Support: Active (x2): Quebec City 1, New York City 2, Philadelphia 1,
    # New Hampshire 1, New York 2; Passive: Savannah 1, Maryland-Delaware 2.
    assert state.total_support() == 2 * (1 + 2 + 1 + 1 + 2) + (1 + 2) == 17
    # Opposition: Active (x2): Charles Town 1, Massachusetts 2, Connecticut-RI 2;
    # Passive: Boston 1, New Jersey 1, Pennsylvania 2, North Carolina 2.
    assert state.total_opposition() == 2 * (1 + 2 + 2) + (1 + 1 + 2 + 2) == 16


def test_1778_control_by_hand() -> None:
    state = load_scenario("lod", "1778")
    # 1.7, South Carolina: 2 Militia against 1 War Party + 1 Village, no British:
    # Rebellion does not exceed, Indians alone never Control.
    assert state.control("South Carolina") is None
    # Connecticut-RI: 1 Fort + 4 French Regulars = 5 against 2 Tories.
    assert state.control("Connecticut-Rhode Island") == "rebellion"
    # West Indies: 3 French Regulars against nothing.
    assert state.control("West Indies") == "rebellion"


def test_a_blockade_makes_a_city_count_population_zero_for_support() -> None:
    state = load_scenario("lod", "1778")
    # New York City (pop 2) is at Active Support: 4 of the 17. A Blockade on it
    # (1.9) takes it out of Total Support; Opposition is untouched.
    state.move_marker("West Indies", "New York City", "blockade")
    state.set_track("fni", 1)
    assert state.invariant_problems() == []
    assert state.total_support() == 17 - 4
    assert state.total_opposition() == 16


# ---------------------------------------------------------------------- FitL Short


def test_fitl_short_spot_checks() -> None:
    state = load_scenario("fitl", "short")
    assert state.pieces("Saigon", "us_base") == 1
    assert state.pieces("Saigon", "ranger", "underground") == 1
    assert state.pieces("Tay Ninh", "vc_base", "tunneled") == 1
    assert state.pieces("Tay Ninh", "vc_base", "active") == 0
    assert state.pieces("Out of Play", "us_troop") == 6
    assert state.pieces("Out of Play", "arvn_troop") == 10
    assert state.pieces("Out of Play", "ranger") == 3
    assert state.card_list("rvn_leaders")[0] == "Young Turks"
    tracks = {t: state.track(t) for t in ("aid", "patronage", "trail", "arvn_resources")}
    assert tracks == {"aid": 15, "patronage": 18, "trail": 2, "arvn_resources": 30}
    assert state.capability("AAA") is None
    assert load_scenario("fitl", "short", period_events=True).capability("AAA") == "shaded"


def test_fitl_short_available_by_hand() -> None:
    state = load_scenario("fitl", "short")
    # US Troops on the map: Da Nang 3, Kontum 3, Saigon 3, Can Tho 3, Quang Tin 2,
    # Binh Dinh 4, Pleiku 1, Khanh Hoa 1, Binh Tuy 2 = 22; 6 Out of Play; of 40.
    assert state.available("us_troop") == 40 - 22 - 6
    # Rangers: 3 on the map, 3 Out of Play, of 6.
    assert state.available("ranger") == 0
    # VC Bases: Binh Dinh, Pleiku, Quang Duc, Binh Tuy, Tay Ninh = 5 of 9.
    assert state.available("vc_base") == 4
    # NVA Guerrillas: 2 + 1 + 2 + 2 + 1 + 4 + 1 + 1 = 14 of 20.
    assert state.available("nva_guerrilla") == 6


def test_fitl_short_totals_by_hand() -> None:
    state = load_scenario("fitl", "short")
    # 1.6: Active Support: Da Nang 1, Kontum 1, Saigon 6, Can Tho 1 (x2 = 18);
    # Passive: Qui Nhon 1, Cam Ranh 1, An Loc 1, Binh Dinh 2, Binh Tuy 1 (= 6).
    assert state.total_support() == 2 * (1 + 1 + 6 + 1) + (1 + 1 + 1 + 2 + 1) == 24
    # Active Opposition: Quang Tri 2, Quang Duc 1, Tay Ninh 2, Kien Phong 2, Kien Giang 2.
    assert state.total_opposition() == 2 * (2 + 1 + 2 + 2 + 2) == 18


def test_fitl_short_control_by_hand() -> None:
    state = load_scenario("fitl", "short")
    # 1.7, Quang Tri: ARVN Base + 2 Troops = 3; NVA Base + 4 Guerrillas = 5 > 3.
    assert state.control("Quang Tri-Thua Thien") == "nva"
    # Tay Ninh: VC Base + 2 Guerrillas, 1 NVA Guerrilla: NVA 1 does not exceed 3.
    assert state.control("Tay Ninh") is None
    # Binh Dinh: US 6 + ARVN 3 = 9 against VC 3.
    assert state.control("Binh Dinh") == "coin"
    # LoCs are never Controlled.
    state.move_pieces("Available", "Saigon -- Can Tho", "police", 2)
    assert state.control("Saigon -- Can Tho") is None


# ---------------------------------------------------------------------- bad files


def minimal(game: str) -> dict[str, Any]:
    tracks = {track.id: track.lo for track in CoinState.new(game).data.tracks}
    return {"game": game, "name": "t", "title": "t", "tracks": tracks}


@pytest.mark.parametrize(
    ("game", "extra", "path"),
    [
        ("lod", {"spaces": {"Bostn": {"tory": 1}}}, "spaces.Bostn"),
        ("lod", {"spaces": {"Boston": {"tory": 26}}}, "spaces.Boston.tory"),
        ("lod", {"spaces": {"Boston": {"tory": -1}}}, "spaces.Boston.tory"),
        ("lod", {"spaces": {"Boston": {"tory": 1, "control": "rebellion"}}},
         "spaces.Boston.control"),
        ("lod", {"spaces": {"Quebec": {"support": "active_support"}}}, "spaces.Quebec.support"),
        ("lod", {"spaces": {"Boston": {"french_regular": 1}}}, "spaces.Boston.french_regular"),
        ("lod", {"boxes": {"Available": {"tory": 1}}}, "boxes.Available"),
        ("lod", {"check": {"total_support": 3}}, "check.total_support"),
        ("lod", {"check": {"available": {"tory": 3}}}, "check.available.tory"),
        ("fitl", {"spaces": {"North Vietnam": {"us_troop": 1}}}, "spaces.North Vietnam.us_troop"),
        ("fitl", {"spaces": {"Hue -- Da Nang": {"nva_base": 1}}}, "spaces.Hue -- Da Nang.nva_base"),
        ("fitl", {"spaces": {"Hue": {"police": {"underground": 1}}}},
         "spaces.Hue.police.underground"),
        ("fitl", {"nonsense": 1}, "nonsense"),
    ],
)  # fmt: skip
def test_a_bad_scenario_names_the_field(game: str, extra: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_scenario(game, {**minimal(game), **extra})
    assert caught.value.path == path


def test_a_missing_track_is_named() -> None:
    raw = minimal("fitl")
    del raw["tracks"]["trail"]
    with pytest.raises(InputError, match="missing track") as caught:
        parse_scenario("fitl", raw)
    assert caught.value.path == "tracks.trail"


def test_scenario_facts_beside_the_state() -> None:
    info = scenario_info("lod", "1775")
    assert [r.after for r in info.releases] == [1775, 1776]
    assert info.details["campaigns"] == [1775, 1776, 1777, 1778, 1779, 1780]
    with pytest.raises(InputError):
        load_scenario("fitl", "medium")
