"""The evaluation side of class-by-class counting (:mod:`exact.engines.classes`): its compiled
arrays, shoe-independent, evaluated for a batch of shoes in a few numpy operations per depth of
the product trie.

Layer: engines, above the model; the engines know no game (the games call them).

A compiled bet is (see :mod:`exact.engines.classes`): elementary falling factorials of class
counts; terms (products of elementary factors with integer coefficients) summed into factors
(a value class's piece values); a trie whose edges multiply a slot of one depth by a factor and
add the product into a slot of the next depth; leaves (depth, slot, fill) with integer
coefficients per event, ``fill`` the falling factorial of the rest of the shoe. This module
evaluates them, shoes along the last axis of every array, in blocks of shoes sized so that a
depth's gathered products stay in the cache (a block past it costs 3-4x: page faults and memory
traffic, not arithmetic).

Exactness: every value computed counts ordered card sequences of a round or of part of it, and
every partial sum of a sum computed is itself such a count: non-negative integers at most
``N**r`` (``r`` the round's cards), so float64 holds them exactly below ``2**53``, int64 below
``2**63``, Python integers beyond (:func:`exact.engines.batch_numbers.batch_dtype`, chosen by the
caller). The leaves are summed by sparse matrix products (their partial sums are again counts
of sequences of the cards dealt, times a fill of at least 1: bounded by the same ``N**r``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from exact.core.cards import CARDS
from exact.engines.batch_numbers import INT64_LIMIT
from exact.engines.factorised import _product_trie

# elements of a depth's gathered products per block of shoes: 8 MB of float64, in the cache
# of this machine's cores with the slots they are summed into (measured: 2**23 elements, the
# earlier bound, ran 3-4x slower)
_BLOCK_ELEMENTS = 2**20
_MOST_SHOES = 256  # per block, where a trie is narrow
_FEWEST_SHOES = 16  # per block, where it is wide: a depth's loop over its factors is paid per block


@dataclass(frozen=True)
class _Sums:
    """Weighted sums of rows: output row ``labels[i]`` adds ``weights[i]`` (1 when none) times
    input row ``columns[i]`` (``i`` when none). A sparse (groups x rows) matrix, whose product
    is 7-12x faster than numpy's ``reduceat`` along the rows (measured on the tries of the
    issue's bets); for Python integers, which scipy's products do not hold, a dense product."""

    labels: np.ndarray
    groups: int
    columns: np.ndarray | None = None
    weights: np.ndarray | None = None
    width: int | None = None

    @cached_property
    def _matrix(self) -> Any:
        from scipy import sparse

        entries = len(self.labels)
        columns = np.arange(entries) if self.columns is None else self.columns
        weights = np.ones(entries, dtype=np.int64) if self.weights is None else self.weights
        return sparse.csr_array((weights, (self.labels, columns)), shape=(
            self.groups, entries if self.width is None else self.width))

    @cached_property
    def _typed(self) -> dict[Any, Any]:
        return {}

    @cached_property
    def _grouped(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The entries by output row: their order, the rows present, where each starts."""
        order = np.argsort(self.labels, kind="stable")
        present, starts = np.unique(self.labels[order], return_index=True)
        return order, present, starts, np.arange(len(self.labels))

    def _python_sums(self, values: np.ndarray) -> np.ndarray:
        order, present, starts, entries = self._grouped
        columns = entries if self.columns is None else self.columns
        terms = values[columns[order]]
        if self.weights is not None:
            terms = terms * self.weights[order].astype(object)[:, None]
        out = np.zeros((self.groups, values.shape[1]), dtype=object)
        if len(starts):
            out[present] = np.add.reduceat(terms, starts, axis=0)
        return out

    def sums(self, values: np.ndarray) -> np.ndarray:
        """(groups x shoes) sums of the rows of ``values``, weighted."""
        if values.dtype == object:
            return self._python_sums(values)
        matrix = self._typed.get(values.dtype)
        if matrix is None:
            matrix = self._typed[values.dtype] = self._matrix.astype(values.dtype)
        return np.asarray(matrix @ values)


@dataclass(frozen=True)
class ClassArrays:
    """A compiled bet's arrays (as :mod:`exact.engines.classes` stores them) and what their
    evaluation needs of the bet: its classes' cards, its events, its free positions."""

    elementary: np.ndarray  # (kind, what, how many) per elementary falling factorial
    term_rows: np.ndarray  # each term's elementary factors (padded with 0: the factor 1)
    term_coefficient: np.ndarray
    term_factor: np.ndarray  # the factor each term is summed into
    factors: int
    slots: np.ndarray  # per depth of the trie, its slots
    level_edges: np.ndarray  # per depth past the root, its edges
    edges: np.ndarray  # (slot before, factor, slot after), by depth then slot after
    rows: np.ndarray  # the leaves: (depth, slot, fill)
    coefficients: np.ndarray  # (leaves x events)
    members: Sequence[Sequence[int]]  # per class, its cards (indices of CARDS)
    free_cards: int
    spread: int = 1  # signed coefficients' bound (exact.engines.classes_restricted); 1: none

    @property
    def events(self) -> int:
        return int(self.coefficients.shape[1])

    @cached_property
    def _terms(self) -> tuple[Any, np.ndarray, _Sums]:
        """The terms' product trie, in the order of the factor each is summed into."""
        order = np.argsort(self.term_factor, kind="stable")
        return (_product_trie(self.term_rows[order]), order,
                _Sums(self.term_factor[order], self.factors))

    @cached_property
    def _levels(self) -> list[tuple[np.ndarray, list[tuple[int, int, int]], _Sums]]:
        """Per depth past the root: its edges' slots before, in the order of their factor;
        the runs of edges of one factor (factor, first, end); the sums into the slots they
        reach. A run multiplies its gathered slots by one row of factor values, broadcast:
        no gather of the factor values (measured 3x the cost of that loop)."""
        levels = []
        ends = np.cumsum(self.level_edges)
        for depth in range(1, len(self.slots)):
            mine = self.edges[ends[depth - 1] - self.level_edges[depth - 1]:ends[depth - 1]]
            mine = mine[np.lexsort((mine[:, 0], mine[:, 1]))]
            factors, firsts = np.unique(mine[:, 1], return_index=True)
            bounds = [*firsts.tolist(), len(mine)]
            runs = [(int(f), bounds[n], bounds[n + 1]) for n, f in enumerate(factors.tolist())]
            levels.append((np.ascontiguousarray(mine[:, 0]), runs,
                           _Sums(np.ascontiguousarray(mine[:, 2]), int(self.slots[depth]))))
        return levels

    @cached_property
    def _leaves(self) -> list[tuple[int, int, _Sums]]:
        """Per (depth, fill) of the leaves: the (events x slots of the depth) matrix of their
        coefficients, as sums (:class:`_Sums`: no gather of the slots read)."""
        out = []
        for depth, fill in sorted({(int(d), int(f)) for d, _, f in self.rows.tolist()}):
            chosen = np.flatnonzero((self.rows[:, 0] == depth) & (self.rows[:, 2] == fill))
            block = self.coefficients[chosen]  # (leaves x events)
            leaf, event = np.nonzero(block)
            out.append((depth, fill, _Sums(event, self.events, self.rows[chosen, 1][leaf],
                                           block[leaf, event], int(self.slots[depth]))))
        return out

    @cached_property
    def _class_hot(self) -> np.ndarray:
        """(classes + 10 values) x 53: which cards each class and each value class holds."""
        hot = np.zeros((len(self.members) + 10, len(CARDS)), dtype=np.int64)
        for number, cards in enumerate(self.members):
            hot[number, list(cards)] = 1
        for index, card in enumerate(CARDS):
            if card.value is not None:
                hot[len(self.members) + card.value, index] = 1
        return hot

    def _elementary_table(self, matrix: np.ndarray, sizes: np.ndarray, dtype: Any
                          ) -> np.ndarray:
        """(elementary factors x shoes): each falling factorial of a class count, of a value
        class's count less the cards taken, of the rest of the shoe."""
        hot = self._class_hot if matrix.dtype != object else self._class_hot.astype(object)
        counts = hot @ matrix.T
        values = len(self.members)
        table: np.ndarray = np.ones((len(self.elementary), len(matrix)), dtype=dtype)
        unit = self.free_cards
        for row, (kind, what, how) in enumerate(self.elementary.tolist()):
            if kind == 1:
                base, count = counts[what], how
            elif kind == 2:
                base, count = counts[values + what] - how // 16, how % 16
            elif kind == 3:
                base, count = sizes - what, unit - what
            else:
                continue
            for offset in range(count):
                # n(n-1)...: a zero factor once n is passed, so clipping at 0 changes nothing
                table[row] *= np.maximum(base - offset, 0).astype(dtype)
        return table

    def block_size(self) -> int:
        """Shoes per block: a depth's gathered products within ``_BLOCK_ELEMENTS``."""
        widest = max([len(source) for source, _, _ in self._levels] + [1])
        return max(_FEWEST_SHOES, min(_MOST_SHOES, _BLOCK_ELEMENTS // widest))

    def counts(self, matrix: np.ndarray, sizes: np.ndarray, dtype: Any,
               signed: Any = None) -> np.ndarray:
        """(shoes x events) exact counts of the (shoes x 53) ``matrix`` of card counts whose
        shoes hold ``sizes`` cards: products in ``dtype``, the leaves' sums in ``signed``
        (:func:`signed_dtype`; ``dtype`` when None), bounded as the module docstring says."""
        signed = dtype if signed is None else signed
        block = self.block_size()
        blocks = [self._block(matrix[start:start + block], sizes[start:start + block], dtype,
                              signed) for start in range(0, len(matrix), block)]
        return np.vstack(blocks) if blocks else np.zeros((0, self.events), dtype=signed)

    def _block(self, matrix: np.ndarray, sizes: np.ndarray, dtype: Any, signed: Any
               ) -> np.ndarray:
        (term_levels, term_leaf), order, term_sums = self._terms
        shoes = len(matrix)
        table = self._elementary_table(matrix, sizes, dtype)
        terms = _row_products(table, term_levels, term_leaf)
        terms *= self.term_coefficient[order].astype(dtype)[:, None]
        values = term_sums.sums(terms)  # (factors x shoes): each piece outcome
        level: np.ndarray = np.ones((int(self.slots[0]), shoes), dtype=dtype)
        by_depth = [level]
        widest = max([len(source) for source, _, _ in self._levels] + [0])
        # the gathers write into a buffer reused at every depth (no allocation per depth)
        before = np.empty((widest, shoes), dtype=dtype)
        for source, runs, reached in self._levels:
            products = np.take(level, source, axis=0, out=before[:len(source)], mode="clip")
            for factor, first, end in runs:
                run = products[first:end]
                np.multiply(run, values[factor], out=run)
            level = reached.sums(products)
            by_depth.append(level)
        total: np.ndarray = np.zeros((self.events, shoes), dtype=signed)
        if signed is not dtype:  # integers below 2**53 or 2**63: converted exactly, once
            read = {depth for depth, _, _ in self._leaves}
            by_depth = [level.astype(signed) if depth in read else level
                        for depth, level in enumerate(by_depth)]
            table = table.astype(signed)
        for depth, fill, leaves in self._leaves:
            total += leaves.sums(by_depth[depth]) * table[fill]
        return total.T


def signed_dtype(dtype: Any, bound: int, spread: int) -> Any:
    """The number type of the leaves' sums: ``dtype`` when every coefficient is non-negative
    (``spread`` 1: each partial sum a count, at most ``bound``); else int64 when every
    partial sum's magnitude, at most ``spread * bound``, fits, else Python integers."""
    if spread == 1:
        return dtype
    return np.int64 if dtype is not object and spread * bound <= INT64_LIMIT else object


def _row_products(table: np.ndarray, levels: list[tuple[np.ndarray, np.ndarray]],
                  leaf: np.ndarray) -> np.ndarray:
    """(rows x shoes): each row's product of factors of ``table`` (factors x shoes), along
    the trie of :func:`exact.engines.factorised._product_trie` (rows of shoes, not columns)."""
    values = np.ones((1, table.shape[1]), dtype=table.dtype)
    for parents, factors in levels:
        values = values[parents]
        values *= table[factors]
    return values[leaf] if levels else np.ones((len(leaf), table.shape[1]), table.dtype)
