"""Every registered game answers to the whole ``Game``/``GameState`` protocol
(``model/core/game.py``): a random playout from its opening calls every method at
every step and checks what each returns, so a game registered with a method missing
or broken fails here (the OpenSpiel way of testing every game with one suite). Every
state and move written validates against the game's own JSON Schemas, and a state
names its game and the options, which load the same game again."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
from legalis.model.core.game import Game, GameState
from legalis.solver.players import RandomPlayer

import legalis

STEPS = 120  # moves of each playout: past the opening's chance moves and first turns


@pytest.mark.parametrize("name", legalis.games())
def test_every_registered_game_keeps_the_whole_protocol(name: str) -> None:
    game = legalis.load_game(name)
    assert isinstance(game, Game)
    assert game.name == name and game.title and game.players
    assert isinstance(game.seat_kinds, tuple) and "human" in game.seat_kinds
    options = json.loads(json.dumps(game.options.to_json()))
    assert legalis.load_game(name, options).options.to_json() == options
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
