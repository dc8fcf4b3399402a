"""Both directions of legality for the EU:PoP Standard Event choices (16.3)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.eupop import effects as fx
from legalis.model.eupop.state import EuState, state_from_json
from legalis.solver import eupop as views

from tests.model.test_eupop_effects import idea_state, make, with_realms


def brute_influence(state: EuState, player: str, amount: int, areas: list[str]) -> int:
    """Count placements straight from the text: 5 I per Area less one's own,
    as much as fits placed."""
    open_ = fx.influence_areas(state, areas)
    rooms = [5 - state.areas[a].influence.get(player, 0) for a in open_]
    best = min(amount, sum(rooms))
    return sum(1 for combo in product(*(range(r + 1) for r in rooms)) if sum(combo) == best)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 5), st.integers(0, 5), st.integers(0, 3), st.integers(0, 2), st.integers(1, 7)
)
def test_influence_count_matches_brute_force(fa: int, ea: int, fb: int, sb: int, n: int) -> None:
    in_a = (("france", fa), ("england", min(ea, 5 - fa)))
    areas = {"a": {"influence": {k: v for k, v in in_a if v}},
             "b": {"influence": {k: v for k, v in (("france", fb), ("spain", sb)) if v}},
             "c": {}}  # fmt: skip
    state = make(areas=areas)
    view = views.influence_view(state, "france", n, ["a", "b", "c"])
    assert view.count() == brute_influence(state, "france", n, ["a", "b", "c"])
    for index, placement in enumerate(view):
        assert view.nth(index) == placement and view.refusal(placement) is None
        discards = views.discard_view(state, "france", placement)
        assert discards.count() == len(list(discards))
        for choice in discards:
            move = fx.PlaceInfluence(placement.placed, choice)
            after = fx.apply_influence(state, "france", n, ["a", "b", "c"], move)
            state_from_json(after.to_json())  # no cap broken


def test_influence_refused_candidates() -> None:
    state = make()
    view = views.influence_view(state, "france", 2, ["a", "b", "c"])
    offered = set(view)
    for x, y in product(range(3), repeat=2):
        move = fx.PlaceInfluence(tuple((a, k) for a, k in (("a", x), ("b", y)) if k))
        refused = view.refusal(move)
        assert (refused is None) == (move in offered)
        if refused is not None:
            assert refused.rule == fx.INFLUENCE  # 16.3 Gain/place Influence


def test_discards_choose_whose() -> None:
    state = make()
    # 16.3 Gain/place Influence: 3 I into a (england 3, spain 1) needs 2 discarded:
    # england 2, or england 1 and spain 1
    discards = views.discard_view(state, "france", fx.PlaceInfluence((("a", 3),)))
    assert sorted(discards) == [
        (("a", "england", 1), ("a", "spain", 1)), (("a", "england", 2),)]  # fmt: skip
    assert discards.refusal((("a", "spain", 2),)) is not None


def both_directions(view: object, candidates: list[object], apply: object) -> None:
    offered = list(view)  # type: ignore[call-overload]
    for move in offered:
        assert view.refusal(move) is None  # type: ignore[attr-defined]
        state_from_json(apply(move).to_json())  # type: ignore[operator]
    for move in candidates:
        if move not in offered:
            refused = view.refusal(move)  # type: ignore[attr-defined]
            assert refused is not None and refused.rule.startswith("16.3")


def test_alliance_marriage_views() -> None:
    realms = make().to_json()["realms"]
    realms["france"]["alliance_markers"] = 0
    realms["npr3"] = {"kind": "npr", "ally": "france"}
    realms["npr4"] = {"kind": "npr", "ally": "france", "disputed_succession": True}
    state = make(realms=realms)
    view = views.alliance_view(state, "france", ["npr1", "npr2"])
    # 16.3 Gain Alliance: npr2 is a Vassal; the A comes back from npr3 only
    assert list(view) == [fx.GainAlliance("npr1", "npr3")]
    cands = [
        fx.GainAlliance(t, b) for t in ("npr1", "npr2", "npr3") for b in (None, "npr3", "npr4")
    ]
    both_directions(view, cands, lambda m: fx.apply_alliance(state, "france", m))
    married = views.marriage_view(state, "france", ["npr1", "npr2"])
    cands = [fx.GainMarriage(t, b) for t in ("npr1", "npr2") for b in (None, "npr3")]
    both_directions(married, cands, lambda m: fx.apply_marriage(state, "france", m))
    assert married.count() == 2


def test_simple_views() -> None:
    state = make()
    both_directions(views.g_view(state, "france", ["a", "b"]), [fx.GainG("c")],
                    lambda m: fx.apply_g(state, "france", m))  # fmt: skip
    town = views.town_view(state, "england", ["P1", "R1"])
    assert list(town) == [fx.GainTown("P1")]  # 16.3 Gain/place t or v: R1 has france's t
    both_directions(town, [fx.GainTown("R1"), fx.GainTown("Q1")],
                    lambda m: fx.apply_town(state, "england", m))  # fmt: skip
    develop = views.develop_view(state, "france")
    assert list(develop) == [fx.DevelopTown("R1")]
    both_directions(develop, [fx.DevelopTown("P1")], lambda m: fx.apply_develop(state, "france", m))
    merchant = views.merchant_view(state, "france")
    both_directions(merchant, ["gain"], lambda m: fx.apply_merchant(state, "france"))
    assert merchant.count() == 1
    assert views.merchant_view(fx.apply_merchant(state, "france"), "france").count() == 0
    assert list(views.ab_view(can_a=False, can_b=True)) == ["B"]
    assert views.inclusive_or_view(["x", "y"]).count() == 3


def test_units_view() -> None:
    realms = make().to_json()["realms"]
    realms["france"]["enemies"] = ["spain"]
    state = make(realms=realms, land_units={"spain": {"a": 1}})
    view = views.units_view(state, "france", 5, ["a", "b", "c"])
    # 16.3 Gain Military Unit: 3 Available, one location without Battle: b or c
    assert sorted(view, key=str) == [fx.GainUnits((("b", 3),)), fx.GainUnits((("c", 3),))]
    cands = [fx.GainUnits(((p, k),)) for p in "abc" for k in (1, 3, 5)]
    both_directions(view, cands, lambda m: fx.apply_units(state, "france", 5, ["a", "b", "c"], m))
    blocked = make(realms=realms, land_units={"spain": {"a": 1, "b": 1, "c": 1}})
    assert views.units_view(blocked, "france", 2, ["a", "b", "c"]).count() == 0


def test_action_and_reject_views() -> None:
    state = make()
    view = views.action_view(state, "france", "Declare War")
    # 16.3 Gain Action: take it immediately or decline
    assert list(view) == [fx.TakeAction("Declare War"), fx.TakeAction("Declare War", False)]
    cands: list[object] = [fx.TakeAction("Explore"), fx.TakeAction("Explore", False), "take"]
    both_directions(view, cands, lambda m: state)
    # 16.3 Reject Ruler: forced leaves one choice, offered two
    forced = views.reject_view(state, "france", forced=True)
    assert list(forced) == [fx.RejectRuler()]
    both_directions(forced, [fx.RejectRuler(False)],
                    lambda m: fx.apply_reject(state, "france", "X", m, forced=True)[0])  # fmt: skip
    assert views.reject_view(state, "france", forced=False).count() == 2


def test_research_view() -> None:
    state = idea_state()
    view = views.research_view(state, "france", "x1", "military")
    # 16.3 Research Idea: not Research, or Research and remove m2 (the only removable)
    assert list(view) == [fx.ResearchIdea("x1", False), fx.ResearchIdea("x1", True, "m2")]
    cands = [fx.ResearchIdea(i, r, x) for i in ("x1", "m2") for r in (True, False)
             for x in (None, "m1", "m2", "m3", "t1")]  # fmt: skip
    both_directions(
        view, cands, lambda m: fx.apply_research(state, "france", "x1", "military", m)[0]
    )
    shown = views.research_view(state, "france", "m3", "military")
    assert list(shown) == [fx.ResearchIdea("m3", False), fx.ResearchIdea("m3")]
    # t2 is france's already: only "not Research" remains
    assert list(views.research_view(state, "france", "t2", "trade")) == [
        fx.ResearchIdea("t2", False)]  # fmt: skip


def test_dnpr_view() -> None:
    realms = with_realms(saxon={"kind": "dnpr", "color": "green"})
    state = make(realms=realms)
    view = views.dnpr_view(state, "saxon", ["P1", "P2", "R1"], "P2")
    # 16.3 Placing DNPR tokens: one placement, R1's token beneath france's t
    assert list(view) == [fx.DnprPlacement("saxon", "P2", ("P1",), ("R1",), ())]
    other = fx.DnprPlacement("saxon", "P2", ("P1", "R1"), (), ())
    both_directions(view, [other], lambda m: fx.apply_dnpr(state, m))
    assert views.dnpr_view(state, "npr1", ["P1"], "P1").count() == 0


def test_terminate_view_counts() -> None:
    realms = with_realms(
        npr1={"ally": "france", "active_ally": True, "tax_income": 7},
        france={"manpower": 2, "enemies": ["spain"]},
    )
    state = make(realms=realms, land_units={"france": {"a": 2, "b": 1}})
    view = views.terminate_view(state, "france", "npr1")
    # 16.3 Terminate/Remove Alliance: lose 7 // 2 = 3 from Reserve (2), a (2) or b (1)
    brute = [(r, x, y) for r in range(3) for x in range(3) for y in range(2) if r + x + y == 3]
    assert view.count() == len(brute) == len(list(view))
    for index, move in enumerate(view):
        assert view.nth(index) == move
    cands = [
        fx.TerminateAlliance(
            realm, r, tuple((a, n) for a, n in (("a", x), ("b", y)) if n)
        )
        for realm in ("npr1", "npr2") for r in range(4) for x in range(4) for y in range(3)
    ]  # fmt: skip
    both_directions(view, cands, lambda m: fx.apply_terminate(state, "france", m))
    assert views.terminate_view(state, "england", "npr1").count() == 0


def test_war_view() -> None:
    state = make(realms=with_realms(npr1={"ally": "france"}))
    view = views.war_view(state, "france", ["npr1", "npr2", "spain"])
    # 16.3 Wars triggered by Events: the eligible targets; "no DoW" is refused
    assert list(view) == [fx.DeclareWar("france", "npr2"), fx.DeclareWar("france", "spain")]
    cands: list[object] = [None, fx.DeclareWar("france", "npr1"), fx.DeclareWar("spain", "npr2")]
    cands += [fx.DeclareWar("france", "npr2", (1, 2, 3)), fx.DeclareWar("france", "england")]
    both_directions(view, cands, lambda m: state)
    # no eligible target: the one choice is no DoW
    assert list(views.war_view(state, "france", ["npr1"])) == [None]
    passed = make(realms=with_realms(france={"passed": True}))
    assert list(views.war_view(passed, "france", ["npr2"])) == [None]
