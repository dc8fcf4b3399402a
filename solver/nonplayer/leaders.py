"""Non-player Leader movement (8.1): during a Command a Non-player Leader follows
the largest group of its Faction's units that moves from, or stays in, its space;
groups of the same size are chosen between at random.

>>> from legalis.model.lod.commands import Command
>>> state = CoinState.new("lod")
>>> state.set_leader("Washington", "Virginia")
>>> state.move_pieces("Available", "Virginia", "continental", 3)
>>> march = Command("patriots", "march", ("North Carolina",),
...                 moves=(("Virginia", "North Carolina", "continental", 2),))
>>> follow_largest_groups(state, march, LoggedRandom(0), Trace()).leaders
(('Washington', 'North Carolina'),)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.commands import Command, leader_destinations
from legalis.solver.nonplayer.sequence import leader_follows
from legalis.solver.nonplayer.trace import Trace

__all__ = ["follow_largest_groups"]


def _units_of(state: CoinState, space: str, faction: str) -> int:
    return sum(
        state.pieces(space, piece.id)
        for piece in state.data.pieces
        if piece.faction == faction and not piece.stacking
    )


def follow_largest_groups(
    state: CoinState,
    move: Command,
    rng: LoggedRandom,
    trace: Trace,
    players: Sequence[str] = (),
) -> Command:
    """``move`` with each Non-player Leader (not of a Faction in ``players``)
    following the largest group of its Faction's units leaving its space, unless
    more of them stay (8.1); ties at random, traced. A Leader that stays is not
    named."""
    follows = []
    owner = {piece.id: piece.faction for piece in state.data.pieces}
    for leader in leader_destinations(state, move):
        faction = state.data.leader(leader).faction
        if faction in players:
            continue
        origin = state.leader(leader)
        assert origin is not None  # it has units moving away from its space
        groups: Counter[str] = Counter()
        for start, destination, kind, n in move.moves:
            if start == origin and owner[kind.partition(":")[0]] == faction:
                groups[destination] += n
        stay = _units_of(state, origin, faction) - sum(groups.values())
        if stay > 0:
            groups[origin] = stay
        chosen = leader_follows(groups, rng, trace)  # the origin's key: the group staying
        if chosen != origin:
            follows.append((leader, chosen))
    return replace(move, leaders=tuple(sorted(follows))) if follows else move
