"""The compiled fast path of the enumerator: a deal as a polynomial in the shoe's counts.

Layer: engines, above the model; the engines know no game (the games call them).

Walk a deal once over card *classes* instead of counts. Each finished round is a sequence of
classes; its weight for any shoe is the product, over its draws, of ``count(class) - offset``
(``offset`` = cards of that class drawn before it), times the falling factorial of the rest of
the shoe. Rounds that share a record and a multiset of such factors are merged with an integer
coefficient. Evaluating a shoe is then a few numpy gathers and products.

Exactness: every term is a product of non-negative integers or contains a zero factor (a class
cannot be drawn more often than it has cards), so each term, and every partial sum, is bounded
by the denominator ``N!/(N-r)!``. When ``N**r`` fits in int64 the evaluation of one shoe uses
int64 (bounding every intermediate product: :meth:`CompiledDeal.term_weights`); otherwise it
falls back to Python integers.

Batches (:meth:`CompiledDeal.batch_type`, :meth:`Projection.batch_counts`,
:class:`BatchProjection`) evaluate many shoes at once, a matrix of shoes x factors. Terms share
prefixes of their (sorted) factor lists, so they are built as a trie, one multiplication per
node. Every node and every sum stays within the bound above, so a batch runs in the number type
:func:`~exact.engines.batch_numbers.batch_dtype` chooses from its largest shoe (float64 below
``2**53``, int64, else Python integers: the bound is stated there). Every batch is checked: the
counts of each group set must sum to ``N!/(N-r)!`` for every shoe.

The compiled forms are kept on disk, and the compiled engine's entries read them, in
:mod:`exact.engines.compiled_store`; the pure-Python evaluator that mirrors this one, for
processes without numpy, is :mod:`exact.engines.compiled_python`.

Typing: :class:`CompiledDeal` takes its deal's record type as its type parameter, so the
records it hands out (``records``, :meth:`CompiledDeal.distribution`) keep their game's type.
Records read back from the disk cache are taken as the deal's
(:mod:`exact.engines.compiled_store`). The projections and batches below never read a record:
they take a ``CompiledDeal[Record]``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, Generic, cast

import numpy as np

from exact.core.cards import CARDS, JOKER, Label, Shoe, View
from exact.core.enumerator import (
    Deal,
    Distribution,
    Draw,
    Record,
    RecordT,
    RecordT_co,
    State,
    check_shoe,
    falling,
    group_coefficient,
    without_collections,
)
from exact.core.work import Meter
from exact.engines.batch_numbers import (
    INT64_LIMIT,
    Segments,
    batch_dtype,
    check_batch,
    rest_of_round,
    shoe_sizes,
)

if TYPE_CHECKING:  # numpy.typing is for the checker only: a command need not import it
    from numpy.typing import DTypeLike

_BLOCK = 64  # shoes per block of a batch: its trie levels stay in the cache (~2 MB)
Factor = tuple[View, int, int]  # (view, class index, offset)


# frozen: never reassigned, as its record type is covariant; eq=False: arrays have no ==
@dataclass(frozen=True, eq=False)
class CompiledDeal(Generic[RecordT_co]):
    """A deal compiled to integer coefficients over products of class counts.

    Type parameter: the type of its deal's records (:class:`~exact.core.enumerator.Deal`),
    covariant like the deal's: code that reads no record takes a ``CompiledDeal[Record]``.
    """

    deal: Deal[RecordT_co]
    factors: list[Factor]
    terms: list[tuple[tuple[int, ...], int]]  # (factor ids, cards used)
    records: Sequence[RecordT_co]  # a list, or lazily built from the disk cache
    leaf_term: np.ndarray
    leaf_record: np.ndarray
    leaf_coefficient: np.ndarray

    @classmethod
    def compile(cls: type[CompiledDeal[RecordT]], deal: Deal[RecordT]) -> CompiledDeal[RecordT]:
        factor_id: dict[tuple[int, int, int], int] = {}  # (view number, class, offset)
        term_id: dict[tuple[tuple[int, ...], int], int] = {}
        record_id: dict[RecordT, int] = {}
        # One object for the tuple parts of different records made of the same objects (a
        # Banker hand of the view's labels beside many Player hands): fewer objects alive, and
        # the disk cache encodes each object once. Known by their items' identities, which is
        # cheaper than hashing them and never merges parts that are equal across types
        # (True == 1); every item stays alive in the part kept, so no identity is reused.
        tuples: dict[tuple[int, ...], tuple[object, ...]] = {}
        share = tuples.setdefault
        leaves: dict[tuple[int, int], int] = defaultdict(int)

        # per view met: its number in the factor keys and, per number of cards drawn at once,
        # the groups of classes a draw may take with their labels and orderings (worked out
        # once per view, not at each of the walk's hundred thousand nodes)
        Groups = list[tuple[tuple[int, ...], tuple[Label, ...], int]]
        Known = tuple[int, dict[int, Groups]]
        views: dict[View, Known] = {}

        def about(view: View) -> Known:
            if view not in views:
                views[view] = (len(views), {})
            return views[view]

        def groups_of(view: View, known: Known, count: int) -> Groups:
            found = known[1].get(count)
            if found is None:
                universe = [i for i, label in enumerate(view.labels)
                            if deal.accepts_jokers or label.rank != JOKER]
                found = known[1][count] = [
                    (group, tuple(view.labels[i] for i in group), group_coefficient(group))
                    for group in combinations_with_replacement(universe, count)]
            return found

        # drawn from the run's work budget as it goes (ranks and suits with the third cards:
        # billions of leaves)
        meter = Meter("the compiled walk of this deal")

        def leaf(state: State, factors: tuple[int, ...], coefficient: int) -> None:
            meter.tick()
            term = term_id.setdefault((tuple(sorted(factors)), len(factors)), len(term_id))
            record = deal.record(state)
            number = record_id.get(record)
            if number is None:
                if type(record) is tuple:  # tuple parts made one object: see ``tuples``
                    # (a plain tuple of parts of the same types: the same record type)
                    record = cast(RecordT, tuple([
                        share(tuple(map(id, part)), part) if type(part) is tuple else part
                        for part in record]))
                number = record_id[record] = len(record_id)
            leaves[term, number] += coefficient

        def walk(state: State, draw: Draw, view: View, known: Known,
                 seen: list[int], factors: tuple[int, ...], coefficient: int) -> None:
            # ``draw`` is the state's next draw, asked by the caller: a child that draws no
            # more (most of them: the leaves) is finished there, without a call of its own
            if draw.view is not view and draw.view != view:
                seen, view = view.regroup(seen, draw.view), draw.view
                known = about(view)
            number = known[0]
            for group, labels, orderings in groups_of(view, known, draw.count):
                after = seen.copy()
                added = []
                for index in group:
                    offset = after[index]
                    added.append(factor_id.setdefault((number, index, offset), len(factor_id)))
                    after[index] = offset + 1
                child = deal.advance(state, labels)
                following = deal.next_draw(child)
                if following is None:
                    leaf(child, factors + tuple(added), coefficient * orderings)
                else:
                    walk(child, following, view, known, after, factors + tuple(added),
                         coefficient * orderings)

        start = View(("rank", "suit"))
        with without_collections():
            first = deal.next_draw(deal.start())
            if first is None:  # a deal of no cards
                leaf(deal.start(), (), 1)
            else:
                walk(deal.start(), first, start, about(start), [0] * len(start.labels), (), 1)
            numbered = list(views)
            keys = list(leaves)
            compiled = cls(
                deal=deal,
                factors=[(numbered[number], index, offset)
                         for number, index, offset in factor_id],
                terms=list(term_id),
                records=list(record_id),
                leaf_term=np.array([t for t, _ in keys], dtype=np.int64),
                leaf_record=np.array([r for _, r in keys], dtype=np.int64),
                leaf_coefficient=np.array([leaves[k] for k in keys], dtype=np.int64),
            )
        # The recursive closure refers to itself, so it and the tables it holds are freed only
        # by the collector, which would then walk a hundred thousand records again (they hold
        # Labels, which it never skips): emptied now, only the small cycle is left to it.
        for table in (factor_id, term_id, record_id, leaves, tuples):
            table.clear()
        return compiled

    @cached_property
    def term_totals(self) -> np.ndarray:
        """Per term, the sum of its leaves' coefficients (what any grouping of the records
        must add up to, term by term)."""
        totals = np.zeros(len(self.terms), dtype=np.int64)
        np.add.at(totals, self.leaf_term, self.leaf_coefficient)
        return totals

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

    def _factor_values(self, shoe: Shoe, dtype: DTypeLike) -> np.ndarray:
        counts_by_view: dict[View, list[int]] = {}
        values: np.ndarray = np.empty(len(self.factors), dtype=dtype)
        for index, (view, label_index, offset) in enumerate(self.factors):
            if view not in counts_by_view:
                counts_by_view[view] = view.class_counts(shoe)
            values[index] = counts_by_view[view][label_index] - offset
        return values

    def term_weights(self, shoe: Shoe) -> np.ndarray:
        """Exact weight of every term for ``shoe``; int64 when it cannot overflow, else objects."""
        check_shoe(self.deal, shoe)
        size, unit = shoe.size, self.deal.round_cards
        dtype: DTypeLike = np.int64 if size**unit <= INT64_LIMIT else object
        values = self._factor_values(shoe, dtype)
        weights: np.ndarray = np.zeros(len(self.terms), dtype=dtype)
        for ids, matrix, used in self._term_arrays:
            product: np.ndarray = np.ones(len(ids), dtype=dtype)
            for column in range(used):
                product = product * values[matrix[:, column]]
            weights[ids] = product * falling(size - used, unit - used)
        return weights

    @cached_property
    def _trie(self) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[tuple[int, np.ndarray,
                                                                               np.ndarray]]]:
        """Terms as a trie of their sorted factor lists: per depth, (parent node, factor id) of
        each node; per cards used, (cards used, term ids, node at that depth)."""
        node_of: list[dict[tuple[int, ...], int]] = [{(): 0}]
        depth = max((used for _, used in self.terms), default=0)
        node_of += [{} for _ in range(depth)]
        levels: list[tuple[list[int], list[int]]] = [([], []) for _ in range(depth + 1)]
        for factors, _ in sorted(self.terms):  # sorted: parents ascend, gathers stream
            for length in range(1, len(factors) + 1):
                prefix = factors[:length]
                if prefix not in node_of[length]:
                    node_of[length][prefix] = len(node_of[length])
                    levels[length][0].append(node_of[length - 1][prefix[:-1]])
                    levels[length][1].append(prefix[-1])
        trie = [(np.array(parents, dtype=np.int64), np.array(factor_ids, dtype=np.int64))
                for parents, factor_ids in levels]
        by_used: dict[int, list[int]] = defaultdict(list)
        for index, (_, used) in enumerate(self.terms):
            by_used[used].append(index)
        ends = [(used, np.array(ids, dtype=np.int64),
                 np.array([node_of[used][self.terms[i][0]] for i in ids], dtype=np.int64))
                for used, ids in sorted(by_used.items())]
        return trie, ends

    @cached_property
    def _views(self) -> dict[View, tuple[np.ndarray, np.ndarray]]:
        """Per view: (card x class one-hot matrix, rows of (factor id, class index, offset))."""
        grouped: dict[View, list[tuple[int, int, int]]] = defaultdict(list)
        for factor_id, (view, class_index, offset) in enumerate(self.factors):
            grouped[view].append((factor_id, class_index, offset))
        out = {}
        for view, rows in grouped.items():
            one_hot = np.zeros((len(CARDS), len(view.labels)), dtype=np.int64)
            one_hot[np.arange(len(CARDS)), view.card_class] = 1
            out[view] = (one_hot, np.array(rows, dtype=np.int64))
        return out

    def batch_type(self, sizes: np.ndarray, wider: DTypeLike | None = None) -> DTypeLike:
        """The number type of a batch of shoes of ``sizes`` cards (:func:`batch_dtype`), or the
        wider ``wider`` (int64 or object) when asked; ValueError if it cannot hold the batch."""
        dtype: DTypeLike = batch_dtype(int(sizes.max()) if len(sizes) else 0,
                                       self.deal.round_cards)
        if wider is not None:
            order: list[DTypeLike] = [np.float64, np.int64, object]
            if wider not in order or order.index(wider) < order.index(dtype):
                raise ValueError(f"{wider} cannot hold this batch exactly; needs {dtype}")
            dtype = wider
        return dtype

    def batch_levels(self, counts: np.ndarray, dtype: DTypeLike) -> list[np.ndarray]:
        """Per depth ``d`` of the trie of terms, a (nodes x shoes) array: each node's product of
        its ``d`` factors for every shoe of ``counts`` (checked, :func:`check_batch`).

        Every node is a product of falling factorials of class counts (the offsets of a class
        enter a term in increasing order, and so do their factor ids): a non-negative integer
        at most ``N**d``, exact in ``dtype`` by the module docstring's bound.
        """
        shoes = counts.shape[0]
        values: np.ndarray = np.empty((len(self.factors), shoes), dtype=dtype)
        for one_hot, rows in self._views.values():
            class_counts = (one_hot.T @ counts.T)  # classes x shoes, small exact integers
            values[rows[:, 0]] = (class_counts[rows[:, 1]] - rows[:, 2:3]).astype(dtype)
        trie, _ = self._trie
        level: list[np.ndarray] = [np.ones((1, shoes), dtype=dtype)]
        for parents, factor_ids in trie[1:]:
            # gathers into one new array, multiplied in place: no temporaries
            node = np.take(level[-1], parents, axis=0)
            node *= np.take(values, factor_ids, axis=0)
            level.append(node)
        return level

    def project(self, group_of_record: np.ndarray, groups: int) -> Projection:
        """Merge leaves whose records fall in the same group (e.g. the events of a bet)."""
        group = np.asarray(group_of_record, dtype=np.int64)[self.leaf_record]
        keys = self.leaf_term * groups + group
        unique, inverse = np.unique(keys, return_inverse=True)
        coefficients = np.zeros(len(unique), dtype=np.int64)
        np.add.at(coefficients, inverse, self.leaf_coefficient)
        return Projection(self, unique // groups, unique % groups, coefficients, groups)

    def distribution(self, shoe: Shoe) -> Distribution[RecordT_co]:
        """The same :class:`Distribution` as :func:`exact.core.enumerator.enumerate_rounds`."""
        counts = self.project(np.arange(len(self.records)), len(self.records)).counts(shoe)
        return Distribution.build(dict(zip(self.records, counts, strict=True)), self.deal, shoe)


@dataclass(frozen=True)
class Projection:
    """A compiled deal with its records mapped to a few groups: exact counts per group."""

    compiled: CompiledDeal[Record]
    term: np.ndarray
    group: np.ndarray
    coefficient: np.ndarray
    groups: int

    def counts(self, shoe: Shoe) -> list[int]:
        return self.counts_of(self.compiled.term_weights(shoe))

    @cached_property
    def _by_group(self) -> tuple[np.ndarray, np.ndarray, Segments]:
        """Terms and coefficients sorted by group, once: a shoe is then a gather, a product
        and one segmented sum (:meth:`counts_of`)."""
        segments = Segments.of(self.group, self.groups)
        return self.term[segments.order], self.coefficient[segments.order], segments

    def counts_of(self, weights: np.ndarray) -> list[int]:
        """Exact counts per group from the deal's term weights of one shoe (shared by every
        projection of the deal: :meth:`CompiledDeal.term_weights`)."""
        term, coefficient, segments = self._by_group
        if coefficient.dtype != weights.dtype:
            coefficient = coefficient.astype(weights.dtype)
        leaves = coefficient * weights[term]
        return [int(total) for total in segments.sorted_sums(leaves[np.newaxis, :])[0]]


    def batch_counts(self, counts: np.ndarray) -> np.ndarray:
        """Exact counts per group for a batch of shoes: a (shoes x groups) array of int64 or
        Python ints (see :meth:`CompiledDeal.batch_type`)."""
        matrix = np.zeros((len(self.compiled.terms), self.groups), dtype=np.int64)
        np.add.at(matrix, (self.term, self.group), self.coefficient)
        return BatchProjection(self.compiled, matrix, (self.groups,)).counts(counts)[0]


@dataclass(frozen=True)
class BatchProjection:
    """Several group sets over one compiled deal (e.g. the events of several bets), evaluated
    for a batch of shoes in one product: counts = term weights x ``matrix`` (terms x groups).

    ``sizes`` splits the columns of ``matrix`` into group sets; each set partitions the rounds,
    so its counts sum to ``N!/(N-r)!`` for every shoe, which :meth:`counts` checks.
    """

    compiled: CompiledDeal[Record]
    matrix: np.ndarray
    sizes: tuple[int, ...]

    @classmethod
    def build(cls, compiled: CompiledDeal[Record],
              group_sets: Sequence[tuple[np.ndarray, int]]) -> BatchProjection:
        """From (group of each record, number of groups) pairs, one per group set."""
        total = sum(groups for _, groups in group_sets)
        matrix = np.zeros((len(compiled.terms), total), dtype=np.int64)
        start = 0
        for group_of_record, groups in group_sets:
            column = start + np.asarray(group_of_record, dtype=np.int64)[compiled.leaf_record]
            np.add.at(matrix, (compiled.leaf_term, column), compiled.leaf_coefficient)
            start += groups
        return cls(compiled, matrix, tuple(groups for _, groups in group_sets))

    def _by_depth(self, dtype: DTypeLike) -> list[tuple[int, np.ndarray]]:
        """Per number of cards used, the (groups x trie nodes at that depth) coefficients:
        each term is the one node of its full factor list, so the counts of a batch are
        sums of products of the trie levels (:meth:`counts`), no gather of terms."""
        cache: dict[DTypeLike, list[tuple[int, np.ndarray]]] = self.__dict__.setdefault(
            "_by_dtype", {})
        if dtype not in cache:
            trie, ends = self.compiled._trie
            depths: list[tuple[int, np.ndarray]] = []
            for used, term_ids, nodes in ends:
                by_node = np.zeros((len(trie[used][0]) if used else 1, self.matrix.shape[1]),
                                   dtype=np.int64)
                by_node[nodes] = self.matrix[term_ids]
                depths.append((used, np.ascontiguousarray(by_node.T.astype(dtype))))
            cache[dtype] = depths
        return cache[dtype]

    def counts(self, counts: np.ndarray, wider: DTypeLike | None = None) -> list[np.ndarray]:
        """Per group set, a (shoes x groups) array of exact counts (int64, or Python ints when
        the denominator exceeds int64); ``wider`` as in :meth:`CompiledDeal.batch_type`.

        Per depth ``u``, the coefficients times the trie level sum the ordered ``u``-card
        sequences of the rounds that use ``u`` cards, by group: non-negative integers at most
        ``N**u``, each partial sum too, whatever order BLAS adds them in; times the rest of
        the round, at most ``N!/(N-r)!``. So every value stays within the number type's bound.
        """
        counts = check_batch(self.compiled.deal, counts)
        sizes = shoe_sizes(counts)
        unit = self.compiled.deal.round_cards
        dtype = self.compiled.batch_type(sizes, wider)
        depths = self._by_depth(dtype)
        blocks = []
        with _single_threaded_blas():
            for start in range(0, max(len(counts), 1), _BLOCK):
                # blocks of a few dozen shoes keep the trie levels in the cache
                block = counts[start:start + _BLOCK]
                level = self.compiled.batch_levels(block, dtype)
                rest = _falling_rows(sizes[start:start + _BLOCK], unit, dtype)
                total: np.ndarray = np.zeros((self.matrix.shape[1], block.shape[0]),
                                             dtype=dtype)
                for used, coefficients in depths:
                    total += (coefficients @ level[used]) * rest[used]
                blocks.append(total.T.astype(np.int64) if dtype == np.float64 else total.T)
        result = np.vstack(blocks)
        totals = rest_of_round(sizes, 0, unit, result.dtype)
        out, start = [], 0
        for size in self.sizes:
            block = result[:, start:start + size]
            if not np.array_equal(block.sum(axis=1), totals):
                raise AssertionError("batch counts do not sum to N!/(N-r)!: exactness lost")
            out.append(block)
            start += size
        return out


def _falling_rows(sizes: np.ndarray, unit: int, dtype: DTypeLike) -> np.ndarray:
    """(unit + 1) x shoes: row ``u`` the orderings of the round's last ``unit - u`` cards,
    ``(n - u)!/(n - unit)!`` (as :func:`rest_of_round`), at most ``n**unit``: exact in the
    batch's ``dtype``.

    >>> _falling_rows(np.array([8, 6]), 2, np.int64).tolist()
    [[56, 30], [7, 5], [1, 1]]
    """
    rows: np.ndarray = np.ones((unit + 1, len(sizes)), dtype=dtype)
    for used in range(unit - 1, -1, -1):
        rows[used] = rows[used + 1] * (sizes - used).astype(dtype)
    return rows


_CONTROLLER: list[Any] = []  # the ThreadpoolController, made once (threadpoolctl is untyped)


def _single_threaded_blas() -> AbstractContextManager[object]:
    """BLAS on one thread while a batch runs (when threadpoolctl is installed). The products
    are small (a few dozen groups); BLAS threads gain little on them and, spinning between
    calls, slow the trie products beside them up to 3-4x on a busy machine."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return nullcontext()
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    limited: AbstractContextManager[object] = _CONTROLLER[0].limit(limits=1, user_api="blas")
    return limited


