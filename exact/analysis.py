"""Exact analysis of a set of bets of one game for one shoe.

Bets are grouped by what they need of the deal; each group is enumerated once (through the
compiled evaluator, or the direct enumerator on request) and every bet of the group reads its
event counts off the same round records. All tables share the denominator N!/(N-r)!.

>>> from exact.cards import Shoe
>>> from exact.games import get_game
>>> result = analyze(get_game("punto-banco"), Shoe.standard(8))
>>> result.total
4998398275503360
>>> result.bets["banker"].table().house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from exact import staged
from exact.bets import Bet, load_bets
from exact.cards import Shoe
from exact.compiled import Projection
from exact.enumerator import Deal, Record, falling
from exact.errors import BetFileError
from exact.features import Needs
from exact.games.base import Game
from exact.statistics import BetTable

ENGINES = ("compiled", "direct")


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

    def to_frame(self):  # type: ignore[no-untyped-def]
        """A pandas DataFrame: one row per paytable and event (exact values and floats)."""
        from exact.frames import frame, table_rows

        return frame(row for table in self.ordered_tables() for row in table_rows(table))

    def _repr_html_(self) -> str:
        from exact.frames import table_html

        return "".join(table_html(table) for table in self.ordered_tables())


@dataclass(frozen=True)
class GameAnalysis:
    """Every analysed bet of one game and shoe."""

    game: Game
    shoe: Shoe
    round_cards: int
    bets: Mapping[str, BetAnalysis] = field(hash=False)

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

    def to_frame(self):  # type: ignore[no-untyped-def]
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
        from exact.frames import frame, table_rows

        return frame({"game": self.game.id, "shoe_cards": self.shoe.size,
                      "group": bet.bet.group, "own_paytable": table.paytable == bet.bet.paytable,
                      **row}
                     for bet in self.bets.values() for table in bet.ordered_tables()
                     for row in table_rows(table))

    def summary_frame(self):  # type: ignore[no-untyped-def]
        """A pandas DataFrame with one row per bet and paytable: house edge, hit frequency,
        variance and SD, top award and its odds (exact and float)."""
        from exact.frames import frame, summary_row

        return frame(summary_row(table) for table in self.all_tables())

    def _repr_html_(self) -> str:
        from exact.frames import summary_html

        return summary_html(self.all_tables(), f"{self.game.name}: {self.shoe.describe()} "
                                           f"({self.shoe.size} cards)")


def game_bets(game: Game, bet_files: Iterable[Path | str] = ()) -> list[Bet]:
    """The game's shipped bets followed by the bets of ``bet_files`` (ids must be unique)."""
    bets: list[Bet] = []
    for path in (*game.bet_files, *bet_files):
        for bet in load_bets(path, game.features):
            earlier = next((b for b in bets if b.id == bet.id), None)
            if earlier is not None:
                raise BetFileError(f"{path}: bet {bet.id!r}: duplicate id (already defined "
                                   f"in {earlier.source})")
            bets.append(bet)
    return bets


def analyze(game: Game, shoe: Shoe, bets: Sequence[Bet] | None = None,
            engine: str = "compiled") -> GameAnalysis:
    """Exact analysis of ``bets`` (default: the game's shipped bets) for ``shoe``."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}")
    bets = game_bets(game) if bets is None else list(bets)
    # Bets whose needs plan the same deal (e.g. every value-only bet) share one enumeration
    # and one reading of the round features.
    by_deal: dict[Deal, tuple[Needs, list[Bet]]] = {}
    for bet in bets:
        needs = game.needs(bet.features)
        by_deal.setdefault(game.deal(needs), (needs, []))[1].append(bet)
    results: dict[str, BetAnalysis] = {}
    round_cards = 0
    for deal, (needs, group) in by_deal.items():
        round_cards = deal.round_cards
        counts = (_compiled_counts(game, deal, group, shoe) if engine == "compiled"
                  else _direct_counts(game, needs, group, shoe))
        for bet, bet_counts in zip(group, counts, strict=True):
            results[bet.id] = BetAnalysis(bet, tuple(bet_counts), falling(shoe.size, round_cards))
    if not bets:
        round_cards = game.deal(Needs()).round_cards
    return GameAnalysis(game, shoe, round_cards, {b.id: results[b.id] for b in bets})


def value_only(game: Game, bet: Bet) -> bool:
    """Whether ``bet`` reads nothing of the cards but their point values (the cheapest deals)."""
    return all(attribute == "value" for _, attribute in game.needs(bet.features).pairs)


def settle_records(game: Game, bets: Sequence[Bet], records: Sequence[Record]) -> list[np.ndarray]:
    """Event index of each bet for each record.

    Each feature is read once per record and coded as a small integer; a bet's condition then
    runs once per distinct combination of the features it uses (found with numpy), not once
    per record: a few hundred settlements instead of millions for a large deal.
    """
    names = sorted(set().union(*(bet.features for bet in bets)))
    columns: dict[str, tuple[list[object], np.ndarray]] = {}
    for name in names:
        read = game.features[name].read
        codes: dict[object, int] = {}
        column = np.fromiter((codes.setdefault(read(record), len(codes)) for record in records),
                             dtype=np.int64, count=len(records))
        columns[name] = (list(codes), column)
    events = []
    for bet in bets:
        wanted = sorted(bet.features)
        key, radix = np.zeros(len(records), dtype=np.int64), 1
        for name in wanted:
            values, column = columns[name]
            radix *= len(values)
            if radix >= 2**62:  # the combined code would wrap in int64: never for real bets
                raise BetFileError(f"{bet.source}: bet {bet.id!r}: combines too many "
                                   "feature values")
            key = key * len(values) + column
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        settled = [bet.settle({name: columns[name][0][columns[name][1][position]]
                               for name in wanted}) for position in first]
        events.append(np.asarray(settled, dtype=np.int64)[inverse.reshape(-1)]
                      if len(records) else np.empty(0, dtype=np.int64))
    return events


@dataclass(frozen=True)
class _Summation:
    """A bet's projection with its leaves sorted by event: a shoe's event counts are then one
    gather, one product and one segmented sum over term weights shared by every bet of the
    deal. Exact as :meth:`Projection.counts` (same int64 or Python-int products and sums)."""

    term: np.ndarray
    coefficient: np.ndarray
    starts: np.ndarray
    present: np.ndarray
    groups: int

    @classmethod
    def of(cls, projection: Projection) -> _Summation:
        order = np.argsort(projection.group, kind="stable")
        present, starts = np.unique(projection.group[order], return_index=True)
        return cls(projection.term[order], projection.coefficient[order], starts, present,
                   projection.groups)

    def counts(self, weights: np.ndarray) -> list[int]:
        totals = [0] * self.groups
        if len(self.term):
            coefficient = (self.coefficient if weights.dtype == self.coefficient.dtype
                           else self.coefficient.astype(weights.dtype))
            leaves = coefficient * weights[self.term]
            for group, total in zip(self.present, np.add.reduceat(leaves, self.starts),
                                    strict=True):
                totals[int(group)] = int(total)
        return totals


_PROJECTIONS: dict[tuple[Game, Deal, Bet], _Summation] = {}


def _compiled_counts(game: Game, deal: Deal, bets: list[Bet], shoe: Shoe) -> list[list[int]]:
    if staged.applicable(game, deal, bets):
        return staged.staged_counts(game, deal, bets, shoe)
    # SEAM (issue 13 -> issue 9's engine plan): bets reading card attributes beyond values
    # together with third cards are counted on the value walk with factorised multiplicities
    # (exact.factorised); the plan registers factorised.serves / factorised.evaluate.
    from exact import factorised

    if factorised.serves(game, game.needs(bets[0].features)):
        try:
            return factorised.evaluate(game, bets, shoe)
        except factorised.TooFine:
            pass  # the compiled walk below, as before factorised counting
    compiled = game.compiled(game.needs(bets[0].features))
    keys = [(game, deal, bet) for bet in bets]
    missing = [key for key in keys if key not in _PROJECTIONS]
    if missing:
        records = settle_records(game, [bet for _, _, bet in missing], compiled.records)
        for key, events in zip(missing, records, strict=True):
            _PROJECTIONS[key] = _Summation.of(compiled.project(events, len(key[2].events)))
    weights = compiled.term_weights(shoe)  # once for every bet of the deal
    return [_PROJECTIONS[key].counts(weights) for key in keys]


def _direct_counts(game: Game, needs: Needs, bets: list[Bet], shoe: Shoe) -> list[list[int]]:
    distribution = game.enumerate(needs, shoe)
    records = list(distribution.counts)
    result = []
    for bet, events in zip(bets, settle_records(game, bets, records), strict=True):
        counts = [0] * len(bet.events)
        for record, event in zip(records, events, strict=True):
            counts[event] += distribution.counts[record]
        result.append(counts)
    return result
