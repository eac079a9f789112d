"""The staged evaluator with cards known at positions of its groups: only the hands holding
the known cards are dealt, and every pair of hands settles as the bet's event grid says (the
grid the shoe evaluation reads). The forced engine's fast path for a deal of one or two fixed
groups (:mod:`exact.engines.forced`).

Layer: engines, above the model; the engines know no game (the games call them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exact.core.cards import Label, Shoe
from exact.core.enumerator import Deal, RecordT, falling, group_coefficient
from exact.engines.batch_numbers import INT64_LIMIT, Segments
from exact.engines.staged import Stage, falling_products, staged_deal
from exact.errors import ShoeError
from exact.model.bets import Bet
from exact.model.game import Game


def forced_counts(game: Game[RecordT], deal: Deal[RecordT], bets: Sequence[Bet], rest: Shoe,
                  forced: Sequence[Sequence[Label]], free_total: int) -> list[list[int]]:
    """Exact event counts of every bet of ``bets`` (all served by ``deal``) with cards known
    at positions of its groups: ``forced[s]`` the known cards group ``s`` holds (labels of its
    view), ``rest`` the shoe without every known card, and the counts over the ordered
    sequences of the round's ``free_total`` other positions (``falling(rest.size,
    free_total)`` in all, the unit of :mod:`exact.engines.live`).

    Only the hands holding their group's known cards are dealt, their other cards (the *free*
    ones) from ``rest``: a hand weighs its free cards' orderings among its free positions
    times their classes' falling factorials, the second group's given the first group's free
    cards; the rest of the round fills the positions left. Every pair of hands settles as the
    bet's event grid says (:meth:`StagedDeal.events`, the grid the shoe evaluation reads).
    Perfect Pairs or NINES with the first card known: the 52 Player hands holding it times
    1,378 Banker hands, in one array.

    >>> from exact.analysis.bet_analysis import game_bets
    >>> from exact.core.cards import Card
    >>> from exact.core.enumerator import fixed_stages
    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> pair = next(b for b in game_bets(game) if b.id == "player-pair")
    >>> deal = game.deal(game.needs(pair.features))
    >>> nine = fixed_stages(deal)[0][1].view.label(Card.parse("9H"))  # as the deal sees it
    >>> rest = Shoe.parse("9:2,K:4")  # a nine known at position 1: its partner and 4 more
    >>> forced_counts(game, deal, [pair], rest, [[nine]], 5) == [[2 * 120, 4 * 120]]
    True
    """
    if rest.jokers and not deal.accepts_jokers:
        raise ShoeError(f"this game has no jokers but the shoe holds {rest.jokers}")
    grids = staged_deal(game, deal)
    counts = [stage.view.class_counts(rest) for stage in grids.stages]
    held = [_Holding.of(stage, [stage.view.index[label] for label in labels], classes)
            for stage, labels, classes in zip(grids.stages, forced, counts, strict=True)]
    free = sum(holding.columns.shape[1] for holding in held)
    # every weight and partial sum counts ordered sequences of the free cards, at most N**free,
    # and every class count is at most N: int64 holds them all below its limit, else exact ints
    dtype: type = np.int64 if rest.size ** max(free, 1) <= INT64_LIMIT else object
    first = held[0]
    weights = first.coefficient.astype(dtype) * falling_products(
        np.array([counts[0]], dtype=dtype), first.columns, first.repeats)[0]
    if len(held) == 2:
        second, stage = held[1], grids.stages[1]
        coarser = np.array([stage.view.index[grids.stages[0].view.coarsen(label, stage.view)]
                            for label in grids.stages[0].view.labels], dtype=np.int64)
        # the second hand's weights are falling factorials of what the first hand left of each
        # of its classes, so count, per first hand, the cards its free cards took from each
        taken = np.zeros((len(first.rows), len(stage.view.labels)), dtype=np.int64)
        for position in range(first.columns.shape[1]):
            np.add.at(taken, (np.arange(len(first.rows)), coarser[first.columns[:, position]]),
                      1)
        given: np.ndarray = np.ones((len(first.rows), len(second.rows)), dtype=dtype)
        left: np.ndarray = np.array(counts[1], dtype=dtype)
        for position in range(second.columns.shape[1]):
            column = second.columns[:, position]
            factor = left[column][None, :] - taken[:, column] - second.repeats[None, :, position]
            given = given * np.maximum(factor, 0).astype(dtype)
        weights = weights[:, None] * (given * second.coefficient.astype(dtype)[None, :])
    out = []
    fill, total = falling(rest.size - free, free_total - free), falling(rest.size, free_total)
    for bet in bets:
        signatures, grid = grids.events(bet)
        if len(held) == 2:
            events = grid[signatures[0][first.rows][:, None], signatures[1][held[1].rows][None, :]]
        else:
            events = grid[signatures[0][first.rows]]
        sums = Segments.of(events.ravel(), len(bet.events)).sums(weights.reshape(1, -1))[0]
        out.append([int(count) * fill for count in sums.tolist()])
        if sum(out[-1]) != total:
            raise AssertionError(f"{bet.id}: forced staged counts do not sum to {total}")
    return out


@dataclass(frozen=True)
class _Holding:
    """The hands of one stage that hold its known cards, and their free cards."""

    rows: np.ndarray  # the hands (indices into the stage's groups)
    columns: np.ndarray  # (hands x free cards): the free cards' class indices, sorted
    repeats: np.ndarray  # (hands x free cards): free cards of the same class earlier
    coefficient: np.ndarray  # orderings of the free cards among the free positions

    @classmethod
    def of(cls, stage: Stage, known: Sequence[int], counts: Sequence[int]) -> _Holding:
        """The hands of ``stage`` holding the ``known`` classes, whose free cards' classes
        the shoe (``counts`` per class) holds: the others weigh 0."""
        rows, free = [], []
        for row, group in enumerate(stage.groups.tolist()):
            left = list(group)
            for index in known:
                if index not in left:
                    break
                left.remove(index)
            else:
                if all(counts[index] for index in left):
                    rows.append(row)
                    free.append(tuple(left))
        width = stage.groups.shape[1] - len(known)
        shape = (len(free), width)
        return cls(np.array(rows, dtype=np.int64),
                   np.array(free, dtype=np.int64).reshape(shape),
                   np.array([[f[:p].count(f[p]) for p in range(width)] for f in free],
                            dtype=np.int64).reshape(shape),
                   np.array([group_coefficient(f) for f in free], dtype=np.int64))
