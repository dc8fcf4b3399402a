"""A Liberty or Death Non-player's whole turn on a card (8.1, 8.3-8.7): the Event
or Command box, then, when the Event is not played, the Command and Special
Activity the Faction's flowchart picks (or a Pass); and the Non-player Brilliant
Strokes (8.3.7 with 8.4.11, 8.5.8, 8.6.11, 8.7.8).

>>> from legalis.model.coin.deck import bundled_deck
>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> state = load_scenario("lod", "1775")
>>> decided = nonplayer_turn(state, bundled_deck("lod").card(13), "patriots", LoggedRandom(1))
>>> decided.choice in ("event", "command", "pass")
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from legalis.model.coin.deck import Card
from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.lod.battle import BattleChoice, DieSource
from legalis.model.lod.command_base import RESOURCES, Command
from legalis.solver.nonplayer.board import count, leader_space, side_of
from legalis.solver.nonplayer.british import british_command
from legalis.solver.nonplayer.event_choice import EVENT_BOXES
from legalis.solver.nonplayer.events import NonplayerEvent, nonplayer_event
from legalis.solver.nonplayer.flowchart import FULL_COMMAND, Turn, TurnContext
from legalis.solver.nonplayer.french import french_command
from legalis.solver.nonplayer.indians import defending_activations, indians_command
from legalis.solver.nonplayer.options import NonplayerOptions
from legalis.solver.nonplayer.patriots import patriots_command
from legalis.solver.nonplayer.sequence import CommandScope, involves_leader
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "FLOWCHARTS",
    "NonplayerTurn",
    "StrokeSituation",
    "nonplayer_brilliant_stroke",
    "nonplayer_command",
    "nonplayer_turn",
    "wants_brilliant_stroke",
]

FLOWCHARTS: dict[str, Callable[[TurnContext, NonplayerOptions], None]] = {
    "british": lambda context, options: british_command(context, options.british),
    "patriots": lambda context, options: patriots_command(context, options.patriots),
    "french": lambda context, options: french_command(context, options.french),
    "indians": lambda context, options: indians_command(context, options=options.indians),
}
# 8.4, 8.5, 8.6: with no Resources the Faction Passes; the Indians (8.7) always act.
PASS_WITHOUT_RESOURCES = {"british": "8.4", "patriots": "8.5", "french": "8.6"}
STROKE = CommandScope(limited=True, special_activity=True, free=True)  # 2.3.8: no cost


@dataclass(frozen=True)
class NonplayerTurn:
    """A Non-player's turn: the Event decision and, when it goes on to a Command,
    the :class:`~.flowchart.Turn` (moves, state after, Pass). ``choice`` is
    ``"event"``, ``"command"`` or ``"pass"``; ``state`` the state after."""

    event: NonplayerEvent
    turn: Turn | None

    @property
    def choice(self) -> str:
        if self.turn is None:
            return "event"
        return "pass" if self.turn.passed is not None else "command"

    @property
    def state(self) -> CoinState:
        return self.event.state if self.turn is None else self.turn.state

    @property
    def trace(self) -> Trace:
        return self.event.trace

    def to_json(self) -> dict[str, Any]:
        event = self.event
        body: dict[str, Any] = {
            "choice": self.choice,
            "rule": event.rule,
            "reason": event.reason,
            "side": event.side,
            "event": event.move.to_json() if event.move is not None else None,
            "steps": [] if self.turn is None else [s.to_json() for s in self.turn.steps],
            "passed": None if self.turn is None else self.turn.passed,
            "trace": self.trace.to_json(),
        }
        return body


def indians_defend(state: CoinState, choice: BattleChoice) -> BattleChoice:
    """8.7.9: Non-player Indians defending a space with a Village Activate all their
    Underground War Parties there but one."""
    if choice.attacker == "indians" or side_of(choice.attacker) == "royalist":
        return choice
    return replace(choice, activate_defender=defending_activations(state, choice.space))


def nonplayer_command(
    state: CoinState,
    faction: str,
    rng: LoggedRandom,
    *,
    trace: Trace | None = None,
    scope: CommandScope = FULL_COMMAND,
    players: Sequence[str] = (),
    options: NonplayerOptions | None = None,
    bound: str | None = None,
    dice: DieSource | None = None,
) -> Turn:
    """The Command and Special Activity the Faction's flowchart picks and carries
    out (8.4-8.7), or its Pass; with no Resources the British, Patriots and French
    Pass at once (the Indians' Commands can be free, 8.7). ``bound``: a space the
    Command must be executed in or start from (8.3.7).

    >>> from legalis.model.coin.scenarios import load_scenario
    >>> state = load_scenario("lod", "1775")
    >>> state.set_track("french_resources", 0)
    >>> nonplayer_command(state, "french", LoggedRandom(0)).passed
    '8.6: the french have no Resources'
    """
    chosen = options or NonplayerOptions()
    context = TurnContext(state, faction, rng, trace or Trace(), scope, players,
                          chosen.command, chosen.battle,
                          defend=None if "indians" in players else indians_defend,
                          bound=bound, dice=dice)  # fmt: skip
    rule = PASS_WITHOUT_RESOURCES.get(faction)
    if rule is not None and not scope.free and state.track(RESOURCES[faction]) == 0:
        context.pass_turn(f"{rule}: the {faction} have no Resources")
    else:
        FLOWCHARTS[faction](context, chosen)
    return context.finish()


def nonplayer_turn(
    state: CoinState,
    card: Card,
    faction: str,
    rng: LoggedRandom,
    *,
    players: Iterable[str] = (),
    trace: Trace | None = None,
    options: NonplayerOptions | None = None,
    dice: DieSource | None = None,
) -> NonplayerTurn:
    """The Non-player's turn on ``card``: the Event if its box says so (8.3-8.7),
    else the flowchart's Command and Special Activity (a Limited Command due by
    the sequence of play is executed in full, 8.1), under the named readings of
    ``options`` (the recorded defaults when None)."""
    humans = tuple(players)
    decided = nonplayer_event(state, card, faction, rng, trace, players=humans,
                              wants_event=EVENT_BOXES[faction])  # fmt: skip
    if decided.choice == "event":
        return NonplayerTurn(decided, None)
    turn = nonplayer_command(state, faction, rng, trace=decided.trace, players=humans,
                             options=options, dice=dice)  # fmt: skip
    return NonplayerTurn(decided, turn)


# ---------------------------------------------------------------------- 8.3.7


@dataclass(frozen=True)
class StrokeSituation:
    """What 8.3.7 and the Faction's paragraph ask about the moment: whether the
    Faction is Eligible, a Winter Quarters card is showing, who is 1st Eligible,
    which Factions people play, and which Brilliant Strokes were just played
    (by Faction; the French Treaty of Alliance as ``"treaty"``)."""

    eligible: bool
    winter_quarters_showing: bool
    first_eligible: str | None
    players: tuple[str, ...] = ()
    strokes_played: tuple[str, ...] = ()


# 8.4.11, 8.5.8, 8.6.11, 8.7.8: (paragraph, the Leader's own pieces, how many)
STROKE_LEADER_STACK = {
    "british": ("8.4.11", ("british_regular",), 4),
    "patriots": ("8.5.8", ("continental",), 4),
    "french": ("8.6.11", ("french_regular",), 4),
    "indians": ("8.7.8", ("war_party",), 3),
}
REBELLION = ("patriots", "french")


def _stroke_trigger(faction: str, situation: StrokeSituation) -> bool:
    first_player = situation.first_eligible in situation.players
    played = situation.strokes_played
    if faction == "british":  # 8.4.11: a Rebellion player 1st Eligible, or the Patriots' card
        return (first_player and situation.first_eligible in REBELLION) or "patriots" in played
    if faction == "patriots":  # 8.5.8: a player Faction 1st Eligible
        return first_player
    if faction == "french":  # 8.6.11: a player 1st Eligible, or the British card
        return first_player or "british" in played
    # 8.7.8: a player 1st Eligible, or a Rebellion Brilliant Stroke other than the Treaty
    return first_player or any(f in played for f in REBELLION)


def wants_brilliant_stroke(
    state: CoinState, faction: str, situation: StrokeSituation, trace: Trace
) -> bool:
    """Whether a Non-player plays its Brilliant Stroke now: the Treaty of Alliance
    played, the Faction Eligible, no Winter Quarters card showing (8.3.7), its
    Leader with enough of its pieces and the trigger of its paragraph.

    >>> from legalis.model.coin.state import CoinState
    >>> state = CoinState.new("lod")
    >>> state.set_flag("toa_played")
    >>> state.set_leader("Washington", "Boston")
    >>> state.move_pieces("Available", "Boston", "continental", 4)
    >>> now = StrokeSituation(True, False, "british", players=("british",))
    >>> wants_brilliant_stroke(state, "patriots", now, Trace())
    True
    """
    rule, kinds, most = STROKE_LEADER_STACK[faction]
    where = leader_space(state, faction)
    stack = 0 if where is None else count(state, where, kinds)
    checks = {
        "8.3.7: Treaty of Alliance played": state.flag("toa_played"),
        "8.3.7: Eligible": situation.eligible,
        "8.3.7: no Winter Quarters card showing": not situation.winter_quarters_showing,
        f"{rule}: the Leader with {most}+ of its pieces": stack >= most,
        f"{rule}: its trigger": _stroke_trigger(faction, situation),
    }
    failed = [name for name, holds in checks.items() if not holds]
    verdict = "; ".join(failed) + " fails" if failed else "every condition holds"
    trace.step(rule, f"Brilliant Stroke? {verdict}", ["play", "hold"],
               "hold" if failed else "play")  # fmt: skip
    return not failed


def nonplayer_brilliant_stroke(
    state: CoinState,
    faction: str,
    rng: LoggedRandom,
    *,
    trace: Trace | None = None,
    players: Sequence[str] = (),
    options: NonplayerOptions | None = None,
    dice: DieSource | None = None,
) -> Turn:
    """8.3.7: the flowchart picks the first Limited Command among those executed in
    or starting from the Leader's space (``bound``; none: the Brilliant Stroke is
    aborted, a Pass with nothing done), with the Special Activity matched to it;
    then the flowchart picks the second Limited Command on the state after.
    Brilliant Stroke Commands cost nothing (2.3.8)."""
    trace = trace or Trace()
    leader = leader_space(state, faction)
    if leader is None:
        trace.step("8.3.7", "the Leader is not on the map: aborted", ["play", "abort"], "abort")
        return Turn(faction, [], state, trace, "8.3.7: the Brilliant Stroke is aborted")
    first = nonplayer_command(state, faction, rng, trace=trace, scope=STROKE, players=players,
                              options=options, bound=leader, dice=dice)  # fmt: skip
    commands = [step.move for step in first.steps if isinstance(step.move, Command)]
    leading = bool(commands) and involves_leader(state, faction, commands[0])
    if not leading:
        trace.step("8.3.7", "no Limited Command involving the Leader: aborted",
                   ["play", "abort"], "abort")  # fmt: skip
        return Turn(faction, [], state, trace, "8.3.7: the Brilliant Stroke is aborted")
    after_scope = CommandScope(limited=True, special_activity=False, free=True)
    second = nonplayer_command(first.state, faction, rng, trace=trace, scope=after_scope,
                               players=players, options=options, dice=dice)  # fmt: skip
    return Turn(faction, [*first.steps, *second.steps], second.state, trace)
