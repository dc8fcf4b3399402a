"""The command shapes of the previous release, kept for one release: each warns and
names its successor in the one shape of every game.

- ``moves|apply --game lod|fitl --card N --side S --faction F``: one COIN event's
  executions on a board (``--state`` or ``--scenario``); successor: ``legalis new fitl
  -o card=N -o faction=F`` then ``moves fitl`` (LoD Events are moves of the whole game);
- ``moves --game eupop --effect E ...``: the choices of one EU:PoP effect; successor:
  ``legalis new eupop`` and ``moves eupop`` (every choice of an Event's resolution);
- ``resolve --game eupop --event ID --choose N``: successor ``new eupop`` and ``apply eupop``;
- ``deck --game eupop``: successor ``new eupop`` (the state holds the decks and display);
- ``draw --game eupop --state MAP``: successor ``draw eupop``;
- ``bot lod --card N --faction F``: successor ``bot lod --state FILE``;
- ``winter lod``: successor ``play lod`` (Winter Quarters are part of the whole game).

:func:`legalis.cli.main` sends a command line here when :func:`legalis.aliases.translate`
finds one of these shapes.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from legalis.model.core.documents import parse_json
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import InputError, clip
from legalis.registry import games
from legalis.terminal import (
    EXIT_FINDINGS,
    EXIT_OK,
    JsonFlag,
    OptionList,
    SeedOpt,
    check_writable,
    emit_json,
    err,
    finish,
    for_option,
    named_move,
    option_values,
    out,
    plural,
    read_json,
    show_moves,
    write_file,
)

app = typer.Typer(
    name="legalis",
    help="The command shapes of the previous release.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _write_board(state: Any, output: Path | None, as_json: bool) -> None:
    """A COIN board after an event, as JSON on stdout or in ``output``."""
    text = json.dumps(state.to_json(), indent=2) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    write_file(output, text, "--out")
    if as_json:
        emit_json({"wrote": str(output), "position": f"{state.game} state"})
    else:
        err.print(f"wrote {output}: {state.game} state")


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


def _nonplayer_options(option_pairs: list[str] | None) -> Any:
    """The LoD Non-player readings the ``--option`` pairs name (docs/rules-questions.md)."""
    from legalis.solver.nonplayer.options import NonplayerOptions

    return NonplayerOptions.from_json(option_values(option_pairs), path="--option")


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


def _accepted(*names: str) -> tuple[str, ...]:
    """The game ``names`` without repeats, in order."""
    return tuple(dict.fromkeys(names))


def _asks_event_moves(name: str, card: int | None, side: str | None, faction: str | None) -> bool:
    """Whether a deprecated command asks for one COIN event's executions.

    >>> _asks_event_moves("lod", None, None, None), _asks_event_moves("lod", 24, None, None)
    (False, True)
    """
    return name in COIN_GAMES and any(value is not None for value in (card, side, faction))


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
    return state_from_json(read_json(state_path), game, source=str(state_path))


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
    card = for_option(lambda: deck.card(card_number), "--card")
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
    for_option(lambda: state.rules.faction(faction), "--faction")
    return legal_event_moves(state, card, side, faction, deadline=deadline)


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
    return named_move(lambda: event_move_from_json(raw), option)


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _eupop_state(state_path: Path | None) -> Any:
    """The state file, or with none the bundled sample state."""
    from legalis.model.eupop.state import bundled_state, state_from_json

    if state_path is None:
        return bundled_state()
    return state_from_json(read_json(state_path), source=str(state_path))


def _eupop_moves(
    state_path: Path | None, effect: str | None, player: str | None, amount: int | None,
    areas: str, targets: str, provinces: str, places: str, vassal: bool, ships: bool,
    colour: str | None, option: list[str] | None, check: str | None, count: bool, limit: int,
    as_json: bool,
) -> None:  # fmt: skip
    from legalis.model.eupop.play import PlayOptions, jsonable
    from legalis.solver.eupop_play import EFFECTS, effect_view, move_from_json, verdict_of

    options = PlayOptions.from_json(option_values(option), path="--option")
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
    show_moves(view, header, check=check, count=count, offset=0, limit=limit, as_json=as_json,
               describe=lambda move: json.dumps(jsonable(move)), parse=parse, to_json=jsonable,
               extra={"effect": effect, "player": player})  # fmt: skip


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
    out.print(f"resolved {event_id}: {plural(steps, 'step')}, "
              f"{plural(len(changes), 'change')} to the state", markup=False)  # fmt: skip
    for change in changes:
        out.print(f"  {change}", markup=False)
    if out_path is not None:
        err.print(f"wrote {out_path}")
    else:
        out.print("the final state: --out FILE to write it, --json to print it", markup=False)


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
    seed: SeedOpt = 0,
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
        show_moves(view, view.faction, check=check, count=count, offset=0, limit=limit,
                   as_json=as_json, describe=_event_describe,
                   parse=lambda text: _event_move(text, "--check"),
                   to_json=lambda move: move.to_json())  # fmt: skip
        return
    raise InputError("the deprecated shape names an event or an effect", path="--card")


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
        check_writable(output, "--out")
    if event:
        view = _event_view(name, state_path, scenario, card, side, faction, deck)
        _write_board(view.apply(_event_move(move_text, "--move")), output, as_json)
        return
    raise InputError("the deprecated shape names an event", path="--card")


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
    options = DeckOptions.from_json({**option_values(option), **flag}, path="--option")
    catalogue, scenario = load_catalogue(), load_scenario(scenario_name)
    if age is not None and age not in scenario.ages:
        raise InputError(f"Age {age} is not in the scenario", path="--age", allowed=scenario.ages)
    body, problems = deck_document(scenario, catalogue, seed, ages=None if age is None else [age],
                                   options=options, players=players)  # fmt: skip
    if as_json:
        emit_json(body)
    else:
        for entry in body.get("ages", []):
            out.print(f"Age {entry['age']} (top first): {' '.join(entry['deck'])}")
        if "display" in body:
            shown = [s["event"] + ("" if s["face_up"] else " (face down)") for s in body["display"]]
            out.print(f"display: {', '.join(shown)}")
        for problem in problems:
            out.print(f"problem: {problem}", markup=False)
    finish(EXIT_FINDINGS if problems else EXIT_OK)


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
    from legalis.board.eupop import draw_eupop

    _game_name(game_name, game_option, (EUPOP,), "drawing")
    if spread not in ("religion", "revolution"):
        raise InputError(
            f"unknown spread {spread!r}", path="--spread", allowed=["religion", "revolution"]
        )
    check_writable(out_path, "--out")
    drawing, _, summary = draw_eupop(_eupop_state(state_path), layer=spread)
    write_file(out_path, drawing, "--out")
    if as_json:
        emit_json(summary)
        return
    out.print(f"wrote {out_path}: {len(summary['clusters'])} clusters, "
              f"reachable: {', '.join(summary['reachable']) or 'none'}")  # fmt: skip


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
    options = PlayOptions.from_json(option_values(option), path="--option")
    if out_path is not None:
        check_writable(out_path, "--out")
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
            emit_json({"event": event_id, "refused": refused.reason, "rule": refused.rule})
        else:
            out.print(f"refused: {refused.reason} [{refused.rule}]", markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    final = outcome.state
    body: dict[str, Any] = {"event": event_id, "seed": seed,
                            **outcome.to_json(with_state=out_path is None)}  # fmt: skip
    if final is not None and out_path is not None:
        write_file(out_path, json.dumps(final.to_json(), indent=2) + "\n", "--out")
        body["wrote"] = str(out_path)
    if as_json:
        emit_json(body)
        return
    _eupop_print_resolution(event_id, state, outcome, out_path)


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
        check_writable(apply_path, "--apply")
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
    chosen = for_option(lambda: chosen_deck.card(card), "--card")
    if chosen.kind == "winter_quarters":  # 2.3.7: it starts a Winter Quarters Round (6.0)
        raise InputError(f"card {card} is a Winter Quarters card: no Faction takes a turn on it",
                         path="--card", allowed=[c.number for c in chosen_deck.cards
                                                 if c.kind != "winter_quarters"])  # fmt: skip
    decided = nonplayer_turn(state, chosen, who, LoggedRandom(seed),
                             players=humans, options=options)  # fmt: skip
    body: dict[str, Any] = {"faction": who, "card": card, "seed": seed, **decided.to_json()}
    if apply_path is not None:
        write_file(apply_path, json.dumps(decided.state.to_json(), indent=2) + "\n", "--apply")
        body["wrote"] = str(apply_path)
    if as_json:
        emit_json(body)
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
        check_writable(apply_path, "--apply")
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
                         f"{plural(rounds, 'campaign')}", path="--round",
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
        write_file(apply_path, json.dumps(done.state.to_json(), indent=2) + "\n", "--apply")
        body["wrote"] = str(apply_path)
    if as_json:
        emit_json(body)
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
