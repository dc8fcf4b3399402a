"""The browser table as the tests see it: a page object over Playwright's sync
API and a small client of the same server's HTTP API, to ask it what the page
should show.

The page reports no "busy" state of its own, so a script added before the page's
own counts its requests: the table is *settled* when none is under way (a
request counts until its answer is read, and a moment after, so that the next
request a chain of awaits makes is counted before the last one stops counting)
and no bot is playing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Download, FilePayload, Locator, Page, Request

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "Api", "Server", "Table", "body_of", "file_of", "words"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
WAIT_MS = 60_000  # the longest a page action or a settle may take (a loaded machine)

COUNT_REQUESTS = """
window.__pending = 0;
const __fetch = window.fetch.bind(window);
window.fetch = (...args) => {
  window.__pending += 1;
  let done = false;
  const finish = () => {
    if (!done) {
      done = true;
      setTimeout(() => { window.__pending -= 1; }, 0);
    }
  };
  return __fetch(...args).then(
    (response) => {
      const json = response.json.bind(response);
      response.json = () => json().finally(finish);
      return response;
    },
    (error) => { finish(); throw error; },
  );
};
"""
SETTLED = (
    "document.body.dataset.ready === 'true' && window.__pending === 0"
    " && document.getElementById('stop').disabled"
)
MOVE_COUNT = re.compile(r"\((\d+) at this decision")


def words(name: str) -> str:
    """A name as the page writes it in its sentences (``north_america`` ->
    ``north america``)."""
    return name.replace("_", " ")


def body_of(request: Request) -> dict[str, Any]:
    """The JSON body the page sent with ``request``."""
    body = request.post_data_json
    assert isinstance(body, dict), request.post_data
    return body


def file_of(name: str, text: str, kind: str) -> FilePayload:
    """A file to give a file input: ``name`` holding ``text`` of MIME type ``kind``."""
    return {"name": name, "mimeType": kind, "buffer": text.encode()}


@dataclass(frozen=True)
class Server:
    """A running ``legalis serve``: its base ``url`` and the file of its output."""

    url: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-20_000:]


class Api:
    """The server's HTTP API, asked directly (what the page should agree with)."""

    def __init__(self, url: str) -> None:
        self.client = httpx.Client(base_url=f"{url}/v1", timeout=120)

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *_: object) -> None:
        self.client.close()

    def games(self) -> list[dict[str, Any]]:
        answer = self.client.get("/games")
        assert answer.status_code == 200, answer.text
        games: list[dict[str, Any]] = answer.json()["games"]
        return games

    def game(self, name: str) -> dict[str, Any]:
        return next(game for game in self.games() if game["name"] == name)

    def post(self, path: str, body: dict[str, Any], status: int = 200) -> Any:
        answer = self.client.post(path, json=body)
        assert answer.status_code == status, (path, answer.status_code, answer.text[:2000])
        return answer.json()

    def count(self, game: str, state: dict[str, Any]) -> int:
        count: int = self.post(f"/{game}/moves", {"state": state, "limit": 0})["count"]
        return count


class Table:
    """The page at ``/`` in one browser tab, with the server it talks to."""

    def __init__(self, page: Page, server: Server, api: Api) -> None:
        self.page, self.server, self.api = page, server, api
        self.script_errors: list[str] = []
        page.on("pageerror", lambda error: self.script_errors.append(str(error)))
        page.add_init_script(COUNT_REQUESTS)
        page.set_default_timeout(WAIT_MS)

    # ------------------------------------------------------------ setting up

    def open(self, game: str | None = None) -> None:
        """Load the page (``/?game=`` preselecting ``game``) and wait for its game list."""
        query = f"?game={game}" if game else ""
        self.page.goto(f"{self.server.url}/{query}")
        self.page.wait_for_selector("body[data-ready=true]", state="attached")
        if game:
            assert self.page.input_value("#game") == game

    def seats(self) -> list[str]:
        return [
            str(select.get_attribute("data-seat"))
            for select in self.page.locator("#seats select").all()
        ]

    def seat(self, seat: str, kind: str) -> None:
        self.page.select_option(f"#seat-{seat}", kind)

    def every_seat(self, kind: str) -> None:
        for seat in self.seats():
            self.seat(seat, kind)

    def new_game(self, seed: int | None = None) -> dict[str, Any]:
        """Press New game (with ``seed``), wait until the table settles, and give
        the body the page sent to ``POST /v1/{game}/new``."""
        if seed is not None:
            self.page.fill("#seed", str(seed))
        game = self.page.input_value("#game")
        with self.page.expect_request(
            lambda request: request.method == "POST" and request.url.endswith(f"/v1/{game}/new")
        ) as sent:
            self.page.click("#new-game")
        self.settle()
        assert self.page.get_attribute("body", "data-game") == game
        return body_of(sent.value)

    def settle(self, timeout: float = WAIT_MS) -> None:
        """Wait until no request of the page is under way and no bot is playing."""
        self.page.wait_for_function(SETTLED, timeout=timeout, polling=50)

    # ------------------------------------------------------------ what it shows

    @property
    def to_move(self) -> str:
        return str(self.page.get_attribute("body", "data-to-move"))

    @property
    def over(self) -> bool:
        return self.page.get_attribute("body", "data-over") == "true"

    def status(self) -> str:
        return self.page.text_content("#status") or ""

    def move_count(self) -> int:
        shown = self.page.text_content("#move-count") or ""
        found = MOVE_COUNT.search(shown)
        assert found, f"no move count in {shown!r}"
        return int(found.group(1))

    def group_counts(self) -> dict[str, int]:
        counts = {}
        for header in self.page.locator("#groups > li > button.group").all():
            counted = header.locator("span.count").text_content() or ""
            assert counted.isdigit(), f"group {header.get_attribute('data-group')}: {counted!r}"
            counts[str(header.get_attribute("data-group"))] = int(counted)
        return counts

    def history(self) -> list[str]:
        return [item or "" for item in self.page.locator("#history li").all_text_contents()]

    def error(self) -> str | None:
        box = self.page.locator("#error")
        return None if box.is_hidden() else box.text_content()

    def pieces(self) -> Locator:
        return self.page.locator("#board svg g.piece")

    # ------------------------------------------------------------ moves

    def open_group(self, group: str | None = None) -> Locator:
        """Expand ``group`` (default: the last one) and give its list of moves once
        its first page is shown."""
        items = self.page.locator("#groups > li")
        item = (
            items.last
            if group is None
            else items.filter(
                has=self.page.locator(f"button.group[data-group={json.dumps(group)}]")
            )
        )
        header = item.locator("button.group")
        if header.get_attribute("aria-expanded") != "true":
            header.click()
        moves = item.locator("ol.moves")
        moves.locator("button.move").first.wait_for()
        self.settle()
        return moves

    def pick(self, move: Locator) -> Locator:
        """Click a listed move and give ``#chosen`` once its verdict is shown."""
        with self.page.expect_response(lambda answer: answer.url.endswith("/check")):
            move.click()
        self.settle()
        chosen = self.page.locator("#chosen")
        chosen.locator(".verdict").wait_for()
        return chosen

    def picked_move(self) -> dict[str, Any]:
        """The move the page put in the JSON box when it was picked."""
        move: dict[str, Any] = json.loads(self.page.input_value("#move-json"))
        return move

    # ------------------------------------------------------------ files

    def download(self, button: str) -> str:
        """Press the save button ``button`` and give the text of the file it saves."""
        with self.page.expect_download() as started:
            self.page.click(button)
        saved: Download = started.value
        return Path(saved.path()).read_text(encoding="utf-8")

    def saved_state(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(self.download("#save-state"))
        return state

    def load(self, name: str, text: str) -> None:
        """Give ``#load-file`` a file ``name`` holding ``text``; wait for the state
        the server reads from it."""
        with self.page.expect_response(
            lambda answer: answer.url.endswith(("/validate", "/replay"))
        ) as answered:
            self.page.set_input_files(
                "#load-file",
                files=[file_of(name, text, "application/json")],
            )
        assert answered.value.ok, answered.value.text()
        self.settle()


def history_line(by: str, description: str) -> str:
    """A move as the page's record lists it: the description, led by who moved
    unless it names them itself."""
    return description if description.startswith(f"{by}:") else f"{words(by)}: {description}"
