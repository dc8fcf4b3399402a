"""Where a Non-player acts: "most Support" (8.1.1), the Random Spaces table (8.2)
and space selection by priority lists (8.1.3).

Every pick is written to a :class:`~legalis.solver.nonplayer.trace.Trace` with the
paragraph that decided it and the dice rolled for it.

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.model.coin.state import CoinState
>>> trace = Trace()
>>> state = CoinState.new("lod")
>>> space = random_space(state, ["Boston", "Georgia"], LoggedRandom(1), trace)
>>> space in ("Boston", "Georgia"), trace.steps[0].rule, len(trace.steps[0].dice)
(True, '8.2', 2)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from legalis.model.coin.mapdata import RandomSpaces, load_random_spaces
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "Priority",
    "opposition_score",
    "random_space",
    "random_spaces_table",
    "roll_random_space",
    "select_spaces",
    "support_score",
]

RULE_MOST = "8.1.1"
RULE_RANDOM = "8.2"
RULE_SELECT = "8.1.3"


def _support_population(state: CoinState, space: str) -> int:
    """The population a space counts for Total Support: 0 when Blockaded (1.9)."""
    data = state.rules.data
    for marker in data.markers:
        if getattr(marker, "blocks_support", False) and state.markers(space, marker.id):
            return 0
    return state.rules.map.population(space)


def support_score(state: CoinState, space: str) -> int:
    """What ``space`` adds to Total Support: its Support level times its Population
    (8.1.1 "most Support"); 0 at Neutral or Opposition.

    >>> state = CoinState.new("lod")
    >>> state.set_support("Virginia", "active_support")
    >>> support_score(state, "Virginia"), opposition_score(state, "Virginia")
    (4, 0)
    """
    value = state.support_value(space)
    return value * _support_population(state, space) if value > 0 else 0


def opposition_score(state: CoinState, space: str) -> int:
    """What ``space`` adds to Total Opposition: its Opposition level times its
    Population (8.1.1 "most Opposition"); 0 at Neutral or Support.

    >>> state = CoinState.new("lod")
    >>> state.set_support("Boston", "passive_opposition")
    >>> opposition_score(state, "Boston")
    1
    """
    value = state.support_value(space)
    return -value * state.rules.map.population(space) if value < 0 else 0


@cache
def random_spaces_table() -> RandomSpaces:
    """The LoD Random Spaces table (8.2), loaded once."""
    return load_random_spaces()


def roll_random_space(
    candidates: Iterable[str], rng: LoggedRandom, table: RandomSpaces | None = None
) -> tuple[str, tuple[int, int]]:
    """Roll 1D3 (column) and 1D6 (row) and walk the table to the first candidate (8.2).

    A box naming two spaces offers its top space first; when the space reached is
    not a candidate, the walk moves down the column and follows the arrows. A
    candidate that is not on the table (the West Indies) is reached only when no
    table space is a candidate, in name order (a fixed reading).

    Returns the space and the dice ``(column, row)``. Raises ``ValueError`` when
    there is no candidate.
    """
    wanted = set(candidates)
    if not wanted:
        raise ValueError("no candidate space to select from (8.2)")
    table = table or random_spaces_table()
    column = rng.randrange(table.columns) + 1
    row = rng.randrange(table.rows) + 1
    order = table.order(column, row)
    found = next((name for name in order if name in wanted), None)
    if found is None:
        found = sorted(wanted)[0]
    return found, (column, row)


def random_space(
    state: CoinState,
    candidates: Iterable[str],
    rng: LoggedRandom,
    trace: Trace,
    *,
    rule: str = RULE_RANDOM,
    what: str = "random space",
) -> str:
    """One of ``candidates`` by the Random Spaces table (8.2), traced with its dice.

    A single candidate is taken without rolling.
    """
    pool = sorted(set(candidates))
    if len(pool) == 1:
        trace.step(rule, what, pool, pool[0])
        return pool[0]
    space, dice = roll_random_space(pool, rng)
    trace.step(rule, what, pool, space, dice=dice)
    return space


@dataclass(frozen=True)
class Priority:
    """One priority of a Non-player flowchart box (8.1.3).

    ``test`` says whether a space is a candidate of this priority; ``within``, when
    given, orders its candidates (the highest key first, as a "within that ..."
    refinement); ``limit`` is a space limit of this priority alone; ``rule`` is the
    paragraph cited in the trace. :func:`select_spaces` asks ``test`` and
    ``within`` once per space: their answers must not change while it selects.
    """

    name: str
    test: Callable[[CoinState, str], bool]
    within: Callable[[CoinState, str], Hashable] | None = None
    limit: int | None = None
    rule: str = RULE_SELECT


def select_spaces(
    state: CoinState,
    candidates: Iterable[str],
    priorities: Sequence[Priority],
    limit: int | None,
    rng: LoggedRandom,
    trace: Trace,
) -> list[str]:
    """Spaces selected by priority lists (8.1.3), in the order they are selected.

    Each priority takes its candidates until none is left, its own limit or the
    overall ``limit`` is reached; then the next priority does the same. A space is
    selected once. Equal candidates are told apart by the Random Spaces table (8.2)
    unless the priority's ``within`` key orders them.

    >>> from legalis.model.core.randomness import LoggedRandom
    >>> state = CoinState.new("lod")
    >>> state.set_support("Boston", "active_opposition")
    >>> by_opposition = Priority("most Opposition", lambda s, x: True, opposition_score)
    >>> select_spaces(state, ["Boston", "Massachusetts"], [by_opposition], 1,
    ...               LoggedRandom(0), Trace())
    ['Boston']
    """
    remaining = list(dict.fromkeys(candidates))
    chosen: list[str] = []
    for priority in priorities:
        # The state does not change while selecting: each space's test and key are
        # read once per priority, and the pool only loses the spaces taken.
        pool: list[str] | None = None
        keys: dict[str, Hashable] = {}
        taken_here = 0
        while limit is None or len(chosen) < limit:
            if priority.limit is not None and taken_here >= priority.limit:
                break
            if pool is None:
                pool = [space for space in remaining if priority.test(state, space)]
                if priority.within is not None:
                    keys = {space: priority.within(state, space) for space in pool}
            if not pool:
                break
            what = priority.name
            if priority.within is not None:
                best = max(keys[space] for space in pool)  # type: ignore[type-var]
                tied = [space for space in pool if keys[space] == best]
                what = f"{priority.name} (within: highest)"
            else:
                tied = pool
            if len(tied) == 1:
                space = tied[0]
                trace.step(priority.rule, what, pool, space)
            else:
                space, dice = roll_random_space(tied, rng)
                trace.step(priority.rule, f"{what}; tie by 8.2", tied, space, dice=dice)
            chosen.append(space)
            remaining.remove(space)
            pool.remove(space)
            taken_here += 1
    return chosen
