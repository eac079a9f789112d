"""Punto Banco's plugin record: the one place the toolkit learns of the game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exact.games.baccarat.coup import DATA as COUP_DATA
from exact.games.baccarat.coup import PuntoBanco
from exact.games.baccarat.settle import hand_text, round_hands
from exact.model.plugins import GamePlugin

HERE = Path(__file__).resolve().parent


def _report(config: Any, context: Any) -> dict[str, object]:
    from exact.games.punto_banco.report import report_data

    return report_data(config, context)


PLUGIN = GamePlugin(
    game=PuntoBanco,
    data=HERE / "data",
    assumptions=(COUP_DATA / "assumptions.toml",),
    round_hands=round_hands,
    hand_text=hand_text,
    report=_report,
    template=HERE / "report.typ",
)
