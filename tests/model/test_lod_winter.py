"""LoD Winter Quarters phases without choices (6.3, 6.5.1, 6.5.3, 6.7): golden cases
worked from the rule text."""

from __future__ import annotations

from legalis.model.coin.scenarios import scenario_info
from legalis.model.coin.state import CoinState
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.winter import (
    british_release,
    leader_change,
    reset_phase,
    resources_phase,
)


def test_earnings_before_the_treaty() -> None:
    # 6.3: British Forts + population of British Controlled Cities not Blockaded (+5 WI);
    # Indians half the Villages; Patriots Forts + half the Rebellion Controlled spaces;
    # French twice the Squadrons in the West Indies before the Treaty
    state = CoinState.new("lod")
    state.move_pieces("Available", "New York City", "british_regular", 2)  # population 2
    state.move_pieces("Available", "Quebec", "british_fort", 1)
    state.move_pieces("Available", WEST_INDIES, "british_regular", 1)
    for space in ("Quebec", "Northwest", "Southwest"):
        state.move_pieces("Available", space, "village", 1)
    state.move_pieces("Available", "Virginia", "patriot_fort", 1)
    for space in ("Virginia", "Pennsylvania", "Boston"):
        state.move_pieces("Available", space, "militia", 1)
    state.move_marker("Unavailable", WEST_INDIES, "blockade", 2)
    after, log = resources_phase(state)
    assert after.track("british_resources") == 1 + 2 + 5
    assert after.track("indians_resources") == 3 // 2
    # Rebellion Control: Virginia, Pennsylvania, Boston (Quebec has Royalist pieces)
    assert after.track("patriots_resources") == 1 + 3 // 2
    assert after.track("french_resources") == 2 * 2
    assert [line[:5] for line in log] == ["6.3.1", "6.3.2", "6.3.3", "6.3.4"]
    assert state.track("british_resources") == 0  # the input is unchanged


def test_earnings_after_the_treaty_and_the_cap() -> None:
    # 6.3.4: after the Treaty, FNI + population of Cities not British Controlled, +5
    # with Rebellion Control of the West Indies; 6.3: never past 50
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("fni", 2)
    state.move_pieces("Available", "New York City", "british_regular", 1)
    state.move_pieces("Available", WEST_INDIES, "french_regular", 2)
    state.set_track("french_resources", 40)
    after, _ = resources_phase(state)
    cities = state.rules.map.of_type("City")
    open_population = sum(state.rules.map.population(c) for c in cities) - 2
    assert 2 + open_population + 5 > 10
    assert after.track("french_resources") == 50


def test_blockaded_city_earns_the_british_nothing() -> None:
    # 6.3.1: only Cities that are not Blockaded count
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.move_pieces("Available", "Boston", "british_regular", 1)
    assert resources_phase(state)[0].track("british_resources") == 1
    state.move_marker("Unavailable", "Boston", "blockade", 1)
    assert resources_phase(state)[0].track("british_resources") == 0


def test_leader_change_summary() -> None:
    # 6.5.1: Gage -> Howe -> Clinton; Brant -> Cornplanter -> Dragging Canoe; the French
    # Rochambeau -> Lauzun only after the Treaty; no Patriot change
    state = CoinState.new("lod")
    state.set_leader("Gage", "Boston")
    state.set_leader("Brant", "Northwest")
    state.set_leader("Rochambeau", "Virginia")
    state.set_leader("Washington", "Massachusetts")
    once, _ = leader_change(state, "british")
    twice, _ = leader_change(once, "british")
    assert (twice.leader("Clinton"), twice.leader("Howe")) == ("Boston", None)
    last, log = leader_change(twice, "british")
    assert last.leader("Clinton") == "Boston" and "no further" in log[0]
    assert leader_change(state, "indians")[0].leader("Cornplanter") == "Northwest"
    held, log = leader_change(state, "french")
    assert held.leader("Rochambeau") == "Virginia" and "Treaty" in log[0]
    state.set_flag("toa_played")
    assert leader_change(state, "french")[0].leader("Lauzun") == "Virginia"
    assert leader_change(state, "patriots")[0].leader("Washington") == "Massachusetts"


def test_reset_phase() -> None:
    # 6.7: Raid and Propaganda off, all Eligible, cubes from Casualties to Available,
    # every Militia and War Party Underground
    state = CoinState.new("lod")
    state.add_marker("Virginia", "raid")
    state.add_marker("Boston", "propaganda")
    state.set_eligibility("british", "ineligible")
    state.move_pieces("Available", "Casualties", "tory", 2)
    state.move_pieces("Available", "Quebec", "war_party", 2, new_status="active")
    after, _ = reset_phase(state)
    assert after.markers("Virginia", "raid") == after.markers("Boston", "propaganda") == 0
    assert after.eligibility("british") == "eligible"
    assert after.pieces("Casualties", "tory") == 0
    assert after.available("tory") == state.available("tory") + 2
    assert after.pieces("Quebec", "war_party", "underground") == 2


def test_british_release_follows_the_schedule() -> None:
    # 6.5.3: the 1775 schedule releases 6 Regulars and 6 Tories after 1775 and again
    # after 1776; with fewer in Unavailable, only those move
    info = scenario_info("lod", "1775")
    state = info.state
    first, _ = british_release(state, info.releases, 1775)
    assert first.pieces("Unavailable", "british_regular") == 12 - 6
    assert first.available("tory") == state.available("tory") + 6
    second, _ = british_release(first, info.releases, 1776)
    assert second.pieces("Unavailable", "british_regular") == 0
    third, log = british_release(second, info.releases, 1777)
    assert third.to_json() == second.to_json() and "no British release" in log[0]
    short = state.copy()
    short.move_pieces("Unavailable", "Available", "tory", 10)  # 2 left of 12
    after, log = british_release(short, info.releases, 1775)
    assert after.pieces("Unavailable", "tory") == 0 and "2 tory" in log[1]
