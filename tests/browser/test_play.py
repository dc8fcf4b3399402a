"""The Play tab of the browser table, driven in Chromium: a new game of every
game, the move list and its verdicts, a move typed as JSON, a bot's move and
Undo, the keys, and the hands a person may see. What the page shows is compared
with what the server's API answers for the same request."""

from __future__ import annotations

import json
from typing import Any

import pytest

import legalis
from tests.browser.table import Api, Table, body_of, history_line, words

SEED = 5
GAMES = legalis.games()


def _as_js(value: Any) -> str:
    """``value`` as the page's ``JSON.stringify`` writes it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _state(api: Api, game: str, sent: dict[str, Any]) -> dict[str, Any]:
    """What ``POST /v1/{game}/new`` answers for the body the page sent."""
    answer: dict[str, Any] = api.post(f"/{game}/new", sent)
    return answer


def test_the_page_offers_every_game_the_server_serves(table: Table, api: Api) -> None:
    table.open()
    served = api.games()
    assert sorted(GAMES) == sorted(game["name"] for game in served)
    offered = table.page.locator("#game option").evaluate_all("os => os.map(o => o.value)")
    assert offered == sorted(game["name"] for game in served)
    checkable = table.page.locator("#verify-game option").evaluate_all("os => os.map(o => o.value)")
    assert checkable == sorted(game["name"] for game in served if "verify" in game["supports"])


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_shows_its_board_and_the_servers_moves(
    table: Table, api: Api, game: str
) -> None:
    table.open(game)
    info = api.game(game)
    assert table.seats() == info["players"]
    for seat in info["players"]:
        kinds = table.page.locator(f"#seat-{seat} option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        assert kinds == info["seat_kinds"]
    table.every_seat("human")  # no bot moves: the page shows the first decision
    sent = table.new_game(seed=SEED)
    assert sent["seed"] == SEED
    start = _state(api, game, sent)
    listed = api.post(f"/{game}/moves", {"state": start["state"], "limit": 0, "groups": True})

    assert table.to_move == start["to_move"] and not table.over
    assert table.move_count() == listed["count"] > 0
    counts = table.group_counts()
    assert list(counts) == [group["group"] for group in listed["groups"]]
    assert sum(counts.values()) == listed["count"]
    assert info["title"] in table.status()
    assert f"Your move, {words(start['to_move'])}." in table.status()

    board = api.post(f"/{game}/board", {"state": start["state"], "viewer": start["to_move"]})
    spaces = table.page.locator("#board svg g.space[data-space]")
    assert spaces.count() == len(board["places"]) > 0
    for space in spaces.all()[:5]:
        assert space.get_attribute("tabindex") == "0" and space.get_attribute("role") == "button"
        assert space.get_attribute("aria-label")
    assert table.page.text_content("#words") == "\n".join(board["words"])
    assert table.page.get_attribute("#board", "data-drawn")


@pytest.mark.parametrize("game", GAMES)
def test_a_listed_move_is_judged_legal_and_applied(table: Table, api: Api, game: str) -> None:
    table.open(game)
    table.every_seat("human")
    sent = table.new_game(seed=SEED)
    start = _state(api, game, sent)

    moves = table.open_group()
    chosen = table.pick(moves.locator("button.move").first)
    move = table.picked_move()
    verdict = api.post(f"/{game}/check", {"state": start["state"], "move": move})
    assert verdict["legal"]
    assert chosen.get_attribute("data-legal") == "true"
    assert chosen.locator(".verdict .legal").is_visible()
    reason = chosen.locator(".verdict .reason").text_content() or ""
    assert verdict["reason"] and reason.startswith(verdict["reason"])
    if verdict["rule"]:
        assert reason.endswith(f"(rule {verdict['rule']})")
    assert moves.locator("button.move[aria-pressed=true]").count() == 1

    expected = api.post(f"/{game}/apply", {"state": start["state"], "move": move})
    with table.page.expect_response(lambda answer: answer.url.endswith("/apply")):
        table.page.click("#apply-picked")
    table.settle()
    made = table.history()
    assert made and made[0] == history_line(start["to_move"], expected["description"])
    # Chance moves after it are the page's to draw (by its seed, as the API does it).
    for index in range(1, len(made)):
        assert expected["to_move"] == "chance", made
        expected = api.post(
            f"/{game}/bot-move",
            {"state": expected["state"], "seat": "random", "seed": SEED * 100003 + index},
        )
        assert made[index] == f"chance: {expected['description']}"
    assert table.to_move == expected["to_move"] != "chance"
    assert table.over == expected["is_over"]
    if not expected["is_over"]:
        assert table.move_count() == api.count(game, expected["state"])
        assert f"Your move, {words(expected['to_move'])}." in table.status()


def _a_move_of_another_seat(api: Api, game: str, start: dict[str, Any]) -> dict[str, Any]:
    """A legal move of the next seat to decide after ``start``'s (the first moves
    played until another seat than ``start``'s is to move)."""
    now = start
    for _ in range(20):
        now = api.post(
            f"/{game}/apply",
            {"state": now["state"], "move": api.post(
                f"/{game}/moves", {"state": now["state"], "limit": 1})["moves"][0]["move"]},
        )  # fmt: skip
        if now["to_move"] not in (start["to_move"], "chance") and not now["is_over"]:
            move: dict[str, Any] = api.post(f"/{game}/moves", {"state": now["state"], "limit": 1})[
                "moves"
            ][0]["move"]
            return move
    raise AssertionError("no other seat came to move")


def test_a_move_of_another_seat_typed_as_json_is_refused_with_its_rule(
    table: Table, api: Api
) -> None:
    table.open("lod")
    table.every_seat("human")
    sent = table.new_game(seed=SEED)
    start = _state(api, "lod", sent)
    move = _a_move_of_another_seat(api, "lod", start)
    verdict = api.post("/lod/check", {"state": start["state"], "move": move})
    assert not verdict["legal"] and verdict["rule"]

    table.page.click("#own-move summary")
    table.page.fill("#move-json", json.dumps(move))
    with table.page.expect_response(lambda answer: answer.url.endswith("/check")):
        table.page.click("#check-move")
    table.settle()
    chosen = table.page.locator("#chosen")
    assert chosen.get_attribute("data-legal") == "false"
    assert chosen.locator(".verdict .refused").is_visible()
    shown = chosen.locator(".verdict .reason").text_content() or ""
    assert shown == f"{verdict['reason']} (rule {verdict['rule']})"
    assert table.page.locator("#apply-picked").count() == 0

    # Applied all the same: the server refuses it and the page says why.
    table.page.click("#apply-move")
    table.settle()
    error = table.error()
    assert error and f"rule {verdict['rule']}" in error
    assert table.history() == [] and table.to_move == start["to_move"]

    table.page.fill("#move-json", "{not json")
    table.page.click("#check-move")
    assert (table.error() or "").startswith("not JSON")


def test_a_bot_moves_and_undo_goes_back(table: Table, api: Api) -> None:
    table.open("lod")
    table.every_seat("human")
    table.new_game(seed=SEED)
    before = (table.move_count(), table.to_move, table.page.text_content("#words"))
    drawn = table.page.get_attribute("#board", "data-drawn")

    with table.page.expect_request(lambda request: request.url.endswith("/bot-move")) as asked:
        table.page.click("#bot-step")
    table.settle()
    answer = api.post("/lod/bot-move", body_of(asked.value))  # the same request
    assert table.history() == [history_line(answer["by"], answer["description"])]
    assert table.to_move == answer["to_move"]
    if not answer["is_over"]:
        assert table.move_count() == api.count("lod", answer["state"])
    assert table.page.get_attribute("#board", "data-drawn") != drawn
    assert table.page.is_enabled("#undo")

    table.page.click("#undo")
    table.settle()
    assert table.history() == []
    assert (table.move_count(), table.to_move, table.page.text_content("#words")) == before
    assert table.page.is_disabled("#undo")


def test_the_table_is_played_from_the_keyboard(table: Table, api: Api) -> None:
    table.open("lod")  # the seats as the page sets them: a person and the Non-players
    page = table.page
    for _ in range(40):  # Tab through the set-up to New game
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "new-game":
            break
    assert page.evaluate("document.activeElement.id") == "new-game"

    with page.expect_request(lambda request: request.url.endswith("/lod/new")):
        page.keyboard.press("n")
    table.settle()
    assert table.page.get_attribute("body", "data-game") == "lod"
    count, to_move, made = table.move_count(), table.to_move, table.history()
    assert table.status().endswith(f"Your move, {words(to_move)}.")
    assert table.page.input_value(f"#seat-{to_move}") == "human"

    for _ in range(80):  # Tab on to a space of the board
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('space')"):
            break
    space = page.evaluate("document.activeElement.dataset.space")
    assert space, "no space of the board took the focus"
    with page.expect_response(lambda answer: answer.url.endswith("/moves")):
        page.keyboard.press("Enter")
    table.settle()
    assert page.input_value("#filter") == space
    assert page.locator(f"g.space.picked[data-space={json.dumps(space)}]").count() == 1
    assert (page.text_content("#place") or "").startswith(space)
    assert table.status().endswith(f"Your move, {words(to_move)}.")
    # The filter is the page's: among the first 400 moves of each group, those whose
    # description, group or JSON name the space.
    state = table.saved_state()
    groups = api.post("/lod/moves", {"state": state, "groups": True, "limit": 0})["groups"]
    listed = []
    for group in groups:
        for offset in range(group["offset"], group["offset"] + min(group["count"], 400), 100):
            last = min(group["offset"] + min(group["count"], 400), offset + 100)
            page_of = {"state": state, "offset": offset, "limit": last - offset}
            listed += api.post("/lod/moves", page_of)["moves"]
    needle = space.lower()
    expected = [
        entry["description"]
        for entry in listed
        if needle in f"{entry['description']} {entry['group']} {_as_js(entry['move'])}".lower()
    ]
    shown = page.locator("#groups ol.moves button.move").all_text_contents()
    assert shown == expected
    assert page.text_content("#filter-note") == f"{len(expected)} moves mention “{needle}”."

    page.locator("#words").focus()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "filter"
    page.keyboard.press("Tab")  # out of the field again
    page.keyboard.press("?")
    assert page.evaluate("document.activeElement.id") == "words"

    with page.expect_response(lambda answer: answer.url.endswith("/bot-move")):
        page.keyboard.press("b")
    table.settle()
    assert len(table.history()) == len(made) + 1
    assert table.history()[-1].startswith(f"{words(to_move)}: ")
    page.keyboard.press("u")
    table.settle()
    assert (table.move_count(), table.to_move, table.history()) == (count, to_move, made)

    page.keyboard.press("p")  # bots play every seat on, until s stops them
    page.wait_for_function(f"document.querySelectorAll('#history li').length > {len(made)}")
    assert page.is_enabled("#stop") and page.is_disabled("#bot-run")
    page.keyboard.press("s")
    table.settle()
    assert len(table.history()) > len(made)
    assert page.is_disabled("#stop") and (table.over or page.is_enabled("#bot-run"))


def test_the_seven_years_war_shows_only_the_persons_hand(table: Table) -> None:
    table.open("sevenyears")
    assert table.page.input_value("#seat-british") == "human"
    assert table.page.input_value("#seat-french") != "human"
    table.new_game(seed=SEED)
    hand = table.saved_state()["hands"]
    shown = table.page.locator("#board svg g.card[data-faction=british]")
    assert sorted(shown.evaluate_all("cards => cards.map(card => card.dataset.card)")) == sorted(
        hand["british"]
    )
    assert table.page.locator("#board svg g.card[data-faction=french]").count() == 0
    assert len(hand["french"]) > 0
