"""Whole Liberty or Death games, every Faction a Non-player, side by side with an
independent LoD bot engine: games per second, milliseconds per decision and peak
memory, per scenario (1775, 1776, 1778); then how long ``legal_moves()`` takes at
the decisions met in those games.

    python benchmarks/lod_games.py [--games 5] [--seed 1] [--lod-bot /tmp/lod-bot]
    python benchmarks/lod_games.py --playout-memory

The other engine is the Python bot engine of the public repository FeeSimple1/lod-bot
(``git clone https://github.com/FeeSimple1/lod-bot /tmp/lod-bot``), run as its own
balance check plays a bot-only game: ``lod_ai.tools.balance_smoke.play_bot_game``
(its set-up from the scenario and the seed, then card after card until a winner or
200 cards). Game ``i`` of a scenario has seed ``--seed + i`` on both sides. The
time is the games' (each from its set-up), not the imports' nor, for legalis,
loading the scenario's rules and deck once (``legalis.load_game``).

A decision, on both sides, is one Faction's turn on a card: the 1st or a later
Eligible Faction's Pass, Event or Command (with its Special Activity, the Event's
free actions included), or a Brilliant Stroke (the Treaty of Alliance included)
carried out. The Winter Quarters Round's choices are part of the game's time but
not decisions. legalis counts a decision at each move made at a card's "choose"
stage and at each Brilliant Stroke played (one that is Trumped counts too); the
other engine at each ``Engine.play_turn`` call (a Pass hands the card on, as here)
and each Brilliant Stroke interrupt that is carried out. Milliseconds per decision
are a whole game's time over its decisions.

Each engine plays each scenario in a fresh subprocess, so its peak memory (its
``ru_maxrss``) includes its imports. Both engines' sources are compiled to bytecode
first (``compileall``, in place), as an installed package is: a process that compiles
its modules as it imports them peaks higher, by the compiler's own memory. Both run
with ``PYTHONHASHSEED=0``: the other engine's games depend on set iteration order.
The goal printed at the end: legalis at least 3 times faster per decision, and no
more peak memory than the other.

The memory of the Non-player play path alone: a fresh process imports it and plays
one Non-player playout (``nonplayer_playout``, up to 200 turns of 1775);
``--playout-memory`` prints only that line, for a checkout named by ``PYTHONPATH``.

``legal_moves()`` is timed on copies of the states of the first legalis game of each
scenario, at every decision a seat made there: time to the first move, per move when
listing all of them (the first 1,000 where there are more), and to count them
(``view.count()``); a call still busy after ``--time-limit`` seconds is stopped and
counted under "over".
"""

from __future__ import annotations

import argparse
import compileall
import functools
import gc
import importlib.util
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SCENARIOS = ("1775", "1776", "1778")
FACTIONS = ("british", "patriots", "french", "indians")
ENGINES = ("legalis", "lod-bot")
GOAL_SPEED = 3.0  # legalis at least this many times faster per decision
LIST_LIMIT = 1_000  # moves listed at most when timing a listing
PLAYOUT_TURNS = 200  # the Non-player playout of the memory line
RESULT = "RESULT "  # a worker's answer line on stdout, before its JSON
WORKER_TIME_LIMIT = 3600  # seconds: a worker still busy then is stopped


def peak_mib() -> float:
    """This process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------------- workers


def legalis_games(scenario: str, games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` whole games of ``scenario`` with four Non-player seats."""
    from legalis.solver.lodgame.moves import Stroke
    from legalis.solver.playout import play_game

    import legalis

    decisions = 0

    def count(state: Any, by: str, move: Any) -> None:
        nonlocal decisions
        if state.stage == "choose" or isinstance(move, Stroke):
            decisions += 1

    game = legalis.load_game("lod", {"scenario": scenario, "nonplayers": list(FACTIONS)})
    started = time.perf_counter()
    winners: list[str] = []
    for index in range(games):
        players = {faction: game.nonplayer_seat(faction) for faction in game.players}
        record = play_game(game, players, seed + index, record=False, observer=count)
        winners.append(str((record.result or {}).get("winner", "none")))
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "decisions": decisions, "winners": winners}


def lod_bot_games(scenario: str, games: int, seed: int, path: Path) -> dict[str, Any]:
    """Play ``games`` bot-only games of ``scenario`` with the other engine."""
    sys.path.insert(0, str(path))
    from lod_ai.engine import Engine  # type: ignore[import-not-found]
    from lod_ai.tools.balance_smoke import play_bot_game  # type: ignore[import-not-found]

    decisions = 0
    play_turn = Engine.play_turn
    stroke = Engine._resolve_brilliant_stroke_interrupt

    # functools.wraps keeps the signature the engine inspects before calling play_turn
    @functools.wraps(play_turn)
    def counted_turn(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal decisions
        decisions += 1
        return play_turn(self, *args, **kwargs)

    @functools.wraps(stroke)
    def counted_stroke(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal decisions
        played = stroke(self, *args, **kwargs)
        decisions += bool(played)
        return played

    Engine.play_turn = counted_turn
    Engine._resolve_brilliant_stroke_interrupt = counted_stroke
    started = time.perf_counter()
    winners = [str(play_bot_game(scenario, seed + index)["winner"]) for index in range(games)]
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "decisions": decisions, "winners": winners}


def nonplayer_playout_memory(scenario: str, seed: int) -> dict[str, Any]:
    """Import the Non-player play path and play one playout of up to 200 turns."""
    from legalis.model.coin.deck import bundled_deck
    from legalis.model.coin.scenarios import scenario_info
    from legalis.model.core.randomness import LoggedRandom
    from legalis.solver.nonplayer.playout import nonplayer_playout
    from legalis.solver.nonplayer.turn import nonplayer_turn  # noqa: F401  (the play path)

    imported = peak_mib()
    start, cards = scenario_info("lod", scenario), bundled_deck("lod").cards
    turns = sum(1 for _ in nonplayer_playout(start, cards, LoggedRandom(seed), PLAYOUT_TURNS))
    return {"imports_mib": imported, "turns": turns, "modules": len(sys.modules)}


def worker(args: argparse.Namespace) -> None:
    scenario = args.scenarios[0]
    if args.worker == "legalis":
        answer = legalis_games(scenario, args.games, args.seed)
    elif args.worker == "lod-bot":
        answer = lod_bot_games(scenario, args.games, args.seed, args.lod_bot)
    else:
        answer = nonplayer_playout_memory(scenario, args.seed)
    answer["peak_mib"] = peak_mib()
    print(RESULT + json.dumps(answer), flush=True)


def compile_sources(others: list[Path]) -> None:
    """Compile legalis's packages and the folders ``others`` to bytecode, in place."""
    packages = ("legalis", "legalis.model", "legalis.graphs", "legalis.solver", "legalis.verify")
    folders = [Path(folder) for name in packages
               for folder in importlib.util.find_spec(name).submodule_search_locations or ()]  # type: ignore[union-attr]  # fmt: skip
    for folder in [*folders, *others]:
        compileall.compile_dir(folder, quiet=1)


def run_worker(kind: str, scenario: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run one worker in a fresh process and read its answer."""
    command = [sys.executable, __file__, "--worker", kind, "--scenarios", scenario,
               "--games", str(args.games), "--seed", str(args.seed),
               "--lod-bot", str(args.lod_bot)]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False,
                              timeout=WORKER_TIME_LIMIT)  # fmt: skip
    except subprocess.TimeoutExpired:
        sys.exit(f"lod_games.py: the {kind} worker for {scenario} ran past "
                 f"{WORKER_TIME_LIMIT} s")  # fmt: skip
    answers = [line for line in done.stdout.splitlines() if line.startswith(RESULT)]
    if done.returncode or not answers:
        sys.exit(f"lod_games.py: the {kind} worker for {scenario} failed:\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(answers[-1][len(RESULT) :])
    return answer


# ---------------------------------------------------------------------- report


def row(label: str, games: int, answer: dict[str, Any]) -> str:
    seconds, decisions = answer["seconds"], answer["decisions"]
    return (f"  {label:<9}{games:>6}{decisions:>11}{decisions / games:>9.1f}{seconds:>10.2f}"
            f"{games / seconds:>9.2f}{1000 * seconds / decisions:>10.2f}"
            f"{answer['peak_mib']:>10.1f}")  # fmt: skip


def ratios(ours: dict[str, Any], theirs: dict[str, Any]) -> tuple[float, float]:
    """How many times faster per decision legalis is, and its peak over the other's."""
    speed = (theirs["seconds"] / theirs["decisions"]) / (ours["seconds"] / ours["decisions"])
    return speed, ours["peak_mib"] / theirs["peak_mib"]


def whole_games(args: argparse.Namespace) -> None:
    print(f"whole games, every Faction a Non-player: {args.games} a scenario, seeds "
          f"{args.seed}-{args.seed + args.games - 1}; each engine in a fresh process")  # fmt: skip
    print(f"  {'engine':<9}{'games':>6}{'decisions':>11}{'a game':>9}{'seconds':>10}"
          f"{'games/s':>9}{'ms/dec':>10}{'peak MiB':>10}")  # fmt: skip
    summed = {name: {"seconds": 0.0, "decisions": 0, "peak_mib": 0.0} for name in ENGINES}
    for scenario in args.scenarios:
        ours = run_worker("legalis", scenario, args)
        theirs = run_worker("lod-bot", scenario, args)
        print(f"{scenario}")
        print(row("legalis", args.games, ours))
        print(row("lod-bot", args.games, theirs))
        speed, memory = ratios(ours, theirs)
        print(f"  legalis: {speed:.2f}x as fast per decision, {memory:.2f}x the peak memory;"
              f" winners {' '.join(ours['winners'])} | {' '.join(theirs['winners'])}")  # fmt: skip
        for name, answer in zip(ENGINES, (ours, theirs), strict=True):
            total = summed[name]
            total["seconds"] += answer["seconds"]
            total["decisions"] += answer["decisions"]
            total["peak_mib"] = max(total["peak_mib"], answer["peak_mib"])
    games = args.games * len(args.scenarios)
    print("all")
    print(row("legalis", games, summed["legalis"]))
    print(row("lod-bot", games, summed["lod-bot"]))
    speed, memory = ratios(summed["legalis"], summed["lod-bot"])
    ours_mib, theirs_mib = summed["legalis"]["peak_mib"], summed["lod-bot"]["peak_mib"]
    print(f"goal: >= {GOAL_SPEED:.0f}x faster per decision: {speed:.2f}x, "
          f"{'met' if speed >= GOAL_SPEED else 'not met'}; peak memory no more than the "
          f"other's: {ours_mib:.1f} against {theirs_mib:.1f} MiB ({memory:.2f}x), "
          f"{'met' if memory <= 1.0 else 'not met'}")  # fmt: skip


def playout_memory(args: argparse.Namespace) -> None:
    answer = run_worker("playout", "1775", args)
    print(f"\nNon-player playout of 1775 (seed {args.seed}): imports "
          f"{answer['imports_mib']:.1f} MiB ({answer['modules']} modules), peak "
          f"{answer['peak_mib']:.1f} MiB after {answer['turns']} turns")  # fmt: skip


class OverTime(Exception):
    """A timed call ran past ``--time-limit``."""


def _over_time(signum: int, frame: Any) -> None:
    raise OverTime


def timed(state: Any, action: Any, limit: float) -> tuple[float, Any] | None:
    """Milliseconds ``action`` takes on a fresh copy of ``state`` (no view kept from an
    earlier call), with the garbage collector paused as timeit does; ``None`` when it
    runs past ``limit`` seconds."""
    fresh = state.copy()
    previous = signal.signal(signal.SIGALRM, _over_time)
    gc.collect()
    gc.disable()
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        began = time.perf_counter()
        value = action(fresh)
        return 1000 * (time.perf_counter() - began), value
    except OverTime:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        gc.enable()


def listing(view: Any) -> int:
    """How many moves iterating ``view`` yields, up to :data:`LIST_LIMIT`."""
    listed = 0
    for _ in view:
        listed += 1
        if listed == LIST_LIMIT:
            break
    return listed


def decision_states(scenario: str, seed: int) -> list[Any]:
    """Copies of the states of a legalis game at which a seat chose a move."""
    from legalis.solver.playout import play_game

    import legalis

    game = legalis.load_game("lod", {"scenario": scenario, "nonplayers": list(FACTIONS)})
    players = {faction: game.nonplayer_seat(faction) for faction in game.players}
    states: list[Any] = []

    def keep(state: Any, by: str, move: Any) -> None:
        if by in FACTIONS:
            states.append(state.copy())

    play_game(game, players, seed, record=False, observer=keep)
    return states


def legal_move_timings(args: argparse.Namespace) -> None:
    from legalis.model.errors import SolverLimitError

    def counted(view: Any) -> int | None:
        try:
            return int(view.count())
        except SolverLimitError:
            return None

    measures = {
        "first move": lambda fresh: next(iter(fresh.legal_moves()), None),
        "list": lambda fresh: listing(fresh.legal_moves()),
        "count": lambda fresh: counted(fresh.legal_moves()),
    }
    print(f"\nlegal_moves() at the decisions of the first game of each scenario (seed "
          f"{args.seed}; each call stopped after {args.time_limit:g} s)")  # fmt: skip
    print(f"  {'scenario':<9}{'states':>7}  {'':<15}{'median ms':>10}{'worst ms':>10}{'over':>6}")
    for scenario in args.scenarios:
        states = decision_states(scenario, args.seed)
        times: dict[str, list[float]] = {name: [] for name in (*measures, "per move")}
        over = dict.fromkeys(times, 0)
        totals: list[int] = []
        for state in states:
            for name, action in measures.items():
                answer = timed(state, action, args.time_limit)
                if answer is None:
                    over[name] += 1
                    if name == "list":
                        over["per move"] += 1
                    continue
                ms, value = answer
                times[name].append(ms)
                if name == "list" and value:
                    times["per move"].append(ms / value)
                if name == "count" and value is not None:
                    totals.append(value)
        for name, values in times.items():
            label = f"all ({LIST_LIMIT:,} most)" if name == "list" else name
            median = f"{statistics.median(values):>10.3f}{max(values):>10.3f}" if values else ""
            print(f"  {scenario:<9}{len(states):>7}  {label:<15}{median:>20}{over[name]:>6}")
        if totals:
            print(f"  {'':<18}moves a decision: median {statistics.median(totals):,.0f}, "
                  f"most {max(totals):,}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=5, help="Games per scenario and engine.")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the first game.")
    parser.add_argument("--lod-bot", type=Path, default=Path("/tmp/lod-bot"),
                        help="A checkout of the other engine.")  # fmt: skip
    parser.add_argument("--scenarios", nargs="+", choices=SCENARIOS, default=list(SCENARIOS),
                        help="The scenarios to play (all three unless given).")  # fmt: skip
    parser.add_argument("--time-limit", type=float, default=5.0,
                        help="Seconds each timed legal_moves() call may take.")  # fmt: skip
    parser.add_argument("--playout-memory", action="store_true",
                        help="Print only the memory of a Non-player playout.")  # fmt: skip
    parser.add_argument("--worker", choices=("legalis", "lod-bot", "playout"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.playout_memory:
        compile_sources([])
        playout_memory(args)
        return
    if not (args.lod_bot / "lod_ai" / "engine.py").is_file():
        print(f"lod_games.py: no LoD bot engine at {args.lod_bot} (want {args.lod_bot}/lod_ai/"
              f"engine.py); clone https://github.com/FeeSimple1/lod-bot there or name it with "
              f"--lod-bot", file=sys.stderr)  # fmt: skip
        sys.exit(2)
    compile_sources([args.lod_bot])
    whole_games(args)
    playout_memory(args)
    legal_move_timings(args)


if __name__ == "__main__":
    main()
