"""The exact standard deviation is written without sympy (a fresh `analyze --json` would spend
a quarter of a second importing it) and as sympy writes it, byte for byte: its slow twin here
is sympy itself."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.analysis import square_roots
from exact.analysis.square_roots import square_root_text
from exact.analysis.statistics import BetTable

# A prime just above the trial-division bound, and one just below it: the squares sympy takes
# out of a cofactor that is a perfect power, and of the largest prime it divides by.
BIG, SMALL = 32771, 32749


def _sympy(value: Fraction) -> str:
    return str(sympy.sqrt(sympy.Rational(value.numerator, value.denominator)))


# integers shaped like the numerators and denominators of variances: products of small primes
# (falling factorials of shoe sizes), squares, large primes around the bound, arbitrary ones
_INTEGERS = st.one_of(
    st.integers(1, 10**40),
    st.lists(st.integers(2, 420), max_size=12).map(lambda factors: int(sympy.prod(factors))),
    st.tuples(st.integers(1, 10**9), st.sampled_from([1, 2, 3, BIG, SMALL, BIG**2 * 7,
                                                      BIG**3, SMALL**3 * 5])
              ).map(lambda pair: pair[0] ** 2 * pair[1]),
)


@settings(max_examples=400, deadline=None)
@given(_INTEGERS, _INTEGERS)
def test_the_square_root_is_written_as_sympy_writes_it(numerator: int, denominator: int) -> None:
    value = Fraction(numerator, denominator)
    assert square_root_text(value) == _sympy(value)


@pytest.mark.parametrize("value", [Fraction(0), Fraction(1), Fraction(4, 9), Fraction(7, 9),
                                   Fraction(1, 2), Fraction(8, 3), Fraction(5832),
                                   Fraction(BIG**3, BIG + 2), Fraction(2, 40009**2 * 7),
                                   Fraction((BIG * 32779) ** 2 * 2, 3)])
def test_each_form_of_the_square_root(value: Fraction) -> None:
    """Integer, fraction, radical alone, with a coefficient, over a denominator."""
    assert square_root_text(value) == _sympy(value)


def test_a_negative_number_has_no_square_root() -> None:
    with pytest.raises(ValueError, match="no real square root"):
        square_root_text(Fraction(-1, 3))


def test_a_tables_exact_deviation_squares_to_its_variance() -> None:
    table = BetTable.from_counts("die", "Die", "even", [
        (str(face), Fraction(face - 3), 1) for face in range(1, 7)], total=6)
    assert table.standard_deviation_exact == _sympy(table.variance)
    assert sympy.sympify(table.standard_deviation_exact) ** 2 == \
        sympy.Rational(table.variance.numerator, table.variance.denominator)


def test_the_stored_primorial_is_the_product_of_the_primes_below_the_bound() -> None:
    """The product is read from a file (building it cost a fresh process 2 ms): it must be the
    product of exactly the primes the trial division bound names, each once."""
    bound = square_roots._TRIAL_BOUND
    primes = list(sympy.primerange(bound))
    assert list(square_roots._small_primes()) == primes
    assert square_roots._primorial() == math.prod(primes)
