"""Whole Liberty or Death games played over the HTTP API as the browser table plays
them: one Faction a person (here choosing a group, then one of its first 50 moves,
at random), the others Non-players seated afresh by every request (the API keeps no
seat between requests). Each game is reported finished or stopped, with the
request that stopped it and how long the game took.

    python benchmarks/table_games.py [--scenarios 1775,1776,1778] [--seeds 1-12]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from fastapi.testclient import TestClient

from legalis.server import create_app

FACTIONS = ("british", "patriots", "french", "indians")


def play(client: TestClient, scenario: str, seed: int) -> tuple[str, int, str]:
    """One game: (person's Faction, decisions made, "finished: winner" or what stopped it)."""
    choose = random.Random(seed)
    person = choose.choice(FACTIONS)
    options = {"scenario": scenario, "nonplayers": [f for f in FACTIONS if f != person]}
    answer: dict[str, Any] = client.post("/v1/lod/new", json={"options": options,
                                                               "seed": seed}).json()  # fmt: skip
    made = 0
    while not answer["is_over"]:
        state = answer["state"]
        if answer["to_move"] == person:
            listing = client.post("/v1/lod/moves", json={"state": state, "groups": True,
                                                          "limit": 1})  # fmt: skip
            if listing.status_code != 200:
                return person, made, f"stopped: moves {listing.status_code} {listing.json()}"
            group = choose.choice(listing.json()["groups"])
            offset = group["offset"] + choose.randrange(min(group["count"], 50))
            page = client.post("/v1/lod/moves", json={"state": state, "offset": offset,
                                                       "limit": 1}).json()  # fmt: skip
            move = page["moves"][0]["move"]
            sent = client.post("/v1/lod/apply", json={"state": state, "move": move})
        else:
            seat = "random" if answer["to_move"] == "chance" else "nonplayer"
            sent = client.post("/v1/lod/bot-move", json={"state": state, "seat": seat,
                                                         "seed": seed * 1000 + made})  # fmt: skip
        if sent.status_code != 200:
            return person, made, f"stopped: {sent.status_code} {sent.text[:120]}"
        answer, made = sent.json(), made + 1
    return person, made, f"finished: {answer['result']['winner']} win"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scenarios", default="1775,1776,1778")
    parser.add_argument("--seeds", default="1-12", help="A range FIRST-LAST.")
    args = parser.parse_args()
    first, last = (int(n) for n in args.seeds.split("-"))
    finished = played = 0
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        for scenario in args.scenarios.split(","):
            for seed in range(first, last + 1):
                start = time.perf_counter()
                person, made, outcome = play(client, scenario, seed)
                took = time.perf_counter() - start
                played += 1
                finished += outcome.startswith("finished")
                print(f"{scenario} seed {seed:>3} person {person:<9} {made:>4} decisions "
                      f"{took:>6.1f} s  {outcome}", flush=True)  # fmt: skip
    print(f"{finished} of {played} games finished")


if __name__ == "__main__":
    main()
