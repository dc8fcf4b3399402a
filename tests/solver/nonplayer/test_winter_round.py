"""A whole Winter Quarters Round with Non-players (chapter 6, 8.4.5-8.7.7)."""

from __future__ import annotations

import pytest
from legalis.model.coin.scenarios import scenario_info
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError
from legalis.model.lod.victory import final_ranking
from legalis.solver.nonplayer.winter_round import winter_quarters_round


@pytest.mark.parametrize("scenario", ["1775", "1776", "1778"])
def test_a_nonplayer_round_runs_every_phase_and_replays(scenario: str) -> None:
    info = scenario_info("lod", scenario)
    state = info.state
    state.set_track("british_resources", 6)
    year = int(scenario)
    done = winter_quarters_round(state, LoggedRandom(7), year=year, releases=info.releases,
                                 leader_change_faction="british")  # fmt: skip
    again = winter_quarters_round(state, LoggedRandom(7), year=year, releases=info.releases,
                                  leader_change_faction="british")  # fmt: skip
    assert done.state == again.state and done.log == again.log
    assert done.state.invariant_problems() == []
    if done.outcome == "continue":
        rules = {line.split(":")[0].split(" ")[0] for line in done.log}
        # 6.1 checked, 6.3 earnings, 6.5.3 release, 6.7 reset all logged in one round
        assert {"6.1", "6.3.1", "6.5.3"} <= rules
        # 6.7: every Militia and War Party Underground at the end of the round
        assert all(done.state.pieces(s, "militia", "active") == 0 for s in state.rules.spaces)


def test_the_final_round_ends_after_the_support_phase() -> None:
    # 6.4.3: the final round stops after Support; victory by 7.3
    info = scenario_info("lod", "1775")
    done = winter_quarters_round(info.state, LoggedRandom(1), year=1775, final=True)
    assert done.outcome == "final" and done.winners == final_ranking(done.state)
    assert not any(line.startswith("6.5") or line.startswith("6.7") for line in done.log)


def test_played_factions_need_a_chooser() -> None:
    info = scenario_info("lod", "1775")
    with pytest.raises(InputError, match="chooser"):
        winter_quarters_round(info.state, LoggedRandom(1), year=1775, players=["british"])
