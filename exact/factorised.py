"""Factorised counting: bets on ranks, colours and suits of any dealt card, on the value walk.

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

Features tell the pooling what they read (:attr:`exact.features.Feature.cards` and
``order_free``); a feature that declares nothing is taken to read every position its needs
touch, each on its own (slower, never wrong).

Seam for the engine plan (issue 9): :func:`serves` says whether this engine is the one for a
set of needs, :func:`evaluate` gives the exact event counts of bets for a shoe.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, product

import numpy as np

from exact import cache
from exact.bets import Bet
from exact.cards import CARDS, Card, Label, Shoe, View
from exact.compiled import INT64_LIMIT
from exact.enumerator import Deal, check_shoe, falling, group_coefficient
from exact.features import ORDER, Feature, Needs
from exact.games.base import Game

Position = tuple[int, int]  # (hand, index): a Punto Banco record is (player hand, banker hand)


def serves(game: Game, needs: Needs) -> bool:
    """Whether this engine should count bets with ``needs``: a game whose deal is a pair of
    hands (``game.card_positions``), bets that read a card attribute beyond its value
    together with third cards, or a hand's first or second card by position (the bets on
    which the compiled walk over rank-and-suit classes is slow). Bets on unordered first
    pairs alone stay with the staged evaluator.

    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> [serves(game, game.needs(names)) for names in (["winner", "all_same_color"],
    ...     ["player_card1_colour"], ["winner"], ["player_pair"])]
    [True, True, False, False]
    """
    positions = getattr(game, "card_positions", None)
    if not positions or not any(attribute not in ("value", ORDER) for _, attribute in needs.pairs):
        return False
    # without third cards and read in unordered pairs, the staged evaluator is quicker
    return "draws" in needs.stages or any(needs.ordered(stage) for stage in needs.stages)


def evaluate(game: Game, bets: Sequence[Bet], shoe: Shoe) -> list[list[int]]:
    """Exact event counts of every bet of ``bets`` for ``shoe`` (counts over
    ``N!/(N-round_cards)!``, as every engine gives them).

    >>> from exact.analysis import analyze, game_bets
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
    by_shape: dict[tuple, list[Bet]] = defaultdict(list)
    for bet in bets:
        by_shape[_shape(game, bet)].append(bet)
    results: dict[Bet, list[int]] = {}
    for group in by_shape.values():
        unique = tuple(dict.fromkeys(group))
        for bet, counts in zip(unique, _compiled_bet(game, unique, present).counts(shoe),
                               strict=True):
            results[bet] = counts
    return [results[bet] for bet in bets]


def _shape(game: Game, bet: Bet) -> tuple:
    features = [game.features[name] for name in sorted(bet.features)]
    fine = [f for f in features if _fine_attributes(f.needs)]
    pools = _pools(game.card_positions, fine, _stage_positions(game))  # type: ignore[attr-defined]
    attributes = frozenset().union(*(_fine_attributes(f.needs) for f in fine))
    return attributes, tuple(pools), game.needs(bet.features).stages


class FactorisedBet:
    """Bets compiled to integer coefficients per term and event (shoe-independent)."""

    def __init__(self, game: Game, bets: tuple[Bet, ...], cards: frozenset[Card],
                 compile: bool = True) -> None:
        self.bets = bets
        self.names = sorted(set().union(*(bet.features for bet in bets)))
        self.events = sum(len(bet.events) for bet in bets)
        deal = game.deal(game.needs(self.names))
        self.round_cards = deal.round_cards
        self.deal = deal
        positions: tuple[Position, ...] = game.card_positions  # type: ignore[attr-defined]
        self.positions = positions
        features = {name: game.features[name] for name in self.names}
        fine = {name: f for name, f in features.items() if _fine_attributes(f.needs)}
        self.view = View(tuple(sorted(set().union(*(_fine_attributes(f.needs)
                                                    for f in fine.values())))))
        seen = {self.view.label(card) for card in cards if not card.is_joker}
        self.fine_labels = [label for label in self.view.labels if label in seen]
        self.values = frozenset(card.value for card in cards if not card.is_joker)
        self.pools = _pools(positions, fine.values(), _stage_positions(game))
        self.value_features = [f for name, f in features.items() if name not in fine]
        if compile:
            self._compile(game, features)

    def _compile(self, game: Game, features: dict[str, Feature]) -> None:
        by_value: dict[int, list[int]] = defaultdict(list)
        for index, label in enumerate(self.fine_labels):
            by_value[label[0]].append(index)  # type: ignore[index]
        # value sequences that agree on what the bet reads, merged: per (pooled values,
        # values read plainly), the count of sequences per value-feature signature
        keys: dict[tuple, tuple[tuple, dict[tuple, int]]] = {}
        unread = self._unread
        needs = game.needs(self.names)
        for record, multiplicity in value_sequences(game, self._ordered(needs), self.values,
                                                    "draws" in needs.stages):
            signature = tuple(f.read(record) for f in self.value_features)
            pooled = tuple(tuple(sorted(record[h][i][0] for h, i in pool if i < len(record[h])))
                           for pool in self.pools)
            plain = tuple(sorted(record[h][i][0] for h, i in unread if i < len(record[h])))
            entry = keys.get((pooled, plain))
            if entry is None:
                entry = keys[pooled, plain] = (record, defaultdict(int))
            entry[1][signature] += multiplicity
        value_names = [name for name, f in features.items() if f in self.value_features]
        fine_names = [name for name in features if name not in value_names]
        fine_readers = [features[name].read for name in fine_names]
        settled: dict[tuple, int] = {}
        events = self.events
        offsets = [sum(len(bet.events) for bet in self.bets[:n]) for n in range(len(self.bets))]
        factors: dict[tuple[int, int, int, int], int] = {(_ONE, 0, 0, 0): 0}

        def factor(*key: int) -> int:
            return factors.setdefault(key, len(factors))  # type: ignore[arg-type]

        rows: list[tuple[int, ...]] = []
        coefficients: list[list[int]] = []
        for (pooled, plain), (record, signatures) in keys.items():
            # one group per pool and value: the pool's positions holding that value, each
            # with every multiset of fine classes it may hold, its number of orderings and
            # its falling factorials (merged per class when two pools share a value)
            groups, choices = [], []
            fine_taken = [value for values in pooled for value in values]
            pool_values = [set(values) for values in pooled]
            shared = sum(map(len, pool_values)) != len(set().union(*pool_values))
            for pool_index, values in enumerate(pooled):
                for value in sorted(set(values)):
                    slots = [(h, i) for h, i in self.pools[pool_index]
                             if i < len(record[h]) and record[h][i][0] == value]
                    groups.append(slots)
                    choices.append([
                        (classes, group_coefficient(classes),
                         tuple(factor(_FINE, label, classes.count(label), 0)
                               for label in sorted(set(classes))),
                         tuple(self.fine_labels[label] for label in classes))
                        for classes in combinations_with_replacement(by_value[value],
                                                                     len(slots))])
            head = (*(factor(_VALUE, value, fine_taken.count(value), plain.count(value))
                      for value in sorted(set(plain))),
                    factor(_FILL, sum(len(hand) for hand in record), 0, 0))
            by_fine: dict[tuple, list[int]] = {}
            hands = [list(hand) for hand in record]
            for pattern in product(*choices):
                orderings, row = 1, head
                for slots, (_, coefficient, ids, labels) in zip(groups, pattern, strict=True):
                    orderings *= coefficient
                    row += ids
                    for (h, i), label in zip(slots, labels, strict=True):
                        hands[h][i] = label
                if shared:
                    row = self._merged(head, pattern, factor)
                chosen = (tuple(hands[0]), tuple(hands[1]))
                fine_values = tuple(read(chosen) for read in fine_readers)
                vector = by_fine.get(fine_values)
                if vector is None:
                    # the events of every value signature of this key, for these fine values
                    vector = by_fine[fine_values] = [0] * events
                    for signature, coefficient in signatures.items():
                        values = signature + fine_values
                        settles = settled.get(values)
                        if settles is None:
                            read = dict(zip(value_names + fine_names, values, strict=True))
                            settles = settled[values] = [
                                offset + bet.settle(read)
                                for offset, bet in zip(offsets, self.bets, strict=True)]
                        for event in settles:
                            vector[event] += coefficient
                rows.append(row)
                coefficients.append([coefficient * orderings for coefficient in vector])
        width = max((len(row) for row in rows), default=1)
        self._factors = np.array(list(factors), dtype=np.int64).reshape(len(factors), 4)
        self._rows = np.zeros((len(rows), width), dtype=np.int64)
        for position, row in enumerate(rows):
            self._rows[position, :len(row)] = row
        self._coefficients = np.array(coefficients, dtype=object).reshape(len(rows), events)

    def _merged(self, head: tuple[int, ...], pattern: tuple, factor: object) -> tuple[int, ...]:
        """The factors of a pattern whose groups share a fine class (two pools holding one
        value): one falling factorial per class of all the cards taken from it."""
        labels = [label for classes, *_ in pattern for label in classes]
        return head + tuple(factor(_FINE, label, labels.count(label), 0)  # type: ignore[operator]
                            for label in sorted(set(labels)))

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
        """Exact event counts for ``shoe``.

        Every factor is at most ``N`` and a term multiplies ``round_cards`` of them (one per
        card, the fill included), so a weight is at most ``N**round_cards``; a coefficient
        times its weight counts rounds, at most ``N!/(N-r)!``. int64 holds all of them when
        ``N**round_cards`` does (as in :mod:`exact.compiled`); Python integers otherwise.
        """
        check_shoe(self.deal, shoe)
        size, unit = shoe.size, self.round_cards
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
        table = np.array(values, dtype=dtype)
        weights = table[self._rows].prod(axis=1) if len(self._rows) else table[:0]
        coefficients = self._coefficients.astype(dtype)
        every = [int(count) for count in weights @ coefficients] if len(self._rows) \
            else [0] * self.events
        out, start = [], 0
        for bet in self.bets:
            out.append(every[start:start + len(bet.events)])
            start += len(bet.events)
            if sum(out[-1]) != falling(size, unit):
                raise AssertionError(f"{bet.id}: factorised counts do not sum to N!/(N-r)!")
        return out


def _fine_attributes(needs: Needs) -> set[str]:
    return {attribute for _, attribute in needs.pairs if attribute not in ("value", ORDER)}


def _stage_positions(game: Game) -> dict[str, tuple[Position, ...]]:
    return game.stage_positions  # type: ignore[attr-defined]


def _pools(positions: Sequence[Position], fine: object, stages: dict[str, tuple[Position, ...]]
           ) -> list[tuple[Position, ...]]:
    """Positions no fine feature tells apart, grouped (positions no fine feature reads are
    left out: they are counted by value)."""
    marks: dict[Position, list[object]] = {p: [] for p in positions}
    for number, feature in enumerate(fine):  # type: ignore[arg-type]
        reads = feature.cards
        order_free = feature.order_free and reads is not None
        if reads is None:
            # undeclared: every position of its finely seen stages; views only get coarser
            # along the deal, so fine third cards mean fine first cards too
            stages_read = {s for s, a in feature.needs.pairs if a not in ("value", ORDER)}
            if "draws" in stages_read:
                stages_read = set(stages)
            reads = {p for s in stages_read for p in stages[s]}
        for position in positions:
            if position in reads:
                marks[position].append((number, None if order_free else position))
    pools: dict[tuple, list[Position]] = defaultdict(list)
    for position in positions:
        if marks[position]:
            pools[tuple(marks[position])].append(position)
    return [tuple(pool) for pool in pools.values()]


_ONE, _FINE, _VALUE, _FILL = range(4)  # kinds of factor: 1, n_c falling, n_v falling, fill
_FORMAT = "factorised-2"


@lru_cache(maxsize=64)
def _compiled_bet(game: Game, bets: tuple[Bet, ...], cards: frozenset[Card]) -> FactorisedBet:
    """The compiled bet, kept in the safe disk cache (:mod:`exact.cache`): int64 arrays only,
    every index and count range-checked when loaded, keyed by everything that determines it
    (game, rules, the bet's events and conditions, the cards the shoe may hold)."""
    parts = [_FORMAT, f"game={game.id}", f"class={type(game).__module__}."
             f"{type(game).__qualname__}", *(f"rules:{line}" for line in game.describe_rules()),
             "cards:" + " ".join(sorted(str(card) for card in cards)),
             *(f"bet:{len(bet.events)}|" + "|".join(
                 f"{e.name}|{e.condition.text if e.condition else ''}" for e in bet.events)
               for bet in bets)]
    return cache.cached("factorised", cache.cache_key(parts),
                        lambda: FactorisedBet(game, bets, cards), _encode,
                        lambda fields, arrays: _decode(game, bets, cards, arrays))


def _encode(compiled: FactorisedBet) -> tuple[dict, dict[str, np.ndarray]]:
    coefficients = compiled._coefficients
    if coefficients.size and max(coefficients.flat) > INT64_LIMIT:
        raise ValueError("a coefficient past int64")  # never: at most 6! per value sequence
    return {}, {"factors": compiled._factors, "rows": compiled._rows,
                "coefficients": coefficients.astype(np.int64)}


def _decode(game: Game, bets: tuple[Bet, ...], cards: frozenset[Card],
            arrays: dict[str, np.ndarray]) -> FactorisedBet:
    compiled = FactorisedBet(game, bets, cards, compile=False)
    factors = cache.check_indices(arrays["factors"], INT64_LIMIT, "factors", ndim=2)
    rows = cache.check_indices(arrays["rows"], len(factors), "rows", ndim=2)
    coefficients = cache.check_indices(arrays["coefficients"], INT64_LIMIT, "coefficients",
                                       ndim=2)
    unit = compiled.round_cards
    if factors.shape[1] != 4 or coefficients.shape != (len(rows), compiled.events):
        raise cache.CorruptEntry("factorised arrays of the wrong shape")
    bounds = {_ONE: (1, 1, 1), _FINE: (len(compiled.fine_labels), unit + 1, 1),
              _VALUE: (10, unit + 1, unit + 1), _FILL: (unit + 1, 1, 1)}
    for kind, *fields in factors.tolist():
        if kind not in bounds or any(v >= b for v, b in zip(fields, bounds[kind], strict=True)):
            raise cache.CorruptEntry("factor out of range")
    compiled._factors, compiled._rows = factors, rows
    compiled._coefficients = coefficients.astype(object)
    return compiled


@lru_cache(maxsize=8)
def value_sequences(game: Game, ordered: bool = True, values: frozenset[int] = frozenset(range(10)),
                    draws: bool = True) -> tuple[tuple[tuple, int], ...]:
    """Every round of cards of ``values`` as point values per position (value labels) with
    its multiplicity: the shoe-independent backbone. ``ordered``: a hand's first two cards are
    dealt one by one (multiplicity 1); otherwise as an unordered pair, sorted, standing for
    its orderings. ``draws``: with the third cards (else the first four cards only).

    >>> from exact.games import get_game
    >>> len(value_sequences(get_game("punto-banco"), values=frozenset({0})))
    1
    """
    stages = {stage: [ORDER] if ordered else [] for stage in ("player", "banker")}
    deal = game.deal(Needs.of(**({"draws": []} if draws else {}), **stages))
    out: list[tuple[tuple, int]] = []
    _walk(deal, deal.start(), 1, out, values)
    return tuple(out)


def _walk(deal: Deal, state: object, multiplicity: int, out: list[tuple[tuple, int]],
          values: frozenset[int]) -> None:
    draw = deal.next_draw(state)
    if draw is None:
        out.append((deal.record(state), multiplicity))
        return
    labels: list[Label] = [label for label in draw.view.labels if label[0] in values]
    for group in combinations_with_replacement(labels, draw.count):
        _walk(deal, deal.advance(state, group), multiplicity * group_coefficient(group), out,
              values)
