"""The exception hierarchy of legalis.

Every error legalis raises on purpose is a :class:`LegalisError`. The CLI maps the
three families to exit codes: input errors and illegal moves exit 2, solver limits
exit 3 only when they are not caught and reported.

>>> try:
...     raise InputError("no such game", path="game", allowed=["sevenyears"])
... except LegalisError as err:
...     print(err)
game: no such game (allowed: sevenyears)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

# Control characters and lone surrogates, written as escapes: a message is one
# printable line whatever bytes a user's file or argument holds.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")


def clip(text: str, limit: int = 80) -> str:
    """``text`` cut to at most ``limit`` characters, to echo a value a user gave in
    a message (:class:`InputError` also writes control characters as escapes).

    >>> clip("x" * 100, 10), clip("short")
    ('xxxxxxxxx…', 'short')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _one_line(text: str, limit: int) -> str:
    r"""``text`` as one printable line of at most ``limit`` characters.

    >>> _one_line("line\nbreak", 80)
    'line\\nbreak'
    """
    return clip(_UNPRINTABLE.sub(_escape, text), limit)


def _escape(found: re.Match[str]) -> str:
    return repr(found.group())[1:-1]


class LegalisError(Exception):
    """Base of every error legalis raises on purpose."""


class InputError(LegalisError):
    """Bad input: a file that cannot be read, an unknown name, a number out of range.

    ``source`` names the file, ``path`` the field inside it (``hands.british[3]``),
    ``allowed`` the values that would have been accepted.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        path: str | None = None,
        allowed: Iterable[object] | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.path = path
        self.allowed = [str(value) for value in allowed] if allowed is not None else None
        super().__init__(self._render())

    def _render(self) -> str:
        # every part may hold what a user typed: each is bounded
        where = ":".join(_one_line(part, 160) for part in (self.source, self.path) if part)
        message = _one_line(self.message, 300)
        text = f"{where}: {message}" if where else message
        if self.allowed is not None:
            shown = ", ".join(_one_line(value, 80) for value in self.allowed[:12])
            more = f", ... ({len(self.allowed)} in all)" if len(self.allowed) > 12 else ""
            text += f" (allowed: {shown}{more})"
        return text


@contextmanager
def reading(source: str | None) -> Iterator[None]:
    """Within it, an :class:`InputError` that names no file names ``source``.

    >>> try:
    ...     with reading("s.json"):
    ...         raise InputError("bad value", path="state.turn")
    ... except InputError as error:
    ...     print(error)
    s.json:state.turn: bad value
    """
    try:
        yield
    except InputError as error:
        if source is None or error.source is not None:
            raise
        raise InputError(error.message, source=source, path=error.path,
                         allowed=error.allowed) from error  # fmt: skip


class IllegalMoveError(LegalisError):
    """A move that the rules refuse; ``rule`` names the rule that refuses it."""

    def __init__(self, reason: str, *, rule: str) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"illegal move: {_one_line(reason, 300)} [{rule}]")


class SolverLimitError(LegalisError):
    """A solver gave up: a time-out, or a listing too large to produce."""
