"""The 21st Century Baccarat verification simulator (issue 27): hand by hand against the
card-by-card reference, its deal against the shoe, its edge against the library's exact
House Way edge, a planted wrong pay seen, determinism and bad input."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from exact.core.cards import Shoe
from exact.errors import SimulationError
from exact.games.century21 import dealer as dealer
from exact.games.century21 import reference as reference
from exact.games.century21.dealer import JOKER, HouseWayRules

# the rule options the reference reads (its ``rules`` dict) and their HouseWayRules spelling
VARIANTS = [
    ({}, HouseWayRules()),
    ({"natural_pays": 3}, HouseWayRules(natural_pays=Fraction(3))),
    ({"dealer_wins_ties_on_zero": False}, HouseWayRules(dealer_wins_ties_on_zero=False)),
    ({"win_pays_by_total": {9: Fraction(2), 7: Fraction(3, 2)}},
     HouseWayRules(win_pays_by_total=((9, Fraction(2)), (7, Fraction(3, 2))))),
]


def _reference_pay(classes, rules: dict) -> Fraction:
    cards = iter([reference.X if c == JOKER else int(c) for c in classes])
    (pay, _how), _used = reference.play(cards, reference.house_player, reference.house_dealer,
                                        reference.house_check, rules)
    return pay


@pytest.mark.parametrize(("given", "rules"), VARIANTS)
def test_every_hand_settles_as_the_reference_settles_it(given, rules):
    """Same six cards in, same pay out: hands dealt from the real shoe, and hands of classes
    drawn evenly (jokers then turn up in every position and pair, which a real shoe seldom
    deals), against exact/games/century21/reference.py's card-by-card play."""
    generator = np.random.default_rng(27)
    classes = dealer.shoe_classes(rules)
    dealt = classes[dealer.draw(generator, classes.size, 3_000)]
    even = generator.integers(0, 11, (5_000, 6), dtype=np.uint8)
    table = dealer.rules_table(rules)
    for hands in (dealt, even):
        pays = [table.pays[c] for c in dealer.settle(hands, table)]
        for row, pay in zip(hands, pays, strict=True):
            assert pay == _reference_pay(row, given), row.tolist()


@pytest.mark.parametrize(("rules", "every"), [
    (HouseWayRules(), 1),
    # options the reference does not read: jokers of few values, a drawn joker wild, no stop
    # on the dealer's 9, two-card 9s beating three-card 9s, other House Ways
    (HouseWayRules(joker_values=(0, 5), drawn_joker_is_nine=False, stop_on_dealer_nine=False,
                   three_card_nine_pushes_two_card_nine=False, house_way_draw_max=4,
                   dealer_house_way_draw_max=6, win_pays=Fraction(19, 20)), 5),
    (HouseWayRules(joker_values=(1,), stop_on_dealer_joker_up=False, must_draw_max=5,
                   must_stand_min=6), 5),
])
def test_every_state_of_the_table_is_the_plain_play(rules, every):
    """The table's shortcut (a hand's state: sums mod 10 and where the jokers lie) loses
    nothing: every ordered two-card pair of each side (every ``every``-th row), with next
    cards of every kind, settles as the plain play of those very cards."""
    table = dealer.rules_table(rules)
    pairs = [(a, b) for a in range(11) for b in range(11)]
    rows = np.array([[*p, *d, t, f] for p in pairs for d in pairs for t in (0, 5, 9, JOKER)
                     for f in (3, JOKER)], dtype=np.uint8)[::every]
    codes = dealer.settle(rows, table)
    for row, code in zip(rows, codes, strict=True):
        assert table.pays[code] == dealer.play(row.tolist(), rules), row.tolist()


def test_the_shoe_is_the_rules_shoe():
    rules = HouseWayRules(decks=6, jokers=4)
    shoe = Shoe.standard(6, jokers=4)
    counts = Counter(dealer.shoe_classes(rules).tolist())
    assert [counts[v] for v in range(10)] == list(shoe.by_value())
    assert counts[JOKER] == shoe.jokers


def test_the_deal_is_uniform_over_ordered_deals_of_distinct_cards():
    """Seven cards, six drawn: every one of the 5,040 ordered deals is equally likely, no card
    twice (a chi-square far beyond its 99.99% quantile would fail)."""
    generator = np.random.default_rng(5)
    positions = dealer.draw(generator, 7, 504_000)
    assert all(len(set(row)) == 6 for row in positions[:1000].tolist())
    assert (np.sort(positions, axis=1)[:, 1:] != np.sort(positions, axis=1)[:, :-1]).all()
    keys = positions.astype(np.int64) @ (7 ** np.arange(6))
    counts = np.unique(keys, return_counts=True)[1]
    assert counts.size == 5040
    expected = 100.0
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 5039 + 4.0 * (2 * 5039) ** 0.5  # about 5,440


def _exact_house_way():
    from exact.games.century21.game import DEFAULT_RULES, game_table

    table = game_table(DEFAULT_RULES, Shoe.standard(8, jokers=8))
    result = table.evaluate(*table.house_way())
    by_pay: dict[Fraction, Fraction] = {}
    for (_how, pay), count in result.counts.items():
        by_pay[pay] = by_pay.get(pay, Fraction(0)) + Fraction(count, result.total)
    assert -sum(pay * p for pay, p in by_pay.items()) == -result.edge
    return by_pay


def test_the_simulated_edge_agrees_with_the_exact_house_way_edge():
    exact = _exact_house_way()
    simulation = dealer.simulate(HouseWayRules(), 3_000_000, seed=11)
    assert simulation.hands == 3_000_000
    found = dealer.check(simulation, exact)
    assert found.agrees, (float(found.simulated), float(found.exact), found.z)
    assert found.exact == Fraction(1149375068384, 87616138805055)  # analyze century21's
    assert 0.0003 < found.error < 0.0007  # SD about 0.95 a hand
    # the top award (a win) dealt about as often as its exact probability says
    assert abs(found.top_seen - found.top_expected) < 5 * found.top_expected ** 0.5


def test_a_planted_wrong_pay_disagrees():
    """A two-card 9 beating a three-card 9, or a win paying 21 to 20: the simulation of that
    game set against the shipped exact edge."""
    exact = _exact_house_way()
    for planted in (HouseWayRules(three_card_nine_pushes_two_card_nine=False),
                    HouseWayRules(win_pays=Fraction(21, 20))):
        found = dealer.check(dealer.simulate(planted, 1_000_000, seed=3), exact)
        assert not found.agrees, planted


def test_the_same_seed_deals_the_same_hands_and_jobs_are_independent():
    rules = HouseWayRules()
    hands = dealer.JOB_HANDS + 1000  # two jobs, the second short
    first = dealer.simulate(rules, hands, seed=9)
    assert first.counts.shape[0] == 2 and first.hands == hands
    assert np.array_equal(first.counts, dealer.simulate(rules, hands, seed=9).counts)
    assert not np.array_equal(first.counts, dealer.simulate(rules, hands, seed=10).counts)
    # a job is its seed's alone: the first job of a longer run is the same
    longer = dealer.simulate(rules, 2 * dealer.JOB_HANDS, seed=9)
    assert np.array_equal(first.counts[0], longer.counts[0])


def test_the_counts_do_not_depend_on_the_workers(monkeypatch):
    monkeypatch.setattr(dealer, "JOB_HANDS", 10_000)  # jobs are cut by the parent process
    one = dealer.simulate(HouseWayRules(), 25_000, seed=4)
    two = dealer.simulate(HouseWayRules(), 25_000, seed=4, workers=2)
    assert one.counts.shape[0] == 3 and np.array_equal(one.counts, two.counts)


@pytest.mark.parametrize("hands", [0, -1, 1.5, True, 10**13])
def test_bad_numbers_of_hands_are_refused(hands):
    with pytest.raises(SimulationError, match="hands must be"):
        dealer.simulate(HouseWayRules(), hands)


def test_bad_rules_are_refused():
    with pytest.raises(SimulationError, match="joker_values"):
        HouseWayRules(joker_values=(10,))
    with pytest.raises(SimulationError, match="cannot deal"):
        HouseWayRules(decks=0, jokers=5)
    assert dataclasses.replace(HouseWayRules(), decks=1).decks == 1
