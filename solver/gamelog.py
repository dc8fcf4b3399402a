"""Game logs as JSON lines: a header, one line per move, the result; and replay.

>>> import io
>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> from legalis.solver.players import RandomPlayer
>>> from legalis.solver.playout import play_game
>>> game = SevenYearsGame()
>>> record = play_game(game, {"british": RandomPlayer(), "french": RandomPlayer()}, seed=9)
>>> text = "".join(log_lines(game, record))
>>> replay(game, parse_log(io.StringIO(text), source="game.jsonl")).result == record.result
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from legalis.model.core.documents import parse_json
from legalis.model.core.game import Game
from legalis.model.errors import IllegalMoveError, InputError
from legalis.solver.playout import GameRecord

LOG_VERSION = 1


def log_lines(game: Game, record: GameRecord) -> Iterator[str]:
    """The lines of the log of ``record``, each ending in a newline."""
    header = {
        "type": "header",
        "version": LOG_VERSION,
        "game": record.game,
        "seed": record.seed,
        "options": record.options,
        "players": record.players,
    }
    yield json.dumps(header) + "\n"
    for index, (by, move) in enumerate(record.moves):
        yield (
            json.dumps({"type": "move", "index": index, "by": by, "move": game.move_to_json(move)})
            + "\n"
        )
    result = {
        "type": "result",
        "result": record.result,
        "turns": record.turns,
        "decisions": record.decisions,
    }
    yield json.dumps(result) + "\n"


@dataclass
class ParsedLog:
    source: str
    header: dict[str, Any]
    moves: list[tuple[int, str, Any]]  # (line number, by, raw move)
    result: dict[str, Any] | None


def parse_log(lines: Iterable[str], *, source: str) -> ParsedLog:
    """Read a log; malformed lines are :class:`InputError` naming the line."""
    header: dict[str, Any] | None = None
    moves: list[tuple[int, str, Any]] = []
    result: dict[str, Any] | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        entry = parse_json(line, source=source, path=where)
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind == "header":
            header = entry
        elif kind == "move" and header is not None:
            index = entry.get("index")
            if type(index) is not int or index != len(moves):  # a bool is no index either
                raise InputError(
                    f"expected {len(moves)}: the log's moves are numbered from 0, in order",
                    source=source,
                    path=f"{where}: index",
                )
            moves.append((number, str(entry.get("by")), entry.get("move")))
        elif kind == "result" and header is not None:
            result = entry
        else:
            raise InputError(
                f"expected a header line first, then move and result lines, got {kind!r}",
                source=source,
                path=where,
            )
    if header is None:
        raise InputError("the log has no header line", source=source)
    if header.get("version") != LOG_VERSION:
        raise InputError(
            f"unknown log version {header.get('version')!r}", source=source, path="line 1"
        )
    for field, kind, expected in (("game", str, "a game name"), ("options", dict, "an object")):
        if not isinstance(header.get(field), kind):
            raise InputError(
                f"expected {expected}, got {header.get(field)!r}",
                source=source,
                path=f"line 1: {field}",
            )
    return ParsedLog(source, header, moves, result)


@dataclass
class Replay:
    final_state: Any
    result: dict[str, Any] | None
    moves: int
    matches_log: bool | None  # None when the log has no result line


def replay(game: Game, log: ParsedLog) -> Replay:
    """Apply every logged move from the opening, checking each one's legality."""
    state = game.new_initial_state()
    for number, by, raw in log.moves:
        where = f"line {number}"
        if by != state.to_move:
            raise InputError(
                f"the move is by {by}, but {state.to_move} is to move",
                source=log.source,
                path=where,
            )
        try:
            state.play(game.move_from_json(raw))
        except InputError as err:
            raise InputError(err.message, source=log.source, path=f"{where}: {err.path}") from err
        except IllegalMoveError as err:
            raise InputError(f"{err.reason} [{err.rule}]", source=log.source, path=where) from err
    result = game.result_of(state)
    matches = None if log.result is None else log.result.get("result") == result
    return Replay(state, result, len(log.moves), matches)
