"""Findings over COIN decks: the sample decks are clean, each planted defect is found
where it was planted, and every witness state loads soundly and shows its problem."""

from __future__ import annotations

import tomllib
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from legalis.model.coin.deck import Deck, bundled_deck, deck_from_toml
from legalis.model.coin.state import CoinState, state_from_json
from legalis.solver.events import legal_event_moves
from legalis.verify.coin_findings import CODES, check_deck
from legalis.verify.findings import Finding

DECKS = Path(__file__).parent / "decks"
CORPUS = sorted(DECKS.glob("*.toml"))
# A real defect of the bundled FitL sample deck, found by the map data: "Place 2 VC
# Guerrillas in each of 2 Lowland Provinces that are not coastal" names 2 spaces,
# but Kien Phong is the only Lowland Province off the coast.
MOVES_LOOKED_AT = 300


def planted(path: Path) -> tuple[Deck, dict[str, Any]]:
    raw = tomllib.loads(path.read_text("utf-8"))
    expect = raw.pop("expect")
    return deck_from_toml(raw, source=str(path)), expect


def errors(findings: list[Finding]) -> set[tuple[int | None, str | None, str]]:
    return {(f.card, f.side, f.code) for f in findings if f.severity == "error"}


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_the_sample_decks_have_no_errors(game: str) -> None:
    assert errors(check_deck(bundled_deck(game), game)) == set()


def test_the_sample_decks_warnings_are_the_expected_ones() -> None:
    lod = {(f.code, f.card, f.side) for f in check_deck(bundled_deck("lod"), "lod")}
    assert lod == {("lod.french-before-toa", 10, "shaded")}
    fitl = {(f.code, f.card) for f in check_deck(bundled_deck("fitl"), "fitl")}
    assert ("fitl.us-into-north-vietnam", 9) in fitl  # Irregulars to North Vietnam
    assert ("fitl.us-into-north-vietnam", 32) in fitl  # Rangers moved to North Vietnam


def test_the_corpus_plants_every_code() -> None:
    assert {planted(path)[1]["code"] for path in CORPUS} == set(CODES)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_each_planted_defect_is_found_where_planted_and_no_other_error(path: Path) -> None:
    deck, expect = planted(path)
    found = check_deck(deck, deck.game)
    hits = [f for f in found if f.code == expect["code"]]
    assert hits, f"{expect['code']} not found in {path.name}"
    assert any(f.card == expect["card"] and f.side == expect.get("side") for f in hits), [
        (f.card, f.side) for f in hits
    ]
    others = {f.code for f in found if f.severity == "error" and f.code != expect["code"]}
    assert others == set()


def corpus_and_samples() -> list[tuple[Deck, Finding]]:
    out: list[tuple[Deck, Finding]] = []
    decks = [planted(path)[0] for path in CORPUS] + [bundled_deck("lod"), bundled_deck("fitl")]
    for deck in decks:
        out.extend((deck, finding) for finding in check_deck(deck, deck.game))
    return out


def test_every_finding_names_its_card_side_words_and_rule() -> None:
    for _, finding in corpus_and_samples():
        severity, rule, _ = CODES[finding.code]
        assert finding.severity == severity and finding.rule == rule
        assert finding.card is not None and finding.words
        assert finding.side is not None or finding.code == "lasting.conflict"
        assert finding.message and finding.subject
        if finding.code.startswith("name."):
            assert "did you mean" in finding.message


def test_unknown_names_suggest_the_nearest_valid_name() -> None:
    deck, _ = planted(DECKS / "name_unknown_space.toml")
    found = check_deck(deck, "lod")
    (finding,) = [f for f in found if f.code.startswith("name.")]
    # the text names Boston, so it also reads otherwise than the misspelt effects
    assert {f.code for f in found} == {"name.unknown-space", "text.differs"}
    assert "'Boston'" in finding.message and finding.card == 1


def on_map(state: CoinState, piece: str, spaces: list[str] | None = None) -> int:
    return sum(state.pieces(s, piece) for s in spaces or state.rules.spaces)


def tunneled(state: CoinState) -> int:
    return sum(
        state.pieces(s, p, "tunneled") for s in state.rules.spaces for p in ("nva_base", "vc_base")
    )


def shows(deck: Deck, finding: Finding, state: CoinState) -> None:
    """Run the finding's side on its witness and check the problem is there."""
    card = deck.card(finding.card or 0)
    assert finding.side is not None
    coin = ["us_troop", "irregular", "us_base", "arvn_troop", "police", "ranger", "arvn_base"]
    tunneled_before = tunneled(state) if state.game == "fitl" else 0
    for faction in state.rules.faction_ids:
        if finding.code == "fitl.tunneled-implicit" and faction in ("nva", "vc"):
            continue  # the owner may opt to remove its own Tunneled Base (5.1.1)
        view = legal_event_moves(state, card, finding.side, faction)
        for move in islice(view, MOVES_LOOKED_AT):
            after = view.apply(move)
            if finding.code == "lod.french-before-toa":
                assert on_map(after, "french_regular") == 0
            elif finding.code == "fitl.us-into-north-vietnam":
                assert sum(on_map(after, p, ["North Vietnam"]) for p in coin) == 0
            elif finding.code == "fitl.tunneled-implicit":
                assert tunneled(after) == tunneled_before > 0


def test_every_witness_loads_soundly_and_shows_the_problem() -> None:
    shown = set()
    for deck, finding in corpus_and_samples():
        if finding.witness is None:
            assert finding.proof, finding
            continue
        state = state_from_json(finding.witness, deck.game)
        assert state.invariant_problems() == []
        shows(deck, finding, state)
        shown.add(finding.code)
    assert {"lod.french-before-toa", "fitl.us-into-north-vietnam",
            "fitl.tunneled-implicit"} <= shown  # fmt: skip


def test_the_french_witness_is_a_state_before_the_treaty() -> None:
    deck, _ = planted(DECKS / "lod_french_before_toa.toml")
    (finding,) = check_deck(deck, "lod", scenarios=["1778", "1775"])
    assert finding.witness is not None
    assert not state_from_json(finding.witness, "lod").flag("toa_played")


def test_a_toa_guard_silences_the_french_warning() -> None:
    deck = deck_from_toml({"game": "lod", "card": [{"number": 1, "title": "Guarded",
        "factions": ["French"], "shaded": {"effects": [{"op": "if",
        "condition": {"if": "flag", "flag": "toa_played"},
        "then": [{"op": "place", "pieces": ["french_regular"], "count": 2,
                  "where": {"filter": {"is": "named", "names": ["Boston"]}}}]}]}}]})  # fmt: skip
    assert check_deck(deck, "lod") == []


def test_french_placement_only_before_the_treaty_is_dead() -> None:
    # inside "if the Treaty has not been played", French pieces can never reach the map
    deck = deck_from_toml({"game": "lod", "card": [{"number": 1, "title": "Too Early",
        "factions": ["French"], "shaded": {"effects": [{"op": "if",
        "condition": {"if": "flag", "flag": "toa_played", "value": False},
        "then": [{"op": "place", "pieces": ["french_regular"], "count": 2,
                  "where": {"filter": {"is": "type", "types": ["City"]}}}]}]}}]})  # fmt: skip
    assert [f.code for f in check_deck(deck, "lod")] == ["event.dead"]


def test_an_unknown_track_in_a_condition_is_a_name_error_not_a_crash() -> None:
    deck = deck_from_toml({"game": "fitl", "card": [{"number": 1, "title": "Typo",
        "factions": ["US"], "unshaded": {"effects": [{"op": "if",
        "condition": {"if": "track", "track": "aidd", "compare": ">=", "value": 10},
        "then": [{"op": "adjust", "track": "aid", "delta": 2}]}]}}]})  # fmt: skip
    found = check_deck(deck, "fitl")
    assert [(f.code, f.card) for f in found] == [("name.unknown-track", 1)]
    assert "'aid'" in found[0].message


def test_the_deck_game_must_match() -> None:
    from legalis.model.errors import InputError

    with pytest.raises(InputError):
        check_deck(bundled_deck("lod"), "fitl")


def test_a_side_only_a_rebel_nonplayer_would_hurt_itself_with() -> None:
    # 8.3.2: Non-player Patriots and French use the shaded side; 8.3.3: removing only
    # friendly pieces is Ineffective. Only the Rebellion Factions are named.
    from legalis.verify.nonplayer_findings import always_ineffective

    deck = deck_from_toml({"game": "lod", "card": [{
        "number": 5, "title": "Mutiny", "factions": ["Patriots"],
        "unshaded": {"effects": [{"op": "adjust", "track": "british_resources", "delta": 1}]},
        "shaded": {"effects": [{"op": "remove", "pieces": ["continental", "french_regular"]},
                               {"op": "shift", "levels": 1}]}}]})  # fmt: skip
    assert sorted(f for _, _, f, _ in always_ineffective(deck)) == ["french", "patriots"]
    # a side that also places a friendly piece is not always Ineffective
    helpful = deck_from_toml({"game": "lod", "card": [{
        "number": 5, "title": "Mutiny", "factions": ["Patriots"],
        "shaded": {"effects": [{"op": "remove", "pieces": ["continental"]},
                               {"op": "place", "pieces": ["militia"]}]}}]})  # fmt: skip
    assert list(always_ineffective(helpful)) == []
