"""The configuration of a COIN game: factions, pieces, boxes, tracks, markers and side rules.

Each game ships a ``game.toml`` beside its map. :func:`load_game_data` reads it,
checks every field (an :class:`InputError` names the field path of the first
fault) and returns a frozen :class:`GameData`. Everything the shared state needs
to know about one game is here, so :mod:`legalis.model.coin.state` holds no
game-specific rule: stacking, the boxes each piece may sit in, the placement
restrictions (Indians in Cities, US in North Vietnam, ...) and the track caps
are all data.

>>> lod = load_game_data("lod")
>>> [f.id for f in lod.factions], lod.faction("french").side
(['british', 'patriots', 'french', 'indians'], 'rebellion')
>>> lod.piece("militia").statuses, lod.piece("british_fort").stacking
(('underground', 'active'), True)
>>> fitl = load_game_data("fitl")
>>> fitl.piece("vc_base").statuses, fitl.track("trail").hi
(('active', 'tunneled'), 4)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, TypeVar

from legalis.model.core.documents import package_folder
from legalis.model.errors import InputError

__all__ = [
    "ELIGIBILITY",
    "GAME_PACKAGES",
    "STATUSES",
    "SUPPORT_LEVELS",
    "Box",
    "CardList",
    "ControlRule",
    "Faction",
    "GameData",
    "Leader",
    "MarkerPool",
    "MarkerType",
    "PieceType",
    "Restriction",
    "StatusLimit",
    "Track",
    "load_game_data",
    "parse_game_data",
]


GAME_PACKAGES: dict[str, str] = {"lod": "legalis.model.lod", "fitl": "legalis.model.fitl"}
"""The COIN games with bundled data, and the package holding each game's files."""

STATUSES = ("active", "underground", "tunneled")
"""Every status a piece may have; each piece type allows some of them."""

SUPPORT_LEVELS = (
    "active_opposition",
    "passive_opposition",
    "neutral",
    "passive_support",
    "active_support",
)
"""The five levels of Support and Opposition, from Opposition up to Support; a
level's value is its index minus 2 (Active Opposition -2, Active Support +2)."""

ELIGIBILITY = ("eligible", "ineligible")
"""The two values of a Faction's eligibility."""


@dataclass(frozen=True)
class Faction:
    """One Faction and the side it belongs to.

    >>> load_game_data("fitl").faction("nva")
    Faction(id='nva', name='NVA', side='insurgent')
    """

    id: str
    name: str
    side: str


@dataclass(frozen=True)
class PieceType:
    """One kind of piece.

    ``statuses`` lists the statuses a piece of this type may have on the map; the
    first is the status it is placed in and the one it has in every box.
    ``stacking`` marks the base-like pieces that count against the stacking limit.

    >>> p = load_game_data("lod").piece("war_party")
    >>> p.name, p.faction, p.default_status, p.can_flip, p.inventory
    ('War Parties', 'indians', 'underground', True, 15)
    """

    id: str
    name: str
    faction: str
    kind: str
    statuses: tuple[str, ...]
    stacking: bool
    inventory: int

    @property
    def default_status(self) -> str:
        """The status of a newly placed piece, and of every piece in a box."""
        return self.statuses[0]

    @property
    def can_flip(self) -> bool:
        """Whether the piece can be Underground or Active."""
        return "underground" in self.statuses

    @property
    def can_tunnel(self) -> bool:
        """Whether the piece can be Tunneled (FitL NVA and VC Bases)."""
        return "tunneled" in self.statuses


@dataclass(frozen=True)
class Box:
    """A holding box off the map and the piece types it may hold.

    >>> b = load_game_data("lod").box("West Indies")
    >>> b.id, b.pieces, b.stacking
    ('west_indies', ('british_regular', 'british_fort', 'french_regular'), True)
    """

    id: str
    name: str
    pieces: tuple[str, ...]
    stacking: bool
    rule: str


@dataclass(frozen=True)
class Track:
    """A numbered track and its caps.

    ``zero_unless_flag``: the track stays 0 until that flag is set.
    ``at_most_markers``: the track never exceeds the number of that marker kept
    outside the boxes in ``markers_outside`` (LoD FNI and the Squadrons, 1.9).

    >>> t = load_game_data("lod").track("fni")
    >>> t.lo, t.hi, t.rule, t.zero_unless_flag
    (0, 3, '1.9', 'toa_played')
    """

    id: str
    name: str
    lo: int
    hi: int
    rule: str
    zero_unless_flag: str | None = None
    at_most_markers: str | None = None
    markers_outside: tuple[str, ...] = ()


@dataclass(frozen=True)
class MarkerPool:
    """A stock of markers shared by one or more marker kinds.

    A ``conserved`` pool keeps every marker somewhere on the map or in a box, so
    the counts must add up to ``count``; otherwise markers not on the map are in
    the supply and the map may hold at most ``count``.

    >>> load_game_data("fitl").pool("terror")
    MarkerPool(id='terror', count=15, conserved=False, rule='3.3.4')
    """

    id: str
    count: int
    conserved: bool
    rule: str


@dataclass(frozen=True)
class MarkerType:
    """A kind of marker: where it may lie and which pool it comes from.

    ``home`` is the box that holds the pool's markers in an empty state;
    ``requires_flag``: the marker may lie on a map space only once the flag is set;
    ``blocks_support``: a space with this marker counts population 0 for Total
    Support (LoD Blockades, 1.9).

    >>> m = load_game_data("lod").marker("blockade")
    >>> m.space_types, m.boxes, m.requires_flag, m.home, m.blocks_support
    (('City',), ('West Indies', 'Unavailable'), 'toa_played', 'Unavailable', True)
    """

    id: str
    name: str
    pool: str
    space_types: tuple[str, ...]
    boxes: tuple[str, ...]
    rule: str
    requires_flag: str | None = None
    home: str | None = None
    blocks_support: bool = False


@dataclass(frozen=True)
class Restriction:
    """Pieces that may not be in some map spaces (by type or country), unless a flag is set.

    >>> r = load_game_data("fitl").restriction("coin_not_in_north_vietnam")
    >>> r.countries, r.rule
    (('North Vietnam',), '1.4.2')
    """

    id: str
    pieces: tuple[str, ...]
    space_types: tuple[str, ...]
    countries: tuple[str, ...]
    unless_flag: str | None
    rule: str
    reason: str

    def applies(self, space_type: str, country: str | None) -> bool:
        """Whether a space of this type and country is one the restriction forbids.

        >>> load_game_data("fitl").restriction("no_bases_on_locs").applies("LoC", None)
        True
        """
        return space_type in self.space_types or (country is not None and country in self.countries)


@dataclass(frozen=True)
class ControlRule:
    """Control by a group of Factions: their pieces exceed all other pieces in the
    space, and (``requires``) at least one piece of those Factions is present.

    >>> c = load_game_data("lod").control_rule("british")
    >>> c.factions, c.requires
    (('british', 'indians'), ('british',))
    """

    id: str
    name: str
    factions: tuple[str, ...]
    requires: tuple[str, ...]
    space_types: tuple[str, ...]
    boxes: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class StatusLimit:
    """A cap on the pieces with one status on the map (FitL Tunnel markers).

    >>> load_game_data("fitl").status_limits[0].count
    6
    """

    status: str
    count: int
    name: str
    rule: str


@dataclass(frozen=True)
class Leader:
    """A Leader and its Faction (LoD 1.10).

    >>> load_game_data("lod").leader("Washington").faction
    'patriots'
    """

    name: str
    faction: str


@dataclass(frozen=True)
class CardList:
    """A list of card or leader names kept in the state (held Brilliant Strokes,
    the RVN Leaders in play, ...); ``ordered`` lists keep their order.

    >>> load_game_data("fitl").card_list("rvn_leaders").ordered
    True
    """

    id: str
    name: str
    allowed: tuple[str, ...]
    ordered: bool


_T = TypeVar("_T")

# the lists of a game's data whose items are looked up by id or name
_LOOKED_UP = ("factions", "pieces", "boxes", "tracks", "pools", "markers", "restrictions",
              "control", "leaders", "card_lists")  # fmt: skip


@dataclass(frozen=True)
class GameData:
    """The whole configuration of one COIN game, as read from its ``game.toml``.

    >>> data = load_game_data("lod")
    >>> data.stacking_max, data.stacking_space_types
    (2, ('City', 'Colony', 'Reserve'))
    >>> [b.name for b in data.boxes]
    ['Available', 'Unavailable', 'Casualties', 'West Indies']
    """

    game: str
    name: str
    sides: tuple[tuple[str, str], ...]
    factions: tuple[Faction, ...]
    pieces: tuple[PieceType, ...]
    boxes: tuple[Box, ...]
    tracks: tuple[Track, ...]
    flags: tuple[tuple[str, str], ...]
    pools: tuple[MarkerPool, ...]
    markers: tuple[MarkerType, ...]
    restrictions: tuple[Restriction, ...]
    control: tuple[ControlRule, ...]
    status_limits: tuple[StatusLimit, ...]
    leaders: tuple[Leader, ...]
    card_lists: tuple[CardList, ...]
    stacking_max: int
    stacking_space_types: tuple[str, ...]
    stacking_rule: str
    support_rule: str
    support_space_types: tuple[str, ...]
    available_box: str
    paying_free_actions: tuple[str, ...] = ()

    # ---------------------------------------------------------------- lookups

    @cached_property
    def _by_key(self) -> dict[tuple[str, str], Any]:
        """Each listed item by (list, id) and (list, name); the first item of a list
        holding the key wins, as a search in order would find it."""
        found: dict[tuple[str, str], Any] = {}
        for field in _LOOKED_UP:
            for item in getattr(self, field):
                for key in (getattr(item, "id", None), getattr(item, "name", None)):
                    if key is not None:
                        found.setdefault((field, key), item)
        return found

    def _lookup(self, field: str, wanted: str, path: str, what: str, kind: type[_T]) -> _T:
        item = self._by_key.get((field, wanted))
        if item is None:
            allowed = [_key(i) for i in getattr(self, field)]
            raise InputError(f"unknown {what} {wanted!r}", path=path, allowed=allowed)
        assert isinstance(item, kind)
        return item

    def faction(self, faction_id: str, *, path: str = "faction") -> Faction:
        """The Faction with this id (its name is accepted too).

        >>> load_game_data("lod").faction("Patriots").id
        'patriots'
        """
        return self._lookup("factions", faction_id, path, "Faction", Faction)

    def piece(self, piece_id: str, *, path: str = "piece") -> PieceType:
        """The piece type with this id (its name is accepted too).

        >>> load_game_data("fitl").piece("NVA Guerrillas").id
        'nva_guerrilla'
        >>> load_game_data("fitl").piece("tank")
        Traceback (most recent call last):
        ...
        legalis.model.errors.InputError: piece: unknown piece type 'tank' (allowed: ...)
        """
        return self._lookup("pieces", piece_id, path, "piece type", PieceType)

    def box(self, name: str, *, path: str = "box") -> Box:
        """The box with this name (its id is accepted too).

        >>> load_game_data("fitl").box("out_of_play").name
        'Out of Play'
        """
        return self._lookup("boxes", name, path, "box", Box)

    def track(self, track_id: str, *, path: str = "track") -> Track:
        """The track with this id (its name is accepted too).

        >>> load_game_data("fitl").track("aid").hi
        75
        """
        return self._lookup("tracks", track_id, path, "track", Track)

    def pool(self, pool_id: str, *, path: str = "pool") -> MarkerPool:
        """The marker pool with this id.

        >>> load_game_data("lod").pool("squadrons").count
        3
        """
        return self._lookup("pools", pool_id, path, "marker pool", MarkerPool)

    def marker(self, marker_id: str, *, path: str = "marker") -> MarkerType:
        """The marker kind with this id (its name is accepted too).

        >>> load_game_data("fitl").marker("sabotage").space_types
        ('LoC',)
        """
        return self._lookup("markers", marker_id, path, "marker", MarkerType)

    def restriction(self, restriction_id: str) -> Restriction:
        """The placement restriction with this id.

        >>> load_game_data("lod").restriction("indians_not_in_cities").rule
        '1.4.2'
        """
        return self._lookup(
            "restrictions", restriction_id, "restriction", "restriction", Restriction
        )

    def control_rule(self, control_id: str) -> ControlRule:
        """The Control rule with this id.

        >>> load_game_data("fitl").control_rule("nva").factions
        ('nva',)
        """
        return self._lookup("control", control_id, "control", "control", ControlRule)

    def leader(self, name: str, *, path: str = "leader") -> Leader:
        """The Leader with this name.

        >>> load_game_data("lod").leader("Brant").faction
        'indians'
        """
        return self._lookup("leaders", name, path, "Leader", Leader)

    def card_list(self, list_id: str, *, path: str = "list") -> CardList:
        """The card list with this id.

        >>> "Treaty of Alliance" in load_game_data("lod").card_list("brilliant_strokes").allowed
        True
        """
        return self._lookup("card_lists", list_id, path, "list", CardList)

    def flag_ids(self) -> list[str]:
        """The ids of the game's flags.

        >>> load_game_data("lod").flag_ids()
        ['toa_played']
        """
        return [flag for flag, _ in self.flags]

    def faction_ids(self) -> list[str]:
        """The Faction ids in file order.

        >>> load_game_data("fitl").faction_ids()
        ['us', 'arvn', 'nva', 'vc']
        """
        return [faction.id for faction in self.factions]

    def side_of(self, faction_id: str) -> str:
        """The side of a Faction.

        >>> load_game_data("fitl").side_of("arvn")
        'coin'
        """
        return self.faction(faction_id).side


def _key(item: Any) -> str:
    return str(getattr(item, "id", None) or getattr(item, "name", None) or item)


# ---------------------------------------------------------------------- reading


class _Reader:
    """Typed access to the raw TOML, every error naming the file and the field path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str, path: str, allowed: Any = None) -> InputError:
        return InputError(message, source=self.source, path=path, allowed=allowed)

    def table(self, value: Any, path: str, known: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail("expected a table", path)
        for key in value:
            if key not in known:
                raise self.fail(f"unknown field {key!r}", f"{path}.{key}", known)
        return value

    def tables(self, data: Mapping[str, Any], key: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"expected a list of [[{key}]] tables", key)
        return value

    def get(
        self, record: Mapping[str, Any], key: str, kind: type, path: str, default: Any = ...
    ) -> Any:
        where = f"{path}.{key}" if path else key
        if key not in record:
            if default is ...:
                raise self.fail("missing field", where)
            return default
        value = record[key]
        # bool is a subclass of int: an inventory of `true` is a mistake, not 1.
        if type(value) is not kind:
            raise self.fail(
                f"expected {kind.__name__}, got {type(value).__name__} {value!r}", where
            )
        return value

    def names(
        self,
        record: Mapping[str, Any],
        key: str,
        path: str,
        allowed: list[str] | tuple[str, ...] | None = None,
        *,
        required: bool = False,
    ) -> tuple[str, ...]:
        value = self.get(record, key, list, path, ... if required else [])
        out: list[str] = []
        for index, item in enumerate(value):
            where = f"{path}.{key}[{index}]" if path else f"{key}[{index}]"
            if not isinstance(item, str):
                raise self.fail(f"expected a name, got {item!r}", where)
            if allowed is not None and item not in allowed:
                raise self.fail(f"unknown name {item!r}", where, allowed)
            if item in out:
                raise self.fail(f"{item!r} is listed twice", where)
            out.append(item)
        return tuple(out)

    def id_names(self, data: Mapping[str, Any], key: str) -> list[tuple[str, str]]:
        """The (id, name) pairs of ``[[key]]`` tables, ids unique."""
        seen: set[str] = set()
        out = []
        for i, row in enumerate(self.tables(data, key)):
            path = f"{key}[{i}]"
            row = self.table(row, path, ("id", "name"))
            out.append(
                (
                    self.unique(seen, self.get(row, "id", str, path), f"{path}.id"),
                    self.get(row, "name", str, path),
                )
            )
        return out

    def choice(self, value: str, allowed: list[str] | tuple[str, ...], path: str) -> str:
        if value not in allowed:
            raise self.fail(f"unknown value {value!r}", path, allowed)
        return value

    def unique(self, seen: set[str], value: str, path: str) -> str:
        if value in seen:
            raise self.fail(f"{value!r} is used twice", path)
        seen.add(value)
        return value


_TOP = (
    "game", "name", "support_rule", "support_space_types", "available_box", "side",
    "faction", "piece", "box", "stacking", "track", "flag", "marker_pool", "marker",
    "restriction", "control", "status_limit", "leader", "card_list", "paying_free_actions",
)  # fmt: skip


def parse_game_data(data: Mapping[str, Any], *, source: str = "game.toml") -> GameData:
    """Check the parsed TOML of a ``game.toml`` and build its :class:`GameData`.

    Raises
    ------
    InputError
        A missing, unknown or mistyped field, an unknown name, a negative count;
        the message gives the field path.

    Examples
    --------
    >>> parse_game_data({"game": "lod", "name": "x", "sidee": []})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: game.toml:sidee: unknown field 'sidee' (allowed: ...)
    """
    r = _Reader(source)
    for key in data:
        if key not in _TOP:
            raise r.fail(f"unknown field {key!r}", key, _TOP)
    game = r.choice(r.get(data, "game", str, ""), tuple(GAME_PACKAGES), "game")
    name = r.get(data, "name", str, "")

    sides = r.id_names(data, "side")
    seen: set[str] = set()
    side_ids = [s for s, _ in sides]

    factions: list[Faction] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "faction")):
        path = f"faction[{i}]"
        row = r.table(row, path, ("id", "name", "side"))
        fid = r.unique(seen, r.get(row, "id", str, path), f"{path}.id")
        side = r.choice(r.get(row, "side", str, path), side_ids, f"{path}.side")
        factions.append(Faction(fid, r.get(row, "name", str, path), side))
    faction_ids = [f.id for f in factions]
    if not factions:
        raise r.fail("no [[faction]] tables", "faction")

    pieces: list[PieceType] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "piece")):
        path = f"piece[{i}]"
        row = r.table(
            row, path, ("id", "name", "faction", "kind", "statuses", "stacking", "inventory")
        )
        pid = r.unique(seen, r.get(row, "id", str, path), f"{path}.id")
        statuses = r.names(row, "statuses", path, STATUSES, required=True)
        if not statuses:
            raise r.fail("a piece type has at least one status", f"{path}.statuses")
        inventory = r.get(row, "inventory", int, path)
        if inventory < 0:
            raise r.fail("an inventory is 0 or more", f"{path}.inventory")
        pieces.append(
            PieceType(
                pid,
                r.get(row, "name", str, path),
                r.choice(r.get(row, "faction", str, path), faction_ids, f"{path}.faction"),
                r.get(row, "kind", str, path),
                statuses,
                r.get(row, "stacking", bool, path, False),
                inventory,
            )
        )
    piece_ids = [p.id for p in pieces]
    if not pieces:
        raise r.fail("no [[piece]] tables", "piece")

    boxes: list[Box] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "box")):
        path = f"box[{i}]"
        row = r.table(row, path, ("id", "name", "pieces", "stacking", "rule"))
        bid = r.unique(seen, r.get(row, "id", str, path), f"{path}.id")
        bname = r.unique(seen, r.get(row, "name", str, path), f"{path}.name")
        held = row.get("pieces")
        allowed = tuple(piece_ids) if held == "all" else r.names(row, "pieces", path, piece_ids)
        boxes.append(
            Box(bid, bname, allowed, r.get(row, "stacking", bool, path, False),
                r.get(row, "rule", str, path, "1.4.1"))
        )  # fmt: skip
    box_names = [b.name for b in boxes]
    available = r.choice(r.get(data, "available_box", str, ""), box_names, "available_box")

    stacking = r.table(data.get("stacking", {}), "stacking", ("max", "space_types", "rule"))
    stacking_max = r.get(stacking, "max", int, "stacking")
    if stacking_max < 0:
        raise r.fail("a stacking limit is 0 or more", "stacking.max")

    flags = r.id_names(data, "flag")
    seen = set()
    flag_ids = [f for f, _ in flags]

    pools: list[MarkerPool] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "marker_pool")):
        path = f"marker_pool[{i}]"
        row = r.table(row, path, ("id", "count", "conserved", "rule"))
        count = r.get(row, "count", int, path)
        if count < 0:
            raise r.fail("a marker count is 0 or more", f"{path}.count")
        pools.append(
            MarkerPool(r.unique(seen, r.get(row, "id", str, path), f"{path}.id"), count,
                       r.get(row, "conserved", bool, path, False), r.get(row, "rule", str, path))
        )  # fmt: skip
    pool_ids = [p.id for p in pools]

    markers: list[MarkerType] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "marker")):
        path = f"marker[{i}]"
        row = r.table(
            row,
            path,
            ("id", "name", "pool", "space_types", "boxes", "rule", "requires_flag", "home",
             "blocks_support"),
        )  # fmt: skip
        flag = r.get(row, "requires_flag", str, path, None)
        if flag is not None:
            r.choice(flag, flag_ids, f"{path}.requires_flag")
        held_in = r.names(row, "boxes", path, box_names)
        home = r.get(row, "home", str, path, None)
        if home is not None:
            r.choice(home, held_in, f"{path}.home")
        markers.append(
            MarkerType(
                r.unique(seen, r.get(row, "id", str, path), f"{path}.id"),
                r.get(row, "name", str, path),
                r.choice(r.get(row, "pool", str, path), pool_ids, f"{path}.pool"),
                r.names(row, "space_types", path),
                held_in,
                r.get(row, "rule", str, path),
                flag,
                home,
                r.get(row, "blocks_support", bool, path, False),
            )
        )
    marker_ids = [m.id for m in markers]

    tracks: list[Track] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "track")):
        path = f"track[{i}]"
        row = r.table(
            row,
            path,
            ("id", "name", "min", "max", "rule", "zero_unless_flag", "at_most_markers",
             "markers_outside"),
        )  # fmt: skip
        lo, hi = r.get(row, "min", int, path), r.get(row, "max", int, path)
        if lo > hi:
            raise r.fail(f"min {lo} is above max {hi}", f"{path}.min")
        flag = r.get(row, "zero_unless_flag", str, path, None)
        if flag is not None:
            r.choice(flag, flag_ids, f"{path}.zero_unless_flag")
        marker = r.get(row, "at_most_markers", str, path, None)
        if marker is not None:
            r.choice(marker, marker_ids, f"{path}.at_most_markers")
        tracks.append(
            Track(
                r.unique(seen, r.get(row, "id", str, path), f"{path}.id"),
                r.get(row, "name", str, path),
                lo,
                hi,
                r.get(row, "rule", str, path),
                flag,
                marker,
                r.names(row, "markers_outside", path, box_names),
            )
        )

    restrictions: list[Restriction] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "restriction")):
        path = f"restriction[{i}]"
        row = r.table(
            row,
            path,
            ("id", "pieces", "space_types", "countries", "unless_flag", "rule", "reason"),
        )
        flag = r.get(row, "unless_flag", str, path, None)
        if flag is not None:
            r.choice(flag, flag_ids, f"{path}.unless_flag")
        restrictions.append(
            Restriction(
                r.unique(seen, r.get(row, "id", str, path), f"{path}.id"),
                r.names(row, "pieces", path, piece_ids, required=True),
                r.names(row, "space_types", path),
                r.names(row, "countries", path),
                flag,
                r.get(row, "rule", str, path),
                r.get(row, "reason", str, path),
            )
        )

    control: list[ControlRule] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "control")):
        path = f"control[{i}]"
        row = r.table(
            row, path, ("id", "name", "factions", "requires", "space_types", "boxes", "rule")
        )
        control.append(
            ControlRule(
                r.unique(seen, r.get(row, "id", str, path), f"{path}.id"),
                r.get(row, "name", str, path),
                r.names(row, "factions", path, faction_ids, required=True),
                r.names(row, "requires", path, faction_ids),
                r.names(row, "space_types", path),
                r.names(row, "boxes", path, box_names),
                r.get(row, "rule", str, path),
            )
        )

    limits: list[StatusLimit] = []
    for i, row in enumerate(r.tables(data, "status_limit")):
        path = f"status_limit[{i}]"
        row = r.table(row, path, ("status", "count", "name", "rule"))
        count = r.get(row, "count", int, path)
        if count < 0:
            raise r.fail("a limit is 0 or more", f"{path}.count")
        limits.append(
            StatusLimit(
                r.choice(r.get(row, "status", str, path), STATUSES, f"{path}.status"),
                count,
                r.get(row, "name", str, path),
                r.get(row, "rule", str, path),
            )
        )

    leaders: list[Leader] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "leader")):
        path = f"leader[{i}]"
        row = r.table(row, path, ("name", "faction"))
        leaders.append(
            Leader(
                r.unique(seen, r.get(row, "name", str, path), f"{path}.name"),
                r.choice(r.get(row, "faction", str, path), faction_ids, f"{path}.faction"),
            )
        )

    lists: list[CardList] = []
    seen = set()
    for i, row in enumerate(r.tables(data, "card_list")):
        path = f"card_list[{i}]"
        row = r.table(row, path, ("id", "name", "allowed", "ordered"))
        lists.append(
            CardList(
                r.unique(seen, r.get(row, "id", str, path), f"{path}.id"),
                r.get(row, "name", str, path),
                r.names(row, "allowed", path, required=True),
                r.get(row, "ordered", bool, path, False),
            )
        )

    return GameData(
        game=game,
        name=name,
        sides=tuple(sides),
        factions=tuple(factions),
        pieces=tuple(pieces),
        boxes=tuple(boxes),
        tracks=tuple(tracks),
        flags=tuple(flags),
        pools=tuple(pools),
        markers=tuple(markers),
        restrictions=tuple(restrictions),
        control=tuple(control),
        status_limits=tuple(limits),
        leaders=tuple(leaders),
        card_lists=tuple(lists),
        stacking_max=stacking_max,
        stacking_space_types=r.names(stacking, "space_types", "stacking"),
        stacking_rule=r.get(stacking, "rule", str, "stacking"),
        support_rule=r.get(data, "support_rule", str, ""),
        support_space_types=r.names(data, "support_space_types", "", required=True),
        available_box=available,
        paying_free_actions=r.names(data, "paying_free_actions", ""),
    )


def read_game_file(game: str, filename: str) -> dict[str, Any]:
    """The parsed TOML file ``filename`` of ``game``'s package.

    Raises
    ------
    InputError
        An unknown game, a missing file or a file that is not TOML.

    Examples
    --------
    >>> read_game_file("lod", "game.toml")["game"]
    'lod'
    """
    if game not in GAME_PACKAGES:
        raise InputError(f"no COIN game {game!r}", path="game", allowed=GAME_PACKAGES)
    source = f"{game}/{filename}"
    try:
        text = package_folder(GAME_PACKAGES[game]).joinpath(filename).read_text("utf-8")
        return tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise InputError(f"cannot read the game data: {err}", source=source) from err


@cache
def load_game_data(game: str) -> GameData:
    """The configuration of ``game`` ("lod" or "fitl"), read once and kept.

    Raises
    ------
    InputError
        An unknown game, or a ``game.toml`` that fails its checks.

    Examples
    --------
    >>> load_game_data("lod").piece("village").inventory
    12
    >>> load_game_data("go")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: game: no COIN game 'go' (allowed: lod, fitl)
    """
    raw = read_game_file(game, "game.toml")
    data = parse_game_data(raw, source=f"{game}/game.toml")
    if data.game != game:
        raise InputError(f"the file is for {data.game!r}", source=f"{game}/game.toml", path="game")
    return data
