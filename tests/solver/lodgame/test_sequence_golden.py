"""The Sequence of Play of a whole LoD game, worked by hand from the rules (2.3-2.4,
6.0): what each Eligible Faction may do given what the other did, Passing,
eligibility after a card, Brilliant Strokes and their Trumps, the Treaty of
Alliance's threshold, and a Winter Quarters card.

Each state is set up directly: the sample deck's card 33 (Faction order Patriots,
Indians, British, French) is played from the 1775 scenario, the cards on deck
chosen by the test, and the Brilliant Stroke cards held as the case needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

import pytest
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.command_base import RESOURCES, Command
from legalis.model.lod.special import SpecialActivity
from legalis.solver.lodgame.game import LodGame
from legalis.solver.lodgame.moves import Decline, Done, Fight, Pass, PlayEvent, Roll, Stroke
from legalis.solver.lodgame.state import LodState

GAME = LodGame({"scenario": "1775"})
CARD = 33  # order: patriots, indians, british, french; an unshaded Event only
ORDER = ("patriots", "indians", "british", "french")
NEXT_CARD = 1
NONPLAYERS = LodGame({"scenario": "1775", "nonplayers": list(LodGame.players)})
TREATY = "Treaty of Alliance"
STROKES = {
    "british": "British Brilliant Stroke",
    "patriots": "Patriot Brilliant Stroke",
    "french": "French Brilliant Stroke",
    "indians": "Indian Brilliant Stroke",
}


def at_card(
    *,
    strokes: Iterable[str] = (),
    ineligible: Iterable[str] = (),
    card: int = CARD,
    on_deck: int = NEXT_CARD,
    deck: tuple[int, ...] = (2, 3, 4),
    treaty_played: bool = False,
    game: LodGame = GAME,
) -> LodState:
    """The 1775 set-up with ``card`` about to be played (its dice rolled next)."""
    state = game.new_initial_state()
    state.coin.set_card_list("brilliant_strokes", list(strokes))
    state.coin.set_flag("toa_played", treaty_played)
    for faction in ineligible:
        state.coin.set_eligibility(faction, "ineligible")
    state.card_number, state.on_deck, state.deck, state.stage = card, on_deck, deck, "roll"
    state.play(Roll(5))
    assert state.invariant_problems() == []
    return state


def groups(state: LodState) -> set[str]:
    return {GAME.move_group(move) for move in state.legal_moves()}


def a_command(state: LodState, *, limited: bool | None = None) -> Command | Fight:
    return next(
        move
        for move in state.legal_moves()
        if isinstance(move, Command | Fight)
        and (limited is None or _command(move).limited == limited)
    )


def _command(move: Command | Fight) -> Command:
    return move if isinstance(move, Command) else move.command


def resources(state: LodState) -> dict[str, int]:
    return {f: state.coin.track(RESOURCES[f]) for f in ORDER}


# ---------------------------------------------------------------------- 2.3.2-2.3.5


def test_the_leftmost_eligible_faction_decides_first() -> None:
    state = at_card()
    # 2.3.2: Eligible Factions are asked in the order of the card's symbols
    assert (state.stage, state.to_ask, state.to_move) == ("choose", ORDER, "patriots")
    skipped = at_card(ineligible=["patriots"])
    # 2.3.2: an Ineligible Faction is skipped: the Indians are 1st Eligible
    assert skipped.to_ask == ("indians", "british", "french")
    assert skipped.to_move == "indians"


def test_the_first_eligible_options() -> None:
    state = at_card()
    # 2.3.4: Pass, a Command (with or without a Special Activity) or the Event
    assert groups(state) >= {"Pass", "Event (unshaded)", "Command: Rally", "Command: March"}
    # 2.3.4: the 1st Eligible's Commands are full ones, not Limited (2.3.5)
    commands = islice((m for m in state.legal_moves() if isinstance(m, Command | Fight)), 500)
    assert not any(_command(m).limited for m in commands)


def first_did_command(*, with_special: bool) -> LodState:
    state = at_card()
    state.play(a_command(state))
    assert state.stage == "action" and state.to_move == "patriots"
    if with_special:
        special = next(m for m in state.legal_moves() if isinstance(m, SpecialActivity))
        state.play(special)
    if state.stage == "action":
        state.play(Done("patriots"))
    assert (state.stage, state.to_move) == ("choose", "indians")
    return state


def test_after_a_command_only_the_second_may_take_a_limited_command_or_pass() -> None:
    state = first_did_command(with_special=False)
    assert state.first_did == "command" and state.acted == ("patriots",)
    # 2.3.4 Command Only: a Limited Command (2.3.5) or a Pass; no Event
    found = groups(state)
    assert "Pass" in found and not any(g.startswith("Event") for g in found)
    commands = [m for m in state.legal_moves() if isinstance(m, Command | Fight)]
    assert commands and all(_command(m).limited for m in commands)
    # 2.3.5: a Limited Command selects just one space
    assert all(len(_command(m).spaces) == 1 for m in commands)
    event = PlayEvent(
        next(
            iter(
                at_card(ineligible=["patriots"])
                .legal_moves()
                .filter(lambda m: isinstance(m, PlayEvent))
            )
        ).event
    )
    refused = state.legal_moves().refusal(event)
    assert refused is not None and refused.rule == "2.3.4"


def test_a_full_command_by_the_second_is_refused_under_2_3_5() -> None:
    state = first_did_command(with_special=False)
    full = a_command(at_card(ineligible=["patriots"]), limited=False)
    assert _command(full).faction == "indians"
    refused = state.legal_moves().refusal(full)
    assert refused is not None and refused.rule == "2.3.5"
    with pytest.raises(IllegalMoveError):
        state.play(full)


def test_after_a_command_with_a_special_activity_the_second_may_take_the_event() -> None:
    state = first_did_command(with_special=True)
    assert state.first_did == "command_sa"
    # 2.3.4 Command and Special Activity: a Limited Command or the Event
    found = groups(state)
    assert {"Pass", "Event (unshaded)"} <= found
    commands = [m for m in state.legal_moves() if isinstance(m, Command | Fight)]
    assert commands and all(_command(m).limited for m in commands)


def test_after_the_event_the_second_may_take_a_command_with_a_special_activity() -> None:
    state = at_card()
    event = next(m for m in state.legal_moves() if isinstance(m, PlayEvent))
    state.play(event)
    assert (state.stage, state.to_move, state.first_did) == ("choose", "indians", "event")
    # 2.3.4 Event: a Command, with a Special Activity if desired; the Event is taken
    found = groups(state)
    assert "Pass" in found and not any(g.startswith("Event") for g in found)
    commands = [m for m in state.legal_moves() if isinstance(m, Command | Fight)]
    assert commands and not any(_command(m).limited for m in commands)
    state.play(commands[0])
    assert any(isinstance(m, SpecialActivity) for m in state.legal_moves())


def test_the_card_ends_once_two_factions_acted() -> None:
    state = first_did_command(with_special=False)
    state.play(a_command(state, limited=True))
    # 2.3.5: a Limited Command has no Special Activity; two Factions acted (2.3): the
    # card is over and the next one is up
    assert state.card_number == NEXT_CARD and state.stage == "roll"


# ---------------------------------------------------------------------- 2.3.3 Passing


def test_a_pass_gains_resources_and_hands_the_card_on() -> None:
    state = at_card()
    before = resources(state)
    state.play(Pass("patriots"))
    # 2.3.3: +1 Resource for the Patriots; the next leftmost Eligible Faction replaces
    # them as 1st Eligible, with the same options
    assert resources(state) == {**before, "patriots": before["patriots"] + 1}
    assert (state.to_move, state.acted, state.slot()) == ("indians", (), "first")
    assert "Event (unshaded)" in groups(state)
    state.play(Pass("indians"))
    state.play(Pass("british"))
    # 2.3.3: +1 for the Indians, +2 for the British
    assert resources(state)["indians"] == before["indians"] + 1
    assert resources(state)["british"] == before["british"] + 2
    assert state.to_move == "french"


def test_every_faction_passing_ends_the_card_with_all_still_eligible() -> None:
    state = at_card()
    before = resources(state)
    for faction in ORDER:
        state.play(Pass(faction))
    gains = {"patriots": 1, "indians": 1, "british": 2, "french": 2}  # 2.3.3
    assert resources(state) == {f: before[f] + gains[f] for f in ORDER}
    # 2.3.3: the last Eligible Faction passed: eligibility adjusted (2.3.6, a Faction
    # that passed remains Eligible) and the next card played (2.3.7)
    assert all(state.coin.eligibility(f) == "eligible" for f in ORDER)
    assert (state.stage, state.card_number, state.on_deck) == ("roll", NEXT_CARD, 2)


def test_a_pass_at_the_resources_cap_stays_at_the_cap() -> None:
    state = at_card()
    top = state.coin.rules.data.track(RESOURCES["patriots"]).hi
    state.coin.set_track(RESOURCES["patriots"], top)
    state.play(Pass("patriots"))
    assert state.coin.track(RESOURCES["patriots"]) == top  # 1.8: Resources top out


# ---------------------------------------------------------------------- 2.3.6-2.3.7


def test_eligibility_after_the_card() -> None:
    state = at_card()
    state.play(Pass("patriots"))
    event = next(m for m in state.legal_moves() if isinstance(m, PlayEvent))
    state.play(event)  # the Indians execute the Event as 1st Eligible
    while state.stage == "action" and state.to_move == "indians":
        state.play(state.legal_moves().nth(state.legal_moves().count() - 1))
    assert state.to_move == "british"
    state.play(a_command(state))
    if state.stage == "action":
        state.play(Done("british"))
    # 2.3.6: the two that executed the Event and a Command go Ineligible; the Patriots
    # (passed) and the French (not asked) stay Eligible
    expected = {
        "patriots": "eligible",
        "indians": "ineligible",
        "british": "ineligible",
        "french": "eligible",
    }
    assert {f: state.coin.eligibility(f) for f in ORDER} == expected
    # 2.3.7: the card on deck is played; its first Eligible skips the Ineligible
    assert state.card_number == NEXT_CARD
    state.play(Roll(1))
    card = state.rules.card(NEXT_CARD)
    assert state.to_ask == tuple(f for f in state.rules.order(card) if expected[f] == "eligible")


def test_a_winter_quarters_card_revealed_is_played_at_once() -> None:
    winter = GAME.rules.winter_cards[0]
    state = at_card(deck=(winter, 2, 3))
    for faction in ORDER:
        state.play(Pass(faction))
    # 2.3.7: the card on deck (1) is played, the next revealed is a Winter Quarters
    # card: the two are switched, the Winter Quarters card is played now
    assert (state.card_number, state.on_deck, state.deck) == (winter, NEXT_CARD, (2, 3))
    state.play(Roll(2))
    # 6.0: the Winter Quarters Round; its Victory Check (6.1) passed, the Supply
    # Phase (6.2) is the first decision
    assert state.stage == "winter" and state.winter is not None
    assert state.winter.phase == "supply" and state.winter.number == 1
    assert state.winters == 1


def test_a_winter_quarters_round_ends_with_its_card_and_all_eligible() -> None:
    winter = GAME.rules.winter_cards[0]
    state = at_card(deck=(winter, 2, 3), ineligible=["indians"])
    for faction in ("patriots", "british", "french"):
        state.play(Pass(faction))
    state.play(Roll(2))
    phases = []
    while state.stage == "winter":
        assert state.winter is not None
        phases.append(state.winter.phase)
        view = state.legal_moves()
        assert view.count() == sum(1 for _ in view) > 0
        state.play(view.nth(0))
    # 6.0: the Round's decisions come phase by phase in order (6.2-6.6, the card's
    # Event at the end of the Reset Phase)
    order = ["supply", "support", "redeploy", "naval", "desertion", "event"]
    seen = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert seen == [p for p in order if p in seen]
    assert "support" in seen  # 6.4: the British then the Patriots may spend
    # 6.7 (Reset): every Faction Eligible; the card switched behind it comes next
    assert all(state.coin.eligibility(f) == "eligible" for f in ORDER)
    assert (state.stage, state.card_number, state.winter) == ("roll", NEXT_CARD, None)


def test_the_winter_quarters_cards_event_is_a_decision_of_the_round() -> None:
    # 6.0: each Winter Quarters card's Event takes effect at the end of the Reset Phase
    with_event = [
        n
        for n in GAME.rules.winter_cards
        if GAME.rules.card(n).unshaded is not None and GAME.rules.card(n).unshaded.effects
    ]
    assert with_event, "the sample deck has Winter Quarters cards with Events"
    events_seen = 0
    for winter in with_event:
        state = at_card(deck=(winter, 2, 3))
        for faction in ORDER:
            state.play(Pass(faction))
        state.play(Roll(2))
        while state.stage == "winter":
            assert state.winter is not None
            if state.winter.phase == "event":
                assert state.winter.due[0][0] == "event"
                moves = list(state.legal_moves())
                assert moves and all(isinstance(m, PlayEvent) for m in moves)
                assert {m.event.card for m in moves} == {winter}
                events_seen += 1
            state.play(state.legal_moves().nth(0))
    assert events_seen


# ---------------------------------------------------------------------- 2.3.8-2.3.9


def test_a_brilliant_stroke_is_offered_before_the_first_eligible_acts() -> None:
    state = at_card(strokes=[STROKES["patriots"]])
    # 2.3.8: an Eligible Faction holding its card may play it before the 1st acts
    assert (state.stage, state.window, state.to_move) == ("window", ("patriots",), "patriots")
    assert set(state.legal_moves()) == {
        Stroke("patriots", STROKES["patriots"]),
        Decline("patriots"),
    }
    state.play(Decline("patriots"))
    assert (state.stage, state.to_move) == ("choose", "patriots")


def test_no_brilliant_stroke_once_the_first_eligible_acted_or_when_ineligible() -> None:
    state = at_card(strokes=[STROKES["british"]], ineligible=["british"])
    # 2.3.8: the Faction playing it must be Eligible
    assert state.stage == "choose"
    refused = state.stroke_refusal("british", STROKES["british"], trumping=None)
    assert refused is not None and refused.rule == "2.3.8"
    acted = at_card(strokes=[STROKES["british"]])
    acted.play(Decline("british"))
    acted.play(a_command(acted))
    # 2.3.8: the 1st Eligible Faction has already taken an action
    refused = acted.stroke_refusal("british", STROKES["british"], trumping=None)
    assert refused is not None and "1st Eligible" in refused.reason


# who may Trump whom (2.3.8): the Indians any Faction's; the French the Patriots and
# the British; the British the Patriots; the Patriots none. The Factions are
# Non-players here, whose Leader is judged when they decide (8.3.7), so that the
# 1775 board (no French piece on the map) does not bar the French card (1.10).
TRUMPS = {
    ("indians", "british"),
    ("indians", "patriots"),
    ("indians", "french"),
    ("french", "british"),
    ("french", "patriots"),
    ("british", "patriots"),
}


@pytest.mark.parametrize("trumper", ORDER)
@pytest.mark.parametrize("owner", ORDER)
def test_who_may_trump_whom(trumper: str, owner: str) -> None:
    if trumper == owner:
        return
    state = at_card(strokes=list(STROKES.values()), treaty_played=True, game=NONPLAYERS)
    refused = state.stroke_refusal(trumper, STROKES[trumper], trumping=(owner, STROKES[owner]))
    assert (refused is None) == ((trumper, owner) in TRUMPS), refused


def test_a_stroke_trumped_returns_to_its_owner_and_all_factions_end_eligible() -> None:
    state = at_card(strokes=[STROKES["patriots"], STROKES["british"]], ineligible=["french"])
    assert state.window == ("patriots", "british")
    state.play(Stroke("patriots", STROKES["patriots"]))
    # 2.3.8: the British may Trump the Patriots: they are asked now
    assert (state.stage, state.to_move) == ("window", "british")
    assert Stroke("british", STROKES["british"]) in state.legal_moves()
    state.play(Stroke("british", STROKES["british"]))
    # the Patriots may not Trump: the British card is carried out as if played first
    assert state.stage == "action" and state.action is not None
    assert (state.action.faction, state.action.slot) == ("british", "stroke")
    # 2.3.8: the Trumped card goes back to its owner; the Trump card is spent
    assert state.held("patriots") == [STROKES["patriots"]]
    assert state.held("british") == []
    while state.stage == "action":
        view = state.legal_moves()
        done = Done("british")
        state.play(done if done in view else view.nth(0))
    # 2.3.8: after a Brilliant Stroke all Factions are Eligible, the French too,
    # and the cancelled card is never played: the card on deck is next
    assert all(state.coin.eligibility(f) == "eligible" for f in ORDER)
    assert state.card_number == NEXT_CARD


def set_preparations(state: LodState, total: int) -> None:
    """2.3.9 French Preparations: Available French Regulars, Squadrons/Blockades in
    the West Indies and the CBC; made ``total`` with Regulars and the CBC only."""
    coin = state.coin
    for source in ("Available",):
        held = coin.pieces(source, "french_regular")
        if held:
            coin.move_pieces(source, "Unavailable", "french_regular", held)
    blockades = coin.markers("West Indies", "blockade")
    regulars = min(coin.pieces("Unavailable", "french_regular"), total - blockades)
    coin.move_pieces("Unavailable", "Available", "french_regular", regulars)
    coin.set_track("cbc", total - blockades - regulars)
    state.cache.clear()


@pytest.mark.parametrize(("total", "playable"), [(15, False), (16, True)])
def test_the_treaty_needs_more_than_15_preparations(total: int, playable: bool) -> None:
    state = at_card(strokes=[TREATY])
    assert state.stage == "choose"  # 0 Preparations in 1775: the Treaty is not offered
    set_preparations(state, total)
    assert state.treaty_preparations() == total
    refused = state.stroke_refusal("french", TREATY, trumping=None)
    # 2.3.9: more than 15 Preparations; exactly 15 is not enough
    assert (refused is None) == playable
    if not playable:
        assert refused is not None and refused.rule == "2.3.9"
    fresh = at_card(strokes=[TREATY])
    set_preparations(fresh, total)
    fresh.stage, fresh.card_number = "roll", CARD
    fresh.play(Roll(5))
    assert (fresh.stage == "window" and fresh.window == ("french",)) == playable


def test_the_treaty_trumps_and_cannot_be_trumped() -> None:
    state = at_card(strokes=[TREATY, STROKES["indians"], STROKES["patriots"]])
    set_preparations(state, 16)
    # 2.3.9: the Treaty may Trump another Faction's Brilliant Stroke ...
    assert state.stroke_refusal("french", TREATY, trumping=("indians", STROKES["indians"])) is None
    # ... and cannot be Trumped, not even by the Indians
    refused = state.stroke_refusal("indians", STROKES["indians"], trumping=("french", TREATY))
    assert refused is not None and refused.rule == "2.3.9"
    # the French Brilliant Stroke waits for the Treaty (2.3.8)
    state.coin.set_card_list("brilliant_strokes", [STROKES["french"]])
    refused = state.stroke_refusal("french", STROKES["french"], trumping=None)
    assert refused is not None and "Treaty" in refused.reason


def test_playing_the_treaty() -> None:
    state = at_card(strokes=[TREATY])
    set_preparations(state, 16)
    state.stage, state.card_number = "roll", CARD
    state.play(Roll(5))
    state.play(Stroke("french", TREATY))
    # 2.3.9: the card is cancelled; the French execute the Treaty and nothing else
    assert state.coin.flag("toa_played")
    assert state.action is not None and (state.action.faction, state.action.slot) == (
        "french",
        "treaty",
    )
    assert all(
        _command(m).name == "muster" for m in state.legal_moves() if isinstance(m, Command | Fight)
    )
    while state.stage == "action":
        view = state.legal_moves()
        state.play(Done("french") if Done("french") in view else view.nth(0))
    # 2.3.9: all Factions Eligible after it; the next card is played
    assert all(state.coin.eligibility(f) == "eligible" for f in ORDER)
    assert state.card_number == NEXT_CARD
    assert state.held("french") == []  # the French Brilliant Stroke is not held here
