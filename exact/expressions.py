"""Safe condition expressions for bet files.

Conditions use Python's expression syntax, restricted to a small whitelist: names of round
features, numbers, strings, ``True``/``False``/``None``, lists or tuples of those,
arithmetic (``+ - * / // %``), comparisons (``== != < <= > >=``, chained), ``in``/``not in``,
``and``/``or``/``not`` and parentheses. Nothing else parses: no calls, attributes, subscripts,
lambdas or comprehensions, so a bet file from elsewhere cannot run code. Division is exact
(:class:`fractions.Fraction`).

>>> condition = Expression.parse("winner == 'banker' and banker_total in (6, 7)")
>>> sorted(condition.names)
['banker_total', 'winner']
>>> condition.evaluate({"winner": "banker", "banker_total": 7})
True
>>> Expression.parse("__import__('os')")
Traceback (most recent call last):
...
exact.expressions.ExpressionError: function calls are not allowed
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce

import numpy as np

from exact.errors import BetFileError


class ExpressionError(BetFileError):
    """A condition that does not parse or uses something outside the whitelist."""


_BINARY: dict[type, Callable[[object, object], object]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: lambda a, b: Fraction(a) / Fraction(b), ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: dict[type, Callable[[object, object], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_FORBIDDEN_NAMES = {
    ast.Call: "function calls", ast.Attribute: "attribute access", ast.Subscript: "subscripts",
    ast.Lambda: "lambdas", ast.ListComp: "comprehensions", ast.GeneratorExp: "comprehensions",
    ast.SetComp: "comprehensions", ast.DictComp: "comprehensions", ast.NamedExpr: "assignments",
    ast.Starred: "starred expressions", ast.JoinedStr: "f-strings", ast.IfExp: "if-expressions",
}


@dataclass(frozen=True)
class Expression:
    """A parsed, validated condition."""

    text: str
    # the tree follows from the text; ast nodes compare by identity, so equal texts loaded
    # twice would otherwise never be equal bets (and miss every cache keyed by bet)
    tree: ast.expr = field(compare=False)
    names: frozenset[str]

    @classmethod
    def parse(cls, text: str) -> Expression:
        if not isinstance(text, str) or not text.strip():
            raise ExpressionError("a condition must be a non-empty string")
        try:
            tree = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as error:
            raise ExpressionError(f"syntax error in {text!r}: {error.msg}") from None
        names: set[str] = set()
        _check(tree, names)
        return cls(text.strip(), tree, frozenset(names))

    def evaluate(self, features: Mapping[str, object]) -> object:
        return _evaluate(self.tree, features)

    def evaluate_array(self, features: Mapping[str, np.ndarray]) -> np.ndarray:
        """Evaluate elementwise over numpy object arrays of feature values (broadcasting);
        returns a boolean array. Same semantics as :meth:`evaluate`, cell by cell.

        >>> import numpy as np
        >>> column = np.array([[1], [5], [9]], dtype=object)
        >>> row = np.array([["tie", "banker"]], dtype=object)
        >>> Expression.parse("t in (5, 9) and w == 'tie'").evaluate_array({"t": column, "w": row})
        array([[False, False],
               [ True, False],
               [ True, False]])
        """
        return _truth(_evaluate_array(self.tree, features))


def _check(node: ast.AST, names: set[str]) -> None:
    if type(node) in _FORBIDDEN_NAMES:
        raise ExpressionError(f"{_FORBIDDEN_NAMES[type(node)]} are not allowed")
    if isinstance(node, ast.Name):
        names.add(node.id)
        return
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, int | str | bool | type(None)):
            raise ExpressionError(f"constant {node.value!r} is not allowed")
        return
    if isinstance(node, ast.BinOp) and type(node.op) not in _BINARY:
        raise ExpressionError(f"operator {type(node.op).__name__} is not allowed")
    if isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _COMPARE:
                raise ExpressionError(f"comparison {type(op).__name__} is not allowed")
    allowed = (ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.BinOp,
               ast.Compare, ast.Tuple, ast.List, ast.Set, ast.Load, ast.Name, ast.Constant,
               *_BINARY, *_COMPARE)
    if not isinstance(node, allowed):
        raise ExpressionError(f"{type(node).__name__} is not allowed in a condition")
    for child in ast.iter_child_nodes(node):
        _check(child, names)


def _evaluate(node: ast.AST, env: Mapping[str, object]) -> object:
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            return env[name]
        case ast.Tuple(elts=items) | ast.List(elts=items) | ast.Set(elts=items):
            return tuple(_evaluate(item, env) for item in items)
        case ast.BoolOp(op=ast.And(), values=values):
            return all(_evaluate(v, env) for v in values)
        case ast.BoolOp(op=ast.Or(), values=values):
            return any(_evaluate(v, env) for v in values)
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return not _evaluate(operand, env)
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return -_evaluate(operand, env)  # type: ignore[operator]
        case ast.UnaryOp(op=ast.UAdd(), operand=operand):
            return _evaluate(operand, env)
        case ast.BinOp(left=left, op=op, right=right):
            return _BINARY[type(op)](_evaluate(left, env), _evaluate(right, env))
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            current = _evaluate(left, env)
            for op, comparator in zip(ops, comparators, strict=True):
                following = _evaluate(comparator, env)
                if not _COMPARE[type(op)](current, following):
                    return False
                current = following
            return True
    raise ExpressionError(f"cannot evaluate {ast.dump(node)}")  # unreachable after _check


_elementwise_truth = np.frompyfunc(bool, 1, 1)


def _truth(value: object) -> np.ndarray:
    array = np.asarray(value)
    return array if array.dtype == bool else _elementwise_truth(array).astype(bool)


def _elementwise(function: Callable[..., object], *arguments: object) -> np.ndarray:
    return np.frompyfunc(function, len(arguments), 1)(*arguments)


def _evaluate_array(node: ast.AST, env: Mapping[str, np.ndarray]) -> object:
    """Vectorised twin of :func:`_evaluate`: scalars stay scalars, features are arrays."""
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            return env[name]
        case ast.Tuple(elts=items) | ast.List(elts=items) | ast.Set(elts=items):
            return tuple(_evaluate(item, {}) for item in items)
        case ast.BoolOp(op=ast.And(), values=values):
            return reduce(np.logical_and, [_truth(_evaluate_array(v, env)) for v in values])
        case ast.BoolOp(op=ast.Or(), values=values):
            return reduce(np.logical_or, [_truth(_evaluate_array(v, env)) for v in values])
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return ~_truth(_evaluate_array(operand, env))
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return _elementwise(operator.neg, _evaluate_array(operand, env))
        case ast.UnaryOp(op=ast.UAdd(), operand=operand):
            return _evaluate_array(operand, env)
        case ast.BinOp(left=left, op=op, right=right):
            return _elementwise(_BINARY[type(op)], _evaluate_array(left, env),
                                _evaluate_array(right, env))
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            current = _evaluate_array(left, env)
            result: object = True
            for op, comparator in zip(ops, comparators, strict=True):
                following = _evaluate_array(comparator, env)
                test = _COMPARE[type(op)]
                if isinstance(following, tuple) and type(op) in (ast.In, ast.NotIn):
                    cell = _elementwise(lambda a, t=test, f=following: t(a, f), current)
                else:
                    cell = _elementwise(test, current, following)
                result = np.logical_and(result, _truth(cell))
                current = following
            return result
    raise ExpressionError(f"cannot evaluate {ast.dump(node)}")
