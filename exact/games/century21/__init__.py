"""21st Century Baccarat: its rules, the game and its deal, the table of seats and the solution
of its strategy game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""
