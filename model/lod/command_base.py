"""What every Liberty or Death Command shares (chapter 3): the :class:`Command`
move, which Commands a Faction may choose, the table of each Command's rules, and
the generic checks, views and apply built on that table.

The Commands themselves live in :mod:`legalis.model.lod.commands` (and the modules
it gathers), which fills :data:`RULES`; import from there.

>>> Command("french", "hortalez", amount=2).to_json()
{'faction': 'french', 'command': 'hortalez', 'amount': 2}
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from legalis.model.coin.state import CoinState
from legalis.model.core.views import MoveView, Refusal
from legalis.model.errors import IllegalMoveError, InputError

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


@dataclass(frozen=True)
class Command:
    """One Command: the Faction, the Command's name, the spaces selected (sorted:
    the order does not change the outcome of the Commands built here), what is
    placed (``placed``: space, piece kind, number), what is taken away to be
    replaced (``removed``, likewise), for Roderigue Hortalez et Cie the Resources
    paid (``amount``), and the pieces that move (``moves``: origin,
    destination, piece kind, number; a kind names the status moved where it matters,
    as ``war_party:underground``). ``leaders``: the Leaders that follow units of
    their Faction moving in it (1.10: Leader, destination). ``limited``: a Limited
    Command (2.3.5); ``free``: granted free by an Event (3.1.2)."""

    faction: str
    name: str
    spaces: tuple[str, ...] = ()
    placed: tuple[tuple[str, str, int], ...] = ()
    removed: tuple[tuple[str, str, int], ...] = ()
    amount: int = 0
    moves: tuple[tuple[str, str, str, int], ...] = ()
    displace: tuple[str, str] | None = None
    allied: tuple[str, ...] = ()
    leaders: tuple[tuple[str, str], ...] = ()
    limited: bool = False
    free: bool = False

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"faction": self.faction, "command": self.name}
        if self.spaces:
            body["spaces"] = list(self.spaces)
        if self.placed:
            body["placed"] = [list(p) for p in self.placed]
        if self.removed:
            body["removed"] = [list(p) for p in self.removed]
        if self.amount:
            body["amount"] = self.amount
        if self.moves:
            body["moves"] = [list(m) for m in self.moves]
        if self.displace:
            body["displace"] = list(self.displace)
        if self.allied:
            body["allied"] = list(self.allied)
        if self.leaders:
            body["leaders"] = [list(f) for f in self.leaders]
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
    faction = faction_of(state, faction)
    if faction == "french":
        return list(FRENCH_AFTER_TOA if state.flag("toa_played") else FRENCH_BEFORE_TOA)
    return sorted(COMMANDS[faction])


def faction_of(state: CoinState, faction: str) -> str:
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
        make: Callable[[tuple[str, ...]], Command],
        refuse: Callable[[object], Refusal | None] | None = None,
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
                return self._make(unrank(self.candidates, k, index))
            index -= block
        raise IndexError(index)

    def refusal(self, move: object) -> Refusal | None:
        return None if self._refuse is None else self._refuse(move)


def unrank(items: Sequence[str], k: int, index: int) -> tuple[str, ...]:
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


def budget(state: CoinState, faction: str, free: bool) -> int:
    """How many Resources the Faction can spend (any number if free, 3.1.2)."""
    return 10**6 if free else state.track(RESOURCES[faction])


class ListedCommands(MoveView[Command]):
    """A short list of moves (the Commands with few choices)."""

    def __init__(self, moves: list[Command], refuse: Callable[[object], Refusal | None]) -> None:
        self._moves = moves
        self._refuse = refuse

    def __iter__(self) -> Iterator[Command]:
        return iter(self._moves)

    def count(self) -> int:
        return len(self._moves)

    def nth(self, index: int) -> Command:
        return self._moves[index]

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)


@dataclass(frozen=True)
class CommandRules:
    """One Command's rules: its legal moves (given the state, the Faction, whether
    Limited and whether free), its own checks beyond the common ones, its cost, and
    what it does (on a copy of the state, writing the log)."""

    title: str
    rule: str
    moves: Callable[[CoinState, str, bool, bool], MoveView[Command] | list[Command]]
    refuse: Callable[[CoinState, Command], Refusal | None]
    cost: Callable[[CoinState, Command], int]
    carry_out: Callable[[CoinState, Command, list[str]], None]
    # the same Command's rules under other options, where options change them
    with_options: Callable[[CommandOptions], CommandRules] | None = None
    # the moves whose selected spaces all lie in a set, ranked as such, where the
    # Command can (else :func:`command_view` sifts its whole view)
    moves_within: Callable[[CoinState, str, bool, bool, frozenset[str]],
                           MoveView[Command]] | None = None  # fmt: skip


@dataclass(frozen=True)
class CommandOptions:
    """The named readings of unclear Command rules (docs/rules-questions.md).

    ``march_in_place``: a March destination need not receive a moving piece (8.4.3
    has the British "March in place" to Activate Militia); ``False``: each must.
    ``muster_tories_beside_new_regulars``: Regulars this Muster placed make a space
    next to them a Tory space (3.2.1 places them first); ``False``: only those there
    before. ``muster_idle_spaces``: a selected Muster space may receive nothing;
    by default each must. ``muster_colony_beside_open_city``: a Colony takes the
    Regulars only next to a City that is not Blockaded; ``False``: next to any City.
    ``rally_continentals_at_new_fort``: a Patriot Fort this Rally built lets its
    space turn Militia into Continentals (3.3.1); ``False``: only an older Fort.

    >>> CommandOptions().march_in_place
    True
    """

    march_in_place: bool = True
    muster_tories_beside_new_regulars: bool = True
    muster_idle_spaces: bool = False
    muster_colony_beside_open_city: bool = True
    rally_continentals_at_new_fort: bool = True


class RankedCommands(MoveView[Command]):
    """A view that ranks its moves: iterating walks the ranks, and the checks are
    the table's (under the view's ``options``). Subclasses set ``state`` and give
    ``count`` and ``nth``."""

    state: CoinState
    options: CommandOptions = CommandOptions()

    def __iter__(self) -> Iterator[Command]:
        for index in range(self.count()):
            yield self.nth(index)

    def refusal(self, move: object) -> Refusal | None:
        return command_refusal(self.state, move, options=self.options)


def rules_for(faction: str, command: str, options: CommandOptions | None) -> CommandRules | None:
    """The table's entry for a Command, under ``options`` (the defaults if None)."""
    rules = RULES.get((faction, command))
    if rules is not None and options is not None and rules.with_options is not None:
        return rules.with_options(options)
    return rules


# Each Command's rules by (Faction, Command), filled by legalis.model.lod.commands.
RULES: dict[tuple[str, str], CommandRules] = {}


def command_view(
    state: CoinState,
    faction: str,
    command: str,
    *,
    limited: bool = False,
    free: bool = False,
    options: CommandOptions | None = None,
    within: frozenset[str] | None = None,
) -> MoveView[Command]:
    """The legal moves of one Command for ``faction`` (empty when it may not be
    executed now; :func:`command_refusal` on any move says why); ``within``: only
    those that select spaces there and nowhere else (an Event's free Command in
    named spaces, 5.3), for a Command whose rules rank those alone
    (``CommandRules.moves_within``).

    >>> from legalis.model.lod.commands import command_view  # with the table of rules
    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "british_regular", 2)
    >>> state.set_track("british_resources", 5)
    >>> every = command_view(state, "british", "march")
    >>> into = command_view(state, "british", "march", within=frozenset({"Massachusetts"}))
    >>> 0 < into.count() < every.count()
    True
    >>> all(m.spaces == ("Massachusetts",) for m in into)
    True
    """
    faction = faction_of(state, faction)
    rules = rules_for(faction, command, options)
    if rules is None:
        raise InputError(
            f"the {faction} have no {command!r} Command",
            path="command",
            allowed=sorted(COMMANDS[faction]),
        )

    def refuse(move: object) -> Refusal | None:
        return command_refusal(state, move, options=options)

    if within is not None and rules.moves_within is None:
        raise InputError(f"the {rules.title} Command's moves cannot be narrowed to spaces",
                         path="within")  # fmt: skip
    if command_allowed(state, faction, command) is not None:
        return ListedCommands([], refuse)
    if within is not None:
        assert rules.moves_within is not None
        return rules.moves_within(state, faction, limited, free, within)
    found = rules.moves(state, faction, limited, free)
    if isinstance(found, list):  # a short list: keep exactly the moves the rules accept
        return ListedCommands([move for move in found if refuse(move) is None], refuse)
    return found


# ---------------------------------------------------------------------- the rules


def command_allowed(state: CoinState, faction: str, command: str) -> Refusal | None:
    if command not in COMMANDS[faction]:
        return Refusal(f"the {faction} have no {command} Command", "3.1")
    if faction == "french" and command not in available_commands(state, "french"):
        when = "after" if state.flag("toa_played") else "before"
        return Refusal(f"the French may not {command} {when} the Treaty of Alliance", "3.5")
    return None


def can_command(
    state: CoinState,
    faction: str,
    command: str,
    *,
    limited: bool = False,
    free: bool = False,
    options: CommandOptions | None = None,
) -> Refusal | None:
    """``None`` if ``faction`` can execute ``command`` now in at least one way, else why
    not (the verify / can / do triple: :func:`command_refusal`, this, :func:`apply_command`).

    >>> from legalis.model.lod.commands import can_command  # with the table of rules
    >>> state = CoinState.new("lod")
    >>> can_command(state, "french", "hortalez").reason
    'no Roderigue Hortalez et Cie now: the french have no Resources'
    >>> state.set_track("french_resources", 1)
    >>> can_command(state, "french", "hortalez") is None
    True
    """
    faction = faction_of(state, faction)
    refused = command_allowed(state, faction, command)
    if refused is not None:
        return refused
    if command_view(state, faction, command, limited=limited, free=free, options=options):
        return None
    rules = RULES[(faction, command)]
    if not free and state.track(RESOURCES[faction]) == 0:
        return Refusal(f"no {rules.title} now: the {faction} have no Resources", "3.1")
    return Refusal(f"no {rules.title} now: nothing qualifies", rules.rule)


def command_refusal(
    state: CoinState, move: object, *, options: CommandOptions | None = None
) -> Refusal | None:
    """``None`` if ``move`` is a legal Command now, else why not and the rule.

    >>> from legalis.model.lod.commands import Command, command_refusal  # with the table of rules
    >>> state = CoinState.new("lod")
    >>> command_refusal(state, Command("patriots", "rabble_rousing", ("Boston",))).rule
    '3.3.4'
    """
    if not isinstance(move, Command):
        return Refusal("not a Command", "3.1")
    if move.faction not in COMMANDS:
        return Refusal(f"no Commands for {move.faction!r}", "3.1")
    refused = command_allowed(state, move.faction, move.name)
    if refused is not None:
        return refused
    rules = rules_for(move.faction, move.name, options)
    if rules is None:
        return Refusal(f"the {move.name} Command is not modelled yet", "3.1")
    if len(set(move.spaces)) != len(move.spaces) or tuple(sorted(move.spaces)) != move.spaces:
        return Refusal("each space once, in sorted order", "3.1")
    refused = rules.refuse(state, move) or leaders_refusal(state, move)
    if refused is not None:
        return refused
    cost = 0 if move.free else rules.cost(state, move)
    if cost > state.track(RESOURCES[move.faction]):
        return Refusal(
            f"it costs {cost} Resources; the {move.faction} have "
            f"{state.track(RESOURCES[move.faction])}",
            "3.1",
        )
    return None


def apply_command(
    state: CoinState, move: Command, *, options: CommandOptions | None = None
) -> CommandResult:
    """The state after ``move``; an illegal move raises :class:`IllegalMoveError`.

    >>> from legalis.model.lod.commands import Command, apply_command  # with the table of rules
    >>> state = CoinState.new("lod")
    >>> state.set_track("french_resources", 3)
    >>> after = apply_command(state, Command("french", "hortalez", amount=2)).state
    >>> after.track("french_resources"), after.track("patriots_resources")
    (1, 3)
    """
    refused = command_refusal(state, move, options=options)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    return carry_out_command(state, move, options=options)


def carry_out_command(
    state: CoinState, move: Command, *, options: CommandOptions | None = None
) -> CommandResult:
    """The state after ``move``, which the caller has just found legal on ``state``
    with :func:`command_refusal` under the same ``options`` (nothing is checked again:
    :func:`apply_command` checks, then carries out).

    >>> from legalis.model.lod.command_base import carry_out_command
    >>> from legalis.model.lod.commands import Command, command_refusal  # with the table
    >>> state = CoinState.new("lod")
    >>> state.set_track("french_resources", 3)
    >>> move = Command("french", "hortalez", amount=2)
    >>> command_refusal(state, move) is None
    True
    >>> carry_out_command(state, move).state.track("patriots_resources")
    3
    """
    return _carry_out(state, move, options)


def continue_command(
    state: CoinState, move: Command, *, options: CommandOptions | None = None
) -> CommandResult:
    """Carry out the rest of a Command checked whole when it began, after a Special
    Activity came during it (4.1): its spaces and routes stand as chosen then; here
    only its cost and the pieces that move are checked against ``state``.

    Raises
    ------
    IllegalMoveError
        The Resources no longer pay for it, or a moving piece is no longer there.
    """
    rules = rules_for(move.faction, move.name, options)
    if rules is None:
        raise IllegalMoveError(f"the {move.name} Command is not modelled yet", rule="3.1")
    cost = 0 if move.free else rules.cost(state, move)
    if cost > state.track(RESOURCES[move.faction]):
        raise IllegalMoveError(f"it costs {cost} Resources; the {move.faction} have "
                               f"{state.track(RESOURCES[move.faction])}", rule="3.1")  # fmt: skip
    taken: dict[tuple[str, str], int] = {}
    for origin, _destination, kind, n in move.moves:
        taken[(origin, kind)] = taken.get((origin, kind), 0) + n
    for (origin, kind), n in taken.items():
        piece, _, status = kind.partition(":")
        if state.pieces(origin, piece, status or None) < n:
            raise IllegalMoveError(f"{origin} no longer has {n} {kind} to move", rule="4.1")
    return _carry_out(state, move, options)


def _carry_out(state: CoinState, move: Command, options: CommandOptions | None) -> CommandResult:
    rules = rules_for(move.faction, move.name, options)
    assert rules is not None  # the callers refuse Commands not in the table
    new = state.copy()
    log: list[str] = []
    cost = 0 if move.free else rules.cost(state, move)
    if cost:
        track = RESOURCES[move.faction]
        new.set_track(track, new.track(track) - cost)
        log.append(f"3.1: the {move.faction} pay {cost} Resource(s)")
    rules.carry_out(new, move, log)
    for leader, destination in move.leaders:
        log.append(f"1.10: {leader} follows from {new.leader(leader)} to {destination}")
        new.set_leader(leader, destination)
    return CommandResult(new, tuple(log))


# ---------------------------------------------------------------------- 1.10 Leaders


def leader_destinations(state: CoinState, move: Command) -> dict[str, list[str]]:
    """Where each Leader may follow the units of its Faction that ``move`` moves
    away from the Leader's space (1.10), sorted; Leaders with nowhere to go are left
    out.

    >>> from legalis.model.lod.commands import Command
    >>> state = CoinState.new("lod")
    >>> state.set_leader("Washington", "Virginia")
    >>> march = Command("patriots", "march", ("Maryland-Delaware", "North Carolina"), moves=(
    ...     ("Virginia", "Maryland-Delaware", "militia:underground", 1),
    ...     ("Virginia", "North Carolina", "continental", 2)))
    >>> leader_destinations(state, march)
    {'Washington': ['Maryland-Delaware', 'North Carolina']}
    """
    owner = {piece.id: piece.faction for piece in state.data.pieces}
    found: dict[str, set[str]] = {}
    for leader in state.data.leaders:
        where = state.leader(leader.name)
        for origin, destination, kind, _n in move.moves:
            if origin == where and owner.get(kind.partition(":")[0]) == leader.faction:
                found.setdefault(leader.name, set()).add(destination)
    return {name: sorted(places) for name, places in sorted(found.items())}


def leaders_refusal(state: CoinState, move: Command) -> Refusal | None:
    """``None`` when each Leader ``move`` names follows units of its Faction that
    move from its space to the destination named (1.10), else why not."""
    if not move.leaders:
        return None
    if tuple(sorted(move.leaders)) != move.leaders or len(
        {leader for leader, _ in move.leaders}
    ) != len(move.leaders):
        return Refusal("one sorted entry per Leader", "1.10")
    allowed = leader_destinations(state, move)
    for leader, destination in move.leaders:
        if destination not in allowed.get(leader, ()):
            return Refusal(f"{leader} follows units of its Faction moving from its space; "
                           f"none goes to {destination}", "1.10")  # fmt: skip
    return None


def per_space(state: CoinState, move: Command) -> int:
    return len(move.spaces)
