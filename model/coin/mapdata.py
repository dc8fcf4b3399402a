"""The maps of the COIN games, read from the TOML shipped with each game and checked.

A map file lists one ``[[space]]`` table per space and one ``[[box]]`` table per
holding box (a box is off the map: it has no neighbours). :func:`load_map` turns
it into a :class:`CoinMap`: the facts of every space, in file order, plus each
space's neighbours; the networkx graph of the functions of
:mod:`legalis.graphs.maps` is built from them when first asked for, so play never
imports networkx.

>>> lod = load_map("lod")
>>> len(lod.spaces), lod.boxes
(22, ('West Indies',))
>>> lod.space("Boston").population, lod.adjacent("Boston")
(1, ['Connecticut-Rhode Island', 'Massachusetts'])
>>> fitl = load_map("fitl")
>>> fitl.space("Saigon").type, fitl.space("Saigon").country
('City', 'South Vietnam')
>>> load_random_spaces().order(3, 3)[:3]
['Florida', 'South Carolina', 'Georgia']

A map file may also say where each space is drawn: a ``[frame]`` table (the
drawing's ``width`` and ``height``, y growing downward, and ``box``, the size of
the rectangle drawn for a space) and ``at = [x, y]`` on every space and box, its
centre. A board reads them from :attr:`CoinMap.positions`:

>>> lod.frame, lod.box, lod.positions["West Indies"]
((1200, 1400), (150, 84), (759, 1340))
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from legalis.graphs.maps import adjacency_lists, build_graph, random_space_order, spaces_within
from legalis.model.coin.gamedata import GAME_PACKAGES, read_game_file
from legalis.model.core.placement import read_placement
from legalis.model.errors import InputError

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "COUNTRIES",
    "GAMES",
    "PROVINCE_TYPES",
    "SPACE_TYPES",
    "TERRAINS",
    "CoinMap",
    "RandomSpaces",
    "SpaceInfo",
    "load_map",
    "load_random_spaces",
]

GAMES: dict[str, str] = GAME_PACKAGES
"""The COIN games with a bundled map, and the package holding each map file."""

SPACE_TYPES: dict[str, tuple[str, ...]] = {
    "lod": ("City", "Colony", "Reserve"),
    "fitl": ("City", "Province", "LoC"),
}
# In LoD "Province" is the name for Colonies and Reserves together (1.3); in FitL
# it is a space type of its own.
PROVINCE_TYPES = frozenset({"Colony", "Reserve", "Province"})
TERRAINS = ("Highland", "Jungle", "Lowland")
COUNTRIES = ("South Vietnam", "North Vietnam", "Laos", "Cambodia")


@dataclass(frozen=True)
class SpaceInfo:
    """The printed facts of one space.

    ``econ`` is the printed Econ of a FitL LoC and 0 on every other space;
    ``terrain`` is set only on FitL Provinces, ``country`` only on FitL spaces.
    """

    name: str
    type: str
    population: int
    econ: int = 0
    terrain: str | None = None
    coastal: bool = False
    country: str | None = None


@dataclass(frozen=True)
class CoinMap:
    """One game's map: the spaces in file order, the boxes, and each space's
    neighbours (``neighbours``: in the order the map file lists them).

    :attr:`graph` gives the same adjacency as a networkx graph.

    Where the map is drawn: ``frame`` is the drawing's (width, height), origin at
    the top left and y growing downward; ``box`` the (width, height) of the
    rectangle drawn for each space or box, centred on its position;
    ``positions`` maps each space and box name to its centre (x, y). A map file
    without positions leaves ``frame`` and ``box`` None and ``positions`` empty.
    """

    game: str
    neighbours: Mapping[str, tuple[str, ...]] = field(hash=False)
    spaces: tuple[SpaceInfo, ...]
    boxes: tuple[str, ...]
    frame: tuple[float, float] | None = None
    box: tuple[float, float] | None = None
    positions: Mapping[str, tuple[float, float]] = field(default_factory=dict, hash=False)

    @cached_property
    def graph(self) -> nx.Graph:
        """The adjacency graph, built on first use: its nodes are the space names,
        each carrying the :class:`SpaceInfo` fields (other than ``name``) as
        attributes. Boxes are not in the graph.

        Examples
        --------
        >>> load_map("lod").graph.nodes["Boston"]["population"]
        1
        """
        return build_graph(
            {**_attributes(info), "name": info.name, "adjacent": self.neighbours[info.name]}
            for info in self.spaces
        )

    def space(self, name: str, *, path: str = "space") -> SpaceInfo:
        """The facts of the space called ``name``.

        Raises
        ------
        InputError
            No space has that name; the message suggests the closest names and
            lists the allowed ones.

        Examples
        --------
        >>> load_map("lod").space("Quebec").type
        'Reserve'
        >>> load_map("lod").space("Bostn")
        Traceback (most recent call last):
        ...
        legalis.model.errors.InputError: space: unknown space 'Bostn' (did you mean Boston?) ...
        """
        found = self._by_name.get(name)
        if found is not None:
            return found
        names = self.names()
        close = _close_matches(name, names)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(f"unknown space {name!r}{hint}", path=path, allowed=names)

    @cached_property
    def _by_name(self) -> dict[str, SpaceInfo]:
        return {info.name: info for info in self.spaces}

    @cached_property
    def _types(self) -> dict[str, str]:
        """Each space's type, by name: the commonest question about a space (an
        unknown name is left to :meth:`space` to refuse)."""
        return {info.name: info.type for info in self.spaces}

    def names(self) -> list[str]:
        """The space names in file order (boxes excluded).

        Examples
        --------
        >>> load_map("lod").names()[:2]
        ['Quebec City', 'Boston']
        """
        return [info.name for info in self.spaces]

    def has_space(self, name: str) -> bool:
        """Whether ``name`` is a space of this map (a box is not).

        Examples
        --------
        >>> load_map("lod").has_space("West Indies")
        False
        """
        return name in self._by_name

    def is_box(self, name: str) -> bool:
        """Whether ``name`` is a holding box of this map.

        Examples
        --------
        >>> load_map("lod").is_box("West Indies")
        True
        """
        return name in self.boxes

    def is_city(self, name: str) -> bool:
        """Whether the space is a City.

        Examples
        --------
        >>> load_map("lod").is_city("Boston")
        True
        """
        return (self._types.get(name) or self.space(name).type) == "City"

    def is_province(self, name: str) -> bool:
        """Whether the space is a Province: an LoD Colony or Reserve, a FitL Province.

        Examples
        --------
        >>> load_map("lod").is_province("Quebec"), load_map("fitl").is_province("Hue")
        (True, False)
        """
        return (self._types.get(name) or self.space(name).type) in PROVINCE_TYPES

    def is_colony(self, name: str) -> bool:
        """Whether the space is an LoD Colony.

        Examples
        --------
        >>> load_map("lod").is_colony("Virginia")
        True
        """
        return (self._types.get(name) or self.space(name).type) == "Colony"

    def is_reserve(self, name: str) -> bool:
        """Whether the space is an LoD Indian Reserve.

        Examples
        --------
        >>> load_map("lod").is_reserve("Florida")
        True
        """
        return (self._types.get(name) or self.space(name).type) == "Reserve"

    def is_loc(self, name: str) -> bool:
        """Whether the space is a FitL Line of Communication.

        Examples
        --------
        >>> load_map("fitl").is_loc("Hue -- Da Nang")
        True
        """
        return self.space(name).type == "LoC"

    def is_coastal(self, name: str) -> bool:
        """Whether the space is coastal.

        Examples
        --------
        >>> load_map("lod").is_coastal("Northwest")
        False
        """
        return self.space(name).coastal

    def population(self, name: str) -> int:
        """The printed population of the space (0 for LoCs and Reserves).

        Examples
        --------
        >>> load_map("lod").population("New York City")
        2
        """
        return self.space(name).population

    def of_type(self, kind: str) -> list[str]:
        """The names of the spaces of one type, in file order.

        Examples
        --------
        >>> load_map("lod").of_type("Reserve")
        ['Quebec', 'Northwest', 'Southwest', 'Florida']
        """
        return [info.name for info in self.spaces if info.type == kind]

    def adjacent(self, name: str) -> list[str]:
        """The spaces adjacent to ``name``, sorted by name.

        Examples
        --------
        >>> load_map("lod").adjacent("Florida")
        ['Georgia', 'Southwest']
        """
        self.space(name)
        return sorted(self.neighbours[name])

    def are_adjacent(self, a: str, b: str) -> bool:
        """Whether two spaces are adjacent.

        Examples
        --------
        >>> load_map("lod").are_adjacent("Boston", "Massachusetts")
        True
        """
        self.space(a)
        self.space(b)
        return b in self.neighbours[a]

    def within(self, name: str, n: int) -> dict[str, int]:
        """The spaces at most ``n`` steps from ``name``, with their distances.

        Examples
        --------
        >>> load_map("lod").within("Florida", 1)
        {'Florida': 0, 'Georgia': 1, 'Southwest': 1}
        """
        self.space(name)
        return spaces_within(self.neighbours, name, n)


@dataclass(frozen=True)
class RandomSpaces:
    """The LoD Random Spaces table (8.2) and the cycle its arrows make.

    ``table`` maps ``(column, row)`` to the box's spaces, top first; ``cycle`` is
    every space once, in arrow order.
    """

    table: Mapping[tuple[int, int], tuple[str, ...]]
    cycle: tuple[str, ...]
    columns: int = 3
    rows: int = 6

    def order(self, column: int, row: int) -> list[str]:
        """Every space, in the order a roll of ``column`` (1D3) and ``row`` (1D6) tries them.

        Raises
        ------
        InputError
            The roll is off the table.

        Examples
        --------
        >>> load_random_spaces().order(1, 2)[:4]
        ['Quebec', 'New York', 'New Hampshire', 'Connecticut-Rhode Island']
        """
        if (column, row) not in self.table:
            raise InputError(
                f"no Random Spaces box at column {column}, row {row}",
                path="roll",
                allowed=[f"{c},{r}" for c, r in sorted(self.table)],
            )
        return random_space_order(self.table, self.cycle, column, row)

    def first(self, column: int, row: int, candidates: set[str] | frozenset[str]) -> str | None:
        """The candidate a roll selects (8.2), or None when no space is a candidate.

        Examples
        --------
        >>> load_random_spaces().first(2, 1, {"Maryland-Delaware", "Boston"})
        'Maryland-Delaware'
        """
        return next((name for name in self.order(column, row) if name in candidates), None)


def _field(
    record: Mapping[str, Any],
    key: str,
    kind: type,
    where: str,
    source: str,
    *,
    default: Any = None,
    required: bool = True,
) -> Any:
    if key not in record:
        if required:
            raise InputError("missing field", source=source, path=f"{where}.{key}")
        return default
    value = record[key]
    # bool is a subclass of int: a population of `true` is a mistake, not 1.
    if type(value) is not kind:
        raise InputError(
            f"expected {kind.__name__}, got {type(value).__name__} {value!r}",
            source=source,
            path=f"{where}.{key}",
        )
    return value


def _choice(value: object, allowed: tuple[object, ...], path: str, source: str) -> None:
    if value not in allowed:
        raise InputError(f"unknown value {value!r}", source=source, path=path, allowed=allowed)


def parse_map(game: str, data: Mapping[str, Any], *, source: str = "map.toml") -> CoinMap:
    """Check the parsed TOML of a map file and build its :class:`CoinMap`.

    Raises
    ------
    InputError
        A missing or mistyped field, an unknown type, terrain or country, an
        unknown or one-way neighbour, a position off the frame or missing while
        other spaces have one; the message gives the field path.

    Examples
    --------
    >>> m = parse_map("lod", {"space": [
    ...     {"name": "A", "type": "City", "population": 1, "coastal": True, "adjacent": ["B"]},
    ...     {"name": "B", "type": "Reserve", "population": 0, "coastal": False,
    ...      "adjacent": ["A"]}]})
    >>> m.names(), m.adjacent("A")
    (['A', 'B'], ['B'])
    >>> parse_map("lod", {"space": [{"name": "A", "type": "Town"}]})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: map.toml:space[0].type: unknown value 'Town' (allowed: ...)
    >>> parse_map("lod", {"frame": {"width": 100, "height": 80}, "space": [
    ...     {"name": "A", "type": "City", "population": 1, "coastal": True, "adjacent": [],
    ...      "at": [120, 40]}]})
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: map.toml:space[0].at: x = 120 is off the frame (0 to 100)
    """
    types = SPACE_TYPES.get(game)
    if types is None:
        raise InputError(f"no map for game {game!r}", path="game", allowed=GAMES)
    rows = data.get("space")
    if not isinstance(rows, list) or not rows:
        raise InputError("expected a list of [[space]] tables", source=source, path="space")
    spaces: list[SpaceInfo] = []
    records: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, row in enumerate(rows):
        where = f"space[{index}]"
        if not isinstance(row, dict):
            raise InputError("expected a table", source=source, path=where)
        name = _field(row, "name", str, where, source)
        if name in seen:
            raise InputError(f"space {name!r} is listed twice", source=source, path=f"{where}.name")
        seen.add(name)
        kind = _field(row, "type", str, where, source)
        _choice(kind, types, f"{where}.type", source)
        population = _field(row, "population", int, where, source)
        if population < 0:
            raise InputError("population below 0", source=source, path=f"{where}.population")
        econ = _field(row, "econ", int, where, source, default=0, required=False)
        if econ < 0:
            raise InputError("econ below 0", source=source, path=f"{where}.econ")
        terrain = _field(row, "terrain", str, where, source, required=False)
        if terrain is not None:
            _choice(terrain, TERRAINS, f"{where}.terrain", source)
        coastal = _field(row, "coastal", bool, where, source)
        country = _field(row, "country", str, where, source, required=False)
        if country is not None:
            _choice(country, COUNTRIES, f"{where}.country", source)
        adjacent = _field(row, "adjacent", list, where, source)
        for position, other in enumerate(adjacent):
            if not isinstance(other, str):
                raise InputError(
                    f"expected a space name, got {other!r}",
                    source=source,
                    path=f"{where}.adjacent[{position}]",
                )
        info = SpaceInfo(name, kind, population, econ, terrain, coastal, country)
        spaces.append(info)
        records.append({"name": name, "adjacent": adjacent})
    names = [info.name for info in spaces]
    for index, row in enumerate(rows):
        for position, other in enumerate(row["adjacent"]):
            if other not in seen:
                close = _close_matches(other, names)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise InputError(
                    f"space {row['name']!r} lists unknown space {other!r} as adjacent{hint}",
                    source=source,
                    path=f"space[{index}].adjacent[{position}]",
                    allowed=names,
                )
    try:
        neighbours = adjacency_lists(records)
    except ValueError as err:
        raise InputError(str(err), source=source, path="space") from err
    boxes = _boxes(data, seen, source)
    adjacency = {name: tuple(others) for name, others in neighbours.items()}
    tables = [(f"space[{index}]", row["name"], row) for index, row in enumerate(rows)]
    tables += [(f"box[{index}]", row["name"], row) for index, row in enumerate(data.get("box", []))]
    frame, box, positions = read_placement(data, tables, source=source)
    return CoinMap(game, adjacency, tuple(spaces), boxes, frame, box, positions)


def _attributes(info: SpaceInfo) -> dict[str, Any]:
    return {
        "type": info.type,
        "population": info.population,
        "econ": info.econ,
        "terrain": info.terrain,
        "coastal": info.coastal,
        "country": info.country,
    }


def _boxes(data: Mapping[str, Any], spaces: set[str], source: str) -> tuple[str, ...]:
    rows = data.get("box", [])
    if not isinstance(rows, list):
        raise InputError("expected a list of [[box]] tables", source=source, path="box")
    boxes: list[str] = []
    for index, row in enumerate(rows):
        where = f"box[{index}]"
        if not isinstance(row, dict):
            raise InputError("expected a table", source=source, path=where)
        name = _field(row, "name", str, where, source)
        if name in spaces or name in boxes:
            raise InputError(f"name {name!r} is used twice", source=source, path=f"{where}.name")
        population = _field(row, "population", int, where, source)
        if population != 0:
            raise InputError("a box has population 0", source=source, path=f"{where}.population")
        boxes.append(name)
    return tuple(boxes)


@cache
def load_map(game: str) -> CoinMap:
    """The map of ``game`` ("lod" or "fitl"), read once and kept.

    Raises
    ------
    InputError
        An unknown game, or a map file that fails its checks.

    Examples
    --------
    >>> len(load_map("fitl").spaces)
    47
    >>> load_map("gmt")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: game: no map for game 'gmt' (allowed: lod, fitl)
    """
    if game not in GAMES:
        raise InputError(f"no map for game {game!r}", path="game", allowed=GAMES)
    return parse_map(game, read_game_file(game, "map.toml"), source=f"{game}/map.toml")


def parse_random_spaces(
    data: Mapping[str, Any], spaces: list[str], *, source: str = "random_spaces.toml"
) -> RandomSpaces:
    """Check the parsed TOML of a Random Spaces file against the map's space names.

    Every box of the 3 x 6 table must be present once; the cycle must hold every
    space once; each box's spaces must follow one another along the cycle, as
    the arrows of the printed table do.

    Raises
    ------
    InputError
        With the field path of the first fault.

    Examples
    --------
    >>> parse_random_spaces({"cycle": ["A"], "box": []}, ["A", "B"])
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: random_spaces.toml:cycle: missing spaces: B
    """
    cycle = data.get("cycle")
    if not isinstance(cycle, list) or not all(isinstance(name, str) for name in cycle):
        raise InputError("expected a list of space names", source=source, path="cycle")
    for index, name in enumerate(cycle):
        if name not in spaces:
            raise InputError(
                f"unknown space {name!r}", source=source, path=f"cycle[{index}]", allowed=spaces
            )
        if name in cycle[:index]:
            raise InputError(
                f"space {name!r} is listed twice", source=source, path=f"cycle[{index}]"
            )
    missing = [name for name in spaces if name not in cycle]
    if missing:
        raise InputError(f"missing spaces: {', '.join(missing)}", source=source, path="cycle")
    rows = data.get("box")
    if not isinstance(rows, list):
        raise InputError("expected a list of [[box]] tables", source=source, path="box")
    result = RandomSpaces({}, tuple(cycle))
    table: dict[tuple[int, int], tuple[str, ...]] = {}
    for index, row in enumerate(rows):
        where = f"box[{index}]"
        if not isinstance(row, dict):
            raise InputError("expected a table", source=source, path=where)
        column = _field(row, "column", int, where, source)
        _choice(column, tuple(range(1, result.columns + 1)), f"{where}.column", source)
        line = _field(row, "row", int, where, source)
        _choice(line, tuple(range(1, result.rows + 1)), f"{where}.row", source)
        names = _field(row, "spaces", list, where, source)
        if not names or not all(isinstance(name, str) and name in spaces for name in names):
            raise InputError(
                f"expected one or more space names, got {names!r}",
                source=source,
                path=f"{where}.spaces",
                allowed=spaces,
            )
        if (column, line) in table:
            raise InputError(
                f"column {column}, row {line} is given twice", source=source, path=where
            )
        for first, second in itertools.pairwise(names):
            if cycle[(cycle.index(first) + 1) % len(cycle)] != second:
                raise InputError(
                    f"{second!r} does not follow {first!r} in the cycle",
                    source=source,
                    path=f"{where}.spaces",
                )
        table[(column, line)] = tuple(names)
    if len(table) != result.columns * result.rows:
        raise InputError(
            f"expected {result.columns * result.rows} boxes, got {len(table)}",
            source=source,
            path="box",
        )
    return RandomSpaces(table, tuple(cycle))


@cache
def load_random_spaces() -> RandomSpaces:
    """The LoD Random Spaces table (8.2), checked against the LoD map.

    Examples
    --------
    >>> load_random_spaces().table[(2, 5)]
    ('Southwest', 'Virginia')
    """
    return parse_random_spaces(
        read_game_file("lod", "random_spaces.toml"),
        load_map("lod").names(),
        source="lod/random_spaces.toml",
    )


def _close_matches(name: str, names: Iterable[str]) -> list[str]:
    """Up to three of ``names`` close to ``name``, for an error's "did you mean"."""
    import difflib  # only when a name is wrong: play never needs it

    return difflib.get_close_matches(name, list(names), n=3)
