"""Event-move templates on the Liberty or Death map, through four back ends side by side.

Each template is an event side in the effect language, executed on the 1775 set-up
(with a few extra pieces so that removals have something to take). The project's
path lists every legal execution through ``legal_event_moves`` (interpreter plus
the selection enumerator); Z3 with blocking clauses and python-constraint2 list
the same selections from the decision's IR rule, and a plain brute-force filter
tries every combination. All four must find the same set. A further line counts a
very large set of executions without listing it, and the last ones time the first
page of 20 moves and the count for an ordinary card and for the stress cards of
``heavy_move_deck.toml`` (moves of up to 10 pieces of four types from anywhere),
a count giving up at ``--time-limit`` when it cannot be found in time.

    python benchmarks/event_moves.py [--repeat 3] [--time-limit 10]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from legalis.model.coin.deck import Card, deck_from_toml, read_deck
from legalis.model.coin.interpret import Context, PieceChoice, start
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.errors import SolverLimitError
from legalis.solver import enumerate as csp
from legalis.solver.distribute import Distribution, Selection
from legalis.solver.events import distribution, legal_event_moves
from legalis.solver.z3backend import solutions as z3_solutions

TARGETS = "enumerator >= 100x faster than Z3, faster than brute force, <= 2 us a move, first < 5 ms"
COLONIES = {"is": "type", "types": ["Colony"]}
TEMPLATES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "place up to 2 Forts in each of up to 3 Colonies",
        "british",
        {"op": "place", "pieces": ["british_fort"], "count": {"n": 2, "up_to": True},
         "where": {"filter": COLONIES, "spaces": 3, "up_to": True}},
    ),
    (
        "place 1 Village in each of 4 Provinces",
        "indians",
        {"op": "place", "pieces": ["village"], "count": 1,
         "where": {"filter": {"is": "type", "types": ["Colony", "Reserve"]}, "spaces": 4}},
    ),
    (
        "remove up to 3 Forts, British or Patriot, from Cities",
        "patriots",
        {"op": "remove", "pieces": ["british_fort", "patriot_fort"],
         "count": {"n": 3, "up_to": True},
         "where": {"filter": {"is": "type", "types": ["City"]}, "per_space": False}},
    ),
]  # fmt: skip


def event(effect: dict[str, Any]) -> Card:
    raw = {
        "number": 1,
        "title": "Template",
        "factions": ["British"],
        "unshaded": {"effects": [effect]},
    }
    return deck_from_toml({"game": "lod", "card": [raw]}).card(1)


def board() -> CoinState:
    """The 1775 set-up with Forts of both sides in the Cities, for the removals."""
    state = load_scenario("lod", "1775")
    for space in (s.name for s in state.rules.map.spaces if s.type == "City"):
        for fort in ("british_fort", "patriot_fort"):
            trial = state.copy()
            if trial.available(fort):
                trial.move_pieces("Available", space, fort, 1)
                if not trial.invariant_problems():
                    state = trial
    return state


def timed(run: Callable[[], list[Any]], repeat: int) -> tuple[float, list[Any]]:
    best, found = float("inf"), []
    for _ in range(repeat):
        started = time.perf_counter()
        found = run()
        best = min(best, time.perf_counter() - started)
    return best, found


def measure(
    title: str, faction: str, effect: dict[str, Any], state: CoinState, repeat: int
) -> None:
    """List one template's executions through every back end; print times side by side."""
    card = event(effect)
    run = start(state, card.side("unshaded"), Context(faction))
    assert isinstance(run.decision, PieceChoice)
    problem: Distribution = distribution(run.decision)
    variables, rule = problem.rule()
    flat = [v for row in variables for v in row]

    def shaped(found: dict[str, object]) -> Selection:
        return tuple(tuple(int(str(found[v.name])) for v in row) for row in variables)

    def ours() -> list[Any]:
        return list(legal_event_moves(state, card, "unshaded", faction))

    def first() -> list[Any]:
        return [next(iter(legal_event_moves(state, card, "unshaded", faction)))]

    def z3() -> list[Selection]:
        return [shaped(s) for s in z3_solutions(rule, flat, limit=10**7)]

    def constraint() -> list[Selection]:
        return [shaped(s) for s in csp.solutions(rule, flat)]

    def brute() -> list[Selection]:
        rows = [
            list(itertools.product(*(range(most + 1) for most in room))) for room in problem.room
        ]
        return [tuple(c) for c in itertools.product(*rows) if problem.is_legal(tuple(c))]

    fast, moves = timed(ours, repeat)
    first_move, _ = timed(first, repeat)
    listed = sorted(problem)
    assert len(moves) == len(listed)
    results = {"legalis (full path)": fast}
    for name, back_end in (("z3", z3), ("python-constraint2", constraint), ("brute force", brute)):
        seconds, found = timed(back_end, 1 if name == "z3" else repeat)
        assert sorted(found) == listed, f"{name} disagrees on {title}"
        results[name] = seconds
    print()
    print(f"{title}: {len(problem.room)} candidate spaces, {len(moves)} moves")
    further = (fast - first_move) / max(len(moves) - 1, 1)
    print(
        f"  first move {first_move * 1e3:.2f} ms, then {further * 1e6:.2f} us a move "
        f"({fast / max(len(moves), 1) * 1e6:.2f} us a move with the first)"
    )
    print(f"  {'back end':<22}{'seconds':>10}{'x legalis':>11}")
    for name, seconds in results.items():
        print(f"  {name:<22}{seconds:>10.4f}{seconds / fast:>11.1f}")


def count_large() -> None:
    """Count "remove up to 30 Militia, War Parties or Tories" with pieces everywhere."""
    state = CoinState.new("lod")
    for index, space in enumerate(s.name for s in state.rules.map.spaces):
        if index < 15:
            state.move_pieces("Available", space, "militia", 1)
        if state.rules.map.space(space).type != "City" and state.available("war_party"):
            state.move_pieces("Available", space, "war_party", 1)
        state.move_pieces("Available", space, "tory", 1)
    card = event({"op": "remove", "pieces": ["militia", "war_party", "tory"],
                  "count": {"n": 30, "up_to": True}, "where": {"per_space": False}})  # fmt: skip
    started = time.perf_counter()
    total = legal_event_moves(state, card, "unshaded", "british").count()
    seconds = time.perf_counter() - started
    print()
    print(f"count without listing: {total:,} executions in {seconds * 1e3:.1f} ms (target < 1 s)")


HEAVY_DECK = Path(__file__).with_name("heavy_move_deck.toml")
PAGE = 20


def first_page_and_count(title: str, card: Card, side: str, time_limit: float) -> None:
    """Time the first page of moves and the count of one card side on the 1776 set-up,
    each from a fresh view (nothing shared between the two)."""
    state = load_scenario("lod", "1776")
    started = time.perf_counter()
    page = list(itertools.islice(legal_event_moves(state, card, side, "british"), PAGE))
    paged = time.perf_counter() - started
    started = time.perf_counter()
    view = legal_event_moves(state, card, side, "british", deadline=time.monotonic() + time_limit)
    try:
        counted = f"{view.count():,} moves"
    except SolverLimitError:
        counted = "gave up at the time limit"
    seconds = time.perf_counter() - started
    print(
        f"  {title:<48}first {len(page)} in {paged * 1e3:8.1f} ms; "
        f"count in {seconds * 1e3:8.1f} ms: {counted}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    print(f"targets: {TARGETS}")
    setup, with_forts = load_scenario("lod", "1775"), board()
    for title, faction, effect in TEMPLATES:
        state = with_forts if effect["op"] == "remove" else setup
        measure(title, faction, effect, state, args.repeat)
    count_large()
    print()
    print(f"first page and count on the 1776 set-up (count limited to {args.time_limit} s):")
    title, _, effect = TEMPLATES[0]
    first_page_and_count(title, event(effect), "unshaded", args.time_limit)
    heavy = read_deck(str(HEAVY_DECK))
    for title, number, side in (
        ("move up to 10 cubes, anywhere to anywhere", 90, "unshaded"),
        ("move up to 10 cubes, anywhere to one space", 90, "shaded"),
        ("move up to 10 with Forts, to up to 3 spaces", 91, "unshaded"),
    ):
        first_page_and_count(title, heavy.card(number), side, args.time_limit)


if __name__ == "__main__":
    main()
