"""Random simulation of The Seven Years War, in the manner of OpenSpiel's game tests.

Over a thousand seeded random games (and a few hundred under each rule option):
invariants hold after every move, clones stay equal, JSON round-trips, every
decision offers a choice, phases come in the order of the TURN SEQUENCE, the
game ends within 7 turns with a result that follows from the VICTORY rules, and
a seed replays the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from legalis.model.sevenyears.moves import Pass
from legalis.model.sevenyears.options import CHOICES, FLAGS, SevenYearsOptions
from legalis.model.sevenyears.state import SevenYearsState, state_from_json

# a copy must agree with the original on every field; the cached move view and
# status rows are derived data a copy may rebuild
SLOTS = [slot for slot in SevenYearsState.__slots__ if slot not in ("view", "status_cache")]
PHASE_ORDER = ("plan", "execute", "turmoil", "conflict", "difficulty", "resolve", "aftermath")
AREAS = ("europe", "north_america", "india", "west_indies")
COLONIAL = AREAS[1:]


def expected_result(j: dict[str, Any]) -> tuple[str | None, str]:
    """VICTORY, worked from the final JSON: Europe, then colonial campaigns, then medals."""
    if j["campaigns"]["europe"] is not None:
        return j["campaigns"]["europe"], "europe"
    won = Counter(j["campaigns"][a] for a in COLONIAL if j["campaigns"][a] is not None)
    if won["british"] != won["french"]:
        return ("british" if won["british"] > won["french"] else "french"), "colonies"
    totals = {p: sum(j["medals"][p].values()) for p in ("british", "french")}
    if totals["british"] != totals["french"]:
        return max(totals, key=totals.__getitem__), "medals"
    return None, "draw"


def resolve_medals(j: dict[str, Any], h) -> dict[str, dict[str, int]]:
    """RESOLVE PHASE, by hand: the higher total force in an open area earns one medal."""
    medals = {p: dict(j["medals"][p]) for p in ("british", "french")}
    for area in AREAS:
        if j["campaigns"][area] is not None:
            continue
        force = Counter()
        for cell in j["grid"][area]:
            force[cell["player"]] += h.cards[cell["card"]].force
        if force["british"] != force["french"]:
            winner = "british" if force["british"] > force["french"] else "french"
            if sum(medals[winner].values()) < 28:
                medals[winner][area] += 1
    return medals


class GameChecker:
    """Checks every step of one game; ``deep`` adds the independent move listing."""

    def __init__(
        self, h, options: SevenYearsOptions, *, json_every: int | None, deep: bool
    ) -> None:
        self.h = h
        self.options = options
        self.json_every = json_every
        self.deep = deep

    def run(self, seed: int) -> tuple[list[object], dict[str, Any]]:
        h = self.h
        rng = random.Random(seed)
        state = h.new_state(self.options)
        moves: list[object] = []
        last_phase, last_turn = "plan", 1
        closed: dict[int, int] = {}
        while not state.is_over:
            assert state.to_move in ("british", "french", "chance")
            assert state.is_chance == (state.to_move == "chance")
            view = state.legal_moves()
            kind = state.pending[0]
            if not state.is_chance:
                assert view.count() >= 2, f"a {kind} decision with a single move is automatic"
                if kind == "execute":
                    # PLAN PHASE filled the hand to 9 before this Execute decision
                    assert len(state.hands[state.pending[1]]) >= 9
                if kind == "difficulty":
                    _, chooser, victim, _ = state.pending
                    owner_chooses = self.options.difficulty_chooser == "owner"
                    assert (chooser == victim) == owner_chooses
                if self.deep:
                    assert set(view) == h.expected_engine_moves(state)
            move = state.sample_chance(rng) if state.is_chance else view.random(rng)
            assert state.refusal(move) is None
            before = state.to_json() if kind == "conflict" and isinstance(move, Pass) else None
            state.play(move)
            moves.append(move)

            problems = state.invariant_problems()
            assert problems == [], problems
            assert state.turn <= 7
            clone = state.copy()
            for slot in SLOTS:
                assert getattr(clone, slot) == getattr(state, slot), slot
            assert clone.hands[0] is not state.hands[0] and clone.grid[0] is not state.grid[0]
            if len(moves) % 5 == 0:
                assert clone == state
            if self.json_every and len(moves) % self.json_every == 0:
                j = state.to_json()
                again = state_from_json(j)
                assert again.to_json() == j
                assert again == state
            # phases run in the order of the TURN SEQUENCE
            if state.is_over:
                assert state.phase == "over"
            elif state.turn == last_turn:
                assert PHASE_ORDER.index(state.phase) >= PHASE_ORDER.index(last_phase)
            else:
                assert state.turn == last_turn + 1
                last_phase = "plan"
            last_phase = state.phase if not state.is_over else last_phase
            last_turn = state.turn
            # AFTERMATH PHASE: a won campaign stays won
            for area, owner in enumerate(state.closed):
                if area in closed:
                    assert owner == closed[area]
                elif owner >= 0:
                    closed[area] = owner
            if before is not None and state.phase != "conflict":
                # the last pass of Conflict runs Difficulty, Resolve and Aftermath;
                # without * cards Difficulty does nothing and the medals can be
                # worked out from the grid as it stood
                stars = any(
                    h.cards[c["card"]].star for cells in before["grid"].values() for c in cells
                )
                if not stars:
                    j = state.to_json()
                    assert {p: j["medals"][p] for p in ("british", "french")} == resolve_medals(
                        before, h
                    )
        j = state.to_json()
        if self.json_every:
            assert state_from_json(j).to_json() == j
        assert state.result is not None and state.to_move == "none"
        assert not state.legal_moves() and list(state.legal_moves()) == []
        assert h.cards_everywhere(j) == h.full_deck()
        winner, condition = expected_result(j)
        assert j["result"] == {"winner": winner, "condition": condition}
        if condition != "europe" or not self.options.europe_win_ends_game:
            assert state.turn == 7, "only a European win ends the game early"
        return moves, j


@pytest.mark.parametrize("chunk", range(5))
def test_random_games_default_rules(h, chunk):
    checker = GameChecker(h, SevenYearsOptions(), json_every=7, deep=chunk == 0)
    # 1,020 games: the first 100 also compare every decision with the independent listing
    seeds = range(0, 100) if chunk == 0 else range(100 + (chunk - 1) * 230, 100 + chunk * 230)
    results = Counter()
    for seed in seeds:
        _, final = checker.run(seed)
        results[final["result"]["condition"]] += 1
    # over hundreds of random games every way of ending occurs
    if chunk:
        assert results["europe"] and results["colonies"] and results["medals"]


NON_DEFAULT = [(name, value) for name, values in CHOICES.items() for value in values[1:]] + [
    (flag, not getattr(SevenYearsOptions(), flag)) for flag in FLAGS
]


@pytest.mark.parametrize(("name", "value"), NON_DEFAULT, ids=[f"{n}={v}" for n, v in NON_DEFAULT])
def test_random_games_under_each_option(h, name, value):
    options = SevenYearsOptions(**{name: value})
    # loading a state under non-default options compiles its rule tables afresh,
    # so JSON round trips are checked on a sample of positions here
    checker = GameChecker(h, options, json_every=None, deep=False)
    deep = GameChecker(h, options, json_every=60, deep=True)
    turns = Counter()
    for seed in range(200):
        _, final = (deep if seed < 8 else checker).run(seed)
        turns[final["turn"]] += 1
        assert final["options"][name] == value
    if name == "europe_win_ends_game":
        assert set(turns) == {7}


def test_replay_from_the_same_seed_is_the_same_game(h):
    checker = GameChecker(h, SevenYearsOptions(), json_every=50, deep=False)
    for seed in range(25):
        first = checker.run(seed)
        second = checker.run(seed)
        assert first == second
    assert checker.run(1)[1] != checker.run(2)[1]


def test_apply_and_play_walk_the_same_game(h):
    for seed in range(20):
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        in_place = SevenYearsState.new()
        functional = SevenYearsState.new()
        while not in_place.is_over:
            a = h.step(in_place, rng_a)
            b = (
                functional.sample_chance(rng_b)
                if functional.is_chance
                else (functional.legal_moves().random(rng_b))
            )
            assert a == b
            functional = functional.apply(b)
            assert functional == in_place
        assert functional.is_over


def test_a_copy_is_independent(h):
    state = h.find(lambda s: s.pending[0] == "conflict")
    clone = state.copy()
    move = next(m for m in state.legal_moves() if not isinstance(m, Pass))
    clone.play(move)
    assert clone != state
    assert move in state.legal_moves()
    assert state.invariant_problems() == []


def test_invariant_check_is_not_blind(h):
    # the checker the simulation leans on does see broken states
    state = h.find(lambda s: s.pending[0] == "conflict" and any(s.grid))
    assert state.invariant_problems() == []
    lost = state.copy()
    lost.deck.pop()
    assert any(p.startswith("cards") for p in lost.invariant_problems())
    crowded = state.copy()
    area = next(a for a, cells in enumerate(crowded.grid) if cells)
    crowded.medals[0][area] += 3
    crowded.closed[area] = 0
    assert any(p.startswith("grid") for p in crowded.invariant_problems())
    late = state.copy()
    late.phase = "plan"
    assert any(p.startswith("grid") for p in late.invariant_problems())
