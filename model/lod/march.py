"""Liberty or Death March (3.2.3 British, 3.3.2 Patriots, 3.4.2 Indians, 3.5.4
French): which groups may move where, the legal Marches counted and ranked without
listing, the checks, and carrying one out.

A March selects destinations and pays one Resource for each (the Indians' first
destination entered only from Indian Reserves is free); pieces move from a space to
one next to it (British and French also between Cities: :func:`march_reach`), one
group from each origin to each destination. Accompanying pieces move 1 for 1 with
the ones they accompany: Tories with British Regulars, French Regulars with
Continentals in a Patriot March (the French pay 1 for each destination they enter),
Continentals with French Regulars in a French March (the Patriots pay likewise).
War Parties join a British March as Tories through Common Cause (4.2.1): 1 for 1
with the Regulars together with the Tories, only into an adjacent Province, and
Activated. Such a March names the destinations they enter in ``allied``; the
refusal accepts it, and the Common Cause Special Activity accompanying it must use
every War Party it moves. The view lists the Marches without Common Cause, whose
War Party choices belong to the Special Activity.

>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> state.track("indians_resources")
0
>>> view = march_view(state, "indians", limited=True, free=False)
>>> sorted({m.moves[0][0] for m in view})  # 3.4.2: with no Resources, only from Reserves
['Florida', 'Northwest', 'Quebec', 'Southwest']

How the count works: a destination's *status* says what enters it (nothing or only
pieces whose entry is free, or pieces that cost the ally a Resource or deny the
Indian discount); the status fixes who pays. For each origin the number of ways to
split its pieces depends only on how many reachable destinations allow which
groups, so one pass over the destinations, keeping per origin that pair of numbers
and the Resources spent, counts every March. "At least one such group enters" is
counted by inclusion and exclusion (allowing it, less forbidding it).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from legalis.model.coin.limits import may_hold
from legalis.model.coin.state import CoinState
from legalis.model.core.memo import instance_cache
from legalis.model.core.views import MoveView, Refusal
from legalis.model.errors import SolverLimitError
from legalis.model.lod.command_base import (
    RESOURCES,
    Command,
    CommandOptions,
    CommandRules,
    budget,
    command_refusal,
)

__all__ = ["MARCH_RULES", "march_reach", "march_rules", "march_view"]

_RULE = {"british": "3.2.3", "patriots": "3.3.2", "indians": "3.4.2", "french": "3.5.4"}
_ALLY = {"patriots": "french", "french": "patriots"}  # who pays for accompanying pieces
# whose pieces may join the March: the paying ally, or the Indians by Common Cause
_JOINING = {**_ALLY, "british": "indians"}
# Ranking one March with more destinations than this, each needing a piece of its own,
# takes 2^n steps per origin: past it, iterate the view instead.
_MOST_REQUIREMENTS = 14


# ---------------------------------------------------------------------- kits


@dataclass(frozen=True)
class _Kit:
    """What moves in one Faction's March: the kinds (with the status where it
    matters), which groups may move together, which groups are *paid* (their entry
    costs the ally a Resource, or for the Indians denies the discount), and the
    piece that decides where a group may go."""

    kinds: tuple[str, ...]
    lead: str
    valid: Callable[[tuple[int, ...]], bool]


_KITS = {
    # 3.2.3: Tories only with British Regulars, 1 for 1
    "british": _Kit(("british_regular", "tory"), "british_regular", lambda g: g[1] <= g[0]),
    # 3.3.2: French Regulars only with Continentals, 1 for 1
    "patriots": _Kit(
        ("continental", "french_regular", "militia:active", "militia:underground"),
        "militia",
        lambda g: g[1] <= g[0],
    ),
    "indians": _Kit(("war_party:active", "war_party:underground"), "war_party", lambda g: True),
    # 3.5.4: Continentals only with French Regulars, 1 for 1
    "french": _Kit(("continental", "french_regular"), "french_regular", lambda g: g[0] <= g[1]),
}
# 4.2.1: what a March checked with its accompanying Special Activity may move:
# War Parties join a British March as Tories, 1 for 1 with the Regulars.
_CHECKED_KITS = {
    **_KITS,
    "british": _Kit(
        ("british_regular", "tory", "war_party:active", "war_party:underground"),
        "british_regular",
        lambda g: g[1] + g[2] + g[3] <= g[0],
    ),
}


def _have(state: CoinState, kit: _Kit, origin: str) -> tuple[int, ...]:
    out = []
    for kind in kit.kinds:
        piece, _, status = kind.partition(":")
        out.append(state.pieces(origin, piece, status or None))
    return tuple(out)


def _paid(state: CoinState, faction: str, origin: str, group: tuple[int, ...]) -> bool:
    """Whether this group's entry is *paid*: the ally pays for the destination, or
    (Indians) the destination loses its claim to the free first destination."""
    if faction == "patriots":
        # Leader capabilities: with Rochambeau the French March with the Patriots free
        return group[1] > 0 and state.leader("Rochambeau") != origin
    if faction == "french":
        return group[0] > 0
    if faction == "indians":
        return not state.rules.map.is_reserve(origin)
    return len(group) > 2 and group[2] + group[3] > 0  # British: War Parties join


def _groups(kit: _Kit, have: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every non-empty group that may move from a space holding ``have``."""
    return [g for g in itertools.product(*(range(n + 1) for n in have)) if any(g) and kit.valid(g)]


# ---------------------------------------------------------------------- where pieces go


def _ports(state: CoinState, faction: str) -> list[str]:
    """The Cities March may travel between: not Blockaded (British, 3.2.3); under
    Rebellion Control (French, 3.5.4)."""
    cities = state.rules.map.of_type("City")
    if faction == "british":
        return [c for c in cities if not state.markers(c, "blockade")]
    return [c for c in cities if state.control(c) == "rebellion"]


def march_reach(state: CoinState, faction: str, origin: str) -> list[str]:
    """Where a group from ``origin`` may March, sorted: a space next to it; Indians
    only Provinces (3.4.2); British and French also, from in or next to a City they
    may travel through, any other such City or a Province next to it (3.2.3, 3.5.4).

    >>> state = CoinState.new("lod")
    >>> "Charles Town" in march_reach(state, "british", "Boston")
    True
    >>> "Charles Town" in march_reach(state, "patriots", "Boston")
    False
    """
    board = state.rules.map
    kit = _KITS[faction]
    found = set(board.adjacent(origin))
    if faction in ("british", "french"):
        ports = _ports(state, faction)
        for port in ports:
            if port == origin or port in board.adjacent(origin):
                for other in ports:
                    if other != port:
                        found.add(other)
                        found.update(p for p in board.adjacent(other) if board.is_province(p))
    found.discard(origin)
    if faction == "indians":
        found = {s for s in found if board.is_province(s)}
    return sorted(s for s in found if may_hold(state, kit.lead, s)[0])


# ---------------------------------------------------------------------- statuses

# A selected destination's status, and the terms counting it: (allowed level, sign).
# Level 0: nothing enters; 1: only unpaid groups; 2: any group. "At least one" is
# counted as allowing it less forbidding it.
_UNSELECTED, _PLAIN, _EMPTY, _BASIC, _PAID = range(5)
_TERMS: dict[int, Counters] = {
    _UNSELECTED: ((0, 1),),
    _PLAIN: ((1, 1),),  # selected, unpaid groups or nothing
    _EMPTY: ((0, 1),),  # selected, nothing enters
    _BASIC: ((1, 1), (0, -1)),  # selected, one or more unpaid groups, no paid one
    _PAID: ((2, 1), (1, -1)),  # selected, one or more paid groups
}
# What a destination allows one origin: nothing, unpaid groups or nothing, any group
# or nothing, one or more unpaid groups, one paid group or more.
_NOTHING, _UNPAID, _ANY, _SOME_UNPAID, _SOME_PAID = range(5)
_LEVEL_CODE = (_NOTHING, _UNPAID, _ANY)
Counters = tuple[tuple[int, int], ...]  # per team: destinations allowing unpaid, any
Spent = tuple[int, int, bool]  # destinations selected, ally payments, a free one


class _MarchProblem:
    """One Faction's March on one state: origins, reaches, the statuses each
    destination may take, and the split counts of each origin."""

    def __init__(
        self, state: CoinState, faction: str, limited: bool, free: bool, options: CommandOptions,
        within: frozenset[str] | None = None,
    ) -> None:  # fmt: skip
        self.state, self.faction, self.limited, self.free = state, faction, limited, free
        self.options = options
        self.kit = _KITS[faction]
        spaces = state.rules.spaces
        self.have = {o: _have(state, self.kit, o) for o in spaces}
        self.origins = [o for o in spaces if any(self.have[o]) and self._leads(o)]
        self.reach = {o: march_reach(state, faction, o) for o in self.origins}
        self.groups = {o: self._origin_groups(o) for o in self.origins}
        self.own = budget(state, faction, free)
        ally = _ALLY.get(faction)
        self.ally = 0 if ally is None else budget(state, ally, free)
        self.most = 1 if limited else self.own + (1 if faction == "indians" else 0)
        # where an unpaid group, or a paid one, can arrive: other statuses count nothing
        self.unpaid_reach = self._reached(paid=False)
        self.paid_reach = self._reached(paid=True)
        allowed = {d: self.statuses(d) for d in sorted(spaces) if within is None or d in within}
        selectable = [d for d, statuses in allowed.items() if statuses != [_UNSELECTED]]
        self.destinations = _frontier_order(selectable, [self.reach[o] for o in self.origins])
        index = {d: i for i, d in enumerate(self.destinations)}
        # what each origin can really fill: reachable destinations that may be selected
        self.fills = {o: tuple(d for d in self.reach[o] if d in index) for o in self.origins}
        # origins with the same reach always see the same counts: one counter for them
        self.teams = sorted(set(self.fills.values()))
        self.team_of = {o: self.teams.index(self.fills[o]) for o in self.origins}
        self.team_last = [max((index[d] for d in team), default=-1) for team in self.teams]
        self.team_at = [
            tuple(t for t, team in enumerate(self.teams) if d in team) for d in self.destinations
        ]
        self.status_of = {d: allowed[d] for d in self.destinations}
        indians, allied = faction == "indians", faction in _ALLY
        self.increment: dict[int, Spent] = {
            _UNSELECTED: (0, 0, False),
            _PLAIN: (1, 0, False),
            _EMPTY: (1, 0, False),
            _BASIC: (1, 0, indians),
            _PAID: (1, 1 if allied else 0, False),
        }
        # a team with no paid group sees "unpaid" and "any" alike, and one with only
        # paid groups sees "unpaid" as "nothing": one count each
        kinds = [
            {paid for o in self.origins if self.team_of[o] == t for _, paid in self.groups[o]}
            for t in range(len(self.teams))
        ]
        self.team_unpaid_only = [True not in k for k in kinds]
        self.team_paid_only = [k == {True} for k in kinds]

    def _reached(self, paid: bool) -> set[str]:
        return {
            d for o in self.origins if any(p == paid for _, p in self.groups[o])
            for d in self.reach[o]
        }  # fmt: skip

    def _leads(self, origin: str) -> bool:
        """A space with pieces that may March on their own (Tories and accompanying
        Regulars or Continentals do not)."""
        board = self.state.rules.map
        if self.faction == "indians":
            return board.is_province(origin)
        have = self.have[origin]
        if self.faction == "british":
            return have[0] > 0
        if self.faction == "french":
            return have[1] > 0
        return have[0] + have[2] + have[3] > 0

    def _origin_groups(self, origin: str) -> tuple[tuple[tuple[int, ...], bool], ...]:
        groups = _groups(self.kit, self.have[origin])
        return tuple((g, _paid(self.state, self.faction, origin, g)) for g in groups)

    def statuses(self, destination: str) -> list[int]:
        """The statuses ``destination`` may take; [0] when it may not be selected."""
        board = self.state.rules.map
        if self.faction == "indians" and not board.is_province(destination):
            return [_UNSELECTED]
        if not may_hold(self.state, self.kit.lead, destination)[0]:
            return [_UNSELECTED]
        unpaid, paid = destination in self.unpaid_reach, destination in self.paid_reach
        out = [_UNSELECTED]
        # 3.5.4: a French destination already has a Patriot piece unless Continentals
        # enter it
        plain_ok = self.faction != "french" or self.state.faction_pieces(destination, "patriots")
        if self.faction == "indians":
            if self.options.march_in_place:
                out.append(_EMPTY)
            out += [_BASIC] if unpaid else []
            out += [_PAID] if paid else []
            return out
        if plain_ok:
            if self.options.march_in_place:
                out.append(_PLAIN)
            elif unpaid:
                out.append(_BASIC)
        if paid:
            out.append(_PAID)
        return out

    # ---------------------------------------------------------------- one origin

    @instance_cache
    def split_ways(self, origin: str, codes: tuple[int, ...], left: tuple[int, ...]) -> int:
        """Ways to send groups from ``origin`` (``left`` pieces still there) into
        destinations allowing ``codes`` (any order: the count does not depend on it)."""
        if not codes:
            return 1
        code, rest = codes[0], codes[1:]
        total = 0 if code in (_SOME_UNPAID, _SOME_PAID) else self.split_ways(origin, rest, left)
        if code == _NOTHING:
            return total
        for paid, remaining in self.fitting(origin, left):
            if _allows(code, paid):
                total += self.split_ways(origin, rest, remaining)
        return total

    @instance_cache
    def fitting(
        self, origin: str, left: tuple[int, ...]
    ) -> tuple[tuple[bool, tuple[int, ...]], ...]:
        """The groups that can still leave ``origin``: paid or not, and what stays."""
        return tuple(
            (paid, tuple(a - b for a, b in zip(left, group, strict=True)))
            for group, paid in self.groups[origin] if _fits(group, left)
        )  # fmt: skip

    def origin_ways(self, origin: str, codes: Sequence[int]) -> int:
        return self.split_ways(origin, tuple(sorted(codes)), self.have[origin])

    @instance_cache
    def team_ways(self, team: int, unpaid: int, anything: int) -> int:
        codes = (_UNPAID,) * unpaid + (_ANY,) * anything
        total = 1
        for origin in self.origins:
            if self.team_of[origin] == team:
                total *= self.origin_ways(origin, codes)
        return total

    # ---------------------------------------------------------------- counting

    def step(self, at: int, counters: Counters, level: int) -> tuple[int, Counters]:
        """The counters after the ``at``-th destination allows ``level``, and the
        factor of the teams whose last destination that was."""
        out = list(counters)
        for team in self.team_at[at]:
            unpaid, anything = out[team]
            if self.team_unpaid_only[team]:
                out[team] = (unpaid + (level > 0), 0)
            elif self.team_paid_only[team]:
                out[team] = (0, anything + (level == 2))
            else:
                out[team] = (unpaid + (level == 1), anything + (level == 2))
        factor = 1
        for team in self.team_at[at]:
            if self.team_last[team] == at:
                factor *= self.team_ways(team, *out[team])
                out[team] = (0, 0)
        return factor, tuple(out)

    def spend(self, spent: Spent, status: int) -> Spent | None:
        """Destinations selected, ally payments, whether a free Indian destination
        exists, after one more destination of ``status``; None past a limit."""
        return self.combine(spent, self.increment[status])

    def combine(self, first: Spent, second: Spent) -> Spent | None:
        """Two parts' spending together; None past the Resources or the limit."""
        selected, ally = first[0] + second[0], first[1] + second[1]
        if selected > self.most or ally > self.ally:
            return None
        if self.free:  # 3.1.2: nothing is paid, so only "one or more selected" matters
            return min(selected, 1), 0, False
        return selected, ally, first[2] or second[2]

    def affordable(self, spent: Spent) -> bool:
        selected, ally, basic = spent
        discount = 1 if basic and self.faction == "indians" else 0
        return selected >= 1 and selected - discount <= self.own and ally <= self.ally

    @instance_cache
    def suffix(self, at: int, counters: Counters) -> dict[Spent, int]:
        """The Marches' ways over the destinations from the ``at``-th on, by what they
        spend there (one pass per counter state, whatever was spent before)."""
        if at == len(self.destinations):
            return {(0, 0, False): 1}
        out: dict[Spent, int] = {}
        for status in self.status_of[self.destinations[at]]:
            here = self.increment[status]
            for level, sign in _TERMS[status]:
                factor, moved = self.step(at, counters, level)
                if not factor:
                    continue
                for rest, n in self.suffix(at + 1, moved).items():
                    key = self.combine(here, rest)
                    if key is not None:
                        out[key] = out.get(key, 0) + sign * factor * n
        return {key: n for key, n in out.items() if n}

    def ways(self, at: int, counters: Counters, spent: Spent) -> int:
        """Marches completing from the ``at``-th destination on, ``spent`` so far."""
        total = 0
        for rest, n in self.suffix(at, counters).items():
            key = self.combine(spent, rest)
            if key is not None and self.affordable(key):
                total += n
        return total

    def start(self) -> Counters:
        return ((0, 0),) * len(self.teams)


def _frontier_order(destinations: Sequence[str], reaches: Sequence[Sequence[str]]) -> list[str]:
    """The destinations in an order that keeps few origins half-counted at once:
    each step takes the destination that leaves the fewest origins open (an origin
    is open from its first reachable destination to its last); those no origin
    reaches come last, when every origin is settled.

    >>> _frontier_order(["a", "b", "c", "z"], [["a", "c"], ["b"]])
    ['b', 'a', 'c', 'z']
    """
    left = {d: {i for i, reach in enumerate(reaches) if d in reach} for d in destinations}
    remaining = {i: set(reach) & set(destinations) for i, reach in enumerate(reaches)}
    open_now: set[int] = set()
    order: list[str] = []
    todo = sorted(d for d in destinations if left[d])
    while todo:
        best = min(todo, key=lambda d: (_still_open(open_now | left[d], remaining, d), d))
        todo.remove(best)
        order.append(best)
        open_now |= left[best]
        for i in left[best]:
            remaining[i].discard(best)
        open_now = {i for i in open_now if remaining[i]}
    return order + sorted(d for d in destinations if not left[d])


def _still_open(origins: set[int], remaining: dict[int, set[str]], taken: str) -> int:
    return sum(1 for i in origins if remaining[i] - {taken})


def _fits(group: tuple[int, ...], left: tuple[int, ...]) -> bool:
    return all(a <= b for a, b in zip(group, left, strict=True))


def _allows(code: int, paid: bool) -> bool:
    if code in (_UNPAID, _SOME_UNPAID):
        return not paid
    if code == _SOME_PAID:
        return paid
    return code == _ANY


# ---------------------------------------------------------------------- the view


class _MarchView(MoveView[Command]):
    """Every legal March, counted and ranked without listing. A rank picks each
    destination's status in turn, then each origin's groups; see the module's notes."""

    def __init__(self, problem: _MarchProblem, refuse: Callable[[object], Refusal | None]) -> None:
        self.problem = problem
        self._refuse = refuse

    def count(self) -> int:
        p = self.problem
        return p.ways(0, p.start(), (0, 0, False)) if p.destinations else 0

    def __iter__(self) -> Iterator[Command]:
        for index in range(self.count()):
            yield self.nth(index)

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)

    def nth(self, index: int) -> Command:
        if not 0 <= index < self.count():
            raise IndexError(index)
        p = self.problem
        # the count still to choose from, as a signed sum over counter states
        frontier: dict[tuple[Counters, Spent], int] = {(p.start(), (0, 0, False)): 1}
        chosen: list[int] = []
        for at, destination in enumerate(p.destinations):
            for status in p.status_of[destination]:
                block = 0
                after: dict[tuple[Counters, Spent], int] = {}
                for (counters, spent), coef in frontier.items():
                    paid = p.spend(spent, status)
                    if paid is None:
                        continue
                    for level, sign in _TERMS[status]:
                        factor, moved = p.step(at, counters, level)
                        if not factor:
                            continue
                        key = (moved, paid)
                        after[key] = after.get(key, 0) + coef * sign * factor
                        block += coef * sign * factor * p.ways(at + 1, moved, paid)
                if index < block:
                    chosen.append(status)
                    frontier = after
                    break
                index -= block
        return self._groups(dict(zip(p.destinations, chosen, strict=True)), index)

    # ---------------------------------------------------------------- groups

    def _groups(self, status: dict[str, int], index: int) -> Command:
        """The ``index``-th way for the origins to fill destinations of these
        statuses, each origin in turn choosing which still-unmet destinations
        (needing one unpaid group, or one paid group) it meets."""
        p = self.problem
        needs = tuple(d for d in p.destinations if status[d] in (_BASIC, _PAID))
        if len(needs) > _MOST_REQUIREMENTS:
            raise SolverLimitError(
                f"ranking a March with {len(needs)} destinations that each need a piece "
                f"is too slow (at most {_MOST_REQUIREMENTS}); iterate the view instead"
            )
        moves: list[tuple[str, str, str, int]] = []
        unmet = frozenset(needs)
        memo: dict[Any, int] = {}
        for k, origin in enumerate(p.origins):
            mine = [d for d in p.fills[origin] if d in unmet]
            for size in range(len(mine) + 1):
                found = False
                for met in itertools.combinations(mine, size):
                    codes = self._codes(origin, status, unmet, frozenset(met))
                    ways = p.origin_ways(origin, [c for _, c in codes])
                    rest = self._completions(status, k + 1, unmet - set(met), memo)
                    if index < ways * rest:
                        split, index = divmod(index, rest)
                        moves += self._unrank_split(origin, codes, split)
                        unmet -= set(met)
                        found = True
                        break
                    index -= ways * rest
                if found:
                    break
        spaces = tuple(sorted(d for d in p.destinations if status[d] != _UNSELECTED))
        allied = tuple(sorted(d for d in spaces if status[d] == _PAID and p.faction in _ALLY))
        return Command(p.faction, "march", spaces, moves=tuple(sorted(moves)), allied=allied,
                       limited=p.limited, free=p.free)  # fmt: skip

    def _codes(
        self, origin: str, status: dict[str, int], unmet: frozenset[str], met: frozenset[str]
    ) -> list[tuple[str, int]]:
        """What each reachable destination allows this origin: a need it meets
        (``met``) takes one group of its kind or more; one it leaves (in ``unmet``,
        not ``met``) forbids that kind here; any other destination its status."""
        out = []
        for d in self.problem.fills[origin]:
            s = status[d]
            level = _TERMS[s][0][0]
            if d in met:
                code = _SOME_PAID if s == _PAID else _SOME_UNPAID
            elif d in unmet:
                code = _LEVEL_CODE[level - 1]
            else:
                code = _LEVEL_CODE[level]
            out.append((d, code))
        return out

    def _completions(
        self, status: dict[str, int], start: int, unmet: frozenset[str], memo: dict[Any, int]
    ) -> int:
        """Ways for the origins from ``start`` on to fill the destinations, meeting
        every need in ``unmet``: inclusion and exclusion over the needs left unmet."""
        key = (start, unmet)
        if key in memo:
            return memo[key]
        p = self.problem
        total = 0
        needs = sorted(unmet)
        for size in range(len(needs) + 1):
            for left_unmet in itertools.combinations(needs, size):
                product = 1
                for origin in p.origins[start:]:
                    codes = self._codes(origin, status, frozenset(left_unmet), frozenset())
                    product *= p.origin_ways(origin, [c for _, c in codes])
                    if not product:
                        break
                total += (-1) ** size * product
        memo[key] = total
        return total

    def _unrank_split(
        self, origin: str, codes: list[tuple[str, int]], rank: int
    ) -> list[tuple[str, str, str, int]]:
        p = self.problem
        left = p.have[origin]
        out = []
        for at, (destination, code) in enumerate(codes):
            rest = tuple(sorted(c for _, c in codes[at + 1 :]))
            options: list[tuple[tuple[int, ...], bool] | None] = []
            if code not in (_SOME_UNPAID, _SOME_PAID):
                options.append(None)
            if code != _NOTHING:
                options += [gp for gp in p.groups[origin] if _fits(gp[0], left) and
                            _allows(code, gp[1])]  # fmt: skip
            for option in options:
                remaining = left if option is None else tuple(
                    a - b for a, b in zip(left, option[0], strict=True)
                )  # fmt: skip
                ways = p.split_ways(origin, rest, remaining)
                if rank < ways:
                    if option is not None:
                        for kind, n in zip(p.kit.kinds, option[0], strict=True):
                            if n:
                                out.append((origin, destination, kind, n))
                    left = remaining
                    break
                rank -= ways
        return out


# ---------------------------------------------------------------------- checks


def _statuses_of(state: CoinState, move: Command) -> dict[str, int] | Refusal:
    """Each selected destination's status from the groups entering it."""
    entered: dict[str, list[bool]] = {d: [] for d in move.spaces}
    groups: dict[tuple[str, str], list[int]] = {}
    kit = _CHECKED_KITS[move.faction]
    for *_, kind, _n in move.moves:
        if kind not in kit.kinds:
            return Refusal(f"{kind}: not a piece this March moves", _RULE[move.faction])
    for origin, destination, kind, n in move.moves:
        vector = groups.setdefault((origin, destination), [0] * len(kit.kinds))
        vector[kit.kinds.index(kind)] += n
    for (origin, destination), vector in groups.items():
        group = tuple(vector)
        if not kit.valid(group):
            return Refusal(f"{origin} -> {destination}: accompanying pieces move only 1 for 1 "
                           "with the pieces they accompany", _RULE[move.faction])  # fmt: skip
        entered[destination].append(_paid(state, move.faction, origin, group))
    out = {}
    for destination, paid in entered.items():
        if any(paid):
            out[destination] = _PAID
        elif paid:
            out[destination] = _BASIC if move.faction == "indians" else _PLAIN
        else:
            out[destination] = _EMPTY if move.faction == "indians" else _PLAIN
    return out


def _march_refusal(state: CoinState, move: Command, options: CommandOptions) -> Refusal | None:
    rule = _RULE[move.faction]
    if move.placed or move.removed or move.amount or move.displace:
        return Refusal("a March moves pieces and places none", rule)
    if not move.spaces:
        return Refusal("select one or more destinations", rule)
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one destination", "2.3.5")
    if list(move.moves) != sorted(move.moves) or len({m[:3] for m in move.moves}) != len(
        move.moves
    ):
        return Refusal("moves in sorted order, one entry per origin, destination and kind", "3.1")
    kit = _CHECKED_KITS[move.faction]
    board = state.rules.map
    # only the move's own destinations are asked of: their statuses, and every route
    problem = _MarchProblem(state, move.faction, move.limited, move.free, options,
                            within=frozenset(move.spaces))  # fmt: skip
    for destination in move.spaces:
        if destination not in problem.status_of:
            return Refusal(f"{destination}: not a destination of this March", rule)
    used: dict[tuple[str, str], int] = {}
    for origin, destination, kind, n in move.moves:
        if n < 1 or destination not in move.spaces:
            return Refusal(f"{origin} -> {destination}: pieces move only into selected "
                           "destinations", rule)  # fmt: skip
        if origin not in problem.reach or destination not in problem.reach[origin]:
            return Refusal(f"{origin} -> {destination}: not a March route", rule)
        used[(origin, kind)] = used.get((origin, kind), 0) + n
    for (origin, kind), n in used.items():
        if kind in kit.kinds and n > _have(state, kit, origin)[kit.kinds.index(kind)]:
            return Refusal(f"{origin} has fewer than {n} {kind}: no unit moves twice", rule)
    statuses = _statuses_of(state, move)
    if isinstance(statuses, Refusal):
        return statuses
    for destination, status in statuses.items():
        if status == _PAID:
            continue
        if not options.march_in_place and not any(m[1] == destination for m in move.moves):
            return Refusal(f"{destination}: no piece enters it (a March in place is refused "
                           "under march_in_place=False)", rule)  # fmt: skip
        if move.faction == "french" and not state.faction_pieces(destination, "patriots"):
            return Refusal(f"{destination}: a French destination holds a Patriot piece or "
                           "Continentals enter it", rule)  # fmt: skip
    ally, joining = _ALLY.get(move.faction), _JOINING.get(move.faction)
    paying = tuple(d for d, s in sorted(statuses.items()) if s == _PAID and joining)
    if move.allied != paying:
        if ally:
            return Refusal(f"the {ally} pay for exactly the destinations {list(paying)}", rule)
        if joining:
            return Refusal(f"allied names exactly the destinations War Parties enter "
                           f"by Common Cause: {list(paying)}", "4.2.1")  # fmt: skip
        return Refusal("no ally joins this March", rule)
    if move.faction == "british":
        for origin, destination, kind, _n in move.moves:
            if kind.startswith("war_party") and (
                board.is_city(destination) or not board.are_adjacent(origin, destination)
            ):
                return Refusal("War Parties move only into an adjacent Province, never "
                               "into or between Cities", "4.2.1")  # fmt: skip
    if ally and not move.free and len(paying) > state.track(RESOURCES[ally]):
        return Refusal(f"the {ally} pay 1 per destination their pieces enter", rule)
    return None


def _march_cost(state: CoinState, move: Command) -> int:
    """1 per destination; the Indians' first destination entered only from Indian
    Reserves is free (3.4.2)."""
    if move.faction != "indians":
        return len(move.spaces)
    board = state.rules.map
    origins: dict[str, set[bool]] = {}
    for origin, destination, _kind, _n in move.moves:
        origins.setdefault(destination, set()).add(board.is_reserve(origin))
    free = any(kinds == {True} for kinds in origins.values())
    return len(move.spaces) - (1 if free else 0)


# ---------------------------------------------------------------------- carrying out


def _march(state: CoinState, move: Command, log: list[str]) -> None:
    rule = _RULE[move.faction]
    before = {d: (state.control(d), state.pieces(d, "militia"),
                  state.pieces(d, "british_regular") + state.pieces(d, "tory"))
              for d in move.spaces}  # fmt: skip
    ally = _ALLY.get(move.faction)
    if move.allied and ally and not move.free:
        state.set_track(RESOURCES[ally], state.track(RESOURCES[ally]) - len(move.allied))
        log.append(f"{rule}: the {ally} pay {len(move.allied)} for the destinations they enter")
    group_size: dict[tuple[str, str], int] = {}
    for origin, destination, _kind, n in move.moves:
        group_size[(origin, destination)] = group_size.get((origin, destination), 0) + n
    board = state.rules.map
    for origin, destination, kind, n in move.moves:
        piece, _, status = kind.partition(":")
        control, militia, cubes = before[destination]
        size = group_size[(origin, destination)]
        new_status = status or None
        if (move.faction == "patriots" and piece == "militia" and control == "british"
                and board.is_city(destination) and size + cubes > 3):  # fmt: skip
            new_status = "active"  # 3.3.2: into a British Controlled City in force
        if (move.faction == "indians" and status == "underground" and control == "rebellion"
                and board.is_colony(destination) and size + militia > 3):  # fmt: skip
            new_status = "active"  # 3.4.2: into a Rebellion Controlled Colony in force
        if move.faction == "british" and piece == "war_party":
            new_status = "active"  # 4.2.1: War Parties used by Common Cause are Activated
        state.move_pieces(origin, destination, piece, n, status or None, new_status)
        flipped = " (Activated)" if new_status != (status or None) else ""
        log.append(f"{rule}: {n} {kind} from {origin} to {destination}{flipped}")
    for destination in move.spaces:
        if move.faction == "british":
            # War Parties that entered by Common Cause count as the Tories they stand for
            cubes = state.pieces(destination, "british_regular") + state.pieces(destination, "tory")
            cubes += sum(m[3] for m in move.moves if m[1] == destination and m[2] != "tory"
                         and m[2] != "british_regular")  # fmt: skip
            _activate(state, destination, "militia", cubes // 3, rule, log)
        if move.faction == "patriots":
            _activate(state, destination, "war_party",
                      state.pieces(destination, "continental") // 2, rule, log)  # fmt: skip


def _activate(
    state: CoinState, space: str, piece: str, most: int, rule: str, log: list[str]
) -> None:
    n = min(most, state.pieces(space, piece, "underground"))
    if n:
        state.flip(space, piece, n, "underground", "active")
        log.append(f"{rule}: {n} {piece} Activated in {space}")


# ---------------------------------------------------------------------- the table


def march_view(
    state: CoinState, faction: str, *, limited: bool, free: bool,
    options: CommandOptions | None = None, within: frozenset[str] | None = None,
) -> MoveView[Command]:  # fmt: skip
    """The legal Marches of ``faction`` (:func:`legalis.model.lod.commands.command_view`
    adds the checks every Command shares); ``within``: only those whose destinations
    all lie there (an Event's free March into named spaces, 5.3), ranked as such."""
    chosen = options or CommandOptions()
    problem = _MarchProblem(state, faction, limited, free, chosen, within)
    return _MarchView(problem, lambda move: command_refusal(state, move, options=chosen))


def march_rules(faction: str, options: CommandOptions | None = None) -> CommandRules:
    """The March entry of the table of Commands for ``faction`` under ``options``.

    >>> march_rules("indians").rule
    '3.4.2'
    """
    chosen = options or CommandOptions()

    def moves(state: CoinState, who: str, limited: bool, free: bool) -> MoveView[Command]:
        return march_view(state, who, limited=limited, free=free, options=chosen)

    def moves_within(state: CoinState, who: str, limited: bool, free: bool,
                     within: frozenset[str]) -> MoveView[Command]:  # fmt: skip
        return march_view(state, who, limited=limited, free=free, options=chosen, within=within)

    def refuse(state: CoinState, move: Command) -> Refusal | None:
        return _march_refusal(state, move, chosen)

    return CommandRules("March", _RULE[faction], moves, refuse, _march_cost, _march,
                        with_options=lambda other: march_rules(faction, other),
                        moves_within=moves_within)  # fmt: skip


MARCH_RULES: dict[tuple[str, str], CommandRules] = {
    (faction, "march"): march_rules(faction) for faction in _KITS
}
