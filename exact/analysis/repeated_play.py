"""The player's result over many rounds: the normal quantiles, the volatility index and the
interval of the average result after ``n`` rounds, honestly bounded (exact where affordable,
else the normal approximation where the skewness allows it, else Chernoff's bound), each
naming its method.

Layer: analysis, above the engines; a bet table gives its one-round distribution
(:attr:`exact.analysis.statistics.BetTable.one_round`), the reports and notebooks the
intervals.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


# --- the normal approximation ----------------------------------------------------------------
# These use the central limit theorem and so return floats: the exact inputs (mean, variance,
# probabilities) stay Fractions up to this last step.
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
