"""Every registered game answers to the whole ``Game``/``GameState`` protocol
(``model/core/game.py``): a random playout from the opening of each of its scenarios
calls every method at every step and checks what each returns, so a game registered
with a method missing or broken fails here (the OpenSpiel way of testing every game
with one suite). Every state and move written validates against the game's own JSON
Schemas, and a state names its game and the options, which load the same game again.
Where a decision has few moves, ``count``, ``in`` and the listing agree; a move of
another decision is refused with a rule; a game played whole replays from its log."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import jsonschema
import pytest
from legalis.model.core.game import Game, GameState
from legalis.model.errors import SolverLimitError
from legalis.solver.gamelog import log_lines, parse_log, replay
from legalis.solver.players import RandomPlayer, automatic_player, seat_kinds
from legalis.solver.playout import play_game

import legalis
from legalis.registry import game_entry

STEPS = 120  # moves of each playout: past the opening's chance moves and first turns
LISTED = 300  # a decision with at most this many moves is listed whole and compared


def scenarios(name: str) -> list[dict[str, Any]]:
    """The options of each scenario of game ``name`` (one, without a scenario option)."""
    specs = {spec.name: spec for spec in game_entry(name).option_specs}
    if "scenario" not in specs or not specs["scenario"].allowed:
        return [{}]
    return [{"scenario": scenario} for scenario in specs["scenario"].allowed]


CASES = [(name, options) for name in legalis.games() for options in scenarios(name)]
IDS = [f"{name}-{options.get('scenario', 'default')}" for name, options in CASES]


def check_listing(state: Any, others: list[Any]) -> None:
    """At a decision with few moves: the listing has no repeats, its length is the
    count, each move is ``in`` the view and ``nth`` gives it in order; a move of
    another decision that is not listed is refused with a reason and a rule."""
    view = state.legal_moves()
    try:
        total = view.count()
    except SolverLimitError:  # too many to count: drawn, not listed
        return
    if total > LISTED:
        return
    listed = list(view)
    assert len(listed) == total and len(set(listed)) == total
    for index, move in enumerate(listed):
        assert move in view and view.nth(index) == move
    for other in others:
        if other not in listed:
            refusal = view.refusal(other)
            assert refusal is not None and refusal.reason and refusal.rule, other
            assert other not in view


def foreign_moves(game: Any) -> list[Any]:
    """A few legal moves of the first decisions of other seeded games."""
    found = []
    for seed in range(20, 26):
        state, rng = game.new_initial_state(), random.Random(seed)
        while state.is_chance and not state.is_over:
            state.play(state.sample_chance(rng))
        if not state.is_over:
            found += list(itertools.islice(state.legal_moves(), 3))
    return found


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_every_registered_game_keeps_the_whole_protocol(name: str, options: dict[str, Any]) -> None:
    game = legalis.load_game(name, options)
    assert isinstance(game, Game)
    assert game.name == name and game.title and game.players
    assert isinstance(game.seat_kinds, tuple) and "human" in game.seat_kinds
    options = json.loads(json.dumps(game.options.to_json()))
    assert legalis.load_game(name, options).options.to_json() == options
    # Moves of other seeded games' decisions (other cards, displays, hands): offered at
    # each decision, each must be listed or refused with a rule. (Moves made earlier in
    # this game are not offered: LoD accepts a Special Activity that names its Command
    # before it, 4.1, while its listing offers the Command first, the same plays.)
    foreign = foreign_moves(game)
    schemas = game.schemas()
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    valid = {kind: jsonschema.Draft202012Validator(schemas[kind]) for kind in ("state", "move")}
    state = game.new_initial_state()
    rng = random.Random(11)
    player = RandomPlayer()
    for _ in range(STEPS):
        assert isinstance(state, GameState)
        if state.is_over:
            break
        assert state.invariant_problems() == []
        raw = state.to_json()
        assert raw["game"] == name and raw["options"] == options
        assert valid["state"].is_valid(raw), next(valid["state"].iter_errors(raw)).message
        again = game.state_from_json(json.loads(json.dumps(raw)))
        assert again.to_json() == raw and state.copy().to_json() == raw
        assert isinstance(game.summary(state), dict)
        assert all(isinstance(line, str) for line in game.render(state))
        if state.is_chance:
            move = state.sample_chance(rng)
        else:
            assert state.to_move in game.players
            check_listing(state, foreign)
            move = player.choose(state, rng)
            assert move in state.legal_moves()
            assert isinstance(game.describe_move(move), str) and game.describe_move(move)
            assert isinstance(game.move_group(move), str) and game.move_group(move)
            assert game.greedy_move(state.copy(), rng) in state.legal_moves()
        written = game.move_to_json(move)  # a chance outcome is a move as well
        assert valid["move"].is_valid(written), next(valid["move"].iter_errors(written)).message
        assert game.move_from_json(json.loads(json.dumps(written))) == move
        state = state.apply(move)
    result = game.result_of(state)
    assert (result is None) is (not state.is_over)
    assert isinstance(game.describe_result(result), str) and game.describe_result(result)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_a_game_played_whole_replays_from_its_log(name: str, options: dict[str, Any]) -> None:
    game = legalis.load_game(name, options)
    kind = "nonplayer" if "nonplayer" in seat_kinds(game) else "random"
    if kind == "nonplayer" and "nonplayers" in game_entry(name).option_names:
        game = legalis.load_game(name, {**game.options.to_json(), "nonplayers": game.players})
    players = {seat: automatic_player(kind, game, seat) for seat in game.players}
    record = play_game(game, players, 5)
    assert record.final_state.is_over and not record.final_state.legal_moves()
    assert record.result == game.result_of(record.final_state)
    parsed = parse_log("".join(log_lines(game, record)).splitlines(), source="log")
    header = parsed.header  # the game is made again from the log alone
    again = replay(legalis.load_game(header["game"], header["options"]), parsed)
    assert again.matches_log is not False and again.moves == len(record.moves)
    assert again.result == record.result
    # the same seed and seats play the same game
    assert play_game(game, players, 5).moves == record.moves
