"""The full table of 21st Century Baccarat written on the generic decision protocol: every
seat's hand and the Player/Dealer's from one shoe, each seat deciding from its own cards and
the up card, the Player/Dealer from its own cards and which seats drew.

Layer: games, the top: a game's round on the decision protocol (exact.model.strategy_game).

:class:`TableRound` is a :class:`~exact.model.strategy_game.DecisionGame`: side 1 is the
Player/Dealer; side 0 is one *free* seat, or none. The sequence form has two sides with perfect
recall each, and several seats on one side would be a team that does not see each other's
cards (docs/explanation/decisions.md), so the other seats play fixed pure strategies, written
as forced decisions (one action each). Its outcome is every seat's pay per unit, in seat
order; the Player/Dealer's result is minus their sum weighed by the wagers in action.

What it serves, and what it does not (yet). The generic sequence-form walk
(:func:`~exact.engines.decisions.decision_table`) of this round enumerates every seat's hand:
fine on reduced shoes, where it is the independent check of the full-table game's exact
builder (:mod:`exact.games.century21.full_table`, whose moment sums make 2 and 3 seats on
424 cards take seconds); on the full shoe it is hours at 2 seats. Under fixed strategies the
same round is a plain deal (:class:`~exact.engines.fixed_strategy.StrategyDeal`) for the direct
engine and for dealing real cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from exact.core.cards import VALUE_VIEW, Label
from exact.core.enumerator import Draw
from exact.engines.fixed_strategy import Choices
from exact.games.century21.game import (
    DRAW,
    END,
    JOKER_CLASS,
    STAND,
    CheckSet,
    Hand,
    HandState,
    Mode,
    PlayerSet,
    dealer_stops,
    hand_actions,
    player_tag,
    settle,
    two_card_state,
)
from exact.games.century21.rules import Rules
from exact.model.strategy_game import Decision

DEAL, CHECK, SEATS, DEALER, THIRDS, OVER = range(6)
# (the seats' hands, the Player/Dealer's, stage, the seat deciding, whether the deal ended at
# the check, which seats drew, whether the Player/Dealer draws)
TableState = tuple[tuple[Hand, ...], Hand, int, int, bool, tuple[bool, ...], bool]
_TWO, _ONE = Draw(VALUE_VIEW, 2), Draw(VALUE_VIEW, 1)


@dataclass(frozen=True)
class TableRound:
    """The full table as a decision game (module docstring). ``fixed``: each seat's pure
    strategy as (information set, action) pairs (:func:`~exact.engines.fixed_strategy.choices`);
    the ``free`` seat's entry is not read."""

    rules: Rules
    fixed: tuple[Choices, ...]
    free: int | None = None
    mode: Mode = "total"
    accepts_jokers: bool = True

    @property
    def seats(self) -> int:
        return len(self.fixed)

    @property
    def round_cards(self) -> int:
        return 3 * self.seats + 3

    @cached_property
    def _chosen(self) -> list[dict[Any, str]]:
        return [dict(c) for c in self.fixed]

    def start(self) -> TableState:
        return ((), (), DEAL, 0, False, (), False)

    def step(self, state: TableState) -> Draw | Decision | None:
        hands, dealer, stage, seat, _stopped, drew, _draws = state
        if stage == DEAL:
            return _TWO if len(hands) < self.seats else _ONE
        if stage == THIRDS:
            return _ONE
        if stage == OVER:
            return None
        up, down = dealer
        if stage == CHECK:
            return Decision(1, CheckSet("check", up, down), dealer_stops(self.rules, up, down))
        if stage == DEALER:
            from exact.games.century21.full_table import TableSet
            return Decision(1, TableSet("table-dealer", up, down, drew),
                            hand_actions(self.rules, two_card_state(up, down)))
        hand = hands[seat]
        actions = hand_actions(self.rules, two_card_state(*hand))
        infoset = PlayerSet("player", player_tag(self.rules, self.mode, *sorted(hand)), up)
        if seat == self.free or len(actions) == 1:
            return Decision(0, infoset, actions)
        chosen = self._chosen[seat].get(infoset, STAND if STAND in actions else actions[0])
        return Decision(0, ("fixed", seat, infoset), (chosen,))  # forced: no set recorded

    def advance(self, state: TableState, labels: tuple[Label, ...]) -> TableState:
        hands, dealer, stage, seat, stopped, drew, draws = state
        classes = tuple(JOKER_CLASS if label[0] is None else label[0] for label in labels)
        if stage == DEAL:
            if len(hands) < self.seats:
                return ((*hands, classes), dealer, DEAL, 0, stopped, drew, draws)
            dealer += classes
            if len(dealer) < 2:
                return (hands, dealer, DEAL, 0, stopped, drew, draws)
            return (hands, dealer, CHECK if dealer_stops(self.rules, *dealer) else SEATS, 0,
                    stopped, drew, draws)
        # the third cards: the drawing seats' in seat order, then the Player/Dealer's
        for i, hand in enumerate(hands):
            if drew[i] and len(hand) == 2:
                hands = (*hands[:i], hand + classes, *hands[i + 1:])
                break
        else:
            dealer += classes
        return (hands, dealer, THIRDS if self._pending(hands, dealer, drew, draws) else OVER,
                seat, stopped, drew, draws)

    @staticmethod
    def _pending(hands: tuple[Hand, ...], dealer: Hand, drew: tuple[bool, ...],
                 draws: bool) -> bool:
        return any(d and len(h) == 2 for h, d in zip(hands, drew, strict=True)) or (
            draws and len(dealer) == 2)

    def act(self, state: TableState, action: str) -> TableState:
        hands, dealer, stage, seat, stopped, drew, draws = state
        if stage == CHECK:
            return (hands, dealer, OVER, 0, True, drew, draws) if action == END else \
                (hands, dealer, SEATS, 0, stopped, drew, draws)
        if stage == SEATS:
            drew = (*drew, action == DRAW)
            return (hands, dealer, DEALER if seat + 1 == self.seats else SEATS, seat + 1,
                    stopped, drew, draws)
        draws = action == DRAW
        return (hands, dealer, THIRDS if self._pending(hands, dealer, drew, draws) else OVER,
                seat, stopped, drew, draws)

    def record(self, state: TableState) -> tuple[tuple[Hand, ...], Hand, bool]:
        return (state[0], state[1], state[4])

    def outcome(self, state: TableState) -> tuple[Fraction, ...]:
        """Every seat's pay per unit, in seat order."""
        hands, dealer, _stage, _seat, stopped, _drew, _draws = state
        final = _state(dealer)
        return tuple(settle(self.rules, _state(hand), final, stopped)[0] for hand in hands)

    def future(self, state: TableState) -> tuple[object, ...] | None:
        hands, dealer, stage, _seat, stopped, drew, draws = state
        if stage == THIRDS:  # cards alone from here: the hands, and which still draw
            return (tuple(map(_state, hands)), _state(dealer), drew, draws, stopped)
        return None

    def fallback(self, decision: Decision) -> str:
        actions = decision.actions
        return END if END in actions else STAND if STAND in actions else actions[0]


def _state(hand: Hand) -> HandState:
    base, jokers, _ = two_card_state(hand[0], hand[1])
    return (base, jokers, hand[2] if len(hand) == 3 else None)


__all__ = ("TableRound",)
