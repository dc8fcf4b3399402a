"""Answers that come back late, or out of order: the page must show what the
person asked for last, never an answer to a question the table has moved past.

The tests hold chosen requests in the browser (a slow network or a busy server
does the same) and let them through in the order that shows the fault.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Response, Route

from tests.browser.table import Table


def _hold(table: Table, pattern: str) -> list[Route]:
    """Hold the requests to ``pattern`` until released; the list fills as they are made."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    table.page.route(pattern, hold)
    return held


def _wait_held(table: Table, held: list[Route], count: int) -> None:
    """Wait until ``count`` requests are held (the browser's events are read meanwhile)."""
    for _ in range(1000):
        if len(held) >= count:
            return
        table.page.wait_for_timeout(20)
    raise AssertionError(f"{len(held)} requests held, not {count}")


def _release(table: Table, routes: list[Route]) -> None:
    """Let held requests through one at a time, each answer read before the next."""
    for route in routes:
        with table.page.expect_response(_answer_to(route)):
            route.continue_()


def _answer_to(route: Route) -> Callable[[Response], bool]:
    def answers(response: Response) -> bool:
        return response.request == route.request

    return answers


def test_the_move_list_follows_the_last_space_picked(table: Table) -> None:
    table.open("lod")
    table.every_seat("human")
    table.new_game(seed=5)
    held = _hold(table, "**/v1/lod/moves")
    spaces = table.page.locator("#board svg g.space[data-space]")
    first, last = spaces.nth(0), spaces.nth(1)
    first.click()
    last.click()
    _wait_held(table, held, 2)
    _release(table, held[::-1])  # the answer for the first space comes back last
    table.page.unroute("**/v1/lod/moves")
    table.settle()

    name = str(last.get_attribute("data-space"))
    assert table.page.input_value("#filter") == name
    headers = table.page.locator("#groups > li > button.group").all_text_contents()
    assert headers == [f"Moves mentioning “{name.lower()}”"]
    assert f"“{name.lower()}”" in (table.page.text_content("#filter-note") or "")


def test_a_bots_answer_after_new_game_does_not_change_the_new_game(table: Table) -> None:
    table.open("lod")
    table.every_seat("nonplayer")
    table.page.select_option("#scenario", "1778")
    table.new_game(seed=1)
    held = _hold(table, "**/v1/lod/bot-move")
    table.page.click("#bot-run")  # the bots play on: hold the first one's answer
    _wait_held(table, held, 1)

    table.page.select_option("#game", "sevenyears")
    table.page.click("#new-game")
    table.page.wait_for_selector("body[data-game=sevenyears]", state="attached")
    table.page.wait_for_function("window.__pending === 1")  # only the bot's move is left
    shown = (table.status(), table.to_move, table.history())
    assert shown[0].startswith("The Seven Years War.")

    _release(table, held)
    table.page.unroute("**/v1/lod/bot-move")
    table.settle()
    assert (table.status(), table.to_move, table.history()) == shown
    assert table.error() is None


def test_a_double_click_applies_the_move_and_leaves_no_stale_verdict(table: Table) -> None:
    table.open("lod")
    table.every_seat("human")
    table.new_game(seed=5)
    moves = table.open_group()
    held = _hold(table, "**/v1/lod/check")
    with table.page.expect_response(lambda answer: answer.url.endswith("/apply")):
        moves.locator("button.move").first.dblclick()
    _wait_held(table, held, 2)  # the two clicks' checks
    _release(table, held)
    table.page.unroute("**/v1/lod/check")
    table.settle()

    assert len(table.history()) == 1
    # The verdict of a move of the state before is no verdict on the state shown.
    assert table.page.locator("#chosen .verdict").count() == 0
    assert table.page.locator("#apply-picked").count() == 0
