"""What the COIN series games share: maps, pieces, states and event effects."""
