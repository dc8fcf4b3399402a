"""Liberty or Death Commands: how many legal moves each has, and how long counting
them takes, on the three scenario set-ups side by side with the target.

Resources are set to each scenario's value (the target applies to these rows) and,
to stress the counts, to 10 and to 20 for every Faction (reported beside, as a
ratio too). Counting must not list: the view counts by rank. As with timeit, the
garbage collector is paused while a count is timed.

    python benchmarks/lod_actions.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import time

from legalis.model.coin.scenarios import load_scenario
from legalis.model.lod.commands import (
    COMMANDS,
    available_commands,
    command_view,
)

TARGET_MS = 50.0
SCENARIOS = ("1775", "1776", "1778")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="Best of this many timings.")
    args = parser.parse_args()
    print(f"target: count any Command's legal moves in under {TARGET_MS:.0f} ms")
    print(f"{'command':<26}{'set-up':>7}{'resources':>10}{'moves':>36}{'ms':>9}{'ratio':>8}")
    worst = {True: 0.0, False: 0.0}  # as set up, stressed
    for faction in COMMANDS:
        for command in sorted(COMMANDS[faction]):
            for scenario in SCENARIOS:
                for resources in (None, 10, 20):
                    state = load_scenario("lod", scenario)
                    if resources is not None:
                        for side in COMMANDS:
                            state.set_track(f"{side}_resources", resources)
                    if command not in available_commands(state, faction):
                        state.set_flag("toa_played", not state.flag("toa_played"))
                    best = float("inf")
                    count = 0
                    for _ in range(args.repeat):
                        gc.collect()
                        gc.disable()  # as timeit does: a collection's pause is not the count's
                        started = time.perf_counter()
                        count = command_view(state, faction, command).count()
                        best = min(best, time.perf_counter() - started)
                        gc.enable()
                    ms = 1000 * best
                    as_set_up = resources is None
                    worst[as_set_up] = max(worst[as_set_up], ms)
                    shown = state.track(f"{faction}_resources")
                    print(f"{faction + ' ' + command:<26}{scenario:>7}{shown:>10}{count:>36,}"
                          f"{ms:>9.2f}{ms / TARGET_MS:>8.3f}")  # fmt: skip
    for as_set_up, label in ((True, "as set up (the target)"), (False, "stressed (10, 20)")):
        ms = worst[as_set_up]
        verdict = "met" if ms < TARGET_MS else "NOT met"
        print(f"slowest count {label}: {ms:.2f} ms; ratio {ms / TARGET_MS:.3f}: {verdict}")


if __name__ == "__main__":
    main()
