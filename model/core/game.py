"""What every game model offers the layers above it.

>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> isinstance(SevenYearsGame(), Game)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from legalis.model.core.views import MoveView, RandomSource


@dataclass(frozen=True)
class OptionSpec:
    """One rule option a game reads: its name, the values it takes (``None``: a count
    or a file name), its default, the rule it reads and a line for people.

    >>> OptionSpec("scenario", ("1775", "1776"), "1776", "2.1", "the set-up").to_json()["allowed"]
    ['1775', '1776']
    """

    name: str
    allowed: tuple[Any, ...] | None
    default: Any
    rule: str
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "allowed": None if self.allowed is None else list(self.allowed),
            "default": self.default,
            "rule": self.rule,
            "help": self.help,
        }


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
    seat_kinds: tuple[str, ...]  # who may take a seat: "human", "random", "greedy", ...
    options: Any  # the rule options in force; ``options.to_json()`` names them

    @property
    def players(self) -> tuple[str, ...]: ...

    def new_initial_state(self) -> Any: ...

    def state_from_json(self, raw: Any, *, source: str | None = None) -> Any: ...

    def move_from_json(self, raw: Any) -> Any: ...

    def move_to_json(self, move: Any) -> dict[str, Any]: ...

    def describe_move(self, move: Any) -> str: ...

    def move_group(self, move: Any) -> str: ...

    def describe_result(self, result: dict[str, Any] | None) -> str: ...

    def greedy_move(self, state: Any, rng: RandomSource) -> Any: ...

    def result_of(self, state: Any) -> dict[str, Any] | None: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def describe_item(self, item: object) -> str: ...

    def render(self, state: Any, viewer: str | None = None) -> list[str]: ...

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas (Draft 2020-12) of the game's documents: ``state`` and ``move``."""
        ...
