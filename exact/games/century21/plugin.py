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
from exact.core.files import INPUT_FILE
from exact.core.options import KeyedOption, OldFlag, number_option, old_spelling
from exact.games.century21.game import Century21
from exact.games.century21.published import STRATEGIES, Century21Figure
from exact.games.century21.rules import DATA
from exact.model.plugins import GamePlugin, Option, OptionGroup


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


INFORMATION = old_spelling({"totals": "total"}, "--information")
"""``--information``: ``total`` is the one spelling (chemin de fer's old ``totals`` is read
with a warning, as there)."""

_RULES = Option(("--rules",), {"metavar": "FILE", "type": INPUT_FILE,
                              "help": "rule file (TOML) instead of the game's default rules"})
_BET_SIZE = Option(("--bet-size",), {
    "metavar": "AMOUNT", "type": number_option("bet", "--bet-size"),
    "help": "the bet per seat (default: the table's minimum)"})
_COLLECTION = Option(("--collection",), {
    "type": number_option("fee", "--collection"),
    "help": "collection fee per seat per hand (default: the table tag of the bet size)"})
_COUNTED_INFORMATION = Option(("--information",), {
    "choices": ("total", "cards"), "type": INFORMATION,
    "help": "the player decides by its two-card total (default) or cards"})
_COUNTED_RULES = Option(("--rules",), {"metavar": "FILE", "type": INPUT_FILE,
                                       "help": "rule file (TOML)"})
_COUNTED_STRATEGY = Option(("--strategy",), {"choices": STRATEGIES[:3],
                                              "help": "house (default) | best | dealer-best"})
TITLE = "century21 (21st Century Baccarat) options"
OPTIONS = (
    OptionGroup(TITLE, ("analyze",), (
        _BET_SIZE,
        Option(("--strategy",), {"choices": STRATEGIES,
                                 "help": "house | best | dealer-best | equilibrium (default "
                                         "house)"}),
        _COLLECTION,
        Option(("--information",), {"choices": ("total", "cards"), "type": INFORMATION,
                                    "help": "the player decides by its two-card total or its "
                                            "two cards"}),
        Option(("--players",), {"type": number_option("table-players", "--players"),
                                "help": "players at the table for the Player/Dealer's "
                                        "economics"}),
        Option(("--seats",), {"type": number_option("table-players", "--seats"),
                              "help": "a full table of 1-7 seats (positions 2-8 clockwise from "
                                      "the Player/Dealer): its money per hand under "
                                      "--strategy"}),
        Option(("--wagers",), {"metavar": "W1,W2,...",
                               "help": "with --seats: each seat's wager (default: --bet-size "
                                       "each)"}),
        Option(("--owners",), {"metavar": "A,B,...",
                               "help": "with --seats: who bets each seat (rule 6: a player with "
                                       "several spots checks one; default: each seat its own "
                                       "player)"}),
        _RULES,
        Option(("--dealer-wager",), {"metavar": "AMOUNT",
                                     "type": number_option("bet", "--dealer-wager"),
                                     "help": "the Player/Dealer's wager for the economics "
                                             "(default: it covers every seat)"}))),
    # its report covers every strategy: of its options, the rules and the stakes decide
    OptionGroup(TITLE, ("report",), (_BET_SIZE, _COLLECTION, _RULES)),
    OptionGroup("century21 options (effects of removal on the player's expected value under "
                "a fixed pure strategy pair)", ("eor",),
                (_COUNTED_INFORMATION, _COUNTED_RULES, _COUNTED_STRATEGY)),
    OptionGroup("century21 options (the player's bet, one seat heads-up, under a pure "
                "strategy pair held fixed)", ("simulate",),
                (_COUNTED_INFORMATION, _COUNTED_RULES, _COUNTED_STRATEGY)),
    OptionGroup("century21 options (the next hand under House Way and under the player's best "
                "response, both searched on the unseen cards)", ("edge",),
                (_COUNTED_INFORMATION, _COUNTED_RULES)),
    OptionGroup("century21 (21st Century Baccarat) table hand", ("settle",), (
        # --table names a paytable file on analyze, design and report: here its old spelling
        Option(("--table-hand", "--table"), {
            "dest": "table", "metavar": "FILE", "type": INPUT_FILE, "action": OldFlag,
            "old": "--table",
            "help": "a table hand file (TOML): seats, circles, wagers, the Player/Dealer's "
                    "wager, dice start, declarations, choices (--table: its old spelling, with "
                    "a warning)"}),
        Option(("--dealer",), {"metavar": "CARDS",
                               "help": "the Player/Dealer's cards, up card first"}),
        Option(("--seat",), {"action": "append", "metavar": "SEAT=CARDS",
                             "type": KeyedOption("--seat", "SEAT=CARDS", key="table-seat"),
                             "help": "a seat's cards, e.g. 3='9S KD'; may be repeated, each "
                                     "seat once"}),
        Option(("--dealer-wager",), {"metavar": "AMOUNT",
                                     "type": number_option("bet", "--dealer-wager"),
                                     "help": "the Player/Dealer's wager"}),
        Option(("--dice",), {"metavar": "SEAT", "type": number_option("table-seat", "--dice"),
                             "help": "the seat the dice start the comparison at (default: "
                                     "the lowest seat)"}),
        Option(("--dice-total",), {"metavar": "TOTAL",
                                   "type": number_option("table-seat", "--dice-total"),
                                   "help": "the three dice's total (3-18), counted clockwise "
                                           "from the Player/Dealer's position 1 (instead of "
                                           "--dice)"}),
        Option(("--position",), {"action": "append", "metavar": "SEAT=POS",
                                 "type": KeyedOption("--position", "SEAT=POS", key="table-seat",
                                                     value="table-seat"),
                                 "help": "a seat's position, 2-8 clockwise from the "
                                         "Player/Dealer (default seat + 1); with --dice-total"}),
        _RULES,
        Option(("--action",), {"choices": ("seat-by-seat", "whole-hand"),
                               "help": "override the rules' reading of an uncovered table"}))),
)

EXAMPLES: dict[str | None, tuple[str, ...]] = {
    "analyze": ("exact analyze century21 --strategy best --bet-size 10",),
    "eor": ("exact eor century21 --remove 'X 9 9'",),
    "settle": ("exact settle century21 --dealer 'KH 7C' --seat '3=9S KD' --wager 3.1=100 "
               "--dealer-wager 150",),
}
"""The lines of ``--help``'s examples for 21st Century Baccarat (run by the tests)."""

PLUGIN = GamePlugin(
    game=Century21,
    examples=EXAMPLES,
    data=DATA,
    figures=Century21Figure,
    assumptions=(DATA / "assumptions.toml",),
    commands={"analyze": _analyze, "eor": _eor, "edge": _edge, "settle": _settle},
    command_options={
        "analyze": frozenset({"decks", "jokers", "shoe", "remove", "bet", "bet_size",
                              "strategy", "collection", "information", "players", "rules",
                              "dealer_wager", "xlsx", "csv", "seats", "wagers", "owners"}),
        "eor": frozenset({"decks", "shoe", "remove", "depth", "removal_set", "tags",
                          "strategy", "information", "rules"}),
        "simulate": frozenset({"shoes", "seed", "decks", "cut", "burn", "workers",
                               "scheduler", "tags", "trigger", "bet", "strategy",
                               "information", "rules"}),
        "edge": frozenset({"decks", "shoe", "seen", "known", "information", "rules"}),
        "settle": frozenset({"table", "dealer", "seat", "wager", "dealer_wager", "dice",
                             "dice_total", "position",
                             "rules", "action", "decks", "jokers", "shoe"}),
        "report": frozenset({"rules", "bet_size", "collection", "xlsx"}),
    },
    options=OPTIONS,
    option_defaults={"strategy": "house", "information": "total", "players": 1},
    report=_report,
    template=Path(__file__).resolve().parent / "report.typ",
    simulation=_play,
    report_words={"settle century21": "the toolkit's table settlement",
                  "--rules": "a rule file"},
)
