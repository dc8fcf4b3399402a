"""Fire in the Lake: map, pieces, scenarios and event cards."""
