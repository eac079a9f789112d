"""exact: exact combinatorial analysis of baccarat games.

Every count is a Python integer over one stated denominator and every probability, pay and
statistic a :class:`fractions.Fraction`; floats appear only for display.
"""

__version__ = "0.1.0"
