"""Seeded randomness whose every draw is recorded, so any game replays exactly.

>>> rng = LoggedRandom(7)
>>> first = rng.randrange(6)
>>> again = LoggedRandom(7)
>>> again.randrange(6) == first, rng.log[0][0]
(True, 'randrange')
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


class LoggedRandom:
    """A ``random.Random`` seeded once; each draw appends ``(kind, result)`` to ``log``."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self.log: list[tuple[str, object]] = []

    def randrange(self, stop: int) -> int:
        """A uniform integer in ``0..stop-1``."""
        result = self._random.randrange(stop)
        self.log.append(("randrange", result))
        return result

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place, uniformly."""
        self._random.shuffle(items)
        self.log.append(("shuffle", len(items)))
