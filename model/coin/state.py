"""The state of a COIN game: one class for Liberty or Death and Fire in the Lake.

A :class:`CoinState` holds the pieces of every location (map spaces and holding
boxes) by piece type and status, the Support level of every space, the tracks,
the markers, the Capabilities and Momentum in force, Faction eligibility, flags,
Leaders and the card lists a game keeps. Everything game-specific comes from the
game's :class:`~legalis.model.coin.gamedata.GameData` and map, bundled in a shared
:class:`CoinRules`.

The state is stored flat (one list of counts per location and slot) so that
``copy()`` is a handful of list copies. The methods that change it are low-level
primitives for the effects interpreter: they keep the bookkeeping straight but
check no rule; the rules' limits are read through :mod:`legalis.model.coin.limits`
and :meth:`CoinState.invariant_problems`.

>>> state = CoinState.new("lod")
>>> state.available("militia"), state.pieces("Boston", "militia")
(15, 0)
>>> state.move_pieces("Available", "Boston", "militia", 2)
>>> state.pieces("Boston", "militia", "underground"), state.control("Boston")
(2, 'rebellion')
>>> state_from_json(state.to_json(), "lod") == state
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from copy import deepcopy
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from legalis.model.coin.effects import SetLasting, side_from_toml, validated
from legalis.model.coin.gamedata import (
    ELIGIBILITY,
    SUPPORT_LEVELS,
    GameData,
    MarkerType,
    PieceType,
    load_game_data,
)
from legalis.model.coin.mapdata import CoinMap, load_map
from legalis.model.errors import InputError

__all__ = ["END_ELIGIBILITY", "RECORDS", "CoinRules", "CoinState", "rules_for", "state_from_json"]

END_ELIGIBILITY = ("eligible", "ineligible", "ineligible_through_next")
"""Where an event sends a Faction's eligibility when the card ends (2.3): Eligible
(it stays or becomes so), Ineligible, or Ineligible through the next card too."""
RECORDS = (
    "eligibility_at_end",
    "deferred",
    "battle_modifiers",
    "lasting_rules",
    "procedures",
    "card_actions",
)
"""The state's records of what events leave for later: the Sequence of Play's
eligibility at the card's end, effects deferred to a phase, modifiers of the next
Battle, the rules of Capabilities and Momentum in force, rules procedures and card
actions the project does not carry out itself."""

RULE_CONSERVATION = "1.4.1"
_NOT_LISTED = object()  # a Leader name the state does not list


@dataclass(frozen=True)
class _Location:
    name: str
    index: int
    is_space: bool
    type: str  # the space type, or "box"
    population: int
    country: str | None
    stacking_cap: int | None  # None: no stacking limit here
    can_support: bool
    control: tuple[int, ...]  # indexes of the control rules that apply here


class CoinRules:
    """A game's data, its map and the indexes every state of that game shares.

    Locations are the map spaces in map order, then the game's boxes in
    ``game.toml`` order. Each piece type has one slot per status it may have.

    >>> rules = rules_for("fitl")
    >>> rules.locations[0], rules.locations[-1], len(rules.spaces)
    ('Hue', 'Casualties', 47)
    """

    def __init__(self, data: GameData, board: CoinMap) -> None:
        self.data = data
        self.map = board
        self.game = data.game
        box_names = [box.name for box in data.boxes]
        for name in board.boxes:
            if name not in box_names:
                raise InputError(
                    f"the map's box {name!r} is not a box of the game data",
                    source=f"{data.game}/game.toml",
                    path="box",
                    allowed=box_names,
                )
        self.spaces: tuple[str, ...] = tuple(board.names())
        self.boxes: tuple[str, ...] = tuple(box_names)
        self.locations: tuple[str, ...] = self.spaces + self.boxes
        self.n_spaces = len(self.spaces)
        self.loc_index: dict[str, int] = {}
        for index, name in enumerate(self.locations):
            self.loc_index[name] = index
        for box in data.boxes:
            self.loc_index.setdefault(box.id, self.loc_index[box.name])
        self.piece_types: tuple[PieceType, ...] = data.pieces
        self.piece_index: dict[str, int] = {}
        for index, piece in enumerate(data.pieces):
            self.piece_index[piece.id] = index
            self.piece_index.setdefault(piece.name, index)
        # slot of (piece, status); slot_base[p] is the slot of the piece's default status
        self.slot_base: list[int] = []
        self.slot_piece: list[int] = []
        self.slot_status: list[str] = []
        for index, piece in enumerate(data.pieces):
            self.slot_base.append(len(self.slot_piece))
            for status in piece.statuses:
                self.slot_piece.append(index)
                self.slot_status.append(status)
        self.n_slots = len(self.slot_piece)
        factions = data.faction_ids()
        self.faction_ids = factions
        self.faction_index = {faction: i for i, faction in enumerate(factions)}
        self.slot_faction = [self.faction_index[data.pieces[p].faction] for p in self.slot_piece]
        # each Faction's slots, for counting its pieces at a location
        self.faction_slots = [
            [slot for slot, f in enumerate(self.slot_faction) if f == index]
            for index in range(len(factions))
        ]
        self.stacking_slots = [
            slot for slot, p in enumerate(self.slot_piece) if data.pieces[p].stacking
        ]
        # (location, piece type, status) -> the slots it counts, as asked so far (one
        # slot's index, or a slice of several): counting pieces is the commonest
        # question a move generator asks
        self.slot_ranges: dict[tuple[str, str, str | None], int | slice] = {}
        # (location, Faction) -> the indices of its slots there, as asked so far
        self.faction_counts_at: dict[tuple[str, str], tuple[int, ...]] = {}
        self.marker_types: tuple[MarkerType, ...] = data.markers
        self.marker_index = {marker.id: i for i, marker in enumerate(data.markers)}
        for i, marker in enumerate(data.markers):
            self.marker_index.setdefault(marker.name, i)
        self.track_index = {track.id: i for i, track in enumerate(data.tracks)}
        self.flag_index = {flag: i for i, flag in enumerate(data.flag_ids())}
        self.leader_names = [leader.name for leader in data.leaders]
        self.list_ids = [card_list.id for card_list in data.card_lists]
        self.info = tuple(self._location(i) for i in range(len(self.locations)))
        self.box_allows = {
            self.loc_index[box.name]: frozenset(self.piece_index[p] for p in box.pieces)
            for box in data.boxes
        }
        self.available = self.loc_index[data.available_box]
        self.blocking_markers = [
            i for i, marker in enumerate(data.markers) if marker.blocks_support
        ]

    def _location(self, index: int) -> _Location:
        name = self.locations[index]
        data = self.data
        controls = []
        if index < self.n_spaces:
            info = self.map.space(name)
            for c, rule in enumerate(data.control):
                if info.type in rule.space_types:
                    controls.append(c)
            return _Location(
                name,
                index,
                True,
                info.type,
                info.population,
                info.country,
                data.stacking_max if info.type in data.stacking_space_types else None,
                info.type in data.support_space_types and info.population > 0,
                tuple(controls),
            )
        box = data.box(name)
        for c, rule in enumerate(data.control):
            if name in rule.boxes:
                controls.append(c)
        return _Location(
            name,
            index,
            False,
            "box",
            0,
            None,
            data.stacking_max if box.stacking else None,
            False,
            tuple(controls),
        )

    # ---------------------------------------------------------------- lookups

    def location(self, name: str, *, path: str = "location") -> int:
        """The index of a space or box (a box's id is accepted too).

        >>> rules_for("lod").location("west_indies") == rules_for("lod").location("West Indies")
        True
        """
        found = self.loc_index.get(name)
        if found is None:
            if self.map.has_space(name):  # pragma: no cover - every space is a location
                return self.loc_index[name]
            raise InputError(
                f"unknown {self.game} space or box {name!r}", path=path, allowed=self.locations
            )
        return found

    def space(self, name: str, *, path: str = "space") -> int:
        """The index of a map space; a box or an unknown name is an :class:`InputError`.

        >>> rules_for("lod").space("Boston")
        1
        """
        found = self.loc_index.get(name)
        if found is None or found >= self.n_spaces:
            self.map.space(name, path=path)
            raise InputError(f"{name!r} is a box, not a space", path=path, allowed=self.spaces)
        return found

    def piece(self, piece_type: str, *, path: str = "piece_type") -> int:
        """The index of a piece type, by id or name.

        >>> rules_for("fitl").piece("NVA Bases") == rules_for("fitl").piece("nva_base")
        True
        """
        found = self.piece_index.get(piece_type)
        if found is None:
            raise InputError(
                f"unknown {self.game} piece type {piece_type!r}",
                path=path,
                allowed=[p.id for p in self.piece_types],
            )
        return found

    def slot(self, piece: int, status: str | None, *, path: str = "status") -> int:
        """The slot of a piece type (index) with a status (None: its default status).

        >>> rules = rules_for("lod")
        >>> rules.slot(rules.piece("militia"), "active") - rules.slot(rules.piece("militia"), None)
        1
        """
        kind = self.piece_types[piece]
        if status is None:
            return self.slot_base[piece]
        if status not in kind.statuses:
            raise InputError(f"{kind.name} cannot be {status!r}", path=path, allowed=kind.statuses)
        return self.slot_base[piece] + kind.statuses.index(status)

    def marker(self, marker: str, *, path: str = "marker") -> int:
        """The index of a marker kind, by id or name.

        >>> rules_for("fitl").marker("sabotage")
        1
        """
        found = self.marker_index.get(marker)
        if found is None:
            raise InputError(
                f"unknown {self.game} marker {marker!r}",
                path=path,
                allowed=[m.id for m in self.marker_types],
            )
        return found

    def track(self, track: str, *, path: str = "track") -> int:
        """The index of a track.

        >>> rules_for("lod").track("fni")
        4
        """
        found = self.track_index.get(track)
        if found is None:
            raise InputError(
                f"unknown {self.game} track {track!r}", path=path, allowed=self.track_index
            )
        return found

    def flag(self, flag: str, *, path: str = "flag") -> int:
        """The index of a flag.

        >>> rules_for("lod").flag("toa_played")
        0
        """
        found = self.flag_index.get(flag)
        if found is None:
            raise InputError(
                f"unknown {self.game} flag {flag!r}", path=path, allowed=self.flag_index
            )
        return found

    def faction(self, faction: str, *, path: str = "faction") -> int:
        """The index of a Faction, by id or name.

        >>> rules_for("fitl").faction("VC")
        3
        """
        found = self.faction_index.get(faction)
        if found is None:
            found = self.faction_index.get(self.data.faction(faction, path=path).id)
        assert found is not None
        return found


@cache
def rules_for(game: str) -> CoinRules:
    """The shared rules of every state of ``game`` ("lod" or "fitl").

    >>> rules_for("lod").game
    'lod'
    """
    return CoinRules(load_game_data(game), load_map(game))


def _level_value(level: str, path: str) -> int:
    if level not in SUPPORT_LEVELS:
        raise InputError(f"unknown support level {level!r}", path=path, allowed=SUPPORT_LEVELS)
    return SUPPORT_LEVELS.index(level) - 2


def _count(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"a count of pieces is a whole number 0 or more, not {n!r}")


class CoinState:
    """One position of a COIN game: pieces, Support, tracks, markers and lasting effects.

    Build one with :meth:`new` (an empty board), a scenario
    (:func:`legalis.model.coin.scenarios.load_scenario`) or :func:`state_from_json`.

    >>> state = CoinState.new("fitl")
    >>> state.add("Saigon", "us_base", 1)
    >>> state.take("Available", "us_base", 1)
    >>> state.invariant_problems()
    []
    >>> state.add("Hue -- Da Nang", "us_base")
    >>> state.invariant_problems()[0]
    'spaces.Hue -- Da Nang.pieces.us_base: Bases may never be on a LoC (1.4.2)'
    """

    __slots__ = (
        "_controls",
        "battle_modifiers",
        "capabilities",
        "card_actions",
        "counts",
        "deferred",
        "eligibility_at_end",
        "eligible",
        "flags",
        "free_actions",
        "lasting_rules",
        "leaders",
        "lists",
        "marks",
        "momentum",
        "procedures",
        "rules",
        "support_values",
        "tracks",
    )

    def __init__(self, rules: CoinRules) -> None:
        self.rules = rules
        self.counts: list[int] = [0] * (len(rules.locations) * rules.n_slots)
        # each location's Control as last found, until a piece there is added or taken
        self._controls: dict[int, str | None] = {}
        self.marks: list[int] = [0] * (len(rules.locations) * len(rules.marker_types))
        self.support_values: list[int] = [0] * rules.n_spaces
        self.tracks: list[int] = [track.lo for track in rules.data.tracks]
        self.flags: list[bool] = [False] * len(rules.data.flags)
        self.capabilities: dict[str, str] = {}
        self.momentum: set[str] = set()
        self.free_actions: list[dict[str, Any]] = []
        self.eligible: list[bool] = [True] * len(rules.faction_ids)
        self.leaders: dict[str, str | None] = dict.fromkeys(rules.leader_names)
        self.lists: dict[str, list[str]] = {name: [] for name in rules.list_ids}
        # what events leave for later parts of the game to carry out (see RECORDS)
        self.eligibility_at_end: dict[str, str] = {}
        self.deferred: list[dict[str, Any]] = []
        self.battle_modifiers: list[dict[str, Any]] = []
        self.lasting_rules: dict[str, dict[str, Any]] = {}
        self.procedures: list[dict[str, Any]] = []
        self.card_actions: list[dict[str, Any]] = []

    @classmethod
    def new(cls, game: str) -> CoinState:
        """An empty board: every piece Available, every conserved marker in its home
        box, all spaces Neutral, tracks at their floors, every Faction eligible.

        >>> CoinState.new("lod").markers("Unavailable", "blockade")
        3
        """
        rules = rules_for(game)
        state = cls(rules)
        base = rules.available * rules.n_slots
        for index, piece in enumerate(rules.piece_types):
            state.counts[base + rules.slot_base[index]] = piece.inventory
        for pool in rules.data.pools:
            if not pool.conserved:
                continue
            for marker in rules.marker_types:
                if marker.pool == pool.id and marker.home is not None:
                    state.add_marker(marker.home, marker.id, pool.count)
                    break
        return state

    @property
    def game(self) -> str:
        """The game id, "lod" or "fitl"."""
        return self.rules.game

    @property
    def data(self) -> GameData:
        """The game's configuration."""
        return self.rules.data

    # ---------------------------------------------------------------- pieces

    def _slot_range(self, location: str, piece_type: str, status: str | None) -> int | slice:
        rules = self.rules
        key = (location, piece_type, status)
        found = rules.slot_ranges.get(key)
        if found is None:
            found = rules.slot_ranges[key] = self._new_slot_range(location, piece_type, status)
        return found

    def _new_slot_range(self, location: str, piece_type: str, status: str | None) -> int | slice:
        rules = self.rules
        loc = rules.location(location)
        piece = rules.piece(piece_type)
        base = loc * rules.n_slots
        if status is None and len(rules.piece_types[piece].statuses) > 1:
            first = base + rules.slot_base[piece]
            return slice(first, first + len(rules.piece_types[piece].statuses))
        return base + rules.slot(piece, status)

    def pieces(self, location: str, piece_type: str, status: str | None = None) -> int:
        """How many pieces of a type are at a location, with ``status`` or (None) any.

        >>> CoinState.new("fitl").pieces("Available", "vc_guerrilla")
        30
        """
        slots = self.rules.slot_ranges.get((location, piece_type, status))
        if slots is None:  # the commonest question of every move generator: kept short
            slots = self._slot_range(location, piece_type, status)
        if isinstance(slots, int):
            return self.counts[slots]
        return sum(self.counts[slots])

    def _target(self, location: str, piece_type: str, status: str | None) -> int:
        # Pieces in a box have no Underground or Tunneled side: they sit at the
        # type's default status, whatever status they had on the map.
        rules = self.rules
        loc = rules.location(location)
        piece = rules.piece(piece_type)
        if loc >= rules.n_spaces:
            status = None
        return loc * rules.n_slots + rules.slot(piece, status)

    def add(self, location: str, piece_type: str, n: int = 1, status: str | None = None) -> None:
        """Put ``n`` pieces at a location (from nowhere: pair with :meth:`take`).

        ``status`` None means the type's placing status (Underground for Militia,
        War Parties and Guerrillas); in a box the status is always the default.

        >>> state = CoinState.new("lod")
        >>> state.add("Boston", "militia", 2, "active")
        >>> state.pieces("Boston", "militia", "active")
        2
        """
        _count(n)
        index = self._target(location, piece_type, status)
        self.counts[index] += n
        self._controls.pop(index // self.rules.n_slots, None)

    def take(self, location: str, piece_type: str, n: int = 1, status: str | None = None) -> None:
        """Take ``n`` pieces away from a location (to nowhere: pair with :meth:`add`).

        Raises
        ------
        ValueError
            Fewer than ``n`` such pieces are there.

        Examples
        --------
        >>> state = CoinState.new("lod")
        >>> state.take("Available", "village", 2)
        >>> state.available("village")
        10
        """
        _count(n)
        index = self._target(location, piece_type, status)
        if self.counts[index] < n:
            raise ValueError(
                f"only {self.counts[index]} {piece_type} ({status or 'default'}) "
                f"at {location}, cannot take {n}"
            )
        self.counts[index] -= n
        self._controls.pop(index // self.rules.n_slots, None)

    def move_pieces(
        self,
        src: str,
        dst: str,
        piece_type: str,
        n: int = 1,
        status: str | None = None,
        new_status: str | None = None,
    ) -> None:
        """Move ``n`` pieces of ``status`` from ``src`` to ``dst``.

        They arrive with ``new_status``; when that is None they keep their status
        (placed from a box, they take the placing status; into a box, the default).
        Moving within one location with a new status flips pieces.

        >>> state = CoinState.new("fitl")
        >>> state.move_pieces("Available", "Tay Ninh", "vc_base", 1, new_status="tunneled")
        >>> state.move_pieces("Available", "Tay Ninh", "vc_guerrilla", 2)
        >>> state.move_pieces("Tay Ninh", "Tay Ninh", "vc_guerrilla", 1, "underground", "active")
        >>> state.pieces("Tay Ninh", "vc_guerrilla", "active"), state.pieces("Tay Ninh", "vc_base")
        (1, 1)
        """
        rules = self.rules
        if new_status is None and rules.location(src) < rules.n_spaces:
            new_status = status
        self.take(src, piece_type, n, status)
        self.add(dst, piece_type, n, new_status)

    def flip(
        self, location: str, piece_type: str, n: int, old_status: str, new_status: str
    ) -> None:
        """Change the status of ``n`` pieces in place (Activate, go Underground, Tunnel).

        >>> state = CoinState.new("lod")
        >>> state.move_pieces("Available", "Quebec", "war_party", 3)
        >>> state.flip("Quebec", "war_party", 2, "underground", "active")
        >>> state.pieces("Quebec", "war_party", "underground")
        1
        """
        self.move_pieces(location, location, piece_type, n, old_status, new_status)

    def available(self, piece_type: str) -> int:
        """How many pieces of a type are in the Available box.

        >>> CoinState.new("lod").available("british_fort")
        6
        """
        return self.pieces(self.rules.data.available_box, piece_type)

    def holdings(self, location: str) -> dict[str, dict[str, int]]:
        """Every piece at a location: piece type id -> status -> count (non-zero only).

        >>> state = CoinState.new("lod")
        >>> state.move_pieces("Available", "Boston", "tory", 2)
        >>> state.holdings("Boston")
        {'tory': {'active': 2}}
        """
        rules = self.rules
        base = rules.location(location) * rules.n_slots
        out: dict[str, dict[str, int]] = {}
        for slot in range(rules.n_slots):
            n = self.counts[base + slot]
            if n:
                piece = rules.piece_types[rules.slot_piece[slot]].id
                out.setdefault(piece, {})[rules.slot_status[slot]] = n
        return out

    def faction_pieces(self, location: str, faction: str) -> int:
        """How many pieces of a Faction are at a location (Leaders are not pieces).

        >>> state = CoinState.new("fitl")
        >>> state.faction_pieces("Available", "arvn")
        69
        """
        indices = self.rules.faction_counts_at.get((location, faction))
        if indices is None:
            indices = self._faction_indices(location, faction)
        counts = self.counts
        return sum([counts[i] for i in indices])

    def _faction_indices(self, location: str, faction: str) -> tuple[int, ...]:
        rules = self.rules
        base = rules.location(location) * rules.n_slots
        found = tuple(base + slot for slot in rules.faction_slots[rules.faction(faction)])
        rules.faction_counts_at[(location, faction)] = found
        return found

    def stacking_count(self, location: str) -> int:
        """How many stacking pieces (Forts and Villages; Bases) are at a location.

        >>> CoinState.new("lod").stacking_count("Boston")
        0
        """
        rules = self.rules
        base = rules.location(location) * rules.n_slots
        return sum(self.counts[base + slot] for slot in rules.stacking_slots)

    def _faction_totals(self, loc: int) -> list[int]:
        rules = self.rules
        totals = [0] * len(rules.faction_ids)
        base = loc * rules.n_slots
        counts = self.counts
        for slot in range(rules.n_slots):
            n = counts[base + slot]
            if n:
                totals[rules.slot_faction[slot]] += n
        return totals

    # ---------------------------------------------------------------- Control

    def control(self, location: str) -> str | None:
        """The id of the Control rule that holds at a space (or WI), or None.

        LoD 1.7: ``"rebellion"`` when Patriot and French pieces exceed Royalist
        pieces; ``"british"`` when Royalist pieces exceed Rebellion pieces and a
        British piece is present. FitL 1.7: ``"coin"`` when US and ARVN pieces
        exceed NVA and VC pieces; ``"nva"`` when NVA pieces exceed all others.

        >>> state = CoinState.new("lod")
        >>> state.move_pieces("Available", "Quebec", "war_party", 2)
        >>> state.control("Quebec") is None  # Indians alone never Control (1.7)
        True
        >>> state.move_pieces("Available", "Quebec", "tory", 1)
        >>> state.control("Quebec")
        'british'
        """
        loc = self.rules.loc_index.get(location)
        if loc is None:
            loc = self.rules.location(location)  # not a location: raises
        controls = self._controls
        if loc not in controls:
            controls[loc] = self._control_now(loc)
        return controls[loc]

    def _control_now(self, loc: int) -> str | None:
        rules = self.rules
        info = rules.info[loc]
        if not info.control:
            return None
        totals = self._faction_totals(loc)
        everyone = sum(totals)
        for c in info.control:
            rule = rules.data.control[c]
            group = sum(totals[rules.faction_index[f]] for f in rule.factions)
            if group <= everyone - group:
                continue
            if rule.requires and not any(totals[rules.faction_index[f]] for f in rule.requires):
                continue
            return rule.id
        return None

    # ---------------------------------------------------------------- Support

    def can_have_support(self, space: str) -> bool:
        """Whether a space may show Support or Opposition (population 1 or more,
        and a City or Colony in LoD, a City or Province in FitL; 1.6).

        >>> CoinState.new("lod").can_have_support("Quebec")
        False
        """
        return self.rules.info[self.rules.space(space)].can_support

    def support(self, space: str) -> str:
        """The Support level of a space, one of
        :data:`~legalis.model.coin.gamedata.SUPPORT_LEVELS`.

        >>> CoinState.new("lod").support("Boston")
        'neutral'
        """
        return SUPPORT_LEVELS[self.support_values[self.rules.space(space)] + 2]

    def support_value(self, space: str) -> int:
        """The Support level as a number: +2 Active Support ... -2 Active Opposition.

        >>> state = CoinState.new("lod")
        >>> state.set_support("Boston", "passive_opposition")
        >>> state.support_value("Boston")
        -1
        """
        return self.support_values[self.rules.space(space)]

    def set_support(self, space: str, level: str) -> None:
        """Set a space's Support level.

        Raises
        ------
        ValueError
            A non-Neutral level for a space that is always Neutral (1.6).

        Examples
        --------
        >>> state = CoinState.new("fitl")
        >>> state.set_support("Saigon", "active_support")
        >>> state.total_support()
        12
        """
        index = self.rules.space(space)
        value = _level_value(level, "level")
        if value and not self.rules.info[index].can_support:
            raise ValueError(f"{space} is always Neutral ({self.rules.data.support_rule})")
        self.support_values[index] = value

    def shift_support(self, space: str, steps: int) -> str:
        """Shift a space ``steps`` levels (positive toward Active Support), clamped to
        the five levels; a space that is always Neutral stays Neutral. Returns the
        new level.

        >>> state = CoinState.new("lod")
        >>> state.shift_support("Virginia", -3), state.shift_support("Quebec", 1)
        ('active_opposition', 'neutral')
        """
        index = self.rules.space(space)
        if self.rules.info[index].can_support:
            self.support_values[index] = max(-2, min(2, self.support_values[index] + steps))
        return SUPPORT_LEVELS[self.support_values[index] + 2]

    def total_support(self) -> int:
        """Total Support: 2 x population at Active Support + population at Passive
        Support (1.6); a Blockaded City counts population 0.

        >>> state = CoinState.new("lod")
        >>> state.set_support("New York City", "active_support")
        >>> state.set_support("Boston", "passive_support")
        >>> state.total_support()
        5
        """
        rules = self.rules
        info, marks, blocking = rules.info, self.marks, rules.blocking_markers
        n_markers = len(rules.marker_types)
        total = 0
        for index, value in enumerate(self.support_values):
            # a Blockaded City counts population 0 for Support (LoD 1.9)
            if value > 0 and not any(marks[index * n_markers + m] for m in blocking):
                total += value * info[index].population
        return total

    def total_opposition(self) -> int:
        """Total Opposition: 2 x population at Active Opposition + population at
        Passive Opposition (1.6).

        >>> state = CoinState.new("lod")
        >>> state.set_support("Massachusetts", "active_opposition")
        >>> state.total_opposition()
        4
        """
        info = self.rules.info
        return sum(-v * info[i].population for i, v in enumerate(self.support_values) if v < 0)

    # ---------------------------------------------------------------- markers

    def markers(self, location: str, marker: str) -> int:
        """How many markers of a kind lie at a location.

        >>> CoinState.new("fitl").markers("Hue", "terror")
        0
        """
        rules = self.rules
        loc = rules.loc_index.get(location)
        if loc is None:
            loc = rules.location(location)  # not a location: raises
        kind = rules.marker_index.get(marker)
        if kind is None:
            kind = rules.marker(marker)  # not a marker: raises
        return self.marks[loc * len(rules.marker_types) + kind]

    def add_marker(self, location: str, marker: str, n: int = 1) -> None:
        """Put ``n`` markers at a location (no rule checks).

        >>> state = CoinState.new("fitl")
        >>> state.add_marker("Hue -- Da Nang", "sabotage")
        >>> state.markers("Hue -- Da Nang", "sabotage")
        1
        """
        _count(n)
        rules = self.rules
        self.marks[rules.location(location) * len(rules.marker_types) + rules.marker(marker)] += n

    def take_marker(self, location: str, marker: str, n: int = 1) -> None:
        """Take ``n`` markers away from a location.

        Raises
        ------
        ValueError
            Fewer than ``n`` are there.

        Examples
        --------
        >>> state = CoinState.new("lod")
        >>> state.take_marker("Unavailable", "blockade", 1)
        >>> state.markers("Unavailable", "blockade")
        2
        """
        _count(n)
        rules = self.rules
        index = rules.location(location) * len(rules.marker_types) + rules.marker(marker)
        if self.marks[index] < n:
            raise ValueError(f"only {self.marks[index]} {marker} at {location}, cannot take {n}")
        self.marks[index] -= n

    def move_marker(self, src: str, dst: str, marker: str, n: int = 1) -> None:
        """Move ``n`` markers from one location to another.

        >>> state = CoinState.new("lod")
        >>> state.move_marker("Unavailable", "West Indies", "blockade", 2)
        >>> state.markers("West Indies", "blockade")
        2
        """
        self.take_marker(src, marker, n)
        self.add_marker(dst, marker, n)

    # ---------------------------------------------------------------- tracks and flags

    def track(self, name: str) -> int:
        """The value of a track.

        >>> CoinState.new("fitl").track("trail")
        0
        """
        return self.tracks[self.rules.track(name)]

    def set_track(self, name: str, value: int) -> None:
        """Set a track; no clamping here (the interpreter clamps with
        :func:`legalis.model.coin.limits.cap`).

        >>> state = CoinState.new("fitl")
        >>> state.set_track("aid", 15)
        >>> state.track("aid")
        15
        """
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"a track value is a whole number, not {value!r}")
        self.tracks[self.rules.track(name)] = value

    def flag(self, name: str) -> bool:
        """The value of a game flag.

        >>> CoinState.new("lod").flag("toa_played")
        False
        """
        return self.flags[self.rules.flag(name)]

    def set_flag(self, name: str, value: bool = True) -> None:
        """Set a game flag.

        >>> state = CoinState.new("lod")
        >>> state.set_flag("toa_played")
        >>> state.flag("toa_played")
        True
        """
        self.flags[self.rules.flag(name)] = bool(value)

    # ---------------------------------------------------------------- lasting effects

    def capability(self, name: str) -> str | None:
        """The side ("unshaded" or "shaded") of a Capability in force, or None.

        >>> CoinState.new("fitl").capability("AAA") is None
        True
        """
        return self.capabilities.get(name)

    def set_capability(self, name: str, side: str | None) -> None:
        """Put a Capability in force on one side, or (None) remove it.

        >>> state = CoinState.new("fitl")
        >>> state.set_capability("AAA", "shaded")
        >>> state.capability("AAA")
        'shaded'
        """
        if side is None:
            self.capabilities.pop(name, None)
            return
        if side not in ("unshaded", "shaded"):
            raise InputError(f"unknown side {side!r}", path="side", allowed=("unshaded", "shaded"))
        if not name:
            raise InputError("a Capability needs a name", path="name")
        self.capabilities[name] = side

    def add_momentum(self, name: str) -> None:
        """Put a Momentum event in force (until the next Coup Reset).

        >>> state = CoinState.new("fitl")
        >>> state.add_momentum("Rolling Thunder")
        >>> sorted(state.momentum)
        ['Rolling Thunder']
        """
        if not name:
            raise InputError("a Momentum event needs a name", path="name")
        self.momentum.add(name)

    def clear_momentum(self, name: str | None = None) -> None:
        """End one Momentum event, or (None) all of them, as a Coup Reset does.

        >>> state = CoinState.new("fitl")
        >>> state.add_momentum("Claymores")
        >>> state.clear_momentum()
        >>> state.momentum
        set()
        """
        if name is None:
            self.momentum.clear()
        else:
            self.momentum.discard(name)

    # ---------------------------------------------------------------- eligibility, leaders, lists

    def eligibility(self, faction: str) -> str:
        """``"eligible"`` or ``"ineligible"``.

        >>> CoinState.new("lod").eligibility("french")
        'eligible'
        """
        return ELIGIBILITY[0] if self.eligible[self.rules.faction(faction)] else ELIGIBILITY[1]

    def set_eligibility(self, faction: str, value: str) -> None:
        """Set a Faction ``"eligible"`` or ``"ineligible"``.

        >>> state = CoinState.new("fitl")
        >>> state.set_eligibility("vc", "ineligible")
        >>> state.eligibility("vc")
        'ineligible'
        """
        if value not in ELIGIBILITY:
            raise InputError(f"unknown eligibility {value!r}", path="value", allowed=ELIGIBILITY)
        self.eligible[self.rules.faction(faction)] = value == ELIGIBILITY[0]

    def leader(self, name: str) -> str | None:
        """Where a Leader is (a space or box), or None when it is not in play.

        >>> CoinState.new("lod").leader("Washington") is None
        True
        """
        found = self.leaders.get(name, _NOT_LISTED)
        if found is _NOT_LISTED:
            self.rules.data.leader(name)  # not a Leader: raises
            return self.leaders[name]
        return found  # type: ignore[return-value]

    def set_leader(self, name: str, location: str | None) -> None:
        """Put a Leader at a space or box, or (None) out of play.

        >>> state = CoinState.new("lod")
        >>> state.set_leader("Gage", "Boston")
        >>> state.leader("Gage")
        'Boston'
        """
        self.rules.data.leader(name)
        if location is not None:
            location = self.rules.locations[self.rules.location(location)]
        self.leaders[name] = location

    def card_list(self, name: str) -> tuple[str, ...]:
        """A kept list of names (held Brilliant Strokes, RVN Leaders, ...).

        >>> CoinState.new("fitl").card_list("rvn_leaders")
        ()
        """
        self.rules.data.card_list(name)
        return tuple(self.lists[name])

    def set_card_list(self, name: str, names: Iterable[str]) -> None:
        """Replace a kept list; every name must be one the list allows.

        >>> state = CoinState.new("lod")
        >>> state.set_card_list("brilliant_strokes", ["Treaty of Alliance"])
        >>> state.card_list("brilliant_strokes")
        ('Treaty of Alliance',)
        """
        spec = self.rules.data.card_list(name)
        values = list(names)
        for index, value in enumerate(values):
            if value not in spec.allowed:
                raise InputError(
                    f"unknown name {value!r}", path=f"lists.{name}[{index}]", allowed=spec.allowed
                )
            if value in values[:index]:
                raise InputError(f"{value!r} is listed twice", path=f"lists.{name}[{index}]")
        if not spec.ordered:
            values.sort(key=spec.allowed.index)
        self.lists[name] = values

    # ---------------------------------------------------------------- copies and equality

    def copy(self) -> CoinState:
        """An independent copy (the shared rules are not copied).

        >>> state = CoinState.new("lod")
        >>> other = state.copy()
        >>> other.add("Boston", "tory")
        >>> state.pieces("Boston", "tory"), other.pieces("Boston", "tory")
        (0, 1)
        """
        new = CoinState.__new__(CoinState)
        new.rules = self.rules
        new.counts = self.counts[:]
        new._controls = dict(self._controls)
        new.marks = self.marks[:]
        new.support_values = self.support_values[:]
        new.tracks = self.tracks[:]
        new.flags = self.flags[:]
        new.capabilities = dict(self.capabilities)
        new.momentum = set(self.momentum)
        new.free_actions = [dict(grant) for grant in self.free_actions]
        new.eligible = self.eligible[:]
        new.leaders = dict(self.leaders)
        new.lists = {name: values[:] for name, values in self.lists.items()}
        new.eligibility_at_end = dict(self.eligibility_at_end)
        new.deferred = [dict(record) for record in self.deferred]
        new.battle_modifiers = [dict(record) for record in self.battle_modifiers]
        new.lasting_rules = {name: dict(record) for name, record in self.lasting_rules.items()}
        new.procedures = [dict(record) for record in self.procedures]
        new.card_actions = [dict(record) for record in self.card_actions]
        return new

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, CoinState)
            and self.rules is other.rules
            and self.counts == other.counts
            and self.marks == other.marks
            and self.support_values == other.support_values
            and self.tracks == other.tracks
            and self.flags == other.flags
            and self.capabilities == other.capabilities
            and self.momentum == other.momentum
            and self.free_actions == other.free_actions
            and self.eligible == other.eligible
            and self.leaders == other.leaders
            and self.lists == other.lists
            and all(getattr(self, name) == getattr(other, name) for name in RECORDS)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<CoinState {self.game}>"

    # ---------------------------------------------------------------- JSON out

    def _pieces_json(self, loc: int) -> dict[str, Any]:
        rules = self.rules
        base = loc * rules.n_slots
        out: dict[str, Any] = {}
        for index, piece in enumerate(rules.piece_types):
            first = base + rules.slot_base[index]
            if loc >= rules.n_spaces or len(piece.statuses) == 1:
                if self.counts[first]:
                    out[piece.id] = self.counts[first]
                continue
            by_status = {
                status: self.counts[first + k]
                for k, status in enumerate(piece.statuses)
                if self.counts[first + k]
            }
            if by_status:
                out[piece.id] = by_status
        return out

    def _markers_json(self, loc: int) -> dict[str, int]:
        rules = self.rules
        base = loc * len(rules.marker_types)
        return {
            marker.id: self.marks[base + m]
            for m, marker in enumerate(rules.marker_types)
            if self.marks[base + m]
        }

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON data; :func:`state_from_json` reads it back exactly.

        Pieces of types with several statuses are given per status on the map; in
        boxes every piece has its default status and is given as a bare count.

        >>> j = CoinState.new("lod").to_json()
        >>> sorted(j)
        ['battle_modifiers', 'boxes', 'capabilities', 'card_actions', 'deferred', 'eligibility', 'eligibility_at_end', 'flags', 'free_actions', 'game', 'lasting_rules', 'leaders', 'lists', 'momentum', 'procedures', 'spaces', 'tracks']
        >>> j["boxes"]["Available"]["pieces"]["militia"], j["spaces"]["Boston"]
        (15, {'support': 'neutral', 'pieces': {}, 'markers': {}})
        """  # noqa: E501
        rules = self.rules
        data = rules.data
        return {
            "game": rules.game,
            "spaces": {
                name: {
                    "support": SUPPORT_LEVELS[self.support_values[i] + 2],
                    "pieces": self._pieces_json(i),
                    "markers": self._markers_json(i),
                }
                for i, name in enumerate(rules.spaces)
            },
            "boxes": {
                name: {
                    "pieces": self._pieces_json(rules.n_spaces + k),
                    "markers": self._markers_json(rules.n_spaces + k),
                }
                for k, name in enumerate(rules.boxes)
            },
            "tracks": {track.id: self.tracks[i] for i, track in enumerate(data.tracks)},
            "flags": {flag: self.flags[i] for i, flag in enumerate(data.flag_ids())},
            "capabilities": dict(sorted(self.capabilities.items())),
            "momentum": sorted(self.momentum),
            "free_actions": [dict(grant) for grant in self.free_actions],
            "eligibility": {
                faction: ELIGIBILITY[0] if self.eligible[i] else ELIGIBILITY[1]
                for i, faction in enumerate(rules.faction_ids)
            },
            "leaders": dict(self.leaders),
            "lists": {name: list(values) for name, values in self.lists.items()},
            "eligibility_at_end": dict(self.eligibility_at_end),
            **{name: deepcopy(getattr(self, name)) for name in RECORDS[1:]},
        }

    # ---------------------------------------------------------------- invariants

    def invariant_problems(self) -> list[str]:
        """Every broken invariant, each as ``path: problem (rule)``; empty when sound.

        Checked: the pieces each box may hold, the side rules (LoD Indians never in
        Cities, no French on the map before the Treaty of Alliance; FitL no US or
        ARVN in North Vietnam, no Bases on LoCs), stacking, conservation of every
        piece type against its inventory, Tunnel markers, always-Neutral spaces,
        marker places and stocks, track caps (LoD FNI 0 before the Treaty of
        Alliance and never above the Squadrons/Blockades out of Unavailable), and
        one Leader per Faction in play.

        >>> state = CoinState.new("lod")
        >>> state.move_pieces("Available", "Boston", "war_party")
        >>> state.invariant_problems()
        ['spaces.Boston.pieces.war_party: Indian pieces may never be in a City (1.4.2)']
        """
        rules = self.rules
        data = rules.data
        problems: list[str] = []
        counts = self.counts
        n_slots = rules.n_slots
        # what each box may hold
        for k, box in enumerate(data.boxes):
            loc = rules.n_spaces + k
            allowed = rules.box_allows[loc]
            for index, piece in enumerate(rules.piece_types):
                if index in allowed:
                    continue
                if counts[loc * n_slots + rules.slot_base[index]]:
                    problems.append(
                        f"boxes.{box.name}.pieces.{piece.id}: {piece.name} may not be in "
                        f"{box.name} ({box.rule})"
                    )
        # side rules
        for restriction in data.restrictions:
            flag = restriction.unless_flag
            if flag is not None and self.flags[rules.flag_index[flag]]:
                continue
            for loc in range(rules.n_spaces):
                info = rules.info[loc]
                if not restriction.applies(info.type, info.country):
                    continue
                for piece_id in restriction.pieces:
                    kind = rules.piece_index[piece_id]
                    first = loc * n_slots + rules.slot_base[kind]
                    width = len(rules.piece_types[kind].statuses)
                    if any(counts[first : first + width]):
                        problems.append(
                            f"spaces.{info.name}.pieces.{piece_id}: {restriction.reason} "
                            f"({restriction.rule})"
                        )
        # stacking
        for info in rules.info:
            cap = info.stacking_cap
            if cap is None:
                continue
            base = info.index * n_slots
            stacked = sum(counts[base + slot] for slot in rules.stacking_slots)
            if stacked > cap:
                where = "spaces" if info.is_space else "boxes"
                problems.append(
                    f"{where}.{info.name}.pieces: {stacked} stacking pieces "
                    f"(Forts, Villages or Bases), at most {cap} ({data.stacking_rule})"
                )
        # conservation: a slot's pieces at every location lie n_slots apart
        slot_totals = [sum(counts[slot::n_slots]) for slot in range(n_slots)]
        for index, piece in enumerate(rules.piece_types):
            first = rules.slot_base[index]
            total = sum(slot_totals[first : first + len(piece.statuses)])
            if total != piece.inventory:
                problems.append(
                    f"pieces.{piece.id}: {total} {piece.name} on the map and in the boxes, "
                    f"the game has {piece.inventory} ({RULE_CONSERVATION})"
                )
        # status limits (FitL Tunnel markers)
        for limit in data.status_limits:
            slots = [s for s in range(n_slots) if rules.slot_status[s] == limit.status]
            total = sum(counts[loc * n_slots + s] for loc in range(rules.n_spaces) for s in slots)
            if total > limit.count:
                problems.append(
                    f"pieces: {total} {limit.status} pieces, only {limit.count} "
                    f"{limit.name} ({limit.rule})"
                )
        # always-Neutral spaces
        for loc, value in enumerate(self.support_values):
            if value and not rules.info[loc].can_support:
                problems.append(
                    f"spaces.{rules.spaces[loc]}.support: this space is always Neutral "
                    f"({data.support_rule})"
                )
        problems.extend(self._marker_problems())
        problems.extend(self._track_problems())
        # one Leader per Faction in play (LoD 1.10)
        seen: dict[str, str] = {}
        for leader in data.leaders:
            if self.leaders.get(leader.name) is None:
                continue
            if leader.faction in seen:
                problems.append(
                    f"leaders.{leader.name}: {seen[leader.faction]} is already the "
                    f"{leader.faction} Leader in play (1.10)"
                )
            seen[leader.faction] = leader.name
        return problems

    def _marker_problems(self) -> list[str]:
        rules = self.rules
        data = rules.data
        problems: list[str] = []
        n_markers = len(rules.marker_types)
        pool_totals = dict.fromkeys((pool.id for pool in data.pools), 0)
        for m, marker in enumerate(rules.marker_types):
            flag_ok = (
                marker.requires_flag is None or self.flags[rules.flag_index[marker.requires_flag]]
            )
            for info in rules.info:
                n = self.marks[info.index * n_markers + m]
                if not n:
                    continue
                pool_totals[marker.pool] += n
                where = "spaces" if info.is_space else "boxes"
                path = f"{where}.{info.name}.markers.{marker.id}"
                if info.is_space and info.type not in marker.space_types:
                    problems.append(
                        f"{path}: {marker.name} markers lie only on "
                        f"{', '.join(marker.space_types)} spaces ({marker.rule})"
                    )
                elif not info.is_space and info.name not in marker.boxes:
                    problems.append(
                        f"{path}: {marker.name} markers may not be in {info.name} ({marker.rule})"
                    )
                elif info.is_space and not flag_ok:
                    problems.append(
                        f"{path}: no {marker.name} on the map before "
                        f"{dict(data.flags)[marker.requires_flag or '']} ({marker.rule})"
                    )
        for pool in data.pools:
            total = pool_totals[pool.id]
            if pool.conserved and total != pool.count:
                problems.append(
                    f"markers.{pool.id}: {total} markers placed, the game has {pool.count} "
                    f"({pool.rule})"
                )
            elif total > pool.count:
                problems.append(
                    f"markers.{pool.id}: {total} markers placed, the game has only "
                    f"{pool.count} ({pool.rule})"
                )
        return problems

    def _track_problems(self) -> list[str]:
        rules = self.rules
        data = rules.data
        problems: list[str] = []
        for i, track in enumerate(data.tracks):
            value = self.tracks[i]
            path = f"tracks.{track.id}"
            if not track.lo <= value <= track.hi:
                problems.append(f"{path}: {value} is outside {track.lo}-{track.hi} ({track.rule})")
                continue
            flag = track.zero_unless_flag
            if flag is not None and value and not self.flags[rules.flag_index[flag]]:
                problems.append(
                    f"{path}: {track.name} stays 0 until {dict(data.flags)[flag]} ({track.rule})"
                )
                continue
            if track.at_most_markers is not None:
                room = markers_out_of(self, track.at_most_markers, track.markers_outside)
                if value > room:
                    problems.append(
                        f"{path}: {value} is above the {room} "
                        f"{rules.marker_types[rules.marker(track.at_most_markers)].name} "
                        f"markers available ({track.rule})"
                    )
        return problems


def markers_out_of(state: CoinState, marker: str, boxes: Iterable[str]) -> int:
    """How many markers of a kind lie anywhere but in ``boxes``.

    >>> state = CoinState.new("lod")
    >>> state.move_marker("Unavailable", "West Indies", "blockade", 2)
    >>> markers_out_of(state, "blockade", ["Unavailable"])
    2
    """
    rules = state.rules
    m = rules.marker(marker)
    excluded = {rules.location(name) for name in boxes}
    n_markers = len(rules.marker_types)
    return sum(
        state.marks[loc * n_markers + m]
        for loc in range(len(rules.locations))
        if loc not in excluded
    )


# ---------------------------------------------------------------------- JSON in


def state_from_json(raw: Any, game: str, *, source: str | None = None) -> CoinState:
    """A state from JSON data, validated.

    Unknown spaces, boxes, piece types, statuses, markers, tracks, flags and
    Factions, negative or non-integer counts, and broken invariants are each an
    :class:`InputError` naming the path of the bad field.

    >>> j = CoinState.new("lod").to_json()
    >>> j["spaces"]["Boston"]["pieces"]["village"] = 1
    >>> state_from_json(j, "lod")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: spaces.Boston.pieces.village: Indian pieces may never be in a City (1.4.2)
    """  # noqa: E501
    return _Reader(rules_for(game), source).state(raw)


class _Reader:
    TOP = (
        "game", "spaces", "boxes", "tracks", "flags", "capabilities", "momentum",
        "eligibility", "leaders", "lists", "free_actions", *RECORDS,
    )  # fmt: skip
    GRANT = ("faction", "action", "kind", "limited", "spaces", "pays_resources")
    # the fields of each record list, every one required
    RECORD_FIELDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "deferred": ("phase", "faction", "effects"),
        "battle_modifiers": ("faction", "role", "loss_level", "force_level"),
        "procedures": ("name", "faction", "factions", "pieces", "spaces", "note"),
        "card_actions": ("action", "target", "faction", "count", "side"),
    }
    LASTING = ("kind", "side", "duration", "rules")

    def __init__(self, rules: CoinRules, source: str | None) -> None:
        self.rules = rules
        self.source = source

    def fail(self, message: str, path: str, allowed: Any = None) -> InputError:
        return InputError(message, source=self.source, path=path, allowed=allowed)

    def obj(self, value: Any, path: str, keys: Iterable[str] | None = None) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"expected an object, got {type(value).__name__}", path)
        if keys is not None:
            known = list(keys)
            for key in value:
                if key not in known:
                    raise self.fail(f"unknown field {key!r}", f"{path}.{key}", known)
        return value

    def integer(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"expected a whole number, got {value!r}", path)
        if lo is not None and value < lo:
            raise self.fail(f"{value} is below {lo}", path)
        if hi is not None and value > hi:
            raise self.fail(f"{value} is above {hi}", path)
        return value

    def name(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(f"expected a name, got {value!r}", path)
        return value

    def state(self, raw: Any) -> CoinState:
        rules = self.rules
        data = rules.data
        top = self.obj(raw, "state")
        # another game's state is named as such before its fields are judged
        if top.get("game", rules.game) != rules.game:
            raise self.fail(f"this is a {top['game']!r} state", "game", [rules.game])
        for key in top:
            if key not in self.TOP:
                raise self.fail(f"unknown field {key!r}", key, self.TOP)
        for key in ("game", "spaces", "boxes", "tracks", "flags", "eligibility"):
            if key not in top:
                raise self.fail("missing field", key)
        state = CoinState(rules)
        spaces = self.obj(top["spaces"], "spaces")
        for name, entry in spaces.items():
            path = f"spaces.{name}"
            if name not in rules.spaces:
                raise self.fail(f"unknown {rules.game} space {name!r}", path, rules.spaces)
            loc = rules.loc_index[name]
            entry = self.obj(entry, path, ("support", "pieces", "markers"))
            if "support" in entry:
                level = entry["support"]
                if level not in SUPPORT_LEVELS:
                    raise self.fail(
                        f"unknown support level {level!r}", f"{path}.support", SUPPORT_LEVELS
                    )
                state.support_values[loc] = SUPPORT_LEVELS.index(level) - 2
            self.pieces(state, loc, entry.get("pieces", {}), f"{path}.pieces")
            self.markers(state, loc, entry.get("markers", {}), f"{path}.markers")
        boxes = self.obj(top["boxes"], "boxes")
        for name, entry in boxes.items():
            path = f"boxes.{name}"
            if name not in rules.boxes:
                raise self.fail(f"unknown {rules.game} box {name!r}", path, rules.boxes)
            loc = rules.loc_index[name]
            entry = self.obj(entry, path, ("pieces", "markers"))
            self.pieces(state, loc, entry.get("pieces", {}), f"{path}.pieces")
            self.markers(state, loc, entry.get("markers", {}), f"{path}.markers")
        tracks = self.obj(top["tracks"], "tracks", rules.track_index)
        for track in data.tracks:
            if track.id not in tracks:
                raise self.fail("missing track", f"tracks.{track.id}")
            state.tracks[rules.track_index[track.id]] = self.integer(
                tracks[track.id], f"tracks.{track.id}"
            )
        flags = self.obj(top["flags"], "flags", rules.flag_index)
        for flag, index in rules.flag_index.items():
            if flag not in flags:
                raise self.fail("missing flag", f"flags.{flag}")
            if not isinstance(flags[flag], bool):
                raise self.fail(f"expected true or false, got {flags[flag]!r}", f"flags.{flag}")
            state.flags[index] = flags[flag]
        capabilities = self.obj(top.get("capabilities", {}), "capabilities")
        for name, side in capabilities.items():
            self.name(name, "capabilities")
            if side not in ("unshaded", "shaded"):
                raise self.fail(
                    f"unknown side {side!r}", f"capabilities.{name}", ("unshaded", "shaded")
                )
            state.capabilities[name] = side
        momentum = top.get("momentum", [])
        if not isinstance(momentum, list):
            raise self.fail("expected a list of names", "momentum")
        for index, name in enumerate(momentum):
            self.name(name, f"momentum[{index}]")
            if name in state.momentum:
                raise self.fail(f"{name!r} is listed twice", f"momentum[{index}]")
            state.momentum.add(name)
        state.free_actions = self.free_actions(top.get("free_actions", []))
        eligibility = self.obj(top["eligibility"], "eligibility", rules.faction_ids)
        for index, faction in enumerate(rules.faction_ids):
            if faction not in eligibility:
                raise self.fail("missing Faction", f"eligibility.{faction}")
            value = eligibility[faction]
            if value not in ELIGIBILITY:
                raise self.fail(
                    f"unknown eligibility {value!r}", f"eligibility.{faction}", ELIGIBILITY
                )
            state.eligible[index] = value == ELIGIBILITY[0]
        leaders = self.obj(top.get("leaders", {}), "leaders", rules.leader_names)
        for name, where in leaders.items():
            if where is not None and where not in rules.locations:
                raise self.fail(
                    f"unknown space or box {where!r}", f"leaders.{name}", rules.locations
                )
            state.leaders[name] = where
        lists = self.obj(top.get("lists", {}), "lists", rules.list_ids)
        for name, values in lists.items():
            if not isinstance(values, list):
                raise self.fail("expected a list of names", f"lists.{name}")
            spec = data.card_list(name)
            for index, value in enumerate(values):
                if value not in spec.allowed:
                    raise self.fail(
                        f"unknown name {value!r}", f"lists.{name}[{index}]", spec.allowed
                    )
                if value in values[:index]:
                    raise self.fail(f"{value!r} is listed twice", f"lists.{name}[{index}]")
            if not spec.ordered and values != sorted(values, key=spec.allowed.index):
                raise self.fail(
                    f"list the names in the game's order: {', '.join(spec.allowed)}",
                    f"lists.{name}",
                )
            state.lists[name] = list(values)
        self.records(state, top)
        problems = state.invariant_problems()
        if problems:
            where, _, message = problems[0].partition(": ")
            raise self.fail(message, where)
        return state

    def free_actions(self, raw: Any) -> list[dict[str, Any]]:
        """Free Commands, Operations and Special Activities an event granted (5.3, 5.5)."""
        if not isinstance(raw, list):
            raise self.fail("expected a list of free actions", "free_actions")
        grants = []
        for index, item in enumerate(raw):
            path = f"free_actions[{index}]"
            grant = self.obj(item, path, (*self.GRANT, "modifiers"))
            for key in self.GRANT:
                if key not in grant:
                    raise self.fail("missing field", f"{path}.{key}")
            self.rules.data.faction(str(grant["faction"]), path=f"{path}.faction")
            for key in ("limited", "pays_resources"):
                if not isinstance(grant[key], bool):
                    raise self.fail("expected true or false", f"{path}.{key}")
            spaces = grant["spaces"]
            if spaces is not None:
                if not isinstance(spaces, list):
                    raise self.fail("expected a list of spaces or null", f"{path}.spaces")
                for j, space in enumerate(spaces):
                    self.rules.location(str(space), path=f"{path}.spaces[{j}]")
            kept = {key: grant[key] for key in self.GRANT}
            if "modifiers" in grant:
                kept["modifiers"] = dict(self.obj(grant["modifiers"], f"{path}.modifiers"))
            grants.append(kept)
        return grants

    def records(self, state: CoinState, top: Mapping[str, Any]) -> None:
        """What events left for later (:data:`RECORDS`); each record's names are checked."""
        rules = self.rules
        at_end = self.obj(
            top.get("eligibility_at_end", {}), "eligibility_at_end", rules.faction_ids
        )
        for faction, value in at_end.items():
            if value not in END_ELIGIBILITY:
                raise self.fail(
                    f"unknown eligibility {value!r}",
                    f"eligibility_at_end.{faction}",
                    END_ELIGIBILITY,
                )
            state.eligibility_at_end[faction] = value
        for name, keys in self.RECORD_FIELDS.items():
            raw = top.get(name, [])
            if not isinstance(raw, list):
                raise self.fail("expected a list", name)
            kept = getattr(state, name)
            for index, item in enumerate(raw):
                path = f"{name}[{index}]"
                record = self.obj(item, path, keys)
                for key in keys:
                    if key not in record:
                        raise self.fail("missing field", f"{path}.{key}")
                if record["faction"] is not None:
                    rules.data.faction(str(record["faction"]), path=f"{path}.faction")
                if name == "deferred":
                    side_from_toml({"effects": record["effects"]}, path=f"{path}")
                kept.append({key: record[key] for key in keys})
        lasting = self.obj(top.get("lasting_rules", {}), "lasting_rules")
        for name, item in lasting.items():
            path = f"lasting_rules.{name}"
            record = self.obj(item, path, self.LASTING)
            table = {"op": "lasting", "name": name, **record}
            # the record's fields are those of the effect that put it in force
            given = {key: value for key, value in table.items() if value}
            validated(SetLasting, given, source=self.source, path=path)
            state.lasting_rules[name] = {key: record.get(key) for key in self.LASTING} | {
                "rules": list(record.get("rules", []))
            }

    def pieces(self, state: CoinState, loc: int, raw: Any, path: str) -> None:
        rules = self.rules
        entries = self.obj(raw, path)
        is_space = loc < rules.n_spaces
        base = loc * rules.n_slots
        for piece_id, value in entries.items():
            where = f"{path}.{piece_id}"
            index = rules.piece_index.get(piece_id)
            if index is None or rules.piece_types[index].id != piece_id:
                raise self.fail(
                    f"unknown {rules.game} piece type {piece_id!r}",
                    where,
                    [p.id for p in rules.piece_types],
                )
            piece = rules.piece_types[index]
            first = base + rules.slot_base[index]
            if not is_space or len(piece.statuses) == 1:
                if isinstance(value, dict):
                    raise self.fail(
                        f"{piece.name} here have one status: give a bare count"
                        + ("" if is_space else " (pieces in a box have no status)"),
                        where,
                    )
                state.counts[first] = self.integer(value, where, 0, piece.inventory)
                continue
            by_status = self.obj(value, where, piece.statuses)
            for k, status in enumerate(piece.statuses):
                if status in by_status:
                    state.counts[first + k] = self.integer(
                        by_status[status], f"{where}.{status}", 0, piece.inventory
                    )

    def markers(self, state: CoinState, loc: int, raw: Any, path: str) -> None:
        rules = self.rules
        entries = self.obj(raw, path)
        n_markers = len(rules.marker_types)
        for marker_id, value in entries.items():
            where = f"{path}.{marker_id}"
            m = rules.marker_index.get(marker_id)
            if m is None or rules.marker_types[m].id != marker_id:
                raise self.fail(
                    f"unknown {rules.game} marker {marker_id!r}",
                    where,
                    [mt.id for mt in rules.marker_types],
                )
            pool = rules.data.pool(rules.marker_types[m].pool)
            state.marks[loc * n_markers + m] = self.integer(value, where, 0, pool.count)
