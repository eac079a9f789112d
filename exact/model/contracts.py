"""What a game offers the analyses, as typed contracts.

Layer: model, above the core; the engines' algorithms and the games use these contracts.

A *bet game* (:class:`BetGame`) deals rounds and settles bets written as data: its features,
a deal per set of needs, its bet files and its rules. A *strategy game*
(:class:`~exact.model.strategy_game.StrategyGame`) has decision points (each side's information
sets and their actions, with the sequence leading to each: its ``sets`` and ``parents``) and
settlement (the payoff of every pair of sequences: its ``leaves``); best response and the
sequence-form equilibria of :mod:`exact.engines.strategy_games` run on any of them.

What only some games offer is a named capability, checked with ``isinstance`` (not found by
``getattr``): the facts the bet-file validation reads (:class:`WinsWhen`, :class:`SymmetricBets`,
:class:`SymmetricFeatures`), bets that need a main wager (:class:`MainWager`), rules to state
(:class:`HasRules`), and where each card sits in a record (:class:`CardPositions`, what
factorised counting needs). A deal of fixed card groups is
:class:`exact.core.enumerator.FixedStageDeal`. :func:`require` names what a game does not offer.

What a game runs its own way above the games (its ``analyze``, ``eor``, ``edge`` or ``settle``
command, its play on real shoes) is no method of the game and no capability here: the game
declares that code, and the options its commands take, in its plugin record
(:class:`exact.model.plugins.GamePlugin`), which the layer that needs it reads.

>>> from exact.games import get_game
>>> isinstance(get_game("punto-banco"), BetGame), isinstance(get_game("century21"), BetGame)
(True, False)
>>> require(get_game("century21"), BetGame)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exact.errors.CapabilityError: century21 does not offer a bet table (deal, features, ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from exact.core.cards import Card, Shoe
from exact.core.enumerator import Deal, RecordT, check_shoe
from exact.errors import CapabilityError as CapabilityError
from exact.model.features import Feature, Needs
from exact.model.strategy_game import StrategyGame as StrategyGame

__all__ = ["BetGame", "CapabilityError", "CardPositions", "DealtPositions", "HasRules",
           "MainWager", "StageRoles", "StrategyGame", "SymmetricBets",
           "SymmetricFeatures", "WinsWhen", "check_dealable", "draw_stages", "hand_stages",
           "require"]


@runtime_checkable
class BetGame(Protocol[RecordT]):
    """A game of bets as data: rounds dealt from a shoe, read through features.

    Type parameter: ``RecordT``, the game's record type, which its deal hands out and its
    features read (as in :class:`exact.model.game.Game`); ``isinstance`` checks take the bare
    ``BetGame`` (generics are erased at run time)."""

    id: str
    name: str
    bet_files: tuple[Path, ...]

    @property
    def features(self) -> Mapping[str, Feature[RecordT]]: ...

    def deal(self, needs: Needs) -> Deal[RecordT]: ...

    def needs(self, feature_names: Iterable[str]) -> Needs: ...

    def read(self, record: RecordT, feature: str) -> object: ...

    def record_from_cards(self, cards: Sequence[Card]) -> RecordT: ...

    def describe_rules(self) -> list[str]: ...


@runtime_checkable
class WinsWhen(Protocol):
    """A game that states, per bet id, the feature condition under which the bet wins."""

    wins_when: Mapping[str, str]


@runtime_checkable
class SymmetricBets(Protocol):
    """A game whose Player and Banker sides mirror each other: the bets that are their own
    mirror image."""

    symmetric_bets: frozenset[str]


@runtime_checkable
class SymmetricFeatures(Protocol):
    """The features that read the same with Player and Banker swapped (besides the
    ``player_``/``banker_`` twins)."""

    symmetric_features: frozenset[str]


@runtime_checkable
class MainWager(Protocol):
    """A game whose side bets may be placed only with a main wager (by bet id)."""

    needs_main_wager: frozenset[str]


@runtime_checkable
class HasRules(Protocol):
    """A game with a rule set to state (its ``rules``)."""

    rules: Any


@runtime_checkable
class DealtPositions(Protocol):
    """A game that says which positions of a round (1 = first card dealt) each draw of its
    deal fills, and the stage dealing each position: known cards are forced there
    (:mod:`exact.engines.live`), the bets' own deal walked instead of every position card by card.

    >>> from exact.games import get_game
    >>> isinstance(get_game("nine-and-nines"), DealtPositions)
    True
    """

    position_stages: tuple[str, ...]

    def dealt_positions(self, before: Any, after: Any) -> tuple[int, ...]: ...


@runtime_checkable
class CardPositions(Protocol):
    """A game whose records are a pair of hands: every card's (hand, index) position, and the
    positions each stage of its deal deals (factorised counting, :mod:`exact.engines.factorised`).

    >>> from exact.games import get_game
    >>> isinstance(get_game("punto-banco"), CardPositions)
    True
    >>> isinstance(get_game("chemin-de-fer"), CardPositions)
    False
    """

    card_positions: tuple[tuple[int, int], ...]
    stage_positions: Mapping[str, tuple[tuple[int, int], ...]]


@runtime_checkable
class StageRoles(Protocol):
    """A game whose deal names its stages by role, so that the engines read roles, never a
    game's stage names: the stages that deal each hand's first cards (one stage a hand, in
    the order of the record's hands) and the stages whose draws depend on the cards dealt
    before (third cards). Factorised counting walks the hands' stages one by one or as
    unordered pairs and the draws after them; the plan and the end-play walk ask whether a
    bet reads a drawing stage.

    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> isinstance(game, StageRoles), len(game.hand_stages), len(game.draw_stages)
    (True, 2, 1)
    """

    hand_stages: tuple[str, ...]
    draw_stages: frozenset[str]


def hand_stages(game: object) -> tuple[str, ...]:
    """The stages dealing each hand's first cards (:class:`StageRoles`), or none declared."""
    return game.hand_stages if isinstance(game, StageRoles) else ()


def draw_stages(game: object) -> frozenset[str]:
    """The stages whose draws depend on earlier cards (:class:`StageRoles`), or none
    declared."""
    return game.draw_stages if isinstance(game, StageRoles) else frozenset()


_WHAT: dict[type, str] = {
    BetGame: "a bet table (deal, features, record_from_cards): it is a strategy game; "
             "its own command is `analyze {id}`"}

def require(game: object, capability: type) -> None:
    """Nothing if ``game`` offers ``capability``, else :class:`CapabilityError` naming what it
    lacks (``type``, not ``type[Capability]``: a protocol class is abstract to a type checker)."""
    if isinstance(game, capability):
        return
    game_id = getattr(game, "id", type(game).__name__)
    what = _WHAT.get(capability, capability.__name__).format(id=game_id)
    raise CapabilityError(f"{game_id} does not offer {what}")


class _ReadsFeatures(Protocol):
    @property
    def features(self) -> frozenset[str]: ...


def check_dealable(game: BetGame[Any], shoe: Shoe, bets: Iterable[_ReadsFeatures]) -> None:
    """Refuse (:class:`~exact.errors.ShoeError`) a shoe that cannot deal a round of every one
    of ``bets`` (none: a round of the game), before any plan or count: each bet's deal (what
    its features need the cards to show) says its counting unit, which costs the deal's
    planning, not the engines' choice or a count (seconds on card-level bets).

    >>> from exact.games import get_game
    >>> from exact.model.bets import game_bets
    >>> game = get_game("punto-banco")
    >>> check_dealable(game, Shoe.parse("A:1,A:1"), game_bets(game)[:1])
    Traceback (most recent call last):
    ...
    exact.errors.ShoeError: a shoe of 2 cards cannot deal a round: the counting unit needs 6 cards
    """
    wanted = {frozenset(bet.features) for bet in bets} or {frozenset()}
    deals = [game.deal(game.needs(features)) for features in sorted(wanted, key=sorted)]
    for deal in sorted(deals, key=lambda deal: -deal.round_cards):  # the largest unit said
        check_shoe(deal, shoe)
