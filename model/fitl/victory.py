"""Fire in the Lake victory margins (7.2), as events that compare them read them.

Each Faction's score and the number it must exceed: US, Total Support plus US
Troops and Bases Available, over 50; NVA, the population of NVA-Controlled spaces
plus NVA Bases on the map, over 18; ARVN, the population of COIN-Controlled spaces
plus Patronage, over 50; VC, Total Opposition plus VC Bases on the map, over 35.

>>> from legalis.model.coin.state import CoinState
>>> victory_margins(CoinState.new("fitl"))["nva"]
-18
"""

from __future__ import annotations

from legalis.model.coin.state import CoinState

__all__ = ["THRESHOLDS", "victory_margins"]

THRESHOLDS = {"us": 50, "nva": 18, "arvn": 50, "vc": 35}  # 7.2: a score must exceed these


def _controlled_population(state: CoinState, control: str) -> int:
    board = state.rules.map
    return sum(info.population for info in board.spaces if state.control(info.name) == control)


def _on_map(state: CoinState, piece: str) -> int:
    return sum(state.pieces(space, piece) for space in state.rules.spaces)


def victory_margins(state: CoinState) -> dict[str, int]:
    """Each Faction's score minus its threshold (7.2): positive when it would win a
    Victory Check now."""
    available = sum(state.available(piece) for piece in ("us_troop", "us_base"))
    scores = {
        "us": state.total_support() + available,
        "nva": _controlled_population(state, "nva") + _on_map(state, "nva_base"),
        "arvn": _controlled_population(state, "coin") + state.track("patronage"),
        "vc": state.total_opposition() + _on_map(state, "vc_base"),
    }
    return {faction: scores[faction] - THRESHOLDS[faction] for faction in THRESHOLDS}
