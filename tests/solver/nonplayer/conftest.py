"""What every flowchart's seeded test checks of a turn, shared by the four Factions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from legalis.model.coin.state import CoinState
from legalis.solver.nonplayer.flowchart import Turn, TurnContext, replay_turn


def _sound_turn(start: CoinState, run: Callable[..., TurnContext], *args: Any) -> Turn:
    """The turn ``run(*args)`` makes from ``start``: it replays to the same state with
    every move re-checked, keeps the state's invariants, and running it again with
    the same seed gives the same turn."""
    turn = run(*args).finish()
    assert replay_turn(start, turn) == turn.state
    assert turn.state.invariant_problems() == []
    assert run(*args).finish().to_json() == turn.to_json()
    return turn


@pytest.fixture
def sound_turn() -> Callable[..., Turn]:
    return _sound_turn
