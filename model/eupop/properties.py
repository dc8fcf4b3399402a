"""What the EU:PoP event rules promise, stated as IR claims for the prover (16.3, 16.5).

Two kinds of claim. The **cap claims** take a small symbolic situation (one Area
with the Influence of the player and two Opponents, one Realm's markers, its
Merchants, its available Units) in which the caps of :mod:`~legalis.model.eupop.state`
hold, and a choice that meets the legality :mod:`~legalis.model.eupop.effects`
applies; they claim the caps still hold after the effect. The caps are read from
:mod:`~legalis.model.eupop.state` each time a claim is built, so changing a
constant there changes the claim.

The **uniqueness claims** take ``N`` symbolic candidates of an auto-resolution
(16.5), each with the keys its tie-break chain reads, the last key a draw or an
alphabetical rank that no two candidates share; they claim exactly one offered
candidate is best under the lexicographic order of the keys. Leaving the last
key out (``drop_last``) gives a counterexample with two tied candidates.

>>> [claim.name for claim in cap_claims()][:2]
['influence placement keeps 5 I per Area', 'Gain G keeps 1 G per player per Area']
>>> from legalis.model.core.ir import evaluate
>>> claim = influence_claim()
>>> env = {"pre.own": 2, "pre.opp[0]": 2, "pre.opp[1]": 1, "placed": 3,
...        "discard[0]": 2, "discard[1]": 1}
>>> all(evaluate(term, env) for term in claim.assumptions), evaluate(claim.goal, env)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from legalis.model.core.ir import (
    Add,
    And,
    BoolVar,
    Claim,
    Eq,
    Ge,
    Gt,
    Implies,
    IntVar,
    Ite,
    Le,
    Lt,
    Ne,
    Not,
    Or,
    Sub,
    Term,
)
from legalis.model.eupop import state as eupop_state

__all__ = [
    "TIE_BREAKS",
    "Key",
    "TieBreak",
    "all_claims",
    "cap_claims",
    "g_claim",
    "influence_claim",
    "marker_claim",
    "merchant_claim",
    "tie_break_claims",
    "unique_choice_claim",
    "units_claim",
]

INFLUENCE = "16.3 Gain/place Influence"
G_RULE = "16.3 Gain G"
MERCHANT = "16.3 Gain Merchant"
UNITS = "16.3 Gain Military Unit"
ALLIANCE = "16.3 Gain Alliance"
MARRIAGE = "16.3 Gain Royal Marriage"
OPPONENTS = 2
BIG = 20  # a bound on amounts large enough for any single effect


def _clamp0(term: Term) -> Term:
    return Ite(Lt(term, 0), 0, term)


def influence_claim(*, claim_cap: int | None = None, discard_short: int = 0) -> Claim:
    """16.3 Gain/place Influence: "the 5 I per Area limit"; Opponents' I is
    discarded, and only as required, to make room.

    The legality is that of ``effects.refuse_influence`` and ``refuse_discards``:
    the player places at most its room (the cap less its own I), each Opponent
    loses at most the I it has, and exactly the overflow is discarded. The goal:
    the Area holds at most the cap and no count is negative. ``claim_cap`` states
    the goal with another cap than the transition's, ``discard_short`` lets the
    legality discard that many fewer: each shows the claim fail.
    """
    cap = eupop_state.INFLUENCE_PER_AREA
    goal_cap = cap if claim_cap is None else claim_cap
    own = IntVar("pre.own", 0, BIG)
    opp = [IntVar(f"pre.opp[{i}]", 0, BIG) for i in range(OPPONENTS)]
    placed = IntVar("placed", 0, BIG)
    discard = [IntVar(f"discard[{i}]", 0, BIG) for i in range(OPPONENTS)]
    before = Add(own, *opp)
    need = _clamp0(Sub(Add(before, placed), cap))
    legality: list[Term] = [
        Le(placed, Sub(cap, own)),
        *(Le(d, o) for d, o in zip(discard, opp, strict=True)),
        Eq(Add(*discard), _clamp0(Sub(need, discard_short))),
    ]
    after_own = Add(own, placed)
    after_opp = [Sub(o, d) for o, d in zip(opp, discard, strict=True)]
    after = Add(after_own, *after_opp)
    return Claim(
        name=f"influence placement keeps {goal_cap} I per Area",
        rule=f"{INFLUENCE}: the {cap} I per Area limit; discard Opponent I only as required",
        description=(
            f"from an Area with at most {goal_cap} I, every legal placement with its discards "
            f"leaves at most {goal_cap} I and no negative count"
        ),
        assumptions=(Le(before, goal_cap), *legality),
        goal=And(Le(after, goal_cap), Ge(after_own, 0), *(Ge(a, 0) for a in after_opp)),
        objective=after,
    )


def g_claim(*, once_check: bool = True) -> Claim:
    """16.3 Gain G: "You can only have 1 G in each Area". ``effects.refuse_g``
    refuses a G where the player already has one; ``once_check=False`` drops that."""
    cap = eupop_state.G_PER_AREA
    have = IntVar("pre.g", 0, BIG)
    legality = [Eq(have, 0)] if once_check else []
    after = Add(have, 1)
    return Claim(
        name=f"Gain G keeps {cap} G per player per Area",
        rule=f"{G_RULE}: only {cap} G in each Area",
        description=f"a legal Gain G leaves a player at most {cap} G in the Area",
        assumptions=(Le(have, cap), *legality),
        goal=Le(after, cap),
        objective=after,
    )


def merchant_claim(*, third_from: int | None = None, one_at_a_time: bool = True) -> Claim:
    """16.3 Gain Merchant: a third Merchant only when you have exactly 2.

    An effect may gain up to two Merchants, each with the legality of
    ``effects.refuse_merchant`` (refused at the cap). The goal: never more than the
    cap, and every gain that reaches the cap starts from one below it.
    ``one_at_a_time=False`` checks the legality once for both (a third from 1);
    ``third_from`` states the goal's "from exactly" with another count.
    """
    cap = eupop_state.MAX_MERCHANTS
    start = cap - 1 if third_from is None else third_from
    pre = IntVar("pre.merchants", 0, BIG)
    gains = IntVar("gains", 1, 2)
    steps: list[tuple[Term, Term]] = []
    if one_at_a_time:
        first = Ite(Lt(pre, cap), Add(pre, 1), pre)
        second = Ite(And(Eq(gains, 2), Lt(first, cap)), Add(first, 1), first)
        steps = [(pre, first), (first, second)]
        after: Term = second
    else:
        after = Ite(Lt(pre, cap), Add(pre, gains), pre)
        steps = [(pre, after)]
    reaching = [Implies(And(Lt(a, cap), Ge(b, cap)), Eq(a, start)) for a, b in steps]
    return Claim(
        name=f"Gain Merchant keeps {cap} Merchants, the last only from {start}",
        rule=f"{MERCHANT}: a third Merchant only when you have only 2",
        description=(
            f"legal Merchant gains never leave more than {cap}, and the gain reaching "
            f"{cap} starts from {start}"
        ),
        assumptions=(Le(pre, cap),),
        goal=And(Le(after, cap), *reaching),
        objective=after,
    )


def marker_claim(*, marriage: bool = False, take_back_check: bool = True) -> Claim:
    """16.3 Gain Alliance / Gain Royal Marriage: with no marker available you take
    one of yours from the map (``effects._take_back_refusal``). The goal: markers
    available and on the map never negative, their sum unchanged; for an Alliance
    an Opponent's replaced A goes back to that Opponent's markers.
    ``take_back_check=False`` lets a gain go ahead with none available and none taken."""
    mark, rule = ("M", MARRIAGE) if marriage else ("A", ALLIANCE)
    available = IntVar(f"pre.{mark}.available", 0, BIG)
    on_map = IntVar(f"pre.{mark}.on_map", 0, BIG)
    take_back = BoolVar(f"take_back.{mark}")
    replaced = BoolVar("replaces_opponent_A")
    opponent = IntVar("pre.opponent_A.available", 0, BIG)
    legality: list[Term] = [Implies(Gt(available, 0), Not(take_back))]
    if take_back_check:
        legality.append(Implies(Eq(available, 0), And(take_back, Ge(on_map, 1))))
    after_available = Ite(take_back, available, Sub(available, 1))
    after_on_map = Ite(take_back, on_map, Add(on_map, 1))
    goal: list[Term] = [
        Ge(after_available, 0),
        Ge(after_on_map, 0),
        Eq(Add(after_available, after_on_map), Add(available, on_map)),
    ]
    if not marriage:
        after_opponent = Ite(replaced, Add(opponent, 1), opponent)
        goal.append(Ge(after_opponent, 0))
    return Claim(
        name=f"Gain {'Royal Marriage' if marriage else 'Alliance'} keeps {mark} markers in bounds",
        rule=f"{rule}: with no {mark} available, take one of yours from the map",
        description=(
            f"a legal gain leaves no negative count of {mark} markers and moves one "
            "marker rather than making one"
        ),
        assumptions=tuple(legality),
        goal=And(*goal),
    )


def units_claim(*, availability_check: bool = True) -> Claim:
    """16.3 Gain Military Unit: Units come from those available, placed where no
    Battle is triggered; with no such place none are gained (``effects.refuse_units``).
    ``availability_check=False`` gains the full amount whatever is available."""
    available = IntVar("pre.units_available", 0, BIG)
    amount = IntVar("amount", 0, BIG)
    place_open = BoolVar("a place triggers no Battle")
    wanted = Ite(Le(amount, available), amount, available) if availability_check else amount
    gained = Ite(place_open, wanted, 0)
    after = Sub(available, gained)
    return Claim(
        name="Gain Military Units keeps units_available non-negative",
        rule=f"{UNITS}: Regular Units come from those available",
        description="a legal Gain Military Units never leaves a negative count available",
        assumptions=(),
        goal=Ge(after, 0),
    )


def cap_claims() -> list[Claim]:
    """Every cap claim, with the rules as the model applies them."""
    return [
        influence_claim(),
        g_claim(),
        merchant_claim(),
        marker_claim(),
        marker_claim(marriage=True),
        units_claim(),
    ]


# ---------------------------------------------------------------------- uniqueness


@dataclass(frozen=True)
class Key:
    """One key of a tie-break chain: its name, its range, and whether the highest
    (``"max"``) or the lowest (``"min"``) value wins. ``distinct``: no two
    candidates share it (a random draw, an alphabetical rank, a position)."""

    name: str
    lo: int
    hi: int
    best: Literal["max", "min"]
    distinct: bool = False


@dataclass(frozen=True)
class TieBreak:
    """An auto-resolution of 16.5: its rule, candidates' name, and key chain."""

    name: str
    rule: str
    candidate: str
    keys: tuple[Key, ...]


TIE_BREAKS: tuple[TieBreak, ...] = (
    TieBreak(
        "Pirates",
        "16.5 Pirates: most Merchants; tie: Expanded; tie: random",
        "Maritime Trade Node",
        (
            Key("merchants", 0, 6 * eupop_state.MAX_MERCHANTS, "max"),
            Key("expanded", 0, 1, "max"),
            Key("random draw", 0, 9, "max", distinct=True),
        ),
    ),
    TieBreak(
        "Cardinal Dies",
        "16.5 Cardinal Dies: the PR with the most C; its rightmost C (tie: rightmost of any)",
        "C in the Curia",
        (
            Key("owner's C", 1, 9, "max"),
            Key("position", 0, 9, "max", distinct=True),
        ),
    ),
    TieBreak(
        "DNPR Expansion",
        "16.5 DNPR Expansion: own Areas first; lowest Tax Income; alphabetical Province",
        "NPR Province",
        (
            Key("in an Area it Owns Provinces", 0, 1, "max"),
            Key("Tax Income", 0, 20, "min"),
            Key("alphabetical rank", 0, 9, "min", distinct=True),
        ),
    ),
    TieBreak(
        "religion spread",
        "16.5 religion auto-resolution: at least 1 t; highest Tax Value; Area name",
        "Area",
        (
            Key("has a t", 0, 1, "max"),
            Key("total Tax Value", 0, 30, "max"),
            Key("alphabetical rank", 0, 9, "min", distinct=True),
        ),
    ),
)


def _beats(keys: Sequence[Key], values: dict[str, list[IntVar]], j: int, i: int) -> Term:
    """Candidate ``j`` strictly better than ``i`` in the lexicographic order."""
    result: Term = Or()
    for key in reversed(keys):
        a, b = values[key.name][j], values[key.name][i]
        better = Gt(a, b) if key.best == "max" else Lt(a, b)
        result = Or(better, And(Eq(a, b), result))
    return result


def unique_choice_claim(tie_break: TieBreak, n: int = 4, *, drop_last: bool = False) -> Claim:
    """Among ``n`` candidates, some offered, exactly one offered candidate is best
    under the key chain. ``drop_last`` leaves the final key (the draw or the
    alphabetical rank) out of the chain."""
    keys = tie_break.keys[:-1] if drop_last else tie_break.keys
    values = {
        key.name: [IntVar(f"{key.name}[{i}]", key.lo, key.hi) for i in range(n)]
        for key in tie_break.keys
    }
    offered = [BoolVar(f"offered[{i}]") for i in range(n)]
    distinct = [
        Ne(values[key.name][i], values[key.name][j])
        for key in tie_break.keys
        if key.distinct
        for i in range(n)
        for j in range(i + 1, n)
    ]
    best = [
        And(
            offered[i],
            *(Implies(offered[j], Not(_beats(keys, values, j, i))) for j in range(n) if j != i),
        )
        for i in range(n)
    ]
    chain = " > ".join(key.name for key in keys)
    return Claim(
        name=f"{tie_break.name} auto-resolution picks exactly one {tie_break.candidate}",
        rule=tie_break.rule,
        description=(
            f"with the random draws fixed, the tie-breaks ({chain}) leave exactly one best "
            f"of {n} candidates"
        ),
        assumptions=(Or(*offered), *distinct),
        goal=And(
            Or(*best),
            *(Not(And(best[i], best[j])) for i in range(n) for j in range(i + 1, n)),
        ),
    )


def tie_break_claims(n: int = 4) -> list[Claim]:
    """One uniqueness claim per auto-resolution tie-break chain."""
    return [unique_choice_claim(tie_break, n) for tie_break in TIE_BREAKS]


def all_claims() -> list[Claim]:
    """Every EU:PoP claim: the caps, then the tie-break chains."""
    return [*cap_claims(), *tie_break_claims()]
