"""A small rule IR: finite-domain variables and the terms that relate them.

Rules that legal-move generation, proofs and fixtures must all agree on are
stated once as IR terms. :func:`evaluate` is their meaning over concrete values;
the solver layer reads the same terms into Z3 and into an enumerator.

>>> card = IntVar("card", 0, 3)
>>> rule = Or(Eq(card, 0), Lt(Lookup((5, 6, 7, 8), card), 7))
>>> [evaluate(rule, {"card": value}) for value in range(4)]
[True, True, False, False]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

Value = int | bool


@dataclass(frozen=True, slots=True)
class IntVar:
    """An integer unknown with an inclusive range ``lo..hi``."""

    name: str
    lo: int
    hi: int


@dataclass(frozen=True, slots=True)
class BoolVar:
    """A true/false unknown."""

    name: str


@dataclass(frozen=True, slots=True)
class Const:
    """A fixed integer or truth value."""

    value: Value


@dataclass(frozen=True, slots=True)
class Op:
    """An operator applied to terms; build it with the helper functions below."""

    name: str
    args: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Lookup:
    """``table[index]``: a data column read at a symbolic index."""

    table: tuple[int, ...]
    index: Term


Term = IntVar | BoolVar | Const | Op | Lookup
Variable = IntVar | BoolVar


def _term(value: Term | Value) -> Term:
    return value if isinstance(value, IntVar | BoolVar | Const | Op | Lookup) else Const(value)


def _op(name: str, *args: Term | Value) -> Op:
    return Op(name, tuple(_term(arg) for arg in args))


def And(*args: Term | Value) -> Term:
    """Conjunction; ``And()`` is true."""
    return _op("and", *args) if args else Const(True)


def Or(*args: Term | Value) -> Term:
    """Disjunction; ``Or()`` is false."""
    return _op("or", *args) if args else Const(False)


def Not(arg: Term | Value) -> Op:
    return _op("not", arg)


def Implies(premise: Term | Value, conclusion: Term | Value) -> Op:
    return _op("implies", premise, conclusion)


def Eq(left: Term | Value, right: Term | Value) -> Op:
    return _op("eq", left, right)


def Ne(left: Term | Value, right: Term | Value) -> Op:
    return _op("not", _op("eq", left, right))


def Le(left: Term | Value, right: Term | Value) -> Op:
    return _op("le", left, right)


def Lt(left: Term | Value, right: Term | Value) -> Op:
    return _op("lt", left, right)


def Ge(left: Term | Value, right: Term | Value) -> Op:
    return _op("le", right, left)


def Gt(left: Term | Value, right: Term | Value) -> Op:
    return _op("lt", right, left)


def Add(*args: Term | Value) -> Term:
    """Integer sum; ``Add()`` is 0."""
    return _op("add", *args) if args else Const(0)


def Sub(left: Term | Value, right: Term | Value) -> Op:
    return _op("sub", left, right)


def Ite(condition: Term | Value, then: Term | Value, otherwise: Term | Value) -> Op:
    """``then`` where ``condition`` holds, else ``otherwise``."""
    return _op("ite", condition, then, otherwise)


def Min(left: Term | Value, right: Term | Value) -> Op:
    return Ite(Le(left, right), left, right)


def In(term: Term | Value, values: Iterable[int]) -> Term:
    """``term`` equals one of ``values``."""
    return Or(*(Eq(term, value) for value in values))


def CountTrue(*args: Term | Value) -> Term:
    """How many of ``args`` hold."""
    return Add(*(Ite(arg, 1, 0) for arg in args))


def evaluate(term: Term | Value, env: Mapping[str, Value]) -> Value:
    """The value of ``term`` with every variable read from ``env``.

    >>> evaluate(Add(IntVar("x", 0, 9), 2), {"x": 3})
    5
    """
    term = _term(term)
    if isinstance(term, Const):
        return term.value
    if isinstance(term, IntVar | BoolVar):
        return env[term.name]
    if isinstance(term, Lookup):
        return term.table[int(evaluate(term.index, env))]
    name, args = term.name, term.args
    if name == "and":
        return all(evaluate(arg, env) for arg in args)
    if name == "or":
        return any(evaluate(arg, env) for arg in args)
    if name == "ite":
        return evaluate(args[1] if evaluate(args[0], env) else args[2], env)
    values = [evaluate(arg, env) for arg in args]
    if name == "not":
        return not values[0]
    if name == "implies":
        return (not values[0]) or bool(values[1])
    if name == "eq":
        return values[0] == values[1]
    if name == "le":
        return values[0] <= values[1]
    if name == "lt":
        return values[0] < values[1]
    if name == "add":
        return sum(int(value) for value in values)
    if name == "sub":
        return int(values[0]) - int(values[1])
    raise ValueError(f"unknown IR operator {name!r}")


def variables(term: Term) -> Iterator[Variable]:
    """Every distinct variable in ``term``, in first-seen order.

    >>> [v.name for v in variables(And(BoolVar("p"), Eq(IntVar("x", 0, 1), 0), BoolVar("p")))]
    ['p', 'x']
    """
    seen: set[str] = set()
    stack: list[Term] = [term]
    found: list[Variable] = []
    while stack:
        node = stack.pop()
        if isinstance(node, IntVar | BoolVar):
            if node.name not in seen:
                seen.add(node.name)
                found.append(node)
        elif isinstance(node, Op):
            stack.extend(reversed(node.args))
        elif isinstance(node, Lookup):
            stack.append(node.index)
    return iter(found)


@dataclass(frozen=True)
class Claim:
    """A statement to prove: under ``assumptions``, ``goal`` always holds.

    ``rule`` names the rule text the claim rests on; ``objective``, when given, is
    a quantity the solver also maximises under the assumptions (a tight bound).
    """

    name: str
    rule: str
    description: str
    assumptions: tuple[Term, ...]
    goal: Term
    objective: Term | None = None
