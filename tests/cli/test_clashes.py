"""No output may be an input, nor another output (issue 26): `--bets x.toml -o x.toml` replaced
the user's bet file with the analysis, exit 0; so did `--xlsx`, a symbolic link to the input,
`--rules R -o R`, `edge --seen S -o S`, `settle --table T -o T`, and `-o F --xlsx F` lost one of
its two outputs. Every input option of every command, named as every output of the command
directly, through a symbolic link, through a relative path with `..` and through a hard link, is
refused before any work (a tripwire stands where the command's work starts), exit 2, one line
naming both options, the input byte for byte as it was."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exact.cli.app import main
from exact.cli.parser import Parser
from exact.core.files import InputFile, output_name

from tests.support.parsers import full_parser
from tests.support.shipped import data_file

# Per input option: the command line that takes it (the option's value is {input}) and the
# content of a valid input file, so that a run that is not refused gets past reading it.
SEEN = b"9H 5C KD\n"
TABLE_HAND = b'dealer = "KH 7C"\n[[seat]]\nseat = 3\ncards = "9S KD"\n[[wager]]\nseat = 3\n' \
    b'circle = 1\namount = 100\n'
BETS = b'[[bet]]\nid = "mine"\nname = "Mine"\n[[bet.event]]\nname = "Nine"\n' \
    b'when = "player_total == 9"\npays = 1\n'  # (its own id: a file of shipped ids is refused)
RULES = data_file("century21", "rules.toml").read_bytes()
DESIGN = ["--bet", "tie", "--solve-for", "Tie", "--target-edge", "5%"]
SIMULATE = ["--shoes", "1", "--seed", "1", "--workers", "1"]
INPUTS = {
    ("analyze", "--bets"): (["analyze", "punto-banco", "--decks", "1", "--bets"], BETS),
    ("analyze", "--table"): (["analyze", "punto-banco", "--decks", "1", "--table"], BETS),
    ("analyze", "--rules"): (["analyze", "century21", "--decks", "1", "--rules"], RULES),
    ("design", "--bets"): (["design", "punto-banco", *DESIGN, "--bets"], BETS),
    ("design", "--table"): (["design", "punto-banco", *DESIGN, "--table"], BETS),
    ("list-bets", "--bets"): (["list-bets", "punto-banco", "--bets"], BETS),
    ("features", "--bets"): (["features", "punto-banco", "--bets"], BETS),
    ("eor", "--bets"): (["eor", "punto-banco", "--decks", "1", "--bets"], BETS),
    ("eor", "--rules"): (["eor", "century21", "--decks", "1", "--rules"], RULES),
    ("simulate", "--bets"): (["simulate", "punto-banco", *SIMULATE, "--bets"], BETS),
    ("simulate", "--rules"): (["simulate", "century21", *SIMULATE, "--rules"], RULES),
    ("edge", "--bets"): (["edge", "punto-banco", "--seen", os.devnull, "--bets"], BETS),
    ("edge", "--rules"): (["edge", "century21", "--seen", os.devnull, "--rules"], RULES),
    ("edge", "--seen"): (["edge", "punto-banco", "--decks", "1", "--seen"], SEEN),
    ("settle", "--bets"): (["settle", "punto-banco", "--cards", "9H 5C 9D 2S", "--wager",
                            "tie=1", "--bets"], BETS),
    ("settle", "--table-hand"): (["settle", "century21", "--table-hand"], TABLE_HAND),
    ("settle", "--rules"): (["settle", "century21", "--table-hand", "hand.toml", "--rules"],
                            RULES),
    ("report", "--bets"): (["report", "punto-banco", "--decks", "1", "--bets"], BETS),
    ("report", "--table"): (["report", "punto-banco", "--decks", "1", "--table"], BETS),
    ("report", "--rules"): (["report", "century21", "--rules"], RULES),
    ("report", "--submission"): (["report", "punto-banco", "--submission"], b'client = "X"\n'),
}
# report's -o is required: a case naming the input as --xlsx gives it another file
REQUIRED_OUTPUT = {"report": ("--output", ["-o", "report.pdf"])}


def _file_options() -> dict[str, tuple[list[str], list[str]]]:
    """Per command: its input options and its output options, read from the parsers."""
    found = {}
    for command, parser in full_parser().commands.items():
        inputs = [parser.options[d] for d, a in parser.actions.items()
                  if isinstance(a.type, InputFile)]
        outputs = [parser.options[d] for d, a in parser.actions.items() if a.type is output_name]
        found[command] = (inputs, outputs)
    return found


OPTIONS = _file_options()


def test_every_file_option_is_marked_and_tested() -> None:
    """Every option that names a file (metavar FILE) is an input or an output to the clash
    check, and every input option has its case here: a new file option cannot slip by."""
    for command, parser in full_parser().commands.items():
        for dest, action in parser.actions.items():
            if action.metavar == "FILE":
                assert isinstance(action.type, InputFile) or action.type is output_name, \
                    f"{command} {parser.options[dest]}: neither an input nor an output"
    marked = {(command, option) for command, (inputs, _) in OPTIONS.items()
              for option in inputs}
    assert marked == set(INPUTS)
    assert OPTIONS["analyze"][1] == ["--output", "--xlsx"]


class WorkStarted(Exception):
    """The command's work began: a clash was not refused before it."""


@pytest.fixture
def tripwire(monkeypatch) -> list[str]:
    """The command's work (its ``run``, which reads the inputs) replaced by a tripwire that
    records it was reached and stops the run."""
    reached: list[str] = []
    parse = Parser.parse_args

    def parse_args(self, *args, **kwargs) -> argparse.Namespace:
        parsed = parse(self, *args, **kwargs)
        if hasattr(parsed, "run"):
            def run(namespace: argparse.Namespace) -> str:
                reached.append(namespace.command)
                raise WorkStarted(namespace.command)

            parsed.run = run
        return parsed

    monkeypatch.setattr(Parser, "parse_args", parse_args)
    return reached


def _prepare(folder: Path, case: tuple[str, str]) -> tuple[list[str], Path, bytes]:
    argv, content = INPUTS[case]
    source = folder / "input.file"
    source.write_bytes(content)
    (folder / "hand.toml").write_bytes(TABLE_HAND)
    (folder / "sub").mkdir()
    return [*argv, "input.file"], source, content


def _names(folder: Path, source: Path) -> dict[str, str]:
    """Every way of naming ``source`` as an output: directly, by a symbolic link, by a
    relative path through ``..``, by an absolute path, by a hard link."""
    os.symlink("input.file", folder / "link")
    os.link(source, folder / "hard")
    return {"direct": "input.file", "symlink": "link", "dotdot": "sub/../input.file",
            "absolute": str(source), "hard-link": "hard"}


def _refused(capsys, argv: list[str], *named: str) -> str:
    status = main(argv)
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert status == 2 and len(lines) == 1 and captured.out == "", captured
    assert all(option in lines[0] for option in named), lines[0]
    return lines[0]


CASES = [(command, option, output) for (command, option) in INPUTS
         for output in OPTIONS[command][1]]


@pytest.mark.parametrize(("command", "option", "output"), CASES,
                         ids=[f"{c}{o}{w}" for c, o, w in CASES])
def test_an_input_named_as_an_output_is_refused_before_any_work(
        tmp_path: Path, monkeypatch, capsys, tripwire: list[str], command: str, option: str,
        output: str) -> None:
    monkeypatch.chdir(tmp_path)
    argv, source, content = _prepare(tmp_path, (command, option))
    required, given = REQUIRED_OUTPUT.get(command, (output, []))
    if output != required:
        argv = [*argv, *given]
    for how, name in _names(tmp_path, source).items():
        line = _refused(capsys, [*argv, output, name], option, output)
        assert "would replace its own input" in line, (how, line)
        assert source.read_bytes() == content, how
    assert tripwire == []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["hard", "hand.toml", "input.file", "link", "sub"])
    # the control: another output file passes the check and reaches the work
    with pytest.raises(WorkStarted):
        main([*argv, output, "elsewhere.out"])
    assert tripwire == [command]


@pytest.mark.parametrize("how", ["direct", "symlink", "dotdot", "hard-link", "new"])
def test_two_outputs_on_one_file_are_refused_before_any_work(
        tmp_path: Path, monkeypatch, capsys, tripwire: list[str], how: str) -> None:
    """``-o F --xlsx F`` kept one of the two outputs; a link or another spelling too."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    first = tmp_path / "out.txt"
    if how != "new":
        first.write_text("kept\n")
    second = {"direct": "out.txt", "symlink": "link", "dotdot": "sub/../out.txt",
              "hard-link": "hard", "new": "out.txt"}[how]
    if how == "symlink":
        os.symlink("out.txt", tmp_path / "link")
    elif how == "hard-link":
        os.link(first, tmp_path / "hard")
    argv = ["analyze", "punto-banco", "--decks", "1", "--bet", "tie"]
    for pair in (["-o", "out.txt", "--xlsx", second], ["--xlsx", "out.txt", "-o", second]):
        line = _refused(capsys, [*argv, *pair], "--output", "--xlsx")
        assert "one output would replace the other" in line
    assert tripwire == []
    assert (how == "new" and not first.exists()) or first.read_text() == "kept\n"


SEEN_ARGV = ["edge", "punto-banco", "--decks", "1", "--bet", "tie"]
# the command line with its work replaced by a tripwire: exit 3 if the work began
TRIPWIRE = """
import sys
from exact.cli import app
from exact.cli.parser import Parser
parse = Parser.parse_args
def parse_args(self, *args, **kwargs):
    parsed = parse(self, *args, **kwargs)
    if hasattr(parsed, "run"):
        parsed.run = lambda namespace: sys.exit(3)
    return parsed
Parser.parse_args = parse_args
sys.exit(app.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("seen", [None, "-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"])
def test_standard_input_read_as_seen_cards_is_an_input(tmp_path: Path, seen: str | None
                                                       ) -> None:
    """``edge -o seen.txt < seen.txt`` (the cards read from standard input, by ``-`` or the
    option left out, or by a name of descriptor 0) would replace the file the shell opened."""
    (tmp_path / "seen.txt").write_bytes(SEEN)
    argv = [*SEEN_ARGV, *([] if seen is None else ["--seen", seen])]
    for output in ("seen.txt", "hard"):
        if output == "hard":
            os.link(tmp_path / "seen.txt", tmp_path / "hard")
        with open(tmp_path / "seen.txt", "rb") as stdin:
            result = subprocess.run([sys.executable, "-c", TRIPWIRE, *argv, "-o", output],
                                    stdin=stdin, capture_output=True, text=True,
                                    cwd=tmp_path, timeout=120)
        assert result.returncode == 2, result
        assert len(result.stderr.splitlines()) == 1 and "--seen" in result.stderr
        assert "would replace its own input" in result.stderr
        assert (tmp_path / "seen.txt").read_bytes() == SEEN


def test_a_pipe_on_standard_input_clashes_with_nothing(tmp_path: Path) -> None:
    """Standard input from a pipe (or a FIFO) is no file an output could replace: the run
    goes on to its work (the tripwire's exit 3)."""
    result = subprocess.run([sys.executable, "-c", TRIPWIRE, *SEEN_ARGV, "-o", "out.txt"],
                            input=SEEN.decode(), capture_output=True, text=True, cwd=tmp_path,
                            timeout=120)
    assert result.returncode == 3, result


def test_a_real_run_with_distinct_files_is_unchanged(tmp_path: Path, monkeypatch) -> None:
    """The check refuses only a clash: a run with its input and output apart writes as before
    (and an input that is an output of nothing, such as the README's bet file, is read)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bets.toml").write_bytes(BETS)
    assert main(["analyze", "punto-banco", "--decks", "1", "--bets", "bets.toml", "--bet",
                 "mine", "--json", "-o", "out.json"]) == 0
    assert (tmp_path / "out.json").read_text().startswith("{")
    assert (tmp_path / "bets.toml").read_bytes() == BETS


def test_a_table_file_with_a_long_path_is_validated(tmp_path: Path, capsys) -> None:
    """A --table's bets were told from the pool by Bet.source, a display label cut and quoted
    past 160 characters: under a long folder name the table was not validated at all, and a
    tier paying rounds the wager does not win went through (exit 0)."""
    folder = tmp_path / ("d" * 170)
    folder.mkdir()
    table = folder / "n.toml"
    table.write_text('[[bet]]\nid = "nine-player"\nname = "NINE (Player)"\ngroup = "nine"\n'
                     'otherwise = "No Player two-card 9"\n[[bet.event]]\nname = "Nine"\n'
                     'when = "player_total == 9"\npays = 1\n')
    for name in (table, folder / ".." / folder.name / "n.toml"):
        assert main(["analyze", "nine-and-nines", "--decks", "1", "--bet", "nine-player",
                     "--table", str(name)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1
        assert "are paid by a tier" in captured.err
