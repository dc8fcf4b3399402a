"""The option specs of every registered game: each option a game takes by name has a
spec naming its rule, every value a spec allows is accepted, a value outside them
is an input error at ``options.<name>`` listing the allowed ones, and each LoD
reading cites the rule its entry in ``docs/rules-questions.md`` reads."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from legalis.model.core.game import OptionSpec
from legalis.model.core.options import settable
from legalis.model.errors import InputError
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.solver.nonplayer.options import NonplayerOptions

from legalis.registry import game_entry, games, load_game

ROOT = Path(__file__).resolve().parents[2]
REGISTER = (ROOT / "docs" / "rules-questions.md").read_text("utf-8")
LOD_OWN = ("scenario", "nonplayers", "deck")  # set-up choices, not readings of a rule
BAD = "no such value"

SPECS = [(name, spec) for name in games() for spec in game_entry(name).option_specs]


def shown(value: Any) -> set[str]:
    """A spec's value as an error lists it: a combination by its members, true,
    false and none in lower case."""
    if isinstance(value, tuple):
        return {part for item in value for part in shown(item)}
    if value is None:
        return {"none"}  # as --option takes it
    return {value if isinstance(value, str) else json.dumps(value)}


@pytest.mark.parametrize("name", games())
def test_every_option_a_game_takes_has_one_spec(name: str) -> None:
    entry = game_entry(name)
    names = [spec.name for spec in entry.option_specs]
    assert len(set(names)) == len(names), "an option has two specs"
    assert entry.option_names == tuple(names)
    # a state names the options it is played under: each is a spec's
    assert set(load_game(name).options.to_json()) <= set(names)
    for spec in entry.option_specs:
        assert isinstance(spec, OptionSpec)
        assert spec.rule.strip() and spec.help.strip(), spec.name
        assert spec.allowed is None or spec.default in spec.allowed, spec.name
        assert json.loads(json.dumps(spec.to_json()))["name"] == spec.name


@pytest.mark.parametrize(("name", "spec"), SPECS, ids=[f"{n}-{s.name}" for n, s in SPECS])
def test_every_allowed_value_is_taken_and_any_other_refused(name: str, spec: OptionSpec) -> None:
    for value in spec.allowed if spec.allowed is not None else (spec.default,):
        written = load_game(name, {spec.name: value}).options.to_json()
        if spec.name in written:
            assert written[spec.name] == json.loads(json.dumps(value)), value
    # a count, a file name or a list of seats: not an object
    bad = BAD if spec.allowed is not None else {"not": "a value"}
    with pytest.raises(InputError) as refused:
        load_game(name, {spec.name: bad})
    assert refused.value.path == f"options.{spec.name}"
    if spec.allowed is not None:
        listed = {str(v) if isinstance(v, str) else json.dumps(v) for v in refused.value.allowed}
        assert listed == shown(spec.allowed), refused.value


def test_the_seven_years_specs_are_its_options_with_their_defaults() -> None:
    specs = game_entry("sevenyears").option_specs
    defaults = SevenYearsOptions()
    assert [spec.name for spec in specs] == [field.name for field in fields(SevenYearsOptions)]
    assert all(spec.default == getattr(defaults, spec.name) for spec in specs)
    # the seed names its parts by heading: the Conflict phase's reading cites it
    assert {spec.name: spec.rule for spec in specs}["conflict_end"] == "CONFLICT PHASE"


def test_the_lod_specs_are_its_set_up_and_every_reading_settable_by_name() -> None:
    specs = {spec.name: spec for spec in game_entry("lod").option_specs}
    groups = NonplayerOptions()
    readings = [
        option for group in fields(groups) for option in settable(type(getattr(groups, group.name)))
    ]
    assert list(specs) == [*LOD_OWN, *readings]
    for group in fields(groups):
        options = getattr(groups, group.name)
        for option in settable(type(options)):
            assert specs[option].default == getattr(options, option), option
    # 3.6.7 (removal_pool) and 8.8 (the optional Difficulty rule) as their entries cite
    assert specs["removal_pool"].rule == "3.6.7"
    assert specs["difficulty"].allowed == (True, False) and specs["difficulty"].default is False
    assert specs["player_trade_offer"].allowed is None  # a count of Resources
    assert ("french", "indians") in specs["nonplayers"].allowed
    assert len(specs["nonplayers"].allowed) == 2**4  # every combination of the Factions


def entry_text(name: str) -> str:
    """The register's text about option ``name``: its ``##`` section's heading, and
    the ``###`` entry (or the section's opening) where the name is first marked."""
    mark = re.search(rf"`(?:[A-Z]\w*\.)?{name}(?:`|=)", REGISTER)
    assert mark is not None, f"{name} is not in docs/rules-questions.md"
    before, after = REGISTER[: mark.start()], REGISTER[mark.start() :]
    section = before[before.rindex("\n## ") :].split("\n", 2)[1]
    start = max(before.rfind("\n## "), before.rfind("\n### "))
    end = re.search(r"^#{2,3} ", after, re.M)
    return section + "\n" + before[start:] + after[: end.start() if end else len(after)]


@pytest.mark.parametrize(
    "spec",
    [spec for spec in game_entry("lod").option_specs if spec.name not in LOD_OWN],
    ids=lambda spec: spec.name,
)
def test_each_lod_reading_cites_a_rule_its_register_entry_cites(spec: OptionSpec) -> None:
    assert re.fullmatch(r"\d+(\.\d+)+", spec.rule), spec.rule
    assert re.search(rf"(?<![\d.]){re.escape(spec.rule)}(?![\d])", entry_text(spec.name)), (
        f"{spec.name}: rule {spec.rule} is not cited where docs/rules-questions.md records it"
    )
