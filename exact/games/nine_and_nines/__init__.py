"""Baccarat with NINE & NINES: the baccarat coup (:mod:`exact.games.baccarat`) with the NINE
and NINES side wagers.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""
