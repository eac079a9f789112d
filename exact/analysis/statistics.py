"""Exact statistics of a bet from the counts of its events.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Everything here is a :class:`fractions.Fraction` except the standard deviation, which is
irrational in general: it is given exactly, in sympy's notation (``2*sqrt(186)/415``) but
without importing sympy (a quarter of a second of a fresh process), and as a float for display.

>>> table = BetTable.from_counts("coin", "Coin", "even", [("Heads", Fraction(1), 1),
...                              ("Tails", Fraction(-1), 1)], total=2)
>>> table.house_edge, table.variance, table.standard_deviation
(Fraction(0, 1), Fraction(1, 1), 1.0)
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from exact.analysis.frames import frame, html_table


@dataclass(frozen=True)
class Outcome:
    """One row of a return table."""

    event: str
    pays: Fraction
    combinations: int | Fraction  # a Fraction: expected combinations under a mixed strategy
    probability: Fraction

    @property
    def expected_return(self) -> Fraction:
        return self.pays * self.probability


@dataclass(frozen=True)
class BetTable:
    """The return table of one bet under one paytable, with its statistics."""

    bet_id: str
    name: str
    paytable: str
    outcomes: tuple[Outcome, ...]
    total: int

    @classmethod
    def from_counts(cls, bet_id: str, name: str, paytable: str,
                    rows: Sequence[tuple[str, Fraction, int | Fraction]], total: int) -> BetTable:
        summed = sum(count for _, _, count in rows)
        if summed != total:
            raise AssertionError(f"{bet_id}: event counts sum to {summed}, not {total}")
        return cls(bet_id, name, paytable,
                   tuple(Outcome(event, pays, count, Fraction(count, total))
                         for event, pays, count in rows), total)

    @cached_property
    def expected_value(self) -> Fraction:
        """Expected net result per unit wagered (the player's)."""
        return sum((o.expected_return for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_value

    @property
    def return_to_player(self) -> Fraction:
        return 1 + self.expected_value

    def _frequency(self, test) -> Fraction:
        return sum((o.probability for o in self.outcomes if test(o.pays)), Fraction(0))

    @property
    def hit_frequency(self) -> Fraction:
        return self._frequency(lambda pays: pays > 0)

    @property
    def push_frequency(self) -> Fraction:
        return self._frequency(lambda pays: pays == 0)

    @property
    def loss_frequency(self) -> Fraction:
        return self._frequency(lambda pays: pays < 0)

    @property
    def house_edge_per_resolved_bet(self) -> Fraction | None:
        """House edge counting only rounds that settle the bet (pushes excluded)."""
        resolved = 1 - self.push_frequency
        return self.house_edge / resolved if resolved else None

    @cached_property
    def variance(self) -> Fraction:
        second = sum((o.pays * o.pays * o.probability for o in self.outcomes), Fraction(0))
        return second - self.expected_value**2

    @property
    def standard_deviation(self) -> float:
        return math.sqrt(self.variance)

    @property
    def standard_deviation_exact(self) -> str:
        """The standard deviation exactly, as sympy writes it, e.g. ``sqrt(7)/3``."""
        return square_root_text(self.variance)

    def to_frame(self):
        """A pandas DataFrame, one row per event: exact values and floats (needs pandas)."""
        return frame(table_rows(self))

    def _repr_html_(self) -> str:
        return table_html(self)

    @property
    def one_round(self) -> OneRound:
        """The exact distribution of one round's result (for :func:`rounds_interval`)."""
        return OneRound.of((o.pays, o.probability) for o in self.outcomes)

    def top_award(self) -> Outcome | None:
        paying = [o for o in self.outcomes if o.pays > 0 and o.combinations]
        return max(paying, key=lambda o: o.pays) if paying else None


# --- statistics of repeated play (reports, notebooks) ----------------------------------------
# These use the normal approximation (central limit theorem) and so return floats: the exact
# inputs (mean, variance, probabilities) stay Fractions up to this last step.

# Trial division bound of sympy's square roots of integers (Integer._eval_power): the square
# factors it takes out of a radicand are those of its primes below this, and those of a
# remaining cofactor that is a perfect power.
_TRIAL_BOUND = 2**15


def square_root_text(value: Fraction) -> str:
    """The exact square root of a non-negative fraction, written as ``str(sympy.sqrt(value))``
    writes it (tests/analysis/test_statistics.py compares the two), without sympy: sympy takes
    sqrt(p/q) as sqrt(p)*sqrt(q)/q, takes squares out of each radicand, multiplies the two
    radicands left and takes squares out of the product.

    >>> [square_root_text(Fraction(*pair)) for pair in ((7, 9), (8, 3), (4, 9), (12, 1))]
    ['sqrt(7)/3', '2*sqrt(6)/3', '2/3', '2*sqrt(3)']

    sympy may also find a square of a prime above 2**15 in a cofactor with other such primes
    (by Pollard's methods); this does not (one number in some 300,000 has such a square): the
    text is then another exact form of the same number.
    """
    if value < 0:
        raise ValueError(f"no real square root of {value}")
    if value == 0:
        return "0"
    root_p, left_p = _square_part(value.numerator)
    root_q, left_q = _square_part(value.denominator)
    root, radicand = _square_part(left_p * left_q)
    coefficient = Fraction(root_p * root_q * root, value.denominator)
    if radicand == 1:
        return str(coefficient)
    text = f"sqrt({radicand})"
    if coefficient.numerator != 1:
        text = f"{coefficient.numerator}*{text}"
    return text if coefficient.denominator == 1 else f"{text}/{coefficient.denominator}"


def _square_part(number: int) -> tuple[int, int]:
    """(root, rest) with number == root**2 * rest: the squares of the primes below
    ``_TRIAL_BOUND``, then those of a cofactor that is a perfect power, taken out."""
    root, rest, left = 1, 1, number
    small = math.gcd(number, _primorial())  # the primes below the bound that divide it
    for prime in _small_primes():
        if small == 1:
            break
        if small % prime:
            continue
        small //= prime
        exponent = 0
        while left % prime == 0:
            left //= prime
            exponent += 1
        root *= prime ** (exponent // 2)
        rest *= prime ** (exponent % 2)
    if left > 1:  # a prime, or a product of primes above the bound
        base, power = _perfect_power(left)
        root *= base ** (power // 2)
        rest *= base ** (power % 2)
    return root, rest


@functools.cache
def _small_primes() -> tuple[int, ...]:
    sieve = bytearray([1]) * _TRIAL_BOUND
    sieve[:2] = b"\0\0"
    for number in range(2, math.isqrt(_TRIAL_BOUND) + 1):
        if sieve[number]:
            sieve[number * number::number] = bytes(len(range(number * number, _TRIAL_BOUND,
                                                             number)))
    return tuple(number for number, prime in enumerate(sieve) if prime)


@functools.cache
def _primorial() -> int:
    return math.prod(_small_primes())


def _perfect_power(number: int) -> tuple[int, int]:
    """(base, k) with number == base**k and k as large as it can be, for a number > 1 without
    a prime factor below ``_TRIAL_BOUND`` (so k * 15 < its bit length)."""
    for power in range(number.bit_length() // (_TRIAL_BOUND.bit_length() - 1), 1, -1):
        base = _integer_root(number, power)
        if base > 1 and base**power == number:
            return base, power
    return number, 1


def _integer_root(number: int, power: int) -> int:
    """The integer part of the power-th root of a positive number (Newton's method)."""
    guess = 1 << -(-number.bit_length() // power)  # at least the root
    while True:
        better = ((power - 1) * guess + number // guess ** (power - 1)) // power
        if better >= guess:
            return guess
        guess = better


def normal_quantile(level: Fraction | float) -> float:
    """The two-sided standard normal quantile ``z`` with ``P(|Z| <= z) = level``.

    >>> round(normal_quantile(Fraction(9, 10)), 4), round(normal_quantile(0.95), 4)
    (1.6449, 1.96)
    """
    from statistics import NormalDist

    if not 0 < level < 1:
        raise ValueError(f"confidence level must be strictly between 0 and 1, got {level}")
    return NormalDist().inv_cdf((1 + float(level)) / 2)


def volatility_index(variance: Fraction, level: Fraction | float = Fraction(9, 10)) -> float:
    """Volatility index: the two-sided ``level`` normal quantile times the standard deviation.

    After ``n`` rounds the player's net result lies within ``n*mean +- VI*sqrt(n)`` units
    with probability about ``level``.

    >>> round(volatility_index(Fraction(1)), 4), round(volatility_index(Fraction(4), 0.95), 4)
    (1.6449, 3.9199)
    """
    return normal_quantile(level) * math.sqrt(variance)


def result_interval(mean: Fraction, variance: Fraction, rounds: int,
                    level: Fraction | float) -> tuple[float, float]:
    """Interval holding the player's average net result per unit wagered after ``rounds``
    independent rounds with probability about ``level`` (normal approximation).

    >>> low, high = result_interval(Fraction(-1, 100), Fraction(1), 10_000, 0.95)
    >>> round(low, 4), round(high, 4)
    (-0.0296, 0.0096)
    """
    if rounds < 1:
        raise ValueError(f"rounds must be a positive integer, got {rounds}")
    half = normal_quantile(level) * math.sqrt(variance / rounds)
    return float(mean) - half, float(mean) + half


# --- the player's total result after n rounds, honestly bounded ---------------------------------
# An interval for the average result after n rounds must never leave what can happen (no
# player loses more than every stake) and must say how it was found. Three methods, in order:
#
# * ``exact``: the exact distribution of the total (the one-round distribution convolved with
#   itself n times, over integers), where that is affordable (EXACT_BIT_BUDGET); its
#   quantiles hold the result with probability at least the level, exactly.
# * ``normal``: the normal approximation, only where the n-round average is nearly symmetric
#   (|skewness| / sqrt(n) <= NORMAL_SKEWNESS_LIMIT: the first Cornish-Fisher correction to a
#   quantile is then at most about that many standard errors), clipped to the possible range.
# * ``chernoff``: otherwise Chernoff's bound from the exact one-round distribution: each side
#   holds with probability at least 1 - (1 - level)/2 whatever the skewness, and the bound
#   lies inside [min pay, max pay] by construction (clipped against rounding).
EXACT_BIT_BUDGET = 1 << 22  # bits of the packed n-round polynomial (about 0.5 MB, < 1 s)
NORMAL_SKEWNESS_LIMIT = Fraction(2, 100)
METHODS = {
    "exact": "exact distribution of the n-round total (integer convolution)",
    "normal": "normal approximation, skewness criterion met, clipped to the possible range",
    "chernoff": "Chernoff bound from the exact one-round distribution (coverage at least "
                "the level)",
}


@dataclass(frozen=True)
class OneRound:
    """The exact distribution of one round's net result per unit wagered: distinct pays
    (ascending) and their probabilities (positive, summing to 1)."""

    pays: tuple[Fraction, ...]
    probabilities: tuple[Fraction, ...]

    @classmethod
    def of(cls, pairs: Iterable[tuple[Fraction, Fraction]]) -> OneRound:
        merged: dict[Fraction, Fraction] = {}
        for pays, probability in pairs:
            if probability < 0:
                raise ValueError(f"negative probability {probability}")
            if probability:
                merged[Fraction(pays)] = merged.get(Fraction(pays), Fraction(0)) + probability
        if sum(merged.values()) != 1:
            raise ValueError(f"probabilities sum to {sum(merged.values())}, not 1")
        ordered = sorted(merged)
        return cls(tuple(ordered), tuple(merged[p] for p in ordered))

    @property
    def mean(self) -> Fraction:
        return sum((x * q for x, q in zip(self.pays, self.probabilities, strict=True)),
                   Fraction(0))

    def central_moment(self, order: int) -> Fraction:
        mean = self.mean
        return sum(((x - mean) ** order * q
                    for x, q in zip(self.pays, self.probabilities, strict=True)), Fraction(0))

    @property
    def skewness(self) -> float:
        variance = self.central_moment(2)
        return float(self.central_moment(3)) / float(variance) ** 1.5 if variance else 0.0

    def _grid(self) -> tuple[Fraction, list[int], list[int], int]:
        """(step, positions, weights, weight total L): pay i is the lowest pay plus
        ``positions[i]`` steps, on the coarsest grid holding every pay, and its probability
        is ``weights[i] / L``, integers."""
        scale = math.lcm(*(p.denominator for p in self.pays))
        offsets = [int((p - self.pays[0]) * scale) for p in self.pays]
        common = math.gcd(*offsets) or 1
        total = math.lcm(*(q.denominator for q in self.probabilities))
        weights = [int(q * total) for q in self.probabilities]
        return Fraction(common, scale), [o // common for o in offsets], weights, total

    def exact_cost(self, rounds: int) -> int:
        """Bits of the packed polynomial :meth:`total_distribution` builds for ``rounds``."""
        _, positions, _, total = self._grid()
        slot = -(-(rounds * total.bit_length() + 1) // 8) * 8
        return (rounds * positions[-1] + 1) * slot

    def total_distribution(self, rounds: int) -> tuple[Fraction, Fraction, list[int], int]:
        """The exact distribution of the total net result of ``rounds`` independent rounds:
        ``(lowest, step, counts, denominator)``, the total ``lowest + k*step`` having
        probability ``counts[k] / denominator``.

        The one-round polynomial ``sum w_i x**s_i`` (integer weights, integer grid positions)
        is raised to the ``rounds``-th power by Python's integer ``pow`` on its Kronecker
        packing (each coefficient in a slot wide enough for ``L**rounds``, so no carry crosses
        a slot): repeated squaring over exact integers, no floating point.

        >>> coin = OneRound.of([(Fraction(1), Fraction(1, 2)), (Fraction(-1), Fraction(1, 2))])
        >>> coin.total_distribution(2)
        (Fraction(-2, 1), Fraction(2, 1), [1, 2, 1], 4)
        """
        if rounds < 1:
            raise ValueError(f"rounds must be a positive integer, got {rounds}")
        step, positions, weights, total = self._grid()
        slot_bytes = -(-(rounds * total.bit_length() + 1) // 8)
        packed = sum(w << (8 * slot_bytes * p) for w, p in zip(weights, positions, strict=True))
        power = pow(packed, rounds)
        size = rounds * positions[-1] + 1
        raw = power.to_bytes(size * slot_bytes, "little")
        counts = [int.from_bytes(raw[k * slot_bytes:(k + 1) * slot_bytes], "little")
                  for k in range(size)]
        return (rounds * self.pays[0], step, counts, total**rounds)


@dataclass(frozen=True)
class RoundsInterval:
    """Where the average net result per unit wagered after ``rounds`` rounds lies with
    probability at least (``exact``, ``chernoff``) or about (``normal``) ``level``."""

    low: Fraction
    high: Fraction
    method: str
    clipped: bool = False

    @property
    def method_text(self) -> str:
        return METHODS[self.method] + (" (clipped here)" if self.clipped else "")


def rounds_interval(one_round: OneRound, rounds: int, level: Fraction) -> RoundsInterval:
    """The interval of the average result after ``rounds`` rounds, by the first method of
    the three above that applies; never outside ``[min pay, max pay]``.

    >>> nines = OneRound.of([(Fraction(30000), Fraction(1, 2_000_000)),
    ...                      (Fraction(-1), Fraction(1_999_999, 2_000_000))])
    >>> found = rounds_interval(nines, 1000, Fraction(9, 10))
    >>> found.method, found.low >= -1
    ('chernoff', True)
    """
    if rounds < 1:
        raise ValueError(f"rounds must be a positive integer, got {rounds}")
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be strictly between 0 and 1, got {level}")
    if one_round.exact_cost(rounds) <= EXACT_BIT_BUDGET:
        return _exact_interval(one_round, rounds, Fraction(level))
    if abs(one_round.skewness) <= float(NORMAL_SKEWNESS_LIMIT) * math.sqrt(rounds):
        low, high = result_interval(one_round.mean, one_round.central_moment(2), rounds, level)
        return _within(one_round, low, high, "normal")
    return _chernoff_interval(one_round, rounds, Fraction(level))


@functools.lru_cache(maxsize=4)
def _total_distribution(one_round: OneRound, rounds: int,
                        ) -> tuple[Fraction, Fraction, list[int], int]:
    """:meth:`OneRound.total_distribution`, kept for the other levels of the same row."""
    return one_round.total_distribution(rounds)


def _exact_interval(one_round: OneRound, rounds: int, level: Fraction) -> RoundsInterval:
    """The exact quantiles at (1 - level)/2 and (1 + level)/2: the lowest totals whose
    cumulative probability reaches each, so the interval holds at least ``level``."""
    lowest, step, counts, denominator = _total_distribution(one_round, rounds)
    tail = (1 - level) / 2
    targets = [tail * denominator, (1 - tail) * denominator]
    found: list[Fraction] = []
    cumulative = 0
    for k, count in enumerate(counts):
        cumulative += count
        while len(found) < 2 and cumulative >= targets[len(found)]:
            found.append((lowest + k * step) / rounds)
    return RoundsInterval(found[0], found[1], "exact")


def _chernoff_interval(one_round: OneRound, rounds: int, level: Fraction) -> RoundsInterval:
    """Each end by :func:`_upper_end` (the lower one on the negated pays)."""
    tail = (1 - level) / 2
    pairs = list(zip(one_round.pays, one_round.probabilities, strict=True))
    high = _upper_end(pairs, rounds, tail)
    low = -_upper_end([(-x, q) for x, q in pairs], rounds, tail)
    # inside [min, max] by construction: a clip only mends the floats' last bits, so it is
    # not flagged
    return dataclasses.replace(_within(one_round, low, high, "chernoff"), clipped=False)


def _within(one_round: OneRound, low: float, high: float, method: str) -> RoundsInterval:
    """``[low, high]`` cut back to the possible range, exactly (the floats as Fractions)."""
    lowest, highest = one_round.pays[0], one_round.pays[-1]
    exact_low, exact_high = Fraction(low), Fraction(high)
    clipped = exact_low < lowest or exact_high > highest
    return RoundsInterval(min(max(exact_low, lowest), highest),
                          max(min(exact_high, highest), lowest), method, clipped)


def _upper_end(pairs: Sequence[tuple[Fraction, Fraction]], rounds: int, tail: Fraction) -> float:
    """A value the average of ``rounds`` rounds exceeds with probability at most ``tail``.

    Chernoff: for every theta > 0, P(average >= x) <= exp(-n (theta x - Lambda(theta))), with
    Lambda the log moment generating function of one round, so x = (Lambda(theta) + c)/theta
    with c = ln(1/tail)/n will do, and the least over theta is taken. A rare large award
    would make that loose, so the awards above a cap may be set aside first: the average
    exceeds x only if some round pays above the cap (probability at most
    n * P(pay > cap), exact) or the capped rounds' average does (Chernoff, with what is
    left of ``tail``). The best cap among the pays is kept."""
    ordered = sorted(pairs)
    best = math.inf
    for cut in range(len(ordered), 0, -1):
        above = rounds * sum((q for _, q in ordered[cut:]), Fraction(0))
        if above >= tail:
            break
        cap = ordered[cut - 1][0]
        capped = [(float(min(x, cap)), float(q)) for x, q in ordered]
        best = min(best, _chernoff(capped, math.log(1 / float(tail - above)) / rounds))
    return best


def _chernoff(pairs: Sequence[tuple[float, float]], c: float) -> float:
    """min over theta > 0 of (Lambda(theta) + c)/theta: the slope from (0, -c) to the convex
    curve Lambda falls, then rises, so a golden-section search over log theta finds it."""
    values = [x for x, _ in pairs]
    logs = [math.log(q) for _, q in pairs]
    spread = max(abs(v) for v in values) or 1.0

    def bound(log_theta: float) -> float:
        theta = math.exp(log_theta) / spread
        exponents = [theta * v for v in values]
        if max(abs(e) for e in exponents) < 0.5:  # Lambda is tiny: log1p keeps its digits
            log_mgf = math.log1p(sum(math.exp(lq) * math.expm1(e)
                                     for lq, e in zip(logs, exponents, strict=True)))
        else:
            top = max(lq + e for lq, e in zip(logs, exponents, strict=True))
            log_mgf = top + math.log(sum(math.exp(lq + e - top)
                                         for lq, e in zip(logs, exponents, strict=True)))
        return (log_mgf + c) / theta

    a, b = -40.0, 12.0
    ratio = (math.sqrt(5) - 1) / 2
    x, y = b - ratio * (b - a), a + ratio * (b - a)
    fx, fy = bound(x), bound(y)
    for _ in range(120):
        if fx <= fy:
            b, y, fy = y, x, fx
            x = b - ratio * (b - a)
            fx = bound(x)
        else:
            a, x, fx = x, y, fy
            y = a + ratio * (b - a)
            fy = bound(y)
    return min(fx, fy, bound(a), bound(b))


def one_in(probability: Fraction) -> Fraction:
    """The odds of an outcome as "1 in X": ``X = 1/probability``, exact.

    >>> one_in(Fraction(1, 37)), one_in(Fraction(2, 7))
    (Fraction(37, 1), Fraction(7, 2))
    """
    if probability <= 0:
        raise ValueError("an outcome that never happens has no '1 in X' odds")
    return 1 / Fraction(probability)


def one_in_text(probability: Fraction, digits: int = 4) -> str:
    """``one_in`` for display, with ``digits`` significant digits and thousands separators.

    >>> one_in_text(Fraction(1, 37)), one_in_text(Fraction(2, 7)), one_in_text(Fraction(3, 1000003))
    ('1 in 37', '1 in 3.5', '1 in 333,334')
    """
    odds = float(one_in(probability))
    decimals = max(0, digits - 1 - math.floor(math.log10(odds)))
    text = f"{odds:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"1 in {text}"


# --- rows and HTML of bet tables, for DataFrames and notebooks (:mod:`exact.analysis.frames`) ----
def table_rows(table: BetTable) -> list[dict[str, Any]]:
    """One row per event of ``table``: exact values and their floats.

    >>> coin = BetTable.from_counts("coin", "Coin", "even", [("Heads", Fraction(1), 1),
    ...                             ("Tails", Fraction(-1), 1)], total=2)
    >>> [row["probability"] for row in table_rows(coin)]
    [Fraction(1, 2), Fraction(1, 2)]
    >>> ">Heads</td>" in table_html(coin)
    True
    """
    return [{"bet": table.bet_id, "bet_name": table.name, "paytable": table.paytable,
             "event": o.event, "pays": o.pays, "pays_float": float(o.pays),
             "combinations": o.combinations, "total": table.total,
             "probability": o.probability, "probability_float": float(o.probability),
             "return": o.expected_return, "return_float": float(o.expected_return)}
            for o in table.outcomes]


def summary_row(table: BetTable) -> dict[str, Any]:
    """One row of statistics of ``table``."""
    top = table.top_award()
    return {"bet": table.bet_id, "bet_name": table.name, "paytable": table.paytable,
            "house_edge": table.house_edge, "house_edge_float": float(table.house_edge),
            "return_to_player": table.return_to_player,
            "hit_frequency": table.hit_frequency,
            "hit_frequency_float": float(table.hit_frequency),
            "variance": table.variance, "standard_deviation": table.standard_deviation,
            "top_award": None if top is None else top.event,
            "top_award_pays": None if top is None else top.pays,
            "top_award_one_in": None if top is None else 1 / top.probability,
            "top_award_one_in_float": None if top is None else float(1 / top.probability)}


def table_html(table: BetTable) -> str:
    """The return table with its house edge, exact and as a percentage."""
    rows: list[list[object]] = [[o.event, o.pays, f"{o.combinations:,}",
                                 f"{float(o.probability):.10f}",
                                 f"{float(o.expected_return):+.10f}"] for o in table.outcomes]
    rows.append(["Total", "", f"{table.total:,}", f"{1:.10f}",
                 f"{float(table.expected_value):+.10f}"])
    caption = (f"{table.name} [{table.bet_id}], paytable {table.paytable}: house edge "
               f"{float(table.house_edge) * 100:.4f}% = {table.house_edge}")
    return html_table(["Event", "Pays", "Combinations", "Probability", "Return"], rows, caption)


def summary_html(tables: Iterable[BetTable], caption: str) -> str:
    """One row per bet and paytable: house edge, hit frequency, SD, top award."""
    rows: list[list[object]] = []
    for table in tables:
        top = table.top_award()
        rows.append([table.name, table.paytable, f"{float(table.house_edge) * 100:.4f}%",
                     table.house_edge, f"{float(table.hit_frequency) * 100:.4f}%",
                     f"{table.standard_deviation:.4f}",
                     "" if top is None else f"{top.event} ({top.pays} to 1)",
                     "" if top is None else f"1 in {float(1 / top.probability):,.1f}"])
    return html_table(["Bet", "Paytable", "House edge", "House edge (exact)", "Hit frequency",
                        "SD", "Top award", "Odds"], rows, caption)
