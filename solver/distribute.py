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

Key = tuple[int, int, bool, bool]  # spaces chosen, pieces moved, a partial space, a skipped one


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

    def _transitions(self, index: int, key: Key) -> list[tuple[int, Key]]:
        """(amount, next key) for every amount space ``index`` may take from ``key``.

        Keys keep only what can still decide legality, so fewer states are counted:
        ``partial`` (a chosen space took less than it could) matters for an exact
        count, ``skipped`` (a space that could take pieces was left out) for an exact
        number of spaces, and ``chosen`` only when the number of spaces is limited.
        """
        chosen, moved, partial, skipped = key
        cap = self.caps[index]
        exact = not self.up_to
        out = [(0, (chosen, moved, partial, skipped or (cap > 0 and exact and self.spaces_exact)))]
        if self.spaces is not None:
            if chosen >= self.max_spaces:
                return out
            chosen += 1
        for amount in range(1, min(cap, self.limit - moved) + 1):
            out.append(
                (amount, (chosen, moved + amount, partial or (exact and amount < cap), skipped))
            )
        return out

    @cached_property
    def _steps(self) -> list[dict[Key, list[tuple[int, Key]]]]:
        """For each space, the keys it can be reached with and where each amount leads."""
        steps: list[dict[Key, list[tuple[int, Key]]]] = []
        reached: set[Key] = {(0, 0, False, False)}
        for index in range(len(self.caps)):
            level = {key: self._transitions(index, key) for key in reached}
            steps.append(level)
            reached = {after for moves in level.values() for _, after in moves}
        return steps

    @cached_property
    def _ways(self) -> list[dict[Key, int]]:
        """``_ways[i][key]``: legal completions of spaces ``i..`` from ``key``, for the
        keys :attr:`_steps` reaches."""
        steps, m = self._steps, len(self.caps)
        limit, top, up_to = self.limit, self.max_spaces, self.up_to
        ways: list[dict[Key, int]] = [{} for _ in range(m + 1)]
        last = {after for moves in steps[-1].values() for _, after in moves} if steps else {
            (0, 0, False, False)}  # fmt: skip
        for chosen, moved, partial, skipped in last:
            done = up_to or moved == limit or not (partial or (skipped and chosen < top))
            ways[m][(chosen, moved, partial, skipped)] = int(done)
        for index in range(m - 1, -1, -1):
            below = ways[index + 1]
            ways[index] = {
                key: sum(below[after] for _, after in moves) for key, moves in steps[index].items()
            }
        return ways

    def count(self) -> int:
        """How many legal selections there are, without listing them."""
        return self._ways[0][(0, 0, False, False)]

    def __len__(self) -> int:
        return self.count()

    def _choices(self, index: int, key: Key) -> Iterator[tuple[int, Key, int]]:
        """(amount, next key, completions) for space ``index``, in ascending amount."""
        below = self._ways[index + 1]
        for amount, after in self._steps[index][key]:
            yield amount, after, below[after]

    def _viable(self, index: int, key: Key) -> list[tuple[int, Key]]:
        """The amounts for space ``index`` that lead to at least one legal selection."""
        memo = self._viable_memo
        found = memo.get((index, key))
        if found is None:
            found = [(amount, after) for amount, after, ways in self._choices(index, key) if ways]
            memo[(index, key)] = found
        return found

    @cached_property
    def _viable_memo(self) -> dict[tuple[int, Key], list[tuple[int, Key]]]:
        return {}

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every legal selection, lazily, in :meth:`nth` order, never entering a dead end.

        An odometer over the spaces: the last space turns fastest, and a space's
        options are only those the counting table says can still be completed.
        """
        if self.count() == 0:
            return
        m = len(self.caps)
        amounts = [0] * m
        options: list[list[tuple[int, Key]]] = [[] for _ in range(m)]
        positions = [0] * m
        keys: list[Key] = [(0, 0, False, False)] * (m + 1)

        def descend(level: int) -> None:
            for index in range(level, m):
                options[index] = self._viable(index, keys[index])
                positions[index] = 0
                amounts[index], keys[index + 1] = options[index][0]

        descend(0)
        yield tuple(amounts)
        level = m - 1
        while level >= 0:
            positions[level] += 1
            if positions[level] < len(options[level]):
                amounts[level], keys[level + 1] = options[level][positions[level]]
                descend(level + 1)
                yield tuple(amounts)
                level = m - 1
            else:
                level -= 1

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
