"""The views through which a deal sees a card: which of its attributes (rank, colour, suit;
its point value always) matter at a point of the deal. Cards that look alike through a view
form one class (a :class:`Label`), and the enumerator branches on classes, not cards.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`. Its names are
also those of :mod:`exact.core.cards` (and of the public :mod:`exact.cards`).

>>> View(("rank",)).label(Card.parse("KD"))
Label(value=0, rank='K', colour=None, suit=None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, Protocol

from exact.core.deck import CARDS, JOKER, Card


class Composition(Protocol):
    """What a view reads of a shoe (:class:`exact.core.cards.Shoe` is one): the number of
    each card id."""

    @property
    def counts(self) -> tuple[int, ...]: ...


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

    def class_counts(self, shoe: Composition) -> list[int]:
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
