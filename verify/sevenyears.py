"""Verify The Seven Years War: check the card data, then prove the game's claims.

>>> report = verify_sevenyears()
>>> report.ok, report.proof("medal-bound").bound
(True, 20)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from legalis.model.errors import InputError
from legalis.model.sevenyears.data import build_data, check_cards, check_game, read_bundled
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.properties import all_claims
from legalis.solver.z3backend import DEFAULT_TIMEOUT_MS
from legalis.verify.findings import Finding, VerifyReport
from legalis.verify.runner import data_findings, prove_claims
from legalis.verify.tasks import Mapper, in_process

GAME = "sevenyears"
RULE_DATA = "CARD LIST; CARD LIST NOTATION; GAME LENGTH; MEDALS; CAMPAIGN GRID"


def verify_sevenyears(
    raw_cards: Mapping[str, Any] | None = None,
    raw_game: Mapping[str, Any] | None = None,
    options: SevenYearsOptions | None = None,
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    mapper: Mapper = in_process,
) -> VerifyReport:
    """Check the card list and rule numbers (the bundled ones by default) and, if
    they are sound, prove every claim of :func:`~legalis.model.sevenyears.properties.all_claims`.

    Each data problem is an error finding ``data.<check>``; broken data skips the
    proofs and the report says so. Each failed claim is an error finding
    ``proof.failed`` whose witness is the counterexample. Each claim is a task of
    ``mapper`` (:func:`~legalis.verify.runner.prove_claim`); the data checks, which
    need the whole card list, run here.

    >>> broken = dict(read_bundled("game.toml"), medals_per_player=19)
    >>> sorted(verify_sevenyears(raw_game=broken).codes())
    ['proof.failed']
    """
    cards = read_bundled("cards.toml") if raw_cards is None else raw_cards
    game = read_bundled("game.toml") if raw_game is None else raw_game
    options = options or SevenYearsOptions()
    findings = data_findings(check_game(game) + check_cards(cards, game), RULE_DATA)
    if findings:
        return VerifyReport(
            GAME,
            tuple(findings),
            proofs_skipped=f"{len(findings)} data problem(s): no claim was put to the prover",
        )
    try:
        data = build_data(cards, game, source="cards.toml")
    except InputError as err:
        # The checks above should have caught it; if not, it is still a finding, not a crash.
        load = Finding("data.load", "error", err.path or "cards.toml", str(err), RULE_DATA)
        return VerifyReport(GAME, (load,), proofs_skipped="the data could not be loaded")
    results, proof_findings = prove_claims(
        all_claims(data, options), timeout_ms=timeout_ms, mapper=mapper
    )
    return VerifyReport(GAME, tuple(proof_findings), tuple(results))
