"""Fast exact evaluation of bets settled on a fixed sequence of card groups.

Bets such as Perfect Pairs or NINES are settled on the first two cards of each hand, seen
through ranks and suits: up to 1,378 distinct hands each, so 1.9 million pairs of hands.
When a deal has no draw that depends on earlier cards (``deal.fixed_stages`` is not
``None``), the enumeration is a product of its groups, and the whole table of pair weights
is computed at once with numpy: the weight of the second hand given the first is the
product of the class counts left after removing the first hand's cards.

Conditions are evaluated once per distinct *signature* (the values of the features that read
one hand only), as a grid over both hands' signatures, with the vectorised expression
evaluator; features that read both hands are read cell by cell (exact but slower).

The result is identical to the recursive enumerator's (tested); counts are in the same unit,
ordered sequences of ``round_cards`` cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import prod

import numpy as np

from exact.bets import Bet
from exact.cards import Label, Shoe, View
from exact.enumerator import Deal, Draw, check_shoe, falling, group_coefficient
from exact.errors import BetFileError
from exact.games.base import Game

_INT64_LIMIT = 2**63 - 1


def applicable(game: Game, deal: Deal, bets: Sequence[Bet]) -> bool:
    """True when ``deal`` is one or two fixed groups and the staged evaluator can serve."""
    stages = getattr(deal, "fixed_stages", None)
    return stages is not None and 1 <= len(stages) <= 2


def staged_counts(game: Game, deal: Deal, bets: Sequence[Bet], shoe: Shoe) -> list[list[int]]:
    """Exact event counts of every bet of ``bets`` (all served by ``deal``) for ``shoe``."""
    check_shoe(deal, shoe)
    stages: tuple[tuple[str, Draw], ...] = deal.fixed_stages  # type: ignore[attr-defined]
    hands, weights = _hand_weights([draw for _, draw in stages], shoe)
    used = sum(draw.count for _, draw in stages)
    fill = falling(shoe.size - used, deal.round_cards - used)
    reader = _Reader(game, deal, stages, hands)
    result = []
    for bet in bets:
        events = reader.events(bet)
        result.append([int(weights[events == index].sum()) * fill
                       for index in range(len(bet.events))])
    return result


def _hand_weights(draws: Sequence[Draw], shoe: Shoe) -> tuple[list[list[tuple[Label, ...]]],
                                                                np.ndarray]:
    """Every group of every stage that the shoe can deal, and the weight of each combination
    (a vector for one stage, a matrix for two: first hand by second hand)."""
    first = draws[0].view
    counts = first.class_counts(shoe)
    groups = _groups(counts, draws[0].count)
    first_weights = [group_coefficient(g) * _falling_product(counts, g) for g in groups]
    hands = [[tuple(first.labels[i] for i in g) for g in groups]]
    dtype: type = np.int64 if shoe.size ** sum(d.count for d in draws) <= _INT64_LIMIT else object
    if len(draws) == 1:
        return hands, np.array(first_weights, dtype=dtype)
    second = draws[1].view
    coarser = [second.index[first.coarsen(label, second)] for label in first.labels]
    remaining = np.array(second.class_counts(shoe), dtype=dtype)
    taken = np.zeros((len(groups), len(second.labels)), dtype=dtype)
    for row, group in enumerate(groups):
        for index in group:
            taken[row, coarser[index]] += 1
    left = remaining[None, :] - taken
    second_groups = _groups(second.class_counts(shoe), draws[1].count)
    hands.append([tuple(second.labels[i] for i in g) for g in second_groups])
    matrix = np.array([group_coefficient(g) for g in second_groups], dtype=dtype)[None, :]
    for position in range(draws[1].count):
        column = np.array([g[position] for g in second_groups])
        repeats = np.array([g[:position].count(g[position]) for g in second_groups], dtype=dtype)
        matrix = matrix * (left[:, column] - repeats[None, :])
    return hands, np.array(first_weights, dtype=dtype)[:, None] * matrix


def _groups(counts: Sequence[int], size: int) -> list[tuple[int, ...]]:
    present = [i for i, count in enumerate(counts) if count]
    return [g for g in combinations_with_replacement(present, size)
            if all(g.count(i) <= counts[i] for i in set(g))]


def _falling_product(counts: Sequence[int], group: tuple[int, ...]) -> int:
    return prod(falling(counts[i], group.count(i)) for i in set(group))


class _Reader:
    """Feature values per hand (and per pair of hands, for features reading both)."""

    def __init__(self, game: Game, deal: Deal, stages: Sequence[tuple[str, Draw]],
                 hands: list[list[tuple[Label, ...]]]) -> None:
        self.game, self.deal, self.hands = game, deal, hands
        self.stages = [name for name, _ in stages]
        self.views = [draw.view for _, draw in stages]
        self._columns: dict[tuple[int, str], np.ndarray] = {}

    def _record(self, *chosen: tuple[Label, ...]) -> object:
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

    def _coarse_hands(self, stage: int, feature: str) -> tuple[list[int], list[tuple]]:
        """Each hand of a stage as ``feature`` sees it (only the attributes it needs there):
        an id per hand, and the distinct coarse hands."""
        attributes = self.game.features[feature].needs.attributes(self.stages[stage])
        view, coarse = self.views[stage], View(attributes)
        ids: dict[tuple, int] = {}
        per_hand = []
        for hand in self.hands[stage]:
            seen = tuple(sorted((view.coarsen(label, coarse) for label in hand),
                                key=coarse.index.__getitem__))
            per_hand.append(ids.setdefault(seen, len(ids)))
        return per_hand, list(ids)

    def _cross_table(self, feature: str, first: list[tuple], second: list[tuple]) -> np.ndarray:
        """A feature reading both hands, once per pair of hands as it sees them."""
        read = self.game.features[feature].read
        table = np.empty((len(first), len(second)), dtype=object)
        for row, hand in enumerate(first):
            for column, other in enumerate(second):
                table[row, column] = read(self._record(hand, other))
        return table

    def events(self, bet: Bet) -> np.ndarray:
        """Index of the settling event for every hand (or pair of hands).

        Conditions run on the grid of hand *signatures*: the values of the features that
        read one hand, and, for each feature reading both, the hand as that feature sees it.
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
            rows, columns = (np.array([key[len(key) - len(crossing) + offset] for key in keys])
                             for keys in distinct_keys)
            environment[name] = table[rows[:, None], columns[None, :]]
        grid = self._first_event(bet, environment, tuple(int(s.max()) + 1 for s in signatures))
        if len(signatures) == 1:
            return grid.reshape(-1)[signatures[0]]
        return grid[signatures[0][:, None], signatures[1][None, :]]

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
            except (TypeError, ZeroDivisionError) as error:
                raise BetFileError(f"{bet.source}: bet {bet.id!r}, event "
                                   f"{bet.events[index].name!r}: cannot evaluate "
                                   f"{condition.text!r}: {error}") from None
            chosen[holds] = index
        return chosen
