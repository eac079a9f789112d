"""Settling a 21st Century Baccarat table hand: seats, backline circles, limits, collection,
no action."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exact.games.century21.game import DEFAULT_RULES
from exact.games.century21.table import CircleWager, settle_table
from exact.model.settlement import SettlementError


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


def test_whole_hand_reading_no_action_refunds_collections_as_free_collection_buttons() -> None:
    whole_hand = DEFAULT_RULES.replace(action="whole-hand")
    hand = settle_table(whole_hand, "KH 7C", {1: "9S KD", 2: "8C KD"},
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


# Six seats of 100 against the Player/Dealer's 7 (KH 7C stands). Worked by hand:
#   seat 1: K Q draws 5 -> 5, loses;  seat 2: 3 K draws 9 -> 2, loses;  seat 3: 9 K = 9, wins;
#   seat 4: 8 K = 8, wins;            seat 5: K 4 draws 2 -> 6, loses;  seat 6: 9 K = 9, wins.
SIX_SEATS = {1: "KC QD 5S", 2: "3C KH 9S", 3: "9S KD", 4: "8C KD", 5: "KC 4D 2S", 6: "9H KS"}
SIX_WAGERS = [CircleWager(seat, 1, 100) for seat in range(1, 7)]


def test_seat_by_seat_action_in_dice_order_up_to_the_dealers_wager() -> None:
    hand = settle_table(DEFAULT_RULES, "KH 7C", SIX_SEATS, SIX_WAGERS, dealer_wager=300,
                        dice_start=3)
    assert hand.reading == "seat-by-seat" and hand.order == (3, 4, 5, 6, 1, 2)
    nets = {s.wager.bet: (s.event, s.net) for s in hand.settlements}
    assert nets == {"seat 1 circle 1": ("no_action", 0), "seat 2 circle 1": ("no_action", 0),
                    "seat 3 circle 1": ("higher_total", 100),
                    "seat 4 circle 1": ("higher_total", 100),
                    "seat 5 circle 1": ("lower_total", -100), "seat 6 circle 1": ("no_action", 0)}
    # seats 3, 4, 5 pay collection, as does the Player/Dealer; 6, 1, 2 get free collections
    assert hand.house_collection == 4
    assert hand.free_collection_credits == ("seat 1 circle 1", "seat 2 circle 1",
                                            "seat 6 circle 1")
    assert hand.dealer_net == -(100 + 100 - 100) - 1
    assert hand.returned["seat 6 circle 1"] == 100 and hand.in_action["seat 3 circle 1"] == 100
    assert "used up before seat 6 (dice order 3, 4, 5, 6, 1, 2)" in hand.settlements[5].reason
    # the dice change the money: starting at seat 1, seats 1, 2, 3 have the action
    other = settle_table(DEFAULT_RULES, "KH 7C", SIX_SEATS, SIX_WAGERS, dealer_wager=300,
                         dice_start=1)
    assert other.dealer_net == -(-100 - 100 + 100) - 1
    # a wager covered in part plays for that part; the rest is returned, its collection kept
    part = settle_table(DEFAULT_RULES, "KH 7C", SIX_SEATS, SIX_WAGERS, dealer_wager=250,
                        dice_start=3)
    fifth = {s.wager.bet: s for s in part.settlements}["seat 5 circle 1"]
    assert (fifth.wager.amount, fifth.net, part.returned["seat 5 circle 1"]) == (50, -50, 50)
    assert part.collections["seat 5 circle 1"] == 1 and part.dealer_net == -(200 - 50) - 1
    # the whole-hand reading is a rule option: nothing is in action
    whole = settle_table(DEFAULT_RULES.replace(action="whole-hand"), "KH 7C", SIX_SEATS,
                         SIX_WAGERS, dealer_wager=300, dice_start=3)
    assert not whole.action and whole.dealer_net == 0 == whole.house_collection
    assert len(whole.free_collection_credits) == 7


def test_backline_circles_take_action_after_the_seated_player() -> None:
    wagers = [CircleWager(3, 2, 50), CircleWager(3, 1, 40), CircleWager(4, 1, 100)]
    hand = settle_table(DEFAULT_RULES, "KH 7C", SIX_SEATS, wagers, dealer_wager=60,
                        dice_start=3)
    assert hand.in_action == {"seat 3 circle 2": 20, "seat 3 circle 1": 40,
                              "seat 4 circle 1": 0}
    assert hand.deciders[3] == 1  # the largest wager *in action* decides, not the largest


def test_rule_10_an_undeclared_natural_plays_as_nine() -> None:
    seats = {1: "X X", 2: "X X"}
    hand = settle_table(DEFAULT_RULES, "9C KD", seats, [CircleWager(1, 1, 10),
                                                        CircleWager(2, 1, 10)],
                        dealer_wager=20, undeclared_naturals=[2])
    assert [(s.event, s.net) for s in hand.settlements] == [("natural", 10), ("tie", 0)]
    assert "Natural not declared: plays as 9" in hand.settlements[1].reason
    with pytest.raises(SettlementError, match="undeclared"):
        settle_table(DEFAULT_RULES, "9C KD", {1: "9S KD"}, [CircleWager(1, 1, 10)], 10,
                     undeclared_naturals=[1])
    with pytest.raises(SettlementError, match="stand: the hand cannot have drawn"):  # a 9 stands
        settle_table(DEFAULT_RULES, "KH 7C", {1: "X X 5C"}, [CircleWager(1, 1, 10)], 10,
                     undeclared_naturals=[1])


def test_the_largest_wager_in_action_decides_the_play() -> None:
    wagers = [CircleWager(1, 1, 10, choice="stand"), CircleWager(1, 2, 50, choice="draw")]
    drew = settle_table(DEFAULT_RULES, "KH 7C", {1: "3C 2D 4H"}, wagers, dealer_wager=100)
    assert drew.deciders == {1: 2} and drew.settlements[0].event == "higher_total"
    with pytest.raises(SettlementError, match=r"seat 1 circle 2, 50\) chose to draw"):
        settle_table(DEFAULT_RULES, "KH 7C", {1: "3C 2D"}, wagers, dealer_wager=100)
    # only 10 of the Player/Dealer's wager: circle 1 alone is in action and decides
    alone = settle_table(DEFAULT_RULES, "KH 7C", {1: "3C 2D"}, wagers, dealer_wager=10)
    assert alone.deciders == {1: 1}


def test_rule_6_one_checked_hand_per_player() -> None:
    seats = {1: "3C 2D", 2: "4C 2H", 3: "3D 2S 9C"}  # 5, 6, 5 drawing
    # player A decides three spots; standing on 5 departs from House Way (draw on 5 or less)
    one = [CircleWager(s, 1, 10, player="A") for s in (1, 2, 3)]
    settle_table(DEFAULT_RULES, "KH 7C", seats, one, dealer_wager=30)
    two = {**seats, 3: "3D 2S"}
    with pytest.raises(SettlementError, match=r"A decides 3 spots .* seats 1, 3"):
        settle_table(DEFAULT_RULES, "KH 7C", two, one, dealer_wager=30)
    # three different players may each check their own hand
    settle_table(DEFAULT_RULES, "KH 7C", two, [CircleWager(s, 1, 10) for s in (1, 2, 3)], 30)
