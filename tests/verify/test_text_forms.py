"""Every sentence form of the real COIN cards is read into the effects it means.

The forms are those of the sentence-form catalogue (``reference/event-language.md``
of the specification, sections 3 and 4), read from the markdown at test time so the
tests follow the catalogue: every form with occurrences in a game has at least two
original example sentences for that game in ``forms/<game>.toml``, each with the
effects it means written by hand. Each sentence must compile to exactly those
effects; whole sides chaining several sentences (section 5, point 5) must act on
the spaces and Factions chosen earlier.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from legalis.model.coin.deck import bundled_deck
from legalis.model.coin.effects import Side, side_from_toml, side_to_toml
from legalis.verify.text import parse_side

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT.parent / "shared" / "reference" / "event-language.md"
FORMS = Path(__file__).with_name("forms")
GAMES = ("lod", "fitl")
TITLE = "Form Card"  # the title every example is read under: the name of its lasting effect


@cache
def catalogue() -> dict[str, dict[str, int]]:
    """Each form id of sections 3 and 4 -> its occurrences per game (``lod``, ``fitl``).

    >>> catalogue()["PL-1"]["lod"] > 0
    True
    """
    text = CATALOGUE.read_text(encoding="utf-8")
    body = text[text.index("\n## 3. ") : text.index("\n## 5. ")]
    forms: dict[str, dict[str, int]] = {}
    for line in body.splitlines():
        if not re.match(r"\| [A-Z]+-\d+ \|", line):
            continue
        # a template may hold escaped bars (``a \| b``): split on the others only
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        forms[cells[0]] = {"lod": int(cells[2]), "fitl": int(cells[3])}
    return forms


@cache
def table(game: str) -> dict[str, Any]:
    with (FORMS / f"{game}.toml").open("rb") as file:
        return tomllib.load(file)


def expected_side(entry: dict[str, Any]) -> Side:
    """The side an example means: its text, its hand-written effects, its banner."""
    raw = {"text": entry["text"], "effects": entry["effects"]}
    if "lasting" in entry:
        raw["lasting"] = entry["lasting"]
    return side_from_toml(raw, source=f"forms: {entry['text']!r}")


def examples(kind: str) -> list[Any]:
    """The ``kind`` tables (``form`` or ``side``) of both games, as test parameters."""
    return [
        pytest.param(game, entry, id=f"{game}-{entry.get('id', 'side')}-{entry['text'][:48]}")
        for game in GAMES
        for entry in table(game).get(kind, [])
    ]


def _bindings(value: Any, bound: set[str], problems: list[str]) -> None:
    """Walk effect tables in order: every bound space, Faction or number is named
    before it is used."""
    if isinstance(value, list):
        for item in value:
            _bindings(item, bound, problems)
        return
    if not isinstance(value, dict):
        return
    if value.get("is") == "bound" and value["name"] not in bound:
        problems.append(f"space {value['name']!r} used before it is bound")
    if value.get("of") == "bound" and value["name"] not in bound:
        problems.append(f"number {value['name']!r} used before it is bound")
    for key in ("chooser", "faction"):
        name = value.get(key)
        if isinstance(name, str) and name.startswith("$") and name[1:] not in bound:
            problems.append(f"Faction {name!r} used before it is bound")
    for key, item in value.items():
        if key != "bind":
            _bindings(item, bound, problems)
    if isinstance(value.get("bind"), str):
        bound.add(value["bind"])


def _refers_back(value: Any) -> bool:
    if isinstance(value, list):
        return any(_refers_back(item) for item in value)
    if not isinstance(value, dict):
        return False
    if "bound" in (value.get("is"), value.get("of")):
        return True
    if any(str(value.get(key, "")).startswith("$") for key in ("chooser", "faction")):
        return True
    return any(_refers_back(item) for item in value.values())


# ---------------------------------------------------------------------- the tables


def test_the_catalogue_is_read() -> None:
    forms = catalogue()
    # the catalogue's summary: 699 clauses, some forms only in one game
    assert len(forms) > 150
    assert forms["PL-1"] == {"lod": 38, "fitl": 33}
    assert forms["VB-1"]["lod"] == 0 and forms["VB-1"]["fitl"] > 0
    assert forms["S-9"] == {"lod": 0, "fitl": 0}


@pytest.mark.parametrize("game", GAMES)
def test_every_form_of_the_game_has_two_original_sentences(game: str) -> None:
    wanted = {form for form, counts in catalogue().items() if counts[game] > 0}
    written = Counter(entry["id"] for entry in table(game)["form"])
    unknown = sorted(set(written) - set(catalogue()))
    absent_here = sorted(form for form in written if form in catalogue()
                         and catalogue()[form][game] == 0)  # fmt: skip
    short = sorted(form for form in wanted if written[form] < 2)
    assert unknown == [], f"{game}: ids the catalogue lacks"
    assert absent_here == [], f"{game}: forms the catalogue never counts in this game"
    assert short == [], f"{game}: forms with fewer than two example sentences"


@pytest.mark.parametrize("game", GAMES)
def test_every_example_is_valid_effect_language_with_bindings_in_order(game: str) -> None:
    texts: list[str] = []
    for kind in ("form", "side"):
        for entry in table(game).get(kind, []):
            expected_side(entry)  # raises an InputError naming the field
            problems: list[str] = []
            _bindings(entry["effects"], set(), problems)
            assert problems == [], entry["text"]
            texts.append(entry["text"])
    duplicated = [text for text, n in Counter(texts).items() if n > 1]
    assert duplicated == []


@pytest.mark.parametrize("game", GAMES)
def test_whole_sides_chain_two_to_four_sentences(game: str) -> None:
    sides = table(game)["side"]
    assert len(sides) >= 4
    for entry in sides:
        sentences = [s for s in re.split(r"(?<=[.])\s+", entry["text"]) if s]
        assert 2 <= len(sentences) <= 4, entry["text"]
        # each chains a later clause to an earlier choice of space, Faction or number
        assert _refers_back(entry["effects"]), entry["text"]


# ---------------------------------------------------------------------- the sample decks


def deck_forms(game: str) -> dict[int, tuple[str, ...]]:
    """The forms each sample card declares on its ``# forms: ...`` comment line."""
    text = resources.files(f"legalis.model.{game}").joinpath("decks/sample.toml").read_text()
    lines = text.splitlines()
    out: dict[int, tuple[str, ...]] = {}
    for index, line in enumerate(lines):
        if line.strip() != "[[card]]":
            continue
        number = int(re.sub(r"\D", "", lines[index + 1]))
        above = index - 1
        while above >= 0 and lines[above].startswith("#"):
            declared = re.fullmatch(r"#\s*forms:\s*(.+)", lines[above].strip())
            if declared:
                out[number] = tuple(form.strip() for form in declared.group(1).split(";"))
            above -= 1
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_form_of_the_game_is_used_by_an_original_sample_card(game: str) -> None:
    declared = deck_forms(game)
    numbers = {card.number for card in bundled_deck(game).cards}
    assert set(declared) <= numbers
    used = {form for forms in declared.values() for form in forms}
    wanted = {form for form, counts in catalogue().items() if counts[game] > 0}
    assert sorted(used - wanted) == [], f"{game}: declared forms the catalogue lacks here"
    assert sorted(wanted - used) == [], f"{game}: forms no sample card uses"


@pytest.mark.parametrize("game", GAMES)
def test_sample_sides_name_bindings_before_using_them(game: str) -> None:
    for card in bundled_deck(game).cards:
        for name in ("unshaded", "shaded"):
            side = getattr(card, name)
            if side is None:
                continue
            problems: list[str] = []
            _bindings(side_to_toml(side).get("effects", []), set(), problems)
            assert problems == [], (card.number, name)


# ---------------------------------------------------------------------- the parser


def _compare(game: str, entry: dict[str, Any]) -> None:
    expected = expected_side(entry)
    result = parse_side(entry["text"], game, title=TITLE, side="unshaded")
    assert result.diagnostics == [], entry["text"]
    got = side_to_toml(Side(effects=result.effects)).get("effects", [])
    assert got == side_to_toml(expected).get("effects", []), entry["text"]
    assert result.lasting == expected.lasting, entry["text"]


@pytest.mark.parametrize(("game", "entry"), examples("form"))
def test_each_form_compiles_to_the_effects_it_means(game: str, entry: dict[str, Any]) -> None:
    _compare(game, entry)


@pytest.mark.parametrize(("game", "entry"), examples("side"))
def test_whole_sides_act_on_what_earlier_sentences_chose(game: str, entry: dict[str, Any]) -> None:
    _compare(game, entry)
