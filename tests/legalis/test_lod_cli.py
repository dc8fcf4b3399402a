"""Liberty or Death as a whole game over the CLI: new, moves, apply, play (with a
human seat), simulate, replay and the errors of their arguments.

Whole games are few and of the short 1778 scenario (three campaigns)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pexpect
import pytest

import legalis.cli as cli
from legalis.registry import load_game

WHOLE_GAME_SEED = 9  # seeds 9 and 10 of 1778 play to their end with Non-players


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def _legalis() -> list[str]:
    found = shutil.which("legalis", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "legalis"]


def test_new_writes_a_decision_that_moves_lists_and_apply_advances(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, after = tmp_path / "state.json", tmp_path / "after.json"
    code, _, _ = run(capsys, "new", "lod", "--scenario", "1778", "--seed", "3", "--out", str(path))
    assert code == 0
    raw = json.loads(path.read_text())
    game = load_game("lod", raw["options"])
    state = game.state_from_json(raw)
    assert raw["options"]["scenario"] == "1778" and not state.is_chance  # a decision (2.1, 2.2)

    code, out, _ = run(capsys, "moves", "lod", "--state", str(path), "--json", "--limit", "3")
    body = json.loads(out)
    assert code == 0 and body["to_move"] == state.to_move
    assert body["count"] == state.legal_moves().count()
    first = body["moves"][0]["move"]
    assert game.move_from_json(first) in state.legal_moves()

    code, out, _ = run(capsys, "moves", "lod", "--state", str(path), "--check", json.dumps(first))
    assert code == 0 and out.startswith("legal: ")
    code, _, _ = run(capsys, "apply", "lod", "--state", str(path), "--move", json.dumps(first),
                     "--out", str(after))  # fmt: skip
    assert code == 0
    state.play(game.move_from_json(first))
    assert json.loads(after.read_text()) == state.to_json()


def test_an_illegal_move_is_refused_with_its_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    run(capsys, "new", "lod", "--scenario", "1778", "--out", str(path))
    state = load_game("lod", {"scenario": "1778"}).state_from_json(json.loads(path.read_text()))
    other = next(f for f in ("british", "patriots", "french", "indians") if f != state.to_move)
    move = json.dumps({"type": "pass", "faction": other})
    code, out, _ = run(capsys, "moves", "lod", "--state", str(path), "--check", move)
    assert code == 1 and out.startswith("illegal: ") and "[2." in out  # the Sequence of Play
    code, out, err = run(capsys, "apply", "lod", "--state", str(path), "--move", move)
    assert code == 2 and not out and err.count("\n") == 1 and "[2." in err


def test_a_human_seat_takes_moves_by_number_and_json_then_quits() -> None:
    command = [*_legalis(), "play", "lod", "--scenario", "1778", "--seed", "2",
               "--seat", "british=human"]  # fmt: skip
    child = pexpect.spawn(command[0], command[1:], encoding="utf-8", timeout=60,
                          dimensions=(50, 200))  # fmt: skip
    listed = r"Your move, british \(1-(\d+) or a move as JSON"
    headed = r"Open a heading, british \(a-([a-z])\)"
    by_number = by_json = 0
    for _ in range(30):
        which = child.expect([listed, headed, pexpect.EOF])
        assert which != 2, child.before
        if by_number and by_json:
            child.sendline("q")
            break
        if which == 0:
            child.sendline(child.match.group(1))  # the last listed move
            by_number += 1
            continue
        # Too many to list: the headings come with their counts, e.g. "a. Pass (1)".
        assert "Pass (1)" in child.before
        child.sendline(json.dumps({"type": "pass", "faction": "french"}))
        child.expect(r"Not allowed: .*\[2\.")  # refused with the rule, and asked again
        child.expect(headed)
        child.sendline(json.dumps({"type": "pass", "faction": "british"}))  # 2.3.3
        by_json += 1
    child.expect(pexpect.EOF)
    child.close()
    assert by_number >= 1 and by_json >= 1
    assert child.exitstatus == 2 and "abandoned" in child.before  # as a Seven Years War quit


def test_simulate_plays_the_games_asked_with_results(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "lod", "--scenario", "1778", "--games", "2",
                       "--seed", str(WHOLE_GAME_SEED), "--json")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and body["games"] == 2 and not body["interrupted"]
    assert sum(body["wins"].values()) == 2 and body["mean_decisions"] > 0
    assert set(body["players"].values()) == {"nonplayer"}
    assert body["options"]["nonplayers"] == ["british", "patriots", "french", "indians"]


def test_a_played_game_s_log_replays(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", "lod", "--scenario", "1778", "--seed",
                       str(WHOLE_GAME_SEED), "--out", str(log))  # fmt: skip
    assert code == 0 and " win (" in out
    code, out, _ = run(capsys, "replay", "lod", str(log), "--json")
    body = json.loads(out)
    assert code == 0 and body["game"] == "lod" and body["matches_log"] is True
    assert body["moves"] == len(log.read_text().splitlines()) - 2  # less header and result


def test_seven_years_war_seats_take_the_seat_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "sevenyears", "--seat", "british=random", "--json")
    body = json.loads(out)
    assert code == 0 and body["players"] == {"british": "random", "french": "greedy"}


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("play", "lod", "--seat", "british=robot"), "--seat: unknown player 'robot'"),
        (("play", "lod", "--seat", "spain=human"), "--seat: no seat 'spain' in lod"),
        (("simulate", "lod", "--seat", "british=human"), "--seat: unknown player 'human'"),
        (("simulate", "lod", "--scenario", "1999"), "--scenario: no scenario '1999'"),
        (("new", "lod", "--scenario", "1999"), "--scenario: no scenario '1999'"),
        (("play", "lod", "--deck", "missing-deck.toml"), "missing-deck.toml: cannot read"),
        (("play", "lod", "--option", "nonplayers=french"), "--option: the seats name"),
        (("play", "sevenyears", "--deck", "d.toml"), "--deck: sevenyears has no option deck"),
        (("simulate", "lod", "--option", "nonplayers=french"), "--option: the seats name"),
        (
            ("new", "lod", "--seat", "french=nonplayer", "--option", "nonplayers=french"),
            "--option: the seats name",
        ),
        (("bot", "lod", "--kind", "nonplayer"), "--kind: patriots is not a Non-player"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and err.count("\n") == 1 and fragment in err


def test_a_deck_that_is_not_toml_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck = tmp_path / "broken.toml"
    deck.write_text("not = [toml\n")
    code, out, err = run(capsys, "simulate", "lod", "--games", "1", "--deck", str(deck))
    assert code == 2 and not out and err.count("\n") == 1 and str(deck) in err


NONPLAYER_SEATS = ("--seat", "british=nonplayer", "--seat", "patriots=nonplayer",
                   "--seat", "french=nonplayer", "--seat", "indians=nonplayer")  # fmt: skip


def test_seats_made_non_players_change_the_rules_of_the_state(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 8.1: a Faction played by the Non-player rules is named in the game's options
    path = tmp_path / "state.json"
    code, _, _ = run(capsys, "new", "lod", "--seat", "french=nonplayer", "--out", str(path))
    assert code == 0 and json.loads(path.read_text())["options"]["nonplayers"] == ["french"]
    code, out, _ = run(capsys, "new", "lod", "--option", "nonplayers=french")
    assert code == 0 and json.loads(out)["options"]["nonplayers"] == ["french"]
    code, out, _ = run(capsys, "new", "lod")
    assert code == 0 and json.loads(out)["options"]["nonplayers"] == []  # people's seats


def test_bot_explains_a_non_player_decision_with_its_paragraphs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "winter.json"
    code, _, _ = run(capsys, "new", "lod", "--scenario", "1778", *NONPLAYER_SEATS, "--phase",
                     "winter quarters: supply", "--out", str(path))  # fmt: skip
    assert code == 0
    code, out, _ = run(capsys, "bot", "lod", "--state", str(path), "--explain", "--json")
    body = json.loads(out)
    # 6.2 Supply Phase, chosen by the British Non-player's 8.4.7 paragraph
    assert code == 0 and body["by"] == "british" and body["kind"] == "nonplayer"
    assert body["trace"] and all(line.startswith("8.4.7 ") for line in body["trace"])
    code, out, _ = run(capsys, "bot", "lod", "--state", str(path), "--explain")
    numbered = [line for line in out.splitlines() if line.startswith("  1. 8.4.7 ")]
    assert code == 0 and out.startswith("British supply: ") and numbered
    code, out, _ = run(capsys, "bot", "lod", "--state", str(path), "--kind", "random", "--json")
    assert code == 0 and json.loads(out)["kind"] == "random" and "trace" not in json.loads(out)
