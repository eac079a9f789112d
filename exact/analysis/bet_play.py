"""How the games with a bet table play on real shoes (:class:`BetPlay`, the
:class:`~exact.analysis.shoe_play.ShoePlay` of every game without its own): the batch
evaluator gives the exact edges, each round is read from the cards dealt and every bet
settled by its definition.

Layer: analysis, above the engines; :mod:`exact.analysis.simulation` deals the shoes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from exact.analysis.removal import RANK_WEIGHTS, RemovalTable, effects_of_removal
from exact.analysis.shoe_play import Edges, SimulationConfig, representatives
from exact.core.cards import JOKER, JOKER_ID, RANKS, Card, Shoe, View
from exact.core.enumerator import Record
from exact.engines.batch import BetEvaluator
from exact.errors import ShoeError, SimulationError
from exact.model.game import Game
from exact.model.settling import settle_records


class BetPlay:
    """The games with a bet table: the batch evaluator gives the edges, each round is read by
    the game's ``record_from_cards`` and every bet settled by its definition."""

    round_cards: int
    tag_keys = RANKS
    weights = RANK_WEIGHTS

    def __init__(self, game: Game, config: SimulationConfig) -> None:
        if config.options:
            raise SimulationError(f"--{config.options[0][0]} does not apply to {game.id}")
        self.game, self.bets = game, config.bets(game)
        self.evaluator = BetEvaluator(game, self.bets)
        self.round_cards = self.evaluator.round_cards
        self.decks = 8 if config.shoe.decks is None else config.shoe.decks
        self.full = np.array([self.decks] * JOKER_ID + [0], dtype=np.int64)
        self.names = {bet.id: bet.name for bet in self.bets}
        # The tracked bets see cards only through the attributes their needs name, and the
        # deal decides what to draw from what it sees: a round dealt from one representative
        # card per class settles every tracked bet and uses as many cards as the real one.
        needs = game.needs(set().union(*(bet.features for bet in self.bets)))
        view = View(tuple({a for stage in needs.stages for a in needs.attributes(stage)}))
        self.card_class = np.array(view.card_class, dtype=np.int64)
        self._cards = representatives(view.card_class)

    def tag_key(self, card: Card) -> str | None:
        return None if card.is_joker else card.rank

    def read_round(self, classes: tuple[int, ...]) -> tuple[Record, int]:
        return _cards_used(self.game, [self._cards[c] for c in classes])

    def edges(self, compositions: np.ndarray) -> Edges:
        numerators, denominators = self.evaluator.numerators(compositions)
        return {bet.id: (numerators[bet.id], denominators[bet.id]) for bet in self.bets}

    def pays(self, records: Sequence[Record]) -> dict[str, list[Fraction]]:
        events = settle_records(self.game, self.bets, list(records))
        return {bet.id: [bet.events[int(e)].pays for e in events[index]]
                for index, bet in enumerate(self.bets)}

    def removal(self) -> RemovalTable:
        return effects_of_removal(self.game, Shoe.standard(self.decks), self.bets,
                                  evaluator=self.evaluator)

    def describe(self) -> dict[str, object]:
        return {}

    def headline(self) -> tuple[str, ...]:
        return ()  # a bet's settings are its definition, listed by list-bets


_LABELS_COUNT_CARDS: dict[str, bool | int] = {}  # game id -> its records show every card dealt
_CHECKED_ROUNDS = 50


def _cards_used(game: Game, cards: Sequence[Card]) -> tuple[Record, int]:
    """The record of the round dealt from the top of ``cards`` and how many cards it used.

    A record normally holds the labels of the cards dealt (:data:`exact.core.cards.Label`), so they
    are counted; this is checked against the shortest dealable prefix on a game's first rounds
    in each process, and a game whose records fail the check is always searched instead (the
    shortest prefix the game can deal a round from: a longer one gives the same round)."""
    record = game.record_from_cards(cards)
    trusted = _LABELS_COUNT_CARDS.get(game.id)
    if trusted is not False:
        used = _labels_in(record)
        if trusted:
            return record, used
    for shortest in range(1, len(cards) + 1):
        try:
            shorter = game.record_from_cards(cards[:shortest])
        except ShoeError:
            continue
        if trusted is None:
            checks = _LABELS_COUNT_CARDS.get(game.id + "#checks", 0) + 1
            _LABELS_COUNT_CARDS[game.id + "#checks"] = checks
            if used != shortest or shorter != record:
                _LABELS_COUNT_CARDS[game.id] = False
            elif checks >= _CHECKED_ROUNDS:
                _LABELS_COUNT_CARDS[game.id] = True
        return shorter, shortest
    raise ShoeError("the shoe ran out of cards in the middle of a round")


def _labels_in(record: object) -> int:
    if isinstance(record, tuple) and len(record) == 4 and isinstance(record[1], str) \
            and record[1] in RANKS + JOKER:
        return 1
    if isinstance(record, tuple | list):
        return sum(_labels_in(item) for item in record)
    return 0
