"""Class-by-class counting of card attributes: bets on suits, colours and ranks, counted or
read by position, as sums over value-level rounds of products of per-class polynomials.

Layer: engines, above the model; the engines know no game (the games call them).

The deal depends on point values only, so the rounds are walked once at the level of values
(:func:`exact.engines.factorised.value_sequences`). Given a round's values, the cards of one
value class are drawn without replacement from that class alone, independently of the other
classes. So the ways to dress a round's values with suits, colours and ranks factor class by
class:

* a value class ``v`` holds ``m_v`` of the round's positions, each of a *type*: the tallies
  whose cards include it (``dealt_hearts``, ``player_reds``: features declaring
  :attr:`~exact.model.features.Feature.counts`), or the position itself when a feature reads
  that card by position (``player_card3_suit``), or none (read by value only);
* the cards of ``v`` are split into the *classes the bet tells apart* (the hearts and the
  others, for ``dealt_hearts``; the label a positional feature reads);
* the *piece* of ``v`` -- its polynomial -- maps each outcome (how much each tally grows, which
  class sits at each position read) to the number of ordered ways to fill the ``m_v``
  positions with cards of ``v``: a sum over the class counts ``a_c`` taken of
  ``multinomials x prod_c falling(n_c, a_c) x falling(n_v - sum a, unread)``.

A round's counts are then the product of its classes' pieces (tallies add, positions join),
times the falling factorial of the rest of the shoe, settled per combined outcome. Rounds that
agree on the value features' readings and on each class's position types (a *key*) share
their pieces; the product of a key's pieces is expanded into *monomials* (one outcome per
piece), each a product of a few piece values, merged over keys with integer coefficients per
event. A shoe (or a batch of shoes) costs: the elementary falling factorials of its class
counts, the piece values (sums of their products), and one product per monomial along a trie
of their sorted factor lists (one numpy operation per depth for the whole batch), then one
matrix product by the coefficients. No pattern of card classes is walked: the work grows with
the value rounds and the outcomes the bet reads, not with the number of classes.

Bets whose tallies enter their settlement only as none, all or some of their cards are
compiled by restrictions instead, into the same arrays with signed leaves and no states
(:mod:`exact.engines.classes_restricted`); the arrays are evaluated for a batch of shoes by
:mod:`exact.engines.classes_evaluation`.

Exactness: every piece value counts ordered card sequences of part of a round, every monomial
and every partial sum of the final product counts ordered sequences of a round or part of it:
non-negative integers at most ``N**r``. So float64 holds them exactly below ``2**53``, int64
below ``2**63``, Python integers beyond (:func:`exact.engines.batch_numbers.batch_dtype`). Every
shoe's counts are checked to sum to ``N!/(N-r)!``.

What it serves (:func:`refusal`): a game with card positions
(:class:`~exact.model.contracts.CardPositions`) and bets whose features beyond values are each
a tally or read one declared position. Features reading a pool of positions otherwise (pairs,
``all_same_color``) stay with factorised counting.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement, product
from math import prod
from typing import Any, cast

import numpy as np

from exact.core.cards import CARDS, Card, Label, Shoe, View
from exact.core.enumerator import check_shoe, group_coefficient
from exact.core.work import PATTERN_UNITS, Meter
from exact.engines import cache
from exact.engines.batch_numbers import (
    INT64_LIMIT,
    batch_dtype,
    check_batch,
    counts_matrix,
    rest_of_round,
    shoe_sizes,
)
from exact.engines.classes_evaluation import ClassArrays, signed_dtype
from exact.engines.classes_restricted import Part, Position, Raw, Term, compile_restricted
from exact.engines.engine import classes_refusal
from exact.engines.factorised import (
    Hands,
    _column,
    _padded,
    batch_cards,
    value_sequences,
)
from exact.errors import ShoeError
from exact.model.bets import Bet
from exact.model.contracts import CapabilityError, CardPositions, DealtPositions, draw_stages
from exact.model.features import ORDER, Feature
from exact.model.game import Game, game_key

DECK = frozenset(card for card in CARDS if not card.is_joker)
_FORMAT = "classes-5"


def _fine(feature: Feature[Any]) -> set[str]:
    return {a for _, a in feature.needs.pairs if a not in ("value", ORDER)}


def refusal(game: Game[Any], bets: Sequence[Bet]) -> str | None:
    """Why class-by-class counting cannot serve ``bets`` of ``game``, or None when it can
    (the plan's rule, :func:`exact.engines.engine.classes_refusal`, for every bet)."""
    if not any(_fine(game.features[name]) for bet in bets for name in bet.features):
        return "it serves card attributes beyond values; these bets read values"
    return next(filter(None, (classes_refusal(game, bet) for bet in bets)), None)


@dataclass(frozen=True)
class _Shape:
    """What the bets read, as this engine counts it."""

    value_names: tuple[str, ...]  # read off the value-level record
    tallies: tuple[tuple[str, frozenset[Position], tuple[str, object]], ...]
    positional: tuple[tuple[str, Position], ...]  # features reading one card by position
    view: View  # the attributes the positional features read

    @classmethod
    def of(cls, game: Game[Any], names: Sequence[str]) -> _Shape:
        value_names, tallies, positional, attributes = [], [], [], set()
        for name in sorted(names):
            feature = game.features[name]
            if not _fine(feature):
                value_names.append(name)
            elif feature.counts is not None and feature.cards is not None:
                tallies.append((name, cast(frozenset[Position], feature.cards), feature.counts))
            elif feature.cards is not None and len(feature.cards) == 1:
                position, = cast(frozenset[Position], feature.cards)
                positional.append((name, position))
                attributes |= _fine(feature)
            else:
                raise CapabilityError(f"class-by-class counting cannot read {name}")
        return cls(tuple(value_names), tuple(tallies), tuple(positional),
                   View(tuple(sorted(attributes))))

    @cached_property
    def predicates(self) -> tuple[tuple[str, object], ...]:
        return tuple(dict.fromkeys(counts for _, _, counts in self.tallies))

    def signature(self, card: Card) -> tuple[object, ...]:
        """What the bets can tell of a card beyond its value: the label its positional
        features read, and which tallies' predicates it meets."""
        label = self.view.label(card) if self.positional else None
        return (label, tuple(getattr(card, attribute) == wanted
                             for attribute, wanted in self.predicates))

    def position_type(self, position: Position) -> tuple[Position | None, tuple[int, ...]]:
        at = position if any(p == position for _, p in self.positional) else None
        return at, tuple(i for i, (_, cards, _) in enumerate(self.tallies) if position in cards)


class ClassesBet:
    """Bets compiled to monomials of piece values with integer coefficients per event
    (shoe-independent); ``known``: cards known at positions of the round (1 = the first card
    dealt), forced there, the shoe counted being the one left without them."""

    def __init__(self, game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card],
                 known: tuple[tuple[int, Card], ...] = ()) -> None:
        reason = refusal(game, bets)
        if reason is not None:
            raise CapabilityError(f"class-by-class counting: {reason}")
        self.bets = bets
        self.events = sum(len(bet.events) for bet in bets)
        self.names = sorted(set().union(*(bet.features for bet in bets)))
        self.needs = game.needs(self.names)
        self.deal = game.deal(self.needs)
        self.round_cards = self.deal.round_cards
        self.known = dict(known)
        self.free_cards = self.round_cards - len(self.known)
        self.shape = _Shape.of(game, self.names)
        # the classes of cards the bets tell apart, per value: (value, signature) -> cards
        members: dict[tuple[int, tuple[object, ...]], list[int]] = defaultdict(list)
        for index, card in enumerate(CARDS):
            if card in cards and card.value is not None:
                members[card.value, self.shape.signature(card)].append(index)
        self.classes = sorted(members, key=repr)
        self.members = [members[c] for c in self.classes]
        self.values = frozenset(value for value, _ in self.classes)
        self.by_value: dict[int, list[int]] = defaultdict(list)
        for number, (value, _) in enumerate(self.classes):
            self.by_value[value].append(number)

    # --- compilation ---------------------------------------------------------------------

    def compile(self, game: Game[Any]) -> ClassesBet:
        """Keys, pieces, the reduced states, then the levels of the product trie."""
        keys = self._keys(game)
        pieces: dict[Part, dict[Raw, dict[Term, int]]] = {}
        for (_, _, parts, _) in keys:
            for part in parts:
                if part not in pieces:
                    pieces[part] = self._piece(*part)
        by_restrictions = compile_restricted(self, keys, pieces)
        if by_restrictions is not None:  # tallies read as none, all or some of their cards
            self._arrays(*by_restrictions)
            return self
        readings: dict[tuple[object, ...], Hands] = {}
        for (signature, _, _, npos), (record, _, _) in keys.items():
            readings.setdefault((signature, npos), record)
        states = _States(self, list(readings.items()))
        self.states = states
        # piece outcomes reduced: the factors (part, reduced outcome), each a sum of terms
        factor_id: dict[tuple[Part, tuple[int, ...]], int] = {}
        factor_terms: list[dict[Term, int]] = []
        reduced: dict[Part, list[tuple[int, tuple[int, ...]]]] = {}
        for part, outcomes in pieces.items():
            merged: dict[tuple[int, ...], dict[Term, int]] = defaultdict(dict)
            for raw, terms in outcomes.items():
                into = merged[states.outcome(raw)]
                for term, coefficient in terms.items():
                    into[term] = into.get(term, 0) + coefficient
            reduced[part] = []
            for outcome, terms in merged.items():
                number = factor_id.setdefault((part, outcome), len(factor_id))
                if number == len(factor_terms):
                    factor_terms.append(terms)
                reduced[part].append((number, outcome))
        # the trie of keys: a node per (constant state, prefix of parts); per depth its slots
        # (node, reachable state), and the edges (slot before, factor, slot after)
        slots: list[dict[tuple[int, int], int]] = [{}]
        edges: list[tuple[int, int, int, int]] = []
        node_of: dict[tuple[object, ...], int] = {}
        reach: dict[int, set[int]] = {}
        leaves: list[tuple[int, int, int, tuple[object, ...], int]] = []  # depth, node, used...
        work = 0
        # each product drawn from the run's budget as the trie grows (its size is known only by
        # building it): a bet past the bound stops before the chunk that would pass it
        products = Meter("class-by-class counting's products of per-class polynomials",
                         PATTERN_UNITS // 4 or 1)
        for (signature, used, parts, npos), (_, multiplicity, constant) in sorted(
                keys.items(), key=lambda item: repr(item[0][2])):
            start = states.start(constant)
            path: tuple[object, ...] = (start,)
            if path not in node_of:
                node_of[path] = len(node_of)
                reach[node_of[path]] = {start}
                slots[0][node_of[path], start] = len(slots[0])
            node = node_of[path]
            for depth, part in enumerate(parts, 1):
                child_path = (*path, part)
                child = node_of.get(child_path)
                if child is None:
                    child = node_of[child_path] = len(node_of)
                    if len(slots) <= depth:
                        slots.append({})
                    level = slots[depth]
                    targets: set[int] = set()
                    for state in sorted(reach[node]):
                        before = slots[depth - 1][node, state]
                        for number, outcome in reduced[part]:
                            after = states.combine(state, outcome)
                            slot = level.setdefault((child, after), len(level))
                            edges.append((depth, before, number, slot))
                            targets.add(after)
                            work += 1
                            products.tick()
                    reach[child] = targets
                path, node = child_path, child
            leaves.append((len(parts), node, used, (signature, npos), multiplicity))
            if work > TRIPLE_LIMIT:
                raise CapabilityError(f"class-by-class counting: more than {TRIPLE_LIMIT:,} "
                                      "products per shoe")
        offsets = [sum(len(bet.events) for bet in self.bets[:n]) for n in range(len(self.bets))]
        settled: dict[tuple[object, ...], tuple[int, ...]] = {}
        rows: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
        for depth, node, used, reading, multiplicity in leaves:
            record = readings[reading]
            for state in reach[node]:
                events = settled.get((reading, state))
                if events is None:
                    read = states.read(record, reading, state)
                    events = settled[reading, state] = tuple(
                        offset + bet.settle(read)
                        for offset, bet in zip(offsets, self.bets, strict=True))
                row = rows[depth, slots[depth][node, state], used]
                for event in events:
                    row[event] = row.get(event, 0) + multiplicity
        self._arrays(factor_terms, [len(level) for level in slots], edges, rows)
        return self

    def _keys(self, game: Game[Any]) -> dict[Any, tuple[Hands, int, Raw]]:
        """Per key (value features' readings, free cards dealt, per value class its position
        types and unread positions, each tally's dealt positions): a representative record,
        the value sequences' summed multiplicity, and the known cards' fixed outcome."""
        shape = self.shape
        ordered = self._ordered(game)
        forced: tuple[tuple[int, int], ...] = ()
        if self.known:
            stages = _dealt(game).position_stages
            ordered = ordered | (frozenset(stages[p - 1] for p in self.known)
                                 - draw_stages(game))
            forced = tuple(sorted((p, cast(int, card.value)) for p, card in self.known.items()))
        values = self.values | {cast(int, card.value) for card in self.known.values()}
        sequences = value_sequences(game, ordered, frozenset(values),
                                    bool(self.needs.stages & draw_stages(game)), forced)
        positions = cast(CardPositions, game).card_positions
        types = {p: shape.position_type(p) for p in positions}
        # each position's kind as a number (0: read by value only), per hand
        kinds: list[object] = [None]
        kind_of: dict[Position, int] = {}
        for position in positions:
            at, counted = types[position]
            kind = (at, counted) if (at is not None or counted) else None
            if kind not in kinds:
                kinds.append(kind)
            kind_of[position] = kinds.index(kind)
        hands = max(h for h, _ in positions) + 1
        by_hand = [[kind_of.get((h, i), 0) for i in range(1 + max(
            (i for g, i in positions if g == h), default=-1))] for h in range(hands)]
        readers = [game.features[name].read for name in shape.value_names] + \
            [game.features[name].read for name, _ in shape.positional]
        undealt = [(len(shape.value_names) + n, p)
                   for n, (_, p) in enumerate(shape.positional)]
        keys: dict[Any, tuple[Hands, int, Raw]] = {}
        # many value sequences share their values per kind of position: each converted once
        converted: dict[tuple[tuple[int, int], ...], tuple[int, tuple[Part, ...],
                                                           tuple[int, ...]]] = {}
        meter = Meter("the value walk of a card-level bet's shape")
        nothing: Raw = ((0,) * len(shape.tallies), (0,) * len(shape.tallies), ())
        for record, multiplicity in sequences:
            meter.tick()
            signature = tuple(read(record) for read in readers[:len(shape.value_names)]) + \
                tuple((n, readers[n](record)) for n, (h, i) in undealt if i >= len(record[h]))
            if self.known:
                key, constant = self._known_key(game, record, signature, types, kinds,
                                                kind_of)
            else:
                items = tuple(sorted((cast(int, label.value), kind) for hand, row in zip(
                    record, by_hand, strict=False) for label, kind in zip(hand, row,
                                                                          strict=False)))
                found_items = converted.get(items)
                if found_items is None:
                    found_items = converted[items] = self._convert(items, kinds)
                key, constant = (signature, *found_items), nothing
            found = keys.get(key)
            if found is None:
                keys[key] = (record, multiplicity, constant)
            else:
                keys[key] = (found[0], found[1] + multiplicity, constant)
        return keys

    def _convert(self, items: tuple[tuple[int, int], ...], kinds: list[object]
                 ) -> tuple[int, tuple[Part, ...], tuple[int, ...]]:
        """(cards dealt, parts, each tally's dealt positions) of a round's sorted (value,
        kind number) pairs."""
        npos = [0] * len(self.shape.tallies)
        per_value: dict[int, Counter[object]] = defaultdict(Counter)
        for value, number in items:
            kind = kinds[number]
            if kind is not None:
                for t in cast(tuple[object, tuple[int, ...]], kind)[1]:
                    npos[t] += 1
            per_value[value][kind] += 1
        parts = []
        for value, counted in sorted(per_value.items()):
            unread = counted.pop(None, 0)
            parts.append((value, tuple(sorted(counted.items(), key=repr)), unread))
        return len(items), tuple(parts), tuple(npos)

    def _known_key(self, game: Game[Any], record: Hands, signature: tuple[object, ...],
                   types: Mapping[Position, tuple[Position | None, tuple[int, ...]]],
                   kinds: list[object], kind_of: Mapping[Position, int]
                   ) -> tuple[Any, Raw]:
        """The key of a record with known cards, and their fixed outcome."""
        fixed = self._fixed(game, record)
        tallies = len(self.shape.tallies)
        hits, misses, npos = [0] * tallies, [0] * tallies, [0] * tallies
        placed = []
        items = []
        for h, hand in enumerate(record):
            for i, label in enumerate(hand):
                at, counted = types[h, i]
                if (h, i) not in fixed:
                    items.append((cast(int, label.value), kind_of[h, i]))
                    continue
                number = fixed[h, i]
                for t in counted:
                    npos[t] += 1
                    hits[t] += self._hits(number, t)
                    misses[t] += 1 - self._hits(number, t)
                if at is not None:
                    placed.append((at, number))
        used, parts, free = self._convert(tuple(sorted(items)), kinds)
        key = (signature, used, parts, tuple(a + b for a, b in zip(npos, free, strict=True)))
        return key, (tuple(hits), tuple(misses), tuple(sorted(placed)))

    def _hits(self, number: int, tally: int) -> int:
        """Whether class ``number`` meets the predicate of tally ``tally`` (0 or 1)."""
        signature = cast(tuple[object, tuple[bool, ...]], self.classes[number][1])
        return int(signature[1][self._predicate[tally]])

    @cached_property
    def _predicate(self) -> list[int]:
        return [self.shape.predicates.index(counts) for _, _, counts in self.shape.tallies]

    def _ordered(self, game: Game[Any]) -> frozenset[str]:
        """Which stages the value walk deals one by one: those a feature reads in order, or
        whose first two positions are of different types."""
        stages = cast(CardPositions, game).stage_positions
        out = set()
        for stage, positions in stages.items():
            if stage in draw_stages(game):
                continue
            if self.needs.ordered(stage) or \
                    len({self.shape.position_type(p) for p in positions}) > 1:
                out.add(stage)
        return frozenset(out)

    def _fixed(self, game: Game[Any], record: Hands) -> dict[Position, int]:
        """The slots of ``record`` holding a known card, with its class number."""
        if not self.known:
            return {}
        slots = [(h, i) for h, hand in enumerate(record) for i in range(len(hand))]
        dealt = _dealt(game).dealt_positions(self.deal.start(), record)
        out = {}
        for slot, position in zip(slots, dealt, strict=True):
            if position in self.known:
                card = self.known[position]
                out[slot] = self.classes.index((cast(int, card.value),
                                                self.shape.signature(card)))
        return out

    def _piece(self, value: int, kinds: tuple[tuple[object, int], ...], unread: int
               ) -> dict[Raw, dict[Term, int]]:
        """The polynomial of value class ``value`` on positions of ``kinds`` (type, how
        many) and ``unread`` positions: per raw outcome (tally hits, classes at positions),
        its terms (classes' cards taken, the unread count last) with integer coefficients."""
        classes = self.by_value[value]
        per_kind = []
        for kind, count in kinds:
            at, counted = cast(tuple[Position | None, tuple[int, ...]], kind)
            per_kind.append([(group, group_coefficient(group), at, counted)
                             for group in combinations_with_replacement(classes, count)])
        outcomes: dict[Raw, dict[Term, int]] = defaultdict(dict)
        for chosen in product(*per_kind):
            hits = [0] * len(self.shape.tallies)
            misses = [0] * len(self.shape.tallies)
            placed = []
            coefficient = 1
            taken: Counter[int] = Counter()
            for group, ways, at, counted in chosen:
                coefficient *= ways
                taken.update(group)
                for number in group:
                    for t in counted:
                        hits[t] += self._hits(number, t)
                        misses[t] += 1 - self._hits(number, t)
                    if at is not None:
                        placed.append((at, number))
            outcome: Raw = (tuple(hits), tuple(misses), tuple(sorted(placed)))
            term: Term = (*sorted(taken.items()), (-1 - value, unread))
            found = outcomes[outcome]
            found[term] = found.get(term, 0) + coefficient
        return outcomes

    def _feature(self, name: str) -> Feature[Any]:
        return cast(Feature[Any], self.__dict__["_game_features"][name])

    def _arrays(self, factor_terms: list[dict[Term, int]], slots: list[int],
                edges: list[tuple[int, int, int, int]],
                rows: Mapping[tuple[int, int, int], dict[int, int]], spread: int = 1) -> None:
        """The compiled form as int64 arrays: the elementary falling factorials, the terms of
        every factor, the trie's edges and the leaves' coefficients."""
        elementary: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}  # (kind, what, how many)
        term_rows, term_coefficient, term_factor = [], [], []
        for factor, terms in enumerate(factor_terms):
            for term, coefficient in terms.items():
                ids = []
                taken = 0
                for what, count in term:
                    if what < 0:  # the unread cards of the value: n_v - taken, count
                        ids.append(elementary.setdefault((2, -1 - what, taken * 16 + count),
                                                         len(elementary)))
                    else:
                        taken += count
                        ids.append(elementary.setdefault((1, what, count), len(elementary)))
                term_rows.append(tuple(ids))
                term_coefficient.append(coefficient)
                term_factor.append(factor)
        row_keys = sorted(rows)
        fills = [elementary.setdefault((3, used, 0), len(elementary))
                 for _, _, used in row_keys]
        self._elementary = np.array(list(elementary), dtype=np.int64).reshape(-1, 3)
        self._term_rows = _padded(term_rows)
        self._term_coefficient = _column(term_coefficient)
        self._term_factor = _column(term_factor)
        self._factors = np.array([len(factor_terms)], dtype=np.int64)
        self._slots = np.array(slots, dtype=np.int64)
        # sorted by depth and by the slot reached (the order of evaluation); the depth kept
        # as the number of edges per depth (an entry of a million edges stays under the
        # cache's size bound)
        ordered = np.array(edges, dtype=np.int64).reshape(len(edges), 4)
        ordered = ordered[np.lexsort((ordered[:, 3], ordered[:, 0]))]
        self._level_edges = np.bincount(ordered[:, 0], minlength=len(slots))[1:].astype(np.int64)
        self._edges = np.ascontiguousarray(ordered[:, 1:])
        self._rows = np.array([(depth, slot, fill) for (depth, slot, _), fill
                               in zip(row_keys, fills, strict=True)],
                              dtype=np.int64).reshape(len(row_keys), 3)
        signed = np.zeros((len(row_keys), self.events), dtype=np.int64)
        for n, key in enumerate(row_keys):
            for event, value in rows[key].items():
                signed[n, event] = value
        # signed sums of restrictions (exact.engines.classes_restricted) stored as two
        # non-negative parts; ``spread`` bounds their partial sums over the rounds' count
        self._coefficients = np.maximum(signed, 0)
        self._negatives = np.maximum(-signed, 0)
        self._spread = np.array([spread], dtype=np.int64)

    # --- evaluation (exact.engines.classes_evaluation) --------------------------------------

    @cached_property
    def arrays(self) -> ClassArrays:
        """The compiled arrays with what their evaluation needs of the bet."""
        return ClassArrays(
            self._elementary, self._term_rows, self._term_coefficient, self._term_factor,
            int(self._factors[0]), self._slots, self._level_edges, self._edges, self._rows,
            self._coefficients - self._negatives, self.members, self.free_cards,
            int(self._spread[0]))

    def batch_counts(self, counts: np.ndarray) -> list[np.ndarray]:
        """Per bet, the (shoes x events) exact counts of a batch of shoes ((shoes x 53) card
        counts), checked to sum to ``N!/(N-r)!`` (over the free positions with known cards).

        Every value below counts ordered card sequences of a round or part of it: a
        non-negative integer at most ``N**r``, as every partial sum (module docstring).
        Arrays are (columns x shoes): a gather of columns copies whole rows."""
        matrix = check_batch(self.deal, counts) if not self.known else \
            np.asarray(counts, dtype=np.int64)
        sizes = shoe_sizes(matrix)
        unit = self.free_cards
        if len(matrix) and int(sizes.min()) < unit:
            raise ShoeError(f"a shoe of {int(sizes.min())} cards cannot fill a round of "
                            f"{self.round_cards}")
        largest = int(sizes.max(initial=0))
        dtype: Any = batch_dtype(largest, unit)
        every = self.arrays.counts(matrix, sizes, dtype, signed_dtype(dtype, largest**unit,
                                                                     self.arrays.spread))
        if dtype == np.float64:
            every = every.astype(np.int64)
        totals = rest_of_round(sizes, 0, unit, every.dtype)
        out, start = [], 0
        for bet in self.bets:
            result = every[:, start:start + len(bet.events)]
            start += len(bet.events)
            if not np.array_equal(result.sum(axis=1), totals):
                raise AssertionError(f"{bet.id}: class-by-class counts do not sum to "
                                     "N!/(N-r)!")
            out.append(result)
        return out

    def counts(self, shoe: Shoe) -> list[list[int]]:
        """Exact event counts of each bet for ``shoe`` (Python integers)."""
        if self.known:
            if shoe.size < self.free_cards:
                raise ShoeError(f"{shoe.size} unseen cards cannot fill a round of "
                                f"{self.round_cards}")
        else:
            check_shoe(self.deal, shoe)
        return [[int(c) for c in row[0]] for row in self.batch_counts(counts_matrix([shoe]))]


class _States:
    """The outcomes a bet can tell apart, reduced: each tally's hits or misses counted up to
    the cap past which no settlement changes, each position's class up to the classes no
    settlement tells apart; a state is their mixed-radix number.

    The reductions are found by settling every reading the keys allow (value features'
    readings, each tally's dealt positions, every count, every class at every position),
    each dimension with the others unreduced, so that applying them all at once is exact."""

    def __init__(self, bet: ClassesBet, readings: list[tuple[tuple[object, ...], Hands]]
                 ) -> None:
        self.bet = bet
        self.readings = readings
        shape = bet.shape
        self.positions = sorted({p for _, p in shape.positional})
        classes = range(len(bet.classes))
        # positions: classes read alike by every positional feature there, then by settling
        self.position_class: list[dict[int, int]] = []
        for position in self.positions:
            names = [name for name, p in shape.positional if p == position]
            by_reading: dict[tuple[object, ...], int] = {}
            mapping = {}
            for number in classes:
                label = cast(Label, bet.classes[number][1][0])
                reading = tuple(bet._feature(name).read(_placed(position, label))
                                for name in names)
                mapping[number] = by_reading.setdefault(reading, len(by_reading))
            self.position_class.append(mapping)
        for index in range(len(self.positions)):
            self._refine_position(index)
        self.tally_mode: list[tuple[bool, int]] = []  # (count misses, cap)
        for tally in range(len(shape.tallies)):
            self.tally_mode.append(self._tally_reduction(tally))
        self.sizes = [cap + 1 for _, cap in self.tally_mode] + \
            [len(set(mapping.values())) + 1 for mapping in self.position_class]

    def _settle(self, record: Hands, reading: tuple[object, ...], hits: Sequence[int],
                placed: Mapping[Position, int]) -> tuple[int, ...]:
        read = self._read_raw(record, reading, hits, placed)
        return tuple(bet.settle(read) for bet in self.bet.bets)

    def _read_raw(self, record: Hands, reading: tuple[object, ...], hits: Sequence[int],
                  placed: Mapping[Position, int]) -> dict[str, object]:
        bet = self.bet
        shape = bet.shape
        signature = cast(tuple[object, ...], reading[0])
        read: dict[str, object] = dict(zip(shape.value_names, signature, strict=False))
        # the positional features of positions not dealt: (their reader's number, value)
        undealt = dict(cast(tuple[tuple[int, object], ...], signature[len(shape.value_names):]))
        for n, (name, (h, i)) in enumerate(shape.positional):
            if i >= len(record[h]):
                read[name] = undealt[len(shape.value_names) + n]
                continue
            label = cast(Label, bet.classes[placed[h, i]][1][0])
            read[name] = bet._feature(name).read(_placed((h, i), label))
        for (name, _, _), count in zip(shape.tallies, hits, strict=True):
            read[name] = count
        return read

    def _combos(self, skip_tally: int | None, skip_position: int | None
                ) -> list[tuple[Hands, tuple[object, ...], list[range], list[list[int]]]]:
        """Per reading: the domains of the other tallies and the classes of the other
        positions dealt (one class per reduced class)."""
        out = []
        for reading, record in self.readings:
            npos = cast(tuple[int, ...], reading[1])
            tallies = [range(1) if t == skip_tally else range(n + 1)
                       for t, n in enumerate(npos)]
            positions = []
            for index, (h, i) in enumerate(self.positions):
                if index == skip_position or i >= len(record[h]):
                    positions.append([-1])
                else:
                    firsts: dict[int, int] = {}
                    for number, reduced in self.position_class[index].items():
                        firsts.setdefault(reduced, number)
                    positions.append(list(firsts.values()))
            out.append((record, reading, tallies, positions))
        return out

    def _refine_position(self, index: int) -> None:
        """Classes at position ``index`` that settle alike in every reading, merged (when
        the readings are few enough to settle them all)."""
        position = self.positions[index]
        combos = self._combos(None, index)
        size = sum(prod(len(r) for r in tallies) * prod(len(p) for p in positions)
                   for _, _, tallies, positions in combos)
        if size * len(self.position_class[index]) > _CHECK_LIMIT:
            return
        firsts: dict[int, int] = {}
        for number, reduced in self.position_class[index].items():
            firsts.setdefault(reduced, number)
        vectors: dict[int, tuple[object, ...]] = {}
        for reduced, number in firsts.items():
            settled: list[object] = []
            for record, reading, tallies, positions in combos:
                if position[1] >= len(record[position[0]]):
                    continue
                for hits in product(*tallies):
                    for chosen in product(*positions):
                        placed = {p: c for p, c in zip(self.positions, chosen, strict=True)
                                  if c >= 0}
                        placed[position] = number
                        settled.append(self._settle(record, reading, hits, placed))
            vectors[reduced] = tuple(settled)
        merged: dict[tuple[object, ...], int] = {}
        renumber = {reduced: merged.setdefault(vector, len(merged))
                    for reduced, vector in vectors.items()}
        self.position_class[index] = {number: renumber[reduced] for number, reduced
                                      in self.position_class[index].items()}

    def _tally_reduction(self, tally: int) -> tuple[bool, int]:
        """(count misses, cap): the smallest cap on the hits or the misses of ``tally`` past
        which no settlement changes; (False, most positions) when none is smaller."""
        most = max((cast(tuple[int, ...], reading[1])[tally] for reading, _ in self.readings),
                   default=0)
        combos = self._combos(tally, None)
        size = sum(prod(len(r) for r in tallies) * prod(len(p) for p in positions)
                   for _, _, tallies, positions in combos) * (most + 1)
        if size > _CHECK_LIMIT:
            return False, most
        # per (mode, cap) whether it holds: settle every count once
        table = []
        for record, reading, tallies, positions in combos:
            npos = cast(tuple[int, ...], reading[1])[tally]
            for hits in product(*tallies):
                for chosen in product(*positions):
                    placed = {p: c for p, c in zip(self.positions, chosen, strict=True)
                              if c >= 0}
                    row = []
                    for count in range(npos + 1):
                        full = list(hits)
                        full[tally] = count
                        row.append(self._settle(record, reading, full, placed))
                    table.append(row)
        for cap in range(most):
            for misses in (False, True):
                if all(len({row[len(row) - 1 - c] if misses else row[c]
                            for c in range(cap, len(row))}) <= 1 for row in table):
                    return misses, cap
        return False, most

    def outcome(self, raw: Raw) -> tuple[int, ...]:
        """A piece's raw outcome (hits per tally, classes at positions) reduced: per tally
        its hits or misses counted (capped later, on combining), per position its class (0:
        not this piece's)."""
        hits, misses, placed = raw
        at = dict(placed)
        counted = (m if counts_misses else h for (counts_misses, _), h, m
                   in zip(self.tally_mode, hits, misses, strict=True))
        return (*counted, *(self.position_class[i][at[p]] + 1 if p in at else 0
                         for i, p in enumerate(self.positions)))

    def start(self, constant: Raw) -> int:
        return self.combine(0, self.outcome(constant))

    def combine(self, state: int, outcome: tuple[int, ...]) -> int:
        """The state after a piece's outcome: counts added and capped, classes placed."""
        digits = self.digits(state)
        tallies = len(self.tally_mode)
        for t, (_, cap) in enumerate(self.tally_mode):
            digits[t] = min(digits[t] + outcome[t], cap)
        for i in range(tallies, len(digits)):
            if outcome[i]:
                digits[i] = outcome[i]
        return self.number(digits)

    def digits(self, state: int) -> list[int]:
        out = []
        for size in self.sizes:
            out.append(state % size)
            state //= size
        return out

    def number(self, digits: Sequence[int]) -> int:
        state = 0
        for digit, size in zip(reversed(digits), reversed(self.sizes), strict=True):
            state = state * size + digit
        return state

    def read(self, record: Hands, reading: tuple[object, ...], state: int
             ) -> dict[str, object]:
        """The features' values of a leaf state: a representative of every reduced class."""
        digits = self.digits(state)
        npos = cast(tuple[int, ...], reading[1])
        hits = []
        for t, (misses, _) in enumerate(self.tally_mode):
            hits.append(npos[t] - digits[t] if misses else digits[t])
        placed = {}
        for i, position in enumerate(self.positions):
            if digits[len(self.tally_mode) + i]:
                wanted = digits[len(self.tally_mode) + i] - 1
                placed[position] = next(number for number, reduced
                                        in sorted(self.position_class[i].items())
                                        if reduced == wanted)
        return self._read_raw(record, reading, hits, placed)


def _placed(position: Position, label: Label) -> Hands:
    """A record holding ``label`` at ``position`` (a positional feature reads that card
    alone, as it declares)."""
    h, i = position
    hands: list[list[Label]] = [[], []]
    while len(hands) <= h:
        hands.append([])
    hands[h] = [label] * (i + 1)
    return tuple(tuple(hand) for hand in hands)


_CHECK_LIMIT = 200_000  # settlements the state reduction may run per dimension
TRIPLE_LIMIT = 20_000_000  # products per shoe a compiled bet may take


def _dealt(game: Game[Any]) -> DealtPositions:
    if not isinstance(game, DealtPositions):
        raise CapabilityError(f"{game.id} does not say which positions its draws fill: "
                              "class-by-class counting cannot force a card at a position")
    return game


# --- the four entries: estimate, one shoe, a batch, known cards -------------------------------

def _compiled(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card],
              known: tuple[tuple[int, Card], ...] = ()) -> ClassesBet:
    compiled = ClassesBet(game, bets, cards, known)
    compiled.__dict__["_game_features"] = game.features
    return compiled.compile(game)


@lru_cache(maxsize=64)
def _cached(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card]) -> ClassesBet:
    """The compiled bets, kept in the safe disk cache (int64 arrays, range-checked)."""
    return cache.cached(entry_key(game, bets, cards), lambda: _compiled(game, bets, cards), _encode,
                        lambda fields, arrays: _decode(game, bets, cards, arrays))


def entry_key(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card]) -> cache.Key:
    """The disk-cache key of the compiled ``bets``: the layout, the game and its rules, the
    cards the shoe may hold, each bet's events (:func:`exact.engines.cache.bet_part`)."""
    return cache.cache_key("classes", [
        ["layout", _FORMAT], *game_key(game), ["cards", sorted(str(card) for card in cards)],
        *map(cache.bet_part, bets)])


# per array: its number of dimensions
_ARRAYS = {"elementary": 2, "term_rows": 2, "term_coefficient": 1, "term_factor": 1,
           "factors": 1, "slots": 1, "level_edges": 1, "edges": 2, "rows": 2,
           "coefficients": 2, "negatives": 2, "spread": 1}


def _encode(compiled: ClassesBet) -> tuple[cache.Fields, dict[str, np.ndarray]]:
    return {}, {name: getattr(compiled, f"_{name}") for name in _ARRAYS}


def _decode(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card],
            arrays: dict[str, np.ndarray]) -> ClassesBet:
    """The compiled form read back, every index checked against what it indexes."""
    compiled = ClassesBet(game, bets, cards)
    loaded = {name: cache.check_indices(arrays[name], INT64_LIMIT, name, ndim=ndim)
              for name, ndim in _ARRAYS.items()}
    elementary, slots, edges, rows = (loaded[name] for name in
                                      ("elementary", "slots", "edges", "rows"))
    if loaded["factors"].shape != (1,) or elementary.shape[1:] != (3,) or \
            edges.shape[1:] != (3,) or rows.shape[1:] != (3,) or not len(slots) or \
            loaded["level_edges"].shape != (len(slots) - 1,) or \
            int(loaded["level_edges"].sum()) != len(edges) or \
            loaded["coefficients"].shape != (len(rows), compiled.events) or \
            loaded["negatives"].shape != loaded["coefficients"].shape or \
            loaded["spread"].shape != (1,) or int(loaded["spread"][0]) < 1:
        raise cache.CorruptEntry("classes arrays of the wrong shape")
    factors = int(loaded["factors"][0])
    unit = compiled.round_cards
    for kind, what, how in elementary.tolist():
        bound = {0: (1, 1), 1: (len(compiled.classes), unit + 1),
                 2: (10, 16 * (unit + 1)), 3: (unit + 1, 1)}.get(kind)
        if bound is None or what >= bound[0] or how >= bound[1]:
            raise cache.CorruptEntry("elementary factor out of range")
    cache.check_indices(loaded["term_rows"], len(elementary), "term_rows", ndim=2)
    cache.check_indices(loaded["term_factor"], factors, "term_factor")
    if not len(loaded["term_rows"]) == len(loaded["term_coefficient"]) == \
            len(loaded["term_factor"]):
        raise cache.CorruptEntry("classes terms of unequal lengths")
    # every index against its table, array by array (a million edges: no Python loop)
    depth = np.repeat(np.arange(1, len(slots)), loaded["level_edges"])
    if len(edges) and ((edges[:, 0] >= slots[depth - 1]).any()
                       or (edges[:, 1] >= factors).any()
                       or (edges[:, 2] >= slots[depth]).any()):
        raise cache.CorruptEntry("classes edge out of range")
    if len(rows) and (rows[:, 0].max() >= len(slots)
                      or (rows[:, 1] >= slots[np.minimum(rows[:, 0], len(slots) - 1)]).any()
                      or (rows[:, 2] >= len(elementary)).any()):
        raise cache.CorruptEntry("classes leaf out of range")
    for name in _ARRAYS:
        setattr(compiled, f"_{name}", loaded[name])
    return compiled


def estimate(game: Game[Any], bets: Sequence[Bet]) -> int | None:
    """An upper bound on the states a key of ``bets`` may reach (their cost per value round,
    in the plan's terms), or None when this engine cannot serve them: every tally's counts
    and every class a position read may hold, before the reductions (which only lower it).
    Counted from the shape alone, without the value walk."""
    if refusal(game, bets) is not None:
        return None
    shape = _Shape.of(game, sorted(set().union(*(bet.features for bet in bets))))
    states = 1
    for _, cards, _ in shape.tallies:
        states *= len(cards) + 1
    for _ in {p for _, p in shape.positional}:
        states *= len(shape.view.labels)
    return states


def evaluate(game: Game[Any], bets: Sequence[Bet], shoe: Shoe,
             known: Mapping[int, Card] | None = None) -> list[list[int]]:
    """Exact event counts of ``bets`` for ``shoe`` over ``N!/(N-r)!``; with ``known`` cards
    at positions (1 = first dealt), ``shoe`` is the shoe left without them and the counts are
    over ``(N-k)!/(N-r)!`` (as :func:`exact.engines.factorised.evaluate`)."""
    unique = tuple(dict.fromkeys(bets))
    present = frozenset(CARDS[i] for i, count in enumerate(shoe.counts) if count)
    cards = DECK if len(present) > _FEW_CARDS else present
    if known:
        cards = cards | frozenset(known.values())
        compiled = _compiled(game, unique, cards, tuple(sorted(known.items())))
    else:
        compiled = _cached(game, unique, cards)
    results = dict(zip(unique, compiled.counts(shoe), strict=True))
    return [results[bet] for bet in bets]


_FEW_CARDS = 16


def batch(game: Game[Any], bets: Sequence[Bet]) -> Callable[[np.ndarray], list[np.ndarray]]:
    """The batch form: a function of a (shoes x 53) count matrix giving, per bet, its
    (shoes x events) exact counts over ``N!/(N-r)!``."""
    unique = tuple(dict.fromkeys(bets))
    deal = game.deal(game.needs(set().union(*(bet.features for bet in bets))))

    def counts(shoes: np.ndarray) -> list[np.ndarray]:
        matrix = check_batch(deal, shoes)
        if not len(matrix):
            return [np.zeros((0, len(bet.events)), dtype=np.int64) for bet in bets]
        compiled = _cached(game, unique, batch_cards(matrix))
        results = dict(zip(unique, compiled.batch_counts(matrix), strict=True))
        return [results[bet] for bet in bets]

    return counts
