"""Golden cases for 8.1.1, 8.1.3 and 8.2, worked by hand from the paragraphs."""

from __future__ import annotations

import itertools

import pytest
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.nonplayer.spaces import (
    Priority,
    opposition_score,
    roll_random_space,
    select_spaces,
    support_score,
)
from legalis.solver.nonplayer.trace import Trace

# The printed table, typed in again here: (column, row) -> spaces, top first.
TABLE = {
    (1, 1): ["Quebec City"],
    (1, 2): ["Quebec", "New York"],
    (1, 3): ["New Hampshire"],
    (1, 4): ["Connecticut-Rhode Island"],
    (1, 5): ["New York City"],
    (1, 6): ["New Jersey"],
    (2, 1): ["Northwest", "Maryland-Delaware"],
    (2, 2): ["Philadelphia"],
    (2, 3): ["Pennsylvania"],
    (2, 4): ["Norfolk"],
    (2, 5): ["Southwest", "Virginia"],
    (2, 6): ["Charles Town"],
    (3, 1): ["North Carolina"],
    (3, 2): ["Savannah"],
    (3, 3): ["Florida", "South Carolina"],
    (3, 4): ["Georgia"],
    (3, 5): ["Boston"],
    (3, 6): ["Massachusetts"],
}


def brute_walk(column: int, row: int, candidates: set[str]) -> str:
    """8.2 by hand: try the box top first, then down the column, then the top of
    the next column (after column 3, column 1 again)."""
    c, r = column, row
    for _ in range(19):
        for space in TABLE[(c, r)]:
            if space in candidates:
                return space
        r += 1
        if r > 6:
            r, c = 1, c % 3 + 1
    raise AssertionError("no candidate")


class Dice(LoggedRandom):
    """A source that rolls the given dice (0-based draws)."""

    def __init__(self, *draws: int) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def randrange(self, stop: int) -> int:
        value = self.draws.pop(0)
        assert 0 <= value < stop
        self.log.append(("randrange", value))
        return value


CANDIDATE_SETS = [
    {"Boston"},
    {"Georgia", "Quebec City"},
    {"New York", "Virginia", "Savannah"},
    {"Maryland-Delaware", "South Carolina"},
    {"Massachusetts"},
]


@pytest.mark.parametrize(("column", "row"), list(itertools.product(range(1, 4), range(1, 7))))
@pytest.mark.parametrize("candidates", CANDIDATE_SETS, ids=lambda c: "+".join(sorted(c)))
def test_every_roll_reaches_the_first_candidate(
    column: int, row: int, candidates: set[str]
) -> None:
    # 8.2: roll 1D3 for the column, 1D6 for the row; move down and follow the arrows
    space, dice = roll_random_space(candidates, Dice(column - 1, row - 1))
    assert dice == (column, row)
    assert space == brute_walk(column, row, candidates)


def test_top_space_of_a_box_first() -> None:
    # 8.2 EXAMPLE: choose Florida before South Carolina
    assert roll_random_space({"South Carolina", "Florida"}, Dice(2, 2))[0] == "Florida"
    assert roll_random_space({"South Carolina"}, Dice(2, 2))[0] == "South Carolina"


def test_massachusetts_leads_to_quebec_city() -> None:
    # 8.2: follow the arrows from Massachusetts to Quebec City
    assert roll_random_space({"Quebec City", "New Jersey"}, Dice(2, 5))[0] == "Quebec City"


def test_most_support_is_level_times_population() -> None:
    # 8.1.1: "most Support" is the Support level times the Population
    state = CoinState.new("lod")
    state.set_support("Virginia", "passive_support")  # population 2
    state.set_support("Boston", "active_support")  # population 1
    state.set_support("Massachusetts", "active_opposition")  # population 2
    assert support_score(state, "Virginia") == 2
    assert support_score(state, "Boston") == 2
    assert opposition_score(state, "Massachusetts") == 4
    assert support_score(state, "Massachusetts") == 0


def test_priorities_in_order_with_limit_and_trace() -> None:
    # 8.1.3: each priority in order until exhausted or the limit is reached
    state = CoinState.new("lod")
    state.set_support("Massachusetts", "active_opposition")
    state.set_support("Boston", "passive_opposition")
    state.set_support("Virginia", "passive_opposition")
    first = Priority("Opposition", lambda s, x: opposition_score(s, x) > 0, opposition_score)
    second = Priority("any City", lambda s, x: s.rules.map.is_city(x))
    trace = Trace()
    chosen = select_spaces(
        state,
        ["Boston", "Virginia", "Massachusetts", "Norfolk"],
        [first, second],
        4,
        Dice(0, 0),
        trace,
    )
    # within: Massachusetts 4, then Virginia 2, then Boston 1; Norfolk by the second
    assert chosen == ["Massachusetts", "Virginia", "Boston", "Norfolk"]
    assert [step.rule for step in trace.steps] == ["8.1.3"] * 4
    limited = select_spaces(state, ["Boston", "Virginia"], [second], 1, Dice(0, 0), Trace())
    assert limited == ["Boston"]


def test_ties_broken_by_random_spaces() -> None:
    # 8.1.3: equal candidates by 8.2; a roll of column 3, row 5 reaches Boston first
    state = CoinState.new("lod")
    trace = Trace()
    every = Priority("every City", lambda s, x: True)
    chosen = select_spaces(state, ["Norfolk", "Boston"], [every], 1, Dice(2, 4), trace)
    assert chosen == ["Boston"]
    assert trace.steps[0].dice == (3, 5)
