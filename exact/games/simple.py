"""A bet game of fixed card groups, for a new game to subclass: name the stages (each dealt
one group of cards, no draw depending on the cards) and the features; the deal, the records
and the bet files come from here.

Layer: games, the top: a game's code may import every generic layer, no other game.

A record is one tuple of :class:`~exact.core.cards.Label` per stage, in the order of
:attr:`StagesGame.stages` (a stage not needed by the bets in play is ``()``); the cards of a
stage of several cards come sorted by class. The documentation's "Adding a game" shows a whole game
(Dragon Tiger) written on it.

>>> from exact.core.cards import Shoe
>>> from exact.model.features import Feature, Needs
>>> class HighCard(StagesGame):
...     id, name, stages = "high-card", "High card", {"card": 1}
...     features = {"ace": Feature("ace", "the card is an ace", Needs.of(card=["rank"]),
...                                lambda record: record[0][0].rank == "A")}
>>> game = HighCard()
>>> rounds = game.enumerate(game.needs(["ace"]), Shoe.standard(1))
>>> sum(count for record, count in rounds.counts.items() if game.read(record, "ace"))
4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from exact.core.cards import Card, Label, View
from exact.core.enumerator import Draw, deal_from_cards
from exact.model.features import Needs
from exact.model.game import Game

StagesRecord = tuple[tuple[Label, ...], ...]


@dataclass(frozen=True)
class StagesDeal:
    """The deal of :class:`StagesGame` for one set of needs: the needed stages, finer views
    first (a view may only get coarser along a deal), each one group of its cards."""

    stages: tuple[str, ...]  # every stage, in record order
    sizes: tuple[int, ...]  # cards of each stage
    order: tuple[str, ...]  # the stages dealt, in dealing order
    views: Mapping[str, View] = field(hash=False)
    accepts_jokers: bool = False

    def __hash__(self) -> int:
        return hash((self.stages, self.sizes, self.order, tuple(sorted(self.views.items()))))

    @property
    def round_cards(self) -> int:
        return sum(self.sizes)

    @property
    def fixed_stages(self) -> tuple[tuple[str, Draw], ...]:
        return tuple((stage, Draw(self.views[stage], self._size(stage))) for stage in self.order)

    def _size(self, stage: str) -> int:
        return self.sizes[self.stages.index(stage)]

    def start(self) -> StagesRecord:
        return tuple(() for _ in self.stages)

    def next_draw(self, state: StagesRecord) -> Draw | None:
        for stage in self.order:
            if not state[self.stages.index(stage)]:
                return Draw(self.views[stage], self._size(stage))
        return None

    def advance(self, state: StagesRecord, labels: tuple[Label, ...]) -> StagesRecord:
        stage = next(stage for stage in self.order if not state[self.stages.index(stage)])
        index = self.stages.index(stage)
        return state[:index] + (labels,) + state[index + 1:]

    def record(self, state: StagesRecord) -> StagesRecord:
        return state


class StagesGame(Game[StagesRecord]):
    """A bet game of fixed card groups: a subclass sets ``id``, ``name``, ``stages`` (stage
    name -> cards dealt to it, in record order), ``features`` and ``bet_files``."""

    stages: ClassVar[Mapping[str, int]]
    bet_files: tuple[Path, ...] = ()

    def deal(self, needs: Needs) -> StagesDeal:
        names = tuple(self.stages)
        dealt = [stage for stage in names if stage in needs.stages]
        # finer stages first, and each sees what the stages after it see
        dealt.sort(key=lambda stage: -len(needs.attributes(stage)))
        later: set[str] = set()
        views = {}
        for stage in reversed(dealt):
            later |= set(needs.attributes(stage))
            views[stage] = View(tuple(later))
        return StagesDeal(names, tuple(self.stages.values()), tuple(dealt), views)

    def record_from_cards(self, cards: Sequence[Card]) -> StagesRecord:
        """The record of the round dealt from ``cards`` (every stage, in record order)."""
        every = Needs.of(**{stage: ["rank", "suit"] for stage in self.stages})
        deal = self.deal(every)
        ordered = StagesDeal(deal.stages, deal.sizes, deal.stages, deal.views)
        return deal_from_cards(ordered, cards)[0]
