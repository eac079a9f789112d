"""The options that say what is analysed (shoe, bets, paytables, tables, rules, the strategy
games' options) and the bets they select: one builder for ``analyze`` and ``report``, so the
report of a configuration is of the very bets ``analyze`` shows for the same options.

Layer: cli, the top (beside the lab); it may import every layer below.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Collection, Sequence
from typing import Any

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import Shoe
from exact.core.files import INPUT_FILE
from exact.core.parsing import KeyedOption, number_option, shown, shown_all, suggestion
from exact.errors import ExactError
from exact.model.bets import Bet
from exact.model.game import Game

CONFIGURATION_OPTIONS = frozenset({"decks", "jokers", "shoe", "remove", "bet", "group", "all",
                                   "paytable", "table"})
"""The bet games' configuration options (argparse names), besides ``--bets``."""


def add_configuration_options(parser: Any, strategy: Collection[str] | None = None) -> None:
    """The options of :data:`CONFIGURATION_OPTIONS` and the strategy games' own group
    (:data:`STRATEGY_OPTIONS`; only the flags in ``strategy`` if given)."""
    parser.add_argument("--decks", type=number_option("decks", "--decks"),
                        help="full decks in the shoe (default 8)")
    parser.add_argument("--jokers", type=number_option("jokers", "--jokers"),
                        help="jokers in the shoe (default 0, or the game's own shoe)")
    parser.add_argument("--shoe", help="explicit composition, e.g. 'A:32,T:128,9H:8'")
    parser.add_argument("--remove", help="cards taken out, e.g. '5,5,9H,KD'")
    parser.add_argument("--bet", action="append", metavar="ID",
                        help="analyse only this bet; may be repeated (century21: the "
                             "bet size, the old spelling of --bet-size)")
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
    # --- the strategy games' own options (century21, chemin-de-fer) ------------------------
    heads_up = parser.add_argument_group("century21 (21st Century Baccarat) options")
    for flag, options in STRATEGY_OPTIONS.items():
        if strategy is None or flag in strategy:
            heads_up.add_argument(flag, **options)


def _refuse_contradictions(parser: Any) -> None:
    """The configuration options that contradict each other: each pair is refused together,
    naming both (:meth:`exact.core.parsing.OneLineParser.refuse_together`)."""
    for first, second, why in (
            ("--all", "--bet", "--all analyses every bet, --bet only those named"),
            ("--all", "--group", "--all analyses every bet, --group only a group's"),
            ("--bet", "--group", "--bet names the bets, --group a group of them")):
        parser.refuse_together(first, second, why)


STRATEGY_OPTIONS: dict[str, dict[str, Any]] = {
    "--bet-size": {"metavar": "AMOUNT", "type": number_option("bet", "--bet-size"),
                   "help": "the bet per seat (default: the table's minimum)"},
    "--strategy": {"help": "house | best | dealer-best | equilibrium (default house)"},
    "--collection": {"type": number_option("fee", "--collection"),
                     "help": "collection fee per seat per hand (default: the table tag of the "
                             "bet size)"},
    "--information": {"choices": ("total", "cards", "totals", "banker-cards"),
                      "help": "the player decides by its two-card total or its two cards "
                              "(chemin-de-fer: totals | banker-cards | cards)"},
    "--with-replacement": {"action": "store_true", "default": None,
                           "help": "chemin-de-fer: cards dealt with replacement (one deck)"},
    "--commission": {"type": number_option("commission", "--commission"),
                     "help": "chemin-de-fer: commission on Banker wins, 0 to 1/10 (e.g. 5%%; "
                             "default: the rule file's, 0)"},
    "--players": {"type": number_option("players", "--players"),
                  "help": "players at the table for the Player/Dealer's economics"},
    "--rules": {"metavar": "FILE", "type": INPUT_FILE,
                "help": "rule file (TOML) instead of the game's default rules"},
    "--dealer-wager": {"metavar": "AMOUNT", "type": number_option("bet", "--dealer-wager"),
                       "help": "the Player/Dealer's wager for the "
                       "economics (default: it covers every seat)"},
}
"""The strategy games' own options (their flags), in the order ``--help`` shows them."""


def selected_bets(game: Game, args: argparse.Namespace, shoe: Shoe) -> list[Bet]:
    """The bets to analyse: ``--bet`` ids, else ``--group``s, else every bet (shipped, of
    ``--bets`` files and of ``--table`` files, validated on ``shoe``). One rule for
    ``--table``: its bets replace the bets of the same id (or join as new bets) before
    anything is chosen, so ``--bet`` and ``--group`` choose among them as among any bets. A
    bet of your own (``--bets``, or a ``--table`` bet of a new id) always joins a ``--group``
    selection; a table bet replacing a shipped one is chosen by the group of the bet it
    replaces."""
    pool = game_bets(game, args.bets or ())
    groups_of = {b.id: b.group for b in pool[:len(game_bets(game))]}  # the shipped bets'
    every = with_tables(game, shoe, pool, args)
    if args.bet:
        bets = bets_named(game, every, args.bet)
    elif args.group:
        groups = set(groups_of.values())
        unknown = sorted(set(args.group) - groups)
        if unknown:
            raise ExactError(f"unknown bet group(s) {shown_all(unknown)}"
                             f"{suggestion(unknown, groups)}; "
                             f"known: {', '.join(sorted(groups))}")
        bets = [b for b in every if b.id not in groups_of or groups_of[b.id] in args.group]
    else:
        bets = list(every)
    for bet_id, name in args.paytable or ():  # (BET, NAME) pairs: KeyedOption
        positions = [i for i, b in enumerate(bets) if b.id == bet_id]
        if not positions:
            raise ExactError(f"--paytable {shown(f'{bet_id}={name}')}: no bet {shown(bet_id)} "
                             "in this analysis")
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
