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
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import networkx as nx
from legalis.graphs.regions import land_neighbours, region_graph, sea_neighbours
from legalis.model.core.documents import package_folder
from legalis.model.core.placement import read_placement
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
    frame, box, positions = read_placement(raw, placed, source=source)
    return EuMap(areas, seas, graph, province_area, frame, box, positions)


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
