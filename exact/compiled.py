"""The compiled fast path of the enumerator: a deal as a polynomial in the shoe's counts.

Walk a deal once over card *classes* instead of counts. Each finished round is a sequence of
classes; its weight for any shoe is the product, over its draws, of ``count(class) - offset``
(``offset`` = cards of that class drawn before it), times the falling factorial of the rest of
the shoe. Rounds that share a record and a multiset of such factors are merged with an integer
coefficient. Evaluating a shoe is then a few numpy gathers and products.

Exactness: every term is a product of non-negative integers or contains a zero factor (a class
cannot be drawn more often than it has cards), so each term, and every partial sum, is bounded
by the denominator ``N!/(N-r)!``. When ``N**r`` fits in int64 the evaluation uses int64
(bounding every intermediate product); otherwise it falls back to Python integers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement

import numpy as np

from exact.cards import JOKER, Shoe, View
from exact.enumerator import (
    Deal,
    Distribution,
    Record,
    State,
    check_shoe,
    falling,
    group_coefficient,
)

_INT64_LIMIT = 2**63 - 1
Factor = tuple[View, int, int]  # (view, class index, offset)


@dataclass
class CompiledDeal:
    """A deal compiled to integer coefficients over products of class counts."""

    deal: Deal
    factors: list[Factor]
    terms: list[tuple[tuple[int, ...], int]]  # (factor ids, cards used)
    records: list[Record]
    leaf_term: np.ndarray
    leaf_record: np.ndarray
    leaf_coefficient: np.ndarray

    @classmethod
    def compile(cls, deal: Deal) -> CompiledDeal:
        factor_id: dict[Factor, int] = {}
        term_id: dict[tuple[tuple[int, ...], int], int] = {}
        record_id: dict[Record, int] = {}
        leaves: dict[tuple[int, int], int] = defaultdict(int)

        def walk(state: State, view: View, seen: list[int], factors: tuple[int, ...],
                 coefficient: int) -> None:
            draw = deal.next_draw(state)
            if draw is None:
                term = term_id.setdefault((tuple(sorted(factors)), len(factors)), len(term_id))
                record = record_id.setdefault(deal.record(state), len(record_id))
                leaves[term, record] += coefficient
                return
            if draw.view != view:
                seen, view = view.regroup(seen, draw.view), draw.view
            universe = [i for i, label in enumerate(view.labels)
                        if deal.accepts_jokers or label[1] != JOKER]
            for group in combinations_with_replacement(universe, draw.count):
                after = seen.copy()
                added = []
                for index in group:
                    offset = after[index]
                    added.append(factor_id.setdefault((view, index, offset), len(factor_id)))
                    after[index] = offset + 1
                labels = tuple(view.labels[i] for i in group)
                walk(deal.advance(state, labels), view, after, factors + tuple(added),
                     coefficient * group_coefficient(group))

        start = View(("rank", "suit"))
        walk(deal.start(), start, [0] * len(start.labels), (), 1)
        keys = list(leaves)
        return cls(
            deal=deal,
            factors=list(factor_id),
            terms=list(term_id),
            records=list(record_id),
            leaf_term=np.array([t for t, _ in keys], dtype=np.int64),
            leaf_record=np.array([r for _, r in keys], dtype=np.int64),
            leaf_coefficient=np.array([leaves[k] for k in keys], dtype=np.int64),
        )

    @cached_property
    def _term_arrays(self) -> list[tuple[np.ndarray, np.ndarray, int]]:
        """Terms grouped by cards used: (term ids, factor-id matrix, cards used)."""
        by_length: dict[int, list[int]] = defaultdict(list)
        for index, (_, used) in enumerate(self.terms):
            by_length[used].append(index)
        return [(np.array(ids, dtype=np.int64),
                 np.array([self.terms[i][0] for i in ids], dtype=np.int64).reshape(len(ids), used),
                 used)
                for used, ids in sorted(by_length.items())]

    def _factor_values(self, shoe: Shoe, dtype: type) -> np.ndarray:
        counts_by_view: dict[View, list[int]] = {}
        values = np.empty(len(self.factors), dtype=dtype)
        for index, (view, label_index, offset) in enumerate(self.factors):
            if view not in counts_by_view:
                counts_by_view[view] = view.class_counts(shoe)
            values[index] = counts_by_view[view][label_index] - offset
        return values

    def term_weights(self, shoe: Shoe) -> np.ndarray:
        """Exact weight of every term for ``shoe``; int64 when it cannot overflow, else objects."""
        check_shoe(self.deal, shoe)
        size, unit = shoe.size, self.deal.round_cards
        dtype: type = np.int64 if size**unit <= _INT64_LIMIT else object
        values = self._factor_values(shoe, dtype)
        weights = np.zeros(len(self.terms), dtype=dtype)
        for ids, matrix, used in self._term_arrays:
            product = np.ones(len(ids), dtype=dtype)
            for column in range(used):
                product = product * values[matrix[:, column]]
            weights[ids] = product * falling(size - used, unit - used)
        return weights

    def project(self, group_of_record: np.ndarray, groups: int) -> Projection:
        """Merge leaves whose records fall in the same group (e.g. the events of a bet)."""
        group = np.asarray(group_of_record, dtype=np.int64)[self.leaf_record]
        keys = self.leaf_term * groups + group
        unique, inverse = np.unique(keys, return_inverse=True)
        coefficients = np.zeros(len(unique), dtype=np.int64)
        np.add.at(coefficients, inverse, self.leaf_coefficient)
        return Projection(self, unique // groups, unique % groups, coefficients, groups)

    def distribution(self, shoe: Shoe) -> Distribution:
        """The same :class:`Distribution` as :func:`exact.enumerator.enumerate_rounds`."""
        counts = self.project(np.arange(len(self.records)), len(self.records)).counts(shoe)
        return Distribution.build(dict(zip(self.records, counts, strict=True)), self.deal, shoe)


@dataclass(frozen=True)
class Projection:
    """A compiled deal with its records mapped to a few groups: exact counts per group."""

    compiled: CompiledDeal
    term: np.ndarray
    group: np.ndarray
    coefficient: np.ndarray
    groups: int

    def counts(self, shoe: Shoe) -> list[int]:
        weights = self.compiled.term_weights(shoe)
        leaf = self.coefficient.astype(weights.dtype) * weights[self.term]
        totals = np.zeros(self.groups, dtype=weights.dtype)
        np.add.at(totals, self.group, leaf)
        return [int(t) for t in totals]
