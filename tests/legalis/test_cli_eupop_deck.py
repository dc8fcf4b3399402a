"""`legalis deck --game eupop`: the prepared deck per Age and the first display (16,
16.2); problems exit 1 (16.1), bad input exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import legalis.cli as cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def test_deck_json_replays_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("deck", "--game", "eupop", "--scenario", "three_crowns", "--seed", "7", "--json")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    body = json.loads(out)
    assert [age["age"] for age in body["ages"]] == [1, 2] and body["problems"] == []
    # 16.2: players + 1 Events, the first 3 face up
    assert [slot["face_up"] for slot in body["display"]] == [True, True, True, False]
    assert [s["event"] for s in body["display"]] == body["ages"][0]["deck"][:4]
    assert json.loads(run(capsys, *argv)[1]) == body


def test_deck_text_one_age_randomized(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deck", "--game", "eupop", "--scenario", "channel_rivals",
                       "--seed", "1", "--age", "2", "--randomize-x", "--players", "6")  # fmt: skip
    assert code == 0 and out.startswith("Age 2 (top first): ") and "face down" in out


def test_deck_problems_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nrealms = ["france"]\nages = [1]\n'
                   '[age.1]\nfirst_half = ["11A-1", "11A-1"]\n')  # fmt: skip
    code, out, _ = run(capsys, "deck", "--game", "eupop", "--scenario", str(bad))
    assert code == 1 and "[16.1]" in out and "listed more than once" in out


def test_deck_bad_input_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "deck", "--game", "eupop", "--scenario", "nowhere")
    assert code == 2 and "no scenario" in err
    code, _, err = run(capsys, "deck", "--game", "lod")
    assert code == 2 and "eupop" in err
