"""Exact square roots of fractions written as sympy writes them (``2*sqrt(186)/415``), without
importing sympy (a quarter of a second of a fresh process): the exact standard deviation of
every bet table.

Layer: analysis, above the engines; :mod:`exact.analysis.statistics` writes its standard
deviations with it.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction
from pathlib import Path

# Trial division bound of sympy's square roots of integers (Integer._eval_power): the square
# factors it takes out of a radicand are those of its primes below this, and those of a
# remaining cofactor that is a perfect power.
_TRIAL_BOUND = 2**15
# The product of those primes (46,909 bits), stored: building it (3,512 products, about 2 ms)
# and the tuple of the primes were most of a fresh process's JSON output
# (tests/analysis/test_square_root_text.py checks the file against the sieve).
PRIMORIAL_FILE = Path(__file__).with_name("primorial.hex")


def square_root_text(value: Fraction) -> str:
    """The exact square root of a non-negative fraction, written as ``str(sympy.sqrt(value))``
    writes it (tests/analysis/test_statistics.py compares the two), without sympy: sympy takes
    sqrt(p/q) as sqrt(p)*sqrt(q)/q, takes squares out of each radicand, multiplies the two
    radicands left and takes squares out of the product.

    >>> [square_root_text(Fraction(*pair)) for pair in ((7, 9), (8, 3), (4, 9), (12, 1))]
    ['sqrt(7)/3', '2*sqrt(6)/3', '2/3', '2*sqrt(3)']

    sympy may also find a square of a prime above 2**15 in a cofactor with other such primes
    (by Pollard's methods); this does not (one number in some 300,000 has such a square): the
    text is then another exact form of the same number.
    """
    if value < 0:
        raise ValueError(f"no real square root of {value}")
    if value == 0:
        return "0"
    root_p, left_p = _square_part(value.numerator)
    root_q, left_q = _square_part(value.denominator)
    root, radicand = _square_part(left_p * left_q)
    coefficient = Fraction(root_p * root_q * root, value.denominator)
    if radicand == 1:
        return str(coefficient)
    text = f"sqrt({radicand})"
    if coefficient.numerator != 1:
        text = f"{coefficient.numerator}*{text}"
    return text if coefficient.denominator == 1 else f"{text}/{coefficient.denominator}"


def _square_part(number: int) -> tuple[int, int]:
    """(root, rest) with number == root**2 * rest: the squares of the primes below
    ``_TRIAL_BOUND``, then those of a cofactor that is a perfect power, taken out."""
    root, rest, left = 1, 1, number
    small = math.gcd(number, _primorial())  # the primes below the bound that divide it
    for prime in _small_primes():
        if small == 1:
            break
        if prime * prime > small:  # what is left is one prime (every factor is at least this)
            prime = small
        elif small % prime:
            continue
        small //= prime
        exponent = 0
        while left % prime == 0:
            left //= prime
            exponent += 1
        root *= prime ** (exponent // 2)
        rest *= prime ** (exponent % 2)
    if left > 1:  # a prime, or a product of primes above the bound
        base, power = _perfect_power(left)
        root *= base ** (power // 2)
        rest *= base ** (power % 2)
    return root, rest


def _small_primes() -> itertools.compress[int]:
    """The primes below ``_TRIAL_BOUND`` in increasing order, as they are read: a caller
    stops at the last one it needs (those dividing a number are usually a few small ones)."""
    return itertools.compress(range(_TRIAL_BOUND), _sieve())


@functools.cache
def _sieve() -> bytearray:
    sieve = bytearray([1]) * _TRIAL_BOUND
    sieve[:2] = b"\0\0"
    for number in range(2, math.isqrt(_TRIAL_BOUND) + 1):
        if sieve[number]:
            sieve[number * number::number] = bytes(len(range(number * number, _TRIAL_BOUND,
                                                             number)))
    return sieve


@functools.cache
def _primorial() -> int:
    return int(PRIMORIAL_FILE.read_text(encoding="ascii").replace("\n", ""), 16)


def _perfect_power(number: int) -> tuple[int, int]:
    """(base, k) with number == base**k and k as large as it can be, for a number > 1 without
    a prime factor below ``_TRIAL_BOUND`` (so k * 15 < its bit length)."""
    for power in range(number.bit_length() // (_TRIAL_BOUND.bit_length() - 1), 1, -1):
        base = _integer_root(number, power)
        if base > 1 and base**power == number:
            return base, power
    return number, 1


def _integer_root(number: int, power: int) -> int:
    """The integer part of the power-th root of a positive number (Newton's method)."""
    guess = 1 << -(-number.bit_length() // power)  # at least the root
    while True:
        better = ((power - 1) * guess + number // guess ** (power - 1)) // power
        if better >= guess:
            return guess
        guess = better
