"""A screenshot of every game's board, saved under ``tests/browser/artifacts/``
and read back pixel by pixel: at the centre of every piece that is not hollow
the picture has the piece's own fill colour, so each piece is drawn, visible
(nothing painted over it) and coloured by its Faction, side or realm."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import legalis
from tests.browser.table import Table

ARTIFACTS = Path(__file__).parent / "artifacts"
TOLERANCE = 8  # per colour channel, out of 255 (colour rounding)
SEED = 1
BOT_STEPS_MOST = 40  # 7YW: bot moves to wait for a laid card or a medal

# Each piece's glyph in CSS pixels from the top left of #board: the point to test
# is the centre of its shape, or, where the piece's own words cover that centre
# (a laid card's name), the strip of the shape left of them.
PIECES = """figure => {
  const frame = figure.getBoundingClientRect();
  return [...figure.querySelectorAll("svg g.piece")].map((piece) => {
    const shape = piece.querySelector("rect, circle, polygon");
    const box = shape.getBoundingClientRect();
    let x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    for (const text of piece.querySelectorAll("text")) {
      const words = text.getBoundingClientRect();
      if (words.left <= x && x <= words.right && words.top <= y && y <= words.bottom) {
        x = (box.left + words.left) / 2;
      }
    }
    return {
      fill: shape.getAttribute("fill"),
      hollow: piece.dataset.status === "underground",
      name: `${piece.dataset.faction} ${piece.dataset.piece || piece.dataset.card}`,
      x: x - frame.left,
      y: y - frame.top,
      width: frame.width,
    };
  });
}"""


def _rgb(colour: str) -> tuple[int, int, int]:
    assert colour.startswith("#") and len(colour) == 7, colour
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _board_at_a_state_with_pieces(table: Table, game: str) -> None:
    table.open(game)
    if game == "sevenyears":  # a new game has no card laid and no medal: let bots play
        table.new_game(seed=SEED)
        for _ in range(BOT_STEPS_MOST):
            if table.pieces().count() > 0 or table.over:
                break
            table.page.click("#bot-step")
            table.settle()
    else:
        table.every_seat("human")
        table.new_game(seed=SEED)


@pytest.mark.parametrize("game", legalis.games())
def test_every_piece_on_the_board_shows_its_colour(sharp_table: Table, game: str) -> None:
    table = sharp_table
    _board_at_a_state_with_pieces(table, game)
    board = table.page.locator("#board")
    pieces: list[dict[str, Any]] = board.evaluate(PIECES)
    shown = [piece for piece in pieces if not piece["hollow"]]
    assert shown, f"no piece drawn on the {game} board"

    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{game}.png"
    path.write_bytes(board.screenshot())
    picture = Image.open(io.BytesIO(path.read_bytes())).convert("RGB")
    scale = picture.width / shown[0]["width"]
    wrong = []
    for piece in shown:
        at = (round(piece["x"] * scale), round(piece["y"] * scale))
        seen = picture.getpixel(at)
        assert isinstance(seen, tuple)
        expected = _rgb(piece["fill"])
        if max(abs(a - b) for a, b in zip(seen, expected, strict=True)) > TOLERANCE:
            wrong.append(f"{piece['name']} at {at}: {seen}, not {piece['fill']}")
    for piece in pieces:
        if piece["hollow"]:  # an Underground piece: only its outline is coloured, so
            x, y = round(piece["x"] * scale), round(piece["y"] * scale)  # white inside
            near = [picture.getpixel((x + dx, y + dy)) for dx in (-2, 0, 2) for dy in (-2, 0, 2)]
            if not any(isinstance(seen, tuple) and min(seen) >= 255 - TOLERANCE for seen in near):
                wrong.append(f"{piece['name']} (underground) at {(x, y)}: no white inside")
    assert not wrong, f"of {len(pieces)} pieces ({len(shown)} filled), these look wrong: {wrong}"
