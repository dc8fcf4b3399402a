"""Leader Redeployment (6.5.2), French Naval Intervention (6.5.4) and the Non-player
choices (8.4.9, 8.5.6, 8.6.9, 8.7.7): golden cases worked from the rule text."""

from __future__ import annotations

import pytest
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.winter import (
    NavalWithdrawal,
    apply_naval_withdrawal,
    leader_redeployments,
    naval_withdrawal_refusal,
    naval_withdrawals,
    redeploy_leader,
)
from legalis.solver.nonplayer.redeploy import (
    nonplayer_naval_withdrawal,
    nonplayer_redeploy,
    nonplayer_redeployments,
)
from legalis.solver.nonplayer.trace import Trace


def put(state: CoinState, space: str, piece: str, n: int) -> None:
    state.move_pieces("Available", space, piece, n)


def test_a_leader_goes_to_its_pieces_or_available() -> None:
    # 6.5.2: a space with the same Faction's pieces, or Available
    state = CoinState.new("lod")
    state.set_leader("Gage", "Boston")
    put(state, "New York City", "tory", 1)
    assert leader_redeployments(state, "british") == ["Available", "Boston", "New York City"]
    with pytest.raises(IllegalMoveError) as refused:
        redeploy_leader(state, "british", "Virginia")
    assert refused.value.rule == "6.5.2"
    assert leader_redeployments(state, "french") == []  # no French Leader in play


def test_british_and_patriot_leaders_follow_their_largest_stacks() -> None:
    # 8.4.9: the space with most British Regulars; 8.5.6: most Continentals
    state = CoinState.new("lod")
    state.set_leader("Howe", "Boston")
    put(state, "Boston", "british_regular", 1)
    put(state, "Philadelphia", "british_regular", 4)
    put(state, "New York City", "tory", 6)
    assert nonplayer_redeploy(state, "british", LoggedRandom(0), Trace()) == "Philadelphia"
    state.set_leader("Washington", "Massachusetts")
    put(state, "Massachusetts", "continental", 1)
    put(state, "New Jersey", "continental", 3)
    assert nonplayer_redeploy(state, "patriots", LoggedRandom(0), Trace()) == "New Jersey"


def test_french_leader_prefers_regulars_with_continentals() -> None:
    # 8.6.9: a space with both French Regulars and Continentals if possible, within
    # that the most French Regulars
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_leader("Rochambeau", "Virginia")
    put(state, "Virginia", "french_regular", 5)
    put(state, "Boston", "french_regular", 2)
    put(state, "Boston", "continental", 1)
    put(state, "New Jersey", "french_regular", 1)
    put(state, "New Jersey", "continental", 4)
    trace = Trace()
    assert nonplayer_redeploy(state, "french", LoggedRandom(0), trace) == "Boston"
    assert trace.steps[0].rule == "8.6.9"


def test_indian_leaders() -> None:
    # 8.7.7: Brant to the most War Parties; Cornplanter to a Neutral or Passive
    # Province with two or more War Parties and room for a Village
    state = CoinState.new("lod")
    state.set_leader("Brant", "Quebec")
    put(state, "Quebec", "war_party", 1)
    put(state, "Northwest", "war_party", 4)
    put(state, "Virginia", "war_party", 2)
    assert nonplayer_redeploy(state, "indians", LoggedRandom(0), Trace()) == "Northwest"
    state.set_leader("Brant", None)
    state.set_leader("Cornplanter", "Quebec")
    state.set_support("Northwest", "neutral")
    put(state, "Northwest", "village", 2)  # no room for a Village (1.4.2)
    assert nonplayer_redeploy(state, "indians", LoggedRandom(0), Trace()) == "Virginia"
    state.set_support("Virginia", "active_opposition")  # no longer Neutral or Passive
    assert nonplayer_redeploy(state, "indians", LoggedRandom(0), Trace()) == "Northwest"


def test_redeployment_order_and_players_left_alone() -> None:
    # 6.5.2: Indians, French, British, Patriots; a player's Leader is not moved here
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_leader("Gage", "Boston")
    state.set_leader("Brant", "Quebec")
    state.set_leader("Washington", "Massachusetts")
    put(state, "Philadelphia", "british_regular", 2)
    put(state, "Northwest", "war_party", 2)
    put(state, "New Jersey", "continental", 2)
    trace = Trace()
    after, log = nonplayer_redeployments(state, {"british", "indians"}, LoggedRandom(0), trace)
    assert (after.leader("Gage"), after.leader("Brant")) == ("Philadelphia", "Northwest")
    assert after.leader("Washington") == "Massachusetts"
    assert [line.split()[1] for line in log] == ["Brant", "Gage"]


def blockaded(*cities: str) -> CoinState:
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("fni", len(cities))
    for city in cities:
        state.move_marker("Unavailable", city, "blockade", 1)
    return state


def test_french_naval_intervention_step() -> None:
    # 6.5.4: FNI one level lower, one Blockade to the West Indies, the rest rearranged
    state = blockaded("Boston", "New York City")
    moves = naval_withdrawals(state)
    # either City withdraws; the other Blockade goes on any of the seven Cities
    assert len(moves) == 2 * 7 == len(set(moves))
    assert all(naval_withdrawal_refusal(state, m) is None for m in moves)
    after, log = apply_naval_withdrawal(state, NavalWithdrawal("Boston", (("Norfolk", 1),)))
    assert after.track("fni") == 1 and after.markers(WEST_INDIES, "blockade") == 1
    assert [after.markers(c, "blockade") for c in ("Boston", "New York City", "Norfolk")] == [
        0, 0, 1,
    ]  # fmt: skip
    assert log[0].startswith("6.5.4")
    wrong = NavalWithdrawal("Boston", (("Norfolk", 2),))
    assert (naval_withdrawal_refusal(state, wrong) or pytest.fail()).rule == "6.5.4"
    assert naval_withdrawal_refusal(state, NavalWithdrawal("Norfolk", (("Boston", 1),)))
    state.set_flag("toa_played", False)
    assert naval_withdrawals(state) == []


def test_french_nonplayer_withdraws_from_least_support_and_covers_most() -> None:
    # 8.6.9: the Blockade leaves the City with least Support; the others go to the
    # Cities with most Support
    state = blockaded("Boston", "Philadelphia", "Savannah")
    state.set_support("Philadelphia", "passive_support")  # 1 x 1
    state.set_support("Savannah", "active_support")  # 2 x 1
    state.set_support("New York City", "active_support")  # 2 x 2
    trace = Trace()
    move = nonplayer_naval_withdrawal(state, LoggedRandom(0), trace)
    assert move == NavalWithdrawal("Boston", (("New York City", 1), ("Savannah", 1)))
    assert move in naval_withdrawals(state)
    assert {step.rule for step in trace.steps} == {"8.6.9"}
