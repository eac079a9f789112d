"""Command line: ``python -m exact`` or ``exact``.

Bad input gives one line on standard error and exit status 2, never a traceback; output
files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from exact.analysis import ENGINES, analyze, game_bets
from exact.bets import Bet
from exact.cards import Shoe
from exact.errors import ExactError, ShoeError
from exact.games import REGISTRY, get_game
from exact.games.base import Game
from exact.output import to_csv, to_json, to_text

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _shoe(args: argparse.Namespace) -> Shoe:
    if args.shoe and args.decks is not None:
        raise ShoeError("give either --decks or --shoe, not both")
    shoe = Shoe.parse(args.shoe) if args.shoe else Shoe.standard(
        8 if args.decks is None else args.decks, args.jokers)
    return shoe.remove(args.remove) if args.remove else shoe


def _selected_bets(game: Game, args: argparse.Namespace) -> list[Bet]:
    bets = game_bets(game, args.bets or ())
    if args.bet:
        known = {b.id: b for b in bets}
        missing = [b for b in args.bet if b not in known]
        if missing:
            raise ExactError(f"unknown bet(s) {', '.join(missing)}; see `list-bets {game.id}`")
        bets = [known[b] for b in args.bet]
    for choice in args.paytable or ():
        bet_id, sep, name = choice.partition("=")
        if not sep:
            raise ExactError(f"--paytable {choice!r}: expected BET=PAYTABLE")
        positions = [i for i, b in enumerate(bets) if b.id == bet_id]
        if not positions:
            raise ExactError(f"--paytable {choice!r}: no bet {bet_id!r} in this analysis")
        bets[positions[0]] = bets[positions[0]].with_paytable(name)
    return bets


def _analyze(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    shoe = _shoe(args)
    analysis = analyze(game, shoe, _selected_bets(game, args), engine=args.engine)
    return to_json(analysis) if args.json else to_csv(analysis) if args.csv else to_text(analysis)


def _list_bets(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    lines = []
    for bet in game_bets(game, args.bets or ()):
        tables = ", ".join(bet.paytables)
        lines.append(f"{bet.id:24} {bet.name} (paytables: {tables}) [{bet.source}]")
        if bet.description:
            lines.append(f"{'':24} {bet.description}")
    return "\n".join(lines) + "\n"


def _features(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    return "".join(f"{f.name:24} {f.doc}; values: {f.values}\n" for f in game.features.values())


def _games(args: argparse.Namespace) -> str:
    return "".join(f"{game_id}: {get_game(game_id).name}\n" for game_id in sorted(REGISTRY))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="exact", description="Exact combinatorial analysis of baccarat games.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def game_command(name: str, help_text: str, run: Callable[[argparse.Namespace], str]):
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("game", help=f"game id: {', '.join(sorted(REGISTRY))}")
        sub.add_argument("--bets", action="append", metavar="FILE",
                         help="extra bet file (TOML); may be repeated")
        sub.set_defaults(run=run)
        return sub

    analyze_parser = game_command("analyze", "exact return tables of a game's bets", _analyze)
    analyze_parser.add_argument("--decks", type=int, help="full decks in the shoe (default 8)")
    analyze_parser.add_argument("--jokers", type=int, default=0, help="jokers in the shoe")
    analyze_parser.add_argument("--shoe", help="explicit composition, e.g. 'A:32,T:128,9H:8'")
    analyze_parser.add_argument("--remove", help="cards taken out, e.g. '5,5,9H,KD'")
    analyze_parser.add_argument("--bet", action="append", metavar="ID",
                                help="analyse only this bet; may be repeated")
    analyze_parser.add_argument("--paytable", action="append", metavar="BET=NAME",
                                help="pay BET by its alternative paytable NAME")
    analyze_parser.add_argument("--engine", choices=ENGINES, default="compiled",
                                help="compiled polynomial (default) or direct recursion")
    formats = analyze_parser.add_mutually_exclusive_group()
    formats.add_argument("--json", action="store_true", help="machine-readable JSON")
    formats.add_argument("--csv", action="store_true", help="spreadsheet-ready CSV")
    analyze_parser.add_argument("--output", "-o", metavar="FILE",
                                help="write to FILE (atomically) instead of standard output")
    game_command("list-bets", "the bets and paytables that ship (and those of --bets)",
                 _list_bets)
    game_command("features", "the round features bet conditions may use", _features)
    from exact.counting_cli import add_commands  # eor, simulate, edge (issue 7)

    add_commands(game_command)
    games = commands.add_parser("games", help="the games of the toolkit")
    games.set_defaults(run=_games, output=None)
    return parser


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all."""
    directory = path.resolve().parent
    if not directory.is_dir():
        raise ExactError(f"cannot write {path}: no directory {directory}")
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        text = args.run(args)
        output = getattr(args, "output", None)
        if output:
            write_atomically(Path(output), text)
        else:
            sys.stdout.write(text)
    except _UsageError as error:
        print(f"exact: usage error: {error} (see --help)", file=sys.stderr)
        return EXIT_USAGE
    except ExactError as error:
        print(f"exact: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 1
    return 0
