"""The full table on the generic decision protocol (table_round.TableRound): its generic
sequence-form walk on reduced shoes gives exactly the full-table game's figures (the exact
builder of full_table): values of the Player/Dealer's strategies, its best response and a free
seat's, by the generic best-response algorithm."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exact.core.cards import Shoe
from exact.engines.decisions import decision_table
from exact.engines.fixed_strategy import choices
from exact.engines.strategy_games import SequenceForm, best_response, evaluate
from exact.games.century21.full_table import TableGame, dealer_value
from exact.games.century21.game import DEFAULT_RULES, PlayerSet, game_table, set_order
from exact.games.century21.table_round import TableRound

SHOES = ["5:2,6:2,K:2,A:2,X:2", "5:3,6:2,K:2,A:1,9:1,X:1"]


def _plain(heads_up) -> dict:
    found = {}
    for infoset in heads_up.player_sets:
        assert isinstance(infoset, PlayerSet)
        draw = isinstance(infoset.tag, int) and infoset.tag <= 5
        found[infoset] = {"draw": Fraction(draw), "stand": Fraction(not draw)}
    return found


def _form(rules, seats, free, shoe, side_pay):
    walked = decision_table(TableRound(rules, tuple(choices(s, set_order) for s in seats),
                                       free), shoe)
    return SequenceForm(walked.total, walked.sets, walked.parents,
                        walked.leaves(side_pay)), walked


@pytest.mark.parametrize("shoe_text", SHOES)
def test_the_player_dealers_strategies_and_best_response_at_two_seats(shoe_text) -> None:
    shoe = Shoe.parse(shoe_text)
    seats = [_plain(game_table(DEFAULT_RULES, shoe))] * 2
    form, walked = _form(DEFAULT_RULES, seats, None, shoe,
                         lambda pays: (Fraction(0), -sum(pays, Fraction(0))))
    assert walked.total == shoe.size * (shoe.size - 1) * (shoe.size - 2) * \
        (shoe.size - 3) * (shoe.size - 4) * (shoe.size - 5) * (shoe.size - 6) * \
        (shoe.size - 7) * (shoe.size - 8)
    game = TableGame(DEFAULT_RULES, shoe, 2)
    best = game.dealer_best_response(seats)
    for dealer in (game.house_way()[1], best):
        assert evaluate(form, {}, dealer)[1] == dealer_value(game, seats, dealer)
    generic = best_response(form, 1, {})
    assert evaluate(form, {}, generic)[1] == dealer_value(game, seats, best)


def test_a_free_seats_best_response_to_the_table() -> None:
    shoe = Shoe.parse(SHOES[0])
    heads_up = game_table(DEFAULT_RULES, shoe)
    seats = [_plain(heads_up)] * 2
    game = TableGame(DEFAULT_RULES, shoe, 2)
    dealer = game.dealer_best_response(seats)
    form, _ = _form(DEFAULT_RULES, seats, 0, shoe,
                    lambda pays: (pays[0], -sum(pays, Fraction(0))))
    generic = best_response(form, 0, dealer)
    builder = game.seat_best_response(0, seats, dealer)
    assert evaluate(form, generic, dealer)[0] == game.seat_values([builder, seats[1]],
                                                                  dealer)[0]


def test_one_seat_is_the_heads_up_round() -> None:
    shoe = Shoe.parse(SHOES[1])
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = heads_up.house_way()
    form, _ = _form(DEFAULT_RULES, [player], None, shoe,
                    lambda pays: (pays[0], -pays[0]))
    lifted = TableGame(DEFAULT_RULES, shoe, 1).lift_dealer(dealer)
    assert evaluate(form, {}, lifted)[0] == heads_up.value(player, dealer)
