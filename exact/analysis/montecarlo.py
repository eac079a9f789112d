"""A plain Monte Carlo round simulator: physical cards, any game, any bets.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Each round is dealt from a freshly shuffled copy of the shoe (seeded ``numpy`` generator), read
with the game's :meth:`~exact.model.game.Game.record_from_cards` and settled by each bet's
definition. It shares nothing with the enumerators but the game's own round logic, so it
cross-checks exact results: :func:`within_interval` tests every event's frequency against its
exact probability within ``z`` standard errors.

>>> from exact.core.cards import Shoe
>>> from exact.games import get_game
>>> from exact.analysis.bet_analysis import game_bets
>>> game = get_game("punto-banco")
>>> seen = simulate_rounds(game, Shoe.standard(8), game_bets(game), rounds=200, seed=7)
>>> sum(seen["tie"])
200
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from exact.core.cards import CARDS, Shoe
from exact.errors import ShoeError
from exact.model.bets import Bet
from exact.model.game import Game


def simulate_rounds(game: Game, shoe: Shoe, bets: Sequence[Bet], rounds: int,
                    seed: int) -> dict[str, list[int]]:
    """Observed count of each bet's events over ``rounds`` independent rounds."""
    unit = game.deal(game.needs(set().union(*(b.features for b in bets)))).round_cards
    if shoe.size < unit:
        raise ShoeError(f"a shoe of {shoe.size} cards cannot deal a round of {unit}")
    cards = np.repeat(np.arange(len(CARDS)), shoe.counts)
    generator = np.random.default_rng(seed)
    names = sorted(set().union(*(bet.features for bet in bets)))
    tallies = {bet.id: [0] * len(bet.events) for bet in bets}
    for _ in range(rounds):
        dealt = [CARDS[i] for i in generator.choice(cards, size=unit, replace=False)]
        record = game.record_from_cards(dealt)
        features = {name: game.read(record, name) for name in names}
        for bet in bets:
            tallies[bet.id][bet.settle(features)] += 1
    return tallies


def within_interval(observed: Sequence[int], exact: Sequence[int], z: float = 4.0) -> bool:
    """Every observed frequency is within ``z`` binomial standard errors of its exact
    probability (``exact`` counts over their sum).

    >>> within_interval([480, 520], [1, 1]), within_interval([400, 600], [1, 1])
    (True, False)
    """
    rounds, total = sum(observed), sum(exact)
    for seen, count in zip(observed, exact, strict=True):
        probability = count / total
        sigma = math.sqrt(probability * (1 - probability) / rounds)
        if abs(seen / rounds - probability) > z * sigma + 1e-12:
            return False
    return True
