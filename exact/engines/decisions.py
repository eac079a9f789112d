"""The two generic walkers of a round with decisions (:class:`DecisionGame`).

Layer: engines, above the model; they know no game.

* :func:`decision_table`: the round over every card sequence of a shoe and every action, as the
  sequence form the solvers read (:mod:`exact.engines.strategy_games`): each side's information
  sets with their actions and own parent sequence, and for every pair of action sequences the
  exact count of every outcome, over the counting unit N!/(N-round_cards)! as every deal has it
  (``N**round_cards`` with replacement: every card drawn from the whole shoe).
* :class:`~exact.engines.fixed_strategy.StrategyDeal`: the round under one fixed pure strategy
  per side, as a plain :class:`~exact.core.enumerator.Deal` (the decisions taken as they are
  met), for the direct, compiled and batch engines and for dealing real cards; it lives in
  :mod:`exact.engines.fixed_strategy` (one concern a module).

The sequence-form walk enumerates the cards as :func:`~exact.core.enumerator.enumerate_rounds`
does. Where the game gives a :meth:`~DecisionGame.future` key at a draw, the rest of the round
from there is built once per key as a *template* (every path of card classes, with its
multinomial coefficient, the sequences it adds and its outcome) and weighed by each path's
remaining shoe: the probability of a path depends only on the counts left (exchangeability), and
the template's structure on the key alone. Where the game also names a *shape* of that rest
(:class:`~exact.model.strategy_game.SharedRests`), the rests of one shape are built once and
the others renamed from it (their information sets only), and the flush sums the weighings of
all of them in one product. With replacement the counts never change: each template is summed
once and its weighings after the same sequences added up by weight (:meth:`_Walk.weigh_constant`).

>>> from exact.core.cards import Shoe
>>> table = decision_table(_Guess(), Shoe.standard(1))
>>> table.total, table.sets[0], sum(table.entries[(("guess", "high"),), ()].values())
(52, {'guess': ('high', 'low')}, 52)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from operator import mul
from typing import cast

import numpy as np

from exact.core.cards import Label, Shoe, View
from exact.core.enumerator import (
    Draw,
    Record,
    State,
    check_shoe,
    dealt_groups,
    falling,
    group_coefficient,
    without_collections,
)
from exact.core.work import Meter
from exact.errors import StrategyError
from exact.model.strategy_game import (
    Action,
    Decision,
    DecisionGame,
    InfoSet,
    Leaf,
    Number,
    Path,
    SharedRests,
    Step,
)

Sequences = tuple[Path, Path]  # both sides' own sequences so far
Entries = dict[Sequences, dict[Hashable, int]]  # sequence pair -> outcome -> count


@dataclass(frozen=True)
class DecisionTable:
    """A round's sequence form with outcome counts (see the module docstring): ``entries``
    holds only positive counts, ``sets`` and ``parents`` only information sets some card
    sequence of the shoe reaches."""

    total: int
    sets: tuple[dict[InfoSet, tuple[Action, ...]], dict[InfoSet, tuple[Action, ...]]]
    parents: tuple[dict[InfoSet, Path], dict[InfoSet, Path]]
    entries: Entries
    outcomes: tuple[Hashable, ...]  # every outcome counted, in the order first met

    def leaves(self, pays: Callable[[Hashable], tuple[Number, Number]]) -> list[Leaf]:
        """The leaves of the strategy game, both sides' pays summed over each pair's outcomes
        (:class:`~exact.model.strategy_game.StrategyGame`)."""
        found = []
        for (first, second), counts in self.entries.items():
            totals: list[Number] = [Fraction(0), Fraction(0)]
            for outcome, count in counts.items():
                pay = pays(outcome)
                totals[0] += pay[0] * count
                totals[1] += pay[1] * count
            found.append(Leaf(first, second, totals[0], totals[1]))
        return found


# A template: the rest of a round from a draw, for any remaining shoe (module docstring).
# Paths are the card classes drawn, in order, as (class, how many of it drawn before on the
# path) pairs, so that a path's weight is the product of (remaining - before) and its
# coefficient; ``ends`` group paths by what they add (sequences, outcome, cards used), so that a
# shoe's counts are summed per group; ``meets`` are the decisions the template holds, each with
# a path reaching it, registered only for a shoe that can deal that path.
_Path = tuple[tuple[int, int], ...]


@dataclass
class _Template:
    ends: dict[tuple[Path, Path, Hashable, int], dict[_Path, int]] = field(
        default_factory=dict)
    meets: list[tuple[_Path, int, InfoSet, tuple[Action, ...], Path]] = field(
        default_factory=list)
    # the ends as one integer matrix over the falling products of at most two cards (1, then
    # r_i, then r_i (r_j - [i = j])), when every path is that short: a shoe's sums are then one
    # product with that vector (:meth:`_Walk.weigh`); None when some path is longer
    matrix: np.ndarray | None = None
    bound: int = 0  # the largest sum of a row of ``matrix`` (int64 stays exact below 2^62/N^2)
    compiled: bool = False

    # the ends by the pair of sequences they add: (first, second, [(row, outcome, cards)]),
    # so that a weighing looks each pair's entry up once
    by_pair: list[tuple[Path, Path, list[tuple[int, Hashable, int]]]] = field(
        default_factory=list)

    # the ends of a template whose paths are all one card, each taken from the counts as
    # they are (before 0): (row, class, coefficient) triples, summed without _weight
    singles: list[tuple[int, int, int]] | None = None

    # a template of one-card paths and no decision, as (the sequences it adds, as a function
    # of the sequences before, and per end (outcome, cards, [(class, coefficient)])), which
    # :meth:`_Walk.weigh` sums and enters in one pass; None for any other template
    by_class: list[tuple[Callable[[Sequences], Sequences],
                         list[tuple[Hashable, int, list[tuple[int, int]]]]]] | None = None

    # per sequences before a weighing, the entry of each pair of ``by_pair`` once it is in the
    # walk's entries (:meth:`_Walk.enter`); None where it is not yet
    entered: dict[Sequences, list[dict[Hashable, int] | None]] = field(default_factory=dict)
    # per sequences before a weighing, the indices of ``meets`` not yet registered with the walk
    unmet: dict[Sequences, list[int]] = field(default_factory=dict)
    outcomes_in: bool = False  # every outcome of ``ends`` is in the walk's outcomes
    outcome_set: frozenset[Hashable] | None = None  # the outcomes of ``ends``, once asked
    # the ends with their paths joined after a path that leads here (:meth:`_Walk.spliced`)
    after: dict[_Path, list[tuple[Path, Path, Hashable, int, list[tuple[_Path, int]]]]] = \
        field(default_factory=dict)
    once: set[_Path] = field(default_factory=set)  # the paths spliced after once, not kept
    # the template this one renames (:meth:`renamed`), whose paths, matrix and sums it
    # shares, and each of its own sequences by that template's: its ends are the source's,
    # renamed only when a splice reads them (:meth:`all_ends`)
    source: _Template | None = None
    rename: Callable[[InfoSet], InfoSet] | None = None
    names: dict[Path, Path] = field(default_factory=dict)
    pairs_named: list[tuple[Path, Path]] | None = None
    # with replacement (:meth:`_Walk.weigh_constant`): each end's sum over the counts, which
    # never change (kept with the template that holds the paths), and per (sequences before,
    # cards used) the weight of the weighings after the first, entered once at the end
    constant: list[int] | None = None
    repeats: dict[tuple[Sequences, int], list[int]] = field(default_factory=dict)

    def renamed(self, rename: Callable[[InfoSet], InfoSet]) -> _Template:
        """This template with each information set renamed by ``rename`` (a rest of the same
        shape, :class:`~exact.model.strategy_game.SharedRests`): its decisions renamed now;
        its rows and matrix are this one's, their sequences renamed as they are first
        entered (:meth:`_Walk.enter`), its ends only if it is spliced."""
        copy = _Template(source=self, rename=rename)
        copy.meets = [(path, actor, rename(infoset), actions, copy.named(own))
                      for path, actor, infoset, actions, own in self.meets]
        # the ends' sequences hold only the sets of the template's decisions
        if len({(actor, infoset) for _p, actor, infoset, _a, _o in copy.meets}) != \
                len({(actor, infoset) for _p, actor, infoset, _a, _o in self.meets}):
            raise StrategyError("a renaming of a shared rest's information sets joins two of "
                                "them: it must be one-to-one")
        return copy

    def named(self, path: Path) -> Path:
        """``path`` of the source template, renamed (:meth:`renamed`)."""
        found = self.names.get(path)
        if found is None:
            if not path:
                return path
            rename = self.rename
            assert rename is not None  # (a renamed template has its renaming)
            found = self.names[path] = tuple([(rename(infoset), action)
                                              for infoset, action in path])
        return found

    def named_pairs(self) -> list[tuple[Path, Path]]:
        """The sequences of each pair of ``by_pair``, renamed (:meth:`renamed`), once."""
        if self.pairs_named is None:
            named = self.named
            self.pairs_named = [(named(first), named(second))
                                for first, second, _rows in self.by_pair]
        return self.pairs_named

    def all_ends(self) -> dict[tuple[Path, Path, Hashable, int], dict[_Path, int]]:
        """The ends, with their sequences renamed if this template renames another."""
        if self.source is not None and not self.ends:
            named = self.named
            self.ends = {(named(first), named(second), outcome, cards): paths
                         for (first, second, outcome, cards), paths
                         in self.source.all_ends().items()}
        return self.ends

    @property
    def paths(self) -> _Template:
        """The template that holds the paths: this one, or the one it renames."""
        return self.source if self.source is not None else self

    def _by_class(self) -> None:
        if self.meets or not _SINGLES or not all(
                len(path) == 1 and not path[0][1] for paths in self.ends.values()
                for path in paths):
            return
        pairs: dict[tuple[Path, Path], list[tuple[Hashable, int, list[tuple[int, int]]]]] = {}
        for (first, second, outcome, cards), paths in self.ends.items():
            cells = [(path[0][0], coefficient) for path, coefficient in paths.items()]
            pairs.setdefault((first, second), []).append((outcome, cards, cells))
        self.by_class = [(_extend(first, second), rows) for (first, second), rows in pairs.items()]

    def compile(self, classes: int) -> None:
        self.compiled = True
        source = self.source
        if source is not None:  # a renamed template: the source's rows (see renamed)
            if not source.compiled:
                source.compile(classes)
            # (a rest without decisions has no sets to rename: its one-pass form is shared)
            self.by_pair, self.matrix, self.bound, self.singles, self.by_class = \
                source.by_pair, source.matrix, source.bound, source.singles, source.by_class
            return
        self._by_class()
        pairs: dict[tuple[Path, Path], list[tuple[int, Hashable, int]]] = {}
        for row, (first, second, outcome, cards) in enumerate(self.ends):
            pairs.setdefault((first, second), []).append((row, outcome, cards))
        self.by_pair = [(first, second, rows) for (first, second), rows in pairs.items()]
        # one pass over the paths: their cells in the matrix (row by row, summed in Python,
        # then written at once: numpy's item assignment costs a microsecond a path), and
        # whether all are one card as the counts are (singles)
        width = 1 + classes + classes * classes
        cells: dict[int, int] = {}
        ones, paths_in = True, 0
        for row, paths in enumerate(self.ends.values()):
            start = row * width
            for path, coefficient in paths.items():
                length = len(path)
                if length == 1:
                    cell = start + 1 + path[0][0]
                    if path[0][1]:
                        ones = False
                elif length == 2:
                    cell, ones = start + 1 + classes + path[0][0] * classes + path[1][0], False
                elif length == 0:
                    cell, ones = start, False
                else:
                    return  # longer paths: summed by _weight
                cells[cell] = cells.get(cell, 0) + coefficient
            paths_in += len(paths)
        if _SINGLES and ones and paths_in:
            self.singles = [(row, path[0][0], coefficient)
                            for row, paths in enumerate(self.ends.values())
                            for path, coefficient in paths.items()]
        if paths_in < _SMALL:
            return
        flat = np.zeros(len(self.ends) * width, dtype=np.int64)
        if cells:
            flat[list(cells)] = list(cells.values())
        matrix = flat.reshape(len(self.ends), width)
        self.matrix = matrix
        self.bound = int(np.abs(matrix).sum(axis=1).max(initial=0))


_NOT_ASKED = object()  # the walk asks the game for the step (none given by the caller)


def _extend(first: Path, second: Path) -> Callable[[Sequences], Sequences]:
    """The sequences before, with ``first`` and ``second`` added to each side's."""
    if not first and not second:
        return lambda sequences: sequences
    return lambda sequences: ((*sequences[0], *first), (*sequences[1], *second))


def _side(decision: Decision) -> int:
    if decision.actor not in (0, 1):
        raise StrategyError(f"a decision of actor {decision.actor}: the sequence form has "
                            "two sides, 0 and 1")
    return decision.actor


def _weight(path: _Path, counts: list[int]) -> int:
    weight = 1
    for index, before in path:
        weight *= counts[index] - before
        if weight <= 0:
            return 0
    return weight


def _joined(path: _Path, inner_path: _Path, replacement: bool = False) -> _Path:
    """``path`` then ``inner_path``, as one path drawn by class, each card counting the cards of
    its class before it (none, with replacement): a path's weight depends only on which cards
    it draws (not their order), so the paths of the same cards share one end of a template
    and one cell."""
    drawn: dict[int, int] = {}
    canonical = []
    for index in sorted([i for i, _b in path] + [i for i, _b in inner_path]):
        canonical.append((index, 0 if replacement else drawn.get(index, 0)))
        drawn[index] = drawn.get(index, 0) + 1
    return tuple(canonical)


def _groups_replaced(view: View, counts: list[int], count: int
                     ) -> Iterator[tuple[tuple[Label, ...], list[int], int]]:
    """:func:`~exact.core.enumerator.dealt_groups` with replacement: every card is drawn from
    the whole shoe, so the counts stay and a group weighs the product of its classes' counts."""
    present = [i for i, c in enumerate(counts) if c]
    for group in combinations_with_replacement(present, count):
        weight = group_coefficient(group)
        for index in group:
            weight *= counts[index]
        yield tuple(map(view.labels.__getitem__, group)), counts, weight


_ONE_CARD = True  # one- and two-card draws of the walk dealt inline (off: dealt_groups, tests)
_SINGLES = True  # sum one-card templates from the counts directly (off: by _weight, the tests)
_SMALL = 40  # fewer paths than this are summed in Python (measured: 16 and 100 slower, 40-60 best)
_INT64_SAFE = 2**62
_BATCH = True  # weigh a template's pending weighings in one product (off: one by one, the tests)
_PENDING_CELLS = 1 << 21  # basis cells (int64) held before a flush: bounds its memory
_SHARE = True  # rests of one shape built once and renamed (off: each key built apart, the tests)
_CONSTANT = True  # with replacement, a template's sums taken once (off: as without, the tests)


class _Walk:
    """One sequence-form walk of ``game`` over ``shoe`` (see :func:`decision_table`)."""

    def __init__(self, game: DecisionGame[Record], shoe: Shoe, replacement: bool = False
                 ) -> None:
        self.game = game
        self.step_of, self.act, self.advance = game.step, game.act, game.advance
        self.future_of, self.outcome_of = game.future, game.outcome
        self.single_labels: dict[View, list[tuple[Label]]] = {}  # per view, each label alone
        self.size, self.unit = shoe.size, game.round_cards
        # with replacement each card comes from the whole shoe: nothing is taken out
        self.replacement, self.taken = replacement, int(not replacement)
        self.fill = [self.size ** (self.unit - k) if replacement
                     else falling(self.size - k, self.unit - k) for k in range(self.unit + 1)]
        self.sets: tuple[dict[InfoSet, tuple[Action, ...]], dict[InfoSet, tuple[Action, ...]]] \
            = ({}, {})
        self.parents: tuple[dict[InfoSet, Path], dict[InfoSet, Path]] = ({}, {})
        self.entries: Entries = {}
        self.outcomes: dict[Hashable, None] = {}
        self.templates: dict[View, dict[Hashable, _Template]] = {}  # by view, then key
        self.last_view: View | None = None
        self.last_templates: dict[Hashable, _Template] = {}
        self.meter = Meter("the sequence-form walk of this shoe")
        self.last_basis: tuple[list[int], np.ndarray] | None = None
        self.last_largest: tuple[list[int], int] | None = None
        self.start_view = View(("rank", "suit"))
        self.start_counts = self.start_view.class_counts(shoe)
        self.classes: dict[View, list[int]] = {}
        self.joined: dict[tuple[_Path, _Path], _Path] = {}  # paths spliced (:meth:`splice`)
        # the weighings and leaves waiting for :meth:`flush`, and the basis cells they need
        self.pending: list[tuple[_Template | None, object, int, int, Sequences]] = []
        self.pending_cells = 0
        self.batched: dict[int, list[int]] = {}  # by id of matrix: its pending weighings
        # rests shared by shape (:class:`~exact.model.strategy_game.SharedRests`): the
        # template built for each view and shape, with the names of its sets
        self.rest_shape: Callable[[State], tuple[Hashable, Hashable] | None] | None = None
        self.renamed: Callable[[InfoSet, Hashable], InfoSet] | None = None
        if _SHARE and isinstance(game, SharedRests):
            self.rest_shape, self.renamed = game.rest_shape, game.renamed
        self.shapes: dict[tuple[View, Hashable], tuple[_Template, Hashable]] = {}
        # with replacement the counts never change: each template is summed once and its
        # weighings after the same sequences added up (:meth:`weigh_constant`)
        self.constant = replacement and _CONSTANT
        self.repeated: list[tuple[_Template, list[int], int, Sequences, list[int]]] = []

    def meet(self, actor: int, infoset: InfoSet, actions: tuple[Action, ...], own: Path
             ) -> None:
        """Register a decision of ``actor`` at ``infoset`` after its own sequence ``own``
        (given by parts: a template's decisions are registered without a Decision made)."""
        sets = self.sets[actor]
        if infoset not in sets:
            sets[infoset] = actions
            self.parents[actor][infoset] = own
        elif sets[infoset] != actions:
            raise StrategyError(f"information set {infoset!r} offers {sets[infoset]} and "
                                f"{actions}")
        elif self.parents[actor][infoset] != own:
            raise StrategyError(f"information set {infoset!r} is reached after "
                                "different own choices of its actor (no perfect recall): "
                                "put those choices in its key")

    def add(self, sequences: Sequences, outcome: Hashable, count: int) -> None:
        self.meter.tick()
        if self.pending:  # after the weighings before it, so that entries keep their order
            self.pending.append((None, outcome, count, 0, sequences))
            self.queued(1)
            return
        self.enter_one(sequences, outcome, count)

    def walk(self, state: State, view: View, counts: list[int], used: int, weight: int,
             sequences: Sequences, known: object = _NOT_ASKED) -> None:
        # the game's methods bound once (:meth:`__init__`): this runs at every node
        step_of, act = self.step_of, self.act
        step = step_of(state) if known is _NOT_ASKED else cast(Step, known)
        while isinstance(step, Decision) and len(step.actions) == 1:  # forced: no choice
            state = act(state, step.actions[0])
            step = step_of(state)
        if step is None:
            self.add(sequences, self.outcome_of(state), weight * self.fill[used])
            return
        if isinstance(step, Decision):
            own = sequences[_side(step)]
            self.meet(step.actor, step.infoset, step.actions, own)
            infoset, first = step.infoset, step.actor == 0
            for action in step.actions:
                longer = (*own, (infoset, action))
                child = act(state, action)
                after = step_of(child)
                pair = (longer, sequences[1]) if first else (sequences[0], longer)
                # most actions end the round or lead to a rest built once (a template):
                # taken here, without a call of the walk
                if after is None:
                    self.add(pair, self.outcome_of(child), weight * self.fill[used])
                elif isinstance(after, Draw) and after.view is view and \
                        (key := self.future_of(child)) is not None:
                    self.weigh(self.template(child, key, view), counts, used, weight, pair)
                else:
                    self.walk(child, view, counts, used, weight, pair, after)
            return
        if step.view is not view and step.view != view:
            counts, view = view.regroup(counts, step.view), step.view
        key = self.future_of(state)
        if key is not None:
            self.weigh(self.template(state, key, view), counts, used, weight, sequences)
            return
        if step.count == 1 and _ONE_CARD:  # most draws: the groups of dealt_groups, inline
            advance, taken, walk = self.advance, self.taken, self.walk
            singles = self.single_labels.get(view)
            if singles is None:
                singles = self.single_labels[view] = [(label,) for label in view.labels]
            used += 1
            for index, count in enumerate(counts):
                if count:
                    remaining = counts
                    if taken:
                        remaining = counts.copy()
                        remaining[index] = count - 1
                    walk(advance(state, singles[index]), view, remaining, used, weight * count,
                         sequences)
            return
        if step.count == 2 and _ONE_CARD:  # a two-card draw: the same, inline
            self.walk_pairs(state, view, counts, used + 2, weight, sequences)
            return
        groups = _groups_replaced if self.replacement else dealt_groups
        for labels, remaining, group_weight in groups(view, counts, step.count):
            self.walk(self.advance(state, labels), view, remaining, used + step.count,
                      weight * group_weight, sequences)

    def walk_pairs(self, state: State, view: View, counts: list[int], used: int, weight: int,
                   sequences: Sequences) -> None:
        """The groups of two cards of :func:`~exact.core.enumerator.dealt_groups` (or
        :func:`_groups_replaced`), in their order, each walked."""
        advance, taken, walk = self.advance, self.taken, self.walk
        labels = view.labels
        present = [index for index, count in enumerate(counts) if count]
        for at, first in enumerate(present):
            count = counts[first]
            ways = count * (count - taken)
            if ways:
                remaining = counts
                if taken:
                    remaining = counts.copy()
                    remaining[first] = count - 2
                walk(advance(state, (labels[first], labels[first])), view, remaining, used,
                     weight * ways, sequences)
            for second in present[at + 1:]:
                remaining = counts
                if taken:
                    remaining = counts.copy()
                    remaining[first] = count - 1
                    remaining[second] -= 1
                walk(advance(state, (labels[first], labels[second])), view, remaining, used,
                     weight * 2 * count * counts[second], sequences)

    def weigh(self, template: _Template, counts: list[int], used: int, weight: int,
              sequences: Sequences) -> None:
        if self.constant:
            self.weigh_constant(template, counts, used, weight, sequences)
            return
        if template.by_class is not None and not self.pending:
            # a compiled rest of one card and no decision, with nothing queued before it:
            # summed and entered at once (the common rest of a round: its last card)
            self.meter.tick()
            fill, entries, outcomes = self.fill, self.entries, self.outcomes
            for pair, rows in template.by_class:
                entry = None
                for outcome, cards, cells in rows:
                    summed = 0
                    for index, coefficient in cells:
                        summed += coefficient * counts[index]
                    if summed:
                        if entry is None:
                            key = pair(sequences)
                            entry = entries.get(key)
                            if entry is None:
                                entry = entries[key] = {}
                        if outcome not in outcomes:
                            outcomes[outcome] = None
                        entry[outcome] = entry.get(outcome, 0) + \
                            weight * summed * fill[used + cards]
            return
        if template.meets:
            self.meet_all(template, counts, sequences)
        if not template.compiled:
            template.compile(len(counts))
        self.meter.tick()  # one step of the walk, however many ends it adds
        if _BATCH and template.matrix is not None and \
                template.bound * self.largest(counts) < _INT64_SAFE:
            # summed later with the others of this template and of the templates renaming
            # the same one (their matrix), in one matrix product (:meth:`flush`); every
            # write to the entries waits behind it, in walk order
            found = self.batched.get(id(template.matrix))
            if found is None:
                found = self.batched[id(template.matrix)] = []
            found.append(len(self.pending))
            self.pending.append((template, counts, used, weight, sequences))
            self.queued(template.matrix.shape[1])
            return
        if self.pending:
            self.pending.append((template, counts, used, weight, sequences))
            self.queued(len(counts))
            return
        self.enter(template, self.sums(template, counts), used, weight, sequences)

    def meet_all(self, template: _Template, counts: list[int], sequences: Sequences) -> None:
        """Register the decisions of ``template`` after ``sequences`` that ``counts`` can
        deal, each once per sequences before it: a later weighing would find it as registered
        (same actions, same parent sequence)."""
        left = template.unmet.get(sequences)
        if left is None:
            left = template.unmet[sequences] = list(range(len(template.meets)))
        if left:
            meets, kept = template.meets, []
            for index in left:
                path, actor, infoset, actions, own = meets[index]
                if _weight(path, counts):
                    self.meet(actor, infoset, actions, (*sequences[actor], *own))
                else:  # a path this shoe cannot deal: another may
                    kept.append(index)
            left[:] = kept

    def weigh_constant(self, template: _Template, counts: list[int], used: int, weight: int,
                       sequences: Sequences) -> None:
        """A weighing with replacement: the counts are the whole shoe's at every draw, so a
        template's sums are one list, and every weighing of it after the same sequences with
        the same cards used adds that list times its weight. The first is entered where the
        walk meets it (it inserts every entry and outcome the others would, in walk order);
        the others' weights are added up and entered once (:meth:`flush`), inserting none."""
        self.meter.tick()
        key = (sequences, used)
        later = template.repeats.get(key)
        if later is not None:
            later[0] += weight
            return
        if template.meets:
            self.meet_all(template, counts, sequences)
        if not template.compiled:
            template.compile(len(counts))
        source = template.paths
        sums = source.constant
        if sums is None:
            sums = source.constant = self.sums(template, counts)
        self.enter(template, sums, used, weight, sequences)
        later = template.repeats[key] = [0]
        self.repeated.append((template, sums, used, sequences, later))

    def enter_repeated(self) -> None:
        """Enter the summed weight of the weighings of each template after its first
        (:meth:`weigh_constant`), as one weighing, and start those weights again from 0."""
        for template, sums, used, sequences, later in self.repeated:
            if later[0]:
                self.enter(template, sums, used, later[0], sequences)
                later[0] = 0

    def queued(self, cells: int) -> None:
        """Count what a pending item holds; flush past the bound (memory stays bounded
        whatever the walk's size)."""
        self.pending_cells += cells
        if self.pending_cells > _PENDING_CELLS:
            self.flush()

    def sums(self, template: _Template, counts: list[int]) -> list[int]:
        """Each end's sum of path weights over ``counts``, alone."""
        if template.matrix is not None and template.bound * self.largest(counts) < _INT64_SAFE:
            return cast(list[int], (template.matrix @ self.basis(counts)).tolist())
        if template.singles is not None:
            # (a renamed template's rows are its source's: no property call, as this runs
            # at every queued one-card rest)
            sums = [0] * len(template.ends if template.source is None else template.source.ends)
            for row, index, coefficient in template.singles:
                sums[row] += coefficient * counts[index]
            return sums
        return [sum(coefficient * _weight(path, counts) for path, coefficient in paths.items())
                for paths in template.paths.ends.values()]

    def flush(self) -> None:
        """Sum the pending weighings of each template in one product (their bases, one row
        per weighing, built at once) and write every pending entry in walk order.

        A weighing whose every pair already has its entry, and every outcome its place, adds
        to entries and inserts none: its place in the walk order no longer matters, so the
        weighings of one template after the same sequences, with the same cards used, are
        added up first (exact integers: their weights times their sums, in one product) and
        entered once."""
        self.enter_repeated()
        pending, self.pending, self.pending_cells = self.pending, [], 0
        batched, self.batched = self.batched, {}
        # per weighing of a batched template: its block of sums (int64) and its row there
        summed: list[tuple[np.ndarray, int] | None] = [None] * len(pending)
        by_width: dict[int, list[list[int]]] = {}  # the bases of one number of classes together
        for indices in batched.values():
            by_width.setdefault(len(cast(list[int], pending[indices[0]][1])), []).append(
                indices)
        for width, groups in by_width.items():
            every = [i for indices in groups for i in indices]
            counts = np.array([pending[i][1] for i in every], dtype=np.int64)
            pairs = counts[:, :, None] * counts[:, None, :]
            diagonal = np.arange(width)
            pairs[:, diagonal, diagonal] -= counts * self.taken
            bases = np.concatenate((np.ones((len(every), 1), dtype=np.int64), counts,
                                    pairs.reshape(len(every), width * width)), axis=1)
            start = 0
            for indices in groups:
                matrix = cast(_Template, pending[indices[0]][0]).matrix
                assert matrix is not None
                block = bases[start:start + len(indices)] @ matrix.T
                start += len(indices)
                for position, index in enumerate(indices):
                    summed[index] = (block, position)
        # the groups of weighings added up before entering, by template, cards used and
        # sequences, these by identity of one equal tuple (the walk passes one tuple down a
        # subtree, and a tuple of tuples hashes all its parts at every lookup: each tuple met
        # is looked up by value once)
        added: dict[tuple[int, int, int], tuple[_Template, int, Sequences, list[int],
                                                list[int], np.ndarray]] = {}
        equal: dict[int, int] = {}  # by id of a tuple of sequences: the id of the equal one
        first: dict[Sequences, Sequences] = {}
        for (template, held, used, weight, sequences), found in zip(pending, summed,
                                                                    strict=True):
            if template is None:  # a leaf of the walk: held is its outcome, used its count
                self.enter_one(sequences, held, used)
            elif found is None:
                self.enter(template, self.sums(template, cast(list[int], held)), used, weight,
                           sequences)
            else:
                same = equal.get(id(sequences))
                if same is None:
                    same = equal[id(sequences)] = id(first.setdefault(sequences, sequences))
                group = added.get((id(template), used, same))
                if group is None:  # (once a group is open, its weighings insert nothing)
                    if not self.entered(template, sequences):
                        self.enter(template, found[0][found[1]].tolist(), used, weight,
                                   sequences)
                        continue
                    group = added[id(template), used, same] = (
                        template, used, sequences, [], [], found[0])
                group[3].append(weight)
                group[4].append(found[1])
        largest: dict[int, int] = {}  # by id of block: its largest magnitude, once asked
        for template, used, sequences, weights, rows, block in added.values():
            if len(weights) == 1:
                self.enter(template, block[rows[0]].tolist(), used, weights[0], sequences)
                continue
            taken = block[rows]
            bound = largest.get(id(block))
            if bound is None:
                bound = largest[id(block)] = int(np.abs(block).max())
            if max(weights) * bound * len(weights) < _INT64_SAFE:
                # the group's weighted sum of rows in one int64 product (exact below the bound)
                self.enter(template, (np.array(weights, dtype=np.int64) @ taken).tolist(),
                           used, 1, sequences)
            else:  # Python integers: a weight times a sum may pass int64
                self.enter(template, [sum(map(mul, weights, column)) for column
                                      in zip(*taken.tolist(), strict=True)],
                           used, 1, sequences)

    def entered(self, template: _Template, sequences: Sequences) -> bool:
        """Whether a weighing of ``template`` after ``sequences`` would insert nothing in the
        entries or the outcomes (see :meth:`flush`)."""
        held = template.entered.get(sequences)
        if held is None or None in held:
            return False
        if not template.outcomes_in:
            source = template.paths
            if source.outcome_set is None:
                source.outcome_set = frozenset(outcome for _first, _second, outcome, _cards
                                               in source.ends)
            template.outcomes_in = self.outcomes.keys() >= source.outcome_set
        return template.outcomes_in

    def enter_one(self, sequences: Sequences, outcome: Hashable, count: int) -> None:
        self.outcomes.setdefault(outcome, None)
        entry = self.entries.setdefault(sequences, {})
        entry[outcome] = entry.get(outcome, 0) + count

    def enter(self, template: _Template, sums: list[int], used: int, weight: int,
              sequences: Sequences) -> None:
        """Add a weighed template's ends to the entries."""
        fill, entries, outcomes = self.fill, self.entries, self.outcomes
        # each pair's entry, once it is in the entries, kept per sequences before: a template
        # is weighed many times after the same sequences, and a key of nested tuples costs a
        # hash of all its parts at every lookup (tuples keep no hash)
        held = template.entered.get(sequences)
        if held is None:
            held = template.entered[sequences] = [None] * len(template.by_pair)
        before, after = sequences
        for index, (first, second, rows) in enumerate(template.by_pair):
            entry = held[index]
            for row, outcome, cards in rows:
                summed = sums[row]
                if summed:
                    if entry is None:
                        if template.source is not None:  # a renamed template's sequences
                            first, second = template.named_pairs()[index]
                        key = ((*before, *first) if first else before,
                               (*after, *second) if second else after)
                        entry = entries.get(key)
                        if entry is None:
                            entry = entries[key] = {}
                        held[index] = entry
                    if outcome not in outcomes:
                        outcomes[outcome] = None
                    entry[outcome] = entry.get(outcome, 0) + weight * summed * fill[used + cards]

    def largest(self, counts: list[int]) -> int:
        """The square of the largest count: what bounds a two-card falling product."""
        if self.last_largest is None or self.last_largest[0] is not counts:
            self.last_largest = (counts, max(max(counts), 1) ** 2)
        return self.last_largest[1]

    def basis(self, counts: list[int]) -> np.ndarray:
        """1, the counts, and the ordered pairs of distinct cards by classes: what a template
        of two cards at most is summed over; kept for the last counts (a node's decisions
        weigh several templates on one shoe)."""
        if self.last_basis is None or self.last_basis[0] is not counts:
            r = np.array(counts, dtype=np.int64)
            pairs = np.outer(r, r)
            pairs.flat[::len(counts) + 1] -= r * self.taken
            self.last_basis = (counts, np.concatenate(((1,), r, pairs.ravel())))
        return self.last_basis[1]

    def possible(self, view: View) -> list[int]:
        """The classes of ``view`` the shoe holds at all: a template's paths draw no other."""
        found = self.classes.get(view)
        if found is None:
            counts = self.start_view.regroup(self.start_counts, view)
            found = self.classes[view] = [i for i, count in enumerate(counts) if count]
        return found

    def template(self, state: State, key: Hashable, view: View) -> _Template:
        by_key = self.templates.get(view) if view is not self.last_view else self.last_templates
        if by_key is None:
            by_key = self.templates[view] = {}
        self.last_view, self.last_templates = view, by_key
        found = by_key.get(key)
        if found is None:
            shared = self.rest_shape(state) if self.rest_shape is not None else None
            found = by_key[key] = self.shared(state, view, *shared) if shared is not None \
                else self.built(state, view)
        return found

    def built(self, state: State, view: View) -> _Template:
        template = _Template()
        self.build(template, state, view, (), 0, 1, ((), ()))
        return template

    def shared(self, state: State, view: View, shape: Hashable, names: Hashable) -> _Template:
        """The template of a rest of ``shape``: built for the first rest of it met, renamed
        from that one for the others."""
        found = self.shapes.get((view, shape))
        if found is None:
            template = self.built(state, view)
            self.shapes[view, shape] = (template, names)
            return template
        template, built_names = found
        if names == built_names:
            return template
        renamed = self.renamed
        assert renamed is not None  # a shape is given only by a game that renames
        return template.renamed(lambda infoset: renamed(infoset, names))

    def build(self, template: _Template, state: State, view: View, path: _Path, cards: int,
              coefficient: int, sequences: Sequences) -> None:
        game = self.game
        step = game.step(state)
        while isinstance(step, Decision) and len(step.actions) == 1:
            state = game.act(state, step.actions[0])
            step = game.step(state)
        if step is None:
            ends = template.ends.setdefault((*sequences, game.outcome(state), cards), {})
            ends[path] = ends.get(path, 0) + coefficient
            return
        if isinstance(step, Decision):
            own = sequences[_side(step)]
            template.meets.append((path, step.actor, step.infoset, step.actions, own))
            for action in step.actions:
                longer = (*own, (step.infoset, action))
                self.build(template, game.act(state, action), view, path, cards, coefficient,
                           (longer, sequences[1]) if step.actor == 0 else (sequences[0], longer))
            return
        if step.view is not view and step.view != view:
            raise StrategyError("a draw after a future key sees the cards through another "
                                "view: give no key there")
        if path and (key := game.future(state)) is not None:
            self.splice(template, self.template(state, key, view), path, cards, coefficient,
                        sequences)
            return
        if step.count == 1:  # most draws: one card, of coefficient 1
            labels_of, advance = view.labels, game.advance
            for index in self.possible(view):
                before = 0
                if self.taken:
                    for drawn_index, _before in path:
                        before += drawn_index == index
                self.build(template, advance(state, (labels_of[index],)), view,
                           (*path, (index, before)), cards + 1, coefficient, sequences)
            return
        drawn = [index for index, _before in path]
        for group in combinations_with_replacement(self.possible(view), step.count):
            extended = list(path)
            for index in group:
                extended.append((index, drawn.count(index) * self.taken))
                drawn.append(index)
            del drawn[len(path):]
            labels = tuple(map(view.labels.__getitem__, group))
            self.build(template, game.advance(state, labels), view, tuple(extended),
                       cards + step.count, coefficient * group_coefficient(group), sequences)

    def splice(self, template: _Template, inner: _Template, path: _Path, cards: int,
               coefficient: int, sequences: Sequences) -> None:
        """Add ``inner``, the template of a draw reached by ``path``, to ``template``: its
        paths follow ``path`` (a class drawn again counts the cards of it drawn before)."""
        for inner_path, actor, infoset, actions, own in inner.meets:
            template.meets.append((self.joined_path(path, inner_path), actor, infoset, actions,
                                   (*sequences[actor], *own)))
        before, after = sequences
        found = inner.after.get(path)
        if found is None and path not in inner.once:
            # the first splice after this path (often the only one: 21st Century Baccarat's
            # templates): joined as read, not kept
            inner.once.add(path)
            joined = self.joined_path
            for (first, second, outcome, more), paths in inner.all_ends().items():
                ends = template.ends.setdefault(((*before, *first) if first else before,
                                                 (*after, *second) if second else after,
                                                 outcome, cards + more), {})
                for inner_path, inner_coefficient in paths.items():
                    joined_path = joined(path, inner_path)
                    ends[joined_path] = ends.get(joined_path, 0) + \
                        coefficient * inner_coefficient
            return
        for first, second, outcome, more, rows in found or self.spliced(inner, path):
            ends = template.ends.setdefault(((*before, *first) if first else before,
                                             (*after, *second) if second else after,
                                             outcome, cards + more), {})
            for joined_path, inner_coefficient in rows:
                ends[joined_path] = ends.get(joined_path, 0) + coefficient * inner_coefficient

    def spliced(self, inner: _Template, path: _Path
                ) -> list[tuple[Path, Path, Hashable, int, list[tuple[_Path, int]]]]:
        """``inner``'s ends with their paths after ``path``, from the second splice after it
        (chemin de fer's every third card before the Banker's choice): joined once a walk and
        kept with ``inner``, by path."""
        found = inner.after.get(path)
        if found is None:
            found = inner.after[path] = [
                (first, second, outcome, more,
                 [(self.joined_path(path, inner_path), inner_coefficient)
                  for inner_path, inner_coefficient in paths.items()])
                for (first, second, outcome, more), paths in inner.all_ends().items()]
        return found

    def joined_path(self, path: _Path, inner_path: _Path) -> _Path:
        found = self.joined.get((path, inner_path))
        if found is None:
            found = self.joined[path, inner_path] = _joined(path, inner_path, self.replacement)
        return found


def decision_table(game: DecisionGame[Record], shoe: Shoe, replacement: bool = False
                   ) -> DecisionTable:
    """Every card sequence of ``shoe`` and every action of ``game``, in sequence form with exact
    outcome counts (see the module docstring). With ``replacement`` every card is drawn from
    the whole of ``shoe`` (its proportions, as from an endless shoe): the counting unit is then
    ``N**round_cards`` sequences."""
    check_shoe(game, shoe)
    walk = _Walk(game, shoe, replacement)
    with without_collections():
        walk.walk(game.start(), walk.start_view, walk.start_counts, 0, 1, ((), ()))
        walk.flush()
    return DecisionTable(walk.fill[0], walk.sets, walk.parents, walk.entries,
                         tuple(walk.outcomes))


class _Guess:
    """A toy for the doctest: the player guesses whether one card will be high or low
    (values 5-9 high); a right guess pays 1, a wrong one loses 1."""

    round_cards, accepts_jokers = 1, False

    def start(self) -> State:
        return None

    def step(self, state: State) -> Step:
        if state is None:
            return Decision(0, "guess", ("high", "low"))
        return Draw(View(), 1) if isinstance(state, str) else None

    def advance(self, state: State, labels: tuple[Label, ...]) -> State:
        return (state, labels[0].value)

    def act(self, state: State, action: Action) -> State:
        return action

    def record(self, state: State) -> tuple[str, int]:
        return cast(tuple[str, int], state)

    def outcome(self, state: State) -> Hashable:
        guess, value = state
        return 1 if (value >= 5) == (guess == "high") else -1

    def future(self, state: State) -> Hashable | None:
        return None

    def fallback(self, decision: Decision) -> Action:
        return decision.actions[0]
