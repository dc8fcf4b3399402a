"""JSON in and out: exact round trips, and bad input refused with the field's path.

Hypothesis mutates valid state and move JSON (deleting fields, putting junk in
their place); the loaders must either accept the result or raise
:class:`InputError`, never another exception. A state they accept must be one
the engine can play on.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from legalis.model.errors import InputError, LegalisError
from legalis.model.sevenyears.moves import move_from_json, move_to_json
from legalis.model.sevenyears.state import SevenYearsState, moves_from_json, state_from_json

AREAS = ("europe", "north_america", "india", "west_indies")


@pytest.fixture(scope="module")
def samples(h) -> list[dict[str, Any]]:
    """State JSON from every phase of a few seeded games, final positions included."""
    out = []
    for seed in range(6):
        for i, state in enumerate(h.game_states(seed)):
            if i % 9 == 0 or state.is_over or state.pending[0] in ("difficulty", "random_discard"):
                out.append(state.to_json())
    return out


def load_error(raw: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        state_from_json(raw)
    return caught.value


# ---------------------------------------------------------------- round trips


def test_round_trip_is_exact(h, samples):
    kinds = set()
    for j in samples:
        state = state_from_json(copy.deepcopy(j))
        assert state.to_json() == j
        kinds.add(j["pending"]["kind"])
        if j["pending"]["kind"] != "shuffle":
            assert list(state.legal_moves()) == list(state_from_json(j).legal_moves())
    assert {"execute", "conflict", "coin", "over", "shuffle"} <= kinds


def test_loaded_state_plays_on_like_the_original(h):
    for seed in range(4):
        state = h.play_until(lambda s: s.pending[0] == "conflict" and s.turn >= 2, seed)
        assert state is not None
        loaded = state_from_json(state.to_json())
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not state.is_over:
            assert h.step(state, rng_a) == h.step(loaded, rng_b)
            assert loaded.to_json() == state.to_json()


def test_round_trip_keeps_the_options(h):
    state = h.build(
        phase="conflict",
        step=1,
        hands={"british": ["Forts"], "french": ["Fleet"]},
        options={"difficulty_chooser": "attacker", "europe_win_ends_game": False},
    )
    j = state.to_json()
    assert j["options"]["difficulty_chooser"] == "attacker"
    again = state_from_json(j)
    assert again.options.difficulty_chooser == "attacker"
    assert again.options.europe_win_ends_game is False
    assert again.to_json() == j


def test_move_round_trip(h, samples):
    seen = set()
    for j in samples:
        state = state_from_json(j)
        if state.pending[0] == "shuffle":
            moves = [state.legal_moves().nth(0), state.sample_chance(random.Random(0))]
        else:
            moves = list(state.legal_moves())[:60]
        for move in moves:
            raw = move_to_json(move, h.data)
            assert move_from_json(raw, h.data) == move
            seen.add(raw["type"])
        assert moves_from_json([move_to_json(m, h.data) for m in moves], h.data) == moves
    assert {"execute_discard", "lay", "pass", "coin_flip", "shuffle"} <= seen


def test_move_json_names_cards_and_areas(h):
    raw = {"type": "lay", "player": "french", "card": "Forts", "area": "west_indies"}
    move = move_from_json(raw, h.data)
    assert move.player == 1 and h.data.cards[move.card].name == "Forts" and move.area == 3
    assert move_to_json(move, h.data) == raw


# ---------------------------------------------------------------- bad states


def test_unknown_card_in_a_hand(samples):
    j = copy.deepcopy(next(s for s in samples if len(s["hands"]["british"]) >= 3))
    j["hands"]["british"][2] = "Napoleon"
    err = load_error(j)
    assert err.path == "hands.british[2]"
    assert "hands.british[2]" in str(err) and "Napoleon" in str(err)


@pytest.mark.parametrize("value", [29, -1, 1000, "three", None, 2.5, True])
def test_medal_out_of_range(samples, value):
    j = copy.deepcopy(samples[0])
    j["medals"]["french"]["india"] = value
    err = load_error(j)
    assert err.path == "medals.french.india"
    assert "medals.french.india" in str(err)


def test_medals_beyond_the_supply(samples):
    # MEDALS: each player has 28.
    j = copy.deepcopy(samples[0])
    j["medals"]["british"] = {"europe": 2, "north_america": 10, "india": 10, "west_indies": 10}
    j["campaigns"] = {
        "europe": None,
        "north_america": "british",
        "india": "british",
        "west_indies": "british",
    }
    err = load_error(j)
    assert err.path and err.path.startswith("medals")


def test_unknown_phase(samples):
    j = copy.deepcopy(samples[0])
    j["phase"] = "siege"
    err = load_error(j)
    assert err.path == "phase" and "siege" in str(err)
    assert err.allowed is not None and "conflict" in err.allowed


@pytest.mark.parametrize("where", ["deck", "discard", "hands"])
def test_broken_card_conservation(samples, where):
    j = copy.deepcopy(next(s for s in samples if s["deck"] and s["discard"]))
    if where == "hands":
        j["hands"]["french"].append("Forts")  # a fifth Forts
    else:
        j[where].pop()  # a card vanishes
    err = load_error(j)
    assert err.path == "cards"
    assert "88" in str(err)


def test_unknown_and_missing_fields(samples):
    j = copy.deepcopy(samples[0])
    j["weather"] = "rain"
    assert load_error(j).path == "weather"
    j = copy.deepcopy(samples[0])
    del j["medals"]
    assert load_error(j).path == "medals"
    j = copy.deepcopy(samples[0])
    del j["medals"]["british"]["india"]
    assert load_error(j).path == "medals.british.india"


def test_other_bad_fields_name_their_path(samples):
    base = samples[0]
    cases = [
        (("turn",), 8, "turn"),
        (("turn",), 0, "turn"),
        (("game",), "fitl", "game"),
        (("campaigns", "india"), "spanish", "campaigns.india"),
        (("options", "difficulty_chooser"), "nobody", "options.difficulty_chooser"),
        (("options", "house_rule"), True, "options.house_rule"),
        (("grid", "asia"), [], "grid.asia"),
    ]
    for path, value, expected in cases:
        j = copy.deepcopy(base)
        target = j
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        err = load_error(j)
        assert err.path == expected, (path, err)


def test_a_wrong_grid_card_names_its_cell(samples, h):
    j = copy.deepcopy(samples[0])
    j["phase"], j["step"] = "conflict", 2
    j["grid"]["india"] = [{"serial": 0, "player": "british", "card": "Elephants"}]
    err = load_error(j)
    assert err.path == "grid.india[0].card"


def test_pending_must_follow_from_the_state(samples):
    j = copy.deepcopy(next(s for s in samples if s["pending"]["kind"] == "conflict"))
    j["pending"] = {"kind": "execute", "player": "british"}
    assert load_error(j).path == "pending"


def test_to_move_must_follow_from_the_state(samples):
    # to_move is written out with the state; a value contradicting it is bad input,
    # as a contradicting pending is
    j = copy.deepcopy(next(s for s in samples if s["to_move"] == "british"))
    j["to_move"] = "french"
    assert load_error(j).path == "to_move"


def test_not_an_object():
    for raw in (None, [], "state", 3):
        assert load_error(raw).path == "state"


def test_current_player_missing_mid_conflict(h):
    # a Conflict in progress has a player on turn; without one the state is bad input
    raw = h.build_json(
        phase="conflict",
        step=2,
        current=None,
        active={"british": True, "french": True},
        hands={"british": ["Forts", "Sieges"], "french": ["Fleet"]},
    )
    check_loads_or_refuses(raw)


def test_owed_random_discards_beyond_the_hand(h):
    # X: the opponent discards 2 random cards, never more than the hand holds; a
    # state owing 29 random discards from a hand of 3 has no possible outcome
    raw = h.build_json(
        phase="turmoil",
        step=2,
        current="british",
        active={"british": True, "french": True},
        hands={"british": ["Atrocity", "Forts"], "french": ["Forts", "Sieges", "Fleet"]},
        owed_random=[{"player": "french", "cards": 29}],
    )
    check_loads_or_refuses(raw)


# ---------------------------------------------------------------- fuzzing

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=40),
    st.sampled_from(
        [
            10**12,
            1.5,
            "",
            "junk",
            "british",
            "french",
            "europe",
            "india",
            "Forts",
            "Clive of India",
            "conflict",
            "turmoil",
            "difficulty",
            "over",
            "execute",
        ]
    ),
    st.lists(st.sampled_from(["Forts", "british", "Fleet", 3]), max_size=3),
    st.dictionaries(
        st.sampled_from(["player", "cards", "area", "serial", "card"]),
        st.sampled_from(["british", "french", 1, 2, "Forts", "india"]),
        max_size=3,
    ),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.extend(_paths(value, (*prefix, index)))
    return out


@st.composite
def mutated(draw, base: list[dict[str, Any]]) -> dict[str, Any]:
    j = copy.deepcopy(draw(st.sampled_from(base)))
    if draw(st.booleans()):
        j.pop("pending", None)
        j.pop("to_move", None)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(j)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = j
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.integers(0, 5))
        if how == 0:
            del parent[path[-1]]
        elif how <= 2 and isinstance(parent, dict):
            # a plausible value: the same field of another position
            donor: Any = draw(st.sampled_from(base))
            for key in path:
                donor = donor.get(key) if isinstance(donor, dict) else None
            parent[path[-1]] = copy.deepcopy(donor)
        else:
            parent[path[-1]] = draw(JUNK)
    return j


def check_loads_or_refuses(raw: Any) -> None:
    """Loading gives a playable state or an InputError; nothing else."""
    try:
        state = state_from_json(raw)
    except InputError as err:
        assert str(err)
        return
    assert state.invariant_problems() == []
    j = state.to_json()
    assert state_from_json(j).to_json() == j
    if state.is_over:
        assert not state.legal_moves()
        return
    view = state.legal_moves()
    assert view.count() >= 1, "a state that is not over has a move"
    move = state.sample_chance(random.Random(0)) if state.is_chance else view.nth(0)
    assert state.refusal(move) is None
    state.play(move)
    assert state.invariant_problems() == []


_BASE: list[dict[str, Any]] = []


def _base() -> list[dict[str, Any]]:
    if not _BASE:
        rng = random.Random(11)
        for seed in range(5):
            state = SevenYearsState.new()
            game = random.Random(seed)
            while not state.is_over:
                if rng.random() < 0.08 or state.pending[0] in ("difficulty", "random_discard"):
                    _BASE.append(state.to_json())
                state.play(
                    state.sample_chance(game)
                    if state.is_chance
                    else state.legal_moves().random(game)
                )
            _BASE.append(state.to_json())
    return _BASE


@settings(
    max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_mutated_state_json_loads_or_is_refused(data):
    raw = data.draw(mutated(_base()))
    check_loads_or_refuses(raw)


MOVE_TYPES = [
    "execute_discard",
    "play_effect",
    "lay",
    "pass",
    "difficulty_discard",
    "shuffle",
    "coin_flip",
    "random_discard",
]
MOVE_FIELDS = ["type", "player", "card", "cards", "area", "victim", "order", "winner"]


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 100)
    | st.text(max_size=12)
    | st.sampled_from(["british", "french", "Forts", "india", "lay", "pass"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(MOVE_FIELDS) | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None, database=None)
@given(raw=JSON_VALUES)
@example(raw={"type": ["lay"]})
@example(raw={"type": "lay", "player": {"british": 1}, "card": "Forts", "area": "india"})
@example(raw={"type": "execute_discard", "player": "british", "cards": [["Forts"]]})
def test_arbitrary_json_as_a_move(h, raw):
    try:
        move_from_json(raw, h.data)
    except InputError as err:
        assert str(err)


@settings(max_examples=400, deadline=None, database=None)
@given(
    kind=st.sampled_from(MOVE_TYPES),
    fields=st.dictionaries(st.sampled_from(MOVE_FIELDS), JSON_VALUES | JUNK, max_size=5),
)
@example(kind="pass", fields={"player": "british"})
@example(kind="lay", fields={"type": {"lay": True}})
def test_move_shaped_json(h, kind, fields):
    raw = {"type": kind, **fields}
    try:
        move = move_from_json(raw, h.data)
    except InputError as err:
        assert err.path and err.path.startswith("move")
        return
    assert move_from_json(move_to_json(move, h.data), h.data) == move


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ({"type": "lay", "player": "british", "card": "Forts"}, "move.area"),
        ({"type": "lay", "player": "prussian", "card": "Forts", "area": "india"}, "move.player"),
        ({"type": "lay", "player": "british", "card": "Forts", "area": "asia"}, "move.area"),
        (
            {"type": "execute_discard", "player": "french", "cards": ["Forts", "Cannons"]},
            "move.cards[1]",
        ),
        ({"type": "fly"}, "move.type"),
        ({"type": "pass", "player": "british", "card": "Forts"}, "move"),
        ({"type": ["lay"]}, "move.type"),
        ({"type": {"lay": 1}}, "move.type"),
    ],
)
def test_bad_moves_name_their_field(h, raw, path):
    with pytest.raises(InputError) as caught:
        move_from_json(raw, h.data)
    assert caught.value.path == path


def test_moves_from_json_names_the_index(h):
    raw = [{"type": "pass", "player": "british"}, {"type": "pass", "player": "nobody"}]
    with pytest.raises(InputError) as caught:
        moves_from_json(raw, h.data)
    assert caught.value.path == "moves[1].player"
    with pytest.raises(LegalisError):
        moves_from_json({"type": "pass"}, h.data)
