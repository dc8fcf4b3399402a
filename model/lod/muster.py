"""The British Muster (3.2.1, with Reward Loyalty, 6.4.1) and the Patriot Rally
(3.3.1): their legal moves as lazy views counted and ranked without listing, their
checks and what they do. :mod:`legalis.model.lod.commands` registers
:data:`MUSTER_RULES` in its table.

How a move reads:

- Muster: ``placed`` holds the Regulars (one space), the Tories, and in the one
  Fort or Reward Loyalty space either ``(space, "british_fort", 1)`` with the three
  cubes it replaces in ``removed``, or Reward Loyalty: the Raid and Propaganda
  markers taken off in ``removed`` and the levels shifted toward Active Support as
  ``(space, "support_shift", levels)`` in ``placed``.
- Rally: ``placed`` holds Militia, Patriot Forts (the two units they replace in
  ``removed``, Militia by status as ``militia:underground``) and, in the one space
  where Militia become Continentals, ``(space, "continental", n)`` with those
  Militia in ``removed`` too; ``moves`` hold the Militia moved into a Fort space.
  A selected space with nothing placed or removed of its own takes Militia in.

The readings taken where the rules are unclear are fields of
:class:`~legalis.model.lod.command_base.CommandOptions` (``docs/rules-questions.md``).

>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> MusterView(state, "british", limited=True, free=False).count() > 0
True
>>> "Boston" in {m.spaces[0] for m in RallyView(state, "patriots", limited=True, free=False)}
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from legalis.model.coin.limits import may_hold, stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.views import Refusal
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.command_base import (
    RESOURCES,
    Command,
    CommandOptions,
    CommandRules,
    RankedCommands,
    budget,
    per_space,
)

__all__ = [
    "MUSTER_RULES",
    "MusterView",
    "RallyView",
    "muster_refusal",
    "muster_rules",
    "rally_refusal",
    "rally_rules",
]

Entry = tuple[str, str, int]  # (space, piece or marker kind, number)
MoveEntry = tuple[str, str, str, int]  # (origin, destination, kind, number)
Payload = tuple[tuple[Entry, ...], tuple[Entry, ...], tuple[MoveEntry, ...]]
Key = tuple[int, ...]
Item = tuple[Key, Payload]  # a choice: the totals it adds, and what it places and moves

MUSTER_REGULARS_MOST = 6  # 3.2.1: up to six Regulars in one space
FORT_CUBES = 3  # 3.2.1: a British Fort replaces three British cubes
RALLY_FORT_UNITS = 2  # 3.3.1: a Patriot Fort replaces two units
SUPPORT_SHIFT = "support_shift"  # a Reward Loyalty entry of ``placed``: levels shifted
LOYALTY_MARKERS = ("propaganda", "raid")  # 6.4.1: removed before any level is shifted
MILITIA_KINDS = ("militia:underground", "militia:active")
PATRIOT_UNITS = ("militia:underground", "militia:active", "continental")


# ---------------------------------------------------------------------- counting by steps


_FIELD = 8  # bits per total in a packed key; every total stays below 128
_TOP = 127


class _Chain:
    """Choices made space by space, each step's choices grouped by the totals they
    add, every total bounded by ``caps``; ``end`` weighs finished totals (0: not a
    legal move). For each step the tally of the totals every suffix adds is kept, so
    counting and ranking never list the moves. With ``skip_empty`` the first way
    (every step's first choice: nothing selected) is not a move.

    Totals are packed into one integer, a field of 8 bits each, so adding two is one
    addition and checking the caps one mask."""

    def __init__(
        self,
        steps: Sequence[Sequence[tuple[Key, Sequence[Item]]]],
        start: Key,
        caps: Key,
        end: Callable[[Key], int],
        skip_empty: bool = False,
    ) -> None:
        self.size, self.end = len(start), end
        self.start = self._pack(start)
        self._offset = self._pack(tuple(_TOP - min(c, _TOP) for c in caps))
        self._high = self._pack(tuple(_TOP + 1 for _ in caps))
        self._packed = [[(self._pack(k), list(p)) for k, p in groups] for groups in steps]
        self.skip = int(skip_empty)
        self._tallies: list[dict[int, int]] | None = None

    @staticmethod
    def _pack(key: Key) -> int:
        return sum(v << (_FIELD * i) for i, v in enumerate(key))

    def _unpack(self, packed: int) -> Key:
        return tuple((packed >> (_FIELD * i)) & 255 for i in range(self.size))

    def _fits(self, packed: int) -> bool:
        return not (packed + self._offset) & self._high

    def tallies(self) -> list[dict[int, int]]:
        """For each step, how many ways the steps from there on add each total."""
        if self._tallies is None:
            suffix: dict[int, int] = {0: 1}
            out = [suffix]
            start, offset, high = self.start, self._offset, self._high
            for groups in reversed(self._packed):
                grown: dict[int, int] = {}
                for key, payloads in groups:
                    n = len(payloads)
                    for total, ways in suffix.items():
                        both = key + total
                        if both in grown:
                            grown[both] += n * ways
                        elif not (start + both + offset) & high:
                            grown[both] = n * ways
                suffix = grown
                out.append(suffix)
            out.reverse()
            self._tallies = out
        return self._tallies

    def _ways(self, at: int, state: int) -> int:
        if not self._fits(state):
            return 0
        total = 0
        for more, ways in self.tallies()[at].items():
            after = state + more
            if self._fits(after):
                total += ways * self.end(self._unpack(after))
        return total

    def count(self) -> int:
        return max(0, self._ways(0, self.start) - self.skip)

    def pick(self, index: int) -> tuple[list[Item], Key, int]:
        """The ``index``-th way: the choice made at each step, the final totals, and
        the rank left for the end weight."""
        index += self.skip
        state, chosen = self.start, []
        for at, groups in enumerate(self._packed):
            for key, payloads in groups:
                after = state + key
                below = self._ways(at + 1, after)
                block = len(payloads) * below
                if index < block:
                    which, index = divmod(index, below)
                    chosen.append(payloads[which])
                    state = after
                    break
                index -= block
            else:
                raise IndexError(index)
        return chosen, self._unpack(state), index


def _grouped(
    choices: Iterable[Item], measure: Callable[[Key], Key]
) -> list[tuple[Key, list[Item]]]:
    """The choices grouped by the totals ``measure`` keeps of what they add (only
    those the caps and the end need), in the order they first come."""
    merged: dict[Key, list[Item]] = {}
    for key, payload in choices:
        merged.setdefault(measure(key), []).append((key, payload))
    return list(merged.items())


def _command(
    faction: str, name: str, spaces: Iterable[str], payloads: Iterable[Payload],
    limited: bool, free: bool,
) -> Command:  # fmt: skip
    placed: list[Entry] = []
    removed: list[Entry] = []
    moves: list[MoveEntry] = []
    for more_placed, more_removed, more_moves in payloads:
        placed += more_placed
        removed += more_removed
        moves += more_moves
    return Command(faction, name, tuple(sorted(spaces)), tuple(sorted(placed)),
                   tuple(sorted(removed)), moves=tuple(sorted(moves)), limited=limited,
                   free=free)  # fmt: skip


class _ChainView(RankedCommands):
    """Blocks of chains, one after the other."""

    def __init__(self, state: CoinState) -> None:
        self.state = state
        self.blocks: list[tuple[_Chain, Callable[[list[Item], Key, int], Command]]] = []

    def count(self) -> int:
        return sum(chain.count() for chain, _ in self.blocks)

    def nth(self, index: int) -> Command:
        if index < 0:
            raise IndexError(index)
        for chain, make in self.blocks:
            size = chain.count()
            if index < size:
                return make(*chain.pick(index))
            index -= size
        raise IndexError(index)


def _by_space(entries: Iterable[Entry]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for space, kind, n in entries:
        out.setdefault(space, {})[kind] = out.get(space, {}).get(kind, 0) + n
    return out


def _well_formed(entries: Sequence[Any]) -> bool:
    """Sorted, one entry per (space, kind) or (origin, destination, kind), counts >= 1."""
    heads = [entry[:-1] for entry in entries]
    return (
        list(entries) == sorted(entries)
        and len(set(heads)) == len(heads)
        and all(entry[-1] >= 1 for entry in entries)
    )


# ---------------------------------------------------------------------- 3.2.1 Muster


def _blockaded(state: CoinState, space: str) -> bool:
    return space != WEST_INDIES and state.markers(space, "blockade") > 0


def _takes_regulars(state: CoinState, space: str, options: CommandOptions) -> bool:
    """3.2.1: a City not Blockaded, a Colony next to one (or to any City, as the
    option says), or the West Indies once it is in play (1.3.7)."""
    if space == WEST_INDIES:
        return state.flag("toa_played")
    board = state.rules.map
    if not board.has_space(space):
        return False
    if board.is_city(space):
        return not _blockaded(state, space)
    return board.is_colony(space) and any(
        board.is_city(n)
        and not (options.muster_colony_beside_open_city and _blockaded(state, n))
        for n in board.adjacent(space)
    )  # fmt: skip


def _regulars_spaces(state: CoinState, options: CommandOptions) -> list[str]:
    """The spaces that may take the Muster's Regulars (:func:`_takes_regulars`)."""
    return sorted(s for s in [*state.rules.spaces, WEST_INDIES]
                  if _takes_regulars(state, s, options))  # fmt: skip


def _takes_tories(
    state: CoinState, space: str, regulars_at: str | None, options: CommandOptions
) -> bool:
    """3.2.1: a City or Colony not at Active Opposition, containing or next to a
    British Regular or Fort (counting Regulars this Muster places, as the option says)."""
    board = state.rules.map
    if not board.has_space(space) or not (board.is_city(space) or board.is_colony(space)):
        return False

    def british(where: str) -> bool:
        if options.muster_tories_beside_new_regulars and where == regulars_at:
            return True
        return bool(state.pieces(where, "british_regular") or state.pieces(where, "british_fort"))

    return state.support(space) != "active_opposition" and (
        british(space) or any(british(n) for n in board.adjacent(space)))  # fmt: skip


def _tory_spaces(state: CoinState, regulars_at: str | None, options: CommandOptions) -> list[str]:
    """The spaces that may take the Muster's Tories (:func:`_takes_tories`)."""
    return sorted(s for s in state.rules.spaces if _takes_tories(state, s, regulars_at, options))


def _tory_most(state: CoinState, space: str) -> int:
    """3.2.1: two Tories, one at Passive Opposition."""
    return 1 if state.support(space) == "passive_opposition" else 2


def _loyalty_options(
    state: CoinState, space: str, regulars: int, tories: int
) -> list[tuple[tuple[Entry, ...], tuple[Entry, ...], int]]:
    """The ways to Reward Loyalty in ``space`` once the Muster placed ``regulars``
    and ``tories`` there (3.2.1, 6.4.1): (placed, removed, Resources paid). Every
    Resource removes a Raid or Propaganda marker, and only once none is left shifts a
    level toward Active Support, without the limit of two levels; with Gage there the
    first level is free (Leader capabilities)."""
    if space == WEST_INDIES:
        return []
    if not (state.pieces(space, "british_regular") + regulars and state.pieces(space, "tory")
            + tories):  # fmt: skip
        return []
    royalist = state.faction_pieces(space, "british") + state.faction_pieces(space, "indians")
    rebellion = state.faction_pieces(space, "patriots") + state.faction_pieces(space, "french")
    if royalist + regulars + tories <= rebellion:  # 1.7: British Control after placing
        return []
    have = {m: state.markers(space, m) for m in LOYALTY_MARKERS}
    levels = 2 - state.support_value(space) if state.can_have_support(space) else 0
    gage = state.leader("Gage") == space
    found: list[tuple[tuple[Entry, ...], tuple[Entry, ...], int]] = []
    markers = sum(have.values())
    for spent in range(1, markers + levels + 1):
        if spent < markers:
            for first in range(min(spent, have[LOYALTY_MARKERS[0]]), -1, -1):
                second = spent - first
                if second <= have[LOYALTY_MARKERS[1]]:
                    pair = ((space, LOYALTY_MARKERS[0], first), (space, LOYALTY_MARKERS[1], second))
                    found.append(((), tuple(e for e in pair if e[2]), spent))
        else:
            taken = tuple((space, m, have[m]) for m in LOYALTY_MARKERS if have[m])
            shifted = spent - markers
            placed = ((space, SUPPORT_SHIFT, shifted),) if shifted else ()
            found.append((placed, taken, spent - (1 if gage and shifted else 0)))
    return found


def _fort_options(
    state: CoinState, space: str, regulars: int, tories: int
) -> list[tuple[tuple[Entry, ...], tuple[Entry, ...]]]:
    """3.2.1: a British Fort for any three British cubes in ``space`` after the
    Muster placed ``regulars`` and ``tories`` there (1.4.2: room for a Fort)."""
    if not state.available("british_fort") or stacking_room(state, space) < 1:
        return []
    if not may_hold(state, "british_fort", space)[0]:
        return []
    have_regulars = state.pieces(space, "british_regular") + regulars
    have_tories = state.pieces(space, "tory") + tories
    found: list[tuple[tuple[Entry, ...], tuple[Entry, ...]]] = []
    for taken_regulars in range(FORT_CUBES, -1, -1):
        taken_tories = FORT_CUBES - taken_regulars
        if taken_regulars <= have_regulars and taken_tories <= have_tories:
            removed = tuple(
                e for e in ((space, "british_regular", taken_regulars),
                            (space, "tory", taken_tories)) if e[2]
            )  # fmt: skip
            found.append((((space, "british_fort", 1),), removed))
    return found


class MusterView(_ChainView):
    """Every legal British Muster (3.2.1), counted without listing: for each choice
    of the Regulars space (or none), a count over the Muster spaces of the Tories
    placed, the Fort or Reward Loyalty space and the Resources paid.

    >>> state = CoinState.new("lod")
    >>> state.set_track("british_resources", 1)
    >>> state.move_pieces("Available", "Boston", "british_regular", 1)
    >>> view = MusterView(state, "british", limited=True, free=False)
    >>> (("Boston", "british_regular", 1),) in {m.placed for m in view}
    True
    """

    def __init__(
        self,
        state: CoinState,
        faction: str,
        limited: bool,
        free: bool,
        options: CommandOptions | None = None,
        within: frozenset[str] | None = None,
    ) -> None:
        super().__init__(state)
        self.faction, self.limited, self.free = faction, limited, free
        self.options = options or CommandOptions()
        self._cache: dict[tuple[str, bool, bool], list[tuple[Key, list[Item]]]] = {}

        def selectable(spaces: Iterable[str]) -> list[str]:
            return [s for s in spaces if within is None or s in within]

        resources = budget(state, faction, free)
        caps = (resources if not free else state.track(RESOURCES[faction]),
                state.available("tory"), 1, 1)[: 4 if limited else 3]  # fmt: skip
        regulars_most = min(MUSTER_REGULARS_MOST, state.available("british_regular"))
        places = selectable(_regulars_spaces(state, self.options)) if regulars_most else []
        for regulars_at in [None, *places]:
            tory_spaces = selectable(_tory_spaces(state, regulars_at, self.options))
            spaces = sorted({*tory_spaces, *selectable(_regulars_spaces(state, self.options))})
            steps = [
                self._choices(s, s == regulars_at, regulars_most, s in tory_spaces) for s in spaces
            ]
            # the empty way (nothing selected) comes first when every space may be left out
            chain = _Chain(steps, (0,) * len(caps), caps, lambda totals: 1,
                           skip_empty=regulars_at is None)  # fmt: skip
            self.blocks.append((chain, self._make(spaces)))

    def _measure(self, key: Key) -> Key:
        """What the caps need of (selected, Tories, Fort or Reward Loyalty, Reward
        Loyalty paid): the Resources spent, the Tories, the Fort or Reward Loyalty
        space, and for a Limited Command the spaces selected."""
        chosen, tories, finishing, paid = key
        spent = paid if self.free else chosen + paid
        return (spent, tories, finishing, chosen) if self.limited else (spent, tories, finishing)

    def _make(self, spaces: list[str]) -> Callable[[list[Item], Key, int], Command]:
        def make(picked: list[Item], totals: Key, rest: int) -> Command:
            selected = [s for s, (key, _) in zip(spaces, picked, strict=True) if key[0]]
            payloads = [p for _, p in picked]
            return _command(self.faction, "muster", selected, payloads, self.limited, self.free)

        return make

    def _choices(
        self, space: str, regulars_here: bool, regulars_most: int, tory_space: bool
    ) -> list[tuple[Key, list[Item]]]:
        """The choices in one space: not selected, or selected with its Regulars (in
        the Regulars space), Tories, and Fort or Reward Loyalty; each adds (selected,
        Tories, Fort or Reward Loyalty space, Reward Loyalty Resources)."""
        cache_key = (space, regulars_here, tory_space)
        if cache_key in self._cache:
            return self._cache[cache_key]
        state = self.state
        choices: list[tuple[Key, Payload]] = []
        if not regulars_here:
            choices.append(((0, 0, 0, 0), _UNSELECTED))
        regulars_range = range(1, regulars_most + 1) if regulars_here else range(1)
        tories_most = min(_tory_most(state, space), state.available("tory")) if tory_space else 0
        for regulars in regulars_range:
            for tories in range(tories_most + 1):
                here = tuple(e for e in ((space, "british_regular", regulars),
                                         (space, "tory", tories)) if e[2])  # fmt: skip
                if here or self.options.muster_idle_spaces:
                    choices.append(((1, tories, 0, 0), (here, (), ())))
                for placed, removed in _fort_options(state, space, regulars, tories):
                    choices.append(((1, tories, 1, 0), (here + placed, removed, ())))
                for placed, removed, paid in _loyalty_options(state, space, regulars, tories):
                    choices.append(((1, tories, 1, paid), (here + placed, removed, ())))
        self._cache[cache_key] = _grouped(choices, self._measure)
        return self._cache[cache_key]


_UNSELECTED: Payload = ((), (), ())


def _loyalty_paid(state: CoinState, move: Command) -> int:
    """What the Reward Loyalty of a Muster costs (6.4.1; Gage: the first level free)."""
    removed = sum(n for _, kind, n in move.removed if kind in LOYALTY_MARKERS)
    shifts = [(space, n) for space, kind, n in move.placed if kind == SUPPORT_SHIFT]
    levels = sum(n for _, n in shifts)
    gage = any(state.leader("Gage") == space for space, _ in shifts)
    return removed + levels - (1 if gage and levels else 0)


def muster_refusal(
    state: CoinState, move: Command, options: CommandOptions | None = None
) -> Refusal | None:
    """Why ``move`` is not a legal British Muster now (3.2.1, 6.4.1, 2.3.5, 1.4), or
    ``None``.

    >>> state = CoinState.new("lod")
    >>> muster_refusal(state, Command("british", "muster", ("Boston",),
    ...                               (("Boston", "tory", 1),))).rule
    '3.2.1'
    """
    options = options or CommandOptions()
    if not move.spaces:
        return Refusal("select one or more Muster spaces", "3.2.1")
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one space", "2.3.5")
    if move.moves or move.amount or move.displace or move.allied:
        return Refusal("Muster places and replaces pieces; nothing moves", "3.2.1")
    if not (_well_formed(move.placed) and _well_formed(move.removed)):
        return Refusal("placed and removed: sorted, one entry per space and kind", "3.1")
    placed, removed = _by_space(move.placed), _by_space(move.removed)
    if any(s not in move.spaces for s in (*placed, *removed)):
        return Refusal("pieces placed and replaced only in selected spaces", "3.2.1")
    regulars = {s: k["british_regular"] for s, k in placed.items() if "british_regular" in k}
    if len(regulars) > 1:
        return Refusal("Regulars are placed in one space only", "3.2.1")
    regulars_at = next(iter(regulars), None)
    if regulars_at is not None:
        if not _takes_regulars(state, regulars_at, options):
            return Refusal(f"{regulars_at}: Regulars go to a City not Blockaded, a Colony "
                           "next to one, or the West Indies", "3.2.1")  # fmt: skip
        if regulars[regulars_at] > MUSTER_REGULARS_MOST:
            return Refusal("up to six Regulars", "3.2.1")
        if regulars[regulars_at] > state.available("british_regular"):
            return Refusal("not enough British Regulars Available", "1.4.1")
    tories = {s: k["tory"] for s, k in placed.items() if "tory" in k}
    for space, n in tories.items():
        if not _takes_tories(state, space, regulars_at, options):
            return Refusal(
                f"{space}: Tories go to a City or Colony not at Active Opposition "
                "with or next to British Regulars or a British Fort",
                "3.2.1",
            )
        if n > _tory_most(state, space):
            return Refusal(f"{space}: up to two Tories, one at Passive Opposition", "3.2.1")
    if sum(tories.values()) > state.available("tory"):
        return Refusal("not enough Tories Available", "1.4.1")
    kinds = {"british_regular", "tory", "british_fort", SUPPORT_SHIFT}
    if any(set(k) - kinds for k in placed.values()):
        return Refusal("Muster places Regulars, Tories and a British Fort", "3.2.1")
    finishing = sorted(
        {s for s, k in placed.items() if set(k) & {"british_fort", SUPPORT_SHIFT}} | set(removed)
    )
    if len(finishing) > 1:
        return Refusal("a Fort or Reward Loyalty in one Muster space only", "3.2.1")
    for space in move.spaces:
        if not (_takes_tories(state, space, regulars_at, options)
                or _takes_regulars(state, space, options)):  # fmt: skip
            return Refusal(f"{space}: not a space where the British may Muster", "3.2.1")
        if not options.muster_idle_spaces and space not in placed and space not in removed:
            return Refusal(f"{space}: nothing placed there", "3.2.1")
    if finishing:
        (space,) = finishing
        refused = _finishing_refusal(state, move, space, regulars.get(space, 0),
                                     tories.get(space, 0))  # fmt: skip
        if refused is not None:
            return refused
    paid = _loyalty_paid(state, move)
    spaces_cost = 0 if move.free else len(move.spaces)
    resources = state.track(RESOURCES["british"])
    if paid and spaces_cost <= resources < spaces_cost + paid:
        return Refusal(f"Reward Loyalty costs {paid} more Resource(s), even when free", "6.4.1")
    return None


def _finishing_refusal(
    state: CoinState, move: Command, space: str, regulars: int, tories: int
) -> Refusal | None:
    mine_placed = tuple(e for e in move.placed if e[0] == space and e[1] not in
                        ("british_regular", "tory"))  # fmt: skip
    mine_removed = tuple(e for e in move.removed if e[0] == space)
    if any(kind == "british_fort" for _, kind, _ in mine_placed):
        if not state.available("british_fort") or stacking_room(state, space) < 1:
            return Refusal(f"no British Fort may be placed in {space}", "1.4.2")
        if (mine_placed, mine_removed) not in _fort_options(state, space, regulars, tories):
            return Refusal("a British Fort replaces three British cubes there", "3.2.1")
        return None
    options = _loyalty_options(state, space, regulars, tories)
    if not options:
        return Refusal(f"Reward Loyalty in {space} needs a British Regular, a Tory and "
                       "British Control", "6.4.1")  # fmt: skip
    if (mine_placed, mine_removed) not in [(p, r) for p, r, _ in options]:
        return Refusal("Reward Loyalty removes Raid and Propaganda markers first, then shifts "
                       "toward Active Support", "6.4.1")  # fmt: skip
    return None


def _muster(state: CoinState, move: Command, log: list[str]) -> None:
    paid = _loyalty_paid(state, move)
    for space, kind, n in move.placed:
        if kind in ("british_regular", "tory"):
            state.move_pieces("Available", space, kind, n)
            log.append(f"3.2.1: {n} {kind} placed in {space}")
    for space, kind, n in move.removed:
        if kind in LOYALTY_MARKERS:
            state.take_marker(space, kind, n)
            log.append(f"6.4.1: {n} {kind.capitalize()} marker(s) removed from {space}")
        else:
            state.move_pieces(space, "Available", kind, n)
            log.append(f"3.2.1: {n} {kind} in {space} replaced")
    for space, kind, n in move.placed:
        if kind == "british_fort":
            state.move_pieces("Available", space, kind, n)
            log.append(f"3.2.1: a British Fort placed in {space}")
        elif kind == SUPPORT_SHIFT:
            before = state.support(space)
            after = state.shift_support(space, n)
            log.append(f"6.4.1: Reward Loyalty shifts {space} {before} -> {after}")
    if paid:
        track = RESOURCES["british"]
        state.set_track(track, state.track(track) - paid)
        log.append(f"6.4.1: the British pay {paid} Resource(s) to Reward Loyalty")


# ---------------------------------------------------------------------- 3.3.1 Rally


def _rally_spaces(state: CoinState) -> list[str]:
    """3.3.1: map spaces without Active Support (the Patriots never enter the West
    Indies, 1.4.2)."""
    return sorted(s for s in state.rules.spaces if state.support(s) != "active_support")


def _militia(state: CoinState, space: str) -> tuple[int, int]:
    return state.pieces(space, "militia", "underground"), state.pieces(space, "militia", "active")


def _militia_placed_most(state: CoinState, space: str) -> int:
    """3.3.1: one Militia, or with a Patriot Fort up to the Forts plus the
    Population; none in an Indian Reserve."""
    if state.rules.map.is_reserve(space):
        return 0
    forts = state.pieces(space, "patriot_fort")
    return max(1, forts + state.rules.map.population(space)) if forts else 1


def _fort_replacements(state: CoinState, space: str) -> list[tuple[int, int, int]]:
    """3.3.1: the two units a Patriot Fort may replace (Underground Militia, Active
    Militia, Continentals), when a Fort is Available and fits (1.4.2)."""
    if not state.available("patriot_fort") or stacking_room(state, space) < 1:
        return []
    have = (*_militia(state, space), state.pieces(space, "continental"))
    found = []
    for underground in range(RALLY_FORT_UNITS, -1, -1):
        for active in range(RALLY_FORT_UNITS - underground, -1, -1):
            continentals = RALLY_FORT_UNITS - underground - active
            if all(n <= h for n, h in zip((underground, active, continentals), have, strict=True)):
                found.append((underground, active, continentals))
    return found


def _entries(space: str, kinds: Sequence[str], counts: Sequence[int]) -> tuple[Entry, ...]:
    return tuple((space, k, n) for k, n in zip(kinds, counts, strict=True) if n)


def _compositions(total: int, bins: int) -> Iterator[tuple[int, ...]]:
    """Every way to put 0..``total`` pieces into ``bins`` bins (the rest stay).

    >>> list(_compositions(1, 2))
    [(0, 0), (0, 1), (1, 0)]
    """
    if bins == 0:
        yield ()
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, bins - 1):
            yield (first, *rest)


def _splits(
    origin: str, underground: int, active: int, near: Sequence[str]
) -> Iterator[tuple[tuple[MoveEntry, ...], int, int, dict[str, int]]]:
    """Every way to send the Militia of ``origin`` into the adjacent spaces ``near``:
    (moves, Underground sent, Active sent, sent per destination)."""
    for sent_underground in _compositions(underground, len(near)):
        for sent_active in _compositions(active, len(near)):
            moves = tuple(
                (origin, d, kind, n)
                for d, u, a in zip(near, sent_underground, sent_active, strict=True)
                for kind, n in zip(MILITIA_KINDS, (u, a), strict=True) if n
            )  # fmt: skip
            per = {d: u + a for d, u, a in zip(near, sent_underground, sent_active, strict=True)}
            yield moves, sum(sent_underground), sum(sent_active), per


class RallyView(_ChainView):
    """Every legal Patriot Rally (3.3.1), counted without listing. A block for each
    set of Fort spaces taking Militia in and, among them, the one (if any) where
    Militia then become Continentals; in a block, a count over every space of its
    choice (not selected, one Militia, Militia up to Forts + Population, a Fort, and
    at most one space turning Militia into Continentals) and of the ways its own
    Militia, not used otherwise, move into the Fort spaces next door. Totals kept:
    spaces selected, Militia and Forts placed, whether Continentals were placed, and
    the Militia ending in the block's Continental space."""

    def __init__(
        self,
        state: CoinState,
        faction: str,
        limited: bool,
        free: bool,
        options: CommandOptions | None = None,
        within: frozenset[str] | None = None,
    ) -> None:
        super().__init__(state)
        self.faction, self.limited, self.free = faction, limited, free
        self.options = options or CommandOptions()
        # Militia may still come from spaces outside ``within``: they are not selected
        self.candidates = [s for s in _rally_spaces(state) if within is None or s in within]
        fort_spaces = [s for s in self.candidates if state.pieces(s, "patriot_fort")]
        resources = budget(state, faction, free)
        most = min(1 if limited else len(fort_spaces), resources)
        self._cache: dict[tuple[Any, ...], list[tuple[Key, list[Item]]]] = {}
        continentals = state.available("continental")
        # (spaces selected: only with a cap), Militia, Forts, Continental space, Militia there
        self._counted = limited or not free
        caps: Key = (state.available("militia"), state.available("patriot_fort"), 1, _TOP)
        if self._counted:
            caps = (min(1, resources) if limited else resources, *caps)

        for size in range(most + 1):
            for takers in combinations(fort_spaces, size):
                for converting in [None, *takers]:
                    if converting is not None and not continentals:
                        continue
                    steps = [self._choices(s, takers, converting) for s in state.rules.spaces]
                    start = self._measure((len(takers), 0, 0, int(converting is not None), 0))

                    def end(totals: Key, converting: str | None = converting) -> int:
                        return 1 if converting is None else min(totals[-1], continentals)

                    # with no Fort space taking Militia in, the empty way comes first
                    chain = _Chain(steps, start, caps, end, skip_empty=not takers)
                    self.blocks.append((chain, self._make(takers, converting)))

    def _measure(self, key: Key) -> Key:
        """What the caps need of (selected, Militia, Forts, Continental space, Militia
        there): the spaces selected only when they are limited."""
        return key if self._counted else key[1:]

    def _make(
        self, takers: tuple[str, ...], converting: str | None
    ) -> Callable[[list[Item], Key, int], Command]:
        spaces = self.state.rules.spaces

        def make(picked: list[Item], totals: Key, rest: int) -> Command:
            selected = set(takers)
            selected |= {s for s, (key, _) in zip(spaces, picked, strict=True) if key[0]}
            extra: list[Payload] = [p for _, p in picked]
            if converting is not None:
                n = rest + 1
                extra.append((((converting, "continental", n),),
                               ((converting, "militia:underground", n),), ()))  # fmt: skip
            return _command(self.faction, "rally", selected, extra, self.limited, self.free)

        return make

    def _choices(
        self, space: str, takers: tuple[str, ...], converting: str | None
    ) -> list[tuple[Key, list[Item]]]:
        board = self.state.rules.map
        near = tuple(t for t in takers if t != space and t in board.adjacent(space))
        # only the Continental space's own Militia and those sent to it are tallied
        tallied = converting if converting == space or converting in near else None
        cache_key = (space, near, tallied, space in takers, converting is None)
        if cache_key not in self._cache:
            choices = self._space_choices(space, near, tallied, space in takers,
                                          converting is None)  # fmt: skip
            self._cache[cache_key] = _grouped(choices, self._measure)
        return self._cache[cache_key]

    def _space_choices(
        self, space: str, near: tuple[str, ...], tallied: str | None, taker: bool,
        may_convert: bool,
    ) -> Iterator[tuple[Key, Payload]]:  # fmt: skip
        """(totals added, payload) for each choice in ``space``: totals are (spaces
        selected, Militia placed, Forts placed, Continentals placed, Militia ending in
        the block's Continental space ``tallied``)."""
        state = self.state
        underground, active = _militia(state, space)

        def arriving(per: dict[str, int], kept: int) -> int:
            if tallied is None:
                return 0
            return kept if tallied == space else per.get(tallied, 0)

        if taker or space not in self.candidates:
            for moves, su, sa, per in _splits(space, underground, active, near):
                kept = underground + active - su - sa
                yield (0, 0, 0, 0, arriving(per, kept)), ((), (), moves)
            return
        # not selected: its Militia may still move into Fort spaces next door
        for moves, _, _, per in _splits(space, underground, active, near):
            yield (0, 0, 0, 0, arriving(per, 0)), ((), (), moves)
        has_fort = state.pieces(space, "patriot_fort") > 0
        continentals = state.available("continental") if may_convert else 0
        for n in range(1, min(_militia_placed_most(state, space),
                              state.available("militia")) + 1):  # fmt: skip
            placed = ((space, "militia", n),)
            for moves, su, sa, per in _splits(space, underground, active, near):
                yield (1, n, 0, 0, arriving(per, 0)), (placed, (), moves)
                if not (has_fort and continentals):
                    continue
                left = (underground - su + n, active - sa)
                for kinds in _conversions(left, continentals):
                    k = sum(kinds)
                    yield (1, n, 0, 1, arriving(per, 0)), (
                        (*placed, (space, "continental", k)), _entries(space, MILITIA_KINDS,
                                                                       kinds), moves)  # fmt: skip
        for taken in _fort_replacements(state, space):
            fort = ((space, "patriot_fort", 1),)
            removed = _entries(space, PATRIOT_UNITS, taken)
            for moves, _, _, per in _splits(space, underground - taken[0], active - taken[1],
                                            near):  # fmt: skip
                yield (1, 0, 1, 0, arriving(per, 0)), (fort, removed, moves)
        if (
            _fort_replacements(state, space)
            and continentals
            and (has_fort or self.options.rally_continentals_at_new_fort)
        ):
            yield from self._fort_and_continentals(space, near, continentals, arriving)

    def _fort_and_continentals(
        self, space: str, near: tuple[str, ...], continentals: int,
        arriving: Callable[[dict[str, int], int], int],
    ) -> Iterator[tuple[Key, Payload]]:  # fmt: skip
        """A Fort and Continentals in one space: the units removed in all, each
        outcome once (which of them the Fort took does not change it)."""
        state = self.state
        underground, active = _militia(state, space)
        have_continentals = state.pieces(space, "continental")
        fort = ((space, "patriot_fort", 1),)
        for taken_continentals in range(min(RALLY_FORT_UNITS, have_continentals), -1, -1):
            for k in range(1, continentals + 1):
                militia = RALLY_FORT_UNITS - taken_continentals + k
                for taken_underground in range(min(militia, underground), -1, -1):
                    taken_active = militia - taken_underground
                    if taken_active > active:
                        continue
                    removed = _entries(
                        space, PATRIOT_UNITS, (taken_underground, taken_active, taken_continentals)
                    )
                    placed = (*fort, (space, "continental", k))
                    for moves, _, _, per in _splits(space, underground - taken_underground,
                                                    active - taken_active, near):  # fmt: skip
                        yield (1, 0, 1, 1, arriving(per, 0)), (placed, removed, moves)


def _conversions(left: tuple[int, int], most: int) -> Iterator[tuple[int, int]]:
    """The Militia (Underground, Active) of ``left`` that may become Continentals:
    one or more, at most ``most``."""
    for underground in range(left[0], -1, -1):
        for active in range(left[1], -1, -1):
            if 1 <= underground + active <= most:
                yield underground, active


def _rally_parts(move: Command) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    return _by_space(move.placed), _by_space(move.removed)


def rally_refusal(
    state: CoinState, move: Command, options: CommandOptions | None = None
) -> Refusal | None:
    """Why ``move`` is not a legal Patriot Rally now (3.3.1, 2.3.5, 1.4), or ``None``.

    >>> state = CoinState.new("lod")
    >>> rally_refusal(state, Command("patriots", "rally", ("Quebec",),
    ...                              (("Quebec", "militia", 1),))).rule
    '3.3.1'
    """
    options = options or CommandOptions()
    if not move.spaces:
        return Refusal("select one or more spaces", "3.3.1")
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one space", "2.3.5")
    if move.amount or move.displace or move.allied:
        return Refusal("Rally places, replaces and moves Patriot pieces only", "3.3.1")
    if not all(_well_formed(e) for e in (move.placed, move.removed, move.moves)):
        return Refusal("placed, removed and moves: sorted, one entry per space and kind", "3.1")
    candidates = set(_rally_spaces(state))
    for space in move.spaces:
        if space not in candidates:
            return Refusal(f"{space}: a map space without Active Support", "3.3.1")
    placed, removed = _rally_parts(move)
    if any(s not in move.spaces for s in (*placed, *removed)):
        return Refusal("pieces placed and replaced only in selected spaces", "3.3.1")
    if any(set(k) - {"militia", "patriot_fort", "continental"} for k in placed.values()) or any(
        set(k) - set(PATRIOT_UNITS) for k in removed.values()
    ):
        return Refusal("Rally places Militia, Patriot Forts and Continentals", "3.3.1")
    converting = [s for s, k in placed.items() if "continental" in k]
    if len(converting) > 1:
        return Refusal("Militia become Continentals in one Rally space only", "3.3.1")
    for piece in ("militia", "patriot_fort", "continental"):
        if sum(k.get(piece, 0) for k in placed.values()) > state.available(piece):
            return Refusal(f"not enough {piece} Available", "1.4.1")
    takers = [s for s in move.spaces if not placed.get(s, {}).keys() - {"continental"}]
    refused = _rally_moves_refusal(state, move, takers)
    if refused is not None:
        return refused
    sent: dict[tuple[str, str], int] = {}
    arrived: dict[str, int] = {}
    for origin, destination, kind, n in move.moves:
        sent[(origin, kind)] = sent.get((origin, kind), 0) + n
        arrived[destination] = arrived.get(destination, 0) + n
    for space in move.spaces:
        refused = _rally_space_refusal(state, space, placed.get(space, {}),
                                       removed.get(space, {}), sent, arrived, options)  # fmt: skip
        if refused is not None:
            return refused
    for origin in {o for o, _ in sent} - set(move.spaces):
        for kind in MILITIA_KINDS:
            if sent.get((origin, kind), 0) > state.pieces(origin, "militia", kind.split(":")[1]):
                return Refusal(f"{origin} has too few {kind}: no unit moves twice", "3.3.1")
    return None


def _rally_moves_refusal(state: CoinState, move: Command, takers: list[str]) -> Refusal | None:
    board = state.rules.map
    for origin, destination, kind, _ in move.moves:
        if kind not in MILITIA_KINDS:
            return Refusal("only Militia move in a Rally", "3.3.1")
        if destination not in takers:
            return Refusal(f"{destination}: Militia move only into a selected Fort space "
                           "placing nothing", "3.3.1")  # fmt: skip
        if origin == destination or destination not in board.adjacent(origin):
            return Refusal(f"{origin} is not next to {destination}", "3.3.1")
    return None


def _rally_space_refusal(
    state: CoinState,
    space: str,
    placed: dict[str, int],
    removed: dict[str, int],
    sent: dict[tuple[str, str], int],
    arrived: dict[str, int],
    options: CommandOptions,
) -> Refusal | None:
    """One selected space: its own choice, then the Continentals (3.3.1)."""
    underground, active = _militia(state, space)
    out_underground = sent.get((space, MILITIA_KINDS[0]), 0)
    out_active = sent.get((space, MILITIA_KINDS[1]), 0)
    has_fort = state.pieces(space, "patriot_fort") > 0
    converted = placed.get("continental", 0)
    taken = [removed.get(kind, 0) for kind in PATRIOT_UNITS]
    militia = placed.get("militia", 0)
    if placed.get("patriot_fort", 0):
        if militia or placed["patriot_fort"] != 1:
            return Refusal(f"{space}: one Fort, or Militia, not both", "3.3.1")
        if not _fort_replacements(state, space):
            return Refusal(f"no Patriot Fort may be placed in {space}", "1.4.2")
        if sum(taken) - converted != RALLY_FORT_UNITS or taken[2] > RALLY_FORT_UNITS:
            return Refusal(f"{space}: a Fort replaces two Patriot units", "3.3.1")
        if converted and not (has_fort or options.rally_continentals_at_new_fort):
            return Refusal(f"{space}: Continentals only where a Fort stood before", "3.3.1")
        if (
            taken[0] + out_underground > underground
            or taken[1] + out_active > active
            or taken[2] > state.pieces(space, "continental")
        ):
            return Refusal(f"{space}: too few units there: none is used twice", "3.3.1")
        return None
    if taken[2] or sum(taken) != converted:
        return Refusal(f"{space}: only Militia becoming Continentals are removed", "3.3.1")
    if converted and not has_fort:
        return Refusal(f"{space}: Continentals only in a Rally space with a Patriot Fort",
                       "3.3.1")  # fmt: skip
    if militia:
        most = _militia_placed_most(state, space)
        if not most:
            return Refusal(f"{space}: no Militia are placed in an Indian Reserve", "3.3.1")
        if militia > most:
            return Refusal(f"{space}: up to {most} Militia (Forts plus Population)", "3.3.1")
        if out_underground > underground or out_active > active:
            return Refusal(f"{space} has too few Militia: no unit moves twice", "3.3.1")
        if taken[0] > underground - out_underground + militia or taken[1] > active - out_active:
            return Refusal(f"{space}: too few Militia become Continentals", "3.3.1")
        return None
    if not has_fort:
        return Refusal(f"{space}: place a Militia or a Fort; Militia move in only to a Fort",
                       "3.3.1")  # fmt: skip
    if out_underground > underground or out_active > active:
        return Refusal(f"{space} has too few Militia: no unit moves twice", "3.3.1")
    after = underground + active - out_underground - out_active + arrived.get(space, 0)
    if taken[1] or taken[0] > after:
        return Refusal(f"{space}: its Militia, all Underground, become Continentals", "3.3.1")
    return None


def _rally(state: CoinState, move: Command, log: list[str]) -> None:
    placed = _by_space(move.placed)
    takers = [s for s in move.spaces if not placed.get(s, {}).keys() - {"continental"}]
    for origin, destination, kind, n in move.moves:
        state.move_pieces(origin, destination, "militia", n, kind.split(":")[1], "underground")
        log.append(f"3.3.1: {n} {kind} move from {origin} to {destination}")
    for space in takers:
        active = state.pieces(space, "militia", "active")
        if active:
            state.flip(space, "militia", active, "active", "underground")
        log.append(f"3.3.1: every Militia in {space} goes Underground")
    for space, kind, n in move.placed:
        if kind == "militia":
            state.move_pieces("Available", space, kind, n)
            log.append(f"3.3.1: {n} Militia placed in {space}")
    for space, kind, n in move.removed:
        piece, _, status = kind.partition(":")
        state.move_pieces(space, "Available", piece, n, status or None)
        log.append(f"3.3.1: {n} {kind} in {space} replaced")
    for space, kind, n in move.placed:
        if kind in ("patriot_fort", "continental"):
            state.move_pieces("Available", space, kind, n)
            log.append(f"3.3.1: {n} {kind} placed in {space}")


# ---------------------------------------------------------------------- the table


def muster_rules(options: CommandOptions | None = None) -> CommandRules:
    """The table entry of the British Muster under ``options``: one Resource per space;
    the Reward Loyalty payment is made in carrying it out (6.4.1: even when free).

    >>> muster_rules().rule
    '3.2.1'
    """
    chosen = options or CommandOptions()
    return CommandRules(
        "Muster",
        "3.2.1",
        lambda state, faction, limited, free: MusterView(state, faction, limited, free, chosen),
        lambda state, move: muster_refusal(state, move, chosen),
        per_space,
        _muster,
        with_options=muster_rules,
        moves_within=lambda state, faction, limited, free, within: MusterView(
            state, faction, limited, free, chosen, within
        ),
    )


def rally_rules(options: CommandOptions | None = None) -> CommandRules:
    """The table entry of the Patriot Rally under ``options``: one Resource per space.

    >>> rally_rules().title
    'Rally'
    """
    chosen = options or CommandOptions()
    return CommandRules(
        "Rally",
        "3.3.1",
        lambda state, faction, limited, free: RallyView(state, faction, limited, free, chosen),
        lambda state, move: rally_refusal(state, move, chosen),
        per_space,
        _rally,
        with_options=rally_rules,
        moves_within=lambda state, faction, limited, free, within: RallyView(
            state, faction, limited, free, chosen, within
        ),
    )


MUSTER_RULES: dict[tuple[str, str], CommandRules] = {
    ("british", "muster"): muster_rules(),
    ("patriots", "rally"): rally_rules(),
}
