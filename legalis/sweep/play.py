"""The work of one task of a sweep: play a batch of games of one cell, each from
its own seed, and report each game's figures, its slowest decisions and any
failure, with the log that replays it.

A worker process keeps the games it has made (:func:`_game`), so a batch after
the first pays only for its games. Every player is made afresh for each game, so
nothing a game leaves behind can reach the next one.

>>> from legalis.sweep.study import study_from_axes, game_seed
>>> study = study_from_axes("sevenyears", games=2)
>>> batch = batch_of(study, study.cells[0], [0, 1])
>>> [(o["index"], o["status"]) for o in play_batch(batch)]
[(0, 'ok'), (1, 'ok')]
"""

from __future__ import annotations

import hashlib
import heapq
import json
import tempfile
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from legalis.model.errors import InputError
from legalis.registry import load_game
from legalis.solver.gamelog import log_lines
from legalis.solver.players import Player, automatic_player
from legalis.solver.playout import GameRecord, play_game
from legalis.sweep.study import Cell, DeckRef, Study, cell_options, game_seed

__all__ = ["Batch", "batch_of", "decision_state", "play_batch"]

TRACEBACK_LIMIT = 20_000  # characters of a failure's traceback kept


@dataclass(frozen=True)
class Batch:
    """Games of one cell for one task: everything a worker needs, the deck's text
    included, so that it reads no file of the caller's."""

    game: str
    cell: Cell
    games: tuple[tuple[int, int], ...]  # (index in the cell, seed)
    slowest: int
    max_moves: int
    every_move: bool


def batch_of(study: Study, cell: Cell, indices: Sequence[int]) -> Batch:
    """The task that plays the games ``indices`` of ``cell``."""
    return Batch(
        study.game,
        cell,
        tuple((i, game_seed(study.seed, i)) for i in indices),
        study.slowest,
        study.max_moves,
        study.invariants == "every-move",
    )


class BrokenInvariant(Exception):
    """A state broke the game's invariants, or the game ran past its move limit."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _deck_file(deck: DeckRef) -> str:
    """A file holding the deck's text on this machine (written once per digest)."""
    path = Path(tempfile.gettempdir()) / "legalis-decks" / f"{deck.digest}.toml"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_suffix(f".{time.monotonic_ns()}.part")
        scratch.write_text(deck.text, encoding="utf-8")
        scratch.replace(path)  # atomic: two workers may write it at once
    return str(path)


@cache
def _game(name: str, cell: Cell) -> Any:
    return load_game(name, cell_options(name, cell, _deck_file(cell.deck) if cell.deck else None))


def _players(game: Any, cell: Cell) -> dict[str, Player]:
    return {seat: automatic_player(kind, game, seat) for seat, kind in cell.seats}


class _Clock:
    """Times every decision of one game, counting them, and keeps the ``keep``
    slowest as ``(seconds, decision number, seat)``."""

    def __init__(self, keep: int) -> None:
        self.keep, self.decisions = keep, 0
        self.slowest: list[tuple[float, int, str]] = []  # a heap, quickest first

    def seated(self, game: Any, cell: Cell) -> dict[str, Player]:
        """The cell's players, made afresh, each timed by this clock."""
        return {seat: _Timed(self, seat, player) for seat, player in _players(game, cell).items()}

    def record(self, seconds: float, seat: str) -> None:
        entry = (seconds, self.decisions, seat)
        self.decisions += 1
        if len(self.slowest) < self.keep:
            heapq.heappush(self.slowest, entry)
        elif self.keep and entry > self.slowest[0]:
            heapq.heapreplace(self.slowest, entry)


class _Timed:
    """A player whose every decision the clock times."""

    def __init__(self, clock: _Clock, seat: str, player: Player) -> None:
        self.clock, self.seat, self.player, self.name = clock, seat, player, player.name

    def choose(self, state: Any, rng: Any) -> Any:
        started = time.perf_counter()
        move = self.player.choose(state, rng)
        self.clock.record(time.perf_counter() - started, self.seat)
        return move


def _digest(state: Any) -> str:
    """A fingerprint of a state, equal for equal states on any machine."""
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _final_problems(game: Any, state: Any, result: dict[str, Any] | None) -> list[str]:
    """What a finished game must satisfy beyond its invariants: no legal move
    after the end, a result naming a seat or a draw, and a JSON round trip."""
    problems = list(state.invariant_problems())
    if problems:
        return problems
    if state.legal_moves():
        problems.append("the game is over but moves are still legal")
    winner = (result or {}).get("winner")
    if winner is not None and winner not in game.players:
        problems.append(f"the winner {winner!r} is not a seat")
    try:
        if _digest(game.state_from_json(state.to_json())) != _digest(state):
            problems.append("the final state does not survive a JSON round trip")
    except InputError as error:
        problems.append(f"the final state does not load back from JSON: {error}")
    return problems


def _log(game: Any, batch: Batch, seed: int, moves: list[tuple[str, Any]]) -> str:
    """The log of the moves played, which ``legalis replay`` reads; its header
    names the deck by the file it was read from."""
    options = game.options.to_json() if getattr(game, "options", None) is not None else {}
    if batch.cell.deck is not None:
        options["deck"] = batch.cell.deck.path
    record = GameRecord(game.name, seed, options, dict(batch.cell.seats), moves=moves)
    return "".join(log_lines(game, record))


def _play_one(batch: Batch, index: int, seed: int) -> dict[str, Any]:
    game = _game(batch.game, batch.cell)
    clock = _Clock(batch.slowest)
    moves: list[tuple[str, Any]] = []

    def watch(state: Any, by: str, move: Any) -> None:
        if batch.every_move:
            problems = state.invariant_problems()
            if problems:
                raise BrokenInvariant("invariant", "; ".join(problems))
        if len(moves) == batch.max_moves:
            raise BrokenInvariant("too-long", f"no end after {batch.max_moves} moves")
        moves.append((by, move))

    outcome: dict[str, Any] = {"cell": batch.cell.key, "index": index, "seed": seed}
    started = time.perf_counter()
    try:
        record = play_game(game, clock.seated(game, batch.cell), seed, record=False, observer=watch)
        problems = _final_problems(game, record.final_state, record.result)
        if problems:
            raise BrokenInvariant("invariant", "; ".join(problems))
    except Exception as error:  # every failure is reported with the log that replays it
        kind = error.kind if isinstance(error, BrokenInvariant) else "exception"
        outcome.update(
            status="failed",
            winner=None,
            condition=None,
            turns=None,
            decisions=clock.decisions,
            moves=len(moves),
            digest=None,
            failure={
                "kind": kind,
                "type": type(error).__name__,
                "message": str(error),
                "traceback": traceback.format_exc()[-TRACEBACK_LIMIT:],
                "log": _log(game, batch, seed, moves),
            },
        )
    else:
        result = record.result or {"winner": None, "condition": "draw"}
        outcome.update(
            status="ok",
            winner=result.get("winner"),
            condition=result.get("condition"),
            turns=record.turns,
            decisions=record.decisions,
            moves=len(moves),
            digest=_digest(record.final_state),
            failure=None,
        )
    outcome["seconds"] = time.perf_counter() - started
    outcome["slowest"] = [
        {"seconds": seconds, "decision": decision, "seat": seat}
        for seconds, decision, seat in sorted(clock.slowest, reverse=True)
    ]
    return outcome


def play_batch(batch: Batch) -> list[dict[str, Any]]:
    """Play every game of ``batch``; each game's figures as a JSON-ready mapping."""
    return [_play_one(batch, index, seed) for index, seed in batch.games]


class _Reached(Exception):
    def __init__(self, state: Any) -> None:
        self.state = state


def decision_state(study: Study, cell: Cell, seed: int, decision: int) -> Any:
    """The state at decision number ``decision`` (counted from 0) of the game of
    ``cell`` seeded ``seed``, reached by playing the game again."""
    game = _game(study.game, cell)
    clock = _Clock(0)
    players = clock.seated(game, cell)

    def watch(state: Any, by: str, move: Any) -> None:
        if by in players and clock.decisions == decision + 1:  # chosen, not yet played
            raise _Reached(state)

    try:
        play_game(game, players, seed, record=False, observer=watch)
    except _Reached as reached:
        return reached.state
    raise ValueError(f"the game seeded {seed} has no decision {decision}")
