"""Chemin de fer's plugin record: the one place the toolkit learns of the game.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

import argparse

from exact.games.chemin_de_fer.game import DATA, CheminDeFer
from exact.model.plugins import GamePlugin


def _analyze(game: CheminDeFer, args: argparse.Namespace) -> str:
    from exact.games.chemin_de_fer.cli import analyze_command

    return analyze_command(game, args)


PLUGIN = GamePlugin(
    game=CheminDeFer,
    data=DATA,
    commands={"analyze": _analyze},
    command_options={"analyze": frozenset({"decks", "with_replacement", "information",
                                           "strategy", "commission", "rules"})},
)
