"""Chemin de fer's published figures (``data/published.toml``): the keys of its own, read by
the generic reader :mod:`exact.reference.published` through the plugin record's ``figures``.

Layer: games, the top: a game's code may import every generic layer, no other game.

Besides the keys of every figure, a figure of chemin de fer's (its kinds are those of a
strategy game) names the model it is computed on and, for a value or a draw probability, the
strategy pair::

    replacement  true: cards dealt with replacement, in one deck's proportions (then no
                 'decks')
    information  what each side sees: totals | banker-cards | cards (default: the game's own)
    commission   taken on the Banker's wins, a fraction as text ("1/20")
    strategy     (value_exact, draw_probability) the strategy pair: house | best | dealer-best
                 | equilibrium
    at           (draw_probability) the information set, as the game describes it
                 ("Player 5")
"""

from __future__ import annotations

from exact.core.records import Name
from exact.errors import PublishedFiguresError
from exact.games.baccarat.tree import Information
from exact.games.chemin_de_fer.game import StrategyName
from exact.reference.published import STRATEGY_KINDS, FigureEntry, FigureKind, OwnValue

_CHOSEN: frozenset[FigureKind] = frozenset({"value_exact", "draw_probability"})
"""The kinds of a strategy pair's figure."""


class CheminDeFerFigure(FigureEntry, frozen=True):
    """A ``[[figure]]`` table of chemin de fer's (the keys of the module docstring)."""

    replacement: bool = False
    information: Information | None = None
    commission: str | None = None
    strategy: StrategyName | None = None
    at: Name | None = None

    def deckless(self) -> str | None:
        return "dealt with replacement" if self.replacement else None

    def own(self, where: str) -> tuple[tuple[str, OwnValue], ...]:
        if self.what not in STRATEGY_KINDS:  # a figure of a bet: none of the model's keys
            for key in ("replacement", "information", "commission", "strategy", "at"):
                if getattr(self, key) not in (None, False):
                    raise PublishedFiguresError(f"{where}: a {self.what} figure has no {key!r}")
        commission = self.fraction(self.commission, "commission", where)
        self.needs("strategy", _CHOSEN, where)
        self.needs("at", frozenset({"draw_probability"}), where, "set 'at'")
        return (("replacement", self.replacement), ("information", self.information),
                ("commission", commission), ("strategy", self.strategy),
                ("at", None if self.at is None else str(self.at)))
