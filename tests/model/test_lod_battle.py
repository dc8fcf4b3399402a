"""LoD Battle (3.6): golden Battles worked by hand from the rules with fixed dice,
refusals, and properties over random small states."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.battle import (
    BattleChoice,
    BattleOptions,
    BattleResult,
    BlockadeShift,
    FixedDice,
    FollowUp,
    Modifier,
    Removal,
    apply_blockade_shift,
    attacking_factions,
    battle_refusal,
    blockade_shift_refusal,
    blockade_shift_view,
    defending_chooser,
    force_level,
    resolve_battle,
)


class Dice:
    """A stub die source: each draw shows the next chosen D3 face."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.draws = 0

    def randrange(self, stop: int) -> int:
        assert stop == 3
        self.draws += 1
        return self.faces.pop(0) - 1


def board(toa: bool = True) -> CoinState:
    state = CoinState.new("lod")
    state.set_flag("toa_played", toa)
    return state


def put(state: CoinState, space: str, piece: str, n: int, status: str | None = None) -> None:
    state.move_pieces("Available", space, piece, n, new_status=status)


def removed(result_removed: tuple[Removal, ...], side: str) -> dict[str, int]:
    return {r.piece_type: r.count for r in result_removed if r.side == side}


def names(mods: tuple[Modifier, ...]) -> list[str]:
    return [m.name for m in mods]


# ---------------------------------------------------------------------- who fights


def test_participation_and_force_levels() -> None:
    state = board()
    put(state, "Virginia", "british_regular", 2)
    put(state, "Virginia", "tory", 5)
    put(state, "Virginia", "war_party", 3, "active")
    put(state, "Virginia", "war_party", 1)
    put(state, "Virginia", "continental", 1)
    put(state, "Virginia", "french_regular", 3)
    put(state, "Virginia", "patriot_fort", 1)
    put(state, "Virginia", "militia", 3, "active")
    british = BattleChoice("Virginia", "british")
    # 3.6.1: the British use Indian pieces when a War Party is in the space
    assert attacking_factions(state, british) == ("british", "indians")
    # 3.6.3: 2 Regulars + Tories up to 2 + half of 3 Active War Parties = 5
    assert force_level(state, british, "royalist") == 5
    # 3.6.3: defending, all cubes, Forts and half Active Militia: 1 + 3 + 1 + 1 = 6
    assert force_level(state, british, "rebellion") == 6
    # 3.6.1/3.6.3: French alone; with the Patriots paying, Continentals up to 3 French
    # Regulars and half the Active Militia
    alone = BattleChoice("Virginia", "french")
    assert attacking_factions(state, alone) == ("french",)
    assert force_level(state, alone, "rebellion") == 3
    paid = BattleChoice("Virginia", "french", ally_pays=True)
    assert force_level(state, paid, "rebellion") == 3 + 1 + 1
    # 3.6.3: Patriots with the French paying: French Regulars up to 1 Continental
    patriots = BattleChoice("Virginia", "patriots", ally_pays=True)
    assert force_level(state, patriots, "rebellion") == 1 + 1 + 1
    # 3.6.3: defending Royalists: all 7 cubes and half the Active War Parties
    assert force_level(state, patriots, "royalist") == 7 + 1


def test_common_cause_war_parties_count_as_tories() -> None:
    state = board()
    put(state, "Virginia", "british_regular", 4)
    put(state, "Virginia", "tory", 1)
    put(state, "Virginia", "war_party", 3, "active")
    put(state, "Virginia", "war_party", 1)
    put(state, "Virginia", "militia", 2, "active")
    # 3.6.3: 4 Regulars, 1 Tory, half of 3 Active War Parties: 6
    assert force_level(state, BattleChoice("Virginia", "british"), "royalist") == 6
    # 4.2.1: two Active War Parties used as Tories: 4 + (1 + 2), and the one Active
    # War Party left counts by halves: 0
    used = BattleChoice("Virginia", "british", common_cause=2)
    assert force_level(state, used, "royalist") == 7
    # Tories, War Parties among them, still count only up to the Regulars (3.6.3)
    assert force_level(state, BattleChoice("Virginia", "british", common_cause=3), "royalist") == 8
    # 4.2.1: only Active War Parties (Common Cause Activates them first), only for
    # an attacking British side
    for choice in (
        BattleChoice("Virginia", "british", common_cause=4),
        BattleChoice("Virginia", "british", common_cause=-1),
        BattleChoice("Virginia", "patriots", common_cause=1),
    ):
        refused = battle_refusal(state, choice)
        assert refused is not None and refused.rule == "4.2.1", choice
    assert battle_refusal(state, used) is None
    assert used.to_json()["common_cause"] == 2


def test_common_cause_war_parties_are_lost_as_tories() -> None:
    # 4.2.1: War Parties used by Common Cause fight "as if they were Tories", so
    # 3.6.7's alternation of Regulars and Tories takes them in the Tories' turn
    state = board()
    put(state, "Virginia", "british_regular", 2)
    put(state, "Virginia", "war_party", 2, "active")
    put(state, "Virginia", "continental", 4)
    used = BattleChoice("Virginia", "british", common_cause=2)
    # Royalist Force 2 + 2 War Parties as Tories = 4: one D3 (rolls 1); Rebellion
    # 4 Continentals = 4: one D3 (rolls 3), no modifier (3.6.6): the British lose 3
    result = resolve_battle(state, used, Dice(1, 3))
    assert result.loss_levels[0] == 3
    # a Regular (2), then a War Party in the Tories' turn (1)
    assert removed(result.removed, "royalist") == {"british_regular": 1, "war_party": 1}
    assert result.state.pieces("Available", "war_party") == state.available("war_party") + 1
    # common_cause_losses="as_war_parties": War Parties only after the Regulars and Tories
    apart = BattleOptions(common_cause_losses="as_war_parties")
    result = resolve_battle(state, used, Dice(1, 3), apart)
    assert removed(result.removed, "royalist") == {"british_regular": 2}


def test_defending_chooser() -> None:
    state = board()
    put(state, "Quebec", "war_party", 1)
    # 3.6.1: solely Indian pieces defending: the Indians choose
    assert defending_chooser(state, "Quebec", "patriots") == "indians"
    put(state, "Quebec", "tory", 1)
    # 3.6.1: the British choose for a combined Royalist defence
    assert defending_chooser(state, "Quebec", "patriots") == "british"
    put(state, "West Indies", "french_regular", 1)
    # 3.6.1: solely French defending: the French choose
    assert defending_chooser(state, "West Indies", "british") == "french"


def test_refusals() -> None:
    state = board(toa=False)
    put(state, "Virginia", "war_party", 2)
    put(state, "Virginia", "british_regular", 1)
    put(state, "Virginia", "militia", 2)
    cases = [
        (BattleChoice("Virginia", "indians"), "3.6.1"),  # Indians never attack
        (BattleChoice("Virginia", "french"), "3.5.5"),  # French only after the Treaty
        (BattleChoice("Virginia", "patriots", ally_pays=True), "3.5"),
        (BattleChoice("Virginia", "british", ally_pays=True), "3.6.1"),
        (BattleChoice("Boston", "british"), "3.6"),  # no pieces of either side
        (BattleChoice("Virginia", "british", activate_attacker=3), "3.6.3"),
        (BattleChoice("Virginia", "british", activate_defender=3), "3.6.3"),
        (BattleChoice("Virginia", "british", royalist_shifts=("Boston",)), "3.6.8"),
        (BattleChoice("West Indies", "patriots"), "3.3.3"),
        (BattleChoice("Atlantis", "british"), "3.6"),
    ]
    for choice, rule in cases:
        refused = battle_refusal(state, choice)
        assert refused is not None and refused.rule == rule, choice
    assert battle_refusal(state, BattleChoice("Virginia", "british", 0, 2, 2)) is None
    with pytest.raises(IllegalMoveError) as refused:
        resolve_battle(state, BattleChoice("Virginia", "indians"), Dice())
    assert refused.value.rule == "3.6.1"


def test_dice_count_follows_force_level() -> None:
    # 3.6.4: Force Level // 3 dice, at most 3; none at 2 or less
    for regulars, dice in ((2, 0), (3, 1), (5, 1), (6, 2), (9, 3), (13, 3)):
        state = board()
        put(state, "Virginia", "british_regular", regulars)
        put(state, "Virginia", "militia", 1)
        result = resolve_battle(state, BattleChoice("Virginia", "british"), Dice(1, 1, 1))
        assert len(result.dice_attacker) == dice
        assert result.dice_defender == ()


# ---------------------------------------------------------------------- modifiers


def test_modifiers_blockaded_city_forts_leaders_washington() -> None:
    state = board()
    state.move_marker("Unavailable", "Boston", "blockade")
    put(state, "Boston", "british_regular", 2)
    state.set_leader("Gage", "Boston")
    put(state, "Boston", "continental", 1)
    put(state, "Boston", "patriot_fort", 1)
    state.set_leader("Washington", "Boston")
    result = resolve_battle(state, BattleChoice("Boston", "british"), Dice())
    # 3.6.4: Force Levels 2 and 1 + 1 Fort: no dice either way
    assert result.force_levels == (2, 2) and result.dice_attacker == result.dice_defender == ()
    # 3.6.5: +1 Regulars, +1 Leader, -1 Blockade, -1 per Fort, -1 Washington
    assert [m.value for m in result.defender_loss_modifiers] == [1, 1, -1, -1, -1]
    assert "the British attack in a Blockaded City" in names(result.defender_loss_modifiers)
    assert "the Rebellion defends with Washington" in names(result.defender_loss_modifiers)
    # 3.6.6: defending cubes are no Regulars; +1 Leader (Washington), +1 per Fort
    assert names(result.attacker_loss_modifiers) == [
        "a Defending Leader is present",
        "1 Defending Fort(s)",
    ]
    # 3.6.7: a negative Loss Level removes nothing; 2 removes one Regular (worth 2)
    assert result.loss_levels == (2, -1)
    assert removed(result.removed, "rebellion") == {}
    assert removed(result.removed, "royalist") == {"british_regular": 1}
    after = result.state
    assert after.pieces("Casualties", "british_regular") == 1 and after.track("cbc") == 1
    # 3.6.8: the Defender loses fewer and wins, but only one piece was lost: no shifts
    assert result.winner == "rebellion" and not result.win_the_day and result.shifts == ()
    # the input state is never changed
    assert state.pieces("Boston", "british_regular") == 2


def test_modifiers_west_indies_lauzun_squadron() -> None:
    state = board()
    state.move_marker("Unavailable", "West Indies", "blockade")
    put(state, "West Indies", "french_regular", 3)
    state.set_leader("Lauzun", "West Indies")
    put(state, "West Indies", "british_regular", 3)
    put(state, "West Indies", "british_fort", 1)
    result = resolve_battle(state, BattleChoice("West Indies", "french"), Dice(1, 2))
    assert result.force_levels == (3, 4)
    assert result.dice_attacker == (1,) and result.dice_defender == (2,)
    # 3.6.5: +1 Regulars, +1 Leader, +1 Lauzun, -1 Fort: 1 + 2 = 3
    assert "the French attack with Lauzun" in names(result.defender_loss_modifiers)
    assert sum(m.value for m in result.defender_loss_modifiers) == 2
    # 3.6.6: +1 Regulars, -1 British defending in the West Indies with a Squadron, +1 Fort
    assert "the British defend in the West Indies with a Squadron" in names(
        result.attacker_loss_modifiers
    )
    assert result.loss_levels == (3, 3)
    # 3.6.7: each side removes two Regulars (2 + 2 >= 3) to the Casualties box
    assert removed(result.removed, "rebellion") == {"french_regular": 2}
    assert removed(result.removed, "royalist") == {"british_regular": 2}
    assert (result.state.track("crc"), result.state.track("cbc")) == (2, 2)
    # 3.6.8: equal losses: the Defender wins; never Win the Day in the West Indies
    assert result.winner == "royalist" and not result.win_the_day


def test_british_attack_in_west_indies_with_squadron() -> None:
    state = board()
    state.move_marker("Unavailable", "West Indies", "blockade")
    put(state, "West Indies", "british_regular", 3)
    put(state, "West Indies", "french_regular", 1)
    result = resolve_battle(state, BattleChoice("West Indies", "british"), Dice(1))
    # 3.6.5: +1 Regulars, -1 British attacking in the West Indies with a Squadron
    assert [m.value for m in result.defender_loss_modifiers] == [1, -1]
    assert result.loss_levels[1] == 1


def test_underground_and_indian_reserve_modifiers() -> None:
    state = board()
    put(state, "Northwest", "continental", 2)
    put(state, "Northwest", "militia", 1)
    put(state, "Northwest", "militia", 2, "active")
    put(state, "Northwest", "war_party", 2)
    put(state, "Northwest", "war_party", 2, "active")
    put(state, "Northwest", "village", 1)
    state.set_leader("Brant", "Northwest")
    choice = BattleChoice("Northwest", "patriots")
    result = resolve_battle(state, choice, Dice(3))
    # 3.6.3: 2 Continentals + half of 2 Active Militia = 3; defending half of 2 = 1
    assert result.force_levels == (3, 1)
    # 3.6.5: +1 Underground attacker, -1 Indians defending in a Reserve
    assert [m.value for m in result.defender_loss_modifiers] == [1, -1]
    assert "the Indians defend in an Indian Reserve" in names(result.defender_loss_modifiers)
    # 3.6.6: +1 Underground defender, +1 Brant
    assert [m.value for m in result.attacker_loss_modifiers] == [1, 1]
    assert result.loss_levels == (2, 3)
    # 3.6.7: Continentals before Active Militia; Active War Parties then Villages
    assert removed(result.removed, "rebellion") == {"continental": 1}
    assert removed(result.removed, "royalist") == {"war_party": 2, "village": 1}
    after = result.state
    assert after.pieces("Northwest", "war_party", "underground") == 2
    assert after.available("village") == 12 and after.track("crc") == 1
    # 3.6.8: only Underground War Parties left: the Rebellion wins, but no cube or Fort
    # was among the loser's losses, so no Win the Day
    assert result.winner == "rebellion" and not result.win_the_day
    # 3.6.3: Activating the Underground Militia drops the +1 (4 Active: half is 2)
    active = resolve_battle(state, BattleChoice("Northwest", "patriots", 0, 1), Dice(3))
    assert names(active.defender_loss_modifiers) == ["the Indians defend in an Indian Reserve"]
    assert active.force_levels == (3, 1)


# ---------------------------------------------------------------------- removal


def test_royalist_removal_alternates_then_war_parties_villages_forts() -> None:
    state = board()
    state.set_support("New York", "passive_support")
    put(state, "New York", "continental", 9)
    for piece in ("british_regular", "tory"):
        put(state, "New York", piece, 2)
    put(state, "New York", "war_party", 1, "active")
    put(state, "New York", "village", 1)
    put(state, "New York", "british_fort", 1)
    result = resolve_battle(state, BattleChoice("New York", "patriots"), Dice(3, 3, 3, 1))
    # 3.6.4: Force 9: three dice, 9; 3.6.5: -1 per Defending Fort: Loss Level 8
    assert result.loss_levels[1] == 8
    # 3.6.7: Regular, Tory, Regular, Tory (6), Active War Party (7), Village (8)
    assert removed(result.removed, "royalist") == {
        "british_regular": 2,
        "tory": 2,
        "war_party": 1,
        "village": 1,
    }
    assert result.state.pieces("New York", "british_fort") == 1
    # 3.6.6: 1 die + half Regulars + Fort = 3: two Continentals (4)
    assert removed(result.removed, "rebellion") == {"continental": 2}
    # 3.6.7: Regulars and Tories to Casualties, the others to Available
    after = result.state
    assert after.pieces("Casualties", "tory") == 2 and after.track("cbc") == 4
    assert after.track("crc") == 2
    # 3.6.8: Rebellion loses fewer; the loser lost cubes and 6 pieces: 3 shifts
    assert result.winner == "rebellion" and result.win_the_day
    assert result.shifts == (("New York", -3),)
    assert after.support("New York") == "active_opposition"
    # 3.6.8: the Rebellion winner's free Rally is offered, not executed
    assert [f.action for f in result.follow_ups] == ["rally"]


def test_fort_counts_as_casualty_but_returns_to_available() -> None:
    state = board()
    put(state, "Virginia", "continental", 6)
    put(state, "Virginia", "british_regular", 1)
    put(state, "Virginia", "british_fort", 1)
    result = resolve_battle(state, BattleChoice("Virginia", "patriots"), Dice(3, 3))
    # 3.6.4/3.6.5: 6 - 1 Fort = 5; 3.6.7: the Regular (2) then the Fort (4), all there is
    assert result.loss_levels == (2, 5)
    assert removed(result.removed, "royalist") == {"british_regular": 1, "british_fort": 1}
    after = result.state
    # 3.6.7: the Fort counts as a Casualty (CBC) but goes straight back to Available
    assert after.pieces("Casualties", "british_fort") == 0
    assert after.available("british_fort") == 6
    assert after.pieces("Casualties", "british_regular") == 1 and after.track("cbc") == 2
    # 3.6.8: Royalists eliminated; 2 pieces incl. a cube: 1 shift
    assert result.winner == "rebellion" and result.shifts == (("Virginia", -1),)


def test_rebellion_removal_alternates_three_ways() -> None:
    state = board()
    state.set_support("Massachusetts", "neutral")
    put(state, "Massachusetts", "british_regular", 9)
    for piece in ("french_regular", "continental"):
        put(state, "Massachusetts", piece, 2)
    put(state, "Massachusetts", "militia", 2, "active")
    put(state, "Massachusetts", "militia", 1)
    put(state, "Massachusetts", "patriot_fort", 1)
    result = resolve_battle(state, BattleChoice("Massachusetts", "british"), Dice(1, 1, 3, 1, 1))
    # 3.6.5: dice 5, +1 Regulars, -1 Fort
    assert result.loss_levels[1] == 5
    # 3.6.7: one each French Regular, Continental, Active Militia (2 + 2 + 1)
    assert removed(result.removed, "rebellion") == {
        "french_regular": 1,
        "continental": 1,
        "militia": 1,
    }
    # 3.6.3: 2 + 2 cubes + Fort + half of 2 Active Militia = 6: two dice
    # 3.6.6: dice 2 + half Regulars + Underground + Fort = 5: three Regulars (6)
    assert result.loss_levels[0] == 5
    assert removed(result.removed, "royalist") == {"british_regular": 3}
    # 3.6.8: equal losses (3 and 3): the Defender wins; 3 pieces incl. a cube: 1 shift
    assert result.winner == "rebellion" and result.shifts == (("Massachusetts", -1),)


def test_rebellion_forts_last_and_royalist_winner_shifts() -> None:
    state = board()
    state.set_support("New Jersey", "passive_opposition")
    put(state, "New Jersey", "british_regular", 9)
    state.set_leader("Gage", "New Jersey")
    put(state, "New Jersey", "french_regular", 2)
    put(state, "New Jersey", "continental", 1)
    put(state, "New Jersey", "militia", 2, "active")
    put(state, "New Jersey", "militia", 1)
    put(state, "New Jersey", "patriot_fort", 1)
    result = resolve_battle(state, BattleChoice("New Jersey", "british"), Dice(3, 3, 3, 2))
    # 3.6.5: 9 + Regulars + Leader - Fort = 10
    assert result.loss_levels[1] == 10
    # 3.6.7: FR, C, M, FR, (Continentals gone) M = 8, then the Fort (10)
    assert removed(result.removed, "rebellion") == {
        "french_regular": 2,
        "continental": 1,
        "militia": 2,
        "patriot_fort": 1,
    }
    after = result.state
    assert after.pieces("New Jersey", "militia", "underground") == 1
    assert after.track("crc") == 4 and after.available("patriot_fort") == 6
    # 3.6.6: die 2 + Regulars (2 of 3) + Underground + Fort = 5: three Regulars
    assert removed(result.removed, "royalist") == {"british_regular": 3}
    # 3.6.8: Rebellion has only Underground Militia: eliminated; 6 pieces: 3 shifts
    assert result.winner == "royalist"
    assert result.shifts == (("New Jersey", 3),)
    assert after.support("New Jersey") == "active_support"
    assert result.follow_ups == ()


# ---------------------------------------------------------------------- Win the Day


def _boston(washington: bool) -> CoinState:
    state = board()
    state.move_marker("Unavailable", "Boston", "blockade")
    state.set_support("Massachusetts", "active_opposition")
    put(state, "Boston", "continental", 6)
    put(state, "Boston", "tory", 4)
    if washington:
        state.set_leader("Washington", "Boston")
    return state


def test_washington_doubling_as_a_choice_is_a_named_option() -> None:
    # 3.6.8 "Washington can double": by default he always does; with the option
    # washington_double="choice" the Patriots may decline
    state = _boston(True)
    overflow = ("Connecticut-Rhode Island", "Connecticut-Rhode Island")
    plain = BattleChoice("Boston", "patriots", rebellion_shifts=overflow, double_shifts=False)
    always = resolve_battle(state, plain, Dice(3, 3, 1))
    choice = BattleOptions(washington_double="choice")
    declined = resolve_battle(state, plain, Dice(3, 3, 1), choice)
    assert sum(-n for _, n in always.shifts) == 4  # 2 shifts doubled, though declined
    assert sum(-n for _, n in declined.shifts) == 2
    assert not any("doubles" in line for line in declined.log)


def test_win_the_day_with_washington_and_overflow() -> None:
    state = _boston(True)
    choice = BattleChoice(
        "Boston",
        "patriots",
        rebellion_shifts=("Massachusetts", "Connecticut-Rhode Island", "Connecticut-Rhode Island"),
    )
    result = resolve_battle(state, choice, Dice(3, 3, 1))
    # 3.6.5: 6 + Washington attacking (+1) = 7: all four Tories go
    # 3.6.6: die 1, -1 British defending in a Blockaded City: the Patriots lose nothing
    assert result.loss_levels == (0, 7)
    assert removed(result.removed, "royalist") == {"tory": 4}
    assert removed(result.removed, "rebellion") == {}
    # 3.6.8: 4 pieces: 2 shifts, Washington doubles to 4; Boston takes 2, the rest
    # go to adjacent spaces chosen by the Patriots (Massachusetts is already full)
    assert result.winner == "rebellion" and result.win_the_day
    assert result.shifts == (
        ("Boston", -2),
        ("Connecticut-Rhode Island", -1),
        ("Connecticut-Rhode Island", -1),
    )
    assert result.state.support("Connecticut-Rhode Island") == "active_opposition"
    assert any("Massachusetts cannot take a shift" in line for line in result.log)
    # 3.6.8: free Rally and the French Blockade move are offered
    assert [(f.faction, f.action) for f in result.follow_ups] == [
        ("patriots", "rally"),
        ("french", "move_blockade"),
    ]
    # 3.6.8: "any Blockades from the Battle City to another City": 1 of Boston's
    # Blockades to one of the six other Cities
    offer = result.follow_ups[1]
    after = result.state
    view = blockade_shift_view(after, offer)
    assert view.count() == 6 * after.markers("Boston", "blockade") == 6
    assert {m.destination for m in view} == set(after.rules.map.of_type("City")) - {"Boston"}
    moved, log = apply_blockade_shift(after, offer, BlockadeShift("Boston", "Norfolk", 1))
    assert (moved.markers("Boston", "blockade"), moved.markers("Norfolk", "blockade")) == (0, 1)
    assert after.markers("Boston", "blockade") == 1  # the input is not changed
    assert log[0].startswith("3.6.8")
    wrong_city = FollowUp("french", "move_blockade", "Norfolk", "3.6.8", "")
    for follow, move in (
        (offer, BlockadeShift("Boston", "Boston", 1)),  # another City
        (offer, BlockadeShift("Boston", "Virginia", 1)),  # a City
        (offer, BlockadeShift("Boston", "Norfolk", 2)),  # only one is there
        (offer, BlockadeShift("Boston", "Norfolk", 0)),
        (wrong_city, BlockadeShift("Boston", "Norfolk", 1)),  # no Battle won there
        (offer, "Norfolk"),
    ):
        refused = blockade_shift_refusal(after, follow, move)
        assert refused is not None and refused.rule == "3.6.8", move
    with pytest.raises(IllegalMoveError):
        apply_blockade_shift(after, wrong_city, BlockadeShift("Boston", "Norfolk", 1))


def test_win_the_day_without_washington() -> None:
    state = _boston(False)
    choice = BattleChoice("Boston", "patriots", rebellion_shifts=("Connecticut-Rhode Island",))
    result = resolve_battle(state, choice, Dice(3, 3, 1))
    # 3.6.5: 6, no Leader: Loss Level 6 still takes all four Tories
    assert result.loss_levels[1] == 6
    # 3.6.8: 2 shifts, both fit in Boston: no overflow
    assert result.shifts == (("Boston", -2),)
    assert result.state.support("Connecticut-Rhode Island") == "neutral"


def test_both_sides_eliminated() -> None:
    state = board()
    put(state, "Virginia", "british_regular", 1)
    state.set_leader("Gage", "Virginia")
    put(state, "Virginia", "french_regular", 1)
    state.set_leader("Rochambeau", "Virginia")
    result = resolve_battle(state, BattleChoice("Virginia", "british"), Dice())
    # 3.6.5/3.6.6: no dice; Regulars +1 and Leader +1 each way: both lose their Regular
    assert result.loss_levels == (2, 2)
    assert removed(result.removed, "royalist") == {"british_regular": 1}
    assert removed(result.removed, "rebellion") == {"french_regular": 1}
    # 3.6.8: both eliminated: no winner, no shifts
    assert result.winner is None and not result.win_the_day and result.shifts == ()
    assert any(line.startswith("3.6.8: both sides") for line in result.log)


def test_every_log_line_names_its_paragraph() -> None:
    state = _boston(True)
    result = resolve_battle(state, BattleChoice("Boston", "patriots"), random.Random(4))
    assert all(line.startswith("3.6.") for line in result.log)


# ---------------------------------------------------------------------- properties

SPACES = ("Boston", "Virginia", "Northwest", "West Indies")
ALLOWED = {
    "Boston": ("british_regular", "tory", "british_fort", "continental", "militia",
               "patriot_fort", "french_regular"),
    "West Indies": ("british_regular", "british_fort", "french_regular"),
}  # fmt: skip
ALL = ALLOWED["Boston"] + ("war_party", "village")
STACKING = ("british_fort", "patriot_fort", "village")


@st.composite
def battles(draw: st.DrawFn) -> tuple[CoinState, BattleChoice, int]:
    state = board()
    space = draw(st.sampled_from(SPACES))
    bases = 0
    for piece in ALLOWED.get(space, ALL):
        n = draw(st.integers(0, 2 if piece in STACKING else 5))
        if piece in STACKING:
            n = min(n, 2 - bases)
            bases += n
        statuses = ("underground", "active") if piece in ("militia", "war_party") else (None,)
        for status in statuses:
            k = draw(st.integers(0, n))
            if k:
                put(state, space, piece, k, status)
    for leader in ("Gage", "Washington", "Lauzun", "Brant"):
        if draw(st.booleans()):
            state.set_leader(leader, space)
    if space in ("Boston", "West Indies") and draw(st.booleans()):
        state.move_marker("Unavailable", space, "blockade")
    attacker = draw(st.sampled_from(("british", "patriots", "french")))
    pays = attacker != "british" and draw(st.booleans())
    choice = BattleChoice(
        space,
        attacker,
        pays,
        draw(st.integers(0, 3)),
        draw(st.integers(0, 3)),
        royalist_shifts=("Massachusetts",) if space == "Boston" else (),
        rebellion_shifts=("Maryland-Delaware",) if space == "Virginia" else (),
    )
    return state, choice, draw(st.integers(0, 2**16))


def _totals(state: CoinState) -> dict[str, int]:
    return {
        piece.id: sum(state.pieces(loc, piece.id) for loc in state.rules.locations)
        for piece in state.data.pieces
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(battles())
def test_battles_conserve_pieces_and_replay(case: tuple[CoinState, BattleChoice, int]) -> None:
    state, choice, seed = case
    assume(battle_refusal(state, choice) is None)
    assert state.invariant_problems() == []
    before = _totals(state)
    first_rng = LoggedRandom(seed)
    first = resolve_battle(state, choice, first_rng)
    after = first.state
    # every piece is somewhere, no count negative, invariants hold
    assert _totals(after) == before
    assert min(after.counts) >= 0
    assert after.invariant_problems() == []
    assert all(r.count > 0 for r in first.removed)
    # the same seed replays the same dice, result and log
    again_rng = LoggedRandom(seed)
    again = resolve_battle(state, choice, again_rng)
    assert again.log == first.log and again.state == after
    assert (again.dice_attacker, again.dice_defender) == (first.dice_attacker, first.dice_defender)
    assert again_rng.log == first_rng.log
    assert len(first_rng.log) == len(first.dice_attacker) + len(first.dice_defender)


# ---------------------------------------------------------------------- the named readings


def test_removal_pool_participating_or_whole_side() -> None:
    # 3.6.7 "own pieces": the Patriots attack in Virginia without the French paying.
    # Patriot Force 3 (one die, a 1); British Force 3 (one die, a 3).
    # Patriot Loss Level: 3 + 1 (3.6.6, the defending cubes are all Regulars) = 4.
    # British Loss Level: 1 (3.6.5 gives nothing: Continentals are not Regulars) = 1.
    def fight(pool: str) -> BattleResult:
        state = board()
        put(state, "Virginia", "continental", 3)
        put(state, "Virginia", "french_regular", 2)
        put(state, "Virginia", "british_regular", 3)
        options = BattleOptions(removal_pool=pool)
        return resolve_battle(
            state, BattleChoice("Virginia", "patriots"), FixedDice([1, 3]), options
        )

    participating, whole_side = fight("participating"), fight("whole_side")
    for result in (participating, whole_side):
        assert result.loss_levels == (4, 1)
        assert removed(result.removed, "royalist") == {"british_regular": 1}
        # 3.6.8: the Rebellion lost more pieces (2 to 1), a cube among them: one shift
        assert (result.winner, result.shifts) == ("royalist", (("Virginia", 1),))
    # participating: the French did not fight, so two Continentals (2 + 2) go
    assert removed(participating.removed, "rebellion") == {"continental": 2}
    assert participating.state.pieces("Virginia", "french_regular") == 2
    # whole side: French Regulars then Continentals alternate, one of each (2 + 2)
    assert removed(whole_side.removed, "rebellion") == {"french_regular": 1, "continental": 1}
    assert whole_side.state.pieces("Virginia", "continental") == 2


def test_elimination_scope_whole_side_or_participating() -> None:
    # 3.6.8: the Patriots attack (French not paying) with one Continental beside two
    # French Regulars, an Underground Militia and Washington; three Tories defend.
    # Patriot Force 1, Tory Force 3: the Tories roll one die, a 1, and the Patriots
    # roll none. Patriot Loss Level: 1 (no modifier: Tories are not Regulars).
    # Tory Loss Level: 0 + 1 (Underground Militia) + 1 (Washington) = 2.
    def fight(scope: str) -> BattleResult:
        state = board()
        put(state, "Virginia", "continental", 1)
        put(state, "Virginia", "french_regular", 2)
        put(state, "Virginia", "militia", 1)
        put(state, "Virginia", "tory", 3)
        state.set_leader("Washington", "Virginia")
        options = BattleOptions(elimination_scope=scope)
        return resolve_battle(state, BattleChoice("Virginia", "patriots"), FixedDice([1]), options)

    whole_side, participating = fight("whole_side"), fight("participating")
    for result in (whole_side, participating):
        assert result.loss_levels == (1, 2)
        assert removed(result.removed, "rebellion") == {"continental": 1}
        assert removed(result.removed, "royalist") == {"tory": 2}
    # whole side: the French Regulars keep the Rebellion alive; it lost fewer pieces
    # (1 to 2) and the Tories lost a cube and 2 pieces: one shift, doubled by Washington
    assert (whole_side.winner, whole_side.win_the_day) == ("rebellion", True)
    assert whole_side.shifts == (("Virginia", -2),)
    # participating: only an Underground Militia of the Patriots is left: eliminated,
    # so the Royalists survive and win; the Patriots lost one piece: no Win the Day
    assert (participating.winner, participating.win_the_day) == ("royalist", False)
    assert participating.shifts == ()


def test_regular_share_counted_or_all_cubes() -> None:
    # 3.6.5: one British Regular and three Tories attack one Active Militia. The
    # Force Level counts one Tory (3.6.3): Force 2, no dice; the Militia's Force 0.
    # Counted cubes (a Regular and a Tory) are half Regulars; all four cubes are not.
    def fight(share: str) -> BattleResult:
        state = board()
        put(state, "Virginia", "british_regular", 1)
        put(state, "Virginia", "tory", 3)
        put(state, "Virginia", "militia", 1, "active")
        options = BattleOptions(regular_share=share)
        return resolve_battle(state, BattleChoice("Virginia", "british"), FixedDice([]), options)

    counted, every_cube = fight("counted"), fight("all")
    # counted: Rebellion Loss Level 1, the Militia goes and the Rebellion is
    # eliminated, so the Royalists win (no cube or Fort lost: no Win the Day)
    assert counted.loss_levels == (0, 1)
    assert removed(counted.removed, "rebellion") == {"militia": 1}
    assert (counted.winner, counted.win_the_day) == ("royalist", False)
    # all: Loss Level 0, nothing is removed, and the Defender wins the tie (3.6.8)
    assert every_cube.loss_levels == (0, 0)
    assert every_cube.removed == ()
    assert (every_cube.winner, every_cube.win_the_day) == ("rebellion", False)


def test_attacker_modifiers_participating_or_whole_side() -> None:
    # 3.6.5: the French attack without the Patriots paying, beside an Underground
    # Militia and Washington, against a British Regular and four Tories.
    # French Force 3 (one die, a 2); Royalist Force 5 (one die, a 1).
    # French Loss Level: 1 (3.6.6 gives nothing: one Regular in five cubes) = 1.
    # Royalist Loss Level: 2 + 1 (French Regulars) = 3 when only the French count;
    # + 1 (Underground Militia) + 1 (Washington) = 5 for the whole side.
    def fight(scope: str) -> BattleResult:
        state = board()
        put(state, "Virginia", "french_regular", 3)
        put(state, "Virginia", "militia", 1)
        put(state, "Virginia", "british_regular", 1)
        put(state, "Virginia", "tory", 4)
        state.set_leader("Washington", "Virginia")
        options = BattleOptions(attacker_modifiers=scope)
        return resolve_battle(state, BattleChoice("Virginia", "french"), FixedDice([2, 1]), options)

    participating, whole_side = fight("participating"), fight("whole_side")
    assert participating.loss_levels == (1, 3)
    assert whole_side.loss_levels == (1, 5)
    for result in (participating, whole_side):
        assert removed(result.removed, "rebellion") == {"french_regular": 1}
    # 3.6.7: the Regular (2) then a Tory (1) cover 3; to cover 5, Tories follow
    # once the Regulars are exhausted
    assert removed(participating.removed, "royalist") == {"british_regular": 1, "tory": 1}
    assert removed(whole_side.removed, "royalist") == {"british_regular": 1, "tory": 3}
    # 3.6.8: the Rebellion wins either way; 2 losses give one shift, 4 give two,
    # and Washington doubles them, capped by Active Opposition in Virginia
    assert participating.shifts == (("Virginia", -2),)
    assert whole_side.shifts == (("Virginia", -2),)


# ---------------------------------------------------------------------- an Event's modifiers


def _regulars_against_militia() -> CoinState:
    # 3 British Regulars attack 2 Active Militia in Boston (the module's example)
    state = CoinState.new("lod")
    state.move_pieces("Available", "Boston", "british_regular", 3)
    state.move_pieces("Available", "Boston", "militia", 2, new_status="active")
    return state


def test_an_events_loss_level_modifier_is_the_next_battles_and_is_used_up() -> None:
    plain = resolve_battle(
        _regulars_against_militia(), BattleChoice("Boston", "british"), FixedDice([2])
    )
    state = _regulars_against_militia()
    # "+3 to Attacker's Loss Level" (5.1: the Event's text prevails)
    state.battle_modifiers.append(
        {"faction": "patriots", "role": "attacker", "loss_level": 3, "force_level": 0}
    )
    fought = resolve_battle(state, BattleChoice("Boston", "british"), FixedDice([2]))
    # 3.6.6: the attacker's Loss Level gains the Event's +3; the defender's is unchanged
    assert fought.loss_levels == (plain.loss_levels[0] + 3, plain.loss_levels[1])
    event = [m for m in fought.attacker_loss_modifiers if m.rule == "5.1"]
    assert [m.value for m in event] == [3]
    assert fought.state.battle_modifiers == []  # this Battle used them
    assert state.battle_modifiers != []  # the state given is not changed


def test_an_events_force_level_modifier_rolls_more_dice() -> None:
    plain = resolve_battle(
        _regulars_against_militia(), BattleChoice("Boston", "british"), FixedDice([2])
    )
    state = _regulars_against_militia()
    state.battle_modifiers.append(
        {"faction": "british", "role": "attacker", "loss_level": 0, "force_level": 3}
    )
    fought = resolve_battle(state, BattleChoice("Boston", "british"), FixedDice([2, 1]))
    # 3.6.4: Force Level 3 rolls one D3, 6 rolls two: the second die (1) adds 1 to the
    # Defender's Loss Level
    assert plain.force_levels[0] == 3 and fought.force_levels[0] == 6
    assert len(fought.dice_attacker) == 2
    assert fought.loss_levels[1] == plain.loss_levels[1] + 1


@pytest.mark.parametrize(("scope", "both"), [("next_space", False), ("next_command", True)])
def test_an_events_modifiers_take_one_space_or_the_whole_command(scope: str, both: bool) -> None:
    from legalis.model.lod.command_base import Command
    from legalis.model.lod.commands import fight_battles

    state = _regulars_against_militia()
    state.set_track("british_resources", 5)
    state.move_pieces("Available", "New York City", "british_regular", 3)
    state.move_pieces("Available", "New York City", "militia", 2, new_status="active")
    state.battle_modifiers.append(
        {"faction": "patriots", "role": "defender", "loss_level": 1, "force_level": 0}
    )
    move = Command("british", "battle", ("Boston", "New York City"))
    _, fought = fight_battles(state, move, FixedDice([2, 2]),
                              options=BattleOptions(event_modifier_scope=scope))  # fmt: skip
    marked = [any(m.rule == "5.1" for m in r.defender_loss_modifiers) for r in fought]
    assert marked == [True, both]
    assert fought[-1].state.battle_modifiers == []


@pytest.mark.parametrize(("last", "kept"), [("until_used", True), ("card", False)])
def test_an_events_modifiers_unused_wait_or_lapse_with_the_card(last: str, kept: bool) -> None:
    from legalis.solver.lodgame.moves import Pass, Roll

    import legalis

    game = legalis.load_game("lod", {"scenario": "1775", "event_modifiers_last": last})
    state = game.new_initial_state()
    # card 33 about to be played, card 1 on deck (the Sequence of Play goldens' set-up)
    state.card_number, state.on_deck, state.deck, state.stage = 33, 1, (2, 3, 4), "roll"
    state.coin.set_card_list("brilliant_strokes", [])  # no Brilliant Stroke window (2.3.8)
    state.play(Roll(5))
    state.coin.battle_modifiers.append(
        {"faction": "patriots", "role": "attacker", "loss_level": 3, "force_level": 0}
    )
    # every Eligible Faction passes: the card ends (2.3.6) with no Battle fought
    while state.card_number == 33:
        state.play(Pass(state.to_move))
    assert (state.coin.battle_modifiers != []) is kept


def test_a_granted_battles_force_level_is_the_grants() -> None:
    import legalis

    state = legalis.load_game("lod", {"scenario": "1775"}).new_initial_state()
    # "French free Battle in Boston with +1 Force Level" (5.3, the Event's text)
    grant = {"faction": "french", "action": "battle", "kind": "command", "limited": False,
             "spaces": ["Boston"], "modifiers": {"force_level": 1}}  # fmt: skip
    action = state._grant_action(grant)
    assert action is not None and action.force_level == 1 and action.names == ("battle",)
