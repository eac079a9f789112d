"""``exact settle century21``: settle one table hand from a table file or options.

Layer: games, the top: the game's own cli code, which may import every generic layer.

A table file (TOML, at most 64 KiB) names the hand and its wagers::

    dealer = "KH 7C"          # the Player/Dealer's cards, up card first
    dealer_wager = 300
    dice = 3                  # the seat the dice start the comparison at (optional), or
    # dice_total = 11         # the three dice's total, counted clockwise from the
    #                         # Player/Dealer's position 1 (seats at positions 2-8)
    dealer_free_collection = false
    table = 1                 # which table tag of the rules (1 = the first, the default)
    action = "seat-by-seat"   # optional: override the rules' reading ("whole-hand")

    [[seat]]
    seat = 3
    cards = "9S KD"
    position = 4              # optional, with dice_total: 2-8 clockwise (default seat + 1)
    natural_declared = true   # rule 10: false -> a Natural plays as 9

    [[wager]]
    seat = 3
    circle = 1                # 1 the seated player, 2 and 3 backline
    amount = 100              # a number of the grammar: 100, 12.5, "25/2", "2.5e1"
    player = "Ann"            # optional: who placed it (rule 6 counts a player's spots)
    choice = "draw"           # optional: how this wager's owner wants an option hand played
    free_collection = false   # optional: paid with a free-collection button

Options give the same without the file: ``--dealer``, ``--seat SEAT=CARDS``,
``--wager SEAT.CIRCLE=AMOUNT``, ``--dealer-wager``, ``--dice`` or ``--dice-total`` (with
``--position SEAT=POS``), ``--action``, ``--rules``.
Every number (amounts, seats, circles, the table tag) is read by the one number grammar of
:mod:`exact.core.parsing`, and every card of the hand is counted against the shoe (the rules'
decks and jokers, or ``--decks``/``--jokers``/``--shoe``).
"""

from __future__ import annotations

import argparse
import json
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, Self

from exact.cli.edge import rules_for
from exact.cli.shoe_options import full_shoe
from exact.core.parsing import (
    expect,
    load_toml,
    parse_integer,
    read_user_file,
    shown,
    shown_path,
)
from exact.core.records import Circle, FileRecord, Money, Seat, TableNumber, structure
from exact.errors import ExactError, InputError
from exact.games.century21.rules import Rules
from exact.games.century21.table import CircleWager, TableHand, settle_table
from exact.model.settlement import (
    SettlementError,
    SettlementInputError,
    positive_amount,
    settlement_json,
)
from exact.render import numbers

MAX_FILE_BYTES = 64 * 1024


class Wager(Money):
    """A wager of a table file: a positive amount (``bet`` of the number grammar)."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        amount = positive_amount(where, value)
        return cls(amount.numerator, amount.denominator)


class SeatEntry(FileRecord, frozen=True):
    """A ``[[seat]]`` of a table file: a seated player's cards."""

    seat: Seat
    cards: str
    natural_declared: bool = True
    """False: a Natural the player did not declare (it plays as a total of 0)."""
    position: Seat | None = None
    """The seat's place in dice order (``--position``), if not its number."""


class WagerEntry(FileRecord, frozen=True):
    """A ``[[wager]]``: one circle's wager."""

    seat: Seat
    circle: Circle
    amount: Wager
    free_collection: bool = False
    player: str | None = None
    choice: str | None = None


class TableFile(FileRecord, frozen=True):
    """A 21st Century Baccarat table file (``settle century21 --table-hand FILE``)."""

    dealer: str
    dealer_wager: Wager
    dice: Seat | None = None
    dice_total: Seat | None = None
    dealer_free_collection: bool = False
    table: TableNumber = TableNumber(1)
    """Which table tag of the rules (1 = the first)."""
    action: str | None = None
    seat: tuple[SeatEntry, ...] = ()
    wager: tuple[WagerEntry, ...] = ()


def settle_command(game: Any, args: argparse.Namespace) -> str:
    expect(args, argparse.Namespace, "settle_command: args must be the parsed command line")
    rules = rules_for(game, args)
    shoe = full_shoe(args, rules.decks, rules.jokers)  # read before the hand
    if args.cards or args.paytable:
        raise SettlementError("settle century21: give the hands with --dealer and --seat (or "
                              "--table-hand FILE), not --cards/--paytable")
    if args.table:
        if (args.dealer or args.seat or args.wager or args.dealer_wager is not None
                or args.dice is not None or args.dice_total is not None or args.position):
            raise SettlementError("settle century21: give either --table-hand FILE or the hand's "
                                  "options, not both")
        hand = read_table_file(Path(args.table))
    else:
        hand = hand_from_options(args)
    if args.action:
        hand["action"] = args.action
    if hand.get("action") is not None:
        rules = rules.replace(action=hand["action"])
    args.resolved_rules = rules  # the assumptions printed with the result follow these rules
    tag_index = hand["table"]
    if tag_index > len(rules.table_tags):
        raise SettlementError(f"table {tag_index}: the rules have {len(rules.table_tags)} "
                              "table tag(s), numbered from 1")
    tag = rules.table_tags[tag_index - 1]
    settled = settle_table(rules, hand["dealer"], hand["seats"], hand["wagers"],
                           hand["dealer_wager"], tag, hand["dealer_free_collection"],
                           hand["dice"], hand["undeclared"], shoe, hand["dice_total"],
                           hand["positions"] or None)
    data = table_json(rules, tag, hand, settled)
    if args.json:
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return table_text(data)


def _seat_number(where: str, value: object) -> int:
    return parse_integer(value, "table-seat", f"{where}: seat", SettlementInputError)


def _amount(where: str, value: object) -> Fraction:
    # the number grammar: an integer, a decimal (a TOML float as written) or a fraction
    return positive_amount(f"{where}: amount", value)


def read_table_file(path: Path | str) -> dict[str, Any]:
    """The hand of a table file (see the module docstring), checked field by field."""
    expect(path, (Path, str), "read_table_file: path must be a Path or text")
    # read_user_file: a byte-order mark dropped, and a FIFO no one writes waited for a bounded
    # time, as for every other user file
    text = read_user_file(path, "table file", SettlementError)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise SettlementError(f"{shown_path(path)}: a table file is at most {MAX_FILE_BYTES} bytes")
    try:
        # load_toml: an integer of thousands of digits or nesting too deep is a TOML error too
        data = load_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise SettlementError(f"{shown_path(path)}: not a TOML table file: {error}") from None
    return hand_from_mapping(data, shown_path(path))


def hand_from_mapping(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The hand of a table file's table ``data`` (``source`` names it in refusals)."""
    expect(data, Mapping, "hand_from_mapping: data must be a table file's table (a mapping)")
    expect(source, str, "hand_from_mapping: source must be text")
    hand = structure(data, TableFile, source, SettlementError, SettlementInputError)
    seats: dict[int, str] = {}
    positions: dict[int, int] = {}
    undeclared: list[int] = []
    for index, entry in enumerate(hand.seat, 1):
        if entry.seat in seats:
            raise SettlementError(f"{source}: seat entry {index}: seat {entry.seat} given twice")
        seats[int(entry.seat)] = entry.cards
        if not entry.natural_declared:
            undeclared.append(int(entry.seat))
        if entry.position is not None:
            positions[int(entry.seat)] = int(entry.position)
    wagers = [CircleWager(int(entry.seat), int(entry.circle), Fraction(entry.amount),
                          entry.free_collection, entry.player, entry.choice)
              for entry in hand.wager]
    if not wagers:
        raise SettlementError(f"{source}: no [[wager]]: nothing to settle")
    return {"dealer": hand.dealer, "dealer_wager": Fraction(hand.dealer_wager),
            "dice": None if hand.dice is None else int(hand.dice),
            "dice_total": None if hand.dice_total is None else int(hand.dice_total),
            "positions": positions, "dealer_free_collection": hand.dealer_free_collection,
            "table": int(hand.table), "action": hand.action,
            "seats": seats, "wagers": wagers, "undeclared": undeclared}


def hand_from_options(args: argparse.Namespace) -> dict[str, Any]:
    """The hand of the options: ``--seat`` and ``--wager`` are pairs, their numbers already
    read by the grammar (:class:`~exact.core.options.KeyedOption`)."""
    if not args.dealer or not args.seat or not args.wager or args.dealer_wager is None:
        raise SettlementError("settle century21: give --table-hand FILE, or --dealer, --seat, "
                              "--wager and --dealer-wager")
    seats: dict[int, str] = dict(args.seat)  # each seat once: the option's action checks
    wagers = []
    for where, amount in args.wager:
        named = f"--wager {shown(f'{where}={amount}')}"
        seat, dot, circle = where.partition(".")
        if not dot:
            raise SettlementError(f"{named}: expected SEAT.CIRCLE=AMOUNT, e.g. 3.1=100")
        wagers.append(CircleWager(_seat_number(named, seat),
                                  parse_integer(circle, "circle", f"{named}: circle",
                                                SettlementInputError),
                                  _amount(named, amount)))
    positions: dict[int, int] = {}
    for seat, position in args.position or []:
        if seat in positions:
            raise SettlementError(f"--position: seat {seat} given twice")
        positions[seat] = position
    return {"dealer": args.dealer, "dealer_wager": _amount("--dealer-wager", args.dealer_wager),
            "dice": args.dice, "dice_total": args.dice_total, "positions": positions,
            "dealer_free_collection": False, "table": 1, "action": None,
            "seats": seats, "wagers": wagers, "undeclared": []}


def table_json(rules: Rules, tag: Any, hand: Mapping[str, Any],
               settled: TableHand) -> dict[str, Any]:
    by_label = {w.label: w for w in hand["wagers"]}
    wagers = []
    for settlement in settled.settlements:
        wager = by_label[settlement.wager.bet]
        item = settlement_json(settlement, settled.collections[wager.label],
                              None if wager.player is None else {"player": wager.player})
        item.update({"seat": wager.seat, "circle": wager.circle, "amount": str(wager.amount),
                     "in_action": str(settled.in_action[wager.label]),
                     "returned_without_action": str(settled.returned[wager.label]),
                     "free_collection_credit": wager.label in settled.free_collection_credits})
        if settlement.event == "no_action":
            item["result"] = "no action"
            item["pushed"] = "0"
        wagers.append(item)
    players_net = settled.players_net
    return {
        "game": "century21", "game_name": "21st Century Baccarat",
        "rules": rules.id, "action_reading": rules.action,
        "table_tag": {"min_bet": str(tag.min_bet), "max_bet": str(tag.max_bet),
                      "collection": str(tag.fee)},
        "dealer": hand["dealer"], "dealer_wager": str(hand["dealer_wager"]),
        "seats": {str(seat): cards for seat, cards in sorted(hand["seats"].items())},
        "undeclared_naturals": list(hand["undeclared"]),
        "dice_start": hand["dice"], "order": list(settled.order),
        **({"dice_total": hand["dice_total"],
            "positions": {str(seat): (hand["positions"] or {}).get(seat, seat + 1)
                          for seat in sorted(hand["seats"])}}
           if hand.get("dice_total") is not None else {}),
        "deciders": {str(seat): circle for seat, circle in settled.deciders.items()},
        "wagers": wagers,
        "totals": {"players_net": str(players_net),
                   "in_action": str(sum(settled.in_action.values(), Fraction(0))),
                   "returned_without_action": str(sum(settled.returned.values(), Fraction(0))),
                   "player_collections": str(sum(settled.collections.values(), Fraction(0))),
                   "dealer_collection": str(settled.dealer_collection),
                   "dealer_net": str(settled.dealer_net),
                   "house_collection": str(settled.house_collection)},
        "free_collection_credits": list(settled.free_collection_credits),
    }


def _money(text: str) -> str:
    return numbers.amount(Fraction(text))


def table_text(data: Mapping[str, Any]) -> str:
    lines = [f"21st Century Baccarat: Player/Dealer {data['dealer']}, wager "
             f"{_money(data['dealer_wager'])}; action {data['action_reading']}; dice order "
             f"{', '.join(map(str, data['order']))}"]
    lines += [f"  seat {seat}: {cards}" for seat, cards in data["seats"].items()]
    for item in data["wagers"]:
        money = [f"{key} {_money(item[key])}" for key in ("won", "lost", "pushed", "collection")
                 if Fraction(item[key])]
        if Fraction(item["returned_without_action"]):
            money.append(f"returned {_money(item['returned_without_action'])}")
        if item["free_collection_credit"]:
            money.append("free-collection credit")
        lines.append(f"  {item['result'].upper():9} {item['bet']} ({_money(item['amount'])}"
                     f"{', ' + item['player'] if item.get('player') else ''}): "
                     f"{', '.join(money) or 'nothing'}; net {_money(item['net'])}")
        lines.append(f"            {item['reason']}")
    totals = data["totals"]
    lines.append(f"Players net {_money(totals['players_net'])}; Player/Dealer net "
                 f"{_money(totals['dealer_net'])} after its collection "
                 f"{_money(totals['dealer_collection'])}; card room collects "
                 f"{_money(totals['house_collection'])}; in action "
                 f"{_money(totals['in_action'])}, returned "
                 f"{_money(totals['returned_without_action'])}")
    if data["free_collection_credits"]:
        lines.append("Free-collection buttons: " + ", ".join(data["free_collection_credits"]))
    return "\n".join(lines) + "\n"


__all__ = ("hand_from_mapping", "read_table_file", "settle_command")
