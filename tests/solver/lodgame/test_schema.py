"""The JSON Schemas of a whole Liberty or Death game (``LodGame.schemas()``), in both
directions: every state and move of random and Non-player playouts validates, with
every move type met; documents the engine's readers refuse (a wrong type name, a
missing or unknown field, a value of the wrong kind) are refused by the schemas and
by the pydantic models they come from."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema
import pytest
from jsonschema.exceptions import best_match
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError, SolverLimitError
from legalis.model.lod.command_base import Command
from legalis.model.lod.special import SpecialActivity
from legalis.model.lod.supply import FrenchSupply
from legalis.solver.lodgame.game import LodGame
from legalis.solver.lodgame.moves import TYPES, During, Skip
from legalis.solver.lodgame.schema import move_document_model, state_document_model
from legalis.solver.lodgame.state import LodState
from legalis.solver.players import Player, RandomPlayer
from pydantic import ValidationError

FACTIONS = LodGame.players
# (scenario; seats in Faction order, n Non-player, r random; seed; moves at most)
PLAYOUTS = [
    ("1775", "nnnn", 1, 2000),
    ("1778", "nnnn", 2, 2000),
    ("1776", "rrrr", 3, 150),
    ("1775", "rnnr", 4, 150),
]
LISTED_EVERY = 15  # at every so many decisions, a spread of the listed moves is checked too
# move types the playouts above never make, each as a move could be written
RARE_MOVES = [
    During(
        Command("indians", "raid", ("Quebec", "Northwest")),
        ("Quebec",),
        SpecialActivity("indians", "plunder", None, ("Quebec",)),
    ),
    Skip("patriots"),
    FrenchSupply((("Boston", "Available"),)),
]


@pytest.fixture(scope="module")
def validators() -> dict[str, jsonschema.Draft202012Validator]:
    found = LodGame().schemas()
    for schema in found.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    return {kind: jsonschema.Draft202012Validator(schema) for kind, schema in found.items()}


@pytest.fixture(scope="module")
def check(validators: dict[str, Any]) -> Callable[[str, Any], None]:
    """``check(kind, document)``: fail with the field path unless it validates."""

    def run(kind: str, document: Any) -> None:
        error = best_match(validators[kind].iter_errors(document))
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path)
            pytest.fail(f"{kind}: {where}: {error.message[:300]}")

    return run


def playout(scenario: str, mix: str, seed: int, most: int) -> Iterator[tuple[LodState, Any]]:
    """Each state of a game and the move made there, then the last state and None."""
    nonplayers = [f for f, kind in zip(FACTIONS, mix, strict=True) if kind == "n"]
    game = LodGame({"scenario": scenario, "nonplayers": nonplayers})
    seats: dict[str, Player] = {
        f: game.nonplayer_seat(f) if kind == "n" else RandomPlayer()
        for f, kind in zip(FACTIONS, mix, strict=True)
    }
    rng = LoggedRandom(seed)
    state = game.new_initial_state()
    for _ in range(most):
        if state.is_over:
            break
        move = (
            state.sample_chance(rng) if state.is_chance else seats[state.to_move].choose(state, rng)
        )
        yield state, move
        state = state.apply(move)
    yield state, None


def spread(state: LodState, picks: int = 3) -> list[Any]:
    view = state.legal_moves()
    try:
        total = view.count()
    except SolverLimitError:
        return []
    return [view.nth(index * total // picks) for index in range(min(picks, total))]


def test_states_and_moves_of_playouts_validate(check: Callable[[str, Any], None]) -> None:
    game, state_model, move_model = LodGame(), state_document_model(), move_document_model()
    types: set[str] = set()
    stages: set[str] = set()
    seen = 0
    for scenario, mix, seed, most in PLAYOUTS:
        for index, (state, move) in enumerate(playout(scenario, mix, seed, most)):
            document = state.to_json()
            check("state", document)
            stages.add(document["stage"])
            if index % 50 == 0:
                state_model.model_validate_json(json.dumps(document))
            moves = [] if move is None else [move]
            if not state.is_chance and index % LISTED_EVERY == 0:
                moves += spread(state)
            for each in moves:
                written = game.move_to_json(each)
                check("move", written)
                move_model.model_validate_json(json.dumps(written))
                types.add(written["type"])
                seen += 1
    for move in RARE_MOVES:
        written = game.move_to_json(move)
        assert game.move_from_json(json.loads(json.dumps(written))) == move
        check("move", written)
        types.add(written["type"])
    assert seen > 1000
    assert types == set(TYPES), f"no move of type {sorted(set(TYPES) - types)}"
    assert {"prepare", "roll", "window", "choose", "action", "winter", "over"} <= stages


def sample_states() -> dict[str, dict[str, Any]]:
    """A state of each stage of a Non-player game, as written."""
    found: dict[str, dict[str, Any]] = {}
    for state, _ in playout("1775", "nnnn", 1, 2000):
        found.setdefault(state.stage, state.to_json())
    return found


Mutation = Callable[[dict[str, Any]], dict[str, Any]]


def put(path: str, value: Any) -> Mutation:
    """A copy of a document with the field at ``path`` (keys joined by ``/``) set."""

    def mutate(document: dict[str, Any]) -> dict[str, Any]:
        changed = copy.deepcopy(document)
        *parents, last = [int(key) if key.isdigit() else key for key in path.split("/")]
        target = changed
        for key in parents:
            target = target[key]
        target[last] = value
        return changed

    return mutate


def drop(path: str) -> Mutation:
    def mutate(document: dict[str, Any]) -> dict[str, Any]:
        changed = copy.deepcopy(document)
        *parents, last = path.split("/")
        target = changed
        for key in parents:
            target = target[key]
        del target[last]
        return changed

    return mutate


# (what is wrong, the stage of the state it is done to, the change)
STATE_REJECTIONS: list[tuple[str, str, Mutation]] = [
    ("another game's state", "window", put("game", "sevenyears")),
    ("an unknown stage", "window", put("stage", "lunch")),
    ("a missing field", "window", drop("deck")),
    ("a card given as text", "window", put("deck/0", "13")),
    ("a card number that is no number", "window", put("card", True)),
    ("an unknown Faction to ask", "window", put("window", ["spanish"])),
    ("an unknown first action", "choose", put("first_did", "nap")),
    ("a flag that is not true or false", "choose", put("stroke_played", 1)),
    ("a Brilliant Stroke of nobody", "choose", put("stroke", ["spanish", "card"])),
    ("an unknown field in the action", "action", put("action/colour", "red")),
    ("an action without its Faction", "action", drop("action/faction")),
    ("an unknown Winter Quarters phase", "winter", put("winter/phase", "spring")),
    ("an unknown Winter Quarters step", "winter", put("winter/due/0/0", "feast")),
    ("a Winter Quarters Round without its year", "winter", drop("winter/year")),
    ("a board track above its cap", "window", put("board/tracks/fni", 4)),
    ("a board with an unknown space", "window", put("board/spaces/Bostn", {})),
]


@pytest.mark.parametrize(
    ("stage", "mutation"),
    [(stage, mutate) for _, stage, mutate in STATE_REJECTIONS],
    ids=[what for what, _, _ in STATE_REJECTIONS],
)
def test_states_the_engine_refuses_the_schema_refuses(
    stage: str, mutation: Mutation, validators: dict[str, Any], samples: dict[str, Any]
) -> None:
    good = samples[stage]
    assert validators["state"].is_valid(good)
    bad = mutation(good)
    with pytest.raises(InputError):
        LodGame().state_from_json(bad)
    assert not validators["state"].is_valid(bad)
    with pytest.raises(ValidationError):
        state_document_model().model_validate_json(json.dumps(bad))


@pytest.fixture(scope="module")
def samples() -> dict[str, dict[str, Any]]:
    return sample_states()


MOVE_REJECTIONS: list[tuple[str, dict[str, Any]]] = [
    ("an unknown type", {"type": "surrender", "faction": "british"}),
    ("no type", {"faction": "british"}),
    ("a missing field", {"type": "redeploy", "faction": "british"}),
    ("an unknown field", {"type": "pass", "faction": "british", "card": 3}),
    ("a number for a name", {"type": "pass", "faction": 3}),
    ("true for a number", {"type": "roll", "seed": True}),
    (
        "a count given as text",
        {"type": "blockade_shift", "source": "Boston", "destination": "Quebec City", "count": "1"},
    ),
    (
        "a short placement",
        {"type": "command", "faction": "british", "name": "muster", "placed": [["Boston", "tory"]]},
    ),
    (
        "an unknown field in a nested Command",
        {"type": "fight", "command": {"faction": "british", "name": "battle", "colour": "red"}},
    ),
    (
        "an event card given as text",
        {
            "type": "event",
            "event": {"card": "1", "side": "shaded", "faction": "british", "steps": []},
        },
    ),
]


@pytest.mark.parametrize(
    "move", [move for _, move in MOVE_REJECTIONS], ids=[what for what, _ in MOVE_REJECTIONS]
)
def test_moves_the_engine_refuses_the_schema_refuses(
    move: dict[str, Any], validators: dict[str, Any]
) -> None:
    with pytest.raises(InputError):
        LodGame().move_from_json(move)
    assert not validators["move"].is_valid(move)
    with pytest.raises(ValidationError):
        move_document_model().model_validate_json(json.dumps(move))


def test_the_options_object_lists_every_option_with_its_values(
    validators: dict[str, Any], samples: dict[str, Any]
) -> None:
    good = samples["window"]
    set_one = put("options/removal_pool", "whole_side")(good)
    assert validators["state"].is_valid(set_one)
    # 3.6.7's reading takes two values only, and an unknown option is no option
    assert not validators["state"].is_valid(put("options/removal_pool", "nobody")(good))
    assert not validators["state"].is_valid(put("options/house_rule", True)(good))
