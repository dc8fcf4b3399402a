"""JSON Schemas of the documents legalis reads and writes, generated from the
pydantic models that describe them at the edges.

Each schema is Draft 2020-12 and is published under ``docs/schemas/`` as
``<name>.schema.json``; ``python -m legalis.schemas [folder]`` writes them again,
and the tests check that the committed files are the ones the code makes.

>>> found = schemas()
>>> sorted(found)  # doctest: +NORMALIZE_WHITESPACE
['coin-deck', 'coin-deck-report', 'coin-event-move', 'eupop-game-state', 'eupop-move',
 'eupop-state', 'finding', 'fitl-game-state', 'fitl-move', 'fitl-state', 'fixture',
 'fixture-manifest', 'lod-game-state', 'lod-move', 'lod-state', 'sequence-fixture',
 'sevenyears-game-state', 'sevenyears-move']
>>> found["lod-state"]["$schema"], found["lod-state"]["title"]
('https://json-schema.org/draft/2020-12/schema', 'Liberty or Death state')
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from legalis.model.coin.deck import deck_json_schema
from legalis.model.coin.gamedata import GAME_PACKAGES, load_game_data
from legalis.model.coin.schema import state_document_model
from legalis.model.core.documents import SCHEMA_DIALECT
from legalis.model.eupop.state import EuState
from legalis.registry import game_entry, games, load_game
from legalis.solver.event_documents import EventMoveDocument
from legalis.verify.coin import CoinReportDocument
from legalis.verify.findings import FindingDocument
from legalis.verify.fixtures import FIXTURE_SCHEMA, MANIFEST_SCHEMA
from legalis.verify.sequence_fixtures import SEQUENCE_SCHEMA

__all__ = ["DIALECT", "SUFFIX", "main", "schema_text", "schemas", "write_schemas"]

DIALECT = SCHEMA_DIALECT
SUFFIX = ".schema.json"
DEFAULT_FOLDER = "docs/schemas"

_Source = tuple[Callable[[], dict[str, Any]], str, str]


def _game_schema(name: str, document: str) -> dict[str, Any]:
    """The schema of a registered game's ``state`` or ``move`` document."""
    schema: dict[str, Any] = load_game(name).schemas()[document]
    return schema


def _coin_state_schema(game: str) -> dict[str, Any]:
    return state_document_model(game).model_json_schema()


def _sources() -> dict[str, _Source]:
    """Each schema's name: how to make it, its title and its description."""
    found: dict[str, _Source] = {}
    for name in games():
        title = game_entry(name).title
        found[f"{name}-game-state"] = (
            functools.partial(_game_schema, name, "state"),
            f"{title} game state",
            f"A game state of {title}, all that play needs to go on, as a state's to_json "
            "writes it and the game's state_from_json reads it: the state files of the "
            "command line and the `state` of the HTTP API. It names the game and the rule "
            "options in force.",
        )
        found[f"{name}-move"] = (
            functools.partial(_game_schema, name, "move"),
            f"{title} move",
            f"A move of {title}, a player's decision or a chance outcome, as the game's "
            "move_to_json writes it and move_from_json reads it; `type` says which kind.",
        )
    for game in GAME_PACKAGES:
        title = load_game_data(game).name
        found[f"{game}-state"] = (
            functools.partial(_coin_state_schema, game),
            f"{title} state",
            f"A {title} state, as CoinState.to_json writes it and state_from_json reads "
            "it: pieces, Support and markers of every space and box, tracks, flags, "
            "lasting effects, eligibility, Leaders and kept lists.",
        )
    found["eupop-state"] = (
        lambda: EuState.model_json_schema(by_alias=True, mode="validation"),
        "EU:PoP event-system state",
        "A state of the event system of Europa Universalis: The Price of Power, as "
        "EuState.to_json writes it and state_from_json reads it: Realms, Provinces, Areas, "
        "Sea Zones, Trade Nodes, the Papal Curia, Power Struggles and the Idea display "
        "(legalis moves/resolve --game eupop, the `state` of POST /v1/eupop/...).",
    )
    found["coin-event-move"] = (
        EventMoveDocument.model_json_schema,
        "COIN event move",
        "One execution of a COIN event card's side by a Faction, as EventMove.to_json "
        "writes it and event_move_from_json reads it (the moves of "
        "POST /v1/{game}/event-moves).",
    )
    found["coin-deck"] = (
        deck_json_schema,
        "COIN event deck",
        "A deck of COIN event cards: a deck TOML file's tables, read as JSON. Each "
        "side's effects are the structured effect language the interpreter runs.",
    )
    found["finding"] = (
        FindingDocument.model_json_schema,
        "Verification finding",
        "One finding of `legalis verify`, as Finding.to_json writes it: a check's code, "
        "severity, subject, message, rule and witness, and for a deck the card and side.",
    )
    found["fixture"] = (
        lambda: _without_envelope(FIXTURE_SCHEMA),
        "Edge-case fixture",
        "One edge-case fixture of `legalis fixtures` (docs/fixtures.md): a state at a "
        "rule's boundary, the card, side and Faction, the expected count of legal "
        "executions, and samples of legal and illegal moves. Its state is a "
        "<game>-state document and its moves coin-event-move documents.",
    )
    found["sequence-fixture"] = (
        lambda: _without_envelope(SEQUENCE_SCHEMA),
        "Sequence of Play fixture",
        "One Liberty or Death Sequence of Play fixture of `legalis fixtures` "
        "(docs/fixtures.md): a whole-game state at a rule's limit, the count and groups "
        "of its legal moves, samples of legal moves with where play stands after each, "
        "and samples of refused moves with the rule.",
    )
    found["fixture-manifest"] = (
        lambda: _without_envelope(MANIFEST_SCHEMA),
        "Fixture manifest",
        "The manifest.json of a fixture set: one entry per fixture file, and which "
        "rules and effect forms the set exercises.",
    )
    found["coin-deck-report"] = (
        CoinReportDocument.model_json_schema,
        "COIN deck verification report",
        "The report of verifying a COIN game's rule set and a deck, as CoinReport.to_json "
        "writes it (legalis verify DECK.toml --json, POST /v1/{game}/verify-deck).",
    )
    return found


def _without_envelope(schema: dict[str, Any]) -> dict[str, Any]:
    """A hand-written schema without the envelope :func:`schemas` sets."""
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "title")}


def schemas() -> dict[str, dict[str, Any]]:
    """Every published JSON Schema by file name stem, each with its dialect
    (``$schema``), a title and a description.

    >>> sevenyears = schemas()["sevenyears-game-state"]
    >>> sevenyears["title"], "$id" in sevenyears
    ('The Seven Years War game state', False)
    """
    out: dict[str, dict[str, Any]] = {}
    for name, (make, title, description) in _sources().items():
        schema = make()
        schema.update({"$schema": DIALECT, "title": title, "description": description})
        out[name] = schema
    return out


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the text of its file: indented, keys sorted, one final newline.

    >>> schema_text({"type": "object", "$schema": DIALECT})
    '{\\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\\n  "type": "object"\\n}\\n'
    """
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(folder: str | Path) -> list[Path]:
    """Write every schema to ``folder/<name>.schema.json`` and remove schema files no
    model makes any more; returns the files written, in name order.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [path.name for path in write_schemas(folder)][:2]
    ['coin-deck.schema.json', 'coin-deck-report.schema.json']
    """
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in sorted(schemas().items()):
        path = target / f"{name}{SUFFIX}"
        path.write_text(schema_text(schema), encoding="utf-8")
        written.append(path)
    for stale in sorted(set(target.glob(f"*{SUFFIX}")) - set(written)):
        stale.unlink()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m legalis.schemas [folder]``: write the schemas (to docs/schemas by
    default) and list the files; 2 on a usage error.

    >>> main(["one", "two"])
    2
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        print("usage: python -m legalis.schemas [folder]", file=sys.stderr)
        return 2
    for path in write_schemas(args[0] if args else DEFAULT_FOLDER):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
