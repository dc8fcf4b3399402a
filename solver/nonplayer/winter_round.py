"""A whole Liberty or Death Winter Quarters Round (chapter 6) with Non-players:
the Victory Check (6.1), Supply (6.2 with the West Indies Battle), Resources
(6.3), Support (6.4), Redeployment (6.5), Desertion (6.6) and Reset (6.7), in
order. Each choice is a legal move of the model's phase; a Non-player Faction's is
picked by its paragraph (8.4.5-8.4.10, 8.5.5-8.5.9, 8.6.7-8.6.10, 8.7.5-8.7.7),
a played Faction's by the :class:`WinterChooser` given.

>>> from legalis.model.coin.scenarios import scenario_info
>>> info = scenario_info("lod", "1775")
>>> done = winter_quarters_round(info.state, LoggedRandom(2), year=1775,
...                              releases=info.releases)
>>> released = [line for line in done.log if line.startswith("6.5.3")]
>>> done.outcome, released[0]
('continue', '6.5.3: 6 british_regular from Unavailable to Available')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from legalis.model.coin.scenarios import Release
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.core.views import Refusal
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.supply import (
    SupplyDecision,
    apply_supply,
    supply_refusal,
    supply_steps,
)
from legalis.model.lod.victory import (
    check_winners,
    final_ranking,
    one_player_check,
    one_player_final,
)
from legalis.model.lod.winter import (
    REDEPLOYMENT_ORDER,
    Desertion,
    NavalWithdrawal,
    SupportSpending,
    apply_desertion,
    apply_naval_withdrawal,
    apply_support_spending,
    british_release,
    desertion_refusal,
    desertion_steps,
    leader_change,
    leader_redeployments,
    naval_withdrawal_refusal,
    redeploy_leader,
    reset_phase,
    resources_phase,
    support_spending_refusal,
)
from legalis.solver.nonplayer.desertion import nonplayer_desertion
from legalis.solver.nonplayer.options import NonplayerOptions
from legalis.solver.nonplayer.redeploy import nonplayer_naval_withdrawal, nonplayer_redeploy
from legalis.solver.nonplayer.supply import SupplyChoiceOptions, nonplayer_supply
from legalis.solver.nonplayer.support import nonplayer_support
from legalis.solver.nonplayer.trace import Trace

__all__ = ["NonplayerWinter", "WinterChooser", "WinterRound", "winter_quarters_round"]


class WinterChooser(Protocol):
    """Who decides a Faction's choices in a Winter Quarters Round: each method
    returns that Faction's move for the phase."""

    def supply(self, state: CoinState, faction: str, step: str) -> SupplyDecision: ...

    def support(self, state: CoinState, faction: str) -> SupportSpending: ...

    def redeploy(self, state: CoinState, faction: str) -> str: ...

    def naval(self, state: CoinState) -> NavalWithdrawal: ...

    def desertion(self, state: CoinState, chooser: str, piece: str, n: int) -> Desertion: ...


@dataclass
class NonplayerWinter:
    """The Non-player choices of a Winter Quarters Round, by paragraph, with the
    dice and the trace they share."""

    rng: LoggedRandom
    trace: Trace
    supply_options: SupplyChoiceOptions = field(default_factory=SupplyChoiceOptions)

    def supply(self, state: CoinState, faction: str, step: str) -> SupplyDecision:
        return nonplayer_supply(state, faction, step, self.rng, self.trace, self.supply_options)

    def support(self, state: CoinState, faction: str) -> SupportSpending:
        return nonplayer_support(state, faction, self.rng, self.trace)

    def redeploy(self, state: CoinState, faction: str) -> str:
        return nonplayer_redeploy(state, faction, self.rng, self.trace)

    def naval(self, state: CoinState) -> NavalWithdrawal:
        return nonplayer_naval_withdrawal(state, self.rng, self.trace)

    def desertion(self, state: CoinState, chooser: str, piece: str, n: int) -> Desertion:
        return nonplayer_desertion(state, chooser, piece, n, self.rng, self.trace)


@dataclass
class WinterRound:
    """What a Winter Quarters Round did: the state after, a log line per step
    naming its rule, the Non-player trace, and ``outcome``: ``"continue"``, or the
    game's end (``"win"`` at a Victory Check, ``"final"`` after the last Round's
    Support Phase) with ``winners`` in rank order (one-player: the 8.8 result)."""

    state: CoinState
    log: list[str] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)
    outcome: str = "continue"
    winners: list[str] = field(default_factory=list)


def _check(refused: Refusal | None, what: str) -> None:
    """A Non-player's (or a person's) Winter move must be legal in its phase."""
    if refused is not None:
        raise IllegalMoveError(f"{what} refused: {refused.reason}", rule=refused.rule)


def winter_quarters_round(
    state: CoinState,
    rng: LoggedRandom,
    *,
    year: int,
    releases: Sequence[Release] = (),
    players: Sequence[str] = (),
    people: WinterChooser | None = None,
    leader_change_faction: str | None = None,
    round_number: int = 1,
    final: bool = False,
    options: NonplayerOptions | None = None,
    trace: Trace | None = None,
) -> WinterRound:
    """Run one Winter Quarters Round: ``year`` is the campaign just ended (for the
    British Release, 6.5.3), ``leader_change_faction`` the first Faction of the
    card on deck (6.5.1), ``players`` the Factions people play and ``people`` their
    choices (required when ``players`` is not empty), ``final`` the last Round
    (6.4.3: the game ends after the Support Phase). With players named, the
    Victory Checks are the one-player ones of 8.8. ``options``: the named readings
    (the supply paragraphs' and one-player victory's are read here).
    """
    humans = tuple(players)
    if humans and people is None:
        raise InputError("the played Factions need a chooser for their Winter choices",
                         path="people", allowed=list(humans))  # fmt: skip
    done = WinterRound(state, trace=trace or Trace())
    chosen = options or NonplayerOptions()
    one_player = chosen.one_player
    bots = NonplayerWinter(rng, done.trace, chosen.supply)

    def chooser(faction: str) -> WinterChooser:
        return people if faction in humans and people is not None else bots

    # 6.1 Victory Check
    if humans:
        checked = one_player_check(done.state, humans, round_number=round_number,
                                   options=one_player)  # fmt: skip
        done.log.append(f"6.1 ({checked.rule}): {checked.reason}")
        if checked.outcome != "continue":
            done.outcome, done.winners = "win", [str(checked.winner)]
            return done
    else:
        winners = check_winners(done.state)
        if winners:
            done.outcome = "win"
            done.winners = [f for f in final_ranking(done.state) if f in winners]
            done.log.append(f"6.1: {', '.join(done.winners)} meet their victory conditions (7.2)")
            return done
        done.log.append("6.1: no Faction meets its victory conditions (7.2)")
    # 6.2 Supply, with the West Indies Battle
    for faction, step in supply_steps(done.state):
        move = chooser(faction).supply(done.state, faction, step)
        _check(supply_refusal(done.state, move), f"{faction} supply")
        done.state, lines = apply_supply(done.state, move, rng)
        done.log += lines
    # 6.3 Resources
    done.state, lines = resources_phase(done.state)
    done.log += lines
    # 6.4 Support: the British, then the Patriots
    for faction in ("british", "patriots"):
        spending = chooser(faction).support(done.state, faction)
        _check(support_spending_refusal(done.state, spending), f"{faction} support")
        done.state, lines = apply_support_spending(done.state, spending)
        done.log += lines
    if final:  # 6.4.3: the game ends; no Redeployment, Desertion or Reset
        done.outcome = "final"
        if humans:
            result = one_player_final(done.state, humans, one_player)
            done.winners = [str(result.winner)] if result.winner else []
            done.log.append(f"7.3 ({result.rule}): {result.reason}")
        else:
            done.winners = final_ranking(done.state)
            done.log.append(f"7.3: final ranking {', '.join(done.winners)}")
        return done
    # 6.5 Redeployment
    if leader_change_faction is not None:
        done.state, lines = leader_change(done.state, leader_change_faction)
        done.log += lines
    for faction in REDEPLOYMENT_ORDER:
        if leader_redeployments(done.state, faction):
            where = chooser(faction).redeploy(done.state, faction)
            done.state, lines = redeploy_leader(done.state, faction, where)
            done.log += lines
    done.state, lines = british_release(done.state, tuple(releases), year)
    done.log += lines
    if done.state.flag("toa_played"):
        withdrawal = chooser("french").naval(done.state)
        _check(naval_withdrawal_refusal(done.state, withdrawal), "6.5.4")
        done.state, lines = apply_naval_withdrawal(done.state, withdrawal)
        done.log += lines
    # 6.6 Desertion
    for who, piece, n, _rule in desertion_steps(done.state):
        deserting = chooser(who).desertion(done.state, who, piece, n)
        _check(desertion_refusal(done.state, deserting, who, piece, n), f"{who} desertion")
        done.state, lines = apply_desertion(done.state, deserting, n)
        done.log += lines
    # 6.7 Reset
    done.state, lines = reset_phase(done.state)
    done.log += lines
    return done
