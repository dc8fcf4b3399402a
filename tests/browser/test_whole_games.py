"""Whole games in the browser table: Liberty or Death with the rules playing every
seat (section 8), and The Seven Years War with a person playing one side through
the page against a bot. Each ends with its result on the page, and the log the
page saves replays, on the server, to the same end."""

from __future__ import annotations

import json
import random

from tests.browser.table import Api, Table, body_of, words

# A 1778 game the Non-players finish in about 240 moves; before the Command a Special
# Activity declared was listed within its spaces, the server's Non-player found no
# move at its 198th (an answer 500): test_regressions.py holds that state.
LOD_SEED = 1
WHOLE_GAME_MS = 240_000


def _result_words(result: dict[str, object]) -> str:
    winner = f"{words(str(result['winner']))} win" if result["winner"] else "no one wins"
    return f"Result: {winner} ({words(str(result['condition']))})."


def test_a_lod_game_of_non_players_is_played_to_its_end(table: Table, api: Api) -> None:
    table.open("lod")
    table.every_seat("nonplayer")
    table.page.select_option("#scenario", "1778")
    table.page.fill("#seed", str(LOD_SEED))
    with table.page.expect_request(lambda request: request.url.endswith("/lod/new")) as sent:
        table.page.click("#new-game")
    options = body_of(sent.value)["options"]
    assert options["scenario"] == "1778"
    assert sorted(options["nonplayers"]) == sorted(table.seats())
    # With no person seated the bots wait for a button: one step, then play on.
    table.settle()
    assert table.history() == [] and table.page.is_enabled("#bot-run")
    table.page.click("#bot-step")
    table.page.wait_for_selector("#history li", state="attached")
    table.settle()
    stopped_at = len(table.history())
    assert stopped_at == 1

    table.page.click("#bot-run")
    table.page.wait_for_selector("body[data-over=true]", state="attached", timeout=WHOLE_GAME_MS)
    table.settle()
    assert len(table.history()) > stopped_at
    assert table.error() is None
    assert table.page.is_disabled("#bot-run") and table.page.is_disabled("#bot-step")
    assert table.page.text_content("#move-count") == "(none: the game is over)"

    log = table.download("#save-log")
    final = table.saved_state()
    lines = [json.loads(line) for line in log.splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "result"
    replayed = api.post("/lod/replay", {"log": log})
    assert replayed["is_over"] and replayed["matches_log"] is True
    assert replayed["state"] == final
    assert replayed["result"] == lines[-1]["result"]
    assert table.status().endswith(_result_words(replayed["result"]))


def test_a_person_plays_the_seven_years_war_against_a_bot(table: Table, api: Api) -> None:
    table.open("sevenyears")
    table.seat("british", "human")
    table.seat("french", "random")
    table.new_game(seed=3)
    choose = random.Random(11)
    page = table.page
    played = 0
    while not table.over:
        assert table.to_move == "british", table.status()
        assert table.status().endswith("Your move, british.")
        headers = page.locator("#groups > li > button.group")
        group = headers.nth(choose.randrange(headers.count())).get_attribute("data-group")
        moves = table.open_group(group).locator("button.move")
        chosen = table.pick(moves.nth(choose.randrange(moves.count())))
        assert chosen.get_attribute("data-legal") == "true"
        before = len(table.history())
        with page.expect_response(lambda answer: answer.url.endswith("/apply")):
            page.click("#apply-picked")
        table.settle()
        assert len(table.history()) > before
        played += 1
        assert played < 300, "the game did not end"

    result = page.text_content("#status") or ""
    assert "The game is over." in result
    log = table.download("#save-log")
    replayed = api.post("/sevenyears/replay", {"log": log})
    assert replayed["is_over"] and replayed["matches_log"] is True
    assert replayed["state"] == table.saved_state()
    assert result.endswith(_result_words(replayed["result"]))
    by = [entry.split(":", 1)[0] for entry in table.history()]
    assert by.count("british") == played and "french" in by
