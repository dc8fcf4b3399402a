"""Every example of the sentence-form tables and every side of the sample decks is
rendered back to text, and that text reads as the same effects.

``render_side`` writes each effect in one canonical sentence form, so the text it
writes is not the example's own wording; what must hold is that ``parse_side`` of it
gives back exactly the effects the example means (compared as TOML tables, so a
failure shows the differing field). A row whose effects no canonical form writes
yet is listed in ``UNWRITTEN``: the renderer must refuse it with an ``InputError``
naming the field, never write text that reads otherwise; a listed row that renders
fails the test, so the list only shrinks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from legalis.model.coin.deck import bundled_deck
from legalis.model.coin.effects import Side, side_to_toml
from legalis.model.errors import InputError
from legalis.verify.render import render_side
from legalis.verify.text import parse_side

from tests.verify.test_text_forms import GAMES, TITLE, expected_side, table

# Rows no canonical sentence writes yet, by game: "<form id>#<n>" is the n-th example
# of that form in forms/<game>.toml, "side#<n>" the n-th whole side, "card<n>.<side>"
# a side of the sample deck.
_UNWRITTEN_TEXT = {
    "lod": """
        card23.unshaded card30.unshaded
        """,
    "fitl": """
        C-5#1 MV-6#2 card26.unshaded card62.unshaded
        """,
}
UNWRITTEN = {game: frozenset(text.split()) for game, text in _UNWRITTEN_TEXT.items()}


def rows() -> list[Any]:
    """(game, key, side, title, side name) of every example and sample side."""
    out: list[Any] = []
    for game in GAMES:
        seen: Counter[str] = Counter()
        for kind in ("form", "side"):
            for entry in table(game).get(kind, []):
                form = entry.get("id", "side")
                seen[form] += 1
                key = f"{form}#{seen[form]}"
                side = expected_side(entry)
                out.append(pytest.param(game, key, side, TITLE, "unshaded", id=f"{game}-{key}"))
        for card in bundled_deck(game).cards:
            for name in ("unshaded", "shaded"):
                side = getattr(card, name)
                if side is not None and side.effects:
                    key = f"card{card.number}.{name}"
                    out.append(pytest.param(game, key, side, card.title, name,
                                            id=f"{game}-{key}"))  # fmt: skip
    return out


def effect_tables(side: Side) -> list[Any]:
    return list(side_to_toml(side).get("effects", []))


@pytest.mark.parametrize(("game", "key", "side", "title", "side_name"), rows())
def test_each_example_reads_back_from_its_rendering(
    game: str, key: str, side: Side, title: str, side_name: str
) -> None:
    try:
        text = render_side(side.effects, game)
    except InputError as refused:
        assert key in UNWRITTEN[game], f"{key}: {refused}"
        assert (refused.path or "").startswith("effects["), refused.path
        return
    assert key not in UNWRITTEN[game], f"{key} now renders: take it off UNWRITTEN"
    result = parse_side(text, game, title=title, side=side_name)  # type: ignore[arg-type]
    assert result.diagnostics == [], text
    assert effect_tables(Side(effects=result.effects)) == effect_tables(side), text
