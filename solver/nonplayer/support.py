"""Non-player spending in the Support Phase (6.4): the British Reward Loyalty
(8.4.5) and the Patriots' Committees of Correspondence (8.5.9), each to the most
extent its Resources allow (8.1.1), space after space by the paragraph's
priorities, ties by the Random Spaces table (8.2).

>>> from legalis.model.core.randomness import LoggedRandom
>>> state = CoinState.new("lod")
>>> state.set_track("british_resources", 5)
>>> for space in ("Virginia", "New York"):
...     state.move_pieces("Available", space, "british_regular", 1)
...     state.move_pieces("Available", space, "tory", 1)
>>> state.add_marker("Virginia", "raid")
>>> nonplayer_support(state, "british", LoggedRandom(0), Trace()).shifted
(('New York', 2), ('Virginia', 2))
"""

from __future__ import annotations

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.winter import SUPPORT_ACTIONS, SupportSpending, support_options
from legalis.solver.nonplayer.spaces import Priority, select_spaces
from legalis.solver.nonplayer.trace import Trace

__all__ = ["nonplayer_support", "spending_priority"]

_RULES = {"british": "8.4.5", "patriots": "8.5.9"}


def _best(state: CoinState, faction: str, space: str, left: int) -> tuple[int, int] | None:
    """The most this space can take with ``left`` Resources (8.1.1): (markers,
    levels), or None when only markers would go (8.4.5, 8.5.9 exclude that)."""
    full = [(taken, levels, cost) for taken, levels, cost in support_options(state, faction, space)
            if levels and cost <= left]  # fmt: skip
    if not full:
        return None
    taken, levels, _ = max(full, key=lambda option: option[1])
    return sum(n for _, _, n in taken), levels


def _gain(state: CoinState, faction: str, space: str, levels: int) -> int:
    """The change of (Support - Opposition), or its opposite for the Patriots, that
    shifting ``levels`` makes (a Blockaded City counts population 0, 1.6)."""
    direction = SUPPORT_ACTIONS[faction][1]
    after = state.copy()
    after.shift_support(space, direction * levels)

    def lead(s: CoinState) -> int:
        return s.total_support() - s.total_opposition()

    return direction * (lead(after) - lead(state))


def spending_priority(
    rule: str,
    kinds: tuple[str, ...],
    fewest: int,
    best_of: dict[str, tuple[int, int]],
    faction: str,
) -> Priority:
    """8.4.5 / 8.5.9: among spaces with ``fewest`` markers to remove, the largest
    change in (Support - Opposition) for the British, its opposite for the Patriots,
    given each space's (markers, levels) in ``best_of``; shared by the Support Phase
    and the Reward Loyalty of a Non-player Muster.

    >>> spending_priority("8.4.5", ("raid",), 0, {}, "british").rule
    '8.4.5'
    """
    return Priority(
        "fewest markers, then the largest change",
        lambda st, x: sum(st.markers(x, m) for m in kinds) == fewest,
        lambda st, x: _gain(st, faction, x, best_of[x][1]),
        rule=rule,
    )


def nonplayer_support(
    state: CoinState, faction: str, rng: LoggedRandom, trace: Trace
) -> SupportSpending:
    """The Non-player's Support Phase spending: spaces with the fewest markers to
    remove first (Raid and Propaganda for the British, Raid for the Patriots), within
    that the largest change of (Support - Opposition) for the British, (Opposition -
    Support) for the Patriots; never a space where only markers would go; each
    space to the most its Resources allow."""
    rule = _RULES[faction]
    kinds = SUPPORT_ACTIONS[faction][0]
    left = state.track(f"{faction}_resources")
    removed: list[tuple[str, str, int]] = []
    shifted: list[tuple[str, int]] = []
    remaining = sorted(state.rules.spaces)
    while True:
        best_of = {
            s: best for s in remaining if (best := _best(state, faction, s, left)) is not None
        }
        pool = sorted(best_of)
        if not pool:
            break
        fewest = min(sum(state.markers(s, m) for m in kinds) for s in pool)
        priority = spending_priority(rule, kinds, fewest, best_of, faction)
        (space,) = select_spaces(state, pool, [priority], 1, rng, trace)
        markers, levels = best_of[space]
        removed += [(space, m, state.markers(space, m)) for m in kinds if state.markers(space, m)]
        shifted.append((space, levels))
        left -= markers + levels
        remaining.remove(space)
    return SupportSpending(faction, tuple(sorted(removed)), tuple(sorted(shifted)))
