"""exact: exact combinatorial analysis of baccarat games.

Every count is a Python integer over one stated denominator and every probability, pay and
statistic a :class:`fractions.Fraction`; floats appear only for display.

Layer: outside the layers, below them all (``DATA``, ``__version__``). The layers, top
first: cli | lab, reports, render, analysis | reference, games, engines, model, core; each
imports only those below it (pyproject.toml's import-linter contract,
``tests/system/test_architecture.py``).
"""

from pathlib import Path

__version__ = "0.1.0"

# The package's data files (data/<game>/*.toml), found from here so that a module reading them
# need not know how deep in the package it sits.
DATA = Path(__file__).resolve().parent / "data"
