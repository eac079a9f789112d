"""Records as disk-cache data: tuples nested of ints, text and None (the records of a compiled
deal) encoded as a table of their distinct parts and an array of references, decoded lazily
and checked; and the check of every index array an entry's reader takes.

Layer: engines, above the model; the engines know no game (the games call them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING, cast, overload

from exact.core.cards import Label
from exact.core.enumerator import without_collections
from exact.errors import CorruptEntry

if TYPE_CHECKING:
    import numpy as np


def encode_tuples(items: Sequence[object]) -> tuple[list[object], np.ndarray]:
    """Tuples of one length, nested of ints, bools, text and None (e.g. the records of a
    compiled deal), as (a table of their distinct parts, JSON-able, children before parents;
    an (items x length) array of references into it).

    >>> table, rows = encode_tuples([((1, "A"), False), ((1, "A"), 0)])
    >>> table, rows.tolist()
    ([1, 'A', [0, 1], False, 0], [[2, 3], [2, 4]])
    >>> list(LazyTuples(table, rows))
    [((1, 'A'), False), ((1, 'A'), 0)]
    """
    import numpy as np

    # A part is known by its type and value for an atom (equal values such as 0 and False
    # must not merge), by its type and its children's indices for a tuple: equal such keys
    # are equal parts of one type. ``memo`` keeps the index of each tuple by ``id`` (every
    # part is alive throughout): the hands of a compiled deal share a few dozen labels.
    table: dict[tuple[object, ...], int] = {}
    values: list[object] = []
    memo: dict[int, int] = {}

    def reference(item: object) -> int:
        kind = type(item)
        if kind is tuple or kind is Label:  # a Label stays a Label: features read its fields
            found = memo.get(id(item))
            if found is not None:
                return found
            children = [reference(part) for part in cast(tuple[object, ...], item)]
            key: tuple[object, ...] = (kind, *children)
            value: object = children if kind is tuple else {"label": children}
        elif item is None or kind in (bool, int, str):
            key, value = (kind, item), item
        else:
            raise TypeError(f"the cache stores tuples of ints, text and None, not {item!r}")
        index = table.get(key)
        if index is None:
            index = table[key] = len(values)
            values.append(value)
        if kind is tuple or kind is Label:
            memo[id(item)] = index
        return index

    if set(map(type, items)) - {tuple}:
        raise TypeError("the cache stores a list of tuples of one length")
    rows_in = cast(Sequence[tuple[object, ...]], items)  # tuples: checked just above
    length = len(rows_in[0]) if rows_in else 0
    if set(map(len, rows_in)) - {length}:
        raise TypeError("the cache stores a list of tuples of one length")
    rows = np.empty((len(items), length), dtype=np.int64)
    with without_collections():
        for column in range(length):
            _encode_column(list(map(itemgetter(column), rows_in)), reference, rows[:, column])
    return values, rows


def _encode_column(parts: Sequence[object], reference: Callable[[object], int],
                   out: np.ndarray) -> None:
    """The references of one column's ``parts`` into ``out``. Parts are first told apart by
    identity (all alive throughout; a compiled deal makes its records' tuple parts built of
    the same objects one object), then each distinct object by a shallow key: a tuple's type
    and the identities of its parts (equal keys are equal values of one type), an atom's type
    and value. A compiled deal's hundred thousand records hold a few hundred hand objects and
    shallow keys (their labels are shared objects), so ``reference`` walks those alone; the
    identities are told apart by numpy (addresses: unsigned 64-bit)."""
    import numpy as np

    identities = np.fromiter(map(id, parts), dtype=np.uint64, count=len(parts))
    _, first, inverse = np.unique(identities, return_index=True, return_inverse=True)
    by_key: dict[tuple[object, ...], int] = {}
    references = np.empty(len(first), dtype=np.int64)
    # in order of first appearance, not of address: the table's order, so the entry's bytes,
    # must not depend on where objects happen to live
    for distinct in np.argsort(first, kind="stable").tolist():
        part = parts[first[distinct]]
        key = ((type(part), *map(id, part)) if isinstance(part, tuple)
               else (type(part), part))
        found = by_key.get(key)
        if found is None:
            found = by_key[key] = reference(part)
        references[distinct] = found
    out[:] = references[inverse.reshape(-1)]


class LazyTuples(Sequence[tuple[object, ...]]):
    """The tuples of :func:`encode_tuples` as a sequence, checked at once (every reference
    points backwards, every row in range) but built only when first read: a command that
    loads a compiled deal for its counts alone (the records' events cached too) never pays
    for the hundred thousand tuples.

    >>> table, rows = encode_tuples([((1, "A"), False), ((1, "A"), 0)])
    >>> lazy = LazyTuples(table, rows)
    >>> len(lazy), lazy[1], list(lazy) == [((1, 'A'), False), ((1, 'A'), 0)]
    (2, ((1, 'A'), 0), True)
    """

    def __init__(self, values: object, rows: np.ndarray) -> None:
        if not isinstance(values, list):
            raise CorruptEntry("tuple table malformed")
        table: list[object] = []
        for value in values:
            if type(value) is list:
                if value and min(value) < 0:  # a reference forwards is an IndexError
                    raise CorruptEntry("tuple table malformed")
                table.append(tuple([table[i] for i in value]))
            elif (type(value) is dict and list(value) == ["label"]
                  and type(value["label"]) is list):
                table.append(_label([table[i] for i in value["label"] if i >= 0]))
            elif value is None or type(value) in (bool, int, str):
                table.append(value)
            else:
                raise CorruptEntry("tuple table malformed")
        self._rows = check_indices(rows, len(table), "tuple rows", ndim=2)
        self._table = table

    def __len__(self) -> int:
        return int(self._rows.shape[0])

    @overload
    def __getitem__(self, index: int) -> tuple[object, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[object, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[object, ...] | list[tuple[object, ...]]:
        return self._tuples[index]

    def __iter__(self) -> Iterator[tuple[object, ...]]:
        return iter(self._tuples)

    def __repr__(self) -> str:
        return repr(self._tuples)

    @cached_property
    def _tuples(self) -> list[tuple[object, ...]]:
        import numpy as np

        rows = self._rows
        if rows.shape[1] == 0:
            return [()] * rows.shape[0]
        parts = np.empty(len(self._table), dtype=object)
        for index, value in enumerate(self._table):  # one by one: numpy would unpack tuples
            parts[index] = value
        with without_collections():
            return list(zip(*(parts[rows[:, column]].tolist()
                              for column in range(rows.shape[1])), strict=True))


def _label(parts: list[object]) -> Label:
    """The :class:`~exact.core.cards.Label` of decoded ``parts``, checked field by field."""
    if len(parts) != len(Label._fields):
        raise CorruptEntry("tuple table malformed")
    value, rank, colour, suit = parts
    if not (value is None or type(value) is int) or not (
            (rank is None or type(rank) is str) and (colour is None or type(colour) is str)
            and (suit is None or type(suit) is str)):
        raise CorruptEntry("tuple table malformed")
    return Label(value, rank, colour, suit)


def check_indices(array: np.ndarray, bound: int, name: str, ndim: int = 1) -> np.ndarray:
    """``array`` when it is an int64 array of ``ndim`` dimensions whose values are in
    ``range(bound)``, else :class:`CorruptEntry`.

    >>> import numpy as np
    >>> check_indices(np.array([0, 2]), 3, "leaves").tolist()
    [0, 2]
    >>> check_indices(np.array([0, 3]), 3, "leaves")
    Traceback (most recent call last):
    exact.errors.CorruptEntry: leaves: out of range
    """
    import numpy as np

    if array.dtype != np.int64 or array.ndim != ndim:
        raise CorruptEntry(f"{name}: not int64 of {ndim} dimensions")
    if array.size and (int(array.min()) < 0 or int(array.max()) >= bound):
        raise CorruptEntry(f"{name}: out of range")
    return array
