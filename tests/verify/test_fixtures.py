"""Edge-case fixtures for Liberty or Death: generated, checked, deterministic, schema-valid."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from legalis.model.coin.state import state_from_json
from legalis.model.errors import InputError
from legalis.verify.fixtures import (
    FIXTURE_SCHEMA,
    MANIFEST_SCHEMA,
    RULES,
    Manifest,
    check_fixture,
    check_manifest,
    coverage,
    generate_fixtures,
)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Manifest]:
    folder = tmp_path_factory.mktemp("fixtures")
    return folder, generate_fixtures("lod", folder, per_rule=3, seed=7)


def load(path: Path) -> dict[str, object]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(raw, dict)
    return raw


def test_every_fixture_holds(generated: tuple[Path, Manifest]) -> None:
    folder, manifest = generated
    assert manifest.fixtures
    for entry in manifest.fixtures:
        assert check_fixture(folder / entry["file"]) == [], entry["id"]
    assert check_manifest(folder / "manifest.json") == []


def test_files_validate_against_the_schemas(generated: tuple[Path, Manifest]) -> None:
    folder, manifest = generated
    jsonschema.Draft202012Validator.check_schema(FIXTURE_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(MANIFEST_SCHEMA)
    jsonschema.validate(load(folder / "manifest.json"), MANIFEST_SCHEMA)
    for entry in manifest.fixtures:
        jsonschema.validate(load(folder / entry["file"]), FIXTURE_SCHEMA)


def test_states_are_sound_and_round_trip(generated: tuple[Path, Manifest]) -> None:
    folder, manifest = generated
    for entry in manifest.fixtures:
        raw = load(folder / entry["file"])
        state = state_from_json(raw["state"], "lod")
        assert state.invariant_problems() == []
        assert state.to_json() == raw["state"]


def test_required_boundaries_are_covered(generated: tuple[Path, Manifest]) -> None:
    folder, manifest = generated
    by_key: dict[tuple[str, str], dict[str, object]] = {}
    for entry in manifest.fixtures:  # the first fixture of each rule and boundary
        by_key.setdefault((entry["rule"], entry["boundary"]), load(folder / entry["file"]))
    assert {rule for rule, _ in by_key} == set(RULES)
    # stacking: the target space full (2) and one short (1)
    full = by_key["1.4.2 stacking", "at"]["state"]
    short = by_key["1.4.2 stacking", "inside"]["state"]
    stacking = ("british_fort", "patriot_fort", "village")

    def stacked(state: object) -> int:
        pieces = state["spaces"]["New York City"]["pieces"]  # type: ignore[index]
        return sum(pieces.get(kind, 0) for kind in stacking)

    assert (stacked(full), stacked(short)) == (2, 1)
    # resources at the cap and at 0, left there
    caps = by_key["1.8 caps", "at"]
    assert caps["state"]["tracks"]["patriots_resources"] == 50  # type: ignore[index]
    assert caps["state"]["tracks"]["british_resources"] == 0  # type: ignore[index]
    after = caps["sample_legal"][0]["tracks_after"]  # type: ignore[index]
    assert (after["patriots_resources"], after["british_resources"]) == (50, 0)
    # none Available and one Available
    none = by_key["5.1.1 available", "at"]["state"]["boxes"]["Available"]["pieces"]  # type: ignore[index]
    one = by_key["5.1.1 available", "inside"]["state"]["boxes"]["Available"]["pieces"]  # type: ignore[index]
    assert "militia" not in none and one["militia"] == 1
    # pieces only in Unavailable: placed from the named source
    only = by_key["5.1.1 unavailable", "at"]
    assert "british_regular" not in only["state"]["boxes"]["Available"]["pieces"]  # type: ignore[index]
    assert ["Unavailable", "british_regular", "active", -3] in (
        only["sample_legal"][0]["pieces_changed"]  # type: ignore[index]
    )
    # Treaty of Alliance: refused before, placed after
    before, played = by_key["2.3.9 ToA", "at"], by_key["2.3.9 ToA", "inside"]
    assert before["sample_legal"][0]["move"]["steps"] == []  # type: ignore[index]
    refused = before["sample_illegal"][0]  # type: ignore[index]
    assert refused["move"]["steps"] == [[["Philadelphia", "french_regular", 2]]]
    assert played["sample_legal"][0]["move"]["steps"] == [  # type: ignore[index]
        [["Philadelphia", "french_regular", 2]]
    ]
    # 5.1.3: one Militia where the text asks for 2
    partial = by_key["5.1.3 partial", "at"]
    assert partial["sample_legal"][0]["move"]["steps"] == [  # type: ignore[index]
        [["New Jersey", "militia", 1]]
    ]


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    first = generate_fixtures("lod", tmp_path / "a", seed=3)
    generate_fixtures("lod", tmp_path / "b", seed=3)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert len(names) == len(first.fixtures) + 1
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_per_rule_limits_the_set(tmp_path: Path) -> None:
    manifest = generate_fixtures("lod", tmp_path, per_rule=1)
    assert sorted(e["rule"] for e in manifest.fixtures) == sorted(RULES)
    assert {e["boundary"] for e in manifest.fixtures} == {"at"}


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (lambda raw: raw.update(expected_count=raw["expected_count"] + 1), "count"),
        (
            lambda raw: raw["sample_illegal"].__setitem__(
                0, {**raw["sample_illegal"][0], "move": raw["sample_legal"][0]["move"]}
            ),
            "accepted",
        ),
        (
            lambda raw: raw["sample_legal"][0]["move"]["steps"][0][0].__setitem__(0, "Quebec City"),
            "refused",
        ),
        (
            lambda raw: raw["state"]["spaces"]["New York City"]["pieces"].update(village=1),
            "state unsound",
        ),
        (lambda raw: raw.pop("card"), "schema"),
    ],
    ids=["count", "illegal-accepted", "legal-refused", "unsound", "schema"],
)
def test_tampered_fixture_is_caught(
    generated: tuple[Path, Manifest], tmp_path: Path, tamper: object, expected: str
) -> None:
    folder, manifest = generated
    entry = next(e for e in manifest.fixtures if e["rule"] == "1.4.2 stacking")
    raw = load(folder / entry["file"])
    tamper(raw)  # type: ignore[operator]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    problems = check_fixture(path)
    assert problems and any(expected in problem for problem in problems), problems


def test_coverage_is_in_the_manifest(generated: tuple[Path, Manifest]) -> None:
    folder, manifest = generated
    report = load(folder / "manifest.json")["coverage"]
    assert report == coverage(manifest) == manifest.coverage
    assert set(report["rules"]["exercised"]) == set(RULES)  # type: ignore[index]
    effects = report["effects"]  # type: ignore[index]
    assert {"place", "remove", "replace", "adjust"} <= set(effects["exercised"])
    assert "move" in effects["not_exercised"]
    assert not set(effects["exercised"]) & set(effects["not_exercised"])


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        generate_fixtures("fitl", tmp_path)
    with pytest.raises(InputError):
        generate_fixtures("lod", tmp_path, per_rule=0)
    assert check_fixture(tmp_path / "missing.json")[0].startswith("cannot read")
