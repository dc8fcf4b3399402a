"""What the Non-player flowcharts (8.4-8.7) ask of a space, in the words the
paragraphs use: a side's pieces, cubes and units, Active or Underground, who
Controls it and whether a change of pieces would change that, and where the
Leaders are.

A *side* is ``"royalist"`` (British and Indians) or ``"rebellion"`` (Patriots and
French); the piece kinds are the game's (``british_regular``, ``tory``,
``british_fort``, ``continental``, ``militia``, ``patriot_fort``,
``french_regular``, ``war_party``, ``village``).

>>> from legalis.model.coin.state import CoinState
>>> state = CoinState.new("lod")
>>> state.move_pieces("Available", "Boston", "militia", 2, new_status="underground")
>>> state.move_pieces("Available", "Boston", "british_regular", 1)
>>> side_pieces(state, "Boston", "rebellion"), rebellion_controls(state, "Boston")
(2, True)
>>> control_if(state, "Boston", {"militia": -1})
>>> control_if(state, "Boston", {"militia": -2})
'british'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from legalis.model.coin.state import CoinState

__all__ = [
    "BASES",
    "CUBES",
    "PIECES",
    "UNITS",
    "TrialDice",
    "active",
    "british_controls",
    "control_if",
    "count",
    "cubes",
    "leader_space",
    "on_map",
    "rebellion_controls",
    "side_of",
    "side_pieces",
    "spaces",
    "underground",
    "units",
]

PIECES = {
    "royalist": ("british_regular", "tory", "british_fort", "war_party", "village"),
    "rebellion": ("continental", "militia", "patriot_fort", "french_regular"),
}
FACTIONS_OF = {"royalist": ("british", "indians"), "rebellion": ("patriots", "french")}
CUBES = {"royalist": ("british_regular", "tory"), "rebellion": ("continental", "french_regular")}
UNITS = {
    "royalist": ("british_regular", "tory", "war_party"),
    "rebellion": ("continental", "militia", "french_regular"),
}
BASES = {"royalist": ("british_fort", "village"), "rebellion": ("patriot_fort",)}
IRREGULARS = {"royalist": "war_party", "rebellion": "militia"}
SIDE = {
    "british": "royalist",
    "indians": "royalist",
    "patriots": "rebellion",
    "french": "rebellion",
}


def side_of(faction: str) -> str:
    """``"royalist"`` or ``"rebellion"``.

    >>> side_of("french")
    'rebellion'
    """
    return SIDE[faction]


def count(state: CoinState, space: str, kinds: Iterable[str], status: str | None = None) -> int:
    """How many pieces of ``kinds`` (with ``status`` if given) are in ``space``."""
    return sum([state.pieces(space, kind, status) for kind in kinds])


def side_pieces(state: CoinState, space: str, side: str) -> int:
    """All the side's pieces in ``space`` (Leaders are not pieces, 1.4): its two
    Factions' (their piece kinds are :data:`PIECES`).

    >>> data = CoinState.new("lod").rules.data
    >>> all({p.id for p in data.pieces if p.faction in FACTIONS_OF[side]} == set(kinds)
    ...     for side, kinds in PIECES.items())
    True
    """
    first, second = FACTIONS_OF[side]
    return state.faction_pieces(space, first) + state.faction_pieces(space, second)


def cubes(state: CoinState, space: str, side: str) -> int:
    """The side's cubes: British Regulars and Tories, or Continentals and French
    Regulars (1.4)."""
    return count(state, space, CUBES[side])


def units(state: CoinState, space: str, side: str) -> int:
    """The side's cubes and Militia or War Parties (the pieces that are not Forts or
    Villages)."""
    return count(state, space, UNITS[side])


def active(state: CoinState, space: str, side: str) -> int:
    """The side's pieces that are Active: all but Underground Militia or War Parties."""
    return side_pieces(state, space, side) - underground(state, space, side)


def underground(state: CoinState, space: str, side: str) -> int:
    """The side's Underground Militia or War Parties in ``space``."""
    return state.pieces(space, IRREGULARS[side], "underground")


def rebellion_controls(state: CoinState, space: str) -> bool:
    return state.control(space) == "rebellion"


def british_controls(state: CoinState, space: str) -> bool:
    return state.control(space) == "british"


def control_if(state: CoinState, space: str, change: Mapping[str, int]) -> str | None:
    """Who would Control ``space`` with ``change`` (piece kind: pieces added, or
    removed if negative) made there, the state left as it is.

    A change that takes more pieces than there are raises ``ValueError``.
    """
    trial = state.copy()
    for kind, n in change.items():
        piece, _, status = kind.partition(":")
        if n > 0:
            trial.add(space, piece, n, status or None)
        elif n < 0:
            if trial.pieces(space, piece, status or None) < -n:
                raise ValueError(f"{space} has fewer than {-n} {kind}")
            _take_any(trial, space, piece, -n, status or None)
    return trial.control(space)


def _take_any(state: CoinState, space: str, piece: str, n: int, status: str | None) -> None:
    if status is not None:
        state.take(space, piece, n, status)
        return
    for each in state.rules.data.piece(piece).statuses:
        here = min(n, state.pieces(space, piece, each))
        if here:
            state.take(space, piece, here, each)
            n -= here


def spaces(state: CoinState, *, west_indies: bool = False) -> list[str]:
    """The map's spaces in the game's order, with the West Indies if asked."""
    found = list(state.rules.spaces)
    return [*found, "West Indies"] if west_indies else found


def on_map(state: CoinState, kind: str, status: str | None = None) -> int:
    """How many pieces of ``kind`` are in the map's spaces and the West Indies."""
    return sum(state.pieces(space, kind, status) for space in spaces(state, west_indies=True))


def leader_space(state: CoinState, faction: str) -> str | None:
    """Where the Faction's Leader on the map is (None if it has none there).

    >>> state = CoinState.new("lod")
    >>> state.set_leader("Washington", "Boston")
    >>> leader_space(state, "patriots")
    'Boston'
    """
    for leader in state.rules.data.leaders:
        if leader.faction != faction:
            continue
        where = state.leader(leader.name)
        if where is not None and (where == "West Indies" or state.rules.map.has_space(where)):
            return where
    return None


class TrialDice:
    """Dice that always show 1: a trial Battle is read for its Force Levels and
    modifiers, never for its outcome (8.4.4, 8.5.1, 8.6.6 compare "Force Level
    plus modifiers").

    >>> TrialDice().randrange(3)
    0
    """

    def randrange(self, stop: int, /) -> int:
        return 0
