"""LoD Special Activities (chapter 4): golden cases worked from the rules, every
option, the pairing rules both ways, and both directions of legality."""

from __future__ import annotations

from dataclasses import replace

import pytest
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.command_base import continue_command
from legalis.model.lod.commands import Command, command_refusal
from legalis.model.lod.special import (
    SPECIAL_ACTIVITIES,
    SpecialActivity,
    apply_special,
    available_special_activities,
    command_parts,
    during_refusal,
    special_during,
    special_refusal,
    special_view,
)

SA = SpecialActivity


def put(state: CoinState, space: str, piece: str, n: int = 1, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def after_toa() -> CoinState:
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    return state


def check_view(state: CoinState, faction: str, name: str, command: Command | None) -> int:
    """Every offered move is legal and applies cleanly; the count matches the list."""
    view = special_view(state, faction, name, command)
    moves = list(view)
    assert len(moves) == view.count() == len(set(moves))
    for index, move in enumerate(moves):
        assert view.nth(index) == move
        assert special_refusal(state, move) is None and view.refusal(move) is None
        after = apply_special(state, move, LoggedRandom(index)).state
        assert after.invariant_problems() == []
        assert move.to_json()["special_activity"] == name
    return len(moves)


def test_special_activities_per_faction_and_french_timing() -> None:
    # 4.2-4.5: three per Faction; the French only Préparer la Guerre before the ToA
    state = CoinState.new("lod")
    assert {f: len(v) for f, v in SPECIAL_ACTIVITIES.items()} == dict.fromkeys(
        ("british", "patriots", "indians", "french"), 3
    )
    assert available_special_activities(state, "french") == ["preparer"]
    refused = special_refusal(state, SA("french", "skirmish", None, ("Boston",), "one"))
    assert refused is not None and refused.rule == "4.5"
    assert available_special_activities(after_toa(), "french") == [
        "naval_pressure",
        "preparer",
        "skirmish",
    ]
    with pytest.raises(InputError):
        available_special_activities(state, "spain")


def test_pairing_rules_both_ways() -> None:
    # 4.1.1: Common Cause only with March or Battle; Plunder only with Raid;
    # French Skirmish and Naval Pressure never with Agent Mobilization
    state = after_toa()
    put(state, "New York", "british_regular")
    put(state, "New York", "war_party", 2)
    for name, ok in (("march", True), ("battle", True), ("muster", False)):
        move = SA("british", "common_cause", Command("british", name, ("New York",)),
                  ("New York",), used=(("New York", "war_party:underground", 1),))  # fmt: skip
        refused = special_refusal(state, move)
        assert (refused is None) == ok
        if not ok:
            assert refused is not None and refused.rule == "4.1.1"
    raid = Command("indians", "raid", ("New York",))
    plunder = SA("indians", "plunder", raid, ("New York",),
                 removed=(("New York", "war_party:active", 1),))  # fmt: skip
    state.flip("New York", "war_party", 1, "underground", "active")
    assert special_refusal(state, plunder) is None
    gather = SA("indians", "plunder", Command("indians", "gather", ("New York",)), ("New York",),
                removed=plunder.removed)  # fmt: skip
    refused = special_refusal(state, gather)
    assert refused is not None and refused.rule == "4.1.1"
    agent = Command("french", "agent_mobilization", ("Quebec",))
    refused = special_refusal(state, SA("french", "naval_pressure", agent, option="rearrange"))
    assert refused is not None and refused.rule == "4.1.1"
    # 4.1: the Command is the same Faction's; 2.3.5: none with a Limited Command unless free
    other = SA("french", "preparer", Command("patriots", "rally", ("Boston",)), option="resources")
    refused = special_refusal(state, other)
    assert refused is not None and refused.rule == "4.1"
    limited = Command("french", "march", ("Boston",), limited=True)
    refused = special_refusal(state, SA("french", "preparer", limited, option="resources"))
    assert refused is not None and refused.rule == "2.3.5"
    free_limited = Command("french", "march", ("Boston",), limited=True, free=True)
    assert (
        special_refusal(state, SA("french", "preparer", free_limited, option="resources")) is None
    )
    assert special_view(state, "french", "preparer", limited).count() == 0
    # 4.1: a Special Activity comes with a Command executed in at least one space
    nowhere = SA("french", "preparer", Command("french", "march"), option="resources")
    refused = special_refusal(state, nowhere)
    assert refused is not None and refused.rule == "4.1"


def test_common_cause_activates_war_parties_used() -> None:
    # 4.2.1: in a Command space with British pieces, War Parties used as Tories are Activated
    state = CoinState.new("lod")
    put(state, "New York", "british_regular")
    put(state, "New York", "war_party", 2)
    put(state, "New York", "war_party", 1, "active")
    put(state, "Quebec", "tory")
    put(state, "Quebec", "war_party", 1)
    battle = Command("british", "battle", ("New York", "Quebec"))
    # per space (underground 0..u) x (active 0..a), less using none: 3*2*2*1 - 1
    assert special_view(state, "british", "common_cause", battle).count() == 11
    assert check_view(state, "british", "common_cause", battle) == 11
    only_ny = Command("british", "battle", ("New York",))
    assert special_view(state, "british", "common_cause", only_ny).count() == 5
    outside = SA("british", "common_cause", only_ny, ("Quebec",),
                 used=(("Quebec", "war_party:underground", 1),))  # fmt: skip
    refused = special_refusal(state, outside)
    assert refused is not None and refused.rule == "4.1.1"
    move = SA("british", "common_cause", battle, ("New York",),
              used=(("New York", "war_party:underground", 2),))  # fmt: skip
    after = apply_special(state, move).state
    assert after.pieces("New York", "war_party", "active") == 3
    # 4.2.1: War Parties never move into a City
    march = Command("british", "march", ("Boston",),
                    moves=(("Massachusetts", "Boston", "war_party:underground", 1),))  # fmt: skip
    put(state, "Massachusetts", "british_regular")
    put(state, "Massachusetts", "war_party")
    refused = special_refusal(state, SA("british", "common_cause", march, ("Massachusetts",),
                              used=(("Massachusetts", "war_party:underground", 1),)))  # fmt: skip
    assert refused is not None and refused.rule == "4.2.1"
    # 4.2.1: each War Party a March moves is one Common Cause uses
    put(state, "Massachusetts", "war_party")
    two = (("Massachusetts", "New Hampshire", "war_party:underground", 2),)
    inland = Command("british", "march", ("New Hampshire",), allied=("New Hampshire",), moves=two)
    used = (("Massachusetts", "war_party:underground", 1),)
    refused = special_refusal(state, SA("british", "common_cause", inland, ("Massachusetts",),
                                        used=used))  # fmt: skip
    assert refused is not None and "uses each" in refused.reason
    both = (("Massachusetts", "war_party:underground", 2),)
    assert special_refusal(state, SA("british", "common_cause", inland, ("Massachusetts",),
                                     used=both)) is None  # fmt: skip


def skirmish_state() -> CoinState:
    state = after_toa()
    put(state, "Boston", "british_regular", 2)
    put(state, "Boston", "continental", 1)
    put(state, "Boston", "militia", 1, "active")
    put(state, "Boston", "militia", 1)  # Underground: not a target
    return state


def test_british_skirmish_three_options() -> None:
    # 4.2.2: one Rebellion cube/Active Militia; or two and a Regular; or, with none, a Fort
    state = skirmish_state()
    # one: the Continental or the Active Militia; two: both (Underground Militia are no target)
    assert check_view(state, "british", "skirmish", None) == 3
    moves = list(special_view(state, "british", "skirmish", None))
    assert [m.option for m in moves] == ["one", "one", "two"]
    two = SA("british", "skirmish", None, ("Boston",), "two",
             (("Boston", "continental", 1), ("Boston", "militia:active", 1)))  # fmt: skip
    after = apply_special(state, two).state
    assert after.pieces("Casualties", "continental") == 1 and after.track("crc") == 1
    assert after.pieces("Casualties", "british_regular") == 1 and after.track("cbc") == 1
    assert after.pieces("Boston", "militia") == 1
    fort_state = after_toa()
    put(fort_state, "Boston", "british_regular")
    put(fort_state, "Boston", "patriot_fort")
    put(fort_state, "Boston", "militia")  # Underground Militia do not block the Fort option
    fort = SA("british", "skirmish", None, ("Boston",), "fort", (("Boston", "patriot_fort", 1),))
    assert list(special_view(fort_state, "british", "skirmish", None)) == [fort]
    after = apply_special(fort_state, fort).state
    # 1.6.4: a Fort goes to Available but counts as a Casualty
    assert after.available("patriot_fort") == 6 and after.track("crc") == 1
    assert after.pieces("Casualties", "british_regular") == 1
    # 4.2.2: not in a Battle, Muster space or Garrison destination
    for command in (
        Command("british", "battle", ("Boston",)),
        Command("british", "muster", ("Boston",)),
        Command("british", "garrison", moves=(("New York City", "Boston", "british_regular", 1),)),
    ):
        move = SA("british", "skirmish", command, ("Boston",), "one", moves[0].removed)
        refused = special_refusal(state, move)
        assert refused is not None and refused.rule == "4.1.1"
        assert special_view(state, "british", "skirmish", command).count() == 0
    march = Command("british", "march", ("Boston",))
    assert special_view(state, "british", "skirmish", march).count() == 3


def test_british_skirmish_in_the_west_indies() -> None:
    # 4.2.2: the West Indies qualify
    state = after_toa()
    state.move_pieces("Available", "West Indies", "british_regular", 1)
    state.move_pieces("Available", "West Indies", "french_regular", 2)
    assert check_view(state, "british", "skirmish", None) == 2


def test_british_naval_pressure_dice_and_fni() -> None:
    # 4.2.3: before the ToA, 1D3 to British Resources, from the injected source
    state = CoinState.new("lod")
    move = SA("british", "naval_pressure", None, option="resources")
    rng = LoggedRandom(3)
    result = apply_special(state, move, rng)
    roll = rng.log[0][1]
    assert isinstance(roll, int)
    assert result.state.track("british_resources") == roll + 1
    again = apply_special(state, move, LoggedRandom(3))
    assert again.state == result.state and again.log == result.log
    with pytest.raises(InputError):
        apply_special(state, move)
    # after the ToA, with FNI 2: lower FNI and one Blockade to the West Indies
    state = after_toa()
    state.move_marker("Unavailable", "Boston", "blockade")
    state.move_marker("Unavailable", "Savannah", "blockade")
    state.set_track("fni", 2)
    moves = list(special_view(state, "british", "naval_pressure", None))
    assert [m.spaces for m in moves] == [("Boston",), ("Savannah",)]
    after = apply_special(state, moves[1]).state
    assert after.track("fni") == 1 and after.markers("West Indies", "blockade") == 1
    refused = special_refusal(state, move)
    assert refused is not None and refused.rule == "4.2.3"
    check_view(state, "british", "naval_pressure", None)


def test_persuasion_up_to_three() -> None:
    # 4.3.1: Colonies/Cities with Rebellion Control and Underground Militia
    state = CoinState.new("lod")
    for space in ("Boston", "Virginia", "Georgia", "New Jersey"):
        put(state, space, "militia")
    put(state, "Quebec", "militia")  # a Reserve: not eligible
    assert check_view(state, "patriots", "persuasion", None) == 4 + 6 + 4
    after = apply_special(state, SA("patriots", "persuasion", None, ("Boston", "Virginia"))).state
    assert after.track("patriots_resources") == 2
    assert after.markers("Boston", "propaganda") == 1
    assert after.pieces("Virginia", "militia", "active") == 1
    refused = special_refusal(state, SA("patriots", "persuasion", None, ("Quebec",)))
    assert refused is not None and refused.rule == "4.3.1"


def test_partisans_three_options() -> None:
    # 4.3.2: one Militia Activated and one Royalist unit; two Activated, one removed, two
    # units; with no War Parties, two Activated, one removed, and a Village
    state = CoinState.new("lod")
    put(state, "Virginia", "militia", 2)
    put(state, "Virginia", "tory")
    put(state, "Virginia", "war_party", 1, "active")
    # one: Tory or WP(active); two: TW only (one of each) -> 3
    assert check_view(state, "patriots", "partisans", None) == 3
    move = SA("patriots", "partisans", None, ("Virginia",), "two",
              (("Virginia", "tory", 1), ("Virginia", "war_party:active", 1)))  # fmt: skip
    after = apply_special(state, move).state
    assert after.pieces("Virginia", "militia", "active") == 1
    assert after.pieces("Virginia", "militia", "underground") == 0
    assert after.pieces("Casualties", "tory") == 1 and after.track("cbc") == 1
    assert after.available("war_party") == 15
    village = CoinState.new("lod")
    put(village, "Georgia", "militia", 2)
    put(village, "Georgia", "village")
    moves = list(special_view(village, "patriots", "partisans", None))
    assert [m.option for m in moves] == ["village"]
    after = apply_special(village, moves[0]).state
    assert after.available("village") == 12 and after.available("militia") == 14
    battle = Command("patriots", "battle", ("Virginia",))
    refused = special_refusal(state, SA("patriots", "partisans", battle, ("Virginia",), "one",
                                        (("Virginia", "tory", 1),)))  # fmt: skip
    assert refused is not None and refused.rule == "4.1.1"


def test_patriot_skirmish_three_options() -> None:
    # 4.3.3: one British cube; two and a Continental; with no cubes, a Fort and a Continental
    state = CoinState.new("lod")
    put(state, "Boston", "continental")
    put(state, "Boston", "british_regular")
    put(state, "Boston", "tory")
    assert check_view(state, "patriots", "skirmish", None) == 3
    fort = CoinState.new("lod")
    put(fort, "Boston", "continental")
    put(fort, "Boston", "british_fort")
    (move,) = special_view(fort, "patriots", "skirmish", None)
    after = apply_special(fort, move).state
    assert after.track("cbc") == 1 and after.track("crc") == 1
    assert after.available("british_fort") == 6


def test_trade_amounts() -> None:
    # 4.4.1: the British choose 0..their Resources; 0 gives the Indians one Resource
    state = CoinState.new("lod")
    state.set_track("british_resources", 2)
    put(state, "Quebec", "war_party")
    put(state, "Quebec", "village")
    assert check_view(state, "indians", "trade", None) == 3
    after = apply_special(state, SA("indians", "trade", None, ("Quebec",), amount=2)).state
    assert (after.track("british_resources"), after.track("indians_resources")) == (0, 2)
    assert after.pieces("Quebec", "war_party", "active") == 1
    zero = apply_special(state, SA("indians", "trade", None, ("Quebec",))).state
    assert (zero.track("british_resources"), zero.track("indians_resources")) == (2, 1)
    refused = special_refusal(state, SA("indians", "trade", None, ("Quebec",), amount=3))
    assert refused is not None and refused.rule == "4.4.1"


def test_war_path_three_options() -> None:
    # 4.4.2
    state = CoinState.new("lod")
    put(state, "Virginia", "war_party", 2)
    put(state, "Virginia", "militia")
    put(state, "Virginia", "continental")
    # one: C or M(ug); two: C+M
    assert check_view(state, "indians", "war_path", None) == 3
    fort = CoinState.new("lod")
    put(fort, "Virginia", "war_party", 2)
    put(fort, "Virginia", "patriot_fort")
    (move,) = special_view(fort, "indians", "war_path", None)
    assert move.option == "fort"
    after = apply_special(fort, move).state
    assert after.track("crc") == 1 and after.pieces("Virginia", "war_party") == 1
    assert after.pieces("Virginia", "war_party", "active") == 1


def raid_board() -> CoinState:
    """Georgia (Population 1) and South Carolina (2) at Opposition, each with two
    Underground War Parties; the Indians have 1 Resource, the Patriots 3."""
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.set_track("patriots_resources", 3)
    for space in ("Georgia", "South Carolina"):
        state.set_support(space, "passive_opposition")
        put(state, space, "war_party", 2, "underground")
    return state


def test_plunder_during_a_raid_pays_for_its_other_spaces() -> None:
    # 4.1: a Special Activity may come during its Command; 3.4.4 Raids space by
    # space, so Georgia is Raided (its 1 Resource spent), Plunder there brings
    # Georgia's Population (1) from the Patriots (4.4.3), which pays for South Carolina
    state = raid_board()
    raid = Command("indians", "raid", ("Georgia", "South Carolina"))
    plunder = SA("indians", "plunder", raid, ("Georgia",),
                 removed=(("Georgia", "war_party:active", 1),))  # fmt: skip
    assert command_refusal(state, raid) is not None  # 2 Resources needed at once
    assert during_refusal(state, raid, ["Georgia"], plunder) is None
    first, mid, rest = special_during(state, raid, ["Georgia"], plunder)
    assert first.state.track("indians_resources") == 0
    assert mid.state.track("indians_resources") == 1
    after = rest.state
    assert after.track("indians_resources") == 0 and after.track("patriots_resources") == 2
    for space in ("Georgia", "South Carolina"):
        assert after.support(space) == "neutral"  # 3.4.4: one shift toward Neutral
        assert after.markers(space, "raid") == 1
    assert after.pieces("Georgia", "war_party") == 1  # one Activated, then Plundered
    # what may not be split around it
    cases = [
        (Command("indians", "gather", ("Georgia",)), ["Georgia"], plunder, "4.1"),
        (raid, [], plunder, "4.1"),
        (raid, ["Georgia", "South Carolina"], plunder, "4.1"),
        (raid, ["Quebec"], plunder, "4.1"),
        (raid, ["Georgia"], replace(plunder, command=None), "4.1"),
    ]
    # four Raid Provinces: illegal whatever the Resources
    four = replace(raid, spaces=("Georgia", "New York", "North Carolina", "South Carolina"))
    cases.append((four, ["Georgia"], replace(plunder, command=four), "3.4.4"))
    for command, before, special, rule in cases:
        refused = during_refusal(state, command, before, special)
        assert refused is not None and refused.rule == rule, (command.spaces, before)
    # the first part must be paid for before the Special Activity's gain arrives
    broke = raid_board()
    broke.set_track("indians_resources", 0)
    refused = during_refusal(broke, raid, ["Georgia"], plunder)
    assert refused is not None and refused.rule == "3.1"
    # a gain too small to pay for the rest: the rest is refused when reached
    poor = raid_board()
    poor.set_track("patriots_resources", 0)
    with pytest.raises(IllegalMoveError) as refusal:
        special_during(poor, raid, ["Georgia"], plunder)
    assert refusal.value.rule == "3.1"


def test_the_rest_of_a_raid_keeps_the_routes_chosen_when_it_began() -> None:
    # 4.1 with 3.4.4: the Raid's spaces and routes are chosen when it begins.
    # Dragging Canoe in Southwest lets a War Party go from there to Pennsylvania,
    # two Provinces away; Georgia is Raided first and he follows its War Party there
    # (1.10). Plunder in Georgia pays for Pennsylvania, whose War Party still comes
    # from Southwest, although Canoe has left it
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.set_track("patriots_resources", 3)
    state.set_leader("Dragging Canoe", "Southwest")
    for space in ("Georgia", "Pennsylvania"):
        state.set_support(space, "passive_opposition")
    put(state, "Southwest", "war_party", 3, "underground")
    raid = Command("indians", "raid", ("Georgia", "Pennsylvania"),
                   moves=(("Southwest", "Georgia", "war_party:underground", 1),
                          ("Southwest", "Pennsylvania", "war_party:underground", 1)),
                   leaders=(("Dragging Canoe", "Georgia"),))  # fmt: skip
    plunder = SA("indians", "plunder", raid, ("Georgia",),
                 removed=(("Georgia", "war_party:active", 1),))  # fmt: skip
    first, mid, rest = special_during(state, raid, ["Georgia"], plunder)
    assert first.state.leader("Dragging Canoe") == "Georgia"
    _, later = command_parts(raid, ["Georgia"])
    refused = command_refusal(mid.state, later)
    assert refused is not None and refused.rule == "3.4.4"  # not a route any more
    assert rest.state.pieces("Pennsylvania", "war_party", "active") == 1
    assert rest.state.track("indians_resources") == 0
    # the rest still needs its Resources and its moving pieces
    for change in ("resources", "pieces"):
        poor = mid.state.copy()
        if change == "resources":
            poor.set_track("indians_resources", 0)
        else:
            hidden = poor.pieces("Southwest", "war_party", "underground")
            poor.move_pieces("Southwest", "Available", "war_party", hidden, "underground")
        with pytest.raises(IllegalMoveError) as refusal:
            continue_command(poor, later)
        assert refusal.value.rule == ("3.1" if change == "resources" else "4.1")


def test_plunder_with_raid() -> None:
    # 4.4.3: population's worth of Patriot Resources to the Indians, one War Party removed
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 5)
    put(state, "Virginia", "war_party", 2, "active")
    put(state, "Virginia", "militia")
    raid = Command("indians", "raid", ("Virginia",))
    moves = list(special_view(state, "indians", "plunder", raid))
    assert [m.removed for m in moves] == [(("Virginia", "war_party:active", 1),)]
    after = apply_special(state, moves[0]).state
    assert (after.track("patriots_resources"), after.track("indians_resources")) == (3, 2)
    assert after.pieces("Virginia", "war_party") == 1
    put(state, "Virginia", "continental")  # 2 War Parties, 2 Rebellion pieces
    refused = special_refusal(state, moves[0])
    assert refused is not None and refused.rule == "4.4.3"


def test_preparer_la_guerre() -> None:
    # 4.5.1: one Squadron to the West Indies, three Regulars to Available, or two Resources
    state = CoinState.new("lod")
    state.move_pieces("Available", "Unavailable", "french_regular", 5)
    assert check_view(state, "french", "preparer", None) == 3
    after = apply_special(state, SA("french", "preparer", None, option="regulars")).state
    assert after.pieces("Unavailable", "french_regular") == 2
    after = apply_special(state, SA("french", "preparer", None, option="squadron")).state
    assert after.markers("West Indies", "blockade") == 1


def test_french_skirmish_and_naval_pressure() -> None:
    # 4.5.2: after the ToA, not in a Battle or Muster space
    state = after_toa()
    put(state, "New York City", "french_regular", 2)
    put(state, "New York City", "tory", 2)
    assert check_view(state, "french", "skirmish", None) == 2
    muster = Command("french", "muster", ("New York City",))
    assert special_view(state, "french", "skirmish", muster).count() == 0
    # 4.5.3: raise FNI; a Squadron from the West Indies onto any City
    state.move_marker("Unavailable", "West Indies", "blockade", 2)
    assert check_view(state, "french", "naval_pressure", None) == 7
    after = apply_special(state, SA("french", "naval_pressure", None, ("Boston",), "place")).state
    assert after.track("fni") == 1 and after.markers("Boston", "blockade") == 1
    # no Squadron in the West Indies: rearrange the Blockades on Cities
    state.move_marker("West Indies", "Boston", "blockade", 2)
    state.set_track("fni", 1)
    assert check_view(state, "french", "naval_pressure", None) == 28  # 2 among 7 Cities
    move = SA("french", "naval_pressure", None, option="rearrange",
              layout=(("Norfolk", 1), ("Savannah", 1)))  # fmt: skip
    after = apply_special(state, move).state
    assert after.track("fni") == 2 and after.markers("Boston", "blockade") == 0


def test_refusals_name_a_rule() -> None:
    state = CoinState.new("lod")
    assert special_refusal(state, "x") is not None
    for faction, names in SPECIAL_ACTIVITIES.items():
        for name in names:
            refused = special_refusal(state, SA(faction, name, None, ("Nowhere",)))
            assert refused is not None and refused.rule.startswith(("4", "2"))
    with pytest.raises(IllegalMoveError):
        apply_special(state, SA("patriots", "persuasion", None, ("Boston",)))


KINDS = (
    "british_regular", "tory", "british_fort", "continental", "french_regular",
    "militia:active", "militia:underground", "patriot_fort", "war_party:active",
    "war_party:underground", "village",
)  # fmt: skip


@pytest.mark.parametrize(
    ("faction", "name"),
    [("british", "skirmish"), ("patriots", "skirmish"), ("patriots", "partisans"),
     ("indians", "war_path"), ("french", "skirmish")],
)  # fmt: skip
def test_strike_candidates_not_offered_are_refused(faction: str, name: str) -> None:
    # 4.2.2, 4.3.2, 4.3.3, 4.4.2, 4.5.2: brute force over every option and removal
    state = after_toa()
    space = "Virginia"
    for piece, n, status in (
        ("british_regular", 1, None), ("tory", 1, None), ("continental", 2, None),
        ("french_regular", 1, None), ("militia", 2, "underground"), ("militia", 1, "active"),
        ("war_party", 2, "underground"), ("village", 1, None),
    ):  # fmt: skip
        put(state, space, piece, n, status)
    offered = set(special_view(state, faction, name, None))
    candidates = set()
    for option in ("one", "two", "fort", "village"):
        for first in KINDS:
            for second in KINDS:
                for removed in (((space, first, 1),), tuple(sorted({(space, first, 1),
                                                                    (space, second, 1)})),
                                ((space, first, 2),)):  # fmt: skip
                    candidates.add(SA(faction, name, None, (space,), option, removed))
    for move in candidates:
        refused = special_refusal(state, move)
        assert (refused is None) == (move in offered)
        if refused is not None:
            assert refused.rule[0] in "24"
    assert offered
    for move in offered:
        assert apply_special(state, move).state.invariant_problems() == []


def test_common_cause_rank_and_refusals() -> None:
    # 4.2.1: the view ranks without listing; more War Parties than are there are refused
    state = CoinState.new("lod")
    put(state, "New York", "british_regular")
    put(state, "New York", "war_party", 3)
    battle = Command("british", "battle", ("New York",))
    view = special_view(state, "british", "common_cause", battle)
    assert view.count() == 3
    assert [m.used for m in view] == [
        (("New York", "war_party:underground", n),) for n in (1, 2, 3)
    ]
    too_many = SA("british", "common_cause", battle, ("New York",),
                  used=(("New York", "war_party:underground", 4),))  # fmt: skip
    refused = view.refusal(too_many)
    assert refused is not None and refused.rule == "4.2.1"
    assert view.random(LoggedRandom(1)) in view


def test_leaders_in_special_activities() -> None:
    # Leader capabilities: Clinton: "Skirmish removes 1 additional Militia in the space":
    # each choice takes one more Militia of a status still there
    state = skirmish_state()
    state.set_leader("Clinton", "Boston")
    assert check_view(state, "british", "skirmish", None) == 4
    removed = {(m.option, m.removed) for m in special_view(state, "british", "skirmish", None)}
    assert removed == {
        ("one", (("Boston", "continental", 1), ("Boston", "militia:active", 1))),
        ("one", (("Boston", "continental", 1), ("Boston", "militia:underground", 1))),
        ("one", (("Boston", "militia:active", 1), ("Boston", "militia:underground", 1))),
        ("two", (("Boston", "continental", 1), ("Boston", "militia:active", 1),
                 ("Boston", "militia:underground", 1))),
    }  # fmt: skip
    # Brant: "War Path removes 1 additional Militia in the space"
    war = CoinState.new("lod")
    put(war, "Virginia", "war_party", 2)
    put(war, "Virginia", "militia", 3, "active")
    war.set_leader("Brant", "Virginia")
    taken = {m.option: m.removed for m in special_view(war, "indians", "war_path", None)}
    assert taken == {"one": (("Virginia", "militia:active", 2),),
                     "two": (("Virginia", "militia:active", 3),)}  # fmt: skip
    # Howe: "Before executing a British Special Activity, first lower FNI by 1 level"
    howe = skirmish_state()
    howe.set_track("fni", 1)
    howe.move_marker("Unavailable", "Boston", "blockade")
    howe.set_leader("Howe", "New York City")
    move = next(iter(special_view(howe, "british", "skirmish", None)))
    # 1.9: each level lowered sends a Blockade to the West Indies, here Boston's
    assert move.howe_blockade == "Boston"
    result = apply_special(howe, move)
    assert result.state.track("fni") == 0 and result.log[0].startswith("Howe")
    assert result.state.markers("Boston", "blockade") == 0
    assert (
        result.state.markers(WEST_INDIES, "blockade") == howe.markers(WEST_INDIES, "blockade") + 1
    )
    for city in ("", "Norfolk"):
        refused = special_refusal(howe, replace(move, howe_blockade=city))
        assert refused is not None and refused.rule == "1.9"
    # FNI 0: Howe lowers nothing, and no City may be named
    plain = replace(move, howe_blockade="")
    assert apply_special(skirmish_state(), plain).state.track("fni") == 0
    refused = special_refusal(skirmish_state(), move)
    assert refused is not None and refused.rule == "1.9"
