"""The ``analyze chemin-de-fer`` command: the command-line side of
:func:`exact.games.chemin_de_fer.game.analyze`, declared in the game's ``extensions``.

Layer: games, the top: the game's own cli code, which may import every generic layer.
"""

from __future__ import annotations

import argparse

from exact.cli.edge import rules_for
from exact.errors import StrategyError
from exact.games.chemin_de_fer.game import CheminDeFer, analyze


def analyze_command(game: CheminDeFer, args: argparse.Namespace) -> str:
    """``exact analyze chemin-de-fer [--information ...] [--strategy ...] [--commission 5%]
    [--decks N | --with-replacement] [--rules FILE] [--json | --csv]``."""
    rules = rules_for(game, args)
    commission = getattr(args, "commission", None)  # read by the number grammar (app.py)
    if commission is not None:
        rules = rules.with_commission(commission)
    with_replacement = getattr(args, "with_replacement", False)
    if with_replacement and args.decks is not None:
        raise StrategyError("give either --decks or --with-replacement, not both")
    decks = None if with_replacement else rules.decks if args.decks is None else args.decks
    information = {"total": "totals"}.get(args.information, args.information)
    found = analyze(rules, decks, information, args.strategy)
    return (found.to_json() if args.json else found.to_csv() if getattr(args, "csv", False)
            else found.to_text())
