"""Proofs over the COIN rule sets: every effect form keeps the invariants, the
invariants are consistent and each is needed, and broken limits or rules fail."""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.coin.gamedata import load_game_data
from legalis.model.coin.properties import consistency_claims, effect_claims
from legalis.model.core.ir import evaluate
from legalis.solver.z3backend import prove
from legalis.verify.coin_proofs import broken, prove_rule_set

GAMES = ("lod", "fitl")
FORMS = {"place", "remove", "replace", "move", "flip", "shift", "set support", "adjust",
         "lasting effect, free action, condition or choice"}  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_every_effect_form_keeps_the_invariants(game: str) -> None:
    report = prove_rule_set(game)
    assert {proof.name.removesuffix(" keeps the invariants") for proof in report.effects} == FORMS
    assert all(proof.proved and not proof.vacuous for proof in report.effects)
    assert report.ok


@pytest.mark.parametrize(
    ("limit", "forms"),
    [
        ("stacking", {"place", "replace", "move"}),  # 1.4.2
        ("where", {"place", "replace", "move"}),  # 1.4.2, 2.3.9
        ("available", {"place", "replace"}),  # 1.4.1
        ("present", {"remove", "replace", "move", "flip"}),  # 5.1.3: only what is there
        ("clamp", {"shift", "adjust"}),  # 1.6, 1.8
    ],
)
@pytest.mark.parametrize("game", GAMES)
def test_leaving_out_a_limit_gives_a_counterexample(game: str, limit: str, forms: set[str]) -> None:
    # 5.1.1: the interpreter's limits are what keeps an event from breaking a rule;
    # without each one, the prover finds a sound state and a move that breaks it.
    failed = set()
    for claim in effect_claims(load_game_data(game), drop=limit):
        result = prove(claim)
        if not result.proved:
            failed.add(claim.name.removesuffix(" keeps the invariants"))
            witness = result.counterexample
            assert witness is not None
            assert all(evaluate(term, witness) for term in claim.assumptions)
            assert not evaluate(claim.goal, witness)
    assert failed == forms


@pytest.mark.parametrize("game", GAMES)
def test_the_invariants_are_consistent_and_each_is_needed(game: str) -> None:
    report = prove_rule_set(game)
    names, terms = consistency_claims(load_game_data(game))
    assert report.consistent and report.witness is not None
    assert all(evaluate(term, report.witness) for term in terms)
    assert report.redundant == [] and set(report.needed) == set(names)
    for name in names:
        state = report.needed[name]
        broken_ones = [n for n, term in zip(names, terms, strict=True) if not evaluate(term, state)]
        assert broken_ones == [name]


def test_a_broken_rule_set_names_the_rules_in_conflict() -> None:
    # 1.4.2 with a stacking limit below zero cannot meet "counts are never negative".
    report = prove_rule_set("lod", broken(load_game_data("lod"), stacking_max=-1))
    assert not report.consistent and not report.ok
    assert any("stacking" in name for name in report.conflict)
    assert "counts are never negative" in report.conflict


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_a_rule_set_proved_twice_in_one_process_gives_the_same_witnesses(game: str) -> None:
    # A witness or an unsat core must not depend on what the process proved before:
    # a proof run as a task elsewhere must answer as it answers here.
    def answers(report: Any) -> Any:
        effects = [(proof.name, proof.proved, proof.counterexample) for proof in report.effects]
        return report.witness, report.conflict, report.needed, report.redundant, effects

    first = answers(prove_rule_set(game))
    assert answers(prove_rule_set(game)) == first
    assert first[0] is not None and first[2]  # a common model, and a state per needed invariant
