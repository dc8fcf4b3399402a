"""The CLI under hostile input: every subcommand fed malformed and mutated input.

Valid states, decks, moves, logs and data files of every game are made with the
CLI or taken from the bundled data, then mutated by hypothesis (values, keys,
types, lines); next to them stand binary, empty, huge, deeply nested and NUL-laden
files, unknown names and out-of-range numbers. Every run must end in exit 0 (JSON
output parses), 1 (findings) or 2 with one line on stderr; never 3, never a
traceback, never more than a few seconds. The previous release's shapes are fuzzed
too: they run after one line warning that they are deprecated. The CLI runs
in-process, so that hundreds of runs stay within a minute. ``LEGALIS_FUZZ_SCALE=20``
tries twenty times as many examples, for a deeper search before a release;
``LEGALIS_FUZZ_RANDOM=1`` draws new examples on each run (``--hypothesis-seed=N``
repeats one), where by default every run tries the same ones.
"""

from __future__ import annotations

import copy
import io
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legalis.model.coin.scenarios import load_scenario
from legalis.model.core.documents import MAX_DOCUMENT_BYTES, MAX_NESTING

import legalis
import legalis.cli as cli
from legalis.legacy_cli import app as legacy_app

SECONDS_PER_RUN = 10.0  # "a few seconds" on a busy two-core machine
LONGEST_ERROR = 2500  # characters of stderr for one error line
LONGEST_WARNING = 1200  # characters of the deprecation warning of an old shape
GAMES = legalis.games()
# an EU:PoP Influence placement the sample state allows
INFLUENCE = ("--effect", "influence", "--player", "france", "--amount", "2", "--areas",
             "saxony,bohemia")  # fmt: skip

SCALE = int(os.environ.get("LEGALIS_FUZZ_SCALE", "1"))
FUZZ = settings(
    max_examples=12 * SCALE,
    deadline=None,
    derandomize="LEGALIS_FUZZ_RANDOM" not in os.environ,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Run:
    argv: tuple[str, ...]
    code: int
    out: str
    err: str
    seconds: float


@contextmanager
def _no_terminal() -> Iterator[None]:
    """Empty stdin, so a human player reads end of input instead of blocking."""
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        sys.stdin = stdin


def run_cli(*argv: str) -> Run:
    """One in-process run of ``legalis argv``."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with redirect_stdout(out), redirect_stderr(err), _no_terminal():
        try:
            cli.main(list(argv))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else -1
        else:
            code = 0
    return Run(argv, code, out.getvalue(), err.getvalue(), time.perf_counter() - started)


def without_warning(err: str) -> str:
    """stderr less the one line warning that an old shape is deprecated."""
    first, _, rest = err.partition("\n")
    deprecated = first.startswith("warning: 'legalis ") and "' is deprecated: " in first
    return rest if deprecated else err


def _one_error_line(err: str) -> bool:
    lines = [line for line in err.splitlines() if line.strip()]
    if len(lines) == 1:
        return lines[0].startswith(("error: ", "Error: "))
    # Click's usage error: the usage, the help hint, then the one "Error:" line
    return len(lines) == 3 and lines[0].startswith("Usage: ") and lines[2].startswith("Error: ")


def check_sane(run: Run) -> Run:
    """The run's exit code, output and time are within the CLI's contract."""
    shown = " ".join(repr(arg) if len(arg) < 60 else repr(arg[:60]) + "..." for arg in run.argv)
    what = f"legalis {shown} -> exit {run.code}: {run.err[:600]!r}"
    assert run.code in (0, 1, 2), what
    assert "Traceback" not in run.out + run.err, what
    assert "internal error" not in run.err, what
    assert run.seconds < SECONDS_PER_RUN, f"{what} took {run.seconds:.1f} s"
    error = without_warning(run.err)
    assert len(run.err) - len(error) <= LONGEST_WARNING, f"{what}: a long warning"
    if run.code == 2:
        assert _one_error_line(error), what
        assert len(error) <= LONGEST_ERROR, f"{what}: {len(error)} characters"
    elif "--json" in run.argv and "--help" not in run.argv:
        json.loads(run.out)
    return run


# ---------------------------------------------------------------------- valid inputs


@dataclass(frozen=True)
class Inputs:
    folder: Path
    seven_state: Path
    seven_log: str
    game_states: dict[str, Path]  # every registered game -> a state at its first decision
    game_moves: dict[str, list[str]]  # every registered game -> moves legal there, as JSON
    coin_states: dict[str, str]  # game -> a COIN board's JSON text (the old event shapes)
    coin_decks: dict[str, str]  # game -> deck TOML text
    coin_cards: dict[str, tuple[int, str, str]]  # game -> (card, side, faction)
    coin_moves: dict[str, list[str]]
    eupop_state: str
    eupop_moves: list[str]
    files: list[str]  # a valid file of each kind, and a binary one
    toml_texts: dict[str, str]  # sevenyears cards/rules, eupop catalogue/scenario


def _resource(package: str, *parts: str) -> str:
    return resources.files(package).joinpath(*parts).read_text("utf-8")


def _must(run: Run) -> Run:
    assert run.code == 0, run
    return run


@pytest.fixture(scope="module", autouse=True)
def _scratch_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Run in a scratch folder: outputs with default names (map.svg, fixtures/)
    land there, not in the working tree."""
    before = Path.cwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    try:
        yield
    finally:
        os.chdir(before)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Inputs:
    from legalis.model.coin.deck import bundled_deck
    from legalis.solver.events import legal_event_moves

    folder = tmp_path_factory.mktemp("fuzz")
    state = folder / "sevenyears.json"
    _must(run_cli("new", "sevenyears", "--seed", "3", "--phase", "conflict", "--out", str(state)))
    game_states, game_moves = {"sevenyears": state}, {}
    for name in GAMES:
        if name != "sevenyears":
            game_states[name] = folder / f"{name}-game.json"
            _must(run_cli("new", name, "--out", str(game_states[name])))
        listed = _must(run_cli("moves", name, "--state", str(game_states[name]), "--json"))
        game_moves[name] = [json.dumps(entry["move"]) for entry in json.loads(listed.out)["moves"]]
    log = folder / "game.jsonl"
    _must(run_cli("play", "sevenyears", "--seat", "british=random", "--seat", "french=random",
                  "--seed", "2", "--out", str(log), "--json"))  # fmt: skip
    coin_states, coin_decks, coin_cards, coin_moves = {}, {}, {}, {}
    for game, scenario in (("lod", "1776"), ("fitl", "short")):
        coin = load_scenario(game, scenario)
        coin_states[game] = json.dumps(coin.to_json())
        coin_decks[game] = _resource(f"legalis.model.{game}", "decks", "sample.toml")
        # the card side with the most ways to execute it: the richest move documents
        best: Any = None
        for card in bundled_deck(game).event_cards():
            for side in ("unshaded", "shaded"):
                if getattr(card, side) is not None:
                    view = legal_event_moves(coin, card, side, card.factions[0])
                    if best is None or view.count() > best.count():
                        best = view
        coin_cards[game] = (best.card.number, best.side_name, best.faction)
        coin_moves[game] = [json.dumps(best.nth(i).to_json()) for i in range(min(5, best.count()))]
    listed = _must(run_cli("moves", "--game", "eupop", *INFLUENCE, "--json")).out
    eupop_moves = [json.dumps(entry["move"]) for entry in json.loads(listed)["moves"]]
    files = [str(path) for path in game_states.values()] + [str(log)]
    for name, text in [
        *((f"{game}.json", text) for game, text in coin_states.items()),
        *((f"{game}-deck.toml", text) for game, text in coin_decks.items()),
        ("eupop.json", _resource("legalis.model.eupop", "sample_state.json")),
    ]:
        (folder / name).write_text(text, encoding="utf-8")
        files.append(str(folder / name))
    (folder / "binary.json").write_bytes(bytes(range(256)))
    files.append(str(folder / "binary.json"))
    return Inputs(
        folder=folder,
        files=files,
        seven_state=state,
        seven_log=log.read_text(encoding="utf-8"),
        game_states=game_states,
        game_moves=game_moves,
        coin_states=coin_states,
        coin_decks=coin_decks,
        coin_cards=coin_cards,
        coin_moves=coin_moves,
        eupop_state=_resource("legalis.model.eupop", "sample_state.json"),
        eupop_moves=eupop_moves,
        toml_texts={
            "cards": _resource("legalis.model.sevenyears", "cards.toml"),
            "rules": _resource("legalis.model.sevenyears", "game.toml"),
            "catalogue": _resource("legalis.model.eupop", "events.toml"),
            "scenario": _resource("legalis.model.eupop", "scenarios", "three_crowns.toml"),
        },
    )


_written = [0]


def write(inputs: Inputs, content: str | bytes, suffix: str) -> Path:
    """A new file in the fuzz folder holding ``content``."""
    _written[0] += 1
    path = inputs.folder / f"input-{_written[0]}{suffix}"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    return path


# ---------------------------------------------------------------------- mutations

HOSTILE_NAMES = ["", "atlantis", "None", "-1", "x" * 5000, "\x00", "Ünïcode", "British "]
HOSTILE_INTS = [-1, 0, 1, 2, 7, 99, 10**6, -(10**12), 10**30]
hostile_json = st.one_of(
    st.sampled_from([None, True, False, [], {}, 0.5, 1e308, -0.0, [[[[[]]]]], {"": {}}]),
    st.sampled_from(HOSTILE_INTS),
    st.integers(-3, 40),
    st.sampled_from(HOSTILE_NAMES),
    st.text(max_size=12),
).map(copy.deepcopy)  # never mutate the constants


def _paths(document: Any) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (the root is ``()``)."""
    found: list[tuple[Any, ...]] = [()]
    todo: list[tuple[tuple[Any, ...], Any]] = [((), document)]
    while todo:
        path, value = todo.pop()
        children = (
            value.items()
            if isinstance(value, dict)
            else enumerate(value)
            if isinstance(value, list)
            else ()
        )
        for key, child in children:
            found.append((*path, key))
            todo.append(((*path, key), child))
    return found


@st.composite
def mutated_json(draw: st.DrawFn, text: str) -> str:
    """``text`` (a JSON document) with one to three values, keys or types changed."""
    document = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(document)))
        if not path:
            document = draw(hostile_json)
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        operation = draw(st.sampled_from(["replace", "replace", "delete", "add", "duplicate"]))
        if operation == "replace":
            parent[key] = draw(hostile_json)
        elif operation == "delete":
            del parent[key]
        elif operation == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(HOSTILE_NAMES[:4]))] = draw(hostile_json)
        elif isinstance(parent, list):
            parent.insert(key, parent[key])
        else:
            parent[f"{key}_"] = parent[key]
    return json.dumps(document)


HOSTILE_TOML = [
    '""',
    '"atlantis"',
    "-1",
    "0",
    "99999999999999999999",
    "[]",
    "{}",
    "true",
    "1.5",
    "nan",
    '"' + "x" * 3000 + '"',
    "[[[]]]",
    '{ op = "atlantis" }',
]


@st.composite
def mutated_toml(draw: st.DrawFn, text: str) -> str:
    """``text`` (a TOML document) with one to three lines changed: a value replaced,
    a line deleted, duplicated or its key renamed."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        candidates = [i for i, line in enumerate(lines) if "=" in line or line.startswith("[")]
        index = draw(st.sampled_from(candidates))
        line = lines[index]
        operation = draw(st.sampled_from(["value", "value", "delete", "duplicate", "rename"]))
        key, sep, _ = line.partition("=")
        if operation == "value" and sep:
            lines[index] = f"{key}= {draw(st.sampled_from(HOSTILE_TOML))}"
        elif operation == "delete":
            del lines[index]
        elif operation == "duplicate":
            lines.insert(index, line)
        elif sep:
            lines[index] = f"{key.rstrip()}_x ={line.partition('=')[2]}"
    return "\n".join(lines) + "\n"


@st.composite
def mutated_log(draw: st.DrawFn, text: str) -> str:
    """A game log with one line mutated, dropped, repeated or two lines swapped."""
    lines = text.splitlines()
    index = draw(st.integers(0, len(lines) - 1))
    operation = draw(st.sampled_from(["mutate", "mutate", "drop", "repeat", "swap"]))
    if operation == "mutate":
        lines[index] = draw(mutated_json(lines[index]))
    elif operation == "drop":
        del lines[index]
    elif operation == "repeat":
        lines.insert(index, lines[index])
    else:
        other = draw(st.integers(0, len(lines) - 1))
        lines[index], lines[other] = lines[other], lines[index]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- mutated documents


@FUZZ
@given(data=st.data())
def test_mutated_sevenyears_states_and_moves(inputs: Inputs, data: st.DataObject) -> None:
    state_text = inputs.seven_state.read_text(encoding="utf-8")
    state = write(inputs, data.draw(mutated_json(state_text)), ".json")
    move = data.draw(st.sampled_from(inputs.game_moves["sevenyears"]))
    mutated_move = data.draw(mutated_json(move))
    valid = str(inputs.seven_state)
    for argv in (
        ("moves", "sevenyears", "--state", str(state), "--json"),
        ("apply", "sevenyears", "--state", str(state), "--move", move),
        ("apply", "sevenyears", "--state", valid, "--move", mutated_move),
        ("moves", "sevenyears", "--state", valid, "--check", mutated_move, "--json"),
        ("bot", "sevenyears", "--state", str(state), "--json"),
    ):
        check_sane(run_cli(*argv))


@pytest.mark.parametrize("name", GAMES)
@settings(FUZZ, max_examples=8 * SCALE)
@given(data=st.data())
def test_mutated_states_and_moves_of_every_game(
    inputs: Inputs, name: str, data: st.DataObject
) -> None:
    # Only what asks for one move's fate: a mutated state may hold a decision whose
    # moves take long to list, which a listing would then rightly spend.
    valid = inputs.game_states[name]
    state = write(inputs, data.draw(mutated_json(valid.read_text(encoding="utf-8"))), ".json")
    move = data.draw(st.sampled_from(inputs.game_moves[name]))
    mutated_move = data.draw(mutated_json(move))
    for argv in (
        ("apply", name, "--state", str(state), "--move", move, "--json"),
        ("apply", name, "--state", str(valid), "--move", mutated_move),
        ("moves", name, "--state", str(valid), "--check", mutated_move, "--json"),
    ):
        check_sane(run_cli(*argv))


@FUZZ
@given(data=st.data())
def test_mutated_logs_replay_or_name_the_line(inputs: Inputs, data: st.DataObject) -> None:
    log = write(inputs, data.draw(mutated_log(inputs.seven_log)), ".jsonl")
    check_sane(run_cli("replay", "sevenyears", str(log), "--json"))
    check_sane(run_cli("replay", str(log), "--json"))  # the old shape reads the game in it


@pytest.mark.parametrize("game", ["lod", "fitl"])
@FUZZ
@given(data=st.data())
def test_mutated_coin_states_decks_and_moves(
    inputs: Inputs, game: str, data: st.DataObject
) -> None:
    # the old shapes of one COIN event's executions, the Non-player turn, Winter Quarters
    card, side, faction = inputs.coin_cards[game]
    event = ("--card", str(card), "--side", side, "--faction", faction)
    scenario = {"lod": "1776", "fitl": "short"}[game]
    state = write(inputs, data.draw(mutated_json(inputs.coin_states[game])), ".json")
    deck = write(inputs, data.draw(mutated_toml(inputs.coin_decks[game])), ".toml")
    move = data.draw(mutated_json(data.draw(st.sampled_from(inputs.coin_moves[game]))))
    runs = [
        ("moves", game, "--state", str(state), *event, "--count", "--json"),
        ("moves", game, "--scenario", scenario, "--deck", str(deck), *event, "--count"),
        ("apply", game, "--scenario", scenario, *event, "--move", move),
    ]
    if game == "lod":  # the Non-player rules and Winter Quarters are Liberty or Death's
        runs.append(("bot", "lod", "--state", str(state), "--card", str(card), "--faction",
                     faction, "--json"))  # fmt: skip
        runs.append(("winter", "lod", "--state", str(state), "--year", "1776", "--json"))
    for argv in runs:
        check_sane(run_cli(*argv))


@FUZZ
@given(data=st.data())
def test_mutated_eupop_states_and_moves(inputs: Inputs, data: st.DataObject) -> None:
    # the old shapes: one effect's choices, an Event resolved, the map drawn
    state = str(write(inputs, data.draw(mutated_json(inputs.eupop_state)), ".json"))
    move = data.draw(mutated_json(data.draw(st.sampled_from(inputs.eupop_moves))))
    for argv in (
        ("moves", "--game", "eupop", "--state", state, *INFLUENCE, "--count", "--json"),
        ("moves", "--game", "eupop", *INFLUENCE, "--check", move, "--json"),
        ("resolve", "eupop", "--state", state, "--event", "13A-2", "--auto", "--json"),
        ("draw", "--game", "eupop", "--state", state, "--out", str(inputs.folder / "map.svg"),
         "--json"),
    ):  # fmt: skip
        check_sane(run_cli(*argv))


@settings(FUZZ, max_examples=6 * SCALE)
@given(data=st.data())
def test_mutated_data_files(inputs: Inputs, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(sorted(inputs.toml_texts)))
    path = str(write(inputs, data.draw(mutated_toml(inputs.toml_texts[kind])), ".toml"))
    argv = {
        "cards": ("verify", "sevenyears", path, "--format", "json"),
        "rules": ("verify", "sevenyears", "--rules", path, "--format", "json"),
        "catalogue": ("resolve", "eupop", "--catalogue", path, "--event", "13A-2", "--auto"),
        "scenario": ("deck", "eupop", "--scenario", path, "--json"),
    }[kind]
    check_sane(run_cli(*argv))


# ---------------------------------------------------------------------- hostile files

HOSTILE_FILES: dict[str, bytes] = {
    "binary": bytes(range(256)) * 24,  # about 6 KB, as a PNG or a zip would give
    "latin-1": "état = 'café'\n".encode("latin-1"),
    "utf-16": '{"game": "lod"}'.encode("utf-16"),
    "empty": b"",
    "nul": b'{"game": "lod"\x00}',
    "deep-json": b"[" * 100_000 + b"]" * 100_000,
    "deep-json-parses": b"[" * (MAX_NESTING + 2) + b"]" * (MAX_NESTING + 2),
    "deep-toml": b"a = " + b"[" * 100_000 + b"]" * 100_000,
    "deep-toml-tables": b"[" + b".".join(b"k%d" % i for i in range(200)) + b"]\nx = 1\n",
    "long-number": b'{"game": ' + b"9" * 5000 + b"}",
    "nan": b'{"game": NaN}',
}


PASS = json.dumps({"type": "pass", "player": "british"})
# Every way the CLI reads a user's file: the file's suffix and the command, with
# "{}" standing for the file. The old shapes are among them, each marked "(old)".
FILE_READERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "moves-state": (".json", ("moves", "sevenyears", "--state", "{}")),
    "apply-state": (".json", ("apply", "sevenyears", "--state", "{}", "--move", PASS)),
    "lod-state": (".json", ("moves", "lod", "--state", "{}", "--count")),
    "bot-state": (".json", ("bot", "lod", "--state", "{}")),
    "new-deck": (".toml", ("new", "lod", "--deck", "{}")),
    "verify-deck": (".toml", ("verify", "lod", "{}")),
    "cards": (".toml", ("verify", "sevenyears", "{}")),
    "rules": (".toml", ("verify", "sevenyears", "--rules", "{}")),
    "replay": (".jsonl", ("replay", "sevenyears", "{}")),
    "coin-state (old)": (
        ".json",
        ("moves", "lod", "--state", "{}", "--card", "1", "--faction", "x"),
    ),
    "coin-deck (old)": (
        ".toml",
        ("moves", "fitl", "--scenario", "short", "--deck", "{}", "--card", "1"),
    ),
    "verify-deck (old)": (".toml", ("verify", "{}", "--game", "lod")),
    "bot-deck (old)": (
        ".toml",
        ("bot", "lod", "--scenario", "1776", "--deck", "{}", "--card", "1"),
    ),
    "winter-state (old)": (".json", ("winter", "lod", "--state", "{}", "--year", "1776")),
    "cards (old)": (".toml", ("verify", "sevenyears", "--cards", "{}")),
    "eupop-state (old)": (
        ".json",
        ("resolve", "eupop", "--state", "{}", "--event", "13A-2", "--auto"),
    ),
    "draw-state (old)": (
        ".json",
        ("draw", "--game", "eupop", "--state", "{}", "--out", "{}.svg"),
    ),
    "catalogue (old)": (".toml", ("resolve", "eupop", "--catalogue", "{}", "--event", "13A-2")),
    "scenario (old)": (".toml", ("deck", "eupop", "--scenario", "{}")),
}


def read_with(reader: str, path: Path) -> Run:
    _, argv = FILE_READERS[reader]
    return check_sane(run_cli(*(arg.replace("{}", str(path)) for arg in argv)))


@pytest.mark.parametrize("content", sorted(HOSTILE_FILES))
@pytest.mark.parametrize("reader", sorted(FILE_READERS))
def test_hostile_files_exit_2_naming_the_file(inputs: Inputs, reader: str, content: str) -> None:
    path = write(inputs, HOSTILE_FILES[content], FILE_READERS[reader][0])
    run = read_with(reader, path)
    if content == "empty" and path.suffix == ".toml":
        return  # valid TOML: an empty card list has findings, an empty catalogue no events
    error = without_warning(run.err)
    assert run.code == 2 and str(path) in error, run
    assert len(error) < 400, run  # the name and the reason, never the content


@pytest.mark.parametrize("reader", sorted(FILE_READERS))
def test_missing_huge_and_folder_files_exit_2(inputs: Inputs, reader: str) -> None:
    suffix = FILE_READERS[reader][0]
    name = reader.replace(" ", "").replace("(", "-").replace(")", "")
    huge = inputs.folder / f"huge-{name}{suffix}"
    with huge.open("wb") as handle:  # a sparse file: no time spent writing it
        handle.truncate(MAX_DOCUMENT_BYTES + 1)
    folder = inputs.folder / f"folder-{name}{suffix}"
    folder.mkdir()
    for path in (inputs.folder / f"missing{suffix}", huge, folder):
        run = read_with(reader, path)
        assert run.code == 2 and str(path) in without_warning(run.err), run


def test_a_binary_state_names_the_file_in_one_short_line(inputs: Inputs) -> None:
    path = write(inputs, HOSTILE_FILES["binary"], ".json")
    run = run_cli("moves", "sevenyears", "--state", str(path))
    assert run.code == 2
    assert run.err == f"error: {path}: not UTF-8 text (byte 0x80 at offset 128): a binary file?\n"


def test_deep_nesting_is_refused_with_the_limit(inputs: Inputs) -> None:
    path = write(inputs, HOSTILE_FILES["deep-toml"], ".toml")
    run = run_cli("verify", "sevenyears", str(path))
    assert run.code == 2
    assert run.err == f"error: {path}: nested more than {MAX_NESTING} levels deep\n"


@pytest.mark.parametrize("content", ["deep-json", "deep-toml", "binary", "nan"])
@pytest.mark.parametrize("suffix", [".toml", ".jsonl"])
def test_an_old_shape_naming_a_hostile_file_is_no_internal_error(
    inputs: Inputs, content: str, suffix: str
) -> None:
    # the old `verify DECK` and `replay LOG` read the game from the file itself
    path = write(inputs, HOSTILE_FILES[content], suffix)
    run = check_sane(run_cli("verify" if suffix == ".toml" else "replay", str(path)))
    assert run.code == 2, run


@pytest.mark.parametrize(
    "option", [("apply", "--move"), ("moves", "--check")], ids=["move", "check"]
)
@pytest.mark.parametrize(
    "text", ["[" * 100_000, "9" * 5000, "NaN", '{"type": "pass"\x00}'], ids=lambda t: t[:4]
)
def test_hostile_move_text_exits_2(inputs: Inputs, option: tuple[str, str], text: str) -> None:
    command, flag = option
    run = check_sane(run_cli(command, "sevenyears", "--state", str(inputs.seven_state), flag, text))
    assert run.code == 2 and flag in run.err, run


def test_an_eupop_move_of_the_wrong_shape_is_refused_naming_check() -> None:
    # an Influence placement is (area, count) pairs; [2] is not one
    run = run_cli("moves", "--game", "eupop", *INFLUENCE, "--check",
                  '{"placed": [[2]], "discards": []}')  # fmt: skip
    assert run.code == 2 and without_warning(run.err).startswith("error: --check: "), run


def test_a_long_value_is_echoed_clipped_on_one_line(inputs: Inputs) -> None:
    player = "x" * 5000 + "\n" + "y" * 5000
    move = json.dumps({"type": "pass", "player": player})
    run = run_cli("moves", "sevenyears", "--state", str(inputs.seven_state), "--check", move)
    assert run.code == 2 and "xxxx" in run.err, run
    assert run.err.count("\n") == 1 and len(run.err) < 800, run


def test_an_old_shape_s_warning_is_one_short_line(inputs: Inputs) -> None:
    move = json.dumps({"type": "pass", "player": "x" * 100_000})
    run = check_sane(run_cli("moves", "--game", "sevenyears", "--state", str(inputs.seven_state),
                             "--check", move))  # fmt: skip
    warning = run.err.partition("\n")[0]
    assert run.code == 2 and warning.startswith("warning: 'legalis moves --game sevenyears")
    assert "is deprecated: write 'legalis moves sevenyears" in warning and len(warning) < 1200


def test_an_internal_error_never_echoes_raw_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("[/bold] " + "\x80" * 10_000)

    monkeypatch.setattr(cli, "_game", broken)
    run = run_cli("new", "sevenyears")
    assert run.code == 3 and "traceback written to" in run.err
    assert len(run.err) < 600 and run.err.count("\n") == 1


# ---------------------------------------------------------------------- handcrafted

LOD_EVENT = ("--scenario", "1776", "--card", "1", "--side", "unshaded", "--faction", "British")
# A few hostile cases per subcommand, with the exits each may give. Of the files,
# @state is a Seven Years War state, @lod-game a Liberty or Death one, @lod and @eupop
# a COIN board and an EU:PoP state (of the old shapes), @game a game's log, @binary a
# binary file, @folder a folder and @nowhere a file in no folder.
HANDCRAFTED: list[tuple[tuple[str, ...], int | set[int]]] = [
    (("games", "extra"), 2),
    (("new", "chess"), 2),
    (("new", "sevenyears", "--phase", "banquet"), 2),
    (("new", "sevenyears", "--option", "nonsense"), 2),
    (("new", "sevenyears", "--option", "reshuffle=never"), 2),
    (("new", "sevenyears", "--seed", "-1", "--json"), 0),
    (("new", "sevenyears", "--seat", "british=nonplayer"), 2),
    (("new", "lod", "--seat", "french=nonplayer", "--option", "nonplayers=french"), 2),
    (("new", "lod", "--scenario", "1812"), 2),
    (("moves", "sevenyears", "--state", "@state", "--limit", "-1"), 2),
    (("moves", "sevenyears", "--state", "@state", "--offset", "-1"), 2),
    (("moves", "sevenyears", "--state", "@state", "--offset", str(10**30), "--json"), 0),
    (("moves", "sevenyears", "--state", "@state", "--limit", str(10**30), "--count"), 0),
    (("moves", "sevenyears", "--state", "@lod"), 2),
    (("moves", "sevenyears", "--state", "@lod-game"), 2),
    (("moves", "lod", "--state", "@lod"), 2),  # a board, not a game's state
    (("moves", "sevenyears", "--state", "@state", "--option", "reshuffle=any_draw"), 2),
    (("moves", "sevenyears", "--state", "@state", "--scenario", "1776"), 2),
    (("moves", "sevenyears", "--card", "5"), 2),
    (("apply", "sevenyears", "--state", "@state", "--move", "{}"), 2),
    (("apply", "sevenyears", "--state", "@state", "--move", "[]"), 2),
    (("apply", "sevenyears", "--state", "@state", "--move", '{"type": "lay", "card": -1}'), 2),
    (("apply", "lod", "--state", "@lod-game", "--move", '{"type": "pass", "faction": 7}'), 2),
    (("play", "sevenyears", "--seat", "british=alien"), 2),
    (("play", "sevenyears", "--seat", "british"), 2),
    (("play", "sevenyears", "--seat", "=random"), 2),
    (("play", "lod", "--seat", "british=alien"), 2),
    (("play", "lod", "--scenario", "1812"), 2),
    (("play", "lod", "--option", "nonplayers=french"), 2),
    (("play", "sevenyears", "--seat", "british=human"), 2),  # stdin ends at once
    (("simulate", "sevenyears", "--games", "0"), 2),
    (("simulate", "sevenyears", "--games", "-5"), 2),
    (("simulate", "sevenyears", "--seat", "french=human", "--games", "1"), 2),
    (("simulate", "chess", "--games", "1"), 2),
    (("replay", "sevenyears", "@folder"), 2),
    (("replay", "sevenyears", "@state"), 2),
    (("replay", "sevenyears", "@binary"), 2),
    (("replay", "lod", "@game"), 2),
    (("verify", "chess"), 2),
    (("verify", "sevenyears", "--format", "xml"), 2),
    (("verify", "sevenyears", "@state"), 2),
    (("verify", "sevenyears", "--strict"), 2),
    (("explain", "x" * 100_000), 2),
    (("explain", ""), 2),
    (("explain", "data.\x00"), 2),
    (("demo", "--games", "0"), 2),
    (("fixtures", "chess"), 2),
    (("fixtures", "sevenyears"), 2),
    (("fixtures", "lod", "--per-rule", "0"), 2),
    (("draw", "lod", "--layer", "religion"), 2),
    (("draw", "chess"), 2),
    (("bot", "chess"), 2),
    (("bot", "sevenyears", "--kind", "alien"), 2),
    (("bot", "sevenyears", "--kind", "human"), 2),
    (("bot", "lod", "--kind", "nonplayer"), 2),  # the Faction to move is a person's
    (("bot", "sevenyears", "--state", "@binary"), 2),
    (("bot", "sevenyears", "--state", "@lod-game"), 2),
    # arguments a command would silently ignore: refused, not dropped
    (("verify", "lod", "--option", "reshuffle=any_draw"), 2),
    (("verify", "sevenyears", "--rules", "@state"), 2),
    # outputs that cannot be written: refused before any work
    (("new", "sevenyears", "--out", "@nowhere"), 2),
    (("apply", "sevenyears", "--state", "@state", "--move", "{}", "--out", "@folder"), 2),
    (("play", "sevenyears", "--seat", "british=random", "--out", "@nowhere"), 2),
    (("simulate", "sevenyears", "--games", "1000000", "--out", "@nowhere"), 2),
    (("bot", "sevenyears", "--out", "@folder"), 2),
    (("fixtures", "lod", "--out", "@state"), 2),
    # the old shapes, after their warning
    (("moves", "lod", "--state", "@state", "--card", "1", "--faction", "British"), 2),
    (("moves", "lod", "--scenario", "1776", "--card", "0", "--faction", "British"), 2),
    (("moves", "lod", "--scenario", "1776", "--card", str(10**30), "--faction", "British"), 2),
    (("moves", "lod", *LOD_EVENT[:6], "--faction", "Martians"), 2),
    (("moves", "fitl", "--scenario", "1776", "--card", "1"), 2),
    (("moves", "--game", "lod", "--game", "fitl", "--card", "1"), 2),
    (("apply", "lod", *LOD_EVENT, "--move", '{"card": -1, "steps": [[["x", "y", -5]]]}'), 2),
    (("play", "sevenyears", "--british", "alien"), 2),
    (("play", "sevenyears", "--british", "human"), 2),  # stdin ends at once
    (("replay", "@folder"), 2),
    (("replay", "@state"), 2),
    (("replay", "@binary"), 2),
    (("verify", "@state"), 2),
    (("deck", "eupop", "--age", "99"), 2),
    (("deck", "eupop", "--players", "0"), 2),
    (("deck", "eupop", "--scenario", "atlantis"), 2),
    (("deck", "lod"), 2),
    (("draw", "--game", "eupop", "--spread", "x"), 2),
    (("draw", "--game", "lod"), 2),
    (("draw", "--game", "eupop", "--state", "@state"), 2),
    (("resolve", "eupop", "--event", "nope"), 2),
    (("resolve", "eupop", "--state", "@lod", "--event", "13A-2"), 2),
    # a choice out of range: refused (1) or bad input (2)
    (("resolve", "eupop", "--event", "13A-2", "--choose", "-1"), {1, 2}),
    (("resolve", "eupop", "--event", "13A-2", "--choose", str(10**30)), {1, 2}),
    (("bot", "lod", "--scenario", "1776", "--card", "999", "--faction", "British"), 2),
    (("bot", "lod", "--scenario", "1776", "--card", "1", "--faction", "Martians"), 2),
    (("bot", "lod", "--scenario", "1776", "--card", "1", "--faction", "British", "--players",
      "British"), 2),
    (("bot", "fitl", "--scenario", "short", "--card", "1", "--faction", "US"), 2),
    (("bot", "lod", "--state", "@eupop", "--card", "1", "--faction", "British"), 2),
    (("winter", "lod", "--scenario", "9999"), 2),
    (("winter", "lod", "--state", "@lod"), 2),
    (("winter", "lod", "--scenario", "1776", "--leader-change", "Martians"), 2),
    (("winter", "lod", "--scenario", "1776", "--year", "1492"), 2),
    (("winter", "lod", "--scenario", "1776", "--round", "-5"), 2),
    (("winter", "lod", "--scenario", "1776", "--releases-of", "atlantis"), 2),
    (("moves", "eupop", "--effect", "influence", "--player", "france", "--amount", "-5"), 2),
    (("moves", "eupop", "--effect", "influence", "--player", "france", "--areas", "atlantis"), 2),
    (("moves", "eupop", "--effect", "spread-religion", "--player", "france", "--amount", "3"), 2),
    (("verify", "lod", "--cards", "@state"), 2),
    (("verify", "sevenyears", "--game", "lod"), 2),
    (("verify", "--game", "lod", "@game"), 2),  # a log, not a deck: once verified lod alone
    # a deck of another game
    (("bot", "lod", "--deck", "@fitl-deck", *LOD_EVENT[:4], "--faction", "British"), 2),
    (("play", "sevenyears", "--british", "random", "--log", "@nowhere"), 2),
    (("draw", "--game", "eupop", "--out", "@folder"), 2),
]  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "code"), HANDCRAFTED, ids=[" ".join(argv)[:50] for argv, _ in HANDCRAFTED]
)
def test_handcrafted_hostile_cases(
    inputs: Inputs, argv: tuple[str, ...], code: int | set[int]
) -> None:
    files = {
        "@state": str(inputs.seven_state),
        "@folder": str(inputs.folder),
        "@nowhere": str(inputs.folder / "never-made" / "file"),
    }
    files |= {f"@{Path(file).stem}": file for file in inputs.files}
    run = check_sane(run_cli(*(files.get(arg, arg) for arg in argv)))
    assert run.code in (code if isinstance(code, set) else {code}), run


@pytest.mark.parametrize(
    ("argv", "given", "wanted"),
    [
        (("moves", "lod", "--state"), "@state", "lod"),
        (("bot", "lod", "--state"), "@state", "lod"),
        (("apply", "lod", "--move", "{}", "--state"), "@state", "lod"),
        (("moves", "sevenyears", "--state"), "@lod-game", "sevenyears"),
        (("moves", "sevenyears", "--state"), "@lod", "sevenyears"),
    ],
    ids=["to-lod", "to-bot", "to-apply", "to-sevenyears", "board-to-sevenyears"],
)
def test_a_state_of_another_game_is_named_as_such(
    inputs: Inputs, argv: tuple[str, ...], given: str, wanted: str
) -> None:
    # the state's game is judged before its fields: not "unknown field 'options'"
    paths = {"@state": inputs.seven_state, "@lod-game": inputs.game_states["lod"],
             "@lod": inputs.folder / "lod.json"}  # fmt: skip
    path = str(paths[given])
    shown = "sevenyears" if given == "@state" else "lod"
    run = check_sane(run_cli(*argv, path))
    assert run.code == 2, run
    assert (
        run.err == f"error: --state: {path} is a {shown} state, not {wanted} (allowed: {shown})\n"
    )


@pytest.mark.parametrize(
    ("argv", "given", "wanted"),
    [
        (("moves", "lod", *LOD_EVENT[2:], "--state"), "@state", "lod"),
        (("bot", "lod", "--card", "1", "--faction", "British", "--state"), "@state", "lod"),
        (("moves", "fitl", "--card", "1", "--side", "unshaded", "--state"), "@lod", "fitl"),
        (("draw", "--game", "eupop", "--state"), "@lod", "eupop"),
        (("resolve", "eupop", "--event", "13A-2", "--auto", "--state"), "@state", "eupop"),
    ],
    ids=["to-lod", "to-bot", "to-fitl", "to-eupop-draw", "to-eupop-resolve"],
)
def test_an_old_shape_names_a_state_of_another_game(
    inputs: Inputs, argv: tuple[str, ...], given: str, wanted: str
) -> None:
    path = str(inputs.seven_state) if given == "@state" else str(inputs.folder / "lod.json")
    shown = "sevenyears" if given == "@state" else "lod"
    run = check_sane(run_cli(*argv, path))
    assert run.code == 2, run
    assert without_warning(run.err) == (
        f"error: {path}:game: this is a {shown!r} state (allowed: {wanted})\n"
    )


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"options": 5}, "line 1: options: expected an object, got 5"),
        ({"options": None}, "line 1: options: expected an object, got None"),
        ({"game": ["sevenyears"]}, "line 1: game: expected a game name, got ['sevenyears']"),
        ({"game": "chess"}, f"line 1: game: unknown game 'chess' (allowed: {', '.join(GAMES)})"),
        (
            {"options": {"reshuffle": "never"}},
            "line 1: options.reshuffle: bad value 'never' (allowed: plan_only, any_draw)",
        ),
    ],
    ids=["options-number", "options-null", "game-list", "game-unknown", "option-value"],
)
def test_a_log_header_of_the_wrong_shape_names_the_log_and_the_field(
    inputs: Inputs, header: dict[str, Any], message: str
) -> None:
    # an options field that is no object once ended in exit 3 (TypeError)
    lines = inputs.seven_log.splitlines()
    lines[0] = json.dumps(json.loads(lines[0]) | header)
    log = write(inputs, "\n".join(lines) + "\n", ".jsonl")
    run = check_sane(run_cli("replay", "sevenyears", str(log)))
    assert run.code == 2, run
    assert run.err == f"error: {log}:{message}\n", run


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ('realm = "castile"', "realm = []", ":event[16].realm: unknown realm []"),
        ('{ op = "merchant" }', "{ op = {} }", ":event[1].effects[0].op: unknown op {}"),
    ],
    ids=["realm-list", "op-table"],
)
def test_a_catalogue_value_of_the_wrong_type_names_its_path(
    inputs: Inputs, old: str, new: str, path: str
) -> None:
    # a list or table where a name belongs once ended in exit 3 (unhashable type)
    catalogue = write(inputs, inputs.toml_texts["catalogue"].replace(old, new, 1), ".toml")
    runs = [("resolve", "eupop", "--catalogue", str(catalogue), "--event", "13A-2", "--auto")]
    if "eupop" in GAMES:
        runs.append(("verify", "eupop", str(catalogue)))
    for argv in runs:
        run = check_sane(run_cli(*argv))
        assert run.code == 2 and without_warning(run.err).startswith(f"error: {catalogue}{path}")


# ---------------------------------------------------------------------- arguments

NAMES = st.sampled_from(HOSTILE_NAMES)
FLAG: st.SearchStrategy[str | None] = st.none()  # an option that takes no value
INTS = st.one_of(st.sampled_from(HOSTILE_INTS), st.integers(-3, 40)).map(str)
SMALL_COUNTS = st.sampled_from(["-1", "0", "1", "2", "x", "1.5"])
FACTIONS = st.sampled_from(
    ["British", "patriots", "French", "Indians", "US", "NVA", *HOSTILE_NAMES]
)
SIDES = st.sampled_from(["unshaded", "shaded", *HOSTILE_NAMES])
PLAYERS = st.sampled_from(["random", "greedy", "human", *HOSTILE_NAMES])
KINDS = st.sampled_from(["random", "greedy", "nonplayer", "human", *HOSTILE_NAMES])
SEATS = (
    st.builds(
        "{}={}".format, st.sampled_from(["british", "french", "patriots", "indians", "x"]), KINDS
    )
    | NAMES
)
OPTIONS = st.sampled_from(
    [
        "reshuffle=any_draw",
        "reshuffle=atlantis",
        "atlantis=1",
        "=",
        "europe_win_ends_game=2",
        "scenario=1778",
        "nonplayers=french",
        *HOSTILE_NAMES,
    ]
)


Strategies = dict[str, st.SearchStrategy[str | None]]
# For a subcommand: the strategies of its arguments, in order, and of its options.
Arguments = tuple[list[st.SearchStrategy[str]], Strategies]


def _some(names: list[str]) -> st.SearchStrategy[str]:
    """A comma-separated list of known and hostile names."""
    return st.lists(st.sampled_from([*names, *HOSTILE_NAMES[:4]]), max_size=3).map(",".join)


def _arguments(inputs: Inputs) -> dict[str, Arguments]:
    """For each subcommand of the one shape: its arguments and options to draw from."""
    games = st.sampled_from([*GAMES, "fitl", "eupop", "chess", ""])
    files = st.sampled_from(
        [
            *inputs.files,
            str(inputs.folder / "missing.json"),
            str(inputs.folder),
        ]
    )
    missing = inputs.folder / "missing-folder" / "out"  # fixtures --out may make it
    out = st.sampled_from([str(inputs.folder / "out"), str(missing), str(inputs.folder)])
    scenario = st.sampled_from(["1775", "1776", "1778", "short", "three_crowns", "nowhere"])
    state: Strategies = {"--state": files, "--scenario": scenario, "--deck": files,
                         "--option": OPTIONS, "--seed": INTS, "--json": FLAG}  # fmt: skip
    move = st.sampled_from(
        [json.dumps({"type": "pass", "player": "british"}), "{}", "", *inputs.game_moves["lod"]]
    )
    return {
        "games": ([], {"--json": FLAG}),
        "new": (
            [games],
            {
                **state,
                "--seat": SEATS,
                "--out": out,
                "--phase": st.sampled_from(["execute", "conflict", "window", *HOSTILE_NAMES]),
            },
        ),
        "moves": (
            [games],
            {**state, "--count": FLAG, "--check": NAMES | move, "--offset": INTS, "--limit": INTS},
        ),
        "apply": ([games], {"--state": files, "--move": move, "--out": out, "--json": FLAG}),
        "play": ([games], {**state, "--seat": SEATS, "--out": out}),
        "simulate": ([games], {**state, "--games": SMALL_COUNTS, "--seat": SEATS, "--out": out}),
        "replay": ([games, files], {"--json": FLAG}),
        "verify": (
            [games, files],
            {
                "--format": st.sampled_from(["text", "json", "sarif", *HOSTILE_NAMES]),
                "--option": OPTIONS,
                "--rules": files,
                "--strict": FLAG,
                "--json": FLAG,
            },
        ),
        "explain": (
            [st.sampled_from(["lod.french-before-toa", "x" * 10_000, ""])],
            {"--json": FLAG},
        ),
        # a valid count would play every game's demo: only refused ones are fuzzed here
        "demo": (
            [],
            {"--games": st.sampled_from(["-1", "0", "x", "1.5"]), "--seed": INTS, "--json": FLAG},
        ),
        "fixtures": (
            [games],
            {"--per-rule": SMALL_COUNTS, "--seed": INTS, "--out": out, "--json": FLAG},
        ),
        "bot": ([games], {**state, "--kind": KINDS, "--explain": FLAG, "--out": out}),
        "draw": ([games], {**state, "--layer": NAMES, "--out": out}),
        "sweep": (
            [games],
            {
                "--out": st.sampled_from([str(inputs.folder / "sweep"), str(missing)]),
                "--games": SMALL_COUNTS,
                "--workers": st.sampled_from(["1", "0", "x"]),
                "--max-moves": st.sampled_from(["5", "0", "x"]),
                "--scenario": scenario,
                "--option": OPTIONS,
                "--seats": st.one_of(SEATS, st.just("default"), NAMES),
                "--deck": files,
                "--study": files,
                "--backend": st.sampled_from(["local", *HOSTILE_NAMES[:2]]),
                "--invariants": st.sampled_from(["end", "every-move", *HOSTILE_NAMES[:2]]),
                "--seed": INTS,
                "--fresh": FLAG,
                "--json": FLAG,
            },
        ),
    }


def _old_arguments(inputs: Inputs) -> dict[str, Arguments]:
    """For each old shape that runs as it did: its arguments and options to draw from."""
    games = st.sampled_from(["sevenyears", "lod", "fitl", "eupop", "chess", ""])
    files = st.sampled_from([*inputs.files, str(inputs.folder / "missing.json")])
    out = st.sampled_from([str(inputs.folder / "out"), str(inputs.folder)])
    scenario = st.sampled_from(["1775", "1776", "1778", "short", "three_crowns", "nowhere"])
    coin: Strategies = {
        "--json": FLAG,
        "--state": files,
        "--scenario": scenario,
        "--card": INTS,
        "--faction": FACTIONS,
        "--deck": files,
        "--seed": INTS,
    }
    return {
        "moves": (
            [games],
            {
                **coin,
                "--side": SIDES,
                "--limit": INTS,
                "--check": NAMES,
                "--effect": NAMES,
                "--player": NAMES,
                "--areas": NAMES,
                "--amount": INTS,
                "--option": OPTIONS,
                "--count": FLAG,
            },
        ),
        "apply": (
            [games],
            {
                **coin,
                "--side": SIDES,
                "--out": out,
                "--move": st.sampled_from([json.dumps({"card": 1}), "{}", ""]),
            },
        ),
        "deck": (
            [games],
            {
                "--scenario": scenario,
                "--age": INTS,
                "--players": INTS,
                "--seed": INTS,
                "--randomize-x": FLAG,
                "--json": FLAG,
            },
        ),
        "draw": (
            [st.just("--game"), games],
            {
                "--spread": st.sampled_from(["religion", "revolution", *HOSTILE_NAMES]),
                "--state": files,
                "--out": out,
                "--json": FLAG,
            },
        ),
        "resolve": (
            [games],
            {
                "--event": st.sampled_from(["13A-2", "101-1", *HOSTILE_NAMES]),
                "--state": files,
                "--choose": INTS,
                "--auto": FLAG,
                "--seed": INTS,
                "--json": FLAG,
            },
        ),
        "bot": (
            [games],
            {
                **coin,
                "--players": _some(["British", "patriots", "French", "Indians"]),
                "--explain": FLAG,
            },
        ),
        "winter": (
            [games],
            {
                **coin,
                "--leader-change": FACTIONS,
                "--releases-of": scenario,
                "--year": INTS,
                "--round": INTS,
                "--final": FLAG,
            },
        ),
    }


SUBCOMMANDS = ["games", "new", "moves", "apply", "play", "simulate", "replay", "verify",
               "explain", "demo", "fixtures", "bot", "draw", "sweep"]  # fmt: skip
OLD_SUBCOMMANDS = ["moves", "apply", "deck", "draw", "resolve", "bot", "winter"]


def test_the_fuzzed_subcommands_are_every_one_but_serve() -> None:
    registered = {command.name for command in cli.app.registered_commands}
    assert registered - {"serve"} == set(SUBCOMMANDS)
    assert {command.name for command in legacy_app.registered_commands} == set(OLD_SUBCOMMANDS)


def _draw_command(data: st.DataObject, command: str, arguments: Arguments) -> list[str]:
    positional, options = arguments
    argv = [command, *(value for value in map(data.draw, positional) if value)]
    names = data.draw(st.lists(st.sampled_from(sorted(options)), max_size=4, unique=True))
    if command in ("simulate", "demo", "sweep"):  # by default they play many games
        names = ["--games", *(name for name in names if name != "--games")]
    if command == "sweep":  # short games, and never into the working folder
        names = [
            "--out",
            "--workers",
            "--max-moves",
            *(n for n in names if n not in ("--out", "--workers", "--max-moves")),
        ]
    for name in names:
        value = data.draw(options[name])
        argv.extend([name] if value is None else [name, value])
    return argv


@pytest.mark.parametrize("command", SUBCOMMANDS)
@settings(FUZZ, max_examples=8 * SCALE)
@given(data=st.data())
def test_hostile_arguments(inputs: Inputs, command: str, data: st.DataObject) -> None:
    check_sane(run_cli(*_draw_command(data, command, _arguments(inputs)[command])))


@pytest.mark.parametrize("command", OLD_SUBCOMMANDS)
@settings(FUZZ, max_examples=6 * SCALE)
@given(data=st.data())
def test_hostile_arguments_of_the_old_shapes(
    inputs: Inputs, command: str, data: st.DataObject
) -> None:
    check_sane(run_cli(*_draw_command(data, command, _old_arguments(inputs)[command])))


@settings(FUZZ, max_examples=25 * SCALE)
@given(data=st.data())
def test_hostile_eupop_effect_arguments(data: st.DataObject) -> None:
    from legalis.solver.eupop_play import EFFECTS

    realms = ["france", "england", "castile", "saxony_realm", "papal_realm"]
    areas = ["saxony", "bohemia", "castile", "aragon", "central_italy", "atlantis"]
    options: Strategies = {
        "--player": st.sampled_from([*realms[:3], *HOSTILE_NAMES[:3]]),
        "--amount": INTS,
        "--areas": _some(areas),
        "--targets": _some(realms),
        "--provinces": _some(["Ancona", "Bari", "Artois", "Brescia"]),
        "--places": _some(areas),
        "--colour": st.sampled_from(["red", "blue", "green", *HOSTILE_NAMES[:3]]),
        "--vassal": FLAG,
        "--ships": FLAG,
        "--count": FLAG,
        "--limit": INTS,
    }
    argv = ["moves", "eupop", "--effect", data.draw(st.sampled_from([*EFFECTS, "atlantis"]))]
    for name in data.draw(st.lists(st.sampled_from(sorted(options)), max_size=5, unique=True)):
        value = data.draw(options[name])
        argv.extend([name] if value is None else [name, value])
    check_sane(run_cli(*argv, "--json"))
