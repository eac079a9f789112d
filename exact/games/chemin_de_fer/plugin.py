"""Chemin de fer's plugin record: the one place the toolkit learns of the game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

import argparse

from exact.core.files import INPUT_FILE
from exact.core.options import number_option, old_spelling
from exact.games.chemin_de_fer.game import STRATEGIES, CheminDeFer
from exact.games.chemin_de_fer.published import CheminDeFerFigure
from exact.games.chemin_de_fer.rules import DATA
from exact.model.plugins import GamePlugin, Option, OptionGroup


def _analyze(game: CheminDeFer, args: argparse.Namespace) -> str:
    from exact.games.chemin_de_fer.cli import analyze_command

    return analyze_command(game, args)


OPTIONS = (OptionGroup("chemin-de-fer (Baccara chemin de fer) options", ("analyze",), (
    Option(("--strategy",), {"choices": STRATEGIES,
                             "help": "house | best | dealer-best | equilibrium (default "
                                     "house)"}),
    # one spelling with 21st Century Baccarat's: "totals" is the old one, read with a warning
    Option(("--information",), {"choices": ("total", "banker-cards", "cards"),
                                "type": old_spelling({"totals": "total"}, "--information"),
                                "help": "what the players decide by: their totals (default; "
                                        "'totals' is the old spelling), the Banker's cards, or "
                                        "all cards"}),
    Option(("--with-replacement",), {"action": "store_true", "default": None,
                                     "help": "cards dealt with replacement (one deck)"}),
    Option(("--commission",), {"type": number_option("commission", "--commission"),
                               "help": "commission on Banker wins, 0 to 1/10 (e.g. 5%%; "
                                       "default: the rule file's, 0)"}),
    Option(("--rules",), {"metavar": "FILE", "type": INPUT_FILE,
                          "help": "rule file (TOML) instead of the game's default rules"}))),)

PLUGIN = GamePlugin(
    game=CheminDeFer,
    data=DATA,
    figures=CheminDeFerFigure,
    assumptions=(DATA / "assumptions.toml",),
    commands={"analyze": _analyze},
    options=OPTIONS,
    option_defaults={"strategy": "house", "information": "total", "with_replacement": False},
    command_options={"analyze": frozenset({"decks", "with_replacement", "information",
                                           "strategy", "commission", "rules", "csv"})},
    report_words={"--rules": "a rule file"},
)
