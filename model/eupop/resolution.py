"""How an EU:PoP effect is resolved, step by step, and the record of it.

Every effect and every secondary-effect symbol is resolved in steps. At each step
either a player chooses (the legal choices are a move view) or, when the effect is
auto-resolved (16.4 unpicked Events, 16.5 auto-resolution), the rules choose: each
such step records the paragraph and the tie-break that decided it, the candidates
there were, and any random draw, so ``legalis resolve --explain`` can print it and
a seeded run replays exactly.

>>> log = ResolutionLog()
>>> log.decide("16.5 Pirates", "most Merchants", ["baltic", "north_sea"], "baltic")
>>> print(log.lines()[0])
16.5 Pirates: baltic (most Merchants; from baltic; north_sea)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Decision", "ResolutionLog", "readable"]


def readable(value: Any) -> str:
    """A logged value (a move as JSON, a name, a number) as short text for people:
    a table's fields as ``name value``, lists comma-separated, pairs joined by a
    space; a true flag is its name; empty and false fields left out; ``None`` is
    ``nothing``.

    >>> readable({"placed": [["saxony", 2]], "discards": []})
    'placed saxony 2'
    >>> readable({"target": "saxony_realm", "take_back": None})
    'target saxony_realm'
    >>> readable({"province": "Holstein", "vassal": True}), readable({"stop": True})
    ('province Holstein, vassal', 'stop')
    >>> readable(["england", "castile"]), readable(None), readable(True)
    ('england, castile', 'nothing', 'yes')
    """
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        shown = {
            key: item
            for key, item in value.items()
            if item is not None and item is not False and item not in ([], (), {})
        }
        fields = [key if item is True else f"{key} {readable(item)}" for key, item in shown.items()]
        return ", ".join(fields) or "nothing"
    if isinstance(value, list | tuple):
        if value and all(isinstance(item, list | tuple) for item in value):
            return ", ".join(" ".join(readable(part) for part in item) for item in value)
        return ", ".join(readable(item) for item in value) or "none"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return readable({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    return str(value)


@dataclass(frozen=True)
class Decision:
    """One step: the rule that governs it, what decided it (a tie-break, a die, a
    player's choice), the candidates, and the one taken."""

    rule: str
    decided_by: str
    candidates: tuple[Any, ...]
    chosen: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "decided_by": self.decided_by,
            "candidates": list(self.candidates),
            "chosen": self.chosen,
        }


@dataclass
class ResolutionLog:
    """The decisions of one resolution, in order."""

    decisions: list[Decision] = field(default_factory=list)

    def decide(self, rule: str, decided_by: str, candidates: Any, chosen: Any) -> None:
        self.decisions.append(Decision(rule, decided_by, tuple(candidates), chosen))

    def lines(self) -> list[str]:
        """Each decision as a line for people: the rule, what was taken, what decided
        it and the candidates, values written as :func:`readable` text."""
        lines = []
        for d in self.decisions:
            shown = "; ".join(readable(candidate) for candidate in d.candidates) or "none"
            lines.append(f"{d.rule}: {readable(d.chosen)} ({d.decided_by}; from {shown})")
        return lines

    def to_json(self) -> list[dict[str, Any]]:
        return [decision.to_json() for decision in self.decisions]
