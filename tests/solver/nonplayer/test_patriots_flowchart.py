"""The Non-player Patriot Commands and Special Activities (8.5.1-8.5.4): golden
cases worked by hand from the paragraphs, each box's fall-through, the free Rally
a Battle won earns, and seeded turns from the set-ups and from states reached by
random legal play that are legal, replay and repeat."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import BlockadeShift
from legalis.model.lod.command_base import Command
from legalis.model.lod.special import SpecialActivity
from legalis.solver.nonplayer.flowchart import Turn, TurnContext, replay_turn, run_boxes
from legalis.solver.nonplayer.patriots import (
    PATRIOTS_BOXES,
    PatriotOptions,
    battle_box,
    first_box,
    free_rally,
    march_box,
    partisans,
    patriots_boxes,
    patriots_command,
    persuasion,
    rabble_box,
    rally_box,
    skirmish,
)
from legalis.solver.nonplayer.playout import random_commands
from legalis.solver.nonplayer.sequence import CommandScope
from legalis.solver.nonplayer.trace import Trace

LIMITED = CommandScope(limited=True, special_activity=False, free=True)
STROKE = CommandScope(limited=True, special_activity=True, free=True)  # 8.3.7, 2.3.8
FULL = CommandScope(limited=False, special_activity=True, free=False)
CITIES_AND_COLONIES = (
    "Boston", "Charles Town", "New York City", "Norfolk", "Philadelphia", "Quebec City",
    "Savannah", "New Hampshire", "Massachusetts", "Connecticut-Rhode Island", "New York",
    "New Jersey", "Pennsylvania", "Maryland-Delaware", "Virginia", "North Carolina",
    "South Carolina", "Georgia",
)  # fmt: skip


def put(state: CoinState, space: str, piece: str, n: int, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def board(resources: int = 10) -> CoinState:
    state = CoinState.new("lod")
    state.set_track("patriots_resources", resources)
    return state


def context(state: CoinState, seed: int = 0, scope: CommandScope = FULL) -> TurnContext:
    return TurnContext(state, "patriots", LoggedRandom(seed), scope=scope)


def moves(done: TurnContext) -> list[Command | SpecialActivity]:
    return [step.move for step in done.steps]


def only_command(done: TurnContext, name: str) -> Command:
    (found,) = [m for m in moves(done) if isinstance(m, Command) and m.name == name]
    return found


def specials(done: TurnContext) -> list[SpecialActivity]:
    return [m for m in moves(done) if isinstance(m, SpecialActivity)]


def traced(done: TurnContext, text: str) -> bool:
    return any(text in step.what for step in done.trace.steps)


# ---------------------------------------------------------------------- which box first


def test_battle_first_when_cubes_outnumber_the_active_royalists() -> None:
    # 8.5.1: two Continentals outnumber one Tory; Underground War Parties do not count
    state = board()
    put(state, "Virginia", "continental", 2)
    put(state, "Virginia", "tory", 1)
    put(state, "Virginia", "war_party", 2, "underground")
    assert first_box(context(state)) == "battle"
    state.flip("Virginia", "war_party", 1, "underground", "active")
    assert first_box(context(state)) != "battle"


def test_rally_first_when_a_fort_would_be_placed_without_a_die() -> None:
    # 8.5.2: four Patriot units and room: Rally, no D6 rolled
    state = board()
    put(state, "Georgia", "militia", 3, "underground")
    put(state, "Georgia", "continental", 1)
    done = context(state)
    assert first_box(done) == "rally"
    assert not any(step.dice for step in done.trace.steps)


def test_rally_first_when_the_d6_beats_the_underground_militia() -> None:
    # 8.5.2: no Underground Militia on the map: any D6 is higher
    done = context(board())
    assert first_box(done) == "rally"
    assert done.trace.steps[0].dice and done.trace.steps[0].rule == "8.5.2"


def test_rabble_rousing_then_march_when_the_d6_cannot_win() -> None:
    # 8.5.2: six Underground Militia, one per space: no D6 is higher, no Fort
    # 8.5.3: Rabble-Rousing can shift those spaces; 8.5.4: at Active Opposition it cannot
    state = board()
    spread = ("Virginia", "Georgia", "North Carolina", "South Carolina",
              "Maryland-Delaware", "Pennsylvania")  # fmt: skip
    for space in spread:
        put(state, space, "militia", 1, "underground")
    for seed in range(6):
        assert first_box(context(state, seed)) == "rabble_rousing"
    for space in spread:
        state.set_support(space, "active_opposition")
    assert first_box(context(state)) == "march"


# ---------------------------------------------------------------------- Special Activities


def test_partisans_village_first() -> None:
    # 8.5.1 PARTISANS: a Village first, over two War Parties elsewhere
    state = board()
    put(state, "Southwest", "militia", 2, "underground")
    put(state, "Southwest", "village", 1)
    put(state, "Virginia", "militia", 2, "underground")
    put(state, "Virginia", "war_party", 2, "underground")
    move = partisans(state, None, LoggedRandom(0), Trace())
    assert move is not None
    assert (move.spaces, move.option, move.removed) == (
        ("Southwest",), "village", (("Southwest", "village", 1),))  # fmt: skip


def test_partisans_most_war_parties_then_british_units_by_control() -> None:
    # 8.5.1 PARTISANS: two War Parties (Virginia) beat one (Georgia); two pieces go
    # (8.1.1, at the cost of a Militia), Underground War Parties first (8.1.2)
    state = board()
    put(state, "Virginia", "militia", 2, "underground")
    put(state, "Virginia", "war_party", 1, "underground")
    put(state, "Virginia", "war_party", 1, "active")
    put(state, "Georgia", "militia", 2, "underground")
    put(state, "Georgia", "war_party", 1, "underground")
    put(state, "Georgia", "tory", 1)
    move = partisans(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "two"
    assert move.removed == (("Virginia", "war_party:active", 1),
                            ("Virginia", "war_party:underground", 1))  # fmt: skip
    one = partisans(state, None, LoggedRandom(0), Trace(), PatriotOptions(strike_most=False))
    assert one is not None and one.removed == (("Virginia", "war_party:underground", 1),)
    # British units only: adding Rebellion Control in Population 2 (New York) beats 1
    state = board()
    for space in ("New York", "Georgia"):
        put(state, space, "militia", 1, "underground")
        put(state, space, "tory", 1)
    move = partisans(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.removed == (("New York", "tory", 1),)


def test_skirmish_two_cubes_regulars_first_then_control() -> None:
    # 8.5.1 SKIRMISH (no Fort anywhere): two cubes where possible, Regulars first as
    # the fewest (8.1.2); Georgia's removal adds Rebellion Control, Virginia's not
    state = board()
    put(state, "Georgia", "continental", 2)
    put(state, "Georgia", "british_regular", 1)
    put(state, "Georgia", "tory", 2)
    put(state, "Virginia", "continental", 5)
    put(state, "Virginia", "tory", 2)
    move = skirmish(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "two"
    assert move.removed == (("Georgia", "british_regular", 1), ("Georgia", "tory", 1))


def test_persuasion_fort_spaces_first_up_to_three() -> None:
    # 8.5.1 PERSUASION: Rebellion Control and Underground Militia; Forts first;
    # three at most; never a Reserve (4.3.1)
    state = board()
    for space in ("Virginia", "Georgia", "Boston", "New Jersey", "Quebec"):
        put(state, space, "militia", 1, "underground")
    put(state, "New Jersey", "patriot_fort", 1)
    move = persuasion(state, None, LoggedRandom(0), Trace())
    assert move is not None and len(move.spaces) == 3 and "New Jersey" in move.spaces
    assert "Quebec" not in move.spaces


# ---------------------------------------------------------------------- 8.5.1 Battle


def test_battle_washington_first_when_resources_are_short() -> None:
    # 8.5.1: Virginia (Washington) and New York both winnable; one Resource: Virginia.
    # Paid, the Patriots are at 0: Persuasion instead of Skirmish, none possible
    state = board(1)
    put(state, "Virginia", "continental", 3)
    put(state, "Virginia", "tory", 1)
    state.set_leader("Washington", "Virginia")
    put(state, "New York", "continental", 3)
    put(state, "New York", "tory", 1)
    done = context(state)
    assert battle_box(done) is None
    battle = only_command(done, "battle")
    assert battle.spaces == ("Virginia",) and battle.allied == ()
    assert specials(done) == []
    assert traced(done, "Patriot Resources 0: Persuasion instead")
    assert done.state.pieces("Virginia", "tory") == 0


def test_battle_includes_the_french_for_one_french_resource() -> None:
    # 8.5.1: 2 Continentals + 2 French Regulars (Force 4, +1 half Regulars) beat 2
    # British Regulars + 1 Tory (Force 3, +1); without the French they would not
    state = board(3)
    state.set_flag("toa_played")
    state.set_track("french_resources", 2)
    put(state, "Pennsylvania", "continental", 2)
    put(state, "Pennsylvania", "french_regular", 2)
    put(state, "Pennsylvania", "british_regular", 2)
    put(state, "Pennsylvania", "tory", 1)
    done = context(state)
    assert battle_box(done) is None
    battle = only_command(done, "battle")
    assert (battle.spaces, battle.allied) == (("Pennsylvania",), ("Pennsylvania",))
    assert done.steps[0].decisions[0].ally_pays
    assert done.state.track("french_resources") == 1
    state.set_track("french_resources", 0)  # no French Resources: no win, so Rally
    assert battle_box(context(state)) == "rally"


def test_battle_activates_militia_when_it_pays() -> None:
    # 8.5.1 (battle_activation "best"): 2 Continentals + 4 Underground Militia vs 3
    # Tories: 2+1 (Underground) = 3, not above 3; two Activated: 3+1 = 4 wins
    state = board()
    put(state, "Virginia", "continental", 2)
    put(state, "Virginia", "militia", 4, "underground")
    put(state, "Virginia", "tory", 3)
    done = context(state)
    assert battle_box(done) is None
    assert done.steps[0].decisions[0].activate_attacker == 2
    assert battle_box(context(state), PatriotOptions(battle_activation="none")) == "rally"


def test_battle_win_the_day_earns_a_free_rally() -> None:
    # 8.5.1: 6 Continentals vs 2 Tories: both Tories go, no Rebellion loss (the
    # Royalists roll no die): Win the Day (a cube lost, two pieces); the free Rally
    # in one space places a Fort where 4+ units are (Georgia), two Continentals
    # replaced (8.1.2); no Partisans/Skirmish/Persuasion possible afterwards
    state = board(2)
    put(state, "Georgia", "continental", 6)
    put(state, "Georgia", "tory", 2)
    done = context(state)
    assert battle_box(done) is None
    rally = only_command(done, "rally")
    assert rally == Command("patriots", "rally", ("Georgia",),
                            (("Georgia", "patriot_fort", 1),), (("Georgia", "continental", 2),),
                            limited=True, free=True)  # fmt: skip
    assert done.state.support("Georgia") == "passive_opposition"
    assert done.state.track("patriots_resources") == 1
    assert specials(done) == []


def blockaded_boston() -> CoinState:
    """6 Continentals against 2 Tories in Blockaded Boston: a Rebellion Win the Day."""
    state = board(2)
    state.set_flag("toa_played")
    state.move_marker("Unavailable", "Boston", "blockade")
    put(state, "Boston", "continental", 6)
    put(state, "Boston", "tory", 2)
    return state


def test_battle_won_in_a_blockaded_city_moves_the_blockade() -> None:
    # 8.5.1: after the Win the Day in Boston the French move its Blockade to the
    # City with most Support (8.1.1: level x Population): New York City at Passive
    # Support (1 x 2) over Philadelphia at Passive Support (1 x 1); Boston itself
    # falls to Opposition. The free Rally still follows
    state = blockaded_boston()
    state.set_support("New York City", "passive_support")
    state.set_support("Philadelphia", "passive_support")
    done = context(state)
    assert battle_box(done) is None
    assert BlockadeShift("Boston", "New York City", 1) in moves(done)
    assert done.state.markers("Boston", "blockade") == 0
    assert done.state.markers("New York City", "blockade") == 1
    assert only_command(done, "rally").placed == (("Boston", "patriot_fort", 1),)
    assert replay_turn(state, done.finish()) == done.state


def test_battle_won_in_a_blockaded_city_keeps_it_without_a_richer_city() -> None:
    # 8.5.1: "to another City with more Support": every City at Neutral has no more
    # Support than Boston, so the Blockade stays; a played French Faction decides
    # for itself, so the Non-player flowchart moves nothing either
    done = context(blockaded_boston())
    assert battle_box(done) is None
    assert traced(done, "no Blockade of Boston to move")
    assert done.state.markers("Boston", "blockade") == 1
    state = blockaded_boston()
    state.set_support("New York City", "passive_support")
    played = TurnContext(state, "patriots", LoggedRandom(0), players=("french",))
    assert battle_box(played) is None
    assert traced(played, "the French player may move the Blockades of Boston")
    assert played.state.markers("Boston", "blockade") == 1


def test_battle_overflow_shifts_gain_opposition_first() -> None:
    # 3.6.8 with 8.3.6: a Reserve takes no shift; New York (Population 2) twice, then
    # Quebec City
    state = board(2)
    put(state, "Quebec", "continental", 6)
    put(state, "Quebec", "tory", 2)
    done = context(state)
    assert battle_box(done) is None
    assert done.steps[0].decisions[0].rebellion_shifts == (
        "New York", "New York", "Quebec City")  # fmt: skip


def test_battle_then_partisans_outside_the_battle_space() -> None:
    # 8.5.1: Partisans, not in a Battle space (4.1.1): New York's War Party
    state = board(3)
    put(state, "Virginia", "continental", 3)
    put(state, "Virginia", "militia", 2, "underground")
    put(state, "Virginia", "tory", 1)
    put(state, "New York", "militia", 1, "underground")
    put(state, "New York", "war_party", 1, "underground")
    done = context(state)
    assert battle_box(done) is None
    (special,) = specials(done)
    assert (special.name, special.spaces) == ("partisans", ("New York",))
    assert special.removed == (("New York", "war_party:underground", 1),)


def test_battle_if_none_rallies() -> None:
    # 8.5.1: one Continental cannot beat two Regulars (+1 Regulars): Rally instead
    state = board()
    put(state, "Virginia", "continental", 1)
    put(state, "Virginia", "british_regular", 2)
    done = context(state)
    assert battle_box(done) == "rally"
    assert done.steps == []
    run_boxes(done, PATRIOTS_BOXES, "battle")
    assert only_command(done, "rally").name == "rally"


# ---------------------------------------------------------------------- 8.5.2 Rally


def test_rally_forts_cities_first_then_continentals() -> None:
    # 8.5.2: two Resources: Forts in New York City (City, Population 2) then Boston
    # (City); Virginia (Colony) waits. Each Fort replaces two Underground Militia.
    # At 0 Resources no Persuasion is possible (no Rebellion Control). Boston's
    # Fort space has most Militia (3): all but one Underground become Continentals
    state = board(2)
    put(state, "New York City", "militia", 4, "underground")
    put(state, "New York City", "tory", 4)
    put(state, "Boston", "militia", 5, "underground")
    put(state, "Boston", "tory", 5)
    put(state, "Virginia", "militia", 4, "underground")
    put(state, "Virginia", "tory", 4)
    done = context(state)
    assert rally_box(done) is None
    assert moves(done) == [Command(
        "patriots", "rally", ("Boston", "New York City"),
        (("Boston", "continental", 2), ("Boston", "patriot_fort", 1),
         ("New York City", "patriot_fort", 1)),
        (("Boston", "militia:underground", 4), ("New York City", "militia:underground", 2)),
    )]  # fmt: skip
    assert traced(done, "Resources 0: no Persuasion possible")


def test_rally_militia_at_forts_toward_a_fort_and_to_change_control() -> None:
    # 8.5.2 in four spaces: the lone Fort (Massachusetts) takes 1 + 2 Militia; with
    # Continentals Available, the Fort with most Militia (Pennsylvania, 2) takes 3;
    # its 5 Militia but one become Continentals; a Militia where most Patriot units
    # and no Fort (Virginia); then to change Control, a City, Population 2 (New York
    # City). Then Partisans: New York City, adding Rebellion Control
    state = board()
    put(state, "Massachusetts", "patriot_fort", 1)
    put(state, "Pennsylvania", "patriot_fort", 1)
    put(state, "Pennsylvania", "militia", 2, "underground")
    put(state, "Connecticut-Rhode Island", "patriot_fort", 1)
    put(state, "Connecticut-Rhode Island", "militia", 1, "underground")
    put(state, "Virginia", "continental", 3)
    put(state, "New York City", "tory", 1)
    done = context(state)
    assert rally_box(done) is None
    rally = only_command(done, "rally")
    assert rally.spaces == ("Massachusetts", "New York City", "Pennsylvania", "Virginia")
    assert rally.placed == (
        ("Massachusetts", "militia", 3), ("New York City", "militia", 1),
        ("Pennsylvania", "continental", 4), ("Pennsylvania", "militia", 3),
        ("Virginia", "militia", 1),
    )  # fmt: skip
    assert rally.removed == (("Pennsylvania", "militia:underground", 4),)
    (special,) = specials(done)
    assert (special.name, special.removed) == ("partisans", (("New York City", "tory", 1),))


def test_rally_moves_active_militia_into_a_fort() -> None:
    # 8.5.2 last bullet (no Militia or Continentals to place): New Jersey's Fort takes
    # one Active Militia from New York (3 vs a Tory: a second would lose Control) and
    # one from Pennsylvania (its last would); all go Underground. Then Persuasion
    # (no strike possible): New Jersey (a Fort) first, and Quebec City
    state = board()
    put(state, "New Jersey", "patriot_fort", 1)
    put(state, "New Jersey", "militia", 1, "active")
    put(state, "New Jersey", "continental", 1)
    put(state, "New York", "militia", 3, "active")
    put(state, "New York", "tory", 1)
    put(state, "Pennsylvania", "militia", 2, "active")
    put(state, "Quebec City", "militia", 9, "underground")
    state.set_support("Quebec City", "active_support")
    state.move_pieces("Available", "Casualties", "continental", 19)
    done = context(state)
    assert rally_box(done) is None
    rally = only_command(done, "rally")
    assert rally == Command("patriots", "rally", ("New Jersey",), moves=(
        ("New York", "New Jersey", "militia:active", 1),
        ("Pennsylvania", "New Jersey", "militia:active", 1)))  # fmt: skip
    assert done.state.pieces("New Jersey", "militia", "underground") == 2  # one Persuaded
    (special,) = specials(done)
    assert (special.name, special.spaces) == ("persuasion", ("New Jersey", "Quebec City"))


@pytest.mark.parametrize("when", ["at_zero", "to_continue"])
def test_rally_persuades_when_the_resources_run_out(
    when: Literal["at_zero", "to_continue"],
) -> None:
    # 8.5.2: one Resource. The lone Fort takes 3 Militia; at 0 Resources (or when
    # Virginia is wanted) Persuasion in Virginia, +1; two Militia become
    # Continentals; Virginia (most Patriot units, no Fort) takes one. No Special
    # Activity after: Persuasion was used
    state = board(1)
    put(state, "Massachusetts", "patriot_fort", 1)
    put(state, "Virginia", "militia", 1, "underground")
    done = context(state)
    assert rally_box(done, PatriotOptions(persuade_when_spent=when)) is None
    rally = only_command(done, "rally")
    assert moves(done) == [SpecialActivity("patriots", "persuasion", rally, ("Virginia",)), rally]
    assert rally == Command(
        "patriots", "rally", ("Massachusetts", "Virginia"),
        (("Massachusetts", "continental", 2), ("Massachusetts", "militia", 3),
         ("Virginia", "militia", 1)),
        (("Massachusetts", "militia:underground", 2),),
    )  # fmt: skip
    assert done.state.track("patriots_resources") == 0


def test_rally_if_none_rabble_rousing_then_pass() -> None:
    # 8.5.2 IF NONE: every City and Colony at Active Support: no Rally; 8.5.3 IF
    # NONE: no Rabble-Rousing either: Pass
    state = board()
    for space in CITIES_AND_COLONIES:
        state.set_support(space, "active_support")
    done = context(state)
    assert rally_box(done) == "rabble_rousing"
    run_boxes(done, PATRIOTS_BOXES, "rally")
    assert done.steps == [] and done.passed is not None
    # 8.5.4 IF NONE: no Patriot unit to March either: March, Rally, Rabble-Rousing, Pass
    done = context(state)
    run_boxes(done, PATRIOTS_BOXES, "march")
    assert done.steps == []
    assert done.passed == "8.1: march, rally, rabble_rousing each fell through"


def test_free_rally_through_a_french_turn() -> None:
    # 8.5.1 / 3.6.8: a free Limited Rally in one space, carried out in the French
    # turn: the lone Fort takes 3 Militia, two become Continentals; costs nothing
    state = board(0)
    put(state, "Massachusetts", "patriot_fort", 1)
    done = TurnContext(state, "french", LoggedRandom(0))
    rally = free_rally(done)
    assert rally == Command(
        "patriots", "rally", ("Massachusetts",),
        (("Massachusetts", "continental", 2), ("Massachusetts", "militia", 3)),
        (("Massachusetts", "militia:underground", 2),), limited=True, free=True,
    )  # fmt: skip
    assert done.state.track("patriots_resources") == 0
    assert replay_turn(state, done.finish()) == done.state


# ---------------------------------------------------------------------- 8.5.3 Rabble-Rousing


def test_rabble_rousing_active_support_first_then_population() -> None:
    # 8.5.3: two Resources: Virginia (Active Support, 2) then Georgia (Active
    # Support, 1); North Carolina waits. At 0 no Persuasion is possible, and none
    # instead of a strike afterwards
    state = board(2)
    for space, level in (("Virginia", "active_support"), ("Georgia", "active_support"),
                         ("North Carolina", "neutral")):  # fmt: skip
        put(state, space, "militia", 1, "underground")
        put(state, space, "tory", 1)
        state.set_support(space, level)
    done = context(state)
    assert rabble_box(done) is None
    assert moves(done) == [Command("patriots", "rabble_rousing", ("Georgia", "Virginia"))]
    assert done.state.support("Virginia") == "passive_support"
    assert done.state.pieces("Virginia", "militia", "active") == 1


def test_rabble_rousing_persuades_then_continues() -> None:
    # 8.5.3: one Resource: North Carolina (Active Support) paid, 0 left: Persuasion
    # there (Rebellion Control, Underground Militia) gives one: Virginia too
    state = board(1)
    put(state, "North Carolina", "militia", 1, "underground")
    state.set_support("North Carolina", "active_support")
    put(state, "Virginia", "militia", 1, "underground")
    put(state, "Virginia", "tory", 1)
    done = context(state)
    assert rabble_box(done) is None
    rabble = Command("patriots", "rabble_rousing", ("North Carolina", "Virginia"))
    assert moves(done) == [
        SpecialActivity("patriots", "persuasion", rabble, ("North Carolina",)),
        rabble,
    ]
    assert done.state.support("North Carolina") == "passive_support"
    assert done.state.track("patriots_resources") == 0


def test_rabble_rousing_if_none_rallies() -> None:
    # 8.5.3 IF NONE: nothing to rouse on an empty board: Rally
    done = context(board())
    assert rabble_box(done) == "rally"
    run_boxes(done, PATRIOTS_BOXES, "rabble_rousing")
    assert only_command(done, "rally").name == "rally"


# ---------------------------------------------------------------------- 8.5.4 March


def march_board() -> CoinState:
    """Pennsylvania (3 Underground Militia, a Continental) and Virginia (one
    Underground, one Active Militia), both at Active Opposition; a Village and a
    War Party in the Northwest."""
    state = board(5)
    put(state, "Pennsylvania", "militia", 3, "underground")
    put(state, "Pennsylvania", "continental", 1)
    put(state, "Virginia", "militia", 1, "underground")
    put(state, "Virginia", "militia", 1, "active")
    for space in ("Pennsylvania", "Virginia"):
        state.set_support(space, "active_opposition")
    put(state, "Northwest", "village", 1)
    put(state, "Northwest", "war_party", 1, "underground")
    return state


def test_march_adds_control_villages_first_then_a_city() -> None:
    # 8.5.4: the Northwest (Villages) first: Pennsylvania's group (3 Underground
    # Militia; the Continental keeps its Control) is the largest, enough. Then a
    # City: Norfolk, by Virginia's Underground Militia (the Active one keeps
    # Control). Nothing more can move. Partisans in the Northwest: the War Party
    state = march_board()
    done = context(state)
    assert march_box(done) is None
    march = only_command(done, "march")
    assert march == Command("patriots", "march", ("Norfolk", "Northwest"), moves=(
        ("Pennsylvania", "Northwest", "militia:underground", 3),
        ("Virginia", "Norfolk", "militia:underground", 1)))  # fmt: skip
    (special,) = specials(done)
    assert (special.name, special.removed) == (
        "partisans", (("Northwest", "war_party:underground", 1),))  # fmt: skip
    assert done.state.track("patriots_resources") == 3


def test_march_limited_to_one_destination() -> None:
    # 8.1, 2.3.5: a Limited March has one destination (the Northwest)
    done = context(march_board(), scope=STROKE)
    assert march_box(done) is None
    assert only_command(done, "march").spaces == ("Northwest",)


def test_march_keeps_fort_unit_and_underground_militia() -> None:
    # 8.5.4: Massachusetts (Fort, Passive Opposition) keeps an Underground Militia
    # and an Active unit (the Active Militia): a Continental and an Underground
    # Militia take Boston (2 vs 1 Tory)
    state = board(3)
    put(state, "Massachusetts", "patriot_fort", 1)
    put(state, "Massachusetts", "continental", 1)
    put(state, "Massachusetts", "militia", 2, "underground")
    put(state, "Massachusetts", "militia", 1, "active")
    state.set_support("Massachusetts", "passive_opposition")
    put(state, "Boston", "tory", 1)
    done = context(state)
    assert march_box(done) is None
    assert only_command(done, "march") == Command("patriots", "march", ("Boston",), moves=(
        ("Massachusetts", "Boston", "continental", 1),
        ("Massachusetts", "Boston", "militia:underground", 1)))  # fmt: skip
    (special,) = specials(done)
    assert (special.name, special.removed) == ("partisans", (("Boston", "tory", 1),))


def test_march_with_french_regulars() -> None:
    # 8.5.4: French Resources above 0: French Regulars go 1 for 1 with Continentals;
    # one French Regular keeps Maryland-Delaware's Control; the French pay 1
    state = board(3)
    state.set_flag("toa_played")
    state.set_track("french_resources", 1)
    put(state, "Maryland-Delaware", "continental", 2)
    put(state, "Maryland-Delaware", "french_regular", 2)
    state.set_support("Maryland-Delaware", "active_opposition")
    put(state, "Philadelphia", "tory", 2)
    done = context(state)
    assert march_box(done) is None
    assert only_command(done, "march") == Command(
        "patriots", "march", ("Philadelphia",), moves=(
            ("Maryland-Delaware", "Philadelphia", "continental", 2),
            ("Maryland-Delaware", "Philadelphia", "french_regular", 1)),
        allied=("Philadelphia",))  # fmt: skip
    assert done.state.track("french_resources") == 0


def test_march_one_militia_to_change_control_of_most_population() -> None:
    # 8.5.4 second sub-bullet: no Control can be added; one Underground Militia from
    # South Carolina (its Active one keeps Control) to North Carolina (Population 2,
    # a Tory: Control changes) before Charles Town (1). Partisans there then
    state = board(3)
    put(state, "South Carolina", "militia", 1, "underground")
    put(state, "South Carolina", "militia", 1, "active")
    state.set_support("South Carolina", "active_opposition")
    put(state, "Charles Town", "tory", 1)
    put(state, "North Carolina", "tory", 1)
    for space in ("Savannah", "Georgia"):
        put(state, space, "british_regular", 3)
    put(state, "Southwest", "war_party", 3)
    done = context(state)
    assert march_box(done) is None
    assert only_command(done, "march") == Command(
        "patriots", "march", ("North Carolina",),
        moves=(("South Carolina", "North Carolina", "militia:underground", 1),))  # fmt: skip
    (special,) = specials(done)
    assert (special.name, special.removed) == ("partisans", (("North Carolina", "tory", 1),))


def test_march_if_none_rallies() -> None:
    # 8.5.4 IF NONE: no Patriot unit on the map: Rally
    done = context(board())
    assert march_box(done) == "rally"
    run_boxes(done, PATRIOTS_BOXES, "march")
    assert only_command(done, "rally").name == "rally"


# ---------------------------------------------------------------------- seeded turns

SCENARIOS = ("1775", "1776", "1778")
SEEDS = 10


def starts(scenario: str) -> list[tuple[int, CoinState]]:
    """The set-up and states reached from it by random legal play, with some
    Patriot and French Resources."""
    found = [(0, load_scenario("lod", scenario))]
    for seed in range(1, SEEDS):
        rng = random.Random(seed)
        state = random_commands(load_scenario("lod", scenario), rng, 16)
        state.set_track("patriots_resources", rng.randint(1, 8))
        state.set_track("french_resources", rng.randint(0, 3))
        found.append((seed, state))
    return found


def turn_of(
    start: CoinState, seed: int, scope: CommandScope, first: str | None, options: PatriotOptions
) -> TurnContext:
    done = context(start, seed, scope)
    if first is None:
        patriots_command(done, options)
    else:
        run_boxes(done, patriots_boxes(options), first)
    return done


OTHER = PatriotOptions(battle_activation="none", strike_most=False,
                       persuade_when_spent="to_continue")  # fmt: skip


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_seeded_turns_are_legal_replay_and_repeat(
    scenario: str, sound_turn: Callable[..., Turn]
) -> None:
    """From the set-up and from states reached by random legal play, the flowchart
    and each box (full, free Limited, Brilliant Stroke) make only legal moves (the
    context checks each), replay to the same state, keep the state sound, and the
    same seed gives the same trace."""
    for seed, start in starts(scenario):
        for scope in (FULL, LIMITED, STROKE):
            for first in (None, *PATRIOTS_BOXES):
                options = OTHER if seed % 2 else PatriotOptions()
                turn = sound_turn(start, turn_of, start, seed, scope, first, options)
                if not scope.special_activity:
                    assert not any(isinstance(s.move, SpecialActivity) for s in turn.steps)
                commands = [s.move for s in turn.steps if isinstance(s.move, Command)]
                if scope.limited:
                    assert all(len(c.spaces) <= 1 for c in commands)
