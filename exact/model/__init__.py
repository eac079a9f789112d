"""What a game is: its typed contracts, features, bets and their expressions, wagers and their
settlement.

Layer: model, above the core; the engines, the games and the analyses build on it.
"""
