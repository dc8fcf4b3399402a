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
16.5 Pirates: baltic (most Merchants; from baltic, north_sea)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Decision", "ResolutionLog"]


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
        return [
            f"{d.rule}: {d.chosen} ({d.decided_by}; from {', '.join(map(str, d.candidates))})"
            for d in self.decisions
        ]

    def to_json(self) -> list[dict[str, Any]]:
        return [decision.to_json() for decision in self.decisions]
