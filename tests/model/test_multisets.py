"""Sub-multisets and distinct permutations, checked against itertools brute force."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.core.multisets import SubMultisets, nth_permutation, permutations_count

COUNTS = st.dictionaries(
    st.sampled_from("abcdef"), st.integers(min_value=0, max_value=4), max_size=5
)


def brute_submultisets(counts: dict[str, int], lo: int, hi: int) -> set[tuple[str, ...]]:
    items = [key for key, n in counts.items() for _ in range(n)]
    order = {key: i for i, key in enumerate(counts)}
    return {
        tuple(sorted(chosen, key=order.__getitem__))
        for size in range(max(lo, 0), min(hi, len(items)) + 1)
        for chosen in combinations(items, size)
    }


@settings(max_examples=300, deadline=None, database=None)
@given(counts=COUNTS, lo=st.integers(-1, 7), hi=st.integers(0, 9))
def test_submultisets_agree_with_brute_force(counts, lo, hi):
    picks = SubMultisets(counts, lo, hi)
    expected = brute_submultisets(counts, lo, hi)
    listed = list(picks)
    assert picks.count() == len(expected) == len(listed) == len(picks)
    assert set(listed) == expected
    assert [picks.nth(i) for i in range(len(listed))] == listed
    with pytest.raises(IndexError):
        picks.nth(len(listed))
    with pytest.raises(IndexError):
        picks.nth(-1)


@settings(max_examples=200, deadline=None, database=None)
@given(counts=COUNTS, lo=st.integers(0, 5), hi=st.integers(0, 8))
def test_submultisets_are_ordered_by_size_and_keep_key_order(counts, lo, hi):
    picks = SubMultisets(counts, lo, hi)
    listed = list(picks)
    sizes = [len(p) for p in listed]
    assert sizes == sorted(sizes)
    order = [key for key in counts if counts[key] > 0]
    for pick in listed:
        positions = [order.index(key) for key in pick]
        assert positions == sorted(positions)
        assert not Counter(pick) - Counter(counts)


def test_submultisets_worked_example():
    # a hand {a, a, b}, discarding 0 to 2: (), (a), (b), (a, a), (a, b)
    picks = SubMultisets({"a": 2, "b": 1}, 0, 2)
    assert sorted(picks, key=lambda p: (len(p), p)) == [(), ("a",), ("b",), ("a", "a"), ("a", "b")]
    assert picks.count() == 5


def test_an_execute_sized_count():
    # nine different cards, up to five discarded: 1 + 9 + 36 + 84 + 126 + 126
    picks = SubMultisets({i: 1 for i in range(9)}, 0, 5)
    assert picks.count() == 382


def test_empty_ranges():
    assert SubMultisets({"a": 2}, 3, 5).count() == 0
    assert list(SubMultisets({"a": 2}, 3, 5)) == []
    assert SubMultisets({}, 0, 5).count() == 1
    assert list(SubMultisets({}, 0, 5)) == [()]
    assert SubMultisets({"a": 2}, 2, 1).count() == 0


def test_negative_upper_bound_is_an_empty_range():
    # sizes lo..hi with hi below zero: no sub-multiset, as for any hi below lo
    assert SubMultisets({"a": 2}, 0, -1).count() == 0
    assert list(SubMultisets({}, 0, -1)) == []


SMALL = st.dictionaries(
    st.sampled_from("abcd"), st.integers(min_value=0, max_value=3), max_size=4
).filter(lambda c: sum(c.values()) <= 7)


@settings(max_examples=200, deadline=None, database=None)
@given(counts=SMALL)
def test_permutations_agree_with_itertools(counts):
    items = [key for key, n in counts.items() for _ in range(n)]
    distinct = set(permutations(items))
    total = permutations_count(counts)
    assert total == len(distinct)
    listed = [nth_permutation(counts, i) for i in range(total)]
    assert set(listed) == distinct
    assert len(set(listed)) == total
    # ranked in key order: the listing is sorted by the position of each key
    rank = {key: i for i, key in enumerate(counts)}
    keyed = [tuple(rank[k] for k in order) for order in listed]
    assert keyed == sorted(keyed)
    with pytest.raises(IndexError):
        nth_permutation(counts, total)


def test_permutations_count_large():
    # 88 cards with the copies of the deck: the multinomial, computed the long way
    copies = [
        1,
        4,
        1,
        2,
        1,
        1,
        2,
        2,
        1,
        4,
        4,
        1,
        1,
        1,
        1,
        1,
        1,
        2,
        2,
        2,
        2,
        1,
        1,
        4,
        4,
        1,
        2,
        1,
        1,
        2,
        2,
        2,
        2,
        4,
        2,
        1,
        2,
        1,
        1,
        1,
        1,
        1,
        2,
        2,
        2,
        2,
        2,
        2,
        2,
    ]
    assert sum(copies) == 88
    expected = 1
    for i in range(2, 89):
        expected *= i
    for n in copies:
        for i in range(2, n + 1):
            expected //= i
    counts = dict(enumerate(copies))
    assert permutations_count(counts) == expected
    last = nth_permutation(counts, expected - 1)
    assert Counter(last) == Counter(counts)
    assert list(last) == sorted(last, reverse=True)
    assert list(nth_permutation(counts, 0)) == sorted(last)
