"""Settling the wagers of one dealt round, with the reason for each result.

Layer: model, above the core; the engines, the games and the analyses build on it.

A game turns the cards of a round into a record (``Game.record_from_cards``); every bet is
then settled from that record's features by the same bets-as-data definitions the exact
analyses use, so a settled round and a return table can never disagree.

>>> from exact.games import get_game
>>> game = get_game("punto-banco")
>>> round_ = settle_round(game, "9H 5C 9D 2S", [Wager("banker", 10), Wager("player", 10)])
>>> [(s.wager.bet, s.result, str(s.net)) for s in round_.settlements]
[('banker', 'loss', '-10'), ('player', 'win', '10')]
>>> banker = settle_round(game, "5H 9C 2D KS", [Wager("banker", 20)]).settlements[0]
>>> banker.won, banker.commission, banker.reason
(Fraction(19, 1), Fraction(1, 1), "Banker: Banker wins (winner = 'banker'): 20 staked, \
pays 19/20 to 1 (1 to 1 less 1/20 commission): wins 19 after 1 commission")

Every settlement says how much was won, lost, pushed (stake returned) and taken as
commission; a round sums them over its wagers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exact.core.cards import Card, Shoe, parse_cards
from exact.core.enumerator import RecordT
from exact.core.parsing import expect, parse_number, shown, suggestion
from exact.errors import SettlementError as SettlementError
from exact.errors import SettlementInputError as SettlementInputError
from exact.model.bets import Bet, Event, game_bets
from exact.model.contracts import MainWager
from exact.model.features import Feature
from exact.model.game import Game


@dataclass(frozen=True)
class Wager:
    """An amount placed on a bet (by its id), optionally under a named paytable; the amount is
    read exactly and must be positive.

    >>> Wager("banker", "0.95").amount
    Fraction(19, 20)
    >>> Wager("banker", 0)
    Traceback (most recent call last):
    ...
    exact.errors.SettlementError: wager on 'banker': amount must be positive, got 0
    """

    bet: str
    amount: Fraction | int | str
    paytable: str | None = None

    def __post_init__(self) -> None:
        expect(self.bet, str, "Wager: bet must be a bet id (text)")
        expect(self.paytable, (str, type(None)), "Wager: paytable must be a name (text) or None")
        amount = parse_number(self.amount, "bet", f"wager on {shown(self.bet)}: amount",
                              SettlementInputError)
        if amount <= 0:
            raise SettlementError(f"wager on {shown(self.bet)}: amount must be positive, "
                                  f"got {amount}")
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True)
class Settlement:
    """The result of one wager: the event that settled it, the pay and the money.

    >>> tie = Settlement(Wager("tie", 10), "Tie", Fraction(8), Fraction(80), "Tie: 8 to 1")
    >>> tie.result, tie.won, tie.lost, tie.returned
    ('win', Fraction(80, 1), Fraction(0, 1), Fraction(90, 1))
    >>> push = Settlement(Wager("banker", 10), "Tie", Fraction(0), Fraction(0), "Tie: push")
    >>> push.result, push.pushed, push.returned
    ('push', Fraction(10, 1), Fraction(10, 1))
    """

    wager: Wager
    event: str
    pays: Fraction
    net: Fraction
    reason: str
    commission: Fraction = Fraction(0)
    """Money the house kept from the gross win (e.g. 5% of a Banker win), already out of net."""
    deciding: Mapping[str, object] = field(default_factory=dict, hash=False)
    """The round features the bet's conditions read, with their values: why it settled so."""

    @property
    def result(self) -> str:
        return "win" if self.net > 0 else "push" if self.net == 0 else "loss"

    @property
    def won(self) -> Fraction:
        """Net amount won (after commission); 0 unless the wager won."""
        return max(self.net, Fraction(0))

    @property
    def lost(self) -> Fraction:
        """Amount lost to the house; 0 unless the wager lost."""
        return max(-self.net, Fraction(0))

    @property
    def pushed(self) -> Fraction:
        """Stake returned on a push (neither won nor lost); 0 otherwise."""
        return Fraction(self.wager.amount) if self.net == 0 else Fraction(0)

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

    def _sum(self, amount: str) -> Fraction:
        return sum((getattr(s, amount) for s in self.settlements), Fraction(0))

    @property
    def staked(self) -> Fraction:
        return sum((Fraction(s.wager.amount) for s in self.settlements), Fraction(0))

    @property
    def won(self) -> Fraction:
        return self._sum("won")

    @property
    def lost(self) -> Fraction:
        return self._sum("lost")

    @property
    def pushed(self) -> Fraction:
        return self._sum("pushed")

    @property
    def commission(self) -> Fraction:
        return self._sum("commission")

    def summary(self) -> str:
        """One line per wager (its reason), then the totals."""
        lines = [s.reason for s in self.settlements]
        lines.append(f"Staked {_money(self.staked)}: won {_money(self.won)}, lost "
                     f"{_money(self.lost)}, pushed {_money(self.pushed)}, commission "
                     f"{_money(self.commission)}; net {_money(self.net)}")
        return "\n".join(lines)


def positive_amount(where: str, value: object) -> Fraction:
    """A positive exact amount (``where``: how a refusal names it), read by the number grammar
    of :mod:`exact.core.parsing` as a ``bet``: an integer, a decimal (``2.5e-3``) or a
    fraction, from text or a TOML number.

    >>> positive_amount("--wager", " 12.5 "), positive_amount("--wager", "1e12")
    (Fraction(25, 2), Fraction(1000000000000, 1))
    >>> positive_amount("--wager", "٣")
    Traceback (most recent call last):
    ...
    exact.errors.SettlementInputError: --wager '٣': is not a number (ASCII digits 0-9; e.g. 2, \
0.95 or 19/20)
    """
    expect(where, str, "positive_amount: where must be text")
    amount = parse_number(value, "bet", where, SettlementInputError)
    if amount <= 0:
        raise SettlementError(f"{where}: amount must be positive, got {amount}")
    return amount


DEFAULT_SHOE = Shoe.standard(8)
"""The shoe a round of a bet game is settled from unless one is given: the command line's
default (8 decks, no jokers)."""


def check_in_shoe(cards: Sequence[Card], shoe: Shoe, what: str = "the round") -> None:
    """Refuse cards that ``shoe`` could not have dealt together: a card (or joker) used more
    often than the shoe holds it, or a rank more often than all its suits (a card without its
    suit takes any suit left).

    >>> check_in_shoe(parse_cards("9H 9D 9H"), Shoe.standard(1))
    Traceback (most recent call last):
    ...
    exact.errors.SettlementError: the round has 2 of 9H; the shoe (1 deck) holds 1
    """
    expect(shoe, Shoe, "settle: shoe must be a Shoe (or None for the default)")
    uses = Counter(cards)
    ranks = Counter(card.rank for card in cards)
    for card, used in sorted(uses.items(), key=lambda item: str(item[0])):
        bare = not card.is_joker and card.suit is None
        held = shoe.count(card)
        if bare or used > held:
            used, held = (ranks[card.rank], shoe.count(card.rank)) if bare else (used, held)
            if used > held:
                name = f"rank {card.rank}" if bare else "X (joker)" if card.is_joker else card
                raise SettlementError(f"{what} has {used} of {name}; the shoe "
                                      f"({shoe.describe()}) holds {held}")


def settle_round(game: Game[RecordT], cards: str | Sequence[Card], wagers: Iterable[Wager],
                 bets: Mapping[str, Bet] | None = None, shoe: Shoe | None = None
                 ) -> SettledRound:
    """Deal ``cards`` (in dealing order) as one round of ``game`` and settle ``wagers``;
    the cards must be ones ``shoe`` (default :data:`DEFAULT_SHOE`) holds. A wrong type is a
    :class:`~exact.errors.WrongTypeError`.

    >>> from exact.games import get_game
    >>> settle_round(get_game("punto-banco"), "9H 5C 9H 2S", [], shoe=Shoe.standard(1))
    Traceback (most recent call last):
    ...
    exact.errors.SettlementError: the round has 2 of 9H; the shoe (1 deck) holds 1
    >>> settle_round("punto-banco", "9H 5C 9D 2S", [])
    Traceback (most recent call last):
    ...
    exact.errors.WrongTypeError: settle_round: game must be a Game (get_game(GAME_ID)), not str \
'punto-banco'
    """
    expect(game, Game, "settle_round: game must be a Game (get_game(GAME_ID))")
    expect(cards, (str, Sequence), "settle_round: cards must be text or a sequence of Cards")
    dealt = tuple(parse_cards(cards) if isinstance(cards, str) else cards)
    for card in dealt:
        expect(card, Card, "settle_round: each card must be a Card")
    expect(wagers, Iterable, "settle_round: wagers must be an iterable of Wagers")
    wagers = list(wagers)
    for wager in wagers:
        expect(wager, Wager, "settle_round: each wager must be a Wager")
    expect(bets, (Mapping, type(None)), "settle_round: bets must map bet ids to Bets, or be None")
    check_in_shoe(dealt, DEFAULT_SHOE if shoe is None else shoe)
    known = bets if bets is not None else {b.id: b for b in game_bets(game)}
    for bet in known.values():
        expect(bet, Bet, "settle_round: bets must map bet ids to Bets")
    record = game.record_from_cards(dealt)
    features = {name: feature.read(record) for name, feature in game.features.items()
                if _readable(feature, record)}
    settlements = []
    for wager in wagers:
        if wager.bet not in known:
            raise SettlementError(f"no bet {shown(wager.bet)} in {game.id}"
                                  f"{suggestion([wager.bet], known)}")
        bet = known[wager.bet]
        if wager.paytable:
            bet = bet.with_paytable(wager.paytable)
        event = bet.events[bet.settle(features)]
        amount = Fraction(wager.amount)
        net = amount * event.pays
        commission = amount * event.commission
        deciding = {name: features[name] for name in sorted(bet.features)}
        settlements.append(Settlement(wager, event.name, event.pays, net,
                                      _reason(bet, event, amount, deciding), commission,
                                      deciding))
    return SettledRound(dealt, features, tuple(settlements))


def check_wagers(game: Game[Any], wagers: Sequence[Wager], bets: Mapping[str, Bet]) -> None:
    """Refuse wagers the game does not take as one player's round: unknown bets or
    paytables, a bet twice, and side wagers the game takes only beside a main wager
    (``needs_main_wager``: NINE and NINES). :func:`settle_round` settles any wagers given
    (an analysis settles each bet alone); the ``settle`` command checks them first.

    >>> from exact.games import get_game
    >>> from exact.analysis.bet_analysis import game_bets
    >>> game = get_game("nine-and-nines")
    >>> check_wagers(game, [Wager("nines", 5)], {b.id: b for b in game_bets(game)})
    Traceback (most recent call last):
    ...
    exact.errors.SettlementError: NINES without a main wager: Baccarat with NINE & \
NINES takes them only beside a wager on Player, Banker or Tie
    """
    expect(game, Game, "check_wagers: game must be a Game")
    expect(wagers, Sequence, "check_wagers: wagers must be a sequence of Wagers")
    for wager in wagers:
        expect(wager, Wager, "check_wagers: each wager must be a Wager")
    expect(bets, Mapping, "check_wagers: bets must map bet ids to Bets")
    seen: set[tuple[str, str | None]] = set()
    for wager in wagers:
        if wager.bet not in bets:
            raise SettlementError(f"no bet {shown(wager.bet)} in {game.id}"
                                  f"{suggestion([wager.bet], bets)}; see `list-bets "
                                  f"{game.id}`")
        expect(bets[wager.bet], Bet, "check_wagers: bets must map bet ids to Bets")
        if wager.paytable and wager.paytable not in bets[wager.bet].paytables:
            raise SettlementError(f"bet {shown(wager.bet)} has no paytable "
                                  f"{shown(wager.paytable)}"
                                  f"{suggestion([wager.paytable], bets[wager.bet].paytables)}; "
                                  f"known: {', '.join(bets[wager.bet].paytables)}")
        if (wager.bet, wager.paytable) in seen:
            raise SettlementError(f"two wagers on {shown(wager.bet)}: give one, with the total")
        seen.add((wager.bet, wager.paytable))
    needing = game.needs_main_wager if isinstance(game, MainWager) else frozenset()
    if any(bets[w.bet].group in needing for w in wagers) and not any(
            bets[w.bet].group == "main" for w in wagers):
        names = ", ".join(sorted({bets[w.bet].name for w in wagers
                                  if bets[w.bet].group in needing}))
        raise SettlementError(f"{names} without a main wager: {game.name} takes them only "
                              "beside a wager on Player, Banker or Tie")


def _readable(feature: Feature[RecordT], record: RecordT) -> bool:
    try:
        feature.read(record)
    except (IndexError, TypeError):
        return False
    return True


def _money(value: Fraction) -> str:
    return str(value) if value.denominator != 1 else f"{value.numerator:,}"


def _reason(bet: Bet, event: Event, amount: Fraction, deciding: Mapping[str, object]) -> str:
    """Why a wager settled as it did: the event, the features that decided it, the money."""
    why = ", ".join(f"{name} = {shown(value)}" for name, value in deciding.items()
                    if event.condition is None or name in event.condition.names)
    head = f"{bet.name}: {event.name}" + (f" ({why})" if why else "")
    staked = f"{_money(amount)} staked"
    if event.pays < 0:
        return f"{head}: {staked}, loses {_money(amount)}"
    if event.pays == 0:
        return f"{head}: {staked}, pushes (stake returned)"
    if event.commission:
        return (f"{head}: {staked}, pays {event.pays} to 1 ({event.gross} to 1 less "
                f"{event.commission} commission): wins {_money(amount * event.pays)} after "
                f"{_money(amount * event.commission)} commission")
    return f"{head}: {staked}, pays {event.pays} to 1: wins {_money(amount * event.pays)}"


# --- settlements as data (the settle command's JSON) --------------------------------------------
def _plain(value: object) -> object:
    if value is None or isinstance(value, bool | int | float) or type(value) is str:
        return value
    return str(value)


def settlement_json(settlement: Settlement, collection: Fraction = Fraction(0),
                    extra: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One settled wager as data: result, money (exact, as text) and reason, then the
    game's own fields of the wager (``extra``: who placed it at a table...)."""
    expect(settlement, Settlement, "settlement_json: settlement must be a Settlement")
    expect(collection, (Fraction, int), "settlement_json: collection must be a Fraction")
    expect(extra, (Mapping, type(None)), "settlement_json: extra must be a mapping or None")
    wager = settlement.wager
    out: dict[str, Any] = {
        "bet": wager.bet, "amount": str(wager.amount), "paytable": wager.paytable,
        "result": settlement.result, "event": settlement.event, "pays": str(settlement.pays),
        "won": str(settlement.won), "lost": str(settlement.lost),
        "pushed": str(settlement.pushed), "commission": str(settlement.commission),
        "collection": str(collection), "net": str(settlement.net),
        "returned": str(settlement.returned), "reason": settlement.reason,
        "deciding": {name: _plain(value) for name, value in settlement.deciding.items()},
    }
    out.update(extra or {})
    return out
