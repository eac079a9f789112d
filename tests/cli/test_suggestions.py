"""The command line a person expects (issue 31, in part): `exact --version`, and a misspelt bet,
game or group id refused in one line that suggests the id meant."""

from __future__ import annotations

import subprocess
import sys

import pytest

from exact import __version__
from exact.cli.app import main
from exact.core.parsing import suggestion


def test_version_prints_the_toolkits_version() -> None:
    done = subprocess.run([sys.executable, "-m", "exact", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"exact {__version__}\n", "")


@pytest.mark.parametrize(("argv", "meant"), [
    (["analyze", "punto-banco", "--bet", "dragon7"], "'dragon-7'"),
    (["analyze", "punto-banco", "--bet", "Tie"], "'tie'"),
    (["analyze", "punto-bnco"], "'punto-banco'"),
    (["analyze", "punto-banco", "--group", "sides"], "'side'"),
    (["eor", "punto-banco", "--bet", "panda8"], "'panda-8'"),
    (["design", "punto-banco", "--bet", "tei", "--solve-for", "Tie", "--target-edge", "5%"],
     "'tie'"),
    (["list-bets", "nine-and-nine"], "'nine-and-nines'"),
    # every other id a user types (issue 31): paytables, tiers, choices, options, settle's
    (["analyze", "punto-banco", "--bet", "tie", "--paytable", "tie=9-to1"], "'9-to-1'"),
    (["analyze", "punto-banco", "--paytable", "te=9-to-1"], "'tie'"),
    (["analyze", "punto-banco", "--engine", "factorized"], "'factorised'"),
    (["analyze", "century21", "--strategy", "bset"], "'best'"),
    (["analyze", "century21", "--information", "totls"], "'total'"),
    (["eor", "century21", "--strategy", "dealer-bets"], "'dealer-best'"),
    (["analyse", "punto-banco"], "'analyze'"),
    (["analyze", "punto-banco", "--decsk", "8"], "'--decks'"),
    (["analyze", "punto-banco", "--view", "sumary"], "'summary'"),
    (["design", "punto-banco", "--bet", "tie", "--solve-for", "Te", "--target-edge", "5%"],
     "'tie'"),
    (["design", "punto-banco", "--bet", "tie", "--solve-for", "tie", "--target-edge", "5%",
      "--paytable", "9-to1"], "'9-to-1'"),
    (["settle", "punto-banco", "--cards", "7H 4C KD 5S", "--wager", "bankr=25"], "'banker'"),
    (["settle", "punto-banco", "--cards", "7H 4C KD 5S", "--wager", "banker=25",
      "--paytable", "banker=comission-4"], "'commission-4%'")])
def test_a_misspelt_id_is_refused_with_a_suggestion(capsys, argv, meant) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert f"(did you mean {meant}?)" in captured.err, captured.err


def test_no_suggestion_where_nothing_is_near(capsys) -> None:
    assert main(["analyze", "punto-banco", "--bet", "zzzzzz"]) == 2
    assert "did you mean" not in capsys.readouterr().err


def test_a_suggestion_is_bounded_whatever_the_names() -> None:
    """A million-character name, or a thousand names, cost nothing and say little."""
    assert suggestion(["x" * 1_000_000], ["tie"]) == ""
    assert suggestion([None, 3, b"tie"], ["tie"]) == ""  # not text: no suggestion
    many = suggestion([f"ti{i}" for i in range(1_000)], ["tie", "tip"])
    assert len(many) < 100
