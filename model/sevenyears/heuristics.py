"""The ``greedy`` player's heuristic: simple, fixed, and easy to beat.

- Execute: discard what cannot help this turn or later: the opponent's coalition
  cards, L/V cards the player cannot use now, force cards whose every area is a
  won Campaign; then force cards of 2 or less without the ``*`` mark; at most 5.
- Turmoil: play a Z card before an X card (more cards first); pass with neither.
- Conflict: lay the card that takes an area the player is not winning, with the
  least force to spare, Europe first (winning it ends the game); pass when no
  card takes an area, keeping the cards for a later turn.
- Difficulty: as owner, give up the weakest card; as attacker, strike the strongest.

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.model.sevenyears.state import SevenYearsState
>>> state, rng = SevenYearsState.new(), LoggedRandom(1)
>>> state.play(state.sample_chance(rng))
>>> move = greedy_move(state, rng)
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

from typing import Any

from legalis.model.core.views import RandomSource
from legalis.model.sevenyears.moves import DifficultyDiscard, ExecuteDiscard, Lay, Pass, PlayEffect
from legalis.model.sevenyears.state import SevenYearsState

WEAK_FORCE = 2


def greedy_move(state: SevenYearsState, rng: RandomSource) -> Any:
    """The greedy choice at the decision ``state`` awaits (chance nodes: a random outcome)."""
    kind = state.pending[0]
    if kind == "execute":
        return _execute(state, state.pending[1])
    if kind == "turmoil":
        return _turmoil(state, state.pending[1])
    if kind == "conflict":
        return _conflict(state, state.pending[1])
    if kind == "difficulty":
        return _difficulty(state)
    return state.sample_chance(rng)


def _execute(state: SevenYearsState, player: int) -> ExecuteDiscard:
    rules = state.rules
    use_ok = rules.tables.use_ok[state.status_index(player)][player]
    open_areas = [area for area, owner in enumerate(state.closed) if owner < 0]
    useless, weak = [], []
    for card in state.hands[player]:
        info = state.data.cards[card]
        if not use_ok[card] or (not info.effect and not any(a in open_areas for a in info.areas)):
            useless.append(card)
        elif not info.effect and not info.difficulty and info.force <= WEAK_FORCE:
            weak.append(card)
    weak.sort(key=lambda card: rules.force[card])
    limit = min(state.data.execute_max_discards, len(state.hands[player]))
    return ExecuteDiscard(player, tuple(sorted((useless + weak)[:limit])))


def _turmoil(state: SevenYearsState, player: int) -> PlayEffect | Pass:
    moves = [move for move in state.legal_moves() if isinstance(move, PlayEffect)]
    for effect in ("Z", "X"):
        for move in moves:
            if state.rules.effect[move.card] == effect:
                return move
    return Pass(player)


def _conflict(state: SevenYearsState, player: int) -> Lay | Pass:
    force = state.rules.force
    best: tuple[int, int, int] | None = None
    best_move: Lay | Pass = Pass(player)
    for card, areas in state.lay_options(player):
        for area in areas:
            mine = state.area_force(area, player)
            theirs = state.area_force(area, 1 - player)
            if mine > theirs or mine + force[card] <= theirs:
                continue
            spare = mine + force[card] - theirs
            key = (0 if area == state.rules.europe else 1, spare, -force[card])
            if best is None or key < best:
                best, best_move = key, Lay(player, card, area)
    return best_move


def _difficulty(state: SevenYearsState) -> DifficultyDiscard:
    _, chooser, victim, area = state.pending
    force = state.rules.force
    cards = sorted(
        {card for _, owner, card in state.grid[area] if owner == victim}, key=force.__getitem__
    )
    card = cards[0] if chooser == victim else cards[-1]
    return DifficultyDiscard(chooser, victim, area, card)
