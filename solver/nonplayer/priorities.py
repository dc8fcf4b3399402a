"""Which pieces a Non-player places, removes, moves or targets (8.1.2).

Each function takes a state, a space, the acting Faction and a number of pieces,
and returns the ordered picks ``(piece type, status)``: the first pick is the
first piece placed (removed, targeted). A list is shorter than the number asked
for when no further piece can be picked. ``types`` restricts the piece types an
instruction or Event allows; ``supply`` (placing) says how many of each type may
be placed, by default those in Unavailable and Available.

>>> from legalis.model.coin.state import CoinState
>>> state = CoinState.new("lod")
>>> state.move_pieces("Available", "Virginia", "tory", 1)
>>> place_order(state, "Virginia", "british", 4)
[('british_fort', 'active'), ('british_fort', 'active'), ('british_regular', 'active'), \
('tory', 'active')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from legalis.model.coin.limits import may_hold, stacking_room
from legalis.model.coin.state import CoinState

__all__ = [
    "Pick",
    "enemy_order",
    "friendly_types",
    "place_order",
    "recover_order",
    "remove_friendly_order",
    "source_order",
]

Pick = tuple[str, str]

BASES = ("fort", "village")
IRREGULARS = ("militia", "war_party")
REGULARS = ("regular",)
OTHER_CUBES = ("continental", "tory")
RECOVER_KINDS = ("fort", "continental", "tory", "regular")  # after Blockades (8.1.2)


def friendly_types(state: CoinState, faction: str, *, allies: bool = False) -> list[str]:
    """The piece types of ``faction`` (and of the other Faction of its side with
    ``allies``), in the game's order.

    >>> friendly_types(CoinState.new("lod"), "french", allies=True)
    ['continental', 'militia', 'patriot_fort', 'french_regular']
    """
    data = state.rules.data
    side = data.side_of(faction)
    return [
        p.id
        for p in data.pieces
        if p.faction == faction or (allies and data.side_of(p.faction) == side)
    ]


def _enemy_types(state: CoinState, faction: str) -> list[str]:
    data = state.rules.data
    side = data.side_of(faction)
    return [p.id for p in data.pieces if data.side_of(p.faction) != side]


def _kind(state: CoinState, piece: str) -> str:
    return state.rules.data.piece(piece).kind


def _of(state: CoinState, types: Iterable[str], kinds: Sequence[str]) -> list[str]:
    return [t for t in types if _kind(state, t) in kinds]


def _default_status(state: CoinState, piece: str) -> str:
    return state.rules.data.piece(piece).default_status


def _supply(state: CoinState, types: Iterable[str]) -> dict[str, int]:
    boxes = [b.name for b in state.rules.data.boxes if b.id in ("unavailable", "available")]
    return {t: sum(state.pieces(box, t) for box in boxes) for t in types}


def _alternate(
    counts: Mapping[str, int], regulars: Sequence[str], others: Sequence[str], *, fewest: bool
) -> list[str]:
    """The group order of one alternation: Regulars first if they are fewest (most,
    when ``fewest`` is False) or even, else Continentals/Tories."""
    r = sum(counts.get(t, 0) for t in regulars)
    o = sum(counts.get(t, 0) for t in others)
    regulars_first = r <= o if fewest else r >= o
    return ["regulars", "others"] if regulars_first else ["others", "regulars"]


def place_order(
    state: CoinState,
    space: str,
    faction: str,
    n: int,
    *,
    types: Sequence[str] | None = None,
    supply: Mapping[str, int] | None = None,
    allies: bool = False,
) -> list[Pick]:
    """The pieces to place in ``space``, in order (8.1.2, first bullet).

    Forts and Villages while stacking allows, then Militia or War Parties, then
    Regulars and Continentals/Tories alternately, beginning with whichever is
    fewest in the space (Regulars if even).

    >>> state = CoinState.new("lod")
    >>> place_order(state, "Quebec City", "indians", 2)  # no Indians in a City (1.4.2)
    []
    """
    types = list(types) if types is not None else friendly_types(state, faction, allies=allies)
    types = [t for t in types if may_hold(state, t, space)[0]]
    left = dict(supply) if supply is not None else _supply(state, types)
    room = stacking_room(state, space)
    picks: list[Pick] = []

    def take(piece: str) -> None:
        left[piece] = left.get(piece, 0) - 1
        picks.append((piece, _default_status(state, piece)))

    def ready(group: Sequence[str]) -> str | None:
        return next((t for t in group if left.get(t, 0) > 0), None)

    bases, irregulars = _of(state, types, BASES), _of(state, types, IRREGULARS)
    while len(picks) < n and room > 0 and (base := ready(bases)) is not None:
        take(base)
        room -= 1
    while len(picks) < n and (irregular := ready(irregulars)) is not None:
        take(irregular)
    groups = {"regulars": _of(state, types, REGULARS), "others": _of(state, types, OTHER_CUBES)}
    present = {t: state.pieces(space, t) for t in types}
    order = _alternate(present, groups["regulars"], groups["others"], fewest=True)
    turn = 0
    while len(picks) < n:
        wanted = ready(groups[order[turn % 2]]) or ready(groups[order[(turn + 1) % 2]])
        if wanted is None:
            break
        take(wanted)
        turn += 1
    return picks


def remove_friendly_order(
    state: CoinState,
    space: str,
    faction: str,
    n: int,
    *,
    types: Sequence[str] | None = None,
    allies: bool = False,
) -> list[Pick]:
    """The friendly pieces to remove from ``space``, in order (8.1.2, second bullet).

    Regulars and Continentals/Tories alternately, beginning with whichever is most
    in the space (Regulars if even), keeping the last Tory/Continental of the
    space while another piece can go (it goes after Militia and War Parties, before
    Forts and Villages: a fixed reading); then Active before Underground
    Militia or War Parties; then Forts and Villages.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Boston", "tory", 2)
    >>> state.move_pieces("Available", "Boston", "british_regular", 1)
    >>> remove_friendly_order(state, "Boston", "british", 3)
    [('tory', 'active'), ('british_regular', 'active'), ('tory', 'active')]
    """
    types = list(types) if types is not None else friendly_types(state, faction, allies=allies)
    present: Counter[Pick] = Counter()
    for t in types:
        for status in state.rules.data.piece(t).statuses:
            present[(t, status)] = state.pieces(space, t, status)
    picks: list[Pick] = []

    def take_any(group: Sequence[str], statuses: Sequence[str] | None = None) -> Pick | None:
        for t in group:
            for status in statuses or state.rules.data.piece(t).statuses:
                if present[(t, status)] > 0:
                    present[(t, status)] -= 1
                    picks.append((t, status))
                    return t, status
        return None

    regulars, others = _of(state, types, REGULARS), _of(state, types, OTHER_CUBES)
    counts = {t: state.pieces(space, t) for t in types}
    order = _alternate(counts, regulars, others, fewest=False)
    groups = {"regulars": regulars, "others": others}

    def others_left() -> int:
        return sum(present[(t, "active")] for t in others)

    turn = 0
    while len(picks) < n:
        got = None
        for name in (order[turn % 2], order[(turn + 1) % 2]):
            if name == "others" and others_left() <= 1:
                continue  # if possible, not the last Tory/Continental of the space
            got = take_any(groups[name])
            if got is not None:
                break
        if got is None:
            break
        turn += 1
    irregulars = _of(state, types, IRREGULARS)
    while len(picks) < n and take_any(irregulars, ("active",)) is not None:
        pass
    while len(picks) < n and take_any(irregulars, ("underground",)) is not None:
        pass
    while len(picks) < n and take_any(others) is not None:
        pass  # the last Tory/Continental, when no other piece but Forts is left
    while len(picks) < n and take_any(_of(state, types, BASES)) is not None:
        pass
    return picks


def enemy_order(
    state: CoinState,
    space: str,
    faction: str,
    n: int,
    *,
    types: Sequence[str] | None = None,
) -> list[Pick]:
    """The enemy pieces ``faction`` targets or removes in ``space``, in order
    (8.1.2, fourth bullet).

    Forts and Villages (Forts first, a fixed reading), then Militia or
    War Parties, Underground before Active, then Regulars and Continentals/Tories
    alternately beginning with whichever is fewest in the space (Regulars if even).

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 1)
    >>> state.move_pieces("Available", "Virginia", "continental", 2)
    >>> enemy_order(state, "Virginia", "british", 3)
    [('militia', 'underground'), ('continental', 'active'), ('continental', 'active')]
    """
    types = list(types) if types is not None else _enemy_types(state, faction)
    present: Counter[Pick] = Counter()
    for t in types:
        for status in state.rules.data.piece(t).statuses:
            present[(t, status)] = state.pieces(space, t, status)
    picks: list[Pick] = []

    def take_any(group: Sequence[str], statuses: Sequence[str]) -> bool:
        for t in group:
            for status in statuses:
                if present[(t, status)] > 0:
                    present[(t, status)] -= 1
                    picks.append((t, status))
                    return True
        return False

    tiers = (
        (_of(state, types, BASES), ("active",)),
        (_of(state, types, IRREGULARS), ("underground", "active")),
    )
    for group, statuses in tiers:
        while len(picks) < n and take_any(group, statuses):
            pass
    regulars, others = _of(state, types, REGULARS), _of(state, types, OTHER_CUBES)
    counts = {t: state.pieces(space, t) for t in types}
    order = _alternate(counts, regulars, others, fewest=True)
    groups = {"regulars": regulars, "others": others}
    turn = 0
    while len(picks) < n:
        first, second = groups[order[turn % 2]], groups[order[(turn + 1) % 2]]
        if not take_any(first, ("active",)) and not take_any(second, ("active",)):
            break
        turn += 1
    return picks


def source_order(state: CoinState, piece: str) -> list[str]:
    """The boxes friendly pieces are moved (placed) from: Unavailable first if it
    holds any, then Available (8.1.2, third bullet; 8.3.4).

    >>> source_order(CoinState.new("lod"), "british_regular")
    ['Available']
    """
    boxes = {b.id: b.name for b in state.rules.data.boxes}
    return [
        boxes[box]
        for box in ("unavailable", "available")
        if box in boxes and state.pieces(boxes[box], piece) > 0
    ]


def recover_order(state: CoinState, faction: str, n: int, *, allies: bool = False) -> list[Pick]:
    """Unavailable or Casualty pieces and markers to move to Available or the map,
    in order (8.1.2, third bullet): Blockades, Forts, Continentals/Tories, then
    Regulars; each from Unavailable before Casualties. A pick is ``(piece type or
    marker, box)``.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Casualties", "tory", 1)
    >>> recover_order(state, "british", 3)
    [('tory', 'Casualties')]
    """
    data = state.rules.data
    boxes = [b.name for b in data.boxes if b.id in ("unavailable", "casualties")]
    picks: list[Pick] = []
    types = friendly_types(state, faction, allies=allies)
    owners = {data.piece(t).faction for t in types} | {faction}
    if "french" in owners:  # Squadron/Blockade markers belong to the French (1.9)
        for marker in data.markers:
            if marker.id == "blockade":
                for box in boxes:
                    if box in marker.boxes:
                        picks += [(marker.id, box)] * state.markers(box, marker.id)
    for kinds in (("fort",), OTHER_CUBES, REGULARS):
        for t in _of(state, types, kinds):
            for box in boxes:
                picks += [(t, box)] * state.pieces(box, t)
    return picks[:n]
