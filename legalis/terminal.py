"""What every command of the command line shares: the consoles, exit codes, JSON
output, files written whole, option pairs, progress bars and Ctrl-C.

>>> plural(3, "game")
'3 games'
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Column

from legalis.model.core.documents import parse_json, read_document
from legalis.model.errors import InputError, clip

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # the shells' code for a command ended by Ctrl-C (128 + SIGINT)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A rule option as name=value; repeatable. See 'legalis games' and "
        "docs/rules-questions.md.",
    ),
]
DEFAULT_SEED = 1  # every command's --seed, unless given
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Seed of the random source (chance and players).")
]


def finish(code: int) -> None:
    if code != EXIT_OK:
        raise typer.Exit(code)


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2) + "\n")


def emit_json_listing(
    head: dict[str, Any], key: str, items: Iterable[Any], tail: dict[str, Any]
) -> None:
    """Print ``{**head, key: [*items], **tail}`` as :func:`emit_json` would, writing
    each item as it comes, so a long listing is never held whole.

    >>> emit_json_listing({"count": 2}, "moves", iter([{"a": 1}, 2]), {"truncated": False})
    {
      "count": 2,
      "moves": [
        {
          "a": 1
        },
        2
      ],
      "truncated": false
    }
    """
    write = sys.stdout.write
    opening = json.dumps({**head, key: []}, indent=2)
    write(opening.removesuffix("[]\n}") + "[")
    written = 0
    for item in items:
        write(",\n    " if written else "\n    ")
        write(json.dumps(item, indent=2).replace("\n", "\n    "))
        written += 1
    write("\n  ]" if written else "]")
    for name, value in tail.items():
        write(f",\n  {json.dumps(name)}: " + json.dumps(value, indent=2).replace("\n", "\n  "))
    write("\n}\n")


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless there is exactly one.

    >>> plural(1, "legal move"), plural(2, "legal move")
    ('1 legal move', '2 legal moves')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def check_writable(path: Path, option: str) -> None:
    """Refuse, before any work is done, an output path that cannot be written: its
    folder is missing or not writable, or the path is a folder.

    >>> try:
    ...     check_writable(Path("/no/such/folder/out.json"), "--out")
    ... except InputError as error:
    ...     print(error)
    --out: cannot write /no/such/folder/out.json: no folder /no/such/folder
    """
    folder = path.parent
    if path.is_dir():
        raise InputError(f"cannot write {path}: it is a folder", path=option)
    if not folder.is_dir():
        raise InputError(f"cannot write {path}: no folder {folder}", path=option)
    writable = os.access(path if path.exists() else folder, os.W_OK)
    if not writable or not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {path}: permission denied", path=option)


def check_writable_folder(folder: Path, option: str) -> None:
    """Refuse a folder to write files into that is a file, or that cannot be made."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        which = "it" if existing == folder else str(existing)
        raise InputError(f"cannot write into {folder}: {which} is a file", path=option)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"cannot write into {folder}: permission denied", path=option)


def write_file(path: Path, text: str, option: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it,
    then renamed over it, so a failure never leaves half a file or a damaged input.
    Every command that writes a file writes it here. A device or a pipe (``/dev/null``,
    ``/dev/stdout``) is written to as it is; a link, through to the file it names."""
    temporary: Path | None = None
    try:
        if path.exists() and not path.is_file():
            with path.open("w", encoding="utf-8") as stream:
                stream.write(text)
            return
        target = path.resolve() if path.is_symlink() else path
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        ) as handle:
            temporary = Path(handle.name)
            handle.write(text)
        temporary.chmod(target.stat().st_mode & 0o7777 if target.exists() else new_file_mode())
        os.replace(temporary, target)
    except BaseException as error:  # an interrupted write leaves no temporary file either
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        if not isinstance(error, OSError):
            raise
        raise InputError(f"cannot write {path}: {error.strerror}", path=option) from error


def new_file_mode() -> int:
    """The mode an ordinary new file gets: read-write for all, less the umask (the
    temporary file is made private)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def option_values(option_pairs: list[str] | None) -> dict[str, Any]:
    """The ``--option name=value`` pairs as a mapping; ``true``/``false`` as booleans."""
    options: dict[str, Any] = {}
    for pair in option_pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InputError(f"expected name=value, got {pair!r}", path="--option")
        options[key.strip()] = {"true": True, "false": False}.get(
            value.strip().lower(), value.strip()
        )
    return options


def read_json(path: Path) -> Any:
    return read_document(path, "json")


def named_move(parse: Callable[[], Any], option: str) -> Any:
    """The move ``parse`` reads, its errors naming the option that gave it."""
    try:
        return parse()
    except InputError as error:
        where = ".".join(part for part in (option, error.path) if part)
        raise InputError(error.message, path=where, allowed=error.allowed) from error


def parse_move_text(game: Any, text: str, option: str) -> Any:
    """The move given as JSON to ``option`` (--move, --check)."""
    raw = parse_json(text, path=option)
    return named_move(lambda: game.move_from_json(raw), option)


def for_option(work: Callable[[], Any], option: str) -> Any:
    """What ``work`` returns for the value of ``option``; its input errors name the option."""
    try:
        return work()
    except InputError as error:
        raise InputError(error.message, path=option, allowed=error.allowed) from error


@contextmanager
def progress(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when it is a terminal; ``advance(n)`` moves it."""
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not enabled or not err.is_terminal,
    )
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


@contextmanager
def interruptible() -> Iterator[Callable[[], bool]]:
    """Within it, a first Ctrl-C asks the work to stop at its next check of ``stop()``
    (a second one interrupts at once). Where Ctrl-C is ignored, or off the main
    thread (where signals cannot be handled), nothing changes."""
    asked: list[bool] = []

    def on_interrupt(signum: int, frame: object) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)

    main_thread = threading.current_thread() is threading.main_thread()
    if not main_thread or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield lambda: bool(asked)
    finally:
        signal.signal(signal.SIGINT, previous)


def internal_error() -> int:
    with tempfile.NamedTemporaryFile(
        "w", prefix="legalis-error-", suffix=".log", delete=False
    ) as handle:
        traceback.print_exc(file=handle)
    error = clip(repr(sys.exc_info()[1]), 300)
    err.print(f"internal error: {error}; traceback written to {handle.name}", markup=False)
    return EXIT_INTERNAL


def code_column(findings: list[Any]) -> Column:
    """The column of finding codes, never cut: `legalis explain` needs them whole."""
    codes = [f["code"] if isinstance(f, dict) else f.code for f in findings]
    return Column("code", no_wrap=True, min_width=max(map(len, codes), default=4))


def show_moves(
    view: Any,
    header: str,
    *,
    check: str | None,
    count: bool,
    offset: int,
    limit: int,
    as_json: bool,
    describe: Callable[[Any], str],
    parse: Callable[[str], Any],
    to_json: Callable[[Any], Any],
    group: Callable[[Any], str] | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Print a page of the moves of a view (``offset`` on, at most ``limit``), their
    count, or the verdict on one move (exit 1 if it is illegal). In JSON each move is
    ``{"move", "description", "group"}`` as the HTTP API gives it."""
    if check is not None:
        move = parse(check)
        verdict = view.verdict(move)
        answer = {"move": to_json(move), "description": describe(move), "legal": verdict.legal,
                  "reason": verdict.reason, "rule": verdict.rule}  # fmt: skip
        if as_json:
            emit_json(answer)
        else:
            word = "legal" if verdict.legal else "illegal"
            out.print(f"{word}: {describe(move)}: {verdict.reason} [{verdict.rule}]", markup=False)
        finish(EXIT_OK if verdict.legal else EXIT_FINDINGS)
        return
    total = view.count()
    shown = 0 if count else max(0, min(limit, total - offset))
    page = (view.nth(offset + index) for index in range(shown))
    if offset == 0:
        page = (move for _, move in zip(range(shown), view, strict=False))  # as generated
    if as_json:
        entries = (
            {"move": to_json(move), "description": describe(move),
             **({"group": group(move)} if group else {})}
            for move in page
        )  # fmt: skip
        head = {**(extra or {}), "count": total, "offset": offset, "limit": limit}
        emit_json_listing(head, "moves", entries, {"truncated": offset + shown < total})
        return
    out.print(f"{plural(total, 'legal move')} for {header}")
    heading = None
    for index, move in enumerate(page, start=offset):
        if group is not None and group(move) != heading:
            heading = group(move)
            out.print(f"  {heading}", markup=False)
        out.print(f"  {index:>4}. {describe(move)}", markup=False)
    if not count and offset + shown < total:
        out.print(f"  ... {total - offset - shown} more (--offset {offset + shown})")
