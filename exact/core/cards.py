"""Shoes: how many of each card remain, and the one name of the cards, shoes and views.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

A card is one of 52 rank-and-suit cards or a joker (:mod:`exact.core.deck`). A :class:`Shoe`
is a composition: how many of each card remain. Shoes are immutable; removing cards returns a
new shoe. A deal sees a card through a view (:mod:`exact.core.views`). The package's modules
import all three from here.

>>> shoe = Shoe.standard(decks=8)
>>> shoe.size
416
>>> shoe.remove(["5", "5", "9H", "KD"]).size
412
>>> Shoe.standard(decks=8, jokers=8).size
424
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

# The cards and the views are defined in their own modules; this one holds the shoes and
# names all three, as the package's modules and the public exact.cards import them.
from exact.core.deck import CARD_ID as CARD_ID
from exact.core.deck import CARDS as CARDS
from exact.core.deck import JOKER as JOKER
from exact.core.deck import JOKER_ID as JOKER_ID
from exact.core.deck import RANKS as RANKS
from exact.core.deck import RED_SUITS as RED_SUITS
from exact.core.deck import SUIT_SYMBOLS as SUIT_SYMBOLS
from exact.core.deck import SUITS as SUITS
from exact.core.deck import Card as Card
from exact.core.deck import _iterable
from exact.core.deck import parse_cards as parse_cards
from exact.core.deck import rank_value as rank_value
from exact.core.parsing import MAX_CARDS, expect, parse_integer, shown
from exact.core.views import ATTRIBUTES as ATTRIBUTES
from exact.core.views import JOKER_LABEL as JOKER_LABEL
from exact.core.views import VALUE_VIEW as VALUE_VIEW
from exact.core.views import Label as Label
from exact.core.views import View as View
from exact.errors import ShoeError, ShoeInputError

LISTED_REMOVED = 24
"""At most this many cards taken out are named in :meth:`Shoe.describe` (more: their number)."""


@dataclass(frozen=True)
class Shoe:
    """A composition: the number of each of the 53 cards (52 and the joker) left in the shoe.

    Build one with :meth:`standard`, :meth:`from_counts`, :meth:`parse` or :meth:`remove`; the
    constructor validates the counts.

    >>> Shoe.standard(8, jokers=8).size, Shoe.parse("A:32,T:128").size
    (424, 160)
    >>> Shoe.standard(1).remove("5 5 9H").count("5")
    2
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        expect(self.counts, (tuple, list), "Shoe: counts must be a tuple of 53 card counts")
        if len(self.counts) != len(CARDS):
            raise ShoeError(f"a shoe needs {len(CARDS)} counts, got {len(self.counts)}")
        for card, count in zip(CARDS, self.counts, strict=True):
            if not isinstance(count, int) or isinstance(count, bool):
                raise ShoeError(f"count of {card} must be an integer, got {shown(count)}")
            if count < 0:
                raise ShoeError(f"count of {card} is negative ({count})")
        if sum(self.counts) > MAX_CARDS:
            raise ShoeError(f"a shoe of more than {MAX_CARDS:.0e} cards is past the largest "
                            "supported (docs: Input limits)")

    @classmethod
    def standard(cls, decks: int = 8, jokers: int = 0) -> Shoe:
        """``decks`` full 52-card decks and ``jokers`` jokers."""
        for name, number in (("decks", decks), ("jokers", jokers)):
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise ShoeError(f"number of {name} must be a non-negative integer, "
                                f"got {shown(number)}")
            if number > MAX_CARDS:
                raise ShoeError(f"{name} {shown(number)}: a shoe of more than {MAX_CARDS:.0e} "
                                "cards is past the largest supported (docs: Input limits)")
        return cls((decks,) * 52 + (jokers,))

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> Shoe:
        """From ``{"9H": 3, "K": 8, "X": 2}``: a suited key sets that card; a bare rank is
        spread over the four suits as evenly as possible (clubs first).

        >>> shoe = Shoe.from_counts({"9": 5, "X": 2})
        >>> [shoe.count(card) for card in ("9C", "9D", "9H", "9S", "X")]
        [2, 1, 1, 1, 2]
        """
        expect(counts, Mapping, "Shoe.from_counts: counts must be a mapping ({'9H': 3})")
        totals = [0] * len(CARDS)
        for text, count in counts.items():
            card = Card.parse(text)
            if not isinstance(count, int) or isinstance(count, bool):
                raise ShoeError(f"count of {text} must be an integer, got {shown(count)}")
            if count < 0:
                raise ShoeError(f"count of {text} is negative ({count})")
            if card.is_joker or card.suit is not None:
                totals[CARD_ID[card]] += count
                continue
            share, extra = divmod(count, 4)
            for position, suit in enumerate(SUITS):
                totals[CARD_ID[Card(card.rank, suit)]] += share + (position < extra)
        return cls(tuple(totals))

    @classmethod
    def parse(cls, text: str) -> Shoe:
        """Read ``"A:32,2:32,9H:8,X:8"`` (card or rank, colon, count)."""
        expect(text, str, "Shoe.parse: text must be text ('A:32,T:128')")
        counts: dict[str, int] = {}
        # each entry's parts stripped, not every space dropped: "A:3 2" is not 32 cards
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            key, sep, number = item.partition(":")
            key = key.strip()
            if not sep:
                raise ShoeError(f"bad shoe entry {shown(item)}: expected CARD:COUNT, e.g. 9H:8 "
                                "or 5:32")
            Card.parse(key)
            count = parse_integer(number, "cards", f"bad shoe entry {shown(item)}: count",
                                  ShoeInputError)
            counts[key] = counts.get(key, 0) + count
        if not counts:
            raise ShoeError(f"shoe {shown(text)} names no card: expected CARD:COUNT entries, "
                            "e.g. A:32,T:128")
        return cls.from_counts(counts)

    @property
    def size(self) -> int:
        return sum(self.counts)

    def count(self, card: Card | str) -> int:
        """How many of a card remain; a suitless rank counts every suit.

        >>> Shoe.standard(2).count("9"), Shoe.standard(2).count("9H")
        (8, 2)
        """
        card = card if isinstance(card, Card) else Card.parse(card)
        if card.is_joker or card.suit is not None:
            return self.counts[CARD_ID[card]]
        return sum(self.counts[CARD_ID[Card(card.rank, s)]] for s in SUITS)

    def remove(self, cards: Iterable[Card | str] | str) -> Shoe:
        """The shoe after taking out ``cards``. A suitless rank takes the suit with most left.

        >>> Shoe.standard(1).remove("9H 9H")
        Traceback (most recent call last):
        ...
        exact.errors.ShoeError: cannot remove 9H: none left in the shoe
        """
        parsed = parse_cards(cards) if isinstance(cards, str) else [
            c if isinstance(c, Card) else Card.parse(c) for c in _iterable(cards)]
        counts = list(self.counts)
        for card in parsed:
            if card.is_joker or card.suit is not None:
                index = CARD_ID[card]
            else:
                index = max((CARD_ID[Card(card.rank, s)] for s in SUITS),
                            key=lambda i: (counts[i], -i))
            if counts[index] == 0:
                raise ShoeError(f"cannot remove {card}: none left in the shoe")
            counts[index] -= 1
        return Shoe(tuple(counts))

    @cached_property
    def jokers(self) -> int:
        return self.counts[JOKER_ID]

    def describe(self) -> str:
        """Short human description: full decks (and jokers) by number, and the cards taken out
        of them by name (up to ``LISTED_REMOVED``, then by number); a shoe that is not most
        of whole decks (an explicit composition) by its size.

        >>> Shoe.standard(8, jokers=8).describe(), Shoe.standard(8).remove("9").describe()
        ('8 decks + 8 jokers', '8 decks less 9C')
        >>> Shoe.standard(1).remove("5 5 9H KD").describe(), Shoe.parse("A:32,T:128").describe()
        ('1 deck less 5C, 5D, 9H, KD', '160 cards')
        """
        outline = self.outline()
        if outline is None:
            return f"{self.size} cards"
        decks, removed = outline
        text = f"{decks} deck{'s' * (decks != 1)}"
        if self.jokers:
            text += f" + {self.jokers} joker{'s' * (self.jokers != 1)}"
        if len(removed) > LISTED_REMOVED:
            return f"{text} less {len(removed)} cards"
        if removed:
            counted = Counter(removed)
            text += " less " + ", ".join(f"{card}" + (f" x{n}" if n > 1 else "")
                                         for card, n in counted.items())
        return text

    def headline(self) -> str:
        """:meth:`describe` with the number of cards, once: the shoe as an output's heading.

        >>> Shoe.standard(1).remove("9").headline(), Shoe.parse("A:32,T:128").headline()
        ('1 deck less 9C (51 cards)', '160 cards')
        """
        text = self.describe()
        return text if self.outline() is None else f"{text} ({self.size} cards)"

    def outline(self) -> tuple[int, tuple[Card, ...]] | None:
        """``(decks, removed)``: the shoe as ``decks`` full decks (the most of any card) less
        the ``removed`` cards (in card order), jokers apart; None when less than half of those
        decks is left (an explicit composition, not decks with cards taken out).

        >>> Shoe.standard(2).remove("AS 7H").outline()
        (2, (Card(rank='A', suit='S'), Card(rank='7', suit='H')))
        """
        decks = max(self.counts[:52])
        missing = decks * 52 - sum(self.counts[:52])
        if decks == 0 or 2 * missing > decks * 52:
            return None
        removed = tuple(card for card, count in zip(CARDS[:52], self.counts[:52], strict=True)
                        for _ in range(decks - count))
        return decks, removed

    def fields(self) -> dict[str, object]:
        """The shoe for JSON: ``cards`` and ``description`` (as before), ``decks`` and
        ``jokers``, and ``removed`` (the card texts taken out of the decks); ``decks`` and
        ``removed`` are None for a shoe that is not decks less some cards (:meth:`outline`).

        >>> Shoe.standard(1).remove("5 5").fields()["removed"]
        ['5C', '5D']
        """
        outline = self.outline()
        return {"cards": self.size, "description": self.describe(),
                "decks": None if outline is None else outline[0], "jokers": self.jokers,
                "removed": None if outline is None else [str(c) for c in outline[1]]}

    def by_value(self) -> tuple[int, ...]:
        """Counts of point values 0..9 (jokers excluded).

        >>> Shoe.standard(1).by_value()
        (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
        """
        totals = [0] * 10
        for card, count in zip(CARDS[:52], self.counts[:52], strict=True):
            totals[rank_value(card.rank)] += count  # no joker among the first 52
        return tuple(totals)


def standard_shoe(decks: int | None, jokers: int | None = None, default_decks: int = 8,
                  default_jokers: int = 0) -> Shoe:
    """``decks`` full decks (None: ``default_decks``) and ``jokers`` jokers (None: the game's
    ``default_jokers`` per ``default_decks`` decks, which must give a whole number).

    >>> standard_shoe(6, None, 8, 8).jokers, standard_shoe(6, 2, 8, 8).jokers
    (6, 2)
    """
    if decks is None:
        return Shoe.standard(default_decks, default_jokers if jokers is None else jokers)
    if decks < 1:
        raise ShoeError(f"--decks {decks}: at least one deck")
    if jokers is None:
        proportional = Fraction(default_jokers * decks, default_decks or 1)
        if proportional.denominator != 1:
            raise ShoeError(f"--decks {decks}: the game's {default_jokers} jokers to "
                            f"{default_decks} decks give no whole number; use --jokers or --shoe")
        jokers = int(proportional)
    return Shoe.standard(decks, jokers)
