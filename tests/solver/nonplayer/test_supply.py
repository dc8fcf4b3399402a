"""Non-player Supply Phase choices (8.4.7, 8.4.8, 8.5.5, 8.6.7, 8.6.8, 8.7.5):
golden cases worked from the paragraphs, every pick accepted by the model's view,
and the same seed giving the same phase."""

from __future__ import annotations

import random

from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import WEST_INDIES
from legalis.model.lod.supply import (
    BATTLE,
    SUPPLY,
    UPKEEP,
    BritishSupply,
    FrenchSupply,
    IndianSupply,
    PatriotSupply,
    SupplyDecision,
    WestIndiesBattle,
    WestIndiesUpkeep,
    supply_phase,
    supply_view,
)
from legalis.solver.nonplayer.supply import (
    SupplyChoiceOptions,
    expected_british_earnings,
    nonplayer_decider,
    nonplayer_supply,
)
from legalis.solver.nonplayer.trace import Trace


def put(state: CoinState, space: str, piece: str, n: int = 1, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def decide(state: CoinState, faction: str, step: str, seed: int = 0, **kw: object) -> tuple[
    SupplyDecision, Trace
]:  # fmt: skip
    trace = Trace()
    options = SupplyChoiceOptions(**kw)  # type: ignore[arg-type]
    move = nonplayer_supply(state, faction, step, LoggedRandom(seed), trace, options)
    assert move in supply_view(state, faction, step)
    return move, trace


# ---------------------------------------------------------------------- 8.4.7 British


def british_state() -> CoinState:
    """Expected earnings 3 (a Fort and New York City, both in supply) and four
    Colonies where British cubes are out of supply."""
    state = CoinState.new("lod")
    state.set_track("british_resources", 1)
    put(state, "Quebec", "british_fort")
    put(state, "New York City", "tory")
    put(state, "Florida", "village")
    for space in ("Virginia", "Georgia", "New Hampshire"):
        put(state, space, "british_regular")
        put(state, space, "tory")
    state.set_support("New Hampshire", "active_opposition")
    put(state, "New Jersey", "tory")
    return state


def test_british_pay_where_reward_loyalty_needs_the_cubes_highest_population_first() -> None:
    # 8.4.7: cubes that allow Reward Loyalty (a Regular and a Tory under British
    # Control, 6.4.1) affordable with the expected earnings 3 (Fort 1, New York City
    # 2): pay first in Virginia (Population 2); Resources gone, shift Georgia; New
    # Hampshire cannot shift (Active Opposition): remove; New Jersey's lone Tory
    # allows no Reward Loyalty: remove
    state = british_state()
    assert expected_british_earnings(state) == 3
    move, trace = decide(state, "british", SUPPLY)
    assert move == BritishSupply((("Georgia", "shift"), ("New Hampshire", "remove"),
                                  ("New Jersey", "remove"), ("Virginia", "pay")))  # fmt: skip
    assert {step.rule for step in trace.steps} == {"8.4.7"}
    assert trace.steps[0].chosen == "Virginia"


def test_british_without_expected_resources_do_not_keep_cubes_for_reward_loyalty() -> None:
    # 8.4.7: no Resources and no earnings: Reward Loyalty is out of reach, the cubes
    # are not needed and go to Available (the option shifts them instead)
    state = CoinState.new("lod")
    put(state, "Florida", "village")
    put(state, "Virginia", "british_regular")
    put(state, "Virginia", "tory")
    assert expected_british_earnings(state) == 0
    assert decide(state, "british", SUPPLY)[0] == BritishSupply((("Virginia", "remove"),))
    shifted = decide(state, "british", SUPPLY, shift_unneeded=True)[0]
    assert shifted == BritishSupply((("Virginia", "shift"),))


def test_british_pay_to_prevent_committees_of_correspondence() -> None:
    # 8.4.7: without the two Tories the Militia would give Rebellion Control and the
    # Patriots could hold Committees of Correspondence (6.4.2) in Massachusetts: the
    # cubes are needed, pay; Connecticut's Tory prevents nothing: remove
    state = CoinState.new("lod")
    state.set_track("british_resources", 1)
    put(state, "Florida", "village")
    put(state, "Massachusetts", "tory", 2)
    put(state, "Massachusetts", "militia", 2)
    put(state, "Connecticut-Rhode Island", "tory")
    move, _ = decide(state, "british", SUPPLY)
    assert move == BritishSupply((("Connecticut-Rhode Island", "remove"), ("Massachusetts", "pay")))


# ---------------------------------------------------------------------- 8.4.8, 8.6.8


def test_british_keep_west_indies_regulars_only_with_control_and_a_resource() -> None:
    # 8.4.8: British Control of the West Indies after the Battle: pay one Resource
    # to keep the Regulars; otherwise all go to Available
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    put(state, WEST_INDIES, "british_regular", 2)
    state.set_track("british_resources", 1)
    assert decide(state, "british", UPKEEP)[0] == WestIndiesUpkeep("british", 2)
    state.set_track("british_resources", 0)
    assert decide(state, "british", UPKEEP)[0] == WestIndiesUpkeep("british", 0)
    state.set_track("british_resources", 1)
    put(state, WEST_INDIES, "french_regular", 2)  # no Control
    move, trace = decide(state, "british", UPKEEP)
    assert move == WestIndiesUpkeep("british", 0) and trace.steps[0].rule == "8.4.8"


def test_french_keep_west_indies_regulars_if_they_can_pay() -> None:
    # 8.6.8: pay one Resource to keep the French Regulars if possible, else return them
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    put(state, WEST_INDIES, "french_regular", 3)
    put(state, WEST_INDIES, "british_regular", 4)
    state.set_track("french_resources", 1)
    move, trace = decide(state, "french", UPKEEP)
    assert move == WestIndiesUpkeep("french", 3) and trace.steps[0].rule == "8.6.8"
    state.set_track("french_resources", 0)
    assert decide(state, "french", UPKEEP)[0] == WestIndiesUpkeep("french", 0)
    assert decide(state, "french", BATTLE)[0] == WestIndiesBattle()


# ---------------------------------------------------------------------- 8.5.5 Patriots


def test_patriots_pay_where_removal_changes_control() -> None:
    # 8.5.5: pay where removing would change Control: first where the British could
    # then Reward Loyalty (Virginia: a Regular and a Tory left under British
    # Control), then most Villages (Pennsylvania over New Jersey); elsewhere remove
    # per 8.1.2: in New Jersey the Active Militia goes first; Quebec's lone Militia
    # loses nothing (one in two, rounded down)
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 2)
    put(state, "Virginia", "militia", 2)
    put(state, "Virginia", "continental", 2)
    put(state, "Virginia", "tory", 2)
    put(state, "Virginia", "british_regular", 2)
    put(state, "Pennsylvania", "militia", 3)
    put(state, "Pennsylvania", "village")
    put(state, "Pennsylvania", "tory")
    put(state, "Pennsylvania", "war_party")
    put(state, "New Jersey", "militia", 1)
    put(state, "New Jersey", "militia", 1, "active")
    put(state, "New Jersey", "tory", 2)
    put(state, "Quebec", "militia")
    move, trace = decide(state, "patriots", SUPPLY)
    assert move == PatriotSupply(
        ("Pennsylvania", "Virginia"), (("New Jersey", "militia:active", 1),)
    )
    assert [s.chosen for s in trace.steps[:2]] == ["Virginia", "Pennsylvania"]
    assert {s.rule for s in trace.steps} == {"8.5.5"}
    state.set_track("patriots_resources", 0)  # nothing to pay with: per 8.1.2 everywhere
    move, _ = decide(state, "patriots", SUPPLY)
    # Virginia: a Continental (not the last), then Underground Militia
    assert move == PatriotSupply((), (
        ("New Jersey", "militia:active", 1), ("Pennsylvania", "militia:underground", 1),
        ("Virginia", "continental", 1), ("Virginia", "militia:underground", 1)))  # fmt: skip


# ---------------------------------------------------------------------- 8.6.7 French


def test_french_pay_where_moving_changes_control_else_nearest_fort() -> None:
    # 8.6.7: pay where moving the French Regulars would change Control, first where
    # the British could then Reward Loyalty (Georgia, though Virginia has more
    # Population); elsewhere to the nearest Patriot Fort: Virginia's is Northwest,
    # Maryland-Delaware's Northwest or Philadelphia (tie by 8.2)
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("french_resources", 1)
    put(state, "Georgia", "french_regular", 2)
    put(state, "Georgia", "militia")
    put(state, "Georgia", "tory", 2)
    put(state, "Georgia", "british_regular")
    put(state, "Virginia", "french_regular")
    put(state, "Virginia", "tory")
    put(state, "Maryland-Delaware", "french_regular")
    put(state, "Maryland-Delaware", "tory", 3)  # British Control either way
    put(state, "Philadelphia", "patriot_fort")
    put(state, "Northwest", "patriot_fort")
    seen = set()
    for seed in range(12):
        move, trace = decide(state, "french", SUPPLY, seed)
        assert isinstance(move, FrenchSupply)
        choices = dict(move.choices)
        assert choices["Georgia"] == "pay" and choices["Virginia"] == "Northwest"
        seen.add(choices["Maryland-Delaware"])
        assert trace.steps[0].rule == "8.6.7" and trace.steps[0].chosen == "Georgia"
        assert any(s.dice for s in trace.steps if s.rule == "8.6.7")
    assert seen == {"Northwest", "Philadelphia"}


def test_french_without_a_patriot_fort_return_to_available() -> None:
    # 8.6.7: no Patriot Fort: to Available
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    put(state, "Maryland-Delaware", "french_regular")
    put(state, "Maryland-Delaware", "tory", 3)
    move, trace = decide(state, "french", SUPPLY)
    assert move == FrenchSupply((("Maryland-Delaware", "Available"),))
    assert trace.steps[-1].rule == "8.6.7"


# ---------------------------------------------------------------------- 8.7.5 Indians


def indian_state() -> CoinState:
    state = CoinState.new("lod")
    put(state, "Southwest", "village")
    put(state, "Georgia", "war_party")
    put(state, "Georgia", "militia")  # moving the War Party gives Rebellion Control
    put(state, "South Carolina", "war_party", 2)  # Gather could place a Village
    put(state, "North Carolina", "war_party")  # neither
    return state


def test_indians_pay_first_against_rebellion_control_then_for_gather() -> None:
    # 8.7.5: pay first where moving would add Rebellion Control (Georgia), then
    # where Gather could place a Village (South Carolina); when Resources run out or
    # neither holds, move to the nearest Village (Southwest)
    state = indian_state()
    state.set_track("indians_resources", 1)
    move, trace = decide(state, "indians", SUPPLY)
    assert move == IndianSupply(None, (("Georgia", "pay"), ("North Carolina", "Southwest"),
                                       ("South Carolina", "Southwest")))  # fmt: skip
    assert trace.steps[0].rule == "8.7.5"
    state.set_track("indians_resources", 5)
    move, _ = decide(state, "indians", SUPPLY)
    assert move == IndianSupply(None, (("Georgia", "pay"), ("North Carolina", "Southwest"),
                                       ("South Carolina", "pay")))  # fmt: skip


def test_indians_place_the_supply_village() -> None:
    # 6.2.1: no Village on the map: one in an Indian Reserve, randomly (8.2) or, as
    # an option, where most War Parties are; the War Parties then go to it
    state = CoinState.new("lod")
    put(state, "Quebec", "war_party", 3)
    put(state, "New Jersey", "war_party", 1)
    move, trace = decide(state, "indians", SUPPLY, village_site="most_war_parties")
    assert move == IndianSupply("Quebec", (("New Jersey", "Quebec"),))
    sites = set()
    for seed in range(8):
        move, trace = decide(state, "indians", SUPPLY, seed)
        assert isinstance(move, IndianSupply) and move.village is not None
        sites.add(move.village)
        assert trace.steps[0].rule == "8.2"
    assert len(sites) > 1


# ---------------------------------------------------------------------- every pick legal


def scattered(rng: random.Random) -> CoinState:
    """A scenario after the Treaty with pieces scattered where they may stand,
    random levels and Resources, and Regulars of both sides in the West Indies."""
    state = load_scenario("lod", rng.choice(["1775", "1776", "1778"]))
    state.set_flag("toa_played")
    board = state.rules.map
    spaces = list(state.rules.spaces)
    for piece in ("british_regular", "tory", "militia", "continental", "french_regular",
                  "war_party", "patriot_fort"):  # fmt: skip
        for _ in range(rng.randrange(5)):
            space = rng.choice(spaces)
            bad = piece == "war_party" and board.is_city(space)
            full = piece == "patriot_fort" and state.stacking_count(space) >= 2
            if state.available(piece) and not bad and not full:
                put(state, space, piece)
    for space in spaces:
        if state.can_have_support(space):
            state.set_support(space, rng.choice(["active_support", "passive_support", "neutral",
                                                 "passive_opposition"]))  # fmt: skip
    for faction in ("british", "patriots", "french", "indians"):
        state.set_track(f"{faction}_resources", rng.randrange(4))
    for piece in ("french_regular", "british_regular"):
        if state.available(piece) and rng.random() < 0.7:
            put(state, WEST_INDIES, piece, min(state.available(piece), 1 + rng.randrange(3)))
    return state


def run(state: CoinState, seed: int) -> tuple[CoinState, list[str], list[str]]:
    """The whole Supply Phase with Non-players, each pick checked against the view."""
    rng, trace = LoggedRandom(seed), Trace()
    pick = nonplayer_decider(rng, trace)

    def checked(s: CoinState, faction: str, step: str) -> SupplyDecision:
        move = pick(s, faction, step)
        assert supply_view(s, faction, step).refusal(move) is None
        return move

    after, log = supply_phase(state, checked, rng)
    return after, log, trace.lines()


def test_every_nonplayer_pick_is_legal_and_replays_by_seed() -> None:
    rng = random.Random(5)
    starts = [load_scenario("lod", s) for s in ("1775", "1776", "1778")]
    starts += [scattered(rng) for _ in range(40)]
    for index, start in enumerate(starts):
        for seed in range(4):
            after, log, lines = run(start, 100 * index + seed)
            assert not after.invariant_problems()
            assert all(line[:1].isdigit() for line in log)
            again = run(start, 100 * index + seed)
            assert again == (after, log, lines)
