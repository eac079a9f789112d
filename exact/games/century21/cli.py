"""The commands of 21st Century Baccarat, run its own way (``analyze``, ``eor`` and ``edge
century21``): the command-line side of :mod:`exact.games.century21.render` and
:mod:`exact.games.century21.batch`, declared by name in the game's ``extensions``
(:attr:`exact.model.game.Game.extensions`) so that the game definition imports no
command-line code.

Layer: games, the top: the game's own cli code, which may import every generic layer.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from exact.analysis.removal import parse_tags
from exact.cli.edge import rules_for
from exact.cli.shoe_options import full_shoe, options_shoe, removed
from exact.core.cards import Card
from exact.core.parsing import parse_number
from exact.errors import ExactError
from exact.games.century21.batch import (
    CLASS_DESCRIPTION,
    CLASS_KEYS,
    HELD_FIXED,
    class_key,
    class_removal_table,
    class_weights,
    evaluator_for,
    next_hand,
)
from exact.games.century21.full_table import MAX_SEATS
from exact.games.century21.game import Century21, checked_mode
from exact.games.century21.render import report as heads_up_report
from exact.games.century21.table_economics import table_figures
from exact.games.century21.table_render import (
    distribution_table,
    table_csv,
    table_json,
    table_text,
)
from exact.render.numbers import fixed, general, percent, points, signed
from exact.render.output import SIGN_CONVENTION, json_text
from exact.render.removal import eor_report, eor_text

TABLE_HANDS = 20_000
"""Hands of the seeded table simulation that estimates the Player/Dealer's distribution from 2
seats (seed 1: the same bytes every run)."""


def analyze_command(game: Century21, args: argparse.Namespace) -> str:
    """``exact analyze century21 [--strategy ...] [--bet-size 10] [--collection 1] ...``."""
    rules = rules_for(game, args)
    # the same shoe as eor/edge century21: the rules' jokers stay unless --jokers/--shoe
    shoe = options_shoe(args, rules.decks, rules.jokers)
    # --bet AMOUNT is the old spelling of --bet-size here (--bet is a bet id elsewhere)
    sizes = [("--bet", size) for size in args.bet or []]
    if sizes:
        warnings.warn("--bet is the old spelling of --bet-size for century21 (elsewhere --bet "
                      "names a bet)", stacklevel=1)
    if getattr(args, "bet_size", None) is not None:
        sizes.append(("--bet-size", args.bet_size))
    if len(sizes) > 1:
        raise ExactError("century21: give one --bet-size (the bet per seat)")
    bet = _number(*sizes[0]) if sizes else rules.table.min_bet
    if bet <= 0:
        raise ExactError(f"{sizes[0][0]} {bet}: the bet must be positive")
    fee = None if args.collection is None else _number("--collection", args.collection)
    dealer_wager = getattr(args, "dealer_wager", None)
    wager = None if dealer_wager is None else _number("--dealer-wager", dealer_wager)
    if getattr(args, "seats", None) is not None:
        return _table_command(rules, shoe, args, bet, fee, wager)
    for option in ("wagers", "owners"):
        if getattr(args, option, None) is not None:
            raise ExactError(f"century21: --{option} needs --seats")
    if args.csv and not args.json:  # before any work, and before the --xlsx file is written
        raise ExactError("century21: --csv is not supported; use --json")
    data = heads_up_report(rules, shoe, args.strategy, bet, fee, args.information,
                           args.players, wager)
    text = data.pop("_text")
    bet_table = data.pop("_table")
    if getattr(args, "xlsx", None):
        from exact.render.spreadsheet import heading_lines, workbook_bytes, write_bytes

        write_bytes(Path(args.xlsx), workbook_bytes(
            "21st Century Baccarat", heading_lines(shoe, data["counting_unit"]), [bet_table]),
            [args.output])
        from exact.cli.messages import written

        written(args.xlsx, "Excel par sheet")
        if not (args.json or args.output):
            return ""
    if args.json:
        return json_text(data)
    head = [f"21st Century Baccarat: {shoe.headline()}",
            *(f"  {line}" for line in data["rules"]),
            f"Counting unit: {data['counting_unit']}", f"Signs: {SIGN_CONVENTION}",
            f"Strategy: {args.strategy} (player decides by its two-card "
            f"{args.information} and the up card)", ""]
    economics = data["economics"]
    tail = [
        f"House edge (the player's expected loss per unit bet): "
        f"{percent(-data['player_edge_float'], 4, True)} = {-Fraction(data['player_edge'])}; "
        f"the player's edge {percent(data['player_edge_float'], 4, True)}",
        f"With a {data['collection']} collection on a {data['bet']} bet: "
        f"{percent(data['player_edge_with_collection_float'], 4, True)} of the bet",
        f"Table of {economics['counts']}: Player/Dealer nets "
        f"{signed(Fraction(economics['dealer_net_per_hand']))} per hand; break-even bet "
        f"per player against the same seats, all in action: "
        f"{_shown(economics['dealer_break_even_bet_per_player'])}",
        "Exact deviation check: player gains "
        f"{general(Fraction(data['deviation_check']['player_gain_by_deviating']), 3)}, dealer "
        f"gains {general(Fraction(data['deviation_check']['dealer_gain_by_deviating']), 3)} "
        "per unit bet" + (" (an exact equilibrium)" if data["deviation_check"]["equilibrium"]
                          else ""), ""]
    return "\n".join(head + [text[0], "", *tail, text[1], "", text[2], ""])


def _table_command(rules, shoe, args: argparse.Namespace, bet: Fraction, fee: Fraction | None,
                   wager: Fraction | None) -> str:
    """``analyze century21 --seats N [--wagers ...] [--owners ...]``: the full table."""
    seats = int(args.seats)
    if not 1 <= seats <= MAX_SEATS:
        raise ExactError(f"--seats {seats}: a table has 1 to {MAX_SEATS} seats")
    if args.players not in (None, 1):
        raise ExactError("century21: give --seats (the full table) or --players, not both")
    wagers: list[Fraction] = [bet] * seats
    if args.wagers is not None:
        parts = args.wagers.split(",")
        if len(parts) != seats:
            raise ExactError(f"--wagers: {len(parts)} wagers for {seats} seats")
        wagers = [_number("--wagers", part.strip()) for part in parts]
    owners = None
    if args.owners is not None:
        owners = [part.strip() for part in args.owners.split(",")]
        if len(owners) != seats or not all(owners):
            raise ExactError(f"--owners: {len(owners)} names for {seats} seats (none empty)")
    figures = table_figures(rules, shoe, wagers, args.strategy or "house", wager, fee, owners,
                            mode=checked_mode(args.information or "total"),
                            simulate_hands=TABLE_HANDS)
    if getattr(args, "xlsx", None):
        from exact.render.spreadsheet import workbook_bytes, write_bytes

        found = distribution_table(figures)
        write_bytes(Path(args.xlsx), workbook_bytes(
            "21st Century Baccarat at a table", table_text(figures).splitlines()[:3],
            [found] if found is not None else []), [args.output])
        if not (args.json or args.csv or args.output):
            return ""
    if args.json:
        return json_text(table_json(figures))
    if args.csv:
        return table_csv(figures)
    return table_text(figures)


def _shown(value: str | None) -> str:
    return "never" if value is None else f"{fixed(Fraction(value), 2)} ({value})"


def _number(option: str, text: str) -> Fraction:
    return parse_number(text, "fee" if option == "--collection" else "bet", option)


def eor_command(game: Century21, args: argparse.Namespace) -> str:
    """``exact eor century21 [--decks N|--shoe ...] [--strategy ...] [--json]``."""
    if args.bet or args.bets:
        raise ExactError("century21 has one bet, the player's: --bet/--bets do not apply")
    rules = rules_for(game, args)
    full = full_shoe(args, rules.decks, rules.jokers)
    shoe = removed(args, full)
    evaluator = evaluator_for(rules, args.strategy or "house", args.information or "total")
    weights = class_weights(full)
    user_tags = (parse_tags(args.tags, CLASS_KEYS, lambda card: class_key(card.rank))
                 if args.tags else None)
    table = class_removal_table(evaluator, shoe, args.depth, args.removal_set or ())
    decks = max((shoe.size - shoe.jokers) // 52, 1)
    report = {"game": "century21", "strategy": evaluator.strategy,
              "information": evaluator.deal.mode, "held_fixed": HELD_FIXED,
              "classes": CLASS_DESCRIPTION, "count_weights": weights,
              **eor_report(table, user_tags, decks, weights, "class")}
    if args.json:
        return json_text(report)
    return (f"21st Century Baccarat, {evaluator.strategy} strategy pair ({HELD_FIXED}); "
            f"classes: {CLASS_DESCRIPTION}\n" + eor_text(table, report, CLASS_KEYS, "class"))


def edge_command(game: Century21, args: argparse.Namespace, seen: Sequence[Card]) -> str:
    """``exact edge century21 [--decks N|--shoe ...] [--seen FILE] [--json]``."""
    if args.bet or getattr(args, "bets", None):
        raise ExactError("century21 has one bet, the player's: --bet/--bets do not apply")
    if args.known:
        raise ExactError("century21: --known is not supported (the joker and option hands "
                         "are searched over whole hands, not card positions)")
    rules = rules_for(game, args)
    shoe = full_shoe(args, rules.decks, rules.jokers).remove(seen)
    report = {"cards_seen": len(seen), "sign_convention": SIGN_CONVENTION,
              **next_hand(rules, shoe, args.information or "total")}
    if args.json:
        return json_text(report)
    lines = [f"Next hand of 21st Century Baccarat: {len(seen)} cards seen, {shoe.size} unseen; "
             f"house edge of the player's bet (the player's expected loss per unit bet), "
             f"collection {report['collection']} on a {report['bet']} bet",
             f"Signs: {SIGN_CONVENTION}"]
    for name, entry in report["strategies"].items():
        value, after = entry["house_edge"], entry["house_edge_with_collection"]
        lines.append(f"{name:6} {points(value['float'], 4, True):>9}%  after collection "
                     f"{points(after['float'], 4, True):>9}%  "
                     f"{'BET' if entry['player_advantage'] else '':3} "
                     f"exact {value['exact']}  ({entry['description']})")
    return "\n".join(lines) + "\n"
