"""The HTTP API: legal moves, checks, applies and deck verification as JSON over HTTP.

Every endpoint lives under ``/v1``. States, moves and decks are the same JSON the
command line reads and writes. Errors have one shape, ``{"error": ..., "path": ...}``:

- 422: bad input (the ``path`` names the bad field of the request body);
- 409: an illegal move (``rule`` names the rule that refuses it);
- 413: a request body larger than :attr:`Limits.max_body_bytes`;
- 503: the work took longer than :attr:`Limits.time_limit`, or a solver gave up.

Solver work runs in worker threads, off the event loop, so a slow request never
holds up the others. Start a server with ``legalis serve`` or :func:`serve`;
:func:`create_app` gives the application itself (for tests, or another ASGI server).

>>> app = create_app(Limits(max_page=50))
>>> app.state.limits.max_page
50
>>> sorted(path for path in app.openapi()["paths"] if "sevenyears" in path)
['/v1/sevenyears/apply', '/v1/sevenyears/check', '/v1/sevenyears/moves', '/v1/sevenyears/validate']
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from legalis.model.errors import IllegalMoveError, InputError, SolverLimitError
from legalis.model.eupop.state import SMALL_STATE
from legalis.registry import game_entry, games, load_game
from legalis.solver.events import EventMoveDocument

API_VERSION = "v1"
COIN_GAMES = ("lod", "fitl")
CoinGame = Literal["lod", "fitl"]
Lane = Literal["moves", "solver"]
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """The bounds every request is held to.

    ``max_body_bytes``: larger bodies are refused with 413 before they are parsed;
    ``max_page``: the most moves one page lists (a larger ``limit`` is capped);
    ``time_limit``: seconds of solver work a request may take before a 503;
    ``threads``: worker threads for move work (validate, moves, check, apply);
    ``solver_threads``: worker threads for proofs and deck verification (Z3).

    Both kinds of work run off the event loop, each in its own threads, so a deck
    being verified never holds up a move query. Move work is CPU-bound Python:
    more threads add no speed under the GIL and make the slowest answers slower
    (``docs/benchmarks.md``: p99 at 50 clients 44-54 ms with one thread, 114 ms
    with 40).

    >>> Limits()
    Limits(max_body_bytes=1000000, max_page=1000, time_limit=10.0, threads=1, solver_threads=1)
    """

    max_body_bytes: int = 1_000_000
    max_page: int = 1000
    time_limit: float = 10.0
    threads: int = 1
    solver_threads: int = 1


# ---------------------------------------------------------------------- request and response


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


JsonObject = dict[str, Any]
StateField = Field(description="A Seven Years War state, as `legalis new` writes it.")
MoveField = Field(description='A move, e.g. {"type": "pass", "player": "british"}.')


class SevenYearsState(_Body):
    state: JsonObject = StateField


class SevenYearsMoves(_Body):
    state: JsonObject = StateField
    offset: int = Field(default=0, ge=0, description="Index of the first move of the page.")
    limit: int = Field(default=100, ge=0, description="Moves per page (capped by the server).")


class SevenYearsMove(_Body):
    state: JsonObject = StateField
    move: JsonObject = MoveField


class EventRequest(_Body):
    """One side of one event card executed by one Faction, in a state or a scenario."""

    state: JsonObject | None = Field(default=None, description="A COIN state (or give `scenario`).")
    scenario: str | None = Field(default=None, description="A bundled scenario, e.g. 1776 (LoD).")
    card: int = Field(description="The event card's number.")
    side: str | None = Field(
        None, description="unshaded or shaded; a one-sided card needs none (5.2)."
    )
    faction: str = Field(description="The executing Faction, e.g. british.")
    deck: JsonObject | None = Field(
        None, description="A deck (the deck TOML's content as JSON); default: the sample deck."
    )


class EventMovesRequest(EventRequest):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "scenario": "1776",
                    "card": 24,
                    "side": "unshaded",
                    "faction": "british",
                    "limit": 20,
                }
            ]
        },
    )

    offset: int = Field(default=0, ge=0, description="Index of the first move of the page.")
    limit: int = Field(default=100, ge=0, description="Moves per page (capped by the server).")


class EventMoveRequest(EventRequest):
    move: JsonObject = Field(
        description='An execution: {"card", "side", "faction", "steps": [...]}.'
    )


class FixturesRequest(_Body):
    per_rule: int = Field(default=1, ge=1, le=3, description="Fixtures per rule (1-3).")
    seed: int = Field(default=0, ge=0, description="The same seed gives the same fixtures.")


class FixturesResponse(BaseModel):
    manifest: JsonObject = Field(description="As manifest.json: docs/schemas/fixture-manifest.")
    fixtures: list[JsonObject] = Field(description="Each as a fixture file: docs/schemas/fixture.")


class DeckRequest(_Body):
    deck: JsonObject = Field(description="The deck TOML's content as a JSON object.")


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
    moves: list[JsonObject]


class VerdictResponse(BaseModel):
    move: JsonObject = Field(description="The move as read, in its canonical form.")
    legal: bool
    reason: str
    rule: str


class SevenYearsApplyResponse(BaseModel):
    state: JsonObject
    summary: JsonObject


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
    state: JsonObject


class DeckReport(BaseModel):
    game: str
    ok: bool
    rule_set: JsonObject
    findings: list[JsonObject]


# ---------------------------------------------------------------------- EU:PoP request and response

EuStateField = Field(
    description="An EU:PoP event-system state (docs/schemas/eupop-state.schema.json)."
)
EU_NAMES = 64  # the most names one list of an effect's parameters may hold
EU_AMOUNT = 20  # the largest amount of Influence or Units an effect is asked about
EU_EXAMPLE_STATE: JsonObject = SMALL_STATE


def _names_field(what: str) -> Any:
    return Field(default_factory=list, max_length=EU_NAMES, description=what)


class EuStateRequest(_Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"state": EU_EXAMPLE_STATE}]}
    )

    state: JsonObject = EuStateField


class EuEffectRequest(_Body):
    """One effect (16.3) or symbol (16.5) and its parameters, as `legalis moves --game
    eupop` takes them."""

    state: JsonObject = EuStateField
    effect: str = Field(description="A 16.3 effect or 16.5 symbol, e.g. influence, g, units.")
    player: str | None = Field(default=None, description="The player who gains or decides.")
    amount: int | None = Field(
        default=None, ge=1, le=EU_AMOUNT, description="Influence or Units to place."
    )
    areas: list[str] = _names_field("The Areas the effect names.")
    targets: list[str] = _names_field("The Realms the effect names (Alliance, Marriage).")
    provinces: list[str] = _names_field("The Provinces the effect names (town).")
    places: list[str] = _names_field("Where Units may be placed.")
    vassal: bool = Field(default=False, description="Town: a v (Vassal's town), not a t.")
    ships: bool = Field(default=False, description="Units: Ships, not Land Units.")
    colour: str | None = Field(default=None, description="DNPR Expansion: the token colour.")


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

    offset: int = Field(default=0, ge=0, description="Index of the first choice of the page.")
    limit: int = Field(default=100, ge=0, description="Choices per page (capped by the server).")


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
            "examples": [{"state": EU_EXAMPLE_STATE, "event": "354B", "choices": [1]}]
        },
    )

    state: JsonObject = EuStateField
    event: str = Field(description="The Event id in the bundled catalogue, e.g. 354B.")
    auto: bool = Field(
        default=False, description="Resolve it all by the defaults and the 16.5 auto rules."
    )
    seed: int = Field(default=0, ge=0, description="The same seed gives the same resolution.")
    choices: list[int] = Field(
        default_factory=list,
        max_length=1000,
        description="The N-th legal choice (from 1) at each decision, in order.",
    )


class EuDeckRequest(_Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"scenario": "three_crowns", "seed": 1}]},
    )

    scenario: str = Field(default="three_crowns", description="A bundled scenario's name.")
    seed: int = Field(default=0, ge=0, description="The same seed gives the same decks.")
    players: int | None = Field(
        default=None, ge=1, le=6, description="Number of players (default: the scenario's Realms)."
    )
    randomize_x: bool = Field(default=False, description="Optional Rule 6: deal the X-events.")


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
    meanings = {
        409: "An illegal move, with the rule that refuses it.",
        413: "The request body is too large.",
        422: "Bad input; `path` names the bad field.",
        503: "The work took too long, or a solver gave up.",
    }
    return {code: {"model": ErrorBody, "description": meanings[code]} for code in codes}


# ---------------------------------------------------------------------- errors


def error_path(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """A pydantic error location as a field path of the request body.

    >>> error_path(("body", "move", "steps", 0))
    'move.steps[0]'
    >>> error_path(("path", "game"))
    'game'
    >>> error_path(("body",))
    'body'
    """
    parts = list(loc[1:] if len(loc) > 1 and loc[0] in ("body", "path", "query") else loc)
    text = ""
    for part in parts:
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
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status)


async def _input_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, InputError)
    message = f"{error.source}: {error.message}" if error.source else error.message
    return _error(422, ErrorBody(error=message, path=error.path, allowed=error.allowed))


async def _validation_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = list(error.errors())
    first = problems[0] if problems else {"loc": ("body",), "msg": "invalid request"}
    return _error(422, ErrorBody(error=str(first["msg"]), path=error_path(tuple(first["loc"]))))


async def _illegal_move(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, IllegalMoveError)
    return _error(409, ErrorBody(error=f"illegal move: {error.reason}", rule=error.rule))


async def _solver_limit(_: Request, error: Exception) -> JSONResponse:
    return _error(503, ErrorBody(error=f"solver limit: {error}"))


class BodyLimit:
    """ASGI middleware: a body over ``max_bytes`` gets 413 before anything parses it.

    A body is counted as it arrives and refused as soon as it passes the limit;
    the rest is read and dropped (never kept), so the client, still sending, can
    read the answer. A declared ``Content-Length`` past ``drain_bytes`` is refused
    at once and the connection closed.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, drain_bytes: int = 64 << 20) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.drain_bytes = max(drain_bytes, max_bytes)

    async def _too_large(self, send: Send) -> None:
        body = ErrorBody(error=f"the request body is over {self.max_bytes} bytes", path="body")
        response = _error(413, body)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [*response.raw_headers, (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": response.body})

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
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# ---------------------------------------------------------------------- the work


_Z3_LOCK = threading.Lock()  # Z3's default context is not safe to share between threads


@functools.lru_cache(maxsize=64)
def _sevenyears_game(options_key: str) -> Any:
    options = json.loads(options_key)
    return load_game("sevenyears", options if isinstance(options, dict) else None)


def _sevenyears_state(raw: JsonObject) -> tuple[Any, Any]:
    """The game (with the state's rule options) and the state, validated."""
    with _reading("state"):
        options = raw.get("options")
        try:
            key = json.dumps(options if isinstance(options, dict) else None, sort_keys=True)
        except (TypeError, ValueError) as error:
            raise InputError("rule options are JSON values", path="options") from error
        game = _sevenyears_game(key)
        return game, game.state_from_json(raw)


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
    from legalis.model.coin.deck import deck_from_toml

    with _reading("deck"):
        deck = deck_from_toml(raw)
    if deck.game != game:
        raise InputError(f"a {deck.game} deck, not {game}", path="deck.game", allowed=[game])
    return deck


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
    side = body.side
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


def _verify_deck(game: str, raw: JsonObject) -> DeckReport:
    from legalis.verify.coin import verify_coin

    deck = _coin_deck(game, raw)
    with _Z3_LOCK:
        report = verify_coin(game, deck)
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
    option (``--areas``) is the field of that name, anything else a field of the state."""
    try:
        yield
    except InputError as error:
        path = error.path or ""
        if path.startswith("--"):
            path = _EU_FIELDS.get(path[2:], path[2:])
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
        )


@functools.cache
def _eupop_catalogue() -> Any:
    from legalis.model.eupop.events import load_catalogue

    return load_catalogue()  # read once; never changed


def _eupop_resolve(body: EuResolveRequest, page: int) -> EuResolveResponse:
    from legalis.solver.eupop_play import resolve

    state = _eupop_state(body.state)
    event = _eupop_catalogue().event(body.event, path="event")
    with _eupop_reading():
        outcome = resolve(
            state, event.effects, event.symbols, auto=body.auto, choices=body.choices,
            seed=body.seed,
        )  # fmt: skip
    return EuResolveResponse.model_validate(
        {"event": body.event, "seed": body.seed, **outcome.to_json(page)}
    )


def _eupop_deck(body: EuDeckRequest) -> EuDeckResponse:
    from legalis.model.eupop.deck import deck_document, load_scenario, scenario_names

    names = scenario_names()
    if body.scenario not in names:  # a bundled scenario only: never a file of the server's
        raise InputError(f"no scenario {body.scenario!r}", path="scenario", allowed=names)
    document, _ = deck_document(
        load_scenario(body.scenario), _eupop_catalogue(), body.seed,
        randomize_x=body.randomize_x, players=body.players,
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
    ]
    titles = {"lod": "Liberty or Death", "fitl": "Fire in the Lake"}
    listed += [
        GameInfo(
            name=name,
            title=titles[name],
            supports=["event-moves", "event-check", "event-apply", "verify-deck", "fixtures"],
            scenarios=scenario_names(name),
            schemas=[
                f"{name}-state",
                "coin-event-move",
                "coin-deck",
                "coin-deck-report",
                "finding",
                "fixture",
                "fixture-manifest",
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
    app = FastAPI(
        title="legalis",
        version=API_VERSION,
        description=(
            "Legal moves, move checks, move application and deck verification for "
            "The Seven Years War, Liberty or Death, Fire in the Lake and the event system "
            "of Europa Universalis: The Price of Power. Errors share one "
            "shape: {error, path, allowed, rule}."
        ),
    )
    app.state.limits = bounds
    app.add_middleware(BodyLimit, max_bytes=bounds.max_body_bytes)
    app.add_exception_handler(InputError, _input_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(IllegalMoveError, _illegal_move)
    app.add_exception_handler(SolverLimitError, _solver_limit)

    lanes: dict[Lane, anyio.CapacityLimiter] = {}  # made on first use, inside the event loop

    async def work(function: Callable[[], T], lane: Lane = "moves") -> T:
        """Run ``function`` in a worker thread of ``lane``; past the time limit, a 503."""
        if not lanes:
            lanes["moves"] = anyio.CapacityLimiter(bounds.threads)
            lanes["solver"] = anyio.CapacityLimiter(bounds.solver_threads)
        try:
            with anyio.fail_after(bounds.time_limit):
                return await anyio.to_thread.run_sync(
                    function, abandon_on_cancel=True, limiter=lanes[lane]
                )
        except TimeoutError as error:
            raise SolverLimitError(
                f"the work took longer than {bounds.time_limit:g} s (the server's time limit)"
            ) from error

    def cap(limit: int) -> int:
        return min(limit, bounds.max_page)

    @app.get(f"/{API_VERSION}/games", response_model=GamesResponse, tags=["games"])
    async def list_games() -> GamesResponse:
        """The games served, and what the API does for each."""
        return _games()  # built once, then a lookup: no need to queue for a worker

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

    @app.post(
        f"/{API_VERSION}/{{game}}/event-moves",
        response_model=EventMovesResponse,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def event_moves(game: CoinGame, body: EventMovesRequest) -> EventMovesResponse:
        """Every legal way to execute an event: the count and one page."""

        def run() -> EventMovesResponse:
            view = _event_view(game, body)
            limit = cap(body.limit)
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

        return await work(run)

    @app.post(
        f"/{API_VERSION}/{{game}}/event-check",
        response_model=EventVerdictResponse,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def event_check(game: CoinGame, body: EventMoveRequest) -> EventVerdictResponse:
        """Is this execution of the event legal? The reason and the rule either way."""
        from legalis.solver.events import event_move_from_json

        def run() -> EventVerdictResponse:
            view = _event_view(game, body)
            move = event_move_from_json(body.move, path="move")
            verdict = view.explain(move)
            return EventVerdictResponse(
                move=_event_body(move),
                legal=verdict.legal,
                reason=verdict.reason,
                rule=verdict.rule,
            )

        return await work(run)

    @app.post(
        f"/{API_VERSION}/{{game}}/event-apply",
        response_model=EventApplyResponse,
        responses=_errors(409, 413, 422, 503),
        tags=["coin"],
    )
    async def event_apply(game: CoinGame, body: EventMoveRequest) -> EventApplyResponse:
        """The state after an execution of the event; an illegal one is a 409."""
        from legalis.solver.events import event_move_from_json

        def run() -> EventApplyResponse:
            view = _event_view(game, body)
            move = event_move_from_json(body.move, path="move")
            return EventApplyResponse(state=view.apply(move).to_json())

        return await work(run)

    @app.post(
        f"/{API_VERSION}/{{game}}/verify-deck",
        response_model=DeckReport,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def verify_deck(game: CoinGame, body: DeckRequest) -> DeckReport:
        """Check a deck's event text against the rules and prove the rule set (Z3)."""
        return await work(lambda: _verify_deck(game, body.deck), "solver")

    @app.post(
        f"/{API_VERSION}/{{game}}/fixtures",
        response_model=FixturesResponse,
        responses=_errors(413, 422, 503),
        tags=["coin"],
    )
    async def fixtures(game: CoinGame, body: FixturesRequest) -> FixturesResponse:
        """Edge-case states at each rule's boundary, with the legal moves expected there."""
        return await work(lambda: _fixtures(game, body.per_rule, body.seed), "solver")

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
    async def schema(name: str) -> JsonObject:
        """A JSON Schema (Draft 2020-12) of a document the API reads or writes."""
        published = _schemas()
        if name not in published:
            raise InputError(f"no schema {name!r}", path="name", allowed=sorted(published))
        return published[name]

    return app


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


def serve(
    host: str = "127.0.0.1", port: int = 8080, limits: Limits | None = None, workers: int = 1
) -> None:
    """Serve the API with uvicorn until interrupted; ``workers`` processes share the
    port (each with its own threads), so the work can use every core."""
    import uvicorn

    settings: dict[str, Any] = {"host": host, "port": port, "log_level": "info"}
    if workers == 1:
        uvicorn.run(create_app(limits), access_log=False, **settings)
        return
    os.environ[LIMITS_VARIABLE] = json.dumps(dataclasses.asdict(limits or Limits()))
    uvicorn.run(
        "legalis.server:app_from_environment",
        factory=True,
        workers=workers,
        access_log=False,
        **settings,
    )


if __name__ == "__main__":  # python -m legalis.server [docs/openapi.json]
    write_openapi(sys.argv[1] if len(sys.argv) > 1 else "docs/openapi.json")
