"""The deprecated endpoints of the HTTP API: one family's questions in that family's
own shapes, kept for one release beside the generic ``/v1/{game}/...`` endpoints
that replace them.

- ``/v1/{lod|fitl}/event-moves``, ``event-check``, ``event-apply``: one side of one
  COIN event card executed by one Faction, in a state or a bundled scenario
  (successors: ``/v1/{game}/moves``, ``check``, ``apply``);
- ``/v1/{lod|fitl}/verify-deck``: a COIN deck verified (successor: ``/v1/{game}/verify``);
- ``/v1/eupop/effect-validate``, ``effect-moves``, ``effect-check``: an EU:PoP
  event-system state, and the choices of one effect (16.3) or symbol (16.5). These
  answered at ``/v1/eupop/validate``, ``moves`` and ``check`` before those paths
  became the generic endpoints of the game (successors: those paths);
- ``/v1/eupop/resolve``: an Event resolved (successor: ``/v1/eupop/apply``);
- ``/v1/eupop/deck``: a scenario's Event Deck prepared (successor: ``/v1/eupop/new``).

Every operation is marked deprecated in the OpenAPI document, and every answer,
an error too, carries ``Deprecation: true`` and a ``Link`` to its successor with
``rel="successor-version"`` (:class:`DeprecationHeaders`).

>>> successor("/v1/fitl/event-moves")
'/v1/fitl/moves'
>>> successor("/v1/sevenyears/moves") is None
True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from legalis.model.core.options import settable
from legalis.model.errors import InputError
from legalis.model.eupop.arguments import MAX_AMOUNT
from legalis.model.eupop.deck import DeckOptions
from legalis.model.eupop.play import PlayOptions
from legalis.model.eupop.state import SMALL_STATE
from legalis.server import (
    API_VERSION,
    Z3_LOCK,
    JsonObject,
    Lanes,
    RequestBody,
    Whole,
    error_answers,
    link_to,
    page_of,
    published,
    reading_field,
    within,
)
from legalis.solver.eupop_play import EFFECTS
from legalis.solver.event_documents import EventMoveDocument

__all__ = ["DeprecationHeaders", "legacy_links", "legacy_router", "successor"]

COIN_GAMES = ("lod", "fitl")
CoinGame = Literal["lod", "fitl"]
COIN_STATES = ("lod-state", "fitl-state")
V1 = f"/{API_VERSION}"

SUCCESSORS = {
    f"{V1}/{{game}}/event-moves": f"{V1}/{{game}}/moves",
    f"{V1}/{{game}}/event-check": f"{V1}/{{game}}/check",
    f"{V1}/{{game}}/event-apply": f"{V1}/{{game}}/apply",
    f"{V1}/{{game}}/verify-deck": f"{V1}/{{game}}/verify",
    f"{V1}/eupop/effect-validate": f"{V1}/eupop/validate",
    f"{V1}/eupop/effect-moves": f"{V1}/eupop/moves",
    f"{V1}/eupop/effect-check": f"{V1}/eupop/check",
    f"{V1}/eupop/resolve": f"{V1}/eupop/apply",
    f"{V1}/eupop/deck": f"{V1}/eupop/new",
}
"""Each deprecated path (a template) and the path that replaces it."""


def _pattern(template: str) -> re.Pattern[str]:
    """A path template as a pattern whose groups are its parameters (COIN games only)."""
    games = "|".join(COIN_GAMES)
    return re.compile("^" + template.replace("{game}", f"(?P<game>{games})") + "$")


_PATTERNS = [(_pattern(old), new) for old, new in SUCCESSORS.items()]


def successor(path: str) -> str | None:
    """The path that replaces the deprecated ``path``, or None when it is not deprecated."""
    for pattern, new in _PATTERNS:
        found = pattern.match(path)
        if found is not None:
            return new.format(**found.groupdict())
    return None


class DeprecationHeaders:
    """ASGI middleware: every answer to a deprecated path, an error or a refused body
    too, says ``Deprecation: true`` and links its successor."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        new = successor(scope["path"]) if scope["type"] == "http" else None
        if new is None:
            await self.app(scope, receive, send)
            return

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Deprecation"] = "true"
                headers["Link"] = f'<{new}>; rel="successor-version"'
            await send(message)

        await self.app(scope, receive, marked)


DEPRECATION_HEADERS = {
    "Deprecation": {
        "description": "Always `true`: this endpoint is deprecated.",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Link": {
        "description": 'The endpoint that replaces it, with rel="successor-version".',
        "schema": {"type": "string"},
    },
}


def _answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented answers of a deprecated operation: its errors, and the headers."""
    found = error_answers(*codes)
    found[200] = {"description": "Successful Response", "headers": DEPRECATION_HEADERS}
    return found


# ---------------------------------------------------------------------- COIN request and response


class EventRequest(RequestBody):
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


class DeckRequest(RequestBody):
    deck: JsonObject = Field(
        description="The deck TOML's content as a JSON object.",
        json_schema_extra=published("coin-deck"),
    )
    strict: bool = Field(
        default=False,
        description="Event text in a sentence form legalis does not read is an error "
        "(text.unread), not a warning.",
    )


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


class EuStateRequest(RequestBody):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"state": EU_EXAMPLE_STATE}]}
    )

    state: JsonObject = EuStateField


class EuEffectRequest(RequestBody):
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


class EuResolveRequest(RequestBody):
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


class EuDeckRequest(RequestBody):
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


class EuValidateResponse(BaseModel):
    ok: bool
    summary: JsonObject


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


# ---------------------------------------------------------------------- COIN work


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

    with reading_field("deck"):
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
    with reading_field("state"):
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


def _event_body(move: Any) -> EventMoveDocument:
    return EventMoveDocument.model_validate(move.to_json())


def _event_moves(game: str, body: EventMovesRequest, limit: int) -> EventMovesResponse:
    view = _event_view(game, body)
    count, moves = page_of(view, body.offset, limit)
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
    with Z3_LOCK:
        report = verify_coin(game, deck, strict=strict)
    return DeckReport.model_validate(report.to_json())


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

    with reading_field("state"):
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


def _eupop_moves(body: EuMovesRequest, limit: int) -> EuMovesResponse:
    from legalis.model.eupop.play import jsonable

    view, _ = _eupop_view(body)
    with _eupop_reading():
        count, moves = page_of(view, body.offset, limit)
    return EuMovesResponse(effect=body.effect, player=body.player, count=count,
                           offset=body.offset, limit=limit,
                           moves=[jsonable(move) for move in moves])  # fmt: skip


def _eupop_check(body: EuCheckRequest) -> EuVerdictResponse:
    from legalis.model.eupop.play import jsonable
    from legalis.solver.eupop_play import move_from_json, verdict_of

    view, kind = _eupop_view(body)
    with _eupop_reading():
        move = move_from_json(body.move, kind)
        verdict = verdict_of(view, move)
    return EuVerdictResponse(
        move=jsonable(move), legal=verdict.legal, reason=verdict.reason, rule=verdict.rule
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


# ---------------------------------------------------------------------- the router


def legacy_links() -> dict[str, dict[str, JsonObject]]:
    """OpenAPI links of the deprecated operations: an execution of an event listed
    feeds its check and its apply."""
    event = {
        name: f"$request.body#/{name}" for name in ("state", "scenario", "deck", "card")
    } | {"side": "$response.body#/side", "faction": "$response.body#/faction",
         "move": "$response.body#/moves/0"}  # fmt: skip
    coin = f"{V1}/{{game}}"
    return {
        f"{coin}/event-moves": {
            "Check": link_to(f"{coin}/event-check", event, "Check the first execution listed."),
            "Apply": link_to(f"{coin}/event-apply", event, "Apply the first execution listed."),
        },
    }


def legacy_router(lanes: Lanes) -> APIRouter:
    """The deprecated operations, their work run in ``lanes``."""
    router = APIRouter(deprecated=True)

    async def event_work(function: Any, game: str, body: EventRequest, *arguments: Any) -> Any:
        """A bundled scenario and deck are cheap (their views are kept); a state or a
        deck of the request's own may cost anything."""
        if body.state is None and body.deck is None:
            return await lanes.work(functools.partial(function, game, body, *arguments))
        return await lanes.offload(function, game, body, *arguments)

    @router.post(
        f"{V1}/{{game}}/event-moves",
        response_model=EventMovesResponse,
        responses=_answers(413, 422, 503),
        tags=["coin"],
    )
    async def event_moves(
        game: CoinGame,
        body: Annotated[EventMovesRequest, Body(openapi_examples=EVENT_MOVES_EXAMPLES)],
    ) -> EventMovesResponse:
        """Every legal way to execute an event: the count and one page."""
        result: EventMovesResponse = await event_work(
            _event_moves, game, body, lanes.cap(body.limit)
        )
        return result

    @router.post(
        f"{V1}/{{game}}/event-check",
        response_model=EventVerdictResponse,
        responses=_answers(413, 422, 503),
        tags=["coin"],
    )
    async def event_check(game: CoinGame, body: EventMoveRequest) -> EventVerdictResponse:
        """Is this execution of the event legal? The reason and the rule either way."""
        result: EventVerdictResponse = await event_work(_event_check, game, body)
        return result

    @router.post(
        f"{V1}/{{game}}/event-apply",
        response_model=EventApplyResponse,
        responses=_answers(409, 413, 422, 503),
        tags=["coin"],
    )
    async def event_apply(game: CoinGame, body: EventMoveRequest) -> EventApplyResponse:
        """The state after an execution of the event; an illegal one is a 409."""
        result: EventApplyResponse = await event_work(_event_apply, game, body)
        return result

    @router.post(
        f"{V1}/{{game}}/verify-deck",
        response_model=DeckReport,
        responses=_answers(413, 422, 503),
        tags=["coin"],
    )
    async def verify_deck(game: CoinGame, body: DeckRequest) -> DeckReport:
        """Check a deck's event text against the rules and prove the rule set (Z3)."""
        return await lanes.offload(_verify_deck, game, body.deck, body.strict)

    @router.post(
        f"{V1}/eupop/effect-validate",
        response_model=EuValidateResponse,
        responses=_answers(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_validate(body: EuStateRequest) -> EuValidateResponse:
        """Validate an EU:PoP event-system state; a bad field is a 422 with its path."""

        def run() -> EuValidateResponse:
            return EuValidateResponse(ok=True, summary=_eupop_summary(_eupop_state(body.state)))

        return await lanes.work(run)

    @router.post(
        f"{V1}/eupop/effect-moves",
        response_model=EuMovesResponse,
        responses=_answers(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_moves(body: EuMovesRequest) -> EuMovesResponse:
        """The legal choices of one effect (16.3) or symbol (16.5): the count and one page."""
        return await lanes.work(functools.partial(_eupop_moves, body, lanes.cap(body.limit)))

    @router.post(
        f"{V1}/eupop/effect-check",
        response_model=EuVerdictResponse,
        responses=_answers(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_check(body: EuCheckRequest) -> EuVerdictResponse:
        """Is this choice of the effect legal? The reason and the rule either way."""
        return await lanes.work(functools.partial(_eupop_check, body))

    @router.post(
        f"{V1}/eupop/resolve",
        response_model=EuResolveResponse,
        response_model_exclude_none=True,
        responses=_answers(409, 413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_resolve(body: EuResolveRequest) -> EuResolveResponse:
        """Resolve an Event (16.3, 16.5): all of it with `auto`, otherwise up to the first
        decision `choices` leaves open; a choice out of range is a 409 naming the rule."""
        return await lanes.work(functools.partial(_eupop_resolve, body, lanes.limits.max_page))

    @router.post(
        f"{V1}/eupop/deck",
        response_model=EuDeckResponse,
        responses=_answers(413, 422, 503),
        tags=["eupop"],
    )
    async def eupop_deck(body: EuDeckRequest) -> EuDeckResponse:
        """A bundled scenario's Event Deck prepared per Age (16), the first display
        (16.2) and the deck's problems (16.1)."""
        return await lanes.work(functools.partial(_eupop_deck, body))

    return router
