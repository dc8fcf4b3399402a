"""Reading the JSON and TOML documents a user hands in, and building blocks for
the pydantic models of the documents a game reads and writes.

Every state, deck, card list, catalogue or log file is read by :func:`read_document`
and every JSON text a user types by :func:`parse_json`: a file that is binary, not
UTF-8, too large or nested too deeply is one :class:`InputError` naming the file,
never a crash or a page of raw bytes.

The engine reads its documents with hand-written readers that give a path for
every fault; these models describe the same documents at the edge, for JSON
Schema and for clients that validate before they send. Names fixed by a game's
data (players, cards, spaces, pieces) become named enums built from the loaded
data, so a schema can never drift from the files the engine reads.

>>> Hands = closed_object("Hands", "The cards each player holds.",
...                       {"british": (list[str], ...), "french": (list[str], [])})
>>> Hands.model_validate({"british": ["Forts"]}).model_dump(by_alias=True)
{'british': ['Forts'], 'french': []}
>>> sorted(Hands.model_json_schema()["properties"]), Hands.model_json_schema()["required"]
(['british', 'french'], ['british'])
"""

from __future__ import annotations

import json
import keyword
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, cast

from legalis.model.errors import InputError
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model
from typing_extensions import TypeAliasType

__all__ = [
    "CLOSED",
    "MAX_DOCUMENT_BYTES",
    "MAX_NESTING",
    "OMITTED",
    "camel",
    "closed_object",
    "count",
    "dict_of",
    "drop_default",
    "list_of",
    "name_type",
    "parse_json",
    "parse_toml",
    "prose_description",
    "read_document",
    "unique_list",
]

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
"""The largest document file read: hundreds of times the largest bundled one."""

MAX_NESTING = 64
"""The deepest nesting of arrays and objects (tables) in a document; the bundled
documents nest 14 levels at most (a deck's effects)."""


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


CLOSED = ConfigDict(extra="forbid", strict=True, json_schema_extra=prose_description)
"""The configuration of a closed document object: unknown keys are errors, and no
value is coerced (``"3"`` is not 3, ``true`` is not 1), as the engine's readers do."""

_T = TypeVar("_T")


class _Omitted:
    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: Any = _Omitted()
"""The default of a key that may be left out and has no default value to show
(the reader works it out): the key is optional, and ``null`` is still refused."""


def name_type(alias: str, names: Iterable[str]) -> Any:
    """A ``Literal`` of ``names`` under a name of its own: its JSON Schema is one
    ``$defs`` entry that every use refers to.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(list[name_type("Side", ["unshaded", "shaded"])]).json_schema()["items"]
    {'$ref': '#/$defs/Side'}
    """
    values = tuple(dict.fromkeys(names))
    if not values:
        raise ValueError(f"{alias}: an enum needs at least one name")
    # the names come from data files, so the Literal is built at run time
    literal = cast(Any, Literal)[values]
    return TypeAliasType(alias, literal)


def count(lo: int = 0, hi: int | None = None) -> Any:
    """A whole number from ``lo`` to ``hi`` (no upper bound when ``hi`` is None).

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(count(0, 15)).json_schema()
    {'maximum': 15, 'minimum': 0, 'type': 'integer'}
    """
    return Annotated[int, Field(ge=lo, le=hi, strict=True)]


def list_of(item: Any, *, max_length: int | None = None) -> Any:
    """``list[item]`` for an item type made at run time, at most ``max_length`` long.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(list_of(count(1), max_length=5)).json_schema()["maxItems"]
    5
    """
    listed = cast(Any, list)[item]
    if max_length is None:
        return listed
    return cast(Any, Annotated)[listed, Field(max_length=max_length)]


def dict_of(key: Any, value: Any) -> Any:
    """``dict[key, value]`` for types made at run time.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(dict_of(str, count())).validate_python({"a": 1})
    {'a': 1}
    """
    return cast(Any, dict)[key, value]


def _no_repeats(values: list[_T]) -> list[_T]:
    if len(set(values)) != len(values):
        raise ValueError("a name is listed twice")
    return values


def unique_list(item: Any) -> Any:
    """A list of ``item`` with no value twice (JSON Schema ``uniqueItems``).

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(unique_list(str)).json_schema()
    {'items': {'type': 'string'}, 'type': 'array', 'uniqueItems': True}
    """
    return cast(Any, Annotated)[
        list_of(item), AfterValidator(_no_repeats), Field(json_schema_extra={"uniqueItems": True})
    ]


def camel(text: str) -> str:
    """A model name from a data id or name: ``"west_indies"`` -> ``"WestIndies"``.

    >>> camel("west_indies"), camel("LoC"), camel("Hue -- Da Nang")
    ('WestIndies', 'LoC', 'HueDaNang')
    """
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[\W_]+", text) if part)


def _field_name(key: str, index: int, taken: set[str]) -> str:
    plain = (
        key.isidentifier()
        and not keyword.iskeyword(key)
        and not key.startswith(("_", "model_"))
        and not hasattr(BaseModel, key)
    )
    # keys such as "Hue -- Da Nang" or "copy" cannot be attribute names: they
    # become aliases of a made-up name
    name = key if plain else f"field_{index}"
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def closed_object(
    name: str,
    doc: str,
    fields: Mapping[str, tuple[Any, Any] | tuple[Any, Any, str]],
) -> type[BaseModel]:
    """A closed object model with exactly the JSON keys of ``fields``.

    Each key maps to ``(type, default)`` or ``(type, default, description)``; a
    default of ``...`` makes the key required, :data:`OMITTED` optional with no
    default. Keys need not be identifiers: they are the JSON names (aliases) of the
    model's fields.

    >>> Flags = closed_object("Flags", "The game's flags.",
    ...                       {"toa_played": (bool, ..., "Treaty of Alliance played")})
    >>> Flags.model_json_schema()["properties"]["toa_played"]["description"]
    'Treaty of Alliance played'
    >>> Flags.model_validate({"toa_played": 1})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for Flags
    toa_played
      Input should be a valid boolean [type=bool_type, input_value=1, input_type=int]
    ...
    """
    taken: set[str] = set()
    definitions: dict[str, Any] = {}
    for index, (key, spec) in enumerate(fields.items()):
        annotation, default = spec[0], spec[1]
        description = spec[2] if len(spec) == 3 else None
        field_name = _field_name(key, index, taken)
        if default is OMITTED:
            info = Field(None, alias=key, description=description, json_schema_extra=drop_default)
        else:
            info = Field(default, alias=key, description=description)
        definitions[field_name] = (annotation, info)
    model: type[BaseModel] = create_model(
        name, __config__=CLOSED, __doc__=doc, __module__=__name__, **definitions
    )
    return model
