"""What an engine is, as the plan sees it: the question it is asked (:class:`Demand`), its
answer (:class:`Estimate`) and its entries (:class:`Engine`), with the rules that a few of the
shipped engines' estimates share (which deals the staged evaluator serves, which bets are
factorised counting's own). The plan (:mod:`exact.engines.plan`) chooses among registered
engines; the shipped ones are :mod:`exact.engines.shipped`.

Layer: engines, above the model; the engines know no game (the games call them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import comb, prod
from typing import TYPE_CHECKING, Any, Literal

from exact.core.cards import CARDS, Card, Shoe
from exact.core.enumerator import Deal, Draw, Record, estimated_leaves, fixed_stages
from exact.model.bets import Bet
from exact.model.contracts import CardPositions, StageRoles, draw_stages
from exact.model.features import ORDER, Feature, Needs
from exact.model.game import Game
from exact.model.settling import value_only, values_only

if TYPE_CHECKING:  # the batch entries take and give numpy arrays; planning loads no numpy
    import numpy as np

Scope = Literal["shoe", "batch", "known"]
SCOPES: tuple[Scope, ...] = ("shoe", "batch", "known")
# Distinct rounds a compiled deal may enumerate once; beyond this the compile walk takes
# minutes and gigabytes (e.g. ranks and suits of both hands: 1,378 x 1,378 pairs of hands).
COMPILE_LIMIT = 200_000
# The shoe every estimate is made on: the plan chooses once per bet and scope, whatever the
# shoe, so that every command and every shoe of a bet runs the same engine (a run's own shoe
# is held to the work budget as the engine runs: exact.core.work).
YARDSTICK_DECKS = 8




@dataclass(frozen=True)
class Estimate:
    """An engine's answer to a question: its cost in work units (:mod:`exact.core.work`), or
    None when it does not serve the question, and why, in a short phrase."""

    units: int | None
    reason: str

    @classmethod
    def refused(cls, reason: str) -> Estimate:
        return cls(None, reason)

    @property
    def serves(self) -> bool:
        return self.units is not None


@dataclass(frozen=True)
class Demand:
    """What one bet asks of an engine: its game, its deal and the scope of the question."""

    game: Game[Any]  # the plan reads needs and roles, never a record
    bet: Bet
    scope: Scope

    @cached_property
    def needs(self) -> Needs:
        return self.game.needs(self.bet.features)

    @cached_property
    def deal(self) -> Deal[Record]:
        return self.game.deal(self.needs)

    @cached_property
    def value_only(self) -> bool:
        return value_only(self.game, self.bet)

    @cached_property
    def values_by_position(self) -> bool:
        """Whether the bet reads card values alone, some of them by position (a hand's first
        card's value): the compiled walk keeps the value classes and their order only."""
        return values_only(self.game, self.bet)

    @cached_property
    def stages(self) -> tuple[tuple[str, Draw], ...] | None:
        return fixed_stages(self.deal)

    @cached_property
    def groups(self) -> tuple[int, ...] | None:
        """Per fixed stage of the deal, its distinct groups of classes (multisets), or None."""
        if self.stages is None:
            return None
        return tuple(comb(len(draw.view.labels) + draw.count - 1, draw.count)
                     for _, draw in self.stages)

    @cached_property
    def rounds(self) -> int | None:
        """Distinct rounds of a fixed-stage deal (multisets of classes per group), or None."""
        return None if self.groups is None else prod(self.groups)

    @cached_property
    def leaves(self) -> int:
        """The rounds a walk of the deal over card classes visits on the yardstick shoe
        (:data:`YARDSTICK_DECKS` decks): a fixed-stage deal's distinct rounds, exactly; any
        other deal's estimated in milliseconds (:func:`estimated_leaves`, fewer probes for
        bets on values alone, whose walks are small whatever the estimate says). The common
        measure of the walking engines' estimates."""
        if self.rounds is not None:
            return self.rounds
        return _leaves(self.deal, 32 if self.values_by_position else 256)

    @cached_property
    def drawn(self) -> bool:
        """Whether the bet reads a stage whose draws depend on earlier cards (third cards),
        by the game's roles (:class:`~exact.model.contracts.StageRoles`)."""
        return bool(self.needs.stages & draw_stages(self.game))

    @cached_property
    def reads_both_hands(self) -> bool:
        """Whether a feature of the bet reads more than one stage (both hands, say), which a
        grid of hand signatures settles once per pair of them."""
        features = self.game.features
        return any(len(features[name].needs.stages) > 1 for name in self.bet.features)


@lru_cache(maxsize=256)
def _leaves(deal: Deal[Record], probes: int) -> int:
    return estimated_leaves(deal, Shoe.standard(YARDSTICK_DECKS), probes)


class Engine:
    """A counting engine: its name (as ``--engine`` takes it), its estimate of a question,
    and its entries, one per scope. An engine serves the scopes whose entries it defines (the
    others say so: :class:`NotImplementedError`) and, within them, the questions its
    :meth:`estimate` does not refuse. Register one with :func:`exact.engines.plan.register`."""

    name: str = ""

    def estimate(self, demand: Demand) -> Estimate:
        """The cost of ``demand`` in work units, or a refusal with its reason."""
        raise NotImplementedError

    def count(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet],
              shoe: Shoe) -> list[list[int]]:
        """Per bet (all served by ``deal``, the deal of ``needs``), its exact event counts
        for ``shoe``, over ``N!/(N-r)!``."""
        raise NotImplementedError(f"engine {self.name} does not count one shoe")

    def work(self, game: Game[Any], deal: Deal[Any], bets: Sequence[Bet], shoe: Shoe) -> int:
        """The work units of :meth:`count` that can be counted before any of it is done
        (drawn from the run's budget before the run: :mod:`exact.core.work`); the rest is
        drawn as it goes."""
        return 0

    def batch(self, game: Game[Any], deal: Deal[Any], needs: Needs, bets: Sequence[Bet]
              ) -> Callable[[np.ndarray], list[np.ndarray]]:
        """A function of a (shoes x 53) count matrix giving, per bet, its (shoes x events)
        exact counts over ``N!/(N-r)!``."""
        raise NotImplementedError(f"engine {self.name} does not count batches of shoes")

    def known(self, game: Game[Any], shoe: Shoe, bets: Sequence[Bet],
              known: Mapping[int, Card]) -> list[list[int]]:
        """Per bet, its exact event counts for the next round dealt from ``shoe`` (the
        unseen cards, the known ones among them) with the ``known`` cards forced at their
        positions (1 = the first card dealt): over ``(N-k)!/(N-r)!``."""
        raise NotImplementedError(f"engine {self.name} does not force known cards")

    def serves_scope(self, scope: Scope) -> bool:
        """Whether the engine defines the entry of ``scope``."""
        entry = {"shoe": "count", "batch": "batch", "known": "known"}[scope]
        return getattr(type(self), entry) is not getattr(Engine, entry)


def deals_hand_pairs(game: Game[Any]) -> bool:
    """Whether ``game``'s deal is a pair of hands with card positions and stages named by
    role, which factorised counting needs (:class:`~exact.model.contracts.CardPositions`,
    :class:`~exact.model.contracts.StageRoles`)."""
    return (isinstance(game, CardPositions) and bool(game.card_positions)
            and isinstance(game, StageRoles) and len(game.hand_stages) == 2)


def classes_refusal(game: Game[Any], bet: Bet) -> str | None:
    """Why class-by-class counting cannot serve ``bet`` (the rule of
    :func:`exact.engines.classes.refusal`, stated here so that planning loads no numpy): every
    feature read beyond values is a tally of cards, one card by position or an order-free
    group of positions."""
    if not deals_hand_pairs(game):
        return "it serves games whose records are hands of positioned cards"
    for name in sorted(bet.features):
        feature = game.features[name]
        if not any(a not in ("value", ORDER) for _, a in feature.needs.pairs):
            continue
        if feature.counts is not None and feature.cards is not None:
            continue
        if feature.cards is not None and len(feature.cards) == 1 and not feature.order_free:
            continue
        if two_sided(feature) is not None or (feature.cards is not None and feature.order_free):
            continue
        return (f"feature {name} reads a group of cards that is neither a tally, one card "
                "by position, nor an order-free group of positions")
    return None


def two_sided(feature: Feature[Any]) -> tuple[str, str, str] | None:
    """(attribute, one value, the other) when ``feature`` reads an order-free group of cards
    (one card is one) by one attribute that takes two values on a deck (colour: every card
    dealt one colour): the multiset it reads is then one count, a tally of one value among the
    group's dealt cards, which class-by-class counting serves; else None.

    >>> from exact.games import get_game
    >>> features = get_game("punto-banco").features
    >>> two_sided(features["all_same_color"]), two_sided(features["player_pair"])
    (('colour', 'black', 'red'), None)
    >>> two_sided(features["player_card3_colour"]), two_sided(features["player_card3_suit"])
    (('colour', 'black', 'red'), None)
    """
    fine = {a for _, a in feature.needs.pairs if a not in ("value", ORDER)}
    if feature.cards is None or not (feature.order_free or len(feature.cards) == 1) or \
            len(fine) != 1:
        return None
    attribute, = fine
    values = sorted({getattr(card, attribute) for card in CARDS if not card.is_joker})
    if len(values) != 2:
        return None
    return attribute, values[0], values[1]


def factorised_serves(game: Game[Any], needs: Needs) -> bool:
    """Whether bets with ``needs`` are factorised counting's own (:mod:`exact.engines.factorised`):
    a game whose deal is a pair of hands (:class:`~exact.model.contracts.CardPositions`), bets
    that read a card attribute beyond its value together with the drawing stages (by the
    game's roles), or a hand's first or second card by position (the bets on which the
    compiled walk over rank-and-suit classes is slow). Bets on unordered first pairs alone are
    left to the cost comparison with the staged evaluator. Decided here, without loading that
    numpy-heavy module.

    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> [factorised_serves(game, game.needs(names)) for names in (["winner", "all_same_color"],
    ...     ["player_card1_colour"], ["winner"], ["player_pair"])]
    [True, True, False, False]
    """
    if not deals_hand_pairs(game):
        return False
    if not any(attribute not in ("value", ORDER) for _, attribute in needs.pairs):
        return False
    # without third cards and read in unordered pairs, the staged evaluator is quicker
    return bool(needs.stages & draw_stages(game)) or any(needs.ordered(stage)
                                                         for stage in needs.stages)


def staged_refusal(stages: tuple[tuple[str, Draw], ...] | None) -> str | None:
    """Why the staged evaluator cannot serve a deal of fixed ``stages`` (``fixed_stages`` of
    the deal), or None when it serves it: the one statement of its rule, which the evaluator
    checks too (:func:`exact.engines.staged.applicable`, its StagedDeal). It lives here, not in
    that numpy-heavy module, so that planning loads no numpy."""
    if stages is None:
        return "its deal draws cards that depend on earlier cards (no fixed stages)"
    if not 1 <= len(stages) <= 2:
        return f"its deal has {len(stages)} fixed stages (1 or 2 served)"
    return None
