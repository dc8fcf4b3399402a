"""Liberty or Death victory (chapter 7) and the one-player victory of the
Non-player rules (8.8).

A Faction has two victory conditions. At a Victory Check (7.2) each has a margin,
how far the Faction is beyond (positive) or short of it; a Faction wins when both
are positive (the French also need the Treaty of Alliance). After the final Winter
Quarters Round (7.3) the two are netted into one total margin and the highest wins.

>>> from legalis.model.coin.scenarios import load_scenario
>>> state = load_scenario("lod", "1775")
>>> state.total_support(), state.total_opposition()  # 7.2: needs a lead of 11
(4, 4)
>>> check_margins(state)["british"]
(-10, 0)
>>> total_margins(state)["patriots"]  # 7.3: 4 - 4 + one Fort + 3 - no Village
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from legalis.model.coin.state import CoinState
from legalis.model.errors import InputError

__all__ = [
    "FACTIONS",
    "OnePlayerOptions",
    "OnePlayerResult",
    "check_margins",
    "check_winners",
    "final_ranking",
    "one_player_check",
    "one_player_final",
    "total_margins",
]

FACTIONS = ("british", "patriots", "french", "indians")
MARGIN_OVER = 10  # 7.2: Support or Opposition must exceed the other by more than 10
BASE_GAP = 3  # 7.2: Patriot Forts + 3 against Villages, Villages - 3 against Forts
# 7.1: ties go to Non-players, then the Patriots, British, French and Indians
TIE_ORDER = ("patriots", "british", "french", "indians")
# 8.8: among Non-players, ties go to the French, then the Indians, then the Patriots
NONPLAYER_TIE_ORDER = ("french", "indians", "patriots", "british")
STALEMATE_MOST = 5  # 8.8: a lead of 5 or less is a stalemate; 6 or more a victory


def _counts(state: CoinState) -> tuple[int, int, int, int, int]:
    support, opposition = state.total_support(), state.total_opposition()
    forts = sum(state.pieces(s, "patriot_fort") for s in state.rules.spaces)
    villages = sum(state.pieces(s, "village") for s in state.rules.spaces)
    return support, opposition, forts, villages, state.track("crc") - state.track("cbc")


def check_margins(state: CoinState) -> dict[str, tuple[int, int]]:
    """Each Faction's two Victory Check margins (7.2): positive means the condition
    is met, by how much.

    >>> state = CoinState.new("lod")
    >>> state.set_track("cbc", 4)
    >>> check_margins(state)["french"]
    (-10, 4)
    """
    support, opposition, forts, villages, crc_lead = _counts(state)
    royal, rebel = support - opposition - MARGIN_OVER, opposition - support - MARGIN_OVER
    return {
        "british": (royal, crc_lead),
        "patriots": (rebel, forts + BASE_GAP - villages),
        "french": (rebel, -crc_lead),
        "indians": (royal, villages - BASE_GAP - forts),
    }


def check_winners(state: CoinState) -> list[str]:
    """The Factions passing a Victory Check now (7.2): both margins positive, and for
    the French the Treaty of Alliance played.

    >>> state = CoinState.new("lod")
    >>> for city in ("Boston", "New York City", "Philadelphia", "Charles Town", "Norfolk"):
    ...     state.set_support(city, "active_opposition")  # Opposition 12, Support 0
    >>> state.set_track("cbc", 1)
    >>> check_winners(state)
    ['patriots']
    >>> state.set_flag("toa_played")
    >>> check_winners(state)
    ['patriots', 'french']
    """
    found = []
    for faction, (first, second) in check_margins(state).items():
        if first > 0 and second > 0 and (faction != "french" or state.flag("toa_played")):
            found.append(faction)
    return found


def total_margins(state: CoinState) -> dict[str, int]:
    """Each Faction's total victory margin after the final Round (7.3): its two
    conditions netted, with no threshold.

    >>> total_margins(CoinState.new("lod"))["patriots"]
    3
    """
    support, opposition, forts, villages, crc_lead = _counts(state)
    return {
        "british": support - opposition + crc_lead,
        "patriots": opposition - support + forts + BASE_GAP - villages,
        "french": opposition - support - crc_lead,
        "indians": support - opposition + villages - BASE_GAP - forts,
    }


def final_ranking(state: CoinState, players: Iterable[str] = ()) -> list[str]:
    """The Factions in order after the final Round (7.1, 7.3): highest total margin
    first, ties to Non-players, then Patriots, British, French, Indians; without the
    Treaty of Alliance the French come last.

    >>> final_ranking(CoinState.new("lod"), players=["patriots"])  # margins 0, 3, 0, -3
    ['patriots', 'british', 'indians', 'french']
    """
    humans = set(_factions(players))
    margins = total_margins(state)

    def key(faction: str) -> tuple[bool, int, bool, int]:
        last = faction == "french" and not state.flag("toa_played")
        return last, -margins[faction], faction in humans, TIE_ORDER.index(faction)

    return sorted(FACTIONS, key=key)


# ---------------------------------------------------------------------- 8.8


@dataclass(frozen=True)
class OnePlayerOptions:
    """``difficulty``: the One-Player Difficulty Option (8.8): from the second Winter
    Quarters Round on, a player Faction must not have a lower margin than any
    Non-player at a Victory Phase. ``margin``: which margin ranks the Non-players
    and the player at a Victory Phase, ``"total"`` (the two netted, 7.3; default)
    or ``"lower"`` (the lower of the Faction's two Victory Check margins)."""

    difficulty: bool = False
    margin: Literal["total", "lower"] = "total"


@dataclass(frozen=True)
class OnePlayerResult:
    """The one-player outcome: ``"continue"`` (a Victory Phase passed), a
    ``"nonplayer"`` victory (``winner`` names the Faction), a ``"stalemate"`` or a
    ``"player"`` victory; ``lead`` is the lowest player margin less the highest
    Non-player margin where it was measured; ``rule`` and ``reason`` say why."""

    outcome: str
    winner: str | None
    lead: int | None
    rule: str
    reason: str


def _factions(names: Iterable[str]) -> list[str]:
    out = []
    for name in names:
        if name not in FACTIONS:
            raise InputError(f"no Faction {name!r}", path="players", allowed=FACTIONS)
        out.append(name)
    return out


def _lone_player(state: CoinState, players: Iterable[str]) -> list[str]:
    """8.8: one Faction, or the two Factions of one side."""
    chosen = sorted(set(_factions(players)))
    sides = {state.rules.data.faction(f).side for f in chosen}
    if len(chosen) == 1 or (len(chosen) == 2 and len(sides) == 1):
        return chosen
    raise InputError("a lone player plays one Faction or both of one side (8.8)",
                     path="players", allowed=FACTIONS)  # fmt: skip


def _margins(state: CoinState, options: OnePlayerOptions) -> dict[str, int]:
    if options.margin == "total":
        return total_margins(state)
    return {f: min(pair) for f, pair in check_margins(state).items()}


def _best_nonplayer(state: CoinState, nonplayers: list[str], margins: Mapping[str, int]) -> str:
    """8.8: the Non-player with the highest margin, ties to the French, Indians,
    Patriots; the French cannot win without the Treaty of Alliance (7.2, 7.3)."""
    able = [f for f in nonplayers if f != "french" or state.flag("toa_played")] or nonplayers
    return min(able, key=lambda f: (-margins[f], NONPLAYER_TIE_ORDER.index(f)))


def one_player_check(
    state: CoinState,
    players: Iterable[str],
    *,
    round_number: int,
    options: OnePlayerOptions | None = None,
) -> OnePlayerResult:
    """A Victory Phase of a one-player game (8.8, 7.2), ``round_number`` counting the
    Winter Quarters Rounds from 1: a Non-player passing a Victory Check wins (the
    lone player never wins here); under the Difficulty Option, from the second
    Round, so does the best Non-player when a player Faction's margin is lower.

    >>> state = CoinState.new("lod")
    >>> one_player_check(state, ["british"], round_number=1).outcome
    'continue'
    """
    chosen = options or OnePlayerOptions()
    humans = _lone_player(state, players)
    nonplayers = [f for f in FACTIONS if f not in humans]
    passing = [f for f in check_winners(state) if f in nonplayers]
    margins = _margins(state, chosen)
    if passing:
        winner = _best_nonplayer(state, passing, margins)
        return OnePlayerResult("nonplayer", winner, None, "8.8",
                               f"the {winner} pass the Victory Check (7.2)")  # fmt: skip
    lowest = min(margins[f] for f in humans)
    best = _best_nonplayer(state, nonplayers, margins)
    lead = lowest - margins[best]
    if chosen.difficulty and round_number >= 2 and lead < 0:
        why = f"Difficulty Option: a player margin is below the {best}'s"
        return OnePlayerResult("nonplayer", best, lead, "8.8", why)
    return OnePlayerResult("continue", None, lead, "8.8", "no Non-player wins; play continues")


def one_player_final(
    state: CoinState, players: Iterable[str], options: OnePlayerOptions | None = None
) -> OnePlayerResult:
    """After the final Round (8.8, 7.3): the lowest player total margin less the
    highest Non-player one. Not above 0: the best Non-player wins; 1 to 5: a
    stalemate; 6 or more: the player wins.

    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> result = one_player_final(state, ["patriots", "french"])  # 0 and 3 against 0, -3
    >>> result.outcome, result.winner, result.lead
    ('nonplayer', 'british', 0)
    """
    humans = _lone_player(state, players)
    nonplayers = [f for f in FACTIONS if f not in humans]
    margins = total_margins(state)
    best = _best_nonplayer(state, nonplayers, margins)
    if "french" in humans and not state.flag("toa_played"):
        return OnePlayerResult("nonplayer", best, None, "7.3",
                               "the French cannot win without the Treaty of Alliance")  # fmt: skip
    lead = min(margins[f] for f in humans) - margins[best]
    if lead <= 0:
        return OnePlayerResult("nonplayer", best, lead, "8.8",
                               f"the {best} have the highest margin")  # fmt: skip
    if lead <= STALEMATE_MOST:
        return OnePlayerResult("stalemate", None, lead, "8.8", f"a lead of {lead}: stalemate")
    return OnePlayerResult("player", "+".join(humans), lead, "8.8",
                           f"a lead of {lead}: the player wins")  # fmt: skip
