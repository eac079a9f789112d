"""NINE & NINES' plugin record: the one place the toolkit learns of the game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exact.games.baccarat.coup import DATA as COUP_DATA
from exact.games.baccarat.settle import REPORT_WORDS, hand_text, round_hands
from exact.games.nine_and_nines.game import DATA, NineAndNines
from exact.model.plugins import GamePlugin


def _report(config: Any, context: Any) -> dict[str, object]:
    from exact.games.nine_and_nines.report import report_data

    return report_data(config, context)


PLUGIN = GamePlugin(
    game=NineAndNines,
    data=DATA,
    # the coup's assumptions, then the side wagers' own (which restate the side bets' paytables)
    assumptions=(COUP_DATA / "assumptions.toml", DATA / "assumptions.toml"),
    omitted_assumptions=frozenset({"side-bet-paytables"}),
    round_hands=round_hands,
    hand_text=hand_text,
    report_words=REPORT_WORDS,
    report=_report,
    template=Path(__file__).resolve().parent / "report.typ",
)
