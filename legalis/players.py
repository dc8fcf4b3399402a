"""The ``human`` player: a person at a terminal chooses from numbered legal moves.

>>> import io
>>> from legalis.model.core.randomness import LoggedRandom
>>> from legalis.registry import load_game
>>> game = load_game("sevenyears")
>>> state, rng = game.new_initial_state(), LoggedRandom(4)
>>> state.play(state.sample_chance(rng))
>>> out = io.StringIO()
>>> player = HumanPlayer(game, io.StringIO("1 2\\n"), out)
>>> move = player.choose(state, rng)
>>> len(move.cards), move in state.legal_moves()
(2, True)
"""

from __future__ import annotations

from typing import IO, Any

from legalis.model.core.game import Game
from legalis.model.core.views import RandomSource, SubsetView
from legalis.model.errors import LegalisError

LIST_LIMIT = 60


class GameAbandoned(LegalisError):
    """The person at the terminal quit the game."""


class HumanPlayer:
    """Shows the position and the legal moves, and reads the choice from ``reader``."""

    name = "human"

    def __init__(self, game: Game, reader: IO[str], writer: IO[str]) -> None:
        self.game = game
        self.reader = reader
        self.writer = writer

    def say(self, text: str = "") -> None:
        self.writer.write(text + "\n")
        self.writer.flush()

    def ask(self, prompt: str) -> str:
        self.writer.write(prompt)
        self.writer.flush()
        line = self.reader.readline()
        if not line:
            raise GameAbandoned("input ended: the game is abandoned")
        text = line.strip()
        if text.lower() in ("q", "quit"):
            raise GameAbandoned("the game is abandoned")
        return text

    def choose(self, state: Any, rng: RandomSource) -> Any:
        view = state.legal_moves()
        self.say()
        for line in self.game.render(state, viewer=state.to_move):
            self.say(line)
        if isinstance(view, SubsetView):
            return self._choose_subset(state, view)
        moves = list(view) if view.count() <= LIST_LIMIT else None
        while True:
            if moves is not None:
                for number, move in enumerate(moves, start=1):
                    self.say(f"  {number:>3}. {self.game.describe_move(move)}")
                answer = self.ask(f"Your move, {state.to_move} (1-{len(moves)}, q quits): ")
                if answer.isdigit() and 1 <= int(answer) <= len(moves):
                    return moves[int(answer) - 1]
                self.say(f"Type a number from 1 to {len(moves)}.")
            else:  # too many to list: take the move by its rank
                answer = self.ask(f"{view.count()} moves; type a rank 0-{view.count() - 1}: ")
                if answer.isdigit() and int(answer) < view.count():
                    return view.nth(int(answer))
                self.say("Type a rank in range.")

    def _choose_subset(self, state: Any, view: SubsetView[Any]) -> Any:
        pool = view.pool()
        for number, item in enumerate(pool, start=1):
            self.say(f"  {number:>3}. {self.game.describe_item(item)}")
        while True:
            answer = self.ask(
                f"Numbers of the cards to discard, {state.to_move} (blank keeps all, q quits): "
            )
            words = answer.replace(",", " ").split()
            if not all(word.isdigit() and 1 <= int(word) <= len(pool) for word in words):
                self.say(f"Type numbers from 1 to {len(pool)}, separated by spaces.")
                continue
            move = view.move_for([int(word) - 1 for word in words])
            refused = view.refusal(move)
            if refused is None:
                return move
            self.say(f"Not allowed: {refused.reason} [{refused.rule}]")
