"""Playing Liberty or Death loads only what play uses: no graph library, no solver or
parser back end, no web or drawing stack, no validation library. Each of these weighs
megabytes a process carries to its end (``benchmarks/lod_games.py`` measures the
peak), so a module on the play path imports them inside the functions that need them.
"""

from __future__ import annotations

import json
import subprocess
import sys

NOT_FOR_PLAY = (
    "networkx", "z3", "lark", "fastapi", "uvicorn", "matplotlib", "typer", "rich",
    "pydantic", "pydantic_core", "zipfile", "difflib",
)  # fmt: skip

PLAY = """
import json, sys
import legalis
from legalis.model.coin.deck import bundled_deck
from legalis.model.coin.mapdata import load_map
from legalis.model.coin.scenarios import scenario_info
from legalis.model.core.randomness import LoggedRandom
from legalis.solver.nonplayer.playout import nonplayer_playout

game = legalis.load_game("lod", {"scenario": "1776"})
game.new_initial_state()
start, cards = scenario_info("lod", "1776"), bundled_deck("lod").cards
turns = sum(1 for _ in nonplayer_playout(start, cards, LoggedRandom(1), 8))
board = load_map("lod")
print(json.dumps({
    "turns": turns,
    "within": board.within("Florida", 1),
    "adjacent": board.are_adjacent("Boston", "Massachusetts"),
    "modules": sorted({name.split(".")[0] for name in sys.modules}),
}))
"""


def test_a_playout_imports_nothing_play_does_not_use():
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True,
                          timeout=300, check=True)  # fmt: skip
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["turns"] == 8
    # the map answers from its neighbour lists (1.3: Florida borders Georgia and the
    # Southwest Reserve; Boston borders Massachusetts)
    assert seen["within"] == {"Florida": 0, "Georgia": 1, "Southwest": 1}
    assert seen["adjacent"] is True
    # the bundled deck's records are built without pydantic, which validates a deck
    # a user hands in (``tests/model/test_coin_sample_decks.py`` checks they agree)
    assert [name for name in NOT_FOR_PLAY if name in seen["modules"]] == []
