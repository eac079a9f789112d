"""Shoe simulation: exact per-round edges, reproducible whatever the scale-out."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.counts import tags_tuple
from exact.analysis.simulation import (
    ShoeRules,
    SimulationConfig,
    SimulationError,
    play_shoes,
    simulate,
)
from exact.cli.app import main
from exact.core.cards import CARDS, Shoe

from tests.support.batch_helpers import (
    assert_same_result_on_a_dask_cluster,
    assert_same_result_whatever_the_workers,
)

TAGS = {"dragon-7": {"4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2}}


def config(**shoe) -> SimulationConfig:
    return SimulationConfig(game="punto-banco",
                            bet_ids=("banker", "dragon-7", "panda-8"),
                            tags=tags_tuple(TAGS), triggers=(("dragon-7", 2.0),),
                            shoe=ShoeRules(**shoe))


def test_same_seed_same_result_with_one_or_two_workers():
    assert_same_result_whatever_the_workers(config(), shoes=6, seed=99)


def test_same_result_on_a_dask_cluster():
    assert_same_result_on_a_dask_cluster(config(), shoes=4, seed=5)


def test_rounds_are_the_real_deal_and_edges_exact(punto_banco):
    """Replay one shoe by hand: shuffle, burn, deal rounds to the cut card; the perfect
    player's bets are exactly the rounds whose exact edge (analysed afresh) is positive."""
    setting = config(cut_cards=60)
    seed = np.random.SeedSequence(11).spawn(1)
    tallies = play_shoes(setting, seed)[0]
    order = np.random.default_rng(seed[0]).permutation(np.repeat(np.arange(52), 8))
    first = CARDS[int(order[0])]
    position = 1 + (first.value or 10)
    seen = [first]
    bets = {b.id: b for b in game_bets(punto_banco)}
    rounds = positive = 0
    win = 0
    while len(order) - position > 60:
        unseen = Shoe.standard(8).remove(seen)
        edge = analyze(punto_banco, unseen, [bets["dragon-7"]]).bets["dragon-7"].table()
        cards = [CARDS[int(c)] for c in order[position:position + 6]]
        record = punto_banco.record_from_cards(cards)
        used = len(record[0]) + len(record[1])
        if edge.expected_value > 0:
            positive += 1
            features = {n: punto_banco.read(record, n) for n in bets["dragon-7"].features}
            win += bets["dragon-7"].events[bets["dragon-7"].settle(features)].pays
        seen += cards[:used]
        position += used
        rounds += 1
    assert tallies["dragon-7"].rounds == rounds
    assert tallies["dragon-7"].positive == positive
    assert tallies["dragon-7"].perfect_win == win


def test_bad_settings():
    with pytest.raises(SimulationError):
        ShoeRules(decks=0)
    with pytest.raises(SimulationError):
        ShoeRules(burn="sometimes")
    with pytest.raises(SimulationError):
        simulate(config(), shoes=0, seed=1)
    with pytest.raises(SimulationError):
        simulate(SimulationConfig(game="punto-banco", bet_ids=("nope",)), shoes=1, seed=1)


def test_cli_simulate(capsys):
    argv = ["simulate", "punto-banco", "--shoes", "3", "--seed", "4",
            "--bet", "dragon-7", "--bet", "egalite-7", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["shoes"] == 3 and report["rounds"] > 150
    dragon = report["bets"]["dragon-7"]
    assert 0 <= dragon["player_advantage_rounds"] <= dragon["rounds"] == report["rounds"]
    assert main([*argv, "--workers", "1"]) == 0  # the default is one worker per core
    assert json.loads(capsys.readouterr().out) == report  # same seed, same result
    assert main(["simulate", "punto-banco", "--shoes", "1", "--seed", "1",
                 "--trigger", "banker"]) == 2
    assert main(["simulate", "punto-banco", "--shoes", "1", "--seed", "1", "--burn", "x"]) == 2
