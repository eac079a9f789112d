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
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from exact.cli.edge import rules_for
from exact.cli.shoe_options import full_shoe
from exact.core.parsing import (
    check_keys,
    expect,
    load_toml,
    parse_integer,
    read_user_file,
    shown,
    shown_path,
)
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
FILE_KEYS = {"dealer", "dealer_wager", "dice", "dice_total", "dealer_free_collection", "table",
             "action", "seat", "wager"}
SEAT_KEYS = {"seat", "cards", "natural_declared", "position"}
WAGER_KEYS = {"seat", "circle", "amount", "player", "choice", "free_collection"}


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


def _quoted(value: object) -> str:
    """A file's value in a refusal: a TOML float (read as a Decimal) as written, anything
    else as :func:`shown` cuts it (a list of a million items is one short line)."""
    text = str(value) if isinstance(value, Decimal) else ""
    return text if 0 < len(text) <= 40 else shown(value)


def _amount(where: str, value: object) -> Fraction:
    # the number grammar: an integer, a decimal (a TOML float as written) or a fraction
    return positive_amount(f"{where}: amount", value)


def _seat_number(where: str, value: object) -> int:
    return parse_integer(value, "table-seat", f"{where}: seat", SettlementInputError)


def _flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SettlementError(f"{where}: {_quoted(value)} must be true or false")
    return value


def _text(where: str, value: object) -> str:
    if not isinstance(value, str):
        raise SettlementError(f"{where}: {_quoted(value)} must be a string")
    return value


def _tables(data: Mapping[str, Any], key: str, source: str) -> list[Mapping[str, Any]]:
    """The ``[[key]]`` entries of a table file, or a one-line refusal when they are not a
    list of tables."""
    entries = data.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise SettlementError(f"{source}: [[{key}]] must be a list of tables")
    return entries


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
    check_keys(data, FILE_KEYS, source, SettlementError)
    for key in ("dealer", "dealer_wager"):
        if key not in data:
            raise SettlementError(f"{source}: missing {key}")
    seats: dict[int, str] = {}
    positions: dict[int, int] = {}
    undeclared: list[int] = []
    for index, entry in enumerate(_tables(data, "seat", source), 1):
        where = f"{source} seat entry {index}"
        check_keys(entry, SEAT_KEYS, where, SettlementError)
        if "seat" not in entry or "cards" not in entry:
            raise SettlementError(f"{where}: needs seat and cards (and optionally "
                                  "natural_declared)")
        seat = _seat_number(where, entry["seat"])
        if seat in seats:
            raise SettlementError(f"{where}: seat {seat} given twice")
        seats[seat] = _text(where, entry["cards"])
        if not _flag(where, entry.get("natural_declared", True)):
            undeclared.append(seat)
        if "position" in entry:
            positions[seat] = parse_integer(entry["position"], "table-seat", f"{where}: position",
                                            SettlementInputError)
    wagers = []
    for index, entry in enumerate(_tables(data, "wager", source), 1):
        where = f"{source} wager entry {index}"
        check_keys(entry, WAGER_KEYS, where, SettlementError)
        missing = [key for key in ("seat", "circle", "amount") if key not in entry]
        if missing:
            raise SettlementError(f"{where}: missing {', '.join(missing)}")
        circle = parse_integer(entry["circle"], "circle", f"{where}: circle",
                               SettlementInputError)
        player = entry.get("player")
        choice = entry.get("choice")
        wagers.append(CircleWager(
            _seat_number(where, entry["seat"]), circle, _amount(where, entry["amount"]),
            _flag(where, entry.get("free_collection", False)),
            None if player is None else _text(where, player),
            None if choice is None else _text(where, choice)))
    if not wagers:
        raise SettlementError(f"{source}: no [[wager]]: nothing to settle")
    dice = data.get("dice")
    dice_total = data.get("dice_total")
    table = parse_integer(data.get("table", 1), "table-tag", f"{source}: table",
                          SettlementInputError)
    action = data.get("action")
    return {"dealer": _text(f"{source} dealer", data["dealer"]),
            "dealer_wager": _amount(f"{source} dealer_wager", data["dealer_wager"]),
            "dice": None if dice is None else _seat_number(f"{source} dice", dice),
            "dice_total": None if dice_total is None else parse_integer(
                dice_total, "table-seat", f"{source} dice_total", SettlementInputError),
            "positions": positions,
            "dealer_free_collection": _flag(f"{source} dealer_free_collection",
                                            data.get("dealer_free_collection", False)),
            "table": table, "action": None if action is None else _text(source, action),
            "seats": seats, "wagers": wagers, "undeclared": undeclared}


def hand_from_options(args: argparse.Namespace) -> dict[str, Any]:
    """The hand of the options: ``--seat`` and ``--wager`` are pairs, their numbers already
    read by the grammar (:class:`~exact.core.parsing.KeyedOption`)."""
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
