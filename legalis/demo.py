"""What legalis does, shown on every registered game with its bundled data: the legal
moves at a new game's first decision, a move the rules refuse and why, one game
played by automatic seats, a few more simulated, and the game's verification.

Every step goes through the one ``Game``/``GameState`` protocol and the capabilities
lookup, so a newly registered game joins the demo with nothing written here.

>>> shown = show_game("sevenyears", seed=7, count=2)
>>> shown["game"], shown["count"] > 0, shown["simulation"]["games"]
('sevenyears', True, 2)
"""

from __future__ import annotations

import itertools
from typing import Any

from legalis.capabilities import VerifyInput, verifier, with_capability
from legalis.registry import game_entry, games, load_game
from legalis.simulation import simulate
from legalis.solver.players import NONPLAYER, automatic_player, seat_kinds, seated_options
from legalis.solver.playout import first_decision, play_game
from legalis.terminal import out

__all__ = ["print_demo", "run_demo", "show_game"]

SHOWN_MOVES = 3


def _refused(game: Any, state: Any) -> dict[str, Any] | None:
    """A move legal at ``state`` that the rules refuse once it is made (most moves
    cannot be made twice), with the rule that refuses it."""
    for move in itertools.islice(state.legal_moves(), 20):
        after = state.apply(move)
        if after.is_over or after.is_chance:
            continue
        refusal = after.legal_moves().refusal(move)
        if refusal is not None:
            return {"move": game.move_to_json(move), "description": game.describe_move(move),
                    "reason": refusal.reason, "rule": refusal.rule}  # fmt: skip
    return None


def _automatic_seats(game: Any) -> tuple[Any, dict[str, str]]:
    """The game seated by its Non-players where it has them, else greedy at the first
    seat and random at the others."""
    if NONPLAYER in seat_kinds(game):
        kinds = dict.fromkeys(game.players, NONPLAYER)
        options = seated_options(game_entry(game.name).option_names, game.options.to_json(), kinds)
        game = load_game(game.name, options)
    else:
        kinds = {seat: "greedy" if i == 0 else "random" for i, seat in enumerate(game.players)}
    return game, kinds


def show_game(name: str, *, seed: int, count: int) -> dict[str, Any]:
    """The demo of one game, as JSON."""
    game = load_game(name)
    state, _ = first_decision(game, seed)
    view = state.legal_moves()
    seated, kinds = _automatic_seats(game)
    players = {seat: automatic_player(kind, seated, seat) for seat, kind in kinds.items()}
    record = play_game(seated, players, seed, record=False)
    stats = simulate(seated, players, count, seed, show_progress=False)
    shown: dict[str, Any] = {
        "game": name,
        "title": game.title,
        "position": game.render(state),
        "to_move": state.to_move,
        "count": view.count(),
        "first": [game.describe_move(move) for move in itertools.islice(view, SHOWN_MOVES)],
        "refused": _refused(game, state),
        "seats": kinds,
        "played": {
            "result": game.describe_result(record.result),
            "turns": record.turns,
            "decisions": record.decisions,
        },
        "simulation": stats,
    }
    if name in with_capability("verify"):
        report = verifier(name)(VerifyInput())
        shown["verify"] = {"ok": report.ok, "findings": len(report.findings)}
    return shown


def run_demo(*, seed: int, count: int) -> dict[str, Any]:
    """The demo of every registered game, ``count`` games simulated of each."""
    return {"games": [show_game(name, seed=seed, count=count) for name in games()]}


def print_demo(body: dict[str, Any]) -> None:
    """The demo for people."""
    out.rule("legalis: rules verifier and legal-move generator")
    out.print(f"games registered: {', '.join(shown['game'] for shown in body['games'])}")
    for shown in body["games"]:
        out.rule(f"{shown['title']} ({shown['game']})")
        for line in shown["position"]:
            out.print(line, markup=False)
        out.print(f"{shown['count']:,} legal moves for {shown['to_move']}; the first few:",
                  markup=False)  # fmt: skip
        for line in shown["first"]:
            out.print(f"  {line}", markup=False)
        refused = shown["refused"]
        if refused is not None:
            out.print(f"refused once made: {refused['description']}: {refused['reason']} "
                      f"[{refused['rule']}]", markup=False)  # fmt: skip
        seats = ", ".join(f"{seat} {kind}" for seat, kind in shown["seats"].items())
        played = shown["played"]
        out.print(f"one game ({seats}): {played['result']}; {played['decisions']} decisions",
                  markup=False)  # fmt: skip
        stats = shown["simulation"]
        wins = ", ".join(f"{seat} {count}" for seat, count in stats["wins"].items() if count)
        out.print(f"{stats['games']} games: {wins}; {stats['games_per_second']:.1f} games/s",
                  markup=False)  # fmt: skip
        if "verify" in shown:
            checked = shown["verify"]
            verdict = "no findings" if checked["ok"] else f"{checked['findings']} findings"
            out.print(f"verification (data checks and Z3 proofs): {verdict}", markup=False)
    out.rule()
    out.print("Play any of them in a web browser, against bots: legalis serve --open", markup=False)
