"""Verification split into tasks that an executor may run anywhere.

Deck checks, proofs and fixtures hand their work to a *mapper*: a function that
takes a task function and a sequence of task items and yields the results in the
items' order. :func:`in_process` runs the tasks one by one in this process; an
executor of local processes or of a cluster runs them elsewhere. Results never
depend on the mapper, so every task keeps to three rules:

- the task function is defined at module level (it is pickled by name) and takes
  one picklable item, a tuple or a frozen dataclass; its result is picklable too;
- the context a task needs (a game's facts, witness states, the parsed grammar) is
  rebuilt in the process that runs it, cached by game name, never carried in a
  closure;
- a task never reads another task's result: whatever needs them all runs in the
  caller once every result is back.

>>> list(in_process(len, ["a", "bb", "ccc"]))
[1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

__all__ = ["Mapper", "in_process"]

T = TypeVar("T")
R = TypeVar("R")


class Mapper(Protocol):
    """``mapper(function, items)`` yields ``function(item)`` for each item, in the
    items' order, as each result becomes available: the shape of
    ``Callable[[Callable[[T], R], Sequence[T]], Iterator[R]]``, with ``T`` and ``R``
    bound afresh at each call.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as executor:
    ...     threads: Mapper = executor.map
    ...     list(threads(abs, [-2, 1]))
    [2, 1]
    """

    def __call__(self, function: Callable[[T], R], items: Sequence[T], /) -> Iterator[R]: ...


def in_process(function: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
    """The default mapper: each task in turn, in this process, as it is asked for.

    >>> results = in_process(str.upper, ["lod", "fitl"])
    >>> next(results), list(results)
    ('LOD', ['FITL'])
    """
    for item in items:
        yield function(item)
