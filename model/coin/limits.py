"""Queries for the limits no event may break: stacking, where pieces may be, track caps.

The effects interpreter asks these before it changes a state through the
primitives of :class:`~legalis.model.coin.state.CoinState`, which check nothing.
Every refusal names its rule.

>>> from legalis.model.coin.state import CoinState
>>> state = CoinState.new("lod")
>>> may_hold(state, "war_party", "Boston")
(False, 'Indian pieces may never be in a City (1.4.2)')
>>> stacking_room(state, "Boston"), cap(state, "fni")
(2, (0, 0))
"""

from __future__ import annotations

from legalis.model.coin.state import CoinState, markers_out_of
from legalis.model.core.views import Refusal

__all__ = ["cap", "clamp", "hold_refusal", "may_hold", "may_hold_marker", "stacking_room"]


def stacking_room(state: CoinState, location: str) -> int:
    """How many more stacking pieces (Forts and Villages; Bases) fit at a location.

    A space where stacking pieces may never be (a FitL LoC) has room 0; a box
    without a stacking limit has room for every stacking piece of the game.

    >>> from legalis.model.coin.state import CoinState
    >>> state = CoinState.new("fitl")
    >>> state.move_pieces("Available", "Binh Dinh", "us_base")
    >>> stacking_room(state, "Binh Dinh"), stacking_room(state, "Hue -- Da Nang")
    (1, 0)
    """
    rules = state.rules
    info = rules.info[rules.location(location)]
    stacked = state.stacking_count(location)
    if info.stacking_cap is None:
        if info.is_space:
            # a space type outside the stacking rule holds no stacking pieces at all
            return 0
        return sum(piece.inventory for piece in rules.piece_types if piece.stacking)
    return max(0, info.stacking_cap - stacked)


def may_hold(state: CoinState, piece_type: str, location: str) -> tuple[bool, str]:
    """Whether pieces of this type may be at a location now, with the reason and rule.

    Covers the boxes' lists (only British and French Regulars and British Forts in
    the West Indies, 1.4.2), LoD Indians never in Cities (1.4.2) and no French on
    the map before the Treaty of Alliance (2.3.9), FitL no US or ARVN in North
    Vietnam and no Bases on LoCs (1.4.2). Stacking is :func:`stacking_room`.

    >>> from legalis.model.coin.state import CoinState
    >>> state = CoinState.new("fitl")
    >>> may_hold(state, "us_troop", "North Vietnam")
    (False, 'US and ARVN pieces may never be in North Vietnam (1.4.2)')
    >>> may_hold(state, "nva_troop", "North Vietnam")[0]
    True
    """
    allowed, reason, rule = _holding(state, piece_type, location)
    return allowed, f"{reason} ({rule})"


def hold_refusal(state: CoinState, piece_type: str, location: str) -> Refusal | None:
    """Why pieces of this type may not be at a location now (``None`` if they may),
    with the rule that forbids it on its own.

    >>> from legalis.model.coin.state import CoinState
    >>> hold_refusal(CoinState.new("lod"), "french_regular", "Boston").rule
    '2.3.9'
    >>> hold_refusal(CoinState.new("lod"), "tory", "Boston") is None
    True
    """
    allowed, reason, rule = _holding(state, piece_type, location)
    return None if allowed else Refusal(reason, rule)


def _holding(state: CoinState, piece_type: str, location: str) -> tuple[bool, str, str]:
    rules = state.rules
    data = rules.data
    loc = rules.location(location)
    piece = rules.piece(piece_type)
    kind = rules.piece_types[piece]
    info = rules.info[loc]
    if not info.is_space:
        box = data.box(info.name)
        if piece not in rules.box_allows[loc]:
            return False, f"{kind.name} may not be in {box.name}", box.rule
        return True, f"{kind.name} may be in {box.name}", box.rule
    for restriction in data.restrictions:
        if kind.id not in restriction.pieces:
            continue
        if restriction.unless_flag is not None and state.flag(restriction.unless_flag):
            continue
        if restriction.applies(info.type, info.country):
            return False, restriction.reason, restriction.rule
    return True, f"{kind.name} may be in {info.name}", data.stacking_rule


def may_hold_marker(state: CoinState, marker: str, location: str) -> tuple[bool, str]:
    """Whether a marker of this kind may lie at a location now, with the reason.

    >>> from legalis.model.coin.state import CoinState
    >>> may_hold_marker(CoinState.new("lod"), "blockade", "Boston")
    (False, 'no Squadron/Blockade on the map before Treaty of Alliance played (1.9)')
    """
    rules = state.rules
    kind = rules.marker_types[rules.marker(marker)]
    info = rules.info[rules.location(location)]
    if not info.is_space:
        if info.name in kind.boxes:
            return True, f"{kind.name} markers may be in {info.name} ({kind.rule})"
        return False, f"{kind.name} markers may not be in {info.name} ({kind.rule})"
    if info.type not in kind.space_types:
        return False, (
            f"{kind.name} markers lie only on {', '.join(kind.space_types)} spaces ({kind.rule})"
        )
    if kind.requires_flag is not None and not state.flag(kind.requires_flag):
        flag_name = dict(rules.data.flags)[kind.requires_flag]
        return False, f"no {kind.name} on the map before {flag_name} ({kind.rule})"
    return True, f"{kind.name} markers may lie on {info.name} ({kind.rule})"


def cap(state: CoinState, track: str) -> tuple[int, int]:
    """The lowest and highest values a track may take now.

    The printed range, narrowed by the state: LoD FNI stays 0 before the Treaty of
    Alliance and never exceeds the Squadrons/Blockades out of Unavailable (1.9).

    >>> from legalis.model.coin.state import CoinState
    >>> state = CoinState.new("lod")
    >>> cap(state, "british_resources")
    (0, 50)
    >>> state.set_flag("toa_played")
    >>> state.move_marker("Unavailable", "West Indies", "blockade", 2)
    >>> cap(state, "fni")
    (0, 2)
    """
    rules = state.rules
    spec = rules.data.tracks[rules.track(track)]
    hi = spec.hi
    if spec.zero_unless_flag is not None and not state.flag(spec.zero_unless_flag):
        hi = spec.lo
    if spec.at_most_markers is not None:
        hi = min(hi, markers_out_of(state, spec.at_most_markers, spec.markers_outside))
    return spec.lo, max(spec.lo, hi)


def clamp(state: CoinState, track: str, value: int) -> int:
    """``value`` brought within :func:`cap` (Events never push a track past it, 5.1.1).

    >>> from legalis.model.coin.state import CoinState
    >>> clamp(CoinState.new("fitl"), "aid", 90)
    75
    """
    lo, hi = cap(state, track)
    return max(lo, min(hi, value))
