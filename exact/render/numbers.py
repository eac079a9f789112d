"""How a number is shown: money, percents, decimals, counts and pays, one place for the text,
JSON, CSV and Excel outputs and the reports (a figure printed twice is printed alike).

Layer: render, above the analyses; the reports, the command line and the games' own
rendering use it. Display only: every value stays exact (``Fraction``, ``int``) until it is
shown here, and a float made here is never computed with again.

>>> grouped(4998398275503360), percent(Fraction(-1, 8), 2, sign=True)
('4,998,398,275,503,360', '-12.50%')
>>> amount(Fraction(2500)), amount(Fraction(19, 2)), money(Fraction(19, 2))
('2,500', '19/2', '19/2 (9.5000000000)')
>>> fixed(Fraction(1, 3), 4), fixed(Fraction(-1, 3), 4, sign=True), general(Fraction(1, 3))
('0.3333', '-0.3333', '0.333333333333')
"""

from __future__ import annotations

from fractions import Fraction


def grouped(number: int | float | Fraction, decimals: int | None = None) -> str:
    """A count (or any number) with thousands separators, as Python writes it; ``decimals``:
    that many decimals (odds, expected counts).

    >>> grouped(4998398275503360), grouped(Fraction(29_999, 2), 1)
    ('4,998,398,275,503,360', '14,999.5')
    """
    if decimals is None:
        return f"{number:,}"
    return f"{float(number):,.{decimals}f}"


def percent(value: Fraction | float, digits: int = 4, sign: bool = False) -> str:
    """A fraction of the bet as a percent with ``digits`` decimals (``sign``: ``+`` shown).

    >>> percent(Fraction(114753351728, 10847218479825)), percent(Fraction(-1, 8), 2, True)
    ('1.0579%', '-12.50%')
    """
    return points(value, digits, sign) + "%"


def points(value: Fraction | float, digits: int = 4, sign: bool = False) -> str:
    """:func:`percent` without its sign, for a column headed in percent.

    >>> points(Fraction(-1, 8), 3), points(0.00125, 5, sign=True)
    ('-12.500', '+0.12500')
    """
    return f"{float(value) * 100:{'+' if sign else ''}.{digits}f}"


def fixed(value: Fraction | float, digits: int, sign: bool = False) -> str:
    """``digits`` decimals (``sign``: ``+`` shown): probabilities, returns, standard deviations.

    >>> fixed(Fraction(1, 8), 8), fixed(Fraction(1, 8), 3, sign=True)
    ('0.12500000', '+0.125')
    """
    return f"{float(value):{'+' if sign else ''}.{digits}f}"


def signed(value: Fraction | float, digits: int = 4) -> str:
    """Money per hand or per unit, signed: ``digits`` decimals with ``+`` shown.

    >>> signed(Fraction(-11312, 10000)), signed(Fraction(1, 3))
    ('-1.1312', '+0.3333')
    """
    return fixed(value, digits, sign=True)


def general(value: Fraction | float, digits: int = 12) -> str:
    """``digits`` significant figures (Python's ``g``): the float column beside an exact one
    in CSV, which a spreadsheet reads back.

    >>> general(Fraction(1, 8)), general(Fraction(2, 3), 6)
    ('0.125', '0.666667')
    """
    return f"{float(value):.{digits}g}"


def decimal(value: Fraction | float, digits: int = 10) -> str:
    """Fixed decimals for ordinary values, ``digits`` significant figures in plain scientific
    notation for tiny ones: every figure printed is one that ``float()`` and a spreadsheet read
    back (ASCII minus, ``e`` exponent; no typographic minus, no superscripts).

    >>> decimal(Fraction(1, 3)), decimal(Fraction(1, 3 * 10**7)), decimal(Fraction(-2))
    ('0.3333333333', '3.333333333e-08', '-2.0000000000')
    """
    number = float(value)
    if number != 0 and abs(number) < 1e-4:
        return f"{number:.{digits - 1}e}"
    return f"{number:.{digits}f}"


def scientific(value: float, digits: int = 4) -> str:
    """Signed, in plain scientific notation (see :func:`decimal`).

    >>> scientific(-0.000371234), scientific(0.0), scientific(0.00123)
    ('-3.712e-04', '0', '+1.230e-03')
    """
    if value == 0:
        return "0"
    return f"{value:+.{digits - 1}e}"


def trimmed(value: float, digits: int = 6) -> str:
    """``digits`` decimals without trailing zeros (a pay in a spreadsheet's column).

    >>> trimmed(0.95), trimmed(8.0), trimmed(1 / 3)
    ('0.95', '8', '0.333333')
    """
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def amount(value: Fraction) -> str:
    """Money as a settlement states it: whole units grouped, else the exact fraction.

    >>> amount(Fraction(-1500)), amount(Fraction(5, 2))
    ('-1,500', '5/2')
    """
    return str(value) if value.denominator != 1 else grouped(value.numerator)


def net(value: Fraction) -> str:
    """A wager's net as a worked example states it: signed, exact, and its decimal when it
    is not whole.

    >>> net(Fraction(19, 2)), net(Fraction(-10)), net(Fraction(0))
    ('+19/2 (+9.5)', '-10', '0')
    """
    text = ("+" if value > 0 else "") + str(value)
    if value.denominator != 1:
        text += f" ({float(value):+g})"
    return text


def money(value: Fraction) -> str:
    """Money as a report states it: whole units grouped; a fraction of a unit as its exact
    fraction and decimals.

    >>> money(Fraction(950)), money(Fraction(19, 2))
    ('950', '19/2 (9.5000000000)')
    """
    if value.denominator == 1:
        return grouped(value.numerator)
    return f"{value} ({decimal(value)})"


def pays_text(pays: Fraction) -> str:
    """A pay as a report states it: N to 1, ``push`` or ``loses``.

    >>> pays_text(Fraction(19, 20)), pays_text(Fraction(0)), pays_text(Fraction(-1))
    ('19/20 to 1', 'push', 'loses')
    """
    if pays < 0:
        return "loses"
    return "push" if pays == 0 else f"{pays} to 1"
