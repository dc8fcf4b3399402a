"""Where a map's places are drawn, as its map file says: a ``[frame]`` table (the
drawing's ``width`` and ``height``, y growing downward, and ``box``, the size of
the rectangle drawn for a place) and ``at = [x, y]`` on every place, its centre.

Every game's map file is read the same way: all places have a position or none
does, each lies on the frame, and a bad value is an error naming its field.

>>> read_placement({"frame": {"width": 100, "height": 50, "box": [20, 10]}},
...                [("space[0]", "A", {"at": [10, 20]})], source="map.toml")
((100, 50), (20, 10), {'A': (10, 20)})
>>> read_placement({}, [("space[0]", "A", {})], source="map.toml")
(None, None, {})
>>> read_placement({"frame": {"width": 100, "height": 50}},
...                [("space[0]", "A", {"at": [120, 20]})], source="map.toml")
Traceback (most recent call last):
...
legalis.model.errors.InputError: map.toml:space[0].at: x = 120 is off the frame (0 to 100)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from legalis.model.errors import InputError

__all__ = ["Pair", "read_placement"]

Pair = tuple[float, float]


def _number(value: object) -> bool:
    # bool is a subclass of int: `true` is not a coordinate; nor are NaN and infinity
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def _pair(value: object, path: str, source: str | None, *, positive: bool) -> Pair:
    """``value`` as two numbers (both above 0 when ``positive``), or an error at ``path``."""
    if not isinstance(value, list) or len(value) != 2 or not all(map(_number, value)):
        raise InputError(f"expected a list of two numbers, got {value!r}", source=source, path=path)
    if positive and not all(item > 0 for item in value):
        raise InputError(f"expected two numbers above 0, got {value!r}", source=source, path=path)
    return value[0], value[1]


def _frame(data: Mapping[str, Any], source: str | None) -> tuple[Pair | None, Pair | None]:
    """The drawing's (width, height) and the rectangle of a place, from ``[frame]``."""
    if "frame" not in data:
        return None, None
    table = data["frame"]
    if not isinstance(table, Mapping):
        raise InputError("expected a [frame] table", source=source, path="frame")
    for key in ("width", "height"):
        if key not in table:
            raise InputError("missing field", source=source, path=f"frame.{key}")
        value = table[key]
        if not _number(value) or value <= 0:
            message = f"expected a number above 0, got {value!r}"
            raise InputError(message, source=source, path=f"frame.{key}")
    box = _pair(table["box"], "frame.box", source, positive=True) if "box" in table else None
    return (table["width"], table["height"]), box


def read_placement(
    data: Mapping[str, Any],
    places: Sequence[tuple[str, str, Mapping[str, Any]]],
    *,
    source: str | None,
) -> tuple[Pair | None, Pair | None, dict[str, Pair]]:
    """The map's frame, its box size and each place's centre by name. ``places``
    holds each place's table path (``space[3]``), its name (already checked) and
    its table; either every place has ``at`` or none does."""
    frame, box = _frame(data, source)
    if not any("at" in entry for _, _, entry in places):
        return frame, box, {}
    if frame is None:
        message = "missing [frame] table: positions (at) need the frame they lie on"
        raise InputError(message, source=source, path="frame")
    positions: dict[str, Pair] = {}
    for where, name, entry in places:
        if "at" not in entry:
            raise InputError(f"missing field: {name!r} has no position while others have one",
                             source=source, path=f"{where}.at")  # fmt: skip
        x, y = _pair(entry["at"], f"{where}.at", source, positive=False)
        for axis, value, limit in (("x", x, frame[0]), ("y", y, frame[1])):
            if not 0 <= value <= limit:
                message = f"{axis} = {value} is off the frame (0 to {limit})"
                raise InputError(message, source=source, path=f"{where}.at")
        positions[name] = (x, y)
    return frame, box, positions
