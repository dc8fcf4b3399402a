"""The event system of Europa Universalis: The Price of Power (chapter 16) as one
whole game: the Event Deck of each Age, the display, the Events taken and resolved
step by step, behind the ``Game``/``GameState`` protocol."""
