"""Boards (``legalis.board``): what each game's SVG shows is what its state holds.

The drawings are read back as XML: every stack of pieces a ``<g class="piece">``
with its Faction, type, status and count, every space a ``<g class="space">``. The
counts drawn are compared with the state's own, at every step of seeded playouts,
so a piece left out, drawn twice or put in the wrong space fails here.
"""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from legalis.model.coin.deck import deck_from_toml
from legalis.model.coin.mapdata import load_map
from legalis.model.coin.state import state_from_json
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError
from legalis.solver.players import automatic_player
from legalis.verify.coin import verify_coin

import legalis
from legalis.board import draw_state, draw_witness
from legalis.board.coin import HEADER

SVG = "{http://www.w3.org/2000/svg}"
STEPS = 25  # decisions of each playout whose boards are checked
# A deck with one planted defect whose finding carries a witness state.
PLANTED = Path(__file__).parents[1] / "verify" / "decks" / "lod_french_before_toa.toml"


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def groups(root: ET.Element, css: str) -> Iterator[tuple[ET.Element | None, ET.Element]]:
    """Every ``<g class=css>``, with the space group it lies in (or None)."""
    for space in root.iter(SVG + "g"):
        if space.get("class") == "space":
            for inner in space.iter(SVG + "g"):
                if inner.get("class") == css:
                    yield space, inner
    for top in root:
        if top.tag == SVG + "g" and top.get("class") != "space":
            for inner in top.iter(SVG + "g"):
                if inner.get("class") == css:
                    yield None, inner


def drawn_pieces(root: ET.Element) -> Counter[tuple[str, str, str]]:
    """(space, piece type, status) -> count, as drawn."""
    drawn: Counter[tuple[str, str, str]] = Counter()
    for space, piece in groups(root, "piece"):
        where = space.get("data-space", "") if space is not None else ""
        drawn[(where, piece.get("data-piece", ""), piece.get("data-status", ""))] += int(
            piece.get("data-count", "0")
        )
    return drawn


def playout(name: str, seed: int, steps: int = STEPS) -> Iterator[tuple[Any, Any]]:
    """The game and its state at each decision of a seeded random playout."""
    game = legalis.load_game(name)
    state, rng = game.new_initial_state(), LoggedRandom(seed)
    seen = 0
    while not state.is_over and seen < steps:
        if state.is_chance:
            state.play(state.sample_chance(rng))
            continue
        yield game, state
        seen += 1
        state.play(automatic_player("random", game, state.to_move).choose(state, rng))
    yield game, state


def coin_pieces(board: Any) -> Counter[tuple[str, str, str]]:
    """(space, piece type, status) -> count on the map and in boxes with a place."""
    coin_map = load_map(board.game)
    held: Counter[tuple[str, str, str]] = Counter()
    shown = [n for n in coin_map.names() if not coin_map.is_box(n)]
    shown += [box for box in coin_map.boxes if box in coin_map.positions]
    for name in shown:
        for piece, by_status in board.holdings(name).items():
            for status, count in by_status.items():
                if count:
                    held[(name, piece, status)] += count
    return held


@pytest.mark.parametrize(("name", "seed"), [("lod", 3), ("fitl", 4)])
def test_a_coin_board_draws_every_piece_in_its_space(name: str, seed: int) -> None:
    for game, state in playout(name, seed):
        board = draw_state(game, state)
        coin = state.coin if name == "lod" else state.board
        assert drawn_pieces(parsed(board.svg)) == coin_pieces(coin)
        assert board.words == game.render(state)


def test_each_space_is_drawn_where_the_map_file_places_it() -> None:
    game = legalis.load_game("lod")
    state = next(state for _, state in playout("lod", 1, 1))
    root = parsed(draw_state(game, state).svg)
    coin_map = load_map("lod")
    box_w, box_h = coin_map.box or (0, 0)
    spaces = [g for g in root.iter(SVG + "g") if g.get("class") == "space"]
    assert len(spaces) == len(coin_map.positions)
    for space in spaces:
        rect = space.find(SVG + "rect")
        assert rect is not None
        x, y = coin_map.positions[space.get("data-space", "")]
        assert float(rect.get("x", "0")) + box_w / 2 == pytest.approx(x, abs=0.1)
        # the map sits below the cards: every space moved down by the same height
        assert float(rect.get("y", "0")) + box_h / 2 == pytest.approx(y + HEADER, abs=0.1)


def test_the_places_listed_are_the_spaces_drawn_and_say_what_lies_there() -> None:
    game = legalis.load_game("lod")
    state = next(state for _, state in playout("lod", 2, 1))
    board = draw_state(game, state)
    root = parsed(board.svg)
    drawn = {g.get("data-space"): g.get("aria-label") for g in root.iter(SVG + "g")
             if g.get("class") == "space"}  # fmt: skip
    assert drawn == {place["id"]: place["words"] for place in board.places}
    boston = next(place["words"] for place in board.places if place["id"] == "Boston")
    held = state.coin.holdings("Boston")
    for piece, by_status in held.items():
        if sum(by_status.values()):
            assert state.coin.data.piece(piece).name in boston


def test_the_lod_board_shows_the_card_played_and_the_next_one_with_their_text() -> None:
    game = legalis.load_game("lod")
    state = next(state for _, state in playout("lod", 5, 1))
    root = parsed(draw_state(game, state).svg)
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    for card in (state.card, state.next_card):
        assert f"{card.number} {card.title}" in texts
        first_words = " ".join((card.unshaded or card.shaded).text.split()[:3])
        assert first_words in texts


def test_an_eupop_board_draws_each_realms_land_units_and_rings_the_reachable_areas() -> None:
    for game, state in playout("eupop", 6, 12):
        board = draw_state(game, state)
        root = parsed(board.svg)
        drawn = Counter()
        for space, piece in groups(root, "piece"):
            if piece.get("data-piece") == "land_unit" and space is not None:
                drawn[(space.get("data-space"), piece.get("data-faction"))] += int(
                    piece.get("data-count", "0")
                )
        held = Counter({(area, realm): n for realm, by_area in state.map.land_units.items()
                        for area, n in by_area.items() if n})  # fmt: skip
        assert drawn == held
        ringed = {g.get("data-space") for g in root.iter(SVG + "g")
                  if g.get("data-reachable") == "true"}  # fmt: skip
        assert ringed == set(board.details["reachable"])
        assert len(board.places) == len(state.map.map.areas)


def test_the_seven_years_war_board_shows_the_viewers_hand_alone() -> None:
    for game, state in playout("sevenyears", 7, 40):
        doc = state.to_json()
        for viewer in (None, "british", "french"):
            root = parsed(draw_state(game, state, viewer=viewer).svg)
            shown = Counter(card.get("data-faction") for _, card in groups(root, "card"))
            for side in game.players:
                seen = state.is_over or side == viewer
                assert shown[side] == (len(doc["hands"][side]) if seen else 0), (viewer, side)
        laid = Counter(piece.get("data-faction") for _, piece in groups(root, "piece")
                       if piece.get("data-card") is not None)  # fmt: skip
        assert laid == Counter(entry["player"] for area in doc["grid"].values() for entry in area)
        medals = {
            (space.get("data-space"), piece.get("data-faction")): int(piece.get("data-count", "0"))
            for space, piece in groups(root, "piece")
            if space is not None and piece.get("data-piece") == "medal"
        }
        assert medals == {(area, side): n for side, by_area in doc["medals"].items()
                          for area, n in by_area.items() if n}  # fmt: skip


def test_a_witness_board_draws_the_witness_states_pieces() -> None:
    raw = tomllib.loads(PLANTED.read_text())
    raw.pop("expect")
    report = verify_coin("lod", deck_from_toml(raw, source="deck.toml"))
    witness = next(f.witness for f in report.findings if f.witness)
    board = draw_witness("lod", witness, caption="French before the Treaty")
    assert board.words == ["French before the Treaty"]
    assert drawn_pieces(parsed(board.svg)) == coin_pieces(state_from_json(witness, "lod"))


@pytest.mark.parametrize(
    ("name", "how", "path"),
    [("lod", {"layer": "religion"}, "layer"), ("eupop", {"layer": "trade"}, "layer"),
     ("sevenyears", {"viewer": "spain"}, "viewer")],
)  # fmt: skip
def test_a_bad_drawing_request_names_the_field(name: str, how: dict[str, str], path: str) -> None:
    game, state = next(playout(name, 1, 1))
    with pytest.raises(InputError) as raised:
        draw_state(game, state, **how)
    assert raised.value.path == path and raised.value.allowed


def test_only_coin_witnesses_are_drawn() -> None:
    with pytest.raises(InputError) as raised:
        draw_witness("sevenyears", {"x": 1})
    assert raised.value.allowed == ["fitl", "lod"]
