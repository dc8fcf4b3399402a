"""Non-player Events (8.1, 8.3): golden cases and a property test."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.coin.deck import bundled_deck, deck_from_toml
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.events import legal_event_moves
from legalis.solver.nonplayer.events import (
    benefit_order,
    event_side,
    ineffective_reason,
    nonplayer_event,
)
from legalis.solver.nonplayer.trace import Trace

DECK = bundled_deck("lod")
FACTIONS = ("british", "patriots", "french", "indians")
ORDER = ["British", "Patriots", "French", "Indians"]


def card(number: int, **sides: object) -> object:
    raw = {"number": number, "title": "Test", "factions": ORDER, **sides}
    return deck_from_toml({"game": "lod", "card": [raw]}).card(number)


def test_sword_ignores_the_event() -> None:
    # 8.1: a sword under the Faction's symbol: the Event is ignored
    result = nonplayer_event(load_scenario("lod", "1775"), DECK.card(7), "british", LoggedRandom(0))
    assert (result.choice, result.rule, result.move) == ("command", "8.1", None)
    assert "sword" in result.reason


def test_musket_instruction_makes_event_ineffective() -> None:
    # 8.3.1: the French instruction on card 9 asks for the Treaty of Alliance
    state = load_scenario("lod", "1775")
    result = nonplayer_event(state, DECK.card(9), "french", LoggedRandom(0))
    assert (result.choice, result.rule) == ("command", "8.3.1")
    state.set_flag("toa_played")
    played = nonplayer_event(state, DECK.card(9), "french", LoggedRandom(0))
    assert played.choice == "event"
    assert played.state.track("french_resources") == state.track("french_resources") + 6


def test_dual_use_sides() -> None:
    # 8.3.2: Patriots and French shaded, British and Indians unshaded
    state = CoinState.new("lod")
    sides = {f: event_side(state, DECK.card(13), f) for f in FACTIONS}
    assert sides == {
        "british": "unshaded",
        "patriots": "shaded",
        "french": "shaded",
        "indians": "unshaded",
    }
    assert event_side(state, DECK.card(8), "british") == "shaded"  # one text only


def test_no_effect_is_ineffective() -> None:
    # 8.3.3: no effect at all
    one = card(
        1,
        unshaded={
            "effects": [
                {
                    "op": "remove",
                    "pieces": ["militia"],
                    "count": 1,
                    "where": {"filter": {"is": "named", "names": ["Boston"]}},
                }
            ]
        },
    )
    result = nonplayer_event(CoinState.new("lod"), one, "british", LoggedRandom(0))
    assert (result.choice, result.rule) == ("command", "8.3.3")


def test_only_friendly_removal_is_ineffective() -> None:
    # 8.3.3: the only effect removes friendly pieces without replacing them
    one = card(
        2,
        unshaded={
            "effects": [
                {
                    "op": "remove",
                    "pieces": ["tory"],
                    "count": 1,
                    "where": {"filter": {"is": "named", "names": ["Boston"]}},
                }
            ]
        },
    )
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "tory", 2)
    result = nonplayer_event(state, one, "british", LoggedRandom(0))
    assert (result.choice, result.rule) == ("command", "8.3.3")
    assert "friendly" in result.reason


def test_shift_toward_enemy_is_ineffective() -> None:
    # 8.3.3 / 8.3.6: the Support-Opposition difference shifts toward the enemy
    state = CoinState.new("lod")
    after = state.copy()
    after.set_support("Virginia", "passive_opposition")
    assert ineffective_reason(state, after, "indians") is not None
    assert ineffective_reason(state, after, "patriots") is None


def test_support_shift_picks_highest_gain() -> None:
    # 8.3.6: Royalists for the highest gain in Support (Virginia, population 2)
    one = card(
        3,
        unshaded={
            "effects": [
                {
                    "op": "shift",
                    "levels": 1,
                    "where": {
                        "filter": {"is": "named", "names": ["Boston", "Virginia"]},
                        "spaces": 1,
                    },
                }
            ]
        },
    )
    result = nonplayer_event(CoinState.new("lod"), one, "british", LoggedRandom(0))
    assert result.move is not None
    assert result.move.steps == ((("Virginia", "space", 1),),)


def test_enemy_removal_by_priorities() -> None:
    # 8.3.5 / 8.1.2: remove enemy pieces, the Fort first, then Underground Militia
    one = card(
        4,
        unshaded={
            "effects": [
                {
                    "op": "remove",
                    "pieces": ["militia", "patriot_fort", "continental"],
                    "count": 2,
                    "where": {"filter": {"is": "named", "names": ["Virginia"]}},
                }
            ]
        },
    )
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "patriot_fort", 1)
    state.move_pieces("Available", "Virginia", "continental", 2)
    state.move_pieces("Available", "Virginia", "militia", 1)
    result = nonplayer_event(state, one, "british", LoggedRandom(0))
    assert result.move is not None
    assert set(result.move.steps[0]) == {
        ("Virginia", "patriot_fort", 1),
        ("Virginia", "militia:underground", 1),
    }


def test_place_forts_first() -> None:
    # 8.3.5: as many Forts, then other pieces, as possible (8.1.2 order in a space)
    one = card(
        5,
        unshaded={
            "effects": [
                {
                    "op": "place",
                    "pieces": ["tory", "british_fort"],
                    "count": 2,
                    "where": {
                        "filter": {"is": "named", "names": ["Virginia", "Boston"]},
                        "spaces": 1,
                    },
                }
            ]
        },
    )
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "patriot_fort", 2)  # Boston has no room
    result = nonplayer_event(state, one, "british", LoggedRandom(0))
    assert result.move is not None
    assert result.move.steps == ((("Virginia", "british_fort", 2),),)


def test_benefits_go_friendly_first() -> None:
    # 8.3.5: executing, then other friendly, then enemies (Non-player first)
    order = benefit_order(CoinState.new("lod"), "indians", {"patriots"}, LoggedRandom(5), Trace())
    assert order[:2] == ["indians", "british"]
    assert order[2:] == ["french", "patriots"]


def test_seeded_replay_is_identical() -> None:
    # randomness is injected: the same seed gives the same move and trace
    state = load_scenario("lod", "1776")
    for number in (22, 29, 33):
        first = nonplayer_event(state, DECK.card(number), "british", LoggedRandom(11))
        again = nonplayer_event(state, DECK.card(number), "british", LoggedRandom(11))
        assert first.move == again.move
        assert first.trace.to_json() == again.trace.to_json()


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10**6),
    number=st.sampled_from([c.number for c in DECK.cards]),
    faction=st.sampled_from(FACTIONS),
    scenario=st.sampled_from(["1775", "1776", "1778"]),
)
def test_moves_are_always_legal(seed: int, number: int, faction: str, scenario: str) -> None:
    state = load_scenario("lod", scenario)
    result = nonplayer_event(state, DECK.card(number), faction, LoggedRandom(seed))
    assert state == load_scenario("lod", scenario)  # the input state is left alone
    if result.choice == "event":
        assert result.move is not None and result.side is not None
        view = legal_event_moves(state, DECK.card(number), result.side, faction)
        assert view.refusal(result.move) is None
        assert view.apply(result.move) == result.state
    else:
        assert result.move is None and result.state is state


def _either(first: dict[str, object], second: dict[str, object]) -> object:
    return card(
        50,
        unshaded={"effects": [{"op": "choose", "options": [[first], [second]]}]},
        shaded={"effects": [{"op": "choose", "options": [[first], [second]]}]},
    )


def test_a_choice_of_who_benefits_follows_8_3_5() -> None:
    # 8.3.5: benefits go to the executing Faction, then the other friendly one, then
    # a random enemy, Non-player first
    gift = _either(
        {"op": "adjust", "track": "patriots_resources", "delta": 3},
        {"op": "adjust", "track": "french_resources", "delta": 3},
    )
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    for seed in range(4):
        french = nonplayer_event(state, gift, "french", LoggedRandom(seed))
        assert french.state.track("french_resources") == 3  # the executing Faction
        patriots = nonplayer_event(state, gift, "patriots", LoggedRandom(seed))
        assert patriots.state.track("patriots_resources") == 3
        # the British: both options help an enemy; with the Patriots played by a
        # person, the Non-player French come first
        british = nonplayer_event(
            state,
            gift,
            "british",
            LoggedRandom(seed),
            wants_event=lambda *_: True,
            players={"patriots"},
        )
        assert british.state.track("french_resources") == 3
        assert any(step.rule == "8.3.5" for step in british.trace.steps)


def test_a_choice_of_whom_to_harm_follows_8_3_5() -> None:
    # 8.3.5: harm falls on a random enemy, a player first
    blow = _either(
        {"op": "adjust", "track": "patriots_resources", "delta": -2},
        {"op": "adjust", "track": "french_resources", "delta": -2},
    )
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("patriots_resources", 5)
    state.set_track("french_resources", 5)
    for seed in range(4):
        done = nonplayer_event(
            state,
            blow,
            "indians",
            LoggedRandom(seed),
            wants_event=lambda *_: True,
            players={"french"},
        )
        assert (done.state.track("french_resources"), done.state.track("patriots_resources")) == (
            3,
            5,
        )


def test_a_choice_of_free_actions_for_different_factions_follows_8_3_5() -> None:
    # 8.3.5: "a choice of who gets Event benefits (such as ... free Commands)": the
    # executing Faction first. The card offers the British or the Indians a free
    # March; the Indians executing it take their own, the British theirs
    grant = _either(
        {"op": "free", "faction": "British", "action": "march"},
        {"op": "free", "faction": "Indians", "action": "march"},
    )
    state = CoinState.new("lod")
    for faction in ("indians", "british"):
        for seed in range(3):
            done = nonplayer_event(state, grant, faction, LoggedRandom(seed))
            assert done.choice == "event"
            assert [a["faction"] for a in done.state.free_actions] == [faction]
            assert any(step.rule == "8.3.5" for step in done.trace.steps)


def test_event_placement_as_far_as_availability_allows() -> None:
    # 8.3.4: place "as many pieces (per 8.1.2) as Events, availability (1.4.1), and
    # stacking (1.4.2) allow": "up to 3 Tories in each of up to 2 Colonies" places
    # all 6 for the British, and only the 4 Available when 4 are left
    tories = card(
        51,
        unshaded={
            "effects": [
                {
                    "op": "place",
                    "pieces": ["tory"],
                    "count": {"n": 3, "up_to": True},
                    "where": {
                        "filter": {"is": "type", "types": ["Colony"]},
                        "spaces": 2,
                        "up_to": True,
                    },
                }
            ]
        },
    )
    colonies = CoinState.new("lod").rules.map.of_type("Colony")
    state = CoinState.new("lod")
    full = nonplayer_event(state, tories, "british", LoggedRandom(0))
    assert sum(full.state.pieces(c, "tory") for c in colonies) == 6
    assert sorted(
        full.state.pieces(c, "tory") for c in colonies if full.state.pieces(c, "tory")
    ) == [3, 3]
    state.move_pieces("Available", "Casualties", "tory", state.available("tory") - 4)
    short = nonplayer_event(state, tories, "british", LoggedRandom(0))
    assert sum(short.state.pieces(c, "tory") for c in colonies) == 4
    assert short.state.available("tory") == 0


def test_an_event_choice_no_other_rule_covers_is_random() -> None:
    # 8.3.8: a choice not covered by 8.3.1-8.3.7 is made at random. Shifting Virginia
    # or Georgia toward Support helps no Faction in particular (8.3.5 names none):
    # a die decides, traced under 8.3.8, and each seed replays its pick
    either = _either(
        {"op": "shift", "levels": 1, "where": {"filter": {"is": "named", "names": ["Virginia"]}}},
        {"op": "shift", "levels": 1, "where": {"filter": {"is": "named", "names": ["Georgia"]}}},
    )
    state = CoinState.new("lod")
    picked = set()
    for seed in range(12):
        done = nonplayer_event(state, either, "british", LoggedRandom(seed))
        (step,) = [s for s in done.trace.steps if s.rule == "8.3.8"]
        shifted = "Virginia" if done.state.support("Virginia") != "neutral" else "Georgia"
        assert shifted == ("Virginia", "Georgia")[step.chosen]
        picked.add(shifted)
        again = nonplayer_event(state, either, "british", LoggedRandom(seed))
        assert again.state == done.state and again.trace.to_json() == done.trace.to_json()
    assert picked == {"Virginia", "Georgia"}
