"""Golden examples worked by hand from the rules of The Seven Years War.

Each test builds an exact position (through ``state_from_json``), plays the moves
the rule is about and checks the outcome the rules text gives. The rule is cited
above each check.
"""

from __future__ import annotations

import random
from collections import Counter

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

BRITISH, FRENCH = 0, 1
EUROPE, NORTH_AMERICA, INDIA, WEST_INDIES = 0, 1, 2, 3
AREA = {
    "europe": EUROPE,
    "north_america": NORTH_AMERICA,
    "india": INDIA,
    "west_indies": WEST_INDIES,
}
BOTH_ACTIVE = {"british": True, "french": True}


@pytest.fixture
def idx(h):
    return h.data.card_index


def names(h, cards):
    return sorted(h.data.cards[c].name for c in cards)


def hand(h, state, player):
    return sorted(h.data.cards[c].name for c in state.hands[player])


def last_pass(h, *, british_hand=("Forts",), **fields):
    """A Conflict position where the French have passed and the British have only
    to pass as well for the turn to run through Difficulty, Resolve and Aftermath."""
    fields.setdefault("hands", {"british": list(british_hand), "french": []})
    return h.build(
        phase="conflict",
        step=2,
        current="british",
        active={"british": True, "french": False},
        **fields,
    )


# ---------------------------------------------------------------------- PLAN PHASE


def test_plan_fills_both_hands_to_nine(h):
    # PLAN PHASE: each player fills his hand to 9 cards.
    state = h.build(
        phase="plan",
        turn=2,
        hands={"british": ["Forts"] * 4 + ["Sieges"], "french": ["Fleet"] * 2},
        draws=["Garrison", "Nawabs", "Spain", "Hanover"]
        + ["Expedition"] * 4
        + ["Disease"] * 3
        + ["Diplomacy"] * 2
        + ["Surrender"] * 2,
    )
    assert state.phase == "execute" and state.to_move == "british"
    assert hand(h, state, BRITISH) == sorted(
        ["Forts"] * 4 + ["Sieges", "Garrison", "Nawabs", "Spain", "Hanover"]
    )
    assert hand(h, state, FRENCH) == sorted(["Fleet"] * 2 + ["Expedition"] * 4 + ["Disease"] * 3)
    assert state.to_json()["deck"][-4:] == ["Surrender", "Surrender", "Diplomacy", "Diplomacy"]


def test_plan_keeps_a_hand_above_nine(h):
    # PLAN PHASE: "fills his hand to 9": a hand of 11 draws nothing.
    big = ["Forts"] * 4 + ["Sieges"] * 4 + ["Fleet"] * 2 + ["Garrison"]
    state = h.build(
        phase="plan",
        turn=2,
        hands={"british": big, "french": ["Nawabs"] * 2},
        draws=["Expedition"] * 4 + ["Disease"] * 3,
    )
    assert len(state.hands[BRITISH]) == 11
    assert hand(h, state, FRENCH) == sorted(["Nawabs"] * 2 + ["Expedition"] * 4 + ["Disease"] * 3)


def test_plan_reshuffles_the_discard_when_the_deck_runs_out(h, idx):
    # PLAN PHASE: if the deck runs out, shuffle the discard & draw from it.
    state = h.build(
        phase="plan",
        turn=3,
        hands={"british": ["Forts"] * 4 + ["Sieges"], "french": ["Fleet"] * 2},
        draws=["Garrison", "Nawabs", "Spain"],
        rest="discard",
    )
    # British drew the 3 cards of the deck and still needs one
    assert state.to_move == "chance" and state.pending[0] == "shuffle"
    assert hand(h, state, BRITISH) == sorted(
        ["Forts"] * 4 + ["Sieges", "Garrison", "Nawabs", "Spain"]
    )
    assert state.deck == []
    pile = sorted(state.discard)
    assert len(pile) == 88 - 8 - 2
    # the shuffled pile becomes the deck; its last card is drawn first
    order = tuple(pile)
    state.play(Shuffle(order))
    assert state.discard == []
    assert Counter(state.hands[BRITISH])[order[-1]] >= 1 and len(state.hands[BRITISH]) == 9
    assert sorted(state.hands[FRENCH]) == sorted([idx("Fleet")] * 2 + list(order[-8:-1]))
    assert state.deck == list(order[:-8])
    assert state.phase == "execute"


def test_a_shuffle_must_order_exactly_the_discard_pile(h):
    # PLAN PHASE: the discard, and only the discard, is shuffled into the deck.
    state = h.build(phase="plan", turn=3, hands={"british": [], "french": []}, rest="discard")
    assert state.pending[0] == "shuffle"
    pile = tuple(sorted(state.discard))
    assert state.refusal(Shuffle(pile[:-1])) is not None
    assert state.refusal(Shuffle((*pile, pile[0]))) is not None
    assert state.refusal(Shuffle(tuple(reversed(pile)))) is None


# ---------------------------------------------------------------------- EXECUTE PHASE


def test_execute_discards_then_draws_replacements(h, idx):
    # EXECUTE PHASE: players may discard up to 5 cards and draw replacements.
    british = list(h.NINE_DISTINCT)
    french = ["Expedition"] * 4 + ["Native Troops"] * 4 + ["Privateers"]
    state = h.build(
        phase="execute",
        hands={"british": british, "french": french},
        execute_queue=["british", "french"],
        draws=[
            "Mercenary Troops",
            "Deception",
            "Countermarches",
            "Atrocity",
            "Surrender",
            "Diplomacy",
            "Diplomacy",
            "Attack Ally",
        ],
    )
    assert state.to_move == "british"
    gone = tuple(sorted(idx(n) for n in ("Spain", "Hanover", "Garrison")))
    state.play(ExecuteDiscard(BRITISH, gone))
    assert hand(h, state, BRITISH) == sorted(
        [
            "Forts",
            "Sieges",
            "Fleet",
            "Nawabs",
            "Disease",
            "Intrigue",
            "Mercenary Troops",
            "Deception",
            "Countermarches",
        ]
    )
    assert Counter(state.discard) == Counter(gone)
    assert state.to_move == "french"
    five = tuple(sorted([idx("Expedition")] * 3 + [idx("Native Troops")] * 2))
    state.play(ExecuteDiscard(FRENCH, five))
    assert hand(h, state, FRENCH) == sorted(
        [
            "Expedition",
            "Native Troops",
            "Native Troops",
            "Privateers",
            "Atrocity",
            "Surrender",
            "Diplomacy",
            "Diplomacy",
            "Attack Ally",
        ]
    )
    assert len(state.discard) == 8
    # then Turmoil begins with its coin flip
    assert state.phase == "turmoil" and state.pending == ("coin",)


def test_execute_refuses_six_cards(h, idx):
    # EXECUTE PHASE: up to 5 cards, not 6.
    british = list(h.NINE_DISTINCT)
    state = h.build(
        phase="execute",
        hands={"british": british, "french": ["Forts"]},
        execute_queue=["british", "french"],
    )
    six = tuple(sorted(idx(n) for n in british[:6]))
    refusal = state.refusal(ExecuteDiscard(BRITISH, six))
    assert refusal is not None and "EXECUTE" in refusal.rule
    with pytest.raises(IllegalMoveError):
        state.play(ExecuteDiscard(BRITISH, six))
    assert state.refusal(ExecuteDiscard(BRITISH, six[:5])) is None


def test_keeping_the_whole_hand_draws_nothing(h):
    # EXECUTE PHASE: "may" discard: discarding nothing is a choice, and draws nothing.
    british = list(h.NINE_DISTINCT)
    state = h.build(
        phase="execute",
        hands={"british": british, "french": ["Forts", "Fleet"]},
        execute_queue=["british", "french"],
    )
    deck = list(state.deck)
    state.play(ExecuteDiscard(BRITISH, ()))
    assert hand(h, state, BRITISH) == sorted(british) and state.deck == deck


# ---------------------------------------------------------------------- TURMOIL PHASE


def in_phase(h, phase, british, french, *, current="british", **fields):
    """A state in ``phase`` after its coin flip, ``current`` on turn, both players active."""
    return h.build(
        phase=phase,
        step=2,
        current=current,
        active=dict(BOTH_ACTIVE),
        hands={"british": british, "french": french},
        **fields,
    )


def turmoil(h, british, french, **fields):
    return in_phase(h, "turmoil", british, french, **fields)


def test_turmoil_coin_winner_goes_first(h):
    # TURMOIL PHASE: flip a coin to see who goes first.
    for winner in (BRITISH, FRENCH):
        state = h.build(
            phase="turmoil",
            step=1,
            hands={"british": ["Atrocity", "Forts"], "french": ["Atrocity", "Forts"]},
        )
        assert state.pending == ("coin",) and state.is_chance
        state.play(CoinFlip(winner))
        assert state.pending == ("turmoil", winner)


def test_x_card_makes_the_opponent_discard_two_random_cards(h, idx):
    # X = Opponent must discard 2 random cards from his hand.
    state = turmoil(h, ["Corruption", "Forts"], ["Forts", "Forts", "Sieges", "Fleet"])
    state.play(PlayEffect(BRITISH, idx("Corruption")))
    assert state.to_move == "chance" and state.pending == ("random_discard", FRENCH, 2)
    outcomes = sorted(tuple(names(h, m.cards)) for m in state.legal_moves())
    assert outcomes == sorted(
        [("Forts", "Forts"), ("Forts", "Sieges"), ("Fleet", "Forts"), ("Fleet", "Sieges")]
    )
    state.play(RandomDiscard(FRENCH, tuple(sorted((idx("Forts"), idx("Sieges"))))))
    assert hand(h, state, FRENCH) == ["Fleet", "Forts"]
    assert Counter(names(h, state.discard)) == Counter(["Corruption", "Forts", "Sieges"])
    # nobody holds another X or Z card: both pass and Conflict starts with its coin
    assert state.phase == "conflict" and state.pending == ("coin",)


def test_x_card_against_a_short_hand_takes_what_there_is(h, idx):
    # X: two random cards; a hand of two loses both, with nothing left to chance.
    state = turmoil(h, ["Attack Ally", "Forts"], ["Sieges", "Fleet"])
    state.play(PlayEffect(BRITISH, idx("Attack Ally")))
    assert state.hands[FRENCH] == []
    assert Counter(names(h, state.discard)) == Counter(["Attack Ally", "Sieges", "Fleet"])


def test_random_discards_pick_physical_cards(h, idx):
    # X: 2 random cards of the hand: with two copies of Forts, {Forts, Sieges} is
    # twice as likely as {Forts, Forts} (2*1 ways against 1).
    state = turmoil(h, ["Corruption", "Forts"], ["Forts", "Forts", "Sieges", "Fleet"])
    state.play(PlayEffect(BRITISH, idx("Corruption")))
    rng = random.Random(4)
    draws = 6000
    seen = Counter(tuple(names(h, state.sample_chance(rng).cards)) for _ in range(draws))
    expected = {
        ("Forts", "Forts"): 1 / 6,
        ("Forts", "Sieges"): 2 / 6,
        ("Fleet", "Forts"): 2 / 6,
        ("Fleet", "Sieges"): 1 / 6,
    }
    assert set(seen) == set(expected)
    for outcome, p in expected.items():
        assert abs(seen[outcome] / draws - p) < 0.03, outcome


def test_z_card_draws_three(h, idx):
    # Z = Draw 3 cards from the deck and add them to your hand.
    state = turmoil(
        h,
        ["Atrocity", "Forts"],
        ["Sieges", "Fleet"],
        draws=["Garrison", "Nawabs", "Spain", "Hanover"],
    )
    state.play(PlayEffect(BRITISH, idx("Atrocity")))
    assert hand(h, state, BRITISH) == sorted(["Forts", "Garrison", "Nawabs", "Spain"])
    assert state.deck[-1] == idx("Hanover")
    assert idx("Atrocity") in state.discard


def test_players_take_turns_in_turmoil(h, idx):
    # TURMOIL PHASE: players take turns using these cards.
    state = turmoil(h, ["Atrocity", "Corruption", "Forts"], ["Exploit Opportunity", "Forts"])
    state.play(PlayEffect(BRITISH, idx("Atrocity")))
    assert state.pending == ("turmoil", FRENCH)


def test_v_card_only_for_the_winning_player(h, idx):
    # L = only the Losing player; V = only the Winning player. AFTERMATH: the player
    # with the most total medals in play is the Winning player.
    cards = ["Trade Route Profits", "Balance of Power", "Forts"]
    medals = {"british": {"north_america": 2}, "french": {"india": 1}}
    for current, player in (("british", BRITISH), ("french", FRENCH)):
        state = turmoil(h, list(cards), list(cards), current=current, turn=2, medals=medals)
        offered = {
            h.data.cards[m.card].name for m in state.legal_moves() if isinstance(m, PlayEffect)
        }
        if player == BRITISH:  # 2 medals to 1: Winning
            assert offered == {"Trade Route Profits"}
            refused = state.refusal(PlayEffect(player, idx("Balance of Power")))
        else:  # Losing
            assert offered == {"Balance of Power"}
            refused = state.refusal(PlayEffect(player, idx("Trade Route Profits")))
        assert refused is not None and "L, V" in refused.rule


def test_l_and_v_cards_with_medals_tied(h):
    # AFTERMATH: with medals tied nobody has the most: neither is Winning or Losing,
    # so nobody may use L or V cards (option tied_medals_status=both: both may).
    cards = ["Trade Route Profits", "Balance of Power", "Forts"]
    medals = {"british": {"india": 1}, "french": {"europe": 1}}
    state = turmoil(h, list(cards), list(cards), turn=2, medals=medals)
    # no usable card for either player: Turmoil passes without a decision
    assert state.phase == "conflict" and state.pending == ("coin",)
    both = turmoil(
        h, list(cards), list(cards), turn=2, medals=medals, options={"tied_medals_status": "both"}
    )
    offered = {h.data.cards[m.card].name for m in both.legal_moves() if isinstance(m, PlayEffect)}
    assert offered == {"Trade Route Profits", "Balance of Power"}


def test_b_and_f_effect_cards(h, idx):
    # B: only the British player may use this card; F: only the French.
    state = turmoil(h, ["William Pitt", "Empress Maria", "Forts"], ["Forts", "Sieges"])
    offered = {h.data.cards[m.card].name for m in state.legal_moves() if isinstance(m, PlayEffect)}
    assert offered == {"William Pitt"}
    assert state.refusal(PlayEffect(BRITISH, idx("Empress Maria"))) is not None


# ---------------------------------------------------------------------- CONFLICT PHASE


def conflict(h, british, french, **fields):
    return in_phase(h, "conflict", british, french, **fields)


def test_conflict_coin_loser_goes_first(h):
    # CONFLICT PHASE: flip a coin. The loser goes first.
    for winner in (BRITISH, FRENCH):
        state = h.build(phase="conflict", step=1, hands={"british": ["Forts"], "french": ["Forts"]})
        assert state.pending == ("coin",)
        state.play(CoinFlip(winner))
        assert state.pending == ("conflict", 1 - winner)


def test_clive_of_india_only_british_only_india(h, idx):
    # CARD LIST: Clive of India: B (British only), I (India only).
    clive = idx("Clive of India")
    state = conflict(h, ["Clive of India", "Forts"], ["Forts"])
    assert [m.area for m in state.legal_moves() if isinstance(m, Lay) and m.card == clive] == [
        INDIA
    ]
    for area in (EUROPE, NORTH_AMERICA, WEST_INDIES):
        refusal = state.refusal(Lay(BRITISH, clive, area))
        assert refusal is not None and "N, E, W, I, C, A" in refusal.rule
    french = conflict(h, ["Forts"], ["Clive of India", "Forts"], current="french")
    for area in range(4):
        refusal = french.refusal(Lay(FRENCH, clive, area))
        assert refusal is not None and "B, F" in refusal.rule


def test_c_cards_go_to_the_colonies_only(h, idx):
    # CARD LIST NOTATION: C = Colonies: North America, India, West Indies, not Europe.
    for name in ("Native Troops", "Fleet", "Garrison", "Disease", "Expedition"):
        state = conflict(h, [name, "Forts"], ["Forts"])
        card = idx(name)
        areas = sorted(m.area for m in state.legal_moves() if isinstance(m, Lay) and m.card == card)
        assert areas == [NORTH_AMERICA, INDIA, WEST_INDIES]
        assert state.refusal(Lay(BRITISH, card, EUROPE)) is not None


def test_effect_cards_are_not_laid_by_default(h, idx):
    # CONFLICT PHASE lays cards for their Force; X and Z cards have none (the option
    # effect_cards_in_conflict lets them be laid with force 0).
    state = conflict(h, ["Corruption", "Forts"], ["Forts"])
    assert all(m.card != idx("Corruption") for m in state.legal_moves() if isinstance(m, Lay))
    loose = conflict(
        h, ["Corruption", "Forts"], ["Forts"], options={"effect_cards_in_conflict": True}
    )
    areas = [
        m.area for m in loose.legal_moves() if isinstance(m, Lay) and m.card == idx("Corruption")
    ]
    assert areas == [EUROPE, NORTH_AMERICA, INDIA, WEST_INDIES]


def test_players_alternate_and_continue_until_they_stop(h, idx):
    # CONFLICT PHASE: players take turns laying one card at a time and continue until
    # they run out of cards or do not want to lay any more.
    state = conflict(h, ["Forts", "Sieges"], ["Fleet"])
    state.play(Lay(BRITISH, idx("Forts"), EUROPE))
    assert state.pending == ("conflict", FRENCH)
    state.play(Lay(FRENCH, idx("Fleet"), INDIA))
    # the French hand is empty: the British lay on alone
    assert state.pending == ("conflict", BRITISH)
    state.play(Lay(BRITISH, idx("Sieges"), EUROPE))
    # both hands are empty: the phase ends and the turn runs to its end
    assert state.turn == 2
    assert state.medals[BRITISH][EUROPE] == 1 and state.medals[FRENCH][INDIA] == 1


# ---------------------------------------------------------------------- DIFFICULTY PHASE


def difficulty_position(h, **fields):
    return last_pass(
        h,
        grid={
            "europe": [
                ("british", "Intrigue"),
                ("french", "French Armies"),
                ("french", "Austrian Armies"),
            ]
        },
        **fields,
    )


def test_star_card_makes_the_opponent_discard_owner_chooses(h, idx):
    # * = Opponent must discard a card from the same area in Difficulty phase. By
    # default the opponent, who discards, chooses which card.
    state = difficulty_position(h)
    state.play(Pass(BRITISH))
    assert state.phase == "difficulty" and state.to_move == "french"
    offered = sorted(h.data.cards[m.card].name for m in state.legal_moves())
    assert offered == ["Austrian Armies", "French Armies"]
    assert all(m.victim == FRENCH and m.area == EUROPE for m in state.legal_moves())
    state.play(DifficultyDiscard(FRENCH, FRENCH, EUROPE, idx("Austrian Armies")))
    # RESOLVE: Intrigue 3 against French Armies 5: the French win Europe
    assert state.medals[FRENCH][EUROPE] == 1 and state.medals[BRITISH][EUROPE] == 0
    assert idx("Austrian Armies") in state.discard


def test_star_card_with_the_attacker_choosing(h, idx):
    # * discards under the option difficulty_chooser=attacker: the * card's owner picks.
    state = difficulty_position(h, options={"difficulty_chooser": "attacker"})
    state.play(Pass(BRITISH))
    assert state.to_move == "british"
    assert all(m.player == BRITISH and m.victim == FRENCH for m in state.legal_moves())
    state.play(DifficultyDiscard(BRITISH, FRENCH, EUROPE, idx("French Armies")))
    # Intrigue 3 against Austrian Armies 5: still a French medal
    assert state.medals[FRENCH][EUROPE] == 1


def test_star_card_against_a_single_card_removes_it(h):
    # DIFFICULTY PHASE: Disease (1*) against a lone Fleet (5) in India: the Fleet goes,
    # then RESOLVE gives India to the British, 1 to 0.
    state = last_pass(h, grid={"india": [("british", "Disease"), ("french", "Fleet")]})
    state.play(Pass(BRITISH))
    assert state.medals[BRITISH][INDIA] == 1 and state.medals[FRENCH][INDIA] == 0


def test_star_card_with_no_opposing_card_does_nothing(h):
    # DIFFICULTY PHASE: a * card with no opposing card in its area discards nothing.
    state = last_pass(h, grid={"india": [("british", "Disease")], "europe": [("french", "Forts")]})
    state.play(Pass(BRITISH))
    assert state.medals[BRITISH][INDIA] == 1 and state.medals[FRENCH][EUROPE] == 1


def test_star_cards_act_together_or_in_order(h):
    # DIFFICULTY PHASE: British Disease and French Surrender, both *, face each other in
    # North America. Acting together, each removes the other (a 0-0 tie, no medal);
    # with difficulty_timing=in_order the Disease, laid first, removes the Surrender
    # before it can act, and the British win the area 1-0.
    grid = {"north_america": [("british", "Disease"), ("french", "Surrender")]}
    together = last_pass(h, grid=grid)
    together.play(Pass(BRITISH))
    assert together.medals[BRITISH][NORTH_AMERICA] == 0 == together.medals[FRENCH][NORTH_AMERICA]
    in_order = last_pass(h, grid=grid, options={"difficulty_timing": "in_order"})
    in_order.play(Pass(BRITISH))
    assert (
        in_order.medals[BRITISH][NORTH_AMERICA] == 1 and in_order.medals[FRENCH][NORTH_AMERICA] == 0
    )


# ---------------------------------------------------------------------- RESOLVE PHASE


def test_resolve_gives_a_medal_to_the_higher_force_and_none_on_a_tie(h, idx):
    # RESOLVE PHASE: for each area add up each player's Force; the highest total wins
    # the area and 1 medal; in case of a tie, no one gets a medal.
    grid = {
        "north_america": [
            ("british", "Fleet"),
            ("british", "Garrison"),
            ("french", "Expedition"),
            ("french", "Native Troops"),
        ],  # 6 vs 7
        "india": [("british", "Nawabs"), ("french", "Nawabs")],  # 4 vs 4
        "west_indies": [("british", "Privateers")],  # 4 vs 0
    }
    state = last_pass(h, grid=grid)
    laid = [cell[2] for cells in state.grid for cell in cells]
    state.play(Pass(BRITISH))
    assert state.medals[BRITISH] == [0, 0, 0, 1]
    assert state.medals[FRENCH] == [0, 1, 0, 0]
    # AFTERMATH: medals remain in place; all cards in the Campaign areas are discarded
    assert all(cells == [] for cells in state.grid)
    assert Counter(state.discard) == Counter(laid)
    assert state.turn == 2 and state.phase == "execute"


# ---------------------------------------------------------------------- AFTERMATH PHASE


def test_three_medal_lead_wins_a_campaign_and_closes_it(h, idx):
    # AFTERMATH: 3 medals in excess of the opponent in an Area wins that Campaign; no
    # further cards can be played to it for the rest of the game.
    state = last_pass(
        h,
        turn=3,
        medals={"british": {"north_america": 2}},
        grid={"north_america": [("british", "Fleet")]},
    )
    state.play(Pass(BRITISH))
    assert state.to_json()["campaigns"]["north_america"] == "british"
    assert state.medals[BRITISH][NORTH_AMERICA] == 3
    # play on to the next Conflict: North America takes no card
    rng = random.Random(0)
    while state.phase != "conflict" or state.is_chance:
        if state.is_chance:
            state.play(state.sample_chance(rng))
        else:
            state.play(state.legal_moves().nth(0))  # keep the hand, pass
    assert state.turn == 4
    player = state.pending[1]
    assert all(m.area != NORTH_AMERICA for m in state.legal_moves() if isinstance(m, Lay))
    for card in set(state.hands[player]):
        refusal = state.refusal(Lay(player, card, NORTH_AMERICA))
        assert refusal is not None


def test_a_lead_of_two_does_not_win_a_campaign(h):
    # AFTERMATH: 3 medals in excess are needed; 3 against 1 is only 2.
    state = last_pass(
        h,
        turn=3,
        medals={"british": {"india": 2}, "french": {"india": 1}},
        grid={"india": [("british", "Fleet")]},
    )
    state.play(Pass(BRITISH))
    assert state.medals[BRITISH][INDIA] == 3
    assert state.to_json()["campaigns"]["india"] is None


def test_no_medal_goes_to_a_won_campaign(h):
    # AFTERMATH: a won Campaign takes no further cards, so it earns no more medals.
    state = last_pass(
        h,
        turn=4,
        medals={"french": {"india": 3}},
        campaigns={"india": "french"},
        grid={"west_indies": [("british", "Fleet")]},
    )
    state.play(Pass(BRITISH))
    assert state.medals[FRENCH][INDIA] == 3 and state.medals[BRITISH][WEST_INDIES] == 1


# ---------------------------------------------------------------------- VICTORY


def test_winning_europe_ends_the_game(h):
    # VICTORY 1: if you win the European Campaign you automatically win the game.
    state = last_pass(
        h,
        turn=3,
        medals={"british": {"europe": 2}},
        grid={"europe": [("british", "Frederic the Great"), ("french", "French Armies")]},
    )
    state.play(Pass(BRITISH))
    assert state.is_over and state.result == (BRITISH, "europe")
    assert state.to_move == "none" and not state.legal_moves()


def test_winning_europe_with_the_game_going_on(h):
    # VICTORY 1 under europe_win_ends_game=false: the campaign is won but play goes
    # on; the European winner is the winner at the end.
    state = last_pass(
        h,
        turn=3,
        medals={"british": {"europe": 2}},
        options={"europe_win_ends_game": False},
        grid={"europe": [("british", "Frederic the Great"), ("french", "French Armies")]},
    )
    state.play(Pass(BRITISH))
    assert not state.is_over and state.turn == 4
    assert state.to_json()["campaigns"]["europe"] == "british"
    rng = random.Random(1)
    while not state.is_over:
        state.play(state.sample_chance(rng) if state.is_chance else state.legal_moves().random(rng))
    assert state.turn == 7 and state.result == (BRITISH, "europe")


def final_turn(h, medals, campaigns=None):
    state = last_pass(h, turn=7, medals=medals, campaigns=campaigns or {})
    state.play(Pass(BRITISH))
    assert state.is_over
    return state.result


def test_end_of_game_more_colonial_campaigns_wins(h):
    # VICTORY 2: more colonial campaigns won at the end of the game wins, even
    # against more medals (British 8 medals, French 7; French 2 campaigns to 1).
    medals = {
        "british": {"europe": 2, "north_america": 5, "west_indies": 1},
        "french": {"india": 3, "west_indies": 4},
    }
    campaigns = {"north_america": "british", "india": "french", "west_indies": "french"}
    assert final_turn(h, medals, campaigns) == (FRENCH, "colonies")


def test_end_of_game_medals_break_a_campaign_tie(h):
    # VICTORY 3: campaign wins tied, the player with the most medals on the Grid wins.
    medals = {"british": {"north_america": 3, "europe": 2}, "french": {"india": 3, "europe": 1}}
    campaigns = {"north_america": "british", "india": "french"}
    assert final_turn(h, medals, campaigns) == (BRITISH, "medals")
    assert final_turn(h, {"british": {"europe": 1}, "french": {"india": 2}}) == (FRENCH, "medals")


def test_end_of_game_all_tied_is_a_draw(h):
    # VICTORY: with campaigns and medals tied no rule gives a winner.
    medals = {"british": {"europe": 2, "india": 1}, "french": {"europe": 1, "west_indies": 2}}
    assert final_turn(h, medals) == (-1, "draw")


def test_the_game_lasts_seven_turns(h):
    # GAME LENGTH: 7 turns. Turn 6 ends into turn 7; turn 7 ends the game.
    state = last_pass(h, turn=6)
    state.play(Pass(BRITISH))
    assert state.turn == 7 and not state.is_over
    state = last_pass(h, turn=7)
    state.play(Pass(BRITISH))
    assert state.is_over and state.turn == 7


@pytest.mark.parametrize("reshuffle", ["plan_only", "any_draw"])
def test_execute_with_a_short_deck(h, idx, reshuffle):
    # EXECUTE PHASE draws replacements; the reshuffle of the discard is written in the
    # PLAN PHASE. By default (reshuffle=plan_only) a short deck gives what it has;
    # with reshuffle=any_draw the discard is shuffled for the missing cards.
    british = list(h.NINE_DISTINCT)
    state = h.build(
        phase="execute",
        turn=2,
        options={"reshuffle": reshuffle},
        hands={"british": british, "french": ["Forts", "Fleet"]},
        execute_queue=["british", "french"],
        draws=["Mercenary Troops"],
        rest="discard",
    )
    gone = tuple(sorted(idx(n) for n in ("Spain", "Hanover", "Garrison")))
    state.play(ExecuteDiscard(BRITISH, gone))
    assert idx("Mercenary Troops") in state.hands[BRITISH]
    if reshuffle == "plan_only":
        assert len(state.hands[BRITISH]) == 7 and state.to_move == "french"
    else:
        assert len(state.hands[BRITISH]) == 7 and state.pending == ("shuffle",)
        # the British discards are in the pile being shuffled
        assert not Counter(gone) - Counter(state.discard)
        state.play(state.sample_chance(random.Random(3)))
        assert len(state.hands[BRITISH]) == 9 and state.to_move == "french"


def test_forced_difficulty_discard_takes_the_copy_laid_first(h):
    # DIFFICULTY PHASE, as decided in docs/rules-questions.md: with two copies of one
    # card in the area the choice is forced, and the copy laid first is discarded.
    # India holds a second * discard with a real choice, so the phase stops there and
    # Europe can be inspected.
    state = last_pass(
        h,
        grid={
            "europe": [
                ("french", "French Armies"),
                ("british", "Intrigue"),
                ("french", "French Armies"),
            ],
            "india": [("british", "Disease"), ("french", "Fleet"), ("french", "Garrison")],
        },
    )
    first, second = (cell[0] for cell in state.grid[EUROPE] if cell[1] == FRENCH)
    state.play(Pass(BRITISH))
    assert state.phase == "difficulty" and state.pending == ("difficulty", FRENCH, FRENCH, INDIA)
    assert [cell[0] for cell in state.grid[EUROPE] if cell[1] == FRENCH] == [second]
    assert first < second
