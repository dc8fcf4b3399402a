"""The event-text parser: every sample card side, golden sentences, diagnostics, fuzzing."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legalis.model.coin.deck import bundled_deck, deck_from_toml
from legalis.model.coin.effects import Side, side_from_toml, side_to_toml
from legalis.verify.coin_findings import check_deck
from legalis.verify.text import (
    MAX_TEXT_LENGTH,
    Diagnostic,
    ParseResult,
    grammar_for,
    parse_side,
)

SIDES = [
    (game, card.number, name, card.title, side)
    for game in ("lod", "fitl")
    for card in bundled_deck(game).cards
    for name in ("unshaded", "shaded")
    if (side := getattr(card, name)) is not None and side.text
]
TEXTS = [side.text for *_, side in SIDES]


def effects(*tables: dict[str, Any]) -> tuple[Any, ...]:
    """Hand-written effect tables, validated by the effect language itself."""
    return side_from_toml({"effects": list(tables)}).effects


def show(result: ParseResult) -> Any:
    return side_to_toml(Side(effects=result.effects)).get("effects"), result.diagnostics


# ---------------------------------------------------------------------- the sample decks


def test_both_sample_decks_are_covered() -> None:
    # every printed side has its text, and the decks grew to use every sentence form
    printed = [
        side
        for game in ("lod", "fitl")
        for card in bundled_deck(game).cards
        for side in (card.unshaded, card.shaded)
        if side is not None
    ]
    assert all(side.text for side in printed)
    assert len(SIDES) == len(printed) >= 200


@pytest.mark.parametrize(
    ("game", "number", "name", "title", "side"),
    SIDES,
    ids=[f"{game}-{number}-{name}" for game, number, name, *_ in SIDES],
)
def test_every_sample_side_compiles_to_its_effects(
    game: str, number: int, name: str, title: str, side: Side
) -> None:
    result = parse_side(side.text, game, title=title, side=name)  # type: ignore[arg-type]
    assert result.diagnostics == [], side.text
    assert result.effects == side.effects, (side.text, show(result))
    assert result.lasting == side.lasting


# ---------------------------------------------------------------------- golden sentences

ANY_TOTAL = {"filter": {"is": "anywhere"}, "per_space": False}
GOLDEN: list[tuple[str, str, tuple[Any, ...]]] = [
    ("lod", "Place 2 Militia in each of up to 3 Colonies.", effects(
        {"op": "place", "pieces": ["militia"], "count": 2,
         "where": {"filter": {"is": "type", "types": ["Colony"]}, "spaces": 3, "up_to": True}})),
    ("lod", "Remove 1 Fort from a City with Rebellion Control.", effects(
        {"op": "remove", "pieces": ["british_fort", "patriot_fort"],
         "where": {"filter": {"is": "all", "filters": [
             {"is": "type", "types": ["City"]}, {"is": "control", "control": "rebellion"}]},
             "spaces": 1}})),
    ("lod", "Patriots Resources +3.", effects(
        {"op": "adjust", "track": "patriots_resources", "delta": 3})),
    ("lod", "Shift 2 Cities 1 level toward Active Opposition.", effects(
        {"op": "shift", "levels": -1,
         "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 2}})),
    ("lod", "Indians free Gather in 2 Provinces.", effects(
        {"op": "free", "faction": "indians", "action": "gather",
         "where": {"filter": {"is": "type", "types": ["Colony", "Reserve"]}, "spaces": 2}})),
    ("lod", "British may remove up to 4 Militia.", effects(
        {"op": "remove", "pieces": ["militia"], "count": {"n": 4, "up_to": True},
         "chooser": "british", "where": ANY_TOTAL})),
    # a Momentum's rules are read, not kept as opaque text; Winter Quarters is LoD's Coup
    ("lod", "Until the next Winter Quarters, British may not March. (Momentum)", effects(
        {"op": "lasting", "kind": "momentum", "name": "Golden Card", "duration": "until_coup",
         "rules": [{"text": "British may not March", "kind": "ban", "faction": "british",
                    "action": "march", "modelled": True}]})),
    ("lod", "Executing Faction places 2 Militia in Boston.", effects(
        {"op": "place", "pieces": ["militia"], "count": 2,
         "where": {"filter": {"is": "named", "names": ["Boston"]}}})),
    ("lod", "If ToA played, French Resources +2.", effects(
        {"op": "if", "condition": {"if": "flag", "flag": "toa_played"},
         "then": [{"op": "adjust", "track": "french_resources", "delta": 2}]})),
    ("lod", "Patriots or French execute a free Battle in one City.", effects(
        {"op": "choose", "options": [
            [{"op": "free", "faction": "patriots", "action": "battle",
              "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 1}}],
            [{"op": "free", "faction": "french", "action": "battle",
              "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 1}}]]})),
    ("lod", "If Patriots or French execute this Event, FNI +1.", effects(
        {"op": "if", "condition": {"if": "executing", "factions": ["patriots", "french"]},
         "then": [{"op": "adjust", "track": "fni", "delta": 1}]})),
    ("lod", "Place 1 Village in a Colony adjacent to Boston.", effects(
        {"op": "place", "pieces": ["village"],
         "where": {"filter": {"is": "all", "filters": [
             {"is": "type", "types": ["Colony"]},
             {"is": "adjacent", "filter": {"is": "named", "names": ["Boston"]}}]},
             "spaces": 1}})),
    ("lod", "Place 2 British Regulars from Unavailable in Boston.", effects(
        {"op": "place", "pieces": ["british_regular"], "count": 2, "source": "unavailable",
         "where": {"filter": {"is": "named", "names": ["Boston"]}}})),
    ("lod", "Place 2 Tories from Casualties in one City.", effects(
        {"op": "place", "pieces": ["tory"], "count": 2, "source": "casualties",
         "where": {"filter": {"is": "type", "types": ["City"]}, "spaces": 1}})),
    ("fitl", "Place 2 US Troops from out of play in Saigon.", effects(
        {"op": "place", "pieces": ["us_troop"], "count": 2, "source": "out_of_play",
         "where": {"filter": {"is": "named", "names": ["Saigon"]}}})),
    ("fitl", "Remove 3 Bases from spaces in Cambodia.", effects(
        {"op": "remove", "pieces": ["us_base", "arvn_base", "nva_base", "vc_base"], "count": 3,
         "where": {"filter": {"is": "country", "countries": ["Cambodia"]},
                   "per_space": False}})),
    ("fitl", "If Patronage is at least 10, Patronage -3; otherwise VC Resources +2.", effects(
        {"op": "if", "condition": {"if": "track", "track": "patronage", "compare": ">=",
                                   "value": 10},
         "then": [{"op": "adjust", "track": "patronage", "delta": -3}],
         "otherwise": [{"op": "adjust", "track": "vc_resources", "delta": 2}]})),
]  # fmt: skip


@pytest.mark.parametrize(("game", "text", "expected"), GOLDEN, ids=[t for _, t, _ in GOLDEN])
def test_golden_sentences(game: str, text: str, expected: tuple[Any, ...]) -> None:
    result = parse_side(text, game, title="Golden Card")
    assert result.diagnostics == []
    assert result.effects == expected, show(result)


def test_lasting_kinds_are_reported() -> None:
    momentum = parse_side("Until the next Coup Round, US may not Air Lift.", "fitl", title="M")
    assert momentum.lasting == "momentum"
    capability = parse_side("US CAPABILITY: Sweep costs 0.", "fitl", title="C", side="shaded")
    assert capability.lasting == "capability"
    # a rule the language cannot say is kept as written, with the action it changes
    assert capability.effects == effects(
        {
            "op": "lasting",
            "kind": "capability",
            "name": "C",
            "side": "shaded",
            "duration": "game",
            "rules": [{"text": "Sweep costs 0", "kind": "change", "action": "sweep"}],
        }
    )


def test_keywords_are_case_insensitive_and_lines_may_break() -> None:
    text = "place 2 Militia\nin each of up to 3\nColonies."
    assert parse_side(text, "lod").effects == GOLDEN[0][2]


# ---------------------------------------------------------------------- diagnostics


def test_a_broken_sentence_reports_line_column_and_expected_forms() -> None:
    result = parse_side("Frobnicate 2 Militia.", "lod")
    assert result.effects == ()
    [problem] = result.diagnostics
    assert (problem.line, problem.column) == (1, 1)
    assert '"place"' in problem.expected and "a track name" in problem.expected


def test_a_problem_on_a_later_line() -> None:
    [problem] = parse_side("Patriot Resources +2.\nPlace 2 Militia by Boston.", "lod").diagnostics
    assert (problem.line, problem.column) == (2, 17)
    assert '"in"' in problem.expected


def test_text_that_ends_too_early() -> None:
    [problem] = parse_side("Place 2 Militia in", "lod").diagnostics
    assert (problem.line, problem.column) == (1, 19)
    assert problem.message.startswith("the text ends too early")
    assert problem.kind == "unread" and "a space name" in problem.expected


def test_a_missing_full_stop() -> None:
    [problem] = parse_side("Aid +3", "fitl").diagnostics
    assert problem.line == 1 and '"."' in problem.expected


def test_a_pronoun_without_antecedent() -> None:
    [problem] = parse_side("Place 2 Militia in one of them.", "lod").diagnostics
    assert "no earlier space" in problem.message


def test_an_unknown_game() -> None:
    [problem] = parse_side("Aid +3.", "chess").diagnostics
    assert problem.message == "unknown game 'chess'"


def test_empty_text() -> None:
    assert parse_side("  ", "lod").diagnostics[0].message == "no text"


# ---------------------------------------------------------------------- unknown names


@pytest.mark.parametrize(
    ("game", "text", "line", "column", "name", "nearest"),
    [
        ("lod", "Place 2 Militai in Boston.", 1, 9, "Militai", "Militia"),
        ("lod", "Remove 1 Fort from Bostn.", 1, 20, "Bostn", "Boston"),
        ("lod", "Place 2 Tories in\n  Philadelpia.", 2, 3, "Philadelpia", "Philadelphia"),
        ("lod", "Patriot Resourcs +3.", 1, 1, "Patriot Resourcs", "Patriot Resources"),
        ("lod", "Remove 2 Militia from Boston to Casualtis.", 1, 33, "Casualtis", "Casualties"),
        ("lod", "Place 1 Village in each Reserv.", 1, 25, "Reserv", "Reserve"),
        ("fitl", "Place 2 VC Guerrillas in Saigonn.", 1, 26, "Saigonn", "Saigon"),
        ("fitl", "NVA execute a free Infiltrat.", 1, 20, "Infiltrat", "Infiltrate"),
    ],
)
def test_unknown_names_suggest_the_nearest(
    game: str, text: str, line: int, column: int, name: str, nearest: str
) -> None:
    result = parse_side(text, game)
    assert result.diagnostics == [
        Diagnostic(line, column, f"unknown name {name!r} (did you mean {nearest!r}?)",
                   result.diagnostics[0].expected, kind="typo")
    ]  # fmt: skip


def test_the_grammar_is_built_from_the_game_data() -> None:
    assert "Saigon" in grammar_for("fitl") and "Saigon" not in grammar_for("lod")


# ---------------------------------------------------------------------- never raises


def check(result: ParseResult) -> None:
    assert isinstance(result, ParseResult)
    assert not (result.effects and result.diagnostics)
    for problem in result.diagnostics:
        assert problem.line >= 1 and problem.column >= 1 and problem.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80), st.sampled_from(["lod", "fitl"]))
def test_random_text_never_raises(text: str, game: str) -> None:
    check(parse_side(text, game))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "insert", "swap", "case", "cut"]))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 6)) :]
        elif kind == "insert":
            text = text[:at] + draw(st.text(max_size=6)) + text[at:]
        elif kind == "swap":
            words = text.split(" ")
            i, j = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
        elif kind == "case":
            text = text[:at] + text[at:].swapcase()
        else:
            text = text[:at]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.sampled_from(["lod", "fitl"]))
def test_mutated_sample_text_never_raises(text: str, game: str) -> None:
    check(parse_side(text, game, title="Mutant"))


# ---------------------------------------------------------------------- long texts

SENTENCE = "Place 2 Militia in each of up to 3 Colonies. "


def peak_bytes(text: str) -> tuple[int, ParseResult]:
    """The peak memory taken while reading ``text``, and what it reads as."""
    parse_side("British Resources +2.", "lod")  # the parser built once, outside the count
    tracemalloc.start()
    try:
        result = parse_side(text, "lod")
        return tracemalloc.get_traced_memory()[1], result
    finally:
        tracemalloc.stop()


def test_a_text_longer_than_the_bound_is_refused_unread() -> None:
    just_over = (SENTENCE * (MAX_TEXT_LENGTH // len(SENTENCE) + 1))[: MAX_TEXT_LENGTH + 1]
    for text in (just_over, SENTENCE * 20_000):  # 900,000 characters
        peak, result = peak_bytes(text)
        assert result.effects == ()
        (diagnostic,) = result.diagnostics
        assert f"{len(text):,} characters long" in diagnostic.message
        assert f"read up to {MAX_TEXT_LENGTH:,}" in diagnostic.message
        assert (diagnostic.line, diagnostic.column) == (1, MAX_TEXT_LENGTH + 1)
        assert peak < 2 * len(text) + 100_000  # a copy of the text at most: no parse


def test_reading_a_text_within_the_bound_takes_memory_linear_in_its_length() -> None:
    short, long = SENTENCE * 10, SENTENCE * 40  # 450 and 1,800 characters
    (short_peak, short_read), (long_peak, long_read) = peak_bytes(short), peak_bytes(long)
    assert len(short_read.effects) == 10 and len(long_read.effects) == 40
    per_char = long_peak / len(long)
    assert per_char < 1.5 * short_peak / len(short)
    # the Earley chart: a few kilobytes a character, so a text at the bound stays small
    assert per_char * MAX_TEXT_LENGTH < 40_000_000


def test_verify_names_the_card_and_side_of_an_overlong_text() -> None:
    deck = deck_from_toml({"game": "lod", "card": [{
        "number": 5, "title": "Endless Orders", "factions": ["Patriots", "British"],
        "unshaded": {"text": SENTENCE * 200}}]})  # fmt: skip
    (finding,) = [f for f in check_deck(deck, "lod") if f.code == "text.unreadable"]
    assert (finding.card, finding.side) == (5, "unshaded")
    assert "read up to" in finding.message
