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
position; the ``forced`` engine (:mod:`exact.engines.forced`) for the others; each through
its engine's ``known`` entry (:meth:`exact.engines.plan.Engine.known`).

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
from typing import Any

from exact.core.cards import RANKS, Card, Shoe
from exact.core.enumerator import Deal, RecordT, falling
from exact.engines.batch import BetEvaluator, Evaluator
from exact.engines.forced import NextRound as NextRound
from exact.engines.forced import check_fills, group_positions, walk_view
from exact.engines.plan import engine, plan
from exact.errors import KnownCardError as KnownCardError
from exact.model.bets import Bet
from exact.model.contracts import DealtPositions, check_dealable, draw_stages
from exact.model.game import Game


def next_round(game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
               known: Mapping[int, Card] | None = None,
               evaluator: Evaluator | None = None) -> dict[str, NextRound]:
    """Exact counts of every bet's events for the next round dealt from ``shoe`` (the unseen
    cards), with ``known`` cards forced at their positions (1-based)."""
    known = dict(known or {})
    if not known:
        check_dealable(game, shoe, bets)  # before the evaluator's plan (seconds on some bets)
        evaluator = evaluator or BetEvaluator(game, bets)
        counts = evaluator.counts([shoe])
        total = falling(shoe.size, evaluator.round_cards)
        return {b.id: NextRound(b, tuple(int(c) for c in counts[b.id][0]), total) for b in bets}
    _check_known(game, bets, known)
    check_fills(shoe.remove(list(known.values())), known, _unit(game, bets))  # before any plan
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
    """The counts with every known card forced, by the engine the plan names per bet (its
    ``known`` entry)."""
    total = falling(shoe.size - len(known), _unit(game, bets) - len(known))
    out: dict[str, NextRound] = {}
    for name, group in plan(game, bets, "known").by_engine().items():
        counted = engine(name).known(game, shoe, group, known)
        for bet, events in zip(group, counted, strict=True):
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
    groups = group_positions(game, game.deal(game.needs(bet.features)))
    if groups is None:
        return frozenset()
    return frozenset(known).difference(*groups)


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
    if plan(game, [bet], "known").choices[0].engine != "forced":  # not walked card by card
        return False
    fine = len(walk_view(game, [bet]).labels) > len(RANKS) + 1  # (+1: the joker's class)
    if not isinstance(game, DealtPositions):  # every position walked card by card
        return fine
    return fine and bool(game.needs(bet.features).stages & draw_stages(game))


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


