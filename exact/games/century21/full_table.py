"""21st Century Baccarat at a full table: seats and the Player/Dealer dealt from one shoe,
exactly, under any strategies of both sides.

Layer: games, above the engines; the analyses and everything above read the games.

The game. ``seats`` hands and the Player/Dealer's are dealt from one shoe. Unless the
Player/Dealer's hand ends the deal (a joker up, a 9 or a Natural, or a joker hand it chooses to
end at the check), each seat decides from its own two cards and the up card
(:class:`~exact.games.century21.game.PlayerSet`, the heads-up information), then the
Player/Dealer decides from its own cards and *which seats drew* (:class:`TableSet`; third cards
face down). Each seat is settled against the Player/Dealer's final hand.

How it is computed exactly. Cards of one class are alike, so a deal is a sequence of classes
and its weight the number of ordered card sequences it stands for: a product of falling
factorials of the shoe's class counts. Seat ``i``'s result depends on the up and down cards,
its own cards, its own third card ``t`` and the Player/Dealer's ``X``, and, through the
Player/Dealer's choice, on the other seats' draws. By exchangeability the other seats' two
cards may be dealt before ``t`` and ``X`` (and ``X`` treated as dealt even when the
Player/Dealer stands: every deal then extends by the same number of sequences). For fixed up,
down and seat cards, the sum over ``(t, X)`` is a quadratic form in the counts left, which are
the counts after the seat cards less the other seats' cards ``e``; so the sum over the other
seats' hands needs only, per pattern of their draws, the zeroth, first and second moments of
``e``: the other seats are enumerated once per (up card, counts left), ``11**(2(N-1))`` class
sequences. That is exact for any shoe and fits the machine up to 3 seats (14,641 sequences per
step); 4 seats would need 1,771,561 per step, thousands of times (see
``docs/how-to/century21-table.md`` for what is exact beyond).

The counting unit: ordered sequences of ``2N + 4`` cards (the up and down cards, the seats' two
cards, then ``t`` and ``X``), ``S!/(S-2N-4)!`` of them for a shoe of ``S`` cards.

>>> from exact.core.cards import Shoe
>>> game = TableGame(DEFAULT_RULES, Shoe.standard(1, jokers=1), seats=1)
>>> seats, dealer = game.house_way()
>>> heads_up = game_table(DEFAULT_RULES, Shoe.standard(1, jokers=1))
>>> game.seat_values(seats, dealer)[0] == heads_up.value(*heads_up.house_way())
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, partial
from itertools import product
from math import lcm
from typing import Literal, NamedTuple

import numpy as np

from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.engines import cache
from exact.errors import ShoeError, StrategyError
from exact.games.century21.game import (
    CLASSES,
    CONTINUE,
    DRAW,
    END,
    STAND,
    CheckSet,
    DealerSet,
    Mode,
    PlayerSet,
    Strategy,
    checked_mode,
    class_counts,
    dealer_stops,
    game_table,
    hand_actions,
    player_tag,
    settle,
    two_card_state,
)
from exact.games.century21.rules import DEFAULT_RULES as DEFAULT_RULES  # (the doctests')
from exact.games.century21.rules import Rules

MAX_EXACT_SEATS = 3
"""The most seats computed exactly here (see the module docstring)."""
MAX_SEATS = 7
# The largest shoe :func:`two_seat_joint` counts exactly: a bin of one seat-2 hand sums at most
# S**3 sequences (t1, t2, X), exact in float64 below 2**53, and the hands' weights sum to at
# most S**2, so a bin's total stays within S**5 < 2**63 (int64); past it the joint's
# probabilities came out wrong, some negative (1,000 decks).
MAX_JOINT_CARDS = 6_208


class TableSet(NamedTuple):
    """The Player/Dealer's draw at a table: its two cards and which seats drew (seat order)."""

    kind: Literal["table-dealer"]
    up: int
    down: int
    drew: tuple[bool, ...]


Action = str  # draw, stand, or end (the deal ended at the check)
# (seat's first class, second class (a <= b), the other seats' draws as bits, the seat's
# action or None when the deal ended, the Player/Dealer's action)
ValueKey = tuple[int, int, int | None, str | None, Action]


@dataclass
class SeatTable:
    """For one seat, per (up, down): count-weighted pays (times ``scale``) of every
    (seat hand, other seats' draws, seat action, Player/Dealer action)."""

    seat: int
    values: dict[tuple[int, int], dict[ValueKey, int]]
    scale: int


@dataclass
class TableGame:
    """The full-table game of ``seats`` seats on ``shoe`` (see the module docstring)."""

    rules: Rules
    shoe: Shoe
    seats: int
    mode: Mode = "total"
    _tables: dict[object, SeatTable] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or \
                not 1 <= self.seats <= MAX_EXACT_SEATS:
            raise StrategyError(f"seats {self.seats!r}: the exact table game has 1 to "
                                f"{MAX_EXACT_SEATS} seats (more: see the table economics' "
                                "simulation)")
        self.mode = checked_mode(self.mode)
        if self.rules.third_cards_face_up and self.seats > 1:
            raise StrategyError("third_cards_face_up at a table of several seats is not "
                                "built: the Player/Dealer would see every third card")
        if self.shoe.size < self.cards:
            raise ShoeError(f"a shoe of {self.shoe.size} cards cannot deal {self.seats} seats "
                            f"(the counting unit needs {self.cards} cards)")
        self.counts = class_counts(self.shoe)

    @property
    def cards(self) -> int:
        return 2 * self.seats + 4

    @cached_property
    def total(self) -> int:
        """The counting unit's denominator: ordered sequences of ``2N + 4`` cards."""
        return falling(self.shoe.size, self.cards)

    @cached_property
    def heads_up(self):  # the heads-up table: House Way and the strategy sets
        return game_table(self.rules, self.shoe, self.mode)

    # strategies ----------------------------------------------------------------------------
    def house_way(self) -> tuple[list[Strategy], Strategy]:
        """House Way for every seat and the Player/Dealer, the heads-up House Way's (its joker
        hands searched): the Player/Dealer's choices then depend on its own cards only."""
        player, dealer = self.heads_up.house_way()
        return [player] * self.seats, self.lift_dealer(dealer)

    def lift_dealer(self, dealer: Strategy) -> Strategy:
        """A heads-up Player/Dealer strategy at this table (:func:`lift_dealer`)."""
        return lift_dealer(dealer, self.seats)

    def seat_draws(self, strategy: Strategy, a: int, b: int, up: int) -> Fraction:
        """P(the seat draws) on cards ``a, b`` against ``up`` under ``strategy``."""
        actions = hand_actions(self.rules, two_card_state(a, b))
        if len(actions) == 1:
            return Fraction(actions[0] == DRAW)
        infoset = PlayerSet("player", player_tag(self.rules, self.mode, a, b), up)
        if infoset not in strategy:
            return Fraction(0)  # a hand the shoe cannot deal
        return Fraction(strategy[infoset].get(DRAW, 0))

    def dealer_actions(self, dealer: Strategy, up: int, down: int,
                       drew: tuple[bool, ...]) -> dict[Action, Fraction]:
        """P(each action) of the Player/Dealer at (up, down) given which seats drew; ``end``:
        the deal ended at the check (then no seat drew)."""
        stops = dealer_stops(self.rules, up, down)
        if stops == (END,):
            return {END: Fraction(1)}
        ended = Fraction(0)
        if stops:
            ended = Fraction(dealer.get(CheckSet("check", up, down), {END: 1}).get(END, 0))
        found: dict[Action, Fraction] = {END: ended} if ended else {}
        actions = hand_actions(self.rules, two_card_state(up, down))
        if len(actions) == 1:
            found[actions[0]] = 1 - ended
            return found
        infoset = TableSet("table-dealer", up, down, drew)
        draw = Fraction(dealer.get(infoset, {DRAW: 0}).get(DRAW, 0))
        found[DRAW] = (1 - ended) * draw
        found[STAND] = (1 - ended) * (1 - draw)
        return {a: p for a, p in found.items() if p}

    # the exact tables --------------------------------------------------------------------------
    def seat_table(self, seat: int, others: Sequence[Strategy]) -> SeatTable:
        """Seat ``seat``'s values against every Player/Dealer action, the other seats playing
        ``others`` (pure strategies, in seat order without ``seat``)."""
        draws = [self._draw_matrix(s) for s in others]
        # the table depends on the seat only through the other seats' plays in seat order
        # (cards are exchangeable): seats playing alike share one
        key = tuple(d.tobytes() for d in draws)
        if key not in self._tables:  # seconds at 3 seats: kept on disk too, between runs
            self._tables[key] = cache.cached(
                self.table_key(draws), lambda: _Builder(self, seat, draws).run(),
                _encode_table, partial(_decode_table, seat, self.seats, pay_scale(self.rules)))
        found = self._tables[key]
        return found if found.seat == seat else SeatTable(seat, found.values, found.scale)

    def table_key(self, draws: Sequence[np.ndarray]) -> cache.Key:
        """The disk-cache key of the seat table against the other seats' ``draws``
        (:meth:`_draw_matrix`, in seat order): the game (:func:`cache_parts`), the number of
        seats and every draw of the others; not the seat (cards are exchangeable)."""
        return cache.cache_key("seat-table", [*cache_parts(self.rules, self.shoe, self.mode),
                                              ["seats", self.seats],
                                              ["others", [_bits(d) for d in draws]]])

    def _draw_matrix(self, strategy: Strategy) -> np.ndarray:
        """Per up card, the 11x11 0/1 matrix of the seat's draws on its two classes."""
        found = np.zeros((11, 11, 11), dtype=np.int64)
        for up, a, b in product(CLASSES, CLASSES, CLASSES):
            p = self.seat_draws(strategy, a, b, up)
            if p not in (0, 1):
                raise StrategyError("the other seats' strategies must be pure at a table of "
                                    "several seats (a mixed seat is computed heads-up only)")
            found[up, a, b] = int(p)
        return found

    def tables(self, seats: Sequence[Strategy]) -> list[SeatTable]:
        self._check_seats(seats)
        return [self.seat_table(i, [s for j, s in enumerate(seats) if j != i])
                for i in range(self.seats)]

    def _check_seats(self, seats: Sequence[Strategy]) -> None:
        if len(seats) != self.seats:
            raise StrategyError(f"{len(seats)} seat strategies for {self.seats} seats")

    def seat_values(self, seats: Sequence[Strategy], dealer: Strategy) -> list[Fraction]:
        """Each seat's exact expected pay per unit bet."""
        return [self._seat_value(table, seats[table.seat], dealer)
                for table in self.tables(seats)]

    def _seat_value(self, table: SeatTable, own: Strategy, dealer: Strategy) -> Fraction:
        total = Fraction(0)
        for (up, down), values in table.values.items():
            for (a, b, others, action, dealer_action), value in values.items():
                p = self._reach(own, table.seat, up, down, a, b, others, action,
                                dealer_action, dealer)
                if p:
                    total += p * value
        return total / (table.scale * self.total)

    def _reach(self, own: Strategy, seat: int, up: int, down: int, a: int, b: int,
               others: int | None, action: str | None, dealer_action: str,
               dealer: Strategy) -> Fraction:
        if others is None:  # the deal ended at the check
            return self.dealer_actions(dealer, up, down, ()).get(END, Fraction(0)) if \
                dealer_action == END else Fraction(0)
        draws = self.seat_draws(own, a, b, up)
        p = draws if action == DRAW else 1 - draws
        if not p:
            return p
        drew = _pattern(others, seat, action == DRAW, self.seats)
        return p * self.dealer_actions(dealer, up, down, drew).get(dealer_action, Fraction(0))

    def dealer_best_response(self, seats: Sequence[Strategy],
                             amounts: Sequence[Fraction] | None = None) -> Strategy:
        """The Player/Dealer's exact best response (pure) to the seats, each seat's wager in
        action ``amounts[i]`` (default 1 each): at every (up, down, which seats drew) the
        action with the higher expected result; at the check, end or go on by the value of
        the best play after it. Ties keep House Way."""
        weights = [Fraction(1)] * self.seats if amounts is None else list(map(Fraction, amounts))
        if len(weights) != self.seats:
            raise StrategyError(f"{len(weights)} amounts for {self.seats} seats")
        _, house = self.house_way()
        tables = self.tables(seats)
        # the Player/Dealer's gain (minus the seats' pays) per (up, down, drew, action)
        gain: dict[tuple[int, int], dict[tuple[tuple[bool, ...] | None, str], Fraction]] = {}
        for table in tables:
            own, weight = seats[table.seat], weights[table.seat]
            for (up, down), values in table.values.items():
                into = gain.setdefault((up, down), defaultdict(Fraction))
                for (a, b, others, action, dealer_action), value in values.items():
                    if others is None:
                        into[None, END] -= weight * value
                        continue
                    draws = self.seat_draws(own, a, b, up)
                    p = draws if action == DRAW else 1 - draws
                    if p:
                        drew = _pattern(others, table.seat, action == DRAW, self.seats)
                        into[drew, dealer_action] -= weight * p * value
        best: Strategy = {}
        for (up, down), into in gain.items():
            stops = dealer_stops(self.rules, up, down)
            if stops == (END,):
                continue
            actions = hand_actions(self.rules, two_card_state(up, down))
            going_on = Fraction(0)
            for drew in product((False, True), repeat=self.seats):
                worth = {a: into.get((drew, a), Fraction(0)) for a in actions}
                house_choice = max(house.get(TableSet("table-dealer", up, down, drew),
                                             {actions[0]: 1}).items(), key=lambda kv: kv[1])[0]
                choice = max(actions, key=lambda a: (worth[a], a == house_choice))
                going_on += worth[choice]
                if len(actions) > 1:
                    best[TableSet("table-dealer", up, down, drew)] = {
                        a: Fraction(a == choice) for a in actions}
            if stops:
                end = into.get((None, END), Fraction(0))
                # ended and not ended are told apart by the sums: at the check the ended
                # deal's value is the whole (up, down) mass of the END entries
                ends = end >= going_on
                best[CheckSet("check", up, down)] = {END: Fraction(ends),
                                                    CONTINUE: Fraction(not ends)}
        return best

    def seat_best_response(self, seat: int, seats: Sequence[Strategy],
                           dealer: Strategy) -> Strategy:
        """Seat ``seat``'s exact best response (pure) to the Player/Dealer's strategy, the
        other seats as ``seats`` give: one action per (own hand, up card); ties keep House
        Way."""
        self._check_seats(seats)
        table = self.seat_table(seat, [s for j, s in enumerate(seats) if j != seat])
        house = self.heads_up.house_way()[0]
        score: dict[PlayerSet, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for (up, down), values in table.values.items():
            for (a, b, others, action, dealer_action), value in values.items():
                if others is None or action is None:
                    continue
                actions = hand_actions(self.rules, two_card_state(a, b))
                if len(actions) == 1:
                    continue
                drew = _pattern(others, seat, action == DRAW, self.seats)
                p = self.dealer_actions(dealer, up, down, drew).get(dealer_action)
                if p:
                    infoset = PlayerSet("player", player_tag(self.rules, self.mode, a, b), up)
                    score[infoset][action] += p * value
        best: Strategy = {}
        for infoset, actions in self.heads_up.player_sets.items():
            worth = score.get(infoset, {})
            house_choice = max(house[infoset].items(), key=lambda kv: kv[1])[0]
            choice = max(actions, key=lambda a: (worth.get(a, Fraction(0)),
                                                 a == house_choice))
            best[infoset] = {a: Fraction(a == choice) for a in actions}
        return best


# The disk cache's entries of the table (seat-table here, seat-joint in table_joint): bump
# when what an entry holds changes meaning while its key's inputs stay the same.
TABLE_CACHE_LAYOUT = 1
_ACTIONS = (DRAW, STAND, END)  # an action's index in a seat-table entry's rows


def cache_parts(rules: Rules, shoe: Shoe, mode: Mode) -> list[object]:
    """What a table entry's key holds of the game: every rule, the information mode, the
    shoe's every count and the layout of the entries (:data:`TABLE_CACHE_LAYOUT`)."""
    return [["game", "century21"], ["layout", TABLE_CACHE_LAYOUT], ["mode", str(mode)],
            ["rules", rules.key_data()], ["shoe", [int(count) for count in shoe.counts]]]


def pay_scale(rules: Rules) -> int:
    """The common denominator of the pays: a seat table's values are its pays times it."""
    return lcm(*(p.denominator for p in (rules.natural_pays, rules.win_pays,
                                         *rules.win_pays_by_total.values())))


def _bits(draws: np.ndarray) -> str:
    """A seat's 0/1 draw matrix (up, first class, second class) as a key's text."""
    return "".join("1" if d else "0" for d in draws.ravel().tolist())


def _encode_table(table: SeatTable) -> tuple[cache.Fields, cache.Arrays]:
    """A seat table as its (up, down) pairs in order and one row per value: up, down, the
    seat's classes, the other seats' draws (-1: the deal ended), the seat's action and the
    Player/Dealer's (indices of :data:`_ACTIONS`, -1: none); the values, integers past int64,
    are JSON numbers (nothing of an entry is read as objects)."""
    rows, values = [], []
    for (up, down), entries in table.values.items():
        for (a, b, others, action, dealer_action), value in entries.items():
            rows.append((up, down, a, b, -1 if others is None else others,
                         -1 if action is None else _ACTIONS.index(action),
                         _ACTIONS.index(dealer_action)))
            values.append(value)
    return ({"scale": table.scale, "pairs": [list(pair) for pair in table.values],
             "values": values}, {"rows": np.array(rows, dtype=np.int64).reshape(-1, 7)})


def _decode_table(seat: int, seats: int, scale: int, fields: cache.Fields,
                  arrays: cache.Arrays) -> SeatTable:
    """The seat table of :func:`_encode_table`, checked: the scale the rules give, every index
    in range, one value per row and no key twice."""
    pairs, rows, values = fields["pairs"], arrays["rows"], fields["values"]
    if fields["scale"] != scale or type(fields["scale"]) is not int:
        raise cache.CorruptEntry("seat table of another scale")
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(type(c) is int and c in CLASSES
                                                        for c in p) for p in pairs):
        raise cache.CorruptEntry("seat table pairs malformed")
    if rows.dtype != np.int64 or rows.ndim != 2 or rows.shape[1] != 7 or \
            not isinstance(values, list) or len(values) != len(rows):
        raise cache.CorruptEntry("seat table rows malformed")
    low = np.array([0, 0, 0, 0, -1, -1, 0])
    high = np.array([10, 10, 10, 10, (1 << (seats - 1)) - 1, 2, 2])
    if len(rows) and ((rows < low).any() or (rows > high).any()
                      or (rows[:, 2] > rows[:, 3]).any()):
        raise cache.CorruptEntry("seat table rows out of range")
    found: dict[tuple[int, int], dict[ValueKey, int]] = {tuple(p): {} for p in pairs}
    if len(found) != len(pairs):
        raise cache.CorruptEntry("seat table pairs repeated")
    for (up, down, a, b, others, action, dealer_action), value in zip(
            rows.tolist(), values, strict=True):
        into = found.get((up, down))
        if into is None or type(value) is not int:
            raise cache.CorruptEntry("seat table row malformed")
        into[a, b, None if others < 0 else others, None if action < 0 else _ACTIONS[action],
             _ACTIONS[dealer_action]] = value
    if sum(map(len, found.values())) != len(rows):
        raise cache.CorruptEntry("seat table key repeated")
    return SeatTable(seat, found, scale)


def lift_dealer(dealer: Strategy, seats: int) -> Strategy:
    """A heads-up Player/Dealer strategy at a table of ``seats``. One that depends on whether
    the player drew is the table's only at one seat; with several seats it must not. A table
    strategy (keyed by :class:`TableSet`) is returned as it is."""
    lifted: Strategy = {}
    for infoset, probabilities in dealer.items():
        if isinstance(infoset, CheckSet | TableSet):
            lifted[infoset] = dict(probabilities)
    for up, down in product(CLASSES, CLASSES):
        sets = [h for h in dealer if isinstance(h, DealerSet) and h.up == up
                and h.down == down]
        if not sets:
            continue
        if seats > 1 and len({tuple(sorted(dealer[h].items())) for h in sets}) > 1:
            raise StrategyError("a heads-up Player/Dealer strategy that depends on whether "
                                "the player drew has no meaning at a table of several "
                                "seats; use the table's own best response")
        for drew in product((False, True), repeat=seats):
            source = next((h for h in sets if h.drew == drew[0]), sets[0])
            lifted[TableSet("table-dealer", up, down, drew)] = dict(dealer[source])
    return lifted


def _pattern(others: int, seat: int, drew: bool, seats: int) -> tuple[bool, ...]:
    """Which seats drew: the other seats' bits (in seat order without ``seat``) and its own."""
    bits = [bool(others >> j & 1) for j in range(seats - 1)]
    bits.insert(seat, drew)
    return tuple(bits)


class _Others:
    """The other seats' two-card class sequences, enumerated once per number of seats."""

    def __init__(self, others: int) -> None:
        k = 2 * others
        self.tuples = (np.array(list(product(range(11), repeat=k)), dtype=np.int64)
                       if k else np.zeros((1, 0), dtype=np.int64))
        earlier = np.zeros_like(self.tuples)
        for position in range(1, k):
            earlier[:, position] = (self.tuples[:, :position]
                                    == self.tuples[:, [position]]).sum(axis=1)
        self.earlier = earlier
        self.removed = np.zeros((len(self.tuples), 11), dtype=np.int64)
        for position in range(k):
            np.add.at(self.removed, (np.arange(len(self.tuples)), self.tuples[:, position]), 1)


class _Builder:
    """One seat's :class:`SeatTable` (see the module docstring for the moments)."""

    def __init__(self, game: TableGame, seat: int, draws: list[np.ndarray]) -> None:
        self.game, self.seat, self.draws = game, seat, draws
        self.rules = game.rules
        self.others = _Others(len(draws))
        self.left = game.shoe.size - 2 * game.seats - 2  # cards left before t and X
        self.moments: dict[tuple[int, tuple[int, ...]], dict[int, tuple[int, list[int],
                                                                         list[list[int]]]]] = {}
        self.pays: dict[tuple, Fraction] = {}
        self.grids: dict[tuple, tuple[int, list[int], list[int], list[list[int]]]] = {}
        self.scale = pay_scale(game.rules)

    def pay(self, seat: tuple, dealer: tuple, stopped: bool) -> Fraction:
        key = (seat, dealer, stopped)
        if key not in self.pays:
            self.pays[key] = settle(self.rules, seat, dealer, stopped)[0]
        return self.pays[key]

    def run(self) -> SeatTable:
        rules, r, scale = self.rules, list(self.game.counts), self.scale
        found: dict[tuple[int, int], dict[ValueKey, int]] = {}
        n = self.left
        for up, down in product(CLASSES, CLASSES):
            weight = r[up] * (r[down] - (up == down))
            if weight <= 0:
                continue
            r[up] -= 1
            r[down] -= 1
            dealer = two_card_state(up, down)
            stops = dealer_stops(rules, up, down)
            dealer_actions = hand_actions(rules, dealer)
            values: dict[ValueKey, int] = defaultdict(int)
            for a in CLASSES:
                for b in range(a, 11):
                    w = r[a] * (r[b] - (a == b)) * (1 if a == b else 2)
                    if w <= 0:
                        continue
                    r[a] -= 1
                    r[b] -= 1
                    seat = two_card_state(a, b)
                    moments = self.moment(up, tuple(r))
                    every = sum(m[0] for m in moments.values())
                    if END in stops:  # ended: no one draws; t and X fill n(n-1) ways
                        pay = self.pay(seat, dealer, True)
                        values[a, b, None, None, END] += int(
                            weight * w * every * n * (n - 1) * pay * scale)
                    if stops != (END,):
                        for others, (m0, m1, m2) in moments.items():
                            for action in hand_actions(rules, seat):
                                for dealer_action in dealer_actions:
                                    q = self.quadratic(seat, action, dealer, dealer_action,
                                                       r, m0, m1, m2)
                                    values[a, b, others, action, dealer_action] += \
                                        weight * w * q
                    r[a] += 1
                    r[b] += 1
            found[up, down] = dict(values)
            r[up] += 1
            r[down] += 1
        return SeatTable(self.seat, found, scale)

    def moment(self, up: int, left: tuple[int, ...]) -> dict[int, tuple[int, list[int],
                                                                        list[list[int]]]]:
        """Per pattern of the other seats' draws: the count of their class sequences, and the
        count-weighted first and second moments of the cards they take."""
        key = (up, left)
        if key in self.moments:
            return self.moments[key]
        o = self.others
        counts_left = np.array(left, dtype=np.int64)
        if o.tuples.shape[1]:
            factors = counts_left[o.tuples] - o.earlier
            weights = np.prod(np.maximum(factors, 0), axis=1)  # products below 424**4
        else:
            weights = np.ones(1, dtype=np.int64)
        pattern = np.zeros(len(weights), dtype=np.int64)
        for j, draws in enumerate(self.draws):
            pattern |= draws[up][o.tuples[:, 2 * j], o.tuples[:, 2 * j + 1]] << j
        found = {}
        for bits in range(1 << len(self.draws)):
            mask = (pattern == bits) & (weights > 0)
            if not mask.any():
                continue
            c, removed = weights[mask], o.removed[mask]
            # sums below 11**4 * 424**4 * 16 < 2**63
            found[bits] = (int(c.sum()), [int(v) for v in c @ removed],
                           [[int(v) for v in row] for row in (removed.T * c) @ removed])
        self.moments[key] = found
        return found

    def scaled(self, seat: tuple, dealer: tuple) -> tuple[int, list[int], list[int],
                                                         list[list[int]]]:
        """The seat's pays times ``scale`` as integers: standing v standing, by the seat's
        third card, by the Player/Dealer's third card, by both (t rows, X columns)."""
        key = (seat, dealer)
        found = self.grids.get(key)
        if found is None:
            s = self.scale

            def pay(p: tuple, d: tuple) -> int:
                return int(self.pay(p, d, False) * s)
            found = self.grids[key] = (
                pay(seat, dealer),
                [pay((seat[0], seat[1], c), dealer) for c in CLASSES],
                [pay(seat, (dealer[0], dealer[1], c)) for c in CLASSES],
                [[pay((seat[0], seat[1], t), (dealer[0], dealer[1], x)) for x in CLASSES]
                 for t in CLASSES])
        return found

    def quadratic(self, seat: tuple, action: str, dealer: tuple, dealer_action: str,
                  r: list[int], m0: int, m1: list[int], m2: list[list[int]]) -> int:
        """Sum over the other seats' sequences (weights and moments given) and the ordered
        (t, X) of the cards left, of the seat's pay times ``scale``."""
        n = self.left
        stand, by_t, by_x, both = self.scaled(seat, dealer)
        seat_draws, dealer_draws = action == DRAW, dealer_action == DRAW
        if not seat_draws and not dealer_draws:
            return stand * m0 * n * (n - 1)
        if seat_draws != dealer_draws:  # linear: sum_t f(t) r_t (n - 1)
            f = by_t if seat_draws else by_x
            return (n - 1) * sum(f[c] * (m0 * r[c] - m1[c]) for c in CLASSES if f[c])
        # sum_k c_k [ (r - e_k)^T G (r - e_k) - diag(G).(r - e_k) ]
        total = 0
        for t in CLASSES:
            row, rt, m1t, m2t = both[t], r[t], m1[t], m2[t]
            a, b = m0 * rt, m1t
            for x in CLASSES:
                pay = row[x]
                if pay:
                    total += pay * (a * r[x] - rt * m1[x] - b * r[x] + m2t[x])
            if row[t]:
                total -= row[t] * (m0 * rt - m1t)
        return total


def two_seat_joint(game: TableGame, seats: Sequence[Strategy],
                   dealer: Strategy) -> dict[tuple[Fraction, Fraction], Fraction]:
    """The exact joint distribution of the two seats' pays per unit bet at a table of two
    (the seats correlated through the one Player/Dealer hand and the shoe): P(seat 1 pays
    ``v1`` and seat 2 pays ``v2``). Seat 2 must play a pure strategy.

    Fixing the up, down and seat 1's cards, every seat-2 hand and every (t1, t2, X) of the
    cards left is weighed at once (arrays of 66 x 11**3); the counting unit is ordered
    sequences of 9 cards (the six dealt, then t1, t2 and X, always counted: a card not
    drawn only multiplies every deal alike)."""
    if game.seats != 2:
        raise StrategyError("two_seat_joint needs a table of two seats")
    if game.shoe.size > MAX_JOINT_CARDS:
        raise StrategyError(f"the exact joint of two seats takes shoes of at most "
                            f"{MAX_JOINT_CARDS:,} cards, not {game.shoe.size:,}")
    rules, r = game.rules, list(game.counts)
    draws2 = game._draw_matrix(seats[1])  # pure, or a StrategyError
    pays: dict[object, Fraction] = {}
    codes: dict[Fraction, int] = {}
    found: dict[tuple[int, int], Fraction] = defaultdict(Fraction)

    def code(value: Fraction) -> int:
        return codes.setdefault(value, len(codes))

    def pay(p: tuple, d: tuple, stopped: bool) -> int:
        key = (p, d, stopped)
        if key not in pays:
            pays[key] = settle(rules, p, d, stopped)[0]
        return code(pays[key])

    grids: dict[tuple, np.ndarray] = {}

    def grid_of(hand: tuple, action: str, dealer_hand: tuple, x: str) -> np.ndarray:
        """The pay code of each (third card, Player/Dealer's third card)."""
        key = (hand, action, dealer_hand, x)
        if key not in grids:
            stopped = x == END
            grids[key] = np.array([[pay(_final(hand, t, action, stopped),
                                        _final(dealer_hand, c, x, stopped), stopped)
                                    for c in CLASSES] for t in CLASSES], dtype=np.int64)
        return grids[key]

    pairs = [(a, b) for a in CLASSES for b in range(a, 11)]
    states = [two_card_state(a, b) for a, b in pairs]
    stacked: dict[tuple, np.ndarray] = {}

    def hands_grid(dealer_hand: tuple, drew: bool, x: str) -> np.ndarray:
        """:func:`grid_of` of every seat-2 hand ``k`` (those the shoe cannot deal too: they
        weigh nothing), plus ``k * size**2``, its bins' offset: stacked, so that a step is one
        array operation, not one per hand."""
        key = (dealer_hand, drew, x)
        if key not in stacked:
            stacked[key] = np.stack([grid_of(state, DRAW if drew else STAND, dealer_hand, x)
                                     + k * size ** 2 for k, state in enumerate(states)])
        return stacked[key]

    first = np.array([a for a, _ in pairs])
    second = np.array([b for _, b in pairs])
    eye = np.eye(11, dtype=np.int64)
    removed = eye[first] + eye[second]
    size = 16  # outcome codes per seat, at most (pays are few): checked below
    for up, down in product(CLASSES, CLASSES):
        w_ud = r[up] * (r[down] - (up == down))
        if w_ud <= 0:
            continue
        r[up] -= 1
        r[down] -= 1
        dealer_hand = two_card_state(up, down)
        for a1, b1 in pairs:
            w1 = r[a1] * (r[b1] - (a1 == b1)) * (1 if a1 == b1 else 2)
            if w1 <= 0:
                continue
            r[a1] -= 1
            r[b1] -= 1
            left = np.array(r, dtype=np.int64)
            w2 = left[first] * (left[second] - (first == second)) * np.where(
                first == second, 1, 2)
            live = w2 > 0
            seat1 = two_card_state(a1, b1)
            rest = left[None, :] - removed  # cards left after each seat-2 hand
            # count[k, t1, t2, X] = R_t1 (R_t2 - [t1=t2]) (R_X - [t1=X] - [t2=X]), in float64
            # (the bins' weights): exact, as a bin's sum is (MAX_JOINT_CARDS)
            count = (rest[:, :, None, None] * (rest[:, None, :, None] - eye[None, :, :, None])
                     * (rest[:, None, None, :] - eye[None, :, None, :]
                        - eye[None, None, :, :])).astype(np.float64)
            p1_draw = game.seat_draws(seats[0], a1, b1, up)
            for action1, p1 in ((DRAW, p1_draw), (STAND, 1 - p1_draw)):
                if not p1:
                    continue
                for drew2 in (False, True):
                    mask = live & (draws2[up][first, second] == int(drew2))
                    if not mask.any():
                        continue
                    for x, px in game.dealer_actions(
                            dealer, up, down, (action1 == DRAW, drew2)).items():
                        c1 = grid_of(seat1, action1, dealer_hand, x)
                        offsets = c1[None, :, None, :] * size + \
                            hands_grid(dealer_hand, drew2, x)[mask][:, None, :, :]
                        if len(codes) > size:
                            raise StrategyError("too many distinct pays for the joint table")
                        sums = np.bincount(offsets.ravel(), weights=count[mask].ravel(),
                                           minlength=len(pairs) * size ** 2)
                        # a bin of one seat-2 hand: at most S**3, exact in float64
                        by_hand = sums.reshape(len(pairs), size ** 2).astype(np.int64)
                        # times seat-2 weights (summing to at most S**2): below 2**63
                        totals = (by_hand * w2[:, None]).sum(axis=0)
                        weight = p1 * px * w_ud * w1
                        for joint in np.flatnonzero(totals).tolist():
                            found[divmod(joint, size)] += weight * int(totals[joint])
            r[a1] += 1
            r[b1] += 1
        r[up] += 1
        r[down] += 1
    values = {c: v for v, c in codes.items()}
    total = falling(game.shoe.size, 9)
    return {(values[i], values[j]): p / total for (i, j), p in sorted(found.items())}


def _final(hand: tuple, third: int, action: str, stopped: bool) -> tuple:
    """The hand's final state with ``third`` drawn when ``action`` draws."""
    return (hand[0], hand[1], third) if action == DRAW and not stopped else hand


def dealer_value(game: TableGame, seats: Sequence[Strategy], dealer: Strategy,
                 amounts: Sequence[Fraction] | None = None) -> Fraction:
    """The Player/Dealer's expected result before collections: minus the seats' pays times
    their amounts in action."""
    weights = [Fraction(1)] * game.seats if amounts is None else list(map(Fraction, amounts))
    return -sum((w * v for w, v in zip(weights, game.seat_values(seats, dealer), strict=True)),
                Fraction(0))


@dataclass(frozen=True)
class TableSolution:
    """Iterated best responses at the table, with the exact exploitability of each side."""

    seats: list[Strategy]
    dealer: Strategy
    seat_values: list[Fraction]
    rounds: int
    converged: bool
    dealer_gain: Fraction
    """What the Player/Dealer gains by its best response against ``seats`` (0: none)."""
    seat_gains: list[Fraction]
    """What each seat gains by its best response, the others and the Player/Dealer fixed."""


def iterated_best_responses(game: TableGame, amounts: Sequence[Fraction] | None = None,
                            rounds: int = 6) -> TableSolution:
    """From House Way, the Player/Dealer and then each seat in turn best respond until no
    one changes (an equilibrium in pure strategies) or ``rounds`` pass; the exploitability
    of each side is then computed exactly."""
    seats, dealer = game.house_way()
    converged = False
    done = 0
    while done < rounds:
        done += 1
        new_dealer = game.dealer_best_response(seats, amounts)
        new_seats = list(seats)
        for i in range(game.seats):
            new_seats[i] = game.seat_best_response(i, new_seats, new_dealer)
        if new_dealer == dealer and new_seats == seats:
            converged = True
            break
        seats, dealer = new_seats, new_dealer
    values = game.seat_values(seats, dealer)
    best_dealer = game.dealer_best_response(seats, amounts)
    dealer_gain = (dealer_value(game, seats, best_dealer, amounts)
                   - dealer_value(game, seats, dealer, amounts))
    gains = []
    for i in range(game.seats):
        deviated = list(seats)
        deviated[i] = game.seat_best_response(i, seats, dealer)
        gains.append(game.seat_values(deviated, dealer)[i] - values[i])
    return TableSolution(seats, dealer, values, done, converged, dealer_gain, gains)


__all__ = ("MAX_EXACT_SEATS", "TableGame", "TableSet", "TableSolution", "dealer_value",
           "iterated_best_responses", "lift_dealer", "two_seat_joint")
