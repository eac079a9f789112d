"""The forced engine: the next round with cards known at positions, walked with those cards
forced (the end-play question of :mod:`exact.engines.live`, for the bets the plan gives this
engine).

Layer: engines, above the model; the engines know no game (the games call them).

A game that says which positions each draw of its deal fills
(:class:`~exact.model.contracts.DealtPositions`) has the bets' own deal walked, each stage
seen only through what the bets read of it (:func:`_forced_on_deal`; the bets on values alone
share one walk), or, for a deal of one or two fixed groups of first cards, read off the staged
evaluator's event grids over the hands holding the known cards (:func:`_forced_on_groups`: a
tenth to a fifth of a second at 8 decks, where the walk took one to three seconds); any other
game is walked position by position in the real dealing order through every attribute the
bets need, its rounds read with the game's :meth:`~exact.model.game.Game.record_from_cards`.

Counting unit with ``k`` known positions: ordered sequences of the ``r - k`` other positions
from the ``N - k`` cards neither seen nor known: ``(N-k)!/(N-r)!`` in all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from exact.core.cards import CARDS, JOKER, Card, Shoe, View
from exact.core.enumerator import Deal, RecordT, falling, fixed_stages, group_coefficient
from exact.engines import staged, staged_known
from exact.engines.batch_numbers import INT64_LIMIT
from exact.errors import ShoeError
from exact.model.bets import Bet
from exact.model.contracts import CapabilityError, DealtPositions
from exact.model.game import Game
from exact.model.settling import settle_records, values_only


@dataclass(frozen=True)
class NextRound:
    """Exact event counts of one bet for the next round, over ``total``."""

    bet: Bet
    counts: tuple[int, ...]
    total: int

    @property
    def expected_value(self) -> Fraction:
        return sum((Fraction(c * e.pays, self.total)
                    for c, e in zip(self.counts, self.bet.events, strict=True)), Fraction(0))


def forced_counts(game: Game[Any], shoe: Shoe, bets: Sequence[Bet], known: dict[int, Card]
                  ) -> list[list[int]]:
    """Per bet, its exact event counts for the next round dealt from ``shoe`` (the unseen
    cards) with the ``known`` cards forced at their positions, over ``(N-k)!/(N-r)!``."""
    counted = _walked(game, shoe, bets, known)
    return [list(counted[bet.id].counts) for bet in bets]


def _deal(game: Game[RecordT], bets: Sequence[Bet]) -> Deal[RecordT]:
    """The one deal serving all of ``bets`` (every feature they read)."""
    return game.deal(game.needs(set().union(*(b.features for b in bets))))


def group_positions(game: Game[RecordT], deal: Deal[RecordT]) -> list[tuple[int, ...]] | None:
    """Per group of a deal of fixed groups, the positions it fills (the same in every round:
    one walk with any labels finds them), or None for any other deal, or a game that does
    not say which positions its draws fill."""
    if not isinstance(game, DealtPositions) or fixed_stages(deal) is None:
        return None
    groups = []
    state = deal.start()
    while (draw := deal.next_draw(state)) is not None:
        after = deal.advance(state, (draw.view.labels[0],) * draw.count)
        groups.append(game.dealt_positions(state, after))
        state = after
    return groups


def walk_view(game: Game[Any], bets: Sequence[Bet]) -> View:
    """The classes the card-by-card walk branches on: every attribute the bets need."""
    needs = game.needs(set().union(*(b.features for b in bets)))
    return View(tuple({a for s in needs.stages for a in needs.attributes(s)}))


def check_fills(rest: Shoe, known: Mapping[int, Card], unit: int) -> None:
    """Refuse a shoe that cannot deal a round around the known cards, counting them among the
    unseen cards as the user does."""
    if rest.size < unit - len(known):
        raise ShoeError(f"{rest.size + len(known)} unseen cards ({len(known)} known) cannot "
                        f"fill a round of {unit}")


def _walked(game: Game[RecordT], shoe: Shoe, bets: Sequence[Bet],
            known: dict[int, Card]) -> dict[str, NextRound]:
    unit = _deal(game, bets).round_cards
    rest = shoe.remove(list(known.values()))
    if isinstance(game, DealtPositions):
        # one walk per deal: bets on values must not walk the suits another bet reads
        by_deal: dict[Deal[RecordT], list[Bet]] = {}
        for bet in bets:
            by_deal.setdefault(game.deal(game.needs(bet.features)), []).append(bet)
        walked: dict[str, NextRound] = {}
        # ... except that the bets on values alone (by position or not) share one walk of
        # the deal serving them all: a walk costs 0.2-0.3 s of CPU per such deal at 8 decks,
        # mostly its pass over the deal, where their union deal (its pairs ordered if any
        # bet's are) has at most a few times their records (a user's file of value bets on
        # four deals: 1.1 s walked deal by deal, 0.5 s in one walk)
        walks: dict[object, list[Bet]] = {}
        for planned, group in by_deal.items():
            walked.update(_forced_on_groups(game, planned, rest, group, known))
            for bet in group:
                if bet.id not in walked:
                    shared = values_only(game, bet)
                    walks.setdefault(planned.round_cards if shared else planned, []).append(bet)
        for left in walks.values():
            walked.update(_forced_on_deal(game, rest, left, known))
        return {bet.id: walked[bet.id] for bet in bets}
    view = walk_view(game, bets)
    counts = view.class_counts(rest)
    representative: dict[int, Card] = {}  # a card of each class
    for card in CARDS:
        representative.setdefault(view.card_class[CARDS.index(card)], card)
    free_total = unit - len(known)
    size = rest.size
    check_fills(rest, known, unit)
    tallies = {b.id: [0] * len(b.events) for b in bets}
    memo: dict[RecordT, tuple[int, ...]] = {}

    def finish(record: RecordT, weight: int) -> None:
        if record not in memo:
            features = {name: game.read(record, name) for name in
                        set().union(*(b.features for b in bets))}
            memo[record] = tuple(b.settle(features) for b in bets)
        for bet, event in zip(bets, memo[record], strict=True):
            tallies[bet.id][event] += weight

    def deal(dealt: list[Card], free_used: int, weight: int) -> None:
        if len(dealt) >= 1:
            try:
                record = game.record_from_cards(dealt)
            except ShoeError:
                record = None
            if record is not None:
                finish(record, weight * falling(size - free_used, free_total - free_used))
                return
        if len(dealt) == unit:
            raise ShoeError("the game's round needs more cards than its counting unit")
        position = len(dealt) + 1
        if position in known:
            deal([*dealt, known[position]], free_used, weight)
            return
        for index, left in enumerate(counts):
            if left:
                counts[index] -= 1
                deal([*dealt, representative[index]], free_used + 1, weight * left)
                counts[index] += 1

    deal([], 0, 1)
    total = falling(size, free_total)
    result = {b.id: NextRound(b, tuple(tallies[b.id]), total) for b in bets}
    for bet_id, outcome in result.items():
        if sum(outcome.counts) != total:
            raise AssertionError(f"{bet_id}: forced-position counts do not sum to {total}")
    return result


# A bet's event grid reads a feature of both hands once per pair of hands as it sees them
# (StagedDeal.cross_reads): past about the pairs of hands the walk settles with one card known
# (52 x 1,378 = 71,656 at ranks and suits) the walk is quicker. NINES reads 6,050 pairs of
# value-level hands; the nines-by-suit bet, reading both hands' suits, 2.7 million (the walk).
GRID_READS = 100_000


def _forced_on_groups(game: Game[RecordT], deal: Deal[RecordT], rest: Shoe,
                      bets: Sequence[Bet], known: dict[int, Card]) -> dict[str, NextRound]:
    """The counts of bets on one or two fixed groups of first cards (Perfect Pairs, NINES)
    with the known cards forced, from the staged evaluator's event grids
    (:func:`exact.engines.staged_known.forced_counts`: only the hands holding the known cards).
    Only the bets whose grid is cheap to read (:data:`GRID_READS`): the others, and any other
    deal, are left to the walk (not in the result)."""
    groups = group_positions(game, deal)
    if groups is None or not staged.applicable(deal):
        return {}
    evaluator = staged.staged_deal(game, deal)
    bets = [bet for bet in bets if evaluator.cross_reads(bet) <= GRID_READS]
    if not bets:
        return {}
    unit = deal.round_cards
    free_total = unit - len(known)
    check_fills(rest, known, unit)
    views = [draw.view for _, draw in fixed_stages(deal) or ()]
    forced = [[view.label(known[p]) for p in positions if p in known]
              for view, positions in zip(views, groups, strict=True)]
    counts = staged_known.forced_counts(game, deal, bets, rest, forced, free_total)
    total = falling(rest.size, free_total)
    return {bet.id: NextRound(bet, tuple(events), total)
            for bet, events in zip(bets, counts, strict=True)}


def _forced_on_deal(game: Game[RecordT], rest: Shoe, bets: Sequence[Bet],
                    known: dict[int, Card]) -> dict[str, NextRound]:
    """The walk of the bets' own deal (:meth:`~exact.model.game.Game.deal`), as the
    enumerator walks it, with the known cards forced at their positions: each stage seen
    only through what the bets read of it, the round stopped where the bets stop reading it.
    A draw of a group of cards (an unordered pair) holding known cards draws the others as a
    multiset, with its orderings among the free positions. A round's count does not depend on
    the order in which its positions are chosen (per class, a falling factorial of the cards
    left), so the deal's order serves for the dealing order.

    The nines-by-suit bet with the first card known: the Player's second card (52 classes)
    times the Banker's unordered pair (1,378 multisets), some 72,000 rounds (about a second
    at 8 decks), where the walk of every position card by card through 52 classes took
    minutes. (Perfect Pairs and NINES, whose event grids are cheap, are read off them:
    :func:`_forced_on_groups`.)"""
    deal = _deal(game, bets)
    unit, free_total, size = deal.round_cards, deal.round_cards - len(known), rest.size
    check_fills(rest, known, unit)
    leaves: dict[RecordT, int] = {}
    if not isinstance(game, DealtPositions):
        raise CapabilityError(f"{game.id} does not say which positions its draws fill")
    dealt_positions = game.dealt_positions

    def walk(state: object, view: View, counts: list[int], used: int, weight: int) -> None:
        draw = deal.next_draw(state)
        if draw is None:
            record = deal.record(state)
            leaves[record] = leaves.get(record, 0) + weight * falling(size - used,
                                                                       free_total - used)
            return
        if draw.view != view:
            counts, view = view.regroup(counts, draw.view), draw.view
        # the positions this draw fills (where it puts cards depends on the state only)
        positions = dealt_positions(state, deal.advance(state, (view.labels[0],) * draw.count))
        forced = [view.index[view.label(known[p])] for p in positions if p in known]
        free = draw.count - len(forced)
        universe = [i for i, label in enumerate(view.labels)
                    if counts[i] and (deal.accepts_jokers or label.rank != JOKER)]
        for group in combinations_with_replacement(universe, free):
            factor = group_coefficient(group)  # orderings among the free positions
            for index in group:
                factor *= counts[index]
                counts[index] -= 1
            if factor:
                labels = tuple(view.labels[i] for i in sorted((*forced, *group)))
                walk(deal.advance(state, labels), view, counts, used + free, weight * factor)
            for index in group:
                counts[index] += 1

    start = View(("rank", "suit"))
    walk(deal.start(), start, start.class_counts(rest), 0, 1)
    records = list(leaves)
    total = falling(size, free_total)
    # every weight and every partial sum of them is at most the total (checked below): int64
    # while the total fits, else Python integers; summed per event in C, not per record
    weights = np.array(list(leaves.values()), dtype=np.int64 if total <= INT64_LIMIT else object)
    result = {}
    for bet, events in zip(bets, settle_records(game, bets, records), strict=True):
        counts = [int(weights[events == event].sum()) for event in range(len(bet.events))]
        if sum(counts) != total:
            raise AssertionError(f"{bet.id}: forced-position counts do not sum to {total}")
        result[bet.id] = NextRound(bet, tuple(counts), total)
    return result
