"""Every registered game played over the generic HTTP endpoints, ``/v1/{game}/...``.

One suite, parametrised over ``legalis.games()`` (as ``test_game_protocol.py`` is for
the Python protocol), so a game registered later is played here too: a new game, its
moves, each listed move checked and one applied, automatic seats, paging, refusals
of bad and illegal moves and of another game's state, and a game played to its end.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import legalis
from legalis.server import Limits, create_app

GAMES = legalis.games()
LIMITS = Limits(max_page=50, time_limit=120.0)
DEPTH = 4  # decisions of the stateful walk: past the opening (a LoD check may count
# thousands of moves a few steps later, for seconds each)
PAGE = 4  # moves listed, and each checked, at every decision of the walk
FEW = 60  # a state with at most this many moves is paged through in full
FIELDS = ("game", "state", "to_move", "is_over", "result", "summary")  # of every state answer
LONGEST = 1000  # bot moves a game is followed for before its end is given up on


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(LIMITS)) as session:
        yield session


def call(client: TestClient, game: str, endpoint: str, body: Any, status: int = 200) -> Any:
    response = client.post(f"/v1/{game}/{endpoint}", json=body)
    assert response.status_code == status, (endpoint, response.text)
    return response.json()


def new_state(client: TestClient, game: str, seed: int = 2) -> dict[str, Any]:
    answer: dict[str, Any] = call(client, game, "new", {"seed": seed})
    return answer


def listing(client: TestClient, game: str, state: Any, **page: int) -> dict[str, Any]:
    answer: dict[str, Any] = call(client, game, "moves", {"state": state, **page})
    return answer


def step_by_bot(client: TestClient, game: str, state: Any, seed: int) -> dict[str, Any]:
    answer: dict[str, Any] = call(
        client, game, "bot-move", {"state": state, "seat": "random", "seed": seed}
    )
    return answer


@pytest.mark.parametrize("game", GAMES)
def test_new_moves_check_apply_and_bot_moves_agree(client: TestClient, game: str) -> None:
    """A walk of DEPTH decisions: every listed move is legal by check, applying one
    gives the state the library gives, the bot's move was legal, and every state
    validates and reads back as written."""
    answer = new_state(client, game)
    assert answer["game"] == game and answer["state"]["game"] == game
    model = legalis.load_game(game, answer["state"]["options"])
    for step in range(DEPTH):
        state = answer["state"]
        assert (answer["result"] is None) == (not answer["is_over"])
        assert model.state_from_json(json.loads(json.dumps(state))).to_json() == state
        validated = call(client, game, "validate", {"state": state})
        assert validated == {"ok": True, **{k: v for k, v in answer.items() if k in FIELDS}}
        if answer["is_over"]:
            break
        page = listing(client, game, state, limit=PAGE)
        assert page["game"] == game and page["to_move"] == answer["to_move"]
        assert len(page["moves"]) == min(page["count"], PAGE) > 0
        for listed in page["moves"]:
            verdict = call(client, game, "check", {"state": state, "move": listed["move"]})
            assert verdict["legal"], verdict
            assert verdict["move"] == listed["move"]
            assert verdict["description"] == listed["description"] and listed["group"]
        if step % 2 == 0:
            chosen = page["moves"][-1]["move"]
            answer = call(client, game, "apply", {"state": state, "move": chosen})
            expected = model.state_from_json(state).apply(model.move_from_json(chosen))
            assert answer["move"] == chosen and answer["state"] == expected.to_json()
        else:
            answer = step_by_bot(client, game, state, seed=step)
            assert answer["by"] == page["to_move"]
            assert call(client, game, "check", {"state": state, "move": answer["move"]})["legal"]


def state_with_few_moves(client: TestClient, game: str) -> tuple[Any, int]:
    """A state of a random game with 2 to FEW legal moves, and their count (new games
    of other seeds while one ends first)."""
    for seed in range(1, 11):
        answer = new_state(client, game, seed=seed)
        for step in range(50):
            count = listing(client, game, answer["state"], limit=0)["count"]
            if 1 < count <= FEW:
                return answer["state"], count
            if answer["is_over"]:
                break
            answer = step_by_bot(client, game, answer["state"], seed=step)
    raise AssertionError(f"no state with 2 to {FEW} moves met in 10 games of {game}")


@pytest.mark.parametrize("game", GAMES)
def test_pages_add_up_to_the_count(client: TestClient, game: str) -> None:
    state, count = state_with_few_moves(client, game)
    whole = listing(client, game, state, limit=count)["moves"]
    size = max(2, count // 5)
    paged: list[Any] = []
    for offset in range(0, count + size, size):  # one page past the end, which is empty
        page = listing(client, game, state, offset=offset, limit=size)
        assert page["count"] == count and page["offset"] == offset
        paged += page["moves"]
    assert paged == whole and len(paged) == count
    assert len({json.dumps(listed["move"], sort_keys=True) for listed in paged}) == count


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("move", [{}, {"type": "no-such-move"}, {"type": 5}, []])
def test_a_move_of_the_wrong_shape_is_422_with_its_path(
    client: TestClient, game: str, move: Any
) -> None:
    state = new_state(client, game)["state"]
    for endpoint in ("check", "apply"):
        refused = call(client, game, endpoint, {"state": state, "move": move}, status=422)
        assert refused["path"].startswith("move"), refused


@pytest.mark.parametrize("game", GAMES)
def test_a_move_no_longer_legal_is_409_with_its_rule(client: TestClient, game: str) -> None:
    """A move legal at one state, applied, is refused at the next (by check, with the
    reason and the rule, and by apply, 409 with the same rule)."""
    before = new_state(client, game)["state"]
    listed = [m["move"] for m in listing(client, game, before, limit=PAGE)["moves"]]
    after = call(client, game, "apply", {"state": before, "move": listed[0]})["state"]
    for move in listed:
        verdict = call(client, game, "check", {"state": after, "move": move})
        if not verdict["legal"]:
            break
    else:
        raise AssertionError("every move of the state before is still legal after")
    assert verdict["rule"] and verdict["reason"]
    refused = call(client, game, "apply", {"state": after, "move": move}, status=409)
    assert refused["rule"] == verdict["rule"] and "illegal move" in refused["error"]


@pytest.mark.parametrize("game", GAMES)
def test_a_state_of_another_game_is_422_at_state_game(client: TestClient, game: str) -> None:
    state = new_state(client, game)["state"]
    for other in [name for name in GAMES if name != game]:
        for endpoint, body in (("validate", {}), ("moves", {}), ("bot-move", {"seed": 1})):
            refused = call(client, other, endpoint, {"state": state, **body}, status=422)
            assert refused["path"] == "state.game" and refused["allowed"] == [other]
    nameless = {key: value for key, value in state.items() if key != "game"}
    for raw in (nameless, {**state, "game": "chess"}):
        refused = call(client, game, "validate", {"state": raw}, status=422)
        assert refused["path"] == "state.game" and refused["allowed"] == [game]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_to_its_end_has_a_result(client: TestClient, game: str) -> None:
    answer = new_state(client, game, seed=3)
    for seed in range(LONGEST):
        if answer["is_over"]:
            break
        assert answer["result"] is None
        answer = step_by_bot(client, game, answer["state"], seed)
    if not answer["is_over"]:
        return  # a long game: its result is checked by the walk's states
    result = answer["result"]
    assert result["winner"] is None or result["winner"] in legalis.load_game(game).players
    assert isinstance(result["condition"], str) and result["condition"]
    final = listing(client, game, answer["state"])
    assert final["count"] == 0 and final["moves"] == []
    over = call(client, game, "bot-move", {"state": answer["state"]}, status=422)
    assert over["path"] == "state"


@pytest.mark.parametrize("game", GAMES)
def test_every_automatic_seat_moves_and_a_person_does_not(client: TestClient, game: str) -> None:
    (listed,) = [g for g in client.get("/v1/games").json()["games"] if g["name"] == game]
    answer = new_state(client, game)
    state = answer["state"]
    while answer["to_move"] == "chance":  # chance decides whatever the seat
        answer = step_by_bot(client, game, answer["state"], seed=1)
        state = answer["state"]
    for seat in ("random", "greedy"):
        assert seat in listed["seat_kinds"]
        moved = call(client, game, "bot-move", {"state": state, "seat": seat, "seed": 4})
        assert moved == call(client, game, "bot-move", {"state": state, "seat": seat, "seed": 4})
        assert moved["by"] == answer["to_move"]
        assert call(client, game, "check", {"state": state, "move": moved["move"]})["legal"]
    refused = call(client, game, "bot-move", {"state": state, "seat": "human"}, status=422)
    assert refused["path"] == "seat" and "human" not in refused["allowed"]
    assert {"random", "greedy"} <= set(refused["allowed"])


@pytest.mark.parametrize("game", GAMES)
def test_new_reads_rule_options_and_refuses_unknown_ones(client: TestClient, game: str) -> None:
    plain = new_state(client, game)
    # the options a state carries are the game's defaults, and they make the same game
    again = call(client, game, "new", {"seed": 2, "options": plain["state"]["options"]})
    assert again == plain
    refused = call(client, game, "new", {"options": {"no_such_option": 1}}, status=422)
    assert refused["path"] == "options.no_such_option"
    names = {spec["name"] for spec in game_info(client, game)["options"]}
    assert refused["allowed"] and set(refused["allowed"]) <= names


def game_info(client: TestClient, game: str) -> dict[str, Any]:
    (listed,) = [g for g in client.get("/v1/games").json()["games"] if g["name"] == game]
    info: dict[str, Any] = listed
    return info


def test_games_lists_every_registered_game_from_the_registry(client: TestClient) -> None:
    answer = client.get("/v1/games").json()
    assert answer["version"] == "v1" and [g["name"] for g in answer["games"]] == GAMES
    for listed in answer["games"]:
        model = legalis.load_game(listed["name"])
        assert listed["title"] == model.title and listed["players"] == list(model.players)
        assert "human" in listed["seat_kinds"] and "random" in listed["seat_kinds"]
        names = [spec["name"] for spec in listed["options"]]
        assert names == list(legalis.registry.game_entry(listed["name"]).option_names)
        written = model.options.to_json()  # the options a new state carries
        for spec in listed["options"]:
            assert spec["default"] == written.get(spec["name"], spec["default"]), spec
        assert {"new", "validate", "moves", "check", "apply", "bot-move"} <= set(listed["supports"])
        for name in listed["schemas"]:
            assert client.get(f"/v1/schemas/{name}").status_code == 200, name


@pytest.mark.parametrize("endpoint", ["new", "validate", "moves", "check", "apply", "bot-move"])
def test_an_unknown_game_is_422_naming_game_with_the_games(
    client: TestClient, endpoint: str
) -> None:
    refused = call(client, "chess", endpoint, {}, status=422)
    assert refused["path"] == "game" and refused["allowed"] == GAMES
