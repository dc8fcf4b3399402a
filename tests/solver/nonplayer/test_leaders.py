"""8.1 Non-player Leader movement: the Leader follows the largest group of its
Faction's units moving from, or staying in, its space; ties at random."""

from __future__ import annotations

from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.commands import Command
from legalis.solver.nonplayer.british import british_command
from legalis.solver.nonplayer.flowchart import TurnContext, replay_turn
from legalis.solver.nonplayer.leaders import follow_largest_groups
from legalis.solver.nonplayer.patriots import march_box as patriots_march_box
from legalis.solver.nonplayer.trace import Trace


def virginia(continentals: int = 4) -> CoinState:
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 5)
    state.set_leader("Washington", "Virginia")
    state.move_pieces("Available", "Virginia", "continental", continentals)
    state.move_pieces("Available", "Virginia", "militia", 1)
    return state


def split(to_north_carolina: int, to_maryland: int) -> Command:
    moves = [("Virginia", "North Carolina", "continental", to_north_carolina)]
    if to_maryland:
        moves.append(("Virginia", "Maryland-Delaware", "continental", to_maryland))
    return Command("patriots", "march", ("Maryland-Delaware", "North Carolina"),
                   moves=tuple(sorted(moves)))  # fmt: skip


def test_the_leader_follows_the_largest_group() -> None:
    # 8.1: of 4 Continentals and a Militia, 3 go to North Carolina, 1 to
    # Maryland-Delaware, 1 Militia stays: Washington goes with the 3
    trace = Trace()
    move = follow_largest_groups(virginia(), split(3, 1), LoggedRandom(0), trace)
    assert move.leaders == (("Washington", "North Carolina"),)
    (step,) = [s for s in trace.steps if s.rule == "8.1"]
    assert step.chosen == "North Carolina"


def test_the_leader_stays_with_the_larger_group_left_behind() -> None:
    # 8.1 "moves from (or stays in)": 6 Continentals and a Militia, 2 leave: the 5
    # that stay are the largest group, so Washington stays and nothing is named
    move = follow_largest_groups(virginia(6), split(1, 1), LoggedRandom(0), Trace())
    assert move.leaders == ()


def test_groups_of_the_same_size_are_chosen_at_random() -> None:
    # 8.1: 2 and 2 leave, 1 Militia stays: North Carolina or Maryland-Delaware, at
    # random; over seeds both occur, each traced with its draw
    seen = set()
    for seed in range(20):
        rng = LoggedRandom(seed)
        move = follow_largest_groups(virginia(), split(2, 2), rng, Trace())
        ((_, destination),) = move.leaders
        seen.add(destination)
        assert rng.log == [
            ("randrange", ["Maryland-Delaware", "North Carolina"].index(destination))
        ]
    assert seen == {"Maryland-Delaware", "North Carolina"}


def test_a_played_factions_leader_is_its_own_choice() -> None:
    # 8.1 moves only Non-player Leaders
    move = follow_largest_groups(virginia(), split(3, 1), LoggedRandom(0), Trace(), ("patriots",))
    assert move.leaders == ()


def test_the_flowchart_moves_the_leader_with_its_command() -> None:
    # 8.1 in a whole turn: from the 1776 set-up the Non-player British Garrison
    # moves Howe with the largest group of Regulars leaving his space (1.10), and
    # the turn replays with him
    state = load_scenario("lod", "1776")
    context = TurnContext(state, "british", LoggedRandom(0))
    british_command(context)
    (command,) = [s.move for s in context.steps if isinstance(s.move, Command)]
    ((leader, destination),) = command.leaders
    assert leader == "Howe" and context.state.leader("Howe") == destination
    origin = state.leader("Howe")
    assert origin is not None
    groups = {
        d: sum(m[3] for m in command.moves if m[:2] == (origin, d)) for _, d, _, _ in command.moves
    }
    stay = (
        state.pieces(origin, "british_regular")
        + state.pieces(origin, "tory")
        - sum(m[3] for m in command.moves if m[0] == origin)
    )
    assert groups[destination] == max(groups.values()) >= stay
    assert replay_turn(state, context.finish()) == context.state


def test_washington_follows_the_patriot_march() -> None:
    # 8.1 Non-player Leader Movement applies to the Patriot March (8.5.4) as to every
    # Command: 3 of Washington's 4 Continentals March out of Virginia (one stays to
    # keep a unit in a space not at Active Opposition), and he goes with the 3
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 5)
    state.set_leader("Washington", "Virginia")
    state.move_pieces("Available", "Virginia", "continental", 4)
    state.move_pieces("Available", "North Carolina", "tory", 2)
    context = TurnContext(state, "patriots", LoggedRandom(0))
    patriots_march_box(context)
    (command,) = [s.move for s in context.steps if isinstance(s.move, Command)]
    ((start, destination, piece, n),) = command.moves
    assert (start, piece, n) == ("Virginia", "continental", 3)
    assert command.leaders == (("Washington", destination),)
    assert context.state.leader("Washington") == destination
    assert any(step.rule == "8.1" for step in context.trace.steps)
