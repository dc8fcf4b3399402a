"""Turn a game's data problems and claims into findings: the game-neutral half of verify.

A game hook supplies its data problems (anything with ``check``, ``path`` and
``message``) and its claims; :func:`data_findings` and :func:`prove_claims` do
the rest, so a second game needs a thin module, not a second runner.

>>> from legalis.model.core.ir import Claim, IntVar, Le
>>> x = IntVar("x", 0, 4)
>>> results, findings = prove_claims([Claim("x-small", "R", "x <= 3", (), Le(x, 3))])
>>> results[0].proved, findings[0].code, findings[0].witness
(False, 'proof.failed', {'x': 4})
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from legalis.model.core.ir import Claim
from legalis.model.errors import SolverLimitError
from legalis.solver.z3backend import DEFAULT_TIMEOUT_MS, ProofResult, prove
from legalis.verify.findings import Finding
from legalis.verify.tasks import Mapper, in_process


class Problem(Protocol):
    """A data problem as a game's checks report it."""

    @property
    def check(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def message(self) -> str: ...


def data_findings(problems: Iterable[Problem], rule: str) -> list[Finding]:
    """One error finding per data problem, coded ``data.<check>``.

    >>> from legalis.model.sevenyears.data import DataProblem
    >>> data_findings([DataProblem("force-range", "card[0].force", "too big")], "THE DECK")[0].code
    'data.force-range'
    """
    return [
        Finding(f"data.{problem.check}", "error", problem.path, problem.message, rule)
        for problem in problems
    ]


def prove_claim(task: tuple[Claim, int]) -> tuple[ProofResult | None, Finding | None]:
    """Prove one claim within a time limit in milliseconds, the task of
    :func:`prove_claims`: the proof's result (None when the prover gave up) and the
    finding it makes, if any.

    >>> from legalis.model.core.ir import IntVar, Le
    >>> x = IntVar("x", 0, 4)
    >>> result, finding = prove_claim((Claim("x-small", "R", "x <= 4", (), Le(x, 4)), 1000))
    >>> result.proved, finding
    (True, None)
    """
    claim, timeout_ms = task
    try:
        result = prove(claim, timeout_ms=timeout_ms)
    except SolverLimitError as err:
        return None, Finding("proof.limit", "warning", claim.name, str(err), claim.rule)
    if not result.proved:
        return result, Finding(
            "proof.failed",
            "error",
            claim.name,
            f"counterexample to: {claim.description}",
            claim.rule,
            dict(result.counterexample or {}),
        )
    if result.vacuous:
        return result, Finding(
            "proof.vacuous",
            "warning",
            claim.name,
            "the assumptions contradict each other, so nothing is shown: " + claim.description,
            claim.rule,
        )
    return result, None


def prove_claims(
    claims: Iterable[Claim], *, timeout_ms: int = DEFAULT_TIMEOUT_MS, mapper: Mapper = in_process
) -> tuple[list[ProofResult], list[Finding]]:
    """Prove every claim, each a task of ``mapper`` (:func:`prove_claim`); a failed
    one is an error finding with its counterexample, a vacuous one (contradictory
    assumptions) a warning, a time-out a warning too: the claim is neither proved
    nor refuted. Results and findings keep the claims' order whatever the mapper.

    >>> from legalis.model.core.ir import BoolVar, Claim, Not
    >>> p = BoolVar("p")
    >>> results, findings = prove_claims([Claim("odd", "R", "d", (p, Not(p)), p)])
    >>> results[0].proved, findings[0].code
    (True, 'proof.vacuous')
    """
    results: list[ProofResult] = []
    findings: list[Finding] = []
    for result, finding in mapper(prove_claim, [(claim, timeout_ms) for claim in claims]):
        if result is not None:
            results.append(result)
        if finding is not None:
            findings.append(finding)
    return results, findings
