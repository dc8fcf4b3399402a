"""The registry of rule systems.

>>> games()
['eupop', 'fitl', 'lod', 'sevenyears']
>>> load_game("sevenyears", {"reshuffle": "any_draw"}).options.reshuffle
'any_draw'
>>> game_entry("lod").option_names[:3]
('scenario', 'nonplayers', 'deck')
>>> game_entry("sevenyears").option_specs[0].rule
'TURMOIL PHASE'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from legalis.model.core.game import Game, OptionSpec
from legalis.model.errors import InputError


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its name, its title, how to make it with rule options,
    ``specs``, the function giving its options' :class:`OptionSpec`\\ s, and
    ``quick``: whether every request on one of its states is answered within a
    fraction of a second (the HTTP API answers those in a thread; any other game's
    in a process it can stop, ``legalis.server``)."""

    name: str
    title: str
    make: Callable[[Mapping[str, Any] | None], Game]
    specs: Callable[[], tuple[OptionSpec, ...]]
    quick: bool = False

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The rule options the game reads, each with its values, default and rule
        (found when asked: a model loads lazily)."""
        return self.specs()

    @property
    def option_names(self) -> tuple[str, ...]:
        """The names of the rule options the game reads."""
        return tuple(spec.name for spec in self.specs())


# Each game's model is imported when that game is first asked for: a process that
# plays one game holds only that game's code.


def _sevenyears(options: Mapping[str, Any] | None) -> Game:
    from legalis.model.sevenyears.game import SevenYearsGame
    from legalis.model.sevenyears.options import SevenYearsOptions

    return SevenYearsGame(SevenYearsOptions.from_json(dict(options) if options else None))


def _sevenyears_specs() -> tuple[OptionSpec, ...]:
    from legalis.model.sevenyears.options import option_specs

    return option_specs()


def _lod(options: Mapping[str, Any] | None) -> Game:
    from legalis.solver.lodgame.game import LodGame

    return LodGame(options)


def _lod_specs() -> tuple[OptionSpec, ...]:
    from legalis.solver.lodgame.rules import option_specs

    return option_specs()


def _eupop(options: Mapping[str, Any] | None) -> Game:
    from legalis.solver.eupopgame.game import EupopGame

    return EupopGame(options)


def _eupop_specs() -> tuple[OptionSpec, ...]:
    from legalis.solver.eupopgame.game import option_specs

    return option_specs()


def _fitl(options: Mapping[str, Any] | None) -> Game:
    from legalis.solver.coinevents.fitl import FitlGame

    return FitlGame(options)


def _fitl_specs() -> tuple[OptionSpec, ...]:
    from legalis.solver.coinevents.fitl import option_specs

    return option_specs()


_REGISTRY: dict[str, GameEntry] = {
    "eupop": GameEntry("eupop", "Europa Universalis: The Price of Power", _eupop, _eupop_specs),
    "fitl": GameEntry("fitl", "Fire in the Lake", _fitl, _fitl_specs),
    "lod": GameEntry("lod", "Liberty or Death", _lod, _lod_specs),
    # Measured: over random Seven Years War games, reading a state, counting its moves,
    # listing a page and applying a move each took under 0.1 s at every decision
    # (median 0.2 ms); counting one Liberty or Death state's moves took up to 50 s.
    "sevenyears": GameEntry(
        "sevenyears", "The Seven Years War", _sevenyears, _sevenyears_specs, quick=True
    ),
}


def games() -> list[str]:
    """The names of the registered games."""
    return sorted(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    """The registry's entry of game ``name``; an unknown name is an
    :class:`InputError` listing the games.

    >>> game_entry("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    legalis.model.errors.InputError: game: unknown game 'chess' (allowed: eupop, fitl, ...)
    """
    if name not in _REGISTRY:
        raise InputError(f"unknown game {name!r}", path="game", allowed=games())
    return _REGISTRY[name]


def load_game(name: str, options: Mapping[str, Any] | None = None) -> Any:
    """The game ``name`` with rule ``options`` (a mapping of option names to values)."""
    return game_entry(name).make(options)
