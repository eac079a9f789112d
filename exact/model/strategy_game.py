"""The contract of a strategy game: what the algorithms of :mod:`exact.engines.strategy_games`
(best response, sequence-form equilibria) read of any two-player game with chance.

Layer: model, above the core; the engines' algorithms and the games' definitions both use it.

For each side (0 and 1) its information sets with their actions, and the own sequence leading
to each set (perfect recall); the *leaves*: for every pair of action sequences, one per side,
the summed payoffs of both sides over the chance outcomes that end there, as exact numbers over
one common denominator ``total``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple, Protocol

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
