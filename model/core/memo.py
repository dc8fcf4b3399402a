"""A method cache that lives and dies with its instance.

``functools.cache`` on a method keeps one table for the class, keyed by the
instance too: every instance ever used stays alive and the table only grows. A
view that counts by a memoised recursion wants the opposite: a table per view,
gone with it.

>>> class Counter:
...     calls = 0
...     @instance_cache
...     def square(self, n: int) -> int:
...         Counter.calls += 1
...         return n * n
>>> first = Counter()
>>> first.square(3), first.square(3), Counter.calls
(9, 9, 1)
>>> Counter().square(3), Counter.calls  # a new instance, a new table
(9, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["instance_cache"]

R = TypeVar("R")


class instance_cache(Generic[R]):
    """Cache a method's results per instance (the arguments must be hashable)."""

    def __init__(self, method: Callable[..., R]) -> None:
        self.method = method
        self.name = method.__name__
        functools.update_wrapper(self, method)  # type: ignore[arg-type]

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Callable[..., R]:
        if instance is None:
            return self.method
        cached: Callable[..., R] = functools.cache(self.method.__get__(instance, owner))
        # a non-data descriptor: the instance's own attribute is found first from now on
        instance.__dict__[self.name] = cached
        return cached
