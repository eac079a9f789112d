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
position; the walk here (the ``forced`` engine) for the others. A game that says which
positions each draw of its deal fills (``dealt_positions``, with ``position_stages``: Punto
Banco and NINE & NINES) has the bets' own deal walked, each stage seen only through what the
bets read of it (:func:`_forced_on_deal`: Perfect Pairs with a
known first card in about a second at 8 decks); any other game is walked position by
position in the real dealing order through every attribute the bets need, its rounds read
with the game's :meth:`~exact.model.game.Game.record_from_cards`.

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

from exact.core.cards import CARDS, JOKER, RANKS, Card, Shoe, View
from exact.core.enumerator import RecordT, falling, group_coefficient
from exact.engines.batch import BetEvaluator, Evaluator
from exact.engines.plan import plan
from exact.errors import KnownCardError as KnownCardError
from exact.errors import ShoeError
from exact.model.bets import Bet, settle_records
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
    chosen = plan(game, bets, "known")  # "factorised" for the card-level bets it serves
    counted = [choice.bet for choice in chosen.choices if choice.engine == "factorised"]
    walked = [choice.bet for choice in chosen.choices if choice.engine == "forced"]
    out = _forced(game, shoe, walked, known) if walked else {}
    if counted:
        from exact.engines import factorised  # numpy-heavy: only when a bet needs it

        rest = shoe.remove(list(known.values()))
        unit = game.deal(game.needs(set().union(*(b.features for b in counted)))).round_cards
        total = falling(rest.size, unit - len(known))
        for bet, events in zip(counted, factorised.evaluate(game, counted, rest, known),
                               strict=True):
            out[bet.id] = NextRound(bet, tuple(events), total)
    return {bet.id: out[bet.id] for bet in bets}


def slow_with_known(game: Game[Any], bet: Bet) -> bool:
    """Whether forcing a known card makes ``bet`` slow: a bet that sees cards through more
    classes than the 13 ranks (suits, colours) *and* reads the third cards, which factorised
    counting does not serve (a game without card positions). The walk of its deal then
    branches on 20 to 52 classes at each of the six positions, minutes at 8 decks (a bet on
    suits of the first cards only, Perfect Pairs, takes about a second)."""
    if plan(game, [bet], "known").choices[0].engine == "factorised":
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
    unit = game.deal(game.needs(set().union(*(b.features for b in bets)))).round_cards
    for position, card in known.items():
        if not 1 <= position <= unit:
            raise KnownCardError(f"known position {position}: a round has positions 1-{unit}")
        if card.suit is None and not card.is_joker:
            raise KnownCardError(f"known card {card} at position {position}: give its suit "
                                 "(e.g. 9H): the card itself is forced there")


def _forced(game: Game[RecordT], shoe: Shoe, bets: Sequence[Bet],
            known: dict[int, Card]) -> dict[str, NextRound]:
    unit = game.deal(game.needs(set().union(*(b.features for b in bets)))).round_cards
    rest = shoe.remove(list(known.values()))
    if isinstance(game, DealtPositions):
        # one walk per deal: bets on values must not walk the suits another bet reads
        by_deal: dict[object, list[Bet]] = {}
        for bet in bets:
            by_deal.setdefault(game.deal(game.needs(bet.features)), []).append(bet)
        walked: dict[str, NextRound] = {}
        for group in by_deal.values():
            walked.update(_forced_on_deal(game, rest, group, known))
        return {bet.id: walked[bet.id] for bet in bets}
    view = _view(game, bets)
    counts = view.class_counts(rest)
    representative: dict[int, Card] = {}  # a card of each class
    for card in CARDS:
        representative.setdefault(view.card_class[CARDS.index(card)], card)
    free_total = unit - len(known)
    size = rest.size
    if size < free_total:
        raise ShoeError(f"{size} unseen cards cannot fill a round of {unit}")
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


def _forced_on_deal(game: Game[RecordT], rest: Shoe, bets: Sequence[Bet],
                    known: dict[int, Card]) -> dict[str, NextRound]:
    """The walk of the bets' own deal (:meth:`~exact.model.game.Game.deal`), as the
    enumerator walks it, with the known cards forced at their positions: each stage seen
    only through what the bets read of it, the round stopped where the bets stop reading it.
    A draw of a group of cards (an unordered pair) holding known cards draws the others as a
    multiset, with its orderings among the free positions. A round's count does not depend on
    the order in which its positions are chosen (per class, a falling factorial of the cards
    left), so the deal's order serves for the dealing order.

    Perfect Pairs with the first card known: the Player's second card (52 classes) times the
    Banker's unordered pair (1,378 multisets), some 72,000 rounds, where the walk of every
    position card by card through 52 classes took minutes."""
    deal = game.deal(game.needs(set().union(*(b.features for b in bets))))
    unit, free_total, size = deal.round_cards, deal.round_cards - len(known), rest.size
    if size < free_total:
        raise ShoeError(f"{size} unseen cards cannot fill a round of {unit}")
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
    result = {}
    for bet, events in zip(bets, settle_records(game, bets, records), strict=True):
        counts = [0] * len(bet.events)
        for event, weight in zip(events.tolist(), leaves.values(), strict=True):
            counts[event] += weight
        if sum(counts) != total:
            raise AssertionError(f"{bet.id}: forced-position counts do not sum to {total}")
        result[bet.id] = NextRound(bet, tuple(counts), total)
    return result
