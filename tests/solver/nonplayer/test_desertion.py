"""The Desertion Phase (6.6) and the Non-player choices in it (8.4.10, 8.5.7,
8.6.10, 8.7.6): golden cases worked from the rule text, counts against brute force,
and every Non-player choice accepted by the legal-move view."""

from __future__ import annotations

import itertools

from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.winter import (
    Desertion,
    apply_desertion,
    desertion_refusal,
    desertion_steps,
    desertion_view,
)
from legalis.solver.nonplayer.desertion import nonplayer_desertion
from legalis.solver.nonplayer.trace import Trace


def put(state: CoinState, space: str, piece: str, n: int, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def test_one_in_five_desert_and_who_chooses() -> None:
    # 6.6: one in five Militia, Continentals and Tories on the map (rounded down); the
    # Indians choose the first Militia and Continental, the French the first Tory
    state = CoinState.new("lod")
    put(state, "Virginia", "militia", 6)
    put(state, "Pennsylvania", "militia", 5)
    put(state, "Virginia", "continental", 9)
    put(state, "Boston", "tory", 10)
    assert desertion_steps(state) == [
        ("indians", "militia", 1, "6.6.1"),
        ("patriots", "militia", 1, "6.6.1"),
        ("indians", "continental", 1, "6.6.1"),
        ("french", "tory", 1, "6.6.2"),
        ("british", "tory", 1, "6.6.2"),
    ]


def test_desertion_choices_count_like_brute_force() -> None:
    # 6.6.1: any two Militia of the map, by space and status
    state = CoinState.new("lod")
    put(state, "Virginia", "militia", 2, "active")
    put(state, "Virginia", "militia", 1)
    put(state, "Boston", "militia", 1)
    bins = [("Boston", "militia:underground", 1), ("Virginia", "militia:active", 2),
            ("Virginia", "militia:underground", 1)]  # fmt: skip
    brute = set()
    for counts in itertools.product(*(range(have + 1) for _, _, have in bins)):
        if sum(counts) == 2:
            removed = tuple((s, k, n) for (s, k, _), n in zip(bins, counts, strict=True) if n)
            brute.add(Desertion("patriots", "militia", removed))
    view = desertion_view(state, "patriots", "militia", 2)
    assert set(view) == brute and view.count() == len(brute) == 4  # 2A, A+U, A+B, U+B
    assert all(desertion_refusal(state, m, "patriots", "militia", 2) is None for m in view)
    too_many = Desertion("patriots", "militia", (("Boston", "militia:underground", 2),))
    assert desertion_refusal(state, too_many, "patriots", "militia", 2) is not None
    after, _ = apply_desertion(state, next(iter(view)), 2)
    assert sum(after.pieces(s, "militia") for s in ("Boston", "Virginia")) == 2


def test_british_keep_control_and_the_last_tory() -> None:
    # 8.4.10: change the least Control, if possible not removing the last Tory
    state = CoinState.new("lod")
    put(state, "Boston", "tory", 2)
    put(state, "Boston", "militia", 1)  # 2 Tories against 1: one more leaves no Control
    put(state, "Virginia", "tory", 1)  # the last Tory, Control changes too
    put(state, "New York", "tory", 3)
    move = nonplayer_desertion(state, "british", "tory", 2, LoggedRandom(1), Trace())
    assert move.removed == (("New York", "tory", 2),)


def test_french_take_the_tory_that_changes_control_of_most_population() -> None:
    # 8.6.10: change Control of the most Population (New York City 2 over Boston 1)
    state = CoinState.new("lod")
    put(state, "Boston", "tory", 1)
    put(state, "New York City", "tory", 1)
    put(state, "Virginia", "tory", 4)
    trace = Trace()
    move = nonplayer_desertion(state, "french", "tory", 1, LoggedRandom(0), trace)
    assert move.removed == (("New York City", "tory", 1),)
    assert trace.steps[0].rule == "8.6.10"


def test_indians_take_militia_from_village_spaces_underground_first() -> None:
    # 8.7.6: first from a space with a Village; 8.1.2: Underground before Active
    state = CoinState.new("lod")
    put(state, "Virginia", "militia", 1, "active")
    put(state, "Virginia", "militia", 1)
    put(state, "Virginia", "village", 1)
    put(state, "Pennsylvania", "militia", 1)
    move = nonplayer_desertion(state, "indians", "militia", 1, LoggedRandom(0), Trace())
    assert move.removed == (("Virginia", "militia:underground", 1),)


def test_patriots_keep_control_and_active_militia_go_first() -> None:
    # 8.5.7: change as little Control as possible, then not the last Patriot unit;
    # 8.1.2: Active Militia before Underground
    state = CoinState.new("lod")
    put(state, "Virginia", "militia", 1)  # the last unit, and its Control
    put(state, "Pennsylvania", "militia", 2, "active")
    put(state, "Pennsylvania", "militia", 1)
    move = nonplayer_desertion(state, "patriots", "militia", 1, LoggedRandom(0), Trace())
    assert move.removed == (("Pennsylvania", "militia:active", 1),)


def test_every_nonplayer_desertion_is_legal_and_replays() -> None:
    for scenario in ("1775", "1776", "1778"):
        state = load_scenario("lod", scenario)
        for space in state.rules.spaces[:8]:
            for piece in ("tory", "militia"):
                if state.available(piece):
                    put(state, space, piece, 1)
        for seed in range(5):
            for chooser, piece, n, _ in desertion_steps(state):
                move = nonplayer_desertion(state, chooser, piece, n, LoggedRandom(seed), Trace())
                assert move in set(desertion_view(state, chooser, piece, n))
                again = nonplayer_desertion(state, chooser, piece, n, LoggedRandom(seed), Trace())
                assert again == move
