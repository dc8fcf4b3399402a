"""A COIN event card played as a registered game: options, state, moves, the view of
a card's executions and the game (:mod:`legalis.solver.coinevents.fitl` registers
Fire in the Lake)."""
