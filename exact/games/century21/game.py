"""21st Century Baccarat, heads-up: one player against the Player/Dealer, exactly.

Layer: games, the top: a game's code may import every generic layer, no other game.

Cards are seen by point value only; the joker is an eleventh class (index 10). The round is a
small two-player zero-sum game with chance moves:

* the player gets two cards, the dealer an up card and a down card (counting unit: six
  ordered cards, denominator N(N-1)…(N-5), the same as every other game of the toolkit);
* the deal ends if the dealer's up card is a joker or its two cards make a 9 (a Natural too);
* otherwise the player, seeing its own two cards and the up card, draws or stands (forced
  outside the option totals), then the dealer, seeing its own cards and whether the player
  drew (and the third card when they are dealt face up), draws or stands.

Jokers are wild. At settlement the holder declares the value (or the Natural) that maximises
its result under the rules in force: the player declares first, against the dealer's best
answer, then the dealer answers. At a decision a joker hand may declare any total, so it may
draw or stand: that choice is made by exact search, the action with the higher expected result
against the other side's strategy (see :meth:`GameTable.house_way`).

The round is written once, as a game with chance and decision nodes
(:class:`Century21Round`, a :class:`~exact.model.strategy_game.DecisionGame`). The generic
sequence-form walk (:func:`~exact.engines.decisions.decision_table`) makes of it, once per rule
set, shoe and information mode, a *game table*: for every pair of action sequences (one per
side) the exact counts of every outcome. Any pair of strategies, pure or mixed, is then
evaluated exactly, and the generic algorithms of :mod:`exact.engines.strategy_games` serve it
(:attr:`GameTable.form`): best responses are a backward pass over the information sets; the
equilibrium is the sequence-form linear program (:mod:`exact.games.century21.solve`). Under
fixed pure strategies the same round is a plain deal (:class:`Century21Deal`) for the compiled
and batch engines and the simulation.

>>> table = game_table(DEFAULT_RULES, Shoe.standard(1, jokers=1))
>>> result = table.evaluate(*table.house_way())
>>> result.total == 53 * 52 * 51 * 50 * 49 * 48, sum(result.counts.values()) == result.total
(True, True)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal, NamedTuple, cast, get_args

from exact.core.cards import JOKER, VALUE_VIEW, Card, Label, Shoe
from exact.core.enumerator import Draw
from exact.core.parsing import shown
from exact.engines.decisions import decision_table
from exact.engines.fixed_strategy import Choices, StrategyDeal, choices
from exact.engines.strategy_games import InfoSet as StrategySet
from exact.engines.strategy_games import (
    Leaf,
    SequenceForm,
    Strategy,
    best_response,
    evaluate,
    pure,
    reach,
)
from exact.errors import ShoeError
from exact.errors import StrategyError as StrategyError
from exact.games.century21.rules import DEFAULT_RULES, Rules
from exact.model.features import Feature
from exact.model.game import Game
from exact.model.strategy_game import Decision

# The card classes of the deal: the ten point values, then the joker (exact.core.cards.JOKER).
JOKER_CLASS = 10
CLASSES = range(JOKER_CLASS + 1)
CLASS_NAMES = (*map(str, range(JOKER_CLASS)), JOKER)
ROUND_CARDS = 6
DRAW, STAND, END, CONTINUE = "draw", "stand", "end", "continue"
Mode = Literal["total", "cards"]  # what the player decides by: its two-card total, or cards
MODES: tuple[Mode, ...] = get_args(Mode)

# A hand as the settlement sees it: (sum of the non-joker first two cards mod 10, jokers among
# the first two, third card class or None).
HandState = tuple[int, int, int | None]
Declaration = tuple[bool, int, int]  # (declares a Natural, total, number of cards)


class PlayerSet(NamedTuple):
    """The player's decision: what it knows of its hand (:func:`player_tag`) v the up card."""

    kind: Literal["player"]
    tag: object
    up: int


class CheckSet(NamedTuple):
    """The Player/Dealer's check for a Natural before the draws, on its two cards."""

    kind: Literal["check"]
    up: int
    down: int


class DealerSet(NamedTuple):
    """The Player/Dealer's draw: its two cards, whether the player drew and the third card
    it saw (None when unseen)."""

    kind: Literal["dealer"]
    up: int
    down: int
    drew: bool
    seen: int | None


InfoSet = PlayerSet | CheckSet | DealerSet


def set_order(infoset: StrategySet) -> str:
    """The sort key of information sets: their text as plain tuples, the order of the strategy
    tables and grids. (The generic LP orders sets by ``repr``; for these named tuples that is
    the same order, field by field, so the LP's columns and ties are as they always were.)"""
    return str(tuple(cast(InfoSet, infoset)))
Sequence_ = tuple[tuple[InfoSet, str], ...]


def class_counts(shoe: Shoe) -> tuple[int, ...]:
    """Cards per class: point values 0-9, then jokers.

    >>> class_counts(Shoe.standard(1, jokers=2))
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2)
    """
    return (*shoe.by_value(), shoe.jokers)


def card_class(card: Card) -> int:
    value = card.value
    return JOKER_CLASS if value is None else value  # None: the joker


def two_card_state(first: int, second: int) -> HandState:
    jokers = (first == JOKER_CLASS) + (second == JOKER_CLASS)
    base = sum(c for c in (first, second) if c != JOKER_CLASS) % 10
    return (base, jokers, None)


def declarations(rules: Rules, hand: HandState) -> tuple[Declaration, ...]:
    """Everything the hand may be declared as, best-looking first (Natural, then high totals).

    >>> declarations(DEFAULT_RULES, (4, 0, 3))
    ((False, 7, 3),)
    >>> declarations(DEFAULT_RULES, (0, 2, None))[:2]
    ((True, 9, 2), (False, 9, 2))
    """
    base, first_jokers, third = hand
    cards = 2 if third is None else 3
    if cards == 3 and first_jokers + (third == JOKER_CLASS) >= 2 and rules.natural_any_two_jokers:
        return ((True, 9, 3),)  # the literal Natural: it beats all, so nothing else is declared
    if third == JOKER_CLASS and rules.drawn_joker_is_nine:
        return ((False, 9, 3),)
    wild = first_jokers + (third == JOKER_CLASS)
    totals = {(base + (third if third not in (None, JOKER_CLASS) else 0)) % 10}
    for _ in range(wild):
        totals = {(t + v) % 10 for t in totals for v in rules.joker_values}
    found = [(False, t, cards) for t in sorted(totals, reverse=True)]
    if cards == 2 and first_jokers == 2:
        found.insert(0, (True, 9, 2))
    return tuple(found)


def compare(rules: Rules, player: Declaration, dealer: Declaration,
            dealer_stopped: bool) -> tuple[Fraction, str]:
    """The player's pay per unit bet and how the hand was decided.

    >>> compare(DEFAULT_RULES, (False, 0, 3), (False, 0, 2), False)
    (Fraction(-1, 1), 'ties_on_zero')
    """
    p_natural, p_total, p_cards = player
    d_natural, d_total, d_cards = dealer
    if p_natural and d_natural:
        return Fraction(0), "natural_push"
    if p_natural:
        return rules.natural_pays, "natural"
    if d_natural:
        return Fraction(-1), "dealer_natural"
    if p_total > d_total:
        return rules.win_pay(p_total), "higher_total"
    if p_total < d_total:
        return Fraction(-1), "dealer_nine" if dealer_stopped and d_total == 9 else "lower_total"
    if p_total == 0 and rules.dealer_wins_ties_on_zero:
        return Fraction(-1), "ties_on_zero"
    if p_total == 9 and p_cards != d_cards and not rules.three_card_nine_pushes_two_card_nine:
        return (rules.win_pay(9), "two_card_nine") if p_cards == 2 else (
            Fraction(-1), "dealer_two_card_nine")
    return Fraction(0), "tie"


def settle(rules: Rules, player: HandState, dealer: HandState,
           dealer_stopped: bool) -> tuple[Fraction, str, Declaration, Declaration]:
    """Settle two final hands: the optimal-value search over the jokers' declarations.

    The player declares the value that maximises its worst case; the dealer then declares its
    best answer. Ties keep the earlier (more natural-looking) declaration.

    >>> settle(DEFAULT_RULES, (3, 1, None), (7, 0, None), False)[:2]
    (Fraction(1, 1), 'higher_total')
    """
    return settle_declared(rules, _declared(rules, player), _declared(rules, dealer),
                           dealer_stopped)


@cache
def _declared(rules: Rules, hand: HandState) -> tuple[Declaration, ...]:
    return declarations(rules, hand)


@cache
def settle_declared(rules: Rules, player: tuple[Declaration, ...],
                    dealer: tuple[Declaration, ...],
                    dealer_stopped: bool) -> tuple[Fraction, str, Declaration, Declaration]:
    """:func:`settle` on the hands' declaration sets (what settlement depends on)."""
    best: tuple[Fraction, str, Declaration, Declaration] | None = None
    for p in player:
        answer: tuple[Fraction, str, Declaration] | None = None
        for d in dealer:
            pay, how = compare(rules, p, d, dealer_stopped)
            if answer is None or pay < answer[0]:
                answer = (pay, how, d)
        assert answer is not None
        if best is None or answer[0] > best[0]:
            best = (answer[0], answer[1], p, answer[2])
    assert best is not None
    return best


def hand_actions(rules: Rules, hand: HandState) -> tuple[str, ...]:
    """Draw and/or stand, as the totals the hand may declare allow.

    >>> hand_actions(DEFAULT_RULES, (5, 0, None)), hand_actions(DEFAULT_RULES, (8, 0, None))
    (('draw', 'stand'), ('stand',))
    """
    found = set()
    for _natural, total, _cards in declarations(rules, hand):
        if total <= rules.must_draw_max:
            found.add(DRAW)
        elif total >= rules.must_stand_min:
            found.add(STAND)
        else:
            found |= {DRAW, STAND}
    return tuple(a for a in (DRAW, STAND) if a in found)


def dealer_stops(rules: Rules, up: int, down: int) -> tuple[str, ...]:
    """The dealer's choices at the check: ``("end",)`` forced, ``()`` no stop possible, or
    ``("end", "continue")`` for a hand that may declare a 9 but need not (a joker)."""
    if up == JOKER_CLASS and rules.stop_on_dealer_joker_up:
        return (END,)
    if not rules.stop_on_dealer_nine:
        return ()
    found = declarations(rules, two_card_state(up, down))
    if not any(d[0] or d[1] == 9 for d in found):
        return ()
    return (END,) if len(found) == 1 else (END, CONTINUE)


def player_tag(rules: Rules, mode: Mode, first: int, second: int) -> object:
    """What the player knows of its own hand: its two cards (``cards`` mode) or its total;
    a joker hand's "total" is ``J`` (one joker) or ``N`` (two), or, when jokers cannot make
    every total, ``("J", other card's value)``.

    >>> player_tag(DEFAULT_RULES, "total", 3, 10), player_tag(DEFAULT_RULES, "total", 7, 8)
    ('J', 5)
    """
    hand = two_card_state(first, second)
    if mode == "cards":
        return (first, second)
    if not hand[1]:
        return hand[0]
    if len(_declared(rules, hand)) >= 10:
        return "N" if hand[1] == 2 else "J"
    return ("J", hand[0]) if hand[1] == 1 else "N"


def has_joker(infoset: StrategySet) -> bool:
    """Does the deciding side's own hand hold a joker? (Its choice is then searched.)"""
    if isinstance(infoset, PlayerSet):
        tag = infoset.tag
        return tag in ("J", "N") or (isinstance(tag, tuple) and (JOKER_CLASS in tag or "J" in tag))
    return isinstance(infoset, CheckSet) or (isinstance(infoset, DealerSet)
                                             and JOKER_CLASS in (infoset.up, infoset.down))


# --- the game table ---------------------------------------------------------------------------
@dataclass
class GameTable:
    """Exact outcome counts for every pair of action sequences (see module docstring)."""

    rules: Rules
    shoe: Shoe
    mode: str
    total: int
    outcomes: list[tuple[str, Fraction]]
    entries: dict[tuple[Sequence_, Sequence_], dict[int, int]]
    player_sets: dict[InfoSet, tuple[str, ...]]
    dealer_sets: dict[InfoSet, tuple[str, ...]]
    dealer_parent: dict[InfoSet, Sequence_]

    @cached_property
    def payoffs(self) -> list[tuple[Sequence_, Sequence_, Fraction]]:
        """(player sequence, dealer sequence, summed pay × count) per entry."""
        return [(p, d, sum((self.outcomes[o][1] * c for o, c in counts.items()), Fraction(0)))
                for (p, d), counts in self.entries.items()]

    @cached_property
    def form(self) -> SequenceForm:
        """The table as a strategy game (:mod:`exact.engines.strategy_games`): side 0 the player,
        side 1 the Player/Dealer, zero-sum, so that the generic exact algorithms (evaluation,
        best responses, the sequence-form LP) serve this game as they serve chemin de fer."""
        sets: tuple[dict[StrategySet, tuple[str, ...]], dict[StrategySet, tuple[str, ...]]] = (
            {h: a for h, a in self.player_sets.items()},
            {h: a for h, a in self.dealer_sets.items()})
        parents: tuple[dict[StrategySet, Sequence_], dict[StrategySet, Sequence_]] = (
            {h: () for h in self.player_sets},
            {h: self.dealer_parent.get(h, ()) for h in self.dealer_sets})
        return SequenceForm(self.total, sets, parents,
                            [Leaf(p, d, pay, -pay) for p, d, pay in self.payoffs])

    # strategies -------------------------------------------------------------------------
    def house_way(self) -> tuple[Strategy, Strategy]:
        """House Way for both sides; joker hands' choices by exact search (alternating best
        responses restricted to joker information sets, until neither changes)."""
        player = pure(self.form, 0, self._house_player)
        dealer = pure(self.form, 1, self._house_dealer)
        for _ in range(20):
            new_dealer = self.dealer_best_response(player, only=has_joker, base=dealer)
            new_player = self.player_best_response(new_dealer, only=has_joker, base=player)
            if new_dealer == dealer and new_player == player:
                break
            player, dealer = new_player, new_dealer
        return player, dealer

    def _house_player(self, infoset: StrategySet, actions: tuple[str, ...]) -> str:
        if has_joker(infoset) or not isinstance(infoset, PlayerSet):
            return STAND if STAND in actions else actions[0]
        tag = infoset.tag  # no joker: a total, or two cards' classes
        total = tag if isinstance(tag, int) else sum(cast(tuple[int, int], tag)) % 10
        return DRAW if total <= self.rules.house_way_draw_max else STAND

    def _house_dealer(self, infoset: StrategySet, actions: tuple[str, ...]) -> str:
        if isinstance(infoset, CheckSet):
            return END
        if has_joker(infoset) or isinstance(infoset, PlayerSet):
            return STAND if STAND in actions else actions[0]
        dealer = cast(DealerSet, infoset)  # neither a check nor the player's: a draw set
        total = (dealer.up + dealer.down) % 10
        return DRAW if total <= self.rules.dealer_house_way_draw_max else STAND

    # evaluation -------------------------------------------------------------------------
    def evaluate(self, player: Strategy, dealer: Strategy) -> Result:
        """Exact (expected) outcome counts of a strategy pair."""
        counts: dict[int, Fraction | int] = defaultdict(int)
        for (p, d), entry in self.entries.items():
            weight = reach(player, p) * reach(dealer, d)
            if weight:
                for outcome, count in entry.items():
                    counts[outcome] += weight * count
        by_outcome = {self.outcomes[o]: _tidy(c) for o, c in sorted(counts.items()) if c}
        return Result(self.rules, self.shoe, self.total, by_outcome)

    def value(self, player: Strategy, dealer: Strategy) -> Fraction:
        """The player's expected pay per unit bet."""
        return evaluate(self.form, player, dealer)[0]

    def player_best_response(self, dealer: Strategy,
                             only: Callable[[InfoSet], bool] | None = None,
                             base: Strategy | None = None) -> Strategy:
        """The player's exact best response (pure), one action per information set; ties
        keep House Way. ``only`` restricts the search to some sets (others from ``base``)."""
        return best_response(self.form, 0, dealer, self._house_player,
                             _fixed(self.player_sets, only, base))

    def dealer_best_response(self, player: Strategy,
                             only: Callable[[InfoSet], bool] | None = None,
                             base: Strategy | None = None) -> Strategy:
        """The dealer's exact best response (pure), draws before the check; ties keep House
        Way. ``only`` restricts the search to some sets (others from ``base``)."""
        return best_response(self.form, 1, player, self._house_dealer,
                             _fixed(self.dealer_sets, only, base))

    # tables ------------------------------------------------------------------------------
    def strategy_table(self, side: str, strategy: Strategy) -> list[dict[str, Any]]:
        """Rows of a printable strategy: the information set and P(draw) (or P(end))."""
        rows = []
        for infoset, actions in sorted(self.dealer_sets.items() if side == "dealer"
                                       else self.player_sets.items(), key=_set_order):
            key = END if END in actions else DRAW
            rows.append({"information": describe_set(infoset), "set": infoset,
                         "action": key, "probability": strategy[infoset].get(key, Fraction(0))})
        return rows


def _set_order(item) -> tuple:
    return tuple(str(part) for part in item[0])


def describe_set(infoset: InfoSet) -> str:
    if isinstance(infoset, PlayerSet):
        tag = infoset.tag
        if isinstance(tag, int):
            own = f"total {tag}"
        elif tag in ("J", "N"):
            own = "one joker" if tag == "J" else "two jokers"
        elif isinstance(tag, tuple) and tag[0] == "J":
            own = f"one joker and a {tag[1]}"
        else:
            own = "cards " + "+".join(CLASS_NAMES[c] for c in cast(tuple[int, int], tag))
        return f"player {own} v up {CLASS_NAMES[infoset.up]}"
    own = f"dealer {CLASS_NAMES[infoset.up]} up {CLASS_NAMES[infoset.down]} down"
    if isinstance(infoset, CheckSet):
        return own + ", before the draws"
    seen = "player stood" if not infoset.drew else "player drew" + (
        f" {CLASS_NAMES[infoset.seen]}" if infoset.seen is not None else "")
    return f"{own}, {seen}"


def _fixed(sets: Mapping[InfoSet, tuple[str, ...]], only: Callable[[InfoSet], bool] | None,
           base: Strategy | None) -> Strategy | None:
    """The sets a restricted best response does not search, with their given choices."""
    if only is None:
        return None
    return {h: (base or {})[h] for h in sets if not only(h)}


def _tidy(value: Fraction | int) -> Fraction | int:
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


@dataclass(frozen=True)
class Result:
    """Exact outcome counts of one strategy pair over ``total`` six-card sequences.

    Counts are integers for pure strategies and exact fractions (expected counts) otherwise.
    """

    rules: Rules
    shoe: Shoe
    total: int
    counts: Mapping[tuple[str, Fraction], Fraction | int] = field(hash=False)

    def probability(self, result: str | None = None, how: str | None = None) -> Fraction:
        """P(player ``result`` in win/push/loss, decided ``how``); None = any."""
        return sum((Fraction(c) for (h, pay), c in self.counts.items()
                    if (result is None or _result(pay) == result) and (how is None or h == how)),
                   Fraction(0)) / self.total

    @property
    def edge(self) -> Fraction:
        """The player's expected pay per unit bet (negative: the dealer's advantage)."""
        return sum((pay * c for (_h, pay), c in self.counts.items()), Fraction(0)) / self.total

    def edge_with_collection(self, bet: Fraction | int, fee: Fraction | int) -> Fraction:
        """The player's expected result per unit bet after paying ``fee`` on a ``bet``."""
        return (Fraction(bet) * self.edge - Fraction(fee)) / Fraction(bet)

    def by_how(self) -> list[tuple[str, str, Fraction, Fraction | int]]:
        """(result, how, pay, count) rows, wins first."""
        order = {"win": 0, "push": 1, "loss": 2}
        return sorted(((_result(pay), how, pay, count) for (how, pay), count in
                       self.counts.items()), key=lambda row: (order[row[0]], row[1]))


def _result(pay: Fraction) -> str:
    return "win" if pay > 0 else "push" if pay == 0 else "loss"


def checked_mode(mode: object) -> Mode:
    """``mode`` if it is a player information mode (:data:`MODES`), else a one-line
    StrategyError (``--information`` is free text: chemin-de-fer's modes are others).

    >>> checked_mode("totals")
    Traceback (most recent call last):
    ...
    exact.errors.StrategyError: unknown player information mode 'totals'; known: total, cards
    """
    for known in MODES:
        if mode == known:
            return known
    raise StrategyError(f"unknown player information mode {shown(mode)}; "
                        f"known: {', '.join(MODES)}")


def game_table(rules: Rules, shoe: Shoe, mode: Mode = "total") -> GameTable:
    """The game table of ``rules`` on ``shoe``; ``mode`` is the player's information: its
    two-card ``total`` or its two ``cards`` (values), with the dealer's up card."""
    mode = checked_mode(mode)
    if shoe.size < ROUND_CARDS:
        raise ShoeError(f"a shoe of {shoe.size} cards cannot deal a heads-up round "
                        f"(the counting unit needs {ROUND_CARDS} cards)")
    return _game_table(rules, class_counts(shoe), mode, shoe)


@cache
def _game_table(rules: Rules, counts: tuple[int, ...], mode: Mode, shoe: Shoe) -> GameTable:
    round_ = Century21Round(rules, mode)
    walked = decision_table(round_, shoe)
    outcomes = [round_.outcomes[cast(int, o)] for o in walked.outcomes]
    index = {outcome: i for i, outcome in enumerate(walked.outcomes)}
    entries = {cast(tuple[Sequence_, Sequence_], pair): {index[o]: c for o, c in found.items()}
               for pair, found in walked.entries.items()}
    return GameTable(rules, shoe, mode, walked.total, outcomes, entries,
                     cast(dict[InfoSet, tuple[str, ...]], walked.sets[0]),
                     cast(dict[InfoSet, tuple[str, ...]], walked.sets[1]),
                     cast(dict[InfoSet, Sequence_], walked.parents[1]))


# --- the round, written once ------------------------------------------------------------------
Hand = tuple[int, ...]  # a hand's cards by class: values 0-9, JOKER_CLASS for a joker
Century21Record = tuple[Hand, Hand, bool]  # the final hands, and whether the dealer stopped
# The stages of a round: the first four cards (the player's two, then the dealer's up and
# down), the dealer's check for a Natural, the player's choice, its third card when the dealer
# sees it (cards face up), the dealer's choice, the third cards still to deal, the end. Face
# down, the player's third card is dealt after the dealer's choice, which cannot depend on it:
# the probability of a deal depends only on which cards are dealt, not in what order (the
# enumerator's exchangeability), and the rest of the round is then cards alone, which the
# sequence-form walk builds once per pair of hands (Century21Round.future).
DEALING, CHECK, PLAYER, PLAYER_CARD, DEALER, THIRDS, OVER = range(7)
# (player's cards, dealer's cards, stage, whether the dealer stopped at the check, whether
# the player draws, whether the dealer draws)
RoundState = tuple[Hand, Hand, int, bool, bool, bool]
_TWO_CARDS, _ONE_CARD = Draw(VALUE_VIEW, 2), Draw(VALUE_VIEW, 1)  # frozen: shared by every node


@dataclass(frozen=True)
class Century21Round:
    """The heads-up round as a :class:`~exact.model.strategy_game.DecisionGame`: side 0 the
    player, side 1 the Player/Dealer (module docstring). The one description of the round: the
    game table (every strategy's counts, best responses, the equilibrium) is its sequence form
    (:func:`~exact.engines.decisions.decision_table`), the compiled and batch engines and the
    simulation deal it under fixed strategies (:class:`Century21Deal`).

    >>> from exact.engines.decisions import decision_table
    >>> walked = decision_table(Century21Round(DEFAULT_RULES, "total"), Shoe.standard(1, 1))
    >>> walked.total == 53 * 52 * 51 * 50 * 49 * 48, len(walked.sets[0]), len(walked.sets[1])
    (True, 30, 70)
    """

    rules: Rules
    mode: Mode = "total"
    round_cards: int = ROUND_CARDS
    accepts_jokers: bool = True

    @cached_property
    def _memo(self) -> dict[object, Any]:
        # what the steps compute from a hand (its state, actions, settlement), kept per game:
        # the walkers ask again at every node
        return {}

    def _of(self, function: Callable[..., Any], *args: Any) -> Any:
        key = (function, args)
        found = self._memo.get(key, self._memo)
        if found is self._memo:
            found = self._memo[key] = function(self.rules, *args)
        return found

    def _hand(self, hand: Hand) -> HandState:
        found = self._hands.get(hand)
        if found is None:
            found = self._hands[hand] = _hand_state(self.rules, hand)
        return found

    @cached_property
    def _hands(self) -> dict[Hand, HandState]:
        return {}

    @cached_property
    def outcomes(self) -> list[tuple[str, Fraction]]:
        """Every outcome met so far, (how, the player's pay per unit bet), by the index that
        :meth:`outcome` gives (an index: the walkers hash outcomes at every leaf)."""
        return []

    def _declared_id(self, hand: Hand) -> int:
        """A small id of what the hand may be declared as: all that settlement reads."""
        found = self._hand_ids.get(hand)
        if found is None:
            declared = _declared(self.rules, self._hand(hand))
            found = self._hand_ids[hand] = self._declaration_ids.setdefault(
                declared, len(self._declaration_ids))
        return found

    @cached_property
    def _hand_ids(self) -> dict[Hand, int]:
        return {}

    @cached_property
    def _declaration_ids(self) -> dict[tuple[Declaration, ...], int]:
        return {}

    def start(self) -> RoundState:
        return ((), (), DEALING, False, False, False)

    def step(self, state: RoundState) -> Draw | Decision | None:
        stage = state[2]
        if stage == DEALING:
            return _ONE_CARD if state[0] else _TWO_CARDS
        if stage in (THIRDS, PLAYER_CARD):
            return _ONE_CARD
        if stage == OVER:
            return None
        # looked up by what the decision reads (the walkers ask at every node, and each deal
        # of four cards is a node of its own), made once
        player, dealer = state[0], state[1]
        if stage == CHECK:
            key: tuple[object, ...] = (dealer[0], dealer[1])
        elif stage == PLAYER:
            key = (player, dealer[0])
        else:
            key = (dealer[0], dealer[1], state[4], player[2] if len(player) == 3 else None)
        found = self._decisions[stage].get(key)
        if found is None:
            found = self._decisions[stage][key] = self._decision(state)
        return found

    @cached_property
    def _decisions(self) -> dict[int, dict[tuple[object, ...], Decision]]:
        return {CHECK: {}, PLAYER: {}, DEALER: {}}

    def _decision(self, state: RoundState) -> Decision:
        player, dealer, stage, _stopped, player_draws, _dealer_draws = state
        up, down = dealer[0], dealer[1]
        if stage == CHECK:
            return _check(self.rules, up, down)
        if stage == PLAYER:
            # cards come in the view's class order (T after 9): the tag reads them by value
            return cast(Decision, self._of(_player_decision, self.mode, *sorted(player), up))
        seen = player[2] if len(player) == 3 and self.rules.third_cards_face_up else None
        return cast(Decision, self._of(_dealer_decision, up, down,
                                       player_draws or len(player) == 3, seen))

    def advance(self, state: RoundState, labels: tuple[Label, ...]) -> RoundState:
        player, dealer, stage, stopped, player_draws, dealer_draws = state
        classes = tuple([JOKER_CLASS if (value := label[0]) is None else value
                         for label in labels])
        if stage == PLAYER_CARD:
            return (player + classes, dealer, DEALER, stopped, False, False)
        if stage == THIRDS:
            if player_draws and len(player) == 2:
                return (player + classes, dealer, THIRDS if dealer_draws else OVER, stopped,
                        player_draws, dealer_draws)
            return (player, dealer + classes, OVER, stopped, player_draws, dealer_draws)
        if not player:
            return (classes, dealer, DEALING, stopped, False, False)
        dealer += classes
        if len(dealer) < 2:
            return (player, dealer, DEALING, stopped, False, False)
        return (player, dealer, CHECK if self._of(dealer_stops, *dealer) else PLAYER, stopped,
                False, False)

    def act(self, state: RoundState, action: str) -> RoundState:
        player, dealer, stage, stopped, player_draws, _dealer_draws = state
        if stage == CHECK:
            return (player, dealer, OVER, True, False, False) if action == END else \
                (player, dealer, PLAYER, stopped, False, False)
        if stage == PLAYER:
            if action == STAND:
                return (player, dealer, DEALER, stopped, False, False)
            if self.rules.third_cards_face_up:
                return (player, dealer, PLAYER_CARD, stopped, False, False)
            return (player, dealer, DEALER, stopped, True, False)
        draws = action == DRAW
        pending = draws or (player_draws and len(player) == 2)
        return (player, dealer, THIRDS if pending else OVER, stopped, player_draws, draws)

    def record(self, state: RoundState) -> Century21Record:
        player, dealer, _stage, stopped, _player_draws, _dealer_draws = state
        if len(player) < 2 or len(dealer) < 2:
            raise ValueError("a round ends only once both hands hold two cards")
        return (player, dealer, stopped)

    def outcome(self, state: RoundState) -> int:
        """The index of (how the hand was decided, the player's pay) in :attr:`outcomes`."""
        player, dealer, _stage, stopped, _player_draws, _dealer_draws = state
        key = (self._declared_id(player), self._declared_id(dealer), stopped)
        found = self._settled.get(key)
        if found is None:
            pay, how, _p, _d = settle(self.rules, self._hand(player), self._hand(dealer),
                                      stopped)
            outcomes = self.outcomes
            index = self._outcome_index.setdefault((how, pay), len(outcomes))
            if index == len(outcomes):
                outcomes.append((how, pay))
            found = self._settled[key] = index
        return found

    @cached_property
    def _settled(self) -> dict[tuple[int, int, bool], int]:
        return {}

    @cached_property
    def _outcome_index(self) -> dict[tuple[str, Fraction], int]:
        return {}

    def future(self, state: RoundState) -> tuple[object, ...] | None:
        player, dealer, stage, _stopped, player_draws, dealer_draws = state
        if stage == THIRDS:  # cards alone: the hands, and which still draw
            if player_draws and len(player) == 2:
                return (self._hand(player), self._hand(dealer), dealer_draws)
            # only the dealer's card is left: the player's hand is what it may declare
            return (self._declared_id(player), self._hand(dealer))
        return None

    def fallback(self, decision: Decision) -> str:
        return _unreached(decision.actions)


def _check(rules: Rules, up: int, down: int) -> Decision:
    return Decision(1, CheckSet("check", up, down), dealer_stops(rules, up, down))


def _player_decision(rules: Rules, mode: Mode, first: int, second: int, up: int) -> Decision:
    return Decision(0, PlayerSet("player", player_tag(rules, mode, first, second), up),
                    hand_actions(rules, two_card_state(first, second)))


def _dealer_decision(rules: Rules, up: int, down: int, drew: bool, seen: int | None
                     ) -> Decision:
    return Decision(1, DealerSet("dealer", up, down, drew, seen),
                    hand_actions(rules, two_card_state(up, down)))


def _hand_state(_rules: Rules, hand: Hand) -> HandState:
    return (*two_card_state(hand[0], hand[1])[:2], hand[2] if len(hand) == 3 else None)


class Century21Deal(StrategyDeal[Century21Record]):
    """A heads-up round under two pure strategies, as a :class:`~exact.core.enumerator.Deal`:
    the one round (:class:`Century21Round`) with its decisions taken
    (:class:`~exact.engines.fixed_strategy.StrategyDeal`). A compiled deal enumerates every sequence
    of card classes, also those the shoe the strategies were solved on cannot deal (two jokers
    from a one-joker shoe): their sets are not in the strategies and weigh nothing on that shoe
    (or any shoe with cards taken out of it), so House Way's action is taken there."""

    @classmethod
    def of(cls, rules: Rules, mode: Mode, player: Strategy, dealer: Strategy) -> Century21Deal:
        return cls(Century21Round(rules, mode), (choices(player, set_order),
                                                 choices(dealer, set_order)))

    @property
    def rules(self) -> Rules:
        return cast(Century21Round, self.game).rules

    @property
    def mode(self) -> Mode:
        return cast(Century21Round, self.game).mode

    @property
    def player(self) -> Choices:
        return self.strategies[0]

    @property
    def dealer(self) -> Choices:
        return self.strategies[1]


def _unreached(actions: tuple[str, ...]) -> str:
    """The action of a hand the strategies never meet: House Way's for a joker hand, and the
    end at the check."""
    return END if END in actions else STAND if STAND in actions else actions[0]


def record_outcome(rules: Rules, record: Century21Record) -> tuple[str, Fraction]:
    """(how, pay) of a record of :class:`Century21Deal` (player's classes, dealer's classes,
    whether the dealer stopped before the draws)."""
    player, dealer, stopped = record
    p = two_card_state(*player[:2])
    d = two_card_state(*dealer[:2])
    if len(player) == 3:
        p = (p[0], p[1], player[2])
    if len(dealer) == 3:
        d = (d[0], d[1], dealer[2])
    pay, how, _pd, _dd = settle(rules, p, d, stopped)
    return how, pay


def shoe_for(rules: Rules) -> Shoe:
    return Shoe.standard(rules.decks, rules.jokers)


# --- the game, as the toolkit's registry and command line see it ------------------------------
@dataclass(frozen=True)
class Century21(Game[Century21Record]):
    """21st Century Baccarat heads-up. Its analysis is a strategy analysis, not a bet table:
    see :func:`game_table` and :mod:`exact.games.century21.render`."""

    rules: Rules = DEFAULT_RULES
    id: str = "century21"
    name: str = "21st Century Baccarat"
    bet_files: tuple[Path, ...] = ()

    @cached_property
    def features(self) -> dict[str, Feature[Century21Record]]:
        return {}

    def describe_rules(self) -> list[str]:
        return self.rules.describe()
