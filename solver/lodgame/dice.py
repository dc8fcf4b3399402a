"""The dice of one card: a stream of faces drawn from the card's :class:`Roll` seed.

Every die rolled while a card is played (a Battle's, Naval Pressure's, Trade's, an
Event's roll, the Winter Quarters Round's) is the next face of the stream, so the
seed recorded by the chance move replays them all, whoever rolls them.

>>> dice = StreamDice(7)
>>> first = [dice.randrange(6) for _ in range(3)]
>>> dice.drawn, StreamDice(7, 1).randrange(6) == first[1]
(3, True)
"""

from __future__ import annotations

import random

__all__ = ["StreamDice", "roll_total"]

_STRIDE = 1_000_003  # seeds of neighbouring draws never meet another seed's draws


class StreamDice:
    """A die source whose ``n``-th draw depends only on the seed and ``n``."""

    def __init__(self, seed: int, drawn: int = 0) -> None:
        self.seed = seed
        self.drawn = drawn

    def randrange(self, stop: int, /) -> int:
        face = random.Random(self.seed * _STRIDE + self.drawn).randrange(stop)
        self.drawn += 1
        return face


def roll_total(seed: int, index: int, dice: int) -> int:
    """The total of the ``index``-th Event roll of ``dice`` six-sided dice on a card
    (kept apart from the stream: an Event's execution is listed, not carried out,
    when its moves are counted).

    >>> 1 <= roll_total(3, 0, 1) <= 6
    True
    """
    source = random.Random(f"event-roll:{seed}:{index}")
    return sum(source.randrange(6) + 1 for _ in range(dice))
