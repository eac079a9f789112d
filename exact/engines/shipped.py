"""The shipped counting engines, each one :class:`~exact.engines.engine.Engine` registered with
the plan: its estimate of a question and its entries (one shoe, batches, known cards).

Layer: engines, above the model; the engines know no game (the games call them).

Every estimate is in the work units of :mod:`exact.core.work` and measures what the engine
spends per shoe once its shoe-independent form is built (the compiled polynomial, the staged
event grids, the factorised patterns: built once, kept in memory or in the disk cache), on
the plan's yardstick shoe (:data:`~exact.engines.engine.YARDSTICK_DECKS` decks). A form that
would take minutes or gigabytes to build is a refusal, not a cost. The common measure is the
rounds a walk of the bet's deal visits (:attr:`~exact.engines.engine.Demand.leaves`):

* ``compiled``: one term per round at most, evaluated in C: ``leaves x`` :data:`TERM_UNITS`
  (ranks or suits with the third cards or by position: its form is as large as its walk,
  counted at the walk's cost, ``leaves x`` a leaf's units);
* ``staged``: a grid cell per hand signature of each group, or per pair of them when a
  feature reads both hands, settled in every process and weighed per shoe: ``cells x``
  :data:`CELL_UNITS`;
* ``factorised``: its patterns of card classes (counted without walking them, or from the
  value walk with third cards), gathered per shoe: ``patterns x`` :data:`PATTERN_SHOE_UNITS`;
* ``classes``: the states of its per-class polynomials (every count a bet tallies and every
  class a read position may hold, a bound from the bet's shape) times the value keys they are
  combined over, per shoe: ``states x`` :data:`CLASSES_STATE_UNITS`;
* ``direct`` and ``forced``: the walk itself, every shoe or question: ``leaves x`` (a leaf,
  the bet's feature reads, a settlement) of :mod:`exact.core.work`.

The modules that run them are loaded when a bet needs them (numpy-heavy): planning loads none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from math import comb, prod
from typing import TYPE_CHECKING, Any

from exact.core import work
from exact.core.cards import ATTRIBUTES as CARD_ATTRIBUTES
from exact.core.cards import Card, Shoe, View
from exact.core.enumerator import Deal, estimated_leaves
from exact.core.work import CONDITION_UNITS, LEAF_UNITS, READ_UNITS, WORK_LIMIT
from exact.engines.engine import (
    COMPILE_LIMIT,
    Demand,
    Engine,
    Estimate,
    classes_refusal,
    deals_hand_pairs,
    factorised_serves,
    staged_refusal,
)
from exact.model.bets import Bet
from exact.model.contracts import DealtPositions
from exact.model.features import Needs
from exact.model.game import Game
from exact.model.settling import settle_records

if TYPE_CHECKING:
    import numpy as np

    from exact.engines.compiled_python import Evaluator

TERM_UNITS = 1
"""Units of one compiled term per shoe (a product of a few class counts, in C)."""
CELL_UNITS = 60
"""Units of one staged grid cell: settled in every process (the grids are kept in memory
only, never on disk: about a tenth of a second a deal), then weighed per shoe in C."""
PATTERN_SHOE_UNITS = 2
"""Units of one factorised pattern per shoe (its multiplicities gathered, in C)."""
VALUE_WALK_UNITS = 1_000_000
"""Units of factorised counting's walk of the value sequences with the cards drawn, which it
makes in every process (seconds at 8 decks: the nine of spades as the Player's third card
3.2 s, Super Tie 3.3 s), where class-by-class counting reads its compiled form from the disk
cache."""
CLASSES_STATE_UNITS = 100
"""Units of one state a node of the class-by-class trie holds, times the trie's growth with
the first cards read one by one (:func:`exact.engines.classes.estimate`: a bound from the
bet's shape, before the reductions that settle the bet on every reading: 7 states for a count
of hearts, 16 for the one-colour tie, 17 for a card's rank and suit by position, 5 for its
suit). Set so that this engine is preferred to factorised counting for the bets with third
cards it serves, as measured on 8 decks in fresh processes (compiled forms on disk): the nine
of spades as the Player's third card, Super Tie and the one-colour tie each 0.4-0.5 s against
3.2 s, 3.3 s and 29.5 s (docs: Counting card attributes class by class)."""


def _walk_units(demand: Demand) -> int:
    """A walk's units per leaf: the leaf, the bet's feature reads and its settlement."""
    return LEAF_UNITS + READ_UNITS * len(demand.bet.features) + CONDITION_UNITS


@lru_cache(maxsize=1024)
def _patterns(game: Game[Any], bet: Bet) -> int:
    from exact.engines import factorised  # numpy-heavy: only for a card-level bet

    return factorised.FactorisedBet(game, (bet,), factorised.DECK, compile=False).patterns(game)


def _pattern_limit() -> int:
    from exact.engines import factorised

    return factorised.PATTERN_LIMIT


@dataclass(frozen=True)
class Factorised(Engine):
    """Factorised counting (:mod:`exact.engines.factorised`): the value walk, with what a bet
    reads beyond values (rank, suit, colour of any card, by position or counted) as
    multiplicities from the shoe's attribute composition; one shoe, a batch of shoes, or cards
    known at positions."""

    name: str = "factorised"

    def estimate(self, demand: Demand) -> Estimate:
        if demand.value_only or demand.values_by_position:
            return Estimate.refused("it serves card attributes beyond values; this bet reads "
                                    "values")
        if not deals_hand_pairs(demand.game):
            return Estimate.refused("it serves games dealing a pair of hands with card "
                                    "positions")
        own = factorised_serves(demand.game, demand.needs)
        if demand.scope == "known":
            if not isinstance(demand.game, DealtPositions):
                return Estimate.refused("it forces known cards only in a game that says which "
                                        "positions its draws fill")
            if not own:
                return Estimate.refused("with known cards it serves card attributes read with "
                                        "the third cards or by position")
        if own and demand.drawn:
            # its value walk alone costs more than class-by-class counting's whole estimate:
            # the patterns (seconds to count) need not be counted to lose
            rival = Classes().estimate(demand)
            if rival.units is not None and rival.units < VALUE_WALK_UNITS:
                return Estimate(VALUE_WALK_UNITS, "at least its value walk with the cards "
                                "drawn (patterns not counted: classes serves the bet for less)")
        patterns = _patterns(demand.game, demand.bet)
        if patterns > _pattern_limit() and Classes().estimate(demand).serves:
            # past its bound on a full deck it would refuse as it starts
            return Estimate.refused(f"{patterns:,} patterns of card classes on a deck, past "
                                    f"its bound ({_pattern_limit():,}); classes serves the bet")
        what = ("the value sequences times attribute multiplicities" if own else
                "the first cards' classes")
        # (past its pattern limit on the shoe of the run, the engine refuses by name as it
        # starts: a small shoe holds fewer classes, so fewer patterns, than the yardstick)
        if own and demand.drawn:  # its value walk with the third cards, in every process
            return Estimate(patterns * PATTERN_SHOE_UNITS + VALUE_WALK_UNITS,
                            f"{patterns:,} patterns of {what}, after the value walk with the "
                            "cards drawn (seconds, in every process)")
        return Estimate(patterns * PATTERN_SHOE_UNITS, f"{patterns:,} patterns of {what}")

    def count(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet],
              shoe: Shoe) -> list[list[int]]:
        from exact.engines import factorised

        # past the pattern limit factorised refuses by name (TooFine, an EngineError): never
        # the compiled walk over rank-and-suit classes with the third cards (minutes, GBs)
        return factorised.evaluate(game, bets, shoe)

    def work(self, game: Game[Any], deal: Deal[Any], bets: Sequence[Bet], shoe: Shoe) -> int:
        from exact.engines import factorised

        return factorised.counted_work(game, bets, shoe)

    def batch(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet]
              ) -> Callable[[np.ndarray], list[np.ndarray]]:
        from exact.engines import factorised

        return factorised.batch(game, bets)

    def known(self, game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
              known: Mapping[int, Card]) -> list[list[int]]:
        from exact.engines import factorised

        return factorised.evaluate(game, bets, shoe.remove(list(known.values())), known)


@dataclass(frozen=True)
class Compiled(Engine):
    """The compiled polynomial (:mod:`exact.engines.compiled`): one walk of the deal's class
    sequences, then any shoe is a product of falling factorials (batches in one matrix). One
    shoe is evaluated by the pure-Python twin or numpy, by the explicit rule of ``evaluator``
    (:mod:`exact.engines.compiled_python`)."""

    name: str = "compiled"
    evaluator: Evaluator = "auto"

    def estimate(self, demand: Demand) -> Estimate:
        if demand.value_only or demand.values_by_position:
            return self._terms(demand, "its walk of card values")
        if demand.rounds is not None:
            if demand.rounds > COMPILE_LIMIT:
                return Estimate.refused(f"its first cards form {demand.rounds} distinct rounds, "
                                        f"beyond the compile limit of {COMPILE_LIMIT}")
            return self._terms(demand, f"its {demand.rounds:,} distinct rounds of first cards")
        if demand.scope == "batch":
            return Estimate.refused("it reads ranks or suits together with the third cards: "
                                    "its compiled batch form would take minutes and gigabytes")
        if demand.leaves * LEAF_UNITS > WORK_LIMIT:
            return Estimate.refused(f"its compiled walk of ranks or suits with the third cards "
                                    f"has about {demand.leaves:,} rounds, past the work bound "
                                    f"(docs: Input limits)")
        if demand.scope == "known":
            return Estimate.refused("it cannot force a card at a position")
        # ranks or suits with the third cards or by position: a compiled form as large as its
        # walk, counted at the walk's cost (a leaf's units a round), which factorised counting
        # (its own bets) and the direct walk are measured against
        return Estimate(demand.leaves * LEAF_UNITS,
                        f"its walk of about {demand.leaves:,} rounds of ranks or suits with the "
                        f"third cards or by position, compiled once")

    def _terms(self, demand: Demand, walk: str) -> Estimate:
        if demand.scope == "known":
            return Estimate.refused("it cannot force a card at a position")
        return Estimate(demand.leaves * TERM_UNITS,
                        f"at most {demand.leaves:,} terms of {walk}, compiled once")

    def count(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet],
              shoe: Shoe) -> list[list[int]]:
        from exact.engines.compiled_python import shoe_counts

        return shoe_counts(game, deal, needs, bets, shoe, self.evaluator)

    def batch(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet]
              ) -> Callable[[np.ndarray], list[np.ndarray]]:
        from exact.engines.compiled_store import compiled_batch

        return compiled_batch(game, needs, bets)


@dataclass(frozen=True)
class Staged(Engine):
    """The staged evaluator (:mod:`exact.engines.staged`): shoe-independent event grids of one
    or two fixed groups of first cards; a shoe costs only its weights."""

    name: str = "staged"

    def estimate(self, demand: Demand) -> Estimate:
        if demand.scope == "known":  # (the forced engine reads its grids)
            return Estimate.refused("it cannot force a card at a position")
        refusal = staged_refusal(demand.stages)
        if refusal is not None or demand.groups is None or demand.rounds is None:
            return Estimate.refused(refusal or "no fixed stages")
        cells = sum(demand.groups) + _cross_reads(demand)
        what = "hand signatures, and pairs of hands as a feature reading both sees them"
        return Estimate(cells * CELL_UNITS, f"{cells:,} {what}")

    def count(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet],
              shoe: Shoe) -> list[list[int]]:
        from exact.engines import staged

        return staged.staged_counts(game, deal, bets, shoe)

    def batch(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet]
              ) -> Callable[[np.ndarray], list[np.ndarray]]:
        from exact.engines import staged

        return partial(staged.staged_deal(game, deal).counts, bets)


def _cross_reads(demand: Demand) -> int:
    """The pairs of hands the staged grids read for the bet's features that read both groups,
    each pair as the feature sees it (its own attributes: NINES' both-nines feature reads
    values, 55 x 55 hands), as :meth:`exact.engines.staged.StagedDeal.cross_reads` counts
    them (an upper bound: classes counted with the joker's)."""
    stages = demand.stages or ()
    total = 0
    for name in sorted(demand.bet.features):
        needs = demand.game.features[name].needs
        if len(needs.stages) < 2:
            continue
        total += prod(comb(len(View(tuple(a for a in needs.attributes(stage)
                                          if a in CARD_ATTRIBUTES)).labels) + draw.count - 1,
                           draw.count) for stage, draw in stages)
    return total


@dataclass(frozen=True)
class Direct(Engine):
    """The recursive enumerator (:mod:`exact.core.enumerator`): any deal, one shoe at a time."""

    name: str = "direct"

    def estimate(self, demand: Demand) -> Estimate:
        return Estimate(demand.leaves * _walk_units(demand),
                        f"the recursive enumeration of about {demand.leaves:,} rounds a shoe")

    def count(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet],
              shoe: Shoe) -> list[list[int]]:
        # the walk's size, estimated in milliseconds, refused before it starts if past the
        # bound (ranks and suits with the third cards: hundreds of millions of leaves)
        work.check(walk_work(deal, bets, shoe),
                   f"the direct enumeration of this {shoe.size}-card shoe for bet"
                   f"{'s' * (len(bets) > 1)} {', '.join(bet.id for bet in bets)} (about "
                   f"{estimated_leaves(deal, shoe):,} rounds walked)")
        distribution = game.enumerate(needs, shoe)
        records = list(distribution.counts)
        result = []
        for bet, events in zip(bets, settle_records(game, bets, records), strict=True):
            counts = [0] * len(bet.events)
            for record, event in zip(records, events, strict=True):
                counts[event] += distribution.counts[record]
            result.append(counts)
        return result

    def work(self, game: Game[Any], deal: Deal[Any], bets: Sequence[Bet], shoe: Shoe) -> int:
        return walk_work(deal, bets, shoe)


def walk_work(deal: Deal[Any], bets: Sequence[Bet], shoe: Shoe) -> int:
    """The work of the direct walk of ``deal`` on ``shoe`` and of reading ``bets``' features
    off its rounds, estimated in milliseconds (:func:`estimated_leaves`)."""
    features = len(set().union(*(bet.features for bet in bets)))
    return estimated_leaves(deal, shoe) * (LEAF_UNITS + features * READ_UNITS)


@dataclass(frozen=True)
class Forced(Engine):
    """The forced walk of :mod:`exact.engines.forced`: the next round with cards known at
    positions (a deal of one or two fixed groups of first cards read off the staged event
    grids instead, only the hands holding the known cards)."""

    name: str = "forced"

    def estimate(self, demand: Demand) -> Estimate:
        if isinstance(demand.game, DealtPositions) and staged_refusal(demand.stages) is None:
            what = ("the staged event grids over the hands holding the known cards (the deal "
                    "walked if the grid reads more pairs of hands than that walk settles)")
        else:
            what = "the bets' deal walked with the known cards forced"
        return Estimate(demand.leaves * _walk_units(demand),
                        f"about {demand.leaves:,} rounds at most: {what}")

    def known(self, game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
              known: Mapping[int, Card]) -> list[list[int]]:
        from exact.engines import forced

        return forced.forced_counts(game, shoe, bets, dict(known))


@dataclass(frozen=True)
class Classes(Engine):
    """Class-by-class counting (:mod:`exact.engines.classes`): the value rounds times
    per-class polynomials in the attribute counts and positions the bet reads; one shoe, a
    batch of shoes, or cards known at positions. It serves the bets on card attributes that
    read the third cards, whose patterns of card classes grow with the bet (millions for a
    count of hearts); the bets on the first cards alone walk few patterns."""

    name: str = "classes"

    def estimate(self, demand: Demand) -> Estimate:
        if demand.value_only or demand.values_by_position:
            return Estimate.refused("it serves card attributes beyond values; this bet reads "
                                    "values")
        if demand.scope == "known" and not isinstance(demand.game, DealtPositions):
            return Estimate.refused("it forces known cards only in a game that says which "
                                    "positions its draws fill")
        reason = classes_refusal(demand.game, demand.bet)
        if reason is not None:
            return Estimate.refused(reason)
        if not demand.drawn and _patterns(demand.game, demand.bet) <= _pattern_limit():
            return Estimate.refused("it serves bets reading the cards drawn after the first "
                                    "ones, or the first cards alone past factorised "
                                    "counting's pattern bound (these: it walks few patterns)")
        from exact.engines import classes  # numpy-heavy: only for a bet it serves

        states = classes.estimate(demand.game, [demand.bet])
        if states is None:
            return Estimate.refused("it serves card attributes beyond values")
        nodes = classes.trie_nodes(demand.game, [demand.bet])
        if nodes * classes.NODE_BYTES > classes.MEMORY_LIMIT:
            return Estimate.refused(
                f"about {nodes:,} nodes of its trie (the first cards read one by one), "
                f"{nodes * classes.NODE_BYTES // 10**6:,} MB, past its memory bound "
                f"({classes.MEMORY_LIMIT // 10**6:,} MB)")
        units = states * CLASSES_STATE_UNITS
        if units > WORK_LIMIT:  # its compile would run past the run's bound: not a cost
            return Estimate.refused(f"{states:,} states of the per-class polynomials per node "
                                    "of its trie, past the work bound (docs: Input limits)")
        return Estimate(units, f"{states:,} states of the per-class polynomials per node of "
                        "its trie")

    def count(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet],
              shoe: Shoe) -> list[list[int]]:
        from exact.engines import classes

        return classes.evaluate(game, bets, shoe)

    def batch(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet]
              ) -> Callable[[np.ndarray], list[np.ndarray]]:
        from exact.engines import classes

        return classes.batch(game, bets)

    def known(self, game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
              known: Mapping[int, Card]) -> list[list[int]]:
        from exact.engines import classes

        return classes.evaluate(game, bets, shoe.remove(list(known.values())), known)


SHIPPED: tuple[Engine, ...] = (Classes(), Factorised(), Compiled(), Staged(), Direct(),
                               Forced())
"""The shipped engines, in the order the plan registers them (which breaks a tie)."""
