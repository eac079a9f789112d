"""Command-line subcommands of the remaining-shoe analyses: ``eor``, ``simulate``, ``edge``.

Layer: cli, the top (beside the lab); it may import every layer below.

Kept apart from :mod:`exact.cli.app`, which only registers them (:func:`add_commands`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from exact.analysis.bet_analysis import game_bets
from exact.analysis.counts import Count, counted, derived_counts
from exact.analysis.removal import effects_of_removal, parse_tags
from exact.analysis.scale_out import WORKERS_PER_CORE
from exact.analysis.simulation import (
    MAX_DECKS,
    MAX_SHOES,
    ShoePlay,
    ShoeRules,
    SimulationConfig,
    check_settings,
    shoe_play,
    simulate,
)
from exact.cli.configuration import bets_named
from exact.cli.shoe_options import full_shoe, options_shoe
from exact.core.cards import Card, parse_cards
from exact.core.files import OUTPUT_HELP, InputFile, output_name
from exact.core.options import KeyedOption, OneLineParser, burn_option, number_option
from exact.core.parsing import read_standard_input, read_user_file
from exact.core.progress import Tracker
from exact.engines.batch import BetEvaluator, supported_bets
from exact.engines.live import next_round, slow_with_known
from exact.errors import BetFileError, ExactError, InputError
from exact.model.bets import Bet
from exact.model.contracts import check_dealable
from exact.model.game import Game
from exact.model.plugins import get_game, own_command, plugin
from exact.render.numbers import fixed, percent, points
from exact.render.output import SIGN_CONVENTION, json_text
from exact.render.removal import (
    eor_report,
    eor_text,
    exact_and_float,
    shown_or_none,
)


def _bets(game: Game, args: argparse.Namespace) -> list[Bet]:
    bets = game_bets(game, args.bets or ())
    if args.bet:
        return bets_named(game, bets, args.bet)
    # The default set is every bet the batch evaluator serves: the card-level bets by
    # factorised counting; only in a game without card positions is such a bet beyond it,
    # and then left out here, while --bet asks for it by name and is refused (README, Limits).
    served = supported_bets(game, bets)[0]
    if not served:  # a strategy game (century21) has no bet table for these commands
        raise ExactError(f"{game.id} has no bets that this command evaluates (docs: "
                         "'Counting, effects of removal and live edges')")
    return served


# --- eor -----------------------------------------------------------------------------------------
def _eor(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    own = own_command(game, "eor")
    if own is not None:  # a game with its own removal analysis (e.g. century21)
        return own(game, args)
    shoe = options_shoe(args)
    bets = _bets(game, args)
    user_tags = parse_tags(args.tags) if args.tags else None
    table = effects_of_removal(game, shoe, bets, depth=args.depth,
                               removal_sets=args.removal_set or ())
    report = eor_report(table, user_tags, max(shoe.size // 52, 1))
    return json_text(report) if args.json else eor_text(table, report)


# --- simulate --------------------------------------------------------------------------------
def _parse_triggers(items: list[tuple[str, Fraction]] | None) -> dict[str, float]:
    # (BET, TC) pairs, each bet once, the count read by the grammar (KeyedOption)
    return {bet_id: float(count) for bet_id, count in items or ()}


def _bet_texts(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    return tuple((str(path), read_user_file(path, "bet file", BetFileError))
                 for path in args.bets or ())


def _game_options(game: Game, args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The settings of the game's own options on ``simulate`` (its plugin's option groups), for
    the workers: an option naming a file sends the file's text, which a worker (maybe on
    another machine) reads without the path."""
    options = []
    for option in plugin(game).options_on("simulate"):
        value = getattr(args, option.dest, None)
        if value is None:
            continue
        if isinstance(option.settings.get("type"), InputFile):
            value = read_user_file(value, option.dest.replace("_", " "), InputError)
        options.append((option.dest, value))
    return tuple(options)


def _counts(play: ShoePlay, args: argparse.Namespace) -> dict[str, Count]:
    """Per wager: the count (``--tags``, or derived from the effects of removal on the full
    shoe) and its trigger (``--trigger``, or TC*)."""
    user_tags = parse_tags(args.tags, play.tag_keys, play.tag_key) if args.tags else None
    return derived_counts(play, user_tags, _parse_triggers(args.trigger))


def _simulate(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    check_settings(args.shoes, args.seed, args.workers, args.scheduler)  # before any work
    rules = ShoeRules(decks=args.decks, cut_cards=args.cut, burn=args.burn)
    config = SimulationConfig(game=game.id, bet_texts=_bet_texts(args),
                              bet_ids=tuple(args.bet or ()), shoe=rules,
                              options=_game_options(game, args))
    play = shoe_play(config)
    # the play read the file's text once: the assumptions follow it
    if getattr(args, "rules", None) is not None:
        args.resolved_rules = getattr(play, "rules", None)
    if not play.names:
        raise ExactError(f"{game.id} has no bets that this command evaluates (docs: "
                         "'Counting, effects of removal and live edges')")
    counts = _counts(play, args)
    tags = {wager: count.tags for wager, count in counts.items()}
    config = counted(config, counts, play.tag_keys)
    result = simulate(config, args.shoes, args.seed, workers=args.workers,
                      scheduler=args.scheduler, progress=Tracker("shoes", "shoe"))
    summary = result.summary()
    for entry in summary.values():
        entry.update(confidence_intervals(entry))
    cards = int(play.full.sum())
    if args.json:
        return json_text({"game": game.id, **play.describe(), "shoes": result.shoes,
                           "rounds": result.rounds, "seed": args.seed,
                           "shoe_rules": {"decks": play.decks, "cards": cards,
                                          "cut_cards": rules.cut_cards, "burn": rules.burn},
                           "sign_convention": SIGN_CONVENTION, "wins": SIMULATED_WINS,
                           "tags": tags, "bets": summary})
    settings = "".join(f", {setting}" for setting in play.headline())
    lines = [f"{result.shoes} shoes of {play.decks} decks, {cards} cards (seed {args.seed}, "
             f"cut card {rules.cut_cards} from the end, burn {rules.burn}{settings}): "
             f"{result.rounds} rounds, {fixed(result.rounds / result.shoes, 1)} a shoe",
             f"Signs: {SIGN_CONVENTION}", f"Key: {SIMULATED_WINS}",
             "Perfect play bets 1 unit when the exact house edge is negative (the player's "
             "advantage); the count bets 1 unit when the true count reaches TC*.",
             f"{'bet':22} {'player-adv':>12} {'avg edge':>9} {'win/shoe':>9} "
             f"{'E[win]/shoe':>11} {'win/100h':>9} | {'TC*':>6} {'bets':>7} {'avg edge':>9} "
             f"{'win/shoe':>9} {'E[win]/shoe':>11}"]
    for entry in summary.values():
        average = entry["perfect_average_house_edge"]
        count_average = entry["count_average_house_edge"]
        lines.append(
            f"{entry['name'][:22]:22} {points(entry['player_advantage_frequency'], 3):>11}% "
            f"{'-' if average is None else percent(average, 3):>9} "
            f"{fixed(entry['perfect_win_per_shoe'], 4):>9} "
            f"{fixed(entry['perfect_expected_win_per_shoe'], 4):>11} "
            f"{fixed(entry['perfect_win_per_100_hands'], 4):>9} | "
            f"{shown_or_none(entry['count_trigger']):>6} "
            f"{entry['count_bets']:7d} "
            f"{'-' if count_average is None else percent(count_average, 3):>9} "
            f"{fixed(entry['count_win_per_shoe'], 4):>9} "
            f"{fixed(entry['count_expected_win_per_shoe'], 4):>11}")
    return "\n".join(lines + error_lines(summary)) + "\n"


Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95% confidence interval."""
_INTERVALS = ("perfect_win", "count_win")


def confidence_intervals(entry: dict[str, Any]) -> dict[str, list[float] | None]:
    """The 95% confidence interval (estimate +- 1.96 standard errors, from the spread between
    shoes) of the units won per 100 rounds dealt, for perfect play and for the count; None
    where there is no standard error (fewer than two shoes).

    >>> found = confidence_intervals({"perfect_win_per_100_hands": 1.0,
    ...     "perfect_win_per_100_hands_se": 0.5, "count_win_per_100_hands": 0.0,
    ...     "count_win_per_100_hands_se": None})
    >>> [round(x, 4) for x in found["perfect_win_per_100_hands_ci95"]], found[
    ...     "count_win_per_100_hands_ci95"]
    ([0.02, 1.98], None)
    """
    out: dict[str, list[float] | None] = {}
    for figure in _INTERVALS:
        value, error = entry[f"{figure}_per_100_hands"], entry[f"{figure}_per_100_hands_se"]
        out[f"{figure}_per_100_hands_ci95"] = (
            None if value is None or error is None else [value - Z_95 * error,
                                                         value + Z_95 * error])
    return out


def error_lines(summary: dict[str, dict[str, Any]]) -> list[str]:
    """The units won per 100 rounds dealt with their standard errors and 95% confidence
    intervals, per bet (perfect play, then the count)."""
    lines = ["", "Units won per 100 rounds dealt, with the standard error (se, from the "
             "spread between shoes) and the 95% confidence interval:",
             f"{'bet':22} {'perfect':>9} {'se':>8} {'95% interval':>21} | "
             f"{'count':>9} {'se':>8} {'95% interval':>21}"]
    for entry in summary.values():
        cells = []
        for figure in _INTERVALS:
            value = entry[f"{figure}_per_100_hands"]
            error = entry[f"{figure}_per_100_hands_se"]
            interval = entry[f"{figure}_per_100_hands_ci95"]
            shown_interval = ("-" if interval is None
                              else f"[{fixed(interval[0], 4)}, {fixed(interval[1], 4)}]")
            cells.append(f"{'-' if value is None else fixed(value, 4):>9} "
                         f"{'-' if error is None else fixed(error, 4):>8} "
                         f"{shown_interval:>21}")
        lines.append(f"{entry['name'][:22]:22} {cells[0]} | {cells[1]}")
    return lines


SIMULATED_WINS = ("player-adv: share of rounds with the player's advantage; avg edge: average "
                  "house edge of the rounds bet; win: units the player won")


# --- edge --------------------------------------------------------------------------------------
def _parse_known(items: list[tuple[int, str]] | None) -> dict[int, Card]:
    # (POSITION, CARD) pairs, each position once, read by the grammar (KeyedOption)
    return {position: Card.parse(text) for position, text in items or ()}


def _seen_cards(args: argparse.Namespace) -> list[Card]:
    """The cards of ``--seen FILE`` (or standard input), in any layout."""
    if args.seen in (None, "-"):
        seen_text = read_standard_input("seen cards")
    else:
        seen_text = read_user_file(args.seen, "seen cards")
    return parse_cards(seen_text.replace("\n", " "))


def _edge(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    own = own_command(game, "edge")
    if own is not None:  # a game without a bet table (century21): its own next hand
        return own(game, args, _seen_cards(args))
    bets = _bets(game, args)
    seen = _seen_cards(args)
    shoe = full_shoe(args).remove(seen)
    known = _parse_known(args.known)
    # With known cards a bet on colours or suits read with the third cards is counted by
    # factorised counting with the cards forced (seconds at 8 decks); in a game without card
    # positions it would be walked card by card (minutes): the default set leaves such a bet
    # out, saying so; --bet asks for it anyway.
    slow = [b for b in bets if known and not args.bet and slow_with_known(game, b)]
    bets = [b for b in bets if b not in slow]
    if not known:  # next_round checks a shoe around known cards itself, before any plan
        check_dealable(game, shoe, bets)  # before the evaluator's plan (seconds on some bets)
    rounds = next_round(game, shoe, bets, known,
                        evaluator=None if known else BetEvaluator(game, bets))
    report = {"cards_seen": len(seen), "cards_unseen": shoe.size,
              "sign_convention": SIGN_CONVENTION,
              "known": {str(p): str(c) for p, c in sorted(known.items())},
              "not_evaluated": {b.id: KNOWN_TOO_SLOW for b in slow},
              "bets": {bet_id: {"name": r.bet.name,
                                "house_edge": exact_and_float(-r.expected_value),
                                "player_advantage": r.expected_value > 0,
                                "counts": [str(c) for c in r.counts], "total": str(r.total)}
                       for bet_id, r in rounds.items()}}
    if args.json:
        return json_text(report)
    where = "".join(f", card {p} is {c}" for p, c in sorted(known.items()))
    lines = [f"Next round: {len(seen)} cards seen, {shoe.size} unseen{where}; house edge of "
             "each bet (BET: the player has the advantage)", f"Signs: {SIGN_CONVENTION}"]
    for bet_id, r in rounds.items():
        edge = -r.expected_value
        lines.append(f"{bet_id:22} {points(edge, 4, sign=True):>9}%  {'BET' if edge < 0 else '':3} "
                     f"exact {edge}")
    if slow:
        lines.append(f"Not evaluated: {', '.join(b.id for b in slow)} ({KNOWN_TOO_SLOW})")
    return "\n".join(lines) + "\n"


KNOWN_TOO_SLOW = ("with --known, a bet on colours or suits read with the third cards takes "
                  "minutes at 8 decks in a game without card positions; ask for it with --bet")


# --- registration ------------------------------------------------------------------------------
def add_commands(game_command: Callable[..., OneLineParser]) -> None:
    """Add ``eor``, ``simulate`` and ``edge`` through :mod:`exact.cli.app`'s ``game_command``."""

    def bet_options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--bet", action="append", metavar="ID",
                            help="only this bet; may be repeated")
        parser.add_argument("--json", action="store_true", help="machine-readable JSON")
        parser.add_argument("--output", "-o", metavar="FILE", type=output_name,
                            help=OUTPUT_HELP)

    def shoe_options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--decks", type=number_option("decks", "--decks"),
                            help="full decks in the shoe (default 8)")
        parser.add_argument("--shoe", help="explicit composition, e.g. 'A:32,T:128,9H:8'")

    eor = game_command("eor", "exact effects of removal, derived counts and their betting "
                       "correlation", _eor)
    shoe_options(eor)
    eor.add_argument("--remove", help="cards already out of the shoe, e.g. '5,5,9H'")
    eor.add_argument("--depth", type=number_option("depth", "--depth"), default=1,
                     help="cards of each rank removed at a time (effect per card)")
    eor.add_argument("--removal-set", action="append", metavar="CARDS",
                     help="exact change for removing these cards, e.g. '5 5 6'; repeatable")
    eor.add_argument("--tags", help="your count's tags, e.g. 'A=1,2=1,9=-1' (others 0)")
    bet_options(eor)

    sim = game_command("simulate", "shoe simulation with the exact edge at every round", _simulate)
    sim.add_argument("--shoes", type=number_option("shoes", "--shoes"), required=True,
                     help=f"number of shoes (at most {MAX_SHOES:,})")
    sim.add_argument("--seed", type=number_option("seed", "--seed"), required=True,
                     help="master seed (0 to 2**128 - 1)")
    sim.add_argument("--decks", type=number_option("simulated-decks", "--decks"),
                     help=f"decks per shoe, at most {MAX_DECKS:,} (default 8; a game with rules "
                     "of its own: the rules' shoe, with jokers in the rules' proportion)")
    sim.add_argument("--cut", type=number_option("cut", "--cut"), default=14,
                     help="cards behind the cut card (default 14)")
    sim.add_argument("--burn", type=burn_option, default="first-card",
                     help="'first-card' (default), 'none' or a number of cards")
    sim.add_argument("--workers", type=number_option("workers", "--workers"),
                     default=min(os.cpu_count() or 1, 1024),
                     help="local processes (default: one per core, at most "
                     f"{WORKERS_PER_CORE} per core); results do not depend on it")
    sim.refuse_together("--scheduler", "--workers",
                        "--workers sets local processes, --scheduler runs on a Dask cluster")
    sim.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                     help="run on this Dask cluster instead (one you trust: Dask sends it, "
                     "and takes from it, pickles)")
    sim.add_argument("--tags", help="count tags for every bet (default: derived per bet; "
                     "a game may count by classes of its own, e.g. A-9, T, X)")
    sim.add_argument("--trigger", action="append", metavar="BET=TC",
                     type=KeyedOption("--trigger", "BET=TRUE_COUNT", value="true-count"),
                     help="true count at which the count bets BET (default: TC*); may be "
                          "repeated, each bet once")
    bet_options(sim)

    edge = game_command("edge", "exact edge of every bet for the next round, from the cards "
                        "seen", _edge)
    shoe_options(edge)
    edge.add_argument("--seen", metavar="FILE", type=InputFile(stdin=True), default="-",
                      help="cards seen so far (FILE, or '-'/absent for standard input)")
    edge.add_argument("--known", action="append", metavar="POS=CARD",
                      type=KeyedOption("--known", "POSITION=CARD", key="position"),
                      help="card known at a position of the next round, e.g. 1=9H; may be "
                           "repeated, each position once")
    bet_options(edge)
