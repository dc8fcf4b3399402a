"""The decision trace of a Non-player: every step, the paragraph that decided it,
the candidates there were, the one taken, and the dice rolled on the way.

>>> trace = Trace()
>>> trace.step("8.2", "random space", ["Boston", "New York City"], "Boston", dice=[2, 5])
>>> print(trace.lines()[0])
8.2 random space: Boston (from Boston, New York City; dice 2, 5)
>>> trace.to_json()[0]["dice"]
[2, 5]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Trace", "TraceStep"]


@dataclass(frozen=True)
class TraceStep:
    """One decision: the paragraph (e.g. ``"8.1.3"``), what was decided, the
    candidates, the choice, and the dice rolled for it (empty if none)."""

    rule: str
    what: str
    candidates: tuple[Any, ...]
    chosen: Any
    dice: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "what": self.what,
            "candidates": list(self.candidates),
            "chosen": self.chosen,
            "dice": list(self.dice),
        }

    def line(self) -> str:
        listed = ", ".join(map(str, self.candidates))
        rolled = f"; dice {', '.join(map(str, self.dice))}" if self.dice else ""
        return f"{self.rule} {self.what}: {self.chosen} (from {listed}{rolled})"


@dataclass
class Trace:
    """The steps of one Non-player decision, in order."""

    steps: list[TraceStep] = field(default_factory=list)

    def step(
        self,
        rule: str,
        what: str,
        candidates: Iterable[Any],
        chosen: Any,
        *,
        dice: Iterable[int] = (),
    ) -> None:
        self.steps.append(TraceStep(rule, what, tuple(candidates), chosen, tuple(dice)))

    def lines(self) -> list[str]:
        return [step.line() for step in self.steps]

    def to_json(self) -> list[dict[str, Any]]:
        return [step.to_json() for step in self.steps]
