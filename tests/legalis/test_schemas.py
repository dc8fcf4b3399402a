"""The published JSON Schemas: current, valid, true to the engine's real documents,
and as strict as the engine where the engine refuses a document.

Both directions: every state, move, deck, finding and report the engine writes
validates against its schema; documents the engine's readers refuse are refused by
the schema (and by the pydantic model it comes from) too.
"""

from __future__ import annotations

import copy
import json
import random
import tomllib
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from jsonschema.exceptions import best_match
from legalis.model.coin.deck import bundled_deck, deck_from_toml
from legalis.model.coin.scenarios import load_scenario, scenario_names
from legalis.model.coin.schema import state_document_model as coin_state_model
from legalis.model.coin.state import CoinState
from legalis.model.coin.state import state_from_json as coin_state_from_json
from legalis.model.errors import InputError, LegalisError
from legalis.model.eupop.events import load_catalogue
from legalis.model.eupop.state import EuState, small_state
from legalis.model.eupop.state import state_from_json as eupop_state_from_json
from legalis.model.sevenyears.data import read_bundled
from legalis.model.sevenyears.game import SevenYearsGame
from legalis.model.sevenyears.options import SevenYearsOptions
from legalis.model.sevenyears.schema import move_document_model, state_document_model
from legalis.solver.event_documents import EventMoveDocument
from legalis.solver.events import event_move_from_json, legal_event_moves
from legalis.solver.players import RandomPlayer
from legalis.solver.playout import play_game
from legalis.verify.coin import CoinReportDocument, verify_coin
from legalis.verify.coin_findings import check_deck
from legalis.verify.findings import FindingDocument
from legalis.verify.sevenyears import verify_sevenyears
from pydantic import ValidationError

from legalis.registry import games, load_game
from legalis.schemas import DIALECT, SUFFIX, main, schema_text, schemas

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "schemas"
FINDING_DECKS = ROOT / "tests" / "verify" / "decks"
REGENERATE = "regenerate them with: python -m legalis.schemas docs/schemas"
COIN_GAMES = ("lod", "fitl")
GAME_DOCUMENTS = {f"{game}-{kind}" for game in games() for kind in ("game-state", "move")}
EXPECTED = {
    *GAME_DOCUMENTS,
    "lod-state",
    "fitl-state",
    "coin-event-move",
    "coin-deck",
    "finding",
    "fixture",
    "fixture-manifest",
    "sequence-fixture",
    "coin-deck-report",
    "eupop-state",
    "eupop-move",
}


@pytest.fixture(scope="module")
def generated() -> dict[str, dict[str, Any]]:
    return schemas()


@pytest.fixture(scope="module")
def check(generated: dict[str, dict[str, Any]]) -> Callable[[str, Any], None]:
    """``check(name, document)``: fail with the field path unless it validates."""
    validators = {name: jsonschema.Draft202012Validator(s) for name, s in generated.items()}

    def run(name: str, document: Any) -> None:
        error = best_match(validators[name].iter_errors(document))
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path)
            pytest.fail(f"{name}: {where}: {error.message[:300]}")

    return run


def refused(schema: dict[str, Any], document: Any) -> bool:
    return not jsonschema.Draft202012Validator(schema).is_valid(document)


def descriptions(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from descriptions(item)


# ---------------------------------------------------------------------- the files


def test_the_committed_files_are_the_generated_ones(generated: dict[str, dict[str, Any]]) -> None:
    committed = {path.name[: -len(SUFFIX)] for path in PUBLISHED.glob(f"*{SUFFIX}")}
    assert committed == set(generated), f"docs/schemas holds {sorted(committed)}; {REGENERATE}"
    for name, schema in generated.items():
        text = (PUBLISHED / f"{name}{SUFFIX}").read_text(encoding="utf-8")
        assert text == schema_text(schema), f"docs/schemas/{name}{SUFFIX} is stale; {REGENERATE}"


def test_the_names_are_the_published_ones(generated: dict[str, dict[str, Any]]) -> None:
    assert set(generated) == EXPECTED
    assert {"sevenyears-game-state", "sevenyears-move", "lod-game-state", "lod-move"} <= EXPECTED


@pytest.mark.parametrize("game", games())
def test_each_game_publishes_its_own_state_and_move_schemas(
    game: str, generated: dict[str, dict[str, Any]]
) -> None:
    own = load_game(game).schemas()
    assert set(own) == {"state", "move"}
    for kind, published in (("state", f"{game}-game-state"), ("move", f"{game}-move")):
        jsonschema.Draft202012Validator.check_schema(own[kind])
        assert own[kind]["$schema"] == DIALECT
        # published as the game gives it, with a title and a description of its own
        kept = {k: v for k, v in generated[published].items() if k not in ("title", "description")}
        assert kept == {k: v for k, v in own[kind].items() if k not in ("title", "description")}
        assert load_game(game).title in generated[published]["title"]


def test_generation_is_deterministic(tmp_path: Path, generated: dict[str, dict[str, Any]]) -> None:
    (tmp_path / f"dropped{SUFFIX}").write_text("{}\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("kept\n", encoding="utf-8")
    assert main([str(tmp_path)]) == 0
    first = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert main([str(tmp_path)]) == 0
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == first
    assert f"dropped{SUFFIX}" not in first and "README.md" in first
    assert first[f"finding{SUFFIX}"].decode() == schema_text(generated["finding"])
    assert main(["a", "b"]) == 2


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_schema_is_a_valid_draft_2020_12_schema(
    name: str, generated: dict[str, dict[str, Any]]
) -> None:
    schema = generated[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == DIALECT and "$id" not in schema
    assert schema["title"] and schema["description"]
    for text in descriptions(schema):
        assert ">>>" not in text, f"{name}: a doctest leaked into a description: {text!r}"


# ---------------------------------------------------------------------- The Seven Years War


def listed(view: Any, limit: int = 400, spread: int = 20) -> list[Any]:
    """Every move of a view, or a spread of ``spread`` of them when there are more
    than ``limit`` (a shuffle orders dozens of cards in millions of ways)."""
    total = view.count()
    if total <= limit:
        return list(view)
    return [view.nth(index * total // spread) for index in range(spread)]


OPTION_SETS = [
    SevenYearsOptions(),
    SevenYearsOptions(
        turmoil_end="two_passes_in_a_row",
        conflict_end="two_passes_in_a_row",
        difficulty_chooser="attacker",
        reshuffle="any_draw",
        europe_win_ends_game=False,
        effect_cards_in_conflict=True,
    ),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["defaults", "other-options"])
def test_seven_years_states_and_every_listed_move_validate(
    options: SevenYearsOptions, check: Callable[[str, Any], None]
) -> None:
    game = SevenYearsGame(options)
    state_model, move_model = state_document_model(), move_document_model()
    seen: dict[str, int] = {"states": 0, "moves": 0}
    kinds: set[str] = set()
    checked: set[str] = set()  # a pass or a coin flip recurs: each document is checked once

    def observe(state: Any, by: str, move: Any) -> None:
        document = state.to_json()
        check("sevenyears-game-state", document)
        kinds.add(document["pending"]["kind"])
        if seen["states"] % 40 == 0:
            state_model.model_validate(document)
        seen["states"] += 1
        for listed_move in listed(state.legal_moves()):
            move_document = game.move_to_json(listed_move)
            key = json.dumps(move_document, sort_keys=True)
            if key not in checked:
                check("sevenyears-move", move_document)
                checked.add(key)
            seen["moves"] += 1
        move_model.model_validate(game.move_to_json(move))

    players = {"british": RandomPlayer(), "french": RandomPlayer()}
    for seed in range(6):
        record = play_game(game, players, seed, record=False, observer=observe)
        final = record.final_state.to_json()
        check("sevenyears-game-state", final)
        state_model.model_validate(final)
    assert seen["states"] > 300 and seen["moves"] > 5000
    assert {"execute", "turmoil", "conflict", "shuffle", "coin"} <= kinds


# ---------------------------------------------------------------------- COIN states and moves


def coin_states() -> Iterator[tuple[str, str, CoinState]]:
    for game in COIN_GAMES:
        yield game, "empty", CoinState.new(game)
        for name in scenario_names(game):
            yield game, name, load_scenario(game, name)


def test_every_bundled_scenario_validates(check: Callable[[str, Any], None]) -> None:
    looked_at = 0
    for game, _, state in coin_states():
        document = state.to_json()
        check(f"{game}-state", document)
        coin_state_model(game).model_validate(document)
        looked_at += 1
    assert looked_at == 2 + sum(len(scenario_names(game)) for game in COIN_GAMES)


def test_event_moves_and_the_states_after_them_validate(
    check: Callable[[str, Any], None],
) -> None:
    moves = states = 0
    for game, _, state in coin_states():
        deck = bundled_deck(game)
        factions = state.rules.faction_ids
        for card in deck.cards:
            for side in ("unshaded", "shaded"):
                if getattr(card, side) is None:
                    continue
                view = legal_event_moves(state, card, side, factions[card.number % len(factions)])
                total = view.count()
                for index in sorted({0, total // 2, total - 1} if total else set()):
                    move = view.nth(index)
                    document = move.to_json()
                    check("coin-event-move", document)
                    EventMoveDocument.model_validate(document)
                    assert event_move_from_json(document) == move
                    moves += 1
                    after = view.apply(move).to_json()
                    check(f"{game}-state", after)
                    states += 1
    assert moves > 300 and states == moves


# ---------------------------------------------------------------------- decks and findings


@pytest.mark.parametrize("game", COIN_GAMES)
def test_the_sample_decks_validate(game: str, check: Callable[[str, Any], None]) -> None:
    text = resources.files(f"legalis.model.{game}").joinpath("decks/sample.toml").read_text()
    check("coin-deck", tomllib.loads(text))


def test_the_finding_corpus_decks_validate(check: Callable[[str, Any], None]) -> None:
    for path in sorted(FINDING_DECKS.glob("*.toml")):
        raw = tomllib.loads(path.read_text("utf-8"))
        raw.pop("expect")
        check("coin-deck", raw)


@pytest.mark.parametrize("game", COIN_GAMES)
def test_a_deck_verification_report_and_its_findings_validate(
    game: str, check: Callable[[str, Any], None]
) -> None:
    report = verify_coin(game, bundled_deck(game)).to_json()
    assert report["findings"], "the sample decks have known warnings to check"
    check("coin-deck-report", report)
    CoinReportDocument.model_validate(report)
    for finding in report["findings"]:
        check("finding", finding)
        if finding["witness"] is not None:
            check(f"{game}-state", finding["witness"])


def test_planted_defects_give_findings_that_validate(check: Callable[[str, Any], None]) -> None:
    codes = set()
    for path in sorted(FINDING_DECKS.glob("*.toml")):
        raw = tomllib.loads(path.read_text("utf-8"))
        raw.pop("expect")
        deck = deck_from_toml(raw, source=str(path))
        for finding in check_deck(deck, deck.game):
            document = finding.to_json()
            check("finding", document)
            FindingDocument.model_validate(document)
            if document["witness"] is not None:
                check(f"{deck.game}-state", document["witness"])
            codes.add(finding.code)
    assert len(codes) > 15


def test_seven_years_verification_findings_validate(check: Callable[[str, Any], None]) -> None:
    broken_rules = dict(read_bundled("game.toml"), medals_per_player=19)
    cards = read_bundled("cards.toml")
    broken_cards = {"card": [dict(cards["card"][0], force=9, copies=0), *cards["card"][1:]]}
    codes = set()
    for report in (
        verify_sevenyears(),
        verify_sevenyears(raw_game=broken_rules),
        verify_sevenyears(raw_cards=broken_cards),
    ):
        for finding in report.findings:
            check("finding", finding.to_json())
            FindingDocument.model_validate(finding.to_json())
            codes.add(finding.code)
    assert {"proof.failed", "data.force-range", "data.copies-positive"} <= codes


# ---------------------------------------------------------------------- the other direction


def seven_years_state() -> dict[str, Any]:
    game = SevenYearsGame()
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.to_move == "chance" or state.phase == "plan":
        state = state.apply(state.legal_moves().random(rng))
    return state.to_json()


Mutation = Callable[[dict[str, Any]], dict[str, Any]]


def put(path: str, value: Any) -> Mutation:
    """A copy of a document with the field at ``path`` (keys joined by ``/``) set."""

    def mutate(document: dict[str, Any]) -> dict[str, Any]:
        changed = copy.deepcopy(document)
        *parents, last = [int(key) if key.isdigit() else key for key in path.split("/")]
        target = changed
        for key in parents:
            target = target[key]
        target[last] = value
        return changed

    return mutate


def drop(path: str) -> Mutation:
    """A copy of a document without the field at ``path``."""

    def mutate(document: dict[str, Any]) -> dict[str, Any]:
        changed = copy.deepcopy(document)
        *parents, last = path.split("/")
        target = changed
        for key in parents:
            target = target[key]
        del target[last]
        return changed

    return mutate


BOSTON = "spaces/Boston/pieces"
COIN_REJECTIONS: list[tuple[str, str, Mutation]] = [
    ("lod", "unknown space", put("spaces/Bostn", {})),
    ("lod", "unknown box", put("boxes/Reserve", {})),
    ("lod", "negative count", put(f"{BOSTON}/tory", -1)),
    ("lod", "unknown piece id", put(f"{BOSTON}/tank", 1)),
    ("lod", "a piece name, not its id", put("boxes/Available/pieces/Tories", 1)),
    ("lod", "a count above the inventory", put("boxes/Available/pieces/tory", 26)),
    ("lod", "a count that is not a whole number", put(f"{BOSTON}/tory", "2")),
    ("lod", "statuses of a one-status piece", put(f"{BOSTON}/tory", {"active": 1})),
    ("lod", "a bare count of a two-status piece on the map", put(f"{BOSTON}/militia", 1)),
    ("lod", "a status the piece cannot have", put(f"{BOSTON}/militia", {"tunneled": 1})),
    ("lod", "unknown support level", put("spaces/Boston/support", "loyal")),
    ("lod", "Support in an always-Neutral space", put("spaces/Quebec/support", "active_support")),
    ("lod", "a piece a box may not hold", put("boxes/West Indies/pieces/militia", 1)),
    ("lod", "a marker where it may not lie", put("spaces/Quebec/markers/blockade", 1)),
    ("lod", "a track above its cap", put("tracks/fni", 4)),
    ("lod", "a missing track", drop("tracks/cbc")),
    ("lod", "a flag that is not true or false", put("flags/toa_played", 1)),
    ("lod", "unknown eligibility", put("eligibility/french", "maybe")),
    ("lod", "unknown Faction", put("eligibility/spanish", "eligible")),
    ("lod", "a Leader somewhere unknown", put("leaders/Gage", "Bostn")),
    ("lod", "a name a list may not hold", put("lists/brilliant_strokes", ["Joker"])),
    ("lod", "a Capability side", put("capabilities", {"Flintlocks": "both"})),
    ("lod", "Momentum listed twice", put("momentum", ["Winter", "Winter"])),
    ("lod", "another game's state", put("game", "fitl")),
    ("lod", "an unknown top-level field", put("turn", 1)),
    ("fitl", "Support on a LoC", put("spaces/Hue -- Da Nang/support", "passive_support")),
    ("fitl", "a tunneled Guerrilla", put("spaces/Saigon/pieces/vc_guerrilla", {"tunneled": 1})),
    ("fitl", "the Trail past 4", put("tracks/trail", 5)),
]


@pytest.mark.parametrize(
    ("game", "mutation"),
    [(game, mutate) for game, _, mutate in COIN_REJECTIONS],
    ids=[what for _, what, _ in COIN_REJECTIONS],
)
def test_coin_states_the_engine_refuses_the_schema_refuses(
    game: str,
    mutation: Mutation,
    generated: dict[str, dict[str, Any]],
) -> None:
    good = load_scenario(game, scenario_names(game)[0]).to_json()
    assert not refused(generated[f"{game}-state"], good)
    bad = mutation(good)
    with pytest.raises(InputError):
        coin_state_from_json(bad, game)
    assert refused(generated[f"{game}-state"], bad)
    with pytest.raises(ValidationError):
        coin_state_model(game).model_validate(bad)


SEVEN_YEARS_REJECTIONS: list[tuple[str, Mutation]] = [
    ("bad player name", put("hands", {"prussian": [], "french": []})),
    ("bad player in a queue", put("execute_queue", ["prussian"])),
    ("bad player on turn", put("current", "prussian")),
    ("unknown card", put("deck/0", "Joker")),
    ("unknown area", put("campaigns/africa", None)),
    ("turn 8", put("turn", 8)),
    ("negative medals", put("medals/british/india", -1)),
    ("too many medals", put("medals/french/europe", 29)),
    ("unknown phase", put("phase", "winter")),
    ("unknown option value", put("options/reshuffle", "never")),
    ("unknown option", put("options/house_rule", True)),
    ("a missing field", drop("serial")),
    ("a turn that is not a whole number", put("turn", "1")),
    ("an unknown pending kind", put("pending", {"kind": "nap"})),
    ("another game's state", put("game", "lod")),
]


@pytest.mark.parametrize(
    "mutation",
    [mutate for _, mutate in SEVEN_YEARS_REJECTIONS],
    ids=[what for what, _ in SEVEN_YEARS_REJECTIONS],
)
def test_seven_years_states_the_engine_refuses_the_schema_refuses(
    mutation: Mutation,
    generated: dict[str, dict[str, Any]],
) -> None:
    good = seven_years_state()
    assert not refused(generated["sevenyears-game-state"], good)
    bad = mutation(good)
    with pytest.raises(LegalisError):
        SevenYearsGame().state_from_json(bad)
    assert refused(generated["sevenyears-game-state"], bad)
    with pytest.raises(ValidationError):
        state_document_model().model_validate(bad)


MOVE_REJECTIONS: list[tuple[str, dict[str, Any]]] = [
    ("bad player name", {"type": "pass", "player": "prussian"}),
    (
        "bad victim",
        {
            "type": "difficulty_discard",
            "player": "british",
            "victim": "spain",
            "area": "india",
            "card": "Forts",
        },
    ),
    ("unknown card", {"type": "play_effect", "player": "french", "card": "Joker"}),
    ("unknown area", {"type": "lay", "player": "french", "card": "Forts", "area": "africa"}),
    ("unknown type", {"type": "surrender", "player": "french"}),
    ("an extra field", {"type": "pass", "player": "french", "card": "Forts"}),
    ("a missing field", {"type": "lay", "player": "french", "card": "Forts"}),
    ("a card that is not a name", {"type": "play_effect", "player": "french", "card": 3}),
]


@pytest.mark.parametrize(
    "move", [move for _, move in MOVE_REJECTIONS], ids=[what for what, _ in MOVE_REJECTIONS]
)
def test_seven_years_moves_the_engine_refuses_the_schema_refuses(
    move: dict[str, Any], generated: dict[str, dict[str, Any]]
) -> None:
    with pytest.raises(InputError):
        SevenYearsGame().move_from_json(move)
    assert refused(generated["sevenyears-move"], move)
    with pytest.raises(ValidationError):
        move_document_model().model_validate(move)


def test_area_names_and_codes_are_accepted_as_the_move_reader_accepts_them(
    check: Callable[[str, Any], None],
) -> None:
    for area in ("india", "India", "I"):
        move = {"type": "lay", "player": "british", "card": "Forts", "area": area}
        SevenYearsGame().move_from_json(move)
        check("sevenyears-move", move)


EVENT_MOVE_REJECTIONS: list[tuple[str, dict[str, Any]]] = [
    (
        "a count of 0",
        {"card": 1, "side": "unshaded", "faction": "british", "steps": [[["Boston", "tory", 0]]]},
    ),
    (
        "a short triple",
        {"card": 1, "side": "unshaded", "faction": "british", "steps": [[["Boston", "tory"]]]},
    ),
    (
        "a card that is not a number",
        {"card": "1", "side": "unshaded", "faction": "british", "steps": []},
    ),
    ("a missing field", {"card": 1, "side": "unshaded", "faction": "british"}),
    (
        "steps that are not a list",
        {"card": 1, "side": "unshaded", "faction": "british", "steps": 0},
    ),
]


@pytest.mark.parametrize(
    "move",
    [move for _, move in EVENT_MOVE_REJECTIONS],
    ids=[what for what, _ in EVENT_MOVE_REJECTIONS],
)
def test_event_moves_the_engine_refuses_the_schema_refuses(
    move: dict[str, Any], generated: dict[str, dict[str, Any]]
) -> None:
    with pytest.raises(InputError):
        event_move_from_json(move)
    assert refused(generated["coin-event-move"], move)
    with pytest.raises(ValidationError):
        EventMoveDocument.model_validate(move)


def _sample(game: str) -> dict[str, Any]:
    text = resources.files(f"legalis.model.{game}").joinpath("decks/sample.toml").read_text()
    return tomllib.loads(text)


FIRST_EFFECT = "card/0/unshaded/effects/0"
DECK_REJECTIONS: list[tuple[str, Mutation]] = [
    ("a card with no side", put("card/0", {"number": 99, "title": "B", "factions": ["British"]})),
    ("an effect with no op", put(FIRST_EFFECT, {"track": "fni", "delta": 1})),
    (
        "a filter with no is",
        put(FIRST_EFFECT, {"op": "shift", "levels": 1, "where": {"filter": {"types": ["City"]}}}),
    ),
    ("a shift of 0 levels", put(FIRST_EFFECT, {"op": "shift", "levels": 0})),
    ("a shift of 5 levels", put(FIRST_EFFECT, {"op": "shift", "levels": 5})),
    ("a track change of 0", put(FIRST_EFFECT, {"op": "adjust", "track": "fni", "delta": 0})),
    ("a negative count", put(FIRST_EFFECT, {"op": "place", "pieces": ["tory"], "count": -1})),
    ("another game", put("game", "eupop")),
]


@pytest.mark.parametrize(
    "mutation", [mutate for _, mutate in DECK_REJECTIONS], ids=[what for what, _ in DECK_REJECTIONS]
)
def test_decks_the_engine_refuses_the_schema_refuses(
    mutation: Mutation,
    generated: dict[str, dict[str, Any]],
) -> None:
    good = _sample("lod")
    assert not refused(generated["coin-deck"], good)
    bad = mutation(good)
    with pytest.raises(InputError):
        deck_from_toml(bad)
    assert refused(generated["coin-deck"], bad)


def test_a_finding_with_an_unknown_severity_is_refused(
    generated: dict[str, dict[str, Any]],
) -> None:
    finding = json.loads(json.dumps(verify_sevenyears(raw_game={}).findings[0].to_json()))
    assert not refused(generated["finding"], finding)
    for bad in ({**finding, "severity": "fatal"}, {**finding, "card": None}):
        assert refused(generated["finding"], bad)
        with pytest.raises(ValidationError):
            FindingDocument.model_validate(bad)


# ---------------------------------------------------------------------- EU:PoP


def eupop_states() -> list[dict[str, Any]]:
    """Real states: the small state, the bundled sample, and the states after
    resolving each Event of the bundled catalogue automatically from the sample."""
    from legalis.solver.eupop_play import resolve

    sample = resources.files("legalis.model.eupop").joinpath("sample_state.json").read_text()
    start = eupop_state_from_json(json.loads(sample))
    found = [small_state().to_json(), start.to_json()]
    for event in load_catalogue().events.values():
        try:
            outcome = resolve(start, event.effects, event.symbols, auto=True, choices=[], seed=1)
        except LegalisError:
            continue
        assert outcome.state is not None
        found.append(outcome.state.to_json())
    return found


def test_eupop_states_validate(check: Callable[[str, Any], None]) -> None:
    states = eupop_states()
    assert len(states) > 2
    for state in states:
        check("eupop-state", state)
        assert eupop_state_from_json(state).to_json() == state


EUPOP_REJECTIONS: list[tuple[str, Mutation]] = [
    ("an unknown realm kind", put("realms/saxony_realm/kind", "empire")),
    ("negative influence", put("areas/saxony/influence/france", -1)),
    ("an unknown religion", put("areas/saxony/religion", "pagan")),
    ("an age past 4", put("age", 5)),
    ("an unknown top-level field", put("turn", 1)),
    ("another game's state", put("game", "lod")),
    ("a missing field", drop("players")),
]


@pytest.mark.parametrize(
    "mutation",
    [mutate for _, mutate in EUPOP_REJECTIONS],
    ids=[what for what, _ in EUPOP_REJECTIONS],
)
def test_eupop_states_the_engine_refuses_the_schema_refuses(
    mutation: Mutation, generated: dict[str, dict[str, Any]]
) -> None:
    good = small_state().to_json()
    assert not refused(generated["eupop-state"], good)
    bad = mutation(good)
    with pytest.raises(InputError):
        eupop_state_from_json(bad)
    assert refused(generated["eupop-state"], bad)
    with pytest.raises(ValidationError):
        EuState.model_validate(bad)
