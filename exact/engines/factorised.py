"""Factorised counting: bets on ranks, colours and suits of any dealt card, on the value walk.

Layer: engines, above the model; the engines know no game (the games call them).

The deal depends on point values only. So the rounds are walked once at the level of values
(ordered sequences of point values, about a hundred thousand), and what a bet reads beyond
values (rank within the ten-value class, colour, suit) is counted as a *multiplicity* of each
value sequence, from the shoe's attribute composition, instead of walking the rank-and-suit
classes of every card:

* a card at a position the bet reads is seen through the bet's *fine view* (the attributes
  it reads anywhere); the other cards through their value only;
* for a sequence of values and a choice of fine class at each read position, the number of
  ordered card sequences is, per value class ``v``, the product of the falling factorials
  ``n_c(n_c-1)…`` of the fine classes ``c`` of ``v`` chosen (how many times each), times the
  falling factorial of the value class's other cards for its positions read by value only:
  ``falling(n_v - f_v, m_v - f_v)`` (``m_v`` positions of value ``v``, ``f_v`` of them read
  finely). Summed over the fine choices this is ``falling(n_v, m_v)``, the value walk's
  weight (Vandermonde's identity), so every round is counted once;
* positions that no feature of the bet tells apart (for instance all six cards, for
  ``all_same_color``, or a hand's cards for ``player_reds``) are *pooled*: their fine classes
  are chosen as a multiset per value, with its number of orderings, and value sequences that
  agree on everything the bet reads (the values of its value features, the values in each
  pool) are merged with an integer coefficient. A six-card bet on colours then settles a few
  tens of thousands of patterns, whatever the shoe.

A bet compiles once (shoe-independent) to integer coefficients over *terms*, each a product
of falling factorials of class counts; a shoe then costs one product per term. Counts are
Python integers (no fixed-width arithmetic), in the enumerator's unit: ordered sequences of
``round_cards`` cards, over ``N!/(N-round_cards)!`` (checked for every shoe).

Features tell the pooling what they read (:attr:`exact.model.features.Feature.cards` and
``order_free``); a feature that declares nothing is taken to read every position its needs
touch, each on its own (slower, never wrong).

Typing boundary: this engine serves the games with card positions
(:class:`~exact.model.contracts.CardPositions`, a capability checked at run time), whose records
are pairs of hands: it builds such records itself (:data:`Hands`) and reads the game's features
off them, so it takes any game (``Game[Any]``, ``Feature[Any]``) rather than one record type;
the deal's records are taken as ``Hands`` with a ``cast`` where they are collected (:func:`_walk`).

The engine plan decides which bets come here (:func:`exact.engines.plan.factorised_serves`);
:func:`evaluate` gives the exact event counts of bets for a shoe, :func:`batch` for many.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement, product
from math import comb, prod
from typing import Any, cast

import numpy as np

from exact.core.cards import CARDS, Card, Label, Shoe, View
from exact.core.enumerator import Deal, Draw, Record, check_shoe, falling, group_coefficient
from exact.core.work import PATTERN_UNITS, Meter, spend
from exact.engines import cache
from exact.engines.batch_numbers import (
    INT64_LIMIT,
    Segments,
    batch_dtype,
    check_batch,
    rest_of_round,
    shoe_sizes,
)
from exact.errors import ShoeError
from exact.errors import TooFine as TooFine
from exact.model.bets import Bet
from exact.model.contracts import (
    CapabilityError,
    CardPositions,
    DealtPositions,
    draw_stages,
    hand_stages,
)
from exact.model.features import ORDER, Feature, Needs
from exact.model.game import Game, game_key
from exact.model.settling import settlement_units

Position = tuple[int, int]  # (hand, index): a Punto Banco record is (player hand, banker hand)
Hands = tuple[tuple[Label, ...], ...]  # the record of a positioned game: its hands' labels
Key = tuple[object, ...]  # a tuple of read values, sorted values or marks
Values = tuple[int, ...]  # point values, sorted
# the values on each pool's positions, and the positions holding a known card (its fine class)
_PooledKey = tuple[tuple[Values, ...], tuple[tuple[Position, Label], ...]]


def _value(label: Label) -> int:
    """A label's point value: the value walk deals no joker."""
    if label.value is None:
        raise TypeError("the value walk deals no joker")
    return label.value


# Patterns of fine classes a compilation may walk: about 3 million take some 30 s and 400 MB
# (the nines-by-suit bet on four pooled cards, rank and suit). A bet past it (say the suits of
# all six cards pooled: 9 million at 8 decks) is refused by name (TooFine), counted before any
# pattern is walked (seconds, tens of MB): the compiled walk over rank-and-suit classes, the
# only other engine for it, takes minutes and gigabytes.
PATTERN_LIMIT = 3_000_000


def evaluate(game: Game[Any], bets: Sequence[Bet], shoe: Shoe,
             known: Mapping[int, Card] | None = None) -> list[list[int]]:
    """Exact event counts of every bet of ``bets`` for ``shoe`` (counts over
    ``N!/(N-round_cards)!``, as every engine gives them). ``known``: cards known at positions
    of the round (1 = the first card dealt, a game with
    :class:`~exact.model.contracts.DealtPositions`), forced there; ``shoe`` is then the shoe
    left without them and the counts are over ``(N-k)!/(N-round_cards)!`` (the end-play
    question of :mod:`exact.engines.live`, which calls this for the bets the plan gives this
    engine). A compilation with known cards serves one question: it is kept in no cache.

    >>> from exact.analysis.bet_analysis import analyze, game_bets
    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> shoe = Shoe.standard(1)
    >>> bet = next(b for b in game_bets(game) if b.id == "tie")
    >>> evaluate(game, [bet], shoe) == [list(analyze(game, shoe, [bet]).bets["tie"].counts)]
    True
    """
    # only the cards the shoe holds: a small shoe then walks few values and classes
    present = frozenset(CARDS[i] for i, count in enumerate(shoe.counts) if count)
    # bets that read the same cards the same way (a bet and the probes bet validation makes
    # of it, say) share one walk of their patterns
    by_shape: dict[Key, list[Bet]] = defaultdict(list)
    for bet in bets:
        by_shape[_shape(game, bet)].append(bet)
    results: dict[Bet, list[int]] = {}
    for group in by_shape.values():
        unique = tuple(dict.fromkeys(group))
        compiled = _named(game, unique, present, f"this {shoe.size}-card shoe",
                          tuple(sorted((known or {}).items())))
        for bet, counts in zip(unique, compiled.counts(shoe), strict=True):
            results[bet] = counts
    return [results[bet] for bet in bets]


def counted_work(game: Game[Any], bets: Sequence[Bet], shoe: Shoe) -> int:
    """The work (:mod:`exact.core.work` units) of walking the patterns of ``bets`` for
    ``shoe``, summed over their shapes whose patterns count without a walk (no third cards: a
    product, instant), as :meth:`FactorisedBet._compile` will draw it; a shape with third cards
    is drawn when its value walk has counted its patterns, and the settlements as they come.
    So a file whose card-level patterns together pass the bound is refused before any of its
    bets is counted (:mod:`exact.analysis.bet_analysis`)."""
    present = frozenset(CARDS[i] for i, count in enumerate(shoe.counts) if count)
    by_shape: dict[Key, list[Bet]] = defaultdict(list)
    for bet in bets:
        by_shape[_shape(game, bet)].append(bet)
    total = 0
    for group in by_shape.values():
        if game.needs(group[0].features).stages & draw_stages(game):  # a walk counts them
            continue
        unique = tuple(dict.fromkeys(group))
        patterns = FactorisedBet(game, unique, present, compile=False).patterns(game)
        total += patterns * PATTERN_UNITS
    return total


def batch(game: Game[Any], bets: Sequence[Bet]) -> Callable[[np.ndarray], list[np.ndarray]]:
    """The batch form for the batch evaluator (:mod:`exact.engines.batch`): a function of a
    (shoes x 53) count matrix giving, per bet, its (shoes x events) exact counts over
    ``N!/(N-round_cards)!``. The bets are compiled (once, then from the caches) for every
    card of a deck (the compiled form ``analyze`` of a full shoe uses), or, when the batch
    holds at most ``_FEW_CARDS`` distinct cards (toy and test shoes), for those only, which
    compile in little time.

    >>> from exact.analysis.bet_analysis import game_bets
    >>> from exact.engines.batch_numbers import counts_matrix
    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> text = ('[[bet]]\\nid = "red"\\n[[bet.event]]\\nname = "Red"\\n'
    ...         'when = "player_card1_colour == \\'red\\'"\\npays = 1\\n')
    >>> from exact.model.bets import load_bets
    >>> bet, = load_bets("red.toml", game.features, text=text)
    >>> shoe = Shoe.standard(1).remove("AH 2D")
    >>> batch(game, [bet])(counts_matrix([shoe]))[0].tolist() == [evaluate(game, [bet], shoe)[0]]
    True
    """
    by_shape: dict[Key, list[Bet]] = defaultdict(list)
    for bet in bets:
        by_shape[_shape(game, bet)].append(bet)
    groups = [tuple(dict.fromkeys(group)) for group in by_shape.values()]
    deal = game.deal(game.needs(set().union(*(bet.features for bet in bets))))

    def counts(shoes: np.ndarray) -> list[np.ndarray]:
        matrix = check_batch(deal, shoes)
        if not len(matrix):
            return [np.zeros((0, len(bet.events)), dtype=np.int64) for bet in bets]
        cards = batch_cards(matrix)
        results: dict[Bet, np.ndarray] = {}
        for group in groups:
            one = _named(game, group, cards, "this batch of shoes")
            results.update(zip(one.bets, one.batch_counts(matrix), strict=True))
        return [results[bet] for bet in bets]

    return counts


DECK = frozenset(card for card in CARDS if not card.is_joker)
_FEW_CARDS = 16


def batch_cards(matrix: np.ndarray) -> frozenset[Card]:
    """The cards a compiled form serves a batch (a shoes x 53 count matrix) with: those some
    shoe holds when they are few (toy and test shoes), else the whole deck, so that one form
    serves whatever cards a depleted shoe has run out of."""
    held = np.any(matrix, axis=0)
    cards = frozenset(card for card, present in zip(CARDS, held.tolist(), strict=True)
                      if present)
    return DECK if len(cards) > _FEW_CARDS else cards


def _named(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card], where: str,
           known: tuple[tuple[int, Card], ...] = ()) -> FactorisedBet:
    """The compiled bets, or TooFine naming them, their pattern count and the limit."""
    try:
        if known:
            return FactorisedBet(game, bets, cards, known=known)
        return _compiled_bet(game, bets, cards)
    except TooFine as error:
        names = ", ".join(dict.fromkeys(bet.id for bet in bets))
        raise TooFine(f"bet {names} reads the cards too finely for exact counting on {where}: "
                      f"{error}; the compiled walk would take minutes and gigabytes (a smaller "
                      "shoe, or a bet reading fewer cards or attributes, stays within the "
                      "limit)") from None


def _shape(game: Game[Any], bet: Bet) -> Key:
    features = [game.features[name] for name in sorted(bet.features)]
    fine = [f for f in features if _fine_attributes(f.needs)]
    placed = _placed(game)
    pools = _pools(placed.card_positions, fine, placed.stage_positions, draw_stages(game))
    attributes = frozenset().union(*(_fine_attributes(f.needs) for f in fine))
    return attributes, tuple(pools), game.needs(bet.features).stages


class FactorisedBet:
    """Bets compiled to integer coefficients per term and event (shoe-independent).

    ``known``: cards known at positions of the round (1 = the first card dealt), forced
    there: a known card's position holds its value in every value sequence where it is
    dealt and its fine class in every pattern, with no factor (the shoe counted is the one
    left without the known cards), and the counting unit is the other positions'
    ``(N-k)!/(N-r)!`` ordered sequences (as :mod:`exact.engines.live` counts)."""

    def __init__(self, game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card],
                 compile: bool = True, known: tuple[tuple[int, Card], ...] = ()) -> None:
        self.bets = bets
        self.known = dict(known)
        self.names = sorted(set().union(*(bet.features for bet in bets)))
        self.events = sum(len(bet.events) for bet in bets)
        deal = game.deal(game.needs(self.names))
        self.round_cards = deal.round_cards
        self.free_cards = deal.round_cards - len(self.known)  # the positions counted
        self.deal = deal
        if self.known:
            self._dealt_positions = _dealt(game).dealt_positions
        placed = _placed(game)
        positions: tuple[Position, ...] = placed.card_positions
        self.positions = positions
        features = {name: game.features[name] for name in self.names}
        fine = {name: f for name, f in features.items() if _fine_attributes(f.needs)}
        self.view = View(tuple(sorted(set().union(*(_fine_attributes(f.needs)
                                                    for f in fine.values())))))
        seen = {self.view.label(card) for card in cards if not card.is_joker}
        self.fine_labels = [label for label in self.view.labels if label in seen]
        self.values = frozenset(card.value for card in cards if not card.is_joker)
        self.pools = _pools(positions, fine.values(), placed.stage_positions,
                            draw_stages(game))
        self._known_labels = {p: self.view.label(card) for p, card in self.known.items()}
        self.value_features = [f for name, f in features.items() if name not in fine]
        if compile:
            self._compile(game, features)

    def _compile(self, game: Game[Any], features: dict[str, Feature[Any]]) -> None:
        """Two levels, multiplied per shoe: per *pooled key* (the values on the pooled
        positions), the fine patterns (shoe-dependent falling factorials of fine classes,
        grouped by the fine features' values) and the value sequences that give those pooled
        values (the falling factorials of their other cards, grouped by the value features'
        values). Rounds agreeing on both are settled once."""
        by_value = self._by_value()
        keys = self._keys(game)
        patterns = self._patterns(keys, by_value)
        if patterns > PATTERN_LIMIT:
            raise TooFine(f"{patterns:,} patterns of card classes (at most {PATTERN_LIMIT:,})")
        # each pattern walked: drawn before the walk; the settlements (one per distinct reading
        # of the bets' features, far fewer than the patterns for most bets) are drawn as they
        # are met, each before its conditions run (_settle)
        spend(patterns * PATTERN_UNITS, f"{patterns:,} patterns of card classes")
        self._settle(features, keys, by_value)

    def patterns(self, game: Game[Any]) -> int:
        """The patterns of card classes a compilation walks, counted without walking them:
        the engine plan's measure of its cost. Without third cards every position of a pool
        is dealt in every round, so summed over the pool's values its patterns are the
        multisets of its size of all the fine classes (each class has one value): a product
        over the pools, no walk; with third cards, from the value walk.

        >>> from exact.analysis.bet_analysis import game_bets
        >>> from exact.games import get_game
        >>> game = get_game("punto-banco")
        >>> pairs = next(b for b in game_bets(game) if b.id == "perfect-pairs")
        >>> FactorisedBet(game, (pairs,), DECK, compile=False).patterns(game) == 1378 ** 2
        True
        """
        if not game.needs(self.names).stages & draw_stages(game) and not self.known:
            return prod(comb(len(self.fine_labels) + len(pool) - 1, len(pool))
                        for pool in self.pools)
        return self._patterns(self._keys(game), self._by_value())

    def _by_value(self) -> dict[int, list[int]]:
        """The fine classes of each point value."""
        by_value: dict[int, list[int]] = defaultdict(list)
        for index, label in enumerate(self.fine_labels):
            if label.value is not None:  # always: a joker is no fine label
                by_value[label.value].append(index)
        return by_value

    @staticmethod
    def _patterns(keys: Mapping[_PooledKey, object], by_value: dict[int, list[int]]) -> int:
        return sum(prod(comb(len(by_value[value]) + values.count(value) - 1,
                             values.count(value))
                        for values in pooled for value in set(values)) for pooled, _ in keys)

    def _keys(self, game: Game[Any]
              ) -> dict[_PooledKey, tuple[Hands, dict[Values, dict[Key, int]]]]:
        """Per pooled key (with the positions of known cards, which are not pooled): a
        representative record, and per plain multiset of the other positions' values, the
        count of value sequences per value-feature signature."""
        keys: dict[_PooledKey, tuple[Hands, dict[Values, dict[Key, int]]]] = {}
        unread = self._unread
        needs = game.needs(self.names)
        # the value walk of each shape of bet is drawn from the run's budget too: a file of
        # many shapes each walked once would otherwise be unbounded
        meter = Meter("the value walk of a card-level bet's shape")
        for record, multiplicity in self._value_sequences(game, needs):
            meter.tick()
            signature = tuple(f.read(record) for f in self.value_features)
            known_slots = self._fixed(record)
            pooled = tuple(tuple(sorted(_value(record[h][i]) for h, i in pool
                                        if i < len(record[h]) and (h, i) not in known_slots))
                           for pool in self.pools)
            plain = tuple(sorted(_value(record[h][i]) for h, i in unread
                                 if i < len(record[h]) and (h, i) not in known_slots))
            key = (pooled, tuple(sorted(known_slots.items())))
            entry = keys.get(key)
            if entry is None:
                entry = keys[key] = (record, {})
            per_signature = entry[1].setdefault(plain, {})
            per_signature[signature] = per_signature.get(signature, 0) + multiplicity
        return keys

    def _settle(self, features: dict[str, Feature[Any]],
                keys: dict[_PooledKey, tuple[Hands, dict[Values, dict[Key, int]]]],
                by_value: dict[int, list[int]]) -> None:
        """The patterns of every key walked and settled into the compiled arrays."""
        value_names = [name for name, f in features.items() if f in self.value_features]
        fine_names = [name for name in features if name not in value_names]
        fine_readers = [features[name].read for name in fine_names]
        offsets = [sum(len(bet.events) for bet in self.bets[:n]) for n in range(len(self.bets))]
        factors: dict[tuple[int, int, int, int], int] = {(_ONE, 0, 0, 0): 0}

        def factor(kind: int, first: int, second: int, third: int) -> int:
            return factors.setdefault((kind, first, second, third), len(factors))

        fine_rows: list[tuple[int, ...]] = []
        fine_orderings: list[int] = []
        fine_slot: list[int] = []  # per fine row: its (key, fine values) slot
        plain_rows: list[tuple[int, ...]] = []
        pair_plain, pair_slot, pair_coefficient = [], [], []  # (plain row, signature slot)
        combo_signature, combo_fine, combo_event = [], [], []
        signature_slots = fine_slots = 0
        settled: dict[Key, tuple[int, ...]] = {}
        meter = Meter(f"the settlements of bet{'s' * (len(self.bets) > 1)} "
                      f"{', '.join(bet.id for bet in self.bets[:5])}"
                      f"{', ...' * (len(self.bets) > 5)} on the patterns",
                      sum(settlement_units(bet) for bet in self.bets))
        for (pooled, fixed), (record, plains) in keys.items():
            known_slots = dict(fixed)
            groups, choices = [], []
            fine_taken = [value for values in pooled for value in values]
            pool_values = [set(values) for values in pooled]
            shared = sum(map(len, pool_values)) != len(set().union(*pool_values))
            for pool_index, values in enumerate(pooled):
                for value in sorted(set(values)):
                    slots = [(h, i) for h, i in self.pools[pool_index]
                             if i < len(record[h]) and record[h][i].value == value
                             and (h, i) not in known_slots]
                    groups.append(slots)
                    choices.append([
                        (classes, group_coefficient(classes),
                         tuple(factor(_FINE, label, classes.count(label), 0)
                               for label in sorted(set(classes))),
                         tuple(self.fine_labels[label] for label in classes))
                        for classes in combinations_with_replacement(by_value[value],
                                                                     len(slots))])
            by_fine: dict[Key, int] = {}
            hands = [list(hand) for hand in record]
            for (h, i), label in fixed:  # a known card: its fine class, no factor
                hands[h][i] = label
            for pattern in product(*choices):
                orderings, row = 1, cast(tuple[int, ...], ())
                for slots, (_, coefficient, ids, labels) in zip(groups, pattern, strict=True):
                    orderings *= coefficient
                    row += ids
                    for (h, i), label in zip(slots, labels, strict=True):
                        hands[h][i] = label
                if shared:
                    row = self._merged(pattern, factor)
                chosen = (tuple(hands[0]), tuple(hands[1]))
                fine_values = tuple(read(chosen) for read in fine_readers)
                slot = by_fine.get(fine_values)
                if slot is None:
                    slot = by_fine[fine_values] = fine_slots
                    fine_slots += 1
                fine_rows.append(row)
                fine_orderings.append(orderings)
                fine_slot.append(slot)
            by_signature: dict[Key, int] = {}
            for plain, per_signature in plains.items():
                plain_row = (*(factor(_VALUE, value, fine_taken.count(value), plain.count(value))
                               for value in sorted(set(plain))),
                             factor(_FILL, len(fine_taken) + len(plain), 0, 0))
                for signature, coefficient in per_signature.items():
                    slot = by_signature.get(signature)
                    if slot is None:
                        slot = by_signature[signature] = signature_slots
                        signature_slots += 1
                    pair_plain.append(len(plain_rows))
                    pair_slot.append(slot)
                    pair_coefficient.append(coefficient)
                plain_rows.append(plain_row)
            for signature, signature_slot in by_signature.items():
                for fine_values, slot in by_fine.items():
                    events = settled.get(signature + fine_values)
                    if events is None:  # many keys read alike: each reading settled once
                        meter.tick()
                        read = dict(zip(value_names + fine_names, signature + fine_values,
                                        strict=True))
                        events = settled[signature + fine_values] = tuple(
                            offset + bet.settle(read)
                            for offset, bet in zip(offsets, self.bets, strict=True))
                    for event in events:
                        combo_signature.append(signature_slot)
                        combo_fine.append(slot)
                        combo_event.append(event)
        self._factors = np.array(list(factors), dtype=np.int64).reshape(len(factors), 4)
        self._arrays = {
            "fine_rows": _padded(fine_rows), "fine_orderings": _column(fine_orderings),
            "fine_slot": _column(fine_slot), "plain_rows": _padded(plain_rows),
            "pair_plain": _column(pair_plain), "pair_slot": _column(pair_slot),
            "pair_coefficient": _column(pair_coefficient),
            "combo_signature": _column(combo_signature), "combo_fine": _column(combo_fine),
            "combo_event": _column(combo_event),
            "slots": np.array([signature_slots, fine_slots], dtype=np.int64)}

    def _merged(self, pattern: tuple[tuple[tuple[int, ...], int, tuple[int, ...],
                                            tuple[Label, ...]], ...],
                factor: Callable[[int, int, int, int], int]) -> tuple[int, ...]:
        """The factors of a pattern whose groups share a fine class (two pools holding one
        value): one falling factorial per class of all the cards taken from it."""
        labels = [label for classes, *_ in pattern for label in classes]
        return tuple(factor(_FINE, label, labels.count(label), 0)
                     for label in sorted(set(labels)))

    def _value_sequences(self, game: Game[Any], needs: Needs) -> tuple[tuple[Hands, int], ...]:
        """The value walk, with the known cards' values forced at their positions (a known
        card in a hand's first two cards makes the walk tell them apart)."""
        ordered: bool | frozenset[str] = self._ordered(needs)
        if self.known and not ordered:  # only the pairs holding a known card
            stages = _dealt(game).position_stages
            ordered = frozenset(stages[p - 1] for p in self.known) - draw_stages(game)
        forced = tuple(sorted((p, _value(self.view.label(card)))
                              for p, card in self.known.items()))
        return value_sequences(game, ordered, self.values,
                               bool(needs.stages & draw_stages(game)), forced)

    def _fixed(self, record: Hands) -> dict[Position, Label]:
        """The slots of ``record`` that hold a known card (those dealt), with its fine
        class."""
        if not self.known:
            return {}
        slots = [(h, i) for h, hand in enumerate(record) for i in range(len(hand))]
        return {slot: self._known_labels[position] for slot, position in
                zip(slots, self._dealt_positions(self.deal.start(), record), strict=True)
                if position in self.known}

    def _ordered(self, needs: Needs) -> bool:
        """Whether the value walk must tell a hand's first two cards apart: a feature reads
        them by position (at value level, or in different pools)."""
        if any(needs.ordered(stage) for stage in needs.stages):
            return True
        pool_of = {p: n for n, pool in enumerate(self.pools) for p in pool}
        return any(pool_of.get((hand, 0)) != pool_of.get((hand, 1)) for hand in (0, 1))

    @property
    def _unread(self) -> list[Position]:
        pooled = {position for pool in self.pools for position in pool}
        return [p for p in self.positions if p not in pooled]

    def counts(self, shoe: Shoe) -> list[list[int]]:
        """Exact event counts of each bet for ``shoe``.

        Every factor is at most ``N``; a fine row and a plain row together multiply
        ``round_cards`` factors (one per card, the fill included), so each is at most
        ``N**round_cards``, and every sum below adds non-negative integers that count ordered
        card sequences of the round (at most ``N!/(N-r)!``) or of part of it. int64 holds all
        of them when ``N**round_cards`` does (as in :mod:`exact.engines.compiled`); Python integers
        otherwise.
        """
        if self.known:  # the shoe left without them: its round is the other positions
            if shoe.size < self.free_cards:
                raise ShoeError(f"{shoe.size} unseen cards cannot fill a round of "
                                f"{self.round_cards}")
        else:
            check_shoe(self.deal, shoe)
        size, unit = shoe.size, self.free_cards
        fine = self.view.class_counts(shoe)
        by_value = shoe.by_value()
        values = []
        for kind, first, second, third in self._factors.tolist():
            if kind == _FINE:
                values.append(falling(fine[self.view.index[self.fine_labels[first]]], second))
            elif kind == _VALUE:
                values.append(falling(max(by_value[first] - second, 0), third))
            elif kind == _FILL:
                values.append(falling(size - first, unit - first))
            else:
                values.append(1)
        dtype: type = np.int64 if size**unit <= INT64_LIMIT else object
        table: np.ndarray = np.array(values, dtype=dtype)
        arrays = self._arrays
        signature_slots, fine_slots = (int(n) for n in arrays["slots"])
        fine_weights = table[arrays["fine_rows"]].prod(axis=1) * \
            arrays["fine_orderings"].astype(dtype)
        by_fine: np.ndarray = np.zeros(fine_slots, dtype=dtype)
        np.add.at(by_fine, arrays["fine_slot"], fine_weights)
        plain_weights = table[arrays["plain_rows"]].prod(axis=1)
        by_signature: np.ndarray = np.zeros(signature_slots, dtype=dtype)
        np.add.at(by_signature, arrays["pair_slot"],
                  plain_weights[arrays["pair_plain"]] * arrays["pair_coefficient"].astype(dtype))
        every: np.ndarray = np.zeros(self.events, dtype=dtype)
        np.add.at(every, arrays["combo_event"],
                  by_signature[arrays["combo_signature"]] * by_fine[arrays["combo_fine"]])
        out, start = [], 0
        for bet in self.bets:
            out.append([int(count) for count in every[start:start + len(bet.events)]])
            start += len(bet.events)
            if sum(out[-1]) != falling(size, unit):
                raise AssertionError(f"{bet.id}: factorised counts do not sum to N!/(N-r)!")
        return out


    def _factor_table(self, matrix: np.ndarray, sizes: np.ndarray, dtype: type) -> np.ndarray:
        """(shoes x factors): every factor's falling factorial for every shoe of ``matrix``,
        each a non-negative integer at most ``N**round_cards``."""
        fine_class = np.array(self.view.card_class, dtype=np.int64)
        fine_hot = np.zeros((len(CARDS), len(self.view.labels)), dtype=np.int64)
        fine_hot[np.arange(len(CARDS)), fine_class] = 1
        value_hot = np.zeros((len(CARDS), 10), dtype=np.int64)
        for index, card in enumerate(CARDS):
            if not card.is_joker:
                value_hot[index, card.value] = 1
        fine, by_value = matrix @ fine_hot, matrix @ value_hot
        unit = self.free_cards
        table: np.ndarray = np.ones((len(matrix), len(self._factors)), dtype=dtype)
        for column, (kind, first, second, third) in enumerate(self._factors.tolist()):
            if kind == _FINE:
                base, count = fine[:, self.view.index[self.fine_labels[first]]], second
            elif kind == _VALUE:
                base, count = np.maximum(by_value[:, first] - second, 0), third
            elif kind == _FILL:
                base, count = sizes - first, unit - first
            else:
                continue
            for offset in range(count):
                # n(n-1)...: a zero factor once n is passed, so clipping at 0 changes nothing
                table[:, column] *= np.maximum(base - offset, 0).astype(dtype)
        return table

    @cached_property
    def _sorted(self) -> _SortedArrays:
        """The arrays in the order of their segments (fine slots, signature slots, events),
        so each sum is one ``reduceat`` with no gather."""
        arrays = self._arrays
        signature_slots, fine_slots = (int(n) for n in arrays["slots"])
        fine = Segments.of(arrays["fine_slot"], fine_slots)
        pairs = Segments.of(arrays["pair_slot"], signature_slots)
        combos = Segments.of(arrays["combo_event"], self.events)
        return _SortedArrays(
            fine=fine, fine_trie=_product_trie(arrays["fine_rows"][fine.order]),
            fine_orderings=arrays["fine_orderings"][fine.order],
            plain_trie=_product_trie(arrays["plain_rows"]),
            pairs=pairs, pair_plain=arrays["pair_plain"][pairs.order],
            pair_coefficient=arrays["pair_coefficient"][pairs.order],
            combos=combos, combo_signature=arrays["combo_signature"][combos.order],
            combo_fine=arrays["combo_fine"][combos.order])

    def batch_counts(self, counts: np.ndarray) -> list[np.ndarray]:
        """Per bet, the (shoes x events) exact counts of a batch of shoes ((shoes x 53) card
        counts): what :meth:`counts` gives shoe by shoe, with the same bounds (int64 when
        ``N**round_cards`` fits, Python integers beyond), checked to sum to ``N!/(N-r)!``."""
        matrix = check_batch(self.deal, counts)
        sizes = shoe_sizes(matrix)
        unit = self.free_cards
        dtype: type = np.int64 if batch_dtype(int(sizes.max(initial=0)), unit) is not object \
            else object
        table = self._factor_table(matrix, sizes, dtype)
        arrays, order = self._arrays, self._sorted
        widest = max(len(arrays["fine_rows"]), len(arrays["pair_plain"]),
                     len(arrays["combo_event"]), 1)
        block = max(1, min(256, 2**20 // widest))  # (block x widest) arrays of a few MB
        blocks = []
        for start in range(0, len(matrix), block):
            part = table[start:start + block]
            fine_weights = _trie_products(part, *order.fine_trie)
            fine_weights *= order.fine_orderings.astype(dtype)
            by_fine = order.fine.sorted_sums(fine_weights)
            plain_weights = _trie_products(part, *order.plain_trie)
            pairs = plain_weights[:, order.pair_plain]
            pairs *= order.pair_coefficient.astype(dtype)
            by_signature = order.pairs.sorted_sums(pairs)
            combos = by_signature[:, order.combo_signature]
            combos *= by_fine[:, order.combo_fine]
            blocks.append(order.combos.sorted_sums(combos))
        every = np.vstack(blocks) if blocks else np.zeros((0, self.events), dtype=dtype)
        totals = rest_of_round(sizes, 0, unit, dtype)
        out, start = [], 0
        for bet in self.bets:
            result = every[:, start:start + len(bet.events)]
            start += len(bet.events)
            if not np.array_equal(result.sum(axis=1), totals):
                raise AssertionError(f"{bet.id}: factorised counts do not sum to N!/(N-r)!")
            out.append(result)
        return out


Trie = tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]  # of _product_trie


@dataclass(frozen=True)
class _SortedArrays:
    """A compiled bet's arrays in the order of their segments (:meth:`FactorisedBet._sorted`)."""

    fine: Segments
    fine_trie: Trie
    fine_orderings: np.ndarray
    plain_trie: Trie
    pairs: Segments
    pair_plain: np.ndarray
    pair_coefficient: np.ndarray
    combos: Segments
    combo_signature: np.ndarray
    combo_fine: np.ndarray


def _product_trie(rows: np.ndarray) -> Trie:
    """Rows of factor ids as a trie of their sorted prefixes: per depth, each node's parent
    (a node of the depth before) and factor; and each row's node at the last depth. A row's
    product is then one multiplication per node, shared by the rows with that prefix.

    >>> levels, leaf = _product_trie(np.array([[3, 1], [1, 2], [1, 3]]))
    >>> [(parents.tolist(), factors.tolist()) for parents, factors in levels], leaf.tolist()
    ([([0], [1]), ([0, 0], [2, 3])], [1, 0, 1])
    """
    ordered = np.sort(rows, axis=1)
    radix = int(ordered.max(initial=0)) + 1
    node = np.zeros(len(rows), dtype=np.int64)
    levels = []
    for depth in range(ordered.shape[1]):
        keys, node = np.unique(node * radix + ordered[:, depth], return_inverse=True)
        node = node.reshape(-1)
        levels.append((keys // radix, keys % radix))
    return levels, node


def _trie_products(table: np.ndarray, levels: list[tuple[np.ndarray, np.ndarray]],
                   leaf: np.ndarray) -> np.ndarray:
    """(shoes x rows): each row's product of factors of ``table`` (shoes x factors), through
    the trie of :func:`_product_trie`. Every node is a product of part of a row's factors,
    so it is bounded as the row's product is."""
    values = np.ones((table.shape[0], 1), dtype=table.dtype)
    for parents, factors in levels:
        values = values[:, parents]
        values *= table[:, factors]
    return values[:, leaf] if levels else np.ones((table.shape[0], len(leaf)), table.dtype)


def _fine_attributes(needs: Needs) -> set[str]:
    return {attribute for _, attribute in needs.pairs if attribute not in ("value", ORDER)}


def _placed(game: Game[Any]) -> CardPositions:
    """``game`` as the capability this engine needs (the plan's
    :func:`~exact.engines.plan.factorised_serves` chose this engine for that)."""
    if not isinstance(game, CardPositions):
        raise CapabilityError(f"{game.id} does not offer card positions (a record of a pair "
                              "of hands): factorised counting cannot serve it")
    return game


def _dealt(game: Game[Any]) -> DealtPositions:
    """``game`` as the capability known cards need (which positions each draw fills)."""
    if not isinstance(game, DealtPositions):
        raise CapabilityError(f"{game.id} does not say which positions its draws fill: "
                              "factorised counting cannot force a card at a position")
    return game


def _pools(positions: Sequence[Position], fine: Iterable[Feature[Any]],
           stages: Mapping[str, tuple[Position, ...]], drawing: frozenset[str]
           ) -> list[tuple[Position, ...]]:
    """Positions no fine feature tells apart, grouped (positions no fine feature reads are
    left out: they are counted by value)."""
    marks: dict[Position, list[object]] = {p: [] for p in positions}
    for number, feature in enumerate(fine):
        declared = feature.cards
        order_free = feature.order_free and declared is not None
        reads: Collection[object]
        if declared is not None:
            reads = declared
        else:
            # undeclared: every position of its finely seen stages; views only get coarser
            # along the deal, so fine third cards mean fine first cards too
            stages_read = {s for s, a in feature.needs.pairs if a not in ("value", ORDER)}
            if stages_read & drawing:
                stages_read = set(stages)
            reads = {p for s in stages_read for p in stages[s]}
        for position in positions:
            if position in reads:
                marks[position].append((number, None if order_free else position))
    pools: dict[Key, list[Position]] = defaultdict(list)
    for position in positions:
        if marks[position]:
            pools[tuple(marks[position])].append(position)
    return [tuple(pool) for pool in pools.values()]


_ONE, _FINE, _VALUE, _FILL = range(4)  # kinds of factor: 1, n_c falling, n_v falling, fill
_FORMAT = "factorised-3"


@lru_cache(maxsize=64)
def _compiled_bet(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card]) -> FactorisedBet:
    """The compiled bet, kept in the safe disk cache (:mod:`exact.engines.cache`): int64 arrays
    only, every index and count range-checked when loaded, keyed by everything that determines it
    (game, rules, the bet's events and conditions, the cards the shoe may hold)."""
    return cache.cached(entry_key(game, bets, cards),
                        lambda: FactorisedBet(game, bets, cards), _encode,
                        lambda fields, arrays: _decode(game, bets, cards, arrays))


def entry_key(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card]) -> cache.Key:
    """The disk-cache key of the compiled ``bets``: the layout, the game and its rules, the
    cards the shoe may hold, each bet's events (:func:`exact.engines.cache.bet_part`)."""
    return cache.cache_key("factorised", [
        ["layout", _FORMAT], *game_key(game), ["cards", sorted(str(card) for card in cards)],
        *map(cache.bet_part, bets)])


def _encode(compiled: FactorisedBet) -> tuple[cache.Fields, dict[str, np.ndarray]]:
    return {}, {"factors": compiled._factors, **compiled._arrays}


# per array: its number of dimensions and the bound of its values (None: a count, below 2**63)
_LAYOUT = {"fine_rows": 2, "fine_orderings": 1, "fine_slot": 1, "plain_rows": 2,
           "pair_plain": 1, "pair_slot": 1, "pair_coefficient": 1, "combo_signature": 1,
           "combo_fine": 1, "combo_event": 1, "slots": 1}


def _decode(game: Game[Any], bets: tuple[Bet, ...], cards: frozenset[Card],
            arrays: dict[str, np.ndarray]) -> FactorisedBet:
    compiled = FactorisedBet(game, bets, cards, compile=False)
    factors = cache.check_indices(arrays["factors"], INT64_LIMIT, "factors", ndim=2)
    loaded = {name: cache.check_indices(arrays[name], INT64_LIMIT, name, ndim=ndim)
              for name, ndim in _LAYOUT.items()}
    if factors.shape[1] != 4 or loaded["slots"].shape != (2,):
        raise cache.CorruptEntry("factorised arrays of the wrong shape")
    signature_slots, fine_slots = (int(n) for n in loaded["slots"])
    unit = compiled.round_cards
    bounds = {_ONE: (1, 1, 1), _FINE: (len(compiled.fine_labels), unit + 1, 1),
              _VALUE: (10, unit + 1, unit + 1), _FILL: (unit + 1, 1, 1)}
    for kind, *fields in factors.tolist():
        if kind not in bounds or any(v >= b for v, b in zip(fields, bounds[kind], strict=True)):
            raise cache.CorruptEntry("factor out of range")
    limits = {"fine_rows": len(factors), "plain_rows": len(factors),
              "fine_slot": fine_slots, "pair_plain": len(loaded["plain_rows"]),
              "pair_slot": signature_slots, "combo_signature": signature_slots,
              "combo_fine": fine_slots, "combo_event": compiled.events}
    for name, bound in limits.items():
        cache.check_indices(loaded[name], bound, name, ndim=_LAYOUT[name])
    lengths = [("fine_rows", "fine_orderings", "fine_slot"),
               ("pair_plain", "pair_slot", "pair_coefficient"),
               ("combo_signature", "combo_fine", "combo_event")]
    if any(len({len(loaded[name]) for name in names}) != 1 for names in lengths):
        raise cache.CorruptEntry("factorised arrays of unequal lengths")
    compiled._factors, compiled._arrays = factors, loaded
    return compiled


def _padded(rows: list[tuple[int, ...]]) -> np.ndarray:
    """Rows of factor ids padded with factor 0 (the factor 1) to one width."""
    width = max((len(row) for row in rows), default=1)
    out = np.zeros((len(rows), width), dtype=np.int64)
    for position, row in enumerate(rows):
        out[position, :len(row)] = row
    return out


def _column(values: list[int]) -> np.ndarray:
    if any(value > INT64_LIMIT for value in values):
        raise AssertionError("a coefficient past int64")  # never: a few per value sequence
    return np.array(values, dtype=np.int64)


@lru_cache(maxsize=8)
def value_sequences(game: Game[Any], ordered: bool | frozenset[str] = True,
                    values: frozenset[int] = frozenset(range(10)),
                    third_cards: bool = True, forced: tuple[tuple[int, int], ...] = ()
                    ) -> tuple[tuple[Hands, int], ...]:
    """Every round of cards of ``values`` as point values per position (value labels) with
    its multiplicity: the shoe-independent backbone. ``ordered``: a hand's first two cards are
    dealt one by one (multiplicity 1); otherwise as an unordered pair, sorted, standing for
    its orderings (or only the hand stages named, dealt one by one). The stages are the
    game's roles (:class:`~exact.model.contracts.StageRoles`): its hands' and its draws'.
    ``third_cards``: with the cards the draws deal (else the first four cards only).
    ``forced``: (position, value) pairs, 1 = the first card dealt (a game that says which
    positions its draws fill, :class:`~exact.model.contracts.DealtPositions`): only the rounds
    with that value at that position when it is dealt, of any value (not only ``values``);
    a position in a hand's first two cards needs its stage ``ordered``.

    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> len(value_sequences(game, values=frozenset({0})))
    1
    >>> nines = value_sequences(game, values=frozenset({0, 9}), forced=((1, 9),))
    >>> sorted({record[0][0].value for record, _ in nines}), len(nines)
    ([9], 8)
    """
    stages = {stage: [ORDER] if ordered is True or (ordered and stage in ordered) else []
              for stage in hand_stages(game)}
    drawn: dict[str, list[str]] = {stage: [] for stage in sorted(draw_stages(game))} \
        if third_cards else {}
    deal = game.deal(Needs.of(**drawn, **stages))
    out: list[tuple[Hands, int]] = []
    _walk(deal, deal.start(), 1, out, values, _Forced(game, dict(forced)) if forced else None)
    return tuple(out)


class _Forced:
    """Values forced at positions of the round, and the game that says which positions each
    draw fills."""

    def __init__(self, game: Game[Any], values: dict[int, int]) -> None:
        self.values = values
        self.dealt_positions = _dealt(game).dealt_positions

    def labels(self, deal: Deal[Record], state: object, draw: Draw, free: list[Label]
               ) -> list[Label]:
        """The labels a draw may take: the forced value where the draw fills a forced
        position (where it puts cards depends on the state only), else ``free``."""
        positions = self.dealt_positions(state, deal.advance(state, (draw.view.labels[0],)
                                                               * draw.count))
        wanted = [self.values[p] for p in positions if p in self.values]
        if not wanted:
            return free
        if draw.count != 1:
            raise AssertionError("a forced position in an unordered group: walk it ordered")
        return [label for label in draw.view.labels if label.value == wanted[0]]


def _walk(deal: Deal[Record], state: object, multiplicity: int, out: list[tuple[Hands, int]],
          values: frozenset[int], forced: _Forced | None = None) -> None:
    draw = deal.next_draw(state)
    if draw is None:
        out.append((cast(Hands, deal.record(state)), multiplicity))  # a positioned game's
        return
    labels: list[Label] = [label for label in draw.view.labels if label.value in values]
    if forced is not None:
        labels = forced.labels(deal, state, draw, labels)
    for group in combinations_with_replacement(labels, draw.count):
        _walk(deal, deal.advance(state, group), multiplicity * group_coefficient(group), out,
              values, forced)
