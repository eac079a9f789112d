"""The published figures of a game, read from ``exact/data/<game>/published.toml``: the one
place they are typed. The tests, the notebooks of ``analyses/`` and the reports' verification
section all read them here and compare them with what the library computes.

Layer: reference, beside the analyses; it imports only the core, so reading the figures
shares no code with computing them.

A file holds a ``source`` and one ``[[figure]]`` table per figure::

    what       count | total | house_edge | house_edge_resolved | sd | return |
               feature_count | feature_probability | house_edge_exact
    decks      number of 52-card decks (default 8)
    bet        bet id (every kind but total and the feature kinds)
    paytable   paytable name (default: the bet's own)
    event      event name (count)
    features   {feature = value, ...} (feature_count, feature_probability)
    per        (count, feature_count) the count is published over this many equally likely
               units (say unordered two-card hands), not over the ordered 6-card sequences
    source     where this figure is published (default: the file's source)
    value      an integer, compared exactly (counts); a decimal as text, compared after
               rounding the exact figure to as many decimals (house edges and their
               resolved-bet form in percent, standard deviations, returns per unit staked and
               probabilities as plain numbers); an exact fraction as text (house_edge_exact)

>>> figures = loads('source = "s"\\n[[figure]]\\nwhat = "house_edge"\\nbet = "tie"\\n'
...                 'value = "14.3596"\\n', "example.toml")
>>> figure = figures.find("house_edge", bet="tie")
>>> figure.expressed(Fraction(3, 7)), figure.agrees(Fraction(143596, 10**6))
('42.8571', True)
>>> loads('[[figure]]\\nwhat = "count"\\nbet = "tie"\\nevent = "Tie"\\nvalue = "many"\\n',
...       "bad.toml")
Traceback (most recent call last):
...
exact.errors.PublishedFiguresError: bad.toml: figure 1: 'value' must be a whole number \
(count); got 'many'
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from pathlib import Path
from typing import Literal, cast, get_args

from exact.core.parsing import MAX_DIGITS, check_keys, load_toml, read_user_file, shown
from exact.errors import PublishedFiguresError

FigureKind = Literal["count", "total", "house_edge", "house_edge_resolved", "sd", "return",
                     "feature_count", "feature_probability", "house_edge_exact"]
KINDS: tuple[FigureKind, ...] = get_args(FigureKind)
COUNTS: frozenset[FigureKind] = frozenset({"count", "total", "feature_count"})
"""Kinds whose value is an integer, compared exactly."""
PERCENT: frozenset[FigureKind] = frozenset({"house_edge", "house_edge_resolved"})
"""Kinds published in percent."""
NEEDS_BET: frozenset[FigureKind] = frozenset(KINDS) - {"total", "feature_count",
                                                      "feature_probability"}
MAX_DECKS = 1000
"""Most decks a published figure is computed on (a full analysis of each shoe)."""
FeatureValue = str | int | bool

_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+", re.ASCII)
_FRACTION = re.compile(r"-?[0-9]+(?:/[0-9]*[1-9][0-9]*)?", re.ASCII)
_KEYS = ("what", "decks", "bet", "paytable", "event", "features", "per", "source", "value")


@dataclass(frozen=True)
class Figure:
    """One published figure: what it is, on which shoe, and its published value (an ``int``
    for a count, else the published text: a decimal such as ``"1.0579"`` or a fraction)."""

    kind: FigureKind
    value: int | str
    source: str
    decks: int = 8
    bet: str | None = None
    paytable: str | None = None
    event: str | None = None
    features: tuple[tuple[str, FeatureValue], ...] = ()
    per: int | None = None

    @property
    def id(self) -> str:
        """A short readable name (test ids, messages), e.g. ``8d house_edge tie 9-to-1``."""
        parts = [f"{self.decks}d", self.kind, self.bet, self.paytable, self.event,
                 ",".join(f"{name}={value}" for name, value in self.features) or None]
        return " ".join(part for part in parts if part)

    @property
    def places(self) -> int:
        """Decimals of a decimal figure (0 for the others)."""
        return len(self.value.partition(".")[2]) if isinstance(self.value, str) else 0

    def in_unit(self, count: int, total: int) -> Fraction:
        """A count over ``total`` ordered deals expressed in the figure's published unit."""
        return Fraction(count * self.per, total) if self.per else Fraction(count)

    def expressed(self, computed: int | Fraction) -> int | str:
        """An exact figure written as this figure is published: an integer when it is one
        (else its fraction, which then cannot agree), a fraction for an exact edge, or
        rounded exactly (half to even) to the published decimals, scaled to percent for house
        edges. For a standard deviation, ``computed`` is the exact variance: the deviation, its
        irrational square root, is rounded from it exactly.

        >>> Figure("sd", "0.9274", "").expressed(Fraction(86, 100))  # sqrt(0.86) = 0.92736...
        '0.9274'
        """
        exact = Fraction(computed)
        if self.kind in COUNTS:
            return exact.numerator if exact.denominator == 1 else str(exact)
        if self.kind == "house_edge_exact":
            return str(exact)
        if self.kind == "sd":
            squared = exact * 10 ** (2 * self.places)  # round(sqrt(squared)), exactly
            floor = isqrt(squared.numerator // squared.denominator)
            scaled = floor + (squared >= (floor + Fraction(1, 2)) ** 2)
        else:
            scaled = round(exact * (100 if self.kind in PERCENT else 1) * 10**self.places)
        digits = str(abs(scaled)).rjust(self.places + 1, "0")
        sign = "-" if scaled < 0 else ""
        return f"{sign}{digits[:-self.places]}.{digits[-self.places:]}"

    def agrees(self, computed: int | Fraction) -> bool:
        """Whether the exact ``computed`` figure is the published one at its precision."""
        return self.expressed(computed) == self.value


@dataclass(frozen=True)
class PublishedFigures:
    """The figures of one file, in the file's order."""

    path: Path
    source: str
    figures: tuple[Figure, ...]

    def of_kind(self, kind: FigureKind) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.kind == kind)

    def find(self, kind: FigureKind, *, decks: int = 8, bet: str | None = None,
             paytable: str | None = None, event: str | None = None,
             **features: FeatureValue) -> Figure:
        """The one figure of ``kind`` on ``decks`` decks that has every field given; a
        :class:`LookupError` unless exactly one has."""
        wanted = {"bet": bet, "paytable": paytable, "event": event}
        found = [f for f in self.of_kind(kind) if f.decks == decks
                 and all(getattr(f, k) == v for k, v in wanted.items() if v is not None)
                 and all(dict(f.features).get(k) == v for k, v in features.items())]
        if len(found) != 1:
            raise LookupError(f"{self.path.name}: {len(found)} {kind} figures on {decks} decks "
                              f"with {wanted} {features}, not one")
        return found[0]

    def value(self, kind: FigureKind, *, decks: int = 8, bet: str | None = None,
              paytable: str | None = None, event: str | None = None,
              **features: FeatureValue) -> int | str:
        """The published value of :meth:`find`'s figure."""
        return self.find(kind, decks=decks, bet=bet, paytable=paytable, event=event,
                         **features).value


def load(path: Path | str) -> PublishedFigures:
    """The figures of the file at ``path`` (at most the size of any user file);
    :class:`PublishedFiguresError` if it is unreadable or malformed."""
    return loads(read_user_file(path, "published figures", PublishedFiguresError), path)


def game_figures(game_directory: str) -> PublishedFigures:
    """The figures shipped for a game: ``exact/data/<game_directory>/published.toml``."""
    return load(Path(__file__).resolve().parents[1] / "data" / game_directory / "published.toml")


def loads(text: str, path: Path | str) -> PublishedFigures:
    """The figures of ``text``, read from ``path`` (for messages)."""
    name = Path(path).name
    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise PublishedFiguresError(f"{name}: not valid TOML: {error}") from None
    check_keys(data, ("source", "figure"), name, PublishedFiguresError)
    source = _text(data.get("source", ""), f"{name}: 'source'")
    tables = data.get("figure", [])
    if not isinstance(tables, list) or not tables:
        raise PublishedFiguresError(f"{name}: no [[figure]] table")
    figures = tuple(_figure(table, source, f"{name}: figure {position}")
                    for position, table in enumerate(tables, start=1))
    return PublishedFigures(Path(path), source, figures)


def _figure(table: object, source: str, where: str) -> Figure:
    if not isinstance(table, dict):
        raise PublishedFiguresError(f"{where}: not a table")
    check_keys(table, _KEYS, where, PublishedFiguresError)
    kind = table.get("what")
    if kind not in KINDS:
        raise PublishedFiguresError(f"{where}: 'what' must be one of {', '.join(KINDS)}; "
                                    f"got {shown(kind)}")
    kind = cast(FigureKind, kind)
    decks = table.get("decks", 8)
    if type(decks) is not int or not 1 <= decks <= MAX_DECKS:
        raise PublishedFiguresError(f"{where}: 'decks' must be a whole number from 1 to "
                                    f"{MAX_DECKS}; got {shown(decks)}")
    fields = {key: _text(table[key], f"{where}: {key!r}") if key in table else None
              for key in ("bet", "paytable", "event")}
    if kind in NEEDS_BET and fields["bet"] is None:
        raise PublishedFiguresError(f"{where}: a {kind} figure names its 'bet'")
    if kind == "count" and fields["event"] is None:
        raise PublishedFiguresError(f"{where}: a count figure names its 'event'")
    features = _features(table.get("features"), kind, where)
    per = table.get("per")
    if per is not None and (kind not in ("count", "feature_count") or type(per) is not int
                            or per <= 0 or len(str(per)) > MAX_DIGITS):
        raise PublishedFiguresError(f"{where}: 'per' is a positive whole number of a count "
                                    f"figure; got {shown(per)}")
    return Figure(kind, _value(table.get("value"), kind, where),
                  _text(table.get("source", source), f"{where}: 'source'"), decks,
                  fields["bet"], fields["paytable"], fields["event"], features, per)


def _features(features: object, kind: FigureKind, where: str,
              ) -> tuple[tuple[str, FeatureValue], ...]:
    if not kind.startswith("feature"):
        if features is not None:
            raise PublishedFiguresError(f"{where}: only feature figures have 'features'")
        return ()
    if not isinstance(features, Mapping) or not features:
        raise PublishedFiguresError(f"{where}: 'features' must be a table of feature values")
    for name, value in features.items():
        if not isinstance(value, str | int | bool) or len(str(value)) > MAX_DIGITS:
            raise PublishedFiguresError(f"{where}: feature {shown(name)} must be a word, a "
                                        f"whole number or a boolean; got {shown(value)}")
    return tuple(features.items())


def _value(value: object, kind: FigureKind, where: str) -> int | str:
    if kind in COUNTS:
        if type(value) is not int or value < 0 or len(str(value)) > MAX_DIGITS:
            raise PublishedFiguresError(f"{where}: 'value' must be a whole number ({kind}); "
                                        f"got {shown(value)}")
        return value
    form, pattern = (("a fraction such as \"259/5395\"", _FRACTION) if kind == "house_edge_exact"
                     else ("a decimal as text, such as \"1.0579\"", _DECIMAL))
    if not isinstance(value, str) or len(value) > MAX_DIGITS or not pattern.fullmatch(value):
        raise PublishedFiguresError(f"{where}: 'value' must be {form} ({kind}); "
                                    f"got {shown(value)}")
    return str(Fraction(value)) if kind == "house_edge_exact" else value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or len(value) > 1000:
        raise PublishedFiguresError(f"{where} must be text; got {shown(value)}")
    return value
