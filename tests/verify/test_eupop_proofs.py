"""Proofs over the EU:PoP event rules (16.3 caps, 16.5 tie-breaks), their broken
variants, and replays of the counterexamples in the Python model."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.core.ir import Claim, evaluate
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop import effects as fx
from legalis.model.eupop import properties as props
from legalis.model.eupop import state as eupop_state
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.secondary import auto_pirates
from legalis.model.eupop.state import EuState, TradeNode, state_from_json
from legalis.solver.eupop import discard_view, influence_view
from legalis.solver.z3backend import prove
from legalis.verify.eupop import prove_eupop

PLAYER, OPPONENTS = "france", ("england", "spain")


def counterexample(claim: Claim) -> dict[str, Any]:
    result = prove(claim)
    assert not result.proved and result.counterexample is not None
    env = result.counterexample
    # the witness meets every assumption and breaks the goal, read by the IR's own meaning
    assert all(evaluate(term, env) for term in claim.assumptions)
    assert not evaluate(claim.goal, env)
    return env


def area_state(own: int, opp: tuple[int, ...]) -> EuState:
    """Saxony (an NPR, so open to I) with the player's and two Opponents' I."""
    influence = {p: n for p, n in zip((PLAYER, *OPPONENTS), (own, *opp), strict=True) if n}
    return state_from_json(
        {
            "players": [PLAYER, *OPPONENTS],
            "active": PLAYER,
            "realms": {
                **{p: {"kind": "player"} for p in (PLAYER, *OPPONENTS)},
                "saxony_realm": {"kind": "npr", "capital": "Dresden"},
            },
            "provinces": {"Dresden": {"owner": "saxony_realm", "capital": True}},
            "areas": {"saxony": {"influence": influence}},
        }
    )


def placement(env: dict[str, Any]) -> tuple[EuState, fx.PlaceInfluence]:
    opp = tuple(env[f"pre.opp[{i}]"] for i in range(len(OPPONENTS)))
    state = area_state(env["pre.own"], opp)
    discards = tuple(("saxony", p, env[f"discard[{i}]"]) for i, p in enumerate(OPPONENTS)
                     if env[f"discard[{i}]"])  # fmt: skip
    return state, fx.PlaceInfluence((("saxony", env["placed"]),), discards)


# ---------------------------------------------------------------------- every claim


def test_every_claim_is_proved() -> None:
    report = prove_eupop()
    assert report.ok and not report.findings
    assert len(report.proofs) == len(props.all_claims()) == 10
    assert all(proof.proved and not proof.vacuous for proof in report.proofs)
    # the tight bounds are the caps of state.py
    assert report.proof("influence placement keeps 5 I per Area").bound == 5
    assert report.proof("Gain G keeps 1 G per player per Area").bound == 1


def test_the_claims_read_their_caps_from_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(eupop_state, "INFLUENCE_PER_AREA", 4)
    monkeypatch.setattr(eupop_state, "MAX_MERCHANTS", 4)
    influence, merchants = prove(props.influence_claim()), prove(props.merchant_claim())
    assert influence.name == "influence placement keeps 4 I per Area" and influence.bound == 4
    assert merchants.proved and merchants.bound == 4


# ---------------------------------------------------------------------- broken caps


def test_discarding_one_fewer_breaks_the_influence_cap() -> None:
    env = counterexample(props.influence_claim(discard_short=1))
    state, move = placement(env)
    # the model refuses that move (16.3: discard as required) ...
    refusal = fx.refuse_influence(state, PLAYER, env["placed"], ["saxony"], move)
    assert refusal is not None and "discard" in refusal.reason
    # ... and carried out anyway, it leaves a state the model's checks reject
    forced = state.copy()
    area = forced.areas["saxony"].influence
    for _, opponent, count in move.discards:
        area[opponent] -= count
    area[PLAYER] = area.get(PLAYER, 0) + env["placed"]
    assert sum(area.values()) > eupop_state.INFLUENCE_PER_AREA
    assert any("more than 5 I" in message for _, message in forced.problems())


def test_a_cap_of_4_in_the_claim_but_5_in_the_transition_fails() -> None:
    env = counterexample(props.influence_claim(claim_cap=4))
    state, move = placement(env)
    # the real model finds the move legal and it leaves more than 4 I: Z3 and Python agree
    after = fx.apply_influence(state, PLAYER, env["placed"], ["saxony"], move)
    assert after.influence_total("saxony") > 4
    assert not list(after.problems())


def test_a_second_g_breaks_the_g_cap() -> None:
    env = counterexample(props.g_claim(once_check=False))
    assert env["pre.g"] == eupop_state.G_PER_AREA
    state = fx.apply_g(area_state(0, (0, 0)), PLAYER, fx.GainG("saxony"))
    with pytest.raises(IllegalMoveError):
        fx.apply_g(state, PLAYER, fx.GainG("saxony"))
    state.areas["saxony"].g.append(PLAYER)
    assert any("G" in message for _, message in state.problems())


def test_the_third_merchant_from_1_breaks_the_merchant_rule() -> None:
    claim = props.merchant_claim(one_at_a_time=False)
    env = counterexample(claim)
    pre, gains = env["pre.merchants"], env["gains"]
    state = area_state(0, (0, 0))
    state.realms[PLAYER].merchants = pre
    # the model gains one at a time: each step is checked, and the third comes from 2
    counts = [pre]
    for _ in range(gains):
        if fx.refuse_merchant(state, PLAYER) is not None:
            break
        state = fx.apply_merchant(state, PLAYER)
        counts.append(state.realms[PLAYER].merchants)
    assert counts[-1] <= eupop_state.MAX_MERCHANTS
    assert all(b < 3 or a == 2 for a, b in pairwise(counts))
    # the broken claim jumps: past the cap, or to the third from fewer than 2
    assert pre + gains > eupop_state.MAX_MERCHANTS or pre < eupop_state.MAX_MERCHANTS - 1


@pytest.mark.parametrize("marriage", [False, True])
def test_a_gain_without_marker_or_take_back_goes_negative(marriage: bool) -> None:
    env = counterexample(props.marker_claim(marriage=marriage, take_back_check=False))
    mark = "M" if marriage else "A"
    assert env[f"pre.{mark}.available"] == 0 and not env[f"take_back.{mark}"]
    state = area_state(0, (0, 0))
    state.realms["saxony_realm"].tax_income = 1
    if marriage:
        refusal = fx.refuse_marriage(state, PLAYER, fx.GainMarriage("saxony_realm"))
    else:
        refusal = fx.refuse_alliance(state, PLAYER, fx.GainAlliance("saxony_realm"))
    assert refusal is not None and "no " + mark in refusal.reason


def test_gaining_units_beyond_those_available_goes_negative() -> None:
    env = counterexample(props.units_claim(availability_check=False))
    assert env["amount"] > env["pre.units_available"]
    state = area_state(0, (0, 0))
    state.realms[PLAYER].units_available = env["pre.units_available"]
    move = fx.GainUnits((("saxony", env["amount"]),))
    assert fx.refuse_units(state, PLAYER, env["amount"], ["saxony"], move) is not None
    gained = min(env["amount"], env["pre.units_available"])
    if gained:
        legal = fx.GainUnits((("saxony", gained),))
        after = fx.apply_units(state, PLAYER, env["amount"], ["saxony"], legal)
        assert after.realms[PLAYER].units_available == env["pre.units_available"] - gained >= 0


def test_the_report_turns_a_broken_claim_into_a_finding() -> None:
    report = prove_eupop([props.influence_claim(discard_short=1)])
    assert not report.ok and report.codes() == {"proof.failed"}
    assert report.findings[0].witness == report.proofs[0].counterexample


# ---------------------------------------------------------------------- uniqueness


@pytest.mark.parametrize("tie_break", props.TIE_BREAKS, ids=lambda t: t.name)
def test_each_auto_resolution_picks_exactly_one(tie_break: props.TieBreak) -> None:
    result = prove(props.unique_choice_claim(tie_break))
    assert result.proved and not result.vacuous


@pytest.mark.parametrize("tie_break", props.TIE_BREAKS, ids=lambda t: t.name)
def test_dropping_the_last_tie_break_leaves_two_tied(tie_break: props.TieBreak) -> None:
    env = counterexample(props.unique_choice_claim(tie_break, drop_last=True))
    offered = [i for i in range(4) if env[f"offered[{i}]"]]
    kept = [key.name for key in tie_break.keys[:-1]]
    best = {}
    for i in offered:
        row = tuple(env[f"{name}[{i}]"] * (1 if key.best == "max" else -1)
                    for name, key in zip(kept, tie_break.keys, strict=False))  # fmt: skip
        best.setdefault(row, []).append(i)
    top = best[max(best)]
    # two distinct candidates share the best keys: only the dropped key told them apart
    assert len(top) >= 2
    last = tie_break.keys[-1].name
    assert len({env[f"{last}[{i}]"] for i in top}) == len(top)


def test_tied_pirate_nodes_are_decided_by_the_draw_only() -> None:
    # replay of the dropped-draw counterexample in auto_pirates: the tied nodes have
    # equal Merchants and Expanded status, and only the random draw picks among them
    pirates = next(t for t in props.TIE_BREAKS if t.name == "Pirates")
    env = counterexample(props.unique_choice_claim(pirates, drop_last=True))
    offered = [i for i in range(4) if env[f"offered[{i}]"]]
    top = max((env[f"merchants[{i}]"], env[f"expanded[{i}]"]) for i in offered)
    tied = [i for i in offered if (env[f"merchants[{i}]"], env[f"expanded[{i}]"]) == top]
    assert len(tied) >= 2
    state = area_state(0, (0, 0))
    for i in tied:
        merchants = {PLAYER: env[f"merchants[{i}]"]} if env[f"merchants[{i}]"] else {}
        state.trade_nodes[f"node{i}"] = TradeNode(expanded=bool(env[f"expanded[{i}]"]),
                                                  merchants=merchants)  # fmt: skip
    picks = {auto_pirates(state, random.Random(seed), ResolutionLog()) for seed in range(40)}
    assert picks == {f"node{i}" for i in tied}


# ---------------------------------------------------------------------- concrete states


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(lambda xs: sum(xs) <= 5),
    st.integers(1, 7),
)
def test_every_legal_influence_choice_keeps_the_cap(counts: list[int], amount: int) -> None:
    state = area_state(counts[0], (counts[1], counts[2]))
    view = influence_view(state, PLAYER, amount, ["saxony"])
    for placed in view:
        for discards in discard_view(state, PLAYER, placed):
            move = fx.PlaceInfluence(placed.placed, discards)
            after = fx.apply_influence(state, PLAYER, amount, ["saxony"], move)
            influence = after.areas["saxony"].influence
            assert sum(influence.values()) <= eupop_state.INFLUENCE_PER_AREA
            assert all(n >= 0 for n in influence.values())
            assert not list(after.problems())


def test_the_catalogue_check_finds_events_with_no_effects_and_unknown_places() -> None:
    from legalis.model.eupop.events import catalogue_from_data, load_catalogue
    from legalis.verify.eupop import NO_EFFECTS, UNKNOWN_NAME, check_catalogue, verify_eupop

    assert check_catalogue(load_catalogue()) == ()
    deck = catalogue_from_data({"event": [
        {"id": "101B", "title": "Bare", "half": "1", "text": "Gain a Merchant."},
        {"id": "102B", "title": "Lost", "half": "1", "text": "Gain a G in Atlantis.",
         "effects": [{"op": "g", "areas": ["atlantis"]}]},
        {"id": "103B", "title": "Fine", "half": "1", "text": "Gain a G in Saxony.",
         "effects": [{"op": "g", "areas": ["saxony"]}]},
    ]})  # fmt: skip
    found = check_catalogue(deck)
    assert [(f.code, f.subject, f.severity) for f in found] == [
        (NO_EFFECTS, "event 101B", "error"), (UNKNOWN_NAME, "event 102B", "error")]  # fmt: skip
    assert found[0].words == "Gain a Merchant." and "atlantis" in found[1].message
    report = verify_eupop(deck)
    assert not report.ok and report.codes() == {NO_EFFECTS, UNKNOWN_NAME}
