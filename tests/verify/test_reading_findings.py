"""Decks read as printed: a deck of text-only sides is the main path of ``legalis
verify`` (CLI and HTTP); a sentence form legalis does not read is a finding of its own
(a warning, an error with ``--strict``), a misspelt name an error; a consistent deck
read in full exits 0; the flavour phrase is kept on the side, apart from its text."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from legalis.model.coin.deck import Deck, deck_from_toml, read_deck
from legalis.verify.coin_findings import CODES, _read_card, check_deck

from legalis import cli
from legalis.server import Limits
from tests.legalis.test_server import running

DECKS = Path(__file__).parent / "decks"
TEXT_ONLY = DECKS / "text_only" / "lod.toml"


def without_expect(path: Path) -> dict[str, Any]:
    raw = tomllib.loads(path.read_text("utf-8"))
    raw.pop("expect", None)
    return raw


def read_as_printed(deck: Deck) -> Deck:
    """The deck with each card's sides given the effects their text reads as."""
    cards = tuple(_read_card(card, deck.game)[0] for card in deck.cards)
    return deck.model_copy(update={"cards": cards})


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    return int(done.value.code or 0), capsys.readouterr().out


def test_the_text_only_deck_has_text_and_no_effects_tables() -> None:
    raw = tomllib.loads(TEXT_ONLY.read_text("utf-8"))
    sides = [card[name] for card in raw["card"] for name in ("unshaded", "shaded") if name in card]
    assert sides and all(set(side) == {"text"} for side in sides)


def test_a_text_only_deck_reads_as_its_effects_with_the_flavour_kept_apart() -> None:
    deck = read_deck(str(TEXT_ONLY))
    read = read_as_printed(deck)
    first = read.card(1).side("unshaded")
    assert first.flavour == "Fog on the river" and first.text == deck.card(1).side("unshaded").text
    # 5.1: the event does what its text says: two Tories placed in Boston
    (place,) = first.effects
    assert (place.op, place.pieces, place.count.n) == ("place", ("tory",), 2)
    assert all(side.effects for card in read.cards for side in (card.unshaded, card.shaded) if side)
    assert check_deck(deck, "lod") == []


def test_a_text_only_winter_quarters_card_is_read_and_verified_like_an_event_card() -> None:
    deck = read_deck(str(TEXT_ONLY))
    read = read_as_printed(deck)
    (winter,) = read.winter_cards()
    assert (winter.number, winter.factions, winter.shaded) == (201, (), None)
    # 6.0: its Event, read from the text: two Tories removed from Boston
    (remove,) = winter.side("unshaded").effects
    assert (remove.op, remove.pieces, remove.count.n) == ("remove", ("tory",), 2)
    # no finding for the missing Faction order, nor Ineffective for a Non-player (8.3.3):
    # the same side on an Event card is one a British or Indian Non-player never plays
    assert check_deck(deck, "lod", strict=True) == []
    raw = tomllib.loads(TEXT_ONLY.read_text("utf-8"))
    as_event = {**raw["card"][-1], "factions": ["British"]}
    del as_event["kind"]
    event_deck = deck_from_toml({"game": "lod", "card": [as_event]})
    found = {(f.code, f.card) for f in check_deck(event_deck, "lod")}
    assert found == {("lod.nonplayer-ineffective", 201)}


def test_a_form_not_read_is_a_warning_and_an_error_when_strict() -> None:
    deck = deck_from_toml(without_expect(DECKS / "text_unread.toml"))
    (lenient,) = check_deck(deck, "lod")
    (strict,) = check_deck(deck, "lod", strict=True)
    assert (lenient.code, lenient.severity, lenient.card, lenient.side) == (
        "text.unread",
        "warning",
        23,
        "shaded",
    )
    assert (strict.code, strict.severity) == ("text.unread", "error")
    assert "whistle" in lenient.message and "is not read" in lenient.message
    assert CODES["text.unread"][0] == "warning"


def test_a_misspelt_name_stays_an_error_without_strict() -> None:
    deck = deck_from_toml(without_expect(DECKS / "text_unreadable.toml"))
    (found,) = check_deck(deck, "lod")
    assert (found.code, found.severity) == ("text.unreadable", "error")
    assert "did you mean 'Place'" in found.message


def test_the_cli_exits_0_on_a_consistent_deck_read_in_full(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "verify", str(TEXT_ONLY), "--json")
    assert code == 0 and json.loads(out)["findings"] == []


def test_the_cli_strict_flag_makes_a_form_not_read_an_error_in_sarif_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck = tmp_path / "unread.toml"
    text = (DECKS / "text_unread.toml").read_text("utf-8")
    deck.write_text("\n".join(line for line in text.splitlines() if not line.startswith("expect")))
    code, out = run(capsys, "verify", str(deck), "--format", "sarif")
    (result,) = json.loads(out)["runs"][0]["results"]
    assert code == 0 and (result["ruleId"], result["level"]) == ("text.unread", "warning")
    code, out = run(capsys, "verify", str(deck), "--format", "sarif", "--strict")
    (result,) = json.loads(out)["runs"][0]["results"]
    assert code == 1 and (result["ruleId"], result["level"]) == ("text.unread", "error")


def test_http_verify_reads_text_only_decks_and_takes_strict() -> None:
    unread = without_expect(DECKS / "text_unread.toml")
    with (
        running(Limits(time_limit=60.0)) as url,
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        clean = client.post("/v1/lod/verify-deck", json={"deck": without_expect(TEXT_ONLY)})
        lenient = client.post("/v1/lod/verify-deck", json={"deck": unread})
        strict = client.post("/v1/lod/verify-deck", json={"deck": unread, "strict": True})
    assert clean.status_code == 200 and clean.json()["ok"] and clean.json()["findings"] == []
    assert lenient.json()["ok"] is True
    assert [f["severity"] for f in lenient.json()["findings"]] == ["warning"]
    assert strict.json()["ok"] is False
    assert [(f["code"], f["severity"]) for f in strict.json()["findings"]] == [
        ("text.unread", "error")
    ]
