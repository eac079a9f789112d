"""``exact report GAME``: the certification report (PDF, and the par sheet with ``--xlsx``) of
exactly the configuration the options give, the options ``analyze`` reads.

Layer: cli, the top (beside the lab); it may import every layer below.

The options become a :class:`~exact.reports.config.ReportConfig` here, at the edge, by the
functions that select ``analyze``'s bets (:mod:`exact.cli.configuration`); the report is then
built by :func:`exact.reports.build.build_report`, the library call.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from exact.cli.configuration import (
    CONFIGURATION_OPTIONS,
    add_configuration_options,
    selected_bets,
)
from exact.cli.shoe_options import options_shoe
from exact.core.files import INPUT_FILE, output_name
from exact.errors import ExactError, ReportError
from exact.model.contracts import BetGame
from exact.model.plugins import get_game, plugin

# The options that decide a configuration, in the order the reproduction command gives them
# (argparse names), before the game's own report options (its plugin's, in their order);
# ``rules`` is the strategy games'.
_DECIDING = ("decks", "jokers", "shoe", "remove", "bets", "bet", "group", "all", "paytable",
             "table", "rules")
assert frozenset(_DECIDING) > CONFIGURATION_OPTIONS


def _own_options(game_id: str) -> tuple[str, ...]:
    """The game's own report options (argparse names) besides the shared ones, in the order
    its plugin declares them."""
    own = [option.dest for group in plugin(game_id).options if "report" in group.commands
           for option in group.options if option.dest not in _DECIDING]
    return tuple(dict.fromkeys(own))

SUBMISSION_HELP = ("document control (TOML): client or manufacturer, game name, rules "
                   "document and version, jurisdiction, author, reviewer, report version, "
                   "[[revision]] history; shown on the cover and the attestation page")


def add_command(game_command: Callable[..., Any]) -> None:
    """Add ``report`` through :mod:`exact.cli.app`'s ``game_command``."""
    parser: Any = game_command("report", "the certification report (PDF) of exactly the "
                               "configuration the options give", lambda args: run(args, parser))
    add_configuration_options(parser)  # (a game's own options: its plugin's)
    parser.add_argument("--output", "-o", dest="pdf", required=True, metavar="FILE.pdf",
                        type=output_name, help="the report, written whole or not at all; its "
                        "data and charts go to the folder of its name without .pdf beside it")
    parser.add_argument("--xlsx", metavar="FILE", type=output_name,
                        help="also write the Excel par sheet to FILE (the `sheets` extra)")
    parser.add_argument("--submission", metavar="FILE", type=INPUT_FILE, help=SUBMISSION_HELP)
    # with_tables validates a --table's bets by the plan's engine choice, as analyze does
    parser.set_defaults(engine="auto", output=None)


def run(args: argparse.Namespace, parser: Any) -> str:
    from exact.reports.build import build_report, check_game_ids

    check_game_ids([args.game])  # a game without a report is refused before any file is read
    config = report_config(args, given_options(args, parser))
    try:
        pdf = build_report(config, args.pdf, args.xlsx)
    except OSError as error:  # the data folder or a temporary folder beside the PDF
        if isinstance(error, ExactError):  # an OutputError names its own file already
            raise
        raise ReportError(f"cannot write {error.filename or args.pdf}: "
                          f"{error.strerror or error}") from None
    also = f" and {args.xlsx}" if args.xlsx else ""
    return f"wrote {pdf}{also} (data and charts in {Path(str(pdf)[:-4])}/)\n"


def given_options(args: argparse.Namespace, parser: Any) -> tuple[str, ...]:
    """The deciding options given, canonically (``--flag=value``, so that no value is read as
    an option), in a fixed order: the options of the reproduction command."""
    words: list[str] = []
    for dest in (*_DECIDING, *_own_options(args.game)):
        value = getattr(args, dest, None)
        if value is None or value is False or value == parser.get_default(dest):
            continue
        flag = parser.options[dest]
        if value is True:
            words.append(flag)
        else:
            for item in value if isinstance(value, list) else [value]:
                # a KEY=VALUE option may be read as its (key, value) pair: written back whole
                text = "=".join(map(str, item)) if isinstance(item, tuple) else str(item)
                words.append(f"{flag}={text}")
    return tuple(words)


def report_config(args: argparse.Namespace, options: tuple[str, ...]) -> Any:
    """The :class:`~exact.reports.config.ReportConfig` of the options: the bets ``analyze``
    would analyse for them (each at its one paytable), or the shipped catalogue when none
    chooses any; the shoe of the options, or the report's own when none is given."""
    from exact.cli.edge import rules_for
    from exact.reports.config import ReportConfig, Submission, chosen_only, load_submission

    game = get_game(args.game)
    submission = load_submission(args.submission) if args.submission else Submission()
    inputs = [Path(p) for p in (*(args.bets or ()), *(args.table or ()))]
    shoe = bets = None
    if isinstance(game, BetGame):
        given_shoe = any(getattr(args, n, None) is not None
                         for n in ("decks", "jokers", "shoe", "remove"))
        full = options_shoe(args)
        shoe = full if given_shoe else None
        if args.bet or args.group or args.paytable or args.table or args.bets:
            bets = chosen_only(selected_bets(game, args, full))
    else:
        if getattr(args, "rules", None):
            # every game is a frozen dataclass (Game itself is not one, hence Any)
            game = dataclasses.replace(cast(Any, game), rules=rules_for(game, args))
            inputs.append(Path(args.rules))
    settings = tuple((dest, getattr(args, dest)) for dest in _own_options(args.game)
                     if getattr(args, dest, None) is not None)
    return ReportConfig(game, shoe, bets, options, tuple(inputs), submission, settings)
