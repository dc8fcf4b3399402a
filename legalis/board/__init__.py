"""Boards: a state of any registered game drawn as SVG, the same picture for
``legalis draw``, ``POST /v1/{game}/board`` and the browser table.

A :class:`Board` holds the SVG text, the position in words (the game's own
``render`` lines, for people and screen readers) and every drawn place with what
lies there in words, for a page to say where a click or a key landed.

>>> from legalis.registry import load_game
>>> game = load_game("sevenyears")
>>> board = draw_state(game, game.new_initial_state())
>>> board.svg.startswith("<svg"), board.words[0]
(True, 'Turn 1 of 7, plan phase; chance to move')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from legalis.model.errors import InputError, clip

__all__ = [
    "LAYERS",
    "Board",
    "board_layers",
    "draw_state",
    "draw_witness",
    "drawn_games",
    "witness_games",
]

LAYERS = ("religion", "revolution")  # EU:PoP 16.5: what the next placement spreads


def board_layers(game_name: str) -> tuple[str, ...]:
    """What a game's board can show beside its state (the first is the default).

    >>> board_layers("eupop"), board_layers("lod")
    (('religion', 'revolution'), ())
    """
    return LAYERS if game_name == "eupop" else ()


@dataclass(frozen=True)
class Board:
    """A drawn state: ``svg``, ``words`` (lines saying where the game stands),
    ``places`` (``{id, name, words}`` per drawn space or area) and ``details``
    (what else a game's drawing reports, e.g. EU:PoP's reachable Areas)."""

    svg: str
    words: list[str]
    places: list[dict[str, str]]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"svg": self.svg, "words": self.words, "places": self.places, **self.details}


def _coin_cards(state: Any) -> list[tuple[str, Any]]:
    """The cards a COIN game's state shows: the one played and, in a whole game,
    the next one face up (2.2)."""
    if hasattr(state, "next_card"):
        return [("Card", state.card), ("Next", state.next_card)]
    return [("Card", state.card)]


def _draw_coin_state(game: Any, state: Any, viewer: str | None, layer: str | None) -> Board:
    from legalis.board.coin import draw_coin

    _no_layer(game.name, layer)
    words = game.render(state, viewer)
    board = state.coin if hasattr(state, "coin") else state.board
    svg, places = draw_coin(board, title=game.title, cards=_coin_cards(state),
                            words=words[0])  # fmt: skip
    return Board(svg, words, places)


def _draw_eupop_state(game: Any, state: Any, viewer: str | None, layer: str | None) -> Board:
    from legalis.board.eupop import draw_eupop

    words = game.render(state, viewer)
    display = [{**slot, "title": game.describe_item(slot["event"]) if slot["event"] else ""}
               for slot in game.summary(state)["display"]]  # fmt: skip
    svg, places, details = draw_eupop(state.map, layer=_layer(layer), display=display,
                                      words=words[0])  # fmt: skip
    names = [place["name"] for place in places if place["id"] in details["reachable"]]
    reach = ", ".join(names) if names else "no Area"
    words = [*words, f"A {details['spread']} placement now (16.5) may go to: {reach}"]
    return Board(svg, words, places, details)


def _draw_sevenyears_state(game: Any, state: Any, viewer: str | None, layer: str | None) -> Board:
    from legalis.board.sevenyears import draw_sevenyears

    _no_layer(game.name, layer)
    words = game.render(state, viewer)
    svg, places = draw_sevenyears(game, state, viewer=viewer, words=words[0])
    return Board(svg, words, places)


def _layer(layer: str | None) -> str:
    if layer is None:
        return LAYERS[0]
    if layer not in LAYERS:
        raise InputError(f"unknown layer {clip(layer)!r}", path="layer", allowed=LAYERS)
    return layer


def _no_layer(game: str, layer: str | None) -> None:
    if layer is not None:
        raise InputError(f"{game} boards have no layers", path="layer", allowed=["null"])


_STATE_DRAWERS: dict[str, Callable[[Any, Any, str | None, str | None], Board]] = {
    "eupop": _draw_eupop_state,
    "fitl": _draw_coin_state,
    "lod": _draw_coin_state,
    "sevenyears": _draw_sevenyears_state,
}


def drawn_games() -> list[str]:
    """The games whose states are drawn.

    >>> drawn_games()
    ['eupop', 'fitl', 'lod', 'sevenyears']
    """
    return sorted(_STATE_DRAWERS)


def draw_state(game: Any, state: Any, *, viewer: str | None = None,
               layer: str | None = None) -> Board:  # fmt: skip
    """The board of ``state``, a state of the registered ``game``, as seen by
    ``viewer`` (a seat: its hidden cards are shown; None: only what every seat
    sees); ``layer``: EU:PoP's spread to show (religion, revolution)."""
    if game.name not in _STATE_DRAWERS:
        raise InputError(f"no board for {clip(game.name)!r}", path="game",
                         allowed=sorted(_STATE_DRAWERS))  # fmt: skip
    if viewer is not None and viewer not in game.players:
        raise InputError(f"{game.title} has no seat {clip(viewer)!r}", path="viewer",
                         allowed=list(game.players))  # fmt: skip
    return _STATE_DRAWERS[game.name](game, state, viewer, layer)


def witness_games() -> list[str]:
    """The games whose findings carry witness states a board draws (COIN boards;
    the proofs' witnesses are values, shown as they are)."""
    return ["fitl", "lod"]


def draw_witness(game_name: str, document: dict[str, Any], *, caption: str = "") -> Board:
    """The board of a finding's witness state, a COIN board document of LoD or
    FitL, with ``caption``: what it witnesses."""
    if game_name not in witness_games():
        raise InputError(f"no witness boards for {clip(game_name)!r}", path="game",
                         allowed=witness_games())  # fmt: skip
    from legalis.board.coin import draw_coin
    from legalis.model.coin.state import state_from_json

    board = state_from_json(document, game_name, source="witness")
    title = caption or f"A witness state of {game_name}"
    svg, places = draw_coin(board, title=title, words=title)
    return Board(svg, [title], places)
