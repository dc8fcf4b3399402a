"""The local backend: results in task order or as they come, a task's own error
raised as it was, a stop that drops the tasks under way, bad settings refused.
(The Ray backend runs the same checks in ``test_sweep_ray.py``.)"""

from __future__ import annotations

import time
from typing import Any

import pytest
from legalis.model.errors import InputError

from legalis.backends import open_backend


def slow_square(value: int) -> int:
    time.sleep(0.05 * (value % 3))
    return value * value


def refuse_three(value: int) -> int:
    if value == 3:
        raise InputError("three is refused", path="value")
    return value


@pytest.fixture(scope="module")
def local() -> Any:
    with open_backend("local", workers=2) as backend:
        yield backend


def check_backend(backend: Any) -> None:
    """What every backend must do; the Ray tests call it too."""
    values = list(range(12))
    assert list(backend.in_order(slow_square, values)) == [v * v for v in values]
    came = list(backend.unordered(slow_square, values))
    assert sorted(index for index, _ in came) == values
    assert all(result == values[index] ** 2 for index, result in came)
    with pytest.raises(InputError, match="three is refused"):
        list(backend.in_order(refuse_three, values))
    seen: list[int] = []
    for index, _ in backend.unordered(slow_square, list(range(200)), stop=lambda: len(seen) >= 3):
        seen.append(index)
    assert 3 <= len(seen) < 200  # stopped: nothing new handed out, nothing waited for
    assert list(backend.in_order(slow_square, [4, 5])) == [16, 25]  # usable again


def test_the_local_backend(local: Any) -> None:
    assert local.workers == 2
    check_backend(local)


@pytest.mark.parametrize(
    ("settings", "path"),
    [
        ({"name": "cloud"}, "--backend"),
        ({"name": "local", "workers": 0}, "--workers"),
        ({"name": "local", "address": "127.0.0.1:6379"}, "--address"),
    ],
)
def test_bad_settings_name_their_flag(settings: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as raised:
        open_backend(**settings)
    assert raised.value.path == path
