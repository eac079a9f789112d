"""Exact numbers for batches of shoes: the number type a batch is evaluated in, chosen by an
explicit bound, and the count arithmetic every engine's batches share (the count matrix, its
shoe sizes, the rest of a round, segmented sums).

Layer: engines, above the model; the engines know no game (the games call them).

The number type of a batch (:func:`batch_dtype`) is chosen from the largest shoe ``N`` and the
round's ``r`` cards: an engine's every intermediate value is then a non-negative integer of
magnitude at most ``N**r``, and every sum a sum of non-negative integers at most ``N!/(N-r)!``
(each engine's evaluation says why its values stay within that bound), so

* ``N**r < 2**53``: float64, where every such integer is exact (and the final sums run in BLAS);
* ``N**r <= 2**63 - 1``: int64;
* otherwise Python integers in object arrays.

Counts themselves are int64 up to ``2**56`` cards a class (53 of them sum within int64), Python
integers beyond (:func:`check_batch`, :func:`shoe_sizes`, :func:`counts_matrix`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from exact.core.cards import CARDS, JOKER_ID, Shoe
from exact.core.enumerator import Deal, Record, falling
from exact.errors import ShoeError

if TYPE_CHECKING:  # numpy.typing is for the checker only: a command need not import it
    from numpy.typing import DTypeLike

INT64_LIMIT = 2**63 - 1
_FLOAT_EXACT_LIMIT = 2**53  # every integer of smaller magnitude is exact in float64


def batch_dtype(largest_shoe: int, unit: int) -> type:
    """The number type that holds every intermediate of a batch exactly (the module
    docstring states the bound).

    >>> batch_dtype(416, 6), batch_dtype(1000, 6), batch_dtype(2000, 6)
    (<class 'numpy.float64'>, <class 'numpy.int64'>, <class 'object'>)
    """
    bound = largest_shoe**unit
    if bound < _FLOAT_EXACT_LIMIT:
        return np.float64
    if bound <= INT64_LIMIT:
        return np.int64
    return object


def check_batch(deal: Deal[Record], counts: np.ndarray) -> np.ndarray:
    """A (shoes x 53) count matrix as int64, or :class:`ShoeError` for an impossible shoe."""
    matrix = np.asarray(counts)
    if matrix.ndim != 2 or matrix.shape[1] != len(CARDS):
        raise ShoeError(f"a batch of shoes is a (shoes x {len(CARDS)}) matrix of card counts, "
                        f"got shape {matrix.shape}")
    if matrix.dtype == object and matrix.size:
        if not all(isinstance(c, int | np.integer) for c in matrix.flat):
            raise ShoeError("card counts of a batch must be non-negative integers")
    elif not np.issubdtype(matrix.dtype, np.integer):
        raise ShoeError("card counts of a batch must be non-negative integers")
    if (matrix < 0).any():
        raise ShoeError("card counts of a batch must be non-negative integers")
    # Past 2**56 cards a class or a shoe total could wrap int64: Python integers then.
    huge = matrix.size and int(matrix.max()) > _SAFE_COUNT
    matrix = matrix.astype(object) if huge else matrix.astype(np.int64)
    if (shoe_sizes(matrix) < deal.round_cards).any():
        raise ShoeError(f"a shoe of the batch cannot deal a round: the counting unit needs "
                        f"{deal.round_cards} cards")
    if not deal.accepts_jokers and matrix[:, JOKER_ID].any():
        raise ShoeError("this game has no jokers but a shoe of the batch holds some")
    return matrix


_SAFE_COUNT = 2**56  # 53 counts of at most this many cards sum within int64


def rest_of_round(sizes: Sequence[int] | np.ndarray, used: int, unit: int,
                  dtype: DTypeLike = object) -> np.ndarray:
    """Per shoe of ``sizes`` cards, the orderings of the round's ``unit - used`` cards left
    once ``used`` are dealt: ``(n - used)!/(n - unit)!`` (with ``used = 0``, the denominator
    ``N!/(N-r)!`` every shoe's counts sum to).

    >>> rest_of_round([8, 6], 2, 4).tolist(), rest_of_round(np.array([5]), 0, 2).tolist()
    ([30, 12], [20])
    """
    sizes = np.asarray(sizes)
    if sizes.dtype != object and len(sizes) and int(sizes.max()) ** (unit - used) <= INT64_LIMIT:
        # every factor and partial product at most max(n)**(unit - used): exact in int64
        product = np.ones(len(sizes), dtype=np.int64)
        for offset in range(used, unit):
            product *= np.maximum(sizes - offset, 0)
        return product.astype(dtype)
    return np.array([falling(int(n) - used, unit - used) for n in sizes], dtype=dtype)


def shoe_sizes(counts: np.ndarray) -> np.ndarray:
    """Cards in each shoe of a (shoes x 53) batch: int64, or Python integers for counts beyond
    2**56, whose int64 sum could wrap silently.

    >>> shoe_sizes(np.array([[2**62] * 53])).tolist() == [53 * 2**62]
    True
    """
    matrix = np.asarray(counts)
    if matrix.dtype != object and matrix.size and int(matrix.max()) > _SAFE_COUNT:
        matrix = matrix.astype(object)
    summed: np.ndarray = matrix.sum(axis=1)
    return summed


def counts_matrix(shoes: Sequence[Shoe]) -> np.ndarray:
    """Stack shoes into the (shoes x 53) matrix the batch functions take (int64, or Python
    integers for counts beyond 2**56)."""
    rows = [shoe.counts for shoe in shoes]
    dtype: DTypeLike = object if any(max(row) > _SAFE_COUNT for row in rows) else np.int64
    return np.array(rows, dtype=dtype).reshape(len(shoes), len(CARDS))



@dataclass(frozen=True)
class Segments:
    """Sums of columns by label, exact in any integer dtype, Python ints included (a sort once,
    then one ``reduceat`` a call): the one segmented sum of the engines.

    >>> segments = Segments.of(np.array([2, 0, 2]), 4)
    >>> segments.sums(np.array([[1, 10, 100]])).tolist()
    [[10, 0, 101, 0]]
    """

    order: np.ndarray
    starts: np.ndarray
    present: np.ndarray
    groups: int

    @classmethod
    def of(cls, labels: np.ndarray, groups: int) -> Segments:
        order = np.argsort(labels, kind="stable")
        present, starts = np.unique(labels[order], return_index=True)
        return cls(order, starts, present, groups)

    def sums(self, values: np.ndarray) -> np.ndarray:
        """(shoes x groups) from (shoes x columns)."""
        return self.sorted_sums(values[:, self.order])

    def sorted_sums(self, values: np.ndarray) -> np.ndarray:
        """The same from columns already in ``order``."""
        out = np.zeros((values.shape[0], self.groups), dtype=values.dtype)
        if len(self.order):
            out[:, self.present] = np.add.reduceat(values, self.starts, axis=1)
        return out

