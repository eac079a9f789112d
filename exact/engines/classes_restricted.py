"""Class-by-class counting by restrictions: bets whose tallies matter only as none, all or
some of their cards (every card of both hands a heart, each hand of one colour), counted as
signed sums of a few restricted counts instead of a trie of tally states.

Layer: engines, above the model; the engines know no game (the games call them).

A tally of ``n`` positions of a round is *all hits* (``n`` cards meet its predicate), *all
misses* (none does) or *mixed*. Restricting the tally's positions to the cards meeting the
predicate (``hit``), to the others (``miss``) or to none (``any``) gives counts of ordered card
sequences ``E(hit)``, ``E(miss)``, ``E(any)``, and then, exactly::

    all hits = E(hit)    all misses = E(miss)    mixed = E(any) - E(hit) - E(miss)

(for ``n >= 2``; one position is a hit or a miss, none is all of both). With several tallies the
classes combine by products of these signed sums, so a round's count of each combination is a
signed sum over *restrictions* (one per tally). Under one restriction a value class's piece is
one number per shoe, not a polynomial in the tally states, and rounds whose pieces agree under
it merge: the product trie of each restriction is about the value-level walk's, 20-40x fewer
products than the trie of states of :mod:`exact.engines.classes` for the issue's all-hearts
and one-colour-tie bets.

It serves a bet when every tally enters its settlement only by its class: checked for every
reading and every count of every tally (:func:`restricted`), otherwise the trie of states serves
it. Positional features and known cards stay with the trie of states.

Exactness: every restricted count counts ordered card sequences, at most ``N**r``; the signed
sums are taken in int64 when ``spread * N**r`` fits (``spread``: the restrictions times the
largest sum of signs a combination puts on one, a bound on every partial sum's magnitude over
the rounds' count), else in Python integers (:mod:`exact.engines.classes_evaluation`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any, Protocol, cast

from exact.core.work import PATTERN_UNITS, Meter
from exact.model.bets import Bet

Position = tuple[int, int]  # (hand, index) of a positioned game's record
# a piece's raw outcome: per tally its hits and its misses, and the class at each position read
Raw = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[Position, int], ...]]
Term = tuple[tuple[int, int], ...]  # (class, cards taken) ..., then (-1 - value, unread cards)
Part = tuple[int, tuple[tuple[object, int], ...], int]  # (value, (type, positions)..., unread)
ANY, HIT, MISS = 0, 1, 2
Restriction = tuple[int, ...]  # per tally: ANY, HIT or MISS
Compiled = tuple[list[dict[Term, int]], list[int], list[tuple[int, int, int, int]],
                 dict[tuple[int, int, int], dict[int, int]], int]


class _Shape(Protocol):
    @property
    def value_names(self) -> tuple[str, ...]: ...

    @property
    def tallies(self) -> tuple[tuple[str, frozenset[Position], tuple[str, object]], ...]: ...

    @property
    def positional(self) -> tuple[tuple[str, Position], ...]: ...


class ClassesBet(Protocol):
    """What this module reads of a bet being compiled
    (:class:`exact.engines.classes.ClassesBet`)."""

    @property
    def bets(self) -> tuple[Bet, ...]: ...

    @property
    def events(self) -> int: ...

    @property
    def known(self) -> Mapping[int, Any]: ...

    @property
    def shape(self) -> _Shape: ...


def _classes(positions: int) -> list[tuple[int, dict[int, int]]]:
    """A tally's classes on ``positions`` positions: (a count of hits standing for the class,
    its signed sum of restrictions)."""
    if positions == 0:
        return [(0, {ANY: 1})]
    if positions == 1:
        return [(1, {HIT: 1}), (0, {MISS: 1})]
    return [(positions, {HIT: 1}), (0, {MISS: 1}), (1, {ANY: 1, HIT: -1, MISS: -1})]


def _class_of(hits: int, positions: int) -> int:
    """The count standing for the class of ``hits`` (as :func:`_classes` names them)."""
    return hits if hits in (0, positions) else 1


def restricted(bet: ClassesBet, readings: Sequence[tuple[object, ...]]
               ) -> dict[tuple[object, ...], dict[Restriction, list[int]]] | None:
    """Per reading (the value features' readings, each tally's positions), the coefficient
    per event of each restriction, per unit of multiplicity; or None when some tally enters a
    settlement otherwise than by its class (or the bets read positions)."""
    shape = bet.shape
    if not shape.tallies or shape.positional or bet.known:
        return None
    offsets = [sum(len(b.events) for b in bet.bets[:n]) for n in range(len(bet.bets))]

    def settle(reading: tuple[object, ...], hits: Sequence[int]) -> tuple[int, ...]:
        read: dict[str, object] = dict(zip(shape.value_names,
                                           cast(tuple[object, ...], reading[0]), strict=False))
        for (name, _, _), count in zip(shape.tallies, hits, strict=True):
            read[name] = count
        return tuple(offset + b.settle(read) for offset, b in zip(offsets, bet.bets,
                                                                   strict=True))

    out = {}
    for reading in readings:
        npos = cast(tuple[int, ...], reading[1])
        for hits in product(*(range(n + 1) for n in npos)):
            standing = tuple(_class_of(h, n) for h, n in zip(hits, npos, strict=True))
            if settle(reading, hits) != settle(reading, standing):
                return None
        coefficients: dict[Restriction, list[int]] = defaultdict(lambda: [0] * bet.events)
        for combination in product(*(_classes(n) for n in npos)):
            events = settle(reading, [count for count, _ in combination])
            for signs in product(*(list(sums.items()) for _, sums in combination)):
                restriction = tuple(r for r, _ in signs)
                sign = 1
                for _, s in signs:
                    sign *= s
                for event in events:
                    coefficients[restriction][event] += sign
        out[reading] = {r: c for r, c in coefficients.items() if any(c)}
    return out


def _consistent(raw: Raw, restriction: Restriction) -> bool:
    hits, misses, _ = raw
    return all(r == ANY or (r == HIT and m == 0) or (r == MISS and h == 0)
               for r, h, m in zip(restriction, hits, misses, strict=True))


def compile_restricted(bet: ClassesBet, keys: Mapping[Any, tuple[Any, int, Any]],
                       pieces: Mapping[Part, Mapping[Raw, Mapping[Term, int]]]
                       ) -> Compiled | None:
    """The compiled form by restrictions (the factors' terms, slots per depth, edges, leaves,
    spread), or None when :func:`restricted` refuses the bets. One root per restriction; a
    node per (restriction, prefix of restricted pieces); a leaf per (node, cards dealt)."""
    readings = list(dict.fromkeys((signature, npos) for signature, _, _, npos in keys))
    plan = restricted(bet, readings)
    if plan is None:
        return None
    used_restrictions = sorted({r for by in plan.values() for r in by})
    factor_of: dict[tuple[tuple[Term, int], ...], int] = {}
    factor_terms: list[dict[Term, int]] = []
    restricted_part: dict[tuple[Part, Restriction], int] = {}

    def factor(part: Part, restriction: Restriction) -> int:
        found = restricted_part.get((part, restriction))
        if found is None:
            terms: dict[Term, int] = {}
            for raw, raw_terms in pieces[part].items():
                if _consistent(raw, restriction):
                    for term, coefficient in raw_terms.items():
                        terms[term] = terms.get(term, 0) + coefficient
            canonical = tuple(sorted(terms.items()))
            found = factor_of.setdefault(canonical, len(factor_of))
            if found == len(factor_terms):
                factor_terms.append(terms)
            restricted_part[part, restriction] = found
        return found

    # per (restriction, cards dealt, sorted factors): the coefficients per event
    merged: dict[tuple[Restriction, int, tuple[int, ...]], list[int]] = {}
    for (signature, used, parts, npos), (_, multiplicity, _) in keys.items():
        for restriction, unit in plan[signature, npos].items():
            factors = tuple(sorted(factor(part, restriction) for part in parts))
            into = merged.setdefault((restriction, used, factors), [0] * bet.events)
            for event, coefficient in enumerate(unit):
                into[event] += coefficient * multiplicity
    slots: list[dict[tuple[object, ...], int]] = [{(r,): n for n, r in
                                                   enumerate(used_restrictions)}]
    edges: list[tuple[int, int, int, int]] = []
    rows: dict[tuple[int, int, int], dict[int, int]] = {}
    products = Meter("class-by-class counting's products of restricted pieces",
                     PATTERN_UNITS // 4 or 1)
    for (restriction, used, factors), coefficients in sorted(merged.items()):
        if not any(coefficients):
            continue
        path: tuple[object, ...] = (restriction,)
        for depth, number in enumerate(factors, 1):
            child = (*path, number)
            if len(slots) <= depth:
                slots.append({})
            if child not in slots[depth]:
                slots[depth][child] = len(slots[depth])
                edges.append((depth, slots[depth - 1][path], number, slots[depth][child]))
                products.tick()
            path = child
        row = rows.setdefault((len(factors), slots[len(factors)][path], used), {})
        for event, coefficient in enumerate(coefficients):
            if coefficient:
                row[event] = row.get(event, 0) + coefficient
    widest = max((sum(abs(c) for c in unit) for by in plan.values() for unit in by.values()),
                 default=1)
    spread = len(used_restrictions) * max(widest, 1)
    return factor_terms, [len(level) for level in slots], edges, rows, spread
