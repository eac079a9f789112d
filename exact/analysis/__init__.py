"""What is computed about a game: bet tables and their statistics, the designer, validation,
removal, simulation, assumptions.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

The library's entry point is re-exported here (``from exact.analysis import analyze``):

>>> from exact.cards import Shoe
>>> from exact.games import get_game
>>> len(analyze(get_game("punto-banco"), Shoe.standard(1)).bets["banker"].table().outcomes)
3
"""

from exact.analysis.bet_analysis import BetAnalysis, GameAnalysis, analyze

__all__ = ["BetAnalysis", "GameAnalysis", "analyze"]
