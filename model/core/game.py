"""What every game model offers the layers above it.

>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> isinstance(SevenYearsGame(), Game)
True
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from legalis.model.core.views import MoveView, RandomSource


@runtime_checkable
class GameState(Protocol):
    """A position: who is to move, the legal moves there, and how a move applies."""

    @property
    def to_move(self) -> str: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def is_chance(self) -> bool: ...

    def legal_moves(self) -> MoveView[Any]: ...

    def apply(self, move: Any) -> GameState: ...

    def play(self, move: Any) -> None: ...

    def sample_chance(self, rng: RandomSource) -> Any: ...

    def copy(self) -> GameState: ...

    def to_json(self) -> dict[str, Any]: ...

    def invariant_problems(self) -> list[str]: ...


@runtime_checkable
class Game(Protocol):
    """A registered rule system with its data and options."""

    name: str
    title: str

    @property
    def players(self) -> tuple[str, ...]: ...

    def new_initial_state(self) -> Any: ...

    def state_from_json(self, raw: Any, *, source: str | None = None) -> Any: ...

    def move_from_json(self, raw: Any) -> Any: ...

    def move_to_json(self, move: Any) -> dict[str, Any]: ...

    def describe_move(self, move: Any) -> str: ...

    def greedy_move(self, state: Any, rng: RandomSource) -> Any: ...

    def result_of(self, state: Any) -> dict[str, Any] | None: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def describe_item(self, item: object) -> str: ...

    def render(self, state: Any, viewer: str | None = None) -> list[str]: ...
