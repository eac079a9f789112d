"""The engines: the counting engines of bet games (one plan picks them) and the solvers of
strategy games. They know no game.

Layer: engines, above the model; the engines know no game (the games call them).
"""
