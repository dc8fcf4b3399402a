"""Liberty or Death: map, pieces, scenarios and event cards."""
