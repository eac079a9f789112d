"""21st Century Baccarat at a full table: the dice count, settlement by dice total and
positions, the settlement holes, the literal two-joker Natural (issue 29)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.core.cards import Shoe
from exact.games.century21.game import (
    DEFAULT_RULES,
    JOKER_CLASS,
    PlayerSet,
    declarations,
    game_table,
)
from exact.games.century21.table import (
    CircleWager,
    action_by_roll,
    dice_total_order,
    expected_action,
    first_position_counts,
    first_position_distribution,
    settle_table,
)
from exact.model.settlement import SettlementError


def brute_force_landing() -> Counter[int]:
    """Every one of the 216 rolls counted clockwise from the Player/Dealer's position 1."""
    landed: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=3):
        position = 1
        for _ in range(sum(roll) - 1):  # count 1 (the Player/Dealer), 2, 3, ... round 8 places
            position = position % 8 + 1
        landed[position] += 1
    return landed


def test_the_first_position_is_the_seeds_count_against_a_brute_force_over_216_rolls() -> None:
    assert first_position_counts() == dict(sorted(brute_force_landing().items()))
    assert list(first_position_counts().values()) == [28, 28, 28, 28, 27, 25, 25, 27]
    assert sum(first_position_distribution().values()) == 1


def brute_force_shares(wager: Fraction, stake: Fraction) -> dict[int, Fraction]:
    """Each position's action over the 216 rolls, walked seat by seat from the landing."""
    totals: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=3):
        landed = (sum(roll) - 1) % 8 + 1
        position, left = (2 if landed == 1 else landed), stake
        for _ in range(7):
            taken = min(wager, left)
            totals[position] += taken
            left -= taken
            position = position % 8 + 1 if position < 8 else 2
    return {p: Fraction(totals[p]) / 216 for p in range(2, 9)}


def test_seven_seats_of_100_against_300_get_the_dice_counts_shares() -> None:
    shares = expected_action(dict.fromkeys(range(2, 9), Fraction(100)), Fraction(300))
    assert shares == brute_force_shares(Fraction(100), Fraction(300))
    fractions = [share / 100 for share in shares.values()]
    assert min(fractions) == Fraction(77, 216) and max(fractions) == Fraction(112, 216)
    assert round(float(min(fractions)), 3) == 0.356 and round(float(max(fractions)), 3) == 0.519
    assert sum(shares.values()) == 300  # the whole wager takes action, whatever the roll
    assert all(sum(a.values()) == 300 for _p, a in action_by_roll(
        dict.fromkeys(range(2, 9), Fraction(100)), Fraction(300)))


def test_covered_and_whole_hand_readings() -> None:
    wagers = {2: Fraction(10), 5: Fraction(20)}
    assert expected_action(wagers, None) == wagers
    assert expected_action(wagers, Fraction(25), "whole-hand") == {2: 0, 5: 0}
    with pytest.raises(SettlementError, match="positions 2 to 8"):
        expected_action({1: Fraction(10)}, None)


@pytest.mark.parametrize("total, order", [(9, [1, 3, 6]), (17, [1, 3, 6]), (10, [1, 3, 6]),
                                          (11, [3, 6, 1]), (5, [6, 1, 3]), (18, [1, 3, 6])])
def test_dice_total_order_counts_clockwise_from_the_player_dealer(total, order) -> None:
    # seats 1, 3, 6 at positions 2, 4, 7
    assert dice_total_order([1, 3, 6], total) == order


def test_settle_by_dice_total_and_positions() -> None:
    hand = settle_table(DEFAULT_RULES, "KH 7C", {1: "9S KD", 2: "8C KD"},
                        [CircleWager(1, 1, 100), CircleWager(2, 1, 100)], dealer_wager=150,
                        dice_total=6, positions={1: 3, 2: 6})
    assert hand.order == (2, 1)  # 6 lands on position 6: seat 2, then round to seat 1
    assert hand.in_action == {"seat 1 circle 1": 50, "seat 2 circle 1": 100}
    with pytest.raises(SettlementError, match="both at position"):
        dice_total_order([1, 2], 10, {1: 3, 2: 3})
    with pytest.raises(SettlementError, match="not both"):
        settle_table(DEFAULT_RULES, "KH 7C", {1: "9S KD"}, [CircleWager(1, 1, 10)], 100,
                     dice_start=1, dice_total=10)
    with pytest.raises(SettlementError, match="seats past 7 need a position"):
        dice_total_order([8], 10)


@pytest.mark.parametrize("kwargs, message", [
    ({"dealer_wager": 5}, "below the table minimum 10"),
    ({"seat_cards": {1: "X X 5S"}}, "cannot have drawn a third card"),
    ({"seat_cards": {1: "X 5S X"}}, "three-card hand holding two jokers"),
    ({"dealer_cards": "5S X X", "seat_cards": {1: "9S KD"}}, "three-card hand holding two"),
])
def test_the_settlement_holes_are_refused_in_one_line(kwargs, message) -> None:
    arguments = {"rules": DEFAULT_RULES, "dealer_cards": "KH 7C", "seat_cards": {1: "9S KD"},
                 "wagers": [CircleWager(1, 1, 10)], "dealer_wager": 100, **kwargs}
    with pytest.raises(SettlementError, match=message) as refused:
        settle_table(**arguments)
    assert "\n" not in str(refused.value)


LITERAL = DEFAULT_RULES.replace(natural_any_two_jokers=True)


def test_the_literal_natural_settles_a_three_card_two_joker_hand_as_a_natural() -> None:
    hand = settle_table(LITERAL, "KH 7C", {1: "X 5S X"}, [CircleWager(1, 1, 10)], 100)
    assert hand.settlements[0].event == "natural" and hand.settlements[0].net == 10
    assert declarations(LITERAL, (5, 1, JOKER_CLASS)) == ((True, 9, 3),)
    assert declarations(DEFAULT_RULES, (5, 1, JOKER_CLASS)) == ((False, 9, 3),)
    assert "any hand holding two jokers" in " ".join(LITERAL.describe())
    assert "any hand holding two jokers" not in " ".join(DEFAULT_RULES.describe())


def test_under_the_literal_natural_a_one_joker_hand_draws_in_the_best_response() -> None:
    shoe = Shoe.standard(8, jokers=8)
    values = {}
    for name, rules in (("default", DEFAULT_RULES), ("literal", LITERAL)):
        table = game_table(rules, shoe)
        _player, dealer = table.house_way()
        best = table.player_best_response(dealer)
        one_joker = {h: a for h, a in best.items()
                     if isinstance(h, PlayerSet) and h.tag == "J"}
        assert len(one_joker) == 10
        drawn = {a["draw"] for a in one_joker.values()}
        assert drawn == ({Fraction(1)} if name == "literal" else {Fraction(0)})
        values[name] = table.value(best, dealer)
    # the change is the drawn joker's: a Natural where the default reading has a three-card 9
    change = values["literal"] - values["default"]
    assert change == Fraction(2937318048, 87616138805055)
    assert round(float(change) * 100, 4) == 0.0034
    # the documentation reports this very figure (it cannot drift from the computation)
    page = Path(__file__).parents[2] / "docs" / "how-to" / "century21-table.md"
    assert f"exactly `+{change.numerator}/{change.denominator}`" in page.read_text("utf-8")


@given(st.lists(st.integers(10, 100), min_size=1, max_size=7),
       st.one_of(st.none(), st.integers(10, 800)),
       st.sampled_from(["seat-by-seat", "whole-hand"]))
@settings(max_examples=60, deadline=None)
def test_action_shares_walk_the_216_rolls(wagers, stake, reading) -> None:
    by_position = {p: Fraction(w) for p, w in zip(range(2, 9), wagers, strict=False)}
    dealer = None if stake is None else Fraction(stake)
    shares = expected_action(by_position, dealer, reading)
    total = sum(by_position.values())
    walked: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=3):
        landed = (sum(roll) - 1) % 8 + 1
        start = 2 if landed == 1 else landed
        order = sorted(by_position, key=lambda p: (p - start) % 8)
        left = total if dealer is None or dealer >= total else (
            Fraction(0) if reading == "whole-hand" else dealer)
        for position in order:
            taken = min(by_position[position], left)
            walked[position] += taken
            left -= taken
    assert shares == {p: Fraction(walked[p]) / 216 for p in by_position}
    assert sum(shares.values()) == (total if dealer is None or dealer >= total
                                    else 0 if reading == "whole-hand" else dealer)
