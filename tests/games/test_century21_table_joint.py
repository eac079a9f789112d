"""The exact joint of the seats' pays at 2 and 3 seats (table_joint.seat_joint), which makes
the Player/Dealer's distribution per hand exact at 3 seats: against a card-by-card brute force
over every arrangement of a twelve-card shoe, against the two-seat joint of the full-table
game, its marginals against the fewer seats', and a seeded simulation within its interval."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import sqrt

import pytest

from exact.core.cards import Shoe
from exact.errors import StrategyError
from exact.games.century21.full_table import TableGame, two_seat_joint
from exact.games.century21.game import (
    DEFAULT_RULES,
    END,
    CheckSet,
    DealerSet,
    PlayerSet,
    game_table,
)
from exact.games.century21.reference import X, table_seat_results
from exact.games.century21.table_economics import simulate_table, table_figures
from exact.games.century21.table_joint import seat_joint

FULL = Shoe.standard(8, jokers=8)


def _plain(heads_up):
    """House Way as the brute force plays it: joker hands stand, draw on 0-5; the
    Player/Dealer ends at the check whenever it may."""
    seat, dealer = {}, {}
    for infoset in heads_up.player_sets:
        assert isinstance(infoset, PlayerSet)
        draw = isinstance(infoset.tag, int) and infoset.tag <= 5
        seat[infoset] = {"draw": Fraction(draw), "stand": Fraction(not draw)}
    for infoset, actions in heads_up.dealer_sets.items():
        if isinstance(infoset, CheckSet):
            dealer[infoset] = {a: Fraction(a == END) for a in actions}
        else:
            assert isinstance(infoset, DealerSet)
            joker = 10 in (infoset.up, infoset.down)
            draw = not joker and (infoset.up + infoset.down) % 10 <= 5
            dealer[infoset] = {a: Fraction((a == "draw") == draw) for a in actions}
    return seat, dealer


def test_three_seats_against_a_brute_force_over_every_arrangement() -> None:
    cards = [0] * 4 + [5] * 4 + [6] * 2 + [X] * 2  # 12 cards: three seats and all draws
    shoe = Shoe.parse("K:4,5:4,6:2,X:2")
    seat, dealer = _plain(game_table(DEFAULT_RULES, shoe))
    results = table_seat_results(cards, [lambda hand, up: "stand" if X in hand else
                                         "draw" if sum(hand) % 10 <= 5 else "stand"] * 3)
    counted = Counter(tuple(r) for r in results)
    expected = {k: Fraction(v, len(results)) for k, v in sorted(counted.items())}
    assert seat_joint(DEFAULT_RULES, shoe, [seat] * 3, dealer) == expected


def test_two_seats_equal_the_full_table_games_joint() -> None:
    shoe = Shoe.parse("A:3,2:2,5:3,6:3,9:2,K:3,X:2")
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = heads_up.house_way()
    best = heads_up.player_best_response(dealer)
    game = TableGame(DEFAULT_RULES, shoe, 2)
    assert seat_joint(DEFAULT_RULES, shoe, [best, player], dealer) == two_seat_joint(
        game, [best, player], game.lift_dealer(dealer))


def test_three_seats_marginals_are_the_two_seat_joint_and_the_heads_up_value() -> None:
    shoe = Shoe.parse("A:3,2:2,5:3,6:3,9:2,K:3,X:2")
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = heads_up.house_way()
    best = heads_up.player_best_response(dealer)
    three = seat_joint(DEFAULT_RULES, shoe, [best, player, player], dealer)
    assert sum(three.values()) == 1
    pairs: Counter = Counter()
    for (a, b, _c), p in three.items():
        pairs[a, b] += p
    assert dict(pairs) == seat_joint(DEFAULT_RULES, shoe, [best, player], dealer)
    assert sum(p * c for (_a, _b, c), p in three.items()) == heads_up.value(player, dealer)


def test_three_seats_on_the_full_shoe_against_a_seeded_simulation() -> None:
    """The command's exact distribution at 3 seats, each net outcome's probability within
    4 standard errors of the independent table simulation's."""
    figures = table_figures(DEFAULT_RULES, FULL, [100, 50, 25], "house", dealer_wager=150)
    found = figures.distribution
    assert found is not None and found.exact and found.mean == figures.dealer_net
    heads_up = game_table(DEFAULT_RULES, FULL)
    player, dealer = heads_up.house_way()
    hands = 20_000
    simulated = simulate_table(DEFAULT_RULES, FULL, [player] * 3, dealer, figures, hands, 7)
    for value, p in found.outcomes.items():
        error = sqrt(float(p) * (1 - float(p)) / hands)
        assert abs(simulated.outcomes.get(value, 0.0) - float(p)) < 4 * error + 1e-9


def test_what_it_refuses() -> None:
    heads_up = game_table(DEFAULT_RULES, FULL)
    player, dealer = heads_up.house_way()
    with pytest.raises(StrategyError, match="2 or 3 seats"):
        seat_joint(DEFAULT_RULES, FULL, [player] * 4, dealer)
    with pytest.raises(StrategyError, match="cannot deal"):
        seat_joint(DEFAULT_RULES, Shoe.parse("K:4,5:4,6:2"), [player] * 3, dealer)
    drew = dict(dealer)  # a Player/Dealer reading the player's draw has no table meaning
    for infoset in [h for h in drew if isinstance(h, DealerSet) and h.drew]:
        drew[infoset] = {a: Fraction(a == "stand") for a in drew[infoset]}
    with pytest.raises(StrategyError):
        seat_joint(DEFAULT_RULES, FULL, [player] * 3, drew)


def test_the_two_seat_joint_refuses_a_shoe_past_its_exact_bound(capsys) -> None:
    """Past MAX_JOINT_CARDS a bin's total passes int64: on 1,000 decks the joint came out with
    probabilities summing to -1.5e-5 (its marginal +0.0005%, not the seat's -1.32%) and the
    table command died on the square root of a negative variance. Refused in one line now,
    before any counting (the strategies are not read)."""
    from exact.cli.app import main

    big = Shoe.standard(1000, jokers=1000)
    with pytest.raises(StrategyError, match="at most 6,208 cards, not 53,000"):
        two_seat_joint(TableGame(DEFAULT_RULES, big, 2), [{}, {}], {})
    assert main(["analyze", "century21", "--seats", "2", "--decks", "1000",
                 "--strategy", "dealer-best"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "at most 6,208 cards" in error
