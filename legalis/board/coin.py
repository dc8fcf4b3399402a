"""A COIN board drawn as SVG (Liberty or Death, Fire in the Lake): each space
where its map file places it, filled by its Support or Opposition, with its
control, markers, Leaders and pieces by Faction and status; the cards shown
above the map, and the tracks and off-map boxes below it.

Each space is a ``<g class="space" data-space=NAME>`` whose ``aria-label`` says
in words what lies there, and each stack of pieces a ``<g class="piece">`` with
its Faction, piece type, status and count as data attributes.

>>> from legalis.model.coin.scenarios import load_scenario
>>> svg, places = draw_coin(load_scenario("lod", "1775"), title="LoD 1775")
>>> next(p for p in places if p["id"] == "Boston")["words"]  # doctest: +ELLIPSIS
'Boston, City, ...'
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from legalis.board.svg import Drawing, as_words, clipped, layout_of
from legalis.model.coin.deck import Card
from legalis.model.coin.mapdata import CoinMap, load_map
from legalis.model.coin.state import CoinState

__all__ = ["FACTION_COLOURS", "draw_coin"]

# The Factions' colours, as the printed pieces have them.
FACTION_COLOURS = {
    "british": "#c0392b",
    "patriots": "#2e5fa8",
    "french": "#f2f2f2",
    "indians": "#a0622d",
    "us": "#5b7f2a",
    "arvn": "#e0b81f",
    "nva": "#b3261e",
    "vc": "#3a8fd6",
}
SUPPORT_FILLS = {
    "active_support": "#bcd3f2",
    "passive_support": "#dfe9f8",
    "neutral": "#f5f1e6",
    "passive_opposition": "#f8e0d4",
    "active_opposition": "#efbfa8",
}
TYPE_STROKES = {"City": ("#222222", 3.0), "Reserve": ("#3d7a3d", 2.0), "LoC": ("#7a7a7a", 1.0)}
HEADER = 190  # room above the map for the cards
CAPTION = 40  # room above the map for the caption of a drawing without cards
FOOTER = 120  # room below it for the off-map boxes
STEP = 31  # from one stack of pieces to the next (room for a two-digit count)
ROW = 17  # from one row of stacks to the next


def _shapes(board: CoinState) -> dict[str, str]:
    """The glyph of each piece type: a base-like piece a square, a piece that
    flips a cone (hollow while Underground), a Faction's other pieces cubes and
    then discs, so two kinds of one Faction never look alike."""
    shapes: dict[str, str] = {}
    plain: dict[str, int] = {}
    for piece in board.data.pieces:
        if piece.stacking:
            shapes[piece.id] = "base"
        elif piece.can_flip:
            shapes[piece.id] = "cone"
        else:
            seen = plain.get(piece.faction, 0)
            plain[piece.faction] = seen + 1
            shapes[piece.id] = "cube" if seen == 0 else "disc"
    return shapes


def _space_words(board: CoinState, doc: dict[str, Any], coin_map: CoinMap,
                 name: str) -> tuple[str, str, list[str]]:  # fmt: skip
    """The space's kind, its one line of status (support, control, markers,
    Leaders) and its pieces in words."""
    kind = "Box" if coin_map.is_box(name) else coin_map.space(name).type
    status: list[str] = []
    if kind != "Box" and board.can_have_support(name):
        status.append(as_words(board.support(name)).title())
    controller = board.control(name)
    if controller:
        status.append(next(rule.name for rule in board.data.control if rule.id == controller))
    held = doc["boxes" if kind == "Box" else "spaces"][name]["markers"]
    status += [as_words(marker).title() + (f" x{n}" if n > 1 else "")
               for marker, n in sorted(held.items()) if n]  # fmt: skip
    status += [leader for leader, where in doc["leaders"].items() if where == name]
    pieces = []
    for piece in board.data.pieces:
        for status_name, count in board.holdings(name).get(piece.id, {}).items():
            if count:
                shown = "" if len(piece.statuses) == 1 else f" ({as_words(status_name)})"
                pieces.append(f"{count} {piece.name}{shown}")
    return kind, ", ".join(status), pieces


def _draw_stacks(drawing: Drawing, parent: Any, board: CoinState, name: str, x: float,
                 y: float, per_row: int, shapes: dict[str, str]) -> None:  # fmt: skip
    slot = 0
    for piece in board.data.pieces:
        for status, count in board.holdings(name).get(piece.id, {}).items():
            if not count:
                continue
            row, column = divmod(slot, per_row)
            drawing.piece(parent, x + column * STEP, y + row * ROW, shape=shapes[piece.id],
                          fill=FACTION_COLOURS.get(piece.faction, "#888888"),
                          hollow=status == "underground", label=piece.name, count=count,
                          faction=piece.faction, piece=piece.id, status=status)  # fmt: skip
            slot += 1


def _draw_card(drawing: Drawing, x: float, y: float, width: float, heading: str,
               card: Card | None) -> None:  # fmt: skip
    panel = drawing.group(drawing.root, class_="card")
    drawing.rect(panel, x, y, width, HEADER - 20, rx=6.0, fill="#fffdf6", stroke="#555555")
    if card is None:
        drawing.text(panel, x + 10, y + 22, f"{heading}: none", size=13, font_weight="bold")
        return
    drawing.text(panel, x + 10, y + 22, f"{heading}: {card.number} {card.title}", size=13,
                 font_weight="bold")  # fmt: skip
    below = y + 42
    columns = int(width / 6.4)
    for side_name in ("unshaded", "shaded"):
        side = getattr(card, side_name)
        if side is None or not side.text:
            continue
        label = "" if card.kind == "winter_quarters" else f"{side_name.title()}: "
        below = drawing.wrapped(panel, x + 10, below, label + side.text, width=columns,
                                size=11, lines=4 if card.shaded is None else 3) + 6  # fmt: skip


def _draw_tracks(drawing: Drawing, board: CoinState, doc: dict[str, Any], top: float,
                 boxes: Sequence[str]) -> None:  # fmt: skip
    panel = drawing.group(drawing.root, class_="tracks")
    tracks = ", ".join(f"{as_words(name).title()} {value}" for name, value in doc["tracks"].items())
    y = drawing.wrapped(panel, 20, top + 20, "Tracks: " + tracks, width=int(drawing.width / 6.6),
                        size=11, lines=2)  # fmt: skip
    eligibility = ", ".join(f"{board.data.faction(f).name} {as_words(e)}"
                            for f, e in doc["eligibility"].items())  # fmt: skip
    if eligibility:
        y = drawing.wrapped(panel, 20, y, "Eligibility: " + eligibility,
                            width=int(drawing.width / 6.6), size=11, lines=1)  # fmt: skip
    for box in boxes:
        held = [f"{n} {board.data.piece(p).name}" for p, by in board.holdings(box).items()
                for n in [sum(by.values())] if n]  # fmt: skip
        y = drawing.wrapped(panel, 20, y, f"{box}: " + (", ".join(held) or "empty"),
                            width=int(drawing.width / 6.6), size=11, lines=1)  # fmt: skip


def draw_coin(
    board: CoinState,
    *,
    title: str,
    cards: Sequence[tuple[str, Card | None]] = (),
    words: str = "",
) -> tuple[str, list[dict[str, str]]]:
    """The board as SVG text and each drawn place as ``{id, name, words}``:
    ``cards`` are shown above the map under their headings (the current and the
    next card), ``words`` is the drawing's description."""
    coin_map = load_map(board.game)
    doc = board.to_json()
    on_map = [name for name in coin_map.names() if not coin_map.is_box(name)]
    mapped_boxes = [box for box in coin_map.boxes if box in coin_map.positions]
    edges = list(coin_map.graph.edges)
    layout = layout_of(coin_map.positions, coin_map.frame, coin_map.box, edges, on_map,
                       default_box=(150.0, 84.0))  # fmt: skip
    width, height, (box_w, box_h) = layout.width, layout.height, layout.box
    top = HEADER if cards else CAPTION
    drawing = Drawing(width, top + height + FOOTER, title)
    drawing.describe(words or title)
    drawing.rect(drawing.root, 0, 0, width, top + height + FOOTER, fill="#fbfaf5")
    if not cards:
        drawing.text(drawing.root, 20, 26, clipped(words or title, int(width / 8)), size=15,
                     font_weight="bold")  # fmt: skip
    card_width = (width - 20 * (len(cards) + 1)) / max(1, len(cards))
    for index, (heading, card) in enumerate(cards):
        _draw_card(drawing, 20 + index * (card_width + 20), 10, card_width, heading, card)
    at = {name: (x, y + top) for name, (x, y) in layout.centres.items()}
    links = drawing.group(drawing.root, class_="links", stroke="#9a9a9a", stroke_width=1.5)
    for a, b in sorted(edges):
        if a in at and b in at:
            drawing.line(links, at[a], at[b])
    shapes = _shapes(board)
    per_row = max(1, int((box_w - 14) // STEP))
    places = []
    for name in [*on_map, *mapped_boxes]:
        x, y = at[name]
        kind, status, pieces = _space_words(board, doc, coin_map, name)
        said = ", ".join([name, kind, *([status] if status else []),
                          *(pieces or ["no pieces"])])  # fmt: skip
        places.append({"id": name, "name": name, "words": said})
        space = drawing.group(drawing.root, class_="space", data_space=name, tabindex="-1",
                              aria_label=said)  # fmt: skip
        ET.SubElement(space, "title").text = said
        stroke, stroke_width = TYPE_STROKES.get(kind, ("#555555", 1.5))
        fill = SUPPORT_FILLS.get(board.support(name), "#ffffff") if kind != "Box" else "#e8f1f5"
        drawing.rect(space, x - box_w / 2, y - box_h / 2, box_w, box_h, rx=8.0, fill=fill,
                     stroke=stroke, stroke_width=stroke_width,
                     stroke_dasharray="6 3" if kind in ("Box", "Reserve") else None)  # fmt: skip
        upper = y - box_h / 2
        drawing.text(space, x, upper + 14, name, size=12 if len(name) < 20 else 10, anchor="middle",
                     font_weight="bold")  # fmt: skip
        if status:
            drawing.text(space, x, upper + 26, clipped(status, int(box_w / 4.9)), size=8.5,
                         anchor="middle", fill="#333333")  # fmt: skip
        _draw_stacks(drawing, space, board, name, x - box_w / 2 + 14, upper + 40, per_row, shapes)
    off_map = [box for box in coin_map.boxes if box not in mapped_boxes]
    _draw_tracks(drawing, board, doc, top + height, off_map)
    return drawing.to_text(), places
