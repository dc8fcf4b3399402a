"""LoD victory (chapter 7) and one-player victory (8.8): golden cases worked from
the rule text."""

from __future__ import annotations

import pytest
from legalis.model.coin.state import CoinState
from legalis.model.errors import InputError
from legalis.model.lod.victory import (
    OnePlayerOptions,
    check_margins,
    check_winners,
    final_ranking,
    one_player_check,
    one_player_final,
    total_margins,
)


def support(state: CoinState, level: str, *spaces: str) -> None:
    for space in spaces:
        state.set_support(space, level)


def test_british_need_support_over_opposition_by_more_than_ten() -> None:
    # 7.2: British: Support exceeds Opposition by more than 10 and CRC > CBC
    state = CoinState.new("lod")
    support(state, "active_support", "Boston", "New York City", "Philadelphia",
            "Charles Town", "Norfolk")  # fmt: skip
    assert state.total_support() - state.total_opposition() == 12
    assert check_margins(state)["british"] == (2, 0)
    assert check_winners(state) == []  # CRC is not greater than CBC
    state.set_track("crc", 2)
    assert check_winners(state) == ["british"]  # the Indians lack Villages
    state.set_support("Norfolk", "neutral")  # lead 10: not "more than 10"
    assert check_margins(state)["british"] == (0, 2) and check_winners(state) == []


def test_indians_need_villages_over_forts_plus_three() -> None:
    # 7.2: Indians: Support exceeds Opposition by more than 10 and Villages - 3 > Forts
    state = CoinState.new("lod")
    support(state, "active_support", "Boston", "New York City", "Philadelphia",
            "Charles Town", "Norfolk")  # fmt: skip
    for space in ("Quebec", "Northwest", "Southwest", "Florida"):
        state.move_pieces("Available", space, "village", 1)
    assert check_margins(state)["indians"] == (2, 1)
    assert "indians" in check_winners(state)
    state.move_pieces("Available", "Virginia", "patriot_fort", 1)
    assert check_margins(state)["indians"] == (2, 0)
    assert "indians" not in check_winners(state)


def test_final_margins_net_both_conditions() -> None:
    # 7.3: British S - O + CRC - CBC; Patriots O - S + Forts + 3 - Villages;
    # French O - S + CBC - CRC; Indians S - O + Villages - 3 - Forts
    state = CoinState.new("lod")
    support(state, "active_support", "New York City")  # Support 4
    support(state, "passive_opposition", "Virginia")  # Opposition 2 (population 2)
    state.set_track("crc", 5)
    state.set_track("cbc", 2)
    state.move_pieces("Available", "Quebec", "village", 2)
    state.move_pieces("Available", "Virginia", "patriot_fort", 1)
    assert (state.total_support(), state.total_opposition()) == (4, 2)
    assert total_margins(state) == {
        "british": 4 - 2 + 5 - 2,
        "patriots": 2 - 4 + 1 + 3 - 2,
        "french": 2 - 4 + 2 - 5,
        "indians": 4 - 2 + 2 - 3 - 1,
    }


def test_final_ranking_ties_and_the_french_without_the_treaty() -> None:
    # 7.1: ties to Non-players, then Patriots, British, French, Indians; without the
    # Treaty of Alliance the French are last whatever their margin
    state = CoinState.new("lod")
    state.move_pieces("Available", "Quebec", "village", 3)  # Indians 0, Patriots 0
    state.set_track("cbc", 3)  # French 3, British -3
    assert total_margins(state) == {"british": -3, "patriots": 0, "french": 3, "indians": 0}
    assert final_ranking(state) == ["patriots", "indians", "british", "french"]
    assert final_ranking(state, ["patriots"]) == ["indians", "patriots", "british", "french"]
    state.set_flag("toa_played")
    assert final_ranking(state)[0] == "french"


def test_one_player_victory_phase() -> None:
    # 8.8: a Non-player passing a Victory Check wins; the lone player never wins then
    state = CoinState.new("lod")
    support(state, "active_opposition", "Boston", "New York City", "Philadelphia",
            "Charles Town", "Norfolk")  # fmt: skip
    assert check_winners(state) == ["patriots"]
    as_patriots = one_player_check(state, ["patriots"], round_number=1)
    assert as_patriots.outcome == "continue"
    lost = one_player_check(state, ["british"], round_number=1)
    assert (lost.outcome, lost.winner) == ("nonplayer", "patriots")


def test_one_player_difficulty_option_from_the_second_round() -> None:
    # 8.8 Difficulty: from the second Winter Quarters Round, no player margin may be
    # lower than a Non-player's at a Victory Phase
    state = CoinState.new("lod")  # totals: British 0, Patriots 3, French 0, Indians -3
    hard = OnePlayerOptions(difficulty=True)
    assert one_player_check(state, ["british"], round_number=1, options=hard).outcome == "continue"
    behind = one_player_check(state, ["british"], round_number=2, options=hard)
    assert (behind.outcome, behind.winner, behind.lead) == ("nonplayer", "patriots", -3)
    assert one_player_check(state, ["british"], round_number=2).outcome == "continue"
    # the lower of the two Victory Check margins instead: British min(-10, 0) = -10,
    # best Non-player min(-10, 3) for the Patriots = -10: not behind
    lower = OnePlayerOptions(difficulty=True, margin="lower")
    level = one_player_check(state, ["british"], round_number=2, options=lower)
    assert (level.outcome, level.lead) == ("continue", 0)


@pytest.mark.parametrize(
    ("cbc", "outcome"),
    [(3, "nonplayer"), (4, "stalemate"), (8, "stalemate"), (9, "player")],
)
def test_one_player_final_bands(cbc: int, outcome: str) -> None:
    # 8.8: the lowest player margin less the highest Non-player one: 1 to 5 a
    # stalemate, 6 or more a victory. With Opposition 4, the player's French have
    # 4 + CBC; the best Non-player, the Patriots, 4 + 3: a lead of CBC - 3
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("cbc", cbc)
    support(state, "active_opposition", "New York City")  # Opposition 4
    margins = total_margins(state)
    assert margins["french"] == 4 + cbc and margins["patriots"] == 4 + 3
    result = one_player_final(state, ["french"])
    best = max(margins[f] for f in ("british", "patriots", "indians"))
    assert result.lead == margins["french"] - best == cbc - 3
    assert result.outcome == outcome


def test_two_factions_use_the_lower_margin_and_ties_among_nonplayers() -> None:
    # 8.8: a player with both Rebellion Factions uses the lower margin; Non-player ties
    # go to the French, then the Indians, then the Patriots
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.move_pieces("Available", "Quebec", "village", 3)  # Patriots 0, Indians 0
    result = one_player_final(state, ["patriots", "french"])
    assert (result.winner, result.lead) == ("indians", 0)  # British 0 too: Indians first
    alone = one_player_final(state, ["british"])
    assert alone.winner == "french"  # French, Indians and Patriots all at 0
    with pytest.raises(InputError):
        one_player_final(state, ["british", "patriots"])
    with pytest.raises(InputError):
        one_player_final(state, ["spain"])
