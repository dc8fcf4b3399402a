"""Whole Non-player turns (8.1, 8.3-8.7): legal, replayable, and routed as the
opening paragraphs of 8.4-8.7 and 8.3.7 say."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from legalis.model.coin.deck import bundled_deck
from legalis.model.coin.scenarios import Scenario, load_scenario, scenario_info
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.commands import Command
from legalis.solver.nonplayer.flowchart import replay_turn
from legalis.solver.nonplayer.playout import PlayoutTurn, nonplayer_playout, random_commands
from legalis.solver.nonplayer.sequence import involves_leader
from legalis.solver.nonplayer.trace import Trace
from legalis.solver.nonplayer.turn import (
    StrokeSituation,
    nonplayer_brilliant_stroke,
    nonplayer_command,
    nonplayer_turn,
    wants_brilliant_stroke,
)

SCENARIOS = ("1775", "1776", "1778")
DECISIONS = 1000
PER_PLAYOUT = 25


def _playout_turns(scenario: str, seed: int, turns: int) -> list[PlayoutTurn]:
    return list(nonplayer_playout(scenario_info("lod", scenario), bundled_deck("lod").cards,
                                  LoggedRandom(seed), turns))  # fmt: skip


@pytest.mark.parametrize("chunk", range(DECISIONS // (PER_PLAYOUT * len(SCENARIOS)) + 1))
def test_seeded_decisions_are_legal_and_replay(chunk: int) -> None:
    """1,000 decisions from playouts of the three set-ups: every Command and Special
    Activity passes the legal-move checks when carried out again with the same dice,
    reaching the same state, and the same seed gives the same decision."""
    for scenario in SCENARIOS:
        for taken in _playout_turns(scenario, 1000 + chunk, PER_PLAYOUT):
            decided = taken.turn
            again = nonplayer_turn(taken.state, taken.card, taken.faction, LoggedRandom(taken.seed))
            assert again.to_json() == decided.to_json()
            assert again.state == decided.state
            if decided.turn is not None:
                assert replay_turn(taken.state, decided.turn) == decided.state
            assert decided.state.invariant_problems() == []


def test_without_resources_the_british_pass() -> None:
    # 8.4: "they execute a Command and Special Activity if British Resources exceed 0,
    # otherwise Pass"
    state = load_scenario("lod", "1775")
    state.set_track("british_resources", 0)
    turn = nonplayer_command(state, "british", LoggedRandom(0))
    assert turn.passed == "8.4: the british have no Resources" and turn.steps == []
    assert turn.state == state


def test_the_indians_act_without_resources() -> None:
    # 8.7: the Indians execute a Command and Special Activity (no Resource condition);
    # 1775 has War Parties in Reserve Provinces, where Gather and March cost nothing
    state = load_scenario("lod", "1775")
    assert state.track("indians_resources") == 0
    turn = nonplayer_command(state, "indians", LoggedRandom(0))
    assert turn.passed is None and turn.steps


def _stroke_board(faction: str, leader: str, piece: str, n: int) -> CoinState:
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_leader(leader, "Virginia")
    state.move_pieces("Available", "Virginia", piece, n)
    return state


@pytest.mark.parametrize(
    ("faction", "leader", "piece", "need", "trigger", "no_trigger"),
    [
        # 8.4.11: 4+ Regulars with the Leader; a Rebellion player 1st Eligible
        ("british", "Howe", "british_regular", 4,
         StrokeSituation(True, False, "patriots", players=("patriots",)),
         StrokeSituation(True, False, "indians", players=("indians",))),
        # 8.5.8: 4+ Continentals with Washington; a player 1st Eligible
        ("patriots", "Washington", "continental", 4,
         StrokeSituation(True, False, "indians", players=("indians",)),
         StrokeSituation(True, False, "indians")),
        # 8.6.11: 4+ French Regulars; or the British play their Brilliant Stroke
        ("french", "Rochambeau", "french_regular", 4,
         StrokeSituation(True, False, "indians", strokes_played=("british",)),
         StrokeSituation(True, False, "indians", strokes_played=("patriots",))),
        # 8.7.8: 3+ War Parties; or a Rebellion Brilliant Stroke other than the Treaty
        ("indians", "Brant", "war_party", 3,
         StrokeSituation(True, False, "british", strokes_played=("patriots",)),
         StrokeSituation(True, False, "british", strokes_played=("treaty",))),
    ],
)  # fmt: skip
def test_brilliant_stroke_conditions(
    faction: str, leader: str, piece: str, need: int,
    trigger: StrokeSituation, no_trigger: StrokeSituation,
) -> None:  # fmt: skip
    state = _stroke_board(faction, leader, piece, need)
    assert wants_brilliant_stroke(state, faction, trigger, Trace())
    assert not wants_brilliant_stroke(state, faction, no_trigger, Trace())
    short = _stroke_board(faction, leader, piece, need - 1)
    assert not wants_brilliant_stroke(short, faction, trigger, Trace())
    # 8.3.7: not while a Winter Quarters card is showing, nor before the Treaty
    showing = StrokeSituation(True, True, trigger.first_eligible, trigger.players,
                              trigger.strokes_played)  # fmt: skip
    assert not wants_brilliant_stroke(state, faction, showing, Trace())
    state.set_flag("toa_played", False)
    assert not wants_brilliant_stroke(state, faction, trigger, Trace())


def test_brilliant_stroke_aborted_when_the_first_command_leaves_the_leader_out() -> None:
    # 8.3.7: the first Limited Command must involve the Leader, else the play is aborted
    state = load_scenario("lod", "1775")
    state.set_flag("toa_played")
    state.set_leader("Gage", "Quebec")  # nothing British there to command
    turn = nonplayer_brilliant_stroke(state, "british", LoggedRandom(0))
    assert turn.passed == "8.3.7: the Brilliant Stroke is aborted" and turn.state == state


LEADERS = {"british": "Howe", "patriots": "Washington", "french": "Rochambeau",
           "indians": "Brant"}  # fmt: skip


@pytest.mark.parametrize("faction", sorted(LEADERS))
def test_brilliant_stroke_first_command_is_bound_to_the_leader(faction: str) -> None:
    # 8.3.7: "the first Limited Command that both matches the flowchart priorities
    # and can involve that Faction's Leader": from states of random legal play, the
    # Leader put in a space with its Faction's pieces, each Brilliant Stroke either
    # aborts or opens with a Command selecting the Leader's space or moving pieces
    # from it; the turn replays
    played = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = random_commands(load_scenario("lod", "1778"), rng, 6)
        state.set_flag("toa_played")
        held = [s for s in state.rules.spaces if state.faction_pieces(s, faction)]
        if not held:
            continue
        state.set_leader(LEADERS[faction], rng.choice(sorted(held)))
        turn = nonplayer_brilliant_stroke(state, faction, LoggedRandom(seed))
        commands = [s.move for s in turn.steps if isinstance(s.move, Command)]
        if turn.passed is None:
            assert involves_leader(state, faction, commands[0]), seed
            assert replay_turn(state, turn) == turn.state
            played += 1
        else:
            assert turn.passed.startswith("8.3.7") and turn.state == state
    assert played > 0


def test_playouts_play_winter_quarters_rounds_until_the_game_ends() -> None:
    # Deck Preparation: a pile of 10 Event cards per campaign with a Winter Quarters
    # card among its bottom four (2.3.7 plays it before the card it was switched
    # with); each runs a whole Winter Quarters Round (6.0); the game ends at a
    # Victory Check (6.1) or after the last Round's Support Phase (6.4.3)
    scenario = scenario_info("lod", "1778")
    years = scenario.details["campaigns"]
    for seed in range(3):
        taken = _playout_turns_of(scenario, seed)
        winters = [t.winter for t in taken if t.winter is not None]
        assert winters, seed
        for before, after in pairwise(taken):
            if after.winter is not None:
                # the Round starts where the last turn left the state, and leaves
                # every Faction Eligible: the next card's first Faction acts
                assert after.winter.state is after.state
                assert after.faction == scenario.state.rules.data.faction(after.card.factions[0]).id
                assert before.turn.state is not after.state
            else:
                assert after.state is before.turn.state
        for winter in winters:
            assert winter.outcome == "continue"
            assert any(line.startswith("6.7") for line in winter.log)
            assert winter.state.invariant_problems() == []
        assert len(winters) < len(years)  # the last Round ends the game: no turn after it


def _playout_turns_of(scenario: Scenario, seed: int) -> list[PlayoutTurn]:
    return list(nonplayer_playout(scenario, bundled_deck("lod").cards, LoggedRandom(seed), 10**6))


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [("1775", 44), ("1776", 142), ("1776", 432), ("1778", 72), ("1778", 106), ("1778", 159)],
)
def test_whole_games_reach_their_end(scenario: str, seed: int) -> None:
    # Whole playouts through their Winter Quarters Rounds, on seeds that reach rare
    # branches: a Raid whose rest meets a state its Plunder changed (4.1), a Leader
    # following part of a Raid (1.10), a Trade that cannot follow the first targets
    # (8.7.1: the Raid stops there), a British Muster Fort looked for among Muster
    # spaces that include the West Indies (8.4.2); every turn replays
    scenario_data = scenario_info("lod", scenario)
    taken = _playout_turns_of(scenario_data, seed)
    assert len(taken) > 20
    for turn in taken:
        if turn.turn.turn is not None:
            assert replay_turn(turn.state, turn.turn.turn) == turn.turn.state
