"""Liberty or Death Non-players: how long one decision takes (the Event or Command
box, then the flowchart's Command and Special Activity carried out, 8.3-8.7), over
decisions drawn from Non-player playouts of the three scenario set-ups, side by
side with the targets (median under 20 ms, worst under 200 ms). As with timeit,
the garbage collector is paused while a decision is timed.

    python benchmarks/lod_bot.py [--decisions 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections import Counter

from legalis.model.coin.deck import bundled_deck
from legalis.model.coin.scenarios import scenario_info
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.nonplayer.playout import nonplayer_playout
from legalis.solver.nonplayer.turn import nonplayer_turn

MEDIAN_TARGET_MS = 20.0
WORST_TARGET_MS = 200.0
SCENARIOS = ("1775", "1776", "1778")
PLAYOUT_TURNS = 40  # a playout's length before the next one starts from a set-up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decisions", type=int, default=1000, help="How many to time.")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the playouts.")
    args = parser.parse_args()
    cards = bundled_deck("lod").cards
    rng = LoggedRandom(args.seed)
    timings: list[tuple[float, str, str, int]] = []
    choices: Counter[str] = Counter()
    playout = 0
    while len(timings) < args.decisions:
        scenario = SCENARIOS[playout % len(SCENARIOS)]
        playout += 1
        start = scenario_info("lod", scenario)
        want = min(PLAYOUT_TURNS, args.decisions - len(timings))
        for taken in nonplayer_playout(start, cards, rng, want):
            gc.collect()
            gc.disable()  # as timeit does: a collection's pause is not the decision's
            began = time.perf_counter()
            decided = nonplayer_turn(taken.state, taken.card, taken.faction,
                                     LoggedRandom(taken.seed))  # fmt: skip
            ms = 1000 * (time.perf_counter() - began)
            gc.enable()
            where = f"{scenario} card {taken.card.number} seed {taken.seed}"
            timings.append((ms, taken.faction, where, len(timings)))
            choices[f"{taken.faction} {decided.choice}"] += 1
    by_time = sorted(timings)
    median = statistics.median(t[0] for t in timings)
    worst = by_time[-1]
    print(f"{len(timings)} decisions from Non-player playouts of {', '.join(SCENARIOS)}")
    print(f"{'':<10}{'ms':>10}{'target':>10}{'ratio':>8}")
    print(f"{'median':<10}{median:>10.2f}{MEDIAN_TARGET_MS:>10.0f}"
          f"{median / MEDIAN_TARGET_MS:>8.3f}")  # fmt: skip
    print(f"{'worst':<10}{worst[0]:>10.2f}{WORST_TARGET_MS:>10.0f}"
          f"{worst[0] / WORST_TARGET_MS:>8.3f}  ({worst[1]}, {worst[2]})")  # fmt: skip
    for faction in ("british", "patriots", "french", "indians"):
        mine = [t[0] for t in timings if t[1] == faction]
        if mine:
            print(f"  {faction:<9} n={len(mine):>4}  median {statistics.median(mine):7.2f} ms"
                  f"  worst {max(mine):8.2f} ms")  # fmt: skip
    print("choices: " + ", ".join(f"{k} {v}" for k, v in sorted(choices.items())))


if __name__ == "__main__":
    main()
