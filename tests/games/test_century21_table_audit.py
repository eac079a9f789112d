"""Issue 29, line by line, where the other tests stop short: one seat's table figures are the
heads-up figures under every strategy (the money, not only the game's values); the table
simulation plays, on each roll of the dice, the Player/Dealer's strategy of that roll; the
settlement holes from the command line; the Player/Dealer's wager below the table minimum in
the heads-up economics (``--players``)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exact.cli.app import main
from exact.core.cards import Shoe
from exact.errors import EconomicsError
from exact.games.century21 import table_economics as module
from exact.games.century21.economics import table_economics
from exact.games.century21.full_table import TableGame, TableSet
from exact.games.century21.game import DEFAULT_RULES, game_table
from exact.games.century21.solve import strategy_by_name
from exact.games.century21.table import action_by_roll, first_position_distribution
from exact.games.century21.table_economics import (
    TABLE_STRATEGIES,
    simulate_table,
    table_figures,
)

SMALL = Shoe.parse("A:3,2:2,5:3,6:3,9:2,K:3,X:2")


@pytest.mark.parametrize("name", TABLE_STRATEGIES)
def test_one_seat_at_the_table_has_the_heads_up_money_under_every_strategy(name) -> None:
    """The seat's edge is the heads-up value of the strategy pair; the Player/Dealer's gross,
    net and break-even wager, the card room's collection and the rotation are the heads-up
    economics of one player on that edge; the distribution is the heads-up pay's, scaled."""
    heads_up = game_table(DEFAULT_RULES, SMALL)
    player, dealer = strategy_by_name(heads_up, name)
    value = heads_up.value(player, dealer)
    figures = table_figures(DEFAULT_RULES, SMALL, [20], name)
    assert figures.seat_edges == (value,)
    economics = table_economics(heads_up, players=1, bet=20, edge=value, strategies=name)
    assert figures.dealer_gross == economics.dealer_gross == -20 * value
    assert figures.dealer_net == economics.dealer_net
    assert figures.house_collection == economics.house_collection == 2
    assert figures.dealer_break_even_wager == economics.dealer_break_even_bet
    assert figures.rotation == figures.dealer_net + figures.seat_net[0] == -2
    result = heads_up.evaluate(player, dealer)
    second = sum((pay * pay * c for (_how, pay), c in result.counts.items()),
                 Fraction(0)) / result.total
    found = figures.distribution
    assert found is not None and found.exact
    assert found.variance == 400 * (second - value * value)


def _fixed(house: dict, action: str) -> dict:
    """The table Player/Dealer that takes ``action`` wherever it has the choice."""
    return {h: ({a: Fraction(a == action) for a in actions}
                if isinstance(h, TableSet) and action in actions and len(actions) > 1
                else dict(actions)) for h, actions in house.items()}


def test_the_simulation_plays_each_rolls_player_dealer(monkeypatch) -> None:
    """A Player/Dealer that knows the dice plays, on each roll, its strategy for the wager in
    action of that roll: every decision the simulation asks of it is asked of that roll's
    strategy (recorded hand by hand), and one strategy on every roll is the plain simulation."""
    game = TableGame(DEFAULT_RULES, SMALL, 2)
    seats, house = game.house_way()
    draw, stand = _fixed(house, "draw"), _fixed(house, "stand")
    landings = [landed for landed, p in first_position_distribution().items() if p]
    by_roll = [draw if landed % 2 else stand for landed in landings]
    figures = table_figures(DEFAULT_RULES, SMALL, [10, 20], "house", dealer_wager=25)
    plain = simulate_table(DEFAULT_RULES, SMALL, seats, draw, figures, 300, seed=3)
    assert simulate_table(DEFAULT_RULES, SMALL, seats, stand, figures, 300, seed=3,
                          by_roll=[draw] * len(landings)) == plain
    asked: list[tuple[str, object]] = []
    landing = module.amounts_in_action
    actions = TableGame.dealer_actions

    def landed(wagers, dealer_wager, reading, at):
        asked.append(("landed", at))
        return landing(wagers, dealer_wager, reading, at)

    def recorded(self, dealer, up, down, drew):
        asked.append(("play", dealer))
        return actions(self, dealer, up, down, drew)

    monkeypatch.setattr(module, "amounts_in_action", landed)
    monkeypatch.setattr(TableGame, "dealer_actions", recorded)
    simulate_table(DEFAULT_RULES, SMALL, seats, house, figures, 300, seed=3, by_roll=by_roll)
    at, seen = None, set()
    for what, value in asked:
        if what == "landed":
            at = value
        else:
            assert value == (draw if at % 2 else stand)
            seen.add(at % 2)
    assert seen == {0, 1}
    with pytest.raises(EconomicsError, match="landings of the dice"):
        simulate_table(DEFAULT_RULES, SMALL, seats, house, figures, 10, seed=3,
                       by_roll=[draw])


def test_the_figures_simulate_the_plays_of_each_roll(monkeypatch) -> None:
    """At 3 seats the Player/Dealer's best response to an uncovered table is one strategy per
    wager in action, and the simulated distribution is asked of those strategies."""
    shoe = Shoe.parse("5:3,6:3,K:3,A:2,X:2")
    taken = {}

    def capture(*arguments, **keywords):
        taken["by_roll"] = arguments[8] if len(arguments) > 8 else keywords.get("by_roll")
        return real(*arguments, **keywords)

    real = module.simulate_table
    monkeypatch.setattr(module, "simulate_table", capture)
    figures = table_figures(DEFAULT_RULES, shoe, [10, 20, 30], "dealer-best", dealer_wager=25,
                            simulate_hands=50)
    by_roll = taken["by_roll"]
    rolls = action_by_roll({2: Fraction(10), 3: Fraction(20), 4: Fraction(30)}, Fraction(25))
    assert by_roll is not None and len(by_roll) == len(rolls) == 8
    game = TableGame(DEFAULT_RULES, shoe, 3)
    seats, _ = game.house_way()
    gross = Fraction(0)
    for play, (p, amounts) in zip(by_roll, rolls, strict=True):
        values = game.seat_values(seats, play)
        gross -= p * sum((amounts[i + 2] * v for i, v in enumerate(values)), Fraction(0))
    assert gross == figures.dealer_gross  # the plays the figures were computed with
    assert figures.distribution is not None and not figures.distribution.exact


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("hands, message", [
    (["--seat", "1=X X 5S"], "seat 1: two jokers are a Natural"),
    (["--seat", "1=X 5S X"], "seat 1: a three-card hand holding two jokers"),
    (["--seat", "1=9S KD", "--dealer", "5S X X"], "Player/Dealer: a three-card hand holding"),
    (["--seat", "1=9S KD", "--dealer", "X X 5S"], "Player/Dealer: two jokers are a Natural"),
])
def test_settle_refuses_the_joker_holes_in_one_line(capsys, hands, message) -> None:
    dealer = [] if "--dealer" in hands else ["--dealer", "KH 7C"]
    argv = ["settle", "century21", *dealer, *hands, "--wager", "1.1=10", "--dealer-wager",
            "100"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_settle_under_the_literal_natural_from_a_rule_file(capsys, tmp_path) -> None:
    rules = tmp_path / "literal.toml"
    rules.write_text("[showdown]\nnatural_any_two_jokers = true\n", encoding="utf-8")
    code, out, _ = run(capsys, "settle", "century21", "--rules", str(rules), "--dealer",
                       "KH 7C", "--seat", "1=X 5S X", "--wager", "1.1=10", "--dealer-wager",
                       "100")
    assert code == 0 and "Natural v 2-card 7, natural: wins" in out
    code, _, err = run(capsys, "settle", "century21", "--rules", str(rules), "--dealer", "KH 7C",
                       "--seat", "1=X X 5S", "--wager", "1.1=10", "--dealer-wager", "100")
    assert code == 2 and "cannot have drawn a third card" in err  # it stands, still


def test_the_heads_up_economics_refuse_a_player_dealer_wager_below_the_minimum(capsys) -> None:
    heads_up = game_table(DEFAULT_RULES, SMALL)
    with pytest.raises(EconomicsError, match="below the table minimum 10"):
        table_economics(heads_up, players=2, bet=10, dealer_wager=5)
    # the minimum of the tag the bet sits at: a bet of 150 sits at the $20-$200 table
    with pytest.raises(EconomicsError, match="below the table minimum 20"):
        table_economics(heads_up, players=2, bet=150, dealer_wager=10)
    assert table_economics(heads_up, players=2, bet=150, dealer_wager=20).dealer_wager == 20
    code, out, err = run(capsys, "analyze", "century21", "--shoe", "A:3,2:2,5:3,6:3,9:2,K:3,X:2",
                         "--players", "2", "--bet-size", "10", "--dealer-wager", "5")
    assert code == 2 and out == "" and err.count("\n") == 1 and "table minimum 10" in err


def test_with_a_house_way_dealer_two_seats_on_the_full_shoe_have_the_heads_up_values() -> None:
    """Cards are exchangeable on the full shoe too: the full-table game at 2 seats, one seat on
    its best response and one on House Way against a House Way Player/Dealer, gives each seat
    exactly its heads-up value (the figures of ``house`` and ``best`` rest on this at any
    number of seats)."""
    full = Shoe.standard(8, jokers=8)
    heads_up = game_table(DEFAULT_RULES, full)
    player, dealer = heads_up.house_way()
    best = heads_up.player_best_response(dealer)
    game = TableGame(DEFAULT_RULES, full, 2)
    _, table_dealer = game.house_way()
    assert game.seat_values([best, player], table_dealer) == [heads_up.value(best, dealer),
                                                              heads_up.value(player, dealer)]


def test_the_players_economics_follow_the_strategy_and_name_both_sides(capsys) -> None:
    """The issue's complaint, ``--players N --bet-size B`` printing one figure under every
    strategy: each strategy pair now gives the Player/Dealer ``-N * B`` times the pair's
    heads-up value less its collection, and the economics name both sides."""
    heads_up = game_table(DEFAULT_RULES, SMALL)
    nets = {}
    for name in TABLE_STRATEGIES:
        code, out, _ = run(capsys, "analyze", "century21", "--shoe",
                           "A:3,2:2,5:3,6:3,9:2,K:3,X:2", "--players", "3", "--bet-size", "10",
                           "--strategy", name, "--json")
        assert code == 0
        economics = json.loads(out)["economics"]
        value = heads_up.value(*strategy_by_name(heads_up, name))
        nets[name] = Fraction(economics["dealer_net_per_hand"])
        assert nets[name] == -30 * value - 1
        seats, dealer = economics["strategies"].split(", Player/Dealer ", 1)
        assert seats.startswith("seats ") and dealer
    assert len(set(nets.values())) == len(TABLE_STRATEGIES)


def test_the_equilibriums_exploitability_is_at_the_tables_own_wagers() -> None:
    """Iterated best responses at 2 seats of 10 and 40: the Player/Dealer weighs the seats by
    their wagers (with the seats alike it found a pure "equilibrium" in which it still gained
    87/10472 per hand by deviating at these wagers), and the gain stated is its exact gain per
    hand, in money, by its best deviation at these wagers. On an uncovered table the gain is
    the dice's average of its gain on each roll's wagers in action."""
    from exact.games.century21.full_table import dealer_value, iterated_best_responses

    game = TableGame(DEFAULT_RULES, SMALL, 2)
    wagers = [Fraction(10), Fraction(40)]
    figures = table_figures(DEFAULT_RULES, SMALL, [10, 40], "equilibrium")
    solution = iterated_best_responses(game, wagers)
    assert figures.dealer_gross == dealer_value(game, solution.seats, solution.dealer, wagers)
    best = game.dealer_best_response(solution.seats, wagers)
    gain = (dealer_value(game, solution.seats, best, wagers)
            - dealer_value(game, solution.seats, solution.dealer, wagers))
    assert figures.exploitability["player_dealer_gain"] == gain >= 0
    uncovered = table_figures(DEFAULT_RULES, SMALL, [10, 20], "equilibrium", dealer_wager=25)
    rolls = action_by_roll({2: Fraction(10), 3: Fraction(20)}, Fraction(25))
    solution = iterated_best_responses(game, list(uncovered.expected_action))
    assert uncovered.dealer_gross == sum(
        (p * dealer_value(game, solution.seats, solution.dealer, [a[2], a[3]])
         for p, a in rolls), Fraction(0))
    expected = Fraction(0)
    for p, a in rolls:
        weights = [a[2], a[3]]
        best = game.dealer_best_response(solution.seats, weights)
        expected += p * (dealer_value(game, solution.seats, best, weights)
                         - dealer_value(game, solution.seats, solution.dealer, weights))
    assert uncovered.exploitability["player_dealer_gain"] == expected >= 0
