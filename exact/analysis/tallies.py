"""A shoe simulation's results: per wager, the tally of the rounds perfect play and a count
bet (summable shoe by shoe, with the spread between shoes for the standard errors), and the
summary every output shows.

Layer: analysis, above the engines; :mod:`exact.analysis.simulation` tallies the shoes it
plays, rendering and the reports show the summary.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exact.analysis.shoe_play import Integers


@dataclass
class BetTally:
    """One wager's results over some shoes (summable)."""

    rounds: int = 0
    positive: int = 0
    edge_sum_positive: list[float] = field(default_factory=list)  # fsum'd at the end
    perfect_win: Fraction = Fraction(0)
    count_bets: int = 0
    count_win: Fraction = Fraction(0)
    count_edge: list[float] = field(default_factory=list)
    # Merged shoes: the exact sum of each shoe's fsum'd edges. Its float is the correctly
    # rounded sum, as fsum of the per-shoe sums would be, without a list growing per shoe.
    edge_total: Fraction = Fraction(0)
    count_edge_total: Fraction = Fraction(0)
    # The spread between shoes (the shoe, not the round, is the independent unit: the rounds
    # of a shoe share its cards): the shoes, and the sums over them of the squared rounds and,
    # per figure of SPREAD_FIGURES, of the shoe's figure squared and times its rounds.
    shoes: int = 0
    rounds_square: int = 0
    moments: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)

    def close_shoe(self) -> None:
        """Make this one shoe's tally the spread's first shoe (after its rounds are tallied)."""
        self.shoes, self.rounds_square = 1, self.rounds ** 2
        figures = (self.perfect_win, self.count_win, Fraction(math.fsum(self.edge_sum_positive)),
                   Fraction(math.fsum(self.count_edge)))
        self.moments = {name: (value * value, value * self.rounds)
                        for name, value in zip(SPREAD_FIGURES, figures, strict=True)}

    def merge(self, other: BetTally) -> None:
        """Add one shoe's tally (or a merged one) to this one."""
        self.shoes += other.shoes
        self.rounds_square += other.rounds_square
        for name, (square, cross) in other.moments.items():
            mine = self.moments.get(name, (Fraction(0), Fraction(0)))
            self.moments[name] = (mine[0] + square, mine[1] + cross)
        self.rounds += other.rounds
        self.positive += other.positive
        self.edge_total += other.edge_total + Fraction(math.fsum(other.edge_sum_positive))
        self.perfect_win += other.perfect_win
        self.count_bets += other.count_bets
        self.count_win += other.count_win
        self.count_edge_total += other.count_edge_total + Fraction(math.fsum(other.count_edge))

    def edge_sum(self) -> float:
        """Sum of the edges of the positive rounds."""
        return float(self.edge_total + Fraction(math.fsum(self.edge_sum_positive)))

    def count_edge_sum(self) -> float:
        """Sum of the edges of the rounds the count bet."""
        return float(self.count_edge_total + Fraction(math.fsum(self.count_edge)))

    def per_100_rounds_error(self, figure: str, total: float) -> float | None:
        """Standard error of ``100 * total / rounds``, where ``total`` is the sum over the shoes
        of ``figure`` (one of :data:`SPREAD_FIGURES`): the ratio estimator's, from the spread
        between shoes (None below two shoes, or with no round)."""
        if self.shoes < 2 or not self.rounds or figure not in self.moments:
            return None
        square, cross = self.moments[figure]
        ratio = total / self.rounds
        residual = (float(square) - 2 * ratio * float(cross)
                    + ratio * ratio * self.rounds_square)
        variance = max(residual, 0.0) / (self.shoes - 1) / self.shoes
        return 100 * math.sqrt(variance) / (self.rounds / self.shoes)


SPREAD_FIGURES = ("perfect_win", "count_win", "perfect_expected_win", "count_expected_win")
"""The figures of a shoe whose spread between shoes gives the standard errors: the units
perfect play and the count won, and what each expected to win (the sum of the exact edges of
the rounds it bet)."""


@dataclass
class SimulationResult:
    shoes: int
    rounds: int
    tallies: dict[str, BetTally]
    names: dict[str, str]
    triggers: dict[str, float]

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per wager: frequency of the rounds where the player has the advantage (the exact
        house edge is negative), average house edge when betting, the player's win per shoe and
        per 100 hands dealt, for perfect play and for the count (None where nothing was dealt
        or bet). Signs as every output gives them: the house edge is positive for the house;
        a win is what the player won."""
        out = {}
        hands = self.rounds or None
        for bet_id, tally in self.tallies.items():
            edge_sum = tally.edge_sum()
            count_edge = tally.count_edge_sum()
            out[bet_id] = {
                "name": self.names[bet_id],
                "rounds": tally.rounds,
                "player_advantage_rounds": tally.positive,
                "player_advantage_frequency": tally.positive / tally.rounds if tally.rounds
                else 0.0,
                "perfect_average_house_edge": -edge_sum / tally.positive if tally.positive
                else None,
                "perfect_win": str(tally.perfect_win),
                "perfect_win_per_shoe": float(tally.perfect_win) / self.shoes,
                "perfect_win_per_100_hands": hands and 100 * float(tally.perfect_win) / hands,
                "perfect_expected_win_per_shoe": edge_sum / self.shoes,
                "count_trigger": self.triggers.get(bet_id),
                "count_bets": tally.count_bets,
                "count_average_house_edge": -count_edge / tally.count_bets if tally.count_bets
                else None,
                "count_win": str(tally.count_win),
                "count_win_per_shoe": float(tally.count_win) / self.shoes,
                "count_win_per_100_hands": hands and 100 * float(tally.count_win) / hands,
                "count_expected_win_per_shoe": count_edge / self.shoes,
                "count_bet_frequency": tally.count_bets / tally.rounds if tally.rounds
                else 0.0,
                **self._per_100_rounds(tally, edge_sum, count_edge),
            }
        return out

    def _per_100_rounds(self, tally: BetTally, edge_sum: float, count_edge: float
                        ) -> dict[str, float | None]:
        """Per 100 rounds dealt, with standard errors from the spread between shoes: the
        units won and the units expected (the exact edges of the rounds bet), for perfect play
        and for the count."""
        totals = {"perfect_win": float(tally.perfect_win), "count_win": float(tally.count_win),
                  "perfect_expected_win": edge_sum, "count_expected_win": count_edge}
        out: dict[str, float | None] = {}
        for figure, total in totals.items():
            if figure.endswith("expected_win"):
                out[f"{figure}_per_100_hands"] = (100 * total / tally.rounds if tally.rounds
                                                  else None)
            out[f"{figure}_per_100_hands_se"] = tally.per_100_rounds_error(figure, total)
        return out


def tally_shoe(rounds: range, edges: tuple[Integers, Integers], pays: Sequence[Fraction],
           true_counts: Sequence[float], trigger: float | None) -> BetTally:
    """One wager over one shoe's rounds (indices into the job's batch)."""
    numerators, denominators = edges
    tally = BetTally(rounds=len(rounds))
    for k, true_count in zip(rounds, true_counts, strict=True):
        numerator = int(numerators[k])
        edge = numerator / int(denominators[k])
        if numerator > 0:
            tally.positive += 1
            tally.edge_sum_positive.append(edge)
            tally.perfect_win += pays[k]
        if trigger is not None and true_count >= trigger:
            tally.count_bets += 1
            tally.count_win += pays[k]
            tally.count_edge.append(edge)
    tally.close_shoe()
    return tally
