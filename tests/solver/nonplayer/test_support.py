"""The Support Phase (6.4.1 Reward Loyalty, 6.4.2 Committees of Correspondence) and
the Non-player spending in it (8.4.5, 8.5.9): golden cases worked from the rule
text, the view against a brute force, and every Non-player spending legal."""

from __future__ import annotations

import itertools

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.winter import (
    SupportSpending,
    apply_support_spending,
    support_spending_refusal,
    support_view,
)
from legalis.solver.nonplayer.support import nonplayer_support
from legalis.solver.nonplayer.trace import Trace


def loyal(state: CoinState, *spaces: str) -> None:
    for space in spaces:
        state.move_pieces("Available", space, "british_regular", 1)
        state.move_pieces("Available", space, "tory", 1)


def test_reward_loyalty_counts_like_brute_force() -> None:
    # 6.4.1: in British Controlled spaces with a Regular and a Tory, each Resource
    # removes a Raid or Propaganda marker, then shifts a level, at most two
    state = CoinState.new("lod")
    state.set_track("british_resources", 3)
    loyal(state, "Virginia", "New York City")
    state.add_marker("Virginia", "raid")
    state.add_marker("Virginia", "propaganda")
    state.set_support("New York City", "passive_support")  # room for one level
    brute = set()
    per_space = {
        "Virginia": [((), 0)]
        + [
            (tuple(r for r in (("Virginia", "propaganda", p), ("Virginia", "raid", r)) if r[2]), lv)
            for p, r, lv in itertools.product((0, 1), (0, 1), (0, 1, 2))
            if (p + r + lv) and (lv == 0 or p + r == 2)
        ],
        "New York City": [((), 0), ((), 1)],
    }
    for (v_taken, v_lv), (n_taken, n_lv) in itertools.product(*per_space.values()):
        shifted = tuple(sorted(s for s in (("Virginia", v_lv), ("New York City", n_lv)) if s[1]))
        move = SupportSpending("british", tuple(sorted(v_taken + n_taken)), shifted)
        if move.cost <= 3:
            brute.add(move)
    view = support_view(state, "british")
    assert set(view) == brute and view.count() == len(brute)
    assert all(support_spending_refusal(state, m) is None for m in view)


def test_markers_go_before_levels_and_the_bill() -> None:
    # 6.4.1: no shift while a marker remains; the cost is one per marker and level
    state = CoinState.new("lod")
    state.set_track("british_resources", 2)
    loyal(state, "Virginia")
    state.add_marker("Virginia", "raid")
    early = SupportSpending("british", shifted=(("Virginia", 1),))
    assert support_spending_refusal(state, early) is not None
    move = SupportSpending("british", (("Virginia", "raid", 1),), (("Virginia", 1),))
    after, log = apply_support_spending(state, move)
    assert after.markers("Virginia", "raid") == 0
    assert after.support("Virginia") == "passive_support"
    assert after.track("british_resources") == 0 and log[0].startswith("6.4.1")
    dear = SupportSpending("british", (("Virginia", "raid", 1),), (("Virginia", 2),))
    assert support_spending_refusal(state, dear) is not None  # costs 3 of 2
    # 6.4.1: not without a Tory
    state.move_pieces("Virginia", "Available", "tory", 1)
    assert support_spending_refusal(state, move) is not None


def test_committees_of_correspondence_remove_raids_only() -> None:
    # 6.4.2: Rebellion Control with Patriot pieces; Raid markers go first, Propaganda
    # stays; shifts toward Active Opposition
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 3)
    state.move_pieces("Available", "Virginia", "militia", 1)
    state.add_marker("Virginia", "raid")
    state.add_marker("Virginia", "propaganda")
    move = SupportSpending("patriots", (("Virginia", "raid", 1),), (("Virginia", 2),))
    after, _ = apply_support_spending(state, move)
    assert after.support("Virginia") == "active_opposition"
    assert after.markers("Virginia", "propaganda") == 1


def test_british_nonplayer_fewest_markers_then_largest_change() -> None:
    # 8.4.5: fewest Raid and Propaganda markers first; never a space where only
    # markers would go. With 3 Resources New York takes 2 levels; Virginia would need
    # its marker and a level (2) with 1 left: skipped
    state = CoinState.new("lod")
    state.set_track("british_resources", 3)
    loyal(state, "Virginia", "New York")
    state.add_marker("Virginia", "raid")
    trace = Trace()
    spending = nonplayer_support(state, "british", LoggedRandom(0), trace)
    assert spending == SupportSpending("british", shifted=(("New York", 2),))
    assert trace.steps[0].rule == "8.4.5"
    assert support_spending_refusal(state, spending) is None


def test_patriot_nonplayer_largest_change_in_opposition() -> None:
    # 8.5.9: within the fewest Raid markers, the largest change in (Opposition -
    # Support): Virginia (population 2) before Georgia (population 1)
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 2)
    for space in ("Virginia", "Georgia"):
        state.move_pieces("Available", space, "militia", 1)
    spending = nonplayer_support(state, "patriots", LoggedRandom(0), Trace())
    assert spending == SupportSpending("patriots", shifted=(("Virginia", 2),))


def test_nonplayer_spending_is_always_legal() -> None:
    for seed in range(20):
        state = CoinState.new("lod")
        rng = LoggedRandom(seed)
        for faction in ("british", "patriots"):
            state.set_track(f"{faction}_resources", rng.randrange(6))
        for space in state.rules.map.of_type("Colony")[: 2 + rng.randrange(6)]:
            if rng.randrange(2):
                loyal(state, space)
            else:
                state.move_pieces("Available", space, "militia", 1)
            if rng.randrange(2):
                state.add_marker(space, "raid")
        for faction in ("british", "patriots"):
            spending = nonplayer_support(state, faction, LoggedRandom(seed), Trace())
            assert spending in set(support_view(state, faction))
