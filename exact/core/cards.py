"""Cards, shoes and the views through which a deal sees a card.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

A card is one of 52 rank-and-suit cards or a joker. A :class:`Shoe` is a composition:
how many of each card remain. Shoes are immutable; removing cards returns a new shoe.

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple

from exact.core.parsing import MAX_CARDS, expect, parse_integer, shown, wrong_type
from exact.errors import CardError, ShoeError, ShoeInputError, WrongTypeError

RANKS = "A23456789TJQK"
SUITS = "CDHS"  # clubs, diamonds, hearts, spades
RED_SUITS = frozenset("DH")
JOKER = "X"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_RANK_ALIASES = {"10": "T", "1": "A"}


LISTED_REMOVED = 24
"""At most this many cards taken out are named in :meth:`Shoe.describe` (more: their number)."""


@dataclass(frozen=True, order=True)
class Card:
    """One card: a rank (``A23456789TJQK``) and a suit (``CDHS``), or a joker (rank ``X``).

    >>> Card.parse("10h")
    Card(rank='T', suit='H')
    >>> Card.parse("KD").value, Card.parse("9♦").colour
    (0, 'red')
    """

    rank: str
    suit: str | None = None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"9H"``, ``"10h"``, ``"K♦"`` or ``"X"`` (joker); a bare rank has no suit."""
        if not isinstance(text, str):
            raise WrongTypeError(wrong_type("a card must be text ('9H') or a Card", text))
        raw = text.strip().upper()
        if raw in (JOKER, "JOKER"):
            return cls(JOKER)
        suit = None
        if raw and (raw[-1] in SUITS or raw[-1] in _SYMBOL_SUITS) and len(raw) > 1:
            suit = _SYMBOL_SUITS.get(raw[-1], raw[-1])
            raw = raw[:-1]
        rank = _RANK_ALIASES.get(raw, raw)
        if len(rank) != 1 or rank not in RANKS:
            raise CardError(f"unknown card {shown(text.strip())}: expected a rank A,2-9,T,J,Q,K "
                            f"(10 also accepted) with an optional suit C,D,H,S, or X for a joker")
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def value(self) -> int | None:
        """Baccarat point value: A=1, 2-9 face, T/J/Q/K=0; ``None`` for a joker (wild)."""
        if self.is_joker:
            return None
        return rank_value(self.rank)

    @property
    def points(self) -> int:
        """The point value of a card that cannot be a joker (the brute-force references deal
        none), so that its sums need no ``None`` check; a joker is refused.

        >>> Card.parse("9H").points
        9
        >>> Card.parse("X").points
        Traceback (most recent call last):
        exact.errors.CardError: a joker has no fixed point value
        """
        if self.is_joker:
            raise CardError("a joker has no fixed point value")
        return rank_value(self.rank)

    @property
    def colour(self) -> str | None:
        if self.suit is None:
            return None
        return "red" if self.suit in RED_SUITS else "black"

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


def rank_value(rank: str) -> int:
    """Point value of a rank.

    >>> [rank_value(r) for r in RANKS]
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    """
    return min(RANKS.index(rank) + 1, 10) % 10


# Card ids: 0..51 are rank-major rank-and-suit cards, then the joker.
CARDS: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in SUITS) + (Card(JOKER),)
CARD_ID: dict[Card, int] = {card: index for index, card in enumerate(CARDS)}
JOKER_ID = CARD_ID[Card(JOKER)]  # 52: the joker's card id, after the 52 suited cards


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a comma- or space-separated card list.

    >>> [str(c) for c in parse_cards("5,5, 9H KD")]
    ['5', '5', '9H', 'KD']
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(_iterable(text))
    return [Card.parse(item) for item in items]


def _iterable(cards: object) -> Iterable[Any]:
    """``cards`` if it is a collection of cards, else a :class:`WrongTypeError` (an int or
    bytes failed deep inside, as a TypeError or an AttributeError)."""
    if isinstance(cards, Iterable) and not isinstance(cards, (str, bytes, bytearray)):
        return cards
    raise WrongTypeError(wrong_type("cards must be text ('5 5 9H') or a list of cards", cards))


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


# --- views -------------------------------------------------------------------------------------
# A deal looks at each card through a view: which of its attributes matter at that point. Cards
# that look alike through a view form one class, and the enumerator branches on classes, not cards.
ATTRIBUTES = ("rank", "colour", "suit")

class Label(NamedTuple):
    """A card class seen through a view, ``None`` where unseen; a tuple, so labels compare and
    sort as ``(value, rank, colour, suit)``. A joker's value is ``None`` and its rank
    :data:`JOKER` in every view.

    >>> label = View(("rank",)).label(Card.parse("KD"))
    >>> label, label.rank, label == (0, "K", None, None)
    (Label(value=0, rank='K', colour=None, suit=None), 'K', True)
    """

    value: int | None
    rank: str | None
    colour: str | None
    suit: str | None


JOKER_LABEL = Label(None, JOKER, None, None)


@dataclass(frozen=True)
class View:
    """The attributes a deal needs of a card, beyond its point value (always seen).

    >>> len(View().labels), len(View(("rank",)).labels), len(View(("rank", "suit")).labels)
    (11, 14, 53)
    """

    attributes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.attributes) - set(ATTRIBUTES)
        if unknown:
            raise ValueError(f"unknown card attribute(s) {', '.join(sorted(unknown))}; known: "
                             f"{', '.join(ATTRIBUTES)}")
        # canonical order, and suit implies colour
        wanted = set(self.attributes) | ({"colour"} if "suit" in self.attributes else set())
        object.__setattr__(self, "attributes", tuple(a for a in ATTRIBUTES if a in wanted))

    def label(self, card: Card) -> Label:
        if card.is_joker:
            return JOKER_LABEL
        seen = self.attributes
        return Label(card.value, card.rank if "rank" in seen else None,
                     card.colour if "colour" in seen else None,
                     card.suit if "suit" in seen else None)

    @cached_property
    def labels(self) -> tuple[Label, ...]:
        """Every class of this view, in a fixed order (the joker class last)."""
        return tuple(dict.fromkeys(self.label(card) for card in CARDS))

    @cached_property
    def index(self) -> dict[Label, int]:
        return {label: i for i, label in enumerate(self.labels)}

    @cached_property
    def card_class(self) -> tuple[int, ...]:
        """For each card id, the index of its class."""
        return tuple(self.index[self.label(card)] for card in CARDS)

    def refines(self, other: View) -> bool:
        """True when every class of ``other`` is a union of classes of this view."""
        return set(other.attributes) <= set(self.attributes)

    def class_counts(self, shoe: Shoe) -> list[int]:
        totals = [0] * len(self.labels)
        for card_index, count in enumerate(shoe.counts):
            totals[self.card_class[card_index]] += count
        return totals

    def regroup(self, counts: Sequence[int], to: View) -> list[int]:
        """Per-class counts of this view, added up per class of the coarser view ``to``.

        >>> View(("rank",)).regroup([1] * 14, View())  # A..9, then T J Q K as 0, joker
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1]
        """
        if not self.refines(to):
            raise ValueError(f"a deal may not look finer later: {self.attributes} -> "
                             f"{to.attributes}")
        regrouped = [0] * len(to.labels)
        for label, count in zip(self.labels, counts, strict=True):
            regrouped[to.index[self.coarsen(label, to)]] += count
        return regrouped

    def coarsen(self, label: Label, to: View) -> Label:
        """The class of ``to`` that contains this view's class ``label``."""
        value, rank, colour, suit = label
        seen = to.attributes
        return Label(value, rank if "rank" in seen or rank == JOKER else None,
                     colour if "colour" in seen else None, suit if "suit" in seen else None)


VALUE_VIEW = View()


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
