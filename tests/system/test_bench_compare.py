"""`make bench-compare` (tests/bench_compare.py): its commands are ones the command line takes,
and a comparison of this checkout with itself runs and prints one row per chosen command."""

from __future__ import annotations

import re

import pytest

from exact.cli.app import build_parser

from tests import bench_compare


@pytest.mark.parametrize("label, arguments", [(c[0], c[1]) for c in bench_compare.COMMANDS])
def test_every_compared_command_is_one_the_command_line_takes(label, arguments) -> None:
    build_parser().parse_args(arguments)  # an option the CLI dropped would exit here


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
    import subprocess
    import sys

    script = bench_compare.CHECKOUT / "tests" / "bench_compare.py"
    done = subprocess.run([sys.executable, str(script), *arguments], capture_output=True,
                          text=True, timeout=60)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and len(last) < 300 and "Traceback" not in done.stderr
    assert ("revision" in last) if arguments[0] != "HEAD" else ("rounds" in last)
