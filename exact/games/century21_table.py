"""Settling one hand at a 21st Century Baccarat table: several seats, backline circles,
table limits, collection and the "no action" rule.

Each seat (1-based) holds one hand; its circles 1 (the seated player), 2 and 3 (backline
wagers by other players) all share that hand's result against the Player/Dealer's hand.
Every circle wager pays the table's collection before the hand, unless it uses a free
collection button. If the Player/Dealer's wager does not cover the total of the players'
wagers, the hand is *no action*: nothing is won or lost, and every collection paid is refunded
as a free-collection button for the next hand. Jokers are declared by the same optimal search
as the exact analysis (:func:`exact.games.century21.settle`).

>>> hand = settle_table(DEFAULT_RULES, "9H 7C", {1: "X 2S", 2: "5D KS 3C"},
...                     [CircleWager(1, 1, 10), CircleWager(1, 2, 20), CircleWager(2, 1, 10)],
...                     dealer_wager=100)
>>> [(s.wager.bet, s.event, str(s.net)) for s in hand.settlements]
[('seat 1 circle 1', 'higher_total', '10'), ('seat 1 circle 2', 'higher_total', '20'), \
('seat 2 circle 1', 'higher_total', '10')]
>>> str(hand.dealer_net), str(hand.house_collection)
('-41', '4')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact.cards import Card, parse_cards
from exact.errors import CardError
from exact.games.century21 import (
    DRAW,
    STAND,
    card_class,
    dealer_stops,
    hand_actions,
    settle,
    two_card_state,
)
from exact.games.century21_rules import DEFAULT_RULES, Rules, TableTag
from exact.parsing import parse_number, shown
from exact.settlement import Settlement, SettlementError, SettlementInputError, Wager

CIRCLES = (1, 2, 3)


@dataclass(frozen=True)
class CircleWager:
    """A wager on a seat's circle (1: the seated player; 2, 3: backline)."""

    seat: int
    circle: int
    amount: Fraction | int | str
    free_collection: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or self.seat < 1:
            raise SettlementError(f"seat {shown(self.seat)}: seats are numbered from 1")
        if self.circle not in CIRCLES or isinstance(self.circle, bool):
            raise SettlementError(f"seat {self.seat} circle {shown(self.circle)}: circles are "
                                  "1, 2, 3")
        amount = parse_number(self.amount, "bet", f"seat {self.seat} circle {self.circle}: "
                              "amount", SettlementInputError)
        object.__setattr__(self, "amount", amount)

    @property
    def label(self) -> str:
        return f"seat {self.seat} circle {self.circle}"


@dataclass(frozen=True)
class TableHand:
    """The settled hand: per circle wager a :class:`~exact.settlement.Settlement` (net of the
    bet, before collection), the collections, and the Player/Dealer's result."""

    action: bool
    settlements: tuple[Settlement, ...]
    collections: Mapping[str, Fraction]
    dealer_collection: Fraction
    free_collection_credits: tuple[str, ...]
    deciders: Mapping[int, int]

    @property
    def players_net(self) -> Fraction:
        return sum((s.net for s in self.settlements), Fraction(0))

    @property
    def dealer_net(self) -> Fraction:
        """What the Player/Dealer wins from the players less its own collection."""
        return -self.players_net - self.dealer_collection

    @property
    def house_collection(self) -> Fraction:
        return sum(self.collections.values(), Fraction(0)) + self.dealer_collection


def _hand(cards: str | Sequence[Card], who: str) -> list[int]:
    try:
        parsed = parse_cards(cards) if isinstance(cards, str) else list(cards)
    except CardError as error:
        raise SettlementError(f"{who}: {error}") from None
    if len(parsed) not in (2, 3):
        raise SettlementError(f"{who}: a hand has 2 or 3 cards, got {len(parsed)}")
    return [card_class(card) for card in parsed]


def _state(classes: list[int]) -> tuple[int, int, int | None]:
    base, jokers, _ = two_card_state(classes[0], classes[1])
    return (base, jokers, classes[2] if len(classes) == 3 else None)


def settle_table(rules: Rules, dealer_cards: str | Sequence[Card],
                 seat_cards: Mapping[int, str | Sequence[Card]], wagers: Sequence[CircleWager],
                 dealer_wager: Fraction | int | str, table: TableTag | None = None,
                 dealer_free_collection: bool = False) -> TableHand:
    """Settle one hand (see the module docstring). Cards are in dealing order; the dealer's
    first card is its up card. Raises SettlementError on any impossible input."""
    tag = table or rules.table
    stake = parse_number(dealer_wager, "bet", "dealer wager", SettlementInputError)
    if stake <= 0:
        raise SettlementError(f"the Player/Dealer's wager must be positive, got {stake}")
    dealer = _hand(dealer_cards, "Player/Dealer")
    seats = {seat: _hand(cards, f"seat {seat}") for seat, cards in seat_cards.items()}
    stops = dealer_stops(rules, dealer[0], dealer[1])
    stopped = END_ in stops
    _check_draws(rules, dealer, "Player/Dealer", stopped)
    for seat, classes in seats.items():
        _check_draws(rules, classes, f"seat {seat}", stopped)
    seen: set[tuple[int, int]] = set()
    for wager in wagers:
        if (wager.seat, wager.circle) in seen:
            raise SettlementError(f"{wager.label}: two wagers on one circle")
        seen.add((wager.seat, wager.circle))
        if wager.seat not in seats:
            raise SettlementError(f"{wager.label}: seat {wager.seat} was dealt no hand")
        if not tag.min_bet <= wager.amount <= tag.max_bet:  # type: ignore[operator]
            raise SettlementError(f"{wager.label}: {wager.amount} is outside the table limits "
                                  f"{tag.min_bet}-{tag.max_bet}")
    collections = {w.label: Fraction(0) if w.free_collection else tag.fee for w in wagers}
    dealer_fee = (Fraction(0) if dealer_free_collection or not rules.dealer_pays_collection
                  else tag.fee)
    deciders = _deciders(wagers)
    covered = sum((Fraction(w.amount) for w in wagers), Fraction(0))
    if stake < covered:
        credits = tuple(label for label, fee in collections.items() if fee)
        credits += ("Player/Dealer",) if dealer_fee else ()
        reason = (f"no action: the Player/Dealer's {stake} does not cover the players' "
                  f"{covered}; collection refunded as a free-collection button")
        return TableHand(False, tuple(Settlement(Wager(w.label, w.amount), "no_action",
                                                 Fraction(0), Fraction(0), reason)
                                      for w in wagers),
                         {label: Fraction(0) for label in collections}, Fraction(0), credits,
                         deciders)
    dealer_state = _state(dealer)
    settlements = []
    for wager in wagers:
        pay, how, declared, dealer_declared = settle(rules, _state(seats[wager.seat]),
                                                     dealer_state, stopped)
        amount = Fraction(wager.amount)
        verdict = "wins" if pay > 0 else "pushes" if pay == 0 else "loses"
        reason = (f"{wager.label}: {_declared(declared)} v {_declared(dealer_declared)}, "
                  f"{how.replace('_', ' ')}: {verdict}")
        settlements.append(Settlement(Wager(wager.label, amount), how, pay,
                                      amount * pay, reason))
    return TableHand(True, tuple(settlements), collections, dealer_fee, (), deciders)


END_ = "end"


def _declared(declaration: tuple[bool, int, int]) -> str:
    natural, total, cards = declaration
    return "Natural" if natural else f"{cards}-card {total}"


def _check_draws(rules: Rules, classes: list[int], who: str, stopped: bool) -> None:
    if len(classes) == 3 and stopped:
        raise SettlementError(f"{who}: no one draws when the Player/Dealer's hand ends the deal")
    if stopped:
        return
    actions = hand_actions(rules, _state(classes[:2]))
    taken = DRAW if len(classes) == 3 else STAND
    if taken not in actions:
        raise SettlementError(f"{who}: must {actions[0]} on these two cards")


def _deciders(wagers: Sequence[CircleWager]) -> dict[int, int]:
    """Per seat, the circle whose wager decides how the hand is played (the largest wager;
    the seated player's circle 1 on equal wagers)."""
    best: dict[int, CircleWager] = {}
    for wager in wagers:
        current = best.get(wager.seat)
        if current is None or (Fraction(wager.amount), -wager.circle) > (
                Fraction(current.amount), -current.circle):
            best[wager.seat] = wager
    return {seat: wager.circle for seat, wager in sorted(best.items())}


__all__ = ("DEFAULT_RULES", "CircleWager", "TableHand", "settle_table")
