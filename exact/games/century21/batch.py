"""21st Century Baccarat on many shoes at once: a compiled exact evaluator, effects of removal.

Layer: games, the top: the game's own analysis code, which may import every generic layer.

House Way depends on the shoe. Its drawing rules are fixed, but a hand holding a joker may
declare any total, and its choice (draw or stand, end or continue) is an exact search against
the other side's strategy *on that shoe*
(:meth:`~exact.games.century21.game.GameTable.house_way`); a depleted shoe may turn such a
choice, and lacks some information sets altogether. A compiled polynomial needs one
fixed deal, so the evaluator holds a pure strategy pair fixed, chosen on the rules' full shoe
(House Way both sides by default, or the player's best response to it, or the dealer's), and
evaluates *that pair* exactly on any shoe. Where the search on a depleted shoe would choose
otherwise, :func:`game_table` with its own House Way gives that shoe's re-searched figure.

The pair's :class:`Century21Deal` (eleven value classes: 0-9 and the joker) is compiled once
(:func:`exact.engines.compiled_store.load_or_compile`, keyed by the rule lines, the information
mode and every choice of the pair), each record is settled once to its (how, pay) outcome, and
a batch of shoes is one :class:`BatchProjection` product: exact outcome counts over
``N!/(N-6)!``, in float64, int64 or Python integers as
:func:`exact.engines.batch_numbers.batch_dtype` bounds them.

>>> evaluator = evaluator_for(DEFAULT_RULES)
>>> evaluator.expected_values([Shoe.standard(8, jokers=8)])[PLAYER][0]
Fraction(-1149375068384, 87616138805055)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache, partial
from math import gcd
from typing import Any, cast

import numpy as np

from exact.analysis.removal import RemovalTable, removable_keys, removal_table
from exact.core.cards import JOKER, RANKS, Shoe, rank_value, standard_shoe
from exact.core.enumerator import falling
from exact.core.parsing import shown
from exact.engines import cache
from exact.engines.batch import PayVector, Shoes
from exact.engines.batch_numbers import counts_matrix, shoe_sizes
from exact.engines.compiled import BatchProjection, CompiledDeal
from exact.engines.compiled_store import load_or_compile
from exact.games.century21.game import (
    DEFAULT_RULES,
    JOKER_CLASS,
    ROUND_CARDS,
    Century21Deal,
    Century21Record,
    Mode,
    Strategy,
    StrategyError,
    checked_mode,
    class_counts,
    game_table,
    record_outcome,
    shoe_for,
    two_card_state,
)
from exact.games.century21.rules import Rules
from exact.games.century21.solve import strategy_by_name

PURE_STRATEGIES = ("house", "best", "dealer-best")  # the equilibrium mixes: no single deal
Outcome = tuple[str, Fraction]  # (how the hand was decided, the player's pay per unit)


def fixed_pair(rules: Rules, name: str = "house", mode: Mode = "total"
               ) -> tuple[Strategy, Strategy]:
    """The pure strategy pair ``name`` chosen on the rules' full shoe (module docstring)."""
    if name not in PURE_STRATEGIES:
        raise StrategyError(f"the compiled evaluator holds a pure strategy pair fixed: "
                            f"{', '.join(PURE_STRATEGIES)}, not {shown(name)}")
    return strategy_by_name(game_table(rules, shoe_for(rules), mode), name)


def _key_parts(deal: Century21Deal) -> list[object]:
    """What determines the compiled form: rules, information mode and every pure choice (each
    information set as the plain tuple it is: text, integers, booleans and None)."""
    return [["game", "century21"], ["mode", deal.mode], ["rules", deal.rules.describe()],
            *([side, [[tuple(cast(tuple[object, ...], infoset)), action]
                      for infoset, action in choices]]
              for side, choices in (("player", deal.player), ("dealer", deal.dealer)))]


def _encode_settled(settled: tuple[list[Outcome], np.ndarray]) -> tuple[dict, dict]:
    """Outcomes as JSON ``[how, pay numerator, pay denominator]``, and each record's outcome."""
    outcomes, of_record = settled
    return ({"outcomes": [[how, pay.numerator, pay.denominator] for how, pay in outcomes]},
            {"of_record": of_record})


def _decode_settled(records: int, fields: dict, arrays: dict[str, np.ndarray]
                    ) -> tuple[list[Outcome], np.ndarray]:
    """The settled outcomes of :func:`_encode_settled`, checked against the compiled deal.

    >>> _decode_settled(2, {"outcomes": [["natural", -19, 20]]}, {"of_record": np.zeros(2, int)})
    ([('natural', Fraction(-19, 20))], array([0, 0]))
    """
    outcomes = fields["outcomes"]
    if not isinstance(outcomes, list) or not all(
            isinstance(o, list) and len(o) == 3 and isinstance(o[0], str)
            and type(o[1]) is int and type(o[2]) is int and o[2] > 0 for o in outcomes):
        raise cache.CorruptEntry("outcomes malformed")
    of_record = cache.check_indices(arrays["of_record"], len(outcomes), "of_record")
    if len(of_record) != records:
        raise cache.CorruptEntry("not one outcome per record")
    return [(how, Fraction(numerator, denominator)) for how, numerator, denominator in outcomes
            ], of_record


@lru_cache(maxsize=8)
def compiled_pair(deal: Century21Deal) -> CompiledDeal[Century21Record]:
    """The compiled form of ``deal``, from the disk cache when possible."""
    return load_or_compile(deal, _key_parts(deal))


PLAYER = "player"  # the one wager the evaluator tracks: the player's bet


@dataclass(frozen=True)
class Century21Evaluator:
    """Exact outcome counts and player's expected value of one fixed pure strategy pair for
    batches of shoes (rows of :func:`exact.engines.batch_numbers.counts_matrix`): an
    :class:`~exact.engines.batch.Evaluator` of one wager, :data:`PLAYER`."""

    deal: Century21Deal
    strategy: str = "house"

    @property
    def round_cards(self) -> int:
        return self.deal.round_cards

    @cached_property
    def compiled(self) -> CompiledDeal[Century21Record]:
        return compiled_pair(self.deal)

    @cached_property
    def _settled(self) -> tuple[list[Outcome], np.ndarray]:
        """The distinct outcomes, and the outcome of every compiled record; kept in the disk
        cache beside the compiled form (settling its 275,000 records takes most of a second)."""
        return cache.cached(cache.cache_key("outcomes", _key_parts(self.deal)),
                            self._settle, _encode_settled,
                            partial(_decode_settled, len(self.compiled.records)))

    def _settle(self) -> tuple[list[Outcome], np.ndarray]:
        """Every record settled by :func:`record_outcome`, which depends on each hand's first
        two cards only through :func:`two_card_state`: the 275,000 records come to some 7,000
        distinct settlements, each worked out once."""
        rules = self.deal.rules
        outcomes: list[Outcome] = []
        index: dict[tuple[str, int, int], int] = {}  # by integers: hashing a Fraction is slow
        settled: dict[tuple[object, ...], int] = {}
        state = _TWO_CARD_STATES
        of_record = []
        for record in self.compiled.records:
            player, dealer, stopped = record
            key = (state[player[:2]], player[2:], state[dealer[:2]], dealer[2:], stopped)
            found = settled.get(key)
            if found is None:
                how, pay = record_outcome(rules, record)
                outcome = (how, pay.numerator, pay.denominator)
                found = index.get(outcome)
                if found is None:
                    found = index[outcome] = len(outcomes)
                    outcomes.append((how, pay))
                settled[key] = found
            of_record.append(found)
        return outcomes, np.array(of_record, dtype=np.int64)

    @property
    def outcomes(self) -> list[Outcome]:
        return self._settled[0]

    @cached_property
    def projection(self) -> BatchProjection:
        return BatchProjection.build(self.compiled, [(self._settled[1], len(self.outcomes))])

    @cached_property
    def _pays(self) -> PayVector:
        return PayVector.of([pay for _, pay in self.outcomes])

    def counts(self, shoes: Shoes, wider: type | None = None) -> dict[str, np.ndarray]:
        """The player's (shoes x outcomes) array of exact counts over ``N!/(N-6)!`` (``wider``
        as in :meth:`CompiledDeal.batch_type`: int64 or object to cross-check the
        tiers)."""
        matrix = shoes if isinstance(shoes, np.ndarray) else counts_matrix(shoes)
        return {PLAYER: self.projection.counts(matrix, wider)[0]}

    def numerators(self, shoes: Shoes, wider: type | None = None
                   ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """The player's expected values as integer numerators over per-shoe denominators."""
        matrix = shoes if isinstance(shoes, np.ndarray) else counts_matrix(shoes)
        totals = [falling(int(n), ROUND_CARDS) for n in shoe_sizes(matrix)]
        numerators, denominators = self._pays.numerators(self.counts(matrix, wider)[PLAYER],
                                                         totals, wider)
        return {PLAYER: numerators}, {PLAYER: np.array(denominators, dtype=object)}

    def expected_values(self, shoes: Shoes, wider: type | None = None
                        ) -> dict[str, list[Fraction]]:
        """The player's exact expected pay per unit bet (before collection), per shoe."""
        numerators, denominators = self.numerators(shoes, wider)
        return {PLAYER: [Fraction(int(n), int(d)) for n, d in
                         zip(numerators[PLAYER], denominators[PLAYER], strict=True)]}

    def results(self, shoe: Shoe) -> dict[Outcome, int]:
        """Non-zero outcome counts of one shoe, keyed like :attr:`Result.counts`."""
        row = self.counts([shoe])[PLAYER][0]
        return {outcome: int(c) for outcome, c in zip(self.outcomes, row, strict=True) if c}


# the state of every ordered pair of classes (values 0-9, the joker), keyed as a hand's slice
_TWO_CARD_STATES: dict[tuple[int, ...], tuple[object, ...]] = {
    (a, b): two_card_state(a, b) for a in range(JOKER_CLASS + 1) for b in range(JOKER_CLASS + 1)}


@lru_cache(maxsize=8)
def evaluator_for(rules: Rules = DEFAULT_RULES, strategy: str = "house",
                  mode: str = "total") -> Century21Evaluator:
    """The evaluator of the pure pair ``strategy`` fixed on the rules' full shoe."""
    known = checked_mode(mode)
    player, dealer = fixed_pair(rules, strategy, known)
    return Century21Evaluator(Century21Deal.of(rules, known, player, dealer), strategy)


# --- effects of removal by card class ------------------------------------------------------------
CLASS_KEYS = (*RANKS[:9], "T", JOKER)  # A-9, the ten-values as T, the joker
"""The eleven card classes as the effects of removal name them: A-9, ``T`` for every card of
point value 0 (10, J, Q, K: the game sees only values) and ``X`` for the joker."""
_CLASS_RANKS = {"T": ("T", "J", "Q", "K")}


def class_key(rank: str) -> str:
    """The class of a rank (``rank_value`` 0 is the ten-value class ``T``).

    >>> class_key("Q"), class_key("7"), class_key("X")
    ('T', '7', 'X')
    """
    if rank == JOKER:
        return JOKER
    value = rank_value(rank)
    return "T" if value == 0 else CLASS_KEYS[value - 1]


def class_count(shoe: Shoe, key: str) -> int:
    """Cards of class ``key`` in ``shoe``.

    >>> class_count(Shoe.standard(1, jokers=2), "T"), class_count(Shoe.standard(1, jokers=2), "X")
    (16, 2)
    """
    counts = class_counts(shoe)  # values 0-9, then jokers
    return counts[JOKER_CLASS if key == JOKER else 0 if key == "T" else CLASS_KEYS.index(key) + 1]


def class_weights(shoe: Shoe) -> dict[str, int]:
    """The classes' shares of ``shoe`` in lowest terms (4 a rank, 16 ten-values, 1 joker for
    the default shoe): balanced counts sum to zero over it, correlations weigh by it."""
    counts = {key: class_count(shoe, key) for key in CLASS_KEYS}
    divisor = gcd(*counts.values()) or 1
    return {key: count // divisor for key, count in counts.items()}


def remove_class(shoe: Shoe, key: str, cards: int = 1) -> Shoe:
    """``shoe`` less ``cards`` cards of class ``key``, each of the rank with most left (the
    game sees only the value, so which ten-value rank goes changes nothing)."""
    for _ in range(cards):
        ranks = _CLASS_RANKS.get(key, (key,))
        shoe = shoe.remove([max(ranks, key=shoe.count)])
    return shoe


def class_removal_table(evaluator: Century21Evaluator, shoe: Shoe, depth: int = 1,
                        removal_sets: Sequence[str] = ()) -> RemovalTable:
    """Exact change in the player's expected value per card of each class removed."""
    keys = removable_keys(CLASS_KEYS, lambda key: class_count(shoe, key), depth)
    return removal_table(shoe, keys, lambda cards, key: remove_class(cards, key, depth),
                         lambda card: class_key(card.rank),
                         evaluator,
                         {PLAYER: f"Player's bet ({evaluator.strategy} strategy pair)"},
                         depth, removal_sets)


def shoe_of_decks(rules: Rules, decks: int | None) -> Shoe:
    """``decks`` full decks with jokers in the rules' proportion (None: the rules' shoe)."""
    return standard_shoe(decks, None, rules.decks, rules.jokers)


# --- the next hand from the cards seen (edge century21) -----------------------------------------
EDGE_STRATEGIES = {
    "house": "House Way both sides, searched on the unseen cards",
    "best": "the player's exact best response to the dealer's House Way on the unseen cards",
}


def next_hand(rules: Rules, shoe: Shoe, mode: Mode = "total") -> dict[str, Any]:
    """The exact house edge of the player's bet on the next hand dealt from ``shoe`` (the
    unseen cards; the player's expected loss per unit bet, positive when the player is behind,
    as every output signs it), for each of :data:`EDGE_STRATEGIES`, before and after the
    collection at the table's minimum bet; both strategies are searched afresh on ``shoe``.

    >>> hand = next_hand(DEFAULT_RULES, Shoe.standard(8, jokers=8))
    >>> hand["strategies"]["house"]["house_edge"]["exact"]
    '1149375068384/87616138805055'
    """
    table = game_table(rules, shoe, mode)
    bet = rules.table.min_bet
    fee = rules.collection_fee(bet)
    strategies = {}
    for name, description in EDGE_STRATEGIES.items():
        result = table.evaluate(*strategy_by_name(table, name))
        after = result.edge_with_collection(bet, fee)
        strategies[name] = {"description": description,
                            "house_edge": _exact(-result.edge),
                            "house_edge_with_collection": _exact(-after),
                            "player_advantage": after > 0,
                            # the bet whose win covers the collection (same fee assumed)
                            "break_even_bet": (str(fee / result.edge) if result.edge > 0
                                               else None)}
    return {"game": "century21", "cards_unseen": shoe.size, "information": mode,
            "bet": str(bet), "collection": str(fee),
            "per": "house edge of the player's bet on the next hand: the player's expected loss "
                   "per unit bet", "strategies": strategies}


def _exact(value: Fraction) -> dict[str, object]:
    return {"exact": str(value), "float": float(value)}


HELD_FIXED = ("both sides' pure strategies are held fixed as chosen on the rules' full shoe; "
              "house edge = the player's expected loss per unit bet, before collection")
CLASS_DESCRIPTION = "A-9 by rank, T = every ten-value card (10, J, Q, K), X = joker"
