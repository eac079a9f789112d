"""Effects of removal and card-counting systems derived from them.

The effect of removal (EOR) of a rank is the exact change in a bet's expected value per unit
when one card of that rank is taken out of the shoe (the suit with most cards left goes). The
multi-card version removes ``k`` cards of the rank and divides the change by ``k``; removal
sets give the exact change for any multiset of cards, beside its linear estimate (the sum of
the single-card effects), which is what a count assumes.

A count system gives every rank an integer tag; the running count is the sum of the tags of
the cards seen, the true count the running count per deck left unseen. Tags derived from the
EOR are the EOR scaled so that the largest has magnitude ``level``, rounded, then balanced
(tags over a full deck sum to zero) by moving the tags with the largest rounding error. The
betting correlation is the correlation of the tags with the EOR over the 52 cards of a deck.

>>> from exact.cards import Shoe
>>> from exact.games import get_game
>>> from exact.analysis import game_bets
>>> game = get_game("punto-banco")
>>> table = effects_of_removal(game, Shoe.standard(8), [b for b in game_bets(game)
...                            if b.id == "tie"])
>>> table.effects["tie"]["T"] > 0 > table.effects["tie"]["6"]
True
>>> balanced(derive_tags(table.effects["tie"], level=2))
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact.batch import BetEvaluator
from exact.bets import Bet
from exact.cards import RANKS, Card, Shoe, parse_cards
from exact.errors import ExactError
from exact.games.base import Game


class CountError(ExactError, ValueError):
    """A count system (tags, trigger) is malformed."""


@dataclass(frozen=True)
class RemovalTable:
    """Exact effects of removal of every rank on every bet of a set."""

    shoe: Shoe
    depth: int  # cards of the rank removed (the effect is per card)
    base: Mapping[str, Fraction]  # expected value per bet for the shoe itself
    effects: Mapping[str, Mapping[str, Fraction]]  # bet -> rank -> change per card
    names: Mapping[str, str]
    removals: Mapping[str, Mapping[str, tuple[Fraction, Fraction]]]  # bet -> set -> (exact, linear)


def effects_of_removal(game: Game, shoe: Shoe, bets: Sequence[Bet], depth: int = 1,
                       removal_sets: Sequence[str] = (),
                       evaluator: BetEvaluator | None = None) -> RemovalTable:
    """Exact change of each bet's expected value per card of each rank removed from ``shoe``
    (``depth`` cards of the rank at a time), and for each removal set (e.g. ``"5 5 9"``)."""
    if depth < 1:
        raise CountError(f"removal depth must be at least 1, got {depth}")
    evaluator = evaluator or BetEvaluator(game, bets)
    ranks = [rank for rank in RANKS if shoe.count(rank) >= depth]
    shoes = [shoe, *(shoe.remove([rank] * depth) for rank in ranks)]
    sets = [parse_cards(text) for text in removal_sets]
    shoes += [shoe.remove(cards) for cards in sets]
    values = evaluator.expected_values(shoes)
    base = {bet.id: values[bet.id][0] for bet in bets}
    effects = {bet.id: {rank: (values[bet.id][1 + i] - base[bet.id]) / depth
                        for i, rank in enumerate(ranks)} for bet in bets}
    removals: dict[str, dict[str, tuple[Fraction, Fraction]]] = {}
    for bet in bets:
        per_set = {}
        for position, (text, cards) in enumerate(zip(removal_sets, sets, strict=True)):
            exact = values[bet.id][1 + len(ranks) + position] - base[bet.id]
            linear = sum((effects[bet.id].get(card.rank, Fraction(0)) for card in cards),
                         Fraction(0))
            per_set[" ".join(text.replace(",", " ").split())] = (exact, linear)
        removals[bet.id] = per_set
    return RemovalTable(shoe, depth, base, effects, {b.id: b.name for b in bets}, removals)


# --- count systems -----------------------------------------------------------------------------
def derive_tags(effects: Mapping[str, Fraction], level: int = 1) -> dict[str, int]:
    """Balanced integer tags proportional to the effects of removal, largest ``level``.

    >>> tags = derive_tags({r: Fraction(0) for r in RANKS} | {"9": Fraction(-3), "5": Fraction(2)})
    >>> {rank: tag for rank, tag in tags.items() if tag}
    {'5': 1, '9': -1}
    """
    if level < 1:
        raise CountError(f"count level must be at least 1, got {level}")
    largest = max((abs(e) for e in effects.values()), default=Fraction(0))
    if largest == 0:
        return {rank: 0 for rank in RANKS}
    scale = Fraction(level) / largest
    exact = {rank: effects.get(rank, Fraction(0)) * scale for rank in RANKS}
    tags = {rank: round(value) for rank, value in exact.items()}
    # Balance: every rank has 4 cards a deck, so the tags must sum to zero. Move the tags whose
    # rounding erred most towards the needed side, one unit each (ties in rank order).
    excess = sum(tags.values())
    while excess:
        step = -1 if excess > 0 else 1
        candidates = [r for r in RANKS if abs(tags[r] + step) <= level]
        rank = max(candidates, key=lambda r: ((exact[r] - tags[r]) * step, -RANKS.index(r)))
        tags[rank] += step
        excess += step
    return tags


def balanced(tags: Mapping[str, int]) -> bool:
    """Tags sum to zero over a full 52-card deck."""
    return sum(4 * tags.get(rank, 0) for rank in RANKS) == 0


def betting_correlation(tags: Mapping[str, int], effects: Mapping[str, Fraction]) -> float:
    """Correlation of tags and effects of removal over the 52 cards of a deck (ranks weigh
    equally, four cards each).

    >>> betting_correlation({"A": 1, "2": -1}, {"A": Fraction(2), "2": Fraction(-2)})
    1.0
    """
    xs = [tags.get(rank, 0) for rank in RANKS]
    ys = [float(effects.get(rank, Fraction(0))) for rank in RANKS]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    spread = math.sqrt(sum((x - mean_x) ** 2 for x in xs) * sum((y - mean_y) ** 2 for y in ys))
    return covariance / spread if spread else 0.0


def parse_tags(text: str) -> dict[str, int]:
    """User tags ``"A=1,2=1,9=-2"``; ranks not named tag 0; ``10`` means T.

    >>> parse_tags("a=1, 10=-1")["T"], parse_tags("a=1, 10=-1")["K"]
    (-1, 0)
    """
    tags = {rank: 0 for rank in RANKS}
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        key, sep, number = item.partition("=")
        if not sep or not number.lstrip("+-").isdigit():
            raise CountError(f"bad tag {item!r}: expected RANK=INTEGER, e.g. 5=1 or 9=-2")
        card = Card.parse(key)
        if card.suit is not None or card.is_joker:
            raise CountError(f"bad tag {item!r}: tag a rank (A, 2-9, T, J, Q, K)")
        tags[card.rank] = int(number)
    return tags


def break_even_true_count(base: Fraction, tags: Mapping[str, int],
                          effects: Mapping[str, Fraction], decks: int) -> float:
    """True count at which the linear estimate of the edge crosses zero.

    Linearised, removing cards ``R`` from a ``decks``-deck shoe that has ``d`` decks unseen
    changes the value by about ``(decks/d) * sum(EOR)``; with tags ``t = s * EOR`` on average
    (``s`` the least-squares scale) that is ``decks * TC / s``. Zero when ``TC = -base*s/decks``.
    """
    numerator = sum(tags.get(r, 0) * float(effects.get(r, 0)) for r in RANKS)
    denominator = sum(float(effects.get(r, 0)) ** 2 for r in RANKS)
    if numerator <= 0 or denominator == 0:
        return math.inf
    scale = numerator / denominator
    return -float(base) * scale / decks
