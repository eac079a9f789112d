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
their pieces. The keys form a trie (a node per prefix of a key's parts, numbered in the order
of their paths), each node holding its reduced states *densely* (a read position's class as its
number among its value's classes): a node is its parent's states times its part's piece values,
moved along each outcome by a small table. A shoe (or a batch of shoes) costs: the elementary
falling factorials of its class counts, the piece values (sums of their products), and the
products of the (node, state) slots the trie reaches (a node reaches few of its states),
a range of nodes at a time, depth first (memory bounded by one range a depth); then the
leaves' states summed per group of settlement, times the rest of the shoe, into the events.
No pattern of card classes is walked: the work grows with the value rounds and the states the
bet reads, not with the number of classes.

Bets whose tallies enter their settlement only as none, all or some of their cards are
compiled by restrictions instead (:mod:`exact.engines.classes_restricted`): the *restricted
form*, a trie of products with signed leaves and no states. The form is chosen at compile time
and stored with the arrays (a marker of the compiled layout); both forms are evaluated for a
batch of shoes by :mod:`exact.engines.classes_evaluation`.

Exactness: every piece value counts ordered card sequences of part of a round, every node's
state and every partial sum of the final product counts ordered sequences of a round or part
of it (times a key's multiplicity, at most the round's count):
non-negative integers at most ``N**r``. So float64 holds them exactly below ``2**53``, int64
below ``2**63``, Python integers beyond (:func:`exact.engines.batch_numbers.batch_dtype`). Every
shoe's counts are checked to sum to ``N!/(N-r)!``.

What it serves (:func:`refusal`): a game with card positions
(:class:`~exact.model.contracts.CardPositions`) and bets whose features beyond values are each
a tally, read one declared position, or read an order-free group by a two-valued attribute
(``all_same_color``: a tally of one colour; one card's colour, ``player_card3_colour``: a
tally of one position), or read an order-free group otherwise (the pairs, two cards by rank or
suit: each position read by the view, the feature read off the group's cards).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement, product
from math import prod
from types import MappingProxyType
from typing import Any, cast

import numpy as np

from exact.core.cards import CARDS, Card, Label, Shoe, View
from exact.core.enumerator import check_shoe, group_coefficient
from exact.core.work import PATTERN_UNITS, Meter, budget, check, spend
from exact.engines import cache
from exact.engines.batch_numbers import (
    INT64_LIMIT,
    batch_dtype,
    check_batch,
    counts_matrix,
    rest_of_round,
    shoe_sizes,
)
from exact.engines.classes_evaluation import (
    DENSE_ELEMENTS,
    ClassArrays,
    DenseArrays,
    Pieces,
    signed_dtype,
)
from exact.engines.classes_restricted import Part, Position, Raw, Term, compile_restricted
from exact.engines.classes_states import (
    FULL_VIEW,
    READ_LIMIT,
    Pair,
    Shape,
    States,
    Tallies,
    always_dealt,
    digits,
    fine,
    placed_record,
    reading_of,
    tally_readings,
)
from exact.engines.engine import classes_refusal
from exact.engines.factorised import (
    Hands,
    _column,
    _padded,
    batch_cards,
    value_sequences,
)
from exact.errors import ExactError, ShoeError
from exact.model.bets import Bet
from exact.model.contracts import CapabilityError, CardPositions, DealtPositions, draw_stages
from exact.model.features import Feature
from exact.model.game import Game, game_key

DECK = frozenset(card for card in CARDS if not card.is_joker)
_FORMAT = "classes-16"  # both forms, the form a marker array ("form"); one-card colours tallies;
# pairs of first cards one dimension; groups of classes as elementary factors (kind 4); two
# positions read by position only one dimension (a joint); the tallies one dimension of
# blocks (classes_states.Tallies), not a digit each; past the settlement bounds, the tallies
# reduced by what the conditions read of their counts; the states' moves by dimension and
# the settlements of reached (group, state) slots only; a joint's card may be undealt (the
# third cards); features decided by the values of the cards they read value names
DENSE, RESTRICTED = 0, 1  # the forms



# a term's entry for a group of classes (:meth:`ClassesBet._piece`): its classes as a bit
# mask, the cards the read positions took of them above it
_GROUP = 1 << 60
_TAKEN_SHIFT = 54


def refusal(game: Game[Any], bets: Sequence[Bet]) -> str | None:
    """Why class-by-class counting cannot serve ``bets`` of ``game``, or None when it can
    (the plan's rule, :func:`exact.engines.engine.classes_refusal`, for every bet)."""
    if not any(fine(game.features[name]) for bet in bets for name in bet.features):
        return "it serves card attributes beyond values; these bets read values"
    return next(filter(None, (classes_refusal(game, bet) for bet in bets)), None)



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
        self.shape = Shape.of(game, self.names, bets, cards)
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
        # built as asked: a part's raw piece (every class at every position it reads: 65,536
        # outcomes for four positions of value 0 by rank and suit) is reduced as soon as the
        # states are known, then dropped
        pieces: dict[Part, dict[Raw, dict[Term, int]]] = {}

        def piece(part: Part) -> dict[Raw, dict[Term, int]]:
            found = pieces.get(part)
            if found is None:
                found = pieces[part] = self._piece(*part)
            return found

        by_restrictions = compile_restricted(self, keys, piece)
        if by_restrictions is not None:  # tallies read as none, all or some of their cards
            self._restricted_arrays(*by_restrictions)
            return self
        readings: dict[tuple[object, ...], Hands] = {}
        for (signature, _, _, npos), (record, _, _) in keys.items():
            readings.setdefault((signature, npos), record)
        states = States(self, list(readings.items()))
        self.states = states
        # the trie's nodes, about 1.55 a key (measured), known before the pieces are reduced
        nodes = len(keys) * 31 // 20
        if _memory(nodes) > MEMORY_LIMIT:
            raise _past_memory(f"about {nodes:,} nodes of its trie (the first cards read one "
                               f"by one)")
        # a node costs its Python step: drawn from the run's budget as the trie grows (its
        # size is known only by building it), and refused now where a node a key (fewer than
        # the trie's: 103,411 keys, 158,730 nodes) cannot be paid, before the pieces; its
        # states' products are paid by the slots they reach, known once the trie is built
        # (_dense_arrays)
        node_units = PATTERN_UNITS // 4 or 1
        what = PRODUCTS_WORK
        check(len(keys) * node_units, what)
        # piece outcomes reduced: the factors (part, reduced outcome), each a sum of terms
        factor_id: dict[tuple[Part, tuple[int, ...]], int] = {}
        factor_terms: list[dict[Term, int]] = []
        reduced: dict[Part, list[tuple[int, tuple[int, ...]]]] = {}
        every_part = dict.fromkeys(part for (_, _, parts, _) in keys for part in parts)
        for part in every_part:
            raws = pieces.pop(part, None)
            merged: dict[tuple[int, ...], dict[Term, int]] = \
                cast(dict[tuple[int, ...], dict[Term, int]], self._piece(
                    part[0], part[1], part[2], states)) \
                if raws is None else defaultdict(dict)
            for raw, terms in (raws or {}).items():
                into = merged[states.outcome(raw)]
                for term, coefficient in terms.items():
                    into[term] = into.get(term, 0) + coefficient
            reduced[part] = []
            for outcome, terms in merged.items():
                number = factor_id.setdefault((part, outcome), len(factor_id))
                if number == len(factor_terms):
                    factor_terms.append(terms)
                reduced[part].append((number, outcome))
        # the outcomes as numbers; per part its (factor, outcome) entries
        outcome_id: dict[tuple[int, ...], int] = {}
        part_id: dict[Part, int] = {}
        part_entries: list[list[tuple[int, int]]] = []
        for part, items in reduced.items():
            part_id[part] = len(part_entries)
            part_entries.append([(number, outcome_id.setdefault(outcome, len(outcome_id)))
                                 for number, outcome in items])
        # the trie of keys: a node per (start state, prefix of parts), its states dense; each
        # leaf a (depth, node, group of settlement) with the keys' summed multiplicity
        roots: dict[int, int] = {}
        levels: list[dict[tuple[int, int], int]] = []
        groups: dict[tuple[object, ...], int] = {}
        merged_leaves: dict[tuple[int, int, int], int] = defaultdict(int)
        size = states.size
        products = Meter(what, node_units)
        group_record: list[Hands] = []
        made = 0
        for (signature, used, parts, npos), (record, multiplicity, constant) in keys.items():
            node = roots.setdefault(states.start(constant), len(roots))
            for depth, part in enumerate(parts):
                if len(levels) <= depth:
                    levels.append({})
                level = levels[depth]
                child = level.get((node, part_id[part]))
                if child is None:
                    child = level[node, part_id[part]] = len(level)
                    products.tick()
                    made += 1
                    if _memory(made) > MEMORY_LIMIT:  # the estimate's growth was low
                        raise _past_memory(f"past {made:,} nodes of its trie (the first "
                                           f"cards read one by one)")
                node = child
            # a state holds a read position's class by its number within the card's value:
            # the group knows that value
            at = tuple(record[h][i].value if i < len(record[h]) else None
                       for h, i in states.positions)
            group = groups.setdefault((signature, npos, used, at), len(groups))
            if group == len(group_record):
                group_record.append(record)
            merged_leaves[len(parts), node, group] += multiplicity
        self._group_record = group_record
        if _memory(made, size, len(groups)) > MEMORY_LIMIT:
            raise _past_memory(f"{len(groups):,} groups of leaves of {size:,} states on "
                               f"{made:,} nodes of its trie")
        self._dense_arrays(factor_terms, states, outcome_id, part_entries, roots, levels,
                           groups, merged_leaves)
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
        width = len(kinds)
        keys: dict[Any, tuple[Hands, int, Raw]] = {}
        meter = Meter("the value walk of a card-level bet's shape")
        nothing: Raw = ((0,) * len(shape.tallies), (0,) * len(shape.tallies), ())
        for record, multiplicity in sequences:
            meter.tick()
            # the value names decided by the values of the cards they read (``dealt_twos``)
            # read the record dressed with a card of each value
            seen = shape.dressed(record)
            signature = tuple(read(seen) for read in readers[:len(shape.value_names)]) + \
                tuple((n, readers[n](record)) for n, (h, i) in undealt if i >= len(record[h]))
            if self.known:
                key, constant = self._known_key(game, record, signature, types, kinds,
                                                kind_of)
            else:
                # each (value, kind) pair as one number (no tuple per pair: a million
                # rounds' worth of them held in the cache below)
                items = tuple(sorted(cast(int, label.value) * width + kind for hand, row in zip(
                    record, by_hand, strict=False) for label, kind in zip(hand, row,
                                                                          strict=False)))
                # many value sequences share their values per kind of position
                found_items = self._converted.get(items)
                if found_items is None:
                    found_items = self._converted[items] = self._convert(items, kinds)
                key, constant = (signature, *found_items), nothing
            found = keys.get(key)
            if found is None:
                keys[key] = (record, multiplicity, constant)
            else:
                keys[key] = (found[0], found[1] + multiplicity, constant)
        # the walk's caches (hundreds of MB past 100,000 keys)
        self.__dict__.pop("_converted", None)
        self.__dict__.pop("_shared", None)
        return keys

    def _convert(self, items: tuple[int, ...], kinds: list[object]
                 ) -> tuple[int, tuple[Part, ...], tuple[int, ...]]:
        """(cards dealt, parts, each tally's dealt positions) of a round's sorted (value,
        kind number) pairs, each as ``value * len(kinds) + kind``; equal parts shared."""
        npos = [0] * len(self.shape.tallies)
        per_value: dict[int, Counter[object]] = defaultdict(Counter)
        for item in items:
            value, number = divmod(item, len(kinds))
            kind = kinds[number]
            if kind is not None:
                for t in cast(tuple[object, tuple[int, ...]], kind)[1]:
                    npos[t] += 1
            per_value[value][kind] += 1
        parts = []
        for value, counted in sorted(per_value.items()):
            unread = counted.pop(None, 0)
            part = (value, tuple(sorted(counted.items(), key=repr)), unread)
            parts.append(self._shared.setdefault(part, part))
        whole = (len(items), tuple(parts), tuple(npos))
        return cast(tuple[int, tuple[Part, ...], tuple[int, ...]],
                    self._shared.setdefault(whole, whole))

    @cached_property
    def _terms(self) -> dict[Term, Term]:
        """One copy of each term of the pieces."""
        return {}

    @cached_property
    def _shared(self) -> dict[object, Any]:
        """One copy of each part and each converted round (a million rounds share a few
        thousand)."""
        return {}

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
        converted = tuple(sorted(value * len(kinds) + kind for value, kind in items))
        found = self._converted.get(converted)
        if found is None:
            found = self._converted[converted] = self._convert(converted, kinds)
        used, parts, free = found
        key = (signature, used, parts, tuple(a + b for a, b in zip(npos, free, strict=True)))
        return key, (tuple(hits), tuple(misses), tuple(sorted(placed)))

    @cached_property
    def _converted(self) -> dict[tuple[int, ...], tuple[int, tuple[Part, ...], tuple[int, ...]]]:
        """The rounds' free (value, kind) pairs converted so far (many rounds share them)."""
        return {}

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
        dealt = self._dealt_positions(game)(self.deal.start(), record)
        return {slot: self._known_class[position]
                for slot, position in zip(slots, dealt, strict=True)
                if position in self.known}

    @cached_property
    def _known_class(self) -> dict[int, int]:
        """Each known position's card, as its class number."""
        return {position: self.classes.index((cast(int, card.value),
                                              self.shape.signature(card)))
                for position, card in self.known.items()}

    def _dealt_positions(self, game: Game[Any]) -> Callable[[Any, Hands], Sequence[int]]:
        # checked once a compile, not once a record (a protocol's isinstance check is slow)
        found = self.__dict__.get("_dealt_method")
        if found is None:
            found = self.__dict__["_dealt_method"] = _dealt(game).dealt_positions
        return cast(Callable[[Any, Hands], Sequence[int]], found)

    def _piece(self, value: int, kinds: tuple[tuple[object, int], ...], unread: int,
               states: States | None = None) -> dict[Any, dict[Term, int]]:
        """The polynomial of value class ``value`` on positions of ``kinds`` (type, how
        many) and ``unread`` positions: per raw outcome (tally hits, classes at positions),
        its terms (classes' cards taken, the unread count last) with integer coefficients."""
        classes = self.by_value[value]
        tallies = range(len(self.shape.tallies))
        hit = {number: tuple(self._hits(number, t) for t in tallies) for number in classes}
        # a kind read by no position draws from the value's classes alike for every tally,
        # as a group (its cards taken less those the read positions took): four groups of a
        # suit's tallies, not sixteen classes of rank and suit (a part of six such positions
        # of value 0 took 16**6 products)
        # With the states known, a position read by position only draws so too, from groups
        # alike for every tally and every such position's reduced class (a representative
        # placed), and the outcomes are reduced as they are found: a part of four cards of a
        # pair's and two third cards' suits of value 0 took 16**6 raw outcomes
        grouped = frozenset(states.positions) - frozenset(
            p for pair in states.pairs for p in pair.sides) if states is not None else \
            frozenset()
        alike: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for number in classes:
            alike[hit[number] + tuple(states.position_class[i][number] for i, p in enumerate(
                states.positions) if p in grouped) if states is not None else
                hit[number]].append(number)
        groups = list(alike.values())
        per_kind = []
        for kind, count in kinds:
            at, counted = cast(tuple[Position | None, tuple[int, ...]], kind)
            dealt = tuple(count if t in counted else 0 for t in tallies)
            options: list[tuple[Any, ...]] = []
            if at is None or at in grouped:
                for picked in combinations_with_replacement(range(len(groups)), count):
                    hits = tuple(sum(hit[groups[g][0]][t] for g in picked) if t in counted
                                 else 0 for t in tallies)
                    options.append(((), picked, group_coefficient(picked), hits, dealt,
                                    () if at is None else
                                    tuple((at, groups[g][0]) for g in picked)))
            else:
                for group in combinations_with_replacement(classes, count):
                    hits = tuple(sum(hit[number][t] for number in group) if t in counted
                                 else 0 for t in tallies)
                    options.append((group, (), group_coefficient(group), hits, dealt,
                                    tuple((at, number) for number in group)))
            per_kind.append(options)
        nothing = (0,) * len(tallies)
        outcomes: dict[Any, dict[Term, int]] = defaultdict(dict)
        for chosen in product(*per_kind):
            coefficient = 1
            for option in chosen:
                coefficient *= option[2]
            hits = tuple(map(sum, zip(*(option[3] for option in chosen), strict=True))) \
                if chosen else nothing
            dealt = tuple(map(sum, zip(*(option[4] for option in chosen), strict=True))) \
                if chosen else nothing
            placed = tuple(sorted(item for option in chosen for item in option[5]))
            taken = Counter(number for option in chosen for number in option[0])
            picks = Counter(g for option in chosen for g in option[1])
            outcome: Any = (hits or nothing, tuple(d - h for d, h in zip(
                dealt, hits, strict=True)) or nothing, placed)
            if states is not None:
                outcome = states.outcome(outcome)
            term: Term = (*sorted(taken.items()), *sorted(
                (_GROUP + (sum(taken[c] for c in groups[g]) << _TAKEN_SHIFT) +
                 sum(1 << c for c in groups[g]), picks[g]) for g in picks),
                (-1 - value, unread))
            term = self._terms.setdefault(term, term)  # one copy: millions of factors' terms
            found = outcomes[outcome]
            found[term] = found.get(term, 0) + coefficient
        return outcomes

    def read(self, record: Hands, reading: tuple[object, ...], hits: Sequence[int],
             placed: Mapping[Position, int], pairs: Mapping[str, object] = MappingProxyType({})
             ) -> dict[str, object]:
        """The features' values of ``record`` (a representative of its reading: the value
        features' readings, each tally's dealt positions) with ``hits`` per tally and the
        class ``placed`` at each position read."""
        shape = self.shape
        signature = cast(tuple[object, ...], reading[0])
        read: dict[str, object] = dict(zip(shape.value_names, signature, strict=False))
        # the positional features of positions not dealt: (their reader's number, value)
        undealt = dict(cast(tuple[tuple[int, object], ...], signature[len(shape.value_names):]))
        for n, (name, (h, i)) in enumerate(shape.positional):
            if name in pairs:  # read jointly with another position's (classes_states.Pair)
                read[name] = pairs[name]
                continue
            if i >= len(record[h]):
                read[name] = undealt[len(shape.value_names) + n]
                continue
            label = cast(Label, self.classes[placed[h, i]][1][0])
            read[name] = self.feature(name).read(placed_record((h, i), label))
        for name, cards in shape.readers:
            if name in pairs:  # a pair's value, held as such (exact.engines.classes_states)
                read[name] = pairs[name]
                continue
            # the group's dealt cards as their classes' labels (the feature reads no more)
            hands = [list(hand) for hand in record]
            for h, i in cards:
                if i < len(record[h]):
                    hands[h][i] = cast(Label, self.classes[placed[h, i]][1][0])
            read[name] = self.feature(name).read(tuple(tuple(hand) for hand in hands))
        groups = dict(shape.groups)
        for (name, cards, (attribute, one)), count in zip(shape.tallies, hits, strict=True):
            if name not in groups:
                read[name] = count
                continue
            # the group's dealt cards, ``count`` of them of the one value: the feature reads
            # the group order-free, so any placement of them is as good
            hands = [list(hand) for hand in record]
            dealt = sorted(p for p in cards if p[1] < len(record[p[0]]))
            for n, (h, i) in enumerate(dealt):
                side: dict[str, Any] = {attribute: one if n < count else groups[name]}
                hands[h][i] = hands[h][i]._replace(**side)
            read[name] = self.feature(name).read(tuple(tuple(hand) for hand in hands))
        return read

    def feature(self, name: str) -> Feature[Any]:
        return cast(Feature[Any], self.__dict__["_game_features"][name])

    def _pieces(self, factor_terms: list[dict[Term, int]], used: Sequence[int]) -> list[int]:
        """Both forms' common arrays, int64: the elementary falling factorials and the terms
        of every factor (a piece outcome's value); returns the elementary fill (the rest of
        the shoe's falling factorial) of each count of cards dealt in ``used``."""
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
                    elif what >= _GROUP:  # a group of classes: its cards less those taken
                        taken += count
                        mask = what % (1 << _TAKEN_SHIFT)
                        ids.append(elementary.setdefault(
                            (4, mask, ((what - _GROUP) >> _TAKEN_SHIFT) * 16 + count),
                            len(elementary)))
                    else:
                        taken += count
                        ids.append(elementary.setdefault((1, what, count), len(elementary)))
                term_rows.append(tuple(ids))
                term_coefficient.append(coefficient)
                term_factor.append(factor)
        fills = [elementary.setdefault((3, count, 0), len(elementary)) for count in used]
        self._elementary = np.array(list(elementary), dtype=np.int64).reshape(-1, 3)
        self._term_rows = _padded(term_rows)
        self._term_coefficient = _column(term_coefficient)
        self._term_factor = _column(term_factor)
        self._factors = np.array([len(factor_terms)], dtype=np.int64)
        return fills

    def _restricted_arrays(self, factor_terms: list[dict[Term, int]], slots: list[int],
                           edges: list[tuple[int, int, int, int]],
                           rows: Mapping[tuple[int, int, int], dict[int, int]],
                           spread: int, ratios: list[tuple[int, ...]]) -> None:
        """The restricted form as int64 arrays: the pieces, the trie's edges, the leaves'
        signed coefficients per column and the columns' ratios (none: the columns are the
        events)."""
        row_keys = sorted(rows)
        fills = self._pieces(factor_terms, [used for _, _, used in row_keys])
        self._form = np.array([RESTRICTED], dtype=np.int64)
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
        self._ratios = np.array(ratios, dtype=np.int64).reshape(len(ratios), -1) \
            if ratios else np.zeros((0, 1), dtype=np.int64)
        # the nonzero coefficients only (a column per read parts, restriction and event:
        # thousands for Super Tie, almost all zero on a leaf)
        self._columns = np.array([len(ratios) or self.events], dtype=np.int64)
        entries = [(n, column, value) for n, key in enumerate(row_keys)
                   for column, value in rows[key].items() if value]
        self._entries = np.array([entry[:2] for entry in entries],
                                 dtype=np.int64).reshape(len(entries), 2)
        signed = np.array([value for _, _, value in entries], dtype=np.int64)
        # signed sums of restrictions (exact.engines.classes_restricted) stored as two
        # non-negative parts; ``spread`` bounds their partial sums over the rounds' count
        self._coefficients = np.maximum(signed, 0)
        self._negatives = np.maximum(-signed, 0)
        self._spread = np.array([spread], dtype=np.int64)

    def _dense_arrays(self, factor_terms: list[dict[Term, int]], states: States,
                      outcome_id: Mapping[tuple[int, ...], int],
                      part_entries: list[list[tuple[int, int]]], roots: Mapping[int, int],
                      levels: list[dict[tuple[int, int], int]],
                      groups: Mapping[tuple[object, ...], int],
                      leaves: Mapping[tuple[int, int, int], int]) -> None:
        """The dense form as int64 arrays: the pieces, the state each outcome takes each
        state to (dimension by dimension), the parts' (factor, outcome) entries, the trie's
        nodes, its leaves, and the event each group of leaves settles in each state it
        reaches (those slots only)."""
        by_group = sorted(groups.items(), key=lambda item: item[1])
        self._fills = np.array(self._pieces(factor_terms, [cast(int, key[2])
                                                           for key, _ in by_group]),
                               dtype=np.int64)
        self._form = np.array([DENSE], dtype=np.int64)
        outcomes = sorted(outcome_id, key=outcome_id.__getitem__)
        self._sizes = np.array(states.sizes, dtype=np.int64)
        self._tables, self._moves = states.moves(outcomes)
        self._starts = np.array(sorted(roots, key=roots.__getitem__), dtype=np.int64)
        self._level_nodes = np.array([len(level) for level in levels], dtype=np.int64)
        # the nodes of each depth numbered in the order of their paths, so that a subtree is
        # a range at every depth (walked a range at a time: DenseArrays.walk)
        renumber: list[dict[int, int]] = [{root: root for root in roots.values()}]
        nodes: list[tuple[int, int]] = []
        for level in levels:
            above = renumber[-1]
            ordered = sorted(level.items(), key=lambda item: (above[item[0][0]], item[0][1]))
            nodes.extend((above[parent], part) for (parent, part), _ in ordered)
            renumber.append({old: new for new, (_, old) in enumerate(ordered)})
        self._nodes = np.array(nodes, dtype=np.int64).reshape(-1, 2)
        self._part_start = np.cumsum([0, *map(len, part_entries)]).astype(np.int64)
        self._part_entries = np.array([entry for entries in part_entries for entry in entries],
                                      dtype=np.int64).reshape(-1, 2)
        self._leaves = np.array(sorted((depth, renumber[depth][node], group, multiplicity)
                                       for (depth, node, group), multiplicity in leaves.items()),
                                dtype=np.int64).reshape(-1, 4)
        # the states each group reaches, then its settlement in each (only those: most
        # (group, state) slots are reached by no leaf): the reach paid as it goes, a range of
        # nodes before it is walked; then, before them, the settlements and one shoe (its
        # products those of the reach at most: DenseArrays.walk)
        walked = [0, 0, 0]  # products, scratch slots read, ranges

        def pay(products: int, slots: int) -> None:
            walked[0] += products
            walked[1] += slots
            walked[2] += 1
            spend(_walk_units(products, slots, 1, REACH_PRODUCTS) +
                  (WALK_UNITS if walked[2] == 1 else 0),  # the walk's own, with its first range
                  f"{PRODUCTS_WORK}: the states its trie reaches")

        with budget():  # (outside a run, one bound for the walk and what it prices)
            reached = self._dense(settled=False).reached(len(groups), pay)
            settled = int(reached.sum())
            products, slots, ranges = walked
            spend(settled * SETTLE_UNITS + WALK_UNITS +
                  _walk_units(products, slots, ranges, SHOE_PRODUCTS),
                  f"{PRODUCTS_WORK}: {settled:,} (group, state) slots settled, one shoe's "
                  f"{products:,} products")
        offsets = [sum(len(bet.events) for bet in self.bets[:n]) for n in range(len(self.bets))]
        settles = [np.zeros((0, 2 + len(self.bets)), dtype=np.int64)]
        for (signature, npos, _, _), group in by_group:
            record = self._group_record[group]
            found = np.flatnonzero(reached[group])
            rows = np.zeros((len(found), 2 + len(self.bets)), dtype=np.int64)
            rows[:, 0], rows[:, 1] = group, found
            for row, state in zip(rows, found.tolist(), strict=True):
                read = states.read(record, (signature, npos), state)
                row[2:] = [offset + bet.settle(read)
                           for offset, bet in zip(offsets, self.bets, strict=True)]
            settles.append(rows)
        self._settles = np.concatenate(settles)

    # --- evaluation (exact.engines.classes_evaluation) --------------------------------------

    @property
    def form(self) -> int:
        """The compiled form: :data:`DENSE` or :data:`RESTRICTED`."""
        return int(self._form[0])

    @cached_property
    def _common(self) -> Pieces:
        return Pieces(self._elementary, self._term_rows, self._term_coefficient,
                      self._term_factor, int(self._factors[0]), self.members, self.free_cards)

    @cached_property
    def arrays(self) -> ClassArrays | DenseArrays:
        """The compiled arrays of its form with what their evaluation needs of the bet."""
        if self.form == RESTRICTED:
            return ClassArrays(self._common, self._slots, self._level_edges, self._edges,
                               self._rows, self._entries, self._coefficients - self._negatives,
                               int(self._columns[0]), self.events, int(self._spread[0]),
                               self._ratios)
        return self._dense(settled=True)

    def _dense(self, settled: bool) -> DenseArrays:
        return DenseArrays(self._common, self._sizes, self._tables, self._moves, self._starts,
                           self._level_nodes, self._nodes, self._part_start,
                           self._part_entries, self._leaves, self._fills, self.events,
                           self._settles if settled else None)

    def batch_counts(self, counts: np.ndarray) -> list[np.ndarray]:
        """Per bet, the (shoes x events) exact counts of a batch of shoes ((shoes x 53) card
        counts), checked to sum to ``N!/(N-r)!`` (over the free positions with known cards).

        Every value below counts ordered card sequences of a round or part of it: a
        non-negative integer at most ``N**r``, as every partial sum (module docstring)."""
        matrix = check_batch(self.deal, counts) if not self.known else \
            np.asarray(counts, dtype=np.int64)
        sizes = shoe_sizes(matrix)
        unit = self.free_cards
        if len(matrix) and int(sizes.min()) < unit:
            raise ShoeError(f"a shoe of {int(sizes.min())} cards cannot fill a round of "
                            f"{self.round_cards}")
        largest = int(sizes.max(initial=0))
        dtype: Any = batch_dtype(largest, unit)
        arrays = self.arrays
        if isinstance(arrays, ClassArrays):
            every = arrays.counts(matrix, sizes, dtype,
                                  signed_dtype(dtype, largest**unit, arrays.spread))
        else:
            every = arrays.counts(matrix, sizes, dtype)
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


# per array: its number of dimensions; the arrays of both forms, then of each form
_COMMON = {"form": 1, "elementary": 2, "term_rows": 2, "term_coefficient": 1, "term_factor": 1,
           "factors": 1}
_FORMS = {
    RESTRICTED: {"slots": 1, "level_edges": 1, "edges": 2, "rows": 2, "entries": 2,
                 "coefficients": 1, "negatives": 1, "columns": 1, "spread": 1, "ratios": 2},
    DENSE: {"sizes": 1, "tables": 3, "moves": 2, "starts": 1, "level_nodes": 1, "nodes": 2,
            "part_start": 1, "part_entries": 2, "leaves": 2, "fills": 1, "settles": 2},
}


def _encode(compiled: ClassesBet) -> tuple[cache.Fields, dict[str, np.ndarray]]:
    names = {**_COMMON, **_FORMS[int(compiled._form[0])]}
    return {}, {name: getattr(compiled, f"_{name}") for name in names}


def _decode(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card],
            arrays: dict[str, np.ndarray]) -> ClassesBet:
    """The compiled form read back, every index checked against what it indexes."""
    compiled = ClassesBet(game, bets, cards)
    form = cache.check_indices(arrays["form"], 2, "form")
    if form.shape != (1,):
        raise cache.CorruptEntry("classes form of the wrong shape")
    names = {**_COMMON, **_FORMS[int(form[0])]}
    if set(arrays) != set(names):
        raise cache.CorruptEntry("classes arrays not those of their form")
    loaded = {name: cache.check_indices(arrays[name], INT64_LIMIT, name, ndim=ndim)
              for name, ndim in names.items()}
    elementary = loaded["elementary"]
    if loaded["factors"].shape != (1,) or elementary.shape[1:] != (3,):
        raise cache.CorruptEntry("classes arrays of the wrong shape")
    factors = int(loaded["factors"][0])
    unit = compiled.round_cards
    for kind, what, how in elementary.tolist():
        bound = {0: (1, 1), 1: (len(compiled.classes), unit + 1),
                 2: (10, 16 * (unit + 1)), 3: (unit + 1, 1),
                 4: (1 << len(compiled.classes), 16 * (unit + 1))}.get(kind)
        if bound is None or what >= bound[0] or how >= bound[1]:
            raise cache.CorruptEntry("elementary factor out of range")
    cache.check_indices(loaded["term_rows"], len(elementary), "term_rows", ndim=2)
    cache.check_indices(loaded["term_factor"], factors, "term_factor")
    if not len(loaded["term_rows"]) == len(loaded["term_coefficient"]) == \
            len(loaded["term_factor"]):
        raise cache.CorruptEntry("classes terms of unequal lengths")
    if int(form[0]) == RESTRICTED:
        _check_restricted(loaded, compiled.events, factors)
    else:
        _check_dense(loaded, len(bets), compiled.events, factors)
    for name in names:
        setattr(compiled, f"_{name}", loaded[name])
    return compiled


def _check_restricted(loaded: Mapping[str, np.ndarray], events: int, factors: int) -> None:
    """The restricted form's arrays: shapes, then every index against its table, array by
    array (a million edges: no Python loop)."""
    slots, edges, rows, ratios = (loaded[name] for name in ("slots", "edges", "rows", "ratios"))
    if edges.shape[1:] != (3,) or rows.shape[1:] != (3,) or not len(slots) or \
            loaded["level_edges"].shape != (len(slots) - 1,) or \
            int(loaded["level_edges"].sum()) != len(edges) or \
            ratios.shape[1] % 2 != 1 or \
            loaded["columns"].shape != (1,) or \
            int(loaded["columns"][0]) != (len(ratios) or events) or \
            loaded["entries"].shape[1:] != (2,) or \
            loaded["coefficients"].shape != (len(loaded["entries"]),) or \
            loaded["negatives"].shape != loaded["coefficients"].shape or \
            loaded["spread"].shape != (1,) or int(loaded["spread"][0]) < 1:
        raise cache.CorruptEntry("classes arrays of the wrong shape")
    depth = np.repeat(np.arange(1, len(slots)), loaded["level_edges"])
    if len(edges) and ((edges[:, 0] >= slots[depth - 1]).any()
                       or (edges[:, 1] >= factors).any()
                       or (edges[:, 2] >= slots[depth]).any()):
        raise cache.CorruptEntry("classes edge out of range")
    if len(rows) and (rows[:, 0].max() >= len(slots)
                      or (rows[:, 1] >= slots[np.minimum(rows[:, 0], len(slots) - 1)]).any()
                      or (rows[:, 2] >= len(loaded["elementary"])).any()):
        raise cache.CorruptEntry("classes leaf out of range")
    entries = loaded["entries"]
    if len(entries) and ((entries[:, 0] >= len(rows)).any()
                         or (entries[:, 1] >= int(loaded["columns"][0])).any()):
        raise cache.CorruptEntry("classes leaf coefficient out of range")
    if len(ratios) and ((ratios[:, 0] >= events).any() or (ratios[:, 1:] > factors).any()):
        raise cache.CorruptEntry("classes ratio out of range")


def _check_dense(loaded: Mapping[str, np.ndarray], bets: int, events: int,
                 factors: int) -> None:
    """The dense form's arrays: shapes, then every index against its table, array by array
    (no Python loop over the nodes)."""
    sizes, tables, moves, nodes, leaves, settles = (loaded[name] for name in (
        "sizes", "tables", "moves", "nodes", "leaves", "settles"))
    level_nodes, part_start, part_entries = (loaded[name] for name in (
        "level_nodes", "part_start", "part_entries"))
    if nodes.shape[1:] != (2,) or part_entries.shape[1:] != (2,) or \
            leaves.shape[1:] != (4,) or int(level_nodes.sum()) != len(nodes) or \
            not len(part_start) or int(part_start[-1]) != len(part_entries) or \
            (np.diff(part_start) < 0).any() or not len(sizes) or \
            len(tables) != len(sizes) or moves.shape[1:] != (len(sizes),) or \
            settles.shape[1:] != (2 + bets,) or (sizes < 1).any() or \
            int(sizes.max()) > tables.shape[1] or prod(sizes.tolist()) > INT64_LIMIT:
        raise cache.CorruptEntry("classes arrays of the wrong shape")
    for n, size in enumerate(sizes.tolist()):
        cache.check_indices(np.ascontiguousarray(tables[n, :size]), size, "tables", ndim=2)
    cache.check_indices(moves, tables.shape[2], "moves", ndim=2)
    states = prod(sizes.tolist())
    cache.check_indices(loaded["starts"], states, "starts")
    cache.check_indices(loaded["fills"], len(loaded["elementary"]), "fills")
    cache.check_indices(settles, max(len(loaded["fills"]), states, events), "settles", ndim=2)
    if len(settles) and ((settles[:, 0] >= len(loaded["fills"])).any()
                         or (settles[:, 1] >= states).any() or (settles[:, 2:] >= events).any()
                         or (np.diff(settles[:, 0] * states + settles[:, 1]) <= 0).any()):
        raise cache.CorruptEntry("classes settlement out of range")
    widths = np.array([len(loaded["starts"]), *level_nodes.tolist()], dtype=np.int64)
    depth = np.repeat(np.arange(len(level_nodes)), level_nodes)
    if len(nodes) and ((nodes[:, 0] >= widths[depth]).any()
                       or (nodes[:, 1] >= len(part_start) - 1).any()):
        raise cache.CorruptEntry("classes node out of range")
    if len(part_entries) and ((part_entries[:, 0] >= factors).any()
                              or (part_entries[:, 1] >= len(moves)).any()):
        raise cache.CorruptEntry("classes part entry out of range")
    if len(leaves) and ((leaves[:, 0] >= len(widths)).any()
                        or (leaves[:, 1] >= widths[np.minimum(leaves[:, 0],
                                                              len(widths) - 1)]).any()
                        or (leaves[:, 2] >= len(loaded["fills"])).any()):
        raise cache.CorruptEntry("classes leaf out of range")


def estimate(game: Game[Any], bets: Sequence[Bet]) -> int | None:
    """An upper bound on the states a node of ``bets`` holds times the growth of the trie
    with the first cards read one by one (their cost per value round, in the plan's terms), or
    None when this engine cannot serve them. Counted from the shape alone, without the value
    walk: every tally's counts, and per position read the classes of one value it may hold
    (a node knows the value: 17 for rank and suit, 5 for a suit), by what the features of that
    position read (by the whole view when a group other than a pair of first cards reads
    it), per pair of first cards its digits (:class:`~exact.engines.classes_states.Pair`),
    before the reductions (which only lower them); the trie's nodes grow with each first card
    read by position or as a tally of its own (:data:`TRIE_GROWTH`, measured)."""
    if refusal(game, bets) is not None:
        return None
    shape = Shape.of(game, sorted(set().union(*(bet.features for bet in bets))), bets)
    groups = dict(shape.groups)
    states = _tally_blocks(game, tuple(bets), tuple((name, len(cards)) for name, cards, _
                                                    in shape.tallies if name not in groups))
    for name, cards, _ in shape.tallies:
        if name in groups:
            states *= len(cards) + 1
    # a pair of first cards: its values and residuals (classes_states.Pair, before the
    # reductions); another group: each of its positions by the whole view's label
    dealt = always_dealt(game)
    paired = [(name, cards) for name, cards in shape.readers
              if len(cards) == 2 and cards <= dealt]
    for name, cards in paired:
        states *= _pair_size(game.features[name], cards, shape.view, tuple(bets))
    grouped = frozenset().union(*(cards for name, cards in shape.readers
                                  if (name, cards) not in paired))
    alone = frozenset(p for _, p in shape.positional)
    for position in grouped | alone:
        # read with other cards: by the whole view's label; alone: by what its conditions
        # read of its features
        states *= digits(shape.view) if position in grouped else _read_digits(
            game, tuple(name for name, p in shape.positional if p == position), position,
            tuple(bets))
    return states * TRIE_GROWTH[min(_first_read(game, shape), len(TRIE_GROWTH) - 1)]


@lru_cache(maxsize=256)
def _tally_blocks(game: Game[Any], bets: tuple[Bet, ...], tallies: tuple[tuple[str, int], ...]
                  ) -> int:
    """The blocks of the tallies ``tallies`` ((name, positions) each) as the compile reduces
    them (:class:`~exact.engines.classes_states.Tallies`: differences, sums, then Moore's
    refinement), each counted in full and the bets settled on every value of their other
    features (their declared domains, a superset of the readings the compile settles on),
    vectorised; past :data:`_ESTIMATE_CELLS` settlements, reduced as the compile reduces
    them past its own bounds, by what the conditions read of the counts alone
    (:func:`~exact.engines.classes_states.tally_readings`, at most
    :data:`~exact.engines.classes_states.READ_LIMIT` vectors); the product of their counts
    past that, when a feature declares no domain or a condition cannot be evaluated so."""
    caps = [most for _, most in tallies]
    whole = prod(cap + 1 for cap in caps)
    names = {name for name, _ in tallies}
    others = sorted(set().union(*(bet.features for bet in bets)) - names)
    domains = [game.features[name].domain for name in others]
    if len(tallies) < 2 or any(domain is None for domain in domains):
        return whole
    # counted before either is enumerated: a dozen tallies are billions of vectors
    if prod(len(cast(tuple[object, ...], domain)) for domain in domains) * whole > \
            _ESTIMATE_CELLS:
        # too many to settle: what the conditions read of the counts alone, as the compile
        # reduces them past its own bounds (classes_states.tally_readings)
        if whole > READ_LIMIT:
            return whole
        return Tallies(caps, tally_readings(bets, [name for name, _ in tallies],
                                            Tallies.vectors(caps)), [True] * len(caps)).size
    contexts = list(product(*cast(list[tuple[object, ...]], domains)))
    vectors = Tallies.vectors(caps)
    env: dict[str, np.ndarray] = {}
    for n, name in enumerate(others):
        env[name] = np.empty((len(contexts), 1), dtype=object)
        for i, context in enumerate(contexts):  # one by one: a value may be a tuple
            env[name][i, 0] = context[n]
    for t, (name, _) in enumerate(tallies):
        env[name] = np.array([[vector[t] for vector in vectors]], dtype=object)
    settled = []
    for bet in bets:
        event = np.zeros((len(contexts), len(vectors)), dtype=np.int64)
        open_ = np.ones(event.shape, dtype=bool)
        for index, one in enumerate(bet.events):
            try:
                holds = open_ if one.condition is None else open_ & one.condition.evaluate_array(
                    {name: env[name] for name in one.condition.names})
            except ExactError:
                return whole
            event[holds] = index
            open_ &= ~holds
        settled.append(event)
    rows = np.ascontiguousarray(np.stack(settled).transpose(2, 0, 1).reshape(len(vectors), -1))
    return Tallies(caps, [row.tobytes() for row in rows], [True] * len(caps)).size


_ESTIMATE_CELLS = 2_000_000  # settlements of the estimate's tally blocks (vectorised)


@lru_cache(maxsize=64)
def _pair_size(feature: Feature[Any], cards: frozenset[Position], view: View,
               bets: tuple[Bet, ...]) -> int:
    """The digits of a pair read by ``feature`` on a deck's classes by ``view``, its values
    the conditions of ``bets`` read alike merged (as the compile merges them first), before
    the settled reductions."""
    labels = sorted({(cast(int, card.value), view.label(card)) for card in DECK}, key=repr)
    pair = Pair.of_feature(feature.name, cards, feature,
                           [(value, (label,)) for value, label in labels])
    read = reading_of(bets, [feature.name])
    pair.merge([read({feature.name: value}) for value in pair.representatives])
    pair.build(ordered=True)
    return pair.size


@lru_cache(maxsize=256)
def _read_digits(game: Game[Any], names: tuple[str, ...], position: Position,
                 bets: tuple[Bet, ...]) -> int:
    """The digits of ``position`` read by the features ``names`` alone: the most classes
    one value's cards take where the conditions of ``bets`` read alike are one (as the
    compile merges them first), and 0 (not yet placed)."""
    read = reading_of(bets, names)
    by_value: dict[int, set[tuple[object, ...]]] = defaultdict(set)
    for card in DECK:
        label = FULL_VIEW.label(card)
        by_value[cast(int, card.value)].add(read({
            name: game.features[name].read(placed_record(position, label)) for name in names}))
    return max(map(len, by_value.values())) + 1


def trie_nodes(game: Game[Any], bets: Sequence[Bet]) -> int:
    """The trie's nodes, estimated from the shape (:data:`TRIE_GROWTH`): the compile holds
    them in memory, about :data:`NODE_BYTES` each (measured), whatever the states."""
    shape = Shape.of(game, sorted(set().union(*(bet.features for bet in bets))), bets)
    return TRIE_NODES * TRIE_GROWTH[min(_first_read(game, shape), len(TRIE_GROWTH) - 1)]


def _past_memory(what: str) -> CapabilityError:
    """The refusal of a compile whose ``what`` is past :data:`MEMORY_LIMIT`."""
    return CapabilityError(f"class-by-class counting: {what}, past its memory bound "
                           f"({MEMORY_LIMIT // 10**6:,} MB)")


def _memory(nodes: int, states: int = 0, groups: int = 0) -> int:
    """The compile's and one shoe's peak memory in bytes, for a trie of ``nodes`` nodes of
    ``states`` reduced states with ``groups`` groups of leaves: the nodes (their
    dictionaries, keys, leaves and arrays), the groups' states (which each reaches, their
    settlements, a shoe's sums: :data:`SLOT_BYTES` each) and the walk's ranges
    (:data:`RANGE_BYTES`, whatever the states: a depth's nodes are held a range at a time,
    depth first). Fitted to peaks measured on 8 decks, an upper bound on each: 344 MB at
    158,730 nodes of 1,300 states (121 groups; bound 466 MB), 465 MB at 158,730 of 7,900
    (121 groups, the work bound lifted; bound 496 MB), 567 MB at 525,848 of 54 (4 groups)
    and 723 MB of 96 (bound 873 MB). Before, the states' moves were held whole (states x
    outcomes) and the trie's depths a subtree at a time, ``100 MB + nodes x (1,150 + 0.85 x
    states)``: 1,084 MB at 525,848 nodes of 900 states."""
    return 100_000_000 + nodes * NODE_BYTES + groups * states * SLOT_BYTES + RANGE_BYTES


TRIE_NODES = 28_000  # with no first card read alone (27,981 for a third card's suit)
# the compile's memory per node of the trie (its dictionaries, keys, leaves and arrays)
# before its states are known (:func:`_memory` with few states): the plan's bound; the
# compile checks the states too once it knows them
NODE_BYTES = 1_150
# per (group, state): whether a leaf reaches it (bool), its settlements (int64 a bet, two
# indices), a shoe's sums and their copies (float64)
SLOT_BYTES = 48
# the walk's ranges (DenseArrays.walk: one a depth, seven at most, and a range's index
# arrays and scratch, some 50 MB; within what the dense walk's ranges took, so kept)
RANGE_BYTES = 10 * 8 * DENSE_ELEMENTS
MEMORY_LIMIT = 1_000_000_000  # bytes a compile may hold (the 1 GB)
PRODUCTS_WORK = "class-by-class counting's products of per-class polynomials"
# the trie walked by its reached slots (DenseArrays.walk), in units of work (upper bounds
# of CPU time measured on a loaded machine, docs/explanation/attribute-counting.md): products
# (entries x reached states of their parents) a unit, for the reach and for one shoe's values
# (41 and 67 ns a product measured on 158,730 nodes of 7,900 states), slots of a range's
# scratch read a unit (0.22 ns a slot), a range's some 40 numpy calls, a walk's own
REACH_PRODUCTS, SHOE_PRODUCTS = 8, 5
SCAN_SLOTS = 1_000
RANGE_UNITS = 200
WALK_UNITS = 5_000
SETTLE_UNITS = 150  # a (group, state) slot settled, the state read and each bet settled in
# Python (67 microseconds measured: 208,032 slots of 7,900 states in 14 s)


def _walk_units(products: int, slots: int, ranges: int, per_unit: int) -> int:
    """Units of work of ranges of a walk of the trie by its reached slots (DenseArrays.walk):
    their products, ``per_unit`` a unit, the slots of their scratch read and their number."""
    return products // per_unit + slots // SCAN_SLOTS + ranges * RANGE_UNITS
# The trie's nodes per first card read alone (by position, or as a tally of that card only),
# relative to none, measured on suits by position with a third card's suit (27,981 nodes with
# none; then 94,404, 248,819, 391,939 and 525,848 with one to four first cards)
TRIE_GROWTH = (1, 3, 9, 14, 19)


def _first_read(game: Game[Any], shape: Shape) -> int:
    """How many first cards ``shape`` tells apart, as the trie grows with them: the types of
    position (:meth:`Shape.position_type`) among the first cards of stages the value walk
    deals one by one (their positions' types differ), plus those among the cards drawn, less
    one (a bet on one third card's suit: none; suits of four first cards and a third card:
    four)."""
    drawn = draw_stages(game)
    stages = cast(CardPositions, game).stage_positions
    plain = (None, ())
    first, later = set(), set()
    for stage, positions in stages.items():
        types = {shape.position_type(p) for p in positions}
        if stage in drawn:
            later |= types - {plain}
        elif len(types) > 1:
            first |= types - {plain}
    return max(0, len(first) + len(later) - 1)


def evaluate(game: Game[Any], bets: Sequence[Bet], shoe: Shoe,
             known: Mapping[int, Card] | None = None) -> list[list[int]]:
    """Exact event counts of ``bets`` for ``shoe`` over ``N!/(N-r)!``; with ``known`` cards
    at positions (1 = first dealt), ``shoe`` is the shoe left without them and the counts are
    over ``(N-k)!/(N-r)!`` (as :func:`exact.engines.factorised.evaluate`)."""
    present = frozenset(CARDS[i] for i, count in enumerate(shoe.counts) if count)
    cards = DECK if len(present) > _FEW_CARDS else present
    results = {}
    # each bet compiled alone: the states of bets compiled together multiply (a node holds
    # every state densely), while their value walks are each a fraction of a second
    for bet in dict.fromkeys(bets):
        if known:
            compiled = _compiled(game, (bet,), cards | frozenset(known.values()),
                                 tuple(sorted(known.items())))
        else:
            compiled = _cached(game, (bet,), cards)
        results[bet], = compiled.counts(shoe)
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
        cards = batch_cards(matrix)
        results = {bet: _cached(game, (bet,), cards).batch_counts(matrix)[0] for bet in unique}
        return [results[bet] for bet in bets]

    return counts
