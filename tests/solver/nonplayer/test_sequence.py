"""8.1 and 8.3.7: how much of a Command a Non-player executes, paying, the Treaty of
Alliance timing, Leader movement and Brilliant Strokes."""

from __future__ import annotations

import random

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.commands import Command, command_view
from legalis.solver.nonplayer.sequence import (
    CommandScope,
    ResourcePurse,
    SequenceOptions,
    command_scope,
    first_affordable,
    involves_leader,
    involves_space,
    leader_follows,
    plays_treaty,
    treaty_score,
)
from legalis.solver.nonplayer.trace import Trace


def test_treaty_needs_a_score_over_15_eligibility_and_no_winter_quarters() -> None:
    # 8.1: Squadrons in WI + Available French Regulars + half the CBC must exceed 15
    state = CoinState.new("lod")
    regulars = state.available("french_regular")
    state.set_track("cbc", 2 * (15 - regulars))  # exactly 15: not enough
    assert treaty_score(state) == 15
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=False)
    state.move_marker("Unavailable", "West Indies", "blockade")  # a Squadron: 16
    trace = Trace()
    assert plays_treaty(state, eligible=True, winter_quarters_showing=False, trace=trace)
    assert trace.steps[0].chosen == "play" and "score 16" in trace.steps[0].what
    assert not plays_treaty(state, eligible=False, winter_quarters_showing=False)
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=True)
    state.set_flag("toa_played")
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=False)


def test_treaty_half_of_an_odd_cbc_counts_unless_rounded_down() -> None:
    # 8.1: "half of Cumulative British Casualties": an odd CBC adds a half, and
    # 15.5 exceeds 15 (treaty_half_rounding="none", the text); "down" floors it to 15
    state = CoinState.new("lod")
    state.set_track("cbc", 2 * (15 - state.available("french_regular")) + 1)
    trace = Trace()
    assert treaty_score(state) == 15.5
    assert plays_treaty(state, eligible=True, winter_quarters_showing=False, trace=trace)
    assert "score 15.5" in trace.steps[0].what
    floored = SequenceOptions(treaty_half_rounding="down")
    assert treaty_score(state, floored) == 15
    assert not plays_treaty(state, eligible=True, winter_quarters_showing=False, options=floored)


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


def test_limited_commands_become_full_but_event_limcoms_stay_limited() -> None:
    # 8.1 Commands Not Limited: a LimCom due by the sequence of play is a full Command
    # with a Special Activity; a free LimCom from an Event stays one space, no SA
    trace = Trace()
    full = command_scope(limited_by_sequence=True, free_by_event=False,
                         event_grants_special=False, trace=trace)  # fmt: skip
    assert full == CommandScope(limited=False, special_activity=True, free=False)
    from_event = command_scope(limited_by_sequence=False, free_by_event=True,
                               event_grants_special=True, trace=trace)  # fmt: skip
    assert from_event == CommandScope(limited=True, special_activity=True, free=True)
    assert [step.rule for step in trace.steps] == ["8.1", "8.1"]


def test_a_command_that_cannot_be_paid_falls_through() -> None:
    # 8.1 Paying Resource Costs: the French cannot Muster with 1 Resource (it costs
    # 2, 3.5.3) and go on down the flowchart; nor can the Indians Scout when the
    # British cannot pay their share (3.4.3)
    state = load_scenario("lod", "1778")
    state.set_track("french_resources", 1)
    trace = Trace()
    assert first_affordable(state, "french", ["muster", "march"], trace) == "march"
    assert trace.steps[0].chosen is None and "muster" in trace.steps[0].what
    state.set_track("indians_resources", 5)
    state.set_track("british_resources", 0)
    assert first_affordable(state, "indians", ["scout", "gather"], Trace()) == "gather"
    state.set_track("british_resources", 1)
    assert first_affordable(state, "indians", ["scout", "gather"], Trace()) == "scout"
    state.set_track("indians_resources", 0)
    state.set_track("french_resources", 0)
    assert first_affordable(state, "french", ["muster", "battle"], Trace()) is None


def test_the_purse_stops_the_selection_where_resources_end() -> None:
    # 8.1: pay as each space is selected; a free Command never runs short (3.1.2)
    state = load_scenario("lod", "1775")
    purse = ResourcePurse(state, "british", free=False)
    taken = 0
    while purse.take():
        taken += 1
    assert taken == state.track("british_resources") == purse.spent
    free = ResourcePurse(state, "british", free=True)
    assert all(free.take(2) for _ in range(50)) and free.spent == 0


def test_a_limited_command_involves_the_leader_in_or_from_its_space() -> None:
    # 8.3.7: the first Limited Command of a Brilliant Stroke must involve the
    # Leader: a March from Gage's Boston does, one elsewhere does not
    state = load_scenario("lod", "1775")
    state.set_leader("Gage", "Boston")
    march = command_view(state, "british", "march", limited=True)
    with_gage = next(m for m in march if any(o == "Boston" for o, *_ in m.moves))
    without = next(m for m in march if not any("Boston" in (o, d) for o, d, *_ in m.moves)
                   and "Boston" not in m.spaces)  # fmt: skip
    assert involves_leader(state, "british", with_gage)
    assert not involves_leader(state, "british", without)
    assert involves_space(Command("british", "battle", ("Boston",)), "Boston")
