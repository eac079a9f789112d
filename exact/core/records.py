"""Typed records of the user files, and the one layer that structures a file's TOML into them.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

Every file a user (or the package) hands the toolkit as data (rule files, bet files, table
files, assumptions, published figures) is declared once, as a frozen :class:`FileRecord`: its
keys are the record's fields, its value types their types, its defaults their defaults.
:func:`structure` is the one door from TOML to a record:

1. the file is read and parsed to plain TOML values (:func:`exact.core.parsing.load_toml`:
   floats stay the exact :class:`~decimal.Decimal` written, never a binary float);
2. msgspec checks the shape against the record (a key the record does not declare is refused,
   as is a missing required key, a value of the wrong TOML type or an array past its bound),
   and each field typed by a :class:`Field` (a number of a quantity, a plain name) is read by
   the one number grammar of :mod:`exact.core.parsing`, with its bounds;
3. a refusal is one typed error (the caller's :class:`~exact.errors.ExactError` subclass, an
   :class:`~exact.errors.InputError` subclass for a number) naming the file, the key path and
   the problem: ``mine.toml: bet 'x', event 'a': pays 'lots': is not a number ...``.

A game's loader then builds its own objects from the record, checking only what involves
several keys at once (an alternative paytable naming an event the bet lacks).

>>> class Tag(FileRecord, frozen=True):
...     seat: Seat
...     name: Name = Name("")
>>> structure({"seat": "3"}, Tag, "t.toml", InputError)
Tag(seat=3, name='')
>>> structure({"seat": 3, "nmae": "x"}, Tag, "t.toml", InputError)
Traceback (most recent call last):
...
exact.errors.InputError: t.toml: unknown key(s) 'nmae'; known: name, seat
>>> structure({"seat": 300}, Tag, "t.toml", InputError)
Traceback (most recent call last):
...
exact.errors.InputError: t.toml: seat 300: must be at most 99 (docs: Input limits)
>>> structure({"seat": 3, "name": ["a"]}, Tag, "t.toml", InputError)
Traceback (most recent call last):
...
exact.errors.InputError: t.toml: name: must be text (a TOML string), not an array
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, Self, TypeVar

# msgspec: validates a TOML table against a frozen record in one pass (unknown keys, missing
# keys, types, array bounds) and hands each custom-typed value to the number grammar
import msgspec

from exact.core.parsing import check_keys, parse_integer, parse_number, plain_text, shown
from exact.errors import ExactError, InputError


class FileRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every record of a user file: frozen, keyword-built, no key it does not declare
    (a subclass declares its keys with defaults after those without).

    ``key_word`` names its keys in a refusal (``unknown rule(s) ...``)."""

    key_word: ClassVar[str] = "key"
    key_form: ClassVar[str] = "{}"
    """How a refusal writes one of its keys (``"rule {}"``: ``rule naturals``)."""


R = TypeVar("R", bound=FileRecord)


class Field:
    """A value of a record read by the grammar of :mod:`exact.core.parsing`, not by msgspec:
    a subclass of ``int``, ``Fraction`` or ``str`` whose :meth:`read` takes a raw TOML value
    (text, an int, an exact Decimal) and returns the value or raises ``error`` (the file's)
    naming ``where``. Its instances pickle, print and compare as the plain value."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        raise NotImplementedError


class WholeNumber(int, Field):
    """A whole number of :attr:`quantity` (:data:`exact.core.parsing.QUANTITIES`)."""

    quantity: ClassVar[str]

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        quantity: str = cls.quantity
        return cls(parse_integer(value, quantity, where, number_error))

    def __reduce__(self) -> tuple[type[int], tuple[int]]:
        return int, (int(self),)


class Number(Fraction, Field):
    """An exact number of :attr:`quantity` (:data:`exact.core.parsing.QUANTITIES`): an int,
    a fraction such as ``"1/3"``, a decimal; never a binary float."""

    quantity: ClassVar[str]

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        quantity: str = cls.quantity
        number = parse_number(value, quantity, where, number_error)
        return cls(number.numerator, number.denominator)

    def __repr__(self) -> str:
        return f"Fraction({self.numerator}, {self.denominator})"

    def __reduce__(self) -> tuple[type[Fraction], tuple[int, int]]:
        return Fraction, (self.numerator, self.denominator)


class Name(str, Field):
    """A name or id: plain one-line text (:func:`exact.core.parsing.plain_text`)."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        lines = issubclass(cls, Text)
        return cls(plain_text(value, where, error, lines=lines))

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)


class Text(Name):
    """A description: plain text that may hold line breaks and tabs."""


# the quantities the files hold (bounds: exact.core.parsing.QUANTITIES)
class Decks(WholeNumber):
    quantity = "decks"


class Jokers(WholeNumber):
    quantity = "jokers"


class Total(WholeNumber):
    quantity = "total"


class TotalKey(Total):
    """A baccarat total as the key of a table (``[win_pays_by_total]``, a Banker total's row):
    one digit 0-9 (TOML's ``9`` and ``"9"`` are one key), or an int 0-9 from the library.
    ``"09"``, ``" 9"`` or ``"+9"`` is no total key: a second spelling of 9 beside ``9`` would
    lose one of the two values without a word."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9:
            return cls(value)
        if isinstance(value, str) and len(value) == 1 and value in "0123456789":
            return cls(int(value))
        if isinstance(value, str):
            parse_integer(value, "total", where, number_error)  # the grammar's own refusal
        raise error(f"{where} {shown(value)}: a total is one digit 0-9, written once")


class TotalRow(TotalKey):
    """A baccarat total as the key of a table of rows (a Banker total's row of a House Way):
    a key other than ``0`` to ``9`` is refused as an unknown total, the known ones listed."""

    keys: ClassVar[tuple[str, ...]] = tuple("0123456789")


class Seat(WholeNumber):
    quantity = "table-seat"


class Circle(WholeNumber):
    quantity = "circle"


class TableNumber(WholeNumber):
    quantity = "table-tag"


class Pays(Number):
    quantity = "pays"


class Money(Number):
    quantity = "bet"


class Fee(Number):
    quantity = "fee"


class Commission(Number):
    quantity = "commission"


def _hook(kind: type, value: object) -> object:
    if isinstance(kind, type) and issubclass(kind, Field):
        # the message is rewritten with the key path once msgspec has found it
        return kind.read(value, "value", InputError, InputError)
    raise NotImplementedError(kind)


def structure(raw: object, record: type[R], source: str, error: type[ExactError],
              number_error: type[InputError] | None = None) -> R:
    """``raw`` (a file's TOML table) as a ``record``; ``source`` names the file in a refusal,
    one ``error`` (a number's: ``number_error``, by default ``error`` if it is an InputError,
    else InputError)."""
    numbers = number_error or (error if issubclass(error, InputError) else InputError)
    try:
        return msgspec.convert(raw, record, strict=True, dec_hook=_hook)
    except msgspec.ValidationError as failure:
        raise _refusal(failure, raw, record, [("file", source)], error, numbers) from None


Where = list[tuple[str, str]]
"""A key path as parts ``(kind, text)``: the ``file``, a ``table`` (a section of the file), an
``entry`` of an array or table (``bet 'x'``) and a ``key`` (``rule naturals``)."""

_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[\.\.\.\]")
_KINDS = {"str": "text (a TOML string)", "int": "a whole number", "bool": "true or false",
          "array": "an array", "object": "a table", "float": "a number",
          "decimal": "a number", "null": "nothing", "datetime": "a date or time",
          "date": "a date or time", "time": "a date or time"}


def _kind(name: str) -> str:
    return " or ".join(dict.fromkeys(_KINDS.get(part.strip("` "), part.strip("` "))
                                     for part in name.split("|") if part.strip() != "null"))


def _refusal(failure: msgspec.ValidationError, raw: object, kind: object, where: Where,
             error: type[ExactError], numbers: type[InputError]) -> ExactError:
    """The one-line error of a refusal by msgspec, its path turned into the file's keys (see
    :func:`_label`); a value that a :class:`Field` reads is read again with that path, for
    the grammar's own message."""
    message, _, path = str(failure).partition(" - at `")
    path = path.rstrip("`")
    key_error = path.startswith("key` in `")
    if key_error:
        path = path.removeprefix("key` in `")
    steps = list(_STEP.finditer(path.removeprefix("$")))
    naming = False  # the last step is an entry whose naming key (its id or name) is refused
    form = "{}"  # how the record holding the last key writes its keys
    for position, step in enumerate(steps):
        field, index = step.group(1), step.group(2)
        if field is not None:
            record = _record_class(kind)
            form = record.key_form if record is not None else "{}"
            raw = raw.get(field) if isinstance(raw, Mapping) else None
            kind = _field_type(kind, field)
            if _is_array_of_tables(kind) and not (
                    isinstance(raw, list) and all(isinstance(item, Mapping) for item in raw)):
                # ``seat = 3`` or ``[1, 2]`` where ``[[seat]]`` entries belong: the shape, once
                return error(f"{_label(where)}: [[{field}]] must be a list of tables")
            if naming:  # ``event name '...'``: the entry has no name to show
                where = [*where[:-1], ("entry", f"{where[-1][1]} {field}")]
            elif _is_table(kind) and where[-1][0] != "entry":
                where = [*where, ("table", field)]
            elif _holds_tables(raw):
                where = [*where, ("key", field)]  # its entries are named after it
            else:
                where = [*where, ("key", form.format(field))]
            naming = False
        elif index is not None:
            raw = raw[int(index)] if isinstance(raw, list) else None
            kind = _item_type(kind)
            following = steps[position + 1].group(1) if position + 1 < len(steps) else None
            naming = following is not None and following == _naming_key(raw)
            if isinstance(raw, Mapping):  # a table in an array; a value's label is its array's
                where = _entry(where, "") if naming else _name_entry(where, raw, int(index))
        else:  # a value of a table of tables (msgspec does not say which): find it
            return _in_table(raw, kind, where, error, numbers)
    rows = _field_class(typing.get_args(_plain(kind))[0]) if key_error and \
        typing.get_args(_plain(kind)) else None
    known: tuple[str, ...] = getattr(rows, "keys", ())
    if rows is not None and isinstance(raw, Mapping) and known:
        try:  # a table of rows: ``[house_way.banker_draws_on_player_third]: unknown total(s)``
            check_keys({str(key): None for key in raw}, known, _label(where), error, "total")
        except ExactError as refused:
            return refused
    if key_error:  # a key of a table: ``rule win_pays_by_total key '09'``
        if where[-1][0] == "table":
            where = [*where[:-1], ("key", form.format(where[-1][1]))]
        return _bad_key(raw, kind, where, error, numbers)
    return _explain(message, raw, kind, where, error, numbers)


def _explain(message: str, raw: object, kind: object, where: Where,
             error: type[ExactError], numbers: type[InputError]) -> ExactError:
    label = _label(where)
    field = _field_class(kind)
    if field is not None:
        try:
            field.read(raw, label, error, numbers)
        except ExactError as refused:
            return refused
    record = _record_class(kind)
    if message.startswith("Object contains unknown field") and record is not None \
            and isinstance(raw, Mapping):
        try:
            check_keys(raw, record.__struct_fields__, label, error, record.key_word)
        except ExactError as refused:
            return refused
    if message.startswith("Object missing required field") and record is not None:
        given = raw if isinstance(raw, Mapping) else {}
        missing = [info.encode_name for info in msgspec.structs.fields(record)
                   if info.required and info.encode_name not in given]
        return error(f"{label}: missing {', '.join(sorted(missing))}")
    if message.startswith("Invalid enum value") and typing.get_origin(_plain(kind)) is \
            typing.Literal:
        choices = ", ".join(map(str, typing.get_args(_plain(kind))))
        return error(f"{label} must be one of {choices}; got {shown(raw)}")
    if (found := re.match(r"Expected `(.*)`, got `(.*)`", message)) is not None:
        return error(f"{label} must be {_kind(found.group(1))}, not {_kind(found.group(2))}")
    if (found := re.match(r"Expected `(\w+)` of length ([<>]=) ([0-9]+)", message)) is not None:
        size = len(raw) if isinstance(raw, list | dict) else 0
        bound = int(found.group(3))
        if found.group(2) == ">=":
            return error(f"{label}: needs at least {bound:,} "
                         f"entr{'y' if bound == 1 else 'ies'}")
        return error(f"{label}: {size:,} entries: at most {bound:,} (docs: Input limits)")
    return error(f"{label}: {message}")


def _in_table(raw: object, kind: object, where: Where, error: type[ExactError],
              numbers: type[InputError]) -> ExactError:
    """The refusal of the first value of table ``raw`` (of ``kind``, a ``dict``) that its
    value type refuses (msgspec names no key of a table)."""
    value_kind = _item_type(kind)
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            try:
                msgspec.convert(value, value_kind, strict=True, dec_hook=_hook)
            except msgspec.ValidationError as failure:
                entry = [*where, ("entry", shown(key))] if where[-1][0] == "entry" else \
                    _entry(where, shown(key))
                return _refusal(failure, value, value_kind, entry, error, numbers)
    return error(f"{_label(where)}: malformed")


def _bad_key(raw: object, kind: object, where: Where, error: type[ExactError],
             numbers: type[InputError]) -> ExactError:
    """The refusal of the first key of table ``raw`` that its key type refuses."""
    arguments = typing.get_args(_plain(kind))
    key_kind = arguments[0] if arguments else str
    label = _label(where) + " key"
    if isinstance(raw, Mapping):
        for key in raw:
            try:
                msgspec.convert(key, key_kind, strict=False, dec_hook=_hook)
            except msgspec.ValidationError:
                field = _field_class(key_kind)
                if field is not None:
                    try:
                        field.read(key, label, error, numbers)
                    except ExactError as refused:
                        return refused
                return error(f"{label} {shown(key)}: is not {_kind('int')}")
    return error(f"{label}: malformed")


def _label(where: Where) -> str:
    """``file: bet 'x', event 'a': pays``, ``file: [house_way]: rule player_draws_on_five``:
    the sections of the file as TOML writes their headers, an entry (of an array or a table)
    after an entry following a comma."""
    parts: Where = []
    for kind, text in where:
        if kind == "table" and parts and parts[-1][0] == "table":
            parts[-1] = ("table", f"{parts[-1][1]}.{text}")
        else:
            parts.append((kind, text))
    label = ""
    previous = ""
    for kind, text in parts:
        shown_text = f"[{text}]" if kind == "table" else text
        separator = ", " if kind == previous == "entry" else " " if previous == "table" and \
            kind == "entry" else ": "
        label += (separator if label else "") + shown_text
        previous = kind
    return label


def _entry(where: Where, name: str) -> Where:
    """``where`` with its last key (an array's or table's) made the entry ``name`` of it."""
    _, key = where[-1] if len(where) > 1 else ("key", "entry")
    entry = ("entry", f"{key} {name}".rstrip())
    return [*where[:-1], entry] if len(where) > 1 else [*where, entry]


def _naming_key(entry: object) -> str | None:
    """The key that names an entry of an array in a refusal: its ``id``, else its ``name``."""
    if not isinstance(entry, Mapping):
        return None
    return next((key for key in ("id", "name") if key in entry), None)


def _name_entry(where: Where, entry: object, index: int) -> Where:
    """An array's entry named by its ``id`` or ``name``, else by its place (``entry 2``)."""
    key = _naming_key(entry)
    name = entry[key] if key is not None and isinstance(entry, Mapping) else None
    return _entry(where, shown(name) if isinstance(name, str) and name else f"entry {index + 1}")


def _holds_tables(raw: object) -> bool:
    """Whether ``raw`` is an array of tables (``[[seat]]``, ``table_tags = [{...}]``)."""
    return isinstance(raw, list) and any(isinstance(item, Mapping) for item in raw)


def _is_array_of_tables(kind: object) -> bool:
    """Whether values of ``kind`` are TOML arrays of tables (``[[seat]]``: records)."""
    plain = _plain(kind)
    return typing.get_origin(plain) is tuple and _record_class(_item_type(plain)) is not None


def _is_table(kind: object) -> bool:
    """Whether values of ``kind`` are TOML tables (a record, or a table of values)."""
    plain = _plain(kind)
    return _record_class(plain) is not None or typing.get_origin(plain) is dict


def _plain(kind: object) -> object:
    """``kind`` without ``Annotated`` and without ``None`` of an optional."""
    while typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    arguments = typing.get_args(kind)
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        others = [argument for argument in arguments
              if argument is not type(None) and argument is not msgspec.UnsetType]
        if len(others) == 1:
            return _plain(others[0])
    return kind


def _field_type(kind: object, name: str) -> object:
    record = _record_class(kind)
    if record is None:
        return Any
    hints: dict[str, object] = typing.get_type_hints(record, include_extras=True)
    return hints.get(name, Any)


def _item_type(kind: object) -> object:
    arguments = typing.get_args(_plain(kind))
    return arguments[-1] if arguments and arguments[-1] is not Ellipsis else (
        arguments[0] if arguments else Any)


def _record_class(kind: object) -> type[FileRecord] | None:
    plain = _plain(kind)
    return plain if isinstance(plain, type) and issubclass(plain, FileRecord) else None


def _field_class(kind: object) -> type[Field] | None:
    plain = _plain(kind)
    return plain if isinstance(plain, type) and issubclass(plain, Field) else None


def fields(record: type[FileRecord]) -> tuple[str, ...]:
    """The keys of ``record`` as its file writes them."""
    return record.__struct_fields__
