"""The evaluation of a checked condition (:mod:`exact.model.expressions`): on one round's
feature values, and its vectorised twin over numpy object arrays of them (broadcasting), cell
by cell the same values.

Layer: model, above the core; the engines, the games and the analyses build on it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from functools import reduce
from typing import TYPE_CHECKING, Any

from exact.errors import ExpressionError
from exact.model.expression_values import _BINARY, _CHECKED, _COMPARE, _SMALL, _UNARY, _Set

if TYPE_CHECKING:  # numpy only for the vectorised evaluation (the batch engines load it)
    import numpy as np


def _evaluate(node: ast.AST, env: Mapping[str, object]) -> object:
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            return env[name]
        case ast.Set(elts=items):
            return _Set(_evaluate(item, env) for item in items)
        case ast.Tuple(elts=items) | ast.List(elts=items):
            return tuple(_evaluate(item, env) for item in items)
        case ast.BoolOp(op=ast.And(), values=values):
            return all(_evaluate(v, env) for v in values)
        case ast.BoolOp(op=ast.Or(), values=values):
            return any(_evaluate(v, env) for v in values)
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return not _evaluate(operand, env)
        case ast.UnaryOp(op=op, operand=operand):
            return _UNARY[type(op)][1](_evaluate(operand, env))
        case ast.BinOp(left=left, op=op, right=right):
            return _CHECKED[type(op)](_evaluate(left, env), _evaluate(right, env))
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            current = _evaluate(left, env)
            for comparison, comparator in zip(ops, comparators, strict=True):
                following = _evaluate(comparator, env)
                if not _COMPARE[type(comparison)][1](current, following):
                    return False
                current = following
            return True
    raise ExpressionError(f"cannot evaluate {ast.dump(node)}")  # unreachable after _check


def _truth(value: object) -> np.ndarray:
    import numpy as np

    array = np.asarray(value)
    if array.dtype == bool:
        return array
    return np.asarray(np.frompyfunc(bool, 1, 1)(array)).astype(bool)


def _cell(value: object) -> object:
    """An array as is; a scalar boxed in a 0-d object array, so that numpy broadcasts it as
    one value (a tuple or set would otherwise be read as an array of its items)."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return value
    box = np.empty((), dtype=object)
    box[()] = value
    return box


def _elementwise(function: Callable[..., object], *arguments: object) -> object:
    import numpy as np

    return np.frompyfunc(function, len(arguments), 1)(*map(_cell, arguments))


def _small_integers(value: object) -> bool:
    import numpy as np

    cells: Iterable[Any] = value.flat if isinstance(value, np.ndarray) else (value,)
    return all(type(cell) in _SMALL and -_SMALL_LIMIT < cell < _SMALL_LIMIT
               for cell in cells)


_SMALL_LIMIT = 1 << 64


def _collection_array(kind: type, items: list[object]) -> object:
    """A tuple or set literal over arrays: one tuple or set per cell (scalars stay scalar)."""
    import numpy as np

    if not any(isinstance(item, np.ndarray) for item in items):
        return kind(items)
    arrays = np.broadcast_arrays(*(np.asarray(_cell(item), dtype=object) for item in items))
    cells = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(cells.shape):
        cells[index] = kind(array[index] for array in arrays)
    return cells


def _evaluate_array(node: ast.AST, env: Mapping[str, np.ndarray]) -> object:
    """Vectorised twin of :func:`_evaluate`: scalars stay scalars, features are arrays."""
    import numpy as np

    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            return env[name]
        case ast.Set(elts=items):
            return _collection_array(_Set, [_evaluate_array(item, env) for item in items])
        case ast.Tuple(elts=items) | ast.List(elts=items):
            return _collection_array(tuple, [_evaluate_array(item, env) for item in items])
        case ast.BoolOp(op=ast.And(), values=values):
            return reduce(np.logical_and, [_truth(_evaluate_array(v, env)) for v in values])
        case ast.BoolOp(op=ast.Or(), values=values):
            return reduce(np.logical_or, [_truth(_evaluate_array(v, env)) for v in values])
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return ~_truth(_evaluate_array(operand, env))
        case ast.UnaryOp(op=op, operand=operand):
            return _elementwise(_UNARY[type(op)][1], _evaluate_array(operand, env))
        case ast.BinOp(left=left, op=op, right=right):
            operands = _evaluate_array(left, env), _evaluate_array(right, env)
            if type(op) is not ast.Div and all(map(_small_integers, operands)):
                # Python's own operator, unchecked: on operands below 2**64 a result stays
                # below 2**128, and the operands (one value per hand) are far fewer than the
                # cells of the result (one per pair of hands)
                return _elementwise(_BINARY[type(op)][1], *operands)
            return _elementwise(_CHECKED[type(op)], *operands)
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            current = _evaluate_array(left, env)
            result: Any = True  # a bool, then a boolean array
            for comparison, comparator in zip(ops, comparators, strict=True):
                following = _evaluate_array(comparator, env)
                result = np.logical_and(result, _truth(
                    _elementwise(_COMPARE[type(comparison)][1], current, following)))
                current = following
            return result
    raise ExpressionError(f"cannot evaluate {ast.dump(node)}")
