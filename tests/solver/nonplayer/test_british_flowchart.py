"""The Non-player British Commands and Special Activities (8.4.1-8.4.5): golden
cases worked by hand from the paragraphs, each box's fall-through, and seeded turns
from the set-ups and from states reached by random legal play that are legal,
replay and repeat."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import WEST_INDIES, BattleChoice
from legalis.model.lod.command_base import Command
from legalis.model.lod.special import SpecialActivity
from legalis.solver.nonplayer.british import (
    BRITISH_BOXES,
    BritishOptions,
    battle_box,
    battle_wanted,
    british_boxes,
    british_command,
    first_box,
    garrison_box,
    march_box,
    march_wanted,
    muster_box,
    naval_pressure,
    skirmish,
)
from legalis.solver.nonplayer.flowchart import Turn, TurnContext, run_boxes
from legalis.solver.nonplayer.playout import random_commands
from legalis.solver.nonplayer.sequence import CommandScope
from legalis.solver.nonplayer.trace import Trace

LIMITED = CommandScope(limited=True, special_activity=False, free=True)
STROKE = CommandScope(limited=True, special_activity=True, free=True)  # 8.3.7, 2.3.8
CITIES = (
    "Boston",
    "Charles Town",
    "New York City",
    "Norfolk",
    "Philadelphia",
    "Quebec City",
    "Savannah",
)


def put(state: CoinState, space: str, piece: str, n: int, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def board(resources: int = 10) -> CoinState:
    state = CoinState.new("lod")
    state.set_track("british_resources", resources)
    return state


def loyal_cities(state: CoinState, *skip: str, tories: int = 3) -> None:
    """Every City but ``skip`` held by Tories at Active Support: British Controlled,
    nothing for the British to add there."""
    for city in CITIES:
        if city not in skip:
            put(state, city, "tory", tories)
            state.set_support(city, "active_support")


def context(state: CoinState, seed: int = 0, scope: CommandScope | None = None) -> TurnContext:
    if scope is None:
        return TurnContext(state, "british", LoggedRandom(seed))
    return TurnContext(state, "british", LoggedRandom(seed), scope=scope)


def moves(done: TurnContext) -> list[Command | SpecialActivity]:
    return [step.move for step in done.steps]


# ---------------------------------------------------------------------- which box first


def test_garrison_first_with_ten_regulars_and_a_rebellion_city() -> None:
    # 8.4.1: 10+ Regulars in Cities and Provinces and a Rebellion Controlled City
    # without a Patriot Fort; no D6 is rolled then
    state = board()
    put(state, "Virginia", "british_regular", 9)
    put(state, "West Indies", "british_regular", 1)  # not a City or Province
    put(state, "Boston", "militia", 1)
    done = context(state)
    assert first_box(done) != "garrison"
    state.move_pieces("West Indies", "Virginia", "british_regular", 1)
    done = context(state)
    assert first_box(done) == "garrison" and done.rng.log == []
    put(state, "Boston", "patriot_fort", 1)  # a Patriot Fort there: no longer
    assert first_box(context(state)) != "garrison"


def test_muster_when_the_d6_is_below_the_available_regulars() -> None:
    # 8.4.2: D6 < Available Regulars (25 on an empty board: always)
    done = context(board())
    assert first_box(done) == "muster"
    assert done.trace.steps[0].rule == "8.4.2" and len(done.trace.steps[0].dice) == 1
    # none Available: never
    state = board()
    state.move_pieces("Available", "Unavailable", "british_regular", 25)
    assert first_box(context(state)) == "march"


def test_battle_and_march_sentences() -> None:
    # 8.4.4: two Rebellion pieces outnumbered by Regulars + Leader: Battle; 8.4.3:
    # March when no space has two Active Rebellion pieces outnumbered by Regulars +
    # Leader against Rebellion pieces + Leaders
    state = board()
    state.move_pieces("Available", "Unavailable", "british_regular", 22)
    put(state, "Virginia", "british_regular", 3)
    put(state, "Virginia", "militia", 2, "underground")
    assert battle_wanted(state) and march_wanted(state)  # Underground only: both hold
    assert first_box(context(state)) == "battle"
    assert first_box(context(state), BritishOptions(battle_before_march=False)) == "march"
    state.flip("Virginia", "militia", 2, "underground", "active")
    assert battle_wanted(state) and not march_wanted(state)
    state.set_leader("Washington", "Virginia")  # 3 Regulars against 2 pieces + 1 Leader
    assert march_wanted(state)
    state.set_leader("Gage", "Virginia")
    assert not march_wanted(state)
    assert first_box(context(state)) == "battle"


def test_march_when_no_battle() -> None:
    # 8.4.3/8.4.4: one Rebellion piece does not call for Battle
    state = board()
    state.move_pieces("Available", "Unavailable", "british_regular", 20)
    put(state, "Virginia", "british_regular", 5)
    put(state, "Virginia", "continental", 1)
    assert not battle_wanted(state)
    assert first_box(context(state)) == "march"


# ---------------------------------------------------------------------- 8.4.1 Garrison


def garrison_board() -> CoinState:
    """Boston (2 Continentals) and Philadelphia (1 Underground Militia) are Rebellion
    Cities; Virginia (7 Regulars) has 5 to spare, New York (3 Regulars, 3 Tories at
    Active Support) 3; the other Cities are loyal."""
    state = board(5)
    loyal_cities(state, "Boston", "Philadelphia")
    put(state, "Boston", "continental", 2)
    put(state, "Philadelphia", "militia", 1, "underground")
    put(state, "Virginia", "british_regular", 7)
    put(state, "New York", "british_regular", 3)
    put(state, "New York", "tory", 3)
    state.set_support("New York", "active_support")
    state.set_support("Massachusetts", "active_opposition")
    state.set_support("Connecticut-Rhode Island", "passive_opposition")
    return state


def test_garrison_golden() -> None:
    # 8.4.1: Naval Pressure first (FNI 0: +1D3 Resources). Just enough Regulars for
    # Control, most Rebellion pieces first: Boston needs 3, then Philadelphia 2; then
    # three cubes where Underground Militia are: Philadelphia 1 more. Displace the
    # most Rebellion pieces: Boston's 2 Continentals, to Massachusetts (most
    # Opposition). With garrison_origins="most_spare": Boston's 3 from Virginia (most
    # to spare: 7 less the last Regular (Neutral) and two more Royalist than
    # Rebellion pieces = 5), Philadelphia's 2 from New York (now most, 3 to spare:
    # Active Support, 6 Royalist pieces less 2), its third from Virginia (2 against 1)
    state = garrison_board()
    done = context(state)
    assert first_box(done) == "garrison"
    run_boxes(done, british_boxes(BritishOptions(garrison_origins="most_spare")), "garrison")
    naval, garrison = moves(done)
    assert isinstance(naval, SpecialActivity) and naval.name == "naval_pressure"
    assert naval.option == "resources" and naval.command == garrison
    assert isinstance(garrison, Command) and garrison.name == "garrison"
    assert garrison.moves == (
        ("New York", "Philadelphia", "british_regular", 2),
        ("Virginia", "Boston", "british_regular", 3),
        ("Virginia", "Philadelphia", "british_regular", 1),
    )
    assert garrison.displace == ("Boston", "Massachusetts")
    after = done.state
    assert after.pieces("Massachusetts", "continental") == 2
    assert after.pieces("Philadelphia", "militia", "active") == 1  # 3 cubes Activate one
    assert after.track("british_resources") == 5 - 2 + done.steps[0].dice[0]


def test_garrison_origins_at_random_by_default() -> None:
    # 8.4.1 with 8.2 (the Playbook's Garrison example): the same Regulars reach the
    # same Cities, each origin by the Random Spaces table; over seeds both Virginia
    # and New York send to Philadelphia first
    firsts = set()
    for seed in range(20):
        done = context(garrison_board(), seed=seed)
        run_boxes(done, BRITISH_BOXES, "garrison")
        garrison = moves(done)[1]
        assert isinstance(garrison, Command)
        received: Counter[str] = Counter()
        for _, destination, _, n in garrison.moves:
            received[destination] += n
        assert received == {"Boston": 3, "Philadelphia": 3}
        firsts.update(o for o, d, _, _ in garrison.moves if d == "Philadelphia")
    assert firsts == {"Virginia", "New York"}


def test_garrison_limited_names_one_city() -> None:
    # 8.1: a free Limited Garrison has one destination and no Special Activity
    done = context(garrison_board(), scope=LIMITED)
    assert garrison_box(done) is None
    (garrison,) = moves(done)
    assert isinstance(garrison, Command) and garrison.spaces == ("Boston",)
    assert garrison.moves == (("Virginia", "Boston", "british_regular", 3),)
    assert garrison.displace == ("Boston", "Massachusetts")


def test_garrison_keeps_the_origin_limits() -> None:
    # 8.4.1: two more Royalist than Rebellion pieces stay where the British Control
    # the origin; the last Regular leaves only Population 0 or Active Support
    state = board(5)
    loyal_cities(state, "Boston")
    put(state, "Boston", "militia", 1, "underground")
    put(state, "Virginia", "british_regular", 3)  # Neutral: 2 may go, Control: 1
    put(state, "Florida", "british_regular", 1)  # Population 0: the last may go ...
    put(state, "Florida", "war_party", 2, "underground")  # ... 3 Royalist, 1 to spare
    done = context(state)
    assert garrison_box(done) is None
    garrison = moves(done)[-1]
    assert isinstance(garrison, Command)
    assert garrison.moves == (
        ("Florida", "Boston", "british_regular", 1),
        ("Virginia", "Boston", "british_regular", 1),
    )


def test_garrison_without_regulars_moving_musters() -> None:
    # 8.4.1: no Regulars moved: abort, Muster instead (nothing carried out first)
    state = board(5)
    loyal_cities(state, "Boston")
    put(state, "Boston", "militia", 1)
    put(state, "Virginia", "british_regular", 1)
    done = context(state)
    assert garrison_box(done) == "muster" and done.steps == []
    run_boxes(done, BRITISH_BOXES, "garrison")
    assert isinstance(done.steps[0].move, Command) and done.steps[0].move.name == "muster"


def test_garrison_unaffordable_musters() -> None:
    # 8.1 Paying Resource Costs: Garrison costs 2 (3.2.2)
    state = garrison_board()
    state.set_track("british_resources", 1)
    assert garrison_box(context(state)) == "muster"


def test_garrison_skirmish_city_takes_no_regulars() -> None:
    # 8.4.1: Naval Pressure impossible (FNI 1 with Howe) so Skirmish, in New York
    # City (the West Indies first: none; exactly one Regular there); no Regulars go
    # where the Skirmish was
    state = garrison_board()
    state.set_flag("toa_played")
    state.set_track("fni", 1)
    state.move_marker("Unavailable", "West Indies", "blockade")
    state.set_leader("Howe", "Virginia")
    state.move_pieces("New York City", "Available", "tory", 3)
    put(state, "New York City", "british_regular", 1)
    put(state, "New York City", "militia", 1, "active")
    put(state, "New York City", "tory", 1)
    done = context(state)
    assert garrison_box(done) is None
    special, garrison = moves(done)
    assert isinstance(special, SpecialActivity) and special.name == "skirmish"
    assert special.spaces == ("New York City",)
    assert special.removed == (("New York City", "militia:active", 1),)
    assert isinstance(garrison, Command)
    assert all(to != "New York City" for _, to, _, _ in garrison.moves)
    assert done.state.track("fni") == 0  # Howe lowers FNI before the Special Activity


# ---------------------------------------------------------------------- Naval Pressure


def blockaded_board(leader: str) -> CoinState:
    state = board()
    state.set_flag("toa_played")
    state.set_track("fni", 2)
    for city in ("Boston", "Charles Town"):
        state.move_marker("Unavailable", city, "blockade")
    state.set_leader(leader, "New York City")
    put(state, "Charles Town", "militia", 2)
    put(state, "Boston", "militia", 1)
    put(state, "Boston", "british_regular", 1)
    return state


def test_naval_pressure_removes_a_blockade_with_gage_or_clinton() -> None:
    # 8.4.1 NAVAL PRESSURE: FNI > 0 and Gage or Clinton: one Blockade goes, from a
    # City selected for Battle first, then the City with most Rebellion pieces
    # without a Patriot Fort
    for leader in ("Gage", "Clinton"):
        state = blockaded_board(leader)
        move = naval_pressure(state, None, LoggedRandom(0), Trace())
        assert move is not None and (move.option, move.spaces) == ("fni", ("Charles Town",))
        move = naval_pressure(state, None, LoggedRandom(0), Trace(), battle_spaces=["Boston"])
        assert move is not None and move.spaces == ("Boston",)
    # a Patriot Fort in Charles Town, no Rebellion piece in Boston: the City with the
    # most Support (level times Population, the Blockade aside)
    state = blockaded_board("Gage")
    put(state, "Charles Town", "patriot_fort", 1)
    state.move_pieces("Boston", "Available", "militia", 1)
    state.set_support("Charles Town", "passive_support")
    state.set_support("Boston", "active_support")
    move = naval_pressure(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == ("Boston",)


def test_naval_pressure_with_howe_is_not_possible() -> None:
    # 8.4.1 NAVAL PRESSURE: FNI > 0 and Howe: neither bullet; FNI 0: +1D3 Resources
    assert naval_pressure(blockaded_board("Howe"), None, LoggedRandom(0), Trace()) is None
    move = naval_pressure(board(), None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "resources"


# ---------------------------------------------------------------------- Skirmish


def test_skirmish_west_indies_first() -> None:
    # 8.4.1 SKIRMISH: first in the West Indies
    state = board()
    state.set_flag("toa_played")
    put(state, WEST_INDIES, "british_regular", 3)
    put(state, WEST_INDIES, "french_regular", 1)
    put(state, "Virginia", "british_regular", 1)
    put(state, "Virginia", "continental", 2)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == (WEST_INDIES,)
    assert (move.option, move.removed) == ("one", ((WEST_INDIES, "french_regular", 1),))


def test_skirmish_exactly_one_regular_then_most_cubes() -> None:
    # 8.4.1 SKIRMISH: where there is exactly one British Regular; two cubes at the
    # cost of the Regular, the type least in the space first
    state = board()
    put(state, "Virginia", "british_regular", 3)
    put(state, "Virginia", "continental", 3)
    put(state, "Norfolk", "british_regular", 1)
    put(state, "Norfolk", "continental", 3)
    put(state, "Norfolk", "french_regular", 2)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == ("Norfolk",) and move.option == "two"
    assert move.removed == (("Norfolk", "french_regular", 2),)
    alternate = skirmish(
        state, None, LoggedRandom(0), Trace(), BritishOptions(skirmish_cubes="alternate")
    )
    assert alternate is not None
    assert alternate.removed == (("Norfolk", "continental", 1), ("Norfolk", "french_regular", 1))


def test_skirmish_most_cubes_then_one_piece() -> None:
    # 8.4.1 SKIRMISH: as many cubes as possible (Virginia: 2 beats Maryland's 1);
    # with no cube anywhere, one piece where it is the only Rebellion piece, a City
    # first
    state = board()
    put(state, "Virginia", "british_regular", 2)
    put(state, "Virginia", "continental", 2)
    put(state, "Maryland-Delaware", "british_regular", 2)
    put(state, "Maryland-Delaware", "continental", 1)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == ("Virginia",)
    assert (move.option, move.removed) == ("two", (("Virginia", "continental", 2),))
    state = board()
    for space in ("Virginia", "Norfolk", "Philadelphia"):
        put(state, space, "british_regular", 2)
        put(state, space, "militia", 1, "active")
    put(state, "Philadelphia", "militia", 1, "underground")  # two Rebellion pieces
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == ("Norfolk",)
    assert (move.option, move.removed) == ("one", (("Norfolk", "militia:active", 1),))


def test_skirmish_a_fort_and_clinton() -> None:
    # 8.4.1 SKIRMISH: no cube or Active Militia: the Fort (a Regular goes too);
    # Clinton there removes one more Militia, Underground first (8.1.2)
    state = board()
    put(state, "Virginia", "british_regular", 2)
    put(state, "Virginia", "patriot_fort", 1)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None
    assert (move.option, move.removed) == ("fort", (("Virginia", "patriot_fort", 1),))
    put(state, "Virginia", "militia", 1, "underground")
    put(state, "Virginia", "continental", 1)
    state.set_leader("Clinton", "Virginia")
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "one"
    assert move.removed == (("Virginia", "continental", 1), ("Virginia", "militia:underground", 1))


# ---------------------------------------------------------------------- 8.4.2 Muster

COLONIES = (
    "New Hampshire",
    "Massachusetts",
    "Connecticut-Rhode Island",
    "New York",
    "New Jersey",
    "Pennsylvania",
    "Maryland-Delaware",
    "Virginia",
    "North Carolina",
    "South Carolina",
    "Georgia",
)


def supporting(state: CoinState, level: str, *skip: str) -> None:
    for space in (*CITIES, *COLONIES):
        if space not in skip:
            state.set_support(space, level)


def muster_board() -> CoinState:
    """Active Support everywhere but Virginia (1 Militia) and Norfolk; a Tory in
    North Carolina."""
    state = board()
    supporting(state, "active_support", "Virginia", "Norfolk")
    put(state, "Virginia", "militia", 1, "active")
    put(state, "North Carolina", "tory", 1)
    return state


def test_muster_golden() -> None:
    # 8.4.2: six Regulars where Neutral and adding British Control, highest
    # Population: Virginia (not Norfolk). Tories: where Regulars are the only
    # British units (Virginia), then to change Control, most Population first
    # (Maryland-Delaware, then Norfolk; North Carolina's Tory already Controls), then
    # a Colony with under five cubes and no Fort (North Carolina): four spaces.
    # Support exceeds Opposition: a Fort where five cubes are (Virginia), replacing
    # two Regulars and a Tory (8.1.2). No Skirmish outside Muster spaces: Naval
    # Pressure
    done = context(muster_board())
    assert muster_box(done) is None
    muster, naval = moves(done)
    assert isinstance(muster, Command)
    assert muster.spaces == ("Maryland-Delaware", "Norfolk", "North Carolina", "Virginia")
    assert muster.placed == (
        ("Maryland-Delaware", "tory", 2),
        ("Norfolk", "tory", 2),
        ("North Carolina", "tory", 2),
        ("Virginia", "british_fort", 1),
        ("Virginia", "british_regular", 6),
        ("Virginia", "tory", 2),
    )
    assert muster.removed == (("Virginia", "british_regular", 2), ("Virginia", "tory", 1))
    assert isinstance(naval, SpecialActivity) and naval.name == "naval_pressure"
    assert naval.command == muster
    assert done.state.track("british_resources") == 10 - 4 + done.steps[1].dice[0]


def test_muster_stops_at_the_resources() -> None:
    # 8.1: each space is paid as it is selected: two Resources, two spaces
    state = muster_board()
    state.set_track("british_resources", 2)
    done = context(state)
    assert muster_box(done) is None
    muster = moves(done)[0]
    assert isinstance(muster, Command) and muster.spaces == ("Maryland-Delaware", "Virginia")


def test_muster_limited_acts_in_one_space() -> None:
    # 8.1: a free Limited Muster: one space, no Special Activity
    done = context(muster_board(), scope=LIMITED)
    assert muster_box(done) is None
    (muster,) = moves(done)
    assert isinstance(muster, Command) and muster.spaces == ("Virginia",)
    assert ("Virginia", "british_fort", 1) in muster.placed


def loyalty_board(resources: int) -> CoinState:
    """No British Fort Available; only New York City is not at Active Opposition, with
    two Tories and a Propaganda marker."""
    state = board(resources)
    state.move_pieces("Available", "Unavailable", "british_fort", 6)
    supporting(state, "active_opposition", "New York City")
    put(state, "New York City", "tory", 2)
    state.add_marker("New York City", "propaganda")
    return state


def test_muster_rewards_loyalty_without_forts() -> None:
    # 8.4.2: no British Fort Available: Reward Loyalty (no 1D3), in a space already
    # selected: New York City (Regulars go there: Neutral, Tories the only British
    # units); the marker first, then two levels with the 3 Resources left
    done = context(loyalty_board(4))
    assert muster_box(done) is None
    muster = moves(done)[0]
    assert isinstance(muster, Command) and muster.spaces == ("New York City",)
    assert muster.placed == (
        ("New York City", "british_regular", 6),
        ("New York City", "support_shift", 2),
    )
    assert muster.removed == (("New York City", "propaganda", 1),)
    assert done.state.support("New York City") == "active_support"
    assert not [step for step in done.trace.steps if step.what.startswith("Reward Loyalty if")]
    # 8.1.1: as far as the Resources go: one level
    done = context(loyalty_board(3))
    muster_box(done)
    muster = moves(done)[0]
    assert isinstance(muster, Command) and ("New York City", "support_shift", 1) in muster.placed


def test_muster_rewards_loyalty_by_8_4_5_in_one_more_space() -> None:
    # 8.4.2: nothing to place; Reward Loyalty in one additional Muster space, by
    # 8.4.5 the fewest Raid and Propaganda markers first: Norfolk, not Virginia
    state = board(5)
    for piece in ("british_regular", "tory", "british_fort"):
        state.move_pieces("Available", "Unavailable", piece, state.available(piece))
    for space in ("Virginia", "Norfolk"):
        state.move_pieces("Unavailable", space, "british_regular", 1)
        state.move_pieces("Unavailable", space, "tory", 1)
    state.add_marker("Virginia", "raid")
    done = context(state)
    assert muster_box(done) is None
    muster = moves(done)[0]
    assert isinstance(muster, Command) and muster.spaces == ("Norfolk",)
    assert muster.placed == (("Norfolk", "support_shift", 2),)


def test_muster_if_none_marches_and_then_passes() -> None:
    # 8.4.2 IF NONE: March; 8.4.3 IF NONE: Muster, which was tried: Pass
    state = board(5)
    for piece in ("british_regular", "tory", "british_fort"):
        state.move_pieces("Available", "Unavailable", piece, state.available(piece))
    state.move_pieces("Unavailable", "Virginia", "british_regular", 3)
    done = context(state)
    assert muster_box(done) == "march"
    run_boxes(done, BRITISH_BOXES, "muster")
    assert isinstance(done.steps[0].move, Command) and done.steps[0].move.name == "march"
    state.move_pieces("Virginia", "Unavailable", "british_regular", 3)
    done = context(state)
    british_command(done)
    assert done.steps == [] and done.passed is not None


# ---------------------------------------------------------------------- 8.4.3 March


def loyal_colonies(state: CoinState, *skip: str) -> None:
    """Every Colony but ``skip`` held by a Tory at Active Support."""
    for colony in COLONIES:
        if colony not in skip:
            put(state, colony, "tory", 1)
            state.set_support(colony, "active_support")


def test_march_adds_control_with_common_cause() -> None:
    # 8.4.3: British Control of a Colony with Rebellion cubes (Virginia: 2 Militia,
    # 1 Continental). North Carolina's group: 2 Regulars and, by Common Cause into an
    # adjacent Province, 2 Active War Parties making up for the missing Tories (its
    # last War Party, Underground, stays; its Fort keeps Control). Four Royalist
    # pieces against three: Control, stop. Common Cause used: no other Special Activity
    state = board(5)
    loyal_cities(state, "Norfolk", tories=1)
    put(state, "Norfolk", "british_regular", 1)  # its last Regular and Tory stay
    put(state, "Norfolk", "tory", 1)
    put(state, "Virginia", "militia", 2, "active")
    put(state, "Virginia", "continental", 1)
    put(state, "North Carolina", "british_regular", 2)
    put(state, "North Carolina", "british_fort", 1)
    put(state, "North Carolina", "war_party", 2, "active")
    put(state, "North Carolina", "war_party", 1, "underground")
    state.set_support("North Carolina", "active_support")
    done = context(state)
    assert march_box(done) is None
    cause, march = moves(done)
    assert isinstance(march, Command) and march.spaces == ("Virginia",)
    # 4.2.1: the War Parties move with the Regulars as Tories, into an adjacent
    # Province, and the March names the destination they join in
    assert march.moves == (
        ("North Carolina", "Virginia", "british_regular", 2),
        ("North Carolina", "Virginia", "war_party:active", 2),
    )
    assert march.allied == ("Virginia",)
    assert isinstance(cause, SpecialActivity) and cause.name == "common_cause"
    assert cause.used == (("North Carolina", "war_party:active", 2),)
    assert cause.command == march
    after = done.state
    assert after.pieces("Virginia", "war_party", "active") == 2
    assert after.pieces("North Carolina", "war_party", "underground") == 1
    assert after.control("Virginia") == "british"
    # without a Special Activity (a free Limited March) no War Party joins: two
    # Regulars cannot Control Virginia, so they take an empty Colony instead
    done = context(state, scope=LIMITED)
    assert march_box(done) is None
    (march,) = moves(done)
    assert isinstance(march, Command) and march.spaces != ("Virginia",)
    assert len(march.spaces) == 1


def two_groups() -> CoinState:
    """Virginia (1 Continental) and Maryland-Delaware (1 Regular) open; North
    Carolina's group is 5 Regulars, Pennsylvania's 2 Regulars and 2 Tories."""
    state = board(5)
    loyal_cities(state, tories=1)
    loyal_colonies(state, "Virginia", "Maryland-Delaware", "North Carolina", "Pennsylvania")
    put(state, "Virginia", "continental", 1)
    put(state, "Maryland-Delaware", "british_regular", 1)
    put(state, "North Carolina", "british_regular", 6)
    put(state, "Pennsylvania", "british_regular", 2)
    put(state, "Pennsylvania", "tory", 3)
    for space in ("North Carolina", "Pennsylvania"):
        state.set_support(space, "active_support")
    return state


def test_march_largest_group_then_tories_to_selected_destinations_first() -> None:
    # 8.4.3: Control of Virginia by the largest group (North Carolina: 6 Regulars at
    # Active Support, one kept for Control of 6 pieces: 5); then Tories where
    # Regulars are the only British units, destinations already selected first:
    # Virginia before Maryland-Delaware, by Pennsylvania's group (its last Tory
    # stays); then no group with Tories is left. No Common Cause: Skirmish
    done = context(two_groups())
    assert march_box(done) is None
    march, skirmished = moves(done)
    assert isinstance(march, Command) and march.spaces == ("Virginia",)
    assert march.moves == (
        ("North Carolina", "Virginia", "british_regular", 5),
        ("Pennsylvania", "Virginia", "british_regular", 2),
        ("Pennsylvania", "Virginia", "tory", 2),
    )
    assert isinstance(skirmished, SpecialActivity) and skirmished.name == "skirmish"
    assert skirmished.removed == (("Virginia", "continental", 1),)


def test_march_limited_keeps_to_one_destination() -> None:
    # 8.1: a free Limited March: one destination, no Special Activity
    done = context(two_groups(), scope=LIMITED)
    assert march_box(done) is None
    (march,) = moves(done)
    assert isinstance(march, Command) and march.spaces == ("Virginia",) and march.limited


def test_march_keeps_what_the_origin_needs() -> None:
    # 8.4.3: Pennsylvania (Neutral, British Control, 1 Militia) keeps its last Regular,
    # its last Tory and Control: 3 Regulars and 2 Tories give 2 Regulars and 1 Tory,
    # enough for Philadelphia against 2 Continentals
    state = board(5)
    loyal_cities(state, "Philadelphia", tories=1)
    loyal_colonies(state, "Pennsylvania")
    put(state, "Philadelphia", "continental", 2)
    put(state, "Pennsylvania", "british_regular", 3)
    put(state, "Pennsylvania", "tory", 2)
    put(state, "Pennsylvania", "militia", 1, "underground")
    done = context(state)
    assert march_box(done) is None
    march = moves(done)[0]
    assert isinstance(march, Command) and march.spaces == ("Philadelphia",)
    assert march.moves == (
        ("Pennsylvania", "Philadelphia", "british_regular", 2),
        ("Pennsylvania", "Philadelphia", "tory", 1),
    )


def test_march_in_place_support_first() -> None:
    # 8.4.3: March in place to Activate Underground Militia where three British cubes
    # are, Support first: New Jersey (Passive Support) before Georgia (Neutral); one
    # Resource: one destination
    state = board(1)
    loyal_cities(state, tories=1)
    loyal_colonies(state, "New Jersey", "Georgia")
    for space in ("New Jersey", "Georgia"):
        put(state, space, "tory", 3)
        put(state, space, "militia", 1, "underground")
    state.set_support("New Jersey", "passive_support")
    done = context(state)
    assert march_box(done) is None
    march = moves(done)[0]
    assert isinstance(march, Command) and (march.spaces, march.moves) == (("New Jersey",), ())
    assert done.state.pieces("New Jersey", "militia", "active") == 1


def test_march_if_none_musters() -> None:
    # 8.4.3 IF NONE: Muster
    done = context(board())
    assert march_box(done) == "muster"
    run_boxes(done, BRITISH_BOXES, "march")
    assert isinstance(done.steps[0].move, Command) and done.steps[0].move.name == "muster"


# ---------------------------------------------------------------------- 8.4.4 Battle


def battle_board(resources: int) -> CoinState:
    """Norfolk: 6 Regulars, 2 Tories against a Continental and a Patriot Fort;
    Virginia: 4 Regulars against 2 Continentals; Pennsylvania: 2 Regulars against 3
    Continentals; Georgia: a lone Regular and an Active Militia."""
    state = board(resources)
    put(state, "Norfolk", "british_regular", 6)
    put(state, "Norfolk", "tory", 2)
    put(state, "Norfolk", "continental", 1)
    put(state, "Norfolk", "patriot_fort", 1)
    put(state, "Virginia", "british_regular", 4)
    put(state, "Virginia", "continental", 2)
    put(state, "Pennsylvania", "british_regular", 2)
    put(state, "Pennsylvania", "continental", 3)
    put(state, "Georgia", "british_regular", 1)
    put(state, "Georgia", "militia", 1, "active")
    return state


def test_battle_golden() -> None:
    # 8.4.4: Norfolk (8 + 1 Regulars' modifier - 1 Fort = 8 against 1 + 1 Fort + 1
    # Fort = 3) and Virginia (4 + 1 = 5 against 2) qualify, Pennsylvania (2 + 1 = 3
    # against 3) does not. No War Party for Common Cause: Skirmish outside the
    # Battle spaces, first where exactly one Regular is (Georgia), before the Battles
    done = context(battle_board(5))
    assert battle_box(done) is None
    skirmished, battle = moves(done)
    assert isinstance(battle, Command) and battle.spaces == ("Norfolk", "Virginia")
    assert isinstance(skirmished, SpecialActivity) and skirmished.spaces == ("Georgia",)
    assert skirmished.removed == (("Georgia", "militia:active", 1),)
    assert done.state.track("british_resources") == 3
    # one Resource: the space with most British pieces
    done = context(battle_board(1))
    assert battle_box(done) is None
    assert moves(done)[1] == Command("british", "battle", ("Norfolk",))


def cause_board() -> CoinState:
    """Virginia: 3 Regulars, an Active and 2 Underground War Parties against 5
    Continentals and an Active Militia."""
    state = board(5)
    put(state, "Virginia", "british_regular", 3)
    put(state, "Virginia", "war_party", 1, "active")
    put(state, "Virginia", "war_party", 2, "underground")
    put(state, "Virginia", "continental", 5)
    put(state, "Virginia", "militia", 1, "active")
    return state


def test_battle_common_cause_raises_the_force_level() -> None:
    # 8.4.4 with COMMON CAUSE: 3 Regulars and no Tory: War Parties make up the
    # difference as Tories, but not the last Underground one: the Active one and
    # one Underground, Force Level 3 + 2 (the Active one no longer counts by halves)
    # + 2 modifiers (Regulars, an Underground War Party left) = 7 against 5; without
    # them 5 against 5 does not qualify
    done = context(cause_board())
    assert battle_box(done) is None
    cause, battle = moves(done)
    assert isinstance(cause, SpecialActivity) and cause.name == "common_cause"
    assert cause.used == (
        ("Virginia", "war_party:active", 1),
        ("Virginia", "war_party:underground", 1),
    )
    assert isinstance(battle, Command) and battle.spaces == ("Virginia",)
    assert cause.command == battle
    # 4.2.1: the Battle counts the two War Parties as Tories: 3 Regulars + 2
    assert done.steps[-1].decisions == (BattleChoice("Virginia", "british", common_cause=2),)
    assert "3.6.3: Force Levels royalist 5, rebellion 5" in done.steps[-1].log
    # 8.1: no Special Activity with a free Limited Command: no Battle; IF NONE: March
    assert battle_box(context(cause_board(), scope=LIMITED)) == "march"


def test_battle_naval_pressure_lifts_the_battle_blockade_first() -> None:
    # 8.4.4: no Common Cause, no Skirmish outside the Battle: Naval Pressure, its
    # Blockade taken from a City selected for Battle first (Norfolk, not Charles
    # Town with more Rebellion pieces), before the Battle
    state = battle_board(5)
    state.move_pieces("Georgia", "Available", "militia", 1, "active")
    state.move_pieces("Pennsylvania", "Available", "british_regular", 2)
    state.set_flag("toa_played")
    state.set_track("fni", 2)
    state.set_leader("Gage", "New York City")
    put(state, "New York City", "tory", 1)
    for city in ("Norfolk", "Charles Town"):
        state.move_marker("Unavailable", city, "blockade")
    put(state, "Charles Town", "militia", 2)
    done = context(state)
    assert battle_box(done) is None
    naval, battle = moves(done)
    assert isinstance(naval, SpecialActivity) and naval.spaces == ("Norfolk",)
    assert isinstance(battle, Command) and "Norfolk" in battle.spaces
    assert done.steps[0].log[-1].endswith("Squadron")


def test_battle_if_none_marches() -> None:
    # 8.4.4 IF NONE: no space qualifies: March
    state = battle_board(5)
    for space in ("Norfolk", "Virginia"):
        regulars = state.pieces(space, "british_regular")
        state.move_pieces(space, "Available", "british_regular", regulars)
    done = context(state)
    assert battle_box(done) == "march"
    run_boxes(done, BRITISH_BOXES, "battle")
    assert isinstance(done.steps[0].move, Command) and done.steps[0].move.name == "march"


# ---------------------------------------------------------------------- seeded turns

SCENARIOS = ("1775", "1776", "1778")
FULL = CommandScope(limited=False, special_activity=True, free=False)
SEEDS = 12


def starts(scenario: str) -> list[tuple[int, CoinState]]:
    """The set-up and states reached from it by random legal play, with some
    British Resources."""
    found = [(0, load_scenario("lod", scenario))]
    for seed in range(1, SEEDS):
        rng = random.Random(seed)
        state = random_commands(load_scenario("lod", scenario), rng, 8)
        state.set_track("british_resources", rng.randint(1, 12))
        found.append((seed, state))
    return found


def turn_of(start: CoinState, seed: int, scope: CommandScope, first: str | None) -> TurnContext:
    done = context(start, seed, scope)
    if first is None:
        british_command(done)
    else:
        run_boxes(done, BRITISH_BOXES, first)
    return done


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_seeded_turns_are_legal_replay_and_repeat(
    scenario: str, sound_turn: Callable[..., Turn]
) -> None:
    """From the set-up and from states reached by random legal play, the flowchart
    and each box (full, and as a free Limited Command) make only legal moves (the
    context checks each), replay to the same state, keep the state sound, and the
    same seed gives the same trace."""
    for seed, start in starts(scenario):
        for scope in (FULL, LIMITED, STROKE):
            for first in (None, *BRITISH_BOXES):
                turn = sound_turn(start, turn_of, start, seed, scope, first)
                if not scope.special_activity:
                    assert not any(isinstance(s.move, SpecialActivity) for s in turn.steps)


def test_battle_without_any_special_activity() -> None:
    # 8.4.4: no Common Cause, no Skirmish outside the Battle spaces, and no Naval
    # Pressure (FNI above 0 with Howe): no Special Activity, the Battle alone
    state = battle_board(5)
    state.move_pieces("Georgia", "Available", "militia", 1, "active")
    state.move_pieces("Pennsylvania", "Available", "british_regular", 2)
    state.set_flag("toa_played")
    state.set_track("fni", 1)
    state.move_marker("Unavailable", "West Indies", "blockade")
    state.set_leader("Howe", "Norfolk")
    done = context(state)
    assert battle_box(done) is None
    (battle,) = moves(done)
    assert isinstance(battle, Command) and battle.spaces == ("Norfolk", "Virginia")
    assert any(step.what == "no Skirmish or Naval Pressure possible" for step in done.trace.steps)


def test_naval_pressure_rebellion_city_needs_rebellion_pieces_by_default() -> None:
    # 8.4.1 NAVAL PRESSURE, "the City with the most Rebellion pieces without a Patriot
    # Fort" (rebellion_city_needs_pieces): Blockades in Boston and Charles Town, no
    # Rebellion piece in either, Charles Town at Active Support. By default no City
    # meets that priority and the one with most Support loses its Blockade, every
    # seed; with False both meet it with 0 pieces, tied, and 8.2 picks either
    state = blockaded_board("Gage")
    for city in ("Boston", "Charles Town"):
        state.move_pieces(city, "Available", "militia", state.pieces(city, "militia"))
    state.set_support("Charles Town", "active_support")
    loose = BritishOptions(rebellion_city_needs_pieces=False)
    by_default, read_loosely = set(), set()
    for seed in range(12):
        move = naval_pressure(state, None, LoggedRandom(seed), Trace())
        assert move is not None
        by_default.add(move.spaces)
        move = naval_pressure(state, None, LoggedRandom(seed), Trace(), options=loose)
        assert move is not None
        read_loosely.add(move.spaces)
    assert by_default == {("Charles Town",)}
    assert read_loosely == {("Boston",), ("Charles Town",)}
