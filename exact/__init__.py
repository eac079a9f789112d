"""exact: exact combinatorial analysis of baccarat games.

Every count is a Python integer over one stated denominator and every probability, pay and
statistic a :class:`fractions.Fraction`; floats appear only for display.
"""

from pathlib import Path

__version__ = "0.1.0"

# The package's data files (data/<game>/*.toml), found from here so that a module reading them
# need not know how deep in the package it sits.
DATA = Path(__file__).resolve().parent / "data"
