"""The rule IR: evaluation of small terms, variables, and the card-use rules stated in it."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.core.ir import (
    Add,
    And,
    BoolVar,
    Const,
    CountTrue,
    Eq,
    Ge,
    Gt,
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
    evaluate,
    variables,
)
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.rules import may_lay, may_play_effect, may_use, symbols

X = IntVar("x", -5, 5)
Y = IntVar("y", -5, 5)
P = BoolVar("p")
Q = BoolVar("q")


def test_constants_and_variables():
    assert evaluate(Const(3), {}) == 3
    assert evaluate(Const(True), {}) is True
    assert evaluate(X, {"x": -2}) == -2
    assert evaluate(P, {"p": False}) is False
    assert evaluate(7, {}) == 7  # plain values are constants


def test_empty_and_or_add():
    assert evaluate(And(), {}) is True
    assert evaluate(Or(), {}) is False
    assert evaluate(Add(), {}) == 0


def test_lookup_reads_the_table_at_the_index():
    table = (10, 20, 30, 40)
    assert [evaluate(Lookup(table, IntVar("i", 0, 3)), {"i": i}) for i in range(4)] == list(table)
    assert evaluate(Lookup(table, Add(IntVar("i", 0, 3), 1)), {"i": 2}) == 40


def test_ite_only_evaluates_the_chosen_branch():
    # the other branch reads a variable that is not bound
    missing = IntVar("missing", 0, 1)
    assert evaluate(Ite(P, 1, missing), {"p": True}) == 1
    assert evaluate(Ite(P, missing, 2), {"p": False}) == 2


def test_and_or_short_circuit():
    missing = BoolVar("missing")
    assert evaluate(And(P, missing), {"p": False}) is False
    assert evaluate(Or(P, missing), {"p": True}) is True


@settings(max_examples=200, deadline=None, database=None)
@given(x=st.integers(-5, 5), y=st.integers(-5, 5), p=st.booleans(), q=st.booleans())
def test_operators_match_python(x, y, p, q):
    env = {"x": x, "y": y, "p": p, "q": q}
    cases = [
        (Eq(X, Y), x == y),
        (Ne(X, Y), x != y),
        (Le(X, Y), x <= y),
        (Lt(X, Y), x < y),
        (Ge(X, Y), x >= y),
        (Gt(X, Y), x > y),
        (Add(X, Y, 3), x + y + 3),
        (Sub(X, Y), x - y),
        (Min(X, Y), min(x, y)),
        (Ite(P, X, Y), x if p else y),
        (Not(P), not p),
        (And(P, Q), p and q),
        (Or(P, Q), p or q),
        (Implies(P, Q), (not p) or q),
        (In(X, [1, 2, 3]), x in (1, 2, 3)),
        (CountTrue(P, Q, Eq(X, 0)), int(p) + int(q) + int(x == 0)),
        (And(Or(P, Lt(X, 0)), Not(And(Q, Eq(Y, X)))), (p or x < 0) and not (q and y == x)),
    ]
    for term, expected in cases:
        assert evaluate(term, env) == expected, term


def test_unknown_operator():
    from legalis.model.core.ir import Op

    with pytest.raises(ValueError):
        evaluate(Op("xor", (Const(True), Const(False))), {})


def test_variables_in_first_seen_order_without_repeats():
    term = And(P, Eq(X, Lookup((1, 2, 3), Y)), Or(P, Q), Ite(Q, X, 0))
    assert [v.name for v in variables(term)] == ["p", "x", "y", "q"]
    assert list(variables(Const(1))) == []


def test_terms_are_values():
    assert Eq(X, 1) == Eq(IntVar("x", -5, 5), Const(1))
    assert hash(And(P, Q)) == hash(And(BoolVar("p"), BoolVar("q")))
    assert Eq(X, 1) != Eq(X, 2)


# ---------------------------------------------------------------- the card-use rules


def _by_hand(h, card, player, area, closed, winning, losing, effect_in_conflict):
    """CARD LIST NOTATION, read directly from the rules' card list."""
    c = h.cards[card.name]
    use = (
        c.use == "A"
        or (c.use == "B" and player == 0)
        or (c.use == "F" and player == 1)
        or (c.use == "L" and losing)
        or (c.use == "V" and winning)
    )
    code = "ENIW"[area]
    placed = c.location in ("A", code) or (c.location == "C" and code != "E")
    if c.effect:
        placed = effect_in_conflict
    return use and not closed and placed, use and bool(c.effect), use


@pytest.mark.parametrize("effect_in_conflict", [False, True])
def test_card_rules_in_the_ir_match_the_card_list(h, effect_in_conflict):
    data = h.data
    options = SevenYearsOptions(effect_cards_in_conflict=effect_in_conflict)
    s = symbols(data)
    lay = may_lay(
        data, options, s["player"], s["card"], s["area"], s["closed"], s["winning"], s["losing"]
    )
    effect = may_play_effect(data, s["player"], s["card"], s["winning"], s["losing"])
    use = may_use(data, s["player"], s["card"], s["winning"], s["losing"])
    assert {v.name for v in variables(lay)} == {
        "player",
        "card",
        "area",
        "closed",
        "winning",
        "losing",
    }
    for card in data.cards:
        for player, area, closed, winning, losing in itertools.product(
            (0, 1), range(4), (False, True), (False, True), (False, True)
        ):
            env = {
                "player": player,
                "card": card.index,
                "area": area,
                "closed": closed,
                "winning": winning,
                "losing": losing,
            }
            lay_ok, effect_ok, use_ok = _by_hand(
                h, card, player, area, closed, winning, losing, effect_in_conflict
            )
            assert bool(evaluate(lay, env)) == lay_ok, (card.name, env)
            assert bool(evaluate(effect, env)) == effect_ok, (card.name, env)
            assert bool(evaluate(use, env)) == use_ok, (card.name, env)
