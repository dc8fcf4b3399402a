"""Verifying a COIN game: the rule set's proofs and, given a deck, its findings.

>>> report = verify_coin("lod")
>>> report.ok, report.findings
(True, [])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from legalis.model.coin.deck import Deck
from legalis.model.core.documents import prose_description
from legalis.verify.coin_findings import CODES, check_deck
from legalis.verify.coin_proofs import RuleSetDocument, RuleSetReport, prove_rule_set
from legalis.verify.findings import Finding, FindingDocument
from legalis.verify.tasks import Mapper, in_process
from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class CoinReport:
    """The proofs of the game's rule set and the findings of a deck (none without one)."""

    game: str
    rule_set: RuleSetReport
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        """No error finding, and every proof of the rule set holds."""
        return self.rule_set.ok and not any(f.severity == "error" for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ok": self.ok,
            "rule_set": self.rule_set.to_json(),
            "findings": [finding.to_json() for finding in self.findings],
        }


class CoinReportDocument(BaseModel):
    """A deck verification report as JSON, as CoinReport.to_json writes it
    (legalis verify DECK.toml --json, POST /v1/{game}/verify-deck).

    >>> report = CoinReportDocument.model_validate(verify_coin("lod").to_json())
    >>> report.ok, report.rule_set.consistent
    (True, True)
    """

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=prose_description)

    game: Literal["lod", "fitl"]
    ok: bool = Field(description="No error finding, and every proof of the rule set holds")
    rule_set: RuleSetDocument
    findings: list[FindingDocument]


def verify_coin(
    game: str,
    deck: Deck | None = None,
    *,
    on_card: Callable[[int], None] | None = None,
    strict: bool = False,
    mapper: Mapper = in_process,
) -> CoinReport:
    """Prove the rule set of ``game`` and check ``deck`` (if given) against it;
    ``strict`` makes text in a form legalis does not read an error. Each card is a
    task of ``mapper`` (:func:`~legalis.verify.coin_findings.check_deck`); the rule
    set's proofs, a fraction of a second, run here."""
    findings = (
        []
        if deck is None
        else check_deck(deck, game, on_card=on_card, strict=strict, mapper=mapper)
    )
    return CoinReport(game, prove_rule_set(game), findings)


def meaning(code: str) -> tuple[str, str, str] | None:
    """(severity, rule, meaning) of a COIN finding code, or None if there is none."""
    return CODES.get(code)
