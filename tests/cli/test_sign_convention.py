"""One sign convention across ``analyze``, ``eor``, ``edge``, ``simulate`` and the reports: the
house edge is positive for the house, an effect of removal is a change in it (issue 27).

The same figure is computed through every output and must agree in sign and value."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import game_bets
from exact.cli.app import main
from exact.core.cards import RANKS, Shoe
from exact.games import get_game
from exact.render.output import SIGN_CONVENTION
from exact.reports.cover import Context
from exact.reports.sensitivity import effects_of_removal

BET = "tie"
DECKS = "1"


def run(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def analyzed_edge(capsys, *extra: str) -> Fraction:
    data = run(capsys, "analyze", "punto-banco", "--decks", DECKS, "--bet", BET, *extra)
    assert data["sign_convention"] == SIGN_CONVENTION
    return Fraction(data["bets"][BET]["house_edge"])


def test_eor_edge_analyze_and_the_report_agree(capsys, tmp_path) -> None:
    eor = run(capsys, "eor", "punto-banco", "--decks", DECKS, "--bet", BET,
              "--removal-set", "5")
    assert eor["sign_convention"] == SIGN_CONVENTION
    entry = eor["bets"][BET]
    full = analyzed_edge(capsys)
    assert Fraction(entry["house_edge"]["exact"]) == full > 0  # the tie favours the house
    less_five = analyzed_edge(capsys, "--remove", "5")
    effect = Fraction(entry["eor_house_edge"]["5"]["exact"])
    assert effect == less_five - full != 0
    assert Fraction(entry["removal_sets"]["5"]["change_in_house_edge"]["exact"]) == effect
    # edge of the shoe less the cards seen = analyze of the shoe less those cards
    seen = tmp_path / "seen.txt"
    seen.write_text("5S\n")
    edge = run(capsys, "edge", "punto-banco", "--decks", DECKS, "--bet", BET,
               "--seen", str(seen))
    assert edge["sign_convention"] == SIGN_CONVENTION
    assert Fraction(edge["bets"][BET]["house_edge"]["exact"]) == less_five
    assert edge["bets"][BET]["player_advantage"] is (less_five < 0)
    # the report's effects of removal: the same changes in house edge, rank by rank
    game = get_game("punto-banco")
    bet = next(b for b in game_bets(game) if b.id == BET)
    report = effects_of_removal(game, [bet], Shoe.standard(int(DECKS)), Context(tmp_path))
    assert report["sign_convention"] == SIGN_CONVENTION
    assert {rank: Fraction(v) for rank, v in report["exact"][BET].items()} == {
        rank: Fraction(entry["eor_house_edge"][rank]["exact"]) for rank in RANKS}


def test_text_outputs_state_the_convention_and_print_the_house_edge(capsys, tmp_path) -> None:
    full = analyzed_edge(capsys)
    assert main(["analyze", "punto-banco", "--decks", DECKS, "--bet", BET]) == 0
    assert f"Signs: {SIGN_CONVENTION}" in capsys.readouterr().out
    assert main(["eor", "punto-banco", "--decks", DECKS, "--bet", BET]) == 0
    text = capsys.readouterr().out
    assert f"Signs: {SIGN_CONVENTION}" in text and "change in house edge" in text
    row = next(line.split() for line in text.splitlines() if line.startswith(BET + " "))
    assert float(row[1]) == pytest.approx(100 * float(full), abs=1e-4)  # positive, as analyze
    seen = tmp_path / "seen.txt"
    seen.write_text("")
    assert main(["edge", "punto-banco", "--decks", DECKS, "--bet", BET,
                 "--seen", str(seen)]) == 0
    text = capsys.readouterr().out
    assert f"Signs: {SIGN_CONVENTION}" in text
    row = next(line.split() for line in text.splitlines() if line.startswith(BET + " "))
    assert row[1] == f"{100 * float(full):+.4f}%" and Fraction(row[-1]) == full


def test_the_count_keeps_its_meaning(capsys) -> None:
    """A tag is + for a card whose removal helps the player, i.e. lowers the house edge."""
    entry = run(capsys, "eor", "punto-banco", "--decks", "8", "--bet", "banker")["bets"]["banker"]
    tags = entry["derived_count"]["tags"]
    for rank, effect in entry["eor_house_edge"].items():
        if tags[rank]:
            assert (tags[rank] > 0) == (Fraction(effect["exact"]) < 0), rank


def test_simulate_prints_the_house_edge_of_the_rounds_bet(capsys) -> None:
    data = run(capsys, "simulate", "punto-banco", "--decks", "1", "--shoes", "4", "--seed", "3",
               "--bet", "small", "--workers", "1", "--cut", "4")
    assert data["sign_convention"] == SIGN_CONVENTION
    small = data["bets"]["small"]
    assert small["player_advantage_rounds"] > 0  # a one-deck shoe soon favours the player
    # perfect play bets only the rounds the player is ahead: a negative average house edge,
    # and a positive expected win
    assert small["perfect_average_house_edge"] < 0
    assert small["perfect_expected_win_per_shoe"] > 0
