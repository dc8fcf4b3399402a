"""The ``human`` player: a person at a terminal chooses from numbered legal moves.

The moves are listed under the game's headings (``move_group``) with their counts;
one is taken by its number or given as JSON. When there are more than
``LIST_LIMIT``, the headings are shown first, lettered, and the person opens one
(a view made of ``parts`` is headed part by part, without listing it).

>>> import io
>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.registry import load_game
>>> game = load_game("sevenyears")
>>> state, rng = game.new_initial_state(), LoggedRandom(4)
>>> state.play(state.sample_chance(rng))
>>> out = io.StringIO()
>>> player = HumanPlayer(game, io.StringIO("1 2\\n"), out)
>>> move = player.choose(state, rng)
>>> len(move.cards), move in state.legal_moves()
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain
from string import ascii_lowercase
from typing import IO, Any

from legalis.model.core.documents import parse_json
from legalis.model.core.game import Game
from legalis.model.core.views import MoveView, RandomSource, SubsetView
from legalis.model.errors import InputError, LegalisError, SolverLimitError

LIST_LIMIT = 60  # moves listed at once
GROUP_LIMIT = 20_000  # moves sorted under headings; beyond, taken by rank or JSON


class GameAbandoned(LegalisError):
    """The person at the terminal quit the game."""


class HumanPlayer:
    """Shows the position and the legal moves, and reads the choice from ``reader``."""

    name = "human"

    def __init__(self, game: Game, reader: IO[str], writer: IO[str]) -> None:
        self.game = game
        self.reader = reader
        self.writer = writer

    def say(self, text: str = "") -> None:
        self.writer.write(text + "\n")
        self.writer.flush()

    def ask(self, prompt: str) -> str:
        self.writer.write(prompt)
        self.writer.flush()
        line = self.reader.readline()
        if not line:
            raise GameAbandoned("input ended: the game is abandoned")
        text = line.strip()
        if text.lower() in ("q", "quit"):
            raise GameAbandoned("the game is abandoned")
        return text

    def choose(self, state: Any, rng: RandomSource) -> Any:
        view = state.legal_moves()
        self.say()
        for line in self.game.render(state, viewer=state.to_move):
            self.say(line)
        if isinstance(view, SubsetView):
            return self._choose_subset(state, view)
        try:
            total: int | None = view.count()
        except SolverLimitError:  # too many even to count: JSON only
            total = None
        group: Callable[[Any], str] = self.game.move_group
        if total is not None and total <= LIST_LIMIT:
            return self._choose_listed(state, view, _grouped(list(view), group))
        if total is not None:
            headings = _headings(view, total, group)
            if headings is not None:
                return self._choose_group(state, view, headings)
        return self._choose_ranked(state, view, total)

    def _choose_listed(
        self, state: Any, view: MoveView[Any], groups: dict[str, list[Any]], back: bool = False
    ) -> Any:
        """Number the moves under their headings; take a number or JSON (``b`` goes back
        when ``back``, answered as None)."""
        moves = [move for members in groups.values() for move in members]
        number = 0
        for heading, members in groups.items():
            if heading:
                self.say(f"  {heading} ({len(members)})")
            for move in members:
                number += 1
                self.say(f"  {number:>4}. {self.game.describe_move(move)}")
        extra = ", b goes back" if back else ""
        while True:
            answer = self.ask(
                f"Your move, {state.to_move} (1-{len(moves)} or a move as JSON{extra}, q quits): "
            )
            if back and answer.lower() == "b":
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(moves):
                return moves[int(answer) - 1]
            taken = self._json_move(view, answer)
            if taken is not None:
                return taken
            if not answer.startswith("{"):
                self.say(f"Type a number from 1 to {len(moves)}, or a move as JSON.")

    def _choose_group(self, state: Any, view: MoveView[Any], groups: dict[str, _Heading]) -> Any:
        """Too many moves to list: show the headings lettered with their counts, list the
        one opened (by letter or number), or take a move as JSON."""
        headings = list(groups)
        labels = [_label(index) for index in range(len(headings))]
        while True:
            self.say(f"  {view.count()} moves under {len(headings)} headings:")
            for label, heading in zip(labels, headings, strict=True):
                self.say(f"  {label:>4}. {heading or 'other'} ({groups[heading].count()})")
            answer = self.ask(
                f"Open a heading, {state.to_move} ({labels[0]}-{labels[-1]}), "
                "or give a move as JSON (q quits): "
            )
            key = answer.lower()
            if key.isdigit() and 1 <= int(key) <= len(headings):
                key = labels[int(key) - 1]
            if key in labels:
                heading = headings[labels.index(key)]
                members = groups[heading]
                if members.count() <= LIST_LIMIT:
                    listed = {heading: list(members)}
                    chosen = self._choose_listed(state, view, listed, back=True)
                else:
                    self.say(f"  {heading}: {members.count()} moves")
                    chosen = self._choose_ranked(state, view, members.count(), members.nth,
                                                 back=True)  # fmt: skip
                if chosen is not None:
                    return chosen
                continue
            taken = self._json_move(view, answer)
            if taken is not None:
                return taken
            if not answer.startswith("{"):
                self.say(f"Type a heading's letter ({labels[0]}-{labels[-1]}) or a move as JSON.")

    def _choose_ranked(
        self,
        state: Any,
        view: MoveView[Any],
        total: int | None,
        nth: Callable[[int], Any] | None = None,
        back: bool = False,
    ) -> Any:
        """Take the move by its rank among ``total`` (``nth`` finds it; default the
        view's) or as JSON; with no count, by JSON only."""
        nth = nth or view.nth
        ranks = f"a rank 0-{total - 1} or " if total else ""
        extra = ", b goes back" if back else ""
        while True:
            answer = self.ask(f"Your move, {state.to_move} ({ranks}a move as JSON{extra}, "
                              "q quits): ")  # fmt: skip
            if back and answer.lower() == "b":
                return None
            if total and answer.isdigit() and int(answer) < total:
                return nth(int(answer))
            taken = self._json_move(view, answer)
            if taken is not None:
                return taken
            if not answer.startswith("{"):
                self.say(f"Type {ranks}a move as JSON.")

    def _json_move(self, view: MoveView[Any], answer: str) -> Any:
        """The move ``answer`` gives as JSON when it is legal; else None, having said why."""
        if not answer.startswith("{"):
            return None
        try:
            move = self.game.move_from_json(parse_json(answer, path="move"))
        except InputError as error:
            self.say(f"Not a move: {error}")
            return None
        refused = view.refusal(move)
        if refused is not None:
            self.say(f"Not allowed: {refused.reason} [{refused.rule}]")
            return None
        return move

    def _choose_subset(self, state: Any, view: SubsetView[Any]) -> Any:
        pool = view.pool()
        for number, item in enumerate(pool, start=1):
            self.say(f"  {number:>3}. {self.game.describe_item(item)}")
        while True:
            answer = self.ask(
                f"Numbers of the cards to discard, {state.to_move} (blank keeps all, q quits): "
            )
            words = answer.replace(",", " ").split()
            if not all(word.isdigit() and 1 <= int(word) <= len(pool) for word in words):
                self.say(f"Type numbers from 1 to {len(pool)}, separated by spaces.")
                continue
            move = view.move_for([int(word) - 1 for word in words])
            refused = view.refusal(move)
            if refused is None:
                return move
            self.say(f"Not allowed: {refused.reason} [{refused.rule}]")


def _grouped(moves: list[Any], group: Callable[[Any], str]) -> dict[str, list[Any]]:
    """The moves under their headings, the headings in the order first met.

    >>> _grouped([1, 2, 3, 4], lambda n: "odd" if n % 2 else "even")
    {'odd': [1, 3], 'even': [2, 4]}
    """
    groups: dict[str, list[Any]] = {}
    for move in moves:
        groups.setdefault(group(move), []).append(move)
    return groups


def _label(index: int) -> str:
    """A heading's letter: a-z, then aa, ab, ...

    >>> [_label(0), _label(25), _label(26)]
    ['a', 'z', 'aa']
    """
    if index < len(ascii_lowercase):
        return ascii_lowercase[index]
    return _label(index // len(ascii_lowercase) - 1) + ascii_lowercase[index % 26]


@dataclass
class _Heading:
    """The moves under one heading: parts of a view, or moves listed."""

    parts: list[MoveView[Any] | list[Any]]

    def count(self) -> int:
        return sum(len(part) if isinstance(part, list) else part.count() for part in self.parts)

    def nth(self, index: int) -> Any:
        for part in self.parts:
            size = len(part) if isinstance(part, list) else part.count()
            if index < size:
                return part[index] if isinstance(part, list) else part.nth(index)
            index -= size
        raise IndexError(index)

    def __iter__(self) -> Iterator[Any]:
        return chain.from_iterable(self.parts)


def _headings(
    view: MoveView[Any], total: int, group: Callable[[Any], str]
) -> dict[str, _Heading] | None:
    """The moves of ``view`` under their headings: a view made of ``parts`` part by part
    (each under its first move's heading, so nothing is listed), else the moves listed
    when there are at most ``GROUP_LIMIT``; None when neither can be done."""
    parts: list[MoveView[Any]] | None = getattr(view, "parts", None)
    if parts is not None:
        headings: dict[str, _Heading] = {}
        for part in parts:
            if part.count():
                headings.setdefault(group(part.nth(0)), _Heading([])).parts.append(part)
        return headings
    if total > GROUP_LIMIT:
        return None
    return {heading: _Heading([moves]) for heading, moves in _grouped(list(view), group).items()}
