"""The Non-player French Commands and Special Activities (8.6.1-8.6.6): golden
cases worked by hand from the paragraphs, each box's fall-through, and seeded turns
from the set-ups and from states reached by random legal play that are legal,
replay and repeat."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import WEST_INDIES, BlockadeShift
from legalis.model.lod.command_base import Command
from legalis.model.lod.special import SpecialActivity
from legalis.solver.nonplayer.flowchart import Turn, TurnContext, TurnStep, replay_turn, run_boxes
from legalis.solver.nonplayer.french import (
    FRENCH_BOXES,
    FrenchOptions,
    agent_mobilization_box,
    battle_box,
    battle_wanted,
    first_box,
    french_boxes,
    french_command,
    hortalez_box,
    march_box,
    muster_box,
    naval_pressure,
    preparer_after_treaty,
    preparer_before_treaty,
    skirmish,
)
from legalis.solver.nonplayer.playout import random_commands
from legalis.solver.nonplayer.sequence import CommandScope
from legalis.solver.nonplayer.trace import Trace

FULL = CommandScope(limited=False, special_activity=True, free=False)
LIMITED = CommandScope(limited=True, special_activity=False, free=True)
STROKE = CommandScope(limited=True, special_activity=True, free=True)  # 8.3.7, 2.3.8


def put(state: CoinState, space: str, piece: str, n: int, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def board(resources: int = 5, *, toa: bool = True, patriots: int = 3) -> CoinState:
    """An empty board with the French and Patriot Resources given; every Blockade
    parked on Quebec City (nothing Unavailable, no Squadron in the West Indies) so
    that no Special Activity happens unless a case sets one up."""
    state = CoinState.new("lod")
    state.set_track("french_resources", resources)
    state.set_track("patriots_resources", patriots)
    state.move_marker("Unavailable", "Quebec City", "blockade", 3)
    if toa:
        state.set_flag("toa_played")
    return state


def context(
    state: CoinState, seed: int = 0, scope: CommandScope = FULL
) -> TurnContext:  # fmt: skip
    return TurnContext(state, "french", LoggedRandom(seed), scope=scope)


def moves(done: TurnContext) -> list[Command | SpecialActivity]:
    return [step.move for step in done.steps]


def names(done: TurnContext) -> list[str]:
    return [step.move.name for step in done.steps]


def traced(done: TurnContext, what: str) -> bool:
    return any(what in step.what for step in done.trace.steps)


# ---------------------------------------------------------------------- the first box


def test_before_the_treaty_the_d3_against_patriot_resources() -> None:
    # 8.6.1: a D3 exceeding the Patriot Resources: Hortalez; 8.6.2 otherwise
    for seed in range(6):
        assert first_box(context(board(toa=False, patriots=0), seed)) == "hortalez"
        assert first_box(context(board(toa=False, patriots=3), seed)) == "agent_mobilization"
    done = context(board(toa=False, patriots=1), 0)
    chosen = first_box(done)
    roll = done.trace.steps[0].dice[0]
    assert chosen == ("hortalez" if roll > 1 else "agent_mobilization")


def test_after_the_treaty_the_d6_against_available_regulars() -> None:
    # 8.6.4: seven Available French Regulars: every D6 is below: Muster
    state = board()
    state.move_pieces("Available", "Unavailable", "french_regular", 8)
    assert state.available("french_regular") == 7
    for seed in range(6):
        assert first_box(context(state, seed)) == "muster"
    # none Available: no D6 is below 0; no space with both: March (8.6.5)
    state.move_pieces("Available", "Unavailable", "french_regular", 7)
    assert first_box(context(state)) == "march"


def test_battle_sentence() -> None:
    # 8.6.6: Rebellion cubes + Leaders outnumber British pieces in a space with both
    state = board()
    state.move_pieces("Available", "Unavailable", "french_regular", 15)
    state.move_pieces("Unavailable", "Virginia", "french_regular", 1)
    put(state, "Virginia", "continental", 1)
    put(state, "Virginia", "british_regular", 2)
    assert not battle_wanted(state)
    assert first_box(context(state)) == "march"
    state.set_leader("Lauzun", "Virginia")
    assert battle_wanted(state)
    assert first_box(context(state)) == "battle"
    # "both" read as French and British pieces: Continentals alone do not count
    other = board()
    put(other, "Norfolk", "continental", 3)
    put(other, "Norfolk", "british_regular", 1)
    assert not battle_wanted(other)
    assert battle_wanted(other, FrenchOptions(battle_space="rebellion_cubes_and_british"))


# ---------------------------------------------------------------------- 8.6.1 Hortalez


def test_hortalez_before_the_treaty_then_a_squadron() -> None:
    # 8.6.1: up to 1D3 French Resources (here only 1) to the Patriots (+1 more,
    # 3.5.2), then Préparer la Guerre: a Blockade from Unavailable to the West Indies
    state = CoinState.new("lod")
    state.set_track("french_resources", 1)
    state.set_track("patriots_resources", 0)
    done = context(state)
    assert hortalez_box(done) is None
    hortalez, preparer = moves(done)
    assert isinstance(hortalez, Command) and hortalez.amount == 1
    assert isinstance(preparer, SpecialActivity) and preparer.option == "squadron"
    assert done.state.track("patriots_resources") == 2
    assert done.state.markers(WEST_INDIES, "blockade") == 1


def test_hortalez_spends_the_d3() -> None:
    # 8.6.1: with 5 Resources, the D3 rolled is spent
    state = board(5, toa=False)
    done = context(state, 4)
    assert hortalez_box(done) is None
    roll = next(step.dice[0] for step in done.trace.steps if step.dice)
    assert done.steps[0].move.amount == roll
    assert done.state.track("french_resources") == 5 - roll


def test_preparer_before_the_treaty_regulars_then_none() -> None:
    # 8.6.1: no Blockade Unavailable: up to three French Regulars Unavailable ->
    # Available; neither: no Special Activity
    state = board(toa=False)
    state.move_pieces("Available", "Unavailable", "french_regular", 5)
    move = preparer_before_treaty(state, None)
    assert move is not None and move.option == "regulars"
    assert preparer_before_treaty(board(toa=False), None) is None
    done = context(board(1, toa=False))
    assert hortalez_box(done) is None
    assert names(done) == ["hortalez"]


def test_hortalez_unable_before_and_after_the_treaty() -> None:
    # 8.6.1 / 8.6.2: no Resources: Hortalez cannot be executed: Agent Mobilization,
    # which (costing 1, 3.5.1) cannot either: the flowchart Passes
    done = context(board(0, toa=False))
    assert hortalez_box(done) == "agent_mobilization"
    run_boxes(done, FRENCH_BOXES, "hortalez")
    assert done.passed is not None and not done.steps
    # 8.6.3: after the Treaty nothing follows Hortalez: Pass
    assert hortalez_box(context(board(0))) == "pass"


def test_hortalez_free_has_no_special_activity() -> None:
    # 8.6.3 as a free Command (2.3.8): nothing is paid, the Patriots still gain 1
    # (3.5.2), but a Command paying nothing and selecting no space takes no Special
    # Activity (4.1): none of Skirmish, Préparer, Naval Pressure
    state = board(0)
    state.move_marker("Quebec City", WEST_INDIES, "blockade", 1)
    put(state, "Georgia", "french_regular", 1)
    put(state, "Georgia", "tory", 1)
    done = context(state, scope=STROKE)
    assert hortalez_box(done) is None
    assert names(done) == ["hortalez"] and done.steps[0].move.amount == 0
    assert done.state.track("patriots_resources") == 4
    assert traced(done, "no Special Activity possible")


# ---------------------------------------------------------------------- 8.6.2 Agent Mobilization


def agent_board() -> CoinState:
    """Only Massachusetts gains Rebellion Control from two Militia."""
    state = board(2, toa=False)
    put(state, "Massachusetts", "british_regular", 1)
    put(state, "New York", "british_regular", 3)
    put(state, "New Hampshire", "british_regular", 3)
    put(state, "Quebec", "war_party", 3)
    return state


def test_agent_mobilization_adds_rebellion_control() -> None:
    # 8.6.2: two Militia where they add Rebellion Control (Massachusetts: 2 > 1),
    # then Préparer la Guerre (8.6.1): a Squadron; Blockades on Quebec City here,
    # so up to three Regulars (none Unavailable: no Special Activity)
    state = agent_board()
    state.move_pieces("Available", "Unavailable", "french_regular", 4)
    done = context(state)
    assert agent_mobilization_box(done) is None
    mobilization, preparer = moves(done)
    assert isinstance(mobilization, Command)
    assert mobilization.placed == (("Massachusetts", "militia", 2),)
    assert isinstance(preparer, SpecialActivity) and preparer.option == "regulars"
    assert done.state.pieces("Unavailable", "french_regular") == 1


def test_agent_mobilization_most_patriot_units_then_continental() -> None:
    # 8.6.2: nowhere adds Control: most Patriot units already (New York, 2 Militia);
    # one Militia Available: one Continental instead of two Militia
    state = agent_board()
    state.move_pieces("Massachusetts", "Available", "british_regular", 1)
    put(state, "Massachusetts", "british_regular", 3)
    put(state, "New York", "militia", 2)
    state.move_pieces("Available", "Unavailable", "militia", state.available("militia") - 1)
    done = context(state)
    assert agent_mobilization_box(done) is None
    (mobilization,) = moves(done)
    assert isinstance(mobilization, Command)
    assert mobilization.placed == (("New York", "continental", 1),)
    # the other reading: the lone Militia first
    done = context(state)
    assert agent_mobilization_box(done, FrenchOptions(agent_short_militia="militia")) is None
    (mobilization,) = moves(done)
    assert isinstance(mobilization, Command)
    assert mobilization.placed == (("New York", "militia", 1),)


def test_agent_mobilization_if_none_hortalez() -> None:
    # 8.6.2 IF NONE: the four Provinces at Active Support: Hortalez instead
    state = board(2, toa=False)
    for space in ("Quebec", "New York", "New Hampshire", "Massachusetts"):
        if state.can_have_support(space):
            state.set_support(space, "active_support")
    state.move_pieces("Available", "Unavailable", "militia", 0)
    put(state, "Quebec", "war_party", 0)
    done = context(state)
    # Quebec (Population 0) is always Neutral: still a candidate
    assert agent_mobilization_box(done) is None
    assert done.steps[0].move.spaces == ("Quebec",)
    none_left = board(2, toa=False)
    for piece in ("militia", "continental"):
        none_left.move_pieces("Available", "Virginia", piece, none_left.available(piece))
    done = context(none_left)
    assert agent_mobilization_box(done) == "hortalez"
    run_boxes(done, FRENCH_BOXES, "agent_mobilization")
    assert names(done) == ["hortalez"]


# ---------------------------------------------------------------------- 8.6.4 Muster


def test_muster_in_the_west_indies_then_skirmish_elsewhere() -> None:
    # 8.6.4: three Available (fewer than four), the West Indies without Rebellion
    # Control: all three there; then SKIRMISH (8.6.3): not in the West Indies, the
    # Muster space (4.1.1), so in Georgia: the one British cube there
    state = board()
    state.move_pieces("Available", "Unavailable", "french_regular", 12)
    put(state, WEST_INDIES, "british_regular", 3)
    state.move_pieces("Unavailable", "Georgia", "french_regular", 1)
    put(state, "Georgia", "tory", 1)
    done = context(state)
    assert muster_box(done) is None
    muster, strike = moves(done)
    assert isinstance(muster, Command) and muster.placed == ((WEST_INDIES, "french_regular", 3),)
    assert isinstance(strike, SpecialActivity) and strike.spaces == ("Georgia",)
    assert strike.option == "one" and strike.removed == (("Georgia", "tory", 1),)


def test_muster_in_a_rebellion_space_with_continentals_then_preparer() -> None:
    # 8.6.4: 15 Available: four Regulars in a Rebellion Controlled City or Colony,
    # one with Continentals first (Virginia, not Boston); then no Skirmish: Préparer
    # la Guerre as 8.6.4 names it (8.6.1): a Squadron from Unavailable
    state = board()
    state.move_marker("Quebec City", "Unavailable", "blockade", 1)
    put(state, "Boston", "militia", 2)
    put(state, "Virginia", "continental", 2)
    put(state, "Quebec", "continental", 2)  # a Reserve: no Muster there
    done = context(state)
    assert muster_box(done) is None
    muster, preparer = moves(done)
    assert isinstance(muster, Command) and muster.placed == (("Virginia", "french_regular", 4),)
    assert isinstance(preparer, SpecialActivity) and preparer.option == "squadron"
    # the other reading: 8.6.3's Préparer (the D6 against one Unavailable: a 1 only)
    done = context(state, 1)
    assert muster_box(done, FrenchOptions(muster_preparer="8.6.3")) is None
    assert traced(done, "Préparer if at most 1 Unavailable")


def test_muster_then_naval_pressure() -> None:
    # 8.6.4: no Skirmish, nothing Unavailable: Naval Pressure, the Squadron to the
    # City with most Support (Philadelphia)
    state = board()
    state.move_marker("Quebec City", WEST_INDIES, "blockade", 1)
    state.set_support("Philadelphia", "active_support")
    state.set_support("Norfolk", "passive_support")
    put(state, "Boston", "militia", 2)
    done = context(state)
    assert muster_box(done) is None
    _, naval = moves(done)
    assert isinstance(naval, SpecialActivity) and naval.name == "naval_pressure"
    assert naval.spaces == ("Philadelphia",)


def test_muster_if_none_hortalez() -> None:
    # 8.6.4 IF NONE: four or more Available but no Rebellion Controlled City or
    # Colony: Hortalez (8.6.3), then Skirmish (a French Regular and a Tory in Georgia)
    state = board(1)
    put(state, "Georgia", "french_regular", 1)
    put(state, "Georgia", "tory", 2)
    done = context(state)
    assert muster_box(done) == "hortalez"
    run_boxes(done, FRENCH_BOXES, "muster")
    hortalez, strike = moves(done)
    assert isinstance(hortalez, Command) and hortalez.amount == 1
    assert isinstance(strike, SpecialActivity) and strike.name == "skirmish"
    # as many British cubes as possible: both Tories, at the cost of the Regular
    assert strike.removed == (("Georgia", "tory", 2),) and strike.option == "two"
    # a Muster costs 2 (3.5.3): one Resource is not enough
    rich = board(1)
    put(rich, "Boston", "militia", 2)
    assert muster_box(context(rich)) == "hortalez"


# ---------------------------------------------------------------------- 8.6.3 Special Activities


def test_hortalez_after_the_treaty_then_preparer_or_naval_pressure() -> None:
    # 8.6.3: Resources went to the Patriots: Skirmish (none possible), Préparer (the
    # D6 against 15 Unavailable Regulars + Blockades always succeeds: a Squadron)
    state = board(1)
    state.move_marker("Quebec City", "Unavailable", "blockade", 3)
    state.move_pieces("Available", "Unavailable", "french_regular", 12)
    done = context(state)
    assert hortalez_box(done) is None
    assert names(done) == ["hortalez", "preparer"]
    preparer = done.steps[1].move
    assert isinstance(preparer, SpecialActivity) and preparer.option == "squadron"
    # nothing Unavailable, Resources left: Préparer not possible: Naval Pressure
    state = board(2)
    state.move_marker("Quebec City", WEST_INDIES, "blockade", 1)
    done = context(state, 3)
    assert hortalez_box(done) is None
    assert names(done)[1] == "naval_pressure"


def test_preparer_after_the_treaty() -> None:
    # 8.6.3 PRÉPARER: 1D6 at most the Unavailable Regulars + Blockades (here 2
    # Regulars: a 1 or 2 moves them); nothing moved and French Resources at 0: +2
    state = board()
    state.move_pieces("Available", "Unavailable", "french_regular", 2)
    for seed in range(8):
        done = context(state, seed)
        move = preparer_after_treaty(done, None, 0)
        roll = done.trace.steps[-1].dice[0]
        assert move is not None
        assert move.option == ("regulars" if roll <= 2 else "resources")
        kept = preparer_after_treaty(context(state, seed), None, 3)
        assert (kept is None) == (roll > 2)
    # nothing Unavailable: no die; Resources above 0: not possible
    assert preparer_after_treaty(context(board()), None, 1) is None
    broke = preparer_after_treaty(context(board()), None, 0)
    assert broke is not None and broke.option == "resources"


def test_skirmish_west_indies_then_a_fort_then_most_cubes() -> None:
    # 8.6.3 SKIRMISH: the West Indies if possible; else a British Fort first (a Fort
    # alone in Georgia beats two cubes in Virginia); else as many cubes as possible
    state = board()
    put(state, "Virginia", "french_regular", 2)
    put(state, "Virginia", "british_regular", 2)
    put(state, "Georgia", "french_regular", 1)
    put(state, "Georgia", "british_fort", 1)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "fort"
    assert move.removed == (("Georgia", "british_fort", 1),)
    put(state, WEST_INDIES, "french_regular", 1)
    put(state, WEST_INDIES, "british_regular", 1)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == (WEST_INDIES,)
    assert move.removed == ((WEST_INDIES, "british_regular", 1),)
    state.move_pieces("Georgia", "Available", "british_fort", 1)
    state.move_pieces(WEST_INDIES, "Available", "british_regular", 1)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "two"
    assert move.removed == (("Virginia", "british_regular", 2),)
    # not in a Muster space (4.1.1)
    muster = Command("french", "muster", ("Virginia",), (("Virginia", "french_regular", 1),))
    assert skirmish(state, muster, LoggedRandom(0), Trace()) is None


def test_naval_pressure_battle_city_first_and_needs_a_squadron() -> None:
    # 8.6.3 NAVAL PRESSURE: a City selected for Battle before the one with most
    # Support; no Squadron in the West Indies: a rearrangement adds none: impossible
    state = board()
    state.set_support("New York City", "active_support")
    assert naval_pressure(state, None, LoggedRandom(0), Trace()) is None
    state.move_marker("Quebec City", WEST_INDIES, "blockade", 1)
    move = naval_pressure(state, None, LoggedRandom(0), Trace(), ["Norfolk"])
    assert move is not None and move.spaces == ("Norfolk",) and move.option == "place"
    move = naval_pressure(state, None, LoggedRandom(0), Trace(), ["Virginia"])
    assert move is not None and move.spaces == ("New York City",)


# ---------------------------------------------------------------------- 8.6.5 March


def test_march_adds_rebellion_control_with_continentals() -> None:
    # 8.6.5: Philadelphia (2 British Regulars) from Pennsylvania (4 French Regulars,
    # 1 Continental): Philadelphia has no Patriot piece, so the group needs the
    # Continental (3.5.4, the Patriots pay 1); one piece stays for Pennsylvania's
    # Control: 3 Regulars + 1 Continental, 4 > 2. The Regular left is next to the
    # British: no third bullet. Then SKIRMISH in Philadelphia: two Regulars, one
    # French Regular lost
    state = board()
    put(state, "Philadelphia", "british_regular", 2)
    put(state, "Pennsylvania", "french_regular", 4)
    put(state, "Pennsylvania", "continental", 1)
    done = context(state)
    assert march_box(done) is None
    march, strike = moves(done)
    assert isinstance(march, Command)
    assert march.spaces == ("Philadelphia",) and march.allied == ("Philadelphia",)
    assert march.moves == (
        ("Pennsylvania", "Philadelphia", "continental", 1),
        ("Pennsylvania", "Philadelphia", "french_regular", 3),
    )
    assert isinstance(strike, SpecialActivity) and strike.spaces == ("Philadelphia",)
    assert strike.removed == (("Philadelphia", "british_regular", 2),)
    assert done.state.track("patriots_resources") == 2
    assert done.state.control("Pennsylvania") == "rebellion"


def test_march_without_patriot_resources_takes_no_continental() -> None:
    # 8.6.5 / 3.5.4: the Patriots cannot pay: no Continental can go, and French
    # Regulars alone may not enter Philadelphia (no Patriot piece): no March there
    state = board(patriots=0)
    put(state, "Philadelphia", "british_regular", 2)
    put(state, "Pennsylvania", "french_regular", 4)
    put(state, "Pennsylvania", "continental", 1)
    done = context(state)
    assert march_box(done) == "muster"


def test_march_towards_the_nearest_british() -> None:
    # 8.6.5 third bullet: Georgia is two steps from Virginia (via Southwest), not next
    # to it: its two Regulars (the Militia keeps Control) go to Southwest, the only
    # space one step away holding a Patriot piece
    state = board()
    put(state, "Virginia", "british_regular", 1)
    put(state, "Georgia", "french_regular", 2)
    put(state, "Georgia", "militia", 1)
    put(state, "Southwest", "militia", 1)
    put(state, "South Carolina", "militia", 1)
    done = context(state)
    assert march_box(done) is None
    march = done.steps[0].move
    assert isinstance(march, Command)
    assert march.moves == (("Georgia", "Southwest", "french_regular", 2),)


def test_march_one_regular_to_patriots_facing_british() -> None:
    # 8.6.5 fourth bullet: nothing else possible: one Regular from Pennsylvania
    # (next to the British, Control kept by 2 Militia) into New Jersey (Patriots and
    # British)
    state = board()
    put(state, "Pennsylvania", "french_regular", 1)
    put(state, "Pennsylvania", "militia", 2)
    put(state, "New Jersey", "militia", 1)
    put(state, "New Jersey", "british_regular", 3)
    done = context(state)
    assert march_box(done) is None
    march = done.steps[0].move
    assert isinstance(march, Command)
    assert march.moves == (("Pennsylvania", "New Jersey", "french_regular", 1),)
    assert march.allied == ()


def test_march_keeps_rebellion_control_and_if_none_musters() -> None:
    # 8.6.5: the only Regular holds Pennsylvania's Control against a Tory: no move;
    # IF NONE: Muster (8.6.4), here in Pennsylvania (Rebellion Control)
    state = board()
    put(state, "Pennsylvania", "french_regular", 2)
    put(state, "Pennsylvania", "tory", 1)
    put(state, "New Jersey", "militia", 1)
    put(state, "New Jersey", "british_regular", 3)
    done = context(state)
    assert march_box(done) == "muster"
    run_boxes(done, FRENCH_BOXES, "march")
    assert done.steps[0].move.spaces == ("Pennsylvania",)


def test_march_limited_selects_one_destination() -> None:
    # 8.6.5 as a free Limited Command: one destination only
    state = board()
    put(state, "Virginia", "british_regular", 1)
    put(state, "Georgia", "french_regular", 2)
    put(state, "Georgia", "militia", 1)
    put(state, "Southwest", "militia", 1)
    put(state, "Quebec", "french_regular", 1)
    put(state, "Quebec", "militia", 1)
    put(state, "Northwest", "militia", 1)
    put(state, "Pennsylvania", "british_regular", 1)
    full = context(state)
    assert march_box(full) is None
    assert len(full.steps[0].move.spaces) == 2
    done = context(state, scope=LIMITED)
    assert march_box(done) is None
    assert len(done.steps[0].move.spaces) == 1 and names(done) == ["march"]


# ---------------------------------------------------------------------- 8.6.6 Battle


def battle_board(resources: int = 3) -> CoinState:
    """Virginia: 2 French Regulars and Rochambeau against 2 Tories (no dice: both
    Force Levels 2); a Patriot Fort alone in Georgia."""
    state = board(resources)
    put(state, "Virginia", "french_regular", 2)
    put(state, "Virginia", "tory", 2)
    state.set_leader("Rochambeau", "Virginia")
    put(state, "Georgia", "patriot_fort", 1)
    return state


def test_battle_golden_win_the_day_and_free_rally() -> None:
    # 8.6.6: Rebellion 2 + 1 (half Regulars) + 1 (Leader) = 4 > Royalist 2: Battle.
    # No Squadron, no Skirmish, nothing Unavailable and Resources left: no Special
    # Activity. Royalist Loss Level 2 removes both Tories, the Rebellion loses
    # nothing: Win the Day (1 shift) and a free Patriot Rally (8.5.2) in one space:
    # Militia at the Fort with no other Rebellion piece (Georgia: Fort + Population
    # 1 = 2), all but one Underground becoming a Continental
    done = context(battle_board())
    assert battle_box(done) is None
    battle, rally = moves(done)
    assert isinstance(battle, Command) and battle.spaces == ("Virginia",)
    assert done.state.pieces("Virginia", "tory") == 0
    assert done.state.support("Virginia") == "passive_opposition"
    assert isinstance(rally, Command) and rally.faction == "patriots"
    assert rally.limited and rally.free and rally.spaces == ("Georgia",)
    assert rally.placed == (("Georgia", "continental", 1), ("Georgia", "militia", 2))
    assert rally.removed == (("Georgia", "militia:underground", 1),)
    assert traced(done, "no Special Activity possible")


def test_battle_won_in_a_blockaded_city_moves_its_blockades() -> None:
    # 8.6.6: the same Battle fought in Quebec City, where the board parks all three
    # Blockades: after the Win the Day the French move "any Blockades" (all three)
    # to the City with more Support: Boston, the only one above Neutral
    state = board()
    put(state, "Quebec City", "french_regular", 2)
    put(state, "Quebec City", "tory", 2)
    state.set_leader("Rochambeau", "Quebec City")
    state.set_support("Boston", "active_support")
    done = context(state)
    assert battle_box(done) is None
    battle, shift, *_ = moves(done)
    assert isinstance(battle, Command) and battle.spaces == ("Quebec City",)
    assert shift == BlockadeShift("Quebec City", "Boston", 3)
    assert done.state.markers("Boston", "blockade") == 3
    assert replay_turn(state, done.finish()) == done.state


def test_battle_naval_pressure_to_the_battle_city_and_population_first() -> None:
    # 8.6.6: both Virginia (Population 2) and Norfolk (1) qualify; one Resource:
    # only Virginia, the highest Population. With three: both, and NAVAL PRESSURE
    # first, to Norfolk (a Battle City) before New York City (Active Support)
    state = battle_board(1)
    put(state, "Norfolk", "french_regular", 3)
    put(state, "Norfolk", "tory", 1)
    state.set_support("New York City", "active_support")
    state.move_marker("Quebec City", WEST_INDIES, "blockade", 1)
    done = context(state)
    assert battle_box(done) is None
    assert done.steps[1].move.spaces == ("Virginia",)
    done = context(state.copy())
    done.state.set_track("french_resources", 3)
    assert battle_box(done) is None
    naval, battle = moves(done)[:2]
    assert isinstance(naval, SpecialActivity) and naval.spaces == ("Norfolk",)
    assert isinstance(battle, Command) and battle.spaces == ("Norfolk", "Virginia")
    assert naval.command == battle


def test_battle_limited_fights_one_space() -> None:
    # 8.6.6 as a Brilliant Stroke's Limited Command: the highest Population only
    state = battle_board()
    put(state, "Norfolk", "french_regular", 3)
    put(state, "Norfolk", "tory", 1)
    done = context(state, scope=STROKE)
    assert battle_box(done) is None
    battle = next(m for m in moves(done) if isinstance(m, Command))
    assert battle.spaces == ("Virginia",) and battle.limited and battle.free


def test_battle_patriots_join_with_continentals() -> None:
    # 8.6.6 "including Continentals if possible": 1 French Regular and 2 Continentals
    # against 2 British Regulars: alone 1 + 1 = 2 against 2 + 1 = 3; with the Patriots
    # (1 Continental counts: no more than the French cubes, 3.6.3) 2 + 1 = 3: still
    # not more. With 2 French Regulars: 4 + 1 = 5 > 3: the Patriots join and pay
    state = board()
    put(state, "Virginia", "french_regular", 1)
    put(state, "Virginia", "continental", 2)
    put(state, "Virginia", "british_regular", 2)
    assert battle_box(context(state)) == "march"
    put(state, "Virginia", "french_regular", 1)
    done = context(state)
    assert battle_box(done) is None
    battle = done.steps[0].move
    assert isinstance(battle, Command) and battle.allied == ("Virginia",)
    assert done.state.track("patriots_resources") == 2  # 1 to join (3.6.1)
    # no Patriot Resources: 2 against 3 alone: no Battle
    state.set_track("patriots_resources", 0)
    assert battle_box(context(state)) == "march"


def test_battle_skirmish_outside_then_preparer() -> None:
    # 8.6.6: no Squadron: SKIRMISH in a space not selected for Battle (Georgia, not
    # Virginia); with none, PRÉPARER with the French Resources after paying (1 - 1 =
    # 0: +2)
    state = battle_board(1)
    put(state, "South Carolina", "french_regular", 1)
    put(state, "South Carolina", "tory", 1)
    done = context(state)
    assert battle_box(done) is None
    strike = done.steps[0].move
    assert isinstance(strike, SpecialActivity) and strike.spaces == ("South Carolina",)
    done = context(battle_board(1))
    assert battle_box(done) is None
    preparer = done.steps[0].move
    assert isinstance(preparer, SpecialActivity) and preparer.option == "resources"


def test_battle_if_none_marches() -> None:
    # 8.6.6: no space where the Rebellion would win: abort, March (8.6.5)
    state = board()
    put(state, "Virginia", "french_regular", 1)
    put(state, "Virginia", "british_regular", 3)
    put(state, "North Carolina", "militia", 1)
    done = context(state)
    assert battle_box(done) == "march"
    run_boxes(done, french_boxes(), "battle")
    assert isinstance(done.steps[0].move, Command)


def test_free_rally_fort_first_then_move_in() -> None:
    # 8.6.6 -> 8.5.2 in one space (the Patriot module's free Rally): a Fort where 4+
    # Patriot units have room comes first
    state = battle_board()
    put(state, "Charles Town", "continental", 2)
    put(state, "Charles Town", "militia", 2, "active")
    done = context(state)
    assert battle_box(done) is None
    rally = done.steps[-1].move
    assert isinstance(rally, Command) and rally.spaces == ("Charles Town",)
    assert ("Charles Town", "patriot_fort", 1) in rally.placed
    assert rally.limited and rally.free
    # no Militia Available and nowhere 4+ Patriot units: the Active Militia next to
    # the Fort move in, keeping their origin's Control (Savannah keeps it with its
    # Continental; Florida's only Militia would leave it without Control: it stays)
    state = battle_board()
    put(state, "Florida", "militia", 1, "active")
    put(state, "Savannah", "militia", 1, "active")
    put(state, "Savannah", "continental", 1)
    for space in ("New York", "Pennsylvania", "New Jersey", "Maryland-Delaware", "Boston"):
        put(state, space, "militia", min(3, state.available("militia")))  # none left
    done = context(state)
    assert battle_box(done) is None
    rally = done.steps[-1].move
    assert isinstance(rally, Command)
    assert rally.moves == (("Savannah", "Georgia", "militia:active", 1),)
    assert done.state.pieces("Georgia", "militia", "underground") == 1


# ---------------------------------------------------------------------- the whole flowchart


def test_french_command_runs_the_fall_throughs() -> None:
    # 8.6.5 -> 8.6.4 -> 8.6.3: no Regular anywhere, none Available: no March, no
    # Muster: Hortalez
    state = board(2)
    state.move_pieces("Available", "Unavailable", "french_regular", 15)
    done = context(state)
    french_command(done)
    assert names(done)[0] == "hortalez"
    assert [s.chosen for s in done.trace.steps if s.what.endswith("on to muster")] == ["muster"]


# ---------------------------------------------------------------------- seeded turns

SCENARIOS = ("1775", "1776", "1778")
SEEDS = 12


def starts(scenario: str) -> list[tuple[int, CoinState]]:
    """The set-up and states reached from it by random legal play, with some French
    Resources and, for some, the Treaty of Alliance played."""
    found = [(0, load_scenario("lod", scenario))]
    for seed in range(1, SEEDS):
        rng = random.Random(seed)
        state = random_commands(load_scenario("lod", scenario), rng, 10)
        state.set_track("french_resources", rng.randint(1, 10))
        if seed % 2:
            state.set_flag("toa_played")
        found.append((seed, state))
    return found


def turn_of(start: CoinState, seed: int, scope: CommandScope, first: str | None) -> TurnContext:
    done = context(start, seed, scope)
    if first is None:
        french_command(done)
    else:
        run_boxes(done, FRENCH_BOXES, first)
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
            for first in (None, *FRENCH_BOXES):
                turn = sound_turn(start, turn_of, start, seed, scope, first)
                if not scope.special_activity:
                    assert not any(isinstance(s.move, SpecialActivity) for s in turn.steps)
                french = [s for s in turn.steps if s.move.faction == "french"]
                assert sum(isinstance(s.move, Command) for s in french) <= 1


def test_steps_are_turn_steps() -> None:
    done = context(battle_board())
    french_command(done)
    assert all(isinstance(step, TurnStep) for step in done.steps)


def test_battle_patriots_join_where_continentals_are_or_with_any_unit() -> None:
    # 8.6.6 "including Continentals if possible" (patriots_join): 2 French Regulars
    # and 4 Active Militia against 2 British Regulars and a Tory. Alone the French
    # have 2 + 1 (half Regulars) = 3 against 3 + 1 = 4; with the Patriots' Militia
    # (4 Active count 2, 3.6.3) 5 > 4. "continentals" (default): no Continental, no
    # Patriots, no Battle (March instead); "any_unit": the Patriots join and pay
    state = board()
    put(state, "Virginia", "french_regular", 2)
    put(state, "Virginia", "militia", 4, "active")
    put(state, "Virginia", "british_regular", 2)
    put(state, "Virginia", "tory", 1)
    assert battle_box(context(state), FrenchOptions()) == "march"
    done = context(state)
    assert battle_box(done, FrenchOptions(patriots_join="any_unit")) is None
    battle = done.steps[0].move
    assert isinstance(battle, Command) and battle.allied == ("Virginia",)


def test_battle_overflow_shifts_go_next_door_unless_the_option_says_none() -> None:
    # 8.6.6 with 3.6.8 (overflow_shifts): the Rebellion Wins the Day in Virginia,
    # already at Active Opposition, so its one shift cannot be taken there. By
    # default the Patriots put it in an adjacent space (most Support, then highest
    # Population: Maryland-Delaware); with overflow_shifts=False it is unused
    state = battle_board()
    state.set_support("Virginia", "active_opposition")
    done = context(state)
    assert battle_box(done, FrenchOptions()) is None
    assert done.state.support("Maryland-Delaware") == "passive_opposition"
    kept = context(state.copy())
    assert battle_box(kept, FrenchOptions(overflow_shifts=False)) is None
    adjacent = state.rules.map.adjacent("Virginia")
    assert all(kept.state.support(x) == state.support(x) for x in adjacent)
    assert any("shift(s) unused" in line for step in kept.steps for line in step.log)
