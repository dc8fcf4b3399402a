"""Distributing pieces over spaces: the selections an event's piece effect allows.

"Place 2 Militia in each of 3 Colonies", "remove up to 4 Militia from Colonies":
each is a choice of how many pieces go to (or come from) each candidate space,
within the room each space has, the pieces there are to draw on, and the number of
spaces the text allows. Under 5.1.3 an exact count must be carried out as far as it
can: a selection is legal only if it is *maximal*, that is no chosen space could
take one more piece; when the number of spaces is exact, no further space could be
chosen either. An ``up to`` count leaves every amount to the executing Faction.

:class:`Distribution` counts the legal selections by dynamic programming, lists
them lazily, finds the ``n``-th directly, and states the same rule as an IR term
(:meth:`Distribution.rule`) for the Z3 back end, which the tests compare it with.

>>> # 2 per space in exactly 2 of 3 spaces with room 2, 1 and 0; 5 pieces to draw on
>>> problem = Distribution(room=(2, 1, 0), per_space=2, spaces=2, pool=5)
>>> problem.count(), list(problem)
(1, [(2, 1, 0)])
>>> Distribution(room=(3, 3), total=4, pool=9).count()  # exactly 4 over 2 spaces of room 3
3
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from legalis.model.core.ir import (
    Add,
    And,
    CountTrue,
    Eq,
    Implies,
    IntVar,
    Le,
    Lt,
    Or,
    Term,
)


@dataclass(frozen=True)
class Distribution:
    """How many pieces each candidate space receives (or loses).

    ``room``: at most this many in each space (stacking room, pieces present).
    ``per_space``: the count for each chosen space ("2 in each of ..."), or
    ``total``: the count spread over the chosen spaces ("4 from Colonies"); exactly
    one of the two is given. ``spaces``: at most this many spaces may be chosen
    (``None``: any number); ``spaces_exact``: as many as can be must be chosen.
    ``pool``: pieces there are to draw on (Available pieces for a placement).
    ``up_to``: the count is an upper bound, with no duty to reach it.
    """

    room: tuple[int, ...]
    per_space: int | None = None
    total: int | None = None
    spaces: int | None = None
    spaces_exact: bool = True
    pool: int | None = None
    up_to: bool = False

    def __post_init__(self) -> None:
        if (self.per_space is None) == (self.total is None):
            raise ValueError("give exactly one of per_space and total")
        if any(r < 0 for r in self.room) or min(self.per_space or 0, self.total or 0) < 0:
            raise ValueError("room and counts are never negative")

    @property
    def caps(self) -> tuple[int, ...]:
        """What each space can take at most, on its own."""
        if self.per_space is not None:
            return tuple(min(r, self.per_space) for r in self.room)
        return self.room

    @property
    def limit(self) -> int:
        """The most pieces the whole selection may move."""
        bounds = [sum(self.caps)]
        if self.total is not None:
            bounds.append(self.total)
        if self.pool is not None:
            bounds.append(self.pool)
        return min(bounds)

    @property
    def max_spaces(self) -> int:
        return len(self.room) if self.spaces is None else min(self.spaces, len(self.room))

    # ------------------------------------------------------------------ the rule

    def is_legal(self, amounts: Sequence[int]) -> bool:
        """Whether ``amounts`` (one per space) is a legal selection."""
        return self.refusal(amounts) is None

    def refusal(self, amounts: Sequence[int]) -> str | None:
        """``None`` for a legal selection, else why not (citing 5.1.1 or 5.1.3)."""
        caps, limit = self.caps, self.limit
        if len(amounts) != len(caps):
            return f"expected {len(caps)} amounts, got {len(amounts)}"
        for index, (amount, cap) in enumerate(zip(amounts, caps, strict=True)):
            if not 0 <= amount <= cap:
                return f"space #{index} can take 0 to {cap}, not {amount} (5.1.1)"
        chosen = sum(1 for amount in amounts if amount)
        if chosen > self.max_spaces:
            return f"{chosen} spaces chosen, at most {self.max_spaces} allowed"
        moved = sum(amounts)
        if moved > limit:
            return f"{moved} pieces, but at most {limit} can be moved (5.1.1)"
        if self.up_to or moved == limit:
            return None
        for index, (amount, cap) in enumerate(zip(amounts, caps, strict=True)):
            if 0 < amount < cap:
                return f"space #{index} could take {cap - amount} more (5.1.3)"
        if self.spaces_exact and chosen < self.max_spaces:
            for index, (amount, cap) in enumerate(zip(amounts, caps, strict=True)):
                if amount == 0 and cap > 0:
                    return f"space #{index} could be chosen too (5.1.3)"
        return None

    def rule(self) -> tuple[list[IntVar], Term]:
        """The same rule as an IR term over one variable per space, for Z3."""
        caps, limit = self.caps, self.limit
        amounts = [IntVar(f"a{index}", 0, cap) for index, cap in enumerate(caps)]
        moved = Add(*amounts)
        chosen = CountTrue(*(Lt(0, a) for a in amounts))
        feasible = And(Le(chosen, self.max_spaces), Le(moved, limit))
        if self.up_to:
            return amounts, feasible
        exhausted = Eq(moved, limit)
        counts_full = And(
            *(Implies(Lt(0, a), Eq(a, cap)) for a, cap in zip(amounts, caps, strict=True))
        )
        spaces_full = Or(
            Eq(chosen, self.max_spaces),
            And(*(Implies(Eq(a, 0), Eq(cap, 0)) for a, cap in zip(amounts, caps, strict=True))),
        )
        maximal = Or(exhausted, And(counts_full, spaces_full if self.spaces_exact else True))
        return amounts, And(feasible, maximal)

    # ------------------------------------------------------------------ counting

    @cached_property
    def _table(self) -> list[dict[tuple[int, int, bool, bool], int]]:
        """``table[i][(chosen, moved, partial, skipped)]``: completions of spaces i.. .

        ``partial``: a chosen space took less than it could; ``skipped``: a space that
        could take pieces was left out. Both matter only if the limit is not reached.
        """
        caps, limit, top = self.caps, self.limit, self.max_spaces
        m = len(caps)
        table: list[dict[tuple[int, int, bool, bool], int]] = [{} for _ in range(m + 1)]

        def finished(chosen: int, moved: int, partial: bool, skipped: bool) -> int:
            if self.up_to or moved == limit:
                return 1
            if partial:
                return 0
            return 0 if self.spaces_exact and skipped and chosen < top else 1

        # states are filled from the last space backwards, for every reachable key
        keys = [(c, s, p, k) for c in range(top + 1) for s in range(limit + 1)
                for p in (False, True) for k in (False, True)]  # fmt: skip
        table[m] = {key: finished(*key) for key in keys}
        for index in range(m - 1, -1, -1):
            cap, below, row = caps[index], table[index + 1], table[index]
            for chosen, moved, partial, skipped in keys:
                total = below[(chosen, moved, partial, skipped or cap > 0)]
                for amount in range(1, min(cap, limit - moved) + 1):
                    if chosen < top:
                        total += below[
                            (chosen + 1, moved + amount, partial or amount < cap, skipped)
                        ]
                row[(chosen, moved, partial, skipped)] = total
        return table

    def count(self) -> int:
        """How many legal selections there are, without listing them."""
        return self._table[0][(0, 0, False, False)]

    def __len__(self) -> int:
        return self.count()

    def _choices(
        self, index: int, key: tuple[int, int, bool, bool]
    ) -> Iterator[tuple[int, tuple[int, int, bool, bool], int]]:
        """(amount, next key, completions) for space ``index``, in ascending amount."""
        chosen, moved, partial, skipped = key
        cap, below = self.caps[index], self._table[index + 1]
        rest = (chosen, moved, partial, skipped or cap > 0)
        yield 0, rest, below[rest]
        if chosen < self.max_spaces:
            for amount in range(1, min(cap, self.limit - moved) + 1):
                after = (chosen + 1, moved + amount, partial or amount < cap, skipped)
                yield amount, after, below[after]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every legal selection, lazily, in :meth:`nth` order, never entering a dead end."""
        stack: list[tuple[int, tuple[int, int, bool, bool], tuple[int, ...]]] = [
            (0, (0, 0, False, False), ())
        ]
        m = len(self.caps)
        while stack:
            index, key, prefix = stack.pop()
            if index == m:
                yield prefix
                continue
            options = [(a, k) for a, k, ways in self._choices(index, key) if ways]
            for amount, after in reversed(options):
                stack.append((index + 1, after, (*prefix, amount)))

    def nth(self, rank: int) -> tuple[int, ...]:
        """The legal selection at position ``rank`` of the iteration order."""
        if not 0 <= rank < self.count():
            raise IndexError(rank)
        key, picked = (0, 0, False, False), []
        for index in range(len(self.caps)):
            for amount, after, ways in self._choices(index, key):
                if rank < ways:
                    picked.append(amount)
                    key = after
                    break
                rank -= ways
        return tuple(picked)
