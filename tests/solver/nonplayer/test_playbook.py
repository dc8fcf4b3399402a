"""The Playbook's Non-player examples of play, restated: each sets up the Medium
(1776) scenario with the changes the example names and runs the Faction's Command
flowchart. The example's dice are one draw among many, so every seed is checked
for what the example shows regardless of the dice, and the example's own outcome
must be among the outcomes the seeds reach. Example 1's card text is not bundled:
an original card with the same kind of effect stands in for it."""

from __future__ import annotations

from collections import Counter

from legalis.model.coin.deck import deck_from_toml
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.commands import Command
from legalis.model.lod.special import SpecialActivity
from legalis.solver.nonplayer.british import british_command
from legalis.solver.nonplayer.flowchart import TurnContext, replay_turn
from legalis.solver.nonplayer.indians import indians_command
from legalis.solver.nonplayer.trace import Trace
from legalis.solver.nonplayer.turn import (
    StrokeSituation,
    nonplayer_brilliant_stroke,
    nonplayer_turn,
    wants_brilliant_stroke,
)

SEEDS = range(300)


def medium() -> CoinState:
    return load_scenario("lod", "1776")


def british_turn(state: CoinState, seed: int) -> TurnContext:
    done = TurnContext(state, "british", LoggedRandom(seed))
    british_command(done)
    return done


def test_example_1_british_event_into_the_space_the_question_names() -> None:
    # 8.4 "Event or Command?": an Event placing Tories in an Active Opposition space
    # with none. Unshaded: Militia in one Colony become Tories. 8.3.5: played "due
    # to" that question, the Event takes the spaces matching it first: of the
    # Colonies with Militia, only Massachusetts is at Active Opposition without a
    # Tory, so every seed replaces Massachusetts' Militia there
    deck = deck_from_toml({"game": "lod", "card": [{
        "number": 28, "title": "Loyalists Rise on the Creek",
        "factions": ["British", "Patriots", "Indians", "French"],
        "unshaded": {
            "text": "Replace up to 2 Militia in one Colony with Tories.",
            "effects": [{"op": "replace", "pieces": ["militia"], "by": ["tory"],
                         "count": {"n": 2, "up_to": True},
                         "where": {"filter": {"is": "type", "types": ["Colony"]},
                                   "spaces": 1}}],
        },
    }]})  # fmt: skip
    state = medium()
    matching = [
        s for s in state.rules.spaces
        if state.support(s) == "active_opposition" and state.pieces(s, "militia")
        and not state.pieces(s, "tory")
    ]  # fmt: skip
    assert matching == ["Massachusetts"]
    for seed in range(20):
        decided = nonplayer_turn(state, deck.card(28), "british", LoggedRandom(seed))
        assert decided.choice == "event", seed
        assert decided.state.pieces("Massachusetts", "tory") == state.pieces(
            "Massachusetts", "militia"
        )
        assert decided.state.pieces("Massachusetts", "militia") == 0
        assert any("matching the question" in step.what for step in decided.trace.steps)


def test_example_2_garrison_with_naval_pressure() -> None:
    # 8.4.1: 12 British Regulars on the map and Philadelphia Rebellion Controlled
    # without a Patriot Fort: Garrison, its Naval Pressure first (FNI 0: +1D3).
    # Regulars able to leave: Quebec 1 (Population 0), New York City 4 (two stay for
    # "2 more Royalist than Rebel pieces" with the Fort), New York 2 (not at Active
    # Support, the last stays), Florida 1; none from Quebec City. Philadelphia (one
    # Militia) takes just enough, 2; New York City needs none; the other Cities at
    # random take just enough while Regulars last; the two cubes in Philadelphia
    # Activate no Militia. Garrison costs 2 (3.2.2). One unit is displaced from
    # Philadelphia or New York City (one Rebellion unit each: a tie) to New Jersey,
    # the lowest Population of the Neutral Provinces next to either.
    state = medium()
    playbook = {
        ("Quebec", "Philadelphia"),
        ("Florida", "Philadelphia"),
        ("New York", "Savannah"),
        ("New York City", "Charles Town"),
        ("New York", "Norfolk"),
    }
    seen = False
    for seed in SEEDS:
        done = british_turn(state, seed)
        naval, garrison = (step.move for step in done.steps)
        assert isinstance(naval, SpecialActivity) and naval.option == "resources"
        (d3,) = done.steps[0].dice
        assert isinstance(garrison, Command) and garrison.name == "garrison"
        sent: Counter[str] = Counter()
        received: Counter[str] = Counter()
        for origin, destination, _, n in garrison.moves:
            sent[origin] += n
            received[destination] += n
        after = done.state
        assert sent == {"Quebec": 1, "New York City": 4, "New York": 2, "Florida": 1}, seed
        # (a Regular left over by the random order reinforces it: Underground Militia)
        assert received["Philadelphia"] >= 2 and "New York City" not in received
        assert after.control("Philadelphia") == "british"
        if received["Philadelphia"] == 2:
            assert after.pieces("Philadelphia", "militia", "active") == 0
        assert after.track("british_resources") == 5 + d3 - 2
        assert garrison.displace in (
            ("Philadelphia", "New Jersey"),
            ("New York City", "New Jersey"),
        )
        # 8.1: Howe goes with the largest group leaving (or staying in) New York City
        groups = Counter({d: n for o, d, _, n in garrison.moves if o == "New York City"})
        groups["New York City"] = 2
        howe = after.leader("Howe")
        assert howe in groups and groups[howe] == max(groups.values())
        assert replay_turn(state, done.finish()) == after
        moved = {(o, d) for o, d, _, _ in garrison.moves}
        if moved == playbook and garrison.displace == ("Philadelphia", "New Jersey"):
            # the example's draw: four Regulars and Howe to Charles Town
            assert howe == "Charles Town" and after.control("Charles Town") == "british"
            seen = True
    assert seen


def test_example_3_muster_with_skirmish() -> None:
    # 8.4.2 without Philadelphia's Militia: no City to Garrison (Charles Town has a
    # Patriot Fort); 7 Available Regulars beat any D6: Muster in four spaces. Six
    # Regulars in a Neutral or Passive Population 2 space they bring under British
    # Control (Connecticut in the example); Tories where Regulars are the only
    # British cubes: there, then New York City; then to change most Control:
    # Pennsylvania (Population 2), then at random among the Population 1 spaces.
    # Opposition 5 against Support 3 + 1D3: Reward Loyalty only on a 1; else a Fort
    # in the Regulars' space (5+ British cubes), replacing two Regulars and a Tory
    # (8.1.2). Skirmish in New York (Muster spaces excluded): two Continentals and a
    # British Regular. Four spaces cost 4 of the 5 Resources.
    state = medium()
    state.move_pieces(
        "Philadelphia", "Available", "militia", state.pieces("Philadelphia", "militia")
    )
    seen = False
    for seed in SEEDS:
        done = british_turn(state, seed)
        muster, skirmish = (step.move for step in done.steps)
        assert isinstance(muster, Command) and muster.name == "muster" and len(muster.spaces) == 4
        (regulars_at,) = [p[0] for p in muster.placed if p[1] == "british_regular"]
        assert ("british_regular", 6) in [(p[1], p[2]) for p in muster.placed]
        assert state.rules.map.population(regulars_at) == 2
        assert state.support(regulars_at) in ("neutral", "passive_support", "passive_opposition")
        assert state.control(regulars_at) != "british" == done.state.control(regulars_at)
        tories = {p[0]: p[2] for p in muster.placed if p[1] == "tory"}
        assert tories[regulars_at] == 2 and tories["New York City"] == 2
        if regulars_at != "Pennsylvania":
            assert tories["Pennsylvania"] == 2
        rl = [t for t in done.trace.steps if "Reward Loyalty if Opposition" in t.what]
        (d3,) = rl[0].dice
        fort = (regulars_at, "british_fort", 1) in muster.placed
        assert fort == (d3 > 1)
        if fort:
            assert muster.removed == ((regulars_at, "british_regular", 2), (regulars_at, "tory", 1))
            assert done.state.track("british_resources") == 1
        assert isinstance(skirmish, SpecialActivity) and skirmish.spaces == ("New York",)
        assert skirmish.option == "two" and skirmish.removed == (("New York", "continental", 2),)
        assert replay_turn(state, done.finish()) == done.state
        if regulars_at == "Connecticut-Rhode Island" and "Boston" in muster.spaces and fort:
            assert tories["Boston"] == 1  # Passive Opposition: one Tory (3.2.1)
            seen = True
    assert seen


def stroke_board() -> CoinState:
    """Example 4's set-up: the Medium scenario without Philadelphia's Militia, the
    last Squadron in the West Indies, six French Regulars made Unavailable, then the
    Treaty of Alliance as played there (FNI 1, a Blockade on New York City, four
    French Regulars and Rochambeau in Charles Town, three French and three British
    Regulars to the West Indies), and a British Muster in Connecticut (four Regulars,
    a Tory, a Fort)."""
    state = medium()
    state.move_pieces(
        "Philadelphia", "Available", "militia", state.pieces("Philadelphia", "militia")
    )
    state.move_marker(
        "Unavailable", "West Indies", "blockade", state.markers("Unavailable", "blockade")
    )
    state.move_pieces("Available", "Unavailable", "french_regular", 6)
    state.set_flag("toa_played")
    state.set_track("fni", 1)
    state.move_marker("West Indies", "New York City", "blockade", 1)
    state.move_pieces("Unavailable", "Charles Town", "french_regular", 4)
    state.set_leader("Rochambeau", "Charles Town")
    state.move_pieces("Unavailable", "West Indies", "french_regular", 3)
    state.move_pieces("Unavailable", "West Indies", "british_regular", 3)
    for piece, n in (("british_regular", 4), ("tory", 1), ("british_fort", 1)):
        state.move_pieces("Available", "Connecticut-Rhode Island", piece, n)
    return state


def test_example_4_british_brilliant_stroke() -> None:
    # 8.4.11: the Treaty played, the Patriots (played) 1st Eligible, Howe with 4+
    # Regulars: the British play their Brilliant Stroke. 8.3.7: the first Limited
    # Command must be executed in or start from Howe's New York City: no Garrison
    # (Charles Town's Fort), Muster only on a D6 below the 3 Available Regulars,
    # no Battle (one Continental); so March: Blockaded New York City sends to an
    # adjacent space, and New Jersey lacks British Control: Howe leads five of the
    # six Regulars there (the last stays: Control, no Active Support). Its Special
    # Activity: no War Party for Common Cause; Skirmish in the West Indies first,
    # two French Regulars and a British one; Howe first lowers FNI, sending New York
    # City's Blockade to the West Indies (1.9). The second Limited Command follows
    # the flowchart again; on a Muster it goes to a Neutral or Passive Population 2
    # space adding British Control, three Regulars and two Tories, and Reward
    # Loyalty (Opposition 5 against Support 3 + 1D3) costs 1 per shift even free.
    state = stroke_board()
    assert state.total_support() == 1  # New York City Blockaded counts 0
    now = StrokeSituation(True, False, "patriots", players=("patriots", "french"))
    assert wants_brilliant_stroke(state, "british", now, Trace())
    seen = False
    for seed in range(60):
        done = nonplayer_brilliant_stroke(state, "british", LoggedRandom(seed),
                                          players=("patriots", "french"))  # fmt: skip
        assert done.passed is None
        musters = [t.dice[0] for t in done.trace.steps if t.what.startswith("Muster if below")]
        if musters[0] < 3:
            continue  # the Playbook's die (4) does not Muster first
        march, skirmish, *second = (step.move for step in done.steps)
        assert march == Command(
            "british", "march", ("New Jersey",),
            moves=(("New York City", "New Jersey", "british_regular", 5),),
            leaders=(("Howe", "New Jersey"),), limited=True, free=True,
        )  # fmt: skip
        assert isinstance(skirmish, SpecialActivity) and skirmish.spaces == ("West Indies",)
        assert skirmish.removed == (("West Indies", "french_regular", 2),)
        assert skirmish.howe_blockade == "New York City"
        (command,) = second
        assert isinstance(command, Command) and command.limited and command.free
        after = done.state
        assert after.track("fni") == 0 and after.markers("New York City", "blockade") == 0
        assert after.pieces("West Indies", "british_regular") == 2
        if command.name == "muster":
            (space,) = command.spaces
            placed = {p[1]: p[2] for p in command.placed}
            assert placed["british_regular"] == 3 and placed["tory"] == 2
            assert state.rules.map.population(space) == 2
            assert after.control(space) == "british"
            rl = [t.dice[0] for t in done.trace.steps if "Reward Loyalty if" in t.what]
            if rl[-1] == 1:
                shifts = placed["support_shift"]
                assert after.track("british_resources") == 5 - shifts
                if space == "Pennsylvania":
                    assert after.total_support() == 7  # 3 with New York City free, +4
                    seen = True
        assert replay_turn(state, done) == after
    assert seen


def test_example_5_scout_with_war_path() -> None:
    # 8.7 with one more War Party in each Indian Reserve (3 left Available) and 2
    # more Indian Resources. When Support 3 + 1D6 beats Opposition 5 and the Gather
    # D6 is not below 3, the Indians Scout (8.7.4): from New York one War Party with
    # two Regulars and a Tory (alternately, Regulars first: the most cubes keeping
    # British Control against three Continentals) into Massachusetts, to its Patriot
    # Fort; both sides pay 1. The British Regulars Skirmish there: a Continental and
    # the Activated Militia, and a Regular. Brant's group leaving equals the War
    # Party staying: he follows or stays at random (8.1). War Path (not at 0
    # Resources): the Fort needs two Underground War Parties, so a Militia in the
    # one space with a Village, Quebec.
    state = medium()
    board = state.rules.map
    for space in state.rules.spaces:
        if board.is_reserve(space):
            state.move_pieces("Available", space, "war_party", 1)
    state.set_track("indians_resources", state.track("indians_resources") + 2)
    brant = Counter()
    for seed in SEEDS:
        done = TurnContext(state, "indians", LoggedRandom(seed))
        indians_command(done)
        raid = [t.dice[0] for t in done.trace.steps if t.what.startswith("Raid if")]
        gather = [t.dice[0] for t in done.trace.steps if t.what.startswith("Gather if")]
        if not (3 + raid[0] > 5 and gather and gather[0] >= 3):
            continue
        scout, skirmish, war_path = (step.move for step in done.steps)
        assert isinstance(scout, Command) and scout.name == "scout"
        assert list(scout.moves) == [
            ("New York", "Massachusetts", "british_regular", 2),
            ("New York", "Massachusetts", "tory", 1),
            ("New York", "Massachusetts", "war_party:underground", 1),
        ]
        assert isinstance(skirmish, SpecialActivity) and skirmish.faction == "british"
        assert skirmish.removed == (
            ("Massachusetts", "continental", 1),
            ("Massachusetts", "militia:active", 1),
        )
        assert isinstance(war_path, SpecialActivity) and war_path.name == "war_path"
        assert war_path.spaces == ("Quebec",)
        after = done.state
        assert after.track("indians_resources") == 1 and after.track("british_resources") == 4
        assert after.pieces("Massachusetts", "patriot_fort") == 1
        brant[after.leader("Brant")] += 1
        assert replay_turn(state, done.finish()) == after
    assert set(brant) == {"New York", "Massachusetts"}
