"""A fast enumerator of the solutions of an IR term, built on python-constraint.

This is the second back end of the rule IR: it lists what Z3 only decides. The
term's top-level conjuncts become separate constraints, so the backtracking
search rejects a partial assignment as soon as one conjunct over its variables
fails; conjuncts over one variable prune that variable's domain up front.

>>> from legalis.model.core.ir import And, IntVar, Lt, Ne
>>> x, y = IntVar("x", 0, 3), IntVar("y", 0, 3)
>>> solutions(And(Lt(x, y), Ne(y, 3)))
[{'x': 0, 'y': 1}, {'x': 0, 'y': 2}, {'x': 1, 'y': 2}]
>>> count(And(Lt(x, y), Ne(y, 3)))
3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from constraint import FunctionConstraint, Problem
from legalis.model.core.ir import (
    BoolVar,
    IntVar,
    Op,
    Term,
    Value,
    Variable,
    evaluate,
)
from legalis.model.core.ir import variables as term_variables


def conjuncts(term: Term) -> list[Term]:
    """The parts of ``term`` that must all hold, nested conjunctions flattened.

    >>> from legalis.model.core.ir import And, BoolVar
    >>> len(conjuncts(And(BoolVar("p"), And(BoolVar("q"), BoolVar("r")))))
    3
    """
    found: list[Term] = []
    stack = [term]
    while stack:
        node = stack.pop()
        if isinstance(node, Op) and node.name == "and":
            stack.extend(reversed(node.args))
        else:
            found.append(node)
    return found


def _domain(var: Variable) -> list[Value]:
    if isinstance(var, IntVar):
        return list(range(var.lo, var.hi + 1))
    return [False, True]


def _checker(part: Term, names: Sequence[str]) -> Callable[..., bool]:
    def holds(*values: Value) -> bool:
        return bool(evaluate(part, dict(zip(names, values, strict=True))))

    return holds


def _problem(term: Term, chosen: Sequence[Variable]) -> tuple[Problem, dict[str, Variable]] | None:
    """The constraint problem of ``term`` over its variables and ``chosen``;
    ``None`` when a conjunct over at most one variable already has no solution."""
    declared: dict[str, Variable] = {}
    for var in [*term_variables(term), *chosen]:
        known = declared.setdefault(var.name, var)
        if known != var:
            raise ValueError(f"variable {var.name!r} declared as both {known} and {var}")
    domains = {name: _domain(var) for name, var in declared.items()}
    parts: list[tuple[Term, list[str]]] = []
    for part in conjuncts(term):
        names = [var.name for var in term_variables(part)]
        if not names:
            if not evaluate(part, {}):
                return None
        elif len(names) == 1:
            name = names[0]
            domains[name] = [v for v in domains[name] if evaluate(part, {name: v})]
            if not domains[name]:
                return None
        else:
            parts.append((part, names))
    problem = Problem()
    for name in declared:
        problem.addVariable(name, domains[name])
    for part, names in parts:
        problem.addConstraint(FunctionConstraint(_checker(part, names)), names)
    return problem, declared


def solutions(term: Term, variables: Sequence[Variable] | None = None) -> list[dict[str, Value]]:
    """Every assignment of ``variables`` (default: the term's own) that some
    solution of ``term`` extends, each once, in increasing order of the values.

    A variable of ``term`` left out of ``variables`` is projected away; one
    listed but absent from ``term`` ranges over its whole domain.

    >>> from legalis.model.core.ir import BoolVar, IntVar, Or
    >>> solutions(Or(BoolVar("p"), BoolVar("q")), [BoolVar("p")])
    [{'p': False}, {'p': True}]
    """
    chosen = list(term_variables(term)) if variables is None else list(variables)
    built = _problem(term, chosen)
    if built is None:
        return []
    problem, declared = built
    if not declared:
        return [{}]
    wanted = [var.name for var in chosen]
    kinds = {name: isinstance(declared[name], BoolVar) for name in wanted}
    found = {
        tuple(_typed(solution[name], kinds[name]) for name in wanted)
        for solution in problem.getSolutions()
    }
    return [dict(zip(wanted, values, strict=True)) for values in sorted(found)]


def _typed(value: Value, boolean: bool) -> Value:
    # The solver may hand 0/1 back for a truth-value domain; callers expect bools.
    return bool(value) if boolean else int(value)


def count(term: Term, variables: Sequence[Variable] | None = None) -> int:
    """How many assignments of ``variables`` (default: the term's own) satisfy ``term``.

    >>> from legalis.model.core.ir import IntVar, Le
    >>> count(Le(IntVar("x", 0, 9), 4))
    5
    """
    return len(solutions(term, variables))


def satisfiable(term: Term) -> bool:
    """Whether ``term`` has a solution at all.

    >>> from legalis.model.core.ir import Const, Eq, IntVar
    >>> satisfiable(Eq(IntVar("x", 0, 2), 5)), satisfiable(Const(True))
    (False, True)
    """
    built = _problem(term, [])
    if built is None:
        return False
    problem, declared = built
    return not declared or problem.getSolution() is not None
