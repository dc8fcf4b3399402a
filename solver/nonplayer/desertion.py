"""Non-player choices in the Desertion Phase (6.6): which Tories the British
(8.4.10) and the French (8.6.10, the first Tory) remove, and which Militia and
Continentals the Patriots (8.5.7) and the Indians (8.7.6, the first of each)
remove. Pieces are taken one at a time, each by the paragraph's priorities (8.1.3)
with ties by the Random Spaces table (8.2), all traced.

>>> from legalis.model.core.randomness import LoggedRandom
>>> state = CoinState.new("lod")
>>> state.move_pieces("Available", "Boston", "tory", 3)
>>> state.move_pieces("Available", "Virginia", "tory", 1)
>>> nonplayer_desertion(state, "british", "tory", 1, LoggedRandom(0), Trace()).removed
(('Boston', 'tory', 1),)
"""

from __future__ import annotations

from collections.abc import Callable

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.winter import Desertion, desertion_refusal
from legalis.solver.nonplayer.spaces import Priority, select_spaces
from legalis.solver.nonplayer.trace import Trace

__all__ = ["nonplayer_desertion"]

PATRIOT_UNITS = ("militia", "continental")


def _status(chooser: str, state: CoinState, space: str, piece: str) -> str | None:
    """Which status of Militia goes: the Patriots remove Active before Underground
    (8.1.2, friendly); the Indians take Underground first (8.1.2, enemy)."""
    if piece != "militia":
        return None
    order = ("underground", "active") if chooser == "indians" else ("active", "underground")
    return next(s for s in order if state.pieces(space, piece, s))


def _changes_control(chooser: str, piece: str) -> Callable[[CoinState, str], bool]:
    def test(state: CoinState, space: str) -> bool:
        after = state.copy()
        after.move_pieces(space, "Available", piece, 1, _status(chooser, state, space, piece))
        return after.control(space) != state.control(space)

    return test


def _priorities(state: CoinState, chooser: str, piece: str) -> list[Priority]:
    changes = _changes_control(chooser, piece)
    population = state.rules.map.population

    def units(state: CoinState, space: str) -> int:
        return sum(state.pieces(space, p) for p in PATRIOT_UNITS)

    if chooser == "british":  # 8.4.10
        return [
            Priority("change no Control, not the last Tory",
                     lambda s, x: not changes(s, x) and s.pieces(x, "tory") > 1, rule="8.4.10"),
            Priority("change no Control", lambda s, x: not changes(s, x), rule="8.4.10"),
            Priority("not the last Tory", lambda s, x: s.pieces(x, "tory") > 1, rule="8.4.10"),
            Priority("elsewhere", lambda s, x: True, rule="8.4.10"),
        ]  # fmt: skip
    if chooser == "patriots":  # 8.5.7
        return [
            Priority("change no Control, not the last Patriot unit",
                     lambda s, x: not changes(s, x) and units(s, x) > 1, rule="8.5.7"),
            Priority("change no Control", lambda s, x: not changes(s, x), rule="8.5.7"),
            Priority("not the last Patriot unit", lambda s, x: units(s, x) > 1, rule="8.5.7"),
            Priority("elsewhere", lambda s, x: True, rule="8.5.7"),
        ]  # fmt: skip
    if chooser == "french":  # 8.6.10
        return [
            Priority("change Control of the most Population", changes,
                     lambda s, x: population(x), rule="8.6.10"),
            Priority("the last Tory, most Population, not at Active Support",
                     lambda s, x: s.pieces(x, "tory") == 1 and s.support(x) != "active_support",
                     lambda s, x: population(x), rule="8.6.10"),
            Priority("elsewhere", lambda s, x: True, rule="8.6.10"),
        ]  # fmt: skip
    return [  # 8.7.6, the Indians
        Priority("a space with a Village", lambda s, x: s.pieces(x, "village") > 0, rule="8.7.6"),
        Priority("remove Rebellion Control",
                 lambda s, x: s.control(x) == "rebellion" and changes(s, x), rule="8.7.6"),
        Priority(f"the last {piece} in a space", lambda s, x: s.pieces(x, piece) == 1,
                 rule="8.7.6"),
        Priority("elsewhere", lambda s, x: True, rule="8.7.6"),
    ]  # fmt: skip


def nonplayer_desertion(
    state: CoinState, chooser: str, piece: str, n: int, rng: LoggedRandom, trace: Trace
) -> Desertion:
    """The Non-player ``chooser``'s ``n`` deserting ``piece`` (a step of
    :func:`~legalis.model.lod.winter.desertion_steps`), one piece at a time on the
    state as it stands after the ones before."""
    work = state.copy()
    taken: dict[tuple[str, str], int] = {}
    for _ in range(n):
        candidates = [s for s in sorted(state.rules.spaces) if work.pieces(s, piece)]
        (space,) = select_spaces(work, candidates, _priorities(work, chooser, piece), 1, rng,
                                 trace)  # fmt: skip
        status = _status(chooser, work, space, piece)
        work.move_pieces(space, "Available", piece, 1, status)
        kind = f"{piece}:{status}" if status else piece
        taken[(space, kind)] = taken.get((space, kind), 0) + 1
    move = Desertion(chooser, piece, tuple(sorted((s, k, c) for (s, k), c in taken.items())))
    refused = desertion_refusal(state, move, chooser, piece, n)
    if refused is not None:  # the picks above are made among the pieces there
        raise AssertionError(f"Non-player Desertion refused: {refused.reason}")
    return move
