"""Cold start (issue 13): a fresh process reads what earlier runs kept on disk and imports
only what it uses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from exact.cli.app import main

# Heavy modules: none is needed for a return table, text or JSON, but numpy for the engines
# of the side bets (sympy is for `design`, pandas, matplotlib, scipy and dask for the lab and
# the reports, the spreadsheet writers for --xlsx).
HEAVY = ("numpy", "sympy", "mpmath", "pandas", "matplotlib", "scipy", "dask", "openpyxl",
         "xlsxwriter")
# Runs the command line, then reports on standard error which heavy modules were imported.
_CHILD = f"""
import sys
from exact.cli.app import main
code = main(sys.argv[1:])
heavy = [m for m in {HEAVY!r} if m in sys.modules]
print("imported:", " ".join(heavy), file=sys.stderr)
sys.exit(code)
"""
GOLDEN = Path(__file__).parents[1] / "golden"
MAIN = ["analyze", "punto-banco", "--decks", "8", "--bet", "banker", "--bet", "player",
        "--bet", "tie"]


def _fresh(arguments: list[str], cache: Path | None) -> tuple[str, str]:
    """Standard output and the line of heavy modules of a fresh process (on the given disk
    cache, or on the user's: the one the other tests warm)."""
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    if cache is not None:
        environment["EXACT_CACHE_DIR"] = str(cache)
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
    second_json, json_imports = _fresh([*MAIN, "--json"], tmp_path)
    assert first_imports == "imported: numpy"
    assert second_imports == json_imports == "imported:"
    assert sorted(path.suffix for path in tmp_path.iterdir() if path.name != "code") == \
        [".bet-events", ".bet-events", ".bet-events", ".compiled", ".light"]
    assert main(MAIN) == 0
    assert first == second == capsys.readouterr().out
    assert main([*MAIN, "--json"]) == 0
    assert second_json == capsys.readouterr().out


def test_the_default_analysis_imports_nothing_heavy_but_numpy() -> None:
    """Every bet of Punto Banco at 8 decks, text and JSON (its exact standard deviations
    included, written without sympy), in fresh processes: numpy for the engines of the side
    bets and no other heavy module, and the bytes of the goldens."""
    for options, golden in (([], "analyze_punto-banco_--decks_8.out"),
                            (["--json"], "analyze_punto-banco_--decks_8_--json.out")):
        out, imports = _fresh(["analyze", "punto-banco", "--decks", "8", *options], None)
        assert imports == "imported: numpy", options
        assert out == (GOLDEN / golden).read_text(encoding="utf-8"), options
