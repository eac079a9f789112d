"""User-supplied NINE/NINES tables: a tier missing, a tier that can never occur, a tier that
pays a round the wager does not win, and a one-sided NINES tier are named."""

from __future__ import annotations

import pytest

from exact.analysis.bet_analysis import game_bets
from exact.analysis.validation import TableValidationError, check_bets, validate_bets
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.games import get_game
from exact.model.bets import load_bets

GAME = get_game("nine-and-nines")
SHIPPED = {bet.id: bet for bet in game_bets(GAME)}
SMALL = Shoe.from_counts({"9D": 2, "KD": 2, "9S": 2, "QS": 2, "4H": 1, "5H": 1, "AC": 1,
                          "8C": 1, "3S": 1, "6D": 1, "7D": 1, "2C": 1})
SMALL_SPEC = "9D:2,KD:2,9S:2,QS:2,4H:1,5H:1,AC:1,8C:1,3S:1,6D:1,7D:1,2C:1"


def table(text: str):
    return load_bets("user.toml", GAME.features, text=text)


def event(name, when, pays):
    return f'[[bet.event]]\nname = "{name}"\nwhen = "{when}"\npays = {pays}\n'


NINES_WITHOUT_SINGLE = '[[bet]]\nid = "nines"\n' + event(
    "Double", "both_two_card_nines", 20)
ONE_SIDED_NINES = '[[bet]]\nid = "nines"\n' + event(
    "Double", "both_two_card_nines", 20) + event(
    "Player 9 only", "player_two_card_nine and not banker_two_card_nine", 3) + event(
    "Banker 9 only", "banker_two_card_nine", 2)
IMPOSSIBLE_NINE = '[[bet]]\nid = "nine-player"\n' + event(
    "Paired 9", "player_two_card_nine and player_paired", 50) + event(
    "Any 9", "player_two_card_nine", 5)


def kinds(issues):
    return [(issue.severity, issue.kind, issue.tier) for issue in issues]


def test_shipped_tables_are_clean():
    nine = [SHIPPED["nine-player"], SHIPPED["nine-banker"]]
    assert validate_bets(GAME, nine, Shoe.standard(8)) == []
    assert validate_bets(GAME, [SHIPPED["nines"]], SMALL, engine="direct") == []


def test_a_missing_tier_is_an_error_naming_the_unpaid_wins():
    issues = validate_bets(GAME, table(NINES_WITHOUT_SINGLE), SMALL, engine="direct")
    assert kinds(issues) == [("error", "missing-tier", None)]
    assert "a tier is missing" in issues[0].line and "'nines'" in issues[0].line
    with pytest.raises(TableValidationError, match="a tier is missing"):
        check_bets(GAME, table(NINES_WITHOUT_SINGLE), SMALL, engine="direct")


def test_a_one_sided_nines_tier_is_an_error_naming_it():
    issues = validate_bets(GAME, table(ONE_SIDED_NINES), SMALL, engine="direct")
    assert ("error", "asymmetric", "Player 9 only") in kinds(issues)
    assert ("error", "asymmetric", "Banker 9 only") in kinds(issues)
    assert ("error", "asymmetric", "Double") not in kinds(issues)
    # the same tiers on a NINE wager (not symmetrical by rule) only have to pay its wins
    nine = ONE_SIDED_NINES.replace('id = "nines"', 'id = "nine-player"')
    assert ("error", "pays-a-loss", None) in kinds(
        validate_bets(GAME, table(nine), SMALL, engine="direct"))


def test_a_tier_of_the_replaced_table_left_out_is_a_warning():
    no_diamonds = '[[bet]]\nid = "nines"\n' + "".join(
        event(e.name, e.condition.text, e.pays) for e in SHIPPED["nines"].events[1:-1])
    issues = validate_bets(GAME, table(no_diamonds), SMALL, engine="direct",
                           replaced={"nines": SHIPPED["nines"]})
    assert kinds(issues) == [("warning", "tier-not-in-table", "Diamond twins")]


def test_a_structurally_impossible_tier_is_a_warning():
    issues = check_bets(GAME, table(IMPOSSIBLE_NINE), Shoe.standard(8))
    assert kinds(issues) == [("warning", "impossible", "Paired 9")]
    assert "structurally impossible" in issues[0].line


def test_a_tier_that_never_occurs_on_this_shoe_is_a_warning():
    single_copies = Shoe.from_counts({"9D": 1, "KD": 1, "9S": 1, "QS": 1, "4H": 1, "5H": 1,
                                      "AC": 1, "8C": 1, "3S": 1, "6D": 1})
    issues = validate_bets(GAME, [SHIPPED["nines"]], single_copies, engine="direct")
    assert kinds(issues) == [("warning", "never-occurs", "Diamond twins"),
                             ("warning", "never-occurs", "Suited twins")]
    assert "10 cards" in issues[0].message


def test_a_symmetry_that_cannot_be_checked_is_said():
    text = '[[bet]]\nid = "nines"\n' + event(
        "Nine and a win", "two_card_nines > 0 and winner != 'tie'", 2) + event(
        "Any", "two_card_nines > 0", 1)
    issues = validate_bets(GAME, table(text), SMALL, engine="direct")
    assert ("warning", "unchecked-symmetry", "Nine and a win") in kinds(issues)


def test_cli_errors_are_one_line_and_warnings_one_line_each(tmp_path, capsys):
    missing = tmp_path / "missing.toml"
    missing.write_text(NINES_WITHOUT_SINGLE)
    assert main(["analyze", "nine-and-nines", "--shoe", SMALL_SPEC, "--engine", "direct",
                 "--table", str(missing), "--bet", "nines"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "a tier is missing" in error
    impossible = tmp_path / "impossible.toml"
    impossible.write_text(IMPOSSIBLE_NINE)
    assert main(["analyze", "nine-and-nines", "--table", str(impossible), "--bet",
                 "nine-player", "--json"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert all(line.startswith("exact: warning: bet 'nine-player', tier ") for line in lines)
    assert sum("'Paired 9': can never occur" in line for line in lines) == 1
    assert sum("tier-not-in-table" in line or "is missing from" in line for line in lines) == 7
    assert '"Paired 9"' in captured.out


def test_a_refused_run_prints_its_one_line_without_the_tables_warnings(tmp_path, capsys):
    """Found by the fuzz suite: a table with warnings, then an error later in the run, gave
    the warnings and the error (3 lines); warnings are printed only when the run succeeds."""
    impossible = tmp_path / "impossible.toml"
    impossible.write_text(IMPOSSIBLE_NINE)
    assert main(["design", "nine-and-nines", "--table", str(impossible), "--bet", "nine-player",
                 "--solve-for", "Paired 9", "--target-edge", "1%"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("exact: error: ") and "warning" not in error
