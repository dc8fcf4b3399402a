"""Liberty or Death Supply Phase (6.2): Extended Supply Lines for the British, the
Patriots, the French and the Indians in that order (6.2.1), then the West Indies
Battle the French must fight and the upkeep of the units left in the West Indies,
French then British (6.2.2).

Each step is one move: a frozen dataclass with a legal-move view (count, rank,
iterate), a refusal naming the rule, and an apply returning a new state and a log
whose lines name their paragraph. :func:`supply_steps` lists the steps in order
and :func:`supply_phase` runs them with a Faction's decisions.

>>> state = CoinState.new("lod")
>>> state.move_pieces("Available", "Virginia", "tory", 2)
>>> out_of_supply(state, "british")
['Virginia']
>>> [m.choices for m in supply_view(state, "british", SUPPLY)]
[(('Virginia', 'remove'),), (('Virginia', 'shift'),)]
>>> after, log = apply_supply(state, BritishSupply((("Virginia", "shift"),)))
>>> after.support("Virginia"), log[0]
('passive_opposition', '6.2.1: the British shift Virginia to passive_opposition')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from legalis.model.coin.limits import stacking_room
from legalis.model.coin.state import CoinState
from legalis.model.core.views import ListView, MoveView, Refusal
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import WEST_INDIES, DieSource
from legalis.model.lod.commands import Command, fight_battles

__all__ = [
    "BATTLE",
    "SUPPLY",
    "SUPPLY_ORDER",
    "UPKEEP",
    "UPKEEP_ORDER",
    "BritishSupply",
    "FrenchSupply",
    "IndianSupply",
    "PatriotSupply",
    "SupplyDecision",
    "WestIndiesBattle",
    "WestIndiesUpkeep",
    "apply_supply",
    "nearest",
    "out_of_supply",
    "patriot_removals",
    "supply_options",
    "supply_phase",
    "supply_refusal",
    "supply_steps",
    "supply_view",
    "village_sites",
    "west_indies_battle_due",
]

SUPPLY = "supply"  # 6.2.1 Extended Supply Lines
BATTLE = "west_indies_battle"  # 6.2.2, the free Battle
UPKEEP = "west_indies_upkeep"  # 6.2.2, return or pay for the units left
SUPPLY_ORDER = ("british", "patriots", "french", "indians")  # 6.2.1, in the order listed
UPKEEP_ORDER = ("french", "british")  # 6.2.2: the French, then the British
PAY, REMOVE, SHIFT = "pay", "remove", "shift"
AVAILABLE = "Available"
REGULAR = {"british": "british_regular", "french": "french_regular"}
# 6.2.1: the Patriot units that need supply, as a Desertion names them (status kept)
PATRIOT_KINDS = ("continental", "militia:active", "militia:underground")
SUPPLY_COST = 1  # 6.2.1, 6.2.2: one Resource per space (per Faction in the West Indies)

Removal = tuple[tuple[str, str, int], ...]  # (space, kind, number), sorted
Payload = str | Removal
Options = list[tuple[str, list[tuple[Payload, int]]]]  # space: (payload, cost) each


# ---------------------------------------------------------------------- the moves


@dataclass(frozen=True)
class BritishSupply:
    """6.2.1 for the British: in each space where their cubes are out of supply,
    ``"pay"`` one Resource, ``"remove"`` the cubes to Available or ``"shift"`` the
    space one level toward Active Opposition; ``choices`` is (space, action),
    sorted by space."""

    choices: tuple[tuple[str, str], ...] = ()
    faction = "british"
    step = SUPPLY

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "step": self.step,
                "choices": [list(c) for c in self.choices]}  # fmt: skip


@dataclass(frozen=True)
class PatriotSupply:
    """6.2.1 for the Patriots: the spaces out of supply they pay for (``paid``,
    sorted) and, in every other one, the units removed to Available (``removed``:
    space, kind, number, sorted; a Militia's kind names its status), one for every
    two Patriot units there, rounded down."""

    paid: tuple[str, ...] = ()
    removed: Removal = ()
    faction = "patriots"
    step = SUPPLY

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "step": self.step, "paid": list(self.paid),
                "removed": [list(r) for r in self.removed]}  # fmt: skip


@dataclass(frozen=True)
class FrenchSupply:
    """6.2.1 for the French: in each space where French Regulars are out of supply,
    ``"pay"``, the nearest space with a Patriot Fort they move to, or
    ``"Available"`` when no Patriot Fort is on the map; (space, choice) sorted."""

    choices: tuple[tuple[str, str], ...] = ()
    faction = "french"
    step = SUPPLY

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "step": self.step,
                "choices": [list(c) for c in self.choices]}  # fmt: skip


@dataclass(frozen=True)
class IndianSupply:
    """6.2.1 for the Indians: the Indian Reserve where a Village is placed when none
    is on the map (``village``), then in each Colony whose War Parties are out of
    supply ``"pay"`` or the nearest Province with a Village they move to;
    (space, choice) sorted."""

    village: str | None = None
    choices: tuple[tuple[str, str], ...] = ()
    faction = "indians"
    step = SUPPLY

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "step": self.step, "village": self.village,
                "choices": [list(c) for c in self.choices]}  # fmt: skip


@dataclass(frozen=True)
class WestIndiesBattle:
    """6.2.2: the free Battle the French fight in the West Indies. Nothing is left
    to choose there: no Militia, War Parties or Patriots, and no Win the Day."""

    faction = "french"
    step = BATTLE

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "step": self.step}


@dataclass(frozen=True)
class WestIndiesUpkeep:
    """6.2.2 after the Battle: how many of the Faction's Regulars in the West Indies
    it keeps there (``kept``), paying one Resource if any; the rest go to Available."""

    faction: str
    kept: int = 0
    step = UPKEEP

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "step": self.step, "kept": self.kept}


SupplyDecision = (
    BritishSupply | PatriotSupply | FrenchSupply | IndianSupply | WestIndiesBattle
    | WestIndiesUpkeep
)  # fmt: skip


# ---------------------------------------------------------------------- who is out of supply


def _rebellion_supplied(state: CoinState, space: str) -> bool:
    """6.2.1: Patriot units and French Regulars are in supply with a Patriot Fort,
    or in a Colony or City with Rebellion Control (an Indian Reserve needs the Fort)."""
    board = state.rules.map
    return state.pieces(space, "patriot_fort") > 0 or (
        not board.is_reserve(space) and state.control(space) == "rebellion"
    )


def _needs_supply(state: CoinState, faction: str, space: str) -> bool:
    board = state.rules.map
    if faction == "british":
        cubes = state.pieces(space, "british_regular") + state.pieces(space, "tory")
        supplied = state.pieces(space, "british_fort") > 0 or (
            board.is_city(space) and state.control(space) == "british"
        )
        return cubes > 0 and not supplied
    if faction == "patriots":
        units = state.pieces(space, "continental") + state.pieces(space, "militia")
        return units > 0 and not _rebellion_supplied(state, space)
    if faction == "french":
        return state.pieces(space, "french_regular") > 0 and not _rebellion_supplied(state, space)
    return (state.pieces(space, "war_party") > 0 and state.pieces(space, "village") == 0
            and not board.is_reserve(space))  # fmt: skip


def out_of_supply(state: CoinState, faction: str) -> list[str]:
    """6.2.1: the map spaces where the Faction's units are out of supply, sorted; the
    West Indies is no map space and has its own upkeep (6.2.2).

    British cubes need a British Fort or a British Controlled City; Patriot Militia
    and Continentals, and French Regulars, a Patriot Fort or a Colony or City with
    Rebellion Control; War Parties a Village or an Indian Reserve.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Quebec", "militia", 1)
    >>> state.move_pieces("Available", "Quebec", "war_party", 1)
    >>> out_of_supply(state, "patriots"), out_of_supply(state, "indians")
    (['Quebec'], [])
    """
    if faction not in SUPPLY_ORDER:
        raise InputError(f"no supply check for {faction!r}", path="faction",
                         allowed=list(SUPPLY_ORDER))  # fmt: skip
    return sorted(s for s in state.rules.spaces if _needs_supply(state, faction, s))


def nearest(state: CoinState, origin: str, targets: Sequence[str]) -> list[str]:
    """The ``targets`` fewest adjacency steps from ``origin``, sorted (empty when
    there is none).

    >>> nearest(CoinState.new("lod"), "Georgia", ["Florida", "Virginia", "Savannah"])
    ['Florida', 'Savannah']
    """
    if not targets:
        return []
    board = state.rules.map
    distance = board.within(origin, len(state.rules.spaces))
    reached = [t for t in targets if t in distance]
    if not reached:
        return []
    best = min(distance[t] for t in reached)
    return sorted(t for t in reached if distance[t] == best)


def village_sites(state: CoinState) -> list[str]:
    """6.2.1: the Indian Reserves where the Indians place a Village when none is on
    the map (room under stacking, 1.4.2, and a Village Available); empty when a
    Village is on the map.

    >>> village_sites(CoinState.new("lod"))
    ['Florida', 'Northwest', 'Quebec', 'Southwest']
    """
    if any(state.pieces(s, "village") for s in state.rules.spaces):
        return []
    if not state.available("village"):
        return []
    reserves = state.rules.map.of_type("Reserve")
    return sorted(r for r in reserves if stacking_room(state, r) >= 1)


def _can_shift_down(state: CoinState, space: str) -> bool:
    return state.can_have_support(space) and state.support_value(space) > -2


def patriot_removals(state: CoinState, space: str) -> list[Removal]:
    """6.2.1: the ways to remove one for every two Patriot units in ``space``
    (Militia and Continentals, rounded down) to Available.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Quebec", "militia", 2)
    >>> state.move_pieces("Available", "Quebec", "continental", 1)
    >>> patriot_removals(state, "Quebec")
    [(('Quebec', 'militia:underground', 1),), (('Quebec', 'continental', 1),)]
    """
    have = [state.pieces(space, "continental"), state.pieces(space, "militia", "active"),
            state.pieces(space, "militia", "underground")]  # fmt: skip
    due = sum(have) // 2
    found: list[Removal] = []
    for c in range(min(due, have[0]) + 1):
        for a in range(min(due - c, have[1]) + 1):
            u = due - c - a
            if u <= have[2]:
                found.append(tuple((space, kind, n) for kind, n in
                                   zip(PATRIOT_KINDS, (c, a, u), strict=True) if n))  # fmt: skip
    return found


def _placed(state: CoinState, village: str | None) -> CoinState:
    """The state with the Indians' supply Village placed (6.2.1), if any."""
    if village is None:
        return state
    after = state.copy()
    after.move_pieces(AVAILABLE, village, "village", 1)
    return after


def supply_options(state: CoinState, faction: str) -> Options:
    """6.2.1: each space out of supply with what the Faction may do there and what it
    costs: (space, [(choice, Resources)]). For the Indians, on the state after the
    Village placement (see :func:`village_sites`).

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_pieces("Available", "Georgia", "french_regular", 2)
    >>> state.move_pieces("Available", "Georgia", "tory", 2)  # no Control
    >>> state.move_pieces("Available", "Savannah", "patriot_fort", 1)
    >>> state.move_pieces("Available", "Florida", "patriot_fort", 1)
    >>> supply_options(state, "french")
    [('Georgia', [('pay', 1), ('Florida', 0), ('Savannah', 0)])]
    """
    options: Options = []
    spaces = state.rules.spaces
    forts = [s for s in spaces if state.pieces(s, "patriot_fort")]
    villages = [s for s in spaces if state.pieces(s, "village")]
    for space in out_of_supply(state, faction):
        here: list[tuple[Payload, int]] = [(PAY, SUPPLY_COST)]
        if faction == "british":
            here.append((REMOVE, 0))
            if _can_shift_down(state, space):
                here.append((SHIFT, 0))
        elif faction == "patriots":
            here += [(removal, 0) for removal in patriot_removals(state, space)]
        else:
            targets = forts if faction == "french" else villages
            found = nearest(state, space, targets)
            here += [(t, 0) for t in found] if found else [(AVAILABLE, 0)]
        options.append((space, here))
    return options


# ---------------------------------------------------------------------- the views


class _PerSpaceView(MoveView[SupplyDecision]):
    """One choice per space out of supply within the Faction's Resources, counted
    by a count over the spaces of the Resources spent and ranked the same way."""

    def __init__(
        self,
        options: Options,
        budget: int,
        build: Callable[[tuple[tuple[str, Payload], ...]], SupplyDecision],
        refuse: Callable[[object], Refusal | None],
    ) -> None:
        self.options, self.budget, self.build, self.refuse = options, budget, build, refuse
        self._memo: dict[tuple[int, int], int] = {}

    def _ways(self, at: int, spent: int) -> int:
        if at == len(self.options):
            return 1
        key = (at, spent)
        if key not in self._memo:
            self._memo[key] = sum(
                self._ways(at + 1, spent + cost)
                for _, cost in self.options[at][1]
                if spent + cost <= self.budget
            )
        return self._memo[key]

    def count(self) -> int:
        return self._ways(0, 0)

    def nth(self, index: int) -> SupplyDecision:
        if not 0 <= index < self.count():
            raise IndexError(index)
        picked: list[tuple[str, Payload]] = []
        spent = 0
        for at, (space, here) in enumerate(self.options):
            for payload, cost in here:
                if spent + cost > self.budget:
                    continue
                ways = self._ways(at + 1, spent + cost)
                if index < ways:
                    picked.append((space, payload))
                    spent += cost
                    break
                index -= ways
        return self.build(tuple(picked))

    def __iter__(self) -> Iterator[SupplyDecision]:
        for index in range(self.count()):
            yield self.nth(index)

    def refusal(self, move: object) -> Refusal | None:
        return self.refuse(move)


class _Joined(MoveView[SupplyDecision]):
    """The moves of several views one after the other (the Indians' Village sites)."""

    def __init__(
        self, parts: list[MoveView[SupplyDecision]], refuse: Callable[[object], Refusal | None]
    ) -> None:
        self.parts, self.refuse = parts, refuse

    def count(self) -> int:
        return sum(part.count() for part in self.parts)

    def nth(self, index: int) -> SupplyDecision:
        if index < 0:
            raise IndexError(index)
        for part in self.parts:
            if index < part.count():
                return part.nth(index)
            index -= part.count()
        raise IndexError(index)

    def __iter__(self) -> Iterator[SupplyDecision]:
        for part in self.parts:
            yield from part

    def refusal(self, move: object) -> Refusal | None:
        return self.refuse(move)


def _builder(
    faction: str, village: str | None = None
) -> Callable[[tuple[tuple[str, Payload], ...]], SupplyDecision]:
    def build(picked: tuple[tuple[str, Payload], ...]) -> SupplyDecision:
        if faction == "patriots":
            paid = tuple(s for s, p in picked if p == PAY)
            removed = tuple(sorted(r for _, p in picked if not isinstance(p, str) for r in p))
            return PatriotSupply(paid, removed)
        choices = tuple((s, str(p)) for s, p in picked)
        if faction == "british":
            return BritishSupply(choices)
        if faction == "french":
            return FrenchSupply(choices)
        return IndianSupply(village, choices)

    return build


def _resources(state: CoinState, faction: str) -> int:
    return state.track(f"{faction}_resources")


def supply_view(state: CoinState, faction: str, step: str = SUPPLY) -> MoveView[SupplyDecision]:
    """The legal moves of one step of the Supply Phase (a step of
    :func:`supply_steps`): ``SUPPLY`` (6.2.1) for any Faction, ``BATTLE`` for the
    French, ``UPKEEP`` for the French or the British (6.2.2). A step with nothing to
    decide has the one move that does nothing (or only what the rule requires).

    >>> state = CoinState.new("lod")
    >>> state.set_track("patriots_resources", 1)
    >>> state.move_pieces("Available", "Quebec", "militia", 3)
    >>> [(m.paid, m.removed) for m in supply_view(state, "patriots")]
    [(('Quebec',), ()), ((), (('Quebec', 'militia:underground', 1),))]
    """

    def refuse(move: object) -> Refusal | None:
        return supply_refusal(state, move)

    if step == SUPPLY:
        if faction not in SUPPLY_ORDER:
            raise InputError(f"no supply check for {faction!r}", path="faction",
                             allowed=list(SUPPLY_ORDER))  # fmt: skip
        budget = _resources(state, faction)
        if faction != "indians":
            return _PerSpaceView(supply_options(state, faction), budget,
                                 _builder(faction), refuse)  # fmt: skip
        sites: list[str | None] = [*village_sites(state)] or [None]
        parts: list[MoveView[SupplyDecision]] = [
            _PerSpaceView(
                supply_options(_placed(state, v), faction), budget, _builder(faction, v), refuse
            )
            for v in sites
        ]
        return _Joined(parts, refuse)
    moves: list[SupplyDecision]
    if step == BATTLE and faction == "french":
        moves = [WestIndiesBattle()] if west_indies_battle_due(state) else []
    elif step == UPKEEP and faction in UPKEEP_ORDER:
        moves = [WestIndiesUpkeep(faction, k) for k in _keepable(state, faction)]
    else:
        raise InputError(f"no Supply Phase step {step!r} for {faction!r}", path="step",
                         allowed=[SUPPLY, BATTLE, UPKEEP])  # fmt: skip
    return ListView(moves, refuse)


# ---------------------------------------------------------------------- refusals


def _choices_refusal(
    choices: tuple[tuple[str, Payload], ...], options: Options, budget: int, faction: str
) -> Refusal | None:
    wanted = [space for space, _ in options]
    spaces = [space for space, _ in choices]
    if spaces != wanted:
        return Refusal(f"one choice for each space where the {faction} are out of supply, "
                       f"in order: {', '.join(wanted) or 'none'}", "6.2.1")  # fmt: skip
    cost = 0
    for (space, payload), (_, here) in zip(choices, options, strict=True):
        costs = dict(here)
        if payload not in costs:
            return Refusal(f"{space}: not a supply choice there ({payload!r})", "6.2.1")
        cost += costs[payload]
    if cost > budget:
        return Refusal(f"paying for {cost} spaces costs {cost}; the {faction} have {budget}",
                       "6.2.1")  # fmt: skip
    return None


def _patriot_choices(
    state: CoinState, move: PatriotSupply
) -> tuple[tuple[tuple[str, Payload], ...], Refusal | None]:
    spaces = out_of_supply(state, "patriots")
    if list(move.paid) != sorted(set(move.paid)) or list(move.removed) != sorted(move.removed):
        return (), Refusal("entries once each, sorted", "6.2.1")
    stray = (set(move.paid) | {s for s, _, _ in move.removed}) - set(spaces)
    if stray:
        return (), Refusal(f"the Patriots are in supply in {', '.join(sorted(stray))}", "6.2.1")
    both = set(move.paid) & {s for s, _, _ in move.removed}
    if both:
        return (), Refusal(f"{', '.join(sorted(both))}: paid for, so nothing is removed",
                           "6.2.1")  # fmt: skip
    choices: list[tuple[str, Payload]] = []
    for space in spaces:
        mine = tuple(r for r in move.removed if r[0] == space)
        choices.append((space, PAY if space in move.paid else mine))
    return tuple(choices), None


def _keepable(state: CoinState, faction: str) -> list[int]:
    """6.2.2: how many Regulars the Faction may keep in the West Indies: none (all
    to Available), or any number from one up when it pays a Resource."""
    have = state.pieces(WEST_INDIES, REGULAR[faction])
    if not have or _resources(state, faction) < SUPPLY_COST:
        return [0]
    return list(range(have + 1))


def west_indies_battle_due(state: CoinState) -> bool:
    """6.2.2: the French must fight in the West Indies when French Regulars and
    British pieces are both there (after the Treaty of Alliance, 3.5).

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_pieces("Available", "West Indies", "french_regular", 2)
    >>> state.move_pieces("Available", "West Indies", "british_fort", 1)
    >>> west_indies_battle_due(state)
    True
    """
    return (state.flag("toa_played") and state.pieces(WEST_INDIES, "french_regular") > 0
            and state.faction_pieces(WEST_INDIES, "british") > 0)  # fmt: skip


def supply_refusal(state: CoinState, move: object) -> Refusal | None:
    """``None`` if ``move`` is a legal Supply Phase move now, else why not and the rule.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Quebec", "british_regular", 1)
    >>> supply_refusal(state, BritishSupply((("Quebec", "shift"),))).reason
    "Quebec: not a supply choice there ('shift')"
    """
    if isinstance(move, BritishSupply | FrenchSupply):
        if len({s for s, _ in move.choices}) != len(move.choices):
            return Refusal("one choice per space", "6.2.1")
        return _choices_refusal(tuple(move.choices), supply_options(state, move.faction),
                                _resources(state, move.faction), move.faction)  # fmt: skip
    if isinstance(move, PatriotSupply):
        choices, refused = _patriot_choices(state, move)
        if refused is not None:
            return refused
        return _choices_refusal(choices, supply_options(state, "patriots"),
                                _resources(state, "patriots"), "patriots")  # fmt: skip
    if isinstance(move, IndianSupply):
        sites = village_sites(state)
        if move.village is None and sites:
            return Refusal("no Village on the map: one goes in an Indian Reserve first",
                           "6.2.1")  # fmt: skip
        if move.village is not None and move.village not in sites:
            return Refusal(f"no supply Village in {move.village}: only in an Indian Reserve "
                           "with room, when none is on the map", "6.2.1")  # fmt: skip
        placed = _placed(state, move.village)
        return _choices_refusal(tuple(move.choices), supply_options(placed, "indians"),
                                _resources(state, "indians"), "indians")  # fmt: skip
    if isinstance(move, WestIndiesBattle):
        if not west_indies_battle_due(state):
            return Refusal("no West Indies Battle: it needs French Regulars and British "
                           "pieces there", "6.2.2")  # fmt: skip
        return None
    if isinstance(move, WestIndiesUpkeep):
        if move.faction not in UPKEEP_ORDER:
            return Refusal("only the French and the British keep units in the West Indies",
                           "6.2.2")  # fmt: skip
        if move.kept not in _keepable(state, move.faction):
            have = state.pieces(WEST_INDIES, REGULAR[move.faction])
            return Refusal(f"the {move.faction} keep none of their {have} Regulars there, or "
                           "pay one Resource to keep from one to all", "6.2.2")  # fmt: skip
        return None
    return Refusal("a Supply Phase move", "6.2")


# ---------------------------------------------------------------------- apply


def _pay(state: CoinState, faction: str, log: list[str], rule: str, where: str) -> None:
    track = f"{faction}_resources"
    state.set_track(track, state.track(track) - SUPPLY_COST)
    log.append(f"{rule}: the {faction.capitalize()} pay 1 Resource for supply in {where}")


def _apply_british(new: CoinState, move: BritishSupply, log: list[str]) -> None:
    for space, action in move.choices:
        if action == PAY:
            _pay(new, "british", log, "6.2.1", space)
        elif action == SHIFT:
            level = new.shift_support(space, -1)
            log.append(f"6.2.1: the British shift {space} to {level}")
        else:
            for piece in ("british_regular", "tory"):
                n = new.pieces(space, piece)
                if n:
                    new.move_pieces(space, AVAILABLE, piece, n)
                    log.append(f"6.2.1: {n} {piece} from {space} to Available")


def _move_all(new: CoinState, origin: str, destination: str, piece: str, log: list[str]) -> None:
    """Every ``piece`` from ``origin`` to ``destination``, each keeping its status."""
    for status in new.rules.data.piece(piece).statuses:
        n = new.pieces(origin, piece, status)
        if n:
            new.move_pieces(origin, destination, piece, n, status)
            log.append(f"6.2.1: {n} {piece} from {origin} to {destination}")


def apply_supply(
    state: CoinState, move: SupplyDecision, rng: DieSource | None = None
) -> tuple[CoinState, list[str]]:
    """The state after one Supply Phase move and its log; ``rng`` rolls the dice of
    the West Indies Battle. An illegal move raises :class:`IllegalMoveError`.

    >>> state = CoinState.new("lod")
    >>> state.set_track("indians_resources", 1)
    >>> state.move_pieces("Available", "Virginia", "war_party", 2)
    >>> after, log = apply_supply(state, IndianSupply("Northwest", (("Virginia", "Northwest"),)))
    >>> after.pieces("Northwest", "war_party"), after.pieces("Northwest", "village")
    (2, 1)
    """
    refused = supply_refusal(state, move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    new = state.copy()
    log: list[str] = []
    if isinstance(move, BritishSupply):
        _apply_british(new, move, log)
    elif isinstance(move, PatriotSupply):
        for space in move.paid:
            _pay(new, "patriots", log, "6.2.1", space)
        for space, kind, n in move.removed:
            piece, _, status = kind.partition(":")
            new.move_pieces(space, AVAILABLE, piece, n, status or None)
            log.append(f"6.2.1: {n} {kind} from {space} to Available")
    elif isinstance(move, FrenchSupply | IndianSupply):
        piece = "french_regular" if move.faction == "french" else "war_party"
        if isinstance(move, IndianSupply) and move.village is not None:
            new.move_pieces(AVAILABLE, move.village, "village", 1)
            log.append(f"6.2.1: no Village on the map; the Indians place one in {move.village}")
        for space, choice in move.choices:
            if choice == PAY:
                _pay(new, move.faction, log, "6.2.1", space)
            else:
                _move_all(new, space, choice, piece, log)
    elif isinstance(move, WestIndiesBattle):
        if rng is None:
            raise InputError("the West Indies Battle needs dice", path="rng")
        battle = Command("french", "battle", (WEST_INDIES,), free=True)
        done, _ = fight_battles(new, battle, rng)
        new = done.state
        log.append("6.2.2: the French fight a free Battle in the West Indies")
        log += done.log
    else:
        regular = REGULAR[move.faction]
        returned = new.pieces(WEST_INDIES, regular) - move.kept
        if move.kept:
            _pay(new, move.faction, log, "6.2.2", WEST_INDIES)
        if returned:
            new.move_pieces(WEST_INDIES, AVAILABLE, regular, returned)
        log.append(f"6.2.2: the {move.faction.capitalize()} keep {move.kept} {regular} in the "
                   f"West Indies, {returned} to Available")  # fmt: skip
    return new, log


# ---------------------------------------------------------------------- the phase


def supply_steps(state: CoinState) -> list[tuple[str, str]]:
    """6.2: the steps of the Supply Phase, in order, as (Faction, step), taken from
    the state the phase begins with. A Faction with no units out of supply (and, for
    the Indians, no Village to place) has no 6.2.1 step: an earlier Faction's supply
    can only bring a space into supply (removing Royalist cubes), never out of it,
    and nothing in 6.2.1 touches the West Indies. The West Indies Battle when due,
    then the upkeep of each Faction with Regulars there (the French, then the British).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> supply_steps(load_scenario("lod", "1775"))
    [('british', 'supply'), ('patriots', 'supply'), ('indians', 'supply')]
    """
    steps = [(f, SUPPLY) for f in SUPPLY_ORDER
             if out_of_supply(state, f) or (f == "indians" and village_sites(state))]  # fmt: skip
    if west_indies_battle_due(state):
        steps.append(("french", BATTLE))
    steps += [(f, UPKEEP) for f in UPKEEP_ORDER if state.pieces(WEST_INDIES, REGULAR[f])]
    return steps


def supply_phase(
    state: CoinState,
    decide: Callable[[CoinState, str, str], SupplyDecision],
    rng: DieSource | None,
) -> tuple[CoinState, list[str]]:
    """Run the whole Supply Phase (6.2): each step of :func:`supply_steps` decided
    by ``decide(state, faction, step)`` (a Non-player's pick or a person's), checked
    and applied in turn; ``rng`` rolls the West Indies Battle.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "tory", 1)
    >>> state.move_pieces("Available", "Quebec", "village", 1)
    >>> after, log = supply_phase(state, lambda s, f, step: supply_view(s, f, step).nth(0),
    ...                           None)
    >>> after.pieces("Virginia", "tory"), log
    (0, ['6.2.1: 1 tory from Virginia to Available'])
    """
    log: list[str] = []
    for faction, step in supply_steps(state):
        move = decide(state, faction, step)
        if (move.faction, move.step) != (faction, step):
            raise IllegalMoveError(f"the {faction} decide the {step} step now, not the "
                                   f"{move.faction} {move.step}", rule="6.2")  # fmt: skip
        state, lines = apply_supply(state, move, rng)
        log += lines
    return state, log
