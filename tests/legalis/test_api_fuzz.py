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
    """new -> moves -> apply -> moves (and check), and event-moves -> check or apply:
    every check on every answer, and the chains do reach a move applied."""
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
            derandomize=True,  # the same runs each time: the chains reach an apply
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert ("/v1/sevenyears/apply", 200) in answered
