"""LoD British Muster (3.2.1, Reward Loyalty 6.4.1) and Patriot Rally (3.3.1):
golden cases worked from the rules, counts against an independent brute force, and
both directions of legality."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.commands import Command, apply_command, command_refusal, command_view
from legalis.model.lod.muster import (
    CommandOptions,
    MusterView,
    RallyView,
    muster_refusal,
    rally_refusal,
)

CUBES = ("british_regular", "tory")
MILITIA = ("militia:underground", "militia:active")


def muster(spaces: tuple[str, ...], placed: tuple = (), removed: tuple = (), **kw: bool) -> Command:
    return Command("british", "muster", spaces, tuple(sorted(placed)), tuple(sorted(removed)),
                   **kw)  # fmt: skip


def rally(
    spaces: tuple[str, ...], placed: tuple = (), removed: tuple = (), moves: tuple = (), **kw: bool
) -> Command:
    return Command("patriots", "rally", spaces, tuple(sorted(placed)), tuple(sorted(removed)),
                   moves=tuple(sorted(moves)), **kw)  # fmt: skip


def only_pieces(state: CoinState, keep: dict[str, int]) -> None:
    """Leave exactly ``keep`` of each named piece Available (the rest Unavailable or
    off the board), to keep the brute force small."""
    for piece, n in keep.items():
        extra = state.available(piece) - n
        if extra > 0:
            state.take("Available", piece, extra)


def view_set(view: object) -> list[Command]:
    moves = list(view)  # type: ignore[call-overload]
    assert len(moves) == len(set(moves)), "no move twice"
    return moves


def check_view(state: CoinState, view: MusterView | RallyView, brute: set[Command]) -> None:
    """count() equals the brute force, nth() follows iteration, every move is legal."""
    moves = view_set(view)
    assert view.count() == len(moves) == len(brute)
    assert set(moves) == brute
    for index, move in enumerate(moves):
        assert view.nth(index) == move
        assert command_refusal(state, move) is None
    with pytest.raises(IndexError):
        view.nth(view.count())


# ---------------------------------------------------------------------- Muster brute force


def muster_candidates(state: CoinState, most_spaces: int, limited: bool, free: bool
                      ) -> Iterator[Command]:  # fmt: skip
    """Every Muster shape on the map, legal or not: Regulars 0..6 in any spaces,
    Tories 0..2, and in one space a Fort for any three cubes or any Reward Loyalty
    (markers taken off and 0..4 levels)."""
    spaces = [*state.rules.spaces, "West Indies"]
    regulars = range(min(6, state.available("british_regular")) + 1)
    tories = range(min(2, state.available("tory")) + 1)
    for k in range(1, most_spaces + 1):
        for chosen in itertools.combinations(sorted(spaces), k):
            per_space = [list(itertools.product(regulars, tories)) for _ in chosen]
            for counts in itertools.product(*per_space):
                placed = [
                    (s, piece, n)
                    for s, (r, t) in zip(chosen, counts, strict=True)
                    for piece, n in (("british_regular", r), ("tory", t)) if n
                ]  # fmt: skip
                yield muster(chosen, placed, limited=limited, free=free)
                for space in chosen:
                    for r in range(4):
                        fort = [(space, "british_fort", 1)]
                        cubes = [(space, p, n) for p, n in zip(CUBES, (r, 3 - r), strict=True)
                                 if n]  # fmt: skip
                        yield muster(chosen, placed + fort, cubes, limited=limited, free=free)
                    if space == "West Indies":
                        continue
                    raid, propaganda = (
                        state.markers(space, "raid"),
                        state.markers(space, "propaganda"),
                    )
                    for a in range(raid + 1):
                        for b in range(propaganda + 1):
                            for levels in range(5):
                                off = [
                                    (space, m, n) for m, n in (("raid", a), ("propaganda", b)) if n
                                ]
                                shift = [(space, "support_shift", levels)] if levels else []
                                if off or shift:
                                    yield muster(chosen, placed + shift, off, limited=limited,
                                                 free=free)  # fmt: skip


def muster_brute(state: CoinState, most_spaces: int, limited: bool = False,
                 free: bool = False) -> set[Command]:  # fmt: skip
    return {
        m for m in muster_candidates(state, most_spaces, limited, free)
        if command_refusal(state, m) is None
    }  # fmt: skip


def small_muster_state() -> CoinState:
    state = CoinState.new("lod")
    only_pieces(state, {"british_regular": 1, "tory": 1, "british_fort": 1})
    state.add("Boston", "british_regular", 2)
    state.add("Boston", "tory", 1)
    state.add("Virginia", "militia", 2)
    state.set_support("Virginia", "passive_opposition")
    state.add_marker("Massachusetts", "propaganda")
    state.set_support("Massachusetts", "passive_opposition")
    state.set_leader("Gage", "Boston")
    state.set_track("british_resources", 2)
    return state


def test_muster_counts_like_brute_force_with_two_resources() -> None:
    state = small_muster_state()
    brute = muster_brute(state, 2)
    check_view(state, MusterView(state, "british", False, False), brute)
    assert command_view(state, "british", "muster").count() == len(brute)


def test_muster_limited_and_free_count_like_brute_force() -> None:
    state = small_muster_state()
    state.set_track("british_resources", 3)
    limited = muster_brute(state, 1, limited=True)
    check_view(state, MusterView(state, "british", True, False), limited)
    # 3.1.2: free, but Reward Loyalty is still paid (6.4.1): with no Resources,
    # Reward Loyalty beyond Gage's free level is refused
    state.set_track("british_resources", 0)
    free = muster_brute(state, 1, limited=True, free=True)
    check_view(state, MusterView(state, "british", True, True), free)
    assert any(("Boston", "support_shift", 1) in m.placed for m in free)  # Gage: free
    assert not any(("Boston", "support_shift", 2) in m.placed for m in free)


def test_muster_options_change_the_moves() -> None:
    state = CoinState.new("lod")
    state.set_track("british_resources", 1)
    # 3.2.1: Regulars placed in Boston make Massachusetts a Tory space (default)
    move = muster(("Boston", "Massachusetts"), [("Boston", "british_regular", 1),
                                                ("Massachusetts", "tory", 2)])  # fmt: skip
    state.set_track("british_resources", 2)
    assert command_refusal(state, move) is None
    refused = muster_refusal(state, move, CommandOptions(muster_tories_beside_new_regulars=False))
    assert refused is not None and refused.rule == "3.2.1"
    # a selected space receiving nothing: refused, allowed with muster_idle_spaces
    idle = muster(("Boston", "New York City"), [("Boston", "british_regular", 1)])
    assert command_refusal(state, idle) is not None
    assert muster_refusal(state, idle, CommandOptions(muster_idle_spaces=True)) is None
    wide = MusterView(state, "british", True, False, CommandOptions(muster_idle_spaces=True))
    assert wide.count() > MusterView(state, "british", True, False).count()


def test_muster_colony_beside_a_blockaded_city() -> None:
    # 3.2.1: Regulars go to a City not Blockaded or a Colony next to one
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("british_resources", 1)
    state.add_marker("Savannah", "blockade")
    georgia = muster(("Georgia",), [("Georgia", "british_regular", 1)])
    savannah = muster(("Savannah",), [("Savannah", "british_regular", 1)])
    assert command_refusal(state, savannah).rule == "3.2.1"  # type: ignore[union-attr]
    # Georgia touches only Savannah among Cities
    assert command_refusal(state, georgia).rule == "3.2.1"  # type: ignore[union-attr]
    assert (
        muster_refusal(state, georgia, CommandOptions(muster_colony_beside_open_city=False)) is None
    )
    # 1.3.7: the West Indies take Regulars once the Treaty of Alliance is played
    assert (
        command_refusal(state, muster(("West Indies",), [("West Indies", "british_regular", 6)]))
        is None
    )
    state.set_flag("toa_played", False)
    assert command_refusal(state, muster(("West Indies",), [("West Indies", "british_regular",
                                                             1)])) is not None  # fmt: skip


# ---------------------------------------------------------------------- Muster golden


def test_muster_golden_1775_boston_fort_and_tories() -> None:
    state = load_scenario("lod", "1775")
    assert state.track("british_resources") == 6
    # 3.2.1: six Regulars in Boston (a City not Blockaded), two Tories in
    # Massachusetts (next to Boston's Regulars and Fort; at Active Opposition it
    # could not take any)...
    state.set_support("Massachusetts", "passive_support")
    move = muster(
        ("Boston", "Massachusetts"),
        [("Boston", "british_regular", 6), ("Massachusetts", "tory", 2),
         ("Boston", "british_fort", 1)],
        [("Boston", "british_regular", 3)],
    )  # fmt: skip
    assert command_refusal(state, move) is None
    after = apply_command(state, move)
    new = after.state
    # ...then three of Boston's Regulars become a second Fort there (1.4.2: two fit)
    assert new.pieces("Boston", "british_regular") == 3 + 6 - 3
    assert new.pieces("Boston", "british_fort") == 2
    assert new.pieces("Massachusetts", "tory") == 2
    assert new.track("british_resources") == 6 - 2  # 3.2.1: one per space
    assert new.available("british_regular") == 7 - 6 + 3
    assert any(line.startswith("3.2.1") for line in after.log)
    # 1.4.2: no third Fort
    new.set_track("british_resources", 5)
    third = muster(("Boston",), [("Boston", "british_fort", 1), ("Boston", "british_regular", 3)],
                   [("Boston", "british_regular", 3)])  # fmt: skip
    assert command_refusal(new, third).rule == "1.4.2"  # type: ignore[union-attr]


def test_reward_loyalty_pays_per_marker_and_level_with_gage() -> None:
    state = CoinState.new("lod")
    state.set_track("british_resources", 10)
    state.add("New York City", "british_regular", 2)
    state.add("New York City", "tory", 1)
    state.add("New York City", "militia", 1)
    state.set_support("New York City", "passive_opposition")
    state.add_marker("New York City", "propaganda")
    state.add_marker("New York City", "raid")
    # 6.4.1: both markers come off before any shift; then Passive Opposition ->
    # Active Support is three levels (no two-level limit in a Muster, 3.2.1)
    move = muster(("New York City",), [("New York City", "tory", 1),
                                       ("New York City", "support_shift", 3)],
                  [("New York City", "propaganda", 1), ("New York City", "raid", 1)])  # fmt: skip
    assert command_refusal(state, move) is None
    new = apply_command(state, move).state
    assert new.support("New York City") == "active_support"
    assert new.markers("New York City", "propaganda") == new.markers("New York City", "raid") == 0
    assert new.track("british_resources") == 10 - 1 - 5  # the space, 2 markers, 3 levels
    # with Gage there the first level is free (Leader capabilities)
    state.set_leader("Gage", "New York City")
    assert apply_command(state, move).state.track("british_resources") == 10 - 1 - 4
    # a shift while a marker remains is refused
    early = muster(("New York City",), [("New York City", "support_shift", 1)],
                   [("New York City", "raid", 1)])  # fmt: skip
    assert command_refusal(state, early).rule == "6.4.1"  # type: ignore[union-attr]
    # removing one marker only: the British choose which
    one = muster(("New York City",), [("New York City", "tory", 1)],
                 [("New York City", "raid", 1)])  # fmt: skip
    assert command_refusal(state, one) is None
    # free Muster: the space costs nothing, Reward Loyalty still does (6.4.1)
    free = muster(move.spaces, move.placed, move.removed, free=True)
    assert apply_command(state, free).state.track("british_resources") == 10 - 4
    state.set_track("british_resources", 3)
    assert command_refusal(state, free).rule == "6.4.1"  # type: ignore[union-attr]


def test_reward_loyalty_needs_regulars_tories_and_control() -> None:
    state = CoinState.new("lod")
    state.set_track("british_resources", 5)
    state.add("Philadelphia", "british_regular", 1)
    state.add("Philadelphia", "militia", 2)
    shift = [("Philadelphia", "support_shift", 1)]
    # 6.4.1: one Tory placed gives Regulars and Tories, but 2 Royalist vs 2 Rebellion
    # is no British Control (1.7)
    move = muster(("Philadelphia",), [("Philadelphia", "tory", 1), *shift])
    assert command_refusal(state, move).rule == "6.4.1"  # type: ignore[union-attr]
    # two Tories give Control
    move = muster(("Philadelphia",), [("Philadelphia", "tory", 2), *shift])
    assert command_refusal(state, move) is None
    # 2.3.5: a Limited Muster selects one space
    limited = muster(
        ("Norfolk", "Philadelphia"),
        [("Norfolk", "british_regular", 1), ("Philadelphia", "tory", 1)],
        limited=True,
    )
    assert command_refusal(state, limited).rule == "2.3.5"  # type: ignore[union-attr]


# ---------------------------------------------------------------------- Rally brute force


def rally_candidates(state: CoinState, most_spaces: int, limited: bool) -> Iterator[Command]:
    """Every Rally shape: in each space Militia 1..3, a Fort for any two units, or
    any Militia moved in from next door; and Continentals for 1..3 Militia of any
    status in one space."""
    board = state.rules.map
    spaces = sorted(state.rules.spaces)

    def own(space: str) -> Iterator[tuple[list, list, list]]:
        for n in range(1, 4):  # Forts + Population: at most 3 on this map
            yield [(space, "militia", n)], [], []
        for u, a in itertools.product(range(3), repeat=2):
            for c in range(3):
                if u + a + c == 2:
                    units = [(space, k, n) for k, n in zip((*MILITIA, "continental"), (u, a, c),
                                                           strict=True) if n]  # fmt: skip
                    yield [(space, "patriot_fort", 1)], units, []
        sources = [
            (o, kind) for o in sorted(board.adjacent(space)) for kind in MILITIA
            if state.pieces(o, "militia", kind.split(":")[1])
        ]  # fmt: skip
        ranges = [range(state.pieces(o, "militia", k.split(":")[1]) + 1) for o, k in sources]
        for counts in itertools.product(*ranges):
            yield [], [], [(o, space, k, n) for (o, k), n in zip(sources, counts, strict=True)
                           if n]  # fmt: skip

    def merged(entries: list) -> list:
        total: dict = {}
        for *head, n in entries:
            total[tuple(head)] = total.get(tuple(head), 0) + n
        return [(*head, n) for head, n in total.items()]

    for k in range(1, most_spaces + 1):
        for chosen in itertools.combinations(spaces, k):
            for picks in itertools.product(*(list(own(s)) for s in chosen)):
                placed = [e for p in picks for e in p[0]]
                removed = [e for p in picks for e in p[1]]
                moves = [e for p in picks for e in p[2]]
                yield rally(chosen, placed, removed, moves, limited=limited)
                for space in chosen:
                    for u, a in itertools.product(range(4), repeat=2):
                        if 1 <= u + a <= 3:  # more than the Continentals Available
                            more = [(space, k2, n) for k2, n in zip(MILITIA, (u, a), strict=True)
                                    if n]  # fmt: skip
                            yield rally(
                                chosen,
                                [*placed, (space, "continental", u + a)],
                                merged(removed + more),
                                moves,
                                limited=limited,
                            )


def rally_brute(state: CoinState, most_spaces: int, limited: bool = False) -> set[Command]:
    return {m for m in rally_candidates(state, most_spaces, limited)
            if command_refusal(state, m) is None}  # fmt: skip


def small_rally_state() -> CoinState:
    state = CoinState.new("lod")
    only_pieces(state, {"militia": 2, "continental": 2, "patriot_fort": 1})
    state.add("Massachusetts", "patriot_fort", 1)
    state.add("Massachusetts", "militia", 1, "active")
    state.add("Boston", "militia", 1, "active")
    state.add("Boston", "militia", 1)
    state.add("New Hampshire", "continental", 1)
    state.add("New Hampshire", "militia", 1)
    state.add("Connecticut-Rhode Island", "patriot_fort", 1)
    state.set_support("Boston", "active_support")  # not a Rally space, still an origin
    state.set_track("patriots_resources", 2)
    return state


def test_rally_counts_like_brute_force() -> None:
    state = small_rally_state()
    brute = rally_brute(state, 2)
    check_view(state, RallyView(state, "patriots", False, False), brute)
    limited = rally_brute(state, 1, limited=True)
    check_view(state, RallyView(state, "patriots", True, False), limited)


def test_rally_free_and_options() -> None:
    state = small_rally_state()
    state.set_track("patriots_resources", 0)
    free = RallyView(state, "patriots", True, True)
    assert free.count() > 0 and not RallyView(state, "patriots", True, False)
    for move in free:
        after = apply_command(state, move).state
        assert after.track("patriots_resources") == 0  # 3.1.2: free
    # Continentals where a Fort was just built: on by default, off as an option
    # (New Hampshire: a Continental and two Militia; the Fort takes two units, the
    # third becomes a Continental)
    state.set_track("patriots_resources", 1)
    state.add("New Hampshire", "militia", 1)
    built = rally(
        ("New Hampshire",),
        [("New Hampshire", "patriot_fort", 1), ("New Hampshire", "continental", 1)],
        [("New Hampshire", "continental", 1), ("New Hampshire", "militia:underground", 2)],
    )
    assert command_refusal(state, built) is None
    refused = rally_refusal(state, built, CommandOptions(rally_continentals_at_new_fort=False))
    assert refused is not None and refused.rule == "3.3.1"
    strict = RallyView(
        state, "patriots", True, False, CommandOptions(rally_continentals_at_new_fort=False)
    )
    assert (
        built not in set(strict)
        and strict.count() < RallyView(state, "patriots", True, False).count()
    )


# ---------------------------------------------------------------------- Rally golden


def test_rally_golden_1775() -> None:
    state = load_scenario("lod", "1775")
    assert state.track("patriots_resources") == 3
    # 3.3.1: Massachusetts has a Patriot Fort and Population 2: up to three Militia;
    # then Militia become Continentals in that one Fort space. Virginia: one Militia.
    move = rally(
        ("Massachusetts", "Virginia"),
        [("Massachusetts", "militia", 3), ("Massachusetts", "continental", 2),
         ("Virginia", "militia", 1)],
        [("Massachusetts", "militia:underground", 2)],
    )  # fmt: skip
    assert command_refusal(state, move) is None
    new = apply_command(state, move).state
    assert new.pieces("Massachusetts", "militia") == 1 + 3 - 2
    assert new.pieces("Massachusetts", "continental") == 1 + 2
    assert new.pieces("Virginia", "militia") == 2
    assert new.track("patriots_resources") == 1
    # four Militia is beyond Forts + Population
    four = rally(("Massachusetts",), [("Massachusetts", "militia", 4)])
    assert command_refusal(state, four).rule == "3.3.1"  # type: ignore[union-attr]
    # Quebec: an Indian Reserve takes no Militia; New York City: Active Support? No:
    # Passive Support, so a Rally space
    quebec = rally(("Quebec",), [("Quebec", "militia", 1)])
    assert command_refusal(state, quebec).rule == "3.3.1"  # type: ignore[union-attr]
    assert (
        command_refusal(state, rally(("New York City",), [("New York City", "militia", 1)])) is None
    )


def test_rally_moves_militia_in_and_flips_them_underground() -> None:
    state = small_rally_state()
    state.set_track("patriots_resources", 3)
    # 3.3.1: into Massachusetts (a Fort) from Boston (Active Support: may not Rally,
    # but its Militia may move) and New Hampshire; all there go Underground; then
    # three of them become Continentals (only two Available: refused; two: legal)
    moves = [("Boston", "Massachusetts", "militia:active", 1),
             ("Boston", "Massachusetts", "militia:underground", 1),
             ("New Hampshire", "Massachusetts", "militia:underground", 1)]  # fmt: skip
    move = rally(("Massachusetts",), [("Massachusetts", "continental", 2)],
                 [("Massachusetts", "militia:underground", 2)], moves)  # fmt: skip
    assert command_refusal(state, move) is None
    new = apply_command(state, move).state
    assert new.pieces("Massachusetts", "militia", "underground") == 4 - 2
    assert new.pieces("Massachusetts", "militia", "active") == 0
    assert new.pieces("Massachusetts", "continental") == 2
    assert new.pieces("Boston", "militia") == 0
    # no unit moves twice: New Hampshire's Militia cannot also be replaced by a Fort
    twice = rally(("Massachusetts", "New Hampshire"),
                  [("New Hampshire", "patriot_fort", 1)],
                  [("New Hampshire", "militia:underground", 1), ("New Hampshire", "continental",
                                                                 1)],
                  [("New Hampshire", "Massachusetts", "militia:underground", 1)])  # fmt: skip
    assert command_refusal(state, twice).rule == "3.3.1"  # type: ignore[union-attr]
    # Militia move only into a Fort space
    wrong = rally(("New Hampshire",), (), (), [("Massachusetts", "New Hampshire",
                                                "militia:active", 1)])  # fmt: skip
    assert command_refusal(state, wrong).rule == "3.3.1"  # type: ignore[union-attr]
    # 2.3.5: Limited: one space (Militia from several spaces into it is fine)
    assert command_refusal(state, rally(move.spaces, move.placed, move.removed, moves,
                                        limited=True)) is None  # fmt: skip
    two = rally(("Massachusetts", "Virginia"), [("Virginia", "militia", 1)], limited=True)
    assert command_refusal(state, two).rule == "2.3.5"  # type: ignore[union-attr]


def test_rally_fort_replaces_two_units() -> None:
    state = small_rally_state()
    # 3.3.1: New Hampshire's Continental and Militia become a Patriot Fort
    move = rally(
        ("New Hampshire",),
        [("New Hampshire", "patriot_fort", 1)],
        [("New Hampshire", "continental", 1), ("New Hampshire", "militia:underground", 1)],
    )
    new = apply_command(state, move).state
    assert new.pieces("New Hampshire", "patriot_fort") == 1
    assert new.pieces("New Hampshire", "militia") == new.pieces("New Hampshire", "continental") == 0
    assert new.available("militia") == 3 and new.available("patriot_fort") == 0
    # 1.4.2: two Villages fill New Hampshire: no room for a Fort
    full = state.copy()
    full.add("New Hampshire", "village", 2)
    assert command_refusal(full, move).rule == "1.4.2"  # type: ignore[union-attr]
    # 1.4.1: no Fort Available
    state.take("Available", "patriot_fort", 1)
    assert command_refusal(state, move).rule == "1.4.1"  # type: ignore[union-attr]
    # an illegal move raises with its rule
    with pytest.raises(IllegalMoveError):
        apply_command(state, move)


# ---------------------------------------------------------------------- set-ups


@pytest.mark.parametrize("scenario", ["1775", "1776", "1778"])
def test_scenario_moves_are_legal_and_ranked(scenario: str) -> None:
    state = load_scenario("lod", scenario)
    rng = random.Random(scenario)
    for faction, name in (("british", "muster"), ("patriots", "rally")):
        for limited, free in itertools.product((False, True), repeat=2):
            view = command_view(state, faction, name, limited=limited, free=free)
            assert view.count() > 0
            for index in {0, view.count() - 1, *(rng.randrange(view.count()) for _ in range(40))}:
                move = view.nth(index)
                assert command_refusal(state, move) is None
                assert (len(move.spaces) == 1) if limited else True
                after = apply_command(state, move).state
                assert not after.invariant_problems()
                paid = state.track(f"{faction}_resources") - after.track(f"{faction}_resources")
                if free and faction == "patriots":
                    assert paid == 0


def test_limited_rally_count_1775_by_hand() -> None:
    # 3.3.1, 2.3.5, worked by hand: no space is at Active Support. Seventeen Cities
    # and Colonies without a Fort take one Militia (17). Massachusetts (Fort,
    # Population 2; one Underground Militia, one Continental): 1-3 Militia (3);
    # a Fort for its Militia and Continental (1); 1-3 Militia then 1..(1+n) of its
    # Militia become Continentals (2 + 3 + 4 = 9); take Militia in: New York's one
    # Militia moves or not (2), then Continentals for 1..all of its Militia
    # (1 + 2 = 3). Reserves: nothing. 17 + 3 + 1 + 9 + 2 + 3 = 35.
    state = load_scenario("lod", "1775")
    assert command_view(state, "patriots", "rally", limited=True).count() == 35
