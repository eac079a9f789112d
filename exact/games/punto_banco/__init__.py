"""Punto Banco: the baccarat coup (:mod:`exact.games.baccarat`, where the game's class, rules,
deal and bets live, shared with the variants) with its published figures and its report.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""
