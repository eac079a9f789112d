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

This module parses a condition within its limits (:class:`Expression`); its tree is checked
against the whitelist and the kinds by :mod:`exact.model.expression_kinds`, evaluated by
:mod:`exact.model.expression_evaluation`, with the values and operators of
:mod:`exact.model.expression_values`.

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
import re
import tokenize
from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, cast

from exact.core.parsing import BIDI_CONTROLS, shown
from exact.errors import EvaluationError as EvaluationError
from exact.errors import ExpressionError as ExpressionError
from exact.model.expression_evaluation import _cell, _evaluate, _evaluate_array, _truth
from exact.model.expression_kinds import _check, _Kinds
from exact.model.expression_values import MAX_BITS as MAX_BITS

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

    def reading(self, names: Set[str]) -> Callable[[Mapping[str, object]], tuple[object, ...]]:
        """What the condition reads of the features ``names``: on their values, the values of
        its largest sub-expressions that read no other feature (one without a value as the
        type of its error). Two readings equal settle the condition alike whatever the other
        features, as every feature of ``names`` is read within those sub-expressions.

        >>> read = Expression.parse("x > 0 and a != b").reading({"a", "b"})
        >>> read({"a": "K", "b": "Q"}) == read({"a": "9", "b": "K"})
        True
        """
        parts: list[ast.expr] = []

        def collect(node: ast.AST) -> None:
            read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if read and read <= names:
                parts.append(cast(ast.expr, node))
            else:
                for child in ast.iter_child_nodes(node):
                    collect(child)

        collect(self.tree)

        # a set's value has no hash (its members match by ``==``): the first equal one seen
        # of its type stands for it
        unhashed: list[list[object]] = [[] for _ in parts]

        def values(features: Mapping[str, object]) -> tuple[object, ...]:
            out: list[object] = []
            for part, seen in zip(parts, unhashed, strict=True):
                try:
                    value = _evaluate(part, features)
                except (TypeError, ValueError, ArithmeticError, EvaluationError) as error:
                    out.append(type(error))
                    continue
                try:
                    hash(value)
                except TypeError:
                    found = next((n for n, v in enumerate(seen)
                                  if type(v) is type(value) and v == value), len(seen))
                    if found == len(seen):
                        seen.append(value)
                    out.append((type(value), found))
                    continue
                out.append((type(value), value))
            return tuple(out)

        return values

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
    if _plainly_within(text, limits):
        return
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


def _plainly_within(text: str, limits: Limits) -> bool:
    """Whether ``text`` is within the token bounds without reading its tokens: one line of
    ASCII with no more bracket characters than the nesting bound, no more characters than the
    operator bound, and no run of number characters longer than a number may be. Then the
    token scan cannot refuse it (tests/model/test_expressions.py), and a fresh command skips
    compiling the tokenizer's patterns (5 ms of a 120 ms run).

    >>> _plainly_within("winner == 'Banker'", LIMITS), _plainly_within("((((" * 6, LIMITS)
    (True, False)
    """
    if not text.isascii() or "\n" in text or "\r" in text or "\f" in text or "\\" in text:
        return False
    if limits.operators is not None and len(text) > limits.operators:
        return False
    if sum(text.count(bracket) for bracket in _OPENING) > limits.brackets:
        return False
    return _number_run(limits.number_length).search(text) is None


@lru_cache(maxsize=8)
def _number_run(length: int) -> re.Pattern[str]:
    """A run of the characters a number token is made of, longer than ``length``."""
    return re.compile(rf"[0-9A-Za-z_.+\-]{{{length + 1},}}")


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
