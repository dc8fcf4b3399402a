"""Pieces shared by every game model: the rule IR, logged randomness, move views,
and the building blocks of the JSON document models."""
