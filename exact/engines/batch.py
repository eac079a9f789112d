"""Exact expected values of many bets for many shoe compositions at once.

Layer: engines, above the model; the engines know no game (the games call them).

A :class:`BetEvaluator` groups a game's bets by what they need of the deal, compiles each
group once (kept in the disk cache of :mod:`exact.engines.cache`, keyed by game id, rules, needs and
toolkit version), or, for bets settled on the first cards seen through ranks and suits of both
hands (Perfect Pairs, NINES), builds their shoe-independent event grids once
(:mod:`exact.engines.staged`, kept in memory: about 0.1 s a deal), or, for bets on ranks, colours
or suits of cards by position or with the third cards, compiles their factorised form once
(:mod:`exact.engines.factorised`, in the disk cache) -- the engine the plan
(:mod:`exact.engines.plan`) names for each bet, as ``analyze`` does -- and evaluates a (shoes x 53)
matrix of card counts in one batch: exact event counts per bet and shoe, and exact expected
values as integer numerators over a stated denominator (``pays_denominator * N!/(N-r)!``).

>>> from exact.core.cards import Shoe
>>> from exact.games import get_game
>>> from exact.analysis.bet_analysis import game_bets
>>> game = get_game("punto-banco")
>>> evaluator = BetEvaluator(game, [b for b in game_bets(game) if b.group == "main"])
>>> evaluator.expected_values([Shoe.standard(8)])["banker"][0]
Fraction(-114753351728, 10847218479825)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any, Protocol

import numpy as np

from exact.core.cards import Shoe
from exact.core.parsing import shown_all
from exact.core.progress import steps
from exact.engines.batch_numbers import INT64_LIMIT, counts_matrix, rest_of_round, shoe_sizes
from exact.engines.compiled_store import event_matrices as event_matrices
from exact.engines.compiled_store import event_matrix_key as event_matrix_key
from exact.engines.plan import EngineError, choose, engine, plan, served
from exact.errors import BatchError as BatchError
from exact.model.bets import Bet
from exact.model.game import Game

Shoes = Sequence[Shoe] | np.ndarray  # shoes, or their rows of 53 card counts (counts_matrix)


class Evaluator(Protocol):
    """What every engine's evaluator offers and every command that evaluates many shoes uses
    (``eor``, ``edge``, ``simulate``): per tracked wager (by id), exact results for a batch of
    shoes. :class:`BetEvaluator` is the bet games'; a strategy game evaluates its fixed
    strategies the same way (21st Century Baccarat: ``exact.games.century21.batch``)."""

    @property
    def round_cards(self) -> int:
        """``r``, the cards of the counting unit: counts are over ``N!/(N-r)!``."""
        ...

    def counts(self, shoes: Shoes) -> dict[str, np.ndarray]:
        """Per wager, a (shoes x events) array of exact counts over ``N!/(N-r)!``."""
        ...

    def numerators(self, shoes: Shoes) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Per wager, exact expected values as (numerators, denominators): integer arrays
        (int64 when bounded, else Python ints) with EV = numerator / denominator."""
        ...

    def expected_values(self, shoes: Shoes) -> dict[str, list[Fraction]]:
        """Per wager, the exact expected value per unit for every shoe."""
        ...


def batch_path(game: Game[Any], bet: Bet) -> str | None:
    """The engine that serves ``bet`` in a batch of shoes (the plan's choice), or ``None``: a
    game without card positions (:class:`~exact.model.contracts.CardPositions`) whose bet reads
    ranks or suits together with the third cards (its compiled walk would take minutes and
    gigabytes; ``analyze`` serves it one shoe at a time)."""
    try:
        return choose(game, bet, "batch").engine
    except EngineError:
        return None


def supported_bets(game: Game[Any], bets: Sequence[Bet]) -> tuple[list[Bet], list[Bet]]:
    """``bets`` split into those the batch evaluator serves and the others."""
    return served(game, bets, "batch")


@dataclass(frozen=True)
class PayVector:
    """Pays as integers over a common denominator, so expected values stay integers.

    Two Banker wins (19/20 each), a push and a loss in four rounds: (2 x 19/20 - 1) / 4.

    >>> vector = PayVector.of([Fraction(19, 20), Fraction(0), Fraction(-1)])
    >>> vector.numerators(np.array([[2, 1, 1]]), [4])
    (array([18]), [80])
    """

    scaled: tuple[int, ...]
    denominator: int

    @classmethod
    def of(cls, pays: Sequence[Fraction]) -> PayVector:
        denominator = lcm(*(pay.denominator for pay in pays))
        return cls(tuple(int(pay * denominator) for pay in pays), denominator)

    def numerators(self, block: np.ndarray, totals: Sequence[int], wider: type | None = None
                   ) -> tuple[np.ndarray, list[int]]:
        """Expected values of a (shoes x events) count ``block`` whose rows sum to ``totals``:
        numerators (int64 when bounded, else Python ints; ``wider=object`` forces those)
        over the denominators ``total * denominator``."""
        # every |count x pay| sums to at most total x max|pay|: int64 only below that bound
        largest = max(totals, default=0) * max(abs(p) for p in self.scaled)
        dtype: type = np.int64 if largest <= INT64_LIMIT and wider is not object else object
        numerators: np.ndarray = block.astype(dtype) @ np.array(self.scaled, dtype=dtype)
        return numerators, [total * self.denominator for total in totals]


class BetEvaluator:
    """Exact event counts and expected values of ``bets`` for batches of shoes: the
    :class:`Evaluator` of a bet game."""

    def __init__(self, game: Game[Any], bets: Sequence[Bet]) -> None:
        self.game = game
        self.bets = list(bets)
        _, unserved = supported_bets(game, self.bets)
        if unserved:
            raise BatchError(f"bet(s) {shown_all([b.id for b in unserved])} read ranks or suits "
                             "together with the third cards of a game without card positions "
                             "(no factorised counting): the batch evaluator (eor, simulate, "
                             "edge) serves bets on card values, bets settled on the first "
                             "cards and card-level bets of Punto Banco; use `analyze --engine "
                             "direct` on small shoes")
        groups = plan(game, self.bets, "batch").groups(game)
        self._groups: list[tuple[list[Bet], Callable[[np.ndarray], list[np.ndarray]]]] = []
        for (name, deal), (needs, group) in steps(groups.items(),
                                                   "preparing bets (compiling on first use)",
                                                   "group", len(groups)):
            self._groups.append((group, engine(name).batch(game, deal, needs, group)))
        self.round_cards = next(iter(groups))[1].round_cards if groups else 0
        self._pays = {bet.id: PayVector.of([e.pays for e in bet.events]) for bet in self.bets}

    def counts(self, shoes: Shoes) -> dict[str, np.ndarray]:
        """Per bet, a (shoes x events) array of exact counts over ``N!/(N-r)!``."""
        matrix = shoes if isinstance(shoes, np.ndarray) else counts_matrix(shoes)
        out: dict[str, np.ndarray] = {}
        for group, evaluate in self._groups:
            for bet, block in zip(group, evaluate(matrix), strict=True):
                out[bet.id] = block
        return {bet.id: out[bet.id] for bet in self.bets}

    def numerators(self, shoes: Shoes) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Exact expected values as (numerators, denominators) per bet: integer arrays with
        EV = numerator / denominator (int64 when bounded, else Python ints)."""
        matrix = shoes if isinstance(shoes, np.ndarray) else counts_matrix(shoes)
        totals = rest_of_round(shoe_sizes(matrix), 0, self.round_cards).tolist()
        numerators, denominators = {}, {}
        for bet_id, block in self.counts(matrix).items():
            numerators[bet_id], over = self._pays[bet_id].numerators(block, totals)
            denominators[bet_id] = np.array(over, dtype=object)
        return numerators, denominators

    def expected_values(self, shoes: Shoes) -> dict[str, list[Fraction]]:
        """Exact expected value per unit of every bet for every shoe."""
        numerators, denominators = self.numerators(shoes)
        return {bet_id: [Fraction(int(n), int(d)) for n, d in
                         zip(numerators[bet_id], denominators[bet_id], strict=True)]
                for bet_id in numerators}
