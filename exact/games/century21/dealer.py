"""The verification simulator of 21st Century Baccarat heads-up, House Way against House Way:
hands dealt with numpy, many at once, each from a freshly shuffled shoe.

Layer: games, the top: the game's own analysis code, which may import every generic layer; it
imports only the core and the simulation's worker map, so it shares no code with the exact paths it
checks: not the game's rules object, its information sets or its strategies
(:mod:`exact.games.century21`), nor the card-by-card reference
(:mod:`exact.games.century21.reference`). The rules below are written again from the seed's rule
text (rules 8-16, "How to win") as the toolkit models it (``exact/data/century21/rules.toml``); the
options arrive as the plain values of :class:`HouseWayRules`. The tests check hand by hand that the
same six cards settle to the same pay as the reference's.

What a hand is. The exact House Way figure is the expectation of one hand dealt from the full
shoe, so each simulated hand is six cards drawn without replacement from a full shoe (the
hands are independent): the Player's two cards, the Player/Dealer's up and down cards, then
the cards drawn in turn, the Player's third card first. Six physical cards are drawn as six
uniform positions of the shoe, the draws that repeat a position drawn again: the accepted
draws are uniform over the ordered six-card deals, as from a shuffled shoe.

House Way as written: a hand without a joker draws on totals up to its House Way maximum
(``house_way_draw_max``, the Player/Dealer's ``dealer_house_way_draw_max``), within the
must-draw and must-stand limits; a hand holding a joker stands unless every total it can make
must draw; a Player/Dealer whose two cards can make a 9 with a joker ends the deal at the
check. At the showdown each side declares what its cards allow: the Player the declaration
whose worst result is best, the Player/Dealer the one worst for the Player. (The library
chooses joker hands' decisions by exact search; under the shipped rules the search keeps these
plain choices, which the report's House Way comparison relies on.)

How it runs fast. A hand's settlement depends only on the Player's two-card state (the sum of
its non-joker values mod 10 and its jokers), the Player/Dealer's (the same, and where its
jokers lie) and the classes of the next two cards. Every such state is settled once, in
plain Python, into a table of pay codes; a hand is then a few array operations and one look-up.

>>> rules = HouseWayRules()
>>> len(shoe_classes(rules)), len(rules_table(rules).pays)
(424, 3)
>>> sorted(rules_table(rules).pays)
[Fraction(-1, 1), Fraction(0, 1), Fraction(1, 1)]
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np

from exact.analysis.scale_out import map_in_order
from exact.analysis.simulation import check_settings
from exact.analysis.verification import Verdict
from exact.core.parsing import MAX_SIMULATED_ROUNDS
from exact.errors import SimulationError

JOKER = 10
"""The class of a joker; the other classes are the cards' point values 0-9."""
JOB_HANDS = 1 << 20
"""Hands of one job (one seeded generator, one batch of the standard error): large enough that
numpy's per-call cost vanishes, small enough for about a hundred batches in 10^8 hands."""


@dataclass(frozen=True)
class HouseWayRules:
    """The rule options the heads-up House Way hand depends on, as plain values (the names of
    ``exact/data/century21/rules.toml``; the defaults are that file's)."""

    decks: int = 8
    jokers: int = 8
    joker_values: tuple[int, ...] = tuple(range(10))
    drawn_joker_is_nine: bool = True
    natural_pays: Fraction = Fraction(1)
    win_pays: Fraction = Fraction(1)
    win_pays_by_total: tuple[tuple[int, Fraction], ...] = ()
    stop_on_dealer_joker_up: bool = True
    stop_on_dealer_nine: bool = True
    dealer_wins_ties_on_zero: bool = True
    three_card_nine_pushes_two_card_nine: bool = True
    must_draw_max: int = 4
    must_stand_min: int = 7
    house_way_draw_max: int = 5
    dealer_house_way_draw_max: int = 5

    def __post_init__(self) -> None:
        if self.decks < 0 or self.jokers < 0 or 52 * self.decks + self.jokers < 6:
            raise SimulationError(f"a shoe of {self.decks} decks and {self.jokers} jokers "
                                  "cannot deal a hand of six cards")
        if self.decks * 52 + self.jokers > 1 << 15:
            raise SimulationError("the verification dealer takes shoes of up to 32,768 cards")
        if not self.joker_values or not set(self.joker_values) <= set(range(10)):
            raise SimulationError("joker_values must be values 0-9")


Hand = tuple[bool, int, int]  # (a Natural?, total, cards)


def _declarations(cards: Sequence[int], rules: HouseWayRules) -> frozenset[Hand]:
    """What a hand may be declared as (rules 3 and 10: jokers wild; two jokers a Natural,
    which may also play as a 9; a joker drawn third a three-card 9 if the rules say so)."""
    if len(cards) == 3 and cards[2] == JOKER and rules.drawn_joker_is_nine:
        return frozenset({(False, 9, 3)})
    fixed = sum(c for c in cards if c != JOKER)
    jokers = sum(c == JOKER for c in cards)
    found = {(False, (fixed + sum(v)) % 10, len(cards))
             for v in product(rules.joker_values, repeat=jokers)}
    if len(cards) == 2 and jokers == 2:
        found.add((True, 9, 2))
    return frozenset(found)


def _pay(player: Hand, dealer: Hand, rules: HouseWayRules) -> Fraction:
    """The Player's pay per unit bet ("How to win", rules 11, 14 and 15)."""
    if player[0] or dealer[0]:
        return Fraction(0) if player[0] and dealer[0] else \
            Fraction(rules.natural_pays) if player[0] else Fraction(-1)
    mine, theirs = player[1], dealer[1]
    if mine == theirs == 9 and not rules.three_card_nine_pushes_two_card_nine \
            and player[2] != dealer[2]:
        mine, theirs = (1, 0) if player[2] == 2 else (0, 1)  # the two-card 9 wins
    if mine == theirs:
        return Fraction(-1) if mine == 0 and rules.dealer_wins_ties_on_zero else Fraction(0)
    if mine < theirs:
        return Fraction(-1)
    return Fraction(dict(rules.win_pays_by_total).get(player[1], rules.win_pays))


def _draws(options: frozenset[Hand], limit: int, rules: HouseWayRules, joker: bool) -> bool:
    """Rule 13 (must draw up to ``must_draw_max``, must stand from ``must_stand_min``), then
    rule 16, House Way, for the option hands; a joker hand stands unless it must draw."""
    totals = {total for _natural, total, _cards in options}
    if max(totals) <= rules.must_draw_max:
        return True
    if min(totals) >= rules.must_stand_min or joker:
        return False
    return min(totals) <= limit


def play(cards: Sequence[int], rules: HouseWayRules) -> Fraction:
    """The Player's pay of one House Way hand from ``cards`` (classes, six or more: Player's
    two, the Player/Dealer's up and down cards, then the cards to draw)."""
    player, dealer, rest = list(cards[:2]), list(cards[2:4]), iter(cards[4:])
    dealer_options = _declarations(dealer, rules)
    can_nine = any(natural or total == 9 for natural, total, _ in dealer_options)
    # rule 8: a joker up ends the deal; rule 9: a two-card 9 ends it (House Way: a joker that
    # can make one ends it at the check)
    stopped = (dealer[0] == JOKER and rules.stop_on_dealer_joker_up) or (
        can_nine and rules.stop_on_dealer_nine)
    if not stopped:
        if _draws(_declarations(player, rules), rules.house_way_draw_max, rules,
                  JOKER in player):
            player.append(next(rest))
        if _draws(dealer_options, rules.dealer_house_way_draw_max, rules, JOKER in dealer):
            dealer.append(next(rest))
    return _showdown(_declarations(player, rules), _declarations(dealer, rules), rules)


@cache
def _showdown(player: frozenset[Hand], dealer: frozenset[Hand], rules: HouseWayRules
              ) -> Fraction:
    return max(min(_pay(p, d, rules) for d in dealer) for p in player)


# --- the table of settled states ------------------------------------------------------------
PLAYER_STATES = 30  # sum of non-joker values mod 10, + 10 x jokers (0-2)
DEALER_STATES = 40  # the same, + 10 x (2 x up card a joker + down card a joker)


def _player_cards(state: int) -> list[int] | None:
    total, jokers = state % 10, state // 10
    return [[total, 0], [total, JOKER], [JOKER, JOKER] if total == 0 else None][jokers]


def _dealer_cards(state: int) -> list[int] | None:
    total, where = state % 10, state // 10
    return [[total, 0], [total, JOKER], [JOKER, total],
            [JOKER, JOKER] if total == 0 else None][where]


@dataclass(frozen=True)
class RulesTable:
    """``codes[state]`` the pay code of every hand state, ``pays[code]`` its pay."""

    codes: np.ndarray
    pays: tuple[Fraction, ...]


@cache
def rules_table(rules: HouseWayRules) -> RulesTable:
    """Every state settled once (about 145,000 states; a second or two, once per process)."""
    codes = np.zeros((PLAYER_STATES, DEALER_STATES, 11, 11), dtype=np.uint8)
    pays: dict[Fraction, int] = {}
    for p, d in product(range(PLAYER_STATES), range(DEALER_STATES)):
        player, dealer = _player_cards(p), _dealer_cards(d)
        if player is None or dealer is None:
            continue  # no hand reaches this state
        for third, fourth in product(range(11), repeat=2):
            pay = play(player + dealer + [third, fourth], rules)
            codes[p, d, third, fourth] = pays.setdefault(pay, len(pays))
    return RulesTable(codes.ravel(), tuple(sorted(pays, key=pays.__getitem__)))


def shoe_classes(rules: HouseWayRules) -> np.ndarray:
    """The class of every physical card of the shoe: 16 ten-value cards a deck, 4 of each
    other value, then the jokers."""
    per_deck = [0] * 16 + [v for v in range(1, 10) for _ in range(4)]
    return np.array(per_deck * rules.decks + [JOKER] * rules.jokers, dtype=np.uint8)


def draw(generator: np.random.Generator, size: int, hands: int) -> np.ndarray:
    """``hands`` x 6 positions of a ``size``-card shoe, distinct within each hand, uniform over
    the ordered six-card deals (rows repeating a position are drawn again)."""
    positions = generator.integers(0, size, (hands, 6), dtype=np.int16)
    while True:
        repeated = np.zeros(hands, dtype=bool)
        for a in range(6):
            for b in range(a + 1, 6):
                repeated |= positions[:, a] == positions[:, b]
        again = np.flatnonzero(repeated)
        if again.size == 0:
            return positions
        positions[again] = generator.integers(0, size, (again.size, 6), dtype=np.int16)


def settle(classes: np.ndarray, table: RulesTable) -> np.ndarray:
    """The pay codes of hands given as rows of six card classes."""
    c = classes.astype(np.int32)
    joker = (c == JOKER).astype(np.int32)  # counted: bools would add as "or"
    value = np.where(joker == 1, 0, c)
    player = (value[:, 0] + value[:, 1]) % 10 + 10 * (joker[:, 0] + joker[:, 1])
    dealer = (value[:, 2] + value[:, 3]) % 10 + 10 * (2 * joker[:, 2] + joker[:, 3])
    index = ((player * DEALER_STATES + dealer) * 11 + c[:, 4]) * 11 + c[:, 5]
    return np.asarray(table.codes[index])


def _job(rules: HouseWayRules, seed: int, job: int, hands: int) -> np.ndarray:
    """Job ``job``'s hands: the count of each pay code."""
    table = rules_table(rules)
    classes = shoe_classes(rules)
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        seed, spawn_key=(job,))))
    codes = settle(classes[draw(generator, classes.size, hands)], table)
    return np.bincount(codes, minlength=len(table.pays)).astype(np.int64)


@dataclass(frozen=True)
class HouseWaySimulation:
    """The counts of each pay, per job, of ``hands`` simulated hands."""

    rules: HouseWayRules
    seed: int
    pays: tuple[Fraction, ...]
    counts: np.ndarray  # jobs x pays
    seconds: float
    workers: int

    @property
    def hands(self) -> int:
        return int(self.counts.sum())

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    @property
    def player_edge(self) -> Fraction:
        """The Player's simulated expected pay per unit bet."""
        net = sum((int(n) * pay for n, pay in zip(self.counts.sum(axis=0), self.pays,
                                                  strict=True)), Fraction(0))
        return net / self.hands

    def batch_error(self) -> float:
        """The standard error of the Player's edge from the spread of the jobs (nan for one)."""
        per_job = self.counts.sum(axis=1).astype(np.float64)
        if per_job.size < 2:
            return math.nan
        net = self.counts.astype(np.float64) @ np.array([float(p) for p in self.pays])
        residual = net - float(self.player_edge) * per_job
        jobs = per_job.size
        return math.sqrt(jobs / (jobs - 1) * math.fsum(residual ** 2)) / self.hands


def simulate(rules: HouseWayRules, hands: int, seed: int = 0, *, workers: int = 1,
             scheduler: str | None = None) -> HouseWaySimulation:
    """Deal ``hands`` House Way hands from ``seed``: job ``j`` (``JOB_HANDS`` hands, the last
    the rest) drawn by ``SeedSequence(seed, spawn_key=(j,))``, so the result does not depend
    on ``workers`` or the cluster."""
    if not isinstance(hands, int) or isinstance(hands, bool) or \
            not 1 <= hands <= MAX_SIMULATED_ROUNDS:
        raise SimulationError(f"hands must be a whole number from 1 to "
                              f"{MAX_SIMULATED_ROUNDS:,}, got {hands!r}")
    check_settings(1, seed, workers, scheduler)
    table = rules_table(rules)
    jobs = -(-hands // JOB_HANDS)
    arguments: Iterator[tuple[object, ...]] = (
        (rules, seed, job, min(JOB_HANDS, hands - job * JOB_HANDS)) for job in range(jobs))
    started = time.perf_counter()
    counts = list(map_in_order(_job, arguments, workers, scheduler))
    return HouseWaySimulation(rules, seed, table.pays, np.stack(counts),
                              time.perf_counter() - started, workers)


def check(simulation: HouseWaySimulation, exact: Mapping[Fraction, Fraction]) -> Verdict:
    """The simulated House Way house edge against the exact one, given the exact probability
    of each pay to the Player (house edge: minus the Player's expected pay). The standard
    error is the larger of the exact SD of one hand over the square root of the hands (the
    hands are independent) and the jobs' spread; the top award is the highest pay."""
    mean = sum((pay * p for pay, p in exact.items()), Fraction(0))
    variance = sum((pay * pay * p for pay, p in exact.items()), Fraction(0)) - mean ** 2
    spread = simulation.batch_error()
    error = max(math.sqrt(float(variance) / simulation.hands),
                0.0 if math.isnan(spread) else spread)
    top = max(exact)
    dealt = dict(zip(simulation.pays, simulation.counts.sum(axis=0).tolist(), strict=True))
    return Verdict("house-way", "House Way", "house", -mean, -simulation.player_edge, error,
                   simulation.hands, int(dealt.get(top, 0)), float(exact[top]) * simulation.hands)
