"""What the staged evaluator reads of each hand: feature values per hand of a stage (and per
pair of hands for the features reading both), grouped into *signatures*, and the event every
pair of signatures settles, each condition evaluated once per signature with the vectorised
expression evaluator.

Layer: engines, above the model; the engines know no game (the games call them).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Generic

import numpy as np

from exact.core.cards import Label, View
from exact.core.enumerator import Deal, Draw, RecordT
from exact.model.bets import Bet
from exact.model.expressions import EvaluationError
from exact.model.game import Game

Hand = tuple[Label, ...]  # a stage's cards, sorted by class


class HandReader(Generic[RecordT]):
    """Feature values per hand (and per pair of hands, for features reading both), read off
    the records of ``deal``, a deal of ``game`` (of its record type ``RecordT``)."""

    def __init__(self, game: Game[RecordT], deal: Deal[RecordT], stages: Sequence[tuple[str, Draw]],
                 hands: list[list[tuple[Label, ...]]]) -> None:
        self.game, self.deal, self.hands = game, deal, hands
        self.stages = [name for name, _ in stages]
        self.views = [draw.view for _, draw in stages]
        self._columns: dict[tuple[int, str], np.ndarray] = {}

    def _record(self, *chosen: tuple[Label, ...]) -> RecordT:
        state = self.deal.start()
        for labels in chosen:
            state = self.deal.advance(state, labels)
        return self.deal.record(state)

    def _stage_of(self, feature: str) -> int | None:
        stages = self.game.features[feature].needs.stages
        inside = [i for i, name in enumerate(self.stages) if name in stages]
        return inside[0] if len(inside) == 1 and len(stages) == 1 else None

    def _values(self, stage: int, feature: str) -> np.ndarray:
        """The feature's value for every hand of one stage, as a column or row vector."""
        if (stage, feature) not in self._columns:
            read = self.game.features[feature].read
            fixed = [hands[0] for hands in self.hands]
            values = np.empty(len(self.hands[stage]), dtype=object)
            for position, hand in enumerate(self.hands[stage]):
                fixed[stage] = hand
                values[position] = read(self._record(*fixed))
            shape = (-1, 1) if stage == 0 else (1, -1)
            self._columns[stage, feature] = values.reshape(shape)
        return self._columns[stage, feature]

    def _coarse_hands(self, stage: int, feature: str) -> tuple[list[int], list[Hand]]:
        """Each hand of a stage as ``feature`` sees it (only the attributes it needs there):
        an id per hand, and the distinct coarse hands."""
        attributes = self.game.features[feature].needs.attributes(self.stages[stage])
        view, coarse = self.views[stage], View(attributes)
        ids: dict[Hand, int] = {}
        per_hand = []
        for hand in self.hands[stage]:
            seen = tuple(sorted((view.coarsen(label, coarse) for label in hand),
                                key=coarse.index.__getitem__))
            per_hand.append(ids.setdefault(seen, len(ids)))
        return per_hand, list(ids)

    def _cross_table(self, feature: str, first: list[Hand], second: list[Hand]) -> np.ndarray:
        """A feature reading both hands, once per pair of hands as it sees them."""
        read = self.game.features[feature].read
        table = np.empty((len(first), len(second)), dtype=object)
        for row, hand in enumerate(first):
            for column, other in enumerate(second):
                table[row, column] = read(self._record(hand, other))
        return table

    def cross_reads(self, bet: Bet) -> int:
        """The reads of :meth:`_cross_table` that :meth:`signatures` takes for ``bet``."""
        return sum(prod(len(self._coarse_hands(stage, name)[1])
                        for stage in range(len(self.hands)))
                   for name in sorted(bet.features) if self._stage_of(name) is None)

    def signatures(self, bet: Bet) -> tuple[list[np.ndarray], np.ndarray]:
        """The signature of every hand of each stage, and the index of the settling event
        for every combination of signatures (a vector for one stage, a matrix for two).

        A hand's *signature* is the values of the features that read its stage only, and,
        for each feature reading both stages, the hand as that feature sees it: conditions
        then run once per pair of signatures, not once per pair of hands.
        """
        names = sorted(bet.features)
        per_stage = {name: self._stage_of(name) for name in names}
        crossing = [n for n in names if per_stage[n] is None]
        coarse = {(stage, n): self._coarse_hands(stage, n)
                  for stage in range(len(self.hands)) for n in crossing}
        environment: dict[str, np.ndarray] = {}
        signatures, distinct_keys = [], []
        for stage in range(len(self.hands)):
            own = [n for n in names if per_stage[n] == stage]
            columns = [self._values(stage, n).ravel().tolist() for n in own]
            columns += [coarse[stage, n][0] for n in crossing]
            keys = list(zip(*columns, strict=True)) if columns else [()] * len(self.hands[stage])
            distinct = list(dict.fromkeys(keys))
            position = {key: i for i, key in enumerate(distinct)}
            signatures.append(np.array([position[k] for k in keys], dtype=np.int64))
            distinct_keys.append(distinct)
            for column_index, name in enumerate(own):
                values = np.empty(len(distinct), dtype=object)
                values[:] = [key[column_index] for key in distinct]
                environment[name] = values.reshape((-1, 1) if stage == 0 else (1, -1))
        for offset, name in enumerate(crossing):
            table = self._cross_table(name, coarse[0, name][1], coarse[1, name][1])
            rows, cells = (np.array([key[len(key) - len(crossing) + offset] for key in keys])
                           for keys in distinct_keys)
            environment[name] = table[rows[:, None], cells[None, :]]
        shape = tuple(len(keys) for keys in distinct_keys)
        return signatures, self._first_event(bet, environment, shape)

    @staticmethod
    def _first_event(bet: Bet, environment: dict[str, np.ndarray],
                     shape: tuple[int, ...]) -> np.ndarray:
        if len(shape) == 1:
            environment = {k: v.reshape(-1) for k, v in environment.items()}
        chosen = np.full(shape, len(bet.events) - 1, dtype=np.int64)
        for index in range(len(bet.events) - 2, -1, -1):
            condition = bet.events[index].condition
            assert condition is not None
            try:
                holds = np.broadcast_to(condition.evaluate_array(environment), shape)
            except EvaluationError as error:
                raise bet.evaluation_error(index, error) from None
            chosen[holds] = index
        return chosen
