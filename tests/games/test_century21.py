"""21st Century Baccarat heads-up: exact counts, brute force, simulation, rule options,
best responses and the exact equilibrium."""

from __future__ import annotations

import itertools
import math
import re
import warnings
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.core.cards import Shoe
from exact.core.enumerator import enumerate_rounds
from exact.errors import RuleError, ShoeError
from exact.games import get_game
from exact.games.century21.game import (
    DEFAULT_RULES,
    Century21Deal,
    StrategyError,
    game_table,
    has_joker,
    record_outcome,
    set_order,
    settle,
)
from exact.games.century21.reference import X, brute_force, simulate
from exact.games.century21.rules import Rules, RuleWarning
from exact.games.century21.solve import deviation_gaps, equilibrium, strategy_by_name

FULL = Shoe.standard(8, jokers=8)
TINY = "A:1,2:1,5:1,6:2,9:1,K:2,X:2"  # ten cards, two jokers


def tiny_cards() -> list:
    return [1, 2, 5, 6, 6, 9, 0, 0, X, X]


@pytest.fixture(scope="module")
def full_table():
    return game_table(DEFAULT_RULES, FULL)


def test_house_way_full_shoe_counts_sum_to_the_denominator(full_table) -> None:
    player, dealer = full_table.house_way()
    result = full_table.evaluate(player, dealer)
    assert result.total == 424 * 423 * 422 * 421 * 420 * 419
    assert sum(result.counts.values()) == result.total
    assert all(isinstance(c, int) and c > 0 for c in result.counts.values())
    wins, pushes, losses = (result.probability(r) for r in ("win", "push", "loss"))
    assert wins + pushes + losses == 1
    assert result.probability("win", "natural") == result.probability("loss", "dealer_natural")
    assert result.probability("loss", "ties_on_zero") > 0
    assert result.edge < 0  # the Player/Dealer's rules favour it before collection
    # with the default rules every joker hand is played as a 9: stand, and the dealer ends
    for infoset, probabilities in {**player, **dealer}.items():
        if infoset[0] == "check":
            assert probabilities["end"] == 1
        elif "J" in infoset or "N" in infoset or (infoset[0] == "dealer" and X_CLASS in
                                                   infoset[1:3]):
            assert probabilities["stand"] == 1


X_CLASS = 10


def _engine_counts(shoe_text: str, name: str = "house", rules: Rules = DEFAULT_RULES) -> Counter:
    table = game_table(rules, Shoe.parse(shoe_text))
    result = table.evaluate(*strategy_by_name(table, name))
    return Counter(dict(result.counts))


def test_tiny_shoe_matches_the_card_by_card_brute_force() -> None:
    assert _engine_counts(TINY) == brute_force(tiny_cards())


def test_tiny_shoe_rule_options_match_the_brute_force() -> None:
    rules = DEFAULT_RULES.replace(natural_pays=Fraction(3), dealer_wins_ties_on_zero=False,
                                  win_pays_by_total={1: Fraction(20)})
    expected = brute_force(tiny_cards(), rules={"natural_pays": 3,
                                                "dealer_wins_ties_on_zero": False,
                                                "win_pays_by_total": {1: 20}})
    assert _engine_counts(TINY, rules=rules) == expected


def test_best_response_strategy_matches_the_brute_force() -> None:
    table = game_table(DEFAULT_RULES, Shoe.parse(TINY))
    player, dealer = strategy_by_name(table, "best")

    def player_rule(cards, up):
        tag = "N" if cards.count(X) == 2 else "J" if X in cards else sum(cards) % 10
        choice = player[("player", tag, X_CLASS if up == X else up)]
        return max(choice, key=choice.get)

    def dealer_rule(cards, drew):
        key = ("dealer", *(X_CLASS if c == X else c for c in cards), drew, None)
        choice = dealer[key]
        return max(choice, key=choice.get)

    expected = brute_force(tiny_cards(), player_rule, dealer_rule)
    assert Counter(dict(table.evaluate(player, dealer).counts)) == expected


@pytest.mark.parametrize("mode", ["total", "cards"])
def test_generic_enumerator_deal_agrees_with_the_game_table(mode: str) -> None:
    shoe = Shoe.parse("A:2,5:2,6:2,9:1,K:2,X:2")
    table = game_table(DEFAULT_RULES, shoe, mode)
    player, dealer = table.house_way()
    distribution = enumerate_rounds(Century21Deal.of(DEFAULT_RULES, mode, player, dealer), shoe)
    counts: Counter = Counter()
    for record, count in distribution.counts.items():
        counts[record_outcome(DEFAULT_RULES, record)] += count
    assert counts == Counter(dict(table.evaluate(player, dealer).counts))


def test_seeded_simulation_agrees_within_its_confidence_interval(full_table) -> None:
    exact = full_table.evaluate(*full_table.house_way())
    cards = [v for v, count in enumerate(FULL.by_value()) for _ in range(count)] + [X] * 8
    rounds = 6000
    pays = simulate(cards, rounds, seed=20261130)
    mean = sum(pays, Fraction(0)) / rounds
    variance = sum((float(p) - float(mean)) ** 2 for p in pays) / (rounds - 1)
    # 4 standard errors: a false alarm about once in 16,000 seeds
    assert abs(float(mean - exact.edge)) <= 4 * math.sqrt(variance / rounds)
    wins = sum(1 for p in pays if p > 0) / rounds
    p = float(exact.probability("win"))
    assert abs(wins - p) <= 4 * math.sqrt(p * (1 - p) / rounds)


def test_natural_bonus_raises_the_players_edge(full_table) -> None:
    base = full_table.evaluate(*full_table.house_way()).edge
    bonus = game_table(DEFAULT_RULES.replace(natural_pays=Fraction(5)), FULL)
    assert bonus.evaluate(*bonus.house_way()).edge > base


def test_removing_ties_on_zero_moves_the_edge_toward_zero(full_table) -> None:
    base = full_table.evaluate(*full_table.house_way()).edge
    fair = game_table(DEFAULT_RULES.replace(dealer_wins_ties_on_zero=False), FULL)
    edge = fair.evaluate(*fair.house_way()).edge
    assert base < edge <= 0 or abs(edge) < abs(base)
    assert fair.evaluate(*fair.house_way()).probability("loss", "ties_on_zero") == 0


def test_joker_value_search_follows_the_pays() -> None:
    one_joker, dealer_zero = (3, 1, None), (0, 0, None)
    assert settle(DEFAULT_RULES, one_joker, dealer_zero, False)[2] == (False, 9, 2)
    rich_one = DEFAULT_RULES.replace(win_pays_by_total={1: Fraction(20)})
    pay, how, declared, _ = settle(rich_one, one_joker, dealer_zero, False)
    assert declared == (False, 1, 2) and pay == 20 and how == "higher_total"
    # two jokers: the Natural unless a total pays more
    assert settle(DEFAULT_RULES, (0, 2, None), (7, 0, None), False)[2][0] is True


def test_the_table_is_a_strategy_game_for_the_generic_algorithms() -> None:
    from exact.engines.strategy_games import best_response, evaluate, is_zero_sum

    table = game_table(DEFAULT_RULES, Shoe.parse("A:3,2:2,5:3,6:3,7:2,9:2,K:4,X:2"))
    form = table.form
    assert is_zero_sum(form) and form.total == table.total
    player, dealer = table.house_way()
    assert evaluate(form, player, dealer) == (table.value(player, dealer),
                                              -table.value(player, dealer))
    # the generic LP orders sets by repr: for these sets the order of the strategy tables
    for side in (0, 1):
        assert sorted(form.sets[side], key=repr) == sorted(form.sets[side], key=set_order)
    # a restricted best response searches only some sets and keeps the others as given
    free = table.dealer_best_response(player)
    jokers = table.dealer_best_response(player, only=has_joker, base=dealer)
    assert {h: p for h, p in jokers.items() if not has_joker(h)} == {
        h: p for h, p in dealer.items() if not has_joker(h)}
    assert table.value(player, free) <= table.value(player, jokers) <= table.value(player, dealer)
    assert best_response(form, 1, player, fixed=dealer) == dealer


def test_best_responses_and_equilibrium_bracket_each_other() -> None:
    table = game_table(DEFAULT_RULES, Shoe.parse("A:3,2:2,5:3,6:3,7:2,9:2,K:4,X:2"))
    house_p, house_d = table.house_way()
    best_p = table.player_best_response(house_d)
    best_d = table.dealer_best_response(house_p)
    assert table.value(best_p, house_d) >= table.value(house_p, house_d)
    assert table.value(house_p, best_d) <= table.value(house_p, house_d)
    found = equilibrium(table)
    assert found.player_gain == 0 and found.dealer_gain == 0
    assert table.value(house_p, best_d) <= found.value <= table.value(best_p, house_d)


@pytest.mark.parametrize("mode", ["total", "cards"])
def test_full_shoe_equilibrium_passes_the_exact_no_deviation_check(mode: str) -> None:
    table = game_table(DEFAULT_RULES, FULL, mode)
    found = equilibrium(table)
    value, player_gain, dealer_gain = deviation_gaps(table, found.player, found.dealer)
    assert player_gain == 0 and dealer_gain == 0 and value == found.value
    assert abs(float(value) - found.lp_value) < 1e-9
    mixed = [h for h, p in found.player.items() if all(0 < q < 1 for q in p.values())]
    assert mixed, "the heads-up game needs mixing at some option hands"


def test_every_rule_a_file_may_set_is_a_field_and_every_field_can_be_set() -> None:
    """The keys a rule file is held to (any other is refused) are the fields of Rules: none
    refused that the rules have, none accepted that they lack."""
    import dataclasses

    from exact.games.century21.rules import (
        CollectionFile,
        DrawingFile,
        RuleFile,
        SettlementFile,
        ShowdownFile,
    )

    sections = {"showdown": ShowdownFile, "drawing": DrawingFile, "settlement": SettlementFile,
                "collection": CollectionFile}
    assert set(sections) <= set(RuleFile.__struct_fields__)
    # the [collection] keys are named apart: dealer_pays sets dealer_pays_collection
    settable = {*(set(RuleFile.__struct_fields__) - set(sections)), "dealer_pays_collection",
                "table_tags", *(key for section, record in sections.items()
                                if section != "collection" for key in record.__struct_fields__)}
    assert settable == {field.name for field in dataclasses.fields(Rules)}
    assert set(CollectionFile.__struct_fields__) == {"dealer_pays", "table_tags"}


def test_an_unknown_information_mode_is_one_short_line() -> None:
    from exact.games.century21.game import checked_mode

    assert [checked_mode(mode) for mode in ("total", "cards")] == ["total", "cards"]
    for mode in ("totals", "x" * 10**5, ("total",)):
        with pytest.raises(StrategyError) as error:
            checked_mode(mode)
        assert str(error.value).endswith("; known: total, cards") and len(str(error.value)) < 120

def test_bad_settings_give_typed_errors_and_moot_ones_warn(tmp_path) -> None:
    with pytest.raises(RuleError, match="jokers"):
        DEFAULT_RULES.replace(jokers=-1)
    with pytest.raises(RuleError, match="decks"):
        DEFAULT_RULES.replace(decks=-2)
    with pytest.raises(RuleError, match="negative"):
        Rules.from_mapping({"collection": {"table_tags": [{"min_bet": 10, "max_bet": 100,
                                                           "fee": -1}]}})
    with pytest.raises(RuleError, match="House Way"):
        DEFAULT_RULES.replace(house_way_draw_max=8)
    with pytest.raises(RuleError, match="unknown rule"):
        Rules.from_mapping({"jokerz": 3})
    with pytest.raises(RuleError, match=r"\[settlement\]: unknown rule\(s\) 'must_draw_max'"):
        Rules.from_mapping({"settlement": {"must_draw_max": 3}})  # a key of another section
    bad = tmp_path / "rules.toml"
    bad.write_text("decks = [")
    with pytest.raises(RuleError, match="cannot read"):
        Rules.load(bad)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        DEFAULT_RULES.replace(jokers=0, natural_pays=Fraction(2))
    assert any(issubclass(w.category, RuleWarning) for w in caught)
    with pytest.raises(ShoeError, match="heads-up"):
        game_table(DEFAULT_RULES, Shoe.parse("A:2,X:3"))
    with pytest.raises(StrategyError):
        strategy_by_name(game_table(DEFAULT_RULES, Shoe.parse(TINY)), "martingale")


def test_game_is_registered() -> None:
    game = get_game("century21")
    assert game.name == "21st Century Baccarat"
    assert any("ties on 0" in line for line in game.describe_rules())


def test_table_economics_is_heads_up_times_seats_by_a_multi_seat_brute_force() -> None:
    from exact.games.century21.economics import table_economics
    from exact.games.century21.reference import table_brute_force

    cards = [0, 0, 0, 5, 5, 6, 6, X, X]  # 9 cards: two players, the dealer, up to 3 draws
    shoe = Shoe.parse("K:3,5:2,6:2,X:2")
    table = game_table(DEFAULT_RULES, shoe)
    heads_up = table.value(*table.house_way())
    assert table_brute_force(cards, players=1) == -heads_up
    assert table_brute_force(cards, players=2) == -heads_up
    economics = table_economics(table, players=2, bet=10, fee=1)
    assert economics.dealer_gross == -2 * 10 * heads_up
    assert economics.dealer_net == economics.dealer_gross - 1


def test_economics_count_the_checking_seat_and_break_even_by_a_multi_seat_brute_force(
        ) -> None:
    """One seat plays its exact best response, the other House Way: the dealer's gross, its
    break-even bet and, with a wager covering 1.5 or 1 seats, the seat-by-seat action in dice
    order, all against a card-by-card count over every arrangement of a 9-card shoe."""
    from exact.games.century21.economics import table_economics
    from exact.games.century21.game import player_tag
    from exact.games.century21.reference import house_player, table_dealer_gross, table_seat_results

    cards = [0, 0, 0, 5, 5, 6, 6, X, X]
    table = game_table(DEFAULT_RULES, Shoe.parse("K:3,5:2,6:2,X:2"))
    best = table.player_best_response(table.house_way()[1])

    def checker(hand, up):
        classes = [10 if card == X else card for card in (*hand, up)]
        infoset = ("player", player_tag(DEFAULT_RULES, "total", *classes[:2]), classes[2])
        return "draw" if best[infoset].get("draw") == 1 else "stand"

    assert checker([6, 0], 6) == "draw" != house_player([6, 0], 6)  # it checks on this shoe
    results = table_seat_results(cards, [checker, house_player])
    gross = table_dealer_gross(results)
    assert gross != -2 * table.value(*table.house_way())  # the checking seat counts
    economics = table_economics(table, players=2, bet=10, fee=1, checking=True)
    assert "1 checking its best response to House Way, 1 House Way" in economics.describe()
    assert economics.dealer_gross == 10 * gross
    assert economics.dealer_break_even_bet == 1 / gross  # the same seats as the net figure
    for covered in (Fraction(3, 2), Fraction(1)):
        limited = table_economics(table, players=2, bet=10, fee=1, checking=True,
                                  dealer_wager=10 * covered)
        assert limited.dealer_gross == 10 * table_dealer_gross(results, covered)
        assert limited.house_collection == (3 if covered > 1 else 2)
        assert limited.dealer_net == limited.dealer_gross - 1


def test_economics_break_even_and_no_action(full_table) -> None:
    from exact.games.century21.economics import EconomicsError, table_economics

    economics = table_economics(full_table, players=6, bet=10)
    edge = economics.player_edge
    assert economics.fee == 1 and economics.dealer_fee == 1
    assert economics.dealer_net == -60 * edge - 1
    assert economics.player_net == 10 * edge - 1
    assert economics.house_collection == 7
    even = economics.dealer_break_even_bet
    assert even is not None and even * 6 * -edge == 1
    assert economics.player_break_even_bet is None  # a House Way player never breaks even
    checking = table_economics(full_table, players=6, bet=10, checking=True)
    assert checking.checker_edge > edge and checking.dealer_net < economics.dealer_net
    no_action = table_economics(full_table, players=6, bet=10, dealer_wager=59,
                                reading="whole-hand")
    assert not no_action.action and no_action.dealer_net == 0 == no_action.house_collection
    assert table_economics(full_table, players=6, bet=10, dealer_wager=60).action
    with pytest.raises(EconomicsError):
        table_economics(full_table, players=0, bet=10)
    with pytest.raises(EconomicsError):
        table_economics(full_table, players=2, bet=10, fee=-1)


def test_cli_json_shape_and_errors(capsys) -> None:
    import json

    from exact.cli.app import main

    assert main(["analyze", "century21", "--shoe", TINY, "--strategy", "equilibrium",
                 "--bet", "20", "--collection", "1", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["analyze", "century21", "--shoe", TINY, "--strategy", "equilibrium",
                 "--bet", "20", "--collection", "1", "--json"]) == 0
    assert capsys.readouterr().out == first  # same inputs, same bytes
    data = json.loads(first)
    assert data["deviation_check"]["equilibrium"] is True
    assert data["total"] == 10 * 9 * 8 * 7 * 6 * 5
    outcomes = data["bets"]["player"]["outcomes"]
    assert sum(Fraction(o["combinations"]) for o in outcomes) == data["total"]
    assert data["strategy_tables"]["player"] and data["strategy_tables"]["dealer"]
    assert Fraction(data["player_edge_with_collection"]) == (
        Fraction(data["player_edge"]) - Fraction(1, 20))
    assert main(["analyze", "century21", "--collection", "-1"]) == 2
    assert main(["analyze", "century21", "--shoe", "A:2,X:2"]) == 2
    assert "error" in capsys.readouterr().err
    assert main(["analyze", "century21", "--shoe", TINY]) == 0
    assert "Player strategy" in capsys.readouterr().out


@settings(max_examples=12)
@given(counts=st.lists(st.integers(0, 2), min_size=11, max_size=11).filter(
    lambda c: 6 <= sum(c) <= 8), face_up=st.booleans(), mode=st.sampled_from(["total", "cards"]))
def test_property_table_and_generic_enumerator_agree_on_any_small_shoe(counts, face_up,
                                                                       mode) -> None:
    names = ["K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "X"]
    shoe = Shoe.parse(",".join(f"{n}:{c}" for n, c in zip(names, counts, strict=True)))
    rules = DEFAULT_RULES.replace(third_cards_face_up=face_up)
    table = game_table(rules, shoe, mode)
    player, dealer = table.house_way()
    result = table.evaluate(player, dealer)
    assert sum(result.counts.values()) == result.total
    distribution = enumerate_rounds(Century21Deal.of(rules, mode, player, dealer), shoe)
    tally: Counter = Counter()
    for record, count in distribution.counts.items():
        tally[record_outcome(rules, record)] += count
    assert tally == Counter(dict(result.counts))
    # a best response never does worse than House Way, for either side
    assert table.value(table.player_best_response(dealer), dealer) >= result.edge
    assert table.value(player, table.dealer_best_response(player)) <= result.edge


def test_joker_decisions_are_searched_so_a_rule_change_changes_them(full_table) -> None:
    from exact.games.century21.game import has_joker, set_order

    def drawing_joker_sets(table):
        player, dealer = table.house_way()
        return player, dealer, sorted(set_order(h) for h, p in {**player, **dealer}.items()
                                      if has_joker(h) and p.get("draw") == 1)

    assert drawing_joker_sets(full_table)[2] == []  # default: every joker hand is a 9
    narrow = game_table(DEFAULT_RULES.replace(joker_values=(0,)), FULL)
    player, dealer, drawing = drawing_joker_sets(narrow)
    assert "('player', ('J', 5), 0)" in drawing and "('dealer', 5, 10, False, None)" in drawing
    # the searched choices are exact best responses at the joker sets (a fixed point)
    assert narrow.player_best_response(dealer, only=has_joker, base=player) == player
    assert narrow.dealer_best_response(player, only=has_joker, base=dealer) == dealer


def test_two_card_nine_beating_three_card_nine_raises_the_players_edge(full_table) -> None:
    base = full_table.evaluate(*full_table.house_way()).edge
    rules = DEFAULT_RULES.replace(three_card_nine_pushes_two_card_nine=False)
    table = game_table(rules, FULL)
    result = table.evaluate(*table.house_way())
    assert result.edge > base and result.probability("win", "two_card_nine") > 0


@pytest.mark.parametrize("changes", [{"third_cards_face_up": True},
                                     {"joker_values": (0, 1, 2, 3), "natural_pays": Fraction(3)}])
def test_equilibrium_is_exact_under_other_rules(changes) -> None:
    table = game_table(DEFAULT_RULES.replace(**changes), FULL)
    found = equilibrium(table)
    assert found.player_gain == 0 and found.dealer_gain == 0
    house_player, house_dealer = table.house_way()
    assert (table.value(house_player, table.dealer_best_response(house_player)) <= found.value
            <= table.value(table.player_best_response(house_dealer), house_dealer))


def test_house_way_is_the_same_whichever_information_the_player_has(full_table) -> None:
    cards = game_table(DEFAULT_RULES, FULL, "cards")
    by_total = full_table.evaluate(*full_table.house_way()).counts
    assert cards.evaluate(*cards.house_way()).counts == by_total
    # knowing its two cards can only help the player's best response
    dealer = full_table.house_way()[1]
    cards_dealer = cards.house_way()[1]
    assert (cards.value(cards.player_best_response(cards_dealer), cards_dealer)
            >= full_table.value(full_table.player_best_response(dealer), dealer))


def test_cli_json_of_a_mixed_strategy_writes_expected_counts_as_fractions(capsys) -> None:
    """At the full shoe the equilibrium mixes: expected counts are fractions wherever counts
    appear (outcomes, rarity tiers, top award), written as exact strings."""
    import json

    from exact.cli.app import main

    assert main(["analyze", "century21", "--strategy", "equilibrium", "--json"]) == 0
    player = json.loads(capsys.readouterr().out)["bets"]["player"]
    top = Fraction(player["top_award"]["combinations"])
    assert top.denominator > 1
    assert Fraction(player["tiers"][0]["combinations"]) == top


@pytest.mark.parametrize(("table", "message"), [
    ({"9": 2, "09": 3}, "key '09': a total is one digit 0-9, written once"),
    ({"09": 3}, "key '09': a total is one digit 0-9"),
    ({"+9": 3}, "key '+9': a total is one digit 0-9"),
    ({9: 2, "9": 3}, "total 9 is given twice"),
    ({"10": 2}, "key '10'"),
    ({True: 2}, "key True"),
])
def test_a_total_is_one_key_written_one_way(table, message) -> None:
    """Issue 26: ``9 = 2`` and ``"09" = 3`` kept the later pay silently. A key is one digit;
    any other spelling, and one total twice (possible from the library), is refused."""
    with pytest.raises(RuleError, match=re.escape(message)):
        Rules.from_mapping({"win_pays_by_total": table})
    assert Rules.from_mapping({"win_pays_by_total": {"9": 2}}).win_pays_by_total == {
        9: Fraction(2)}


def test_a_rule_file_giving_a_total_twice_is_one_line(tmp_path, capsys) -> None:
    from exact.cli.app import main

    path = tmp_path / "rules.toml"
    path.write_text('[win_pays_by_total]\n9 = 2\n"09" = 3\n')
    assert main(["analyze", "century21", "--decks", "1", "--rules", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "'09': a total is one digit" in error


def _reference_rules(player, dealer):
    """The brute force's plain callables playing the engine's (pure) strategies: each
    decision looked up by the information set the engine names it by."""
    from exact.games.century21.game import CheckSet, DealerSet, PlayerSet, player_tag

    def cls(card):
        return X_CLASS if card == X else card

    def pick(strategy, key):
        choice = strategy[key]
        return max(choice, key=choice.get)

    def player_rule(cards, up):
        tag = player_tag(DEFAULT_RULES, "total", *sorted(map(cls, cards)))
        return pick(player, PlayerSet("player", tag, cls(up)))

    def dealer_rule(cards, drew):
        return pick(dealer, DealerSet("dealer", cls(cards[0]), cls(cards[1]), drew, None))

    def check_rule(cards):
        return pick(dealer, CheckSet("check", cls(cards[0]), cls(cards[1])))

    return player_rule, dealer_rule, check_rule


def _pure_mixtures(strategy):
    """A behaviour strategy as (probability, pure strategy) pairs: each set is met at most
    once a round, so its mixing is a mixture of pure strategies with product weights."""
    mixed = [h for h, p in strategy.items() if sum(1 for q in p.values() if q) > 1]
    for picks in itertools.product(*(sorted(strategy[h]) for h in mixed)):
        weight, pure_strategy = Fraction(1), dict(strategy)
        for h, action in zip(mixed, picks, strict=True):
            weight *= strategy[h][action]
            pure_strategy[h] = {a: Fraction(int(a == action)) for a in strategy[h]}
        if weight:
            yield weight, pure_strategy


@pytest.mark.parametrize("shoe_text, cards", [
    (TINY, [1, 2, 5, 6, 6, 9, 0, 0, X, X]),
    ("A:1,3:1,4:1,5:1,7:1,8:1,K:2,X:1", [1, 3, 4, 5, 7, 8, 0, 0, X])])
@pytest.mark.parametrize("name", ["house", "best", "dealer-best", "equilibrium"])
def test_every_strategy_of_the_one_round_matches_the_card_by_card_twin(shoe_text, cards,
                                                                       name) -> None:
    """The round written once (Century21Round) gives, through the sequence-form walk, the
    counts of the brute-force twin under each named strategy pair, mixed ones included."""
    table = game_table(DEFAULT_RULES, Shoe.parse(shoe_text))
    player, dealer = strategy_by_name(table, name)
    expected: Counter = Counter()
    for p_weight, p_pure in _pure_mixtures(player):
        for d_weight, d_pure in _pure_mixtures(dealer):
            for outcome, count in brute_force(cards, *_reference_rules(p_pure, d_pure)).items():
                expected[outcome] += p_weight * d_weight * count
    assert {o: c for o, c in expected.items() if c} == dict(table.evaluate(player, dealer).counts)
