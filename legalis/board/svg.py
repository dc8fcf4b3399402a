"""A small SVG writer for the boards: elements built with ElementTree (so every
name and attribute is escaped), a few shapes the boards share, and a fallback
layout for maps whose file gives no positions.

>>> drawing = Drawing(200, 100, "An empty board")
>>> drawing.text(drawing.root, 10, 20, "Boston", size=12)  # doctest: +ELLIPSIS
<Element ...>
>>> drawing.to_text().startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx

__all__ = ["Drawing", "Layout", "as_words", "clipped", "layout_of", "words_of_count"]

ET.register_namespace("", "http://www.w3.org/2000/svg")
FONT = "DejaVu Sans, Verdana, sans-serif"


def _attributes(values: Mapping[str, Any]) -> dict[str, str]:
    """SVG attribute names from keyword names (``class_`` -> ``class``,
    ``data_space`` -> ``data-space``), numbers rounded for a short file."""
    named: dict[str, str] = {}
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        named[name] = f"{value:.1f}".rstrip("0").rstrip(".") if isinstance(value, float) else (
            str(value))  # fmt: skip
    return named


class Drawing:
    """One SVG document: a ``width`` x ``height`` canvas whose ``<title>`` is
    ``title`` and whose ``<desc>`` (added with :meth:`describe`) says in words
    what it shows, for screen readers and for tests."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width, self.height = width, height
        self.root = ET.Element(
            "svg",
            _attributes(
                {
                    "xmlns": "http://www.w3.org/2000/svg",
                    "viewBox": f"0 0 {width:g} {height:g}",
                    "width": width,
                    "height": height,
                    "role": "img",
                    "font_family": FONT,
                }
            ),
        )
        ET.SubElement(self.root, "title").text = title

    def describe(self, words: str) -> None:
        """The drawing's description in words (its ``<desc>``)."""
        ET.SubElement(self.root, "desc").text = words

    def group(self, parent: ET.Element, **attributes: Any) -> ET.Element:
        return ET.SubElement(parent, "g", _attributes(attributes))

    def shape(self, parent: ET.Element, tag: str, **attributes: Any) -> ET.Element:
        return ET.SubElement(parent, tag, _attributes(attributes))

    def rect(self, parent: ET.Element, x: float, y: float, w: float, h: float,
             **attributes: Any) -> ET.Element:  # fmt: skip
        return self.shape(parent, "rect", x=float(x), y=float(y), width=float(w),
                          height=float(h), **attributes)  # fmt: skip

    def line(self, parent: ET.Element, a: tuple[float, float], b: tuple[float, float],
             **attributes: Any) -> ET.Element:  # fmt: skip
        return self.shape(parent, "line", x1=float(a[0]), y1=float(a[1]), x2=float(b[0]),
                          y2=float(b[1]), **attributes)  # fmt: skip

    def text(self, parent: ET.Element, x: float, y: float, words: str, *, size: float = 12,
             anchor: str = "start", **attributes: Any) -> ET.Element:  # fmt: skip
        element = self.shape(parent, "text", x=float(x), y=float(y), font_size=float(size),
                             text_anchor=anchor, **attributes)  # fmt: skip
        element.text = words
        return element

    def wrapped(self, parent: ET.Element, x: float, y: float, words: str, *, width: int,
                size: float = 12, lines: int = 4, **attributes: Any) -> float:  # fmt: skip
        """``words`` over lines of at most ``width`` characters (at most ``lines``,
        the last ending with an ellipsis when cut); the y below the last line."""
        rows: list[str] = []
        for word in words.split():
            if rows and len(rows[-1]) + 1 + len(word) <= width:
                rows[-1] += " " + word
            else:
                rows.append(word)
        if len(rows) > lines:
            rows = rows[:lines]
            rows[-1] = clipped(rows[-1] + " …", width)
        for row in rows:
            self.text(parent, x, y, row, size=size, **attributes)
            y += size * 1.3
        return y

    def piece(self, parent: ET.Element, x: float, y: float, *, shape: str, fill: str,
              hollow: bool, label: str, count: int, **data: Any) -> None:  # fmt: skip
        """One stack of pieces: a ``shape`` (cube, disc, base, cone) of the Faction's
        colour (only its outline when ``hollow``: an Underground piece), with the
        count beside it; ``data`` becomes data- attributes (a test reads them)."""
        stack = self.group(parent, class_="piece", **{f"data_{k}": v for k, v in data.items()},
                           data_count=count)  # fmt: skip
        ET.SubElement(stack, "title").text = f"{count} {label}"
        paint = {"fill": "#ffffff" if hollow else fill, "stroke": fill if hollow else "#222222",
                 "stroke_width": 2.5 if hollow else 1.0}  # fmt: skip
        if shape == "base":
            self.rect(stack, x - 7, y - 7, 14, 14, **paint)
        elif shape == "cone":
            self.shape(stack, "polygon", points=f"{x:g},{y - 8:g} {x + 7:g},{y + 6:g} "
                       f"{x - 7:g},{y + 6:g}", **paint)  # fmt: skip
        elif shape == "disc":
            self.shape(stack, "circle", cx=float(x), cy=float(y), r=7.0, **paint)
        else:
            self.rect(stack, x - 6, y - 6, 12, 12, rx=2.0, **paint)
        if count > 1:
            self.text(stack, x + 9, y + 4, str(count), size=11, font_weight="bold")

    def to_text(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


@dataclass(frozen=True)
class Layout:
    """Where a map's places are drawn: each one's centre, the map's size and the
    size of the box drawn for a place."""

    centres: dict[str, tuple[float, float]]
    width: float
    height: float
    box: tuple[float, float]


def layout_of(
    positions: Mapping[str, tuple[float, float]],
    frame: tuple[float, float] | None,
    box: tuple[float, float] | None,
    edges: Iterable[tuple[str, str]],
    nodes: Iterable[str],
    *,
    default_box: tuple[float, float],
) -> Layout:
    """The map file's positions, frame and box size; for a map whose file gives
    none (a hand-made test map), a seeded spring layout of ``nodes`` scaled into a
    canvas.

    >>> layout = layout_of({}, None, None, [("a", "b")], ["a", "b"], default_box=(100, 50))
    >>> sorted(layout.centres), layout.box
    (['a', 'b'], (100, 50))
    """
    if positions:
        assert frame is not None and box is not None, "a map with positions has a frame"
        return Layout(dict(positions), frame[0], frame[1], box)
    graph = nx.Graph()
    graph.add_nodes_from(sorted(nodes))
    graph.add_edges_from((a, b) for a, b in edges if a in graph and b in graph)
    side = max(900.0, 2 * default_box[0] * len(graph) ** 0.5)
    margin = default_box[0]
    raw = nx.spring_layout(graph, seed=7) if len(graph) > 1 else {n: (0.0, 0.0) for n in graph}
    xs = [float(p[0]) for p in raw.values()] or [0.0]
    ys = [float(p[1]) for p in raw.values()] or [0.0]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    centres = {
        name: (margin + (float(p[0]) - min(xs)) / span_x * (side - 2 * margin),
               margin + (float(p[1]) - min(ys)) / span_y * (side - 2 * margin))
        for name, p in raw.items()
    }  # fmt: skip
    return Layout(centres, side, side, default_box)


def words_of_count(count: int, singular: str, plural: str | None = None) -> str:
    """``3 Tories``, ``1 Fort``.

    >>> words_of_count(1, "Fort"), words_of_count(2, "Fort")
    ('1 Fort', '2 Forts')
    """
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def clipped(words: str, most: int) -> str:
    """``words`` cut to ``most`` characters, an ellipsis marking the cut.

    >>> clipped("Neutral, British Control", 12)
    'Neutral, Br…'
    """
    return words if len(words) <= most else words[: max(0, most - 1)] + "…"


def as_words(name: str) -> str:
    """An id as words: ``passive_support`` -> ``passive support``."""
    return name.replace("_", " ")
