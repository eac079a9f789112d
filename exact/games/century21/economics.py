"""Table economics of 21st Century Baccarat: the Player/Dealer against N players, net of
collections; break-even bet sizes; the action the Player/Dealer's wager takes (seat by seat in
dice order, or the whole hand no action, as the rules read it).

Layer: games, the top: the game's own analysis code, which may import every generic layer.

Why heads-up figures suffice: every seat is settled against the dealer's hand alone, and with
the dealer on House Way (its choices depend only on its own cards) each player's choices depend
only on its own cards and the up card. By exchangeability of the shuffled shoe, each
(player seat, dealer) pair then has exactly the heads-up distribution, whatever the other seats
hold; by linearity of expectation the dealer's expected result is the sum over seats. (A dealer
that reacts to *which* players drew breaks this; those strategies are heads-up only here.)

>>> from exact.core.cards import Shoe
>>> from exact.games.century21.game import DEFAULT_RULES, game_table
>>> table = game_table(DEFAULT_RULES, Shoe.standard(8, jokers=8))
>>> economics = table_economics(table, players=6, bet=20)
>>> economics.dealer_net > 0, economics.player_net < 0
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact.core.parsing import parse_number, shown
from exact.errors import EconomicsError as EconomicsError
from exact.errors import EconomicsInputError as EconomicsInputError
from exact.games.century21.game import GameTable


@dataclass(frozen=True)
class TableEconomics:
    """Expected results per hand, in money, for one table configuration.

    ``players`` seats each bet ``bet``; with ``checking`` one of them plays its exact best
    response to the dealer's House Way (rule 6: a player checks one hand; the toolkit counts
    one such seat) and the others House Way. ``player_edge`` and ``checker_edge`` are per unit
    bet before collection (House Way, best response).

    ``dealer_wager`` (None: it covers everything) and ``reading`` set the action. When the
    wager does not cover the players' total: under ``"seat-by-seat"`` it takes action in the
    order the dice set, so the seats' average action is ``dealer_wager / total`` of a bet (each
    seat's own share follows the three dice's count from the Player/Dealer's position:
    :func:`exact.games.century21.table.expected_action`, ``analyze century21 --seats``), and a
    seat pays collection only when some of its wager is in action; under ``"whole-hand"``
    nothing is in action. The Player/Dealer's figures need only the average when every seat
    plays alike.
    """

    players: int
    bet: Fraction
    fee: Fraction
    dealer_fee: Fraction
    player_edge: Fraction
    checker_edge: Fraction
    checking: bool
    dealer_wager: Fraction | None
    reading: str = "seat-by-seat"
    strategies: str | None = None
    """Both sides' strategies in words when every seat plays a named strategy pair (rule 6:
    each seat its own player, each free to check); None: House Way and ``checking``."""

    @property
    def total_wagers(self) -> Fraction:
        return self.players * self.bet

    @property
    def covered(self) -> bool:
        """The dealer's wager covers every player's wager (every wager fully in action)."""
        return self.dealer_wager is None or self.dealer_wager >= self.total_wagers

    @property
    def action(self) -> bool:
        """Some wager is in action (False: the hand is "no action", collections refunded)."""
        return self.covered or self.reading == "seat-by-seat"

    @property
    def action_fraction(self) -> Fraction:
        """Each seat's expected fraction of its wager in action."""
        if self.covered:
            return Fraction(1)
        if not self.action:
            return Fraction(0)
        return self.dealer_wager / self.total_wagers  # type: ignore[operator]  # set whenever this is asked

    @property
    def seats_in_action(self) -> Fraction:
        """How many seats have some of their wager in action (and so pay collection)."""
        if self.covered:
            return Fraction(self.players)
        if not self.action:
            return Fraction(0)
        full, part = divmod(self.dealer_wager, self.bet)  # type: ignore[operator]  # set whenever this is asked
        return Fraction(int(full) + (1 if part else 0))

    @property
    def _seat_in_action(self) -> Fraction:
        return self.seats_in_action / self.players

    @property
    def house_way_seats(self) -> int:
        return self.players - (1 if self.checking else 0)

    @property
    def player_net(self) -> Fraction:
        """A House Way player's expected result per hand, after its collection."""
        return (self.bet * self.action_fraction * self.player_edge
                - self.fee * self._seat_in_action)

    @property
    def checker_net(self) -> Fraction:
        """The checking player's expected result per hand (best response), after collection."""
        return (self.bet * self.action_fraction * self.checker_edge
                - self.fee * self._seat_in_action)

    @property
    def dealer_edge_per_unit(self) -> Fraction:
        """The Player/Dealer's expected result per unit of each seat's wager in action, summed
        over the seats counted (House Way seats and the checking one)."""
        return -(self.house_way_seats * self.player_edge
                 + (self.checker_edge if self.checking else 0))

    @property
    def dealer_gross(self) -> Fraction:
        """The Player/Dealer's expected result against all seats before its own collection."""
        return self.bet * self.action_fraction * self.dealer_edge_per_unit

    @property
    def dealer_net(self) -> Fraction:
        return self.dealer_gross - self.dealer_fee if self.action else Fraction(0)

    @property
    def house_collection(self) -> Fraction:
        """What the card room collects per hand (refunds as free collections excluded)."""
        if not self.action:
            return Fraction(0)
        return self.seats_in_action * self.fee + self.dealer_fee

    @property
    def dealer_break_even_bet(self) -> Fraction | None:
        """The bet per player at which banking covers the dealer's collection, with the seats
        counted as here (House Way and the checking seat) and every wager in action (None:
        never, the dealer's edge against them is not positive)."""
        edge = self.dealer_edge_per_unit
        return self.dealer_fee / edge if edge > 0 else None

    @property
    def player_break_even_bet(self) -> Fraction | None:
        """The bet at which a House Way seat overcomes its collection (None: never, the
        player's edge is not positive)."""
        return self.fee / self.player_edge if self.player_edge > 0 else None

    @property
    def checker_break_even_bet(self) -> Fraction | None:
        return self.fee / self.checker_edge if self.checker_edge > 0 else None

    def describe(self) -> str:
        """What the figures count, in words: the seats, how they play, the action."""
        seats = f"{self.players} seat{'s' if self.players != 1 else ''} at {self.bet} each"
        if self.strategies is not None:
            how = f"every seat its own player (rule 6); {self.strategies}"
        elif self.checking:
            how = (f"1 checking its best response to House Way, {self.house_way_seats} "
                   "House Way")
        else:
            how = "all House Way"
        if self.covered:
            action = "all in action"
        elif not self.action:
            action = (f"no action: the Player/Dealer's {self.dealer_wager} does not cover "
                      f"{self.total_wagers} (whole-hand reading)")
        else:
            action = (f"the Player/Dealer's {self.dealer_wager} takes action seat by seat in "
                      f"dice order: {self.action_fraction} of the seats' wagers in action on "
                      "average, each seat's share by the dice count (--seats)")
        return f"{seats} ({how}; {action})"


def table_economics(table: GameTable, players: int, bet: Fraction | int | str,
                    fee: Fraction | int | str | None = None, checking: bool = False,
                    dealer_wager: Fraction | int | str | None = None,
                    reading: str | None = None, edge: Fraction | None = None,
                    strategies: str | None = None) -> TableEconomics:
    """Economics of ``players`` seats each betting ``bet`` against the Player/Dealer.

    ``fee`` defaults to the collection of the table tag that admits ``bet``; the dealer pays
    it too when the rules say so. ``checking``: one player plays its exact best response.
    ``dealer_wager``: the dealer's stake (None: always covered); ``reading``: how an uncovered
    table takes action (default: the rules' ``action``). ``edge`` and ``strategies``: every
    seat plays a named strategy pair whose heads-up value per unit is ``edge`` (``checking``
    is then moot: each seat is its own player); ``strategies`` names both sides.
    """
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise EconomicsError(f"players must be a positive integer, got {shown(players)}")
    stake = _money("bet", bet)
    if stake <= 0:
        raise EconomicsError(f"the bet must be positive, got {stake}")
    rules = table.rules
    charge = rules.collection_fee(stake) if fee is None else _money("collection", fee)
    if charge < 0:
        raise EconomicsError(f"the collection cannot be negative, got {charge}")
    how = rules.action if reading is None else reading
    if how not in ("seat-by-seat", "whole-hand"):
        raise EconomicsError(f"reading {how!r}: seat-by-seat or whole-hand")
    if edge is not None:
        checking = False
    else:
        player, dealer = table.house_way()
        edge = table.value(player, dealer)
    checker = (table.value(table.player_best_response(table.house_way()[1]),
                           table.house_way()[1]) if checking else edge)
    wager = None if dealer_wager is None else _money("dealer wager", dealer_wager)
    if wager is not None and wager <= 0:
        raise EconomicsError(f"the dealer's wager must be positive, got {wager}")
    # the seed's table limits bind the Player/Dealer's wager too (no maximum: it banks),
    # as at the full table (--seats) and in settle: the minimum of the tag the bet sits at
    tag = next((t for t in rules.table_tags if t.min_bet <= stake <= t.max_bet), None)
    if wager is not None and tag is not None and wager < tag.min_bet:
        raise EconomicsError(f"the Player/Dealer's wager {wager} is below the table minimum "
                             f"{tag.min_bet} ({tag.min_bet}-{tag.max_bet} table)")
    return TableEconomics(players, stake, charge,
                          charge if rules.dealer_pays_collection else Fraction(0),
                          edge, checker, checking, wager, how, strategies)


def _money(name: str, value: object) -> Fraction:
    return parse_number(value, "bet", name, EconomicsInputError)
