"""The engines: the counting engines of bet games (one plan picks them) and the solvers of
strategy games. They know no game.

Layer: engines, above the model; the engines know no game (the games call them).

Importing the package registers the shipped counting engines with the plan
(:mod:`exact.engines.shipped`), so that any engine module a command imports plans with them.
"""

from exact.engines import shipped as shipped
