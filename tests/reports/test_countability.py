"""The reports' countability section: the figures of `exact simulate`, conclusions that follow
from them, nothing outside its possible range. (The built reports' own section is read back in
tests/reports/test_reports.py.)"""

from __future__ import annotations

import json
import math
import shlex
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact.analysis.bet_analysis import game_bets
from exact.analysis.counts import counted as counted_config
from exact.analysis.counts import derived_counts
from exact.analysis.simulation import (
    ShoeRules,
    SimulationConfig,
    play_shoes,
    shoe_play,
    shoe_seeds,
    simulate,
)
from exact.analysis.tallies import SPREAD_FIGURES, BetTally
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.reports import ReportError
from exact.reports.countability import (
    FIGURES,
    PRACTICAL,
    SHOES_VARIABLE,
    Z,
    _digits,
    conclusion,
    section,
)

WAGERS = ("banker", "tie", "player-pair", "dragon-7", "panda-8")
SHOES, SEED = 24, 20261130


@pytest.fixture(scope="module")
def counted(punto_banco_module):
    bets = [b for b in game_bets(punto_banco_module) if b.id in WAGERS]
    return section(punto_banco_module, bets, Shoe.standard(8), SEED, shoes=SHOES, workers=1)


@pytest.fixture(scope="module")
def punto_banco_module():
    from exact.games import get_game

    return get_game("punto-banco")


def test_the_section_prints_what_exact_simulate_prints(counted, capsys):
    """Its own command, run: the same counts, the same figures to the last bit."""
    words = shlex.split(counted["command"])
    assert words[:2] == ["exact", "simulate"] and f"--shoes {SHOES}" in counted["command"]
    assert main(words[1:]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["shoes"] == SHOES and printed["seed"] == SEED
    assert printed["shoe_rules"] == {"decks": 8, "cards": 416, "cut_cards": 14,
                                     "burn": "first-card"}
    assert [row["id"] for row in counted["rows"]] == list(printed["bets"]) == list(WAGERS)
    assert counted["rounds"] == f"{printed['rounds']:,}"
    for row in counted["rows"]:
        entry = printed["bets"][row["id"]]
        assert row["figures"] == {key: entry[key] for key in FIGURES}
        assert row["tags"] == [f"{printed['tags'][row['id']][k]:+d}" for k in counted["keys"]]


def test_the_counts_are_the_derived_ones_and_tc_star_reached_or_not(counted):
    rows = {row["id"]: row for row in counted["rows"]}
    # a pair wager is symmetric in the ranks: no count of ranks tells anything of it
    assert set(rows["player-pair"]["tags"]) == {"+0"} and rows["player-pair"]["trigger"] == "none"
    assert rows["player-pair"]["verdict"] == "no-trigger"
    # Dragon 7 is the textbook countable side bet: its count has a trigger, and bets
    assert rows["dragon-7"]["trigger"] != "none"
    assert rows["dragon-7"]["figures"]["count_bets"] > 0
    for row in counted["rows"]:
        assert row["level"] in {"1", "2", "3"} and -1 <= float(row["correlation"]) <= 1


def test_every_figure_within_its_possible_range(counted, punto_banco_module):
    bets = {b.id: b for b in game_bets(punto_banco_module)}
    for row in counted["rows"]:
        figures = row["figures"]
        pays = [e.pays for e in bets[row["id"]].events]
        low, high = 100 * float(min(pays)), 100 * float(max(pays))
        assert 0 <= figures["player_advantage_frequency"] <= 1
        assert 0 <= figures["count_bet_frequency"] <= 1
        # perfect play bets only rounds whose exact edge favours the player
        assert figures["perfect_expected_win_per_100_hands"] >= 0
        for key in ("perfect_expected_win_per_100_hands", "perfect_win_per_100_hands",
                    "count_expected_win_per_100_hands", "count_win_per_100_hands"):
            assert low <= figures[key] <= high, (row["id"], key)
            assert figures[f"{key}_se"] >= 0
        for text in (row["perfect_gain"], row["count_gain"], row["count_won"],
                     row["advantage"], row["conclusion"]):
            assert "\u2212" not in text and text.isascii()


def test_each_conclusion_follows_its_figures(counted):
    for row in counted["rows"]:
        figures = row["figures"]
        gain = figures["count_expected_win_per_100_hands"]
        error = figures["count_expected_win_per_100_hands_se"]
        if figures["count_trigger"] is None:
            expected = "no-trigger"
        elif not figures["count_bets"]:
            expected = "never-triggered"
        elif gain - Z * error > 0:
            expected = "countable" if gain >= PRACTICAL else "negligible"
        elif gain + Z * error < 0:
            expected = "losing"
        else:
            expected = "not-shown"
        assert row["verdict"] == expected, row["id"]
        assert row["conclusion"].startswith("countable" if expected == "countable" else "not ")
        if expected in ("countable", "negligible", "losing", "not-shown"):
            digits = _digits(error)
            assert (f"{gain:+.{digits}f} units per 100 rounds dealt (SE {error:.{digits}f})"
                    in row["conclusion"])


@given(gain=st.floats(-50, 50), error=st.floats(0, 10), bets=st.integers(0, 5),
       trigger=st.none() | st.floats(-5, 40))
def test_the_verdict_is_decided_by_the_gain_and_its_error(gain, error, bets, trigger):
    entry = {"count_trigger": trigger, "count_bets": bets, "count_bet_frequency": bets / 10,
             "count_expected_win_per_100_hands": gain,
             "count_expected_win_per_100_hands_se": error,
             "perfect_expected_win_per_100_hands": abs(gain),
             "perfect_expected_win_per_100_hands_se": error}
    verdict = conclusion(entry, "x", "here")
    if trigger is None or not bets:
        assert verdict.kind in ("no-trigger", "never-triggered")
    else:
        assert (verdict.kind == "countable") == (gain > Z * error and gain >= PRACTICAL)
        assert (verdict.kind == "negligible") == (Z * error < gain < PRACTICAL)
        assert (verdict.kind == "losing") == (gain < -Z * error)


def test_the_standard_errors_are_the_ratio_estimators_of_the_shoes(punto_banco_module):
    """Merged tallies against the shoes one by one: the estimate of 100 x total / rounds and its
    standard error computed directly from every shoe's figures, exactly."""
    config = SimulationConfig(game="punto-banco", bet_ids=("dragon-7", "banker"),
                              shoe=ShoeRules(decks=8, cut_cards=30))
    play = shoe_play(config)
    config = counted_config(config, derived_counts(play), play.tag_keys)
    shoes = 9
    per_shoe = play_shoes(config, shoe_seeds(3, range(shoes)))
    summary = simulate(config, shoes, 3).summary()
    for wager in ("dragon-7", "banker"):
        tallies: list[BetTally] = [shoe[wager] for shoe in per_shoe]
        rounds = [t.rounds for t in tallies]
        values = {"perfect_win": [t.perfect_win for t in tallies],
                  "count_win": [t.count_win for t in tallies],
                  "perfect_expected_win": [Fraction(math.fsum(t.edge_sum_positive))
                                           for t in tallies],
                  "count_expected_win": [Fraction(math.fsum(t.count_edge)) for t in tallies]}
        assert set(values) == set(SPREAD_FIGURES)
        for figure, xs in values.items():
            ratio = sum(xs) / sum(rounds)
            residuals = [x - ratio * r for x, r in zip(xs, rounds, strict=True)]
            variance = sum(e * e for e in residuals) / (shoes - 1) / shoes
            expected = 100 * math.sqrt(variance) / (sum(rounds) / shoes)
            found = summary[wager][f"{figure}_per_100_hands_se"]
            assert found == pytest.approx(expected, rel=1e-9, abs=1e-12), (wager, figure)
            assert summary[wager][f"{figure}_per_100_hands"] == pytest.approx(
                100 * float(sum(xs)) / sum(rounds), rel=1e-12)


def test_one_shoe_has_no_standard_error():
    config = SimulationConfig(game="punto-banco", bet_ids=("banker",))
    entry = simulate(config, 1, 5).summary()["banker"]
    assert entry["perfect_win_per_100_hands_se"] is None


def test_a_shoe_that_is_not_whole_decks_is_said_not_simulated(punto_banco_module):
    bets = [b for b in game_bets(punto_banco_module) if b.id == "banker"]
    found = section(punto_banco_module, bets, Shoe.standard(8).remove("5"), SEED, shoes=2)
    assert found["simulated"] is False and "whole standard decks" in found["why"]


def test_the_number_of_shoes_comes_from_the_environment(monkeypatch, punto_banco_module):
    bets = [b for b in game_bets(punto_banco_module) if b.id == "banker"]
    monkeypatch.setenv(SHOES_VARIABLE, "3")
    assert section(punto_banco_module, bets, Shoe.standard(1), SEED)["shoes"] == "3"
    monkeypatch.setenv(SHOES_VARIABLE, "many")
    with pytest.raises(ReportError, match=SHOES_VARIABLE):
        section(punto_banco_module, bets, Shoe.standard(1), SEED)


def test_the_shoe_is_the_verification_simulations(counted):
    from exact.analysis.verification import ShoeSpec

    spec = ShoeSpec.standard(8)
    assert counted["cut"] == str(spec.cut_cards) and spec.burn == "first-card"
    assert counted["burn"] == ShoeRules(burn=spec.burn).in_words()["burn"]
    assert counted["penetration"] == f"{100 * (416 - spec.cut_cards) / 416:.1f}%"
