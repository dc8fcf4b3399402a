"""Fixtures of the browser suite: one ``legalis serve`` process per test session
(per xdist worker), one headless Chromium per test module, a fresh browser context
per test.

The server runs as a subprocess on a port the system picks, so parallel workers
never collide; its output goes to a file that is attached to the report of every
failing test. Chromium is the system's own (``/usr/bin/chromium``): the suite never
downloads a browser.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.browser.table import CHROMIUM, CHROMIUM_ARGS, Api, Server, Table
from tests.processes import stop

STARTUP_SECONDS = 60.0
# A request may take longer than the server's default 10 s when both workers of a
# parallel run and their browsers share two cores.
SERVER_ARGS = ("--time-limit", "60")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/v1/games", timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def _start(log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a free port, once ``GET /v1/games`` answers. The port is free
    when picked but may be taken before the server binds it: then try another."""
    for _ in range(3):
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        with log.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "legalis", "serve", "--port", str(port), *SERVER_ARGS],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            if _answers(url):
                return process, url
            time.sleep(0.2)
        if process.poll() is None:
            stop(process)
            break
        if b"in use" not in log.read_bytes():
            break
    pytest.fail(f"legalis serve did not start; its output:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """``legalis serve`` on a free port of 127.0.0.1, stopped when the session ends."""
    with tempfile.TemporaryDirectory(prefix="legalis-serve-") as folder:
        log = Path(folder) / "serve.log"
        process, url = _start(log)
        try:
            yield Server(url, log)
        finally:
            stop(process)


@pytest.fixture(scope="session")
def api(server: Server) -> Iterator[Api]:
    with Api(server.url) as client:
        yield client


# Playwright's synchronous driver keeps an asyncio loop running in the thread while
# it is open, and the other suites' async tests start loops of their own: the driver
# and its browser are closed before the next module's tests (a worker runs tests of
# several modules).
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
    try:
        yield launched
    finally:
        launched.close()


def _table(browser: Browser, server: Server, api: Api, **context: Any) -> Iterator[Table]:
    opened = browser.new_context(accept_downloads=True, **context)
    try:
        table = Table(opened.new_page(), server, api)
        yield table
        assert not table.script_errors, f"the page raised: {table.script_errors}"
    finally:
        opened.close()


@pytest.fixture
def table(browser: Browser, server: Server, api: Api) -> Iterator[Table]:
    """The table page in a fresh browser context (no state shared between tests)."""
    yield from _table(browser, server, api, viewport={"width": 1400, "height": 900})


@pytest.fixture
def sharp_table(browser: Browser, server: Server, api: Api) -> Iterator[Table]:
    """The table drawn at twice the pixel density, for screenshots read pixel by pixel."""
    yield from _table(
        browser, server, api, viewport={"width": 1600, "height": 1000}, device_scale_factor=2
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """A failing test's report ends with what the server wrote."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    served = getattr(item, "funcargs", {}).get("server")
    if report.failed and isinstance(served, Server):
        report.sections.append(("legalis serve output", served.output()))
