"""Liberty or Death Winter Quarters phases: the Resources Phase (6.3), the Leader
Change (6.5.1) and the Reset Phase (6.7), which involve no choice, and the Support
(6.4) and Desertion (6.6) Phases, whose choices are legal-move views. Each returns a new
state and a log naming the rule of each step.

>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> after, log = resources_phase(state)
>>> after.track("british_resources") - state.track("british_resources")  # 3 Forts + 1 + 1 + 2
7
>>> log[0]
'6.3.1: the British earn 7 (Forts 3, British Controlled Cities 4, West Indies 0)'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from legalis.model.coin.scenarios import Release
from legalis.model.coin.state import CoinState
from legalis.model.core.multisets import SubMultisets
from legalis.model.core.views import MoveView, Refusal
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.special import blockade_layouts, layout_refusal

__all__ = [
    "LEADER_SUCCESSION",
    "REDEPLOYMENT_ORDER",
    "Desertion",
    "NavalWithdrawal",
    "SupportSpending",
    "apply_desertion",
    "apply_naval_withdrawal",
    "apply_support_spending",
    "british_release",
    "desertion_refusal",
    "desertion_steps",
    "desertion_view",
    "leader_change",
    "leader_redeployments",
    "naval_withdrawal_refusal",
    "naval_withdrawals",
    "redeploy_leader",
    "reset_phase",
    "resources_phase",
    "support_options",
    "support_spending_refusal",
    "support_view",
]

WEST_INDIES_BONUS = 5  # 6.3.1, 6.3.4: +5 for Controlling the West Indies
# 6.5.1: the Leader Change Summary, by Faction
LEADER_SUCCESSION = {
    "british": ("Gage", "Howe", "Clinton"),
    "french": ("Rochambeau", "Lauzun"),
    "indians": ("Brant", "Cornplanter", "Dragging Canoe"),
    "patriots": ("Washington",),
}


def _on_map(state: CoinState, piece: str) -> int:
    return sum(state.pieces(space, piece) for space in state.rules.spaces)


def _earn(state: CoinState, faction: str, amount: int) -> int:
    """Add ``amount`` to a Faction's Resources, never past 50 (6.3, 1.8)."""
    track = f"{faction}_resources"
    before = state.track(track)
    state.set_track(track, min(state.rules.data.track(track).hi, before + amount))
    return state.track(track) - before


def resources_phase(state: CoinState) -> tuple[CoinState, list[str]]:
    """6.3: each Faction's earnings, to at most 50.

    British: British Forts + population of British Controlled Cities not Blockaded,
    +5 with British Control of the West Indies. Indians: half the Villages on the
    map. Patriots: Patriot Forts + half the Rebellion Controlled spaces (the West
    Indies aside). French: before the Treaty of Alliance twice the Squadrons in the
    West Indies; after it, the FNI level + population of Cities not British
    Controlled, +5 with Rebellion Control of the West Indies.
    """
    new = state.copy()
    board = state.rules.map
    cities = board.of_type("City")
    log: list[str] = []
    forts = _on_map(state, "british_fort")
    controlled = sum(
        board.population(c) for c in cities
        if state.control(c) == "british" and not state.markers(c, "blockade")
    )  # fmt: skip
    indies = WEST_INDIES_BONUS if state.control(WEST_INDIES) == "british" else 0
    _earn(new, "british", forts + controlled + indies)
    log.append(f"6.3.1: the British earn {forts + controlled + indies} (Forts {forts}, "
               f"British Controlled Cities {controlled}, West Indies {indies})")  # fmt: skip
    villages = _on_map(state, "village")
    _earn(new, "indians", villages // 2)
    log.append(f"6.3.2: the Indians earn {villages // 2} (Villages {villages}, halved)")
    patriot_forts = _on_map(state, "patriot_fort")
    rebel = sum(state.control(s) == "rebellion" for s in state.rules.spaces)
    _earn(new, "patriots", patriot_forts + rebel // 2)
    log.append(f"6.3.3: the Patriots earn {patriot_forts + rebel // 2} (Forts {patriot_forts}, "
               f"Rebellion Controlled spaces {rebel}, halved)")  # fmt: skip
    if state.flag("toa_played"):
        fni = state.track("fni")
        open_cities = sum(board.population(c) for c in cities if state.control(c) != "british")
        bonus = WEST_INDIES_BONUS if state.control(WEST_INDIES) == "rebellion" else 0
        _earn(new, "french", fni + open_cities + bonus)
        log.append(f"6.3.4: the French earn {fni + open_cities + bonus} (FNI {fni}, Cities "
                   f"not British Controlled {open_cities}, West Indies {bonus})")  # fmt: skip
    else:
        squadrons = state.markers(WEST_INDIES, "blockade")
        _earn(new, "french", 2 * squadrons)
        log.append(f"6.3.4: the French earn {2 * squadrons} (Squadrons in the West Indies "
                   f"{squadrons}, doubled; before the Treaty of Alliance)")  # fmt: skip
    return new, log


def _current(state: CoinState, faction: str) -> str | None:
    in_play = [n for n in LEADER_SUCCESSION[faction] if state.leader(n) is not None]
    return in_play[0] if in_play else None


def leader_change(state: CoinState, faction: str) -> tuple[CoinState, list[str]]:
    """6.5.1: the Faction first on the card on deck replaces its Leader with the
    next of the Leader Change Summary where it stands; the French only after the
    Treaty of Alliance; no change past the last Leader, or for the Patriots.

    >>> state = CoinState.new("lod")
    >>> state.set_leader("Gage", "Boston")
    >>> after, log = leader_change(state, "british")
    >>> after.leader("Howe"), after.leader("Gage")
    ('Boston', None)
    """
    new = state.copy()
    order = LEADER_SUCCESSION[faction]
    current = _current(state, faction)
    if faction == "french" and not state.flag("toa_played"):
        return new, ["6.5.1: no French Leader Change before the Treaty of Alliance"]
    if current is None or current == order[-1]:
        return new, [f"6.5.1: no further Leader Change for the {faction}"]
    successor = order[order.index(current) + 1]
    where = state.leader(current)
    new.set_leader(current, None)
    new.set_leader(successor, where)
    return new, [f"6.5.1: {successor} replaces {current} ({where})"]


# 6.5.2: the order in which the Factions redeploy their Leaders
REDEPLOYMENT_ORDER = ("indians", "french", "british", "patriots")


def leader_redeployments(state: CoinState, faction: str) -> list[str]:
    """6.5.2: where the Faction may redeploy its Leader: a space with its pieces, or
    Available; staying put is always allowed. Empty when it has no Leader in play.

    >>> state = CoinState.new("lod")
    >>> state.set_leader("Washington", "Massachusetts")
    >>> state.move_pieces("Available", "Virginia", "militia", 1)
    >>> leader_redeployments(state, "patriots")
    ['Available', 'Massachusetts', 'Virginia']
    """
    leader = _current(state, faction)
    if leader is None:
        return []
    here = {s for s in state.rules.spaces if state.faction_pieces(s, faction)}
    return sorted(here | {"Available", str(state.leader(leader))})


def redeploy_leader(
    state: CoinState, faction: str, destination: str
) -> tuple[CoinState, list[str]]:
    """6.5.2: the Faction's Leader to ``destination`` (one of
    :func:`leader_redeployments`); anything else raises :class:`IllegalMoveError`.

    >>> state = CoinState.new("lod")
    >>> state.set_leader("Brant", "Quebec")
    >>> state.move_pieces("Available", "Northwest", "war_party", 2)
    >>> redeploy_leader(state, "indians", "Northwest")[0].leader("Brant")
    'Northwest'
    """
    allowed = leader_redeployments(state, faction)
    if destination not in allowed:
        raise IllegalMoveError(
            f"the {faction} Leader may go to a space with {faction} pieces or Available, "
            f"not {destination}",
            rule="6.5.2",
        )
    new = state.copy()
    leader = _current(state, faction)
    assert leader is not None  # leader_redeployments is empty without one
    new.set_leader(leader, destination)
    return new, [f"6.5.2: {leader} redeployed to {destination}"]


def british_release(
    state: CoinState, releases: tuple[Release, ...], year: int
) -> tuple[CoinState, list[str]]:
    """6.5.3: at the Winter Quarters Round after ``year``, the scenario's British
    Release Date Schedule moves pieces from Unavailable to Available; fewer there,
    only those.

    >>> from legalis.model.coin.scenarios import scenario_info
    >>> info = scenario_info("lod", "1775")
    >>> after, log = british_release(info.state, info.releases, 1775)
    >>> after.pieces("Unavailable", "british_regular"), log[0]
    (6, '6.5.3: 6 british_regular from Unavailable to Available')
    """
    new = state.copy()
    due = [r for r in releases if r.after == year]
    if not due:
        return new, [f"6.5.3: no British release after {year}"]
    log = []
    for piece, n in due[0].pieces.items():
        moved = min(n, new.pieces("Unavailable", piece))
        if moved:
            new.move_pieces("Unavailable", "Available", piece, moved)
        log.append(f"6.5.3: {moved} {piece} from Unavailable to Available")
    return new, log


@dataclass(frozen=True)
class NavalWithdrawal:
    """6.5.4 after the Treaty of Alliance: the City whose Blockade goes to the West
    Indies (None when no City has one) and the remaining Blockades rearranged on the
    Cities (``layout``: City, number, sorted)."""

    withdrawn: str | None = None
    layout: tuple[tuple[str, int], ...] = ()


def _blockades_on_cities(state: CoinState) -> dict[str, int]:
    cities = state.rules.map.of_type("City")
    return {c: state.markers(c, "blockade") for c in cities if state.markers(c, "blockade")}


def naval_withdrawals(state: CoinState) -> list[NavalWithdrawal]:
    """6.5.4: every way to withdraw a Blockade and rearrange the rest; none before
    the Treaty of Alliance.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.move_marker("Unavailable", "Boston", "blockade", 2)
    >>> [(m.withdrawn, m.layout) for m in naval_withdrawals(state)][:2]
    [('Boston', (('Boston', 1),)), ('Boston', (('Charles Town', 1),))]
    """
    if not state.flag("toa_played"):
        return []
    on = _blockades_on_cities(state)
    if not on:
        return [NavalWithdrawal()]
    cities = state.rules.map.of_type("City")
    rest = sum(on.values()) - 1
    return [
        NavalWithdrawal(city, layout)
        for city in sorted(on)
        for layout in (blockade_layouts(cities, rest) if rest else [()])
    ]


def naval_withdrawal_refusal(state: CoinState, move: object) -> Refusal | None:
    """``None`` if ``move`` is a legal 6.5.4 step, else why not."""
    if not state.flag("toa_played"):
        return Refusal("no French Naval Intervention step before the Treaty of Alliance", "6.5.4")
    if not isinstance(move, NavalWithdrawal):
        return Refusal("a NavalWithdrawal", "6.5.4")
    on = _blockades_on_cities(state)
    if not on:
        return None if move == NavalWithdrawal() else Refusal("no Blockade on a City", "6.5.4")
    if move.withdrawn not in on:
        return Refusal("one Blockade goes from a Blockaded City to the West Indies", "6.5.4")
    cities = state.rules.map.of_type("City")
    return layout_refusal(move.layout, cities, sum(on.values()) - 1, "6.5.4")


def apply_naval_withdrawal(state: CoinState, move: NavalWithdrawal) -> tuple[CoinState, list[str]]:
    """6.5.4: FNI one level lower, one Blockade to the West Indies, the rest as laid.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.set_track("fni", 1)
    >>> state.move_marker("Unavailable", "Boston", "blockade", 1)
    >>> after, _ = apply_naval_withdrawal(state, NavalWithdrawal("Boston"))
    >>> after.track("fni"), after.markers("West Indies", "blockade"), after.markers("Boston",
    ...                                                                            "blockade")
    (0, 1, 0)
    """
    refused = naval_withdrawal_refusal(state, move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    new = state.copy()
    new.set_track("fni", max(0, new.track("fni") - 1))
    log = [f"6.5.4: FNI lowered to {new.track('fni')}"]
    if move.withdrawn is not None:
        new.move_marker(move.withdrawn, WEST_INDIES, "blockade")
        log.append(f"6.5.4: the Blockade on {move.withdrawn} goes to the West Indies")
        for city, n in _blockades_on_cities(new).items():
            new.take_marker(city, "blockade", n)
        for city, n in move.layout:
            new.add_marker(city, "blockade", n)
            log.append(f"6.5.4: {n} Blockade(s) on {city}")
    return new, log


def reset_phase(state: CoinState) -> tuple[CoinState, list[str]]:
    """6.7 (the steps without a choice): Raid and Propaganda markers off the map,
    every Faction Eligible, cubes from Casualties to Available, every Militia and
    War Party Underground. Revealing the next card and the Winter Quarters card's
    Event belong to the deck.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 2, new_status="active")
    >>> reset_phase(state)[0].pieces("Virginia", "militia", "underground")
    2
    """
    new = state.copy()
    log: list[str] = []
    for marker in ("raid", "propaganda"):
        taken = 0
        for space in state.rules.spaces:
            n = new.markers(space, marker)
            if n:
                new.take_marker(space, marker, n)
                taken += n
        log.append(f"6.7: {taken} {marker.capitalize()} marker(s) removed")
    for faction in state.rules.data.faction_ids():
        new.set_eligibility(faction, "eligible")
    log.append("6.7: every Faction Eligible")
    for piece in ("british_regular", "tory", "french_regular", "continental"):
        n = new.pieces("Casualties", piece)
        if n:
            new.move_pieces("Casualties", "Available", piece, n)
            log.append(f"6.7: {n} {piece} from Casualties to Available")
    for space in state.rules.spaces:
        for piece in ("militia", "war_party"):
            active = new.pieces(space, piece, "active")
            if active:
                new.flip(space, piece, active, "active", "underground")
    log.append("6.7: every Militia and War Party Underground")
    return new, log


# ---------------------------------------------------------------------- 6.6 Desertion

DESERTION_SHARE = 5  # 6.6: one in five, rounded down
# 6.6.1, 6.6.2: the piece, the Faction choosing the first to desert, the one choosing
# the rest
DESERTERS = (
    ("militia", "indians", "patriots", "6.6.1"),
    ("continental", "indians", "patriots", "6.6.1"),
    ("tory", "french", "british", "6.6.2"),
)
_KINDS = {"militia": ("militia:underground", "militia:active")}


@dataclass(frozen=True)
class Desertion:
    """One step of the Desertion Phase: the Faction choosing, the piece type, and
    the pieces removed (``removed``: space, kind, number, sorted; a Militia's kind
    names its status)."""

    chooser: str
    piece: str
    removed: tuple[tuple[str, str, int], ...]

    def to_json(self) -> dict[str, object]:
        return {"chooser": self.chooser, "piece": self.piece,
                "removed": [list(r) for r in self.removed]}  # fmt: skip


def desertion_steps(state: CoinState) -> list[tuple[str, str, int, str]]:
    """6.6: who chooses how many of which pieces, in order: (Faction, piece, number,
    rule). One in five Militia, Continentals and Tories on the map desert; the
    Indians choose the first Militia and first Continental, the French the first
    Tory, and the owners the rest.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 11)
    >>> desertion_steps(state)
    [('indians', 'militia', 1, '6.6.1'), ('patriots', 'militia', 1, '6.6.1')]
    """
    steps = []
    for piece, first, rest, rule in DESERTERS:
        due = sum(state.pieces(s, piece) for s in state.rules.spaces) // DESERTION_SHARE
        if due:
            steps.append((first, piece, 1, rule))
        if due > 1:
            steps.append((rest, piece, due - 1, rule))
    return steps


def _bins(state: CoinState, piece: str) -> dict[tuple[str, str], int]:
    bins: dict[tuple[str, str], int] = {}
    for space in state.rules.spaces:
        for kind in _KINDS.get(piece, (piece,)):
            name, _, status = kind.partition(":")
            n = state.pieces(space, name, status or None)
            if n:
                bins[(space, kind)] = n
    return bins


class _DesertionView(MoveView[Desertion]):
    """Every way for ``chooser`` to remove ``n`` of ``piece`` from the map, counted
    and ranked as sub-multisets of the pieces by space and status."""

    def __init__(self, state: CoinState, chooser: str, piece: str, n: int) -> None:
        self.state, self.chooser, self.piece, self.n = state, chooser, piece, n
        self.picks = SubMultisets(_bins(state, piece), n, n)

    def count(self) -> int:
        return self.picks.count()

    def nth(self, index: int) -> Desertion:
        chosen = self.picks.nth(index)
        tally: dict[tuple[str, str], int] = {}
        for key in chosen:
            tally[key] = tally.get(key, 0) + 1
        removed = tuple(sorted((space, kind, k) for (space, kind), k in tally.items()))
        return Desertion(self.chooser, self.piece, removed)

    def __iter__(self) -> Iterator[Desertion]:
        for index in range(self.count()):
            yield self.nth(index)

    def refusal(self, move: object) -> Refusal | None:
        return desertion_refusal(self.state, move, self.chooser, self.piece, self.n)


def desertion_view(state: CoinState, chooser: str, piece: str, n: int) -> MoveView[Desertion]:
    """The legal choices of one Desertion step (:func:`desertion_steps`).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "tory", 3)
    >>> state.move_pieces("Available", "Boston", "tory", 2)
    >>> sorted(m.removed for m in desertion_view(state, "french", "tory", 1))
    [(('Boston', 'tory', 1),), (('Virginia', 'tory', 1),)]
    """
    return _DesertionView(state, chooser, piece, n)


def desertion_refusal(
    state: CoinState, move: object, chooser: str, piece: str, n: int
) -> Refusal | None:
    """``None`` if ``move`` is this Desertion step done legally, else why not.

    >>> state = CoinState.new("lod")
    >>> desertion_refusal(state, Desertion("french", "tory", (("Boston", "tory", 1),)),
    ...                   "french", "tory", 1).rule
    '6.6.2'
    """
    rule = "6.6.1" if piece in ("militia", "continental") else "6.6.2"
    if not isinstance(move, Desertion) or (move.chooser, move.piece) != (chooser, piece):
        return Refusal(f"the {chooser} choose {piece} to desert now", rule)
    if sum(k for _, _, k in move.removed) != n or any(k < 1 for _, _, k in move.removed):
        return Refusal(f"exactly {n} {piece} desert in this step", rule)
    if list(move.removed) != sorted(move.removed) or len({r[:2] for r in move.removed}) != len(
        move.removed
    ):
        return Refusal("one entry per space and kind, sorted", rule)
    bins = _bins(state, piece)
    for space, kind, k in move.removed:
        if bins.get((space, kind), 0) < k:
            return Refusal(f"{space} has fewer than {k} {kind} on the map", rule)
    return None


def apply_desertion(state: CoinState, move: Desertion, n: int) -> tuple[CoinState, list[str]]:
    """The state after one Desertion step: the pieces go to Available (6.6).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "tory", 5)
    >>> move = Desertion("french", "tory", (("Boston", "tory", 1),))
    >>> after, log = apply_desertion(state, move, 1)
    >>> after.pieces("Boston", "tory"), log[0]
    (4, '6.6.2: the french choose 1 tory in Boston to desert')
    """
    refused = desertion_refusal(state, move, move.chooser, move.piece, n)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    new = state.copy()
    rule = "6.6.1" if move.piece in ("militia", "continental") else "6.6.2"
    log = []
    for space, kind, k in move.removed:
        name, _, status = kind.partition(":")
        new.move_pieces(space, "Available", name, k, status or None)
        log.append(f"{rule}: the {move.chooser} choose {k} {kind} in {space} to desert")
    return new, log


# ---------------------------------------------------------------------- 6.4 Support

SUPPORT_MOST_LEVELS = 2  # 6.4.1, 6.4.2: at most two levels per space
# 6.4.1 Reward Loyalty (British) and 6.4.2 Committees of Correspondence (Patriots):
# the markers each Resource removes first, and the direction of the shift
SUPPORT_ACTIONS = {
    "british": (("propaganda", "raid"), 1, "6.4.1"),
    "patriots": (("raid",), -1, "6.4.2"),
}
Spend = tuple[tuple[tuple[str, str, int], ...], int, int]  # markers removed, levels, cost


@dataclass(frozen=True)
class SupportSpending:
    """The British Reward Loyalty or the Patriots' Committees of Correspondence in
    one Support Phase: the markers removed (space, marker, number) and the levels
    shifted (space, levels), both sorted. Each costs one Resource."""

    faction: str
    removed: tuple[tuple[str, str, int], ...] = ()
    shifted: tuple[tuple[str, int], ...] = ()

    @property
    def cost(self) -> int:
        return sum(n for _, _, n in self.removed) + sum(n for _, n in self.shifted)

    def to_json(self) -> dict[str, object]:
        return {"faction": self.faction, "removed": [list(r) for r in self.removed],
                "shifted": [list(s) for s in self.shifted]}  # fmt: skip


def _support_eligible(state: CoinState, faction: str, space: str) -> bool:
    """6.4.1: British Control with a British Regular and a Tory; 6.4.2: Rebellion
    Control with a Patriot piece."""
    if faction == "british":
        return (state.control(space) == "british" and state.pieces(space, "british_regular") > 0
                and state.pieces(space, "tory") > 0)  # fmt: skip
    return state.control(space) == "rebellion" and state.faction_pieces(space, "patriots") > 0


def _room(state: CoinState, faction: str, space: str) -> int:
    if not state.can_have_support(space):
        return 0
    value = state.support_value(space)
    room = 2 - value if SUPPORT_ACTIONS[faction][1] > 0 else value + 2
    return min(SUPPORT_MOST_LEVELS, room)


def support_options(state: CoinState, faction: str, space: str) -> list[Spend]:
    """Every way to spend in one space (6.4.1, 6.4.2): each Resource removes a marker
    (the Faction picks which) and, once none is left, shifts a level, at most two.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 1)
    >>> state.add_marker("Virginia", "raid")
    >>> [(removed, levels) for removed, levels, _ in support_options(state, "patriots",
    ...                                                               "Virginia")]
    [((('Virginia', 'raid', 1),), 0), ((('Virginia', 'raid', 1),), 1), \
((('Virginia', 'raid', 1),), 2)]
    """
    if not _support_eligible(state, faction, space):
        return []
    kinds = SUPPORT_ACTIONS[faction][0]
    have = {m: state.markers(space, m) for m in kinds}
    markers = sum(have.values())
    found: list[Spend] = []
    for taken in _marker_picks(space, kinds, have):
        k = sum(n for _, _, n in taken)
        if k and k < markers:
            found.append((taken, 0, k))
    everything = tuple((space, m, have[m]) for m in kinds if have[m])
    for levels in range(_room(state, faction, space) + 1):
        if markers + levels:
            found.append((everything, levels, markers + levels))
    return found


def _marker_picks(
    space: str, kinds: tuple[str, ...], have: dict[str, int]
) -> list[tuple[tuple[str, str, int], ...]]:
    picks: list[tuple[tuple[str, str, int], ...]] = [()]
    for kind in kinds:
        picks = [(*p, *(((space, kind, n),) if n else ())) for p in picks
                 for n in range(have[kind] + 1)]  # fmt: skip
    return picks


class _SupportView(MoveView[SupportSpending]):
    """Every Support Phase spending of one Faction within its Resources (nothing
    spent included), counted over spaces by Resources spent and ranked the same way."""

    def __init__(self, state: CoinState, faction: str) -> None:
        self.state, self.faction = state, faction
        self.budget = state.track(f"{faction}_resources")
        self.options = [
            (space, support_options(state, faction, space)) for space in sorted(state.rules.spaces)
        ]
        self.options = [(s, o) for s, o in self.options if o]
        self._memo: dict[tuple[int, int], int] = {}

    def _ways(self, at: int, spent: int) -> int:
        if spent > self.budget:
            return 0
        if at == len(self.options):
            return 1
        key = (at, spent)
        if key not in self._memo:
            total = self._ways(at + 1, spent)
            for _, _, cost in self.options[at][1]:
                total += self._ways(at + 1, spent + cost)
            self._memo[key] = total
        return self._memo[key]

    def count(self) -> int:
        return self._ways(0, 0)

    def nth(self, index: int) -> SupportSpending:
        if not 0 <= index < self.count():
            raise IndexError(index)
        removed: list[tuple[str, str, int]] = []
        shifted: list[tuple[str, int]] = []
        spent = 0
        for at, (space, options) in enumerate(self.options):
            for option in (None, *options):
                cost = 0 if option is None else option[2]
                ways = self._ways(at + 1, spent + cost)
                if index < ways:
                    if option is not None:
                        removed += option[0]
                        if option[1]:
                            shifted.append((space, option[1]))
                    spent += cost
                    break
                index -= ways
        return SupportSpending(self.faction, tuple(sorted(removed)), tuple(sorted(shifted)))

    def __iter__(self) -> Iterator[SupportSpending]:
        for index in range(self.count()):
            yield self.nth(index)

    def refusal(self, move: object) -> Refusal | None:
        return support_spending_refusal(self.state, move)


def support_view(state: CoinState, faction: str) -> MoveView[SupportSpending]:
    """The legal Reward Loyalty (British) or Committees of Correspondence (Patriots)
    spendings of a Support Phase (6.4), nothing spent included.

    >>> state = CoinState.new("lod")
    >>> state.set_track("british_resources", 1)
    >>> state.move_pieces("Available", "Virginia", "british_regular", 1)
    >>> state.move_pieces("Available", "Virginia", "tory", 1)
    >>> [m.shifted for m in support_view(state, "british")]
    [(), (('Virginia', 1),)]
    """
    if faction not in SUPPORT_ACTIONS:
        raise InputError(f"no Support Phase spending for {faction!r}", path="faction",
                         allowed=sorted(SUPPORT_ACTIONS))  # fmt: skip
    return _SupportView(state, faction)


def support_spending_refusal(state: CoinState, move: object) -> Refusal | None:
    """``None`` if ``move`` is a legal Support Phase spending, else why not."""
    if not isinstance(move, SupportSpending) or move.faction not in SUPPORT_ACTIONS:
        return Refusal("a Reward Loyalty or Committees of Correspondence spending", "6.4")
    rule = SUPPORT_ACTIONS[move.faction][2]
    spaces = sorted({s for s, _, _ in move.removed} | {s for s, _ in move.shifted})
    for space in spaces:
        mine = (tuple(r for r in move.removed if r[0] == space),
                dict(move.shifted).get(space, 0))  # fmt: skip
        if mine not in [(taken, levels) for taken, levels, _ in
                        support_options(state, move.faction, space)]:  # fmt: skip
            return Refusal(f"{space}: not a way to spend there", rule)
    if tuple(sorted(move.removed)) != move.removed or tuple(sorted(move.shifted)) != move.shifted:
        return Refusal("entries sorted", rule)
    if move.cost > state.track(f"{move.faction}_resources"):
        return Refusal(f"it costs {move.cost}; the {move.faction} have "
                       f"{state.track(f'{move.faction}_resources')}", rule)  # fmt: skip
    return None


def apply_support_spending(state: CoinState, move: SupportSpending) -> tuple[CoinState, list[str]]:
    """The state after a Support Phase spending: Resources paid, markers off, levels
    shifted.

    >>> state = CoinState.new("lod")
    >>> state.set_track("patriots_resources", 2)
    >>> state.move_pieces("Available", "Virginia", "militia", 1)
    >>> move = SupportSpending("patriots", shifted=(("Virginia", 2),))
    >>> after, _ = apply_support_spending(state, move)
    >>> after.support("Virginia"), after.track("patriots_resources")
    ('active_opposition', 0)
    """
    refused = support_spending_refusal(state, move)
    if refused is not None:
        raise IllegalMoveError(refused.reason, rule=refused.rule)
    _, direction, rule = SUPPORT_ACTIONS[move.faction]
    new = state.copy()
    track = f"{move.faction}_resources"
    new.set_track(track, new.track(track) - move.cost)
    log = [f"{rule}: the {move.faction} spend {move.cost}"]
    for space, marker, n in move.removed:
        new.take_marker(space, marker, n)
        log.append(f"{rule}: {n} {marker} marker(s) off {space}")
    for space, levels in move.shifted:
        after = new.shift_support(space, direction * levels)
        log.append(f"{rule}: {space} shifted {levels} level(s) to {after}")
    return new, log
