"""The Seven Years War card game: cards, state, phases, moves and rules."""
