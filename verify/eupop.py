"""Verify EU:PoP's event rules and catalogue: prove the caps of 16.3 and the
uniqueness of the 16.5 auto-resolutions (:mod:`legalis.model.eupop.properties`),
and check that every Event of a catalogue does something.

>>> report = prove_eupop()
>>> report.ok, len(report.proofs), report.findings
(True, 10, ())
>>> from legalis.model.eupop.events import load_catalogue
>>> check_catalogue(load_catalogue())
()
"""

from __future__ import annotations

from collections.abc import Iterable

from legalis.model.core.ir import Claim
from legalis.model.errors import InputError
from legalis.model.eupop.arguments import check_effect_names
from legalis.model.eupop.events import Catalogue
from legalis.model.eupop.properties import all_claims
from legalis.model.eupop.state import bundled_state
from legalis.solver.z3backend import DEFAULT_TIMEOUT_MS
from legalis.verify.findings import Finding, VerifyReport
from legalis.verify.runner import prove_claims
from legalis.verify.tasks import Mapper, in_process

GAME = "eupop"
NO_EFFECTS = "eupop.event-no-effects"
UNKNOWN_NAME = "eupop.event-unknown-name"
EFFECTS_RULE = "16.3 Standard Event effects"

__all__ = [
    "EFFECTS_RULE",
    "GAME",
    "NO_EFFECTS",
    "UNKNOWN_NAME",
    "check_catalogue",
    "prove_eupop",
    "verify_eupop",
]


def prove_eupop(
    claims: Iterable[Claim] | None = None,
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    mapper: Mapper = in_process,
) -> VerifyReport:
    """Prove every claim (all of them by default), each a task of ``mapper``
    (:func:`~legalis.verify.runner.prove_claim`); each failed claim is an error
    finding ``proof.failed`` whose witness is the counterexample.

    >>> from legalis.model.eupop.properties import merchant_claim
    >>> report = prove_eupop([merchant_claim(one_at_a_time=False)])
    >>> report.ok, report.findings[0].code
    (False, 'proof.failed')
    """
    results, findings = prove_claims(
        all_claims() if claims is None else claims, timeout_ms=timeout_ms, mapper=mapper
    )
    return VerifyReport(GAME, tuple(findings), tuple(results))


def _finding(code: str, event: str, message: str, words: str) -> Finding:
    return Finding(code, "error", f"event {event}", message, EFFECTS_RULE, {"event": event},
                   words=words)  # fmt: skip


def check_catalogue(catalogue: Catalogue) -> tuple[Finding, ...]:
    """A finding for each Event whose text has no effects, and for each effect naming
    a place the bundled map does not know (the Event's text is in ``words``).

    >>> from legalis.model.eupop.events import catalogue_from_data
    >>> bare = catalogue_from_data({"event": [
    ...     {"id": "101B", "title": "T", "half": "1", "text": "Gain a Merchant."}]})
    >>> [(f.code, f.subject) for f in check_catalogue(bare)]
    [('eupop.event-no-effects', 'event 101B')]
    """
    found: list[Finding] = []
    state = bundled_state()
    for event_id, event in catalogue.events.items():
        if not event.effects:
            message = f"{event_id} has text but no effects: give it effects to carry out"
            found.append(_finding(NO_EFFECTS, event_id, message, event.text))
            continue
        try:
            check_effect_names(state, event.effects)
        except InputError as error:
            found.append(_finding(UNKNOWN_NAME, event_id, str(error), event.text))
    return tuple(found)


def verify_eupop(
    catalogue: Catalogue, *, timeout_ms: int = DEFAULT_TIMEOUT_MS, mapper: Mapper = in_process
) -> VerifyReport:
    """The proofs of :func:`prove_eupop`, each a task of ``mapper``, and the findings
    of :func:`check_catalogue` (milliseconds for a whole catalogue: they run here).

    >>> from legalis.model.eupop.events import load_catalogue
    >>> verify_eupop(load_catalogue()).ok
    True
    """
    proofs = prove_eupop(timeout_ms=timeout_ms, mapper=mapper)
    return VerifyReport(GAME, (*proofs.findings, *check_catalogue(catalogue)), proofs.proofs)
