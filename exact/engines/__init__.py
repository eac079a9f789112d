"""The engines: the counting engines of bet games (one plan picks them) and the solvers of
strategy games. They know no game."""
