"""Punto Banco's plugin record: the one place the toolkit learns of the game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exact.games.baccarat.coup import DATA as COUP_DATA
from exact.games.baccarat.coup import PuntoBanco
from exact.games.baccarat.settle import REPORT_WORDS, hand_text, round_hands
from exact.model.plugins import GamePlugin

HERE = Path(__file__).resolve().parent


def _report(config: Any, context: Any) -> dict[str, object]:
    from exact.games.punto_banco.report import report_data

    return report_data(config, context)


EXAMPLES: dict[str | None, tuple[str, ...]] = {
    None: ("exact analyze punto-banco",),
    "analyze": ("exact analyze punto-banco",
                "exact analyze punto-banco --bet tie --paytable tie=9-to-1",
                "exact analyze punto-banco --group main --decks 1,2,4,6,8",
                "exact analyze punto-banco --decks 6 --remove 5,5 --view full --json"),
    "design": ("exact design punto-banco --bet tie --solve-for tie --target-edge 5%",),
    "list-bets": ("exact list-bets punto-banco",),
    "features": ("exact features punto-banco",),
    "eor": ("exact eor punto-banco --decks 8 --bet dragon-7",),
    "simulate": ("exact simulate punto-banco --shoes 100 --seed 7 --bet dragon-7",),
    "edge": ("exact edge punto-banco --decks 8 --seen seen.txt",
             "echo '9H 9D 8C' | exact edge punto-banco --decks 8"),
    "settle": ("exact settle punto-banco --cards '7H 4C KD 5S' --wager banker=25",),
    "report": ("exact report punto-banco -o punto-banco.pdf --xlsx punto-banco.xlsx",),
}
"""The lines of ``--help``'s examples for Punto Banco (run by the tests)."""

PLUGIN = GamePlugin(
    game=PuntoBanco,
    examples=EXAMPLES,
    data=HERE / "data",
    assumptions=(COUP_DATA / "assumptions.toml",),
    round_hands=round_hands,
    hand_text=hand_text,
    report_words=REPORT_WORDS,
    report=_report,
    template=HERE / "report.typ",
)
