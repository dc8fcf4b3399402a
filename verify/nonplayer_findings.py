"""Liberty or Death: event sides a Non-player would always find Ineffective (8.3.3).

A Non-player uses the shaded side if it is a Patriot or French Faction and the
unshaded side if British or Indian (8.3.2; a one-sided card serves all). It finds
an Event Ineffective when its only effect would be to remove friendly pieces, or
to shift Support and Opposition in the enemy's favour (8.3.3). A side made only of
such effects is Ineffective in every state: the Non-player will never play it. A
Winter Quarters card's Event is no Faction's to play or skip: it takes effect in its
Winter Quarters Round (6.0), so it is never reported.

>>> from legalis.model.coin.deck import deck_from_toml
>>> deck = deck_from_toml({"game": "lod", "card": [{"number": 4, "title": "Retreat",
...     "factions": ["British"], "unshaded": {"effects": [
...         {"op": "remove", "pieces": ["tory"], "count": 2}]}}]})
>>> [(card, side, faction) for card, side, faction, _ in always_ineffective(deck)]
[(4, 'unshaded', 'british'), (4, 'unshaded', 'indians')]
"""

from __future__ import annotations

from collections.abc import Iterator

from legalis.model.coin import effects as fx
from legalis.model.coin.deck import WINTER_QUARTERS, Deck
from legalis.model.coin.gamedata import load_game_data

SIDE_OF_NONPLAYER = {
    "patriots": "shaded",
    "french": "shaded",
    "british": "unshaded",
    "indians": "unshaded",
}
FAVOURED = {"royalist": 1, "rebellion": -1}  # the way a shift helps: toward Support or Opposition


def _hurts_only(effect: fx.Effect, friendly: set[str], favour: int) -> str | None:
    """Why ``effect`` can only hurt the Faction (8.3.3), or None if it might help."""
    if isinstance(effect, fx.Remove) and set(effect.pieces) <= friendly:
        return "it only removes friendly pieces"
    if isinstance(effect, fx.Shift) and effect.levels * favour < 0:
        return "it only shifts Support and Opposition toward the enemy"
    return None


def always_ineffective(deck: Deck) -> Iterator[tuple[int, str, str, str]]:
    """(card, side, Faction, why) for each side a Non-player always finds Ineffective."""
    if deck.game != "lod":
        return
    data = load_game_data("lod")
    for card in deck.cards:
        if card.kind == WINTER_QUARTERS:
            continue
        printed = [name for name in ("unshaded", "shaded") if getattr(card, name) is not None]
        for faction in data.factions:
            side_name = printed[0] if len(printed) == 1 else SIDE_OF_NONPLAYER[faction.id]
            side = card.side(side_name)
            if not side.effects:
                continue
            friendly = {p.id for p in data.pieces if data.side_of(p.faction) == faction.side}
            reasons = [_hurts_only(e, friendly, FAVOURED[faction.side]) for e in side.effects]
            if all(reasons):
                yield card.number, side_name, faction.id, "; ".join(sorted(set(map(str, reasons))))
