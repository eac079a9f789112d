"""The compiled counts of a few bets of a small deal, as plain data a fresh process reads
back without loading numpy.

A compiled deal (:mod:`exact.engines.compiled`) gives every bet's event counts for a shoe as integer
coefficients over *terms*, each a product of ``count(class) - offset`` factors times the
orderings of the rest of the round. Projected onto the events of the bets asked (the
``(terms x events)`` matrices :func:`exact.engines.batch.event_matrices` keeps on disk), that is a
few thousand terms and triples for the value-level deals (the main bets: 52 factors, 6,958
terms). :func:`store` keeps exactly that in one entry of the safe disk cache
(:mod:`exact.engines.cache`), as JSON fields only, no arrays; :func:`load` reads and checks it
(every index in range, every coefficient a positive integer), and :meth:`LightForm.counts`
evaluates a shoe in Python integers (exact, no bound needed). A fresh ``analyze`` of the
main bets then pays its interpreter, its imports and milliseconds of work, and never imports
numpy (issue 13: no slower than a naive enumerator).

Only deals of at most :data:`TERM_LIMIT` terms are kept so (the value-level deals); the
others stay with the numpy evaluation, which is faster once numpy is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from operator import mul
from typing import TYPE_CHECKING

from exact.core.cards import Shoe, View
from exact.core.enumerator import Deal, check_shoe, falling
from exact.engines import cache
from exact.model.bets import Bet

if TYPE_CHECKING:  # numpy and the compiled deal only for the writer, which has them loaded
    import numpy as np

    from exact.engines.compiled import CompiledDeal

KIND = "light"
TERM_LIMIT = 20_000  # the value-level Punto Banco deal has 6,958 terms


@dataclass(frozen=True)
class LightForm:
    """The exact event counts of a few bets of a deal: terms that are products of class-count
    factors, and per bet a ``(terms x events)`` matrix of integer coefficients. Bets whose
    matrices are one matrix with its columns in another order (Banker, Player and Tie all
    read who wins) share it: a bet is then a matrix and the column of each of its events."""

    deal: Deal
    views: tuple[View, ...]
    factors: list[int]  # flat: (view, class index, offset) per factor
    terms: list[tuple[int, ...]]  # factor ids; the cards a term uses is its length
    matrices: list[list[int]]  # flat, row by row: (terms x width) coefficients
    widths: list[int]
    bets: list[tuple[int, list[int]]]  # per bet: its matrix, the column of each event

    def counts(self, shoe: Shoe) -> list[list[int]]:
        """Exact event counts of each bet for ``shoe``, checked to sum to ``N!/(N-r)!``.

        Python integers throughout: every product and sum is exact whatever the shoe."""
        check_shoe(self.deal, shoe)
        size, unit = shoe.size, self.deal.round_cards
        by_view = [view.class_counts(shoe) for view in self.views]
        factors = self.factors
        values = [by_view[view][index] - offset for view, index, offset in zip(
            factors[0::3], factors[1::3], factors[2::3], strict=True)]
        rest = [falling(size - used, unit - used) for used in range(unit + 1)]
        weights = [prod(map(values.__getitem__, term), start=rest[len(term)])
                   for term in self.terms]
        columns = [[sum(map(mul, weights, matrix[column::width])) for column in range(width)]
                   for matrix, width in zip(self.matrices, self.widths, strict=True)]
        total = falling(size, unit)
        out = []
        for matrix, order in self.bets:
            counts = [columns[matrix][column] for column in order]
            if sum(counts) != total:
                raise AssertionError("light counts do not sum to N!/(N-r)!: exactness lost")
            out.append(counts)
        return out


def entry_key(key_parts: Sequence[str], bets: Sequence[Bet]) -> str:
    """The disk-cache key: the compiled deal's key parts and each bet's event conditions (pays
    do not enter it), in the order asked."""
    return cache.cache_key([*key_parts, KIND, *(
        f"bet:{len(bet.events)}|" + "|".join(f"{e.name}|{e.condition.text if e.condition else ''}"
                                             for e in bet.events) for bet in bets)])


def load(key_parts: Sequence[str], bets: Sequence[Bet], deal: Deal) -> LightForm | None:
    """The light form of ``bets`` on the compiled deal of ``key_parts``, or None when it is
    not on disk (or fails a check: warned, and left to be rewritten)."""
    events = tuple(len(bet.events) for bet in bets)
    found = cache.load("light", entry_key(key_parts, bets),
                       lambda fields, arrays: _decode(fields, arrays, events, deal))
    return None if found is None else found[0]


def store(key_parts: Sequence[str], bets: Sequence[Bet], compiled: CompiledDeal,
          matrices: Sequence[np.ndarray]) -> None:
    """Keep the light form of ``bets`` (their ``(terms x events)`` ``matrices`` over
    ``compiled``) when the deal is small enough; best effort, as every cache write. Flat
    lists of integers, which the reader checks with a few passes in C."""
    if len(compiled.terms) > TERM_LIMIT:
        return
    views: dict[View, int] = {}
    factors = [number for view, index, offset in compiled.factors
               for number in (views.setdefault(view, len(views)), index, offset)]
    shared: dict[bytes, int] = {}
    stored: list[list[int]] = []
    widths: list[int] = []
    of_bet: list[list[object]] = []
    for matrix in matrices:
        # columns in a canonical order: bets that read the same partition share one matrix
        order = sorted(range(matrix.shape[1]), key=lambda c: matrix[:, c].tobytes())
        canonical = matrix[:, order]
        key = canonical.tobytes() + bytes(str(canonical.shape), "ascii")
        if key not in shared:
            shared[key] = len(stored)
            stored.append(canonical.ravel().tolist())
            widths.append(int(matrix.shape[1]))
        of_bet.append([shared[key], [order.index(e) for e in range(matrix.shape[1])]])
    fields = {"views": [list(view.attributes) for view in views], "factors": factors,
              "term_used": [used for _, used in compiled.terms],
              "term_factors": [i for factor_ids, _ in compiled.terms for i in factor_ids],
              "matrices": stored, "widths": widths, "bets": of_bet}
    cache.store("light", entry_key(key_parts, bets), fields, {})


def _decode(fields: dict, arrays: dict, events: tuple[int, ...], deal: Deal) -> LightForm:
    """A light form from its fields, every index and count checked (CorruptEntry)."""
    if arrays or set(fields) != {"views", "factors", "term_used", "term_factors", "matrices",
                                 "widths", "bets"}:
        raise cache.CorruptEntry("light form fields malformed")
    unit = deal.round_cards
    names = fields["views"]
    if not (isinstance(names, list) and all(isinstance(a, list) and all(
            isinstance(n, str) for n in a) for a in names)):
        raise cache.CorruptEntry("views malformed")
    try:
        views = tuple(View(tuple(a)) for a in names)
    except ValueError:
        raise cache.CorruptEntry("views malformed") from None
    factors = _integers(fields["factors"], "factors", 3)
    for view, index, offset in zip(factors[0::3], factors[1::3], factors[2::3], strict=True):
        if not (view < len(views) and index < len(views[view].labels) and offset < unit):
            raise cache.CorruptEntry("factor out of range")
    used = _integers(fields["term_used"], "term_used")
    flat = _integers(fields["term_factors"], "term_factors")
    if (used and max(used) > unit) or sum(used) != len(flat) or \
            (flat and max(flat) >= len(factors) // 3):
        raise cache.CorruptEntry("terms out of range")
    terms, start = [], 0
    for length in used:
        terms.append(tuple(flat[start:start + length]))
        start += length
    widths = _integers(fields["widths"], "widths")
    matrices = fields["matrices"]
    if not isinstance(matrices, list) or len(matrices) != len(widths) or not matrices:
        raise cache.CorruptEntry("matrices malformed")
    sums = None
    for width, matrix in zip(widths, matrices, strict=True):
        _integers(matrix, "matrix", width or 1)
        if len(matrix) != width * len(terms):
            raise cache.CorruptEntry("matrix of the wrong shape")
        # every matrix partitions each term's coefficient among its columns: equal row sums
        row_sums = [sum(matrix[row:row + width]) for row in range(0, len(matrix), width)]
        if sums is None:
            sums = row_sums
        if row_sums != sums or 0 in row_sums:
            raise cache.CorruptEntry("matrices do not partition the terms alike")
    of_bet = fields["bets"]
    if not isinstance(of_bet, list) or len(of_bet) != len(events):
        raise cache.CorruptEntry("light form of other bets")
    bets = []
    for count, item in zip(events, of_bet, strict=True):
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                and 0 <= item[0] < len(widths)):
            raise cache.CorruptEntry("light form: bet malformed")
        order = _integers(item[1], "bet columns")
        if sorted(order) != list(range(widths[item[0]])) or len(order) != count:
            raise cache.CorruptEntry("light form: bet columns malformed")
        bets.append((item[0], order))
    return LightForm(deal, views, factors, terms, matrices, widths, bets)


def _integers(value: object, name: str, group: int = 1) -> list[int]:
    """A list of non-negative Python integers, of a length divisible by ``group``; checked
    in C (a type set and a minimum), as an entry holds tens of thousands of them."""
    if not isinstance(value, list) or len(value) % group or \
            not set(map(type, value)) <= {int} or (value and min(value) < 0):
        raise cache.CorruptEntry(f"light form: {name} malformed")
    return value
