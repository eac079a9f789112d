"""exact: exact combinatorial analysis of baccarat games.

Every count is a Python integer over one stated denominator and every probability, pay and
statistic a :class:`fractions.Fraction`; floats appear only for display.

Layer: outside the layers, below them all (``__version__``). The layers, top first: games,
cli | lab, reports, render, analysis | reference, engines, model, core; each imports only those
below it (pyproject.toml's import-linter contract,
``tests/system/test_architecture.py``).
"""

__version__ = "0.1.0"
