"""Shared by the engine, batch-evaluator and simulation tests: the tracked bets, event
counts by the direct recursive enumerator (and by any engine, keyed like the reference
twin's) to compare against, and the scale-out checks (random shoes: tests.support.shoes)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import Shoe
from exact.engines.compiled_store import compiled_for
from exact.model.bets import Bet
from exact.model.features import Needs
from exact.model.game import Game

TRACKED = ("dragon-7", "panda-8", "egalite-7", "egalite-0")  # shipped side bets of issue 7


def tracked_bets(game: Game) -> list[Bet]:
    """The main bets and the tracked side bets of issue 7."""
    return [b for b in game_bets(game) if b.group == "main" or b.id in TRACKED]


def needs_names(bets: Sequence[Bet]) -> list[str]:
    return sorted(set().union(*(bet.features for bet in bets)))


def engine_counts(game, shoe: Shoe, names: Sequence[str],
                  key: Callable[[dict[str, object]], object], engine: str = "direct") -> Counter:
    """Counts of the game's round records, keyed like the reference's."""
    needs = game.needs(names)
    distribution = (game.enumerate(needs, shoe) if engine == "direct"
                    else compiled_for(game, needs).distribution(shoe))
    out: Counter = Counter()
    for record, count in distribution.counts.items():
        out[key({name: game.read(record, name) for name in names})] += count
    assert sum(out.values()) == distribution.total
    return out


# Settled events per bet set: by record, and by the values of the features the bets read.
_SETTLED: dict[tuple[object, ...], tuple[dict[object, tuple[int, ...]],
                                         dict[tuple[object, ...], tuple[int, ...]]]] = {}


def direct_counts(game: Game, shoe: Shoe, bets: Sequence[Bet]) -> dict[str, list[int]]:
    """Event counts by the direct recursive enumerator, one enumeration per set of needs (a
    deal seeing every needed attribute of every card, third cards included, would multiply
    the records to settle)."""
    by_needs: dict[Needs, list[Bet]] = defaultdict(list)
    for bet in bets:
        by_needs[game.needs(bet.features)].append(bet)
    out: dict[str, list[int]] = {}
    for needs, group in by_needs.items():
        out.update(_direct_group(game, needs, shoe, group))
    return {bet.id: out[bet.id] for bet in bets}


def _direct_group(game: Game, needs: Needs, shoe: Shoe, bets: Sequence[Bet]
                  ) -> dict[str, list[int]]:
    names = needs_names(bets)
    by_record, by_features = _SETTLED.setdefault((game, *bets), ({}, {}))
    distribution = game.enumerate(needs, shoe)
    out = {bet.id: [0] * len(bet.events) for bet in bets}
    for record, count in distribution.counts.items():
        if record not in by_record:
            values = tuple(game.read(record, name) for name in names)
            if values not in by_features:
                features = dict(zip(names, values, strict=True))
                by_features[values] = tuple(bet.settle(features) for bet in bets)
            by_record[record] = by_features[values]
        for bet, event in zip(bets, by_record[record], strict=True):
            out[bet.id][event] += count
    return out


def assert_same_result_whatever_the_workers(config: object, shoes: int, seed: int) -> None:
    """One seed, one result: 1 or 2 worker processes, other chunk sizes; another seed differs."""
    from exact.analysis.simulation import simulate

    one = simulate(config, shoes=shoes, seed=seed, workers=1, chunk=2).summary()
    two = simulate(config, shoes=shoes, seed=seed, workers=2, chunk=2).summary()
    other_chunks = simulate(config, shoes=shoes, seed=seed, workers=1, chunk=3).summary()
    assert one == two == other_chunks
    assert one != simulate(config, shoes=shoes, seed=seed + 1).summary()


def assert_same_result_on_a_dask_cluster(config: object, shoes: int, seed: int) -> None:
    """A local Dask cluster gives what the local processes give for the same seed."""
    import pytest

    from exact.analysis.simulation import simulate

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  host="127.0.0.1", protocol="tcp", dashboard_address=None) \
            as cluster:
        on_dask = simulate(config, shoes=shoes, seed=seed, scheduler=cluster.scheduler_address,
                           chunk=1).summary()
    assert on_dask == simulate(config, shoes=shoes, seed=seed).summary()
