"""Reading the JSON and TOML documents a user hands in.

Every state, deck, card list, catalogue or log file is read by :func:`read_document`
and every JSON text a user types by :func:`parse_json`: a file that is binary, not
UTF-8, too large or nested too deeply is one :class:`InputError` naming the file,
never a crash or a page of raw bytes.
"""

from __future__ import annotations

import importlib
import json
import tomllib
from pathlib import Path
from typing import Any, Literal

from legalis.model.errors import InputError

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_NESTING",
    "SCHEMA_DIALECT",
    "drop_default",
    "package_folder",
    "parse_json",
    "parse_toml",
    "prose_description",
    "read_document",
]

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
"""The largest document file read: hundreds of times the largest bundled one."""

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every schema legalis publishes (``$schema``)."""

MAX_NESTING = 64
"""The deepest nesting of arrays and objects (tables) in a document; the bundled
documents nest 14 levels at most (a deck's effects)."""


def package_folder(package: str) -> Path:
    """The folder of one of this project's packages, where its data files lie.

    The project installs as plain folders, so its data files are read from disk;
    ``importlib.resources``, which would also read them from a zip archive, imports
    zipfile, tempfile and shutil (about 2 MiB) on the way.

    >>> (package_folder("legalis.model.lod") / "game.toml").is_file()
    True
    """
    return Path(str(importlib.import_module(package).__file__)).parent


def read_document(path: str | Path, kind: Literal["json", "toml", "text"]) -> Any:
    """The parsed JSON or TOML file at ``path`` (or its checked text, for a format
    read line by line); any fault is an :class:`InputError` naming the file:
    unreadable, larger than :data:`MAX_DOCUMENT_BYTES`, not UTF-8 text, holding a
    NUL byte (binary), not valid, or nested too deeply.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
    ...     _ = handle.write(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]))
    >>> read_document(handle.name, "json")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: ...: not UTF-8 text (byte 0x89 at offset 0): a binary file?
    >>> Path(handle.name).unlink()
    """
    source = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source=source) from error
    if len(data) > MAX_DOCUMENT_BYTES:
        raise InputError(f"larger than {MAX_DOCUMENT_BYTES} bytes", source=source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start]
        raise InputError(
            f"not UTF-8 text (byte {bad:#04x} at offset {error.start}): a binary file?",
            source=source,
        ) from None
    if "\0" in text:
        raise InputError(f"a NUL byte at offset {data.index(0)}: a binary file?", source=source)
    if kind == "text":
        return text
    return parse_json(text, source=source) if kind == "json" else parse_toml(text, source=source)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, *, source: str | None = None, path: str | None = None) -> Any:
    """JSON text parsed, or an :class:`InputError` at ``source``/``path``: not JSON
    (``NaN`` and ``Infinity`` included), a number with too many digits, or nesting
    deeper than :data:`MAX_NESTING`.

    >>> parse_json('{"type": "pass", "player": "british"}')
    {'type': 'pass', 'player': 'british'}
    >>> parse_json("[" * 100_000, path="--move")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: --move: nested more than 64 levels deep
    """
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON: {error.msg} at line {error.lineno} column {error.colno}",
            source=source,
            path=path,
        ) from None
    except RecursionError:
        raise InputError(_too_deep(), source=source, path=path) from None
    except ValueError as error:  # NaN, or an integer past Python's digit limit
        reason = str(error).split(":")[0]
        raise InputError(f"not JSON: {reason}", source=source, path=path) from None
    _check_nesting(value, source, path)
    return value


def parse_toml(text: str, *, source: str | None = None) -> dict[str, Any]:
    """TOML text parsed, or an :class:`InputError` at ``source``.

    >>> parse_toml('game = "lod"')
    {'game': 'lod'}
    >>> parse_toml("a = " + "[" * 100_000, source="deck.toml")
    Traceback (most recent call last):
    ...
    legalis.model.errors.InputError: deck.toml: nested more than 64 levels deep
    """
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", source=source) from None
    except RecursionError:
        raise InputError(_too_deep(), source=source) from None
    except ValueError as error:  # an integer past Python's digit limit
        reason = str(error).split(":")[0]
        raise InputError(f"not valid TOML: {reason}", source=source) from None
    _check_nesting(value, source, None)
    return value


def _too_deep() -> str:
    return f"nested more than {MAX_NESTING} levels deep"


def _check_nesting(value: Any, source: str | None, path: str | None) -> None:
    # iterative, so that a deep document cannot exhaust the stack here either
    level: list[Any] = [value]
    for _ in range(MAX_NESTING):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
        if not level:
            return
    raise InputError(_too_deep(), source=source, path=path)


def prose_description(schema: dict[str, Any]) -> None:
    """Cut a model's JSON Schema ``description`` before its docstring's doctests:
    the examples are for the tests, the prose for the schema's readers.

    >>> schema = {"description": "A move.\\n\\n>>> Move()\\nMove()"}
    >>> prose_description(schema)
    >>> schema
    {'description': 'A move.'}
    """
    description = schema.get("description")
    if isinstance(description, str):
        lines = description.split("\n")
        examples = [i for i, line in enumerate(lines) if line.lstrip().startswith(">>>")]
        schema["description"] = "\n".join(lines[: examples[0]] if examples else lines).strip()


def drop_default(schema: dict[str, Any]) -> None:
    """Leave a field's ``default`` out of its JSON Schema: for a key that may be
    missing but has no value to show when it is.

    >>> schema = {"type": "integer", "default": None}
    >>> drop_default(schema)
    >>> schema
    {'type': 'integer'}
    """
    schema.pop("default", None)
