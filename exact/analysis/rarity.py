"""How often each tier of a bet hits, and how rare its top award is.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

For every paying event of a return table: its hit frequency, the odds "1 in X", how many times
it is expected in a number of independent rounds (100 million by default) and the probability
that it happens at least once in them, ``1 - (1 - p)**rounds``. Frequencies and expectations
are exact fractions; the probability of at least one occurrence is a float (its exact value is
a fraction with a hundred-million-digit denominator).

>>> from fractions import Fraction
>>> from exact.analysis.statistics import BetTable
>>> table = BetTable.from_counts("x", "X", "t", [("Jackpot", Fraction(1000), 1),
...                              ("Loses", Fraction(-1), 999_999)], total=1_000_000)
>>> top = top_award(table)
>>> top.event, top.one_in, top.expected, round(top.at_least_once, 6)
('Jackpot', Fraction(1000000, 1), Fraction(100, 1), 1.0)
>>> TierFrequency("Wins", Fraction(1), 10**20 - 1, Fraction(10**20 - 1, 10**20), 1).at_least_once
1.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from exact.analysis.statistics import BetTable

ROUNDS = 100_000_000


@dataclass(frozen=True)
class TierFrequency:
    """One paying tier: its pay, hit frequency and rarity over ``rounds`` rounds."""

    event: str
    pays: Fraction
    combinations: int | Fraction  # as Outcome.combinations
    probability: Fraction
    rounds: int

    @property
    def one_in(self) -> Fraction | None:
        """The odds as "1 in X" (``None`` if the tier never occurs)."""
        return 1 / self.probability if self.probability else None

    @property
    def expected(self) -> Fraction:
        """Expected occurrences in ``rounds`` independent rounds."""
        return self.rounds * self.probability

    @property
    def at_least_once(self) -> float:
        """Probability of at least one occurrence in ``rounds`` independent rounds."""
        if self.probability >= 1:
            return 1.0
        if float(self.probability) < 1:
            return -math.expm1(self.rounds * math.log1p(-float(self.probability)))
        # within 2**-53 of certainty: the float rounds to 1 (log1p(-1) is a domain error), so
        # the chance of missing is taken exactly; (1 - p)**rounds is then far below any float
        miss = float(1 - self.probability)
        return 1.0 if miss == 0.0 else -math.expm1(self.rounds * math.log(miss))

    @property
    def likely_in_rounds(self) -> bool:
        """True when it is more likely than not to happen at least once in ``rounds``."""
        return self.at_least_once >= 0.5

    def as_json(self) -> dict[str, object]:
        return {"event": self.event, "pays": str(self.pays), "combinations": self.combinations,
                "hit_frequency": str(self.probability),
                "hit_frequency_float": float(self.probability),
                "one_in": None if self.one_in is None else str(self.one_in),
                "one_in_float": None if self.one_in is None else float(self.one_in),
                "rounds": self.rounds, "expected_in_rounds": str(self.expected),
                "expected_in_rounds_float": float(self.expected),
                "probability_at_least_once": self.at_least_once,
                "likely_at_least_once": self.likely_in_rounds}

    def describe(self) -> str:
        odds = "never occurs" if self.one_in is None else f"1 in {float(self.one_in):,.1f}"
        return (f"{self.event} ({self.pays} to 1): hit {float(self.probability) * 100:.6f}%, "
                f"{odds}; expected {float(self.expected):,.2f} times in {self.rounds:,} rounds, "
                f"at least once with probability {self.at_least_once:.6f}")


def tier_frequencies(table: BetTable, rounds: int = ROUNDS) -> list[TierFrequency]:
    """Every paying event of ``table`` (pays > 0), in the table's order."""
    return [TierFrequency(o.event, o.pays, o.combinations, o.probability, rounds)
            for o in table.outcomes if o.pays > 0]


def top_award(table: BetTable, rounds: int = ROUNDS) -> TierFrequency | None:
    """The highest-paying tier that can occur (``None`` if nothing pays)."""
    outcome = table.top_award()
    if outcome is None:
        return None
    return TierFrequency(outcome.event, outcome.pays, outcome.combinations, outcome.probability,
                         rounds)


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
