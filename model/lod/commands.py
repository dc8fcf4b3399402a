"""Liberty or Death Commands (chapter 3): which a Faction may execute, their moves,
the legal moves of each as a lazy view, and applying them.

Every Command is a frozen :class:`Command` move. A view counts and ranks its moves
without listing them (a Command selecting any subset of a dozen spaces has
thousands); :func:`command_refusal` says why a move is not legal, naming the rule,
and :func:`apply_command` returns the new state (the input is never changed).

>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> available_commands(state, "french")
['agent_mobilization', 'hortalez']
>>> view = command_view(state, "french", "hortalez")
>>> view.count() == state.track("french_resources")
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Any

from legalis.model.coin.limits import may_hold, stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.memo import instance_cache
from legalis.model.core.views import MoveView, Refusal
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import (
    WEST_INDIES,
    BattleChoice,
    BattleOptions,
    BattleResult,
    DieSource,
    battle_refusal,
    resolve_battle,
)
from legalis.model.lod.command_base import (
    COMMANDS,
    RESOURCES,
    RULES,
    Command,
    CommandResult,
    CommandRules,
    RankedCommands,
    SpaceSubsets,
    apply_command,
    available_commands,
    budget,
    can_command,
    command_refusal,
    command_view,
    leader_destinations,
    per_space,
)
from legalis.model.lod.march import MARCH_RULES
from legalis.model.lod.muster import MUSTER_RULES

__all__ = [
    "COMMANDS",
    "Command",
    "CommandResult",
    "SpaceSubsets",
    "apply_command",
    "available_commands",
    "can_command",
    "command_refusal",
    "command_view",
    "fight_battles",
    "leader_destinations",
    "raid_origins",
]

RAID_MOST = 3  # 3.4.4: up to three Provinces
AGENT_SPACES = ("Quebec", "New York", "New Hampshire", "Massachusetts")  # 3.5.1


def _markers_on_map(state: CoinState, marker: str) -> int:
    return sum(state.markers(space, marker) for space in state.rules.spaces)


def _place_marker(state: CoinState, space: str, marker: str, rule: str, log: list[str]) -> None:
    """A marker on ``space`` unless all of its pool are on the map already."""
    pool = state.rules.data.marker(marker).pool
    if _markers_on_map(state, marker) < state.rules.data.pool(pool).count:
        state.add_marker(space, marker)
        log.append(f"{rule}: a {marker.capitalize()} marker in {space}")
    else:
        log.append(f"{rule}: every {marker.capitalize()} marker is on the map: none placed")


# ---------------------------------------------------------------------- 3.5.2 Hortalez


def _hortalez_moves(state: CoinState, faction: str, limited: bool, free: bool) -> list[Command]:
    amounts = [0] if free else list(range(1, state.track(RESOURCES["french"]) + 1))
    return [Command("french", "hortalez", amount=a, limited=limited, free=free) for a in amounts]


def _hortalez_refusal(state: CoinState, move: Command) -> Refusal | None:
    if move.spaces or move.placed or move.removed or move.moves:
        return Refusal("Roderigue Hortalez et Cie selects no space", "3.5.2")
    if move.free:
        return None if move.amount == 0 else Refusal("free: nothing is paid", "3.1.2")
    if move.amount < 1:
        return Refusal("the French pay one or more Resources", "3.5.2")
    return None


def _hortalez(state: CoinState, move: Command, log: list[str]) -> None:
    before = state.track("patriots_resources")
    cap = state.rules.data.track("patriots_resources").hi
    state.set_track("patriots_resources", min(cap, before + move.amount + 1))
    log.append(f"3.5.2: the French pay {move.amount}; Patriot Resources {before} -> "
               f"{state.track('patriots_resources')}")  # fmt: skip


# ---------------------------------------------------------------------- 3.5.1 Agent Mobilization


def _agent_spaces(state: CoinState) -> list[str]:
    """3.5.1: one of four Provinces, not at Active Support."""
    return [s for s in AGENT_SPACES if state.support(s) != "active_support"]


def _agent_placements(state: CoinState, space: str) -> list[tuple[str, str, int]]:
    """3.5.1: two Available Militia, or one Continental (as many Militia as are
    Available when only one is: ``docs/rules-questions.md``)."""
    options: list[tuple[str, str, int]] = []
    if state.available("militia"):
        options.append((space, "militia", min(2, state.available("militia"))))
    if state.available("continental"):
        options.append((space, "continental", 1))
    return options


def _agent_moves(state: CoinState, faction: str, limited: bool, free: bool) -> list[Command]:
    return [
        Command(faction, "agent_mobilization", (space,), (what,), limited=limited, free=free)
        for space in _agent_spaces(state)
        for what in _agent_placements(state, space)
    ]


def _agent_refusal(state: CoinState, move: Command) -> Refusal | None:
    if len(move.spaces) != 1 or move.spaces[0] not in AGENT_SPACES:
        return Refusal(f"one of {', '.join(AGENT_SPACES)}", "3.5.1")
    if move.spaces[0] not in _agent_spaces(state):
        return Refusal(f"{move.spaces[0]} is at Active Support", "3.5.1")
    placed = _agent_placements(state, move.spaces[0])
    if len(move.placed) != 1 or move.placed[0] not in placed or move.removed or move.moves:
        return Refusal("two Available Militia or one Continental", "3.5.1")
    return None


def _agent(state: CoinState, move: Command, log: list[str]) -> None:
    ((space, piece, n),) = move.placed
    state.move_pieces("Available", space, piece, n)
    log.append(f"3.5.1: {n} {piece} placed in {space}")


# ---------------------------------------------------------------------- 3.3.4 Rabble-Rousing


def _rabble_spaces(state: CoinState) -> list[str]:
    """3.3.4: Provinces or Cities with Rebellion Control and Patriot pieces, or at
    least one Underground Militia (and a Support level to shift)."""
    found = []
    for space in state.rules.spaces:
        if not state.can_have_support(space):
            continue
        controlled = state.control(space) == "rebellion" and state.faction_pieces(space, "patriots")
        if controlled or state.pieces(space, "militia", "underground"):
            found.append(space)
    return found


def _rabble_moves(state: CoinState, faction: str, limited: bool, free: bool) -> MoveView[Command]:
    candidates = _rabble_spaces(state)
    most = min(1 if limited else len(candidates), budget(state, faction, free))
    return SpaceSubsets(
        candidates,
        1,
        most,
        lambda spaces: Command(faction, "rabble_rousing", spaces, limited=limited, free=free),
        lambda move: command_refusal(state, move),
    )


def _rabble_refusal(state: CoinState, move: Command) -> Refusal | None:
    if not move.spaces or move.placed or move.removed or move.moves:
        return Refusal("select one or more spaces, nothing else", "3.3.4")
    eligible = set(_rabble_spaces(state))
    for space in move.spaces:
        if space not in eligible:
            return Refusal(
                f"{space}: needs Rebellion Control and a Patriot piece, or an Underground Militia",
                "3.3.4",
            )
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one space", "2.3.5")
    return None


def _rabble(state: CoinState, move: Command, log: list[str]) -> None:
    for space in move.spaces:
        with_patriots = (
            state.control(space) == "rebellion" and state.faction_pieces(space, "patriots") > 0
        )
        _place_marker(state, space, "propaganda", "3.3.4", log)
        before = state.support(space)
        after = state.shift_support(space, -1)
        log.append(f"3.3.4: {space} {before} -> {after}")
        if not with_patriots:
            state.flip(space, "militia", 1, "underground", "active")
            log.append(f"3.3.4: one Underground Militia in {space} Activated")


# ---------------------------------------------------------------------- 3.4.4 Raid

_UG_WAR_PARTY = "war_party:underground"
_OPPOSITION = ("active_opposition", "passive_opposition")


def _raid_provinces(state: CoinState) -> list[str]:
    """3.4.4: Provinces at Opposition with, or next to a Province with, an
    Underground War Party."""
    board = state.rules.map
    found = []
    for space in state.rules.spaces:
        if not board.is_province(space) or state.support(space) not in _OPPOSITION:
            continue
        near = [space, *raid_origins(state, space)]
        if any(state.pieces(n, "war_party", "underground") for n in near):
            found.append(space)
    return found


def _raid_sources(state: CoinState, province: str) -> list[str | None]:
    """Where the one War Party moved in comes from: nowhere (``None``) if one is
    there already, or any adjacent Province with an Underground War Party."""
    sources: list[str | None] = []
    if state.pieces(province, "war_party", "underground"):
        sources.append(None)
    sources += [
        n for n in raid_origins(state, province) if state.pieces(n, "war_party", "underground")
    ]
    return sources


def raid_origins(state: CoinState, province: str) -> list[str]:
    """The Provinces a Raid's War Party may come from: those next to ``province``,
    and, with Dragging Canoe, his Province if it is two Provinces away (Leader
    capabilities: "Raid may move 1 extra space if it originated in the space").

    >>> raid_origins(CoinState.new("lod"), "Georgia")
    ['Florida', 'South Carolina', 'Southwest']
    """
    board = state.rules.map
    near = [n for n in board.adjacent(province) if board.is_province(n)]
    canoe = state.leader("Dragging Canoe")
    if (
        canoe is not None
        and canoe != province
        and canoe not in near
        and board.has_space(canoe)
        and board.is_province(canoe)
        and any(canoe in board.adjacent(n) for n in near)
    ):
        near.append(canoe)
    return sorted(near)


def _raid_moves(state: CoinState, faction: str, limited: bool, free: bool) -> list[Command]:
    from itertools import combinations, product

    provinces = sorted(_raid_provinces(state))
    most = min(1 if limited else RAID_MOST, len(provinces), budget(state, faction, free))
    found: list[Command] = []
    for k in range(1, most + 1):
        for chosen in combinations(provinces, k):
            for sources in product(*(_raid_sources(state, p) for p in chosen)):
                moves = tuple(
                    (source, province, _UG_WAR_PARTY, 1)
                    for province, source in zip(chosen, sources, strict=True)
                    if source is not None
                )
                move = Command(faction, "raid", chosen, moves=moves, limited=limited, free=free)
                if _raid_refusal(state, move) is None:  # sources shared beyond what they hold
                    found.append(move)
    return found


def _raid_refusal(state: CoinState, move: Command) -> Refusal | None:
    if not move.spaces or move.placed or move.removed:
        return Refusal("select one to three Provinces", "3.4.4")
    if len(move.spaces) > (1 if move.limited else RAID_MOST):
        return Refusal("up to three Provinces (one if Limited)", "3.4.4" if not move.limited
                       else "2.3.5")  # fmt: skip
    eligible = set(_raid_provinces(state))
    for province in move.spaces:
        if province not in eligible:
            return Refusal(
                f"{province}: a Province at Opposition with or next to an Underground War Party",
                "3.4.4",
            )
    into: dict[str, int] = {}
    taken: dict[str, int] = {}
    for origin, destination, kind, n in move.moves:
        if destination not in move.spaces or kind != _UG_WAR_PARTY or n != 1:
            return Refusal("at most one Underground War Party into each Raid Province", "3.4.4")
        if origin not in raid_origins(state, destination):
            return Refusal(f"{origin} is not a Province next to {destination}", "3.4.4")
        into[destination] = into.get(destination, 0) + 1
        taken[origin] = taken.get(origin, 0) + 1
    if any(count > 1 for count in into.values()):
        return Refusal("at most one War Party moves into each Province", "3.4.4")
    for origin, count in taken.items():
        if state.pieces(origin, "war_party", "underground") < count:
            return Refusal(f"{origin} has too few Underground War Parties", "3.4.4")
    for province in move.spaces:
        # 3.4.4: its own, if none moves in, and not one that moves away to another Raid
        left = state.pieces(province, "war_party", "underground") - taken.get(province, 0)
        if province not in into and left < 1:
            return Refusal(f"{province}: no Underground War Party to Activate", "3.4.4")
    return None


def _raid(state: CoinState, move: Command, log: list[str]) -> None:
    for origin, destination, _, n in move.moves:
        state.move_pieces(origin, destination, "war_party", n, "underground", "underground")
        log.append(f"3.4.4: an Underground War Party moves from {origin} to {destination}")
    for province in move.spaces:
        state.flip(province, "war_party", 1, "underground", "active")
        _place_marker(state, province, "raid", "3.4.4", log)
        before = state.support(province)
        after = state.shift_support(province, 1)
        log.append(f"3.4.4: a War Party Activated; {province} {before} -> {after}")


# ---------------------------------------------------------------------- 3.4.1 Gather

_WP_KINDS = ("war_party:underground", "war_party:active")
_GATHER_LEVELS = ("neutral", "passive_opposition", "passive_support")
Placement = tuple[tuple[tuple[str, str, int], ...], tuple[tuple[str, str, int], ...]]


def _gather_provinces(state: CoinState) -> list[str]:
    """3.4.1: Provinces at Neutral or a Passive level (Reserves are always Neutral)."""
    board = state.rules.map
    return sorted(
        s for s in state.rules.spaces if board.is_province(s) and state.support(s) in
        _GATHER_LEVELS
    )  # fmt: skip


def _gather_options(state: CoinState, province: str) -> list[Placement]:
    """The choices in one Gather Province other than moving War Parties in (3.4.1):
    place one War Party; replace two War Parties (of the statuses named) with a
    Village; with a Village there, place 2 to Villages + 1 War Parties."""
    options: list[Placement] = []
    available = state.available("war_party")
    if available:
        options.append((((province, "war_party", 1),), ()))
    underground = state.pieces(province, "war_party", "underground")
    active = state.pieces(province, "war_party", "active")
    # Cornplanter: a Village for one War Party where he is (Leader capabilities)
    needed = 1 if state.leader("Cornplanter") == province else 2
    if state.available("village") and stacking_room(state, province) >= 1:
        for taken_underground in range(needed, -1, -1):
            taken_active = needed - taken_underground
            if taken_underground <= underground and taken_active <= active:
                removed = tuple(
                    sorted(
                        (province, kind, n)
                        for kind, n in zip(
                            _WP_KINDS, (taken_underground, taken_active), strict=True
                        )
                        if n
                    )
                )
                options.append((((province, "village", 1),), removed))
    villages = state.pieces(province, "village")
    if villages:
        options += [
            (((province, "war_party", n),), ()) for n in range(2, min(villages + 1, available) + 1)
        ]
    return options


def _is_reserve(state: CoinState, space: str) -> bool:
    return state.rules.map.space(space).type == "Reserve"


def _gather_cost(state: CoinState, spaces: Sequence[str]) -> int:
    """3.4.1: 1 per Province, the first Indian Reserve free."""
    return len(spaces) - (1 if any(_is_reserve(state, s) for s in spaces) else 0)


Have = tuple[tuple[str, int], ...]  # (War Party kind, how many), both statuses


def _split_count(have: Have, near: int) -> int:
    """Ways to send each kind's War Parties into ``near`` destinations or keep them."""
    total = 1
    for _, n in have:
        total *= comb(n + near, near)
    return total


def _split_nth(origin: str, have: Have, near: Sequence[str], rank: int) -> list[Any]:
    """The ``rank``-th such split, as moves."""
    moves: list[Any] = []
    for kind, n in have:
        rank, part = divmod(rank, comb(n + len(near), len(near)))
        for destination, sent in zip(near, _composition(n, len(near), rank=part), strict=True):
            if sent:
                moves.append((origin, destination, kind, sent))
    return moves


def _composition(total: int, bins: int, rank: int) -> tuple[int, ...]:
    """The ``rank``-th way to send 0..``total`` pieces into ``bins`` bins (the rest
    stay), bins in order, each from the most down.

    >>> [_composition(2, 1, r) for r in range(3)]
    [(2,), (1,), (0,)]
    """
    out: list[int] = []
    for position in range(bins):
        left = bins - position - 1
        for amount in range(total, -1, -1):
            ways = comb(total - amount + left, left)
            if rank < ways:
                out.append(amount)
                total -= amount
                break
            rank -= ways
    return tuple(out)


class _GatherView(RankedCommands):
    """Every legal Gather (3.4.1), counted without listing. For each set of
    Provinces taking War Parties in (those with a Village), a count over the other
    Provinces of the Resources and pieces their choices use, each choice weighted by
    the ways its own War Parties left over (after a Village replaces two) can move
    into those Provinces next door; Provinces outside the Gather add a fixed factor
    of their own splits. No War Party is used twice (3.4.1)."""

    def __init__(self, state: CoinState, faction: str, limited: bool, free: bool) -> None:
        self.state, self.faction, self.limited, self.free = state, faction, limited, free
        self.candidates = _gather_provinces(state)
        self.choices = {p: _gather_options(state, p) for p in self.candidates}
        movers = [p for p in self.candidates if state.pieces(p, "village")]
        self.blocks: list[tuple[tuple[str, ...], int, int]] = []  # movers, fixed, dp ways
        from itertools import combinations

        for k in range(len(movers) + 1):
            for chosen in combinations(movers, k):
                fixed = self._fixed(chosen)
                ways = self._ways(chosen, 0, len(chosen), self._reserve(chosen), 0, 0)
                if ways and fixed:
                    self.blocks.append((chosen, fixed, ways))

    # ---------------------------------------------------------------- the pieces

    @instance_cache
    def _have(self, province: str, removed: tuple[tuple[str, str, int], ...] = ()) -> Have:
        out = []
        for kind in _WP_KINDS:
            n = self.state.pieces(province, "war_party", kind.split(":")[1])
            n -= sum(m for where, k, m in removed if where == province and k == kind)
            if n:
                out.append((kind, n))
        return tuple(out)

    @instance_cache
    def _near(self, origin: str, movers: tuple[str, ...]) -> tuple[str, ...]:
        board = self.state.rules.map
        return tuple(m for m in movers if m != origin and m in board.adjacent(origin))

    def _fixed_origins(self, movers: tuple[str, ...]) -> list[str]:
        """Origins whose War Parties are all free to move: not choosing here."""
        rest = set(self._rest(movers))
        return [
            o for o in self.state.rules.spaces
            if o not in rest and self._near(o, movers) and self._have(o)
        ]  # fmt: skip

    def _fixed(self, movers: tuple[str, ...]) -> int:
        total = 1
        for origin in self._fixed_origins(movers):
            total *= _split_count(self._have(origin), len(self._near(origin, movers)))
        return total

    @instance_cache
    def _weight(self, movers: tuple[str, ...], province: str, removed: tuple[Any, ...]) -> int:
        return _split_count(self._have(province, removed), len(self._near(province, movers)))

    # ---------------------------------------------------------------- counting

    def _reserve(self, spaces: Sequence[str]) -> bool:
        return any(_is_reserve(self.state, s) for s in spaces)

    @instance_cache
    def _rest(self, movers: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(p for p in self.candidates if p not in movers)

    @staticmethod
    def _uses(pick: Placement) -> tuple[int, int]:
        wp = sum(n for _, piece, n in pick[0] if piece == "war_party")
        return wp, sum(n for _, piece, n in pick[0] if piece == "village")

    def _choices(self, province: str) -> list[Placement | None]:
        return [None, *self.choices[province]]

    @instance_cache
    def _ways(
        self, movers: tuple[str, ...], at: int, chosen: int, reserve: bool, wp: int, vil: int
    ) -> int:
        """Weighted ways for the Provinces from ``at`` on (not taking War Parties in)
        to complete a Gather with ``chosen`` Provinces so far, a Reserve among them
        or not, using ``wp`` War Parties and ``vil`` Villages (3.4.1, 1.4.1)."""
        if wp > self.state.available("war_party") or vil > self.state.available("village"):
            return 0
        if not self.free and chosen - reserve > self.state.track(RESOURCES[self.faction]):
            return 0
        if self.limited and chosen > 1:
            return 0
        rest = self._rest(movers)
        if at == len(rest):
            return 1 if chosen else 0
        province = rest[at]
        total = 0
        for pick in self._choices(province):
            total += self._step(movers, at, province, pick, chosen, reserve, wp, vil)[0]
        return total

    def _step(
        self, movers: tuple[str, ...], at: int, province: str, pick: Placement | None,
        chosen: int, reserve: bool, wp: int, vil: int,
    ) -> tuple[int, int, tuple[int, bool, int, int]]:  # fmt: skip
        """(ways, weight, next state) of taking ``pick`` (None: not selected) here."""
        if pick is None:
            weight = self._weight(movers, province, ())
            after = (chosen, reserve, wp, vil)
        else:
            more_wp, more_vil = self._uses(pick)
            weight = self._weight(movers, province, pick[1])
            is_reserve = reserve or _is_reserve(self.state, province)
            after = (chosen + 1, is_reserve, wp + more_wp, vil + more_vil)
        return weight * self._ways(movers, at + 1, *after), weight, after

    def count(self) -> int:
        return sum(fixed * ways for _, fixed, ways in self.blocks)

    # ---------------------------------------------------------------- ranking

    def nth(self, index: int) -> Command:
        if not 0 <= index < self.count():
            raise IndexError(index)
        for movers, fixed, ways in self.blocks:
            if index >= fixed * ways:
                index -= fixed * ways
                continue
            index, fixed_rank = divmod(index, fixed)
            spaces = list(movers)
            placed: list[Any] = []
            removed: list[Any] = []
            moves: list[Any] = []
            state = (len(movers), self._reserve(movers), 0, 0)
            for at, province in enumerate(self._rest(movers)):
                for pick in self._choices(province):
                    block, weight, after = self._step(movers, at, province, pick, *state)
                    if index >= block:
                        index -= block
                        continue
                    below = block // weight
                    split, index = divmod(index, below)
                    taken = () if pick is None else pick[1]
                    near = self._near(province, movers)
                    moves += _split_nth(province, self._have(province, taken), near, split)
                    if pick is not None:
                        spaces.append(province)
                        placed += pick[0]
                        removed += pick[1]
                    state = after
                    break
            for origin in self._fixed_origins(movers):
                have, near = self._have(origin), self._near(origin, movers)
                fixed_rank, split = divmod(fixed_rank, _split_count(have, len(near)))
                moves += _split_nth(origin, have, near, split)
            return Command(self.faction, "gather", tuple(sorted(spaces)),
                           placed=tuple(sorted(placed)), removed=tuple(sorted(removed)),
                           moves=tuple(sorted(moves)), limited=self.limited,
                           free=self.free)  # fmt: skip
        raise IndexError(index)


def _gather_moves(state: CoinState, faction: str, limited: bool, free: bool) -> MoveView[Command]:
    return _GatherView(state, faction, limited, free)


def _gather_refusal(state: CoinState, move: Command) -> Refusal | None:
    if not move.spaces:
        return Refusal("select one or more Provinces", "3.4.1")
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one Province", "2.3.5")
    eligible = set(_gather_provinces(state))
    movers: list[str] = []
    for province in move.spaces:
        if province not in eligible:
            return Refusal(f"{province}: a Province at Neutral or a Passive level", "3.4.1")
        mine = (
            tuple(a for a in move.placed if a[0] == province),
            tuple(a for a in move.removed if a[0] == province),
        )
        if mine == ((), ()):
            if not state.pieces(province, "village"):
                return Refusal(f"{province}: War Parties move in only where a Village is",
                               "3.4.1")  # fmt: skip
            movers.append(province)
        elif mine not in _gather_options(state, province):
            return Refusal(f"{province}: not one of its Gather choices", "3.4.1")
    if any(a[0] not in move.spaces for a in (*move.placed, *move.removed)):
        return Refusal("pieces placed only in selected Provinces", "3.4.1")
    for piece in ("war_party", "village"):
        if sum(n for _, p, n in move.placed if p == piece) > state.available(piece):
            return Refusal(f"not enough {piece} Available", "1.4.1")
    sent: dict[tuple[str, str], int] = {}
    if list(move.moves) != sorted(move.moves):
        return Refusal("moves in sorted order", "3.1")
    board = state.rules.map
    for origin, destination, kind, n in move.moves:
        if destination not in movers or kind not in _WP_KINDS or n < 1:
            return Refusal(f"{origin} -> {destination}: not a move of this Gather", "3.4.1")
        if destination not in board.adjacent(origin):
            return Refusal(f"{origin} is not next to {destination}", "3.4.1")
        sent[(origin, kind)] = sent.get((origin, kind), 0) + n
    if len({(o, d, k) for o, d, k, _ in move.moves}) != len(move.moves):
        return Refusal("one entry per origin, destination and status", "3.1")
    used = dict(sent)
    for where, kind, n in move.removed:
        used[(where, kind)] = used.get((where, kind), 0) + n
    for (origin, kind), n in used.items():
        if n > state.pieces(origin, "war_party", kind.split(":")[1]):
            return Refusal(f"{origin} has too few {kind}: no War Party is used twice", "3.4.1")
    return None


def _gather(state: CoinState, move: Command, log: list[str]) -> None:
    for space, kind, n in move.removed:
        state.move_pieces(space, "Available", "war_party", n, kind.split(":")[1])
        log.append(f"3.4.1: {n} {kind} in {space} replaced")
    for space, piece, n in move.placed:
        state.move_pieces("Available", space, piece, n)
        log.append(f"3.4.1: {n} {piece} placed in {space}")
    for origin, destination, kind, n in move.moves:
        status = kind.split(":")[1]
        state.move_pieces(origin, destination, "war_party", n, status, status)
        log.append(f"3.4.1: {n} {kind} move from {origin} to {destination}")
    for province in move.spaces:
        if not any(a[0] == province for a in (*move.placed, *move.removed)):
            active = state.pieces(province, "war_party", "active")
            if active:
                state.flip(province, "war_party", active, "active", "underground")
            log.append(f"3.4.1: every War Party in {province} goes Underground")


# ---------------------------------------------------------------------- 3.2.2 Garrison

_REBELLION_UNITS = ("militia", "continental", "french_regular")
_GARRISON_COST = 2  # 3.2.2: two Resources in all


def _blockaded(state: CoinState, space: str) -> bool:
    return bool(state.markers(space, "blockade"))


def _garrison_cities(state: CoinState) -> list[str]:
    """3.2.2: the Cities Regulars may move to, that Activate and displace: not
    Blockaded."""
    return sorted(c for c in state.rules.map.of_type("City") if not _blockaded(state, c))


def _garrison_origins(state: CoinState) -> list[tuple[str, int]]:
    """Spaces with British Regulars that may move (not a Blockaded City), and how many."""
    return [
        (space, state.pieces(space, "british_regular"))
        for space in state.rules.spaces
        if state.pieces(space, "british_regular") and not _blockaded(state, space)
    ]


def _royalist(state: CoinState, space: str) -> int:
    return state.faction_pieces(space, "british") + state.faction_pieces(space, "indians")


def _rebellion(state: CoinState, space: str) -> int:
    return state.faction_pieces(space, "patriots") + state.faction_pieces(space, "french")


def _displace_need(state: CoinState, city: str) -> int | None:
    """How many British Regulars must end in ``city`` for British Control there
    (1.7: Royalist pieces exceed Rebellion ones, a British piece present); None when
    it cannot be a displacement City (3.2.2: a Patriot Fort, or no Rebellion unit to
    displace)."""
    if state.pieces(city, "patriot_fort") or not any(
        state.pieces(city, u) for u in _REBELLION_UNITS
    ):
        return None
    regulars = state.pieces(city, "british_regular")
    others = _royalist(state, city) - regulars
    other_british = state.faction_pieces(city, "british") - regulars
    need = max(_rebellion(state, city) - others + 1, 0 if other_british else 1)
    return max(need, 0)


def _displace_to(state: CoinState, city: str) -> list[str]:
    """Adjacent spaces every Rebellion unit in ``city`` may go to (1.4.2)."""
    present = [u for u in _REBELLION_UNITS if state.pieces(city, u)]
    return sorted(
        n for n in state.rules.map.adjacent(city)
        if all(may_hold(state, u, n)[0] for u in present)
    )  # fmt: skip


class _GarrisonView(RankedCommands):
    """Every legal Garrison (3.2.2), counted without listing. Each origin's Regulars
    split among the Cities they may go to or stay (binomials); a displacement from a
    City adds the splits that leave enough Regulars there for British Control,
    counted by a convolution over origins of the Regulars ending in that City.
    Limited (2.3.5): one destination City, which alone Activates and displaces."""

    def __init__(self, state: CoinState, faction: str, limited: bool, free: bool) -> None:
        self.state, self.faction, self.limited, self.free = state, faction, limited, free
        self.origins = _garrison_origins(state)
        # (destination City or None, displacement or None): one block of moves each
        self.blocks: list[tuple[str | None, tuple[str, str] | None, int]] = []
        finals = _garrison_cities(state) if limited else [None]
        for final in finals:
            cities = [final] if final is not None else _garrison_cities(state)
            total = self._ways(cities, None, 0)
            self.blocks.append((final, None, total))
            for city in cities:
                need = _displace_need(state, city)
                if need is None:
                    continue
                ways = self._ways(cities, city, need)
                for to in _displace_to(state, city):
                    if ways:
                        self.blocks.append((final, (city, to), ways))

    # ---------------------------------------------------------------- counting

    def _targets(self, origin: str, cities: Sequence[str]) -> list[str]:
        return [c for c in cities if c != origin]

    def _by_arrivals(self, origin: str, have: int, cities: Sequence[str], city: str) -> list[int]:
        """ways[k]: splits of ``origin``'s Regulars with exactly k ending in ``city``
        (staying, if ``origin`` is that City). The other k-less Regulars go to the
        other targets or, away from ``city``, stay: |targets| bins either way."""
        bins = len(self._targets(origin, cities))
        out = [0] * (have + 1)
        for k in range(have + 1):
            rest = have - k
            out[k] = comb(rest + bins - 1, bins - 1) if bins else int(rest == 0)
        return out

    def _ways(self, cities: Sequence[str], city: str | None, need: int) -> int:
        if city is None:
            total = 1
            for origin, have in self.origins:
                bins = len(self._targets(origin, cities)) + 1
                total *= comb(have + bins - 1, bins - 1)
            return total
        counts = [1]
        for origin, have in self.origins:
            ways = self._by_arrivals(origin, have, cities, city)
            merged = [0] * (len(counts) + len(ways) - 1)
            for a, x in enumerate(counts):
                if x:
                    for b, y in enumerate(ways):
                        merged[a + b] += x * y
            counts = merged
        return sum(counts[need:])

    def count(self) -> int:
        if not self._allowed():
            return 0
        return sum(ways for _, _, ways in self.blocks)

    def _allowed(self) -> bool:
        if self.state.track("fni") >= 3:  # 3.2.2: not while FNI is at level 3
            return False
        return self.free or self.state.track(RESOURCES[self.faction]) >= _GARRISON_COST

    # ---------------------------------------------------------------- ranking

    def _make(
        self, final: str | None, displace: tuple[str, str] | None, moves: list[Any]
    ) -> Command:
        spaces = (final,) if final is not None else ()
        return Command(self.faction, "garrison", spaces, moves=tuple(sorted(moves)),
                       displace=displace, limited=self.limited, free=self.free)  # fmt: skip

    def nth(self, index: int) -> Command:
        if not 0 <= index < self.count():
            raise IndexError(index)
        for final, displace, ways in self.blocks:
            if index >= ways:
                index -= ways
                continue
            cities = [final] if final is not None else _garrison_cities(self.state)
            if displace is None:
                return self._make(final, None, self._unrank_free(cities, index))
            return self._make(final, displace, self._unrank_held(cities, displace[0], index))
        raise IndexError(index)

    def _moves(self, origin: str, targets: Sequence[str], split: Sequence[int]) -> list[Any]:
        return [(origin, c, "british_regular", n) for c, n in zip(targets, split, strict=True)
                if n]  # fmt: skip

    def _unrank_free(self, cities: Sequence[str], index: int) -> list[Any]:
        moves: list[Any] = []
        for origin, have in self.origins:
            targets = self._targets(origin, cities)
            radix = comb(have + len(targets), len(targets))
            index, rank = divmod(index, radix)
            moves += self._moves(origin, targets, _composition(have, len(targets), rank))
        return moves

    def _unrank_held(self, cities: Sequence[str], city: str, index: int) -> list[Any]:
        need = _displace_need(self.state, city) or 0
        tables = [self._by_arrivals(o, h, cities, city) for o, h in self.origins]
        # suffix[i][a]: ways for origins i.. given a Regulars ending in the City so far
        top = sum(h for _, h in self.origins)
        suffix = [[0] * (top + 1) for _ in range(len(tables) + 1)]
        for a in range(top + 1):
            suffix[len(tables)][a] = 1 if a >= need else 0
        for i in range(len(tables) - 1, -1, -1):
            for a in range(top + 1):
                suffix[i][a] = sum(
                    w * suffix[i + 1][min(top, a + k)] for k, w in enumerate(tables[i]) if w
                )
        moves: list[Any] = []
        arrived = 0
        for i, (origin, have) in enumerate(self.origins):
            for k, w in enumerate(tables[i]):
                block = w * suffix[i + 1][min(top, arrived + k)]
                if index < block:
                    rank = index // suffix[i + 1][min(top, arrived + k)]
                    index %= suffix[i + 1][min(top, arrived + k)]
                    moves += self._held_moves(origin, have, cities, city, k, rank)
                    arrived += k
                    break
                index -= block
        return moves

    def _held_moves(
        self, origin: str, have: int, cities: Sequence[str], city: str, k: int, rank: int
    ) -> list[Any]:
        """``origin``'s split with exactly ``k`` Regulars ending in ``city`` (its
        ``rank``-th such split)."""
        targets = self._targets(origin, cities)
        if origin == city:  # k stay; the rest go to the other Cities, none may stay
            return self._moves(origin, targets, _composition_exact(have - k, len(targets), rank))
        others = [c for c in targets if c != city]
        moves = self._moves(origin, others, _composition(have - k, len(others), rank))
        if k:
            moves.append((origin, city, "british_regular", k))
        return moves


def _composition_exact(total: int, bins: int, rank: int) -> tuple[int, ...]:
    """The ``rank``-th way to put exactly ``total`` pieces into ``bins`` bins."""
    if bins == 0:
        return ()
    head = _composition(total, bins - 1, rank)
    return (*head, total - sum(head))


def _garrison_moves(state: CoinState, faction: str, limited: bool, free: bool) -> MoveView[Command]:
    return _GarrisonView(state, faction, limited, free)


def _garrison_refusal(state: CoinState, move: Command) -> Refusal | None:
    if state.track("fni") >= 3:
        return Refusal("no Garrison while FNI is at level 3", "3.2.2")
    if move.placed or move.removed:
        return Refusal("Garrison moves Regulars only", "3.2.2")
    cities = set(_garrison_cities(state))
    if move.limited:
        if len(move.spaces) != 1 or move.spaces[0] not in cities:
            return Refusal("a Limited Garrison names its one destination City", "2.3.5")
    elif move.spaces:
        return Refusal("a Garrison selects no spaces beyond its moves", "3.2.2")
    have = dict(_garrison_origins(state))
    sent: dict[str, int] = {}
    if list(move.moves) != sorted(move.moves):
        return Refusal("moves in sorted order", "3.1")
    for origin, city, kind, n in move.moves:
        if kind != "british_regular" or n < 1 or origin == city:
            return Refusal("Garrison moves British Regulars to another City", "3.2.2")
        if origin not in have:
            return Refusal(f"{origin}: no Regulars that may move (Blockaded?)", "3.2.2")
        if city not in cities or (move.limited and city != move.spaces[0]):
            return Refusal(f"{city}: not a City Regulars may Garrison", "3.2.2")
        sent[origin] = sent.get(origin, 0) + n
    if len({(o, c) for o, c, _, _ in move.moves}) != len(move.moves):
        return Refusal("one entry per origin and City", "3.1")
    if any(n > have[o] for o, n in sent.items()):
        return Refusal("more Regulars than are there", "3.2.2")
    if move.displace is not None:
        city, to = move.displace
        if city not in cities or (move.limited and city != move.spaces[0]):
            return Refusal(f"{city}: no displacement from there", "3.2.2")
        after = state.copy()
        _garrison_moves_apply(after, move.moves)
        if after.control(city) != "british":
            return Refusal(f"{city}: not under British Control after the moves", "3.2.2")
        if _displace_need(after, city) is None or to not in _displace_to(after, city):
            return Refusal(f"{city} -> {to}: not a displacement Garrison allows", "3.2.2")
    return None


def _garrison_moves_apply(state: CoinState, moves: Sequence[tuple[str, str, str, int]]) -> None:
    for origin, city, _, n in moves:
        state.move_pieces(origin, city, "british_regular", n)


def _garrison(state: CoinState, move: Command, log: list[str]) -> None:
    _garrison_moves_apply(state, move.moves)
    for origin, city, _, n in move.moves:
        log.append(f"3.2.2: {n} British Regular(s) from {origin} to {city}")
    cities = [move.spaces[0]] if move.limited else _garrison_cities(state)
    for city in cities:
        cubes = state.pieces(city, "british_regular") + state.pieces(city, "tory")
        n = min(cubes // 3, state.pieces(city, "militia", "underground"))
        if n:
            state.flip(city, "militia", n, "underground", "active")
            log.append(f"3.2.2: {n} Militia Activated in {city} ({cubes} British cubes)")
    if move.displace is not None:
        city, to = move.displace
        for unit in _REBELLION_UNITS:
            for status in state.rules.data.piece(unit).statuses:
                n = state.pieces(city, unit, status)
                if n:
                    state.move_pieces(city, to, unit, n, status)
        log.append(f"3.2.2: every Rebellion unit in {city} displaced to {to}")


def _garrison_cost(state: CoinState, move: Command) -> int:
    return _GARRISON_COST


# ---------------------------------------------------------------------- 3.2.4, 3.3.3, 3.5.5 Battle

_BATTLE_RULE = {"british": "3.2.4", "patriots": "3.3.3", "french": "3.5.5"}
_BATTLE_ALLY = {"patriots": "french", "french": "patriots"}  # who pays to join (3.6.1)


def _battle_spaces(state: CoinState, faction: str) -> list[str]:
    """The spaces (and the West Indies where allowed) a Battle may select: the
    attacker's pieces and the enemy's there (3.2.4, 3.3.3, 3.5.5)."""
    places = [*state.rules.spaces, WEST_INDIES]
    return sorted(p for p in places if battle_refusal(state, BattleChoice(p, faction)) is None)


def _ally_cost(state: CoinState, faction: str, space: str) -> int:
    """What the ally pays to join in ``space`` (3.6.1): 1, but nothing for the French
    joining a Patriot Battle where Rochambeau is (Leader capabilities)."""
    return 0 if faction == "patriots" and state.leader("Rochambeau") == space else 1


def _ally_payment(state: CoinState, move: Command) -> int:
    return sum(_ally_cost(state, move.faction, space) for space in move.allied)


def _ally_may_join(state: CoinState, faction: str, space: str) -> bool:
    """3.6.1: the French join a Patriot Battle, or the Patriots a French one, when
    they have pieces there and pay; only after the Treaty of Alliance."""
    ally = _BATTLE_ALLY.get(faction)
    if ally is None or not state.faction_pieces(space, ally):
        return False
    return battle_refusal(state, BattleChoice(space, faction, ally_pays=True)) is None


class _BattleView(RankedCommands):
    """Every legal Battle Command: the spaces selected, and where the ally pays to
    join, counted by a count over the candidate spaces of the Resources each side
    spends (1 per space; the ally 1 per space it joins, Rochambeau's aside)."""

    def __init__(self, state: CoinState, faction: str, limited: bool, free: bool) -> None:
        self.state, self.faction, self.limited, self.free = state, faction, limited, free
        self.spaces = _battle_spaces(state, faction)
        self.joinable = [_ally_may_join(state, faction, s) for s in self.spaces]
        self.join_cost = [_ally_cost(state, faction, s) for s in self.spaces]
        self.own = budget(state, faction, free)
        ally = _BATTLE_ALLY.get(faction)
        # 3.1.2: a free Command costs nothing to any Faction involved
        self.ally = 0 if ally is None else budget(state, ally, free)

    @instance_cache
    def _ways(self, at: int, chosen: int, joined: int) -> int:
        if chosen > self.own or joined > self.ally or (self.limited and chosen > 1):
            return 0
        if at == len(self.spaces):
            return 1 if chosen else 0
        total = self._ways(at + 1, chosen, joined) + self._ways(at + 1, chosen + 1, joined)
        if self.joinable[at]:
            total += self._ways(at + 1, chosen + 1, joined + self.join_cost[at])
        return total

    def count(self) -> int:
        return self._ways(0, 0, 0)

    def nth(self, index: int) -> Command:
        if not 0 <= index < self.count():
            raise IndexError(index)
        chosen: list[str] = []
        allied: list[str] = []
        for at, space in enumerate(self.spaces):
            options = [(0, 0), (1, 0)] + ([(1, 1)] if self.joinable[at] else [])
            paid = sum(self.join_cost[self.spaces.index(s)] for s in allied)
            for pick, join in options:
                ways = self._ways(at + 1, len(chosen) + pick, paid + join * self.join_cost[at])
                if index < ways:
                    if pick:
                        chosen.append(space)
                    if join:
                        allied.append(space)
                    break
                index -= ways
        return Command(self.faction, "battle", tuple(chosen), allied=tuple(allied),
                       limited=self.limited, free=self.free)  # fmt: skip


def _battle_moves(state: CoinState, faction: str, limited: bool, free: bool) -> MoveView[Command]:
    return _BattleView(state, faction, limited, free)


def _battle_refusal(state: CoinState, move: Command) -> Refusal | None:
    rule = _BATTLE_RULE[move.faction]
    if not move.spaces or move.placed or move.removed or move.moves or move.displace:
        return Refusal("a Battle selects one or more spaces", rule)
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one space", "2.3.5")
    for space in move.spaces:
        refused = battle_refusal(state, BattleChoice(space, move.faction))
        if refused is not None:
            return refused
    if tuple(sorted(move.allied)) != move.allied or not set(move.allied) <= set(move.spaces):
        return Refusal("the ally joins only selected spaces, listed in order", rule)
    for space in move.allied:
        if not _ally_may_join(state, move.faction, space):
            return Refusal(f"{space}: no allied pieces that may join", "3.6.1")
    ally = _BATTLE_ALLY.get(move.faction)
    paying = move.allied and ally is not None and not move.free
    if paying and ally is not None and _ally_payment(state, move) > state.track(RESOURCES[ally]):
        return Refusal(f"the {ally} pay 1 per space they join", rule)
    return None


def _battle(state: CoinState, move: Command, log: list[str]) -> None:
    """Paying only: each Battle is fought by :func:`fight_battles` with the dice and
    the sides' own decisions (3.6.3)."""
    ally = _BATTLE_ALLY.get(move.faction)
    paid = _ally_payment(state, move)
    if paid and ally is not None and not move.free:
        state.set_track(RESOURCES[ally], state.track(RESOURCES[ally]) - paid)
        log.append(f"3.6.1: the {ally} pay {paid} to join")


def fight_battles(
    state: CoinState,
    move: Command,
    rng: DieSource,
    decisions: Mapping[str, BattleChoice] | None = None,
    options: BattleOptions | None = None,
) -> tuple[CommandResult, tuple[BattleResult, ...]]:
    """Carry out a Battle Command: pay (:func:`apply_command`), then fight in each
    selected space in turn (3.6), with the sides' decisions for a space taken from
    ``decisions`` (its space, attacker and ally must match the move) or, for a
    space not given, no Activations and no overflow shifts; ``options`` are the
    readings of 3.6 (:class:`~legalis.model.lod.battle.BattleOptions`).

    >>> from legalis.model.lod.battle import FixedDice
    >>> state = CoinState.new("lod")
    >>> state.set_track("british_resources", 1)
    >>> state.move_pieces("Available", "Boston", "british_regular", 3)
    >>> state.move_pieces("Available", "Boston", "militia", 2, new_status="active")
    >>> paid, fought = fight_battles(state, Command("british", "battle", ("Boston",)),
    ...                              FixedDice([2, 1]))
    >>> fought[0].state.pieces("Boston", "militia"), paid.state.track("british_resources")
    (0, 0)
    """
    if move.name != "battle":
        raise InputError("not a Battle Command", path="command", allowed=["battle"])
    paid = apply_command(state, move)
    current = paid.state
    results: list[BattleResult] = []
    # an Event's modifiers of the next Battle: its first space takes them, or all
    everywhere = (options or BattleOptions()).event_modifier_scope == "next_command"
    pending = [dict(record) for record in current.battle_modifiers]
    for space in move.spaces:
        if everywhere and results:
            current = current.copy()  # the earlier result keeps its own state
            current.battle_modifiers = [dict(record) for record in pending]
        wanted = BattleChoice(space, move.faction, ally_pays=space in move.allied)
        choice = (decisions or {}).get(space, wanted)
        if (choice.space, choice.attacker, choice.ally_pays) != (
            wanted.space, wanted.attacker, wanted.ally_pays,
        ):  # fmt: skip
            raise IllegalMoveError(f"{space}: the decisions do not match the move", rule="3.6")
        result = resolve_battle(current, choice, rng, options)
        results.append(result)
        current = result.state
    log = (*paid.log, *(line for r in results for line in r.log))
    return CommandResult(current, log), tuple(results)


# ---------------------------------------------------------------------- 3.5.3 French Muster

_FRENCH_MUSTER_COST = 2  # 3.5.3
_FRENCH_MUSTER_MOST = 4  # 3.5.3: up to four Regulars


def _french_muster_space(state: CoinState, space: str) -> bool:
    """3.5.3: a Colony or City with Rebellion Control, or the West Indies."""
    if space == WEST_INDIES:
        return True
    board = state.rules.map
    return (board.has_space(space) and board.space(space).type in ("City", "Colony")
            and state.control(space) == "rebellion")  # fmt: skip


def _french_muster_spaces(state: CoinState) -> list[str]:
    return sorted(s for s in [*state.rules.spaces, WEST_INDIES] if _french_muster_space(state, s))


def _french_muster_moves(
    state: CoinState, faction: str, limited: bool, free: bool
) -> list[Command]:
    moves: list[Command] = []
    most = min(_FRENCH_MUSTER_MOST, state.available("french_regular"))
    for space in _french_muster_spaces(state):
        for n in range(1, most + 1):
            placed = ((space, "french_regular", n),)
            moves.append(Command(faction, "muster", (space,), placed, limited=limited, free=free))
            if space != WEST_INDIES and n + state.pieces(space, "french_regular") >= 2:
                fort = (*placed, (space, "patriot_fort", 1))
                removed = ((space, "french_regular", 2),)
                moves.append(Command(faction, "muster", (space,), fort, removed,
                                     limited=limited, free=free))  # fmt: skip
    return moves


def _french_muster_refusal(state: CoinState, move: Command) -> Refusal | None:
    if len(move.spaces) != 1 or not _french_muster_space(state, move.spaces[0]):
        return Refusal("one Colony or City with Rebellion Control, or the West Indies", "3.5.3")
    (space,) = move.spaces
    placed = dict(((p, k), n) for p, k, n in move.placed)
    regulars = placed.get((space, "french_regular"), 0)
    if set(placed) - {(space, "french_regular"), (space, "patriot_fort")} or move.moves:
        return Refusal("French Regulars (and a Patriot Fort) in the Muster space", "3.5.3")
    if not 1 <= regulars <= min(_FRENCH_MUSTER_MOST, state.available("french_regular")):
        return Refusal("place one to four Available French Regulars", "3.5.3")
    fort = placed.get((space, "patriot_fort"), 0)
    if fort or move.removed:
        if space == WEST_INDIES or fort != 1 or move.removed != ((space, "french_regular", 2),):
            return Refusal("a Patriot Fort replaces two French Regulars in a map space", "3.5.3")
        if regulars + state.pieces(space, "french_regular") < 2:
            return Refusal("two French Regulars are needed to build the Fort", "3.5.3")
        if not move.free and state.track("patriots_resources") < 1:
            return Refusal("the Patriots pay 1 Resource for the Fort", "3.5.3")
        if not state.available("patriot_fort") or stacking_room(state, space) < 1:
            return Refusal(f"no Patriot Fort may be placed in {space}", "1.4.2")
    return None


def _french_muster(state: CoinState, move: Command, log: list[str]) -> None:
    (space,) = move.spaces
    placed = dict(((p, k), n) for p, k, n in move.placed)
    regulars = placed[(space, "french_regular")]
    state.move_pieces("Available", space, "french_regular", regulars)
    log.append(f"3.5.3: {regulars} French Regular(s) placed in {space}")
    if move.removed:
        state.move_pieces(space, "Available", "french_regular", 2)
        state.move_pieces("Available", space, "patriot_fort", 1)
        if not move.free:
            state.set_track("patriots_resources", state.track("patriots_resources") - 1)
        log.append(f"3.5.3: two French Regulars replaced by a Patriot Fort in {space}; "
                   "the Patriots pay 1")  # fmt: skip


def _french_muster_cost(state: CoinState, move: Command) -> int:
    return _FRENCH_MUSTER_COST


# ---------------------------------------------------------------------- 3.4.3 Scout

_SCOUT_KINDS = ("british_regular", "tory", "war_party:active", "war_party:underground")


def _scout_routes(state: CoinState) -> list[tuple[str, str]]:
    """3.4.3: from a Province with War Parties and a British Regular to an adjacent
    Province (not a City)."""
    board = state.rules.map
    routes = []
    for origin in sorted(state.rules.spaces):
        if not board.is_province(origin):
            continue
        if not (state.pieces(origin, "war_party") and state.pieces(origin, "british_regular")):
            continue
        routes += [(origin, d) for d in sorted(board.adjacent(origin)) if board.is_province(d)]
    return routes


def _scout_radices(state: CoinState, origin: str) -> tuple[int, int, int, int]:
    """How many of each moving kind there are: Regulars, Tories, Active and
    Underground War Parties."""
    return (
        state.pieces(origin, "british_regular"),
        state.pieces(origin, "tory"),
        state.pieces(origin, "war_party", "active"),
        state.pieces(origin, "war_party", "underground"),
    )


def _scout_groups(have: tuple[int, int, int, int]) -> int:
    """The groups that may move: 1+ Regulars, Tories up to the Regulars, 1+ War Parties."""
    regulars, tories, active, underground = have
    parties = (active + 1) * (underground + 1) - 1
    return parties * sum(min(tories, r) + 1 for r in range(1, regulars + 1))


class _ScoutView(RankedCommands):
    """Every legal Scout (3.4.3), counted by route without listing: the groups
    that may move from the origin, closed-form."""

    def __init__(self, state: CoinState, faction: str, limited: bool, free: bool) -> None:
        self.state, self.faction, self.limited, self.free = state, faction, limited, free
        paid = free or (state.track("british_resources") >= 1
                        and state.track(RESOURCES["indians"]) >= 1)  # fmt: skip
        routes = _scout_routes(state) if paid else []
        self.blocks = [(o, d, _scout_groups(_scout_radices(state, o))) for o, d in routes]

    def count(self) -> int:
        return sum(n for _, _, n in self.blocks)

    def nth(self, index: int) -> Command:
        if not 0 <= index < self.count():
            raise IndexError(index)
        for origin, destination, n in self.blocks:
            if index >= n:
                index -= n
                continue
            regulars, tories, active, underground = _scout_radices(self.state, origin)
            parties = (active + 1) * (underground + 1) - 1
            group, party = divmod(index, parties)
            party += 1  # not the empty group of War Parties
            moved_active, moved_underground = divmod(party, underground + 1)
            for r in range(1, regulars + 1):
                options = min(tories, r) + 1
                if group < options:
                    counts = (r, group, moved_active, moved_underground)
                    break
                group -= options
            moves = tuple(sorted(
                (origin, destination, kind, n)
                for kind, n in zip(_SCOUT_KINDS, counts, strict=True) if n
            ))  # fmt: skip
            return Command(self.faction, "scout", (destination,), moves=moves,
                           limited=self.limited, free=self.free)  # fmt: skip
        raise IndexError(index)


def _scout_moves(state: CoinState, faction: str, limited: bool, free: bool) -> MoveView[Command]:
    return _ScoutView(state, faction, limited, free)


def _scout_refusal(state: CoinState, move: Command) -> Refusal | None:
    if move.placed or move.removed or move.displace or move.allied or not move.moves:
        return Refusal("Scout moves one group of pieces", "3.4.3")
    routes = {(o, d) for o, d, _, _ in move.moves}
    if len(routes) != 1 or list(move.moves) != sorted(move.moves):
        return Refusal("all pieces move from one Province to one other, as a group", "3.4.3")
    ((origin, destination),) = routes
    if (origin, destination) not in _scout_routes(state) or move.spaces != (destination,):
        return Refusal(f"{origin} -> {destination}: not a Scout route", "3.4.3")
    counts = dict.fromkeys(_SCOUT_KINDS, 0)
    for _, _, kind, n in move.moves:
        if kind not in counts or n < 1:
            return Refusal(f"{kind}: not a piece that Scouts", "3.4.3")
        counts[kind] += n
    have = dict(zip(_SCOUT_KINDS, _scout_radices(state, origin), strict=True))
    if any(counts[k] > have[k] for k in _SCOUT_KINDS):
        return Refusal(f"more pieces than {origin} holds", "3.4.3")
    if counts["british_regular"] < 1 or counts["tory"] > counts["british_regular"]:
        return Refusal("at least one British Regular, Tories only up to the Regulars", "3.4.3")
    if counts["war_party:active"] + counts["war_party:underground"] < 1:
        return Refusal("at least one War Party moves", "3.4.3")
    if not move.free and state.track("british_resources") < 1:
        return Refusal("the British pay 1 Resource too", "3.4.3")
    return None


def _scout(state: CoinState, move: Command, log: list[str]) -> None:
    (destination,) = move.spaces
    if not move.free:
        state.set_track("british_resources", state.track("british_resources") - 1)
        log.append("3.4.3: the British pay 1 Resource")
    for origin, _, kind, n in move.moves:
        piece, _, status = kind.partition(":")
        if piece == "war_party":
            state.move_pieces(origin, destination, piece, n, status, "active")
        else:
            state.move_pieces(origin, destination, piece, n)
        log.append(f"3.4.3: {n} {kind} from {origin} to {destination}")
    underground = state.pieces(destination, "militia", "underground")
    if underground:
        state.flip(destination, "militia", underground, "underground", "active")
    log.append(f"3.4.3: moving War Parties and every Militia in {destination} Activated; "
               "the Indians may then Skirmish there with British Regulars (4.2.2)")  # fmt: skip


def _hortalez_cost(state: CoinState, move: Command) -> int:
    return move.amount


def _one(state: CoinState, move: Command) -> int:
    return 1


def _gather_paid(state: CoinState, move: Command) -> int:
    return _gather_cost(state, move.spaces)


RULES.update(
    {
        ("french", "hortalez"): CommandRules(
            "Roderigue Hortalez et Cie",
            "3.5.2",
            _hortalez_moves,
            _hortalez_refusal,
            _hortalez_cost,
            _hortalez,
        ),
        ("french", "agent_mobilization"): CommandRules(
            "Agent Mobilization", "3.5.1", _agent_moves, _agent_refusal, _one, _agent
        ),
        ("patriots", "rabble_rousing"): CommandRules(
            "Rabble-Rousing", "3.3.4", _rabble_moves, _rabble_refusal, per_space, _rabble
        ),
        ("indians", "raid"): CommandRules(
            "Raid", "3.4.4", _raid_moves, _raid_refusal, per_space, _raid
        ),
        ("indians", "gather"): CommandRules(
            "Gather", "3.4.1", _gather_moves, _gather_refusal, _gather_paid, _gather
        ),
        ("british", "garrison"): CommandRules(
            "Garrison", "3.2.2", _garrison_moves, _garrison_refusal, _garrison_cost, _garrison
        ),
        ("british", "battle"): CommandRules(
            "Battle", "3.2.4", _battle_moves, _battle_refusal, per_space, _battle
        ),
        ("patriots", "battle"): CommandRules(
            "Battle", "3.3.3", _battle_moves, _battle_refusal, per_space, _battle
        ),
        ("french", "battle"): CommandRules(
            "Battle", "3.5.5", _battle_moves, _battle_refusal, per_space, _battle
        ),
        ("indians", "scout"): CommandRules(
            "Scout", "3.4.3", _scout_moves, _scout_refusal, _one, _scout
        ),
        ("french", "muster"): CommandRules(
            "Muster",
            "3.5.3",
            _french_muster_moves,
            _french_muster_refusal,
            _french_muster_cost,
            _french_muster,
        ),
    }
)
RULES.update(MARCH_RULES)
RULES.update(MUSTER_RULES)
