"""Round features: the vocabulary bet conditions are written in.

Layer: model, above the core; the engines, the games and the analyses build on it.

A game publishes its features; each says what it means, what it needs of the deal (which
stages, seen through which card attributes) and how to read it off a finished round's record.
The analysis deals only what the features in use need: a bet set that asks about card values
alone never enumerates suits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from exact.core.cards import ATTRIBUTES

ORDER = "order"  # the pseudo-attribute of a stage whose cards are read by position


@dataclass(frozen=True)
class Needs:
    """What a feature needs of the deal: pairs ``(stage, attribute)``; attribute ``"value"``
    marks a stage needed for point values alone, ``"order"`` a stage whose cards must be told
    apart by position (a deal may otherwise deal them as one unordered group).

    >>> needs = Needs.of(player=["rank"]) | Needs.of(draws=[])
    >>> sorted(needs.stages), needs.attributes("player")
    (['draws', 'player'], ('rank',))
    """

    pairs: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def of(cls, **stages: Iterable[str]) -> Needs:
        pairs = set()
        for stage, attributes in stages.items():
            pairs.add((stage, "value"))
            for attribute in attributes:
                if attribute not in ATTRIBUTES and attribute != ORDER:
                    raise ValueError(f"unknown card attribute {attribute!r}")
                pairs.add((stage, attribute))
        return cls(frozenset(pairs))

    def __or__(self, other: Needs) -> Needs:
        return Needs(self.pairs | other.pairs)

    @property
    def stages(self) -> frozenset[str]:
        return frozenset(stage for stage, _ in self.pairs)

    def attributes(self, stage: str) -> tuple[str, ...]:
        return tuple(a for a in ATTRIBUTES if (stage, a) in self.pairs)

    def ordered(self, stage: str) -> bool:
        """Whether the cards of ``stage`` must be dealt one by one, in order."""
        return (stage, ORDER) in self.pairs


@dataclass(frozen=True)
class Feature:
    """A named quantity of a finished round, e.g. ``winner`` or ``player_pair``."""

    name: str
    doc: str
    needs: Needs
    read: Callable[[Any], object]  # takes its game's record (each game has its own type)
    values: str = ""
    # the Python types of its values (str covers its subclasses); bet files are type-checked
    # against them when loaded (e.g. winner + 1 is refused). Empty: not declared, any value.
    types: tuple[type, ...] = ()
    # The card positions (game-defined, e.g. (hand, index)) whose attributes beyond the point
    # value it reads, and whether its value is unchanged when those attributes are permuted
    # among those positions. The factorised counter (exact.engines.factorised) pools such positions;
    # None: not declared, so every position its needs touch, in order.
    cards: frozenset[object] | None = None
    order_free: bool = False
