"""The money of a full 21st Century Baccarat table (issue 29): the dice count in the action,
--strategy in the economics, rule 6, the distribution and a seeded simulation."""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

import pytest

from exact.core.cards import Shoe
from exact.errors import EconomicsError
from exact.games.century21.game import DEFAULT_RULES, game_table
from exact.games.century21.table_economics import simulate_table, table_figures

FULL = Shoe.standard(8, jokers=8)
SMALL = Shoe.parse("A:3,2:2,5:3,6:3,9:2,K:3,X:2")
# five classes, jokers among them: the four strategies at two seats in 2 s of CPU (6 s on SMALL)
SMALLER = Shoe.parse("A:4,5:3,9:3,K:4,X:2")


def test_seven_seats_of_100_against_300_follow_the_dice() -> None:
    figures = table_figures(DEFAULT_RULES, FULL, [100] * 7, "house", dealer_wager=300)
    shares = [a / 100 for a in figures.expected_action]
    assert min(shares) == Fraction(77, 216) and max(shares) == Fraction(112, 216)
    assert sum(figures.expected_action) == 300
    heads_up = game_table(DEFAULT_RULES, FULL)
    edge = heads_up.value(*heads_up.house_way())
    assert figures.seat_gross == tuple(edge * a for a in figures.expected_action)
    assert figures.dealer_gross == -edge * 300
    # every roll puts three seats in action: three seat collections and the Player/Dealer's
    assert figures.house_collection == 4
    assert figures.rotation == -4  # the same play at every seat: the collections are the cost


def test_the_strategy_changes_the_economics_and_names_both_sides() -> None:
    found = {name: table_figures(DEFAULT_RULES, SMALLER, [10, 20], name)
             for name in ("house", "best", "dealer-best", "equilibrium")}
    assert len({f.dealer_net for f in found.values()}) == 4
    assert found["house"].strategies["player_dealer"].startswith("House Way")
    assert "best response to the table" in found["dealer-best"].strategies["player_dealer"]
    assert "best response" in found["best"].strategies["seats"]
    assert found["dealer-best"].dealer_net > found["house"].dealer_net
    assert found["best"].dealer_net < found["house"].dealer_net
    assert found["equilibrium"].exploitability["player_dealer_gain"] >= 0


def test_rule_6_each_player_checks_its_own_hand_a_multi_spot_player_one() -> None:
    # the checks and the seats' edges only: not the three seats' exact joint distribution on the
    # full shoe (17 s of CPU each; tests/system/test_readme_commands.py pins one)
    separate = table_figures(DEFAULT_RULES, FULL, [10, 10, 10], "best", exact_pairs=False)
    assert separate.checking == (True, True, True)
    assert len(set(separate.seat_edges)) == 1
    one_player = table_figures(DEFAULT_RULES, FULL, [10, 10, 10], "best",
                               owners=["Ann", "Ann", "Bob"], exact_pairs=False)
    assert one_player.checking == (True, False, True)
    assert one_player.seat_edges[1] < one_player.seat_edges[0] == one_player.seat_edges[2]


def test_one_seat_has_the_exact_heads_up_distribution() -> None:
    for name in ("house", "dealer-best", "equilibrium"):
        figures = table_figures(DEFAULT_RULES, SMALL, [10], name, dealer_wager=10)
        found = figures.distribution
        assert found is not None and found.exact
        assert sum(found.outcomes.values()) == 1
        assert found.mean == figures.dealer_net  # the distribution agrees with the figures
        second = sum((p * v * v for v, p in found.outcomes.items()), Fraction(0))
        assert found.variance == second - found.mean ** 2 > 0


@pytest.mark.parametrize("seats, name", [(2, "dealer-best"), (3, "best"), (7, "house")])
def test_a_seeded_table_simulation_confirms_the_exact_figures(seats, name) -> None:
    wagers = [10 * (1 + i % 3) for i in range(seats)]
    figures = table_figures(DEFAULT_RULES, SMALL if seats < 7 else FULL, wagers, name,
                            dealer_wager=25 if seats > 2 else None)
    plays = _plays(figures, name, seats)
    found = simulate_table(DEFAULT_RULES, SMALL if seats < 7 else FULL, *plays, figures,
                           6000, seed=11)
    assert abs(found.mean - float(figures.dealer_net)) < 4 * found.mean_error
    assert found.variance > 0 and abs(sum(found.outcomes.values()) - 1) < 1e-9
    again = simulate_table(DEFAULT_RULES, SMALL if seats < 7 else FULL, *plays, figures,
                           6000, seed=11)
    assert again == found  # seeded: the same figures every run
    assert sqrt(found.variance) < 4 * max(wagers) * seats


def _plays(figures, name, seats):
    from exact.games.century21.full_table import TableGame
    shoe = SMALL if seats < 7 else FULL
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = heads_up.house_way()
    if name == "house":
        return [player] * seats, dealer
    if name == "best":
        return [heads_up.player_best_response(dealer)] * seats, dealer
    game = TableGame(DEFAULT_RULES, shoe, seats)
    amounts = figures.wagers if figures.dealer_wager is None else None
    return [player] * seats, game.dealer_best_response([player] * seats, amounts)


def test_what_is_not_exact_is_refused_in_one_line() -> None:
    with pytest.raises(EconomicsError, match="equilibrium at 4 seats"):
        table_figures(DEFAULT_RULES, FULL, [10] * 4, "equilibrium")
    with pytest.raises(EconomicsError, match="1 to 7 seats"):
        table_figures(DEFAULT_RULES, FULL, [10] * 8, "house")
    with pytest.raises(EconomicsError, match="below the table minimum"):
        table_figures(DEFAULT_RULES, FULL, [10], "house", dealer_wager=5)
    with pytest.raises(EconomicsError, match="outside the table limits"):
        table_figures(DEFAULT_RULES, FULL, [500], "house")


@pytest.mark.parametrize("name", ["house", "dealer-best"])
def test_two_seats_have_the_exact_distribution(name) -> None:
    figures = table_figures(DEFAULT_RULES, SMALL, [10, 20], name, dealer_wager=25)
    found = figures.distribution
    assert found is not None and found.exact and sum(found.outcomes.values()) == 1
    assert found.mean == figures.dealer_net
    plays = _plays(table_figures(DEFAULT_RULES, SMALL, [10, 20], name), name, 2)
    if name == "house":  # the simulation agrees with the exact distribution
        simulated = simulate_table(DEFAULT_RULES, SMALL, *plays, figures, 6000, seed=5)
        for value, p in found.outcomes.items():
            error = sqrt(float(p) * (1 - float(p)) / 6000)
            assert abs(simulated.outcomes.get(value, 0.0) - float(p)) < 4 * error + 1e-9


def test_the_exact_variance_from_pairs_of_seats() -> None:
    from exact.games.century21.table_economics import _pair_variance
    two = table_figures(DEFAULT_RULES, SMALL, [10, 20], "best", dealer_wager=25,
                        owners=["Ann", "Ann"])
    heads_up = game_table(DEFAULT_RULES, SMALL)
    player, dealer = heads_up.house_way()
    best = heads_up.player_best_response(dealer)
    from exact.games.century21.table import action_by_roll
    rolls = action_by_roll({2: Fraction(10), 3: Fraction(20)}, Fraction(25))
    # the pair formula gives the variance of the exact two-seat distribution
    assert _pair_variance(two, DEFAULT_RULES, SMALL, heads_up, [best, player], dealer, rolls,
                          "total") == two.distribution.variance
    # three seats: the exact distribution (the three seats' joint) has the pair formula's
    # variance
    three = table_figures(DEFAULT_RULES, SMALL, [10, 20, 30], "house", dealer_wager=45,
                          simulate_hands=6000, seed=3)
    found = three.distribution
    assert found is not None and found.exact and found.mean == three.dealer_net
    rolls = action_by_roll({2: Fraction(10), 3: Fraction(20), 4: Fraction(30)}, Fraction(45))
    assert _pair_variance(three, DEFAULT_RULES, SMALL, heads_up, [player] * 3, dealer, rolls,
                          "total") == found.variance
    # four seats: simulated, the exact variance beside it
    four = table_figures(DEFAULT_RULES, SMALL, [10, 20, 30, 10], "house", dealer_wager=45,
                         simulate_hands=6000, seed=3)
    found = four.distribution
    assert found is not None and not found.exact and found.exact_variance is not None
    # the sample variance of 6000 hands lies near the exact one (a loose, seeded check)
    assert abs(found.variance - float(found.exact_variance)) < 0.15 * float(found.exact_variance)


def test_the_dealers_best_response_to_two_seats_on_the_full_shoe_by_simulation() -> None:
    from exact.games.century21.full_table import TableGame
    figures = table_figures(DEFAULT_RULES, FULL, [10, 10], "dealer-best", exact_pairs=False)
    game = TableGame(DEFAULT_RULES, FULL, 2)
    seats, house = game.house_way()
    best = game.dealer_best_response(seats, [Fraction(10), Fraction(10)])
    found = simulate_table(DEFAULT_RULES, FULL, seats, best, figures, 20000, seed=29)
    assert abs(found.mean - float(figures.dealer_net)) < 4 * found.mean_error
    # and it is told apart from House Way's figure by the exact values
    assert figures.dealer_net > table_figures(DEFAULT_RULES, FULL, [10, 10], "house",
                                              exact_pairs=False).dealer_net
    assert house != best


@pytest.mark.parametrize("seats", range(1, 8))
def test_every_table_of_one_to_seven_seats_has_its_distribution_variance_and_rotation(seats):
    """Issue 29's line, seat count by seat count on the full shoe: the Player/Dealer's result
    per hand has a distribution (exact up to 3 seats, else a seeded simulation whose mean
    lies within 4 standard errors of the exact figure), its exact variance, and a rotation
    figure (the same play at every seat: a rotation costs a player the collections)."""
    wagers = [10 * (1 + i % 3) for i in range(seats)]
    figures = table_figures(DEFAULT_RULES, FULL, wagers, "house", dealer_wager=25,
                            simulate_hands=3000, seed=3)
    found = figures.distribution
    assert found is not None and found.exact == (seats <= 3)
    assert found.variance > 0
    if found.exact:
        assert sum(found.outcomes.values()) == 1 and found.mean == figures.dealer_net
    else:
        assert abs(sum(found.outcomes.values()) - 1) < 1e-9
        assert abs(found.mean - float(figures.dealer_net)) < 4 * found.mean_error
        assert isinstance(found.exact_variance, Fraction) and found.exact_variance > 0
        # the sample variance of 3,000 hands within a fifth of the exact one
        assert abs(found.variance / float(found.exact_variance) - 1) < 0.2
    assert isinstance(figures.rotation, Fraction)
    assert figures.rotation == -figures.house_collection
