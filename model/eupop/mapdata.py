"""The EU:PoP map: Areas and their Provinces, land and mountain borders, Sea Zones.

The bundled map (``map.toml``) holds the public facts about the real board; a
state may instead carry a small map of its own (the same shape, as a JSON object),
which is how tests and fixtures build precise situations.

>>> bundled = load_map("bundled")
>>> bundled.area_of("Leipzig"), "bohemia" in bundled.land_neighbours("saxony")
('saxony', True)
>>> small = load_map({"area": [
...     {"id": "a", "provinces": ["P"], "borders": []},
...     {"id": "b", "provinces": ["Q"], "borders": []}],
...     "sea": [{"id": "s", "mark": "†", "areas": ["a", "b"]}]})
>>> small.sea_neighbours("a"), small.seas["s"].mark
(['b'], '†')

Where the map is drawn: the bundled map has a frame (width, height; y grows
downward), the size of the rectangle drawn for an Area, and a centre for every
Area and Sea Zone (a Sea Zone's is where its name goes):

>>> bundled.frame, bundled.box, bundled.positions["saxony"]
((1800, 1300), (120, 48), (802, 499))
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import networkx as nx
from legalis.graphs.regions import land_neighbours, region_graph, sea_neighbours
from legalis.model.core.documents import package_folder
from legalis.model.errors import InputError

__all__ = ["AreaInfo", "EuMap", "SeaInfo", "load_map"]

MARKS = ("none", "*", "†", "unknown")


@dataclass(frozen=True)
class AreaInfo:
    id: str
    name: str
    provinces: tuple[str, ...]
    listed: bool = True


@dataclass(frozen=True)
class SeaInfo:
    id: str
    name: str
    mark: str
    areas: tuple[str, ...]


@dataclass(frozen=True)
class EuMap:
    """Areas, Sea Zones and the region graph (see :mod:`legalis.graphs.regions`).

    Where the map is drawn, when the map says: ``frame`` is the drawing's (width,
    height), origin at the top left and y growing downward; ``box`` the (width,
    height) of the rectangle drawn for each Area, centred on its position;
    ``positions`` maps each Area id and Sea Zone id to its centre (x, y). A map
    without positions leaves ``frame`` and ``box`` None and ``positions`` empty.

    Examples
    --------
    >>> small = load_map({"frame": {"width": 100, "height": 50, "box": [20, 10]},
    ...     "area": [{"id": "a", "at": [10, 20]}, {"id": "b", "at": [60, 20]}],
    ...     "sea": [{"id": "s", "areas": ["a", "b"], "at": [35, 40]}]})
    >>> small.positions
    {'a': (10, 20), 'b': (60, 20), 's': (35, 40)}
    >>> load_map({"area": []}).positions
    {}
    """

    areas: Mapping[str, AreaInfo]
    seas: Mapping[str, SeaInfo]
    graph: nx.Graph
    province_area: Mapping[str, str]
    frame: tuple[float, float] | None = None
    box: tuple[float, float] | None = None
    positions: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    def area_of(self, province: str) -> str:
        try:
            return self.province_area[province]
        except KeyError:
            raise InputError(
                f"unknown Province {province!r}", path="province", allowed=self.province_area
            ) from None

    def has_province(self, name: str) -> bool:
        return name in self.province_area

    def land_neighbours(self, area: str) -> list[str]:
        return land_neighbours(self.graph, area)

    def sea_neighbours(self, area: str) -> list[str]:
        return sea_neighbours(self.graph, area)

    def seas_of(self, area: str) -> list[str]:
        """The Sea Zones an Area touches, sorted."""
        return sorted(n for n in self.graph.adj[area] if self.graph.nodes[n]["kind"] == "sea")


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputError("expected a non-empty string", path=path)
    return value


def _names(value: Any, path: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InputError("expected a list of names", path=path)
    return tuple(_text(item, f"{path}[{i}]") for i, item in enumerate(value))


def _tables(value: Any, path: str, source: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError("expected a list of tables", source=source, path=path)
    return value


def _number(value: object) -> bool:
    # bool is a subclass of int: `true` is not a coordinate; nor are NaN and infinity
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def _pair(value: object, path: str, source: str, *, positive: bool) -> tuple[float, float]:
    """``value`` as two numbers (both above 0 when ``positive``), or an error at ``path``."""
    if not isinstance(value, list) or len(value) != 2 or not all(map(_number, value)):
        raise InputError(f"expected a list of two numbers, got {value!r}", source=source, path=path)
    if positive and not all(item > 0 for item in value):
        raise InputError(f"expected two numbers above 0, got {value!r}", source=source, path=path)
    return value[0], value[1]


def _frame(
    raw: Mapping[str, Any], source: str
) -> tuple[tuple[float, float] | None, tuple[float, float] | None]:
    """The drawing's (width, height) and the rectangle of an Area, from ``frame``."""
    if "frame" not in raw:
        return None, None
    table = raw["frame"]
    if not isinstance(table, Mapping):
        raise InputError("expected a frame table", source=source, path="frame")
    for key in ("width", "height"):
        if key not in table:
            raise InputError("missing field", source=source, path=f"frame.{key}")
        value = table[key]
        if not _number(value) or value <= 0:
            message = f"expected a number above 0, got {value!r}"
            raise InputError(message, source=source, path=f"frame.{key}")
    box = _pair(table["box"], "frame.box", source, positive=True) if "box" in table else None
    return (table["width"], table["height"]), box


def _positions(
    tables: list[tuple[str, str, Mapping[str, Any]]],
    frame: tuple[float, float] | None,
    source: str,
) -> dict[str, tuple[float, float]]:
    """Each table's ``at`` by its id, checked to lie on the frame: all of them or none.

    ``tables`` holds each table's path (``area[3]``, ``sea[0]``), its checked id
    and the table itself.
    """
    if not any("at" in entry for _, _, entry in tables):
        return {}
    if frame is None:
        message = "missing frame table: positions (at) need the frame they lie on"
        raise InputError(message, source=source, path="frame")
    positions: dict[str, tuple[float, float]] = {}
    for where, key, entry in tables:
        if "at" not in entry:
            raise InputError(
                f"missing field: {key!r} has no position while others have one",
                source=source,
                path=f"{where}.at",
            )
        x, y = _pair(entry["at"], f"{where}.at", source, positive=False)
        for axis, value, limit in (("x", x, frame[0]), ("y", y, frame[1])):
            if not 0 <= value <= limit:
                message = f"{axis} = {value} is off the frame (0 to {limit})"
                raise InputError(message, source=source, path=f"{where}.at")
        positions[key] = (x, y)
    return positions


def _build(raw: Mapping[str, Any], source: str) -> EuMap:
    areas: dict[str, AreaInfo] = {}
    borders: dict[str, tuple[str, ...]] = {}
    mountains: list[tuple[str, str]] = []
    province_area: dict[str, str] = {}
    placed: list[tuple[str, str, Mapping[str, Any]]] = []
    for index, entry in enumerate(_tables(raw.get("area", []), "area", source)):
        path = f"area[{index}]"
        if not isinstance(entry, Mapping):
            raise InputError("an Area is a table", source=source, path=path)
        area_id = _text(entry.get("id"), f"{path}.id")
        if area_id in areas:
            raise InputError(f"Area {area_id!r} listed twice", source=source, path=f"{path}.id")
        placed.append((path, area_id, entry))
        provinces = _names(entry.get("provinces", []), f"{path}.provinces")
        for province in provinces:
            if province in province_area:
                message = f"Province {province!r} is in two Areas"
                raise InputError(message, source=source, path=f"{path}.provinces")
            province_area[province] = area_id
        areas[area_id] = AreaInfo(
            area_id, str(entry.get("name", area_id)), provinces, bool(entry.get("listed", True))
        )
        borders[area_id] = _names(entry.get("borders", []), f"{path}.borders")
        mountains += [
            (area_id, other)
            for other in _names(entry.get("mountain_borders", []), f"{path}.mountain_borders")
        ]
    seas: dict[str, SeaInfo] = {}
    for index, entry in enumerate(_tables(raw.get("sea", []), "sea", source)):
        path = f"sea[{index}]"
        if not isinstance(entry, Mapping):
            raise InputError("a Sea Zone is a table", source=source, path=path)
        sea_id = _text(entry.get("id"), f"{path}.id")
        placed.append((path, sea_id, entry))
        mark = entry.get("mark", "unknown")
        if mark not in MARKS:
            raise InputError("unknown Sea Zone mark", source=source, path=f"{path}.mark",
                             allowed=MARKS)  # fmt: skip
        seas[sea_id] = SeaInfo(sea_id, str(entry.get("name", sea_id)), mark,
                               _names(entry.get("areas", []), f"{path}.areas"))  # fmt: skip
    try:
        graph = region_graph(
            borders, {sea.id: sea.areas for sea in seas.values()}, mountains=mountains
        )
    except ValueError as error:
        raise InputError(str(error), source=source, path="area") from error
    frame, box = _frame(raw, source)
    return EuMap(areas, seas, graph, province_area, frame, box, _positions(placed, frame, source))


@cache
def _bundled(name: str) -> EuMap:
    if name != "bundled":
        raise InputError(f"no bundled map {name!r}", path="map", allowed=["bundled"])
    text = package_folder("legalis.model.eupop").joinpath("map.toml").read_text("utf-8")
    return _build(tomllib.loads(text), "map.toml")


@cache
def _inline(text: str) -> EuMap:
    try:
        return _build(json.loads(text), "map")
    except InputError as error:  # the fault's path within the state's map
        path = f"map.{error.path}" if error.path else "map"
        raise InputError(error.message, path=path, allowed=error.allowed) from error


def load_map(spec: str | Mapping[str, Any] = "bundled") -> EuMap:
    """The bundled map by name, or a map given inline as ``{"area": [...], "sea": [...]}``."""
    if isinstance(spec, str):
        return _bundled(spec)
    return _inline(json.dumps(spec, sort_keys=True))
