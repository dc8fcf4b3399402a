"""Random simulation of whole LoD games, in the manner of OpenSpiel's game tests.

Whole games on every scenario, with Non-player seats (section 8), random seats and
mixes of both: after every move the state's invariants hold, the state round-trips
through JSON (also as text), a copy equals it, and the move made was among the
legal moves before it; at sampled decisions the view counts what it lists and
answers ``in`` for what it lists; a finished game has no legal moves; the log of
the game replays to the same state and result; and no Non-player seat had to fall
back on a random move because the game refused its plan (the flowcharts and the
model agree).

Random seats make long games: their games stop after a number of moves, still
checked at every move. Every all-Non-player game here finishes.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import SolverLimitError
from legalis.solver.gamelog import log_lines, parse_log, replay
from legalis.solver.lodgame.game import LodGame
from legalis.solver.lodgame.seats import NonplayerSeat
from legalis.solver.lodgame.state import LodState
from legalis.solver.players import Player, RandomPlayer
from legalis.solver.playout import GameRecord

FACTIONS = LodGame.players
SAMPLED_VIEW = 400  # a decision with at most this many moves is listed whole
SAMPLE_EVERY = 7  # ... every so many decisions
UNCAPPED = 100_000

# (seats in Faction order: n Non-player, r random; scenario; seed; moves at most)
GAMES = [
    ("nnnn", "1775", 1, UNCAPPED),
    ("nnnn", "1776", 2, UNCAPPED),
    ("nnnn", "1778", 2, UNCAPPED),
    ("rnnr", "1775", 2, UNCAPPED),  # the Royalists random, the Rebellion Non-players
    ("nrrn", "1775", 1, 120),  # the Rebellion random, the Royalists Non-players
    ("nrrn", "1776", 0, 120),
    ("rrrr", "1776", 1, 60),
    ("rrrr", "1778", 1, 60),
]


def seats_for(mix: str, scenario: str) -> tuple[LodGame, dict[str, Player]]:
    nonplayers = [f for f, kind in zip(FACTIONS, mix, strict=True) if kind == "n"]
    # the option lists exactly the Factions the Non-player rules play (8.0)
    game = LodGame({"scenario": scenario, "nonplayers": nonplayers})
    assert game.options.nonplayers == tuple(nonplayers)
    seats: dict[str, Player] = {
        f: game.nonplayer_seat(f) if kind == "n" else RandomPlayer()
        for f, kind in zip(FACTIONS, mix, strict=True)
    }
    return game, seats


def check_view(state: LodState, rng: LoggedRandom) -> None:
    """The view lists what it counts, and each listed move is ``in`` it."""
    view = state.legal_moves()
    try:
        count = view.count()
    except SolverLimitError:  # too many to sift: not counted, but drawn (listing the
        # first few could walk millions of moves that a narrowing leaves out)
        picks = [view.random(rng) for _ in range(3)]
        assert all(move in view for move in picks)
        return
    assert count > 0, "a decision with no move"
    if count <= SAMPLED_VIEW:
        listed = list(view)
        assert len(listed) == count == sum(1 for _ in view)
        assert len(set(listed)) == count, "a move listed twice"
    for _ in range(3):
        move = view.nth(rng.randrange(count))
        assert move in view
        assert view.refusal(move) is None


def check_state(game: LodGame, state: LodState) -> None:
    assert state.invariant_problems() == []
    written = state.to_json()
    assert game.state_from_json(written) == state
    assert game.state_from_json(json.loads(json.dumps(written))) == state
    clone = state.copy()
    assert clone == state and clone.coin is not state.coin


def play(
    mix: str, scenario: str, seed: int, cap: int
) -> tuple[LodGame, GameRecord, dict[str, Player]]:
    game, seats = seats_for(mix, scenario)
    rng = LoggedRandom(seed)
    checks = LoggedRandom(seed + 1)
    state = game.new_initial_state()
    record = GameRecord(
        game="lod",
        seed=seed,
        options=game.options.to_json(),
        players={f: s.name for f, s in seats.items()},
    )
    decisions = 0
    check_state(game, state)
    while not state.is_over and len(record.moves) < cap:
        by = state.to_move
        if state.is_chance:
            move = state.sample_chance(rng)
        else:
            decisions += 1
            if decisions % SAMPLE_EVERY == 0:
                check_view(state, checks)
            move = seats[by].choose(state, rng)
            assert move in state.legal_moves(), (by, move)
        record.moves.append((by, move))
        state.play(move)
        check_state(game, state)
    record.decisions = decisions
    record.result = game.result_of(state)
    record.final_state = state
    return game, record, seats


@pytest.mark.parametrize(
    ("mix", "scenario", "seed", "cap"), GAMES, ids=[f"{m}-{s}-{n}" for m, s, n, _ in GAMES]
)
def test_whole_games_stay_consistent(mix: str, scenario: str, seed: int, cap: int) -> None:
    game, record, seats = play(mix, scenario, seed, cap)
    state = record.final_state
    if cap == UNCAPPED:
        assert state.is_over
    if state.is_over:
        # a finished game has a result and no legal moves
        assert state.result is not None and state.to_move == "none"
        assert state.legal_moves().count() == 0 and list(state.legal_moves()) == []
    # the log replays, every move checked again, to the same state and result
    text = "".join(log_lines(game, record))
    replayed = replay(game, parse_log(io.StringIO(text), source="game.jsonl"))
    assert replayed.final_state == state
    assert replayed.result == record.result
    assert replayed.moves == len(record.moves)
    if state.is_over:
        assert replayed.matches_log
    # section 8 and the model agree: no Non-player plan was refused
    fallbacks = {f: s.fallbacks for f, s in seats.items() if isinstance(s, NonplayerSeat)}
    assert fallbacks == dict.fromkeys(fallbacks, 0)


def test_all_nonplayer_games_are_quick_and_repeat() -> None:
    started = time.perf_counter()
    _, first, _ = play("nnnn", "1776", 2, UNCAPPED)
    elapsed = time.perf_counter() - started
    _, again, _ = play("nnnn", "1776", 2, UNCAPPED)
    # the same seed and seats give the same game
    assert first.moves == again.moves and first.result == again.result
    assert elapsed < 30, f"an all-Non-player game took {elapsed:.1f} s"


def test_a_state_mid_game_round_trips_with_its_legal_moves() -> None:
    game, record, _ = play("nnnn", "1778", 2, 40)
    state: Any = record.final_state
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_move == state.to_move
    view, other = state.legal_moves(), again.legal_moves()
    assert view.count() == other.count()
    assert [view.nth(i) for i in range(min(20, view.count()))] == [
        other.nth(i) for i in range(min(20, other.count()))
    ]
