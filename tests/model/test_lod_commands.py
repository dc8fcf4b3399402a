"""LoD Commands (chapter 3): golden cases worked from the rules, both directions of
legality, and counts checked against brute force."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legalis.model.coin.limits import may_hold
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.errors import IllegalMoveError, InputError
from legalis.model.lod.battle import BattleChoice, FixedDice
from legalis.model.lod.commands import (
    COMMANDS,
    Command,
    SpaceSubsets,
    apply_command,
    available_commands,
    can_command,
    command_refusal,
    command_view,
    fight_battles,
)


def test_french_commands_before_and_after_the_treaty() -> None:
    # 3.5: before the Treaty of Alliance, Agent Mobilization and Hortalez; after, Hortalez,
    # Muster, March and Battle
    state = CoinState.new("lod")
    assert available_commands(state, "french") == ["agent_mobilization", "hortalez"]
    state.set_flag("toa_played")
    assert available_commands(state, "french") == ["battle", "hortalez", "march", "muster"]
    refused = command_refusal(state, Command("french", "agent_mobilization", ("Quebec",)))
    assert refused is not None and refused.rule == "3.5"


def test_hortalez_pays_any_amount_and_adds_one() -> None:
    # 3.5.2: the French pay one or more Resources; Patriots gain that plus 1
    state = CoinState.new("lod")
    state.set_track("french_resources", 3)
    state.set_track("patriots_resources", 47)
    view = command_view(state, "french", "hortalez")
    assert [m.amount for m in view] == [1, 2, 3]
    after = apply_command(state, Command("french", "hortalez", amount=2)).state
    assert (after.track("french_resources"), after.track("patriots_resources")) == (1, 50)
    # 1.8: Resources never pass 50
    capped = apply_command(state, Command("french", "hortalez", amount=3)).state
    assert capped.track("patriots_resources") == 50
    assert command_refusal(state, Command("french", "hortalez", amount=4)) is not None
    state.set_track("french_resources", 0)
    assert command_view(state, "french", "hortalez").count() == 0


def test_agent_mobilization_places_two_militia_or_one_continental() -> None:
    # 3.5.1: Quebec, New York, New Hampshire or Massachusetts, not at Active Support;
    # pay 1; place two Available Militia or one Continental
    state = load_scenario("lod", "1775")
    state.set_track("french_resources", 1)
    state.set_support("New York", "active_support")
    view = command_view(state, "french", "agent_mobilization")
    spaces = {m.spaces[0] for m in view}
    assert spaces == {"Quebec", "New Hampshire", "Massachusetts"}
    assert view.count() == 3 * 2
    move = Command("french", "agent_mobilization", ("Quebec",), (("Quebec", "militia", 2),))
    after = apply_command(state, move).state
    assert after.pieces("Quebec", "militia") == state.pieces("Quebec", "militia") + 2
    assert after.track("french_resources") == 0
    at_support = Command(
        "french", "agent_mobilization", ("New York",), (("New York", "continental", 1),)
    )
    refused = command_refusal(state, at_support)
    assert refused is not None and "Active Support" in refused.reason
    state.set_track("french_resources", 0)
    assert command_view(state, "french", "agent_mobilization").count() == 0


def rabble_state() -> CoinState:
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 2)
    state.move_pieces("Available", "Virginia", "militia", 1)  # Underground Militia
    state.move_pieces("Available", "Boston", "continental", 1)  # Rebellion Control
    state.move_pieces("Available", "Georgia", "militia", 1, new_status="active")
    return state


def test_rabble_rousing_spaces_and_effect() -> None:
    # 3.3.4: spaces with Rebellion Control and Patriot pieces, or an Underground Militia
    state = rabble_state()
    view = command_view(state, "patriots", "rabble_rousing")
    assert {s for m in view for s in m.spaces} == {"Boston", "Georgia", "Virginia"}
    # Georgia: its only Militia is Active, but 1 Militia alone is Rebellion Control
    # with a Patriot piece; 2 Resources: any 1 or 2 of the 3 spaces
    assert view.count() == 3 + 3
    after = apply_command(state, Command("patriots", "rabble_rousing", ("Boston", "Virginia")))
    new = after.state
    # 3.3.4: a Propaganda marker and one level toward Active Opposition in each
    assert new.markers("Boston", "propaganda") == new.markers("Virginia", "propaganda") == 1
    assert new.support("Virginia") == "passive_opposition"
    # Virginia has Rebellion Control with a Patriot piece too (the Militia): nothing
    # to Activate; Boston likewise
    assert new.pieces("Virginia", "militia", "underground") == 1
    assert new.track("patriots_resources") == 0
    assert any(line.startswith("3.3.4") for line in after.log)


def test_rabble_rousing_activates_where_the_rebellion_lacks_control() -> None:
    # 3.3.4: "Unless Rebellion Control with a Patriot piece, activate one Underground
    # Militia": a Tory and a Regular outnumber the Militia in Virginia
    state = rabble_state()
    state.move_pieces("Available", "Virginia", "tory", 1)
    state.move_pieces("Available", "Virginia", "british_regular", 1)
    new = apply_command(state, Command("patriots", "rabble_rousing", ("Virginia",))).state
    assert new.pieces("Virginia", "militia", "active") == 1


def test_rabble_rousing_limited_and_out_of_propaganda() -> None:
    state = rabble_state()
    # 2.3.5: a Limited Command selects one space
    assert command_view(state, "patriots", "rabble_rousing", limited=True).count() == 3
    two = Command("patriots", "rabble_rousing", ("Boston", "Virginia"), limited=True)
    assert (command_refusal(state, two) or pytest.fail()).rule == "2.3.5"
    # 3.3.4: no Propaganda marker once all 12 are on the map
    for space in ["New York", "Philadelphia", "Norfolk", "Charles Town", "Savannah",
                  "New Hampshire", "Massachusetts", "Connecticut-Rhode Island", "New Jersey",
                  "Pennsylvania", "Maryland-Delaware", "North Carolina"]:  # fmt: skip
        state.add_marker(space, "propaganda")
    result = apply_command(state, Command("patriots", "rabble_rousing", ("Boston",)))
    assert result.state.markers("Boston", "propaganda") == 0
    assert any("every Propaganda marker is on the map" in line for line in result.log)


def test_every_offered_move_is_legal_and_others_are_refused() -> None:
    state = rabble_state()
    state.set_track("patriots_resources", 3)
    view = command_view(state, "patriots", "rabble_rousing")
    offered = set(view)
    assert len(offered) == view.count()  # no duplicates
    spaces = list(state.rules.spaces)
    for size in (1, 2, 3, 4):
        for chosen in itertools.islice(itertools.combinations(spaces, size), 400):
            move = Command("patriots", "rabble_rousing", tuple(sorted(chosen)))
            refused = command_refusal(state, move)
            assert (refused is None) == (move in offered), move
            if refused is None:
                apply_command(state, move)
            else:
                with pytest.raises(IllegalMoveError):
                    apply_command(state, move)


@pytest.mark.parametrize("seed", range(20))
def test_subset_views_count_and_rank_like_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    items = [f"s{i}" for i in range(rng.randint(0, 9))]
    lo, hi = rng.randint(0, 3), rng.randint(0, 9)
    view = SpaceSubsets(items, lo, hi, lambda spaces: Command("x", "y", spaces))
    brute = [
        Command("x", "y", c)
        for k in range(lo, min(hi, len(items)) + 1)
        for c in itertools.combinations(sorted(items), k)
    ]
    assert view.count() == len(brute) and list(view) == brute
    assert [view.nth(i) for i in range(view.count())] == brute


def test_an_unknown_command_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="no 'fly' Command"):
        command_view(CoinState.new("lod"), "british", "fly")


def raid_state() -> CoinState:
    # Virginia and North Carolina at Opposition; one Underground War Party in the
    # Southwest Reserve, next to both; Pennsylvania at Opposition, nothing near it
    state = CoinState.new("lod")
    state.set_track("indians_resources", 3)
    state.set_support("Virginia", "active_opposition")
    state.set_support("North Carolina", "passive_opposition")
    state.set_support("Pennsylvania", "passive_opposition")
    state.move_pieces("Available", "Southwest", "war_party", 1)
    return state


def test_raid_provinces_and_sources() -> None:
    # 3.4.4: Provinces at Opposition with, or adjacent to, an Underground War Party
    state = raid_state()
    view = command_view(state, "indians", "raid")
    assert {p for m in view for p in m.spaces} == {"Virginia", "North Carolina"}
    # 3.4.4: each needs a War Party to Activate: the one in the Southwest can move into
    # one of them only, so the two together are not possible
    assert sorted(m.spaces for m in view) == [("North Carolina",), ("Virginia",)]
    both = Command("indians", "raid", ("North Carolina", "Virginia"),
                   moves=(("Southwest", "North Carolina", "war_party:underground", 1),
                          ("Southwest", "Virginia", "war_party:underground", 1)))  # fmt: skip
    assert "too few" in (command_refusal(state, both) or pytest.fail()).reason


def test_raid_moves_in_activates_marks_and_shifts() -> None:
    # 3.4.4: move in one adjacent War Party, Activate it, place a Raid marker, shift
    # Opposition one level toward Neutral; 1 Resource per Province
    state = raid_state()
    move = Command("indians", "raid", ("Virginia",),
                   moves=(("Southwest", "Virginia", "war_party:underground", 1),))  # fmt: skip
    new = apply_command(state, move).state
    assert new.pieces("Southwest", "war_party") == 0
    assert new.pieces("Virginia", "war_party", "active") == 1
    assert new.markers("Virginia", "raid") == 1
    assert new.support("Virginia") == "passive_opposition"
    assert new.track("indians_resources") == 2


def test_raid_with_war_parties_already_there() -> None:
    # 3.4.4: a Province with its own Underground War Party needs no move; up to three
    state = raid_state()
    for province in ("Virginia", "North Carolina", "Pennsylvania"):
        state.move_pieces("Available", province, "war_party", 1)
    view = command_view(state, "indians", "raid")
    three = [m for m in view if len(m.spaces) == 3]
    assert three and all(command_refusal(state, m) is None for m in view)
    stay = Command("indians", "raid", ("North Carolina", "Pennsylvania", "Virginia"))
    assert stay in three
    new = apply_command(state, stay).state
    assert [new.support(p) for p in ("Virginia", "North Carolina", "Pennsylvania")] == [
        "passive_opposition", "neutral", "neutral"]  # fmt: skip
    # 2.3.5: Limited, one Province
    assert all(len(m.spaces) == 1 for m in command_view(state, "indians", "raid", limited=True))
    state.set_track("indians_resources", 2)  # 3.4.4: 1 Resource per Province
    assert max(len(m.spaces) for m in command_view(state, "indians", "raid")) == 2


def test_raid_both_directions() -> None:
    state = raid_state()
    state.move_pieces("Available", "Pennsylvania", "war_party", 2)
    state.set_support("Maryland-Delaware", "passive_opposition")
    view = command_view(state, "indians", "raid")
    offered = set(view)
    assert len(offered) == view.count()
    board = state.rules.map
    provinces = sorted(s for s in state.rules.spaces if board.is_province(s))
    checked = 0
    for k in (1, 2):
        for chosen in itertools.combinations(provinces, k):
            options = [[None, *board.adjacent(p)] for p in chosen]
            for sources in itertools.product(*options):
                moves = tuple((src, p, "war_party:underground", 1)
                              for p, src in zip(chosen, sources, strict=True) if src)  # fmt: skip
                move = Command("indians", "raid", chosen, moves=moves)
                assert (command_refusal(state, move) is None) == (move in offered), move
                checked += 1
    assert checked > 1000 and offered


def gather_state() -> CoinState:
    # 3.4.1: a Village in the Southwest Reserve (2 Underground War Parties there), one
    # Underground and one Active War Party next door in Virginia, Georgia Neutral
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.move_pieces("Available", "Southwest", "village", 1)
    state.move_pieces("Available", "Southwest", "war_party", 2)
    state.move_pieces("Available", "Virginia", "war_party", 1)
    state.move_pieces("Available", "Virginia", "war_party", 1, new_status="active")
    state.set_support("Georgia", "active_support")  # 3.4.1: not at an Active level
    return state


def brute_gather(state: CoinState) -> set[Command]:
    """Every Gather, written out from 3.4.1 without the view's counting."""
    board = state.rules.map
    levels = ("neutral", "passive_opposition", "passive_support")
    provinces = sorted(
        s for s in state.rules.spaces if board.is_province(s) and state.support(s) in levels
    )
    found: set[Command] = set()
    for k in (1, 2, 3):
        for chosen in itertools.combinations(provinces, k):
            reserve = any(board.space(p).type == "Reserve" for p in chosen)
            if len(chosen) - reserve > state.track("indians_resources"):
                continue
            per: list[list[tuple[Any, ...]]] = []
            for p in chosen:
                mine: list[tuple[Any, ...]] = [("place", ((p, "war_party", 1),), ())]
                ug = state.pieces(p, "war_party", "underground")
                ac = state.pieces(p, "war_party", "active")
                for u in range(3):
                    if u <= ug and 2 - u <= ac:
                        rem = tuple((p, kind, n) for kind, n in
                                    (("war_party:underground", u), ("war_party:active", 2 - u))
                                    if n)  # fmt: skip
                        mine.append(("village", ((p, "village", 1),), rem))
                villages = state.pieces(p, "village")
                mine += [("place", ((p, "war_party", n),), ()) for n in range(2, villages + 2)]
                if villages:
                    mine.append(("move", (), ()))
                per.append(mine)
            for picks in itertools.product(*per):
                placed = tuple(sorted(a for pick in picks for a in pick[1]))
                removed = tuple(sorted(a for pick in picks for a in pick[2]))
                movers = [p for p, pick in zip(chosen, picks, strict=True) if pick[0] == "move"]
                # 3.4.1: no War Party is used twice: a Village's two are not moved
                origins = [
                    (o, kind, left)
                    for o in state.rules.spaces
                    for kind in ("war_party:underground", "war_party:active")
                    if (left := state.pieces(o, "war_party", kind.split(":")[1])
                        - sum(n for w, k, n in removed if (w, k) == (o, kind)))
                    and any(d in board.adjacent(o) for d in movers)
                ]  # fmt: skip
                splits: list[list[tuple[tuple[str, str, str, int], ...]]] = []
                for o, kind, have in origins:
                    near = [d for d in movers if d in board.adjacent(o)]
                    ways = []
                    for amounts in itertools.product(range(have + 1), repeat=len(near)):
                        if sum(amounts) <= have:
                            ways.append(
                                tuple(
                                    (o, d, kind, n) for d, n in zip(near, amounts, strict=True) if n
                                )
                            )
                    splits.append(ways)  # fmt: skip
                for split in itertools.product(*splits):
                    moves = tuple(sorted(m for part in split for m in part))
                    found.add(Command("indians", "gather", chosen, placed, removed, moves=moves))
    return found


def test_gather_counts_like_brute_force_and_both_directions() -> None:
    state = gather_state()
    view = command_view(state, "indians", "gather")
    listed = list(view)
    expected = brute_gather(state)
    assert len(listed) == len(set(listed)) == view.count() == len(expected)
    assert set(listed) == expected
    assert [view.nth(i) for i in range(view.count())] == listed
    wrong = Command("indians", "gather", ("Georgia",), (("Georgia", "war_party", 1),))
    assert (command_refusal(state, wrong) or pytest.fail()).rule == "3.4.1"


def test_gather_golden() -> None:
    state = gather_state()
    # 3.4.1: with a Village, move War Parties in from next door and flip all there
    # Underground; the first Reserve costs nothing
    move = Command("indians", "gather", ("Southwest",),
                   moves=(("Virginia", "Southwest", "war_party:active", 1),))  # fmt: skip
    new = apply_command(state, move).state
    assert new.pieces("Southwest", "war_party", "underground") == 3
    assert new.pieces("Southwest", "war_party", "active") == 0
    assert new.track("indians_resources") == 1
    # 3.4.1: replace two War Parties with one Village (here in Virginia, 1 Resource)
    village = Command("indians", "gather", ("Virginia",), (("Virginia", "village", 1),),
                      (("Virginia", "war_party:active", 1),
                       ("Virginia", "war_party:underground", 1)))  # fmt: skip
    after = apply_command(state, village).state
    assert after.pieces("Virginia", "village") == 1 and after.pieces("Virginia", "war_party") == 0
    assert after.track("indians_resources") == 0
    # 3.4.1: with 1 Village, up to 2 War Parties placed
    two = Command("indians", "gather", ("Southwest",), (("Southwest", "war_party", 2),))
    assert command_refusal(state, two) is None
    three = Command("indians", "gather", ("Southwest",), (("Southwest", "war_party", 3),))
    assert command_refusal(state, three) is not None


def test_cornplanter_builds_a_village_for_one_war_party() -> None:
    # Leader capabilities: Cornplanter: "Gather builds Villages for 1 War Party in the
    # space" (3.4.1 otherwise needs two)
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.move_pieces("Available", "Virginia", "war_party", 1)
    alone = Command("indians", "gather", ("Virginia",), (("Virginia", "village", 1),),
                    (("Virginia", "war_party:underground", 1),))  # fmt: skip
    assert command_refusal(state, alone) is not None
    state.set_leader("Cornplanter", "Virginia")
    assert alone in set(command_view(state, "indians", "gather"))
    after = apply_command(state, alone).state
    assert after.pieces("Virginia", "village") == 1 and after.pieces("Virginia", "war_party") == 0


def test_dragging_canoe_lets_a_raid_draw_from_two_provinces_away() -> None:
    # Leader capabilities: Dragging Canoe: "Raid may move 1 extra space if it originated
    # in the space": Georgia is two Provinces from Virginia (through the Southwest)
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.set_support("Virginia", "active_opposition")
    state.move_pieces("Available", "Georgia", "war_party", 1)
    far = Command("indians", "raid", ("Virginia",),
                  moves=(("Georgia", "Virginia", "war_party:underground", 1),))  # fmt: skip
    assert command_refusal(state, far) is not None
    state.set_leader("Dragging Canoe", "Georgia")
    assert command_refusal(state, far) is None
    assert far in set(command_view(state, "indians", "raid"))


def test_can_says_why_a_command_cannot_be_executed() -> None:
    state = CoinState.new("lod")
    # 3.1: Commands cost Resources
    assert (can_command(state, "indians", "raid") or pytest.fail()).rule == "3.1"
    state.set_track("indians_resources", 2)
    # 3.4.4: no Province at Opposition with an Underground War Party near
    assert (can_command(state, "indians", "raid") or pytest.fail()).rule == "3.4.4"
    assert can_command(raid_state(), "indians", "raid") is None
    # 3.5: no Agent Mobilization after the Treaty of Alliance
    state.set_flag("toa_played")
    assert (can_command(state, "french", "agent_mobilization") or pytest.fail()).rule == "3.5"


def garrison_state() -> CoinState:
    # 3.2.2: two Regulars in Virginia and one in Boston may Garrison any City not
    # Blockaded; New York City holds 2 Militia (1 Underground) and a Continental
    state = CoinState.new("lod")
    state.set_track("british_resources", 2)
    state.move_pieces("Available", "Virginia", "british_regular", 2)
    state.move_pieces("Available", "Boston", "british_regular", 1)
    state.move_pieces("Available", "New York City", "militia", 1)
    state.move_pieces("Available", "New York City", "militia", 1, new_status="active")
    state.move_pieces("Available", "New York City", "continental", 1)
    state.move_pieces("Available", "New York City", "tory", 2)
    return state


def brute_garrison(state: CoinState) -> set[Command]:
    """Every Garrison, written out from 3.2.2 without the view's counting."""
    board = state.rules.map
    cities = sorted(c for c in board.of_type("City") if not state.markers(c, "blockade"))
    origins = [
        (s, state.pieces(s, "british_regular"))
        for s in state.rules.spaces
        if state.pieces(s, "british_regular") and not state.markers(s, "blockade")
    ]
    per_origin = []
    for origin, have in origins:
        targets = [c for c in cities if c != origin]
        splits = []
        for amounts in itertools.product(range(have + 1), repeat=len(targets)):
            if sum(amounts) <= have:
                pairs = zip(targets, amounts, strict=True)
                splits.append(tuple((origin, c, "british_regular", n) for c, n in pairs if n))
        per_origin.append(splits)
    found: set[Command] = set()
    units = ("militia", "continental", "french_regular")
    for parts in itertools.product(*per_origin):
        moves = tuple(sorted(m for part in parts for m in part))
        found.add(Command("british", "garrison", moves=moves))
        after = state.copy()
        for origin, city, _, n in moves:
            after.move_pieces(origin, city, "british_regular", n)
        for city in cities:
            present = [u for u in units if after.pieces(city, u)]
            if not present or after.pieces(city, "patriot_fort"):
                continue
            if after.control(city) != "british":
                continue
            for to in board.adjacent(city):
                if all(may_hold(after, u, to)[0] for u in present):
                    found.add(Command("british", "garrison", moves=moves, displace=(city, to)))
    return found


def test_garrison_counts_like_brute_force() -> None:
    state = garrison_state()
    view = command_view(state, "british", "garrison")
    expected = brute_garrison(state)
    assert view.count() == len(expected)
    listed = list(view)
    assert len(set(listed)) == len(listed) and set(listed) == expected
    assert all(command_refusal(state, m) is None for m in listed)


def test_garrison_golden() -> None:
    state = garrison_state()
    # 3.2.2: both Virginia Regulars to New York City: 4 British cubes there, one
    # Underground Militia Activated; British Control lets every Rebellion unit be
    # displaced to an adjacent space
    move = Command("british", "garrison",
                   moves=(("Virginia", "New York City", "british_regular", 2),),
                   displace=("New York City", "New York"))  # fmt: skip
    result = apply_command(state, move)
    new = result.state
    assert new.pieces("New York", "militia") == 2 and new.pieces("New York", "continental") == 1
    assert new.pieces("New York City", "militia") == 0
    assert new.track("british_resources") == 0  # 3.2.2: 2 Resources in all
    # without the moves, 2 Tories do not outnumber 3 Rebellion units: no displacement
    stay = Command("british", "garrison", displace=("New York City", "New York"))
    assert "British Control" in (command_refusal(state, stay) or pytest.fail()).reason
    # 3.2.2: not while FNI is at 3; 2.3.5: a Limited Garrison ends in one City
    limited = command_view(state, "british", "garrison", limited=True)
    assert all(
        {c for _, c, _, _ in m.moves} <= {m.spaces[0]} for m in itertools.islice(limited, 300)
    )
    state.set_track("british_resources", 1)
    assert command_view(state, "british", "garrison").count() == 0
    state.set_track("british_resources", 5)
    state.set_flag("toa_played")
    for city in ("Boston", "New York City", "Philadelphia"):
        state.move_marker("Unavailable", city, "blockade")
    state.set_track("fni", 3)
    assert command_view(state, "british", "garrison").count() == 0
    assert (can_command(state, "british", "garrison") or pytest.fail()).rule == "3.2.2"


def battle_state() -> CoinState:
    # Continentals facing British Regulars in Boston, New York City and Virginia;
    # French Regulars in Boston and Virginia after the Treaty of Alliance
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("patriots_resources", 2)
    state.set_track("french_resources", 1)
    for space in ("Boston", "New York City", "Virginia"):
        state.move_pieces("Available", space, "continental", 2)
        state.move_pieces("Available", space, "british_regular", 1)
    for space in ("Boston", "Virginia"):
        state.move_pieces("Available", space, "french_regular", 1)
    return state


def test_battle_command_counts_like_brute_force() -> None:
    # 3.3.3: any spaces with Patriot and Royalist pieces, 1 Resource each; for each
    # space the French join, the French pay 1 (3.6.1)
    state = battle_state()
    view = command_view(state, "patriots", "battle")
    spaces = ["Boston", "New York City", "Virginia"]
    brute = set()
    for k in (1, 2):
        for chosen in itertools.combinations(spaces, k):
            joinable = [s for s in chosen if s != "New York City"]
            for j in range(min(1, len(joinable)) + 1):
                for allied in itertools.combinations(joinable, j):
                    brute.add(Command("patriots", "battle", chosen, allied=allied))
    listed = list(view)
    assert set(listed) == brute and len(listed) == view.count() == len(brute)
    assert all(command_refusal(state, m) is None for m in listed)
    # 3.3.3: the French pay for every space they join: not 2 with 1 Resource
    two = Command("patriots", "battle", ("Boston", "Virginia"), allied=("Boston", "Virginia"))
    assert "pay 1 per space" in (command_refusal(state, two) or pytest.fail()).reason
    # Leader capabilities: with Rochambeau in Boston the French join there for nothing,
    # so with 1 Resource they may join both spaces, paying only for Virginia
    state.set_leader("Rochambeau", "Boston")
    assert command_refusal(state, two) is None
    assert two in set(command_view(state, "patriots", "battle"))
    after = apply_command(state, two).state
    assert after.track("french_resources") == 0


def test_fight_battles_pays_then_fights_each_space() -> None:
    state = battle_state()
    move = Command("patriots", "battle", ("Boston",), allied=("Boston",))
    paid, fought = fight_battles(state, move, FixedDice([1, 1, 1]))
    # 3.3.3 and 3.6.1: Patriots and French each pay 1
    assert paid.state.track("patriots_resources") == 1
    assert paid.state.track("french_resources") == 0
    (battle,) = fought
    # 3.6.3: 2 Continentals + 1 French Regular (the French paid): Force Level 3, 1 die
    assert battle.force_levels[0] == 3 and len(battle.dice_attacker) == 1
    assert paid.log[0].startswith("3.1") and any(line.startswith("3.6") for line in paid.log)
    wrong = {"Boston": BattleChoice("Boston", "patriots")}  # the French paid to join
    with pytest.raises(IllegalMoveError):
        fight_battles(state, move, FixedDice([1, 1, 1]), wrong)


def test_french_muster() -> None:
    # 3.5.3: after the Treaty; one Colony or City with Rebellion Control, or the West
    # Indies; pay 2; up to four French Regulars; then, in a map space and if the
    # Patriots have a Resource, two French Regulars may become a Patriot Fort
    state = CoinState.new("lod")
    state.set_track("french_resources", 2)
    state.set_track("patriots_resources", 1)
    assert command_view(state, "french", "muster").count() == 0  # 3.5: before the Treaty
    state.set_flag("toa_played")
    state.move_pieces("Available", "Virginia", "continental", 1)  # Rebellion Control
    view = command_view(state, "french", "muster")
    spaces = {m.spaces[0] for m in view}
    assert spaces == {"Virginia", "West Indies"}
    available = min(4, state.available("french_regular"))
    # Virginia: 1-4 Regulars, a Fort with 2 or more; West Indies: 1-4, never a Fort
    assert view.count() == available + (available - 1) + available
    fort = Command("french", "muster", ("Virginia",),
                   (("Virginia", "french_regular", 2), ("Virginia", "patriot_fort", 1)),
                   (("Virginia", "french_regular", 2),))  # fmt: skip
    new = apply_command(state, fort).state
    assert new.pieces("Virginia", "patriot_fort") == 1
    assert new.pieces("Virginia", "french_regular") == 0
    assert (new.track("french_resources"), new.track("patriots_resources")) == (0, 0)
    state.set_track("patriots_resources", 0)
    assert "Patriots pay" in (command_refusal(state, fort) or pytest.fail()).reason


def test_scout_counts_like_brute_force_and_moves_a_group() -> None:
    # 3.4.3: from one Province, War Parties and at least one British Regular (Tories
    # up to the Regulars) move as one group into an adjacent Province; the Indians and
    # the British pay 1 each; moving War Parties and all Militia there are Activated
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.set_track("british_resources", 1)
    state.move_pieces("Available", "Virginia", "war_party", 1)
    state.move_pieces("Available", "Virginia", "war_party", 1, new_status="active")
    state.move_pieces("Available", "Virginia", "british_regular", 2)
    state.move_pieces("Available", "Virginia", "tory", 1)
    state.move_pieces("Available", "North Carolina", "militia", 2)
    view = command_view(state, "indians", "scout")
    board = state.rules.map
    destinations = [d for d in board.adjacent("Virginia") if board.is_province(d)]
    brute = set()
    for d in destinations:
        for r, t, a, u in itertools.product(range(1, 3), range(2), range(2), range(2)):
            if t <= r and a + u >= 1:
                kinds = (("british_regular", r), ("tory", t), ("war_party:active", a),
                         ("war_party:underground", u))  # fmt: skip
                moves = tuple(sorted(("Virginia", d, k, n) for k, n in kinds if n))
                brute.add(Command("indians", "scout", (d,), moves=moves))
    listed = list(view)
    assert set(listed) == brute and len(listed) == view.count()
    move = Command("indians", "scout", ("North Carolina",), moves=(
        ("Virginia", "North Carolina", "british_regular", 1),
        ("Virginia", "North Carolina", "war_party:underground", 1)))  # fmt: skip
    new = apply_command(state, move).state
    assert new.pieces("North Carolina", "war_party", "active") == 1
    assert new.pieces("North Carolina", "militia", "active") == 2
    assert (new.track("indians_resources"), new.track("british_resources")) == (0, 0)
    state.set_track("british_resources", 0)
    assert command_view(state, "indians", "scout").count() == 0  # 3.4.3: the British pay


@settings(max_examples=30, deadline=None)
@given(
    scenario=st.sampled_from(["1775", "1776", "1778"]),
    resources=st.integers(0, 12),
    toa=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_every_sampled_move_of_every_command_is_legal_and_sound(
    scenario: str, resources: int, toa: bool, seed: int
) -> None:
    # 3.1: whatever a view offers is legal, applies on a copy and keeps the state sound
    state = load_scenario("lod", scenario)
    for faction in ("british", "patriots", "french", "indians"):
        state.set_track(f"{faction}_resources", resources)
    state.set_flag("toa_played", toa or state.flag("toa_played"))
    rng = random.Random(seed)
    before = state.to_json()
    for faction in ("british", "patriots", "french", "indians"):
        for command in sorted(COMMANDS[faction]):
            view = command_view(state, faction, command)
            count = view.count()
            for _ in range(min(count, 5)):
                move = view.nth(rng.randrange(count))
                assert command_refusal(state, move) is None, move
                if command == "battle":
                    after = fight_battles(state, move, random.Random(seed))[0].state
                else:
                    after = apply_command(state, move).state
                assert after.invariant_problems() == [], (move, after.invariant_problems())
    assert state.to_json() == before  # the input is never changed


NARROWED = (("british", "march"), ("british", "muster"), ("patriots", "march"),
            ("patriots", "rally"), ("indians", "march"))  # fmt: skip


@settings(max_examples=12, deadline=None)
@given(
    scenario=st.sampled_from(["1775", "1776", "1778"]),
    resources=st.integers(1, 4),
    limited=st.booleans(),
    pick=st.integers(0, 10**6),
)
def test_a_view_narrowed_to_spaces_is_the_whole_view_sifted(
    scenario: str, resources: int, limited: bool, pick: int
) -> None:
    # 5.3: an Event's free Command in named spaces selects only those spaces; a Command
    # that ranks them alone offers exactly the moves of its whole view that do
    state = load_scenario("lod", scenario)
    for faction in ("british", "patriots", "indians"):
        state.set_track(f"{faction}_resources", resources)
    rng = random.Random(pick)
    within = frozenset(rng.sample(sorted(state.rules.spaces), rng.randint(1, 3)))
    for faction, command in NARROWED:
        whole = command_view(state, faction, command, limited=limited)
        if whole.count() > 5_000:
            continue
        narrowed = command_view(state, faction, command, limited=limited, within=within)
        sifted = {m for m in whole if m.spaces and set(m.spaces) <= within}
        assert narrowed.count() == len(sifted), (faction, command, within)
        assert set(narrowed) == sifted, (faction, command, within)


def test_a_command_that_cannot_rank_narrowed_moves_says_so() -> None:
    state = CoinState.new("lod")
    with pytest.raises(InputError, match="cannot be narrowed"):
        command_view(state, "british", "garrison", within=frozenset({"Boston"}))
