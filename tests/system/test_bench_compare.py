"""`make bench-compare` (tests/bench_compare.py): its commands are ones the command line takes,
and a comparison of this checkout with itself runs and prints one row per chosen command."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from exact.cli.app import build_parser
from exact.model.plugins import plugin, plugin_ids

from tests import bench_compare
from tests.support.parsers import full_parser


@pytest.mark.parametrize("label, arguments", [(c[0], c[1]) for c in bench_compare.COMMANDS])
def test_every_compared_command_is_one_the_command_line_takes(label, arguments) -> None:
    # a command on a game is parsed as the CLI parses it, with that game's own options (two
    # games may give one flag different choices); an option the CLI dropped would exit here
    game = arguments[1] if len(arguments) > 1 and arguments[1] in plugin_ids() else None
    parser = full_parser() if game is None else build_parser(game=plugin(game))
    parser.parse_args(arguments)


def test_a_comparison_of_the_checkout_with_itself_prints_its_rows(capsys, monkeypatch) -> None:
    """One round of a quick command, both trees this checkout: a row with, for wall and CPU
    time, two medians and their paired ratio with its quartiles (timings are make bench's
    business, not a test's: only the shape is checked)."""
    checkout = bench_compare.CHECKOUT
    monkeypatch.setattr(bench_compare, "COMMANDS", (("games listed", ["games"], "empty"),
                                                    ("games again", ["games"], "warm")))
    bench_compare.compare((checkout, checkout), 1, ["listed"])
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("games")]
    assert len(rows) == 1
    numbers = re.findall(r"\d[\d,]*(?:\.\d+)?", rows[0].removeprefix("games listed"))
    assert len(numbers) == 10 and all(float(n.replace(",", "")) > 0 for n in numbers)


@pytest.mark.parametrize("arguments", [["no-such-revision"], ["HEAD", "--rounds", "0"],
                                       ["HEAD", "--rounds", "9" * 100_000],
                                       ["HEAD", "--rounds", "²"]])
def test_a_bad_revision_or_number_of_rounds_is_one_line_and_exit_2(arguments) -> None:
    script = bench_compare.CHECKOUT / "tests" / "bench_compare.py"
    done = subprocess.run([sys.executable, str(script), *arguments], capture_output=True,
                          text=True, timeout=60)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and len(last) < 300 and "Traceback" not in done.stderr
    assert ("revision" in last) if arguments[0] != "HEAD" else ("rounds" in last)



def test_instructions_rows_show_both_counts_and_their_ratio(capsys, monkeypatch) -> None:
    """``--instructions`` reads the count callgrind prints on standard error; here a stand-in
    wrapper prints a known count, so the plumbing and the row are checked in a second."""
    checkout = bench_compare.CHECKOUT
    monkeypatch.setattr(bench_compare, "COMMANDS", (("games listed", ["games"], "empty"),))
    monkeypatch.setattr(bench_compare, "CALLGRIND", (
        sys.executable, "-c", "import sys; sys.stderr.write('==7== Collected : 1234567\\n')"))
    bench_compare.compare_instructions((checkout, checkout), [])
    row, = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("games listed")]
    assert row.removeprefix("games listed").split() == ["1,234,567", "1,234,567", "1.000"]


@pytest.mark.slow  # two runs under valgrind: about a minute
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_callgrind_counts_are_the_same_on_every_run(tmp_path) -> None:
    """The reason for ``--instructions``: a command counted twice gives the same count to
    within 2% (here 0.1-0.7%: memory addresses, which the collector's timing and the order
    of identity-keyed tables follow, still vary), where its time varies by a third."""
    first, second = (bench_compare.instructions(bench_compare.CHECKOUT, ["games"],
                                                str(tmp_path / name)) for name in "ab")
    assert first > 1_000_000 and abs(first - second) < first / 50

def test_instructions_without_valgrind_is_one_line_and_exit_2(tmp_path) -> None:
    script = bench_compare.CHECKOUT / "tests" / "bench_compare.py"
    done = subprocess.run([sys.executable, str(script), "HEAD", "--instructions"],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": str(tmp_path), "HOME": str(tmp_path)})
    assert done.returncode == 2 and done.stderr.strip() == (
        "bench_compare: --instructions needs valgrind, which is not installed")
