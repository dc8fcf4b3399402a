"""Golden cases for the EU:PoP Standard Event effects (16.3), worked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop import effects as fx
from legalis.model.eupop.state import EuState, state_from_json

MAP = {
    "area": [
        {"id": "a", "provinces": ["P1", "P2"], "borders": ["b"]},
        {"id": "b", "provinces": ["Q1"], "borders": ["a", "c"]},
        {"id": "c", "provinces": ["R1"], "borders": ["b"]},
    ],
    "sea": [{"id": "s", "mark": "none", "areas": ["a", "c"]}],
}


def make(**changes: Any) -> EuState:
    raw: dict[str, Any] = {
        "players": ["france", "england", "spain"],
        "active": "england",
        "map": MAP,
        "realms": {
            "france": {
                "kind": "player",
                "alliance_markers": 1,
                "marriage_markers": 1,
                "merchants": 2,
                "units_available": 3,
            },
            "england": {"kind": "player", "alliance_markers": 0},
            "spain": {"kind": "player"},
            "npr1": {"kind": "npr", "capital": "P2", "tax_income": 5},
            "npr2": {"kind": "npr", "status": "vassal", "overlord": "england"},
        },
        "provinces": {
            "P1": {"owner": "npr1"},
            "P2": {"owner": "npr1", "capital": True},
            "Q1": {"owner": "npr2"},
            "R1": {"owner": "france", "town": "small", "town_of": "france"},
        },
        "areas": {"a": {"influence": {"england": 3, "spain": 1}}, "b": {}, "c": {}},
    }
    for key, value in changes.items():
        raw[key] = value
    return state_from_json(raw)


def roundtrip(state: EuState) -> None:
    assert state_from_json(state.to_json()) == state


def test_influence_only_where_an_npr_or_vassal_owns() -> None:
    state = make()
    # 16.3 Gain/place Influence: Areas a (NPR) and b (Vassal Realm) qualify; c (a PR's) not
    assert fx.influence_areas(state, ["a", "b", "c"]) == ["a", "b"]
    move = fx.PlaceInfluence((("c", 1),))
    refused = fx.refuse_influence(state, "france", 1, ["a", "b", "c"], move)
    assert refused is not None and refused.rule == fx.INFLUENCE


def test_influence_discards_opponents_to_fit() -> None:
    state = make()
    # 16.3 Gain/place Influence: a holds 4 I; placing 3 needs 2 Opponent I discarded
    move = fx.PlaceInfluence((("a", 3),), (("a", "england", 1), ("a", "spain", 1)))
    after = fx.apply_influence(state, "france", 3, ["a"], move)
    assert after.areas["a"].influence == {"england": 2, "france": 3}
    assert state.areas["a"].influence == {"england": 3, "spain": 1}
    roundtrip(after)
    # discarding more than required is refused
    greedy = fx.PlaceInfluence((("a", 3),), (("a", "england", 3),))
    assert fx.refuse_influence(state, "france", 3, ["a"], greedy) is not None
    # placing fewer than fit is refused: the effect is carried out as far as it can be
    short = fx.PlaceInfluence((("a", 1),))
    refused = fx.refuse_influence(state, "france", 3, ["a"], short)
    assert refused is not None and "fit" in refused.reason


def test_alliance_targets() -> None:
    state = make()
    # 16.3 Gain Alliance: npr1 is Independent and at Peace; npr2 is a Vassal: ignored
    assert fx.refuse_alliance(state, "france", fx.GainAlliance("npr1")) is None
    refused = fx.refuse_alliance(state, "france", fx.GainAlliance("npr2"))
    assert refused is not None and refused.rule == fx.ALLIANCE and "ignored" in refused.reason
    after = fx.apply_alliance(state, "france", fx.GainAlliance("npr1"))
    assert after.realms["npr1"].ally == "france" and after.realms["france"].alliance_markers == 0
    roundtrip(after)


def test_alliance_replacement_needs_as_much_influence() -> None:
    realms = make().to_json()["realms"]
    realms["npr1"]["ally"] = "spain"
    realms["england"]["alliance_markers"] = 1
    state = make(realms=realms)
    # 16.3 Gain Alliance: england has 3 I in a against spain's 1: may replace
    after = fx.apply_alliance(state, "england", fx.GainAlliance("npr1"))
    assert after.realms["npr1"].ally == "england"
    assert after.realms["spain"].alliance_markers == 1  # option replaced_alliance_returns
    roundtrip(after)
    # france has 0 I against spain's 1: refused
    refused = fx.refuse_alliance(state, "france", fx.GainAlliance("npr1"))
    assert refused is not None and "at least" in refused.reason


def test_alliance_take_back_from_map() -> None:
    realms = make().to_json()["realms"]
    realms["france"]["alliance_markers"] = 0
    realms["npr3"] = {"kind": "npr", "ally": "france"}
    realms["npr4"] = {"kind": "npr", "ally": "france", "active_ally": True}
    state = make(realms=realms)
    # 16.3 Gain Alliance: with no A available, take one from the map, not an Active Ally
    assert fx.refuse_alliance(state, "france", fx.GainAlliance("npr1", "npr3")) is None
    refused = fx.refuse_alliance(state, "france", fx.GainAlliance("npr1", "npr4"))
    assert refused is not None and "Active Ally" in refused.reason
    after = fx.apply_alliance(state, "france", fx.GainAlliance("npr1", "npr3"))
    assert after.realms["npr3"].ally is None and after.realms["npr1"].ally == "france"
    roundtrip(after)


def test_marriage() -> None:
    state = make()
    # 16.3 Gain Royal Marriage: default eligibility: an NPR not Annexed, no M of yours yet
    after = fx.apply_marriage(state, "france", fx.GainMarriage("npr1"))
    assert after.realms["npr1"].marriages == ["france"]
    assert fx.refuse_marriage(after, "france", fx.GainMarriage("npr1")) is not None
    roundtrip(after)


def test_g_one_per_area() -> None:
    state = fx.apply_g(make(), "france", fx.GainG("a"))
    # 16.3 Gain G: only 1 G in each Area
    refused = fx.refuse_g(state, "france", fx.GainG("a"))
    assert refused is not None and refused.rule == fx.G_RULE
    assert fx.refuse_g(state, "england", fx.GainG("a")) is None


def test_town_and_develop() -> None:
    state = make()
    # 16.3 Gain/place t or v: P1 is free; R1 already has france's t
    after = fx.apply_town(state, "england", fx.GainTown("P1"))
    assert after.provinces["P1"].town_of == "england"
    assert fx.refuse_town(state, "england", fx.GainTown("R1")) is not None
    roundtrip(after)
    # 16.3 Develop: one of your own Small t
    developed = fx.apply_develop(state, "france", fx.DevelopTown("R1"))
    assert developed.provinces["R1"].town == "large"
    assert fx.refuse_develop(state, "england", fx.DevelopTown("R1")) is not None
    with pytest.raises(IllegalMoveError):
        fx.apply_develop(developed, "france", fx.DevelopTown("R1"))


def test_merchant() -> None:
    state = make()
    # 16.3 Gain Merchant: a third with exactly 2; never a fourth
    third = fx.apply_merchant(state, "france")
    assert third.realms["france"].merchants == 3
    assert fx.refuse_merchant(third, "france") is not None


def test_units_avoid_battle() -> None:
    realms = make().to_json()["realms"]
    realms["france"]["enemies"] = ["spain"]
    state = make(realms=realms, land_units={"spain": {"a": 2}})
    # 16.3 Gain Military Unit: a holds Units of spain, at War with france
    assert fx.unit_places(state, "france", ["a", "b"], ships=False) == ["b"]
    after = fx.apply_units(state, "france", 2, ["a", "b"], fx.GainUnits((("b", 2),)))
    assert after.land_units["france"] == {"b": 2} and after.realms["france"].units_available == 1
    refused = fx.refuse_units(state, "france", 2, ["a", "b"], fx.GainUnits((("a", 2),)))
    assert refused is not None and "Battle" in refused.reason
    roundtrip(after)


def test_general_guidelines() -> None:
    state = make()
    # 16.3 General: clockwise from the Active player (england)
    assert fx.resolution_order(state, ["france", "spain", "england"]) == [
        "england", "spain", "france"]  # fmt: skip
    # 16.3 General: A)/B): forced when one side cannot be met; either when neither
    assert fx.ab_options(can_a=True, can_b=False) == ("A",)
    assert fx.ab_options(can_a=False, can_b=False) == ("A", "B")
    # 16.3 General: "or" is inclusive
    assert len(list(fx.inclusive_or(["x", "y", "z"]))) == 7
    assert fx.chooser(state, "npr1") is None and fx.npr_answer()
