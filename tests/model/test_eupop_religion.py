"""16.5 Spread of Religious Ideas and Spread of the Revolution: golden cases worked
by hand from the rules text on small inline maps."""

from __future__ import annotations

import random
from typing import Any

import pytest
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError
from legalis.model.eupop.religion import (
    TOKEN_KINDS,
    Placement,
    SpreadProgress,
    apply_placement,
    auto_spread,
    religion_clusters,
    revolution_clusters,
    spread_moves,
)
from legalis.model.eupop.resolution import ResolutionLog
from legalis.model.eupop.state import EuState, state_from_json


def make(
    borders: dict[str, list[str]],
    areas: dict[str, dict[str, Any]] | None = None,
    seas: dict[str, tuple[str, list[str]]] | None = None,
    provinces: dict[str, dict[str, Any]] | None = None,
    realms: dict[str, dict[str, Any]] | None = None,
    **extra: Any,
) -> EuState:
    realms = realms or {"france": {"kind": "player"}}
    return state_from_json(
        {
            "players": [r for r, v in realms.items() if v["kind"] == "player"],
            "realms": realms,
            "areas": areas or {},
            "provinces": provinces or {},
            "map": {
                "area": [
                    {"id": a, "provinces": [a.upper()], "borders": b} for a, b in borders.items()
                ],
                "sea": [
                    {"id": s, "mark": mark, "areas": on} for s, (mark, on) in (seas or {}).items()
                ],
            },
            **extra,
        }
    )


def areas_of(view: Any) -> list[tuple[str, str]]:
    return [(m.token, m.area) for m in view]


def play(state: EuState, progress: SpreadProgress, *moves: Placement) -> tuple[EuState, Any]:
    for move in moves:
        state, progress = apply_placement(state, progress, move)
    return state, progress


def both_directions(state: EuState, progress: SpreadProgress) -> None:
    view = spread_moves(state, progress)
    offered = list(view)
    assert len(offered) == len(set(offered)) == view.count()
    for move in offered:
        apply_placement(state, progress, move)  # every offered placement is accepted
    for token in TOKEN_KINDS:
        for area in state.map.areas:
            move = Placement(token, area)  # type: ignore[arg-type]
            if move not in offered and not any(
                m.area == area and m.token == token for m in offered
            ):
                refusal = view.refusal(move)
                assert refusal is not None and refusal.reason and refusal.rule.startswith("16.5")
                with pytest.raises(IllegalMoveError):
                    apply_placement(state, progress, move)


# 16.5 Spread of Religious Ideas: a lone Area is its own cluster; step 1 places next
# to it; "Orthodox or Muslim Areas may not be chosen".
def test_lone_area_cluster_and_orthodox_excluded() -> None:
    state = make(
        {"a": ["b", "c", "m"], "b": ["a"], "c": ["a"], "m": ["a"]},
        {"a": {"religion": "protestant"}, "c": {"religion": "orthodox"},
         "m": {"religion": "muslim"}},
    )  # fmt: skip
    assert religion_clusters(state) == [("protestant", frozenset({"a"}))]
    view = spread_moves(state, SpreadProgress("religion"))
    assert areas_of(view) == [("protestant", "b")]
    refusal = view.refusal(Placement("protestant", "c"))
    assert refusal is not None and "Orthodox or Muslim" in refusal.reason
    assert view.refusal(Placement("protestant", "m")) is not None
    both_directions(state, SpreadProgress("religion"))


# 16.5 step 1: "Adjacency may here be traced across a Sea Zone."
def test_adjacency_across_a_sea_zone() -> None:
    state = make({"a": [], "b": []}, {"a": {"religion": "counter_reformed"}},
                 seas={"s": ("none", ["a", "b"])})  # fmt: skip
    assert areas_of(spread_moves(state, SpreadProgress("religion"))) == [("counter_reformed", "b")]


# 16.5 step 1: "Placing a Q into an Area replaces any token that is already there."
def test_placing_replaces_a_token_and_leaves_the_input_alone() -> None:
    state = make({"a": ["b"], "b": ["a"]},
                 {"a": {"religion": "protestant"}, "b": {"token": "counter_reformed"}})  # fmt: skip
    before = state.to_json()
    new, _ = apply_placement(state, SpreadProgress("religion"), Placement("protestant", "b"))
    assert new.areas["b"].token == "protestant" and new.areas["b"].token_placed_this_turn
    assert state.to_json() == before


def chains(n: int, faith: str = "protestant") -> tuple[dict[str, list[str]], dict[str, Any]]:
    borders: dict[str, list[str]] = {}
    areas: dict[str, Any] = {}
    for i in range(1, n + 1):
        borders[f"p{i}"], borders[f"n{i}"] = [f"n{i}"], [f"p{i}"]
        areas[f"p{i}"] = {"religion": faith}
    return borders, areas


# 16.5 step 2: "If there is more than 1 Infectious Faith in play and you have already
# placed 2 Q of one type, you must place a Q of the other type."
def test_two_of_one_type_then_the_other() -> None:
    borders, areas = chains(3)
    borders |= {"r1": ["m1"], "m1": ["r1"]}
    areas["r1"] = {"religion": "counter_reformed"}
    first, second = Placement("protestant", "n1"), Placement("protestant", "n2")
    state, progress = play(make(borders, areas), SpreadProgress("religion"), first, second)
    view = spread_moves(state, progress)
    assert areas_of(view) == [("counter_reformed", "m1")]
    refusal = view.refusal(Placement("protestant", "n3"))
    assert refusal is not None and "other type" in refusal.reason


# 16.5 step 2: "place a new Q next to another cluster" and "you have placed less than
# 4 Q this Turn": the fifth cluster gets nothing.
def test_another_cluster_and_the_four_token_limit() -> None:
    state = make(*chains(5))
    progress = SpreadProgress("religion")
    state, progress = play(state, progress, Placement("protestant", "n1"))
    view = spread_moves(state, progress)
    assert ("protestant", "n1") not in areas_of(view)
    refusal = view.refusal(Placement("protestant", "n1"))
    assert refusal is not None  # p1's cluster was spread from already
    state, progress = play(state, progress, *(Placement("protestant", f"n{i}") for i in (2, 3, 4)))
    view = spread_moves(state, progress)
    assert view.count() == 0
    refusal = view.refusal(Placement("protestant", "n5"))
    assert refusal is not None and "4 tokens placed this Turn" in refusal.reason


# 16.5 step 2: "You may not replace another Q placed on the same Turn." (step 1
# replaces any token).
def test_no_replacing_a_q_of_this_turn_in_step_two() -> None:
    borders = {"p1": ["n1"], "n1": ["p1"], "p2": ["z"], "z": ["p2"]}
    areas = {"p1": {"religion": "protestant"}, "p2": {"religion": "protestant"},
             "z": {"token": "counter_reformed", "token_placed_this_turn": True}}  # fmt: skip
    state = make(borders, areas)
    assert ("protestant", "z") in areas_of(spread_moves(state, SpreadProgress("religion")))
    state, progress = play(state, SpreadProgress("religion"), Placement("protestant", "n1"))
    view = spread_moves(state, progress)
    refusal = view.refusal(Placement("protestant", "z"))
    assert refusal is not None and "placed this Turn" in refusal.reason
    both_directions(state, progress)


# 16.5 step 3: "place Diverse Faiths tokens instead in any 2 Catholic Areas not
# adjacent to Sea Zones marked with a †"; auto: alphabetical, ignoring Areas that
# already have Diverse Faiths.
def test_diverse_faiths_when_no_cluster() -> None:
    state = make({"c1": [], "c2": [], "c3": [], "c4": [], "o": []},
                 {"c2": {"token": "diverse_faiths"}, "o": {"religion": "orthodox"}},
                 seas={"s": ("†", ["c1"])})  # fmt: skip
    view = spread_moves(state, SpreadProgress("religion"))
    assert areas_of(view) == [("diverse_faiths", a) for a in ("c2", "c3", "c4")]
    refusal = view.refusal(Placement("diverse_faiths", "c1"))
    assert refusal is not None and "†" in refusal.reason
    assert view.refusal(Placement("diverse_faiths", "o")) is not None
    both_directions(state, SpreadProgress("religion"))
    log = ResolutionLog()
    new = auto_spread(state, "religion", log)
    assert [a for a, s in sorted(new.areas.items()) if s.token_placed_this_turn] == ["c3", "c4"]
    assert all(d.decided_by == "alphabetical by Area name" for d in log.decisions)


def preference_state(b: dict[str, Any], c: dict[str, Any]) -> EuState:
    return make({"a": ["b", "c"], "b": ["a"], "c": ["a"]}, {"a": {"religion": "protestant"}},
                provinces={"B": b, "C": c}, realms={"france": {"kind": "player"}})  # fmt: skip


# 16.5 auto-resolution: "preference goes to Areas with at least 1 t; then to Areas
# with Provinces of the highest total Tax Value; break ties in alphabetical order".
@pytest.mark.parametrize(
    ("b", "c", "chosen", "decided"),
    [
        ({"tax": 5}, {"tax": 1, "town": "small", "town_of": "france"}, "c", "at least 1 t"),
        ({"tax": 1}, {"tax": 3}, "c", "highest total Tax Value"),
        ({"tax": 2}, {"tax": 2}, "b", "alphabetical by Area name"),
    ],
)
def test_auto_preference_order(b: dict[str, Any], c: dict[str, Any], chosen: str,
                               decided: str) -> None:  # fmt: skip
    log = ResolutionLog()
    new = auto_spread(preference_state(b, c), "religion", log)
    assert new.areas[chosen].token == "protestant"
    assert log.decisions[0].chosen == chosen and log.decisions[0].decided_by == decided


# 16.5 auto-resolution: "alternating between Protestant and Counter-Reformed, starting
# with Protestant"; a faith with no candidate is skipped.
def test_auto_alternates_starting_with_protestant() -> None:
    borders = {"p": ["x"], "x": ["p"], "r": ["y", "z"], "y": ["r"], "z": ["r"]}
    state = make(borders, {"p": {"religion": "protestant"}, "r": {"religion": "counter_reformed"}})
    log = ResolutionLog()
    new = auto_spread(state, "religion", log)
    assert [d.chosen for d in log.decisions] == ["x", "y"]
    assert "(protestant)" in log.decisions[0].rule
    assert new.areas["x"].token == "protestant" and new.areas["y"].token == "counter_reformed"
    only_cr = make({"r": ["y"], "y": ["r"]}, {"r": {"religion": "counter_reformed"}})
    log = ResolutionLog()
    auto_spread(only_cr, "religion", log)
    assert log.decisions[0].decided_by.startswith("no protestant placement")


PLAYERS = {
    "france": {"kind": "player", "capital": "ILE", "stability": 0},
    "england": {"kind": "player", "capital": "THAMES", "stability": -1},
    "spain": {"kind": "player", "capital": "CASTILE", "stability": 0},
}


# 16.5 Spread of the Revolution: "If there are no ^ on the board, place ^ in 2 PR
# Capital Areas"; auto: "the 2 PRs with lowest s (decide ties randomly)".
def test_revolution_first_placements_in_capitals() -> None:
    state = make({"ile": [], "thames": [], "castile": [], "x": []}, realms=PLAYERS,
                 provinces={"ILE": {}, "THAMES": {}, "CASTILE": {}},
                 revolutionary_tokens=5)  # fmt: skip
    view = spread_moves(state, SpreadProgress("revolution"))
    assert sorted(m.area for m in view) == ["castile", "ile", "thames"]
    assert view.refusal(Placement("revolutionary", "x")) is not None
    log = ResolutionLog()
    new = auto_spread(state, "revolution", log, LoggedRandom(3))
    tied = ["france", "spain"]
    random.Random(3).shuffle(tied)
    expected = {"thames", PLAYERS[tied[0]]["capital"].lower()}
    assert {a for a, s in new.areas.items() if s.revolutionary} == expected
    assert new.revolutionary_tokens == 3
    assert any("random" in d.decided_by for d in log.decisions)


# 16.5 Spread of the Revolution: "If there is only 1 cluster of ^, also add a ^ in an
# Area not adjacent to this cluster"; ^ may go in Orthodox or Muslim Areas.
def test_revolution_lone_cluster_extra_token() -> None:
    borders = {"a": ["b"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c"]}
    state = make(borders, {"a": {"revolutionary": True}, "b": {"religion": "muslim"}},
                 revolutionary_tokens=3)  # fmt: skip
    assert revolution_clusters(state) == [("revolutionary", frozenset({"a"}))]
    progress = SpreadProgress("revolution")
    assert areas_of(spread_moves(state, progress)) == [("revolutionary", "b")]
    state, progress = play(state, progress, Placement("revolutionary", "b"))
    view = spread_moves(state, progress)
    assert areas_of(view) == [("revolutionary", "d")]
    refusal = view.refusal(Placement("revolutionary", "c"))
    assert refusal is not None and "away from the cluster" in refusal.reason
    state, progress = play(state, progress, Placement("revolutionary", "d"))
    assert spread_moves(state, progress).count() == 0
    assert state.revolutionary_tokens == 1


# 16.5 Spread of the Revolution: "If there are no more available ^, you may remove
# one from the board to use it."
def test_revolution_takes_from_the_board_when_none_available() -> None:
    borders = {"a": ["b"], "b": ["a"], "x": ["y"], "y": ["x"]}
    state = make(borders, {"a": {"revolutionary": True}, "x": {"revolutionary": True}})
    view = spread_moves(state, SpreadProgress("revolution"))
    assert Placement("revolutionary", "b", "x") in view
    refusal = view.refusal(Placement("revolutionary", "b"))
    assert refusal is not None and "from the board" in refusal.reason
    new, _ = apply_placement(
        state, SpreadProgress("revolution"), Placement("revolutionary", "b", "x")
    )
    assert new.areas["b"].revolutionary and not new.areas["x"].revolutionary
    assert new.revolutionary_tokens == 0
    log = ResolutionLog()
    auto_spread(state, "revolution", log)
    assert any("taken from the board" in d.rule for d in log.decisions)
