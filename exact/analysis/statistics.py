"""Exact statistics of a bet from the counts of its events.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Everything here is a :class:`fractions.Fraction` except the standard deviation, which is
irrational in general: it is given exactly as a sympy expression and as a float for display.

>>> table = BetTable.from_counts("coin", "Coin", "even", [("Heads", Fraction(1), 1),
...                              ("Tails", Fraction(-1), 1)], total=2)
>>> table.house_edge, table.variance, table.standard_deviation
(Fraction(0, 1), Fraction(1, 1), 1.0)
"""

from __future__ import annotations

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
        """The standard deviation as an exact sympy expression, e.g. ``sqrt(7)/3``."""
        import sympy

        return str(sympy.sqrt(sympy.Rational(self.variance.numerator, self.variance.denominator)))

    def to_frame(self):
        """A pandas DataFrame, one row per event: exact values and floats (needs pandas)."""
        return frame(table_rows(self))

    def _repr_html_(self) -> str:
        return table_html(self)

    def top_award(self) -> Outcome | None:
        paying = [o for o in self.outcomes if o.pays > 0 and o.combinations]
        return max(paying, key=lambda o: o.pays) if paying else None


# --- statistics of repeated play (reports, notebooks) ----------------------------------------
# These use the normal approximation (central limit theorem) and so return floats: the exact
# inputs (mean, variance, probabilities) stay Fractions up to this last step.

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
