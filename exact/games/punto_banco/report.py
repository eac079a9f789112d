"""The Punto Banco report's data: the configuration's wagers (by default every wager the
game ships, ``game_bets``, so side bets appear in every section as soon as their bet files
do) on its shoe (by default 8 decks).

Layer: games, the top: the game's own reports code, which may import every generic layer.

The template is ``exact/games/punto_banco/report.typ``; the published figures it is checked
against are in ``exact/games/punto_banco/data/published.toml``.
"""

from __future__ import annotations

from pathlib import Path

from exact.games.baccarat.coup import PuntoBanco
from exact.games.baccarat.report import (
    EXAMPLES,
    SIMULATION_SEED,
    _cards_dealt,
    _final_totals,
    coup_report_data,
)
from exact.reports.charts import bet_family
from exact.reports.config import ReportConfig
from exact.reports.cover import Context

DATA = Path(__file__).resolve().parent / "data"  # the game's own data: its published figures


def report_data(config: ReportConfig, context: Context) -> dict[str, object]:
    data, shoe = coup_report_data(config, context, examples=EXAMPLES,
                                  published=DATA / "published.toml", seed=SIMULATION_SEED,
                                  family=bet_family)
    game = config.game
    assert isinstance(game, PuntoBanco)
    data["totals"] = _final_totals(game, shoe)
    data["cards_dealt"] = _cards_dealt(game, shoe)
    return data
