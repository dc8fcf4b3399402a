"""Perft-style counts for The Seven Years War, checked by an independent brute force.

Positions are reached by seeded random play. At each position the number of legal
moves is worked out from the card list of the rules and the state's JSON (see
``conftest.Helpers.expected_moves``): every index-subset of the hand for Execute,
every card on every area for Conflict, and so on. Deeper counts walk the game
tree: the engine's version counts the last level with ``view.count()``, the brute
force applies every independently listed move. Chance outcomes are fixed by a
sampler seeded from the state itself, so both walks see the same tree.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from legalis.model.sevenyears.moves import Lay, move_from_json
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.state import SevenYearsState

DECISIONS = ("execute", "turmoil", "conflict", "difficulty")


def perft_engine(state: SevenYearsState, depth: int, h) -> int:
    if state.is_over or depth == 0:
        return 1
    if state.is_chance:
        return perft_engine(state.apply(h.chance(state)), depth, h)
    view = state.legal_moves()
    if depth == 1:
        return view.count()
    return sum(perft_engine(state.apply(move), depth - 1, h) for move in view)


def perft_brute(state: SevenYearsState, depth: int, h) -> int:
    if state.is_over or depth == 0:
        return 1
    if state.is_chance:
        return perft_brute(state.apply(h.chance(state)), depth, h)
    total = 0
    for raw in h.expected_moves(state.to_json()):
        total += perft_brute(state.apply(move_from_json(raw, h.data)), depth - 1, h)
    return total


def assert_counts_agree(state: SevenYearsState, h) -> int:
    """The engine's count, its listing and the independent listing agree at ``state``."""
    view = state.legal_moves()
    j = state.to_json()
    if state.pending[0] == "shuffle":
        # distinct orders of up to 88 cards: counted, never listed
        assert view.count() == h.shuffle_count(j)
        return view.count()
    listed = list(view)
    expected = h.expected_moves(j)
    assert view.count() == len(listed) == len(expected), state.pending
    assert {h.canon(h.to_json(m)) for m in listed} == {h.canon(m) for m in expected}
    return len(expected)


# ---------------------------------------------------------------- depth 1, hand-counted


def test_execute_count_of_a_nine_card_hand_without_repeats(h):
    # EXECUTE PHASE: discard up to 5 of 9 distinct cards: sum of C(9, k) for k = 0..5.
    hand = list(h.NINE_DISTINCT)
    state = h.build(
        phase="execute",
        hands={"british": hand, "french": hand[:3]},
        execute_queue=["british", "french"],
    )
    expected = sum(len(list(combinations(range(9), k))) for k in range(6))
    assert expected == 382
    assert state.legal_moves().count() == expected == len(list(state.legal_moves()))


def test_execute_count_with_repeated_copies(h):
    # EXECUTE PHASE: copies of one card are interchangeable, so discards are multisets.
    hand = ["Forts"] * 4 + ["Garrison"] * 3 + ["Sieges", "Fleet"]
    state = h.build(
        phase="execute",
        hands={"british": hand, "french": ["Fleet"]},
        execute_queue=["british", "french"],
    )
    # generating function (1+x+..+x^4)(1+..+x^3)(1+x)^2, coefficients of x^0..x^5 summed
    poly = [1]
    for copies in (4, 3, 1, 1):
        poly = [
            sum(poly[i - j] for j in range(copies + 1) if 0 <= i - j < len(poly))
            for i in range(len(poly) + copies)
        ]
    expected = sum(poly[:6])
    brute = {tuple(sorted(c)) for k in range(6) for c in combinations(hand, k)}
    assert expected == len(brute)
    assert state.legal_moves().count() == expected
    assert_counts_agree(state, h)


def test_conflict_count_hand_worked(h):
    # CARD LIST NOTATION: Clive (B, I): 1 area; Native Troops (C): 3; Forts (A): 4;
    # French Armies (F) and an X card: none. Plus the pass: 1 + 1 + 3 + 4 = 9.
    hand = [
        "Clive of India",
        "Native Troops",
        "Native Troops",
        "Forts",
        "French Armies",
        "Corruption",
    ]
    state = h.build(
        phase="conflict",
        step=2,
        current="british",
        active={"british": True, "french": True},
        hands={"british": hand, "french": ["Forts"]},
    )
    assert state.pending == ("conflict", 0)
    assert state.legal_moves().count() == 9
    assert_counts_agree(state, h)


def test_conflict_count_with_a_won_campaign(h):
    # AFTERMATH PHASE: a won Campaign takes no more cards: Forts (A) now has 3 areas.
    state = h.build(
        phase="conflict",
        step=2,
        turn=3,
        current="french",
        active={"british": True, "french": True},
        medals={"french": {"india": 3}},
        campaigns={"india": "french"},
        hands={"british": ["Forts"], "french": ["Forts", "Nawabs", "Native Troops"]},
    )
    # pass + Forts on E, N, W + Nawabs (I): none + Native Troops on N, W
    assert state.legal_moves().count() == 1 + 3 + 0 + 2
    assert_counts_agree(state, h)


# ---------------------------------------------------------------- depth 1 over seeded games


@pytest.mark.parametrize("seed", range(12))
def test_every_decision_of_a_seeded_game(h, seed):
    seen: Counter[str] = Counter()
    for state in h.game_states(seed):
        if state.is_over:
            assert state.legal_moves().count() == 0 == len(list(state.legal_moves()))
            continue
        if state.pending[0] in DECISIONS:
            assert assert_counts_agree(state, h) >= 2, "a decision offers a real choice"
        else:
            assert_counts_agree(state, h)
        seen[state.pending[0]] += 1
    assert seen["execute"] >= 2 and seen["conflict"] >= 2 and seen["coin"] >= 2


@pytest.mark.parametrize(
    "option",
    [
        {"tied_medals_status": "both"},
        {"effect_cards_in_conflict": True},
        {"difficulty_chooser": "attacker"},
        {"turmoil_end": "two_passes_in_a_row", "conflict_end": "two_passes_in_a_row"},
    ],
)
def test_every_decision_under_an_option(h, option):
    options = SevenYearsOptions(**option)
    for seed in range(4):
        for state in h.game_states(seed, options):
            if not state.is_over:
                assert_counts_agree(state, h)


# ---------------------------------------------------------------- deeper counts


def _position(h, kind: str, seed: int, turn: int = 1) -> SevenYearsState:
    return h.find(lambda s: s.pending[0] == kind and s.turn >= turn, seeds=range(seed, seed + 50))


@pytest.mark.parametrize(
    ("kind", "seed", "turn", "depth"),
    [
        ("conflict", 1, 1, 3),
        ("conflict", 2, 2, 3),
        ("conflict", 5, 3, 3),
        ("conflict", 21, 4, 3),
        ("turmoil", 3, 1, 4),
        ("turmoil", 7, 2, 4),
        ("turmoil", 11, 3, 4),
        ("difficulty", 4, 1, 2),
        ("execute", 6, 1, 1),
        ("execute", 14, 3, 1),
        ("random_discard", 8, 1, 3),
        ("random_discard", 12, 2, 3),
    ],
)
def test_perft_engine_against_brute_force(h, kind, seed, turn, depth):
    state = _position(h, kind, seed, turn)
    before = state.to_json()
    engine = perft_engine(state, depth, h)
    brute = perft_brute(state, depth, h)
    assert engine == brute
    assert engine >= 2
    assert state.to_json() == before, "walking the tree left the position unchanged"


def test_perft_counts_chance_free_conflict_by_hand(h):
    # CONFLICT PHASE: players take turns laying one card. British Forts (A: 4 areas)
    # and Clive (I); French Forts. Depth 2 from British: British pass (French then
    # has pass + 4 lays = 5) or one of 5 lays (French again has 5): 6 * 5 = 30.
    state = h.build(
        phase="conflict",
        step=2,
        current="british",
        active={"british": True, "french": True},
        hands={"british": ["Forts", "Clive of India"], "french": ["Forts"]},
    )
    assert perft_engine(state, 1, h) == 6
    assert perft_engine(state, 2, h) == perft_brute(state, 2, h) == 30


def test_lay_moves_are_the_cross_product_of_rules(h):
    # CARD LIST NOTATION: the British lays are exactly the (card, area) pairs the
    # letters allow, checked over every card in a hand holding one of each.
    hand = [name for name, card in h.cards.items() if not card.effect]
    state = h.build(
        phase="conflict",
        step=2,
        current="british",
        active={"british": True, "french": True},
        hands={"british": hand, "french": []},
    )
    lays = {(m.card, m.area) for m in state.legal_moves() if isinstance(m, Lay)}
    letters = {"B": True, "F": False, "A": True}
    expected = set()
    for name in hand:
        card = h.cards[name]
        areas = {"A": "ENIW", "C": "NIW"}.get(card.location, card.location)
        if letters[card.use]:
            for a, code in enumerate("ENIW"):
                if code in areas:
                    expected.add((h.data.card_index(name), a))
    assert lays == expected


def test_engine_card_data_is_the_card_list_of_the_rules(h):
    # CARD LIST: the brute force above reads the rules' list; the engine must load
    # the same 49 cards, 88 in all.
    assert [c.name for c in h.data.cards] == list(h.cards)
    assert sum(c.copies for c in h.cards.values()) == 88 == h.data.deck_size
    for card in h.data.cards:
        mine = h.cards[card.name]
        assert (card.copies, card.force, card.effect, card.use, card.location, card.difficulty) == (
            mine.copies,
            mine.force,
            mine.effect,
            mine.use,
            mine.location,
            mine.star,
        ), card.name
