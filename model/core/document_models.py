"""Building blocks for the pydantic models of the documents a game reads and writes.

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

import keyword
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, Union, cast

from legalis.model.core.documents import drop_default, prose_description
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, create_model
from typing_extensions import TypeAliasType

__all__ = [
    "CLOSED",
    "OMITTED",
    "camel",
    "closed_object",
    "count",
    "dict_of",
    "list_of",
    "name_type",
    "unique_list",
]

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


def one_of(name: str, doc: str, members: Sequence[Any], *, tag: str | None = "type") -> Any:
    """A root model accepting any of ``members`` (models), told apart by the field
    ``tag`` (``None``: by trying each in turn), named ``name`` in a JSON Schema.

    >>> A = closed_object("A", "", {"type": (Literal["a"], ...)})
    >>> B = closed_object("B", "", {"type": (Literal["b"], ...), "n": (int, ...)})
    >>> Move = one_of("Move", "A move.", [A, B])
    >>> Move.model_validate({"type": "b", "n": 2}).root.n
    2
    """
    union = cast(Any, Union)[tuple(members)] if len(members) > 1 else members[0]
    shape = cast(Any, Annotated)[union, Field(discriminator=tag)] if tag else union
    model: type[RootModel[Any]] = create_model(
        name, __base__=cast(Any, RootModel)[shape], __doc__=doc, __module__=__name__
    )
    return model
