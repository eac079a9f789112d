"""The recursive composition enumerator: the exact engine every game runs on.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

A game describes its deal as a small state machine (:class:`Deal`): which cards to deal next
and through which :class:`~exact.core.cards.View`, how a dealt class changes the state, and what the
finished round looks like (its *record*). The enumerator walks that machine over the counts of
the remaining shoe, branching on card classes with integer weights equal to how many cards of
the class are left. It knows nothing of baccarat.

Counting unit
    Ordered sequences of ``deal.round_cards`` cards drawn from the shoe (6 for baccarat).
    A round that used ``k`` cards stands for every way to fill the other ``round_cards - k``
    places, so its weight is multiplied by ``(N-k)(N-k-1)…(N-round_cards+1)``. Every table then
    shares the denominator ``N!/(N-round_cards)!`` and its counts sum to it exactly.

Cards dealt as one *group* (for instance a hand's first two cards) are enumerated as a multiset
with its multinomial coefficient: the probability of a sequence of draws without replacement
depends only on which classes were drawn, not on their order (exchangeability), so a game may
also deal its stages in any order that suits it, e.g. the finely viewed stage first.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from random import Random
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from exact.core.cards import Card, Label, Shoe, View
from exact.core.work import Meter
from exact.errors import ShoeError

State = Any  # a deal's own business: only the deal reads it (see the boundary in Deal)
# what analyses see of a round: its parts (hands or card groups, as Labels or class
# indices), then any flags. Each game has its own record type within this bound (Punto
# Banco's is a pair of hands, ``PuntoRecord``); ``Record`` itself stands for "any record", in
# code that never looks inside one (the enumerator, the compiled forms, the disk cache).
Record = tuple[Hashable, ...]
# The record type of one game, as a type parameter: of ``Deal`` and ``Distribution`` here, of
# ``Feature``, ``Game`` and ``CompiledDeal`` in the layers above, so that a type checker follows
# one game's records from its deal through the engines to its features (a feature of one game
# handed another game's records is a type error). Generics are erased: no cost at run time.
RecordT = TypeVar("RecordT", bound=Record)
RecordT_co = TypeVar("RecordT_co", bound=Record, covariant=True)  # only handed out (Deal)


@dataclass(frozen=True)
class Draw:
    """Deal ``count`` cards as one unordered group, seen through ``view``."""

    view: View
    count: int = 1


class Deal(Protocol[RecordT_co]):
    """A game's deal, as the enumerator drives it.

    Views must never get finer along a deal (a later draw may only see less than an earlier
    one): the enumerator tracks counts per class of the current view.

    Type parameter: ``RecordT_co``, the type of the records the deal hands out (Punto Banco's
    deal is a ``Deal[PuntoRecord]``). Covariant: a deal of any record type is a
    ``Deal[Record]``, which is what code that never reads a record (shoe checks, the counting
    unit) asks for. The state stays untyped (``State``): only the deal's own methods read it.
    """

    @property
    def round_cards(self) -> int:
        """Length of the counting unit: the most cards a round can use."""

    @property
    def accepts_jokers(self) -> bool: ...

    def start(self) -> State: ...

    def __hash__(self) -> int: ...  # deals are frozen: compiled forms are cached by deal

    def next_draw(self, state: State) -> Draw | None:
        """The next group to deal, or ``None`` when the round is over."""

    def advance(self, state: State, labels: tuple[Label, ...]) -> State:
        """The state after dealing ``labels`` (sorted by class index) for the last draw."""

    def record(self, state: State) -> RecordT_co:
        """What analyses see of a finished round (hashable, ideally small)."""


@runtime_checkable
class FixedStageDeal(Protocol):
    """A deal that may be a fixed sequence of card groups (no draw depends on earlier cards):
    ``fixed_stages`` is then its ``(stage, draw)`` groups, else ``None``."""

    @property
    def fixed_stages(self) -> tuple[tuple[str, Draw], ...] | None: ...


def fixed_stages(deal: Deal[Record]) -> tuple[tuple[str, Draw], ...] | None:
    """The deal's fixed groups of first cards, or ``None`` when a draw depends on the cards."""
    return deal.fixed_stages if isinstance(deal, FixedStageDeal) else None


def falling(n: int, k: int) -> int:
    """Falling factorial n(n-1)…(n-k+1).

    >>> falling(416, 2), falling(5, 0), falling(1, 2)
    (172640, 1, 0)
    """
    result = 1
    for i in range(k):
        result *= n - i
    return result


def group_coefficient(indices: Sequence[Hashable]) -> int:
    """Orderings of a sorted multiset of class indices: k!/∏ multiplicity!.

    >>> group_coefficient((3, 3)), group_coefficient((1, 4)), group_coefficient((2, 2, 5))
    (1, 2, 3)
    """
    if len(indices) < 3:  # the common draws of one or two cards, at every node of a walk
        return 2 if len(indices) == 2 and indices[0] != indices[1] else 1
    result = factorial(len(indices))
    for index in set(indices):
        result //= factorial(indices.count(index))
    return result


class RoundShape(Protocol):
    """What a shoe check reads of a deal, or of a round with decisions
    (:class:`exact.model.strategy_game.DecisionGame`)."""

    @property
    def round_cards(self) -> int: ...

    @property
    def accepts_jokers(self) -> bool: ...


def check_shoe(deal: RoundShape, shoe: Shoe) -> None:
    """Raise :class:`ShoeError` when ``shoe`` cannot deal a round of ``deal``."""
    if shoe.size < deal.round_cards:
        raise ShoeError(f"a shoe of {shoe.size} cards cannot deal a round: "
                        f"the counting unit needs {deal.round_cards} cards")
    if shoe.jokers and not deal.accepts_jokers:
        raise ShoeError(f"this game has no jokers but the shoe holds {shoe.jokers}")


@dataclass(frozen=True)
class Distribution(Generic[RecordT]):
    """Exact counts of every distinct round record, over one denominator.

    ``counts`` sum to ``total`` = N!/(N-round_cards)! (checked on construction). Type
    parameter: the records' type, that of the deal counted (:class:`Deal`).
    """

    counts: dict[RecordT, int]
    total: int
    round_cards: int
    shoe_size: int
    unit: str = field(default="ordered card sequences")

    def __post_init__(self) -> None:
        summed = sum(self.counts.values())
        if summed != self.total:
            raise AssertionError(f"counts sum to {summed}, not the denominator {self.total}")

    @classmethod
    def build(cls, counts: dict[RecordT, int], deal: Deal[RecordT], shoe: Shoe
              ) -> Distribution[RecordT]:
        return cls({r: c for r, c in counts.items() if c}, falling(shoe.size, deal.round_cards),
                   deal.round_cards, shoe.size)


def dealt_groups(view: View, counts: list[int], count: int
                 ) -> Iterator[tuple[tuple[Label, ...], list[int], int]]:
    """Every group of ``count`` cards the counts of ``view`` can deal: its labels (sorted by
    class), the counts left, and its weight (ordered ways to deal it: the multinomial
    coefficient times the falling counts of each class), as the enumerators branch on them.

    >>> aces_and_a_two = [2, 1] + [0] * 9  # the value view's classes: A, 2, ..., 9, 0, joker
    >>> [(tuple(label.value for label in group), weight)
    ...  for group, _left, weight in dealt_groups(View(), aces_and_a_two, 2)]
    [((1, 1), 2), ((1, 2), 4)]
    """
    present = [i for i, c in enumerate(counts) if c]
    for group in combinations_with_replacement(present, count):
        remaining = counts.copy()
        group_weight = group_coefficient(group)
        for index in group:
            group_weight *= remaining[index]
            remaining[index] -= 1
        if group_weight:
            yield tuple(map(view.labels.__getitem__, group)), remaining, group_weight


def enumerate_rounds(deal: Deal[RecordT], shoe: Shoe) -> Distribution[RecordT]:
    """Walk every deal of ``deal`` over the counts of ``shoe``; exact count per record.

    This is the direct engine: it branches only on classes still in the shoe, so it is quick on
    small or depleted shoes and needs no compilation. See :mod:`exact.engines.compiled` for the fast
    path that evaluates many shoes.
    """
    check_shoe(deal, shoe)
    size, unit = shoe.size, deal.round_cards
    out: dict[RecordT, int] = defaultdict(int)
    # drawn from the run's work budget as it goes: a deal read through ranks and suits with
    # the third cards has billions of leaves on a full shoe (--engine direct)
    meter = Meter("the direct enumeration of this shoe")

    def walk(state: State, view: View, counts: list[int], used: int, weight: int) -> None:
        draw = deal.next_draw(state)
        if draw is None:
            meter.tick()
            out[deal.record(state)] += weight * falling(size - used, unit - used)
            return
        if draw.view is not view and draw.view != view:
            counts, view = view.regroup(counts, draw.view), draw.view
        # dealt_groups, inlined: this is the direct engine's innermost loop, and a generator
        # there costs a tenth of its time (measured on Punto Banco's winner, 2 decks)
        present = [i for i, c in enumerate(counts) if c]
        for group in combinations_with_replacement(present, draw.count):
            remaining = counts.copy()
            group_weight = group_coefficient(group)
            for index in group:
                group_weight *= remaining[index]
                remaining[index] -= 1
            if group_weight:
                labels = tuple(map(view.labels.__getitem__, group))
                walk(deal.advance(state, labels), view, remaining, used + draw.count,
                     weight * group_weight)

    start_view = View(("rank", "suit"))
    with without_collections():
        walk(deal.start(), start_view, start_view.class_counts(shoe), 0, 1)
    counts = dict(out)
    # the recursive closure refers to itself, and so to ``out``: emptied, it leaves the
    # collector a small cycle, not every record counted (they hold Labels, never skipped)
    out.clear()
    return Distribution.build(counts, deal, shoe)


def estimated_leaves(deal: Deal[Record], shoe: Shoe, probes: int = 256) -> int:
    """About how many leaves :func:`enumerate_rounds` walks for ``deal`` and ``shoe``, from
    ``probes`` random paths (Knuth's estimator, unbiased: each path counts the inverse of its
    probability), seeded so that a run is reproducible; milliseconds, so that a walk of
    billions of leaves is refused before it starts (:mod:`exact.core.work`).

    Tested against the leaves walked (tests/engines/test_work_bound.py). Seeded, so the same
    deal and shoe give the same estimate: it is worked out once and kept (a run checks a walk's
    work, then words its refusal, and the run's total work, each from the same estimate).
    """
    check_shoe(deal, shoe)
    return _estimated_leaves(deal, shoe, probes)


@lru_cache(maxsize=256)
def _estimated_leaves(deal: Deal[Record], shoe: Shoe, probes: int) -> int:
    generator = Random(0)
    total = 0
    # every probe starts from the same counts, and most regroup them the same way at their
    # first draw: each view's labels and each regrouping worked out once, not per probe
    # (256 probes of 53 cards' labels were most of a plan's time)
    start_view = View(("rank", "suit"))
    start_counts = start_view.class_counts(shoe)
    regrouped: dict[tuple[View, View, tuple[int, ...]], list[int]] = {}
    for _ in range(probes):
        state, view = deal.start(), start_view
        counts, inverse = start_counts, 1
        while (draw := deal.next_draw(state)) is not None:
            if draw.view is not view and draw.view != view:
                key = (view, draw.view, tuple(counts))
                if key not in regrouped:
                    regrouped[key] = view.regroup(counts, draw.view)
                counts, view = regrouped[key], draw.view
            present = [i for i, c in enumerate(counts) if c]
            group = tuple(sorted(generator.choice(present) for _ in range(draw.count)))
            remaining = counts.copy()
            for index in group:
                remaining[index] -= 1
            if min(remaining) < 0:  # a group the shoe cannot deal: no leaf on this path
                inverse = 0
                break
            # sorted independent choices give a multiset with probability orderings / P**k
            inverse = inverse * len(present) ** draw.count // group_coefficient(group)
            state, counts = deal.advance(state, tuple(view.labels[i] for i in group)), remaining
        total += inverse
    return total // probes


@contextmanager
def without_collections() -> Iterator[None]:
    """No cyclic garbage collection inside: for walks that make hundreds of thousands of
    tuples and no cycles (states, records, labels), where every collection would traverse all
    the objects alive again, taking up to a third of the time (memory is still freed by
    reference counting).

    >>> with without_collections():
    ...     gc.isenabled()
    False
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def deal_from_cards(deal: Deal[RecordT], cards: Sequence[Card]) -> tuple[RecordT, int]:
    """The record of the round ``deal`` deals from physical ``cards`` (in dealing order) and
    how many cards it used. Each draw takes the next cards, seen through its view and passed
    sorted by class as :func:`enumerate_rounds` passes them, so the record is the one the
    enumerator counts for that deal; raises :class:`ShoeError` if the cards run out."""
    state, used = deal.start(), 0
    while (draw := deal.next_draw(state)) is not None:
        group = cards[used:used + draw.count]
        if len(group) < draw.count:
            raise ShoeError("the shoe ran out of cards in the middle of a round")
        labels = sorted((draw.view.label(card) for card in group), key=draw.view.index.__getitem__)
        state = deal.advance(state, tuple(labels))
        used += draw.count
    return deal.record(state), used
