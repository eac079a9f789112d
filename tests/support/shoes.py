"""Random shoes for the tests, in one module so that every test draws its shoes alike:
hypothesis strategies for small shoes, shared by the tests that compare an engine with the
card-by-card reference twin, and seeded numpy draws for the batch tests, which need many
shoes at once (:func:`small_shoes`, :func:`random_depleted`).

The shoes are small on purpose: the reference walks every ordered deal of six cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from exact.core.cards import CARDS, Shoe


def card_counts_shoe(counts: dict[int, int]) -> Shoe:
    """The shoe holding ``counts[index]`` copies of ``CARDS[index]`` (other cards: none).

    >>> card_counts_shoe({0: 2, 51: 1}).size
    3
    """
    return Shoe(tuple(counts.get(index, 0) for index in range(len(CARDS))))


def card_shoes(copies: int = 2, kinds: tuple[int, int] = (3, 8), smallest: int = 6,
               largest: int | None = None) -> st.SearchStrategy[Shoe]:
    """Shoes of ``kinds[0]``-``kinds[1]`` of the 52 cards, 1-``copies`` copies of each, of
    ``smallest``-``largest`` cards (at least six: one round deals up to six)."""
    return st.dictionaries(st.integers(0, 51), st.integers(1, copies), min_size=kinds[0],
                           max_size=kinds[1]).map(card_counts_shoe).filter(
        lambda shoe: smallest <= shoe.size <= (largest or shoe.size))


def value_shoes() -> st.SearchStrategy[Shoe]:
    """Shoes of the ten point values only (ten-valued cards as ``T``), 0-12 cards each, six or
    more in all."""
    return st.lists(st.integers(0, 12), min_size=10, max_size=10).filter(
        lambda counts: sum(counts) >= 6).map(
        lambda counts: Shoe.from_counts({("T" if value == 0 else str(value)): count
                                         for value, count in enumerate(counts)}))


def rank_shoes(most: int = 4) -> st.SearchStrategy[Shoe]:
    """Shoes of the thirteen ranks (suits spread by :meth:`Shoe.from_counts`), 0-``most`` cards
    of each, six or more in all."""
    return st.lists(st.integers(0, most), min_size=13, max_size=13).filter(
        lambda counts: sum(counts) >= 6).map(
        lambda counts: Shoe.from_counts(dict(zip("A23456789TJQK", counts, strict=True))))


@st.composite
def pool_shoes(draw: st.DrawFn, pool: Sequence[int], largest: int = 13) -> Shoe:
    """A few cards of ``pool`` (indices into ``CARDS``), 1-3 each, at most ``largest`` cards in
    all, topped up to six with ``pool[0]``."""
    chosen = draw(st.dictionaries(st.sampled_from(pool), st.integers(1, 3), min_size=2,
                                  max_size=8))
    values = [0] * len(CARDS)
    for index, count in chosen.items():
        values[index] = min(count, largest - sum(values))
    if sum(values) < 6:
        values[pool[0]] += 6 - sum(values)
    return Shoe(tuple(values))


def random_depleted(generator: np.random.Generator, decks: int, keep: int) -> Shoe:
    """``keep`` cards drawn at random (without replacement) from ``decks`` full decks."""
    cards = generator.choice(np.repeat(np.arange(52), decks), size=keep, replace=False)
    return Shoe(tuple(int(c) for c in np.bincount(cards, minlength=len(CARDS))))


def small_shoes(generator: np.random.Generator, count: int, ranks: Sequence[int] = range(13),
                suits: tuple[int, int] = (1, 1)) -> list[Shoe]:
    """``count`` shoes of 6-12 cards of 2-5 ranks drawn from ``ranks`` (0 = ace ... 12 = king)
    and ``suits[0]``-``suits[1]`` suits (0-3 = clubs, diamonds, hearts, spades).

    The direct enumerator stays cheap on them, and so few cards exercise the weights of hands
    a shoe cannot deal (a class drawn more often than it has cards).
    """
    shoes = []
    for _ in range(count):
        chosen = generator.choice(np.asarray(ranks), size=int(generator.integers(2, 6)),
                                  replace=False)
        suit_set = generator.choice(4, size=int(generator.integers(suits[0], suits[1] + 1)),
                                    replace=False)
        pool = (chosen[:, None] * 4 + suit_set[None, :]).ravel()
        cards = generator.choice(pool, size=int(generator.integers(6, 13)))
        shoes.append(Shoe(tuple(int(c) for c in np.bincount(cards, minlength=len(CARDS)))))
    return shoes
