"""The command line's edge: parsed options (an :class:`argparse.Namespace`) turned into the
typed records the layers below take, so that nothing below the command line reads argparse.

Layer: cli, the top (beside the lab); it may import every layer below. A game's own commands
(its package, above) read the rules they run under here too.
"""

from __future__ import annotations

import argparse
from typing import Any

from exact.analysis.assumptions import COMMANDS, CommandRun
from exact.model.contracts import HasRules
from exact.model.plugins import get_game


def rules_for(game: Any, args: argparse.Namespace) -> Any:
    """The rules a command runs under: ``game``'s, or its ``--rules FILE`` read once and kept
    on ``args`` as ``resolved_rules``, which the assumptions printed with the result follow
    (read again there, a pipe such as ``<(command)`` gave nothing: an error after the work, or
    the default rules' assumptions printed for a user's rule file)."""
    found = getattr(args, "resolved_rules", None)
    if found is None:
        path = getattr(args, "rules", None)
        found = type(game.rules).load(path) if path else game.rules
        args.resolved_rules = found
    return found


def command_run(args: argparse.Namespace) -> CommandRun:
    """What the assumptions printed with the run's output depend on: the command, the game,
    the output's form, the rules it ran under (a rule file's, or those a table file chose) and
    ``simulate``'s cut card and burn."""
    command = str(getattr(args, "command", ""))
    rules = shoe = None
    if command in COMMANDS:
        if getattr(args, "resolved_rules", None) is not None or getattr(args, "rules", None):
            game = get_game(args.game)
            rules = rules_for(game, args) if isinstance(game, HasRules) else None
        if command == "simulate":
            from exact.analysis.shoe_play import ShoeRules

            shoe = ShoeRules(decks=None, cut_cards=args.cut, burn=args.burn).in_words()
    return CommandRun(command, str(getattr(args, "game", "")),  # (``games`` takes none)
                      json=bool(getattr(args, "json", False)),
                      csv=bool(getattr(args, "csv", False)), rules=rules, shoe=shoe)
