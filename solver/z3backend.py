"""The rule IR read into Z3: proofs with counterexamples, tight bounds, small counts.

Z3 decides and proves; it is not a move generator. :func:`prove` answers a
:class:`~legalis.model.core.ir.Claim` with a proof (naming the assumptions it
used), or with a counterexample that :func:`~legalis.model.core.ir.evaluate`
can replay. :func:`count_models` and :func:`solutions` list models one blocking
clause at a time, which is only fit for the small terms of differential tests.

>>> from legalis.model.core.ir import Claim, IntVar, Le, Lt
>>> x = IntVar("x", 0, 5)
>>> result = prove(Claim("small", "rule 0", "x stays below 7", (), Lt(x, 7), objective=x))
>>> result.proved, result.bound
(True, 5)
>>> prove(Claim("tiny", "rule 0", "x stays below 3", (), Le(x, 2))).counterexample["x"] >= 3
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3
from legalis.model.core.documents import prose_description
from legalis.model.core.ir import (
    BoolVar,
    Claim,
    Const,
    IntVar,
    Lookup,
    Op,
    Term,
    Value,
    Variable,
)
from legalis.model.core.ir import variables as term_variables
from legalis.model.errors import SolverLimitError
from pydantic import BaseModel, ConfigDict, Field

DEFAULT_TIMEOUT_MS = 10_000
DEFAULT_MODEL_LIMIT = 10_000
# Tracking labels live in their own namespace so no IR variable can be mistaken for one.
_LABEL_PREFIX = "!"


@dataclass
class Z3Cache:
    """What a translation has built so far: one Z3 constant per IR variable, the
    range constraint of every integer variable, and the terms already translated,
    all in the cache's own Z3 context.

    Sharing one cache between terms makes a variable of the same name the same
    Z3 constant in all of them. A fresh context per cache makes a proof's answer
    (its model, its unsat core) depend on the claim alone, not on what the process
    proved before, so a proof gives the same answer in any process.

    >>> cache = Z3Cache()
    >>> _ = to_z3(IntVar("x", 0, 3), cache)
    >>> list(cache.constants), [str(c) for c in cache.ranges.values()]
    (['x'], ['And(x >= 0, x <= 3)'])
    """

    constants: dict[str, Any] = field(default_factory=dict)
    context: Any = field(default_factory=z3.Context)
    declared: dict[str, Variable] = field(default_factory=dict)
    ranges: dict[str, Any] = field(default_factory=dict)
    # Keyed by id() because hashing a deep frozen term is linear in its size; the
    # term is kept alongside so its id cannot be reused while the cache lives.
    memo: dict[int, tuple[Term, Any]] = field(default_factory=dict)

    def constant(self, var: Variable) -> Any:
        """The Z3 constant for ``var``; a second, different declaration of the name
        is a :class:`ValueError`."""
        known = self.declared.get(var.name)
        if known is not None:
            if known != var:
                raise ValueError(f"variable {var.name!r} declared as both {known} and {var}")
            return self.constants[var.name]
        if isinstance(var, IntVar):
            if var.lo > var.hi:
                raise ValueError(f"variable {var.name!r} has an empty range {var.lo}..{var.hi}")
            made = z3.Int(var.name, self.context)
            self.ranges[var.name] = z3.And(made >= var.lo, made <= var.hi)
        else:
            made = z3.Bool(var.name, self.context)
        self.declared[var.name] = var
        self.constants[var.name] = made
        return made


def _as_bool(expr: Any) -> Any:
    # evaluate() reads an integer as a truth value the way Python does: non-zero holds.
    return expr if z3.is_bool(expr) else expr != 0


def _as_int(expr: Any) -> Any:
    # evaluate() adds and compares truth values as Python does: True is 1.
    if not z3.is_bool(expr):
        return expr
    return z3.If(expr, z3.IntVal(1, expr.ctx), z3.IntVal(0, expr.ctx))


def _same_sort(left: Any, right: Any) -> tuple[Any, Any]:
    if z3.is_bool(left) and z3.is_bool(right):
        return left, right
    return _as_int(left), _as_int(right)


def _lookup(table: tuple[int, ...], index: Any) -> Any:
    if not table:
        raise ValueError("a Lookup needs a non-empty table")
    # One branch per distinct value, not per row: card columns hold few distinct codes.
    rows: dict[int, list[int]] = {}
    for row, value in enumerate(table):
        rows.setdefault(value, []).append(row)
    values = list(rows)
    # evaluate() has no meaning for an index off the table; the last branch takes it.
    expr = z3.IntVal(values[-1], index.ctx)
    for value in reversed(values[:-1]):
        chosen = z3.Or(*(index == row for row in rows[value]))
        expr = z3.If(chosen, z3.IntVal(value, index.ctx), expr)
    return expr


def to_z3(term: Term | Value, cache: Z3Cache | None = None) -> Any:
    """The Z3 expression of ``term``; variables and their ranges are recorded in ``cache``.

    Every operator of :func:`~legalis.model.core.ir.evaluate` is translated with the
    same meaning, including Python's mixing of truth values and integers.

    >>> from legalis.model.core.ir import Add, BoolVar, Ite
    >>> to_z3(Add(IntVar("x", 0, 9), Ite(BoolVar("p"), 1, 0)))
    x + If(p, 1, 0)
    """
    if cache is None:
        cache = Z3Cache()
    if not isinstance(term, IntVar | BoolVar | Const | Op | Lookup):
        term = Const(term)
    known = cache.memo.get(id(term))
    if known is not None and known[0] is term:
        return known[1]
    expr = _translate(term, cache)
    cache.memo[id(term)] = (term, expr)
    return expr


def _translate(term: Term, cache: Z3Cache) -> Any:
    if isinstance(term, IntVar | BoolVar):
        return cache.constant(term)
    if isinstance(term, Const):
        value = term.value
        make = z3.BoolVal if isinstance(value, bool) else z3.IntVal
        return make(value, cache.context)
    if isinstance(term, Lookup):
        return _lookup(term.table, _as_int(to_z3(term.index, cache)))
    args = [to_z3(arg, cache) for arg in term.args]
    name = term.name
    if name == "and":
        return z3.And(*(_as_bool(a) for a in args)) if args else z3.BoolVal(True, cache.context)
    if name == "or":
        return z3.Or(*(_as_bool(a) for a in args)) if args else z3.BoolVal(False, cache.context)
    if name == "not":
        return z3.Not(_as_bool(args[0]))
    if name == "implies":
        return z3.Implies(_as_bool(args[0]), _as_bool(args[1]))
    if name == "eq":
        left, right = _same_sort(args[0], args[1])
        return left == right
    if name == "le":
        return _as_int(args[0]) <= _as_int(args[1])
    if name == "lt":
        return _as_int(args[0]) < _as_int(args[1])
    if name == "add":
        return z3.Sum(*(_as_int(a) for a in args)) if args else z3.IntVal(0, cache.context)
    if name == "sub":
        return _as_int(args[0]) - _as_int(args[1])
    if name == "ite":
        then, otherwise = _same_sort(args[1], args[2])
        return z3.If(_as_bool(args[0]), then, otherwise)
    raise ValueError(f"unknown IR operator {name!r}")


@dataclass(frozen=True)
class ProofResult:
    """The answer to one :class:`~legalis.model.core.ir.Claim`.

    ``proved``: the goal holds under the assumptions. ``counterexample``: values
    of the claim's variables that meet the assumptions and break the goal.
    ``bound``: the largest value of the objective under the assumptions.
    ``core``: the assumptions (``assumption[i]``) and ranges (``range x``) the
    proof needed. ``vacuous``: the assumptions contradict each other, so the
    goal holds for want of any case. ``seconds``: wall time of the proof.
    """

    name: str
    proved: bool
    counterexample: dict[str, int | bool] | None
    bound: int | None
    rule: str
    description: str
    core: tuple[str, ...] = ()
    vacuous: bool = False
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object of the result.

        >>> ProofResult("c", True, None, 3, "R", "d").to_json()["bound"]
        3
        """
        return {
            "name": self.name,
            "proved": self.proved,
            "counterexample": self.counterexample,
            "bound": self.bound,
            "rule": self.rule,
            "description": self.description,
            "core": list(self.core),
            "vacuous": self.vacuous,
            "seconds": round(self.seconds, 4),
        }


class ProofDocument(BaseModel):
    """A proof result as JSON, as ProofResult.to_json writes it.

    >>> ProofDocument.model_validate(ProofResult("c", True, None, 3, "R", "d").to_json()).bound
    3
    """

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=prose_description)

    name: str = Field(description="The claim proved")
    proved: bool = Field(description="The goal holds under the assumptions")
    counterexample: dict[str, int | bool] | None = Field(
        description="Values that meet the assumptions and break the goal"
    )
    bound: int | None = Field(description="The largest value of the objective")
    rule: str
    description: str
    core: list[str] = Field(description="The assumptions and ranges the proof needed")
    vacuous: bool = Field(description="The assumptions contradict each other")
    seconds: float = Field(ge=0, description="Wall time of the proof")


def _claim_variables(claim: Claim) -> list[Variable]:
    seen: dict[str, Variable] = {}
    terms = [*claim.assumptions, claim.goal]
    if claim.objective is not None:
        terms.append(claim.objective)
    for term in terms:
        for var in term_variables(term):
            seen.setdefault(var.name, var)
    return list(seen.values())


def _read_model(model: Any, cache: Z3Cache, names: Iterable[str]) -> dict[str, int | bool]:
    values: dict[str, int | bool] = {}
    for name in names:
        value = model.eval(cache.constants[name], model_completion=True)
        values[name] = z3.is_true(value) if z3.is_bool(value) else value.as_long()
    return values


def _check(solver: Any, what: str, timeout_ms: int) -> Any:
    result = solver.check()
    if result == z3.unknown:
        reason = solver.reason_unknown()
        raise SolverLimitError(f"{what}: Z3 gave up after at most {timeout_ms} ms ({reason})")
    return result


def prove(claim: Claim, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> ProofResult:
    """Prove ``claim`` or find a counterexample; maximise its objective if it has one.

    Each range and assumption is asserted under its own label, so a proof names
    the assumptions it rests on (``core``) and a claim whose assumptions
    contradict each other is reported ``vacuous``. A time-out or an undecided
    check raises :class:`~legalis.model.errors.SolverLimitError`.

    >>> from legalis.model.core.ir import BoolVar, Implies, Not
    >>> p = BoolVar("p")
    >>> prove(Claim("c", "R", "d", (p,), Not(Not(p)))).core
    ('assumption[0]',)
    >>> prove(Claim("c", "R", "d", (p, Not(p)), p)).vacuous
    True
    """
    start = time.perf_counter()
    cache = Z3Cache()
    assumptions = [_as_bool(to_z3(term, cache)) for term in claim.assumptions]
    goal = _as_bool(to_z3(claim.goal, cache))
    objective = None if claim.objective is None else _as_int(to_z3(claim.objective, cache))
    names = [var.name for var in _claim_variables(claim)]

    solver = z3.Solver(ctx=cache.context)
    solver.set(timeout=timeout_ms)
    solver.set("core.minimize", True)
    labels: dict[str, str] = {}
    for name, constraint in cache.ranges.items():
        labels[_track(solver, constraint, f"range {name}")] = f"range {name}"
    for index, constraint in enumerate(assumptions):
        labels[_track(solver, constraint, f"assumption[{index}]")] = f"assumption[{index}]"

    def core() -> tuple[str, ...]:
        found = {str(label) for label in solver.unsat_core()}
        return tuple(text for key, text in labels.items() if key in found)

    def result(
        proved: bool,
        *,
        counterexample: dict[str, int | bool] | None = None,
        bound: int | None = None,
        used: tuple[str, ...] = (),
        vacuous: bool = False,
    ) -> ProofResult:
        return ProofResult(
            name=claim.name,
            proved=proved,
            counterexample=counterexample,
            bound=bound,
            rule=claim.rule,
            description=claim.description,
            core=used,
            vacuous=vacuous,
            seconds=time.perf_counter() - start,
        )

    if _check(solver, f"claim {claim.name!r} (assumptions)", timeout_ms) == z3.unsat:
        return result(True, used=core(), vacuous=True)
    _track(solver, z3.Not(goal), "goal")
    if _check(solver, f"claim {claim.name!r}", timeout_ms) == z3.sat:
        return result(False, counterexample=_read_model(solver.model(), cache, names))
    used = core()
    bound = None
    if objective is not None:
        constraints = [*cache.ranges.values(), *assumptions]
        bound = _maximise(objective, constraints, claim.name, timeout_ms, cache.context)
    return result(True, used=used, bound=bound)


def _track(solver: Any, constraint: Any, text: str) -> str:
    label = _LABEL_PREFIX + text
    solver.assert_and_track(constraint, z3.Bool(label, solver.ctx))
    return label


def _maximise(
    objective: Any, constraints: Sequence[Any], name: str, timeout_ms: int, context: Any
) -> int:
    optimiser = z3.Optimize(ctx=context)
    optimiser.set(timeout=timeout_ms)
    optimiser.add(*constraints)
    handle = optimiser.maximize(objective)
    _check(optimiser, f"objective of claim {name!r}", timeout_ms)
    value = handle.value()
    if not z3.is_int_value(value):
        raise SolverLimitError(f"objective of claim {name!r} has no finite maximum ({value})")
    return int(value.as_long())


def solutions(
    term: Term,
    variables: Sequence[Variable] | None = None,
    *,
    limit: int = DEFAULT_MODEL_LIMIT,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> list[dict[str, Value]]:
    """Every assignment of ``variables`` (default: the term's own) that some model
    of ``term`` extends, found one blocking clause at a time.

    Slow by design: for differential tests of small terms only. More than
    ``limit`` solutions raise :class:`~legalis.model.errors.SolverLimitError`.

    >>> from legalis.model.core.ir import Lt
    >>> sorted(s["x"] for s in solutions(Lt(IntVar("x", 0, 9), 3)))
    [0, 1, 2]
    """
    cache = Z3Cache()
    solver = z3.Solver(ctx=cache.context)
    solver.set(timeout=timeout_ms)
    solver.add(_as_bool(to_z3(term, cache)))
    chosen = list(term_variables(term)) if variables is None else list(variables)
    for var in chosen:
        cache.constant(var)
    solver.add(*cache.ranges.values())
    names = [var.name for var in chosen]
    found: list[dict[str, Value]] = []
    while _check(solver, "listing solutions", timeout_ms) == z3.sat:
        if len(found) >= limit:
            raise SolverLimitError(f"more than {limit} solutions")
        values = _read_model(solver.model(), cache, names)
        found.append(dict(values))
        if not names:
            break
        solver.add(z3.Or(*(cache.constants[name] != values[name] for name in names)))
    return found


def count_models(
    term: Term,
    variables: Sequence[Variable] | None = None,
    *,
    limit: int = DEFAULT_MODEL_LIMIT,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> int:
    """How many assignments of ``variables`` (default: the term's own) satisfy ``term``.

    >>> from legalis.model.core.ir import Or
    >>> count_models(Or(BoolVar("p"), BoolVar("q")))
    3
    """
    return len(solutions(term, variables, limit=limit, timeout_ms=timeout_ms))
