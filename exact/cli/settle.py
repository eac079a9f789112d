"""The ``settle`` command: settle one dealt round of a game from its cards and wagers.

Layer: cli, the top (beside the lab); it may import every layer below.

Punto Banco and Baccarat with NINE & NINES take the cards in dealing order (Player, Banker,
Player, Banker, then third cards) and ``--wager BET=AMOUNT``; every wager is settled by
:func:`exact.model.settlement.settle_round`, the code path of the exact analyses. 21st Century
Baccarat settles a table hand (seats, circles, the Player/Dealer's wager, the dice) from a
table file or options, by :func:`exact.games.century21.table.settle_table`.

Each wager's line gives its result, the amounts won, lost, pushed, the commission and the
collection, and the reason (the tier and the features that decided it); ``--json`` gives the
same as data (exact amounts as text).

>>> import contextlib, io
>>> from exact.cli.app import main
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = main(["settle", "punto-banco", "--cards", "7H 4C 6D 6S 5H 2C", "--wager",
...                  "player=10"])
>>> code
0
>>> print(out.getvalue().splitlines()[1])
  Player: 7H 6D 5H, total 8 (drew a third card)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from exact.cli.shoe_options import full_shoe
from exact.core.cards import Card, Label, parse_cards
from exact.core.files import output_name
from exact.core.options import KeyedOption, number_option
from exact.core.parsing import expect, shown, shown_all, wrong_type
from exact.errors import ExactError, WrongTypeError
from exact.model.contracts import BetGame
from exact.model.game import Game
from exact.model.plugins import get_game, own_command, plugin
from exact.model.settlement import (
    SettledRound,
    SettlementError,
    Wager,
    check_wagers,
    settle_round,
    settlement_json,
)
from exact.render.numbers import amount

# The record of a game settled by its cards (Punto Banco, NINE & NINES): the Player's and the
# Banker's hands, each the cards dealt to it
Hands = tuple[tuple[Label, ...], tuple[Label, ...]]


def add_command(game_command: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``settle`` (called by :func:`exact.cli.app.build_parser`)."""
    parser = game_command("settle", "settle one dealt round: each wager's result, money and "
                          "reason", run)
    parser.add_argument("--cards", metavar="CARDS",
                        help="the round's cards in dealing order, e.g. '9H 5C 9D 2S' (Player, "
                             "Banker, Player, Banker, then third cards)")
    parser.add_argument("--wager", action="append", metavar="BET=AMOUNT",
                        type=KeyedOption("--wager", "BET=AMOUNT", value="bet"),
                        help="a wager, e.g. banker=10 (a table game: SEAT.CIRCLE=AMOUNT, "
                             "e.g. 3.1=100); may be repeated, each bet once")
    parser.add_argument("--paytable", action="append", metavar="BET=NAME",
                        type=KeyedOption("--paytable", "BET=NAME"),
                        help="settle BET by its alternative paytable NAME")
    parser.add_argument("--decks", type=number_option("decks", "--decks"),
                        help="full decks in the shoe the cards came from (default 8; "
                             "a game with rules of its own: the rules')")
    parser.add_argument("--jokers", type=number_option("jokers", "--jokers"),
                        help="jokers in that shoe (default 0; a game with rules of its "
                             "own: the rules' proportion)")
    parser.add_argument("--shoe", help="that shoe's composition, e.g. 'A:32,T:128,9H:8': "
                        "the round may use no card more often than it holds")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON")
    parser.add_argument("--output", "-o", metavar="FILE", type=output_name,
                        help="write to FILE (atomically)")


def run(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    own = own_command(game, "settle")
    if own is not None:  # a game that settles its own way (century21: a table hand)
        return own(game, args)
    if not isinstance(game, BetGame):  # chemin-de-fer: --cards and --wager are refused
        raise ExactError(f"settle {game.id}: a strategy game has no wagers to settle; see "
                         f"`analyze {game.id}`")
    shoe = full_shoe(args)  # the shoe the cards came from, read before the rest
    if not args.cards:
        raise ExactError(f"settle {game.id}: give the round's cards with --cards")
    if not args.wager:
        raise ExactError(f"settle {game.id}: give at least one --wager BET=AMOUNT")
    from exact.analysis.bet_analysis import game_bets

    bets = {bet.id: bet for bet in game_bets(game, args.bets or ())}
    wagers = parse_wagers(args.wager, args.paytable or ())
    check_wagers(game, wagers, bets)
    cards = round_cards(game, args.cards)
    settled = settle_round(game, cards, wagers, bets, shoe)
    data = round_json(game, settled)
    if args.json:
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return round_text(data)


def parse_wagers(items: Sequence[tuple[str, object]],
                 paytables: Sequence[tuple[str, str]] = ()) -> list[Wager]:
    """``(BET, AMOUNT)`` pairs (``--wager``, read by :class:`~exact.core.options.KeyedOption`)
    and ``(BET, NAME)`` paytable choices as wagers, each bet once.

    >>> parse_wagers([("banker", 10), ("tie", "2.5e-3")], [("tie", "9-to-1")])[1]
    Wager(bet='tie', amount=Fraction(1, 400), paytable='9-to-1')
    """
    chosen: dict[str, str] = {}
    for choice in paytables:
        bet, name = _pair(choice, "paytables", "(BET, NAME)")
        if bet in chosen:
            raise SettlementError(f"--paytable: bet {shown(bet)} given twice: give it once")
        chosen[bet] = _text(name, "parse_wagers: a paytable's name must be text")
    wagers = []
    for item in items:
        bet, amount = _pair(item, "items", "(BET, AMOUNT)")
        wagers.append(Wager(bet, cast(Fraction | int | str, amount), chosen.get(bet)))
    unused = sorted(set(chosen) - {wager.bet for wager in wagers})
    if unused:
        raise SettlementError(f"--paytable for {shown_all(unused)}: no --wager on it")
    return wagers


def _pair(pair: object, name: str, form: str) -> tuple[str, object]:
    if not isinstance(pair, tuple) or len(pair) != 2:
        raise WrongTypeError(wrong_type(f"parse_wagers: each of {name} must be a pair {form}",
                                        pair))
    bet, value = pair
    return _text(bet, "parse_wagers: a bet id must be text"), value


def _text(value: object, what: str) -> str:
    expect(value, str, what)
    return cast(str, value)


def round_cards(game: Game, text: str) -> list[Card]:
    """The cards of one round, each with its suit, no more than the round deals."""
    expect(game, Game, "round_cards: game must be a Game")
    expect(text, str, "round_cards: text must be the round's cards (text)")
    cards = parse_cards(text)
    bare = [str(card) for card in cards if card.suit is None and not card.is_joker]
    if bare:
        raise SettlementError(f"--cards: give every card's suit (e.g. 9H), not {bare[0]}")
    record = cast(Hands, game.record_from_cards(cards))
    used = sum(len(hand) for hand in record)
    if used != len(cards):
        raise SettlementError(f"--cards: the round deals {used} cards, got {len(cards)} "
                              f"(extra: {shown_all([str(c) for c in cards[used:]])})")
    return cards


def round_json(game: Game, settled: SettledRound) -> dict[str, Any]:
    expect(game, Game, "round_json: game must be a Game")
    expect(settled, SettledRound, "round_json: settled must be a SettledRound")
    features = settled.features
    record = game.record_from_cards(settled.cards)
    own = plugin(game).round_hands
    hands = own(game, record, features) if own is not None else stage_hands(game, record)
    return {
        "game": game.id, "game_name": game.name,
        "cards": [str(card) for card in settled.cards],
        "hands": hands, "winner": features.get("winner"),
        "wagers": [settlement_json(s) for s in settled.settlements],
        "totals": {"staked": str(settled.staked), "won": str(settled.won),
                   "lost": str(settled.lost), "pushed": str(settled.pushed),
                   "commission": str(settled.commission), "collection": "0",
                   "net": str(settled.net)},
    }


def stage_hands(game: Game, record: object) -> dict[str, dict[str, Any]]:
    """The round's hands as the game names its stages (``stages``: stage -> cards), each with
    its cards: what ``settle`` shows of a game that describes its round no other way."""
    names = list(getattr(game, "stages", None) or ())
    parts = record if isinstance(record, tuple) else (record,)
    hands: dict[str, dict[str, Any]] = {}
    for index, hand in enumerate(parts):
        labels = hand if isinstance(hand, tuple) else (hand,)
        name = names[index] if index < len(names) else f"hand {index + 1}"
        hands[name] = {"cards": [f"{label.rank}{label.suit or ''}" for label in labels]}
    return hands


def hand_text(name: str, hand: Mapping[str, Any]) -> str:
    """A hand's line in ``settle``'s text: its name, cards and any other field it has."""
    extra = "".join(f", {key} {value}" for key, value in hand.items() if key != "cards")
    return f"{name.title()}: {' '.join(hand['cards'])}{extra}"


def round_text(data: Mapping[str, Any]) -> str:
    expect(data, Mapping, "round_text: data must be round_json's mapping")
    lines = [f"{data['game_name']}: {' '.join(data['cards'])}"]
    own = plugin(data["game"]).hand_text if isinstance(data.get("game"), str) else None
    for name, hand in data["hands"].items():
        lines.append("  " + (own or hand_text)(name, hand))
    lines.append(f"  Winner: {data['winner']}")
    lines += wager_lines(data["wagers"])
    lines.append(totals_line(data["totals"]))
    return "\n".join(lines) + "\n"


def wager_lines(wagers: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = []
    for item in wagers:
        money = ", ".join(f"{key} {amount(Fraction(item[key]))}"
                          for key in ("won", "lost", "pushed", "commission", "collection")
                          if Fraction(item[key]))
        lines.append(f"  {item['result'].upper():5} {item['bet']}: {money or 'nothing'}; "
                     f"net {amount(Fraction(item['net']))}")
        lines.append(f"        {item['reason']}")
    return lines


def totals_line(totals: Mapping[str, str]) -> str:
    return ("Totals: " + ", ".join(f"{key} {amount(Fraction(value))}"
                                   for key, value in totals.items()
                                   if isinstance(value, str)))
