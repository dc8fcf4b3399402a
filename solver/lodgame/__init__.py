"""Liberty or Death as one whole game: the Sequence of Play, Brilliant Strokes,
the Winter Quarters Round and victory behind the ``Game``/``GameState`` protocol."""
