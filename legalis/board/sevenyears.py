"""The Seven Years War table drawn as SVG: the four areas side by side, each with
its Campaign, the medals each side holds there and the cards laid in its
conflict; below them each hand (its cards when the viewer may see them, else
how many) and the deck and discard pile.

>>> from legalis.model.sevenyears.game import SevenYearsGame
>>> game = SevenYearsGame()
>>> svg, places = draw_sevenyears(game, game.new_initial_state(), viewer="british")
>>> [place["id"] for place in places]
['europe', 'north_america', 'india', 'west_indies']
"""

from __future__ import annotations

from typing import Any

from legalis.board.svg import Drawing, clipped, words_of_count

__all__ = ["SIDE_COLOURS", "draw_sevenyears"]

SIDE_COLOURS = {"british": "#c0392b", "french": "#2b4fa2"}
WIDTH, COLUMN, TOP, AREA_HEIGHT, HAND_HEIGHT = 1240.0, 290.0, 20.0, 330.0, 200.0
CARD_W, CARD_H = 128.0, 26.0
LAID_SHOWN = 14  # cards of one conflict drawn; the rest are counted


def _card(drawing: Drawing, parent: Any, x: float, y: float, name: str, side: str,
          css: str) -> None:  # fmt: skip
    """One card: a strip in its side's colour with its name."""
    card = drawing.group(parent, class_=css, data_faction=side, data_card=name)
    drawing.rect(card, x, y, CARD_W, CARD_H - 4, rx=4.0, fill=SIDE_COLOURS.get(side, "#777777"),
                 stroke="#222222")  # fmt: skip
    shown = clipped(name, 19)
    drawing.text(card, x + 6, y + 15, shown, size=10, fill="#ffffff", font_weight="bold")


def draw_sevenyears(game: Any, state: Any, *, viewer: str | None = None,
                    words: str = "") -> tuple[str, list[dict[str, str]]]:  # fmt: skip
    """The table as SVG text and each area as ``{id, name, words}``; the hand of
    ``viewer`` (a seat) is shown, every other hand only counted, until the game
    is over."""
    doc = state.to_json()
    sides = list(game.players)
    height = TOP + AREA_HEIGHT + HAND_HEIGHT
    drawing = Drawing(WIDTH, height, "The Seven Years War")
    drawing.describe(words or "The Seven Years War")
    drawing.rect(drawing.root, 0, 0, WIDTH, height, fill="#f7f3ea")
    places = []
    for index, area in enumerate(game.data.areas):
        key = area.name.lower().replace(" ", "_")
        x = 20 + index * (COLUMN + 14)
        campaign = doc["campaigns"].get(key)
        medals = {side: doc["medals"][side][key] for side in sides}
        laid = doc["grid"][key]
        said = [area.name, f"Campaign won by {campaign}" if campaign else "Campaign not won",
                *(f"{side} {words_of_count(n, 'medal')}" for side, n in medals.items()),
                *(f"{entry['player']} laid {entry['card']}" for entry in laid)]  # fmt: skip
        places.append({"id": key, "name": area.name, "words": ", ".join(said)})
        column = drawing.group(drawing.root, class_="space", data_space=key, tabindex="-1",
                               aria_label=", ".join(said))  # fmt: skip
        drawing.rect(column, x, TOP, COLUMN, AREA_HEIGHT - 20, rx=10.0, fill="#fffdf6",
                     stroke="#444444", stroke_width=2.0)  # fmt: skip
        drawing.text(column, x + COLUMN / 2, TOP + 26, area.name, size=16, anchor="middle",
                     font_weight="bold")  # fmt: skip
        drawing.text(column, x + COLUMN / 2, TOP + 46,
                     f"Campaign: {campaign}" if campaign else "Campaign: open",
                     size=12, anchor="middle", fill="#333333")  # fmt: skip
        for slot, side in enumerate(sides):
            if medals[side]:
                drawing.piece(column, x + 30 + slot * 80, TOP + 72, shape="disc",
                              fill=SIDE_COLOURS.get(side, "#777777"), hollow=False,
                              label=f"{side} medals", count=medals[side], faction=side,
                              piece="medal", status="")  # fmt: skip
            else:
                drawing.text(column, x + 22 + slot * 80, TOP + 76, f"{side[0].upper()}: 0",
                             size=11)  # fmt: skip
        for row, entry in enumerate(laid[:LAID_SHOWN]):
            left, top_of_card = x + 14 + (row % 2) * (CARD_W + 6), TOP + 96 + (row // 2) * CARD_H
            _card(drawing, column, left, top_of_card, entry["card"], entry["player"], "piece")
        if len(laid) > LAID_SHOWN:
            more = f"and {len(laid) - LAID_SHOWN} more"
            drawing.text(column, x + 14, TOP + AREA_HEIGHT - 30, more, size=11)
    top = TOP + AREA_HEIGHT
    over = doc["result"] is not None
    for slot, side in enumerate(sides):
        y = top + slot * (HAND_HEIGHT / 2)
        hand = doc["hands"][side]
        seen = over or side == viewer
        hands = drawing.group(drawing.root, class_="hand", data_seat=side)
        heading = f"{side.title()} hand: " + words_of_count(len(hand), "card") + (
            "" if seen else " (hidden)")  # fmt: skip
        drawing.text(hands, 20, y + 16, heading, size=13, font_weight="bold")
        for index, name in enumerate(hand if seen else []):
            row, column_index = divmod(index, 9)
            _card(drawing, hands, 20 + column_index * (CARD_W + 6), y + 24 + row * CARD_H, name,
                  side, "card")  # fmt: skip
    drawing.text(drawing.root, WIDTH - 20, top + 16,
                 f"Deck {len(doc['deck'])}, discard pile {len(doc['discard'])}", size=12,
                 anchor="end")  # fmt: skip
    return drawing.to_text(), places
