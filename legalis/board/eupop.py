"""The EU:PoP religion map drawn as SVG: each Area where its map file places it,
filled by its faith, with its ^ (revolutionary) marker, token and Land Units;
land borders (mountain borders dashed), Sea Zones with their ships and the Areas
they link, and the Areas the next 16.5 placement of ``layer`` may reach ringed
in red. The Event display is drawn above the map.

>>> from legalis.model.eupop.state import bundled_state
>>> svg, places, details = draw_eupop(bundled_state())
>>> details["spread"], len(places) == len(bundled_state().map.areas)
('religion', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from legalis.board.svg import Drawing, as_words, clipped, layout_of
from legalis.model.eupop.religion import (
    Kind,
    SpreadProgress,
    religion_clusters,
    revolution_clusters,
    spread_moves,
)
from legalis.model.eupop.state import EuState

__all__ = ["FAITH_FILLS", "draw_eupop", "spread_summary"]

FAITH_FILLS = {
    "catholic": "#f2e6c9",
    "protestant": "#9cc3ea",
    "counter_reformed": "#eab08f",
    "orthodox": "#cdb3ea",
    "muslim": "#9fd9ad",
}
REALM_COLOURS = {"france": "#2b4fa2", "england": "#c0392b", "castile": "#d4a017"}
OTHER_REALMS = ("#6c757d", "#8e44ad", "#16a085", "#7f5a3a", "#34495e", "#b03a6a")
HEADER = 120  # room above the map for the Event display


def spread_summary(state: EuState, spread: str) -> dict[str, Any]:
    """The clusters and the Areas the next placement of ``spread`` may reach.

    >>> from legalis.model.eupop.state import bundled_state
    >>> spread_summary(bundled_state(), "revolution")["reachable"]
    ['castile', 'east_anglia', 'seine']
    """
    kind: Kind = "revolution" if spread == "revolution" else "religion"
    clusters = religion_clusters(state) if kind == "religion" else revolution_clusters(state)
    moves = list(spread_moves(state, SpreadProgress(kind)))
    return {
        "spread": kind,
        "clusters": [{"label": label, "areas": sorted(areas)} for label, areas in clusters],
        "reachable": sorted({m.area for m in moves}),
        "placements": [m.to_json() for m in moves],
    }


def _realm_colour(realm: str, realms: Sequence[str]) -> str:
    if realm in REALM_COLOURS:
        return REALM_COLOURS[realm]
    others = [r for r in sorted(realms) if r not in REALM_COLOURS]
    return OTHER_REALMS[others.index(realm) % len(OTHER_REALMS)] if realm in others else "#888888"


def _draw_display(drawing: Drawing, display: Sequence[dict[str, Any]]) -> None:
    panel = drawing.group(drawing.root, class_="card")
    width = min(360.0, (drawing.width - 20 * (len(display) + 1)) / max(1, len(display)))
    for index, slot in enumerate(display):
        x = 20 + index * (width + 20)
        drawing.rect(panel, x, 10, width, HEADER - 20, rx=6.0, fill="#fffdf6", stroke="#555555")
        event = slot.get("event")
        heading = f"Slot {slot['slot']}: " + (event if event else "face down")
        drawing.text(panel, x + 10, 32, heading, size=13, font_weight="bold")
        below = 52.0
        if slot.get("title"):
            below = drawing.wrapped(panel, x + 10, below, slot["title"], width=int(width / 6.6),
                                    size=11, lines=3)  # fmt: skip
        if slot.get("taken_by"):
            drawing.text(panel, x + 10, below, f"taken by {slot['taken_by']}", size=11,
                         font_style="italic")  # fmt: skip


def _area_words(state: EuState, area: str, reachable: set[str],
                clusters: dict[str, str]) -> tuple[str, list[str]]:  # fmt: skip
    """The Area's faith line and what lies there in words (its cluster among them)."""
    info = state.map.areas[area]
    held = state.areas.get(area)
    faith = as_words(held.religion).title() if held else "no faith recorded"
    said = [faith]
    if area in clusters:
        said.append(clusters[area])
    if held and held.revolutionary:
        said.append("revolutionary")
    if held and held.token:
        said.append(f"token {held.token}")
    units = [f"{n} {realm} Land Units" for realm, by_area in sorted(state.land_units.items())
             for n in [by_area.get(area, 0)] if n]  # fmt: skip
    if area in reachable:
        said.append("the next placement may go here")
    if not info.listed:
        said.append("not described by the map's facts")
    return faith, said + units


def draw_eupop(
    state: EuState,
    *,
    layer: str = "religion",
    display: Sequence[dict[str, Any]] = (),
    words: str = "",
) -> tuple[str, list[dict[str, str]], dict[str, Any]]:
    """The map as SVG text, each Area as ``{id, name, words}``, and the
    :func:`spread_summary` of ``layer``; ``display``: the Event display's slots
    (``slot``, ``event``, ``title``, ``taken_by``), drawn above the map."""
    summary = spread_summary(state, layer)
    reachable = set(summary["reachable"])
    clusters = {
        area: f"in a {as_words(cluster['label'])} cluster of {len(cluster['areas'])} Areas"
        for cluster in summary["clusters"]
        for area in cluster["areas"]
    }
    eu_map = state.map
    layout = layout_of(eu_map.positions, eu_map.frame, eu_map.box, eu_map.graph.edges,
                       [*eu_map.areas, *eu_map.seas], default_box=(120.0, 48.0))  # fmt: skip
    width, height, (box_w, box_h) = layout.width, layout.height, layout.box
    top = HEADER if display else 0.0
    drawing = Drawing(width, top + height, "EU:PoP religion map")
    drawing.describe(words or "EU:PoP religion map")
    drawing.rect(drawing.root, 0, 0, width, top + height, fill="#eef4f8")
    if display:
        _draw_display(drawing, display)
    at = {name: (x, y + top) for name, (x, y) in layout.centres.items()}
    links = drawing.group(drawing.root, class_="links")
    for a, b, data in sorted(eu_map.graph.edges(data=True)):
        if a not in at or b not in at:
            continue
        if a in eu_map.seas or b in eu_map.seas:
            drawing.line(links, at[a], at[b], stroke="#5b8db8", stroke_width=1.0,
                         stroke_dasharray="2 4")  # fmt: skip
        elif data.get("mountain"):
            drawing.line(links, at[a], at[b], stroke="#8a6d3b", stroke_width=2.0,
                         stroke_dasharray="7 4")  # fmt: skip
        else:
            drawing.line(links, at[a], at[b], stroke="#999999", stroke_width=2.0)
    realms = sorted(state.realms)
    for sea_id, sea in sorted(eu_map.seas.items()):
        if sea_id not in at:
            continue
        x, y = at[sea_id]
        label = drawing.group(drawing.root, class_="sea", data_space=sea_id)
        drawing.text(label, x, y, sea.name, size=10, anchor="middle", fill="#2f5f8a",
                     font_style="italic")  # fmt: skip
        for slot, (realm, ships) in enumerate(sorted(state.ships.items())):
            if ships.get(sea_id):
                drawing.piece(label, x - 10 + slot * 26, y + 14, shape="base",
                              fill=_realm_colour(realm, realms), hollow=False,
                              label=f"ships of {realm}", count=ships[sea_id], faction=realm,
                              piece="ship", status="")  # fmt: skip
    places = []
    for area_id, info in sorted(eu_map.areas.items()):
        x, y = at[area_id]
        faith, said = _area_words(state, area_id, reachable, clusters)
        words_of_area = ", ".join([info.name, *said])
        places.append({"id": area_id, "name": info.name, "words": words_of_area})
        held = state.areas.get(area_id)
        group = drawing.group(drawing.root, class_="space", data_space=area_id, tabindex="-1",
                              aria_label=words_of_area,
                              data_reachable="true" if area_id in reachable else None)  # fmt: skip
        fill = FAITH_FILLS.get(held.religion, "#ffffff") if held else "#f7f7f7"
        drawing.rect(group, x - box_w / 2, y - box_h / 2, box_w, box_h, rx=6.0, fill=fill,
                     stroke="#d62828" if area_id in reachable else "#555555",
                     stroke_width=4.0 if area_id in reachable else 1.0,
                     stroke_dasharray=None if info.listed else "4 3")  # fmt: skip
        name = clipped(info.name, 20)
        drawing.text(group, x, y - box_h / 2 + 13, name, size=10, anchor="middle",
                     font_weight="bold")  # fmt: skip
        marks = faith + (" ^" if held and held.revolutionary else "")
        drawing.text(group, x, y - box_h / 2 + 25, marks, size=9, anchor="middle", fill="#333333")
        units = [(realm, by_area[area_id]) for realm, by_area in sorted(state.land_units.items())
                 if by_area.get(area_id)]  # fmt: skip
        for slot, (realm, count) in enumerate(units):
            drawing.piece(group, x - box_w / 2 + 14 + slot * 27, y + box_h / 2 - 10,
                          shape="disc", fill=_realm_colour(realm, realms), hollow=False,
                          label=f"Land Units of {realm}", count=count, faction=realm,
                          piece="land_unit", status="")  # fmt: skip
    return drawing.to_text(), places, summary
