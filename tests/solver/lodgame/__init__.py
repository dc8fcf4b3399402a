"""Tests of Liberty or Death as one whole game."""
