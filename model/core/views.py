"""Lazy views of the legal moves at one decision, in the manner of python-chess.

A view iterates, counts, answers ``in`` with a reason, and picks a uniformly random
move by rank, so a random player never lists the moves to choose one.

>>> view = ListView([("a",), ("b",)], lambda move: None if move in [("a",), ("b",)]
...                 else Refusal("not offered", "rule 0"))
>>> len(view), ("b",) in view, view.refusal(("c",)).reason
(2, True, 'not offered')
>>> view.verdict(("a",)).legal, view.verdict(("c",)).legal
(True, False)
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from legalis.model.errors import SolverLimitError

M = TypeVar("M")


class RandomSource(Protocol):
    """What moves and chance draw on: ``random.Random`` and ``LoggedRandom`` both fit."""

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, items: list[Any], /) -> None: ...


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move is not legal: a sentence and the rule that refuses it."""

    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a move is legal here, and the reason with the rule either way."""

    legal: bool
    reason: str
    rule: str


class MoveView(ABC, Generic[M]):
    """The legal moves of one decision, computed on demand."""

    @abstractmethod
    def __iter__(self) -> Iterator[M]: ...

    @abstractmethod
    def count(self) -> int:
        """How many legal moves there are, without listing them where possible."""

    @abstractmethod
    def nth(self, index: int) -> M:
        """The move at position ``index`` of the iteration order."""

    @abstractmethod
    def refusal(self, move: object) -> Refusal | None:
        """``None`` when ``move`` is legal here, else why not."""

    def justification(self, move: M) -> Verdict:
        """Why a legal ``move`` is legal; views override this with the rule that admits
        it. (Not a count of the moves: at a decision of millions, counting them would
        keep a yes/no waiting.)"""
        return Verdict(True, "no rule refuses it here", "")

    def verdict(self, move: object) -> Verdict:
        """Legal or not, with the reason and the rule."""
        refused = self.refusal(move)
        if refused is not None:
            return Verdict(False, refused.reason, refused.rule)
        return self.justification(move)  # type: ignore[arg-type]

    def __len__(self) -> int:
        total = self.count()
        if total > sys.maxsize:
            raise SolverLimitError(f"{total} moves are too many for len(); use count()")
        return total

    def __bool__(self) -> bool:
        return self.count() > 0

    def __contains__(self, move: object) -> bool:
        return self.refusal(move) is None

    def random(self, rng: RandomSource) -> M:
        """A uniformly random legal move, found by rank."""
        return self.nth(rng.randrange(self.count()))

    def filter(self, keep: Callable[[M], bool]) -> Iterator[M]:
        """The legal moves for which ``keep`` is true, lazily."""
        return (move for move in self if keep(move))

    def sections(self) -> Sequence[MoveView[Any]]:
        """The views whose moves this one lists one after the other (a Pass, an
        Event, each Command ...), or none for a view of one kind of move."""
        return ()


class ListView(MoveView[M]):
    """A view over a short, already known list of moves."""

    def __init__(
        self,
        moves: Sequence[M],
        refuse: Callable[[object], Refusal | None],
        justify: Callable[[M], Verdict] | None = None,
    ) -> None:
        self._moves = moves
        self._refuse = refuse
        self._justify = justify

    def __iter__(self) -> Iterator[M]:
        return iter(self._moves)

    def count(self) -> int:
        return len(self._moves)

    def nth(self, index: int) -> M:
        return self._moves[index]

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)

    def justification(self, move: M) -> Verdict:
        return self._justify(move) if self._justify else super().justification(move)


class SiftedListView(MoveView[M]):
    """A short list of candidate moves, of which those ``keep`` accepts are legal:
    sifted when first counted or listed, but asked whether any is legal, it stops
    at the first one kept.

    >>> view = SiftedListView([1, 2, 3, 4], lambda n: n % 2 == 0, lambda m: None)
    >>> bool(view), list(view), view.count()
    (True, [2, 4], 2)
    """

    def __init__(
        self,
        candidates: Sequence[M],
        keep: Callable[[M], bool],
        refuse: Callable[[object], Refusal | None],
    ) -> None:
        self._candidates = candidates
        self._keep = keep
        self._refuse = refuse
        self._moves: list[M] | None = None

    def _sifted(self) -> list[M]:
        if self._moves is None:
            self._moves = [move for move in self._candidates if self._keep(move)]
        return self._moves

    def __iter__(self) -> Iterator[M]:
        return iter(self._sifted())

    def count(self) -> int:
        return len(self._sifted())

    def nth(self, index: int) -> M:
        return self._sifted()[index]

    def __bool__(self) -> bool:
        if self._moves is not None:
            return bool(self._moves)
        return any(self._keep(move) for move in self._candidates)

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)


class SubsetView(MoveView[M]):
    """A view whose moves are choices of items from a pool (discard these cards).

    People choose by ticking items of :meth:`pool` rather than reading every
    combination; :meth:`move_for` turns the ticked items into the move.
    """

    @abstractmethod
    def pool(self) -> Sequence[object]:
        """The items to choose from, in display order (copies repeated)."""

    @abstractmethod
    def move_for(self, chosen: Sequence[int]) -> M:
        """The move that picks the items at positions ``chosen`` of :meth:`pool`."""


class SeedChances(MoveView[M]):
    """The outcomes of a chance decision: ``outcomes`` seeds, each the move
    ``roll(seed)``; or, with ``unlisted`` (a reason and its rule), an outcome such as
    a deck's order, too many to list or count, that ``refuse`` checks when sampled.

    >>> view = SeedChances(lambda seed: ("roll", seed), 6, lambda move: None)
    >>> view.count(), view.nth(2)
    (6, ('roll', 2))
    >>> SeedChances(int, 6, lambda move: None, unlisted="deck orders (2.1)").count()
    Traceback (most recent call last):
    legalis.model.errors.SolverLimitError: deck orders (2.1) are not counted: sample one
    """

    def __init__(
        self,
        roll: Callable[[int], M],
        outcomes: int,
        refuse: Callable[[object], Refusal | None],
        *,
        unlisted: str | None = None,
    ) -> None:
        self.roll = roll
        self.outcomes = outcomes
        self.refuse = refuse
        self.unlisted = unlisted

    def __iter__(self) -> Iterator[M]:
        if self.unlisted is not None:
            raise SolverLimitError(f"{self.unlisted} are not listed: sample one")
        return (self.roll(seed) for seed in range(self.outcomes))

    def count(self) -> int:
        if self.unlisted is not None:
            raise SolverLimitError(f"{self.unlisted} are not counted: sample one")
        return self.outcomes

    def nth(self, index: int) -> M:
        if self.unlisted is not None or not 0 <= index < self.outcomes:
            raise IndexError(index)
        return self.roll(index)

    def refusal(self, move: object) -> Refusal | None:
        return self.refuse(move)


GROUP_LISTED_MOST = 2000  # moves of one section listed to count its headings


@dataclass(frozen=True)
class MoveGroup:
    """A run of consecutive legal moves under one heading: its ``count`` (None:
    too many to count here) and the index of its first move, ``offset`` (None
    after a run not counted), so a list can page through it. ``exact``: every
    move of the run was looked at; otherwise a section too large to list was given
    the heading of its first move."""

    heading: str
    count: int | None
    offset: int | None
    exact: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"group": self.heading, "count": self.count, "offset": self.offset,
                "exact": self.exact}  # fmt: skip


def move_groups(view: MoveView[M], heading: Callable[[M], str]) -> list[MoveGroup]:
    """The legal moves as runs of one ``heading`` each, with their counts, found
    section by section so that no large section is listed.

    >>> view = ListView(["pass", "march a", "march b"], lambda move: None)
    >>> [(g.heading, g.count, g.offset) for g in move_groups(view, lambda m: m.split()[0])]
    [('pass', 1, 0), ('march', 2, 1)]
    """
    runs: list[MoveGroup] = []
    _group_into(view, heading, runs)
    return runs


def _add(runs: list[MoveGroup], heading: str, count: int | None, exact: bool) -> None:
    last = runs[-1] if runs else None
    offset: int | None = 0
    if last is not None:
        offset = None if last.offset is None or last.count is None else last.offset + last.count
    if last is not None and last.heading == heading and offset is not None and count is not None:
        runs[-1] = MoveGroup(
            heading, offset - (last.offset or 0) + count, last.offset, last.exact and exact
        )
    else:
        runs.append(MoveGroup(heading, count, offset, exact))


def _group_into(view: MoveView[M], heading: Callable[[M], str], runs: list[MoveGroup]) -> None:
    sections = view.sections()
    if sections:
        for section in sections:
            _group_into(section, heading, runs)
        return
    try:
        count = view.count()
    except SolverLimitError:
        _add(runs, heading(next(iter(view))), None, False)
        return
    if count == 0:
        return
    if count <= GROUP_LISTED_MOST:
        for move in view:
            _add(runs, heading(move), 1, True)
        return
    # a section of one kind of move (an Event's executions, one Command's
    # selections): its first move names it, as no more are looked at
    _add(runs, heading(next(iter(view))), count, False)
