"""The cards: 52 rank-and-suit cards and the joker, their point values and colours, their ids
(``0..51`` rank-major, then the joker) and how a card or a list of cards is read.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`. Its names are
also those of :mod:`exact.core.cards` (and of the public :mod:`exact.cards`).

>>> [str(card) for card in parse_cards("10h K♦ X")], CARDS[JOKER_ID].is_joker
(['TH', 'KD', 'X'], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from exact.core.parsing import shown, wrong_type
from exact.errors import CardError, WrongTypeError

RANKS = "A23456789TJQK"
SUITS = "CDHS"  # clubs, diamonds, hearts, spades
RED_SUITS = frozenset("DH")
JOKER = "X"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_RANK_ALIASES = {"10": "T", "1": "A"}


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
