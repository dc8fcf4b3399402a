"""Proofs about a COIN game's rule set: effects keep the invariants, and the
invariants are consistent and each needed.

>>> report = prove_rule_set("lod")
>>> all(proof.proved for proof in report.effects), report.consistent, report.redundant
(True, True, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from legalis.model.coin.gamedata import GameData, load_game_data
from legalis.model.coin.properties import consistency_claims, effect_claims
from legalis.model.core.documents import prose_description
from legalis.model.core.ir import Claim, Const
from legalis.solver.z3backend import ProofDocument, ProofResult, prove
from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class RuleSetReport:
    """``effects``: one proof per effect form. ``consistent``: the invariants have a
    common model (``witness``); else ``conflict`` names the invariants in the unsat
    core. ``needed``: invariants no others imply, each with a state breaking only it;
    ``redundant``: invariants the others imply."""

    game: str
    effects: list[ProofResult]
    consistent: bool
    witness: dict[str, int | bool] | None
    conflict: list[str]
    needed: dict[str, dict[str, int | bool]] = field(default_factory=dict)
    redundant: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(p.proved for p in self.effects) and self.consistent and not self.redundant

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "effects": [proof.to_json() for proof in self.effects],
            "consistent": self.consistent,
            "witness": self.witness,
            "conflict": self.conflict,
            "needed": sorted(self.needed),
            "redundant": self.redundant,
        }


class RuleSetDocument(BaseModel):
    """A rule set's proofs as JSON, as RuleSetReport.to_json writes it.

    >>> report = RuleSetReport("lod", [], False, None, ["stacking", "caps"])
    >>> RuleSetDocument.model_validate(report.to_json()).conflict
    ['stacking', 'caps']
    """

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=prose_description)

    game: str
    effects: list[ProofDocument] = Field(description="One proof per effect form")
    consistent: bool = Field(description="The invariants have a common model")
    witness: dict[str, int | bool] | None = Field(description="A state meeting them all")
    conflict: list[str] = Field(description="The invariants in the unsat core, if inconsistent")
    needed: list[str] = Field(description="Invariants no others imply")
    redundant: list[str] = Field(description="Invariants the others imply")


def prove_rule_set(game: str, data: GameData | None = None) -> RuleSetReport:
    """Prove every effect form keeps the invariants; check the invariants together."""
    data = data or load_game_data(game)
    effects = [prove(claim) for claim in effect_claims(data)]
    names, terms = consistency_claims(data)
    together = prove(Claim("invariants together", "rule set", "a state meets them all",
                           tuple(terms), Const(False)))  # fmt: skip
    if together.vacuous:
        conflict = [names[int(label[len("assumption[") : -1])] for label in together.core
                    if label.startswith("assumption[")]  # fmt: skip
        return RuleSetReport(game, effects, False, None, conflict)
    needed: dict[str, dict[str, int | bool]] = {}
    redundant: list[str] = []
    for index, name in enumerate(names):
        others = tuple(term for j, term in enumerate(terms) if j != index)
        alone = prove(Claim(f"{name} is needed", "rule set", "the others allow breaking it",
                            others, terms[index]))  # fmt: skip
        if alone.proved:
            redundant.append(name)
        else:
            assert alone.counterexample is not None
            needed[name] = alone.counterexample
    return RuleSetReport(game, effects, True, together.counterexample, [], needed, redundant)


def broken(data: GameData, **changes: Any) -> GameData:
    """A copy of the game data with some numbers changed, to show a rule set fail."""
    return replace(data, **changes)


__all__ = ["RuleSetDocument", "RuleSetReport", "broken", "prove_rule_set"]
