"""The values and operators of a condition (:mod:`exact.model.expressions`): set literals,
and the arithmetic and comparisons allowed, on numbers only where numbers are meant, every
number bounded (:data:`MAX_BITS`), so that an evaluation takes bounded time and memory.

Layer: model, above the core; the engines, the games and the analyses build on it.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from exact.errors import EvaluationError

MAX_BITS = 256  # largest number a condition computes: |n| < 2**256 (about 77 digits)


class _Set(tuple[object, ...]):
    """The value of a set literal: equal to another set with the same members, in any order
    and with any repeats. Members are matched with ``==`` (not hashing), so order-free
    features such as ``Ranks("A8") == "8A"`` match as they do anywhere else.

    >>> _Set((1, 2, 2)) == _Set((2, 1)), _Set((1, 2)) == _Set((1, 3)), 2 in _Set((1, 2))
    (True, False, True)
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Set):
            return NotImplemented
        return all(item in other for item in self) and all(item in self for item in other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:  # equal sets may differ in order and repeats: no hash
        raise TypeError("unhashable type: '_Set'")


def _describe(value: object) -> str:
    if isinstance(value, str):
        return "text"
    if value is None:
        return "None"
    if isinstance(value, tuple):
        return "a set" if isinstance(value, _Set) else "a tuple"
    return type(value).__name__


def _bounded(value: int | Fraction) -> int | Fraction:
    size = (max(value.numerator.bit_length(), value.denominator.bit_length())
            if isinstance(value, Fraction) else value.bit_length())
    if size > MAX_BITS:
        raise EvaluationError(f"a number grew past {MAX_BITS} bits (about 77 digits)")
    return value


def _arithmetic(symbol: str, function: Callable[[Any, Any], Any]
                ) -> Callable[[object, object], int | Fraction]:
    """``function`` on numbers only, its result bounded: no string repetition or formatting,
    and no number can grow past :data:`MAX_BITS` however the operators are chained."""
    def checked(left: object, right: object) -> int | Fraction:
        try:
            # the common case first (small ints, once per cell of the staged evaluator)
            if type(left) in _SMALL and type(right) in _SMALL:
                result = function(left, right)
                if type(result) is int and -_LIMIT < result < _LIMIT:
                    return result
                return _bounded(result)
            for value in (left, right):
                if not isinstance(value, int | Fraction):
                    raise EvaluationError(f"{symbol} needs numbers, not {_describe(value)}")
            return _bounded(function(left, right))
        except ZeroDivisionError:
            raise EvaluationError(f"division by zero ({left} {symbol} {right})") from None
    return checked


_SMALL = frozenset({int, bool})
_LIMIT = 1 << MAX_BITS  # |n| < _LIMIT: n has at most MAX_BITS bits


def _negate(value: object) -> int | Fraction:
    if not isinstance(value, int | Fraction):
        raise EvaluationError(f"unary - needs a number, not {_describe(value)}")
    return -value


def _plus(value: object) -> int | Fraction:
    if not isinstance(value, int | Fraction):
        raise EvaluationError(f"unary + needs a number, not {_describe(value)}")
    return +value


# The operands are checked by the callers (_arithmetic, the vectorised evaluator): Any here.
_BINARY: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
    ast.Div: ("/", lambda a, b: Fraction(a) / Fraction(b)),
    ast.FloorDiv: ("//", operator.floordiv), ast.Mod: ("%", operator.mod),
}
_CHECKED = {kind: _arithmetic(symbol, function) for kind, (symbol, function) in _BINARY.items()}
_UNARY = {ast.USub: ("-", _negate), ast.UAdd: ("+", _plus)}
_COMPARE: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne), ast.Lt: ("<", operator.lt),
    ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge),
    ast.In: ("in", lambda a, b: a in b), ast.NotIn: ("not in", lambda a, b: a not in b),
}
