"""Compiled deals and their bets' event matrices, kept in the safe disk cache
(:mod:`exact.engines.cache`), and the compiled engine's entries that read them.

Layer: engines, above the model; the engines know no game (the games call them).

A compiled deal (:class:`~exact.engines.compiled.CompiledDeal`) is one entry per key
(:func:`load_or_compile`): the views, factors, terms, leaves and records written out field by
field as JSON and plain int64 arrays, checked by a content hash and by range checks of every
index before use, rebuilt (with one warning line) when damaged, and never able to run code. A
bet's (terms x events) coefficient matrix is an entry of its own (:func:`event_matrices`).

Typing: the boundary is the disk cache: records decoded from an entry are plain tuples, taken
as the deal's records because the entry's key names the game, its rules and its needs (and the
entry is checked against its content hash); :func:`_decode_compiled` says so with a ``cast``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any, cast

import numpy as np

from exact.core.cards import View
from exact.core.enumerator import Deal, Record, RecordT
from exact.core.progress import status
from exact.engines.batch_numbers import INT64_LIMIT
from exact.engines.cache import (
    CorruptEntry,
    Fields,
    Key,
    LazyTuples,
    bet_part,
    cache_key,
    cached,
    check_indices,
    encode_tuples,
    load,
    store,
)
from exact.engines.compiled import BatchProjection, CompiledDeal
from exact.model.bets import Bet
from exact.model.features import Needs
from exact.model.game import Game, compiled_key
from exact.model.settling import settle_records


def event_matrix_key(game: Game[Any], needs: Needs, bet: Bet) -> Key:
    """The disk-cache key of a bet's event matrix: the compiled key and the bet's events
    (:func:`exact.engines.cache.bet_part`)."""
    return cache_key("bet-events", [*compiled_key(game, needs), bet_part(bet)])


def event_matrices(game: Game[RecordT], needs: Needs, compiled: CompiledDeal[RecordT],
                   bets: Sequence[Bet]) -> list[np.ndarray]:
    """Per bet, the (terms x events) coefficient matrix; cached on disk
    (:func:`event_matrix_key`). ``compiled`` is a deal of ``game`` (one record type: its
    records are settled by the game's features)."""
    keys = [event_matrix_key(game, needs, bet) for bet in bets]
    matrices: list[np.ndarray | None] = []
    for key, bet in zip(keys, bets, strict=True):
        found = load(key, partial(_decode_events, compiled, len(bet.events)))
        matrices.append(found[0] if found else None)
    missing = [i for i, m in enumerate(matrices) if m is None]
    if missing:
        events = settle_records(game, [bets[i] for i in missing], compiled.records)
        for i, event_of_record in zip(missing, events, strict=True):
            matrix = BatchProjection.build(compiled, [(event_of_record, len(bets[i].events))])
            matrices[i] = matrix.matrix
            if worth_keeping(compiled):  # a small deal settles as fast as it reads back
                store(keys[i], {}, {"matrix": matrix.matrix})
    return [m for m in matrices if m is not None]


def _decode_events(compiled: CompiledDeal[Record], events: int, fields: dict[str, object],
                   arrays: dict[str, np.ndarray]) -> np.ndarray:
    """A stored (terms x events) coefficient matrix, checked: its shape, and each term's
    coefficients, which the events of a bet partition, sum to that term's in the deal."""
    matrix = arrays["matrix"]
    if matrix.dtype != np.int64 or matrix.shape != (len(compiled.terms), events):
        raise CorruptEntry("bet-event matrix of the wrong shape")
    if (matrix < 0).any() or not np.array_equal(matrix.sum(axis=1), compiled.term_totals):
        raise CorruptEntry("bet-event matrix does not partition the terms")
    return matrix


def compiled_batch(game: Game[RecordT], needs: Needs, bets: Sequence[Bet]
                   ) -> Callable[[np.ndarray], list[np.ndarray]]:
    """The compiled engine's batch entry: a function of a (shoes x 53) count matrix giving,
    per bet, its (shoes x events) exact counts."""
    compiled = compiled_for(game, needs)
    matrices = event_matrices(game, needs, compiled, bets)
    return BatchProjection(compiled, np.hstack(matrices),
                           tuple(matrix.shape[1] for matrix in matrices)).counts


# --- the disk cache ----------------------------------------------------------------------------
# A deal of a few hundred records compiles in milliseconds, less than writing its entry (and its
# bets' event matrices) costs once and not much more than reading them back: such a deal is not
# kept on disk. Larger ones are: the NINE bets' deals (1,378 records) compile and settle in
# tens of milliseconds but read back in fewer (measured: 37 ms against 14 ms a deal, and an
# `eor nine-and-nines` from disk 0.2 s faster), the value-level Punto Banco deal (103,411) in
# about a second against a tenth.
SMALL_DEAL_RECORDS = 1_000


def worth_keeping(compiled: CompiledDeal[Record]) -> bool:
    """Whether ``compiled`` (and its bets' event matrices) is worth a disk-cache entry."""
    return len(compiled.records) >= SMALL_DEAL_RECORDS


@lru_cache(maxsize=64)
def compiled_for(game: Game[RecordT], needs: Needs) -> CompiledDeal[RecordT]:
    """The deal of ``game`` for ``needs`` compiled, kept in the safe disk cache
    (:mod:`exact.engines.cache`): a fresh process reads it back instead of walking the deal
    again; once per process."""
    return load_or_compile(game.deal(needs), compiled_key(game, needs), _compile_deal)


def _compile_deal(deal: Deal[RecordT]) -> CompiledDeal[RecordT]:
    with status(f"compiling a {deal.round_cards}-card deal (once per run)"):
        return CompiledDeal.compile(deal)


def load_or_compile(deal: Deal[RecordT], parts: Sequence[object],
                    compile_deal: Callable[[Deal[RecordT]], CompiledDeal[RecordT]] | None = None
                    ) -> CompiledDeal[RecordT]:
    """The compiled form of ``deal``, from the disk cache (:mod:`exact.engines.cache`) when
    ``parts`` (game id, rules, needs...) hash to a stored one, else compiled and stored when
    :func:`worth_keeping` (best effort: a cache that cannot be written only costs the next run
    a compilation)."""
    compile_deal = compile_deal or CompiledDeal.compile
    return cached(cache_key("compiled", parts), lambda: compile_deal(deal), _encode_compiled,
                  partial(_decode_compiled, deal), keep=worth_keeping)


def _encode_compiled(compiled: CompiledDeal[Record]) -> tuple[Fields, dict[str, np.ndarray]]:
    """A compiled deal as JSON fields (views, the table of record parts) and int64 arrays."""
    views: dict[View, int] = {}
    factors = [(views.setdefault(view, len(views)), index, offset)
               for view, index, offset in compiled.factors]
    if any(len(factor_ids) != used for factor_ids, used in compiled.terms):
        raise ValueError("a term uses one card per factor")  # the layout below relies on it
    values, record_rows = encode_tuples(compiled.records)
    fields = {"views": [list(view.attributes) for view in views], "record_parts": values}
    arrays = {
        "factors": np.array(factors, dtype=np.int64).reshape(len(factors), 3),
        "term_used": np.array([used for _, used in compiled.terms], dtype=np.int64),
        "term_factors": np.array([i for factor_ids, _ in compiled.terms for i in factor_ids],
                                 dtype=np.int64),
        "records": record_rows,
        "leaf_term": compiled.leaf_term,
        "leaf_record": compiled.leaf_record,
        "leaf_coefficient": compiled.leaf_coefficient,
    }
    return fields, arrays


def _decode_compiled(deal: Deal[RecordT], fields: Fields, arrays: dict[str, np.ndarray]
                     ) -> CompiledDeal[RecordT]:
    """The compiled deal of :func:`_encode_compiled`, every index checked against its table."""
    attributes = fields["views"]
    if not (isinstance(attributes, list) and all(
            isinstance(a, list) and all(isinstance(n, str) for n in a) for a in attributes)):
        raise CorruptEntry("views malformed")
    views = [View(tuple(a)) for a in attributes]
    factor_rows = check_indices(arrays["factors"], INT64_LIMIT, "factors", ndim=2)
    if factor_rows.shape[1] != 3:
        raise CorruptEntry("factors malformed")
    factors = []
    for view_index, class_index, offset in factor_rows.tolist():
        if view_index >= len(views) or class_index >= len(views[view_index].labels) \
                or offset >= deal.round_cards:
            raise CorruptEntry("factors out of range")
        factors.append((views[view_index], class_index, offset))
    used = check_indices(arrays["term_used"], deal.round_cards + 1, "term_used").tolist()
    flat = check_indices(arrays["term_factors"], len(factors), "term_factors").tolist()
    if sum(used) != len(flat):
        raise CorruptEntry("terms malformed")
    terms, start = [], 0
    for length in used:
        terms.append((tuple(flat[start:start + length]), length))
        start += length
    # built on first read: counts from cached event matrices never need the records. The
    # typing boundary (module docstring): tuples read back, taken as the records of ``deal``,
    # which the entry's key (game, rules, needs) and content hash vouch for
    records = cast(Sequence[RecordT], LazyTuples(fields["record_parts"], arrays["records"]))
    leaf_term = check_indices(arrays["leaf_term"], len(terms), "leaf_term")
    leaf_record = check_indices(arrays["leaf_record"], len(records), "leaf_record")
    leaf_coefficient = check_indices(arrays["leaf_coefficient"], INT64_LIMIT, "leaf_coefficient")
    if not len(leaf_term) == len(leaf_record) == len(leaf_coefficient) \
            or (leaf_coefficient == 0).any():
        raise CorruptEntry("leaves malformed")
    return CompiledDeal(deal, factors, terms, records, leaf_term, leaf_record, leaf_coefficient)
