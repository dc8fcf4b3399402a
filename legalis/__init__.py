"""legalis: rules verifier and legal-move generator for card-driven historical board games.

>>> import legalis
>>> game = legalis.load_game("sevenyears")
>>> state = game.new_initial_state()
>>> state.to_move
'chance'
"""

from legalis.model.errors import IllegalMoveError, InputError, LegalisError, SolverLimitError
from legalis.registry import games, load_game

__all__ = [
    "IllegalMoveError",
    "InputError",
    "LegalisError",
    "SolverLimitError",
    "games",
    "load_game",
]
