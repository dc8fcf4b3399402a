"""Named rule options: the values an option field takes, and options set by name.

An option class is a frozen dataclass whose fields are the named readings of unclear
rules (``docs/rules-questions.md``). A field typed ``bool``, ``int`` (a count) or a
``Literal`` of names (``None`` allowed) is settable by name, so the CLI's
``--option name=value`` and the API's ``options`` object reach it; a field holding a
function is a library hook, set only from Python.

>>> from dataclasses import dataclass
>>> from typing import Literal
>>> @dataclass(frozen=True)
... class Example:
...     rounding: Literal["down", "up"] = "down"
...     strict: bool = True
>>> read_options(Example(), {"rounding": "up", "strict": "false"}, path="options",
...              groups=dict.fromkeys(settable(Example), ""))
Example(rounding='up', strict=False)
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from legalis.model.errors import InputError

__all__ = ["option_json", "option_value", "option_values", "read_options", "settable"]

Options = TypeVar("Options")


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(group: type) -> dict[str, Any]:
    """The type hints of an option class, read once: reading them is slow."""
    found = _HINTS.get(group)
    if found is None:
        found = _HINTS[group] = get_type_hints(group)
    return found


def option_values(group: type, name: str) -> tuple[Any, ...] | None:
    """The values option ``name`` of the class ``group`` takes, or None for a count.

    >>> from typing import Literal
    >>> class Example:
    ...     pick: Literal["a", "b"] | None
    ...     flag: bool
    ...     many: int
    >>> option_values(Example, "pick"), option_values(Example, "flag")
    (('a', 'b', None), (True, False))
    >>> option_values(Example, "many") is None
    True
    """
    kind = _hints(group)[name]
    if get_origin(kind) in (Union, types.UnionType):  # Literal[...] | None
        return tuple(value for part in get_args(kind) for value in option_values_of(part))
    return option_values_of(kind) or None


def option_values_of(kind: Any) -> tuple[Any, ...]:
    """The values of one type: a Literal's, a bool's, None's; none for others."""
    if get_origin(kind) is Literal:
        return get_args(kind)
    if kind is bool:
        return (True, False)
    if kind is type(None):
        return (None,)
    return ()


def settable(group: type) -> tuple[str, ...]:
    """The fields of the option class ``group`` settable by name (not the hooks, which
    hold functions, nor nested option classes)."""
    hints = _hints(group)
    return tuple(
        option.name
        for option in fields(group)
        if hints[option.name] is int or option_values(group, option.name) is not None
    )


def option_value(group: type, name: str, value: Any, path: str) -> Any:
    """``value`` as a value of option ``name``; text (``"true"``, ``"3"``, ``"none"``)
    is read as the CLI passes it. Anything else is an :class:`InputError` at ``path``
    listing what is allowed."""
    allowed = option_values(group, name)
    if allowed is None:  # a count
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str) and value.strip().isdigit():
            number = int(value)
        if number is None or number < 0:
            raise InputError(f"expected a count of 0 or more, not {value!r}", path=path)
        return number
    if isinstance(value, str):
        text = value.strip().lower()
        if True in allowed and text in ("true", "false"):
            value = text == "true"
        elif None in allowed and text == "none":
            value = None
    if value not in allowed or isinstance(value, bool) != (True in allowed):
        shown = [v if isinstance(v, str) else str(v).lower() for v in allowed]
        raise InputError(f"bad value {value!r}", path=path, allowed=shown)
    return value


def read_options(
    default: Options, raw: Mapping[str, Any] | None, *, path: str, groups: Mapping[str, str]
) -> Options:
    """``default`` with the options named in ``raw`` (name to value) set; ``groups``
    maps each settable name to the field of ``default`` holding its option class
    (``""``: ``default`` itself). An unknown name is an :class:`InputError` listing
    the names."""
    if raw is None:
        return default
    if not isinstance(raw, Mapping):
        raise InputError("options must be an object", path=path)
    chosen = default
    for name, value in raw.items():
        if name not in groups:
            raise InputError(f"unknown option {name!r}", path=f"{path}.{name}",
                             allowed=sorted(groups))  # fmt: skip
        group = groups[name]
        owner = getattr(chosen, group) if group else chosen
        changed = replace(owner, **{name: option_value(type(owner), name, value,  # type: ignore[type-var]
                                                       f"{path}.{name}")})  # fmt: skip
        chosen = replace(chosen, **{group: changed}) if group else changed  # type: ignore[type-var]
    return chosen


def option_json(options: object, groups: Mapping[str, str]) -> dict[str, Any]:
    """The value of every option settable by name, as :func:`read_options` reads them
    back: ``groups`` maps each name to the field of ``options`` holding its option
    class (``""``: ``options`` itself).

    >>> from dataclasses import dataclass
    >>> from typing import Literal
    >>> @dataclass(frozen=True)
    ... class Example:
    ...     rounding: Literal["down", "up"] = "down"
    >>> option_json(Example(), {"rounding": ""})
    {'rounding': 'down'}
    """
    return {
        name: getattr(getattr(options, group) if group else options, name)
        for name, group in groups.items()
    }
