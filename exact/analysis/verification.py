"""The verification simulation: shuffled shoes dealt round by round to the cut card by a dealer
independent of the enumerator (the game's, e.g. :mod:`exact.games.baccarat.dealer`),
every wager settled by its
own definition, and each simulated edge set against the exact one.

Layer: analysis, above the games and beside the references; the reports show its results.

How a round is settled. Bets are data: conditions over features. The dealer reads, with
numpy over all the rounds of a job, the features the bets name (each as a small integer code);
the bets that share features are grouped, and each group's rounds are counted by the
combination of its features' codes (one ``bincount``). Each distinct combination is then
settled once by the bet's own ``Bet.settle``, the same bets-as-data definition the exact
analysis uses, and its count added to the event it settles to. A bet's conditions thus run a
few hundred times per process, not once per round, and any condition the bet files can write
is settled exactly as written; a bet naming a feature the dealer does not read is listed as
not simulated. (Classifying every round by the card classes of its positions and settling
each distinct round instead would keep millions of distinct rounds at 10^8 rounds, with
ranks and suits seen: far too many to settle one by one.)

Statistics. The standard error of a wager's simulated edge is the larger of two: the exact
standard deviation of one round over the square root of the rounds (what the edge would spread
by if the exact analysis is right and the rounds were independent; it counts the rare top
awards a short run may never deal), and the spread of the batches (each job, a fixed block of
shoes, is a batch; the standard error of the ratio "net result / rounds" from the batches'
spread about it, which counts what the rounds of one shoe share). z = (simulated - exact) /
SE; beyond |z| = 4 the wager "disagrees". By depth in the shoe (no exact figure to compare
with) the batches' spread alone is shown. The exact edge is the one of a round from the full
shoe, while the simulation deals rounds through the shoe to the cut card; the difference (the
cut-card effect) is far below the standard error of 10^8 rounds for every shipped wager.

Reproducible: job ``j`` is shuffled by a generator seeded with ``SeedSequence(seed,
spawn_key=(j,))``; the job's size depends only on the rounds asked for, and jobs are read in
order until the rounds are reached, so the result does not depend on ``workers`` or the Dask
cluster.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from exact.analysis.scale_out import map_in_order
from exact.analysis.simulation import check_settings
from exact.analysis.statistics import BetTable
from exact.core.cards import CARDS, Shoe
from exact.core.parsing import MAX_SIMULATED_CARDS, MAX_SIMULATED_ROUNDS
from exact.errors import SimulationError
from exact.model.bets import Bet

ROUNDS = 100_000_000
"""Rounds the reports simulate by default (a lab's order of magnitude per paytable)."""
MAX_ROUNDS = MAX_SIMULATED_ROUNDS
Z_LIMIT = 4
JOB_SHOES = 5_000
"""Most shoes in one job (about 400,000 rounds of an 8-deck shoe): big enough that numpy's
per-call cost vanishes, small enough to leave many batches for the standard error (250 in
10^8 rounds)."""
MIN_JOBS = 16
GROUP_CODES = 1 << 14
"""Most code combinations a group of bets counts in one ``bincount`` (per depth bucket)."""
DEPTH_BUCKETS = 8


@dataclass(frozen=True)
class ShoeSpec:
    """The shoe (count of each card id), the cards left behind the cut card and the burn."""

    counts: tuple[int, ...]
    cut_cards: int = 14
    burn: str = "first-card"

    def __post_init__(self) -> None:
        if len(self.counts) != len(CARDS) or min(self.counts) < 0:
            raise SimulationError(f"a shoe gives a count for each of the {len(CARDS)} cards")
        if self.size > MAX_SIMULATED_CARDS:
            raise SimulationError(f"a shoe of {self.size:,} cards: at most "
                                  f"{MAX_SIMULATED_CARDS:,}")
        if self.burn not in ("first-card", "none"):
            raise SimulationError(f"burn must be 'first-card' or 'none', got {self.burn!r}")
        if not isinstance(self.cut_cards, int) or self.cut_cards < 0:
            raise SimulationError(f"cut_cards must be a whole number, got {self.cut_cards!r}")

    @classmethod
    def standard(cls, decks: int, cut_cards: int = 14, burn: str = "first-card") -> ShoeSpec:
        return cls(tuple(Shoe.standard(decks).counts), cut_cards, burn)

    @property
    def size(self) -> int:
        return sum(self.counts)


class Coded(Protocol):
    """A feature as a dealer reads it: codes 0..len(values)-1 for every round of a job, and
    the value each code stands for."""

    @property
    def values(self) -> tuple[object, ...]: ...

    @property
    def read(self) -> Callable[[Any], np.ndarray]: ...


class Dealer(Protocol):
    """Deals a game's rounds through shoes (a game's ``dealer.py``): given as a class with
    static methods, or an instance of a module-level class holding plain values, so that
    worker processes receive it by name."""

    @property
    def features(self) -> Mapping[str, Coded]: ...

    def check(self, spec: ShoeSpec, /) -> None: ...

    def deal(self, spec: ShoeSpec, seed: np.random.SeedSequence, shoes: int, /) -> Any: ...

    def reader(self, rounds: Any, /) -> Any: ...


@dataclass
class WagerSimulation:
    """Event counts of every simulated bet, per job and per depth bucket."""

    bets: dict[str, Bet]
    spec: ShoeSpec
    seed: int
    bucket_cards: int
    rounds_by_job: np.ndarray  # jobs x buckets
    counts: dict[str, np.ndarray]  # bet id -> jobs x buckets x events
    shoes: int
    seconds: float
    workers: int
    not_simulated: list[str] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return int(self.rounds_by_job.sum())

    @property
    def rate(self) -> float:
        """Rounds per second of wall time."""
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    def event_counts(self, bet_id: str) -> list[int]:
        return [int(n) for n in self.counts[bet_id].sum(axis=(0, 1))]

    def edge(self, bet_id: str, pays: Sequence[Fraction], bucket: int | None = None
             ) -> tuple[Fraction, float, int]:
        """(simulated house edge, its standard error, rounds), over all rounds or one bucket."""
        counts = self.counts[bet_id]
        rounds = self.rounds_by_job
        if bucket is not None:
            counts, rounds = counts[:, bucket:bucket + 1], rounds[:, bucket:bucket + 1]
        per_job_counts = counts.sum(axis=1)  # jobs x events
        per_job_rounds = rounds.sum(axis=1).astype(np.float64)
        total = int(per_job_rounds.sum())
        if total == 0:
            return Fraction(0), math.nan, 0
        net = sum((int(n) * pay for n, pay in zip(per_job_counts.sum(axis=0), pays, strict=True)),
                  Fraction(0))
        edge = -net / total
        # batch means: the spread of each job's net result about the overall ratio
        floats = np.array([float(pay) for pay in pays])
        job_net = per_job_counts.astype(np.float64) @ floats
        jobs = int((per_job_rounds > 0).sum())
        if jobs < 2:
            return edge, math.nan, total
        residual = job_net + float(edge) * per_job_rounds
        error = math.sqrt(jobs / (jobs - 1) * math.fsum(residual**2)) / total
        return edge, error, total


def simulate_wagers(dealer: Dealer, bets: Sequence[Bet], spec: ShoeSpec,
                    rounds: int = ROUNDS, seed: int = 0, *, workers: int = 1,
                    scheduler: str | None = None, buckets: int = DEPTH_BUCKETS,
                    progress: Callable[[int, int], None] | None = None) -> WagerSimulation:
    """Deal whole jobs of shoes from ``seed`` until at least ``rounds`` rounds are dealt, and
    count every bet's events, by depth in the shoe (``buckets`` equal slices of the cards)."""
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise SimulationError(f"rounds must be a whole number from 1 to {MAX_ROUNDS:,}, "
                              f"got {rounds!r}")
    check_settings(1, seed, workers, scheduler)
    dealer.check(spec)
    simulated = [b for b in bets if b.features <= dealer.features.keys()]
    if not simulated:
        raise SimulationError("no wager reads only features the verification dealer reads")
    bucket_cards = -(-spec.size // buckets)
    # about five cards a round; the job size depends on nothing but the request
    per_shoe = max(1, (spec.size - 8 - spec.cut_cards) // 5)
    shoes_per_job = min(JOB_SHOES, max(1, -(-rounds // (per_shoe * MIN_JOBS))))
    groups = _groups(simulated, dealer)
    arguments = ((dealer, groups, spec, seed, job, shoes_per_job, bucket_cards, buckets)
                 for job in range(MAX_ROUNDS))
    started = time.perf_counter()
    job_rounds: list[np.ndarray] = []
    job_counts: list[dict[str, np.ndarray]] = []
    dealt = 0
    results = map_in_order(_job, arguments, workers, scheduler)
    try:
        for by_bucket, counts in results:
            job_rounds.append(by_bucket)
            job_counts.append(counts)
            dealt += int(by_bucket.sum())
            if progress is not None:
                progress(min(dealt, rounds), rounds)
            if dealt >= rounds:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    seconds = time.perf_counter() - started
    return WagerSimulation(
        {b.id: b for b in simulated}, spec, seed, bucket_cards, np.stack(job_rounds),
        {b.id: np.stack([c[b.id] for c in job_counts]) for b in simulated},
        shoes_per_job * len(job_rounds), seconds, workers,
        [b.name for b in bets if b not in simulated])


Group = tuple[tuple[str, ...], tuple[Bet, ...]]


def _groups(bets: Sequence[Bet], dealer: Dealer) -> list[Group]:
    """The bets grouped by the features they read, groups merged while their codes fit one
    ``bincount``: one count of the rounds per group, whatever the number of bets."""
    by_features: dict[tuple[str, ...], list[Bet]] = {}
    for bet in bets:
        by_features.setdefault(tuple(sorted(bet.features)), []).append(bet)

    def size(names: Sequence[str]) -> int:
        return math.prod(len(dealer.features[n].values) for n in names)

    groups: list[tuple[tuple[str, ...], list[Bet]]] = []
    for names, members in sorted(by_features.items(), key=lambda item: size(item[0])):
        for index, (merged, others) in enumerate(groups):
            union = tuple(sorted({*merged, *names}))
            if size(union) <= GROUP_CODES:
                groups[index] = (union, others + members)
                break
        else:
            groups.append((names, list(members)))
    return [(names, tuple(members)) for names, members in groups]


_SETTLED: dict[tuple[tuple[str, ...], Bet], np.ndarray] = {}
"""Per process, per group of features and bet: the event each code combination settles to
(-1: not met yet), so a combination is settled once per process, not once per job."""


def _job(dealer: Dealer, groups: Sequence[Group], spec: ShoeSpec, seed: int, job: int,
         shoes: int, bucket_cards: int, buckets: int
         ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Deal job ``job``'s shoes; rounds per depth bucket and every bet's event counts."""
    rounds = dealer.deal(spec, np.random.SeedSequence(seed, spawn_key=(job,)), shoes)
    bucket = np.minimum(rounds.depth // bucket_cards, buckets - 1).astype(np.int32)
    reader = dealer.reader(rounds)
    out: dict[str, np.ndarray] = {}
    for names, members in groups:
        features = [dealer.features[n] for n in names]
        sizes = [len(f.values) for f in features]
        domain = math.prod(sizes)
        key = bucket * domain
        for feature, radix in zip(features, sizes, strict=True):
            domain //= radix
            key += feature.read(reader) * np.int32(domain)
        tally = np.bincount(key, minlength=buckets * math.prod(sizes)).reshape(buckets, -1)
        seen = np.flatnonzero(tally.any(axis=0))
        seen_tally = tally[:, seen]
        for bet in members:
            events = _events(bet, names, features, sizes)
            new = seen[events[seen] < 0]
            for code in new:
                values = _decode(int(code), features, sizes)
                events[code] = bet.settle({n: v for n, v in zip(names, values, strict=True)
                                           if n in bet.features})
            settles_to = np.zeros((len(seen), len(bet.events)), dtype=np.int64)
            settles_to[np.arange(len(seen)), events[seen]] = 1
            out[bet.id] = seen_tally @ settles_to
    return np.bincount(bucket, minlength=buckets), out


def _events(bet: Bet, names: tuple[str, ...], features: Sequence[Coded],
            sizes: Sequence[int]) -> np.ndarray:
    key = (names, bet)
    if key not in _SETTLED:
        _SETTLED[key] = np.full(math.prod(sizes), -1, dtype=np.int64)
    return _SETTLED[key]


def _decode(key: int, features: Sequence[Coded], sizes: Sequence[int]
            ) -> tuple[object, ...]:
    values: list[object] = []
    for feature, radix in zip(reversed(features), reversed(sizes), strict=True):
        key, code = divmod(key, radix)
        values.append(feature.values[code])
    return tuple(reversed(values))


# --- against the exact tables --------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """One wager under one paytable: the exact and simulated house edges."""

    bet_id: str
    name: str
    paytable: str
    exact: Fraction
    simulated: Fraction
    error: float
    rounds: int
    top_seen: int
    top_expected: float

    @property
    def z(self) -> float:
        difference = float(self.simulated - self.exact)
        if self.error > 0:
            return difference / self.error
        return 0.0 if difference == 0 else math.copysign(math.inf, difference)

    @property
    def agrees(self) -> bool:
        return abs(self.z) <= Z_LIMIT


def verdicts(simulation: WagerSimulation, tables: Mapping[str, Sequence[BetTable]]
             ) -> list[Verdict]:
    """Each simulated bet under each of its exact tables (by bet id): the simulated edge uses
    the pays of the bet as the simulation settled it, under the table's paytable, the exact
    edge is the table's. The top award is the event with the highest pay."""
    out = []
    for bet_id, bet in simulation.bets.items():
        for table in tables.get(bet_id, ()):
            settled = bet.with_paytable(table.paytable) if table.paytable in bet.paytables \
                else bet
            pays = [event.pays for event in settled.events]
            simulated, spread, rounds = simulation.edge(bet_id, pays)
            # the exact SD of one round under the hypothesis tested; the batches' spread if
            # larger (rounds of a shoe are not independent). The exact SD counts the rare top
            # awards that a short run may not deal, where the batches' spread would not.
            error = max(math.sqrt(float(table.variance) / rounds),
                        0.0 if math.isnan(spread) else spread)
            top = max(range(len(pays)), key=lambda i: pays[i])
            out.append(Verdict(bet_id, table.name, table.paytable, table.house_edge, simulated,
                               error, rounds, simulation.event_counts(bet_id)[top],
                               float(table.outcomes[top].probability) * rounds))
    return out


def through_the_shoe(simulation: WagerSimulation, bet_id: str
                     ) -> Iterator[tuple[int, int, Fraction, float, int]]:
    """Per depth bucket: (first card, last card, simulated house edge, SE, rounds) of the bet
    under its own paytable."""
    pays = [event.pays for event in simulation.bets[bet_id].events]
    for bucket in range(simulation.rounds_by_job.shape[1]):
        edge, error, rounds = simulation.edge(bet_id, pays, bucket)
        if rounds:
            yield (bucket * simulation.bucket_cards,
                   min((bucket + 1) * simulation.bucket_cards, simulation.spec.size) - 1,
                   edge, error, rounds)
