"""Exact analysis of a set of bets of one game for one shoe.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

The engine plan (:func:`exact.engines.plan.plan`) names the engine of each bet; bets of one engine
and one deal are enumerated once and every bet of the group reads its event counts off the same
round records. All tables share the denominator N!/(N-r)!.

>>> from exact.core.cards import Shoe
>>> from exact.games import get_game
>>> result = analyze(get_game("punto-banco"), Shoe.standard(8))
>>> result.total
4998398275503360
>>> result.bets["banker"].table().house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from exact.analysis.statistics import BetTable
from exact.core import work
from exact.core.cards import Shoe
from exact.core.enumerator import Deal, falling
from exact.core.parsing import expect
from exact.engines.plan import AUTO, Plan, command_engines, plan
from exact.engines.plan import engine as engine_named
from exact.model.bets import Bet, checked_bets
from exact.model.bets import game_bets as game_bets
from exact.model.contracts import BetGame, check_dealable, require
from exact.model.features import Needs
from exact.model.game import Game
from exact.model.settling import value_only as value_only

__all__ = ["ENGINES", "BetAnalysis", "GameAnalysis", "analyze", "game_bets",
           "value_only"]

ENGINES = command_engines()  # the choices of --engine: auto and each engine of one shoe


@dataclass(frozen=True)
class BetAnalysis:
    """Exact event counts of one bet; its return table under any of its paytables."""

    bet: Bet
    counts: tuple[int, ...]
    total: int

    def table(self, paytable: str | None = None) -> BetTable:
        bet = self.bet.with_paytable(paytable) if paytable else self.bet
        rows = [(e.name, e.pays, c) for e, c in zip(bet.events, self.counts, strict=True)]
        return BetTable.from_counts(bet.id, bet.name, bet.paytable, rows, self.total)

    @cached_property
    def tables(self) -> dict[str, BetTable]:
        return {name: self.table(name) for name in self.bet.paytables}

    def ordered_tables(self) -> list[BetTable]:
        """The bet's tables, its own paytable first."""
        own = self.tables[self.bet.paytable]
        return [own, *(t for name, t in self.tables.items() if name != self.bet.paytable)]

    def to_frame(self):
        """A pandas DataFrame: one row per paytable and event (exact values and floats)."""
        from exact.analysis.frames import frame
        from exact.analysis.statistics import table_rows

        return frame(row for table in self.ordered_tables() for row in table_rows(table))

    def _repr_html_(self) -> str:
        from exact.analysis.statistics import table_html

        return "".join(table_html(table) for table in self.ordered_tables())


@dataclass(frozen=True)
class GameAnalysis:
    """Every analysed bet of one game and shoe."""

    game: Game
    shoe: Shoe
    round_cards: int
    bets: Mapping[str, BetAnalysis] = field(hash=False)
    # the engine plan that counted the bets: each bet's engine and the estimates that chose it
    plan: Plan | None = field(default=None, hash=False, compare=False)

    @property
    def total(self) -> int:
        return falling(self.shoe.size, self.round_cards)

    @property
    def counting_unit(self) -> str:
        n, r = self.shoe.size, self.round_cards
        return (f"ordered sequences of {r} cards dealt from the {n}-card shoe; "
                f"denominator {n}!/({n}-{r})! = {self.total}")

    def all_tables(self) -> list[BetTable]:
        """Every bet's table under every paytable (each bet's own paytable first)."""
        return [table for bet in self.bets.values() for table in bet.ordered_tables()]

    def to_frame(self):
        """A pandas DataFrame with one row per bet, paytable and event: exact counts (int)
        and fractions (``Fraction``) with float columns beside them. Needs pandas.

        >>> from exact.games import get_game
        >>> game = get_game("punto-banco")
        >>> frame = analyze(game, Shoe.standard(8), game_bets(game)[:1]).to_frame()
        >>> frame.loc[0, ["bet", "paytable", "event", "combinations"]].tolist()
        ['banker', 'commission-5%', 'Banker wins', 2292252566437888]
        >>> frame.loc[0, "probability"]
        Fraction(8954111587648, 19524993263685)
        """
        from exact.analysis.frames import frame
        from exact.analysis.statistics import table_rows

        return frame({"game": self.game.id, "shoe_cards": self.shoe.size,
                      "group": bet.bet.group, "own_paytable": table.paytable == bet.bet.paytable,
                      **row}
                     for bet in self.bets.values() for table in bet.ordered_tables()
                     for row in table_rows(table))

    def summary_frame(self):
        """A pandas DataFrame with one row per bet and paytable: house edge, hit frequency,
        variance and SD, top award and its odds (exact and float)."""
        from exact.analysis.frames import frame
        from exact.analysis.statistics import summary_row

        return frame(summary_row(table) for table in self.all_tables())

    def _repr_html_(self) -> str:
        from exact.analysis.statistics import summary_html

        return summary_html(self.all_tables(), f"{self.game.name}: {self.shoe.headline()}")


def analyze(game: Game, shoe: Shoe, bets: Sequence[Bet] | None = None,
            engine: str = AUTO) -> GameAnalysis:
    """Exact analysis of ``bets`` (default: the game's shipped bets) for ``shoe``, each bet
    counted by the engine the plan names (``engine``: ``auto`` or one engine for every bet,
    :class:`~exact.engines.plan.EngineError` if it cannot serve one)."""
    # the wrong type said at the door: each failed deep inside, as an AttributeError, or as a
    # CapabilityError calling None a strategy game
    expect(game, Game, "analyze: game must be a game (exact.games.get_game(GAME_ID))")
    expect(shoe, Shoe, "analyze: shoe must be a Shoe (exact.cards.Shoe.standard(8))")
    expect(engine, str, "analyze: engine must be an engine's name")
    require(game, BetGame)  # a strategy game has its own analysis (CapabilityError)
    bets = game_bets(game) if bets is None else checked_bets(bets, "analyze")
    check_dealable(game, shoe, bets)  # before the plan, which costs seconds on some bets
    with work.budget():  # every bet, event and paytable of the run draws from one bound
        return _analyze(game, shoe, bets, engine)


def _analyze(game: Game, shoe: Shoe, bets: Sequence[Bet], engine: str) -> GameAnalysis:
    chosen = plan(game, bets, "shoe", engine)
    groups = chosen.groups(game)
    _check_work(game, groups, shoe)
    results: dict[str, BetAnalysis] = {}
    round_cards = 0
    for (name, deal), (needs, group) in groups.items():
        round_cards = deal.round_cards
        counts = engine_named(name).count(game, deal, needs, group, shoe)
        for bet, bet_counts in zip(group, counts, strict=True):
            results[bet.id] = BetAnalysis(bet, tuple(bet_counts), falling(shoe.size, round_cards))
    if not bets:
        round_cards = game.deal(Needs()).round_cards
    return GameAnalysis(game, shoe, round_cards, {b.id: results[b.id] for b in bets}, chosen)


def _check_work(game: Game, groups: Mapping[tuple[str, Deal], tuple[Needs, list[Bet]]],
                shoe: Shoe) -> None:
    """The run's work that can be counted before any of it is done, summed over every group
    of bets and checked against the run's bound (:mod:`exact.core.work`): the card-level
    compilations without third cards and the direct walks. The rest (settlements, walks
    counted as they go) is drawn step by step, each step before it runs."""
    total = sum(engine_named(name).work(game, deal, group, shoe)
                for (name, deal), (_needs, group) in groups.items())
    count = sum(len(group) for _, group in groups.values())
    work.check(total, f"the {count} bet{'s' * (count != 1)} of this run together")
