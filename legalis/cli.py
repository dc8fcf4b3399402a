"""The ``legalis`` command line.

Exit codes: 0 ok, 1 verification findings (or a refused move, or a replay that
differs from its log), 2 bad input or usage, 3 internal error (the traceback is
written to a log file whose path is printed).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Column, Table

from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError, LegalisError
from legalis.players import HumanPlayer
from legalis.registry import game_entry, games, load_game
from legalis.solver.gamelog import log_lines, parse_log, replay
from legalis.solver.players import AUTOMATIC_PLAYERS, Player, automatic_player
from legalis.solver.playout import CHANCE, GameRecord, play_game

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
PLAYER_KINDS = (*AUTOMATIC_PLAYERS, "human")

app = typer.Typer(
    name="legalis",
    help="Rules verifier and legal-move generator for card-driven historical board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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


def _finish(code: int) -> None:
    if code != EXIT_OK:
        raise typer.Exit(code)


def _emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2) + "\n")


def _game(name: str, option_pairs: list[str] | None) -> Any:
    entry = game_entry(name)
    options: dict[str, Any] = {}
    for pair in option_pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InputError(f"expected name=value, got {pair!r}", path="--option")
        options[key.strip()] = {"true": True, "false": False}.get(
            value.strip().lower(), value.strip()
        )
    return entry.make(options)


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source=str(path)) from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON: {error.msg} at line {error.lineno}", source=str(path)
        ) from error


def _parse_move_text(game: Any, text: str) -> Any:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f'a move is JSON, e.g. {{"type": "pass", ...}}: {error.msg}', path="--move"
        ) from error
    return game.move_from_json(raw)


def _player(kind: str, game: Any) -> Player:
    if kind == "human":
        return HumanPlayer(game, sys.stdin, sys.stdout)
    if kind not in AUTOMATIC_PLAYERS:
        raise InputError(f"unknown player {kind!r}", path="player", allowed=PLAYER_KINDS)
    return automatic_player(kind, game)


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
) -> None:
    """Write a state at a decision point, reached by seeded random play."""
    game = _game(game_name, option)
    state = _state_at(game, seed, phase)
    _write_state(state, output)


def _write_state(state: Any, output: Path | None) -> None:
    """The state as JSON on stdout, or in ``output`` with a line saying where it stands."""
    text = json.dumps(state.to_json(), indent=2) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        where = (
            f"turn {state.turn}, {state.phase}, {state.to_move} to move"
            if hasattr(state, "phase")
            else f"{state.game} state"
        )
        err.print(f"wrote {output}: {where}")


def _load_state(
    game_name: str, state_path: Path | None, seed: int, option: list[str] | None
) -> tuple[Any, Any]:
    if state_path is None:
        game = _game(game_name, option)
        return game, _state_at(game, seed, None)
    raw = _read_json(state_path)
    options = raw.get("options") if isinstance(raw, dict) else None
    if option:
        raise InputError(
            "--option applies to new states; a state file carries its options", path="--option"
        )
    game = load_game(game_name, options if isinstance(options, dict) else None)
    return game, game.state_from_json(raw, source=str(state_path))


StateOpt = Annotated[
    Path | None,
    typer.Option("--state", help="State JSON file (default: a seeded state's first decision)."),
]


COIN_GAMES = ("lod", "fitl")
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
    str | None, typer.Option("--scenario", help="COIN: start from a bundled scenario set-up.")
]


def _game_name(positional: str | None, option: str | None) -> str:
    if positional and option and positional != option:
        raise InputError(f"two games named: {positional!r} and {option!r}", path="--game")
    name = option or positional
    if not name:
        raise InputError("name a game", path="--game", allowed=[*games(), *COIN_GAMES])
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

    For Liberty or Death and Fire in the Lake: every legal way to execute an event
    (--card, --side, --faction) in a state (--state or --scenario). For EU:PoP: the
    legal choices of one effect (--effect, --player and its arguments).
    """
    name = _game_name(game_name, game_option)
    if name == "eupop":
        _eupop_moves(state_path, effect, player, amount, areas, targets, provinces, places,
                     vassal, ships, colour, check, count, limit, as_json)  # fmt: skip
        return
    if name in COIN_GAMES:
        view = _event_view(name, state_path, scenario, card, side, faction, deck)
        _show_moves(view, view.faction, check, count, limit, as_json, _event_describe, _event_move)
        return
    game, state = _load_state(name, state_path, seed, option)
    header = f"{state.to_move} (turn {state.turn}, {state.phase} phase)"
    _show_moves(
        state.legal_moves(),
        header,
        check,
        count,
        limit,
        as_json,
        game.describe_move,
        lambda text: _parse_move_text(game, text),
        game.move_to_json,
        {"to_move": state.to_move},
    )


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
    listed = [] if count else [move for _, move in zip(range(limit), view, strict=False)]
    if as_json:
        _emit_json(
            {
                **(extra or {}),
                "count": total,
                "moves": [to_json(move) for move in listed],
                "truncated": not count and total > limit,
            }
        )
        return
    out.print(f"{total} legal moves for {header}")
    for index, move in enumerate(listed):
        out.print(f"  {index:>4}. {describe(move)}", markup=False)
    if not count and total > limit:
        out.print(f"  ... {total - limit} more (raise --limit)")


def _coin_state(game: str, state_path: Path | None, scenario: str | None) -> Any:
    from legalis.model.coin.scenarios import load_scenario, scenario_names
    from legalis.model.coin.state import state_from_json

    if (state_path is None) == (scenario is None):
        raise InputError(
            "give a state file (--state) or a scenario (--scenario)",
            path="--state",
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
) -> Any:
    from legalis.model.coin.deck import bundled_deck, read_deck
    from legalis.solver.events import legal_event_moves

    state = _coin_state(game, state_path, scenario)
    deck = read_deck(str(deck_path)) if deck_path is not None else bundled_deck(game)
    if deck.game != game:
        raise InputError(f"a {deck.game} deck, not {game}", path="--deck")
    if card_number is None:
        raise InputError(
            "name the event card", path="--card", allowed=[c.number for c in deck.cards]
        )
    card = deck.card(card_number)
    if side is None:
        printed = [name for name in ("unshaded", "shaded") if getattr(card, name) is not None]
        if len(printed) != 1:
            raise InputError("a dual-use card: pick a side (5.2)", path="--side", allowed=printed)
        side = printed[0]
    if faction is None:
        raise InputError("name the executing Faction", path="--faction", allowed=card.factions)
    return legal_event_moves(state, card, side, faction)


def _event_describe(move: Any) -> str:
    parts = []
    for step in move.steps:
        if isinstance(step, int):
            parts.append(f"option {step + 1}")
        else:
            parts.append(", ".join(f"{n} {piece} {space}" for space, piece, n in step) or "nothing")
    return "; ".join(parts) or "(no choice to make)"


def _event_move(text: str) -> Any:
    from legalis.solver.events import event_move_from_json

    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"a move is JSON: {error.msg}", path="--move") from error
    return event_move_from_json(raw)


@app.command("apply")
def apply_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name; see 'legalis games'.")] = None,
    game_option: GameOpt = None,
    state_path: Annotated[Path | None, typer.Option("--state", help="State JSON file.")] = None,
    move_text: Annotated[str, typer.Option("--move", help="The move as JSON.")] = "",
    output: Annotated[Path | None, typer.Option("--out", help="Write the new state here.")] = None,
    card: CardOpt = None,
    side: SideOpt = None,
    faction: FactionOpt = None,
    deck: DeckOpt = None,
    scenario: ScenarioOpt = None,
) -> None:
    """Apply one move to a state and write the next state (illegal moves exit 2 with the rule)."""
    name = _game_name(game_name, game_option)
    if not move_text:
        raise InputError("give the move as JSON", path="--move")
    if name in COIN_GAMES:
        view = _event_view(name, state_path, scenario, card, side, faction, deck)
        _write_state(view.apply(_event_move(move_text)), output)
        return
    if state_path is None:
        raise InputError("give a state file", path="--state")
    game, state = _load_state(name, state_path, 0, None)
    state.play(_parse_move_text(game, move_text))
    _write_state(state, output)


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


def _result_text(result: dict[str, Any] | None) -> str:
    if result is None:
        return "unfinished"
    if result["winner"] is None:
        return "a draw (campaigns and medals tied)"
    how = {
        "europe": "by winning the European Campaign",
        "colonies": "on colonial campaigns won",
        "medals": "on medals",
    }[result["condition"]]
    return f"{result['winner']} wins {how}"


@app.command("play")
def play_command(
    game_name: GameArg,
    british: Annotated[str, typer.Option(help=f"Player: {', '.join(PLAYER_KINDS)}.")] = "human",
    french: Annotated[str, typer.Option(help=f"Player: {', '.join(PLAYER_KINDS)}.")] = "greedy",
    seed: SeedOpt = 1,
    log: Annotated[Path | None, typer.Option("--log", help="Write the game as JSON lines.")] = None,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """Play one game and show it; the same seed and players replay the same game."""
    game = _game(game_name, option)
    sides = dict(zip(game.players, (british, french), strict=True))
    players = {side: _player(kind, game) for side, kind in sides.items()}
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
        log.write_text("".join(log_lines(game, record)), encoding="utf-8")
    if as_json:
        _emit_json(_record_json(game, record, with_moves=True))
        return
    out.rule("Result")
    for line in game.render(record.final_state):
        out.print(line)
    out.print(
        f"{_result_text(record.result)}: {record.decisions} decisions, {len(record.moves)} moves"
    )
    if log is not None:
        out.print(f"log written to {log}")


@app.command("simulate")
def simulate_command(
    game_name: GameArg,
    games_count: Annotated[
        int, typer.Option("--games", help="How many games to play.", min=1)
    ] = 1000,
    british: Annotated[
        str, typer.Option(help=f"Player: {', '.join(AUTOMATIC_PLAYERS)}.")
    ] = "random",
    french: Annotated[
        str, typer.Option(help=f"Player: {', '.join(AUTOMATIC_PLAYERS)}.")
    ] = "random",
    seed: SeedOpt = 1,
    option: OptionList = None,
    as_json: JsonFlag = False,
) -> None:
    """Play many games; report wins by side and by victory condition, lengths and decisions."""
    game = _game(game_name, option)
    kinds = dict(zip(game.players, (british, french), strict=True))
    for side, kind in kinds.items():
        if kind not in AUTOMATIC_PLAYERS:
            raise InputError(
                f"unknown automatic player {kind!r}", path=f"--{side}", allowed=AUTOMATIC_PLAYERS
            )
    players = {side: automatic_player(kind, game) for side, kind in kinds.items()}
    stats = simulate(game, players, games_count, seed, show_progress=not as_json)
    stats["players"] = kinds
    if as_json:
        _emit_json(stats)
        return
    out.print(
        f"{games_count} games of {game.title}, british {british} vs french {french}, seeds {seed}.."
        f"{seed + games_count - 1}"
    )
    table = Table("winner", "games", "share", *stats["conditions"])
    for side, count in stats["wins"].items():
        share = f"{100 * count / games_count:.1f}%"
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
    """Play ``count`` games with seeds ``seed..seed+count-1`` and gather the figures."""
    wins: Counter[str] = Counter()
    by_condition: dict[str, Counter[str]] = {}
    turns = decisions = 0
    started = time.perf_counter()
    with _progress(count, "simulating", show_progress) as advance:
        for index in range(count):
            record = play_game(game, players, seed + index, record=False)
            result = record.result or {"winner": None, "condition": "draw"}
            side = result["winner"] or "draw"
            wins[side] += 1
            by_condition.setdefault(side, Counter())[result["condition"]] += 1
            turns += record.turns
            decisions += record.decisions
            if index % 50 == 49:
                advance(50)
        advance(count % 50)
    elapsed = time.perf_counter() - started
    conditions = sorted({c for counter in by_condition.values() for c in counter})
    ordered = {side: wins.get(side, 0) for side in (*game.players, "draw")}
    return {
        "game": game.name,
        "games": count,
        "seed": seed,
        "options": game.options.to_json(),
        "wins": ordered,
        "conditions": conditions,
        "by_condition": {side: dict(counter) for side, counter in by_condition.items()},
        "mean_turns": turns / count,
        "mean_decisions": decisions / count,
        "seconds": elapsed,
        "games_per_second": count / elapsed if elapsed else float("inf"),
    }


@app.command("replay")
def replay_command(
    log_path: Annotated[Path, typer.Argument(help="A log written by 'legalis play --log'.")],
    as_json: JsonFlag = False,
) -> None:
    """Re-apply every move of a logged game, checking each; exit 1 if the result differs."""
    try:
        with log_path.open(encoding="utf-8") as handle:
            parsed = parse_log(handle, source=str(log_path))
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source=str(log_path)) from error
    header = parsed.header
    game = load_game(str(header.get("game")), header.get("options"))
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
        out.print(f"replayed {outcome.moves} moves of {game.title} (seed {header.get('seed')})")
        out.print(_result_text(outcome.result))
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
}


@app.command("verify")
def verify_command(
    target: Annotated[
        str | None, typer.Argument(help="'sevenyears', or a COIN deck TOML (with --game).")
    ] = None,
    game_option: GameOpt = None,
    cards: Annotated[
        Path | None,
        typer.Option("--cards", help="A card list TOML to check instead of the bundled one."),
    ] = None,
    rules: Annotated[
        Path | None, typer.Option("--rules", help="A rule-numbers TOML instead of the bundled one.")
    ] = None,
    option: OptionList = None,
    output_format: FormatOpt = "text",
    as_json: JsonFlag = False,
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
    if name in COIN_GAMES:
        _verify_coin(name, deck_path, output_format)
        return
    if deck_path is not None or name is None:
        raise InputError("name the game of the deck", path="--game", allowed=COIN_GAMES)
    if name == "eupop":
        from legalis.verify.eupop import prove_eupop  # z3 loads slowly: only when verifying

        eupop_report = prove_eupop()
        if output_format == "json":
            _emit_json(eupop_report.to_json())
        elif output_format == "sarif":
            from legalis.verify.sarif import to_sarif

            meanings = {code: text for code, (_, _, text) in GENERAL_CODES.items()}
            _emit_json(to_sarif(eupop_report.findings, meanings))
        else:
            _print_report(eupop_report)
        _finish(EXIT_OK if eupop_report.ok else EXIT_FINDINGS)
        return
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


def _verify_coin(game: str, deck_path: Path | None, output_format: str) -> None:
    from legalis.model.coin.deck import read_deck
    from legalis.verify.coin import verify_coin
    from legalis.verify.coin_findings import CODES
    from legalis.verify.sarif import to_sarif

    deck = read_deck(str(deck_path)) if deck_path is not None else None
    cards = len(deck.cards) if deck is not None else 0
    with _progress(cards, "checking cards", output_format == "text") as advance:
        report = verify_coin(game, deck, on_card=lambda _: advance(1))
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
            "severity", "code", "side", "finding", "rule", title=f"card {card}" if card else "deck"
        )
        for finding in found:
            table.add_row(
                finding.severity, finding.code, finding.side or "", finding.message, finding.rule
            )
        out.print(table)
    errors = sum(1 for f in report.findings if f.severity == "error")
    out.print(f"{len(report.findings)} findings, {errors} errors")


@app.command("explain")
def explain_command(
    code: Annotated[str, typer.Argument(help="A finding code, e.g. lod.french-before-toa.")],
    as_json: JsonFlag = False,
) -> None:
    """What a finding code means and the rule behind it."""
    from legalis.verify.coin_findings import CODES

    known = {**CODES, **GENERAL_CODES}
    code_key = "data.<check>" if code.startswith("data.") and code not in known else code
    if code_key not in known:
        import difflib

        near = difflib.get_close_matches(code, list(known), n=3)
        raise InputError(
            f"unknown finding code {code!r}", path="code", allowed=near or sorted(known)
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


def _print_report(report: Any) -> None:
    body = report.to_json()
    findings = body.get("findings", [])
    if findings:
        table = Table("severity", "code", "where", "finding")
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
        f"{_result_text(record.result)} after {record.turns} turns, {record.decisions} decisions"
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
        for event in bundled_deck(game).cards:
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
        int | None, typer.Option(help="Threads per process for move work.", min=1)
    ] = None,
    solver_threads: Annotated[
        int | None, typer.Option(help="Threads per process for deck verification.", min=1)
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Server processes sharing the port (one per core).", min=1)
    ] = 1,
) -> None:
    """Serve the JSON API (legal moves, checks, applies, deck verification) over HTTP.

    Bounds left out keep the server's defaults (``legalis.server.Limits``).
    """
    from legalis.server import Limits, serve

    given: dict[str, Any] = {
        "max_body_bytes": max_body,
        "max_page": max_page,
        "time_limit": time_limit,
        "threads": threads,
        "solver_threads": solver_threads,
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

    name = _game_name(game_name, game_option)
    if name not in FIXTURE_GAMES:
        raise InputError(f"no fixtures for {name!r}", path="--game", allowed=FIXTURE_GAMES)
    with _progress(1, "generating fixtures", not as_json) as advance:
        body = generate_fixtures(name, out_dir, per_rule=per_rule, seed=seed).to_json()
        advance(1)
    if as_json:
        _emit_json(body)
        return
    out.print(f"wrote {len(body['fixtures'])} fixtures and manifest.json to {out_dir}")
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
    as_json: JsonFlag = False,
) -> None:
    """Prepare an EU:PoP scenario's Event Deck per Age (16) and lay out the first
    display (16.2); report the deck's problems (16.1) and exit 1 if there are any."""
    from legalis.model.eupop.deck import deck_document, load_scenario
    from legalis.model.eupop.events import load_catalogue

    name = _game_name(game_name, game_option)
    if name != "eupop":
        raise InputError(f"no event deck for {name!r}", path="--game", allowed=["eupop"])
    catalogue, scenario = load_catalogue(), load_scenario(scenario_name)
    if age is not None and age not in scenario.ages:
        raise InputError(f"Age {age} is not in the scenario", path="--age", allowed=scenario.ages)
    body, problems = deck_document(scenario, catalogue, seed, ages=None if age is None else [age],
                                   randomize_x=randomize_x, players=players)  # fmt: skip
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

    name = _game_name(game_name, game_option)
    if name != "eupop":
        raise InputError(f"no drawing for {name!r}", path="--game", allowed=["eupop"])
    if spread not in ("religion", "revolution"):
        raise InputError(
            f"unknown spread {spread!r}", path="--spread", allowed=["religion", "revolution"]
        )
    summary = draw_spread(_eupop_state(state_path), out_path, spread)
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
    colour: str | None, check: str | None, count: bool, limit: int, as_json: bool,
) -> None:  # fmt: skip
    from legalis.model.eupop.play import jsonable
    from legalis.solver.eupop_play import EFFECTS, effect_view, move_from_json

    state = _eupop_state(state_path)
    if effect is None:
        raise InputError("name the effect", path="--effect", allowed=EFFECTS)
    view, kind = effect_view(
        state, effect, player, amount=amount, areas=_names(areas), targets=_names(targets),
        provinces=_names(provinces), places=_names(places), vassal=vassal, ships=ships,
        colour=colour,
    )  # fmt: skip

    def parse(text: str) -> Any:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(f"a move is JSON: {error.msg}", path="--check") from error
        return move_from_json(raw, kind)

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
    as_json: JsonFlag = False,
) -> None:
    """Resolve an EU:PoP Event (16.3, 16.5): with --auto all of it; otherwise up to the
    first decision not answered by --choose, listing its legal choices."""
    from legalis.model.errors import IllegalMoveError
    from legalis.model.eupop.events import load_catalogue
    from legalis.model.eupop.play import jsonable
    from legalis.solver.eupop_play import resolve

    name = _game_name(game_name, game_option)
    if name != "eupop":
        raise InputError(f"no event resolution for {name!r}", path="--game", allowed=["eupop"])
    state = _eupop_state(state_path)
    event = load_catalogue(catalogue_path).event(event_id, path="--event")
    try:
        outcome = resolve(state, event.effects, event.symbols, auto=auto, choices=choose or [],
                          seed=seed)  # fmt: skip
    except IllegalMoveError as refused:
        if as_json:
            _emit_json({"event": event_id, "refused": refused.reason, "rule": refused.rule})
        else:
            out.print(f"refused: {refused.reason} [{refused.rule}]", markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    log, final, pending = outcome.log, outcome.state, outcome.pending
    body: dict[str, Any] = {"event": event_id, "seed": seed,
                            **outcome.to_json(with_state=out_path is None)}  # fmt: skip
    if final is not None and out_path is not None:
        out_path.write_text(json.dumps(final.to_json(), indent=2) + "\n", encoding="utf-8")
        body["wrote"] = str(out_path)
    if as_json:
        _emit_json(body)
        return
    for number, line in enumerate(log.lines(), start=1):
        out.print(f"{number:>3}. {line}", markup=False)
    if pending is not None:
        count = pending.view.count()
        head = f"pending: {pending.player} decides [{pending.rule}]; {count} legal choices"
        out.print(f"{head} (pick with --choose N):", markup=False)
        for index, move in zip(range(1, 101), pending.view, strict=False):
            out.print(f"  {index:>4}. {json.dumps(jsonable(move))}", markup=False)
    elif out_path is not None:
        err.print(f"wrote {out_path}")
    elif final is not None:
        sys.stdout.write(json.dumps(final.to_json(), indent=2) + "\n")


@app.command("bot")
def bot_command(
    game_name: Annotated[str | None, typer.Argument(help="Game name (lod).")] = None,
    game_option: GameOpt = None,
    state_path: StateOpt = None,
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
    as_json: JsonFlag = False,
) -> None:
    """A Liberty or Death Non-player's turn on a card (8.1, 8.3-8.7): the Event (which
    side, every choice in it), or the Command and Special Activity its flowchart
    picks and carries out, or a Pass. Every move is checked by the legal-move rules;
    ``--apply`` writes the state after the turn."""
    from legalis.model.coin.deck import bundled_deck, read_deck
    from legalis.solver.nonplayer.turn import nonplayer_turn

    name = _game_name(game_name, game_option)
    if name != "lod":
        raise InputError(f"no Non-player rules for {name!r}", path="--game", allowed=["lod"])
    state = _coin_state(name, state_path, scenario)
    chosen_deck = read_deck(str(deck)) if deck is not None else bundled_deck(name)
    if card is None:
        raise InputError(
            "name the card", path="--card", allowed=[c.number for c in chosen_deck.cards]
        )
    if faction is None:
        raise InputError("name the Non-player Faction", path="--faction",
                         allowed=state.rules.data.faction_ids())  # fmt: skip
    humans = [p.strip() for p in players.split(",") if p.strip()]
    for human in humans:
        state.rules.data.faction(human, path="--players")
    who = state.rules.data.faction(faction, path="--faction").id
    if who in humans:
        raise InputError(
            f"{who} is played by a person, not a Non-player",
            path="--faction",
            allowed=[f for f in state.rules.data.faction_ids() if f not in humans],
        )
    decided = nonplayer_turn(state, chosen_deck.card(card), who, LoggedRandom(seed),
                             players=humans)  # fmt: skip
    body: dict[str, Any] = {"faction": who, "card": card, "seed": seed, **decided.to_json()}
    if apply_path is not None:
        apply_path.write_text(json.dumps(decided.state.to_json(), indent=2) + "\n",
                              encoding="utf-8")  # fmt: skip
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
    state_path: StateOpt = None,
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
    round_number: Annotated[int, typer.Option("--round", help="Which Round this is (8.8).")] = 1,
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
    as_json: JsonFlag = False,
) -> None:
    """A whole Liberty or Death Winter Quarters Round (6.1-6.7), every Faction's
    choices made by its Non-player paragraphs (8.4.5-8.4.10, 8.5.5-8.5.9,
    8.6.7-8.6.10, 8.7.5-8.7.7): the log names each rule, ``--apply`` writes the
    state after it, and the outcome says whether the game goes on."""
    from legalis.model.coin.scenarios import scenario_info, scenario_names
    from legalis.solver.nonplayer.winter_round import winter_quarters_round

    name = _game_name(game_name, game_option)
    if name != "lod":
        raise InputError(f"no Winter Quarters for {name!r}", path="--game", allowed=["lod"])
    state = _coin_state(name, state_path, scenario)
    schedule = scenario if scenario is not None else releases_of
    if schedule is not None and schedule not in scenario_names(name):
        raise InputError(f"no scenario {schedule!r}", path="--releases-of",
                         allowed=scenario_names(name))  # fmt: skip
    info = scenario_info(name, schedule) if schedule is not None else None
    if year is None:
        campaigns = list(info.details.get("campaigns", ())) if info is not None else []
        if not campaigns:
            raise InputError("name the campaign just ended", path="--year")
        year = int(campaigns[0])
    first = None
    if leader_change is not None:
        first = state.rules.data.faction(leader_change, path="--leader-change").id
    done = winter_quarters_round(
        state, LoggedRandom(seed), year=year, releases=info.releases if info else (),
        leader_change_faction=first, round_number=round_number, final=final,
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
        apply_path.write_text(json.dumps(done.state.to_json(), indent=2) + "\n",
                              encoding="utf-8")  # fmt: skip
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
    err.print(f"internal error: {sys.exc_info()[1]!r}; traceback written to {handle.name}")
    return EXIT_INTERNAL


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: one clear line per error, never a traceback on the terminal.

    Usage errors are Typer's own (exit 2); commands end with ``typer.Exit``.
    """
    code = EXIT_OK
    try:
        app(args=argv, prog_name="legalis")
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else EXIT_INPUT
    except LegalisError as error:
        err.print(f"error: {error}", markup=False)
        code = EXIT_INPUT
    except KeyboardInterrupt:
        err.print("interrupted")
        code = EXIT_INPUT
    except Exception:
        code = _internal_error()
    sys.exit(code)
