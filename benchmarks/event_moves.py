"""Event-move templates on the Liberty or Death map, through four back ends side by side.

Each template is a piece effect of an event card, read against the LoD map (the
candidate spaces its filter matches, the room each has): the selections it allows
are listed by the project's enumerator (``legalis.solver.distribute``), by Z3 with
blocking clauses and by python-constraint2 (both reading the template's IR rule),
and by a plain filter over every combination. All four must find the same set.

    python benchmarks/event_moves.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from legalis.model.coin.mapdata import load_map
from legalis.solver import enumerate as csp
from legalis.solver.distribute import Distribution, Selection
from legalis.solver.z3backend import solutions as z3_solutions

STACKING = 2  # 1.4.2: two Forts or Villages at most in a space
TARGETS = "enumerator >= 100x faster than Z3, faster than brute force, <= 2 us a move, first < 5 ms"


@dataclass(frozen=True)
class Template:
    title: str
    spaces: tuple[str, ...]
    problem: Distribution


def templates() -> list[Template]:
    lod = load_map("lod")
    colonies = tuple(s.name for s in lod.spaces if s.type == "Colony")
    provinces = tuple(s.name for s in lod.spaces if s.type in ("Colony", "Reserve"))
    cities = tuple(s.name for s in lod.spaces if s.type == "City")
    return [
        Template(
            "place up to 2 Forts in each of up to 3 Colonies (6 Forts Available)",
            colonies,
            Distribution.single(
                room=(STACKING,) * len(colonies),
                per_space=2,
                spaces=3,
                spaces_exact=False,
                pool=6,
                up_to=True,
            ),
        ),
        Template(
            "place 1 Village in each of 4 Provinces, one Village already in 3 of them",
            provinces,
            Distribution.single(
                room=tuple(1 if i % 5 == 0 else STACKING for i in range(len(provinces))),
                per_space=1,
                spaces=4,
                pool=12,
            ),
        ),
        Template(
            "remove up to 3 Forts, British or Patriot, from Cities holding one of each",
            cities,
            Distribution(room=((1, 1),) * len(cities), total=3, up_to=True),
        ),
    ]


def timed(run: Callable[[], list[Selection]], repeat: int) -> tuple[float, list[Selection]]:
    best, found = float("inf"), []
    for _ in range(repeat):
        started = time.perf_counter()
        found = run()
        best = min(best, time.perf_counter() - started)
    return best, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"targets: {TARGETS}")
    for template in templates():
        measure(template, args.repeat)


def fresh(problem: Distribution) -> Distribution:
    """A copy with nothing cached, so each timing includes the counting table."""
    return Distribution(**{name: getattr(problem, name) for name in problem.__dataclass_fields__})


def measure(template: Template, repeat: int) -> None:
    """List the template's moves through every back end and print the times side by side."""
    problem = template.problem
    variables, rule = problem.rule()
    flat = [v for row in variables for v in row]

    def shaped(found: dict[str, object]) -> Selection:
        return tuple(tuple(int(str(found[v.name])) for v in row) for row in variables)

    def enumerator() -> list[Selection]:
        return list(fresh(problem))

    def first_move() -> list[Selection]:
        return [next(iter(fresh(problem)))]

    def z3() -> list[Selection]:
        return [shaped(s) for s in z3_solutions(rule, flat, limit=10**7)]

    def constraint() -> list[Selection]:
        return [shaped(s) for s in csp.solutions(rule, flat)]

    def brute() -> list[Selection]:
        rows = [
            list(itertools.product(*(range(most + 1) for most in room))) for room in problem.room
        ]
        return [
            tuple(choice) for choice in itertools.product(*rows) if problem.is_legal(tuple(choice))
        ]

    fast, listed = timed(enumerator, repeat)
    first, _ = timed(first_move, repeat)
    results = {"enumerator": fast}
    for name, run in (("z3", z3), ("python-constraint2", constraint), ("brute force", brute)):
        seconds, found = timed(run, 1 if name == "z3" else repeat)
        assert sorted(found) == sorted(listed), f"{name} disagrees on {template.title}"
        results[name] = seconds
    print()
    print(f"{template.title}: {len(template.spaces)} candidate spaces, {len(listed)} moves")
    print(f"  first move {first * 1e3:.2f} ms, {fast / max(len(listed), 1) * 1e6:.2f} us a move")
    print(f"  {'back end':<20}{'seconds':>10}{'x enumerator':>14}")
    for name, seconds in results.items():
        print(f"  {name:<20}{seconds:>10.4f}{seconds / fast:>14.1f}")


if __name__ == "__main__":
    main()
