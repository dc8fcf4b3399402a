"""The HTTP API, tested through a real uvicorn server on a loopback port.

Every answer is checked against the library's own answer for the same question;
errors against their status and field path; the bounds (body size, page size,
time limit) and the two lanes (a slow request does not hold up the others)
against the server's behaviour. Schemathesis fuzzes every endpoint from the
server's own OpenAPI document: no 5xx, and every response matches the document.
Every registered game is played through the generic endpoints in
``test_http_every_game.py``; the deprecated endpoints are tested in
``test_legacy_http.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from legalis.model.coin.deck import deck_from_toml
from legalis.model.errors import InputError
from legalis.model.sevenyears.moves import Lay
from legalis.verify.coin import verify_coin
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from legalis.capabilities import VerifyInput, verifier, with_capability
from legalis.registry import game_entry, games, load_game
from legalis.server import (
    SHUTDOWN_SECONDS,
    Limits,
    WorkerPool,
    create_app,
    max_workers,
    openapi_document,
    openapi_text,
)

ROOT = Path(__file__).resolve().parents[2]
LIMITS = Limits(max_body_bytes=400_000, max_page=50, time_limit=20.0)


@contextmanager
def running(limits: Limits, app: Any = None) -> Iterator[str]:
    """A uvicorn server for ``app`` (default ``create_app(limits)``) in a thread;
    yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app or create_app(limits), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running(LIMITS) as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as session:
        yield session


def post(client: httpx.Client, path: str, body: Any) -> httpx.Response:
    return client.post(path, json=body)


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert isinstance(body["error"], str) and body["error"]
    return body


# ---------------------------------------------------------------------- fixtures of the games


def sevenyears_state(seed: int = 3) -> tuple[Any, Any]:
    """A Seven Years War state at a conflict decision, reached by seeded random play."""
    game = load_game("sevenyears")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance or state.phase != "conflict":
        view = state.legal_moves()
        state.play(state.sample_chance(rng) if state.is_chance else view.random(rng))
    return game, state


def refused_lay(game: Any, state: Any) -> Any:
    player = game.players.index(state.to_move)
    view = state.legal_moves()
    for card in sorted(set(state.hands[player])):
        for area in range(len(game.data.areas)):
            if view.refusal(Lay(player, card, area)) is not None:
                return Lay(player, card, area)
    raise AssertionError("every lay is legal here")


def sample_deck_json(game: str) -> dict[str, Any]:
    text = resources.files(f"legalis.model.{game}").joinpath("decks/sample.toml").read_text()
    return tomllib.loads(text)


def big_deck() -> dict[str, Any]:
    """The LoD sample deck three times over (renumbered): a request of a second or so."""
    raw = sample_deck_json("lod")
    cards = [
        {**card, "number": card["number"] + 1000 * copy}
        for copy in range(3)
        for card in raw["card"]
    ]
    return {**raw, "card": cards}


def listed_moves(game: Any, moves: list[Any]) -> list[dict[str, Any]]:
    """Moves as a page of the moves endpoint lists them."""
    return [
        {"move": game.move_to_json(move), "description": game.describe_move(move),
         "group": game.move_group(move)}
        for move in moves
    ]  # fmt: skip


# ---------------------------------------------------------------------- games and schemas


def test_every_schema_a_game_lists_is_served_as_published(client: httpx.Client) -> None:
    listed = {name for game in client.get("/v1/games").json()["games"] for name in game["schemas"]}
    assert {"sevenyears-move", "finding", "fixture"} <= listed
    for name in sorted(listed):
        response = client.get(f"/v1/schemas/{name}")
        assert response.status_code == 200, name
        published = ROOT / "docs" / "schemas" / f"{name}.schema.json"
        assert response.json() == json.loads(published.read_text(encoding="utf-8")), name
    body = error_of(client.get("/v1/schemas/no-such-thing"), 422)
    assert body["path"] == "name" and "finding" in body["allowed"]


def test_games_say_which_have_verification_and_fixtures(client: httpx.Client) -> None:
    for listed in client.get("/v1/games").json()["games"]:
        for capability in ("verify", "fixtures"):
            offered = listed["name"] in with_capability(capability)
            assert (capability in listed["supports"]) == offered, (listed["name"], capability)


def test_a_server_of_some_games_serves_those_alone() -> None:
    with running(LIMITS, create_app(LIMITS, ["lod"])) as url, httpx.Client(base_url=url) as only:
        assert [listed["name"] for listed in only.get("/v1/games").json()["games"]] == ["lod"]
        body = error_of(only.post("/v1/sevenyears/new", json={}), 422)
        assert body["path"] == "game" and body["allowed"] == ["lod"]
        assert only.post("/v1/lod/new", json={"seed": 2}).status_code == 200


# ---------------------------------------------------------------------- verification and fixtures


@pytest.mark.parametrize("game", with_capability("fixtures"))
def test_fixtures_are_the_library_s_and_hold(client: httpx.Client, game: str) -> None:
    from legalis.verify.fixtures import build_fixtures, check_fixture_data

    answer = post(client, f"/v1/{game}/fixtures", {"per_rule": 1, "seed": 4}).json()
    manifest, built = build_fixtures(game, per_rule=1, seed=4)
    assert answer == {"manifest": manifest.to_json(), "fixtures": built}
    for index, fixture in enumerate(answer["fixtures"]):
        assert check_fixture_data(fixture, f"fixtures[{index}]") == []
    body = error_of(post(client, f"/v1/{game}/fixtures", {"per_rule": 9}), 422)
    assert body["path"] == "per_rule"


def test_fixtures_of_a_game_without_them_is_422_naming_the_games_with_them(
    client: httpx.Client,
) -> None:
    body = error_of(post(client, "/v1/chess/fixtures", {"per_rule": 9}), 422)
    assert body["path"] == "game" and body["allowed"] == with_capability("fixtures")


@pytest.mark.parametrize("game", with_capability("verify"))
def test_verify_of_the_bundled_data_is_the_library_s_report(
    client: httpx.Client, game: str
) -> None:
    answer = post(client, f"/v1/{game}/verify", {})
    assert answer.status_code == 200, answer.text
    expected = verifier(game)(VerifyInput()).to_json()
    got = answer.json()
    assert (got["ok"], got["game"], got["findings"]) == (
        expected["ok"], expected["game"], expected["findings"])  # fmt: skip
    assert set(got) == set(expected) | {"ok"}


def test_verify_reads_a_deck_and_names_the_bad_field(client: httpx.Client) -> None:
    raw = sample_deck_json("lod")
    answer = post(client, "/v1/lod/verify", {"data": raw, "strict": True})
    assert answer.status_code == 200, answer.text
    got, expected = answer.json(), verify_coin("lod", deck_from_toml(raw), strict=True).to_json()
    assert (got["ok"], got["findings"]) == (expected["ok"], expected["findings"])
    assert got["rule_set"]["consistent"] == expected["rule_set"]["consistent"]
    # a deck of another game, a card without its number, an input the game does not read
    for body, path in (
        ({"data": sample_deck_json("fitl")}, "data.game"),
        ({"data": {**raw, "card": [{"title": "x"}]}}, "data.card[0]"),
        ({"options": {"scenario": "1778"}}, "options"),
    ):
        refused = error_of(post(client, "/v1/lod/verify", body), 422)
        assert refused["path"].startswith(path), refused


def test_verify_of_a_game_without_it_is_422_naming_the_games_with_it(
    client: httpx.Client,
) -> None:
    body = error_of(post(client, "/v1/chess/verify", {}), 422)
    assert body["path"] == "game" and body["allowed"] == with_capability("verify")


# ---------------------------------------------------------------------- the Seven Years War


def test_validate_gives_the_summary(client: httpx.Client) -> None:
    game, state = sevenyears_state()
    response = post(client, "/v1/sevenyears/validate", {"state": state.to_json()})
    assert response.status_code == 200
    answer = response.json()
    assert answer["ok"] is True and answer["summary"] == game.summary(state)
    assert answer["state"] == state.to_json() and answer["to_move"] == state.to_move


def test_validate_names_the_bad_field(client: httpx.Client) -> None:
    _, state = sevenyears_state()
    raw = state.to_json()
    del raw["options"]
    body = error_of(post(client, "/v1/sevenyears/validate", {"state": raw}), 422)
    assert body["path"] == "state.options"
    body = error_of(post(client, "/v1/sevenyears/validate", {"state": {**raw, "turn": -4}}), 422)
    assert body["path"].startswith("state")


def test_moves_count_and_pages_match_the_library(client: httpx.Client) -> None:
    game, state = sevenyears_state()
    view = state.legal_moves()
    first = post(client, "/v1/sevenyears/moves", {"state": state.to_json(), "limit": 5}).json()
    assert first["count"] == view.count() and first["to_move"] == state.to_move
    assert first["moves"] == listed_moves(game, [view.nth(i) for i in range(5)])
    later = post(
        client, "/v1/sevenyears/moves", {"state": state.to_json(), "offset": 2, "limit": 3}
    ).json()
    assert later["moves"] == listed_moves(game, [view.nth(i) for i in range(2, 5)])
    capped = post(client, "/v1/sevenyears/moves", {"state": state.to_json(), "limit": 10**6})
    assert capped.json()["limit"] == LIMITS.max_page
    beyond = post(client, "/v1/sevenyears/moves", {"state": state.to_json(), "offset": 10**9})
    assert beyond.json()["moves"] == [] and beyond.json()["count"] == view.count()


def test_a_chance_state_counts_without_listing(client: httpx.Client) -> None:
    game = load_game("sevenyears")
    state = game.new_initial_state()  # the first shuffle: 88 cards' distinct orders
    answer = post(client, "/v1/sevenyears/moves", {"state": state.to_json(), "limit": 2}).json()
    assert answer["count"] == state.legal_moves().count() and len(answer["moves"]) == 2


def test_check_gives_the_verdict_and_the_rule(client: httpx.Client) -> None:
    game, state = sevenyears_state()
    legal = state.legal_moves().nth(0)
    answer = post(
        client,
        "/v1/sevenyears/check",
        {"state": state.to_json(), "move": game.move_to_json(legal)},
    ).json()
    assert answer["legal"] is True and answer["move"] == game.move_to_json(legal)
    wrong = refused_lay(game, state)
    answer = post(
        client, "/v1/sevenyears/check", {"state": state.to_json(), "move": game.move_to_json(wrong)}
    ).json()
    expected = state.legal_moves().verdict(wrong)
    assert (answer["legal"], answer["reason"], answer["rule"]) == (
        False,
        expected.reason,
        expected.rule,
    )


def test_apply_gives_the_next_state_or_409(client: httpx.Client) -> None:
    game, state = sevenyears_state()
    move = state.legal_moves().nth(0)
    answer = post(
        client, "/v1/sevenyears/apply", {"state": state.to_json(), "move": game.move_to_json(move)}
    ).json()
    assert answer["state"] == state.apply(move).to_json()
    wrong = refused_lay(game, state)
    body = error_of(
        post(
            client,
            "/v1/sevenyears/apply",
            {"state": state.to_json(), "move": game.move_to_json(wrong)},
        ),
        409,
    )
    assert body["rule"] == state.legal_moves().verdict(wrong).rule


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"move": {"type": "pass", "player": "british"}}, "state"),
        ({"state": None, "move": {}}, "state"),
        ({"state": "STATE", "move": {}}, "move.type"),
        ({"state": "STATE", "move": {"type": "lay", "player": "british"}}, "move.card"),
        ({"state": "STATE", "move": {"type": "pass", "player": "nobody"}}, "move.player"),
        ({"state": "STATE", "move": {}, "extra": 1}, "extra"),
    ],
)
def test_bad_input_is_422_with_the_path(
    client: httpx.Client, body: dict[str, Any], path: str
) -> None:
    _, state = sevenyears_state()
    if body.get("state") == "STATE":
        body = {**body, "state": state.to_json()}
    assert error_of(post(client, "/v1/sevenyears/check", body), 422)["path"] == path


def test_a_body_that_is_not_json_is_422(client: httpx.Client) -> None:
    response = client.post(
        "/v1/sevenyears/moves", content=b"{not json", headers={"content-type": "application/json"}
    )
    error_of(response, 422)
    error_of(client.post("/v1/sevenyears/moves"), 422)


# ---------------------------------------------------------------------- bounds and lanes


def test_an_oversized_body_is_413(client: httpx.Client) -> None:
    big = {"data": {"padding": "x" * (LIMITS.max_body_bytes + 1)}}
    body = error_of(post(client, "/v1/lod/verify", big), 413)
    assert body["path"] == "body"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"data": {"padding": "'
        for _ in range(LIMITS.max_body_bytes // 10_000 + 2):
            yield b"x" * 10_000
        yield b'"}}'

    response = client.post(
        "/v1/lod/verify", content=chunks(), headers={"content-type": "application/json"}
    )
    error_of(response, 413)
    assert client.get("/v1/games").status_code == 200  # the server carries on


def test_past_the_time_limit_is_503() -> None:
    with running(Limits(time_limit=0.05)) as url, httpx.Client(base_url=url, timeout=30) as slow:
        body = error_of(post(slow, "/v1/lod/verify", {"data": big_deck()}), 503)
        assert "time limit" in body["error"]
        assert slow.get("/v1/games").status_code == 200


def test_a_slow_request_does_not_hold_up_the_others(client: httpx.Client, base_url: str) -> None:
    result: list[httpx.Response] = []

    def slow_request() -> None:
        with httpx.Client(base_url=base_url, timeout=60) as own:
            result.append(post(own, "/v1/lod/verify", {"data": big_deck()}))

    slow = threading.Thread(target=slow_request)
    started = time.perf_counter()
    slow.start()
    time.sleep(0.1)
    answered = []
    _, state = sevenyears_state()
    for _ in range(5):
        answered.append(post(client, "/v1/sevenyears/moves", {"state": state.to_json()}))
        answered.append(client.get("/v1/games"))
    quick_done = time.perf_counter() - started
    assert all(response.status_code == 200 for response in answered)
    assert slow.is_alive(), f"the slow request ended within {quick_done:.2f} s"
    slow.join(timeout=60)
    assert result and result[0].status_code == 200
    assert time.perf_counter() - started > quick_done


SEVENYEARS_STATE = {"state": {"game": "sevenyears"}}


@pytest.mark.parametrize(
    ("limits", "patched", "path", "body", "expected"),
    [
        (Limits(threads=1), "_game_state", "/v1/sevenyears/moves", SEVENYEARS_STATE, 1),
        (Limits(threads=3), "_game_state", "/v1/sevenyears/moves", SEVENYEARS_STATE, 3),
    ],
)
def test_each_kind_of_work_runs_in_at_most_its_threads(
    monkeypatch: pytest.MonkeyPatch,
    limits: Limits,
    patched: str,
    path: str,
    body: dict[str, Any],
    expected: int,
) -> None:
    import legalis.server as server

    running_now, most = [0], [0]
    lock = threading.Lock()

    def busy(*_: Any) -> Any:
        with lock:
            running_now[0] += 1
            most[0] = max(most[0], running_now[0])
        time.sleep(0.15)
        with lock:
            running_now[0] -= 1
        raise InputError("stand-in work", path="state")

    monkeypatch.setattr(server, patched, busy)
    with running(limits) as url:

        def request() -> None:
            with httpx.Client(base_url=url, timeout=60) as own:
                assert post(own, path, body).status_code == 422

        requests = [threading.Thread(target=request) for _ in range(6)]
        for thread in requests:
            thread.start()
        for thread in requests:
            thread.join(timeout=60)
    assert most[0] == expected


# ---------------------------------------------------------------------- the OpenAPI document


def test_the_committed_openapi_document_is_current(client: httpx.Client) -> None:
    committed = (ROOT / "docs" / "openapi.json").read_text(encoding="utf-8")
    assert committed == openapi_text(), "run: python -m legalis.server docs/openapi.json"
    assert client.get("/openapi.json").json() == openapi_document() == json.loads(committed)


OPERATIONS = [
    (method.upper(), path)
    for path, methods in openapi_document()["paths"].items()
    for method in methods
]


@pytest.fixture(scope="module")
def api_schema(base_url: str) -> Any:
    """The OpenAPI document as the running server serves it."""
    return schemathesis.openapi.from_url(f"{base_url}/openapi.json")


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_every_endpoint_survives_fuzzing(
    api_schema: Any, base_url: str, method: str, path: str
) -> None:
    """Generated requests: never a 5xx, and every response as the document describes it."""
    operation = api_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def check(case: Any) -> None:
        case.call_and_validate(
            base_url=base_url,
            checks=[not_a_server_error, response_schema_conformance],
            timeout=3 * LIMITS.time_limit,  # the server's time limit answers, not the client's
        )

    check()


# ---------------------------------------------------------------------- hardening


LEGALIS = [sys.executable, "-m", "legalis"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_refuses_more_workers_than_its_bound() -> None:
    done = subprocess.run([*LEGALIS, "serve", "--workers", "100000"], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--workers" in done.stderr
    assert f"1..{max_workers()}" in done.stderr


def test_serve_on_a_busy_port_is_bad_input_naming_the_port() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*LEGALIS, "serve", "--port", str(port)], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and f"port {port}" in done.stderr


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_stops_within_seconds_of_sigterm(workers: int) -> None:
    port = free_port()
    command = [*LEGALIS, "serve", "--port", str(port), "--workers", str(workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None and time.monotonic() < deadline, "did not start"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        signalled = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=SHUTDOWN_SECONDS + 8)
        assert time.monotonic() - signalled < SHUTDOWN_SECONDS + 8
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_worker_process_is_ready_before_the_first_request() -> None:
    # the first costly request's time limit is not spent starting processes
    app = create_app(Limits(time_limit=0.5))
    pool: WorkerPool = app.state.pool
    with running(app.state.limits, app):
        assert len(pool.pids()) == 1
    assert pool.pids() == []  # stopped with the application


def test_when_time_is_up_the_work_stops_and_its_process_is_gone() -> None:
    app = create_app(Limits(time_limit=0.5))
    pool: WorkerPool = app.state.pool
    seen: set[int] = set()
    with running(app.state.limits, app) as url, httpx.Client(base_url=url, timeout=30) as own:
        answers: list[httpx.Response] = []
        slow = threading.Thread(
            target=lambda: answers.append(post(own, "/v1/lod/verify", {"data": big_deck()}))
        )
        slow.start()
        while slow.is_alive():
            seen.update(pool.pids())
            time.sleep(0.02)
        ended = time.monotonic()
        assert "time limit" in error_of(answers[0], 503)["error"]
        assert seen, "the work ran in a worker process"
        while any(alive(pid) for pid in seen) and time.monotonic() - ended < 1:
            time.sleep(0.02)
        assert not any(alive(pid) for pid in seen), "the work went on after its 503"
        assert post(own, "/v1/lod/verify", {"data": {}}).status_code == 422  # a fresh one


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_full_lane_is_refused_at_once_and_cheap_work_goes_on() -> None:
    """With the process lane full, costly work is refused at once, a game whose states
    cost what the request decides (LoD) is costly work, and the thread lane's games
    answer as before."""
    limits = Limits(processes=1, process_queue=0, time_limit=30)
    _, state = sevenyears_state()
    lod = load_game("lod").new_initial_state().to_json()
    with running(limits) as url, httpx.Client(base_url=url, timeout=60) as own:
        answers: list[httpx.Response] = []
        slow = threading.Thread(
            target=lambda: answers.append(post(own, "/v1/lod/verify", {"data": big_deck()}))
        )
        slow.start()
        time.sleep(0.3)
        with httpx.Client(base_url=url, timeout=60) as other:
            refused = post(other, "/v1/lod/verify", {"data": big_deck()})
            costly_game = post(other, "/v1/lod/validate", {"state": lod})
            started = time.perf_counter()
            cheap = post(other, "/v1/sevenyears/moves", {"state": state.to_json(), "limit": 3})
            cheap_took = time.perf_counter() - started
        assert slow.is_alive(), "the costly request ended too soon to test this"
        slow.join(timeout=60)
    assert "busy" in error_of(refused, 503)["error"]
    assert int(refused.headers["retry-after"]) >= 1
    assert "busy" in error_of(costly_game, 503)["error"]
    assert game_entry("sevenyears").quick and not game_entry("lod").quick
    assert cheap.status_code == 200 and cheap_took < 1.0
    assert answers[0].status_code == 200


def test_a_lone_surrogate_is_answered_in_json_not_a_500(client: httpx.Client) -> None:
    _, state = sevenyears_state()
    text = json.dumps({"state": state.to_json(), "move": {"type": "pass", "player": "\ud800"}})
    response = client.post("/v1/sevenyears/check", content=text.encode(),
                           headers={"content-type": "application/json"})  # fmt: skip
    assert error_of(response, 422)["path"] == "move.player"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [("/v1/lod/fixtures", {"seed": False}, "seed"),
     ("/v1/sevenyears/moves", {"state": {}, "limit": "5"}, "limit"),
     ("/v1/sevenyears/moves", {"state": {}, "offset": 2.5}, "offset"),
     ("/v1/lod/bot-move", {"state": {}, "seed": True}, "seed"),
     ("/v1/lod/verify", {"strict": "yes"}, "strict"),
     ("/v1/sevenyears/new", {"seed": "1"}, "seed")],
)  # fmt: skip
def test_values_of_another_type_are_refused(
    client: httpx.Client, path: str, body: dict[str, Any], field: str
) -> None:
    assert error_of(post(client, path, body), 422)["path"] == field


@pytest.mark.parametrize("content", [b'"\xff"', b'{"state": "\xc3"}', b"\x00"])
def test_a_body_that_cannot_be_read_is_422_in_the_one_error_shape(
    client: httpx.Client, content: bytes
) -> None:
    response = client.post("/v1/sevenyears/moves", content=content,
                           headers={"content-type": "application/json"})  # fmt: skip
    assert set(error_of(response, 422)) == {"error", "path"}
    assert set(error_of(client.get("/v1/nowhere"), 404)) == {"error"}


def test_the_openapi_document_uses_the_published_schemas_and_links() -> None:
    """A state or a move is one of the registered games' published documents; a game
    whose schema is not published stands as any object, so every reference resolves."""
    from legalis.schemas import schemas as published

    document = openapi_document()
    schemas = document["components"]["schemas"]
    assert {"sevenyears-move", "lod-state", "fitl-state", "coin-deck", "finding"} <= set(schemas)
    text = json.dumps(document)
    assert "#/$defs/" not in text
    for name in re.findall(r'"#/components/schemas/([^"]+)"', text):
        assert name in schemas, name
    for model, field, suffix in (("MoveRequest", "state", "-game-state"),
                                 ("MoveRequest", "move", "-move"),
                                 ("NewResponse", "state", "-game-state")):  # fmt: skip
        found = schemas[model]["properties"][field]
        choices = found.get("anyOf") or found["allOf"]
        assert len(choices) == len(games())
        for game, choice in zip(games(), choices, strict=True):
            name = f"{game}{suffix}"
            if name in published():
                assert choice == {"$ref": f"#/components/schemas/{name}"}
            else:
                assert choice["type"] == "object" and name in choice["description"]
    paths = document["paths"]
    new = paths["/v1/{game}/new"]["post"]["responses"]["200"]["links"]["Moves"]
    assert new["requestBody"]["state"] == "$response.body#/state"
    assert new["parameters"] == {"path.game": "$request.path.game"}
    listed = paths["/v1/{game}/moves"]["post"]["responses"]["200"]["links"]
    for link in ("Check", "Apply"):
        assert listed[link]["requestBody"] == {
            "state": "$request.body#/state", "move": "$response.body#/moves/0/move"}  # fmt: skip
    applied = paths["/v1/{game}/apply"]["post"]["responses"]["200"]["links"]["Moves"]
    assert applied["requestBody"]["state"] == "$response.body#/state"
    (game,) = paths["/v1/{game}/moves"]["post"]["parameters"]
    assert game["schema"]["enum"] == games()


def test_new_gives_the_first_decision_of_a_seeded_game(client: httpx.Client) -> None:
    answer = post(client, "/v1/sevenyears/new", {"seed": 5}).json()
    assert answer == post(client, "/v1/sevenyears/new", {"seed": 5}).json()
    assert answer["state"]["to_move"] in ("british", "french")
    moves = post(client, "/v1/sevenyears/moves", {"state": answer["state"]}).json()
    assert moves["count"] > 0


def test_a_lone_surrogate_echoed_in_an_answer_is_escaped_not_a_500() -> None:
    from legalis.server import AsciiJSONResponse

    body = AsciiJSONResponse({"echo": "\ud800 and é"}).body
    assert body == b'{"echo":"\\ud800 and \\u00e9"}'
    assert json.loads(body) == {"echo": "\ud800 and é"}


def test_a_body_sent_too_slowly_is_408_and_the_connection_closed() -> None:
    with running(Limits(time_limit=0.5)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(
                b"POST /v1/sevenyears/validate HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )  # then nothing: 99 bytes never come
            started = time.monotonic()
            answer = b""
            while chunk := sock.recv(4096):  # read until the server closes
                answer += chunk
            waited = time.monotonic() - started
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and waited < 5
        assert json.loads(body)["path"] == "body"


def test_a_whole_number_written_with_a_fraction_is_an_integer(client: httpx.Client) -> None:
    """JSON Schema, and so the OpenAPI document, reads 65537.0 as an integer: it is
    accepted as 65537; a real fraction, text or a boolean stays refused."""
    whole = post(client, "/v1/sevenyears/new", {"seed": 65537.0})
    assert whole.status_code == 200, whole.text
    assert whole.json() == post(client, "/v1/sevenyears/new", {"seed": 65537}).json()
    fixtures = post(client, "/v1/lod/fixtures", {"per_rule": 1.0, "seed": 2.0})
    assert fixtures.status_code == 200, fixtures.text
    for refused in (65537.5, "65537", True):
        refusal = error_of(post(client, "/v1/sevenyears/new", {"seed": refused}), 422)
        assert refusal["path"] == "seed"
