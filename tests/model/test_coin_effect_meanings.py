"""The meaning of the grown effect language: golden examples worked from rules
section 5 of both games (and the rules each effect touches), one per new effect
or field, a JSON round trip of a state carrying every new record, and random
sides that must never crash the interpreter."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legalis.model.coin.effects import Amount, side_from_toml
from legalis.model.coin.interpret import (
    CHANCE,
    Context,
    OptionChoice,
    PieceChoice,
    Run,
    amount_value,
    condition_holds,
    resume,
    start,
    within,
)
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.schema import state_document_model
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.errors import InputError, SolverLimitError
from legalis.model.lod.victory import check_margins
from legalis.solver.events import selections


def run(state: CoinState, *effects: dict[str, Any], faction: str = "british") -> Run:
    return start(state, side_from_toml({"effects": list(effects)}), Context(faction, 1, "unshaded"))


def named(*names: str, **where: Any) -> dict[str, Any]:
    return {"filter": {"is": "named", "names": list(names)}, **where}


def pick(decision: Any, *atoms: tuple[str, str, int]) -> Any:
    assert isinstance(decision, PieceChoice)
    return decision.selection(atoms)


def finish(current: Run) -> Run:
    """Take the first option of every option decision; fails on a piece decision."""
    while not current.finished:
        assert isinstance(current.decision, OptionChoice), current.decision
        current = resume(current, current.decision.first)
    return current


# ---------------------------------------------------------------------- counts and amounts


def test_all_takes_every_matching_piece() -> None:
    # 5.1.3: "Remove all Tories from Boston" must remove every one of the three.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 3)
    current = run(
        state,
        {"op": "remove", "pieces": ["tory"], "count": {"all": True}, "where": named("Boston")},
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert (decision.per_space, decision.up_to, decision.room) == (3, False, ((3,),))
    done = resume(current, pick(decision, ("Boston", "tory", 3)))
    assert done.state.pieces("Boston", "tory") == 0


def test_at_least_is_a_minimum_under_up_to() -> None:
    # "Remove 2-3 Tories": a choice of 2 or 3 pieces; Count keeps the minimum.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 4)
    current = run(
        state,
        {
            "op": "remove",
            "pieces": ["tory"],
            "count": {"n": 3, "up_to": True, "at_least": 2},
            "where": named("Boston"),
        },
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert (decision.at_least, decision.up_to, decision.per_space) == (2, True, 3)
    assert decision.constrained


def test_an_amount_count_is_read_when_the_effect_runs() -> None:
    # "Place 1 Militia per 2 Villages on the map (round down)": 5 Villages -> 2 Militia;
    # the first effect adds a sixth Village before the count is read: 3.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Quebec", "village", 2)
    state.move_pieces("Available", "Northwest", "village", 2)
    state.move_pieces("Available", "Southwest", "village", 1)
    per_two = {"quantity": {"of": "pieces", "pieces": ["village"]}, "per": 2}
    place = {
        "op": "place",
        "pieces": ["militia"],
        "count": {"amount": per_two},
        "where": named("Virginia"),
    }
    assert run(state, place).decision.per_space == 2  # type: ignore[union-attr]
    village = {"op": "place", "pieces": ["village"], "where": named("Florida")}
    current = run(state, village, place)
    current = resume(current, pick(current.decision, ("Florida", "village", 1)))
    assert current.decision.per_space == 3  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("trail", "raw", "expected"),
    [
        (3, {"per": 2}, 1),  # half, rounding down
        (3, {"per": 2, "round": "up"}, 2),  # half, rounding up
        (3, {"times": 4}, 12),  # "4 times the Trail value"
        (3, {"per": 3, "plus": 1}, 2),  # "+1 per 3 ... plus 1"
        (0, {"times": 2, "plus": -1}, -1),
    ],
)
def test_amount_rounding_times_and_plus(trail: int, raw: dict[str, Any], expected: int) -> None:
    state = CoinState.new("fitl")
    state.set_track("trail", trail)
    amount = Amount.model_validate({"quantity": {"of": "track", "track": "trail"}, **raw})
    assert amount_value(state, amount, Context("nva")) == expected


def test_every_quantity_kind_reads_the_state() -> None:
    state = load_scenario("lod", "1775")
    context = Context("patriots").bind("r1", 4).bind("s1", ("Boston", "Quebec"))
    cities = {"is": "type", "types": ["City"]}

    def value(quantity: dict[str, Any]) -> int:
        return amount_value(state, Amount.model_validate({"quantity": quantity}), context)

    on_map = sum(state.pieces(s, "tory") for s in state.rules.spaces)
    assert value({"of": "pieces", "pieces": ["tory"]}) == on_map
    assert value({"of": "pieces", "pieces": ["tory"], "box": "available"}) == state.available(
        "tory"
    )
    assert value({"of": "spaces", "filter": cities}) == 7
    assert value({"of": "population", "filter": named("Boston", "Quebec")["filter"]}) == sum(
        state.rules.map.space(s).population for s in ("Boston", "Quebec")
    )
    assert value({"of": "track", "track": "executing_resources"}) == state.track(
        "patriots_resources"
    )
    assert value({"of": "markers", "marker": "propaganda"}) == sum(
        state.markers(s, "propaganda") for s in state.rules.spaces
    )
    assert value({"of": "cards", "list": "brilliant_strokes"}) == len(
        state.card_list("brilliant_strokes")
    )
    assert value({"of": "bound", "name": "r1"}) == 4
    assert value({"of": "bound", "name": "s1"}) == 2  # "per space selected"
    # 7.2: the smaller of the Patriots' two Victory Check margins
    assert value({"of": "victory", "faction": "Patriots"}) == min(check_margins(state)["patriots"])
    assert value({"of": "victory", "faction": "executing"}) == min(check_margins(state)["patriots"])


def test_fitl_victory_margin_is_score_over_threshold() -> None:
    # FitL 7.2: NVA score is NVA-Controlled population plus NVA Bases, over 18.
    state = CoinState.new("fitl")
    state.move_pieces("Available", "Quang Tri-Thua Thien", "nva_base", 1)
    state.move_pieces("Available", "Quang Tri-Thua Thien", "nva_troop", 2)
    population = state.rules.map.space("Quang Tri-Thua Thien").population
    amount = Amount.model_validate({"quantity": {"of": "victory", "faction": "nva"}})
    assert amount_value(state, amount, Context("us")) == population + 1 - 18


def test_adjust_by_an_amount_and_its_sign() -> None:
    # "Patriot Resources +1 per Colony with Militia", "British Resources -1 per ...":
    # never below 0 (5.1.1).
    state = CoinState.new("lod")
    for colony in ("Virginia", "Georgia"):
        state.move_pieces("Available", colony, "militia", 1)
    state.set_track("british_resources", 1)
    per_colony = {
        "quantity": {
            "of": "spaces",
            "filter": {
                "is": "all",
                "filters": [
                    {"is": "type", "types": ["Colony"]},
                    {"is": "pieces", "pieces": ["militia"]},
                ],
            },
        }
    }
    done = run(
        state,
        {"op": "adjust", "track": "executing_resources", "amount": per_colony},
        {"op": "adjust", "track": "british_resources", "amount": per_colony, "delta": -1},
        faction="patriots",
    )
    assert done.finished
    assert done.state.track("patriots_resources") == 2
    assert done.state.track("british_resources") == 0  # 5.1.1: not below 0


def test_set_track_modes_are_clamped() -> None:
    # FitL 1.8: the Trail runs 0-4, Aid 0-75; "improve the Trail to 3" only raises it.
    state = CoinState.new("fitl")
    state.set_track("trail", 2)
    state.set_track("aid", 30)
    done = run(
        state,
        {"op": "set_track", "track": "trail", "value": 3, "mode": "at_least"},
        {"op": "set_track", "track": "trail", "value": 1, "mode": "at_least"},
        {
            "op": "set_track",
            "track": "aid",
            "value": {"quantity": {"of": "track", "track": "aid"}, "per": 2},
        },  # "cut Aid to half"
        {"op": "set_track", "track": "nva_resources", "value": 99},
        {"op": "set_track", "track": "patronage", "value": 0, "mode": "at_most"},
        faction="nva",
    )
    tracks = done.state
    assert (tracks.track("trail"), tracks.track("aid"), tracks.track("nva_resources")) == (
        3,
        15,
        75,
    )
    assert tracks.track("patronage") == 0


def test_quantity_compare_condition() -> None:
    # "If Aid exceeds Patronage, ..." and "on a roll of 1-3".
    state = CoinState.new("fitl")
    state.set_track("aid", 10)
    state.set_track("patronage", 5)
    aid = {"quantity": {"of": "track", "track": "aid"}}
    patronage = {"quantity": {"of": "track", "track": "patronage"}}
    side = side_from_toml(
        {
            "effects": [
                {
                    "op": "if",
                    "condition": {"if": "compare", "left": aid, "compare": ">", "right": patronage},
                    "then": [{"op": "adjust", "track": "aid", "delta": 1}],
                }
            ]
        }
    )
    condition = side.effects[0].condition  # type: ignore[union-attr]
    assert condition_holds(state, condition, Context("us"))
    state.set_track("patronage", 10)
    assert not condition_holds(state, condition, Context("us"))


# ---------------------------------------------------------------------- filters and bindings


def test_select_binds_one_space_shared_by_later_clauses() -> None:
    # "In one City with Tories, place 2 Militia and remove 1 Tory there": one choice,
    # shared; before binding, two "in one City" clauses picked two spaces.
    state = CoinState.new("lod")
    for city in ("Boston", "Norfolk"):
        state.move_pieces("Available", city, "tory", 1)
    there = {"filter": {"is": "bound", "name": "s1"}}
    current = run(
        state,
        {
            "op": "select",
            "bind": "s1",
            "where": {
                "filter": {
                    "is": "all",
                    "filters": [
                        {"is": "type", "types": ["City"]},
                        {"is": "pieces", "pieces": ["tory"]},
                    ],
                },
                "spaces": 1,
            },
        },
        {"op": "place", "pieces": ["militia"], "count": 2, "where": there},
        {"op": "remove", "pieces": ["tory"], "where": there},
        faction="patriots",
    )
    select = current.decision
    assert isinstance(select, PieceChoice)
    assert (select.spaces, select.types, select.max_spaces) == (
        ("Boston", "Norfolk"),
        ("space",),
        1,
    )
    current = resume(current, pick(select, ("Norfolk", "space", 1)))
    assert current.decision.spaces == ("Norfolk",)  # type: ignore[union-attr]
    current = resume(current, pick(current.decision, ("Norfolk", "militia", 2)))
    assert current.decision.spaces == ("Norfolk",)  # type: ignore[union-attr]
    assert current.context.bound("s1") == ("Norfolk",)
    assert current.state.pieces("Boston", "militia") == 0


def test_select_of_every_matching_space_binds_them_all() -> None:
    state = CoinState.new("lod")
    done = run(
        state,
        {"op": "select", "bind": "s1", "where": {"filter": {"is": "type", "types": ["Reserve"]}}},
    )
    assert done.finished
    assert done.context.bound("s1") == ("Quebec", "Northwest", "Southwest", "Florida")


def test_where_bind_names_the_spaces_acted_in_and_bind_the_pieces_taken() -> None:
    # "Remove up to 3 Tories from Colonies; British Resources -1 for each; shift
    # each of those Colonies toward Opposition."
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "tory", 2)
    state.move_pieces("Available", "Georgia", "tory", 2)
    state.set_track("british_resources", 10)
    current = run(
        state,
        {
            "op": "remove",
            "pieces": ["tory"],
            "count": {"n": 3, "up_to": True},
            "bind": "r1",
            "where": {
                "filter": {"is": "type", "types": ["Colony"]},
                "per_space": False,
                "bind": "s1",
            },
        },
        {
            "op": "adjust",
            "track": "british_resources",
            "delta": -1,
            "amount": {"quantity": {"of": "bound", "name": "r1"}},
        },
        {"op": "shift", "levels": -1, "where": {"filter": {"is": "bound", "name": "s1"}}},
        faction="patriots",
    )
    current = resume(current, pick(current.decision, ("Virginia", "tory", 1)))
    assert current.context.bound("r1") == 1
    assert current.context.bound("s1") == ("Virginia",)
    assert current.state.track("british_resources") == 9
    assert current.decision.spaces == ("Virginia",)  # type: ignore[union-attr]


def test_nothing_done_binds_nothing() -> None:
    # 5.1.3: an effect that could do nothing binds no space, and "there" is then empty.
    done = run(
        CoinState.new("lod"),
        {"op": "remove", "pieces": ["tory"], "bind": "r1", "where": {"bind": "s1"}},
        {"op": "place", "pieces": ["militia"], "where": {"filter": {"is": "bound", "name": "s1"}}},
        faction="patriots",
    )
    assert done.finished
    assert (done.context.bound("r1"), done.context.bound("s1")) == (0, ())


def test_adjacent_within_a_distance_and_markers_present() -> None:
    state = CoinState.new("lod")
    near = within(state, "Florida", 2, include_self=False)
    assert "Florida" not in near and "South Carolina" in near  # 2 steps, via Georgia
    assert set(within(state, "Florida", 1, include_self=False)) == {"Georgia", "Southwest"}
    state.add_marker("Virginia", "propaganda")
    side = side_from_toml(
        {
            "effects": [
                {
                    "op": "shift",
                    "levels": 1,
                    "where": {
                        "filter": {
                            "is": "adjacent",
                            "distance": 1,
                            "include_self": True,
                            "filter": {"is": "markers", "marker": "propaganda"},
                        }
                    },
                }
            ]
        }
    )
    choice = start(state, side, Context("british")).decision
    assert isinstance(choice, PieceChoice)
    assert "Virginia" in choice.spaces
    assert set(choice.spaces) == {"Virginia", *state.rules.map.adjacent("Virginia")} & set(
        choice.spaces
    )


# ---------------------------------------------------------------------- pieces


def test_relative_pieces_follow_the_executing_faction() -> None:
    # "Remove 1 enemy piece": for the British, Rebellion pieces only (LoD 1.5 sides).
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 1)
    state.move_pieces("Available", "Boston", "continental", 1)
    effect = {
        "op": "remove",
        "pieces": ["tory", "continental"],
        "relative": "enemy",
        "where": named("Boston"),
    }
    assert run(state, effect, faction="british").decision.types == ("continental",)  # type: ignore[union-attr]
    assert run(state, effect, faction="patriots").decision.types == ("tory",)  # type: ignore[union-attr]
    own = {**effect, "relative": "own"}
    assert run(state, own, faction="indians").finished  # no Indian piece listed


def test_last_types_wait_until_the_others_are_gone() -> None:
    # "Remove 1 Tory or Fort, Forts last": with a Tory present the Fort stays.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 1)
    state.move_pieces("Available", "Boston", "british_fort", 1)
    current = run(
        state,
        {
            "op": "remove",
            "pieces": ["tory", "british_fort"],
            "last": ["british_fort"],
            "where": named("Boston"),
        },
        faction="patriots",
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert decision.constraint_refusal(pick(decision, ("Boston", "british_fort", 1))) is not None
    assert decision.constraint_refusal(pick(decision, ("Boston", "tory", 1))) is None


def test_limits_cap_a_type_inside_the_group() -> None:
    state = CoinState.new("lod")
    current = run(
        state,
        {
            "op": "place",
            "pieces": ["tory", "british_fort"],
            "count": 3,
            "limits": [{"pieces": ["british_fort"], "at_most": 1}],
            "where": named("Virginia"),
        },
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert decision.constraint_refusal(pick(decision, ("Virginia", "british_fort", 2))) is not None
    assert (
        decision.constraint_refusal(
            pick(decision, ("Virginia", "british_fort", 1), ("Virginia", "tory", 2))
        )
        is None
    )


def test_replace_by_a_ratio_and_relative_replacements() -> None:
    # "Replace every Tory in Boston with 2 friendly pieces" (Patriots: Militia),
    # as far as Available pieces allow (5.1.1).
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 1)
    current = run(
        state,
        {
            "op": "replace",
            "pieces": ["tory"],
            "by": ["militia", "tory"],
            "by_relative": "friendly",
            "ratio": [1, 2],
            "where": named("Boston"),
        },
        faction="patriots",
    )
    done = resume(current, pick(current.decision, ("Boston", "tory", 1)))
    assert done.state.pieces("Boston", "tory") == 0
    assert done.state.pieces("Boston", "militia") == 2


def test_tunnel_is_limited_by_the_six_markers() -> None:
    # FitL 1.4.4: six Tunnel markers; with five on the map, one more Base only.
    state = CoinState.new("fitl")
    state.move_pieces("Available", "Tay Ninh", "vc_base", 2)
    for province in ("Quang Tri-Thua Thien", "Quang Nam", "Binh Dinh"):
        state.move_pieces("Available", province, "vc_base", 2, new_status="tunneled")
    state.move_pieces(
        "Quang Tri-Thua Thien", "Available", "vc_base", 1, "tunneled"
    )  # five Tunneled Bases remain on the map
    current = run(
        state,
        {"op": "tunnel", "pieces": ["vc_base", "nva_base"], "count": 2, "where": named("Tay Ninh")},
        faction="vc",
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert decision.types == ("vc_base", "nva_base") and decision.total == 1
    done = resume(current, pick(decision, ("Tay Ninh", "vc_base", 1)))
    assert done.state.pieces("Tay Ninh", "vc_base", "tunneled") == 1


def test_transfer_moves_pieces_between_boxes() -> None:
    # FitL 5.1.1: events may take pieces from Casualties; a box's pieces go box to box.
    state = CoinState.new("fitl")
    state.move_pieces("Available", "Casualties", "us_troop", 3)
    current = run(
        state,
        {
            "op": "transfer",
            "pieces": ["us_troop"],
            "count": 2,
            "source": "casualties",
            "destination": "available",
        },
        faction="us",
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice) and decision.spaces == ("Casualties",)
    done = resume(current, pick(decision, ("Casualties", "us_troop", 2)))
    assert done.state.pieces("Casualties", "us_troop") == 1


def test_leader_goes_to_one_chosen_space() -> None:
    state = CoinState.new("lod")
    current = run(
        state,
        {
            "op": "leader",
            "leader": "Washington",
            "where": {"filter": {"is": "type", "types": ["Colony"]}},
        },
        faction="patriots",
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice) and decision.max_spaces == 1
    done = resume(current, pick(decision, ("Virginia", "Washington", 1)))
    assert done.state.leader("Washington") == "Virginia"


# ---------------------------------------------------------------------- markers


def test_markers_go_where_their_kind_may_lie_one_per_space() -> None:
    # FitL 3.3.4: Terror on Cities and Provinces only, one marker marks a space once.
    state = CoinState.new("fitl")
    state.add_marker("Hue", "terror")
    current = run(
        state,
        {
            "op": "marker",
            "marker": "terror",
            "count": 2,
            "where": named("Hue", "Saigon", "Quang Tri-Thua Thien", "Hue -- Da Nang"),
        },
        faction="vc",
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert decision.spaces == ("Saigon", "Quang Tri-Thua Thien")  # Hue marked, a LoC never
    done = resume(
        current, pick(decision, ("Saigon", "terror", 1), ("Quang Tri-Thua Thien", "terror", 1))
    )
    assert done.state.markers("Saigon", "terror") == 1
    removal = run(
        done.state,
        {
            "op": "marker",
            "marker": "terror",
            "action": "remove",
            "count": {"all": True},
            "where": named("Saigon", "Hue"),
        },
    )
    assert removal.decision.spaces == ("Hue", "Saigon")  # type: ignore[union-attr]


def test_blockades_need_the_treaty_and_come_from_the_west_indies() -> None:
    # LoD 1.9: no Squadron/Blockade on the map before the Treaty of Alliance.
    state = CoinState.new("lod")
    state.move_marker("Unavailable", "West Indies", "blockade", 2)
    place = {"op": "marker", "marker": "blockade", "where": named("Boston")}
    assert run(state, place).finished
    state.set_flag("toa_played")
    current = run(state, place)
    done = resume(current, pick(current.decision, ("Boston", "blockade", 1)))
    assert (
        done.state.markers("Boston", "blockade"),
        done.state.markers("West Indies", "blockade"),
    ) == (1, 1)
    back = run(
        done.state,
        {
            "op": "marker",
            "marker": "blockade",
            "action": "move",
            "source": "Boston",
            "destination": "unavailable",
        },
    )
    assert back.finished and back.state.markers("Unavailable", "blockade") == 2


# ---------------------------------------------------------------------- decisions


def test_choose_faction_binds_a_faction_for_later_fields() -> None:
    # 5.1: "Any one Faction executes a free Command": the executing Faction selects it,
    # the selected Faction decides the details (its free action is recorded for it).
    state = CoinState.new("lod")
    current = run(
        state,
        {"op": "choose_faction", "factions": ["French", "Indians"], "bind": "f1"},
        {"op": "free", "faction": "$f1", "action": "march", "limited": True},
        {"op": "eligibility", "factions": ["$f1"], "to": "eligible"},
        faction="british",
    )
    decision = current.decision
    assert isinstance(decision, OptionChoice)
    assert (decision.chooser, decision.labels, list(decision.options())) == (
        "british",
        ("french", "indians"),
        [0, 1],
    )
    done = resume(current, 1)
    assert done.state.free_actions[-1]["faction"] == "indians"
    assert done.state.eligibility_at_end == {"indians": "eligible"}


def test_an_unbound_faction_name_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"no Faction is bound to '\$f9'"):
        run(CoinState.new("lod"), {"op": "free", "faction": "$f9", "action": "march"})


def test_a_roll_is_a_chance_decision_bound_for_amounts() -> None:
    # "Roll a die: add the roll to Patriot Resources"
    current = run(
        CoinState.new("lod"),
        {"op": "roll", "bind": "r1", "dice": 2},
        {
            "op": "adjust",
            "track": "patriots_resources",
            "amount": {"quantity": {"of": "bound", "name": "r1"}},
        },
    )
    decision = current.decision
    assert isinstance(decision, OptionChoice)
    assert (decision.chooser, list(decision.options())) == (CHANCE, list(range(2, 13)))
    assert resume(current, 9).state.track("patriots_resources") == 9


def test_shift_toward_a_middle_level_stops_there() -> None:
    # "Shift 2 levels toward Neutral": Active Support ends Neutral, Passive Opposition
    # stops at Neutral after one level; a Neutral space cannot move.
    state = CoinState.new("lod")
    state.set_support("Virginia", "active_support")
    state.set_support("Georgia", "passive_opposition")
    current = run(
        state,
        {
            "op": "shift",
            "levels": 2,
            "toward": "neutral",
            "where": named("Virginia", "Georgia", "New York"),
        },
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice) and decision.spaces == ("Virginia", "Georgia")
    done = resume(current, pick(decision, ("Virginia", "space", 1), ("Georgia", "space", 1)))
    assert (done.state.support("Virginia"), done.state.support("Georgia")) == ("neutral", "neutral")


def test_shift_either_way_is_chosen_per_space() -> None:
    state = CoinState.new("lod")
    state.set_support("Georgia", "active_opposition")
    current = run(
        state, {"op": "shift", "levels": 1, "either": True, "where": named("Virginia", "Georgia")}
    )
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert decision.types == ("toward_support", "toward_opposition")
    assert decision.room == ((1, 1), (1, 0))  # Georgia can only move toward Support
    done = resume(
        current,
        pick(decision, ("Virginia", "toward_opposition", 1), ("Georgia", "toward_support", 1)),
    )
    assert (done.state.support("Virginia"), done.state.support("Georgia")) == (
        "passive_opposition",
        "passive_opposition",
    )


# ---------------------------------------------------------------------- records


def test_eligibility_is_recorded_for_the_cards_end() -> None:
    # LoD 2.3 / FitL 2.3: "VC Ineligible through next card; executing Faction stays Eligible".
    done = run(
        CoinState.new("fitl"),
        {"op": "eligibility", "factions": ["vc"], "to": "ineligible", "through_next_card": True},
        {"op": "eligibility", "factions": ["executing"], "to": "eligible"},
        faction="us",
    )
    state = done.state
    assert state.eligibility("vc") == "ineligible"  # takes no further part in this card
    assert state.eligibility_at_end == {"vc": "ineligible_through_next", "us": "eligible"}
    everyone = run(
        CoinState.new("fitl"), {"op": "eligibility", "factions": ["all"], "to": "ineligible"}
    )
    assert set(everyone.state.eligibility_at_end) == {"us", "arvn", "nva", "vc"}


def test_desertion_runs_where_the_project_models_it() -> None:
    # LoD 6.6: one in five Militia desert; the Indians choose the first.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "militia", 10)
    current = run(state, {"op": "procedure", "name": "desertion"}, faction="british")
    decision = current.decision
    assert isinstance(decision, PieceChoice)
    assert (decision.chooser, decision.total) == ("indians", 1)


def test_a_support_phase_out_of_turn_lets_the_british_then_the_patriots_spend() -> None:
    # LoD 6.4: the British Reward Loyalty where they have Control, a Regular and a
    # Tory (6.4.1), then the Patriots hold Committees of Correspondence where they
    # have Rebellion Control and a piece (6.4.2), each level costing one Resource.
    state = CoinState.new("lod")
    state.set_track("british_resources", 1)
    state.set_track("patriots_resources", 2)
    state.move_pieces("Available", "New York", "british_regular", 1)
    state.move_pieces("Available", "New York", "tory", 1)
    state.move_pieces("Available", "Virginia", "militia", 1)
    current = run(state, {"op": "procedure", "name": "support_phase"}, faction="french")
    british = current.decision
    assert isinstance(british, OptionChoice)
    assert (british.chooser, british.count) == ("british", 2)  # nothing, or 1 level
    current = resume(current, 1)
    patriots = current.decision
    assert isinstance(patriots, OptionChoice)
    assert (patriots.chooser, patriots.count) == ("patriots", 3)  # nothing, 1 or 2 levels
    done = resume(current, 2)
    assert done.finished
    assert done.state.support("New York") == "passive_support"
    assert done.state.support("Virginia") == "active_opposition"
    assert (done.state.track("british_resources"), done.state.track("patriots_resources")) == (0, 0)
    assert done.state.procedures == []  # carried out, not recorded for later


def test_unmodelled_procedures_and_card_actions_are_recorded() -> None:
    state = CoinState.new("fitl")
    state.set_capability("Cadres", "shaded")
    state.add_momentum("Claymores")
    done = run(
        state,
        {"op": "procedure", "name": "commitment", "factions": ["executing"], "note": "as if Coup"},
        {"op": "card", "action": "remove", "target": "Claymores"},
        {"op": "card", "action": "flip", "target": "Cadres"},
        {"op": "card", "action": "return", "target": "Some Card", "faction": "nva"},
        {
            "op": "at_phase",
            "phase": "coup",
            "effects": [{"op": "adjust", "track": "aid", "delta": 5}],
        },
        {"op": "battle_modifier", "role": "attacker", "loss_level": 1},
        {
            "op": "lasting",
            "kind": "momentum",
            "name": "Monsoon Lull",
            "duration": "until_coup",
            "rules": [
                {"text": "No Air Strike.", "kind": "ban", "action": "air_strike"},
                {
                    "text": "Each Reset: Aid +1.",
                    "kind": "recurring",
                    "at": "reset",
                    "effects": [{"op": "adjust", "track": "aid", "delta": 1}],
                },
            ],
        },
        faction="us",
    )
    after = done.state
    assert after.track("aid") == 0  # deferred and recurring effects are not run now
    assert "Claymores" not in after.momentum and after.capability("Cadres") == "unshaded"
    assert [p["name"] for p in after.procedures] == ["commitment"]
    assert after.procedures[0]["factions"] == ["us"]
    assert any("not modelled" in line for line in done.log)
    assert after.card_actions == [
        {"action": "return", "target": "Some Card", "faction": "nva", "count": None, "side": None}
    ]
    assert after.deferred[0]["phase"] == "coup" and after.deferred[0]["faction"] == "us"
    assert after.battle_modifiers == [
        {"faction": "us", "role": "attacker", "loss_level": 1, "force_level": 0}
    ]
    assert after.lasting_rules["Monsoon Lull"]["duration"] == "until_coup"
    assert [r["kind"] for r in after.lasting_rules["Monsoon Lull"]["rules"]] == ["ban", "recurring"]


def test_free_action_modifiers_are_kept_with_the_grant() -> None:
    # FitL 5.5: the text may change a free Operation ("as if US", "without activation").
    done = run(
        CoinState.new("fitl"),
        {
            "op": "free",
            "faction": "executing",
            "action": "any",
            "kind": "special_activity",
            "as_faction": "US",
            "no_activation": True,
            "times": 2,
            "where": {"filter": {"is": "named", "names": ["Saigon", "Hue"]}, "spaces": 1},
        },
        faction="arvn",
    )
    (grant,) = done.state.free_actions
    assert (grant["faction"], grant["action"]) == ("arvn", "any")
    assert grant["modifiers"] == {
        "as_faction": "us",
        "no_activation": True,
        "times": 2,
        "where_spaces": 1,
    }


def test_a_state_with_every_record_round_trips_and_fits_its_schema() -> None:
    test_state = run(
        CoinState.new("fitl"),
        {"op": "eligibility", "factions": ["vc"], "to": "ineligible", "through_next_card": True},
        {"op": "free", "faction": "nva", "action": "march", "no_activation": True},
        {"op": "procedure", "name": "redeploy", "where": named("Saigon")},
        {"op": "card", "action": "play", "target": "Other Card"},
        {
            "op": "at_phase",
            "phase": "reset",
            "effects": [{"op": "adjust", "track": "aid", "delta": 2}],
        },
        {"op": "battle_modifier", "role": "defender", "force_level": -1},
        {
            "op": "lasting",
            "kind": "capability",
            "name": "Cadres",
            "duration": "game",
            "rules": [{"text": "Free Rally.", "kind": "change", "modelled": False}],
        },
        faction="us",
    ).state
    raw = test_state.to_json()
    assert state_from_json(raw, "fitl") == test_state
    state_document_model("fitl").model_validate(raw)
    raw["eligibility_at_end"]["vc"] = "asleep"
    with pytest.raises(InputError, match=r"eligibility_at_end\.vc"):
        state_from_json(raw, "fitl")
    raw["eligibility_at_end"]["vc"] = "eligible"
    raw["deferred"][0]["effects"][0]["op"] = "teleport"
    with pytest.raises(InputError, match=r"deferred\[0\]"):
        state_from_json(raw, "fitl")
    raw["deferred"][0]["effects"][0]["op"] = "adjust"
    raw["lasting_rules"]["Cadres"]["rules"][0]["kind"] = "sometimes"
    with pytest.raises(InputError, match=r"lasting_rules\.Cadres\.rules\[0\]\.kind"):
        state_from_json(raw, "fitl")


# ---------------------------------------------------------------------- no crash


_PIECES = {
    "lod": ["tory", "militia", "british_fort", "village", "war_party", "continental"],
    "fitl": ["vc_guerrilla", "nva_base", "vc_base", "us_troop", "police"],
}
_SCENARIOS = {"lod": "1776", "fitl": "short"}


@st.composite
def _sides(draw: st.DrawFn, game: str) -> list[dict[str, Any]]:
    pieces = st.lists(st.sampled_from(_PIECES[game]), min_size=1, max_size=2, unique=True)
    spaces = st.sampled_from([None, 1, 2])
    where = st.builds(
        lambda f, n, per, bind: {
            "filter": f,
            **({"spaces": n} if n else {}),
            "per_space": per,
            **({"bind": bind} if bind else {}),
        },
        st.sampled_from(
            [
                {"is": "type", "types": ["City"]},
                {"is": "bound", "name": "s1"},
                {"is": "adjacent", "distance": 2, "filter": {"is": "bound", "name": "s1"}},
                {"is": "markers", "marker": "terror" if game == "fitl" else "raid"},
            ]
        ),
        spaces,
        st.booleans(),
        st.sampled_from([None, "s1"]),
    )
    count = st.one_of(
        st.integers(0, 2),
        st.builds(
            lambda up, least: {"n": 2, "up_to": up, "at_least": least},
            st.booleans(),
            st.sampled_from([None, 1]),
        ),
        st.just({"all": True}),
        st.just({"amount": {"quantity": {"of": "bound", "name": "r1"}, "per": 2}}),
    )
    relative = st.sampled_from([None, "own", "friendly", "enemy"])
    piece_op = st.sampled_from(["place", "remove", "activate", "tunnel"])
    effect = st.one_of(
        st.builds(
            lambda op, p, c, w, r: {
                "op": op,
                "pieces": p,
                "count": c,
                "where": w,
                "relative": r,
                "bind": "r1",
            },
            piece_op,
            pieces,
            count,
            where,
            relative,
        ),
        st.builds(lambda w: {"op": "select", "bind": "s1", "where": w}, where),
        st.just({"op": "roll", "bind": "r1"}),
        st.builds(lambda w: {"op": "shift", "levels": 1, "either": True, "where": w}, where),
        st.builds(lambda w: {"op": "shift", "levels": -2, "toward": "neutral", "where": w}, where),
        st.just(
            {
                "op": "set_track",
                "track": "executing_resources",
                "value": {"quantity": {"of": "bound", "name": "r1"}, "times": 3},
            }
        ),
        st.just({"op": "eligibility", "factions": ["all"], "to": "ineligible"}),
        st.builds(
            lambda w, c: {
                "op": "marker",
                "marker": "terror" if game == "fitl" else "propaganda",
                "count": c,
                "where": w,
            },
            where,
            count,
        ),
    )
    return draw(st.lists(effect, min_size=1, max_size=4))


def _play_out(game: str, effects: list[dict[str, Any]], faction: str, seed: int) -> None:
    state = load_scenario(game, _SCENARIOS[game])
    current = run(state, *effects, faction=faction)
    rounds = 0
    while not current.finished and rounds < 10:
        decision = current.decision
        if isinstance(decision, OptionChoice):
            choice: Any = decision.first + seed % decision.count
        else:
            try:
                choice = next(selections(decision), None)
            except SolverLimitError:
                return  # too many selections to judge one by one: a clear solver limit

            if choice is None:
                return  # nothing legal to choose: the view then lists no move
        current = resume(current, choice)
        rounds += 1
    assert not current.state.invariant_problems()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_sides("lod"), st.sampled_from(["british", "patriots", "indians"]), st.integers(0, 5))
def test_random_lod_sides_never_crash(
    effects: list[dict[str, Any]], faction: str, seed: int
) -> None:
    _play_out("lod", effects, faction, seed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_sides("fitl"), st.sampled_from(["us", "nva", "vc"]), st.integers(0, 5))
def test_random_fitl_sides_never_crash(
    effects: list[dict[str, Any]], faction: str, seed: int
) -> None:
    _play_out("fitl", effects, faction, seed)
