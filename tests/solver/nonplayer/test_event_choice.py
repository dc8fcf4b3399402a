"""The "Event or Command?" boxes (8.4-8.7): each condition worked by hand on a
one-card deck, the D6 condition replayed by seed, and the decline."""

from __future__ import annotations

from typing import Any

import pytest
from legalis.model.coin.deck import deck_from_toml
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.nonplayer.event_choice import EVENT_BOXES
from legalis.solver.nonplayer.events import nonplayer_event

ORDER = ["British", "Patriots", "French", "Indians"]
VIRGINIA = {"filter": {"is": "named", "names": ["Virginia"]}}


def card(*effects: dict[str, Any]) -> Any:
    side = {"effects": list(effects)}
    raw = {"number": 60, "title": "Test", "factions": ORDER, "unshaded": side, "shaded": side}
    return deck_from_toml({"game": "lod", "card": [raw]}).card(60)


def decide(state: CoinState, faction: str, event: Any, seed: int = 0) -> Any:
    return nonplayer_event(state, event, faction, LoggedRandom(seed),
                           wants_event=EVENT_BOXES[faction])  # fmt: skip


def opposed() -> CoinState:
    state = CoinState.new("lod")
    state.set_support("Virginia", "passive_opposition")  # Opposition 2 > Support 0
    return state


def test_british_play_a_royalist_shift_only_when_opposition_leads() -> None:
    # 8.4: Opposition exceeds Support and the Event shifts toward the Royalists
    shift = card({"op": "shift", "levels": 1, "where": VIRGINIA})
    played = decide(opposed(), "british", shift)
    assert played.choice == "event"
    assert any("shifts toward the Royalists" in str(s.chosen) for s in played.trace.steps)
    # no Opposition lead: no condition holds; with few Cities, no D6 either
    declined = decide(CoinState.new("lod"), "british", shift)
    assert (declined.choice, declined.rule) == ("command", "8.1")


def test_british_placements_and_unavailable() -> None:
    # 8.4: Regulars into a City or Colony; pieces from Unavailable
    regulars = card({"op": "place", "pieces": ["british_regular"], "count": 1, "where": VIRGINIA})
    assert decide(CoinState.new("lod"), "british", regulars).choice == "event"
    # 8.4: Tories into an Active Opposition space only when it has none
    tories = card({"op": "place", "pieces": ["tory"], "count": 1, "where": VIRGINIA})
    state = CoinState.new("lod")
    state.set_support("Virginia", "active_opposition")
    state.set_support("Boston", "active_support")  # Opposition 4 leads; Tories shift nothing
    assert decide(state, "british", tories).choice == "event"
    state.move_pieces("Available", "Virginia", "tory", 1)
    assert decide(state, "british", tories).choice == "command"


def test_patriots_resources_fort_and_hidden_militia() -> None:
    # 8.5: at least three Patriot Resources; two are not enough
    three = card({"op": "adjust", "track": "patriots_resources", "delta": 3})
    two = card({"op": "adjust", "track": "patriots_resources", "delta": 2})
    state = CoinState.new("lod")
    assert decide(state, "patriots", three).choice == "event"
    assert decide(state, "patriots", two).choice == "command"
    # 8.5: a Patriot Fort placed
    fort = card({"op": "place", "pieces": ["patriot_fort"], "count": 1, "where": VIRGINIA})
    assert decide(state, "patriots", fort).choice == "event"
    # 8.5: Underground Militia into an Active Support space that has none
    militia = card({"op": "place", "pieces": ["militia"], "count": 1, "where": VIRGINIA})
    assert decide(state, "patriots", militia).choice == "command"
    state.set_support("Virginia", "active_support")
    assert decide(state, "patriots", militia).choice == "event"


def test_french_resources_and_available_regulars() -> None:
    # 8.6: the Event adds French Resources, or places Available French pieces
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    gain = card({"op": "adjust", "track": "french_resources", "delta": 1})
    assert decide(state, "french", gain, seed=1).choice == "event"
    loss = card({"op": "adjust", "track": "patriots_resources", "delta": -1})
    state.set_track("patriots_resources", 3)
    outcomes = {decide(state, "french", loss, seed=s).choice for s in range(12)}
    # the Treaty played: a D6 of 5+ plays an Effective Event (1 in 3), seeds differ
    assert outcomes == {"event", "command"}


def test_indians_villages_forts_and_the_d6_needs_four_villages() -> None:
    # 8.7: a Village placed; a Patriot Fort removed
    village = card({"op": "place", "pieces": ["village"], "count": 1, "where": VIRGINIA})
    state = CoinState.new("lod")
    assert decide(state, "indians", village).choice == "event"
    state.move_pieces("Available", "Virginia", "patriot_fort", 1)
    razed = card({"op": "remove", "pieces": ["patriot_fort"], "count": 1, "where": VIRGINIA})
    assert decide(state, "indians", razed).choice == "event"
    # 8.7: otherwise a D6 only with four Villages on the map
    plain = card({"op": "adjust", "track": "indians_resources", "delta": 1})
    assert {decide(state, "indians", plain, seed=s).choice for s in range(8)} == {"command"}
    for space in ("Quebec", "Northwest", "Southwest", "Florida"):
        state.move_pieces("Available", space, "village", 1)
    rolls = [decide(state, "indians", plain, seed=s) for s in range(12)]
    assert {r.choice for r in rolls} == {"event", "command"}
    for result in rolls:
        (step,) = [s for s in result.trace.steps if s.dice]
        assert (result.choice == "event") == (step.dice[0] >= 5)


@pytest.mark.parametrize("faction", ["british", "patriots", "french", "indians"])
def test_a_seed_replays_the_same_decision(faction: str) -> None:
    state = opposed()
    state.set_flag("toa_played")
    event = card({"op": "adjust", "track": f"{faction}_resources", "delta": 1})
    first, second = decide(state, faction, event, seed=7), decide(state, faction, event, seed=7)
    assert first.choice == second.choice and first.trace.to_json() == second.trace.to_json()


def test_patriots_place_militia_in_the_space_their_question_names() -> None:
    # 8.3.5 with 8.5: "Underground Militia into an Active Support or Village space
    # with none": an Event placing 2 Militia in one Colony, played due to that
    # question, takes the one such Colony (Georgia, a Village there) over the other
    # Colonies, every seed; with no such Colony the question fails and the Patriots
    # decline (no other condition holds)
    colony = {"filter": {"is": "type", "types": ["Colony"]}, "spaces": 1}
    place = card({"op": "place", "pieces": ["militia"], "count": 2, "where": colony})
    state = CoinState.new("lod")
    state.move_pieces("Available", "Georgia", "village", 1)
    for seed in range(10):
        played = decide(state, "patriots", place, seed)
        assert played.choice == "event"
        assert played.state.pieces("Georgia", "militia", "underground") == 2
    assert decide(CoinState.new("lod"), "patriots", place).choice == "command"


def test_french_play_an_event_granting_them_a_free_battle() -> None:
    # 8.6: "the Event inflicts British Casualties (including a free French Battle)":
    # French Regulars face a British Regular in Boston; the card's only effect is a
    # free French Battle there, which the French can carry out after the Event
    battle = card(
        {
            "op": "free",
            "faction": "French",
            "action": "battle",
            "where": {"filter": {"is": "named", "names": ["Boston"]}, "spaces": 1},
        }
    )
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "french_regular", 4)
    state.move_pieces("Available", "Boston", "british_regular", 1)
    state.set_flag("toa_played")
    for seed in range(6):  # every seed: the condition holds before the D6 is reached
        played = decide(state, "french", battle, seed)
        assert played.choice == "event"
        assert any(s.chosen == "the Event inflicts British Casualties" for s in played.trace.steps)
        assert played.state.free_actions[-1]["faction"] == "french"
    # before the Treaty of Alliance no French Battle is possible (and no D6): declined
    state.set_flag("toa_played", False)
    assert decide(state, "french", battle).choice == "command"


def test_british_play_an_event_granting_a_free_skirmish_or_battle() -> None:
    # 8.4: "the Event inflicts Rebellion Casualties (including a free Skirmish or
    # Battle)": British Regulars and Militia share Virginia
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "british_regular", 3)
    state.move_pieces("Available", "Virginia", "militia", 2, new_status="active")
    for action, kind in (("skirmish", "special_activity"), ("battle", "command")):
        grant = card(
            {
                "op": "free",
                "faction": "British",
                "action": action,
                "kind": kind,
                "where": VIRGINIA | {"spaces": 1},
            }
        )
        played = decide(state, "british", grant)
        assert played.choice == "event", action
        assert any(
            s.chosen == "the Event inflicts Rebellion Casualties" for s in played.trace.steps
        )
        # with no Rebellion piece to strike the grant inflicts nothing: declined
        empty = CoinState.new("lod")
        empty.move_pieces("Available", "Virginia", "british_regular", 3)
        assert decide(empty, "british", grant).choice == "command", action


def test_indians_play_an_event_granting_a_free_gather() -> None:
    # 8.7: "the Event places at least one Indian Village or grants a free Gather"
    gather = card({"op": "free", "faction": "Indians", "action": "gather"})
    march = card({"op": "free", "faction": "Indians", "action": "march"})
    state = CoinState.new("lod")
    played = decide(state, "indians", gather)
    assert played.choice == "event"
    assert any(
        s.chosen == "the Event places a Village or grants a free Gather" for s in played.trace.steps
    )
    assert decide(state, "indians", march).choice == "command"  # no condition holds


def test_indians_place_the_village_where_war_parties_already_are() -> None:
    # 8.7: "(If so, place the Village in a space that already has War Parties if
    # possible.)": of the four Reserves only Southwest holds War Parties; every seed
    # puts the Village there, and with none anywhere the Village still goes somewhere
    reserve = {"filter": {"is": "type", "types": ["Reserve"]}, "spaces": 1}
    village = card({"op": "place", "pieces": ["village"], "count": 1, "where": reserve})
    state = CoinState.new("lod")
    state.move_pieces("Available", "Southwest", "war_party", 2)
    for seed in range(10):
        played = decide(state, "indians", village, seed)
        assert played.choice == "event"
        assert played.state.pieces("Southwest", "village") == 1, seed
    anywhere = decide(CoinState.new("lod"), "indians", village)
    assert anywhere.choice == "event"
    assert (
        sum(
            anywhere.state.pieces(s, "village")
            for s in ("Quebec", "Northwest", "Southwest", "Florida")
        )
        == 1
    )
