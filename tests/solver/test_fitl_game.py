"""Fire in the Lake as a registered game (``solver/coinevents``): one card, its Event
executed by one Faction (rules 5.1-5.5).

Random playouts from every scenario check the invariants, copies and JSON round
trips at every step; views count what they list and answer ``in`` as they list;
moves of another card, Faction or side are refused with their rule; the counts of
one card of the sample deck are worked by hand and by an independent brute force;
lasting effects and free actions an Event plays show on the board and in the
summary; the chance draw replays from its seed; and bad options are input errors
naming the option.
"""

from __future__ import annotations

import io
import json
import random
from itertools import product
from math import comb
from typing import Any

import jsonschema
import pytest
from legalis.model.coin.deck import bundled_deck
from legalis.model.coin.scenarios import scenario_names
from legalis.model.core.game import Game, GameState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.fitl.victory import victory_margins
from legalis.solver.coinevents.fitl import FitlGame, option_specs
from legalis.solver.coinevents.moves import Draw
from legalis.solver.coinevents.state import MODELS
from legalis.solver.events import EventMove
from legalis.solver.gamelog import log_lines, parse_log, replay
from legalis.solver.players import GreedyPlayer, RandomPlayer
from legalis.solver.playout import play_game

import legalis

SEEDS = range(12)
SMALL_CARDS = (9, 10, 20, 25, 28, 34, 52, 55, 62)  # at most a few hundred executions each
PIVOTAL = (8, 33, 50)  # the sample deck's Pivotal Events


def check_state(game: FitlGame, state: Any) -> None:
    """What holds at every state: invariants, copies and JSON round trips."""
    assert isinstance(state, GameState)
    assert state.invariant_problems() == []
    raw = state.to_json()
    assert raw["game"] == "fitl" and raw["options"] == game.options.to_json()
    again = game.state_from_json(json.loads(json.dumps(raw)))
    assert again == state and again.to_json() == raw
    assert state.copy() == state and state.copy().to_json() == raw
    summary = game.summary(state)
    json.dumps(summary)
    assert summary["to_move"] == state.to_move and summary["models"] == MODELS
    assert all(isinstance(line, str) for line in game.render(state))


@pytest.mark.parametrize("scenario", scenario_names("fitl"))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_from_every_scenario_keep_every_invariant(scenario: str, seed: int) -> None:
    game = FitlGame({"scenario": scenario})
    assert isinstance(game, Game)
    rng = LoggedRandom(seed)
    state = game.new_initial_state()
    check_state(game, state)
    assert state.is_chance and state.to_move == "chance" and not state.is_over
    draw = state.sample_chance(rng)
    assert draw in state.legal_moves() and game.move_group(draw) == "Chance"
    state = state.apply(draw)
    check_state(game, state)
    assert state.to_move == state.faction == state.card.factions[0]
    move = RandomPlayer().choose(state, rng)
    view = state.legal_moves()
    assert move in view and view.verdict(move).legal
    assert game.move_from_json(json.loads(json.dumps(game.move_to_json(move)))) == move
    assert game.move_group(move) == f"Event ({move.side})"
    assert game.describe_move(move).startswith(f"{move.faction}: {move.side} Event of card ")
    before = state.copy()
    after = state.apply(move)
    assert state == before and state.executed is None  # apply leaves its state alone
    state = after
    check_state(game, state)
    assert state.is_over and state.to_move == "none" and state.legal_moves().count() == 0
    assert list(state.legal_moves()) == []
    result = game.result_of(state)
    assert result is not None and result["winner"] is None
    assert (result["condition"], result["card"], result["side"], result["faction"]) == (
        "event executed",
        move.card,
        move.side,
        move.faction,
    )
    assert "victory is not modelled" in game.describe_result(result)
    with pytest.raises(IllegalMoveError) as refused:
        state.play(move)
    assert refused.value.rule == "5.1"


def test_a_finished_playout_replays_from_its_log() -> None:
    game = FitlGame()
    seats = {faction: RandomPlayer() for faction in game.players}
    record = play_game(game, seats, seed=4)
    assert [by for by, _ in record.moves] == ["chance", record.final_state.faction]
    text = "".join(log_lines(game, record))
    replayed = replay(game, parse_log(io.StringIO(text), source="fitl.jsonl"))
    assert replayed.matches_log and replayed.final_state == record.final_state


def test_a_chance_draw_with_a_fixed_seed_replays() -> None:
    game = FitlGame()
    first = [game.new_initial_state().sample_chance(LoggedRandom(seed)) for seed in range(20)]
    again = [game.new_initial_state().sample_chance(LoggedRandom(seed)) for seed in range(20)]
    assert first == again and len({draw.card for draw in first}) > 5
    # 5.1.4: a Pivotal Event is held by its Faction, never drawn from the deck
    pile = game.new_initial_state().legal_moves()
    assert pile.count() == len(bundled_deck("fitl").cards) - len(PIVOTAL)
    assert not any(Draw(number) in pile for number in PIVOTAL)
    assert pile.refusal(Draw(8)).rule == "5.1.4"
    assert pile.refusal(Draw(999)).rule == "2.2"


def test_the_card_and_faction_options_skip_the_chance_move() -> None:
    state = FitlGame({"card": 11}).new_initial_state()
    assert not state.is_chance and state.to_move == "us"  # the first of its order, us
    with pytest.raises(IllegalMoveError):
        state.sample_chance(random.Random(0))
    state = FitlGame({"card": "11", "faction": "NVA"}).new_initial_state()
    assert state.to_move == "nva" and {move.faction for move in state.legal_moves()} == {"nva"}
    game = FitlGame({"faction": "vc"})
    state = game.new_initial_state()
    assert state.is_chance
    state.play(state.sample_chance(random.Random(2)))
    assert state.to_move == "vc"


def test_count_equals_the_listing_and_in_agrees_for_small_cards() -> None:
    for number in SMALL_CARDS:
        state = FitlGame({"card": number}).new_initial_state()
        view = state.legal_moves()
        listed = list(view)
        assert view.count() == len(listed) == len(set(listed)), number
        assert [view.nth(index) for index in range(len(listed))] == listed
        with pytest.raises(IndexError):
            view.nth(len(listed))
        for move in listed:
            assert move in view and view.refusal(move) is None
        # 5.2: the unshaded executions come first, then the shaded
        sides = [move.side for move in listed]
        assert sides == sorted(sides, key=("unshaded", "shaded").index)
        # a move changed in one step is listed exactly when the view admits it
        for move in listed:
            for index, step in enumerate(move.steps):
                if isinstance(step, int):
                    changed = (*move.steps[:index], step + 1, *move.steps[index + 1 :])
                elif step:
                    space, kind, n = step[0]
                    bumped = ((space, kind, n + 1), *step[1:])
                    changed = (*move.steps[:index], bumped, *move.steps[index + 1 :])
                else:
                    continue
                candidate = move._replace(steps=changed)
                assert (candidate in view) == (candidate in listed), candidate


def test_moves_of_another_card_faction_or_side_are_refused_with_the_rule() -> None:
    game = FitlGame({"card": 9})
    state = game.new_initial_state()
    view = state.legal_moves()
    move = view.nth(0)
    other_faction = move._replace(faction="vc")
    other_card = move._replace(card=10)
    assert view.refusal(other_faction).rule == "5.1"  # us executes this card's Event
    assert view.refusal(other_card).rule == "5.1"
    assert view.refusal(Draw(9)).rule == "5.1"  # the card is known: no draw
    assert not view.verdict(other_faction).legal
    with pytest.raises(IllegalMoveError) as refused:
        state.play(other_faction)
    assert refused.value.rule == "5.1" and state.executed is None
    # 5.2: card 7 prints only its unshaded text
    one_sided = FitlGame({"card": 7}).new_initial_state()
    shaded = EventMove(7, "shaded", "us", ())
    assert one_sided.legal_moves().refusal(shaded).rule == "5.2"
    # at the draw, an execution is not a move yet
    drawing = FitlGame().new_initial_state()
    assert drawing.legal_moves().refusal(move).rule == "2.2"


def test_golden_reserve_divisions_mobilized_in_the_short_scenario() -> None:
    """Card 11 of the sample deck, executed by the US in the short scenario.

    Unshaded, "Place 4 US Troops from out of play in Cities": 5.1.1 lets an Event
    place from out of play, where the set-up puts 6 US Troops; Troops do not count
    for stacking (1.4.2); and 5.1.3 has all 4 placed. So the executions are the ways
    to share 4 like Troops among the 8 Cities: C(4 + 8 - 1, 4) = C(11, 4) = 330.

    Shaded, "Remove 3 US Troops from the map to out of play": the US has Troops in
    9 spaces (3, 3, 3, 3, 2, 4, 1, 1, 2); 3 like Troops among 9 spaces is C(11, 3) =
    165, less the shares that take 2 or more from a space holding 1 (9 each, two such
    spaces) or 3 from a space holding 2 (1 each, two such spaces): 165 - 18 - 2 = 145.

    Either side, not both (5.2): 330 + 145 = 475.
    """
    state = FitlGame({"card": 11}).new_initial_state()
    board = state.board
    cities = [info.name for info in board.rules.map.spaces if info.type == "City"]
    held = [board.pieces(space, "us_troop") for space in board.rules.spaces]
    held = [n for n in held if n]
    assert len(cities) == 8 and board.pieces("Out of Play", "us_troop") == 6
    assert sorted(held) == [1, 1, 2, 2, 3, 3, 3, 3, 4]
    assert comb(11, 4) == 330 and comb(11, 3) - 2 * 9 - 2 * 1 == 145
    # the same numbers by brute force over every share, independent of the solver
    placed = sum(1 for share in product(range(5), repeat=len(cities)) if sum(share) == 4)
    removed = sum(1 for share in product(*(range(n + 1) for n in held)) if sum(share) == 3)
    assert (placed, removed) == (330, 145)
    view = state.legal_moves()
    assert [side.count() for side in view.sides] == [330, 145]
    assert view.count() == 475 == len(list(view))
    after = state.apply(view.nth(0))
    assert after.board.pieces("Out of Play", "us_troop") == 2
    assert (
        sum(after.board.pieces(city, "us_troop") for city in cities)
        == sum(board.pieces(city, "us_troop") for city in cities) + 4
    )


def test_capabilities_and_momentum_end_up_on_the_board_and_in_the_summary() -> None:
    # 5.3: the unshaded Capability of card 1 lasts the rest of the game
    game = FitlGame({"card": 1})
    state = game.new_initial_state()
    unshaded = next(move for move in state.legal_moves() if move.side == "unshaded")
    state.play(unshaded)
    assert state.board.capabilities == {"Helicopter Maintenance Depot": "unshaded"}
    assert game.summary(state)["capabilities"] == {"Helicopter Maintenance Depot": "unshaded"}
    assert any("Helicopter Maintenance Depot (unshaded)" in line for line in game.render(state))
    # 5.4: card 5 prints only a shaded Momentum; the VC execute it first
    game = FitlGame({"card": 5})
    state = game.new_initial_state()
    assert state.to_move == "vc" and state.legal_moves().count() == 1
    state.play(state.legal_moves().nth(0))
    assert game.summary(state)["momentum"] == ["Coastal Storm Season"]
    assert any("Momentum in force: Coastal Storm Season" in line for line in game.render(state))
    # 5.5: card 7's free Air Lift is recorded, not carried out
    game = FitlGame({"card": 7})
    state = game.new_initial_state()
    state.play(state.legal_moves().nth(0))
    grants = game.summary(state)["free_actions"]
    assert [(g["faction"], g["action"]) for g in grants] == [("us", "air_lift")]
    assert any("free air_lift" in line for line in game.render(state))


def test_a_pivotal_event_whose_precondition_fails_ends_with_no_legal_execution() -> None:
    game = FitlGame()
    raw = game.new_initial_state().to_json()
    raw["board"]["lists"]["pivotal_available"] = ["nva"]
    raw["card"], raw["faction"] = 8, "nva"
    # 5.1.4: NVA Troops stand in no space of South Vietnam in the short set-up
    state = game.state_from_json(raw)
    assert state.is_over and state.to_move == "none" and state.legal_moves().count() == 0
    result = game.result_of(state)
    assert result["condition"] == "no legal execution" and result["rule"] == "5.1.4"
    assert "could not execute card 8" in game.describe_result(result)
    check_state(game, state)


def test_the_greedy_seat_takes_the_best_execution_for_its_margin() -> None:
    game = FitlGame({"card": 25, "faction": "us"})
    state = game.new_initial_state()
    moves = list(state.legal_moves())
    assert len(moves) <= 12  # every execution is weighed
    best = max(victory_margins(state.apply(move).board)["us"] for move in moves)
    chosen = GreedyPlayer(game).choose(state, random.Random(0))
    assert chosen in moves and victory_margins(state.apply(chosen).board)["us"] == best
    # a large card: a sample is weighed, and the choice is legal
    large = FitlGame({"card": 56}).new_initial_state()
    assert game.greedy_move(large, random.Random(0)) in large.legal_moves()


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({"scenario": "long"}, "options.scenario"),
        ({"card": 999}, "options.card"),
        ({"card": "eleven"}, "options.card"),
        ({"card": 0}, "options.card"),
        ({"card": 8}, "options.card"),  # 5.1.4: no Pivotal Event is available in short
        ({"faction": "Viet Cong"}, "options.faction"),
        ({"faction": 3}, "options.faction"),
        ({"card": 11, "faction": "vc", "deck": 5}, "options.deck"),
        ({"seed": 3}, "options.seed"),
    ],
)
def test_bad_options_are_input_errors_naming_the_option(options: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as refused:
        legalis.load_game("fitl", options)
    assert refused.value.path == path


def test_bad_option_values_list_what_is_allowed() -> None:
    with pytest.raises(InputError) as refused:
        FitlGame({"faction": "Viet Cong"})
    assert refused.value.allowed == ["us", "arvn", "nva", "vc", "none"]  # none: the card's first
    with pytest.raises(InputError) as refused:
        FitlGame({"scenario": "long"})
    assert refused.value.allowed == ["short"]
    with pytest.raises(InputError) as refused:
        FitlGame({"deck": "/no/such/deck.toml"})
    assert refused.value.source == "/no/such/deck.toml"


def test_options_round_trip_through_the_registry_and_the_specs() -> None:
    game = legalis.load_game("fitl", {"card": "11", "faction": "us"})
    written = {"scenario": "short", "deck": None, "card": 11, "faction": "us"}
    assert game.options.to_json() == written
    again = legalis.load_game("fitl", game.options.to_json())
    assert again.options == game.options
    specs = option_specs()
    assert tuple(spec.name for spec in specs) == tuple(FitlGame().options.to_json())
    assert legalis.registry.game_entry("fitl").option_names == tuple(s.name for s in specs)
    assert {spec.name: spec.default for spec in specs} == FitlGame().options.to_json()
    assert all(spec.rule and spec.help for spec in specs)


def test_a_state_file_is_checked_field_by_field() -> None:
    game = FitlGame({"card": 11})
    raw = game.new_initial_state().to_json()
    cases = [
        ({**raw, "game": "lod"}, "state.game"),
        ({**raw, "options": {**raw["options"], "card": 12}}, "state.options"),
        ({**raw, "card": 999}, "state.card"),
        ({**raw, "faction": "french"}, "state.faction"),
        ({**raw, "extra": 1}, "state.extra"),
        ({**raw, "executed": {"card": 11}}, "state.executed.side"),
        ({**raw, "board": {**raw["board"], "tracks": {}}}, "state.board.tracks"),
    ]
    for bad, path in cases:
        with pytest.raises(InputError) as refused:
            game.state_from_json(bad, source="state.json")
        assert refused.value.path is not None and refused.value.path.startswith(path), path
        assert refused.value.source == "state.json"
    executed = {"card": 12, "side": "shaded", "faction": "us", "steps": []}
    with pytest.raises(InputError, match="executed"):
        game.state_from_json({**raw, "executed": executed})


def test_the_schemas_describe_the_states_and_moves_written() -> None:
    game = FitlGame()
    schemas = game.schemas()
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema)
        json.dumps(schema)
    state_schema = jsonschema.Draft202012Validator(schemas["state"])
    move_schema = jsonschema.Draft202012Validator(schemas["move"])
    for seed in range(3):
        state = game.new_initial_state()
        rng = LoggedRandom(seed)
        while not state.is_over:
            state_schema.validate(state.to_json())
            move = (
                state.sample_chance(rng) if state.is_chance else RandomPlayer().choose(state, rng)
            )
            move_schema.validate(game.move_to_json(move))
            state.play(move)
        state_schema.validate(state.to_json())
    assert not move_schema.is_valid({"type": "draw", "card": 0})
    assert not state_schema.is_valid({**game.new_initial_state().to_json(), "card": "x"})
