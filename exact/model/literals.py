"""Conditions checked against the values their features can take (``Feature.domain``).

Layer: model, above the core; the engines, the games and the analyses build on it.

The whitelist grammar (:mod:`exact.model.expressions`) checks what a condition may say; this
module checks that it can mean something on a round of its game. A feature that declares its
domain (every value it can take, for any shoe and rules of its game) is checked when a bet file
is loaded:

* a literal compared with a feature by ``==``, ``!=``, ``in`` or ``not in`` (either side, in a
  chain, or as an item of the tuple, list or set after ``in``) must be one of its values:
  ``winner == 'Player'`` is refused, saying ``'player'`` is meant; ``player_total == 10`` is
  refused, naming 0-9;
* a comparison (``player_total > 9``, ``player_total + banker_total == 19``) that no
  combination of its features' values makes true is refused; the combinations are tried
  exactly (each feature independently over its domain, so what is refused can never hold on a
  round) while they are few (:data:`MOST_COMBINATIONS`), and left alone beyond;
* a condition that the comparisons it is made of can never decide, e.g. ``player_total < 10``
  (always true), is refused.

Every refusal is one :class:`~exact.errors.ExpressionError` line naming the feature and its
values. Features without a domain (a game that declares none) are not checked.

>>> from exact.games import get_game
>>> features = get_game("punto-banco").features
>>> check_literals(Expression.parse("winner == 'Player'"), features)
Traceback (most recent call last):
...
exact.errors.ExpressionError: 'Player' is not a value of winner ("player", "banker" or "tie"): \
did you mean 'player'?
>>> check_literals(Expression.parse("player_total + banker_total == 19"), features)
Traceback (most recent call last):
...
exact.errors.ExpressionError: 'player_total + banker_total == 19' never holds: player_total is \
0-9, banker_total is 0-9
>>> check_literals(Expression.parse("winner == 'tie' and player_total > 4"), features)
"""

from __future__ import annotations

import ast
import itertools
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from exact.core.parsing import shown
from exact.errors import EvaluationError, ExpressionError
from exact.model.expressions import CONDITION_SHOWN, Expression
from exact.model.features import Feature

MOST_COMBINATIONS = 4_096
"""Most combinations of feature values one comparison is tried on (above: not checked)."""
MOST_TRIALS = 20_000
"""Most evaluations one condition's check makes in all (then the rest is not checked), so a
condition at the grammar's bounds is checked in well under a second."""

Outcomes = frozenset[bool]
_EITHER: Outcomes = frozenset({True, False})
_MEMBERSHIP = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def check_literals(condition: Expression, features: Mapping[str, Feature[Any]]) -> None:
    """Refuse ``condition`` (an :class:`~exact.errors.ExpressionError`) if it compares a
    feature with a literal the feature can never take, holds a comparison that can never be
    true, or can never be decided by its comparisons (always true or always false)."""
    domains = {name: feature for name in condition.names
               if (feature := features.get(name)) is not None and feature.domain is not None}
    if not domains:
        return
    checker = _Checker(domains)
    outcomes, culprit = checker.outcomes(condition.tree)
    if outcomes is not None and len(outcomes) == 1 and culprit is not None:
        verdict = "always holds" if True in outcomes else "never holds"
        raise ExpressionError(f"{_quoted(condition.text)} {verdict}: "
                              f"{_values(culprit, domains)}")


class _Checker:
    def __init__(self, features: Mapping[str, Feature[Any]]) -> None:
        self.features = features
        self.trials = MOST_TRIALS
        self.hashed: dict[str, frozenset[object]] = {}

    def outcomes(self, node: ast.expr) -> tuple[Outcomes | None, ast.expr | None]:
        """The truth values ``node`` can take (None: not known), and the comparison that
        decides it when it can take one only (None: no comparison does)."""
        match node:
            case ast.BoolOp(op=op, values=values):
                parts = [self.outcomes(value) for value in values]
                # and: false if one part is always false, true if every part always is
                deciding = not isinstance(op, ast.And)
                for outcome, culprit in parts:
                    if outcome == frozenset({deciding}):
                        return outcome, culprit
                if all(outcome == frozenset({not deciding}) for outcome, _ in parts):
                    return frozenset({not deciding}), next(
                        (culprit for _, culprit in parts if culprit is not None), None)
                return _EITHER, None
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                outcome, culprit = self.outcomes(operand)
                return (frozenset(not o for o in outcome) if outcome is not None else None,
                        culprit)
            case ast.Compare():
                self._check_members(node)
                outcome = self._tried(node)
                if outcome == frozenset({False}):
                    raise ExpressionError(f"{_quoted(ast.unparse(node))} never holds: "
                                          f"{_values(node, self.features)}")
                return outcome, node
        # a feature or a sum read as true or false (``when = "winner"``) is not a comparison
        # with a literal: what it can be counts, but it alone is never refused
        return self._tried(node), None

    def _check_members(self, node: ast.Compare) -> None:
        """Each literal compared with a feature by ==, !=, in, not in is one of its values."""
        operands = [node.left, *node.comparators]
        for position, op in enumerate(node.ops):
            if not isinstance(op, _MEMBERSHIP):
                continue
            left, right = operands[position], operands[position + 1]
            pairs = [(left, right)] if isinstance(op, ast.In | ast.NotIn) else \
                [(left, right), (right, left)]
            for feature_node, other in pairs:
                if not (isinstance(feature_node, ast.Name) and feature_node.id in self.features):
                    continue
                feature = self.features[feature_node.id]
                items = other.elts if isinstance(op, ast.In | ast.NotIn) and \
                    isinstance(other, ast.Tuple | ast.List | ast.Set) else [other]
                for item in items:
                    literal = _literal(item)
                    if literal is not _UNKNOWN and not self._member(literal, feature):
                        raise ExpressionError(_not_a_value(literal, feature))

    def _member(self, literal: object, feature: Feature[Any]) -> bool:
        """Whether some value of ``feature`` equals ``literal`` by the values' own == (an
        order-free pair of ranks equals "8A" as "A8"); a hashed look-up first, as a domain
        may hold over a thousand values."""
        domain = feature.domain or ()
        hashed = self.hashed.setdefault(feature.name, frozenset(domain))
        try:
            if literal in hashed:
                return True
        except TypeError:  # an unhashable literal: compared one by one below
            pass
        return any(value == literal for value in domain)

    def _tried(self, node: ast.expr) -> Outcomes | None:
        """The truth values ``node`` takes over every combination of its features' values,
        if they are few enough and every feature it reads declares its values."""
        names = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)})
        if not names or any(name not in self.features for name in names):
            return None
        domains = [self.features[name].domain or () for name in names]
        combinations = 1
        for domain in domains:
            combinations *= len(domain)
        if combinations > min(MOST_COMBINATIONS, self.trials):
            return None
        self.trials -= combinations
        # (its text is only for messages, which name the comparison itself: none here)
        expression = Expression("", node, frozenset(names))
        seen: set[bool] = set()
        for values in itertools.product(*domains):
            try:
                seen.add(bool(expression.evaluate(dict(zip(names, values, strict=True)))))
            except EvaluationError:
                continue  # no value on such a round: an error there, not a truth value
            if len(seen) == 2:
                break
        return frozenset(seen) or None


class _Unknown:
    pass


_UNKNOWN = _Unknown()


def _literal(node: ast.expr) -> object:
    """The value of a sub-expression that reads no feature (``'tie'``, ``-1``, ``1/2``), else
    :data:`_UNKNOWN`."""
    if any(isinstance(n, ast.Name) for n in ast.walk(node)) or \
            isinstance(node, ast.Tuple | ast.List | ast.Set):
        return _UNKNOWN
    try:
        return Expression("", node, frozenset()).evaluate({})
    except EvaluationError:
        return _UNKNOWN  # e.g. 1/0: an error on every round, said when evaluated




def _not_a_value(literal: object, feature: Feature[Any]) -> str:
    message = (f"{shown(literal)} is not a value of {feature.name} "
               f"({feature.values or _listed(feature.domain or ())})")
    hint = _suggestion(literal, feature)
    return f"{message}: {hint}" if hint else message


def _suggestion(literal: object, feature: Feature[Any]) -> str:
    """A near miss: another case, '10' for 'T', or a look-alike letter outside ASCII."""
    if not isinstance(literal, str):
        return ""
    strange = next((c for c in literal if not c.isascii() or not c.isprintable()), None)
    if strange is not None:
        name = unicodedata.name(strange, "unnamed")
        close = _closest(_ascii_twin(literal), feature)
        meant = f" (did you mean {shown(close)}?)" if close is not None else ""
        return (f"it holds {shown(strange)} (U+{ord(strange):04X} {name}), not an ASCII "
                f"character{meant}")
    for candidate in (literal, literal.replace("10", "T")):
        close = _closest(candidate, feature)
        if close is not None:
            return f"did you mean {shown(close)}?"
    return ""


def _closest(text: str, feature: Feature[Any]) -> object | None:
    """The value of ``feature`` that ``text`` is, ignoring case, if any."""
    wanted = text.casefold()
    for value in feature.domain or ():
        if isinstance(value, str) and (value.casefold() == wanted or value == text.upper()):
            return value
    return None


def _ascii_twin(text: str) -> str:
    """``text`` with each look-alike letter read as the ASCII letter it resembles, where
    Unicode says so (compatibility forms, accents) or it is a common Cyrillic or Greek twin."""
    return "".join(_TWINS.get(c, c) if c.isascii() else _TWINS.get(c, _decomposed(c))
                   for c in text)


def _decomposed(character: str) -> str:
    plain = unicodedata.normalize("NFKD", character)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain if plain.isascii() else character


# Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables, the common few)
_TWINS = dict(zip("аеорсухіјѕԁѡАВЕКМНОРСТХУΑΒΕΖΗΙΚΜΝΟΡΤΥΧοι",
                  "aeopcyxijsdwABEKMHOPCTXYABEZHIKMNOPTYXoi", strict=True))


def _listed(values: Iterable[object]) -> str:
    return ", ".join(shown(v) for v in values)


def _values(node: ast.AST, features: Mapping[str, Feature[Any]]) -> str:
    """What the features a sub-expression reads can be: "winner is ...", in order read."""
    names = dict.fromkeys(n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                          and n.id in features)
    return ", ".join(f"{name} is {features[name].values or _listed(features[name].domain or ())}"
                     for name in names)


def _quoted(text: str) -> str:
    return shown(text, CONDITION_SHOWN)
