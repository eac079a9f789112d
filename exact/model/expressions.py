"""Safe condition expressions for bet files, bounded by design.

Layer: model, above the core; the engines, the games and the analyses build on it.

Conditions use Python's expression syntax, restricted to a small whitelist: names of round
features, integers, strings, ``True``/``False``/``None``, tuples, lists and sets written out,
arithmetic (``+ - * / // %``, unary ``-``/``+``), comparisons (``== != < <= > >=``, chained),
``in``/``not in``, ``and``/``or``/``not`` and parentheses. Nothing else parses: no calls,
attributes, subscripts, lambdas or comprehensions, so a bet file from elsewhere cannot run code.
Division is exact (:class:`fractions.Fraction`).

What each kind of value allows (checked when the file is loaded wherever the kinds are
known: from the text, and from the value types each feature declares; on every evaluation
otherwise):

* numbers (integers, ``True``/``False``, exact fractions from ``/``): arithmetic, ordering,
  equality; no ``**``, no floating-point literals (write ``1/2``, not ``0.5``);
* text and ``None``: equality (``==``, ``!=``) and membership (``in``) only; text also orders
  against text. No string arithmetic or formatting (``'a' * 3``, ``'%d' % x`` are refused);
* a tuple or list written out, e.g. ``(1, 2, 3)``: the right operand of ``in``/``not in``, or
  compared (``==``/``!=``) with another tuple or list, item by item in order;
* a set written out, e.g. ``{player_total, banker_total}``: a set, order and repeats ignored:
  ``{a, b} == {b, a}`` holds; the right operand of ``in`` or compared with another set.

Items of a tuple, list or set are single values (no nesting). A condition is limited before
Python's parser sees it (:data:`LIMITS`): at most 2,000 characters, 200 operators, brackets 20
deep, numbers of 20 characters (so at most about 1,000 names and values); then at most 50
levels of expression tree. Every number a condition computes is bounded (:data:`MAX_BITS`
bits, numerator and denominator), so an evaluation takes bounded time and memory. Every
failure is an :class:`ExpressionError`; one on a round an :class:`EvaluationError`.

>>> condition = Expression.parse("winner == 'banker' and banker_total in (6, 7)")
>>> sorted(condition.names)
['banker_total', 'winner']
>>> condition.evaluate({"winner": "banker", "banker_total": 7})
True
>>> Expression.parse("{a, b} == {b, a}").evaluate({"a": 8, "b": 9})
True
>>> Expression.parse("__import__('os')")
Traceback (most recent call last):
...
exact.errors.ExpressionError: function calls are not allowed
>>> Expression.parse("'a' * 100000 == winner")
Traceback (most recent call last):
...
exact.errors.ExpressionError: * needs numbers, not text
"""

from __future__ import annotations

import ast
import io
import keyword
import operator
import tokenize
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, reduce
from typing import TYPE_CHECKING, Any

from exact.core.parsing import BIDI_CONTROLS, shown
from exact.errors import EvaluationError as EvaluationError
from exact.errors import ExpressionError as ExpressionError

if TYPE_CHECKING:  # numpy only for the vectorised evaluation (the batch engines load it)
    import numpy as np


@dataclass(frozen=True)
class Limits:
    """Bounds on a condition's text, checked before Python's parser runs (so it cannot
    recurse too deep or allocate much), and on its parsed tree. ``None``: no bound (used for
    conditions the toolkit composes from conditions already checked)."""

    length: int | None = 2000      # characters
    operators: int | None = 200    # operator tokens: + - * / < == and or not in ...
    brackets: int = 20             # depth of nested (), [], {}
    number_length: int = 20        # characters of one number literal
    depth: int = 50                # levels of the parsed expression tree


LIMITS = Limits()
# validation composes "not (c1) and (c2)" from checked conditions: the text and the operator
# count grow with the number of events, the nesting by a few levels only
COMPOSED_LIMITS = Limits(length=None, operators=None, brackets=LIMITS.brackets + 8,
                         depth=LIMITS.depth + 8)
MAX_BITS = 256  # largest number a condition computes: |n| < 2**256 (about 77 digits)

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
_FORBIDDEN_NAMES = {
    ast.Call: "function calls", ast.Attribute: "attribute access", ast.Subscript: "subscripts",
    ast.Lambda: "lambdas", ast.ListComp: "comprehensions", ast.GeneratorExp: "comprehensions",
    ast.SetComp: "comprehensions", ast.DictComp: "comprehensions", ast.NamedExpr: "assignments",
    ast.Starred: "starred expressions", ast.JoinedStr: "f-strings", ast.IfExp: "if-expressions",
    ast.Dict: "dict literals", ast.Slice: "slices", ast.Await: "await", ast.Yield: "yield",
    ast.YieldFrom: "yield",
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
    def parse(cls, text: str, limits: Limits = LIMITS,
              types: Mapping[str, Iterable[type]] | None = None) -> Expression:
        """Parse and check ``text``; ``limits`` bound it before Python's parser runs;
        ``types``: the Python types of each feature's values, where known (e.g. ``{"winner":
        (str,)}``), so that ``winner + 1`` or ``winner < 1`` is refused here, not on a round.

        >>> Expression.parse("-" * 3000 + "player_total")
        Traceback (most recent call last):
        ...
        exact.errors.ExpressionError: condition is 3,012 characters long (at most 2,000)
        """
        if not isinstance(text, str) or not text.strip():
            raise ExpressionError("a condition must be a non-empty string")
        text = text.strip()
        _scan(text, limits)
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError as error:
            raise ExpressionError(f"syntax error in {_shown(text)}: {error.msg}") from None
        except (ValueError, RecursionError, MemoryError) as error:
            # the scan above keeps these out of reach; a one-line error all the same
            raise ExpressionError(f"cannot parse {_shown(text)}: {type(error).__name__}"
                                  ) from None
        _measure(tree, limits.depth)
        names: set[str] = set()
        _check(tree, names, _Kinds(types or {}), top=True)
        return cls(text, tree, frozenset(names))

    @cached_property
    def nodes(self) -> int:
        """The nodes of the parsed tree: the cost of one evaluation, in the units of the work
        budget (:mod:`exact.core.work`); at most a few thousand within the limits above.

        >>> Expression.parse("player_total == 9").nodes
        5
        """
        return sum(1 for _ in ast.walk(self.tree))

    def evaluate(self, features: Mapping[str, object]) -> object:
        """The condition's value on one round; :class:`EvaluationError` if it has none."""
        try:
            return _evaluate(self.tree, features)
        except EvaluationError:
            raise
        except (TypeError, ValueError, ArithmeticError, MemoryError, RecursionError) as error:
            raise EvaluationError(_reason(error)) from None

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
        try:
            return _truth(_evaluate_array(self.tree, features))
        except (TypeError, ValueError, ArithmeticError, MemoryError, RecursionError):
            # The vectorised path evaluates every operand of and/or on every cell; the scalar
            # one stops at the first deciding operand, so "x != None and x + 1 > 3" holds
            # there. Cell by cell, the result is the scalar one, error or not.
            return self._cell_by_cell(features)

    def _cell_by_cell(self, features: Mapping[str, np.ndarray]) -> np.ndarray:
        import numpy as np

        names = sorted(self.names)
        arrays = np.broadcast_arrays(*(np.asarray(_cell(features[n]), dtype=object)
                                       for n in names)) if names else []
        shape = arrays[0].shape if names else ()
        result = np.empty(shape, dtype=bool)
        for index in np.ndindex(shape):
            result[index] = bool(self.evaluate({n: a[index] for n, a in zip(names, arrays,
                                                                            strict=True)}))
        return result


def _reason(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def canonical_form(node: ast.AST) -> list[object]:
    """The canonical form of a checked condition's tree (:attr:`Expression.tree`), as the disk
    cache keys it (:mod:`exact.engines.cache`): nested lists, each node its type's name then
    its fields in order (the load context left out), each constant tagged with its type. Two
    conditions share it exactly when they parse to one tree: comments, spacing, brackets and
    the spelling of a number do not enter it; a name, an operator or a string's text does,
    and so does the type of a constant (``True`` is not ``1``).

    >>> canonical_form(Expression.parse("winner == 'tie'  # the Tie").tree)
    ['Compare', ['Name', 'winner'], [['Eq']], [['Constant', 'str', 'tie']]]
    >>> forms = {str(canonical_form(Expression.parse(text).tree)) for text in (
    ...     "(t == 0x9)", "t==9 # |", "t == 9")}
    >>> len(forms), canonical_form(Expression.parse("t == True").tree)[3]
    (1, [['Constant', 'bool', True]])
    """
    if isinstance(node, ast.Constant):
        value = node.value  # (its ``kind``, a u-prefix, changes nothing)
        if value is not None and type(value) not in (bool, int, str):
            raise TypeError(f"no canonical form of a {type(value).__name__} constant")
        return ["Constant", type(value).__name__, value]
    form: list[object] = [type(node).__name__]
    for name in node._fields:
        value = getattr(node, name)
        if name == "ctx":
            continue
        if isinstance(value, list):
            form.append([canonical_form(item) for item in value])
        elif isinstance(value, ast.AST):
            form.append(canonical_form(value))
        elif isinstance(value, str):  # a name's identifier
            form.append(value)
        else:
            raise TypeError(f"no canonical form of {type(node).__name__}.{name}")
    return form


CONDITION_SHOWN = 80
"""Most characters of a condition an error quotes (:func:`~exact.core.parsing.shown`: cut,
its length said): a condition may be 4,000 characters, an error is one short line."""


def _shown(text: str) -> str:
    return shown(text, CONDITION_SHOWN)


_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")
_VALUE_KEYWORDS = frozenset({"True", "False", "None"})


def _scan(text: str, limits: Limits) -> None:
    """Check size and nesting on the tokens, before Python's parser (which recurses once per
    unary sign and bracket, and builds one tree level per binary operator) runs at all."""
    if limits.length is not None and len(text) > limits.length:
        raise ExpressionError(f"condition is {len(text):,} characters long "
                              f"(at most {limits.length:,})")
    depth = operators = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if not token.string.isascii():
                _check_non_ascii(text, token)
            if token.type == tokenize.OP:
                if token.string in _OPENING:
                    depth += 1
                    if depth > limits.brackets:
                        raise ExpressionError(f"brackets nested more than {limits.brackets} "
                                              "deep")
                elif token.string in _CLOSING:
                    depth = max(depth - 1, 0)  # an unbalanced bracket: the parser says so
                elif token.string != ",":
                    operators += 1
            elif token.type == tokenize.NAME and keyword.iskeyword(token.string) \
                    and token.string not in _VALUE_KEYWORDS:
                operators += 1
            elif token.type == tokenize.NUMBER and len(token.string) > limits.number_length:
                raise ExpressionError(f"number {token.string[:20]}... has more than "
                                      f"{limits.number_length} characters")
            if limits.operators is not None and operators > limits.operators:
                raise ExpressionError(f"condition has more than {limits.operators} operators")
    except tokenize.TokenError:
        pass  # raised at the end of the text only (an open bracket or string): all was scanned
    except SyntaxError as error:
        raise ExpressionError(f"syntax error in {_shown(text)}: {error.msg}") from None


def _check_non_ascii(text: str, token: tokenize.TokenInfo) -> None:
    """Refuse a character outside ASCII in a name, number or operator: Python's parser reads
    names NFKC-normalised, so a full-width ``ｐlayer_total`` would evaluate as ``player_total``
    while the condition shown reads otherwise. Text inside a string literal or a comment is
    left as it is, but for a bidirectional control (U+202E...), which reorders how the rest of
    the condition reads on screen.

    >>> Expression.parse("winner == 'tie'  # égalité").text
    "winner == 'tie'  # égalité"
    >>> Expression.parse("winner == 'tie'  # \\u202e")
    Traceback (most recent call last):
    ...
    exact.errors.ExpressionError: bidirectional control U+202E in "winner == 'tie'  # \\u202e": \
it reorders how the condition reads

    >>> Expression.parse("ｐlayer_total == 5")
    Traceback (most recent call last):
    ...
    exact.errors.ExpressionError: non-ASCII character 'ｐ' (U+FF50) in 'ｐlayer_total == 5': \
names, numbers and operators are ASCII (Python would read some as others)
    """
    if token.type in (tokenize.STRING, tokenize.COMMENT):
        control = next((c for c in token.string if c in BIDI_CONTROLS), None)
        if control is None:
            return
        raise ExpressionError(f"bidirectional control U+{ord(control):04X} in {_shown(text)}: "
                              "it reorders how the condition reads")
    character = next(c for c in token.string if not c.isascii())
    raise ExpressionError(f"non-ASCII character {shown(character)} (U+{ord(character):04X}) in "
                          f"{_shown(text)}: names, numbers and operators are ASCII (Python "
                          "would read some as others)")


def _measure(tree: ast.AST, limit: int) -> None:
    """Refuse a tree deeper than ``limit``, walking without recursion; the checks and the
    evaluators that follow recurse once per level."""
    pending = [(tree, 1)]
    while pending:
        node, level = pending.pop()
        if level > limit:
            raise ExpressionError(f"condition nests more than {limit} levels deep")
        pending.extend((child, level + 1) for child in ast.iter_child_nodes(node))


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
