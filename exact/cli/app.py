"""Command line: ``python -m exact`` or ``exact``: the parser of every command, and the run
(its refusals, its output, its signals).

Layer: cli, the top (beside the lab); it may import every layer below.

Bad input gives one line on standard error and exit status 2, never a traceback; output
files are written whole or not at all. The parser class and its help examples are
:mod:`exact.cli.parser`, the checks of the parsed options :mod:`exact.cli.refusals`, the bet
games' commands :mod:`exact.cli.bet_commands`, what a run says on standard error
:mod:`exact.cli.messages`, and the typed records made of the options :mod:`exact.cli.edge`.
"""

from __future__ import annotations

import argparse
import signal
import sys
import warnings
from collections.abc import Callable, Sequence

from exact import __version__
from exact.analysis.bet_analysis import ENGINES
from exact.cli.bet_commands import run_analyze, run_design, run_features, run_games, run_list_bets
from exact.cli.configuration import (
    add_configuration_options,
)
from exact.cli.messages import say, written
from exact.cli.parser import Parser, add_game_options
from exact.cli.refusals import (
    refuse_clashing_files,
    refuse_deck_columns,
    refuse_empty_options,
    refuse_foreign_options,
)
from exact.core.files import (
    INPUT_FILE,
    OUTPUT_HELP,
    output_name,
    write_file,
    write_standard_output,
)
from exact.core.options import number_option
from exact.errors import ExactError, Terminated, UsageError, one_line
from exact.model.plugins import GamePlugin, plugin, plugin_ids

EXIT_USAGE = 2


# The commands of exact.cli.bet_commands: when one of them runs, the modules of the others
# (simulation, removal, settlement...) are not imported (a fresh `analyze` costs its imports).
APP_COMMANDS = frozenset({"analyze", "design", "list-bets", "features", "games"})


def build_parser(command: str | None = None, game: GamePlugin | None = None) -> Parser:
    """The parser of every command; given the ``command`` about to run, one of
    :data:`APP_COMMANDS`, the other modules' commands are left out (nothing else differs);
    given the ``game`` it runs on, its own options are added (no other game's)."""
    parser = Parser(prog="exact", description="Exact combinatorial analysis of baccarat games.",
                     examples_of=(None, None),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"exact {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def game_command(name: str, help_text: str, run: Callable[[argparse.Namespace], str]):
        sub = parser.add_command(commands, name, help=help_text, description=help_text,
                                 examples_of=(name, game),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.add_argument("game", help=f"game id: {', '.join(plugin_ids(every=False))} (a "
                                       "game's own options: COMMAND GAME --help)")
        sub.add_argument("--bets", action="append", metavar="FILE", type=INPUT_FILE,
                         help="extra bet file (TOML); may be repeated")
        sub.set_defaults(run=run)
        add_game_options(sub, name, game)
        return sub

    analyze_parser = game_command("analyze", "exact return tables of a game's bets", run_analyze)
    add_configuration_options(analyze_parser)
    analyze_parser.add_argument("--engine", choices=ENGINES, default=None,
                                help="auto (the default: the engine plan's cheapest estimate "
                                     "per bet), or one engine for every bet, refused if it "
                                     "cannot serve one; given, the output names each bet's "
                                     "engine and the estimates that chose it")
    analyze_parser.add_argument("--view", choices=("summary", "full"),
                                help="summary: one line per bet and paytable; full: every "
                                     "return table and statistic (default: summary for every "
                                     "bet in text, full with --bet, --group, --json or --csv)")
    formats = analyze_parser.add_mutually_exclusive_group()
    formats.add_argument("--json", action="store_true", help="machine-readable JSON")
    formats.add_argument("--csv", action="store_true", help="spreadsheet-ready CSV")
    analyze_parser.add_argument("--output", "-o", metavar="FILE", type=output_name,
                                help=OUTPUT_HELP)
    analyze_parser.add_argument("--xlsx", metavar="FILE", type=output_name,
                                help="also write an Excel par sheet (exact counts, live "
                                     "formulas) to FILE; needs the `sheets` extra")
    design_parser = game_command(
        "design", "solve a bet's pays for a target house edge (exact, then practical)", run_design)
    design_parser.add_argument("--bet", required=True, metavar="ID", help="the bet to design")
    design_parser.add_argument("--solve-for", required=True, action="append", metavar="TIER",
                               help="tier (event name or its hyphenated id) whose pay to solve "
                                    "for; several (comma-separated or repeated) share a scale")
    design_parser.add_argument("--target-edge", required=True,
                               type=number_option("target-edge", "--target-edge"),
                               help="target house edge: 0.05, 5%% or 1/20")
    design_parser.add_argument("--paytable", metavar="NAME",
                               help="start from this paytable of the bet (default its own)")
    for flag, kind, text in (("--decks", number_option("decks", "--decks"),
                              "full decks (default 8)"),
                             ("--jokers", number_option("jokers", "--jokers"),
                              "jokers in the shoe"),
                             ("--shoe", str, "explicit composition, e.g. 'A:32,T:128'"),
                             ("--remove", str, "cards taken out, e.g. '5,5,9H'")):
        design_parser.add_argument(flag, type=kind, help=text)
    design_parser.add_argument("--engine", choices=ENGINES, default="auto",
                               help="auto (default) or one engine, refused if it cannot serve")
    design_parser.add_argument("--table", action="append", metavar="FILE", type=INPUT_FILE,
                               help="your own paytable (bet file), validated; replaces the "
                                    "bet of the same id")
    design_parser.add_argument("--json", action="store_true", help="machine-readable JSON")
    design_parser.add_argument("--output", "-o", metavar="FILE", type=output_name,
                               help=OUTPUT_HELP)
    game_command("list-bets", "the bets and paytables that ship (and those of --bets)",
                 run_list_bets)
    game_command("features", "the round features bet conditions may use", run_features)
    if command not in APP_COMMANDS:  # imported here: a fresh `analyze` skips their imports
        from exact.cli.counting import add_commands  # eor, simulate, edge

        add_commands(game_command)
        from exact.cli.settle import add_command as add_settle

        add_settle(game_command)
        from exact.cli.report import add_command as add_report

        add_report(game_command)
    games = parser.add_command(commands, "games", help="the games of the toolkit",
                               examples_of=("games", None),
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    games.set_defaults(run=run_games, output=None)
    return parser


def _game_given(arguments: Sequence[str], command: str | None) -> GamePlugin | None:
    """The plugin of the game the command line names (the first argument after the command
    that is a game id), whose options the parser then adds; None when it names none (an
    unknown id is refused by name later)."""
    if command is None or command not in arguments:
        return None
    rest = [a for a in arguments[arguments.index(command) + 1:] if not a.startswith("-")]
    shipped = plugin_ids(every=False)
    found = next((a for a in rest if a in shipped), None)
    if found is None and rest and rest[0] in plugin_ids(every=True):
        found = rest[0]
    return None if found is None else plugin(found)


def main(argv: Sequence[str] | None = None) -> int:
    # The run's warnings (a table file's issues, a rule file's RuleWarning...) are printed only
    # when it succeeds: a refused run's standard error is its one line.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        # Python's debugging aid about a file the garbage collector closes (in a program that
        # calls main, maybe one it left open itself): not the run's to report
        warnings.simplefilter("ignore", ResourceWarning)
        status = _stoppable(_run, argv)
    if status == 0:
        for warning in caught:
            say(f"exact: warning: {one_line(warning.message)}")
    return status


EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM


def _stoppable(run: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None) -> int:
    """``run(argv)``, ended by Ctrl-C (SIGINT) or SIGTERM with one line and the shell's
    status for it (130, 143) instead of a traceback or a silent death. SIGTERM becomes a
    :class:`~exact.errors.Terminated` exception (once: a second SIGTERM while the run unwinds
    is ignored) so that every ``finally`` on the way runs: a file being written loses its
    temporary file, the old file stays. The handler is the command line's, set for the run
    only (and only where signals can be handled: the main thread)."""
    def terminate(number: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated("terminated (SIGTERM)")

    try:
        previous = signal.signal(signal.SIGTERM, terminate)
        installed = True
    except ValueError:  # not the main thread: signals are not ours to handle
        previous, installed = None, False
    try:
        return run(argv)
    except KeyboardInterrupt:
        say("exact: interrupted (Ctrl-C)")
        return EXIT_INTERRUPTED
    except Terminated:
        say("exact: terminated (SIGTERM)")
        return EXIT_TERMINATED
    finally:
        if installed:  # (None: a handler set outside Python; the default is the closest)
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _run(argv: Sequence[str] | None) -> int:
    try:
        arguments = sys.argv[1:] if argv is None else list(argv)
        command = next((a for a in arguments if not a.startswith("-")), None)
        parser = build_parser(command, _game_given(arguments, command))
        try:
            args = parser.parse_args(arguments)
        except SystemExit as done:  # --help or --version: printed, nothing to run
            if done.code in (0, None):
                return 0
            raise
        refuse_empty_options(args)
        refuse_foreign_options(parser, args)
        refuse_clashing_files(parser, args)
        refuse_deck_columns(args)
        text = args.run(args)
        from exact.analysis.assumptions import add_for_command  # every result says what it assumes
        from exact.cli.edge import command_run

        text = add_for_command(command_run(args), text)
        output = getattr(args, "output", None)
        if output is not None:
            write_file(output, text)
            kind = ("JSON" if getattr(args, "json", False) else
                    "CSV" if getattr(args, "csv", False) else "text")
            written(output, kind)
        else:
            write_standard_output(text, sys.stdout)
    except UsageError as error:
        say(f"exact: usage error: {one_line(error)} (see --help)")
        return EXIT_USAGE
    except ExactError as error:  # one line, whatever the message quotes (a file's line)
        say(f"exact: error: {one_line(error)}")
        return EXIT_USAGE
    except BrokenPipeError:
        return 1
    except ModuleNotFoundError as error:  # a package a command imports late (an extra's)
        from exact.cli.missing import missing_package

        return missing_package(error)
    except MemoryError:  # a limit set outside (ulimit -v) met before the work bound: one line
        say("exact: error: out of memory (the work bound of docs: Input limits assumes "
            "about 1.5 GB)")
        return EXIT_USAGE
    return 0
