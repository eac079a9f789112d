"""The options that say what is analysed (shoe, bets, paytables, tables, rules, the strategy
games' options) and the bets they select: one builder for ``analyze`` and ``report``, so the
report of a configuration is of the very bets ``analyze`` shows for the same options.

Layer: cli, the top (beside the lab); it may import every layer below.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Sequence
from typing import Any

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import Shoe
from exact.core.files import INPUT_FILE
from exact.core.options import KeyedOption, NumberOption, number_option
from exact.core.parsing import shown, shown_all, suggestion
from exact.errors import ExactError
from exact.model.bets import Bet
from exact.model.game import Game

CONFIGURATION_OPTIONS = frozenset({"decks", "jokers", "shoe", "remove", "bet", "group", "all",
                                   "paytable", "table"})
"""The bet games' configuration options (argparse names), besides ``--bets``."""


def add_configuration_options(parser: Any) -> None:
    """The options of :data:`CONFIGURATION_OPTIONS` (a game's own options are its plugin's:
    :func:`exact.cli.app.add_game_options`)."""
    parser.add_argument("--decks", type=decks_option,
                        help="full decks in the shoe (default 8); on analyze of a bet game, "
                             "several (e.g. 1,2,4,6,8) give the house edge by decks side by "
                             "side")
    parser.add_argument("--jokers", type=number_option("jokers", "--jokers"),
                        help="jokers in the shoe (default 0, or the game's own shoe)")
    parser.add_argument("--shoe", help="explicit composition, e.g. 'A:32,T:128,9H:8'")
    parser.add_argument("--remove", help="cards taken out, e.g. '5,5,9H,KD'")
    parser.add_argument("--bet", action="append", metavar="ID",
                        help="analyse only this bet; may be repeated (a strategy game may "
                             "read it its own way: see `analyze GAME --help`)")
    parser.add_argument("--group", action="append", metavar="GROUP",
                        help="analyse the shipped bets of GROUP (main, variant, side); "
                             "may be repeated")
    parser.add_argument("--all", action="store_true",
                        help="analyse every bet (the default; not with --bet or --group)")
    parser.add_argument("--paytable", action="append", metavar="BET=NAME",
                        type=KeyedOption("--paytable", "BET=NAME"),
                        help="pay BET by its alternative paytable NAME; may be repeated, "
                             "each bet once")
    _refuse_contradictions(parser)
    parser.add_argument("--table", action="append", metavar="FILE", type=INPUT_FILE,
                        help="your own paytable (bet file): its bets replace those of "
                             "the same id (or join as new bets) before --bet and --group "
                             "choose, after validation; may be repeated")


MAX_DECK_COLUMNS = 16
"""At most this many numbers of decks side by side (``--decks 1,2,4,6,8``)."""
class DecksOption(NumberOption):
    """``--decks``: one number of decks, or several comma-separated (a tuple, each once, at
    most :data:`MAX_DECK_COLUMNS`), each read by the number grammar.

    >>> decks_option("8"), decks_option("1, 2,8")
    (8, (1, 2, 8))
    >>> decks_option("8,8")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 8 given twice: give each number of decks once
    """

    def __call__(self, text: str) -> Any:
        parts = text.split(",")
        if len(parts) == 1:
            return super().__call__(text)
        if len(parts) > MAX_DECK_COLUMNS:
            raise argparse.ArgumentTypeError(f"{len(parts)} numbers of decks: at most "
                                             f"{MAX_DECK_COLUMNS} side by side")
        if not all(part.strip() for part in parts):
            raise argparse.ArgumentTypeError(f"{shown(text)}: a number of decks is missing "
                                             "between the commas")
        values = tuple(super(DecksOption, self).__call__(part) for part in parts)
        for index, value in enumerate(values):
            if value in values[:index]:
                raise argparse.ArgumentTypeError(f"{value} given twice: give each number of "
                                                 "decks once")
        return values


decks_option = DecksOption("decks", "--decks")


def _refuse_contradictions(parser: Any) -> None:
    """The configuration options that contradict each other: each pair is refused together,
    naming both (:meth:`exact.core.options.OneLineParser.refuse_together`)."""
    for first, second, why in (
            ("--all", "--bet", "--all analyses every bet, --bet only those named"),
            ("--all", "--group", "--all analyses every bet, --group only a group's"),
            ("--bet", "--group", "--bet names the bets, --group a group of them")):
        parser.refuse_together(first, second, why)


def selected_bets(game: Game, args: argparse.Namespace, shoe: Shoe) -> list[Bet]:
    """The bets to analyse: ``--bet`` ids, else ``--group``s, else every bet (shipped, of
    ``--bets`` files and of ``--table`` files, validated on ``shoe``). One rule for
    ``--table``: its bets replace the bets of the same id (or join as new bets) before
    anything is chosen, so ``--bet`` and ``--group`` choose among them as among any bets. A
    bet of your own (``--bets``, or a ``--table`` bet of a new id) always joins a ``--group``
    selection; a table bet replacing a shipped one is chosen by the group of the bet it
    replaces."""
    if args.bet and not args.bets and not getattr(args, "table", None):
        # shipped bets named, no file to add or replace any: only theirs are parsed (a
        # fresh run's time)
        named = game_bets(game, only=frozenset(args.bet))
        if {b.id for b in named} >= set(args.bet):
            bets = bets_named(game, named, args.bet)
            return _with_paytables(bets, args)
    pool = game_bets(game, args.bets or ())
    every = with_tables(game, shoe, pool, args)
    if args.bet:
        bets = bets_named(game, every, args.bet)
    elif args.group:
        groups_of = {b.id: b.group for b in pool[:len(game_bets(game))]}  # the shipped bets'
        groups = set(groups_of.values())
        unknown = sorted(set(args.group) - groups)
        if unknown:
            raise ExactError(f"unknown bet group(s) {shown_all(unknown)}"
                             f"{suggestion(unknown, groups)}; "
                             f"known: {', '.join(sorted(groups))}")
        bets = [b for b in every if b.id not in groups_of or groups_of[b.id] in args.group]
    else:
        bets = list(every)
    return _with_paytables(bets, args)


def _with_paytables(bets: list[Bet], args: argparse.Namespace) -> list[Bet]:
    """``bets`` with the ``--paytable`` choices made."""
    for bet_id, name in args.paytable or ():  # (BET, NAME) pairs: KeyedOption
        positions = [i for i, b in enumerate(bets) if b.id == bet_id]
        if not positions:
            raise ExactError(f"--paytable {shown(f'{bet_id}={name}')}: no bet {shown(bet_id)} "
                             f"in this analysis{suggestion([bet_id], (b.id for b in bets))}")
        bets[positions[0]] = bets[positions[0]].with_paytable(name)
    return bets


def bets_named(game: Game, bets: Sequence[Bet], ids: Sequence[str]) -> list[Bet]:
    """The bets of ``ids`` among ``bets``, in the order given; an id none has is refused in one
    line naming the nearest known ids."""
    known = {b.id: b for b in bets}
    missing = [b for b in ids if b not in known]
    if missing:
        raise ExactError(f"unknown bet(s) {shown_all(missing)}{suggestion(missing, known)}; "
                         f"see `list-bets {game.id}`")
    return [known[b] for b in ids]


def with_tables(game: Game, shoe: Shoe, bets: list[Bet], args: argparse.Namespace) -> list[Bet]:
    """Bets of ``--table`` files replace the bets of the same id, after validation: an error
    stops the run, each warning is one line on standard error once the run succeeds (main)."""
    from exact.analysis.validation import check_bets, with_tables

    if not getattr(args, "table", None):
        return bets
    tabled = with_tables(game, bets, args.table)
    # the table files' bets are those with_tables brought in: told apart from the pool by
    # identity, not by Bet.source (a display label, cut or quoted for a long or odd name)
    pooled = {id(bet) for bet in bets}
    own = [bet for bet in tabled if id(bet) not in pooled]
    replaced = {bet.id: bet for bet in bets}
    for issue in check_bets(game, own, shoe, args.engine or "auto", replaced):
        warnings.warn(f"{issue.where}: {issue.message}", stacklevel=1)  # main prints it
    return tabled
