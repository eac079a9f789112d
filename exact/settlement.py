"""Settling the wagers of one dealt round, with the reason for each result.

A game turns the cards of a round into a record (``Game.record_from_cards``); every bet is
then settled from that record's features by the same bets-as-data definitions the exact
analyses use, so a settled round and a return table can never disagree.

>>> from exact.games import get_game
>>> game = get_game("punto-banco")
>>> round_ = settle_round(game, "9H 5C 9D 2S", [Wager("banker", 10), Wager("player", 10)])
>>> [(s.wager.bet, s.result, str(s.net)) for s in round_.settlements]
[('banker', 'loss', '-10'), ('player', 'win', '10')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from exact.bets import Bet
from exact.cards import Card, parse_cards
from exact.errors import ExactError
from exact.games.base import Game


class SettlementError(ExactError, ValueError):
    """A wager or a round that cannot be settled (unknown bet, bad amount, bad cards)."""


@dataclass(frozen=True)
class Wager:
    """An amount placed on a bet (by its id), optionally under a named paytable."""

    bet: str
    amount: Fraction | int | str
    paytable: str | None = None

    def __post_init__(self) -> None:
        try:
            amount = Fraction(self.amount)
        except (ValueError, TypeError, ZeroDivisionError):
            raise SettlementError(f"wager on {self.bet!r}: amount {self.amount!r} is not a "
                                  "number") from None
        if amount <= 0:
            raise SettlementError(f"wager on {self.bet!r}: amount must be positive, got {amount}")
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True)
class Settlement:
    """The result of one wager: the event that settled it, the pay and the money."""

    wager: Wager
    event: str
    pays: Fraction
    net: Fraction
    reason: str

    @property
    def result(self) -> str:
        return "win" if self.net > 0 else "push" if self.net == 0 else "loss"

    @property
    def returned(self) -> Fraction:
        """What goes back to the player: stake plus win, the stake on a push, 0 on a loss."""
        return max(Fraction(0), Fraction(self.wager.amount) + self.net)


@dataclass(frozen=True)
class SettledRound:
    cards: tuple[Card, ...]
    features: Mapping[str, object] = field(hash=False)
    settlements: tuple[Settlement, ...]

    @property
    def net(self) -> Fraction:
        return sum((s.net for s in self.settlements), Fraction(0))


def settle_round(game: Game, cards: str | Sequence[Card], wagers: Iterable[Wager],
                 bets: Mapping[str, Bet] | None = None) -> SettledRound:
    """Deal ``cards`` (in dealing order) as one round of ``game`` and settle ``wagers``."""
    from exact.analysis import game_bets

    dealt = tuple(parse_cards(cards) if isinstance(cards, str) else cards)
    known = bets if bets is not None else {b.id: b for b in game_bets(game)}
    record = game.record_from_cards(dealt)
    features = {name: feature.read(record) for name, feature in game.features.items()
                if _readable(feature, record)}
    settlements = []
    for wager in wagers:
        if wager.bet not in known:
            raise SettlementError(f"no bet {wager.bet!r} in {game.id}")
        bet = known[wager.bet]
        if wager.paytable:
            bet = bet.with_paytable(wager.paytable)
        event = bet.events[bet.settle(features)]
        net = Fraction(wager.amount) * event.pays
        settlements.append(Settlement(wager, event.name, event.pays, net,
                                      _reason(bet, event.name, event.pays, features)))
    return SettledRound(dealt, features, tuple(settlements))


def _readable(feature, record) -> bool:  # type: ignore[no-untyped-def]
    try:
        feature.read(record)
    except (IndexError, TypeError):
        return False
    return True


def _reason(bet: Bet, event: str, pays: Fraction, features: Mapping[str, object]) -> str:
    verdict = ("loses" if pays < 0 else "pushes" if pays == 0 else f"pays {pays} to 1")
    return f"{bet.name}: {event}, {verdict}"
