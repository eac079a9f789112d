"""An independent card-by-card reference for 21st Century Baccarat heads-up (tests and
reports).

Layer: games, the top: the game's own reference code, which may import every generic layer; it
imports only the core, so it shares no code with the fast paths it checks.

Written plainly from the rule text, sharing no code with exact.games.century21.game: every ordered
sequence of physical cards is dealt one card at a time, jokers are resolved by trying every
value, and decisions come from plain callables. Slow on purpose; use tiny shoes.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product

from exact.core.cards import JOKER

X = JOKER  # a joker; other cards are their point values 0-9


def options(cards, drawn_joker_is_nine=True, joker_values=range(10)):
    """Every (natural?, total, number of cards) the hand may be declared as."""
    return _options(tuple(cards), drawn_joker_is_nine, tuple(joker_values))


# A hand's options and a showdown are pure functions of a few cards, met again and again over
# the hundreds of thousands of arrangements of a table's shoe: each is worked out once.
@cache
def _options(cards, drawn_joker_is_nine, joker_values):
    if len(cards) == 3 and cards[2] == X and drawn_joker_is_nine:
        return [(False, 9, 3)]
    fixed = sum(c for c in cards if c != X)
    jokers = sum(1 for c in cards if c == X)
    found = set()
    for values in product(joker_values, repeat=jokers):
        found.add((False, (fixed + sum(values)) % 10, len(cards)))
    if len(cards) == 2 and jokers == 2:
        found.add((True, 9, 2))
    return tuple(sorted(found, reverse=True))


def pay_of(player, dealer, stopped, rules):
    """(pay to the player, how), written from the seed's rules 6, 11, 14 and 15."""
    if player[0] and dealer[0]:
        return Fraction(0), "natural_push"
    if player[0]:
        return Fraction(rules.get("natural_pays", 1)), "natural"
    if dealer[0]:
        return Fraction(-1), "dealer_natural"
    if player[1] > dealer[1]:
        return Fraction(rules.get("win_pays_by_total", {}).get(player[1], 1)), "higher_total"
    if player[1] < dealer[1]:
        return Fraction(-1), ("dealer_nine" if stopped and dealer[1] == 9 else "lower_total")
    if player[1] == 0 and rules.get("dealer_wins_ties_on_zero", True):
        return Fraction(-1), "ties_on_zero"
    return Fraction(0), "tie"


def showdown(player_cards, dealer_cards, stopped, rules):
    """(pay, how) of the player's best declaration against the dealer's worst for it."""
    frozen = tuple(sorted((name, isinstance(value, dict),
                           tuple(sorted(value.items())) if isinstance(value, dict) else value)
                          for name, value in rules.items()))
    return _showdown(tuple(player_cards), tuple(dealer_cards), stopped, frozen)


@lru_cache(maxsize=1 << 18)  # up to some 3.5 million pairs of hands a rule set: bounded
def _showdown(player_cards, dealer_cards, stopped, frozen):
    rules = {name: dict(value) if mapping else value for name, mapping, value in frozen}
    best = None
    for p in options(player_cards):
        worst = min((pay_of(p, d, stopped, rules) for d in options(dealer_cards)),
                    key=lambda r: r[0])
        if best is None or worst[0] > best[0]:
            best = worst
    return best


def choices(cards):
    """The actions the hand may take: a draw on 0-4, a stand on 7-9, either on 5-6, over
    every total it may be declared as."""
    return _choices(tuple(cards))


@cache
def _choices(cards):
    found = set()
    for _natural, total, _n in options(cards):
        found |= {"draw"} if total <= 4 else {"stand"} if total >= 7 else {"draw", "stand"}
    return frozenset(found)


def play(cards, player_rule, dealer_rule, check_rule, rules):
    """Play one round from ``cards`` (an iterator); returns ((pay, how), cards used)."""
    player = [next(cards), next(cards)]
    dealer = [next(cards), next(cards)]
    used = 4
    up = dealer[0]
    can_nine = any(n or t == 9 for n, t, _ in options(dealer))
    if up == X or (can_nine and (X not in dealer or check_rule(dealer) == "end")):
        return showdown(player, dealer, True, rules), used
    if len(choices(player)) == 1:
        player_draws = choices(player) == {"draw"}
    else:
        player_draws = player_rule(player, up) == "draw"
    if player_draws:
        player.append(next(cards))
        used += 1
    dealer_choice = choices(dealer)
    dealer_draws = (dealer_choice == {"draw"} if len(dealer_choice) == 1
                    else dealer_rule(dealer, player_draws) == "draw")
    if dealer_draws:
        dealer.append(next(cards))
        used += 1
    return showdown(player, dealer, False, rules), used


def house_player(cards, up):
    if X in cards:
        return "stand"
    return "draw" if sum(cards) % 10 <= 5 else "stand"


def house_dealer(cards, player_drew):
    if X in cards:
        return "stand"
    return "draw" if sum(cards) % 10 <= 5 else "stand"


def house_check(cards):
    return "end"


def brute_force(shoe_cards, player_rule=house_player, dealer_rule=house_dealer,
                check_rule=house_check, rules=None):
    """Counts of (how, pay) over every ordered 6-card sequence of the physical cards."""
    rules = rules or {}
    n = len(shoe_cards)
    out: Counter = Counter()

    def walk(prefix, remaining):
        # Deal card by card until the round is decided, then count the ways to fill the rest.
        try:
            (pay, how), used = play(iter(prefix), player_rule, dealer_rule, check_rule, rules)
        except StopIteration:
            for i in range(len(remaining)):
                walk(prefix + [remaining[i]], remaining[:i] + remaining[i + 1:])
            return
        if used < len(prefix):
            return  # counted by the shorter prefix
        rest = 1
        for k in range(6 - used):
            rest *= n - used - k
        out[how, pay] += rest

    walk([], list(shoe_cards))
    return out


def simulate(shoe_cards, rounds, seed, rules=None):
    """Seeded Monte Carlo: pays of ``rounds`` House Way rounds, each from a fresh shoe."""
    rng = random.Random(seed)
    pays = []
    for _ in range(rounds):
        cards = rng.sample(shoe_cards, 6)
        (pay, _how), _used = play(iter(cards), house_player, house_dealer, house_check,
                                  rules or {})
        pays.append(pay)
    return pays


def table_brute_force(shoe_cards, players):
    """The Player/Dealer's exact expected result per unit bet per seat against ``players``
    House Way seats, over every arrangement of the whole shoe. Equal cards are alike, so each
    distinct arrangement stands for the same number of orderings: a plain mean is exact."""
    results = table_seat_results(shoe_cards, [house_player] * players)
    return -Fraction(sum(map(sum, results)), len(results) * players)


def table_seat_results(shoe_cards, seat_rules):
    """Per arrangement of the whole shoe, each seat's pay per unit bet, the seats playing
    ``seat_rules[i]`` (callables like :func:`house_player`) against a House Way dealer. Equal
    cards are alike, so each distinct arrangement stands for the same number of orderings."""
    from sympy.utilities.iterables import multiset_permutations
    players = len(seat_rules)
    found = []
    for cards in multiset_permutations(list(shoe_cards)):
        hands = [[cards[2 * i], cards[2 * i + 1]] for i in range(players)]
        dealer = [cards[2 * players], cards[2 * players + 1]]
        rest = iter(cards[2 * players + 2:])
        up = dealer[0]
        stopped = up == X or any(n or t == 9 for n, t, _ in options(dealer))
        if not stopped:
            for hand, rule in zip(hands, seat_rules, strict=True):
                choice = choices(hand)
                if choice == {"draw"} if len(choice) == 1 else rule(hand, up) == "draw":
                    hand.append(next(rest))
            choice = choices(dealer)
            if choice == {"draw"} if len(choice) == 1 else house_dealer(dealer, None) == "draw":
                dealer.append(next(rest))
        found.append([showdown(hand, dealer, stopped, {})[0] for hand in hands])
    return found


def table_dealer_gross(results, covered=None):
    """The Player/Dealer's exact expected result, in units of one seat's wager, from
    :func:`table_seat_results` (each seat betting 1). ``covered``: its wager in units (None: it
    covers every seat); it takes action seat by seat in dice order, the dice starting equally
    likely at every seat, so every starting seat is averaged over."""
    players = len(results[0])
    starts = range(players) if covered is not None else [0]
    total = Fraction(0)
    for seats in results:
        for start in starts:
            left = Fraction(players if covered is None else covered)
            for offset in range(players):
                stake = min(Fraction(1), left)
                left -= stake
                total -= stake * seats[(start + offset) % players]
    return total / (len(results) * len(starts))


def table_dealer_best_value(counts, seats, seat_rule=house_player, face_up=False):
    """The Player/Dealer's exact expected result (per unit bet of each seat, summed over the
    seats) when it best responds to ``seats`` seats all playing ``seat_rule``, seeing its own
    cards and which seats drew; and its result on House Way. ``counts``: card (0-9 or X) ->
    number in the shoe. Every deal is walked card by card in the seed's order (each seat two
    cards, the Player/Dealer's up and down cards, the seats' draws in seat order, then the
    Player/Dealer's), every Player/Dealer choice tried, and the best one kept per what it
    sees: its two cards and which seats drew (and at a joker hand's check, end or go on);
    ``face_up``: and the card each drawing seat drew."""
    from collections import defaultdict

    gains = defaultdict(Fraction)   # (up, down, drew, action) -> the dealer's gain
    ended = defaultdict(Fraction)   # (up, down) -> its gain when it ends at the check
    house = [Fraction(0)]

    def draws(shoe, probability):
        left = sum(shoe.values())
        for card, number in shoe.items():
            if number:
                shoe[card] -= 1
                yield card, probability * Fraction(number, left)
                shoe[card] += 1

    def deal(shoe, hands, probability, wanted):
        if wanted == 0:
            yield hands, probability
            return
        for card, p in draws(shoe, probability):
            yield from deal(shoe, hands + [card], p, wanted - 1)

    def seat_thirds(shoe, hands, probability, seat):
        if seat == len(hands):
            yield hands, probability
            return
        hand = hands[seat]
        choice = choices(hand)
        drawing = choice == {"draw"} if len(choice) == 1 else seat_rule(hand, None) == "draw"
        if not drawing:
            yield from seat_thirds(shoe, hands, probability, seat + 1)
            return
        for card, p in draws(shoe, probability):
            yield from seat_thirds(shoe, hands[:seat] + [hand + [card]] + hands[seat + 1:],
                                   p, seat + 1)

    def result(hands, dealer, stopped):
        return -sum(showdown(hand, dealer, stopped, {})[0] for hand in hands)

    shoe = dict(counts)
    # (a generator of draws holds its cards out of the shoe while it yields)
    for cards, p in deal(shoe, [], Fraction(1), 2 * seats + 2):
        hands = [cards[2 * i:2 * i + 2] for i in range(seats)]
        dealer = cards[2 * seats:]
        up = dealer[0]
        can_nine = any(n or t == 9 for n, t, _ in options(dealer))
        if up == X or (can_nine and X not in dealer):
            gains[up, dealer[1], None, "end"] += p * result(hands, dealer, True)
            house[0] += p * result(hands, dealer, True)
        else:
            if can_nine:  # a joker hand that may make 9: end, or go on
                ended[up, dealer[1]] += p * result(hands, dealer, True)
                house[0] += p * result(hands, dealer, True)
            for drawn, q in seat_thirds(shoe, hands, p, 0):
                drew = tuple((hand[2] if face_up else True) if len(hand) == 3 else None
                             for hand in drawn)
                choice = choices(dealer)
                for action in sorted(choice):
                    key = (up, dealer[1], drew, action)
                    if action == "stand":
                        value = q * result(drawn, dealer, False)
                        gains[key] += value
                        if not can_nine and (len(choice) == 1 or
                                             house_dealer(dealer, None) == "stand"):
                            house[0] += value
                    else:
                        for card, r in draws(shoe, q):
                            value = r * result(drawn, dealer + [card], False)
                            gains[key] += value
                            if not can_nine and (len(choice) == 1 or
                                                 house_dealer(dealer, None) == "draw"):
                                house[0] += value
    best = defaultdict(dict)
    for (up, down, drew, action), value in gains.items():
        best[up, down].setdefault(drew, {})[action] = value
    total = Fraction(0)
    for (up, down), by_drew in best.items():
        going_on = sum((max(values.values()) for values in by_drew.values()), Fraction(0))
        total += max(going_on, ended[up, down]) if (up, down) in ended else going_on
    for key, value in ended.items():
        if key not in best:
            total += value
    return total, house[0]
