"""The registry of rule systems.

>>> games()
['lod', 'sevenyears']
>>> load_game("sevenyears", {"reshuffle": "any_draw"}).options.reshuffle
'any_draw'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from legalis.model.core.game import Game
from legalis.model.errors import InputError


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    make: Callable[[Mapping[str, Any] | None], Game]
    names: Callable[[], tuple[str, ...]]

    @property
    def option_names(self) -> tuple[str, ...]:
        """The rule options the game reads (found when asked: a model loads lazily)."""
        return self.names()


# Each game's model is imported when that game is first asked for: a process that
# plays one game holds only that game's code.


def _sevenyears(options: Mapping[str, Any] | None) -> Game:
    from legalis.model.sevenyears.game import SevenYearsGame
    from legalis.model.sevenyears.options import SevenYearsOptions

    return SevenYearsGame(SevenYearsOptions.from_json(dict(options) if options else None))


def _sevenyears_options() -> tuple[str, ...]:
    from legalis.model.sevenyears.options import SevenYearsOptions

    return tuple(SevenYearsOptions().to_json())


def _lod(options: Mapping[str, Any] | None) -> Game:
    from legalis.solver.lodgame.game import LodGame

    return LodGame(options)


def _lod_options() -> tuple[str, ...]:
    from legalis.solver.lodgame.rules import LodOptions

    return tuple(LodOptions.names())


_REGISTRY: dict[str, GameEntry] = {
    "lod": GameEntry("lod", "Liberty or Death", _lod, _lod_options),
    "sevenyears": GameEntry("sevenyears", "The Seven Years War", _sevenyears, _sevenyears_options),
}


def games() -> list[str]:
    """The names of the registered games."""
    return sorted(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    if name not in _REGISTRY:
        raise InputError(f"unknown game {name!r}", path="game", allowed=games())
    return _REGISTRY[name]


def load_game(name: str, options: Mapping[str, Any] | None = None) -> Any:
    """The game ``name`` with rule ``options`` (a mapping of option names to values)."""
    return game_entry(name).make(options)
