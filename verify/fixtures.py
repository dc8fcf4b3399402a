"""Edge-case fixtures for Liberty or Death: states at the limits of section 5.1.

Each fixture is a state at a rule's boundary (``at``) or one step inside it
(``inside``), a card of the bundled sample deck, a side and an executing
Faction, and what the engine says there: how many legal executions there are,
a few of them, and a few refused moves with the reason and rule. Another engine
runs them as a conformance suite (``docs/fixtures.md``); :func:`check_fixture`
runs them against this one.

Stacking states are composed with Z3: the pieces already in the target space are
a model of "stacking pieces there == 2 (or 1), each drawn from Available". The
other states are built deterministically from the 1775 scenario. Every state
passes :meth:`~legalis.model.coin.state.CoinState.invariant_problems`, and the
same seed gives byte-identical files.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     manifest = generate_fixtures("lod", folder, per_rule=1)
...     problems = [p for f in manifest.fixtures for p in check_fixture(f"{folder}/{f['file']}")]
>>> len(manifest.fixtures) == len(RULES), problems
(True, [])
>>> "adjust" in manifest.coverage["effects"]["exercised"]
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

import jsonschema
from legalis.model.coin import effects as fx
from legalis.model.coin.deck import Card, bundled_deck
from legalis.model.coin.limits import may_hold
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.core.ir import Add, Eq, IntVar, Term
from legalis.model.errors import InputError
from legalis.solver.events import (
    EventMove,
    EventMovesView,
    event_move_from_json,
    legal_event_moves,
)
from legalis.solver.z3backend import solutions

__all__ = [
    "FIXTURE_FORMAT",
    "FIXTURE_SCHEMA",
    "MANIFEST_SCHEMA",
    "RULES",
    "Manifest",
    "check_fixture",
    "check_manifest",
    "coverage",
    "generate_fixtures",
]

FIXTURE_FORMAT = "legalis-fixture/1"
SCENARIO = "1775"
DECK = "sample"
MAX_SAMPLES = 5

# The boundaries the generator knows, each with the rule text it rests on.
RULES: dict[str, str] = {
    "1.4.2 stacking": "no more than 2 Forts/Villages in a space; Events never break it (5.1.1)",
    "5.1.1 available": "Events place only Available pieces unless they name another source",
    "5.1.1 unavailable": "pieces placed from a named source (Unavailable), not from Available",
    "5.1.1 replace": "a replacement that is not Available is a removal instead",
    "1.8 caps": "Events may not raise Resources beyond 50 or lower them below 0",
    "2.3.9 ToA": "no French pieces placed on the map before the Treaty of Alliance",
    "5.1.3 partial": "text that can be carried out only in part is carried out as far as it can",
}
# Rules of 5.1 no fixture of this generator reaches (listed in the coverage report).
UNCOVERED_RULES: dict[str, str] = {
    "5.1 chooser": "another Faction makes the selections",
    "5.1.1 casualties": "pieces placed from Casualties",
    "5.1.1 west indies": "pieces placed from the West Indies",
    "5.1.2": "the current Event beats a lasting one",
    "5.1.4": "Brilliant Stroke preconditions",
    "5.3": "free Commands and Special Activities",
}

_STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game", "spaces", "boxes", "tracks", "flags"],
    "properties": {
        "game": {"const": "lod"},
        "spaces": {"type": "object"},
        "boxes": {"type": "object"},
        "tracks": {"type": "object", "additionalProperties": {"type": "integer"}},
        "flags": {"type": "object", "additionalProperties": {"type": "boolean"}},
    },
}
_ATOM: dict[str, Any] = {
    "type": "array",
    "prefixItems": [{"type": "string"}, {"type": "string"}, {"type": "integer", "minimum": 1}],
    "minItems": 3,
    "maxItems": 3,
}
_MOVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["card", "side", "faction", "steps"],
    "properties": {
        "card": {"type": "integer", "minimum": 1},
        "side": {"enum": ["unshaded", "shaded"]},
        "faction": {"type": "string"},
        "steps": {
            "type": "array",
            "items": {
                "oneOf": [{"type": "integer", "minimum": 0}, {"type": "array", "items": _ATOM}]
            },
        },
    },
}
_RULE_NAME: dict[str, Any] = {"type": "string", "minLength": 1}
_BOUNDARY: dict[str, Any] = {"enum": ["at", "inside"]}

FIXTURE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://legalis.invalid/schemas/fixture.json",
    "title": "A Liberty or Death edge-case fixture",
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
        "game": {"const": "lod"},
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
                "required": ["move", "pieces_changed", "tracks_after"],
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

_NAMES: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
MANIFEST_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://legalis.invalid/schemas/fixture-manifest.json",
    "title": "The index of a generated fixture set",
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "game", "deck", "scenario", "seed", "per_rule", "fixtures", "coverage"],
    "properties": {
        "format": {"const": FIXTURE_FORMAT},
        "game": {"const": "lod"},
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


@dataclass
class Manifest:
    """What :func:`generate_fixtures` wrote: one entry per fixture file, and coverage."""

    game: str
    seed: int
    per_rule: int
    fixtures: list[dict[str, Any]] = field(default_factory=list)
    coverage: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FIXTURE_FORMAT,
            "game": self.game,
            "deck": f"{self.game}/{DECK}",
            "scenario": SCENARIO,
            "seed": self.seed,
            "per_rule": self.per_rule,
            "fixtures": [dict(entry) for entry in self.fixtures],
            "coverage": self.coverage,
        }


@dataclass(frozen=True)
class _Variant:
    """One fixture to build: the rule, the boundary, the card, and how to set the state."""

    rule: str
    boundary: str
    card: int
    side: str
    faction: str
    description: str
    build: Callable[[CoinState, random.Random], None]
    illegal: tuple[EventMove, ...] = ()


# ---------------------------------------------------------------------- building states


def _fill_stacking(state: CoinState, space: str, total: int, rng: random.Random) -> None:
    """Put ``total`` stacking pieces from Available into ``space``, the mix chosen by Z3.

    The unknowns are how many of each stacking type the space may hold (1.4.2 side
    rules) go there; the model must meet ``sum == total`` and draw no more than is
    Available (conservation, 1.4.1). All models are listed (they are few) and the
    seeded generator picks one.
    """
    rules = state.rules
    names = [
        piece.id
        for piece in rules.piece_types
        if piece.stacking and may_hold(state, piece.id, space)[0]
    ]
    present = state.stacking_count(space)
    unknowns = [IntVar(name, 0, state.available(name)) for name in names]
    goal: Term = Eq(Add(*unknowns), total - present)
    models = solutions(goal, unknowns, limit=200)
    if not models:
        raise InputError(f"no way to put {total} stacking pieces in {space}", path="state")
    ordered = sorted(tuple(int(model[name]) for name in names) for model in models)
    chosen = rng.choice(ordered)
    for name, n in zip(names, chosen, strict=True):
        if n:
            state.move_pieces("Available", space, name, n)


def _park(state: CoinState, piece: str, keep: int, where: str) -> None:
    """Leave exactly ``keep`` pieces of a type Available, the rest moved to ``where``
    (or the surplus brought back from ``where``)."""
    surplus = state.available(piece) - keep
    if surplus > 0:
        state.move_pieces("Available", where, piece, surplus)
    elif surplus < 0:
        state.move_pieces(where, "Available", piece, -surplus)


def _stacking(space: str, total: int) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        _fill_stacking(state, space, total, rng)

    return build


def _available(piece: str, keep: int, where: str) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        _park(state, piece, keep, where)

    return build


def _unavailable(in_unavailable: int) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        # no British Regulars Available: a placement from Available could place none
        state.move_pieces("Available", "Casualties", "british_regular", 7)
        extra = state.pieces("Unavailable", "british_regular") - in_unavailable
        state.move_pieces("Unavailable", "Casualties", "british_regular", extra)

    return build


def _replace(tories: int) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        state.move_pieces("Available", "Pennsylvania", "militia", 2)
        _park(state, "tory", tories, "Unavailable")

    return build


def _tracks(**values: int) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        for track, value in values.items():
            state.set_track(track, value)

    return build


def _toa(played: bool) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        state.move_pieces("Unavailable", "Available", "french_regular", 4)
        state.set_flag("toa_played", played)

    return build


def _militia(**spaces: int) -> Callable[[CoinState, random.Random], None]:
    def build(state: CoinState, rng: random.Random) -> None:
        for space, n in spaces.items():
            state.move_pieces("Available", space.replace("_", " "), "militia", n)

    return build


def _atoms(*atoms: tuple[str, str, int]) -> tuple[tuple[str, str, int], ...]:
    return tuple(atoms)


def _move(card: int, side: str, faction: str, *steps: Any) -> EventMove:
    return EventMove(card, side, faction, tuple(steps))


_FORT_NYC = _move(23, "unshaded", "british", _atoms(("New York City", "british_fort", 1)))
_VARIANTS: tuple[_Variant, ...] = (
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
    _Variant("5.1.3 partial", "at", 1, "unshaded", "british",
             "Only 1 Militia in New Jersey and none in Pennsylvania: the 1 is removed.",
             _militia(New_Jersey=1),
             (_move(1, "unshaded", "british", _atoms(("New Jersey", "militia", 2))),
              _move(1, "unshaded", "british"))),
    _Variant("5.1.3 partial", "inside", 1, "unshaded", "british",
             "2 Militia in New Jersey, 1 in Pennsylvania: the full text in New Jersey, or "
             "the 1 Militia in Pennsylvania.", _militia(New_Jersey=2, Pennsylvania=1),
             (_move(1, "unshaded", "british", _atoms(("Pennsylvania", "militia", 2))),)),
)  # fmt: skip


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


def _legal_sample(view: EventMovesView, state: CoinState, move: EventMove) -> dict[str, Any]:
    after = view.apply(move)
    return {
        "move": move.to_json(),
        "pieces_changed": _changes(state, after),
        "tracks_after": after.to_json()["tracks"],
    }


def _fixture(variant: _Variant, seed: int, card: Card, number: int) -> dict[str, Any]:
    fid = f"{variant.rule.split()[0]}-{variant.rule.split()[-1].lower()}-{variant.boundary}"
    fid = f"{fid}-c{variant.card}-{number}"
    rng = random.Random(f"{seed}:{fid}")
    state = load_scenario("lod", SCENARIO)
    variant.build(state, rng)
    problems = state.invariant_problems()
    if problems:  # a generator bug: every fixture state must be sound
        raise AssertionError(f"{fid}: {problems[0]}")
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
        "game": "lod",
        "rule": variant.rule,
        "rule_text": RULES[variant.rule],
        "boundary": variant.boundary,
        "description": variant.description,
        "deck": f"lod/{DECK}",
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
    union = fx.Effect.__origin__.__args__  # type: ignore[attr-defined]
    return sorted(str(member.model_fields["op"].default) for member in union)


def coverage(manifest: Manifest | Mapping[str, Any]) -> dict[str, Any]:
    """Which rules and which effect forms (``op`` of the effect language) the fixture
    set exercises, and which none does.

    >>> report = coverage({"game": "lod", "fixtures": [
    ...     {"rule": "1.8 caps", "card": 8, "side": "shaded"}]})
    >>> report["rules"]["exercised"], report["effects"]["exercised"]
    (['1.8 caps'], ['adjust'])
    >>> "place" in report["effects"]["not_exercised"]
    True
    """
    raw = manifest.to_json() if isinstance(manifest, Manifest) else manifest
    deck = bundled_deck(str(raw.get("game", "lod")), DECK)
    rules: set[str] = set()
    ops: set[str] = set()
    for entry in raw["fixtures"]:
        rules.add(str(entry["rule"]))
        ops.update(_ops(deck.card(int(entry["card"])).side(str(entry["side"])).effects))
    known = sorted(set(RULES) | set(UNCOVERED_RULES))
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


def generate_fixtures(
    game: str, out_dir: str | Path, *, per_rule: int = 2, seed: int = 0
) -> Manifest:
    """Write up to ``per_rule`` fixtures for each rule of :data:`RULES`, and
    ``manifest.json``, into ``out_dir`` (created if missing).

    The same ``seed`` writes byte-identical files. Only ``lod`` has fixtures.
    """
    if game != "lod":
        raise InputError("edge-case fixtures exist for Liberty or Death only", path="game",
                         allowed=["lod"])  # fmt: skip
    if per_rule < 1:
        raise InputError("at least 1 fixture per rule", path="per_rule")
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    deck = bundled_deck(game, DECK)
    manifest = Manifest(game=game, seed=seed, per_rule=per_rule)
    taken: dict[str, int] = {}
    for variant in _VARIANTS:
        number = taken.get(variant.rule, 0) + 1
        if number > per_rule:
            continue
        taken[variant.rule] = number
        fixture = _fixture(variant, seed, deck.card(variant.card), number)
        name = f"{fixture['id']}.json"
        (folder / name).write_text(_dump(fixture), encoding="utf-8")
        manifest.fixtures.append({
            "id": fixture["id"], "file": name, "rule": variant.rule,
            "boundary": variant.boundary, "card": variant.card, "side": variant.side,
            "faction": variant.faction, "expected_count": fixture["expected_count"],
        })  # fmt: skip
    manifest.coverage = coverage(manifest)
    (folder / "manifest.json").write_text(_dump(manifest.to_json()), encoding="utf-8")
    return manifest


def _schema_problems(raw: Any, schema: Mapping[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'.'.join(str(p) for p in error.absolute_path) or '(root)'}: {error.message}"
        for error in sorted(validator.iter_errors(raw), key=lambda e: list(e.absolute_path))
    ]


def check_fixture(path: str | Path) -> list[str]:
    """Re-run the engine on one fixture file; every expectation it breaks, as a sentence.

    Checked: the file against :data:`FIXTURE_SCHEMA`, the state loads and is sound,
    the count of legal executions, every sample legal move is legal and leaves the
    tracks recorded, and every sample illegal move is refused under the rule recorded.
    """
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [f"cannot read the fixture: {error}"]
    problems = _schema_problems(raw, FIXTURE_SCHEMA)
    if problems:
        return [f"schema: {problem}" for problem in problems]
    try:
        state = state_from_json(raw["state"], raw["game"], source=str(path))
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
    for index, sample in enumerate(raw["sample_legal"]):
        where = f"sample_legal[{index}]"
        try:
            move = event_move_from_json(sample["move"], path=where)
        except InputError as error:
            problems.append(f"{where}: {error}")
            continue
        verdict = view.explain(move)
        if not verdict.legal:
            problems.append(f"{where}: refused ({verdict.rule}): {verdict.reason}")
            continue
        after = view.apply(move)
        changed = _changes(state, after)
        if changed != sample["pieces_changed"]:
            problems.append(
                f"{where}: pieces changed {changed}, expected {sample['pieces_changed']}"
            )
        tracks = after.to_json()["tracks"]
        if tracks != sample["tracks_after"]:
            problems.append(
                f"{where}: tracks after are {tracks}, expected {sample['tracks_after']}"
            )
    for index, sample in enumerate(raw["sample_illegal"]):
        where = f"sample_illegal[{index}]"
        try:
            move = event_move_from_json(sample["move"], path=where)
        except InputError as error:
            problems.append(f"{where}: {error}")
            continue
        verdict = view.explain(move)
        if verdict.legal:
            problems.append(f"{where}: accepted, expected refused under {sample['rule']}")
        elif verdict.rule != sample["rule"]:
            problems.append(f"{where}: refused under {verdict.rule}, expected {sample['rule']}")
    return problems


def check_manifest(path: str | Path) -> list[str]:
    """The manifest against :data:`MANIFEST_SCHEMA`, then every fixture it lists."""
    folder = Path(path).parent
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [f"cannot read the manifest: {error}"]
    problems = [f"manifest: {p}" for p in _schema_problems(raw, MANIFEST_SCHEMA)]
    if problems:
        return problems
    for entry in raw["fixtures"]:
        problems.extend(f"{entry['file']}: {p}" for p in check_fixture(folder / entry["file"]))
    return problems
