"""Cold start (issue 13): a fresh process reads what earlier runs kept on disk and imports
only what it uses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from exact.cli.app import main

# Runs the command line, then reports on standard error which heavy modules were imported.
_CHILD = """
import sys
from exact.cli.app import main
code = main(sys.argv[1:])
heavy = [m for m in ("numpy", "sympy", "pandas", "matplotlib", "openpyxl") if m in sys.modules]
print("imported:", " ".join(heavy), file=sys.stderr)
sys.exit(code)
"""
MAIN = ["analyze", "punto-banco", "--decks", "8", "--bet", "banker", "--bet", "player",
        "--bet", "tie"]


def _fresh(arguments: list[str], cache: Path) -> tuple[str, str]:
    environment = {**os.environ, "EXACT_CACHE_DIR": str(cache),
                   "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-c", _CHILD, *arguments], env=environment,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.strip().splitlines()[-1]


def test_a_fresh_main_bet_analysis_reads_its_plain_form_without_numpy(tmp_path, capsys):
    """The first run compiles (numpy) and keeps the compiled deal, the bets' event matrices
    and their plain form; the next fresh run reads the plain form and imports none of numpy,
    sympy, pandas, matplotlib or openpyxl; both print what the in-process analysis (numpy
    loaded, the compiled path) prints, byte for byte."""
    first, first_imports = _fresh(MAIN, tmp_path)
    second, second_imports = _fresh(MAIN, tmp_path)
    assert first_imports == "imported: numpy"
    assert second_imports == "imported:"
    assert sorted(path.suffix for path in tmp_path.iterdir()) == \
        [".bet-events", ".bet-events", ".bet-events", ".compiled", ".light"]
    assert main(MAIN) == 0
    assert first == second == capsys.readouterr().out
