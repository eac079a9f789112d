"""The Player/Dealer's best response to a table estimated from a seeded sample (where the
exact table game does not reach: 4-7 seats, third cards face up at 2+ seats): against the
exact best response at 2 seats on the full shoe, against a card-by-card brute force with third
cards face up on a reduced shoe, against the independent table simulation at 4 seats, and the
command's output naming the estimate."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exact.cli.app import main
from exact.core.cards import Shoe
from exact.errors import EconomicsError
from exact.games.century21.full_table import TableGame, dealer_value
from exact.games.century21.game import DEFAULT_RULES, PlayerSet, game_table
from exact.games.century21.reference import X, table_dealer_best_value
from exact.games.century21.table_economics import simulate_table, table_figures
from exact.games.century21.table_sample import sampled_dealer_best

FULL = Shoe.standard(8, jokers=8)


def _house(shoe: Shoe):
    heads_up = game_table(DEFAULT_RULES, shoe)
    player, dealer = heads_up.house_way()
    return heads_up, player, dealer


@pytest.fixture(scope="module")
def two_seats():
    heads_up, player, dealer = _house(FULL)
    value = heads_up.value(player, dealer)
    found = sampled_dealer_best(DEFAULT_RULES, FULL, [player, player], dealer, [value] * 2)
    return found, player, dealer


def test_two_seats_against_the_exact_best_response(two_seats) -> None:
    """Every decision the sample is sure of (4 standard errors) is the exact best response's;
    the sampled strategy's exact value lies within 4 standard errors of its estimate; the
    exact best response's value lies in the stated interval."""
    found, player, dealer = two_seats
    game = TableGame(DEFAULT_RULES, FULL, 2)
    exact = game.dealer_best_response([player, player])
    strategy = found.strategy(dealer)
    sure = [key for key, z in found.confidence.items() if abs(z) > 4]
    assert len(sure) > 20
    for key in sure:
        infoset = next(h for h in strategy if getattr(h, "kind", None) == "table-dealer"
                       and (h.up, h.down) == key[:2]
                       and sum(b << i for i, b in enumerate(h.drew)) == key[2])
        assert exact[infoset] == strategy[infoset]
    values = game.seat_values([player, player], strategy)
    for estimate, error, value in zip(found.seat_values, found.seat_errors, values,
                                      strict=True):
        assert abs(float(estimate - value)) <= 4 * error
    assert abs(float(found.dealer_value - dealer_value(game, [player, player], strategy))) \
        <= 4 * found.dealer_error
    best = dealer_value(game, [player, player], exact)
    low, high = found.interval
    assert low <= float(best) <= high
    assert "seed 1" in found.method() and "about 95%" in found.method()


def test_the_sample_is_seeded(two_seats) -> None:
    _found, player, dealer = two_seats
    heads_up = game_table(DEFAULT_RULES, FULL)
    value = heads_up.value(player, dealer)
    again = sampled_dealer_best(DEFAULT_RULES, FULL, [player, player], dealer, [value] * 2,
                                hands=20_000, seed=1)
    same = sampled_dealer_best(DEFAULT_RULES, FULL, [player, player], dealer, [value] * 2,
                               hands=20_000, seed=1)
    other = sampled_dealer_best(DEFAULT_RULES, FULL, [player, player], dealer, [value] * 2,
                                hands=20_000, seed=2)
    assert again == same and again.dealer_value != other.dealer_value


def test_third_cards_face_up_against_a_brute_force() -> None:
    """Two seats, third cards face up, on a ten-card shoe: the brute force tries every
    Player/Dealer choice per what it sees (its cards and each seat's third card)."""
    shoe = Shoe.parse("5:2,6:2,K:2,A:2,X:2")
    rules = DEFAULT_RULES.replace(third_cards_face_up=True)
    heads_up = game_table(DEFAULT_RULES, shoe)
    _player, dealer = heads_up.house_way()
    plain = {}  # House Way as the brute force plays it: a joker hand stands
    for infoset in heads_up.player_sets:
        assert isinstance(infoset, PlayerSet)
        draw = isinstance(infoset.tag, int) and infoset.tag <= 5
        plain[infoset] = {"draw": Fraction(draw), "stand": Fraction(not draw)}
    value = heads_up.value(plain, dealer)
    found = sampled_dealer_best(rules, shoe, [plain, plain], dealer, [value] * 2,
                                hands=100_000)
    assert found.face_up
    best, _house_value = table_dealer_best_value({5: 2, 6: 2, 0: 2, 1: 2, X: 2}, 2,
                                                 face_up=True)
    face_down, _ = table_dealer_best_value({5: 2, 6: 2, 0: 2, 1: 2, X: 2}, 2)
    assert best > face_down  # seeing the cards is worth something here
    low, high = found.interval
    assert low <= float(best) <= high
    assert high - low < 0.02


def test_four_seats_against_the_independent_table_simulation() -> None:
    """The estimate at 4 seats (beyond the exact game) agrees with the seeded table
    simulation of the same strategy (independent code: cards dealt by random.sample)."""
    _heads_up, player, _dealer = _house(FULL)
    figures = table_figures(DEFAULT_RULES, FULL, [100] * 4, "dealer-best", exact_pairs=False)
    assert figures.estimate is not None
    strategy = figures.estimate  # the errors
    simulated = simulate_table(DEFAULT_RULES, FULL, [player] * 4,
                               _strategy_of(figures), figures, 40_000, seed=3)
    error = (simulated.mean_error ** 2 + strategy.dealer_error ** 2) ** 0.5
    assert abs(simulated.mean - float(figures.dealer_net)) <= 4 * error
    # the Player/Dealer does better than House Way (exactly known) by more than its error
    house = table_figures(DEFAULT_RULES, FULL, [100] * 4, "house", exact_pairs=False)
    assert float(figures.dealer_net - house.dealer_net) > 4 * strategy.dealer_error


def _strategy_of(figures):
    # the table strategy the economics used (the same seeds give the same estimate)
    heads_up, player, dealer = _house(FULL)
    value = heads_up.value(player, dealer)
    return sampled_dealer_best(DEFAULT_RULES, FULL, [player] * figures.seats, dealer,
                               [value] * figures.seats, [Fraction(100)] * figures.seats
                               ).strategy(dealer)


def test_the_command_names_the_estimate_and_refuses_what_it_cannot_serve(capsys) -> None:
    assert main(["analyze", "century21", "--seats", "4", "--strategy", "dealer-best",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["estimate"]["exact"] is False
    assert "seeded sample" in data["estimate"]["method"]
    assert "ESTIMATED" in data["strategies"]["player_dealer"]
    assert len(data["estimate"]["seat_edge_standard_errors"]) == 4
    low, high = data["estimate"]["best_response_gross_interval_95"]
    assert low < high
    with pytest.raises(EconomicsError, match="equilibrium at 4 seats"):
        table_figures(DEFAULT_RULES, FULL, [10] * 4, "equilibrium")
    with pytest.raises(EconomicsError, match="face up"):
        table_figures(DEFAULT_RULES.replace(third_cards_face_up=True), FULL, [10] * 2,
                      "equilibrium")
