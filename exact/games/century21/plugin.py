"""21st Century Baccarat's plugin record: the one place the toolkit learns of the game.

Layer: games, the top: a game's code may import every generic layer, no other game.

The commands, report and shoe play of the game are imported when they run, not when the
record is read: every command reads the records of every game.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from exact.core.cards import Card
from exact.games.century21.game import Century21
from exact.games.century21.rules import DATA
from exact.model.plugins import GamePlugin


def _analyze(game: Century21, args: argparse.Namespace) -> str:
    from exact.games.century21.cli import analyze_command

    return analyze_command(game, args)


def _eor(game: Century21, args: argparse.Namespace) -> str:
    from exact.games.century21.cli import eor_command

    return eor_command(game, args)


def _edge(game: Century21, args: argparse.Namespace, seen: Sequence[Card]) -> str:
    from exact.games.century21.cli import edge_command

    return edge_command(game, args, seen)


def _settle(game: Century21, args: argparse.Namespace) -> str:
    from exact.games.century21.settle import settle_command

    return settle_command(game, args)


def _report(config: Any, context: Any) -> dict[str, object]:
    from exact.games.century21.report import report_data

    return report_data(config, context)


def _play(game: Century21, config: Any) -> Any:
    from exact.games.century21.simulation import Century21Play

    return Century21Play(game, config)


PLUGIN = GamePlugin(
    game=Century21,
    data=DATA,
    assumptions=(DATA / "assumptions.toml",),
    commands={"analyze": _analyze, "eor": _eor, "edge": _edge, "settle": _settle},
    command_options={
        "analyze": frozenset({"decks", "jokers", "shoe", "remove", "bet", "bet_size",
                              "strategy", "collection", "information", "players", "rules",
                              "dealer_wager", "xlsx", "csv"}),
        "eor": frozenset({"decks", "shoe", "remove", "depth", "removal_set", "tags",
                          "strategy", "information", "rules"}),
        "simulate": frozenset({"shoes", "seed", "decks", "cut", "burn", "workers",
                               "scheduler", "tags", "trigger", "bet", "strategy",
                               "information", "rules"}),
        "edge": frozenset({"decks", "shoe", "seen", "known", "information", "rules"}),
        "settle": frozenset({"table", "dealer", "seat", "wager", "dealer_wager", "dice",
                             "rules", "action", "decks", "jokers", "shoe"}),
        "report": frozenset({"rules", "bet_size", "collection", "xlsx"}),
    },
    report=_report,
    template=Path(__file__).resolve().parent / "report.typ",
    simulation=_play,
)
