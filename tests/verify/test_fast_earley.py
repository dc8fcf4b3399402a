"""The faster Earley predictor reads every sentence to the tree lark's own predictor does."""

from __future__ import annotations

import threading
from functools import cache

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from legalis.model.coin.deck import bundled_deck
from legalis.verify.fast_earley import exact_expectations, speed_up
from legalis.verify.text import _FIRST_WORDS, _STARTS, _sentences, grammar_for
from legalis.verify.text_diagnostics import split_flavour

GAMES = ("lod", "fitl")
STARTS = ["start", "lasting_rule", "start_subject", *_FIRST_WORDS]


@cache
def parsers(game: str) -> tuple[Lark, Lark]:
    """lark's own Earley parser of ``game`` and one with the faster predictor."""

    def build() -> Lark:
        return Lark(grammar_for(game), parser="earley", lexer="dynamic",
                    propagate_positions=True, start=STARTS)  # fmt: skip

    return build(), speed_up(build())


def deck_sentences(game: str) -> list[str]:
    """Every distinct sentence of the sample deck's sides."""
    found: dict[str, None] = {}
    for card in bundled_deck(game).cards:
        for side in (card.unshaded, card.shaded):
            if side is not None and side.text.strip():
                _, printed = split_flavour(side.text)
                found.update(dict.fromkeys(printed[a:b] for a, b in _sentences(printed)))
    return list(found)


def outcome(parser: Lark, sentence: str, start: str) -> Tree[Token] | None:
    """The tree, or None when the sentence is no ``start`` (the faster predictor may
    stop at the space before the word no rule can read, lark's after it)."""
    try:
        return parser.parse(sentence, start=start)
    except UnexpectedInput:
        return None


@pytest.mark.parametrize("game", GAMES)
def test_same_trees_and_errors_as_lark(game: str) -> None:
    plain, fast = parsers(game)
    for sentence in deck_sentences(game):
        start = _STARTS.get(sentence.split(maxsplit=1)[0].lower(), "start")  # as text reads it
        assert outcome(fast, sentence, start) == outcome(plain, sentence, start), sentence


def expected(error: UnexpectedInput) -> set[str]:
    """The terminals an error says could have come next."""
    return set(getattr(error, "allowed", None) or getattr(error, "expected", None) or ())


@pytest.mark.parametrize("game", GAMES)
def test_exact_expectations_list_what_lark_expects(game: str) -> None:
    plain, fast = parsers(game)
    # an unknown name where a location must stand: no location rule can begin there
    text = "Place 2 Militia in Bostn." if game == "lod" else "Place 2 VC Guerrillas in Saigno."
    with pytest.raises(UnexpectedInput) as lark_error:
        plain.parse(text, start="start")
    with exact_expectations(fast), pytest.raises(UnexpectedInput) as fast_error:
        fast.parse(text, start="start")
    assert expected(fast_error.value) == expected(lark_error.value)
    assert fast_error.value.pos_in_stream == lark_error.value.pos_in_stream


def test_threads_share_one_parser() -> None:
    """Each thread's parse keeps its own state, as with lark's own parser."""
    plain, fast = parsers("lod")
    sentences = deck_sentences("lod")[:12]
    expected = [outcome(plain, sentence, "start") for sentence in sentences]
    results: list[list[Tree[Token] | None]] = []

    def read() -> None:
        results.append([outcome(fast, sentence, "start") for sentence in sentences])

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


def test_only_dynamic_earley_parsers_are_sped_up() -> None:
    with pytest.raises(TypeError, match="dynamic-lexer Earley"):
        speed_up(Lark('start: "a"', parser="lalr"))
