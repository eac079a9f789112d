"""21st Century Baccarat: its rules, the game and its deal, the table of seats and the solution
of its strategy game.

Layer: games, above the engines; the analyses and everything above read the games.
"""
