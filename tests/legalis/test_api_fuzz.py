"""Schemathesis over the whole OpenAPI document of the HTTP API, in process (ASGI).

Every operation gets generated requests, valid and invalid, and every check
schemathesis has: no 5xx, status codes, content types, headers and bodies as the
document describes them, invalid data refused, valid data accepted. Then stateful
runs follow the document's links: a new Seven Years War state, its moves, a move
applied, the moves after it; and a COIN event's executions, one checked and applied.

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

from legalis.server import Limits, create_app

LIMITS = Limits(max_body_bytes=200_000, max_page=20, time_limit=5.0)
EXAMPLES = 10  # per operation: the whole run stays well under a minute on two busy cores
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
    """The application's worker processes, stopped when the module is done."""
    yield
    APP.state.pool.close()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_passes_every_check(case: Any) -> None:
    case.call_and_validate()


def test_stateful_runs_follow_the_links() -> None:
    """Random chains through the document's links, every check on every answer; the
    chains do carry a state from one answer into the next request."""
    answered: list[tuple[str, int]] = []

    valid_only = {**CONFIG, "generation": {"mode": "positive"}}  # chains of answers, not noise
    linked = schemathesis.openapi.from_asgi(
        "/openapi.json", APP, config=SchemathesisConfig.from_dict(valid_only)
    )

    class Recorded(linked.as_state_machine()):  # type: ignore[misc]
        def after_call(self, response: Any, case: Any) -> None:
            answered.append((case.operation.path, response.status_code))

    Recorded.run(
        settings=settings(
            max_examples=60,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # a generated state is never a sound one: a 200 for moves comes from a linked state
    assert ("/v1/sevenyears/moves", 200) in answered


def _linked(expression: Any, request: Any, response: Any) -> Any:
    """An OpenAPI link's runtime expression read from one request and its answer."""
    if not isinstance(expression, str) or not expression.startswith("$"):
        return expression
    source, _, pointer = expression.partition("#")
    value = {"$request.body": request, "$response.body": response}[source]
    for key in filter(None, pointer.split("/")):
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def test_the_links_chain_new_moves_apply_moves() -> None:
    """The document's own links, followed by hand: a new game, its moves, the first
    move applied, the moves after it, each answer accepted."""
    document = APP.openapi()
    paths = document["paths"]

    def follow(path: str, link: str, request: Any, response: Any) -> tuple[str, Any]:
        found = paths[path]["post"]["responses"]["200"]["links"][link]
        target = found["operationRef"].split("/paths/")[1].rsplit("/", 1)[0]
        fields = found["requestBody"].items()
        body = {key: _linked(value, request, response) for key, value in fields}
        return target.replace("~1", "/"), body

    async def chain() -> None:
        transport = httpx.ASGITransport(app=APP)
        async with httpx.AsyncClient(transport=transport, base_url="http://api") as client:
            path, request = "/v1/sevenyears/new", {"seed": 3}
            for link in ("Moves", "Apply", "Moves"):
                answer = await client.post(path, json=request)
                assert answer.status_code == 200, (path, answer.text)
                path, request = follow(path, link, request, answer.json())
            final = await client.post(path, json=request)
            assert final.status_code == 200 and final.json()["count"] > 0

    anyio.run(chain)
