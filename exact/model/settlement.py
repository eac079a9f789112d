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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exact.core.cards import Card, parse_cards
from exact.core.enumerator import RecordT
from exact.core.parsing import parse_number, shown
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


def positive_amount(where: str, text: str, named: str | None = None) -> Fraction:
    """A positive exact amount: an integer, a decimal or a fraction, nothing else (at most 40
    characters, so a hostile amount costs nothing to refuse). ``named``: how a refusal names
    the value (the stripped text quoted, unless the caller read it as something else).

    >>> positive_amount("--wager", " 12.5 ")
    Fraction(25, 2)
    >>> positive_amount("--wager", "1e9")
    Traceback (most recent call last):
    exact.errors.SettlementError: --wager: amount '1e9' is not a positive number
    """
    cleaned = text.strip()
    named = shown(cleaned) if named is None else named
    if not cleaned or len(cleaned) > 40 or any(c not in "0123456789./" for c in cleaned):
        raise SettlementError(f"{where}: amount {named} is not a positive number")
    try:
        amount = Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        raise SettlementError(f"{where}: amount {named} is not a number") from None
    if amount <= 0:
        raise SettlementError(f"{where}: amount must be positive, got {amount}")
    return amount


def settle_round(game: Game[RecordT], cards: str | Sequence[Card], wagers: Iterable[Wager],
                 bets: Mapping[str, Bet] | None = None) -> SettledRound:
    """Deal ``cards`` (in dealing order) as one round of ``game`` and settle ``wagers``."""
    dealt = tuple(parse_cards(cards) if isinstance(cards, str) else cards)
    known = bets if bets is not None else {b.id: b for b in game_bets(game)}
    record = game.record_from_cards(dealt)
    features = {name: feature.read(record) for name, feature in game.features.items()
                if _readable(feature, record)}
    settlements = []
    for wager in wagers:
        if wager.bet not in known:
            raise SettlementError(f"no bet {shown(wager.bet)} in {game.id}")
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
    seen: set[tuple[str, str | None]] = set()
    for wager in wagers:
        if wager.bet not in bets:
            raise SettlementError(f"no bet {shown(wager.bet)} in {game.id}; see `list-bets "
                                  f"{game.id}`")
        if wager.paytable and wager.paytable not in bets[wager.bet].paytables:
            raise SettlementError(f"bet {shown(wager.bet)} has no paytable "
                                  f"{shown(wager.paytable)}; "
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
                    player: str | None = None) -> dict[str, Any]:
    """One settled wager as data: result, money (exact, as text) and reason."""
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
    if player is not None:
        out["player"] = player
    return out
