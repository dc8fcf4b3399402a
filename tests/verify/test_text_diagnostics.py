"""What the event-text parser cannot read: a misspelt name (an error, with the name the
text most likely meant) told apart from a sentence form legalis does not read yet (with
the sentence and the effect it needs), and the flavour phrase a card prints before its
colon, set apart and never read."""

from __future__ import annotations

import pytest
from legalis.verify.text import Diagnostic, parse_side
from legalis.verify.text_diagnostics import needed_effect, split_flavour


def only(text: str, game: str = "lod") -> Diagnostic:
    (diagnostic,) = parse_side(text, game).diagnostics
    return diagnostic


@pytest.mark.parametrize(
    ("text", "column", "typed", "meant"),
    [
        # the plural the text is written in wins over the nearer singular
        ("Place 2 War Partys in Boston.", 9, "War Partys", "War Parties"),
        ("Patriots free Partisns in Boston.", 15, "Partisns", "Partisans"),
        ("Place 2 Militia in Bostn.", 20, "Bostn", "Boston"),
        ("Patriot Resourcs +2.", 1, "Patriot Resourcs", "Patriot Resources"),
        ("Plaec 2 Militia in Boston.", 1, "Plaec", "Place"),  # a keyword, capitalised
    ],
)
def test_a_misspelt_name_is_a_typo_with_the_name_it_most_likely_meant(
    text: str, column: int, typed: str, meant: str
) -> None:
    diagnostic = only(text)
    assert diagnostic.kind == "typo" and diagnostic.column == column
    assert diagnostic.message == f"unknown name {typed!r} (did you mean {meant!r}?)"


@pytest.mark.parametrize(
    ("text", "column", "word"),
    [
        # "Parties" is a real word of "War Parties", not a misspelling of Partisans
        ("Patriots free Parties in Boston.", 15, "Parties"),
        # a known name followed by more words is not a misspelling of that name
        ("Indians free War Parties in Quebec.", 14, "War"),
        ("Remove 2 Parties in Boston.", 10, "Parties"),
        ("Patriots may whistle a merry tune in Boston.", 14, "whistle"),
    ],
)
def test_ordinary_words_in_a_form_not_read_are_never_corrected_to_a_name(
    text: str, column: int, word: str
) -> None:
    diagnostic = only(text)
    assert diagnostic.kind == "unread" and diagnostic.column == column
    assert "did you mean" not in diagnostic.message
    assert diagnostic.message.startswith(f"cannot read {word!r} here")


def test_an_unread_form_names_its_sentence_and_the_effect_it_needs() -> None:
    diagnostic = only("Place 2 Militia in Boston. Patriots whistle through the next card.")
    assert (diagnostic.kind, diagnostic.line, diagnostic.column) == ("unread", 1, 37)
    assert "'Patriots whistle through the next card.' is not read" in diagnostic.message
    assert "needs" not in diagnostic.message
    # a sentence the catalogue files under eligibility (EL-1) says it needs that effect
    assert needed_effect("British Ineligible through the next card.") == "eligibility"
    assert needed_effect("Place three Raid markers in Norfolk.") == "marker"
    assert needed_effect("Roll a die and place that many Tories.") == "roll"
    assert needed_effect("Place two Tories in Boston.") is None


def test_a_text_that_stops_short_is_unread_at_its_end() -> None:
    diagnostic = only("Place 2 Militia in")
    assert diagnostic.kind == "unread" and diagnostic.column == 19
    assert "ends too early" in diagnostic.message and diagnostic.expected


@pytest.mark.parametrize(
    ("text", "flavour"),
    [
        ("Fog on the river: Place 2 Tories in Boston.", "Fog on the river"),
        ("Winter storms:\nBritish Resources +2.", "Winter storms"),
        # banners and clauses before a colon are read, never flavour
        ("British CAPABILITY: Garrison costs nothing.", ""),
        ("MOMENTUM: Until the next Winter Quarters, no March.", ""),
        ("Patriots choose one: Patriot Resources +1; or British Resources -1.", ""),
        ("Move 2 Tories to map: 3 if FNI is 2.", ""),
        ("Place 2 Tories in Boston.", ""),
        ("A storm: ", ""),  # nothing after the colon: not a flavour phrase
    ],
)
def test_the_flavour_phrase_before_the_colon_is_set_apart(text: str, flavour: str) -> None:
    found, rest = split_flavour(text)
    assert found == flavour
    assert len(rest) == len(text)  # positions in the rest are positions in the text
    assert rest == text if not flavour else rest.strip() == text.split(":", 1)[1].strip()


def test_a_side_with_flavour_reads_as_the_side_without_it() -> None:
    printed = parse_side("Fog on the river: Place 2 Tories in Boston.", "lod")
    plain = parse_side("Place 2 Tories in Boston.", "lod")
    assert printed.ok and printed.effects == plain.effects
    assert printed.flavour == "Fog on the river" and plain.flavour == ""
    # a problem after the flavour is reported where it is in the printed text
    typo = parse_side("Fog on the river: Place 2 Militai in Boston.", "lod")
    assert typo.flavour == "Fog on the river"
    assert (typo.diagnostics[0].kind, typo.diagnostics[0].column) == ("typo", 27)
