"""The HTTP API: new games, legal moves, checks, applies, automatic players and
verification for every registered game, as JSON over HTTP.

Every endpoint lives under ``/v1``; the play endpoints are written once, by verb,
against the ``Game``/``GameState`` protocol (``model/core/game.py``):
``/v1/{game}/new``, ``validate``, ``moves``, ``check``, ``apply``, ``bot-move``, and
``verify`` and ``fixtures`` where the game has them (``legalis/capabilities.py``).
``GET /v1/games`` lists the games from the registry. States and moves are the same
JSON the command line reads and writes; a state names its game and carries its rule
options. The older per-family endpoints are deprecated (``legalis/legacy_http.py``).
Errors have one shape, ``{"error": ..., "path": ...}``:

- 422: bad input (the ``path`` names the bad field of the request body);
- 409: an illegal move (``rule`` names the rule that refuses it);
- 413: a request body larger than :attr:`Limits.max_body_bytes`;
- 408: a request body still arriving after :attr:`Limits.time_limit`;
- 503: the work took longer than :attr:`Limits.time_limit`, a solver gave up, or
  the lane of the request is full (then with ``Retry-After``).

Work runs in two lanes, so expensive work never starves cheap work. Cheap work
(the games the registry marks ``quick``, EU:PoP effects, events of a bundled scenario
and deck, whose answers are kept) runs in worker threads. Work whose cost the request
decides (a state of the other games, a deck of its own, verification, fixtures) runs
in worker processes: when its time is up the process is killed, so the work stops
and its memory is freed, and a fresh process takes its place. Each lane admits a
bounded number of requests and refuses the rest at once with 503 and
``Retry-After``. Start a server with ``legalis serve`` or :func:`serve`;
:func:`create_app` gives the application itself (for tests, or another ASGI server).
The worker processes start from a fork server that imports the calling script's main
module, as ``multiprocessing`` does: a script that builds the application keeps it
under ``if __name__ == "__main__":``.

>>> app = create_app(Limits(max_page=50))
>>> app.state.limits.max_page
50
>>> paths = app.openapi()["paths"]
>>> sorted(path.rsplit("/", 1)[1] for path in paths if "deprecated" not in paths[path].get(
...     "post", {}) and path.startswith("/v1/{game}/"))  # doctest: +NORMALIZE_WHITESPACE
['apply', 'board', 'bot-move', 'check', 'fixtures', 'moves', 'new', 'replay', 'validate',
 'verify']
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
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi import Path as PathParameter
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from legalis.capabilities import VerifyInput, fixture_maker, verifier, with_capability
from legalis.model.core.game import OptionSpec
from legalis.model.errors import IllegalMoveError, InputError, SolverLimitError, clip
from legalis.registry import game_entry, games, load_game

API_VERSION = "v1"
T = TypeVar("T")

FILE_OPTIONS = ("deck",)
"""Options that name a file (a spec with no list of values): never read over HTTP, so
a request cannot make the server open a file of its own; the bundled data is used."""

NONPLAYERS_OPTION = "nonplayers"
"""The option that names the seats a game's own rules play (LoD section 8): a
``nonplayer`` seat moves only for them. A game without it lets the rules play any seat."""


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


class RequestBody(BaseModel):
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


def _each_game(suffix: str) -> tuple[str, ...]:
    """The published schema names ``<game><suffix>`` of every registered game.

    >>> "sevenyears-move" in _each_game("-move")
    True
    """
    return tuple(f"{name}{suffix}" for name in games())


STATE_SCHEMAS = _each_game("-game-state")
MOVE_SCHEMAS = _each_game("-move")
StateField = Field(
    description="A game state, as `legalis new` writes it: it names its `game` and "
    "carries its rule `options` (a file cannot be named over HTTP).",
    json_schema_extra=published(*STATE_SCHEMAS),
)
MoveField = Field(
    description='A move of the state\'s game, e.g. {"type": "pass", "player": "british"}.',
    json_schema_extra=published(*MOVE_SCHEMAS),
)
PLAY = ("new", "validate", "moves", "check", "apply", "bot-move", "replay", "board")  # all
CAPABILITIES = ("verify", "fixtures")  # the endpoints of the games that have them
HUMAN = "human"  # the seat kind no server plays
CAPABILITY_SCHEMAS = {"verify": ("finding",),
                      "fixtures": ("fixture-manifest", "fixture", "sequence-fixture")}  # fmt: skip


def _option_names(schema: dict[str, Any]) -> None:
    """The ``options`` of a new game: only names some game reads (each game refuses the
    names it does not read, with its list)."""
    names = sorted({spec.name for name in games() for spec in _option_specs(name)})
    schema["propertyNames"] = {"enum": names}


def _automatic_seats(schema: dict[str, Any]) -> None:
    """The ``seat`` of a bot move: a seat kind of some game that is not a person."""
    from legalis.solver.players import seat_kinds

    kinds = {kind for name in games() for kind in seat_kinds(_registered_game(name, "null"))}
    schema["enum"] = sorted(kinds - {HUMAN})


class NewRequest(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [{"seed": 1}]})

    options: JsonObject | None = Field(
        default=None,
        description="The game's rule options by name (GET /v1/games lists them with "
        'their values and rules), e.g. {"scenario": "1778"} for lod; null or left out: '
        "the defaults.",
        json_schema_extra=_option_names,
    )
    seed: Whole = Field(default=1, ge=0, description="The same seed gives the same state.")


class StateRequest(RequestBody):
    state: JsonObject = StateField


class MovesRequest(StateRequest):
    offset: Whole = Field(default=0, ge=0, description="Index of the first move of the page.")
    limit: Whole = Field(default=100, ge=0, description="Moves per page (capped by the server).")
    groups: bool = Field(
        default=False,
        description="Also give the moves' groups (Pass, Event, each Command ...): each "
        "group's heading, count and the offset of its first move, to page through it.",
    )


class MoveRequest(StateRequest):
    move: JsonObject = MoveField


class BotMoveRequest(StateRequest):
    seat: str = Field(
        default="random",
        description="Who decides: an automatic seat kind of the game (GET /v1/games: "
        "`seat_kinds`, not human), e.g. random, greedy, or nonplayer (the game's own "
        "rules, for a seat its options give them). At a chance move, the seed draws it.",
        json_schema_extra=_automatic_seats,
    )
    seed: Whole = Field(default=1, ge=0, description="The same seed gives the same move.")


class VerifyRequest(RequestBody):
    data: JsonObject | None = Field(
        default=None,
        description="The game's data to check, its TOML file's content as JSON: a COIN "
        "deck, the Seven Years War card list, the EU:PoP Event catalogue; null: the "
        "bundled one (or `text`).",
    )
    text: str | None = Field(
        default=None,
        description="The same data as the TOML file's text, as pasted or uploaded "
        "(instead of `data`).",
    )
    rules: JsonObject | None = Field(
        default=None, description="The rule numbers to check the data against (the Seven "
        "Years War game.toml as JSON); null: the bundled ones.",
    )  # fmt: skip
    options: JsonObject | None = Field(
        default=None, description="Rule options, for a game whose verification reads them."
    )
    strict: bool = Field(
        default=False,
        description="COIN: event text in a sentence form legalis does not read is an "
        "error (text.unread), not a warning.",
    )


class BoardRequest(RequestBody):
    state: JsonObject | None = Field(
        default=None, description="A game state to draw (or `witness`).",
        json_schema_extra=published(*STATE_SCHEMAS, optional=True),
    )  # fmt: skip
    witness: JsonObject | None = Field(
        default=None,
        description="A finding's witness state to draw instead (LoD and FitL: a COIN board "
        "document, as `legalis verify` reports it).",
    )
    caption: str = Field(default="", max_length=500,
                         description="What a witness shows, to title its drawing.")  # fmt: skip
    viewer: str | None = Field(
        default=None, description="The seat looking: its hidden cards are drawn (null: "
        "only what every seat sees).",
    )  # fmt: skip
    layer: str | None = Field(
        default=None, description="What to show on a game's map (EU:PoP: religion or "
        "revolution, the next 16.5 spread).",
    )  # fmt: skip


class FixturesRequest(RequestBody):
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


class ErrorBody(BaseModel):
    """Every error: the message, and where it applies."""

    error: str
    path: str | None = Field(default=None, description="The bad field of the request body.")
    allowed: list[str] | None = Field(
        default=None, description="The values that would be accepted."
    )
    rule: str | None = Field(default=None, description="The rule that refuses an illegal move.")


class OptionInfo(BaseModel):
    """One rule option of a game (``OptionSpec``)."""

    name: str
    allowed: list[Any] | None = Field(description="Its values; null: a count or a file name.")
    default: Any
    rule: str = Field(description="The rule it reads (docs/rules-questions.md).")
    help: str


class GameInfo(BaseModel):
    name: str
    title: str
    players: list[str] = Field(description="The seats, in the game's order.")
    seat_kinds: list[str] = Field(description="Who may take a seat: human, random, ...")
    options: list[OptionInfo] = Field(description="The rule options: `options` of new.")
    supports: list[str] = Field(description="The endpoints that serve this game.")
    schemas: list[str] = Field(description="JSON Schemas of its documents: GET /v1/schemas/{name}.")
    layers: list[str] = Field(
        default_factory=list,
        description="What its board can show beside the state (`layer` of board; the first "
        "is the default).",
    )


class GamesResponse(BaseModel):
    version: str
    games: list[GameInfo]


class StateResponse(BaseModel):
    game: str
    state: JsonObject = StateField
    to_move: str = Field(description="Who decides next: a seat, or chance.")
    is_over: bool
    result: JsonObject | None = Field(
        description='Once over, the result: "winner" (a seat or null) and "condition".'
    )
    summary: JsonObject = Field(description="Where the game stands, for display.")


class ValidateResponse(StateResponse):
    ok: bool = Field(description="The state is sound (a bad one is a 422 instead).")


class ListedMove(BaseModel):
    move: JsonObject = MoveField
    description: str = Field(description="The move for people.")
    group: str = Field(description='The heading a list shows it under, e.g. "Pass".')


class MoveGroupInfo(BaseModel):
    group: str = Field(description="The heading, as `group` of each move.")
    count: int | None = Field(description="Its moves (null: too many to count here).")
    offset: int | None = Field(description="The index of its first move (`offset` of moves).")
    exact: bool = Field(description="Every move was looked at (else a section too large "
                        "to list has the heading of its first move).")  # fmt: skip


class MovesResponse(BaseModel):
    game: str
    to_move: str
    count: int
    offset: int
    limit: int = Field(description="The page size used (after the server's cap).")
    moves: list[ListedMove]
    groups: list[MoveGroupInfo] | None = Field(
        default=None, description="When asked for: the moves' groups, in listing order."
    )


class PlaceInfo(BaseModel):
    id: str
    name: str
    words: str = Field(description="What lies there, in words.")


class BoardResponse(BaseModel):
    """A drawn board (other fields: what a game's drawing also reports)."""

    model_config = ConfigDict(extra="allow")

    svg: str = Field(description="The board as an SVG document.")
    words: list[str] = Field(description="Where the game stands, in words.")
    places: list[PlaceInfo] = Field(description="Each drawn space or area, in words.")


class VerdictResponse(BaseModel):
    move: JsonObject = Field(
        description="The move as read, in its canonical form.",
        json_schema_extra=published(*MOVE_SCHEMAS),
    )
    description: str
    legal: bool
    reason: str
    rule: str


class NewResponse(StateResponse):
    opening: list[JsonObject] = Field(
        description="The chance moves played from the opening to reach this first decision "
        "(a log of the game starts with them).",
        json_schema_extra=published(*MOVE_SCHEMAS, many=True),
    )


class ReplayRequest(RequestBody):
    log: str = Field(description="A game log as `legalis play GAME --out` writes it: JSON "
                     "lines, a header, one line per move, the result.")  # fmt: skip


class ReplayResponse(StateResponse):
    moves: int = Field(description="The moves the log applied, each checked.")
    matches_log: bool | None = Field(
        description="Whether the result is the log's (null: the log has no result line)."
    )


class AppliedResponse(StateResponse):
    move: JsonObject = Field(
        description="The move applied.", json_schema_extra=published(*MOVE_SCHEMAS)
    )
    description: str


class BotMoveResponse(AppliedResponse):
    by: str = Field(description="Who moved: a seat, or chance.")


class VerifyResponse(BaseModel):
    """A verification report (its fields depend on the game: ``findings`` always)."""

    model_config = ConfigDict(extra="allow")

    ok: bool = Field(description="No error finding.")
    findings: list[JsonObject] = Field(json_schema_extra=published("finding", many=True))


def error_answers(*codes: int) -> dict[int | str, dict[str, Any]]:
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
def reading_field(prefix: str) -> Iterator[None]:
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


WORKER_MODULES = [
    "legalis.server",
    "legalis.legacy_http",
    "legalis.solver.events",
    "legalis.verify.coin",
]
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
    and the modules ``preload`` names (asked for when the first process starts)
    (``forkserver``), so a fresh one is ready in milliseconds, not seconds.
    """

    def __init__(self, preload: Callable[[], Iterable[str]] = tuple) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._preload: Callable[[], Iterable[str]] | None = preload
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._lock = threading.Lock()

    def _start(self) -> _Worker:
        """A fresh worker; the first one starts the process workers are forked from."""
        if self._preload is not None:
            self._context.set_forkserver_preload([*WORKER_MODULES, *self._preload()])
            self._preload = None
        return _Worker(self._context)

    def _take(self) -> _Worker:
        with self._lock:
            worker = self._idle.pop() if self._idle else None
        if worker is None or not worker.process.is_alive():
            worker = self._start()
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
        worker = self._start()
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


class Lanes:
    """The two lanes of one application: :meth:`work` runs cheap work in a worker
    thread, :meth:`offload` work whose cost the request decides in a worker process,
    and :meth:`play` picks the lane by game (the registry's ``quick``). Each lane
    admits a bounded number of requests (:class:`Admission`)."""

    def __init__(self, limits: Limits, pool: WorkerPool) -> None:
        self.limits = limits
        self.pool = pool
        self.cheap = Admission("cheap", limits.threads + limits.queue, retry_after=1)
        self.costly = Admission(
            "costly", limits.processes + limits.process_queue, math.ceil(limits.time_limit)
        )
        self._limiters: dict[str, anyio.CapacityLimiter] = {}  # made inside the event loop

    def _limiter(self, lane: str) -> anyio.CapacityLimiter:
        if not self._limiters:
            self._limiters["cheap"] = anyio.CapacityLimiter(self.limits.threads)
            self._limiters["costly"] = anyio.CapacityLimiter(self.limits.processes)
        return self._limiters[lane]

    def cap(self, limit: int) -> int:
        """A page size within :attr:`Limits.max_page`."""
        return min(limit, self.limits.max_page)

    async def work(self, function: Callable[[], T]) -> T:
        """Run cheap work in a worker thread; past the time limit, a 503."""
        with self.cheap.admit():
            try:
                with anyio.fail_after(self.limits.time_limit):
                    return await anyio.to_thread.run_sync(
                        function, abandon_on_cancel=True, limiter=self._limiter("cheap")
                    )
            except TimeoutError as error:
                raise SolverLimitError(
                    f"the work took longer than {self.limits.time_limit:g} s "
                    "(the server's time limit)"
                ) from error

    async def offload(self, function: Callable[..., T], *arguments: Any) -> T:
        """Run ``function(*arguments)`` in a worker process, killed when its time is up."""
        with self.costly.admit():
            deadline = time.monotonic() + self.limits.time_limit
            abandoned = threading.Event()
            try:
                return await anyio.to_thread.run_sync(
                    self.pool.call, deadline, abandoned, function, *arguments,
                    abandon_on_cancel=True, limiter=self._limiter("costly"),
                )  # fmt: skip
            finally:
                abandoned.set()  # cancelled (the client went, the server stops): kill it

    async def play(self, game: str, function: Callable[..., T], *arguments: Any) -> T:
        """Run ``function(game, *arguments)`` in the lane of ``game``."""
        if game_entry(game).quick:
            return await self.work(functools.partial(function, game, *arguments))
        return await self.offload(function, game, *arguments)


# ---------------------------------------------------------------------- the work


Z3_LOCK = threading.Lock()  # Z3's default context is not safe to share between threads


@functools.cache
def _option_specs(name: str) -> tuple[OptionSpec, ...]:
    """The rule options game ``name`` reads, as the registry describes them.

    >>> [spec.name for spec in _option_specs("sevenyears")][:2]
    ['turmoil_end', 'conflict_end']
    """
    return game_entry(name).option_specs


def _options_key(options: Any, path: str) -> str:
    """Rule options as the key of :func:`_registered_game`: a JSON object's text, its
    names sorted, or ``null``."""
    try:
        return json.dumps(options if isinstance(options, dict) else None, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise InputError("rule options are JSON values", path=path) from error


@functools.lru_cache(maxsize=64)
def _registered_game(name: str, options_key: str) -> Any:
    """The game ``name`` with the options of ``options_key`` (kept: a game loads its
    data once); an option naming a file is refused (:data:`FILE_OPTIONS`)."""
    options = json.loads(options_key)
    if isinstance(options, dict):
        for spec in _option_specs(name):
            if (
                spec.allowed is None
                and spec.name in FILE_OPTIONS
                and options.get(spec.name) is not None
            ):
                raise InputError("a file cannot be named over HTTP: leave it out for the "
                                 "bundled one", path=f"options.{spec.name}",
                                 allowed=["null"])  # fmt: skip
    return load_game(name, options if isinstance(options, dict) else None)


def _game_state(name: str, raw: JsonObject) -> tuple[Any, Any]:
    """The game ``name`` (with the state's rule options) and the state, validated; a
    state of another game is refused at ``state.game``."""
    with reading_field("state"):
        named = raw.get("game")
        if named != name:
            raise InputError(f"a state of {named!r}, not of {name}", path="game",
                             allowed=[name])  # fmt: skip
        options = raw.get("options")
        if options is not None and not isinstance(options, dict):
            raise InputError("rule options are an object of names and values", path="options")
        game = _registered_game(name, _options_key(options, "options"))
        return game, game.state_from_json(raw)


def _read_move(game: Any, raw: JsonObject) -> Any:
    with reading_field("move"):
        return game.move_from_json(raw)


def page_of(view: Any, offset: int, limit: int) -> tuple[int, list[Any]]:
    """The count of ``view`` and its moves ``offset .. offset + limit - 1``."""
    count = int(view.count())
    end = min(count, offset + limit)
    if offset == 0:
        return count, list(itertools.islice(iter(view), end))
    return count, [view.nth(index) for index in range(offset, end)]


def _where(game: Any, state: Any) -> dict[str, Any]:
    """What every answer with a state says of it: the fields of :class:`StateResponse`."""
    return {
        "game": game.name,
        "state": state.to_json(),
        "to_move": state.to_move,
        "is_over": state.is_over,
        "result": game.result_of(state),
        "summary": game.summary(state),
    }


def _new(name: str, body: NewRequest) -> NewResponse:
    """The first decision of a seeded game with the body's rule options."""
    from legalis.solver.playout import first_decision

    with reading_field("options"):
        game = _registered_game(name, _options_key(body.options, "options"))
    state, opening = first_decision(game, body.seed)
    return NewResponse(opening=[game.move_to_json(move) for move in opening],
                       **_where(game, state))  # fmt: skip


def _replay(name: str, body: ReplayRequest) -> ReplayResponse:
    """The state a log's moves lead to, each move checked as it is applied."""
    from legalis.solver.gamelog import parse_log, replay

    parsed = parse_log(body.log.splitlines(), source="log")
    if parsed.header["game"] != name:
        raise InputError(f"a log of {clip(str(parsed.header['game']))}, not of {name}",
                         path="log", allowed=[name])  # fmt: skip
    with reading_field("log"):
        game = _registered_game(name, _options_key(parsed.header["options"], "options"))
    try:
        outcome = replay(game, parsed)
    except InputError as error:
        raise InputError(error.message, path=within("log", error.path),
                         allowed=error.allowed) from error  # fmt: skip
    return ReplayResponse(moves=outcome.moves, matches_log=outcome.matches_log,
                          **_where(game, outcome.final_state))  # fmt: skip


def _validate(name: str, body: StateRequest) -> ValidateResponse:
    game, state = _game_state(name, body.state)
    return ValidateResponse(ok=True, **_where(game, state))


def _moves(name: str, body: MovesRequest, limit: int) -> MovesResponse:
    from legalis.model.core.views import move_groups

    game, state = _game_state(name, body.state)
    view = state.legal_moves()
    try:
        count, moves = page_of(view, body.offset, limit)
    except SolverLimitError as error:
        if not state.is_chance:
            raise
        # a chance decision whose outcomes are not listed (a deck's orders): this
        # state never has a page, however long the wait
        raise InputError(f"{error}; chance draws one with POST bot-move",
                         path="state") from error  # fmt: skip
    listed = [ListedMove(move=game.move_to_json(move), description=game.describe_move(move),
                         group=game.move_group(move)) for move in moves]  # fmt: skip
    groups = None
    if body.groups:
        groups = [MoveGroupInfo(**group.to_json()) for group in move_groups(view, game.move_group)]
    return MovesResponse(game=name, to_move=state.to_move, count=count, offset=body.offset,
                         limit=limit, moves=listed, groups=groups)  # fmt: skip


def _check(name: str, body: MoveRequest) -> VerdictResponse:
    game, state = _game_state(name, body.state)
    move = _read_move(game, body.move)
    verdict = state.legal_moves().verdict(move)
    return VerdictResponse(move=game.move_to_json(move), description=game.describe_move(move),
                           legal=verdict.legal, reason=verdict.reason,
                           rule=verdict.rule)  # fmt: skip


def _apply(name: str, body: MoveRequest) -> AppliedResponse:
    game, state = _game_state(name, body.state)
    move = _read_move(game, body.move)
    described = game.describe_move(move)
    state.play(move)  # an illegal move raises with its rule
    return AppliedResponse(move=game.move_to_json(move), description=described,
                           **_where(game, state))  # fmt: skip


def _check_seat(game: Any, seat: str, by: str | None) -> None:
    """Refuse at ``seat`` a kind of seat the game has none of, or a ``nonplayer`` for
    the seat ``by`` (None: chance decides) that the game's options do not give the
    rules; the error lists the kinds that would move."""
    from legalis.solver.players import NONPLAYER, seat_kinds

    kinds = [kind for kind in seat_kinds(game) if kind != HUMAN]
    if seat not in kinds:
        raise InputError(f"{game.title} has no {seat!r} seat", path="seat", allowed=kinds)
    options = game.options.to_json()
    given = options.get(NONPLAYERS_OPTION)
    if seat == NONPLAYER and by is not None and given is not None and by not in given:
        raise InputError(f"the {by} are not a Non-player in this game (its option "
                         f"{NONPLAYERS_OPTION})", path="seat",
                         allowed=[kind for kind in kinds if kind != NONPLAYER])  # fmt: skip


def _bot_move(name: str, body: BotMoveRequest) -> BotMoveResponse:
    """The move the seat chooses (chance's, at a chance move) and the state after it."""
    from legalis.model.core.randomness import LoggedRandom
    from legalis.solver.players import automatic_player

    game, state = _game_state(name, body.state)
    if state.is_over:
        raise InputError("the game is over: no one is to move", path="state")
    by, rng = state.to_move, LoggedRandom(body.seed)
    _check_seat(game, body.seat, None if state.is_chance else by)
    if state.is_chance:
        move = state.sample_chance(rng)
    else:
        move = automatic_player(body.seat, game, by).choose(state, rng)
    described = game.describe_move(move)
    state.play(move)
    return BotMoveResponse(by=by, move=game.move_to_json(move), description=described,
                           **_where(game, state))  # fmt: skip


VERIFY_FIELDS = ("options", "rules", "strict")  # fields of the body a verifier names itself
DATA_NAMES = ("deck",)  # what a verifier may call the document it reads: ``data`` here


def _data_path(path: str | None) -> str:
    """A verifier's error path as a path of the request body.

    >>> _data_path("deck.card[2].number"), _data_path("events"), _data_path("options.x")
    ('data.card[2].number', 'data.events', 'options.x')
    """
    head = (path or "").split(".", 1)[0].split("[", 1)[0]
    if head in VERIFY_FIELDS:
        return str(path)
    if head in DATA_NAMES:
        return "data" + str(path)[len(head) :]
    return within("data", path)


def _board(name: str, body: BoardRequest) -> BoardResponse:
    from legalis.board import draw_state, draw_witness

    if (body.state is None) == (body.witness is None):
        raise InputError("give a state or a finding's witness to draw, one of the two",
                         path="state")  # fmt: skip
    if body.state is not None:
        game, state = _game_state(name, body.state)
        board = draw_state(game, state, viewer=body.viewer, layer=body.layer)
    else:
        if body.viewer is not None or body.layer is not None:
            raise InputError("a witness is drawn as it is: no viewer or layer",
                             path="viewer" if body.viewer is not None else "layer")  # fmt: skip
        with reading_field("witness"):
            board = draw_witness(name, dict(body.witness or {}), caption=body.caption)
    return BoardResponse.model_validate(board.to_json())


def _verify_data(body: VerifyRequest) -> JsonObject | None:
    """The data to verify: ``data``, or ``text`` read as TOML (an error names its line)."""
    if body.text is None:
        return body.data
    if body.data is not None:
        raise InputError("give the data as `data` or as `text`, not both", path="text")
    import tomllib

    try:
        return tomllib.loads(body.text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not TOML: {error}", path="text") from error


def _verify(name: str, body: VerifyRequest) -> VerifyResponse:
    check = verifier(name)
    given = VerifyInput(data=_verify_data(body), source=None, options=body.options,
                        rules=body.rules, strict=body.strict)  # fmt: skip
    try:
        with Z3_LOCK:
            report = check(given)
    except InputError as error:
        raise InputError(error.message, source=error.source, path=_data_path(error.path),
                         allowed=error.allowed) from error  # fmt: skip
    return VerifyResponse.model_validate({**report.to_json(), "ok": report.ok})


def _fixtures(name: str, per_rule: int, seed: int) -> FixturesResponse:
    make = fixture_maker(name)
    with Z3_LOCK:
        built = make(None, per_rule=per_rule, seed=seed)
    return FixturesResponse.model_validate(built)


@functools.cache
def _schemas() -> dict[str, JsonObject]:
    from legalis.schemas import schemas

    return schemas()


def _process_lane_modules() -> list[str]:
    """The modules of the games whose requests run in worker processes, for the
    processes to start with them imported (a LoD game's code takes half a second)."""
    return [
        type(_registered_game(name, "null")).__module__
        for name in games()
        if not game_entry(name).quick
    ]


def _game_info(name: str) -> GameInfo:
    """What ``GET /v1/games`` says of game ``name``."""
    from legalis.board import board_layers
    from legalis.solver.players import seat_kinds

    game = _registered_game(name, "null")
    extra = [capability for capability in CAPABILITIES if name in with_capability(capability)]
    documents = [f"{name}-game-state", f"{name}-move"]
    documents += [schema for capability in extra for schema in CAPABILITY_SCHEMAS[capability]]
    return GameInfo(
        name=name,
        title=game.title,
        players=list(game.players),
        seat_kinds=list(seat_kinds(game)),
        options=[OptionInfo(**spec.to_json()) for spec in _option_specs(name)],
        supports=[*PLAY, *extra],
        schemas=[document for document in documents if document in _schemas()],
        layers=list(board_layers(name)),
    )


@functools.cache
def _games() -> GamesResponse:
    return GamesResponse(version=API_VERSION, games=[_game_info(name) for name in games()])


# ---------------------------------------------------------------------- the application


def _registered(
    request: Request,
    game: Annotated[str, PathParameter(description="A registered game (GET /v1/games).",
                                       json_schema_extra={"enum": games()})],
) -> str:  # fmt: skip
    """The ``{game}`` of a path, refused (422 at ``game``, with the games) before the
    body is read when the registry does not know it or the server does not serve it."""
    game_entry(game)
    served: tuple[str, ...] = request.app.state.games
    if game not in served:
        raise InputError(f"{game} is not served here", path="game", allowed=served)
    return game


def _verified(
    game: Annotated[str, PathParameter(description="A game whose data can be verified.",
                                       json_schema_extra={"enum": with_capability("verify")})],
) -> str:  # fmt: skip
    verifier(game)
    return game


def _fixtured(
    game: Annotated[str, PathParameter(description="A game with edge-case fixtures.",
                                       json_schema_extra={"enum": with_capability("fixtures")})],
) -> str:  # fmt: skip
    fixture_maker(game)
    return game


RegisteredGame = Annotated[str, Depends(_registered)]
VerifiedGame = Annotated[str, Depends(_verified)]
FixturedGame = Annotated[str, Depends(_fixtured)]


def create_app(limits: Limits | None = None, games_served: Sequence[str] = ()) -> FastAPI:
    """The API application, held to ``limits`` (default :class:`Limits`), serving the
    games ``games_served`` (default: every registered game)."""
    from legalis.legacy_http import DeprecationHeaders, legacy_links, legacy_router

    bounds = limits or Limits()
    pool = WorkerPool(preload=_process_lane_modules)
    app = FastAPI(
        title="legalis",
        lifespan=_closing(pool),
        default_response_class=AsciiJSONResponse,
        version=API_VERSION,
        description=(
            "New games, legal moves, move checks, move application, automatic players, "
            "verification and edge-case fixtures for every registered game (GET /v1/games), "
            "one shape for all: POST /v1/{game}/new, validate, moves, check, apply, bot-move, "
            "verify, fixtures. Errors share one shape: {error, path, allowed, rule}."
        ),
    )
    lanes = Lanes(bounds, pool)
    app.state.limits = bounds
    app.state.pool = pool
    app.state.lanes = lanes
    app.state.games = tuple(game_entry(name).name for name in games_served) or tuple(games())
    app.add_middleware(BodyLimit, max_bytes=bounds.max_body_bytes, read_seconds=bounds.time_limit)
    app.add_middleware(DeprecationHeaders)  # outside the body limit: its refusals are marked too
    app.add_exception_handler(InputError, _input_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(IllegalMoveError, _illegal_move)
    app.add_exception_handler(SolverLimitError, _solver_limit)
    app.add_exception_handler(Overloaded, _overloaded)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    v1 = f"/{API_VERSION}"

    @app.get(f"{v1}/games", response_model=GamesResponse, tags=["games"])
    async def list_games() -> GamesResponse:
        """The games served: seats, rule options, endpoints and document schemas."""
        listed = _games()  # built once, then a lookup: no need to queue for a worker
        served = [info for info in listed.games if info.name in app.state.games]
        return GamesResponse(version=listed.version, games=served)

    @app.post(f"{v1}/{{game}}/new", response_model=NewResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def new(game: RegisteredGame, body: NewRequest) -> NewResponse:
        """A new game with these rule options: its first decision, after the seeded
        chance moves (the shuffle, the deck, the dice)."""
        return await lanes.play(game, _new, body)

    @app.post(f"{v1}/{{game}}/validate", response_model=ValidateResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def validate(game: RegisteredGame, body: StateRequest) -> ValidateResponse:
        """Validate a state; a bad field is a 422 with its path."""
        return await lanes.play(game, _validate, body)

    @app.post(f"{v1}/{{game}}/moves", response_model=MovesResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def moves(game: RegisteredGame, body: MovesRequest) -> MovesResponse:
        """The number of legal moves at a state and one page of them, described."""
        return await lanes.play(game, _moves, body, lanes.cap(body.limit))

    @app.post(f"{v1}/{{game}}/check", response_model=VerdictResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def check(game: RegisteredGame, body: MoveRequest) -> VerdictResponse:
        """Is this move legal here? The reason and the rule either way."""
        return await lanes.play(game, _check, body)

    @app.post(f"{v1}/{{game}}/apply", response_model=AppliedResponse,
              responses=error_answers(409, 413, 422, 503), tags=["play"])  # fmt: skip
    async def apply(game: RegisteredGame, body: MoveRequest) -> AppliedResponse:
        """The state after a move; an illegal move is a 409 naming the rule."""
        return await lanes.play(game, _apply, body)

    @app.post(f"{v1}/{{game}}/bot-move", response_model=BotMoveResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def bot_move(game: RegisteredGame, body: BotMoveRequest) -> BotMoveResponse:
        """The move an automatic seat (random, greedy, the game's own nonplayer) makes
        for the seat to move, or chance's at a chance move, and the state after it."""
        return await lanes.play(game, _bot_move, body)

    @app.post(f"{v1}/{{game}}/replay", response_model=ReplayResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def replay(game: RegisteredGame, body: ReplayRequest) -> ReplayResponse:
        """Re-apply every move of a logged game, checking each: the state it ends in."""
        return await lanes.play(game, _replay, body)

    @app.post(f"{v1}/{{game}}/board", response_model=BoardResponse,
              responses=error_answers(413, 422, 503), tags=["play"])  # fmt: skip
    async def board(game: RegisteredGame, body: BoardRequest) -> BoardResponse:
        """A state (or a finding's witness state) drawn as SVG, with where the game
        stands and what lies in each space in words."""
        return await lanes.play(game, _board, body)

    @app.post(f"{v1}/{{game}}/verify", response_model=VerifyResponse,
              responses=error_answers(413, 422, 503), tags=["verify"])  # fmt: skip
    async def verify(game: VerifiedGame, body: VerifyRequest) -> VerifyResponse:
        """Check the game's data (its deck, card list or catalogue) against its rules,
        and prove what the rules claim (Z3): the report, `ok` when no error is found."""
        return await lanes.offload(_verify, game, body)

    @app.post(f"{v1}/{{game}}/fixtures", response_model=FixturesResponse,
              responses=error_answers(413, 422, 503), tags=["verify"])  # fmt: skip
    async def fixtures(game: FixturedGame, body: FixturesRequest) -> FixturesResponse:
        """Edge-case states at each rule's boundary, with the legal moves expected there."""
        return await lanes.offload(_fixtures, game, body.per_rule, body.seed)

    @app.get(f"{v1}/schemas/{{name}}", responses=error_answers(422), tags=["games"])
    async def schema(
        name: Annotated[str, PathParameter(json_schema_extra={"enum": sorted(_schemas())})],
    ) -> JsonObject:
        """A JSON Schema (Draft 2020-12) of a document the API reads or writes."""
        published = _schemas()
        if name not in published:
            raise InputError(f"no schema {name!r}", path="name", allowed=sorted(published))
        return published[name]

    app.include_router(legacy_router(lanes))
    _serve_table(app)
    app.openapi = _documented(app, {**_links(), **legacy_links()})  # type: ignore[method-assign]
    return app


TABLE_FILES = Path(__file__).parent / "web"  # the browser table: static, no build step


def _serve_table(app: FastAPI) -> None:
    """The browser table at ``/``, its script and style under ``/table/``."""
    from fastapi.responses import FileResponse
    from fastapi.staticfiles import StaticFiles

    @app.get("/", include_in_schema=False)
    async def table() -> FileResponse:
        return FileResponse(TABLE_FILES / "index.html", media_type="text/html")

    app.mount("/table", StaticFiles(directory=TABLE_FILES), name="table")


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


def _unpublished(node: Any, components: dict[str, Any]) -> Any:
    """``node`` with every reference to a component that is not there (a game whose
    state or move schema is not published) replaced by any JSON object.

    >>> _unpublished({"anyOf": [{"$ref": COMPONENTS + "a"}, {"$ref": COMPONENTS + "b"}]},
    ...              {"a": {}})  # doctest: +NORMALIZE_WHITESPACE
    {'anyOf': [{'$ref': '#/components/schemas/a'},
               {'type': 'object', 'description': 'A b document (no schema is published).'}]}
    """
    if isinstance(node, list):
        return [_unpublished(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith(COMPONENTS):
        name = reference.removeprefix(COMPONENTS)
        if name not in components:
            return {"type": "object", "description": f"A {name} document (no schema is "
                    "published)."}  # fmt: skip
    return {key: _unpublished(value, components) for key, value in node.items()}


def link_to(path: str, body: JsonObject, description: str, **parameters: str) -> JsonObject:
    """An OpenAPI link to the POST operation at ``path``: its request body and path
    ``parameters`` as runtime expressions (``$response.body#/state``).

    >>> link_to("/v1/{game}/moves", {"offset": 0}, "Its moves.")["operationRef"]
    '#/paths/~1v1~1{game}~1moves/post'
    """
    reference = "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/post"
    link: JsonObject = {"operationRef": reference}
    if parameters:
        link["parameters"] = parameters
    link.update({
        "requestBody": body,
        "description": description,
        "x-schemathesis": {"merge_body": False},  # the body as given, nothing generated into it
    })  # fmt: skip
    return link


def _links() -> dict[str, dict[str, JsonObject]]:
    """OpenAPI links of each operation's answer, for stateful testing: a new state
    feeds the moves, a move listed feeds the check and the apply, the state an apply
    gives feeds the moves again; each of the same game (the request's path)."""
    play = f"/{API_VERSION}/{{game}}"
    same = {"path.game": "$request.path.game"}
    listed = {"state": "$request.body#/state", "move": "$response.body#/moves/0/move"}
    after = {"state": "$response.body#/state", "offset": 0}  # a first page: moves/0 is there
    return {
        f"{play}/new": {
            "Moves": link_to(f"{play}/moves", after, "The moves of the new state.", **same)
        },
        f"{play}/moves": {
            "Check": link_to(f"{play}/check", listed, "Check the first move listed.", **same),
            "Apply": link_to(f"{play}/apply", listed, "Apply the first move listed.", **same),
        },
        f"{play}/apply": {"Moves": link_to(f"{play}/moves", after, "The moves after it.", **same)},
    }


def _documented(
    app: FastAPI, links: dict[str, dict[str, JsonObject]]
) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` with the published JSON Schemas the fields refer to as
    components, and ``links`` between operations (by the path of the operation whose
    answer they follow)."""
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
        for path, found in links.items():
            document["paths"][path]["post"]["responses"]["200"]["links"] = found
        document.update(_unpublished(document, components))
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
GAMES_VARIABLE = "LEGALIS_SERVER_GAMES"


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
    served = json.loads(os.environ.get(GAMES_VARIABLE, "[]"))
    return create_app(Limits(**given), served)


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
    host: str = "127.0.0.1",
    port: int = 8080,
    limits: Limits | None = None,
    workers: int = 1,
    games: Sequence[str] = (),
) -> None:
    """Serve the API for ``games`` (default: every registered game) with uvicorn until
    SIGTERM or SIGINT; ``workers`` processes share the port (each with its own threads
    and worker processes), so the work can use every core. Within
    :data:`SHUTDOWN_SECONDS` of the signal, running requests are cut short and every
    process has stopped."""
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
        uvicorn.run(create_app(limits, games), **settings)
        return
    os.environ[LIMITS_VARIABLE] = json.dumps(dataclasses.asdict(limits or Limits()))
    os.environ[GAMES_VARIABLE] = json.dumps(list(games))
    uvicorn.run("legalis.server:app_from_environment", factory=True, workers=workers, **settings)


if __name__ == "__main__":  # python -m legalis.server [docs/openapi.json]
    write_openapi(sys.argv[1] if len(sys.argv) > 1 else "docs/openapi.json")
