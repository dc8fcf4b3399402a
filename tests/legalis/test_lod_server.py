"""Liberty or Death as a whole game over HTTP: new, moves, check, apply, bot-move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from legalis.registry import load_game
from legalis.server import Limits, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(max_page=50, time_limit=60.0))) as session:
        yield session


def post(client: TestClient, path: str, body: Any, status: int = 200) -> dict[str, Any]:
    response = client.post(f"/v1/lod/{path}", json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_new_moves_check_apply_and_bot_move_round_trip(client: TestClient) -> None:
    new = post(client, "new", {"seed": 2, "scenario": "1778", "nonplayers": ["french"]})
    state = new["state"]
    assert new["summary"]["scenario"] == "1778" and new["summary"]["nonplayers"] == ["french"]
    game = load_game("lod", state["options"])
    expected = game.state_from_json(state)
    assert not expected.is_chance  # the deck is prepared and the card's dice rolled (2.1)

    page = post(client, "moves", {"state": state, "limit": 1})
    assert page["to_move"] == expected.to_move
    assert page["count"] == expected.legal_moves().count() and len(page["moves"]) == 1
    first = page["moves"][0]
    assert page["descriptions"] == [game.describe_move(game.move_from_json(first))]

    verdict = post(client, "check", {"state": state, "move": first})
    assert verdict["legal"] and verdict["move"] == first
    applied = post(client, "apply", {"state": state, "move": first})
    expected.play(game.move_from_json(first))
    assert applied["state"] == expected.to_json()

    # The one to move is not the French: a Non-player seat is refused for them (8.1),
    # while a greedy seat moves, and the same seed gives the same move.
    after = applied["state"]
    mover = game.state_from_json(after).to_move
    if mover != "french" and mover != "chance":
        refused = post(client, "bot-move", {"state": after, "seat": "nonplayer"}, status=422)
        assert refused["path"] == "seat"
    bot = post(client, "bot-move", {"state": after, "seat": "greedy", "seed": 4})
    assert bot["by"] == mover and bot == post(
        client, "bot-move", {"state": after, "seat": "greedy", "seed": 4}
    )
    check = post(client, "check", {"state": after, "move": bot["move"]})
    assert check["legal"], check


def test_a_nonplayer_seat_moves_for_a_nonplayer_faction(client: TestClient) -> None:
    factions = ["british", "patriots", "french", "indians"]
    state = post(client, "new", {"seed": 2, "scenario": "1778", "nonplayers": factions})["state"]
    bot = post(client, "bot-move", {"state": state, "seat": "nonplayer", "seed": 1})
    game = load_game("lod", state["options"])
    assert game.move_from_json(bot["move"]) in game.state_from_json(state).legal_moves()
    assert bot["state"] != state


def test_an_illegal_move_is_409_with_the_rule(client: TestClient) -> None:
    state = post(client, "new", {"seed": 2, "scenario": "1778"})["state"]
    game = load_game("lod", state["options"])
    mover = game.state_from_json(state).to_move
    other = next(f for f in game.players if f != mover)
    refused = post(client, "apply", {"state": state, "move": {"type": "pass", "faction": other}},
                   status=409)  # fmt: skip
    assert refused["rule"]
    verdict = post(client, "check", {"state": state, "move": {"type": "pass", "faction": other}})
    assert not verdict["legal"] and verdict["rule"] == refused["rule"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("new", {"scenario": "1999"}, "scenario"),
        ("new", {"nonplayers": ["spain"]}, "nonplayers"),
        ("moves", {"state": {"options": {"deck": "/etc/passwd"}}}, "state.options.deck"),
    ],
)
def test_bad_input_is_422_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], field: str
) -> None:
    answer = post(client, path, body, status=422)
    assert answer["path"] == field


def test_games_lists_lod_once_with_its_whole_game_calls(client: TestClient) -> None:
    listed = [g for g in client.get("/v1/games").json()["games"] if g["name"] == "lod"]
    assert len(listed) == 1 and {"new", "moves", "bot-move", "event-moves"} <= set(
        listed[0]["supports"]
    )
