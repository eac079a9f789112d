"""The batch evaluator serves the bets that read ranks and suits of both hands (NINES, Perfect
Pairs) through the staged evaluator, exactly: against the direct recursive enumerator on
1,000 small depleted shoes of NINE & NINES, against a plain count of Perfect Pairs on depleted
8-deck shoes, and the published Perfect Pairs figure."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.montecarlo import simulate_rounds, within_interval
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.engines.batch import BatchError, BetEvaluator, batch_path, supported_bets
from exact.engines.staged import falling_products
from exact.games import get_game
from exact.model.bets import load_bets

from tests.support.batch_helpers import direct_counts
from tests.support.engines import without_engine
from tests.support.published import PUNTO_BANCO
from tests.support.shoes import random_depleted, small_shoes

NINE_RANKS = (0, 7, 1, 6, 2, 5, 3, 4, 8, 9, 12)  # A-8, 2-7, 3-6, 4-5, 9 with T and K


@pytest.fixture(scope="module")
def nine_and_nines():
    return get_game("nine-and-nines")


@pytest.fixture(scope="module")
def nine_bets(nine_and_nines):
    return game_bets(nine_and_nines)


@pytest.fixture(scope="module")
def perfect_pairs(punto_banco):
    return next(b for b in game_bets(punto_banco) if b.id == "perfect-pairs")


def test_every_shipped_bet_is_served(punto_banco, nine_and_nines, nine_bets):
    assert batch_path(nine_and_nines, next(b for b in nine_bets if b.id == "nines")) == "staged"
    for game, bets in ((punto_banco, game_bets(punto_banco)), (nine_and_nines, nine_bets)):
        assert supported_bets(game, bets) == (bets, [])


# 250 shoes in `make test`; the thousand of the first campaign run under `-m slow`.
@pytest.mark.parametrize("number", [250, pytest.param(1000, marks=pytest.mark.slow)])
def test_batch_equals_direct_on_small_depleted_shoes(nine_and_nines, nine_bets, number):
    generator = np.random.default_rng(20261201)
    # Half the shoes from ranks that make two-card 9s, with up to three suits, so that every
    # tier of NINE and NINES is dealt; two shoes hold the Diamond twins (9D KD twice).
    shoes = (small_shoes(generator, number // 2, suits=(1, 3))
             + small_shoes(generator, number // 2 - 2, NINE_RANKS, suits=(1, 3))
             + [Shoe.parse("9D:2,KD:2,4C:2"), Shoe.parse("9D:2,KD:3,9S:2,AH:1,8H:1,5C:1")])
    batch = BetEvaluator(nine_and_nines, nine_bets).counts(shoes)
    for index, shoe in enumerate(shoes):
        expected = direct_counts(nine_and_nines, shoe, nine_bets)
        for bet in nine_bets:
            assert [int(c) for c in batch[bet.id][index]] == expected[bet.id], (shoe, bet.id)
    for bet in nine_bets:  # the shoes exercise every event of every bet
        assert (batch[bet.id] > 0).any(axis=0).all(), bet.id


def _plain_perfect_pairs(shoe: Shoe) -> tuple[int, int, int]:
    """Both, one and no perfect pair over ordered six-card sequences, by a plain count over
    the 52 cards: hands of two identical cards, the other hand given the first."""
    counts = shoe.counts[:52]
    size = shoe.size
    pairs = [falling(n, 2) for n in counts]
    both = sum(p * (falling(counts[b] - 2 * (a == b), 2)) for a, p in enumerate(pairs)
               for b in range(52))
    one_hand = sum(pairs) * falling(size - 2, 2)  # the Player's (or the Banker's) perfect pair
    fill = falling(size - 4, 2)
    total = falling(size, 6)
    return both * fill, (2 * one_hand - 2 * both) * fill, total - (2 * one_hand - both) * fill


def test_perfect_pairs_batch_equals_analyze_and_a_plain_count(punto_banco, perfect_pairs):
    generator = np.random.default_rng(11)
    shoes = [random_depleted(generator, 8, keep) for keep in (416, 350, 200, 60, 12)]
    shoes.append(Shoe.parse("AS:2,AH:1,9D:2,KD:2,5C:1"))  # classes the first hand exhausts
    batch = BetEvaluator(punto_banco, [perfect_pairs]).counts(shoes)["perfect-pairs"]
    for index, shoe in enumerate(shoes):
        staged = analyze(punto_banco, shoe, [perfect_pairs]).bets["perfect-pairs"].counts
        assert tuple(int(c) for c in batch[index]) == staged == _plain_perfect_pairs(shoe)


def test_published_perfect_pairs_through_the_batch_evaluator(punto_banco, perfect_pairs):
    both, one, none = (PUNTO_BANCO.value("count", bet="perfect-pairs", event=event)
                       for event in ("Both hands", "One hand", "No perfect pair"))
    assert both + one + none == comb(416, 2) * comb(414, 2)  # over unordered hands
    unit = 2 * 2 * falling(412, 2)
    evaluator = BetEvaluator(punto_banco, [perfect_pairs])
    eight = Shoe.standard(8)
    assert [int(c) for c in evaluator.counts([eight])["perfect-pairs"][0]] == \
        [both * unit, one * unit, none * unit]
    house_edge = -evaluator.expected_values([eight])["perfect-pairs"][0]
    assert house_edge == 1 - Fraction(251 * both + 26 * one, comb(416, 2) * comb(414, 2))
    assert PUNTO_BANCO.find("house_edge", bet="perfect-pairs").agrees(house_edge)


def test_nines_house_edge_through_the_batch_evaluator(nine_and_nines, nine_bets):
    nines = [b for b in nine_bets if b.id == "nines"]
    value = BetEvaluator(nine_and_nines, nines).expected_values([Shoe.standard(8)])["nines"][0]
    assert value == -Fraction(19908611, 153741315)  # README, from the tests' plain count


def test_hand_weights_are_never_negative():
    # class counts 1, 0, 3: a pair of the first class, or any card of the second, cannot be
    # dealt; taking cards of the third class first leaves 3 - 2 and then none; the last group
    # has two negative factors, (1 - 2)(1 - 3) = 2 unless each is clipped to 0
    classes = np.array([[1, 0, 3]], dtype=np.int64)
    groups = np.array([[0, 0], [0, 1], [2, 2], [2, 2], [0, 2], [0, 0]], dtype=np.int64)
    offsets = np.array([[0, 1], [0, 0], [0, 1], [2, 3], [1, 4], [2, 3]], dtype=np.int64)
    assert falling_products(classes, groups, offsets).tolist() == [[0, 0, 6, 0, 0, 0]]


def test_beyond_int64_the_staged_path_uses_python_integers(punto_banco, perfect_pairs):
    shoe = Shoe.standard(30).remove("AS AS 9D")  # 1557**6 > 2**63
    counts = BetEvaluator(punto_banco, [perfect_pairs]).counts([shoe])["perfect-pairs"]
    assert counts.dtype == object
    assert tuple(counts[0]) == _plain_perfect_pairs(shoe)
    assert sum(counts[0]) > 2**63


def test_a_bet_on_suits_and_third_cards_batch_or_refused_by_type(punto_banco):
    """Factorised counting serves it in a batch (exact against the direct enumerator); a game
    without card positions, which factorised counting needs, is refused by type."""
    from dataclasses import dataclass
    from typing import ClassVar

    from exact.games.baccarat.coup import PuntoBanco

    bet = load_bets("mine.toml", punto_banco.features, text="""
[[bet]]
id = "suited-draw"
name = "Player suited and draws"
  [[bet.event]]
  name = "Win"
  when = "player_suited and player_third != None"
  pays = 3
""")[0]
    shoe = Shoe.from_counts({"9H": 2, "3H": 1, "5S": 2, "KH": 1, "2D": 1})
    expected = direct_counts(punto_banco, shoe, [bet])[bet.id]
    # the plan prefers class-by-class counting by cost; factorised counting still serves it
    assert batch_path(punto_banco, bet) == "classes"
    with without_engine("classes"):
        assert batch_path(punto_banco, bet) == "factorised"
        counts = BetEvaluator(punto_banco, [bet]).counts([shoe])[bet.id]
    assert [int(c) for c in counts[0]] == expected
    counts = BetEvaluator(punto_banco, [bet]).counts([shoe])[bet.id]
    assert [int(c) for c in counts[0]] == expected

    @dataclass(frozen=True)
    class NoPositions(PuntoBanco):
        card_positions: ClassVar[tuple[tuple[int, int], ...]] = ()

    unplaced = NoPositions()
    assert batch_path(unplaced, bet) is None
    with pytest.raises(BatchError):
        BetEvaluator(unplaced, [bet])


def test_eor_and_edge_include_nines_and_perfect_pairs_by_default(capsys, tmp_path):
    assert main(["eor", "nine-and-nines", "--decks", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"nines", "nine-player", "banker"} <= set(report["bets"])
    seen = tmp_path / "seen.txt"
    seen.write_text("AS AS 9D\n")
    assert main(["edge", "punto-banco", "--decks", "8", "--seen", str(seen), "--json"]) == 0
    edge = json.loads(capsys.readouterr().out)
    shoe = Shoe.standard(8).remove("AS AS 9D")
    assert -Fraction(edge["bets"]["perfect-pairs"]["house_edge"]["exact"]) == \
        Fraction(sum(c * p for c, p in zip(_plain_perfect_pairs(shoe), (250, 25, -1),
                                           strict=True)), falling(shoe.size, 6))


def test_monte_carlo_rounds_agree_with_the_batch_evaluator(nine_and_nines, nine_bets):
    """The plain Monte Carlo simulator (physical cards, the game's own round) against the exact
    counts of every NINE & NINES bet, each event within 4.5 standard errors; 6,000 rounds of
    a depleted 2-deck shoe, seeded."""
    shoe = Shoe.standard(2).remove("9H 9D KS 5C 5C 8H")
    seen = simulate_rounds(nine_and_nines, shoe, nine_bets, rounds=6000, seed=20261130)
    exact = BetEvaluator(nine_and_nines, nine_bets).counts([shoe])
    for bet in nine_bets:
        assert sum(seen[bet.id]) == 6000
        assert within_interval(seen[bet.id], [int(c) for c in exact[bet.id][0]], z=4.5), bet.id
