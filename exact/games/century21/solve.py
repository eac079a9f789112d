"""The heads-up equilibrium of 21st Century Baccarat: found by LP, stated and checked exactly.

Layer: games, the top: a game's code may import every generic layer, no other game.

The round is a two-player zero-sum game with perfect recall, so its minimax strategies are the
solutions of the sequence-form linear programs (Koller, Megiddo and von Stengel 1996). The game
table is a strategy game (:attr:`GameTable.form`), so the generic algorithms of
:mod:`exact.engines.strategy_games` solve it, as they solve chemin de fer: scipy's HiGHS finds
the strategies in floating point; the reported strategies are exact fractions, and they are an
equilibrium exactly when the two exact best responses against them reach the same value: the
player cannot gain against the dealer's strategy, nor the dealer against the player's
(:func:`deviation_gaps`). This module only names the result in the game's terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact.core.parsing import shown
from exact.engines.strategy_games import deviation_gains, zero_sum_equilibrium
from exact.errors import SolveError as SolveError
from exact.errors import StrategyError
from exact.games.century21.game import GameTable, Strategy


@dataclass(frozen=True)
class Equilibrium:
    """Minimax strategies and the exact value of the game (player's pay per unit bet)."""

    player: Strategy
    dealer: Strategy
    value: Fraction
    lp_value: float
    player_gain: Fraction  # best-response value against ``dealer`` minus ``value`` (0)
    dealer_gain: Fraction  # ``value`` minus the value of the dealer's best response (0)


def deviation_gaps(table: GameTable, player: Strategy,
                   dealer: Strategy) -> tuple[Fraction, Fraction, Fraction]:
    """(value, player's gain by its best deviation, dealer's gain by its best deviation),
    all exact. Both gains are 0 exactly when the pair is an equilibrium."""
    values, gains = deviation_gains(table.form, player, dealer)
    return values[0], gains[0], gains[1]


def equilibrium(table: GameTable) -> Equilibrium:
    """Minimax strategies of both sides, as exact fractions, checked exactly
    (:func:`~exact.engines.strategy_games.zero_sum_equilibrium`)."""
    found = zero_sum_equilibrium(table.form)
    assert found.lp_value is not None  # the zero-sum solver always runs the LP
    return Equilibrium(*found.strategies, found.values[0], found.lp_value, *found.gains)


def strategy_by_name(table: GameTable, name: str) -> tuple[Strategy, Strategy]:
    """``house``: House Way both; ``best``: the player's best response to the dealer's House
    Way; ``dealer-best``: the dealer's best response to the player's House Way;
    ``equilibrium``: the minimax strategies."""
    player, dealer = table.house_way()
    if name == "house":
        return player, dealer
    if name == "best":
        return table.player_best_response(dealer), dealer
    if name == "dealer-best":
        return player, table.dealer_best_response(player)
    if name == "equilibrium":
        found = equilibrium(table)
        return found.player, found.dealer
    raise StrategyError(f"unknown strategy {shown(name)}; known: house, best, dealer-best, "
                        "equilibrium")
