"""A seeded Monte Carlo of physical rounds agrees with the exact figures."""

from __future__ import annotations

import math

from exact.core.cards import Shoe
from exact.games.baccarat.reference import simulate

from tests.support.batch_helpers import engine_counts

ROUNDS = 40_000
Z = 3.89  # two-sided 99.99% normal quantile: with 12 checks a false alarm is ~1 in 800 seeds


def test_simulation_agrees_with_exact_probabilities(punto_banco):
    shoe = Shoe.standard(8)
    names = ("winner", "cards_dealt")
    exact = engine_counts(punto_banco, shoe, names, lambda f: (f["winner"], f["cards_dealt"]),
                          "compiled")
    total = sum(exact.values())
    seen = simulate(shoe, ROUNDS, seed=20261130, names=names)
    for key, count in exact.items():
        probability = count / total
        sigma = math.sqrt(probability * (1 - probability) / ROUNDS)
        assert abs(seen[key] / ROUNDS - probability) <= Z * sigma, key
