"""The Punto Banco report's data: the configuration's wagers (by default every wager the
game ships, ``game_bets``, so side bets appear in every section as soon as their bet files
do) on its shoe (by default 8 decks).

Layer: games, the top: the game's own reports code, which may import every generic layer.

The template is ``exact/games/punto_banco/report.typ``; the published figures it is checked
against are in ``exact/games/punto_banco/data/published.toml``.
"""

from __future__ import annotations

from pathlib import Path

from exact.core.cards import Shoe
from exact.games.baccarat import reference
from exact.games.baccarat.coup import DATA as COUP_DATA
from exact.games.baccarat.coup import STANDARD_RULES, PuntoBanco
from exact.games.baccarat.dealer import PuntoBancoDealer
from exact.games.baccarat.report import (
    BRUTE_FORCE_SHOES,
    DECKS,
    EXAMPLES,
    SIMULATION_SEED,
    _cards_dealt,
    _final_totals,
    _hands,
    report_decks,
    tableau,
)
from exact.reports import countability, sections, verification
from exact.reports.charts import bet_family
from exact.reports.config import ReportConfig
from exact.reports.cover import Context

DATA = Path(__file__).resolve().parent / "data"  # the game's own data: its published figures


def report_data(config: ReportConfig, context: Context) -> dict[str, object]:
    game = config.game
    assert isinstance(game, PuntoBanco)
    shoe = config.shoe or Shoe.standard(DECKS)
    data = sections.standard_report_data(
        game, context, decks=report_decks(shoe), rule_set=(game.rules.id, game.rules.name),
        shoe=shoe, bets=config.bets, inputs=config.inputs,
        rule_files=[COUP_DATA / "rules.toml"] if game.rules == STANDARD_RULES else [],
        examples=EXAMPLES, describe_hands=_hands,
        published=DATA / "published.toml",
        reference=reference,
        brute_force_shoes=[Shoe.parse(text) for text in BRUTE_FORCE_SHOES],
        verify=verification.for_context(context, PuntoBancoDealer, SIMULATION_SEED,
                                         game.id),
        family=bet_family)
    data["countability"] = countability.for_report(game, config.bets, shoe, context,
                                                   SIMULATION_SEED)
    data.update(tableau(game))
    data["totals"] = _final_totals(game, shoe)
    data["cards_dealt"] = _cards_dealt(game, shoe)
    return data
