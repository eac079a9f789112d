"""Bets and paytables as data.

Layer: model, above the core; the engines, the games and the analyses build on it.

A bet file (TOML) holds ``[[bet]]`` tables. A bet is an ordered list of events, each a
condition over the game's round features and what it pays; the first event whose condition
holds settles the bet, and a round no event matches loses (the ``otherwise`` event)::

    [[bet]]
    id = "tie"
    name = "Tie"
    paytable = "8-to-1"            # name of the pays written in the events
    otherwise = "No tie"           # name of the losing event (default "Loses")

    [[bet.event]]
    name = "Tie"
    when = "winner == 'tie'"
    pays = 8                       # 8 to 1; also "19/20", 0.95, "push", "lose"
    # gross = 1                    # optional: the win before commission (19/20 = 1 less 5%)

    [bet.paytables."9-to-1"]       # alternative paytables: event name -> pays
    Tie = 9

Pays are net results per unit: a win of ``pays`` to 1, ``"push"`` (0) or ``"lose"`` (-1).
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Self

import msgspec

from exact.core.parsing import (
    expect,
    load_toml,
    parse_number,
    plain_text,
    read_user_file,
    shown,
    shown_all,
    shown_path,
    suggestion,
    wrong_type,
)
from exact.core.records import FileRecord, Name, Pays, Text, structure
from exact.errors import (
    BetFileError,
    BetFileInputError,
    ExactError,
    InputError,
    WrongTypeError,
)
from exact.model.expressions import (
    CONDITION_SHOWN,
    EvaluationError,
    Expression,
    ExpressionError,
)
from exact.model.features import Feature
from exact.model.game import Game
from exact.model.literals import check_literals

if TYPE_CHECKING:
    pass

PUSH, LOSE = Fraction(0), Fraction(-1)

# Bounds on what one bet file holds, so that analysing it takes bounded time whatever it
# contains (docs: Input limits). The shipped files hold at most 30 bets, 8 events and 2
# alternative paytables a bet; each event costs a pass of its condition over the game's rounds
# and each bet or paytable a settlement, so the file totals bound the work (a file at every
# bound: 6-16 s for `analyze punto-banco --all`, cache warm), not only the per-bet counts.
MOST_BETS = 1_000
"""Most ``[[bet]]`` tables in one bet file."""
MOST_EVENTS = 100
"""Most ``[[bet.event]]`` tables in one bet."""
MOST_PAYTABLES = 100
"""Most alternative paytables (``[bet.paytables.NAME]``) in one bet."""
MOST_FILE_EVENTS = 2_000
"""Most events in all the bets of one file."""
MOST_FILE_PAYTABLES = 2_000
"""Most alternative paytables in all the bets of one file."""
ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.%")
"""What a bet id, group or paytable name is written with (ASCII letters, digits, ``- _ . %``):
they are typed on the command line (``--bet``, ``--paytable BET=NAME``), so no look-alike or
invisible character may make two read alike. Names and descriptions may be any plain text."""


def parse_pays(value: object, key: str = "pays") -> Fraction:
    """A pay as written in a bet file, as an exact net result per unit (bounds:
    :data:`exact.core.parsing.QUANTITIES`); a bad one is an :class:`~exact.errors.InputError`
    naming ``key``.

    >>> parse_pays(25), parse_pays("19/20"), parse_pays(0.95), parse_pays("push")
    (Fraction(25, 1), Fraction(19, 20), Fraction(19, 20), Fraction(0, 1))
    """
    if isinstance(value, str) and value.strip().lower() in ("push", "lose", "loses"):
        return PUSH if value.strip().lower() == "push" else LOSE
    try:
        return parse_number(value, "pays", key, BetFileInputError)
    except BetFileInputError as error:
        message = str(error)
        if "is negative" in message:
            message += ": write a win as 'N to 1', a loss as \"lose\""
        elif "is not a number (ASCII" in message:
            message = message.replace(" (ASCII", ", \"push\" or \"lose\" (ASCII", 1)
        raise BetFileInputError(message) from None


def format_pays(pays: Fraction) -> str:
    """Exact text of a pay, as the JSON, CSV and text outputs write it.

    >>> format_pays(Fraction(19, 20)), format_pays(Fraction(8)), format_pays(LOSE)
    ('19/20', '8', '-1')
    """
    return str(pays)


@dataclass(frozen=True)
class Event:
    """One way a bet is settled: a condition and the net result per unit."""

    name: str
    condition: Expression | None  # None: the losing event that catches every other round
    pays: Fraction
    gross: Fraction | None = None  # the win before commission (e.g. 1 for Banker's 19/20)

    @property
    def commission(self) -> Fraction:
        """Commission per unit on a win: ``gross - pays`` (e.g. 1/20 on 19/20), else 0.

        >>> Event("Banker wins", None, Fraction(19, 20), gross=Fraction(1)).commission
        Fraction(1, 20)
        """
        return max(Fraction(0), self.gross - self.pays) if self.gross is not None and \
            self.pays > 0 else Fraction(0)


@dataclass(frozen=True)
class Bet:
    """A wager defined as data; ``events`` are tried in order, the last is ``otherwise``."""

    id: str
    name: str
    events: tuple[Event, ...]
    paytable: str = "standard"
    alternatives: Mapping[str, Mapping[str, Fraction]] = field(default_factory=dict, hash=False)
    description: str = ""
    source: str = ""
    group: str = ""

    def __hash__(self) -> int:
        # analyses key their caches by bet; hashing every event's pays and condition each time
        # would cost more than evaluating a value-only bet
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.id, self.name, self.events, self.paytable, self.description,
                     self.source, self.group, tuple(sorted(
                         (k, tuple(sorted(v.items()))) for k, v in self.alternatives.items()))))

    @cached_property
    def features(self) -> frozenset[str]:
        names: set[str] = set()
        for event in self.events:
            if event.condition is not None:
                names |= event.condition.names
        return frozenset(names)

    def settle(self, features: Mapping[str, object]) -> int:
        """Index of the event that settles a round with these features."""
        for index, event in enumerate(self.events):
            if event.condition is None:
                return index
            try:
                if event.condition.evaluate(features):
                    return index
            except EvaluationError as error:
                raise self.evaluation_error(index, error) from None
        raise AssertionError("a bet always ends with its losing event")

    def evaluation_error(self, index: int, error: EvaluationError) -> BetFileError:
        """The one-line error for event ``index`` whose condition could not be evaluated
        (every place that evaluates conditions reports it so).

        >>> bet = Bet("x", "X", (Event("Win", Expression.parse("a / b > 1"), Fraction(1)),
        ...                      Event("Loses", None, LOSE)), source="mine.toml")
        >>> try:
        ...     bet.settle({"a": 1, "b": 0})
        ... except BetFileError as error:
        ...     print(error)
        mine.toml: bet 'x', event 'Win': cannot evaluate 'a / b > 1': division by zero (1 / 0)
        """
        event = self.events[index]
        text = event.condition.text if event.condition is not None else ""
        return BetFileError(f"{self.source}: bet {shown(self.id)}, event {shown(event.name)}: "
                            f"cannot evaluate {shown(text, CONDITION_SHOWN)}: {error}")

    @property
    def paytables(self) -> list[str]:
        return [self.paytable, *self.alternatives]

    def with_paytable(self, name: str) -> Bet:
        """The same bet paid by its alternative paytable ``name`` (the paytable it had becomes
        an alternative).

        >>> tie = Bet("tie", "Tie", (Event("Tie", Expression.parse("winner == 'tie'"),
        ...                          Fraction(8)), Event("No tie", None, LOSE)),
        ...           paytable="8-to-1", alternatives={"9-to-1": {"Tie": Fraction(9)}})
        >>> nine = tie.with_paytable("9-to-1")
        >>> nine.events[0].pays, nine.paytables
        (Fraction(9, 1), ['9-to-1', '8-to-1'])
        """
        if name == self.paytable:
            return self
        if name not in self.alternatives:
            raise BetFileError(f"bet {shown(self.id)} has no paytable {shown(name)}"
                               f"{suggestion([name], self.paytables)}; "
                               f"known: {', '.join(self.paytables)}")
        table = self.alternatives[name]
        events = tuple(replace(e, pays=table.get(e.name, e.pays)) for e in self.events)
        others = {self.paytable: {e.name: e.pays for e in self.events},
                  **{k: v for k, v in self.alternatives.items() if k != name}}
        return replace(self, events=events, paytable=name, alternatives=others)


def _toml_string(text: str) -> str:
    # JSON's escapes (\" \\ \n \uXXXX ...) are TOML basic-string escapes too; ASCII only, so
    # no invisible or look-alike character reaches the file unescaped
    return json.dumps(text, ensure_ascii=True)


def bets_toml(bets: Iterable[Bet], heading: str = "") -> str:
    """The bets as a bet file (the TOML that :func:`load_bets`, ``--bets`` and ``--table``
    read): every event's condition as its text, every pay exact (``"19/20"``), the
    alternative paytables kept. ``heading`` becomes comment lines at the top.

    >>> tie = Bet("tie", "Tie", (Event("Tie", Expression.parse("winner == 'tie'"),
    ...                          Fraction(9)), Event("No tie", None, LOSE)), paytable="9-to-1")
    >>> print(bets_toml([tie], "A designed paytable"))
    # A designed paytable
    <BLANKLINE>
    [[bet]]
    id = "tie"
    name = "Tie"
    paytable = "9-to-1"
    otherwise = "No tie"
    <BLANKLINE>
      [[bet.event]]
      name = "Tie"
      when = "winner == 'tie'"
      pays = "9"
    <BLANKLINE>
    """
    lines = [f"# {line}".rstrip() for line in heading.splitlines()]
    for bet in bets:
        *events, losing = bet.events
        if losing.condition is not None or losing.pays != LOSE:
            raise BetFileError(f"bet {shown(bet.id)}: its last event must be the losing "
                               "'otherwise' to be written as a bet file")
        lines += ["", "[[bet]]", f"id = {_toml_string(bet.id)}",
                  f"name = {_toml_string(bet.name)}"]
        lines += [f"{key} = {_toml_string(value)}" for key, value in (
            ("group", bet.group), ("description", bet.description),
            ("paytable", bet.paytable)) if value]
        lines.append(f"otherwise = {_toml_string(losing.name)}")
        for event in events:
            if event.condition is None:
                raise BetFileError(f"bet {shown(bet.id)}: event {shown(event.name)} before the "
                                   "last has no condition")
            lines += ["", "  [[bet.event]]", f"  name = {_toml_string(event.name)}",
                      f"  when = {_toml_string(event.condition.text)}",
                      f"  pays = {_toml_string(format_pays(event.pays))}"]
            if event.gross is not None:
                lines.append(f"  gross = {_toml_string(format_pays(event.gross))}")
        for name, table in bet.alternatives.items():
            lines += ["", f"  [bet.paytables.{_toml_string(name)}]"]
            lines += [f"  {_toml_string(event)} = {_toml_string(format_pays(pays))}"
                      for event, pays in table.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


class Pay(Pays):
    """A pay as a bet file writes it: a number of the ``pays`` quantity, ``"push"`` or
    ``"lose"`` (:func:`parse_pays`)."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        pays = parse_pays(value, where)
        return cls(pays.numerator, pays.denominator)


class BetId(Name):
    """A bet id, group or paytable name: typed on the command line, so of
    :data:`ID_CHARACTERS` only (:func:`_plain_id`)."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        return cls(_plain_id(value, where))


class EventEntry(FileRecord, frozen=True):
    """A ``[[bet.event]]`` table: one way the bet is settled."""

    name: Name
    when: str
    """The condition, over the game's features (:mod:`exact.model.expressions`)."""
    pays: Pay
    gross: Pay | None = None
    """The win before commission (``1`` for Banker's ``19/20``); a misspelt ``gross`` is an
    unknown key, not a win paid without its commission."""


class BetEntry(FileRecord, frozen=True):
    """A ``[[bet]]`` table."""

    id: BetId
    name: Name | None = None
    """The name shown (default: the id)."""
    description: Text = Text("")
    group: BetId = BetId("")
    paytable: BetId = BetId("standard")
    """The name of the pays its events write."""
    otherwise: Name = Name("Loses")
    """The name of the losing event that catches every other round."""
    event: tuple[EventEntry, ...] = ()
    """At most :data:`MOST_EVENTS`."""
    paytables: dict[str, dict[str, Pay]] = msgspec.field(default_factory=dict)
    """Alternative paytables: ``[bet.paytables.NAME]``, event name -> pays."""


class BetFile(FileRecord, frozen=True):
    """A bet file: its ``[[bet]]`` tables, nothing else (a misspelt ``[[bte]]`` beside them
    would be dropped unread)."""

    key_word = "top-level key"
    bet: tuple[BetEntry, ...] = ()
    """At most :data:`MOST_BETS`."""


def load_bets(source: Path | str, features: Iterable[str] | Mapping[str, Feature[Any]], *,
              text: str | None = None) -> list[Bet]:
    """Read and validate the bets of a TOML file against a game's feature names; given the
    features themselves (a game's ``features``), conditions are type-checked against the
    types their values declare (``winner + 1`` is refused when loaded)."""
    expect(source, (str, PurePath), "load_bets: source must be a file name")
    expect(text, (str, type(None)), "load_bets: text must be the file's text")
    if isinstance(features, str) or not isinstance(features, Iterable):  # a str: characters
        raise WrongTypeError(wrong_type("load_bets: features must be a game's features or "
                                        "their names", features))
    label, entries = _entries(source, text)
    return _bets_of(label, entries, features)


def _entries(source: Path | str, text: str | None) -> tuple[str, tuple[BetEntry, ...]]:
    """The label and the ``[[bet]]`` records of a bet file, structured, their conditions not
    yet parsed."""
    label = shown_path(source)
    raw = text if text is not None else read_user_file(source, "bet file", BetFileError)
    try:
        data = load_toml(raw)
    except tomllib.TOMLDecodeError as error:
        raise BetFileError(f"{label}: {_bet_at_error(raw, str(error))}not valid TOML: "
                           f"{error}") from None
    entries = structure(data, BetFile, label, BetFileError, BetFileInputError).bet
    if not entries:
        raise BetFileError(f"{label}: no [[bet]] tables")
    if len(entries) > MOST_BETS:
        raise BetFileError(f"{label}: {len(entries):,} [[bet]] tables: at most {MOST_BETS:,} a "
                           "file (docs: Input limits)")
    return label, entries


def _bets_of(label: str, entries: Sequence[BetEntry],
             features: Iterable[str] | Mapping[str, Feature[Any]]) -> list[Bet]:
    """The bets of a file's records, each checked and the file's bounds with them."""
    known = frozenset(features)
    types = {name: feature.types for name, feature in features.items()
             if getattr(feature, "types", ())} if isinstance(features, Mapping) else {}
    domains = _domains(features)
    bets: list[Bet] = []
    ids: set[str] = set()
    events = paytables = 0
    for entry in entries:
        bet = _bet(label, entry, known, types, domains)
        if bet.id in ids:
            raise BetFileError(f"{label}: bet {shown(bet.id)}: duplicate id")
        ids.add(bet.id)
        events += len(bet.events) - 1  # the losing event is not the file's
        paytables += len(bet.alternatives)
        for count, most, what in ((events, MOST_FILE_EVENTS, "[[bet.event]] tables"),
                                  (paytables, MOST_FILE_PAYTABLES, "alternative paytables")):
            if count > most:
                raise BetFileError(f"{label}: bet {shown(bet.id)}: passes {most:,} {what} in "
                                   "the file (docs: Input limits)")
        bets.append(bet)
    return bets


def _bet(label: str, entry: BetEntry, known: frozenset[str],
         types: Mapping[str, tuple[type, ...]], domains: Mapping[str, Feature[Any]]) -> Bet:
    """The bet of a ``[[bet]]`` record, its keys checked together: distinct event names, the
    alternative paytables naming its events, its conditions over the game's features."""
    where = f"{label}: bet {shown(entry.id)}"  # an id of a million characters: one short line
    if not entry.event:
        raise BetFileError(f"{where}: needs at least one [[bet.event]]")
    # the bounds are read here, not declared in the record: a test lowers them
    if len(entry.event) > MOST_EVENTS:
        raise BetFileError(f"{where}: {len(entry.event):,} [[bet.event]] tables: at most "
                           f"{MOST_EVENTS:,} a bet (docs: Input limits)")
    if len(entry.paytables) > MOST_PAYTABLES:
        raise BetFileError(f"{where}: {len(entry.paytables):,} alternative paytables: at most "
                           f"{MOST_PAYTABLES:,} a bet (docs: Input limits)")
    events = [_event(where, raw, known, types, domains) for raw in entry.event]
    names = [e.name for e in events]
    if len(set(names + [entry.otherwise])) != len(names) + 1:
        raise BetFileError(f"{where}: event names must be distinct "
                           f"(otherwise = {shown(entry.otherwise)})")
    events.append(Event(str(entry.otherwise), None, LOSE))
    alternatives: dict[str, Mapping[str, Fraction]] = {}
    for table_name, table in entry.paytables.items():
        missing = set(table) - set(names)
        if missing:
            raise BetFileError(f"{where}: paytable {shown(table_name)} names unknown event(s) "
                               f"{shown_all(sorted(missing))}")
        alternatives[_plain_id(table_name, f"{where}: paytable")] = {
            event: Fraction(pays) for event, pays in table.items()}
    if entry.paytable in alternatives:
        raise BetFileError(f"{where}: paytable {shown(entry.paytable)} is both the default "
                           f"(paytable = {shown(entry.paytable)}, the pays of the events) "
                           f"and an alternative ([bet.paytables.{entry.paytable}]): give the "
                           "alternative another name")
    return Bet(id=str(entry.id), name=str(entry.id if entry.name is None else entry.name),
               events=tuple(events), paytable=str(entry.paytable), alternatives=alternatives,
               description=str(entry.description), source=label, group=str(entry.group))


def _event(where: str, entry: EventEntry, known: frozenset[str],
           types: Mapping[str, tuple[type, ...]], domains: Mapping[str, Feature[Any]]) -> Event:
    where = f"{where}, event {shown(entry.name)}"
    try:
        condition = Expression.parse(entry.when, types=types)
    except ExpressionError as error:
        raise BetFileError(f"{where}: {error}") from None
    pays, gross = Fraction(entry.pays), None if entry.gross is None else Fraction(entry.gross)
    if gross is not None and not (gross > 0 and gross >= pays):
        raise BetFileError(f"{where}: gross {shown(str(gross))} must be a win at least the pays "
                           f"({pays}): "
                           "pays = gross less commission")
    unknown = sorted(condition.names - known)
    if unknown:
        raise BetFileError(f"{where}: unknown feature(s) {shown_all(unknown)}")
    _check_values(where, condition, domains)
    return Event(str(entry.name), condition, pays, gross)


def _plain_id(value: object, where: str) -> str:
    """``value`` if it is an id of :data:`ID_CHARACTERS`, else one BetFileError naming the
    first other character (a Cyrillic 'а' in 'plаyer', an invisible U+200B).

    >>> _plain_id("pl\u0430yer", "mine.toml: bet #1: id")
    Traceback (most recent call last):
    ...
    exact.errors.BetFileError: mine.toml: bet #1: id 'plаyer': holds 'а' (U+0430 CYRILLIC SMALL \
LETTER A): ids are ASCII letters, digits, '-', '_', '.' and '%'
    """
    text = plain_text(value, where, BetFileError)
    other = next((c for c in text if c not in ID_CHARACTERS), None)
    if other is not None:
        name = unicodedata.name(other, "")
        raise BetFileError(f"{where} {shown(text)}: holds {shown(other)} (U+{ord(other):04X}"
                           f"{' ' + name if name else ''}): ids are ASCII letters, digits, "
                           "'-', '_', '.' and '%'")
    return text


def _domains(features: Iterable[str] | Mapping[str, Feature[Any]]) -> dict[str, Feature[Any]]:
    """The features that declare their values (``Feature.domain``), by name: the literals of
    a condition are checked against those (names alone: nothing to check against)."""
    if not isinstance(features, Mapping):
        return {}
    return {name: feature for name, feature in features.items()
            if getattr(feature, "domain", None) is not None}


def _check_values(where: str, condition: Expression, domains: Mapping[str, Feature[Any]]
                  ) -> None:
    """Refuse a literal no feature of ``condition`` can take, a comparison that never holds
    and a condition its comparisons never decide (:mod:`exact.model.literals`)."""
    try:
        check_literals(condition, domains)
    except ExpressionError as error:
        raise BetFileError(f"{where}: {error}") from None


def _bet_at_error(raw: str, message: str) -> str:
    """``"bet 'x': "`` for the bet whose table holds the line a TOML error names, if any.

    >>> _bet_at_error('[[bet]]\\nid = "a"\\nname = ', "Invalid value (at line 3, column 8)")
    "bet 'a': "
    """
    found = re.search(r"at line (\d+)", message)
    if not found:
        return ""
    bet_id = None
    for line in raw.splitlines()[:int(found.group(1))]:
        stripped = line.strip()
        if stripped.startswith("[[bet]]"):
            bet_id = ""
        elif bet_id == "" and (match := re.match(r"""id\s*=\s*["']([^"']+)["']""", stripped)):
            bet_id = match.group(1)
    return f"bet {shown(bet_id)}: " if bet_id else ""


@lru_cache(maxsize=64)
def _shipped_bets(game: Game[Any], path: Path) -> tuple[Bet, ...]:
    """The bets of a file shipped with the package, read once per process (bets are frozen;
    the files of ``--bets`` are read each time, as a user may change them)."""
    return tuple(_bets_of(*_shipped_entries(path), game.features))


@lru_cache(maxsize=64)
def _shipped_entries(path: Path) -> tuple[str, tuple[BetEntry, ...]]:
    return _entries(path, None)


@lru_cache(maxsize=256)
def _shipped_bet(game: Game[Any], path: Path, bet_id: str) -> Bet:
    """One bet of a shipped file, its conditions parsed alone: a fresh run that names its bets
    parses theirs only (the whole of Punto Banco's files is some 10 ms of a 130 ms run)."""
    label, entries = _shipped_entries(path)
    bet, = _bets_of(label, [e for e in entries if e.id == bet_id], game.features)
    return bet


def checked_bets(bets: object, where: str) -> list[Bet]:
    """``bets`` as a list if it is a collection of :class:`Bet`, else a WrongTypeError naming
    ``where`` (a function of the library: bet ids or None failed deep inside)."""
    if isinstance(bets, (str, bytes)) or not isinstance(bets, Iterable):
        raise WrongTypeError(wrong_type(f"{where}: bets must be a list of bets", bets))
    listed = list(bets)
    for bet in listed:
        if not isinstance(bet, Bet):
            raise WrongTypeError(wrong_type(f"{where}: bets must be bets (game_bets(game), "
                                            "load_bets(...))", bet))
    return listed


def game_bets(game: Game[Any], bet_files: Iterable[Path | str] = (),
              only: Collection[str] | None = None) -> list[Bet]:
    """The game's shipped bets followed by the bets of ``bet_files`` (ids must be unique);
    given ``only``, of the shipped bets those of these ids alone (the others' conditions are
    not parsed, and a shipped file after the last of them is not read: shipped ids are
    unique, tests/model/test_bets.py)."""
    expect(game, Game, "game_bets: game must be a game (exact.games.get_game(GAME_ID))")
    bets: list[Bet] = []
    for path in (*game.bet_files, *bet_files):
        if path not in game.bet_files:
            loaded: Sequence[Bet] = load_bets(path, game.features)
        elif only is None:
            loaded = _shipped_bets(game, path)
        elif set(only) <= {bet.id for bet in bets}:
            continue
        else:
            loaded = [_shipped_bet(game, path, entry.id) for entry in
                      _shipped_entries(path)[1] if entry.id in only]
        for bet in loaded:
            earlier = next((b for b in bets if b.id == bet.id), None)
            if earlier is not None:
                raise BetFileError(f"{path}: bet {shown(bet.id)}: duplicate id (already defined "
                                   f"in {earlier.source})")
            bets.append(bet)
    return bets
