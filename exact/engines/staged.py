"""Fast exact evaluation of bets settled on a fixed sequence of card groups.

Layer: engines, above the model; the engines know no game (the games call them).

Bets such as Perfect Pairs or NINES are settled on the first two cards of each hand, seen
through ranks and suits: 1,378 distinct hands each, so 1.9 million pairs of hands. When a deal
has no draw that depends on earlier cards (``deal.fixed_stages`` is not ``None``), the
enumeration is a product of its groups, and which event a pair of hands settles does not
depend on the shoe. So a :class:`StagedDeal` is built once per deal and class universe (every
hand the classes can form) and a bet's event grid once per bet; a shoe then costs only the
weights, for a whole batch of shoes at once (:meth:`StagedDeal.counts`):

* the weight of a group is its number of orderings times the falling factorials of its class
  counts (``n(n-1)`` for a pair of one class): exactly 0 when the shoe cannot deal it;
* the weight of a pair of hands is the first hand's weight times the second's *given* the
  first. The two differ from the plain product of both hands' own weights only when the
  hands share a class (about 7% of the pairs at ranks and suits), so an event's count is the
  sum of the products of signature totals (below) minus the *excess* of the product over the
  true weight on those shared-class pairs. Every term is a non-negative integer.

Conditions are evaluated once per distinct *signature* (the values of the features that read
one hand only), as a grid over both hands' signatures, with the vectorised expression
evaluator; features that read both hands are read once per pair of hands as they see them
(:mod:`exact.engines.staged_reader`). With cards known at positions of the groups, the same
grids serve the forced engine (:mod:`exact.engines.staged_known`).

The result is identical to the recursive enumerator's (tested); counts are in the same unit,
ordered sequences of ``round_cards`` cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from exact.core.cards import CARDS, JOKER, Label, Shoe, View
from exact.core.enumerator import (
    Deal,
    Draw,
    Record,
    RecordT,
    check_shoe,
    fixed_stages,
    group_coefficient,
)
from exact.engines.batch_numbers import (
    Segments,
    batch_dtype,
    check_batch,
    counts_matrix,
    rest_of_round,
    shoe_sizes,
)
from exact.engines.engine import staged_refusal
from exact.engines.staged_reader import HandReader
from exact.model.bets import Bet
from exact.model.game import Game

# Up to this many shoes, and until a larger batch has built it, the excess of the shared
# pairs is gathered pair by pair instead of the sparse product (StagedDeal._excess): a command
# of a few shoes then never loads scipy nor builds the matrix. Measured in fresh processes on
# 8-deck shoes: up to 32 shoes, gathering takes 0.05-0.14 s of CPU, loading scipy and the
# sparse product 0.16-0.25 s (`eor`'s 14 shoes among them).
_GATHERED_SHOES = 32
_BLOCK = 64  # shoes per block: (shoes x 6,734-key) arrays and one sparse product over 139,282 pairs
Universe = tuple[tuple[int, ...], ...]  # per stage, the class indices its groups may use


def applicable(deal: Deal[Record]) -> bool:
    """True when the staged evaluator serves ``deal`` (one or two fixed groups), by the rule
    the engine plan judges bets with (:func:`exact.engines.engine.staged_refusal`)."""
    return staged_refusal(fixed_stages(deal)) is None


def staged_counts(game: Game[RecordT], deal: Deal[RecordT], bets: Sequence[Bet], shoe: Shoe
                  ) -> list[list[int]]:
    """Exact event counts of every bet of ``bets`` (all served by ``deal``) for ``shoe``."""
    check_shoe(deal, shoe)
    # Only the classes the shoe holds: a small shoe then reads few hands (the event grids of
    # a full shoe are the batch evaluator's, shared through the cache).
    present = tuple(tuple(i for i, count in enumerate(draw.view.class_counts(shoe)) if count)
                    for _, draw in fixed_stages(deal) or ())
    blocks = staged_deal(game, deal, present).counts(bets, counts_matrix([shoe]))
    return [[int(count) for count in block[0]] for block in blocks]


@lru_cache(maxsize=16)
def staged_deal(game: Game[RecordT], deal: Deal[RecordT], universe: Universe | None = None
                ) -> StagedDeal:
    """The shoe-independent part of ``deal`` (every class, or only those of ``universe``)."""
    return StagedDeal(game, deal, universe)


@dataclass(frozen=True)
class Stage:
    """Every group one stage can deal from its class universe, whatever the shoe."""

    view: View
    groups: np.ndarray  # (groups x cards): sorted class indices
    coefficient: np.ndarray  # orderings of each group
    repeats: np.ndarray  # (groups x cards): cards of the same class earlier in the group

    @classmethod
    def of(cls, draw: Draw, universe: Sequence[int]) -> Stage:
        groups = list(combinations_with_replacement(universe, draw.count))
        shape = (len(groups), draw.count)
        return cls(draw.view, np.array(groups, dtype=np.int64).reshape(shape),
                   np.array([group_coefficient(g) for g in groups], dtype=np.int64),
                   np.array([[g[:p].count(g[p]) for p in range(draw.count)] for g in groups],
                            dtype=np.int64).reshape(shape))

    @property
    def hands(self) -> list[tuple[Label, ...]]:
        return [tuple(self.view.labels[i] for i in group) for group in self.groups.tolist()]

    def one_hot(self) -> np.ndarray:
        """(cards x classes): class counts of a batch are ``counts @ one_hot``."""
        matrix = np.zeros((len(CARDS), len(self.view.labels)), dtype=np.int64)
        matrix[np.arange(len(CARDS)), self.view.card_class] = 1
        return matrix


def falling_products(classes: np.ndarray, columns: np.ndarray, offsets: np.ndarray
                      ) -> np.ndarray:
    """(shoes x groups): the product over positions ``p`` of ``count - offset``, the falling
    factorials of each group's classes (``columns``, per group its class indices) given
    ``offsets`` cards of the class taken before that position.

    A factor below zero is clipped to 0. It only occurs when the same falling factorial has
    already passed through 0 (the class ran out), or the cards taken before are not there
    (the first hand has weight 0): clipping leaves every product unchanged and keeps every
    intermediate a non-negative integer at most ``N**cards``, which is what bounds int64.
    """
    product = np.ones((classes.shape[0], columns.shape[0]), dtype=classes.dtype)
    for position in range(columns.shape[1]):
        factor = classes[:, columns[:, position]] - offsets[None, :, position]
        product = product * np.maximum(factor, 0) if position else np.maximum(factor, 0)
    return product


@dataclass(frozen=True)
class _Grid:
    """A bet's events over a staged deal: sums by first and second hand signature, by pair of
    signatures, and by shared-class pair of hands."""

    first: Segments
    second: Segments | None = None
    pairs: Segments | None = None
    shared: Segments | None = None
    shared_first: np.ndarray | None = None  # per shared pair in ``shared.order``: first hand
    shared_key: np.ndarray | None = None  # ... and its second hand given the first
    # the shared pairs of every event but ``derived`` (the event most of them settle, say "no
    # pair", which takes the rest of the total excess: :meth:`StagedDeal._excess`): their rows
    # (event and first hand) and columns (keys) in :attr:`excess`, and its shape
    excess_pairs: tuple[np.ndarray, np.ndarray, tuple[int, int]] | None = None
    derived: int = 0

    @cached_property
    def excess(self) -> Any:
        """(events but ``derived`` x first hands) x keys, sparse: how many shared pairs of
        each first hand and key settle each event (summed by one sparse product). Built on
        first use, as it loads scipy: an analysis of a few shoes gathers the pairs instead."""
        from scipy import sparse

        assert self.excess_pairs is not None
        rows, keys, shape = self.excess_pairs
        return sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, keys)),
                                 shape=shape, dtype=np.int64)


class StagedDeal:
    """A fixed-stage deal's hands, shared-class pairs and bet event grids (shoe-independent),
    and exact event counts for batches of shoes."""

    def __init__(self, game: Game[RecordT], deal: Deal[RecordT], universe: Universe | None = None
                 ) -> None:
        fixed = fixed_stages(deal)
        refusal = staged_refusal(fixed)
        if refusal is not None or fixed is None:  # (None is refused: said for mypy)
            raise ValueError(f"the staged evaluator cannot serve this deal: {refusal}")
        self.deal: Deal[Record] = deal
        if universe is None:
            universe = tuple(tuple(i for i, label in enumerate(draw.view.labels)
                                   if deal.accepts_jokers or label.rank != JOKER)
                             for _, draw in fixed)
        self.universe = universe
        self.stages = [Stage.of(draw, classes) for (_, draw), classes
                       in zip(fixed, universe, strict=True)]
        self.used = sum(draw.count for _, draw in fixed)
        self._one_hot = [stage.one_hot() for stage in self.stages]
        # one record type for the game and its deal: checked here, where the reader is made
        self._reader: HandReader[Any] = HandReader(game, deal, fixed,
                                             [stage.hands for stage in self.stages])
        self._grids: dict[Bet, _Grid] = {}
        self._events: dict[Bet, tuple[list[np.ndarray], np.ndarray]] = {}
        if len(self.stages) == 2:
            self._shared_pairs()

    def _shared_pairs(self) -> None:
        """The pairs of hands that share a class of the second view, with the cards of that
        class the first hand took before each position of the second."""
        first, second = self.stages
        coarser = np.array([second.view.index[first.view.coarsen(label, second.view)]
                            for label in first.view.labels], dtype=np.int64)
        taken = np.zeros((len(first.groups), len(second.view.labels)), dtype=np.int64)
        for position in range(first.groups.shape[1]):
            np.add.at(taken, (np.arange(len(first.groups)), coarser[first.groups[:, position]]),
                      1)
        overlap = taken[:, second.groups]  # (first groups x second groups x positions)
        self._shared_first, self._shared_second = np.nonzero(overlap.any(axis=2))
        offsets = (overlap[self._shared_first, self._shared_second]
                   + second.repeats[self._shared_second])
        # A second hand's weight given the first depends only on the cards of its classes
        # the first took: ~7,000 distinct keys weigh the ~140,000 pairs.
        radix = int(offsets.max(initial=0)) + 1
        code = self._shared_second.copy()
        for position in range(offsets.shape[1]):
            code = code * radix + offsets[:, position]
        codes, self._shared_key = np.unique(code, return_inverse=True)
        self._shared_key = self._shared_key.reshape(-1)
        self._key_offsets = np.empty((len(codes), offsets.shape[1]), dtype=np.int64)
        for position in range(offsets.shape[1] - 1, -1, -1):
            codes, self._key_offsets[:, position] = np.divmod(codes, radix)
        self._key_second = codes

    def events(self, bet: Bet) -> tuple[list[np.ndarray], np.ndarray]:
        """Per stage, every hand's signature, and the settling event of every combination of
        signatures (a vector for one stage, a matrix for two): read once per bet."""
        if bet not in self._events:
            self._events[bet] = self._reader.signatures(bet)
        return self._events[bet]

    def cross_reads(self, bet: Bet) -> int:
        """The reads of features of both hands that :meth:`events` takes for ``bet`` (0 once
        read): one per pair of hands as such a feature sees them, the cost that counts (the
        nines-by-suit bet, reading both hands' suits: 2.7 million; NINES: 6,050)."""
        return 0 if bet in self._events else self._reader.cross_reads(bet)

    def _grid(self, bet: Bet) -> _Grid:
        if bet not in self._grids:
            signatures, grid = self.events(bet)
            events = len(bet.events)
            if len(signatures) == 1:
                self._grids[bet] = _Grid(Segments.of(grid[signatures[0]], events))
            else:
                first, second = signatures
                event = grid[first[self._shared_first], second[self._shared_second]]
                shared = Segments.of(event, events)
                hands = len(self.stages[0].groups)
                derived = int(np.bincount(event, minlength=events).argmax())
                kept = event != derived
                row = event[kept] - (event[kept] > derived)  # the events but the derived one
                excess = (row * hands + self._shared_first[kept], self._shared_key[kept],
                          ((events - 1) * hands, len(self._key_second)))
                self._grids[bet] = _Grid(Segments.of(first, grid.shape[0]),
                                         Segments.of(second, grid.shape[1]),
                                         Segments.of(grid.ravel(), events), shared,
                                         self._shared_first[shared.order],
                                         self._shared_key[shared.order], excess, derived)
        return self._grids[bet]

    def counts(self, bets: Sequence[Bet], counts: np.ndarray) -> list[np.ndarray]:
        """Per bet, a (shoes x events) array of exact counts over ``N!/(N-r)!`` for a batch of
        shoes ((shoes x 53) card counts): int64 when ``N**r`` fits, Python ints beyond."""
        matrix = check_batch(self.deal, counts)
        self._check_universe(matrix)
        grids = [self._grid(bet) for bet in bets]
        blocks = [self._block(grids, matrix[start:start + _BLOCK])
                  for start in range(0, len(matrix), _BLOCK)]
        sizes = shoe_sizes(matrix)
        unit = self.deal.round_cards
        dtype = np.int64 if batch_dtype(int(sizes.max(initial=0)), unit) is not object else object
        fill = rest_of_round(sizes, self.used, unit, dtype)[:, None]
        totals = rest_of_round(sizes, 0, unit, dtype)
        out = []
        for index, bet in enumerate(bets):
            per_bet = (np.vstack([block[index] for block in blocks]) if blocks
                       else np.zeros((0, len(bet.events)), dtype=np.int64))
            result = per_bet.astype(dtype) * fill
            if not np.array_equal(result.sum(axis=1), totals):
                raise AssertionError(f"{bet.id}: staged counts do not sum to N!/(N-r)!")
            out.append(result)
        return out

    def _check_universe(self, matrix: np.ndarray) -> None:
        for stage, classes, one_hot in zip(self.stages, self.universe, self._one_hot,
                                           strict=True):
            outside = np.setdiff1d(np.arange(len(stage.view.labels)), classes)
            if (matrix @ one_hot)[:, outside].any():
                raise ValueError("a shoe holds cards outside this staged deal's classes")

    def _block(self, grids: Sequence[_Grid], matrix: np.ndarray) -> list[np.ndarray]:
        """Per bet, (shoes x events) counts of the fixed groups (before the fill)."""
        # N**used bounds every weight, product and sum below (module docstring).
        wide = batch_dtype(int(shoe_sizes(matrix).max()), self.used) is object
        dtype: type = object if wide else np.int64
        classes = [(matrix @ one_hot).astype(dtype) for one_hot in self._one_hot]
        first = self.stages[0]
        weights = first.coefficient.astype(dtype) * falling_products(
            classes[0], first.groups, first.repeats)
        if len(self.stages) == 1:
            return [grid.first.sums(weights) for grid in grids]
        second = self.stages[1]
        own = falling_products(classes[1], second.groups, second.repeats)
        given = falling_products(classes[1], second.groups[self._key_second],
                                  self._key_offsets)
        # The product of both hands' own weights overstates a shared-class pair by the first
        # hand's weight times ``overstated``: non-negative, since every factor given the first
        # hand is at most its own.
        overstated = second.coefficient[self._key_second].astype(dtype) * (
            own[:, self._key_second] - given)
        if (overstated < 0).any():  # cheap (a few thousand keys), and guards the clipping
            raise AssertionError("staged weights: a hand weighs more given the first hand")
        second_weights = second.coefficient.astype(dtype) * own
        # every pair of hands by the product of their own weights, less the ordered sequences
        # of the first cards: the excess of all the shared-class pairs together
        total_excess = weights.sum(axis=1) * second_weights.sum(axis=1) - rest_of_round(
            shoe_sizes(matrix), 0, self.used, dtype)
        out = []
        for grid in grids:
            assert grid.second is not None and grid.pairs is not None and grid.shared is not None
            by_first, by_second = grid.first.sums(weights), grid.second.sums(second_weights)
            products = (by_first[:, :, None] * by_second[:, None, :]).reshape(len(matrix), -1)
            out.append(grid.pairs.sums(products)
                       - self._excess(grid, weights, overstated, total_excess))
        return out


    @staticmethod
    def _excess(grid: _Grid, weights: np.ndarray, overstated: np.ndarray,
                total: np.ndarray) -> np.ndarray:
        """(shoes x events): the sum over the shared-class pairs of each event of the first
        hand's weight times the overstatement of the second's (``total``: over every event).

        In int64, one sparse product (keys to first hands, by event) and a product with the
        first hands' weights, for every event but the one most pairs settle, which takes the
        rest of ``total``: every value a non-negative sum of terms of the exact excess, at
        most ``N**used`` (the bound that chose int64). The per-bet check that counts sum to
        ``N!/(N-r)!`` then holds by construction; the derived excess is checked to be
        non-negative instead. Python integers, or a few shoes while the sparse matrix is not
        built (loading scipy costs more than gathering them): every pair gathered, exact in
        either type by the same bound, and checked against ``total``."""
        if weights.dtype == object or (
                len(weights) <= _GATHERED_SHOES and "excess" not in vars(grid)):
            assert grid.shared is not None
            excess = grid.shared.sorted_sums(
                weights[:, grid.shared_first] * overstated[:, grid.shared_key])
            if not np.array_equal(excess.sum(axis=1), total):
                raise AssertionError("staged excess does not add up to the total excess")
            return excess
        by_first = grid.excess @ overstated.T
        hands = weights.shape[1]
        by_first = by_first.reshape(-1, hands, weights.shape[0])
        others = np.einsum("ehs,sh->se", by_first, weights)
        derived = total - others.sum(axis=1)
        if (derived < 0).any():
            raise AssertionError("staged excess: the events' excesses pass the total")
        return np.insert(others, grid.derived, derived, axis=1)
