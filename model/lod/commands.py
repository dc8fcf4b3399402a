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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from legalis.model.coin.state import CoinState
from legalis.model.core.views import MoveView, Refusal
from legalis.model.errors import IllegalMoveError, InputError

__all__ = [
    "COMMANDS",
    "Command",
    "CommandResult",
    "SpaceSubsets",
    "apply_command",
    "available_commands",
    "command_refusal",
    "command_view",
]

# 3.2-3.5: each Faction's Commands; the French ones depend on the Treaty of Alliance.
COMMANDS: dict[str, tuple[str, ...]] = {
    "british": ("muster", "garrison", "march", "battle"),
    "patriots": ("rally", "march", "battle", "rabble_rousing"),
    "indians": ("gather", "march", "scout", "raid"),
    "french": ("hortalez", "agent_mobilization", "muster", "march", "battle"),
}
FRENCH_BEFORE_TOA = ("agent_mobilization", "hortalez")  # 3.5
FRENCH_AFTER_TOA = ("battle", "hortalez", "march", "muster")  # 3.5
RESOURCES = {f: f"{f}_resources" for f in COMMANDS}
# The Commands built so far; the others are refused as not yet available here.
BUILT = {
    "french": ("hortalez", "agent_mobilization"),
    "patriots": ("rabble_rousing",),
}
AGENT_SPACES = ("Quebec", "New York", "New Hampshire", "Massachusetts")  # 3.5.1


@dataclass(frozen=True)
class Command:
    """One Command: the Faction, the Command's name, the spaces selected (sorted:
    the order does not change the outcome of the Commands built here), what is
    placed (``pieces``: piece type and number) and, for Roderigue Hortalez et Cie,
    the Resources paid (``amount``). ``limited``: a Limited Command (2.3.5);
    ``free``: granted free by an Event (3.1.2)."""

    faction: str
    name: str
    spaces: tuple[str, ...] = ()
    pieces: tuple[tuple[str, int], ...] = ()
    amount: int = 0
    limited: bool = False
    free: bool = False

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"faction": self.faction, "command": self.name}
        if self.spaces:
            body["spaces"] = list(self.spaces)
        if self.pieces:
            body["pieces"] = [list(p) for p in self.pieces]
        if self.amount:
            body["amount"] = self.amount
        if self.limited:
            body["limited"] = True
        if self.free:
            body["free"] = True
        return body


@dataclass(frozen=True)
class CommandResult:
    """The state after a Command and what happened, a line per step naming its rule."""

    state: CoinState
    log: tuple[str, ...]


# ---------------------------------------------------------------------- which Commands


def available_commands(state: CoinState, faction: str) -> list[str]:
    """The Commands ``faction`` may choose from now (3.2-3.5), sorted.

    >>> available_commands(CoinState.new("lod"), "patriots")
    ['battle', 'march', 'rabble_rousing', 'rally']
    """
    faction = _faction(state, faction)
    if faction == "french":
        return list(FRENCH_AFTER_TOA if state.flag("toa_played") else FRENCH_BEFORE_TOA)
    return sorted(COMMANDS[faction])


def _faction(state: CoinState, faction: str) -> str:
    found = state.rules.data.faction(faction, path="faction").id
    if found not in COMMANDS:
        raise InputError(f"no Commands for {faction!r}", path="faction", allowed=COMMANDS)
    return found


# ---------------------------------------------------------------------- counting subsets


class SpaceSubsets(MoveView[Command]):
    """The Commands selecting between ``lo`` and ``hi`` of ``candidates`` (each at
    most once, 3.1), counted and ranked without listing: by size, then in the
    lexicographic order of the candidates' positions.

    >>> view = SpaceSubsets(["A", "B", "C"], 1, 2, lambda spaces: Command("x", "y", spaces))
    >>> view.count(), [m.spaces for m in view]
    (6, [('A',), ('B',), ('C',), ('A', 'B'), ('A', 'C'), ('B', 'C')])
    >>> view.nth(4).spaces
    ('A', 'C')
    """

    def __init__(
        self,
        candidates: Sequence[str],
        lo: int,
        hi: int,
        make: Any,
        refuse: Any = None,
    ) -> None:
        self.candidates = tuple(sorted(candidates))
        self.lo = max(lo, 0)
        self.hi = min(hi, len(self.candidates))
        self._make = make
        self._refuse = refuse

    def count(self) -> int:
        return sum(comb(len(self.candidates), k) for k in range(self.lo, self.hi + 1))

    def __iter__(self) -> Iterator[Command]:
        from itertools import combinations

        for k in range(self.lo, self.hi + 1):
            for chosen in combinations(self.candidates, k):
                yield self._make(chosen)

    def nth(self, index: int) -> Command:
        if not 0 <= index < self.count():
            raise IndexError(index)
        n = len(self.candidates)
        for k in range(self.lo, self.hi + 1):
            block = comb(n, k)
            if index < block:
                return self._make(_unrank(self.candidates, k, index))
            index -= block
        raise IndexError(index)

    def refusal(self, move: object) -> Refusal | None:
        if self._refuse is not None:
            return self._refuse(move)  # type: ignore[no-any-return]
        return None


def _unrank(items: Sequence[str], k: int, index: int) -> tuple[str, ...]:
    """The ``index``-th ``k``-subset of ``items`` in lexicographic order."""
    chosen: list[str] = []
    start = 0
    while k:
        for position in range(start, len(items)):
            below = comb(len(items) - position - 1, k - 1)
            if index < below:
                chosen.append(items[position])
                start, k = position + 1, k - 1
                break
            index -= below
    return tuple(chosen)


# ---------------------------------------------------------------------- the views


def _budget(state: CoinState, faction: str, free: bool) -> int:
    """How many spaces the Faction can pay for (any number if free, 3.1.2)."""
    return 10**6 if free else state.track(RESOURCES[faction])


def command_view(
    state: CoinState, faction: str, command: str, *, limited: bool = False, free: bool = False
) -> MoveView[Command]:
    """The legal moves of one Command for ``faction`` (empty when it may not be
    executed now; :func:`command_refusal` on any move says why)."""
    faction = _faction(state, faction)
    if command not in BUILT.get(faction, ()):
        raise InputError(
            f"the {command!r} Command of the {faction} is not modelled yet",
            path="command",
            allowed=BUILT.get(faction, ()),
        )

    def refuse(move: object) -> Refusal | None:
        return command_refusal(state, move)

    if command == "hortalez":
        most = 0 if free else state.track(RESOURCES["french"])
        amounts = [0] if free else list(range(1, most + 1))
        moves = [Command("french", "hortalez", amount=a, limited=limited, free=free)
                 for a in amounts]  # fmt: skip
        return _Listed(moves, refuse) if _allowed(state, faction, command) is None else _none()
    if command == "agent_mobilization":
        moves = [
            Command(faction, command, (space,), (what,), limited=limited, free=free)
            for space in _agent_spaces(state)
            for what in _agent_placements(state)
        ]
        if _allowed(state, faction, command) is not None or _budget(state, faction, free) < 1:
            moves = []
        return _Listed(moves, refuse)
    # rabble_rousing (3.3.4)
    candidates = _rabble_spaces(state) if _allowed(state, faction, command) is None else []
    most = min(1 if limited else len(candidates), _budget(state, faction, free))
    return SpaceSubsets(
        candidates,
        1,
        most,
        lambda spaces: Command(faction, command, spaces, limited=limited, free=free),
        refuse,
    )


class _Listed(MoveView[Command]):
    def __init__(self, moves: list[Command], refuse: Any) -> None:
        self._moves = moves
        self._refuse = refuse

    def __iter__(self) -> Iterator[Command]:
        return iter(self._moves)

    def count(self) -> int:
        return len(self._moves)

    def nth(self, index: int) -> Command:
        return self._moves[index]

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)  # type: ignore[no-any-return]


def _none() -> _Listed:
    return _Listed([], lambda move: Refusal("no legal move", "3.1"))


# ---------------------------------------------------------------------- the rules


def _allowed(state: CoinState, faction: str, command: str) -> Refusal | None:
    if command not in COMMANDS[faction]:
        return Refusal(f"the {faction} have no {command} Command", "3.1")
    if faction == "french" and command not in available_commands(state, "french"):
        when = "after" if state.flag("toa_played") else "before"
        return Refusal(f"the French may not {command} {when} the Treaty of Alliance", "3.5")
    return None


def _agent_spaces(state: CoinState) -> list[str]:
    """3.5.1: one of four Provinces, not at Active Support."""
    return [s for s in AGENT_SPACES if state.support(s) != "active_support"]


def _agent_placements(state: CoinState) -> list[tuple[str, int]]:
    """3.5.1: two Available Militia, or one Continental (as many Militia as are
    Available when only one is: ``docs/rules-questions.md``)."""
    options: list[tuple[str, int]] = []
    if state.available("militia"):
        options.append(("militia", min(2, state.available("militia"))))
    if state.available("continental"):
        options.append(("continental", 1))
    return options


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


def _markers_on_map(state: CoinState, marker: str) -> int:
    return sum(state.markers(space, marker) for space in state.rules.spaces)


def command_refusal(state: CoinState, move: object) -> Refusal | None:
    """``None`` if ``move`` is a legal Command now, else why not and the rule.

    >>> state = CoinState.new("lod")
    >>> command_refusal(state, Command("patriots", "rabble_rousing", ("Boston",))).rule
    '3.3.4'
    """
    if not isinstance(move, Command):
        return Refusal("not a Command", "3.1")
    if move.faction not in COMMANDS:
        return Refusal(f"no Commands for {move.faction!r}", "3.1")
    refused = _allowed(state, move.faction, move.name)
    if refused is not None:
        return refused
    if move.name not in BUILT.get(move.faction, ()):
        return Refusal(f"the {move.name} Command is not modelled yet", "3.1")
    if len(set(move.spaces)) != len(move.spaces) or tuple(sorted(move.spaces)) != move.spaces:
        return Refusal("each space once, in sorted order", "3.1")
    budget = _budget(state, move.faction, move.free)
    if move.name == "hortalez":
        if move.spaces or move.pieces:
            return Refusal("Roderigue Hortalez et Cie selects no space", "3.5.2")
        if move.free:
            return None if move.amount == 0 else Refusal("free: nothing is paid", "3.1.2")
        if not 1 <= move.amount <= budget:
            return Refusal(f"the French pay 1 to {budget} Resources", "3.5.2")
        return None
    if move.name == "agent_mobilization":
        if len(move.spaces) != 1 or move.spaces[0] not in AGENT_SPACES:
            return Refusal(f"one of {', '.join(AGENT_SPACES)}", "3.5.1")
        if move.spaces[0] not in _agent_spaces(state):
            return Refusal(f"{move.spaces[0]} is at Active Support", "3.5.1")
        if len(move.pieces) != 1 or move.pieces[0] not in _agent_placements(state):
            return Refusal("two Available Militia or one Continental", "3.5.1")
        if budget < 1:
            return Refusal("the French pay 1 Resource", "3.5.1")
        return None
    # rabble_rousing
    if not move.spaces:
        return Refusal("select at least one space", "3.3.4")
    eligible = set(_rabble_spaces(state))
    for space in move.spaces:
        if space not in eligible:
            return Refusal(
                f"{space}: needs Rebellion Control and a Patriot piece, or an Underground Militia",
                "3.3.4",
            )
    if move.limited and len(move.spaces) > 1:
        return Refusal("a Limited Command selects one space", "2.3.5")
    if len(move.spaces) > budget:
        return Refusal(f"1 Resource per space: {budget} available", "3.3.4")
    return None


# ---------------------------------------------------------------------- apply


def apply_command(state: CoinState, move: Command) -> CommandResult:
    """The state after ``move``; an illegal move raises :class:`IllegalMoveError`.

    >>> state = CoinState.new("lod")
    >>> state.set_track("french_resources", 3)
    >>> after = apply_command(state, Command("french", "hortalez", amount=2)).state
    >>> after.track("french_resources"), after.track("patriots_resources")
    (1, 3)
    """
    refused = command_refusal(state, move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    new = state.copy()
    log: list[str] = []
    cost = 0 if move.free else len(move.spaces)
    if move.name == "hortalez":
        paid = move.amount
        gain = paid + 1
        before = new.track("patriots_resources")
        new.set_track("french_resources", new.track("french_resources") - paid)
        new.set_track("patriots_resources", min(_cap(new), before + gain))
        log.append(f"3.5.2: the French pay {paid}; Patriot Resources {before} -> "
                   f"{new.track('patriots_resources')}")  # fmt: skip
        return CommandResult(new, tuple(log))
    new.set_track(RESOURCES[move.faction], new.track(RESOURCES[move.faction]) - cost)
    if cost:
        log.append(f"3.1: the {move.faction} pay {cost} Resource(s)")
    if move.name == "agent_mobilization":
        (space,) = move.spaces
        ((piece, n),) = move.pieces
        new.move_pieces("Available", space, piece, n)
        log.append(f"3.5.1: {n} {piece} placed in {space}")
        return CommandResult(new, tuple(log))
    for space in move.spaces:
        with_patriots = new.control(space) == "rebellion" and new.faction_pieces(space, "patriots")
        if _markers_on_map(new, "propaganda") < new.rules.data.pool("propaganda").count:
            new.add_marker(space, "propaganda")
            log.append(f"3.3.4: a Propaganda marker in {space}")
        else:
            log.append("3.3.4: all 12 Propaganda markers are on the map: none placed")
        before = new.support(space)
        after = new.shift_support(space, -1)
        log.append(f"3.3.4: {space} {before} -> {after}")
        if not with_patriots:
            new.flip(space, "militia", 1, "underground", "active")
            log.append(f"3.3.4: one Underground Militia in {space} Activated")
    return CommandResult(new, tuple(log))


def _cap(state: CoinState) -> int:
    return state.rules.data.track("patriots_resources").hi
