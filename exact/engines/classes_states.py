"""The reduced states of class-by-class counting (:mod:`exact.engines.classes`): what a bet
reads of the cards beyond their values (its *shape*: tallies, positions read, order-free groups)
and the outcomes it can tell apart, reduced.

Layer: engines, above the model; knows no game.

A state is the mixed-radix number of its dimensions: per tally its hits or its misses, capped
where no settlement changes past the cap; per position read its card's class among its value's
classes, merged where every settlement reads them alike; per pair of first cards read by one
feature, or per two cards each read by position only and held jointly where that takes fewer
digits (:meth:`Pair.joint`; a third card may be undealt, a class of its own), its value once
both are placed, or what the first placed tells of it (:class:`Pair`).
The reductions are found by settling the bet on every reading the value walk's keys allow,
each dimension with the others unreduced, so that applying them all at once is exact; a
position's classes and a pair's values the conditions read alike (:func:`reading_of`) are
merged first, however many the settlements. A feature the cards' values decide
(:func:`by_value`: ``dealt_twos`` on a deck) is no dimension: it is read off the value walk's
records, as the value features are (:meth:`Shape.dressed`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import combinations, product
from math import prod
from typing import Any, Protocol, cast

import numpy as np

from exact.core.cards import CARDS, VALUE_VIEW, Card, Label, View
from exact.engines.classes_restricted import Position, Raw
from exact.engines.engine import two_sided
from exact.engines.factorised import Hands
from exact.errors import EvaluationError
from exact.model.bets import Bet
from exact.model.contracts import CapabilityError, CardPositions, draw_stages
from exact.model.features import ORDER, Feature
from exact.model.game import Game


def fine(feature: Feature[Any]) -> set[str]:
    return {a for _, a in feature.needs.pairs if a not in ("value", ORDER)}


def by_value(feature: Feature[Any], cards: frozenset[Card], bets: tuple[Bet, ...] = (),
             group: bool = False) -> bool:
    """Whether ``feature`` reads nothing of ``cards`` beyond their values: the cards of each
    value alike in what it reads of them (a tally: its predicate, so ``dealt_twos`` on a deck,
    every card of value 2 a two and no other; else every attribute it reads, so
    ``player_card3_suit`` on a shoe whose cards of each value are of one suit), or, for one
    card or (``group``: a pair of cards every round deals) two, in what the conditions of
    ``bets`` read of its values (their largest sub-expressions reading it alone:
    ``banker_card1_rank in ('2', '3')`` on a deck, value 2 or 3; ``player_initial_ranks ==
    '99'``). Checked on the cards themselves, not assumed from the ranks' names: a shoe may
    lack some."""
    return _by_value(feature, cards, bets, group)


@lru_cache(maxsize=1024)
def _by_value(feature: Feature[Any], cards: frozenset[Card], bets: tuple[Bet, ...],
              group: bool) -> bool:
    """:func:`by_value`, once per feature, cards and bets (the plan asks for every bet it
    weighs)."""
    labels: dict[int, list[Label]] = defaultdict(list)
    for card in sorted(cards, key=str):
        if card.value is not None:
            labels[card.value].append(FULL_VIEW.label(card))
    if feature.counts is not None and feature.cards is not None:
        attribute, wanted = feature.counts
        return all(len({getattr(label, attribute) == wanted for label in alike}) == 1
                   for alike in labels.values())
    attributes = sorted(fine(feature))
    if all(len({tuple(getattr(label, a) for a in attributes) for label in alike}) == 1
           for alike in labels.values()):
        return True
    positions = sorted(cast(frozenset[Position], feature.cards or frozenset()))
    if not bets or not (len(positions) == 1 or (group and len(positions) == 2)):
        return False
    read = reading_of(bets, [feature.name])
    for values in product(sorted(labels), repeat=len(positions)):
        first: tuple[object, ...] | None = None
        for chosen in product(*(labels[value] for value in values)):
            reading = read({feature.name: feature.read(pair_record(dict(zip(
                positions, chosen, strict=True))))})
            if first is None:
                first = reading
            elif reading != first:
                return False
    return True


def reading_of(bets: Sequence[Bet], names: Sequence[str]
               ) -> Callable[[Mapping[str, object]], tuple[object, ...]]:
    """What the conditions of ``bets`` read of the features ``names``, on their values: each
    condition's largest sub-expressions reading only them
    (:meth:`~exact.model.expressions.Expression.reading`). Equal readings settle every bet
    alike whatever the other features, in every context (no settling)."""
    reads = [event.condition.reading(set(names)) for bet in bets for event in bet.events
             if event.condition is not None and set(names) & event.condition.names]
    return lambda values: tuple(read(values) for read in reads)


@dataclass(frozen=True)
class Shape:
    """What the bets read, as this engine counts it."""

    value_names: tuple[str, ...]  # read off the value-level record
    tallies: tuple[tuple[str, frozenset[Position], tuple[str, object]], ...]
    positional: tuple[tuple[str, Position], ...]  # features reading one card by position
    view: View  # the attributes the positional features read
    # tallies that stand for an order-free group read by a two-valued attribute: the other
    # value (the feature is read off a group holding the tally's count of the one value)
    groups: tuple[tuple[str, str], ...] = ()
    # features reading an order-free group of positions otherwise (the pairs: two cards by
    # rank or suit): each of their positions read by the view, the feature read off them all
    readers: tuple[tuple[str, frozenset[Position]], ...] = ()
    # two first cards compared by position, held as one type (the first's) by the value walk
    # (:meth:`shares`)
    shared: tuple[tuple[Position, Position], ...] = ()
    # per value, a card of it (every attribute seen) where some of :attr:`value_names` read
    # attributes beyond values, decided by the value on the cards counted (:func:`by_value`):
    # those are read off the value-level record dressed with these cards (:meth:`dressed`)
    dressing: tuple[tuple[Label, Label], ...] = ()

    @classmethod
    def of(cls, game: Game[Any], names: Sequence[str], bets: Sequence[Bet] = (),
           cards: frozenset[Card] | None = None) -> Shape:
        """The shape of the features ``names`` on ``cards`` (the cards a shoe counted may
        hold; None: a deck's); with ``bets``, the positions they compare that the value walk
        may hold as one type (:meth:`shares`). A feature decided by the values of the cards
        it reads (:func:`by_value`: ``dealt_twos``, the count of value-2 cards) is read off
        the value-level record, as the value features are: no dimension of the states."""
        cards = _DECK if cards is None else cards
        value_names, tallies, positional, attributes, groups = [], [], [], set(), []
        readers: list[tuple[str, frozenset[Position]]] = []
        dressed = False
        for name in sorted(names):
            feature = game.features[name]
            sides = two_sided(feature)
            if not fine(feature):
                value_names.append(name)
            elif by_value(feature, cards, tuple(bets),
                          feature.cards is not None and feature.order_free and
                          cast(frozenset[Position], feature.cards) <= always_dealt(game)):
                value_names.append(name)
                dressed = True
            elif feature.counts is not None and feature.cards is not None:
                tallies.append((name, cast(frozenset[Position], feature.cards), feature.counts))
            elif sides is not None:  # one card's colour too: a tally of one position
                attribute, one, other = sides
                tallies.append((name, cast(frozenset[Position], feature.cards),
                                (attribute, one)))
                groups.append((name, other))
            elif feature.cards is not None and len(feature.cards) == 1 and \
                    not feature.order_free:
                position, = cast(frozenset[Position], feature.cards)
                positional.append((name, position))
                attributes |= fine(feature)
            elif feature.cards is not None and feature.order_free:
                readers.append((name, cast(frozenset[Position], feature.cards)))
                attributes |= fine(feature)
            else:
                raise CapabilityError(f"class-by-class counting cannot read {name}")
        dressing: dict[Label, Label] = {}
        for card in sorted(cards, key=str) if dressed else ():
            if card.value is not None:
                dressing.setdefault(VALUE_VIEW.label(card), FULL_VIEW.label(card))
        shape = cls(tuple(value_names), tuple(tallies), tuple(positional),
                    View(tuple(sorted(attributes))), tuple(groups), tuple(readers),
                    dressing=tuple(sorted(dressing.items())))
        return _shares(shape, game, tuple(bets)) if bets else shape

    def dressed(self, record: Hands) -> Hands:
        """A value-level record with a card of each value (:attr:`dressing`) in its place:
        what the value names read of it, those decided by the values too."""
        if not self.dressing:
            return record
        dressing = self._dressing
        return tuple(tuple(dressing.get(label, label) for label in hand) for hand in record)

    @cached_property
    def _dressing(self) -> dict[Label, Label]:
        return dict(self.dressing)

    def shares(self, game: Game[Any], bets: Sequence[Bet]) -> Shape:
        """This shape with the two positions of each joint the value walk may hold as one
        type: both first cards (dealt in every round), read by position only, counted by the
        same tallies, and the joint (:meth:`Pair.joint` on a deck's labels) the same with the
        cards swapped and fewer digits than the two positions (``player_card2_rank !=
        banker_card2_rank``: 3, not 5 x 5). The rounds that only swap the two cards' values
        are then one key of the value walk (the trie's nodes fall as the types it tells apart
        do)."""
        grouped = frozenset().union(*(cards for _, cards in self.readers))
        free = sorted(p for _, p in self.positional
                      if p in always_dealt(game) and p not in grouped)
        labels = sorted({(card.value, self.view.label(card)) for card in CARDS
                         if card.value is not None}, key=repr)
        classes = [(value, (label,)) for value, label in labels]
        shared: list[tuple[Position, Position]] = []
        for a, b in combinations(sorted(set(free)), 2):
            if {a, b} & {p for pair in shared for p in pair} or \
                    self.position_type(a)[1] != self.position_type(b)[1]:
                continue
            joint = self.joint(game.features.__getitem__, (a, b), classes, bets)
            if joint.size < digits(self.view_at(game, a)) * digits(self.view_at(game, b)) \
                    and joint.symmetric():
                shared.append((a, b))
        return replace(self, shared=tuple(shared))

    def view_at(self, game: Game[Any], position: Position) -> View:
        """What the features reading ``position`` by position read of its card."""
        return View(tuple(sorted(set().union(*(fine(game.features[name])
                                               for name, p in self.positional
                                               if p == position)))))

    def joint(self, feature: Callable[[str], Feature[Any]], positions: tuple[Position, Position],
              classes: Sequence[tuple[int, tuple[object, ...]]], bets: Sequence[Bet],
              optional: tuple[bool, bool] = (False, False)) -> Pair:
        """The joint of two positions read by position only (:meth:`Pair.joint`)."""
        joint = Pair.joint([(p, [(name, feature(name)) for name, q in self.positional if q == p])
                            for p in positions], classes, bets, optional)
        joint.shared = positions in self.shared
        return joint

    @cached_property
    def read_positions(self) -> frozenset[Position]:
        """The positions whose card's class the bets read: by a positional feature or as
        one of a reader's group."""
        return frozenset(p for _, p in self.positional).union(
            *(cards for _, cards in self.readers))

    @cached_property
    def predicates(self) -> tuple[tuple[str, object], ...]:
        return tuple(dict.fromkeys(counts for _, _, counts in self.tallies))

    def signature(self, card: Card) -> tuple[object, ...]:
        """What the bets can tell of a card beyond its value: the label its positional
        features read, and which tallies' predicates it meets."""
        label = self.view.label(card) if self.read_positions else None
        return (label, tuple(getattr(card, attribute) == wanted
                             for attribute, wanted in self.predicates))

    def position_type(self, position: Position) -> tuple[Position | None, tuple[int, ...]]:
        """The position read (the first of two :attr:`shared`) and the tallies counting it."""
        first = {b: a for a, b in self.shared}.get(position, position)
        at = first if position in self.read_positions else None
        return at, tuple(i for i, (_, cards, _) in enumerate(self.tallies) if position in cards)


@lru_cache(maxsize=64)
def digits(view: View) -> int:
    """A position's digits read by ``view``: the most labels one value's cards take, and 0
    (not yet placed)."""
    by_value: dict[int, set[Label]] = defaultdict(set)
    for card in CARDS:
        if card.value is not None:
            by_value[card.value].add(view.label(card))
    return max(map(len, by_value.values())) + 1


@lru_cache(maxsize=256)
def _shares(shape: Shape, game: Game[Any], bets: tuple[Bet, ...]) -> Shape:
    """:meth:`Shape.shares`, once per shape and bets (the plan asks for every bet it weighs,
    and every compiled form read back builds its shape: tens of ms with ranks and suits)."""
    return shape.shares(game, bets)


def dealt(record: Hands, position: Position) -> bool:
    """Whether ``record`` deals a card at ``position``."""
    return position[1] < len(record[position[0]])


def always_dealt(game: Game[Any]) -> frozenset[Position]:
    """The positions every round deals: those of the stages that draw no card."""
    drawn = draw_stages(game)
    return frozenset(p for stage, positions in cast(CardPositions, game).stage_positions.items()
                     if stage not in drawn for p in positions)


class Counted(Protocol):
    """What the state reduction reads of a compiled bet
    (:class:`exact.engines.classes.ClassesBet`)."""

    @property
    def bets(self) -> tuple[Bet, ...]: ...

    @property
    def shape(self) -> Shape: ...

    @property
    def classes(self) -> list[tuple[int, tuple[object, ...]]]: ...

    @property
    def by_value(self) -> Mapping[int, list[int]]: ...

    @property
    def known(self) -> Mapping[int, Card]: ...

    def feature(self, name: str) -> Feature[Any]: ...

    def read(self, record: Hands, reading: tuple[object, ...], hits: Sequence[int],
             placed: Mapping[Position, int], pairs: Mapping[str, object] = ...
             ) -> dict[str, object]: ...


class States:
    """The outcomes a bet can tell apart, reduced: each tally's hits or misses counted up to
    the cap past which no settlement changes, each position's class up to the classes no
    settlement tells apart; a state is their mixed-radix number.

    The reductions are found by settling every reading the keys allow (value features'
    readings, each tally's dealt positions, every count, every class at every position),
    each dimension with the others unreduced, so that applying them all at once is exact."""

    def __init__(self, bet: Counted, readings: list[tuple[tuple[object, ...], Hands]]
                 ) -> None:
        self.bet = bet
        self.readings = readings
        shape = bet.shape
        # a pair of cards every round deals (the first cards) is a dimension of its own: the
        # feature's value once both cards are placed, before that only what the first placed
        # tells of it (:class:`Pair`); its positions are read by position only where a
        # positional feature reads them
        self.pairs = [Pair.of_feature(name, cards, bet.feature(name), bet.classes)
                      for name, cards in shape.readers
                      if len(cards) == 2 and all(
                          i < len(record[h]) for _, record in readings for h, i in cards)]
        for pair in self.pairs:  # values read alike merged, however many the readings
            read = reading_of(bet.bets, [pair.name])
            pair.merge([read({pair.name: value}) for value in pair.representatives])
            pair.refined = False  # then settled, where few enough
        paired = {name for pair in self.pairs for name in (pair.name,)}
        own = frozenset(p for _, p in shape.positional).union(
            *(cards for name, cards in shape.readers if name not in paired))
        self.positions = sorted(own)
        read_by_group = frozenset().union(*(cards for name, cards in shape.readers
                                            if name not in paired))
        classes = range(len(bet.classes))
        # positions: classes read alike by every positional feature there, then by settling
        self.position_class: list[dict[int, int]] = []
        for position in self.positions:
            names = [name for name, p in shape.positional if p == position]
            # classes the conditions read alike merged (``player_card3_rank in ('J', 'T')``:
            # two of value 0), however many the readings to settle
            read = reading_of(bet.bets, names)
            by_reading: dict[tuple[object, ...], int] = {}
            mapping = {}
            for number in classes:
                label = cast(Label, bet.classes[number][1][0])
                reading = read({name: bet.feature(name).read(placed_record(position, label))
                                for name in names})
                if position in read_by_group:  # read with other cards: by its label first
                    reading = (*reading, label)
                mapping[number] = by_reading.setdefault(reading, len(by_reading))
            self.position_class.append(mapping)
        for index in range(len(self.positions)):
            self._refine_position(index)
        for a, b in shape.shared:  # the value walk holds them as one type: a joint
            self._add(self._joint(a, b))
        if self._join(read_by_group) or shape.shared:  # the positions again, where skipped
            for index in range(len(self.positions)):
                self._refine_position(index)
        for index, pair in enumerate(self.pairs):
            if not pair.refined:
                self._refine_pair(index)
        for pair in self.pairs:
            pair.build(ordered=not bet.known)
        self.tally_mode: list[tuple[bool, int]] = []  # (count misses, cap)
        for tally in range(len(shape.tallies)):
            self.tally_mode.append(self._tally_reduction(tally))
        # the capped counts of all tallies together, merged where they settle alike and step
        # alike (a comparison of two tallies reads their difference only)
        most = [max((cast(tuple[int, ...], reading[1])[t] for reading, _ in readings),
                    default=0) for t in range(len(shape.tallies))]
        caps = [cap for _, cap in self.tally_mode]
        self.tallies = Tallies(caps, self._tally_outputs(caps),
                               [cap == m for cap, m in zip(caps, most, strict=True)])
        # a cap on a tally's hits is one of the blocks too, but a capped count has no
        # difference with another (``dealt_reds > banker_blacks`` caps the reds at 4): tried
        # without the caps on hits, the fewer blocks kept; a count of misses has no sum or
        # difference with a count of hits, nor a reading of the conditions past the bounds
        # (``banker_jacks == 2`` counted by its misses where the third cards' suits, one
        # joint, leave few enough readings to settle it alone: 1,352 blocks, 395 by hits):
        # tried with every tally counted by its hits in full
        lifted = [(misses, cap if misses or not cap else m) for (misses, cap), m
                  in zip(self.tally_mode, most, strict=True)]
        tries = [lifted] if sum(not misses for misses, _ in self.tally_mode) > 1 else []
        if any(misses for misses, _ in self.tally_mode):
            tries.append([(False, m) for m in most])
        for modes in tries:
            if modes == self.tally_mode:
                continue
            lifted_caps = [cap for _, cap in modes]
            outputs = self._tally_outputs(lifted_caps, modes)
            tried = Tallies(lifted_caps, outputs, [cap == m for cap, m in zip(
                lifted_caps, most, strict=True)])
            if outputs is not None and tried.size < self.tallies.size:
                self.tallies = tried
                self.tally_mode = modes
        # a position's class as a digit: its reduced class's number among those of its value
        # (the value is known where it is read), so a position of ranks and suits takes 17
        # digits (16 classes of 0), not 53
        self.position_digit: list[dict[int, int]] = []
        for mapping in self.position_class:
            digit: dict[int, int] = {}
            for numbers in bet.by_value.values():
                local = {reduced: n for n, reduced in enumerate(sorted(
                    {mapping[number] for number in numbers}))}
                digit.update((number, local[mapping[number]]) for number in numbers)
            self.position_digit.append(digit)
        self.sizes = [self.tallies.size] + \
            [max(self.position_digit[i].values(), default=0) + 2
             for i in range(len(self.positions))] + [pair.size for pair in self.pairs]

    def _join(self, read_by_group: frozenset[Position]) -> bool:
        """Two positions, each read by position only, held as one dimension
        (:meth:`Pair.joint`) where its merged values and residuals are fewer than the two
        positions' digits multiplied (``player_card2_rank != banker_card2_rank``: equal or
        not, 3 digits, where the two ranks took 5 x 5; ``banker_card3_suit !=
        player_card3_suit``, an undealt card a class of its own: 7 digits, where the two
        suits took 5 x 5); the pair that saves most first, then the next among the rest.
        Whether any was joined."""
        sides = {p for pair in self.pairs for p in pair.sides}
        free = [p for p in self.positions if p not in read_by_group and p not in sides]
        joined = False
        while True:
            best: tuple[int, int, Pair] | None = None  # (digits, size, joint)
            for a, b in combinations(free, 2):
                digits = prod(1 + max(len({self.position_class[self.positions.index(p)][n]
                                           for n in numbers})
                                      for numbers in self.bet.by_value.values())
                              for p in (a, b))
                joint = self._joint(a, b)
                if joint.size < digits and (best is None or
                                            joint.size * best[0] < best[1] * digits):
                    best = (digits, joint.size, joint)
            if best is None:
                return joined
            joined = True
            free = [p for p in free if p not in best[2].sides]
            self._add(best[2])

    def _joint(self, a: Position, b: Position) -> Pair:
        """The joint of positions ``a`` and ``b`` (:meth:`Pair.joint`: no settling, cheap),
        each optional where a reading leaves it undealt."""
        optional = cast(tuple[bool, bool], tuple(
            any(not dealt(record, p) for _, record in self.readings) for p in sorted((a, b))))
        joint = self.bet.shape.joint(self.bet.feature, (a, b), self.bet.classes,
                                     self.bet.bets, optional)
        joint.build(ordered=not self.bet.known)
        return joint

    def _add(self, joint: Pair) -> None:
        """``joint`` a dimension, its positions no longer, its values merged by settling
        where few enough."""
        kept = [n for n, p in enumerate(self.positions) if p not in joint.sides]
        self.positions = [self.positions[n] for n in kept]
        self.position_class = [self.position_class[n] for n in kept]
        self.pairs.append(joint)
        self._refine_pair(len(self.pairs) - 1)

    def _settle(self, record: Hands, reading: tuple[object, ...], hits: Sequence[int],
                placed: Mapping[Position, int], pairs: Mapping[str, object]
                ) -> tuple[int, ...]:
        read = self.bet.read(record, reading, hits, placed, pairs)
        return tuple(bet.settle(read) for bet in self.bet.bets)

    def _pair_values(self, skip: int | None, record: Hands) -> list[dict[str, object]]:
        """Every reading of the pairs but pair ``skip``'s (one value per merged class) that
        ``record`` may reach (a pair's card undealt there: the values it is then)."""
        domains = [[_SKIPPED] if n == skip else
                   [pair.representatives[code] for code in pair.possible(
                       cast(tuple[bool, bool], tuple(dealt(record, p) for p in pair.sides)))]
                   for n, pair in enumerate(self.pairs)]
        return [{name: feature for pair, value in zip(self.pairs, chosen, strict=True)
                 if value is not _SKIPPED for name, feature in pair.features(value).items()}
                for chosen in product(*domains)]

    def _combos(self, skip_tally: int | None, skip_position: int | None,
                skip_pair: int | None = None
                ) -> list[tuple[Hands, tuple[object, ...], list[range], list[list[int]],
                                list[dict[str, object]]]]:
        """Per reading: the domains of the other tallies, the classes of the other
        positions dealt (one class per reduced class) and the values of the other pairs."""
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
            out.append((record, reading, tallies, positions,
                        self._pair_values(skip_pair, record)))
        return out

    @staticmethod
    def _settlements(combos: Sequence[tuple[Hands, tuple[object, ...], list[range],
                                            list[list[int]], list[dict[str, object]]]]
                     ) -> int:
        """How many settlements ``combos`` hold (every tally's count, every class at every
        position, every pair's value)."""
        return sum(prod(len(r) for r in tallies) * prod(len(p) for p in positions) *
                   len(pairs) for _, _, tallies, positions, pairs in combos)

    def _refine_position(self, index: int) -> None:
        """Classes at position ``index`` that settle alike in every reading, merged (when
        the readings are few enough to settle them all)."""
        position = self.positions[index]
        combos = self._combos(None, index)
        if self._settlements(combos) * len(self.position_class[index]) > _CHECK_LIMIT:
            return
        firsts: dict[int, int] = {}
        for number, reduced in self.position_class[index].items():
            firsts.setdefault(reduced, number)
        vectors: dict[int, tuple[object, ...]] = {}
        for reduced, number in firsts.items():
            settled: list[object] = []
            for record, reading, tallies, positions, pairs in combos:
                if position[1] >= len(record[position[0]]):
                    continue
                for hits, chosen, values in product(product(*tallies), product(*positions),
                                                    pairs):
                    placed = {p: c for p, c in zip(self.positions, chosen, strict=True)
                              if c >= 0}
                    placed[position] = number
                    settled.append(self._settle(record, reading, hits, placed, values))
            vectors[reduced] = tuple(settled)
        merged: dict[tuple[object, ...], int] = {}
        renumber = {reduced: merged.setdefault(vector, len(merged))
                    for reduced, vector in vectors.items()}
        self.position_class[index] = {number: renumber[reduced] for number, reduced
                                      in self.position_class[index].items()}

    def _refine_pair(self, index: int) -> None:
        """Values of pair ``index`` that settle alike in every reading, merged (when the
        readings are few enough to settle them all)."""
        pair = self.pairs[index]
        combos = self._combos(None, None, index)
        if self._settlements(combos) * len(pair.representatives) > _CHECK_LIMIT:
            return
        # a value is settled in the readings that may reach it (a card undealt or not)
        possible = [pair.possible(cast(tuple[bool, bool], tuple(dealt(record, p)
                                                                for p in pair.sides)))
                    for record, *_ in combos]
        vectors = []
        for code, value in enumerate(pair.representatives):
            settled: list[object] = []
            for (record, reading, tallies, positions, pairs), reached in zip(
                    combos, possible, strict=True):
                settled.append(_SKIPPED if code not in reached else tuple(
                    self._settle(record, reading, hits, {
                        p: c for p, c in zip(self.positions, chosen, strict=True) if c >= 0},
                        {**values, **pair.features(value)})
                    for hits, chosen, values in product(product(*tallies),
                                                        product(*positions), pairs)))
            vectors.append(tuple(settled))
        pair.merge(vectors)

    def _tally_reduction(self, tally: int) -> tuple[bool, int]:
        """(count misses, cap): the smallest cap on the hits or the misses of ``tally`` past
        which no settlement changes; (False, most positions) when none is smaller."""
        most = max((cast(tuple[int, ...], reading[1])[tally] for reading, _ in self.readings),
                   default=0)
        combos = self._combos(tally, None)
        if self._settlements(combos) * (most + 1) > _CHECK_LIMIT:
            # too many to settle: the cap the conditions' reading shows
            name = self.bet.shape.tallies[tally][0]
            if name in dict(self.bet.shape.groups):  # read through a group: not by its count
                return False, most
            counts = [(count,) for count in range(most + 1)]
            read = tally_readings(self.bet.bets, [name], counts)
            cap = most
            while cap and read[cap - 1] == read[most]:
                cap -= 1
            return False, cap
        # per (mode, cap) whether it holds: settle every count once, a row per vector of the
        # other tallies' counts (each condition evaluated once per vector of the counts it
        # reads: settle_counts)
        table: list[list[object]] = []
        names = [name for name, _, _ in self.bet.shape.tallies]
        hits_only = [(False, 0)] * len(names)
        for record, reading, tallies, positions, pairs in combos:
            npos = cast(tuple[int, ...], reading[1])
            ranges = [range(npos[t] + 1) if t == tally else counts
                      for t, counts in enumerate(tallies)]
            vectors = list(product(*ranges))
            for chosen, values in product(product(*positions), pairs):
                placed = {p: c for p, c in zip(self.positions, chosen, strict=True)
                          if c >= 0}
                base = self.bet.read(record, reading, [0] * len(names), placed, values)
                counted = self._count_table(record, reading, placed, values, hits_only,
                                            [len(r) - 1 for r in ranges])
                rows: dict[tuple[int, ...], list[object]] = {}
                for vector, settled in zip(vectors, settle_counts(
                        self.bet.bets, base, names, counted, vectors), strict=True):
                    rows.setdefault(vector[:tally] + vector[tally + 1:], []).append(settled)
                table.extend(rows.values())
        for cap in range(most):
            for misses in (False, True):
                if all(len({row[len(row) - 1 - c] if misses else row[c]
                            for c in range(cap, len(row))}) <= 1 for row in table):
                    return misses, cap
        return False, most

    def _tally_outputs(self, caps: Sequence[int],
                       modes: Sequence[tuple[bool, int]] | None = None
                       ) -> list[tuple[object, ...]] | None:
        """Per vector of tally counts up to ``caps`` (:class:`Tallies`' order), its settlements in
        every reading, with every class at the positions and every pair's value; None when
        that is past :data:`_JOINT_LIMIT` settlements, or for one tally.

        Readings that read alike (the same values of the features other than the tallies, the
        same value of each tally at each count) are settled once. A count past a reading's
        dealt positions never reaches that reading's leaves: it is settled as the bet reads it
        (``a >= b`` for any ``a`` and ``b``), so that a comparison of two tallies merges by
        their difference; one the bet cannot evaluate settles as an error of its own.
        ``modes``: each tally counted by its hits or its misses (:attr:`tally_mode`'s)."""
        modes = self.tally_mode if modes is None else modes
        shape = self.bet.shape
        tallies = range(len(shape.tallies))
        if len(tallies) < 2:  # one tally: its cap is its blocks already
            return None
        # past both bounds whatever the readings: not enumerated (12 tallies of 7 counts
        # are 13,841,287,201 vectors)
        if prod(cap + 1 for cap in caps) > max(_JOINT_LIMIT, READ_LIMIT):
            return None
        vectors = Tallies.vectors(caps)
        names = [name for name, _, _ in shape.tallies]
        contexts: dict[tuple[object, ...], tuple[dict[str, object], list[list[object]]]] = {}
        combos = self._combos(None, None)
        # contexts whose other features the conditions read alike settle alike (a pair's
        # values, the positions' classes: a few of their readings, not each)
        others: list[Callable[[Mapping[str, object]], tuple[object, ...]]] = []
        for record, reading, _, positions, pairs in combos:
            for chosen, values in product(product(*positions), pairs):
                placed = {p: c for p, c in zip(self.positions, chosen, strict=True) if c >= 0}
                base = self.bet.read(record, reading, [0] * len(tallies), placed, values)
                table = self._count_table(record, reading, placed, values, modes, caps)
                if not others:
                    rest = set(base) - set(names)
                    others = [event.condition.reading(rest) for bet in self.bet.bets
                              for event in bet.events if event.condition is not None]
                key = (tuple(read(base) for read in others),
                       tuple(tuple(map(repr, row)) for row in table))
                contexts.setdefault(key, (base, table))
                if len(contexts) * len(vectors) > _JOINT_LIMIT:
                    # too many to settle: the conditions' reading of the counts alone, where
                    # every tally is read by its hits (a capped count stands for its cap)
                    if any(misses for misses, _ in modes) or len(vectors) > READ_LIMIT:
                        return None
                    return self._read_counts(combos, names, vectors, modes, caps)
        columns = [settle_counts(self.bet.bets, base, names, table, vectors)
                   for base, table in contexts.values()]
        return list(zip(*columns, strict=True)) if columns else [() for _ in vectors]

    def _count_table(self, record: Hands, reading: tuple[object, ...],
                     placed: Mapping[Position, int], values: Mapping[str, object],
                     modes: Sequence[tuple[bool, int]], caps: Sequence[int]
                     ) -> list[list[object]]:
        """Per tally, its value at each count up to its cap: its hits (or misses), or a
        group read holding them."""
        npos = cast(tuple[int, ...], reading[1])
        names = [name for name, _, _ in self.bet.shape.tallies]
        grouped = dict(self.bet.shape.groups)
        table: list[list[object]] = []
        for t, ((misses, _), cap) in enumerate(zip(modes, caps, strict=True)):
            hits = [npos[t] - d if misses else d for d in range(cap + 1)]
            if names[t] in grouped:
                table.append([self.bet.read(record, reading, [h if u == t else 0
                                                              for u in range(len(names))],
                                            placed, values)[names[t]]
                              for h in hits])
            else:
                table.append(cast(list[object], hits))
        return table

    def _read_counts(self, combos: Sequence[tuple[Hands, tuple[object, ...], list[range],
                                                  list[list[int]], list[dict[str, object]]]],
                     names: Sequence[str], vectors: Sequence[tuple[int, ...]],
                     modes: Sequence[tuple[bool, int]], caps: Sequence[int]
                     ) -> list[tuple[object, ...]]:
        """Per vector of counts, what the conditions read of the tallies in every table of
        their values a reading holds (:func:`tally_readings`): a tally read through a group
        (``player_card3_colour``: 'red' at one hit, 'black' or None at none as its card is
        dealt or not) reads the group's value at its count, which the cards its round deals
        decide, not the other features (one reading's first classes and pair values stand
        for all); any other tally its count."""
        tables: dict[tuple[tuple[str, ...], ...], list[list[object]]] = {}
        for record, reading, _, positions, pairs in combos:
            placed = {p: c for p, c in zip(self.positions, next(product(*positions)),
                                           strict=True) if c >= 0}
            table = self._count_table(record, reading, placed, pairs[0], modes, caps)
            tables.setdefault(tuple(tuple(map(repr, row)) for row in table), table)
        read = [tally_readings(self.bet.bets, names, vectors, table)
                for table in tables.values()]
        return [sum(rows, ()) for rows in zip(*read, strict=True)]

    def outcome(self, raw: Raw) -> tuple[int, ...]:
        """A piece's raw outcome (hits per tally, classes at positions) reduced: the tallies'
        hits or misses counted, as what they do to the joint tallies (:meth:`Tallies.increment`),
        per position its class (0: not this piece's)."""
        hits, misses, placed = raw
        at = dict(placed)
        counted = tuple(m if counts_misses else h for (counts_misses, _), h, m
                        in zip(self.tally_mode, hits, misses, strict=True))
        return (self.tallies.increment(counted),
                *(self.position_digit[i][at[p]] + 1 if p in at else 0
                         for i, p in enumerate(self.positions)),
                *(pair.outcome(placed) for pair in self.pairs))

    @cached_property
    def size(self) -> int:
        """How many states: the product of the dimensions' sizes."""
        return prod(self.sizes)

    def moves(self, outcomes: Sequence[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """The state each outcome takes each state to (:meth:`combine`), dimension by
        dimension (each digit moves on its own): per dimension the digit each of its moves
        takes each digit to ((dimensions x digits x moves), padded with 0), and each outcome's
        move in every dimension ((outcomes x dimensions)). Whole, as (states x outcomes), it
        took 326 MB for 7,900 states of 5,163 outcomes, and 1.8 GB to build."""
        tables = [self.tallies.table]
        for size in self.sizes[1:1 + len(self.positions)]:
            digit = np.arange(size)  # a position's move: 0 leaves its digit, else places it
            tables.append(np.where(digit[None, :] > 0, digit[None, :], digit[:, None]))
        tables.extend(pair.table for pair in self.pairs)
        out = np.zeros((len(tables), max(len(t) for t in tables),
                        max(t.shape[1] for t in tables)), dtype=np.int64)
        for n, table in enumerate(tables):
            out[n, :table.shape[0], :table.shape[1]] = table
        return out, np.array(outcomes, dtype=np.int64).reshape(len(outcomes), len(self.sizes))

    def start(self, constant: Raw) -> int:
        return self.combine(0, self.outcome(constant))

    def combine(self, state: int, outcome: tuple[int, ...]) -> int:
        """The state after a piece's outcome: counts added (the joint tallies stepped),
        classes placed."""
        digits = self.digits(state)
        digits[0] = int(self.tallies.table[digits[0], outcome[0]])
        ends = 1 + len(self.positions)
        for i in range(1, ends):
            if outcome[i]:
                digits[i] = outcome[i]
        for n, pair in enumerate(self.pairs):
            digits[ends + n] = int(pair.table[digits[ends + n], outcome[ends + n]])
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
        for t, ((misses, _), digit) in enumerate(zip(self.tally_mode, self.tallies.counts(
                digits[0]), strict=True)):
            hits.append(npos[t] - digit if misses else digit)
        placed = {}
        for i, position in enumerate(self.positions):
            if digits[1 + i]:
                wanted = digits[1 + i] - 1
                value = cast(int, record[position[0]][position[1]].value)
                placed[position] = next(number for number in self.bet.by_value[value]
                                        if self.position_digit[i][number] == wanted)
        ends = 1 + len(self.positions)
        pairs = {name: feature for n, pair in enumerate(self.pairs)
                 for name, feature in pair.features(pair.value(
                     digits[ends + n], cast(tuple[bool, bool], tuple(
                         dealt(record, p) for p in pair.sides)))).items()}
        return self.bet.read(record, reading, hits, placed, pairs)


class Tallies:
    """The tallies as one dimension of the state, over their capped counts (each tally's hits
    or misses, :class:`States`), reduced in two exact steps:

    * *coordinates*: two tallies counted in full (no cap) whose settlements are alike in
      every reading wherever both counts grow by one are one coordinate, their difference (a
      comparison ``a >= b``: 13 values for 7 x 7 counts); alike wherever one count moves to the
      other, their sum (``a + b >= 4``). Every piece adds counts, so the difference or the sum
      of a round's counts is that of its pieces' (exact while no count passes its positions,
      as none does on a round); the settlements, alike along the coordinate's segments in the
      box of counts, are alike on each of its values;
    * *blocks*: the vectors of coordinates merged by Moore's partition refinement, into the
      coarsest partition where merged vectors settle alike in every reading (``outputs``) and
      a hit of any tally (its coordinate one up, one down for the second of a difference,
      none past its range: never so on a round) takes them to merged vectors. A piece's counts
      are hits one after the other, so merged vectors stay merged along any product of pieces:
      the partition is a congruence, and a leaf settles as any vector of its block (a cap is
      such a block of one coordinate: a sum's cap too).

    The block of no counts is block 0, the others numbered by their first vectors; an
    increment (a piece's counts) by what it does to every block (increment 0 does nothing),
    so increments alike are one outcome of the pieces. ``outputs`` (per vector of capped
    counts, in :meth:`vectors`' order) None: nothing merged."""

    def __init__(self, caps: Sequence[int], outputs: Sequence[object] | None,
                 additive: Sequence[bool] = ()) -> None:
        self.caps = tuple(caps)
        count = len(self.caps)
        # coordinates: (tallies, signs); each tally in one, at its place in it
        self.coordinates: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        if outputs is not None:
            found: dict[object, int] = {}
            box = np.array([found.setdefault(output, len(found)) for output in outputs],
                           dtype=np.int64).reshape(tuple(cap + 1 for cap in reversed(caps)))
            box = box.transpose()  # axis t: tally t
            free = [t for t in range(count) if additive and additive[t] and self.caps[t]]
            for t, u in ((t, u) for n, t in enumerate(free) for u in free[n + 1:]):
                if any(t in tallies or u in tallies for tallies, _ in self.coordinates):
                    continue
                for signs in ((1, -1), (1, 1)):
                    if _alike(box, t, u, signs):
                        self.coordinates.append(((t, u), signs))
                        break
        self.coordinates += [((t,), (1,)) for t in range(count)
                             if not any(t in tallies for tallies, _ in self.coordinates)]
        self.low = [-self.caps[tallies[1]] if signs == (1, -1) else 0
                    for tallies, signs in self.coordinates]
        self.high = [sum(self.caps[t] for t in tallies) if signs != (1, -1)
                     else self.caps[tallies[0]] for tallies, signs in self.coordinates]
        self.radix = [h - lo + 1 for lo, h in zip(self.low, self.high, strict=True)]
        self.strides = [prod(self.radix[:j]) for j in range(len(self.coordinates))]
        self.place = {t: (j, n) for j, (tallies, _) in enumerate(self.coordinates)
                      for n, t in enumerate(tallies)}
        points = prod(self.radix)
        self.block: np.ndarray | None = None  # None: every point a block of its own
        self.firsts: np.ndarray = np.arange(points, dtype=np.int64)
        if outputs is not None:  # at most the vectors settled: no more points than those
            every = self._points(self.firsts)
            steps = np.column_stack([self._index(self._step(every, t)) for t in range(count)]
                                    ).reshape(points, count)
            # a point settles as its smallest counts (all its counts do: _alike)
            strides = np.array([prod(cap + 1 for cap in self.caps[:t]) for t in range(count)],
                               dtype=np.int64)
            settled = np.array([found[output] for output in outputs], dtype=np.int64)
            block = settled[self._counts(every) @ strides]
            blocks = len(np.unique(block))
            while True:  # refined by the blocks each hit leads to, until none splits
                _, block = np.unique(np.column_stack([block, block[steps]]), axis=0,
                                     return_inverse=True)
                block = block.reshape(-1)
                if int(block.max(initial=-1)) + 1 == blocks:
                    break
                blocks = int(block.max(initial=-1)) + 1
            # numbered by their first points, the block of no counts first
            zero = int(self._index(np.zeros((1, len(self.coordinates)), dtype=np.int64))[0])
            firsts = sorted(np.unique(block, return_index=True)[1].tolist(),
                            key=lambda n: (block[n] != block[zero], n))
            renumber = np.empty(len(firsts), dtype=np.int64)
            renumber[block[firsts]] = np.arange(len(firsts))
            self.block = renumber[block]
            self.firsts = np.array(firsts, dtype=np.int64)
        self.size = len(self.firsts)
        self._increments: dict[tuple[int, ...], int] = {}
        self._columns: dict[tuple[int, ...], int] = {tuple(range(self.size)): 0}

    @staticmethod
    def vectors(caps: Sequence[int]) -> list[tuple[int, ...]]:
        """Every vector of counts up to ``caps``, in mixed-radix order (tally 0 the lowest
        digit)."""
        return [tuple(reversed(vector)) for vector in product(
            *(range(cap + 1) for cap in reversed(caps)))]

    def _points(self, indices: np.ndarray) -> np.ndarray:
        """(len(indices) x coordinates): the points of these mixed-radix numbers."""
        points = np.empty((len(indices), len(self.coordinates)), dtype=np.int64)
        for j, (radix, low) in enumerate(zip(self.radix, self.low, strict=True)):
            points[:, j] = indices // self.strides[j] % radix + low
        return points

    def _index(self, points: np.ndarray) -> np.ndarray:
        return (points - np.array(self.low, dtype=np.int64)) @ np.array(self.strides,
                                                                         dtype=np.int64)

    def _step(self, points: np.ndarray, tally: int, hits: int = 1) -> np.ndarray:
        """``points`` after ``hits`` hits of ``tally``, each stopped at its coordinate's
        range (never so on a round)."""
        j, n = self.place[tally]
        moved = points.copy()
        sign = self.coordinates[j][1][n]
        moved[:, j] = np.clip(moved[:, j] + sign * hits, self.low[j], self.high[j])
        return moved

    def _counts(self, points: np.ndarray) -> np.ndarray:
        """(points x tallies): the smallest vector of counts at each point."""
        counts = np.zeros((len(points), len(self.caps)), dtype=np.int64)
        for (tallies, signs), x in zip(self.coordinates, points.T, strict=True):
            if len(tallies) == 1:
                counts[:, tallies[0]] = x
            elif signs == (1, -1):
                counts[:, tallies[0]], counts[:, tallies[1]] = np.maximum(x, 0), \
                    np.maximum(-x, 0)
            else:
                counts[:, tallies[0]] = np.minimum(x, self.caps[tallies[0]])
                counts[:, tallies[1]] = x - counts[:, tallies[0]]
        return counts

    def _blocks(self, points: np.ndarray) -> np.ndarray:
        index = self._index(points)
        return index if self.block is None else self.block[index]

    def number(self, counted: Sequence[int]) -> int:
        """The block of a vector of counts."""
        point = np.zeros((1, len(self.coordinates)), dtype=np.int64)
        for t, hits in enumerate(counted):
            point = self._step(point, t, hits)
        return int(self._blocks(point)[0])

    def increment(self, counted: Sequence[int]) -> int:
        """The increment of a piece's counts: its number among the columns of :attr:`table`
        (what it does to each block, from the block's first point, its hits one after the
        other)."""
        key = tuple(counted)
        found = self._increments.get(key)
        if found is None:
            points = self.__dict__.get("_first_points")
            if points is None:
                points = self.__dict__["_first_points"] = self._points(self.firsts)
            for t, hits in enumerate(key):
                if hits:
                    points = self._step(points, t, hits)
            column = tuple(self._blocks(points).tolist())
            found = self._increments[key] = self._columns.setdefault(column,
                                                                     len(self._columns))
        return found

    @property
    def table(self) -> np.ndarray:
        """(blocks x increments): the block each increment takes each block to."""
        found = self.__dict__.get("_table")
        if found is None or found.shape[1] != len(self._columns):
            found = self.__dict__["_table"] = np.array(
                list(self._columns), dtype=np.int64).reshape(len(self._columns), self.size).T
        return found

    def counts(self, block: int) -> tuple[int, ...]:
        """A vector of counts of ``block`` (its first point's smallest): every vector of the
        block settles alike."""
        point = self._points(self.firsts[block:block + 1])
        return tuple(int(c) for c in self._counts(point)[0])


def _alike(box: np.ndarray, t: int, u: int, signs: tuple[int, int]) -> bool:
    """Whether the settlements (``box``: axis t for tally t) are alike wherever tallies ``t``
    and ``u`` both grow by one (``signs`` (1, -1): their difference kept) or one moves to the
    other (their sum kept)."""
    low, high = [slice(None)] * box.ndim, [slice(None)] * box.ndim
    low[t], high[t] = slice(None, -1), slice(1, None)
    low[u], high[u] = (slice(None, -1), slice(1, None)) if signs == (1, -1) else \
        (slice(1, None), slice(None, -1))
    return bool(np.array_equal(box[tuple(low)], box[tuple(high)]))


class Pair:
    """A pair of cards every round deals read by one feature (``player_pair``,
    ``banker_initial_ranks``, ...), or two read each by position only and compared
    (:meth:`joint`), as one dimension of the state: 0 while neither card is
    placed; the feature's value (merged where no settlement tells values apart) once both
    are; in between, only what the card placed first tells of the value. The value walk places
    a round's cards value class by value class, in increasing value, so a card placed alone is
    completed by a card of a higher value (unless cards are known, placed first whatever their
    value): if every card that may complete it gives one merged value, the first card is that
    value at once (two cards of different values make no pair: ``none`` as soon as the first
    is placed); else it is kept as its *residual*, the merged value it gives with each card
    (so that a suit's cards of every value share one), one digit whichever card keeps it.

    A joint's card a round may leave undealt (a third card: :attr:`optional`) is a class of
    its own, :data:`UNDEALT`, read as the features read a record without it (None): the
    value a card placed alone is then is one of those that may complete it (so
    ``player_card3_rank == banker_card3_rank`` is false as soon as one is placed), the last
    of its residual; a leaf whose round leaves a card undealt reads its residual (or, neither
    dealt, its 0) so (:meth:`value`). ``banker_card3_suit != player_card3_suit``: 7 digits
    (0, unequal or not, a residual per suit), where the two positions took 5 x 5.

    Where each position of the pair held its class among its value's (17 digits for rank and
    suit), the two digits multiplying with every other dimension, the pair holds its merged
    values and a few residuals: the positions of both hands' first cards read by pairs took
    83,521 states, and take a few hundred."""

    def __init__(self, name: str, cards: frozenset[Position],
                 read: Callable[[Mapping[Position, Label]], object],
                 classes: Sequence[tuple[int, tuple[object, ...]]],
                 names: tuple[str, ...] | None = None,
                 optional: tuple[bool, bool] = (False, False)) -> None:
        self.name = name
        self.sides = sorted(cards)
        # the features the value stands for: the pair feature itself, or (a joint of two
        # positions) each positional feature of either card, its value one item of a tuple
        self.names = names
        self.classes = range(len(classes))
        self.value_of = [value for value, _ in classes]
        # per side, whether a round may leave its card undealt (a third card): then
        # :data:`UNDEALT` is a class of its own at that side, read as the features read a
        # record without that card (``player_card3_suit``: None)
        self.optional = optional
        labels = [cast(Label, signature[0]) for _, signature in classes]
        by_labels: dict[tuple[Label | None, Label | None], object] = {}
        self.read: dict[tuple[int, int], object] = {}
        for x, z in product(*(self.side_classes(side) for side in (0, 1))):
            key = (None if x == UNDEALT else labels[x], None if z == UNDEALT else labels[z])
            if key not in by_labels:
                by_labels[key] = read({p: label for p, label in zip(self.sides, key,
                                                                    strict=True)
                                       if label is not None})
            self.read[x, z] = by_labels[key]
        self.representatives = sorted(set(self.read.values()), key=repr)
        self.code = {value: n for n, value in enumerate(self.representatives)}
        self.refined = False
        self.shared = False  # both positions placed as the first's type (Shape.shared)
        # per digit a leaf may hold with a card undealt (0: neither placed, a residual), its
        # complete digit then (:meth:`value`)
        self.lone: dict[int, int] = {}
        self._possible: dict[tuple[bool, bool], list[int]] = {}

    def side_classes(self, side: int) -> list[int]:
        """The classes a card of ``side`` may be: with :data:`UNDEALT` where it is optional."""
        return [*self.classes, *([UNDEALT] if self.optional[side] else [])]

    def possible(self, dealt: tuple[bool, bool]) -> list[int]:
        """The merged values (their numbers) a round dealing its two cards as ``dealt`` may
        reach (asked once per reading by every reduction: kept until the values merge)."""
        found = self._possible.get(dealt)
        if found is None:
            found = self._possible[dealt] = sorted({self.code[self.read[x, z]] for x, z in
                                                    product(*(self.classes if on else
                                                              [UNDEALT] for on in dealt))})
        return found

    @classmethod
    def of_feature(cls, name: str, cards: frozenset[Position], feature: Feature[Any],
                   classes: Sequence[tuple[int, tuple[object, ...]]]) -> Pair:
        """A feature of two cards read order-free (``player_pair``)."""
        return cls(name, cards, lambda labels: feature.read(pair_record(labels)), classes)

    @classmethod
    def joint(cls, features: Sequence[tuple[Position, Sequence[tuple[str, Feature[Any]]]]],
              classes: Sequence[tuple[int, tuple[object, ...]]], bets: Sequence[Bet],
              optional: tuple[bool, bool] = (False, False)) -> Pair:
        """Two positions each read by position only (``player_card2_rank`` and
        ``banker_card2_rank``) as one dimension: its value the tuple of every positional
        feature's value at either card, merged where the bets' largest sub-expressions
        reading those features only read them alike (``!=`` of two ranks: equal or not;
        :meth:`~exact.model.expressions.Expression.reading`), built as the value walk places
        cards in increasing value. ``optional``: per position (in order), whether a round may
        leave it undealt (the third cards): the features' values then those of a record
        without that card."""
        ordered = sorted(features)
        filler = cast(Label, classes[0][1][0])

        def read(labels: Mapping[Position, Label]) -> object:
            return tuple(feature.read(placed_record(position, labels[position])
                                      if position in labels else
                                      unplaced_record(position, filler))
                         for position, named in ordered for _, feature in named)

        names = tuple(name for _, named in ordered for name, _ in named)
        joint = cls("|".join(names), frozenset(p for p, _ in ordered), read, classes, names,
                    optional)
        readers = [event.condition.reading(set(names)) for bet in bets
                   for event in bet.events if event.condition is not None]
        joint.merge([tuple(read(joint.features(value)) for read in readers)
                     for value in joint.representatives])
        joint.build(ordered=True)
        return joint

    def symmetric(self) -> bool:
        """Whether the merged value is the same with the two cards swapped."""
        return all(self.code[self.read[x, z]] == self.code[self.read[z, x]]
                   for x, z in product(self.classes, self.classes))

    def features(self, value: object) -> dict[str, object]:
        """The features' values a value of the pair stands for."""
        if self.names is None:
            return {self.name: value}
        return dict(zip(self.names, cast(tuple[object, ...], value), strict=True))

    def merge(self, vectors: Sequence[tuple[object, ...]]) -> None:
        """Values whose settlements (``vectors``, one per representative) agree, merged."""
        merged: dict[tuple[object, ...], int] = {}
        renumber = [merged.setdefault(vector, len(merged)) for vector in vectors]
        self.code = {value: renumber[self.code[value]] for value in self.code}
        firsts: dict[int, object] = {}
        for value in self.representatives:
            firsts.setdefault(self.code[value], value)
        self.representatives = [firsts[n] for n in range(len(merged))]
        self._possible.clear()
        self.refined = True

    def build(self, ordered: bool) -> None:
        """The digits (0, then each merged value, then each residual), the outcomes (0:
        neither card placed, a card placed alone, both) and the table of their combination.
        ``ordered``: a card placed alone is completed by a card of a higher value only."""
        complete = len(self.representatives)

        def digit(x: int, z: int, side: int) -> int:
            pair = (x, z) if side == 0 else (z, x)
            return 1 + self.code[self.read[pair]]

        # a residual's digit, whichever side its card is on: a card on the other side
        # completes it, so a residual both sides keep (``!=`` of two suits: the suit) is one
        leaders: dict[tuple[int, ...], int] = {}
        first: dict[tuple[int, int], int] = {}  # (side, class) -> digit when placed alone
        for side, x in product((0, 1), self.classes):
            # the cards that may complete it decide whether it is one value already; a
            # residual kept reads every card (the same for a suit's cards of every value),
            # and last, where the other card may be undealt, the value it is then
            residual = tuple(digit(x, z, side) for z in self.side_classes(1 - side))
            values = {d for z, d in zip(self.side_classes(1 - side), residual, strict=True)
                      if z == UNDEALT or not ordered or self.value_of[z] > self.value_of[x]}
            if not values:
                first[side, x] = 0  # nothing completes it: never so on a round
            elif len(values) == 1:
                first[side, x] = values.pop()
            else:
                first[side, x] = leaders.setdefault(residual, 1 + complete + len(leaders))
        self.size = 1 + complete + len(leaders)
        self.lone = {at: residual[-1] for residual, at in leaders.items()
                     if len(residual) > len(self.classes)}
        if all(self.optional):
            self.lone[0] = digit(UNDEALT, UNDEALT, 0)
        outcomes: dict[tuple[object, ...], int] = {(): 0}
        rows: list[list[int]] = [list(range(self.size))]
        self.alone: dict[tuple[int, int], int] = {}
        for side, z in product((0, 1), self.classes):
            # what z placed alone does: starts its residual, or completes the other side's
            completes = tuple(residual[z] for residual in leaders)
            key: tuple[object, ...] = ("alone", side, first[side, z], completes)
            number = outcomes.setdefault(key, len(outcomes))
            if number == len(rows):
                row = list(range(self.size))
                row[0] = first[side, z]
                for residual, at in leaders.items():
                    row[at] = residual[z]
                rows.append(row)
            self.alone[side, z] = number
        self.both: dict[tuple[int, int], int] = {}
        for x, z in product(self.classes, self.classes):
            value = digit(x, z, 0)
            number = outcomes.setdefault(("both", value), len(outcomes))
            if number == len(rows):
                rows.append([value] * self.size)
            self.both[x, z] = number
        self.table = np.array(rows, dtype=np.int64).T.copy()  # (digits x outcomes)

    def outcome(self, placed: Sequence[tuple[Position, int]]) -> int:
        """The outcome of a piece placing ``placed`` (position, class): with the two
        positions of one type (:attr:`Shape.shared`), both are placed at the first."""
        a, b = self.sides
        if self.shared:
            numbers = [number for position, number in placed if position == a]
            return self.both[numbers[0], numbers[1]] if len(numbers) == 2 else \
                self.alone[0, numbers[0]] if numbers else 0
        at = dict(placed)
        if a in at:
            return self.both[at[a], at[b]] if b in at else self.alone[0, at[a]]
        return self.alone[1, at[b]] if b in at else 0

    def value(self, digit: int, dealt: tuple[bool, bool] = (True, True)) -> object:
        """The feature's value (a representative of its merged values) of a leaf's digit,
        in a round dealing its two cards as ``dealt``: with a card undealt, a card placed
        alone (a residual) or none is complete."""
        if not all(dealt):
            digit = self.lone.get(digit, digit)
        if not 1 <= digit <= len(self.representatives):
            raise AssertionError(f"class-by-class counting: {self.name} not complete")
        return self.representatives[digit - 1]


def tally_readings(bets: Sequence[Bet], names: Sequence[str],
                   vectors: Sequence[tuple[int, ...]],
                   values: Sequence[Sequence[object]] | None = None
                   ) -> list[tuple[object, ...]]:
    """Per vector of counts of the tallies ``names``, what every event condition of ``bets``
    reads of them (:meth:`~exact.model.expressions.Expression.reading`): two vectors read
    alike settle alike whatever the other features, in every context (no settling: the
    reductions' fallback past their settlement bounds). Each condition read once per
    vector of the counts it reads. ``values``: per tally its feature's value at each count
    (default: the count)."""
    out: list[list[object]] = [[] for _ in vectors]
    for bet in bets:
        for event in bet.events:
            if event.condition is None:
                continue
            read = event.condition.reading(set(names))
            used = [n for n, name in enumerate(names) if name in event.condition.names]
            seen: dict[tuple[int, ...], object] = {}
            for row, vector in zip(out, vectors, strict=True):
                key = tuple(vector[n] for n in used)
                found = seen.get(key)
                if found is None:
                    found = seen[key] = read({names[n]: vector[n] if values is None else
                                              values[n][vector[n]] for n in used})
                row.append(found)
    return [tuple(row) for row in out]


def settle_counts(bets: Sequence[Bet], base: Mapping[str, object], names: Sequence[str],
                  table: Sequence[Sequence[object]], vectors: Sequence[tuple[int, ...]]
                  ) -> list[tuple[object, ...]]:
    """Per vector of counts of the tallies ``names`` (each tally's value at a count from
    ``table``, the other features ``base``'s), the settlement of every bet, as
    :meth:`~exact.model.bets.Bet.settle` settles it, or :data:`_UNSETTLED` where one cannot
    be evaluated (only past a reading's dealt positions: else the leaves' settlement raises
    it as before). Each condition is evaluated once per vector of the counts it reads (196 of
    the 6,860 vectors of six tallies for a condition reading four), then spread."""
    if not vectors:
        return []
    at = {name: n for n, name in enumerate(names)}
    counts = np.array(vectors, dtype=np.int64).reshape(len(vectors), len(names))
    read = dict(base)
    settled = np.full((len(bets), len(vectors)), -1, dtype=np.int64)
    failed = np.zeros(len(vectors), dtype=bool)
    for row, bet in zip(settled, bets, strict=True):
        for index, event in enumerate(bet.events):
            open_ = row == -1
            if event.condition is None:
                row[open_] = index
                break
            used = [at[name] for name in sorted(event.condition.names) if name in at]
            # each vector's number among those of the counts the condition reads
            radix = [len(table[n]) for n in used]
            number = np.zeros(len(vectors), dtype=np.int64)
            for n, size in zip(used, radix, strict=True):
                number = number * size + counts[:, n]
            values = np.zeros(prod(radix), dtype=np.int8)  # 0 false, 1 true, 2 no value
            for k, chosen in enumerate(product(*(range(size) for size in radix))):
                read.update((names[n], table[n][c]) for n, c in zip(used, chosen, strict=True))
                try:
                    values[k] = 1 if event.condition.evaluate(read) else 0
                except EvaluationError:
                    values[k] = 2
            value = values[number]
            failed |= open_ & (value == 2)
            row[open_ & (value == 1)] = index
    out: list[tuple[object, ...]] = [tuple(column) for column in settled.T.tolist()]
    return [_UNSETTLED if fail else settlement
            for fail, settlement in zip(failed.tolist(), out, strict=True)]


def pair_record(labels: Mapping[Position, Label]) -> Hands:
    """A record holding each label at its position (a pair feature reads those cards
    alone, as it declares)."""
    hands: list[list[Label]] = [[], []]
    filler = next(iter(labels.values()))
    for (h, i), label in sorted(labels.items()):
        while len(hands) <= h:
            hands.append([])
        hands[h].extend([filler] * (i + 1 - len(hands[h])))
        hands[h][i] = label
    return tuple(tuple(hand) for hand in hands)


def unplaced_record(position: Position, filler: Label) -> Hands:
    """A record whose hand of ``position`` stops before it (``filler`` the cards before: a
    positional feature reads that card alone, as it declares, here none)."""
    h, i = position
    hands: list[list[Label]] = [[], []]
    while len(hands) <= h:
        hands.append([])
    hands[h] = [filler] * i
    return tuple(tuple(hand) for hand in hands)


def placed_record(position: Position, label: Label) -> Hands:
    """A record holding ``label`` at ``position`` (a positional feature reads that card
    alone, as it declares)."""
    h, i = position
    hands: list[list[Label]] = [[], []]
    while len(hands) <= h:
        hands.append([])
    hands[h] = [label] * (i + 1)
    return tuple(tuple(hand) for hand in hands)


_DECK = frozenset(card for card in CARDS if not card.is_joker)
FULL_VIEW = View(("rank", "suit"))  # every attribute of a card seen
_SKIPPED = object()  # the pair a reduction settles on each of its values
UNDEALT = -1  # a pair's class of a card its round does not deal (Pair.optional)
_CHECK_LIMIT = 200_000  # settlements the state reduction may run per dimension
# settlements the tallies' joint reduction may run (distinct readings times vectors of counts)
_JOINT_LIMIT = 1_000_000
READ_LIMIT = 1_000_000  # vectors of counts the conditions' reading may read, past the bounds
_UNSETTLED = ("unsettled",)  # the bet cannot evaluate a count past a reading's positions
