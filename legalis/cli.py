"""The ``legalis`` command line: one shape for every game.

Every command that works on a game takes the game as its first argument
(``legalis new|moves|apply|play|simulate|replay|verify|fixtures|bot|draw GAME``);
seats are ``--seat SEAT=KIND``; every file written is ``--out``; every command has
``--json`` and the same ``--seed`` default; listings page with ``--offset/--limit``
as the HTTP API does. The previous release's shapes still run, with a warning
(:mod:`legalis.aliases`, :mod:`legalis.legacy_cli`). Nothing here knows a game by
name: the registry gives the game, :mod:`legalis.capabilities` what it offers
beside play, and each game its own presentation.

Exit codes: 0 ok, 1 verification findings (or a refused move, or a replay that
differs from its log), 2 bad input or usage, 3 internal error (the traceback is
written to a log file whose path is printed), 130 interrupted by Ctrl-C.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Column, Table

from legalis import __version__
from legalis.backends import BACKENDS, open_backend
from legalis.capabilities import VerifyInput, drawer, finding_codes, fixture_maker, verifier
from legalis.model.core.documents import read_document
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError, LegalisError, clip
from legalis.players import HumanPlayer
from legalis.registry import game_entry, games, load_game
from legalis.simulation import print_simulation, simulate
from legalis.solver.gamelog import log_lines, parse_log, replay
from legalis.solver.players import (
    NONPLAYER,
    Player,
    automatic_player,
    seat_kinds,
    seat_plan,
    seated_options,
)
from legalis.solver.playout import CHANCE, GameRecord, play_game
from legalis.terminal import (
    DEFAULT_SEED,
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    JsonFlag,
    OptionList,
    SeedOpt,
    check_writable,
    check_writable_folder,
    code_column,
    emit_json,
    err,
    finish,
    internal_error,
    interruptible,
    option_values,
    out,
    parse_move_text,
    plural,
    progress,
    read_json,
    show_moves,
    write_file,
)

app = typer.Typer(
    name="legalis",
    help="Rules verifier and legal-move generator for card-driven historical board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: Typer's rich panels show every flag as taking a value (`--count <bool>`).
    rich_markup_mode=None,
)

GameArg = Annotated[str, typer.Argument(help="Game name; see 'legalis games'.")]
StateOpt = Annotated[
    Path | None,
    typer.Option("--state", help="State JSON file (default: a new seeded game's first decision)."),
]
ScenarioOpt = Annotated[
    str | None,
    typer.Option("--scenario", help="Short for --option scenario=NAME (a new state only)."),
]
DeckOpt = Annotated[
    Path | None,
    typer.Option("--deck", help="Short for --option deck=FILE: a deck TOML (a new state only)."),
]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Write the result to this file.")]
SeatList = Annotated[
    list[str] | None,
    typer.Option("--seat", help="Who plays a seat: SEAT=KIND, e.g. british=human (repeatable)."),
]


def _print_version(wanted: bool) -> None:
    if wanted:
        out.print(f"legalis {__version__}", markup=False)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_print_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Rules verifier and legal-move generator for card-driven historical board games."""


# ---------------------------------------------------------------------- games and states


def _game(name: str, option_pairs: list[str] | None, **named: Any) -> Any:
    """The game with the ``--option`` pairs and the ``named`` shorthands given
    (``--scenario``, ``--deck``: the options of those names), each refused where the
    game has no such option."""
    entry = game_entry(name)
    given = {key: str(value) for key, value in named.items() if value is not None}
    for key in given:
        if key not in entry.option_names:
            raise InputError(f"{name} has no option {key}", path=f"--{key}",
                             allowed=entry.option_names)  # fmt: skip
    try:
        return entry.make({**option_values(option_pairs), **given})
    except InputError as error:  # name the flag that gave a bad value
        flag = next((f"--{key}" for key in given if error.path == f"options.{key}"), None)
        if flag is None:
            raise
        raise InputError(error.message, path=flag, allowed=error.allowed) from error


def _first_decision(game: Any, seed: int, phase: str | None = None) -> Any:
    """A new game after its seeded chance moves: its first decision, or with ``phase``
    the first decision in that phase (reached by seeded random play)."""
    rng = LoggedRandom(seed)
    state = game.new_initial_state()
    random_player = automatic_player("random", game)
    phases: list[str] = []
    while not state.is_over:
        at = getattr(state, "phase", None)
        if not state.is_chance and (phase is None or at == phase):
            return state
        if not state.is_chance and at is not None and at not in phases:  # a phase to offer
            phases.append(at)
        state.play(
            state.sample_chance(rng) if state.is_chance else random_player.choose(state, rng)
        )
    if phase is None:
        return state
    raise InputError(f"the seeded game reached no decision in a phase {clip(phase)!r}; "
                     "try another seed", path="--phase", allowed=phases)  # fmt: skip


def _load_state(
    name: str,
    state_path: Path | None,
    seed: int,
    option: list[str] | None,
    seat: list[str] | None = None,
    **named: Any,
) -> tuple[Any, Any]:
    """The game and the state of the file (with the options it carries), or of a new
    seeded game with the ``--option`` pairs, the shorthands and the seats (as ``new``)."""
    if state_path is None:
        game, _ = _seated(name, option, seat, None, **named)
        return game, _first_decision(game, seed)
    for flag, value in (("--option", option), ("--seat", seat),
                        *((f"--{k}", v) for k, v in named.items())):  # fmt: skip
        if value:
            raise InputError(f"{flag} applies to new states; a state file carries its options",
                             path=flag)  # fmt: skip
    raw = read_json(state_path)
    written_for = raw.get("game") if isinstance(raw, dict) else None
    if isinstance(written_for, str) and written_for != name:
        raise InputError(f"{state_path} is a {clip(written_for)} state, not {name}",
                         path="--state", allowed=[written_for])  # fmt: skip
    options = raw.get("options") if isinstance(raw, dict) else None
    try:
        game = load_game(name, options if isinstance(options, dict) else None)
    except InputError as error:
        raise InputError(error.message, source=str(state_path), path=error.path,
                         allowed=error.allowed) from error  # fmt: skip
    return game, game.state_from_json(raw, source=str(state_path))


def _where(game: Any, state: Any) -> str:
    """Where play stands, in a line: the result once over, else who is to move."""
    if state.is_over:
        result: str = game.describe_result(game.result_of(state))
        return f"over: {result}"
    return f"{state.to_move} to move"


def _state_body(game: Any, state: Any) -> dict[str, Any]:
    """A state as the HTTP API answers it: the state and where play stands."""
    return {"game": game.name, "state": state.to_json(), "to_move": state.to_move,
            "is_over": state.is_over, "result": game.result_of(state),
            "summary": game.summary(state)}  # fmt: skip


def _write_state(game: Any, state: Any, output: Path | None, as_json: bool) -> None:
    """The state as JSON on stdout, or in ``output`` with a line saying where play
    stands (with ``as_json``, that line is JSON on stdout)."""
    text = json.dumps(state.to_json(), indent=2) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    write_file(output, text, "--out")
    where = _where(game, state)
    if as_json:
        emit_json({"wrote": str(output), "game": game.name, "to_move": state.to_move,
                   "is_over": state.is_over, "position": where})  # fmt: skip
    else:
        err.print(f"wrote {output}: {game.title}, {where}", markup=False)


# ---------------------------------------------------------------------- commands
@app.command("games")
def games_command(as_json: JsonFlag = False) -> None:
    """List the registered games: their seats, the kinds of player and the rule options."""
    rows: list[dict[str, Any]] = []
    for name in games():
        entry, game = game_entry(name), load_game(name)
        rows.append({"name": name, "title": entry.title, "players": list(game.players),
                     "seat_kinds": list(seat_kinds(game)),
                     "options": [spec.to_json() for spec in entry.option_specs]})  # fmt: skip
    if as_json:
        emit_json(rows)
        return
    table = Table("game", "title", "seats", "kinds of player", "rule options")
    for row in rows:
        table.add_row(row["name"], row["title"], ", ".join(row["players"]),
                      ", ".join(row["seat_kinds"]),
                      ", ".join(o["name"] for o in row["options"]))  # fmt: skip
    out.print(table)
    out.print("each option's values, default and rule: legalis games --json")


@app.command("new")
def new_command(
    game_name: GameArg,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    option: OptionList = None,
    seed: SeedOpt = DEFAULT_SEED,
    phase: Annotated[
        str | None, typer.Option(help="Stop at the first decision of this phase.")
    ] = None,
    output: OutOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Write a new game's state at its first decision (after seeded chance moves).

    --seat SEAT=nonplayer makes a seat a Non-player where the rules have them (it
    changes the rules, LoD 8.1); the other seats are people's."""
    if output is not None:
        check_writable(output, "--out")
    game, _ = _seated(game_name, option, seat, None, scenario=scenario, deck=deck)
    _write_state(game, _first_decision(game, seed, phase), output, as_json)


@app.command("moves")
def moves_command(
    game_name: GameArg,
    state_path: StateOpt = None,
    count: Annotated[bool, typer.Option("--count", help="Only count the legal moves.")] = False,
    groups: Annotated[
        bool,
        typer.Option(
            "--groups",
            help="The moves' groups (Pass, Event, each Command ...) with their counts and "
            "the offset of each one's first move.",
        ),
    ] = False,
    check: Annotated[
        str | None, typer.Option("--check", help="Is this move (JSON) legal here, and why not?")
    ] = None,
    offset: Annotated[int, typer.Option(help="Index of the first move listed.", min=0)] = 0,
    limit: Annotated[int, typer.Option(help="List at most this many moves.", min=0)] = 100,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    option: OptionList = None,
    seed: SeedOpt = DEFAULT_SEED,
    as_json: JsonFlag = False,
) -> None:
    """The legal moves at a state: a page of them, their count, or yes/no with the
    reason and the rule (--check MOVE; exit 1 if it is illegal)."""
    game, state = _load_state(game_name, state_path, seed, option, seat, scenario=scenario,
                              deck=deck)  # fmt: skip
    if groups:
        _show_groups(game, state, as_json)
        return
    show_moves(
        state.legal_moves(),
        f"{state.to_move} ({game.render(state)[0]})",
        check=check,
        count=count,
        offset=offset,
        limit=limit,
        as_json=as_json,
        describe=game.describe_move,
        parse=lambda text: parse_move_text(game, text, "--check"),
        to_json=game.move_to_json,
        group=game.move_group,
        extra={"game": game.name, "to_move": state.to_move},
    )


def _show_groups(game: Any, state: Any, as_json: bool) -> None:
    from legalis.model.core.views import move_groups

    view = state.legal_moves()
    found = [group.to_json() for group in move_groups(view, game.move_group)]
    if as_json:
        emit_json({"game": game.name, "to_move": state.to_move, "count": view.count(),
                   "groups": found})  # fmt: skip
        return
    out.print(f"{plural(view.count(), 'legal move')} for {state.to_move}", markup=False)
    for group in found:
        counted = "not counted" if group["count"] is None else plural(group["count"], "move")
        start = "" if group["offset"] is None else f" (--offset {group['offset']})"
        out.print(f"  {group['group']}: {counted}{start}", markup=False)


@app.command("apply")
def apply_command(
    game_name: GameArg,
    state_path: Annotated[Path, typer.Option("--state", help="State JSON file.")],
    move_text: Annotated[str, typer.Option("--move", help="The move as JSON.")],
    output: OutOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Apply one move to a state and write the next state (an illegal move exits 2
    naming the rule)."""
    if output is not None:
        check_writable(output, "--out")
    game, state = _load_state(game_name, state_path, DEFAULT_SEED, None)
    state.play(parse_move_text(game, move_text, "--move"))
    _write_state(game, state, output, as_json)


# ---------------------------------------------------------------------- playing


def _seated(
    game_name: str,
    option: list[str] | None,
    pairs: list[str] | None,
    default: str | None,
    **named: Any,
) -> tuple[Any, dict[str, str]]:
    """The game and who sits at each seat: the ``--seat`` pairs, the others by
    ``default``: ``"play"`` seats the game's Non-players where it has them (LoD section
    8), else a person at the first seat and ``greedy`` at the others; ``"simulate"``
    the Non-players or ``random`` everywhere, and refuses ``human``; ``None`` seats
    people. Where the game has an option ``nonplayers`` (the Non-player rules change
    the game, LoD 8.1), the seats set it."""
    game = _game(game_name, option, **named)
    kinds = tuple(k for k in seat_kinds(game) if not (default == "simulate" and k == "human"))
    if default is None:
        defaults = dict.fromkeys(game.players, "human")
    elif NONPLAYER in kinds:
        defaults = dict.fromkeys(game.players, NONPLAYER)
    elif default == "simulate":
        defaults = dict.fromkeys(game.players, "random")
    else:
        defaults = {seat: "human" if index == 0 else "greedy"
                    for index, seat in enumerate(game.players)}  # fmt: skip
    seats = seat_plan(game, defaults, pairs or [], kinds)
    if "nonplayers" not in game_entry(game.name).option_names:
        return game, seats
    if "nonplayers" in option_values(option):
        if pairs or default is not None:  # play and simulate seat everyone: the seats say
            raise InputError("the seats name the Non-players: use --seat SEAT=nonplayer "
                             "rather than --option nonplayers", path="--option")  # fmt: skip
        return game, seats
    options = seated_options(game_entry(game.name).option_names, game.options.to_json(), seats)
    return load_game(game.name, options), seats


def _players(game: Any, seats: dict[str, str]) -> dict[str, Player]:
    return {
        side: HumanPlayer(game, sys.stdin, sys.stdout)
        if kind == "human"
        else automatic_player(kind, game, side)
        for side, kind in seats.items()
    }


def _record_json(game: Any, record: GameRecord, *, with_moves: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "game": record.game,
        "seed": record.seed,
        "options": record.options,
        "players": record.players,
        "result": record.result,
        "turns": record.turns,
        "decisions": record.decisions,
    }
    if with_moves:
        body["moves"] = [{"by": by, "move": game.move_to_json(move)} for by, move in record.moves]
    return body


@app.command("play")
def play_command(
    game_name: GameArg,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    option: OptionList = None,
    seed: SeedOpt = DEFAULT_SEED,
    output: Annotated[
        Path | None, typer.Option("--out", help="Write the game's log (JSON lines) here.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Play one game and show it; the same seed and seats replay the same game.

    Seats: --seat SEAT=KIND, KIND one of the game's kinds (legalis games --json):
    human, random, greedy, and nonplayer where the rules have Non-players. By default
    a game with Non-players seats them everywhere; any other, a person at the first
    seat and greedy players at the others.
    """
    if output is not None:
        check_writable(output, "--out")
    game, sides = _seated(game_name, option, seat, "play", scenario=scenario, deck=deck)
    players = _players(game, sides)
    humans = [side for side, kind in sides.items() if kind == "human"]
    last_turn = [0]

    def show(state: Any, by: str, move: Any) -> None:
        if as_json:
            return
        turn = getattr(state, "turn", None)
        if turn is not None and turn != last_turn[0]:
            last_turn[0] = turn
            out.rule(f"Turn {turn}")
        if by == CHANCE or by not in humans:
            out.print(game.describe_move(move), markup=False)

    record = play_game(game, players, seed, observer=show)
    if output is not None:
        write_file(output, "".join(log_lines(game, record)), "--out")
    if as_json:
        emit_json(_record_json(game, record, with_moves=True))
        return
    out.rule("Result")
    for line in game.render(record.final_state):
        out.print(line, markup=False)
    out.print(f"{game.describe_result(record.result)}: {record.decisions} decisions, "
              f"{len(record.moves)} moves", markup=False)  # fmt: skip
    if output is not None:
        out.print(f"log written to {output}")


@app.command("simulate")
def simulate_command(
    game_name: GameArg,
    games_count: Annotated[
        int, typer.Option("--games", help="How many games to play.", min=1)
    ] = 100,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    option: OptionList = None,
    seed: SeedOpt = DEFAULT_SEED,
    output: Annotated[
        Path | None, typer.Option("--out", help="Write the figures (JSON) here.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Play many games; report wins by seat and by victory condition, lengths and decisions.

    Seats as for 'play', automatic only: by default the game's Non-players, else
    random players.
    """
    if output is not None:
        check_writable(output, "--out")
    game, kinds = _seated(game_name, option, seat, "simulate", scenario=scenario, deck=deck)
    stats = simulate(game, _players(game, kinds), games_count, seed, show_progress=not as_json)
    stats["players"] = kinds
    if output is not None:
        write_file(output, json.dumps(stats, indent=2) + "\n", "--out")
    if as_json:
        emit_json(stats)
    else:
        print_simulation(game, stats)
    finish(EXIT_INTERRUPTED if stats["interrupted"] else EXIT_OK)


BackendOpt = Annotated[
    str, typer.Option("--backend", help="Where the work runs: local (processes) or ray.")
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers", help="Worker processes (default: one per core; Ray: the cluster's).", min=1
    ),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="The Ray cluster to use (ray://HOST:PORT or HOST:PORT); "
        "none: a Ray started here for the run.",
    ),
]


TaskBackendOpt = Annotated[
    str | None,
    typer.Option(
        "--backend",
        help="Run a task per card (or fixture) on local processes or "
        "ray; none: one by one in this process.",
    ),
]


@contextlib.contextmanager
def _mapper(backend: str | None, workers: int | None, address: str | None) -> Any:
    """The mapper that runs a verification's tasks on ``backend`` (None: in this
    process, one by one)."""
    if backend is None:
        for flag, value in (("--workers", workers), ("--address", address)):
            if value is not None:
                raise InputError(f"{flag} needs --backend", path=flag, allowed=BACKENDS)
        yield None
        return
    with open_backend(backend, workers=workers, address=address) as runner:
        yield runner.in_order


def _named_flag(settings: dict[str, Any], make: Callable[[], Any]) -> Any:
    """What ``make`` returns; a refused setting that a flag gave names the flag."""
    try:
        return make()
    except InputError as error:
        if error.path not in settings:
            raise
        flag = "--" + error.path.replace("_", "-")
        raise InputError(error.message, path=flag, allowed=error.allowed) from error


def _given(context: typer.Context, parameter: str) -> bool:
    """Whether the command line gave ``parameter``, rather than its default."""
    source = context.get_parameter_source(parameter)
    return source is not None and source.name == "COMMANDLINE"


@app.command("sweep")
def sweep_command(
    context: typer.Context,
    game_name: GameArg,
    study_path: Annotated[
        Path | None, typer.Option("--study", help="A study TOML file: the grid and its settings.")
    ] = None,
    games_count: Annotated[
        int | None, typer.Option("--games", help="Games per cell (default 20).", min=1)
    ] = None,
    scenario: Annotated[
        list[str] | None, typer.Option("--scenario", help="A scenario of the grid (repeatable).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="A rule option, NAME=VALUE; a NAME given again with "
            "another value makes that option an axis of the grid.",
        ),
    ] = None,
    seats: Annotated[
        list[str] | None,
        typer.Option(
            "--seats",
            help="Who plays: default, or SEAT=KIND,SEAT=KIND (the seats "
            "not named by default); each --seats is a value of the grid.",
        ),
    ] = None,
    deck: Annotated[
        list[Path] | None, typer.Option("--deck", help="A deck TOML of the grid (repeatable).")
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="The master seed every game's seed comes from.")
    ] = DEFAULT_SEED,
    output: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="The study's folder: results (resumable), summary.json, "
            "plots (default: sweep-GAME).",
        ),
    ] = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    batch: Annotated[
        int | None, typer.Option("--batch", help="Games per task (default: chosen).", min=1)
    ] = None,
    slowest: Annotated[
        int | None,
        typer.Option("--slowest", help="Slowest decisions reported per cell (5).", min=0),
    ] = None,
    max_moves: Annotated[
        int | None,
        typer.Option("--max-moves", help="A game longer than this fails (50000).", min=1),
    ] = None,
    invariants: Annotated[
        str | None,
        typer.Option(
            "--invariants",
            help="Check the state's invariants after every-move "
            "(default) or at the end of each game.",
        ),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Drop the folder's earlier results and start again.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Play a grid of scenarios x options x seats x decks, many games per cell; report
    wins with 95% intervals, lengths, the slowest decisions and every failure.

    Every game's seed comes from --seed, so a game replays alone and the figures do
    not depend on --backend or --workers. Results are kept as games finish: Ctrl-C
    stops, and the same command resumes. Exit 1 when a game failed.
    """
    from legalis.sweep import report_study, run_study
    from legalis.sweep.study import checked, study_from_axes, study_from_toml
    from legalis.sweep.table import print_summary

    settings: dict[str, Any] = {
        name: value
        for name, value in (
            ("games", games_count),
            # a study file's own seed holds unless --seed is given
            ("seed", seed if _given(context, "seed") else None),
            ("slowest", slowest),
            ("max_moves", max_moves),
            ("invariants", invariants),
        )
        if value is not None
    }
    if study_path is not None:
        for flag, given in (
            ("--scenario", scenario),
            ("--option", option),
            ("--seats", seats),
            ("--deck", deck),
        ):
            if given:
                raise InputError(
                    f"{flag} and --study both give the grid: put it in the study", path=flag
                )
        study = study_from_toml(study_path)
        if study.game != game_name:
            raise InputError(
                f"{study_path} is a study of {study.game}, not {game_name}",
                path="--study",
                allowed=[study.game],
            )
        study = _named_flag(settings, lambda: checked(dataclasses.replace(study, **settings)))
    else:
        study = _named_flag(settings, lambda: study_from_axes(
            game_name, scenarios=scenario or (), options=option or (), seats=seats or (),
            decks=deck or (), **settings))  # fmt: skip
    folder = output or Path(f"sweep-{game_entry(game_name).name}")
    check_writable_folder(folder, "--out")
    total = study.games * len(study.cells)
    show = not as_json
    if show:
        err.print(
            f"{game_name}: {plural(len(study.cells), 'cell')} x "
            f"{plural(study.games, 'game')} on {backend}",
            markup=False,
        )
    with (
        open_backend(backend, workers=workers, address=address) as runner,
        progress(total, f"sweeping {game_name}", show) as advance,
        interruptible() as stop,
    ):
        run = run_study(
            study,
            folder,
            runner,
            size=batch,
            fresh=fresh,
            stop=stop,
            on_start=lambda missing: advance(total - missing),
            on_games=lambda games, _: advance(games),
        )
    with progress(len(study.cells), "reporting", show) as advance:
        summary = report_study(study, folder, on_cell=advance)
    if as_json:
        emit_json({"folder": str(folder), "backend": backend, "run": run, **summary})
    else:
        print_summary(summary, str(folder), run)
    if run["interrupted"]:
        finish(EXIT_INTERRUPTED)
    finish(EXIT_FINDINGS if summary["failed"] else EXIT_OK)


@app.command("replay")
def replay_command(
    game_name: GameArg,
    log_path: Annotated[Path, typer.Argument(help="A log written by 'legalis play GAME --out'.")],
    as_json: JsonFlag = False,
) -> None:
    """Re-apply every move of a logged game, checking each; exit 1 if the result differs."""
    parsed = parse_log(read_document(log_path, "text").split("\n"), source=str(log_path))
    header = parsed.header
    try:  # first the header's own faults (a game not registered among them)
        game = load_game(header["game"], header["options"])
    except InputError as error:  # name the log's header, not only the field
        raise InputError(error.message, source=str(log_path), path=f"line 1: {error.path}",
                         allowed=error.allowed) from error  # fmt: skip
    if header["game"] != game_name:
        raise InputError(f"{log_path} is a log of {clip(str(header['game']))}, not {game_name}",
                         path="game", allowed=[header["game"]])  # fmt: skip
    outcome = replay(game, parsed)
    body = {
        "game": game.name,
        "seed": header.get("seed"),
        "moves": outcome.moves,
        "result": outcome.result,
        "matches_log": outcome.matches_log,
    }
    if as_json:
        emit_json(body)
    else:
        out.print(f"replayed {plural(outcome.moves, 'move')} of {game.title} "
                  f"(seed {header.get('seed')})")  # fmt: skip
        out.print(game.describe_result(outcome.result), markup=False)
        if outcome.matches_log is False:
            out.print("[red]the replayed result differs from the log's result line[/red]")
    finish(EXIT_FINDINGS if outcome.matches_log is False else EXIT_OK)


# ---------------------------------------------------------------------- verify
FormatOpt = Annotated[
    str, typer.Option("--format", help="text for people, json for machines, sarif for CI.")
]
FORMATS = ("text", "json", "sarif")


def _read_toml(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    document: dict[str, Any] = read_document(path, "toml")
    return document


def _meanings() -> dict[str, str]:
    """What each finding code means, for SARIF's rule descriptions."""
    return {code: text for code, (_, _, text) in finding_codes().items()}


@app.command("verify")
def verify_command(
    game_name: GameArg,
    data: Annotated[
        Path | None,
        typer.Argument(
            help="The game's data to check, a TOML file: a COIN deck, the Seven "
            "Years War card list, an EU:PoP Event catalogue (default: the bundled one)."
        ),
    ] = None,
    rules: Annotated[
        Path | None,
        typer.Option("--rules", help="The Seven Years War: a rule-numbers TOML file."),
    ] = None,
    option: OptionList = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="COIN decks: event text in a form legalis does not read is an error."
        ),
    ] = False,
    output_format: FormatOpt = "text",
    backend: TaskBackendOpt = None,
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Check a game's data and prove its rules with Z3 (exit 1 on any error).

    With --backend, the checks run a card (or a proof) per task on local processes
    or Ray; the report is the same.
    """
    output_format = "json" if as_json else output_format
    if output_format not in FORMATS:
        raise InputError(f"unknown format {output_format!r}", path="--format", allowed=FORMATS)
    verify = verifier(game_entry(game_name).name)
    cards = 0
    raw = _read_toml(data)
    if raw is not None and isinstance(raw.get("card"), list):
        cards = len(raw["card"])
    with (
        _mapper(backend, workers, address) as mapper,
        progress(cards, "checking cards", output_format == "text") as advance,
    ):
        report = verify(VerifyInput(data=raw, source=None if data is None else str(data),
                                    options=option_values(option) or None,
                                    rules=_read_toml(rules), strict=strict,
                                    on_card=lambda _: advance(1), mapper=mapper))  # fmt: skip
    if output_format == "json":
        emit_json(report.to_json())
    elif output_format == "sarif":
        from legalis.verify.sarif import to_sarif

        text = data.read_text(encoding="utf-8") if data is not None else None
        emit_json(to_sarif(report.findings, _meanings(),
                           deck_uri=str(data) if data else None, deck_text=text))  # fmt: skip
    else:
        _print_report(report.to_json(), data)
    finish(EXIT_OK if report.ok else EXIT_FINDINGS)


def _print_report(body: dict[str, Any], data: Path | None) -> None:
    """A verification report for people: a COIN rule set's proofs, the findings (by
    card where they name one) and the proofs of claims."""
    rule_set = body.get("rule_set")
    if rule_set is not None:
        effects = rule_set.get("effects", [])
        proved = sum(1 for proof in effects if proof.get("proved"))
        consistent = rule_set.get("consistent")
        needed = ", each needed" if consistent and not rule_set.get("redundant") else ""
        out.print(f"{body.get('game')} rule set: {proved}/{len(effects)} effect forms keep the "
                  f"invariants; invariants {'consistent' if consistent else 'IN CONFLICT'}"
                  f"{needed}")  # fmt: skip
        for proof in effects:
            if not proof.get("proved"):
                out.print(
                    f"[red]counterexample[/red] {proof['name']}: {proof.get('counterexample')}"
                )
        if rule_set.get("conflict"):
            out.print(f"[red]rules in conflict:[/red] {', '.join(rule_set['conflict'])}")
    findings = body.get("findings", [])
    by_card: dict[Any, list[dict[str, Any]]] = {}
    for finding in findings:
        by_card.setdefault(finding.get("card"), []).append(finding)
    for card, found in sorted(
        by_card.items(), key=lambda item: (item[0] is not None, item[0] or 0)
    ):
        table = Table("severity", code_column(found), "where", "finding", "rule",
                      title=f"card {card}" if card is not None else None)  # fmt: skip
        for finding in found:
            where = finding.get("side") or finding.get("subject") or ""
            table.add_row(finding["severity"], finding["code"], str(where), finding["message"],
                          finding.get("rule") or "")  # fmt: skip
        out.print(table)
    if not findings:
        out.print(f"{data}: no findings" if data is not None else "checks: no findings")
    proofs = body.get("proofs", [])
    if proofs:
        table = Table(
            Column("claim", ratio=3, overflow="fold"),
            Column("result", no_wrap=True),
            Column("rule", ratio=3),
            Column("detail", ratio=2),
        )
        for proof in proofs:
            status = "[green]proved[/green]" if proof["proved"] else "[red]counterexample[/red]"
            detail = ""
            if proof.get("bound") is not None:
                detail = f"tight bound {proof['bound']}"
            if not proof["proved"] and proof.get("counterexample"):
                shown = ", ".join(f"{k}={v}" for k, v in list(proof["counterexample"].items())[:8])
                detail = shown + (" ..." if len(proof["counterexample"]) > 8 else "")
            table.add_row(proof["name"], status, proof["rule"], detail)
        out.print(table)
    errors = sum(1 for f in findings if f["severity"] == "error")
    verdict = "verified: no findings" if not findings else (
        f"{plural(len(findings), 'finding')}, {plural(errors, 'error')}")  # fmt: skip
    out.print(verdict, markup=False)


@app.command("explain")
def explain_command(
    code: Annotated[str, typer.Argument(help="A finding code, e.g. lod.french-before-toa.")],
    as_json: JsonFlag = False,
) -> None:
    """What a finding code means and the rule behind it."""
    known = finding_codes()
    data_check = re.fullmatch(r"data\.[a-z0-9-]{1,60}", code) and code not in known
    code_key = "data.<check>" if data_check else code
    if code_key not in known:
        import difflib

        near = difflib.get_close_matches(code[:100], list(known), n=3)
        raise InputError(
            f"unknown finding code {clip(code)!r}", path="code", allowed=near or sorted(known)
        )
    severity, rule, text = known[code_key]
    if as_json:
        emit_json({"code": code, "severity": severity, "rule": rule, "meaning": text})
        return
    out.print(f"{code} ({severity}): {text}. Rule: {rule}.", markup=False)


# ---------------------------------------------------------------------- beside play


@app.command("fixtures")
def fixtures_command(
    game_name: GameArg,
    output: Annotated[Path, typer.Option("--out", help="Folder for the fixture files.")] = Path(
        "fixtures"
    ),
    per_rule: Annotated[int, typer.Option("--per-rule", help="Fixtures per rule.", min=1)] = 2,
    seed: SeedOpt = DEFAULT_SEED,
    backend: TaskBackendOpt = None,
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Write edge-case states with their expected legal moves, for testing an engine
    (with --backend, a fixture per task on local processes or Ray: the same files)."""
    make = fixture_maker(game_entry(game_name).name)
    check_writable_folder(output, "--out")
    with (
        _mapper(backend, workers, address) as mapper,
        progress(1, "generating fixtures", not as_json) as advance,
    ):
        body = make(output, per_rule=per_rule, seed=seed, mapper=mapper)
        advance(1)
    if as_json:
        emit_json(body)
        return
    written = len(body["fixtures"]) + len(body.get("sequence", []))
    out.print(f"wrote {plural(written, 'fixture')} and manifest.json to {output}")
    if body.get("sequence"):
        out.print(f"of which {plural(len(body['sequence']), 'Sequence of Play fixture')}")
    missing = body.get("coverage", {}).get("rules", {}).get("not_exercised", [])
    if missing:
        out.print(f"rules no fixture exercises: {', '.join(missing)}")


@app.command("bot")
def bot_command(
    game_name: GameArg,
    state_path: StateOpt = None,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind",
            help="The automatic player: nonplayer (where the rules have "
            "one), greedy or random. Default: nonplayer where there is one, else greedy.",
        ),
    ] = None,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    option: OptionList = None,
    seed: SeedOpt = DEFAULT_SEED,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print every step of the decision with its rule.")
    ] = False,
    output: Annotated[
        Path | None, typer.Option("--out", help="Write the state after the move here.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """The move an automatic player makes for the seat to move (a chance outcome at a
    chance decision), and the state after it."""
    if output is not None:
        check_writable(output, "--out")
    game, state = _load_state(game_name, state_path, seed, option, seat, scenario=scenario,
                              deck=deck)  # fmt: skip
    if state.is_over:
        raise InputError("the game is over: no one is to move", path="--state")
    by, rng = state.to_move, LoggedRandom(seed)
    automatic = [k for k in seat_kinds(game) if k != "human"]
    # A game whose Non-players are an option (LoD 8.1) has them only at those seats.
    nonplayers = game.options.to_json().get("nonplayers")
    seated = NONPLAYER in automatic and (nonplayers is None or by in nonplayers)
    chosen = kind or (NONPLAYER if seated else "greedy")
    if chosen not in automatic:
        raise InputError(f"unknown automatic player {clip(chosen)!r}", path="--kind",
                         allowed=automatic)  # fmt: skip
    trace: list[str] = []
    if state.is_chance:
        move = state.sample_chance(rng)
    else:
        if chosen == NONPLAYER and not seated:
            raise InputError(f"{by} is not a Non-player in this game (its option nonplayers; "
                             f"--seat {by}=nonplayer when the game is made)", path="--kind",
                             allowed=[k for k in automatic if k != NONPLAYER])  # fmt: skip
        player = automatic_player(chosen, game, by)
        move = player.choose(state, rng)
        steps = getattr(player, "trace", None)
        trace = steps.lines() if steps is not None else []
    described = game.describe_move(move)
    state.play(move)
    body = {"by": by, "kind": CHANCE if by == CHANCE else chosen,
            "move": game.move_to_json(move), "description": described,
            **({"trace": trace} if explain else {}), **_state_body(game, state)}  # fmt: skip
    if output is not None:
        write_file(output, json.dumps(state.to_json(), indent=2) + "\n", "--out")
        body["wrote"] = str(output)
    if as_json:
        body.pop("state") if output is not None else None
        emit_json(body)
        return
    out.print(described, markup=False)
    if explain:
        for number, line in enumerate(trace, start=1):
            out.print(f"{number:>3}. {line}", markup=False)
    out.print(_where(game, state), markup=False)
    if output is not None:
        err.print(f"wrote {output}")


@app.command("draw")
def draw_command(
    game_name: GameArg,
    state_path: StateOpt = None,
    layer: Annotated[
        str | None, typer.Option("--layer", help="What to show (EU:PoP: religion, revolution).")
    ] = None,
    scenario: ScenarioOpt = None,
    option: OptionList = None,
    seed: SeedOpt = DEFAULT_SEED,
    viewer: Annotated[
        str | None, typer.Option("--viewer", help="The seat looking: its hidden cards are drawn.")
    ] = None,
    output: Annotated[Path, typer.Option("--out", help="The SVG file to write.")] = Path("map.svg"),
    as_json: JsonFlag = False,
) -> None:
    """Draw a state of a game as SVG: the board the browser table shows (legalis serve)."""
    draw = drawer(game_entry(game_name).name)
    check_writable(output, "--out")
    game, state = _load_state(game_name, state_path, seed, option, scenario=scenario)
    try:
        board = draw(game, state, viewer=viewer, layer=layer)
    except InputError as error:
        raise InputError(error.message, path=f"--{error.path}", allowed=error.allowed) from error
    write_file(output, board.svg, "--out")
    if as_json:
        emit_json({"wrote": str(output), "words": board.words, "places": board.places,
                   **board.details})  # fmt: skip
        return
    out.print(f"wrote {output}: {len(board.places)} places drawn", markup=False)
    for line in board.words:
        out.print(line, markup=False)


# ---------------------------------------------------------------------- serving clients


@app.command("serve")
def serve_command(
    game_names: Annotated[
        list[str] | None, typer.Argument(help="The games to serve (default: every one).")
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8080,
    max_body: Annotated[
        int | None, typer.Option(help="Largest request body in bytes (larger: 413).", min=1)
    ] = None,
    max_page: Annotated[int | None, typer.Option(help="Most moves one page lists.", min=1)] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(help="Seconds of work a request may take (longer: 503).", min=0.001),
    ] = None,
    threads: Annotated[
        int | None, typer.Option(help="Threads per server process for cheap work.", min=1)
    ] = None,
    processes: Annotated[
        int | None,
        typer.Option(
            help="Worker processes per server process for work a request may make costly "
            "(its own state or deck, deck verification); killed when a request's time is up.",
            min=1,
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(help="Server processes sharing the port (1 to twice the cores).", min=1),
    ] = 1,
    open_page: Annotated[
        bool, typer.Option("--open", help="Open the table in a web browser once serving.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="First print the address served as a JSON line.")
    ] = False,
) -> None:
    """Serve the browser table at / and the JSON API (legal moves, checks, applies,
    bots, boards, deck verification) under /v1 over HTTP.

    Bounds left out keep the server's defaults (``legalis.server.Limits``).
    """
    from legalis.server import Limits, check_serving, serve

    check_serving(host, port, workers)  # a bad address or worker count: exit 2, nothing served
    served = tuple(game_entry(name).name for name in game_names or ())
    address = f"http://{host}:{port}"
    if as_json:
        sys.stdout.write(json.dumps({"serving": address}) + "\n")
        sys.stdout.flush()
    else:
        out.print(f"the table: {address}/   the API: {address}/docs   (Ctrl-C stops)",
                  markup=False)  # fmt: skip
    if open_page:
        threading.Thread(target=_open_when_serving, args=(host, port, address + "/"),
                         daemon=True).start()  # fmt: skip
    given: dict[str, Any] = {
        "max_body_bytes": max_body,
        "max_page": max_page,
        "time_limit": time_limit,
        "threads": threads,
        "processes": processes,
    }
    limits = Limits(**{name: value for name, value in given.items() if value is not None})
    serve(host, port, limits, workers, games=served)


def _open_when_serving(host: str, port: int, address: str, wait: float = 30.0) -> None:
    """Open ``address`` in the person's web browser once the port answers."""
    import socket
    import webbrowser

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                webbrowser.open(address)
                return
        except OSError:
            time.sleep(0.2)


@app.command("demo")
def demo_command(
    seed: SeedOpt = DEFAULT_SEED,
    games_count: Annotated[
        int, typer.Option("--games", help="Games to simulate of each game.", min=1)
    ] = 5,
    as_json: JsonFlag = False,
) -> None:
    """Show what legalis does, on every registered game's bundled data."""
    from legalis.demo import print_demo, run_demo

    body = run_demo(seed=seed, count=games_count)
    if as_json:
        emit_json(body)
    else:
        print_demo(body)


# ---------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: one clear line per error, never a traceback on the terminal.

    Usage errors are Typer's own (exit 2); commands end with ``typer.Exit``. Ctrl-C
    ends a command with exit 130 (Typer turns it into that code) and one line. A
    command line of the previous release's shapes runs with a warning naming the
    new shape (:mod:`legalis.aliases`).
    """
    from legalis.aliases import translate

    code = EXIT_OK
    try:
        translation = translate(list(sys.argv[1:] if argv is None else argv))
        for warning in translation.warnings:
            err.print(f"warning: {warning}", markup=False)
        if translation.legacy:
            from legalis.legacy_cli import app as legacy_app

            legacy_app(args=translation.argv, prog_name="legalis")
        else:
            app(args=translation.argv, prog_name="legalis")
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else EXIT_INPUT
    except LegalisError as error:
        err.print(f"error: {clip(str(error), 2000)}", markup=False)
        code = EXIT_INPUT
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    except Exception:
        code = internal_error()
    if code == EXIT_INTERRUPTED:
        err.print("interrupted")
    sys.exit(code)
