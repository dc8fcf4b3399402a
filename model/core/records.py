"""Frozen records read from data files: plain dataclasses in play, pydantic at the edges.

A record is a frozen, slotted dataclass (:func:`record`). Play builds and reads
records without pydantic, whose import and first model cost about 18 MiB, more than
a whole game of play; validating a document, writing a JSON Schema and dumping a
record build a pydantic ``TypeAdapter`` the first time one is asked for, from the
same annotations. The constraints in those annotations are :class:`Rule` metadata:
named when the module is read, made into pydantic's own metadata when pydantic first
reads them. The methods keep pydantic's names (``model_validate``, ``model_dump``,
``model_json_schema``, ``model_copy``), so records read as the other documents do.

>>> @record
... class Stack(Record):
...     pieces: Annotated[tuple[str, ...], Rule("Field", min_length=1)]
...     count: Annotated[int, Rule("Field", ge=0)] = 1
>>> Stack.model_validate({"pieces": ["fort"], "count": 2})
Stack(pieces=('fort',), count=2)
>>> Stack.model_json_schema()["properties"]["count"]["minimum"]
0

A document already known to be valid (a bundled one, checked by the tests) is built
without pydantic:

>>> Stack.trusted({"pieces": ["fort", "militia"]})
Stack(pieces=('fort', 'militia'), count=1)
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Annotated, Any, Literal, TypeVar

_R = TypeVar("_R", bound="Record")


_T = TypeVar("_T")


def _per_class(build: Callable[[type[Any]], _T]) -> Callable[[type[Any]], _T]:
    """``build`` computed once per class (``functools.cache``: classes live as long as
    the process)."""
    return functools.cache(build)  # type: ignore[return-value]


class Rule:
    """pydantic metadata of an annotation (``Field``, ``BeforeValidator``,
    ``AfterValidator``): its name and arguments now, the object itself when pydantic
    builds a validator or a schema, so reading a record's module imports nothing.

    >>> Rule("Field", ge=0)
    Rule('Field', ge=0)
    """

    __slots__ = ("args", "kwargs", "name")

    def __init__(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs

    def __repr__(self) -> str:
        parts = [repr(self.name), *map(repr, self.args)]
        parts += [f"{key}={value!r}" for key, value in self.kwargs.items()]
        return f"Rule({', '.join(parts)})"

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        import pydantic

        made = getattr(pydantic, self.name)(*self.args, **self.kwargs)
        if hasattr(made, "__get_pydantic_core_schema__"):  # a validator: it wraps the rest
            return made.__get_pydantic_core_schema__(source, handler)
        # a Field's constraints start the schema anew, dropping the metadata before
        # it: a record lists a Field rule first, its validators after
        return handler.generate_schema(Annotated[source, made])

    @property
    def tag(self) -> str | None:
        """The field a union's members are told apart by (``Field(discriminator=...)``)."""
        return self.kwargs.get("discriminator") if self.name == "Field" else None

    @property
    def before(self) -> Callable[[Any], Any] | None:
        """The function a ``BeforeValidator`` applies to the raw value."""
        return self.args[0] if self.name == "BeforeValidator" else None


class Keys:
    """A record's document keys where they differ from its field names (pydantic's
    ``alias_generator``): ``Keys(kind="is")`` reads the field ``kind`` from ``is``.

    >>> Keys(kind="is")("kind"), Keys(kind="is")("types")
    ('is', 'types')
    """

    __slots__ = ("renamed",)

    def __init__(self, **renamed: str) -> None:
        self.renamed = renamed

    def __call__(self, name: str) -> str:
        return self.renamed.get(name, name)


@typing.dataclass_transform(frozen_default=True, kw_only_default=True)
def record(cls: type[_R]) -> type[_R]:
    """Make ``cls`` a frozen, slotted, keyword-only dataclass."""
    return dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls)


class Record:
    """The base of records. ``__pydantic_config__`` is read by pydantic only: a
    subclass sets its own keys (``alias_generator``: a :class:`Keys`), its schema
    extras or ``validate_default``. ``_check`` (when a subclass defines it) refuses,
    with a ``ValueError``, a record whose fields together break a rule; validation
    calls it after the fields are read."""

    __slots__ = ()
    __pydantic_config__: typing.ClassVar[dict[str, Any]] = {"extra": "forbid"}

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        schema = handler(source)
        if not hasattr(cls, "_check"):
            return schema
        from pydantic_core import core_schema

        def checked(value: Any) -> Any:
            value._check()
            return value

        return core_schema.no_info_after_validator_function(checked, schema)

    @classmethod
    def model_validate(cls: type[_R], data: Any) -> _R:
        """``data`` read and checked; a pydantic ``ValidationError`` names what is wrong."""
        return _adapter(cls).validate_python(data)  # type: ignore[no-any-return]

    @classmethod
    def model_json_schema(cls, **options: Any) -> dict[str, Any]:
        """The JSON Schema of the document (pydantic's ``TypeAdapter.json_schema`` options)."""
        return _adapter(cls).json_schema(**options)  # type: ignore[no-any-return]

    def model_dump(self, **options: Any) -> Any:
        """The record as plain data (pydantic's ``TypeAdapter.dump_python`` options)."""
        return _adapter(type(self)).dump_python(self, **options)

    def model_copy(self: _R, *, update: Mapping[str, Any] | None = None) -> _R:
        """The record with the fields of ``update`` replaced, not checked."""
        return dataclasses.replace(self, **update) if update else self  # type: ignore[type-var]

    @classmethod
    def trusted(cls: type[_R], raw: Mapping[str, Any]) -> _R:
        """The record of a document known to be valid, built without checks or pydantic:
        lists become tuples, tagged tables their union's member, and the ``BeforeValidator``
        of a field still turns its shorthand into the full value."""
        return _reader(cls)(raw)  # type: ignore[no-any-return]


@_per_class
def _adapter(cls: type[Any]) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(cls)


@_per_class
def field_types(cls: type[Any]) -> dict[str, Any]:
    """Each field's annotation, evaluated, with its :class:`Rule` metadata."""
    return typing.get_type_hints(cls, include_extras=True)


def document_key(cls: type[Any], name: str) -> str:
    """The key of field ``name`` in ``cls``'s documents.

    >>> @record
    ... class Named(Record):
    ...     __pydantic_config__ = {"alias_generator": Keys(kind="is")}
    ...     kind: str = "named"
    >>> document_key(Named, "kind")
    'is'
    """
    keys = cls.__pydantic_config__.get("alias_generator")
    return keys(name) if keys else name


def record_fields(cls: type[Any]) -> tuple[str, ...]:
    """The names of ``cls``'s fields, in order."""
    return tuple(each.name for each in dataclasses.fields(cls))


def field_default(cls: type[Any], name: str) -> Any:
    """The default of field ``name``, as a record built without it has (one object per
    class and field, compared against, never changed)."""
    return _defaults(cls)[name]


@_per_class
def _defaults(cls: type[Any]) -> dict[str, Any]:
    return {
        field.name: field.default_factory()
        if field.default_factory is not dataclasses.MISSING
        else field.default
        for field in dataclasses.fields(cls)
    }


def walk(value: Any) -> Iterator[Record]:
    """Every record in ``value``, depth first: a record, then those its fields hold.

    >>> @record
    ... class Pile(Record):
    ...     name: str
    ...     under: tuple[Pile, ...] = ()
    >>> [pile.name for pile in walk(Pile(name="a", under=(Pile(name="b"),)))]
    ['a', 'b']
    """
    if isinstance(value, Record):
        yield value
        for name in record_fields(type(value)):
            yield from walk(getattr(value, name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from walk(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from walk(item)


def union_members(union: Any) -> tuple[type[Record], ...]:
    """The records of a tagged union, ``Annotated[A | B, Rule("Field", discriminator=...)]``."""
    return typing.get_args(typing.get_args(union)[0])


@_per_class
def _reader(cls: type[Any]) -> Callable[[Mapping[str, Any]], Any]:
    fields = [
        (field.name, document_key(cls, field.name), _converter(field_types(cls)[field.name]))
        for field in dataclasses.fields(cls)
    ]

    def read(raw: Mapping[str, Any]) -> Any:
        return cls(**{name: convert(raw[key]) for name, key, convert in fields if key in raw})

    return read


def _same(value: Any) -> Any:
    return value


def _converter(hint: Any) -> Callable[[Any], Any]:
    """How :meth:`Record.trusted` turns a raw value of annotation ``hint`` into its field."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Annotated:
        rules = [rule for rule in args[1:] if isinstance(rule, Rule)]
        tag = next((rule.tag for rule in rules if rule.tag is not None), None)
        inner = _tagged(typing.get_args(args[0]), tag) if tag else _converter(args[0])
        for rule in rules:
            if rule.before is not None:
                inner = _before(rule.before, inner)
        return inner
    if origin in (types.UnionType, typing.Union):
        records = [arg for arg in args if isinstance(arg, type) and issubclass(arg, Record)]
        others = [arg for arg in args if arg not in records and arg is not type(None)]
        if not records and not others:
            return _same
        if len(others) == 1 and not records:
            return _optional(_converter(others[0]))
        if len(records) == 1 and all(_plain(arg) for arg in others):
            return _table_or_value(_read(records[0]))
        raise TypeError(f"no trusted reading of {hint!r}")
    if origin is tuple:
        item = _converter(args[0])
        return lambda raw: tuple(item(value) for value in raw)
    if origin is dict:
        item = _converter(args[1])
        return lambda raw: {key: item(value) for key, value in raw.items()}
    if isinstance(hint, type) and issubclass(hint, Record):
        return _read(hint)
    if _plain(hint):
        return _same
    raise TypeError(f"no trusted reading of {hint!r}")


def _read(cls: type[Record]) -> Callable[[Any], Any]:
    # the reader is looked up when a value is read: a record may hold its own kind
    return lambda raw: _reader(cls)(raw)


def _plain(hint: Any) -> bool:
    """A value read as it is: a number, a string, a flag, a name among literals."""
    return hint in (int, str, bool, float, Any) or typing.get_origin(hint) is Literal


def _optional(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda raw: None if raw is None else convert(raw)


def _table_or_value(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda raw: read(raw) if isinstance(raw, Mapping) else raw


def _before(function: Callable[[Any], Any], convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda raw: convert(function(raw))


def _tagged(members: tuple[type[Record], ...], tag: str) -> Callable[[Any], Any]:
    by_tag = {field_default(member, tag): member for member in members}
    key = document_key(members[0], tag)
    return lambda raw: _reader(by_tag[raw[key]])(raw)
