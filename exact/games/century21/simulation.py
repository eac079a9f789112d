"""21st Century Baccarat on real shoes: the shoe simulation's play
(:class:`~exact.analysis.shoe_play.ShoePlay`).

Layer: games, the top: the game's own analysis code, which may import every generic layer.

One seat heads-up against the Player/Dealer. Before each hand the unseen composition is
evaluated exactly by the compiled evaluator (:mod:`exact.games.century21.batch`) under a pure
strategy pair *held fixed*, chosen on the rules' full shoe (House Way both sides by default),
and the hand is dealt from the physical cards by the same pair's
:class:`~exact.games.century21.game.Century21Deal`, in the order the deal asks for them (the
player's two cards, the dealer's up and down cards, then the third cards), and settled by
:func:`record_outcome`. Two wagers are tracked, both the player's bet on the same hands:

* ``player``: per unit of the table's minimum bet, after its collection (what the player
  pays to sit in; perfect play bets when this exact edge is positive);
* ``player-before-collection``: the same bet before the collection.

Settings come from :attr:`SimulationConfig.options` (``rules``: a rule file's TOML text;
``strategy``: house | best | dealer-best; ``information``: total | cards) and the shoe from
:attr:`ShoeRules.decks` with jokers in the rules' proportion.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from exact.analysis.removal import RemovalTable
from exact.analysis.shoe_play import Edges, SimulationConfig, representatives
from exact.core.cards import CARDS, Card
from exact.core.enumerator import deal_from_cards
from exact.core.parsing import load_toml, shown_all
from exact.errors import RuleError, SimulationError
from exact.games.century21.batch import (
    CLASS_KEYS,
    HELD_FIXED,
    PLAYER,
    class_key,
    class_removal_table,
    class_weights,
    evaluator_for,
    shoe_of_decks,
)
from exact.games.century21.game import (
    ROUND_CARDS,
    Century21,
    Century21Record,
    card_class,
    record_outcome,
)
from exact.games.century21.rules import Rules

OPTIONS = ("rules", "strategy", "information")
AFTER, BEFORE = "player", "player-before-collection"


def rules_from_text(text: str, source: str = "--rules") -> Rules:
    """Rules from a rule file's TOML text (workers get the text, not a path they may lack)."""
    try:
        return Rules.from_mapping(load_toml(text), source)
    except tomllib.TOMLDecodeError as error:
        raise RuleError(f"{source}: cannot read rules: {error}") from None


class Century21Play:
    """The player's wager on real shoes (module docstring): a
    ``ShoePlay[Century21Record]``."""

    round_cards = ROUND_CARDS
    tag_keys = CLASS_KEYS

    def __init__(self, game: Century21, config: SimulationConfig) -> None:
        options = dict(config.options)
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise SimulationError(f"century21: unknown option(s) {', '.join(unknown)}")
        if config.bet_texts:
            raise SimulationError("century21 has one bet, the player's: --bets does not apply")
        self.rules = rules_from_text(options["rules"]) if "rules" in options else game.rules
        self.evaluator = evaluator_for(self.rules, options.get("strategy", "house"),
                                       options.get("information", "total"))
        self.shoe = shoe_of_decks(self.rules, config.shoe.decks)
        self.full = np.array(self.shoe.counts, dtype=np.int64)
        self.decks = max((self.shoe.size - self.shoe.jokers) // 52, 1)  # as `eor century21`
        self.weights = class_weights(self.shoe)
        self.bet = self.rules.table.min_bet
        self.fee = self.rules.collection_fee(self.bet)
        names = {AFTER: "Player net of fee",  # the fee and bet: describe()
                 BEFORE: "Player before fee"}
        missing = [wager for wager in config.bet_ids if wager not in names]
        if missing:
            raise SimulationError(f"century21 tracks {', '.join(names)}; "
                                  f"unknown: {shown_all(missing)}")
        self.names = {wager: names[wager] for wager in config.bet_ids or names}
        self.card_class = np.array([card_class(card) for card in CARDS], dtype=np.int64)
        self._cards = representatives(self.card_class.tolist())
        self._outcomes: dict[Century21Record, Fraction] = {}

    @property
    def _fee_per_unit(self) -> Fraction:
        return self.fee / self.bet

    def tag_key(self, card: Card) -> str | None:
        return class_key(card.rank)

    def read_round(self, classes: tuple[int, ...]) -> tuple[Century21Record, int]:
        return deal_from_cards(self.evaluator.deal, [self._cards[c] for c in classes])

    def edges(self, compositions: np.ndarray) -> Edges:
        numerators, over = self.evaluator.numerators(compositions)
        gross = [int(n) for n in numerators[PLAYER]]
        denominators = [int(d) for d in over[PLAYER]]
        # n/d - p/q = (n q - p d) / (d q): Python integers, which int64 need not hold
        p, q = self._fee_per_unit.numerator, self._fee_per_unit.denominator
        after = ([n * q - p * d for n, d in zip(gross, denominators, strict=True)],
                 [d * q for d in denominators])
        return {wager: after if wager == AFTER else (gross, denominators)
                for wager in self.names}

    def pays(self, records: Sequence[Century21Record]) -> dict[str, list[Fraction]]:
        gross = [self._pay(record) for record in records]
        fee = self._fee_per_unit
        return {wager: [pay - fee for pay in gross] if wager == AFTER else gross
                for wager in self.names}

    def _pay(self, record: Century21Record) -> Fraction:
        # a few hundred distinct hands recur: each is settled once per process
        pay = self._outcomes.get(record)
        if pay is None:
            pay = self._outcomes[record] = record_outcome(self.rules, record)[1]
        return pay

    def removal(self) -> RemovalTable:
        table = class_removal_table(self.evaluator, self.shoe)
        base = table.base["player"]
        effects = table.effects["player"]
        bases = {AFTER: base - self._fee_per_unit, BEFORE: base}
        return RemovalTable(table.shoe, table.depth, {w: bases[w] for w in self.names},
                            {w: effects for w in self.names}, dict(self.names),
                            {w: {} for w in self.names})

    def describe(self) -> dict[str, object]:
        return {"strategy": self.evaluator.strategy, "information": self.evaluator.deal.mode,
                "held_fixed": HELD_FIXED, "bet": str(self.bet), "collection": str(self.fee),
                "jokers": self.shoe.jokers,
                "per": "units of the minimum bet; one seat heads-up against the dealer"}

    def headline(self) -> tuple[str, ...]:
        # the pair held fixed and the stakes the per-unit figures are read against
        return (f"strategy {self.evaluator.strategy}", f"bet {self.bet}",
                f"collection {self.fee}")
