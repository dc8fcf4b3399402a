"""The games' nouns and rules: data files, states, moves and how moves apply."""
