"""Parts of the Non-player sequence of play (8.1) that stand on their own: when a
Non-player French plays the Treaty of Alliance, and which group a Non-player
Leader follows. Each records its decision in the :class:`~.trace.Trace`.

>>> from legalis.model.coin.state import CoinState
>>> import random
>>> trace = Trace()
>>> leader_follows({"Boston": 3, "stay": 2, "New York": 1}, random.Random(2), trace)
'Boston'
>>> trace.steps[0].rule
'8.1'
"""

from __future__ import annotations

from collections.abc import Mapping

from legalis.model.coin.state import CoinState
from legalis.model.core.views import RandomSource
from legalis.solver.nonplayer.trace import Trace

__all__ = ["TREATY_THRESHOLD", "leader_follows", "plays_treaty", "treaty_score"]

TREATY_THRESHOLD = 15  # 8.1 Brilliant Strokes: the sum must exceed 15


def treaty_score(state: CoinState) -> int:
    """8.1: Squadrons in the West Indies + Available French Regulars + half the
    Cumulative British Casualties (rounded down).

    >>> state = CoinState.new("lod")
    >>> state.set_track("cbc", 5)
    >>> treaty_score(state) == state.available("french_regular") + 2
    True
    """
    squadrons = state.markers("West Indies", "blockade")
    return squadrons + state.available("french_regular") + state.track("cbc") // 2


def plays_treaty(
    state: CoinState,
    *,
    eligible: bool,
    winter_quarters_showing: bool,
    trace: Trace | None = None,
) -> bool:
    """8.1: a Non-player French plays the Treaty of Alliance as soon as it is
    Eligible (1st or 2nd Eligible or not), the score of :func:`treaty_score` exceeds
    15, and no Winter Quarters card is showing; never once it has been played.

    >>> state = CoinState.new("lod")
    >>> plays_treaty(state, eligible=True, winter_quarters_showing=False)
    False
    >>> state.set_track("cbc", 40)
    >>> plays_treaty(state, eligible=True, winter_quarters_showing=False)
    True
    """
    score = treaty_score(state)
    plays = (
        not state.flag("toa_played")
        and eligible
        and not winter_quarters_showing
        and score > TREATY_THRESHOLD
    )
    if trace is not None:
        why = (
            f"score {score} (Squadrons in WI + Available French Regulars + CBC/2), "
            f"eligible {eligible}, Winter Quarters showing {winter_quarters_showing}"
        )
        trace.step("8.1", f"Treaty of Alliance: {why}", ["play", "hold"],
                   "play" if plays else "hold")  # fmt: skip
    return plays


def leader_follows(groups: Mapping[str, int], rng: RandomSource, trace: Trace) -> str:
    """8.1 Non-player Leader Movement: the Leader goes with the largest group of its
    own Faction's units moving from (or staying in) its space; ``groups`` maps each
    destination (or ``"stay"``) to the group's size. Equal largest groups: a random
    one, from the injected source.
    """
    if not groups:
        raise ValueError("no group to follow")
    largest = max(groups.values())
    tied = sorted(g for g, size in groups.items() if size == largest)
    chosen = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
    how = "the largest group" + (f", random among {len(tied)} equal" if len(tied) > 1 else "")
    trace.step("8.1", f"Leader follows {how}", sorted(groups), chosen)
    return chosen
