"""Every legal way to execute an event: golden cases worked from the clauses of
section 5, both directions of legality, and the sample decks end to end."""

from __future__ import annotations

import itertools
import math
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legalis.model.coin.deck import Card, bundled_deck, deck_from_toml
from legalis.model.coin.interpret import Context, PieceChoice, start
from legalis.model.coin.limits import may_hold
from legalis.model.coin.scenarios import load_scenario, scenario_names
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.errors import IllegalMoveError, InputError, SolverLimitError
from legalis.solver import events as events_module
from legalis.solver.events import (
    EventMove,
    distribution,
    event_move_from_json,
    legal_event_moves,
)
from legalis.solver.z3backend import solutions as z3_solutions


def card(game: str, *effects: dict[str, Any], shaded: list[dict[str, Any]] | None = None) -> Card:
    # the Faction order printed on the card: a Faction of the card's game
    first = {"lod": "British", "fitl": "US"}[game]
    raw: dict[str, Any] = {"number": 1, "title": "T", "factions": [first]}
    raw["unshaded"] = {"effects": list(effects)}
    if shaded is not None:
        raw["shaded"] = {"effects": shaded}
    return deck_from_toml({"game": game, "card": [raw]}).card(1)


def named(*names: str, spaces: int | None = None, up_to: bool = False) -> dict[str, Any]:
    where: dict[str, Any] = {"filter": {"is": "named", "names": list(names)}}
    if spaces is not None:
        where["spaces"] = spaces
    if up_to:
        where["up_to"] = True
    return where


def moves(state: CoinState, event: Card, faction: str, side: str = "unshaded") -> list[EventMove]:
    return list(legal_event_moves(state, event, side, faction))


# ---------------------------------------------------------------------- 5.1.1


def test_events_never_break_stacking() -> None:
    # 5.1.1 and 1.4.2: never a third Fort or Village; Boston holds two already.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "british_fort", 1)
    state.move_pieces("Available", "Boston", "patriot_fort", 1)
    event = card(
        "lod",
        {
            "op": "place",
            "pieces": ["british_fort"],
            "count": 1,
            "where": named("Boston", "Massachusetts", spaces=1),
        },
    )
    found = moves(state, event, "british")
    assert [m.steps for m in found] == [((("Massachusetts", "british_fort", 1),),)]


def test_events_place_only_available_pieces() -> None:
    # 5.1.1 and 1.4.1: 2 in each of 2 Colonies with only 3 Tories Available: 3 in all.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Unavailable", "tory", 22)
    event = card(
        "lod",
        {
            "op": "place",
            "pieces": ["tory"],
            "count": 2,
            "where": named("Virginia", "Georgia", spaces=2),
        },
    )
    found = {m.steps for m in moves(state, event, "british")}
    assert found == {
        ((("Virginia", "tory", 1), ("Georgia", "tory", 2)),),
        ((("Virginia", "tory", 2), ("Georgia", "tory", 1)),),
    }


def test_a_named_source_box_is_drawn_on() -> None:
    # 5.1.1: "from Unavailable" places from that box, not from Available.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Unavailable", "british_regular", 2)
    event = card(
        "lod",
        {
            "op": "place",
            "pieces": ["british_regular"],
            "count": 3,
            "source": "unavailable",
            "where": named("Boston"),
        },
    )
    (only,) = moves(state, event, "british")
    after = legal_event_moves(state, event, "unshaded", "british").apply(only)
    assert after.pieces("Boston", "british_regular") == 2
    assert after.pieces("Unavailable", "british_regular") == 0


def test_replacement_missing_means_removal_only() -> None:
    # 5.1.1: remove rather than replace when the replacement is not Available.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "militia", 2)
    state.move_pieces("Available", "Unavailable", "tory", 24)
    event = card(
        "lod",
        {
            "op": "replace",
            "pieces": ["militia"],
            "by": ["tory"],
            "count": 2,
            "where": named("Virginia"),
        },
    )
    (only,) = moves(state, event, "british")
    after = legal_event_moves(state, event, "unshaded", "british").apply(only)
    assert after.pieces("Virginia", "militia") == 0 and after.pieces("Virginia", "tory") == 1
    assert after.available("militia") == 15


def test_resources_never_pass_the_cap() -> None:
    # 5.1.1 and 1.8: Resources stay within 0-50.
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 48)
    event = card(
        "lod",
        {"op": "adjust", "track": "patriots_resources", "delta": 5},
        {"op": "adjust", "track": "british_resources", "delta": -3},
    )
    (only,) = moves(state, event, "patriots")
    after = legal_event_moves(state, event, "unshaded", "patriots").apply(only)
    assert after.track("patriots_resources") == 50 and after.track("british_resources") == 0


def test_no_french_pieces_on_the_map_before_the_treaty() -> None:
    # 5.1.1 and 2.3.9: French pieces are placed only after ToA.
    event = card(
        "lod", {"op": "place", "pieces": ["french_regular"], "count": 2, "where": named("Boston")}
    )
    state = CoinState.new("lod")
    assert [m.steps for m in moves(state, event, "french")] == [()]
    # the refusal names 2.3.9, the rule that leaves the event nothing to do
    attempt = EventMove(1, "unshaded", "french", ((("Boston", "french_regular", 2),),))
    refused = legal_event_moves(state, event, "unshaded", "french").refusal(attempt)
    assert refused is not None and refused.rule == "2.3.9", refused
    state.set_flag("toa_played")
    assert [m.steps for m in moves(state, event, "french")] == [
        ((("Boston", "french_regular", 2),),)
    ]


def test_a_placement_where_the_pieces_may_never_be_cites_that_rule() -> None:
    # 1.4.2: Indian pieces never in a City; the choice is refused under 1.4.2, not 5.1.1.
    event = card(
        "lod",
        {"op": "place", "pieces": ["war_party"], "count": 1, "where": named("Boston", "Quebec")},
    )
    view = legal_event_moves(CoinState.new("lod"), event, "unshaded", "indians")
    in_city = EventMove(1, "unshaded", "indians", ((("Boston", "war_party", 1),),))
    refused = view.refusal(in_city)
    assert refused is not None and refused.rule == "1.4.2" and "Boston" in refused.reason
    in_reserve = EventMove(1, "unshaded", "indians", ((("Quebec", "war_party", 1),),))
    assert view.refusal(in_reserve) is None


def test_no_us_pieces_into_north_vietnam() -> None:
    # FitL 5.1.1 and 1.4.2: US and ARVN forces never enter North Vietnam.
    event = card(
        "fitl",
        {
            "op": "place",
            "pieces": ["us_troop"],
            "count": 1,
            "where": {"filter": {"is": "country", "countries": ["North Vietnam", "Laos"]}},
        },
    )
    spaces = {
        atom[0] for m in moves(CoinState.new("fitl"), event, "us") for s in m.steps for atom in s
    }
    assert spaces and "North Vietnam" not in spaces


def test_tunneled_bases_stay_unless_named_or_own() -> None:
    # FitL 5.1.1: no forced removal of a Tunneled Base unless the text says so; a
    # Faction may remove its own to fulfil the text.
    state = CoinState.new("fitl")
    state.move_pieces("Available", "Tay Ninh", "vc_base", 1, new_status="tunneled")
    plain = card("fitl", {"op": "remove", "pieces": ["vc_base"], "where": named("Tay Ninh")})
    assert [m.steps for m in moves(state, plain, "us")] == [()]
    own = {m.steps for m in moves(state, plain, "vc")}
    assert own == {((),), ((("Tay Ninh", "vc_base:tunneled", 1),),)}
    explicit = card(
        "fitl",
        {"op": "remove", "pieces": ["vc_base"], "tunneled": True, "where": named("Tay Ninh")},
    )
    assert [m.steps for m in moves(state, explicit, "us")] == [
        ((("Tay Ninh", "vc_base:tunneled", 1),),)
    ]


def test_the_deciding_faction_chooses_which_status_is_taken() -> None:
    # 5.1: the Faction making the selection chooses which pieces: with an Active and an
    # Underground Militia in Georgia, "remove 1 Militia" may take either.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Georgia", "militia", 1, new_status="active")
    state.move_pieces("Available", "Georgia", "militia", 1, new_status="underground")
    event = card("lod", {"op": "remove", "pieces": ["militia"], "where": named("Georgia")})
    view = legal_event_moves(state, event, "unshaded", "british")
    assert sorted(m.steps for m in view) == [
        ((("Georgia", "militia:active", 1),),),
        ((("Georgia", "militia:underground", 1),),),
    ]
    for move in view:
        kept = "underground" if "active" in move.steps[0][0][1] else "active"
        after = view.apply(move)
        assert after.pieces("Georgia", "militia", kept) == 1
        assert after.pieces("Georgia", "militia") == 1
    # naming the type alone is refused: the status taken must be named (5.1)
    plain = view.refusal(EventMove(1, "unshaded", "british", ((("Georgia", "militia", 1),),)))
    assert plain is not None and plain.rule == "5.1"
    assert "militia:active or militia:underground" in plain.reason
    # a status the space does not hold is refused
    state.move_pieces("Georgia", "Available", "militia", 1, "active")
    view = legal_event_moves(state, event, "unshaded", "british")
    wrong = EventMove(1, "unshaded", "british", ((("Georgia", "militia:active", 1),),))
    assert view.refusal(wrong) is not None


# ---------------------------------------------------------------------- 5.1, 5.1.2, 5.1.3


def test_whatever_can_be_implemented_must_be() -> None:
    # 5.1.3: "Remove 3 Militia" with 2 on the map removes both; fewer is refused.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "militia", 1)
    state.move_pieces("Available", "Georgia", "militia", 1)
    event = card(
        "lod", {"op": "remove", "pieces": ["militia"], "count": 3, "where": {"per_space": False}}
    )
    view = legal_event_moves(state, event, "unshaded", "british")
    both = ((("Virginia", "militia:underground", 1), ("Georgia", "militia:underground", 1)),)
    assert [m.steps for m in view] == [both]
    short = EventMove(1, "unshaded", "british", ((("Virginia", "militia:underground", 1),),))
    verdict = view.explain(short)
    assert not verdict.legal and verdict.rule == "5.1.3"


def test_another_faction_decides_its_own_action() -> None:
    # 5.1: if another Faction is specified to act, that Faction decides the details.
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "militia", 2)
    event = card(
        "lod",
        {
            "op": "remove",
            "pieces": ["militia"],
            "count": 1,
            "chooser": "Patriots",
            "where": {"per_space": False},
        },
    )
    run = start(state, event.side("unshaded"), Context("british"))
    assert isinstance(run.decision, PieceChoice) and run.decision.chooser == "patriots"


def test_each_step_names_the_faction_that_decides_it() -> None:
    # 5.1: "VC remove 2 VC Guerrillas and NVA remove 2 NVA Troops, each from spaces of
    # their own choice": executed by the US, the VC decide the first step, the NVA the second.
    state = load_scenario("fitl", "short")
    view = legal_event_moves(state, bundled_deck("fitl", "sample").card(34), "unshaded", "us")
    move = next(iter(view))
    assert len(move.steps) == 2 and view.deciders(move) == ["vc", "nva"]
    with pytest.raises(IllegalMoveError) as refused:
        view.deciders(move._replace(steps=move.steps[:1]))
    assert refused.value.rule == "5.1.3"


def test_the_played_event_wins_over_a_lasting_effect() -> None:
    # 5.1.2: a Momentum in force does not stop the event being played.
    state = CoinState.new("fitl")
    state.add_momentum("Typhoon")
    event = card(
        "fitl",
        {"op": "free", "faction": "US", "action": "air_lift", "kind": "special_activity"},
        {"op": "lasting", "kind": "momentum", "name": "Monsoon Lull"},
    )
    (only,) = moves(state, event, "us")
    after = legal_event_moves(state, event, "unshaded", "us").apply(only)
    assert {"Typhoon", "Monsoon Lull"} <= after.momentum


def test_free_actions_cost_nothing_and_leave_eligibility() -> None:
    # LoD 5.3: a free Command bears no Resource cost and does not affect Eligibility.
    state = CoinState.new("lod")
    state.set_track("indians_resources", 4)
    event = card("lod", {"op": "free", "faction": "Indians", "action": "gather"})
    (only,) = moves(state, event, "british")
    view = legal_event_moves(state, event, "unshaded", "british")
    after = view.apply(only)
    assert after.track("indians_resources") == 4
    assert after.eligibility("indians") == state.eligibility("indians")
    assert "free gather" in view.explain(only).reason
    assert after.free_actions == [
        {
            "faction": "indians",
            "action": "gather",
            "kind": "command",
            "limited": False,
            "spaces": None,
            "pays_resources": False,
        }
    ]


def test_free_pacification_still_pays_resources() -> None:
    # FitL 5.5: Pacification, Trail Improvement and Agitation cost Resources even free.
    event = card(
        "fitl",
        {
            "op": "free",
            "faction": "ARVN",
            "action": "pacify",
            "kind": "operation",
            "where": {"filter": {"is": "named", "names": ["Saigon"]}},
        },
        {"op": "free", "faction": "ARVN", "action": "sweep", "kind": "operation", "limited": True},
    )
    view = legal_event_moves(CoinState.new("fitl"), event, "unshaded", "arvn")
    grants = view.apply(next(iter(view))).free_actions
    assert [(g["action"], g["pays_resources"], g["spaces"]) for g in grants] == [
        ("pacify", True, ["Saigon"]),
        ("sweep", False, None),
    ]
    assert grants[1]["limited"] is True


def test_capabilities_and_momentum_are_set() -> None:
    # FitL 5.3: a Capability marker goes on its side; 5.4: Momentum is put in play.
    event = card(
        "fitl",
        {"op": "lasting", "kind": "capability", "name": "Cadres"},
        shaded=[{"op": "lasting", "kind": "momentum", "name": "Rolling"}],
    )
    state = CoinState.new("fitl")
    for side, check in (
        ("unshaded", lambda s: s.capability("Cadres") == "unshaded"),
        ("shaded", lambda s: "Rolling" in s.momentum),
    ):
        view = legal_event_moves(state, event, side, "vc")
        assert check(view.apply(next(iter(view))))


def test_dual_use_picks_one_printed_side() -> None:
    # 5.2: either side, never both; a side the card does not print is refused.
    event = card("lod", {"op": "adjust", "track": "british_resources", "delta": 1})
    with pytest.raises(InputError):
        legal_event_moves(CoinState.new("lod"), event, "shaded", "british")
    view = legal_event_moves(CoinState.new("lod"), event, "unshaded", "british")
    assert view.explain(EventMove(1, "shaded", "british", ())).rule == "5.2"


def test_a_choice_between_options() -> None:
    state = CoinState.new("lod")
    event = card(
        "lod",
        {
            "op": "choose",
            "options": [
                [{"op": "adjust", "track": "patriots_resources", "delta": 2}],
                [{"op": "adjust", "track": "french_resources", "delta": 2}],
            ],
        },
    )
    view = legal_event_moves(state, event, "unshaded", "patriots")
    assert [m.steps for m in view] == [(0,), (1,)]
    assert view.apply(EventMove(1, "unshaded", "patriots", (1,))).track("french_resources") == 2
    assert not view.explain(EventMove(1, "unshaded", "patriots", (2,))).legal


# ---------------------------------------------------------------------- both directions


def sample_views(limit: int = 4000) -> list[Any]:
    """A view for every side of both sample decks in every scenario, small enough to list."""
    views = []
    for game in ("lod", "fitl"):
        deck = bundled_deck(game)
        for scenario in scenario_names(game):
            state = load_scenario(game, scenario)
            for event in deck.cards:
                for side in ("unshaded", "shaded"):
                    if getattr(event, side) is None:
                        continue
                    faction = state.rules.data.faction_ids()[event.number % 4]
                    view = legal_event_moves(state, event, side, faction)
                    if view.count() <= limit:
                        views.append(view)
    return views


def test_sample_decks_every_move_is_legal_applies_cleanly_and_counts_match() -> None:
    views = sample_views()
    assert len(views) > 150
    for view in views:
        listed = list(view)
        assert len(listed) == view.count() == len(set(listed)), view.card.number
        for index, move in enumerate(listed[:50]):
            assert view.nth(index) == move
            assert view.explain(move).legal, view.explain(move)
            after = view.apply(move)
            assert after.invariant_problems() == [], (view.card.number, move)
            assert state_from_json(after.to_json(), after.game) == after


def test_candidates_not_generated_are_refused_with_a_rule() -> None:
    rng = random.Random(5)
    refused = 0
    for view in sample_views(limit=500):
        listed = set(view)
        for move in list(listed)[:5]:
            for candidate in _mutations(move, rng):
                if candidate in listed:
                    continue
                verdict = view.explain(candidate)
                assert not verdict.legal and verdict.reason and verdict.rule.startswith("5.")
                with pytest.raises(IllegalMoveError):
                    view.apply(candidate)
                refused += 1
    assert refused > 200


def _mutations(move: EventMove, rng: random.Random) -> list[EventMove]:
    out = [
        EventMove(move.card, move.side, move.faction, (*move.steps, 0)),
        EventMove(
            move.card, "shaded" if move.side == "unshaded" else "unshaded", move.faction, move.steps
        ),
        EventMove(move.card, move.side, move.faction + "x", move.steps),
    ]
    if move.steps:
        out.append(EventMove(move.card, move.side, move.faction, move.steps[:-1]))
        step = move.steps[rng.randrange(len(move.steps))]
        index = move.steps.index(step)
        if not isinstance(step, int) and step:
            space, piece, amount = step[0]
            for changed in ((space, piece, amount + 1), ("Nowhere", piece, amount)):
                steps = list(move.steps)
                steps[index] = (changed, *step[1:])
                out.append(EventMove(move.card, move.side, move.faction, tuple(steps)))
    return out


def test_the_enumerator_and_z3_agree_on_500_random_states() -> None:
    rng = random.Random(20261122)
    checked = 0
    lod = load_scenario("lod", "1775")
    militia_like = ("militia", "tory", "british_fort", "village", "war_party")
    while checked < 500:
        state = lod.copy()
        for _ in range(rng.randint(0, 6)):
            space = rng.choice([s.name for s in state.rules.map.spaces])
            piece = rng.choice(militia_like)
            if state.available(piece) and (space not in ("Boston",) or piece != "village"):
                state.move_pieces("Available", space, piece, 1)
        if state.invariant_problems():
            continue
        op = rng.choice(["place", "remove"])
        effect: dict[str, Any] = {
            "op": op,
            "pieces": rng.sample(militia_like, rng.randint(1, 2)),
            "count": {"n": rng.randint(1, 3), "up_to": rng.random() < 0.3},
            "where": {
                "filter": {"is": "type", "types": [rng.choice(["City", "Reserve"])]},
                "spaces": rng.choice([1, 2]),
                "per_space": rng.random() < 0.6,
            },
        }
        run = start(state, card("lod", effect).side("unshaded"), Context("british"))
        if not isinstance(run.decision, PieceChoice):
            continue
        problem = distribution(run.decision)
        if problem.count() > 60:
            continue
        variables, rule = problem.rule()
        flat = [v for row in variables for v in row]
        by_z3 = sorted(
            tuple(tuple(int(s[v.name]) for v in row) for row in variables)
            for s in z3_solutions(rule, flat)
        )
        assert by_z3 == sorted(problem), effect
        checked += 1


def test_a_billion_executions_are_counted_without_listing() -> None:
    # "Remove up to 30 Militia, War Parties or Tories" over a map where every space
    # holds some: counted by dynamic programming, never listed; the executions at
    # the first, middle and last ranks are legal.
    state = CoinState.new("lod")
    for index, space in enumerate(s.name for s in state.rules.map.spaces):
        if index < 15:
            state.move_pieces("Available", space, "militia", 1)
        if state.rules.map.space(space).type != "City" and state.available("war_party"):
            state.move_pieces("Available", space, "war_party", 1)
        state.move_pieces("Available", space, "tory", 1)
    assert state.invariant_problems() == []
    event = card(
        "lod",
        {
            "op": "remove",
            "pieces": ["militia", "war_party", "tory"],
            "count": {"n": 30, "up_to": True},
            "where": {"per_space": False},
        },
    )
    view = legal_event_moves(state, event, "unshaded", "british")
    total = view.count()
    assert total > 10**9
    for rank in (0, total // 2, total - 1):
        assert view.explain(view.nth(rank)).legal


def test_moves_round_trip_through_json_and_bad_json_is_refused() -> None:
    move = EventMove(7, "shaded", "patriots", (0, (("Boston", "militia", 2),)))
    assert event_move_from_json(move.to_json()) == move
    for bad in (
        {"card": 7},
        {"card": "7", "side": "x", "faction": "y", "steps": []},
        {**move.to_json(), "steps": [[["Boston", "militia", -1]]]},
        {**move.to_json(), "steps": [[["Boston", "militia"]]]},
    ):
        with pytest.raises(InputError):
            event_move_from_json(bad)


PLACEABLE = {
    "lod": ("militia", "tory", "british_regular", "continental", "war_party", "village",
            "british_fort", "patriot_fort"),
    "fitl": ("us_troop", "arvn_troop", "police", "nva_troop", "nva_guerrilla", "vc_guerrilla",
             "vc_base", "nva_base", "us_base"),
}  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(("lod", "fitl")), st.integers(0, 10**9))
def test_every_move_applied_to_a_random_state_keeps_every_invariant(game: str, seed: int) -> None:
    rng = random.Random(seed)
    state = load_scenario(game, rng.choice(scenario_names(game)))
    spaces = [s.name for s in state.rules.map.spaces]
    for _ in range(rng.randint(0, 12)):
        piece, space = rng.choice(PLACEABLE[game]), rng.choice(spaces)
        trial = state.copy()
        if trial.available(piece):
            trial.move_pieces("Available", space, piece, 1)
            if not trial.invariant_problems():
                state = trial
    if rng.random() < 0.5 and game == "lod":
        state.set_flag("toa_played")
    deck = bundled_deck(game)
    event = rng.choice(deck.cards)
    side = rng.choice([s for s in ("unshaded", "shaded") if getattr(event, s) is not None])
    faction = rng.choice(state.rules.data.faction_ids())
    view = legal_event_moves(state, event, side, faction)
    for move in itertools.islice(view, 200):
        after = view.apply(move)  # raises if the state comes out unsound
        assert after.invariant_problems() == []


def test_a_condition_on_the_executing_faction_reads_names_or_ids() -> None:
    # 5.1: "If the Patriots execute this Event" holds when the Patriots do.
    event = card(
        "lod",
        {"op": "if", "condition": {"if": "executing", "factions": ["Patriots"]},
         "then": [{"op": "adjust", "track": "patriots_resources", "delta": 2}],
         "otherwise": [{"op": "adjust", "track": "british_resources", "delta": 2}]},
    )  # fmt: skip
    for faction, track in (("patriots", "patriots_resources"), ("british", "british_resources")):
        view = legal_event_moves(CoinState.new("lod"), event, "unshaded", faction)
        assert view.apply(next(iter(view))).track(track) == 2


def test_an_unmet_precondition_leaves_no_legal_execution() -> None:
    # 5.1.4 (FitL): Pivotal Events have preconditions for play; card 8 needs NVA Troops
    # in 3 or more spaces of South Vietnam.
    pivotal = bundled_deck("fitl").card(8)
    state = CoinState.new("fitl")
    view = legal_event_moves(state, pivotal, "unshaded", "nva")
    assert view.count() == 0 and list(view) == [] and not view
    refused = view.refusal(EventMove(8, "unshaded", "nva", ()))
    assert refused is not None and refused.rule == "5.1.4"
    for space in ("Saigon", "Hue", "Binh Dinh"):
        state.move_pieces("Available", space, "nva_troop", 1)
    met = legal_event_moves(state, pivotal, "unshaded", "nva")
    assert met.count() == 1 and met.refusal(EventMove(8, "unshaded", "nva", ())) is None
    # an ordinary event with a condition is still played, and does what it can
    never = {"if": "track", "track": "aid", "compare": ">=", "value": 99}
    plain = card("fitl", {"op": "if", "condition": never,
                          "then": [{"op": "adjust", "track": "aid", "delta": 1}]})  # fmt: skip
    assert legal_event_moves(CoinState.new("fitl"), plain, "unshaded", "us").count() == 1
    # so is a Winter Quarters card's Event (6.0): only 5.1.4's cards have a precondition
    unmet = {"if": "track", "track": "fni", "compare": ">=", "value": 4}
    winter = card("lod", {"op": "if", "condition": unmet,
                          "then": [{"op": "adjust", "track": "fni", "delta": -1}]})  # fmt: skip
    winter = winter.model_copy(update={"kind": "winter_quarters", "factions": ()})
    assert legal_event_moves(CoinState.new("lod"), winter, "unshaded", "british").count() == 1


# ---------------------------------------------------------------------- moves, counted


CUBES = ["british_regular", "tory", "continental", "militia"]
ANYWHERE = {"is": "anywhere"}


def move_card(n: int, pieces: list[str], to: dict[str, Any], *, up_to: bool = True) -> Card:
    """A card that moves (up to) ``n`` of ``pieces`` from any spaces to ``to``."""
    return card(
        "lod",
        {"op": "move", "pieces": pieces, "count": {"n": n, "up_to": up_to},
         "where": {"filter": ANYWHERE, "per_space": False}, "to": to},
    )  # fmt: skip


def test_a_move_of_cubes_anywhere_is_counted_as_its_departures_times_arrivals() -> None:
    # 5.1.3: every moved piece arrives. Cubes do not stack, so each type's m pieces
    # go to any of the k arrival spaces other than those left that may hold them:
    # C(m + k - 1, m) ways, whatever the other types do.
    state = load_scenario("lod", "1775")
    view = legal_event_moves(
        state, move_card(2, CUBES, {"filter": ANYWHERE}), "unshaded", "british"
    )
    departure = view._root.decision
    assert isinstance(departure, PieceChoice)
    board = [s.name for s in state.rules.map.spaces]
    expected = 0
    for selection in distribution(departure):
        atoms = departure.atoms(selection)
        left = {space for space, _, _ in atoms}
        ways = 1
        for piece in CUBES:
            moving = sum(n for _, kind, n in atoms if kind.split(":")[0] == piece)
            open_spaces = sum(1 for s in board if s not in left and may_hold(state, piece, s)[0])
            ways *= math.comb(moving + open_spaces - 1, moving) if open_spaces else 1
        expected += ways
    assert view.count() == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    scenario=st.sampled_from(["1775", "1776"]),
    pieces=st.lists(st.sampled_from([*CUBES, "british_fort", "war_party"]), min_size=1,
                    max_size=3, unique=True),
    n=st.integers(1, 2),
    up_to=st.booleans(),
    to=st.sampled_from([
        {"filter": ANYWHERE},
        {"filter": {"is": "type", "types": ["City"]}},
        {"filter": {"is": "type", "types": ["Colony", "Reserve"]}, "spaces": 2},
        {"filter": {"is": "type", "types": ["Colony"]}, "spaces": 2, "up_to": True},
        {"filter": {"is": "type", "types": ["Colony", "City"]}, "spaces": 1},
        {"filter": {"is": "adjacent", "filter": {"is": "pieces", "pieces": ["militia"]}}},
    ]),
)  # fmt: skip
def test_a_move_counted_without_listing_agrees_with_the_listing(
    scenario: str, pieces: list[str], n: int, up_to: bool, to: dict[str, Any]
) -> None:
    # differential: the count tallied over departures equals the moves listed, and
    # the lazy listing's first moves are those nth ranks first
    view = legal_event_moves(
        load_scenario("lod", scenario), move_card(n, pieces, to, up_to=up_to), "unshaded",
        "british",
    )  # fmt: skip
    listed = list(view)
    assert view.count() == len(listed) == len(set(listed))
    first = list(itertools.islice(view, 5))
    assert first == listed[:5] == [view.nth(i) for i in range(len(first))]


def test_a_past_deadline_stops_every_search_of_the_view() -> None:
    heavy = move_card(10, CUBES, {"filter": ANYWHERE})
    state = load_scenario("lod", "1776")
    view = legal_event_moves(state, heavy, "unshaded", "british", deadline=time.monotonic() - 1)
    with pytest.raises(SolverLimitError, match=r"card 1 .*time limit"):
        view.count()
    with pytest.raises(SolverLimitError):
        next(iter(view))
    with pytest.raises(SolverLimitError):
        view.nth(0)
    # a deadline that has not passed changes nothing
    later = legal_event_moves(state, heavy, "unshaded", "british", deadline=time.monotonic() + 600)
    assert list(itertools.islice(later, 3)) == list(
        itertools.islice(legal_event_moves(state, heavy, "unshaded", "british"), 3)
    )


def test_a_move_is_counted_without_carrying_out_its_departures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the stress card of benchmarks/heavy_move_deck.toml: 10 cubes, anywhere to
    # anywhere, has about 3.4 million departures; none is carried out to count
    carried_out: list[object] = []
    original = events_module.resume

    def counting_resume(run: Any, choice: Any) -> Any:
        carried_out.append(choice)
        return original(run, choice)

    monkeypatch.setattr(events_module, "resume", counting_resume)
    state = load_scenario("lod", "1776")
    view = legal_event_moves(
        state, move_card(10, CUBES, {"filter": ANYWHERE}), "unshaded", "british"
    )
    assert view.count() > 10**15 and carried_out == []
    # and the first page is made lazily: a departure carried out for each move listed
    assert len(list(itertools.islice(view, 20))) == 20 and len(carried_out) <= 20


def test_pieces_with_nowhere_to_arrive_are_not_moved() -> None:
    # 1.4.2: War Parties are never in Cities, so "move 1 War Party or Tory to a City"
    # can move only a Tory (5.1.3); no War Party leaves, and none is lost (5.1.1)
    to_city = {"filter": {"is": "type", "types": ["City"]}}
    event = move_card(1, ["war_party", "tory"], to_city, up_to=False)
    state = load_scenario("lod", "1776")
    view = legal_event_moves(state, event, "unshaded", "british")
    listed = list(view)
    assert listed and view.count() == len(listed)
    assert not [m for m in listed if any(kind.startswith("war_party") for _, kind, _ in m.steps[0])]
    for move in listed[:50]:
        assert view.apply(move).invariant_problems() == []
    # with no destination at all for the only type named, the event does nothing
    nowhere = legal_event_moves(
        state, move_card(1, ["war_party"], to_city, up_to=False), "unshaded", "british"
    )
    assert [move.steps for move in nowhere] == [()]
