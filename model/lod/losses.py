"""Where removed pieces go (1.6.4): cubes to the Casualties box, Forts to Available
but counted as Casualties, everything else to Available; the Cumulative British and
Rebellion Casualties tracks (CBC, CRC) count them.

>>> from legalis.model.coin.state import CoinState
>>> state = CoinState.new("lod")
>>> state.move_pieces("Available", "Boston", "tory", 2)
>>> state.take("Boston", "tory", 2)
>>> add_losses(state, "tory", 2), state.pieces("Casualties", "tory"), state.track("cbc")
(('Casualties', 'cbc'), 2, 2)
"""

from __future__ import annotations

from legalis.model.coin.state import CoinState

__all__ = ["CASUALTIES", "CASUALTY_TRACK", "TO_CASUALTIES", "add_losses"]

CASUALTIES = "Casualties"
TO_CASUALTIES = ("british_regular", "tory", "french_regular", "continental")
CASUALTY_TRACK = {
    "british_regular": "cbc",
    "tory": "cbc",
    "british_fort": "cbc",
    "french_regular": "crc",
    "continental": "crc",
    "patriot_fort": "crc",
}


def add_losses(state: CoinState, piece: str, n: int) -> tuple[str, str | None]:
    """Put ``n`` removed pieces of ``piece`` (already taken off the map) where they
    go, and count them on CBC/CRC; returns the box and the track (None if none)."""
    where = CASUALTIES if piece in TO_CASUALTIES else "Available"
    state.add(where, piece, n)
    track = CASUALTY_TRACK.get(piece)
    if track is not None:
        state.set_track(track, state.track(track) + n)
    return where, track
