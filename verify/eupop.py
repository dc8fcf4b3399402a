"""Verify EU:PoP's event rules: prove the caps of 16.3 and the uniqueness of the
16.5 auto-resolutions (:mod:`legalis.model.eupop.properties`).

>>> report = prove_eupop()
>>> report.ok, len(report.proofs), report.findings
(True, 10, ())
"""

from __future__ import annotations

from collections.abc import Iterable

from legalis.model.core.ir import Claim
from legalis.model.eupop.properties import all_claims
from legalis.solver.z3backend import DEFAULT_TIMEOUT_MS
from legalis.verify.findings import VerifyReport
from legalis.verify.runner import prove_claims

GAME = "eupop"

__all__ = ["GAME", "prove_eupop"]


def prove_eupop(
    claims: Iterable[Claim] | None = None, *, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> VerifyReport:
    """Prove every claim (all of them by default); each failed claim is an error
    finding ``proof.failed`` whose witness is the counterexample.

    >>> from legalis.model.eupop.properties import merchant_claim
    >>> report = prove_eupop([merchant_claim(one_at_a_time=False)])
    >>> report.ok, report.findings[0].code
    (False, 'proof.failed')
    """
    results, findings = prove_claims(
        all_claims() if claims is None else claims, timeout_ms=timeout_ms
    )
    return VerifyReport(GAME, tuple(findings), tuple(results))
