"""21st Century Baccarat's published figures (``data/published.toml``): the key of its own,
read by the generic reader :mod:`exact.reference.published` through the plugin record's
``figures``.

Layer: games, the top: a game's code may import every generic layer, no other game.

Besides the keys of every figure, a value (``value_exact``) names its strategy pair::

    strategy   house | best | dealer-best | equilibrium (those of ``analyze --strategy``)
"""

from __future__ import annotations

from typing import Literal, get_args

from exact.reference.published import FigureEntry, OwnValue

StrategyName = Literal["house", "best", "dealer-best", "equilibrium"]
STRATEGIES: tuple[StrategyName, ...] = get_args(StrategyName)
"""``--strategy`` of analyze (eor and simulate: the first three, pure strategies)."""


class Century21Figure(FigureEntry, frozen=True):
    """A ``[[figure]]`` table of 21st Century Baccarat's (the key of the module docstring)."""

    strategy: StrategyName | None = None

    def own(self, where: str) -> tuple[tuple[str, OwnValue], ...]:
        self.needs("strategy", frozenset({"value_exact", "draw_probability"}), where)
        return (("strategy", self.strategy),)
