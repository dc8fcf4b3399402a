"""Non-player Leader Redeployment (6.5.2): the British Leader to the space with
most British Regulars (8.4.9), Washington to the space with most Continentals
(8.5.6), the French Leader to a space with French Regulars and Continentals, most
French Regulars first (8.6.9), Brant or Dragging Canoe to the space with most War
Parties and Cornplanter to a Neutral or Passive Province with two or more War
Parties and room for a Village (8.7.7). Ties by the Random Spaces table (8.2).
Then the Blockade half of 8.6.9 in the French Naval Intervention step (6.5.4),
and the Blockades a Rebellion Win the Day in a City lets the French move (8.5.1,
8.6.6), which rank Cities by the same Support.

>>> from legalis.model.core.randomness import LoggedRandom
>>> state = CoinState.new("lod")
>>> state.set_leader("Washington", "Massachusetts")
>>> state.move_pieces("Available", "Virginia", "continental", 3)
>>> nonplayer_redeploy(state, "patriots", LoggedRandom(0), Trace())
'Virginia'
"""

from __future__ import annotations

from legalis.model.coin.limits import stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import BlockadeShift, FollowUp
from legalis.model.lod.winter import (
    REDEPLOYMENT_ORDER,
    NavalWithdrawal,
    leader_redeployments,
    naval_withdrawal_refusal,
    redeploy_leader,
)
from legalis.solver.nonplayer.spaces import Priority, select_spaces
from legalis.solver.nonplayer.trace import Trace

__all__ = ["nonplayer_naval_withdrawal", "nonplayer_redeploy", "nonplayer_redeployments"]


def _most(piece: str, rule: str, name: str) -> Priority:
    return Priority(name, lambda s, x: s.pieces(x, piece) > 0,
                    lambda s, x: s.pieces(x, piece), rule=rule)  # fmt: skip


def _priorities(state: CoinState, faction: str) -> list[Priority]:
    if faction == "british":
        return [_most("british_regular", "8.4.9", "most British Regulars")]
    if faction == "patriots":
        return [_most("continental", "8.5.6", "most Continentals")]
    if faction == "french":
        return [
            Priority("French Regulars and Continentals, most French Regulars",
                     lambda s, x: s.pieces(x, "french_regular") > 0
                     and s.pieces(x, "continental") > 0,
                     lambda s, x: s.pieces(x, "french_regular"), rule="8.6.9"),
            _most("french_regular", "8.6.9", "most French Regulars"),
        ]  # fmt: skip
    most_war_parties = _most("war_party", "8.7.7", "most War Parties")
    if state.leader("Cornplanter") is None:
        return [most_war_parties]
    board = state.rules.map
    return [
        Priority("a Neutral or Passive Province, two War Parties, room for a Village",
                 lambda s, x: board.is_province(x)
                 and s.support(x) in ("neutral", "passive_support", "passive_opposition")
                 and s.pieces(x, "war_party") >= 2 and stacking_room(s, x) >= 1,
                 rule="8.7.7"),
        most_war_parties,
    ]  # fmt: skip


def nonplayer_redeploy(state: CoinState, faction: str, rng: LoggedRandom, trace: Trace) -> str:
    """Where the Non-player ``faction`` redeploys its Leader: the paragraph's first
    priority with a candidate; where none has one, the Leader stays."""
    allowed = [s for s in leader_redeployments(state, faction) if s != "Available"]
    if not allowed:
        return "Available"
    chosen = select_spaces(state, allowed, _priorities(state, faction), 1, rng, trace)
    if chosen:
        return chosen[0]
    leaders = [leader.name for leader in state.rules.data.leaders if leader.faction == faction]
    here = next(str(state.leader(n)) for n in leaders if state.leader(n) is not None)
    trace.step("6.5.2", "no priority applies: the Leader stays", allowed, here)
    return here


def nonplayer_redeployments(
    state: CoinState, nonplayers: set[str], rng: LoggedRandom, trace: Trace
) -> tuple[CoinState, list[str]]:
    """6.5.2 for every Non-player with a Leader, in the order Indians, French,
    British, Patriots."""
    log: list[str] = []
    for faction in REDEPLOYMENT_ORDER:
        if faction in nonplayers and leader_redeployments(state, faction):
            state, lines = redeploy_leader(
                state, faction, nonplayer_redeploy(state, faction, rng, trace)
            )
            log += lines
    return state, log


def _city_support(state: CoinState, city: str) -> int:
    """A City's Support for 8.6.9: its level times its printed Population (8.1.1),
    read as if not Blockaded, since a Blockade itself counts its Population 0."""
    return max(0, state.support_value(city)) * state.rules.map.population(city)


def nonplayer_naval_withdrawal(
    state: CoinState, rng: LoggedRandom, trace: Trace
) -> NavalWithdrawal:
    """8.6.9: the Blockade goes from the Blockaded City with least Support; the
    others move to the Cities with most Support, one each.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_marker("Unavailable", "Boston", "blockade", 1)
    >>> state.move_marker("Unavailable", "New York City", "blockade", 1)
    >>> state.set_support("New York City", "active_support")
    >>> nonplayer_naval_withdrawal(state, LoggedRandom(0), Trace())
    NavalWithdrawal(withdrawn='Boston', layout=(('New York City', 1),))
    """
    cities = state.rules.map.of_type("City")
    on = {c: state.markers(c, "blockade") for c in cities if state.markers(c, "blockade")}
    if not on:
        return NavalWithdrawal()
    least = Priority("the Blockaded City with least Support", lambda s, x: True,
                     lambda s, x: -_city_support(s, x), rule="8.6.9")  # fmt: skip
    (withdrawn,) = select_spaces(state, sorted(on), [least], 1, rng, trace)
    most = Priority("the Cities with most Support", lambda s, x: True,
                    lambda s, x: _city_support(s, x), rule="8.6.9")  # fmt: skip
    rest = sum(on.values()) - 1
    chosen = select_spaces(state, cities, [most], rest, rng, trace) if rest else []
    move = NavalWithdrawal(withdrawn, tuple(sorted((c, 1) for c in chosen)))
    refused = naval_withdrawal_refusal(state, move)
    if refused is not None:  # one Blockade per City among seven Cities always fits
        raise AssertionError(f"Non-player Naval Intervention refused: {refused.reason}")
    return move


def nonplayer_blockade_shift(
    state: CoinState, offer: FollowUp, rng: LoggedRandom, trace: Trace, rule: str
) -> BlockadeShift | None:
    """8.5.1, 8.6.6: after a Rebellion Win the Day in a City, the Non-player French
    move all its Blockades to the other City with most Support (8.1.1), if it has
    more Support than the City won (ties by 8.2); None when there is none to move
    or no such City.

    >>> state = CoinState.new("lod")
    >>> state.add_marker("Boston", "blockade")
    >>> state.set_support("New York City", "passive_support")
    >>> offer = FollowUp("french", "move_blockade", "Boston", "3.6.8", "")
    >>> nonplayer_blockade_shift(state, offer, LoggedRandom(0), Trace(), "8.6.6")
    BlockadeShift(source='Boston', destination='New York City', count=1)
    """
    here = state.markers(offer.space, "blockade")
    won = _city_support(state, offer.space)
    richer = [
        c for c in state.rules.map.of_type("City")
        if c != offer.space and _city_support(state, c) > won
    ]  # fmt: skip
    if not here or not richer:
        trace.step(rule, f"no Blockade of {offer.space} to move to a City with more Support",
                   [offer.space], None)  # fmt: skip
        return None
    most = Priority("the City with most Support", lambda s, x: True,
                    lambda s, x: _city_support(s, x), rule=rule)  # fmt: skip
    (city,) = select_spaces(state, sorted(richer), [most], 1, rng, trace)
    trace.step(rule, f"the French move the Blockades of {offer.space}", [city], city)
    return BlockadeShift(offer.space, city, here)
