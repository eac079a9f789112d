"""21st Century Baccarat at a full table, exactly: the table game against the heads-up one, the
exchangeability invariant, and the Player/Dealer's best response against a brute force
(issue 29)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exact.core.cards import Shoe
from exact.errors import StrategyError
from exact.games.century21.full_table import (
    TableGame,
    dealer_value,
    iterated_best_responses,
)
from exact.games.century21.game import DEFAULT_RULES, PlayerSet, game_table
from exact.games.century21.reference import X, table_dealer_best_value
from exact.games.century21.solve import strategy_by_name

SMALL = "A:2,5:2,6:2,9:1,K:2,X:2"


def plain_house_way(game: TableGame) -> dict:
    """House Way as the reference writes it: a joker hand stands, else draw on 0-5."""
    found = {}
    for infoset in game.heads_up.player_sets:
        assert isinstance(infoset, PlayerSet)
        draw = isinstance(infoset.tag, int) and infoset.tag <= 5
        found[infoset] = {"draw": Fraction(draw), "stand": Fraction(not draw)}
    return found


@pytest.mark.parametrize("shoe_text", [SMALL, "8 decks + 8 jokers"])
@pytest.mark.parametrize("name", ["house", "best", "dealer-best"])
def test_one_seat_is_the_heads_up_game_under_every_strategy(shoe_text, name) -> None:
    shoe = (Shoe.standard(8, jokers=8) if shoe_text.startswith("8") else Shoe.parse(shoe_text))
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = strategy_by_name(heads_up, name)
    game = TableGame(DEFAULT_RULES, shoe, seats=1)
    assert game.seat_values([player], game.lift_dealer(dealer)) == [heads_up.value(player,
                                                                                   dealer)]
    if name == "house":  # the table's own best responses are the heads-up ones
        seats, table_dealer = game.house_way()
        best = game.dealer_best_response(seats)
        assert game.seat_values(seats, best) == [heads_up.value(
            player, heads_up.dealer_best_response(player))]
        seat_best = game.seat_best_response(0, seats, table_dealer)
        assert game.seat_values([seat_best], table_dealer) == [heads_up.value(
            heads_up.player_best_response(dealer), dealer)]


def test_the_mixed_heads_up_equilibrium_at_one_seat() -> None:
    shoe = Shoe.parse(SMALL)
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = strategy_by_name(heads_up, "equilibrium")
    game = TableGame(DEFAULT_RULES, shoe, seats=1)
    assert game.seat_values([player], game.lift_dealer(dealer)) == [heads_up.value(player,
                                                                                   dealer)]


def test_with_a_house_way_dealer_each_seat_has_the_heads_up_value_whatever_the_seats() -> None:
    shoe = Shoe.parse("A:3,2:2,5:3,6:3,9:2,K:3,X:2")
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = heads_up.house_way()
    best = heads_up.player_best_response(dealer)
    for seats in (2, 3):
        game = TableGame(DEFAULT_RULES, shoe, seats)
        _, table_dealer = game.house_way()
        strategies = [best] + [player] * (seats - 1)
        values = game.seat_values(strategies, table_dealer)
        assert values == [heads_up.value(best, dealer)] + [heads_up.value(player, dealer)] * (
            seats - 1)


@pytest.mark.parametrize("seats, shoe_text, counts", [
    (1, "5:3,6:2,K:3,A:2,X:2", {5: 3, 6: 2, 0: 3, 1: 2, X: 2}),
    (2, "5:2,6:2,K:2,A:2,X:2", {5: 2, 6: 2, 0: 2, 1: 2, X: 2}),
])
def test_the_dealers_best_response_to_a_table_against_a_brute_force(seats, shoe_text,
                                                                    counts) -> None:
    game = TableGame(DEFAULT_RULES, Shoe.parse(shoe_text), seats)
    strategies = [plain_house_way(game)] * seats
    _, house = game.house_way()
    best = game.dealer_best_response(strategies)
    reference_best, reference_house = table_dealer_best_value(counts, seats)
    assert dealer_value(game, strategies, best) == reference_best
    assert dealer_value(game, strategies, house) == reference_house
    assert reference_best > reference_house  # seeing who drew is worth something here


def test_iterated_best_responses_state_each_sides_exploitability() -> None:
    game = TableGame(DEFAULT_RULES, Shoe.parse("A:3,2:2,5:3,6:3,9:2,K:3,X:2"), seats=2)
    found = iterated_best_responses(game, rounds=4)
    assert found.dealer_gain >= 0 and all(g >= 0 for g in found.seat_gains)
    if found.converged:
        assert found.dealer_gain == 0 and found.seat_gains == [0, 0]
    best = game.dealer_best_response(found.seats)
    assert dealer_value(game, found.seats, best) - dealer_value(
        game, found.seats, found.dealer) == found.dealer_gain


def test_the_table_game_refuses_what_it_cannot_compute() -> None:
    shoe = Shoe.parse(SMALL)
    with pytest.raises(StrategyError, match="1 to 3"):
        TableGame(DEFAULT_RULES, shoe, seats=4)
    with pytest.raises(StrategyError, match=r"third_cards_face_up"):
        TableGame(DEFAULT_RULES.replace(third_cards_face_up=True), shoe, seats=2)
    game = TableGame(DEFAULT_RULES, shoe, seats=2)
    heads_up = game_table(DEFAULT_RULES, shoe)
    _player, dealer = strategy_by_name(heads_up, "dealer-best")
    with pytest.raises(StrategyError, match="whether the player drew"):
        game.lift_dealer(dealer)
