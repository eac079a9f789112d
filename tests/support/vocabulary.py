"""Random bets written in a game's feature vocabulary, for the property tests that hold every
engine to the card-by-card twin (tests/engines/test_vocabulary_twins.py) and for the fuzz
cases that analyse a generated bet (tests/support/fuzz_strategies.py).

The generator reads only what each feature declares (``Feature.types`` and ``Feature.domain``),
so it knows no game: it writes comparisons of a feature with values it can take (``==``,
``!=``, ordering, ``in``/``not in`` a tuple or a set), of two features with the same values
(``player_card1_suit == banker_card2_suit``, ``player_hearts == player_cards``), sums of two
counts against a number, and None-able features guarded as a user must write them
(``player_third != None and player_third < 5``); then joins them with ``and``, ``or`` and
``not``. A feature is drawn by its kind of values first (suits, colours, ranks, counts,
totals, winners, ...), then within the kind, so that the hundred count features do not
crowd out the rest.

Sizes are bounded: at most :data:`MOST_TERMS` comparisons an event and :data:`MOST_EVENTS`
events a bet, so a generated bet costs about as much to settle as a shipped one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from exact.errors import BetFileError
from exact.model.bets import Bet, load_bets
from exact.model.features import Feature

MOST_TERMS = 4   # comparisons in one event's condition
MOST_EVENTS = 2  # events of a bet before its losing one
ORDERINGS = ("<", "<=", ">", ">=")
EQUALITIES = ("==", "!=")


def literal(value: object) -> str:
    """``value`` as a condition writes it: ``'H'``, ``9``, ``None``, ``True``."""
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return repr(value)


class Vocabulary:
    """A game's features sorted by the kind of values they take: each kind is the pair (value
    types, values), e.g. the four suits, the colours or None, the counts 0-6."""

    def __init__(self, features: Mapping[str, Feature[Any]]) -> None:
        self.features = features
        kinds: dict[tuple[object, ...], list[str]] = defaultdict(list)
        for name in sorted(features):
            feature = features[name]
            if feature.domain is None or len(feature.domain) < 2:
                continue  # no values declared: nothing to compare it with that surely parses
            kinds[(tuple(sorted(t.__name__ for t in feature.types)),
                   tuple(map(repr, feature.domain)))].append(name)
        self.kinds = [tuple(names) for _, names in sorted(kinds.items())]
        self.numbers = tuple(name for names in self.kinds for name in names
                             if self._numeric(name))

    def values(self, name: str) -> tuple[object, ...]:
        domain = self.features[name].domain
        assert domain is not None
        return domain

    def _numeric(self, name: str) -> bool:
        return all(isinstance(v, int) and not isinstance(v, bool) for v in self.values(name))

    def comparison(self) -> st.SearchStrategy[str]:
        """One comparison: a feature with its values, two features, or a sum of two."""
        single = st.sampled_from(self.kinds).flatmap(st.sampled_from).flatmap(self._single)
        pairs = st.sampled_from([names for names in self.kinds if len(names) > 1]
                                ).flatmap(lambda names: st.lists(
                                    st.sampled_from(names), min_size=2, max_size=2,
                                    unique=True)).flatmap(self._pair)
        numbers = st.lists(st.sampled_from(self.numbers), min_size=2, max_size=2,
                           unique=True).flatmap(self._numbers)
        return st.one_of(single, single, single, pairs, numbers)

    def _single(self, name: str) -> st.SearchStrategy[str]:
        values = self.values(name)
        present = [v for v in values if v is not None]
        if all(isinstance(v, bool) for v in values):
            return st.sampled_from((name, f"not {name}", f"{name} == True", f"{name} != True"))
        some = st.lists(st.sampled_from(values), min_size=1, max_size=3, unique_by=repr)
        member = st.tuples(st.sampled_from(("in", "not in")), some,
                           st.sampled_from(("({},)", "[{}]", "{{{}}}"))).map(
            lambda t: f"{name} {t[0]} " + t[2].format(", ".join(map(literal, t[1]))))
        equal = st.tuples(st.sampled_from(EQUALITIES), st.sampled_from(values)).map(
            lambda t: f"{name} {t[0]} {literal(t[1])}")
        choices = [equal, equal, member]
        if self._numeric(name) or all(isinstance(v, int) for v in present):
            ordered = st.tuples(st.sampled_from(ORDERINGS), st.sampled_from(present)).map(
                lambda t: f"{name} {t[0]} {literal(t[1])}")
            # a value that may be None is ordered only once it is known not to be: the
            # evaluator refuses None < 5 on the rounds where it is None
            choices.append(ordered if len(present) == len(values) else
                           ordered.map(lambda text: f"{name} != None and {text}"))
        return st.one_of(choices)

    def _pair(self, names: Sequence[str]) -> st.SearchStrategy[str]:
        first, second = names
        operators = EQUALITIES + (ORDERINGS if self._numeric(first) else ())
        sets = st.lists(st.sampled_from([v for v in self.values(first) if v is not None]),
                        min_size=2, max_size=2).map(
            lambda items: f"{{{first}, {second}}} == {{{', '.join(map(literal, items))}}}")
        return st.one_of(st.sampled_from(operators).map(lambda op: f"{first} {op} {second}"),
                         sets)

    def _numbers(self, names: Sequence[str]) -> st.SearchStrategy[str]:
        first, second = names
        compared = st.sampled_from(EQUALITIES + ORDERINGS).map(
            lambda op: f"{first} {op} {second}")
        most = max(self.values(first)) + max(self.values(second))  # type: ignore[operator]
        summed = st.tuples(st.sampled_from(EQUALITIES + ORDERINGS), st.integers(1, most)).map(
            lambda t: f"{first} + {second} {t[0]} {t[1]}")
        return st.one_of(compared, summed)

    def condition(self, most: int = MOST_TERMS) -> st.SearchStrategy[str]:
        """Comparisons joined with and, or and not, at most ``most`` of them."""
        def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
            joined = st.tuples(inner, st.sampled_from((" and ", " or ")), inner).map(
                lambda t: f"({t[0]}){t[1]}({t[2]})")
            # not: now and then (a not of a not reads the same bet twice)
            return st.one_of(joined, joined, joined, inner.map(lambda text: f"not ({text})"))

        return st.recursive(self.comparison(), grow, max_leaves=most)


@lru_cache
def vocabulary(features: tuple[tuple[str, Feature[Any]], ...]) -> Vocabulary:
    return Vocabulary(dict(features))


def conditions(features: Mapping[str, Feature[Any]], most: int = MOST_TERMS
               ) -> st.SearchStrategy[str]:
    """A condition written in ``features`` (a game's ``features``)."""
    return vocabulary(tuple(features.items())).condition(most)


def bet_text(conditions_and_pays: Sequence[tuple[str, int]], bet_id: str = "mine") -> str:
    """The TOML of one bet whose events are the given conditions and pays, in order."""
    events = "".join(f"[[bet.event]]\nname = \"E{index}\"\nwhen = {json.dumps(when)}\n"
                     f"pays = {pays}\n"
                     for index, (when, pays) in enumerate(conditions_and_pays))
    return f"[[bet]]\nid = \"{bet_id}\"\nname = \"Generated\"\n{events}"


def bet_texts(features: Mapping[str, Feature[Any]], most_events: int = MOST_EVENTS,
              most: int = MOST_TERMS) -> st.SearchStrategy[str]:
    """The TOML text of one generated bet: 1-``most_events`` events, then its losing one."""
    event = st.tuples(conditions(features, most), st.integers(1, 30))
    return st.lists(event, min_size=1, max_size=most_events).map(bet_text)


def bets(features: Mapping[str, Feature[Any]], most_events: int = MOST_EVENTS,
         most: int = MOST_TERMS) -> st.SearchStrategy[Bet]:
    """One generated bet, loaded as a bet file is (its literals checked against the values
    each feature takes); the rare condition the loader refuses as undecidable (e.g. a
    feature compared with every value it takes) is drawn again."""
    return bet_texts(features, most_events, most).map(
        lambda text: _loaded(text, features)).filter(lambda bet: bet is not None)


def _loaded(text: str, features: Mapping[str, Feature[Any]]) -> Bet | None:
    try:
        bet, = load_bets("generated.toml", features, text=text)
    except BetFileError:
        return None
    return bet
