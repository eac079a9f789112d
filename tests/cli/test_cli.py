"""The command line: outputs, shapes, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from exact.cli.app import main

from tests.support.published import PUNTO_BANCO


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exact", *args], capture_output=True, text=True,
                          timeout=300)


def test_json_shape_and_published_counts():
    result = run("analyze", "punto-banco", "--decks", "8", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["total"] == PUNTO_BANCO.value("total")
    assert "416!/(416-6)!" in data["counting_unit"]
    banker = data["bets"]["banker"]
    wins = PUNTO_BANCO.value("count", bet="banker", event="Banker wins")
    losses = PUNTO_BANCO.value("count", bet="player", event="Player wins")
    edge = Fraction(banker["house_edge"])
    assert edge == (losses - Fraction(19, 20) * wins) / data["total"]  # exactly, published counts
    assert PUNTO_BANCO.find("house_edge", bet="banker").agrees(edge)
    assert float(banker["house_edge_float"]) == float(Fraction(banker["house_edge"]))
    assert banker["outcomes"][0] == {
        "event": "Banker wins", "pays": "19/20", "combinations": wins,
        "probability": str(Fraction(wins, data["total"])),
        "return": str(Fraction(19, 20) * Fraction(wins, data["total"]))}
    assert [o["pays"] for o in data["bets"]["player"]["outcomes"]] == ["1", "0", "-1"]
    assert data["bets"]["tie"]["outcomes"][0]["combinations"] == PUNTO_BANCO.value(
        "count", bet="tie", event="Tie")
    nine = data["bets"]["tie"]["alternative_paytables"]["9-to-1"]
    assert PUNTO_BANCO.find("house_edge", bet="tie", paytable="9-to-1").agrees(
        Fraction(nine["house_edge"]))


def test_remove_and_explicit_shoe_agree(capsys):
    assert main(["analyze", "punto-banco", "--decks", "1", "--remove", "5,5,9H,KD",
                 "--json"]) == 0
    removed = json.loads(capsys.readouterr().out)
    assert removed["shoe"]["cards"] == 48
    spec = "A:4,2:4,3:4,4:4,5:2,6:4,7:4,8:4,9C:1,9D:1,9S:1,T:4,J:4,Q:4,KC:1,KH:1,KS:1"
    assert main(["analyze", "punto-banco", "--shoe", spec, "--json"]) == 0
    explicit = json.loads(capsys.readouterr().out)
    assert explicit["total"] == removed["total"]
    assert explicit["bets"]["banker"]["outcomes"] == removed["bets"]["banker"]["outcomes"]


def test_csv_keeps_exact_integers_as_text(capsys):
    assert main(["analyze", "punto-banco", "--csv", "--bet", "tie"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("game,shoe_cards,counting_unit,bet,paytable,event,pays,")
    assert "ordered 6-card sequences" in lines[1]
    ties = PUNTO_BANCO.value("count", bet="tie", event="Tie")
    assert f'"=""{ties}"""' in lines[1]  # the exact count, as text a spreadsheet keeps
    assert len(lines) == 1 + 2 * 2  # two paytables of two events


def test_text_output_states_the_counting_unit(capsys):
    assert main(["analyze", "punto-banco", "--decks", "6", "--bet", "banker"]) == 0
    text = capsys.readouterr().out
    assert "Counting unit" in text and "878,869,206,895,680" in text
    assert "House edge 1.0" in text


@pytest.mark.parametrize(("args", "message"), [
    (["analyze", "punto-banco", "--remove", "1X"], "unknown card '1X'"),
    (["analyze", "punto-banco", "--shoe", "A:3,K:2"], "cannot deal a round"),
    (["analyze", "punto-banco", "--shoe", "A:-3,K:20"], "negative"),
    (["analyze", "punto-banco", "--shoe", "A:three"], "bad shoe entry"),
    (["analyze", "punto-banco", "--decks", "-1"], "--decks: '-1': is negative"),
    (["analyze", "punto-banco", "--decks", "0"], "--decks 0: at least one deck"),
    (["analyze", "punto-banco", "--decks", "1", "--remove", "9H,9H"], "cannot remove 9H"),
    (["analyze", "baccarat-x"], "unknown game"),
    (["analyze", "punto-banco", "--bet", "nope"], "unknown bet"),
    (["analyze", "punto-banco", "--paytable", "tie=7-to-1"], "no paytable '7-to-1'"),
    (["analyze", "punto-banco", "--bets", "/nonexistent.toml"], "cannot read bet file"),
    (["analyze"], "usage error"),
    (["analyze", "punto-banco", "--decks", "eight"], "usage error"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_output_file_is_written_whole_or_not_at_all(tmp_path: Path):
    target = tmp_path / "out.json"
    assert main(["analyze", "punto-banco", "--decks", "1", "--json", "-o", str(target)]) == 0
    assert json.loads(target.read_text())["total"] == 14_658_134_400
    bad = tmp_path / "bad.json"
    assert main(["analyze", "punto-banco", "--remove", "ZZ", "--json", "-o", str(bad)]) == 2
    assert not bad.exists() and [p.name for p in tmp_path.iterdir()] == ["out.json"]


@pytest.mark.parametrize("game", ["century21", "chemin-de-fer"])
def test_strategy_games_say_they_have_no_bets(capsys, game):
    """list-bets and features of a strategy game say it has none in a line (fuzz17: list-bets
    printed the bet games' advice on --group and --bet, which it refuses, and features an
    empty listing); settle chemin-de-fer says there is nothing to settle instead of asking
    for --cards, which it refuses."""
    for command in ("list-bets", "features"):
        assert main([command, game]) == 0
        out = capsys.readouterr().out
        assert out.count("\n") == 1 and "strategy game" in out and "--group" not in out
    if game == "chemin-de-fer":
        assert main(["settle", game]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no wagers to settle" in err
        assert main(["settle", game, "--cards", "9H 5C 9D 2S"]) == 2
        assert "--cards is an option of" in capsys.readouterr().err


def test_xlsx_alone_prints_nothing(capsys, tmp_path):
    """Documented: with --xlsx alone nothing is printed (fuzz17: the assumptions were, after two
    blank lines); the workbook is written."""
    sheet = tmp_path / "par.xlsx"
    assert main(["analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--xlsx",
                 str(sheet)]) == 0
    assert capsys.readouterr().out == ""
    assert sheet.read_bytes()[:2] == b"PK"


def test_same_input_same_bytes(capsys):
    """The same bytes from another process (another string hash seed) as from this one."""
    first = run("analyze", "punto-banco", "--decks", "2", "--json")
    assert main(["analyze", "punto-banco", "--decks", "2", "--json"]) == 0
    second = capsys.readouterr().out
    assert first.stdout == second and first.returncode == 0 and '"banker"' in second


def test_list_bets_and_features(capsys):
    assert main(["list-bets", "punto-banco"]) == 0
    listing = capsys.readouterr().out
    assert "banker" in listing and "9-to-1" in listing
    assert main(["features", "punto-banco"]) == 0
    listing = capsys.readouterr().out
    assert "player_pair" in listing
    # the card-level vocabulary, with the type of each feature's values
    assert "player_card3_suit" in listing and "first_four_nines" in listing
    assert "[text or None]" in listing.split("banker_card3_colour")[1].splitlines()[0]
    assert main(["games"]) == 0
    assert "punto-banco" in capsys.readouterr().out
