"""The shared COIN state: primitives, derived values, JSON, invariants and limits.

Golden values are worked by hand from the rules cited beside them (LoD and FitL
1.4.2 stacking and side rules, 1.6 Support, 1.7 Control, 1.8 caps, LoD 1.9 FNI,
2.3.9 the Treaty of Alliance).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legalis.model.coin.gamedata import load_game_data, parse_game_data, read_game_file
from legalis.model.coin.limits import cap, clamp, may_hold, may_hold_marker, stacking_room
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.errors import InputError

# ---------------------------------------------------------------------- game data


def test_game_data_facts() -> None:
    lod, fitl = load_game_data("lod"), load_game_data("fitl")
    assert {f.id: f.side for f in lod.factions} == {
        "british": "royalist", "indians": "royalist", "patriots": "rebellion",
        "french": "rebellion",
    }  # fmt: skip
    assert {f.id: f.side for f in fitl.factions} == {
        "us": "coin", "arvn": "coin", "nva": "insurgent", "vc": "insurgent",
    }  # fmt: skip
    assert [p.id for p in lod.pieces if p.stacking] == ["british_fort", "patriot_fort", "village"]
    assert [p.id for p in fitl.pieces if p.can_tunnel] == ["nva_base", "vc_base"]
    assert [b.name for b in fitl.boxes] == ["Available", "Out of Play", "Casualties"]
    assert (lod.track("indians_resources").hi, fitl.track("patronage").hi) == (50, 75)
    assert lod.pool("squadrons").count == 3 and fitl.pool("terror").count == 15


def test_game_data_errors_name_the_field() -> None:
    raw = copy.deepcopy(read_game_file("lod", "game.toml"))
    raw["piece"][1]["inventory"] = -1
    with pytest.raises(InputError) as caught:
        parse_game_data(raw)
    assert caught.value.path == "piece[1].inventory"
    raw = copy.deepcopy(read_game_file("fitl", "game.toml"))
    raw["box"][1]["pieces"].append("tank")
    with pytest.raises(InputError) as caught:
        parse_game_data(raw)
    assert caught.value.path == "box[1].pieces[7]"
    raw = copy.deepcopy(read_game_file("fitl", "game.toml"))
    raw["track"][0]["max"] = True
    with pytest.raises(InputError) as caught:
        parse_game_data(raw)
    assert caught.value.path == "track[0].max"


# ---------------------------------------------------------------------- primitives


def test_add_take_move_and_flip() -> None:
    state = CoinState.new("lod")
    state.move_pieces("Available", "Virginia", "militia", 3)
    assert state.pieces("Virginia", "militia", "underground") == 3
    state.flip("Virginia", "militia", 2, "underground", "active")
    assert state.pieces("Virginia", "militia") == 3
    assert state.pieces("Virginia", "militia", "active") == 2
    # Active Militia removed to Available lose their status there
    state.move_pieces("Virginia", "Available", "militia", 2, "active")
    assert state.available("militia") == 14
    assert state.holdings("Available")["militia"] == {"underground": 14}
    with pytest.raises(ValueError):
        state.take("Virginia", "militia", 2)
    with pytest.raises(ValueError):
        state.add("Virginia", "militia", -1)
    with pytest.raises(InputError) as caught:
        state.add("Virginia", "militia", 1, "tunneled")
    assert caught.value.path == "status"
    with pytest.raises(InputError):
        state.add("Atlantis", "militia")
    with pytest.raises(InputError):
        state.add("Virginia", "tank")


def test_support_primitives() -> None:
    state = CoinState.new("lod")
    assert state.shift_support("Virginia", 1) == "passive_support"
    assert state.shift_support("Virginia", 5) == "active_support"
    assert state.shift_support("Virginia", -9) == "active_opposition"
    # population-0 Reserves stay Neutral (1.6.1)
    assert state.shift_support("Northwest", 2) == "neutral"
    with pytest.raises(ValueError):
        state.set_support("Northwest", "passive_support")
    with pytest.raises(InputError):
        state.set_support("Virginia", "fervent")
    fitl = CoinState.new("fitl")
    assert fitl.shift_support("Hue -- Da Nang", 1) == "neutral"
    assert fitl.shift_support("Central Laos", -1) == "neutral"


def test_tracks_flags_lasting_and_eligibility() -> None:
    state = CoinState.new("fitl")
    state.set_track("aid", 80)  # no clamping in the primitive
    assert state.track("aid") == 80
    assert clamp(state, "aid", 80) == 75
    assert state.invariant_problems() == ["tracks.aid: 80 is outside 0-75 (1.8)"]
    state.set_capability("Cadres", "unshaded")
    state.set_capability("Cadres", "shaded")
    state.add_momentum("Typhoon Kate")
    assert state.to_json()["capabilities"] == {"Cadres": "shaded"}
    state.clear_momentum("Typhoon Kate")
    assert state.momentum == set()
    state.set_eligibility("nva", "ineligible")
    assert state.to_json()["eligibility"]["nva"] == "ineligible"
    with pytest.raises(InputError):
        state.set_eligibility("nva", "maybe")
    with pytest.raises(InputError):
        state.set_track("morale", 1)


# ---------------------------------------------------------------------- derived values


def test_lod_control_by_hand() -> None:
    state = CoinState.new("lod")
    # 1.7: Indians alone that equal or exceed the Rebellion: no Control
    state.move_pieces("Available", "Georgia", "war_party", 2)
    state.move_pieces("Available", "Georgia", "militia", 2)
    assert state.control("Georgia") is None
    # one British piece: Royalist 3 > Rebellion 2 with a British piece present
    state.move_pieces("Available", "Georgia", "tory", 1)
    assert state.control("Georgia") == "british"
    # a Patriot Fort and a Continental: Rebellion 4 > Royalist 3
    state.move_pieces("Available", "Georgia", "patriot_fort", 1)
    state.move_pieces("Available", "Georgia", "continental", 1)
    assert state.control("Georgia") == "rebellion"
    # Leaders are not pieces
    state.set_leader("Washington", "Georgia")
    assert state.faction_pieces("Georgia", "patriots") == 4


def test_fitl_control_by_hand() -> None:
    state = CoinState.new("fitl")
    # 1.7: NVA Control when NVA pieces exceed all others, VC included
    state.move_pieces("Available", "Binh Dinh", "nva_troop", 3)
    state.move_pieces("Available", "Binh Dinh", "vc_guerrilla", 2)
    assert state.control("Binh Dinh") == "nva"
    state.move_pieces("Available", "Binh Dinh", "vc_guerrilla", 1)
    assert state.control("Binh Dinh") is None
    # COIN Control when US + ARVN exceed NVA + VC: 7 > 6
    state.move_pieces("Available", "Binh Dinh", "us_troop", 4)
    state.move_pieces("Available", "Binh Dinh", "police", 3)
    assert state.control("Binh Dinh") == "coin"


def test_total_support_by_hand() -> None:
    state = CoinState.new("lod")
    # 1.6: New York (pop 2) Active Support 4, Georgia (pop 1) Passive Support 1,
    # Virginia (pop 2) Passive Opposition 2, Boston (pop 1) Active Opposition 2
    state.set_support("New York", "active_support")
    state.set_support("Georgia", "passive_support")
    state.set_support("Virginia", "passive_opposition")
    state.set_support("Boston", "active_opposition")
    assert (state.total_support(), state.total_opposition()) == (5, 4)


# ---------------------------------------------------------------------- limits


def test_may_hold_and_stacking_room() -> None:
    lod = load_scenario("lod", "1775")
    assert may_hold(lod, "tory", "West Indies") == (
        False,
        "Tories may not be in West Indies (1.4.2)",
    )
    assert may_hold(lod, "british_fort", "West Indies")[0]
    assert may_hold(lod, "french_regular", "Boston") == (
        False,
        "no French pieces on the map before the Treaty of Alliance is played (2.3.9)",
    )
    assert may_hold(lod, "village", "Savannah")[1].endswith("(1.4.2)")
    assert may_hold(lod, "continental", "Unavailable")[0] is False
    assert stacking_room(lod, "Massachusetts") == 1
    assert stacking_room(lod, "Boston") == 1
    lod.set_flag("toa_played")
    assert may_hold(lod, "french_regular", "Boston")[0]
    assert may_hold_marker(lod, "blockade", "Boston")[0]
    assert not may_hold_marker(lod, "blockade", "Virginia")[0]
    assert cap(lod, "fni") == (0, 0)  # all three Squadrons still Unavailable
    fitl = load_scenario("fitl", "short")
    assert stacking_room(fitl, "Southern Laos") == 0
    assert stacking_room(fitl, "Hue -- Da Nang") == 0
    assert may_hold(fitl, "ranger", "North Vietnam")[1].endswith("(1.4.2)")
    assert may_hold(fitl, "vc_base", "Hue -- Da Nang") == (
        False,
        "Bases may never be on a LoC (1.4.2)",
    )
    assert not may_hold(fitl, "police", "Casualties")[0]
    assert cap(fitl, "trail") == (0, 4)


# ---------------------------------------------------------------------- bad JSON


def lod_json() -> dict[str, Any]:
    return load_scenario("lod", "1775").to_json()


def fitl_json() -> dict[str, Any]:
    return load_scenario("fitl", "short").to_json()


def broken(game: str, edit: Any) -> InputError:
    j = lod_json() if game == "lod" else fitl_json()
    edit(j)
    with pytest.raises(InputError) as caught:
        state_from_json(j, game)
    return caught.value


def test_unknown_space() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["Bostn"] = {"support": "neutral", "pieces": {}, "markers": {}}

    assert broken("lod", edit).path == "spaces.Bostn"


def test_unknown_piece_type_and_status() -> None:
    def piece(j: dict[str, Any]) -> None:
        j["spaces"]["Boston"]["pieces"]["dragoon"] = 1

    def status(j: dict[str, Any]) -> None:
        j["spaces"]["Massachusetts"]["pieces"]["militia"] = {"tunneled": 1}

    def boxed(j: dict[str, Any]) -> None:
        j["boxes"]["Available"]["pieces"]["militia"] = {"underground": 11}

    assert broken("lod", piece).path == "spaces.Boston.pieces.dragoon"
    assert broken("lod", status).path == "spaces.Massachusetts.pieces.militia.tunneled"
    assert broken("lod", boxed).path == "boxes.Available.pieces.militia"


def test_negative_count() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["Boston"]["pieces"]["british_regular"] = -3

    assert broken("lod", edit).path == "spaces.Boston.pieces.british_regular"


def test_broken_stacking() -> None:
    def edit(j: dict[str, Any]) -> None:
        # Boston holds a British Fort; two Patriot Forts from Available make three
        j["spaces"]["Boston"]["pieces"]["patriot_fort"] = 2
        j["boxes"]["Available"]["pieces"]["patriot_fort"] = 3

    error = broken("lod", edit)
    assert error.path == "spaces.Boston.pieces"
    assert "1.4.2" in error.message


def test_piece_conservation_broken() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["Virginia"]["pieces"]["militia"] = {"underground": 2}

    error = broken("lod", edit)
    assert error.path == "pieces.militia"
    assert "16" in error.message and "15" in error.message


def test_indian_in_a_city() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["Savannah"]["pieces"]["village"] = 1
        j["boxes"]["Available"]["pieces"]["village"] = 11

    error = broken("lod", edit)
    assert error.path == "spaces.Savannah.pieces.village"
    assert "(1.4.2)" in str(error)


def test_french_on_the_map_before_the_treaty() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["Virginia"]["pieces"]["french_regular"] = 1
        j["boxes"]["Unavailable"]["pieces"]["french_regular"] = 14

    error = broken("lod", edit)
    assert error.path == "spaces.Virginia.pieces.french_regular"
    assert "(2.3.9)" in str(error)

    def after(j: dict[str, Any]) -> None:
        edit(j)
        j["flags"]["toa_played"] = True

    j = lod_json()
    after(j)
    assert state_from_json(j, "lod").pieces("Virginia", "french_regular") == 1


def test_only_some_pieces_in_the_west_indies() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["boxes"]["West Indies"]["pieces"]["tory"] = 1
        j["boxes"]["Available"]["pieces"]["tory"] = 6

    assert broken("lod", edit).path == "boxes.West Indies.pieces.tory"


def test_us_in_north_vietnam() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["North Vietnam"]["pieces"]["us_troop"] = 1
        j["boxes"]["Available"]["pieces"]["us_troop"] = 11

    error = broken("fitl", edit)
    assert error.path == "spaces.North Vietnam.pieces.us_troop"
    assert "(1.4.2)" in str(error)


def test_base_on_a_loc() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["spaces"]["Saigon -- Can Tho"]["pieces"]["vc_base"] = {"tunneled": 1}
        j["boxes"]["Available"]["pieces"]["vc_base"] = 3

    assert broken("fitl", edit).path == "spaces.Saigon -- Can Tho.pieces.vc_base"


def test_too_many_tunnels() -> None:
    def edit(j: dict[str, Any]) -> None:
        for space in ("Central Laos", "Southern Laos", "The Fishhook", "The Parrot's Beak"):
            j["spaces"][space]["pieces"]["nva_base"] = {"tunneled": 1}
        j["spaces"]["Southern Laos"]["pieces"]["nva_base"] = {"tunneled": 2}
        j["spaces"]["North Vietnam"]["pieces"]["nva_base"] = {"tunneled": 2}
        j["spaces"]["Quang Tri-Thua Thien"]["pieces"]["nva_base"] = {"tunneled": 1}

    error = broken("fitl", edit)
    assert error.path == "pieces"
    assert "(1.4.4)" in str(error)


def test_track_past_cap() -> None:
    def edit(j: dict[str, Any]) -> None:
        j["tracks"]["british_resources"] = 51

    error = broken("lod", edit)
    assert error.path == "tracks.british_resources"
    assert "(1.8)" in str(error)

    def trail(j: dict[str, Any]) -> None:
        j["tracks"]["trail"] = 5

    assert broken("fitl", trail).path == "tracks.trail"


def test_fni_rules() -> None:
    def before(j: dict[str, Any]) -> None:
        j["tracks"]["fni"] = 1

    error = broken("lod", before)
    assert error.path == "tracks.fni" and "(1.9)" in str(error)

    def no_squadrons(j: dict[str, Any]) -> None:
        j["tracks"]["fni"] = 1
        j["flags"]["toa_played"] = True

    assert "above the 0" in broken("lod", no_squadrons).message

    def blockade_early(j: dict[str, Any]) -> None:
        j["boxes"]["Unavailable"]["markers"]["blockade"] = 2
        j["spaces"]["Boston"]["markers"]["blockade"] = 1

    assert broken("lod", blockade_early).path == "spaces.Boston.markers.blockade"

    def lost_marker(j: dict[str, Any]) -> None:
        j["boxes"]["Unavailable"]["markers"]["blockade"] = 2

    assert broken("lod", lost_marker).path == "markers.squadrons"


def test_always_neutral_space_and_leaders() -> None:
    def reserve(j: dict[str, Any]) -> None:
        j["spaces"]["Florida"]["support"] = "active_support"

    assert broken("lod", reserve).path == "spaces.Florida.support"

    def two_leaders(j: dict[str, Any]) -> None:
        j["leaders"]["Howe"] = "Boston"

    assert broken("lod", two_leaders).path == "leaders.Howe"


def test_wrong_shapes() -> None:
    for edit, path in [
        (lambda j: j.update(game="fitl"), "game"),
        (lambda j: j.pop("tracks"), "tracks"),
        (lambda j: j.update(extra=1), "extra"),
        (lambda j: j["tracks"].update(fni="1"), "tracks.fni"),
        (lambda j: j["flags"].update(toa_played=1), "flags.toa_played"),
        (lambda j: j["eligibility"].update(french="asleep"), "eligibility.french"),
        (lambda j: j["leaders"].update(Gage="Moscow"), "leaders.Gage"),
        (lambda j: j["lists"].update(brilliant_strokes=["Ace"]), "lists.brilliant_strokes[0]"),
        (lambda j: j.update(momentum="x"), "momentum"),
        (lambda j: j["capabilities"].update(X="both"), "capabilities.X"),
        (lambda j: j["spaces"]["Boston"].update(support="loyal"), "spaces.Boston.support"),
        (lambda j: j["spaces"]["Boston"]["pieces"].update(tory=True), "spaces.Boston.pieces.tory"),
    ]:
        assert broken("lod", edit).path == path


# ---------------------------------------------------------------------- copies and round trips


def test_copy_independence() -> None:
    state = load_scenario("lod", "1778")
    before = state.to_json()
    other = state.copy()
    assert other == state
    other.move_pieces("Available", "Virginia", "militia", 1)
    other.shift_support("Virginia", 1)
    other.set_track("fni", 1)
    other.set_flag("toa_played", False)
    other.set_capability("Something", "shaded")
    other.add_momentum("Something Else")
    other.set_eligibility("french", "ineligible")
    other.set_leader("Washington", None)
    other.set_card_list("brilliant_strokes", [])
    other.move_marker("West Indies", "Boston", "blockade")
    assert state.to_json() == before
    assert other != state


def random_legal_edit(state: CoinState, rng: random.Random) -> None:
    """One primitive edit chosen so that the state stays sound (asked of the limits)."""
    rules = state.rules
    kind = rng.randrange(6)
    if kind <= 2:
        piece = rng.choice(rules.piece_types)
        sources = [loc for loc in rules.locations if state.pieces(loc, piece.id)]
        src = rng.choice(sources)
        dst = rng.choice(rules.locations)
        if not may_hold(state, piece.id, dst)[0]:
            return
        if piece.stacking and src != dst and stacking_room(state, dst) < 1:
            return
        statuses = [s for s in piece.statuses if state.pieces(src, piece.id, s)]
        status = rng.choice(statuses) if src in rules.spaces else None
        new_status = rng.choice(piece.statuses) if dst in rules.spaces else None
        if new_status == "tunneled" and status != "tunneled":
            tunnels = sum(state.pieces(s, p.id, "tunneled") for s in rules.spaces
                          for p in rules.piece_types if p.can_tunnel)  # fmt: skip
            if tunnels >= 6:
                return
        state.move_pieces(src, dst, piece.id, 1, status, new_status)
    elif kind == 3:
        state.shift_support(rng.choice(rules.spaces), rng.choice([-2, -1, 1, 2]))
    elif kind == 4:
        track = rng.choice(state.data.tracks)
        lo, hi = cap(state, track.id)
        state.set_track(track.id, rng.randint(lo, hi))
    else:
        state.set_eligibility(rng.choice(rules.faction_ids), rng.choice(["eligible", "ineligible"]))
        if rng.random() < 0.3:
            state.add_momentum(f"M{rng.randrange(5)}")
        if rng.random() < 0.3:
            state.set_capability(f"C{rng.randrange(5)}", rng.choice(["unshaded", "shaded"]))


@pytest.mark.parametrize(("game", "name"), [("lod", "1775"), ("lod", "1778"), ("fitl", "short")])
def test_round_trip_after_random_edits(game: str, name: str) -> None:
    rng = random.Random(f"{game}{name}")
    state = load_scenario(game, name)
    for step in range(300):
        random_legal_edit(state, rng)
        assert state.invariant_problems() == [], step
        if step % 25 == 0:
            j = state.to_json()
            again = state_from_json(json.loads(json.dumps(j)), game)
            assert again == state and again.to_json() == j
            copied = state.copy()
            assert copied == state and copied.to_json() == j


# ---------------------------------------------------------------------- mutated JSON

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 80) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=3),
    max_leaves=6,
)  # fmt: skip


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            out.extend(paths(inner, (*prefix, key)))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            out.extend(paths(inner, (*prefix, index)))
    return out


BASES = {"lod": lod_json(), "fitl": fitl_json()}
PATHS = {game: paths(j)[1:] for game, j in BASES.items()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(["lod", "fitl"]))
def test_mutated_json_loads_or_raises_input_error(data: st.DataObject, game: str) -> None:
    j = copy.deepcopy(BASES[game])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(PATHS[game]))
        holder: Any = j
        try:
            for key in path[:-1]:
                holder = holder[key]
            action = data.draw(st.sampled_from(["replace", "delete", "add", "number"]))
            if action == "replace":
                holder[path[-1]] = data.draw(JSON_VALUES)
            elif action == "delete":
                del holder[path[-1]]
            elif action == "number" and isinstance(holder[path[-1]], int):
                holder[path[-1]] += data.draw(st.integers(-3, 3))
            elif isinstance(holder, dict):
                holder[data.draw(st.text(max_size=10))] = data.draw(JSON_VALUES)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or reshaped this path
    try:
        state = state_from_json(j, game)
    except InputError:
        return
    assert state.invariant_problems() == []
    assert state_from_json(state.to_json(), game) == state
