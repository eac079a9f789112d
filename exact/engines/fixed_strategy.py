"""The fixed-strategy walker of a round with decisions: the round under one pure strategy per
side as a plain :class:`~exact.core.enumerator.Deal` (:class:`StrategyDeal`), for the direct,
compiled and batch engines and for dealing real cards.

Layer: engines, above the model; they know no game. Its twin, the sequence-form walker, is
:mod:`exact.engines.decisions` (which shows this one under its names too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic

from exact.core.cards import Label
from exact.core.enumerator import Draw, RecordT, State
from exact.errors import StrategyError
from exact.model.strategy_game import Action, Decision, DecisionGame, InfoSet

Choices = tuple[tuple[InfoSet, Action], ...]  # a pure strategy, as a hashable tuple
_UNSET = object()  # no state settled yet (a game's state may be None)
_TAKEN_KEPT = 1 << 14


def choices(strategy: Mapping[InfoSet, Mapping[Action, Fraction]],
            order: Callable[[InfoSet], str] = repr) -> Choices:
    """A pure strategy as the sorted (set, action) pairs of a :class:`StrategyDeal`; a mixed
    one is refused (a deal deals cards, it does not toss coins)."""
    chosen = []
    for infoset in sorted(strategy, key=order):
        pure = [a for a, p in strategy[infoset].items() if p == 1]
        if len(pure) != 1:
            raise StrategyError(f"the enumerator deal needs pure strategies ({infoset})")
        chosen.append((infoset, pure[0]))
    return tuple(chosen)


@dataclass(frozen=True)
class StrategyDeal(Generic[RecordT]):
    """``game`` under one pure strategy per side (:func:`choices`), as a plain deal: every
    decision is taken as it is met, so the state between draws is the game's own state with the
    decisions behind it. Sets a strategy does not name take the game's fallback."""

    game: DecisionGame[RecordT]
    strategies: tuple[Choices, Choices]
    _chosen: tuple[dict[InfoSet, Action], dict[InfoSet, Action]] = field(
        init=False, repr=False, compare=False)
    # the last state settled and its next draw: an engine asks for the next draw of the state
    # it was just given (one item, replaced whole: safe to share between threads)
    _last: list[tuple[State, Draw | None]] = field(init=False, repr=False, compare=False)
    # the action taken at each decision object the game hands out, by its id (the decision is
    # kept with it, so that the id stays its own): a game that keeps its decisions, as most
    # do, is then answered without hashing an information set at every node
    _taken: dict[int, tuple[Decision, Action]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_chosen", (dict(self.strategies[0]),
                                             dict(self.strategies[1])))
        object.__setattr__(self, "_last", [(_UNSET, None)])
        object.__setattr__(self, "_taken", {})

    @property
    def round_cards(self) -> int:
        return self.game.round_cards

    @property
    def accepts_jokers(self) -> bool:
        return self.game.accepts_jokers

    def _settled(self, state: State) -> State:
        """``state`` with every decision before the next draw (or the end) taken."""
        game = self.game
        step = game.step(state)
        while isinstance(step, Decision):
            found = self._taken.get(id(step))
            state = game.act(state, found[1] if found is not None and found[0] is step
                             else self._choose(step))
            step = game.step(state)
        self._last[0] = (state, step)
        return state

    def _choose(self, decision: Decision) -> Action:
        chosen = self._chosen[decision.actor].get(decision.infoset) \
            if len(decision.actions) > 1 else decision.actions[0]
        action = chosen if chosen is not None else self.game.fallback(decision)
        if len(self._taken) < _TAKEN_KEPT:  # bounded: a game may make a decision per node
            self._taken[id(decision)] = (decision, action)
        return action

    def start(self) -> State:
        return self._settled(self.game.start())

    def next_draw(self, state: State) -> Draw | None:
        last = self._last[0]
        if last[0] is state:
            return last[1]
        step = self.game.step(state)
        assert not isinstance(step, Decision)  # taken by _settled
        return step

    def advance(self, state: State, labels: tuple[Label, ...]) -> State:
        return self._settled(self.game.advance(state, labels))

    def record(self, state: State) -> RecordT:
        return self.game.record(state)
