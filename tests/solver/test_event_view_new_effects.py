"""The lazy view over the grown effect language: every new decision is a step of
an event move, listed, counted (the count agrees with the listing), answered by
``in``, refused with a rule, and written to JSON and read back."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from legalis.model.coin.deck import Card, deck_from_toml
from legalis.model.coin.interpret import PieceChoice
from legalis.model.coin.state import CoinState
from legalis.model.errors import SolverLimitError
from legalis.solver.distribute import Distribution, Selection
from legalis.solver.events import (
    EventMove,
    event_move_from_json,
    legal_event_moves,
    selection_count,
)
from legalis.solver.z3backend import solutions as z3_solutions


def card(game: str, *effects: dict[str, Any]) -> Card:
    first = {"lod": "British", "fitl": "US"}[game]
    raw = {"number": 7, "title": "T", "factions": [first], "unshaded": {"effects": list(effects)}}
    return deck_from_toml({"game": game, "card": [raw]}).card(7)


def named(*names: str, **where: Any) -> dict[str, Any]:
    return {"filter": {"is": "named", "names": list(names)}, **where}


def check_view(state: CoinState, event: Card, faction: str) -> list[EventMove]:
    """Every listed move is legal, unique, replays through JSON, and the count agrees."""
    view = legal_event_moves(state, event, "unshaded", faction)
    listed = list(view)
    assert view.count() == len(listed) == len(set(listed))
    for index, move in enumerate(listed):
        assert move in view
        assert view.nth(index) == move
        again = event_move_from_json(json.loads(json.dumps(move.to_json())))
        assert again == move
        assert not view.apply(move).invariant_problems()
    return listed


def test_a_roll_lists_every_outcome_and_replays_exactly() -> None:
    # A die roll is a chance decision: one move per total, each replaying its roll.
    event = card(
        "lod",
        {"op": "roll", "bind": "r1"},
        {
            "op": "adjust",
            "track": "patriots_resources",
            "amount": {"quantity": {"of": "bound", "name": "r1"}},
        },
    )
    listed = check_view(CoinState.new("lod"), event, "patriots")
    assert [move.steps for move in listed] == [(total,) for total in range(1, 7)]
    view = legal_event_moves(CoinState.new("lod"), event, "unshaded", "patriots")
    assert view.apply(EventMove(7, "unshaded", "patriots", (5,))).track("patriots_resources") == 5
    refused = view.explain(EventMove(7, "unshaded", "patriots", (7,)))
    assert not refused.legal and refused.rule == "5.1" and "1-6" in refused.reason


def test_select_then_there_counts_one_shared_space() -> None:
    # "In one City with Tories, place a Militia there and remove a Tory there":
    # 2 Cities -> 2 moves (before, the two clauses chose 2 x 2 pairs of spaces).
    state = CoinState.new("lod")
    for city in ("Boston", "Norfolk"):
        state.move_pieces("Available", city, "tory", 1)
    there = {"filter": {"is": "bound", "name": "s1"}}
    event = card(
        "lod",
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
        {"op": "place", "pieces": ["militia"], "where": there},
        {"op": "remove", "pieces": ["tory"], "where": there},
    )
    listed = check_view(state, event, "patriots")
    assert len(listed) == 2
    for move in listed:  # the space placed in and removed from is the one selected
        ((selected, _, _),) = move.steps[0]
        assert {space for step in move.steps[1:] for space, _, _ in step} == {selected}
    view = legal_event_moves(state, event, "unshaded", "patriots")
    mixed = EventMove(
        7, "unshaded", "patriots", ((("Boston", "space", 1),), (("Norfolk", "militia", 1),))
    )
    assert mixed not in view
    assert view.explain(mixed).rule == "5.1.1"  # Norfolk is not among the choices


def test_choose_faction_and_either_way_shifts_are_steps() -> None:
    event = card(
        "lod",
        {"op": "choose_faction", "factions": ["French", "Indians"], "bind": "f1"},
        {"op": "shift", "levels": 1, "either": True, "where": named("Virginia")},
    )
    listed = check_view(CoinState.new("lod"), event, "british")
    # 2 Factions x 2 directions in Virginia (Neutral moves either way)
    assert sorted(move.steps for move in listed) == [
        (option, (("Virginia", direction, 1),))
        for option in (0, 1)
        for direction in ("toward_opposition", "toward_support")
    ]


@pytest.mark.parametrize(
    ("count", "removed"),
    [
        ({"n": 3, "up_to": True, "at_least": 2}, [2, 3]),  # remove 2 or 3 of the 4 Tories
        ({"all": True}, [4]),  # remove all 4 (5.1.3): one way
        ({"all": True, "up_to": True}, [0, 1, 2, 3, 4]),  # any number of them
    ],
)
def test_count_forms_are_counted_as_listed(count: dict[str, Any], removed: list[int]) -> None:
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 4)
    event = card(
        "lod", {"op": "remove", "pieces": ["tory"], "count": count, "where": named("Boston")}
    )
    listed = check_view(state, event, "patriots")
    assert sorted(sum(n for _, _, n in move.steps[0]) for move in listed) == removed


def test_at_least_falls_to_what_exists() -> None:
    # 5.1.3: "remove 2-3 Tories" with one Tory present removes that one.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 1)
    event = card(
        "lod",
        {
            "op": "remove",
            "pieces": ["tory"],
            "count": {"n": 3, "up_to": True, "at_least": 2},
            "where": named("Boston"),
        },
    )
    (only,) = check_view(state, event, "patriots")
    assert only.steps == ((("Boston", "tory", 1),),)
    view = legal_event_moves(state, event, "unshaded", "patriots")
    short = EventMove(7, "unshaded", "patriots", ((),))
    assert view.explain(short).rule == "5.1.3"


def test_last_and_limits_keep_5_1_3_maximal() -> None:
    # "Remove 2 Tories or Forts, Forts last" from Boston with 1 Tory and 2 Forts:
    # the Tory must go first, then one Fort.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 1)
    state.move_pieces("Available", "Boston", "british_fort", 2)
    event = card(
        "lod",
        {
            "op": "remove",
            "pieces": ["tory", "british_fort"],
            "count": 2,
            "last": ["british_fort"],
            "where": named("Boston"),
        },
    )
    (only,) = check_view(state, event, "patriots")
    assert dict(((p, n) for _, p, n in only.steps[0])) == {"tory": 1, "british_fort": 1}
    forts = EventMove(7, "unshaded", "patriots", ((("Boston", "british_fort", 2),),))
    assert (
        "only once the others"
        in legal_event_moves(state, event, "unshaded", "patriots").explain(forts).reason
    )
    # "Place 3 Tories or Regulars, no more than 1 Regular" in Virginia
    capped = card(
        "lod",
        {
            "op": "place",
            "pieces": ["tory", "british_regular"],
            "count": 3,
            "limits": [{"pieces": ["british_regular"], "at_most": 1}],
            "where": named("Virginia"),
        },
    )
    listed = check_view(CoinState.new("lod"), capped, "british")
    shapes = sorted(tuple(sorted((p, n) for _, p, n in move.steps[0])) for move in listed)
    assert shapes == [(("british_regular", 1), ("tory", 2)), (("tory", 3),)]


def test_markers_tunnels_transfers_and_leaders_are_piece_like_steps() -> None:
    state = CoinState.new("fitl")
    state.move_pieces("Available", "Tay Ninh", "vc_base", 2)
    state.move_pieces("Available", "Casualties", "us_troop", 2)
    event = card(
        "fitl",
        {"op": "tunnel", "pieces": ["vc_base"], "where": named("Tay Ninh")},
        {"op": "marker", "marker": "terror", "where": named("Saigon", "Hue", spaces=1)},
        {
            "op": "transfer",
            "pieces": ["us_troop"],
            "count": 1,
            "source": "casualties",
            "destination": "out_of_play",
        },
    )
    listed = check_view(state, event, "vc")
    assert len(listed) == 2  # the Terror marker in Saigon or Hue
    after = legal_event_moves(state, event, "unshaded", "vc").apply(listed[0])
    assert after.pieces("Tay Ninh", "vc_base", "tunneled") == 1
    assert after.pieces("Out of Play", "us_troop") == 1
    leader = card(
        "lod", {"op": "leader", "leader": "Washington", "where": named("Virginia", "Georgia")}
    )
    assert len(check_view(CoinState.new("lod"), leader, "patriots")) == 2


def test_small_random_states_agree_between_count_and_listing() -> None:
    # A brute-force sweep over small positions: count == listing for the new steps.
    forms = [
        {
            "op": "remove",
            "pieces": ["tory", "militia"],
            "relative": "enemy",
            "count": 2,
            "last": ["militia"],
            "where": {"filter": {"is": "type", "types": ["City"]}, "per_space": False},
        },
        {
            "op": "marker",
            "marker": "propaganda",
            "count": {"n": 2, "up_to": True, "at_least": 1},
            "where": {"filter": {"is": "named", "names": ["Boston", "Virginia", "Quebec"]}},
        },
        {
            "op": "shift",
            "levels": 2,
            "toward": "neutral",
            "where": {"filter": {"is": "named", "names": ["Boston", "Virginia"]}, "spaces": 1},
        },
    ]
    for tories, militia, form in itertools.product((0, 1, 2), (0, 2), forms):
        state = CoinState.new("lod")
        state.move_pieces("Available", "Boston", "tory", tories)
        state.move_pieces("Available", "Philadelphia", "militia", militia)
        state.set_support("Virginia", "active_support")
        check_view(state, card("lod", form), "british")
        check_view(state, card("lod", form), "patriots")


def test_stacking_room_binds_only_the_stacking_pieces() -> None:
    # 1.4.2 / 5.1.1: two Forts or Villages per space; Tories do not stack, so "Place 3
    # Tories or Forts in Virginia" may place 3 Tories, or 1-2 Forts with Tories.
    event = card(
        "lod",
        {"op": "place", "pieces": ["tory", "british_fort"], "count": 3, "where": named("Virginia")},
    )
    listed = check_view(CoinState.new("lod"), event, "british")
    shapes = sorted(tuple(sorted((p, n) for _, p, n in move.steps[0])) for move in listed)
    assert shapes == [
        (("british_fort", 1), ("tory", 2)),
        (("british_fort", 2), ("tory", 1)),
        (("tory", 3),),
    ]


def _brute_force(problem: Distribution) -> list[Selection]:
    """Every legal selection by the rules of 5.1.1 and 5.1.3, checked one by one."""
    counted = problem.space_kinds or (True,) * problem.kinds
    rooms = problem.space_room or tuple(10**6 for _ in problem.room)

    def within(selection: Selection) -> bool:
        rows_ok = all(
            sum(n for n, c in zip(row, counted, strict=True) if c) <= most
            and (problem.per_space is None or sum(row) <= problem.per_space)
            for row, most in zip(selection, rooms, strict=True)
        )
        total = sum(map(sum, selection))
        pool = problem.pool or (None,) * problem.kinds
        used = [sum(row[k] for row in selection) for k in range(problem.kinds)]
        return (
            rows_ok
            and (problem.total is None or total <= problem.total)
            and all(p is None or u <= p for u, p in zip(used, pool, strict=True))
        )

    cells = [range(most + 1) for room in problem.room for most in room]
    out = []
    for flat in itertools.product(*cells):
        it = iter(flat)
        selection = tuple(tuple(next(it) for _ in room) for room in problem.room)
        if not within(selection):
            continue
        grown = (
            (*selection[:s], (*row[:k], row[k] + 1, *row[k + 1 :]), *selection[s + 1 :])
            for s, row in enumerate(selection)
            for k in range(len(row))
            if row[k] < problem.room[s][k]
        )
        if problem.up_to or not any(within(more) for more in grown):
            out.append(selection)
    return sorted(out)


@pytest.mark.parametrize("per_space", [None, 3])
@pytest.mark.parametrize("up_to", [False, True])
def test_a_space_room_shared_by_some_kinds_is_counted_listed_and_stated_for_z3(
    per_space: int | None, up_to: bool
) -> None:
    # Tories (unlimited) beside Forts and Villages that share 2 places (1.4.2)
    problem = Distribution(
        room=((3, 2, 2), (3, 1, 2)),
        per_space=per_space,
        total=None if per_space else 4,
        pool=(5, 2, 3),
        up_to=up_to,
        space_room=(2, 1),
        space_kinds=(False, True, True),
    )
    expected = _brute_force(problem)
    assert sorted(problem) == expected and problem.count() == len(expected)
    variables, rule = problem.rule()
    flat = [v for row in variables for v in row]
    by_z3 = sorted(
        tuple(tuple(int(model[v.name]) for v in row) for row in variables)
        for model in z3_solutions(rule, flat)
    )
    assert by_z3 == expected


def test_limits_judged_one_by_one_stop_at_a_solver_limit() -> None:
    # Too many selections to judge a minimum over: a clear solver limit, not a hang.
    huge = PieceChoice(
        "remove",
        "british",
        tuple(f"s{i}" for i in range(20)),
        ("tory", "militia"),
        ((5, 5),) * 20,
        total=20,
        up_to=True,
        at_least=1,
    )
    with pytest.raises(SolverLimitError, match="more than"):
        selection_count(huge)


def test_a_minimum_in_each_space_holds_in_every_space() -> None:
    # "Place 1-2 Militia in each of Boston and Norfolk": 1 or 2 in each, 4 ways;
    # "... in one of them": 1 or 2 in one space, 4 ways.
    each = {
        "op": "place",
        "pieces": ["militia"],
        "count": {"n": 2, "up_to": True, "at_least": 1},
        "where": named("Boston", "Norfolk"),
    }
    listed = check_view(CoinState.new("lod"), card("lod", each), "patriots")
    assert sorted(tuple(n for _, _, n in move.steps[0]) for move in listed) == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    ]
    one = {**each, "where": named("Boston", "Norfolk", spaces=1)}
    listed = check_view(CoinState.new("lod"), card("lod", one), "patriots")
    assert sorted((move.steps[0][0][0], move.steps[0][0][2]) for move in listed) == [
        ("Boston", 1),
        ("Boston", 2),
        ("Norfolk", 1),
        ("Norfolk", 2),
    ]
