"""`make bench` cannot rot (issue 30): its quick mode walks every section of tests/benchmark.py
at tiny sizes, so a renamed function, option or command breaks this test, not the benchmark
nobody runs in CI. Its figures are not checked (timings are `make bench`'s business): only that
it ran to the end, every section printed its closing line, and no target was judged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests import benchmark

CHECKOUT = Path(__file__).parents[2]


def test_the_quick_benchmark_runs_every_section_to_the_end() -> None:
    """On the disk cache the other tests share (the bench's own empty-cache runs have theirs):
    some 45 s of CPU with the 1-deck compiled forms on disk, 58 s on an empty one (half of it
    in the 24 fresh processes and the simulations' workers)."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    done = subprocess.run([sys.executable, str(CHECKOUT / "tests" / "benchmark.py"), "--quick"],
                          capture_output=True, text=True, env=environment, cwd=CHECKOUT,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    closing = [line for line in done.stdout.splitlines() if line.startswith("[section ")]
    assert [line.split()[1].rstrip("]") for line in closing] == \
        [section.__name__ for section in benchmark.SECTIONS]
    assert all(" done in " in line for line in closing)
    # the fresh-process main-bet analysis, text and JSON, against the naive enumerator
    assert "main bets (banker, player, tie) / naive enumerator" in done.stdout
    assert "main bets --json / naive enumerator" in done.stdout
    assert "PASS" not in done.stdout and "FAIL" not in done.stdout  # tiny sizes: no targets


def test_the_benchmark_refuses_an_unknown_option() -> None:
    done = subprocess.run([sys.executable, str(CHECKOUT / "tests" / "benchmark.py"), "--quik"],
                          capture_output=True, text=True, cwd=CHECKOUT, timeout=120)
    assert done.returncode != 0
    assert "usage: tests/benchmark.py [--quick]" in done.stderr
