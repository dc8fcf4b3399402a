"""LoD Supply Phase (6.2.1 Extended Supply Lines, 6.2.2 West Indies Battle) as legal
moves: golden cases worked from the rule text (and the Playbook's Winter Quarters
example), the views against brute force, every move of a view accepted and every
refusal naming its rule."""

from __future__ import annotations

import itertools
import random

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import WEST_INDIES, FixedDice
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
    apply_supply,
    out_of_supply,
    supply_phase,
    supply_refusal,
    supply_steps,
    supply_view,
)


def put(state: CoinState, space: str, piece: str, n: int = 1, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def village_somewhere(state: CoinState) -> None:
    """A Village on the map, so that the Indians place none (6.2.1)."""
    put(state, "Florida", "village")


# ---------------------------------------------------------------------- British


def test_british_cubes_need_a_fort_or_a_british_controlled_city() -> None:
    # 6.2.1: in supply with a British Fort, or in a City with British Control; a
    # British Controlled Colony without a Fort is out of supply; so is a City
    # without British Control; British Regulars in the West Indies are exempt
    state = CoinState.new("lod")
    put(state, "Boston", "tory", 2)  # British Controlled City
    put(state, "Virginia", "british_regular", 3)  # British Controlled Colony
    put(state, "Quebec", "british_regular")
    put(state, "Quebec", "british_fort")  # a Fort
    put(state, "New York City", "tory")
    put(state, "New York City", "militia", 2)  # Rebellion Control
    put(state, WEST_INDIES, "british_regular", 2)
    assert out_of_supply(state, "british") == ["New York City", "Virginia"]


def test_british_choices_pay_remove_or_shift() -> None:
    # 6.2.1: per space pay one Resource, remove the cubes or shift one level toward
    # Active Opposition; no shift at Active Opposition or in an Indian Reserve
    state = CoinState.new("lod")
    state.set_track("british_resources", 1)
    put(state, "Virginia", "tory")
    state.set_support("Virginia", "active_opposition")
    put(state, "Quebec", "british_regular")
    put(state, "Georgia", "tory")
    view = supply_view(state, "british", SUPPLY)
    per_space = {"Georgia": ["pay", "remove", "shift"], "Quebec": ["pay", "remove"],
                 "Virginia": ["pay", "remove"]}  # fmt: skip
    brute = {
        BritishSupply(tuple(zip(per_space, picks, strict=True)))
        for picks in itertools.product(*per_space.values())
        if picks.count("pay") <= 1  # one Resource
    }
    assert set(view) == brute and view.count() == len(brute) == 7  # 12, 5 paying twice
    assert all(supply_refusal(state, m) is None for m in view)
    assert [view.nth(i) for i in range(view.count())] == list(view)


def test_british_supply_applied() -> None:
    # 6.2.1: paying costs one Resource per space; removing sends every cube there
    # (Regulars and Tories) to Available; shifting keeps them
    state = CoinState.new("lod")
    state.set_track("british_resources", 2)
    put(state, "Virginia", "tory", 2)
    put(state, "Virginia", "british_regular")
    put(state, "Georgia", "tory")
    state.set_support("Georgia", "passive_support")
    put(state, "Quebec", "british_regular")
    move = BritishSupply((("Georgia", "shift"), ("Quebec", "pay"), ("Virginia", "remove")))
    after, log = apply_supply(state, move)
    assert after.support("Georgia") == "neutral" and after.pieces("Georgia", "tory") == 1
    assert after.track("british_resources") == 1 and after.pieces("Quebec", "british_regular")
    assert after.pieces("Virginia", "tory") == after.pieces("Virginia", "british_regular") == 0
    assert all(line.startswith("6.2.1") for line in log)


def test_british_refusals_name_the_rule() -> None:
    state = CoinState.new("lod")
    put(state, "Virginia", "tory")
    put(state, "Georgia", "tory")
    for move in (
        BritishSupply((("Virginia", "remove"),)),  # Georgia left out
        BritishSupply((("Georgia", "pay"), ("Virginia", "remove"))),  # no Resources
        BritishSupply((("Virginia", "remove"), ("Georgia", "remove"))),  # not sorted
        BritishSupply((("Boston", "remove"), ("Georgia", "remove"), ("Virginia", "remove"))),
    ):
        refused = supply_refusal(state, move)
        assert refused is not None and refused.rule == "6.2.1"
        with pytest.raises(IllegalMoveError):
            apply_supply(state, move)
    assert supply_refusal(state, "remove everything").rule == "6.2"  # type: ignore[union-attr]


# ---------------------------------------------------------------------- Patriots


def test_patriot_units_need_a_fort_or_rebellion_control_of_a_colony_or_city() -> None:
    # 6.2.1: a Patriot Fort, or a Colony or City with Rebellion Control; an Indian
    # Reserve needs the Fort (the Playbook's Quebec Province)
    state = CoinState.new("lod")
    put(state, "Quebec", "militia")  # Rebellion Control, but a Reserve
    put(state, "Northwest", "militia")
    put(state, "Northwest", "patriot_fort")
    put(state, "Virginia", "continental")  # Rebellion Controlled Colony
    put(state, "Philadelphia", "militia")
    put(state, "Philadelphia", "tory")  # no Control
    assert out_of_supply(state, "patriots") == ["Philadelphia", "Quebec"]


def test_patriots_pay_or_remove_one_in_two() -> None:
    # 6.2.1: pay one Resource, or remove one unit for every two there, rounding
    # down: a lone Militia costs nothing to leave unpaid (the Playbook's Quebec)
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 1)
    put(state, "Quebec", "militia", 1)
    put(state, "Northwest", "militia", 1, "active")
    put(state, "Northwest", "militia", 2)
    put(state, "Northwest", "continental", 2)
    view = supply_view(state, "patriots", SUPPLY)
    # Northwest: 5 units, 2 go: (Continentals, Active, Underground) summing to 2
    kinds = ("continental", "militia:active", "militia:underground")
    northwest: list[tuple[tuple[str, str, int], ...]] = [
        tuple(("Northwest", k, n) for k, n in zip(kinds, counts, strict=True) if n)
        for counts in itertools.product(range(3), range(2), range(3)) if sum(counts) == 2
    ]  # fmt: skip
    assert len(northwest) == 5
    brute = set()
    for quebec_pays, west in itertools.product([True, False], [None, *northwest]):
        paid = tuple(s for s, p in (("Northwest", west is None), ("Quebec", quebec_pays)) if p)
        if len(paid) <= 1:  # one Resource; Quebec unpaid: one Militia, none go
            brute.add(PatriotSupply(paid, west or ()))
    assert set(view) == brute and view.count() == len(brute) == 6 + 5
    after, _ = apply_supply(state, PatriotSupply((), (("Northwest", "continental", 2),)))
    assert after.pieces("Northwest", "continental") == 0 and after.pieces("Quebec", "militia")
    refused = supply_refusal(state, PatriotSupply((), (("Northwest", "continental", 1),)))
    assert refused is not None and refused.rule == "6.2.1"
    refused = supply_refusal(state, PatriotSupply(("Northwest", "Quebec"), ()))
    assert refused is not None and "1" in refused.reason  # one Resource for two spaces


# ---------------------------------------------------------------------- French


def french_state() -> CoinState:
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    return state


def test_french_move_to_the_nearest_patriot_fort_or_pay() -> None:
    # 6.2.1: French Regulars out of supply move to the nearest space with a Patriot
    # Fort or pay one Resource per space; West Indies Regulars are exempt
    state = french_state()
    state.set_track("french_resources", 1)
    put(state, "Georgia", "french_regular", 2)
    put(state, "Georgia", "tory", 2)  # no Control
    put(state, "Savannah", "patriot_fort")  # 1 step
    put(state, "Florida", "patriot_fort")  # 1 step
    put(state, "Boston", "patriot_fort")  # farther
    put(state, WEST_INDIES, "french_regular", 3)
    assert out_of_supply(state, "french") == ["Georgia"]
    view = supply_view(state, "french", SUPPLY)
    assert sorted(m.choices[0][1] for m in view) == ["Florida", "Savannah", "pay"]  # type: ignore[union-attr]
    after, _ = apply_supply(state, FrenchSupply((("Georgia", "Savannah"),)))
    assert after.pieces("Savannah", "french_regular") == 2
    assert after.pieces("Georgia", "french_regular") == 0
    assert after.pieces(WEST_INDIES, "french_regular") == 3


def test_french_without_a_patriot_fort_go_to_available() -> None:
    # 6.2.1: no Patriot Fort to move to: pay, or return the Regulars to Available
    state = french_state()
    put(state, "Georgia", "french_regular", 2)
    put(state, "Georgia", "tory", 2)
    assert list(supply_view(state, "french", SUPPLY)) == [FrenchSupply((("Georgia", "Available"),))]
    after, _ = apply_supply(state, FrenchSupply((("Georgia", "Available"),)))
    assert after.available("french_regular") == state.available("french_regular") + 2
    refused = supply_refusal(state, FrenchSupply((("Georgia", "pay"),)))
    assert refused is not None and refused.rule == "6.2.1"


# ---------------------------------------------------------------------- Indians


def test_indians_place_a_village_when_none_is_on_the_map() -> None:
    # 6.2.1: no Village on the map: one in any Indian Reserve, then War Parties in a
    # Colony without a Village move to the nearest Province with one or pay
    state = CoinState.new("lod")
    put(state, "Georgia", "war_party", 2)
    put(state, "Quebec", "war_party", 1)  # a Reserve: in supply
    view = supply_view(state, "indians", SUPPLY)
    moves = list(view)
    assert {m.village for m in moves} == {"Florida", "Northwest", "Quebec", "Southwest"}  # type: ignore[union-attr]
    # Georgia is next to Florida and Southwest; from Northwest or Quebec the Village is
    # farther than nothing else: the one placed is the only Village
    assert IndianSupply("Florida", (("Georgia", "Florida"),)) in moves
    assert IndianSupply("Quebec", (("Georgia", "Quebec"),)) in moves
    assert view.count() == 4  # no Resources: the move is forced once the Village is placed
    refused = supply_refusal(state, IndianSupply(None, (("Georgia", "Florida"),)))
    assert refused is not None and refused.rule == "6.2.1"


def test_war_parties_move_keeping_their_status_or_pay() -> None:
    # 6.2.1: War Parties in a Colony without a Village pay or move to the nearest
    # Province with a Village (Underground ones stay Underground)
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    put(state, "Southwest", "village")
    put(state, "New York", "village")
    put(state, "North Carolina", "war_party", 1, "active")
    put(state, "North Carolina", "war_party", 1)
    put(state, "New Jersey", "war_party", 2)
    view = supply_view(state, "indians", SUPPLY)
    assert set(view) == {
        IndianSupply(None, (("New Jersey", "New York"), ("North Carolina", "Southwest"))),
        IndianSupply(None, (("New Jersey", "pay"), ("North Carolina", "Southwest"))),
        IndianSupply(None, (("New Jersey", "New York"), ("North Carolina", "pay"))),
    }
    move = IndianSupply(None, (("New Jersey", "pay"), ("North Carolina", "Southwest")))
    after, _ = apply_supply(state, move)
    assert after.pieces("Southwest", "war_party", "active") == 1
    assert after.pieces("Southwest", "war_party", "underground") == 1
    assert after.track("indians_resources") == 0 and after.pieces("New Jersey", "war_party") == 2


# ---------------------------------------------------------------------- West Indies


def playbook_west_indies() -> CoinState:
    """The Playbook's Winter Quarters: three French and three British Regulars and a
    Squadron in the West Indies."""
    state = french_state()
    put(state, WEST_INDIES, "french_regular", 3)
    put(state, WEST_INDIES, "british_regular", 3)
    state.move_marker("Unavailable", WEST_INDIES, "blockade", 1)
    state.set_track("french_resources", 2)
    return state


def test_west_indies_battle_and_upkeep_as_in_the_playbook() -> None:
    # 6.2.2: the free French Battle (3.6): both roll 2; the French lose one Regular,
    # the British two; then the French pay one Resource to keep their two Regulars
    # and the British, with no Resources, return their last Regular to Available
    state = playbook_west_indies()
    steps = supply_steps(state)
    assert steps[-3:] == [("french", BATTLE), ("french", UPKEEP), ("british", UPKEEP)]
    assert list(supply_view(state, "french", BATTLE)) == [WestIndiesBattle()]
    fought, log = apply_supply(state, WestIndiesBattle(), FixedDice([2, 2]))
    assert log[0].startswith("6.2.2")
    assert fought.pieces(WEST_INDIES, "french_regular") == 2
    assert fought.pieces(WEST_INDIES, "british_regular") == 1
    assert fought.track("french_resources") == 2  # free
    assert [m.kept for m in supply_view(fought, "french", UPKEEP)] == [0, 1, 2]  # type: ignore[union-attr]
    kept, _ = apply_supply(fought, WestIndiesUpkeep("french", 2))
    assert kept.track("french_resources") == 1 and kept.pieces(WEST_INDIES, "french_regular") == 2
    assert list(supply_view(kept, "british", UPKEEP)) == [WestIndiesUpkeep("british", 0)]
    done, _ = apply_supply(kept, WestIndiesUpkeep("british", 0))
    assert done.pieces(WEST_INDIES, "british_regular") == 0
    assert done.available("british_regular") == kept.available("british_regular") + 1


def test_unpaid_west_indies_units_go_to_available() -> None:
    # 6.2.2 (reading): units neither returned nor paid for do not stay: keeping any
    # costs one Resource; a Faction may keep some and return the rest
    state = french_state()
    put(state, WEST_INDIES, "french_regular", 3)
    refused = supply_refusal(state, WestIndiesUpkeep("french", 3))
    assert refused is not None and refused.rule == "6.2.2"
    state.set_track("french_resources", 1)
    after, _ = apply_supply(state, WestIndiesUpkeep("french", 1))
    assert after.pieces(WEST_INDIES, "french_regular") == 1 and after.track("french_resources") == 0
    assert supply_refusal(state, WestIndiesUpkeep("indians", 0)).rule == "6.2.2"  # type: ignore[union-attr]


def test_no_battle_without_both_sides() -> None:
    # 6.2.2: the Battle needs French Regulars and British pieces in the West Indies;
    # a British Fort is enough
    state = french_state()
    put(state, WEST_INDIES, "french_regular", 2)
    assert list(supply_view(state, "french", BATTLE)) == []
    assert supply_refusal(state, WestIndiesBattle()).rule == "6.2.2"  # type: ignore[union-attr]
    put(state, WEST_INDIES, "british_fort")
    assert list(supply_view(state, "french", BATTLE)) == [WestIndiesBattle()]
    with pytest.raises(InputError):
        apply_supply(state, WestIndiesBattle())  # no dice


# ---------------------------------------------------------------------- the phase


def test_steps_in_order_and_bad_steps() -> None:
    # 6.2.1: British, Patriots, French, Indians; then 6.2.2
    state = playbook_west_indies()
    put(state, "Virginia", "tory")
    put(state, "Quebec", "militia")
    put(state, "Georgia", "french_regular")
    put(state, "Georgia", "tory")
    put(state, "Virginia", "war_party")
    assert [f for f, step in supply_steps(state) if step == SUPPLY] == [
        "british", "patriots", "french", "indians"]  # fmt: skip
    with pytest.raises(InputError):
        supply_view(state, "indians", BATTLE)
    with pytest.raises(InputError):
        supply_view(state, "spain", SUPPLY)


def test_supply_phase_checks_whose_step_it_is() -> None:
    state = CoinState.new("lod")
    put(state, "Virginia", "tory")
    with pytest.raises(IllegalMoveError) as refused:
        supply_phase(state, lambda s, f, step: PatriotSupply(), None)
    assert refused.value.rule == "6.2"


def test_british_removal_brings_later_factions_into_supply() -> None:
    # 6.2.1 in order: removing the British cubes gives the Patriots Rebellion
    # Control, so they are in supply when their turn comes
    state = CoinState.new("lod")
    village_somewhere(state)
    put(state, "Virginia", "tory", 2)
    put(state, "Virginia", "militia", 2)
    assert out_of_supply(state, "patriots") == ["Virginia"]
    after, _ = apply_supply(state, BritishSupply((("Virginia", "remove"),)))
    assert out_of_supply(after, "patriots") == []
    assert list(supply_view(after, "patriots", SUPPLY)) == [PatriotSupply()]


# ---------------------------------------------------------------------- every move legal


def random_state(rng: random.Random) -> CoinState:
    """A scenario with pieces scattered where they may stand, random levels and
    Resources, and French and British Regulars in the West Indies."""
    state = load_scenario("lod", rng.choice(["1775", "1776", "1778"]))
    state.set_flag("toa_played")
    board = state.rules.map
    spaces = list(state.rules.spaces)
    for piece in ("british_regular", "tory", "militia", "continental", "french_regular",
                  "war_party"):  # fmt: skip
        for _ in range(rng.randrange(4)):
            space = rng.choice(spaces)
            if piece == "war_party" and board.is_city(space):
                continue
            if state.available(piece):
                put(state, space, piece)
    for space in spaces:
        if state.can_have_support(space):
            levels = ["active_support", "neutral", "passive_opposition", "active_opposition"]
            state.set_support(space, rng.choice(levels))
    for faction in ("british", "patriots", "french", "indians"):
        state.set_track(f"{faction}_resources", rng.randrange(3))
    for piece in ("french_regular", "british_regular"):
        if state.available(piece) and rng.random() < 0.7:
            put(state, WEST_INDIES, piece, min(state.available(piece), 1 + rng.randrange(3)))
    return state


def test_every_view_move_is_legal_and_applies() -> None:
    rng = random.Random(11)
    for _ in range(60):
        state = random_state(rng)
        dice = LoggedRandom(rng.randrange(1000))
        for faction, step in supply_steps(state):
            view = supply_view(state, faction, step)
            moves: list[SupplyDecision] = list(itertools.islice(view, 200))
            assert moves and len(set(moves)) == len(moves)
            assert all(supply_refusal(state, m) is None for m in moves)
            assert view.count() >= len(moves)
            if view.count() <= 200:  # counted without listing, as many as listed
                assert view.count() == len(moves)
            pick = view.nth(rng.randrange(view.count()))
            assert pick.to_json()["faction"] == faction
            state, log = apply_supply(state, pick, dice)
            assert all(line[:1].isdigit() for line in log)
            assert not state.invariant_problems()
