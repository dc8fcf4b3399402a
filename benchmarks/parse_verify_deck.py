"""Reading and verifying a 130-card deck of printed text only, on one core.

The deck is the bundled sample deck's cards as printed (numbers, titles, Faction
order and text; no ``effects`` tables), copied round-robin and renumbered to 130
cards, each copy retitled so its lasting effects differ. ``verify_coin`` reads every
side's text with the grammar and checks the deck with every proof; the target is
the whole deck in under 3 s on one core. The copies repeat sentences, which the
parser reads once, so the time of a deck that repeats no card is given too: each
card read cold (the parser's sentence cache emptied first), plus the checks and
proofs. Per-card times follow, slowest first: reading the card cold and checking it.

    python benchmarks/parse_verify_deck.py [--game lod fitl] [--cards 130] [--slowest 10]
"""

from __future__ import annotations

import argparse
import os
import time

from legalis.model.coin.deck import SIDES, Deck
from legalis.verify import text
from legalis.verify.coin import verify_coin
from legalis.verify.lexicon import lexicon
from verify_deck import deck_of  # the same deck, as printed

TARGET_SECONDS = 3.0


def read_times(deck: Deck) -> dict[int, float]:
    """Seconds to read each card's sides cold, by card number."""
    out: dict[int, float] = {}
    for card in deck.cards:
        text._parse.cache_clear()  # the sentences of earlier copies are not known
        started = time.perf_counter()
        for name in SIDES:
            side = getattr(card, name)
            if side is not None:
                text.parse_side(side.text, deck.game, title=card.title, side=name)
        out[card.number] = time.perf_counter() - started
    return out


def build_time(game: str) -> float:
    """Seconds to build the game's grammar and parser from nothing, as a new process does."""
    text._sentence_parser.cache_clear()
    text.grammar_for.cache_clear()
    lexicon.cache_clear()
    started = time.perf_counter()
    text._sentence_parser(game)
    return time.perf_counter() - started


def run(game: str, size: int, slowest: int) -> None:
    deck = deck_of(game, size, printed=True)
    verify_coin(game, deck_of(game, 2, printed=True))  # loads data, maps, scenarios and the grammar
    building = build_time(game)
    text._parse.cache_clear()
    started = time.perf_counter()
    report = verify_coin(game, deck)  # copies repeat sentences: each is read once
    whole = time.perf_counter() - started
    checked: dict[int, float] = {}
    last = started = time.perf_counter()

    def card_done(number: int) -> None:
        nonlocal last
        now = time.perf_counter()
        checked[number] = now - last
        last = now

    verify_coin(game, deck, on_card=card_done)  # every sentence known: checks and proofs
    checking = time.perf_counter() - started
    reading = read_times(deck)
    distinct = sum(reading.values()) + checking
    unread = sum(1 for f in report.findings if f.code.startswith("text."))
    print(f"== {game}: {size} cards, text only, one core")
    print(f"{'':<34}{'measured':>10}{'target':>10}{'ratio':>8}")
    for label, seconds in (
        ("whole deck (s)", whole),
        ("whole deck, no card repeated (s)", distinct),
        ("  the same, parser built too (s)", distinct + building),
    ):
        print(f"{label:<34}{seconds:>10.3f}{TARGET_SECONDS:>10.1f}"
              f"{seconds / TARGET_SECONDS:>7.2f}x")  # fmt: skip
    print(f"{'  reading every card cold (s)':<34}{sum(reading.values()):>10.3f}")
    print(f"{'  checks and proofs (s)':<34}{checking:>10.3f}")
    print(f"{'  building the parser (s)':<34}{building:>10.3f}")
    print(f"sides not read in full: {unread}; findings: {len(report.findings)}")
    print(f"slowest cards (ms){'read':>12}{'check':>10}{'chars':>8}  title")
    ranked = sorted(deck.cards, key=lambda c: -(reading[c.number] + checked.get(c.number, 0.0)))
    for card in ranked[:slowest]:
        chars = sum(len(getattr(card, n).text) for n in SIDES if getattr(card, n) is not None)
        print(f"  card {card.number:>4}{reading[card.number] * 1e3:>18.1f}"
              f"{checked.get(card.number, 0.0) * 1e3:>10.1f}{chars:>8}  {card.title}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("lod", "fitl"), nargs="+", default=["lod", "fitl"])
    parser.add_argument("--cards", type=int, default=130)
    parser.add_argument("--slowest", type=int, default=10)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    for game in args.game:
        run(game, args.cards, args.slowest)


if __name__ == "__main__":
    main()
