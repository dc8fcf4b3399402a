"""A study: one game played over a grid of scenarios x rule options x seats x decks,
``games`` games per cell, every game's seed derived from one master seed.

The ``i``-th game of every cell has the same seed (:func:`game_seed`), so cells
differ by their settings and not by their luck, and a game replays alone from its
cell and seed whatever worker played it.

>>> study = study_from_axes("sevenyears", games=10, seed=3,
...                         options=["reshuffle=plan_only", "reshuffle=any_draw"],
...                         seats=["default", "british=greedy"])
>>> len(study.cells), study.cells[0].label
(4, 'reshuffle=plan_only, british random, french random')
>>> game_seed(3, 0) == game_seed(3, 0) != game_seed(3, 1)
True
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from legalis.model.core.documents import read_document
from legalis.model.errors import InputError, clip
from legalis.registry import game_entry, load_game
from legalis.solver.players import NONPLAYER, seat_kinds, seat_plan, seated_options
from legalis.terminal import option_values

__all__ = ["Cell", "DeckRef", "Study", "game_seed", "study_from_axes", "study_from_toml"]

DEFAULT_SEATS = "default"  # every seat by the game's own Non-players, else random
INVARIANT_CHECKS = ("every-move", "end")
SEED_BITS = 52  # seeds stay exact in JSON read by JavaScript (the browser table)


def game_seed(master: int, index: int) -> int:
    """The seed of the ``index``-th game of every cell of a study seeded ``master``:
    a hash, so it depends on nothing else (not the cell, the worker or the order).

    >>> 0 <= game_seed(1, 0) < 2**SEED_BITS
    True
    """
    digest = hashlib.blake2b(f"legalis-sweep:{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


@dataclass(frozen=True)
class DeckRef:
    """A deck the study plays: the file it was read from (for people and logs) and
    its text, which travels with every task so that no worker needs the file."""

    path: str
    text: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Cell:
    """One setting of the grid: the game's rule options (scenario and the options
    varied among them), who sits at each seat, and the deck (None: the bundled one)."""

    options: tuple[tuple[str, Any], ...]
    seats: tuple[tuple[str, str], ...]
    deck: DeckRef | None = None

    @property
    def key(self) -> str:
        """A short name that changes only when the cell's settings do."""
        body = json.dumps(
            [self.options, self.seats, self.deck and self.deck.digest], sort_keys=True, default=str
        )
        return hashlib.sha256(body.encode()).hexdigest()[:12]

    @property
    def label(self) -> str:
        """The cell in words: its options, seats and deck."""
        parts = [f"{name}={_shown(value)}" for name, value in self.options]
        parts += [f"{seat} {kind}" for seat, kind in self.seats]
        if self.deck is not None:
            parts.append(f"deck {Path(self.deck.path).name}")
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "options": dict(self.options),
            "seats": dict(self.seats),
            "deck": None
            if self.deck is None
            else {"path": self.deck.path, "digest": self.deck.digest},
        }


def _shown(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


@dataclass(frozen=True)
class Study:
    """What a sweep plays: ``games`` games in each of ``cells``, seeded from ``seed``.

    ``max_moves`` ends a game that runs longer as a failure; ``invariants`` says
    when the state's invariants are checked (``every-move`` or at the ``end``);
    ``slowest`` is how many of the slowest decisions each cell reports;
    ``source`` the study file it was read from, if any.
    """

    game: str
    cells: tuple[Cell, ...]
    games: int = 20
    seed: int = 1
    max_moves: int = 50_000
    invariants: str = "every-move"
    slowest: int = 5
    source: str | None = field(default=None, compare=False)

    def identity(self) -> dict[str, Any]:
        """What the results depend on: a folder of results belongs to one identity.
        ``games`` is not part of it (more games extend a study; their seeds do not
        change), nor ``slowest`` (it only chooses what is reported)."""
        return {
            "game": self.game,
            "seed": self.seed,
            "max_moves": self.max_moves,
            "invariants": self.invariants,
            "cells": [cell.key for cell in self.cells],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.identity(),
            "games": self.games,
            "slowest": self.slowest,
            "source": self.source,
            "cells": [cell.to_json() for cell in self.cells],
        }

    def with_counts(self, *, games: int | None = None, seed: int | None = None) -> Study:
        """The study with another number of games per cell or master seed."""
        return replace(
            self,
            games=self.games if games is None else games,
            seed=self.seed if seed is None else seed,
        )


def _refuse_option(game: str, name: str, where: str) -> None:
    names = game_entry(game).option_names
    if name == "nonplayers":
        raise InputError(
            "the seats name the Non-players: vary the seats instead",
            path=where,
            allowed=[DEFAULT_SEATS, "SEAT=nonplayer"],
        )
    if name == "deck":
        raise InputError("decks are an axis of their own", path=where, allowed=["--deck", "decks"])
    if name not in names:
        raise InputError(f"{game} has no option {clip(name)!r}", path=where, allowed=names)


def _seat_plan(game: Any, text: str, where: str) -> dict[str, str]:
    """Who plays each seat, from ``default`` or ``SEAT=KIND,SEAT=KIND`` (the seats
    not named play by default: the Non-players where the game has them, else random)."""
    kinds = tuple(kind for kind in seat_kinds(game) if kind != "human")
    defaults = dict.fromkeys(game.players, NONPLAYER if NONPLAYER in kinds else "random")
    pairs = [] if text.strip() == DEFAULT_SEATS else text.split(",")
    return seat_plan(game, defaults, pairs, kinds, where)


def _read_deck(path: Path, where: str) -> DeckRef:
    text: str = read_document(path, "text")
    return DeckRef(str(path.resolve()), text)


def _axes(
    game_name: str,
    scenarios: Sequence[str],
    options: Mapping[str, Sequence[Any]],
    seats: Sequence[str],
    decks: Sequence[DeckRef],
    where: Mapping[str, str],
) -> tuple[Cell, ...]:
    """Every cell of the grid, each checked by making its game (a bad value names
    the flag or field that gave it)."""
    entry = game_entry(game_name)
    option_axes: dict[str, Sequence[Any]] = {}
    if scenarios:
        if "scenario" not in entry.option_names:
            raise InputError(f"{game_name} has no scenarios", path=where["scenario"])
        option_axes["scenario"] = list(dict.fromkeys(scenarios))
    for name, values in options.items():
        _refuse_option(game_name, name, where["option"])
        if name == "scenario" and scenarios:
            raise InputError("the scenarios are given twice", path=where["option"])
        option_axes[name] = list(dict.fromkeys(values))
    plain = load_game(game_name)
    seat_plans = [_seat_plan(plain, text, where["seats"]) for text in seats or [DEFAULT_SEATS]]
    unique_plans = list({json.dumps(plan): plan for plan in seat_plans}.values())
    deck_choices: list[DeckRef | None] = [*decks] or [None]
    cells = []
    for values in itertools.product(*option_axes.values()):
        chosen = tuple(zip(option_axes, values, strict=True))
        for plan in unique_plans:
            for deck in deck_choices:
                cell = Cell(chosen, tuple(plan.items()), deck)
                check_cell(game_name, cell, where)
                cells.append(cell)
    return tuple(cells)


def cell_options(game_name: str, cell: Cell, deck_path: str | None) -> dict[str, Any]:
    """The rule options the cell's game is made with (``deck_path``: where the
    deck's text can be read here), the Non-player seats among them."""
    options = dict(cell.options)
    if deck_path is not None:
        options["deck"] = deck_path
    return seated_options(game_entry(game_name).option_names, options, dict(cell.seats))


def check_cell(game_name: str, cell: Cell, where: Mapping[str, str]) -> None:
    """Refuse a cell whose game cannot be made, naming the flag or field at fault."""
    try:
        load_game(game_name, cell_options(game_name, cell, cell.deck.path if cell.deck else None))
    except InputError as error:
        name = (error.path or "").removeprefix("options.")
        flag = (
            where["scenario"]
            if name == "scenario"
            else (where["deck"] if name == "deck" else where["option"])
        )
        raise InputError(
            error.message, path=f"{flag}: {name}" if name else flag, allowed=error.allowed
        ) from error


_FLAGS = {"scenario": "--scenario", "option": "--option", "seats": "--seats", "deck": "--deck"}


def study_from_axes(
    game: str,
    *,
    scenarios: Sequence[str] = (),
    options: Sequence[str] = (),
    seats: Sequence[str] = (),
    decks: Sequence[Path] = (),
    **settings: Any,
) -> Study:
    """The study the command line describes: ``options`` as ``NAME=VALUE`` pairs,
    a name given more than once an axis of those values; ``seats`` as
    ``default`` or ``SEAT=KIND,...``, each a value of the seats axis."""
    by_name: dict[str, list[Any]] = {}
    for pair in options:
        by_name.setdefault(pair.partition("=")[0].strip(), []).extend(
            option_values([pair]).values()
        )
    refs = [_read_deck(path, "--deck") for path in decks]
    return checked(Study(game, _axes(game, scenarios, by_name, seats, refs, _FLAGS), **settings))


_STUDY_KEYS = (
    "game",
    "games",
    "seed",
    "scenarios",
    "options",
    "seats",
    "decks",
    "max_moves",
    "invariants",
    "slowest",
)


def _field(raw: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = raw.get(name, default)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise InputError(
            f"expected {getattr(kind, '__name__', kind)}, got {clip(repr(value))}", path=name
        )
    return value


def study_from_toml(path: Path) -> Study:
    """The study a TOML file describes (decks named relative to the file)::

    game = "lod"
    games = 50                       # per cell
    seed = 1
    scenarios = ["1775", "1778"]
    seats = ["default", "british=random"]
    decks = ["my-deck.toml"]
    [options]
    march_in_place = [true, false]   # a list is an axis; one value is fixed
    """
    raw: dict[str, Any] = read_document(path, "toml")
    source = str(path)
    try:
        for key in raw:
            if key not in _STUDY_KEYS:
                raise InputError(f"unknown field {clip(key)!r}", path=key, allowed=_STUDY_KEYS)
        game = _field(raw, "game", str, None) if "game" in raw else None
        if game is None:
            raise InputError("a study names its game", path="game")
        game_entry(game)
        options = {
            name: value if isinstance(value, list) else [value]
            for name, value in _field(raw, "options", dict, {}).items()
        }
        scenarios = [str(s) for s in _field(raw, "scenarios", list, [])]
        seats = [str(s) for s in _field(raw, "seats", list, [])]
        decks = [_read_deck(path.parent / str(d), "decks") for d in _field(raw, "decks", list, [])]
        where = {"scenario": "scenarios", "option": "options", "seats": "seats", "deck": "decks"}
        cells = _axes(game, scenarios, options, seats, decks, where)
        settings = {
            "games": _field(raw, "games", int, 20),
            "seed": _field(raw, "seed", int, 1),
            "max_moves": _field(raw, "max_moves", int, 50_000),
            "invariants": _field(raw, "invariants", str, "every-move"),
            "slowest": _field(raw, "slowest", int, 5),
        }
        return checked(Study(game, cells, source=source, **settings))
    except InputError as error:
        raise InputError(
            error.message, source=source, path=error.path, allowed=error.allowed
        ) from error


def checked(study: Study) -> Study:
    """``study`` if its counts and checks are in range, else the field at fault."""
    if study.games < 1:
        raise InputError(f"at least 1 game per cell, got {study.games}", path="games")
    if study.max_moves < 1:
        raise InputError(f"at least 1 move, got {study.max_moves}", path="max_moves")
    if study.slowest < 0:
        raise InputError(f"0 or more, got {study.slowest}", path="slowest")
    if study.invariants not in INVARIANT_CHECKS:
        raise InputError(
            f"unknown check {clip(study.invariants)!r}", path="invariants", allowed=INVARIANT_CHECKS
        )
    return study
