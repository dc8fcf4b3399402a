"""Golden cases for the EU:PoP Standard Event effects (16.3), worked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.eupop import effects as fx
from legalis.model.eupop.state import EuState, Idea, state_from_json

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


def with_realms(**edits: dict[str, Any]) -> dict[str, Any]:
    realms: dict[str, Any] = make().to_json()["realms"]
    for name, fields in edits.items():
        realms.setdefault(name, {}).update(fields)
    return realms


def test_gain_action_turn_order() -> None:
    state = make()  # seats france, england, spain; england Active
    take = fx.TakeAction("Declare War")
    # 16.3 Gain Action: a non-Active beneficiary takes it now; the Active player then
    # finishes their Turn; play goes on clockwise (after england: spain)
    outcome = fx.resolve_action(state, "france", "Declare War", take)
    assert outcome == fx.ActionOutcome("Declare War", "france", "england", "spain")
    # 16.3 Gain Action: declining; the Active player's own Action has no Turn to resume
    declined = fx.resolve_action(
        state, "england", "Declare War", fx.TakeAction("Declare War", False)
    )
    assert declined == fx.ActionOutcome("Declare War", None, None, "spain")
    # option skip_passed: spain has Passed, so france is next
    passed = make(realms=with_realms(spain={"passed": True}))
    assert fx.resolve_action(passed, "france", "Declare War", take).next_turn == "france"
    # 16.3 Gain Action: only the Action in bold italics on the Event
    refused = fx.refuse_action(state, "france", "Declare War", fx.TakeAction("Explore"))
    assert refused is not None and refused.rule == fx.ACTION
    assert fx.refuse_action(state, "npr1", "Declare War", take) is not None


def idea_state(**fields: Any) -> EuState:
    display = {
        "military": [{"name": "m1", "basic": True}, {"name": "m2"},
                     {"name": "m3", "picked_by": ["spain"]}],
        "trade": [{"name": "t1"}, {"name": "t2", "picked_by": ["france"]}, None],
    }  # fmt: skip
    display.update(fields.pop("display", {}))
    return make(idea_display=display, idea_deck=["x1", "t9"], **fields)


def test_research_idea_on_display_scores() -> None:
    state = idea_state()
    # 16.3 Research Idea: you and any Opponent who has the Idea already score 0
    after, scores = fx.apply_research(state, "france", "m3", "military", fx.ResearchIdea("m3"))
    assert scores == (
        fx.ResearchScore("france", "france", 0),
        fx.ResearchScore("france", "spain", 0),
    )
    assert after.idea_display["military"][2] == Idea(name="m3", picked_by=["spain", "france"])
    roundtrip(after)
    # an Idea on display removes none; one you have cannot be Researched again
    refused = fx.refuse_research(
        state, "france", "m3", "military", fx.ResearchIdea("m3", True, "m2")
    )
    assert refused is not None and refused.rule == fx.RESEARCH
    assert fx.refuse_research(after, "france", "m3", "military", fx.ResearchIdea("m3")) is not None
    # choosing not to Research changes nothing and scores nothing
    same, none = fx.apply_research(state, "france", "m3", "military", fx.ResearchIdea("m3", False))
    assert same == state and none == ()


def test_research_idea_off_display_replaces() -> None:
    state = idea_state()
    # 16.3 Research Idea: not on display: remove an unpicked non-Basic Idea of the type
    # (m1 is Basic, m3 picked: only m2), which goes back to the deck
    assert fx.removable_ideas(state, "military") == ["m2"]
    after, scores = fx.apply_research(
        state, "england", "x1", "military", fx.ResearchIdea("x1", True, "m2")
    )
    assert after.idea_display["military"][1] == Idea(name="x1", picked_by=["england"])
    assert sorted(after.idea_deck) == ["m2", "t9"]
    assert scores == (fx.ResearchScore("england", "england", 0),)
    roundtrip(after)
    for remove in (None, "m1", "m3"):
        move = fx.ResearchIdea("x1", True, remove)
        assert fx.refuse_research(state, "england", "x1", "military", move) is not None


def test_research_idea_new_row() -> None:
    column = [{"name": "m1", "basic": True}, {"name": "m2", "picked_by": ["spain"]}, None]
    state = idea_state(display={"military": column})
    # 16.3 Research Idea: no unpicked non-Basic military Idea: none is removed
    assert fx.refuse_research(state, "france", "x1", "military", fx.ResearchIdea("x1", True, "m2"))
    # option fill_empty_slot (default): the column's empty slot is used first
    after, _ = fx.apply_research(state, "france", "x1", "military", fx.ResearchIdea("x1"))
    assert after.idea_display["military"][2] == Idea(name="x1", picked_by=["france"])
    # 16.3 Research Idea: "create a new row in the Idea display"
    options = fx.EffectOptions(fill_empty_slot=False)
    row, _ = fx.apply_research(state, "france", "x1", "military", fx.ResearchIdea("x1"), options)
    assert [len(c) for c in row.idea_display.values()] == [4, 4]
    assert row.idea_display["military"][3] is not None and row.idea_display["trade"][3] is None
    roundtrip(row)


def test_research_idea_several_players() -> None:
    state = idea_state()
    moves = {"france": fx.ResearchIdea("x1"), "england": fx.ResearchIdea("x1", True, "m2")}
    # 16.3 Research Idea: several players Research the same Idea: all score 0, the
    # Active player (england) first; france then scores with england, who has it
    after, scores = fx.research_all(state, "x1", "military", moves)
    assert scores == (
        fx.ResearchScore("england", "england", 0),
        fx.ResearchScore("france", "france", 0),
        fx.ResearchScore("france", "england", 0),
    )
    assert after.idea_display["military"][1] == Idea(name="x1", picked_by=["england", "france"])


def test_idea_display_checked() -> None:
    with pytest.raises(InputError, match="twice"):
        make(idea_display={"trade": [{"name": "t1"}]}, idea_deck=["t1"])
    with pytest.raises(InputError, match="same rows"):
        make(idea_display={"trade": [{"name": "t1"}], "military": []})


def test_dnpr_tokens() -> None:
    realms = with_realms(
        saxon={"kind": "dnpr", "color": "green"}, france={"core_provinces": ["Q1"]}
    )
    state = make(realms=realms)
    listed = ["P1", "P2", "R1", "Q1"]
    placement = fx.dnpr_placement(state, "saxon", listed, "P2")
    # 16.3 Placing DNPR tokens: the capital-C token on the Capital (P2); under france's t
    # on R1; never on a PR's Core Province (Q1)
    assert placement == fx.DnprPlacement("saxon", "P2", ("P1",), ("R1",), ("Q1",))
    after = fx.apply_dnpr(state, placement)
    assert after.provinces["P2"].dnpr_token == "saxon" and after.realms["saxon"].capital == "P2"
    assert after.provinces["P1"].owner == "saxon"
    # 16.3 Placing DNPR tokens: a t/v with a token beneath it is a Core Province of the DNPR
    assert after.provinces["R1"].town_of == "france" and after.realms["saxon"].core_provinces == [
        "R1"
    ]
    assert after.provinces["Q1"].dnpr_token is None
    roundtrip(after)
    # "unless stated otherwise on the card"
    no_under = fx.dnpr_placement(state, "saxon", listed, "P2", under_towns=False)
    assert no_under.beneath == () and "R1" in no_under.skipped
    refused = fx.refuse_dnpr(state, "npr1", listed, "P2")
    assert refused is not None and refused.rule == fx.DNPR
    assert fx.refuse_dnpr(state, "saxon", ["P1"], "P2") is not None


def terminate_state(active: bool = True) -> EuState:
    realms = with_realms(
        npr1={"ally": "france", "active_ally": active},
        france={"manpower": 1, "enemies": ["spain"]},
    )
    return make(realms=realms, land_units={"france": {"a": 2}})


def test_terminate_active_ally() -> None:
    state = terminate_state()
    # 16.3 Terminate/Remove Alliance: Active Ally with pre-War Tax Income 5: lose 5 // 2 = 2
    # Allied Units (option loss_rounding "down"), from Reserve or Armies
    assert fx.alliance_loss(state, "france", "npr1") == 2
    assert fx.alliance_loss(state, "france", "npr1", fx.EffectOptions(loss_rounding="up")) == 3
    move = fx.TerminateAlliance("npr1", 1, (("a", 1),))
    after = fx.apply_terminate(state, "france", move)
    assert after.realms["npr1"].ally is None and not after.realms["npr1"].active_ally
    assert after.realms["france"].manpower == 0 and after.land_units["france"] == {"a": 1}
    # 16.3 Terminate/Remove Alliance: the PR Enemies (spain) place War tokens on it
    assert after.realms["npr1"].enemies == ["spain"] and after.realms["npr1"].at_war
    assert after.realms["france"].alliance_markers == 2  # option terminated_alliance_returns
    roundtrip(after)
    for bad in (
        fx.TerminateAlliance("npr1", 2),
        fx.TerminateAlliance("npr1", 1, (("a", 2),)),
        fx.TerminateAlliance("npr1", 0, (("b", 2),)),
    ):
        refused = fx.refuse_terminate(state, "france", bad)
        assert refused is not None and refused.rule == fx.TERMINATE
    assert fx.refuse_terminate(state, "england", fx.TerminateAlliance("npr1")) is not None


def test_terminate_plain_alliance() -> None:
    state = terminate_state(active=False)
    # 16.3 Terminate/Remove Alliance: not an Active Ally: only the A goes
    after = fx.apply_terminate(state, "france", fx.TerminateAlliance("npr1"))
    assert after.realms["npr1"].ally is None and after.realms["npr1"].enemies == []
    assert after.realms["france"].manpower == 1
    assert fx.refuse_terminate(state, "france", fx.TerminateAlliance("npr1", 1)) is not None


def test_reject_ruler() -> None:
    rulers = [{"name": "Louis", "role": "ruler"}, {"name": "Mazarin", "role": "advisor"}]
    state = make(realms=with_realms(france={"characters": rulers}))
    # 16.3 Reject Ruler: the current Ruler and the Event's new Ruler are both discarded
    after, gone = fx.apply_reject(state, "france", "Henri", fx.RejectRuler(), forced=True)
    assert gone == ("Louis", "Henri")
    assert [c.name for c in after.realms["france"].characters] == ["Mazarin"]
    roundtrip(after)
    # forced: not rejecting is refused; offered: keeping changes nothing
    refused = fx.refuse_reject(state, "france", fx.RejectRuler(False), forced=True)
    assert refused is not None and refused.rule == fx.REJECT
    kept, none = fx.apply_reject(state, "france", "Henri", fx.RejectRuler(False), forced=False)
    assert kept == state and none == ()


def test_event_wars() -> None:
    state = make(realms=with_realms(npr1={"ally": "france"}))
    # 16.3 Wars triggered by Events: only steps 3-7 of the Declare War sequence
    assert fx.event_war(state, "france", "npr2") == fx.DeclareWar("france", "npr2", (3, 4, 5, 6, 7))
    # option dow_allowed: not on your own Ally (npr1) or Vassal (england's npr2): no DoW
    assert fx.event_war(state, "france", "npr1") is None
    assert fx.event_war(state, "england", "npr2") is None
    # 16.3 Wars triggered by Events: a PR that has Passed cannot Declare War via an Event
    passed = make(realms=with_realms(france={"passed": True}))
    refused = fx.war_ineligible(passed, "france", "npr2")
    assert refused is not None and refused.rule == fx.WAR and "Passed" in refused.reason
    # 16.3 Wars triggered by Events: an NPR Aggressor declares ("you" reads "the NPR")
    assert fx.event_war(state, "npr1", "france") == fx.DeclareWar("npr1", "france")
    # 16.3 Wars triggered by Events: an eligible target must be selected if possible
    assert fx.refuse_war(state, "france", ["npr1", "npr2"], None) is not None
    assert fx.refuse_war(state, "france", ["npr1"], None) is None
