"""Edge-case fixtures for the COIN games: states at the limits of section 5.

Each fixture is a state at a rule's boundary (``at``) or one step inside it
(``inside``), a card of the game's bundled sample deck, a side and an executing
Faction, and what the engine says there: how many legal executions there are,
a few of them with their effect (pieces, tracks, free actions, Momentum, and
which Faction makes each decision), and a few refused moves with the reason and
rule. Another engine runs them as a conformance suite (``docs/fixtures.md``);
:func:`check_fixture` and :func:`check_fixture_data` run them against this one.

Liberty or Death (``lod``) fixtures start from the 1775 scenario, Fire in the Lake
(``fitl``) ones from the Short scenario (:data:`SCENARIOS`). Stacking states and
the mix of pieces in a named source box are composed with Z3: the pieces moved are
a model of "so many pieces of these types, each drawn from where they are". The
other states are built deterministically. Every state passes
:meth:`~legalis.model.coin.state.CoinState.invariant_problems`, and the same seed
gives byte-identical files.

>>> manifest, fixtures = build_fixtures("fitl", per_rule=1)
>>> sorted(f["rule"] for f in fixtures) == sorted(RULES["fitl"])
True
>>> [p for f in fixtures for p in check_fixture_data(f, f["id"])]
[]
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     manifest = generate_fixtures("lod", folder, per_rule=1)
...     problems = [p for f in manifest.fixtures for p in check_fixture(f"{folder}/{f['file']}")]
>>> len(manifest.fixtures) == len(RULES["lod"]), problems
(True, [])
>>> "adjust" in manifest.coverage["effects"]["exercised"]
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import zip_longest
from pathlib import Path
from typing import Any

import jsonschema
from legalis.model.coin import effects as fx
from legalis.model.coin.deck import Card, Deck, bundled_deck
from legalis.model.coin.limits import cap, may_hold
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.schema import state_document_model
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.core.documents import read_document
from legalis.model.core.ir import Add, Eq, IntVar, Term
from legalis.model.core.records import field_default, union_members
from legalis.model.core.views import Verdict
from legalis.model.errors import InputError
from legalis.solver.event_documents import EventMoveDocument
from legalis.solver.events import (
    EventMove,
    EventMovesView,
    event_move_from_json,
    legal_event_moves,
)
from legalis.solver.z3backend import solutions
from legalis.verify.sequence_fixtures import (
    SEQUENCE_FORMAT,
    build_sequence_fixtures,
    check_sequence_fixture,
)
from legalis.verify.tasks import Mapper, in_process
from pydantic import BaseModel, ValidationError

__all__ = [
    "FIXTURE_FORMAT",
    "FIXTURE_GAMES",
    "FIXTURE_SCHEMA",
    "MANIFEST_SCHEMA",
    "RULES",
    "SCENARIOS",
    "UNCOVERED_RULES",
    "FixtureTask",
    "Manifest",
    "build_fixture",
    "build_fixtures",
    "check_fixture",
    "check_fixture_data",
    "check_manifest",
    "coverage",
    "generate_fixtures",
]

FIXTURE_FORMAT = "legalis-fixture/2"
DECK = "sample"
MAX_SAMPLES = 5

# The scenario each game's fixture states start from.
SCENARIOS: dict[str, str] = {"lod": "1775", "fitl": "short"}
FIXTURE_GAMES: tuple[str, ...] = tuple(SCENARIOS)

# The boundaries the generator knows, per game, each with the rule text it rests on.
RULES: dict[str, dict[str, str]] = {
    "lod": {
        "1.4.2 stacking": "no more than 2 Forts/Villages in a space; Events never break it (5.1.1)",
        "5.1.1 available": "Events place only Available pieces unless they name another source",
        "5.1.1 unavailable": "pieces placed from a named source (Unavailable), not from Available",
        "5.1.1 casualties": "pieces placed from a named source (Casualties), not from Available",
        "5.1.1 west indies": "pieces placed from a named source (the West Indies), not from "
        "Available",
        "5.1.1 replace": "a replacement that is not Available is a removal instead",
        "1.8 caps": "Events may not raise Resources beyond 50 or lower them below 0",
        "2.3.9 ToA": "no French pieces placed on the map before the Treaty of Alliance",
        "5.1 chooser": "a Faction the text names makes the selections, not the executing one",
        "5.1.2": "the currently played Event takes precedence over a lasting one it contradicts",
        "5.1.3 partial": "text that can be carried out only in part is carried out as far as "
        "it can",
        "5.1.4 precondition": "a Brilliant Stroke may have a precondition for play; written "
        "as the first condition of its text; unmet, the card may not be played at all",
        "5.3": "a free Command or Special Activity goes to its Faction at no Resource cost",
    },
    "fitl": {
        "1.4.2 stacking": "no more than 2 Bases in a Province or City; Events never break it "
        "(5.1.1)",
        "5.1.1 tunneled": "Events remove Tunneled Bases only where the text says so (1.4.4)",
        "5.1.1 north vietnam": "Events never put US or ARVN pieces into North Vietnam (1.4.2)",
        "1.8 caps": "Events may not raise Resources, Aid or Patronage beyond 75, nor the Trail "
        "beyond 4",
        "5.1.2": "the currently played Event takes precedence over a lasting one it contradicts",
        "5.4": "a Momentum Event lasts until the next Coup Reset; any number may be in force",
    },
}
# Rules of section 5 no fixture of this generator reaches, per game (listed in the
# coverage report).
UNCOVERED_RULES: dict[str, dict[str, str]] = {
    "lod": {
        "5.1.4 trump": "Brilliant Strokes trump other Event cards and the Faction order (2.3.8)",
    },
    "fitl": {
        "5.1 chooser": "another Faction makes the selections",
        "5.1.1 available": "Events place only Available pieces unless they name another source",
        "5.1.1 out of play": "pieces placed from Out of Play",
        "5.1.1 casualties": "pieces placed from Casualties",
        "5.1.1 replace": "a replacement that is not Available is a removal instead",
        "5.1.1 own tunnels": "a Faction may remove its own Tunneled Base to carry out the text",
        "5.1.3 partial": "text that can be carried out only in part",
        "5.1.4": "Pivotal Events and their preconditions",
        "5.3": "Capabilities",
        "5.5": "free Operations and Special Activities",
    },
}

_GAME: dict[str, Any] = {"enum": list(FIXTURE_GAMES)}
# The state and the moves are checked against the published state and move models
# (docs/schemas/<game>-state, coin-event-move) by check_fixture_data, not restated here.
_STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A state of the fixture's game: docs/schemas/<game>-state.schema.json.",
}
_MOVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An event move: docs/schemas/coin-event-move.schema.json.",
}
_NAMES: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
# One entry of a state's free_actions list, as CoinState.to_json() writes it.
_GRANT: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["faction", "action", "kind", "limited", "spaces", "pays_resources"],
    "properties": {
        "faction": {"type": "string"},
        "action": {"type": "string"},
        "kind": {"type": "string"},
        "limited": {"type": "boolean"},
        "spaces": {"oneOf": [{"type": "null"}, _NAMES]},
        "pays_resources": {"type": "boolean"},
        # how the text changes the action ("as if US", "without activation"), when it does
        "modifiers": {"type": "object"},
    },
}
_RULE_NAME: dict[str, Any] = {"type": "string", "minLength": 1}
_BOUNDARY: dict[str, Any] = {"enum": ["at", "inside"]}

FIXTURE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://legalis.invalid/schemas/fixture.json",
    "title": "A COIN edge-case fixture",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "format",
        "id",
        "game",
        "rule",
        "rule_text",
        "boundary",
        "description",
        "deck",
        "card",
        "title",
        "side",
        "faction",
        "state",
        "expected_count",
        "sample_legal",
        "sample_illegal",
    ],
    "properties": {
        "format": {"const": FIXTURE_FORMAT},
        "id": {"type": "string", "pattern": "^[a-z0-9_.-]+$"},
        "game": _GAME,
        "rule": _RULE_NAME,
        "rule_text": {"type": "string"},
        "boundary": _BOUNDARY,
        "description": {"type": "string", "minLength": 1},
        "deck": {"type": "string"},
        "card": {"type": "integer", "minimum": 1},
        "title": {"type": "string"},
        "side": {"enum": ["unshaded", "shaded"]},
        "faction": {"type": "string"},
        "state": _STATE_SCHEMA,
        "expected_count": {"type": "integer", "minimum": 0},
        "sample_legal": {
            "type": "array",
            "maxItems": MAX_SAMPLES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "move",
                    "pieces_changed",
                    "tracks_after",
                    "free_actions_after",
                    "momentum_after",
                    "deciders",
                ],
                "properties": {
                    "move": _MOVE_SCHEMA,
                    "pieces_changed": {
                        "type": "array",
                        "items": {
                            "type": "array",
                            "prefixItems": [
                                {"type": "string"},
                                {"type": "string"},
                                {"type": "string"},
                                {"type": "integer", "not": {"const": 0}},
                            ],
                            "minItems": 4,
                            "maxItems": 4,
                        },
                    },
                    "tracks_after": {
                        "type": "object",
                        "additionalProperties": {"type": "integer"},
                    },
                    "free_actions_after": {"type": "array", "items": _GRANT},
                    "momentum_after": {**_NAMES, "uniqueItems": True},
                    "deciders": {"type": "array", "items": {"type": "string", "minLength": 1}},
                },
            },
        },
        "sample_illegal": {
            "type": "array",
            "maxItems": MAX_SAMPLES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["move", "reason", "rule"],
                "properties": {
                    "move": _MOVE_SCHEMA,
                    "reason": {"type": "string"},
                    "rule": {"type": "string"},
                },
            },
        },
    },
}

MANIFEST_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://legalis.invalid/schemas/fixture-manifest.json",
    "title": "The index of a generated fixture set",
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "game", "deck", "scenario", "seed", "per_rule", "fixtures", "coverage"],
    "properties": {
        "format": {"const": FIXTURE_FORMAT},
        "game": _GAME,
        "deck": {"type": "string"},
        "scenario": {"type": "string"},
        "seed": {"type": "integer"},
        "per_rule": {"type": "integer", "minimum": 1},
        "fixtures": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "id",
                    "file",
                    "rule",
                    "boundary",
                    "card",
                    "side",
                    "faction",
                    "expected_count",
                ],
                "properties": {
                    "id": {"type": "string"},
                    "file": {"type": "string", "pattern": "^[a-z0-9_.-]+\\.json$"},
                    "rule": _RULE_NAME,
                    "boundary": _BOUNDARY,
                    "card": {"type": "integer"},
                    "side": {"enum": ["unshaded", "shaded"]},
                    "faction": {"type": "string"},
                    "expected_count": {"type": "integer", "minimum": 0},
                },
            },
        },
        # LoD: the Sequence of Play fixtures (verify/sequence_fixtures.py), one entry each
        "sequence": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "file", "rule", "boundary", "to_move", "expected_count"],
                "properties": {
                    "id": {"type": "string"},
                    "file": {"type": "string", "pattern": "^[a-z0-9_.-]+\\.json$"},
                    "rule": _RULE_NAME,
                    "boundary": _BOUNDARY,
                    "to_move": {"type": "string"},
                    "expected_count": {"type": "integer", "minimum": 0},
                },
            },
        },
        "coverage": {
            "type": "object",
            "required": ["rules", "effects"],
            "properties": {
                "rules": {
                    "type": "object",
                    "required": ["exercised", "not_exercised"],
                    "properties": {"exercised": _NAMES, "not_exercised": _NAMES},
                },
                "effects": {
                    "type": "object",
                    "required": ["exercised", "not_exercised"],
                    "properties": {"exercised": _NAMES, "not_exercised": _NAMES},
                },
            },
        },
    },
}


def _game(game: str) -> str:
    if game not in RULES:
        raise InputError(f"no edge-case fixtures for {game!r}", path="game", allowed=FIXTURE_GAMES)
    return game


@dataclass
class Manifest:
    """What :func:`build_fixtures` made: one entry per fixture (and its file name), one
    per Sequence of Play fixture (``sequence``, LoD), and coverage."""

    game: str
    seed: int
    per_rule: int
    fixtures: list[dict[str, Any]] = field(default_factory=list)
    coverage: dict[str, Any] = field(default_factory=dict)
    sequence: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FIXTURE_FORMAT,
            "game": self.game,
            "deck": f"{self.game}/{DECK}",
            "scenario": SCENARIOS[self.game],
            "seed": self.seed,
            "per_rule": self.per_rule,
            "fixtures": [dict(entry) for entry in self.fixtures],
            "sequence": [dict(entry) for entry in self.sequence],
            "coverage": self.coverage,
        }


Build = Callable[[CoinState, random.Random], None]


@dataclass(frozen=True)
class _Variant:
    """One fixture to build: the rule, the boundary, the card, and how to change the
    scenario's state (``build`` None: the scenario as set up)."""

    rule: str
    boundary: str
    card: int
    side: str
    faction: str
    description: str
    build: Build | None
    illegal: tuple[EventMove, ...] = ()


# ---------------------------------------------------------------------- building states


def _compose(
    state: CoinState, types: Iterable[str], total: int, src: str, dst: str, rng: random.Random
) -> None:
    """Move ``total`` pieces of ``types`` from ``src`` to ``dst``, the mix chosen by Z3.

    The unknowns are how many of each type move; the model must meet
    ``sum == total`` and take no more of a type than ``src`` holds (conservation,
    1.4.1). All models are listed (they are few) and the seeded generator picks one.
    """
    names = list(types)
    unknowns = [IntVar(name, 0, state.pieces(src, name)) for name in names]
    goal: Term = Eq(Add(*unknowns), total)
    models = solutions(goal, unknowns, limit=200)
    if not models:
        raise InputError(f"no way to move {total} of {', '.join(names)} to {dst}", path="state")
    ordered = sorted(tuple(int(model[name]) for name in names) for model in models)
    chosen = rng.choice(ordered)
    for name, n in zip(names, chosen, strict=True):
        if n:
            state.move_pieces(src, dst, name, n)


def _fill_stacking(state: CoinState, space: str, total: int, rng: random.Random) -> None:
    """Bring ``space`` to ``total`` stacking pieces from Available, of the types it may
    hold (1.4.2 side rules), the mix chosen by Z3."""
    rules = state.rules
    names = [
        piece.id
        for piece in rules.piece_types
        if piece.stacking and may_hold(state, piece.id, space)[0]
    ]
    _compose(state, names, total - state.stacking_count(space), "Available", space, rng)


def _stacking(space: str, total: int) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        _fill_stacking(state, space, total, rng)

    return build


def _restacked(space: str, total: int) -> Build:
    """The stacking pieces of ``space`` back to Available, then ``total`` chosen anew."""

    def build(state: CoinState, rng: random.Random) -> None:
        for piece in state.rules.piece_types:
            if not piece.stacking:
                continue
            for status in piece.statuses:
                n = state.pieces(space, piece.id, status)
                if n:
                    state.move_pieces(space, "Available", piece.id, n, status)
        _fill_stacking(state, space, total, rng)

    return build


def _composed(types: tuple[str, ...], total: int, src: str, dst: str) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        _compose(state, types, total, src, dst, rng)

    return build


def _park(state: CoinState, piece: str, keep: int, where: str) -> None:
    """Leave exactly ``keep`` pieces of a type Available, the rest moved to ``where``
    (or the surplus brought back from ``where``)."""
    surplus = state.available(piece) - keep
    if surplus > 0:
        state.move_pieces("Available", where, piece, surplus)
    elif surplus < 0:
        state.move_pieces(where, "Available", piece, -surplus)


def _available(piece: str, keep: int, where: str) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        _park(state, piece, keep, where)

    return build


def _unavailable(in_unavailable: int) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        # no British Regulars Available: a placement from Available could place none
        state.move_pieces("Available", "Casualties", "british_regular", 7)
        extra = state.pieces("Unavailable", "british_regular") - in_unavailable
        state.move_pieces("Unavailable", "Casualties", "british_regular", extra)

    return build


def _replace(tories: int) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        state.move_pieces("Available", "Pennsylvania", "militia", 2)
        _park(state, "tory", tories, "Unavailable")

    return build


def _tracks(**values: int) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        for track, value in values.items():
            state.set_track(track, value)

    return build


def _below_cap(steps: int, *tracks: str) -> Build:
    """Each track ``steps`` below its cap, as the game's data gives it (1.8)."""

    def build(state: CoinState, rng: random.Random) -> None:
        for track in tracks:
            state.set_track(track, cap(state, track)[1] - steps)

    return build


def _toa(played: bool) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        state.move_pieces("Unavailable", "Available", "french_regular", 4)
        state.set_flag("toa_played", played)

    return build


def _militia(**spaces: int) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        for space, n in spaces.items():
            state.move_pieces("Available", space.replace("_", " "), "militia", n)

    return build


def _placed(space: str, piece: str, n: int = 1, src: str = "Available") -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        state.move_pieces(src, space, piece, n)

    return build


def _left_in(piece: str, spaces: int) -> Build:
    """The pieces of a type stay in the first ``spaces`` map spaces holding any (map
    order); the rest go to Available."""

    def build(state: CoinState, rng: random.Random) -> None:
        holding = [s for s in state.rules.spaces if state.pieces(s, piece)]
        for space in holding[spaces:]:
            for status, n in state.holdings(space)[piece].items():
                state.move_pieces(space, "Available", piece, n, status)

    return build


def _momentum(*names: str) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        for name in names:
            state.add_momentum(name)

    return build


# the spaces where FitL card 10 (Tunnel Network Collapses) removes a Base
_BORDER = ("Tay Ninh", "The Fishhook", "The Parrot's Beak")


def _tunnels(untunneled: str | None) -> Build:
    """Every insurgent Base in the spaces of card 10 Tunneled, but in the space ``untunneled``."""

    def build(state: CoinState, rng: random.Random) -> None:
        for space in _BORDER:
            old, new = ("tunneled", "active") if space == untunneled else ("active", "tunneled")
            for piece in ("nva_base", "vc_base"):
                n = state.pieces(space, piece, old)
                if n:
                    state.flip(space, piece, n, old, new)

    return build


def _all(*builds: Build) -> Build:
    def build(state: CoinState, rng: random.Random) -> None:
        for step in builds:
            step(state, rng)

    return build


# A taking choice names the status it takes (5.1); pieces put on the map from
# Available start Underground.
_MILITIA_UG = "militia:underground"
_RANGER_UG = "ranger:underground"


def _atoms(*atoms: tuple[str, str, int]) -> tuple[tuple[str, str, int], ...]:
    return tuple(atoms)


def _move(card: int, side: str, faction: str, *steps: Any) -> EventMove:
    return EventMove(card, side, faction, tuple(steps))


_FORT_NYC = _move(23, "unshaded", "british", _atoms(("New York City", "british_fort", 1)))
_CASUALTY_FORTS = _all(
    _placed("New York", "british_fort"), _placed("South Carolina", "british_fort")
)
_LOD: tuple[_Variant, ...] = (
    _Variant("1.4.2 stacking", "at", 23, "unshaded", "british",
             "New York City already holds 2 Forts/Villages: the Fort goes only to an adjacent "
             "coastal Colony with room.", _stacking("New York City", 2), (_FORT_NYC,)),
    _Variant("1.4.2 stacking", "inside", 23, "unshaded", "british",
             "New York City holds 1 Fort/Village: one more still fits there.",
             _stacking("New York City", 1)),
    _Variant("1.4.2 stacking", "at", 7, "unshaded", "indians",
             "Quebec is full (2 Forts/Villages): Villages go only to other Reserves next to "
             "New York.", _stacking("Quebec", 2),
             (_move(7, "unshaded", "indians", _atoms(("Quebec", "village", 1))),)),
    _Variant("5.1.1 available", "at", 24, "shaded", "patriots",
             "No Militia Available: the Event places none (nothing else to do).",
             _available("militia", 0, "Pennsylvania"),
             (_move(24, "shaded", "patriots",
                    _atoms(("Georgia", "militia", 2), ("Virginia", "militia", 2))),)),
    _Variant("5.1.1 available", "inside", 24, "shaded", "patriots",
             "One Militia Available: it is placed in one of the 2 chosen Colonies.",
             _available("militia", 1, "Pennsylvania")),
    _Variant("5.1.1 unavailable", "at", 3, "unshaded", "british",
             "No British Regulars Available, exactly 3 in Unavailable: the text names "
             "Unavailable, so all 3 are placed.", _unavailable(3)),
    _Variant("5.1.1 unavailable", "inside", 3, "unshaded", "british",
             "No British Regulars Available, 2 in Unavailable: 2 of the 3 are placed (5.1.3).",
             _unavailable(2),
             (_move(3, "unshaded", "british", _atoms(("Boston", "british_regular", 3))),)),
    _Variant("5.1.1 casualties", "at", 4, "unshaded", "british",
             "The 1775 set-up has nothing in Casualties; here exactly 3 British Regulars and "
             "Tories are there (the mix chosen by Z3), and British Forts stand in New York and "
             "South Carolina. The text names Casualties: up to all 3 are placed in those "
             "Colonies, drawn from Casualties, never from Available.",
             _all(_CASUALTY_FORTS, _composed(("british_regular", "tory"), 3, "Available",
                                             "Casualties"))),
    _Variant("5.1.1 casualties", "inside", 4, "unshaded", "british",
             "Only 2 British Regulars and Tories in Casualties (the mix chosen by Z3; 1775 has "
             "none there), British Forts in New York and South Carolina: at most those 2 are "
             "placed, though more are Available, and placing 3 is refused (5.1.1).",
             _all(_CASUALTY_FORTS, _composed(("british_regular", "tory"), 2, "Available",
                                             "Casualties")),
             (_move(4, "unshaded", "british",
                    _atoms(("New York", "british_regular", 2), ("New York", "tory", 1))),)),
    _Variant("5.1.1 west indies", "at", 5, "unshaded", "british",
             "Exactly 2 British Regulars in the West Indies (1775 has none there): both are "
             "placed in one coastal City, drawn from the West Indies, not from Available.",
             _placed("West Indies", "british_regular", 2)),
    _Variant("5.1.1 west indies", "inside", 5, "unshaded", "british",
             "1 British Regular in the West Indies: it alone is placed (5.1.3), though 6 more "
             "are Available, and placing 2 is refused (5.1.1).",
             _placed("West Indies", "british_regular", 1),
             (_move(5, "unshaded", "british", _atoms(("Boston", "british_regular", 2))),)),
    _Variant("5.1.1 replace", "at", 6, "unshaded", "british",
             "No Tories Available: the Militia are removed, not replaced.", _replace(0)),
    _Variant("5.1.1 replace", "inside", 6, "unshaded", "british",
             "One Tory Available: one Militia is replaced, the other removed.", _replace(1)),
    _Variant("1.8 caps", "at", 8, "shaded", "patriots",
             "Patriot Resources at the cap (50) and British Resources at 0: neither moves.",
             _tracks(patriots_resources=50, british_resources=0)),
    _Variant("1.8 caps", "inside", 8, "shaded", "patriots",
             "Patriot Resources 49 and British 1: raised to 50 and lowered to 0, not past.",
             _tracks(patriots_resources=49, british_resources=1)),
    _Variant("2.3.9 ToA", "at", 10, "shaded", "french",
             "Treaty of Alliance not played: no French Regulars may be placed on the map, "
             "though 4 are Available.", _toa(False),
             (_move(10, "shaded", "french", _atoms(("Philadelphia", "french_regular", 2))),)),
    _Variant("2.3.9 ToA", "inside", 10, "shaded", "french",
             "Treaty of Alliance played: the French Regulars are placed in a City with "
             "Rebellion Control.", _toa(True)),
    _Variant("5.1 chooser", "at", 22, "unshaded", "british",
             "The British execute the Event but the text names the Patriots to choose; exactly "
             "2 Militia are on the map (Philadelphia and Massachusetts), so the Patriots' one "
             "selection takes both, and British Resources +2.", _left_in("militia", 2),
             (_move(22, "unshaded", "british", _atoms(("Philadelphia", _MILITIA_UG, 1))),)),
    _Variant("5.1 chooser", "inside", 22, "unshaded", "british",
             "3 Militia on the map (Philadelphia, Massachusetts, New York): the Patriots, not "
             "the executing British, choose which 2 are removed; removing 1 is refused.",
             _left_in("militia", 3),
             (_move(22, "unshaded", "british", _atoms(("New York", _MILITIA_UG, 1))),)),
    _Variant("5.1.2", "at", 18, "unshaded", "british",
             "\"The Rivers Freeze Early\" (card 17 shaded: British may not March) is in force, "
             "and card 18 grants the British a free March into a Colony adjacent to New York "
             "City: the current Event takes precedence, so the free March is granted, and the "
             "Momentum stays in force.", _momentum("The Rivers Freeze Early")),
    _Variant("5.1.2", "inside", 18, "unshaded", "british",
             "No Momentum in force: card 18 grants the same free March, contradicting nothing.",
             None),
    _Variant("5.1.3 partial", "at", 1, "unshaded", "british",
             "Only 1 Militia in New Jersey and none in Pennsylvania: the 1 is removed.",
             _militia(New_Jersey=1),
             (_move(1, "unshaded", "british", _atoms(("New Jersey", _MILITIA_UG, 2))),
              _move(1, "unshaded", "british"))),
    _Variant("5.1.3 partial", "inside", 1, "unshaded", "british",
             "2 Militia in New Jersey, 1 in Pennsylvania: the full text in New Jersey, or "
             "the 1 Militia in Pennsylvania.", _militia(New_Jersey=2, Pennsylvania=1),
             (_move(1, "unshaded", "british", _atoms(("Pennsylvania", _MILITIA_UG, 2))),)),
    _Variant("5.1.4 precondition", "at", 15, "unshaded", "patriots",
             "Continentals in exactly 2 spaces (Massachusetts, and New Jersey where one is "
             "placed): the Brilliant Stroke's precondition is just met, so the Patriots get a "
             "free Limited Battle in a space with Continentals and a free Partisans.",
             _placed("New Jersey", "continental")),
    _Variant("5.1.4 precondition", "inside", 15, "unshaded", "patriots",
             "Continentals in 1 space only (Massachusetts, as set up in 1775): the "
             "precondition is not met, so the card may not be played: no legal execution, "
             "and even the empty one is refused.", None, (_move(15, "unshaded", "patriots"),)),
    _Variant("5.3", "at", 18, "unshaded", "british",
             "British Resources 0: the free March of card 18 is granted to the British and "
             "costs nothing, so their Resources stay 0.", _tracks(british_resources=0)),
    _Variant("5.3", "inside", 18, "unshaded", "british",
             "British Resources 1: the free March is granted and their Resources stay 1.",
             _tracks(british_resources=1)),
    _Variant("5.3", "at", 20, "unshaded", "patriots",
             "The Patriots execute card 20, which gives another Faction, the Indians, a free "
             "Raid in up to 2 Colonies next to a Reserve with a Village (one is placed in the "
             "Northwest) and then a free Plunder; Indian Resources stay 0.",
             _placed("Northwest", "village")),
)  # fmt: skip

_FITL: tuple[_Variant, ...] = (
    _Variant("1.4.2 stacking", "at", 31, "unshaded", "us",
             "Pleiku-Darlac, a Highland Province with US Troops, holds 2 Bases (the mix chosen "
             "by Z3), as does Binh Dinh: of the Highland Provinces with US Troops only Khanh Hoa "
             "has room, so the one US Base placed goes there (5.1.3).",
             _restacked("Pleiku-Darlac", 2),
             (_move(31, "unshaded", "us",
                    _atoms(("Pleiku-Darlac", "us_base", 1), ("Khanh Hoa", "us_base", 1))),)),
    _Variant("1.4.2 stacking", "inside", 31, "unshaded", "us",
             "Pleiku-Darlac holds 1 Base (the mix chosen by Z3): a US Base still fits, so "
             "Pleiku-Darlac and Khanh Hoa get one each; Binh Dinh, with 2, gets none.",
             _restacked("Pleiku-Darlac", 1),
             (_move(31, "unshaded", "us",
                    _atoms(("Binh Dinh", "us_base", 1), ("Khanh Hoa", "us_base", 1))),)),
    _Variant("5.1.1 tunneled", "at", 10, "unshaded", "us",
             "The only insurgent Bases in Tay Ninh, The Fishhook and The Parrot's Beak are "
             "Tunneled (the Short scenario tunnels Tay Ninh's; the other two are tunneled "
             "here). The text says \"even if Tunneled\", so any one of them may be removed; a "
             "Base outside those spaces may not.", _tunnels(None),
             (_move(10, "unshaded", "us", _atoms(("Binh Dinh", "vc_base:active", 1))),)),
    _Variant("5.1.1 tunneled", "inside", 10, "unshaded", "us",
             "The NVA Base in The Parrot's Beak is untunneled, the other two Tunneled: any one "
             "of the three may still be removed.", _tunnels("The Parrot's Beak")),
    _Variant("5.1.1 north vietnam", "at", 9, "unshaded", "us",
             "The text names North Vietnam, Central Laos and Southern Laos, but US Irregulars "
             "may never be in North Vietnam: up to 2 go to Central or Southern Laos only, and "
             "a placement in North Vietnam is refused under 1.4.2.", None,
             (_move(9, "unshaded", "us", _atoms(("North Vietnam", "irregular", 2))),)),
    _Variant("5.1.1 north vietnam", "at", 32, "unshaded", "nva",
             "2 ARVN Rangers in Quang Tri-Thua Thien (brought from Out of Play): up to both "
             "move to Central Laos, never to North Vietnam, which the text also names; the NVA "
             "execute the Event and make both choices.",
             _placed("Quang Tri-Thua Thien", "ranger", 2, "Out of Play"),
             (_move(32, "unshaded", "nva", _atoms(("Quang Tri-Thua Thien", _RANGER_UG, 2)),
                    _atoms(("North Vietnam", "ranger", 2))),)),
    _Variant("1.8 caps", "at", 14, "unshaded", "us",
             "Aid and Patronage at their cap (75): Aid +12 and Patronage +3 leave both at 75.",
             _below_cap(0, "aid", "patronage")),
    _Variant("1.8 caps", "inside", 14, "unshaded", "us",
             "Aid and Patronage at 74: both rise to 75 and no further.",
             _below_cap(1, "aid", "patronage")),
    _Variant("1.8 caps", "at", 15, "shaded", "nva",
             "The Trail at its cap (4) and NVA Resources at theirs (75): Trail +2 and NVA "
             "Resources +9 change neither.", _below_cap(0, "trail", "nva_resources")),
    _Variant("5.1.2", "at", 7, "unshaded", "us",
             "\"Coastal Storm Season\" (card 5 shaded: US may not Air Lift) is in force, and "
             "card 7 grants the US a free Air Lift: the current Event takes precedence, so the "
             "Air Lift is granted and the Momentum stays in force.",
             _momentum("Coastal Storm Season")),
    _Variant("5.1.2", "inside", 7, "unshaded", "us",
             "No Momentum in force: card 7 grants the same free Air Lift, contradicting "
             "nothing.", None),
    _Variant("5.4", "at", 6, "unshaded", "us",
             "\"Coastal Storm Season\" is already in force: \"Rolling Interdiction\" joins it "
             "(any number of Momentum Events may be in force), and the Trail drops by 1.",
             _momentum("Coastal Storm Season")),
    _Variant("5.4", "inside", 6, "unshaded", "us",
             "No Momentum in force: \"Rolling Interdiction\" goes into force alone, and the "
             "Trail drops by 1.", None),
)  # fmt: skip

_VARIANTS: dict[str, tuple[_Variant, ...]] = {"lod": _LOD, "fitl": _FITL}


# ---------------------------------------------------------------------- samples


def _near_misses(move: EventMove, card: Card) -> Iterable[EventMove]:
    """Near misses of a legal move: one piece more, a step short or extra, the other side."""
    steps = move.steps
    if steps:
        yield move._replace(steps=steps[:-1])
    yield move._replace(steps=(*steps, 0))
    for index, step in enumerate(steps):
        if isinstance(step, int) or not step:
            continue
        space, piece, n = step[0]
        bumped = ((space, piece, n + 1), *step[1:])
        yield move._replace(steps=(*steps[:index], bumped, *steps[index + 1 :]))
    other_side = "shaded" if move.side == "unshaded" else "unshaded"
    if getattr(card, other_side) is not None:
        yield move._replace(side=other_side)


def _elsewhere(move: EventMove, spaces: Iterable[str]) -> Iterable[EventMove]:
    """The first atom of each piece step taken to another space."""
    steps = move.steps
    for index, step in enumerate(steps):
        if isinstance(step, int) or not step:
            continue
        space, piece, n = step[0]
        for other in spaces:
            if other != space:
                moved = ((other, piece, n), *step[1:])
                yield move._replace(steps=(*steps[:index], moved, *steps[index + 1 :]))


def _changes(before: CoinState, after: CoinState) -> list[list[Any]]:
    """``[location, piece type, status, change]`` for every count the move changed."""
    out: list[list[Any]] = []
    for location in before.rules.locations:
        old, new = before.holdings(location), after.holdings(location)
        for piece in sorted(set(old) | set(new)):
            was, now = old.get(piece, {}), new.get(piece, {})
            for status in sorted(set(was) | set(now)):
                delta = now.get(status, 0) - was.get(status, 0)
                if delta:
                    out.append([location, piece, status, delta])
    return out


def _sample_indices(count: int, rng: random.Random) -> list[int]:
    if count <= MAX_SAMPLES:
        return list(range(count))
    return sorted(rng.sample(range(count), MAX_SAMPLES))


def _effect(view: EventMovesView, state: CoinState, move: EventMove) -> dict[str, Any]:
    """What a legal move does, in the fields of a ``sample_legal`` entry."""
    after = view.apply(move)
    written = after.to_json()
    return {
        "pieces_changed": _changes(state, after),
        "tracks_after": written["tracks"],
        "free_actions_after": written["free_actions"],
        "momentum_after": written["momentum"],
        "deciders": view.deciders(move),
    }


def _legal_sample(view: EventMovesView, state: CoinState, move: EventMove) -> dict[str, Any]:
    return {"move": move.to_json(), **_effect(view, state, move)}


def _fixture_id(variant: _Variant, number: int) -> str:
    """``<rule number>-<rule words>-<boundary>-c<card>-<n>``, the words joined by ``_``;
    a bare rule number has no words."""
    rule_number, *words = variant.rule.lower().split()
    rule = "-".join([rule_number, "_".join(words)] if words else [rule_number])
    return f"{rule}-{variant.boundary}-c{variant.card}-{number}"


@cache
def _sample_deck(game: str) -> Deck:
    """The deck the fixtures play from, read once per process."""
    return bundled_deck(game, DECK)


@dataclass(frozen=True)
class FixtureTask:
    """One edge-case fixture to build, the unit of work :func:`build_fixtures` hands
    to its mapper: the ``variant``-th boundary of the game's list, as the ``number``-th
    fixture of its rule, from ``seed``."""

    game: str
    variant: int
    number: int
    seed: int


def build_fixture(task: FixtureTask) -> dict[str, Any]:
    """The fixture of one task, as its JSON document; the same task gives an equal
    document in any process.

    >>> fixture = build_fixture(FixtureTask("fitl", 0, 1, 0))
    >>> fixture["id"], fixture["expected_count"] > 0
    ('1.4.2-stacking-at-c31-1', True)
    """
    game = task.game
    variant = _VARIANTS[game][task.variant]
    card = _sample_deck(game).card(variant.card)
    fid = _fixture_id(variant, task.number)
    rng = random.Random(f"{task.seed}:{fid}")
    state = load_scenario(game, SCENARIOS[game])
    if variant.build is not None:
        variant.build(state, rng)
    problems = state.invariant_problems()
    if problems:  # a generator bug: every fixture state must be sound
        raise AssertionError(f"{game} {fid}: {problems[0]}")
    view = legal_event_moves(state, card, variant.side, variant.faction)
    count = view.count()
    legal = [view.nth(i) for i in _sample_indices(count, rng)]
    spaces = list(state.rules.spaces)
    misses = [m for move in legal for m in _near_misses(move, card)]
    elsewhere = [m for move in legal for m in _elsewhere(move, spaces)]
    rng.shuffle(misses)
    rng.shuffle(elsewhere)
    illegal: list[dict[str, Any]] = []
    seen: set[EventMove] = set()
    mixed = [m for pair in zip_longest(misses, elsewhere) for m in pair if m is not None]
    for move in (*variant.illegal, *mixed):
        if move in seen or len(illegal) >= MAX_SAMPLES:
            continue
        seen.add(move)
        verdict = view.explain(move)
        if not verdict.legal:
            illegal.append({"move": move.to_json(), "reason": verdict.reason, "rule": verdict.rule})
    return {
        "format": FIXTURE_FORMAT,
        "id": fid,
        "game": game,
        "rule": variant.rule,
        "rule_text": RULES[game][variant.rule],
        "boundary": variant.boundary,
        "description": variant.description,
        "deck": f"{game}/{DECK}",
        "card": card.number,
        "title": card.title,
        "side": variant.side,
        "faction": variant.faction,
        "state": state.to_json(),
        "expected_count": count,
        "sample_legal": [_legal_sample(view, state, move) for move in legal],
        "sample_illegal": illegal,
    }


# ---------------------------------------------------------------------- coverage


def _ops(effects: Iterable[Any]) -> Iterable[str]:
    for effect in effects:
        yield str(effect.op)
        if isinstance(effect, fx.When):
            yield from _ops((*effect.then, *effect.otherwise))
        elif isinstance(effect, fx.Choose):
            for option in effect.options:
                yield from _ops(option)


def _all_ops() -> list[str]:
    return sorted(str(field_default(member, "op")) for member in union_members(fx.Effect))


def coverage(manifest: Manifest | Mapping[str, Any]) -> dict[str, Any]:
    """Which rules and which effect forms (``op`` of the effect language) the fixture
    set exercises, and which none does.

    >>> report = coverage({"game": "lod", "fixtures": [
    ...     {"rule": "1.8 caps", "card": 8, "side": "shaded"}]})
    >>> report["rules"]["exercised"], report["effects"]["exercised"]
    (['1.8 caps'], ['adjust'])
    >>> "place" in report["effects"]["not_exercised"]
    True
    >>> coverage({"game": "fitl", "fixtures": [
    ...     {"rule": "5.4", "card": 6, "side": "unshaded"}]})["effects"]["exercised"]
    ['adjust', 'lasting']
    """
    raw = manifest.to_json() if isinstance(manifest, Manifest) else manifest
    game = _game(str(raw.get("game", "lod")))
    deck = _sample_deck(game)
    rules: set[str] = set()
    ops: set[str] = set()
    for entry in raw["fixtures"]:
        rules.add(str(entry["rule"]))
        ops.update(_ops(deck.card(int(entry["card"])).side(str(entry["side"])).effects))
    known = sorted(set(RULES[game]) | set(UNCOVERED_RULES[game]))
    return {
        "rules": {
            "exercised": sorted(rules),
            "not_exercised": [rule for rule in known if rule not in rules],
        },
        "effects": {
            "exercised": sorted(ops),
            "not_exercised": [op for op in _all_ops() if op not in ops],
        },
    }


# ---------------------------------------------------------------------- entry points


def _dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def build_fixtures(
    game: str, *, per_rule: int = 2, seed: int = 0, mapper: Mapper = in_process
) -> tuple[Manifest, list[dict[str, Any]]]:
    """Up to ``per_rule`` fixtures for each rule of ``RULES[game]``, in memory, with
    the manifest that indexes them (each entry names the file :func:`generate_fixtures`
    would write it to). For LoD, the Sequence of Play fixtures follow the event ones
    (up to ``per_rule`` per rule of ``SEQUENCE_RULES``), indexed under ``sequence``.

    The same ``seed`` gives equal fixtures, whatever the ``mapper`` that runs the
    tasks (one per fixture: :func:`build_fixture`, and for LoD
    :func:`~legalis.verify.sequence_fixtures.build_sequence_fixture`). Games other
    than those of :data:`FIXTURE_GAMES` are refused.

    >>> manifest, fixtures = build_fixtures("lod", per_rule=1, seed=5)
    >>> [f["id"] for f in fixtures][:2]
    ['1.4.2-stacking-at-c23-1', '5.1.1-available-at-c24-1']
    >>> manifest.fixtures[0]["file"], manifest.to_json()["scenario"]
    ('1.4.2-stacking-at-c23-1.json', '1775')
    >>> build_fixtures("eupop")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: game: no edge-case fixtures for 'eupop' (allowed: lod, fitl)
    """
    _game(game)
    if per_rule < 1:
        raise InputError("at least 1 fixture per rule", path="per_rule")
    manifest = Manifest(game=game, seed=seed, per_rule=per_rule)
    tasks: list[FixtureTask] = []
    taken: dict[str, int] = {}
    for index, variant in enumerate(_VARIANTS[game]):
        number = taken.get(variant.rule, 0) + 1
        if number > per_rule:
            continue
        taken[variant.rule] = number
        tasks.append(FixtureTask(game, index, number, seed))
    fixtures = list(mapper(build_fixture, tasks))
    for task, fixture in zip(tasks, fixtures, strict=True):
        variant = _VARIANTS[game][task.variant]
        manifest.fixtures.append({
            "id": fixture["id"], "file": f"{fixture['id']}.json", "rule": variant.rule,
            "boundary": variant.boundary, "card": variant.card, "side": variant.side,
            "faction": variant.faction, "expected_count": fixture["expected_count"],
        })  # fmt: skip
    manifest.coverage = coverage(manifest)
    if game == "lod":
        for fixture in build_sequence_fixtures(per_rule=per_rule, mapper=mapper):
            fixtures.append(fixture)
            manifest.sequence.append({
                "id": fixture["id"], "file": f"{fixture['id']}.json", "rule": fixture["rule"],
                "boundary": fixture["boundary"], "to_move": fixture["to_move"],
                "expected_count": fixture["expected_count"],
            })  # fmt: skip
    return manifest, fixtures


def generate_fixtures(
    game: str,
    out_dir: str | Path,
    *,
    per_rule: int = 2,
    seed: int = 0,
    mapper: Mapper = in_process,
) -> Manifest:
    """Write the fixtures of :func:`build_fixtures` and ``manifest.json`` into
    ``out_dir`` (created if missing). The same ``seed`` writes byte-identical files,
    whatever the ``mapper`` that builds the fixtures.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     manifest = generate_fixtures("fitl", folder, per_rule=1)
    ...     names = sorted(p.name for p in Path(folder).iterdir())
    >>> len(names) == len(manifest.fixtures) + 1, "5.4-at-c6-1.json" in names
    (True, True)
    """
    manifest, fixtures = build_fixtures(game, per_rule=per_rule, seed=seed, mapper=mapper)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for entry, fixture in zip([*manifest.fixtures, *manifest.sequence], fixtures, strict=True):
        (folder / entry["file"]).write_text(_dump(fixture), encoding="utf-8")
    (folder / "manifest.json").write_text(_dump(manifest.to_json()), encoding="utf-8")
    return manifest


def _schema_problems(raw: Any, schema: Mapping[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'.'.join(str(p) for p in error.absolute_path) or '(root)'}: {error.message}"
        for error in sorted(validator.iter_errors(raw), key=lambda e: list(e.absolute_path))
    ]


def _differences(where: str, found: Mapping[str, Any], sample: Mapping[str, Any]) -> list[str]:
    """Each effect of a legal move that differs from what the sample records."""
    return [
        f"{where}: {key.replace('_', ' ')} {found[key]}, expected {sample[key]}"
        for key in found
        if found[key] != sample[key]
    ]


def _document_problems(raw: Mapping[str, Any]) -> list[str]:
    """The fixture's state and moves against the published document models."""
    documents: list[tuple[str, type[BaseModel], Any]] = [
        ("state", state_document_model(raw["game"]), raw["state"])
    ]
    for group in ("sample_legal", "sample_illegal"):
        documents += [
            (f"{group}[{i}].move", EventMoveDocument, sample["move"])
            for i, sample in enumerate(raw[group])
        ]
    problems: list[str] = []
    for where, model, document in documents:
        try:
            model.model_validate(document)
        except ValidationError as error:
            first = error.errors()[0]
            inner = ".".join(str(part) for part in first["loc"])
            problems.append(
                f"{where}.{inner}: {first['msg']}" if inner else f"{where}: {first['msg']}"
            )
    return problems


def check_fixture_data(raw: dict[str, Any], source: str) -> list[str]:
    """Re-run the engine on one fixture (as JSON data); every expectation it breaks, as
    a sentence. ``source`` names the fixture in messages about its state.

    Checked: the fixture against :data:`FIXTURE_SCHEMA`, the state loads and is
    sound, the count of legal executions, every sample legal move is legal and has
    the recorded effect (pieces changed, tracks, free actions and Momentum after,
    the Faction deciding each step), and every sample illegal move is refused under
    the rule recorded.

    >>> _, fixtures = build_fixtures("lod", per_rule=1)
    >>> chooser = next(f for f in fixtures if f["rule"] == "5.1 chooser")
    >>> check_fixture_data(chooser, "chooser")
    []
    >>> chooser["sample_legal"][0]["deciders"] = ["british"]
    >>> check_fixture_data(chooser, "chooser")
    ["sample_legal[0]: deciders ['patriots'], expected ['british']"]

    A Sequence of Play fixture (``format`` ``legalis-sequence-fixture/1``) is checked
    by :func:`~legalis.verify.sequence_fixtures.check_sequence_fixture`.
    """
    if raw.get("format") == SEQUENCE_FORMAT:
        return check_sequence_fixture(raw, source)
    problems = _schema_problems(raw, FIXTURE_SCHEMA) or _document_problems(raw)
    if problems:
        return [f"schema: {problem}" for problem in problems]
    try:
        state = state_from_json(raw["state"], raw["game"], source=source)
    except InputError as error:
        return [f"state unsound: {error}"]
    problems = [f"state unsound: {problem}" for problem in state.invariant_problems()]
    try:
        card = bundled_deck(raw["game"], raw["deck"].split("/")[-1]).card(raw["card"])
        view = legal_event_moves(state, card, raw["side"], raw["faction"])
    except InputError as error:
        return [*problems, f"card: {error}"]
    count = view.count()
    if count != raw["expected_count"]:
        problems.append(f"count: the engine finds {count}, the fixture expects "
                        f"{raw['expected_count']}")  # fmt: skip
    for where, sample, move, verdict in _verdicts(view, raw, "sample_legal", problems):
        if not verdict.legal:
            problems.append(f"{where}: refused ({verdict.rule}): {verdict.reason}")
            continue
        problems.extend(_differences(where, _effect(view, state, move), sample))
    for where, sample, _, verdict in _verdicts(view, raw, "sample_illegal", problems):
        if verdict.legal:
            problems.append(f"{where}: accepted, expected refused under {sample['rule']}")
        elif verdict.rule != sample["rule"]:
            problems.append(f"{where}: refused under {verdict.rule}, expected {sample['rule']}")
    return problems


def _verdicts(
    view: EventMovesView, raw: Mapping[str, Any], group: str, problems: list[str]
) -> Iterator[tuple[str, Mapping[str, Any], EventMove, Verdict]]:
    """Each sample of ``group`` read and judged by ``view``; a move that cannot be
    read is a problem, and is passed over."""
    for index, sample in enumerate(raw[group]):
        where = f"{group}[{index}]"
        try:
            move = event_move_from_json(sample["move"], path=where)
        except InputError as error:
            problems.append(f"{where}: {error}")
            continue
        yield where, sample, move, view.explain(move)


def check_fixture(path: str | Path) -> list[str]:
    """Re-run the engine on one fixture file: :func:`check_fixture_data` on its JSON,
    or why the file cannot be read.

    >>> check_fixture("no-such-fixture.json")[0][:24]
    'cannot read the fixture:'
    """
    try:
        raw = read_document(path, "json")
    except InputError as error:
        return [f"cannot read the fixture: {error}"]
    if not isinstance(raw, dict):
        return ["schema: (root): a fixture is a JSON object"]
    return check_fixture_data(raw, str(path))


def check_manifest(path: str | Path) -> list[str]:
    """The manifest against :data:`MANIFEST_SCHEMA`, then every fixture it lists."""
    folder = Path(path).parent
    try:
        raw = read_document(path, "json")
    except InputError as error:
        return [f"cannot read the manifest: {error}"]
    problems = [f"manifest: {p}" for p in _schema_problems(raw, MANIFEST_SCHEMA)]
    if problems:
        return problems
    for entry in [*raw["fixtures"], *raw.get("sequence", [])]:
        problems.extend(f"{entry['file']}: {p}" for p in check_fixture(folder / entry["file"]))
    return problems
