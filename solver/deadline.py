"""Time limits inside the searches: a deadline is a ``time.monotonic()`` value.

A caller with a time limit (the HTTP server, ``legalis moves --time-limit``) passes
``time.monotonic() + seconds``; each search checks it between units of work and gives
up with :class:`~legalis.model.errors.SolverLimitError`, so no work goes on after
the answer is abandoned.

>>> check_deadline(None, "counting")  # no limit
>>> check_deadline(0.0, "counting")
Traceback (most recent call last):
...
legalis.model.errors.SolverLimitError: counting: the time limit was reached
"""

from __future__ import annotations

import time

from legalis.model.errors import SolverLimitError


def check_deadline(deadline: float | None, what: str) -> None:
    """Raise :class:`SolverLimitError` naming ``what`` once ``deadline`` has passed."""
    if deadline is not None and time.monotonic() >= deadline:
        raise SolverLimitError(f"{what}: the time limit was reached")
