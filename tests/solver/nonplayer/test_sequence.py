"""8.1: the Non-player French's Treaty of Alliance timing and Leader movement."""

from __future__ import annotations

import random

import pytest
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.nonplayer.sequence import leader_follows, plays_treaty, treaty_score
from legalis.solver.nonplayer.trace import Trace


def test_treaty_needs_a_score_over_15_eligibility_and_no_winter_quarters() -> None:
    # 8.1: Squadrons in WI + Available French Regulars + half the CBC must exceed 15
    state = CoinState.new("lod")
    regulars = state.available("french_regular")
    state.set_track("cbc", 2 * (15 - regulars))  # exactly 15: not enough
    assert treaty_score(state) == 15
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=False)
    state.set_track("cbc", 2 * (15 - regulars) + 1)  # half rounds down: still 15
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=False)
    state.move_marker("Unavailable", "West Indies", "blockade")  # a Squadron: 16
    trace = Trace()
    assert plays_treaty(state, eligible=True, winter_quarters_showing=False, trace=trace)
    assert trace.steps[0].chosen == "play" and "score 16" in trace.steps[0].what
    assert not plays_treaty(state, eligible=False, winter_quarters_showing=False)
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=True)
    state.set_flag("toa_played")
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=False)


def test_leader_follows_the_largest_group_random_among_equals() -> None:
    # 8.1: the largest group; equal ones by a random draw from the injected source
    trace = Trace()
    assert leader_follows({"Boston": 2, "stay": 4}, random.Random(0), trace) == "stay"
    seen = set()
    for seed in range(40):
        rng = LoggedRandom(seed)
        chosen = leader_follows({"Boston": 3, "stay": 3, "Quebec": 1}, rng, Trace())
        assert chosen in {"Boston", "stay"}
        seen.add(chosen)
        again = leader_follows({"Boston": 3, "stay": 3, "Quebec": 1}, LoggedRandom(seed), Trace())
        assert again == chosen  # a seed replays
    assert seen == {"Boston", "stay"}
    with pytest.raises(ValueError):
        leader_follows({}, random.Random(0), trace)
