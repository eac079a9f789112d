"""``analyze century21 --seats ...`` and ``settle century21 --dice-total`` from the command
line (issue 29): every output format, and one-line refusals."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from fractions import Fraction

import pytest

from exact.cli.app import main

SMALL = "A:3,2:2,5:3,6:3,9:2,K:3,X:2"
# three seats' exact joint, run three times: a shoe of five classes (2 s of CPU a run, 5.5 s on
# SMALL's seven), with jokers and enough cards for three seats and the Player/Dealer
SMALLER = "A:4,5:3,9:3,K:4,X:2"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_seats_in_text_json_and_csv_agree(capsys) -> None:
    base = ("analyze", "century21", "--shoe", SMALLER, "--seats", "3", "--wagers", "10,20,30",
            "--dealer-wager", "40", "--strategy", "best", "--owners", "Ann,Ann,Bob")
    code, text, _ = run(capsys, *base)
    assert code == 0
    assert "seats each player's checked hand its exact best response" in text
    assert "Player/Dealer House Way" in text
    code, out, _ = run(capsys, *base, "--json")
    data = json.loads(out)
    assert code == 0 and data["strategy"] == "best"
    assert [s["checks"] for s in data["seats"]] == [True, False, True]  # rule 6: Ann checks one
    assert sum(Fraction(s["expected_action"]) for s in data["seats"]) == 40
    assert data["dice"]["first_position_counts_of_216"]["6"] == 25
    net = Fraction(data["player_dealer"]["expected_net"])
    assert f"(exact {net})" in text
    found = data["player_dealer"]["distribution"]  # 3 seats under best: the exact joint
    assert found["exact"] and found["method"] == "exact (the three seats' joint)"
    assert Fraction(found["mean"]) == net
    code, out, _ = run(capsys, *base, "--csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][0] == "who" and [r[0] for r in rows[1:]] == [
        "seat 1", "seat 2", "seat 3", "player/dealer", "house"]
    assert Fraction(rows[4][8]) == net


def test_the_strategy_changes_the_table_and_one_seat_is_exact(capsys) -> None:
    nets = {}
    for name in ("house", "dealer-best"):
        code, out, _ = run(capsys, "analyze", "century21", "--shoe", SMALL, "--seats", "1",
                           "--strategy", name, "--json")
        data = json.loads(out)
        assert code == 0 and data["player_dealer"]["distribution"]["exact"]
        nets[name] = Fraction(data["player_dealer"]["expected_net"])
        assert nets[name] == Fraction(data["player_dealer"]["distribution"]["mean"])
    assert nets["dealer-best"] > nets["house"]


def test_seats_workbook(capsys, tmp_path) -> None:
    book = tmp_path / "table.xlsx"
    code, out, err = run(capsys, "analyze", "century21", "--shoe", SMALL, "--seats", "1",
                         "--xlsx", str(book))
    assert (code, out, err) == (0, "", "")
    assert "xl/workbook.xml" in zipfile.ZipFile(book).namelist()


@pytest.mark.parametrize("argv, message", [
    (["--seats", "8"], "1 to 7 seats"),
    (["--seats", "4", "--strategy", "equilibrium"], "equilibrium at 4 seats"),
    (["--seats", "2", "--wagers", "10"], "1 wagers for 2 seats"),
    (["--seats", "2", "--wagers", "10,ten"], "--wagers"),
    (["--seats", "2", "--owners", "A,"], "--owners"),
    (["--seats", "2", "--wagers", "10,500"], "outside the table limits"),
    (["--seats", "2", "--dealer-wager", "5"], "below the table minimum"),
    (["--wagers", "10"], "--wagers needs --seats"),
    (["--seats", "2", "--players", "3"], "not both"),
])
def test_bad_table_options_are_one_line_and_exit_2(capsys, argv, message) -> None:
    code, out, err = run(capsys, "analyze", "century21", "--shoe", SMALL, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_settle_by_dice_total_and_positions(capsys) -> None:
    code, out, _ = run(capsys, "settle", "century21", "--dealer", "KH 7C", "--seat", "1=9S KD",
                       "--seat", "2=8C KD", "--wager", "1.1=100", "--wager", "2.1=100",
                       "--dealer-wager", "150", "--dice-total", "6", "--position", "1=3",
                       "--position", "2=6", "--json")
    data = json.loads(out)
    assert code == 0 and data["order"] == [2, 1] and data["dice_total"] == 6
    assert data["positions"] == {"1": 3, "2": 6}
    code, _, err = run(capsys, "settle", "century21", "--dealer", "KH 7C", "--seat",
                       "1=9S KD", "--wager", "1.1=10", "--dealer-wager", "5")
    assert code == 2 and "below the table minimum 10" in err and err.count("\n") == 1
