"""Live analysis: the exact edge of every bet for the next round, from the cards seen so far,
optionally knowing cards at given positions of that round (the end-play question).

Layer: engines, above the model; the engines know no game (the games call them).

Without known positions the next round is dealt from the unseen cards and the compiled
evaluator answers at once. Knowing the card at position ``p`` (1 = the first card dealt) is not
the same as merely removing it: the round must have that card *at that position*. So the
round is enumerated with the known cards forced where they are known and every other
position branching on the classes of the unseen cards, weighted by how many are left. The
engine plan picks per bet: factorised counting with the known cards forced
(:mod:`exact.engines.factorised`) for ranks, colours or suits read with the third cards or by
position; the ``forced`` engine here for the others. A game that says which positions each
draw of its deal fills (``dealt_positions``, with ``position_stages``: Punto Banco and NINE &
NINES) has the bets' own deal walked, each stage seen only through what the bets read of it
(:func:`_forced_on_deal`; the bets on values alone share one walk), or, for a deal of one or
two fixed groups of first cards (Perfect Pairs, NINES), read off the staged evaluator's event
grids over the hands holding the known cards (:func:`_forced_on_groups`: a tenth to a fifth
of a second at 8 decks, where the walk took one to three seconds); any other game is walked
position by position in the real dealing order through every attribute the bets need, its
rounds read with the game's
:meth:`~exact.model.game.Game.record_from_cards`.

A known position is the card at that place in the shoe's order: a round that deals fewer
cards does not deal it, and deals none of its other cards from it. So a bet whose deal never
fills a known position (Perfect Pairs or NINES, four cards, and card 5 or 6 known) is counted
on the shoe without that card, with the other known cards forced, by whichever engine serves
that question (none left: the engines of one shoe) and scaled exactly
(:func:`_without_unfilled`): the walk of its 1,378 x 1,378 pairs of hands took half a minute
(Perfect Pairs) to a minute (NINES) at 8 decks.

Counting unit with ``k`` known positions: ordered sequences of the ``r - k`` other positions
from the ``N - k`` cards neither seen nor known: ``(N-k)!/(N-r)!`` in all.

>>> from exact.core.cards import Shoe, parse_cards
>>> from exact.games import get_game
>>> from exact.analysis.bet_analysis import game_bets
>>> game = get_game("punto-banco")
>>> tie = [b for b in game_bets(game) if b.id == "tie"]
>>> edges = next_round(game, Shoe.standard(1), tie, known={1: parse_cards("9H")[0]})
>>> edges["tie"].total == 51 * 50 * 49 * 48 * 47
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from exact.core.cards import CARDS, JOKER, RANKS, Card, Shoe, View
from exact.core.enumerator import Deal, RecordT, falling, fixed_stages, group_coefficient
from exact.engines import staged
from exact.engines.batch import BetEvaluator, Evaluator
from exact.engines.compiled import INT64_LIMIT
from exact.engines.plan import plan
from exact.errors import KnownCardError as KnownCardError
from exact.errors import ShoeError
from exact.model.bets import Bet, settle_records, values_only
from exact.model.contracts import CapabilityError, DealtPositions
from exact.model.game import Game


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


def next_round(game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
               known: Mapping[int, Card] | None = None,
               evaluator: Evaluator | None = None) -> dict[str, NextRound]:
    """Exact counts of every bet's events for the next round dealt from ``shoe`` (the unseen
    cards), with ``known`` cards forced at their positions (1-based)."""
    known = dict(known or {})
    if not known:
        evaluator = evaluator or BetEvaluator(game, bets)
        counts = evaluator.counts([shoe])
        total = falling(shoe.size, evaluator.round_cards)
        return {b.id: NextRound(b, tuple(int(c) for c in counts[b.id][0]), total) for b in bets}
    _check_known(game, bets, known)
    by_unfilled: dict[frozenset[int], list[Bet]] = {}
    for bet in bets:
        by_unfilled.setdefault(_unfilled(game, bet, known), []).append(bet)
    out: dict[str, NextRound] = {}
    for unfilled, group in by_unfilled.items():
        if unfilled and shoe.size >= _unit(game, group) + len(unfilled):
            out.update(_without_unfilled(game, shoe, group, known, unfilled))
        else:
            out.update(_with_known(game, shoe, group, known))
    return {bet.id: out[bet.id] for bet in bets}


def _with_known(game: Game[Any], shoe: Shoe, bets: Sequence[Bet], known: dict[int, Card]
                ) -> dict[str, NextRound]:
    """The counts with every known card forced, by the engine the plan names per bet."""
    chosen = plan(game, bets, "known")  # "factorised" for the card-level bets it serves
    counted = [choice.bet for choice in chosen.choices if choice.engine == "factorised"]
    by_class = [choice.bet for choice in chosen.choices if choice.engine == "classes"]
    walked = [choice.bet for choice in chosen.choices if choice.engine == "forced"]
    out = _forced(game, shoe, walked, known) if walked else {}
    if by_class:
        from exact.engines import classes  # numpy-heavy: only when a bet needs it

        rest = shoe.remove(list(known.values()))
        total = falling(rest.size, _unit(game, by_class) - len(known))
        for bet, events in zip(by_class, classes.evaluate(game, by_class, rest, known),
                               strict=True):
            out[bet.id] = NextRound(bet, tuple(events), total)
    if counted:
        from exact.engines import factorised  # numpy-heavy: only when a bet needs it

        rest = shoe.remove(list(known.values()))
        unit = _deal(game, counted).round_cards
        total = falling(rest.size, unit - len(known))
        for bet, events in zip(counted, factorised.evaluate(game, counted, rest, known),
                               strict=True):
            out[bet.id] = NextRound(bet, tuple(events), total)
    return out


def _deal(game: Game[RecordT], bets: Sequence[Bet]) -> Deal[RecordT]:
    """The one deal serving all of ``bets`` (every feature they read)."""
    return game.deal(game.needs(set().union(*(b.features for b in bets))))


def _unit(game: Game[Any], bets: Sequence[Bet]) -> int:
    """The counting unit ``r`` of ``bets``: the most cards a round of their deal uses."""
    return _deal(game, bets).round_cards


def _unfilled(game: Game[Any], bet: Bet, known: Mapping[int, Card]) -> frozenset[int]:
    """The known positions that ``bet``'s deal never fills (Perfect Pairs or NINES, dealt
    four cards, and a card known at position 5 or 6), where that is sure: a game that says
    which positions its draws fill, and a deal of fixed groups, which fills the same
    positions in every round (one walk with any labels finds them). Any other deal may fill
    every position."""
    groups = _group_positions(game, game.deal(game.needs(bet.features)))
    if groups is None:
        return frozenset()
    return frozenset(known).difference(*groups)


def _group_positions(game: Game[RecordT], deal: Deal[RecordT]) -> list[tuple[int, ...]] | None:
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


def _without_unfilled(game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
                      known: dict[int, Card], unfilled: frozenset[int]) -> dict[str, NextRound]:
    """The counts when the bets' deal never fills the ``unfilled`` known positions (``m`` of
    them): those cards only leave the shoe. Counted on the shoe without them, with the other
    known cards forced (none: the engines of one shoe, the staged grids of Perfect Pairs in a
    fraction of a second where the walk of 1,378 x 1,378 pairs of hands took half a minute).
    That count fills the ``m`` positions too, each from the cards left after the round's
    other ``r - m`` positions: every round's weight is ``falling(N - r, m)`` times its weight
    with the cards known (``N`` cards unseen, ``r`` the counting unit), which is divided out
    exactly (checked)."""
    unit, size = _unit(game, bets), shoe.size
    inner = {p: card for p, card in known.items() if p not in unfilled}
    reduced = next_round(game, shoe.remove([known[p] for p in sorted(unfilled)]), bets, inner)
    scale = falling(size - unit, len(unfilled))
    total = falling(size - len(known), unit - len(known))
    out = {}
    for bet in bets:
        counts = [divmod(count, scale) for count in reduced[bet.id].counts]
        if reduced[bet.id].total != total * scale or any(left for _, left in counts):
            raise AssertionError(f"{bet.id}: counts without the unfilled known positions "
                                 f"are not {scale} times the counts with them")
        out[bet.id] = NextRound(bet, tuple(count for count, _ in counts), total)
    return out


def slow_with_known(game: Game[Any], bet: Bet) -> bool:
    """Whether forcing a known card makes ``bet`` slow: a bet that sees cards through more
    classes than the 13 ranks (suits, colours) *and* reads the third cards, which factorised
    counting does not serve (a game without card positions). The walk of its deal then
    branches on 20 to 52 classes at each of the six positions, minutes at 8 decks (a bet on
    suits of the first cards only, Perfect Pairs, takes a fraction of a second at any known
    position)."""
    if plan(game, [bet], "known").choices[0].engine in ("classes", "factorised"):
        return False
    fine = len(_view(game, [bet]).labels) > len(RANKS) + 1  # (+1: the joker's class)
    if not isinstance(game, DealtPositions):  # every position walked card by card
        return fine
    return fine and "draws" in game.needs(bet.features).stages


def _view(game: Game[Any], bets: Sequence[Bet]) -> View:
    """The classes the card-by-card walk branches on: every attribute the bets need."""
    needs = game.needs(set().union(*(b.features for b in bets)))
    return View(tuple({a for s in needs.stages for a in needs.attributes(s)}))


def _check_known(game: Game[Any], bets: Sequence[Bet], known: dict[int, Card]) -> None:
    deal = _deal(game, bets)
    unit = deal.round_cards
    for position, card in known.items():
        if not 1 <= position <= unit:
            raise KnownCardError(f"known position {position}: a round has positions 1-{unit}")
        if card.is_joker and not deal.accepts_jokers:  # it would be dealt as some card value
            raise KnownCardError(f"known card {card} at position {position}: this game has "
                                 "no jokers")
        if card.suit is None and not card.is_joker:
            raise KnownCardError(f"known card {card} at position {position}: give its suit "
                                 "(e.g. 9H): the card itself is forced there")


def _check_fills(rest: Shoe, known: Mapping[int, Card], unit: int) -> None:
    """Refuse a shoe that cannot deal a round around the known cards, counting them among the
    unseen cards as the user does."""
    if rest.size < unit - len(known):
        raise ShoeError(f"{rest.size + len(known)} unseen cards ({len(known)} known) cannot "
                        f"fill a round of {unit}")


def _forced(game: Game[RecordT], shoe: Shoe, bets: Sequence[Bet],
            known: dict[int, Card]) -> dict[str, NextRound]:
    unit = _unit(game, bets)
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
    view = _view(game, bets)
    counts = view.class_counts(rest)
    representative: dict[int, Card] = {}  # a card of each class
    for card in CARDS:
        representative.setdefault(view.card_class[CARDS.index(card)], card)
    free_total = unit - len(known)
    size = rest.size
    _check_fills(rest, known, unit)
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
    (:func:`exact.engines.staged.forced_counts`: only the hands holding the known cards).
    Only the bets whose grid is cheap to read (:data:`GRID_READS`): the others, and any other
    deal, are left to the walk (not in the result)."""
    groups = _group_positions(game, deal)
    if groups is None or not staged.applicable(deal):
        return {}
    evaluator = staged.staged_deal(game, deal)
    bets = [bet for bet in bets if evaluator.cross_reads(bet) <= GRID_READS]
    if not bets:
        return {}
    unit = deal.round_cards
    free_total = unit - len(known)
    _check_fills(rest, known, unit)
    views = [draw.view for _, draw in fixed_stages(deal) or ()]
    forced = [[view.label(known[p]) for p in positions if p in known]
              for view, positions in zip(views, groups, strict=True)]
    counts = staged.forced_counts(game, deal, bets, rest, forced, free_total)
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
    _check_fills(rest, known, unit)
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
