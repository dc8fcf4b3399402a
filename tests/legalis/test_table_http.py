"""The HTTP endpoints the browser table stands on, for every registered game: the
page and its files, ``board``, moves in ``groups``, ``replay`` of a log, a ``new``
game's opening chance moves, ``validate``'s whole answer and ``verify`` of pasted
TOML text. (The page itself is driven in a browser in ``tests/browser``.)"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
from fastapi.testclient import TestClient

import legalis
from legalis.server import Limits, create_app

GAMES = legalis.games()
LIMITS = Limits(max_page=100, time_limit=120.0)
PLANTED = Path(__file__).parents[1] / "verify" / "decks" / "lod_french_before_toa.toml"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(LIMITS)) as session:
        yield session


def post(client: TestClient, path: str, body: Any, status: int = 200) -> Any:
    response = client.post(f"/v1/{path}", json=body)
    assert response.status_code == status, (path, response.text)
    return response.json()


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for linked in ("/table/table.js", "/table/table.css"):
        assert linked in page.text
        assert client.get(linked).status_code == 200
    assert client.get("/table/missing.js").status_code == 404


@pytest.mark.parametrize("game", GAMES)
def test_a_board_is_drawn_for_every_game_and_names_its_places(
    client: TestClient, game: str
) -> None:
    state = post(client, f"{game}/new", {"seed": 3})["state"]
    board = post(client, f"{game}/board", {"state": state})
    assert board["svg"].startswith("<svg") and board["words"]
    for place in board["places"]:
        as_attribute = escape(place["id"], {'"': "&quot;"})
        assert f'data-space="{as_attribute}"' in board["svg"]
    listed = next(info for info in client.get("/v1/games").json()["games"] if info["name"] == game)
    assert "board" in listed["supports"] and "replay" in listed["supports"]


@pytest.mark.parametrize(
    ("body", "path"),
    [({}, "state"), ({"state": {"game": "lod"}, "witness": {}}, "state"),
     ({"witness": {"game": "lod", "spaces": {"Atlantis": {}}}}, "witness.")],
)  # fmt: skip
def test_a_board_request_must_name_one_thing_to_draw(
    client: TestClient, body: dict[str, Any], path: str
) -> None:
    error = post(client, "lod/board", body, 422)
    assert error["path"].startswith(path)


def test_a_findings_witness_is_drawn_over_http(client: TestClient) -> None:
    text = "\n".join(line for line in PLANTED.read_text().splitlines()
                     if not line.startswith("expect"))  # fmt: skip
    report = post(client, "lod/verify", {"text": text})
    finding = next(f for f in report["findings"] if f.get("witness"))
    board = post(client, "lod/board", {"witness": finding["witness"], "caption": "planted"})
    assert board["words"] == ["planted"] and 'class="piece"' in board["svg"]


@pytest.mark.parametrize("game", GAMES)
def test_groups_count_every_move_and_page_to_their_own_moves(client: TestClient, game: str) -> None:
    answer = post(client, f"{game}/new", {"seed": 5})
    for step in range(6):
        if answer["is_over"]:
            break
        listing = post(client, f"{game}/moves", {"state": answer["state"], "groups": True})
        groups = listing["groups"]
        assert sum(group["count"] for group in groups) == listing["count"]
        offset = 0
        for group in groups:
            assert group["offset"] == offset
            offset += group["count"]
            if group["exact"]:
                first = {"offset": group["offset"], "limit": min(group["count"], 5)}
                page = post(client, f"{game}/moves", {"state": answer["state"], **first})
                assert {move["group"] for move in page["moves"]} == {group["group"]}
        answer = post(client, f"{game}/bot-move",
                      {"state": answer["state"], "seat": "random", "seed": step})  # fmt: skip
    plain = post(client, f"{game}/moves", {"state": answer["state"]})
    assert plain["groups"] is None


@pytest.mark.parametrize("game", GAMES)
def test_a_log_of_the_opening_and_the_moves_made_replays_to_the_same_state(
    client: TestClient, game: str
) -> None:
    new = post(client, f"{game}/new", {"seed": 4})
    moves = [("chance", move) for move in new["opening"]]
    answer = new
    for step in range(5):
        if answer["is_over"]:
            break
        by = answer["to_move"]
        answer = post(client, f"{game}/bot-move",
                      {"state": answer["state"], "seat": "random", "seed": step})  # fmt: skip
        moves.append((by, answer["move"]))
    header = {"type": "header", "version": 1, "game": game, "seed": 4,
              "options": new["state"].get("options", {}), "players": {}}  # fmt: skip
    lines = [header] + [{"type": "move", "index": i, "by": by, "move": move}
                        for i, (by, move) in enumerate(moves)]  # fmt: skip
    log = "\n".join(json.dumps(line) for line in lines)
    replayed = post(client, f"{game}/replay", {"log": log})
    assert replayed["state"] == answer["state"] and replayed["moves"] == len(moves)
    assert replayed["matches_log"] is None


def test_a_bad_log_is_refused_at_its_line(client: TestClient) -> None:
    header = {"type": "header", "version": 1, "game": "sevenyears", "seed": 1, "options": {},
              "players": {}}  # fmt: skip
    bad = json.dumps(header) + '\n{"type": "move", "index": 0, "by": "british", "move": {}}'
    error = post(client, "sevenyears/replay", {"log": bad}, 422)
    assert error["path"].startswith("log.line 2")
    other = post(client, "lod/replay", {"log": json.dumps(header)}, 422)
    assert other["path"] == "log" and other["allowed"] == ["lod"]


@pytest.mark.parametrize("game", GAMES)
def test_validate_answers_as_new_does(client: TestClient, game: str) -> None:
    new = post(client, f"{game}/new", {"seed": 2})
    checked = post(client, f"{game}/validate", {"state": new["state"]})
    assert checked["ok"] is True
    for field in ("state", "to_move", "is_over", "result", "summary"):
        assert checked[field] == new[field]


def test_pasted_toml_is_verified_as_its_parsed_data_is(client: TestClient) -> None:
    text = "\n".join(line for line in PLANTED.read_text().splitlines()
                     if not line.startswith("expect"))  # fmt: skip
    as_text = post(client, "lod/verify", {"text": text})
    as_data = post(client, "lod/verify", {"data": tomllib.loads(text)})
    assert as_text["findings"] == as_data["findings"] and as_text["findings"]
    broken = post(client, "lod/verify", {"text": text + "\n[[card]\n"}, 422)
    assert broken["path"] == "text" and "line" in broken["error"]
    both = post(client, "lod/verify", {"text": text, "data": {}}, 422)
    assert both["path"] == "text"


@pytest.mark.parametrize("game", ["eupop", "lod"])
def test_a_chance_decision_whose_outcomes_are_not_listed_is_refused_not_failed(
    client: TestClient, game: str
) -> None:
    # the opening deals a deck: its orders are drawn, never listed (LoD 2.1, EU:PoP 16.1)
    opening = legalis.load_game(game).new_initial_state()
    assert opening.is_chance
    error = post(client, f"{game}/moves", {"state": opening.to_json()}, 422)
    assert error["path"] == "state" and "bot-move" in error["error"]
    drawn = post(client, f"{game}/bot-move", {"state": opening.to_json(), "seed": 1})
    assert drawn["by"] == "chance"
