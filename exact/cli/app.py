"""Command line: ``python -m exact`` or ``exact``.

Layer: cli, the top (beside the lab); it may import every layer below.

Bad input gives one line on standard error and exit status 2, never a traceback; output
files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from exact import __version__
from exact.analysis.bet_analysis import ENGINES, analyze, game_bets
from exact.cli.configuration import (
    CONFIGURATION_OPTIONS,
    add_configuration_options,
    selected_bets,
    with_tables,
)
from exact.cli.shoe_options import options_shoe
from exact.core.files import (
    INPUT_FILE,
    OUTPUT_HELP,
    InputFile,
    output_name,
    refuse_clashes,
    write_file,
    write_standard_output,
)
from exact.core.parsing import OneLineParser, number_option, shown, shown_all, suggestion
from exact.errors import ExactError, Terminated, UsageError, one_line
from exact.model.bets import format_pays
from exact.model.contracts import BetGame
from exact.model.game import Game
from exact.model.plugins import GamePlugin, game_ids, get_game, own_command, plugin, plugin_ids
from exact.render.output import json_text, to_csv, to_json, to_text

EXIT_USAGE = 2


class _Parser(OneLineParser):
    """A parser that refuses bad input as a :class:`UsageError` of one short line (its base),
    and keeps what it is given to parse: ``actions`` (argparse name -> the action
    ``add_argument`` returned, its groups' included), ``options`` (argparse name -> the
    option's longest flag) and ``commands`` (subcommand -> its parser), so that a command's
    options are known without argparse's private lists."""

    def __init__(self, *args: Any, examples_of: tuple[str | None, GamePlugin | None] | None = None,
                 **kwargs: Any) -> None:
        self.actions: dict[str, argparse.Action] = {}  # (before argparse adds --help)
        self.options: dict[str, str] = {}
        self.commands: dict[str, _Parser] = {}
        # the examples' epilog is made when help is shown: it reads every game's plugin record,
        # which a run of one game must not import
        self.examples_of = examples_of
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        if self.examples_of is not None:
            self.epilog = examples(*self.examples_of)
        return super().format_help()

    def add_argument(self, *flags: Any, **kwargs: Any) -> Any:
        return self._keep(super().add_argument(*flags, **kwargs))

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        # an argument no option takes may be another game's option: refused naming its games
        parsed, extra = self.parse_known_args(args, namespace)
        refuse_unknown_options(self, parsed, extra)
        return parsed

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        return self._kept(super().add_argument_group(*args, **kwargs))

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        return self._kept(super().add_mutually_exclusive_group(**kwargs))

    def add_command(self, commands: Any, name: str, **kwargs: Any) -> _Parser:
        """``commands.add_parser(name, ...)`` (``commands``: this parser's subparsers), kept."""
        sub: _Parser = commands.add_parser(name, **kwargs)
        self.commands[name] = sub
        return sub

    def _keep(self, action: argparse.Action) -> argparse.Action:
        self.actions[action.dest] = action
        self.options[action.dest] = max(action.option_strings or [action.dest], key=len)
        return action

    def _kept(self, group: Any) -> Any:
        add = group.add_argument

        def add_argument(*flags: Any, **kwargs: Any) -> Any:
            return self._keep(add(*flags, **kwargs))

        setattr(group, "add_argument", add_argument)  # noqa: B010 (an attribute of the group)
        return group


def _analyze(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    own = own_command(game, "analyze")
    if own is not None:  # a game that renders its own analysis (a strategy game)
        for name, default in plugin(game).option_defaults.items():
            if getattr(args, name, None) is None:
                setattr(args, name, default)
        return own(game, args)
    if isinstance(args.decks, tuple):
        return _by_decks(game, args)
    shoe = options_shoe(args)
    bets = selected_bets(game, args, shoe)
    # --engine given (auto or a name): the output says which engine counted each bet and why
    explain = args.engine is not None
    analysis = analyze(game, shoe, bets, engine=args.engine or "auto")
    if args.xlsx:
        from exact.render.spreadsheet import analysis_workbook, write_bytes

        write_bytes(Path(args.xlsx), analysis_workbook(analysis), [args.output])
        written(args.xlsx, "Excel par sheet")
        if not (args.json or args.csv or args.output):
            return ""
    if analysis_view(args) == "summary":
        from exact.render.views import summary_csv, summary_json, summary_text

        return (summary_json(analysis) if args.json else summary_csv(analysis) if args.csv
                else summary_text(analysis))
    return (to_json(analysis, explain) if args.json else to_csv(analysis) if args.csv
            else to_text(analysis, explain))


def analysis_view(args: argparse.Namespace) -> str:
    """``--view``, or else the view a user scanning first wants: the summary (one line per
    bet and paytable) of every bet in text, the full return tables once bets are chosen
    (``--bet``, ``--group``) and in JSON and CSV (whose readers are programs)."""
    if args.view is not None:
        return str(args.view)
    chosen = args.bet or args.group or args.json or args.csv
    return "full" if chosen else "summary"


def _by_decks(game: Game, args: argparse.Namespace) -> str:
    """``analyze GAME --decks 1,2,4,6,8``: the house edge of every bet on each shoe."""
    from exact.render.views import decks_csv, decks_json, decks_text

    for flag, given in (("--view", args.view), ("--xlsx", args.xlsx), ("--shoe", args.shoe)):
        if given is not None:
            raise ExactError(f"--decks {','.join(map(str, args.decks))} compares numbers of "
                             f"decks: {flag} does not apply")
    analyses = {}
    for decks in args.decks:
        one = argparse.Namespace(**{**vars(args), "decks": decks})
        shoe = options_shoe(one)
        analyses[decks] = analyze(game, shoe, selected_bets(game, one, shoe),
                                  engine=args.engine or "auto")
    return (decks_json(analyses) if args.json else decks_csv(analyses) if args.csv
            else decks_text(analyses))


def written(name: str, what: str) -> None:
    """The line saying which file a run wrote (standard error: standard output stays the
    document, for a pipe): ``exact: wrote 'par.xlsx' (Excel par sheet)``."""
    say(f"exact: wrote {name!r} ({what})")  # whole: a path is bounded (output_name)


def _design(args: argparse.Namespace) -> str:
    from exact.analysis.designer import design_json, design_text, parse_edge, solve_pays
    from exact.render.output import shoe_json

    game = get_game(args.game)
    shoe = options_shoe(args)
    bets = {b.id: b for b in with_tables(game, shoe, game_bets(game, args.bets or ()), args)}
    if args.bet not in bets:
        raise ExactError(f"unknown bet {shown(args.bet)}{suggestion([args.bet], bets)}; see "
                         f"`list-bets {game.id}`")
    analysis = analyze(game, shoe, [bets[args.bet]], engine=args.engine)
    tiers = [t for item in args.solve_for for t in item.split(",") if t.strip()]
    design = solve_pays(analysis.bets[args.bet], tiers, parse_edge(args.target_edge),
                        args.paytable)
    if args.json:
        return json_text(design_json(design, shoe_json(analysis)))
    return design_text(design, shoe.describe())


def _no_bet_table(game: Game, what: str) -> str:
    """What ``list-bets`` and ``features`` say of a strategy game (century21, chemin-de-fer):
    a line, not an empty listing or the bet games' advice on --group and --bet."""
    return (f"{game.name} ({game.id}) is a strategy game: it has no {what}; see "
            f"`analyze {game.id} --help` for its options.\n")


def _list_bets(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    if not isinstance(game, BetGame):
        return _no_bet_table(game, "bet table")
    bets = game_bets(game, args.bets or ())
    groups = list(dict.fromkeys(["main", "variant", "side", *(b.group for b in bets)]))
    lines = ["`analyze` shows every bet; choose with --group GROUP or --bet ID, and pay "
             "another paytable with --paytable BET=NAME."]
    for group in groups:
        members = [b for b in bets if b.group == group]
        if not members:
            continue
        lines.append(f"\n[{group or 'no group'}]")
        for bet in members:
            lines.append(f"  {bet.id:24} {bet.name} [{Path(bet.source).name}]")
            if bet.description:
                lines.append(f"  {'':24} {bet.description}")
            for name in bet.paytables:
                table = bet.with_paytable(name)
                pays = ", ".join(f"{e.name} = {'push' if e.pays == 0 else format_pays(e.pays)}"
                                 for e in table.events[:-1])
                default = " (default)" if name == bet.paytable else ""
                lines.append(f"  {'':24} paytable {name}{default}: {pays}")
    return "\n".join(lines) + "\n"


# Per command, the options of a bet game (argparse names); a game with options of its own
# declares them (its plugin record, exact.model.plugins.GamePlugin), and a strategy game takes
# none on a command it declares nothing for (`design` of a strategy game with --bet...). Any
# other option given is refused, so that one game's options are never silently accepted by
# another.
SHARED_OPTIONS = frozenset({"game", "command", "run", "json", "output", "pdf", "submission"})
_SHOE = frozenset({"decks", "jokers", "shoe", "remove"})
BET_GAME_OPTIONS: dict[str, frozenset[str]] = {
    "analyze": _SHOE | {"bets", "bet", "group", "all", "paytable", "table", "engine", "csv",
                        "xlsx", "view"},
    "design": _SHOE | {"bets", "bet", "solve_for", "target_edge", "paytable", "engine", "table"},
    "list-bets": frozenset({"bets"}),
    "features": frozenset({"bets"}),
    "eor": frozenset({"bets", "bet", "decks", "shoe", "remove", "depth", "removal_set", "tags"}),
    "simulate": frozenset({"bets", "bet", "shoes", "seed", "decks", "cut", "burn", "workers",
                           "scheduler", "tags", "trigger"}),
    "edge": frozenset({"bets", "bet", "decks", "shoe", "seen", "known"}),
    "settle": frozenset({"bets", "cards", "wager", "paytable", "decks", "jokers", "shoe"}),
    "report": CONFIGURATION_OPTIONS | {"bets", "xlsx"},
}


def game_options(game: object, command: str) -> frozenset[str]:
    """The options (argparse names) ``game`` takes on ``command``, besides the shared ones.

    >>> "strategy" in game_options(get_game("century21"), "analyze")
    True
    >>> "strategy" in game_options(get_game("punto-banco"), "analyze")
    False
    >>> sorted(game_options(get_game("punto-banco"), "list-bets")), game_options(get_game(
    ...     "century21"), "list-bets")
    (['bets'], frozenset())
    """
    own = plugin(game).own_options(command)
    if own is not None:
        return own
    if isinstance(game, BetGame):
        return BET_GAME_OPTIONS.get(command, frozenset())
    return frozenset()


def refuse_foreign_options(parser: _Parser, args: argparse.Namespace) -> None:
    """An option given (not left at its default) that the chosen game does not take is an
    error naming the games that do: ``analyze punto-banco --strategy best`` is refused."""
    command_parser = parser.commands.get(getattr(args, "command", ""))
    if command_parser is None or not isinstance(getattr(args, "game", None), str):
        return
    game = get_game(args.game)  # an unknown id is refused here, by name
    taken = SHARED_OPTIONS | game_options(game, args.command)
    given = vars(args)
    for dest, flag in command_parser.options.items():
        if (dest in taken or dest not in given
                or given[dest] == command_parser.get_default(dest)):
            continue
        owners = [game_id for game_id in plugin_ids(every=False)
                  if _owns(get_game(game_id), args.command, dest)]
        where = f"an option of {', '.join(owners)}" if owners else "an option of no game"
        raise ExactError(f"{flag} is {where}, not of {args.command} {game.id}")


def _owns(game: object, command: str, option: str) -> bool:
    """Whether ``game`` has ``option`` on ``command`` as its own (a strategy game without
    options declared for a command owns none there)."""
    declared = plugin(game).own_options(command) is not None
    return (declared or isinstance(game, BetGame)) and option in game_options(game, command)


_TYPE_NAMES = {bool: "true/false", int: "integer", str: "text", type(None): "None"}


def _features(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    if not isinstance(game, BetGame):
        return _no_bet_table(game, "round features for bet conditions")
    game_bets(game, args.bets or ())  # a --bets file is checked (its conditions name features)
    lines = []
    for feature in game.features.values():
        kind = " or ".join(dict.fromkeys(_TYPE_NAMES.get(t, t.__name__) for t in feature.types))
        lines.append(f"{feature.name:24} {feature.doc}; values: {feature.values}"
                     + (f" [{kind}]" if kind else "") + "\n")
    return "".join(lines)


def _games(args: argparse.Namespace) -> str:
    return "".join(f"{game_id}: {get_game(game_id).name}\n" for game_id in game_ids())


# The commands defined in this module: when one of them runs, the modules of the others
# (simulation, removal, settlement...) are not imported (a fresh `analyze` costs its imports).
APP_COMMANDS = frozenset({"analyze", "design", "list-bets", "features", "games"})


def add_game_options(parser: _Parser, command: str, game: GamePlugin | None) -> None:
    """The options of ``game`` (its plugin's groups) on ``command``: only the game the command
    is given shows and takes its own (``exact analyze GAME --help``)."""
    for group in () if game is None else game.options:
        if command in group.commands:
            added = parser.add_argument_group(group.title)
            for option in group.options:
                added.add_argument(*option.flags, **option.settings)


def build_parser(command: str | None = None, game: GamePlugin | None = None) -> _Parser:
    """The parser of every command; given the ``command`` about to run, one of
    :data:`APP_COMMANDS`, the other modules' commands are left out (nothing else differs);
    given the ``game`` it runs on, its own options are added (no other game's)."""
    parser = _Parser(prog="exact", description="Exact combinatorial analysis of baccarat games.",
                     examples_of=(None, None),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"exact {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

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

    analyze_parser = game_command("analyze", "exact return tables of a game's bets", _analyze)
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
        "design", "solve a bet's pays for a target house edge (exact, then practical)", _design)
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
                 _list_bets)
    game_command("features", "the round features bet conditions may use", _features)
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
    games.set_defaults(run=_games, output=None)
    return parser


EXAMPLES: dict[str | None, tuple[str, ...]] = {
    None: ("exact games", "exact analyze GAME --help"),
    "games": ("exact games",),
}
"""The generic lines of ``--help``'s examples; each game's own come from its plugin record."""


def example_lines(command: str | None, game: GamePlugin | None = None) -> tuple[str, ...]:
    """The examples of ``command``'s ``--help``: the generic ones, then those of ``game``
    (given: only its own) or of every shipped game."""
    games = [game] if game is not None else [plugin(game_id) for game_id in
                                              plugin_ids(every=False)]
    return (*EXAMPLES.get(command, ()),
            *(line for each in games for line in each.examples.get(command, ())))


def examples(command: str | None, game: GamePlugin | None = None) -> str:
    """The epilog of ``command``'s ``--help`` (None: the top level's)."""
    return "examples:\n" + "".join(f"  {line}\n" for line in example_lines(command, game))


def refuse_deck_columns(args: argparse.Namespace) -> None:
    """Several numbers of ``--decks`` (side by side) are for ``analyze`` of a bet game; the
    strategy games and the report take one."""
    decks = getattr(args, "decks", None)
    if isinstance(decks, tuple) and not (args.command == "analyze"
                                         and isinstance(get_game(args.game), BetGame)):
        raise ExactError(f"--decks {','.join(map(str, decks))}: several numbers of decks side "
                         f"by side are for `analyze` of a bet game, not {args.command} "
                         f"{args.game}")


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


def refuse_unknown_options(parser: _Parser, args: argparse.Namespace,
                           unknown: Sequence[str]) -> None:
    """Arguments the parser did not take: an option of another game is refused naming the
    games it belongs to (``analyze punto-banco --strategy best``), anything else as argparse
    would refuse it."""
    if not unknown:
        return
    command = getattr(args, "command", None)
    game = getattr(args, "game", None)
    for argument in unknown:
        flag = argument.partition("=")[0]
        if command is None or not isinstance(game, str) or not flag.startswith("--"):
            continue
        owners = [game_id for game_id in plugin_ids(every=False)
                  if any(command in group.commands and flag in option.flags
                         for group in plugin(game_id).options for option in group.options)]
        if owners:
            get_game(game)  # an unknown id is refused here, by name
            raise ExactError(f"{flag} is an option of {', '.join(owners)}, not of {command} "
                             f"{game}")
    # anything else: the nearest of the command's options (did you mean ...?)
    sub = parser.commands.get(command or "", parser)
    flags = [flag for action in sub.actions.values() for flag in action.option_strings
             if flag.startswith("--")]
    typed = [item.split("=")[0] for item in unknown if item.startswith("--")]
    parser.error(f"unrecognized arguments: {shown_all(list(unknown))}{suggestion(typed, flags)}")


def refuse_empty_options(args: argparse.Namespace) -> None:
    """An option given an empty (or blank) value is an error, never its default: ``--shoe ""``
    must not analyse 8 decks. (A value that must be a number is refused by its parser.)"""
    for name, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        if any(isinstance(item, str) and not item.strip() for item in values):
            what = "the game id" if name == "game" else f"--{name.replace('_', '-')}"
            raise ExactError(f"{what} is empty: give a value, or leave the option out")


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


def refuse_clashing_files(parser: _Parser, args: argparse.Namespace) -> None:
    """No output of the run may be a file it reads, nor another of its outputs: refused
    before any work (:func:`exact.core.files.refuse_clashes`). The files are those of the
    command's options, whatever the command: an option typed
    :class:`~exact.core.files.InputFile` names files read (``-`` is standard input where it
    says so), one typed :func:`~exact.core.files.output_name` a file written."""
    command_parser = parser.commands.get(getattr(args, "command", ""))
    if command_parser is None:
        return
    given = vars(args)
    reads: list[tuple[str, str | None]] = []
    writes: list[tuple[str, str]] = []
    for dest, action in command_parser.actions.items():
        value = given.get(dest)
        names = value if isinstance(value, list) else [value]
        flag = command_parser.options[dest]
        for name in (n for n in names if isinstance(n, str)):
            if isinstance(action.type, InputFile):
                reads.append((flag, None if action.type.stdin and name == "-" else name))
            elif action.type is output_name:
                writes.append((flag, name))
    refuse_clashes(reads, writes)


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


def say(line: str) -> None:
    """``line`` on standard error, whatever becomes of it: closed (``2>&-``), full, or of an
    encoding that cannot hold the line (the characters it lacks escaped)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        with contextlib.suppress(OSError, ValueError):
            stream.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")
            stream.flush()
    except (OSError, ValueError):  # nowhere left to say it
        pass


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
