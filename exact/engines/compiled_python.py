"""The compiled engine's pure-Python evaluator, and the compiled engine's count of one shoe.

Layer: engines, above the model; the engines know no game (the games call them).

A compiled deal (:mod:`exact.engines.compiled`) gives every bet's event counts for a shoe as
integer coefficients over *terms*, each a product of ``count(class) - offset`` factors times
the orderings of the rest of the round. Projected onto the events of the bets asked (the
``(terms x events)`` matrices :func:`exact.engines.compiled_store.event_matrices` keeps on
disk), that is a few thousand terms and triples for the value-level deals (the main bets: 52
factors, 6,958 terms). :func:`store_light` keeps exactly that in one disk-cache entry of kind
``light``, as JSON fields only, no arrays; :func:`load_light` reads and checks it (every
index in range, every coefficient a positive integer), and :meth:`LightForm.counts`
evaluates a shoe in Python integers (exact, no bound needed), the twin of the numpy
evaluation of the same coefficients. Only deals of at most :data:`LIGHT_TERM_LIMIT` terms
are kept so (the value-level deals).

Which evaluator counts a shoe is an explicit setting of the compiled engine
(:data:`EVALUATORS`, :func:`shoe_counts`'s ``evaluator``), never what the process imported
before:

* ``"python"``: the light form (built once through numpy when it is not on disk);
* ``"numpy"``: the projection of the compiled deal (:class:`~exact.engines.compiled.Projection`);
* ``"auto"`` (the shipped engine's): the light form for the *first* count of a set of bets in
  a process when it is on disk, the numpy projection for every later count (built once, then
  a product per shoe). A fresh ``analyze`` of the main bets then pays its interpreter, its
  imports and milliseconds of work and never imports numpy (issue 13); a process that counts
  many shoes (``design``, the lab, a benchmark) pays numpy once and evaluates each shoe in C.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from operator import mul
from typing import TYPE_CHECKING, Literal, Protocol

from exact.core.cards import Shoe, View
from exact.core.enumerator import Deal, Record, check_shoe, falling
from exact.engines import cache
from exact.errors import CorruptEntry
from exact.model.bets import Bet
from exact.model.features import Needs
from exact.model.game import Game, compiled_key

if TYPE_CHECKING:  # numpy is loaded only by the numpy evaluator and by writing a light form
    import numpy as np

    from exact.engines.compiled import Projection

Evaluator = Literal["auto", "python", "numpy"]
EVALUATORS: tuple[Evaluator, ...] = ("auto", "python", "numpy")

# The numpy projections built in this process, and the bets whose light form has counted once
# (the "auto" rule: the next count of them builds their projection).
_PROJECTIONS: dict[tuple[Game[Record], Deal[Record], Bet], Projection] = {}
_COUNTED_LIGHT: set[tuple[Game[Record], Deal[Record], tuple[Bet, ...]]] = set()


def shoe_counts(game: Game[Record], deal: Deal[Record], needs: Needs, bets: Sequence[Bet],
                shoe: Shoe, evaluator: Evaluator = "auto") -> list[list[int]]:
    """Exact event counts of ``bets`` (all served by ``deal``, the deal of ``needs``) for
    ``shoe``, by the compiled engine's ``evaluator`` (module docstring)."""
    keys = [(game, deal, bet) for bet in bets]
    missing = [key for key in keys if key not in _PROJECTIONS]
    group = (game, deal, tuple(bets))
    light = evaluator == "python" or (evaluator == "auto" and missing
                                      and group not in _COUNTED_LIGHT)
    if light:
        counts = light_counts(compiled_key(game, needs), bets, deal, shoe)
        if counts is not None:
            _COUNTED_LIGHT.add(group)
            return counts
    if evaluator == "python":  # not on disk (or not kept there): made in memory
        return _made_light(game, needs, deal, bets).counts(shoe)
    projections = _projections(game, needs, keys, missing)
    from exact.engines.compiled_store import compiled_for

    weights = compiled_for(game, needs).term_weights(shoe)  # once for every bet of the deal
    return [projection.counts_of(weights) for projection in projections]


def _projections(game: Game[Record], needs: Needs,
                 keys: list[tuple[Game[Record], Deal[Record], Bet]],
                 missing: list[tuple[Game[Record], Deal[Record], Bet]]) -> list[Projection]:
    """The numpy projection of each bet of ``keys``, those ``missing`` built (their event
    matrices from the disk cache: a fresh process then never settles the deal's records, and
    the batch evaluator shares these entries), and the bets' light form kept on disk."""
    if missing:
        import numpy as np

        from exact.engines.compiled import Projection
        from exact.engines.compiled_store import compiled_for, event_matrices

        compiled = compiled_for(game, needs)  # from the disk cache after the first run
        matrices = event_matrices(game, needs, compiled, [bet for _, _, bet in missing])
        for key, matrix in zip(missing, matrices, strict=True):
            term, event = np.nonzero(matrix)
            _PROJECTIONS[key] = Projection(compiled, term, event, matrix[term, event],
                                           len(key[2].events))
        if len(missing) == len(keys):
            store_light(compiled_key(game, needs), [bet for _, _, bet in keys], compiled,
                        matrices)
    return [_PROJECTIONS[key] for key in keys]


def _made_light(game: Game[Record], needs: Needs, deal: Deal[Record], bets: Sequence[Bet]
                ) -> LightForm:
    """The light form of ``bets`` made from the compiled deal, whatever its size."""
    from exact.engines.compiled_store import compiled_for, event_matrices

    compiled = compiled_for(game, needs)
    fields = light_fields(compiled, event_matrices(game, needs, compiled, bets))
    return decode_light(fields, {}, tuple(len(bet.events) for bet in bets), deal)


def forget() -> None:
    """Drop this process's projections and the record of light counts (tests of a cold
    start)."""
    _PROJECTIONS.clear()
    _COUNTED_LIGHT.clear()


LIGHT = "light"
LIGHT_TERM_LIMIT = 20_000  # the value-level Punto Banco deal has 6,958 terms


@dataclass(frozen=True)
class LightForm:
    """The exact event counts of a few bets of a deal: terms that are products of class-count
    factors, and per bet a ``(terms x events)`` matrix of integer coefficients. Bets whose
    matrices are one matrix with its columns in another order (Banker, Player and Tie all
    read who wins) share it: a bet is then a matrix and the column of each of its events."""

    deal: Deal[Record]
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
            if sum(counts) != total:  # coefficients that pass every check, yet are not
                # the deal's: an entry hashed anew after its numbers were changed (a forger)
                raise CorruptEntry("light counts do not sum to N!/(N-r)!")
            out.append(counts)
        return out


def light_key(key_parts: Sequence[object], bets: Sequence[Bet]) -> cache.Key:
    """The key of a light entry: the compiled deal's key parts and each bet's events
    (:func:`bet_part`), in the order asked."""
    return cache.cache_key(LIGHT, [*key_parts, *map(cache.bet_part, bets)])


def load_light(key_parts: Sequence[object], bets: Sequence[Bet], deal: Deal[Record]
               ) -> LightForm | None:
    """The light form of ``bets`` on the compiled deal of ``key_parts``, or None when it is
    not on disk (or fails a check: warned, and left to be rewritten)."""
    events = tuple(len(bet.events) for bet in bets)
    found = cache.load(light_key(key_parts, bets),
                 lambda fields, arrays: decode_light(fields, arrays, events, deal))
    return None if found is None else found[0]


def light_counts(key_parts: Sequence[object], bets: Sequence[Bet], deal: Deal[Record], shoe: Shoe
                 ) -> list[list[int]] | None:
    """The exact event counts of ``bets`` for ``shoe`` from their light form on disk, or None
    when it is not there or fails a check, its counts' sum included (warned, and left to be
    rewritten): a forged entry never ends a run in a traceback."""
    form = load_light(key_parts, bets, deal)
    if form is None:
        return None
    try:
        return form.counts(shoe)
    except CorruptEntry as error:
        cache.warn(cache.entry_path(light_key(key_parts, bets)), str(error))
        return None


class CompiledTerms(Protocol):
    """What the light form keeps of a compiled deal (:class:`exact.engines.compiled.CompiledDeal`,
    named so without importing it: that module imports this one)."""

    @property
    def factors(self) -> Sequence[tuple[View, int, int]]: ...

    @property
    def terms(self) -> Sequence[tuple[tuple[int, ...], int]]: ...


def store_light(key_parts: Sequence[object], bets: Sequence[Bet], compiled: CompiledTerms,
                matrices: Sequence[np.ndarray]) -> None:
    """Keep the light form of ``bets`` (their ``(terms x events)`` ``matrices`` over
    ``compiled``) when the deal is small enough; best effort, as every cache write."""
    if len(compiled.terms) <= LIGHT_TERM_LIMIT:
        cache.store(light_key(key_parts, bets), light_fields(compiled, matrices), {})


def light_fields(compiled: CompiledTerms, matrices: Sequence[np.ndarray]) -> cache.Fields:
    """The light form's fields (:func:`decode_light` reads them back): flat lists of
    integers, which the reader checks with a few passes in C."""
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
    return fields


def decode_light(fields: cache.Fields, arrays: cache.Arrays, events: tuple[int, ...],
                 deal: Deal[Record]) -> LightForm:
    """A light form from its fields, every index and count checked (CorruptEntry)."""
    if arrays or set(fields) != {"views", "factors", "term_used", "term_factors", "matrices",
                                 "widths", "bets"}:
        raise CorruptEntry("light form fields malformed")
    unit = deal.round_cards
    names = fields["views"]
    if not (isinstance(names, list) and all(isinstance(a, list) and all(
            isinstance(n, str) for n in a) for a in names)):
        raise CorruptEntry("views malformed")
    try:
        views = tuple(View(tuple(a)) for a in names)
    except ValueError:
        raise CorruptEntry("views malformed") from None
    factors = _integers(fields["factors"], "factors", 3)
    for view, index, offset in zip(factors[0::3], factors[1::3], factors[2::3], strict=True):
        if not (view < len(views) and index < len(views[view].labels) and offset < unit):
            raise CorruptEntry("factor out of range")
    used = _integers(fields["term_used"], "term_used")
    flat = _integers(fields["term_factors"], "term_factors")
    if (used and max(used) > unit) or sum(used) != len(flat) or \
            (flat and max(flat) >= len(factors) // 3):
        raise CorruptEntry("terms out of range")
    terms, start = [], 0
    for length in used:
        terms.append(tuple(flat[start:start + length]))
        start += length
    widths = _integers(fields["widths"], "widths")
    matrices = fields["matrices"]
    if not isinstance(matrices, list) or len(matrices) != len(widths) or not matrices:
        raise CorruptEntry("matrices malformed")
    sums = None
    for width, matrix in zip(widths, matrices, strict=True):
        _integers(matrix, "matrix", width or 1)
        if len(matrix) != width * len(terms):
            raise CorruptEntry("matrix of the wrong shape")
        # every matrix partitions each term's coefficient among its columns: equal row sums
        row_sums = list(map(sum, zip(*[iter(matrix)] * (width or 1), strict=True)))
        if sums is None:
            sums = row_sums
        if row_sums != sums or 0 in row_sums:
            raise CorruptEntry("matrices do not partition the terms alike")
    of_bet = fields["bets"]
    if not isinstance(of_bet, list) or len(of_bet) != len(events):
        raise CorruptEntry("light form of other bets")
    bets = []
    for count, item in zip(events, of_bet, strict=True):
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                and 0 <= item[0] < len(widths)):
            raise CorruptEntry("light form: bet malformed")
        order = _integers(item[1], "bet columns")
        if sorted(order) != list(range(widths[item[0]])) or len(order) != count:
            raise CorruptEntry("light form: bet columns malformed")
        bets.append((item[0], order))
    return LightForm(deal, views, factors, terms, matrices, widths, bets)


def _integers(value: object, name: str, group: int = 1) -> list[int]:
    """A list of non-negative Python integers, of a length divisible by ``group``; checked
    in C (a type set and a minimum), as an entry holds tens of thousands of them."""
    if not isinstance(value, list) or len(value) % group or \
            not set(map(type, value)) <= {int} or (value and min(value) < 0):
        raise CorruptEntry(f"light form: {name} malformed")
    return value
