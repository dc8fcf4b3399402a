"""Verifying COIN decks of growing size: total time and time per card side by side.

A deck of N cards is made from the bundled sample deck's cards, renumbered (and
their lasting effects renamed per copy, so the cross-card check has work to do).
The target: a 120-card deck in under 10 s on 2 cores, and a time per card that
does not grow with the deck.

    python benchmarks/verify_deck.py [--game lod] [--sizes 30 60 120]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from legalis.model.coin.deck import Deck, bundled_deck, deck_from_toml
from legalis.model.coin.effects import side_to_toml
from legalis.verify.coin import verify_coin

TARGET_SECONDS = 10.0


def deck_of(game: str, size: int, *, printed: bool = False) -> Deck:
    """``size`` cards copied round-robin from the sample deck, numbered 1..size;
    ``printed``: each side is its printed text only, with no ``effects`` table."""
    sample = bundled_deck(game).cards
    cards: list[dict[str, Any]] = []
    for number in range(1, size + 1):
        card = sample[(number - 1) % len(sample)]
        copy = (number - 1) // len(sample)
        raw: dict[str, Any] = {
            "number": number,
            "title": f"{card.title} {copy}" if copy else card.title,
            "factions": list(card.factions),
            "marks": dict(card.marks),
            "kind": card.kind,
        }
        for side in ("unshaded", "shaded"):
            face = getattr(card, side)
            if face is None:
                continue
            if printed:
                if face.text.strip():
                    raw[side] = {"text": face.text}
            else:
                raw[side] = _renamed(side_to_toml(face), card.title, raw["title"])
        cards.append(raw)
    return deck_from_toml({"game": game, "card": cards})


def _renamed(table: Any, old: str, new: str) -> Any:
    """Lasting effects named after the card follow its new title, so copies differ."""
    if isinstance(table, dict):
        out = {key: _renamed(value, old, new) for key, value in table.items()}
        if out.get("op") == "lasting" and out.get("name") == old:
            out["name"] = new
        return out
    if isinstance(table, list):
        return [_renamed(item, old, new) for item in table]
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("lod", "fitl"), default="fitl")
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 60, 120])
    args = parser.parse_args()
    verify_coin(args.game)  # loads the game data, maps and scenarios once
    started = time.perf_counter()
    verify_coin(args.game)
    fixed = time.perf_counter() - started
    print(f"target: a 120-card deck in under {TARGET_SECONDS:.0f} s; time per card flat")
    print(f"rule-set proofs alone (no deck): {fixed:.3f} s")
    print(f"{'cards':>6}{'seconds':>10}{'ms/card':>10}{'findings':>10}{'per card vs first':>19}")
    base = None
    for size in args.sizes:
        deck = deck_of(args.game, size)
        started = time.perf_counter()
        report = verify_coin(args.game, deck)
        seconds = time.perf_counter() - started
        per_card = max(seconds - fixed, 0.0) / size * 1e3
        base = base or per_card
        print(f"{size:>6}{seconds:>10.3f}{per_card:>10.2f}{len(report.findings):>10}"
              f"{per_card / base:>18.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
