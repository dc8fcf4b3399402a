"""``verify_sevenyears``: data checks, the game's claims, and the claims against the engine."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from legalis.model.core.ir import Claim, IntVar, Value, evaluate
from legalis.model.sevenyears.data import build_data, load_data, read_bundled
from legalis.model.sevenyears.moves import Lay, Pass, PlayEffect
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.properties import (
    LAY,
    PASS,
    PLAY_X,
    PLAY_Z,
    all_claims,
    conflict_step,
    count_state,
    medal_bound,
    mover_active,
    outcome_name,
    rank,
)
from legalis.model.sevenyears.properties import turmoil_step as abstract_turmoil_step
from legalis.model.sevenyears.state import SevenYearsState
from legalis.solver.z3backend import prove
from legalis.verify.findings import Finding, VerifyReport
from legalis.verify.sevenyears import verify_sevenyears

ANY_DRAW = SevenYearsOptions(reshuffle="any_draw")
TWO_PASSES = SevenYearsOptions(
    turmoil_end="two_passes_in_a_row", conflict_end="two_passes_in_a_row"
)


@pytest.fixture(scope="module")
def default_report() -> VerifyReport:
    return verify_sevenyears()


def claim_named(claims: list[Claim], name: str) -> Claim:
    return next(claim for claim in claims if claim.name == name)


def assert_true_counterexample(claim: Claim, witness: dict[str, Value]) -> None:
    """The witness meets every assumption and breaks the goal: replayed by evaluate."""
    assert all(evaluate(term, witness) for term in claim.assumptions)
    assert not evaluate(claim.goal, witness)


# ---------------------------------------------------------------------- bundled data


def test_bundled_data_passes_every_check_and_every_claim(default_report: VerifyReport) -> None:
    assert default_report.ok, default_report.to_json()
    assert default_report.findings == ()
    assert default_report.proofs_skipped is None
    assert len(default_report.proofs) == len(all_claims(load_data(), SevenYearsOptions()))
    assert all(result.proved and not result.vacuous for result in default_report.proofs)
    assert all(result.seconds < 5 for result in default_report.proofs)


def test_medal_bound_is_twenty(default_report: VerifyReport) -> None:
    # Worked by hand. MEDALS: each player has 28 medals. RESOLVE PHASE: each turn
    # an area gives at most one medal. AFTERMATH PHASE: a lead of 3 medals in an
    # area wins its Campaign and closes it. Over 7 turns in one area the British
    # hold b medals and the French f, with b + f <= 7; the lead b - f must stay at
    # 2 or less after turns 1-6 (or the area closes) and can reach 3 only in turn
    # 7, so 2b <= 7 + 3 and b <= 5: win, win, lose, win, lose, win, win (leads
    # 1, 2, 1, 2, 1, 2, 3) reaches it. Four areas: 4 * 5 = 20 <= 28.
    result = default_report.proof("medal-bound")
    assert result.proved and result.bound == 20
    assert result.rule.startswith("MEDALS")


def test_hand_worked_medal_sequence_meets_the_claim() -> None:
    data = load_data()
    claim = medal_bound(data, SevenYearsOptions())
    wins = "BBFBFBB"
    env: dict[str, Value] = {
        outcome_name(turn, data, area): 1 if wins[turn - 1] == "B" else 2
        for turn in range(1, data.turns + 1)
        for area in range(len(data.areas))
    }
    assert all(evaluate(term, env) for term in claim.assumptions)
    assert claim.objective is not None and evaluate(claim.objective, env) == 20
    # Three wins in a row close the Campaign after turn 3: a fourth medal there breaks it.
    env[outcome_name(4, data, 0)] = 1
    for turn, outcome in enumerate((1, 1, 1), start=1):
        env[outcome_name(turn, data, 0)] = outcome
    assert not all(evaluate(term, env) for term in claim.assumptions)


def test_medal_bound_with_a_lead_of_two_is_sixteen() -> None:
    # AFTERMATH PHASE with a lead of 2: b - f <= 1 until turn 7, at most 2 after
    # it, so 2b <= 7 + 2 and b <= 4 per area (win, lose, win, lose, win, lose, win).
    game = dict(read_bundled("game.toml"), campaign_lead=2)
    data = build_data(read_bundled("cards.toml"), game, source="test")
    assert prove(medal_bound(data, SevenYearsOptions())).bound == 16


def test_medal_bound_without_europe_ending_the_game_is_still_twenty() -> None:
    options = SevenYearsOptions(europe_win_ends_game=False)
    assert prove(medal_bound(load_data(), options)).bound == 20


def test_report_serialises_to_json(default_report: VerifyReport) -> None:
    body = json.loads(json.dumps(default_report.to_json()))
    assert body["ok"] is True and body["game"] == "sevenyears"
    medal = next(proof for proof in body["proofs"] if proof["name"] == "medal-bound")
    assert medal["bound"] == 20 and medal["proved"] is True


# ---------------------------------------------------------------------- options


def test_any_draw_reshuffle_lets_turmoil_run_for_ever() -> None:
    report = verify_sevenyears(options=ANY_DRAW)
    assert not report.ok
    failed = {f.subject: f for f in report.findings if f.code == "proof.failed"}
    assert set(failed) == {"turmoil-rank", "turmoil-no-cycle"}
    claims = all_claims(load_data(), ANY_DRAW)
    for name, finding in failed.items():
        assert finding.severity == "error" and finding.rule.startswith("TURMOIL PHASE")
        assert finding.witness
        assert_true_counterexample(claim_named(claims, name), finding.witness)
    # Conflict draws no cards: its ranking is untouched by the option.
    assert report.proof("conflict-rank").proved


def test_a_z_card_drawn_straight_back_repeats_the_position() -> None:
    # The loop the failed proof points at, by hand: the French have passed, the
    # deck is empty and the discard holds one card. The British play a Z card:
    # the discard (2 cards, the Z card among them) becomes the deck, and they draw
    # both. Next Z card: discard 1, reshuffled, drawn back: nothing changes.
    data = load_data()
    state = count_state(data)
    env: dict[str, Value] = {
        "british_hand": 87, "french_hand": 0, "deck": 0, "discard": 1, "current": 0,
        "british_active": True, "french_active": False, "passes": 0,
    }  # fmt: skip
    first = abstract_turmoil_step(data, ANY_DRAW, state, PLAY_Z)
    after = {key: evaluate(term, env) for key, term in first.items()}
    assert (after["british_hand"], after["deck"], after["discard"]) == (88, 0, 0)
    second = {key: evaluate(term, after) for key, term in first.items()}
    assert second == after
    assert evaluate(rank(state, "pass_is_final"), second) == evaluate(
        rank(state, "pass_is_final"), after
    )


@pytest.mark.parametrize("options", [TWO_PASSES, SevenYearsOptions(europe_win_ends_game=False)])
def test_other_options_keep_every_claim(options: SevenYearsOptions) -> None:
    report = verify_sevenyears(options=options)
    assert report.ok and all(result.proved for result in report.proofs)


def test_two_passes_in_a_row_still_fails_with_any_draw() -> None:
    options = SevenYearsOptions(reshuffle="any_draw", turmoil_end="two_passes_in_a_row")
    report = verify_sevenyears(options=options)
    assert {f.subject for f in report.findings} == {"turmoil-rank", "turmoil-no-cycle"}


# ---------------------------------------------------------------------- broken data


def card_index(cards: dict[str, Any], name: str) -> int:
    return next(i for i, card in enumerate(cards["card"]) if card["name"] == name)


@pytest.mark.parametrize(
    ("name", "field", "value", "code"),
    [
        ("Clive of India", "force", 8, "data.force-range"),
        ("William Pitt", "location", "E", "data.effect-location"),  # an effect card
        ("Forts", "use", "Q", "data.use-letter"),
        ("Hanover", "copies", 0, "data.copies-positive"),
        ("Minorca", "name", "Spain", "data.unique-names"),  # Spain comes earlier
        ("Forts", "location", "Z", "data.location-letter"),
        ("Corruption", "effect", "Y", "data.effect-letter"),
        # not a letter: once a TypeError (exit 3), or passed as a substring of "XZ"
        ("Corruption", "effect", ["Z"], "data.effect-letter"),
        ("Corruption", "effect", True, "data.effect-letter"),
        ("Corruption", "effect", "", "data.effect-letter"),
        ("Corruption", "effect", "XZ", "data.effect-letter"),
    ],
)
def test_broken_card_fails_its_check(name: str, field: str, value: object, code: str) -> None:
    cards = copy.deepcopy(read_bundled("cards.toml"))
    index = card_index(cards, name)
    cards["card"][index][field] = value
    report = verify_sevenyears(raw_cards=cards)
    assert not report.ok
    found = [f for f in report.findings if f.code == code]
    assert found, report.codes()
    assert found[0].severity == "error" and found[0].subject == f"card[{index}].{field}"
    assert report.proofs == () and report.proofs_skipped is not None
    assert report.to_json()["proofs_skipped"] == report.proofs_skipped


@pytest.mark.parametrize(
    ("field", "value", "code", "subject"),
    [
        ("deck_size", 87, "data.deck-size", "card"),
        ("card_types", 50, "data.deck-size", "card"),
        ("turns", 0, "data.game-numbers", "turns"),
    ],
)
def test_broken_game_numbers_fail_their_check(
    field: str, value: int, code: str, subject: str
) -> None:
    game = dict(read_bundled("game.toml"), **{field: value})
    report = verify_sevenyears(raw_game=game)
    assert code in report.codes() and not report.ok
    assert next(f for f in report.findings if f.code == code).subject == subject
    assert report.proofs == () and report.proofs_skipped


def test_zero_copies_also_breaks_the_deck_count() -> None:
    cards = copy.deepcopy(read_bundled("cards.toml"))
    cards["card"][card_index(cards, "Hanover")]["copies"] = 0
    assert verify_sevenyears(raw_cards=cards).codes() == {"data.copies-positive", "data.deck-size"}


def test_too_few_medals_fails_the_medal_claim_with_a_counterexample() -> None:
    game = dict(read_bundled("game.toml"), medals_per_player=19)
    report = verify_sevenyears(raw_game=game)
    assert not report.ok and report.codes() == {"proof.failed"}
    (finding,) = report.findings
    assert finding.subject == "medal-bound" and finding.rule.startswith("MEDALS")
    assert finding.witness is not None
    data = build_data(read_bundled("cards.toml"), game, source="test")
    claim = medal_bound(data, SevenYearsOptions())
    assert_true_counterexample(claim, finding.witness)
    # Everything else about the game still holds.
    assert sum(not result.proved for result in report.proofs) == 1


def test_findings_refuse_an_unknown_severity() -> None:
    with pytest.raises(ValueError, match="severity"):
        Finding("x", "fatal", "s", "m", "r")


# ---------------------------------------------------------------------- the engine


def turmoil_counts(state: SevenYearsState) -> dict[str, Value]:
    return {
        "british_hand": len(state.hands[0]),
        "french_hand": len(state.hands[1]),
        "deck": len(state.deck),
        "discard": len(state.discard),
        "current": state.current,
        "british_active": state.active[0],
        "french_active": state.active[1],
        "passes": state.passes,
    }


COUNTS = ("british_hand", "french_hand", "deck", "discard")


def move_code(state: SevenYearsState, move: object) -> int:
    if isinstance(move, Pass):
        return PASS
    if isinstance(move, Lay):
        return LAY
    assert isinstance(move, PlayEffect)
    return PLAY_X if state.data.cards[move.card].effect == "X" else PLAY_Z


@pytest.mark.parametrize(
    "options",
    [SevenYearsOptions(), TWO_PASSES, ANY_DRAW],
    ids=["default", "two_passes", "any_draw"],
)
def test_abstract_turmoil_and_conflict_match_the_engine(options: SevenYearsOptions) -> None:
    """Random games: every Turmoil and Conflict decision changes the counts exactly
    as the claims' model says, and (where the claims hold) lowers the rank."""
    data = load_data()
    turmoil, conflict = count_state(data), count_state(data, deck=False)
    move = IntVar("move", PASS, PLAY_Z)
    turmoil_after = abstract_turmoil_step(data, options, turmoil, move)
    conflict_after = conflict_step(options, conflict, move)
    turmoil_rank = rank(turmoil, options.turmoil_end)
    conflict_rank = rank(conflict, options.conflict_end)
    ranks_hold = options.reshuffle == "plan_only"
    seen = {"turmoil": 0, "conflict": 0, "effects": 0}
    for seed in range(12):
        rng = random.Random(seed)
        state = SevenYearsState.new(options)
        while not state.is_over:
            if state.is_chance:
                state.play(state.sample_chance(rng))
                continue
            chosen = state.legal_moves().random(rng)
            kind = state.pending[0]
            if kind not in ("turmoil", "conflict"):
                state.play(chosen)
                continue
            before = turmoil_counts(state)
            env = {**before, "move": move_code(state, chosen)}
            after_terms, rank_term = (
                (turmoil_after, turmoil_rank)
                if kind == "turmoil"
                else (conflict_after, conflict_rank)
            )
            ending = options.turmoil_end if kind == "turmoil" else options.conflict_end
            if ending == "pass_is_final":
                # The invariant the ranking claims assume, proved as *-mover-active.
                assert evaluate(mover_active(turmoil), before)
            expected = {key: evaluate(term, env) for key, term in after_terms.items()}
            phase = state.phase
            state.play(chosen)
            # Random discards and reshuffles belong to the move just made.
            while state.is_chance and state.phase == phase and state.pending[0] != "coin":
                state.play(state.sample_chance(rng))
            now = turmoil_counts(state)
            for key in COUNTS:
                if key in after_terms and (phase == state.phase or kind == "turmoil"):
                    assert now[key] == expected[key], (seed, kind, chosen, key, before, now)
            if state.phase == phase:
                # Passes the engine takes on its own (nothing else to do) only lower it more.
                assert evaluate(rank_term, now) <= evaluate(rank_term, expected)
                if ranks_hold or kind == "conflict":
                    assert 0 <= evaluate(rank_term, now) < evaluate(rank_term, before)
            seen[kind] += 1
            seen["effects"] += isinstance(chosen, PlayEffect)
    assert seen["turmoil"] > 50 and seen["conflict"] > 200 and seen["effects"] > 20


def test_a_card_rule_that_forgets_won_campaigns_fails_the_closed_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import legalis.model.sevenyears.properties as properties
    from legalis.model.core.ir import Const
    from legalis.model.sevenyears import rules

    def forgetful_may_lay(
        data: Any, options: Any, player: Any, card: Any, area: Any, *rest: Any
    ) -> Any:
        # the won-Campaign test dropped: every area counts as open
        return rules.may_lay(data, options, player, card, area, Const(False), *rest[1:])

    monkeypatch.setattr(properties, "may_lay", forgetful_may_lay)
    claim = properties.closed_campaign_gets_no_cards(load_data(), SevenYearsOptions())
    result = prove(claim)
    # AFTERMATH PHASE: a won Campaign takes no more cards; the broken rule lets one in.
    assert not result.proved and result.counterexample is not None
    assert result.counterexample["closed"] is True
    assert_true_counterexample(claim, result.counterexample)
