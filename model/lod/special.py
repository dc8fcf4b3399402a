"""Liberty or Death Special Activities (chapter 4): which a Faction may execute,
the Commands they may accompany, their moves as a lazy view, and applying them.

Every Special Activity is a frozen :class:`SpecialActivity` move carrying the
Command it accompanies (``None`` when an Event grants it free, 3.1.2, 5.3). A view
counts and ranks its moves without listing them where the choice is combinatorial
(Common Cause); :func:`special_refusal` says why a move is not legal, naming the
rule, and :func:`apply_special` returns the new state (the input is never changed).
Only the pairing and the space rules relative to the Command are checked here; the
Command's own legality is :func:`legalis.model.lod.commands.command_refusal`'s.

>>> state = CoinState.new("lod")
>>> available_special_activities(state, "french")
['preparer']
>>> special_refusal(state, SpecialActivity("british", "common_cause", Command("british", "muster",
...     ("Boston",)))).rule
'4.1.1'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement
from math import prod
from typing import Any

from legalis.model.coin.state import CoinState, markers_out_of
from legalis.model.core.views import ListView, MoveView, Refusal, SiftedListView
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import DieSource
from legalis.model.lod.command_base import (
    RESOURCES,
    CommandOptions,
    CommandResult,
    continue_command,
)
from legalis.model.lod.commands import Command, apply_command, command_refusal
from legalis.model.lod.losses import add_losses

__all__ = [
    "NOT_IN",
    "NOT_WITH",
    "ONLY_IN",
    "ONLY_WITH",
    "SPECIAL_ACTIVITIES",
    "SpecialActivity",
    "SpecialResult",
    "apply_special",
    "available_special_activities",
    "blockade_layouts",
    "carry_out_special",
    "command_parts",
    "during_refusal",
    "howe_cities",
    "howe_refusal",
    "layout_refusal",
    "special_during",
    "special_refusal",
    "special_view",
]

# 4.2-4.5: each Faction's Special Activities.
SPECIAL_ACTIVITIES: dict[str, tuple[str, ...]] = {
    "british": ("common_cause", "skirmish", "naval_pressure"),
    "patriots": ("persuasion", "partisans", "skirmish"),
    "indians": ("trade", "war_path", "plunder"),
    "french": ("preparer", "skirmish", "naval_pressure"),
}
FRENCH_BEFORE_TOA = ("preparer",)  # 4.5
RULE = {
    ("british", "common_cause"): "4.2.1",
    ("british", "skirmish"): "4.2.2",
    ("british", "naval_pressure"): "4.2.3",
    ("patriots", "persuasion"): "4.3.1",
    ("patriots", "partisans"): "4.3.2",
    ("patriots", "skirmish"): "4.3.3",
    ("indians", "trade"): "4.4.1",
    ("indians", "war_path"): "4.4.2",
    ("indians", "plunder"): "4.4.3",
    ("french", "preparer"): "4.5.1",
    ("french", "skirmish"): "4.5.2",
    ("french", "naval_pressure"): "4.5.3",
}

# 4.1.1: the Commands a Special Activity may only accompany, or may not accompany.
ONLY_WITH: dict[tuple[str, str], tuple[str, ...]] = {
    ("british", "common_cause"): ("battle", "march"),
    ("indians", "plunder"): ("raid",),
}
NOT_WITH: dict[tuple[str, str], tuple[str, ...]] = {
    ("french", "skirmish"): ("agent_mobilization",),
    ("french", "naval_pressure"): ("agent_mobilization",),
}
# 4.1.1: the Command spaces a Special Activity must avoid (Command name -> "spaces"
# for the spaces selected, "destinations" for where its moves end) ...
NOT_IN: dict[tuple[str, str], dict[str, str]] = {
    ("british", "skirmish"): {"battle": "spaces", "muster": "spaces", "garrison": "destinations"},
    ("patriots", "partisans"): {"battle": "spaces"},
    ("patriots", "skirmish"): {"battle": "spaces"},
    ("french", "skirmish"): {"battle": "spaces", "muster": "spaces"},
}
# ... or must lie in (Common Cause: a March's destinations and origins, a Battle's
# spaces; Plunder: a Raid Province).
ONLY_IN: dict[tuple[str, str], dict[str, str]] = {
    ("british", "common_cause"): {"march": "spaces+origins", "battle": "spaces"},
    ("indians", "plunder"): {"raid": "spaces"},
}

WEST_INDIES = "West Indies"
AVAILABLE = "Available"
UNAVAILABLE = "Unavailable"
REBELLION_CUBES = ("continental", "french_regular")
BRITISH_CUBES = ("british_regular", "tory")
ROYALIST_UNITS = ("british_regular", "tory", "war_party:active", "war_party:underground")
REBELLION_UNITS = ("continental", "french_regular", "militia:active", "militia:underground")
PERSUASION_MOST = 3  # 4.3.1
PREPARER_REGULARS = 3  # 4.5.1
PREPARER_RESOURCES = 2  # 4.5.1

Removal = tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class SpecialActivity:
    """One Special Activity: the Faction, its name, the accompanying Command
    (``None``: granted free by an Event), the spaces selected (sorted), the
    procedure's choice (``option``: ``one``/``two``/``fort`` for the three strikes,
    ``village`` for Partisans' third; ``squadron``/``regulars``/``resources`` for
    Préparer la Guerre; ``place``/``rearrange`` for French Naval Pressure), the
    enemy pieces removed (``removed``: space, piece kind, number; a kind names the
    status where it matters, as ``militia:active``), the War Parties used as Tories
    (``used``, Common Cause, likewise), the Resources the British give (``amount``,
    Trade), the Blockades after a rearrangement (``layout``: City, number), and
    the City whose Blockade goes to the West Indies when Howe lowers FNI before a
    British Special Activity (``howe_blockade``; 1.9, Leader capabilities)."""

    faction: str
    name: str
    command: Command | None = None
    spaces: tuple[str, ...] = ()
    option: str = ""
    removed: Removal = ()
    used: Removal = ()
    amount: int = 0
    layout: tuple[tuple[str, int], ...] = ()
    howe_blockade: str = ""

    @property
    def free(self) -> bool:
        return self.command is None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"faction": self.faction, "special_activity": self.name}
        body["command"] = None if self.command is None else self.command.to_json()
        if self.spaces:
            body["spaces"] = list(self.spaces)
        if self.option:
            body["option"] = self.option
        if self.removed:
            body["removed"] = [list(r) for r in self.removed]
        if self.used:
            body["used"] = [list(u) for u in self.used]
        if self.amount:
            body["amount"] = self.amount
        if self.layout:
            body["layout"] = [list(b) for b in self.layout]
        if self.howe_blockade:
            body["howe_blockade"] = self.howe_blockade
        return body


@dataclass(frozen=True)
class SpecialResult:
    """The state after a Special Activity and a line per step naming its rule."""

    state: CoinState
    log: tuple[str, ...]


# ---------------------------------------------------------------------- which ones


def available_special_activities(state: CoinState, faction: str) -> list[str]:
    """The Special Activities ``faction`` may choose from now (4.2-4.5), sorted.

    >>> available_special_activities(CoinState.new("lod"), "indians")
    ['plunder', 'trade', 'war_path']
    """
    faction = _faction(state, faction)
    if faction == "french" and not state.flag("toa_played"):
        return list(FRENCH_BEFORE_TOA)
    return sorted(SPECIAL_ACTIVITIES[faction])


def _faction(state: CoinState, faction: str) -> str:
    found = state.rules.data.faction(faction, path="faction").id
    if found not in SPECIAL_ACTIVITIES:
        raise InputError(
            f"no Special Activities for {faction!r}", path="faction", allowed=SPECIAL_ACTIVITIES
        )
    return found


def _command_places(command: Command, how: str) -> set[str]:
    places: set[str] = set()
    if "spaces" in how:
        places |= set(command.spaces)
    if "origins" in how:
        places |= {m[0] for m in command.moves}
    if "destinations" in how:
        places |= {m[1] for m in command.moves}
    return places


def _pairing(state: CoinState, faction: str, name: str, command: Command | None) -> Refusal | None:
    """4.1, 4.1.1, 2.3.5 and the French timing (4.5) for a Special Activity."""
    if name not in SPECIAL_ACTIVITIES[faction]:
        return Refusal(f"the {faction} have no {name} Special Activity", "4.1")
    if name not in available_special_activities(state, faction):
        return Refusal(f"the French may not {name} before the Treaty of Alliance", "4.5")
    if command is None:
        return None
    if command.faction != faction:
        return Refusal("a Special Activity accompanies its own Faction's Command", "4.1")
    if not (command.spaces or command.moves or command.amount or command.displace):
        return Refusal("a Special Activity accompanies a Command executed in a space", "4.1")
    if command.limited and not command.free:
        return Refusal("a Limited Command has no Special Activity", "2.3.5")
    only = ONLY_WITH.get((faction, name))
    if only is not None and command.name not in only:
        return Refusal(f"{name} accompanies only {' or '.join(only)}", "4.1.1")
    if command.name in NOT_WITH.get((faction, name), ()):
        return Refusal(f"{name} may not accompany {command.name}", "4.1.1")
    return None


def _space_pairing(faction: str, name: str, command: Command | None, space: str) -> Refusal | None:
    """4.1.1: where the Special Activity may take place relative to its Command."""
    if command is None:
        return None
    for command_name, how in NOT_IN.get((faction, name), {}).items():
        if command.name == command_name and space in _command_places(command, how):
            where = "destination" if how == "destinations" else "space"
            return Refusal(f"no {name} in a {command_name} {where} ({space})", "4.1.1")
    only = ONLY_IN.get((faction, name))
    if only is not None:
        how = only.get(command.name, "")
        if space not in _command_places(command, how):
            return Refusal(f"{name} only in a {command.name} space ({space} is not)", "4.1.1")
    return None


# ---------------------------------------------------------------------- pieces


def _kind(kind: str) -> tuple[str, str | None]:
    piece, _, status = kind.partition(":")
    return piece, status or None


def _have(state: CoinState, space: str, kind: str) -> int:
    piece, status = _kind(kind)
    return state.pieces(space, piece, status)


def _remove(state: CoinState, space: str, kind: str, n: int, rule: str, log: list[str]) -> None:
    """Remove ``n`` pieces: cubes to Casualties, Forts to Available counted as
    Casualties, others to Available (1.6.4)."""
    piece, status = _kind(kind)
    state.take(space, piece, n, status)
    where, track = add_losses(state, piece, n)
    if track is not None:
        log.append(f"{rule}: {n} {kind} removed from {space} to {where} ({track.upper()} +{n})")
    else:
        log.append(f"{rule}: {n} {kind} removed from {space} to {where}")


def _picks(state: CoinState, space: str, kinds: Sequence[str], k: int) -> list[Removal]:
    """The ways to pick exactly ``k`` pieces of ``kinds`` in ``space``, as sorted removals."""
    found: list[Removal] = []
    for chosen in combinations_with_replacement(sorted(kinds), k):
        counts = {kind: chosen.count(kind) for kind in set(chosen)}
        if all(_have(state, space, kind) >= n for kind, n in counts.items()):
            found.append(tuple(sorted((space, kind, n) for kind, n in counts.items())))
    return found


def _locations(state: CoinState, west_indies: bool) -> list[str]:
    places = list(state.rules.spaces)
    return [*places, WEST_INDIES] if west_indies else places


def _resources(state: CoinState, track: str, delta: int) -> tuple[int, int]:
    before = state.track(track)
    data = state.rules.data.track(track)
    state.set_track(track, max(data.lo, min(data.hi, before + delta)))
    return before, state.track(track)


# ---------------------------------------------------------------------- views


class _Product(MoveView[SpecialActivity]):
    """Common Cause: per Command space, how many Underground and Active War Parties
    are used (a mixed radix), at least one in all; counted as a product."""

    def __init__(
        self,
        state: CoinState,
        command: Command | None,
        spaces: Sequence[str],
        refuse: Callable[[object], Refusal | None],
        howe: Sequence[str] = ("",),
    ) -> None:
        self.command = command
        self.howe = list(howe)
        self.slots = [
            (space, kind, _have(state, space, kind))
            for space in sorted(spaces)
            for kind in ("war_party:active", "war_party:underground")
        ]
        self._refuse = refuse

    def count(self) -> int:
        return (prod(n + 1 for _, _, n in self.slots) - 1) * len(self.howe)

    def nth(self, index: int) -> SpecialActivity:
        if not 0 <= index < self.count():
            raise IndexError(index)
        index, at = divmod(index, len(self.howe))
        index += 1  # skip "none used anywhere"
        used = []
        for space, kind, n in reversed(self.slots):
            index, k = divmod(index, n + 1)
            if k:
                used.append((space, kind, k))
        used.sort()
        spaces = tuple(sorted({u[0] for u in used}))
        return SpecialActivity("british", "common_cause", self.command, spaces,
                               used=tuple(used), howe_blockade=self.howe[at])  # fmt: skip

    def __iter__(self) -> Iterator[SpecialActivity]:
        return (self.nth(i) for i in range(self.count()))

    def refusal(self, move: object) -> Refusal | None:
        return self._refuse(move)


def special_view(
    state: CoinState, faction: str, name: str, command: Command | None = None
) -> MoveView[SpecialActivity]:
    """The legal moves of one Special Activity accompanying ``command`` (``None``:
    free by an Event); empty when it may not be executed; :func:`special_refusal`
    on any move says why.

    >>> state = CoinState.new("lod")  # no French Regular is Unavailable here
    >>> [m.option for m in special_view(state, "french", "preparer")]
    ['squadron', 'resources']
    """
    faction = _faction(state, faction)

    def refuse(move: object) -> Refusal | None:
        refused = special_refusal(state, move)
        ours = isinstance(move, SpecialActivity) and (move.faction, move.name, move.command) == (
            faction,
            name,
            command,
        )
        if refused is None and not ours:
            return Refusal(f"not a {name} of the {faction} with this Command", "4.1")
        return refused

    if name not in SPECIAL_ACTIVITIES[faction]:
        raise InputError(f"no {name!r} Special Activity for the {faction}", path="name",
                         allowed=SPECIAL_ACTIVITIES[faction])  # fmt: skip
    if _pairing(state, faction, name, command) is not None:
        return ListView([], refuse)
    howe = howe_cities(state, faction) or [""]  # a choice of its own when Howe acts
    if (faction, name) == ("british", "common_cause"):
        spaces = [s for s in state.rules.spaces if _common_cause_refusal_space(state, command, s)
                  is None]  # fmt: skip
        return _Product(state, command, spaces, refuse, howe)
    found = [
        replace(m, howe_blockade=city)
        for city in howe
        for m in _MOVES[(faction, name)](after_howe(state, faction, city), faction, name, command)
    ]
    return SiftedListView(found, lambda m: special_refusal(state, m) is None, refuse)


# ---------------------------------------------------------------------- refusal and apply


def special_refusal(state: CoinState, move: object) -> Refusal | None:
    """``None`` if ``move`` is a legal Special Activity now, else why not and the rule.

    >>> state = CoinState.new("lod")
    >>> limited = Command("patriots", "rally", ("Boston",), limited=True)
    >>> special_refusal(state, SpecialActivity("patriots", "persuasion", limited)).rule
    '2.3.5'
    """
    if not isinstance(move, SpecialActivity):
        return Refusal("not a Special Activity", "4.1")
    if move.faction not in SPECIAL_ACTIVITIES:
        return Refusal(f"no Special Activities for {move.faction!r}", "4.1")
    refused = _pairing(state, move.faction, move.name, move.command)
    if refused is not None:
        return refused
    if len(set(move.spaces)) != len(move.spaces) or tuple(sorted(move.spaces)) != move.spaces:
        return Refusal("each space once, in sorted order", "4.1")
    for space in move.spaces:
        if space != WEST_INDIES and space not in state.rules.spaces:
            return Refusal(f"{space!r} is not a space", "4.1")
        refused = _space_pairing(move.faction, move.name, move.command, space)
        if refused is not None:
            return refused
    refused = howe_refusal(state, move)
    if refused is not None:
        return refused
    return _REFUSE[(move.faction, move.name)](after_howe(state, move.faction, move.howe_blockade),
                                              move)  # fmt: skip


def howe_lowers_fni(state: CoinState, faction: str) -> bool:
    """Leader capabilities: with Howe on the map, FNI drops a level before any
    British Special Activity (while it is above 0)."""
    howe = state.leader("Howe")
    on_map = howe is not None and state.rules.map.has_space(howe)
    return faction == "british" and on_map and state.track("fni") > 0


def howe_cities(state: CoinState, faction: str) -> list[str]:
    """The Blockaded Cities one of which loses its Blockade as Howe lowers FNI
    (1.9: each level lowered sends a Blockade to the West Indies); [] when he does
    not, or no City is Blockaded."""
    if not howe_lowers_fni(state, faction):
        return []
    return [c for c in state.rules.map.of_type("City") if state.markers(c, "blockade")]


def after_howe(state: CoinState, faction: str, city: str) -> CoinState:
    """The board a British Special Activity is judged on: after Howe lowers FNI and
    sends ``city``'s Blockade to the West Indies (1.9), else ``state`` itself.

    >>> state = CoinState.new("lod")
    >>> after_howe(state, "british", "") is state
    True
    """
    if not howe_lowers_fni(state, faction):
        return state
    judged = state.copy()
    judged.set_track("fni", judged.track("fni") - 1)
    if city:
        judged.move_marker(city, WEST_INDIES, "blockade", 1)
    return judged


def howe_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    """``None`` when ``howe_blockade`` names a City :func:`howe_cities` offers, or
    is empty when it offers none."""
    cities = howe_cities(state, move.faction)
    if not cities and move.howe_blockade:
        return Refusal("Howe removes no Blockade here", "1.9")
    if cities and move.howe_blockade not in cities:
        return Refusal(f"name the Blockaded City that loses its Blockade as Howe lowers FNI: "
                       f"one of {cities}", "1.9")  # fmt: skip
    return None


def apply_special(
    state: CoinState, move: SpecialActivity, rng: DieSource | None = None
) -> SpecialResult:
    """The state after ``move`` (the accompanying Command is not executed here);
    ``rng`` rolls the die of British Naval Pressure (4.2.3). An illegal move raises
    :class:`IllegalMoveError`.

    >>> state = CoinState.new("lod")
    >>> after = apply_special(state, SpecialActivity("french", "preparer", None,
    ...                       option="resources")).state
    >>> after.track("french_resources")
    2
    """
    refused = special_refusal(state, move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    return carry_out_special(state, move, rng)


def carry_out_special(
    state: CoinState, move: SpecialActivity, rng: DieSource | None = None
) -> SpecialResult:
    """The state after ``move``, which the caller has just found legal on ``state``
    with :func:`special_refusal` (nothing is checked again: :func:`apply_special`
    checks, then carries out).

    >>> state = CoinState.new("lod")
    >>> move = SpecialActivity("french", "preparer", None, option="resources")
    >>> special_refusal(state, move) is None
    True
    >>> carry_out_special(state, move).state.track("french_resources")
    2
    """
    new = state.copy()
    log: list[str] = []
    if howe_lowers_fni(state, move.faction):
        new.set_track("fni", new.track("fni") - 1)
        log.append("Howe: FNI lowered one level before the Special Activity")
        if move.howe_blockade:
            new.move_marker(move.howe_blockade, WEST_INDIES, "blockade", 1)
            log.append(f"1.9: the Blockade of {move.howe_blockade} to the West Indies")
    _CARRY_OUT[(move.faction, move.name)](new, move, log, rng)
    return SpecialResult(new, tuple(log))


# ---------------------------------------------------------------------- 4.1 "during"

# Commands carried out space by space, so that a Special Activity may come between
# two of their spaces: the Raid (8.7.1 Plunders "before completing the Raid").
IN_PARTS = frozenset({("indians", "raid")})


def command_parts(command: Command, before: Sequence[str]) -> tuple[Command, Command]:
    """``command`` split into the spaces carried out ``before`` a Special Activity
    and the rest, each with the moves (and the Leaders following them) into its spaces.

    >>> raid = Command("indians", "raid", ("Georgia", "Virginia"),
    ...                moves=(("North Carolina", "Virginia", "war_party:underground", 1),))
    >>> first, rest = command_parts(raid, ["Georgia"])
    >>> first.spaces, first.moves, rest.spaces, len(rest.moves)
    (('Georgia',), (), ('Virginia',), 1)
    """
    head = tuple(s for s in command.spaces if s in before)
    tail = tuple(s for s in command.spaces if s not in before)

    def part(spaces: tuple[str, ...]) -> Command:
        moves = tuple(m for m in command.moves if m[1] in spaces)
        leaders = tuple(f for f in command.leaders if f[1] in spaces)
        return replace(command, spaces=spaces, moves=moves, leaders=leaders)

    return part(head), part(tail)


def during_refusal(
    state: CoinState,
    command: Command,
    before: Sequence[str],
    special: SpecialActivity,
    options: CommandOptions | None = None,
) -> Refusal | None:
    """``None`` when ``special`` may come between the ``before`` spaces of
    ``command`` and its others (4.1: "before, during, or after"), as far as can be
    told before it starts: the Command carried out space by space, the split a
    proper one, the Command legal but for its cost (the Special Activity may pay for
    the rest), its first part legal with its cost, and the Special Activity
    accompanying it. When reached, the Special Activity is checked in full and the
    rest for its cost and moving pieces (:func:`special_during`)."""
    if (command.faction, command.name) not in IN_PARTS:
        return Refusal(f"a {command.name} is carried out whole, not around a Special "
                       "Activity", "4.1")  # fmt: skip
    first, rest = command_parts(command, before)
    if not first.spaces or not rest.spaces or set(before) - set(command.spaces):
        return Refusal("the spaces before the Special Activity are some of the Command's, "
                       "not all", "4.1")  # fmt: skip
    planned = replace(command, leaders=())  # Leaders following units pair with nothing
    if special.command is None or replace(special.command, leaders=()) != planned:
        return Refusal("the Special Activity accompanies this Command", "4.1")
    if special.faction != command.faction:
        return Refusal("the Special Activity accompanies this Command", "4.1")
    rich = state.copy()
    track = RESOURCES[command.faction]
    rich.set_track(track, rich.rules.data.track(track).hi)
    return command_refusal(rich, command, options=options) or command_refusal(
        state, first, options=options
    )


def special_during(
    state: CoinState,
    command: Command,
    before: Sequence[str],
    special: SpecialActivity,
    rng: DieSource | None = None,
    options: CommandOptions | None = None,
) -> tuple[CommandResult, SpecialResult, CommandResult]:
    """Carry out ``command``'s ``before`` spaces, then ``special``, then the rest
    of ``command`` (each refused part raises :class:`IllegalMoveError`).

    >>> state = CoinState.new("lod")
    >>> state.set_track("indians_resources", 1)
    >>> for space in ("Georgia", "South Carolina"):
    ...     state.set_support(space, "active_opposition")
    ...     state.move_pieces("Available", space, "war_party", 2, new_status="underground")
    >>> raid = Command("indians", "raid", ("Georgia", "South Carolina"))
    >>> state.set_track("patriots_resources", 3)
    >>> plunder = SpecialActivity("indians", "plunder", raid, ("Georgia",),
    ...                           removed=(("Georgia", "war_party:active", 1),))
    >>> first, _, rest = special_during(state, raid, ["Georgia"], plunder)
    >>> rest.state.track("indians_resources"), rest.state.track("patriots_resources")
    (0, 2)
    """
    refused = during_refusal(state, command, before, special, options)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    first, rest = command_parts(command, before)
    done = apply_command(state, first, options=options)
    mid = apply_special(done.state, special, rng)
    return done, mid, continue_command(mid.state, rest, options=options)


def _only(move: SpecialActivity, *fields: str) -> Refusal | None:
    """Refuse a move that fills fields its Special Activity does not use."""
    used = {
        "spaces": bool(move.spaces),
        "option": bool(move.option),
        "removed": bool(move.removed),
        "used": bool(move.used),
        "amount": bool(move.amount),
        "layout": bool(move.layout),
    }
    extra = [name for name, filled in used.items() if filled and name not in fields]
    if extra:
        return Refusal(f"{move.name} has no {', '.join(extra)}", RULE[(move.faction, move.name)])
    return None


# ---------------------------------------------------------------------- 4.2.1 Common Cause


def _common_cause_refusal_space(
    state: CoinState, command: Command | None, space: str
) -> Refusal | None:
    if not state.pieces(space, "war_party") or not state.faction_pieces(space, "british"):
        return Refusal(f"{space}: needs British pieces and War Parties", "4.2.1")
    return _space_pairing("british", "common_cause", command, space)


def _common_cause_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "spaces", "used")
    if refused is not None:
        return refused
    if not move.used:
        return Refusal("use one or more War Parties", "4.2.1")
    if tuple(sorted(move.used)) != move.used or len({u[:2] for u in move.used}) != len(move.used):
        return Refusal("one sorted entry per space and status", "4.1")
    if tuple(sorted({u[0] for u in move.used})) != move.spaces:
        return Refusal("the spaces are those where War Parties are used", "4.2.1")
    board = state.rules.map
    if move.command is not None:
        for origin, destination, kind, _ in move.command.moves:
            ends = (origin, destination)
            if kind.startswith("war_party") and any(
                board.has_space(e) and board.is_city(e) for e in ends
            ):
                return Refusal("War Parties never move into or between Cities", "4.2.1")
    if move.command is not None and move.command.name == "march":
        moved = sum(n for *_, kind, n in move.command.moves if kind.startswith("war_party"))
        if moved > sum(n for *_, n in move.used):
            return Refusal(f"the March moves {moved} War Parties: Common Cause uses each", "4.2.1")
    for space, kind, n in move.used:
        refused = _common_cause_refusal_space(state, move.command, space)
        if refused is not None:
            return refused
        if kind not in ("war_party:active", "war_party:underground") or n < 1:
            return Refusal("War Parties, Active or Underground", "4.2.1")
        if _have(state, space, kind) < n:
            return Refusal(f"{space} has too few {kind}", "4.2.1")
    return None


def _common_cause(
    state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None
) -> None:
    for space, kind, n in move.used:
        if kind == "war_party:underground":
            state.flip(space, "war_party", n, "underground", "active")
        log.append(f"4.2.1: {n} {kind} in {space} used as Tories and Activated")


# ---------------------------------------------------------------------- strikes


@dataclass(frozen=True)
class _Strike:
    """A three-choice strike (Skirmish, Partisans, War Path): who strikes, whom."""

    rule: str
    where: Callable[[CoinState, str], bool]  # the space qualifies
    west_indies: bool
    options: Callable[[CoinState, str], list[tuple[str, Removal]]]


def _one_two_fort(
    targets: Sequence[str], own: str, fort: str
) -> Callable[[CoinState, str], list[tuple[str, Removal]]]:
    """Skirmish: one target; two targets and one own piece; with no target, a Fort
    and one own piece (4.2.2, 4.3.3, 4.5.2)."""

    def options(state: CoinState, space: str) -> list[tuple[str, Removal]]:
        found = [("one", r) for r in _picks(state, space, targets, 1)]
        if _have(state, space, own):
            found += [("two", r) for r in _picks(state, space, targets, 2)]
            if not any(_have(state, space, t) for t in targets) and state.pieces(space, fort):
                found.append(("fort", ((space, fort, 1),)))
        return found

    return options


def _partisans_options(state: CoinState, space: str) -> list[tuple[str, Removal]]:
    """4.3.2: one Militia Activated and a Royalist unit; two Activated, one of them
    removed, and two Royalist units; with no War Parties, that and a Village."""
    underground = state.pieces(space, "militia", "underground")
    found = [("one", r) for r in _picks(state, space, ROYALIST_UNITS, 1)] if underground else []
    if underground >= 2:
        found += [("two", r) for r in _picks(state, space, ROYALIST_UNITS, 2)]
        if not state.pieces(space, "war_party") and state.pieces(space, "village"):
            found.append(("village", ((space, "village", 1),)))
    return found


def _war_path_options(state: CoinState, space: str) -> list[tuple[str, Removal]]:
    """4.4.2: the same with War Parties; the third takes a Patriot Fort when no
    Rebellion unit is there."""
    underground = state.pieces(space, "war_party", "underground")
    found = [("one", r) for r in _picks(state, space, REBELLION_UNITS, 1)] if underground else []
    if underground >= 2:
        found += [("two", r) for r in _picks(state, space, REBELLION_UNITS, 2)]
        no_units = not any(_have(state, space, u) for u in REBELLION_UNITS)
        if no_units and state.pieces(space, "patriot_fort"):
            found.append(("fort", ((space, "patriot_fort", 1),)))
    return found


def _rebellion(state: CoinState, space: str) -> int:
    return state.faction_pieces(space, "patriots") + state.faction_pieces(space, "french")


def _royalist(state: CoinState, space: str) -> int:
    return state.faction_pieces(space, "british") + state.faction_pieces(space, "indians")


_STRIKES: dict[tuple[str, str], _Strike] = {
    ("british", "skirmish"): _Strike(
        "4.2.2",
        lambda s, p: bool(s.pieces(p, "british_regular") and _rebellion(s, p)),
        True,
        _one_two_fort((*REBELLION_CUBES, "militia:active"), "british_regular", "patriot_fort"),
    ),
    ("patriots", "skirmish"): _Strike(
        "4.3.3",
        lambda s, p: bool(s.pieces(p, "continental") and s.faction_pieces(p, "british")),
        False,
        _one_two_fort(BRITISH_CUBES, "continental", "british_fort"),
    ),
    ("french", "skirmish"): _Strike(
        "4.5.2",
        lambda s, p: bool(s.pieces(p, "french_regular") and s.faction_pieces(p, "british")),
        True,
        _one_two_fort(BRITISH_CUBES, "french_regular", "british_fort"),
    ),
    ("patriots", "partisans"): _Strike(
        "4.3.2",
        lambda s, p: bool(s.pieces(p, "militia", "underground") and _royalist(s, p)),
        False,
        _partisans_options,
    ),
    ("indians", "war_path"): _Strike(
        "4.4.2",
        lambda s, p: bool(s.pieces(p, "war_party", "underground") and _rebellion(s, p)),
        False,
        _war_path_options,
    ),
}
_OWN_LOSS = {  # the striker's own piece removed by the "two" and third options
    ("british", "skirmish"): "british_regular",
    ("patriots", "skirmish"): "continental",
    ("french", "skirmish"): "french_regular",
}


# Leader capabilities: Clinton's Skirmish and Brant's War Path each remove one more
# Militia in the Leader's space.
_EXTRA_MILITIA = {("british", "skirmish"): "Clinton", ("indians", "war_path"): "Brant"}


def _strike_options(
    state: CoinState, key: tuple[str, str], space: str
) -> list[tuple[str, Removal]]:
    """The strike's choices in ``space``; where its Faction's Leader adds a Militia
    removed, each choice takes one more Militia too (of the status named), if any is
    left there."""
    options = _STRIKES[key].options(state, space)
    leader = _EXTRA_MILITIA.get(key)
    if leader is None or state.leader(leader) != space:
        return options
    out: list[tuple[str, Removal]] = []
    for option, removed in options:
        extras = []
        for status in ("active", "underground"):
            kind = f"militia:{status}"
            gone = sum(n for where, k, n in removed if where == space and k == kind)
            if state.pieces(space, "militia", status) > gone:
                extras.append(kind)
        if not extras:
            out.append((option, removed))
        for kind in extras:
            merged = dict(((where, k), n) for where, k, n in removed)
            merged[(space, kind)] = merged.get((space, kind), 0) + 1
            out.append((option, tuple(sorted((w, k, n) for (w, k), n in merged.items()))))
    return out


def _strike_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    strike = _STRIKES[(faction, name)]
    return [
        SpecialActivity(faction, name, command, (space,), option, removed)
        for space in _locations(state, strike.west_indies)
        if strike.where(state, space)
        for option, removed in _strike_options(state, (faction, name), space)
    ]


def _strike_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    strike = _STRIKES[(move.faction, move.name)]
    refused = _only(move, "spaces", "option", "removed")
    if refused is not None:
        return refused
    if len(move.spaces) != 1:
        return Refusal("one space", strike.rule)
    (space,) = move.spaces
    if space == WEST_INDIES and not strike.west_indies:
        return Refusal("not in the West Indies", strike.rule)
    if not strike.where(state, space):
        return Refusal(f"{space}: lacks the pieces needed to strike there", strike.rule)
    if (move.option, move.removed) not in _strike_options(state, (move.faction, move.name), space):
        return Refusal(f"{space}: not one of the three choices", strike.rule)
    return None


def _strike(state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None) -> None:
    key = (move.faction, move.name)
    rule = _STRIKES[key].rule
    (space,) = move.spaces
    if key in _OWN_LOSS:
        for where, kind, n in move.removed:
            _remove(state, where, kind, n, rule, log)
        if move.option in ("two", "fort"):
            _remove(state, space, _OWN_LOSS[key], 1, rule, log)
        return
    piece = "militia" if move.faction == "patriots" else "war_party"
    activated = 1 if move.option == "one" else 2
    state.flip(space, piece, activated, "underground", "active")
    log.append(f"{rule}: {activated} Underground {piece} Activated in {space}")
    if activated == 2:
        _remove(state, space, f"{piece}:active", 1, rule, log)
    for where, kind, n in move.removed:
        _remove(state, where, kind, n, rule, log)


# ------------------------------------------------------------ 4.2.3 / 4.5.3 Naval Pressure


def _blockaded(state: CoinState) -> list[str]:
    return [c for c in state.rules.map.of_type("City") if state.markers(c, "blockade")]


def _british_naval_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    if state.flag("toa_played") and state.track("fni") > 0:
        cities = _blockaded(state)
        if cities:
            return [SpecialActivity(faction, name, command, (c,), "fni") for c in cities]
        return [SpecialActivity(faction, name, command, (), "fni")]
    return [SpecialActivity(faction, name, command, (), "resources")]


def _british_naval_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "spaces", "option")
    if refused is not None:
        return refused
    lowering = state.flag("toa_played") and state.track("fni") > 0
    if move.option != ("fni" if lowering else "resources"):
        why = "FNI is above 0: lower it" if lowering else "before ToA or at FNI 0: add 1D3"
        return Refusal(why, "4.2.3")
    cities = _blockaded(state)
    if move.option == "resources" and move.spaces:
        return Refusal("adding Resources selects no space", "4.2.3")
    if move.option == "fni" and (
        (len(move.spaces) != 1 or move.spaces[0] not in cities) if cities else move.spaces
    ):
        return Refusal("name the one Blockaded City whose Blockade goes", "4.2.3")
    return None


def _british_naval(
    state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None
) -> None:
    if move.option == "resources":
        if rng is None:
            raise InputError("British Naval Pressure rolls 1D3: pass a random source", path="rng")
        roll = rng.randrange(3) + 1
        before, after = _resources(state, "british_resources", roll)
        log.append(f"4.2.3: 1D3 rolled {roll}; British Resources {before} -> {after}")
        return
    state.set_track("fni", state.track("fni") - 1)
    log.append(f"4.2.3: FNI lowered to {state.track('fni')}")
    for city in move.spaces:
        state.move_marker(city, WEST_INDIES, "blockade")
        log.append(f"4.2.3: the Blockade on {city} goes to the West Indies as a Squadron")


def _french_naval_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    cities = state.rules.map.of_type("City")
    if state.markers(WEST_INDIES, "blockade"):
        return [SpecialActivity(faction, name, command, (c,), "place") for c in sorted(cities)]
    total = sum(state.markers(c, "blockade") for c in cities)
    if not total:
        return []
    return [
        SpecialActivity(faction, name, command, option="rearrange", layout=layout)
        for layout in blockade_layouts(cities, total)
    ]


def blockade_layouts(cities: Sequence[str], total: int) -> list[tuple[tuple[str, int], ...]]:
    """Every way to put ``total`` Blockades on ``cities`` (several on one City
    allowed), each as sorted (City, number) entries.

    >>> blockade_layouts(["Boston", "Norfolk"], 2)
    [(('Boston', 2),), (('Boston', 1), ('Norfolk', 1)), (('Norfolk', 2),)]
    """
    found = []
    for chosen in combinations_with_replacement(sorted(cities), total):
        found.append(tuple(sorted((c, chosen.count(c)) for c in set(chosen))))
    return found


def layout_refusal(
    layout: tuple[tuple[str, int], ...], cities: Sequence[str], total: int, rule: str
) -> Refusal | None:
    """``None`` if ``layout`` puts exactly ``total`` Blockades on ``cities``, one
    sorted entry per City, else why not."""
    if (
        tuple(sorted(layout)) != layout
        or len({c for c, _ in layout}) != len(layout)
        or any(c not in cities or n < 1 for c, n in layout)
        or sum(n for _, n in layout) != total
    ):
        return Refusal(f"place all {total} Blockade(s) on Cities, one sorted entry each", rule)
    return None


def _french_naval_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "spaces", "option", "layout")
    if refused is not None:
        return refused
    cities = set(state.rules.map.of_type("City"))
    if state.markers(WEST_INDIES, "blockade"):
        if move.option != "place" or len(move.spaces) != 1 or move.spaces[0] not in cities:
            return Refusal("a Squadron in the West Indies goes onto one City", "4.5.3")
        return None
    on_cities = sum(state.markers(c, "blockade") for c in cities)
    if not on_cities:
        return Refusal("no Squadron in the West Indies and no Blockade on a City", "4.5.3")
    if move.option != "rearrange" or move.spaces:
        return Refusal("no Squadron in the West Indies: rearrange the Blockades", "4.5.3")
    return layout_refusal(move.layout, sorted(cities), on_cities, "4.5.3")


def _french_naval(
    state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None
) -> None:
    cap = markers_out_of(state, "blockade", [UNAVAILABLE])
    if state.track("fni") < cap:
        state.set_track("fni", state.track("fni") + 1)
        log.append(f"4.5.3: FNI raised to {state.track('fni')}")
    else:
        log.append(f"4.5.3: FNI stays {state.track('fni')}: no more Squadrons/Blockades")
    if move.option == "place":
        state.move_marker(WEST_INDIES, move.spaces[0], "blockade")
        log.append(f"4.5.3: a Squadron from the West Indies Blockades {move.spaces[0]}")
        return
    for city in _blockaded(state):
        state.take_marker(city, "blockade", state.markers(city, "blockade"))
    for city, n in move.layout:
        state.add_marker(city, "blockade", n)
        log.append(f"4.5.3: {n} Blockade(s) on {city}")


# ---------------------------------------------------------------------- 4.3.1 Persuasion


def _persuasion_spaces(state: CoinState) -> list[str]:
    board = state.rules.map
    return [
        s
        for s in state.rules.spaces
        if (board.is_city(s) or board.is_colony(s))
        and state.control(s) == "rebellion"
        and state.pieces(s, "militia", "underground")
    ]


def _persuasion_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    candidates = sorted(_persuasion_spaces(state))
    return [
        SpecialActivity(faction, name, command, chosen)
        for k in range(1, PERSUASION_MOST + 1)
        for chosen in combinations(candidates, k)
    ]


def _persuasion_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "spaces")
    if refused is not None:
        return refused
    if not 1 <= len(move.spaces) <= PERSUASION_MOST:
        return Refusal("one to three Colonies or Cities", "4.3.1")
    eligible = set(_persuasion_spaces(state))
    for space in move.spaces:
        if space not in eligible:
            return Refusal(f"{space}: a Colony or City with Rebellion Control and an "
                           "Underground Militia", "4.3.1")  # fmt: skip
    return None


def _persuasion(
    state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None
) -> None:
    pool = state.rules.data.pool(state.rules.data.marker("propaganda").pool).count
    for space in move.spaces:
        state.flip(space, "militia", 1, "underground", "active")
        before, after = _resources(state, "patriots_resources", 1)
        log.append(f"4.3.1: a Militia Activated in {space}; Patriot Resources {before} -> {after}")
        on_map = sum(state.markers(s, "propaganda") for s in state.rules.spaces)
        if on_map < pool:
            state.add_marker(space, "propaganda")
            log.append(f"4.3.1: a Propaganda marker in {space}")
        else:
            log.append("4.3.1: every Propaganda marker is on the map: none placed")


# ---------------------------------------------------------------------- 4.4.1 Trade


def _trade_spaces(state: CoinState) -> list[str]:
    board = state.rules.map
    return [
        s
        for s in state.rules.spaces
        if board.is_province(s)
        and state.pieces(s, "war_party", "underground")
        and state.pieces(s, "village")
    ]


def _trade_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    return [
        SpecialActivity(faction, name, command, (space,), amount=a)
        for space in _trade_spaces(state)
        for a in range(state.track("british_resources") + 1)
    ]


def _trade_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "spaces", "amount")
    if refused is not None:
        return refused
    if len(move.spaces) != 1 or move.spaces[0] not in _trade_spaces(state):
        return Refusal("one Province with an Underground War Party and a Village", "4.4.1")
    if not 0 <= move.amount <= state.track("british_resources"):
        return Refusal(f"the British give 0 to {state.track('british_resources')}", "4.4.1")
    return None


def _trade(state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None) -> None:
    (space,) = move.spaces
    state.flip(space, "war_party", 1, "underground", "active")
    log.append(f"4.4.1: an Underground War Party Activated in {space}")
    if move.amount:
        state.set_track("british_resources", state.track("british_resources") - move.amount)
        before, after = _resources(state, "indians_resources", move.amount)
        log.append(f"4.4.1: the British give {move.amount}; Indian Resources {before} -> {after}")
    else:
        before, after = _resources(state, "indians_resources", 1)
        log.append(f"4.4.1: the British give nothing; Indian Resources {before} -> {after}")


# ---------------------------------------------------------------------- 4.4.3 Plunder


def _plunder_spaces(state: CoinState) -> list[str]:
    board = state.rules.map
    return [
        s
        for s in state.rules.spaces
        if board.is_province(s) and state.pieces(s, "war_party") > _rebellion(state, s)
    ]


def _plunder_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    return [
        SpecialActivity(faction, name, command, (space,), removed=((space, kind, 1),))
        for space in _plunder_spaces(state)
        for kind in ("war_party:active", "war_party:underground")
        if _have(state, space, kind)
    ]


def _plunder_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "spaces", "removed")
    if refused is not None:
        return refused
    if len(move.spaces) != 1 or move.spaces[0] not in _plunder_spaces(state):
        return Refusal("one Province where War Parties exceed Rebellion pieces", "4.4.3")
    (space,) = move.spaces
    kinds = ("war_party:active", "war_party:underground")
    if (
        len(move.removed) != 1
        or move.removed[0][0] != space
        or move.removed[0][1] not in kinds
        or move.removed[0][2] != 1
        or not _have(state, space, move.removed[0][1])
    ):
        return Refusal("remove one War Party there (name its status)", "4.4.3")
    return None


def _plunder(
    state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None
) -> None:
    (space,) = move.spaces
    taken = min(state.rules.map.population(space), state.track("patriots_resources"))
    state.set_track("patriots_resources", state.track("patriots_resources") - taken)
    before, after = _resources(state, "indians_resources", taken)
    log.append(f"4.4.3: {taken} Resource(s) from the Patriots; Indian Resources "
               f"{before} -> {after}")  # fmt: skip
    for where, kind, n in move.removed:
        _remove(state, where, kind, n, "4.4.3", log)


# ---------------------------------------------------------------------- 4.5.1 Préparer la Guerre


def _preparer_moves(
    state: CoinState, faction: str, name: str, command: Command | None
) -> list[SpecialActivity]:
    return [SpecialActivity(faction, name, command, option=o)
            for o in ("squadron", "regulars", "resources")]  # fmt: skip


def _preparer_refusal(state: CoinState, move: SpecialActivity) -> Refusal | None:
    refused = _only(move, "option")
    if refused is not None:
        return refused
    if move.option == "squadron" and not state.markers(UNAVAILABLE, "blockade"):
        return Refusal("no Squadron/Blockade is Unavailable", "4.5.1")
    if move.option == "regulars" and not state.pieces(UNAVAILABLE, "french_regular"):
        return Refusal("no French Regular is Unavailable", "4.5.1")
    if move.option not in ("squadron", "regulars", "resources"):
        return Refusal("a Squadron, three Regulars, or two Resources", "4.5.1")
    return None


def _preparer(
    state: CoinState, move: SpecialActivity, log: list[str], rng: DieSource | None
) -> None:
    if move.option == "squadron":
        state.move_marker(UNAVAILABLE, WEST_INDIES, "blockade")
        log.append("4.5.1: a Squadron/Blockade from Unavailable to the West Indies")
    elif move.option == "regulars":
        n = min(PREPARER_REGULARS, state.pieces(UNAVAILABLE, "french_regular"))
        state.move_pieces(UNAVAILABLE, AVAILABLE, "french_regular", n)
        log.append(f"4.5.1: {n} French Regular(s) from Unavailable to Available")
    else:
        before, after = _resources(state, "french_resources", PREPARER_RESOURCES)
        log.append(f"4.5.1: French Resources {before} -> {after}")


# ---------------------------------------------------------------------- tables

_Moves = Callable[[CoinState, str, str, Command | None], list[SpecialActivity]]
_Refuse = Callable[[CoinState, SpecialActivity], Refusal | None]
_Do = Callable[[CoinState, SpecialActivity, list[str], DieSource | None], None]

_MOVES: dict[tuple[str, str], _Moves] = {
    **dict.fromkeys(_STRIKES, _strike_moves),
    ("british", "naval_pressure"): _british_naval_moves,
    ("french", "naval_pressure"): _french_naval_moves,
    ("patriots", "persuasion"): _persuasion_moves,
    ("indians", "trade"): _trade_moves,
    ("indians", "plunder"): _plunder_moves,
    ("french", "preparer"): _preparer_moves,
}
_REFUSE: dict[tuple[str, str], _Refuse] = {
    **dict.fromkeys(_STRIKES, _strike_refusal),
    ("british", "common_cause"): _common_cause_refusal,
    ("british", "naval_pressure"): _british_naval_refusal,
    ("french", "naval_pressure"): _french_naval_refusal,
    ("patriots", "persuasion"): _persuasion_refusal,
    ("indians", "trade"): _trade_refusal,
    ("indians", "plunder"): _plunder_refusal,
    ("french", "preparer"): _preparer_refusal,
}
_CARRY_OUT: dict[tuple[str, str], _Do] = {
    **dict.fromkeys(_STRIKES, _strike),
    ("british", "common_cause"): _common_cause,
    ("british", "naval_pressure"): _british_naval,
    ("french", "naval_pressure"): _french_naval,
    ("patriots", "persuasion"): _persuasion,
    ("indians", "trade"): _trade,
    ("indians", "plunder"): _plunder,
    ("french", "preparer"): _preparer,
}
