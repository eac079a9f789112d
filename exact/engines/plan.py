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
:func:`register`: every scope its estimate serves then runs it (docs/explanation/engine-plan.md).
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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from exact.core.enumerator import Deal, RecordT
from exact.engines.engine import COMPILE_LIMIT as COMPILE_LIMIT
from exact.engines.engine import SCOPES as SCOPES
from exact.engines.engine import YARDSTICK_DECKS as YARDSTICK_DECKS
from exact.engines.engine import Demand as Demand
from exact.engines.engine import Engine as Engine
from exact.engines.engine import Estimate as Estimate
from exact.engines.engine import Scope as Scope
from exact.engines.engine import deals_hand_pairs as deals_hand_pairs
from exact.engines.engine import factorised_serves as factorised_serves
from exact.engines.engine import staged_refusal as staged_refusal
from exact.engines.shipped import SHIPPED
from exact.errors import EngineError as EngineError
from exact.model.bets import Bet
from exact.model.features import Needs
from exact.model.game import Game

# What `--engine` accepts: auto, or any registered engine that a command can run on one shoe.
AUTO = "auto"

__all__ = ["AUTO", "COMPILE_LIMIT", "ENGINES", "Choice", "Demand", "Engine", "EngineError",
           "Estimate", "Plan", "choose", "command_engines", "engine", "engine_names",
           "estimates", "plan", "register", "served", "staged_refusal"]


# The registered engines, in order of registration (which breaks a tie between estimates):
# the shipped ones first.
ENGINES: list[Engine] = list(SHIPPED)


def register(new: Engine, before: str | None = None) -> None:
    """Add the engine ``new`` to the plan: every scope whose entry it defines and whose
    questions its estimate serves runs it when it is the cheapest (or named by ``--engine``).
    ``before``: the engine it precedes in ties (default: last).

    >>> engine_names()[:3]
    ('classes', 'factorised', 'compiled')
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
