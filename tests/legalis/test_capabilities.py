"""The capabilities hand the mapper they are given to every verifier and to the
fixture makers: the tasks go through it, and the results are those without it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from legalis.capabilities import VerifyInput, fixture_maker, verifier, with_capability
from tests.verify.test_tasks import Recorder, untimed

ROOT = Path(__file__).resolve().parents[2]


def functions(recorder: Recorder) -> list[str]:
    """The name of the task function of each task the recorder saw."""
    return [function.__name__ for function, items in recorder.calls for _ in items]


def data_of(game: str) -> dict[str, Any] | None:
    """A COIN game's sample deck cut to three cards (the other games verify their
    bundled data)."""
    if game not in ("lod", "fitl"):
        return None
    raw = tomllib.loads((ROOT / "model" / game / "decks" / "sample.toml").read_text("utf-8"))
    return {**raw, "card": raw["card"][:3]}


TASKS = {"lod": "check_card", "fitl": "check_card", "sevenyears": "prove_claim",
         "eupop": "prove_claim"}  # fmt: skip


@pytest.mark.parametrize("game", with_capability("verify"))
def test_every_verifier_runs_its_tasks_through_the_mapper_given(game: str) -> None:
    recorder = Recorder()
    data = data_of(game)
    report = verifier(game)(VerifyInput(data=data, mapper=recorder)).to_json()
    assert untimed(report) == untimed(verifier(game)(VerifyInput(data=data)).to_json())
    assert recorder.calls and set(functions(recorder)) == {TASKS[game]}
    if data is not None:
        assert len(functions(recorder)) == len(data["card"])


@pytest.mark.parametrize("game", with_capability("fixtures"))
def test_every_fixture_maker_builds_through_the_mapper_given(game: str, tmp_path: Path) -> None:
    recorder = Recorder()
    make = fixture_maker(game)
    built = make(None, per_rule=1, seed=2, mapper=recorder)
    assert built == make(None, per_rule=1, seed=2)
    tasks = functions(recorder)
    assert tasks.count("build_fixture") == len(built["manifest"]["fixtures"])
    assert tasks.count("build_sequence_fixture") == len(built["manifest"]["sequence"])
    written = make(tmp_path, per_rule=1, seed=2, mapper=recorder)
    assert written == built["manifest"] and (tmp_path / "manifest.json").is_file()
    assert len(functions(recorder)) == 2 * len(built["fixtures"])
