"""Distributing pieces over spaces: the selections an event's piece effect allows.

"Place 2 Militia in each of 3 Colonies", "remove up to 4 Tories or Regulars from
Colonies": each is a choice of how many pieces of each type go to (or come from)
each candidate space, within the room each space has for each type, the pieces of
each type there are to draw on, and the number of spaces the text allows.

Under 5.1.3 an exact count must be carried out as far as it can: a selection is
legal only if it is *maximal*, that is no chosen space could take one more piece;
when the number of spaces is exact, no further space could be chosen either. An
``up to`` count leaves every amount to the executing Faction.

:class:`Distribution` counts the legal selections by dynamic programming, lists
them lazily, finds the ``n``-th directly, and states the same rule as an IR term
(:meth:`Distribution.rule`) for Z3 and python-constraint, which the tests compare
it with. A selection gives, for each space, the amount of each piece type. For a
move, whose arrivals depend on what departs, it also tallies the selections by
sums over their rows (:meth:`Distribution.tally`) and counts the arrivals of
every number of pieces from one table (:meth:`Distribution.counts_by_pool`).

>>> # 2 per space in exactly 2 of 3 spaces with room 2, 1 and 0; 5 pieces to draw on
>>> problem = Distribution.single(room=(2, 1, 0), per_space=2, spaces=2, pool=5)
>>> problem.count(), list(problem)
(1, [((2,), (1,), (0,))])
>>> # remove 1 Fort, British or Patriot, from two spaces holding one of each
>>> forts = Distribution(room=((1, 1), (1, 0)), total=1)
>>> list(forts)
[((0, 0), (1, 0)), ((0, 1), (0, 0)), ((1, 0), (0, 0))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property, lru_cache
from itertools import product
from math import prod
from operator import add
from typing import Any

from legalis.model.core.ir import (
    Add,
    And,
    Const,
    CountTrue,
    Eq,
    IntVar,
    Le,
    Lt,
    Not,
    Or,
    Term,
)
from legalis.solver.deadline import check_deadline

Selection = tuple[tuple[int, ...], ...]
# spaces chosen, pieces moved, pieces used per type, types some chosen space could
# still take, types some unchosen space could take
Key = tuple[int, int, tuple[int, ...], frozenset[int], frozenset[int]]


@dataclass(frozen=True)
class Distribution:
    """How many pieces of each type each candidate space receives (or loses).

    ``room[s][t]``: at most this many of type ``t`` in space ``s`` (stacking room,
    pieces present). ``per_space``: the count for each chosen space ("2 in each of
    ..."), or ``total``: the count spread over the chosen spaces ("4 from Colonies");
    exactly one of the two is given. ``spaces``: at most this many spaces may be
    chosen (``None``: any number); ``spaces_exact``: as many as can be must be.
    ``pool[t]``: pieces of type ``t`` to draw on (Available pieces for a placement;
    ``None``: no limit). ``up_to``: the count is a bound, with no duty to reach it.
    ``space_room[s]``: at most this many pieces of all types together in space ``s``
    (stacking room that Forts and Villages share); with ``space_kinds``, of the
    types marked True only (Forts beside Tories, which do not stack).
    ``optional[t]``: pieces of type ``t`` may be taken but never have to be (a
    Faction's own Tunneled Bases, 5.1.1).
    """

    room: tuple[tuple[int, ...], ...]
    per_space: int | None = None
    total: int | None = None
    spaces: int | None = None
    spaces_exact: bool = True
    pool: tuple[int | None, ...] | None = None
    up_to: bool = False
    space_room: tuple[int, ...] | None = None
    optional: tuple[bool, ...] | None = None
    space_kinds: tuple[bool, ...] | None = None

    def __post_init__(self) -> None:
        if (self.per_space is None) == (self.total is None):
            raise ValueError("give exactly one of per_space and total")
        if len({len(row) for row in self.room}) > 1:
            raise ValueError("every space gives a room for each piece type")
        if (
            any(r < 0 for row in self.room for r in row)
            or min(self.per_space or 0, self.total or 0) < 0
        ):
            raise ValueError("room and counts are never negative")
        if self.pool is not None and len(self.pool) != self.kinds:
            raise ValueError("give a pool for each piece type")
        if self.space_room is not None and len(self.space_room) != len(self.room):
            raise ValueError("give a space room for each space")
        if self.optional is not None and len(self.optional) != self.kinds:
            raise ValueError("say for each piece type whether it is optional")
        if self.space_kinds is not None and len(self.space_kinds) != self.kinds:
            raise ValueError("say for each piece type whether it uses the space room")

    @classmethod
    def single(
        cls, room: Sequence[int], pool: int | None = None, **rest: int | bool | None
    ) -> Distribution:
        """A distribution of one piece type: ``room`` and ``pool`` as plain numbers."""
        return cls(room=tuple((r,) for r in room), pool=(pool,), **rest)  # type: ignore[arg-type]

    def _stacked(self, row: Sequence[int]) -> int:
        """The pieces of ``row`` that use the space room."""
        if self.space_kinds is None:
            return sum(row)
        return sum(n for n, counted in zip(row, self.space_kinds, strict=True) if counted)

    @property
    def kinds(self) -> int:
        if self.room:
            return len(self.room[0])
        for per_type in (self.pool, self.optional):
            if per_type is not None:
                return len(per_type)
        return 1

    @property
    def max_spaces(self) -> int:
        return len(self.room) if self.spaces is None else min(self.spaces, len(self.room))

    def _pool(self, kind: int) -> int | None:
        return None if self.pool is None else self.pool[kind]

    # ------------------------------------------------------------------ the rule

    def is_legal(self, selection: Selection) -> bool:
        """Whether ``selection`` (an amount per space and type) is legal."""
        return self.refusal(selection) is None

    def refusal(
        self,
        selection: Selection,
        names: tuple[Sequence[str], Sequence[str]] | None = None,
    ) -> str | None:
        """``None`` for a legal selection, else why not (citing 5.1.1 or 5.1.3).

        ``names`` gives the spaces' and the types' names for the sentence; without
        them, spaces and types are called by their index.

        >>> problem = Distribution(room=[(1, 0)], total=1)
        >>> problem.refusal([(0, 1)], (["Boston"], ["tory", "militia"]))
        'Boston takes 0 to 0 of militia, not 1 (5.1.1)'
        >>> problem.refusal([(0, 1)])
        'space #0 takes 0 to 0 of type #1, not 1 (5.1.1)'
        """
        spaces_named, kinds_named = names or ((), ())

        def space_name(index: int) -> str:
            return spaces_named[index] if names else f"space #{index}"

        def kind_name(index: int) -> str:
            return kinds_named[index] if names else f"type #{index}"

        if len(selection) != len(self.room) or any(len(row) != self.kinds for row in selection):
            return f"expected {len(self.room)} spaces of {self.kinds} amounts"
        for space, (row, room) in enumerate(zip(selection, self.room, strict=True)):
            for kind, (amount, most) in enumerate(zip(row, room, strict=True)):
                if not 0 <= amount <= most:
                    return (
                        f"{space_name(space)} takes 0 to {most} of {kind_name(kind)}, "
                        f"not {amount} (5.1.1)"
                    )
            if self.per_space is not None and sum(row) > self.per_space:
                return f"{space_name(space)} takes {sum(row)}, more than {self.per_space}"
            if self.space_room is not None and self._stacked(row) > self.space_room[space]:
                return f"{space_name(space)} has room for {self.space_room[space]} in all (5.1.1)"
        chosen = sum(1 for row in selection if any(row))
        if chosen > self.max_spaces:
            return f"{chosen} spaces chosen, at most {self.max_spaces} allowed"
        moved = sum(map(sum, selection))
        if self.total is not None and moved > self.total:
            return f"{moved} pieces, more than {self.total}"
        used = [sum(row[kind] for row in selection) for kind in range(self.kinds)]
        for kind, count in enumerate(used):
            supply = self._pool(kind)
            if supply is not None and count > supply:
                return f"{count} pieces of {kind_name(kind)}, but only {supply} to draw on (5.1.1)"
        if self.up_to or (self.total is not None and moved == self.total):
            return None
        for space, row in enumerate(selection):
            if any(row) or (self.spaces_exact and chosen < self.max_spaces):
                for kind in range(self.kinds):
                    if self._could_take(space, row, kind, used[kind]):
                        what = "take one more" if any(row) else "be chosen too"
                        return f"{space_name(space)} could {what} (5.1.3)"
        return None

    def _could_take(self, space: int, row: Sequence[int], kind: int, used: int | None) -> bool:
        """Whether ``space``, holding ``row``, could be made to take one more of ``kind``;
        ``used=None`` leaves the pool out, for when the final use is not known yet."""
        if self.optional is not None and self.optional[kind]:
            return False
        most = self._pool(kind)
        has_room = row[kind] < self.room[space][kind]
        under_count = self.per_space is None or sum(row) < self.per_space
        in_space = (
            self.space_room is None
            or (self.space_kinds is not None and not self.space_kinds[kind])
            or self._stacked(row) < self.space_room[space]
        )
        return (
            has_room and under_count and in_space and (most is None or used is None or used < most)
        )

    def rule(self) -> tuple[list[list[IntVar]], Term]:
        """The same rule as an IR term, one variable per space and type, for Z3."""
        amounts = [
            [IntVar(f"a{space}_{kind}", 0, most) for kind, most in enumerate(room)]
            for space, room in enumerate(self.room)
        ]
        rows = [Add(*row) for row in amounts]
        counted = self.space_kinds or (True,) * self.kinds
        stacked = [Add(*(a for a, c in zip(row, counted, strict=True) if c)) for row in amounts]
        moved = Add(*rows)
        chosen = CountTrue(*(Lt(0, row) for row in rows))
        used = [Add(*(row[kind] for row in amounts)) for kind in range(self.kinds)]
        parts: list[Term] = [Le(chosen, self.max_spaces)]
        if self.per_space is not None:
            parts.extend(Le(row, self.per_space) for row in rows)
        if self.space_room is not None:
            parts.extend(Le(row, most) for row, most in zip(stacked, self.space_room, strict=True))
        if self.total is not None:
            parts.append(Le(moved, self.total))
        for kind, count in enumerate(used):
            most = self._pool(kind)
            if most is not None:
                parts.append(Le(count, most))
        if self.up_to:
            return amounts, And(*parts)

        def could_take(space: int, kind: int) -> Term:
            if self.optional is not None and self.optional[kind]:
                return Const(False)
            most = self._pool(kind)
            return And(
                Lt(amounts[space][kind], self.room[space][kind]),
                Lt(rows[space], self.per_space) if self.per_space is not None else Const(True),
                Lt(stacked[space], self.space_room[space])
                if self.space_room is not None and counted[kind]
                else Const(True),
                Lt(used[kind], most) if most is not None else Const(True),
            )

        stuck = []
        for space in range(len(self.room)):
            open_space = Or(
                Lt(0, rows[space]),
                And(Const(self.spaces_exact), Lt(chosen, self.max_spaces)),
            )
            for kind in range(self.kinds):
                stuck.append(Not(And(open_space, could_take(space, kind))))
        exhausted = Eq(moved, self.total) if self.total is not None else Const(False)
        return amounts, And(*parts, Or(exhausted, And(*stuck)))

    # ------------------------------------------------------------------ counting

    @property
    def rows(self) -> list[list[tuple[int, ...]]]:
        """For each space, every row of amounts it may take on its own."""
        return self._rows

    @cached_property
    def _rows(self) -> list[list[tuple[int, ...]]]:
        """Every amount row a space may take on its own (its room, the per-space count)."""
        out = []
        for space, room in enumerate(self.room):
            shared = self.space_room is not None and self.space_kinds is None
            bound = min(
                self.per_space if self.per_space is not None else sum(room),
                self.space_room[space] if self.space_room is not None and shared else sum(room),
                self.total if self.total is not None else sum(room),
            )
            rows = _amount_rows(room, bound)
            if self.space_room is not None and not shared:
                most = self.space_room[space]
                rows = tuple(row for row in rows if self._stacked(row) <= most)
            out.append(list(rows))
        return out

    def _transitions(self, index: int, key: Key) -> list[tuple[tuple[int, ...], Key]]:
        """(row, next key) for every row space ``index`` may take from ``key``.

        Keys keep only what can still decide legality: the types some chosen space
        could still take (for an exact count), and the types a space left out could
        have taken (for an exact number of spaces).
        """
        chosen, moved, used, open_kinds, skipped_kinds = key
        exact = not self.up_to
        # when every space may be chosen, the number chosen decides nothing (a space
        # left out already means fewer than all): not counting it keeps fewer keys
        counted = int(self.max_spaces < len(self.room))
        out = []
        for row in self._rows[index]:
            amount = sum(row)
            if amount == 0:
                skipped = skipped_kinds
                if exact and self.spaces_exact:
                    takers = [k for k in range(len(row)) if self._could_take(index, row, k, None)]
                    skipped = skipped | frozenset(takers)
                out.append((row, (chosen, moved, used, open_kinds, skipped)))
                continue
            if chosen >= self.max_spaces:
                break
            if self.total is not None and moved + amount > self.total:
                break
            # only types with a pool need their use counted: fewer states to count
            after_used = tuple(
                u + r if self._pool(k) is not None else 0
                for k, (u, r) in enumerate(zip(used, row, strict=True))
            )
            if any(
                (most := self._pool(k)) is not None and after_used[k] > most
                for k in range(len(row))
            ):
                continue
            opened = open_kinds
            if exact:
                takers = [k for k in range(len(row)) if self._could_take(index, row, k, None)]
                opened = open_kinds | frozenset(takers)
            out.append((row, (chosen + counted, moved + amount, after_used, opened, skipped_kinds)))
        return out

    def _finished(self, key: Key) -> bool:
        chosen, moved, used, open_kinds, skipped_kinds = key
        if self.up_to or (self.total is not None and moved == self.total):
            return True

        def short(kind: int) -> bool:
            most = self._pool(kind)
            return most is None or used[kind] < most

        if any(short(kind) for kind in open_kinds):
            return False
        return not (chosen < self.max_spaces and any(short(kind) for kind in skipped_kinds))

    @cached_property
    def _levels(self) -> tuple[list[dict[Key, list[tuple[tuple[int, ...], Key]]]], set[Key]]:
        """For each space, the keys it can be reached with and where each row leads;
        and the keys reached after the last space."""
        steps: list[dict[Key, list[tuple[tuple[int, ...], Key]]]] = []
        reached: set[Key] = {self._start}
        for index in range(len(self.room)):
            level = {key: self._transitions(index, key) for key in reached}
            steps.append(level)
            reached = {after for moves in level.values() for _, after in moves}
        return steps, reached

    @cached_property
    def _ways(self) -> list[dict[Key, int]]:
        """``_ways[i][key]``: legal completions of spaces ``i..`` from ``key``."""
        (steps, last), m = self._levels, len(self.room)
        ways: list[dict[Key, int]] = [{} for _ in range(m + 1)]
        ways[m] = {key: int(self._finished(key)) for key in last}
        for index in range(m - 1, -1, -1):
            below = ways[index + 1]
            ways[index] = {
                key: sum(below[after] for _, after in moves) for key, moves in steps[index].items()
            }
        return ways

    @property
    def _start(self) -> Key:
        return (0, 0, (0,) * self.kinds, frozenset(), frozenset())

    def count(self) -> int:
        """How many legal selections there are, without listing them.

        When the piece types do not constrain one another (no shared room, no bound
        on the spaces or the total that a type's own pool leaves open), the count is
        the product of each type's own count, which is far cheaper to find.
        """
        return _count_cached(self)

    def _count_now(self) -> int:
        parts = self._per_kind
        if parts is not None:
            return prod(map(_count_cached, parts))
        return self._ways[0][self._start]

    @cached_property
    def _per_kind(self) -> tuple[Distribution, ...] | None:
        """One single-type distribution per type, when the legal selections are
        exactly the combinations of each type's legal selections; else ``None``.

        A selection is then legal when each type, on its own, is carried out in full
        or as far as the room allows (5.1.3): every space counts as one that could
        take more, chosen or not, because every space may be chosen.
        """
        pool = self.pool
        if (
            self.kinds < 2
            or pool is None
            or any(most is None for most in pool)
            or self.per_space is not None
            or self.space_room is not None
            or self.max_spaces < len(self.room)
            or not (self.up_to or self.spaces_exact)
            or self.total is None
            or self.total < sum(most or 0 for most in pool)
        ):
            return None
        return tuple(
            Distribution(
                room=tuple((row[kind],) for row in self.room),
                pool=(most,),
                total=most,
                up_to=self.up_to,
                optional=None if self.optional is None else self.optional[kind : kind + 1],
            )
            for kind, most in enumerate(pool)
        )

    @property
    def kinds_independent(self) -> bool:
        """Whether the count is the product of each piece type's own count."""
        return self._per_kind is not None

    def counts_by_pool(self, deadline: float | None = None) -> Callable[[Sequence[int]], int]:
        """The count for every pool at once, where the pool is the whole count: "every
        one of these pieces arrives" (a move's arrival, 5.1.3).

        ``self`` has no pool and a ``total`` no smaller than any pool's sum. The
        function returned gives, for a pool ``m``, the count of this distribution
        with ``pool=m`` and ``total=sum(m)`` (room beyond ``m`` changes nothing):
        one counting table serves every pool. A selection placing ``u`` pieces of
        each type is legal for ``m`` when ``u <= m`` and each type is placed in full
        or no space left open could take one more of it.

        >>> # "... to one space": two spaces, room (2, 1) and (1, 0)
        >>> arrive = Distribution(room=((2, 1), (1, 0)), total=3, spaces=1)
        >>> pools = [(1, 0), (2, 1), (0, 1)]
        >>> [arrive.counts_by_pool()(m) for m in pools]
        [2, 2, 1]
        >>> [Distribution(room=((2, 1), (1, 0)), total=sum(m), pool=m, spaces=1).count()
        ...  for m in pools]
        [2, 2, 1]
        """
        if self.pool is not None or self.per_space is not None or self.up_to:
            raise ValueError("counts by pool need a total to place in full and no pool")
        frontier: dict[Key, dict[tuple[int, ...], int]] = {self._start: {(0,) * self.kinds: 1}}
        for index in range(len(self.room)):
            check_deadline(deadline, "counting the arrivals")
            after_level: dict[Key, dict[tuple[int, ...], int]] = {}
            for key, sums in frontier.items():
                for row, after in self._transitions(index, key):
                    target = after_level.setdefault(after, {})
                    for placed, ways in sums.items():
                        summed = tuple(map(add, placed, row)) if any(row) else placed
                        target[summed] = target.get(summed, 0) + ways
            frontier = after_level
        # by the types no open space could take more of, then by the amounts of the
        # other types (which must be placed in full), the amounts of the blocked types
        table: dict[frozenset[int], dict[tuple[int, ...], dict[tuple[int, ...], int]]] = {}
        for (chosen, _, _, open_kinds, skipped_kinds), sums in frontier.items():
            may_skip = chosen < self.max_spaces
            blocked = frozenset(
                kind
                for kind in range(self.kinds)
                if kind not in open_kinds and not (may_skip and kind in skipped_kinds)
            )
            for placed, ways in sums.items():
                full = tuple(n for kind, n in enumerate(placed) if kind not in blocked)
                short = tuple(placed[kind] for kind in sorted(blocked))
                by_short = table.setdefault(blocked, {}).setdefault(full, {})
                by_short[short] = by_short.get(short, 0) + ways

        def count(pool: Sequence[int]) -> int:
            if not self.room:
                return 1  # no space: the one empty selection, of however many types
            found = 0
            for blocked, by_full in table.items():
                full = tuple(n for kind, n in enumerate(pool) if kind not in blocked)
                most = [pool[kind] for kind in sorted(blocked)]
                for short, ways in by_full.get(full, {}).items():
                    if all(n <= m for n, m in zip(short, most, strict=True)):
                        found += ways
            return found

        return count

    def tally(
        self,
        features: Sequence[Mapping[tuple[int, ...], tuple[int, ...]]],
        width: int,
        deadline: float | None = None,
    ) -> dict[tuple[int, ...], int]:
        """How many legal selections there are for each sum of their rows' features.

        ``features[space][row]`` is a vector of ``width`` numbers for each row a space
        may take; a selection's features are the sums of its rows'. The result maps each sum
        to the number of legal selections with it, found by dynamic programming
        (never one selection at a time). ``deadline`` (a ``time.monotonic()`` value)
        bounds the work: past it, :class:`SolverLimitError` is raised.

        >>> problem = Distribution.single(room=(2, 1), total=2)
        >>> sorted(problem)
        [((1,), (1,)), ((2,), (0,))]
        >>> # the feature of a row: the number of spaces it takes pieces from
        >>> problem.tally([{(0,): (0,), (1,): (1,), (2,): (1,)}, {(0,): (0,), (1,): (1,)}], 1)
        {(2,): 1, (1,): 1}
        """
        viable = self._viable
        if self.count() == 0:
            return {}
        frontier: dict[Key, dict[tuple[int, ...], int]] = {self._start: {(0,) * width: 1}}
        for index in range(len(self.room)):
            check_deadline(deadline, "counting the selections")
            after_level: dict[Key, dict[tuple[int, ...], int]] = {}
            for key, sums in frontier.items():
                for row, after in viable[index][key]:
                    feature = features[index][row]
                    target = after_level.setdefault(after, {})
                    for vector, ways in sums.items():
                        summed = tuple(map(add, vector, feature)) if any(feature) else vector
                        target[summed] = target.get(summed, 0) + ways
            frontier = after_level
        totals: dict[tuple[int, ...], int] = {}
        for key, sums in frontier.items():
            if self._finished(key):
                for vector, ways in sums.items():
                    totals[vector] = totals.get(vector, 0) + ways
        return totals

    def __len__(self) -> int:
        return self.count()

    @cached_property
    def _viable(self) -> list[dict[Key, list[tuple[tuple[int, ...], Key]]]]:
        """For each space and key, the rows that lead to at least one legal selection."""
        steps, ways = self._levels[0], self._ways
        return [
            {
                key: [(row, after) for row, after in moves if ways[index + 1][after]]
                for key, moves in level.items()
            }
            for index, level in enumerate(steps)
        ]

    def __iter__(self) -> Iterator[Selection]:
        """Every legal selection, lazily, in :meth:`nth` order, never entering a dead end."""
        return self.walk(None)

    def walk(
        self, labels: Sequence[Mapping[tuple[int, ...], tuple[Any, ...]]] | None
    ) -> Iterator[Any]:
        """The legal selections in :meth:`nth` order, each as a tuple of rows, or, given
        ``labels[space][row]`` (a tuple for each row a space may take), as the
        concatenation of its spaces' labels: the caller's own form, made without a
        per-selection loop in Python.

        An odometer over the spaces: the last space turns fastest, and a space's
        options are only those the counting table says can still be completed.
        """
        if self.count() == 0:
            return
        m, viable = len(self.room), self._viable
        rows: list[tuple[int, ...]] = [()] * m
        # labelled: prefix[i] holds the labels of spaces 0..i-1 joined, so a turn of the
        # last space joins one tuple instead of all of them
        prefix: list[tuple[Any, ...]] = [()] * (m + 1)
        options: list[list[tuple[tuple[int, ...], Key]]] = [[] for _ in range(m)]
        positions = [0] * m
        keys: list[Key] = [self._start] * (m + 1)
        level = 0
        while True:
            for index in range(level, m):  # descend to the first option of each space
                choices = options[index] = viable[index][keys[index]]
                positions[index] = 0
                row, keys[index + 1] = choices[0]
                rows[index] = row
                if labels is not None:
                    prefix[index + 1] = prefix[index] + labels[index][row]
            yield tuple(rows) if labels is None else prefix[m]
            level = m - 1
            while level >= 0:  # turn the odometer at the last space with options left
                position = positions[level] + 1
                if position < len(options[level]):
                    positions[level] = position
                    row, keys[level + 1] = options[level][position]
                    rows[level] = row
                    if labels is not None:
                        prefix[level + 1] = prefix[level] + labels[level][row]
                    break
                level -= 1
            if level < 0:
                return
            level += 1

    def nth(self, rank: int) -> Selection:
        """The legal selection at position ``rank`` of the iteration order."""
        if not 0 <= rank < self.count():
            raise IndexError(rank)
        key, picked = self._start, []
        for index in range(len(self.room)):
            below = self._ways[index + 1]
            for row, after in self._levels[0][index][key]:
                ways = below[after]
                if rank < ways:
                    picked.append(row)
                    key = after
                    break
                rank -= ways
        return tuple(picked)


@lru_cache(maxsize=1024)
def _amount_rows(room: tuple[int, ...], bound: int) -> tuple[tuple[int, ...], ...]:
    """Every row of amounts within ``room`` that sums to at most ``bound``, by sum and
    then in order: the same few rooms recur in every space of a map."""
    ranges = (range(min(most, bound) + 1) for most in room)
    rows = [row for row in product(*ranges) if sum(row) <= bound]
    rows.sort(key=lambda row: (sum(row), row))
    return tuple(rows)


KEPT_MOST = 4096  # counts kept; past it they are dropped and found again
_KEPT_COUNTS: dict[tuple[Any, ...], int] = {}
_FIELDS = tuple(f.name for f in fields(Distribution))


def _count_cached(problem: Distribution) -> int:
    """The count of a distribution, kept by its fields (not the problem itself,
    whose counting tables are large): the same few recur, in every product of a
    move's arrivals (one for each number of pieces and of spaces left) and at every
    node of an event's tree of decisions (an Event of 10^7 executions asks the same
    19 problems 40,000 times)."""
    key = tuple(getattr(problem, name) for name in _FIELDS)
    count = _KEPT_COUNTS.get(key)
    if count is None:
        if len(_KEPT_COUNTS) >= KEPT_MOST:
            _KEPT_COUNTS.clear()
        count = _KEPT_COUNTS[key] = problem._count_now()
    return count
