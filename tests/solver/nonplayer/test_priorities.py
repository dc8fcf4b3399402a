"""Golden cases for 8.1.2, worked by hand from the paragraph."""

from __future__ import annotations

from legalis.model.coin.state import CoinState
from legalis.solver.nonplayer.priorities import (
    enemy_order,
    place_order,
    recover_order,
    remove_friendly_order,
    source_order,
)

A = "active"
U = "underground"


def test_place_forts_then_militia_then_continentals() -> None:
    # 8.1.2: Forts and Villages, then Militia or War Parties, then cubes
    state = CoinState.new("lod")
    picks = place_order(state, "Virginia", "patriots", 5)
    assert picks == [
        ("patriot_fort", A),
        ("patriot_fort", A),
        ("militia", U),
        ("militia", U),
        ("militia", U),
    ]


def test_place_alternates_beginning_with_fewest() -> None:
    # 8.1.2: alternating Regulars and Tories beginning with whichever is fewest
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "british_fort", 2)  # no stacking room
    state.move_pieces("Available", "Virginia", "british_regular", 2)
    state.move_pieces("Available", "Virginia", "tory", 1)
    assert place_order(state, "Virginia", "british", 3) == [
        ("tory", A),
        ("british_regular", A),
        ("tory", A),
    ]
    # even: Regulars first
    state.move_pieces("Available", "Virginia", "tory", 1)
    assert place_order(state, "Virginia", "british", 2)[0] == ("british_regular", A)


def test_remove_friendly_keeps_last_tory() -> None:
    # 8.1.2: beginning with whichever is most, not the last Tory if possible,
    # then Active before Underground, finally Forts and Villages
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "british_regular", 3)
    state.move_pieces("Available", "Virginia", "tory", 1)
    state.move_pieces("Available", "Virginia", "british_fort", 1)
    assert remove_friendly_order(state, "Virginia", "british", 6) == [
        ("british_regular", A),
        ("british_regular", A),
        ("british_regular", A),
        ("tory", A),
        ("british_fort", A),
    ]
    state = CoinState.new("lod")
    state.move_pieces("Available", "Quebec", "war_party", 2)
    state.flip("Quebec", "war_party", 1, U, A)
    state.move_pieces("Available", "Quebec", "village", 1)
    assert remove_friendly_order(state, "Quebec", "indians", 3) == [
        ("war_party", A),
        ("war_party", U),
        ("village", A),
    ]


def test_enemy_targets() -> None:
    # 8.1.2: Forts and Villages, then Militia/War Parties (Underground first),
    # then cubes alternating beginning with whichever is fewest (Regulars if even)
    state = CoinState.new("lod")
    state.move_pieces("Available", "Quebec", "village", 1)
    state.move_pieces("Available", "Quebec", "war_party", 2)
    state.flip("Quebec", "war_party", 1, U, A)
    state.move_pieces("Available", "Quebec", "tory", 2)
    state.move_pieces("Available", "Quebec", "british_regular", 2)
    assert enemy_order(state, "Quebec", "patriots", 6) == [
        ("village", A),
        ("war_party", U),
        ("war_party", A),
        ("british_regular", A),
        ("tory", A),
        ("british_regular", A),
    ]


def test_sources_and_recovery_order() -> None:
    # 8.1.2: Unavailable before Available; Blockades, Forts, Continentals/Tories, Regulars
    state = CoinState.new("lod")
    state.move_pieces("Available", "Unavailable", "british_regular", 1)
    assert source_order(state, "british_regular") == ["Unavailable", "Available"]
    state.move_pieces("Available", "Casualties", "british_fort", 1)
    state.move_pieces("Available", "Casualties", "tory", 1)
    assert recover_order(state, "british", 5) == [
        ("british_fort", "Casualties"),
        ("tory", "Casualties"),
        ("british_regular", "Unavailable"),
    ]
