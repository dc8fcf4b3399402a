"""The Non-player sequence of play (8.1) and its Brilliant Strokes (8.3.7): how
much of a Command a Non-player executes, falling through the flowchart past
Commands it cannot pay for, paying per space as spaces are selected, when the
Non-player French play the Treaty of Alliance, which group a Leader follows, and
whether a Command involves the Leader (8.3.7; :mod:`.turn` runs the Brilliant
Stroke itself). Each records its decision in the :class:`~.trace.Trace`; the
flowcharts themselves (8.4-8.7) supply the Commands.

>>> from legalis.model.coin.state import CoinState
>>> import random
>>> trace = Trace()
>>> leader_follows({"Boston": 3, "stay": 2, "New York": 1}, random.Random(2), trace)
'Boston'
>>> trace.steps[0].rule
'8.1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from legalis.model.coin.state import CoinState
from legalis.model.core.views import RandomSource
from legalis.model.lod.command_base import RESOURCES, Command, can_command
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "TREATY_THRESHOLD",
    "CommandScope",
    "ResourcePurse",
    "SequenceOptions",
    "command_scope",
    "first_affordable",
    "involves_leader",
    "involves_space",
    "leader_follows",
    "plays_treaty",
    "treaty_score",
]

TREATY_THRESHOLD = 15  # 8.1 Brilliant Strokes: the sum must exceed 15


@dataclass(frozen=True)
class SequenceOptions:
    """The readings taken where the Non-player sequence of play (8.1) is unclear
    (``docs/rules-questions.md``).

    ``treaty_half_rounding``: how "half of Cumulative British Casualties" counts
    toward the Treaty of Alliance score: ``"none"`` (default, as written: an odd
    CBC adds a half, so 15.5 exceeds 15) or ``"down"`` (the half rounded down).

    >>> SequenceOptions().treaty_half_rounding
    'none'
    """

    treaty_half_rounding: Literal["none", "down"] = "none"


def treaty_score(state: CoinState, options: SequenceOptions = SequenceOptions()) -> float:
    """8.1: Squadrons in the West Indies + Available French Regulars + half the
    Cumulative British Casualties (rounded per ``options.treaty_half_rounding``).

    >>> state = CoinState.new("lod")
    >>> state.set_track("cbc", 5)
    >>> treaty_score(state) - state.available("french_regular")
    2.5
    >>> treaty_score(state, SequenceOptions("down")) - state.available("french_regular")
    2
    """
    squadrons = state.markers("West Indies", "blockade")
    casualties = state.track("cbc")
    half = casualties // 2 if options.treaty_half_rounding == "down" else casualties / 2
    return squadrons + state.available("french_regular") + half


def plays_treaty(
    state: CoinState,
    *,
    eligible: bool,
    winter_quarters_showing: bool,
    trace: Trace | None = None,
    options: SequenceOptions = SequenceOptions(),
) -> bool:
    """8.1: a Non-player French plays the Treaty of Alliance as soon as it is
    Eligible (1st or 2nd Eligible or not), the score of :func:`treaty_score` exceeds
    15, and no Winter Quarters card is showing; never once it has been played.

    >>> state = CoinState.new("lod")
    >>> plays_treaty(state, eligible=True, winter_quarters_showing=False)
    False
    >>> state.set_track("cbc", 40)
    >>> plays_treaty(state, eligible=True, winter_quarters_showing=False)
    True
    """
    score = treaty_score(state, options)
    plays = (
        not state.flag("toa_played")
        and eligible
        and not winter_quarters_showing
        and score > TREATY_THRESHOLD
    )
    if trace is not None:
        why = (
            f"score {score:g} (Squadrons in WI + Available French Regulars + CBC/2), "
            f"eligible {eligible}, Winter Quarters showing {winter_quarters_showing}"
        )
        trace.step("8.1", f"Treaty of Alliance: {why}", ["play", "hold"],
                   "play" if plays else "hold")  # fmt: skip
    return plays


def leader_follows(groups: Mapping[str, int], rng: RandomSource, trace: Trace) -> str:
    """8.1 Non-player Leader Movement: the Leader goes with the largest group of its
    own Faction's units moving from (or staying in) its space; ``groups`` maps each
    destination (or ``"stay"``) to the group's size. Equal largest groups: a random
    one, from the injected source.
    """
    if not groups:
        raise ValueError("no group to follow")
    largest = max(groups.values())
    tied = sorted(g for g, size in groups.items() if size == largest)
    chosen = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
    how = "the largest group" + (f", random among {len(tied)} equal" if len(tied) > 1 else "")
    trace.step("8.1", f"Leader follows {how}", sorted(groups), chosen)
    return chosen


# ---------------------------------------------------------------------- how much


@dataclass(frozen=True)
class CommandScope:
    """How a Non-player executes a Command it is given: ``limited`` (at most one
    space or destination), whether a Special Activity goes with it, and ``free``."""

    limited: bool
    special_activity: bool
    free: bool


def command_scope(
    *, limited_by_sequence: bool, free_by_event: bool, event_grants_special: bool, trace: Trace
) -> CommandScope:
    """8.1 Commands Not Limited: a Limited Command due by the sequence of play (2.3.4)
    becomes a full Command and Special Activity; a free Limited Command granted by an
    Event (5.3) stays Limited, in one space at most, with no Special Activity unless
    the Event grants one too.

    >>> command_scope(limited_by_sequence=True, free_by_event=False,
    ...               event_grants_special=False, trace=Trace())
    CommandScope(limited=False, special_activity=True, free=False)
    >>> command_scope(limited_by_sequence=False, free_by_event=True,
    ...               event_grants_special=False, trace=Trace())
    CommandScope(limited=True, special_activity=False, free=True)
    """
    if free_by_event:
        scope = CommandScope(True, event_grants_special, True)
        why = "a free Limited Command from an Event: one space, Special Activity only if granted"
    else:
        scope = CommandScope(False, True, False)
        why = ("a Limited Command by the sequence of play: a full Command and Special Activity"
               if limited_by_sequence else "a Command and Special Activity")  # fmt: skip
    trace.step("8.1", why, ["limited", "full"], "limited" if scope.limited else "full")
    return scope


# ---------------------------------------------------------------------- paying


def first_affordable(
    state: CoinState,
    faction: str,
    chain: Sequence[str],
    trace: Trace,
    *,
    scope: CommandScope | None = None,
) -> str | None:
    """8.1 Paying Resource Costs: the first Command of ``chain`` (the flowchart's
    Command and its "IF NONE" fall-throughs, in order) that the Faction can execute
    now and afford, an allied Faction's share included (Scout needs a British
    Resource too, 3.4.3); None when none can. Each one passed over is traced with
    the reason.

    >>> from legalis.model.lod import commands  # the table of Commands
    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.set_track("french_resources", 1)
    >>> trace = Trace()
    >>> first_affordable(state, "french", ["muster", "hortalez"], trace)
    'hortalez'
    >>> trace.steps[0].what
    'muster passed over: no Muster now: nothing qualifies'
    """
    scope = scope or CommandScope(False, True, False)
    for command in chain:
        refused = can_command(state, faction, command, limited=scope.limited, free=scope.free)
        if refused is None:
            trace.step("8.1", f"{command}: can be executed and paid for", chain, command)
            return command
        trace.step("8.1", f"{command} passed over: {refused.reason}", chain, None)
    return None


class ResourcePurse:
    """8.1 Paying Resource Costs: a Non-player pays as it selects each space, so its
    selection stops where its Resources do. ``take`` says whether the next space can
    be paid for and, if so, pays (on the purse, not the state: the Command's move
    pays once applied).

    >>> state = CoinState.new("lod")
    >>> state.set_track("patriots_resources", 2)
    >>> purse = ResourcePurse(state, "patriots", free=False)
    >>> [purse.take() for _ in range(3)], purse.spent
    ([True, True, False], 2)
    """

    def __init__(self, state: CoinState, faction: str, *, free: bool) -> None:
        self.free = free
        self.left = state.track(RESOURCES[faction])
        self.spent = 0

    def take(self, cost: int = 1) -> bool:
        if self.free:
            return True
        if cost > self.left:
            return False
        self.left -= cost
        self.spent += cost
        return True


# ---------------------------------------------------------------------- 8.3.7


def involves_leader(state: CoinState, faction: str, move: Command) -> bool:
    """Whether a Limited Command can involve the Faction's Leader (8.3.7): a space it
    selects, or a space pieces move from or to, holds the Leader.

    >>> state = CoinState.new("lod")
    >>> state.set_leader("Washington", "Boston")
    >>> involves_leader(state, "patriots", Command("patriots", "rally", ("Boston",)))
    True
    """
    leaders = [leader.name for leader in state.rules.data.leaders if leader.faction == faction]
    return any(involves_space(move, str(state.leader(name))) for name in leaders)


def involves_space(move: Command, space: str) -> bool:
    """Whether ``move`` selects ``space`` or moves pieces from it (8.3.7: a Command
    "executed in or starting from" the Leader's space).

    >>> involves_space(Command("british", "march", ("New Jersey",),
    ...                moves=(("New York City", "New Jersey", "british_regular", 5),)),
    ...                "New York City")
    True
    """
    return space in move.spaces or any(origin == space for origin, *_ in move.moves)
