"""The Non-player Patriot Command and Special Activity (8.5.1-8.5.4): which
Command the Patriots take, how each box builds its move, the Special Activity
that goes with it, and the free Rally a Rebellion Battle won earns.

The first box is picked by the opening sentences of 8.5.1-8.5.4: Battle where
Rebellion cubes and Leaders outnumber the Active Royalist pieces; else Rally when
it would place a Patriot Fort or a D6 beats the Underground Militia on the map;
else Rabble-Rousing when it could shift a space toward Active Opposition; else
March. Each box either executes or names the box its "IF NONE" (or "unable to
execute") sends the turn to (:data:`PATRIOTS_BOXES`, run by
:func:`~legalis.solver.nonplayer.flowchart.run_boxes`).

Every move is built from the bullets and carried out through the
:class:`~legalis.solver.nonplayer.flowchart.TurnContext`, which checks it with the
model. When a Rally or Rabble-Rousing spends the last Patriot Resource, the
Persuasion the paragraphs call for is executed before the Command it accompanies
(the model checks the pairing from the Command's fields), and the rest of the
Command is built on the state after it.

>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> context = TurnContext(load_scenario("lod", "1775"), "patriots", LoggedRandom(0))
>>> patriots_command(context)
>>> [step.move.name for step in context.steps]
['persuasion', 'rabble_rousing']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Literal

from legalis.model.coin.limits import may_hold, stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import (
    BattleChoice,
    BattleResult,
    FollowUp,
    battle_refusal,
    resolve_battle,
)
from legalis.model.lod.command_base import RESOURCES, Command, CommandOptions, command_refusal
from legalis.model.lod.commands import command_view
from legalis.model.lod.march import march_reach
from legalis.model.lod.special import SpecialActivity, apply_special, special_refusal, special_view
from legalis.solver.nonplayer.board import (
    TrialDice,
    active,
    control_if,
    count,
    cubes,
    on_map,
    rebellion_controls,
    side_pieces,
)
from legalis.solver.nonplayer.flowchart import Box, TurnContext, run_boxes
from legalis.solver.nonplayer.priorities import enemy_order, remove_friendly_order
from legalis.solver.nonplayer.redeploy import nonplayer_blockade_shift
from legalis.solver.nonplayer.sequence import ResourcePurse
from legalis.solver.nonplayer.spaces import Priority, select_spaces
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "PATRIOTS_BOXES",
    "PatriotOptions",
    "battle_box",
    "battle_wanted",
    "first_box",
    "free_rally",
    "march_box",
    "partisans",
    "patriots_boxes",
    "patriots_command",
    "persuasion",
    "rabble_box",
    "rabble_wanted",
    "rally_box",
    "rally_places_fort",
    "skirmish",
]

RALLY_SPACES = 4  # 8.5.2: up to four spaces
FORT_UNITS = 4  # 8.5.2: a Fort where four or more Patriot units are
FORT_REPLACES = 2  # 3.3.1: a Patriot Fort replaces two Patriot units
PERSUASION_SPACES = 3  # 8.5.1 PERSUASION: up to three spaces
CONTROL_DESTINATIONS = 2  # 8.5.4: Rebellion Control added to two spaces
MOST_SHIFTS = 3  # 3.6.8: Win-the-Day shifts
MOST_SHIFTS_WASHINGTON = 6  # 3.6.8: doubled by Washington
REBELLION_LEADERS = ("Washington", "Rochambeau", "Lauzun")
PATRIOT_UNITS = ("continental", "militia")
MARCH_KINDS = ("continental", "french_regular", "militia:active", "militia:underground")
PARTISAN_TARGETS = ("war_party", "british_regular", "tory")  # 4.3.2: Royalist units
SKIRMISH_TARGETS = ("british_regular", "tory")  # 4.3.3: British cubes
STRIKE_LOSS = {"partisans": "militia", "skirmish": "continental"}  # the striker's own loss

Entry = tuple[str, str, int]


@dataclass(frozen=True)
class PatriotOptions:
    """The readings taken where 8.5.1-8.5.4 are unclear (``docs/rules-questions.md``).

    ``battle_activation``: how many Underground Militia the Patriots Activate in a
    Battle they start: ``"best"`` the number giving the largest Rebellion Force
    Level plus modifiers over the Royalist one (the fewest on a tie); ``"none"``.
    ``strike_most``: Partisans and Skirmish remove two enemy pieces (at the cost of
    a Militia or a Continental) wherever they can (8.1.1 "to the maximum extent");
    ``False``: one.
    ``persuade_when_spent``: when the Persuasion of a Rally or Rabble-Rousing
    comes: ``"at_zero"`` as soon as a space paid leaves the Patriots 0 Resources;
    ``"to_continue"`` only when one more space is wanted and cannot be paid.

    >>> PatriotOptions().battle_activation
    'best'
    """

    battle_activation: Literal["best", "none"] = "best"
    strike_most: bool = True
    persuade_when_spent: Literal["at_zero", "to_continue"] = "at_zero"


DEFAULTS = PatriotOptions()


# ---------------------------------------------------------------------- small queries


def _map_spaces(state: CoinState) -> list[str]:
    """The map's spaces, sorted (the Patriots never act in the West Indies)."""
    return sorted(state.rules.spaces)


def _population(state: CoinState, space: str) -> int:
    return state.rules.map.population(space)


def _is_city(state: CoinState, space: str) -> bool:
    return state.rules.map.is_city(space)


def _pieces(state: CoinState, space: str, kind: str) -> int:
    piece, _, status = kind.partition(":")
    return state.pieces(space, piece, status or None)


def _patriot_units(state: CoinState, space: str) -> int:
    return count(state, space, PATRIOT_UNITS)


def _rebellion_leaders(state: CoinState, space: str) -> int:
    return sum(1 for name in REBELLION_LEADERS if state.leader(name) == space)


def _control_gain(state: CoinState, space: str, change: Mapping[str, int]) -> tuple[int, int]:
    """8.5.1 "first to add most Rebellion Control, then to remove most British
    Control": (2, Population) where ``change`` adds Rebellion Control, (1,
    Population) where it ends British Control, else (0, 0)."""
    before, after = state.control(space), control_if(state, space, change)
    if before != "rebellion" and after == "rebellion":
        return 2, _population(state, space)
    if before == "british" and after != "british":
        return 1, _population(state, space)
    return 0, 0


def _sorted_entries(counts: Mapping[tuple[str, str], int]) -> tuple[Entry, ...]:
    return tuple(sorted((space, kind, n) for (space, kind), n in counts.items() if n))


def _resources(state: CoinState, faction: str = "patriots") -> int:
    return state.track(RESOURCES[faction])


# ---------------------------------------------------------------------- which box first


def battle_wanted(state: CoinState) -> bool:
    """8.5.1: a space with Royalist pieces and Rebellion cubes where the Rebellion
    cubes and Leaders outnumber all the Active Royalist pieces.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "continental", 2)
    >>> state.move_pieces("Available", "Virginia", "tory", 2)
    >>> battle_wanted(state)
    False
    >>> state.set_leader("Washington", "Virginia")
    >>> battle_wanted(state)
    True
    """
    for space in _map_spaces(state):
        rebels = cubes(state, space, "rebellion")
        if not rebels or not side_pieces(state, space, "royalist"):
            continue
        if rebels + _rebellion_leaders(state, space) > active(state, space, "royalist"):
            return True
    return False


def _rally_space(state: CoinState, space: str) -> bool:
    """3.3.1: a map space without Active Support."""
    return state.support(space) != "active_support"


def _fort_room(state: CoinState, space: str) -> bool:
    """8.5.2 first bullet: four or more Patriot units, room for a Fort, one
    Available, and a space where the Patriots may Rally."""
    return (
        _patriot_units(state, space) >= FORT_UNITS
        and _rally_space(state, space)
        and stacking_room(state, space) >= 1
        and state.available("patriot_fort") > 0
    )


def rally_places_fort(state: CoinState) -> bool:
    """8.5.2: whether a Rally would place a Patriot Fort (a space of the first
    bullet exists).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 4, new_status="underground")
    >>> rally_places_fort(state)
    True
    """
    return any(_fort_room(state, space) for space in _map_spaces(state))


def _rabble_shifts(state: CoinState) -> set[str]:
    """3.3.4: the spaces where Rabble-Rousing may be used and would shift toward
    Active Opposition (those of the legal one-space Rabble-Rousings, read from one
    view rather than a refusal per space)."""
    legal = command_view(state, "patriots", "rabble_rousing", limited=True, free=True)
    return {move.spaces[0] for move in legal if state.support_value(move.spaces[0]) > -2}


def rabble_wanted(state: CoinState) -> bool:
    """8.5.3: Rabble-Rousing could shift some space toward Active Opposition.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 1, new_status="underground")
    >>> rabble_wanted(state)
    True
    >>> state.set_support("Virginia", "active_opposition")
    >>> rabble_wanted(state)
    False
    """
    return bool(_rabble_shifts(state))


def first_box(context: TurnContext) -> str:
    """The box the Patriot flowchart starts from (the opening sentences of
    8.5.1-8.5.4), traced; the D6 of 8.5.2 is rolled only when Battle is not
    selected and no Fort would be placed.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> state.move_pieces("Available", "Massachusetts", "militia", 3)
    >>> first_box(TurnContext(state, "patriots", LoggedRandom(0)))
    'rally'
    """
    state = context.state
    boxes = ["battle", "rally", "rabble_rousing", "march"]
    if battle_wanted(state):
        context.trace.step("8.5.1", "Rebellion cubes and Leaders outnumber the Active "
                           "Royalist pieces: Battle", boxes, "battle")  # fmt: skip
        return "battle"
    if rally_places_fort(state):
        context.trace.step("8.5.2", "Rally would place a Patriot Fort", boxes, "rally")
        return "rally"
    hidden = on_map(state, "militia", "underground")
    if context.roll(6, "8.5.2", f"Rally if above the {hidden} Underground Militia") > hidden:
        context.trace.step("8.5.2", "D6 above the Underground Militia: Rally", boxes, "rally")
        return "rally"
    if rabble_wanted(state):
        context.trace.step("8.5.3", "Rabble-Rousing can shift a space", boxes, "rabble_rousing")
        return "rabble_rousing"
    context.trace.step("8.5.4", "Rabble-Rousing can shift no space: March", boxes, "march")
    return "march"


# ---------------------------------------------------------------------- Special Activities


def _persuasion_spaces(state: CoinState) -> list[str]:
    """4.3.1: Colonies and Cities with Rebellion Control and Underground Militia."""
    board = state.rules.map
    return [
        s
        for s in _map_spaces(state)
        if (board.is_city(s) or board.is_colony(s))
        and rebellion_controls(state, s)
        and state.pieces(s, "militia", "underground")
    ]


def persuasion(
    state: CoinState, command: Command | None, rng: LoggedRandom, trace: Trace
) -> SpecialActivity | None:
    """8.5.1 PERSUASION: up to three spaces with Rebellion Control and Underground
    Militia, those with Patriot Forts first (ties by 8.2). None when no space
    qualifies (or Persuasion may not go with ``command``).

    >>> state = CoinState.new("lod")
    >>> for space in ("Virginia", "Georgia"):
    ...     state.move_pieces("Available", space, "militia", 1, new_status="underground")
    >>> persuasion(state, None, LoggedRandom(0), Trace()).spaces
    ('Georgia', 'Virginia')
    """
    pool = _persuasion_spaces(state)
    priorities = [
        Priority("Persuasion: a Patriot Fort there",
                 lambda s, x: bool(s.pieces(x, "patriot_fort")), rule="8.5.1"),
        Priority("Persuasion: Rebellion Control, Underground Militia",
                 lambda s, x: True, rule="8.5.1"),
    ]  # fmt: skip
    chosen = select_spaces(state, pool, priorities, PERSUASION_SPACES, rng, trace)
    if not chosen:
        return None
    move = SpecialActivity("patriots", "persuasion", command, tuple(sorted(chosen)))
    return move if special_refusal(state, move) is None else None


def _strike_change(move: SpecialActivity) -> dict[str, int]:
    """The pieces a Partisans or Skirmish takes off the board, as a change for
    :func:`~legalis.solver.nonplayer.board.control_if`."""
    change: Counter[str] = Counter()
    for _, kind, n in move.removed:
        change[kind] -= n
    if move.option != "one":
        change[STRIKE_LOSS[move.name]] -= 1
    return dict(change)


def _removal(space: str, picks: Iterable[tuple[str, str]]) -> tuple[Entry, ...]:
    """8.1.2 picks as the ``removed`` entries of a strike (War Parties by status)."""
    kinds = Counter(f"{piece}:{status}" if piece == "war_party" else piece
                    for piece, status in picks)  # fmt: skip
    return tuple(sorted((space, kind, n) for kind, n in kinds.items()))


def _strikes(
    state: CoinState,
    name: str,
    command: Command | None,
    targets: tuple[str, ...],
    options: PatriotOptions,
) -> dict[str, SpecialActivity]:
    """The Partisans or Skirmish each space would see: the base-removing choice
    (a Village, a British Fort) where there is one, else two enemy units where
    allowed (``strike_most``), else one, picked per 8.1.2."""
    by_space: dict[str, list[SpecialActivity]] = {}
    for move in special_view(state, "patriots", name, command):
        by_space.setdefault(move.spaces[0], []).append(move)
    chosen: dict[str, SpecialActivity] = {}
    for space, moves in sorted(by_space.items()):
        bases = [m for m in moves if m.option in ("village", "fort")]
        if bases:
            chosen[space] = bases[0]
            continue
        option = "two" if options.strike_most and any(m.option == "two" for m in moves) else "one"
        picks = enemy_order(state, space, "patriots", 2 if option == "two" else 1, types=targets)
        wanted = _removal(space, picks)
        (chosen[space],) = [m for m in moves if m.option == option and m.removed == wanted]
    return chosen


def _count_removed(move: SpecialActivity, pieces: Iterable[str]) -> int:
    kinds = tuple(pieces)
    return sum(n for _, kind, n in move.removed if kind.partition(":")[0] in kinds)


def partisans(
    state: CoinState,
    command: Command | None,
    rng: LoggedRandom,
    trace: Trace,
    options: PatriotOptions = DEFAULTS,
) -> SpecialActivity | None:
    """8.5.1 PARTISANS in a space with Underground Militia and enemy: first to
    remove a Village, then the most War Parties, then the most British units;
    within each, first where it adds most Rebellion Control, then where it removes
    most British Control, then by 8.2. None when no Partisans is possible.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 2, new_status="underground")
    >>> state.move_pieces("Available", "Virginia", "war_party", 1)
    >>> state.move_pieces("Available", "Virginia", "tory", 1)
    >>> partisans(state, None, LoggedRandom(0), Trace()).removed
    (('Virginia', 'tory', 1), ('Virginia', 'war_party:underground', 1))
    """
    found = _strikes(state, "partisans", command, PARTISAN_TARGETS, options)
    if not found:
        return None

    def gain(s: CoinState, x: str) -> tuple[int, int]:
        return _control_gain(s, x, _strike_change(found[x]))

    def wars(s: CoinState, x: str) -> int:
        return _count_removed(found[x], ("war_party",))

    def british(s: CoinState, x: str) -> int:
        return _count_removed(found[x], ("british_regular", "tory"))

    priorities = [
        Priority("Partisans: remove a Village",
                 lambda s, x: found[x].option == "village", gain, rule="8.5.1"),
        Priority("Partisans: remove the most War Parties",
                 lambda s, x: wars(s, x) > 0, lambda s, x: (wars(s, x), *gain(s, x)),
                 rule="8.5.1"),
        Priority("Partisans: remove the most British units",
                 lambda s, x: british(s, x) > 0, lambda s, x: (british(s, x), *gain(s, x)),
                 rule="8.5.1"),
    ]  # fmt: skip
    chosen = select_spaces(state, sorted(found), priorities, 1, rng, trace)
    return found[chosen[0]] if chosen else None


def skirmish(
    state: CoinState,
    command: Command | None,
    rng: LoggedRandom,
    trace: Trace,
    options: PatriotOptions = DEFAULTS,
) -> SpecialActivity | None:
    """8.5.1 SKIRMISH in a space with Continentals and enemy: first to remove a
    British Fort; within that (and among the rest) first where it adds most
    Rebellion Control, then where it removes most British Control, then by 8.2.
    None when no Skirmish is possible.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "continental", 1)
    >>> state.move_pieces("Available", "Virginia", "british_fort", 1)
    >>> state.move_pieces("Available", "Georgia", "continental", 2)
    >>> state.move_pieces("Available", "Georgia", "tory", 2)
    >>> skirmish(state, None, LoggedRandom(0), Trace()).spaces
    ('Virginia',)
    """
    found = _strikes(state, "skirmish", command, SKIRMISH_TARGETS, options)

    def gain(s: CoinState, x: str) -> tuple[int, int]:
        return _control_gain(s, x, _strike_change(found[x]))

    priorities = [
        Priority("Skirmish: remove a British Fort",
                 lambda s, x: found[x].option == "fort", gain, rule="8.5.1"),
        Priority("Skirmish: Continentals and enemy", lambda s, x: True, gain, rule="8.5.1"),
    ]  # fmt: skip
    chosen = select_spaces(state, sorted(found), priorities, 1, rng, trace)
    return found[chosen[0]] if chosen else None


def _special(context: TurnContext, command: Command, options: PatriotOptions) -> None:
    """8.5.1: Partisans, or if not possible Skirmish, or if not possible
    Persuasion; with the Patriots at 0 Resources, Persuasion in place of either
    strike. Executed with ``command`` (already carried out), or none."""
    if not context.special_allowed:
        return
    state, rng, trace = context.state, context.rng, context.trace
    order = ["partisans", "skirmish", "persuasion"]
    move: SpecialActivity | None = None
    if _resources(state) == 0:
        trace.step("8.5.1", "Patriot Resources 0: Persuasion instead", order, "persuasion")
        move = persuasion(state, command, rng, trace)
    else:
        move = (
            partisans(state, command, rng, trace, options)
            or skirmish(state, command, rng, trace, options)
            or persuasion(state, command, rng, trace)
        )
    if move is None:
        trace.step("8.5.1", "no Partisans, Skirmish or Persuasion possible", order, None)
        return
    trace.step("8.5.1", f"Special Activity: {move.name}", order, move.name)
    context.special(move)


class _Persuader:
    """The Persuasion of a Rally or Rabble-Rousing (8.5.2, 8.5.3): chosen on the
    state before the Command, the first time its Resources run out, and executed
    before it."""

    def __init__(self, context: TurnContext, purse: ResourcePurse, options: PatriotOptions,
                 rule: str) -> None:  # fmt: skip
        self.context, self.purse, self.options, self.rule = context, purse, options, rule
        self.enabled = context.special_allowed and not purse.free
        self.tried = False
        self.move: SpecialActivity | None = None
        self.after: CoinState = context.state

    def take(self) -> bool:
        """Pay for one more space, persuading first or after as the reading says."""
        early = self.options.persuade_when_spent == "to_continue"
        if early and self.purse.left == 0:
            self.persuade()
        if not self.purse.take():
            return False
        if not early and self.purse.left == 0:
            self.persuade()
        return True

    def persuade(self) -> bool:
        """Execute (in the plan) the Persuasion once; True when it was made."""
        if not self.enabled or self.tried:
            return False
        self.tried = True
        context = self.context
        move = persuasion(context.state, None, context.rng, context.trace)
        if move is None:
            context.trace.step(self.rule, "Resources 0: no Persuasion possible", [], None)
            return False
        self.move = move
        self.after = apply_special(context.state, move).state
        self.purse.left += _resources(self.after) - _resources(context.state)
        context.trace.step(self.rule, "Resources 0: Persuasion before continuing",
                           move.spaces, "persuasion")  # fmt: skip
        return True

    def execute(self, command: Command) -> None:
        if self.move is not None:
            self.context.special(replace(self.move, command=command))


# ---------------------------------------------------------------------- 8.5.2 Rally


def _militia_most(state: CoinState, space: str) -> int:
    """3.3.1: Militia one Rally places in ``space``: one, or with a Patriot Fort up
    to the Forts plus the Population; none in an Indian Reserve."""
    if state.rules.map.is_reserve(space):
        return 0
    forts = state.pieces(space, "patriot_fort")
    return max(1, forts + _population(state, space)) if forts else 1


class _RallyPlan:
    """A Rally under construction (8.5.2): the actions in order, replayed on the
    state before the Rally (after the Persuasion, once made) to give the entries
    of the Command and the state it leads to (``work``)."""

    def __init__(self, context: TurnContext, options: PatriotOptions, *, limit: int,
                 free: bool, persuade: bool, bound: str | None = None) -> None:  # fmt: skip
        self.context, self.options, self.limit, self.bound = context, options, limit, bound
        self.purse = ResourcePurse(context.state, "patriots", free=free)
        self.persuader = _Persuader(context, self.purse, options, "8.5.2")
        self.persuader.enabled = self.persuader.enabled and persuade
        self.selected: list[str] = []
        self.actions: list[tuple[str, str]] = []
        self.command_options = context.command_options or CommandOptions()
        self._rebuild()

    def _rebuild(self) -> None:
        self.work = self.persuader.after.copy()
        self.placed: Counter[tuple[str, str]] = Counter()
        self.removed: Counter[tuple[str, str]] = Counter()
        self.moves: Counter[tuple[str, str, str]] = Counter()
        for action in self.actions:
            self._apply(*action)

    # ---- selecting and paying

    def may_select(self, space: str) -> bool:
        if space in self.selected:
            return True
        if self.bound is not None and space != self.bound:
            return False  # 8.3.7: the Brilliant Stroke's first Command
        persuading = self.persuader.enabled and not self.persuader.tried
        paid = self.purse.free or self.purse.left > 0 or persuading
        return len(self.selected) < self.limit and paid

    def select(self, space: str) -> bool:
        if space in self.selected:
            return True
        if len(self.selected) >= self.limit:
            return False
        persuaded = self.persuader.move is not None
        if not self.persuader.take():
            return False
        self.selected.append(space)
        if self.persuader.move is not None and not persuaded:
            self._rebuild()
        return True

    def do(self, kind: str, space: str) -> None:
        self.actions.append((kind, space))
        self._apply(kind, space)

    def available(self, piece: str) -> int:
        """The pieces of ``piece`` this Rally may still place: those Available before
        it less those placed (pieces it replaces are not placed again, 3.3.1)."""
        placed = sum(n for (_, kind), n in self.placed.items() if kind == piece)
        return self.persuader.after.available(piece) - placed

    # ---- carrying the actions out on the work state

    def _apply(self, kind: str, space: str) -> None:
        work = self.work
        if kind == "fort":
            picks = remove_friendly_order(work, space, "patriots", FORT_REPLACES,
                                          types=PATRIOT_UNITS)  # fmt: skip
            for piece, status in picks:
                name = f"militia:{status}" if piece == "militia" else piece
                self.removed[(space, name)] += 1
                work.move_pieces(space, "Available", piece, 1, status)
            self.placed[(space, "patriot_fort")] += 1
            work.move_pieces("Available", space, "patriot_fort", 1)
        elif kind == "militia":
            n = min(_militia_most(work, space), self.available("militia"))
            self.placed[(space, "militia")] += n
            work.move_pieces("Available", space, "militia", n, new_status="underground")
        elif kind == "convert":
            keep = 1 if work.pieces(space, "militia", "underground") else 0
            n = min(work.pieces(space, "militia") - keep, self.available("continental"))
            taken_active = min(n, work.pieces(space, "militia", "active"))
            for status, k in (("active", taken_active), ("underground", n - taken_active)):
                if k:
                    self.removed[(space, f"militia:{status}")] += k
                    work.move_pieces(space, "Available", "militia", k, status)
            self.placed[(space, "continental")] += n
            work.move_pieces("Available", space, "continental", n)
        else:  # "move_in": Active Militia from next door, then all Underground there
            for origin, n in self.arrivals(space).items():
                self.moves[(origin, space, "militia:active")] += n
                work.move_pieces(origin, space, "militia", n, "active", "underground")
            here = work.pieces(space, "militia", "active")
            if here:
                work.flip(space, "militia", here, "active", "underground")

    def arrivals(self, fort: str) -> dict[str, int]:
        """8.5.2 last bullet: the Active Militia each adjacent space can send to
        ``fort`` without changing its own Control."""
        work = self.work
        found = {}
        for origin in sorted(work.rules.map.adjacent(fort)):
            control = work.control(origin)
            for n in range(work.pieces(origin, "militia", "active"), 0, -1):
                if control_if(work, origin, {"militia:active": -n}) == control:
                    found[origin] = n
                    break
        return found

    # ---- the Command

    def command(self, *, limited: bool, free: bool) -> Command:
        moves = tuple(sorted((o, d, k, n) for (o, d, k), n in self.moves.items() if n))
        return Command("patriots", "rally", tuple(sorted(self.selected)),
                       _sorted_entries(self.placed), _sorted_entries(self.removed),
                       moves=moves, limited=limited, free=free)  # fmt: skip


def _by_population(s: CoinState, x: str) -> int:
    return _population(s, x)


def _rally_forts(plan: _RallyPlan) -> None:
    """8.5.2 first bullet: a Fort in each space with 4+ Patriot units and room,
    Cities first, highest Population first within."""

    def fits(s: CoinState, x: str) -> bool:
        return x not in plan.selected and _fort_room(s, x) and plan.may_select(x)

    priorities = [
        Priority("Fort: a City with 4+ Patriot units",
                 lambda s, x: _is_city(s, x) and fits(s, x), _by_population, rule="8.5.2"),
        Priority("Fort: 4+ Patriot units", fits, _by_population, rule="8.5.2"),
    ]  # fmt: skip
    _each(plan, priorities, "fort")


def _each(plan: _RallyPlan, priorities: list[Priority], action: str, most: int = 10**6) -> int:
    """Select spaces one at a time by ``priorities`` (8.1.3), paying for each, and
    carry ``action`` out there; how many were taken."""
    done = 0
    while done < most:
        chosen = select_spaces(plan.work, _map_spaces(plan.work), priorities, 1,
                               plan.context.rng, plan.context.trace)  # fmt: skip
        if not chosen or not plan.select(chosen[0]):
            return done
        plan.do(action, chosen[0])
        done += 1
    return done


def _placeable(plan: _RallyPlan, s: CoinState, x: str) -> bool:
    """A space not yet selected where Militia can be placed now."""
    return (
        x not in plan.selected
        and _rally_space(s, x)
        and _militia_most(s, x) > 0
        and plan.available("militia") > 0
        and plan.may_select(x)
    )


def _rally_militia_at_forts(plan: _RallyPlan) -> None:
    """8.5.2 second bullet: Militia at each Patriot Fort with no other Rebellion
    pieces; then, with Continentals Available, at the Fort with most Militia."""

    def lone_fort(s: CoinState, x: str) -> bool:
        forts = s.pieces(x, "patriot_fort")
        return bool(forts) and side_pieces(s, x, "rebellion") == forts and _placeable(plan, s, x)

    _each(plan, [Priority("Militia: a Patriot Fort alone", lone_fort, rule="8.5.2")], "militia")
    if not plan.available("continental"):
        return

    def fort(s: CoinState, x: str) -> bool:
        return bool(s.pieces(x, "patriot_fort")) and _placeable(plan, s, x)

    most = Priority("Militia: the Fort with most Militia", fort,
                    lambda s, x: s.pieces(x, "militia"), rule="8.5.2")  # fmt: skip
    _each(plan, [most], "militia", most=1)


def _rally_continentals(plan: _RallyPlan) -> None:
    """8.5.2 third bullet: in the selected Patriot Fort space with most Militia,
    every Militia but one Underground becomes a Continental."""
    work = plan.work
    if not plan.available("continental"):
        return
    placed_forts = {s for (s, kind) in plan.placed if kind == "patriot_fort"}
    new_ok = plan.command_options.rally_continentals_at_new_fort

    def converts(s: CoinState, x: str) -> bool:
        if x not in plan.selected or not s.pieces(x, "patriot_fort"):
            return False
        if x in placed_forts and not new_ok:
            return False
        keep = 1 if s.pieces(x, "militia", "underground") else 0
        return s.pieces(x, "militia") - keep > 0

    most = Priority("Continentals: the selected Fort space with most Militia", converts,
                    lambda s, x: s.pieces(x, "militia"), rule="8.5.2")  # fmt: skip
    chosen = select_spaces(work, list(plan.selected), [most], 1, plan.context.rng,
                           plan.context.trace)  # fmt: skip
    if chosen:
        plan.do("convert", chosen[0])


def _rally_toward_fort(plan: _RallyPlan) -> None:
    """8.5.2 fourth bullet: with a Patriot Fort Available, Militia in the space
    with most Patriot units and no Patriot Fort."""
    if not plan.available("patriot_fort"):
        return

    def open_space(s: CoinState, x: str) -> bool:
        return not s.pieces(x, "patriot_fort") and _placeable(plan, s, x)

    most = Priority("Militia: most Patriot units, no Patriot Fort", open_space,
                    _patriot_units, rule="8.5.2")  # fmt: skip
    _each(plan, [most], "militia", most=1)


def _rally_spread(plan: _RallyPlan) -> None:
    """8.5.2 fifth bullet: Militia first to change Control, then where not at
    Active Opposition; Cities first, then highest Population, within each."""

    def changes(s: CoinState, x: str) -> bool:
        if not _placeable(plan, s, x):
            return False
        n = min(_militia_most(s, x), plan.available("militia"))
        return control_if(s, x, {"militia": n}) != s.control(x)

    def calm(s: CoinState, x: str) -> bool:
        return _placeable(plan, s, x) and s.support(x) != "active_opposition"

    def key(s: CoinState, x: str) -> tuple[bool, int]:
        return _is_city(s, x), _population(s, x)

    priorities = [
        Priority("Militia: change Control", changes, key, rule="8.5.2"),
        Priority("Militia: not at Active Opposition", calm, key, rule="8.5.2"),
    ]
    _each(plan, priorities, "militia")


def _rally_move_in(plan: _RallyPlan) -> None:
    """8.5.2 last bullet: in one Fort space not yet selected, Active Militia move in
    from next door (no origin's Control changing) and all Militia there go
    Underground; the Fort where that moves or hides most Militia (ties by 8.2)."""

    def gain(s: CoinState, x: str) -> int:
        return sum(plan.arrivals(x).values()) + s.pieces(x, "militia", "active")

    def fort(s: CoinState, x: str) -> bool:
        return (
            x not in plan.selected
            and bool(s.pieces(x, "patriot_fort"))
            and _rally_space(s, x)
            and plan.may_select(x)
            and gain(s, x) > 0
        )

    most = Priority("move in: a Fort space, most Militia moved or hidden", fort, gain,
                    rule="8.5.2")  # fmt: skip
    _each(plan, [most], "move_in", most=1)


def _plan_rally(plan: _RallyPlan) -> None:
    _rally_forts(plan)
    _rally_militia_at_forts(plan)
    _rally_continentals(plan)
    _rally_toward_fort(plan)
    _rally_spread(plan)
    _rally_move_in(plan)


def rally_box(context: TurnContext, options: PatriotOptions = DEFAULTS) -> str | None:
    """8.5.2 Rally in up to four spaces: Forts, Militia at Forts, Continentals,
    Militia toward a Fort, Militia elsewhere, Militia moved into a Fort; a
    Persuasion when the Resources run out; then (without that Persuasion) Partisans,
    Skirmish or Persuasion. IF NONE: Rabble-Rousing.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1776"), "patriots", LoggedRandom(0))
    >>> rally_box(context) is None, [step.move.name for step in context.steps]
    (True, ['persuasion', 'rally'])
    """
    plan = _RallyPlan(context, options, limit=context.space_limit(RALLY_SPACES),
                      free=context.scope.free, persuade=True, bound=context.bound)  # fmt: skip
    _plan_rally(plan)
    if not plan.selected:
        context.trace.step("8.5.2", "no Rally possible", [], None)
        return "rabble_rousing"
    move = context.stamp(plan.command(limited=False, free=False))
    plan.persuader.execute(move)
    context.command(move)
    if plan.persuader.move is None:
        _special(context, move, options)
    return None


def free_rally(context: TurnContext, options: PatriotOptions | None = None) -> Command | None:
    """The free Rally in one space a Rebellion Battle won earns (8.5.1, 3.6.8):
    the 8.5.2 bullets as a free Limited Command with no Special Activity, carried
    out through ``context`` (whichever Faction's turn it is). Returns the Rally, or
    None when none is possible.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 4, new_status="underground")
    >>> context = TurnContext(state, "french", LoggedRandom(0))
    >>> free_rally(context).placed  # a Fort, and Militia become Continentals
    (('Virginia', 'continental', 1), ('Virginia', 'patriot_fort', 1))
    """
    plan = _RallyPlan(context, options or DEFAULTS, limit=1, free=True, persuade=False)
    _plan_rally(plan)
    if not plan.selected:
        context.trace.step("8.5.1", "free Rally: none possible", [], None)
        return None
    move = plan.command(limited=True, free=True)
    context.trace.step("8.5.1", "free Rally in one space", move.spaces, move.spaces[0])
    return context.command(move)


# ---------------------------------------------------------------------- 8.5.3 Rabble-Rousing


def rabble_box(context: TurnContext, options: PatriotOptions = DEFAULTS) -> str | None:
    """8.5.3 Rabble-Rousing in each space it can shift toward Active Opposition,
    Active Support first, highest Population first within; a Persuasion when the
    Resources run out; then (without that Persuasion) Partisans, Skirmish or
    Persuasion. IF NONE: Rally.

    >>> state = CoinState.new("lod")
    >>> rabble_box(TurnContext(state, "patriots", LoggedRandom(0)))
    'rally'
    """
    state = context.state
    purse = ResourcePurse(state, "patriots", free=context.scope.free)
    persuader = _Persuader(context, purse, options, "8.5.3")
    shifts = _rabble_shifts(state)
    pool = [s for s in context.within_bound(_map_spaces(state)) if s in shifts]
    priorities = [
        Priority("Rabble-Rousing: Active Support", lambda s, x: s.support(x) == "active_support",
                 _by_population, rule="8.5.3"),
        Priority("Rabble-Rousing: shifts toward Active Opposition", lambda s, x: True,
                 _by_population, rule="8.5.3"),
    ]  # fmt: skip
    order = select_spaces(state, pool, priorities, context.space_limit(len(pool)),
                          context.rng, context.trace)  # fmt: skip
    chosen: list[str] = []
    for space in order:
        if not persuader.take():
            break
        chosen.append(space)
    if not chosen:
        context.trace.step("8.5.3", "no Rabble-Rousing possible", [], None)
        return "rally"
    move = context.stamp(Command("patriots", "rabble_rousing", tuple(sorted(chosen))))
    persuader.execute(move)
    context.command(move)
    if persuader.move is None:
        _special(context, move, options)
    return None


# ---------------------------------------------------------------------- 8.5.4 March


class _MarchPlan:
    """The groups a Patriot March moves (8.5.4), worked on a copy of the state:
    each origin keeps its Rebellion Control, an Active unit with its Patriot Fort
    and, unless at Active Opposition, a Patriot unit (Underground Militia first)."""

    def __init__(self, context: TurnContext) -> None:
        self.context = context
        state = context.state
        self.work = state.copy()
        self.left: dict[str, Counter[str]] = {}
        for space in context.within_bound(_map_spaces(state)):
            if _patriot_units(state, space):
                self.left[space] = Counter({k: _pieces(state, space, k) for k in MARCH_KINDS})
        self.reach = {o: set(march_reach(state, "patriots", o)) for o in self.left}
        self.moves: Counter[tuple[str, str, str]] = Counter()
        self.destinations: list[str] = []
        self.purse = ResourcePurse(state, "patriots", free=context.scope.free)
        self.french = ResourcePurse(state, "french", free=context.scope.free)
        self.french_in = context.scope.free or _resources(state, "french") > 0
        self.french_paid: set[str] = set()
        self.limit = context.space_limit(len(state.rules.spaces))
        self._groups: dict[str, dict[str, Counter[str]]] = {}  # by destination, until a move

    def _french_pays(self, origin: str) -> bool:
        """3.3.2: French Regulars cost the French a Resource per destination, but not
        from Rochambeau's space (Leader capabilities)."""
        return self.work.leader("Rochambeau") != origin

    def group(self, origin: str, destination: str) -> Counter[str]:
        """The largest group ``origin`` can send to ``destination`` under 8.5.4's
        limits (with French Regulars 1 for 1 with Continentals when the French
        can pay)."""
        work, left = self.work, self.left[origin]
        if destination == origin or destination not in self.reach[origin]:
            return Counter()
        g = {k: max(min(left[k], _pieces(work, origin, k)), 0) for k in MARCH_KINDS}
        paid = self._french_pays(origin)
        if not self.french_in or (
            paid
            and destination not in self.french_paid
            and not (self.french.free or self.french.left > 0)
        ):
            g["french_regular"] = 0
        g["french_regular"] = min(g["french_regular"], g["continental"])
        for _ in range(sum(g.values()) + 1):
            cut = self._cut(origin, g)
            if cut is None:
                return +Counter(g)
            g[cut] -= 1
            g["french_regular"] = min(g["french_regular"], g["continental"])
        return Counter()

    def _cut(self, origin: str, g: Mapping[str, int]) -> str | None:
        """The kind one fewer of which must move for the origin's limits, or None."""
        work = self.work

        def left(kind: str) -> int:
            return _pieces(work, origin, kind) - g[kind]

        def first(*kinds: str) -> str | None:
            return next((k for k in kinds if g[k] > 0), None)

        units = left("continental") + left("militia:active") + left("militia:underground")
        if work.support(origin) != "active_opposition" and units == 0:
            return first("militia:underground", "militia:active", "continental")
        had_active = _pieces(work, origin, "continental") + _pieces(work, origin, "militia:active")
        kept_active = left("continental") + left("militia:active")
        if work.pieces(origin, "patriot_fort") and had_active and kept_active == 0:
            return first("militia:active", "continental")
        if rebellion_controls(work, origin):
            gone = {k.partition(":")[0]: 0 for k in MARCH_KINDS}
            for k in MARCH_KINDS:
                gone[k.partition(":")[0]] -= g[k]
            if control_if(work, origin, gone) != "rebellion":
                return first("militia:active", "french_regular", "continental",
                             "militia:underground")  # fmt: skip
        return None

    def groups(self, destination: str) -> dict[str, Counter[str]]:
        """The group each origin can send to ``destination`` (where it can send one)."""
        if destination not in self._groups:
            found = {}
            for origin in self.left:
                group = self.group(origin, destination)
                if group:
                    found[origin] = group
            self._groups[destination] = found
        return self._groups[destination]

    def may_select(self, destination: str) -> bool:
        if destination in self.destinations:
            return True
        return len(self.destinations) < self.limit and (self.purse.free or self.purse.left > 0)

    def select(self, destination: str) -> None:
        if destination not in self.destinations:
            self.purse.take()
            self.destinations.append(destination)

    def move(self, origin: str, destination: str, group: Counter[str]) -> None:
        self._groups.clear()  # the pieces, what is left to move and the French purse change
        for kind, n in group.items():
            piece, _, status = kind.partition(":")
            self.work.move_pieces(origin, destination, piece, n, status or None)
            self.moves[(origin, destination, kind)] += n
            self.left[origin][kind] -= n
        paying = group["french_regular"] and self._french_pays(origin)
        if paying and destination not in self.french_paid:
            self.french.take()
            self.french_paid.add(destination)

    def largest(self, groups: dict[str, Counter[str]], rule: str) -> str:
        size = Priority("the largest group", lambda s, o: True,
                        lambda s, o: sum(groups[o].values()), rule=rule)  # fmt: skip
        (origin,) = select_spaces(self.work, sorted(groups), [size], 1,
                                  self.context.rng, self.context.trace)  # fmt: skip
        return origin

    def command(self) -> Command:
        moves = tuple(sorted((o, d, k, n) for (o, d, k), n in self.moves.items() if n))
        allied = tuple(sorted(self.french_paid))
        return Command("patriots", "march", tuple(sorted(self.destinations)), moves=moves,
                       allied=allied)  # fmt: skip


def _as_pieces(group: Mapping[str, int]) -> dict[str, int]:
    change: Counter[str] = Counter()
    for kind, n in group.items():
        change[kind.partition(":")[0]] += n
    return dict(change)


def _march_control(plan: _MarchPlan) -> None:
    """8.5.4 first sub-bullet: Rebellion Control added to two spaces (Villages
    first, then Cities, then elsewhere; highest Population within), the largest
    groups moving first until Control is established."""
    work = plan.work

    def reachable(s: CoinState, x: str) -> bool:
        if rebellion_controls(s, x) or not plan.may_select(x):
            return False
        total: Counter[str] = Counter()
        for group in plan.groups(x).values():
            total.update(group)
        return bool(total) and control_if(s, x, _as_pieces(total)) == "rebellion"

    priorities = [
        Priority("Rebellion Control: Villages there",
                 lambda s, x: bool(s.pieces(x, "village")) and reachable(s, x), _by_population,
                 rule="8.5.4"),
        Priority("Rebellion Control: a City", lambda s, x: _is_city(s, x) and reachable(s, x),
                 _by_population, rule="8.5.4"),
        Priority("Rebellion Control: elsewhere", reachable, _by_population, rule="8.5.4"),
    ]  # fmt: skip
    for _ in range(CONTROL_DESTINATIONS):
        chosen = select_spaces(work, _map_spaces(work), priorities, 1, plan.context.rng,
                               plan.context.trace)  # fmt: skip
        if not chosen:
            return
        (destination,) = chosen
        plan.select(destination)
        while not rebellion_controls(work, destination):
            groups = plan.groups(destination)
            origin = plan.largest(groups, "8.5.4")
            plan.move(origin, destination, groups[origin])


def _march_militia(plan: _MarchPlan) -> None:
    """8.5.4 second sub-bullet: one Militia (Underground if possible) into each
    space with none, first to change Control of the most Population."""
    work = plan.work

    def senders(x: str) -> dict[str, Counter[str]]:
        found = {}
        for origin, group in plan.groups(x).items():
            for kind in ("militia:underground", "militia:active"):
                if group[kind]:
                    found[origin] = Counter({kind: 1})
                    break
        return found

    def open_space(s: CoinState, x: str) -> bool:
        return (
            not s.pieces(x, "militia")
            and may_hold(s, "militia", x)[0]
            and plan.may_select(x)
            and bool(senders(x))
        )

    def changes(s: CoinState, x: str) -> bool:
        return open_space(s, x) and control_if(s, x, {"militia": 1}) != s.control(x)

    priorities = [
        Priority("one Militia: change Control, most Population", changes, _by_population,
                 rule="8.5.4"),
        Priority("one Militia: a space with none", open_space, rule="8.5.4"),
    ]  # fmt: skip
    while True:
        chosen = select_spaces(work, _map_spaces(work), priorities, 1, plan.context.rng,
                               plan.context.trace)  # fmt: skip
        if not chosen:
            return
        (destination,) = chosen
        found = senders(destination)
        hidden = {o: g for o, g in found.items() if g["militia:underground"]}
        pool = hidden or found
        pick = Priority("send an Underground Militia if possible", lambda s, o: True,
                        rule="8.5.4")  # fmt: skip
        (origin,) = select_spaces(work, sorted(pool), [pick], 1, plan.context.rng,
                                  plan.context.trace)  # fmt: skip
        plan.select(destination)
        plan.move(origin, destination, pool[origin])


def march_box(context: TurnContext, options: PatriotOptions = DEFAULTS) -> str | None:
    """8.5.4 March: Rebellion Control added to two spaces, then one Militia into
    each space with none; then Partisans, Skirmish or Persuasion. IF NONE: Rally.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1775"), "patriots", LoggedRandom(0))
    >>> march_box(context) is None, context.steps[0].move.name
    (True, 'march')
    """
    plan = _MarchPlan(context)
    _march_control(plan)
    _march_militia(plan)
    if not plan.destinations:
        context.trace.step("8.5.4", "no March possible", [], None)
        return "rally"
    move = context.command(plan.command())
    _special(context, move, options)
    return None


# ---------------------------------------------------------------------- 8.5.1 Battle


def _margin(result: BattleResult) -> int:
    """Rebellion Force Level plus its modifiers, less the Royalist ones (8.5.1)."""
    rebel = result.force_levels[0] + sum(m.value for m in result.defender_loss_modifiers)
    royal = result.force_levels[1] + sum(m.value for m in result.attacker_loss_modifiers)
    return rebel - royal


def _battle_odds(
    context: TurnContext, space: str, allied: bool, options: PatriotOptions
) -> tuple[int, int]:
    """The best (margin, Militia Activated) in ``space``: fewest Activated on a tie."""
    state = context.state
    most = state.pieces(space, "militia", "underground")
    counts = range(most + 1) if options.battle_activation == "best" else range(1)
    best: tuple[int, int] | None = None
    for n in counts:
        choice = BattleChoice(space, "patriots", ally_pays=allied, activate_attacker=n)
        margin = _margin(resolve_battle(state, choice, TrialDice(), context.battle_options))
        if best is None or margin > best[0]:
            best = (margin, n)
    assert best is not None
    return best


def _french_join(state: CoinState, space: str, free: bool) -> bool:
    """8.5.1: French Regulars there that may join, and French Resources above 0
    (none needed for a free Battle, 3.1.2)."""
    if not state.pieces(space, "french_regular") or not (free or _resources(state, "french")):
        return False
    trial = Command("patriots", "battle", (space,), allied=(space,), free=free)
    return command_refusal(state, trial) is None


def _overflow(context: TurnContext, space: str) -> tuple[str, ...]:
    """Where the Patriots put Win-the-Day shifts ``space`` cannot take (3.6.8): next
    door, first for the highest gain in Opposition, then the highest loss in
    Support (8.3.6), highest Population within; ties by 8.2. Only asked when the
    space could not take every shift."""
    state = context.state
    washington = state.leader("Washington") == space
    most = MOST_SHIFTS_WASHINGTON if washington else MOST_SHIFTS
    room = state.support_value(space) + 2 if state.can_have_support(space) else 0
    if room >= most:
        return ()
    trial = state.copy()
    near = sorted(state.rules.map.adjacent(space))

    def shiftable(s: CoinState, x: str) -> bool:
        return s.can_have_support(x) and s.support_value(x) > -2

    priorities = [
        Priority("overflow shift: gain in Opposition",
                 lambda s, x: shiftable(s, x) and s.support_value(x) <= 0, _by_population,
                 rule="3.6.8"),
        Priority("overflow shift: loss in Support",
                 lambda s, x: shiftable(s, x) and s.support_value(x) > 0, _by_population,
                 rule="3.6.8"),
    ]  # fmt: skip
    order: list[str] = []
    for _ in range(most - room):
        chosen = select_spaces(trial, near, priorities, 1, context.rng, context.trace)
        if not chosen:
            break
        order.append(chosen[0])
        trial.shift_support(chosen[0], -1)
    return tuple(order)


def _battle_priorities() -> list[Priority]:
    """8.5.1: Washington's space first, then highest Population, then most Villages
    (ties by 8.2)."""
    return [
        Priority("Battle: Washington there",
                 lambda s, x: s.leader("Washington") == x, rule="8.5.1"),
        Priority("Battle: highest Population, then most Villages", lambda s, x: True,
                 lambda s, x: (_population(s, x), s.pieces(x, "village")), rule="8.5.1"),
    ]  # fmt: skip


def battle_box(context: TurnContext, options: PatriotOptions = DEFAULTS) -> str | None:
    """8.5.1 Battle in every space where the Rebellion Force Level (with as many
    French as possible) plus modifiers exceeds the Royalist; French Regulars
    included for a French Resource per space; a free Rally for each Battle won
    with Win the Day; then Partisans, Skirmish or Persuasion. IF NONE: Rally.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> battle_box(TurnContext(load_scenario("lod", "1775"), "patriots", LoggedRandom(0)))
    'rally'
    """
    state, free = context.state, context.scope.free
    joins: dict[str, bool] = {}
    # the best (margin, Militia Activated) by (space, French joining): the state
    # they are read on stands until the Battle is fought
    odds: dict[tuple[str, bool], tuple[int, int]] = {}

    def best_odds(space: str, french: bool) -> tuple[int, int]:
        if (space, french) not in odds:
            odds[(space, french)] = _battle_odds(context, space, french, options)
        return odds[(space, french)]

    for space in context.within_bound(_map_spaces(state)):
        if battle_refusal(state, BattleChoice(space, "patriots")) is not None:
            continue  # no one-space Battle is legal there
        french = _french_join(state, space, free)
        margin, activated = best_odds(space, french)
        context.trace.step("8.5.1", f"Battle in {space}: Rebellion ahead by {margin} with "
                           f"{activated} Militia Activated, French {'in' if french else 'out'}",
                           [space], space if margin > 0 else None)  # fmt: skip
        if margin > 0:
            joins[space] = french
    purse = ResourcePurse(state, "patriots", free=free)
    most = context.space_limit(len(joins))
    if not free:
        most = min(most, purse.left)
    if joins and most >= len(joins):
        chosen = sorted(joins)
        context.trace.step("8.5.1", "Battle in every space where the Rebellion wins",
                           chosen, chosen)  # fmt: skip
    else:
        chosen = select_spaces(state, sorted(joins), _battle_priorities(), most,
                               context.rng, context.trace)  # fmt: skip
    if not chosen:
        context.trace.step("8.5.1", "no space selected for Battle", [], None)
        return "rally"
    allied = _french_payments(context, [s for s in chosen if joins[s]])
    move = context.stamp(Command("patriots", "battle", tuple(sorted(chosen)),
                                 allied=tuple(sorted(allied))))  # fmt: skip
    decisions = {}
    for space in move.spaces:
        joined = space in allied
        _, activated = best_odds(space, joined)
        decisions[space] = BattleChoice(space, "patriots", ally_pays=joined,
                                        activate_attacker=activated,
                                        rebellion_shifts=_overflow(context, space))  # fmt: skip
    results = context.battle(move, decisions)
    for result in results:
        _after_win(context, result, options)
    _special(context, move, options)
    return None


def _french_payments(context: TurnContext, spaces: list[str]) -> list[str]:
    """8.5.1: the French pay one Resource in each selected space they can join
    (none where Rochambeau is), in the order of the Battle priorities while their
    Resources last."""
    state = context.state
    if context.scope.free:
        return spaces
    free_here = [s for s in spaces if state.leader("Rochambeau") == s]
    paying = [s for s in spaces if s not in free_here]
    left = _resources(state, "french")
    if len(paying) > left:
        paying = select_spaces(state, paying, _battle_priorities(), left, context.rng,
                               context.trace)  # fmt: skip
    return sorted([*free_here, *paying])


def _after_win(context: TurnContext, result: BattleResult, options: PatriotOptions) -> None:
    """8.5.1: a free Rally in one space for a Rebellion Win the Day, and the French
    Blockade move from a City won."""
    for follow in result.follow_ups:
        if follow.action == "rally":
            free_rally(context, options)
        elif follow.action == "move_blockade":
            blockades_after_win(context, follow, "8.5.1")


def blockades_after_win(context: TurnContext, offer: FollowUp, rule: str) -> None:
    """8.5.1, 8.6.6: a Non-player French moves the Blockades of the City won to the
    City with most Support (:func:`nonplayer_blockade_shift`); a played French
    Faction makes its own choice, which the flowchart leaves to it (traced)."""
    if "french" in context.players:
        context.trace.step(rule, f"the French player may move the Blockades of {offer.space}",
                           [offer.space], None)  # fmt: skip
        return
    move = nonplayer_blockade_shift(context.state, offer, context.rng, context.trace, rule)
    if move is not None:
        context.shift_blockades(offer, move)


# ---------------------------------------------------------------------- the flowchart


def patriots_boxes(options: PatriotOptions = DEFAULTS) -> dict[str, Box]:
    """The Patriot Command boxes by name under ``options``; each returns the box its
    "IF NONE" (or "unable to execute") names.

    >>> sorted(patriots_boxes())
    ['battle', 'march', 'rabble_rousing', 'rally']
    """
    return {
        "battle": partial(battle_box, options=options),
        "rally": partial(rally_box, options=options),
        "rabble_rousing": partial(rabble_box, options=options),
        "march": partial(march_box, options=options),
    }


PATRIOTS_BOXES: dict[str, Box] = patriots_boxes()
"""The Patriot Command boxes under the default readings."""


def patriots_command(context: TurnContext, options: PatriotOptions | None = None) -> None:
    """Run the Patriot Command and Special Activity flowchart (8.5.1-8.5.4) on
    ``context``: the first box by the opening sentences, then each box's
    fall-through until one executes (or the Patriots Pass, 2.3.3).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1778"), "patriots", LoggedRandom(1))
    >>> patriots_command(context)
    >>> context.passed is None
    True
    """
    chosen = options or DEFAULTS
    run_boxes(context, patriots_boxes(chosen), first_box(context))
