"""Dragon Tiger's own `settle`: the two cards and the side they make win."""
import argparse
from typing import Any

from exact.core.cards import parse_cards
from exact.errors import ExactError
from exact.model.game import Game


def settle_command(game: Game[Any], args: argparse.Namespace) -> str:
    cards = parse_cards(args.cards or "")
    if len(cards) != 2:
        raise ExactError(f"settle {game.id}: give the Dragon's card, then the Tiger's (--cards)")
    winner = game.read(game.record_from_cards(cards), "winner")
    return f"Dragon {cards[0]}, Tiger {cards[1]}: {winner}\n"
