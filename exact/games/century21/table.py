"""Settling one hand at a 21st Century Baccarat table: several seats, backline circles,
table limits, collection, the dice order and the Player/Dealer's action.

Layer: games, the top: a game's code may import every generic layer, no other game.

Each seat (1-based) holds one hand; its circles 1 (the seated player), 2 and 3 (backline
wagers by other players) all share that hand's result against the Player/Dealer's hand.
Every circle wager pays the table's collection before the hand, unless it uses a free
collection button. The Player/Dealer "can only receive action on the total amount he has
wagered" (seed 001_...). Under the rules' default reading (``action = "seat-by-seat"``) its
wager takes action seat by seat in the order the dice set (circles 1, 2, 3 within a seat)
until it is used up; a wager beyond gets no action and its collection back as a
free-collection button, and the last wager in action may be in action for part of its amount
(the rest is returned). Under ``action = "whole-hand"`` a wager that does not cover the
players' total makes the whole hand no action. Jokers are declared by the same optimal search
as the exact analysis (:func:`exact.games.century21.game.settle`), except that a player's Natural
not declared plays as 9 (rule 10).

How a position's option hand (5 or 6) is played: the largest wager in action decides when the
circles disagree (circle 1 on equal wagers); a player deciding several spots may check one hand
only, the others must play House Way (rule 6). The cards dealt must agree with that play.

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
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from exact.core.cards import Card, Shoe, parse_cards
from exact.core.parsing import expect, parse_number, shown
from exact.errors import CardError
from exact.games.century21.game import (
    DRAW,
    JOKER_CLASS,
    STAND,
    card_class,
    dealer_stops,
    declarations,
    hand_actions,
    settle_declared,
    shoe_for,
    two_card_state,
)
from exact.games.century21.rules import DEFAULT_RULES, Rules, TableTag
from exact.model.settlement import (
    Settlement,
    SettlementError,
    SettlementInputError,
    Wager,
    check_in_shoe,
)

CIRCLES = (1, 2, 3)
POSITIONS = 8
"""Positions round the table, the Player/Dealer's always position 1 (seed, rule 2: "the
Player/Dealer's position is always 1, 9 or 17; numbers count clockwise")."""
DICE = 3
DICE_TOTALS = range(DICE, 6 * DICE + 1)


def dice_position(total: int, positions: int = POSITIONS) -> int:
    """The position a dice total lands on, counting clockwise from the Player/Dealer's
    position 1 (the stated reading of rule 2: totals 1, 9 and 17 are the Player/Dealer's).

    >>> [dice_position(t) for t in (3, 8, 9, 10, 17, 18)]
    [3, 8, 1, 2, 1, 2]
    """
    if isinstance(total, bool) or not isinstance(total, int) or total not in DICE_TOTALS:
        raise SettlementError(f"dice total {shown(total)}: three dice make {DICE_TOTALS.start} "
                              f"to {DICE_TOTALS.stop - 1}")
    return (total - 1) % positions + 1


@cache
def dice_total_counts(dice: int = DICE) -> dict[int, int]:
    """Ways (of 6**dice rolls) to make each total, by convolving one die at a time.

    >>> dice_total_counts()[10], sum(dice_total_counts().values())
    (27, 216)
    """
    ways = {0: 1}
    for _ in range(dice):
        step: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, 7):
                step[total + face] = step.get(total + face, 0) + count
        ways = step
    return dict(sorted(ways.items()))


def first_position_counts(dice: int = DICE, positions: int = POSITIONS) -> dict[int, int]:
    """Ways (of 6**dice) the dice land on each position 1..positions.

    >>> first_position_counts()
    {1: 28, 2: 28, 3: 28, 4: 28, 5: 27, 6: 25, 7: 25, 8: 27}
    """
    found = dict.fromkeys(range(1, positions + 1), 0)
    for total, count in dice_total_counts(dice).items():
        found[(total - 1) % positions + 1] += count
    return found


def first_position_distribution(dice: int = DICE,
                                positions: int = POSITIONS) -> dict[int, Fraction]:
    """The exact probability that the dice land on each position (see
    :func:`first_position_counts`)."""
    rolls = 6 ** dice
    return {p: Fraction(c, rolls) for p, c in first_position_counts(dice, positions).items()}


def position_order(positions: Sequence[int], landed: int) -> list[int]:
    """The occupied player positions (2..8) in the order of action when the dice land on
    ``landed``: from that position clockwise; landing on the Player/Dealer's own position 1
    starts at the next position (it holds no hand to compare).

    >>> position_order([2, 4, 7], 5), position_order([2, 4, 7], 1)
    ([7, 2, 4], [2, 4, 7])
    """
    start = 2 if landed == 1 else landed
    return sorted(positions, key=lambda p: (p - start) % POSITIONS)


def expected_action(wagers: Mapping[int, Fraction], dealer_wager: Fraction | None,
                    reading: str = "seat-by-seat", dice: int = DICE
                    ) -> dict[int, Fraction]:
    """Per position (2..8), its wager's exact expected amount in action over the dice roll:
    the Player/Dealer's wager (None: it covers everything) is used up in dice order.

    >>> shares = expected_action(dict.fromkeys(range(2, 9), Fraction(100)), Fraction(300))
    >>> min(shares.values()) / 100, max(shares.values()) / 100
    (Fraction(77, 216), Fraction(14, 27))
    """
    return {p: sum((probability * amounts[p] for probability, amounts in
                    action_by_roll(wagers, dealer_wager, reading, dice)), Fraction(0))
            for p in wagers}


def action_by_roll(wagers: Mapping[int, Fraction], dealer_wager: Fraction | None,
                   reading: str = "seat-by-seat", dice: int = DICE
                   ) -> list[tuple[Fraction, dict[int, Fraction]]]:
    """(probability, amount in action per position) for each position the dice may land on."""
    for position in wagers:
        if isinstance(position, bool) or not isinstance(position, int) or \
                not 2 <= position <= POSITIONS:
            raise SettlementError(f"position {shown(position)}: players sit at positions 2 "
                                  f"to {POSITIONS} (the Player/Dealer's is 1)")
    return [(probability, amounts_in_action(wagers, dealer_wager, reading, landed))
            for landed, probability in first_position_distribution(dice).items()
            if probability]


def amounts_in_action(wagers: Mapping[int, Fraction], dealer_wager: Fraction | None,
                      reading: str, landed: int) -> dict[int, Fraction]:
    """Per position, the amount in action when the dice land on ``landed``."""
    total = sum(wagers.values(), Fraction(0))
    if dealer_wager is None or dealer_wager >= total:
        return dict(wagers)
    if reading == "whole-hand":
        return dict.fromkeys(wagers, Fraction(0))
    left, amounts = dealer_wager, {}
    for position in position_order(list(wagers), landed):
        amounts[position] = min(wagers[position], left)
        left -= amounts[position]
    return {p: amounts[p] for p in wagers}


@dataclass(frozen=True)
class CircleWager:
    """A wager on a seat's circle (1: the seated player; 2, 3: backline)."""

    seat: int
    circle: int
    amount: Fraction | int | str
    free_collection: bool = False
    player: str | None = None
    """Who placed it (rule 6 counts a player's spots); default: the circle's own label."""
    choice: str | None = None
    """How this wager's owner wants an option hand played: "draw" or "stand" (or None)."""

    def __post_init__(self) -> None:
        if self.choice not in (None, DRAW, STAND):
            raise SettlementError(f"seat {shown(self.seat)} circle {shown(self.circle)}: "
                                  f"choice {shown(self.choice)} is not draw or stand")
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

    @property
    def owner(self) -> str:
        return self.player if self.player is not None else self.label


@dataclass(frozen=True)
class TableHand:
    """The settled hand: per circle wager a :class:`~exact.model.settlement.Settlement` (net of the
    bet, before collection), the collections, and the Player/Dealer's result."""

    action: bool
    """Some wager is in action (False: the whole hand is no action)."""
    settlements: tuple[Settlement, ...]
    """One per circle wager, its stake the amount in action (the whole wager if none is)."""
    collections: Mapping[str, Fraction]
    dealer_collection: Fraction
    free_collection_credits: tuple[str, ...]
    deciders: Mapping[int, int]
    order: tuple[int, ...] = ()
    """The seats in the order the dice set, the order action is taken in."""
    in_action: Mapping[str, Fraction] = field(default_factory=dict)
    """Per wager, the amount in action."""
    returned: Mapping[str, Fraction] = field(default_factory=dict)
    """Per wager, the amount returned without action (the whole wager, or part of the last)."""
    reading: str = "seat-by-seat"

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


def _cards(cards: str | Sequence[Card], who: str) -> list[Card]:
    expect(cards, (str, Sequence), f"settle_table: {who}'s cards must be text or a sequence "
                                   "of Cards")
    try:
        parsed = parse_cards(cards) if isinstance(cards, str) else list(cards)
    except CardError as error:
        raise SettlementError(f"{who}: {error}") from None
    for card in parsed:
        expect(card, Card, f"settle_table: each of {who}'s cards must be a Card")
    if len(parsed) not in (2, 3):
        raise SettlementError(f"{who}: a hand has 2 or 3 cards, got {len(parsed)}")
    return parsed


def hand_state(classes: Sequence[int]) -> tuple[int, int, int | None]:
    base, jokers, _ = two_card_state(classes[0], classes[1])
    return (base, jokers, classes[2] if len(classes) == 3 else None)


def settle_table(rules: Rules, dealer_cards: str | Sequence[Card],
                 seat_cards: Mapping[int, str | Sequence[Card]], wagers: Sequence[CircleWager],
                 dealer_wager: Fraction | int | str, table: TableTag | None = None,
                 dealer_free_collection: bool = False, dice_start: int | None = None,
                 undeclared_naturals: Sequence[int] = (), shoe: Shoe | None = None,
                 dice_total: int | None = None, positions: Mapping[int, int] | None = None
                 ) -> TableHand:
    """Settle one hand (see the module docstring). Cards are in dealing order; the dealer's
    first card is its up card. ``dice_start``: the seat the dice start the comparison at
    (default the lowest seat; an empty position starts at the next seat clockwise).
    ``dice_total`` (3-18, instead of ``dice_start``): the three dice's total, counted
    clockwise from the Player/Dealer's position 1 (:func:`dice_position`); each seat sits at
    ``positions[seat]`` (2-8; default seat + 1, seats 1-7 numbered clockwise from the
    Player/Dealer) and action runs from the position the dice land on.
    ``undeclared_naturals``: seats whose Natural was not declared (they play as 9). Every
    card of the hand, the dealer's and all seats' together, must be one ``shoe`` (default:
    the rules' decks and jokers) holds. Raises SettlementError on any impossible input, and
    WrongTypeError on an argument of the wrong type.

    >>> settle_table(DEFAULT_RULES.replace(jokers=0), "9H 7C", {1: "X 2S"},
    ...              [CircleWager(1, 1, 10)], dealer_wager=100)
    Traceback (most recent call last):
    ...
    exact.errors.SettlementError: the hand has 1 of X (joker); the shoe (8 decks) holds 0
    """
    expect(rules, Rules, "settle_table: rules must be a Rules")
    expect(seat_cards, Mapping, "settle_table: seat_cards must map seats to cards")
    expect(wagers, Sequence, "settle_table: wagers must be a sequence of CircleWagers")
    for wager in wagers:
        expect(wager, CircleWager, "settle_table: each wager must be a CircleWager")
    expect(table, (TableTag, type(None)), "settle_table: table must be a TableTag or None")
    expect(dealer_free_collection, bool, "settle_table: dealer_free_collection must be a bool")
    expect(dice_start, (int, type(None)), "settle_table: dice_start must be a seat (int)")
    expect(undeclared_naturals, (Sequence, set, frozenset),
           "settle_table: undeclared_naturals must be seats")
    tag = table or rules.table
    stake = parse_number(dealer_wager, "bet", "dealer wager", SettlementInputError)
    if stake <= 0:
        raise SettlementError(f"the Player/Dealer's wager must be positive, got {stake}")
    if stake < tag.min_bet:  # the seed: no maximum for the Player/Dealer, but the limits hold
        raise SettlementError(f"the Player/Dealer's wager {_money(stake)} is below the table "
                              f"minimum {_money(tag.min_bet)} ({_money(tag.min_bet)}-"
                              f"{_money(tag.max_bet)} table; the Player/Dealer has no maximum)")
    if dice_total is not None and dice_start is not None:
        raise SettlementError("give the dice total or the dice start seat, not both")
    dealt = {"Player/Dealer": _cards(dealer_cards, "Player/Dealer")}
    for seat, cards in seat_cards.items():
        expect(seat, int, "settle_table: seat_cards must map seats (int) to cards")
        dealt[f"seat {seat}"] = _cards(cards, f"seat {seat}")
    check_in_shoe([card for cards in dealt.values() for card in cards],
                  shoe_for(rules) if shoe is None else shoe, "the hand")
    dealer = [card_class(card) for card in dealt["Player/Dealer"]]
    seats = {seat: [card_class(card) for card in dealt[f"seat {seat}"]] for seat in seat_cards}
    stops = dealer_stops(rules, dealer[0], dealer[1])
    stopped = END_ in stops
    _check_draws(rules, dealer, "Player/Dealer", stopped)
    for seat in undeclared_naturals:
        if seat not in seats or seats[seat][:2] != [JOKER_CLASS, JOKER_CLASS]:
            raise SettlementError(f"seat {seat}: only a two-card Natural (two jokers) can go "
                                  "undeclared")
    for seat, classes in seats.items():
        _check_draws(rules, classes, f"seat {seat}", stopped, seat in undeclared_naturals)
    seen: set[tuple[int, int]] = set()
    for wager in wagers:
        if (wager.seat, wager.circle) in seen:
            raise SettlementError(f"{wager.label}: two wagers on one circle")
        seen.add((wager.seat, wager.circle))
        if wager.seat not in seats:
            raise SettlementError(f"{wager.label}: seat {wager.seat} was dealt no hand")
        if not tag.min_bet <= wager.amount <= tag.max_bet:  # type: ignore[operator]  # amount is a Fraction once read
            raise SettlementError(f"{wager.label}: {wager.amount} is outside the table limits "
                                  f"{tag.min_bet}-{tag.max_bet}")
    if dice_total is None:
        if positions:
            raise SettlementError("seat positions need the dice total (dice_total)")
        order = dice_order(sorted({w.seat for w in wagers}), dice_start)
    else:
        order = dice_total_order(sorted({w.seat for w in wagers}), dice_total, positions)
    in_action = action_taken(rules.action, stake, wagers, order)
    returned = {w.label: Fraction(w.amount) - in_action[w.label] for w in wagers}
    any_action = any(in_action.values())
    paid = {w.label: Fraction(0) if w.free_collection else tag.fee for w in wagers}
    collections = {label: fee if in_action[label] else Fraction(0)
                   for label, fee in paid.items()}
    credits = tuple(label for label, fee in paid.items() if fee and not in_action[label])
    dealer_fee = (Fraction(0) if dealer_free_collection or not rules.dealer_pays_collection
                  else tag.fee)
    if not any_action:
        credits += ("Player/Dealer",) if dealer_fee else ()
        dealer_fee = Fraction(0)
    deciders = _deciders(wagers, in_action)
    _check_play(rules, seats, wagers, deciders, stopped)
    dealer_state = hand_state(dealer)
    covered = sum((Fraction(w.amount) for w in wagers), Fraction(0))
    settlements = []
    for wager in wagers:
        amount = in_action[wager.label]
        if not amount:
            why = ("the whole hand is no action" if rules.action == "whole-hand"
                   else f"the Player/Dealer's {_money(stake)} is used up before seat "
                        f"{wager.seat} (dice order {', '.join(map(str, order))})")
            reason = (f"{wager.label}: no action: the Player/Dealer's {_money(stake)} does not "
                      f"cover the players' {_money(covered)}; {why}; wager returned"
                      + ("; collection refunded as a free-collection button"
                         if paid[wager.label] else ""))
            settlements.append(Settlement(Wager(wager.label, wager.amount), "no_action",
                                          Fraction(0), Fraction(0), reason))
            continue
        player_declarations = ((False, 9, 2),) if wager.seat in undeclared_naturals else (
            declarations(rules, hand_state(seats[wager.seat])))
        pay, how, declared, dealer_declared = settle_declared(
            rules, player_declarations, declarations(rules, dealer_state), stopped)
        verdict = "wins" if pay > 0 else "pushes" if pay == 0 else "loses"
        undeclared = " (Natural not declared: plays as 9)" if (
            wager.seat in undeclared_naturals) else ""
        part = (f"; in action for {_money(amount)} of {_money(Fraction(wager.amount))}, "
                f"{_money(returned[wager.label])} returned" if returned[wager.label] else "")
        reason = (f"{wager.label}: {_declared(declared)}{undeclared} v "
                  f"{_declared(dealer_declared)}, {how.replace('_', ' ')}: {verdict}{part}")
        settlements.append(Settlement(Wager(wager.label, amount), how, pay, amount * pay,
                                      reason))
    return TableHand(any_action, tuple(settlements), collections, dealer_fee, credits,
                     deciders, tuple(order), in_action, returned, rules.action)


def dice_order(seats: Sequence[int], dice_start: int | None) -> list[int]:
    """The seats in the order the dice set: from the first seat at or after ``dice_start``,
    clockwise (ascending seat numbers, wrapping round).

    >>> dice_order([1, 2, 4, 6], 3)
    [4, 6, 1, 2]
    """
    ordered = sorted(seats)
    if dice_start is None or not ordered:
        return ordered
    if isinstance(dice_start, bool) or not isinstance(dice_start, int) or dice_start < 1:
        raise SettlementError(f"dice start {shown(dice_start)}: a seat number from 1")
    first = next((i for i, seat in enumerate(ordered) if seat >= dice_start), 0)
    return ordered[first:] + ordered[:first]


def dice_total_order(seats: Sequence[int], total: int,
                     positions: Mapping[int, int] | None = None) -> list[int]:
    """The seats in the order of action when three dice make ``total``: each seat at its
    position (default seat + 1), from the position the dice land on, clockwise.

    >>> dice_total_order([1, 3, 6], 11)   # 11 lands on position 3: seat 2 (empty), then 3
    [3, 6, 1]
    """
    where = {seat: (positions or {}).get(seat, seat + 1) for seat in seats}
    for seat, position in where.items():
        if isinstance(position, bool) or not isinstance(position, int) or \
                not 2 <= position <= POSITIONS:
            raise SettlementError(f"seat {seat}: position {shown(position)}; players sit at "
                                  f"positions 2 to {POSITIONS} (the Player/Dealer's is 1)"
                                  + ("; seats past 7 need a position" if positions is None
                                     or seat not in positions else ""))
    taken: dict[int, int] = {}
    for seat, position in where.items():
        if position in taken:
            raise SettlementError(f"seats {taken[position]} and {seat} both at position "
                                  f"{position}")
        taken[position] = seat
    by_position = position_order(list(taken), dice_position(total))
    return [taken[p] for p in by_position]


def action_taken(reading: str, stake: Fraction, wagers: Sequence[CircleWager],
                 order: Sequence[int]) -> dict[str, Fraction]:
    """The amount of each wager in action under ``reading`` ("seat-by-seat" or
    "whole-hand") when the Player/Dealer wagered ``stake``.

    >>> wagers = [CircleWager(s, 1, 100) for s in (1, 2, 3)]
    >>> action_taken("seat-by-seat", Fraction(150), wagers, [2, 3, 1])
    {'seat 1 circle 1': Fraction(0, 1), 'seat 2 circle 1': Fraction(100, 1), \
'seat 3 circle 1': Fraction(50, 1)}
    """
    total = sum((Fraction(w.amount) for w in wagers), Fraction(0))
    if stake >= total:
        return {w.label: Fraction(w.amount) for w in wagers}
    if reading == "whole-hand":
        return {w.label: Fraction(0) for w in wagers}
    left = stake
    taken: dict[str, Fraction] = {}
    for seat in order:
        for wager in sorted((w for w in wagers if w.seat == seat), key=lambda w: w.circle):
            taken[wager.label] = min(Fraction(wager.amount), left)
            left -= taken[wager.label]
    return {w.label: taken[w.label] for w in wagers}


def _money(value: Fraction) -> str:
    return str(value) if value.denominator != 1 else f"{value.numerator:,}"


END_ = "end"


def _declared(declaration: tuple[bool, int, int]) -> str:
    natural, total, cards = declaration
    return "Natural" if natural else f"{cards}-card {total}"


def _check_draws(rules: Rules, classes: list[int], who: str, stopped: bool,
                 undeclared: bool = False) -> None:
    if len(classes) == 3 and classes[:2] == [JOKER_CLASS, JOKER_CLASS]:
        raise SettlementError(f"{who}: two jokers are a Natural (or, undeclared, a 9) and "
                              "stand: the hand cannot have drawn a third card")
    if len(classes) == 3 and classes.count(JOKER_CLASS) == 2 and not rules.natural_any_two_jokers:
        raise SettlementError(f"{who}: a three-card hand holding two jokers: the seed's Natural "
                              "is 'a hand containing two Jokers', the rules in force (a Natural "
                              "is two cards, a drawn joker a 9) would settle it as a 9; settle "
                              "it under rules with natural_any_two_jokers = true")
    if len(classes) == 3 and stopped:
        raise SettlementError(f"{who}: no one draws when the Player/Dealer's hand ends the deal")
    if stopped:
        return
    actions = (STAND,) if undeclared else hand_actions(rules, hand_state(classes[:2]))
    taken = DRAW if len(classes) == 3 else STAND
    if taken not in actions:
        raise SettlementError(f"{who}: must {actions[0]} on these two cards")


def _deciders(wagers: Sequence[CircleWager],
              in_action: Mapping[str, Fraction] | None = None) -> dict[int, int]:
    """Per seat, the circle whose wager decides how the hand is played: the largest wager in
    action (the largest wager if none of the seat's is), the seated player's circle 1 on
    equal wagers."""
    best: dict[int, CircleWager] = {}

    def weight(wager: CircleWager) -> tuple[Fraction, Fraction, int]:
        acting = Fraction(0) if in_action is None else in_action[wager.label]
        return (acting, Fraction(wager.amount), -wager.circle)

    for wager in wagers:
        current = best.get(wager.seat)
        if current is None or weight(wager) > weight(current):
            best[wager.seat] = wager
    return {seat: wager.circle for seat, wager in sorted(best.items())}


def house_way_draws(rules: Rules, classes: Sequence[int]) -> bool:
    """House Way for a player's two cards: draw on totals up to ``house_way_draw_max``; a hand
    holding a joker is played as a 9 and stands (the toolkit's House Way with the default
    joker values)."""
    return JOKER_CLASS not in classes[:2] and sum(classes[:2]) % 10 <= rules.house_way_draw_max


def _check_play(rules: Rules, seats: Mapping[int, list[int]], wagers: Sequence[CircleWager],
                deciders: Mapping[int, int], stopped: bool) -> None:
    """The play of every option hand: the deciding wager's choice (rule "largest wager in
    action"), and one checked hand per player (rule 6); the cards dealt must agree."""
    if stopped:
        return
    by_circle = {(w.seat, w.circle): w for w in wagers}
    checked: dict[str, list[int]] = {}
    spots: dict[str, int] = {}
    for seat, circle in deciders.items():
        spots[by_circle[seat, circle].owner] = spots.get(by_circle[seat, circle].owner, 0) + 1
    for seat, circle in sorted(deciders.items()):
        classes = seats[seat]
        if len(hand_actions(rules, hand_state(classes[:2]))) < 2:
            continue  # a forced hand: nothing to decide
        decider = by_circle[seat, circle]
        drew = len(classes) == 3
        if decider.choice is not None and (decider.choice == DRAW) != drew:
            raise SettlementError(
                f"seat {seat}: the largest wager in action ({decider.label}, "
                f"{_money(Fraction(decider.amount))}) chose to {decider.choice}, but the hand "
                f"{'drew' if drew else 'stood'}")
        if drew != house_way_draws(rules, classes):
            checked.setdefault(decider.owner, []).append(seat)
    for owner, checked_seats in checked.items():
        if spots[owner] > 1 and len(checked_seats) > 1:
            raise SettlementError(
                f"{owner} decides {spots[owner]} spots and may check one hand only (rule 6): "
                f"seats {', '.join(map(str, checked_seats))} all depart from House Way")


__all__ = (
    "DEFAULT_RULES",
    "CircleWager",
    "TableHand",
    "action_by_roll",
    "action_taken",
    "amounts_in_action",
    "dice_order",
    "dice_position",
    "dice_total_order",
    "expected_action",
    "first_position_distribution",
    "hand_state",
    "settle_table",
)
