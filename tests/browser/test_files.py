"""Saving and loading in the browser table: a state saved with Save the state
loads back to the same decision, a log saved with Save the log loads back to
the state it replays to, and a log saved after loading one still replays."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.table import Api, Table

GAME = "sevenyears"
SEED, OTHER_SEED = 3, 4
BOT_STEPS = 4


def _a_game_under_way(table: Table) -> tuple[dict[str, Any], str]:
    """A game a few bot moves in: its state and its log, as the page saves them."""
    table.open(GAME)
    table.new_game(seed=SEED)
    for _ in range(BOT_STEPS):
        table.page.click("#bot-step")
        table.settle()
    assert len(table.history()) == BOT_STEPS
    return table.saved_state(), table.download("#save-log")


def _another_game(table: Table, state: dict[str, Any]) -> None:
    table.new_game(seed=OTHER_SEED)
    assert table.saved_state() != state


def test_a_saved_state_loads_back_to_the_same_decision(table: Table, api: Api) -> None:
    state, _ = _a_game_under_way(table)
    count, to_move = table.move_count(), table.to_move
    assert count == api.count(GAME, state)
    _another_game(table, state)

    table.load("state.json", json.dumps(state, indent=1))
    assert table.page.input_value("#game") == GAME
    assert (table.move_count(), table.to_move) == (count, to_move)
    assert table.saved_state() == state
    assert table.history() == [] and table.error() is None


def test_a_saved_log_loads_back_to_the_state_it_replays_to(table: Table, api: Api) -> None:
    state, log = _a_game_under_way(table)
    lines = [json.loads(line) for line in log.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seed"] == SEED
    assert [line["by"] for line in lines[1:]].count("chance") >= 1  # the opening's deal
    replayed = api.post(f"/{GAME}/replay", {"log": log})
    assert replayed["state"] == state and replayed["moves"] == len(lines) - 1
    _another_game(table, state)

    table.load("game.jsonl", log)
    assert table.saved_state() == state
    assert table.move_count() == api.count(GAME, state)
    assert table.to_move == replayed["to_move"]


def test_a_log_saved_after_loading_a_log_replays_to_the_same_state(table: Table, api: Api) -> None:
    state, log = _a_game_under_way(table)
    _another_game(table, state)
    table.load("game.jsonl", log)
    assert table.saved_state() == state

    again = table.download("#save-log")
    replayed = api.post(f"/{GAME}/replay", {"log": again})
    assert replayed["state"] == state, (
        "the log saved after loading a log does not replay to the state shown: "
        f"{again.count(chr(10))} lines, against {log.count(chr(10))} in the log loaded"
    )
