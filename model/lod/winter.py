"""Liberty or Death Winter Quarters phases that involve no choice: the Resources
Phase (6.3), the Leader Change (6.5.1) and the Reset Phase (6.7). Each returns a
new state and a log naming the rule of each step.

>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> after, log = resources_phase(state)
>>> after.track("british_resources") - state.track("british_resources")  # 3 Forts + 1 + 1 + 2
7
>>> log[0]
'6.3.1: the British earn 7 (Forts 3, British Controlled Cities 4, West Indies 0)'
"""

from __future__ import annotations

from legalis.model.coin.state import CoinState
from legalis.model.lod.battle import WEST_INDIES

__all__ = ["LEADER_SUCCESSION", "leader_change", "reset_phase", "resources_phase"]

WEST_INDIES_BONUS = 5  # 6.3.1, 6.3.4: +5 for Controlling the West Indies
# 6.5.1: the Leader Change Summary, by Faction
LEADER_SUCCESSION = {
    "british": ("Gage", "Howe", "Clinton"),
    "french": ("Rochambeau", "Lauzun"),
    "indians": ("Brant", "Cornplanter", "Dragging Canoe"),
    "patriots": ("Washington",),
}


def _on_map(state: CoinState, piece: str) -> int:
    return sum(state.pieces(space, piece) for space in state.rules.spaces)


def _earn(state: CoinState, faction: str, amount: int) -> int:
    """Add ``amount`` to a Faction's Resources, never past 50 (6.3, 1.8)."""
    track = f"{faction}_resources"
    before = state.track(track)
    state.set_track(track, min(state.rules.data.track(track).hi, before + amount))
    return state.track(track) - before


def resources_phase(state: CoinState) -> tuple[CoinState, list[str]]:
    """6.3: each Faction's earnings, to at most 50.

    British: British Forts + population of British Controlled Cities not Blockaded,
    +5 with British Control of the West Indies. Indians: half the Villages on the
    map. Patriots: Patriot Forts + half the Rebellion Controlled spaces (the West
    Indies aside). French: before the Treaty of Alliance twice the Squadrons in the
    West Indies; after it, the FNI level + population of Cities not British
    Controlled, +5 with Rebellion Control of the West Indies.
    """
    new = state.copy()
    board = state.rules.map
    cities = board.of_type("City")
    log: list[str] = []
    forts = _on_map(state, "british_fort")
    controlled = sum(
        board.population(c) for c in cities
        if state.control(c) == "british" and not state.markers(c, "blockade")
    )  # fmt: skip
    indies = WEST_INDIES_BONUS if state.control(WEST_INDIES) == "british" else 0
    _earn(new, "british", forts + controlled + indies)
    log.append(f"6.3.1: the British earn {forts + controlled + indies} (Forts {forts}, "
               f"British Controlled Cities {controlled}, West Indies {indies})")  # fmt: skip
    villages = _on_map(state, "village")
    _earn(new, "indians", villages // 2)
    log.append(f"6.3.2: the Indians earn {villages // 2} (Villages {villages}, halved)")
    patriot_forts = _on_map(state, "patriot_fort")
    rebel = sum(state.control(s) == "rebellion" for s in state.rules.spaces)
    _earn(new, "patriots", patriot_forts + rebel // 2)
    log.append(f"6.3.3: the Patriots earn {patriot_forts + rebel // 2} (Forts {patriot_forts}, "
               f"Rebellion Controlled spaces {rebel}, halved)")  # fmt: skip
    if state.flag("toa_played"):
        fni = state.track("fni")
        open_cities = sum(board.population(c) for c in cities if state.control(c) != "british")
        bonus = WEST_INDIES_BONUS if state.control(WEST_INDIES) == "rebellion" else 0
        _earn(new, "french", fni + open_cities + bonus)
        log.append(f"6.3.4: the French earn {fni + open_cities + bonus} (FNI {fni}, Cities "
                   f"not British Controlled {open_cities}, West Indies {bonus})")  # fmt: skip
    else:
        squadrons = state.markers(WEST_INDIES, "blockade")
        _earn(new, "french", 2 * squadrons)
        log.append(f"6.3.4: the French earn {2 * squadrons} (Squadrons in the West Indies "
                   f"{squadrons}, doubled; before the Treaty of Alliance)")  # fmt: skip
    return new, log


def _current(state: CoinState, faction: str) -> str | None:
    in_play = [n for n in LEADER_SUCCESSION[faction] if state.leader(n) is not None]
    return in_play[0] if in_play else None


def leader_change(state: CoinState, faction: str) -> tuple[CoinState, list[str]]:
    """6.5.1: the Faction first on the card on deck replaces its Leader with the
    next of the Leader Change Summary where it stands; the French only after the
    Treaty of Alliance; no change past the last Leader, or for the Patriots.

    >>> state = CoinState.new("lod")
    >>> state.set_leader("Gage", "Boston")
    >>> after, log = leader_change(state, "british")
    >>> after.leader("Howe"), after.leader("Gage")
    ('Boston', None)
    """
    new = state.copy()
    order = LEADER_SUCCESSION[faction]
    current = _current(state, faction)
    if faction == "french" and not state.flag("toa_played"):
        return new, ["6.5.1: no French Leader Change before the Treaty of Alliance"]
    if current is None or current == order[-1]:
        return new, [f"6.5.1: no further Leader Change for the {faction}"]
    successor = order[order.index(current) + 1]
    where = state.leader(current)
    new.set_leader(current, None)
    new.set_leader(successor, where)
    return new, [f"6.5.1: {successor} replaces {current} ({where})"]


def reset_phase(state: CoinState) -> tuple[CoinState, list[str]]:
    """6.7 (the steps without a choice): Raid and Propaganda markers off the map,
    every Faction Eligible, cubes from Casualties to Available, every Militia and
    War Party Underground. Revealing the next card and the Winter Quarters card's
    Event belong to the deck.

    >>> state = CoinState.new("lod")
    >>> state.move_pieces("Available", "Virginia", "militia", 2, new_status="active")
    >>> reset_phase(state)[0].pieces("Virginia", "militia", "underground")
    2
    """
    new = state.copy()
    log: list[str] = []
    for marker in ("raid", "propaganda"):
        taken = 0
        for space in state.rules.spaces:
            n = new.markers(space, marker)
            if n:
                new.take_marker(space, marker, n)
                taken += n
        log.append(f"6.7: {taken} {marker.capitalize()} marker(s) removed")
    for faction in state.rules.data.faction_ids():
        new.set_eligibility(faction, "eligible")
    log.append("6.7: every Faction Eligible")
    for piece in ("british_regular", "tory", "french_regular", "continental"):
        n = new.pieces("Casualties", piece)
        if n:
            new.move_pieces("Casualties", "Available", piece, n)
            log.append(f"6.7: {n} {piece} from Casualties to Available")
    for space in state.rules.spaces:
        for piece in ("militia", "war_party"):
            active = new.pieces(space, piece, "active")
            if active:
                new.flip(space, piece, active, "active", "underground")
    log.append("6.7: every Militia and War Party Underground")
    return new, log
