"""Pieces shared by every game model: the rule IR, logged randomness, move views."""
