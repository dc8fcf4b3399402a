"""The Check-a-deck tab of the browser table: a LoD deck with one planted defect,
pasted and uploaded, shows the finding the server reports and draws its witness;
text that is not TOML is an error that names the field ``text``."""

from __future__ import annotations

from pathlib import Path

from tests.browser.table import Api, Table, file_of

PLANTED = Path(__file__).parents[1] / "verify" / "decks" / "lod_french_before_toa.toml"
CODE = "lod.french-before-toa"


def _planted_deck() -> str:
    """The deck file without its ``expect`` line (what a test of the verifier reads)."""
    lines = PLANTED.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("expect")) + "\n"


def _check(table: Table) -> None:
    with table.page.expect_response(lambda answer: answer.url.endswith("/lod/verify")):
        table.page.click("#verify")
    table.settle()


def _shows_the_planted_finding(table: Table, api: Api, deck: str) -> None:
    report = api.post("/lod/verify", {"text": deck})
    page = table.page
    findings = page.locator("#findings section.card-findings li.finding")
    assert findings.count() == len(report["findings"])
    codes = findings.evaluate_all("items => items.map(item => item.dataset.code)")
    assert codes == [finding["code"] for finding in report["findings"]]
    errors = sum(finding["severity"] == "error" for finding in report["findings"])
    assert page.text_content("#verify-status") == (
        f"{len(report['findings'])} findings ({errors} errors, "
        f"{len(report['findings']) - errors} others): "
        f"{'no error' if report['ok'] else 'errors found'}."
    )

    planted = page.locator(f'li.finding[data-code="{CODE}"]')
    assert planted.count() == 1
    with page.expect_response(lambda answer: answer.url.endswith("/lod/board")):
        planted.locator("button.witness").click()
    table.settle()
    witness = page.locator("#witness svg")
    assert witness.count() == 1
    finding = next(finding for finding in report["findings"] if finding["code"] == CODE)
    caption = f"Witness of {CODE}: {finding['subject']}"
    drawn = api.post("/lod/board", {"witness": finding["witness"], "caption": caption})
    pieces = witness.locator("g.piece")
    assert pieces.count() == drawn["svg"].count('class="piece"') > 0
    assert witness.locator("g.space[data-space]").count() == len(drawn["places"])
    assert page.text_content("#verify-status") == caption


def test_a_pasted_deck_shows_its_planted_finding_and_witness(table: Table, api: Api) -> None:
    table.open()
    table.page.click("#tab-verify")
    assert table.page.is_visible("#verify-panel") and table.page.is_hidden("#play-panel")
    table.page.select_option("#verify-game", "lod")
    deck = _planted_deck()
    table.page.fill("#deck-text", deck)
    _check(table)
    _shows_the_planted_finding(table, api, deck)


def test_an_uploaded_deck_is_checked_as_the_pasted_one(table: Table, api: Api) -> None:
    table.open()
    table.page.click("#tab-verify")
    table.page.select_option("#verify-game", "lod")
    deck = _planted_deck()
    table.page.set_input_files("#deck-file", files=[file_of("planted.toml", deck, "text/plain")])
    table.page.wait_for_function("document.getElementById('deck-text').value.length > 0")
    assert table.page.input_value("#deck-text") == deck
    _check(table)
    _shows_the_planted_finding(table, api, deck)


def test_text_that_is_not_toml_is_an_error_at_text(table: Table) -> None:
    table.open()
    table.page.click("#tab-verify")
    table.page.select_option("#verify-game", "lod")
    table.page.fill("#deck-text", "[[card]\nnumber = ")
    _check(table)
    error = table.error()
    assert error is not None and error.startswith("not TOML")
    assert " · at text" in error
    assert table.page.get_attribute("#error", "role") == "alert"
    assert table.page.text_content("#verify-status") == (
        "The deck could not be read: see the error above."
    )
    assert table.page.locator("#findings li.finding").count() == 0
