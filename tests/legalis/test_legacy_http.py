"""The deprecated per-family endpoints of the HTTP API (``legalis/legacy_http.py``):
COIN events and deck verification, and the EU:PoP effect queries, Event resolution
and deck. Each answer is checked against the library's own answer, errors against
their status and field path; every answer, an error too, says it is deprecated and
links its successor.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from legalis.model.coin.deck import bundled_deck, deck_from_toml
from legalis.model.coin.scenarios import load_scenario
from legalis.model.eupop.state import SMALL_STATE
from legalis.solver.events import EventMove, legal_event_moves
from legalis.verify.coin import verify_coin

from legalis.legacy_http import SUCCESSORS
from legalis.server import Limits, create_app, openapi_document

LIMITS = Limits(max_body_bytes=400_000, max_page=50, time_limit=60.0)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(LIMITS)) as session:
        yield session


def post(client: TestClient, path: str, body: Any) -> httpx.Response:
    return client.post(path, json=body)


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert isinstance(body["error"], str) and body["error"]
    return body


def sample_deck_json(game: str) -> dict[str, Any]:
    text = resources.files(f"legalis.model.{game}").joinpath("decks/sample.toml").read_text()
    return tomllib.loads(text)


LOD_EVENT = {"scenario": "1776", "card": 24, "side": "unshaded", "faction": "british"}


def lod_view() -> Any:
    return legal_event_moves(
        load_scenario("lod", "1776"), bundled_deck("lod").card(24), "unshaded", "british"
    )


# ---------------------------------------------------------------------- deprecation


DEPRECATED = [
    ("/v1/lod/event-moves", {**LOD_EVENT, "limit": 1}, 200, "/v1/lod/moves"),
    ("/v1/fitl/event-check", {**LOD_EVENT, "move": {}}, 422, "/v1/fitl/check"),
    ("/v1/lod/event-apply", {"card": "x"}, 422, "/v1/lod/apply"),
    ("/v1/fitl/verify-deck", {"deck": {}}, 422, "/v1/fitl/verify"),
    ("/v1/eupop/effect-validate", {"state": SMALL_STATE}, 200, "/v1/eupop/validate"),
    ("/v1/eupop/effect-moves", {"state": {}, "effect": "g"}, 422, "/v1/eupop/moves"),
    ("/v1/eupop/effect-check", {}, 422, "/v1/eupop/check"),
    ("/v1/eupop/resolve", {"state": SMALL_STATE, "event": "103-2"}, 200, "/v1/eupop/apply"),
    ("/v1/eupop/deck", {"scenario": "three_crowns"}, 200, "/v1/eupop/new"),
]


@pytest.mark.parametrize(("path", "body", "status", "successor"), DEPRECATED)
def test_every_answer_says_it_is_deprecated_and_links_its_successor(
    client: TestClient, path: str, body: Any, status: int, successor: str
) -> None:
    response = post(client, path, body)
    assert response.status_code == status, response.text
    assert response.headers["deprecation"] == "true"
    assert response.headers["link"] == f'<{successor}>; rel="successor-version"'


def test_a_refused_body_of_a_deprecated_endpoint_is_marked_too() -> None:
    with TestClient(create_app(Limits(max_body_bytes=100))) as small:
        response = post(small, "/v1/lod/verify-deck", {"deck": {"padding": "x" * 200}})
        assert error_of(response, 413)["path"] == "body"
        assert response.headers["deprecation"] == "true"
        generic = post(small, "/v1/lod/verify", {"data": {"padding": "x" * 200}})
        assert generic.status_code == 413 and "deprecation" not in generic.headers


def test_the_generic_endpoints_are_not_marked(client: TestClient) -> None:
    response = post(client, "/v1/sevenyears/new", {"seed": 1})
    assert response.status_code == 200 and "deprecation" not in response.headers


def test_the_document_marks_every_deprecated_operation_and_only_those() -> None:
    document = openapi_document()
    marked = {
        path for path, operations in document["paths"].items()
        for operation in operations.values() if operation.get("deprecated")
    }  # fmt: skip
    assert marked == set(SUCCESSORS)
    for path in marked:
        answer = document["paths"][path]["post"]["responses"]["200"]
        assert set(answer["headers"]) == {"Deprecation", "Link"}, path
    # the old EU:PoP effect queries moved aside for the generic endpoints of the game
    assert "/v1/eupop/moves" not in document["paths"]
    assert "/v1/{game}/moves" in document["paths"]


# ---------------------------------------------------------------------- COIN events


def test_event_moves_match_the_library(client: TestClient) -> None:
    view = lod_view()
    answer = post(client, "/v1/lod/event-moves", {**LOD_EVENT, "limit": 7}).json()
    assert answer["count"] == view.count()
    assert answer["moves"] == [view.nth(i).to_json() for i in range(7)]
    later = post(client, "/v1/lod/event-moves", {**LOD_EVENT, "offset": 5, "limit": 4}).json()
    assert later["moves"] == [view.nth(i).to_json() for i in range(5, 9)]


def test_event_moves_from_a_state_and_a_one_sided_card(client: TestClient) -> None:
    state = load_scenario("fitl", "short")
    deck = bundled_deck("fitl")
    card = next(c for c in deck.cards if not c.dual_use)
    side = "unshaded" if card.unshaded is not None else "shaded"
    view = legal_event_moves(state, card, side, card.factions[0])
    body = {"state": state.to_json(), "card": card.number, "faction": card.factions[0]}
    answer = post(client, "/v1/fitl/event-moves", body).json()
    assert (answer["count"], answer["side"]) == (view.count(), side)
    assert answer["moves"] == [move.to_json() for move in list(view)[: LIMITS.max_page]]


def test_event_check_and_apply(client: TestClient) -> None:
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
    client: TestClient, change: dict[str, Any], path: str
) -> None:
    body = {
        **LOD_EVENT,
        "move": {"card": 24, "side": "unshaded", "faction": "british", "steps": []},
    }
    body.update(change)
    assert error_of(post(client, "/v1/lod/event-check", body), 422)["path"] == path


def test_a_bad_coin_state_names_its_field(client: TestClient) -> None:
    raw = load_scenario("lod", "1776").to_json()
    raw["spaces"]["Boston"]["pieces"]["village"] = 1
    body = {**LOD_EVENT, "scenario": None, "state": raw}
    assert error_of(post(client, "/v1/lod/event-moves", body), 422)["path"] == (
        "state.spaces.Boston.pieces.village"
    )


def test_an_unknown_game_is_422(client: TestClient) -> None:
    assert error_of(post(client, "/v1/chess/event-moves", LOD_EVENT), 422)["path"] == "game"


def test_verify_deck_matches_the_library(client: TestClient) -> None:
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


@pytest.mark.parametrize(
    ("change", "path"),
    [({"card": 0}, "move.card"), ({"card": -3}, "move.card"), ({"faction": ""}, "move.faction"),
     ({"side": "sideways"}, "move.side"), ({"steps": [5.5]}, "move.steps[0]")],
)  # fmt: skip
def test_event_check_refuses_a_malformed_move_with_its_path(
    client: TestClient, change: dict[str, Any], path: str
) -> None:
    move = {**lod_view().nth(0).to_json(), **change}
    for endpoint in ("event-check", "event-apply"):
        body = error_of(post(client, f"/v1/lod/{endpoint}", {**LOD_EVENT, "move": move}), 422)
        assert body["path"] == path


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
    client: TestClient,
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


def test_a_lone_surrogate_is_answered_in_json_not_a_500(client: TestClient) -> None:
    text = json.dumps({**LOD_EVENT, "faction": "\ud800"})
    response = client.post("/v1/lod/event-moves", content=text.encode(),
                           headers={"content-type": "application/json"})  # fmt: skip
    assert error_of(response, 422)["path"] == "faction"


@pytest.mark.parametrize(
    ("body", "field"),
    [({**LOD_EVENT, "limit": "5"}, "limit"), ({**LOD_EVENT, "card": 24.5}, "card")],
)
def test_values_of_another_type_are_refused(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    assert error_of(post(client, "/v1/lod/event-moves", body), 422)["path"] == field


# ---------------------------------------------------------------------- EU:PoP

ENDPOINTS = {"moves": "effect-moves", "check": "effect-check", "resolve": "resolve", "deck": "deck"}
SMALL_REALMS = {"england": {"kind": "player"}, "saxony_realm": {"kind": "npr"}}


def eupop_state() -> dict[str, Any]:
    from legalis.model.eupop.state import small_state

    return small_state().to_json()


def eupop_view(**arguments: Any) -> Any:
    from legalis.model.eupop.state import state_from_json
    from legalis.solver.eupop_play import effect_view

    state = state_from_json(eupop_state())
    effect, player = arguments.pop("effect"), arguments.pop("player", None)
    return effect_view(state, effect, player, **arguments)


def test_eupop_validate_gives_the_summary(client: TestClient) -> None:
    response = post(client, "/v1/eupop/effect-validate", {"state": eupop_state()})
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
    client: TestClient, change: tuple[Any, ...], path: str
) -> None:
    state = eupop_state()
    *keys, value = change
    target = state
    named = [key for key in keys if key is not None]
    for key in named[:-1]:
        target = target[key]
    target[named[-1]] = value
    body = error_of(post(client, "/v1/eupop/effect-validate", {"state": state}), 422)
    assert body["path"] == path


def test_eupop_moves_match_the_library(client: TestClient) -> None:
    from legalis.model.eupop.play import jsonable

    arguments = {"effect": "native-uprising", "player": "france"}
    view, _ = eupop_view(**arguments)
    expected = [jsonable(move) for move in view]
    assert len(expected) > 1
    request = {"state": eupop_state(), **arguments}
    whole = post(client, "/v1/eupop/effect-moves", request).json()
    assert whole["count"] == view.count() == len(expected)
    assert whole["moves"] == expected[: LIMITS.max_page]
    page = post(client, "/v1/eupop/effect-moves", {**request, "offset": 1, "limit": 1}).json()
    assert page["moves"] == expected[1:2] and page["limit"] == 1
    capped = post(client, "/v1/eupop/effect-moves", {**request, "limit": 10_000}).json()
    assert capped["limit"] == LIMITS.max_page


def test_eupop_check_gives_the_library_s_verdict(client: TestClient) -> None:
    from legalis.solver.eupop_play import move_from_json

    arguments = {"effect": "g", "player": "france", "areas": ["saxony"]}
    view, kind = eupop_view(**arguments)
    request = {"state": eupop_state(), **arguments}
    for move in ({"area": "saxony"}, {"area": "bohemia"}):
        verdict = view.verdict(move_from_json(move, kind))
        response = post(client, "/v1/eupop/effect-check", {**request, "move": move})
        assert response.status_code == 200, response.text
        assert response.json() == {
            "move": move,
            "legal": verdict.legal,
            "reason": verdict.reason,
            "rule": verdict.rule,
        }
    assert (
        post(client, "/v1/eupop/effect-check", {**request, "move": {"area": "bohemia"}}).json()[
            "legal"
        ]
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
    client: TestClient, change: dict[str, Any], path: str
) -> None:
    request = {"state": eupop_state(), "effect": "g", "player": "france", "areas": ["saxony"]}
    body = error_of(
        post(client, "/v1/eupop/effect-check", {**request, "move": {"area": "saxony"}, **change}),
        422,
    )
    assert body["path"] == path


def test_eupop_resolve_matches_the_library(client: TestClient) -> None:
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


def test_eupop_a_choice_out_of_range_is_409_with_its_rule(client: TestClient) -> None:
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
    client: TestClient, change: dict[str, Any], path: str
) -> None:
    request = {"state": eupop_state(), "event": "103-2", **change}
    assert error_of(post(client, "/v1/eupop/resolve", request), 422)["path"] == path


def test_eupop_deck_matches_the_library_and_its_seed(client: TestClient) -> None:
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
    client: TestClient, change: dict[str, Any], path: str
) -> None:
    body = error_of(post(client, "/v1/eupop/deck", {"scenario": "three_crowns", **change}), 422)
    assert body["path"] == path


def test_eupop_options_change_the_moves_and_the_verdict(client: TestClient) -> None:
    from legalis.model.eupop.play import PlayOptions, jsonable

    request = {"state": eupop_state(), "effect": "influence", "player": "france",
               "amount": 2, "areas": ["saxony"]}  # fmt: skip
    up_to = {"influence_up_to": True}
    # 16.3 Gain Influence: placed whole by default; in part with influence_up_to
    for options, count in (({}, 1), (up_to, 3)):
        arguments = {key: value for key, value in request.items() if key != "state"}
        view, _ = eupop_view(**arguments, options=PlayOptions.from_json(options))
        answer = post(client, "/v1/eupop/effect-moves", {**request, "options": options}).json()
        assert answer["count"] == count and answer["moves"] == [jsonable(m) for m in view]
    part = {"placed": [["saxony", 1]], "discards": []}
    refused = post(client, "/v1/eupop/effect-check", {**request, "move": part}).json()
    legal = post(
        client, "/v1/eupop/effect-check", {**request, "move": part, "options": up_to}
    ).json()
    assert not refused["legal"] and legal["legal"]


def test_eupop_options_change_the_resolution(client: TestClient) -> None:
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


def test_eupop_options_change_the_deck(client: TestClient) -> None:
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
    client: TestClient, endpoint: str, options: dict[str, Any], path: str
) -> None:
    effect = {"state": eupop_state(), "effect": "g", "player": "france", "areas": ["saxony"]}
    request = {
        "moves": effect,
        "check": {**effect, "move": {"area": "saxony"}},
        "resolve": {"state": eupop_state(), "event": "101-1"},
        "deck": {"scenario": "three_crowns"},
    }[endpoint]
    body = error_of(
        post(client, f"/v1/eupop/{ENDPOINTS[endpoint]}", {**request, "options": options}), 422
    )
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


def test_every_eupop_example_of_the_openapi_document_is_accepted(client: TestClient) -> None:
    examples = request_examples(openapi_document(), "/v1/eupop/")
    assert {path for path, _ in examples} == {
        "/v1/eupop/effect-validate", "/v1/eupop/effect-moves", "/v1/eupop/effect-check",
        "/v1/eupop/resolve", "/v1/eupop/deck"}  # fmt: skip
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
    client: TestClient, endpoint: str, change: dict[str, Any], path: str, allowed: str
) -> None:
    request = {"state": eupop_state(), "player": "france", **change}
    body = error_of(post(client, f"/v1/eupop/{ENDPOINTS[endpoint]}", request), 422)
    assert body["path"] == path and allowed in body["allowed"]


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
    client: TestClient, change: dict[str, Any], path: str
) -> None:
    request = {"state": {**eupop_state(), **change}}
    body = error_of(post(client, "/v1/eupop/effect-validate", request), 422)
    assert body["path"] == path and "at most" in body["error"] and "(" in body["error"]


def test_the_document_states_the_eupop_state_option_names_and_schema_names(
    client: TestClient,
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
    refused = error_of(post(client, "/v1/eupop/effect-moves", body), 422)
    assert refused["path"] == "options.no_such_option" and refused["allowed"] == play_options
    (parameter,) = document["paths"]["/v1/schemas/{name}"]["get"]["parameters"]
    names = parameter["schema"]["enum"]
    assert "eupop-state" in names
    for name in names:
        assert client.get(f"/v1/schemas/{name}").status_code == 200, name
    assert error_of(client.get("/v1/schemas/nope"), 422)["allowed"] == names


def test_an_eupop_state_or_option_against_the_document_is_refused(client: TestClient) -> None:
    """The document's schemas are what is accepted: 1 where the EU:PoP state schema
    wants true or false and "2" where it wants a number are 422, not read as true and
    2; an option's value is text, true or false, or a number (not null, not a list)."""
    for province, field, value in (("Dresden", "capital", 1), ("Leipzig", "tax", "2")):
        state = json.loads(json.dumps(SMALL_STATE))
        state["provinces"][province][field] = value
        refused = error_of(post(client, "/v1/eupop/effect-validate", {"state": state}), 422)
        assert refused["path"] == f"state.provinces.{province}.{field}"
    schemas = openapi_document()["components"]["schemas"]
    assert "null" not in json.dumps(schemas["EuDeckRequest"]["properties"]["options"])
    effects = schemas["EuMovesRequest"]["properties"]["effect"]["enum"]
    assert {"influence", "g", "units"} <= set(effects)
    refused = error_of(
        post(client, "/v1/eupop/effect-moves", {"state": SMALL_STATE, "effect": ""}), 422
    )
    assert refused["path"] == "effect" and refused["allowed"] == effects
    body = {"scenario": "three_crowns", "options": {"odd_x_card": ["first_half"]}}
    assert error_of(post(client, "/v1/eupop/deck", body), 422)["path"] == "options.odd_x_card"
