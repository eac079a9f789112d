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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from math import prod
from typing import Any, cast

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
DENSE_ELEMENTS = 2**21  # the dense form: (groups x states x shoes) leaf sums of a block
# the dense form evaluated by edges (DenseArrays.edge_form) from this many shoes on (fewer
# walked by their reached slots: no edges built), within this many (node, state) slots,
# edges and leaf rows (int64 arrays of some 100 MB at most)
_EDGE_SHOES = 8
_SPARSE_SHOES = 8  # sums by sparse products from this many shoes on
_EDGE_LIMIT = 4_000_000
# products (entries x parents' reached states) x shoes of a range of nodes walked by their
# slots (DenseArrays.walk): its index arrays, some ten of int64, stay within the cache; its
# scratch of (node, state) slots x shoes (a bool and a value each)
_RANGE_PRODUCTS = 2**18
_SCRATCH = 2**19
_WALK_SHOES = 16  # per block walked (its loops over the shoes: no gain from larger blocks)
_LOOKUP_ENTRIES = 2**16  # a group of dimensions' table of targets, in the cache


@dataclass(frozen=True)
class _Sums:
    """Weighted sums of rows: output row ``labels[i]`` adds ``weights[i]`` (1 when none) times
    input row ``columns[i]`` (``i`` when none). A sparse (groups x rows) matrix, whose product
    is 7-12x faster than numpy's ``reduceat`` along the rows (measured on the tries of the
    issue's bets); for Python integers, which scipy's products do not hold, and for a few
    shoes, numpy's segmented sums."""

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

    def _segment_sums(self, values: np.ndarray) -> np.ndarray:
        order, present, starts, entries = self._grouped
        columns = entries if self.columns is None else self.columns
        terms = values[columns[order]]
        if self.weights is not None:
            terms = terms * self.weights[order].astype(values.dtype)[:, None]
        out = np.zeros((self.groups, values.shape[1]), dtype=values.dtype)
        if len(starts):
            out[present] = np.add.reduceat(terms, starts, axis=0)
        return out

    def sums(self, values: np.ndarray) -> np.ndarray:
        """(groups x shoes) sums of the rows of ``values``, weighted: by numpy's segmented
        sums for Python integers and for a few shoes (one shoe's analysis then loads no
        scipy, half a second of a fresh process), else by a sparse product."""
        if values.dtype == object or values.shape[1] < _SPARSE_SHOES:
            return self._segment_sums(values)
        matrix = self._typed.get(values.dtype)
        if matrix is None:
            matrix = self._typed[values.dtype] = self._matrix.astype(values.dtype)
        return np.asarray(matrix @ values)


@dataclass(frozen=True)
class Pieces:
    """What both compiled forms share: elementary falling factorials of class counts and the
    terms (products of elementary factors with integer coefficients) summed into factors (a
    value class's piece values), with the bet's classes' cards and its free positions."""

    elementary: np.ndarray  # (kind, what, how many) per elementary falling factorial
    term_rows: np.ndarray  # each term's elementary factors (padded with 0: the factor 1)
    term_coefficient: np.ndarray
    term_factor: np.ndarray  # the factor each term is summed into
    factors: int
    members: Sequence[Sequence[int]]  # per class, its cards (indices of CARDS)
    free_cards: int

    @cached_property
    def _terms(self) -> tuple[Any, np.ndarray, _Sums]:
        """The terms' product trie, in the order of the factor each is summed into."""
        order = np.argsort(self.term_factor, kind="stable")
        return (_product_trie(self.term_rows[order]), order,
                _Sums(self.term_factor[order], self.factors))

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

    def elementary_table(self, matrix: np.ndarray, sizes: np.ndarray, dtype: Any
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
            elif kind == 4:  # a group of classes (a bit mask) less the cards taken of it
                rows = [n for n in range(values) if what >> n & 1]
                base, count = counts[rows].sum(axis=0) - how // 16, how % 16
            else:
                continue
            for offset in range(count):
                # n(n-1)...: a zero factor once n is passed, so clipping at 0 changes nothing
                table[row] *= np.maximum(base - offset, 0).astype(dtype)
        return table

    def values(self, table: np.ndarray) -> np.ndarray:
        """(factors x shoes): each factor's value, of the shoes' elementary ``table``."""
        (term_levels, term_leaf), order, term_sums = self._terms
        terms = _row_products(table, term_levels, term_leaf)
        terms *= self.term_coefficient[order].astype(table.dtype)[:, None]
        return term_sums.sums(terms)


@dataclass(frozen=True)
class ClassArrays:
    """The restricted form's arrays (as :mod:`exact.engines.classes` stores them): a trie
    whose edges multiply a slot of one depth by a factor and add the product into a slot of
    the next depth; leaves (depth, slot, fill) with signed integer coefficients per event."""

    pieces: Pieces
    slots: np.ndarray  # per depth of the trie, its slots
    level_edges: np.ndarray  # per depth past the root, its edges
    edges: np.ndarray  # (slot before, factor, slot after), by depth then slot after
    rows: np.ndarray  # the leaves: (depth, slot, fill)
    entries: np.ndarray  # the leaves' nonzero coefficients: (leaf, column)
    coefficients: np.ndarray  # per entry, its (signed) coefficient
    columns: int
    events: int
    spread: int = 1  # signed coefficients' bound (exact.engines.classes_restricted); 1: none
    # per column: its event, the factors of its numerator, those of its denominator (the
    # number of factors past the last: one); none: the columns are the events
    ratios: np.ndarray | None = None

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
        leaf, column = self.entries.T
        depths, fills = self.rows[leaf, 0], self.rows[leaf, 2]
        for depth, fill in sorted({(int(d), int(f)) for d, _, f in self.rows.tolist()}):
            chosen = np.flatnonzero((depths == depth) & (fills == fill))
            out.append((depth, fill, _Sums(column[chosen], self.columns,
                                           self.rows[leaf[chosen], 1],
                                           self.coefficients[chosen], int(self.slots[depth]))))
        return out

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
        shoes = len(matrix)
        table = self.pieces.elementary_table(matrix, sizes, dtype)
        values = self.pieces.values(table)  # (factors x shoes): each piece outcome
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
        total: np.ndarray = np.zeros((self.columns, shoes), dtype=signed)
        if signed is not dtype:  # integers below 2**53 or 2**63: converted exactly, once
            read = {depth for depth, _, _ in self._leaves}
            by_depth = [level.astype(signed) if depth in read else level
                        for depth, level in enumerate(by_depth)]
            table = table.astype(signed)
            values = values.astype(signed)
        for depth, fill, leaves in self._leaves:
            total += leaves.sums(by_depth[depth]) * table[fill]
        if self.ratios is not None and len(self.ratios):
            total = self._by_ratios(total, values)
        return total.T

    @cached_property
    def _events(self) -> _Sums:
        return _Sums(np.ascontiguousarray(cast(np.ndarray, self.ratios)[:, 0]), self.events)

    def _by_ratios(self, total: np.ndarray, values: np.ndarray) -> np.ndarray:
        """(events x shoes): each column's sum divided by its denominator, exactly (every
        product summed into it is a multiple of it: exact.engines.classes_restricted), times
        its numerator, summed into its event. Each quotient times its numerator counts the
        round's sequences with the column's restriction (times a sign): bounded as the sums
        are. A zero denominator (a value with fewer cards than its read positions) has a
        zero sum."""
        ratios = cast(np.ndarray, self.ratios)
        width = (ratios.shape[1] - 1) // 2
        every = np.vstack([values, np.ones((1, values.shape[1]), dtype=values.dtype)])
        numerator = np.ones_like(total)
        denominator = np.ones_like(total)
        for k in range(width):
            numerator *= every[ratios[:, 1 + k]]
            denominator *= every[ratios[:, 1 + width + k]]
        denominator[denominator == 0] = 1
        quotient = total // denominator
        quotient *= numerator
        return self._events.sums(quotient)


@dataclass(frozen=True)
class DenseArrays:
    """The dense form's arrays (as :mod:`exact.engines.classes` stores them): a trie of
    nodes, each holding any of its reduced states (walked by those it reaches only), a node
    being its parent's states times its part's piece values moved along each outcome; leaves
    (depth, node, group) with a multiplicity, and the event each group settles in each state
    it reaches (None while compiling)."""

    pieces: Pieces
    sizes: np.ndarray  # per dimension of the state, its digits (a state: their mixed radix)
    tables: np.ndarray  # (dimensions x digits x moves): the digit each move takes each digit to
    moves: np.ndarray  # (outcomes x dimensions): each outcome's move in every dimension
    starts: np.ndarray  # each root's start state
    level_nodes: np.ndarray  # per depth past the roots, its nodes
    nodes: np.ndarray  # (parent, part), by depth, in the order of their paths
    part_start: np.ndarray  # per part, where its (factor, outcome) entries start
    part_entries: np.ndarray  # (factor, outcome)
    leaves: np.ndarray  # (depth, node, group, multiplicity), sorted
    fills: np.ndarray  # per group, its elementary fill
    events: int  # of every bet, numbered on
    # per (group, state) a leaf of the group reaches: group, state, each bet's event
    settles: np.ndarray | None

    @cached_property
    def states(self) -> int:
        return prod(self.sizes.tolist())

    @cached_property
    def _radix(self) -> np.ndarray:
        return np.cumprod([1, *self.sizes.tolist()[:-1]]).astype(np.int64)

    def targets(self, state: np.ndarray, outcome: np.ndarray) -> np.ndarray:
        """The state each ``outcome`` takes each ``state`` to (arrays alike): each digit
        moved by its dimension's table."""
        state, outcome = np.broadcast_arrays(np.asarray(state, dtype=np.int64),
                                             np.asarray(outcome, dtype=np.int64))
        out = np.zeros(state.shape, dtype=np.int64)
        for rows, table, moves in self._lookups:
            at = np.take(rows, state)
            at += np.take(moves, outcome)
            out += np.take(table, at)
        return out

    @cached_property
    def _lookups(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The dimensions in groups of neighbours, each group's table within
        :data:`_LOOKUP_ENTRIES` (its digits x its outcomes' distinct moves): per group, each
        state's row of the table (the group's digits times the moves), the table (the
        group's target digits as a state's part, flat), each outcome's move in it. A state
        moved costs two gathers and an add a group (measured: a division and a modulo a
        dimension cost twice that)."""
        every = np.arange(self.states)
        sizes, radix = self.sizes.tolist(), self._radix.tolist()
        groups: list[list[int]] = []
        for n in range(len(sizes)):
            if groups and _group_entries(self.moves, sizes, [*groups[-1], n]) <= _LOOKUP_ENTRIES:
                groups[-1].append(n)
            else:
                groups.append([n])
        out = []
        for group in groups:
            moves, number = np.unique(self.moves[:, group], axis=0, return_inverse=True)
            digits = prod(sizes[n] for n in group)
            own = np.arange(digits)
            table = np.zeros((digits, len(moves)), dtype=np.int64)
            below = 1
            for n in group:
                digit = own // below % sizes[n]
                table += self.tables[n][digit[:, None], moves[None, :, group.index(n)]] * radix[n]
                below *= sizes[n]
            row = every // radix[group[0]] % digits
            out.append((row * len(moves), table.ravel(), number.reshape(-1).astype(np.int64)))
        return out

    @cached_property
    def _plan(self) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                             list[tuple[np.ndarray, np.ndarray, np.ndarray]]]:
        """The arrays in evaluation order: per depth, its (factor, outcome) entries by node
        (nodes, parents, factors, outcomes); per depth the leaves as (nodes, multiplicities,
        groups), by node."""
        steps = []
        start = 0
        for count in self.level_nodes.tolist():
            parents, parts = self.nodes[start:start + count].T
            start += count
            sizes = self.part_start[parts + 1] - self.part_start[parts]
            node = np.repeat(np.arange(count), sizes)
            entry = np.repeat(self.part_start[parts] - np.cumsum(sizes) + sizes, sizes) + \
                np.arange(int(sizes.sum()))
            factor, outcome = self.part_entries[entry].T
            steps.append((node, parents[node], factor, outcome))
        leaves = []
        for depth in range(len(self.level_nodes) + 1):
            chosen = self.leaves[self.leaves[:, 0] == depth]  # sorted by node
            leaves.append((chosen[:, 1], chosen[:, 3], chosen[:, 2]))
        return steps, leaves

    def leaves_in(self, depth: int, first: int, count: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The leaves at ``depth`` on its nodes ``first`` to ``first + count``: (nodes,
        multiplicities, groups)."""
        nodes, multiplicity, group = self._plan[1][depth]
        start, stop = np.searchsorted(nodes, [first, first + count])
        return nodes[start:stop], multiplicity[start:stop], group[start:stop]

    @cached_property
    def _parents(self) -> list[np.ndarray]:
        """Per depth past the roots, each node's parent (nondecreasing: nodes in path order)."""
        bounds = np.cumsum([0, *self.level_nodes.tolist()])
        return [self.nodes[low:high, 0] for low, high in pairwise(bounds.tolist())]

    def _by_slots(self, values: np.ndarray) -> np.ndarray:
        """(shoes x groups x states, the last two flat): the leaves' values summed per
        group, the trie walked by its reached slots (:meth:`walk`)."""
        shoes = values.shape[1]
        reached = np.zeros((shoes, len(self.fills) * self.states), dtype=values.dtype)
        for depth, first, slots in self.walk(values):
            slot, multiplicity, where = self._leaf_slots(depth, first, slots)
            weighted = np.take(cast(np.ndarray, slots.values), slot, axis=1)
            weighted *= multiplicity.astype(values.dtype)
            for shoe, row in enumerate(reached):  # a shoe at a time (5x faster than rows)
                np.add.at(row, where, weighted[shoe])
        return reached

    def reached(self, groups: int, pay: Callable[[int, int], None] | None = None
                ) -> np.ndarray:
        """(groups x states): whether a leaf of each group can hold each state (the trie
        walked by its reached slots, :meth:`walk`, ``pay`` as it says)."""
        reached = np.zeros(groups * self.states, dtype=bool)
        for depth, first, slots in self.walk(None, pay):
            reached[self._leaf_slots(depth, first, slots)[2]] = True
        out: np.ndarray = reached.reshape(groups, self.states)
        return out

    def _leaf_slots(self, depth: int, first: int, slots: Slots
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per slot of a leaf's node among ``slots`` (nodes ``first`` on at ``depth``): the
        slot, the leaf's multiplicity, its (group, state) as one number."""
        nodes, multiplicity, group = self.leaves_in(depth, first, len(slots.bounds) - 1)
        low = slots.bounds[nodes - first]
        many = slots.bounds[nodes - first + 1] - low
        slot = _ragged(low, many)
        return (slot, np.repeat(multiplicity, many),
                np.repeat(group, many) * self.states + np.take(slots.states, slot))

    @cached_property
    def _entry_bounds(self) -> list[np.ndarray]:
        """Per depth past the roots, where each node's (factor, outcome) entries start (and
        the end of the last)."""
        return [np.searchsorted(node, np.arange(count + 1))
                for (node, _, _, _), count in zip(self._plan[0], self.level_nodes.tolist(),
                                                  strict=True)]

    def walk(self, values: np.ndarray | None, pay: Callable[[int, int], None] | None = None
             ) -> Iterator[tuple[int, int, Slots]]:
        """(depth, first node, slots of nodes from it): each node's reached states and their
        values (:class:`Slots`), depth first: a child's slots are its parent's reached
        states times its part's piece values (``values``: factors x shoes), moved along
        each outcome, summed per target state (with ``values`` None, the states alone: the
        reach, whatever the shoe). Only the reached (node, state) slots are computed: a
        node of the family of docs/explanation/attribute-counting.md reaches 72 to 192 of
        its 2,765 to 13,825 states. A range of nodes at a time, depth first (one range a
        depth held): at most :data:`_RANGE_PRODUCTS` products x shoes (one node at least),
        their targets summed in a scratch of :data:`_SCRATCH` (node, state) slots x shoes
        (one node at least), cleared where written. ``pay(products, slots)`` before each
        range, of its products and the slots of its scratch read."""
        roots = len(self.starts)
        shoes = 1 if values is None else values.shape[1]
        level = None if values is None else np.ones((shoes, roots), dtype=values.dtype)
        slots = Slots(np.arange(roots + 1), self.starts, level)
        size = max(_SCRATCH // shoes, self.states)
        scratch = (np.zeros(size, dtype=bool), None if values is None else
                   np.zeros((shoes, size), dtype=values.dtype))
        yield 0, 0, slots
        yield from self._walk_below(0, 0, slots, None if values is None else values.T.copy(),
                                    scratch, pay)

    def products(self, depth: int, first: int, slots: Slots) -> np.ndarray:
        """Per child of the nodes of ``slots`` (nodes ``first`` on at ``depth``): its
        products, its part's entries times its parent's reached states."""
        parents = self._parents[depth]
        low, high = np.searchsorted(parents, [first, first + len(slots.bounds) - 1])
        out: np.ndarray = np.diff(self._entry_bounds[depth][low:high + 1])
        out *= np.diff(slots.bounds)[parents[low:high] - first]
        return out

    def _walk_below(self, depth: int, first: int, slots: Slots, values: np.ndarray | None,
                    scratch: tuple[np.ndarray, np.ndarray | None],
                    pay: Callable[[int, int], None] | None
                    ) -> Iterator[tuple[int, int, Slots]]:
        if depth == len(self.level_nodes):
            return
        low = int(np.searchsorted(self._parents[depth], first))
        ends = np.cumsum(self.products(depth, first, slots))
        width = len(scratch[0]) // self.states
        most = max(1, _RANGE_PRODUCTS // (1 if values is None else len(values)))
        start, done = 0, 0
        while start < len(ends):
            stop = int(np.searchsorted(ends, done + most, side="right"))
            stop = min(max(stop, start + 1), start + width, len(ends))
            if pay is not None:
                pay(int(ends[stop - 1]) - done, (stop - start) * self.states)
            after = self._slots_below(depth, low + start, stop - start, first, slots, values,
                                      scratch)
            yield depth + 1, low + start, after
            yield from self._walk_below(depth + 1, low + start, after, values, scratch, pay)
            start, done = stop, int(ends[stop - 1])

    def _slots_below(self, depth: int, first: int, count: int, above: int, slots: Slots,
                     values: np.ndarray | None, scratch: tuple[np.ndarray, np.ndarray | None]
                     ) -> Slots:
        """The slots of nodes ``first`` to ``first + count`` at ``depth + 1``, of their
        parents' ``slots`` (nodes ``above`` on); ``values`` (shoes x factors)."""
        node, parent, factor, outcome = self._plan[0][depth]
        start, stop = self._entry_bounds[depth][[first, first + count]].tolist()
        owner = parent[start:stop] - above
        low = slots.bounds[owner]
        many = slots.bounds[owner + 1] - low
        entry = np.repeat(np.arange(start, stop), many)
        slot = _ragged(low, many)
        states = self.states
        target = self.targets(np.take(slots.states, slot), np.take(outcome, entry))
        target += (np.take(node, entry) - first) * states
        mark, sums = scratch
        mark[target] = True
        found = np.flatnonzero(mark[:count * states])
        mark[found] = False
        level = None
        if values is not None and sums is not None and slots.values is not None:
            products = np.take(slots.values, slot, axis=1)
            products *= np.take(values, np.take(factor, entry), axis=1)
            for shoe, row in enumerate(sums):  # a shoe at a time (5x faster than rows)
                np.add.at(row, target, products[shoe])
            level = sums[:, found]
            sums[:, found] = 0
        return Slots(np.searchsorted(found, np.arange(count + 1) * states), found % states,
                     level)

    def settled(self, group: np.ndarray, state: np.ndarray) -> np.ndarray:
        """(bets x slots): the event each bet settles in each (``group``, ``state``) slot
        (-1: none, a slot no leaf of the group reaches)."""
        settles = cast(np.ndarray, self.settles)
        keys = settles[:, 0] * self.states + settles[:, 1]  # sorted (compile)
        wanted = group * self.states + state
        if not len(keys):
            return np.full((settles.shape[1] - 2, len(wanted)), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        return np.where(keys[at] == wanted, settles[at, 2:].T, -1)

    @cached_property
    def edge_form(self) -> ClassArrays | None:
        """The same trie as edges between reachable (node, state) slots, evaluated as the
        restricted form is (:class:`ClassArrays`, no signs): a (factor, outcome) entry of a
        node's part is one edge per state its parent reaches, a leaf one row per state it
        reaches and bet. Per shoe it costs the reachable slots' edges, not every node's every
        state and outcome: several times faster for many shoes. None past
        :data:`_EDGE_LIMIT` edges or leaf coefficients (the walk by reached slots serves)."""
        steps, leaves = self._plan
        states = self.states
        if (len(self.starts) + int(self.level_nodes.sum())) * states > _EDGE_LIMIT:
            return None
        reach = np.zeros((len(self.starts), states), dtype=bool)
        reach[np.arange(len(self.starts)), self.starts] = True
        reaches, numbers = [reach], [_numbered(reach)]
        edges: list[np.ndarray] = []
        total = 0
        for depth, (nodes, parents, factors, outcomes) in enumerate(steps, 1):
            after = np.zeros((int(self.level_nodes[depth - 1]), states), dtype=bool)
            k, state = np.nonzero(reach[parents])
            target = self.targets(state, outcomes[k])
            after[nodes[k], target] = True
            total += len(k)
            if total > _EDGE_LIMIT:
                return None
            numbered = _numbered(after)
            edges.append(np.stack([np.full(len(k), depth), numbers[-1][parents[k], state],
                                   factors[k], numbered[nodes[k], target]], axis=1))
            reach = after
            reaches.append(reach)
            numbers.append(numbered)
        rows, weights, columns = [], [], []
        for depth, (nodes, multiplicity, group) in enumerate(leaves):
            k, state = np.nonzero(reaches[depth][nodes])
            for event in self.settled(group[k], state):
                rows.append(np.stack([np.full(len(k), depth), numbers[depth][nodes[k], state],
                                      self.fills[group[k]]], axis=1))
                weights.append(multiplicity[k])
                columns.append(event)
        row = np.concatenate(rows) if rows else np.zeros((0, 3), dtype=np.int64)
        if len(row) > _EDGE_LIMIT:
            return None
        column = np.concatenate(columns) if columns else np.zeros(0, dtype=np.int64)
        if (column < 0).any():
            raise AssertionError("class-by-class counts in a state no group settles")
        entries = np.stack([np.arange(len(row)), column], axis=1)
        weights_ = np.concatenate(weights) if weights else np.zeros(0, dtype=np.int64)
        every = np.concatenate(edges) if edges else np.zeros((0, 4), dtype=np.int64)
        slots = np.array([int(r.sum()) for r in reaches], dtype=np.int64)
        return ClassArrays(self.pieces, slots, np.bincount(every[:, 0], minlength=len(slots))[
            1:].astype(np.int64), np.ascontiguousarray(every[:, 1:]), row, entries, weights_,
            self.events, self.events)

    def counts(self, matrix: np.ndarray, sizes: np.ndarray, dtype: Any) -> np.ndarray:
        """(shoes x events) exact counts of the (shoes x 53) ``matrix`` of card counts whose
        shoes hold ``sizes`` cards, in ``dtype`` (every value a count, module docstring):
        many shoes by :attr:`edge_form` where it is built, else by the reached slots
        (:meth:`walk`), a block of shoes at a time."""
        if len(matrix) >= _EDGE_SHOES:
            edge_form = self.edge_form
            if edge_form is not None:
                return edge_form.counts(matrix, sizes, dtype)
        settles = cast(np.ndarray, self.settles)
        states = self.states
        groups = len(self.fills)
        # the leaves' sums, (groups x states) a shoe, within the values of a range
        block = max(1, min(_WALK_SHOES, DENSE_ELEMENTS // (groups * states)))
        keys = settles[:, 0] * states + settles[:, 1]
        unsettled = np.ones(groups * states, dtype=bool)
        unsettled[keys] = False
        blocks = []
        for start in range(0, len(matrix), block):
            part, part_sizes = matrix[start:start + block], sizes[start:start + block]
            table = self.pieces.elementary_table(part, part_sizes, dtype)
            values = self.pieces.values(table)  # (factors x shoes): each piece outcome
            reached = self._by_slots(values)  # (shoes x (group, state) slots)
            reached *= np.repeat(table[self.fills], states, axis=0).T
            total: np.ndarray = np.zeros((self.events, len(part)), dtype=dtype)
            if reached[:, unsettled].any():
                raise AssertionError("class-by-class counts in a state no group settles")
            for events in settles[:, 2:].T:
                np.add.at(total, events, reached[:, keys].T)
            blocks.append(total.T)
        return np.vstack(blocks) if blocks else np.zeros((0, self.events), dtype=dtype)


@dataclass(frozen=True)
class Slots:
    """A range of nodes' reached (node, state) slots: where each node's start (``bounds``,
    one more than the nodes), each slot's state (ascending within a node), their values
    (shoes x slots; None: the reach alone)."""

    bounds: np.ndarray
    states: np.ndarray
    values: np.ndarray | None


def _ragged(low: np.ndarray, many: np.ndarray) -> np.ndarray:
    """``low[i]``, ``low[i] + 1``, ... ``many[i]`` numbers from each ``low[i]``, in turn."""
    ends = np.cumsum(many)
    out: np.ndarray = np.arange(int(ends[-1]) if len(ends) else 0)
    out += np.repeat(low - ends + many, many)
    return out


def _group_entries(moves: np.ndarray, sizes: Sequence[int], group: list[int]) -> int:
    """The entries of a group of dimensions' table: its digits x its distinct moves."""
    return prod(sizes[n] for n in group) * len(np.unique(moves[:, group], axis=0))


def _numbered(reach: np.ndarray) -> np.ndarray:
    """(nodes x states): each reachable (node, state) slot's number, in row order (-1: not
    reachable)."""
    out = np.cumsum(reach.ravel()) - 1
    out[~reach.ravel()] = -1
    return out.reshape(reach.shape)


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
