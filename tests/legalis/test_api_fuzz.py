"""Schemathesis over the whole OpenAPI document of the HTTP API, in process (ASGI).

Every operation gets generated requests, valid and invalid, and every check
schemathesis has: no 5xx, status codes, content types, headers and bodies as the
document describes them, invalid data refused, valid data accepted. Then stateful
runs follow the document's links through the generic endpoints of every registered
game: a new state, its moves, a move checked and applied, the moves after it, each
of the same game (the link carries the path's ``game``); and a COIN event's
executions (deprecated endpoints), one checked and applied.

A request the JSON Schemas allow may still break a rule the schemas cannot state
(the pieces of a space past their limit, a card not in the deck): those answers are
422 (bad input) or 409 (an illegal move), and count as accepting valid data.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

import legalis
from legalis.server import Limits, create_app

# The time limit is tested in test_server.py; here it only bounds a request, and worker
# processes (niced below the test processes) get little CPU while the tests run.
LIMITS = Limits(max_body_bytes=200_000, max_page=20, time_limit=30.0)
EXAMPLES = 10  # per operation: the whole run stays well under a minute on two busy cores
STATEFUL_EXAMPLES = 40  # chains of the stateful run, of up to 6 calls each
ANSWERS_TO_VALID_DATA = ["2xx", "409", "422"]


APP = create_app(LIMITS)
CONFIG = {
    "checks": {"positive_data_acceptance": {"expected-statuses": ANSWERS_TO_VALID_DATA}},
    "phases": {"examples": {"enabled": False}, "coverage": {"enabled": False}},
}
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", APP, config=SchemathesisConfig.from_dict(CONFIG)
)


@pytest.fixture(scope="module", autouse=True)
def worker_processes() -> Iterator[None]:
    """The application's worker processes, one started before the first request (as
    the application's lifespan does when served), all stopped when the module is done."""
    APP.state.pool.warm()
    yield
    APP.state.pool.close()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_passes_every_check(case: Any) -> None:
    case.call_and_validate()


@pytest.fixture
def no_local_constants(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hypothesis also draws constants found in the project's modules loaded so far,
    so which tests ran earlier in a worker would change the chains; without them
    the derandomized chains are the same in every run."""
    from hypothesis.internal.conjecture import providers

    monkeypatch.setattr(providers, "_get_local_constants", providers.Constants)
    providers.CONSTANTS_CACHE.cache.clear()
    yield
    providers.CONSTANTS_CACHE.cache.clear()


@pytest.mark.usefixtures("no_local_constants")
def test_stateful_runs_follow_the_links() -> None:
    """Random chains through the document's links, every check on every answer; the
    chains do carry a state from one answer into the next request, for every game."""
    answered: list[tuple[str, str, int]] = []

    valid_only = {**CONFIG, "generation": {"mode": "positive"}}  # chains of answers, not noise
    linked = schemathesis.openapi.from_asgi(
        "/openapi.json", APP, config=SchemathesisConfig.from_dict(valid_only)
    ).include(path=[f"/v1/{{game}}/{verb}" for verb in ("new", "moves", "check", "apply")])

    class Recorded(linked.as_state_machine()):  # type: ignore[misc]
        def after_call(self, response: Any, case: Any) -> None:
            game = (case.path_parameters or {}).get("game", "")
            answered.append((case.operation.path, game, response.status_code))

    Recorded.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=6,
            # the same chains every run: whether random chains reach every game is
            # chance, and a run that missed one failed on no fault of the server
            derandomize=True,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # a generated state is never a sound one: a 200 for moves comes from a linked state
    played = {game for path, game, status in answered if path.endswith("/moves") and status == 200}
    assert played == set(legalis.games()), answered
    assert any(path.endswith("/apply") and status == 200 for path, _, status in answered)


def _linked(expression: Any, request: Any, response: Any) -> Any:
    """An OpenAPI link's runtime expression read from one request and its answer."""
    if not isinstance(expression, str) or not expression.startswith("$"):
        return expression
    source, _, pointer = expression.partition("#")
    value = {"$request.body": request, "$response.body": response}[source]
    for key in filter(None, pointer.split("/")):
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


@pytest.mark.parametrize("game", legalis.games())
def test_the_links_chain_new_moves_check_apply_moves(game: str) -> None:
    """The document's own links, followed by hand for each game: a new game, its
    moves, the first move checked and applied, the moves after it, each answer
    accepted."""
    document = APP.openapi()
    paths = document["paths"]

    def follow(path: str, link: str, request: Any, response: Any) -> tuple[str, Any]:
        found = paths[path]["post"]["responses"]["200"]["links"][link]
        target = found["operationRef"].split("/paths/")[1].rsplit("/", 1)[0]
        assert found["parameters"] == {"path.game": "$request.path.game"}
        fields = found["requestBody"].items()
        body = {key: _linked(value, request, response) for key, value in fields}
        return target.replace("~1", "/"), body

    async def chain() -> None:
        transport = httpx.ASGITransport(app=APP)
        async with httpx.AsyncClient(transport=transport, base_url="http://api") as client:

            async def call(path: str, request: Any) -> Any:
                answer = await client.post(path.format(game=game), json=request)
                assert answer.status_code == 200, (path, answer.text)
                return answer.json()

            request = {"seed": 3}
            new = await call("/v1/{game}/new", request)
            path, request = follow("/v1/{game}/new", "Moves", request, new)
            listed = await call(path, request)
            check_path, check_request = follow(path, "Check", request, listed)
            assert (await call(check_path, check_request))["legal"]
            path, request = follow(path, "Apply", request, listed)
            applied = await call(path, request)
            path, request = follow(path, "Moves", request, applied)
            final = await call(path, request)
            assert final["game"] == game and final["to_move"] == applied["to_move"]

    anyio.run(chain)
