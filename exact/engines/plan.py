"""The engine plan: which counting engine serves each bet, and why.

Layer: engines, above the model; the engines know no game (the games call them).

Every command that counts bets asks :func:`plan` (``analyze``, ``design``, bet-file
validation, and the batch evaluator behind ``eor``, ``edge`` and ``simulate``), so a bet is
served by the same engine whatever the command, and ``--engine NAME`` either runs that engine
or is refused by name (:class:`EngineError`): never silently another.

An engine *declares* what it serves: :meth:`Engine.judge` looks at one bet's
:class:`Demand` (the game, the bet, the deal its needs plan, and the scope: one shoe, a batch
of shoes, or one shoe with cards known at positions) and answers whether it serves it, with
the reason. ``auto`` takes the first engine of :data:`ENGINES` (in order of preference) that
serves the bet. Adding an engine is one entry: :func:`register` it (with the preference it
takes), and give the commands a way to run it (``RUNNERS`` of :mod:`exact.analysis.bet_analysis` for
one shoe, ``BATCH_RUNNERS`` of :mod:`exact.engines.batch` for batches).

>>> from exact.games import get_game
>>> from exact.analysis.bet_analysis import game_bets
>>> game = get_game("punto-banco")
>>> bets = {bet.id: bet for bet in game_bets(game)}
>>> chosen = plan(game, [bets["tie"], bets["perfect-pairs"]])
>>> [(choice.bet.id, choice.engine) for choice in chosen.choices]
[('tie', 'compiled'), ('perfect-pairs', 'staged')]
>>> try:
...     plan(game, [bets["perfect-pairs"]], engine="compiled")
... except EngineError as error:
...     print(error)  # doctest: +ELLIPSIS
engine compiled cannot serve bet perfect-pairs: ... the compile limit of 200000 (auto: staged)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import comb
from typing import Any, Literal, Protocol

from exact.core.cards import Shoe
from exact.core.enumerator import Deal, Draw, Record, RecordT, estimated_leaves, fixed_stages
from exact.core.work import LEAF_UNITS, WORK_LIMIT
from exact.errors import EngineError as EngineError
from exact.model.bets import Bet, value_only, values_only
from exact.model.contracts import CardPositions, DealtPositions
from exact.model.features import ORDER, Needs
from exact.model.game import Game

Scope = Literal["shoe", "batch", "known"]
# What `--engine` accepts: auto, or any registered engine that a command can run on one shoe.
AUTO = "auto"

# Distinct rounds a compiled deal may enumerate once; beyond this the compile walk takes
# minutes and gigabytes (e.g. ranks and suits of both hands: 1,378 x 1,378 pairs of hands).
COMPILE_LIMIT = 200_000


__all__ = ["AUTO", "COMPILE_LIMIT", "ENGINES", "Choice", "Demand", "Engine", "EngineError",
           "Plan", "choose", "classes_refusal", "command_engines", "engine_names", "plan",
           "register", "served", "staged_refusal"]


@dataclass(frozen=True)
class Demand:
    """What one bet asks of an engine: its game, its deal and the scope of the question."""

    game: Game[Any]  # the plan reads names and needs, never a record
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
    def rounds(self) -> int | None:
        """Distinct rounds of a fixed-stage deal (multisets of classes per group), or None."""
        if self.stages is None:
            return None
        rounds = 1
        for _, draw in self.stages:
            rounds *= comb(len(draw.view.labels) + draw.count - 1, draw.count)
        return rounds


class Engine(Protocol):
    """A counting engine as the plan sees it: a name, and what it serves."""

    @property
    def name(self) -> str:
        """The engine's name, as ``--engine`` takes it."""
        ...

    def judge(self, demand: Demand) -> tuple[bool, str]:
        """Whether the engine serves ``demand``, and why (or why not), in a short phrase."""
        ...


def deals_hand_pairs(game: Game[Any]) -> bool:
    """Whether ``game``'s deal is a pair of hands with card positions, which factorised
    counting needs (:class:`~exact.model.contracts.CardPositions`)."""
    return isinstance(game, CardPositions) and bool(game.card_positions)


def factorised_serves(game: Game[Any], needs: Needs) -> bool:
    """Whether factorised counting (:mod:`exact.engines.factorised`) should count bets with
    ``needs``: a game whose deal is a pair of hands
    (:class:`~exact.model.contracts.CardPositions`), bets that read a card attribute beyond its
    value together with third cards, or a hand's first or second card by position (the bets on
    which the compiled walk over rank-and-suit classes is slow). Bets on unordered first pairs
    alone stay with the staged evaluator. Decided here, without loading that numpy-heavy
    module.

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
    return "draws" in needs.stages or any(needs.ordered(stage) for stage in needs.stages)


@dataclass(frozen=True)
class Factorised:
    """Factorised counting (:mod:`exact.engines.factorised`): the value walk, with what a bet reads
    beyond values (rank, suit, colour of any card, by position or counted) as multiplicities
    from the shoe's attribute composition; one shoe, or a batch of shoes."""

    name: str = "factorised"

    def judge(self, demand: Demand) -> tuple[bool, str]:
        if demand.value_only:  # (decided before the numpy-heavy module is loaded)
            return False, "it serves card attributes beyond values; this bet reads values"
        if demand.scope == "known" and not isinstance(demand.game, DealtPositions):
            return False, ("it forces known cards only in a game that says which positions "
                           "its draws fill")
        if not factorised_serves(demand.game, demand.needs):
            cheaper = self._cheaper_than_staged(demand)
            if cheaper:
                return True, cheaper
            return False, ("it serves card attributes read with the third cards or by "
                           "position, on a game dealing a pair of hands, or a feature reading "
                           "both hands' first cards when that walks fewer patterns")
        if demand.scope == "known":  # compiled for the one question: the value walk is cut
            return True, ("card attributes with the third cards or by position: the value "
                          "sequences with the known cards' values, times attribute "
                          "multiplicities, the known cards forced")
        return True, ("card attributes with the third cards or by position: value sequences "
                      "times attribute multiplicities")


    @staticmethod
    def _cheaper_than_staged(demand: Demand) -> str | None:
        """The cost rule between this engine and the staged evaluator for a bet on the first
        cards read in unordered pairs (which :func:`factorised_serves` leaves to the staged
        evaluator): the staged evaluator settles the bet once per pair of hand signatures on
        every run, up to every pair of hands (``demand.rounds``: about two million at ranks and
        suits) when a feature reads both hands, a few cells otherwise (Perfect Pairs: per-hand
        features); this engine walks its patterns of card classes once (counted from the
        value walk in milliseconds), then reads them from the disk cache. So: this engine when
        a feature reads both hands and its patterns are fewer than the pairs of hands (the
        nines-by-suit bet: 341,055 against 2,047,761)."""
        from exact.engines import factorised

        game, bet = demand.game, demand.bet
        if demand.scope == "known" or demand.rounds is None:
            return None
        if not deals_hand_pairs(game):
            return None
        if not any(len(game.features[name].needs.stages) > 1 for name in bet.features):
            return None
        compiled = factorised.FactorisedBet(game, (bet,), factorised.DECK, compile=False)
        patterns = compiled.patterns(game)
        if patterns >= demand.rounds:
            return None
        return (f"a feature reads both hands: {patterns:,} patterns compiled once, fewer than "
                f"the {demand.rounds:,} pairs of hands the staged evaluator settles every run")


@dataclass(frozen=True)
class Classes:
    """Class-by-class counting (:mod:`exact.engines.classes`): the value rounds times
    per-class polynomials in the attribute counts and positions the bet reads; one shoe,
    a batch of shoes, or cards known at positions. Preferred to factorised counting for the
    bets it serves that read the third cards (whose patterns of card classes grow with the
    bet: millions for a count of hearts); the bets on the first cards alone stay there."""

    name: str = "classes"

    def judge(self, demand: Demand) -> tuple[bool, str]:
        if demand.value_only or demand.values_by_position:
            return False, "it serves card attributes beyond values; this bet reads values"
        if "draws" not in demand.needs.stages:
            return False, ("it serves bets reading the third cards (the first cards alone: "
                           "factorised counting walks few patterns)")
        if demand.scope == "known" and not isinstance(demand.game, DealtPositions):
            return False, ("it forces known cards only in a game that says which positions "
                           "its draws fill")
        reason = classes_refusal(demand.game, demand.bet)
        if reason is not None:
            return False, reason
        return True, ("card attributes counted or by position with the third cards: value "
                      "rounds times per-class polynomials (no pattern of card classes)")


def classes_refusal(game: Game[Any], bet: Bet) -> str | None:
    """Why class-by-class counting cannot serve ``bet`` (the rule of
    :func:`exact.engines.classes.refusal`, stated here so that planning loads no numpy)."""
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
        return (f"feature {name} reads a group of cards that is neither a tally nor one card "
                "by position")
    return None


@dataclass(frozen=True)
class Compiled:
    """The compiled polynomial (:mod:`exact.engines.compiled`): one walk of the deal's class
    sequences, then any shoe is a product of falling factorials (batches in one matrix)."""

    name: str = "compiled"

    def judge(self, demand: Demand) -> tuple[bool, str]:
        if demand.scope == "known":
            return False, "it cannot force a card at a position"
        if demand.value_only:
            return True, "it reads card values only: a small compiled polynomial"
        if demand.values_by_position:  # at most twice the classes' orders of the value walk
            return True, ("it reads card values, some by position: a small compiled "
                          "polynomial")
        if demand.rounds is not None:
            if demand.rounds <= COMPILE_LIMIT:
                return True, f"its first cards form {demand.rounds} distinct rounds, compiled once"
            return False, (f"its first cards form {demand.rounds} distinct rounds, beyond the "
                           f"compile limit of {COMPILE_LIMIT}")
        if demand.scope == "batch":
            return False, ("it reads ranks or suits together with the third cards: its compiled "
                           "batch form would take minutes and gigabytes")
        # the walk's leaves, estimated in milliseconds over every class of a full shoe: ranks
        # or suits with the third cards are hundreds of millions (minutes, gigabytes)
        leaves = estimated_leaves(demand.deal, Shoe.standard(8))
        if leaves * LEAF_UNITS > WORK_LIMIT:
            return False, (f"its compiled walk of ranks or suits with the third cards has about "
                           f"{leaves:,} rounds, past the work bound (README: Input limits)")
        return True, "one shoe: the compiled walk of ranks or suits with the third cards"


@dataclass(frozen=True)
class Staged:
    """The staged evaluator (:mod:`exact.engines.staged`): shoe-independent event grids of one or
    two fixed groups of first cards; a shoe costs only its weights."""

    name: str = "staged"

    def judge(self, demand: Demand) -> tuple[bool, str]:
        if demand.scope == "known":
            return False, "it cannot force a card at a position"
        refusal = staged_refusal(demand.stages)
        if refusal is not None:
            return False, refusal
        return True, f"one or two fixed groups of first cards ({demand.rounds} distinct rounds)"


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


@dataclass(frozen=True)
class Direct:
    """The recursive enumerator (:mod:`exact.core.enumerator`): any deal, one shoe at a time."""

    name: str = "direct"

    def judge(self, demand: Demand) -> tuple[bool, str]:
        if demand.scope == "batch":
            return False, "it counts one shoe at a time (no batch form)"
        if demand.scope == "known":
            return False, "it cannot force a card at a position"
        return True, "the recursive enumeration of the shoe"


@dataclass(frozen=True)
class Forced:
    """The forced walk of :mod:`exact.engines.live`: the next round with cards known at
    positions (a deal of one or two fixed groups of first cards read off the staged event
    grids instead, only the hands holding the known cards)."""

    name: str = "forced"

    def judge(self, demand: Demand) -> tuple[bool, str]:
        if demand.scope != "known":
            return False, "it serves only rounds with cards known at positions"
        if isinstance(demand.game, DealtPositions) and staged_refusal(demand.stages) is None:
            return True, ("cards known at positions, fixed groups of first cards: the staged "
                          "event grids over the hands holding the known cards (the deal "
                          "walked if the grid reads more pairs of hands than that walk "
                          "settles; a known card the groups do not deal only leaves the shoe)")
        return True, "cards known at positions: the bets' deal walked with those cards forced"


# In order of preference: `auto` takes the first that serves a bet.
ENGINES: list[Engine] = [Classes(), Factorised(), Compiled(), Staged(), Direct(), Forced()]


def register(engine: Engine, before: str | None = None) -> None:
    """Add ``engine`` to the plan, preferred to the engine called ``before`` (default: last).

    >>> len(engine_names()) >= 5 and engine_names()[:3] == ("classes", "factorised", "compiled")
    True
    """
    if any(known.name == engine.name for known in ENGINES):
        raise ValueError(f"an engine called {engine.name!r} is already registered")
    names = engine_names()
    ENGINES.insert(names.index(before) if before in names else len(ENGINES), engine)


def engine_names() -> tuple[str, ...]:
    """The registered engines, in order of preference."""
    return tuple(engine.name for engine in ENGINES)


def command_engines() -> tuple[str, ...]:
    """The choices of ``--engine``: ``auto`` and every engine that serves one shoe."""
    return (AUTO, *(name for name in engine_names() if name != "forced"))


@dataclass(frozen=True)
class Choice:
    """The engine that serves one bet, and why."""

    bet: Bet
    engine: str
    reason: str


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


def _engine(name: str) -> Engine:
    for engine in ENGINES:
        if engine.name == name:
            return engine
    raise EngineError(f"unknown engine {name!r}; known: {', '.join((AUTO, *engine_names()))}")


def choose(game: Game[Any], bet: Bet, scope: Scope = "shoe", engine: str = AUTO) -> Choice:
    """The engine that serves ``bet`` (``engine``, or the preferred one for ``auto``)."""
    return _choose(game, bet, scope, engine, engine_names())


@lru_cache(maxsize=4096)  # a warm analysis asks again for the same bets: keep it sub-millisecond
def _choose(game: Game[Any], bet: Bet, scope: Scope, engine: str,
            registered: tuple[str, ...]) -> Choice:
    demand = Demand(game, bet, scope)
    if engine != AUTO:
        serves, reason = _engine(engine).judge(demand)
        if serves:
            return Choice(bet, engine, reason)
        fallback = _auto(demand)
        other = f" (auto: {fallback.engine})" if fallback is not None else ""
        raise EngineError(f"engine {engine} cannot serve bet {bet.id}: {reason}{other}")
    chosen = _auto(demand)
    if chosen is None:
        reasons = "; ".join(f"{e.name}: {e.judge(demand)[1]}" for e in ENGINES)
        raise EngineError(f"no engine serves bet {bet.id} ({scope}): {reasons}")
    return chosen


def _auto(demand: Demand) -> Choice | None:
    for engine in ENGINES:
        serves, reason = engine.judge(demand)
        if serves:
            return Choice(demand.bet, engine.name, reason)
    return None


def plan(game: Game[Any], bets: Sequence[Bet], scope: Scope = "shoe", engine: str = AUTO) -> Plan:
    """Which engine serves each of ``bets`` of ``game`` for ``scope`` (one shoe, a batch of
    shoes, or one shoe with known positions); :class:`EngineError` names a refusal."""
    return Plan(scope, tuple(choose(game, bet, scope, engine) for bet in bets))


def served(game: Game[Any], bets: Sequence[Bet], scope: Scope = "batch"
           ) -> tuple[list[Bet], list[Bet]]:
    """``bets`` split into those some engine serves for ``scope`` and the others."""
    yes = [bet for bet in bets if _auto(Demand(game, bet, scope)) is not None]
    return yes, [bet for bet in bets if bet not in yes]
