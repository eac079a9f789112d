"""The contract of a strategy game: what the algorithms of :mod:`exact.engines.strategy_games`
(best response, sequence-form equilibria) read of any two-player game with chance.

Layer: model, above the core; the engines' algorithms and the games' definitions both use it.

A game with decisions writes its round once, as a :class:`DecisionGame`: each step is a draw
(chance), a :class:`Decision` (its actor, its information set, its actions) or the end. The
engines' walkers (:mod:`exact.engines.decisions`) read it twice: into the sequence form below, for
the solvers, and, under fixed strategies, into a plain :class:`~exact.core.enumerator.Deal` for the
compiled and batch engines (docs/explanation/decisions.md).

For each side (0 and 1) its information sets with their actions, and the own sequence leading
to each set (perfect recall); the *leaves*: for every pair of action sequences, one per side,
the summed payoffs of both sides over the chance outcomes that end there, as exact numbers over
one common denominator ``total``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple, Protocol, runtime_checkable

from exact.core.cards import Label
from exact.core.enumerator import Draw, RecordT_co, State

InfoSet = Hashable
Action = str
Path = tuple[tuple[InfoSet, Action], ...]  # one side's (information set, action) choices
Number = Fraction | int


class Leaf(NamedTuple):
    """Both sides' summed payoffs (numerators over the game's ``total``) of one sequence pair."""

    first: Path
    second: Path
    first_pay: Number
    second_pay: Number


class StrategyGame(Protocol):
    """What the algorithms of :mod:`exact.engines.strategy_games` use of a game (see the module
    docstring); read only, so that a frozen dataclass such as its ``SequenceForm`` is one."""

    @property
    def total(self) -> int: ...
    @property
    def sets(self) -> tuple[Mapping[InfoSet, tuple[Action, ...]],
                            Mapping[InfoSet, tuple[Action, ...]]]: ...
    @property
    def parents(self) -> tuple[Mapping[InfoSet, Path], Mapping[InfoSet, Path]]: ...
    @property
    def leaves(self) -> Sequence[Leaf]: ...


@dataclass(frozen=True)
class Decision:
    """A step of a round where ``actor`` (0 or 1, game theory's player: the one who decides,
    not a hand) chooses one of ``actions`` knowing only ``infoset``: any hashable value the
    game computes from what that actor has seen (own cards, an up card, which other hands
    drew...). Two states an actor cannot tell apart must give equal ``infoset`` and equal
    ``actions``, and an actor must remember its own earlier choices (perfect recall: the
    sequence form assumes it). A decision of one action is forced: the walkers take it and
    record no information set."""

    actor: int
    infoset: InfoSet
    actions: tuple[Action, ...]


Step = Draw | Decision | None  # None: the round is over


class DecisionGame(Protocol[RecordT_co]):
    """A round with chance and decisions (see the module docstring and
    docs/explanation/decisions.md). Frozen and hashable, as deals are: compiled forms and game
    tables are cached by game. The state is the game's own business, as in a deal."""

    @property
    def round_cards(self) -> int:
        """Length of the counting unit: the most cards a round can use."""

    @property
    def accepts_jokers(self) -> bool: ...

    def __hash__(self) -> int: ...

    def start(self) -> State: ...

    def step(self, state: State) -> Step:
        """What happens next: a group of cards to deal, a decision, or ``None`` (the end)."""

    def advance(self, state: State, labels: tuple[Label, ...]) -> State:
        """The state after dealing ``labels`` (sorted by class index) for the last draw."""

    def act(self, state: State, action: Action) -> State:
        """The state after the deciding actor took ``action`` at the last decision."""

    def record(self, state: State) -> RecordT_co:
        """What analyses see of a finished round (the record of the fixed-strategy deal)."""

    def outcome(self, state: State) -> Hashable:
        """What settlement makes of a finished round (the sequence form counts rounds by
        outcome: keep it coarse, e.g. how the hand was decided and the pay)."""

    def future(self, state: State) -> Hashable | None:
        """A key of everything the rest of the round depends on from ``state``, or ``None``.
        Two states of equal key must have the same rest of the round (steps, views,
        information sets, actions and outcomes), whatever cards were dealt before: the
        sequence-form walker then builds that rest once and weighs it by each path's remaining
        shoe. Give ``None`` where no two paths share a rest (the first cards)."""

    def fallback(self, decision: Decision) -> Action:
        """The action a fixed strategy takes at a set it does not name (one never reached on
        the shoe the strategy was chosen on)."""


@runtime_checkable
class SharedRests(Protocol):
    """What a :class:`DecisionGame` may add so that the sequence-form walker builds rests that
    differ only in the names of their information sets once (optional: a game without these
    methods has each rest of its own :meth:`~DecisionGame.future` key built apart).

    A side deciding on its cards may meet a rest that depends on them only through some
    summary (a total) and the names of its sets: the walker then builds one rest per summary
    and renames its sets for each set of cards (docs/explanation/decisions.md, a game's
    example)."""

    def rest_shape(self, state: State) -> tuple[Hashable, Hashable] | None:
        """At a state of :meth:`~DecisionGame.future` key not ``None``: the *shape* of the rest
        of the round from there and the *names* of its information sets, or ``None`` (the rest
        built apart). Two rests of one shape must be the same rest (steps, views, actions and
        outcomes, in the same order) but for their information sets, the sets of one renamed by
        :meth:`renamed` with the names of the other."""

    def renamed(self, infoset: InfoSet, names: Hashable) -> InfoSet:
        """``infoset``, met in a rest of some shape, as it is named in the rest of that shape
        whose names are ``names``: one-to-one on the sets of a rest."""
