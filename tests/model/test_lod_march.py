"""LoD March (3.2.3, 3.3.2, 3.4.2, 3.5.4): golden cases worked from the rules, and
every count and rank checked against a brute force written from the rule text."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState
from legalis.model.lod.command_base import CommandOptions
from legalis.model.lod.commands import (
    Command,
    apply_command,
    command_refusal,
    command_view,
    leader_destinations,
)

STRICT = CommandOptions(march_in_place=False)
KINDS = {
    "british": ("british_regular", "tory"),
    "patriots": ("continental", "french_regular", "militia:active", "militia:underground"),
    "indians": ("war_party:active", "war_party:underground"),
    "french": ("continental", "french_regular"),
}


def _count(state: CoinState, space: str, kind: str) -> int:
    piece, _, status = kind.partition(":")
    return state.pieces(space, piece, status or None)


def _reach(state: CoinState, faction: str, origin: str) -> set[str]:
    """From the rule text: next door; British and French also from in or next to a
    City of theirs to another one or a Province next to that (3.2.3, 3.5.4)."""
    board = state.rules.map
    out = set(board.adjacent(origin))
    if faction in ("british", "french"):
        cities = [
            c for c in board.of_type("City")
            if (faction == "british" and not state.markers(c, "blockade"))
            or (faction == "french" and state.control(c) == "rebellion")
        ]  # fmt: skip
        for port in cities:
            if origin == port or port in board.adjacent(origin):
                for other in cities:
                    if other != port:
                        out.add(other)
                        out |= {p for p in board.adjacent(other) if board.is_province(p)}
    out.discard(origin)
    if faction == "indians":
        out = {s for s in out if board.is_province(s)}
    return out


def _brute(state: CoinState, faction: str, most: int, options: CommandOptions | None,
           limited: bool = False, free: bool = False) -> set[Command]:  # fmt: skip
    """Every March: each origin sends any pieces to reachable spaces, then any set of
    destinations covering those entered, kept where command_refusal agrees; the
    ally's destinations are those its pieces enter."""
    kinds = KINDS[faction]
    origins = [s for s in state.rules.spaces if any(_count(state, s, k) for k in kinds)]
    per_origin: list[list[tuple[tuple[str, str, str, int], ...]]] = []
    for origin in origins:
        targets = sorted(_reach(state, faction, origin))
        choices: list[list[tuple[str, str, str, int]]] = [[]]
        for kind in kinds:
            have = _count(state, origin, kind)
            grown = []
            for partial in choices:
                for split in itertools.product(range(have + 1), repeat=len(targets)):
                    if sum(split) <= have:
                        grown.append(partial + [
                            (origin, t, kind, n) for t, n in zip(targets, split, strict=True) if n
                        ])  # fmt: skip
            choices = grown
        per_origin.append([tuple(c) for c in choices])
    found: set[Command] = set()
    spaces = sorted(state.rules.spaces)
    ally_kind = {"patriots": "french_regular", "french": "continental"}.get(faction)
    for combo in itertools.product(*per_origin):
        moves = tuple(sorted(m for part in combo for m in part))
        entered = sorted({m[1] for m in moves})
        if len(entered) > most:
            continue
        others = [s for s in spaces if s not in entered]
        allied = tuple(sorted({
            m[1] for m in moves if m[2] == ally_kind
            and not (faction == "patriots" and state.leader("Rochambeau") == m[0])
        }))  # fmt: skip
        # a destination nothing enters is a March in place: only under that option
        in_place = options is None or options.march_in_place
        for extra in range(most - len(entered) + 1 if in_place else 1):
            for added in itertools.combinations(others, extra):
                chosen = tuple(sorted([*entered, *added]))
                if not chosen:
                    continue
                move = Command(faction, "march", chosen, moves=moves, allied=allied,
                               limited=limited, free=free)  # fmt: skip
                if command_refusal(state, move, options=options) is None:
                    found.add(move)
    return found


def _small(faction: str) -> CoinState:
    state = CoinState.new("lod")
    for track in ("british", "patriots", "indians", "french"):
        state.set_track(f"{track}_resources", 2)
    if faction == "british":
        # three Cities Blockaded keep the City-to-City routes few enough to list
        state.set_flag("toa_played")
        for city in ("Philadelphia", "Norfolk", "Savannah"):
            state.add_marker(city, "blockade")
        state.move_pieces("Available", "Boston", "british_regular", 2)
        state.move_pieces("Available", "Boston", "tory", 1)
        state.move_pieces("Available", "Florida", "british_regular", 1)
        state.move_pieces("Available", "Charles Town", "militia", 1)
    elif faction == "patriots":
        state.set_flag("toa_played")
        state.move_pieces("Available", "Massachusetts", "continental", 1)
        state.move_pieces("Available", "Massachusetts", "french_regular", 1)
        state.move_pieces("Available", "Massachusetts", "militia", 1, new_status="active")
        state.move_pieces("Available", "Georgia", "militia", 1)
    elif faction == "indians":
        state.move_pieces("Available", "Florida", "war_party", 1)
        state.move_pieces("Available", "Georgia", "war_party", 1, new_status="active")
        state.move_pieces("Available", "Georgia", "war_party", 1)
    else:
        state.set_flag("toa_played")
        state.move_pieces("Available", "Virginia", "french_regular", 2)
        state.move_pieces("Available", "Virginia", "continental", 1)
        state.move_pieces("Available", "North Carolina", "militia", 1)
        state.move_pieces("Available", "Norfolk", "militia", 2)
    return state


@pytest.mark.parametrize("faction", ["british", "patriots", "indians", "french"])
@pytest.mark.parametrize("options", [None, STRICT], ids=["in_place", "strict"])
def test_count_and_rank_match_brute_force(faction: str, options: CommandOptions | None) -> None:
    state = _small(faction)
    view = command_view(state, faction, "march", options=options)
    expected = _brute(state, faction, 2 + (faction == "indians"), options)
    assert view.count() == len(expected) > 0
    ranked = [view.nth(i) for i in range(view.count())]
    assert set(ranked) == expected and len(set(ranked)) == len(ranked)
    assert ranked == list(view)


@pytest.mark.parametrize("faction", ["british", "patriots", "indians", "french"])
def test_free_march_costs_nothing(faction: str) -> None:
    # 3.1.2: a free Command costs no Faction involved anything; with every destination
    # entered (march_in_place=False) the brute force stays small
    state = _small(faction)
    for track in ("british", "patriots", "indians", "french"):
        state.set_track(f"{track}_resources", 0)
    view = command_view(state, faction, "march", free=True, options=STRICT)
    expected = _brute(state, faction, 8, STRICT, free=True)
    assert set(view) == expected and view.count() == len(expected) > 0
    widest = max(expected, key=lambda m: len(m.spaces))
    after = apply_command(state, widest, options=STRICT).state
    assert all(after.track(f"{t}_resources") == 0 for t in ("british", "patriots", "french"))


@pytest.mark.parametrize("faction", ["british", "patriots", "indians", "french"])
def test_limited_march_has_one_destination(faction: str) -> None:
    # 2.3.5: a Limited Command selects one destination; every moving piece ends there
    state = _small(faction)
    view = command_view(state, faction, "march", limited=True)
    expected = _brute(state, faction, 1, None, limited=True)
    assert set(view) == expected and view.count() == len(expected) > 0
    assert all(len(m.spaces) == 1 for m in expected)
    two = next(m for m in command_view(state, faction, "march") if len(m.spaces) == 2)
    refused = command_refusal(state, Command(**{**two.__dict__, "limited": True}))
    assert refused is not None and refused.rule == "2.3.5"


def test_rochambeau_lets_the_french_march_with_the_patriots_free() -> None:
    # Leader capabilities: Rochambeau: the French March with a Patriot Command at no cost
    state = _small("patriots")
    state.set_track("french_resources", 0)
    move = Command("patriots", "march", ("New Hampshire",), moves=(
        ("Massachusetts", "New Hampshire", "continental", 1),
        ("Massachusetts", "New Hampshire", "french_regular", 1),
    ), allied=("New Hampshire",))  # fmt: skip
    refused = command_refusal(state, move)
    assert refused is not None and refused.rule == "3.3.2"  # the French cannot pay
    state.set_leader("Rochambeau", "Massachusetts")
    unpaid = Command(**{**move.__dict__, "allied": ()})
    assert command_refusal(state, unpaid) is None
    assert command_view(state, "patriots", "march").count() == len(_brute(state, "patriots", 2,
                                                                          None))  # fmt: skip


@pytest.mark.parametrize("scenario", ["1775", "1776", "1778"])
@pytest.mark.parametrize("faction", ["british", "patriots", "indians", "french"])
def test_sampled_marches_on_the_set_ups_are_legal(scenario: str, faction: str) -> None:
    state = load_scenario("lod", scenario)
    view = command_view(state, faction, "march", limited=True)
    total = view.count()
    for index in sorted({0, total // 3, total // 2, total - 1} - {-1}):
        if 0 <= index < total:
            move = view.nth(index)
            assert command_refusal(state, move) is None
            apply_command(state, move)


# ---------------------------------------------------------------------- golden cases


def test_british_tories_move_only_with_regulars_one_for_one() -> None:
    # 3.2.3: Tories accompany British Regulars 1 for 1
    state = _small("british")
    alone = Command("british", "march", ("Massachusetts",),
                    moves=(("Boston", "Massachusetts", "tory", 1),))  # fmt: skip
    assert command_refusal(state, alone) is not None
    paired = Command("british", "march", ("Massachusetts",), moves=(
        ("Boston", "Massachusetts", "british_regular", 1),
        ("Boston", "Massachusetts", "tory", 1),
    ))  # fmt: skip
    assert command_refusal(state, paired) is None


def test_british_march_with_common_cause_war_parties() -> None:
    # 4.2.1: War Parties join a British March as Tories (1 for 1 with the Regulars,
    # together with the Tories), into an adjacent Province only, Activated; the
    # March names where they join
    state = CoinState.new("lod")
    state.set_track("british_resources", 3)
    state.move_pieces("Available", "North Carolina", "british_regular", 2)
    state.move_pieces("Available", "North Carolina", "tory", 1)
    state.move_pieces("Available", "North Carolina", "war_party", 2)
    state.move_pieces("Available", "Virginia", "militia", 2)
    moves = (
        ("North Carolina", "Virginia", "british_regular", 2),
        ("North Carolina", "Virginia", "tory", 1),
        ("North Carolina", "Virginia", "war_party:underground", 1),
    )
    move = Command("british", "march", ("Virginia",), moves=moves, allied=("Virginia",))
    assert command_refusal(state, move) is None
    after = apply_command(state, move).state
    assert after.pieces("Virginia", "war_party", "active") == 1
    assert after.pieces("North Carolina", "war_party", "underground") == 1
    # 3.2.3: three cubes, the War Party among them as a Tory: one Militia Activated
    assert after.pieces("Virginia", "militia", "active") == 1
    # the destination War Parties join must be named, and only it
    refused = command_refusal(state, Command("british", "march", ("Virginia",), moves=moves))
    assert refused is not None and refused.rule == "4.2.1"
    # more Tories and War Parties than Regulars
    crowded = (*moves[:2], ("North Carolina", "Virginia", "war_party:underground", 2))
    refused = command_refusal(state, Command("british", "march", ("Virginia",), moves=crowded,
                                             allied=("Virginia",)))  # fmt: skip
    assert refused is not None and "1 for 1" in refused.reason
    # never into a City, nor by travel between Cities
    state.move_pieces("Available", "Charles Town", "british_regular", 1)
    state.move_pieces("Available", "South Carolina", "british_regular", 1)
    state.move_pieces("Available", "South Carolina", "war_party", 1)
    for destination in ("Charles Town", "Massachusetts"):
        sea = Command("british", "march", (destination,), allied=(destination,), moves=(
            ("South Carolina", destination, "british_regular", 1),
            ("South Carolina", destination, "war_party:underground", 1),
        ))  # fmt: skip
        refused = command_refusal(state, sea)
        assert refused is not None and refused.rule == "4.2.1", destination


def test_british_march_between_cities_and_activation() -> None:
    # 3.2.3: from a City (not Blockaded) to another City; then in each destination
    # one Militia Activated per three British cubes
    state = _small("british")
    state.move_pieces("Available", "Charles Town", "militia", 1)
    state.move_pieces("Available", "Charles Town", "british_regular", 1)
    move = Command("british", "march", ("Charles Town",), moves=(
        ("Boston", "Charles Town", "british_regular", 2),
        ("Boston", "Charles Town", "tory", 1),
    ))  # fmt: skip
    after = apply_command(state, move).state
    # 4 cubes: one Militia of the two Activated
    assert after.pieces("Charles Town", "militia", "active") == 1
    assert after.pieces("Charles Town", "militia", "underground") == 1
    assert after.track("british_resources") == 1
    state.set_flag("toa_played")
    state.add_marker("Charles Town", "blockade")
    refused = command_refusal(state, move)
    assert refused is not None and "route" in refused.reason


def test_british_march_in_place_activates() -> None:
    # 8.4.3 names a March "in place": a destination selected with nothing moving in
    # still Activates one Militia per three British cubes (3.2.3)
    state = _small("british")
    state.move_pieces("Available", "New York", "british_regular", 3)
    state.move_pieces("Available", "New York", "militia", 1)
    move = Command("british", "march", ("New York",))
    after = apply_command(state, move).state
    assert after.pieces("New York", "militia", "active") == 1
    refused = command_refusal(state, move, options=STRICT)
    assert refused is not None and "in place" in refused.reason


def test_patriot_militia_activate_entering_a_british_city_in_force() -> None:
    # 3.3.2: Militia of a group go Active where the destination was a British
    # Controlled City and the group plus the British cubes there exceed 3
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 2)
    state.move_pieces("Available", "Boston", "british_regular", 2)
    state.move_pieces("Available", "Massachusetts", "militia", 2)
    move = Command("patriots", "march", ("Boston",),
                   moves=(("Massachusetts", "Boston", "militia:underground", 2),))  # fmt: skip
    after = apply_command(state, move).state
    assert after.pieces("Boston", "militia", "active") == 2  # 2 + 2 > 3
    state.move_pieces("Massachusetts", "Available", "militia", 1)
    small = Command("patriots", "march", ("Boston",),
                    moves=(("Massachusetts", "Boston", "militia:underground", 1),))  # fmt: skip
    assert apply_command(state, small).state.pieces("Boston", "militia", "underground") == 1


def test_patriot_continentals_activate_war_parties() -> None:
    # 3.3.2: one War Party Activated for every two Continentals in a destination
    state = CoinState.new("lod")
    state.set_track("patriots_resources", 1)
    state.move_pieces("Available", "Massachusetts", "continental", 3)
    state.move_pieces("Available", "New Hampshire", "war_party", 2)
    move = Command("patriots", "march", ("New Hampshire",),
                   moves=(("Massachusetts", "New Hampshire", "continental", 3),))  # fmt: skip
    after = apply_command(state, move).state
    assert after.pieces("New Hampshire", "war_party", "active") == 1


def test_indian_march_from_a_reserve_is_free_once() -> None:
    # 3.4.2: the first destination entered only from Indian Reserves costs nothing
    state = _small("indians")
    state.set_track("indians_resources", 0)
    from_reserve = Command("indians", "march", ("Georgia",),
                           moves=(("Florida", "Georgia", "war_party:underground", 1),))  # fmt: skip
    assert command_refusal(state, from_reserve) is None
    from_colony = Command("indians", "march", ("South Carolina",), moves=(
        ("Georgia", "South Carolina", "war_party:underground", 1),))  # fmt: skip
    refused = command_refusal(state, from_colony)
    assert refused is not None and refused.rule == "3.1"
    # Indians March only into Provinces (3.4.2)
    city = Command("indians", "march", ("Savannah",),
                   moves=(("Georgia", "Savannah", "war_party:underground", 1),))  # fmt: skip
    assert command_refusal(state, city) is not None


def test_indian_war_parties_activate_entering_a_rebel_colony_in_force() -> None:
    # 3.4.2: Underground War Parties go Active where the destination was a Colony
    # under Rebellion Control and the group plus the Militia there exceed 3
    state = CoinState.new("lod")
    state.set_track("indians_resources", 1)
    state.move_pieces("Available", "South Carolina", "militia", 2)
    state.move_pieces("Available", "Georgia", "war_party", 2)
    move = Command(
        "indians",
        "march",
        ("South Carolina",),
        moves=(("Georgia", "South Carolina", "war_party:underground", 2),),
    )
    after = apply_command(state, move).state
    assert after.pieces("South Carolina", "war_party", "active") == 2


def test_french_destinations_need_patriots_or_continentals() -> None:
    # 3.5.4: a destination already holding a Patriot piece, or any if Continentals
    # come along (the Patriots then pay 1 for it)
    state = _small("french")
    bare = Command("french", "march", ("Maryland-Delaware",),
                   moves=(("Virginia", "Maryland-Delaware", "french_regular", 1),))  # fmt: skip
    refused = command_refusal(state, bare)
    assert refused is not None and "Patriot piece" in refused.reason
    escorted = Command("french", "march", ("Maryland-Delaware",), moves=(
        ("Virginia", "Maryland-Delaware", "continental", 1),
        ("Virginia", "Maryland-Delaware", "french_regular", 1),
    ), allied=("Maryland-Delaware",))  # fmt: skip
    after = apply_command(state, escorted).state
    assert (after.track("french_resources"), after.track("patriots_resources")) == (1, 1)
    to_militia = Command(
        "french",
        "march",
        ("North Carolina",),
        moves=(("Virginia", "North Carolina", "french_regular", 2),),
    )
    assert command_refusal(state, to_militia) is None


def test_no_unit_moves_twice() -> None:
    # 3.2.3: no unit moves more than once: never more pieces than the origin holds
    state = _small("british")
    move = Command("british", "march", ("Massachusetts", "New Hampshire"), moves=(
        ("Boston", "Massachusetts", "british_regular", 2),
        ("Boston", "New Hampshire", "british_regular", 1),
    ))  # fmt: skip
    refused = command_refusal(state, move)
    assert refused is not None and "twice" in refused.reason


def test_leaders_follow_units_of_their_faction() -> None:
    # 1.10: a Leader can follow any unit of its Faction anywhere it goes during a
    # Command: Washington with the Continentals or the Militia leaving Virginia;
    # Rochambeau with the French Regulars of a Patriot March (his Faction's units;
    # with him there, the French March with the Patriots free)
    state = CoinState.new("lod")
    state.set_flag("toa_played")
    state.set_track("patriots_resources", 5)
    state.set_track("french_resources", 5)
    state.set_leader("Washington", "Virginia")
    state.set_leader("Rochambeau", "Virginia")
    state.move_pieces("Available", "Virginia", "continental", 2)
    state.move_pieces("Available", "Virginia", "militia", 1)
    state.move_pieces("Available", "Virginia", "french_regular", 1)
    moves = (
        ("Virginia", "Maryland-Delaware", "militia:underground", 1),
        ("Virginia", "North Carolina", "continental", 2),
        ("Virginia", "North Carolina", "french_regular", 1),
    )
    march = Command("patriots", "march", ("Maryland-Delaware", "North Carolina"), moves=moves)
    assert command_refusal(state, march) is None
    assert leader_destinations(state, march) == {
        "Rochambeau": ["North Carolina"],
        "Washington": ["Maryland-Delaware", "North Carolina"],
    }
    led = replace(
        march, leaders=(("Rochambeau", "North Carolina"), ("Washington", "Maryland-Delaware"))
    )
    after = apply_command(state, led)
    assert after.state.leader("Washington") == "Maryland-Delaware"
    assert after.state.leader("Rochambeau") == "North Carolina"
    assert state.leader("Washington") == "Virginia"  # the input is not changed
    assert any(line.startswith("1.10: Washington follows") for line in after.log)
    assert led.to_json()["leaders"] == [
        ["Rochambeau", "North Carolina"],
        ["Washington", "Maryland-Delaware"],
    ]
    for leaders in (
        (("Washington", "Pennsylvania"),),  # no unit of his goes there
        (("Rochambeau", "Maryland-Delaware"),),  # only Militia go there
        (("Gage", "North Carolina"),),  # not in the space the units leave
        (("Washington", "North Carolina"), ("Rochambeau", "North Carolina")),  # unsorted
    ):
        refused = command_refusal(state, replace(march, leaders=leaders))
        assert refused is not None and refused.rule == "1.10", leaders
