"""Chemin de fer: the two-party game of Player's and Banker's choices, solved as a strategy game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""
