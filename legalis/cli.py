"""The ``legalis`` command line.

Exit codes: 0 ok, 1 verification findings (or a refused move, or a replay that
differs from its log), 2 bad input or usage, 3 internal error (the traceback is
written to a log file whose path is printed), 130 interrupted by Ctrl-C.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Column, Table

from legalis import __version__
from legalis.model.core.documents import parse_json, read_document
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError, LegalisError, clip
from legalis.model.sevenyears.state import CONFLICT, DIFFICULTY, EXECUTE, TURMOIL
from legalis.players import HumanPlayer
from legalis.registry import game_entry, games, load_game
from legalis.solver.gamelog import log_lines, parse_log, replay
from legalis.solver.players import NONPLAYER, Player, automatic_player, seat_kinds
from legalis.solver.playout import CHANCE, GameRecord, play_game

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # the shells' code for a command ended by Ctrl-C (128 + SIGINT)
# The phases of a game in which a player decides (--phase of `legalis new`).
DECISION_PHASES = {"sevenyears": (EXECUTE, TURMOIL, CONFLICT, DIFFICULTY)}

app = typer.Typer(
    name="legalis",
    help="Rules verifier and legal-move generator for card-driven historical board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: Typer's rich panels show every flag as taking a value (`--count <bool>`).
    rich_markup_mode=None,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
GameArg = Annotated[str, typer.Argument(help="Game name; see 'legalis games'.")]
OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A rule option as name=value; repeatable. See docs/rules-questions.md.",
    ),
]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Seed of the random source (chance and players).")
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


def _finish(code: int) -> None:
    if code != EXIT_OK:
        raise typer.Exit(code)


def _emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2) + "\n")


def _emit_json_listing(
    head: dict[str, Any], key: str, items: Iterable[Any], tail: dict[str, Any]
) -> None:
    """Print ``{**head, key: [*items], **tail}`` as :func:`_emit_json` would, writing
    each item as it comes, so a long listing is never held whole.

    >>> _emit_json_listing({"count": 2}, "moves", iter([{"a": 1}, 2]), {"truncated": False})
    {
      "count": 2,
      "moves": [
        {
          "a": 1
        },
        2
      ],
      "truncated": false
    }
    """
    write = sys.stdout.write
    opening = json.dumps({**head, key: []}, indent=2)
    write(opening.removesuffix("[]\n}") + "[")
    written = 0
    for item in items:
        write(",\n    " if written else "\n    ")
        write(json.dumps(item, indent=2).replace("\n", "\n    "))
        written += 1
    write("\n  ]" if written else "]")
    for name, value in tail.items():
        write(f",\n  {json.dumps(name)}: " + json.dumps(value, indent=2).replace("\n", "\n  "))
    write("\n}\n")


def _plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless there is exactly one.

    >>> _plural(1, "legal move"), _plural(2, "legal move")
    ('1 legal move', '2 legal moves')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _check_writable(path: Path, option: str) -> None:
    """Refuse, before any work is done, an output path that cannot be written: its
    folder is missing or not writable, or the path is a folder.

    >>> try:
    ...     _check_writable(Path("/no/such/folder/out.json"), "--out")
    ... except InputError as error:
    ...     print(error)
    --out: cannot write /no/such/folder/out.json: no folder /no/such/folder
    """
    folder = path.parent
    if path.is_dir():
        raise InputError(f"cannot write {path}: it is a folder", path=option)
    if not folder.is_dir():
        raise InputError(f"cannot write {path}: no folder {folder}", path=option)
    writable = os.access(path if path.exists() else folder, os.W_OK)
    if not writable or not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {path}: permission denied", path=option)


def _check_writable_folder(folder: Path, option: str) -> None:
    """Refuse a folder to write files into that is a file, or that cannot be made."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        which = "it" if existing == folder else str(existing)
        raise InputError(f"cannot write into {folder}: {which} is a file", path=option)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"cannot write into {folder}: permission denied", path=option)


def _write_file(path: Path, text: str, option: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it,
    then renamed over it, so a failure never leaves half a file or a damaged input.
    Every command that writes a file writes it here. A device or a pipe (``/dev/null``,
    ``/dev/stdout``) is written to as it is; a link, through to the file it names."""
    temporary: Path | None = None
    try:
        if path.exists() and not path.is_file():
            with path.open("w", encoding="utf-8") as stream:
                stream.write(text)
            return
        target = path.resolve() if path.is_symlink() else path
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        ) as handle:
            temporary = Path(handle.name)
            handle.write(text)
        temporary.chmod(target.stat().st_mode & 0o7777 if target.exists() else _new_file_mode())
        os.replace(temporary, target)
    except BaseException as error:  # an interrupted write leaves no temporary file either
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        if not isinstance(error, OSError):
            raise
        raise InputError(f"cannot write {path}: {error.strerror}", path=option) from error


def _new_file_mode() -> int:
    """The mode an ordinary new file gets: read-write for all, less the umask (the
    temporary file is made private)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _option_values(option_pairs: list[str] | None) -> dict[str, Any]:
    """The ``--option name=value`` pairs as a mapping; ``true``/``false`` as booleans."""
    options: dict[str, Any] = {}
    for pair in option_pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InputError(f"expected name=value, got {pair!r}", path="--option")
        options[key.strip()] = {"true": True, "false": False}.get(
            value.strip().lower(), value.strip()
        )
    return options


def _game(name: str, option_pairs: list[str] | None, **named: Any) -> Any:
    """The game with the ``--option`` pairs and the ``named`` options given (LoD's
    ``--scenario`` and ``--deck`` are its options of those names)."""
    given = {key: str(value) for key, value in named.items() if value is not None}
    try:
        return game_entry(name).make({**_option_values(option_pairs), **given})
    except InputError as error:  # name the flag that gave a bad value
        flag = next((f"--{key}" for key in given if error.path == f"options.{key}"), None)
        if flag is None:
            raise
        raise InputError(error.message, path=flag, allowed=error.allowed) from error


def _nonplayer_options(option_pairs: list[str] | None) -> Any:
    """The LoD Non-player readings the ``--option`` pairs name (docs/rules-questions.md)."""
    from legalis.solver.nonplayer.options import NonplayerOptions

    return NonplayerOptions.from_json(_option_values(option_pairs), path="--option")


def _read_json(path: Path) -> Any:
    return read_document(path, "json")


def _parse_move_text(game: Any, text: str, option: str) -> Any:
    """The move given as JSON to ``option`` (--move, --check)."""
    raw = parse_json(text, path=option)
    return _named_move(lambda: game.move_from_json(raw), option)


def _named_move(parse: Callable[[], Any], option: str) -> Any:
    """The move ``parse`` reads, its errors naming the option that gave it."""
    try:
        return parse()
    except InputError as error:
        where = ".".join(part for part in (option, error.path) if part)
        raise InputError(error.message, path=where, allowed=error.allowed) from error


SeatList = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        help="Who plays a side or Faction: NAME=KIND, e.g. british=human (repeatable).",
    ),
]


def _seats(
    game: Any,
    defaults: dict[str, str],
    pairs: list[str] | None,
    shorthand: dict[str, str | None],
    kinds: Sequence[str],
) -> dict[str, str]:
    """Who plays each side: the ``defaults``, then ``--british``/``--french`` style
    ``shorthand``, then the ``--seat NAME=KIND`` pairs; every kind one of ``kinds``."""
    seats = dict(defaults)
    given = [(f"--{side}", side, kind) for side, kind in shorthand.items() if kind is not None]
    for pair in pairs or []:
        side, sep, kind = pair.partition("=")
        if not sep:
            raise InputError(f"expected NAME=KIND, got {clip(pair)!r}", path="--seat",
                             allowed=game.players)  # fmt: skip
        given.append(("--seat", side.strip(), kind.strip()))
    for option, side, kind in given:
        if side not in game.players:
            raise InputError(f"no seat {clip(side)!r} in {game.name}", path=option,
                             allowed=game.players)  # fmt: skip
        if kind not in kinds:
            raise InputError(f"unknown player {clip(kind)!r} for {side}", path=option,
                             allowed=kinds)  # fmt: skip
        seats[side] = kind
    return seats


def _seated_game(game: Any, seats: dict[str, str], option_pairs: list[str] | None) -> Any:
    """``game`` with the Non-player seats as its option ``nonplayers`` (it changes the rules,
    LoD 8.1), where the game has such seats."""
    if NONPLAYER not in seat_kinds(game):
        return game
    if "nonplayers" in _option_values(option_pairs):
        raise InputError("the seats name the Non-players: use --seat NAME=nonplayer",
                         path="--option")  # fmt: skip
    nonplayers = [side for side, kind in seats.items() if kind == NONPLAYER]
    return load_game(game.name, {**game.options.to_json(), "nonplayers": nonplayers})


def _players(game: Any, seats: dict[str, str]) -> dict[str, Player]:
    return {
        side: HumanPlayer(game, sys.stdin, sys.stdout)
        if kind == "human"
        else automatic_player(kind, game, side)
        for side, kind in seats.items()
    }


@contextmanager
def _progress(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when it is a terminal; ``advance(n)`` moves it."""
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not enabled or not err.is_terminal,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda n: progress.advance(task, n)


# ---------------------------------------------------------------------- games


@app.command("games")
def games_command(as_json: JsonFlag = False) -> None:
    """List the registered games and their rule options."""
    rows: list[dict[str, Any]] = [
        {
            "name": name,
            "title": game_entry(name).title,
            "options": list(game_entry(name).option_names),
        }
        for name in games()
    ]
    if as_json:
        _emit_json(rows)
        return
    table = Table("game", "title", "rule options")
    for row in rows:
        table.add_row(row["name"], row["title"], ", ".join(row["options"]))
    out.print(table)


# ---------------------------------------------------------------------- states and moves


def _state_at(game: Any, seed: int, phase: str | None) -> Any:
    """Play seeded random moves from the opening to the first decision (in ``phase``)."""
    phases = DECISION_PHASES.get(game.name)
    if phase is not None and phases is not None and phase not in phases:
        raise InputError(f"no decisions in a phase {clip(phase)!r}", path="--phase",
                         allowed=phases)  # fmt: skip
    rng = LoggedRandom(seed)
    state = game.new_initial_state()
    random_player = automatic_player("random", game)
    while not state.is_over:
        decision = state.to_move != CHANCE
        if decision and (phase is None or state.phase == phase):
            return state
        state.play(state.sample_chance(rng) if not decision else random_player.choose(state, rng))
    raise InputError(
        f"the seeded game ended before a {phase} decision; try another seed", path="--phase"
    )


@app.command("new")
def new_command(
    game_name: GameArg,
    seed: SeedOpt = 1,
    phase: Annotated[
        str | None, typer.Option(help="Stop at the first decision of this phase.")
    ] = None,
    output: Annotated[Path | None, typer.Option("--out", help="Write the state here.")] = None,
    option: OptionList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Write a state at a decision point, reached by seeded random play."""
    if game_name not in COIN_GAMES:
        _refuse_unused(game_name, {"--scenario": scenario, "--deck": deck})
    if output is not None:
        _check_writable(output, "--out")
    game = _game(game_name, option, scenario=scenario, deck=deck)
    state = _state_at(game, seed, phase)
    _write_state(state, output, as_json)


def _write_state(state: Any, output: Path | None, as_json: bool) -> None:
    """The state as JSON on stdout, or in ``output`` with a line saying where it stands
    (with ``as_json``, that line is JSON on stdout)."""
    text = json.dumps(state.to_json(), indent=2) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    _write_file(output, text, "--out")
    where = (
        f"turn {state.turn}, {state.phase}, {state.to_move} to move"
        if hasattr(state, "phase")
        else f"{state.game} state"
    )
    if as_json:
        _emit_json({"wrote": str(output), "position": where})
    else:
        err.print(f"wrote {output}: {where}")


def _load_state(
    game_name: str,
    state_path: Path | None,
    seed: int,
    option: list[str] | None,
    **named: Any,
) -> tuple[Any, Any]:
    """The game and the state of the file, or of a new seeded game with the ``--option``
    pairs and the ``named`` options (as :func:`_game`)."""
    if state_path is None:
        game = _game(game_name, option, **named)
        return game, _state_at(game, seed, None)
    raw = _read_json(state_path)
    options = raw.get("options") if isinstance(raw, dict) else None
    for flag, value in (("--option", option), *((f"--{k}", v) for k, v in named.items())):
        if value:
            raise InputError(
                f"{flag} applies to new states; a state file carries its options", path=flag
            )
    game = load_game(game_name, options if isinstance(options, dict) else None)
    return game, game.state_from_json(raw, source=str(state_path))


StateOpt = Annotated[
    Path | None,
    typer.Option(
        "--state",
        help="State JSON file. Default: Seven Years War, a seeded state's first decision; "
        "EU:PoP, the bundled sample. LoD and FitL: give this or --scenario.",
    ),
]
CoinStateOpt = Annotated[
    Path | None, typer.Option("--state", help="State JSON file; give this or --scenario.")
]


COIN_GAMES = ("lod", "fitl")
EUPOP = "eupop"
GameOpt = Annotated[str | None, typer.Option("--game", help="Game name (instead of the argument).")]
CardOpt = Annotated[int | None, typer.Option("--card", help="COIN: the event card number.")]
SideOpt = Annotated[
    str | None,
    typer.Option("--side", help="COIN: unshaded or shaded (5.2); a one-sided card needs none."),
]
FactionOpt = Annotated[str | None, typer.Option("--faction", help="COIN: the executing Faction.")]
DeckOpt = Annotated[
    Path | None,
    typer.Option("--deck", help="COIN: a deck TOML (default: the bundled sample deck)."),
]
ScenarioOpt = Annotated[
    str | None,
    typer.Option("--scenario", help="COIN: start from a bundled scenario set-up (or --state)."),
]


def _game_name(
    positional: str | None, option: str | None, accepted: Sequence[str], work: str
) -> str:
    """The game named by the argument or ``--game``: one of the games ``accepted`` by a
    command that does ``work`` ("legal moves")."""
    if positional and option and positional != option:
        raise InputError(f"two games named: {positional!r} and {option!r}", path="--game")
    name = option or positional
    if not name:
        raise InputError("name a game", path="--game", allowed=accepted)
    if name not in accepted:
        known = name in (*games(), *COIN_GAMES, EUPOP)
        problem = f"no {work} for {name!r}" if known else f"unknown game {clip(name)!r}"
        raise InputError(problem, path="--game", allowed=accepted)
    return name


@app.command("moves")
def moves_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name; see 'legalis games'.")] = None,
    game_option: GameOpt = None,
    state_path: StateOpt = None,
    count: Annotated[bool, typer.Option("--count", help="Only count the legal moves.")] = False,
    check: Annotated[
        str | None, typer.Option("--check", help="Is this move (JSON) legal here, and why not?")
    ] = None,
    limit: Annotated[int, typer.Option(help="List at most this many moves.", min=0)] = 100,
    seed: SeedOpt = 1,
    option: OptionList = None,
    card: CardOpt = None,
    side: SideOpt = None,
    faction: FactionOpt = None,
    deck: DeckOpt = None,
    scenario: ScenarioOpt = None,
    time_limit: Annotated[
        float | None,
        typer.Option("--time-limit", min=0, help="COIN: give up after this many seconds (exit 2)."),
    ] = None,
    as_json: JsonFlag = False,
    effect: Annotated[
        str | None, typer.Option("--effect", help="EU:PoP: a 16.3 effect or 16.5 symbol.")
    ] = None,
    player: Annotated[str | None, typer.Option("--player", help="EU:PoP: who gains.")] = None,
    amount: Annotated[int | None, typer.Option("--amount", help="EU:PoP: I or Units.")] = None,
    areas: Annotated[str, typer.Option("--areas", help="EU:PoP: Areas, a,b.")] = "",
    targets: Annotated[str, typer.Option("--targets", help="EU:PoP: Realms, x,y.")] = "",
    provinces: Annotated[str, typer.Option("--provinces", help="EU:PoP: Provinces.")] = "",
    places: Annotated[str, typer.Option("--places", help="EU:PoP: Unit places.")] = "",
    vassal: Annotated[bool, typer.Option("--vassal", help="EU:PoP: a v, not a t.")] = False,
    ships: Annotated[bool, typer.Option("--ships", help="EU:PoP: Ships, not Land.")] = False,
    colour: Annotated[str | None, typer.Option("--colour", help="EU:PoP: DNPR colour.")] = None,
) -> None:
    """The legal moves at a state: every one, a count, or yes/no with the reason.

    For a registered game (Liberty or Death among them): the moves at the decision of
    the state (--state; default a seeded state, for LoD of --scenario and --deck). For
    Liberty or Death and Fire in the Lake: every legal way to execute an event
    (--card, --side, --faction) in a state (--state or --scenario). For EU:PoP: the
    legal choices of one effect (--effect, --player and its arguments).
    """
    name = _game_name(game_name, game_option, _accepted(*games(), *COIN_GAMES, EUPOP),
                      "legal moves")  # fmt: skip
    event = _asks_event_moves(name, card, side, faction)
    coin_arguments = {"--card": card, "--side": side, "--faction": faction, "--deck": deck,
                      "--scenario": scenario}  # fmt: skip
    eupop_arguments = {"--effect": effect, "--player": player, "--amount": amount,
                       "--areas": areas, "--targets": targets, "--provinces": provinces,
                       "--places": places, "--vassal": vassal, "--ships": ships,
                       "--colour": colour}  # fmt: skip
    with_options = name == EUPOP or (not event and name in games())  # moves read rule options
    _refuse_unused(name, {**({} if name in COIN_GAMES else coin_arguments),
                          **({} if name == EUPOP else eupop_arguments),
                          **({} if with_options else {"--option": option})})  # fmt: skip
    if name == "eupop":
        _eupop_moves(state_path, effect, player, amount, areas, targets, provinces, places,
                     vassal, ships, colour, option, check, count, limit, as_json)  # fmt: skip
        return
    if event:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        view = _event_view(name, state_path, scenario, card, side, faction, deck, deadline)
        _show_moves(view, view.faction, check, count, limit, as_json, _event_describe,
                    lambda text: _event_move(text, "--check"))  # fmt: skip
        return
    game, state = _load_state(name, state_path, seed, option, scenario=scenario, deck=deck)
    header = f"{state.to_move} (turn {state.turn}, {state.phase} phase)"
    _show_moves(
        state.legal_moves(),
        header,
        check,
        count,
        limit,
        as_json,
        game.describe_move,
        lambda text: _parse_move_text(game, text, "--check"),
        game.move_to_json,
        {"to_move": state.to_move},
    )


def _accepted(*names: str) -> tuple[str, ...]:
    """The game ``names`` without repeats, in order."""
    return tuple(dict.fromkeys(names))


def _asks_event_moves(name: str, card: int | None, side: str | None, faction: str | None) -> bool:
    """Whether a command is about one COIN event's executions rather than a whole game's
    decision: a COIN game without a whole-game model, or an event named.

    >>> _asks_event_moves("lod", None, None, None), _asks_event_moves("lod", 24, None, None)
    (False, True)
    """
    named = any(value is not None for value in (card, side, faction))
    return name in COIN_GAMES and (named or name not in games())


def _refuse_unused(game: str, arguments: dict[str, Any]) -> None:
    """Refuse the ``arguments`` given that ``game`` has no use for, rather than ignore them.

    >>> _refuse_unused("sevenyears", {"--card": None, "--areas": ""})
    >>> _refuse_unused("sevenyears", {"--card": 24})
    Traceback (most recent call last):
    legalis.model.errors.InputError: --card: not an argument for sevenyears
    """
    for option, value in arguments.items():
        if value not in (None, "", False, []):
            raise InputError(f"not an argument for {game}", path=option)


def _show_moves(
    view: Any,
    header: str,
    check: str | None,
    count: bool,
    limit: int,
    as_json: bool,
    describe: Callable[[Any], str],
    parse: Callable[[str], Any],
    to_json: Callable[[Any], Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Print the moves of a view, its count, or the verdict on one move."""
    to_json = to_json or (lambda move: move.to_json())
    if check is not None:
        move = parse(check)
        verdict = view.verdict(move)
        answer = {
            "move": to_json(move),
            "legal": verdict.legal,
            "reason": verdict.reason,
            "rule": verdict.rule,
        }
        if as_json:
            _emit_json(answer)
        else:
            word = "legal" if verdict.legal else "illegal"
            out.print(f"{word}: {describe(move)}: {verdict.reason} [{verdict.rule}]", markup=False)
        _finish(EXIT_OK if verdict.legal else EXIT_FINDINGS)
        return
    total = view.count()
    listed = zip(range(0 if count else limit), view, strict=False)  # printed as generated
    if as_json:
        moves = (to_json(move) for _, move in listed)
        truncated = not count and total > limit
        _emit_json_listing({**(extra or {}), "count": total}, "moves", moves,
                           {"truncated": truncated})  # fmt: skip
        return
    out.print(f"{_plural(total, 'legal move')} for {header}")
    for index, move in listed:
        out.print(f"  {index:>4}. {describe(move)}", markup=False)
    if not count and total > limit:
        out.print(f"  ... {total - limit} more (raise --limit)")


def _coin_deck(game: str, deck_path: Path | None) -> Any:
    """The deck file, or with none the game's bundled deck; a deck of another game is
    refused."""
    from legalis.model.coin.deck import bundled_deck, of_game, read_deck

    deck = read_deck(str(deck_path)) if deck_path is not None else bundled_deck(game)
    return of_game(deck, game, "--deck")


def _coin_state(game: str, state_path: Path | None, scenario: str | None) -> Any:
    from legalis.model.coin.scenarios import load_scenario, scenario_names
    from legalis.model.coin.state import state_from_json

    if (state_path is None) == (scenario is None):
        given = "both" if state_path is not None else "neither"
        raise InputError(
            f"give one of --state FILE and --scenario NAME, not {given}",
            path="--scenario",
            allowed=scenario_names(game),
        )
    if scenario is not None:
        if scenario not in scenario_names(game):
            raise InputError(
                f"no scenario {scenario!r}", path="--scenario", allowed=scenario_names(game)
            )
        return load_scenario(game, scenario)
    assert state_path is not None
    return state_from_json(_read_json(state_path), game, source=str(state_path))


def _event_view(
    game: str,
    state_path: Path | None,
    scenario: str | None,
    card_number: int | None,
    side: str | None,
    faction: str | None,
    deck_path: Path | None,
    deadline: float | None = None,
) -> Any:
    from legalis.solver.events import legal_event_moves

    state = _coin_state(game, state_path, scenario)
    deck = _coin_deck(game, deck_path)
    if card_number is None:
        raise InputError(
            "name the event card", path="--card", allowed=[c.number for c in deck.cards]
        )
    card = _for_option(lambda: deck.card(card_number), "--card")
    printed = [name for name in ("unshaded", "shaded") if getattr(card, name) is not None]
    if side is None:
        if len(printed) != 1:
            raise InputError("a dual-use card: pick a side (5.2)", path="--side", allowed=printed)
        side = printed[0]
    if side not in printed:
        raise InputError(f"card {card.number} has no side {clip(side)!r}", path="--side",
                         allowed=printed)  # fmt: skip
    if faction is None:  # a Winter Quarters card may list no Faction: any may decide
        raise InputError("name the executing Faction", path="--faction",
                         allowed=card.factions or state.rules.faction_ids)  # fmt: skip
    _for_option(lambda: state.rules.faction(faction), "--faction")
    return legal_event_moves(state, card, side, faction, deadline=deadline)


def _for_option(work: Callable[[], Any], option: str) -> Any:
    """What ``work`` returns for the value of ``option``; its input errors name the option."""
    try:
        return work()
    except InputError as error:
        raise InputError(error.message, path=option, allowed=error.allowed) from error


def _event_describe(move: Any) -> str:
    parts = []
    for step in move.steps:
        if isinstance(step, int):
            parts.append(f"option {step + 1}")
        else:
            parts.append(", ".join(f"{n} {piece} {space}" for space, piece, n in step) or "nothing")
    return "; ".join(parts) or "(no choice to make)"


def _event_move(text: str, option: str) -> Any:
    """The COIN event move given as JSON to ``option`` (--move, --check)."""
    from legalis.solver.events import event_move_from_json

    raw = parse_json(text, path=option)
    return _named_move(lambda: event_move_from_json(raw), option)


@app.command("apply")
def apply_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name; see 'legalis games'.")] = None,
    game_option: GameOpt = None,
    state_path: Annotated[
        Path | None, typer.Option("--state", help="State JSON file (COIN: or --scenario).")
    ] = None,
    move_text: Annotated[str, typer.Option("--move", help="The move as JSON.")] = "",
    output: Annotated[Path | None, typer.Option("--out", help="Write the new state here.")] = None,
    card: CardOpt = None,
    side: SideOpt = None,
    faction: FactionOpt = None,
    deck: DeckOpt = None,
    scenario: ScenarioOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Apply one move to a state and write the next state (illegal moves exit 2 with the rule)."""
    name = _game_name(game_name, game_option, _accepted(*games(), *COIN_GAMES), "moves to apply")
    event = _asks_event_moves(name, card, side, faction)
    if not event:
        _refuse_unused(name, {"--card": card, "--side": side, "--faction": faction,
                              "--deck": deck, "--scenario": scenario})  # fmt: skip
    if not move_text:
        raise InputError("give the move as JSON", path="--move")
    if output is not None:
        _check_writable(output, "--out")
    if event:
        view = _event_view(name, state_path, scenario, card, side, faction, deck)
        _write_state(view.apply(_event_move(move_text, "--move")), output, as_json)
        return
    if state_path is None:
        raise InputError("give a state file", path="--state")
    game, state = _load_state(name, state_path, 0, None)
    state.play(_parse_move_text(game, move_text, "--move"))
    _write_state(state, output, as_json)


# ---------------------------------------------------------------------- playing


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


def _seated(
    game_name: str,
    option: list[str] | None,
    scenario: str | None,
    deck: Path | None,
    pairs: list[str] | None,
    shorthand: dict[str, str | None],
    automatic: bool,
) -> tuple[Any, dict[str, str]]:
    """The game of a play or simulation and who sits at each seat: by default the
    game's Non-player where it has one (LoD section 8), else ``human`` against
    ``greedy`` to play and ``random`` to simulate; ``automatic`` refuses ``human``."""
    if game_name not in COIN_GAMES:
        _refuse_unused(game_name, {"--scenario": scenario, "--deck": deck})
    game = _game(game_name, option, scenario=scenario, deck=deck)
    kinds = tuple(k for k in seat_kinds(game) if not (automatic and k == "human"))
    if NONPLAYER in kinds:
        defaults = dict.fromkeys(game.players, NONPLAYER)
    else:
        defaults = dict(zip(game.players, ("random", "random") if automatic
                            else ("human", "greedy"), strict=True))  # fmt: skip
    seats = _seats(game, defaults, pairs, shorthand, kinds)
    return _seated_game(game, seats, option), seats


SeatKind = Annotated[
    str | None, typer.Option(help="Player of this side (as --seat SIDE=KIND).", show_default=False)
]


@app.command("play")
def play_command(
    game_name: GameArg,
    british: SeatKind = None,
    french: SeatKind = None,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    seed: SeedOpt = 1,
    log: Annotated[Path | None, typer.Option("--log", help="Write the game as JSON lines.")] = None,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """Play one game and show it; the same seed and players replay the same game.

    Seats: --seat NAME=KIND with KIND human, random, greedy or (LoD) nonplayer. The
    Seven Years War defaults to british human, french greedy; Liberty or Death to
    every Faction a Non-player (section 8).
    """
    if log is not None:
        _check_writable(log, "--log")
    game, sides = _seated(game_name, option, scenario, deck, seat,
                          {"british": british, "french": french}, automatic=False)  # fmt: skip
    players = _players(game, sides)
    humans = [side for side, kind in sides.items() if kind == "human"]
    last_turn = [0]

    def show(state: Any, by: str, move: Any) -> None:
        if as_json:
            return
        if state.turn != last_turn[0]:
            last_turn[0] = state.turn
            out.rule(f"Turn {state.turn}")
        if by == CHANCE and type(move).__name__ == "Shuffle":
            out.print(f"[dim]{game.describe_move(move)}[/dim]")
        elif by == CHANCE or by not in humans:
            out.print(game.describe_move(move))

    record = play_game(game, players, seed, observer=show)
    if log is not None:
        _write_file(log, "".join(log_lines(game, record)), "--log")
    if as_json:
        _emit_json(_record_json(game, record, with_moves=True))
        return
    out.rule("Result")
    for line in game.render(record.final_state):
        out.print(line)
    out.print(
        f"{game.describe_result(record.result)}: {record.decisions} decisions, "
        f"{len(record.moves)} moves",
        markup=False,
    )
    if log is not None:
        out.print(f"log written to {log}")


@app.command("simulate")
def simulate_command(
    game_name: GameArg,
    games_count: Annotated[
        int, typer.Option("--games", help="How many games to play.", min=1)
    ] = 1000,
    british: SeatKind = None,
    french: SeatKind = None,
    seat: SeatList = None,
    scenario: ScenarioOpt = None,
    deck: DeckOpt = None,
    seed: SeedOpt = 1,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """Play many games; report wins by side and by victory condition, lengths and decisions.

    Seats as for 'play', automatic only: The Seven Years War defaults to random
    players, Liberty or Death to Non-players.
    """
    game, kinds = _seated(game_name, option, scenario, deck, seat,
                          {"british": british, "french": french}, automatic=True)  # fmt: skip
    players = _players(game, kinds)
    stats = simulate(game, players, games_count, seed, show_progress=not as_json)
    stats["players"] = kinds
    if as_json:
        _emit_json(stats)
    else:
        _print_simulation(game, stats)
    _finish(EXIT_INTERRUPTED if stats["interrupted"] else EXIT_OK)


def _print_simulation(game: Any, stats: dict[str, Any]) -> None:
    played, seed, kinds = stats["games"], stats["seed"], stats["players"]
    if stats["interrupted"]:
        out.print(f"interrupted: {played} of {stats['games_requested']} games finished")
    if not played:
        return
    seats = ", ".join(f"{side} {kind}" for side, kind in kinds.items())
    out.print(
        f"{_plural(played, 'game')} of {game.title} ({seats}), seeds {seed}..{seed + played - 1}"
    )
    table = Table("winner", "games", "share", *stats["conditions"])
    for side, count in stats["wins"].items():
        share = f"{100 * count / played:.1f}%"
        by_condition = stats["by_condition"].get(side, {})
        table.add_row(
            side, str(count), share, *(str(by_condition.get(c, 0)) for c in stats["conditions"])
        )
    out.print(table)
    out.print(
        f"mean game length {stats['mean_turns']:.2f} turns, "
        f"{stats['mean_decisions']:.1f} decisions per game, "
        f"{stats['games_per_second']:.0f} games/s"
    )


def simulate(
    game: Any, players: dict[str, Player], count: int, seed: int, *, show_progress: bool
) -> dict[str, Any]:
    """Play ``count`` games with seeds ``seed..seed+count-1`` and gather the figures.

    Ctrl-C stops it after the game under way: the figures are those of the games
    finished, marked ``interrupted``.
    """
    wins: Counter[str] = Counter()
    by_condition: dict[str, Counter[str]] = {}
    turns = decisions = played = 0
    started = time.perf_counter()
    with _progress(count, "simulating", show_progress) as advance, _interruptible() as stop:
        for index in range(count):
            if stop():
                break
            record = play_game(game, players, seed + index, record=False)
            played += 1
            result = record.result or {"winner": None, "condition": "draw"}
            side = result["winner"] or "draw"
            wins[side] += 1
            by_condition.setdefault(side, Counter())[result["condition"]] += 1
            turns += record.turns
            decisions += record.decisions
            if index % 50 == 49:
                advance(50)
        advance(played % 50)
    elapsed = time.perf_counter() - started
    conditions = sorted({c for counter in by_condition.values() for c in counter})
    ordered = {side: wins.get(side, 0) for side in (*game.players, "draw")}
    return {
        "game": game.name,
        "games": played,
        "games_requested": count,
        "interrupted": played < count,
        "seed": seed,
        "options": game.options.to_json(),
        "wins": ordered,
        "conditions": conditions,
        "by_condition": {side: dict(counter) for side, counter in by_condition.items()},
        "mean_turns": turns / max(played, 1),
        "mean_decisions": decisions / max(played, 1),
        "seconds": elapsed,
        "games_per_second": played / elapsed if elapsed else 0.0,
    }


@contextmanager
def _interruptible() -> Iterator[Callable[[], bool]]:
    """Within it, a first Ctrl-C asks the work to stop at its next check of ``stop()``
    (a second one interrupts at once). Where Ctrl-C is ignored, or off the main
    thread (where signals cannot be handled), nothing changes."""
    asked: list[bool] = []

    def on_interrupt(signum: int, frame: object) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)

    main_thread = threading.current_thread() is threading.main_thread()
    if not main_thread or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield lambda: bool(asked)
    finally:
        signal.signal(signal.SIGINT, previous)


@app.command("replay")
def replay_command(
    log_path: Annotated[Path, typer.Argument(help="A log written by 'legalis play --log'.")],
    as_json: JsonFlag = False,
) -> None:
    """Re-apply every move of a logged game, checking each; exit 1 if the result differs."""
    parsed = parse_log(read_document(log_path, "text").split("\n"), source=str(log_path))
    header = parsed.header
    try:
        game = load_game(header["game"], header["options"])
    except InputError as err:  # name the log's header, not only the field
        raise InputError(
            err.message, source=str(log_path), path=f"line 1: {err.path}", allowed=err.allowed
        ) from err
    outcome = replay(game, parsed)
    body = {
        "game": game.name,
        "seed": header.get("seed"),
        "moves": outcome.moves,
        "result": outcome.result,
        "matches_log": outcome.matches_log,
    }
    if as_json:
        _emit_json(body)
    else:
        out.print(f"replayed {_plural(outcome.moves, 'move')} of {game.title} "
                  f"(seed {header.get('seed')})")  # fmt: skip
        out.print(game.describe_result(outcome.result), markup=False)
        if outcome.matches_log is False:
            out.print("[red]the replayed result differs from the log's result line[/red]")
    _finish(EXIT_FINDINGS if outcome.matches_log is False else EXIT_OK)


# ---------------------------------------------------------------------- verify


FormatOpt = Annotated[
    str, typer.Option("--format", help="text for people, json for machines, sarif for CI.")
]
FORMATS = ("text", "json", "sarif")
GENERAL_CODES = {
    "proof.failed": (
        "error",
        "the claim's rule",
        "a claim has a counterexample: the rule can be broken",
    ),
    "proof.vacuous": ("warning", "the claim's rule", "a claim's assumptions contradict each other"),
    "proof.limit": ("warning", "the claim's rule", "the prover gave up within its time limit"),
    "data.<check>": ("error", "CARD LIST", "a field of the Seven Years War card data is wrong"),
    "eupop.event-no-effects": (
        "error",
        "16.3 Standard Event effects",
        "an EU:PoP Event's text says what happens, but it carries no effects",
    ),
    "eupop.event-unknown-name": (
        "error",
        "16.3 Standard Event effects",
        "an EU:PoP Event's effects name a place the bundled map does not know",
    ),
}


def _verify_eupop(catalogue_path: Path | None, output_format: str) -> None:
    """Prove EU:PoP's event rules and check a catalogue (the bundled one by default)."""
    from legalis.model.eupop.events import load_catalogue
    from legalis.verify.eupop import verify_eupop  # z3 loads slowly: only when verifying

    eupop_report = verify_eupop(load_catalogue(catalogue_path))
    if output_format == "json":
        _emit_json(eupop_report.to_json())
    elif output_format == "sarif":
        from legalis.verify.sarif import to_sarif

        meanings = {code: text for code, (_, _, text) in GENERAL_CODES.items()}
        _emit_json(to_sarif(eupop_report.findings, meanings))
    else:
        _print_report(eupop_report)
    _finish(EXIT_OK if eupop_report.ok else EXIT_FINDINGS)


@app.command("verify")
def verify_command(
    target: Annotated[
        str | None, typer.Argument(help="'sevenyears', or a COIN deck TOML (with --game).")
    ] = None,
    game_option: GameOpt = None,
    cards: Annotated[
        Path | None,
        typer.Option("--cards", help="A card list or EU:PoP catalogue TOML, not the bundled one."),
    ] = None,
    rules: Annotated[
        Path | None, typer.Option("--rules", help="A rule-numbers TOML instead of the bundled one.")
    ] = None,
    option: OptionList = None,
    output_format: FormatOpt = "text",
    as_json: JsonFlag = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="COIN decks: event text in a form legalis does not read is an error."
        ),
    ] = False,
) -> None:
    """Check a game's data or a COIN deck and prove the rules with Z3 (exit 1 on any error)."""
    output_format = "json" if as_json else output_format
    if output_format not in FORMATS:
        raise InputError(f"unknown format {output_format!r}", path="--format", allowed=FORMATS)
    deck_path = Path(target) if target is not None and target.endswith(".toml") else None
    name = game_option or (None if deck_path is not None else target)
    if name is None and deck_path is not None:
        from legalis.model.coin.deck import read_deck

        name = read_deck(str(deck_path)).game  # a deck names its game
    if deck_path is None and target and game_option and target != game_option:
        raise InputError(f"{clip(target)!r} with --game {game_option}: name one game, or a "
                         "deck file (.toml) of that game", path="--game")  # fmt: skip
    if name in (*COIN_GAMES, "eupop"):
        # only the Seven Years War checks read rule options and a rule-numbers file
        ignored = [flag for flag, given in (("--option", option), ("--rules", rules)) if given]
        if name in COIN_GAMES and cards is not None:
            ignored.append("--cards")  # a COIN deck is the argument
        if ignored:
            raise InputError(f"{name} verification does not take {ignored[0]}", path=ignored[0])
    if strict and name is not None and name not in COIN_GAMES:
        raise InputError(f"{name} verification does not take --strict", path="--strict")
    if name in COIN_GAMES:
        _verify_coin(name, deck_path, output_format, strict=strict)
        return
    if name == "eupop":
        _verify_eupop(cards or deck_path, output_format)
        return
    if deck_path is not None or name is None:
        raise InputError("name the game of the deck", path="--game", allowed=COIN_GAMES)
    from legalis.verify.sevenyears import verify_sevenyears  # z3 loads slowly: only when verifying

    game = _game(name, option)
    if game.name != "sevenyears":
        raise InputError(
            f"no verifier for {game.name!r}", path="game", allowed=["sevenyears", *COIN_GAMES]
        )
    report = verify_sevenyears(
        raw_cards=_read_toml(cards), raw_game=_read_toml(rules), options=game.options
    )
    if output_format == "json":
        _emit_json(report.to_json())
    elif output_format == "sarif":
        from legalis.verify.sarif import to_sarif

        meanings = {code: text for code, (_, _, text) in GENERAL_CODES.items()}
        _emit_json(to_sarif(report.findings, meanings))
    else:
        _print_report(report)
    _finish(EXIT_OK if report.ok else EXIT_FINDINGS)


def _verify_coin(
    game: str, deck_path: Path | None, output_format: str, *, strict: bool = False
) -> None:
    from legalis.model.coin.deck import read_deck
    from legalis.verify.coin import verify_coin
    from legalis.verify.coin_findings import CODES
    from legalis.verify.sarif import to_sarif

    deck = read_deck(str(deck_path)) if deck_path is not None else None
    cards = len(deck.cards) if deck is not None else 0
    with _progress(cards, "checking cards", output_format == "text") as advance:
        report = verify_coin(game, deck, on_card=lambda _: advance(1), strict=strict)
    if output_format == "json":
        _emit_json(report.to_json())
    elif output_format == "sarif":
        text = deck_path.read_text(encoding="utf-8") if deck_path is not None else None
        meanings = {code: meaning for code, (_, _, meaning) in CODES.items()}
        _emit_json(
            to_sarif(
                report.findings,
                meanings,
                deck_uri=str(deck_path) if deck_path else None,
                deck_text=text,
            )
        )
    else:
        _print_coin_report(report, deck_path)
    _finish(EXIT_OK if report.ok else EXIT_FINDINGS)


def _print_coin_report(report: Any, deck_path: Path | None) -> None:
    rule_set = report.rule_set
    proved = sum(1 for proof in rule_set.effects if proof.proved)
    out.print(
        f"{report.game} rule set: {proved}/{len(rule_set.effects)} effect forms keep the "
        f"invariants; invariants {'consistent' if rule_set.consistent else 'IN CONFLICT'}"
        f"{', each needed' if rule_set.consistent and not rule_set.redundant else ''}"
    )
    for proof in rule_set.effects:
        if not proof.proved:
            out.print(f"[red]counterexample[/red] {proof.name}: {proof.counterexample}")
    if rule_set.conflict:
        out.print(f"[red]rules in conflict:[/red] {', '.join(rule_set.conflict)}")
    if deck_path is None:
        return
    by_card: dict[Any, list[Any]] = {}
    for finding in report.findings:
        by_card.setdefault(finding.card, []).append(finding)
    if not by_card:
        out.print(f"{deck_path}: no findings")
    for card, found in sorted(by_card.items(), key=lambda item: (item[0] is None, item[0] or 0)):
        table = Table(
            "severity", _code_column(found), "side", "finding", "rule",
            title=f"card {card}" if card else "deck",
        )  # fmt: skip
        for finding in found:
            table.add_row(
                finding.severity, finding.code, finding.side or "", finding.message, finding.rule
            )
        out.print(table)
    errors = sum(1 for f in report.findings if f.severity == "error")
    out.print(f"{_plural(len(report.findings), 'finding')}, {_plural(errors, 'error')}")


@app.command("explain")
def explain_command(
    code: Annotated[str, typer.Argument(help="A finding code, e.g. lod.french-before-toa.")],
    as_json: JsonFlag = False,
) -> None:
    """What a finding code means and the rule behind it."""
    from legalis.verify.coin_findings import CODES

    known = {**CODES, **GENERAL_CODES}
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
        _emit_json({"code": code, "severity": severity, "rule": rule, "meaning": text})
        return
    out.print(f"{code} ({severity}): {text}. Rule: {rule}.", markup=False)


def _read_toml(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    from legalis.model.sevenyears.data import read_toml

    return read_toml(str(path))


def _code_column(findings: list[Any]) -> Column:
    """The column of finding codes, never cut: `legalis explain` needs them whole."""
    codes = [f["code"] if isinstance(f, dict) else f.code for f in findings]
    return Column("code", no_wrap=True, min_width=max(map(len, codes), default=4))


def _print_report(report: Any) -> None:
    body = report.to_json()
    findings = body.get("findings", [])
    if findings:
        table = Table("severity", _code_column(findings), "where", "finding")
        for finding in findings:
            table.add_row(
                finding["severity"], finding["code"], finding["subject"], finding["message"]
            )
        out.print(table)
    else:
        out.print("checks: no findings")
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
    out.print("verified: no findings" if report.ok else "[red]verification found problems[/red]")


# ---------------------------------------------------------------------- demo


@app.command("demo")
def demo_command(
    seed: SeedOpt = 7,
    games_count: Annotated[int, typer.Option("--games", help="Games to simulate.", min=1)] = 500,
    as_json: JsonFlag = False,
) -> None:
    """Show what legalis does, on the bundled Seven Years War data."""
    from legalis.verify.sevenyears import verify_sevenyears

    game = load_game("sevenyears")
    state = _state_at(game, seed, "conflict")
    view = state.legal_moves()
    player = state.to_move
    refused = _refused_lay(game, state)
    players = {
        "british": automatic_player("greedy", game),
        "french": automatic_player("random", game),
    }
    record = play_game(game, players, seed)
    stats = simulate(game, players, games_count, seed, show_progress=not as_json)
    _finish(EXIT_INTERRUPTED if stats["interrupted"] else EXIT_OK)
    report = verify_sevenyears(options=game.options)
    body: dict[str, Any] = {
        "games": games(),
        "legal_moves": {
            "state": {"turn": state.turn, "phase": state.phase, "to_move": player},
            "count": view.count(),
            "sample": [game.move_to_json(view.nth(i)) for i in range(min(5, view.count()))],
            "refused": None
            if refused is None
            else {
                "move": game.move_to_json(refused[0]),
                "reason": refused[1].reason,
                "rule": refused[1].rule,
            },
        },
        "game": _record_json(game, record, with_moves=False),
        "simulation": stats,
        "verify": report.to_json(),
        "coin_events": _coin_demo(),
        "eupop": _eupop_demo(seed),
    }
    if as_json:
        _emit_json(body)
        return
    out.rule("legalis: rules verifier and legal-move generator")
    out.print(f"games registered: {', '.join(games())}")
    out.rule(f"Legal moves: {game.title}, turn {state.turn}, {state.phase} phase")
    for line in game.render(state, viewer=player):
        out.print(line)
    out.print(f"{view.count()} legal moves for {player}; the first few:")
    for index in range(min(5, view.count())):
        out.print(f"  {game.describe_move(view.nth(index))}")
    if refused is not None:
        move, why = refused
        out.print(f"refused: {game.describe_move(move)}: {why.reason} [{why.rule}]")
    out.rule(f"One game, seed {seed}: british greedy vs french random")
    out.print(
        f"{game.describe_result(record.result)} after {record.turns} turns, "
        f"{record.decisions} decisions"
    )
    out.rule(f"{games_count} games, british greedy vs french random")
    for side, count in stats["wins"].items():
        out.print(f"  {side:<8} {count:>6} ({100 * count / games_count:.1f}%)")
    out.print(
        f"  {stats['games_per_second']:.0f} games/s, {stats['mean_turns']:.2f} turns per game"
    )
    out.rule("Verification: card data and Z3 proofs")
    _print_report(report)
    for shown in body["coin_events"]:
        out.rule(f"{shown['game_title']}: every legal way to execute an event")
        out.print(
            f'card {shown["card"]} "{shown["title"]}" ({shown["side"]}), {shown["faction"]}, '
            f"{shown['scenario']} set-up: {shown['text']}",
            markup=False,
        )
        out.print(f"{shown['count']:,} legal executions; the first few:")
        for text in shown["first"]:
            out.print(f"  {text}", markup=False)
        out.print(
            f"refused: {shown['refused']['reason']} [{shown['refused']['rule']}]", markup=False
        )
    eupop = body["eupop"]
    out.rule("Europa Universalis: The Price of Power: the event system (chapter 16)")
    for faith, areas in eupop["clusters"]:
        out.print(f"{faith} cluster: {', '.join(areas)}")
    spread = eupop["spread"]
    out.print(f"Spread of Religious Ideas: {spread['count']} legal first placements, e.g. "
              f"{', '.join(spread['first'])}")  # fmt: skip
    influence = eupop["influence"]
    where = ", ".join(influence["areas"])
    out.print(f"{influence['player']} places {influence['amount']} Influence in {where}: "
              f"{influence['count']} legal placements")  # fmt: skip
    out.print(f"event {eupop['event']} auto-resolved (seed {seed}):")
    for line in eupop["log"]:
        out.print(f"  {line}", markup=False)


def _eupop_demo(seed: int) -> dict[str, Any]:
    """The bundled EU:PoP state: its religion clusters, the first placements of a
    spread, an Influence count, and one Event resolved automatically."""
    import itertools
    import random

    from legalis.model.eupop.events import load_catalogue
    from legalis.model.eupop.religion import SpreadProgress, religion_clusters, spread_moves
    from legalis.model.eupop.resolution import ResolutionLog
    from legalis.model.eupop.state import bundled_state
    from legalis.solver.eupop_play import effect_view, resolve_event

    state = bundled_state()
    spread = spread_moves(state, SpreadProgress("religion"))
    areas = ["saxony", "bohemia", "lombardy", "central_italy"]
    influence, _ = effect_view(state, "influence", "france", amount=3, areas=areas)
    event = load_catalogue().events["13A-2"]
    log = ResolutionLog()
    resolve_event(state, event.effects, event.symbols, log=log, rng=random.Random(seed))
    return {
        "clusters": [(faith, sorted(group)) for faith, group in religion_clusters(state)],
        "spread": {
            "count": spread.count(),
            "first": [f"{p.token} in {p.area}" for p in itertools.islice(spread, 4)],
        },
        "influence": {"player": "france", "amount": 3, "areas": areas, "count": influence.count()},
        "event": event.id.text,
        "log": log.lines(),
    }


def _coin_demo() -> list[dict[str, Any]]:
    """For each COIN game, the sample card with the most legal executions in a set-up."""
    from legalis.model.coin.deck import bundled_deck
    from legalis.model.coin.scenarios import load_scenario
    from legalis.solver.events import EventMove, legal_event_moves

    shown = []
    for game, title, scenario in (
        ("lod", "Liberty or Death", "1776"),
        ("fitl", "Fire in the Lake", "short"),
    ):
        state = load_scenario(game, scenario)
        best: Any = None
        for event in bundled_deck(game).event_cards():
            for side in ("unshaded", "shaded"):
                if getattr(event, side) is None:
                    continue
                view = legal_event_moves(state, event, side, event.factions[0])
                if best is None or view.count() > best.count():
                    best = view
        first = [best.nth(i) for i in range(min(3, best.count()))]
        wrong = EventMove(best.card.number, best.side_name, best.faction, ())
        verdict = best.explain(wrong)
        shown.append(
            {
                "game": game,
                "game_title": title,
                "scenario": scenario,
                "card": best.card.number,
                "title": best.card.title,
                "side": best.side_name,
                "faction": best.faction,
                "text": best.side.text,
                "count": best.count(),
                "first": [_event_describe(move) for move in first],
                "refused": {
                    "move": wrong.to_json(),
                    "reason": verdict.reason,
                    "rule": verdict.rule,
                },
            }
        )
    return shown


def _refused_lay(game: Any, state: Any) -> tuple[Any, Any] | None:
    """A lay of a card in hand that the rules refuse here, with the refusal."""
    from legalis.model.sevenyears.moves import Lay

    player = game.players.index(state.to_move)
    view = state.legal_moves()
    for card in sorted(set(state.hands[player])):
        for area in range(len(game.data.areas)):
            refusal = view.refusal(Lay(player, card, area))
            if refusal is not None:
                return Lay(player, card, area), refusal
    return None


# ---------------------------------------------------------------------- serving clients


@app.command("serve")
def serve_command(
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
    as_json: Annotated[
        bool, typer.Option("--json", help="First print the address served as a JSON line.")
    ] = False,
) -> None:
    """Serve the JSON API (legal moves, checks, applies, deck verification) over HTTP.

    Bounds left out keep the server's defaults (``legalis.server.Limits``).
    """
    from legalis.server import Limits, check_serving, serve

    check_serving(host, port, workers)  # a bad address or worker count: exit 2, nothing served
    if as_json:
        sys.stdout.write(json.dumps({"serving": f"http://{host}:{port}"}) + "\n")
        sys.stdout.flush()
    given: dict[str, Any] = {
        "max_body_bytes": max_body,
        "max_page": max_page,
        "time_limit": time_limit,
        "threads": threads,
        "processes": processes,
    }
    limits = Limits(**{name: value for name, value in given.items() if value is not None})
    serve(host, port, limits, workers)


@app.command("fixtures")
def fixtures_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name.")] = None,
    game_option: GameOpt = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the fixture files.")] = Path(
        "fixtures"
    ),
    per_rule: Annotated[int, typer.Option("--per-rule", help="Fixtures per rule.", min=1)] = 2,
    seed: SeedOpt = 0,
    as_json: JsonFlag = False,
) -> None:
    """Write edge-case states with their expected legal moves, for testing an engine
    (Liberty or Death and Fire in the Lake)."""
    from legalis.verify.fixtures import FIXTURE_GAMES, generate_fixtures

    name = _game_name(game_name, game_option, FIXTURE_GAMES, "fixtures")
    _check_writable_folder(out_dir, "--out")
    with _progress(1, "generating fixtures", not as_json) as advance:
        body = generate_fixtures(name, out_dir, per_rule=per_rule, seed=seed).to_json()
        advance(1)
    if as_json:
        _emit_json(body)
        return
    written = len(body["fixtures"]) + len(body["sequence"])
    out.print(f"wrote {_plural(written, 'fixture')} and manifest.json to {out_dir}")
    if body["sequence"]:
        out.print(f"of which {_plural(len(body['sequence']), 'Sequence of Play fixture')}")
    missing = body.get("coverage", {}).get("rules", {}).get("not_exercised", [])
    if missing:
        out.print(f"rules no fixture exercises: {', '.join(missing)}")


@app.command("deck")
def deck_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name (eupop).")] = None,
    game_option: GameOpt = None,
    scenario_name: Annotated[
        str, typer.Option("--scenario", help="A bundled scenario name or a scenario TOML file.")
    ] = "three_crowns",
    seed: SeedOpt = 0,
    age: Annotated[int | None, typer.Option("--age", help="Prepare this Age only.")] = None,
    randomize_x: Annotated[
        bool, typer.Option("--randomize-x", help="Optional Rule 6: deal the X-events.")
    ] = False,
    players: Annotated[
        int | None, typer.Option("--players", help="Number of players (1-6).", min=1, max=6)
    ] = None,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """Prepare an EU:PoP scenario's Event Deck per Age (16) and lay out the first
    display (16.2); report the deck's problems (16.1) and exit 1 if there are any."""
    from legalis.model.eupop.deck import DeckOptions, deck_document, load_scenario
    from legalis.model.eupop.events import load_catalogue

    _game_name(game_name, game_option, (EUPOP,), "event deck")
    flag = {"randomize_x": True} if randomize_x else {}  # short for --option randomize_x=true
    options = DeckOptions.from_json({**_option_values(option), **flag}, path="--option")
    catalogue, scenario = load_catalogue(), load_scenario(scenario_name)
    if age is not None and age not in scenario.ages:
        raise InputError(f"Age {age} is not in the scenario", path="--age", allowed=scenario.ages)
    body, problems = deck_document(scenario, catalogue, seed, ages=None if age is None else [age],
                                   options=options, players=players)  # fmt: skip
    if as_json:
        _emit_json(body)
    else:
        for entry in body.get("ages", []):
            out.print(f"Age {entry['age']} (top first): {' '.join(entry['deck'])}")
        if "display" in body:
            shown = [s["event"] + ("" if s["face_up"] else " (face down)") for s in body["display"]]
            out.print(f"display: {', '.join(shown)}")
        for problem in problems:
            out.print(f"problem: {problem}", markup=False)
    _finish(EXIT_FINDINGS if problems else EXIT_OK)


@app.command("draw")
def draw_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name (eupop).")] = None,
    game_option: GameOpt = None,
    state_path: Annotated[
        Path | None, typer.Option("--state", help="State JSON file (default: the sample).")
    ] = None,
    out_path: Annotated[Path, typer.Option("--out", help="The SVG file to write.")] = Path(
        "map.svg"
    ),
    spread: Annotated[
        str, typer.Option("--spread", help="religion or revolution (16.5).")
    ] = "religion",
    as_json: JsonFlag = False,
) -> None:
    """Draw an EU:PoP map as SVG: faiths, borders, sea links, clusters, and the
    Areas the next 16.5 spread placement may reach."""
    from legalis.eupop_draw import draw_spread

    _game_name(game_name, game_option, (EUPOP,), "drawing")
    if spread not in ("religion", "revolution"):
        raise InputError(
            f"unknown spread {spread!r}", path="--spread", allowed=["religion", "revolution"]
        )
    _check_writable(out_path, "--out")
    drawing, summary = draw_spread(_eupop_state(state_path), spread)
    _write_file(out_path, drawing, "--out")
    if as_json:
        _emit_json(summary)
        return
    out.print(f"wrote {out_path}: {len(summary['clusters'])} clusters, "
              f"reachable: {', '.join(summary['reachable']) or 'none'}")  # fmt: skip


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _eupop_state(state_path: Path | None) -> Any:
    """The state file, or with none the bundled sample state."""
    from legalis.model.eupop.state import bundled_state, state_from_json

    if state_path is None:
        return bundled_state()
    return state_from_json(_read_json(state_path), source=str(state_path))


def _eupop_moves(
    state_path: Path | None, effect: str | None, player: str | None, amount: int | None,
    areas: str, targets: str, provinces: str, places: str, vassal: bool, ships: bool,
    colour: str | None, option: list[str] | None, check: str | None, count: bool, limit: int,
    as_json: bool,
) -> None:  # fmt: skip
    from legalis.model.eupop.play import PlayOptions, jsonable
    from legalis.solver.eupop_play import EFFECTS, effect_view, move_from_json, verdict_of

    options = PlayOptions.from_json(_option_values(option), path="--option")
    state = _eupop_state(state_path)
    if effect is None:
        raise InputError("name the effect", path="--effect", allowed=EFFECTS)
    view, kind = effect_view(
        state, effect, player, amount=amount, areas=_names(areas), targets=_names(targets),
        provinces=_names(provinces), places=_names(places), vassal=vassal, ships=ships,
        colour=colour, options=options,
    )  # fmt: skip

    def parse(text: str) -> Any:
        move = move_from_json(parse_json(text, path="--check"), kind)
        verdict_of(view, move)  # a move of another effect's shape: an InputError here
        return move

    header = f"{effect}" + (f" ({player})" if player else "")
    _show_moves(view, header, check, count, limit, as_json,
                lambda move: json.dumps(jsonable(move)), parse, jsonable,
                {"effect": effect, "player": player})  # fmt: skip


@app.command("resolve")
def resolve_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name (eupop).")] = None,
    game_option: GameOpt = None,
    state_path: Annotated[Path | None, typer.Option("--state", help="State JSON file.")] = None,
    event_id: Annotated[
        str | None, typer.Option("--event", help="The Event id, e.g. 354B.")
    ] = None,
    auto: Annotated[
        bool, typer.Option("--auto", help="Resolve it all by the defaults and 16.5 auto rules.")
    ] = False,
    choose: Annotated[
        list[int] | None,
        typer.Option("--choose", help="The N-th choice (from 1) at each step; repeatable."),
    ] = None,
    seed: SeedOpt = 0,
    catalogue_path: Annotated[
        Path | None, typer.Option("--catalogue", help="An event catalogue TOML file.")
    ] = None,
    out_path: Annotated[
        Path | None, typer.Option("--out", help="Write the final state here.")
    ] = None,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """Resolve an EU:PoP Event (16.3, 16.5): with --auto all of it; otherwise up to the
    first decision not answered by --choose, listing its legal choices."""
    from legalis.model.errors import IllegalMoveError
    from legalis.model.eupop.events import load_catalogue
    from legalis.model.eupop.play import PlayOptions
    from legalis.solver.eupop_play import resolve

    _game_name(game_name, game_option, (EUPOP,), "event resolution")
    options = PlayOptions.from_json(_option_values(option), path="--option")
    if out_path is not None:
        _check_writable(out_path, "--out")
    state = _eupop_state(state_path)
    catalogue = load_catalogue(catalogue_path)
    if event_id is None:
        raise InputError("name the Event to resolve: --event ID, an id of the catalogue "
                         "(`legalis deck --game eupop` deals them)", path="--event",
                         allowed=sorted(catalogue.events))  # fmt: skip
    event = catalogue.event(event_id, path="--event")
    try:
        outcome = resolve(state, event.effects, event.symbols, auto=auto, choices=choose or [],
                          seed=seed, options=options)  # fmt: skip
    except IllegalMoveError as refused:
        if as_json:
            _emit_json({"event": event_id, "refused": refused.reason, "rule": refused.rule})
        else:
            out.print(f"refused: {refused.reason} [{refused.rule}]", markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    final = outcome.state
    body: dict[str, Any] = {"event": event_id, "seed": seed,
                            **outcome.to_json(with_state=out_path is None)}  # fmt: skip
    if final is not None and out_path is not None:
        _write_file(out_path, json.dumps(final.to_json(), indent=2) + "\n", "--out")
        body["wrote"] = str(out_path)
    if as_json:
        _emit_json(body)
        return
    _eupop_print_resolution(event_id, state, outcome, out_path)


def _eupop_print_resolution(
    event_id: str, before: Any, outcome: Any, out_path: Path | None
) -> None:
    """The steps of a resolution for people, then the pending decision or a summary of
    what changed; the full state only goes to ``--out`` (or ``--json``)."""
    from legalis.model.eupop.play import jsonable, state_changes
    from legalis.model.eupop.resolution import readable

    for number, line in enumerate(outcome.log.lines(), start=1):
        out.print(f"{number:>3}. {line}", markup=False)
    pending = outcome.pending
    if pending is not None:
        count = pending.view.count()
        head = f"pending: {pending.player} decides [{pending.rule}]; {count} legal choices"
        out.print(f"{head} (pick with --choose N):", markup=False)
        for index, move in zip(range(1, 101), pending.view, strict=False):
            out.print(f"  {index:>4}. {readable(jsonable(move))}", markup=False)
        return
    changes = state_changes(before, outcome.state)
    steps = len(outcome.log.decisions)
    out.print(f"resolved {event_id}: {_plural(steps, 'step')}, "
              f"{_plural(len(changes), 'change')} to the state", markup=False)  # fmt: skip
    for change in changes:
        out.print(f"  {change}", markup=False)
    if out_path is not None:
        err.print(f"wrote {out_path}")
    else:
        out.print("the final state: --out FILE to write it, --json to print it", markup=False)


@app.command("bot")
def bot_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name (lod).")] = None,
    game_option: GameOpt = None,
    state_path: CoinStateOpt = None,
    scenario: ScenarioOpt = None,
    card: CardOpt = None,
    faction: FactionOpt = None,
    deck: DeckOpt = None,
    seed: SeedOpt = 0,
    players: Annotated[
        str, typer.Option("--players", help="Factions a person plays, a,b (8.3.5).")
    ] = "",
    explain: Annotated[
        bool, typer.Option("--explain", help="Print every decision with its paragraph.")
    ] = False,
    apply_path: Annotated[
        Path | None, typer.Option("--apply", help="Write the state after the move here.")
    ] = None,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """A Liberty or Death Non-player's turn on a card (8.1, 8.3-8.7): the Event (which
    side, every choice in it), or the Command and Special Activity its flowchart
    picks and carries out, or a Pass. Every move is checked by the legal-move rules;
    ``--apply`` writes the state after the turn."""
    from legalis.solver.nonplayer.turn import nonplayer_turn

    name = _game_name(game_name, game_option, ("lod",), "Non-player rules")
    options = _nonplayer_options(option)
    if apply_path is not None:
        _check_writable(apply_path, "--apply")
    state = _coin_state(name, state_path, scenario)
    chosen_deck = _coin_deck(name, deck)
    if card is None:
        raise InputError(
            "name the card", path="--card", allowed=[c.number for c in chosen_deck.cards]
        )
    if faction is None:
        raise InputError("name the Non-player Faction", path="--faction",
                         allowed=state.rules.data.faction_ids())  # fmt: skip
    # Faction names or ids, as ids: the Non-player rules compare ids
    humans = [state.rules.data.faction(name, path="--players").id for name in _names(players)]
    who = state.rules.data.faction(faction, path="--faction").id
    if who in humans:
        raise InputError(
            f"{who} is played by a person, not a Non-player",
            path="--faction",
            allowed=[f for f in state.rules.data.faction_ids() if f not in humans],
        )
    chosen = _for_option(lambda: chosen_deck.card(card), "--card")
    if chosen.kind == "winter_quarters":  # 2.3.7: it starts a Winter Quarters Round (6.0)
        raise InputError(f"card {card} is a Winter Quarters card: no Faction takes a turn on it",
                         path="--card", allowed=[c.number for c in chosen_deck.cards
                                                 if c.kind != "winter_quarters"])  # fmt: skip
    decided = nonplayer_turn(state, chosen, who, LoggedRandom(seed),
                             players=humans, options=options)  # fmt: skip
    body: dict[str, Any] = {"faction": who, "card": card, "seed": seed, **decided.to_json()}
    if apply_path is not None:
        _write_file(apply_path, json.dumps(decided.state.to_json(), indent=2) + "\n", "--apply")
        body["wrote"] = str(apply_path)
    if as_json:
        _emit_json(body)
        return
    _print_turn(who, decided)
    if explain:
        for number, line in enumerate(decided.trace.lines(), start=1):
            out.print(f"{number:>3}. {line}", markup=False)
    if apply_path is not None:
        err.print(f"wrote {apply_path}")


@app.command("winter")
def winter_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name (lod).")] = None,
    game_option: GameOpt = None,
    state_path: CoinStateOpt = None,
    scenario: ScenarioOpt = None,
    year: Annotated[
        int | None, typer.Option("--year", help="The campaign just ended (6.5.3 releases).")
    ] = None,
    releases_of: Annotated[
        str | None,
        typer.Option("--releases-of", help="Scenario whose British releases apply (with --state)."),
    ] = None,
    leader_change: Annotated[
        str | None,
        typer.Option("--leader-change", help="First Faction of the card on deck (6.5.1)."),
    ] = None,
    round_number: Annotated[
        int, typer.Option("--round", help="Which Winter Quarters Round this is, from 1 (8.8).")
    ] = 1,
    final: Annotated[
        bool, typer.Option("--final", help="The last Round: the game ends after 6.4 (6.4.3).")
    ] = False,
    seed: SeedOpt = 0,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print every Non-player decision with its paragraph.")
    ] = False,
    apply_path: Annotated[
        Path | None, typer.Option("--apply", help="Write the state after the Round here.")
    ] = None,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """A whole Liberty or Death Winter Quarters Round (6.1-6.7), every Faction's
    choices made by its Non-player paragraphs (8.4.5-8.4.10, 8.5.5-8.5.9,
    8.6.7-8.6.10, 8.7.5-8.7.7): the log names each rule, ``--apply`` writes the
    state after it, and the outcome says whether the game goes on."""
    from legalis.model.coin.scenarios import scenario_info, scenario_names
    from legalis.solver.nonplayer.winter_round import winter_quarters_round

    name = _game_name(game_name, game_option, ("lod",), "Winter Quarters")
    options = _nonplayer_options(option)
    if apply_path is not None:
        _check_writable(apply_path, "--apply")
    state = _coin_state(name, state_path, scenario)
    if scenario is not None and releases_of not in (None, scenario):
        raise InputError(f"a --scenario {scenario} state follows its own releases",
                         path="--releases-of", allowed=[scenario])  # fmt: skip
    schedule = scenario if scenario is not None else releases_of
    if schedule is not None and schedule not in scenario_names(name):
        raise InputError(f"no scenario {clip(schedule)!r}", path="--releases-of",
                         allowed=scenario_names(name))  # fmt: skip
    info = scenario_info(name, schedule) if schedule is not None else None
    # The campaigns of the scenario (with a state file alone: of any scenario); a
    # Winter Quarters Round ends each one.
    campaigns_of = [list(scenario_info(name, known).details.get("campaigns", ()))
                    for known in ([schedule] if schedule else scenario_names(name))]  # fmt: skip
    years = sorted({int(campaign) for campaigns in campaigns_of for campaign in campaigns})
    rounds = max(map(len, campaigns_of))
    if year is None:
        if schedule is None:
            raise InputError("name the campaign just ended (or --releases-of a scenario)",
                             path="--year", allowed=years)  # fmt: skip
        year = years[0]
    if year not in years:
        raise InputError(f"no campaign {year} in {schedule or 'any scenario'}", path="--year",
                         allowed=years)  # fmt: skip
    if not 1 <= round_number <= rounds:
        raise InputError(f"no Round {round_number}: a Winter Quarters Round ends each of the "
                         f"{_plural(rounds, 'campaign')}", path="--round",
                         allowed=range(1, rounds + 1))  # fmt: skip
    first = None
    if leader_change is not None:
        first = state.rules.data.faction(leader_change, path="--leader-change").id
    done = winter_quarters_round(
        state, LoggedRandom(seed), year=year, releases=info.releases if info else (),
        leader_change_faction=first, round_number=round_number, final=final, options=options,
    )  # fmt: skip
    body: dict[str, Any] = {
        "year": year,
        "seed": seed,
        "outcome": done.outcome,
        "winners": done.winners,
        "log": done.log,
        "trace": done.trace.to_json(),
    }
    if apply_path is not None:
        _write_file(apply_path, json.dumps(done.state.to_json(), indent=2) + "\n", "--apply")
        body["wrote"] = str(apply_path)
    if as_json:
        _emit_json(body)
        return
    for line in done.log:
        out.print(line, markup=False)
    ending = f": {', '.join(done.winners)}" if done.winners else ""
    out.print(f"outcome: {done.outcome}{ending}", markup=False)
    if explain:
        for number, line in enumerate(done.trace.lines(), start=1):
            out.print(f"{number:>3}. {line}", markup=False)
    if apply_path is not None:
        err.print(f"wrote {apply_path}")


def _print_turn(faction: str, decided: Any) -> None:
    event = decided.event
    if decided.choice == "event":
        out.print(f"{faction} plays the {event.side} Event [{event.rule}]", markup=False)
        out.print(f"move: {json.dumps(event.move.to_json())}", markup=False)
        return
    out.print(f"{faction} does not play the Event [{event.rule}]: {event.reason}", markup=False)
    if decided.choice == "pass":
        out.print(f"{faction} passes: {decided.turn.passed}", markup=False)
        return
    for number, step in enumerate(decided.turn.steps, start=1):
        out.print(f"{number}. {json.dumps(step.to_json())}", markup=False)


# ---------------------------------------------------------------------- entry point


def _internal_error() -> int:
    with tempfile.NamedTemporaryFile(
        "w", prefix="legalis-error-", suffix=".log", delete=False
    ) as handle:
        traceback.print_exc(file=handle)
    error = clip(repr(sys.exc_info()[1]), 300)
    err.print(f"internal error: {error}; traceback written to {handle.name}", markup=False)
    return EXIT_INTERNAL


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: one clear line per error, never a traceback on the terminal.

    Usage errors are Typer's own (exit 2); commands end with ``typer.Exit``. Ctrl-C
    ends a command with exit 130 (Typer turns it into that code) and one line.
    """
    code = EXIT_OK
    try:
        app(args=argv, prog_name="legalis")
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else EXIT_INPUT
    except LegalisError as error:
        err.print(f"error: {clip(str(error), 2000)}", markup=False)
        code = EXIT_INPUT
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    except Exception:
        code = _internal_error()
    if code == EXIT_INTERRUPTED:
        err.print("interrupted")
    sys.exit(code)
