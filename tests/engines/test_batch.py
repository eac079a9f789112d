"""The batch evaluator equals the direct enumerator exactly; the disk cache; the number tiers."""

from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.engines.batch import BetEvaluator
from exact.engines.batch_numbers import batch_dtype, counts_matrix
from exact.engines.compiled import BatchProjection, CompiledDeal
from exact.engines.compiled_store import compiled_for, load_or_compile
from exact.errors import CacheWarning, ShoeError
from exact.model.features import Needs

from tests.support.batch_helpers import direct_counts
from tests.support.published import PUNTO_BANCO
from tests.support.shoes import random_depleted, rank_shoes, small_shoes


@pytest.fixture(scope="module")
def evaluator(punto_banco, tracked_bets):
    return BetEvaluator(punto_banco, tracked_bets)


# 250 shoes in `make test`; the thousand of the first campaign run under `-m slow`.
@pytest.mark.parametrize("number", [250, pytest.param(1000, marks=pytest.mark.slow)])
def test_batch_equals_direct_on_small_depleted_shoes(punto_banco, tracked_bets, evaluator,
                                                     number):
    shoes = small_shoes(np.random.default_rng(20261130), number)
    batch = evaluator.counts(shoes)
    for index, shoe in enumerate(shoes):
        expected = direct_counts(punto_banco, shoe, tracked_bets)
        for bet in tracked_bets:
            assert [int(c) for c in batch[bet.id][index]] == expected[bet.id], (shoe, bet.id)


def test_batch_equals_direct_on_depleted_eight_deck_shoes(punto_banco, tracked_bets,
                                                          evaluator):
    generator = np.random.default_rng(7)
    shoes = [random_depleted(generator, 8, 390)]
    batch = evaluator.counts(shoes)
    for index, shoe in enumerate(shoes):
        expected = direct_counts(punto_banco, shoe, tracked_bets)
        for bet in tracked_bets:
            assert [int(c) for c in batch[bet.id][index]] == expected[bet.id], bet.id


def test_published_side_bet_combinations(evaluator):
    counts = evaluator.counts([Shoe.standard(8)])
    assert int(counts["dragon-7"][0][0]) == PUNTO_BANCO.value("count", bet="dragon-7",
                                                              event="Dragon 7")
    assert int(counts["panda-8"][0][0]) == PUNTO_BANCO.value("count", bet="panda-8",
                                                             event="Panda 8")
    for total in (7, 0):  # an Egalité bet wins on the ties on its total
        assert int(counts[f"egalite-{total}"][0][0]) == PUNTO_BANCO.value(
            "feature_count", winner="tie", player_total=total)
    assert int(counts["tie"][0][0]) == PUNTO_BANCO.value("count", bet="tie", event="Tie")


def test_number_tiers_agree(punto_banco):
    compiled = compiled_for(punto_banco, punto_banco.needs(["winner"]))
    events = [np.array([{"player": 0, "banker": 1, "tie": 2}[punto_banco.read(r, "winner")]
                        for r in compiled.records])]
    projection = BatchProjection.build(compiled, [(events[0], 3)])
    generator = np.random.default_rng(3)
    matrix = counts_matrix([random_depleted(generator, 8, k) for k in (416, 300, 40, 7)])
    floats = projection.counts(matrix)[0]
    assert floats.dtype == np.int64  # evaluated in float64, returned as exact int64
    wide = projection.counts(matrix, wider=np.int64)[0]
    objects = projection.counts(matrix, wider=object)[0]
    assert floats.tolist() == wide.tolist() == [[int(c) for c in row] for row in objects]
    with pytest.raises(ValueError):
        projection.counts(counts_matrix([Shoe.standard(30)]), wider=np.int64)


def test_beyond_int64_falls_back_to_python_integers(punto_banco):
    # 30 decks: 1560**6 > 2**63, so the batch must use Python integers
    assert batch_dtype(1560, 6) is object
    compiled = compiled_for(punto_banco, punto_banco.needs(["winner"]))
    winner = np.array([{"player": 0, "banker": 1, "tie": 2}[punto_banco.read(r, "winner")]
                       for r in compiled.records])
    projection = BatchProjection.build(compiled, [(winner, 3)])
    shoe = Shoe.standard(30).remove("5 5 9H")
    batch = projection.counts(counts_matrix([shoe]))[0][0]
    single = compiled.project(winner, 3).counts(shoe)  # the per-shoe path
    assert [int(c) for c in batch] == single
    assert sum(single) > 2**63


@pytest.fixture(scope="module")
def winner_projection(punto_banco):
    compiled = compiled_for(punto_banco, punto_banco.needs(["winner"]))
    winner = np.array([{"player": 0, "banker": 1, "tie": 2}[punto_banco.read(r, "winner")]
                       for r in compiled.records])
    return compiled.project(winner, 3)


@given(rank_shoes())
def test_batch_equals_single_shoe_path(winner_projection, shoe):
    assert [int(c) for c in winner_projection.batch_counts(counts_matrix([shoe]))[0]] == \
        winner_projection.counts(shoe)


def test_bad_batches_raise_shoe_error(evaluator):
    with pytest.raises(ShoeError):
        evaluator.counts(np.zeros((2, 52), dtype=np.int64))
    with pytest.raises(ShoeError):
        evaluator.counts([Shoe.parse("A:3")])
    with pytest.raises(ShoeError):
        evaluator.counts([Shoe.standard(1, jokers=1)])


@pytest.mark.filterwarnings("error::exact.errors.CacheWarning")
def test_disk_cache_round_trip_and_concurrent_writers(punto_banco, tmp_path, monkeypatch,
                                                     keep_small_deals):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    deal = punto_banco.deal(Needs.of(player=["rank"]))
    parts = ["punto-banco", "test", "player:rank"]
    results: list[CompiledDeal] = []
    threads = [threading.Thread(target=lambda: results.append(load_or_compile(deal, parts)))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4  # a thread that met a CacheWarning (an error here) ends early
    stored = list(tmp_path.glob("*.compiled"))
    assert len(stored) == 1 and not list(tmp_path.glob(".*"))  # no temporary file left behind
    calls = []
    loaded = load_or_compile(deal, parts, compile_deal=lambda d: calls.append(d))
    assert not calls  # served from the cache
    shoe = Shoe.standard(2).remove("9 9 K")
    assert loaded.distribution(shoe) == results[0].distribution(shoe)
    # the writers above warned of nothing (the mark above makes a CacheWarning
    # an error); this damage, planted on purpose, is warned of once and compiled again
    stored[0].write_bytes(b"torn")
    with pytest.warns(CacheWarning, match="not an entry of this format") as caught:
        again = load_or_compile(deal, parts)
    # the cache's warnings only: ``caught`` records every warning of the process in the block,
    # and in a long run a garbage collection there may report another test's unclosed file
    # (a ResourceWarning), which made this count 2 once in a loaded parallel run
    assert len([w for w in caught if issubclass(w.category, CacheWarning)]) == 1
    assert again.distribution(shoe) == results[0].distribution(shoe)
    rebuilt = load_or_compile(deal, parts, compile_deal=lambda d: calls.append(d))
    assert not calls and rebuilt.distribution(shoe) == again.distribution(shoe)  # rewritten


def test_shoes_whose_size_passes_int64_stay_exact(punto_banco):
    """5 x 2**62 cards: a shoe's int64 total would wrap; the batch (compiled and staged paths)
    must still equal the direct enumerator."""
    huge = 2**62
    shoe = Shoe.parse(",".join(f"{card}:{huge}" for card in ("AS", "AH", "AD", "AC", "KS")))
    bets = [b for b in game_bets(punto_banco) if b.id in ("banker", "perfect-pairs")]
    batch = BetEvaluator(punto_banco, bets).counts([shoe])
    direct = analyze(punto_banco, shoe, bets, engine="direct")
    for bet in bets:
        assert [int(c) for c in batch[bet.id][0]] == list(direct.bets[bet.id].counts), bet.id
    assert sum(direct.bets["banker"].counts) == falling(shoe.size, 6) > 2**300


def _evaluators(punto_banco):
    from exact.games.century21.batch import evaluator_for

    yield BetEvaluator(punto_banco, [b for b in game_bets(punto_banco) if b.group == "main"])
    yield evaluator_for()


def test_every_evaluator_keeps_the_one_protocol(punto_banco) -> None:
    """A bet game's evaluator and 21st Century Baccarat's fixed-strategy one answer alike:
    per wager, counts over N!/(N-r)!, and values that are those counts' numerators over their
    denominators."""
    shoes = [Shoe.standard(1, jokers=1), Shoe.standard(1, jokers=1).remove(["5", "X"])]
    for evaluator in _evaluators(punto_banco):
        jokerless = [shoe.remove(["X"] * shoe.jokers) for shoe in shoes] \
            if isinstance(evaluator, BetEvaluator) else shoes
        counts = evaluator.counts(jokerless)
        numerators, denominators = evaluator.numerators(jokerless)
        values = evaluator.expected_values(jokerless)
        assert set(counts) == set(numerators) == set(denominators) == set(values) != set()
        for wager, rows in counts.items():
            assert [int(sum(row)) for row in rows] == [
                falling(shoe.size, evaluator.round_cards) for shoe in jokerless]
            assert values[wager] == [Fraction(int(n), int(d)) for n, d in zip(
                numerators[wager], denominators[wager], strict=True)]
            assert values[wager][0] != values[wager][1]
