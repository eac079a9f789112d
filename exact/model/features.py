"""Round features: the vocabulary bet conditions are written in.

Layer: model, above the core; the engines, the games and the analyses build on it.

A game publishes its features; each says what it means, what it needs of the deal (which
stages, seen through which card attributes) and how to read it off a finished round's record.
The analysis deals only what the features in use need: a bet set that asks about card values
alone never enumerates suits.

A feature is typed by the record it reads: ``Feature[PuntoRecord]`` reads Punto Banco's records,
so a type checker refuses it another game's records, or a read of what its record type does not
have (see ``RecordT_contra`` below).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from exact.core.cards import ATTRIBUTES
from exact.core.enumerator import Record, RecordT

ORDER = "order"  # the pseudo-attribute of a stage whose cards are read by position
# A feature's type parameter: the record type it reads (each game has its own, within the
# bound ``Record``). Contravariant, as a feature only takes records: a feature that reads any
# record (a ``Feature[Record]``) serves every game, never the other way round.
RecordT_contra = TypeVar("RecordT_contra", bound=Record, contravariant=True)


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
class Feature(Generic[RecordT_contra]):
    """A named quantity of a finished round, e.g. ``winner`` or ``player_pair``, read off a
    record of type ``RecordT_contra`` (its game's record type, e.g. ``Feature[PuntoRecord]``).

    A game's features are typed by their context, e.g. a list annotated
    ``list[Feature[PuntoRecord]]`` gives each ``read`` lambda its record type.
    """

    name: str
    doc: str
    needs: Needs
    read: Callable[[RecordT_contra], object]
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
    # A tally: its value is the number of its ``cards`` positions (those dealt) whose card
    # has attribute ``counts[0]`` equal to ``counts[1]``, e.g. ("suit", "H"), and nothing
    # else. Class-by-class counting (exact.engines.classes) adds such counts value class by
    # value class instead of walking patterns of card classes. None: not a tally.
    counts: tuple[str, object] | None = None
    # Every value it can take on some round of its game, as its read returns them (so that a
    # literal is matched with the values' own ==, e.g. an order-free pair of ranks), for any
    # shoe and rules of the game: a comparison of the feature with a literal it can never
    # take, or one that can never decide the condition, is refused when a bet file is loaded
    # (exact.model.literals). None: not declared, any value (no such check).
    domain: tuple[object, ...] | None = None


def by_name(features: Iterable[Feature[RecordT]]) -> dict[str, Feature[RecordT]]:
    """A game's features by name. Annotated with its record type, e.g.
    ``FEATURES: dict[str, Feature[PuntoRecord]] = by_name([...])``, it gives the type checker
    the record type of every feature listed, so each ``read`` lambda is checked against it."""
    return {feature.name: feature for feature in features}
