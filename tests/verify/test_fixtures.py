"""Edge-case fixtures for Liberty or Death and Fire in the Lake: generated, checked,
deterministic, schema-valid, and worked by hand for each rule."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from legalis.model.coin.limits import cap
from legalis.model.coin.scenarios import load_scenario
from legalis.model.coin.state import CoinState, state_from_json
from legalis.model.errors import InputError
from legalis.verify.fixtures import (
    FIXTURE_GAMES,
    FIXTURE_SCHEMA,
    MANIFEST_SCHEMA,
    RULES,
    UNCOVERED_RULES,
    Manifest,
    build_fixtures,
    check_fixture,
    check_fixture_data,
    check_manifest,
    coverage,
    generate_fixtures,
)
from legalis.verify.sequence_fixtures import SEQUENCE_RULES, SEQUENCE_SCHEMA

Sets = dict[str, tuple[Path, Manifest]]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Sets:
    out: Sets = {}
    for game in FIXTURE_GAMES:
        folder = tmp_path_factory.mktemp(f"fixtures-{game}")
        out[game] = folder, generate_fixtures(game, folder, per_rule=3, seed=7)
    return out


def load(path: Path) -> dict[str, Any]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(raw, dict)
    return raw


def fixtures_of(generated: Sets, game: str) -> dict[tuple[str, str, int], dict[str, Any]]:
    """Every fixture of a game by (rule, boundary, card)."""
    folder, manifest = generated[game]
    return {
        (e["rule"], e["boundary"], e["card"]): load(folder / e["file"]) for e in manifest.fixtures
    }


def sample(fixture: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
    """The legal sample whose move has these steps."""
    found = [s for s in fixture["sample_legal"] if s["move"]["steps"] == steps]
    assert found, [s["move"]["steps"] for s in fixture["sample_legal"]]
    return found[0]


def refused(fixture: dict[str, Any], steps: list[Any]) -> str:
    """The rule under which the illegal sample with these steps is refused."""
    rules = [s["rule"] for s in fixture["sample_illegal"] if s["move"]["steps"] == steps]
    assert rules, [s["move"]["steps"] for s in fixture["sample_illegal"]]
    return str(rules[0])


def state_of(fixture: dict[str, Any]) -> CoinState:
    return state_from_json(fixture["state"], fixture["game"])


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_every_fixture_holds(generated: Sets, game: str) -> None:
    folder, manifest = generated[game]
    assert manifest.fixtures
    for entry in manifest.fixtures:
        assert check_fixture(folder / entry["file"]) == [], entry["id"]
    assert check_manifest(folder / "manifest.json") == []


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_files_validate_against_the_schemas(generated: Sets, game: str) -> None:
    folder, manifest = generated[game]
    jsonschema.Draft202012Validator.check_schema(FIXTURE_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(MANIFEST_SCHEMA)
    jsonschema.validate(load(folder / "manifest.json"), MANIFEST_SCHEMA)
    for entry in manifest.fixtures:
        jsonschema.validate(load(folder / entry["file"]), FIXTURE_SCHEMA)


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_states_are_sound_and_round_trip(generated: Sets, game: str) -> None:
    folder, manifest = generated[game]
    for entry in manifest.fixtures:
        raw = load(folder / entry["file"])
        assert raw["game"] == game
        state = state_from_json(raw["state"], game)
        assert state.invariant_problems() == []
        assert state.to_json() == raw["state"]


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_in_memory_fixtures_are_the_files(generated: Sets, game: str) -> None:
    folder, written = generated[game]
    manifest, fixtures = build_fixtures(game, per_rule=3, seed=7)
    assert manifest.to_json() == written.to_json() == load(folder / "manifest.json")
    entries = [*manifest.fixtures, *manifest.sequence]
    assert [load(folder / e["file"]) for e in entries] == fixtures
    assert all(check_fixture_data(f, f"memory:{f['id']}") == [] for f in fixtures)


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_every_rule_of_the_game_is_present(generated: Sets, game: str) -> None:
    _, manifest = generated[game]
    assert {e["rule"] for e in manifest.fixtures} == set(RULES[game])
    assert {e["boundary"] for e in manifest.fixtures} == {"at", "inside"}


def test_earlier_lod_boundaries_hold(generated: Sets) -> None:
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    for (rule, boundary, _), fixture in fixtures_of(generated, "lod").items():
        by_key.setdefault((rule, boundary), fixture)  # the first of each rule and boundary
    # stacking: the target space full (2) and one short (1)
    full = state_of(by_key["1.4.2 stacking", "at"])
    short = state_of(by_key["1.4.2 stacking", "inside"])
    assert (full.stacking_count("New York City"), short.stacking_count("New York City")) == (2, 1)
    # resources at the cap and at 0, left there
    caps = by_key["1.8 caps", "at"]
    assert caps["state"]["tracks"]["patriots_resources"] == 50
    assert caps["state"]["tracks"]["british_resources"] == 0
    after = caps["sample_legal"][0]["tracks_after"]
    assert (after["patriots_resources"], after["british_resources"]) == (50, 0)
    # none Available and one Available
    none = by_key["5.1.1 available", "at"]["state"]["boxes"]["Available"]["pieces"]
    one = by_key["5.1.1 available", "inside"]["state"]["boxes"]["Available"]["pieces"]
    assert "militia" not in none and one["militia"] == 1
    # pieces only in Unavailable: placed from the named source
    only = by_key["5.1.1 unavailable", "at"]
    assert "british_regular" not in only["state"]["boxes"]["Available"]["pieces"]
    assert ["Unavailable", "british_regular", "active", -3] in (
        only["sample_legal"][0]["pieces_changed"]
    )
    # Treaty of Alliance: refused before, placed after
    before, played = by_key["2.3.9 ToA", "at"], by_key["2.3.9 ToA", "inside"]
    assert before["sample_legal"][0]["move"]["steps"] == []
    assert before["sample_illegal"][0]["move"]["steps"] == [[["Philadelphia", "french_regular", 2]]]
    assert played["sample_legal"][0]["move"]["steps"] == [[["Philadelphia", "french_regular", 2]]]
    # 5.1.3: one Militia where the text asks for 2
    partial = by_key["5.1.3 partial", "at"]
    assert partial["sample_legal"][0]["move"]["steps"] == [
        [["New Jersey", "militia:underground", 1]]
    ]


def triangle(n: int) -> int:
    return n * (n + 1) // 2


def test_lod_sources_worked_by_hand(generated: Sets) -> None:
    fixtures = fixtures_of(generated, "lod")
    for boundary, total in (("at", 3), ("inside", 2)):
        fixture = fixtures["5.1.1 casualties", boundary, 4]
        held = fixture["state"]["boxes"]["Casualties"]["pieces"]
        regulars, tories = held.get("british_regular", 0), held.get("tory", 0)
        assert regulars + tories == total
        # 5.1.1: up to 3 pieces, drawn from Casualties only: a Regulars and b Tories with
        # a <= the Regulars there, b <= the Tories there, each split over the 2 Colonies
        # with a British Fort in a + 1 and b + 1 ways
        assert fixture["expected_count"] == triangle(regulars + 1) * triangle(tories + 1)
        for legal in fixture["sample_legal"]:
            assert all(change[0] != "Available" for change in legal["pieces_changed"])
            assert legal["deciders"] == ["british"]
    # 5.1.1: 3 pieces where Casualties hold only 2
    inside = fixtures["5.1.1 casualties", "inside", 4]
    three = [[["New York", "british_regular", 2], ["New York", "tory", 1]]]
    assert refused(inside, three) == "5.1.1"

    at = fixtures["5.1.1 west indies", "at", 5]
    # 5.1.1: both Regulars from the West Indies to one of the 7 coastal Cities
    assert at["expected_count"] == 7
    both = sample(at, [[["Savannah", "british_regular", 2]]])
    assert both["pieces_changed"] == [
        ["Savannah", "british_regular", "active", 2],
        ["West Indies", "british_regular", "active", -2],
    ]
    inside = fixtures["5.1.1 west indies", "inside", 5]
    # 5.1.3: the one Regular there is placed; 5.1.1: not 2
    assert sample(inside, [[["Savannah", "british_regular", 1]]])["deciders"] == ["british"]
    assert refused(inside, [[["Boston", "british_regular", 2]]]) == "5.1.1"


def test_lod_choices_and_lasting_effects_worked_by_hand(generated: Sets) -> None:
    fixtures = fixtures_of(generated, "lod")
    at = fixtures["5.1 chooser", "at", 22]
    assert at["faction"] == "british" and at["expected_count"] == 1
    only = at["sample_legal"][0]
    # 5.1: the text names the Patriots, so they decide, though the British execute
    assert only["deciders"] == ["patriots"]
    assert (
        only["tracks_after"]["british_resources"] == at["state"]["tracks"]["british_resources"] + 2
    )
    inside = fixtures["5.1 chooser", "inside", 22]
    # 5.1: the Patriots pick 2 of the 3 Militia: 3 ways
    assert inside["expected_count"] == 3
    assert {tuple(s["deciders"]) for s in inside["sample_legal"]} == {("patriots",)}

    march = {
        "faction": "british",
        "action": "march",
        "kind": "command",
        "limited": False,
        "spaces": ["New York", "New Jersey"],
        "pays_resources": False,
        "modifiers": {"where_spaces": 1},  # "into one Colony": one of the two
    }
    frozen = fixtures["5.1.2", "at", 18]
    assert frozen["state"]["momentum"] == ["The Rivers Freeze Early"]
    # 5.1.2: the current Event wins: the free March is granted though the Momentum in
    # force forbids British Marches, and the Momentum stays
    (granted,) = frozen["sample_legal"]
    assert granted["free_actions_after"] == [march]
    assert granted["momentum_after"] == ["The Rivers Freeze Early"]
    assert fixtures["5.1.2", "inside", 18]["sample_legal"][0]["momentum_after"] == []

    for boundary, resources in (("at", 0), ("inside", 1)):
        (free,) = fixtures["5.3", boundary, 18]["sample_legal"]
        # 5.3: a free Command bears no Resource cost
        assert free["tracks_after"]["british_resources"] == resources
        assert free["free_actions_after"] == [march]
    (raid,) = fixtures["5.3", "at", 20]["sample_legal"]
    # 5.3: the Event may give the free action to a Faction other than the executing one
    assert [(g["faction"], g["action"], g["kind"]) for g in raid["free_actions_after"]] == [
        ("indians", "raid", "command"),
        ("indians", "plunder", "special_activity"),
    ]

    met = fixtures["5.1.4 precondition", "at", 15]
    spaces = [s for s, v in met["state"]["spaces"].items() if v["pieces"].get("continental")]
    assert spaces == ["Massachusetts", "New Jersey"]
    (stroke,) = met["sample_legal"]
    # 5.1.4: Continentals in 2 spaces meet the precondition: a free Limited Battle in one
    # of them, then a free Partisans
    battle, partisans = stroke["free_actions_after"]
    assert (battle["action"], battle["limited"], battle["spaces"]) == ("battle", True, spaces)
    assert (partisans["action"], partisans["kind"]) == ("partisans", "special_activity")
    unmet = fixtures["5.1.4 precondition", "inside", 15]
    # 5.1.4: in 1 space the precondition fails: the card may not be played at all
    assert unmet["expected_count"] == 0 and unmet["sample_legal"] == []
    empty = {"card": 15, "side": "unshaded", "faction": "patriots", "steps": []}
    assert {"move": empty, "rule": "5.1.4"} in [
        {"move": sample["move"], "rule": sample["rule"]} for sample in unmet["sample_illegal"]
    ]


def test_fitl_pieces_worked_by_hand(generated: Sets) -> None:
    fixtures = fixtures_of(generated, "fitl")
    full = fixtures["1.4.2 stacking", "at", 31]
    assert state_of(full).stacking_count("Pleiku-Darlac") == 2
    # 1.4.2: Pleiku-Darlac and Binh Dinh hold 2 Bases: the one US Base goes to Khanh Hoa
    assert full["expected_count"] == 1
    assert full["sample_legal"][0]["move"]["steps"] == [[["Khanh Hoa", "us_base", 1]]]
    both = [[["Pleiku-Darlac", "us_base", 1], ["Khanh Hoa", "us_base", 1]]]
    assert refused(full, both) == "5.1.1"
    room = fixtures["1.4.2 stacking", "inside", 31]
    assert state_of(room).stacking_count("Pleiku-Darlac") == 1
    assert [s["move"]["steps"] for s in room["sample_legal"]] == [both]

    for boundary, open_base in (("at", 0), ("inside", 1)):
        fixture = fixtures["5.1.1 tunneled", boundary, 10]
        # 5.1.1: "even if Tunneled": any of the 3 Bases may go, Tunneled or not
        assert fixture["expected_count"] == 3
        statuses = [s["pieces_changed"][0][2] for s in fixture["sample_legal"]]
        assert statuses.count("active") == open_base
        assert statuses.count("tunneled") == 3 - open_base
    outside = [[["Binh Dinh", "vc_base:active", 1]]]  # 5.1.1: only the named spaces
    assert refused(fixtures["5.1.1 tunneled", "at", 10], outside) == "5.1.1"

    place = fixtures["5.1.1 north vietnam", "at", 9]
    # 1.4.2: nothing, or 1 or 2 Irregulars in Central or Southern Laos; never North Vietnam
    assert place["expected_count"] == 5
    assert refused(place, [[["North Vietnam", "irregular", 2]]]) == "1.4.2"
    move = fixtures["5.1.1 north vietnam", "at", 32]
    # 1.4.2: 0, 1 or 2 Rangers, to Central Laos only; 5.1: the NVA execute and decide
    assert move["expected_count"] == 3
    # 5.1: the departure names the status taken; the arrival the piece type
    two = [[["Quang Tri-Thua Thien", "ranger:underground", 2]], [["Central Laos", "ranger", 2]]]
    assert sample(move, two)["deciders"] == ["nva", "nva"]
    into_north = [
        [["Quang Tri-Thua Thien", "ranger:underground", 2]],
        [["North Vietnam", "ranger", 2]],
    ]
    assert refused(move, into_north) == "1.4.2"


def test_fitl_tracks_and_lasting_effects_worked_by_hand(generated: Sets) -> None:
    fixtures = fixtures_of(generated, "fitl")
    top = cap(CoinState.new("fitl"), "aid")[1]
    assert top == cap(CoinState.new("fitl"), "patronage")[1] == 75
    for boundary, before in (("at", top), ("inside", top - 1)):
        fixture = fixtures["1.8 caps", boundary, 14]
        assert fixture["state"]["tracks"]["aid"] == before
        after = fixture["sample_legal"][0]["tracks_after"]
        # 1.8: Aid +12 and Patronage +3 stop at 75
        assert (after["aid"], after["patronage"]) == (top, top)
    trail = fixtures["1.8 caps", "at", 15]["sample_legal"][0]["tracks_after"]
    assert (trail["trail"], trail["nva_resources"]) == (4, 75)  # 1.8: the Trail stops at 4

    storm = fixtures["5.1.2", "at", 7]
    (lift,) = storm["sample_legal"]
    # 5.1.2: the free Air Lift is granted though Coastal Storm Season forbids US Air Lifts
    assert lift["free_actions_after"] == [
        {
            "faction": "us",
            "action": "air_lift",
            "kind": "special_activity",
            "limited": False,
            "spaces": None,
            "pays_resources": False,
        }
    ]
    assert lift["momentum_after"] == ["Coastal Storm Season"]

    for boundary, momentum in (
        ("at", ["Coastal Storm Season", "Rolling Interdiction"]),
        ("inside", ["Rolling Interdiction"]),
    ):
        fixture = fixtures["5.4", boundary, 6]
        (only,) = fixture["sample_legal"]
        # 5.4: any number of Momentum Events may be in force at once; Trail -1
        assert only["momentum_after"] == momentum
        assert only["tracks_after"]["trail"] == fixture["state"]["tracks"]["trail"] - 1


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_same_seed_same_bytes(tmp_path: Path, game: str) -> None:
    first = generate_fixtures(game, tmp_path / "a", seed=3)
    generate_fixtures(game, tmp_path / "b", seed=3)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert len(names) == len(first.fixtures) + len(first.sequence) + 1
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_per_rule_limits_the_set(game: str) -> None:
    manifest, fixtures = build_fixtures(game, per_rule=1)
    assert sorted(e["rule"] for e in manifest.fixtures) == sorted(RULES[game])
    assert {e["boundary"] for e in manifest.fixtures} == {"at"}
    entries = [*manifest.fixtures, *manifest.sequence]
    assert [f["id"] for f in fixtures] == [e["id"] for e in entries]
    # LoD: one Sequence of Play fixture per rule too, the first (``at``) of each
    expected = sorted(SEQUENCE_RULES) if game == "lod" else []
    assert sorted(e["rule"] for e in manifest.sequence) == expected


Tamper = Callable[[dict[str, Any]], None]


def _set_legal(key: str, value: Any) -> Tamper:
    return lambda raw: raw["sample_legal"][0].__setitem__(key, value)


def _other_free_action(raw: dict[str, Any]) -> None:
    raw["sample_legal"][0]["free_actions_after"][0]["faction"] = "patriots"


@pytest.mark.parametrize(
    ("rule", "tamper", "expected"),
    [
        ("1.4.2 stacking", lambda raw: raw.update(expected_count=raw["expected_count"] + 1),
         "count"),
        ("1.4.2 stacking", lambda raw: raw["sample_illegal"].__setitem__(
            0, {**raw["sample_illegal"][0], "move": raw["sample_legal"][0]["move"]}),
         "accepted"),
        ("1.4.2 stacking",
         lambda raw: raw["sample_legal"][0]["move"]["steps"][0][0].__setitem__(0, "Quebec City"),
         "refused"),
        ("1.4.2 stacking",
         lambda raw: raw["state"]["spaces"]["New York City"]["pieces"].update(village=1),
         "state unsound"),
        ("1.4.2 stacking", lambda raw: raw.pop("card"), "schema"),
        ("5.1 chooser", _set_legal("deciders", ["british"]), "deciders"),
        ("5.1 chooser", _set_legal("deciders", []), "deciders"),
        ("5.3", _other_free_action, "free actions after"),
        ("5.3", _set_legal("free_actions_after", []), "free actions after"),
        ("5.1.2", _set_legal("momentum_after", []), "momentum after"),
        ("5.1.2", lambda raw: raw["sample_legal"][0].pop("deciders"), "schema"),
        # the state and moves are held to the published documents (docs/schemas)
        ("1.4.2 stacking", lambda raw: raw["state"]["spaces"].update(Atlantis={}),
         "schema: state.spaces"),
        ("1.4.2 stacking",
         lambda raw: raw["sample_legal"][0]["move"]["steps"][0][0].__setitem__(2, 0),
         "schema: sample_legal[0].move.steps"),
    ],
    ids=["count", "illegal-accepted", "legal-refused", "unsound", "schema", "wrong-decider",
         "no-decider", "wrong-free-action", "free-action-dropped", "momentum", "no-deciders",
         "state-document", "move-document"],
)  # fmt: skip
def test_tampered_fixture_is_caught(
    generated: Sets, tmp_path: Path, rule: str, tamper: Tamper, expected: str
) -> None:
    folder, manifest = generated["lod"]
    entry = next(e for e in manifest.fixtures if e["rule"] == rule)
    raw = load(folder / entry["file"])
    tamper(raw)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    problems = check_fixture(path)
    assert problems and any(expected in problem for problem in problems), problems
    assert check_fixture_data(raw, str(path)) == problems


def test_in_memory_check_names_its_source() -> None:
    _, fixtures = build_fixtures("fitl", per_rule=1)
    raw = copy.deepcopy(fixtures[0])
    raw["state"]["spaces"]["Saigon"]["pieces"]["us_base"] = 5
    (problem,) = check_fixture_data(raw, "request.fixtures[0]")
    assert problem.startswith("state unsound: request.fixtures[0]:")


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_coverage_is_in_the_manifest(generated: Sets, game: str) -> None:
    folder, manifest = generated[game]
    report = load(folder / "manifest.json")["coverage"]
    assert report == coverage(manifest) == manifest.coverage
    assert set(report["rules"]["exercised"]) == set(RULES[game])
    assert set(report["rules"]["not_exercised"]) == set(UNCOVERED_RULES[game])
    effects = report["effects"]
    assert not set(effects["exercised"]) & set(effects["not_exercised"])
    if game == "lod":
        assert {"place", "remove", "replace", "adjust", "free", "if"} <= set(effects["exercised"])
        assert "move" in effects["not_exercised"]
    else:
        assert {"place", "remove", "move", "adjust", "free", "lasting"} <= set(effects["exercised"])


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="allowed: lod, fitl"):
        generate_fixtures("sevenyears", tmp_path / "none")
    assert not (tmp_path / "none").exists()
    with pytest.raises(InputError, match="allowed: lod, fitl"):
        coverage({"game": "eupop", "fixtures": []})
    with pytest.raises(InputError):
        build_fixtures("lod", per_rule=0)
    assert check_fixture(tmp_path / "missing.json")[0].startswith("cannot read")
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    assert check_fixture(listed)[0].startswith("schema")


# ---------------------------------------------------------------------- Sequence of Play


def sequence_of(generated: Sets) -> dict[tuple[str, str], dict[str, Any]]:
    folder, manifest = generated["lod"]
    return {(e["rule"], e["boundary"]): load(folder / e["file"]) for e in manifest.sequence}


def moves_of(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    return [sample["move"] for sample in fixture["sample_legal"]]


def test_sequence_fixtures_cover_their_rules_and_validate(generated: Sets) -> None:
    folder, _ = generated["lod"]
    found = sequence_of(generated)
    assert {rule for rule, _ in found} == set(SEQUENCE_RULES)
    jsonschema.Draft202012Validator.check_schema(SEQUENCE_SCHEMA)
    for fixture in found.values():
        jsonschema.validate(fixture, SEQUENCE_SCHEMA)
        # the groups add up to the count, and every fixture holds against the engine
        if fixture["expected_groups"]:
            assert sum(fixture["expected_groups"].values()) == fixture["expected_count"]
    assert check_manifest(folder / "manifest.json") == []
    assert generated["fitl"][1].sequence == []


def test_sequence_no_resources_worked_by_hand(generated: Sets) -> None:
    fixture = sequence_of(generated)["2.3.4 no resources", "at"]
    assert fixture["state"]["board"]["tracks"]["patriots_resources"] == 0
    assert fixture["to_move"] == "patriots" and fixture["state"]["acted"] == []
    # 2.3.4: the 1st Eligible may Pass or execute the Event (card 33 prints one side,
    # with one execution here); every Patriot Command costs Resources (3.1): none
    assert fixture["expected_groups"] == {"Event (unshaded)": 1, "Pass": 1}
    assert {"type": "pass", "faction": "patriots"} in moves_of(fixture)
    assert fixture["sample_illegal"] and {s["rule"] for s in fixture["sample_illegal"]} == {"3.1"}


def test_sequence_pass_chain_worked_by_hand(generated: Sets) -> None:
    fixture = sequence_of(generated)["2.3.3 pass chain", "at"]
    state = fixture["state"]
    # three Factions passed, the French are the last Eligible (2.3.3)
    assert state["to_ask"] == ["french"] and state["acted"] == []
    start = load_scenario("lod", "1775")
    gains = {"patriots": 1, "indians": 1, "british": 2}
    for faction, gain in gains.items():
        track = f"{faction}_resources"
        assert state["board"]["tracks"][track] == start.track(track) + gain
    # 2.3.3: the last Eligible Faction passes too: the card ends, every Faction stays
    # Eligible (2.3.6), the French gain 2, and the card on deck is played (2.3.7)
    (after,) = [s["after"] for s in fixture["sample_legal"] if s["move"]["type"] == "pass"]
    assert set(after["eligibility"].values()) == {"eligible"}
    assert after["resources"]["french"] == state["board"]["tracks"]["french_resources"] + 2
    assert after["card"]["number"] == state["on_deck"] and after["phase"] == "roll"
    # 2.3.4: the French, before the Treaty, may take only their two Commands (2.3.9)
    commands = {g for g in fixture["expected_groups"] if g.startswith("Command")}
    assert commands == {"Command: Agent mobilization", "Command: Hortalez"}


def test_sequence_trump_worked_by_hand(generated: Sets) -> None:
    fixture = sequence_of(generated)["2.3.8 trump", "at"]
    assert fixture["state"]["stroke"] == ["patriots", "Patriot Brilliant Stroke"]
    # 2.3.8: the British may Trump the Patriots: play it, or let the Patriots' stand
    assert fixture["to_move"] == "british" and fixture["expected_count"] == 2
    assert {m["type"] for m in moves_of(fixture)} == {"stroke", "decline"}
    after = {s["move"]["type"]: s["after"] for s in fixture["sample_legal"]}
    # Trumped, the British card is carried out; declined, the Patriots' is
    assert after["stroke"]["to_move"] == "british"
    assert after["decline"]["to_move"] == "patriots"


def test_sequence_treaty_threshold_worked_by_hand(generated: Sets) -> None:
    at = sequence_of(generated)["2.3.9 threshold", "at"]
    inside = sequence_of(generated)["2.3.9 threshold", "inside"]
    for fixture, preparations in ((at, 15), (inside, 16)):
        board = fixture["state"]["board"]
        available = board["boxes"]["Available"]["pieces"].get("french_regular", 0)
        blockades = board["boxes"]["West Indies"].get("markers", {}).get("blockade", 0)
        assert available + blockades + board["tracks"]["cbc"] == preparations
    # 2.3.9: more than 15: at 15 only the refusal, at 16 the Treaty may be played
    assert at["expected_groups"] == {"Decline": 1}
    assert [s["rule"] for s in at["sample_illegal"]] == ["2.3.9"]
    assert inside["expected_groups"] == {"Decline": 1, "Stroke": 1}
    treaty = {"type": "stroke", "faction": "french", "card": "Treaty of Alliance"}
    assert treaty in moves_of(inside)


def test_sequence_winter_victory_worked_by_hand(generated: Sets) -> None:
    fixture = sequence_of(generated)["6.1 victory", "at"]
    state = fixture["state"]
    # 2.3.7: the Winter Quarters card revealed was switched in and is played now
    assert state["stage"] == "roll" and state["card_title"] is not None
    assert state["card"] not in state["deck"] and fixture["to_move"] == "chance"
    # 7.2: Support exceeds Opposition by more than 10 and the CRC exceeds the CBC
    board = state_from_json(state["board"], "lod")
    assert board.total_support() - board.total_opposition() > 10
    assert board.track("crc") > board.track("cbc")
    (sample,) = fixture["sample_legal"]
    result = sample["after"]["result"]
    # 6.1: the Victory Check ends the game, the British win (7.2)
    assert sample["after"]["phase"] == "over"
    assert result["winner"] == "british" and result["rule"] == "7.2"


def test_a_tampered_sequence_fixture_is_caught(generated: Sets) -> None:
    fixture = copy.deepcopy(sequence_of(generated)["2.3.9 threshold", "at"])
    fixture["expected_count"] = 2
    fixture["expected_groups"] = {"Decline": 1, "Stroke": 1}
    problems = check_fixture_data(fixture, "tampered")
    assert any(p.startswith("count") for p in problems)
    assert any(p.startswith("groups") for p in problems)
