"""Verification as tasks: run in other processes, every report and every fixture file
is the one the in-process run gives, and each card or fixture is one task."""

from __future__ import annotations

import multiprocessing
import os
import tomllib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from legalis.model.coin.deck import Deck, bundled_deck, deck_from_toml
from legalis.model.coin.scenarios import scenario_names
from legalis.model.eupop.events import load_catalogue
from legalis.model.eupop.properties import merchant_claim
from legalis.model.sevenyears.data import read_bundled
from legalis.verify.coin import verify_coin
from legalis.verify.coin_findings import CardTask, check_card, check_deck
from legalis.verify.eupop import prove_eupop, verify_eupop
from legalis.verify.fixtures import FIXTURE_GAMES, build_fixture, build_fixtures, generate_fixtures
from legalis.verify.runner import prove_claim
from legalis.verify.sequence_fixtures import build_sequence_fixture
from legalis.verify.sevenyears import verify_sevenyears
from legalis.verify.tasks import Mapper, in_process

DECKS = Path(__file__).parent / "decks"
TEXT_ONLY = DECKS / "text_only" / "lod.toml"  # read from its text, with no finding
CORPUS = [*sorted(DECKS.glob("*.toml")), TEXT_ONLY]  # each of the others plants a defect


@pytest.fixture(scope="module")
def processes() -> Iterator[Mapper]:
    """A mapper whose tasks run in two freshly spawned processes, shared by the module
    (a spawned pool takes about a second to start)."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as executor:
        assert executor.submit(os.getpid).result() != os.getpid()
        yield executor.map


class Recorder:
    """A mapper that runs tasks in this process and records what it was given."""

    def __init__(self) -> None:
        self.calls: list[tuple[Callable[[Any], Any], list[Any]]] = []

    def __call__(self, function: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        self.calls.append((function, list(items)))
        return in_process(function, items)


def untimed(report: Any) -> Any:
    """A report's JSON without the proofs' wall times (``seconds``), the one part that
    no two runs share, in one process or in many."""
    if isinstance(report, dict):
        return {key: untimed(value) for key, value in report.items() if key != "seconds"}
    if isinstance(report, list):
        return [untimed(value) for value in report]
    return report


def corpus_deck(path: Path) -> Deck:
    raw = tomllib.loads(path.read_text("utf-8"))
    raw.pop("expect", None)
    return deck_from_toml(raw, source=str(path))


@pytest.mark.parametrize("game", ["lod", "fitl"])
def test_a_sample_deck_verified_in_other_processes_gives_the_same_report(
    game: str, processes: Mapper
) -> None:
    deck = bundled_deck(game)
    done: list[int] = []
    report = verify_coin(game, deck, mapper=processes, on_card=done.append).to_json()
    assert untimed(report) == untimed(verify_coin(game, deck).to_json())
    assert report["findings"] and report["rule_set"]["effects"]
    assert done == [card.number for card in deck.cards]  # in card order, as they arrive


def test_every_corpus_deck_checked_in_other_processes_gives_the_same_findings(
    processes: Mapper,
) -> None:
    for path in CORPUS:
        deck = corpus_deck(path)
        here = [f.to_json() for f in check_deck(deck, deck.game)]
        there = [f.to_json() for f in check_deck(deck, deck.game, mapper=processes)]
        assert there == here, path.name
        assert here or path == TEXT_ONLY, path.name  # a finding to carry across


def test_strict_and_chosen_scenarios_reach_the_card_tasks(processes: Mapper) -> None:
    deck = corpus_deck(DECKS / "text_unread.toml")
    (strict,) = check_deck(deck, "lod", strict=True, mapper=processes)
    assert (strict.code, strict.severity) == ("text.unread", "error")
    deck = corpus_deck(DECKS / "lod_french_before_toa.toml")
    for scenarios in (["1778", "1775"], ["1775"]):
        here = check_deck(deck, "lod", scenarios=scenarios)
        assert check_deck(deck, "lod", scenarios=scenarios, mapper=processes) == here


def test_the_findings_come_card_by_card_then_the_deck_wide_ones() -> None:
    deck = corpus_deck(DECKS / "lasting_conflict.toml")
    found = check_deck(deck, "fitl")
    scenarios = tuple(scenario_names("fitl"))
    checked = [check_card(CardTask("fitl", card, scenarios)) for card in deck.cards]
    per_card = [finding for card in checked for finding in card.findings]
    assert per_card
    assert found[: len(per_card)] == per_card
    assert [f.code for f in found[len(per_card) :]] == ["lasting.conflict"]


def test_a_deck_is_one_task_per_card_in_card_order() -> None:
    deck = bundled_deck("fitl")
    recorder = Recorder()
    check_deck(deck, "fitl", scenarios=["short"], strict=True, mapper=recorder)
    ((function, tasks),) = recorder.calls
    assert function is check_card
    assert tasks == [CardTask("fitl", card, ("short",), strict=True) for card in deck.cards]


def test_the_seven_years_war_proved_in_other_processes_gives_the_same_report(
    processes: Mapper,
) -> None:
    broken = dict(read_bundled("game.toml"), medals_per_player=19)
    for rules in (None, broken):
        here = untimed(verify_sevenyears(raw_game=rules).to_json())
        assert untimed(verify_sevenyears(raw_game=rules, mapper=processes).to_json()) == here
    assert "proof.failed" in {f["code"] for f in here["findings"]}  # a counterexample crossed


def test_eupop_proved_in_other_processes_gives_the_same_report(processes: Mapper) -> None:
    catalogue = load_catalogue()
    here = untimed(verify_eupop(catalogue).to_json())
    assert untimed(verify_eupop(catalogue, mapper=processes).to_json()) == here
    broken = [merchant_claim(one_at_a_time=False)]
    failed = prove_eupop(broken, mapper=processes)
    assert untimed(failed.to_json()) == untimed(prove_eupop(broken).to_json())
    assert not failed.ok


def test_a_proof_is_one_task_per_claim() -> None:
    recorder = Recorder()
    report = verify_eupop(load_catalogue(), mapper=recorder)
    ((function, tasks),) = recorder.calls
    assert function is prove_claim and len(tasks) == len(report.proofs) == 10


@pytest.mark.parametrize("game", FIXTURE_GAMES)
def test_fixtures_built_in_other_processes_are_the_same_bytes(
    game: str, processes: Mapper, tmp_path: Path
) -> None:
    generate_fixtures(game, tmp_path / "here", seed=3)
    generate_fixtures(game, tmp_path / "there", seed=3, mapper=processes)
    names = sorted(path.name for path in (tmp_path / "here").iterdir())
    assert names == sorted(path.name for path in (tmp_path / "there").iterdir())
    assert len(names) > 10
    for name in names:
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


def test_fixtures_are_one_task_per_fixture() -> None:
    recorder = Recorder()
    manifest, fixtures = build_fixtures("lod", per_rule=1, mapper=recorder)
    (event, event_tasks), (sequence, sequence_tasks) = recorder.calls
    assert event is build_fixture and sequence is build_sequence_fixture
    assert len(event_tasks) == len(manifest.fixtures) and len(event_tasks) > 1
    assert len(sequence_tasks) == len(manifest.sequence) and len(sequence_tasks) > 1
    assert len(fixtures) == len(event_tasks) + len(sequence_tasks)
