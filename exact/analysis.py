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

from collections import defaultdict
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


def game_bets(game: Game, bet_files: Iterable[Path | str] = ()) -> list[Bet]:
    """The game's shipped bets followed by the bets of ``bet_files`` (ids must be unique)."""
    bets: list[Bet] = []
    for path in (*game.bet_files, *bet_files):
        for bet in load_bets(path, game.features):
            if any(b.id == bet.id for b in bets):
                raise BetFileError(f"{path}: bet {bet.id!r}: duplicate id (already defined)")
            bets.append(bet)
    return bets


def analyze(game: Game, shoe: Shoe, bets: Sequence[Bet] | None = None,
            engine: str = "compiled") -> GameAnalysis:
    """Exact analysis of ``bets`` (default: the game's shipped bets) for ``shoe``."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}")
    bets = game_bets(game) if bets is None else list(bets)
    by_needs: dict[Needs, list[Bet]] = defaultdict(list)
    for bet in bets:
        by_needs[game.needs(bet.features)].append(bet)
    results: dict[str, BetAnalysis] = {}
    round_cards = 0
    for needs, group in by_needs.items():
        deal = game.deal(needs)
        round_cards = deal.round_cards
        counts = (_compiled_counts(game, deal, group, shoe) if engine == "compiled"
                  else _direct_counts(game, needs, group, shoe))
        for bet, bet_counts in zip(group, counts, strict=True):
            results[bet.id] = BetAnalysis(bet, tuple(bet_counts), falling(shoe.size, round_cards))
    if not bets:
        round_cards = game.deal(Needs()).round_cards
    return GameAnalysis(game, shoe, round_cards, {b.id: results[b.id] for b in bets})


def settle_records(game: Game, bets: Sequence[Bet], records: Sequence[Record]) -> list[np.ndarray]:
    """Event index of each bet for each record. Features are read once per record and
    conditions run once per distinct combination of the features a bet uses."""
    names = sorted(set().union(*(bet.features for bet in bets)))
    readers = [game.features[name].read for name in names]
    columns = [[names.index(n) for n in sorted(bet.features)] for bet in bets]
    memos: list[dict[tuple[object, ...], int]] = [{} for _ in bets]
    events = [np.empty(len(records), dtype=np.int64) for _ in bets]
    for position, record in enumerate(records):
        values = [read(record) for read in readers]
        for bet, wanted, memo, out in zip(bets, columns, memos, events, strict=True):
            key = tuple(values[i] for i in wanted)
            if key not in memo:
                memo[key] = bet.settle({names[i]: values[i] for i in wanted})
            out[position] = memo[key]
    return events


_PROJECTIONS: dict[tuple[Game, Deal, Bet], Projection] = {}


def _compiled_counts(game: Game, deal: Deal, bets: list[Bet], shoe: Shoe) -> list[list[int]]:
    if staged.applicable(game, deal, bets):
        return staged.staged_counts(game, deal, bets, shoe)
    compiled = game.compiled(game.needs(bets[0].features))
    missing = [bet for bet in bets if (game, deal, bet) not in _PROJECTIONS]
    if missing:
        for bet, events in zip(missing, settle_records(game, missing, compiled.records),
                               strict=True):
            _PROJECTIONS[game, deal, bet] = compiled.project(events, len(bet.events))
    return [_PROJECTIONS[game, deal, bet].counts(shoe) for bet in bets]


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
