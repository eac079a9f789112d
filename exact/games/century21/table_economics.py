"""21st Century Baccarat at a full table: the money of one hand and of a rotation of the bank,
for 1 to 7 seats with their own wagers, under the strategies of both sides.

Layer: games, the top: the full table's economics (its command line and report show them).

The table: the Player/Dealer at position 1, seat ``k`` at position ``k + 1`` (clockwise), each
seat with its wager; three dice set the order of action (:mod:`exact.games.century21.table`),
so when the Player/Dealer's wager does not cover the seats each seat's expected action follows
the dice count, not a uniform start. Rule 6: each player may check its own hand; a player who
bets several spots checks one of them, its other spots play House Way (``owners``).

Strategies (``strategy``, both sides named in :attr:`TableFigures.strategies`):

* ``house``: House Way everywhere;
* ``best``: each player's checked hand plays its best response to a House Way
  Player/Dealer, the player's other spots House Way;
* ``dealer-best``: House Way seats; the Player/Dealer's exact best response to the table,
  seeing its cards and which seats drew (and knowing the dice, so the wager in action);
* ``equilibrium``: one seat, the heads-up minimax strategies; 2 or 3 seats, iterated best
  responses of the Player/Dealer and each checking player, with each side's exact
  exploitability.

What is exact. Under a Player/Dealer whose play depends on its own cards only (``house``,
``best``) each seat's expected result is its heads-up value whatever the other seats (cards
are exchangeable): exact for 1 to 7 seats. A Player/Dealer that reacts to which seats drew
needs the full table game (:mod:`exact.games.century21.full_table`): exact to 3 seats; its
best response beyond (and with third cards face up at 2+ seats) is estimated from a seeded
sample (:mod:`exact.games.century21.table_sample`), the equilibrium there refused. The
distribution of the Player/Dealer's result per hand is exact for one seat (the
heads-up outcome counts), two (the seats' exact joint) and, under ``house`` and ``best``,
three (:mod:`exact.games.century21.table_joint`); for more seats it is estimated by a
seeded table simulation with its standard errors (:func:`simulate_table`), and under ``house``
and ``best`` its variance is exact (every pair of seats has the two-seat joint).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import sqrt
from typing import cast

from exact.core.cards import Shoe
from exact.core.parsing import parse_number, shown
from exact.errors import EconomicsError, EconomicsInputError
from exact.games.century21.full_table import (
    MAX_EXACT_SEATS,
    MAX_SEATS,
    TableGame,
    TableSolution,
    dealer_value,
    iterated_best_responses,
    lift_dealer,
    two_seat_joint,
)
from exact.games.century21.game import (
    CLASSES,
    DRAW,
    END,
    Mode,
    Strategy,
    class_counts,
    game_table,
    settle,
)
from exact.games.century21.rules import Rules
from exact.games.century21.solve import equilibrium
from exact.games.century21.table import (
    DICE,
    action_by_roll,
    amounts_in_action,
    first_position_distribution,
    hand_state,
)
from exact.games.century21.table_joint import seat_joint

TABLE_STRATEGIES = ("house", "best", "dealer-best", "equilibrium")


@dataclass(frozen=True)
class TableFigures:
    """One table's exact figures per hand (money), under the named strategies."""

    strategy: str
    strategies: dict[str, str]
    """In words: the seats' and the Player/Dealer's strategies."""
    wagers: tuple[Fraction, ...]
    owners: tuple[str, ...]
    checking: tuple[bool, ...]
    dealer_wager: Fraction | None
    fee: Fraction
    dealer_fee: Fraction
    reading: str
    seat_edges: tuple[Fraction, ...]
    """Each seat's expected pay per unit in action (for ``dealer-best`` on an uncovered table,
    averaged over the dice: the Player/Dealer's play depends on the wager in action)."""
    expected_action: tuple[Fraction, ...]
    in_action: tuple[Fraction, ...]
    """P(some of the seat's wager is in action): it then pays collection."""
    seat_gross: tuple[Fraction, ...]
    any_action: Fraction
    exact_to: int = MAX_EXACT_SEATS
    exploitability: dict[str, object] = field(default_factory=dict)
    distribution: Distribution | None = None
    estimate: Estimate | None = None
    """Set when the Player/Dealer's play is estimated (:mod:`~exact.games.century21.
    table_sample`): the seats' figures are then sample means with standard errors."""

    @property
    def seats(self) -> int:
        return len(self.wagers)

    @property
    def seat_collection(self) -> tuple[Fraction, ...]:
        return tuple(self.fee * p for p in self.in_action)

    @property
    def seat_net(self) -> tuple[Fraction, ...]:
        return tuple(g - c for g, c in zip(self.seat_gross, self.seat_collection, strict=True))

    @property
    def dealer_gross(self) -> Fraction:
        return -sum(self.seat_gross, Fraction(0))

    @property
    def dealer_collection(self) -> Fraction:
        return self.dealer_fee * self.any_action

    @property
    def dealer_net(self) -> Fraction:
        return self.dealer_gross - self.dealer_collection

    @property
    def house_collection(self) -> Fraction:
        return sum(self.seat_collection, Fraction(0)) + self.dealer_collection

    @property
    def rotation(self) -> Fraction:
        """A player's expected result over one rotation of the bank (seed, rule 2): at a table
        of these seats and the Player/Dealer, ``seats + 1`` hands, banking once and sitting
        at each seat once (its wager and play as the seat's)."""
        return self.dealer_net + sum(self.seat_net, Fraction(0))

    @property
    def dealer_break_even_wager(self) -> Fraction | None:
        """The wager per seat (every seat the same, all in action) at which banking covers the
        Player/Dealer's collection: None when its edge against these seats is not positive."""
        edge = -sum(self.seat_edges, Fraction(0))
        return self.dealer_fee / edge if edge > 0 else None

    @property
    def seat_break_even_wagers(self) -> tuple[Fraction | None, ...]:
        return tuple(self.fee / e if e > 0 else None for e in self.seat_edges)


@dataclass(frozen=True)
class Estimate:
    """How an estimated Player/Dealer best response was found, and the errors of the figures
    that depend on it (standard errors, bounded over the dice by the triangle inequality)."""

    method: str
    seat_edge_errors: tuple[float, ...]
    seat_gross_errors: tuple[float, ...]
    dealer_error: float
    interval: tuple[float, float]
    """Where the Player/Dealer's best-response gross per hand lies (about 95%)."""


@dataclass(frozen=True)
class Distribution:
    """The Player/Dealer's result per hand (collection included): its mean, variance and the
    probability of each net outcome; exact, or estimated with standard errors."""

    exact: bool
    mean: Fraction | float
    variance: Fraction | float
    outcomes: dict[Fraction, Fraction | float]
    hands: int = 0
    seed: int | None = None
    mean_error: float = 0.0
    """The estimate's standard error (0 when exact)."""
    exact_variance: Fraction | None = None
    """The exact variance beside an estimated distribution, where it is known."""


def _money(name: str, value: object) -> Fraction:
    return parse_number(value, "bet", name, EconomicsInputError)


def table_figures(rules: Rules, shoe: Shoe, wagers: Sequence[object],
                  strategy: str = "house", dealer_wager: object | None = None,
                  fee: object | None = None, owners: Sequence[str] | None = None,
                  reading: str | None = None, mode: Mode = "total",
                  simulate_hands: int = 0, seed: int = 1,
                  exact_pairs: bool = True) -> TableFigures:
    """The figures of one table (see the module docstring). ``wagers``: one per seat, seats
    1..N at positions 2..N+1. The distribution of the Player/Dealer's result is exact for one
    seat; with ``exact_pairs``, for two seats, and for three under a Player/Dealer deciding
    from its own cards (``house``, ``best``: :func:`~exact.games.century21.table_joint.
    seat_joint`); beyond, ``simulate_hands`` estimates it by a
    seeded table simulation, and with ``exact_pairs`` its variance is exact under a
    Player/Dealer deciding from its own cards (``house``, ``best``)."""
    if strategy not in TABLE_STRATEGIES:
        raise EconomicsError(f"unknown strategy {shown(strategy)}; known: "
                             f"{', '.join(TABLE_STRATEGIES)}")
    if not 1 <= len(wagers) <= MAX_SEATS:
        raise EconomicsError(f"{len(wagers)} seats: a table has 1 to {MAX_SEATS} seats")
    amounts = tuple(_money("seat wager", w) for w in wagers)
    tag = rules.table
    for amount in amounts:
        if not tag.min_bet <= amount <= tag.max_bet:
            raise EconomicsError(f"a seat wager of {amount} is outside the table limits "
                                 f"{tag.min_bet}-{tag.max_bet}")
    stake = None if dealer_wager is None else _money("dealer wager", dealer_wager)
    if stake is not None and stake < tag.min_bet:
        raise EconomicsError(f"the Player/Dealer's wager {stake} is below the table minimum "
                             f"{tag.min_bet}")
    charge = tag.fee if fee is None else _money("collection", fee)
    if charge < 0:
        raise EconomicsError(f"the collection cannot be negative, got {charge}")
    how = rules.action if reading is None else reading
    names = tuple(owners) if owners is not None else tuple(
        f"player {i + 1}" for i in range(len(amounts)))
    if len(names) != len(amounts):
        raise EconomicsError(f"{len(names)} owners for {len(amounts)} seats")
    # rule 6: a player checks one hand; with several spots, the first of them
    checking = tuple(names.index(name) == i for i, name in enumerate(names))
    seats = len(amounts)
    by_position = {i + 2: a for i, a in enumerate(amounts)}
    rolls = action_by_roll(by_position, stake, how, DICE)
    expected = tuple(sum((p * a[i + 2] for p, a in rolls), Fraction(0)) for i in range(seats))
    in_action = tuple(sum((p for p, a in rolls if a[i + 2]), Fraction(0)) for i in range(seats))
    any_action = sum((p for p, a in rolls if any(a.values())), Fraction(0))
    heads_up = game_table(rules, shoe, mode)
    house_player, house_dealer = heads_up.house_way()
    exploit: dict[str, object] = {}
    estimate: Estimate | None = None
    seat_plays: list[Strategy]
    if strategy in ("house", "best"):
        best = heads_up.player_best_response(house_dealer) if strategy == "best" else None
        seat_plays = [best if best is not None and c else house_player for c in checking]
        edges = tuple(heads_up.value(s, house_dealer) for s in seat_plays)
        gross = tuple(e * x for e, x in zip(edges, expected, strict=True))
        dealer_play, by_roll = house_dealer, None
        words = {"seats": "House Way" if strategy == "house" else
                 "each player's checked hand its exact best response to a House Way "
                 "Player/Dealer, other spots House Way (rule 6)",
                 "player_dealer": "House Way (its own cards only)"}
    elif _sampled(rules, strategy, seats):
        seat_plays = [house_player] * seats
        edges, gross, by_roll, estimate = _sampled_figures(
            rules, shoe, heads_up, seat_plays, house_dealer, rolls, expected, mode)
        dealer_play = by_roll[0]
        words = {"seats": "House Way",
                 "player_dealer": "its best response to the table, seeing its cards and "
                 "which seats drew" + (" and their third cards" if rules.third_cards_face_up
                                       else "") + ", ESTIMATED from a seeded sample "
                 "(the exact game stops at "
                 + (f"{MAX_EXACT_SEATS} seats)" if not rules.third_cards_face_up else
                    "1 seat with third cards face up)")}
    else:
        if strategy == "equilibrium" and (seats > MAX_EXACT_SEATS or
                                          (rules.third_cards_face_up and seats > 1)):
            raise EconomicsError(
                f"--strategy equilibrium at {seats} seats"
                + (" with third cards face up" if rules.third_cards_face_up else "")
                + ": iterated best responses need the seats' exact best responses to a "
                "Player/Dealer that sees the table, built to "
                f"{MAX_EXACT_SEATS} seats with third cards face down; use dealer-best "
                "(estimated there)")
        game = TableGame(rules, shoe, seats, mode)
        if strategy == "equilibrium" and seats == 1:
            found = equilibrium(heads_up)
            seat_plays, dealer_table = [found.player], game.lift_dealer(found.dealer)
            exploit = {"method": "heads-up sequence-form LP, checked exactly",
                       "player_dealer_gain": found.dealer_gain * expected[0],
                       "seat_gains": [found.player_gain]}
        elif strategy == "equilibrium":
            solution, dealer_gain = _iterated(game, rolls, expected)
            seat_plays, dealer_table = solution.seats, solution.dealer
            exploit = {"method": f"iterated best responses ({solution.rounds} rounds, "
                       + ("converged: an equilibrium in pure strategies)" if solution.converged
                          else "not converged)"),
                       "player_dealer_gain": dealer_gain,
                       "seat_gains": solution.seat_gains}
        else:
            seat_plays = [house_player] * seats
            dealer_table = None
        gross_sum = [Fraction(0)] * seats
        by_roll = []
        known: dict[tuple[Fraction, ...], tuple[Strategy, list[Fraction]]] = {}
        for p, amounts_in in rolls:
            weights = tuple(amounts_in[i + 2] for i in range(seats))
            if weights not in known:  # the Player/Dealer knows the dice: its wager in action
                play = dealer_table if dealer_table is not None else \
                    game.dealer_best_response(seat_plays, weights if any(weights) else None)
                known[weights] = (play, game.seat_values(seat_plays, play))
            play, values = known[weights]
            by_roll.append(play)
            for i in range(seats):
                gross_sum[i] += p * weights[i] * values[i]
        gross = tuple(gross_sum)
        edges = tuple(g / x if x else Fraction(0) for g, x in zip(gross, expected, strict=True))
        if not any(expected):
            edges = tuple(game.seat_values(seat_plays, by_roll[0]))
        dealer_play = by_roll[0]
        words = {"seats": "House Way" if strategy == "dealer-best" else
                 str(exploit["method"]) if seats > 1 else "heads-up minimax",
                 "player_dealer": "its exact best response to the table, seeing its cards and "
                 "which seats drew" if strategy == "dealer-best" else
                 ("heads-up minimax" if seats == 1 else
                  "iterated best response, seeing its cards and which seats drew")}
    dealer_fee = charge if rules.dealer_pays_collection else Fraction(0)
    figures = TableFigures(strategy, words, amounts, names, checking, stake, charge, dealer_fee,
                           how, edges, expected, in_action, gross, any_action,
                           exploitability=exploit, estimate=estimate)
    distribution = None
    if seats == 1:
        distribution = _heads_up_distribution(figures, heads_up, seat_plays[0], dealer_play,
                                              rolls)
    elif seats <= 3 and exact_pairs and strategy in ("house", "best"):
        joint = seat_joint(rules, shoe, seat_plays, house_dealer, mode)
        distribution = _joint_distribution(figures, joint, rolls)
    elif seats == 2 and exact_pairs and estimate is None:
        pair = TableGame(rules, shoe, 2, mode)
        plays = by_roll if by_roll is not None else [pair.lift_dealer(dealer_play)] * len(rolls)
        distribution = _two_seat_distribution(figures, pair, seat_plays, plays, rolls)
    elif simulate_hands and not (estimate is not None and rules.third_cards_face_up):
        # (the table simulation's Player/Dealer sees which seats drew, not their cards)
        distribution = simulate_table(rules, shoe, seat_plays, dealer_play, figures,
                                      simulate_hands, seed, mode, by_roll)
    if distribution is not None and not distribution.exact and exact_pairs and \
            strategy in ("house", "best"):
        distribution = replace(distribution, exact_variance=_pair_variance(
            figures, rules, shoe, heads_up, seat_plays, house_dealer, rolls, mode))
    return replace(figures, distribution=distribution)


def _iterated(game: TableGame, rolls: list[tuple[Fraction, dict[int, Fraction]]],
              expected: tuple[Fraction, ...]) -> tuple[TableSolution, Fraction]:
    """Iterated best responses at the table's own stakes, and the Player/Dealer's exact gain
    per hand, in money, by deviating from its strategy: on a covered table the seats weigh
    their wagers (the same on every roll); on an uncovered one the iteration weighs each seat
    by its expected action over the dice, while the gain is the dice's average of its gain on
    each roll's wagers in action (a Player/Dealer that knows the dice best responds to them)."""
    weights_by_roll = [tuple(a[i + 2] for i in range(game.seats)) for _p, a in rolls]
    distinct = set(weights_by_roll)
    amounts = next(iter(distinct)) if len(distinct) == 1 else expected
    solution = iterated_best_responses(game, list(amounts) if any(amounts) else None)
    if len(distinct) == 1:
        return solution, solution.dealer_gain if any(amounts) else Fraction(0)
    gains: dict[tuple[Fraction, ...], Fraction] = {}
    gain = Fraction(0)
    for (p, _amounts), weights in zip(rolls, weights_by_roll, strict=True):
        if not any(weights):
            continue
        if weights not in gains:
            best = game.dealer_best_response(solution.seats, weights)
            gains[weights] = (dealer_value(game, solution.seats, best, weights)
                              - dealer_value(game, solution.seats, solution.dealer, weights))
        gain += p * gains[weights]
    return solution, gain


def _sampled(rules: Rules, strategy: str, seats: int) -> bool:
    """Is the Player/Dealer's best response to this table estimated (the exact game does not
    serve it: more than 3 seats, or third cards face up at several seats)?"""
    return strategy == "dealer-best" and (seats > MAX_EXACT_SEATS or
                                          (rules.third_cards_face_up and seats > 1))


def _sampled_figures(rules: Rules, shoe: Shoe, heads_up, seats: list[Strategy],
                     house_dealer: Strategy, rolls, expected: tuple[Fraction, ...],
                     mode: Mode):
    """Seat edges and gross results, the Player/Dealer's play per roll and the estimate's
    errors, its best response per wager in action estimated from one seeded sample (the same
    seeds for every roll: the same cards, other weights)."""
    from exact.games.century21.table_sample import sampled_dealer_best
    n = len(seats)
    house_values = [heads_up.value(s, house_dealer) for s in seats]
    known: dict[tuple[Fraction, ...], object] = {}
    gross_sum = [Fraction(0)] * n
    gross_error = [0.0] * n
    dealer_error, low, high = 0.0, 0.0, 0.0
    by_roll: list[Strategy] = []
    found = None
    for p, amounts_in in rolls:
        weights = tuple(amounts_in[i + 2] for i in range(n))
        if weights not in known:
            found = sampled_dealer_best(rules, shoe, seats, house_dealer, house_values,
                                        weights if any(weights) else None, mode)
            play = found.strategy(house_dealer) if not found.face_up else house_dealer
            known[weights] = (found, play)
        found, play = cast(tuple, known[weights])
        by_roll.append(play)
        for i in range(n):
            gross_sum[i] += p * weights[i] * found.seat_values[i]
            gross_error[i] += float(p * weights[i]) * found.seat_errors[i]
        if any(weights):
            dealer_error += float(p) * found.dealer_error
            interval = found.interval
            low += float(p) * interval[0]
            high += float(p) * interval[1]
    assert found is not None
    gross = tuple(gross_sum)
    edges = tuple(g / x if x else found.seat_values[i]
                  for i, (g, x) in enumerate(zip(gross, expected, strict=True)))
    edge_errors = tuple(e / float(x) if x else found.seat_errors[i]
                        for i, (e, x) in enumerate(zip(gross_error, expected, strict=True)))
    method = found.method() if len(known) == 1 else (
        f"{found.method()} (for the last of {len(known)} wagers in action over the dice; "
        "each is estimated from the same seeded cards)")
    return edges, gross, by_roll, Estimate(method, edge_errors, tuple(gross_error),
                                           dealer_error, (low, high))


def _joint_distribution(figures: TableFigures, joint: dict[tuple[Fraction, ...], Fraction],
                        rolls) -> Distribution:
    """The Player/Dealer's net per hand from the seats' exact joint pays (a Player/Dealer
    deciding from its own cards: the same joint whatever the roll), roll by roll."""
    outcomes: Counter[Fraction] = Counter()
    for p_roll, amounts in rolls:
        stakes = [amounts[i + 2] for i in range(figures.seats)]
        fee = figures.dealer_fee if any(stakes) else Fraction(0)
        for pays, p in joint.items():
            outcomes[-sum((a * v for a, v in zip(stakes, pays, strict=True)), Fraction(0))
                     - fee] += p_roll * p
    mean = sum((v * p for v, p in outcomes.items()), Fraction(0))
    variance = sum((p * (v - mean) ** 2 for v, p in outcomes.items()), Fraction(0))
    return Distribution(True, mean, variance, dict(sorted(outcomes.items())))


def _two_seat_distribution(figures: TableFigures, game: TableGame, seats: list[Strategy],
                           plays: list[Strategy], rolls) -> Distribution:
    """Two seats: the Player/Dealer's net per hand from the exact joint of the seats' pays
    (:func:`~exact.games.century21.full_table.two_seat_joint`), roll by roll."""
    joints: dict[int, dict[tuple[Fraction, Fraction], Fraction]] = {}
    outcomes: Counter[Fraction] = Counter()
    for play, (p_roll, amounts) in zip(plays, rolls, strict=True):
        if id(play) not in joints:
            joints[id(play)] = two_seat_joint(game, seats, play)
        a1, a2 = amounts[2], amounts[3]
        fee = figures.dealer_fee if a1 or a2 else Fraction(0)
        for (v1, v2), p in joints[id(play)].items():
            outcomes[-a1 * v1 - a2 * v2 - fee] += p_roll * p
    mean = sum((v * p for v, p in outcomes.items()), Fraction(0))
    variance = sum((p * (v - mean) ** 2 for v, p in outcomes.items()), Fraction(0))
    return Distribution(True, mean, variance, dict(sorted(outcomes.items())))


def _pair_variance(figures: TableFigures, rules: Rules, shoe: Shoe, heads_up,
                   seats: list[Strategy], dealer: Strategy, rolls, mode: Mode) -> Fraction:
    """The exact variance of the Player/Dealer's net under a Player/Dealer that decides from
    its own cards only: every pair of seats has the two-seat joint of their strategies
    whatever the other seats hold (cards are exchangeable), so the second moment needs only
    the heads-up second moments and the two-seat product moments."""
    squares = []
    for play in seats:
        result = heads_up.evaluate(play, dealer)
        squares.append(sum((pay * pay * c for (_h, pay), c in result.counts.items()),
                           Fraction(0)) / result.total)
    products: dict[tuple[int, int], Fraction] = {}
    for i in range(len(seats)):
        for j in range(len(seats)):
            if i == j:
                continue
            key = (id(seats[i]), id(seats[j]))
            if key not in products:
                joint = seat_joint(rules, shoe, [seats[i], seats[j]], dealer, mode)
                products[key] = sum((p * v1 * v2 for (v1, v2), p in joint.items()),
                                    Fraction(0))
    second = Fraction(0)
    edges = figures.seat_edges
    for p_roll, amounts in rolls:
        a = [amounts[i + 2] for i in range(len(seats))]
        fee = figures.dealer_fee if any(a) else Fraction(0)
        moment = fee * fee + 2 * fee * sum((a[i] * edges[i] for i in range(len(a))),
                                           Fraction(0))
        for i in range(len(a)):
            for j in range(len(a)):
                moment += a[i] * a[j] * (squares[i] if i == j else
                                         products[id(seats[i]), id(seats[j])])
        second += p_roll * moment
    return second - figures.dealer_net ** 2


def _heads_up_distribution(figures: TableFigures, heads_up, player: Strategy,
                           dealer: Strategy, rolls) -> Distribution:
    """One seat: the Player/Dealer's net per hand from the heads-up outcome counts (its play
    lifted from the table is the heads-up one at one seat)."""
    from exact.games.century21.full_table import TableSet
    from exact.games.century21.game import DealerSet
    plain: Strategy = {}
    for infoset, probabilities in dealer.items():  # back to heads-up sets
        if isinstance(infoset, TableSet):
            plain[DealerSet("dealer", infoset.up, infoset.down, infoset.drew[0], None)] = \
                probabilities
        else:
            plain[infoset] = probabilities
    result = heads_up.evaluate(player, plain)
    outcomes: Counter[Fraction] = Counter()
    for p_roll, amounts in rolls:
        amount = amounts[2]
        fee = figures.dealer_fee if amount else Fraction(0)
        for (_how, pay), count in result.counts.items():
            outcomes[-amount * pay - fee] += p_roll * Fraction(count) / result.total
    mean = sum((v * p for v, p in outcomes.items()), Fraction(0))
    variance = sum((p * (v - mean) ** 2 for v, p in outcomes.items()), Fraction(0))
    return Distribution(True, mean, variance, dict(sorted(outcomes.items())))


def simulate_table(rules: Rules, shoe: Shoe, seats: Sequence[Strategy], dealer: Strategy,
                   figures: TableFigures, hands: int, seed: int, mode: Mode = "total",
                   by_roll: Sequence[Strategy] | None = None) -> Distribution:
    """A seeded simulation of the table: each hand from a freshly shuffled shoe, the dice
    rolled, every seat and the Player/Dealer playing its strategy (mixed choices drawn), the
    Player/Dealer's net recorded. Independent of the exact paths but for the settlement of two
    final hands (:func:`~exact.games.century21.game.settle`). ``by_roll``: the Player/Dealer's
    play for each landing of the dice, in the order of
    :func:`~exact.games.century21.table.action_by_roll` (a Player/Dealer that knows the dice
    best responds to the wager in action of each roll); None: ``dealer`` on every roll."""
    from exact.games.century21.full_table import TableGame as _Game
    if hands < 2:
        raise EconomicsError("a simulation needs at least 2 hands")
    rng = random.Random(seed)
    game = _Game(rules, shoe, 1, mode)  # its per-hand choice functions
    dealer = lift_dealer(dealer, len(seats))  # a heads-up strategy: by the table's sets
    landings = [landed for landed, p in first_position_distribution(DICE).items() if p]
    by_landing: dict[int, Strategy] = {}
    if by_roll is not None:
        if len(by_roll) != len(landings):
            raise EconomicsError(f"{len(by_roll)} Player/Dealer plays for {len(landings)} "
                                 "landings of the dice")
        lifted: dict[int, Strategy] = {}
        for landed, play in zip(landings, by_roll, strict=True):
            by_landing[landed] = lifted.setdefault(id(play), lift_dealer(play, len(seats)))
    cards = [c for c, n in zip(CLASSES, class_counts(shoe), strict=True) for _ in range(n)]
    n_seats = len(seats)
    outcomes: Counter[Fraction] = Counter()
    by_position = {i + 2: w for i, w in enumerate(figures.wagers)}
    for _ in range(hands):
        deal = rng.sample(cards, 3 * n_seats + 3)
        hands_ = [deal[2 * i:2 * i + 2] for i in range(n_seats)]
        up, down = deal[2 * n_seats], deal[2 * n_seats + 1]
        rest = iter(deal[2 * n_seats + 2:])
        total = sum(rng.randint(1, 6) for _ in range(DICE))
        landed = (total - 1) % 8 + 1
        in_action = amounts_in_action(by_position, figures.dealer_wager, figures.reading,
                                      landed)
        amounts = [in_action[p] for p in by_position]
        play = by_landing.get(landed, dealer)
        first = game.dealer_actions(play, up, down, (False,) * n_seats)
        stopped = _choose(rng, first) == END if END in first else False
        if not stopped:
            for i, hand in enumerate(hands_):
                if rng.random() < game.seat_draws(seats[i], hand[0], hand[1], up):
                    hand.append(next(rest))
            drew = tuple(len(h) == 3 for h in hands_)
            actions = {a: p for a, p in game.dealer_actions(play, up, down, drew).items()
                       if a != END}
            norm = sum(actions.values(), Fraction(0))
            pick = _choose(rng, {a: p / norm for a, p in actions.items()})
            dealer_hand = [up, down] + ([next(rest)] if pick == DRAW else [])
        else:
            dealer_hand = [up, down]
        d_state = hand_state(dealer_hand)
        net = Fraction(0)
        for i, hand in enumerate(hands_):
            if amounts[i]:
                net -= amounts[i] * settle(rules, hand_state(hand), d_state, stopped)[0]
        if any(amounts):
            net -= figures.dealer_fee
        outcomes[net] += 1
    mean = sum(v * c for v, c in outcomes.items()) / hands
    variance = sum(c * (float(v) - float(mean)) ** 2 for v, c in outcomes.items()) / (hands - 1)
    return Distribution(False, float(mean), variance,
                        {v: c / hands for v, c in sorted(outcomes.items())}, hands, seed,
                        sqrt(variance / hands))


def _choose(rng: random.Random, probabilities) -> str:
    x, running = Fraction(rng.random()), Fraction(0)
    items = sorted(probabilities.items())
    for action, p in items:
        running += p
        if x < running:
            return action
    return items[-1][0]


__all__ = ("TABLE_STRATEGIES", "Distribution", "Estimate", "TableFigures", "simulate_table",
           "table_figures")
