"""The reduced states of class-by-class counting (:mod:`exact.engines.classes`): what a bet
reads of the cards beyond their values (its *shape*: tallies, positions read, order-free groups)
and the outcomes it can tell apart, reduced.

Layer: engines, above the model; knows no game.

A state is the mixed-radix number of its dimensions: per tally its hits or its misses, capped
where no settlement changes past the cap; per position read its card's class among its value's
classes, merged where every settlement reads them alike; per pair of first cards read by one
feature, or per two first cards each read by position only and held jointly where that takes
fewer digits (:meth:`Pair.joint`), its value once both are placed, or what the first placed
tells of it (:class:`Pair`).
The reductions are found by settling the bet on every reading the value walk's keys allow,
each dimension with the others unreduced, so that applying them all at once is exact.
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

from exact.core.cards import CARDS, Card, Label, View
from exact.engines.classes_restricted import Position, Raw
from exact.engines.engine import two_sided
from exact.engines.factorised import Hands
from exact.model.bets import Bet
from exact.model.contracts import CapabilityError, CardPositions, draw_stages
from exact.model.features import ORDER, Feature
from exact.model.game import Game


def fine(feature: Feature[Any]) -> set[str]:
    return {a for _, a in feature.needs.pairs if a not in ("value", ORDER)}



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

    @classmethod
    def of(cls, game: Game[Any], names: Sequence[str], bets: Sequence[Bet] = ()) -> Shape:
        """The shape of the features ``names``; with ``bets``, the positions they compare that
        the value walk may hold as one type (:meth:`shares`)."""
        value_names, tallies, positional, attributes, groups = [], [], [], set(), []
        readers: list[tuple[str, frozenset[Position]]] = []
        for name in sorted(names):
            feature = game.features[name]
            sides = two_sided(feature)
            if not fine(feature):
                value_names.append(name)
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
        shape = cls(tuple(value_names), tuple(tallies), tuple(positional),
                    View(tuple(sorted(attributes))), tuple(groups), tuple(readers))
        return _shares(shape, game, tuple(bets)) if bets else shape

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
              classes: Sequence[tuple[int, tuple[object, ...]]], bets: Sequence[Bet]) -> Pair:
        """The joint of two positions read by position only (:meth:`Pair.joint`)."""
        joint = Pair.joint([(p, [(name, feature(name)) for name, q in self.positional if q == p])
                            for p in positions], classes, bets)
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
            by_reading: dict[tuple[object, ...], int] = {}
            mapping = {}
            for number in classes:
                label = cast(Label, bet.classes[number][1][0])
                reading = tuple(bet.feature(name).read(placed_record(position, label))
                                for name in names)
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
        self.sizes = [cap + 1 for _, cap in self.tally_mode] + \
            [max(self.position_digit[i].values(), default=0) + 2
             for i in range(len(self.positions))] + [pair.size for pair in self.pairs]

    def _join(self, read_by_group: frozenset[Position]) -> bool:
        """Two positions every round deals, each read by position only, held as one
        dimension (:meth:`Pair.joint`) where its merged values and residuals are fewer than
        the two positions' digits multiplied (``player_card2_rank != banker_card2_rank``:
        equal or not, 3 digits, where the two ranks took 5 x 5); the pair that saves most
        first, then the next among the rest. Whether any was joined."""
        sides = {p for pair in self.pairs for p in pair.sides}
        free = [p for p in self.positions if p not in read_by_group and p not in sides and
                all(p[1] < len(record[p[0]]) for _, record in self.readings)]
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
        """The joint of positions ``a`` and ``b`` (:meth:`Pair.joint`: no settling, cheap)."""
        joint = self.bet.shape.joint(self.bet.feature, (a, b), self.bet.classes,
                                     self.bet.bets)
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

    def _pair_values(self, skip: int | None) -> list[dict[str, object]]:
        """Every reading of the pairs but pair ``skip``'s (one value per merged class)."""
        domains = [[_SKIPPED] if n == skip else pair.representatives
                   for n, pair in enumerate(self.pairs)]
        return [{name: feature for pair, value in zip(self.pairs, chosen, strict=True)
                 if value is not _SKIPPED for name, feature in pair.features(value).items()}
                for chosen in product(*domains)]

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
        pairs = self._pair_values(None)
        size = sum(prod(len(r) for r in tallies) * prod(len(p) for p in positions)
                   for _, _, tallies, positions in combos) * len(pairs)
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
        combos = self._combos(None, None)
        pairs = self._pair_values(index)
        size = sum(prod(len(r) for r in tallies) * prod(len(p) for p in positions)
                   for _, _, tallies, positions in combos) * len(pairs)
        if size * len(pair.representatives) > _CHECK_LIMIT:
            return
        vectors = []
        for value in pair.representatives:
            settled = []
            for record, reading, tallies, positions in combos:
                for hits, chosen, values in product(product(*tallies), product(*positions),
                                                    pairs):
                    placed = {p: c for p, c in zip(self.positions, chosen, strict=True)
                              if c >= 0}
                    settled.append(self._settle(record, reading, hits, placed,
                                                {**values, **pair.features(value)}))
            vectors.append(tuple(settled))
        pair.merge(vectors)

    def _tally_reduction(self, tally: int) -> tuple[bool, int]:
        """(count misses, cap): the smallest cap on the hits or the misses of ``tally`` past
        which no settlement changes; (False, most positions) when none is smaller."""
        most = max((cast(tuple[int, ...], reading[1])[tally] for reading, _ in self.readings),
                   default=0)
        combos = self._combos(tally, None)
        pairs = self._pair_values(None)
        size = sum(prod(len(r) for r in tallies) * prod(len(p) for p in positions)
                   for _, _, tallies, positions in combos) * (most + 1) * len(pairs)
        if size > _CHECK_LIMIT:
            return False, most
        # per (mode, cap) whether it holds: settle every count once
        table = []
        for record, reading, tallies, positions in combos:
            npos = cast(tuple[int, ...], reading[1])[tally]
            for hits, chosen, values in product(product(*tallies), product(*positions),
                                                pairs):
                placed = {p: c for p, c in zip(self.positions, chosen, strict=True)
                          if c >= 0}
                row = []
                for count in range(npos + 1):
                    full = list(hits)
                    full[tally] = count
                    row.append(self._settle(record, reading, full, placed, values))
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
        return (*counted, *(self.position_digit[i][at[p]] + 1 if p in at else 0
                         for i, p in enumerate(self.positions)),
                *(pair.outcome(placed) for pair in self.pairs))

    @cached_property
    def size(self) -> int:
        """How many states: the product of the dimensions' sizes."""
        return prod(self.sizes)

    def combine_table(self, outcomes: Sequence[tuple[int, ...]]) -> np.ndarray:
        """(states x outcomes): the state each outcome takes each state to (:meth:`combine`
        of every pair, at once)."""
        digits = np.array([self.digits(state) for state in range(self.size)],
                          dtype=np.int64).reshape(self.size, len(self.sizes))
        moves = np.array(outcomes, dtype=np.int64).reshape(len(outcomes), len(self.sizes))
        after = np.repeat(digits[:, None, :], len(outcomes), axis=1)
        tallies = len(self.tally_mode)
        caps = np.array([cap for _, cap in self.tally_mode], dtype=np.int64)
        after[:, :, :tallies] = np.minimum(after[:, :, :tallies] + moves[None, :, :tallies],
                                           caps)
        ends = tallies + len(self.positions)
        placed = moves[None, :, tallies:ends] > 0
        after[:, :, tallies:ends] = np.where(placed, moves[None, :, tallies:ends],
                                             after[:, :, tallies:ends])
        for n, pair in enumerate(self.pairs):
            after[:, :, ends + n] = pair.table[digits[:, None, ends + n],
                                               moves[None, :, ends + n]]
        radix = np.cumprod([1, *self.sizes[:-1]]).astype(np.int64)
        return np.ascontiguousarray(after @ radix)

    def start(self, constant: Raw) -> int:
        return self.combine(0, self.outcome(constant))

    def combine(self, state: int, outcome: tuple[int, ...]) -> int:
        """The state after a piece's outcome: counts added and capped, classes placed."""
        digits = self.digits(state)
        tallies = len(self.tally_mode)
        for t, (_, cap) in enumerate(self.tally_mode):
            digits[t] = min(digits[t] + outcome[t], cap)
        ends = tallies + len(self.positions)
        for i in range(tallies, ends):
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
        for t, (misses, _) in enumerate(self.tally_mode):
            hits.append(npos[t] - digits[t] if misses else digits[t])
        placed = {}
        for i, position in enumerate(self.positions):
            if digits[len(self.tally_mode) + i]:
                wanted = digits[len(self.tally_mode) + i] - 1
                value = cast(int, record[position[0]][position[1]].value)
                placed[position] = next(number for number in self.bet.by_value[value]
                                        if self.position_digit[i][number] == wanted)
        ends = len(self.tally_mode) + len(self.positions)
        pairs = {name: feature for n, pair in enumerate(self.pairs)
                 for name, feature in pair.features(pair.value(digits[ends + n])).items()}
        return self.bet.read(record, reading, hits, placed, pairs)


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

    Where each position of the pair held its class among its value's (17 digits for rank and
    suit), the two digits multiplying with every other dimension, the pair holds its merged
    values and a few residuals: the positions of both hands' first cards read by pairs took
    83,521 states, and take a few hundred."""

    def __init__(self, name: str, cards: frozenset[Position],
                 read: Callable[[Mapping[Position, Label]], object],
                 classes: Sequence[tuple[int, tuple[object, ...]]],
                 names: tuple[str, ...] | None = None) -> None:
        self.name = name
        self.sides = sorted(cards)
        # the features the value stands for: the pair feature itself, or (a joint of two
        # positions) each positional feature of either card, its value one item of a tuple
        self.names = names
        self.classes = range(len(classes))
        self.value_of = [value for value, _ in classes]
        labels = [cast(Label, signature[0]) for _, signature in classes]
        by_labels: dict[tuple[Label, Label], object] = {}
        self.read: dict[tuple[int, int], object] = {}
        for x, z in product(self.classes, self.classes):
            key = (labels[x], labels[z])
            if key not in by_labels:
                by_labels[key] = read(dict(zip(self.sides, key, strict=True)))
            self.read[x, z] = by_labels[key]
        self.representatives = sorted(set(self.read.values()), key=repr)
        self.code = {value: n for n, value in enumerate(self.representatives)}
        self.refined = False
        self.shared = False  # both positions placed as the first's type (Shape.shared)

    @classmethod
    def of_feature(cls, name: str, cards: frozenset[Position], feature: Feature[Any],
                   classes: Sequence[tuple[int, tuple[object, ...]]]) -> Pair:
        """A feature of two cards read order-free (``player_pair``)."""
        return cls(name, cards, lambda labels: feature.read(pair_record(labels)), classes)

    @classmethod
    def joint(cls, features: Sequence[tuple[Position, Sequence[tuple[str, Feature[Any]]]]],
              classes: Sequence[tuple[int, tuple[object, ...]]], bets: Sequence[Bet]) -> Pair:
        """Two positions each read by position only (``player_card2_rank`` and
        ``banker_card2_rank``) as one dimension: its value the tuple of every positional
        feature's value at either card, merged where the bets' largest sub-expressions
        reading those features only read them alike (``!=`` of two ranks: equal or not;
        :meth:`~exact.model.expressions.Expression.reading`), built as the value walk places
        cards in increasing value."""
        ordered = sorted(features)

        def read(labels: Mapping[Position, Label]) -> object:
            return tuple(feature.read(placed_record(position, labels[position]))
                         for position, named in ordered for _, feature in named)

        names = tuple(name for _, named in ordered for name, _ in named)
        joint = cls("|".join(names), frozenset(p for p, _ in ordered), read, classes, names)
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
            # residual kept reads every card (the same for a suit's cards of every value)
            residual = tuple(digit(x, z, side) for z in self.classes)
            values = {d for z, d in enumerate(residual)
                      if not ordered or self.value_of[z] > self.value_of[x]}
            if not values:
                first[side, x] = 0  # nothing completes it: never so on a round
            elif len(values) == 1:
                first[side, x] = values.pop()
            else:
                first[side, x] = leaders.setdefault(residual, 1 + complete + len(leaders))
        self.size = 1 + complete + len(leaders)
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

    def value(self, digit: int) -> object:
        """The feature's value (a representative of its merged values) of a leaf's digit."""
        if not 1 <= digit <= len(self.representatives):
            raise AssertionError(f"class-by-class counting: {self.name} not complete")
        return self.representatives[digit - 1]


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


def placed_record(position: Position, label: Label) -> Hands:
    """A record holding ``label`` at ``position`` (a positional feature reads that card
    alone, as it declares)."""
    h, i = position
    hands: list[list[Label]] = [[], []]
    while len(hands) <= h:
        hands.append([])
    hands[h] = [label] * (i + 1)
    return tuple(tuple(hand) for hand in hands)


_SKIPPED = object()  # the pair a reduction settles on each of its values
_CHECK_LIMIT = 200_000  # settlements the state reduction may run per dimension
