"""Distributing pieces over spaces: the DP agrees with brute force, the IR rule, Z3 and
python-constraint, and its worked examples follow 5.1.1 and 5.1.3."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.core.ir import evaluate
from legalis.model.errors import SolverLimitError
from legalis.solver import enumerate as fast
from legalis.solver.distribute import Distribution, Selection
from legalis.solver.z3backend import solutions as z3_solutions


@st.composite
def problems(draw: st.DrawFn, max_spaces: int = 4) -> Distribution:
    kinds = draw(st.integers(1, 2))
    size = draw(st.integers(0, max_spaces if kinds == 1 else 3))
    room = tuple(tuple(draw(st.integers(0, 2)) for _ in range(kinds)) for _ in range(size))
    per_space = draw(st.booleans())
    pool = draw(st.none() | st.tuples(*(st.none() | st.integers(0, 5) for _ in range(kinds))))
    space_room = draw(st.none() | st.tuples(*(st.integers(0, 3) for _ in range(size))))
    optional = draw(st.none() | st.tuples(*(st.booleans() for _ in range(kinds))))
    return Distribution(
        room=room,
        per_space=draw(st.integers(0, 3)) if per_space else None,
        total=None if per_space else draw(st.integers(0, 6)),
        spaces=draw(st.none() | st.integers(1, 3)),
        spaces_exact=draw(st.booleans()),
        pool=pool,
        up_to=draw(st.booleans()),
        space_room=space_room,
        optional=optional,
    )


def grid(problem: Distribution) -> list[Selection]:
    rows = [list(itertools.product(*(range(most + 1) for most in room))) for room in problem.room]
    return [tuple(choice) for choice in itertools.product(*rows)]


def brute_force(problem: Distribution) -> list[Selection]:
    return [selection for selection in grid(problem) if problem.is_legal(selection)]


@given(problems())
def test_count_listing_and_ranking_agree_with_brute_force(problem: Distribution) -> None:
    expected = brute_force(problem)
    listed = list(problem)
    assert problem.count() == len(expected) == len(listed)
    assert sorted(listed) == sorted(expected) and len(set(listed)) == len(listed)
    assert [problem.nth(rank) for rank in range(problem.count())] == listed


@given(problems())
def test_the_ir_rule_states_the_same_selections(problem: Distribution) -> None:
    variables, rule = problem.rule()
    stated = [
        selection
        for selection in grid(problem)
        if evaluate(
            rule,
            {
                v.name: x
                for row, vs in zip(selection, variables, strict=True)
                for v, x in zip(vs, row, strict=True)
            },
        )
    ]
    assert sorted(stated) == sorted(brute_force(problem))


def test_z3_and_python_constraint_agree_with_the_enumerator_on_500_problems() -> None:
    rng = random.Random(20261122)
    for _ in range(500):
        kinds = rng.choice([1, 1, 2])
        size = rng.randint(1, 4 if kinds == 1 else 2)
        per_space = rng.random() < 0.5
        problem = Distribution(
            room=tuple(tuple(rng.randint(0, 2) for _ in range(kinds)) for _ in range(size)),
            per_space=rng.randint(1, 3) if per_space else None,
            total=None if per_space else rng.randint(1, 5),
            spaces=rng.choice([None, 1, 2, 3]),
            spaces_exact=rng.random() < 0.5,
            pool=tuple(rng.choice([None, 1, 2, 5]) for _ in range(kinds)),
            up_to=rng.random() < 0.3,
            space_room=tuple(rng.randint(0, 3) for _ in range(size))
            if rng.random() < 0.3
            else None,
            optional=tuple(rng.random() < 0.3 for _ in range(kinds)) if kinds > 1 else None,
        )
        variables, rule = problem.rule()
        flat = [v for row in variables for v in row]

        def shaped(found: dict[str, object], vs: list[list[object]] = variables) -> Selection:
            return tuple(tuple(int(found[v.name]) for v in row) for row in vs)  # type: ignore[attr-defined,call-overload]

        by_z3 = sorted(shaped(s) for s in z3_solutions(rule, flat))
        by_csp = sorted(shaped(s) for s in fast.solutions(rule, flat))
        assert by_z3 == by_csp == sorted(problem), problem


def test_place_two_in_each_of_two_of_three_spaces() -> None:
    # 5.1.3: "2 in each of 2 spaces" with room 2, 1, 0: the full space and the one with
    # room 1 must both be used, as far as they can take pieces.
    problem = Distribution.single(room=(2, 1, 0), per_space=2, spaces=2, pool=5)
    assert list(problem) == [((2,), (1,), (0,))]
    assert "could take" in str(problem.refusal(((1,), (1,), (0,))))


def test_an_exact_placement_stops_at_the_available_pieces() -> None:
    # 5.1.1: only Available pieces are placed; with 3 Available, "2 in each of 2 spaces"
    # places 3 in all, the shortfall falling on either space.
    problem = Distribution.single(room=(2, 2), per_space=2, spaces=2, pool=3)
    assert sorted(problem) == [((1,), (2,)), ((2,), (1,))]
    assert "only 3" in str(problem.refusal(((2,), (2,))))


def test_up_to_spaces_leaves_the_number_of_spaces_to_the_faction() -> None:
    # "in each of up to 2 spaces": none, one or two spaces, each filled as far as it can be.
    problem = Distribution.single(room=(1, 2), per_space=2, spaces=2, spaces_exact=False)
    assert sorted(problem) == [((0,), (0,)), ((0,), (2,)), ((1,), (0,)), ((1,), (2,))]


def test_up_to_count_allows_any_amount() -> None:
    # "remove up to 2 Militia": 0, 1 or 2 from spaces holding 1 and 2.
    problem = Distribution.single(room=(1, 2), total=2, up_to=True)
    assert len(problem) == 5 and ((1,), (1,)) in list(problem)


def test_two_piece_types_share_the_per_space_count() -> None:
    # "Place 2 Tories or Regulars in a Colony" with 1 Tory and 5 Regulars Available:
    # two pieces, at most one of them a Tory.
    problem = Distribution(room=((2, 2),), per_space=2, spaces=1, pool=(1, 5))
    assert sorted(problem) == [((0, 2),), ((1, 1),)]


def test_forts_and_villages_share_a_space_s_stacking_room() -> None:
    # 1.4.2 and 5.1.1: a Colony with one Fort already holds one more Fort or Village.
    problem = Distribution(room=((2, 2),), per_space=2, spaces=1, space_room=(1,))
    assert sorted(problem) == [((0, 1),), ((1, 0),)]


def test_an_optional_type_is_never_obliged() -> None:
    # FitL 5.1.1: a Faction may remove its own Tunneled Base to fulfil the text, but
    # need not; an ordinary Base there must go first.
    problem = Distribution(room=((1, 1),), total=2, optional=(False, True))
    assert sorted(problem) == [((1, 0),), ((1, 1),)]


def test_bad_problems_are_refused() -> None:
    with pytest.raises(ValueError):
        Distribution.single(room=(1,), per_space=1, total=1)
    with pytest.raises(ValueError):
        Distribution.single(room=(-1,), total=1)
    with pytest.raises(ValueError):
        Distribution(room=((1,), (1, 2)), total=1)
    with pytest.raises(IndexError):
        Distribution.single(room=(1,), total=1).nth(5)


def test_a_billion_selections_are_counted_without_listing() -> None:
    problem = Distribution.single(room=(3,) * 22, total=40, pool=60, up_to=True)
    assert problem.count() > 10**9
    assert problem.is_legal(problem.nth(0)) and problem.is_legal(problem.nth(problem.count() - 1))


@st.composite
def independent_problems(draw: st.DrawFn) -> Distribution:
    """Problems whose piece types constrain one another only through nothing: each
    type has its own pool, the total leaves every pool open, any space may be chosen."""
    kinds = draw(st.integers(2, 3))
    size = draw(st.integers(0, 3))
    room = tuple(tuple(draw(st.integers(0, 2)) for _ in range(kinds)) for _ in range(size))
    pool = tuple(draw(st.integers(0, 3)) for _ in range(kinds))
    return Distribution(
        room=room,
        total=sum(pool) + draw(st.integers(0, 2)),
        spaces=draw(st.none() | st.just(size or None)),
        pool=pool,
        up_to=draw(st.booleans()),
        optional=draw(st.none() | st.tuples(*(st.booleans() for _ in range(kinds)))),
    )


@settings(max_examples=150)
@given(independent_problems())
def test_types_that_do_not_meet_are_counted_as_a_product(problem: Distribution) -> None:
    # the product of each type's count (5.1.3 applied type by type) is the brute force
    assert problem._per_kind is not None
    assert problem.count() == len(brute_force(problem)) == len(list(problem))


@settings(max_examples=100)
@given(problems())
def test_a_tally_by_features_agrees_with_grouping_the_selections(problem: Distribution) -> None:
    # features of a row: its pieces of type 0, and whether it takes any piece at all
    features = [{row: (row[0], int(any(row))) for row in rows} for rows in problem.rows]
    expected: dict[tuple[int, ...], int] = {}
    for selection in brute_force(problem):
        key = (sum(row[0] for row in selection), sum(1 for row in selection if any(row)))
        expected[key] = expected.get(key, 0) + 1
    assert problem.tally(features, 2) == expected


def test_a_tally_stops_at_a_past_deadline() -> None:
    problem = Distribution.single(room=(2, 2), total=3)
    with pytest.raises(SolverLimitError):
        problem.tally([{row: row for row in rows} for rows in problem.rows], 1, deadline=0.0)


@st.composite
def arrivals(draw: st.DrawFn) -> tuple[Distribution, list[tuple[int, ...]]]:
    """A distribution of a total with no pool, and pools to place in full."""
    kinds = draw(st.integers(1, 3))
    size = draw(st.integers(0, 3))
    room = tuple(tuple(draw(st.integers(0, 3)) for _ in range(kinds)) for _ in range(size))
    pools = draw(st.lists(st.tuples(*(st.integers(0, 2) for _ in range(kinds))), min_size=1,
                          max_size=4))  # fmt: skip
    problem = Distribution(
        room=room,
        total=max(map(sum, pools)) + draw(st.integers(0, 1)),
        spaces=draw(st.none() | st.integers(1, 3)),
        spaces_exact=draw(st.booleans()),
        space_room=draw(st.none() | st.tuples(*(st.integers(0, 3) for _ in range(size)))),
        optional=draw(st.none() | st.tuples(*(st.booleans() for _ in range(kinds)))),
    )
    return problem, pools


@settings(max_examples=150)
@given(arrivals())
def test_one_table_counts_the_arrivals_of_every_pool(
    case: tuple[Distribution, list[tuple[int, ...]]],
) -> None:
    # every piece of the pool arrives, or as many as the room allows (5.1.3): the
    # count from one table for all pools equals the brute force for each pool
    template, pools = case
    by_pool = template.counts_by_pool()
    for pool in pools:
        one = dataclasses.replace(template, pool=pool, total=sum(pool))
        assert by_pool(pool) == len(brute_force(one)) == one.count()
