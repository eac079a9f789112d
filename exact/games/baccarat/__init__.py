"""The baccarat coup shared by the baccarat games (Punto Banco, NINE & NINES): its rules,
hands, tableau and deal (:mod:`~exact.games.baccarat.coup`), its dealer for the simulation
checks, its card-by-card reference twin and its report pieces. It imports no game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""
