"""The HTTP API: legal moves, checks, applies and deck verification as JSON over HTTP.

Every endpoint lives under ``/v1``. States, moves and decks are the same JSON the
command line reads and writes. Errors have one shape, ``{"error": ..., "path": ...}``:

- 422: bad input (the ``path`` names the bad field of the request body);
- 409: an illegal move (``rule`` names the rule that refuses it);
- 413: a request body larger than :attr:`Limits.max_body_bytes`;
- 408: a request body still arriving after :attr:`Limits.time_limit`;
- 503: the work took longer than :attr:`Limits.time_limit`, a solver gave up, or
  the lane of the request is full (then with ``Retry-After``).

Work runs in two lanes, so expensive work never starves cheap work. Cheap work
(the Seven Years War, EU:PoP, events of a bundled scenario and deck, whose answers
are kept) runs in worker threads. Work whose cost the request decides (a state or a
deck of its own, deck verification, fixtures) runs in worker processes: when its
time is up the process is killed, so the work stops and its memory is freed, and a
fresh process takes its place. Each lane admits a bounded number of requests and
refuses the rest at once with 503 and ``Retry-After``. Start a server with
``legalis serve`` or :func:`serve`; :func:`create_app` gives the application itself
(for tests, or another ASGI server). The worker processes start from a fork server
that imports the calling script's main module, as ``multiprocessing`` does: a script
that builds the application keeps it under ``if __name__ == "__main__":``.

>>> app = create_app(Limits(max_page=50))
>>> app.state.limits.max_page
50
>>> sorted(path.rsplit("/", 1)[1] for path in app.openapi()["paths"] if "sevenyears" in path)
['apply', 'check', 'moves', 'new', 'validate']
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import itertools
import json
import math
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio
import anyio.to_thread
from fastapi import Body, FastAPI, Request
from fastapi import Path as PathParameter
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from legalis.model.core.options import settable
from legalis.model.errors import IllegalMoveError, InputError, SolverLimitError
from legalis.model.eupop.arguments import MAX_AMOUNT
from legalis.model.eupop.deck import DeckOptions
from legalis.model.eupop.play import PlayOptions
from legalis.model.eupop.state import SMALL_STATE
from legalis.registry import game_entry, games, load_game
from legalis.solver.eupop_play import EFFECTS
from legalis.solver.event_documents import EventMoveDocument

API_VERSION = "v1"
COIN_GAMES = ("lod", "fitl")
CoinGame = Literal["lod", "fitl"]
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """The bounds every request is held to.

    ``max_body_bytes``: larger bodies are refused with 413 before they are parsed;
    ``max_page``: the most moves one page lists (a larger ``limit`` is capped);
    ``time_limit``: seconds a request may take, waiting included, before a 503;
    ``threads``: worker threads for cheap work, and ``queue`` the most cheap
    requests waiting for one;
    ``processes``: worker processes for work whose cost the request decides, and
    ``process_queue`` the most such requests waiting for one.

    Cheap work is CPU-bound Python: more threads add no speed under the GIL and make
    the slowest answers slower (``docs/benchmarks.md``: p99 at 50 clients 44-54 ms
    with one thread, 114 ms with 40).

    >>> Limits()  # doctest: +NORMALIZE_WHITESPACE
    Limits(max_body_bytes=1000000, max_page=1000, time_limit=10.0, threads=1, queue=256,
           processes=1, process_queue=4)
    """

    max_body_bytes: int = 1_000_000
    max_page: int = 1000
    time_limit: float = 10.0
    threads: int = 1
    queue: int = 256
    processes: int = 1
    process_queue: int = 4


# ---------------------------------------------------------------------- request and response


def _whole(value: Any) -> Any:
    """A JSON number without a fraction as the integer it is: JSON Schema (and so the
    OpenAPI document) reads ``65537.0`` as an integer, while ``1.5``, ``"5"`` and
    ``true`` stay refused.

    >>> _whole(65537.0), _whole(1.5), _whole("5")
    (65537, 1.5, '5')
    """
    return int(value) if isinstance(value, float) and value.is_integer() else value


Whole = Annotated[int, BeforeValidator(_whole)]


class _Body(BaseModel):
    """A request body: no unknown fields, and no value of another type taken for the
    declared one (``"5"`` is not a number, ``false`` not a seed)."""

    model_config = ConfigDict(extra="forbid", strict=True)


JsonObject = dict[str, Any]
COMPONENTS = "#/components/schemas/"


def published(*names: str, optional: bool = False, many: bool = False) -> Any:
    """A field's JSON Schema as the published schema of ``names`` (one of them;
    ``docs/schemas``), not a free-form object: ``many`` for a list of them,
    ``optional`` when ``null`` may stand for it. :func:`create_app` adds the schemas
    to the OpenAPI document.

    >>> schema = {"type": "object", "description": "A state."}
    >>> published("lod-state", "fitl-state", optional=True)(schema)
    >>> schema  # doctest: +NORMALIZE_WHITESPACE
    {'anyOf': [{'anyOf': [{'$ref': '#/components/schemas/lod-state'},
                          {'$ref': '#/components/schemas/fitl-state'}]}, {'type': 'null'}],
     'description': 'A state.'}
    """
    choices: list[dict[str, Any]] = [{"$ref": COMPONENTS + name} for name in names]

    def replace(schema: dict[str, Any]) -> None:
        kept: dict[str, Any] = {
            key: schema[key] for key in ("description", "default") if key in schema
        }
        # one schema as allOf: pydantic would try to resolve a bare $ref itself
        one: dict[str, Any] = {"anyOf" if len(choices) > 1 else "allOf": choices}
        one = {"type": "array", "items": one} if many else one
        schema.clear()
        schema.update({"anyOf": [one, {"type": "null"}]} if optional else one)
        schema.update(kept)

    return replace


StateField = Field(
    description="A Seven Years War state, as `legalis new` writes it.",
    json_schema_extra=published("sevenyears-state"),
)
MoveField = Field(
    description='A move, e.g. {"type": "pass", "player": "british"}.',
    json_schema_extra=published("sevenyears-move"),
)
COIN_STATES = ("lod-state", "fitl-state")


class SevenYearsState(_Body):
    state: JsonObject = StateField


class SevenYearsMoves(_Body):
    state: JsonObject = StateField
    offset: Whole = Field(default=0, ge=0, description="Index of the first move of the page.")
    limit: Whole = Field(default=100, ge=0, description="Moves per page (capped by the server).")


class SevenYearsMove(_Body):
    state: JsonObject = StateField
    move: JsonObject = MoveField


class EventRequest(_Body):
    """One side of one event card executed by one Faction, in a state or a scenario."""

    state: JsonObject | None = Field(
        default=None,
        description="A COIN state (or give `scenario`).",
        json_schema_extra=published(*COIN_STATES, optional=True),
    )
    scenario: str | None = Field(default=None, description="A bundled scenario, e.g. 1776 (LoD).")
    card: Whole = Field(ge=1, description="The event card's number.")
    side: Literal["unshaded", "shaded"] | None = Field(
        None, description="unshaded or shaded; a one-sided card needs none (5.2)."
    )
    faction: str = Field(min_length=1, description="The executing Faction, e.g. british.")
    deck: JsonObject | None = Field(
        None,
        description="A deck (the deck TOML's content as JSON); default: the sample deck.",
        json_schema_extra=published("coin-deck", optional=True),
    )


class EventMovesRequest(EventRequest):
    offset: Whole = Field(default=0, ge=0, description="Index of the first move of the page.")
    limit: Whole = Field(default=100, ge=0, description="Moves per page (capped by the server).")


# On the operation, not in the schema: the body reaches the recursive deck schema, and
# a tool that looks for examples inside a schema walks every path through it (never ending).
EVENT_MOVES_EXAMPLES = {
    "1776": {
        "summary": "A card of the sample deck in the 1776 scenario (LoD)",
        "value": {"scenario": "1776", "card": 24, "side": "unshaded", "faction": "british",
                  "limit": 20},
    }
}  # fmt: skip


class EventMoveRequest(EventRequest):
    move: EventMoveDocument = Field(
        description='An execution: {"card", "side", "faction", "steps": [...]}.'
    )


class FixturesRequest(_Body):
    per_rule: Whole = Field(default=1, ge=1, le=3, description="Fixtures per rule (1-3).")
    seed: Whole = Field(default=0, ge=0, description="The same seed gives the same fixtures.")


class FixturesResponse(BaseModel):
    manifest: JsonObject = Field(
        description="As manifest.json.", json_schema_extra=published("fixture-manifest")
    )
    fixtures: list[JsonObject] = Field(
        description="Each as a fixture file (LoD: the Sequence of Play ones last).",
        json_schema_extra=published("fixture", "sequence-fixture", many=True),
    )


class DeckRequest(_Body):
    deck: JsonObject = Field(
        description="The deck TOML's content as a JSON object.",
        json_schema_extra=published("coin-deck"),
    )
    strict: bool = Field(
        default=False,
        description="Event text in a sentence form legalis does not read is an error "
        "(text.unread), not a warning.",
    )


class ErrorBody(BaseModel):
    """Every error: the message, and where it applies."""

    error: str
    path: str | None = Field(default=None, description="The bad field of the request body.")
    allowed: list[str] | None = Field(
        default=None, description="The values that would be accepted."
    )
    rule: str | None = Field(default=None, description="The rule that refuses an illegal move.")


class GameInfo(BaseModel):
    name: str
    title: str
    supports: list[str] = Field(description="The endpoints that serve this game.")
    options: list[str] = Field(default_factory=list, description="Rule option names.")
    scenarios: list[str] = Field(default_factory=list, description="Bundled scenarios.")
    schemas: list[str] = Field(
        default_factory=list, description="JSON Schemas of its documents: GET /v1/schemas/{name}."
    )


class GamesResponse(BaseModel):
    version: str
    games: list[GameInfo]


class ValidateResponse(BaseModel):
    ok: bool
    summary: JsonObject


class SevenYearsMovesResponse(BaseModel):
    to_move: str
    count: int
    offset: int
    limit: int = Field(description="The page size used (after the server's cap).")
    moves: list[JsonObject] = Field(json_schema_extra=published("sevenyears-move", many=True))


class VerdictResponse(BaseModel):
    move: JsonObject = Field(
        description="The move as read, in its canonical form.",
        json_schema_extra=published("sevenyears-move"),
    )
    legal: bool
    reason: str
    rule: str


class SevenYearsApplyResponse(BaseModel):
    state: JsonObject = StateField
    summary: JsonObject


class SevenYearsNew(_Body):
    model_config = ConfigDict(json_schema_extra={"examples": [{"seed": 1}]})

    seed: Whole = Field(default=1, ge=0, description="The same seed gives the same state.")


LodStateField = Field(
    description="A Liberty or Death game state, as `legalis new lod` writes it (it carries "
    "its options; a deck file cannot be named over HTTP).",
)
LodMoveField = Field(
    description='A move of the whole game, e.g. {"type": "pass", "faction": "british"}.'
)
BotSeat = Literal["nonplayer", "random", "greedy"]


class LodNew(_Body):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"seed": 1, "scenario": "1778", "nonplayers": ["french"]}]}
    )

    seed: Whole = Field(default=1, ge=0, description="The same seed gives the same state.")
    scenario: str = Field(default="1776", description="1775, 1776 or 1778.")
    nonplayers: list[str] = Field(
        default_factory=list, description="The Factions the Non-player rules play (section 8)."
    )


class LodState(_Body):
    state: JsonObject = LodStateField


class LodMoves(LodState):
    offset: Whole = Field(default=0, ge=0, description="Index of the first move of the page.")
    limit: Whole = Field(default=100, ge=0, description="Moves per page (capped by the server).")


class LodMove(LodState):
    move: JsonObject = LodMoveField


class LodBotMove(LodState):
    seat: BotSeat = Field(
        default="nonplayer",
        description="Who decides: the Non-player of section 8 (the state's option "
        "`nonplayers` names the Faction), random, or greedy. At a chance move, the seed draws it.",
    )
    seed: Whole = Field(default=1, ge=0, description="The same seed gives the same move.")


class LodStateResponse(BaseModel):
    state: JsonObject = LodStateField
    summary: JsonObject


class LodMovesResponse(BaseModel):
    to_move: str
    count: int
    offset: int
    limit: int = Field(description="The page size used (after the server's cap).")
    moves: list[JsonObject]
    descriptions: list[str] = Field(description="Each move of the page for people.")


class LodVerdictResponse(BaseModel):
    move: JsonObject = Field(description="The move as read, in its canonical form.")
    description: str
    legal: bool
    reason: str
    rule: str


class LodBotMoveResponse(LodStateResponse):
    by: str = Field(description="Who moved: a Faction, or chance.")
    move: JsonObject
    description: str


class EventMovesResponse(BaseModel):
    card: int
    side: str
    faction: str
    count: int
    offset: int
    limit: int = Field(description="The page size used (after the server's cap).")
    moves: list[EventMoveDocument]


class EventVerdictResponse(BaseModel):
    move: EventMoveDocument
    legal: bool
    reason: str
    rule: str


class EventApplyResponse(BaseModel):
    state: JsonObject = Field(
        description="The state after the event.", json_schema_extra=published(*COIN_STATES)
    )


class DeckReport(BaseModel):
    game: str
    ok: bool
    rule_set: JsonObject
    findings: list[JsonObject] = Field(json_schema_extra=published("finding", many=True))


# ---------------------------------------------------------------------- EU:PoP request and response

EuStateField = Field(
    description="An EU:PoP event-system state.", json_schema_extra=published("eupop-state")
)
EU_NAMES = 64  # the most names one list of an effect's parameters may hold
EU_AMOUNT = MAX_AMOUNT  # the largest amount of Influence or Units an effect is asked about
EU_EXAMPLE_STATE: JsonObject = SMALL_STATE


def _names_field(what: str) -> Any:
    return Field(default_factory=list, max_length=EU_NAMES, description=what)


EuOptions = dict[str, str | bool | int | None]  # null: refused by the options, with their values


def _options_field(names: str, allowed: Iterable[str]) -> Any:
    """The ``options`` of a request: only the ``allowed`` names, as the schema says."""
    names_allowed: list[Any] = sorted(allowed)
    return Field(
        default_factory=dict,
        description=f"Rule options by name, as `--option name=value` takes them ({names}; "
        'docs/rules-questions.md), e.g. {"ab_met": "any"}; the rest keep their defaults.',
        json_schema_extra={
            "propertyNames": {"enum": names_allowed},
            "additionalProperties": {"type": ["string", "boolean", "integer"]},
        },
    )


PLAY_OPTIONS = PlayOptions.names()
DECK_OPTIONS = settable(DeckOptions)


class EuStateRequest(_Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"state": EU_EXAMPLE_STATE}]}
    )

    state: JsonObject = EuStateField


class EuEffectRequest(_Body):
    """One effect (16.3) or symbol (16.5) and its parameters, as `legalis moves --game
    eupop` takes them."""

    state: JsonObject = EuStateField
    effect: str = Field(
        description="A 16.3 effect or 16.5 symbol, e.g. influence, g, units.",
        json_schema_extra={"enum": list(EFFECTS)},  # checked by the solver, with the list
    )
    player: str | None = Field(default=None, description="The player who gains or decides.")
    amount: Whole | None = Field(
        default=None, ge=1, le=EU_AMOUNT, description="Influence or Units to place."
    )
    areas: list[str] = _names_field("The Areas the effect names.")
    targets: list[str] = _names_field("The Realms the effect names (Alliance, Marriage).")
    provinces: list[str] = _names_field("The Provinces the effect names (town).")
    places: list[str] = _names_field("Where Units may be placed.")
    vassal: bool = Field(default=False, description="Town: a v (Vassal's town), not a t.")
    ships: bool = Field(default=False, description="Units: Ships, not Land Units.")
    colour: str | None = Field(default=None, description="DNPR Expansion: the token colour.")
    options: EuOptions = _options_field("the names of `legalis resolve --game eupop`", PLAY_OPTIONS)


class EuMovesRequest(EuEffectRequest):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "state": EU_EXAMPLE_STATE,
                    "effect": "influence",
                    "player": "france",
                    "amount": 1,
                    "areas": ["saxony"],
                    "limit": 20,
                }
            ]
        },
    )

    offset: Whole = Field(default=0, ge=0, description="Index of the first choice of the page.")
    limit: Whole = Field(default=100, ge=0, description="Choices per page (capped by the server).")


class EuCheckRequest(EuEffectRequest):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "state": EU_EXAMPLE_STATE,
                    "effect": "g",
                    "player": "france",
                    "areas": ["saxony"],
                    "move": {"area": "saxony"},
                }
            ]
        },
    )

    move: Any = Field(description="A choice, as the moves endpoint lists them.")


class EuResolveRequest(_Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"state": EU_EXAMPLE_STATE, "event": "202-1", "choices": [1, 1]}]
        },
    )

    state: JsonObject = EuStateField
    event: str = Field(description="The Event id in the bundled catalogue, e.g. 354B.")
    auto: bool = Field(
        default=False, description="Resolve it all by the defaults and the 16.5 auto rules."
    )
    seed: Whole = Field(default=0, ge=0, description="The same seed gives the same resolution.")
    choices: list[Whole] = Field(
        default_factory=list,
        max_length=1000,
        description="The N-th legal choice (from 1) at each decision, in order.",
    )
    options: EuOptions = _options_field("the names of `legalis resolve --game eupop`", PLAY_OPTIONS)


class EuDeckRequest(_Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"scenario": "three_crowns", "seed": 1}]},
    )

    scenario: str = Field(default="three_crowns", description="A bundled scenario's name.")
    seed: Whole = Field(default=0, ge=0, description="The same seed gives the same decks.")
    players: Whole | None = Field(
        default=None, ge=1, le=6, description="Number of players (default: the scenario's Realms)."
    )
    randomize_x: bool = Field(default=False, description="Optional Rule 6: deal the X-events.")
    options: EuOptions = _options_field("randomize_x, odd_x_card", DECK_OPTIONS)


class EuMovesResponse(BaseModel):
    effect: str
    player: str | None
    count: int
    offset: int
    limit: int = Field(description="The page size used (after the server's cap).")
    moves: list[Any] = Field(description="The legal choices, as JSON.")


class EuVerdictResponse(BaseModel):
    move: Any = Field(description="The choice as read.")
    legal: bool
    reason: str
    rule: str


class EuPending(BaseModel):
    rule: str = Field(description="The rule of the decision.")
    player: str = Field(description="The player who decides.")
    count: int = Field(description="The number of legal choices.")
    choices: list[Any] = Field(description="The legal choices, the first up to the page cap.")


class EuResolveResponse(BaseModel):
    event: str
    seed: int
    log: list[JsonObject] = Field(description="Each decision: its rule and what decided it.")
    state: JsonObject | None = Field(default=None, description="The state when done.")
    pending: EuPending | None = Field(default=None, description="The next open decision.")


class EuDeckResponse(BaseModel):
    scenario: str
    seed: int
    problems: list[JsonObject] = Field(description="The deck's problems (16.1), with rules.")
    ages: list[JsonObject] = Field(
        default_factory=list, description="The prepared deck of each Age (none with problems)."
    )
    display: list[JsonObject] = Field(
        default_factory=list, description="The first Event display (16.2)."
    )


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of an operation; one that reads a body (413) may
    also answer 408, from the same middleware."""
    meanings = {
        408: "The request body arrived too slowly.",
        409: "An illegal move, with the rule that refuses it.",
        413: "The request body is too large.",
        422: "Bad input; `path` names the bad field.",
        503: "The work took too long, or a solver gave up.",
    }
    if 413 in codes:
        codes = tuple(sorted({408, *codes}))
    return {code: {"model": ErrorBody, "description": meanings[code]} for code in codes}


# ---------------------------------------------------------------------- errors


UNION_MEMBERS = {"str", "int", "bool", "float"}  # pydantic's names of simple union members


def error_path(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """A pydantic error location as a field path of the request body.

    >>> error_path(("body", "move", "steps", 0))
    'move.steps[0]'
    >>> error_path(("path", "game"))
    'game'
    >>> error_path(("body",))
    'body'
    >>> error_path(("body", "move", "steps", 0, "constrained-int"))  # a member of a union
    'move.steps[0]'
    >>> error_path(("body", "options", "odd_x_card", "str"))
    'options.odd_x_card'
    """
    parts = list(loc[1:] if len(loc) > 1 and loc[0] in ("body", "path", "query") else loc)
    text = ""
    for part in parts:
        if isinstance(part, str) and (not part.isidentifier() or part in UNION_MEMBERS):
            break  # pydantic's name of a union member, not a field: the field is reached
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def within(prefix: str, path: str | None) -> str:
    """``path`` (from a reader of one field) as a path of the request body.

    >>> within("state", "hands.british[3]"), within("state", "state"), within("deck", None)
    ('state.hands.british[3]', 'state', 'deck')
    """
    if not path:
        return prefix
    if path == prefix or path.startswith((f"{prefix}.", f"{prefix}[")):
        return path
    return f"{prefix}.{path}"


@contextmanager
def _reading(prefix: str) -> Iterator[None]:
    """Input errors raised inside are re-raised with paths under ``prefix``."""
    try:
        yield
    except InputError as error:
        raise InputError(
            error.message,
            source=error.source,
            path=within(prefix, error.path),
            allowed=error.allowed,
        ) from error


def _error(status: int, body: ErrorBody) -> JSONResponse:
    return AsciiJSONResponse(body.model_dump(exclude_none=True), status_code=status)


async def _input_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, InputError)
    message = f"{error.source}: {error.message}" if error.source else error.message
    return _error(422, ErrorBody(error=message, path=error.path, allowed=error.allowed))


async def _validation_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = list(error.errors())
    first = problems[0] if problems else {"loc": ("body",), "msg": "invalid request"}
    if first.get("type") == "json_invalid":  # its location is a character offset
        return _error(422, ErrorBody(error="the body is not JSON", path="body"))
    return _error(422, ErrorBody(error=str(first["msg"]), path=error_path(tuple(first["loc"]))))


async def _illegal_move(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, IllegalMoveError)
    return _error(409, ErrorBody(error=f"illegal move: {error.reason}", rule=error.rule))


async def _solver_limit(_: Request, error: Exception) -> JSONResponse:
    return _error(503, ErrorBody(error=f"solver limit: {error}"))


async def _overloaded(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, Overloaded)
    response = _error(503, ErrorBody(error=str(error)))
    response.headers["Retry-After"] = str(error.retry_after)
    return response


async def _http_error(_: Request, error: Exception) -> JSONResponse:
    """Errors of the framework (a body that is not text, an unknown path, a wrong
    method) in the one error shape; a body that cannot be read is bad input (422)."""
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 400:
        return _error(422, ErrorBody(error=f"unreadable body: {error.detail}", path="body"))
    response = _error(error.status_code, ErrorBody(error=str(error.detail)))
    response.headers.update(error.headers or {})
    return response


class AsciiJSONResponse(JSONResponse):
    """JSON with every character past ASCII escaped: a string the client sent, even
    one that is not valid Unicode (a lone surrogate), comes back as it was sent
    instead of failing to encode."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _closing(pool: WorkerPool) -> Callable[[FastAPI], Any]:
    """The lifespan of an application: its first worker process starts with it, and
    its worker processes stop when it stops."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            await anyio.to_thread.run_sync(pool.warm)
            yield
        finally:
            pool.close()

    return lifespan


class BodyLimit:
    """ASGI middleware: a body over ``max_bytes`` gets 413 before anything parses it.

    A body is counted as it arrives and refused as soon as it passes the limit;
    the rest is read and dropped (never kept), so the client, still sending, can
    read the answer. A declared ``Content-Length`` past ``drain_bytes`` is refused
    at once and the connection closed. A body still arriving ``read_seconds`` after
    the request began gets 408 and the connection is closed, so a client sending
    slowly holds no connection for ever.
    """

    def __init__(
        self, app: ASGIApp, max_bytes: int, read_seconds: float, drain_bytes: int = 64 << 20
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.read_seconds = read_seconds
        self.drain_bytes = max(drain_bytes, max_bytes)

    @staticmethod
    async def _refuse(send: Send, status: int, error: str) -> None:
        """Answer ``status`` in the one error shape and close the connection."""
        response = _error(status, ErrorBody(error=error, path="body"))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [*response.raw_headers, (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": response.body})

    async def _too_large(self, send: Send) -> None:
        await self._refuse(send, 413, f"the request body is over {self.max_bytes} bytes")

    async def _drain(self, receive: Receive, seen: int) -> None:
        """Read and drop the rest of the body, up to ``drain_bytes`` in all."""
        while seen <= self.drain_bytes:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return
            seen += len(message.get("body", b""))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.drain_bytes):
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        with anyio.move_on_after(self.read_seconds) as reading:
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                chunk = message.get("body", b"")
                size += len(chunk)
                more = message.get("more_body", False)
                if size > self.max_bytes:
                    if more:
                        await self._drain(receive, size)
                    await self._too_large(send)
                    return
                chunks.append(chunk)
        if reading.cancelled_caught:
            await self._refuse(
                send, 408, f"the request body took longer than {self.read_seconds:g} s to arrive"
            )
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# ---------------------------------------------------------------------- the lanes


class Overloaded(Exception):
    """A lane holds as many requests as it admits; the client may retry after
    ``retry_after`` seconds."""

    def __init__(self, lane: str, retry_after: int) -> None:
        super().__init__(f"the server is busy with {lane} work; retry after {retry_after} s")
        self.retry_after = retry_after


class Admission:
    """At most ``capacity`` requests in a lane (running or waiting); one more is
    refused at once with :class:`Overloaded`, not queued to time out.

    Used from the event loop only, so the count needs no lock.

    >>> lane = Admission("cheap", capacity=1, retry_after=1)
    >>> with lane.admit():
    ...     with lane.admit():
    ...         pass
    Traceback (most recent call last):
    ...
    legalis.server.Overloaded: the server is busy with cheap work; retry after 1 s
    """

    def __init__(self, lane: str, capacity: int, retry_after: int) -> None:
        self.lane = lane
        self.capacity = capacity
        self.retry_after = retry_after
        self.inside = 0

    @contextmanager
    def admit(self) -> Iterator[None]:
        if self.inside >= self.capacity:
            raise Overloaded(self.lane, self.retry_after)
        self.inside += 1
        try:
            yield
        finally:
            self.inside -= 1


WORKER_MODULES = ["legalis.server", "legalis.solver.events", "legalis.verify.coin"]
WORKER_NICENESS = 10  # the scheduling priority of worker processes, below the server's
POLL_SECONDS = 0.05  # how soon a worker waiting on an abandoned request is stopped


def _worker_loop(connection: Connection) -> None:
    """A worker process: run each ``(function, arguments)`` received, send back
    ``("ok", result)``, or an error of legalis as ``(kind, fields)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when it ends
    os.nice(WORKER_NICENESS)  # costly work takes only the CPU that cheap work leaves
    while True:
        try:
            function, arguments = connection.recv()
        except (EOFError, OSError):
            return  # the server is gone
        reply: tuple[str, Any]
        try:
            reply = ("ok", function(*arguments))
        except InputError as error:
            reply = ("input", (error.message, error.source, error.path, error.allowed))
        except IllegalMoveError as error:
            reply = ("illegal", (error.reason, error.rule))
        except SolverLimitError as error:
            reply = ("limit", str(error))
        except Exception:
            reply = ("crash", traceback.format_exc())
        connection.send(reply)


def _raise_reply(kind: str, value: Any) -> Any:
    """The result of a worker's reply, or the error it reports raised again."""
    if kind == "ok":
        return value
    if kind == "input":
        message, source, path, allowed = value
        raise InputError(message, source=source, path=path, allowed=allowed)
    if kind == "illegal":
        raise IllegalMoveError(value[0], rule=value[1])
    if kind == "limit":
        raise SolverLimitError(value)
    raise RuntimeError(f"a worker process failed:\n{value}")


class _Worker:
    def __init__(self, context: Any) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_loop, args=(child,), daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> None:
        """Kill the process at once: its work stops and the system takes its memory back."""
        self.process.kill()
        self.process.join()
        self.connection.close()


class WorkerPool:
    """Worker processes for work that may outrun its time.

    :meth:`call` blocks (run it in a thread) until the answer or the deadline; at the
    deadline the process is killed and a fresh one started when next needed. The
    processes are forked from a clean server process that has imported the solvers
    (``forkserver``), so a fresh one is ready in milliseconds, not seconds.
    """

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(WORKER_MODULES)
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._lock = threading.Lock()

    def _take(self) -> _Worker:
        with self._lock:
            worker = self._idle.pop() if self._idle else None
        if worker is None or not worker.process.is_alive():
            worker = _Worker(self._context)
        with self._lock:
            self._busy.add(worker)
        return worker

    def _release(self, worker: _Worker, keep: bool) -> None:
        with self._lock:
            keep = keep and worker in self._busy  # not if stopped by close meanwhile
            self._busy.discard(worker)
            if keep:
                self._idle.append(worker)
        if not keep:
            worker.stop()

    def call(
        self,
        deadline: float,
        abandoned: threading.Event,
        function: Callable[..., T],
        *arguments: Any,
    ) -> T:
        """``function(*arguments)`` in a worker process. Past ``deadline`` (a
        ``time.monotonic()`` value) the process is killed and a SolverLimitError
        raised; once ``abandoned`` is set (the client has gone), it is killed too."""
        if time.monotonic() >= deadline:  # its time went by in the queue: start nothing
            raise SolverLimitError("the time limit was reached before the work began")
        worker = self._take()
        kept = False
        try:
            worker.connection.send((function, arguments))
            while not worker.connection.poll(min(POLL_SECONDS, deadline - time.monotonic())):
                if time.monotonic() >= deadline:
                    raise SolverLimitError("the time limit was reached; the work was stopped")
                if abandoned.is_set():
                    raise SolverLimitError("the request was abandoned; the work was stopped")
            kind, value = worker.connection.recv()
            kept = True
        except (EOFError, OSError) as error:  # the process died (killed, out of memory)
            raise RuntimeError("a worker process ended without an answer") from error
        finally:
            self._release(worker, kept)
        result: T = _raise_reply(kind, value)
        return result

    def warm(self) -> None:
        """Start one idle worker, and with it the process workers are forked from, so
        that no request's time limit is spent starting them (a second or so)."""
        worker = _Worker(self._context)
        with self._lock:
            self._idle.append(worker)

    def pids(self) -> list[int]:
        """The process ids of the workers alive now (idle or busy)."""
        with self._lock:
            workers = [*self._idle, *self._busy]
        return [w.process.pid for w in workers if w.process.pid and w.process.is_alive()]

    def close(self) -> None:
        """Stop every worker, busy or not (a later call starts a fresh one)."""
        with self._lock:
            workers = [*self._idle, *self._busy]
            self._idle, self._busy = [], set()
        for worker in workers:
            worker.stop()


# ---------------------------------------------------------------------- the work


_Z3_LOCK = threading.Lock()  # Z3's default context is not safe to share between threads


@functools.lru_cache(maxsize=64)
def _registered_game(name: str, options_key: str) -> Any:
    options = json.loads(options_key)
    if name == "lod" and isinstance(options, dict) and options.get("deck") is not None:
        raise InputError("a deck file cannot be named over HTTP", path="options.deck")
    return load_game(name, options if isinstance(options, dict) else None)


def _sevenyears_game(options_key: str) -> Any:
    return _registered_game("sevenyears", options_key)


def _game_state(name: str, raw: JsonObject) -> tuple[Any, Any]:
    """The game ``name`` (with the state's rule options) and the state, validated."""
    with _reading("state"):
        options = raw.get("options")
        try:
            key = json.dumps(options if isinstance(options, dict) else None, sort_keys=True)
        except (TypeError, ValueError) as error:
            raise InputError("rule options are JSON values", path="options") from error
        game = _registered_game(name, key)
        return game, game.state_from_json(raw)


def _sevenyears_state(raw: JsonObject) -> tuple[Any, Any]:
    return _game_state("sevenyears", raw)


def _first_decision(game: Any, seed: int) -> Any:
    """A new game of ``game`` after its seeded chance moves (the shuffle, the deck)."""
    from legalis.model.core.randomness import LoggedRandom

    state = game.new_initial_state()
    rng = LoggedRandom(seed)
    while state.is_chance and not state.is_over:
        state.play(state.sample_chance(rng))
    return state


def _sevenyears_new(seed: int) -> SevenYearsApplyResponse:
    """The first decision of a seeded game (as ``legalis new sevenyears``)."""
    game = _sevenyears_game("null")
    state = _first_decision(game, seed)
    return SevenYearsApplyResponse(state=state.to_json(), summary=game.summary(state))


def _lod_new(body: LodNew) -> LodStateResponse:
    """The first decision of a seeded LoD game: the deck prepared, the card's dice rolled."""
    options = {"scenario": body.scenario, "nonplayers": body.nonplayers}
    try:
        game = _registered_game("lod", json.dumps(options, sort_keys=True))
    except InputError as error:  # the body's fields are the game's options
        raise InputError(error.message, path=(error.path or "").removeprefix("options."),
                         allowed=error.allowed) from error  # fmt: skip
    state = _first_decision(game, body.seed)
    return LodStateResponse(state=state.to_json(), summary=game.summary(state))


def _lod_move(game: Any, raw: JsonObject) -> Any:
    with _reading("move"):
        return game.move_from_json(raw)


def _lod_moves(body: LodMoves, limit: int) -> LodMovesResponse:
    game, state = _game_state("lod", body.state)
    count, moves = _page(state.legal_moves(), body.offset, limit)
    return LodMovesResponse(
        to_move=state.to_move,
        count=count,
        offset=body.offset,
        limit=limit,
        moves=[game.move_to_json(move) for move in moves],
        descriptions=[game.describe_move(move) for move in moves],
    )


def _lod_check(body: LodMove) -> LodVerdictResponse:
    game, state = _game_state("lod", body.state)
    move = _lod_move(game, body.move)
    verdict = state.legal_moves().verdict(move)
    return LodVerdictResponse(move=game.move_to_json(move), description=game.describe_move(move),
                              legal=verdict.legal, reason=verdict.reason,
                              rule=verdict.rule)  # fmt: skip


def _lod_apply(body: LodMove) -> LodStateResponse:
    game, state = _game_state("lod", body.state)
    state.play(_lod_move(game, body.move))
    return LodStateResponse(state=state.to_json(), summary=game.summary(state))


def _lod_bot_move(body: LodBotMove) -> LodBotMoveResponse:
    """The move the seat chooses (chance's, at a chance move) and the state after it."""
    from legalis.model.core.randomness import LoggedRandom
    from legalis.solver.players import automatic_player

    game, state = _game_state("lod", body.state)
    if state.is_over:
        raise InputError("the game is over: no one is to move", path="state")
    by, rng = state.to_move, LoggedRandom(body.seed)
    if state.is_chance:
        move = state.sample_chance(rng)
    else:
        if body.seat == "nonplayer" and by not in game.options.nonplayers:
            raise InputError(f"the {by} are not a Non-player in this game (its option "
                             "nonplayers)", path="seat",
                             allowed=["random", "greedy"])  # fmt: skip
        move = automatic_player(body.seat, game, by).choose(state, rng)
    described = game.describe_move(move)
    state.play(move)
    return LodBotMoveResponse(by=by, move=game.move_to_json(move), description=described,
                              state=state.to_json(), summary=game.summary(state))  # fmt: skip


def _sevenyears_move(game: Any, raw: JsonObject) -> Any:
    with _reading("move"):
        return game.move_from_json(raw)


@functools.lru_cache(maxsize=16)
def _scenario(game: str, name: str) -> Any:
    from legalis.model.coin.scenarios import load_scenario

    return load_scenario(game, name)  # states are never changed in place: safe to share


@functools.lru_cache(maxsize=4)
def _bundled_deck(game: str) -> Any:
    from legalis.model.coin.deck import bundled_deck

    return bundled_deck(game)


def _coin_deck(game: str, raw: JsonObject | None) -> Any:
    if raw is None:
        return _bundled_deck(game)
    from legalis.model.coin.deck import deck_from_toml, of_game

    with _reading("deck"):
        deck = deck_from_toml(raw)
    return of_game(deck, game, "deck.game")


def _coin_state(game: str, body: EventRequest) -> Any:
    from legalis.model.coin.scenarios import scenario_names
    from legalis.model.coin.state import state_from_json

    if (body.state is None) == (body.scenario is None):
        raise InputError(
            "give a state or a scenario (not both)", path="state", allowed=scenario_names(game)
        )
    if body.scenario is not None:
        names = scenario_names(game)
        if body.scenario not in names:
            raise InputError(f"no scenario {body.scenario!r}", path="scenario", allowed=names)
        return _scenario(game, body.scenario)
    with _reading("state"):
        return state_from_json(body.state, game)


@functools.lru_cache(maxsize=512)
def _scenario_view(game: str, scenario: str, card: int, side: str, faction: str) -> Any:
    """The view of a bundled scenario and sample-deck card (its counts are kept)."""
    from legalis.solver.events import legal_event_moves

    return legal_event_moves(
        _scenario(game, scenario), _bundled_deck(game).card(card), side, faction
    )


def _event_view(game: str, body: EventRequest) -> Any:
    from legalis.solver.events import legal_event_moves

    deck = _coin_deck(game, body.deck)
    card = deck.card(body.card)
    side: str | None = body.side
    if side is None:
        printed = [name for name in ("unshaded", "shaded") if getattr(card, name) is not None]
        if len(printed) != 1:
            raise InputError("a dual-use card: pick a side (5.2)", path="side", allowed=printed)
        side = printed[0]
    card.side(side)  # an unprinted side is an input error (5.2)
    if body.scenario is not None and body.state is None and body.deck is None:
        _coin_state(game, body)  # checks the scenario's name
        return _scenario_view(game, body.scenario, body.card, side, body.faction)
    return legal_event_moves(_coin_state(game, body), card, side, body.faction)


def _page(view: Any, offset: int, limit: int) -> tuple[int, list[Any]]:
    """The count of ``view`` and its moves ``offset .. offset + limit - 1``."""
    count = int(view.count())
    end = min(count, offset + limit)
    if offset == 0:
        return count, list(itertools.islice(iter(view), end))
    return count, [view.nth(index) for index in range(offset, end)]


def _event_body(move: Any) -> EventMoveDocument:
    return EventMoveDocument.model_validate(move.to_json())


def _event_moves(game: str, body: EventMovesRequest, limit: int) -> EventMovesResponse:
    view = _event_view(game, body)
    count, moves = _page(view, body.offset, limit)
    return EventMovesResponse(
        card=view.card.number,
        side=view.side_name,
        faction=view.faction,
        count=count,
        offset=body.offset,
        limit=limit,
        moves=[_event_body(move) for move in moves],
    )


def _event_move(body: EventMoveRequest) -> Any:
    from legalis.solver.events import event_move_from_json

    return event_move_from_json(body.move.model_dump(mode="json"), path="move")


def _event_check(game: str, body: EventMoveRequest) -> EventVerdictResponse:
    view = _event_view(game, body)
    move = _event_move(body)
    verdict = view.explain(move)
    return EventVerdictResponse(
        move=_event_body(move), legal=verdict.legal, reason=verdict.reason, rule=verdict.rule
    )


def _event_apply(game: str, body: EventMoveRequest) -> EventApplyResponse:
    view = _event_view(game, body)
    return EventApplyResponse(state=view.apply(_event_move(body)).to_json())


def _verify_deck(game: str, raw: JsonObject, strict: bool) -> DeckReport:
    from legalis.verify.coin import verify_coin

    deck = _coin_deck(game, raw)
    with _Z3_LOCK:
        report = verify_coin(game, deck, strict=strict)
    return DeckReport.model_validate(report.to_json())


def _fixtures(game: str, per_rule: int, seed: int) -> FixturesResponse:
    from legalis.verify.fixtures import build_fixtures

    with _Z3_LOCK:
        manifest, built = build_fixtures(game, per_rule=per_rule, seed=seed)
    return FixturesResponse(manifest=manifest.to_json(), fixtures=built)


# ---------------------------------------------------------------------- EU:PoP work

_EU_FIELDS = {"check": "move", "choose": "choices"}


@contextmanager
def _eupop_reading() -> Iterator[None]:
    """Input errors raised inside, with paths of the request body: a command-line
    option (``--areas``) is the field of that name, the Event's effects the ``event``,
    anything else a field of the state."""
    try:
        yield
    except InputError as error:
        path = error.path or ""
        if path.startswith("--"):
            path = _EU_FIELDS.get(path[2:], path[2:])
        elif path.startswith("effects"):  # the Event's effects name a place the map lacks
            path = "event"
        else:
            path = within("state", path)
        raise InputError(
            error.message, source=error.source, path=path, allowed=error.allowed
        ) from error


def _eupop_state(raw: JsonObject) -> Any:
    from legalis.model.eupop.state import state_from_json

    with _reading("state"):
        return state_from_json(raw)


def _eupop_summary(state: Any) -> JsonObject:
    return {
        "players": list(state.players),
        "active": state.active,
        "age": state.age,
        "realms": len(state.realms),
        "provinces": len(state.provinces),
        "areas": len(state.areas),
    }


def _eupop_view(body: EuEffectRequest) -> tuple[Any, Any]:
    """The view of the request's effect, and the type of its moves."""
    from legalis.solver.eupop_play import effect_view

    options = PlayOptions.from_json(body.options)
    state = _eupop_state(body.state)
    with _eupop_reading():
        return effect_view(
            state,
            body.effect,
            body.player,
            amount=body.amount,
            areas=body.areas,
            targets=body.targets,
            provinces=body.provinces,
            places=body.places,
            vassal=body.vassal,
            ships=body.ships,
            colour=body.colour,
            options=options,
        )


@functools.cache
def _eupop_catalogue() -> Any:
    from legalis.model.eupop.events import load_catalogue

    return load_catalogue()  # read once; never changed


def _eupop_resolve(body: EuResolveRequest, page: int) -> EuResolveResponse:
    from legalis.solver.eupop_play import resolve

    options = PlayOptions.from_json(body.options)
    state = _eupop_state(body.state)
    event = _eupop_catalogue().event(body.event, path="event")
    with _eupop_reading():
        outcome = resolve(
            state, event.effects, event.symbols, auto=body.auto, choices=body.choices,
            seed=body.seed, options=options,
        )  # fmt: skip
    return EuResolveResponse.model_validate(
        {"event": body.event, "seed": body.seed, **outcome.to_json(page)}
    )


def _eupop_deck(body: EuDeckRequest) -> EuDeckResponse:
    from legalis.model.eupop.deck import deck_document, load_scenario, scenario_names

    flag = {"randomize_x": True} if body.randomize_x else {}  # short for that option
    options = DeckOptions.from_json({**body.options, **flag})
    names = scenario_names()
    if body.scenario not in names:  # a bundled scenario only: never a file of the server's
        raise InputError(f"no scenario {body.scenario!r}", path="scenario", allowed=names)
    document, _ = deck_document(
        load_scenario(body.scenario), _eupop_catalogue(), body.seed,
        options=options, players=body.players,
    )  # fmt: skip
    return EuDeckResponse.model_validate(document)


@functools.cache
def _schemas() -> dict[str, JsonObject]:
    from legalis.schemas import schemas

    return schemas()


@functools.cache
def _games() -> GamesResponse:
    from legalis.model.coin.scenarios import scenario_names
    from legalis.model.eupop.deck import scenario_names as scenario_names_eupop

    listed = [
        GameInfo(
            name=name,
            title=game_entry(name).title,
            supports=["validate", "moves", "check", "apply"] if name == "sevenyears" else [],
            options=list(game_entry(name).option_names),
            schemas=[f"{name}-state", f"{name}-move", "finding"],
        )
        for name in games()
        if name not in COIN_GAMES
    ]
    whole = ["new", "moves", "check", "apply", "bot-move"]
    titles = {"lod": "Liberty or Death", "fitl": "Fire in the Lake"}
    listed += [
        GameInfo(
            name=name,
            title=titles[name],
            supports=[
                *(whole if name in games() else []),
                "event-moves",
                "event-check",
                "event-apply",
                "verify-deck",
                "fixtures",
            ],
            options=list(game_entry(name).option_names) if name in games() else [],
            scenarios=scenario_names(name),
            schemas=[
                f"{name}-state",
                "coin-event-move",
                "coin-deck",
                "coin-deck-report",
                "finding",
                "fixture",
                "fixture-manifest",
                *(["sequence-fixture"] if name == "lod" else []),
            ],
        )
        for name in COIN_GAMES
    ]
    listed.append(
        GameInfo(
            name="eupop",
            title="Europa Universalis: The Price of Power",
            supports=[
                "eupop-validate",
                "eupop-moves",
                "eupop-check",
                "eupop-resolve",
                "eupop-deck",
            ],
            scenarios=scenario_names_eupop(),
            schemas=["eupop-state", "finding"],
        )
    )
    return GamesResponse(version=API_VERSION, games=listed)


# ---------------------------------------------------------------------- the application


def create_app(limits: Limits | None = None) -> FastAPI:
    """The API application, held to ``limits`` (default :class:`Limits`)."""
    bounds = limits or Limits()
    pool = WorkerPool()
    app = FastAPI(
        title="legalis",
        lifespan=_closing(pool),
        default_response_class=AsciiJSONResponse,
        version=API_VERSION,
        description=(
            "Legal moves, move checks, move application and deck verification for "
            "The Seven Years War, Liberty or Death, Fire in the Lake and the event system "
            "of Europa Universalis: The Price of Power. Errors share one "
            "shape: {error, path, allowed, rule}."
        ),
    )
    app.state.limits = bounds
    app.state.pool = pool
    app.add_middleware(BodyLimit, max_bytes=bounds.max_body_bytes, read_seconds=bounds.time_limit)
    app.add_exception_handler(InputError, _input_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(IllegalMoveError, _illegal_move)
    app.add_exception_handler(SolverLimitError, _solver_limit)
    app.add_exception_handler(Overloaded, _overloaded)
    app.add_exception_handler(StarletteHTTPException, _http_error)

    cheap = Admission("cheap", bounds.threads + bounds.queue, retry_after=1)
    costly = Admission(
        "costly", bounds.processes + bounds.process_queue, math.ceil(bounds.time_limit)
    )
    limiters: dict[str, anyio.CapacityLimiter] = {}  # made on first use, inside the event loop

    def limiter(lane: str) -> anyio.CapacityLimiter:
        if not limiters:
            limiters["cheap"] = anyio.CapacityLimiter(bounds.threads)
            limiters["costly"] = anyio.CapacityLimiter(bounds.processes)
        return limiters[lane]

    async def work(function: Callable[[], T]) -> T:
        """Run cheap work in a worker thread; past the time limit, a 503."""
        with cheap.admit():
            try:
                with anyio.fail_after(bounds.time_limit):
                    return await anyio.to_thread.run_sync(
                        function, abandon_on_cancel=True, limiter=limiter("cheap")
                    )
            except TimeoutError as error:
                raise SolverLimitError(
                    f"the work took longer than {bounds.time_limit:g} s (the server's time limit)"
                ) from error

    async def offload(function: Callable[..., T], *arguments: Any) -> T:
        """Run ``function(*arguments)`` in a worker process, killed when its time is up."""
        with costly.admit():
            deadline = time.monotonic() + bounds.time_limit
            abandoned = threading.Event()
            try:
                return await anyio.to_thread.run_sync(
                    pool.call, deadline, abandoned, function, *arguments,
                    abandon_on_cancel=True, limiter=limiter("costly"),
                )  # fmt: skip
            finally:
                abandoned.set()  # cancelled (the client went, the server stops): kill it

    async def event_work(function: Callable[..., T], game: str, body: EventRequest,
                         *arguments: Any) -> T:  # fmt: skip
        """A bundled scenario and deck are cheap (their views are kept); a state or a
        deck of the request's own may cost anything."""
        if body.state is None and body.deck is None:
            return await work(functools.partial(function, game, body, *arguments))
        return await offload(function, game, body, *arguments)

    def cap(limit: int) -> int:
        return min(limit, bounds.max_page)

    @app.get(f"/{API_VERSION}/games", response_model=GamesResponse, tags=["games"])
    async def list_games() -> GamesResponse:
        """The games served, and what the API does for each."""
        return _games()  # built once, then a lookup: no need to queue for a worker

    @app.post(
        f"/{API_VERSION}/sevenyears/new",
        response_model=SevenYearsApplyResponse,
        responses=_errors(413, 422, 503),
        tags=["sevenyears"],
    )
    async def sevenyears_new(body: SevenYearsNew) -> SevenYearsApplyResponse:
        """A new game's first decision, after seeded chance moves (the shuffle)."""
        return await work(functools.partial(_sevenyears_new, body.seed))

    @app.post(
        f"/{API_VERSION}/sevenyears/validate",
        response_model=ValidateResponse,
        responses=_errors(413, 422, 503),
        tags=["sevenyears"],
    )
    async def sevenyears_validate(body: SevenYearsState) -> ValidateResponse:
        """Validate a Seven Years War state; a bad field is a 422 with its path."""

        def run() -> ValidateResponse:
            game, state = _sevenyears_state(body.state)
            return ValidateResponse(ok=True, summary=game.summary(state))

        return await work(run)

    @app.post(
        f"/{API_VERSION}/sevenyears/moves",
        response_model=SevenYearsMovesResponse,
        responses=_errors(413, 422, 503),
        tags=["sevenyears"],
    )
    async def sevenyears_moves(body: SevenYearsMoves) -> SevenYearsMovesResponse:
        """The number of legal moves at a state and one page of them."""

        def run() -> SevenYearsMovesResponse:
            game, state = _sevenyears_state(body.state)
            limit = cap(body.limit)
            count, moves = _page(state.legal_moves(), body.offset, limit)
            return SevenYearsMovesResponse(
                to_move=state.to_move,
                count=count,
                offset=body.offset,
                limit=limit,
                moves=[game.move_to_json(move) for move in moves],
            )

        return await work(run)

    @app.post(
        f"/{API_VERSION}/sevenyears/check",
        response_model=VerdictResponse,
        responses=_errors(413, 422, 503),
        tags=["sevenyears"],
    )
    async def sevenyears_check(body: SevenYearsMove) -> VerdictResponse:
        """Is this move legal here? The reason and the rule either way."""

        def run() -> VerdictResponse:
            game, state = _sevenyears_state(body.state)
            move = _sevenyears_move(game, body.move)
            verdict = state.legal_moves().verdict(move)
            return VerdictResponse(
                move=game.move_to_json(move),
                legal=verdict.legal,
                reason=verdict.reason,
                rule=verdict.rule,
            )

        return await work(run)

    @app.post(
        f"/{API_VERSION}/sevenyears/apply",
        response_model=SevenYearsApplyResponse,
        responses=_errors(409, 413, 422, 503),
        tags=["sevenyears"],
    )
    async def sevenyears_apply(body: SevenYearsMove) -> SevenYearsApplyResponse:
        """The state after a move; an illegal move is a 409 naming the rule."""

        def run() -> SevenYearsApplyResponse:
            game, state = _sevenyears_state(body.state)
            move = _sevenyears_move(game, body.move)
            state.play(move)
            return SevenYearsApplyResponse(state=state.to_json(), summary=game.summary(state))

        return await work(run)

    # Liberty or Death as a whole game: a state may cost anything, so in a worker process.
    lod = f"/{API_VERSION}/lod"

    @app.post(f"{lod}/new", response_model=LodStateResponse, responses=_errors(413, 422, 503),
              tags=["lod"])  # fmt: skip
    async def lod_new(body: LodNew) -> LodStateResponse:
        """A new game's first decision, after the seeded chance moves (the deck, the dice)."""
        return await offload(_lod_new, body)

    @app.post(f"{lod}/moves", response_model=LodMovesResponse, responses=_errors(413, 422, 503),
              tags=["lod"])  # fmt: skip
    async def lod_moves(body: LodMoves) -> LodMovesResponse:
        """The number of legal moves at a state and one page of them, described."""
        return await offload(_lod_moves, body, cap(body.limit))

    @app.post(f"{lod}/check", response_model=LodVerdictResponse,
              responses=_errors(413, 422, 503), tags=["lod"])  # fmt: skip
    async def lod_check(body: LodMove) -> LodVerdictResponse:
        """Is this move legal here? The reason and the rule either way."""
        return await offload(_lod_check, body)

    @app.post(f"{lod}/apply", response_model=LodStateResponse,
              responses=_errors(409, 413, 422, 503), tags=["lod"])  # fmt: skip
    async def lod_apply(body: LodMove) -> LodStateResponse:
        """The state after a move; an illegal move is a 409 naming the rule."""
        return await offload(_lod_apply, body)

    @app.post(f"{lod}/bot-move", response_model=LodBotMoveResponse,
              responses=_errors(413, 422, 503), tags=["lod"])  # fmt: skip
    async def lod_bot_move(body: LodBotMove) -> LodBotMoveResponse:
        """The move a seat (nonplayer, random, greedy) makes for the Faction to move, and
        the state after it."""
        return await offload(_lod_bot_move, body)

    @app.post(
        f"/{API_VERSION}/{{game}}/event-moves",
        response_model=EventMovesResponse,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def event_moves(
        game: CoinGame,
        body: Annotated[EventMovesRequest, Body(openapi_examples=EVENT_MOVES_EXAMPLES)],
    ) -> EventMovesResponse:
        """Every legal way to execute an event: the count and one page."""
        return await event_work(_event_moves, game, body, cap(body.limit))

    @app.post(
        f"/{API_VERSION}/{{game}}/event-check",
        response_model=EventVerdictResponse,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def event_check(game: CoinGame, body: EventMoveRequest) -> EventVerdictResponse:
        """Is this execution of the event legal? The reason and the rule either way."""
        return await event_work(_event_check, game, body)

    @app.post(
        f"/{API_VERSION}/{{game}}/event-apply",
        response_model=EventApplyResponse,
        responses=_errors(409, 413, 422, 503),
        tags=["coin"],
    )
    async def event_apply(game: CoinGame, body: EventMoveRequest) -> EventApplyResponse:
        """The state after an execution of the event; an illegal one is a 409."""
        return await event_work(_event_apply, game, body)

    @app.post(
        f"/{API_VERSION}/{{game}}/verify-deck",
        response_model=DeckReport,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def verify_deck(game: CoinGame, body: DeckRequest) -> DeckReport:
        """Check a deck's event text against the rules and prove the rule set (Z3)."""
        return await offload(_verify_deck, game, body.deck, body.strict)

    @app.post(
        f"/{API_VERSION}/{{game}}/fixtures",
        response_model=FixturesResponse,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def fixtures(game: CoinGame, body: FixturesRequest) -> FixturesResponse:
        """Edge-case states at each rule's boundary, with the legal moves expected there."""
        return await offload(_fixtures, game, body.per_rule, body.seed)

    @app.post(
        f"/{API_VERSION}/eupop/validate",
        response_model=ValidateResponse,
        responses=_errors(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_validate(body: EuStateRequest) -> ValidateResponse:
        """Validate an EU:PoP state; a bad field is a 422 with its path."""

        def run() -> ValidateResponse:
            return ValidateResponse(ok=True, summary=_eupop_summary(_eupop_state(body.state)))

        return await work(run)

    @app.post(
        f"/{API_VERSION}/eupop/moves",
        response_model=EuMovesResponse,
        responses=_errors(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_moves(body: EuMovesRequest) -> EuMovesResponse:
        """The legal choices of one effect (16.3) or symbol (16.5): the count and one page."""
        from legalis.model.eupop.play import jsonable

        def run() -> EuMovesResponse:
            view, _ = _eupop_view(body)
            limit = cap(body.limit)
            with _eupop_reading():
                count, moves = _page(view, body.offset, limit)
            return EuMovesResponse(
                effect=body.effect,
                player=body.player,
                count=count,
                offset=body.offset,
                limit=limit,
                moves=[jsonable(move) for move in moves],
            )

        return await work(run)

    @app.post(
        f"/{API_VERSION}/eupop/check",
        response_model=EuVerdictResponse,
        responses=_errors(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_check(body: EuCheckRequest) -> EuVerdictResponse:
        """Is this choice of the effect legal? The reason and the rule either way."""
        from legalis.model.eupop.play import jsonable
        from legalis.solver.eupop_play import move_from_json, verdict_of

        def run() -> EuVerdictResponse:
            view, kind = _eupop_view(body)
            with _eupop_reading():
                move = move_from_json(body.move, kind)
                verdict = verdict_of(view, move)
            return EuVerdictResponse(
                move=jsonable(move), legal=verdict.legal, reason=verdict.reason, rule=verdict.rule
            )

        return await work(run)

    @app.post(
        f"/{API_VERSION}/eupop/resolve",
        response_model=EuResolveResponse,
        response_model_exclude_none=True,
        responses=_errors(409, 413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_resolve(body: EuResolveRequest) -> EuResolveResponse:
        """Resolve an Event (16.3, 16.5): all of it with `auto`, otherwise up to the first
        decision `choices` leaves open; a choice out of range is a 409 naming the rule."""
        return await work(lambda: _eupop_resolve(body, bounds.max_page))

    @app.post(
        f"/{API_VERSION}/eupop/deck",
        response_model=EuDeckResponse,
        responses=_errors(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_deck(body: EuDeckRequest) -> EuDeckResponse:
        """A bundled scenario's Event Deck prepared per Age (16), the first display
        (16.2) and the deck's problems (16.1)."""
        return await work(lambda: _eupop_deck(body))

    @app.get(f"/{API_VERSION}/schemas/{{name}}", responses=_errors(422), tags=["games"])
    async def schema(
        name: Annotated[str, PathParameter(json_schema_extra={"enum": sorted(_schemas())})],
    ) -> JsonObject:
        """A JSON Schema (Draft 2020-12) of a document the API reads or writes."""
        published = _schemas()
        if name not in published:
            raise InputError(f"no schema {name!r}", path="name", allowed=sorted(published))
        return published[name]

    app.openapi = _documented(app)  # type: ignore[method-assign]
    return app


DROPPED = ("$defs", "$schema")  # moved to the components; the document's own dialect


def _components(name: str, schema: JsonObject) -> dict[str, JsonObject]:
    """A published schema and its definitions as OpenAPI components: ``name`` and
    ``name.Definition``, their references rewritten to match.

    >>> schema = {"$schema": "...", "$defs": {"Side": {"enum": [1]}},
    ...           "properties": {"side": {"$ref": "#/$defs/Side"}}}
    >>> _components("x", schema)  # doctest: +NORMALIZE_WHITESPACE
    {'x': {'properties': {'side': {'$ref': '#/components/schemas/x.Side'}}},
     'x.Side': {'enum': [1]}}
    """

    def moved(node: Any) -> Any:
        if isinstance(node, str) and node.startswith("#/$defs/"):  # a $ref or a mapping's
            return f"{COMPONENTS}{name}.{node.removeprefix('#/$defs/')}"
        if isinstance(node, list):
            return [moved(item) for item in node]
        if isinstance(node, dict):
            return {key: moved(value) for key, value in node.items() if key not in DROPPED}
        return node

    found = {name: moved(schema)}
    found.update({f"{name}.{key}": moved(value) for key, value in schema.get("$defs", {}).items()})
    return found


def _link(path: str, body: JsonObject, description: str) -> JsonObject:
    reference = "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/post"
    return {
        "operationRef": reference,
        "requestBody": body,
        "description": description,
        "x-schemathesis": {"merge_body": False},  # the body as given, nothing generated into it
    }


def _links() -> dict[str, dict[str, JsonObject]]:
    """OpenAPI links of each operation's answer, for stateful testing: a new state
    feeds the moves, a move listed feeds the check and the apply, the state an apply
    gives feeds the moves again."""
    seven = f"/{API_VERSION}/sevenyears"
    listed = {"state": "$request.body#/state", "move": "$response.body#/moves/0"}
    after = {"state": "$response.body#/state", "offset": 0}  # a first page: moves/0 is there
    event = {
        name: f"$request.body#/{name}" for name in ("state", "scenario", "deck", "card")
    } | {"side": "$response.body#/side", "faction": "$response.body#/faction",
         "move": "$response.body#/moves/0"}  # fmt: skip
    coin = f"/{API_VERSION}/{{game}}"
    return {
        f"{seven}/new": {"Moves": _link(f"{seven}/moves", after, "The moves of the new state.")},
        f"{seven}/moves": {
            "Check": _link(f"{seven}/check", listed, "Check the first move listed."),
            "Apply": _link(f"{seven}/apply", listed, "Apply the first move listed."),
        },
        f"{seven}/apply": {"Moves": _link(f"{seven}/moves", after, "The moves after it.")},
        f"{coin}/event-moves": {
            "Check": _link(f"{coin}/event-check", event, "Check the first execution listed."),
            "Apply": _link(f"{coin}/event-apply", event, "Apply the first execution listed."),
        },
    }


def _documented(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` with the published JSON Schemas the fields refer to as
    components, and the links between operations."""
    generated = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = generated()
        components = document.setdefault("components", {}).setdefault("schemas", {})
        text = json.dumps(document)
        for name, schema in _schemas().items():
            if f'"{COMPONENTS}{name}"' in text:
                components.update(_components(name, schema))
        for path, links in _links().items():
            document["paths"][path]["post"]["responses"]["200"]["links"] = links
        return document

    return openapi


def openapi_document(limits: Limits | None = None) -> dict[str, Any]:
    """The OpenAPI document of :func:`create_app`.

    >>> openapi_document()["info"]["title"]
    'legalis'
    """
    return create_app(limits).openapi()


def openapi_text(limits: Limits | None = None) -> str:
    """The OpenAPI document as the text committed in ``docs/openapi.json``."""
    return json.dumps(openapi_document(limits), indent=2, ensure_ascii=False) + "\n"


def write_openapi(path: str | Path) -> None:
    """Write the OpenAPI document to ``path`` (``docs/openapi.json`` in the repository)."""
    Path(path).write_text(openapi_text(), encoding="utf-8")


LIMITS_VARIABLE = "LEGALIS_SERVER_LIMITS"


def app_from_environment() -> FastAPI:
    """The application with the limits :func:`serve` put in the environment
    (how each worker process of a multi-process server gets them).

    >>> import os
    >>> os.environ[LIMITS_VARIABLE] = '{"max_page": 7}'
    >>> app_from_environment().state.limits.max_page
    7
    >>> del os.environ[LIMITS_VARIABLE]
    """
    given = json.loads(os.environ.get(LIMITS_VARIABLE, "{}"))
    return create_app(Limits(**given))


SHUTDOWN_SECONDS = 2  # after SIGTERM or SIGINT, requests still running get this long


def max_workers() -> int:
    """The most server processes :func:`serve` starts: two per core.

    >>> max_workers() == 2 * (os.cpu_count() or 1)
    True
    """
    return 2 * (os.cpu_count() or 1)


def check_serving(host: str, port: int, workers: int) -> None:
    """Refuse, as bad input, a number of workers past :func:`max_workers` and an
    address that cannot be listened on (a port in use, an unknown host).

    >>> check_serving("127.0.0.1", 8080, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: --workers: 0 server processes (allowed: 1...)
    """
    bound = max_workers()
    if not 1 <= workers <= bound:
        raise InputError(f"{workers} server processes", path="--workers", allowed=[f"1..{bound}"])
    try:
        family, kind, _, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as error:
        raise InputError(f"no address for host {host!r}", path="--host") from error
    with socket.socket(family, kind) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        try:
            probe.bind(address)
        except OSError as error:
            reason = "in use" if error.errno == errno.EADDRINUSE else error.strerror
            raise InputError(f"cannot listen on port {port} of {host}: {reason}",
                             path="--port") from error  # fmt: skip


def serve(
    host: str = "127.0.0.1", port: int = 8080, limits: Limits | None = None, workers: int = 1
) -> None:
    """Serve the API with uvicorn until SIGTERM or SIGINT; ``workers`` processes share
    the port (each with its own threads and worker processes), so the work can use
    every core. Within :data:`SHUTDOWN_SECONDS` of the signal, running requests are
    cut short and every process has stopped."""
    import uvicorn

    check_serving(host, port, workers)
    settings: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "info",
        "access_log": False,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
    }
    if workers == 1:
        uvicorn.run(create_app(limits), **settings)
        return
    os.environ[LIMITS_VARIABLE] = json.dumps(dataclasses.asdict(limits or Limits()))
    uvicorn.run("legalis.server:app_from_environment", factory=True, workers=workers, **settings)


if __name__ == "__main__":  # python -m legalis.server [docs/openapi.json]
    write_openapi(sys.argv[1] if len(sys.argv) > 1 else "docs/openapi.json")
