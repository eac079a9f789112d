"""The published figures of a game, read from ``exact/data/<game>/published.toml``: the one
place they are typed. The tests, the notebooks of ``analyses/`` and the reports' verification
section all read them here and compare them with what the library computes.

Layer: reference, beside the analyses; it imports only the core, so reading the figures
shares no code with computing them.

A file holds a ``source`` and one ``[[figure]]`` table per figure::

    what       count | total | house_edge | house_edge_resolved | sd | return |
               feature_count | feature_probability | house_edge_exact |
               value_exact | draw_probability | game_size | unique  (the last four: figures
               of a strategy game, a game where a side chooses)
    decks      number of 52-card decks (default 8; none when the game's own keys say the
               figure is on no count of decks)
    bet        bet id (every kind but total, the feature kinds and the strategy-game kinds)
    paytable   paytable name (default: the bet's own)
    event      event name (count)
    features   {feature = value, ...} (feature_count, feature_probability)
    per        (count, feature_count) the count is published over this many equally likely
               units (say unordered two-card hands), not over the ordered 6-card sequences
    source     where this figure is published (default: the file's source)
    value      an integer, compared exactly (counts); a decimal as text, compared after
               rounding the exact figure to as many decimals (house edges and their
               resolved-bet form in percent, standard deviations, returns per unit staked and
               probabilities as plain numbers); an exact fraction as text (house_edge_exact;
               value_exact, the player's result per unit bet; draw_probability, from 0 to 1);
               the matrix game's size in pure strategies, "2 x 2^88" (game_size); true or
               false (unique: whether the game has one solution, Nash equilibrium if not
               zero-sum)

and the keys a game adds of its own (a strategy game's model and strategy pair), declared by
the game as a subclass of :class:`FigureEntry` (its plugin record's ``figures``): their types
say the values they take, its :meth:`FigureEntry.own` checks them against the figure's kind.
A key no record declares is refused in one line, as any unknown key.

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

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from pathlib import Path
from types import GenericAlias
from typing import Any, Literal, cast, get_args

import msgspec

from exact.core.parsing import MAX_DIGITS, load_toml, read_user_file, shown
from exact.core.records import FileRecord, Name, Text, structure
from exact.errors import PublishedFiguresError

FigureKind = Literal["count", "total", "house_edge", "house_edge_resolved", "sd", "return",
                     "feature_count", "feature_probability", "house_edge_exact",
                     "value_exact", "draw_probability", "game_size", "unique"]
KINDS: tuple[FigureKind, ...] = get_args(FigureKind)
COUNTS: frozenset[FigureKind] = frozenset({"count", "total", "feature_count"})
"""Kinds whose value is an integer, compared exactly."""
PERCENT: frozenset[FigureKind] = frozenset({"house_edge", "house_edge_resolved"})
"""Kinds published in percent."""
STRATEGY_KINDS: frozenset[FigureKind] = frozenset({"value_exact", "draw_probability",
                                                   "game_size", "unique"})
"""Kinds of a strategy game (sides choose): no bet, a model and a strategy pair instead."""
EXACT: frozenset[FigureKind] = frozenset({"house_edge_exact", "value_exact", "draw_probability"})
"""Kinds whose value is an exact fraction."""
NEEDS_BET: frozenset[FigureKind] = (frozenset(KINDS) - STRATEGY_KINDS
                                    - {"total", "feature_count", "feature_probability"})
MAX_DECKS = 1000
"""Most decks a published figure is computed on (a full analysis of each shoe)."""
FeatureValue = str | int | bool

_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+", re.ASCII)
_FRACTION = re.compile(r"-?[0-9]+(?:/[0-9]*[1-9][0-9]*)?", re.ASCII)
_POWER = r"2(?:\^(?:[2-9]|[1-9][0-9]{1,3}))?"  # 2, or a power of two up to 2^9999
_SIZE = re.compile(f"{_POWER} x {_POWER}", re.ASCII)
_BET_KEYS = ("bet", "paytable", "event")
OwnValue = str | int | bool | Fraction | None
"""The value of a game's own key of a figure (:meth:`FigureEntry.own`)."""


@dataclass(frozen=True)
class Figure:
    """One published figure: what it is, on which shoe, and its published value (an ``int``
    for a count, ``True``/``False`` for a uniqueness, else the published text: a decimal such
    as ``"1.0579"``, a fraction or a game size such as ``"2 x 2^88"``)."""

    kind: FigureKind
    value: bool | int | str
    source: str
    decks: int | None = 8
    """None: on no count of decks (the game's own keys say its shoe)."""
    bet: str | None = None
    paytable: str | None = None
    event: str | None = None
    features: tuple[tuple[str, FeatureValue], ...] = ()
    per: int | None = None
    own: tuple[tuple[str, OwnValue], ...] = ()
    """The game's own keys (:meth:`FigureEntry.own`), every key its record declares."""

    @property
    def id(self) -> str:
        """A short readable name (test ids, messages), e.g. ``8d house_edge tie 9-to-1``: the
        game's own keys that are set follow (a true one by its name, a word as itself, another
        value after its name)."""
        own = [key if value is True else value if isinstance(value, str) else f"{key} {value}"
               for key, value in self.own if value not in (None, False, 0)]
        parts = [None if self.decks is None else f"{self.decks}d", self.kind,
                 self.bet, self.paytable, self.event, *own,
                 ",".join(f"{name}={value}" for name, value in self.features) or None]
        return " ".join(part for part in parts if part)

    @property
    def places(self) -> int:
        """Decimals of a decimal figure (0 for the others)."""
        return len(self.value.partition(".")[2]) if isinstance(self.value, str) else 0

    def own_value(self, name: str) -> OwnValue:
        """The game's own key ``name`` (None if its record declares none such)."""
        return dict(self.own).get(name)

    def in_unit(self, count: int, total: int) -> Fraction:
        """A count over ``total`` ordered deals expressed in the figure's published unit."""
        return Fraction(count * self.per, total) if self.per else Fraction(count)

    def expressed(self, computed: int | Fraction | tuple[int, int]) -> bool | int | str:
        """An exact figure written as this figure is published: an integer when it is one
        (else its fraction, which then cannot agree), a fraction for an exact figure, a
        boolean for a uniqueness, or rounded exactly (half to even) to the published decimals,
        scaled to percent for house edges. For a standard deviation, ``computed`` is the exact
        variance: the deviation, its irrational square root, is rounded from it exactly. For a
        game size it is the number of pure strategies of each side.

        >>> Figure("sd", "0.9274", "").expressed(Fraction(86, 100))  # sqrt(0.86) = 0.92736...
        '0.9274'
        >>> Figure("game_size", "2 x 2^88", "").expressed((2, 2**88))
        '2 x 2^88'
        """
        if isinstance(computed, tuple):
            return " x ".join(map(_strategies, computed))
        if self.kind == "unique":
            return computed is True
        exact = Fraction(computed)
        if self.kind in COUNTS:
            return exact.numerator if exact.denominator == 1 else str(exact)
        if self.kind in EXACT or self.kind == "game_size":  # (a number is no game size)
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

    def agrees(self, computed: int | Fraction | tuple[int, int]) -> bool:
        """Whether the exact ``computed`` figure is the published one at its precision."""
        return self.expressed(computed) == self.value


def _strategies(number: int) -> str:
    """A number of pure strategies as a game size writes it: ``2``, ``2^88``, else the number."""
    exponent = number.bit_length() - 1
    if number < 2 or number != 1 << exponent:
        return str(number)
    return "2" if exponent == 1 else f"2^{exponent}"


@dataclass(frozen=True)
class PublishedFigures:
    """The figures of one file, in the file's order."""

    path: Path
    source: str
    figures: tuple[Figure, ...]

    def of_kind(self, kind: FigureKind) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.kind == kind)

    def find(self, kind: FigureKind, *, decks: int | None = 8, **fields: object) -> Figure:
        """The one figure of ``kind`` on ``decks`` decks (None: on no count of decks) that
        has every field given: bet, paytable, event, a key of the game's own (a field given as
        None matches any, a fraction key compares as a fraction: ``"1/20"`` is ``0.05``); any
        other name is a feature. A :class:`LookupError` unless exactly one has."""
        own = {key for figure in self.figures for key, _ in figure.own}
        named = {k: v for k, v in fields.items() if k in _BET_KEYS or k in own}
        features = {k: v for k, v in fields.items() if k not in named}
        found = [f for f in self.of_kind(kind) if f.decks == decks
                 and all(_same(f.own_value(k) if k in own else getattr(f, k), v)
                         for k, v in named.items() if v is not None)
                 and all(dict(f.features).get(k) == v for k, v in features.items())]
        if len(found) != 1:
            shoe = "on no count of decks" if decks is None else f"on {decks} decks"
            raise LookupError(f"{self.path.name}: {len(found)} {kind} figures {shoe} with "
                              f"{named} {features}, not one")
        return found[0]

    def value(self, kind: FigureKind, *, decks: int | None = 8,
              **fields: object) -> bool | int | str:
        """The published value of :meth:`find`'s figure."""
        return self.find(kind, decks=decks, **fields).value


def _same(held: object, given: object) -> bool:
    """Whether a figure's field holds ``given`` (a fraction field: as a fraction)."""
    if isinstance(held, Fraction) and isinstance(given, str | int | Fraction):
        try:
            return held == Fraction(given)
        except ValueError:
            return False
    return held == given


def load(path: Path | str, entry: type[FigureEntry] | None = None) -> PublishedFigures:
    """The figures of the file at ``path`` (at most the size of any user file), each a
    game's ``entry`` (:func:`loads`); :class:`PublishedFiguresError` if it is unreadable or
    malformed."""
    return loads(read_user_file(path, "published figures", PublishedFiguresError), path,
                 entry)


def game_figures(game_id: str) -> PublishedFigures:
    """The figures shipped for a game: ``published.toml`` in the data folder of its plugin
    record (:attr:`exact.model.plugins.GamePlugin.data`), read with its own keys
    (:attr:`~exact.model.plugins.GamePlugin.figures`)."""
    from exact.model.plugins import plugin

    record = plugin(game_id)
    if record.data is None:
        raise PublishedFiguresError(f"{game_id}: the game ships no data folder")
    entry = record.figures
    if entry is not None and not (isinstance(entry, type) and issubclass(entry, FigureEntry)):
        raise PublishedFiguresError(f"{game_id}: its figures record {shown(entry)} is no "
                                    "FigureEntry of exact.reference.published")
    return load(record.data / "published.toml", entry)


class FigureEntry(FileRecord, frozen=True):
    """A ``[[figure]]`` table (the keys of the module docstring); what depends on its kind
    (a bet of a bet game's figure) is checked once read.

    A game whose figures have keys of their own declares them in a subclass (its plugin
    record's ``figures``), typed by the values they take (a ``Literal`` of its words), and
    overrides :meth:`own` to check them against the figure's kind, and :meth:`deckless` if a
    key of its own deals the figure's cards on no count of decks."""

    key_form = "'{}'"
    what: FigureKind
    value: Any = None
    """Checked by its kind (:func:`_value`)."""
    decks: int | None = None
    """Default 8; none for a figure on no count of decks (:meth:`deckless`)."""
    bet: Name | None = None
    paytable: Name | None = None
    event: Name | None = None
    features: dict[str, Any] | None = None
    per: int | None = None
    source: Text | None = None
    """Default: the file's."""

    def own(self, where: str) -> tuple[tuple[str, OwnValue], ...]:
        """The game's own keys of the figure, every one its record declares, as (key, value),
        checked against the figure's kind (a :class:`PublishedFiguresError` naming ``where``
        if one does not fit); none for the generic record."""
        return ()

    def deckless(self) -> str | None:
        """Why the figure is on no count of decks, as a message says it ("dealt with
        replacement": then it has no ``decks``), or None: it is on one."""
        return None

    def needs(self, key: str, kinds: frozenset[FigureKind], where: str, what: str = "") -> None:
        """Refuse the figure unless it has the key ``key`` exactly when its kind is one of
        ``kinds`` (``what``: how a message names the key, default ``'key'``)."""
        present = getattr(self, key) is not None
        if present != (self.what in kinds):
            raise PublishedFiguresError(f"{where}: a {self.what} figure "
                                        f"{'has no' if present else 'names its'} "
                                        f"{what or repr(key)}")

    @staticmethod
    def fraction(text: str | None, key: str, where: str) -> Fraction:
        """A fraction from 0 to 1 given as text (``"1/20"``), 0 when absent."""
        if text is None:
            return Fraction(0)
        if len(text) > MAX_DIGITS or not _FRACTION.fullmatch(text) or not 0 <= Fraction(text) < 1:
            raise PublishedFiguresError(f"{where}: {key!r} must be a fraction from 0 to 1 as "
                                        f"text, such as \"1/20\"; got {shown(text)}")
        return Fraction(text)


class PublishedFile(FileRecord, frozen=True):
    """A published-figures file: where the figures are published, and the figures."""

    source: Text = Text("")
    figure: tuple[FigureEntry, ...] = ()


@functools.cache  # one per game's record
def _file_record(entry: type[FigureEntry]) -> type[PublishedFile]:
    """The file's record whose figures are each a game's ``entry``."""
    if entry is FigureEntry:
        return PublishedFile
    return cast(type[PublishedFile], msgspec.defstruct(
        f"{entry.__name__}File", [("figure", GenericAlias(tuple, (entry, ...)), ())],
        bases=(PublishedFile,), frozen=True, kw_only=True, forbid_unknown_fields=True,
        module=entry.__module__))


def loads(text: str, path: Path | str,
          entry: type[FigureEntry] | None = None) -> PublishedFigures:
    """The figures of ``text``, read from ``path`` (for messages), each a game's ``entry``
    (its own keys; the generic ones only by default)."""
    name = Path(path).name
    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise PublishedFiguresError(f"{name}: not valid TOML: {error}") from None
    tables = data.get("figure")
    if not isinstance(tables, list) or not tables:
        raise PublishedFiguresError(f"{name}: no [[figure]] table")
    published = structure(data, _file_record(entry or FigureEntry), name,
                          PublishedFiguresError)
    figures = tuple(_figure(figure, published.source, f"{name}: figure {position}")
                    for position, figure in enumerate(published.figure, start=1))
    return PublishedFigures(Path(path), published.source, figures)


def _figure(entry: FigureEntry, source: str, where: str) -> Figure:
    kind = entry.what
    deckless = entry.deckless()
    if deckless is not None and entry.decks is not None:
        raise PublishedFiguresError(f"{where}: a figure {deckless} has no 'decks'")
    decks = None if deckless is not None else 8 if entry.decks is None else entry.decks
    if decks is not None and not 1 <= decks <= MAX_DECKS:
        raise PublishedFiguresError(f"{where}: 'decks' must be a whole number from 1 to "
                                    f"{MAX_DECKS}; got {shown(decks)}")
    # a strategy game has no bets: a bet's key is a slip
    for key in _BET_KEYS if kind in STRATEGY_KINDS else ():
        if getattr(entry, key) is not None:
            raise PublishedFiguresError(f"{where}: a {kind} figure has no {key!r}")
    if kind in NEEDS_BET and entry.bet is None:
        raise PublishedFiguresError(f"{where}: a {kind} figure names its 'bet'")
    if kind == "count" and entry.event is None:
        raise PublishedFiguresError(f"{where}: a count figure names its 'event'")
    features = _features(entry.features, kind, where)
    per = entry.per
    if per is not None and (kind not in ("count", "feature_count") or per <= 0
                            or len(str(per)) > MAX_DIGITS):
        raise PublishedFiguresError(f"{where}: 'per' is a positive whole number of a count "
                                    f"figure; got {shown(per)}")
    return Figure(kind, _value(entry.value, kind, where),
                  source if entry.source is None else str(entry.source), decks,
                  _plain(entry.bet), _plain(entry.paytable), _plain(entry.event), features, per,
                  entry.own(where))


def _plain(name: str | None) -> str | None:
    return None if name is None else str(name)


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


def _value(value: object, kind: FigureKind, where: str) -> bool | int | str:
    if kind in COUNTS:
        if type(value) is not int or value < 0 or len(str(value)) > MAX_DIGITS:
            raise PublishedFiguresError(f"{where}: 'value' must be a whole number ({kind}); "
                                        f"got {shown(value)}")
        return value
    if kind == "unique":
        if type(value) is not bool:
            raise PublishedFiguresError(f"{where}: 'value' must be true or false (unique); "
                                        f"got {shown(value)}")
        return value
    if kind == "game_size":
        form, pattern = "a game size such as \"2 x 2^88\"", _SIZE
    elif kind in EXACT:
        form, pattern = "a fraction such as \"259/5395\"", _FRACTION
    else:
        form, pattern = "a decimal as text, such as \"1.0579\"", _DECIMAL
    if (not isinstance(value, str) or len(value) > MAX_DIGITS or not pattern.fullmatch(value)
            or (kind == "draw_probability" and not 0 <= Fraction(value) <= 1)):
        between = " from 0 to 1" if kind == "draw_probability" else ""
        raise PublishedFiguresError(f"{where}: 'value' must be {form}{between} ({kind}); "
                                    f"got {shown(value)}")
    return str(Fraction(value)) if kind in EXACT else value
