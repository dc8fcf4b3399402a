"""Findings as SARIF 2.1.0, the format code-scanning services read.

Each finding becomes a result whose rule is its code; the rule's description is
the code's meaning and the game rule it rests on. A finding about a card points
at the card's line in the deck file when the file is given.

>>> from legalis.verify.findings import Finding
>>> log = to_sarif([Finding("name.unknown-space", "error", "card 3", "no space 'Bostn'",
...                         "5.1.1")], {"name.unknown-space": "an unknown space name"})
>>> log["version"], log["runs"][0]["results"][0]["level"]
('2.1.0', 'error')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from legalis.verify.findings import Finding

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def to_sarif(
    findings: Iterable[Finding],
    meanings: Mapping[str, str],
    *,
    deck_uri: str | None = None,
    deck_text: str | None = None,
    version: str = "0.1.0",
) -> dict[str, Any]:
    """A SARIF log of ``findings``; ``meanings`` maps each code to what it means.

    With ``deck_uri`` every result names the deck file, and with ``deck_text`` a
    finding about card ``N`` points at the line of its ``number = N``.
    """
    listed = list(findings)
    codes = sorted({finding.code for finding in listed})
    rules = [
        {
            "id": code,
            "name": code.replace(".", "-"),
            "shortDescription": {"text": meanings.get(code, code)},
            "properties": {"rule": _rule_of(code, listed)},
        }
        for code in codes
    ]
    lines = _card_lines(deck_text) if deck_text is not None else {}
    results = []
    for finding in listed:
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code),
            "level": LEVELS[finding.severity],
            "message": {"text": f"{finding.subject}: {finding.message} [{finding.rule}]"},
        }
        if deck_uri is not None:
            location: dict[str, Any] = {"artifactLocation": {"uri": deck_uri}}
            card = getattr(finding, "card", None)
            if card is not None and card in lines:
                location["region"] = {"startLine": lines[card]}
            result["locations"] = [{"physicalLocation": location}]
        if finding.witness is not None:
            result["properties"] = {"witness": finding.witness}
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "legalis",
                        "version": version,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


def _rule_of(code: str, findings: list[Finding]) -> str:
    return next(finding.rule for finding in findings if finding.code == code)


def _card_lines(text: str) -> dict[int, int]:
    """The line (1-based) of each ``number = N`` in a deck file."""
    found: dict[int, int] = {}
    for index, line in enumerate(text.splitlines(), start=1):
        match = re.fullmatch(r"\s*number\s*=\s*(\d+)\s*(#.*)?", line)
        if match:
            found.setdefault(int(match.group(1)), index)
    return found
