"""Exact statistics of a bet from the counts of its events.

Everything here is a :class:`fractions.Fraction` except the standard deviation, which is
irrational in general: it is given exactly as a sympy expression and as a float for display.

>>> table = BetTable.from_counts("coin", "Coin", "even", [("Heads", Fraction(1), 1),
...                              ("Tails", Fraction(-1), 1)], total=2)
>>> table.house_edge, table.variance, table.standard_deviation
(Fraction(0, 1), Fraction(1, 1), 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property


@dataclass(frozen=True)
class Outcome:
    """One row of a return table."""

    event: str
    pays: Fraction
    combinations: int
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
                    rows: Sequence[tuple[str, Fraction, int]], total: int) -> BetTable:
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

    def _frequency(self, test) -> Fraction:  # type: ignore[no-untyped-def]
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

    def top_award(self) -> Outcome | None:
        paying = [o for o in self.outcomes if o.pays > 0 and o.combinations]
        return max(paying, key=lambda o: o.pays) if paying else None
