"""A sweep's results on disk: one SQLite database per study folder, written as
each game comes in, so that a run stopped at any moment keeps every finished game
and the next run plays only the games still missing.

>>> import tempfile
>>> from legalis.sweep.study import study_from_axes
>>> study = study_from_axes("sevenyears", games=3)
>>> with tempfile.TemporaryDirectory() as folder, open_store(Path(folder), study) as store:
...     cell = study.cells[0].key
...     store.add([{"cell": cell, "index": 1, "seed": 7, "status": "ok", "winner": "french",
...                 "condition": "medals", "turns": 6, "decisions": 80, "moves": 99,
...                 "seconds": 0.01, "digest": "ab", "slowest": [], "failure": None}])
...     sorted(store.finished(cell)), store.outcomes(cell, 3)[0]["winner"]
([1], 'french')
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from legalis import __version__
from legalis.model.errors import InputError
from legalis.sweep.study import Study

__all__ = ["FAILURES_FOLDER", "RESULTS_FILE", "SLOWEST_FOLDER", "ResultStore", "open_store"]

RESULTS_FILE = "results.sqlite"
SLOWEST_FOLDER, FAILURES_FOLDER = "slowest", "failures"  # a report's files beside the results
_COLUMNS = (
    "cell",
    "game_index",
    "seed",
    "status",
    "winner",
    "condition",
    "turns",
    "decisions",
    "moves",
    "seconds",
    "digest",
    "slowest",
    "failure",
)
_SCHEMA = f"""
create table if not exists study (name text primary key, value text not null);
create table if not exists games (
    cell text not null, game_index integer not null, seed integer not null,
    status text not null, winner text, condition text, turns integer, decisions integer,
    moves integer, seconds real not null, digest text, slowest text not null, failure text,
    primary key (cell, game_index)
);
-- {", ".join(_COLUMNS)}
"""


class ResultStore:
    """The games of one study, kept in ``folder``/results.sqlite."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    def add(self, outcomes: Iterable[Mapping[str, Any]]) -> None:
        """Keep finished games (a game already kept is kept once)."""
        rows = [
            (
                o["cell"],
                o["index"],
                o["seed"],
                o["status"],
                o["winner"],
                o["condition"],
                o["turns"],
                o["decisions"],
                o["moves"],
                o["seconds"],
                o["digest"],
                json.dumps(o["slowest"]),
                None if o["failure"] is None else json.dumps(o["failure"]),
            )
            for o in outcomes
        ]
        with self._db:
            self._db.executemany(
                f"insert or replace into games values ({', '.join('?' * len(_COLUMNS))})", rows
            )

    def finished(self, cell: str) -> set[int]:
        """The indices of the games of ``cell`` already played."""
        found = self._db.execute("select game_index from games where cell = ?", (cell,))
        return {index for (index,) in found}

    def outcomes(self, cell: str, games: int) -> list[dict[str, Any]]:
        """The first ``games`` games of ``cell`` that were played, in index order,
        each as :func:`~legalis.sweep.play.play_batch` reported it."""
        rows = self._db.execute(
            f"select {', '.join(_COLUMNS)} from games where cell = ? and game_index < ? "
            "order by game_index",
            (cell, games),
        )
        found = []
        for row in rows:
            outcome = dict(zip(_COLUMNS, row, strict=True))
            outcome["index"] = outcome.pop("game_index")
            outcome["slowest"] = json.loads(outcome["slowest"])
            outcome["failure"] = outcome["failure"] and json.loads(outcome["failure"])
            found.append(outcome)
        return found

    def close(self) -> None:
        self._db.close()


def _differences(kept: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    return [name for name in wanted if kept.get(name) != wanted[name]]


@contextmanager
def open_store(folder: Path, study: Study, *, fresh: bool = False) -> Iterator[ResultStore]:
    """The results of ``study`` in ``folder`` (made if missing). A folder that holds
    another study is refused, naming what differs, unless ``fresh`` (its games are
    then dropped)."""
    folder.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(folder / RESULTS_FILE)
    try:
        try:
            connection.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise InputError(
                f"{folder / RESULTS_FILE} is not a study's results ({error})", path="--out"
            ) from error
        wanted = study.identity()
        found = connection.execute("select value from study where name = 'identity'").fetchone()
        if found is not None and json.loads(found[0]) != wanted and not fresh:
            differing = ", ".join(_differences(json.loads(found[0]), wanted))
            raise InputError(
                f"{folder} holds the results of another study (it differs in "
                f"{differing}): choose another folder or start afresh",
                path="--out",
                allowed=["--fresh"],
            )
        if found is None or fresh:
            for written in (SLOWEST_FOLDER, FAILURES_FOLDER):  # made from dropped results
                shutil.rmtree(folder / written, ignore_errors=True)
            with connection:
                connection.execute("delete from games")
                connection.execute("delete from study")
                connection.executemany(
                    "insert into study values (?, ?)",
                    [("identity", json.dumps(wanted)), ("legalis", __version__)],
                )
        yield ResultStore(connection)
    finally:
        connection.close()
