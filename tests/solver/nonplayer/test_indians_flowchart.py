"""The Non-player Indian Commands and Special Activities (8.7.1-8.7.4), the
Non-player British answer to Trade (8.4.6) and the Indians defending (8.7.9):
golden cases worked by hand from the paragraphs, each box's fall-through, and seeded
turns from the set-ups and from states reached by random legal play that are legal,
replay and repeat."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.command_base import Command
from legalis.model.lod.special import SpecialActivity
from legalis.solver.nonplayer.flowchart import Turn, TurnContext, replay_turn, run_boxes
from legalis.solver.nonplayer.indians import (
    INDIANS_BOXES,
    IndiansOptions,
    british_trade_offer,
    defending_activations,
    first_box,
    gather_box,
    gather_villages,
    indians_boxes,
    indians_command,
    march_box,
    raid_box,
    scout_box,
    scout_wanted,
    trade,
    war_path,
)
from legalis.solver.nonplayer.playout import random_commands
from legalis.solver.nonplayer.sequence import CommandScope
from legalis.solver.nonplayer.trace import Trace

UG = "war_party:underground"
ACTIVE = "war_party:active"
FULL = CommandScope(limited=False, special_activity=True, free=False)
LIMITED = CommandScope(limited=True, special_activity=False, free=True)
STROKE = CommandScope(limited=True, special_activity=True, free=True)  # 8.3.7, 2.3.8


def put(state: CoinState, space: str, piece: str, n: int, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def board(resources: int = 5, british: int = 0, patriots: int = 0) -> CoinState:
    state = CoinState.new("lod")
    state.set_track("indians_resources", resources)
    state.set_track("british_resources", british)
    state.set_track("patriots_resources", patriots)
    return state


def context(
    state: CoinState,
    seed: int = 0,
    scope: CommandScope = FULL,
    players: tuple[str, ...] = (),
) -> TurnContext:
    return TurnContext(state, "indians", LoggedRandom(seed), scope=scope, players=players)


def moves(done: TurnContext) -> list[Command | SpecialActivity]:
    return [step.move for step in done.steps]


def only(done: TurnContext, name: str) -> Command | SpecialActivity:
    (found,) = [move for move in moves(done) if move.name == name]
    return found


# ---------------------------------------------------------------------- which box first


def test_raid_first_when_support_and_a_die_do_not_exceed_opposition() -> None:
    # 8.7.1: Support 0 + 1D6 (at most 6) never exceeds Opposition 8: Raid, one die
    state = board()
    for colony in ("Virginia", "Massachusetts"):
        state.set_support(colony, "active_opposition")
    done = context(state)
    assert first_box(done) == "raid"
    assert len(done.rng.log) == 1 and done.trace.steps[0].rule == "8.7.1"
    # with Support 8 and no Opposition, never: on to the Gather sentence
    for colony in ("Virginia", "Massachusetts"):
        state.set_support(colony, "active_support")
    assert first_box(context(state)) == "gather"


def test_gather_first_when_it_would_place_two_villages() -> None:
    # 8.7.2: two spaces with room and 3 War Parties: Gather, no second die rolled
    state = board(1)
    state.set_support("Virginia", "active_support")  # Support: never Raid
    put(state, "Quebec", "war_party", 3)
    put(state, "Northwest", "war_party", 3)
    done = context(state)
    assert gather_villages(state) == 2
    assert first_box(done) == "gather" and len(done.rng.log) == 1
    # Cornplanter makes two War Parties enough (8.7.2)
    state = board(1)
    put(state, "Quebec", "war_party", 3)
    put(state, "Northwest", "war_party", 2)
    assert gather_villages(state) == 1
    state.set_leader("Cornplanter", "Northwest")
    assert gather_villages(state) == 2


def test_gather_when_the_die_is_below_the_available_war_parties() -> None:
    # 8.7.2: 15 War Parties Available: a D6 is always below: Gather (two dice)
    done = context(board())
    assert first_box(done) == "gather" and len(done.rng.log) == 2


def test_scout_or_march_when_no_gather() -> None:
    # 8.7.4 / 8.7.3: no War Party Available: the D6 is never below 0; a space with
    # British Regulars and a War Party: Scout, else March
    state = board()
    put(state, "Georgia", "war_party", 15)
    assert first_box(context(state)) == "march"
    put(state, "Georgia", "british_regular", 1)
    assert scout_wanted(state)
    assert first_box(context(state)) == "scout"


# ---------------------------------------------------------------------- 8.7.1 Raid


def raid_board(resources: int = 5) -> CoinState:
    """Pennsylvania and Maryland-Delaware (Population 2, no Rebellion piece) and
    Georgia (Population 1, its own Underground War Party) at Passive Opposition;
    Virginia (Population 2) at Active Opposition with 2 Militia and 1 Underground
    War Party; Northwest holds 3 Underground War Parties."""
    state = board(resources, patriots=5)
    for colony in ("Pennsylvania", "Maryland-Delaware", "Georgia"):
        state.set_support(colony, "passive_opposition")
    state.set_support("Virginia", "active_opposition")
    put(state, "Virginia", "militia", 2)
    put(state, "Virginia", "war_party", 1, "underground")
    put(state, "Georgia", "war_party", 1, "underground")
    put(state, "Northwest", "war_party", 3, "underground")
    return state


def test_raid_where_plunder_will_be_possible_first() -> None:
    # 8.7.1 first bullet: Plunder possible after the movement in Pennsylvania and
    # Maryland-Delaware (one War Party moves in against none) and Georgia (its own
    # against none): those three, Population 2 first; Virginia (2 War Parties
    # against 2 Militia after a move in) would come next but the limit is three.
    # Third bullet: Georgia has its own and outnumbers: nothing moves in there.
    # No Special Activity during the Raid: War Path after it, in Virginia (its
    # Underground War Party against 2 Militia: one Militia, Underground first)
    done = context(raid_board())
    assert raid_box(done) is None
    raid, path = moves(done)
    assert isinstance(raid, Command) and raid.name == "raid"
    assert raid.spaces == ("Georgia", "Maryland-Delaware", "Pennsylvania")
    assert raid.moves == (
        ("Northwest", "Maryland-Delaware", UG, 1),
        ("Northwest", "Pennsylvania", UG, 1),
    )
    selected = [s.chosen for s in done.trace.steps if s.what.startswith("Raid: Plunder")]
    assert selected[-1] == "Georgia"  # Population 1 after the two of Population 2
    assert isinstance(path, SpecialActivity) and path.name == "war_path"
    assert path.removed == (("Virginia", "militia:underground", 1),)
    assert done.state.track("indians_resources") == 2


def test_raid_moves_a_war_party_where_they_do_not_outnumber() -> None:
    # 8.7.1 third bullet: Virginia has an Underground War Party of its own but does
    # not outnumber its 2 Militia: one moves in from Northwest all the same
    state = raid_board()
    for colony in ("Pennsylvania", "Maryland-Delaware", "Georgia"):
        state.set_support(colony, "neutral")
    done = context(state)
    assert raid_box(done) is None
    raid = only(done, "raid")
    assert isinstance(raid, Command)
    assert raid.spaces == ("Virginia",) and raid.moves == (("Northwest", "Virginia", UG, 1),)


def test_raid_never_takes_the_last_war_party_of_a_village() -> None:
    # 8.7.1 second bullet: Northwest has a Village and one War Party: it cannot
    # send it, and Pennsylvania has none of its own: no Raid possible: Gather
    state = board()
    state.set_support("Pennsylvania", "passive_opposition")
    put(state, "Northwest", "village", 1)
    put(state, "Northwest", "war_party", 1, "underground")
    assert raid_box(context(state)) == "gather"
    put(state, "Northwest", "war_party", 1, "active")  # one more: the Underground one goes
    done = context(state)
    assert raid_box(done) is None
    assert only(done, "raid") == Command(
        "indians", "raid", ("Pennsylvania",), moves=(("Northwest", "Pennsylvania", UG, 1),)
    )


def test_raid_within_two_spaces_of_dragging_canoe() -> None:
    # 8.7.1: Pennsylvania is two Provinces from Dragging Canoe in Southwest: his
    # Underground War Party may Raid it
    state = board()
    state.set_support("Pennsylvania", "passive_opposition")
    put(state, "Southwest", "war_party", 1, "underground")
    assert raid_box(context(state)) == "gather"
    state.set_leader("Dragging Canoe", "Southwest")
    done = context(state)
    assert raid_box(done) is None
    raid = only(done, "raid")
    assert isinstance(raid, Command) and raid.moves == (("Southwest", "Pennsylvania", UG, 1),)


def test_raid_plunders_before_completing_when_resources_fall_to_zero() -> None:
    # 8.7.1: one Resource: South Carolina (Population 2, 2 Underground War Parties,
    # nobody else: Plunder possible) is paid for first and Resources fall to zero:
    # Plunder there (an Underground War Party, none being Active) brings 2 from the
    # Patriots, which pay for Virginia (2 Militia: Plunder not possible there, a War
    # Party moves in from Northwest). Plunder goes first: no War Path after.
    state = board(1, patriots=5)
    state.set_support("South Carolina", "passive_opposition")
    state.set_support("Virginia", "passive_opposition")
    put(state, "South Carolina", "war_party", 2, "underground")
    put(state, "Virginia", "militia", 2)
    put(state, "Northwest", "war_party", 1, "underground")
    done = context(state)
    assert raid_box(done) is None
    plunder, raid = moves(done)
    assert isinstance(raid, Command)
    assert raid.spaces == ("South Carolina", "Virginia")
    assert raid.moves == (("Northwest", "Virginia", UG, 1),)
    assert plunder == SpecialActivity(
        "indians", "plunder", raid, ("South Carolina",), removed=(("South Carolina", UG, 1),)
    )
    assert done.state.track("indians_resources") == 1  # 1 - 1 + 2 - 1
    assert done.state.track("patriots_resources") == 3


def test_raid_plunder_after_the_movement_pays_for_the_next_target() -> None:
    # 8.7.1: one Resource; Pennsylvania and Maryland-Delaware (Population 2) each
    # need a War Party moved in from Northwest for Plunder. The first one paid for
    # leaves Resources at zero: Plunder there is possible only once the Raid has
    # moved the War Party in, so that target is carried out, then Plunder (the
    # Active War Party removed) brings 2, then the Raid goes on into the other
    # target with Northwest's second War Party (4.1: "during" the Command)
    state = board(1, patriots=5)
    for colony in ("Pennsylvania", "Maryland-Delaware"):
        state.set_support(colony, "passive_opposition")
    put(state, "Northwest", "war_party", 2, "underground")
    done = context(state)
    assert raid_box(done) is None
    (step,) = done.steps
    raid, plunder = step.move, step.during
    assert isinstance(raid, Command) and raid.spaces == ("Maryland-Delaware", "Pennsylvania")
    assert isinstance(plunder, SpecialActivity) and plunder.name == "plunder"
    (space,) = step.before
    assert raid.moves == tuple(sorted(("Northwest", s, UG, 1) for s in raid.spaces))
    assert plunder.removed == ((space, ACTIVE, 1),)
    assert plunder.command == raid and step.to_json()["during"]["before"] == [space]
    assert done.state.track("indians_resources") == 1  # 1 - 1 + 2 - 1
    assert done.state.track("patriots_resources") == 3
    assert done.state.pieces("Northwest", "war_party") == 0
    assert replay_turn(state, done.finish()) == done.state


def trade_raid_board() -> CoinState:
    """One Resource; Virginia (2 Militia) needs Northwest's War Party: no Plunder;
    Quebec has a Village and 2 Underground War Parties: Trade."""
    state = board(1, british=6)
    state.set_support("Virginia", "passive_opposition")
    put(state, "Virginia", "militia", 2)
    put(state, "Northwest", "war_party", 1, "underground")
    put(state, "Quebec", "village", 1)
    put(state, "Quebec", "war_party", 2, "underground")
    return state


def test_raid_trades_when_plunder_is_not_possible() -> None:
    # 8.7.1: Resources fall to zero paying for Virginia, where War Parties will not
    # outnumber the Militia: Trade in Quebec, before the Raid is complete; the
    # Non-player British answer by 8.4.6: Indians 0 below British 6, the die
    # (below 6) halved up, or nothing (a 6) and the Indians take 1
    done = context(trade_raid_board())
    assert raid_box(done) is None
    trade_move, raid = moves(done)
    assert isinstance(trade_move, SpecialActivity) and trade_move.name == "trade"
    assert isinstance(raid, Command) and raid.spaces == ("Virginia",)
    (offer,) = [s for s in done.trace.steps if s.rule == "8.4.6"]
    (face,) = offer.dice
    expected = (face + 1) // 2 if face < 6 else 0
    assert trade_move.spaces == ("Quebec",) and trade_move.amount == expected
    assert done.state.track("indians_resources") == max(expected, 1)
    # a British player: the request is theirs to answer (0 by default: +1)
    done = context(trade_raid_board(), players=("british",))
    assert raid_box(done) is None
    trade_move = only(done, "trade")
    assert isinstance(trade_move, SpecialActivity) and trade_move.amount == 0
    assert not [s for s in done.trace.steps if s.rule == "8.4.6"]


def test_raid_trade_after_when_no_war_path() -> None:
    # 8.7.1: Resources do not fall to zero; no War Path possible after the Raid
    # (no Underground War Party with Rebellion pieces): Trade in Quebec
    state = trade_raid_board()
    state.set_track("indians_resources", 3)
    done = context(state, players=("british",))
    assert raid_box(done) is None
    raid, trade_move = moves(done)
    assert raid.name == "raid" and trade_move.name == "trade"
    assert isinstance(trade_move, SpecialActivity) and trade_move.spaces == ("Quebec",)


def test_raid_if_none_gathers() -> None:
    # 8.7.1: no Colony at Opposition, or no Resources to pay (8.1): Gather
    assert raid_box(context(board())) == "gather"
    state = raid_board(0)
    assert raid_box(context(state)) == "gather"
    # free (a Brilliant Stroke's Limited Command): one space and, Resources being
    # 0, Trade is looked for before War Path (none: War Path)
    done = context(state, scope=STROKE)
    assert raid_box(done) is None
    raid, path = moves(done)
    assert isinstance(raid, Command) and len(raid.spaces) == 1 and raid.limited
    assert path.name == "war_path"
    assert any(s.what.startswith("War Path with no Indian Resources") for s in done.trace.steps)


def test_limited_raid_has_no_special_activity() -> None:
    # 8.1: a free Limited Command: one space, no Special Activity
    done = context(raid_board(), scope=LIMITED)
    assert raid_box(done) is None
    (raid,) = moves(done)
    assert isinstance(raid, Command) and len(raid.spaces) == 1


# ---------------------------------------------------------------------- 8.7.2 Gather


def test_gather_villages_the_leaders_space_first() -> None:
    # 8.7.2 first bullet: Brant's Northwest (3 Underground) first, free as the first
    # Reserve; then Quebec (1 Active, 2 Underground: the Active one goes first) for
    # the one Resource. No Village was there before (second bullet: none); the third
    # bullet's spaces cannot be paid for; War Parties are still Available (no fourth).
    # Then War Path (no Rebellion piece: impossible) with no Resources: Trade,
    # the British (0 Resources) offering nothing: +1
    state = board(1)
    state.set_leader("Brant", "Northwest")
    put(state, "Northwest", "war_party", 3, "underground")
    put(state, "Quebec", "war_party", 1, "active")
    put(state, "Quebec", "war_party", 2, "underground")
    done = context(state)
    assert gather_box(done) is None
    gather, trade_move = moves(done)
    assert gather == Command(
        "indians",
        "gather",
        ("Northwest", "Quebec"),
        placed=(("Northwest", "village", 1), ("Quebec", "village", 1)),
        removed=(("Northwest", UG, 2), ("Quebec", ACTIVE, 1), ("Quebec", UG, 1)),
    )
    villages = [s.chosen for s in done.trace.steps if s.what.startswith("Village")]
    assert villages == ["Northwest", "Quebec"]
    assert isinstance(trade_move, SpecialActivity) and trade_move.name == "trade"
    assert trade_move.amount == 0 and done.state.track("indians_resources") == 1


def village_board(resources: int) -> CoinState:
    """Villages in Quebec (an Underground War Party), Northwest (one Underground
    War Party and a Militia) and Southwest (one Active War Party)."""
    state = board(resources)
    put(state, "Quebec", "village", 1)
    put(state, "Quebec", "war_party", 1, "underground")
    put(state, "Northwest", "village", 1)
    put(state, "Northwest", "war_party", 1, "underground")
    put(state, "Northwest", "militia", 1)
    put(state, "Southwest", "village", 1)
    put(state, "Southwest", "war_party", 1, "active")
    return state


def test_gather_war_parties_at_villages_in_order() -> None:
    # 8.7.2 second bullet: enemy pieces first (Northwest), then no Underground War
    # Party (Southwest); two War Parties each (one Village + 1). With no Resources,
    # only the free first Reserve: Northwest alone.
    done = context(village_board(0))
    assert gather_box(done) is None
    assert moves(done)[0] == Command(
        "indians", "gather", ("Northwest",), placed=(("Northwest", "war_party", 2),)
    )
    done = context(village_board(1))
    assert gather_box(done) is None
    assert moves(done)[0] == Command(
        "indians",
        "gather",
        ("Northwest", "Southwest"),
        placed=(("Northwest", "war_party", 2), ("Southwest", "war_party", 2)),
    )
    # then no Resources left: Trade before War Path, in Northwest (3 Underground)
    trade_move = moves(done)[1]
    assert isinstance(trade_move, SpecialActivity) and trade_move.name == "trade"
    assert trade_move.spaces == ("Northwest",)


def test_gather_war_parties_where_villages_may_grow() -> None:
    # 8.7.2 third bullet: a Village Available: one War Party in each of two spaces
    # with room, where two are first (Quebec), then where one is (Northwest)
    state = board(5)
    put(state, "Quebec", "war_party", 2, "underground")
    put(state, "Northwest", "war_party", 1, "underground")
    done = context(state)
    assert gather_box(done) is None
    assert moves(done)[0] == Command(
        "indians",
        "gather",
        ("Northwest", "Quebec"),
        placed=(("Northwest", "war_party", 1), ("Quebec", "war_party", 1)),
    )
    assert done.state.track("indians_resources") == 4  # one Reserve free


def test_gather_moves_active_war_parties_in_when_none_is_available() -> None:
    # 8.7.2 fourth bullet: no War Party Available (11 in Georgia, at Active Support:
    # no Gather there): Quebec's Village takes New York's 2 Active War Parties, not
    # Northwest's (leaving would give its 2 Militia Rebellion Control), and they go
    # Underground. No Resources after: Trade there (+1).
    state = board(0)
    put(state, "Quebec", "village", 1)
    put(state, "New York", "war_party", 2, "active")
    put(state, "Northwest", "war_party", 2, "active")
    put(state, "Northwest", "militia", 2)
    state.set_support("Georgia", "active_support")
    put(state, "Georgia", "war_party", 11)
    done = context(state)
    assert gather_box(done) is None
    gather, trade_move = moves(done)
    assert gather == Command(
        "indians", "gather", ("Quebec",), moves=(("New York", "Quebec", ACTIVE, 2),)
    )
    assert trade_move.name == "trade"
    assert done.state.pieces("Quebec", "war_party", "active") == 1  # the Trade's
    assert done.state.pieces("Quebec", "war_party", "underground") == 1


def test_gather_if_none_marches_and_then_passes() -> None:
    # 8.7.2 IF NONE: no War Party Available, no Village: no Gather: March; no March
    # either (Georgia is no Reserve and the Indians have no Resources): Pass
    state = board(0)
    state.set_support("Georgia", "active_support")
    put(state, "Georgia", "war_party", 15)
    done = context(state)
    assert gather_box(done) == "march"
    assert march_box(context(state)) == "gather"
    run_boxes(done, INDIANS_BOXES, "gather")
    assert done.passed is not None and done.steps == []


# ---------------------------------------------------------------------- 8.7.3 March


def test_march_three_war_parties_to_a_village_site() -> None:
    # 8.7.3 second bullet: Northwest (one War Party) is the only Neutral space with
    # room that can reach 3: Quebec's Underground War Party first, then Southwest's
    # Active one; free (entered only from Reserves). No Rebellion Control anywhere;
    # no War Path or Trade possible after.
    state = board(1)
    put(state, "Northwest", "war_party", 1, "underground")
    put(state, "Quebec", "war_party", 1, "underground")
    put(state, "Southwest", "war_party", 1, "active")
    done = context(state)
    assert march_box(done) is None
    assert moves(done) == [
        Command(
            "indians",
            "march",
            ("Northwest",),
            moves=(("Quebec", "Northwest", UG, 1), ("Southwest", "Northwest", ACTIVE, 1)),
        )
    ]
    assert done.state.track("indians_resources") == 1


def test_march_to_remove_rebellion_control_within_the_limits() -> None:
    # 8.7.3: Virginia is Rebellion Controlled by 2 Militia: 2 War Parties remove it.
    # Northwest (4, where Gather could place a Village) keeps its last 3: one goes;
    # Southwest's one is the last of a Village space; North Carolina's would leave
    # its Militia in Control; Maryland-Delaware's Active one goes. Underground first.
    state = board(2)
    put(state, "Virginia", "militia", 2)
    put(state, "Northwest", "war_party", 4, "underground")
    put(state, "Southwest", "village", 1)
    put(state, "Southwest", "war_party", 1, "active")
    put(state, "North Carolina", "war_party", 1, "underground")
    put(state, "North Carolina", "militia", 1)
    put(state, "Maryland-Delaware", "war_party", 1, "active")
    done = context(state)
    assert march_box(done) is None
    march = moves(done)[0]
    assert march == Command(
        "indians",
        "march",
        ("Virginia",),
        moves=(("Maryland-Delaware", "Virginia", ACTIVE, 1), ("Northwest", "Virginia", UG, 1)),
    )
    assert done.state.control("Virginia") is None
    # then War Path, one Militia in Virginia or North Carolina (ties by 8.2)
    path = moves(done)[1]
    assert isinstance(path, SpecialActivity) and path.name == "war_path"
    assert path.spaces[0] in ("Virginia", "North Carolina")


def test_march_last_three_read_by_the_gather_rule() -> None:
    # 8.7.3 with village_site_by_command=False: a space with 2 War Parties is no
    # Village site for the Non-player Gather (it needs 3): both may leave
    state = board(2)
    put(state, "Virginia", "militia", 2)
    put(state, "Northwest", "war_party", 2, "underground")
    assert march_box(context(state)) == "gather"
    done = context(state)
    assert march_box(done, IndiansOptions(village_site_by_command=False)) is None
    assert moves(done)[0] == Command(
        "indians", "march", ("Virginia",), moves=(("Northwest", "Virginia", UG, 2),)
    )


# ---------------------------------------------------------------------- 8.7.4 Scout


def scout_board() -> CoinState:
    """New York: 3 Regulars, 2 Tories, an Active and an Underground War Party."""
    state = board(2, british=3)
    put(state, "New York", "british_regular", 3)
    put(state, "New York", "tory", 2)
    put(state, "New York", "war_party", 1, "active")
    put(state, "New York", "war_party", 1, "underground")
    return state


def test_scout_to_a_patriot_fort_first() -> None:
    # 8.7.4: Pennsylvania's Patriot Fort before Massachusetts' Village with a
    # Militia. The most cubes keeping British Control of New York: 4 (a British
    # piece must stay), taken alternately from the Regulars (3, the more), as the
    # Playbook's Scout example does: 2 Regulars and 2 Tories; the Active War Party.
    # The Skirmish removes the Fort (a Regular lost). No War Path or Trade after.
    state = scout_board()
    put(state, "Pennsylvania", "patriot_fort", 1)
    put(state, "Massachusetts", "village", 1)
    put(state, "Massachusetts", "militia", 1)
    done = context(state)
    assert scout_box(done) is None
    scout, skirmish = moves(done)
    assert scout == Command(
        "indians",
        "scout",
        ("Pennsylvania",),
        moves=(
            ("New York", "Pennsylvania", "british_regular", 2),
            ("New York", "Pennsylvania", "tory", 2),
            ("New York", "Pennsylvania", ACTIVE, 1),
        ),
    )
    assert isinstance(skirmish, SpecialActivity) and skirmish.faction == "british"
    assert skirmish.option == "fort" and skirmish.removed == (("Pennsylvania", "patriot_fort", 1),)
    assert done.state.pieces("Pennsylvania", "british_regular") == 1
    assert done.state.track("british_resources") == 2 and done.state.track("indians_resources") == 1
    # the other reading: as many Regulars as possible, 3 and a Tory
    done = context(state)
    assert scout_box(done, IndiansOptions(scout_cubes="regulars_first")) is None
    assert moves(done)[0].moves[0] == ("New York", "Pennsylvania", "british_regular", 3)


def test_scout_to_a_village_with_enemies_and_skirmish_the_most() -> None:
    # 8.7.4: no Patriot Fort: Massachusetts' Village with 2 Militia and a
    # Continental; the Scout Activates the Militia; the Skirmish removes two pieces,
    # Militia first (8.1.2), a Regular lost. No War Path after (the War Party that
    # moved in is Active) and no Trade (no Underground War Party at a Village).
    state = scout_board()
    put(state, "Massachusetts", "village", 1)
    put(state, "Massachusetts", "militia", 2)
    put(state, "Massachusetts", "continental", 1)
    done = context(state)
    assert scout_box(done) is None
    scout, skirmish = moves(done)
    assert isinstance(scout, Command) and scout.spaces == ("Massachusetts",)
    assert isinstance(skirmish, SpecialActivity)
    assert skirmish.option == "two"
    assert skirmish.removed == (("Massachusetts", "militia:active", 2),)
    assert done.state.pieces("Massachusetts", "continental") == 1
    assert done.state.pieces("Massachusetts", "british_regular") == 1


def test_scout_skirmish_is_followed_by_war_path() -> None:
    # 8.7.4: after the Scout (and its Skirmish), War Path: here in Pennsylvania
    # where an Underground War Party faces a Militia
    state = scout_board()
    put(state, "New Jersey", "patriot_fort", 1)
    put(state, "Pennsylvania", "war_party", 1, "underground")
    put(state, "Pennsylvania", "militia", 1)
    done = context(state)
    assert scout_box(done) is None
    names = [(move.faction, move.name) for move in moves(done)]
    assert names == [("indians", "scout"), ("british", "skirmish"), ("indians", "war_path")]


def test_war_path_with_no_resources_when_trade_is_not_possible() -> None:
    # 8.7.1 WAR PATH "If Indian Resources are 0, execute Trade instead if possible.
    # Otherwise ..." (war_path_when_broke): the Scout spends the last Indian
    # Resource and no Underground War Party stands at a Village, so no Trade. By
    # default War Path follows (Pennsylvania); with False no Special Activity
    state = scout_board()
    put(state, "New Jersey", "patriot_fort", 1)
    put(state, "Pennsylvania", "war_party", 1, "underground")
    put(state, "Pennsylvania", "militia", 1)
    state.set_track("indians_resources", 1)
    done = context(state)
    assert scout_box(done, IndiansOptions()) is None
    assert done.state.track("indians_resources") == 0
    assert [m.name for m in moves(done)] == ["scout", "skirmish", "war_path"]
    done = context(state)
    assert scout_box(done, IndiansOptions(war_path_when_broke=False)) is None
    assert [m.name for m in moves(done)] == ["scout", "skirmish"]


def test_scout_to_remove_rebellion_control() -> None:
    # 8.7.4 third priority: New Jersey is Rebellion Controlled by 2 Militia; 3
    # Regulars, a Tory and a War Party end it (other destinations: no priority)
    state = scout_board()
    put(state, "New Jersey", "militia", 2)
    done = context(state)
    assert scout_box(done) is None
    scout = moves(done)[0]
    assert isinstance(scout, Command) and scout.spaces == ("New Jersey",)
    assert done.state.control("New Jersey") == "british"


def test_scout_if_none_or_unpaid_marches() -> None:
    # 8.7.4 IF NONE: no priority met and scout_anywhere off: March; 8.1: the British
    # cannot pay their Resource: March
    assert scout_box(context(scout_board()), IndiansOptions(scout_anywhere=False)) == "march"
    done = context(scout_board())
    assert scout_box(done) is None  # anywhere, by default
    state = scout_board()
    state.set_track("british_resources", 0)
    assert scout_box(context(state)) == "march"
    # the Regulars cannot leave without losing British Control: no Scout move
    state = board(2, british=3)
    put(state, "New York", "british_regular", 1)
    put(state, "New York", "war_party", 1, "active")
    put(state, "New York", "militia", 1)
    assert scout_box(context(state)) == "march"


# ---------------------------------------------------------------------- Special Activities


def test_war_path_patriot_fort_first_then_most_pieces_at_a_village() -> None:
    # 8.7.1 WAR PATH: a Patriot Fort (Georgia) before two Militia (South Carolina)
    state = board()
    put(state, "Georgia", "war_party", 2, "underground")
    put(state, "Georgia", "patriot_fort", 1)
    put(state, "South Carolina", "war_party", 2, "underground")
    put(state, "South Carolina", "militia", 2)
    move = war_path(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "fort" and move.spaces == ("Georgia",)
    # without the Fort: two Militia; a Village space first among equals
    state.move_pieces("Georgia", "Available", "patriot_fort", 1)
    put(state, "Georgia", "militia", 2)
    put(state, "Georgia", "village", 1)
    move = war_path(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.option == "two" and move.spaces == ("Georgia",)
    assert move.removed == (("Georgia", "militia:underground", 2),)


def test_war_path_with_brant_removes_one_more() -> None:
    # 8.7.1 WAR PATH: with Brant one more Militia: three pieces in Virginia beat two
    # in Georgia
    state = board()
    put(state, "Georgia", "war_party", 2, "underground")
    put(state, "Georgia", "continental", 2)
    put(state, "Virginia", "war_party", 2, "underground")
    put(state, "Virginia", "militia", 1)
    put(state, "Virginia", "continental", 2)
    state.set_leader("Brant", "Virginia")
    move = war_path(state, None, LoggedRandom(0), Trace())
    assert move is not None and move.spaces == ("Virginia",)
    assert sum(n for _, _, n in move.removed) == 3


def test_trade_at_the_village_with_most_underground() -> None:
    # 8.7.1 TRADE: Quebec (2 Underground) before Northwest (1)
    state = board()
    for space, n in (("Quebec", 2), ("Northwest", 1)):
        put(state, space, "village", 1)
        put(state, space, "war_party", n, "underground")
    move = trade(state, None, LoggedRandom(0), Trace(), british_is_player=True)
    assert move is not None and move.spaces == ("Quebec",) and move.amount == 0
    offered = IndiansOptions(player_trade_offer=3)
    state.set_track("british_resources", 2)
    move = trade(state, None, LoggedRandom(0), Trace(), british_is_player=True, options=offered)
    assert move is not None and move.amount == 2  # no more than the British have


def face(seed: int) -> int:
    return LoggedRandom(seed).randrange(6) + 1


def test_british_trade_offer() -> None:
    # 8.4.6: Indians below British: 1D6; below British Resources: half, rounded up
    state = board(1, british=5)
    for seed in range(12):
        rolled = face(seed)
        trace = Trace()
        offer = british_trade_offer(state, LoggedRandom(seed), trace)
        assert offer == ((rolled + 1) // 2 if rolled < 5 else 0)
        assert trace.steps[0].dice == (rolled,)
    # Indians not below British: no die, nothing
    state.set_track("indians_resources", 5)
    rng = LoggedRandom(0)
    assert british_trade_offer(state, rng, Trace()) == 0 and rng.log == []


def test_defending_activations() -> None:
    # 8.7.9: all but one Underground War Party where a Village is; else none
    state = board()
    put(state, "Quebec", "war_party", 3, "underground")
    put(state, "Quebec", "war_party", 2, "active")
    assert defending_activations(state, "Quebec") == 0
    put(state, "Quebec", "village", 1)
    assert defending_activations(state, "Quebec") == 2
    assert defending_activations(state, "Northwest") == 0


# ---------------------------------------------------------------------- the flowchart


def test_flowchart_reads_the_british_player_from_the_context() -> None:
    # 8.7.1 TRADE: with the British played, 8.4.6 is not rolled
    done = context(trade_raid_board(), players=("british",))
    run_boxes(done, INDIANS_BOXES, "raid")
    assert not [s for s in done.trace.steps if s.rule == "8.4.6"]
    done = context(trade_raid_board())
    run_boxes(done, indians_boxes(british_is_player=True), "raid")
    assert not [s for s in done.trace.steps if s.rule == "8.4.6"]


SCENARIOS = ("1775", "1776", "1778")
SEEDS = 10


def starts(scenario: str) -> list[tuple[int, CoinState]]:
    """The set-up and states reached from it by random legal play, with some
    Resources and Opposition (so that Raids come up)."""
    found = [(0, load_scenario("lod", scenario))]
    for seed in range(1, SEEDS):
        rng = random.Random(seed)
        state = random_commands(load_scenario("lod", scenario), rng, rng.randint(4, 14))
        state.set_track("indians_resources", rng.randint(0, 5))
        state.set_track("british_resources", rng.randint(0, 8))
        state.set_track("patriots_resources", rng.randint(0, 8))
        for colony in rng.sample(sorted(state.rules.map.of_type("Colony")), 3):
            state.set_support(colony, rng.choice(("passive_opposition", "active_opposition")))
        found.append((seed, state))
    return found


def turn_of(start: CoinState, seed: int, scope: CommandScope, first: str | None) -> TurnContext:
    players = ("british",) if seed % 3 == 0 else ()
    done = context(start, seed, scope, players)
    if first is None:
        indians_command(done)
    else:
        run_boxes(done, INDIANS_BOXES, first)
    return done


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_seeded_turns_are_legal_replay_and_repeat(
    scenario: str, sound_turn: Callable[..., Turn]
) -> None:
    """From the set-up and from states reached by random legal play, the flowchart
    and each box (full, as a free Limited Command, as a Brilliant Stroke's) make
    only legal moves (the context checks each), replay to the same state, keep the
    state sound, and the same seed gives the same trace."""
    for seed, start in starts(scenario):
        for scope in (FULL, LIMITED, STROKE):
            for first in (None, *INDIANS_BOXES):
                turn = sound_turn(start, turn_of, start, seed, scope, first)
                indian = [s for s in turn.steps if s.move.faction == "indians"]
                specials = [s for s in indian if isinstance(s.move, SpecialActivity)]
                assert len(specials) <= (1 if scope.special_activity else 0)
                if scope.limited:
                    commands = [s.move for s in indian if isinstance(s.move, Command)]
                    assert all(len(move.spaces) <= 1 for move in commands)
