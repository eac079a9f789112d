"""`simulate century21`: real shoes dealt hand by hand under the fixed House Way pair, with
the exact edge of the unseen cards before every hand; reproducible whatever the scale-out."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from exact.analysis.simulation import (
    ShoeRules,
    SimulationConfig,
    SimulationError,
    play_shoes,
    shoe_play,
)
from exact.cli.app import main
from exact.core.cards import CARDS, Shoe
from exact.core.enumerator import deal_from_cards, enumerate_rounds
from exact.games.century21.batch import evaluator_for
from exact.games.century21.game import DEFAULT_RULES, game_table, record_outcome, shoe_for
from exact.games.century21.rules import DATA

from tests.support.batch_helpers import (
    assert_same_result_on_a_dask_cluster,
    assert_same_result_whatever_the_workers,
)

FEE = DEFAULT_RULES.collection_fee(DEFAULT_RULES.table.min_bet) / DEFAULT_RULES.table.min_bet


def config(**shoe) -> SimulationConfig:
    # a trigger no true count misses: the count bets every hand, so its tallies sum the exact
    # edge and the pay of every hand dealt
    return SimulationConfig(game="century21", triggers=(("player-before-collection", -1e9),),
                            shoe=ShoeRules(decks=None, **shoe))


def replay(seed: np.random.SeedSequence, cut: int) -> tuple[list[Shoe], list[Fraction]]:
    """One shoe by hand from its seed: shuffle the 424 cards, burn, deal each hand from the
    physical cards under the fixed pair; the unseen shoe before each hand and its pay."""
    full = shoe_for(DEFAULT_RULES)
    order = np.random.default_rng(seed).permutation(np.repeat(np.arange(53), full.counts))
    first = CARDS[int(order[0])]
    position, seen = 1 + (first.value or 10), [first]
    deal = evaluator_for(DEFAULT_RULES).deal
    unseen, pays = [], []
    while len(order) - position > cut:
        unseen.append(full.remove(seen))
        cards = [CARDS[int(c)] for c in order[position:position + 6]]
        record, used = deal_from_cards(deal, cards)
        pays.append(record_outcome(DEFAULT_RULES, record)[1])
        seen += cards[:used]
        position += used
    return unseen, pays


def test_every_hand_is_the_real_deal_at_its_exact_edge():
    setting = config(cut_cards=200)
    seed = np.random.SeedSequence(11).spawn(1)
    tallies = play_shoes(setting, seed)[0]
    unseen, pays = replay(seed[0], cut=200)
    values = evaluator_for(DEFAULT_RULES).expected_values(unseen)["player"]
    before, after = tallies["player-before-collection"], tallies["player"]
    assert before.rounds == after.rounds == len(unseen) > 20
    assert before.count_bets == len(unseen)
    assert before.count_win == sum(pays)
    assert math.fsum(before.count_edge) == math.fsum(float(v) for v in values)
    # perfect play bets exactly the hands whose exact edge (after the collection) is positive
    assert before.positive == sum(v > 0 for v in values)
    assert after.positive == sum(v - FEE > 0 for v in values)
    assert after.perfect_win == sum(p - FEE for p, v in zip(pays, values, strict=True)
                                    if v - FEE > 0)
    # the fixed pair is the House Way searched afresh on these depleted shoes (default rules)
    for shoe, value in list(zip(unseen, values, strict=True))[::20]:
        table = game_table(DEFAULT_RULES, shoe)
        assert table.evaluate(*table.house_way()).edge == value


def test_dealing_every_card_sequence_gives_the_enumerators_records():
    """Brute force: every ordered 6-card sequence of a 9-card shoe with two jokers, dealt
    card by card, counts each record exactly as the enumerator does."""
    shoe = Shoe.parse("A:1,3:1,5:1,6:1,9:1,K:2,X:2")
    cards = [card for card, count in zip(CARDS, shoe.counts, strict=True)
             for _ in range(count)]
    deal = evaluator_for(DEFAULT_RULES).deal
    dealt = Counter(deal_from_cards(deal, sequence)[0] for sequence in permutations(cards, 6))
    assert dealt == enumerate_rounds(deal, shoe).counts


def test_the_play_reads_a_hand_from_its_classes_as_from_the_cards():
    play = shoe_play(config())
    generator = np.random.default_rng(3)
    deck = np.repeat(np.arange(53), play.full)
    for _ in range(200):
        window = generator.choice(deck, 6, replace=False)
        cards = [CARDS[int(c)] for c in window]
        assert play.read_round(tuple(play.card_class[window].tolist())) == \
            deal_from_cards(play.evaluator.deal, cards)


def test_same_seed_same_result_with_one_or_two_workers():
    assert_same_result_whatever_the_workers(config(), shoes=4, seed=99)


def test_same_result_on_a_dask_cluster():
    assert_same_result_on_a_dask_cluster(config(), shoes=2, seed=5)


def test_cli_simulate_json(capsys):
    argv = ["simulate", "century21", "--shoes", "2", "--seed", "4", "--workers", "1",
            "--decks", "4", "--trigger", "player=-100", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "century21" and report["strategy"] == "house"
    assert report["shoe_rules"] == {"decks": 4, "cards": 212, "cut_cards": 14,
                                    "burn": "first-card"}
    assert (report["bet"], report["collection"]) == ("10", "1")
    assert set(report["tags"]["player"]) == {*"A23456789", "T", "X"}
    player = report["bets"]["player"]
    assert player["rounds"] == report["rounds"] == player["count_bets"] > 50
    # betting every hand after a 1 collection on 10 loses more than the collection itself
    assert player["count_expected_win_per_shoe"] < -0.1 * player["rounds"] / 2
    assert report["bets"]["player-before-collection"]["count_trigger"] is not None
    assert main([*argv[:-1], "--tags", "A=-1,9=1,X=4"]) == 0
    assert "Player net of fee" in capsys.readouterr().out


@pytest.mark.parametrize("extra", [
    ["--decks", "0"],
    ["--decks", "3", "--cut", "500"],
    ["--bet", "banker"],
    ["--strategy", "equilibrium"],
    ["--tags", "9H=1"],
    ["--trigger", "banker=1"],
    ["--rules", "/no/such/rules.toml"],
    ["--bets", "/no/such/bets.toml"],
])
def test_bad_input_is_one_line_and_exit_2(extra, capsys):
    assert main(["simulate", "century21", "--shoes", "1", "--seed", "1", "--workers", "1",
                 *extra]) == 2
    error = capsys.readouterr().err
    assert error.startswith("exact:") and error.count("\n") == 1


def test_bad_settings():
    with pytest.raises(SimulationError):
        shoe_play(SimulationConfig(game="century21", options=(("colour", "red"),)))
    with pytest.raises(SimulationError):
        shoe_play(SimulationConfig(game="punto-banco", options=(("strategy", "house"),)))


def test_the_games_own_options_reach_its_play_and_its_headline(tmp_path, capsys):
    """The generic ``simulate`` takes 21st Century's options from its plugin record (the rule
    file as its text, for the workers) and prints the settings the play states of itself."""
    from exact.games import plugin

    own = {option.dest for option in plugin("century21").options_on("simulate")}
    assert own == {"strategy", "information", "rules"}
    rules = (DATA / "rules.toml").read_text(encoding="utf-8")
    first, second = ("{ min_bet = 10, max_bet = 100, fee = 1 },",
                     "{ min_bet = 20, max_bet = 200, fee = 2 },")
    assert first in rules and second in rules
    path = tmp_path / "rules.toml"  # the $20 table first: the default stakes
    path.write_text(rules.replace(first, "@").replace(second, first).replace("@", second),
                    encoding="utf-8")
    argv = ["simulate", "century21", "--shoes", "1", "--seed", "3", "--workers", "1",
            "--strategy", "best", "--information", "cards", "--rules", str(path)]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["strategy"], report["information"]) == ("best", "cards")
    assert (report["bet"], report["collection"]) == ("20", "2")
    assert main(argv) == 0
    first_line = capsys.readouterr().out.splitlines()[0]
    assert "burn first-card, strategy best, bet 20, collection 2): " in first_line
