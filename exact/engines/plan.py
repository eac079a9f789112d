"""The engine plan: which counting engine serves each bet, and why.

Layer: engines, above the model; the engines know no game (the games call them).

Every command that counts bets asks :func:`plan` (``analyze``, ``design``, bet-file
validation, the batch evaluator behind ``eor``, ``edge`` and ``simulate``, and the end-play
question with cards known at positions), so a bet is served by the same engine whatever the
command, and ``--engine NAME`` either runs that engine or is refused by name
(:class:`EngineError`): never silently another.

An engine is one object (:class:`Engine`): its name, its :meth:`~Engine.estimate` of what a
question costs (one bet's :class:`Demand`: the game, the bet, its deal and the scope: one
shoe, a batch of shoes, or one shoe with cards known at positions), refused with a reason
where it does not serve the question, and the entries that run it: :meth:`~Engine.count`
(one shoe), :meth:`~Engine.batch` (a matrix of shoes) and :meth:`~Engine.known` (cards known
at positions). ``auto`` takes the cheapest estimate (ties: the engine registered first), and
the choice's reason names that estimate and the others. Adding an engine is one call,
:func:`register`: every scope its estimate serves then runs it (docs/explanation/engines.md).
The shipped engines are :mod:`exact.engines.shipped`.

>>> from exact.games import get_game
>>> from exact.analysis.bet_analysis import game_bets
>>> game = get_game("punto-banco")
>>> bets = {bet.id: bet for bet in game_bets(game)}
>>> chosen = plan(game, [bets["tie"], bets["perfect-pairs"]])
>>> [(choice.bet.id, choice.engine) for choice in chosen.choices]
[('tie', 'compiled'), ('perfect-pairs', 'staged')]
>>> print(chosen.choices[1].reason)  # doctest: +ELLIPSIS
staged: est. 1.7e5 units (2,862 hand signatures, ...; compiled refused: ...; direct est. 9.0e7; ...)
>>> try:
...     plan(game, [bets["perfect-pairs"]], engine="compiled")
... except EngineError as error:
...     print(error)  # doctest: +ELLIPSIS
engine compiled cannot serve bet perfect-pairs: ... the compile limit of 200000 (auto: staged)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb, prod
from typing import TYPE_CHECKING, Any, Literal

from exact.core.cards import Card, Shoe
from exact.core.enumerator import Deal, Draw, Record, RecordT, estimated_leaves, fixed_stages
from exact.errors import EngineError as EngineError
from exact.model.bets import Bet, value_only, values_only
from exact.model.contracts import CardPositions, StageRoles, draw_stages
from exact.model.features import ORDER, Needs
from exact.model.game import Game

if TYPE_CHECKING:  # the batch entries take and give numpy arrays; planning loads no numpy
    import numpy as np

Scope = Literal["shoe", "batch", "known"]
SCOPES: tuple[Scope, ...] = ("shoe", "batch", "known")
# What `--engine` accepts: auto, or any registered engine that a command can run on one shoe.
AUTO = "auto"

# Distinct rounds a compiled deal may enumerate once; beyond this the compile walk takes
# minutes and gigabytes (e.g. ranks and suits of both hands: 1,378 x 1,378 pairs of hands).
COMPILE_LIMIT = 200_000
# The shoe every estimate is made on: the plan chooses once per bet and scope, whatever the
# shoe, so that every command and every shoe of a bet runs the same engine (a run's own shoe
# is held to the work budget as the engine runs: exact.core.work).
YARDSTICK_DECKS = 8


__all__ = ["AUTO", "COMPILE_LIMIT", "ENGINES", "Choice", "Demand", "Engine", "EngineError",
           "Estimate", "Plan", "choose", "command_engines", "engine", "engine_names",
           "estimates", "plan", "register", "served", "staged_refusal"]


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
    def draws(self) -> bool:
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
    :meth:`estimate` does not refuse. Register one with :func:`register`."""

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


# The registered engines, in order of registration (which breaks a tie between estimates).
# The shipped ones are registered by exact.engines.shipped, which the package imports.
ENGINES: list[Engine] = []


def register(new: Engine, before: str | None = None) -> None:
    """Add the engine ``new`` to the plan: every scope whose entry it defines and whose
    questions its estimate serves runs it when it is the cheapest (or named by ``--engine``).
    ``before``: the engine it precedes in ties (default: last).

    >>> engine_names()[:3]
    ('factorised', 'compiled', 'staged')
    """
    if not new.name or any(known.name == new.name for known in ENGINES):
        raise ValueError(f"an engine needs a name of its own, not {new.name!r}")
    names = engine_names()
    ENGINES.insert(names.index(before) if before in names else len(ENGINES), new)


def engine_names() -> tuple[str, ...]:
    """The registered engines, in order of registration."""
    return tuple(known.name for known in ENGINES)


def command_engines() -> tuple[str, ...]:
    """The choices of ``--engine``: ``auto`` and every engine that counts one shoe."""
    return (AUTO, *(known.name for known in ENGINES if known.serves_scope("shoe")))


def _named(name: str) -> Engine:
    return engine(name)


def engine(name: str) -> Engine:
    """The registered engine called ``name`` (:class:`EngineError` for an unknown name)."""
    for known in ENGINES:
        if known.name == name:
            return known
    raise EngineError(f"unknown engine {name!r}; known: {', '.join((AUTO, *engine_names()))}")


@dataclass(frozen=True)
class Choice:
    """The engine that serves one bet, its estimate, and why (the estimates it was chosen
    over)."""

    bet: Bet
    engine: str
    reason: str
    units: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Plan:
    """Per bet (in the order given), the engine that serves it."""

    scope: Scope
    choices: tuple[Choice, ...]

    def groups(self, game: Game[RecordT]
               ) -> dict[tuple[str, Deal[RecordT]], tuple[Needs, list[Bet]]]:
        """Bets by (engine, deal): each group is counted once, every bet of it reads its
        counts off the same enumeration."""
        out: dict[tuple[str, Deal[RecordT]], tuple[Needs, list[Bet]]] = {}
        for choice in self.choices:
            needs = game.needs(choice.bet.features)
            key = (choice.engine, game.deal(needs))
            out.setdefault(key, (needs, []))[1].append(choice.bet)
        return out

    def by_engine(self) -> dict[str, list[Bet]]:
        """The bets each chosen engine serves, in the order given."""
        out: dict[str, list[Bet]] = {}
        for choice in self.choices:
            out.setdefault(choice.engine, []).append(choice.bet)
        return out


def choose(game: Game[Any], bet: Bet, scope: Scope = "shoe", engine: str = AUTO) -> Choice:
    """The engine that serves ``bet`` (``engine``, or the cheapest for ``auto``)."""
    return _choose(game, bet, scope, engine, tuple(ENGINES))


def estimates(game: Game[Any], bet: Bet, scope: Scope) -> list[tuple[Engine, Estimate]]:
    """Every registered engine's estimate of ``bet`` in ``scope`` (an engine without the
    scope's entry refuses it)."""
    return list(_estimates(Demand(game, bet, scope), tuple(ENGINES)))


def _estimates(demand: Demand, engines: tuple[Engine, ...]
               ) -> tuple[tuple[Engine, Estimate], ...]:
    out = []
    for known in engines:
        if not known.serves_scope(demand.scope):
            answer = Estimate.refused(
                {"shoe": "it serves only rounds with cards known at positions",
                 "batch": "it counts one shoe at a time (no batch form)",
                 "known": "it cannot force a card at a position"}[demand.scope])
        else:
            answer = known.estimate(demand)
        out.append((known, answer))
    return tuple(out)


@lru_cache(maxsize=4096)  # a warm analysis asks again for the same bets: keep it sub-millisecond
def _choose(game: Game[Any], bet: Bet, scope: Scope, name: str,
            engines: tuple[Engine, ...]) -> Choice:
    answers = _estimates(Demand(game, bet, scope), engines)
    cheapest = _cheapest(answers)
    if name != AUTO:
        named = _named(name)
        answer = next(estimate for known, estimate in answers if known is named)
        if answer.serves:
            return Choice(bet, name, _reason(named, answers), answer.units)
        other = f" (auto: {cheapest.name})" if cheapest is not None else ""
        raise EngineError(f"engine {name} cannot serve bet {bet.id}: {answer.reason}{other}")
    if cheapest is None:
        reasons = "; ".join(f"{known.name}: {answer.reason}" for known, answer in answers)
        raise EngineError(f"no engine serves bet {bet.id} ({scope}): {reasons}")
    units = next(answer.units for known, answer in answers if known is cheapest)
    return Choice(bet, cheapest.name, _reason(cheapest, answers), units)


def _cheapest(answers: Sequence[tuple[Engine, Estimate]]) -> Engine | None:
    """The engine of the least estimate (the first registered among equals), or None."""
    served = [(answer.units, index, known) for index, (known, answer) in enumerate(answers)
              if answer.units is not None]
    return min(served, key=lambda item: item[:2])[2] if served else None


def _reason(chosen: Engine, answers: Sequence[tuple[Engine, Estimate]]) -> str:
    """``chosen``'s estimate and what it is, then every other engine's estimate or refusal:
    ``compiled: est. 1.2e6 units (its walk ...; staged est. 3.4e7; direct refused: ...)``."""
    own = next(answer for known, answer in answers if known is chosen)
    others = [f"{known.name} est. {units_text(answer.units)}" if answer.units is not None
              else f"{known.name} refused: {answer.reason}"
              for known, answer in answers if known is not chosen]
    return (f"{chosen.name}: est. {units_text(own.units or 0)} units "
            f"({'; '.join([own.reason, *others])})")


def units_text(units: int) -> str:
    """Work units as the plan's reasons print them: exact below 10,000, else two figures.

    >>> units_text(9_999), units_text(1_234_567), units_text(70_000_000)
    ('9,999', '1.2e6', '7.0e7')
    """
    if units < 10_000:
        return f"{units:,}"
    mantissa, exponent = f"{units:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def plan(game: Game[Any], bets: Sequence[Bet], scope: Scope = "shoe", engine: str = AUTO
         ) -> Plan:
    """Which engine serves each of ``bets`` of ``game`` for ``scope`` (one shoe, a batch of
    shoes, or one shoe with known positions); :class:`EngineError` names a refusal."""
    return Plan(scope, tuple(choose(game, bet, scope, engine) for bet in bets))


def served(game: Game[Any], bets: Sequence[Bet], scope: Scope = "batch"
           ) -> tuple[list[Bet], list[Bet]]:
    """``bets`` split into those some engine serves for ``scope`` and the others."""
    yes, no = [], []
    for bet in bets:
        try:
            choose(game, bet, scope)
        except EngineError:
            no.append(bet)
        else:
            yes.append(bet)
    return yes, no
