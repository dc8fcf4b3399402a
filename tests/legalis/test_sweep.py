"""Sweeps: the grid and its seeds, results that depend on neither the workers nor
the batches, resuming, failures never hidden, the figures and the command line.

The Ray backend's agreement with the local one is in ``test_sweep_ray.py``.
"""

from __future__ import annotations

import json
import math
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from legalis.model.errors import InputError
from legalis.solver.gamelog import parse_log, replay

import legalis.cli as cli
from legalis.backends import open_backend
from legalis.registry import load_game
from legalis.sweep import batch_size, plan, report_study, run_study
from legalis.sweep.play import batch_of, decision_state, play_batch
from legalis.sweep.report import wilson
from legalis.sweep.store import RESULTS_FILE, SLOWEST_FOLDER, open_store
from legalis.sweep.study import Study, game_seed, study_from_axes, study_from_toml
from tests.processes import stop
from tests.verify.test_tasks import untimed

# What a game's figures must agree on wherever it was played (not its seconds).
SAME = (
    "cell",
    "index",
    "seed",
    "status",
    "winner",
    "condition",
    "turns",
    "decisions",
    "moves",
    "digest",
)


def rows(folder: Path) -> list[tuple[Any, ...]]:
    """Every kept game's figures that must not depend on how it was played."""
    with sqlite3.connect(folder / RESULTS_FILE) as db:
        return db.execute(
            "select cell, game_index, seed, status, winner, condition, turns, decisions, "
            "moves, digest from games order by cell, game_index"
        ).fetchall()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


# ---------------------------------------------------------------------- the grid


def test_the_grid_is_every_combination_of_its_axes() -> None:
    study = study_from_axes(
        "lod",
        scenarios=["1775", "1778"],
        options=["march_in_place=true", "march_in_place=false"],
        seats=["default", "british=random"],
        games=3,
    )
    assert len(study.cells) == 2 * 2 * 2
    settings = {
        (dict(c.options)["scenario"], dict(c.options)["march_in_place"], dict(c.seats)["british"])
        for c in study.cells
    }
    assert len(settings) == 8
    assert len({cell.key for cell in study.cells}) == 8
    # the Non-player rules follow the seats (8.1): a random British seat is no Non-player
    from legalis.sweep.play import _game

    cell = next(c for c in study.cells if dict(c.seats)["british"] == "random")
    assert "british" not in _game("lod", cell).options.to_json()["nonplayers"]


def test_a_study_file_gives_the_same_grid_as_the_flags(tmp_path: Path) -> None:
    deck = Path("model/lod/decks/sample.toml").resolve()
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.toml").write_text(deck.read_text())
    (tmp_path / "study.toml").write_text(
        'game = "lod"\ngames = 4\nseed = 9\nscenarios = ["1775", "1778"]\n'
        'seats = ["default", "french=random"]\ndecks = ["decks/mine.toml"]\n'
        "[options]\nmarch_in_place = [true, false]\nstrike_most = false\n"
    )
    from_file = study_from_toml(tmp_path / "study.toml")
    from_flags = study_from_axes(
        "lod",
        scenarios=["1775", "1778"],
        seats=["default", "french=random"],
        options=["march_in_place=true", "march_in_place=false", "strike_most=false"],
        decks=[tmp_path / "decks" / "mine.toml"],
        games=4,
        seed=9,
    )
    assert from_file.identity() == from_flags.identity()
    assert len(from_file.cells) == 8 and from_file.games == 4


@pytest.mark.parametrize(
    ("settings", "path", "words"),
    [
        ({"options": ["nonplayers=british"]}, "--option", "the seats name the Non-players"),
        ({"options": ["no_such=1"]}, "--option", "no option"),
        ({"options": ["march_in_place=maybe"]}, "--option: march_in_place", ""),
        ({"seats": ["kaiser=random"]}, "--seats", "no seat"),
        ({"seats": ["british=human"]}, "--seats", "unknown player"),
        ({"scenarios": ["1999"]}, "--scenario: scenario", ""),
        ({"games": 0}, "games", "at least 1"),
        ({"invariants": "sometimes"}, "invariants", "unknown check"),
    ],
)
def test_a_bad_grid_names_the_flag(settings: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(InputError) as raised:
        study_from_axes("lod", **settings)
    assert raised.value.path == path
    assert words in raised.value.message


def test_a_bad_study_file_names_its_field(tmp_path: Path) -> None:
    bad = tmp_path / "study.toml"
    bad.write_text('game = "lod"\nscenario = ["1775"]\n')
    with pytest.raises(InputError) as raised:
        study_from_toml(bad)
    assert (raised.value.path, raised.value.source) == ("scenario", str(bad))
    bad.write_text('game = "lod"\ngames = "many"\n')
    with pytest.raises(InputError, match="expected int"):
        study_from_toml(bad)


# ---------------------------------------------------------------------- seeds


def test_every_cell_plays_the_same_seeds_and_a_game_replays_alone() -> None:
    study = study_from_axes("sevenyears", games=6, seed=4, seats=["default", "british=greedy"])
    first, second = (batch_of(study, cell, range(6)) for cell in study.cells)
    assert [seed for _, seed in first.games] == [seed for _, seed in second.games]
    assert [seed for _, seed in first.games] == [game_seed(4, i) for i in range(6)]
    together = play_batch(first)
    alone = [play_batch(batch_of(study, study.cells[0], [i]))[0] for i in (5, 2)]
    for outcome in alone:
        twin = together[outcome["index"]]
        assert {k: outcome[k] for k in SAME} == {k: twin[k] for k in SAME}


def test_batches_cover_every_missing_game_once(tmp_path: Path) -> None:
    study = study_from_axes("sevenyears", games=10, seats=["default", "french=greedy"])
    with open_store(tmp_path, study) as store:
        store.add(play_batch(batch_of(study, study.cells[0], [0, 3, 4])))
        batches = plan(study, store, workers=2, size=3)
    wanted = {(c.key, i) for c in study.cells for i in range(10)} - {
        (study.cells[0].key, i) for i in (0, 3, 4)
    }
    planned = [(b.cell.key, i) for b in batches for i, _ in b.games]
    assert sorted(planned) == sorted(wanted)
    assert max(len(b.games) for b in batches) == 3
    assert batch_size(10_000, 2) == 64 and batch_size(40, 2) == 1


# ---------------------------------------------------------------------- running


@pytest.fixture(scope="module")
def local() -> Any:
    with open_backend("local", workers=2) as backend:
        yield backend


def test_the_figures_do_not_depend_on_workers_or_batches(tmp_path: Path, local: Any) -> None:
    study = study_from_axes(
        "lod", scenarios=["1775"], games=4, seats=["default", "patriots=random"]
    )
    run_study(study, tmp_path / "two", local, size=3)
    with open_backend("local", workers=1) as one:
        run_study(study, tmp_path / "one", one, size=1)
    assert rows(tmp_path / "one") == rows(tmp_path / "two")
    assert len(rows(tmp_path / "one")) == 8
    assert {row[3] for row in rows(tmp_path / "one")} == {"ok"}


def test_a_stopped_study_keeps_its_games_and_resumes(tmp_path: Path, local: Any) -> None:
    study = study_from_axes("sevenyears", games=12, seats=["default", "british=greedy"])
    heard: list[int] = []
    stopped = run_study(
        study,
        tmp_path / "stopped",
        local,
        size=2,
        stop=lambda: len(heard) >= 2,
        on_games=lambda games, failed: heard.append(games),
    )
    assert stopped["interrupted"] and stopped["played"] == sum(heard) < 24
    assert len(rows(tmp_path / "stopped")) == stopped["played"]
    resumed = run_study(study, tmp_path / "stopped", local, size=5)
    assert resumed["missing"] == 24 - stopped["played"] and not resumed["interrupted"]
    run_study(study, tmp_path / "whole", local)
    assert rows(tmp_path / "stopped") == rows(tmp_path / "whole")


def test_more_games_extend_a_study_and_another_study_is_refused(tmp_path: Path, local: Any) -> None:
    study = study_from_axes("sevenyears", games=3)
    run_study(study, tmp_path, local)
    extended = run_study(study.with_counts(games=5), tmp_path, local)
    assert extended["missing"] == 2 and len(rows(tmp_path)) == 5
    with pytest.raises(InputError) as raised:
        run_study(study.with_counts(seed=2), tmp_path, local)
    assert "seed" in raised.value.message and raised.value.path == "--out"
    report_study(study.with_counts(games=5), tmp_path)
    assert any((tmp_path / SLOWEST_FOLDER).iterdir())
    fresh = run_study(study.with_counts(seed=2), tmp_path, local, fresh=True)
    assert fresh["missing"] == 3 and len(rows(tmp_path)) == 3
    assert not (tmp_path / SLOWEST_FOLDER).exists()  # the dropped games' states went with them


def test_a_folder_whose_results_file_is_no_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / RESULTS_FILE).write_text("not a database, but a note to self\n" * 100)
    code, _, err = run(capsys, "sweep", "sevenyears", "--games", "1", "--out", str(tmp_path))
    assert code == 2 and "is not a study's results" in err


# ---------------------------------------------------------------------- failures


class _Breaks:
    """A player that raises at its ``at``-th decision."""

    name = "breaks"

    def __init__(self, at: int) -> None:
        self.at, self.seen = at, 0

    def choose(self, state: Any, rng: Any) -> Any:
        self.seen += 1
        if self.seen == self.at:
            raise RuntimeError("planted fault")
        return state.legal_moves().random(rng)


def _replays(game: str, log: str) -> int:
    parsed = parse_log(log.split("\n"), source="log")
    return replay(load_game(game, parsed.header["options"]), parsed).moves


def test_an_exception_is_a_failure_with_a_log_that_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import legalis.sweep.play as play

    monkeypatch.setattr(play, "automatic_player", lambda kind, game, seat: _Breaks(4))
    study = study_from_axes("sevenyears", games=1)
    outcome = play_batch(batch_of(study, study.cells[0], [0]))[0]
    assert outcome["status"] == "failed"
    failure = outcome["failure"]
    assert (failure["kind"], failure["type"], failure["message"]) == (
        "exception",
        "RuntimeError",
        "planted fault",
    )
    assert "planted fault" in failure["traceback"]
    assert _replays("sevenyears", failure["log"]) == outcome["moves"] > 0


def test_a_broken_invariant_and_an_endless_game_are_failures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from legalis.model.sevenyears.state import SevenYearsState

    short = study_from_axes("sevenyears", games=1, max_moves=10)
    outcome = play_batch(batch_of(short, short.cells[0], [0]))[0]
    assert (outcome["status"], outcome["failure"]["kind"]) == ("failed", "too-long")
    assert _replays("sevenyears", outcome["failure"]["log"]) == 10

    sound = SevenYearsState.invariant_problems
    monkeypatch.setattr(
        SevenYearsState,
        "invariant_problems",
        lambda self: sound(self) + (["planted"] if self.turn >= 2 else []),
    )
    for check in ("every-move", "end"):
        study = study_from_axes("sevenyears", games=1, invariants=check)
        outcome = play_batch(batch_of(study, study.cells[0], [0]))[0]
        assert (outcome["status"], outcome["failure"]["kind"]) == ("failed", "invariant")
        assert "planted" in outcome["failure"]["message"]
    # every-move stops at the first broken state; end plays on to the last move
    assert _replays("sevenyears", outcome["failure"]["log"]) > 0


def test_failures_are_reported_with_their_files_and_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys,
        "sweep",
        "sevenyears",
        "--games",
        "2",
        "--max-moves",
        "10",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
        "--json",
    )
    body = json.loads(out)
    assert code == 1 and body["failed"] == 2
    failures = body["cells"][0]["failures"]
    assert [f["kind"] for f in failures] == ["too-long", "too-long"]
    for failure in failures:
        assert Path(failure["log"]).is_file() and Path(failure["traceback"]).is_file()
        assert failure["replay"] == f"legalis replay sevenyears {failure['log']}"


# ---------------------------------------------------------------------- figures


def test_wilson_interval_worked_by_hand() -> None:
    # Wilson (1927): centre (p + z^2/2n) / (1 + z^2/n), half-width
    # z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n); 7 of 20 at z = 1.959964
    z, n, p = 1.959964, 20, 7 / 20
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert wilson(7, 20) == (round(centre - half, 4), round(centre + half, 4))
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_the_summary_counts_what_was_kept(tmp_path: Path, local: Any) -> None:
    study = study_from_axes("sevenyears", games=30, seats=["default", "british=greedy"], slowest=2)
    run_study(study, tmp_path, local)
    summary = report_study(study, tmp_path)
    kept = rows(tmp_path)
    for cell in summary["cells"]:
        mine = [row for row in kept if row[0] == cell["key"]]
        finished = [row for row in mine if row[3] == "ok"]
        for side in ("british", "french"):
            won = sum(row[4] == side for row in finished)
            assert cell["wins"][side]["games"] == won
            assert (cell["wins"][side]["low"], cell["wins"][side]["high"]) == wilson(
                won, len(finished)
            )
        assert cell["turns"]["mean"] == round(sum(r[6] for r in finished) / len(finished), 3)
        assert len(cell["slowest"]) == 2
        for entry in cell["slowest"]:
            state = json.loads(Path(entry["state"]).read_text())
            game = load_game("sevenyears", state.get("options"))
            assert game.state_from_json(state).to_move == entry["seat"]
    assert json.loads((tmp_path / "summary.json").read_text())["played"] == 60
    for name in ("win-rates.png", "win-rates.svg", "lengths.png", "lengths.svg"):
        assert (tmp_path / name).stat().st_size > 1000
    svg = (tmp_path / "win-rates.svg").read_text()
    report_study(study, tmp_path)
    assert (tmp_path / "win-rates.svg").read_text() == svg  # the same results, the same file


def test_a_slow_decision_state_is_the_state_the_game_reached() -> None:
    study = study_from_axes("lod", scenarios=["1775"], games=1)
    outcome = play_batch(batch_of(study, study.cells[0], [0]))[0]
    entry = outcome["slowest"][0]
    state = decision_state(study, study.cells[0], outcome["seed"], entry["decision"])
    assert state.to_move == entry["seat"] and not state.is_over
    later = decision_state(study, study.cells[0], outcome["seed"], entry["decision"] + 1)
    assert later.to_json() != state.to_json()


# ---------------------------------------------------------------------- command line


def test_the_command_runs_a_study_file_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "study.toml").write_text(
        'game = "sevenyears"\ngames = 5\nseats = ["default", "british=greedy"]\n'
        '[options]\nreshuffle = ["plan_only", "any_draw"]\n'
    )
    study = ["sweep", "sevenyears", "--study", str(tmp_path / "study.toml")]
    out_dir = str(tmp_path / "out")
    code, out, _ = run(capsys, *study, "--out", out_dir, "--workers", "2", "--json")
    body = json.loads(out)
    assert code == 0 and body["played"] == 20 and len(body["cells"]) == 4
    assert body["study"]["source"] == str(tmp_path / "study.toml")
    code, out, _ = run(capsys, *study, "--out", out_dir, "--games", "6", "--workers", "1")
    assert code == 0 and "24 games of 24 planned" in out
    code, _, err = run(capsys, *study, "--scenario", "x", "--out", out_dir)
    assert code == 2 and "--scenario" in err
    code, _, err = run(capsys, "sweep", "lod", "--study", str(tmp_path / "study.toml"))
    assert code == 2 and "a study of sevenyears" in err
    code, _, err = run(capsys, "sweep", "sevenyears", "--backend", "cloud", "--out", out_dir)
    assert code == 2 and "allowed: local, ray" in err
    code, _, err = run(capsys, *study, "--invariants", "sometimes", "--out", out_dir)
    assert code == 2 and "--invariants: unknown check" in err


def test_ctrl_c_stops_cleanly_keeps_the_games_and_the_same_command_resumes(
    tmp_path: Path,
) -> None:
    command = [
        sys.executable,
        "-m",
        "legalis",
        "sweep",
        "lod",
        "--games",
        "60",
        "--scenario",
        "1775",
        "--workers",
        "2",
        "--batch",
        "1",
        "--out",
        str(tmp_path),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if (tmp_path / RESULTS_FILE).exists() and rows(tmp_path):
                break
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        stop(process)
    assert process.returncode == 130, err
    assert "interrupted" in out and "the same command resumes" in out
    kept = rows(tmp_path)
    assert 0 < len(kept) < 60
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["played"] == len(kept) and not summary["complete"]
    # games finish out of order: the kept ones need not be the first indices
    games = max(row[1] for row in kept) + 3
    finished = subprocess.run(
        [*command, "--games", str(games), "--json"], capture_output=True, text=True, timeout=300
    )
    assert finished.returncode == 0, finished.stderr
    assert json.loads(finished.stdout)["run"]["missing"] == games - len(kept)
    assert set(kept) <= set(rows(tmp_path)) and len(rows(tmp_path)) == games


def test_every_study_setting_has_a_flag() -> None:
    import inspect
    from dataclasses import fields

    flags = inspect.signature(cli.sweep_command).parameters
    named = {
        "game": "game_name",
        "games": "games_count",
        "cells": "scenario",
        "source": "study_path",
    }
    for field in fields(Study):
        assert named.get(field.name, field.name) in flags


def test_verify_and_fixtures_give_the_same_answers_on_local_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = "model/lod/decks/sample.toml"
    code, alone, _ = run(capsys, "verify", "lod", deck, "--json")
    code_2, shared, _ = run(capsys, "verify", "lod", deck, "--json", "--backend", "local",
                            "--workers", "2")  # fmt: skip
    assert code == code_2
    assert untimed(json.loads(shared)) == untimed(json.loads(alone))
    run(capsys, "fixtures", "fitl", "--out", str(tmp_path / "alone"))
    run(capsys, "fixtures", "fitl", "--out", str(tmp_path / "shared"), "--backend", "local")
    names = sorted(p.name for p in (tmp_path / "alone").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "shared").iterdir()) and len(names) > 5
    for name in names:
        assert (tmp_path / "alone" / name).read_bytes() == (tmp_path / "shared" / name).read_bytes()
    code, _, err = run(capsys, "verify", "lod", deck, "--workers", "2")
    assert code == 2 and "--workers needs --backend" in err


def test_a_study_files_seed_holds_unless_the_flag_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "study.toml").write_text('game = "sevenyears"\ngames = 1\nseed = 9\n')
    for flags, seed in (((), 9), (("--seed", "3"), 3), (("--seed", "1"), 1)):
        out_dir = str(tmp_path / f"out-{seed}")
        code, out, _ = run(capsys, "sweep", "sevenyears", "--study", str(tmp_path / "study.toml"),
                           "--workers", "1", "--out", out_dir, "--json", *flags)  # fmt: skip
        assert code == 0 and json.loads(out)["study"]["seed"] == seed
