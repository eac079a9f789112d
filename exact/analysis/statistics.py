"""Exact statistics of a bet from the counts of its events.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Everything here is a :class:`fractions.Fraction` except the standard deviation, which is
irrational in general: it is given exactly, in sympy's notation (``2*sqrt(186)/415``) but
without importing sympy (:mod:`exact.analysis.square_roots`), and as a float for display. The
player's result over many rounds is :mod:`exact.analysis.repeated_play`'s, the odds "1 in X"
:mod:`exact.analysis.rarity`'s.

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
from exact.analysis.repeated_play import OneRound
from exact.analysis.square_roots import square_root_text


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
