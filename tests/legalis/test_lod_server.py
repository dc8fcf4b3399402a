"""Liberty or Death over the generic HTTP endpoints: what only LoD has (scenarios,
Non-player seats of section 8, a deck option that names a file)."""

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
    options = {"scenario": "1778", "nonplayers": ["french"]}
    new = post(client, "new", {"seed": 2, "options": options})
    state = new["state"]
    assert new["summary"]["scenario"] == "1778" and new["summary"]["nonplayers"] == ["french"]
    game = load_game("lod", state["options"])
    expected = game.state_from_json(state)
    assert not expected.is_chance  # the deck is prepared and the card's dice rolled (2.1)
    assert (new["to_move"], new["is_over"], new["result"]) == (expected.to_move, False, None)

    page = post(client, "moves", {"state": state, "limit": 1})
    assert page["to_move"] == expected.to_move
    assert page["count"] == expected.legal_moves().count() and len(page["moves"]) == 1
    first = page["moves"][0]
    move = game.move_from_json(first["move"])
    assert first["description"] == game.describe_move(move)
    assert first["group"] == game.move_group(move)

    verdict = post(client, "check", {"state": state, "move": first["move"]})
    assert verdict["legal"] and verdict["move"] == first["move"]
    applied = post(client, "apply", {"state": state, "move": first["move"]})
    expected.play(move)
    assert applied["state"] == expected.to_json()

    # The one to move is not the French: a Non-player seat is refused for them (8.1),
    # while a greedy seat moves, and the same seed gives the same move.
    after = applied["state"]
    mover = game.state_from_json(after).to_move
    if mover not in ("french", "chance"):
        refused = post(client, "bot-move", {"state": after, "seat": "nonplayer"}, status=422)
        assert refused["path"] == "seat" and "nonplayer" not in refused["allowed"]
    bot = post(client, "bot-move", {"state": after, "seat": "greedy", "seed": 4})
    assert bot["by"] == mover and bot == post(
        client, "bot-move", {"state": after, "seat": "greedy", "seed": 4}
    )
    check = post(client, "check", {"state": after, "move": bot["move"]})
    assert check["legal"], check


def test_a_nonplayer_seat_moves_for_a_nonplayer_faction(client: TestClient) -> None:
    # 8.1: the Non-player rules play every Faction the option names
    factions = ["british", "patriots", "french", "indians"]
    options = {"scenario": "1778", "nonplayers": factions}
    state = post(client, "new", {"seed": 2, "options": options})["state"]
    bot = post(client, "bot-move", {"state": state, "seat": "nonplayer", "seed": 1})
    game = load_game("lod", state["options"])
    assert game.move_from_json(bot["move"]) in game.state_from_json(state).legal_moves()
    assert bot["state"] != state and bot["by"] in factions


def test_an_illegal_move_is_409_with_the_rule(client: TestClient) -> None:
    state = post(client, "new", {"seed": 2, "options": {"scenario": "1778"}})["state"]
    game = load_game("lod", state["options"])
    mover = game.state_from_json(state).to_move
    other = next(f for f in game.players if f != mover)
    move = {"type": "pass", "faction": other}
    refused = post(client, "apply", {"state": state, "move": move}, status=409)
    assert refused["rule"]
    verdict = post(client, "check", {"state": state, "move": move})
    assert not verdict["legal"] and verdict["rule"] == refused["rule"]


DECK_FILE = {"deck": "/etc/passwd"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("new", {"options": {"scenario": "1999"}}, "options.scenario"),
        ("new", {"options": {"nonplayers": ["spain"]}}, "options.nonplayers"),
        ("new", {"options": DECK_FILE}, "options.deck"),
        ("moves", {"state": {"game": "lod", "options": DECK_FILE}}, "state.options.deck"),
        ("moves", {"state": {"game": "lod", "options": "1776"}}, "state.options"),
        ("new", {"scenario": "1776"}, "scenario"),  # the options of a new game are `options`
    ],
)
def test_bad_input_is_422_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], field: str
) -> None:
    answer = post(client, path, body, status=422)
    assert answer["path"].startswith(field), answer


def test_a_deck_file_is_never_read_over_http(client: TestClient) -> None:
    refused = post(client, "new", {"options": DECK_FILE}, status=422)
    assert "file" in refused["error"] and refused["allowed"] == ["null"]
    # the bundled deck, named by leaving the option at its default, is read
    assert post(client, "new", {"options": {"deck": None}})["state"]["options"]["deck"] is None


def test_games_lists_lod_once_with_its_seats_and_options(client: TestClient) -> None:
    listed = [g for g in client.get("/v1/games").json()["games"] if g["name"] == "lod"]
    assert len(listed) == 1
    (lod,) = listed
    assert {"new", "moves", "bot-move", "verify", "fixtures"} <= set(lod["supports"])
    assert "nonplayer" in lod["seat_kinds"]
    assert {"scenario", "nonplayers", "deck"} <= {spec["name"] for spec in lod["options"]}
