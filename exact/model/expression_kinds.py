"""The static check of a condition's tree (:mod:`exact.model.expressions`): the whitelist of
its nodes, and the kind of value each sub-expression may take (from the literals and the types
each feature declares), so that ``winner + 1`` or ``winner < 1`` is refused when the file is
loaded, not on a round.

Layer: model, above the core; the engines, the games and the analyses build on it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction

from exact.core.parsing import shown
from exact.errors import ExpressionError
from exact.model.expression_values import _BINARY, _COMPARE, _UNARY, _bounded

# The static kind of a sub-expression: the kinds of value it may take. A feature's comes from
# the Python types it declares (Feature.types); one that declares none may take any scalar.
Kind = frozenset[str]
_NUMBER, _BOOL, _TEXT, _NONE = (frozenset({k}) for k in ("number", "bool", "text", "None"))
_TUPLE, _SET = frozenset({"tuple"}), frozenset({"set"})
_ANY = _NUMBER | _BOOL | _TEXT | _NONE
_NUMERIC, _COLLECTIONS = _NUMBER | _BOOL, _TUPLE | _SET


def kind_of_types(types: Iterable[type]) -> Kind:
    """The static kind of a feature whose values are of ``types`` (none given: any).

    >>> sorted(kind_of_types([int, type(None)]))
    ['None', 'number']
    """
    kinds = {bool: _BOOL, int: _NUMBER, Fraction: _NUMBER, type(None): _NONE}
    kind = frozenset().union(*(_TEXT if issubclass(t, str) else kinds[t] for t in types))
    return kind or _ANY


class _Kinds(Mapping[str, Kind]):
    """The kinds of the features a condition names, each worked out when first looked up: a
    game declares the types of a hundred features or more, a condition reads two or three."""

    def __init__(self, types: Mapping[str, Iterable[type]]) -> None:
        self._types = types

    def __getitem__(self, name: str) -> Kind:
        return kind_of_types(self._types[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._types)

    def __len__(self) -> int:
        return len(self._types)


_FORBIDDEN_NAMES = {
    ast.Call: "function calls", ast.Attribute: "attribute access", ast.Subscript: "subscripts",
    ast.Lambda: "lambdas", ast.ListComp: "comprehensions", ast.GeneratorExp: "comprehensions",
    ast.SetComp: "comprehensions", ast.DictComp: "comprehensions", ast.NamedExpr: "assignments",
    ast.Starred: "starred expressions", ast.JoinedStr: "f-strings", ast.IfExp: "if-expressions",
    ast.Dict: "dict literals", ast.Slice: "slices", ast.Await: "await", ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


def _check(node: ast.AST, names: set[str], types: Mapping[str, Kind], top: bool = False
           ) -> Kind:
    """Validate ``node`` against the whitelist and the rules of each kind; its static kind
    (what values it may take: a feature of undeclared type may take any)."""
    if type(node) in _FORBIDDEN_NAMES:
        raise ExpressionError(f"{_FORBIDDEN_NAMES[type(node)]} are not allowed")
    match node:
        case ast.Name(id=name):
            names.add(name)
            kind = types.get(name, _ANY)
        case ast.Constant(value=value):
            kind = _constant(value)
        case ast.Tuple(elts=items) | ast.List(elts=items) | ast.Set(elts=items):
            for item in items:
                if _check(item, names, types) & _COLLECTIONS:
                    raise ExpressionError("a tuple, list or set holds single values, "
                                          "not other tuples, lists or sets")
            kind = _SET if isinstance(node, ast.Set) else _TUPLE
        case ast.BoolOp(values=values):
            for operand_node in values:
                _scalar(_check(operand_node, names, types), "and/or")
            kind = _BOOL
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            _scalar(_check(operand, names, types), "not")
            kind = _BOOL
        case ast.UnaryOp(op=op, operand=operand) if type(op) in _UNARY:
            _numeric(_check(operand, names, types), f"unary {_UNARY[type(op)][0]}")
            kind = _NUMBER
        case ast.BinOp(left=left, op=op, right=right):
            if type(op) not in _BINARY:
                raise ExpressionError(f"operator {_operator_name(op)!r} is not allowed")
            symbol = _BINARY[type(op)][0]
            _numeric(_check(left, names, types), symbol)
            _numeric(_check(right, names, types), symbol)
            kind = _NUMBER
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            kinds = [_check(left, names, types),
                     *(_check(c, names, types) for c in comparators)]
            for position, comparison in enumerate(ops):
                _comparison(comparison, kinds[position], kinds[position + 1])
            kind = _BOOL
        case _:
            if isinstance(node, ast.UnaryOp | ast.BoolOp):
                raise ExpressionError(f"operator {_operator_name(node.op)!r} is not allowed")
            raise ExpressionError(f"{type(node).__name__} is not allowed in a condition")
    if top:
        _scalar(kind, "a condition")
    return kind


def _constant(value: object) -> Kind:
    if isinstance(value, bool):
        return _BOOL
    if isinstance(value, int):
        _bounded(value)
        return _NUMBER
    if isinstance(value, str):
        return _TEXT
    if value is None:
        return _NONE
    if isinstance(value, float):
        raise ExpressionError(f"floating-point number {shown(value)} is not allowed: write an "
                              "exact number as an integer or a fraction a / b")
    raise ExpressionError(f"constant {shown(value)} is not allowed")


def _operator_name(op: ast.AST) -> str:
    symbols = {ast.Pow: "**", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
               ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.Invert: "~",
               ast.Is: "is", ast.IsNot: "is not"}
    return symbols.get(type(op), type(op).__name__)


def _kind_name(kind: Kind) -> str:
    """How an error names a kind.

    >>> _kind_name(frozenset({"number", "None"}))
    'a number or None'
    """
    words = {"number": "a number", "bool": "True/False", "text": "text", "None": "None",
             "tuple": "a tuple or list", "set": "a set"}
    order = ("number", "bool", "text", "None", "tuple", "set")
    return " or ".join(words[k] for k in order if k in kind)


def _scalar(kind: Kind, where: str) -> None:
    if kind & _COLLECTIONS:
        raise ExpressionError(f"{_kind_name(kind)} cannot be used in {where}: it can only "
                              "follow in / not in or be compared with == / != to another")


def _numeric(kind: Kind, symbol: str) -> None:
    _scalar(kind, symbol)
    if not kind & _NUMERIC:
        raise ExpressionError(f"{symbol} needs numbers, not {_kind_name(kind)}")


def _both_numeric(left: Kind, right: Kind) -> bool:
    return bool(left & _NUMERIC and right & _NUMERIC)


def _comparison(op: ast.cmpop, left: Kind, right: Kind) -> None:
    if type(op) not in _COMPARE:
        raise ExpressionError(f"comparison {_operator_name(op)!r} is not allowed")
    symbol = _COMPARE[type(op)][0]
    if isinstance(op, ast.In | ast.NotIn):
        if not right & _COLLECTIONS:
            raise ExpressionError(f"{symbol} needs a tuple, list or set written out on its "
                                  "right, e.g. x in (1, 2, 3)")
        _scalar(left, symbol)
        return
    if isinstance(op, ast.Eq | ast.NotEq):
        if (left | right) & _COLLECTIONS:
            if left != right:
                raise ExpressionError(f"{symbol} compares a set only with a set and a tuple "
                                      "or list only with a tuple or list")
        elif not (left & right or _both_numeric(left, right) or "None" in left | right):
            # e.g. winner == 1: it never holds, surely not what was meant
            raise ExpressionError(f"{symbol} compares {_kind_name(left)} with "
                                  f"{_kind_name(right)}: never equal")
        return
    for kind in (left, right):
        _scalar(kind, symbol)
        if kind == _NONE:
            raise ExpressionError(f"{symbol} cannot order None")
    if not (_both_numeric(left, right) or ("text" in left and "text" in right)):
        raise ExpressionError(f"{symbol} cannot order {_kind_name(left)} against "
                              f"{_kind_name(right)}")
