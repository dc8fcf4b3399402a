"""The HTTP API, tested through a real uvicorn server on a loopback port.

Every answer is checked against the library's own answer for the same question;
errors against their status and field path; the bounds (body size, page size,
time limit) and the worker threads (a slow request does not hold up the others)
against the server's behaviour. Schemathesis fuzzes every endpoint from the
server's own OpenAPI document: no 5xx, and every response matches the document.
"""

from __future__ import annotations

import json
import os
import random
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
from legalis.model.coin.deck import bundled_deck, deck_from_toml
from legalis.model.coin.scenarios import load_scenario
from legalis.model.errors import InputError
from legalis.model.eupop.state import SMALL_STATE
from legalis.model.sevenyears.moves import Lay
from legalis.solver.events import EventMove, legal_event_moves
from legalis.verify.coin import verify_coin
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from legalis.registry import load_game
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


LOD_EVENT = {"scenario": "1776", "card": 24, "side": "unshaded", "faction": "british"}


def lod_view() -> Any:
    return legal_event_moves(
        load_scenario("lod", "1776"), bundled_deck("lod").card(24), "unshaded", "british"
    )


# ---------------------------------------------------------------------- games


def test_games_lists_the_registered_games_and_the_coin_games(client: httpx.Client) -> None:
    response = client.get("/v1/games")
    assert response.status_code == 200
    listed = {game["name"]: game for game in response.json()["games"]}
    assert set(listed) >= {"sevenyears", "lod", "fitl"}
    assert listed["sevenyears"]["supports"] == ["validate", "moves", "check", "apply"]
    assert "reshuffle" in listed["sevenyears"]["options"]
    assert "event-moves" in listed["lod"]["supports"] and "1776" in listed["lod"]["scenarios"]


def test_every_schema_a_game_lists_is_served_as_published(client: httpx.Client) -> None:
    listed = {name for game in client.get("/v1/games").json()["games"] for name in game["schemas"]}
    assert {"lod-state", "coin-event-move", "sevenyears-state", "fixture"} <= listed
    for name in sorted(listed):
        response = client.get(f"/v1/schemas/{name}")
        assert response.status_code == 200, name
        published = ROOT / "docs" / "schemas" / f"{name}.schema.json"
        assert response.json() == json.loads(published.read_text(encoding="utf-8")), name
    body = error_of(client.get("/v1/schemas/no-such-thing"), 422)
    assert body["path"] == "name" and "lod-state" in body["allowed"]


# ---------------------------------------------------------------------- fixtures


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_fixtures_are_the_library_s_and_hold(client: httpx.Client, game: str) -> None:
    from legalis.verify.fixtures import build_fixtures, check_fixture_data

    answer = post(client, f"/v1/{game}/fixtures", {"per_rule": 1, "seed": 4}).json()
    manifest, built = build_fixtures(game, per_rule=1, seed=4)
    assert answer == {"manifest": manifest.to_json(), "fixtures": built}
    for index, fixture in enumerate(answer["fixtures"]):
        assert check_fixture_data(fixture, f"fixtures[{index}]") == []
    body = error_of(post(client, f"/v1/{game}/fixtures", {"per_rule": 9}), 422)
    assert body["path"] == "per_rule"


# ---------------------------------------------------------------------- the Seven Years War


def test_validate_gives_the_summary(client: httpx.Client) -> None:
    game, state = sevenyears_state()
    response = post(client, "/v1/sevenyears/validate", {"state": state.to_json()})
    assert response.status_code == 200
    assert response.json() == {"ok": True, "summary": game.summary(state)}


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
    assert first["moves"] == [game.move_to_json(view.nth(i)) for i in range(min(5, view.count()))]
    later = post(
        client, "/v1/sevenyears/moves", {"state": state.to_json(), "offset": 2, "limit": 3}
    ).json()
    assert later["moves"] == [game.move_to_json(view.nth(i)) for i in range(2, view.count())][:3]
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


# ---------------------------------------------------------------------- COIN events


def test_event_moves_match_the_library(client: httpx.Client) -> None:
    view = lod_view()
    answer = post(client, "/v1/lod/event-moves", {**LOD_EVENT, "limit": 7}).json()
    assert answer["count"] == view.count()
    assert answer["moves"] == [view.nth(i).to_json() for i in range(7)]
    later = post(client, "/v1/lod/event-moves", {**LOD_EVENT, "offset": 5, "limit": 4}).json()
    assert later["moves"] == [view.nth(i).to_json() for i in range(5, 9)]


def test_event_moves_from_a_state_and_a_one_sided_card(client: httpx.Client) -> None:
    state = load_scenario("fitl", "short")
    deck = bundled_deck("fitl")
    card = next(c for c in deck.cards if not c.dual_use)
    side = "unshaded" if card.unshaded is not None else "shaded"
    view = legal_event_moves(state, card, side, card.factions[0])
    body = {"state": state.to_json(), "card": card.number, "faction": card.factions[0]}
    answer = post(client, "/v1/fitl/event-moves", body).json()
    assert (answer["count"], answer["side"]) == (view.count(), side)
    assert answer["moves"] == [move.to_json() for move in list(view)[: LIMITS.max_page]]


def test_event_check_and_apply(client: httpx.Client) -> None:
    view = lod_view()
    move = view.nth(3)
    answer = post(client, "/v1/lod/event-check", {**LOD_EVENT, "move": move.to_json()}).json()
    assert answer["legal"] is True and answer["reason"] == view.explain(move).reason
    wrong = EventMove(24, "unshaded", "british", ())
    answer = post(client, "/v1/lod/event-check", {**LOD_EVENT, "move": wrong.to_json()}).json()
    expected = view.explain(wrong)
    assert (answer["legal"], answer["rule"]) == (False, expected.rule)
    applied = post(client, "/v1/lod/event-apply", {**LOD_EVENT, "move": move.to_json()}).json()
    assert applied["state"] == view.apply(move).to_json()
    body = error_of(
        post(client, "/v1/lod/event-apply", {**LOD_EVENT, "move": wrong.to_json()}), 409
    )
    assert body["rule"] == expected.rule


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"faction": "nobody"}, "faction"),
        ({"scenario": "1492"}, "scenario"),
        ({"scenario": None}, "state"),
        ({"state": {}}, "state"),
        ({"card": 999}, "card"),
        ({"card": "twenty"}, "card"),
        ({"side": "both"}, "side"),
        ({"side": None}, "side"),
        ({"deck": {"game": "fitl", "card": []}}, "deck.card"),
        ({"move": {"card": 24, "side": "unshaded", "faction": "british", "steps": [5.5]}},
         "move.steps[0]"),
        ({"move": {"card": 24}}, "move.side"),
    ],
)  # fmt: skip
def test_bad_event_input_is_422_with_the_path(
    client: httpx.Client, change: dict[str, Any], path: str
) -> None:
    body = {
        **LOD_EVENT,
        "move": {"card": 24, "side": "unshaded", "faction": "british", "steps": []},
    }
    body.update(change)
    assert error_of(post(client, "/v1/lod/event-check", body), 422)["path"] == path


def test_a_bad_coin_state_names_its_field(client: httpx.Client) -> None:
    raw = load_scenario("lod", "1776").to_json()
    raw["spaces"]["Boston"]["pieces"]["village"] = 1
    body = {**LOD_EVENT, "scenario": None, "state": raw}
    assert error_of(post(client, "/v1/lod/event-moves", body), 422)["path"] == (
        "state.spaces.Boston.pieces.village"
    )


def test_an_unknown_game_is_422(client: httpx.Client) -> None:
    assert error_of(post(client, "/v1/chess/event-moves", LOD_EVENT), 422)["path"] == "game"


def test_verify_deck_matches_the_library(client: httpx.Client) -> None:
    raw = sample_deck_json("lod")
    answer = post(client, "/v1/lod/verify-deck", {"deck": raw})
    assert answer.status_code == 200
    got, expected = answer.json(), verify_coin("lod", deck_from_toml(raw)).to_json()
    assert (got["game"], got["ok"], got["findings"]) == (
        expected["game"],
        expected["ok"],
        expected["findings"],
    )

    def proofs(report: dict[str, Any]) -> list[tuple[str, bool]]:
        # Z3's witnesses and unsat cores may differ from run to run; verdicts may not
        return [(proof["name"], proof["proved"]) for proof in report["rule_set"]["effects"]]

    assert proofs(got) == proofs(expected)
    assert got["rule_set"]["consistent"] == expected["rule_set"]["consistent"]
    body = error_of(post(client, "/v1/lod/verify-deck", {"deck": sample_deck_json("fitl")}), 422)
    assert body["path"] == "deck.game"


# ---------------------------------------------------------------------- bounds and threads


def test_an_oversized_body_is_413(client: httpx.Client) -> None:
    big = {**LOD_EVENT, "deck": {"padding": "x" * (LIMITS.max_body_bytes + 1)}}
    body = error_of(post(client, "/v1/lod/event-moves", big), 413)
    assert body["path"] == "body"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"deck": {"padding": "'
        for _ in range(LIMITS.max_body_bytes // 10_000 + 2):
            yield b"x" * 10_000
        yield b'"}}'

    response = client.post(
        "/v1/lod/verify-deck", content=chunks(), headers={"content-type": "application/json"}
    )
    error_of(response, 413)
    assert client.get("/v1/games").status_code == 200  # the server carries on


def big_deck() -> dict[str, Any]:
    """The LoD sample deck three times over (renumbered): a request of a second or so."""
    raw = sample_deck_json("lod")
    cards = [
        {**card, "number": card["number"] + 1000 * copy}
        for copy in range(3)
        for card in raw["card"]
    ]
    return {**raw, "card": cards}


def test_past_the_time_limit_is_503() -> None:
    with running(Limits(time_limit=0.05)) as url, httpx.Client(base_url=url, timeout=30) as slow:
        body = error_of(post(slow, "/v1/lod/verify-deck", {"deck": big_deck()}), 503)
        assert "time limit" in body["error"]
        assert slow.get("/v1/games").status_code == 200


def test_a_slow_request_does_not_hold_up_the_others(client: httpx.Client, base_url: str) -> None:
    result: list[httpx.Response] = []

    def slow_request() -> None:
        with httpx.Client(base_url=base_url, timeout=60) as own:
            result.append(post(own, "/v1/lod/verify-deck", {"deck": big_deck()}))

    slow = threading.Thread(target=slow_request)
    started = time.perf_counter()
    slow.start()
    time.sleep(0.1)
    answered = []
    for _ in range(5):
        answered.append(post(client, "/v1/lod/event-moves", {**LOD_EVENT, "limit": 3}))
        answered.append(client.get("/v1/games"))
    quick_done = time.perf_counter() - started
    assert all(response.status_code == 200 for response in answered)
    assert slow.is_alive(), f"the slow request ended within {quick_done:.2f} s"
    slow.join(timeout=60)
    assert result and result[0].status_code == 200
    assert time.perf_counter() - started > quick_done


@pytest.mark.parametrize(
    ("limits", "patched", "path", "body", "expected"),
    [
        (Limits(threads=1), "_event_view", "/v1/lod/event-moves", LOD_EVENT, 1),
        (Limits(threads=3), "_event_view", "/v1/lod/event-moves", LOD_EVENT, 3),
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
            base_url=base_url, checks=[not_a_server_error, response_schema_conformance]
        )

    check()


# ---------------------------------------------------------------------- EU:PoP


def eupop_state() -> dict[str, Any]:
    from legalis.model.eupop.state import small_state

    return small_state().to_json()


def eupop_view(**arguments: Any) -> Any:
    from legalis.model.eupop.state import state_from_json
    from legalis.solver.eupop_play import effect_view

    state = state_from_json(eupop_state())
    effect, player = arguments.pop("effect"), arguments.pop("player", None)
    return effect_view(state, effect, player, **arguments)


def test_games_lists_eupop(client: httpx.Client) -> None:
    listed = {game["name"]: game for game in client.get("/v1/games").json()["games"]}
    eupop = listed["eupop"]
    assert eupop["title"] == "Europa Universalis: The Price of Power"
    assert eupop["schemas"] == ["eupop-state", "finding"]
    assert "eupop-resolve" in eupop["supports"] and "three_crowns" in eupop["scenarios"]


def test_eupop_validate_gives_the_summary(client: httpx.Client) -> None:
    response = post(client, "/v1/eupop/validate", {"state": eupop_state()})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] is True
    assert body["summary"] == {
        "players": ["france", "england"],
        "active": "france",
        "age": 1,
        "realms": 3,
        "provinces": 2,
        "areas": 1,
    }


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (("realms", "saxony_realm", "kind", "empire"), "state.realms.saxony_realm.kind"),
        (("areas", "saxony", "influence", {"france": -1}), "state.areas.saxony.influence.france"),
        (("players", None, None, ["france", "spain"]), "state.players.spain"),
        (("map", None, None, "elsewhere"), "state.map"),
    ],
)
def test_eupop_validate_names_the_bad_field(
    client: httpx.Client, change: tuple[Any, ...], path: str
) -> None:
    state = eupop_state()
    *keys, value = change
    target = state
    named = [key for key in keys if key is not None]
    for key in named[:-1]:
        target = target[key]
    target[named[-1]] = value
    body = error_of(post(client, "/v1/eupop/validate", {"state": state}), 422)
    assert body["path"] == path


def test_eupop_moves_match_the_library(client: httpx.Client) -> None:
    from legalis.model.eupop.play import jsonable

    arguments = {"effect": "native-uprising", "player": "france"}
    view, _ = eupop_view(**arguments)
    expected = [jsonable(move) for move in view]
    assert len(expected) > 1
    request = {"state": eupop_state(), **arguments}
    whole = post(client, "/v1/eupop/moves", request).json()
    assert whole["count"] == view.count() == len(expected)
    assert whole["moves"] == expected[: LIMITS.max_page]
    page = post(client, "/v1/eupop/moves", {**request, "offset": 1, "limit": 1}).json()
    assert page["moves"] == expected[1:2] and page["limit"] == 1
    capped = post(client, "/v1/eupop/moves", {**request, "limit": 10_000}).json()
    assert capped["limit"] == LIMITS.max_page


def test_eupop_check_gives_the_library_s_verdict(client: httpx.Client) -> None:
    from legalis.solver.eupop_play import move_from_json

    arguments = {"effect": "g", "player": "france", "areas": ["saxony"]}
    view, kind = eupop_view(**arguments)
    request = {"state": eupop_state(), **arguments}
    for move in ({"area": "saxony"}, {"area": "bohemia"}):
        verdict = view.verdict(move_from_json(move, kind))
        response = post(client, "/v1/eupop/check", {**request, "move": move})
        assert response.status_code == 200, response.text
        assert response.json() == {
            "move": move,
            "legal": verdict.legal,
            "reason": verdict.reason,
            "rule": verdict.rule,
        }
    assert (
        post(client, "/v1/eupop/check", {**request, "move": {"area": "bohemia"}}).json()["legal"]
        is False
    )


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"effect": "conquest"}, "effect"),
        ({"player": "spain"}, "player"),
        ({"areas": []}, "areas"),
        ({"amount": 0}, "amount"),
        ({"move": {"province": "Leipzig"}}, "move"),
        ({"colour": 3}, "colour"),
        ({"state": {"players": "france"}}, "state.players"),
    ],
)
def test_eupop_bad_effect_input_is_422_with_the_path(
    client: httpx.Client, change: dict[str, Any], path: str
) -> None:
    request = {"state": eupop_state(), "effect": "g", "player": "france", "areas": ["saxony"]}
    body = error_of(
        post(client, "/v1/eupop/check", {**request, "move": {"area": "saxony"}, **change}), 422
    )
    assert body["path"] == path


def test_eupop_resolve_matches_the_library(client: httpx.Client) -> None:
    from legalis.model.eupop.events import load_catalogue
    from legalis.model.eupop.state import state_from_json
    from legalis.solver.eupop_play import resolve

    event = load_catalogue().event("103-2")
    state = state_from_json(eupop_state())
    for auto, choices in ((False, []), (False, [1]), (False, [2]), (True, [])):
        outcome = resolve(state, event.effects, event.symbols, auto=auto, choices=choices, seed=4)
        request = {"state": eupop_state(), "event": "103-2", "auto": auto, "seed": 4,
                   "choices": choices}  # fmt: skip
        response = post(client, "/v1/eupop/resolve", request)
        assert response.status_code == 200, response.text
        expected = {"event": "103-2", "seed": 4, **outcome.to_json(LIMITS.max_page)}
        assert response.json() == expected
        assert ("pending" in expected) == (outcome.pending is not None)
    pending = post(client, "/v1/eupop/resolve", {"state": eupop_state(), "event": "103-2"})
    assert pending.json()["pending"]["count"] == 2
    assert all({"rule", "decided_by"} <= set(step) for step in pending.json()["log"])


def test_eupop_a_choice_out_of_range_is_409_with_its_rule(client: httpx.Client) -> None:
    request = {"state": eupop_state(), "event": "103-2", "choices": [3]}
    body = error_of(post(client, "/v1/eupop/resolve", request), 409)
    assert body["rule"] == "16.3 General Event guidelines: A)/B) choice"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"event": "999Z"}, "event"),
        ({"auto": True, "choices": [1]}, "choices"),
        ({"choices": [1, 1, 1, 1, 1, 1, 1, 1]}, "choices"),
        ({"state": {**eupop_state(), "active": None}}, "state.active"),
        ({"seed": -1}, "seed"),
    ],
)
def test_eupop_bad_resolve_input_is_422_with_the_path(
    client: httpx.Client, change: dict[str, Any], path: str
) -> None:
    request = {"state": eupop_state(), "event": "103-2", **change}
    assert error_of(post(client, "/v1/eupop/resolve", request), 422)["path"] == path


def test_eupop_deck_matches_the_library_and_its_seed(client: httpx.Client) -> None:
    from legalis.model.eupop.deck import DeckOptions, deck_document, load_scenario
    from legalis.model.eupop.events import load_catalogue

    expected, problems = deck_document(
        load_scenario("three_crowns"), load_catalogue(), 7, options=DeckOptions(randomize_x=True),
        players=5,
    )  # fmt: skip
    assert not problems
    request = {"scenario": "three_crowns", "seed": 7, "randomize_x": True, "players": 5}
    first = post(client, "/v1/eupop/deck", request)
    assert first.status_code == 200, first.text
    assert first.json() == expected and len(first.json()["display"]) == 6
    assert post(client, "/v1/eupop/deck", request).json() == first.json()
    other = post(client, "/v1/eupop/deck", {**request, "seed": 8}).json()
    assert other["ages"] != first.json()["ages"]


@pytest.mark.parametrize(
    ("change", "path"),
    [({"scenario": "/etc/passwd"}, "scenario"), ({"players": 7}, "players")],
)
def test_eupop_bad_deck_input_is_422_with_the_path(
    client: httpx.Client, change: dict[str, Any], path: str
) -> None:
    body = error_of(post(client, "/v1/eupop/deck", {"scenario": "three_crowns", **change}), 422)
    assert body["path"] == path


def test_eupop_options_change_the_moves_and_the_verdict(client: httpx.Client) -> None:
    from legalis.model.eupop.play import PlayOptions, jsonable

    request = {"state": eupop_state(), "effect": "influence", "player": "france",
               "amount": 2, "areas": ["saxony"]}  # fmt: skip
    up_to = {"influence_up_to": True}
    # 16.3 Gain Influence: placed whole by default; in part with influence_up_to
    for options, count in (({}, 1), (up_to, 3)):
        arguments = {key: value for key, value in request.items() if key != "state"}
        view, _ = eupop_view(**arguments, options=PlayOptions.from_json(options))
        answer = post(client, "/v1/eupop/moves", {**request, "options": options}).json()
        assert answer["count"] == count and answer["moves"] == [jsonable(m) for m in view]
    part = {"placed": [["saxony", 1]], "discards": []}
    refused = post(client, "/v1/eupop/check", {**request, "move": part}).json()
    legal = post(client, "/v1/eupop/check", {**request, "move": part, "options": up_to}).json()
    assert not refused["legal"] and legal["legal"]


def test_eupop_options_change_the_resolution(client: httpx.Client) -> None:
    from legalis.model.eupop.events import load_catalogue
    from legalis.model.eupop.play import PlayOptions
    from legalis.model.eupop.state import bundled_state
    from legalis.solver.eupop_play import resolve

    event = load_catalogue().event("101-1")  # 1 Influence in saxony, bohemia or lombardy
    request = {"state": bundled_state().to_json(), "event": "101-1", "auto": True, "seed": 0}
    answers = []
    for options in ({}, {"player_default": "random"}):
        outcome = resolve(bundled_state(), event.effects, event.symbols, auto=True,
                          choices=[], seed=0, options=PlayOptions.from_json(options))  # fmt: skip
        answer = post(client, "/v1/eupop/resolve", {**request, "options": options}).json()
        assert answer == {"event": "101-1", "seed": 0, **outcome.to_json(LIMITS.max_page)}
        answers.append(answer["log"][0]["chosen"]["placed"])
    # the first legal choice (lombardy), or a draw of the seeded source (seed 0: bohemia)
    assert answers == [[["lombardy", 1]], [["bohemia", 1]]]


def test_eupop_options_change_the_deck(client: httpx.Client) -> None:
    request = {"scenario": "three_crowns", "seed": 7}
    plain = post(client, "/v1/eupop/deck", request).json()
    dealt = post(client, "/v1/eupop/deck", {**request, "options": {"randomize_x": True}}).json()
    flag = post(client, "/v1/eupop/deck", {**request, "randomize_x": True}).json()
    assert dealt["ages"] != plain["ages"] and dealt == flag  # Optional Rule 6


@pytest.mark.parametrize(
    ("endpoint", "options", "path"),
    [
        ("moves", {"no_such": 1}, "options.no_such"),
        ("check", {"ab_met": "most"}, "options.ab_met"),
        ("resolve", {"marriage_eligible": "x"}, "options.marriage_eligible"),
        ("deck", {"ab_met": "any"}, "options.ab_met"),
        ("deck", {"odd_x_card": None}, "options.odd_x_card"),
    ],
)
def test_eupop_bad_options_are_422_with_the_path(
    client: httpx.Client, endpoint: str, options: dict[str, Any], path: str
) -> None:
    effect = {"state": eupop_state(), "effect": "g", "player": "france", "areas": ["saxony"]}
    request = {
        "moves": effect,
        "check": {**effect, "move": {"area": "saxony"}},
        "resolve": {"state": eupop_state(), "event": "101-1"},
        "deck": {"scenario": "three_crowns"},
    }[endpoint]
    body = error_of(post(client, f"/v1/eupop/{endpoint}", {**request, "options": options}), 422)
    assert body["path"] == path and body["allowed"]


def request_examples(document: dict[str, Any], prefix: str) -> list[tuple[str, Any]]:
    """Every request-body example of the POST endpoints whose path starts with
    ``prefix``, as ``(path, body)``."""
    schemas = document["components"]["schemas"]
    found: list[tuple[str, Any]] = []
    for path, operations in document["paths"].items():
        body = operations.get("post", {}).get("requestBody")
        if not path.startswith(prefix) or body is None:
            continue
        schema = body["content"]["application/json"]["schema"]
        schema = schemas[schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in schema else schema
        examples = schema.get("examples", [])
        assert examples, f"{path} has no request example"
        found += [(path, example) for example in examples]
    return found


def test_every_eupop_example_of_the_openapi_document_is_accepted(client: httpx.Client) -> None:
    examples = request_examples(openapi_document(), "/v1/eupop/")
    assert {path for path, _ in examples} == {
        "/v1/eupop/validate", "/v1/eupop/moves", "/v1/eupop/check", "/v1/eupop/resolve",
        "/v1/eupop/deck"}  # fmt: skip
    for path, example in examples:
        response = post(client, path, example)
        assert response.status_code == 200, (path, response.text)


@pytest.mark.parametrize(
    ("endpoint", "change", "path", "allowed"),
    [
        ("moves", {"effect": "g", "areas": ["atlantis"]}, "areas[0]", "saxony"),
        ("moves", {"effect": "influence", "amount": 1, "areas": ["saxony", "atlantis"]},
         "areas[1]", "saxony"),
        ("check", {"effect": "units", "amount": 1, "places": ["atlantis"], "move": {}},
         "places[0]", "saxony"),
        ("moves", {"effect": "alliance", "targets": ["atlantis_realm"]}, "targets[0]",
         "saxony_realm"),
    ],
)  # fmt: skip
def test_eupop_unknown_names_are_422_with_the_allowed_values(
    client: httpx.Client, endpoint: str, change: dict[str, Any], path: str, allowed: str
) -> None:
    request = {"state": eupop_state(), "player": "france", **change}
    body = error_of(post(client, f"/v1/eupop/{endpoint}", request), 422)
    assert body["path"] == path and allowed in body["allowed"]


SMALL_REALMS = {"england": {"kind": "player"}, "saxony_realm": {"kind": "npr"}}


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"realms": {**SMALL_REALMS, "france": {"kind": "player", "units_available": 10**9}}},
         "state.realms.france"),
        ({"land_units": {"france": {"saxony": 10**9}}}, "state.realms.france"),
        ({"ships": {"france": {"north_sea": 10**9}}}, "state.ships.france"),
        ({"provinces": {"Leipzig": {"owner": "saxony_realm", "rebels": 10**9},
                        "Dresden": {"owner": "saxony_realm"}}}, "state.provinces"),
        ({"trade_nodes": {"lubeck": {"merchants": {"france": 10**9}}}}, "state.trade_nodes"),
    ],
)  # fmt: skip
def test_eupop_validate_refuses_counts_past_their_limit(
    client: httpx.Client, change: dict[str, Any], path: str
) -> None:
    body = error_of(post(client, "/v1/eupop/validate", {"state": {**eupop_state(), **change}}),
                    422)  # fmt: skip
    assert body["path"] == path and "at most" in body["error"] and "(" in body["error"]


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
            target=lambda: answers.append(post(own, "/v1/lod/verify-deck", {"deck": big_deck()}))
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
        assert post(own, "/v1/lod/verify-deck", {"deck": {}}).status_code == 422  # a fresh one


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_full_lane_is_refused_at_once_and_cheap_work_goes_on() -> None:
    limits = Limits(processes=1, process_queue=0, time_limit=30)
    with running(limits) as url, httpx.Client(base_url=url, timeout=60) as own:
        answers: list[httpx.Response] = []
        slow = threading.Thread(
            target=lambda: answers.append(post(own, "/v1/lod/verify-deck", {"deck": big_deck()}))
        )
        slow.start()
        time.sleep(0.3)
        with httpx.Client(base_url=url, timeout=60) as other:
            refused = post(other, "/v1/lod/verify-deck", {"deck": big_deck()})
            started = time.perf_counter()
            cheap = post(other, "/v1/lod/event-moves", {**LOD_EVENT, "limit": 3})
            cheap_took = time.perf_counter() - started
        assert slow.is_alive(), "the costly request ended too soon to test this"
        slow.join(timeout=60)
    assert "busy" in error_of(refused, 503)["error"]
    assert int(refused.headers["retry-after"]) >= 1
    assert cheap.status_code == 200 and cheap_took < 1.0
    assert answers[0].status_code == 200


@pytest.mark.parametrize(
    ("change", "path"),
    [({"card": 0}, "move.card"), ({"card": -3}, "move.card"), ({"faction": ""}, "move.faction"),
     ({"side": "sideways"}, "move.side"), ({"steps": [5.5]}, "move.steps[0]")],
)  # fmt: skip
def test_event_check_refuses_a_malformed_move_with_its_path(
    client: httpx.Client, change: dict[str, Any], path: str
) -> None:
    move = {**lod_view().nth(0).to_json(), **change}
    for endpoint in ("event-check", "event-apply"):
        body = error_of(post(client, f"/v1/lod/{endpoint}", {**LOD_EVENT, "move": move}), 422)
        assert body["path"] == path


def test_a_lone_surrogate_is_answered_in_json_not_a_500(client: httpx.Client) -> None:
    _, state = sevenyears_state()
    text = json.dumps({"state": state.to_json(), "move": {"type": "pass", "player": "\ud800"}})
    response = client.post("/v1/sevenyears/check", content=text.encode(),
                           headers={"content-type": "application/json"})  # fmt: skip
    assert error_of(response, 422)["path"] == "move.player"
    text = json.dumps({**LOD_EVENT, "faction": "\ud800"})
    response = client.post("/v1/lod/event-moves", content=text.encode(),
                           headers={"content-type": "application/json"})  # fmt: skip
    assert error_of(response, 422)["path"] == "faction"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [("/v1/lod/fixtures", {"seed": False}, "seed"),
     ("/v1/lod/event-moves", {**LOD_EVENT, "limit": "5"}, "limit"),
     ("/v1/lod/event-moves", {**LOD_EVENT, "card": 24.5}, "card"),
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
    document = openapi_document()
    schemas = document["components"]["schemas"]
    assert {"sevenyears-state", "sevenyears-move", "lod-state", "fitl-state", "coin-deck"} <= set(
        schemas
    )
    text = json.dumps(document)
    assert "#/$defs/" not in text  # every reference resolves inside the document
    state = schemas["SevenYearsMoves"]["properties"]["state"]
    assert state["allOf"] == [{"$ref": "#/components/schemas/sevenyears-state"}]
    answer = document["paths"]["/v1/sevenyears/apply"]["post"]["responses"]["200"]
    assert answer["links"]["Moves"]["requestBody"]["state"] == "$response.body#/state"


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


def reached_components(schema: Any, schemas: dict[str, Any]) -> Iterator[str]:
    """The names of the components ``schema`` refers to, directly or through others."""
    seen: set[str] = set()
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            reference = node.get("$ref", "")
            name = reference.rsplit("/", 1)[-1]
            if reference.startswith("#/components/schemas/") and name not in seen:
                seen.add(name)
                yield name
                pending.append(schemas[name])
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)


def is_recursive(name: str, schemas: dict[str, Any]) -> bool:
    return name in reached_components(schemas[name], schemas)


def test_no_example_inside_a_body_schema_that_reaches_a_recursive_schema(
    client: httpx.Client,
) -> None:
    """A tool looking for examples inside a body schema walks every path through the
    schemas it refers to; through the recursive deck schema that walk never ends
    (schemathesis's examples phase hung on event-moves). Such a body's example is the
    operation's, and it is accepted."""
    document = openapi_document()
    schemas = document["components"]["schemas"]
    operation = document["paths"]["/v1/{game}/event-moves"]["post"]
    assert any(is_recursive(name, schemas) for name in reached_components(operation, schemas))
    for path, operations in document["paths"].items():
        body = operations.get("post", {}).get("requestBody")
        if body is None:
            continue
        reached = list(reached_components(body["content"]["application/json"]["schema"], schemas))
        if any(is_recursive(name, schemas) for name in reached):
            assert not any("examples" in schemas[name] for name in reached), path
    examples = operation["requestBody"]["content"]["application/json"]["examples"]
    for example in examples.values():
        response = post(client, "/v1/lod/event-moves", example["value"])
        assert response.status_code == 200, response.text


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


def test_the_document_states_the_eupop_state_option_names_and_schema_names(
    client: httpx.Client,
) -> None:
    """What the API refuses is what its document refuses: the EU:PoP state is the
    published schema (not any object), the option names and the schema names are
    listed."""
    document = openapi_document()
    schemas = document["components"]["schemas"]
    for name in ("EuStateRequest", "EuMovesRequest", "EuCheckRequest", "EuResolveRequest"):
        assert "eupop-state" in json.dumps(schemas[name]["properties"]["state"]), name
    assert "eupop-state" in schemas
    deck_options = schemas["EuDeckRequest"]["properties"]["options"]["propertyNames"]["enum"]
    assert deck_options == ["odd_x_card", "randomize_x"]
    play_options = schemas["EuMovesRequest"]["properties"]["options"]["propertyNames"]["enum"]
    body = {"state": {}, "effect": "g", "options": {"no_such_option": 1}}
    refused = error_of(post(client, "/v1/eupop/moves", body), 422)
    assert refused["path"] == "options.no_such_option" and refused["allowed"] == play_options
    (parameter,) = document["paths"]["/v1/schemas/{name}"]["get"]["parameters"]
    names = parameter["schema"]["enum"]
    assert "eupop-state" in names
    for name in names:
        assert client.get(f"/v1/schemas/{name}").status_code == 200, name
    assert error_of(client.get("/v1/schemas/nope"), 422)["allowed"] == names


def test_an_eupop_state_or_option_against_the_document_is_refused(client: httpx.Client) -> None:
    """The document's schemas are what is accepted: 1 where the EU:PoP state schema
    wants true or false and "2" where it wants a number are 422, not read as true and
    2; an option's value is text, true or false, or a number (not null, not a list)."""
    for province, field, value in (("Dresden", "capital", 1), ("Leipzig", "tax", "2")):
        state = json.loads(json.dumps(SMALL_STATE))
        state["provinces"][province][field] = value
        refused = error_of(post(client, "/v1/eupop/validate", {"state": state}), 422)
        assert refused["path"] == f"state.provinces.{province}.{field}"
    schemas = openapi_document()["components"]["schemas"]
    assert "null" not in json.dumps(schemas["EuDeckRequest"]["properties"]["options"])
    effects = schemas["EuMovesRequest"]["properties"]["effect"]["enum"]
    assert {"influence", "g", "units"} <= set(effects)
    refused = error_of(post(client, "/v1/eupop/moves", {"state": SMALL_STATE, "effect": ""}), 422)
    assert refused["path"] == "effect" and refused["allowed"] == effects
    body = {"scenario": "three_crowns", "options": {"odd_x_card": ["first_half"]}}
    assert error_of(post(client, "/v1/eupop/deck", body), 422)["path"] == "options.odd_x_card"
