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
from collections.abc import Callable, Mapping, Sequence
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
                 dict[tuple[int, int, int], dict[int, int]], int, list[tuple[int, ...]]]


class _Shape(Protocol):
    @property
    def value_names(self) -> tuple[str, ...]: ...

    @property
    def tallies(self) -> tuple[tuple[str, frozenset[Position], tuple[str, object]], ...]: ...

    @property
    def positional(self) -> tuple[tuple[str, Position], ...]: ...

    @property
    def readers(self) -> tuple[tuple[str, frozenset[Position]], ...]: ...



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

    def read(self, record: Any, reading: tuple[object, ...], hits: Sequence[int],
             placed: Mapping[Position, int]) -> dict[str, object]: ...


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


def restricted(bet: ClassesBet, readings: Mapping[tuple[object, ...], Any]
               ) -> dict[tuple[object, ...], dict[Restriction, list[int]]] | None:
    """Per reading (the value features' readings, each tally's positions; with a record of
    it), the coefficient per event of each restriction, per unit of multiplicity; or None
    when some tally enters a settlement otherwise than by its class (or the bets read
    positions)."""
    shape = bet.shape
    if not shape.tallies or shape.positional or shape.readers or bet.known:
        return None
    offsets = [sum(len(b.events) for b in bet.bets[:n]) for n in range(len(bet.bets))]

    def settle(reading: tuple[object, ...], hits: Sequence[int]) -> tuple[int, ...]:
        read = bet.read(readings[reading], reading, hits, {})
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
                       piece: Callable[[Part], Mapping[Raw, Mapping[Term, int]]]
                       ) -> Compiled | None:
    """The compiled form by restrictions (the factors' terms, slots per depth, edges, leaves,
    spread, ratios), or None when :func:`restricted` refuses the bets. One root; a node per
    prefix of restricted pieces, those that no restriction changes first (so that the
    restrictions share them); a leaf per (node, cards dealt), its coefficients per column.

    When every tally is one position (a card's colour: Super Tie), the restrictions stay out
    of the trie altogether (:func:`_read_parts`): the trie is the value-level walk's, a leaf's
    columns are (read parts, restriction, event), and each column's sum is multiplied by its
    ratio (:data:`Compiled`'s last item: per column its event, the factors of its numerator,
    those of its denominator). Otherwise the columns are the events and there is no ratio."""
    readings: dict[tuple[object, ...], Any] = {}
    for (signature, _, _, npos), (record, _, _) in keys.items():
        readings.setdefault((signature, npos), record)
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
            for raw, raw_terms in piece(part).items():
                if _consistent(raw, restriction):
                    for term, coefficient in raw_terms.items():
                        terms[term] = terms.get(term, 0) + coefficient
            canonical = tuple(sorted(terms.items()))
            found = factor_of.setdefault(canonical, len(factor_of))
            if found == len(factor_terms):
                factor_terms.append(terms)
            restricted_part[part, restriction] = found
        return found

    by_ratio = all(len(cards) == 1 for _, cards, _ in bet.shape.tallies)
    anything: Restriction = (ANY,) * len(bet.shape.tallies)
    columns: dict[tuple[object, ...], int] = {}
    ratios: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    # per (cards dealt, sorted factors): the coefficients per column
    merged: dict[tuple[int, tuple[int, ...]], dict[int, int]] = {}
    factors: tuple[int, ...] = ()
    read: tuple[Part, ...] = ()
    for (signature, used, parts, npos), (_, multiplicity, _) in keys.items():
        if by_ratio:
            values, read = _read_parts(parts)
            factors = tuple(sorted(factor(part, anything) for part in values))
        for restriction, unit in plan[signature, npos].items():
            if not by_ratio:
                factors = tuple(f for _, f in sorted((bool(part[1]), factor(part, restriction))
                                                     for part in parts))
            into = merged.setdefault((used, factors), {})
            for event, coefficient in enumerate(unit):
                if not coefficient:
                    continue
                number = event  # the columns are the events, but by ratios
                if by_ratio:
                    number = columns.setdefault((read, restriction, event), len(columns))
                    if number == len(ratios):  # its read parts' restricted ways, unread ways
                        ratios.append((event, tuple(factor(p, restriction) for p in read),
                                       tuple(factor((p[0], (), sum(c for _, c in p[1])),
                                                    anything) for p in read)))
                into[number] = into.get(number, 0) + coefficient * multiplicity
    slots: list[dict[tuple[object, ...], int]] = [{(): 0}]
    edges: list[tuple[int, int, int, int]] = []
    rows: dict[tuple[int, int, int], dict[int, int]] = {}
    products = Meter("class-by-class counting's products of restricted pieces",
                     PATTERN_UNITS // 4 or 1)
    for (used, factors), coefficients in sorted(merged.items()):
        if not any(coefficients.values()):
            continue
        path: tuple[object, ...] = ()
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
        for column, coefficient in coefficients.items():
            if coefficient:
                row[column] = row.get(column, 0) + coefficient
    widest = max((sum(abs(c) for c in unit) for by in plan.values() for unit in by.values()),
                 default=1)
    spread = len(used_restrictions) * max(widest, 1)
    width = max((len(numerator) for _, numerator, _ in ratios), default=0)
    none = len(factor_terms)  # a factor of one: past the last
    table = [(event, *numerator, *(none,) * (width - len(numerator)),
              *denominator, *(none,) * (width - len(denominator)))
             for event, numerator, denominator in ratios]
    return factor_terms, [len(level) for level in slots], edges, rows, spread, table


def _read_parts(parts: Sequence[Part]) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
    """A round's parts as value-level parts (each value's positions, none told apart) and
    its read parts (each value's positions read by a tally, alone, sorted): a value's
    restricted piece is its read part's restricted piece times the rest of its cards'
    falling factorial, that is its value-level piece times the ratio of its read part's
    restricted piece to its read positions' falling factorial (an integer ratio in total:
    each value-level piece is a multiple of its read positions' falling factorial)."""
    values = tuple((value, (), sum(c for _, c in kinds) + unread)
                   for value, kinds, unread in parts)
    read = tuple(sorted((value, kinds, 0) for value, kinds, _ in parts if kinds))
    return values, read
