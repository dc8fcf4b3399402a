"""Findings and the report that gathers them: what ``legalis verify`` hands back.

A :class:`Finding` is one thing a check or a proof turned up; a
:class:`VerifyReport` holds every finding of a run with the proof results. Both
are game-neutral and serialise to plain JSON.

>>> report = VerifyReport("demo", (Finding("data.copies-positive", "error", "card[3].copies",
...                                        "copies must be 1 or more", "CARD LIST"),))
>>> report.ok, report.to_json()["findings"][0]["code"]
(False, 'data.copies-positive')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from legalis.model.core.documents import drop_default, prose_description
from legalis.solver.z3backend import ProofResult
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.json_schema import SkipJsonSchema

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[str, ...] = get_args(Severity)


@dataclass(frozen=True)
class Finding:
    """One result of a check: ``code`` names the check (``data.force-range``,
    ``proof.failed``), ``subject`` what it is about (a field path, a claim),
    ``rule`` the rule text it rests on, ``witness`` the values that show it.

    Findings over a deck of event cards may also name the ``card`` and ``side``
    they are about, the ``words`` (the effect as JSON, or a name) and a ``proof``
    saying why a problem can never (or must always) arise; these four appear in
    :meth:`to_json` only when set.

    >>> Finding("proof.failed", "error", "medal-bound", "broken", "MEDALS", {"x": 1}).witness
    {'x': 1}
    """

    code: str
    severity: str
    subject: str
    message: str
    rule: str
    witness: dict[str, Any] | None = None
    card: int | None = None
    side: str | None = None
    words: str | None = None
    proof: str | None = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            allowed = ", ".join(SEVERITIES)
            raise ValueError(f"severity must be one of {allowed}, not {self.severity!r}")

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object of the finding.

        >>> sorted(Finding("c", "info", "s", "m", "r").to_json())
        ['code', 'message', 'rule', 'severity', 'subject', 'witness']
        >>> Finding("c", "info", "s", "m", "r", card=3, side="shaded").to_json()["card"]
        3
        """
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "subject": self.subject,
            "message": self.message,
            "rule": self.rule,
            "witness": self.witness,
        }
        for key in ("card", "side", "words", "proof"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def _left_out(description: str) -> Any:
    # a key Finding.to_json writes only when it has a value: optional, never null
    return Field(default=None, description=description, json_schema_extra=drop_default)


class FindingDocument(BaseModel):
    """A finding as JSON, as Finding.to_json writes it.

    >>> doc = Finding("c", "info", "s", "m", "r", card=3, side="shaded").to_json()
    >>> FindingDocument.model_validate(doc).card
    3
    >>> FindingDocument.model_validate({**doc, "severity": "fatal"})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for FindingDocument
    severity
      Input should be 'error', 'warning' or 'info' [type=literal_error, input_value='fatal', input_type=str]
    ...
    """  # noqa: E501

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=prose_description)

    code: str = Field(description="The check, e.g. data.force-range or proof.failed")
    severity: Severity
    subject: str = Field(description="What the finding is about: a field path, a claim")
    message: str
    rule: str = Field(description="The rule text the finding rests on")
    witness: dict[str, Any] | None = Field(description="The values that show it")
    card: int | SkipJsonSchema[None] = _left_out("The event card it is about")
    side: str | SkipJsonSchema[None] = _left_out("The side of that card")
    words: str | SkipJsonSchema[None] = _left_out("The effect as JSON, or a name")
    proof: str | SkipJsonSchema[None] = _left_out(
        "Why the problem can never (or must always) arise"
    )

    @field_validator("card", "side", "words", "proof", mode="before")
    @classmethod
    def _never_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("left out when unset, never null")
        return value


@dataclass(frozen=True)
class VerifyReport:
    """Everything one verification run found.

    ``ok`` holds when no finding is an error. ``proofs_skipped`` says why no
    claim was put to the prover (broken data), or is ``None`` when they all were.

    >>> VerifyReport("demo").ok
    True
    """

    game: str
    findings: tuple[Finding, ...] = ()
    proofs: tuple[ProofResult, ...] = ()
    proofs_skipped: str | None = None

    @property
    def ok(self) -> bool:
        return not any(finding.severity == "error" for finding in self.findings)

    def codes(self) -> set[str]:
        """The codes of every finding, for quick membership tests.

        >>> VerifyReport("demo", (Finding("data.use-letter", "error", "p", "m", "r"),)).codes()
        {'data.use-letter'}
        """
        return {finding.code for finding in self.findings}

    def proof(self, name: str) -> ProofResult:
        """The result for the claim called ``name``; ``KeyError`` if none was proved."""
        for result in self.proofs:
            if result.name == name:
                return result
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: the verdict, every finding and every proof result.

        >>> VerifyReport("demo", proofs_skipped="broken data").to_json()["proofs_skipped"]
        'broken data'
        """
        return {
            "game": self.game,
            "ok": self.ok,
            "findings": [finding.to_json() for finding in self.findings],
            "proofs": [result.to_json() for result in self.proofs],
            "proofs_skipped": self.proofs_skipped,
        }
