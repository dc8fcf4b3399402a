"""The register of rules questions (docs/rules-questions.md) against the code: every
option it names is an option of a registered game (its option specs) or an EU:PoP
hook, with the values it documents; every game's options are reachable from the CLI's
``--option``; every rule reading a game offers is in the register; an EU:PoP hook (a
field holding a function) is recorded as one; and a test somewhere sets each LoD and
EU:PoP option to another value than its default."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest
from legalis.model.core.options import settable
from legalis.model.eupop.deck import DeckOptions
from legalis.model.eupop.effects import EffectOptions
from legalis.model.eupop.play import PlayOptions
from legalis.model.eupop.religion import SpreadOptions
from legalis.model.eupop.secondary import SecondaryOptions

import legalis
from legalis import cli
from legalis.registry import game_entry

ROOT = Path(__file__).resolve().parents[1]
REGISTER = (ROOT / "docs" / "rules-questions.md").read_text("utf-8")

NAME = r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]{4,}"
# The ways the register marks an option name: a heading ending with it, a bullet
# "— `name`: default ..." or "**`name`** (default ...)", "`name=value`" /
# "`Class.name=value`", "`name` (`XOptions`)".
MARKS = (
    re.compile(rf"^###[^\n]*?`({NAME})`\s*$", re.M),
    re.compile(rf"— `({NAME})`:"),
    re.compile(rf"\*\*`({NAME})`\*\* \(default"),
    re.compile(rf"`(?:[A-Z]\w*\.)?({NAME})=([^`]+)`"),
    re.compile(rf"`({NAME})` \(`[A-Z]\w*Options`\)"),
)
# What a game is set up with, not a reading of an unclear rule: these need no entry
# in the register (each spec still names its rule).
SET_UP = {"scenario", "deck", "nonplayers", "card", "faction"}


@dataclass(frozen=True)
class Option:
    name: str
    game: str
    default: Any
    values: tuple[Any, ...] | None  # None: a count or a file name
    hook: bool = False  # a function, set from Python only


def _code_options() -> dict[str, Option]:
    """Every option of every registered game, by name, and the EU:PoP hooks (fields of
    its option classes holding functions, which no --option reaches)."""
    out: dict[str, Option] = {}
    for game in legalis.games():
        for spec in game_entry(game).option_specs:
            if spec.name in SET_UP and spec.name in out:
                continue  # each game has its own scenarios and decks
            assert spec.name not in out, f"option {spec.name} is defined twice"
            out[spec.name] = Option(spec.name, game, spec.default, spec.allowed)
    for cls in (SpreadOptions, PlayOptions, EffectOptions, SecondaryOptions, DeckOptions):
        hooks = {f.name for f in fields(cls)} - set(settable(cls)) - _NESTED
        for name in hooks:
            out[name] = Option(name, "eupop", getattr(cls(), name), None, hook=True)
    return out


_NESTED = {"effects", "secondary", "spread"}  # PlayOptions' option classes
CODE = _code_options()
READINGS = {name: option for name, option in CODE.items() if name not in SET_UP}


def _marked() -> dict[str, list[str]]:
    """Each option name the register marks, with the values it gives it inline."""
    out: dict[str, list[str]] = {}
    for mark in MARKS:
        for found in mark.finditer(REGISTER):
            given = found.group(2) if mark.groups == 2 else None
            out.setdefault(found.group(1), []).extend([given] if given else [])
    return out


MARKED = _marked()


def _section(name: str) -> str:
    """The register's text about option ``name``: its heading's section, or its bullet."""
    heading = re.search(rf"^###[^\n]*`{name}`\s*$", REGISTER, re.M)
    if heading is not None:
        rest = REGISTER[heading.end() :]
        end = re.search(r"^#{2,3} ", rest, re.M)
        return heading.group(0) + rest[: end.start() if end else len(rest)]
    bullet = re.search(rf"^- [^\n]*(— `{name}`:|\*\*`{name}`\*\*).*?(?=^- |^#|\Z)",
                       REGISTER, re.M | re.S)  # fmt: skip
    return bullet.group(0) if bullet else ""


def _shown(value: Any) -> set[str]:
    """How the register may write ``value`` in backticks."""
    if isinstance(value, bool) or value is None:
        return {f"`{value}`", f"`{str(value).lower()}`"}
    return {f"`{value}`", f'`"{value}"`'}


def test_the_register_marks_options() -> None:
    # the parser finds the register's options (a guard against a silent format change)
    assert {"turmoil_end", "removal_pool", "treaty_half_rounding", "patriots_join"} <= set(MARKED)


@pytest.mark.parametrize("name", sorted(MARKED))
def test_every_option_the_register_names_exists_with_its_documented_values(name: str) -> None:
    assert name in CODE, f"the register names option {name!r}, which no option class defines"
    option = CODE[name]
    for given in MARKED[name]:  # "`name=value`"
        value = given.strip().strip('"')
        assert option.values is None or value in {str(v) for v in option.values} | {
            str(v).lower() for v in option.values
        }, f"{name}={given}: not a value of the option ({option.values})"
    section = _section(name)
    if option.hook:  # a function: the register says how it is set, and that it is no option
        assert "hook" in section and "--option" in section, (
            f"{name} holds a function: the register must say it is a hook, not an --option"
        )
    elif section and name not in SET_UP:  # a reading with its own entry documents its values
        assert any(shown in section for shown in _shown(option.default)), (
            f"{name}: the default {option.default!r} is not documented"
        )
        for value in option.values or ():
            assert any(shown in section for shown in _shown(value)), (
                f"{name}: the value {value!r} is not documented"
            )


@pytest.mark.parametrize("name", sorted(READINGS))
def test_every_rule_reading_of_every_game_is_in_the_register(name: str) -> None:
    assert name in MARKED, f"option {name!r} is not recorded in docs/rules-questions.md"


def test_the_eupop_options_settable_by_name_are_the_option_classes_settable_fields() -> None:
    # the names --option and the API's options take: every field but the hooks
    eupop = {n for n, o in CODE.items() if o.game == "eupop" and not o.hook}
    assert set(PlayOptions.names()) | set(settable(DeckOptions)) <= eupop


def _other_value(option: Option) -> Any:
    if option.values is None:
        return option.default + 1
    return next(v for v in option.values if v != option.default)


def _pairs(game: str) -> list[str]:
    """``--option`` pairs setting every option of ``game`` to a value not its default
    (a file option, whose default names no file, is left out)."""
    out = []
    for spec in game_entry(game).option_specs:
        option = Option(spec.name, game, spec.default, spec.allowed)
        if option.values is None and not isinstance(option.default, int):
            continue  # a file or a list of seats: no value to step to
        if option.values is not None and len(option.values) < 2:
            continue  # one value only (a game with one bundled scenario)
        value = _other_value(option)
        if isinstance(value, bool):
            shown = str(value).lower()
        elif isinstance(value, tuple | list):
            shown = ",".join(value)
        else:
            shown = str(value)
        out += ["--option", f"{spec.name}={shown}"]
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    return int(done.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize("game", legalis.games())
def test_every_option_is_reachable_from_the_cli(
    game: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    command = ("new", game, "--out", str(tmp_path / "state.json"))
    # every option of the game at once, each away from its default: accepted
    code, err = run(capsys, *command, *_pairs(game))
    assert code == 0, err
    # a name the game lacks, a value the option lacks, a hook: exit 2 naming it
    name = next(spec for spec in game_entry(game).option_specs if spec.allowed)
    hooks = [o.name for o in CODE.values() if o.game == game and o.hook]
    for pair, named in (
        ("no_such_option=1", "no_such_option"),
        (f"{name.name}=sideways", name.name),
        *((f"{hook}=anything", hook) for hook in hooks),
    ):
        code, err = run(capsys, *command, "--option", pair)
        assert code == 2 and named in err and len(err.strip().splitlines()) == 1, err


TESTS = "\n".join(
    path.read_text("utf-8")
    for path in (ROOT / "tests").rglob("test_*.py")
    if path.name != Path(__file__).name
)


@pytest.mark.parametrize(
    "name", sorted(n for n, o in READINGS.items() if o.game in ("lod", "eupop") and not o.hook)
)
def test_a_test_sets_every_lod_and_eupop_option_away_from_its_default(name: str) -> None:
    # each option's own tests compare the outcome under its two readings; this finds
    # the setting there (name=value, "name": value, or "name": (value, ...) in a table
    # of cases) with a value not the default
    option = CODE[name]
    values = [
        m.group(1).strip("\"'")
        for m in re.finditer(rf"\b{name}\"?\s*[=:]\s*\(?\s*(\"[^\"]*\"|'[^']*'|\w+)", TESTS)
    ]
    assert any(v not in {str(option.default), repr(option.default)} for v in values), (
        f"no test sets {name} to a value other than {option.default!r}"
    )
