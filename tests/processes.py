"""Helpers for tests that start programs of their own (servers)."""

from __future__ import annotations

import subprocess
from typing import Any


def stop(process: subprocess.Popen[Any], wait: float = 15.0) -> None:
    """Ask ``process`` to end (SIGTERM), and kill it if it has not within ``wait`` s."""
    process.terminate()
    try:
        process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
