"""Table economics of 21st Century Baccarat: the Player/Dealer against N players, net of
collections; break-even bet sizes; the "no action" rule.

Why heads-up figures suffice: every seat is settled against the dealer's hand alone, and with
the dealer on House Way (its choices depend only on its own cards) each player's choices depend
only on its own cards and the up card. By exchangeability of the shuffled shoe, each
(player seat, dealer) pair then has exactly the heads-up distribution, whatever the other seats
hold; by linearity of expectation the dealer's expected result is the sum over seats. (A dealer
that reacts to *which* players drew breaks this; those strategies are heads-up only here.)

>>> from exact.cards import Shoe
>>> from exact.games.century21 import DEFAULT_RULES, game_table
>>> table = game_table(DEFAULT_RULES, Shoe.standard(8, jokers=8))
>>> economics = table_economics(table, players=6, bet=20)
>>> economics.dealer_net > 0, economics.player_net < 0
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact.errors import ExactError, InputError
from exact.games.century21 import GameTable
from exact.parsing import parse_number


class EconomicsError(ExactError, ValueError):
    """Impossible table economics input (no players, a non-positive bet, a negative fee)."""


class EconomicsInputError(InputError, EconomicsError):
    """A bet, fee or wager is malformed or out of bounds (:mod:`exact.parsing`)."""


@dataclass(frozen=True)
class TableEconomics:
    """Expected results per hand, in money, for one table configuration.

    ``player_edge`` and ``checker_edge`` are per unit bet before collection (House Way, and the
    player's exact best response to the dealer's House Way).
    """

    players: int
    bet: Fraction
    fee: Fraction
    dealer_fee: Fraction
    player_edge: Fraction
    checker_edge: Fraction
    checking: bool
    dealer_wager: Fraction | None

    @property
    def action(self) -> bool:
        """False under the "no action" rule: the dealer's wager does not cover the players'."""
        return self.dealer_wager is None or self.dealer_wager >= self.players * self.bet

    @property
    def player_net(self) -> Fraction:
        """A House Way player's expected result per hand, after its collection."""
        return self.bet * self.player_edge - self.fee if self.action else Fraction(0)

    @property
    def checker_net(self) -> Fraction:
        """The checking player's expected result per hand (best response), after collection."""
        return self.bet * self.checker_edge - self.fee if self.action else Fraction(0)

    @property
    def dealer_gross(self) -> Fraction:
        """The Player/Dealer's expected result against all seats before its own collection."""
        if not self.action:
            return Fraction(0)
        house_way = self.players - (1 if self.checking else 0)
        return -self.bet * (house_way * self.player_edge
                            + (self.checker_edge if self.checking else 0))

    @property
    def dealer_net(self) -> Fraction:
        return self.dealer_gross - self.dealer_fee if self.action else Fraction(0)

    @property
    def house_collection(self) -> Fraction:
        """What the card room collects per hand (refunded as free collections on no action)."""
        return self.players * self.fee + self.dealer_fee if self.action else Fraction(0)

    @property
    def dealer_break_even_bet(self) -> Fraction | None:
        """The bet per player at which banking covers the dealer's collection (None: never)."""
        edge = -self.player_edge
        return self.dealer_fee / (self.players * edge) if edge > 0 else None

    @property
    def player_break_even_bet(self) -> Fraction | None:
        """The bet at which a House Way seat overcomes its collection (None: never, the
        player's edge is not positive)."""
        return self.fee / self.player_edge if self.player_edge > 0 else None

    @property
    def checker_break_even_bet(self) -> Fraction | None:
        return self.fee / self.checker_edge if self.checker_edge > 0 else None


def table_economics(table: GameTable, players: int, bet: Fraction | int | str,
                    fee: Fraction | int | str | None = None, checking: bool = False,
                    dealer_wager: Fraction | int | str | None = None) -> TableEconomics:
    """Economics of ``players`` seats each betting ``bet`` against the Player/Dealer.

    ``fee`` defaults to the collection of the table tag that admits ``bet``; the dealer pays
    it too when the rules say so. ``checking``: one player plays its exact best response.
    ``dealer_wager``: the dealer's stake, for the "no action" rule (None: always covered).
    """
    if not isinstance(players, int) or players < 1:
        raise EconomicsError(f"players must be a positive integer, got {players!r}")
    stake = _money("bet", bet)
    if stake <= 0:
        raise EconomicsError(f"the bet must be positive, got {stake}")
    rules = table.rules
    charge = rules.collection_fee(stake) if fee is None else _money("collection", fee)
    if charge < 0:
        raise EconomicsError(f"the collection cannot be negative, got {charge}")
    player, dealer = table.house_way()
    edge = table.value(player, dealer)
    checker = table.value(table.player_best_response(dealer), dealer) if checking else edge
    wager = None if dealer_wager is None else _money("dealer wager", dealer_wager)
    return TableEconomics(players, stake, charge,
                          charge if rules.dealer_pays_collection else Fraction(0),
                          edge, checker, checking, wager)


def _money(name: str, value: object) -> Fraction:
    return parse_number(value, "bet", name, EconomicsInputError)
