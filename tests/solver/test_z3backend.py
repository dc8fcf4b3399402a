"""The Z3 back end: translation, proofs with cores and counterexamples, bounds, counting."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import z3
from legalis.model.core.ir import (
    Add,
    And,
    BoolVar,
    Claim,
    Const,
    CountTrue,
    Eq,
    Ge,
    Implies,
    In,
    IntVar,
    Ite,
    Le,
    Lookup,
    Lt,
    Min,
    Ne,
    Not,
    Op,
    Or,
    Sub,
    Term,
    Value,
    evaluate,
    variables,
)
from legalis.model.errors import SolverLimitError
from legalis.solver.z3backend import Z3Cache, count_models, prove, solutions, to_z3

X, Y = IntVar("x", 0, 3), IntVar("y", -2, 2)
P, Q = BoolVar("p"), BoolVar("q")


def domain(var: IntVar | BoolVar) -> list[Value]:
    return list(range(var.lo, var.hi + 1)) if isinstance(var, IntVar) else [False, True]


def envs(term: Term) -> list[dict[str, Value]]:
    found = list(variables(term))
    return [
        dict(zip((v.name for v in found), values, strict=True))
        for values in itertools.product(*(domain(v) for v in found))
    ]


def z3_value(term: Term, env: dict[str, Value]) -> Value:
    """The value Z3 gives ``term`` once every variable is replaced by its value in ``env``."""
    cache = Z3Cache()
    expr = to_z3(term, cache)
    pairs = [
        (
            cache.constants[name],
            (z3.BoolVal if isinstance(value, bool) else z3.IntVal)(value, expr.ctx),
        )
        for name, value in env.items()
    ]
    value: Any = z3.simplify(z3.substitute(expr, *pairs) if pairs else expr)
    return bool(z3.is_true(value)) if z3.is_bool(value) else int(value.as_long())


def same_meaning(term: Term) -> None:
    for env in envs(term):
        expected, got = evaluate(term, env), z3_value(term, env)
        # Python's True == 1: compare the way evaluate's callers read the value.
        assert int(expected) == int(got), (term, env, expected, got)


@pytest.mark.parametrize(
    "term",
    [
        And(P, Q),
        Or(P, Not(Q)),
        Implies(P, Q),
        Eq(X, Y),
        Ne(X, 2),
        Le(X, Y),
        Lt(Y, X),
        Ge(X, 1),
        Add(X, Y, 3),
        Sub(X, Y),
        Ite(P, X, Y),
        Min(X, Y),
        In(X, [0, 3]),
        CountTrue(P, Q, Lt(X, 2)),
        Lookup((5, 7, 5, 9), X),
        Lookup((4, 4, 4, 4), X),
        And(),
        Or(),
        Add(),
        Const(True),
        Const(-4),
    ],
    ids=repr,
)
def test_every_operator_means_what_evaluate_says(term: Term) -> None:
    same_meaning(term)


def test_truth_values_and_integers_mix_as_in_python() -> None:
    # evaluate() adds True as 1 and reads a non-zero integer as true.
    for term in (Add(P, X), Eq(P, 1), Lt(Q, X), And(X, P), Not(Y), Ite(P, Q, X), Lookup((1, 2), P)):
        same_meaning(term)


def test_shared_cache_gives_one_constant_per_name() -> None:
    cache = Z3Cache()
    to_z3(Add(X, 1), cache)
    to_z3(Eq(IntVar("x", 0, 3), 2), cache)
    assert list(cache.constants) == ["x"]
    assert to_z3(IntVar("x", 0, 3), cache) is cache.constants["x"]
    assert str(cache.ranges["x"]) == "And(x >= 0, x <= 3)"


def test_a_name_declared_twice_differently_is_refused() -> None:
    with pytest.raises(ValueError, match="declared as both"):
        to_z3(And(Eq(IntVar("x", 0, 3), 1), Eq(IntVar("x", 0, 4), 1)))
    with pytest.raises(ValueError, match="empty range"):
        to_z3(IntVar("w", 2, 1))


def test_unknown_operator_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown IR operator"):
        to_z3(Op("xor", (P, Q)))


def test_deep_shared_terms_translate_once() -> None:
    term: Term = X
    for _ in range(200):
        term = Add(term, term)  # a DAG of 200 levels, 2**200 paths
    cache = Z3Cache()
    to_z3(term, cache)
    assert len(cache.memo) < 500


def test_proof_names_the_assumptions_it_used() -> None:
    z = IntVar("z", 0, 9)
    claim = Claim("c", "R", "z below x, at most 3, is below 3", (Lt(1, X), Lt(z, X), P), Lt(z, 3))
    result = prove(claim)
    assert result.proved and result.counterexample is None and not result.vacuous
    assert set(result.core) == {"range x", "assumption[1]"}
    assert result.rule == "R" and result.description == claim.description


def test_counterexample_meets_the_assumptions_and_breaks_the_goal() -> None:
    claim = Claim("c", "R", "d", (Lt(0, X), Implies(P, Eq(Y, 1))), Or(Lt(X, 3), P))
    result = prove(claim)
    assert not result.proved and result.counterexample is not None
    env = result.counterexample
    assert set(env) == {"x", "y", "p"}
    assert all(evaluate(a, env) for a in claim.assumptions)
    assert not evaluate(claim.goal, env)


def test_contradictory_assumptions_are_vacuous() -> None:
    result = prove(Claim("c", "R", "d", (Lt(X, 2), Lt(2, X)), Const(False)))
    assert result.proved and result.vacuous
    assert set(result.core) >= {"assumption[0]", "assumption[1]"}


def test_objective_gives_the_tight_maximum_under_the_assumptions() -> None:
    claim = Claim(
        "c", "R", "d", (Ne(X, 3), Implies(P, Lt(Y, 0))), Le(X, 3), Add(X, Y, Ite(P, 5, 0))
    )
    # by hand: x at most 2; with p, y at most -1 and 5 more: 2 - 1 + 5 = 6 beats 2 + 2.
    assert prove(claim).bound == 6


def test_undecided_check_raises_solver_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3.Solver, "check", lambda self, *args: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    with pytest.raises(SolverLimitError, match="gave up"):
        prove(Claim("c", "R", "d", (), Le(X, 3)), timeout_ms=5)


def test_count_and_solutions_match_brute_force() -> None:
    term = And(Or(P, Lt(X, Y)), Ne(Lookup((0, 1, 1, 0), X), 0))
    expected = [env for env in envs(term) if evaluate(term, env)]
    assert count_models(term) == len(expected)
    key = lambda env: sorted(env.items())  # noqa: E731
    assert sorted(solutions(term), key=key) == sorted(expected, key=key)


def test_counting_projects_onto_the_chosen_variables() -> None:
    term = Or(P, Eq(X, 1))
    assert count_models(term, [P]) == 2
    assert count_models(term, [X]) == 4
    # A variable that the term does not mention ranges over its whole domain.
    assert count_models(P, [P, Q]) == 2
    assert solutions(Const(True), []) == [{}]
    assert solutions(Const(False)) == []


def test_listing_stops_at_the_limit() -> None:
    with pytest.raises(SolverLimitError, match="more than 3"):
        solutions(Le(0, X), limit=3)
