"""Both directions of legality for the EU:PoP Standard Event choices (16.3)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.eupop import effects as fx
from legalis.model.eupop.state import EuState, state_from_json
from legalis.solver import eupop as views

from tests.model.test_eupop_effects import make


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
