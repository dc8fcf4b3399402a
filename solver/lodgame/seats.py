"""The Non-player seat of a whole LoD game: section 8's choices, made at each of
the game's decisions as legal moves of its view.

At a card the Faction's turn (8.1, 8.3-8.7) is worked out whole, with the card's
dice, and handed to the game one step at a time; a Brilliant Stroke by 8.3.7 and
its Faction's paragraph; the Winter Quarters choices by 8.4.5-8.7.7. Where
section 8 gives no rule (the choices of a free action an Event or the Treaty of
Alliance grants that the flowchart does not pick, a Winter Quarters card's
Event), the choice is random among the legal moves (8.3.8).

>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.solver.lodgame.game import LodGame
>>> from legalis.solver.playout import play_game
>>> game = LodGame({"scenario": "1778", "nonplayers": list(LodGame.players)})
>>> seats = {f: NonplayerSeat(game, f) for f in game.players}
>>> record = play_game(game, seats, seed=2)
>>> record.result is not None and record.decisions > 0
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from legalis.model.coin.state import CoinState
from legalis.model.core.randomness import LoggedRandom
from legalis.model.core.views import RandomSource
from legalis.model.lod.command_base import Command
from legalis.solver.lodgame.moves import Decline, Done, During, Fight, Pass, PlayEvent, Redeploy
from legalis.solver.lodgame.state import TREATY, LodState
from legalis.solver.lodgame.views import keep_event_view, refusal
from legalis.solver.nonplayer.desertion import nonplayer_desertion
from legalis.solver.nonplayer.flowchart import Turn, TurnStep
from legalis.solver.nonplayer.redeploy import nonplayer_naval_withdrawal, nonplayer_redeploy
from legalis.solver.nonplayer.sequence import CommandScope, plays_treaty
from legalis.solver.nonplayer.supply import nonplayer_supply
from legalis.solver.nonplayer.support import nonplayer_support
from legalis.solver.nonplayer.trace import Trace
from legalis.solver.nonplayer.turn import (
    StrokeSituation,
    nonplayer_brilliant_stroke,
    nonplayer_command,
    nonplayer_turn,
    wants_brilliant_stroke,
)

if TYPE_CHECKING:
    from legalis.solver.lodgame.game import LodGame

__all__ = ["NonplayerSeat", "steps_as_moves"]


Planned = tuple[Any, CoinState | None]
"""A planned move, with the state the flowchart found its Command or Special Activity
legal on under the game's options (None: not checked there)."""


def steps_as_moves(steps: list[TurnStep]) -> list[Any]:
    """A flowchart turn's steps as the game's moves, in order."""
    moves: list[Any] = []
    for step in steps:
        move = step.move
        if step.during is not None:
            assert isinstance(move, Command)
            moves.append(During(move, step.before, step.during))
        elif isinstance(move, Command) and move.name == "battle":
            moves.append(Fight(move, step.decisions))
        else:
            moves.append(move)
    return moves


def _except_done(view: Any, done: Done, rng: RandomSource) -> Any:
    """A random legal move other than ``done`` (the action's last part), or ``done``."""
    from legalis.solver.lodgame.views import ChainView

    if isinstance(view, ChainView) and len(view.parts) > 1:
        try:
            return ChainView(view.parts[:-1], view.refusal).random(rng)
        except IndexError:  # nothing else can be drawn
            return done
    return done


class NonplayerSeat:
    """Section 8's choices for ``faction``. ``fallbacks`` counts the moves it had to
    pick at random because its plan was refused by the game (none, when the model
    and the flowcharts agree)."""

    name = "nonplayer"

    def __init__(self, game: LodGame, faction: str) -> None:
        self.game = game
        self.faction = faction
        self.queue: list[Planned] = []
        self.planned: Any = None
        self.fallbacks = 0
        self.trace = Trace()

    # ------------------------------------------------------------------ the choice

    def choose(self, state: LodState, rng: RandomSource) -> Any:
        own = LoggedRandom(rng.randrange(2**31))
        if state.stage == "window":
            return self._window(state, own)
        if state.stage == "winter":
            return self._winter(state, own)
        slot = state.action.slot if state.action is not None else state.slot()
        key = (state.winters, state.card_number, state.dice_seed, slot)
        if state.stage == "choose":
            self.queue = self._card_turn(state, own)
        elif not self.queue or key != self.planned:
            self.queue = self._action_plan(state, own)
        self.planned = key
        while self.queue:
            move, checked_on = self.queue.pop(0)
            if refusal(state, move, checked_on) is None:
                return move
            self.fallbacks += 1
            self.queue = []
        return self._any(state, own)

    def _any(self, state: LodState, rng: LoggedRandom) -> Any:
        """8.3.8: a random legal move; a free action granted is taken when it can be
        (8.1: to the maximum extent), any other action ends once nothing is planned."""
        view = state.legal_moves()
        done = Done(self.faction)
        action = state.action
        if state.stage == "action" and done in view:
            if action is None or action.slot not in ("grant", "treaty"):
                return done
            return _except_done(view, done, rng)
        return view.random(rng)

    # ------------------------------------------------------------------ cards

    def _players(self, state: LodState) -> tuple[str, ...]:
        return state.players

    def _card_turn(self, state: LodState, rng: LoggedRandom) -> list[Planned]:
        card = state.card
        assert card is not None
        options = state.rules.nonplayer_options
        players = self._players(state)
        decided = nonplayer_turn(state.coin, card, self.faction, rng, players=players,
                                 options=options, dice=state.dice(), trace=Trace())  # fmt: skip
        event_allowed = state.slot() == "first" or state.first_did == "command_sa"
        turn: Turn | None = decided.turn
        if decided.choice == "event" and decided.event.move is not None:
            move = PlayEvent(decided.event.move)
            if decided.event.checked_by is not None:
                keep_event_view(state, decided.event.checked_by)
            if event_allowed and refusal(state, move) is None:
                return [(move, None)]
            turn = nonplayer_command(state.coin, self.faction, rng, players=players,
                                     options=options, dice=state.dice())  # fmt: skip
        return self._turn_moves(turn)

    def _turn_moves(self, turn: Turn | None) -> list[Planned]:
        if turn is None or turn.passed is not None or not turn.steps:
            return [(Pass(self.faction), None)]
        return self._steps_planned(turn.steps)

    def _steps_planned(self, steps: list[TurnStep]) -> list[Planned]:
        checked = [step.checked_on for step in steps]
        return [*zip(steps_as_moves(steps), checked, strict=True), (Done(self.faction), None)]

    def _action_plan(self, state: LodState, rng: LoggedRandom) -> list[Planned]:
        action = state.action
        assert action is not None
        options = state.rules.nonplayer_options
        players = self._players(state)
        if action.slot == "stroke" and action.command is None and not action.special_done:
            turn = nonplayer_brilliant_stroke(state.coin, self.faction, rng, players=players,
                                              options=options, dice=state.dice())  # fmt: skip
            return self._steps_planned(turn.steps)
        if (action.slot == "grant" and action.commands > 0 and action.command is None
                and action.names is None and action.spaces is None):  # fmt: skip
            scope = CommandScope(action.limited, action.specials > 0, True)
            turn = nonplayer_command(state.coin, self.faction, rng, scope=scope, players=players,
                                     options=options, dice=state.dice())  # fmt: skip
            return self._steps_planned(turn.steps)
        return []

    # ------------------------------------------------------------------ strokes

    def _window(self, state: LodState, rng: LoggedRandom) -> Any:
        """8.1 (the Treaty) and 8.3.7 with the Faction's paragraph: play or hold."""
        playable = state.playable_strokes(self.faction)
        options = state.rules.nonplayer_options
        if TREATY in playable and plays_treaty(state.coin, eligible=True,
                                               winter_quarters_showing=False,
                                               options=options.sequence):  # fmt: skip
            return self._stroke(TREATY)
        others = [card for card in playable if card != TREATY]
        if others:
            played = () if state.stroke is None else (
                "treaty" if state.stroke[1] == TREATY else state.stroke[0],)  # fmt: skip
            situation = StrokeSituation(True, False, state.to_ask[0] if state.to_ask else None,
                                        self._players(state), played)  # fmt: skip
            if wants_brilliant_stroke(state.coin, self.faction, situation, Trace()):
                trial = nonplayer_brilliant_stroke(state.coin, self.faction, LoggedRandom(0),
                                                   options=options, dice=state.dice())  # fmt: skip
                if trial.passed is None:  # 8.3.7: an aborted Stroke is not played
                    return self._stroke(others[0])
        return Decline(self.faction)

    def _stroke(self, card: str) -> Any:
        from legalis.solver.lodgame.moves import Stroke

        return Stroke(self.faction, card)

    # ------------------------------------------------------------------ winter

    def _winter(self, state: LodState, rng: LoggedRandom) -> Any:
        assert state.winter is not None
        due = state.winter.due[0]
        coin, trace = state.coin, self.trace
        options = state.rules.nonplayer_options
        kind = due[0]
        if kind == "supply":
            return nonplayer_supply(coin, due[1], due[2], rng, trace, options.supply)
        if kind == "support":
            return nonplayer_support(coin, due[1], rng, trace)
        if kind == "redeploy":
            return Redeploy(due[1], nonplayer_redeploy(coin, due[1], rng, trace))
        if kind == "naval":
            return nonplayer_naval_withdrawal(coin, rng, trace)
        if kind == "desertion":
            return nonplayer_desertion(coin, due[1], due[2], due[3], rng, trace)
        return state.legal_moves().random(rng)
