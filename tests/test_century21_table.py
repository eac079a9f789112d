"""Settling a 21st Century Baccarat table hand: seats, backline circles, limits, collection,
no action."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exact.games.century21 import DEFAULT_RULES
from exact.games.century21_table import CircleWager, settle_table
from exact.settlement import SettlementError


def test_backline_circles_share_the_seats_result_and_each_pays_collection() -> None:
    hand = settle_table(DEFAULT_RULES, "KH 5C 4D", {1: "9S KD", 2: "3C 2D 9H", 3: "KC KS 9D"},
                        [CircleWager(1, 1, 10), CircleWager(1, 2, 50), CircleWager(1, 3, 100),
                         CircleWager(2, 1, 25), CircleWager(3, 1, 10, free_collection=True)],
                        dealer_wager=500)
    # dealer 0+5+4 = 9 (three cards); seat 1 two-card 9 pushes; seat 2 makes 4; seat 3 makes 9
    by_bet = {s.wager.bet: s for s in hand.settlements}
    assert {b: (s.event, s.net) for b, s in by_bet.items()} == {
        "seat 1 circle 1": ("tie", 0), "seat 1 circle 2": ("tie", 0),
        "seat 1 circle 3": ("tie", 0), "seat 2 circle 1": ("lower_total", -25),
        "seat 3 circle 1": ("tie", 0)}
    assert hand.collections["seat 3 circle 1"] == 0 and hand.collections["seat 1 circle 3"] == 1
    assert hand.house_collection == 5  # four paying circles and the Player/Dealer
    assert hand.dealer_net == 25 - 1
    assert hand.deciders == {1: 3, 2: 1, 3: 1}  # the largest wager decides the play


def test_ties_on_zero_natural_and_dealer_nine() -> None:
    hand = settle_table(DEFAULT_RULES, "9C KD", {1: "X X", 2: "KH KC", 3: "4S 5S"},
                        [CircleWager(s, 1, 10) for s in (1, 2, 3)], dealer_wager=30)
    events = [(s.event, s.net) for s in hand.settlements]
    assert events == [("natural", 10), ("dealer_nine", -10), ("tie", 0)]
    zero = settle_table(DEFAULT_RULES, "KC KD TD", {1: "KH QH JH"}, [CircleWager(1, 1, 10)], 10)
    assert zero.settlements[0].event == "ties_on_zero" and zero.settlements[0].net == -10


def test_no_action_refunds_collections_as_free_collection_buttons() -> None:
    hand = settle_table(DEFAULT_RULES, "KH 7C", {1: "9S KD", 2: "8C KD"},
                        [CircleWager(1, 1, 50), CircleWager(2, 1, 60)], dealer_wager=100)
    assert not hand.action
    assert all(s.net == 0 and s.event == "no_action" for s in hand.settlements)
    assert hand.house_collection == 0 and hand.dealer_net == 0
    assert hand.free_collection_credits == ("seat 1 circle 1", "seat 2 circle 1", "Player/Dealer")


@pytest.mark.parametrize("kwargs, message", [
    ({"wagers": [CircleWager(1, 1, 5)]}, "table limits"),
    ({"wagers": [CircleWager(1, 1, 101)]}, "table limits"),
    ({"wagers": [CircleWager(2, 1, 10)]}, "no hand"),
    ({"dealer_wager": -1}, "positive"),
    ({"seat_cards": {1: "5C 5D"}}, "must draw"),
    ({"seat_cards": {1: "8C KD 2H"}}, "must stand"),
    ({"dealer_cards": "9C KD 2H"}, "no one draws"),
    ({"seat_cards": {1: "5C"}}, "2 or 3 cards"),
    ({"seat_cards": {1: "5C ZZ"}}, "unknown card"),
])
def test_impossible_hands_and_wagers_are_refused(kwargs, message) -> None:
    arguments = {"rules": DEFAULT_RULES, "dealer_cards": "KH 7C", "seat_cards": {1: "9S KD"},
                 "wagers": [CircleWager(1, 1, 10)], "dealer_wager": 100, **kwargs}
    with pytest.raises(SettlementError, match=message):
        settle_table(**arguments)


def test_circle_and_seat_numbers_are_checked() -> None:
    with pytest.raises(SettlementError, match="circles"):
        CircleWager(1, 4, 10)
    with pytest.raises(SettlementError, match="seats"):
        CircleWager(0, 1, 10)
    with pytest.raises(SettlementError, match="not a number"):
        CircleWager(1, 1, "ten")
    assert CircleWager(1, 2, "12.5").amount == Fraction(25, 2)
