"""The python-constraint enumerator, and the differential test of both back ends.

On random small IR terms the enumerator, Z3 (one blocking clause at a time) and a
brute force over :func:`~legalis.model.core.ir.evaluate` must find the same
solutions. The terms mix every operator, truth values used as integers and
integers used as truth values, and table lookups.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legalis.model.core.ir import (
    Add,
    And,
    BoolVar,
    Const,
    CountTrue,
    Eq,
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
    Or,
    Sub,
    Term,
    Value,
    evaluate,
    variables,
)
from legalis.solver import enumerate as fast
from legalis.solver import z3backend

INTS = (IntVar("x", 0, 3), IntVar("y", -1, 1), IntVar("z", 0, 1))
BOOLS = (BoolVar("p"), BoolVar("q"))
INDEXES: tuple[Term, ...] = (INTS[0], INTS[2], BOOLS[0])  # always inside a table of 4 rows


def brute_force(term: Term, chosen: list[IntVar | BoolVar] | None = None) -> list[dict[str, Value]]:
    """The solutions by trying every assignment, projected onto ``chosen``."""
    own = list(variables(term))
    chosen = own if chosen is None else chosen
    every = {v.name: v for v in [*own, *chosen]}
    domains = [
        list(range(v.lo, v.hi + 1)) if isinstance(v, IntVar) else [False, True]
        for v in every.values()
    ]
    found = set()
    for values in itertools.product(*domains):
        env = dict(zip(every, values, strict=True))
        if evaluate(term, env):
            found.add(tuple(env[v.name] for v in chosen))
    return [dict(zip((v.name for v in chosen), values, strict=True)) for values in sorted(found)]


def canonical(found: list[dict[str, Value]]) -> list[tuple[tuple[str, int], ...]]:
    return sorted(tuple(sorted((k, int(v)) for k, v in row.items())) for row in found)


@st.composite
def int_terms(draw: st.DrawFn, depth: int = 3) -> Term:
    if depth == 0 or draw(st.integers(0, 5)) == 0:
        return draw(
            st.one_of(
                st.sampled_from(INTS),
                st.integers(-2, 3).map(Const),
                st.sampled_from(BOOLS),  # a truth value counted as 0 or 1
            )
        )
    kind = draw(st.sampled_from(["add", "sub", "ite", "min", "lookup", "count"]))
    sub = int_terms(depth - 1)
    if kind == "add":
        return Add(*draw(st.lists(sub, min_size=1, max_size=3)))
    if kind == "sub":
        return Sub(draw(sub), draw(sub))
    if kind == "ite":
        return Ite(draw(bool_terms(depth - 1)), draw(sub), draw(sub))
    if kind == "min":
        return Min(draw(sub), draw(sub))
    if kind == "lookup":
        table = tuple(draw(st.lists(st.integers(-2, 4), min_size=4, max_size=4)))
        return Lookup(table, draw(st.sampled_from(INDEXES)))
    return CountTrue(*draw(st.lists(bool_terms(depth - 1), min_size=1, max_size=3)))


@st.composite
def bool_terms(draw: st.DrawFn, depth: int = 3) -> Term:
    if depth == 0 or draw(st.integers(0, 5)) == 0:
        return draw(st.one_of(st.sampled_from(BOOLS), st.booleans().map(Const)))
    kind = draw(
        st.sampled_from(["and", "or", "not", "implies", "eq", "ne", "le", "lt", "in", "ite", "int"])
    )
    sub = bool_terms(depth - 1)
    num = int_terms(depth - 1)
    if kind in ("and", "or"):
        parts = draw(st.lists(sub, min_size=0, max_size=3))
        return And(*parts) if kind == "and" else Or(*parts)
    if kind == "not":
        return Not(draw(sub))
    if kind == "implies":
        return Implies(draw(sub), draw(sub))
    if kind in ("eq", "ne"):
        left, right = draw(st.one_of(st.tuples(num, num), st.tuples(sub, sub), st.tuples(sub, num)))
        return Eq(left, right) if kind == "eq" else Ne(left, right)
    if kind == "le":
        return Le(draw(num), draw(num))
    if kind == "lt":
        return Lt(draw(num), draw(num))
    if kind == "in":
        return In(draw(num), draw(st.lists(st.integers(-2, 3), max_size=3)))
    if kind == "ite":
        return Ite(draw(sub), draw(sub), draw(sub))
    return Add(draw(num))  # an integer read as a truth value: non-zero holds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bool_terms())
def test_enumerator_z3_and_brute_force_agree(term: Term) -> None:
    expected = brute_force(term)
    assert fast.count(term) == len(expected)
    assert canonical(fast.solutions(term)) == canonical(expected)
    assert z3backend.count_models(term) == len(expected)
    assert canonical(z3backend.solutions(term)) == canonical(expected)
    assert fast.satisfiable(term) == bool(expected)


@settings(max_examples=30, deadline=None)
@given(bool_terms(), st.lists(st.sampled_from([*INTS, *BOOLS]), unique=True, max_size=3))
def test_projections_agree(term: Term, chosen: list[IntVar | BoolVar]) -> None:
    expected = brute_force(term, chosen)
    assert canonical(fast.solutions(term, chosen)) == canonical(expected)
    assert z3backend.count_models(term, chosen) == len(expected)


@pytest.mark.parametrize("seed", range(5))
def test_seeded_conjunctions_of_many_variables(seed: int) -> None:
    # Wider than the hypothesis terms: six variables, pairwise constraints, so the
    # enumerator's pruning by conjunct is exercised.
    rng = random.Random(seed)
    names = [IntVar(f"v{i}", 0, rng.randrange(1, 4)) for i in range(6)]
    parts: list[Term] = []
    for _ in range(5):
        a, b = rng.sample(names, 2)
        parts.append(rng.choice([Lt(a, b), Ne(a, b), Le(Add(a, b), 3), Eq(Min(a, b), 1)]))
    term = And(*parts)
    expected = brute_force(term)
    assert fast.count(term) == len(expected)
    assert z3backend.count_models(term) == len(expected)


def test_solutions_come_in_order_with_their_types() -> None:
    p, x = BoolVar("p"), IntVar("x", 0, 2)
    assert fast.solutions(And(p, Lt(x, 2))) == [{"p": True, "x": 0}, {"p": True, "x": 1}]


def test_conjuncts_flatten_and_constants_decide_early() -> None:
    p, q, r = BoolVar("p"), BoolVar("q"), BoolVar("r")
    assert fast.conjuncts(And(p, And(q, And(r, p)))) == [p, q, r, p]
    assert fast.solutions(And(p, Const(False))) == []
    assert fast.solutions(Const(True)) == [{}]
    assert fast.solutions(Const(False)) == []
    assert fast.count(And(Eq(IntVar("x", 0, 3), 7), p)) == 0


def test_a_name_declared_twice_differently_is_refused() -> None:
    with pytest.raises(ValueError, match="declared as both"):
        fast.solutions(Eq(IntVar("x", 0, 3), 1), [IntVar("x", 0, 5)])
