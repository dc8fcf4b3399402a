"""Legal moves both ways: everything generated is accepted, everything else refused.

Candidates that are not generated come from a wide universe: every card on
every area for both players, effect plays, passes, discards of cards not in
hand, too many cards or in the wrong order, chance outcomes and objects that are
not moves at all. Each refusal must carry a reason and a rule, and ``play`` must
raise :class:`IllegalMoveError` naming the same rule without touching the state.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice

import pytest
from legalis.model.errors import IllegalMoveError
from legalis.model.sevenyears.moves import (
    CoinFlip,
    DifficultyDiscard,
    ExecuteDiscard,
    Lay,
    Pass,
    PlayEffect,
    RandomDiscard,
    Shuffle,
)
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.state import SevenYearsState

N_CARDS = 49
N_AREAS = 4


def sampled_states(h, seeds, options=None, every=3):
    """Every ``every``-th state of some seeded games, decisions and chance alike."""
    for seed in seeds:
        for i, state in enumerate(h.game_states(seed, options)):
            if i % every == 0 or state.is_over:
                yield state


def candidates(state: SevenYearsState, rng: random.Random) -> list[object]:
    """Moves of every kind, most of them illegal at ``state``."""
    out: list[object] = [None, "pass", 42, ("lay", 0, 0, 0)]
    for player in (0, 1):
        out.append(Pass(player))
        out.extend(PlayEffect(player, card) for card in range(N_CARDS))
        out.extend(Lay(player, card, area) for card in range(N_CARDS) for area in range(N_AREAS))
        hand = sorted(state.hands[player])
        out.append(ExecuteDiscard(player, ()))
        out.append(ExecuteDiscard(player, tuple(hand[:1])))
        out.append(ExecuteDiscard(player, tuple(hand[:5])))
        out.append(ExecuteDiscard(player, tuple(hand[:6])))  # one too many
        if len(set(hand)) >= 2:
            out.append(ExecuteDiscard(player, (hand[-1], hand[0])))  # not in card-list order
        absent = [card for card in range(N_CARDS) if card not in hand]
        out.extend(ExecuteDiscard(player, (card,)) for card in absent[:3])
        out.append(ExecuteDiscard(player, tuple(sorted(hand + hand)[:4])))  # more copies than held
        out.append(RandomDiscard(player, tuple(hand[:2])))
        out.append(RandomDiscard(player, tuple(hand[:1])))
        out.append(RandomDiscard(player, tuple(hand[:3])))
        for area in range(N_AREAS):
            for card in {c for _, _, c in state.grid[area]} | {0, 20}:
                out.append(DifficultyDiscard(player, 1 - player, area, card))
                out.append(DifficultyDiscard(player, player, area, card))
    out.extend([CoinFlip(0), CoinFlip(1), CoinFlip(2), Shuffle(()), Shuffle((0, 1, 2))])
    order = list(state.discard)
    rng.shuffle(order)
    out.append(Shuffle(tuple(order)))
    out.append(Shuffle(tuple(order[:-1])))
    return out


def check_refused(state: SevenYearsState, move: object) -> None:
    refusal = state.refusal(move)
    assert refusal is not None, move
    assert isinstance(refusal.reason, str) and refusal.reason.strip(), move
    assert isinstance(refusal.rule, str) and refusal.rule.strip(), move
    assert move not in state.legal_moves()
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        state.play(move)  # type: ignore[arg-type]
    assert caught.value.rule == refusal.rule
    assert state.to_json() == before, "a refused move leaves the state untouched"


def check_both_directions(h, state: SevenYearsState, rng: random.Random) -> None:
    view = state.legal_moves()
    if state.pending[0] == "shuffle":
        legal: set[object] = set()
    else:
        listed = list(view)
        legal = set(listed)
        assert len(listed) == len(legal) == view.count(), "no move is listed twice"
        assert legal == h.expected_engine_moves(state)
        for move in listed:
            assert state.refusal(move) is None, move
            assert move in view
            after = state.apply(move)
            assert after.invariant_problems() == []
    for move in candidates(state, rng):
        if move in legal or (
            state.pending[0] == "shuffle"
            and isinstance(move, Shuffle)
            and (Counter(move.order) == Counter(state.discard))
        ):
            assert state.refusal(move) is None
        else:
            check_refused(state, move)


@pytest.mark.parametrize("seeds", [range(0, 3), range(3, 6), range(6, 9)])
def test_both_directions_over_seeded_games(h, seeds):
    rng = random.Random(seeds.start)
    kinds: Counter[str] = Counter()
    for state in sampled_states(h, seeds):
        kinds[state.pending[0]] += 1
        check_both_directions(h, state, rng)
    assert kinds["conflict"] and kinds["execute"] and kinds["over"]


@pytest.mark.parametrize(
    "option",
    [
        {"tied_medals_status": "both"},
        {"effect_cards_in_conflict": True},
        {"difficulty_chooser": "attacker"},
        {"turmoil_end": "two_passes_in_a_row", "conflict_end": "two_passes_in_a_row"},
    ],
)
def test_both_directions_under_options(h, option):
    rng = random.Random(1)
    for state in sampled_states(h, range(2), SevenYearsOptions(**option), every=5):
        check_both_directions(h, state, rng)


def test_every_difficulty_and_random_discard_decision(h):
    # The rarer decisions, found over more games, checked both ways as well.
    rng = random.Random(2)
    found: Counter[str] = Counter()
    for seed in range(40):
        for state in h.game_states(seed):
            kind = state.pending[0]
            if kind in ("difficulty", "random_discard", "turmoil") and found[kind] < 12:
                found[kind] += 1
                check_both_directions(h, state, rng)
    assert min(found[k] for k in ("difficulty", "random_discard", "turmoil")) >= 5


def test_won_campaign_refuses_every_card(h):
    # AFTERMATH PHASE: if a Campaign is won, no further cards can be played to it.
    state = h.build(
        phase="conflict",
        step=2,
        turn=4,
        current="british",
        options={"europe_win_ends_game": False},
        active={"british": True, "french": True},
        medals={"british": {"europe": 3}},
        campaigns={"europe": "british"},
        hands={"british": ["Forts", "Frederic the Great", "Sieges"], "french": ["Forts"]},
    )
    for name in ("Forts", "Frederic the Great", "Sieges"):
        refusal = state.refusal(Lay(0, h.data.card_index(name), 0))
        assert refusal is not None and "AFTERMATH" in refusal.rule
    lays = {(h.data.cards[m.card].name, m.area) for m in state.legal_moves() if isinstance(m, Lay)}
    assert lays == {(name, area) for name in ("Forts", "Sieges") for area in (1, 2, 3)}


def test_nth_matches_iteration_and_stops(h):
    for state in sampled_states(h, range(3), every=2):
        view = state.legal_moves()
        if state.pending[0] == "shuffle":
            count = view.count()
            assert count == h.shuffle_count(state.to_json())
            for i in (0, 1, count // 3, count - 1):
                order = view.nth(i).order
                assert Counter(order) == Counter(state.discard)
            assert [view.nth(i) for i in range(3)] == list(islice(iter(view), 3))
            assert len({view.nth(i) for i in range(50)}) == 50
            with pytest.raises(IndexError):
                view.nth(count)
            continue
        listed = list(view)
        assert [view.nth(i) for i in range(len(listed))] == listed
        assert bool(view) == (len(listed) > 0) == (not state.is_over)
        assert len(view) == len(listed)
        with pytest.raises(IndexError):
            view.nth(len(listed))


def _chi_square(counts: Counter[object], moves: list[object], draws: int) -> float:
    expected = draws / len(moves)
    return sum((counts[m] - expected) ** 2 / expected for m in moves)


@pytest.mark.parametrize("kind", ["conflict", "execute", "random_discard", "difficulty"])
def test_random_move_is_uniform(h, kind):
    state = h.find(lambda s: s.pending[0] == kind and s.legal_moves().count() >= 2)
    view = state.legal_moves()
    moves = list(view)
    rng = random.Random(99)
    draws = 40 * len(moves)
    counts = Counter(view.random(rng) for _ in range(draws))
    assert set(counts) == set(moves), "every legal move is drawn"
    # chi-square with len(moves)-1 degrees of freedom: mean k-1, sd sqrt(2(k-1));
    # eight standard deviations above the mean is far beyond chance
    k = len(moves)
    assert _chi_square(counts, moves, draws) < (k - 1) + 8 * (2 * (k - 1)) ** 0.5 + 10


def test_sample_chance_is_always_legal(h):
    for seed in range(30):
        rng = random.Random(seed)
        state = SevenYearsState.new()
        while not state.is_over:
            if state.is_chance:
                move = state.sample_chance(rng)
                assert state.refusal(move) is None
                assert move in state.legal_moves()
                state.play(move)
            else:
                with pytest.raises(IllegalMoveError):
                    state.sample_chance(rng)
                state.play(state.legal_moves().random(rng))


def test_finished_game_refuses_everything(h):
    state = h.play_until(lambda s: s.is_over, seed=5)
    assert state is not None and state.is_over
    view = state.legal_moves()
    assert not view and view.count() == 0 and list(view) == []
    rng = random.Random(0)
    for move in candidates(state, rng):
        check_refused(state, move)


def test_refusal_names_the_rule(h):
    # CARD LIST NOTATION and CONFLICT PHASE: each refusal cites the rule it rests on.
    state = h.build(
        phase="conflict",
        step=2,
        current="british",
        active={"british": True, "french": True},
        hands={
            "british": ["French Armies", "Native Troops", "Corruption", "Forts"],
            "french": ["Forts"],
        },
    )
    idx = h.data.card_index
    use = state.refusal(Lay(0, idx("French Armies"), 0))
    where = state.refusal(Lay(0, idx("Native Troops"), 0))
    effect = state.refusal(Lay(0, idx("Corruption"), 1))
    absent = state.refusal(Lay(0, idx("Sieges"), 1))
    turn = state.refusal(Lay(1, idx("Forts"), 1))
    phase = state.refusal(ExecuteDiscard(0, ()))
    assert use is not None and "B, F" in use.rule
    assert where is not None and "N, E, W, I, C, A" in where.rule
    assert effect is not None and effect.rule
    assert absent is not None and "hand" in absent.reason
    assert turn is not None and "TURN SEQUENCE" in turn.rule
    assert phase is not None and "TURN SEQUENCE" in phase.rule


def test_state_before_apply_is_unchanged(h):
    state = h.find(lambda s: s.pending[0] == "conflict")
    before = state.to_json()
    for move in state.legal_moves():
        state.apply(move)
    assert state.to_json() == before


@pytest.mark.parametrize(
    "move",
    [
        Pass(2),
        Pass(7),
        Lay(2, 0, 0),
        Lay(0, 0, 9),
        Lay(0, 99, 0),
        PlayEffect(3, 11),
        ExecuteDiscard(2, ()),
        DifficultyDiscard(5, 0, 0, 0),
        RandomDiscard(4, (0, 1)),
    ],
)
def test_malformed_moves_are_refused_not_crashing(h, move):
    # a player number, card or area out of range is an illegal move with a reason,
    # at a conflict decision as much as anywhere else
    for kind in ("conflict", "execute"):
        state = h.find(lambda s, kind=kind: s.pending[0] == kind)
        refusal = state.refusal(move)
        assert refusal is not None and refusal.reason and refusal.rule
