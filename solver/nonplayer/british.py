"""The Non-player British Command and Special Activity (8.4.1-8.4.5): which
Command the British take, how each box builds its move, and the Special Activity
that goes with it.

The first box is picked by the opening sentences of 8.4.1-8.4.4: Garrison with
10+ Regulars on the map and a Rebellion Controlled City without a Patriot Fort;
else Muster when a D6 is below the Available Regulars; else Battle where two or
more Rebellion pieces are outnumbered by British Regulars and Leader; else March.
Each box either executes or names the box its "IF NONE" (or "unable to execute")
sends the turn to (:data:`BRITISH_BOXES`, run by
:func:`~legalis.solver.nonplayer.flowchart.run_boxes`).

Moves are built from the bullets and carried out through the
:class:`~legalis.solver.nonplayer.flowchart.TurnContext` (how it checks them, and
the Limited and Brilliant Stroke scopes, are described there).

>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> context = TurnContext(load_scenario("lod", "1775"), "british", LoggedRandom(3))
>>> british_command(context)
>>> [step.move.name for step in context.steps]
['muster', 'naval_pressure']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Literal

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import WEST_INDIES, BattleChoice, force_level, resolve_battle
from legalis.model.lod.command_base import RESOURCES, Command, CommandOptions, command_refusal
from legalis.model.lod.march import march_reach
from legalis.model.lod.special import (
    SpecialActivity,
    apply_special,
    howe_cities,
    special_refusal,
    special_view,
)
from legalis.solver.nonplayer.board import (
    TrialDice,
    british_controls,
    control_if,
    cubes,
    leader_space,
    rebellion_controls,
    side_pieces,
    spaces,
)
from legalis.solver.nonplayer.flowchart import Box, TurnContext, run_boxes
from legalis.solver.nonplayer.priorities import remove_friendly_order
from legalis.solver.nonplayer.sequence import ResourcePurse
from legalis.solver.nonplayer.spaces import Priority, opposition_score, select_spaces, support_score
from legalis.solver.nonplayer.support import spending_priority
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "BRITISH_BOXES",
    "BritishOptions",
    "battle_box",
    "battle_wanted",
    "british_boxes",
    "british_command",
    "british_leader",
    "first_box",
    "garrison_box",
    "garrison_wanted",
    "march_box",
    "march_wanted",
    "muster_box",
    "naval_pressure",
    "skirmish",
]

GARRISON_REGULARS = 10  # 8.4.1: 10 or more Regulars on the map
GARRISON_COST = 2  # 3.2.2: a Garrison costs two Resources in all
MUSTER_SPACES = 4  # 8.4.2: up to four spaces
MUSTER_REGULARS = 6  # 3.2.1: up to six Regulars in one space
FORT_CUBES = 5  # 8.4.2: a Fort where five or more British cubes are
MARCH_DESTINATIONS = 4  # 8.4.3: up to four destinations
CONTROL_DESTINATIONS = 2  # 8.4.3: British Control added in up to two spaces
CITY_CUBES = 3  # 8.4.1: three British cubes in each British Controlled City
NAVAL_LEADERS = ("Gage", "Clinton")  # 8.4.1 NAVAL PRESSURE
REBELLION_LEADERS = ("Washington", "Rochambeau", "Lauzun")
REBELLION_CUBES = ("french_regular", "continental")  # Regulars first on a tie (8.1.2)
LOYALTY_MARKERS = ("propaganda", "raid")  # 6.4.1, 8.4.5
SUPPORT_SHIFT = "support_shift"  # the Reward Loyalty entry of a Muster (muster.py)
WAR_PARTY = ("war_party:active", "war_party:underground")  # Active first (8.4.3)
BRITISH_CUBES = ("british_regular", "tory")

Entry = tuple[str, str, int]


@dataclass(frozen=True)
class BritishOptions:
    """The readings taken where 8.4.1-8.4.4 are unclear (``docs/rules-questions.md``).

    ``rebellion_city_needs_pieces``: "the City with the most Rebellion pieces
    without a Patriot Fort" (Garrison, Naval Pressure) is a priority of Cities
    holding one or more Rebellion pieces; ``False``: any City without a Patriot
    Fort, most Rebellion pieces first.
    ``skirmish_cubes``: which Rebellion cubes a Skirmish removes: ``"least_first"``
    takes the type least in the space as far as it goes; ``"alternate"`` alternates
    types from the least one.
    ``battle_before_march``: when both the Battle sentence of 8.4.4 and the March
    sentence of 8.4.3 hold (two Underground Militia outnumbered, say), Battle is
    selected; ``False``: March.
    ``garrison_origins``: where a Garrison's Regulars come from (8.4.1 names only
    destinations): ``"random"``, each origin by the Random Spaces table (8.2) as the
    Playbook's Garrison example does; ``"most_spare"``: the origin with most
    Regulars to spare first.

    >>> BritishOptions().skirmish_cubes
    'least_first'
    """

    rebellion_city_needs_pieces: bool = True
    skirmish_cubes: Literal["least_first", "alternate"] = "least_first"
    battle_before_march: bool = True
    garrison_origins: Literal["random", "most_spare"] = "random"


DEFAULTS = BritishOptions()


# ---------------------------------------------------------------------- small queries


def _is_city(state: CoinState, space: str) -> bool:
    return space != WEST_INDIES and state.rules.map.is_city(space)


def _is_colony(state: CoinState, space: str) -> bool:
    return space != WEST_INDIES and state.rules.map.is_colony(space)


def _population(state: CoinState, space: str) -> int:
    return 0 if space == WEST_INDIES else state.rules.map.population(space)


def _support(state: CoinState, space: str) -> int:
    """The Support level, -2..2; the West Indies counts as Neutral (1.6)."""
    return 0 if space == WEST_INDIES else state.support_value(space)


def _cities(state: CoinState) -> list[str]:
    return sorted(state.rules.map.of_type("City"))


def _royalist_minus_rebellion(state: CoinState, space: str) -> int:
    return side_pieces(state, space, "royalist") - side_pieces(state, space, "rebellion")


def british_leader(state: CoinState) -> str | None:
    """The British Leader in play (Gage, Howe or Clinton), or None (8.4.1 NAVAL
    PRESSURE asks whether it is Gage or Clinton).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> british_leader(load_scenario("lod", "1778"))
    'Clinton'
    """
    in_play = [
        leader.name
        for leader in state.rules.data.leaders
        if leader.faction == "british" and state.leader(leader.name) is not None
    ]
    # the one on the map first; a Leader redeployed to Available (6.5.2) is still it
    on_map = [name for name in in_play if state.leader(name) == leader_space(state, "british")]
    return next(iter(on_map or in_play), None)


def _rebellion_city(options: BritishOptions) -> Priority:
    """8.4.1: Cities without a Patriot Fort, most Rebellion pieces first."""
    least = 1 if options.rebellion_city_needs_pieces else 0

    def test(state: CoinState, city: str) -> bool:
        return not state.pieces(city, "patriot_fort") and (
            side_pieces(state, city, "rebellion") >= least
        )

    return Priority(
        "most Rebellion pieces, no Patriot Fort",
        test,
        lambda s, c: side_pieces(s, c, "rebellion"),
        rule="8.4.1",
    )


def _purse(context: TurnContext) -> ResourcePurse:
    return ResourcePurse(context.state, "british", free=context.scope.free)


def _sorted_entries(counts: Mapping[tuple[str, str], int]) -> tuple[Entry, ...]:
    return tuple(sorted((space, kind, n) for (space, kind), n in counts.items() if n))


# ---------------------------------------------------------------------- which box first


def battle_wanted(state: CoinState) -> bool:
    """8.4.4: a space (or the West Indies) with two or more Rebellion pieces that
    British Regulars plus Leader outnumber.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "militia", 2, new_status="underground")
    >>> state.move_pieces("Available", "Boston", "british_regular", 2)
    >>> battle_wanted(state)
    False
    >>> state.set_leader("Gage", "Boston")
    >>> battle_wanted(state)
    True
    """
    leader = leader_space(state, "british")
    for space in spaces(state, west_indies=True):
        rebels = side_pieces(state, space, "rebellion")
        regulars = state.pieces(space, "british_regular") + (1 if leader == space else 0)
        if rebels >= 2 and regulars > rebels:
            return True
    return False


def march_wanted(state: CoinState) -> bool:
    """8.4.3: no space (nor the West Indies) with British pieces and two or more
    Active Rebellion pieces where British Regulars plus Leader outnumber all
    Rebellion pieces plus Leaders.

    >>> march_wanted(CoinState.new("lod"))
    True
    """
    leader = leader_space(state, "british")
    for space in spaces(state, west_indies=True):
        if not state.faction_pieces(space, "british"):
            continue
        active = side_pieces(state, space, "rebellion") - state.pieces(
            space, "militia", "underground"
        )
        leaders = sum(1 for name in REBELLION_LEADERS if state.leader(name) == space)
        regulars = state.pieces(space, "british_regular") + (1 if leader == space else 0)
        if active >= 2 and regulars > side_pieces(state, space, "rebellion") + leaders:
            return False
    return True


def garrison_wanted(state: CoinState) -> bool:
    """8.4.1: 10 or more British Regulars in the map's Cities and Provinces, and a
    Rebellion Controlled City without a Patriot Fort.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "british_regular", 10)
    >>> state.move_pieces("Available", "Boston", "militia", 1)
    >>> garrison_wanted(state)
    True
    """
    regulars = sum(state.pieces(space, "british_regular") for space in state.rules.spaces)
    rebel_city = any(
        rebellion_controls(state, city) and not state.pieces(city, "patriot_fort")
        for city in _cities(state)
    )
    return regulars >= GARRISON_REGULARS and rebel_city


def first_box(context: TurnContext, options: BritishOptions = DEFAULTS) -> str:
    """The box the British flowchart starts from (the opening sentences of
    8.4.1-8.4.4), traced; the D6 of 8.4.2 is rolled only when Garrison is not
    selected.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> state.move_pieces("Available", "Unavailable", "british_regular", 7)
    >>> first_box(TurnContext(state, "british", LoggedRandom(0)))
    'march'
    """
    state = context.state
    boxes = ["garrison", "muster", "battle", "march"]
    if garrison_wanted(state):
        context.trace.step(
            "8.4.1", "10+ Regulars and a Rebellion City: Garrison", boxes, "garrison"
        )
        return "garrison"
    available = state.available("british_regular")
    if context.roll(6, "8.4.2", f"Muster if below {available} Available Regulars") < available:
        context.trace.step("8.4.2", "D6 below the Available Regulars: Muster", boxes, "muster")
        return "muster"
    battle, march = battle_wanted(state), march_wanted(state)
    chosen = "battle" if battle and (options.battle_before_march or not march) else "march"
    context.trace.step(
        "8.4.4" if chosen == "battle" else "8.4.3",
        f"Battle sentence {battle}, March sentence {march}",
        boxes[2:],
        chosen,
    )
    return chosen


# ---------------------------------------------------------------------- Skirmish


def _skirmish_removal(
    state: CoinState, space: str, options: BritishOptions
) -> tuple[str, tuple[Entry, ...]]:
    """8.4.1 SKIRMISH in ``space``: as many Rebellion cubes as possible (two at the
    cost of a Regular), the type least there first; else one Rebellion piece; with
    Clinton there one more Militia, Underground first (8.1.2)."""
    have = {kind: state.pieces(space, kind) for kind in REBELLION_CUBES}
    picks: Counter[str] = Counter()
    total = sum(have.values())
    if total:
        wanted = min(total, 2)
        order = sorted((k for k in REBELLION_CUBES if have[k]), key=lambda k: have[k])
        if options.skirmish_cubes == "least_first":
            for kind in order:
                picks[kind] += min(have[kind], wanted - sum(picks.values()))
        else:
            turn = 0
            while sum(picks.values()) < wanted:
                kind = order[turn % len(order)]
                if picks[kind] < have[kind]:
                    picks[kind] += 1
                turn += 1
        option = "two" if wanted == 2 else "one"
    elif state.pieces(space, "militia", "active"):
        picks["militia:active"] = 1
        option = "one"
    else:
        picks["patriot_fort"] = 1
        option = "fort"
    if state.leader("Clinton") == space:
        for status in ("underground", "active"):
            kind = f"militia:{status}"
            if state.pieces(space, "militia", status) > picks[kind]:
                picks[kind] += 1
                break
    return option, tuple(sorted((space, kind, n) for kind, n in picks.items() if n))


def skirmish(
    state: CoinState,
    command: Command | None,
    rng: LoggedRandom,
    trace: Trace,
    options: BritishOptions = DEFAULTS,
) -> SpecialActivity | None:
    """8.4.1 SKIRMISH: the West Indies first, then a space with exactly one British
    Regular, then any; within that, where the most Rebellion cubes can go, else one
    Rebellion piece (a space with only one first, a City first); ties by 8.2. None
    when no Skirmish can accompany ``command``.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "british_regular", 2)
    >>> state.move_pieces("Available", "Virginia", "continental", 3)
    >>> state.move_pieces("Available", "Virginia", "french_regular", 1)
    >>> skirmish(state, None, LoggedRandom(0), Trace()).removed
    (('Virginia', 'continental', 1), ('Virginia', 'french_regular', 1))
    """
    places = sorted(
        {move.spaces[0] for move in special_view(state, "british", "skirmish", command)}
    )
    if not places:
        return None
    if WEST_INDIES in places:
        tier, why = [WEST_INDIES], "the West Indies first"
    else:
        lone = [s for s in places if state.pieces(s, "british_regular") == 1]
        tier, why = (lone, "exactly one British Regular") if lone else (places, "any space")
    most = {s: min(cubes(state, s, "rebellion"), 2) for s in tier}
    best = max(most.values())
    if best:
        pool = [s for s in tier if most[s] == best]
        priorities = [
            Priority(f"{why}: {best} Rebellion cube(s) removed", lambda s, x: True, rule="8.4.1")
        ]
    else:
        pool = tier
        priorities = [
            Priority(
                f"{why}: only one Rebellion piece there, Cities first",
                lambda s, x: side_pieces(s, x, "rebellion") == 1,
                lambda s, x: _is_city(s, x),
                rule="8.4.1",
            ),
            Priority(f"{why}: one Rebellion piece removed", lambda s, x: True, rule="8.4.1"),
        ]
    (space,) = select_spaces(state, pool, priorities, 1, rng, trace)
    option, removed = _skirmish_removal(state, space, options)
    move = SpecialActivity("british", "skirmish", command, (space,), option, removed)
    return with_howe(state, move, rng, trace)


def with_howe(
    state: CoinState,
    move: SpecialActivity,
    rng: LoggedRandom,
    trace: Trace,
    battle_spaces: Sequence[str] = (),
    options: BritishOptions = DEFAULTS,
) -> SpecialActivity:
    """``move`` with the City whose Blockade Howe sends to the West Indies as he
    lowers FNI before it (1.9), chosen as 8.4.1 NAVAL PRESSURE chooses one: a
    Battle City first, then the City with most Rebellion pieces and no Patriot
    Fort, then the one with most Support; ``move`` as it is when Howe does not act."""
    cities = howe_cities(state, "british")
    if not cities:
        return move
    (city,) = select_spaces(state, cities, _blockade_order(battle_spaces, options), 1, rng, trace)
    return replace(move, howe_blockade=city)


def _blockade_order(battle_spaces: Sequence[str], options: BritishOptions) -> list[Priority]:
    """8.4.1 NAVAL PRESSURE: which Blockade the British remove."""
    return [
        Priority("a City selected for Battle", lambda s, c: c in battle_spaces, rule="8.4.1"),
        _rebellion_city(options),
        Priority(
            "most Support",
            lambda s, c: True,
            lambda s, c: max(s.support_value(c), 0) * _population(s, c),
            rule="8.4.1",
        ),
    ]


# ---------------------------------------------------------------------- Naval Pressure


def naval_pressure(
    state: CoinState,
    command: Command | None,
    rng: LoggedRandom,
    trace: Trace,
    battle_spaces: Sequence[str] = (),
    options: BritishOptions = DEFAULTS,
) -> SpecialActivity | None:
    """8.4.1 NAVAL PRESSURE: with FNI above 0 and Gage or Clinton the British
    Leader, one Blockade goes (a Battle City first, then the City with most
    Rebellion pieces and no Patriot Fort, then the one with most Support); at FNI
    0, 1D3 Resources (rolled when carried out). None when neither applies.

    >>> state = CoinState.new("lod")
    >>> naval_pressure(state, None, LoggedRandom(0), Trace()).option
    'resources'
    """
    fni = state.track("fni")
    leader = british_leader(state)
    if fni > 0 and leader in NAVAL_LEADERS:
        blockaded = [c for c in _cities(state) if state.markers(c, "blockade")]
        where: tuple[str, ...] = ()
        if blockaded:
            order = _blockade_order(battle_spaces, options)
            where = tuple(select_spaces(state, blockaded, order, 1, rng, trace))
        move = SpecialActivity("british", "naval_pressure", command, where, "fni")
    elif fni == 0:
        move = SpecialActivity("british", "naval_pressure", command, (), "resources")
    else:
        trace.step("8.4.1", f"Naval Pressure: FNI {fni} and {leader} the Leader", [], None)
        return None
    return move if special_refusal(state, move) is None else None


def _special(
    context: TurnContext,
    command: Command | None,
    first: Literal["skirmish", "naval_pressure"],
    options: BritishOptions,
    battle_spaces: Sequence[str] = (),
) -> SpecialActivity | None:
    """Skirmish or else Naval Pressure, or the other way round (8.4.1: each falls
    back on the other, then on no Special Activity); None when neither can be."""
    if not context.special_allowed:
        return None
    state, rng, trace = context.state, context.rng, context.trace
    order = (
        ("skirmish", "naval_pressure") if first == "skirmish" else ("naval_pressure", "skirmish")
    )
    for name in order:
        if name == "skirmish":
            move = skirmish(state, command, rng, trace, options)
        else:
            move = naval_pressure(state, command, rng, trace, battle_spaces, options)
        if move is not None:
            trace.step("8.4.1", f"Special Activity: {name}", order, name)
            return move
    trace.step("8.4.1", "no Skirmish or Naval Pressure possible", order, None)
    return None


# ---------------------------------------------------------------------- 8.4.1 Garrison


class _GarrisonPlan:
    """The Regulars a Garrison moves (8.4.1), worked on a copy of the state."""

    def __init__(
        self, context: TurnContext, state: CoinState, barred: str | None, options: BritishOptions
    ) -> None:
        self.context, self.work, self.options = context, state.copy(), options
        self.cities = [
            c for c in _cities(state) if not state.markers(c, "blockade") and c != barred
        ]
        self.have = {
            s: state.pieces(s, "british_regular")
            for s in context.within_bound(state.rules.spaces)
            if not (_is_city(state, s) and state.markers(s, "blockade"))
        }
        self.moves: Counter[tuple[str, str]] = Counter()
        self.limited = context.scope.limited
        self._spare: dict[str, int] = {}  # by origin, until Regulars leave or reach it

    @property
    def destinations(self) -> set[str]:
        return {to for _, to in self.moves}

    @property
    def origins(self) -> set[str]:
        return {origin for origin, _ in self.moves}

    def spare(self, origin: str) -> int:
        """Regulars ``origin`` can send: two more Royalist than Rebellion pieces left
        where the British Control it; the last Regular only from Population 0 or
        Active Support."""
        known = self._spare.get(origin)
        if known is None:
            known = self._spare[origin] = self._spare_now(origin)
        return known

    def _spare_now(self, origin: str) -> int:
        work = self.work
        if origin in self.destinations:
            return 0
        here = work.pieces(origin, "british_regular")
        most = min(
            self.have.get(origin, 0) - sum(n for (o, _), n in self.moves.items() if o == origin),
            here,
        )
        if not (_population(work, origin) == 0 or _support(work, origin) == 2):
            most = min(most, here - 1)
        if british_controls(work, origin):
            most = min(most, _royalist_minus_rebellion(work, origin) - 2)
        return max(most, 0)

    def may_receive(self, city: str) -> bool:
        if city in self.origins:
            return False
        return not self.limited or not self.destinations or city in self.destinations

    def send(self, city: str, n: int, rule: str) -> None:
        """Move up to ``n`` Regulars to ``city``, each origin sending what it can
        spare, the origins taken by ``garrison_origins``."""
        if self.options.garrison_origins == "random":
            order = Priority("an origin with Regulars to spare (8.2)", lambda s, o: True, rule=rule)
        else:
            order = Priority("most Regulars to spare", lambda s, o: True,
                             lambda s, o: self.spare(o), rule=rule)  # fmt: skip
        sent = 0
        while sent < n:
            pool = [o for o in self.have if o != city and self.spare(o) > 0]
            if not pool:
                break
            (origin,) = select_spaces(
                self.work, pool, [order], 1, self.context.rng, self.context.trace
            )
            k = min(self.spare(origin), n - sent)
            self.work.move_pieces(origin, city, "british_regular", k)
            self.moves[(origin, city)] += k
            # what a space spares depends on its own pieces and moves only
            self._spare.pop(origin, None)
            self._spare.pop(city, None)
            sent += k

    def total_spare(self, city: str) -> int:
        return sum(self.spare(o) for o in self.have if o != city)

    def can_send_to(self, city: str) -> bool:
        return any(self.spare(o) > 0 for o in self.have if o != city)

    def add_control(self, options: BritishOptions) -> None:
        """First bullet: just enough Regulars for British Control of Cities, those
        with most Rebellion pieces and no Patriot Fort first, then New York City,
        then at random."""
        while True:
            need = {
                c: self.need(c)
                for c in self.cities
                if self.may_receive(c) and not british_controls(self.work, c)
            }
            pool = [c for c, n in need.items() if 0 < n <= self.total_spare(c)]
            if not pool:
                return
            priorities = [
                _rebellion_city(options),
                Priority("New York City", lambda s, c: c == "New York City", rule="8.4.1"),
                Priority("random", lambda s, c: True, rule="8.4.1"),
            ]
            (city,) = select_spaces(
                self.work, pool, priorities, 1, self.context.rng, self.context.trace
            )
            self.send(city, need[city], "8.4.1")

    def need(self, city: str) -> int:
        """Regulars that would give the British Control of ``city``."""
        margin = -_royalist_minus_rebellion(self.work, city)
        return max(margin + 1, 1)

    def reinforce(self) -> None:
        """Second bullet: a Regular in each British Controlled City without Active
        Support, then three British cubes in each British Controlled City, those with
        Underground Militia first; ties by 8.2."""
        work = self.work

        def lacking_regular(s: CoinState, c: str) -> bool:
            return (
                british_controls(s, c)
                and s.support_value(c) != 2
                and not s.pieces(c, "british_regular")
            )

        self._fill(
            [
                Priority(
                    "a Regular in a British City without Active Support",
                    lacking_regular,
                    rule="8.4.1",
                )
            ],
            lambda c: 1,
        )

        def short(s: CoinState, c: str) -> bool:
            return british_controls(s, c) and cubes(s, c, "royalist") < CITY_CUBES

        self._fill(
            [
                Priority(
                    "three cubes, Underground Militia there",
                    lambda s, c: short(s, c) and bool(s.pieces(c, "militia", "underground")),
                    rule="8.4.1",
                ),
                Priority("three cubes", short, rule="8.4.1"),
            ],
            lambda c: CITY_CUBES - cubes(work, c, "royalist"),
        )

    def _fill(self, priorities: list[Priority], wanted: Callable[[str], int]) -> None:
        done: set[str] = set()
        while True:
            pool = [
                c
                for c in self.cities
                if c not in done and self.may_receive(c) and self.can_send_to(c)
            ]
            chosen = select_spaces(
                self.work, pool, priorities, 1, self.context.rng, self.context.trace
            )
            if not chosen:
                return
            (city,) = chosen
            done.add(city)
            self.send(city, wanted(city), "8.4.1")

    def command(self, displace: tuple[str, str] | None = None) -> Command:
        moves = tuple(sorted((o, c, "british_regular", n) for (o, c), n in self.moves.items()))
        where = tuple(sorted(self.destinations)) if self.limited else ()
        return Command("british", "garrison", where, moves=moves, displace=displace)


def _displacement(
    context: TurnContext, state: CoinState, plan: _GarrisonPlan
) -> tuple[str, str] | None:
    """8.4.1: the City whose displacement moves the most Rebellion pieces (ties by
    8.2), to the Province with most Opposition, then least Support, then lowest
    Population (ties by 8.2)."""
    board = state.rules.map
    units = ("militia", "continental", "french_regular")

    def count(s: CoinState, c: str) -> int:
        return sum(s.pieces(c, u) for u in units)

    def legal_to(city: str, to: str) -> bool:
        move = context.stamp(plan.command((city, to)))
        return command_refusal(state, move, options=context.command_options) is None

    # 3.2.2: only a City with Rebellion units and British Control once the Regulars
    # moved displaces (the model checks the rest); one legal destination makes it a
    # candidate, and all of them are asked of the City chosen
    legal = [
        city
        for city in plan.cities
        if count(plan.work, city)
        and british_controls(plan.work, city)
        and any(legal_to(city, to) for to in board.adjacent(city))
    ]
    if not legal:
        return None

    most = Priority("most Rebellion pieces displaced", lambda s, c: True, count, rule="8.4.1")
    (city,) = select_spaces(plan.work, sorted(legal), [most], 1, context.rng, context.trace)
    provinces = [to for to in board.adjacent(city) if legal_to(city, to)]
    where = Priority(
        "most Opposition, then least Support, then lowest Population",
        lambda s, p: board.is_province(p),
        lambda s, p: (opposition_score(s, p), -support_score(s, p), -board.population(p)),
        rule="8.4.1",
    )
    (to,) = select_spaces(plan.work, provinces, [where], 1, context.rng, context.trace)
    return city, to


def garrison_box(context: TurnContext, options: BritishOptions = DEFAULTS) -> str | None:
    """8.4.1 Garrison: Naval Pressure or else Skirmish first, then the Regulars'
    moves of the two bullets, Activation and one displacement; with no Regular
    moved (or the Garrison not affordable, 8.1) the British Muster instead.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> state.set_track("british_resources", 1)  # a Garrison costs 2
    >>> garrison_box(TurnContext(state, "british", LoggedRandom(0)))
    'muster'
    """
    state = context.state
    if not context.scope.free and state.track(RESOURCES["british"]) < GARRISON_COST:
        context.trace.step("8.1", "Garrison costs 2 Resources: not affordable", [], None)
        return "muster"
    special = _special(context, None, "naval_pressure", options)
    planned = state
    if special is not None:
        planned = apply_special(state, special, LoggedRandom(0)).state
    barred = special.spaces[0] if special is not None and special.name == "skirmish" else None
    if planned.track("fni") >= 3:
        context.trace.step("3.2.2", "no Garrison at FNI 3", [], None)
        return "muster"
    plan = _GarrisonPlan(context, planned, barred, options)
    plan.add_control(options)
    plan.reinforce()
    if not plan.moves:
        context.trace.step("8.4.1", "no Regulars moved: Garrison aborted", [], None)
        return "muster"
    displace = _displacement(context, planned, plan)
    move = context.stamp(plan.command(displace))
    if special is not None:
        context.special(replace(special, command=move))
    context.command(move)
    return None


# ---------------------------------------------------------------------- 8.4.2 Muster


@dataclass
class _Muster:
    """A British Muster under construction: spaces in the order selected, what is
    placed and removed, and a copy of the state with the pieces placed."""

    context: TurnContext
    work: CoinState
    purse: ResourcePurse
    selected: list[str]
    placed: Counter[tuple[str, str]]
    removed: Counter[tuple[str, str]]

    def command(
        self,
        spaces: Iterable[str] = (),
        placed: Iterable[Entry] = (),
        removed: Iterable[Entry] = (),
    ) -> Command:
        more_placed, more_removed = Counter(self.placed), Counter(self.removed)
        for space, kind, n in placed:
            more_placed[(space, kind)] += n
        for space, kind, n in removed:
            more_removed[(space, kind)] += n
        return Command(
            "british",
            "muster",
            tuple(sorted({*self.selected, *spaces})),
            _sorted_entries(more_placed),
            _sorted_entries(more_removed),
        )

    def allows(
        self,
        spaces: Iterable[str] = (),
        placed: Iterable[Entry] = (),
        removed: Iterable[Entry] = (),
    ) -> bool:
        return self.context.admits(self.command(spaces, placed, removed))

    def put(self, space: str, kind: str, n: int) -> None:
        if space not in self.selected:
            self.selected.append(space)
        self.placed[(space, kind)] += n
        self.work.move_pieces("Available", space, kind, n)

    @property
    def limit(self) -> int:
        return self.context.space_limit(MUSTER_SPACES)


def _place_regulars(muster: _Muster) -> None:
    """8.4.2 first bullet: every Regular that may go, in one space: Neutral or
    Passive first, then elsewhere; within that adding British Control, then where
    Tories are the only British units, then elsewhere; within each, highest
    Population first."""
    state = muster.work
    n = min(MUSTER_REGULARS, state.available("british_regular"))
    if not n:
        return

    def middle(s: CoinState, x: str) -> bool:
        return abs(_support(s, x)) < 2

    def adds_control(s: CoinState, x: str) -> bool:
        return not british_controls(s, x) and control_if(s, x, {"british_regular": n}) == "british"

    def tories_only(s: CoinState, x: str) -> bool:
        return bool(s.pieces(x, "tory")) and not s.pieces(x, "british_regular")

    def anywhere(s: CoinState, x: str) -> bool:
        return True

    def both(
        tier: bool, test: Callable[[CoinState, str], bool]
    ) -> Callable[[CoinState, str], bool]:
        return lambda s, x: middle(s, x) == tier and test(s, x)

    priorities = [
        Priority(f"Regulars: {tier_name}, {name}", both(tier, test), _population, rule="8.4.2")
        for tier, tier_name in ((True, "Neutral or Passive"), (False, "elsewhere"))
        for test, name in (
            (adds_control, "adds British Control"),
            (tories_only, "Tories the only British units"),
            (anywhere, "any"),
        )
    ]
    chosen = _select_admitted(
        muster,
        spaces(state, west_indies=True),
        priorities,
        lambda x: muster.allows((x,), ((x, "british_regular", n),)),
    )
    if chosen and muster.purse.take():
        muster.put(chosen[0], "british_regular", n)


def _tories_most(state: CoinState, space: str) -> int:
    """3.2.1: two Tories, one at Passive Opposition."""
    return 1 if state.support(space) == "passive_opposition" else 2


def _place_tories(muster: _Muster) -> None:
    """8.4.2 second bullet: Tories where Regulars are the only British units (where
    Regulars were just placed first), then to change Control of the most
    Population, then in Colonies with under five British cubes and no British Fort."""
    work = muster.work
    regulars_at = {s for (s, k) in muster.placed if k == "british_regular"}

    def regulars_only(s: CoinState, x: str) -> bool:
        return bool(s.pieces(x, "british_regular")) and not s.pieces(x, "tory")

    def changes_control(s: CoinState, x: str) -> bool:
        n = min(_tories_most(s, x), s.available("tory"))
        return control_if(s, x, {"tory": n}) != s.control(x)

    def thin_colony(s: CoinState, x: str) -> bool:
        return (
            _is_colony(s, x)
            and cubes(s, x, "royalist") < FORT_CUBES
            and not s.pieces(x, "british_fort")
        )

    priorities = [
        Priority(
            "Tories: Regulars the only British units",
            regulars_only,
            lambda s, x: x in regulars_at,
            rule="8.4.2",
        ),
        Priority(
            "Tories: change Control, most Population",
            changes_control,
            lambda s, x: _population(s, x),
            rule="8.4.2",
        ),
        Priority("Tories: a Colony with under five cubes, no Fort", thin_colony, rule="8.4.2"),
    ]

    def takes_tories(x: str) -> bool:
        return muster.allows(
            (x,), ((x, "tory", min(_tories_most(work, x), work.available("tory"))),)
        )

    done: set[str] = set()
    while work.available("tory"):
        room = len(muster.selected) < muster.limit
        candidates = [
            space
            for space in _map_spaces(work)
            if space not in done and (space in muster.selected or room)
        ]
        chosen = _select_admitted(muster, candidates, priorities, takes_tories)
        if not chosen:
            return
        (space,) = chosen
        done.add(space)
        if space not in muster.selected and not muster.purse.take():
            return
        muster.put(space, "tory", min(_tories_most(work, space), work.available("tory")))


def _select_admitted(
    muster: _Muster,
    candidates: Sequence[str],
    priorities: Sequence[Priority],
    admitted: Callable[[str], bool],
) -> list[str]:
    """What :func:`select_spaces` picks (one space) by ``priorities`` from the
    ``candidates`` the Muster ``admitted`` there. The priorities are read in order
    and the check (a whole Muster's legality) is made only of the spaces a priority
    up to the first with an admitted space takes: those after it are never read, so
    the same space is picked, with the same trace and dice."""
    work = muster.work
    admits: dict[str, bool] = {}
    for priority in priorities:
        for space in candidates:
            if space not in admits and priority.test(work, space):
                admits[space] = admitted(space)
        if any(admits.values()):
            break
    pool = [space for space in candidates if admits.get(space)]
    return select_spaces(work, pool, priorities, 1, muster.context.rng, muster.context.trace)


def _map_spaces(state: CoinState) -> list[str]:
    """The map's spaces, sorted (no Tory, Fort or Reward Loyalty in the West Indies)."""
    return sorted(state.rules.spaces)


def _loyalty(
    muster: _Muster, space: str, extra: int
) -> tuple[tuple[Entry, ...], tuple[Entry, ...], int] | None:
    """The most Reward Loyalty in ``space`` the Resources allow once ``extra`` more
    Muster spaces are paid (6.4.1; Gage: the first level free): (placed, removed,
    levels), or None when no level would shift (8.4.5)."""
    state, context = muster.work, muster.context
    if space == WEST_INDIES or not state.can_have_support(space):
        return None
    spent = 0 if context.scope.free else len(muster.selected) + extra
    left = context.state.track(RESOURCES["british"]) - spent
    markers = {m: state.markers(space, m) for m in LOYALTY_MARKERS}
    gage = 1 if state.leader("Gage") == space else 0
    levels = min(2 - state.support_value(space), left - sum(markers.values()) + gage)
    if levels < 1:
        return None
    removed = tuple((space, m, n) for m, n in markers.items() if n)
    placed = ((space, SUPPORT_SHIFT, levels),)
    if not muster.allows((space,), placed, removed):
        return None
    return placed, removed, levels


def _reward_loyalty(muster: _Muster) -> bool:
    """8.4.2 third bullet, first case: Reward Loyalty in one space per 8.4.5, in a
    space already selected if possible, else in one more Muster space."""
    context = muster.context
    for extra, pool in (
        (0, list(muster.selected)),
        (1, [s for s in _map_spaces(muster.work) if s not in muster.selected]),
    ):
        if extra and (len(muster.selected) >= muster.limit or not _can_pay_space(muster)):
            return False
        found = {s: got for s in pool if (got := _loyalty(muster, s, extra)) is not None}
        if not found:
            continue
        best_of = {s: (sum(n for *_, n in got[1]), got[2]) for s, got in found.items()}
        fewest = min(markers for markers, _ in best_of.values())
        priority = spending_priority("8.4.5", LOYALTY_MARKERS, fewest, best_of, "british")
        (space,) = select_spaces(
            muster.work, sorted(found), [priority], 1, context.rng, context.trace
        )
        if extra:
            muster.purse.take()
        placed, removed, _ = found[space]
        if space not in muster.selected:
            muster.selected.append(space)
        for s, kind, n in placed:
            muster.placed[(s, kind)] += n
        for s, kind, n in removed:
            muster.removed[(s, kind)] += n
        return True
    return False


def _can_pay_space(muster: _Muster) -> bool:
    return muster.purse.free or muster.purse.left >= 1


def _fort(muster: _Muster) -> bool:
    """8.4.2 third bullet, second case: a Fort in a Colony with no British Fort,
    five or more British cubes and room, three cubes replaced per 8.1.2; in a space
    already selected if possible, else in one more Muster space; ties by 8.2."""
    work, context = muster.work, muster.context

    def fort_here(space: str) -> tuple[Entry, ...] | None:
        if not (
            _is_colony(work, space)
            and not work.pieces(space, "british_fort")
            and cubes(work, space, "royalist") >= FORT_CUBES
        ):
            return None
        picks = remove_friendly_order(work, space, "british", 3, types=BRITISH_CUBES)
        removed = tuple(
            sorted((space, kind, n) for kind, n in Counter(kind for kind, _ in picks).items())
        )
        placed = ((space, "british_fort", 1),)
        return removed if muster.allows((space,), placed, removed) else None

    others = [s for s in _map_spaces(work) if s not in muster.selected]
    for extra, pool in ((0, list(muster.selected)), (1, others)):
        if extra and (len(muster.selected) >= muster.limit or not _can_pay_space(muster)):
            return False
        found = {s: r for s in pool if (r := fort_here(s)) is not None}
        if not found:
            continue
        anywhere = Priority("a Fort: Colony, five cubes, room", lambda s, x: True, rule="8.4.2")
        (space,) = select_spaces(work, sorted(found), [anywhere], 1, context.rng, context.trace)
        if extra:
            muster.purse.take()
        if space not in muster.selected:
            muster.selected.append(space)
        muster.placed[(space, "british_fort")] += 1
        for s, kind, n in found[space]:
            muster.removed[(s, kind)] += n
        return True
    return False


def muster_box(context: TurnContext, options: BritishOptions = DEFAULTS) -> str | None:
    """8.4.2 Muster in up to four spaces: Regulars, Tories, then Reward Loyalty (if
    Opposition exceeds Support + 1D3 or no Fort is Available) or else a Fort; then
    Skirmish or else Naval Pressure. IF NONE: March.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1776"), "british", LoggedRandom(0))
    >>> muster_box(context) is None, context.steps[0].move.name
    (True, 'muster')
    """
    state = context.state
    muster = _Muster(context, state.copy(), _purse(context), [], Counter(), Counter())
    _place_regulars(muster)
    _place_tories(muster)
    loyalty = not state.available("british_fort")
    if not loyalty:
        roll = context.roll(3, "8.4.2", "Reward Loyalty if Opposition exceeds Support + 1D3")
        loyalty = muster.work.total_opposition() > muster.work.total_support() + roll
    context.trace.step(
        "8.4.2",
        "Reward Loyalty or a Fort",
        ["reward_loyalty", "fort"],
        "reward_loyalty" if loyalty else "fort",
    )
    if not (loyalty and _reward_loyalty(muster)):
        _fort(muster)
    if not muster.selected:
        context.trace.step("8.4.2", "no Muster possible", [], None)
        return "march"
    move = context.command(muster.command())
    special = _special(context, move, "skirmish", options)
    if special is not None:
        context.special(special)
    return None


# ---------------------------------------------------------------------- 8.4.3 March


class _MarchPlan:
    """The groups a British March moves (8.4.3), worked on a copy of the state.
    War Parties taken by Common Cause move with their group as Tories (4.2.1): the
    Special Activity names them where they stood and Activates them, then the March
    moves them Active into the destinations it names in ``allied``."""

    def __init__(self, context: TurnContext) -> None:
        self.context = context
        state = context.state
        self.work = state.copy()
        self.left: dict[str, Counter[str]] = {}
        for space in context.within_bound(state.rules.spaces):
            if state.pieces(space, "british_regular"):
                self.left[space] = Counter(
                    {kind: _pieces(state, space, kind) for kind in (*BRITISH_CUBES, *WAR_PARTY)}
                )
        self.reach = {o: set(march_reach(state, "british", o)) for o in self.left}
        self.moves: Counter[tuple[str, str, str]] = Counter()
        self.used: Counter[tuple[str, str]] = Counter()
        self.joined: set[str] = set()
        self.destinations: list[str] = []
        self.purse = _purse(context)
        self.limit = context.space_limit(MARCH_DESTINATIONS)
        self.common_cause = context.special_allowed
        # the largest group by origin and ``allies``, until the next pieces move
        self._largest: dict[tuple[str, bool], Counter[str]] = {}

    def group(self, origin: str, destination: str, *, allies: bool) -> Counter[str]:
        """The largest group ``origin`` can send to ``destination``: Regulars, Tories
        1 for 1 with them, with ``allies`` War Parties (Active first) making up the
        difference; the pieces British Control of the origin needs, its last Tory and
        War Party, and its last Regular where it has British Control but no Active
        Support stay. Not to be changed: the same group answers every destination."""
        if destination not in self.reach[origin] or destination == origin:
            return Counter()
        key = (origin, allies)
        if key not in self._largest:
            self._largest[key] = self._largest_group(origin, allies=allies)
        return self._largest[key]

    def _largest_group(self, origin: str, *, allies: bool) -> Counter[str]:
        work, left = self.work, self.left[origin]
        controlled = british_controls(work, origin)
        keep = 1 if controlled and _support(work, origin) != 2 else 0
        regulars = min(left["british_regular"], work.pieces(origin, "british_regular") - keep)
        tories = min(left["tory"], work.pieces(origin, "tory") - 1)
        parties = work.pieces(origin, "war_party") - 1
        if not allies:
            parties = 0
        budget = _royalist_minus_rebellion(work, origin) - 1 if controlled else 10**6
        while regulars > 0:
            r = min(regulars, budget)
            t = max(min(tories, r, budget - r), 0)
            w = max(min(parties, r - t, budget - r - t), 0)
            group = Counter({"british_regular": r, "tory": t})
            active = min(w, left["war_party:active"], work.pieces(origin, "war_party", "active"))
            group["war_party:active"] = active
            group["war_party:underground"] = min(w - active, left["war_party:underground"])
            change = {kind: -n for kind, n in group.items() if n}
            if not controlled or control_if(work, origin, change) == "british":
                return +group
            regulars = r - 1
        return Counter()

    def allies_for(self, origin: str, destination: str) -> bool:
        """Common Cause (8.4.3): War Parties join a group entering an adjacent
        Province to add British Control, never a City (4.2.1)."""
        board = self.work.rules.map
        return (
            self.common_cause
            and board.is_province(destination)
            and board.are_adjacent(origin, destination)
        )

    def groups(self, destination: str, *, control: bool) -> dict[str, Counter[str]]:
        found = {}
        for origin in self.left:
            allies = control and self.allies_for(origin, destination)
            group = self.group(origin, destination, allies=allies)
            if group:
                found[origin] = group
        return found

    def move(self, origin: str, destination: str, group: Counter[str]) -> None:
        for kind, n in group.items():
            piece, _, status = kind.partition(":")
            if piece == "war_party":
                self.work.move_pieces(origin, destination, piece, n, status, "active")
                self.used[(origin, kind)] += n
                self.moves[(origin, destination, "war_party:active")] += n
                self.joined.add(destination)
            else:
                self.work.move_pieces(origin, destination, piece, n)
                self.moves[(origin, destination, kind)] += n
            self.left[origin][kind] -= n
        self._largest.clear()
        if destination not in self.destinations:
            self.destinations.append(destination)

    def may_select(self, destination: str) -> bool:
        if destination in self.destinations:
            return True
        return len(self.destinations) < self.limit and (self.purse.free or self.purse.left > 0)

    def select(self, destination: str) -> None:
        if destination not in self.destinations:
            self.purse.take()
            self.destinations.append(destination)

    def largest(self, groups: dict[str, Counter[str]], rule: str) -> str:
        size = Priority(
            "the largest group", lambda s, o: True, lambda s, o: sum(groups[o].values()), rule=rule
        )
        (origin,) = select_spaces(
            self.work, sorted(groups), [size], 1, self.context.rng, self.context.trace
        )
        return origin

    def command(self) -> Command:
        moves = tuple(sorted((o, d, k, n) for (o, d, k), n in self.moves.items() if n))
        return Command(
            "british", "march", tuple(sorted(self.destinations)), moves=moves,
            allied=tuple(sorted(self.joined)),
        )  # fmt: skip

    def common_cause_used(self) -> tuple[Entry, ...]:
        return _sorted_entries(self.used)


def _pieces(state: CoinState, space: str, kind: str) -> int:
    piece, _, status = kind.partition(":")
    return state.pieces(space, piece, status or None)


def _add_control(plan: _MarchPlan) -> None:
    """8.4.3 first bullet: British Control added to Cities, then Colonies, up to two
    spaces (Rebellion cubes there first, then highest Population), the largest
    groups moving first until Control is established."""
    work = plan.work

    def reachable(destination: str) -> bool:
        if british_controls(work, destination) or not plan.may_select(destination):
            return False
        total: Counter[str] = Counter()
        for group in plan.groups(destination, control=True).values():
            total.update(group)
        change = {kind.partition(":")[0]: 0 for kind in total}
        for kind, n in total.items():
            change[kind.partition(":")[0]] += n
        return bool(total) and control_if(work, destination, change) == "british"

    def key(s: CoinState, x: str) -> tuple[bool, int]:
        return cubes(s, x, "rebellion") > 0, _population(s, x)

    priorities = [
        Priority(
            "British Control of a City",
            lambda s, x: _is_city(s, x) and reachable(x),
            key,
            rule="8.4.3",
        ),
        Priority(
            "British Control of a Colony",
            lambda s, x: _is_colony(s, x) and reachable(x),
            key,
            rule="8.4.3",
        ),
    ]
    for _ in range(CONTROL_DESTINATIONS):
        chosen = select_spaces(
            work, _map_spaces(work), priorities, 1, plan.context.rng, plan.context.trace
        )
        if not chosen:
            return
        (destination,) = chosen
        plan.select(destination)
        while not british_controls(work, destination):
            groups = plan.groups(destination, control=True)
            origin = plan.largest(groups, "8.4.3")
            plan.move(origin, destination, groups[origin])


def _add_units(plan: _MarchPlan) -> None:
    """8.4.3 second bullet: to Population 1 or 2 spaces not at Active Support, a group
    adding Tories where Regulars are the only British units, then one adding Regulars
    where Tories are; destinations already selected first; the largest group able."""
    work = plan.work

    def open_space(s: CoinState, x: str) -> bool:
        return _population(s, x) in (1, 2) and _support(s, x) != 2 and plan.may_select(x)

    def able(x: str, kind: str) -> dict[str, Counter[str]]:
        return {o: g for o, g in plan.groups(x, control=False).items() if g[kind]}

    def wants(s: CoinState, x: str, have: str, lacks: str) -> bool:
        return (
            open_space(s, x)
            and bool(s.pieces(x, have))
            and not s.pieces(x, lacks)
            and bool(able(x, lacks))
        )

    def first_selected(s: CoinState, x: str) -> bool:
        return x in plan.destinations

    def wanting(have: str, lacks: str) -> Callable[[CoinState, str], bool]:
        return lambda s, x: wants(s, x, have, lacks)

    for have, lacks, name in (
        ("british_regular", "tory", "Tories where only Regulars are"),
        ("tory", "british_regular", "Regulars where only Tories are"),
    ):
        priority = Priority(f"add {name}", wanting(have, lacks), first_selected, rule="8.4.3")
        while True:
            chosen = select_spaces(
                work, _map_spaces(work), [priority], 1, plan.context.rng, plan.context.trace
            )
            if not chosen:
                break
            (destination,) = chosen
            groups = able(destination, lacks)
            plan.select(destination)
            origin = plan.largest(groups, "8.4.3")
            plan.move(origin, destination, groups[origin])


def _march_in_place(plan: _MarchPlan) -> None:
    """8.4.3 third bullet: March in place to Activate Underground Militia, spaces with
    Support first (ties by 8.2)."""
    options = plan.context.command_options or CommandOptions()
    if not options.march_in_place:
        return
    work = plan.work

    def activates(s: CoinState, x: str) -> bool:
        return (
            x not in plan.destinations
            and x in plan.context.within_bound([x])
            and bool(s.pieces(x, "militia", "underground"))
            and cubes(s, x, "royalist") >= CITY_CUBES
            and plan.may_select(x)
        )

    priorities = [
        Priority(
            "Activate Militia where there is Support",
            lambda s, x: activates(s, x) and _support(s, x) > 0,
            rule="8.4.3",
        ),
        Priority("Activate Militia", activates, rule="8.4.3"),
    ]
    while True:
        chosen = select_spaces(
            work, _map_spaces(work), priorities, 1, plan.context.rng, plan.context.trace
        )
        if not chosen:
            return
        plan.select(chosen[0])


def march_box(context: TurnContext, options: BritishOptions = DEFAULTS) -> str | None:
    """8.4.3 March to up to four destinations: British Control added (with Common
    Cause), Tories or Regulars added, then in place to Activate Militia; without
    Common Cause, Skirmish or else Naval Pressure. IF NONE: Muster.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1776"), "british", LoggedRandom(0))
    >>> march_box(context) is None, context.steps[0].move.name
    (True, 'march')
    """
    plan = _MarchPlan(context)
    _add_control(plan)
    _add_units(plan)
    _march_in_place(plan)
    if not plan.destinations:
        context.trace.step("8.4.3", "no March possible", [], None)
        return "muster"
    move = context.stamp(plan.command())
    used = plan.common_cause_used()
    if used:
        where = tuple(sorted({space for space, _, _ in used}))
        context.trace.step("8.4.3", "Common Cause: War Parties join as Tories", where, used)
        cause = SpecialActivity("british", "common_cause", move, where, used=used)
        context.special(with_howe(context.state, cause, context.rng, context.trace))
    context.command(move)
    if not used:
        special = _special(context, move, "skirmish", options)
        if special is not None:
            context.special(special)
    return None


# ---------------------------------------------------------------------- 8.4.4 Battle


def _common_cause_in_battle(state: CoinState, space: str) -> tuple[int, int, int]:
    """COMMON CAUSE in a Battle: the War Parties (Active, Underground) that, used as
    Tories, raise the British Force Level most, never the last Underground one;
    and how much they raise it (0: Common Cause would not help)."""
    regulars, tories = state.pieces(space, "british_regular"), state.pieces(space, "tory")
    active = state.pieces(space, "war_party", "active")
    underground = max(state.pieces(space, "war_party", "underground") - 1, 0)
    need = regulars - min(tories, regulars)
    best = (0, 0, 0)
    for a in range(min(active, need) + 1):
        for u in range(min(underground, need - a) + 1):
            gain = min(tories + a + u, regulars) - min(tories, regulars)
            gain += (active - a) // 2 - active // 2
            if gain > 0 and (gain, a + u, a) > (best[2], best[0] + best[1], best[0]):
                best = (a, u, gain)
    return best


def _battle_odds(
    context: TurnContext, space: str, use_allies: bool
) -> tuple[bool, tuple[int, int, int]]:
    """8.4.4: whether the Royalist Force Level plus modifiers would exceed the
    Rebellion's there, with the Common Cause the British would use."""
    state = context.state
    allies = _common_cause_in_battle(state, space) if use_allies else (0, 0, 0)
    trial = state.copy()
    if allies[1]:
        trial.flip(space, "war_party", allies[1], "underground", "active")
    choice = BattleChoice(space, "british", common_cause=allies[0] + allies[1])
    fought = resolve_battle(trial, choice, TrialDice(), context.battle_options)
    royal = force_level(trial, choice, "royalist")
    rebel = force_level(state, choice, "rebellion")
    royal += sum(m.value for m in fought.defender_loss_modifiers)
    rebel += sum(m.value for m in fought.attacker_loss_modifiers)
    return royal > rebel, allies


def battle_box(context: TurnContext, options: BritishOptions = DEFAULTS) -> str | None:
    """8.4.4 Battle in every space (and the West Indies) with Rebellion Forts or
    cubes where the Royalist Force Level plus modifiers exceeds the Rebellion's,
    most British pieces first; Common Cause wherever it raises the Force Level, else
    Skirmish (not in a Battle space) or Naval Pressure, before the Battles. IF NONE:
    March.

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> battle_box(TurnContext(load_scenario("lod", "1775"), "british", LoggedRandom(0)))
    'march'
    """
    state = context.state
    allies_ok = context.special_allowed
    odds: dict[str, tuple[int, int, int]] = {}
    for space in spaces(state, west_indies=True):
        if not (cubes(state, space, "rebellion") or state.pieces(space, "patriot_fort")):
            continue
        if not context.admits(Command("british", "battle", (space,))):
            continue
        wins, allies = _battle_odds(context, space, allies_ok)
        if wins:
            odds[space] = allies
    most = Priority(
        "most British pieces",
        lambda s, x: True,
        lambda s, x: s.faction_pieces(x, "british"),
        rule="8.4.4",
    )
    order = select_spaces(
        state, sorted(odds), [most], context.space_limit(len(odds)), context.rng, context.trace
    )
    purse = _purse(context)
    chosen = [space for space in order if purse.take()]
    if not chosen:
        context.trace.step("8.4.4", "no space selected for Battle", [], None)
        return "march"
    move = context.stamp(Command("british", "battle", tuple(sorted(chosen))))
    used = tuple(
        sorted(
            (space, kind, n)
            for space in chosen
            for kind, n in zip(WAR_PARTY, odds[space][:2], strict=True)
            if n
        )
    )
    if used:
        where = tuple(sorted({space for space, _, _ in used}))
        context.trace.step("8.4.4", "Common Cause raises the Force Level", where, used)
        cause = SpecialActivity("british", "common_cause", move, where, used=used)
        context.special(with_howe(context.state, cause, context.rng, context.trace, chosen))
    else:
        special = _special(context, move, "skirmish", options, battle_spaces=chosen)
        if special is not None:
            context.special(special)
    decisions = {
        space: BattleChoice(space, "british", common_cause=sum(odds[space][:2]))
        for space in chosen
        if sum(odds[space][:2])
    }
    context.battle(move, decisions)
    return None


# ---------------------------------------------------------------------- the flowchart


def british_boxes(options: BritishOptions = DEFAULTS) -> dict[str, Box]:
    """The British Command boxes by name under ``options``; each returns the box its
    "IF NONE" (or "unable to execute") names.

    >>> sorted(british_boxes())
    ['battle', 'garrison', 'march', 'muster']
    """
    return {
        "garrison": partial(garrison_box, options=options),
        "muster": partial(muster_box, options=options),
        "march": partial(march_box, options=options),
        "battle": partial(battle_box, options=options),
    }


BRITISH_BOXES: dict[str, Box] = british_boxes()
"""The British Command boxes under the default readings."""


def british_command(context: TurnContext, options: BritishOptions | None = None) -> None:
    """Run the British Command and Special Activity flowchart (8.4.1-8.4.4) on
    ``context``: the first box by the opening sentences, then each box's fall-through
    until one executes (or the British Pass, 2.3.3).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> context = TurnContext(load_scenario("lod", "1778"), "british", LoggedRandom(1))
    >>> british_command(context)
    >>> context.passed is None
    True
    """
    chosen = options or DEFAULTS
    run_boxes(context, british_boxes(chosen), first_box(context, chosen))
