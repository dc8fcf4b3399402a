"""The Command and Special Activity half of a Non-player flowchart (8.4-8.7): a
:class:`TurnContext` that carries out each move as the flowchart picks it, on the
state as it stands, and a runner that follows the flowchart's boxes through their
"IF NONE" fall-throughs.

Every move a flowchart makes goes through the legal-move checks of the model
(:func:`~legalis.model.lod.command_base.command_refusal`,
:func:`~legalis.model.lod.special.special_refusal`): a refused move raises
:class:`~legalis.model.errors.IllegalMoveError`, it is never carried out. Each
:class:`TurnStep` keeps the faces of the dice it used, so :func:`replay_turn`
carries the same moves out again from the first state and must reach the same last
one.

A Limited Command (``context.scope.limited``) acts in one space or towards one
destination; a Special Activity goes with it only when ``context.special_allowed``
(the scope allows one and the Faction used none yet); the first Command of a
Brilliant Stroke is bound to the Leader's space (``context.bound``, 8.3.7).

A box is a function of the context returning ``None`` once it executed, or the
name of the box the flowchart goes to instead (``"pass"``: the Faction Passes,
2.3.3). Reaching a box a second time in one turn is a Pass too: two boxes that
each fall through to the other ("IF NONE: Muster", "IF NONE: March") have nothing
left to try.

>>> from legalis.model.coin.scenarios import load_scenario
>>> from legalis.model.core.randomness import LoggedRandom
>>> state = load_scenario("lod", "1775")
>>> context = TurnContext(state, "french", LoggedRandom(0))
>>> boxes = {"first": lambda c: "second", "second": lambda c: "first"}
>>> run_boxes(context, boxes, "first")
>>> context.passed
'8.1: first, second each fell through'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.errors import IllegalMoveError
from legalis.model.lod.battle import (
    BattleChoice,
    BattleOptions,
    BattleResult,
    BlockadeShift,
    DieSource,
    FixedDice,
    FollowUp,
    apply_blockade_shift,
)
from legalis.model.lod.command_base import CommandOptions, carry_out_command
from legalis.model.lod.commands import Command, apply_command, command_refusal, fight_battles
from legalis.model.lod.special import SpecialActivity, apply_special, special_during
from legalis.solver.nonplayer.leaders import follow_largest_groups
from legalis.solver.nonplayer.sequence import CommandScope, involves_space
from legalis.solver.nonplayer.trace import Trace

__all__ = [
    "PASS",
    "Box",
    "Turn",
    "TurnContext",
    "TurnStep",
    "replay_turn",
    "run_boxes",
]

PASS = "pass"  # 2.3.3
FULL_COMMAND = CommandScope(limited=False, special_activity=True, free=False)  # 8.1


@dataclass(frozen=True)
class TurnStep:
    """One move carried out: a Command (for a Battle, the sides' decisions in each
    space), a Special Activity, or the French Blockade move a Battle won offers
    (3.6.8); the dice faces it used, in order; its log. ``during``: a Special
    Activity carried out between the Command's ``before`` spaces and its others
    (4.1). ``checked_on``: the state the model's own refusal accepted ``move`` on,
    for a Command or Special Activity carried out by itself (a game at an equal
    state need not ask again)."""

    move: Command | SpecialActivity | BlockadeShift
    decisions: tuple[BattleChoice, ...] = ()
    dice: tuple[int, ...] = ()
    log: tuple[str, ...] = ()
    during: SpecialActivity | None = None
    before: tuple[str, ...] = ()
    checked_on: CoinState | None = field(default=None, compare=False, repr=False)

    @property
    def specials(self) -> tuple[SpecialActivity, ...]:
        """The Special Activities this step carried out."""
        if isinstance(self.move, SpecialActivity):
            return (self.move,)
        return () if self.during is None else (self.during,)

    def to_json(self) -> dict[str, Any]:
        body = self.move.to_json()
        if self.decisions:
            body["decisions"] = [choice.to_json() for choice in self.decisions]
        if self.during is not None:
            body["during"] = {"before": list(self.before), **self.during.to_json()}
        if self.dice:
            body["dice"] = list(self.dice)
        return body


@dataclass
class Turn:
    """What a Non-player did: the moves in order, the state after them, the trace,
    and ``passed`` (why, with the paragraph) when it Passed instead."""

    faction: str
    steps: list[TurnStep]
    state: CoinState
    trace: Trace
    passed: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "steps": [step.to_json() for step in self.steps],
            "passed": self.passed,
            "trace": self.trace.to_json(),
        }


@dataclass
class TurnContext:
    """A Non-player's turn under way: the state as it now stands (``state``), the
    one it started from (``start``), the dice, the trace, how much of a Command it
    executes (``scope``, 8.1), the Factions people play (``players``, 8.3.5), the
    readings of unclear rules, and the moves made so far.

    ``special_used`` says whether a Special Activity was executed this turn (so a
    flowchart's "if no Special Activity was used" can be asked). ``defend``, when
    given, fills in the defenders' side of each Battle decision (a Non-player
    defender's own paragraph, as 8.7.9). ``bound``, when given, is the Leader's
    space the first Command of a Brilliant Stroke must involve (8.3.7): the boxes
    select only that space, or move pieces only from it. ``dice``, when given,
    rolls the Battles' and Special Activities' dice instead of ``rng`` (a whole game
    takes them from the card's roll, while the flowchart's own random choices stay
    with ``rng``); the steps then keep no faces.
    """

    state: CoinState
    faction: str
    rng: LoggedRandom
    trace: Trace = field(default_factory=Trace)
    scope: CommandScope = FULL_COMMAND
    players: Sequence[str] = ()
    command_options: CommandOptions | None = None
    battle_options: BattleOptions | None = None
    defend: Callable[[CoinState, BattleChoice], BattleChoice] | None = None
    bound: str | None = None
    dice: DieSource | None = None
    steps: list[TurnStep] = field(default_factory=list)
    passed: str | None = None
    start: CoinState = field(init=False)
    # the Commands the model accepted (admits), each with the state it was asked on
    _admitted: dict[Command, CoinState] = field(init=False, default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.start = self.state

    # ---------------------------------------------------------------- how much

    def space_limit(self, most: int) -> int:
        """How many spaces a box may select: its own ``most``, or one when the
        Command is Limited (2.3.5, 8.1)."""
        return 1 if self.scope.limited else most

    @property
    def special_allowed(self) -> bool:
        """Whether a Special Activity may go with this Command (8.1, 2.3.5) and
        none was used yet (4.1: one per Command)."""
        return self.scope.special_activity and not self.special_used

    @property
    def special_used(self) -> bool:
        return any(
            special.faction == self.faction for step in self.steps for special in step.specials
        )

    @property
    def commands(self) -> list[Command]:
        return [step.move for step in self.steps if isinstance(step.move, Command)]

    def stamp(self, move: Command) -> Command:
        """``move`` as this turn executes it: Limited and free where the scope says so
        (a move already marked Limited or free, as a free Rally after Winning the Day,
        stays so)."""
        limited, free = move.limited or self.scope.limited, move.free or self.scope.free
        if (move.limited, move.free) == (limited, free):
            return move
        return replace(move, limited=limited, free=free)

    def within_bound(self, spaces: Iterable[str]) -> list[str]:
        """The ``spaces`` this Command may select or move pieces from: all of them,
        or only the Leader's space of ``bound`` (8.3.7)."""
        return [space for space in spaces if self.bound is None or space == self.bound]

    def admits(self, move: Command) -> bool:
        """Whether the model accepts ``move`` as this turn would carry it out, and it
        involves the ``bound`` space if there is one (8.3.7)."""
        stamped = self.stamp(move)
        if self.bound is not None and not involves_space(stamped, self.bound):
            return False
        if command_refusal(self.state, stamped, options=self.command_options) is not None:
            return False
        self._admitted[stamped] = self.state
        return True

    # ---------------------------------------------------------------- dice

    def roll(self, sides: int, rule: str, what: str) -> int:
        """A die of ``sides`` faces, traced under ``rule``."""
        face = self.rng.randrange(sides) + 1
        self.trace.step(rule, f"{what}: 1D{sides}", [], face, dice=[face])
        return face

    @property
    def die_source(self) -> DieSource:
        return self.rng if self.dice is None else self.dice

    def _dice_since(self, mark: int) -> tuple[int, ...]:
        if self.dice is not None:
            return ()
        return tuple(
            int(str(result)) + 1 for kind, result in self.rng.log[mark:] if kind == "randrange"
        )  # fmt: skip

    # ---------------------------------------------------------------- moves

    def command(self, move: Command) -> Command:
        """Carry out a Command other than Battle (refused: IllegalMoveError)."""
        move = self.stamp(move)
        if move.name == "battle":
            raise IllegalMoveError("a Battle is fought with battle()", rule="3.6")
        if not move.leaders:
            move = follow_largest_groups(self.state, move, self.rng, self.trace, self.players)
        if self._admitted.get(move) is self.state:  # admits() has just checked it here
            result = carry_out_command(self.state, move, options=self.command_options)
        else:
            result = apply_command(self.state, move, options=self.command_options)
        self.steps.append(TurnStep(move, log=result.log, checked_on=self.state))
        self.state = result.state
        return move

    def battle(
        self, move: Command, decisions: Mapping[str, BattleChoice] | None = None
    ) -> tuple[BattleResult, ...]:
        """Pay for and fight a Battle Command in each of its spaces (3.6), with the
        sides' ``decisions`` per space (default: none taken)."""
        move = self.stamp(move)
        if self.defend is not None:
            given = decisions or {}
            decisions = {
                space: self.defend(self.state, given.get(space, BattleChoice(
                    space, move.faction, ally_pays=space in move.allied)))
                for space in move.spaces
            }  # fmt: skip
        mark = len(self.rng.log)
        done, fought = fight_battles(self.state, move, self.die_source, decisions,
                                     self.battle_options)  # fmt: skip
        chosen = tuple((decisions or {})[s] for s in move.spaces if s in (decisions or {}))
        self.steps.append(TurnStep(move, chosen, self._dice_since(mark), done.log))
        self.state = done.state
        return fought

    def special(self, move: SpecialActivity) -> SpecialActivity:
        """Carry out a Special Activity (refused: IllegalMoveError)."""
        mark = len(self.rng.log)
        result = apply_special(self.state, move, self.die_source)
        self.steps.append(TurnStep(move, dice=self._dice_since(mark), log=result.log,
                                   checked_on=self.state))  # fmt: skip
        self.state = result.state
        return move

    def command_during(
        self, move: Command, before: Sequence[str], special: SpecialActivity
    ) -> Command:
        """Carry out ``move``'s ``before`` spaces, then ``special``, then its other
        spaces (4.1 "during"; refused: IllegalMoveError), as one step."""
        move = follow_largest_groups(self.state, self.stamp(move), self.rng, self.trace,
                                     self.players)  # fmt: skip
        mark = len(self.rng.log)
        first, mid, rest = special_during(self.state, move, tuple(before), special, self.die_source,
                                          self.command_options)  # fmt: skip
        log = (*first.log, *mid.log, *rest.log)
        self.steps.append(TurnStep(move, dice=self._dice_since(mark), log=log, during=special,
                                   before=tuple(before)))  # fmt: skip
        self.state = rest.state
        return move

    def shift_blockades(self, offer: FollowUp, move: BlockadeShift) -> BlockadeShift:
        """Move Blockades as a Rebellion Win the Day in a City offers (3.6.8;
        refused: IllegalMoveError)."""
        self.state, log = apply_blockade_shift(self.state, offer, move)
        self.steps.append(TurnStep(move, log=log))
        return move

    def pass_turn(self, why: str) -> None:
        self.passed = why
        self.trace.step("2.3.3", f"Pass: {why}", [], "pass")

    def finish(self) -> Turn:
        return Turn(self.faction, list(self.steps), self.state, self.trace, self.passed)


Box = Callable[[TurnContext], str | None]
"""One box of a flowchart: None once it executed, else the box to go to instead."""


def run_boxes(context: TurnContext, boxes: Mapping[str, Box], first: str) -> None:
    """Follow the flowchart from ``first``: each box executes or names the next
    (its "IF NONE" or "unable to execute" re-route); ``"pass"`` or a box reached a
    second time ends the turn with a Pass."""
    tried: list[str] = []
    box: str | None = first
    while box is not None:
        if box == PASS:
            context.pass_turn(f"8.1: {', '.join(tried)} could not be executed")
            return
        if box in tried:
            context.pass_turn(f"8.1: {', '.join(tried)} each fell through")
            return
        tried.append(box)
        following = boxes[box](context)
        if following is not None:
            context.trace.step("8.1", f"{box} not executed: on to {following}",
                               [box], following)  # fmt: skip
        box = following


def replay_turn(
    start: CoinState,
    turn: Turn,
    *,
    command_options: CommandOptions | None = None,
    battle_options: BattleOptions | None = None,
) -> CoinState:
    """Carry the turn's moves out again from ``start`` with the dice each used; the
    legal-move checks run on every one (a refused move raises)."""
    state = start
    offers: dict[str, FollowUp] = {}  # the Blockade moves the Battles so far offer
    for step in turn.steps:
        dice = FixedDice(step.dice)
        if isinstance(step.move, SpecialActivity):
            state = apply_special(state, step.move, dice).state
        elif step.during is not None:
            assert isinstance(step.move, Command)
            parts = special_during(state, step.move, step.before, step.during, dice,
                                   command_options)  # fmt: skip
            state = parts[2].state
        elif isinstance(step.move, BlockadeShift):
            offer = offers.get(step.move.source)
            if offer is None:
                raise IllegalMoveError(f"no Battle won in {step.move.source}", rule="3.6.8")
            state = apply_blockade_shift(state, offer, step.move)[0]
        elif step.move.name == "battle":
            decisions = {choice.space: choice for choice in step.decisions}
            done, fought = fight_battles(state, step.move, dice, decisions, battle_options)
            state = done.state
            offers.update(
                (f.space, f)
                for result in fought
                for f in result.follow_ups
                if f.action == "move_blockade"
            )
        else:
            state = apply_command(state, step.move, options=command_options).state
    return state
