"""Tests of each game end to end: rules, published figures, commands."""
