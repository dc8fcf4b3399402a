"""Every move says why it is legal, and every refused move why not, naming the rule."""

from __future__ import annotations

import random

from legalis.model.sevenyears.moves import Lay, Pass
from legalis.model.sevenyears.state import SevenYearsState, state_from_json


def decisions(seed: int, count: int) -> list[SevenYearsState]:
    rng = random.Random(seed)
    state, seen = SevenYearsState.new(), []
    while not state.is_over and len(seen) < count:
        if not state.is_chance:
            seen.append(state.copy())
        state.play(state.sample_chance(rng) if state.is_chance else state.legal_moves().random(rng))
    return seen


def test_every_legal_move_has_a_reason_and_a_rule() -> None:
    for state in decisions(5, 60):
        view = state.legal_moves()
        for index in range(min(view.count(), 40)):
            verdict = view.verdict(view.nth(index))
            assert verdict.legal and verdict.reason and verdict.rule


def test_a_lay_verdict_names_the_rules_that_admit_or_refuse_it() -> None:
    state = next(s for s in decisions(3, 200) if s.pending[0] == "conflict")
    player = state.pending[1]
    view = state.legal_moves()
    lay = next(move for move in view if isinstance(move, Lay))
    # CONFLICT PHASE: a card the player may use, whose location admits the open area.
    assert "CONFLICT PHASE" in view.verdict(lay).rule
    names = {card.name: card for card in state.data.cards}
    raw = state.to_json()
    pile = "deck" if any(names[n].use == "FB"[player] for n in raw["deck"]) else "discard"
    foreign = next(n for n in raw[pile] if names[n].use == "FB"[player] and not names[n].effect)
    raw[pile].remove(foreign)  # a card of the other coalition moves into the hand
    raw["hands"]["british" if player == 0 else "french"].append(foreign)
    state = state_from_json(raw)
    card = names[foreign]
    verdict = state.legal_moves().verdict(Lay(player, card.index, card.areas[0]))
    # CARD LIST NOTATION: B and F cards belong to one coalition only.
    assert not verdict.legal and "CARD LIST NOTATION" in verdict.rule
    assert state.legal_moves().verdict(Pass(1 - player)).rule.startswith("TURN SEQUENCE")
