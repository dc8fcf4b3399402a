"""Counting, listing and ranking the sub-multisets of a multiset, without listing them.

A hand of cards with repeated copies has fewer distinct discards than subsets;
this module counts those distinct choices exactly and finds the ``n``-th one
directly, so a random player picks uniformly in time linear in the hand.

>>> picks = SubMultisets({"a": 2, "b": 1}, 0, 2)
>>> picks.count(), list(picks)
(5, [(), ('b',), ('a',), ('a', 'b'), ('a', 'a')])
>>> picks.nth(3)
('a', 'b')
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from math import factorial
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class SubMultisets(Generic[K]):
    """The distinct sub-multisets of ``counts`` whose size lies in ``lo..hi``.

    Order: by size, then by the multiplicity of each key in ``counts`` order
    (fewer first). Each result is a tuple listing keys in ``counts`` order.
    """

    def __init__(self, counts: Mapping[K, int], lo: int, hi: int) -> None:
        self.keys = [key for key, count in counts.items() if count > 0]
        self.limits = [counts[key] for key in self.keys]
        total = sum(self.limits)
        self.lo = max(lo, 0)
        self.hi = min(hi, total)
        # exact[i][s]: how many ways keys i.. make exactly size s
        size = max(self.hi, 0) + 1
        exact = [[0] * size for _ in range(len(self.keys) + 1)]
        exact[len(self.keys)][0] = 1
        for i in range(len(self.keys) - 1, -1, -1):
            row, below, limit = exact[i], exact[i + 1], self.limits[i]
            window = 0  # below[s - limit] + ... + below[s], kept as a running sum
            for s in range(size):
                window += below[s]
                if s > limit:
                    window -= below[s - limit - 1]
                row[s] = window
        self._exact = exact

    def count(self) -> int:
        return (
            sum(self._exact[0][s] for s in range(self.lo, self.hi + 1)) if self.hi >= self.lo else 0
        )

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[tuple[K, ...]]:
        for size in range(self.lo, self.hi + 1):
            yield from self._of_size(0, size, ())

    def _of_size(self, i: int, size: int, prefix: tuple[K, ...]) -> Iterator[tuple[K, ...]]:
        if i == len(self.keys):
            if size == 0:
                yield prefix
            return
        for j in range(min(self.limits[i], size) + 1):
            if self._exact[i + 1][size - j]:
                yield from self._of_size(i + 1, size - j, prefix + (self.keys[i],) * j)

    def nth(self, index: int) -> tuple[K, ...]:
        """The sub-multiset at position ``index`` of the iteration order."""
        if not 0 <= index < self.count():
            raise IndexError(index)
        size = self.lo
        while index >= self._exact[0][size]:
            index -= self._exact[0][size]
            size += 1
        picked: list[K] = []
        for i, key in enumerate(self.keys):
            below = self._exact[i + 1]
            for j in range(min(self.limits[i], size) + 1):
                ways = below[size - j]
                if index < ways:
                    picked.extend([key] * j)
                    size -= j
                    break
                index -= ways
        return tuple(picked)


def permutations_count(counts: Mapping[K, int]) -> int:
    """How many distinct orders a multiset has: the multinomial coefficient.

    >>> permutations_count({"a": 2, "b": 1})
    3
    """
    result = factorial(sum(counts.values()))
    for count in counts.values():
        result //= factorial(count)
    return result


def nth_permutation(counts: Mapping[K, int], index: int) -> tuple[K, ...]:
    """The distinct order of the multiset at ``index``, keys ranked in ``counts`` order.

    >>> [nth_permutation({"a": 2, "b": 1}, i) for i in range(3)]
    [('a', 'a', 'b'), ('a', 'b', 'a'), ('b', 'a', 'a')]
    """
    remaining = {key: count for key, count in counts.items() if count > 0}
    if not 0 <= index < permutations_count(remaining):
        raise IndexError(index)
    order: list[K] = []
    while remaining:
        for key in list(remaining):
            rest = dict(remaining)
            rest[key] -= 1
            if not rest[key]:
                del rest[key]
            ways = permutations_count(rest)
            if index < ways:
                order.append(key)
                remaining = rest
                break
            index -= ways
    return tuple(order)
