"""One validated parsing layer for every number a user gives, and one reader for user files.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

Every number typed on the command line or written in a bet, table or rule file is read here:
a small grammar of ASCII text, with bounds chosen per quantity (:data:`QUANTITIES`, the table
the documentation's "Input limits" cites). Nothing a user writes reaches ``Fraction(str)`` or
``int(str)`` unchecked: ``"1e999999999"``, 5,000-digit integers, ``"²"``, ``nan`` and ``1e400``
are one-line :class:`~exact.errors.InputError`\\ s, never a hang or a traceback.
The command line reads its numbers by this grammar through the argparse types of
:mod:`exact.core.options`; the typed records of the user files (:mod:`exact.core.records`)
read theirs through it too.

Grammar (surrounding ASCII spaces ignored; digits are ASCII ``0-9`` only)::

    integer  = [sign] digits                        e.g. 8, -2, +3
    fraction = [sign] digits "/" digits             e.g. 19/20
    decimal  = [sign] (digits ["." [digits]] | "." digits) [("e"|"E") [sign] digits]
                                                    e.g. 0.95, .5, 1e6, 2.5E-3
    percent  = (decimal | fraction) "%"             only where a quantity says so: 5% = 1/20

A number has at most :data:`MAX_DIGITS` digits in all (exponent included) and an exponent of
at most :data:`MAX_EXPONENT` in size; then its value must lie within its quantity's bounds.
A float read from TOML is taken as the exact decimal the file wrote (see :func:`load_toml`).

>>> parse_number("19/20", "pays"), parse_number("0.95", "pays"), parse_number("5%", "target-edge")
(Fraction(19, 20), Fraction(19, 20), Fraction(1, 20))
>>> parse_integer("8", "decks")
8
>>> parse_integer("²", "decks", where="--decks")
Traceback (most recent call last):
...
exact.errors.InputError: --decks '²': is not a whole number (ASCII digits 0-9; e.g. 8)
"""

from __future__ import annotations

import math
import os
import re
import select
import stat
import sys
import time
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from exact.errors import ExactError, InputError, WrongTypeError

MAX_DIGITS = 60
"""Most digits in one number as written (numerator, denominator, decimals and exponent)."""
MAX_EXPONENT = 60
"""Largest exponent of a decimal such as ``1e60`` (in size, either sign)."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest user file (bet, table, rule or seen-cards file, or standard input) read: 4 MiB."""
MAX_CARDS = 10**24
"""Most cards in any shoe: per card or rank in ``--shoe``, and the shoe's total."""
MAX_SIMULATED_DECKS = 1000
"""Most decks in a simulated shoe: ``simulate`` shuffles every card of every shoe."""
MAX_SIMULATED_CARDS = 54 * MAX_SIMULATED_DECKS
"""Most cards in a simulated shoe, jokers and a rule file's shoe included (54,000: 1,000
decks with two jokers each)."""
MAX_SIMULATED_SHOES = 10_000_000
"""Most shoes one simulation plays (days of one core at tens of milliseconds a shoe)."""
MAX_SIMULATED_ROUNDS = 10**11
"""Most rounds of a verification simulation (hours of two cores at millions a second)."""
MONEY = 10**12
"""Largest pay (N to 1), bet size, table limit or collection fee."""


@dataclass(frozen=True)
class Quantity:
    """What a user may give for one kind of number: integer or exact rational, the bounds
    (inclusive; None: unbounded on that side), whether ``%`` may follow, and what it is."""

    minimum: Fraction | int | None
    maximum: Fraction | int | None
    integer: bool = True
    percent: bool = False
    meaning: str = ""


QUANTITIES: dict[str, Quantity] = {
    # shoes
    "decks": Quantity(0, 10**22, meaning="full 52-card decks in a shoe: `--decks`, rule files "
                      "(52 x 10**22 cards: within the largest shoe)"),
    "jokers": Quantity(0, MAX_CARDS, meaning="jokers in a shoe: `--jokers`, rule files"),
    "cards": Quantity(0, MAX_CARDS, meaning="cards of one card or rank in `--shoe`"),
    "simulated-decks": Quantity(1, MAX_SIMULATED_DECKS, meaning="`simulate --decks`"),
    "simulated-cards": Quantity(1, MAX_SIMULATED_CARDS,
                                meaning="cards in a simulated shoe, jokers and a rule file's "
                                "shoe included"),
    "cut": Quantity(0, MAX_SIMULATED_CARDS, meaning="`simulate --cut`: cards behind the cut "
                    "card"),
    "burn": Quantity(0, MAX_SIMULATED_CARDS, meaning="`simulate --burn`: cards burned"),
    # simulation
    "shoes": Quantity(1, MAX_SIMULATED_SHOES, meaning="`simulate --shoes`"),
    "seed": Quantity(0, 2**128 - 1, meaning="`simulate --seed`"),
    "simulated-rounds": Quantity(1, MAX_SIMULATED_ROUNDS,
                                 meaning="rounds of the reports' verification simulation "
                                 "(`EXACT_REPORT_ROUNDS`)"),
    "workers": Quantity(1, 1024, meaning="`simulate --workers` (and at most 4 per core)"),
    "true-count": Quantity(-10**6, 10**6, integer=False,
                           meaning="`simulate --trigger BET=TC`: a true count"),
    # counting
    "depth": Quantity(1, 10**6, meaning="`eor --depth`: cards of each rank removed at a time "
                      "(and at most the fewest of any rank)"),
    "tag": Quantity(-1000, 1000, meaning="`--tags`: a count's tag of one rank"),
    "position": Quantity(1, 1000, meaning="`edge --known`: a card's position in the next round"),
    # money and pays
    "pays": Quantity(0, MONEY, integer=False,
                     meaning="a pay, N to 1 (bet, table and rule files)"),
    # the sign of a bet is checked where it is used, with its own message
    "bet": Quantity(-MONEY, MONEY, integer=False,
                    meaning="a bet size, wager or table limit (`--bet-size`, `settle --wager` "
                    "and `--dealer-wager`, rule and table files; a wager must be positive)"),
    "fee": Quantity(0, MONEY, integer=False, meaning="a collection fee (`--collection`, rules)"),
    "commission": Quantity(0, Fraction(1, 10), integer=False, percent=True,
                           meaning="a commission on Banker wins (`--commission`, rule files)"),
    "target-edge": Quantity(-1, 1, integer=False, percent=True,
                            meaning="`design --target-edge`: a house edge, fraction of the bet"),
    # games
    "table-players": Quantity(1, 10**6, meaning="players at a table of seats (`--players`, "
                              "`--seats`)"),
    "total": Quantity(0, 9, meaning="a baccarat total (a key in a rule file)"),
    "table-seat": Quantity(1, 99, meaning="a seat at a table of seats (`settle --seat`, "
                           "`--wager SEAT.CIRCLE=...`, `--dice`, table files)"),
    "circle": Quantity(1, 3, meaning="a circle of a seat: 1 the seated player, 2 and 3 "
                       "backline (`settle --wager SEAT.CIRCLE=...`, table files)"),
    "table-tag": Quantity(1, 1000, meaning="`table =` of a table file: which table tag of the "
                          "rules (1 = the first)"),
}


def quantities_table() -> str:
    """:data:`QUANTITIES` as the Markdown table of the page "Input limits"
    (docs/explanation/input-limits.md; a test checks that the page holds exactly this text).

    >>> print(quantities_table().splitlines()[2])
    | `decks` | 0 | `10**22` | whole number | full 52-card decks in a shoe: `--decks`, rule \
files (52 x 10**22 cards: within the largest shoe) |
    """
    lines = ["| Quantity | Least | Largest | Kind | Where |", "|---|---|---|---|---|"]
    for name, spec in QUANTITIES.items():
        low, high = (f"`{_bound(b)}`" if "*" in _bound(b) else _bound(b)
                     for b in (spec.minimum, spec.maximum))
        kind = "whole number" if spec.integer else "number, or percent" if spec.percent \
            else "number"
        lines.append(f"| `{name}` | {low} | {high} | {kind} | {spec.meaning} |")
    return "\n".join(lines)

_INTEGER = re.compile(r"([+-]?)([0-9]+)", re.ASCII)
_FRACTION = re.compile(r"([+-]?)([0-9]+)/([0-9]+)", re.ASCII)
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?)([0-9]+))?", re.ASCII)
SPACES = " \t"
"""The spaces the grammar ignores around a value (ASCII space and tab, nothing else)."""


def shown(text: object, limit: int = 40) -> str:
    """``repr`` of user text, cut short so that an error message stays one short line.

    >>> shown("9" * 100)
    "'999999999999999999999999999999999999…' (100 characters)"
    """
    if isinstance(text, str) and len(text) > limit:
        return repr(text[:limit - 4] + "…") + f" ({len(text)} characters)"
    if isinstance(text, int) and not isinstance(text, bool) and text.bit_length() > 200:
        return f"a {_int_digits(text)}-digit integer"
    result = repr(text) if not isinstance(text, Decimal) else repr(str(text))
    return result if len(result) <= limit + 2 else result[:limit] + "…"


PATH_SHOWN = 160
"""Most characters of a file name an error message quotes (a real path is rarely longer; a
hostile one can be 100,000 characters, refused by the system as too long)."""


def wrong_type(what: str, value: object) -> str:
    """The end of a :class:`~exact.errors.WrongTypeError`'s message: ``"{what}, not {type}
    {value}"``.

    >>> wrong_type("shoe must be a Shoe", None)
    'shoe must be a Shoe, not NoneType None'
    """
    return f"{what}, not {type(value).__name__} {shown(value)}"


def expect(value: object, kinds: type | tuple[type, ...], what: str) -> None:
    """Nothing if ``value`` is one of ``kinds``, else a :class:`~exact.errors.WrongTypeError`
    (``what``: "analyze: shoe must be a Shoe"): a library function given the wrong type says
    so at its door, not with an AttributeError from deep inside.

    >>> expect(None, str, "Shoe.parse: text must be text")
    Traceback (most recent call last):
    ...
    exact.errors.WrongTypeError: Shoe.parse: text must be text, not NoneType None
    """
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in
                                         (kinds if isinstance(kinds, tuple) else (kinds,))):
        raise WrongTypeError(wrong_type(what, value))


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name as one short line of text: as given when it is printable and not too long,
    else quoted with its control characters escaped (a newline in a name), and cut short.

    >>> shown_path("out.json"), shown_path("a\\nb.txt")
    ('out.json', "'a\\\\nb.txt'")
    >>> shown_path("/" * 1000).endswith("…' (1000 characters)"), len(shown_path("/" * 1000))
    (True, 177)
    """
    text = os.fspath(path)
    if len(text) > PATH_SHOWN:
        return shown(text, PATH_SHOWN)
    return repr(text) if not text.isprintable() else text


def _int_digits(value: int) -> int:
    """Decimal digits of ``abs(value)`` without converting it to text (no int-to-str limit)."""
    bits = abs(value).bit_length()
    estimate = max(1, int(bits * math.log10(2)))
    return estimate + int(abs(value) >= 10**estimate)


def _label(quantity: str, where: str | None) -> str:
    return where or quantity


def _check(value: Fraction, quantity: str, where: str | None, raw: object,
           error: type[InputError]) -> Fraction:
    spec = QUANTITIES[quantity]
    label = _label(quantity, where)
    if spec.integer and value.denominator != 1:
        raise error(f"{label} {shown(raw)}: is not a whole number")
    if spec.minimum is not None and value < spec.minimum:
        raise error(f"{label} {shown(raw)}: " + ("is negative (must be at least 0)"
                                                 if spec.minimum == 0
                                                 else f"must be at least {_bound(spec.minimum)}"))
    if spec.maximum is not None and value > spec.maximum:
        raise error(f"{label} {shown(raw)}: must be at most {_bound(spec.maximum)} "
                    "(docs: Input limits)")
    return value


def _bound(value: Fraction | int | None) -> str:
    """A bound as a reader takes it in: ``10**24`` rather than 25 digits, ``1,000`` grouped.

    >>> _bound(10**24), _bound(2**128 - 1), _bound(54_000), _bound(-10**12), _bound(Fraction(1))
    ('10**24', '2**128 - 1', '54,000', '-10**12', '1')
    """
    if value is None:  # a quantity bounded on one side only
        return "none"
    if isinstance(value, int) and abs(value) > 10**7:
        sign, size = "-" * (value < 0), abs(value)
        for base in (10, 2):
            power = round(math.log(size + 1, base))
            if base**power in (size, size + 1):
                return f"{sign}{base}**{power}" + (" - 1" if base**power == size + 1 else "")
    if isinstance(value, Fraction) and value.denominator != 1:
        return str(value)
    return f"{int(value):,}"


def _from_text(text: str, quantity: str, where: str | None,
               error: type[InputError]) -> Fraction:
    spec = QUANTITIES[quantity]
    label = _label(quantity, where)
    body = text.strip(SPACES)
    scale = Fraction(1)
    if spec.percent and body.endswith("%"):
        body, scale = body[:-1].rstrip(SPACES), Fraction(1, 100)
    if not body:
        raise error(f"{label} is empty: give a value, or leave the option out" if
                    label.startswith("-") else f"{label} is empty: a number is needed")
    if body.lstrip("+-").lower() in ("nan", "inf", "infinity"):
        raise error(f"{label} {shown(text)}: is not a number (not finite)")
    if sum(c.isdigit() for c in body) > MAX_DIGITS:
        raise error(f"{label} {shown(text)}: more than {MAX_DIGITS} digits "
                         "(docs: Input limits)")
    kind = "whole number" if spec.integer else "number"
    example = "e.g. 8" if spec.integer else "e.g. 0.05, 1/20 or 5%" if spec.percent else \
        "e.g. 2, 0.95 or 19/20"
    if (match := _INTEGER.fullmatch(body)) is not None:
        value = Fraction(int(match.group(2)))
        sign = match.group(1)
    elif (match := _FRACTION.fullmatch(body)) is not None and not spec.integer:
        if int(match.group(3)) == 0:
            raise error(f"{label} {shown(text)}: division by zero")
        value = Fraction(int(match.group(2)), int(match.group(3)))
        sign = match.group(1)
    elif (match := _DECIMAL.fullmatch(body)) is not None and (match.group(2) or match.group(3)):
        whole, decimals = match.group(2), match.group(3) or ""
        exponent = int(match.group(5) or 0) * (-1 if match.group(4) == "-" else 1)
        if abs(exponent) > MAX_EXPONENT:
            raise error(f"{label} {shown(text)}: exponent beyond {MAX_EXPONENT} "
                             "(docs: Input limits)")
        value = Fraction(int(whole + decimals or "0"), 10**len(decimals)) * Fraction(10)**exponent
        sign = match.group(1)
    else:
        raise error(f"{label} {shown(text)}: is not a {kind} (ASCII digits 0-9; {example})")
    return (-value if sign == "-" else value) * scale


def parse_number(value: object, quantity: str, where: str | None = None,
                 error: type[InputError] = InputError) -> Fraction:
    """The exact value of a number a user gave for ``quantity`` (a key of :data:`QUANTITIES`):
    text of the grammar above, or an int, float or Decimal read from a TOML file. ``where``
    names it in the error (an option, or file, bet and key; by default the quantity's name),
    an ``error``: :class:`~exact.errors.InputError` or a subclass (e.g. also a BetFileError).

    >>> parse_number(0.95, "pays"), parse_number(Decimal("1e-3"), "bet")
    (Fraction(19, 20), Fraction(1, 1000))
    >>> parse_number("1e999999999", "pays", where="bets.toml: bet 'x', event 'y': pays")
    Traceback (most recent call last):
    ...
    exact.errors.InputError: bets.toml: bet 'x', event 'y': pays '1e999999999': exponent \
beyond 60 (docs: Input limits)
    """
    label = _label(quantity, where)
    if quantity not in QUANTITIES:
        raise KeyError(quantity)
    if isinstance(value, bool) or value is None:
        raise error(f"{label} {shown(value)}: is not a number")
    if isinstance(value, int):
        if _int_digits(value) > MAX_DIGITS:
            raise error(f"{label} {shown(value)}: more than {MAX_DIGITS} digits "
                             "(docs: Input limits)")
        number = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise error(f"{label} {value!r}: is not a number (not finite)")
        # repr is the shortest text that reads back as this float: what the user wrote
        number = _from_text(repr(value), quantity, where, error)
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise error(f"{label} {shown(value)}: is not a number (not finite)")
        number = _from_text(str(value), quantity, where, error)
    elif isinstance(value, Fraction):
        if max(_int_digits(value.numerator), _int_digits(value.denominator)) > MAX_DIGITS:
            raise error(f"{label}: more than {MAX_DIGITS} digits (docs: Input limits)")
        number = value
    elif isinstance(value, str):
        number = _from_text(value, quantity, where, error)
    else:
        raise error(f"{label} {shown(value)}: is not a number")
    return _check(number, quantity, where, value, error)


def parse_integer(value: object, quantity: str, where: str | None = None,
                  error: type[InputError] = InputError) -> int:
    """A whole number for ``quantity`` (see :func:`parse_number`).

    >>> parse_integer(" 14 ", "cut"), parse_integer("-2", "tag")
    (14, -2)
    >>> parse_integer("1.5", "decks", where="--decks")
    Traceback (most recent call last):
    ...
    exact.errors.InputError: --decks '1.5': is not a whole number
    """
    if not QUANTITIES[quantity].integer:
        raise KeyError(f"{quantity} is not a whole-number quantity")
    return int(parse_number(value, quantity, where, error))


LAST_EPOCH = 253_402_300_799
"""The last second of the year 9999: the largest ``SOURCE_DATE_EPOCH`` a date can show."""


def source_date_epoch(error: type[ExactError]) -> int | None:
    """``SOURCE_DATE_EPOCH`` (the date reproducible builds stamp on what they write), or None
    if it is unset; anything but ASCII digits up to :data:`LAST_EPOCH` is one ``error``
    (``int()`` took Arabic-Indic digits, and a negative or huge value failed later, as a
    ValueError traceback from the date it made).

    >>> import os
    >>> os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    >>> source_date_epoch(InputError)
    1700000000
    >>> os.environ["SOURCE_DATE_EPOCH"] = "-99999999999999"
    >>> source_date_epoch(InputError)
    Traceback (most recent call last):
    ...
    exact.errors.InputError: SOURCE_DATE_EPOCH '-99999999999999': must be a Unix time, 0 to \
253,402,300,799 (ASCII digits)
    >>> del os.environ["SOURCE_DATE_EPOCH"]
    """
    text = os.environ.get("SOURCE_DATE_EPOCH")
    if not text:
        return None
    digits = text.strip(SPACES)
    if not (digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) <= 12
            and int(digits) <= LAST_EPOCH):
        raise error(f"SOURCE_DATE_EPOCH {shown(text)}: must be a Unix time, 0 to "
                    f"{LAST_EPOCH:,} (ASCII digits)")
    return int(digits)


# --- user files ---------------------------------------------------------------------------------
MAX_KEYS_SHOWN = 5
"""Most unknown keys one refusal names; the rest are counted (a file can hold a million)."""


def check_keys(table: Mapping[Any, object], known: Iterable[str], where: str,
               error: type[ExactError], what: str = "key") -> None:
    """Refuse a table of a user file that holds a key outside ``known``: a misspelt optional
    key (``comission``) would otherwise leave its default silently in force. The one-line
    ``error(...)`` (the caller's type) names the unknown keys, sorted and each cut short by
    :func:`shown`, and lists the known ones.

    >>> check_keys({"id": "x", "nmae": "y"}, {"id", "name"}, "bets.toml: bet 'x'", InputError)
    Traceback (most recent call last):
    ...
    exact.errors.InputError: bets.toml: bet 'x': unknown key(s) 'nmae'; known: id, name
    """
    allowed = frozenset(known)
    unknown = sorted((key for key in table if key not in allowed), key=str)
    if not unknown:
        return
    raise error(f"{where}: unknown {what}(s) {shown_all(unknown)}; "
                f"known: {', '.join(sorted(allowed))}")


# Characters a name from a user file must not hold: they reach the terminal in every table
# printed (an escape sequence can clear the screen, retitle the window or write the clipboard,
# U+202E reverses the text after it), so they are refused where the file is read.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")
_TOML_KINDS = {bool: "true/false", int: "a number", Decimal: "a number", list: "an array",
               dict: "a table"}


NAME_LONGEST = 200
"""Most characters of a name or id in a user file (the shipped files' longest is about 50): it
is printed with every table, so a 3 MB name would flood each one."""

DESCRIPTION_LONGEST = 5_000
"""Most characters of a description (text with line breaks; the shipped longest is about 200)."""


def plain_text(value: object, where: str, error: type[ExactError] = InputError, *,
               lines: bool = False) -> str:
    """``value`` (a name, id or description from a user file) if it is text without control
    characters (line breaks and tabs allowed when ``lines``) or bidirectional overrides and at
    most :data:`NAME_LONGEST` characters (:data:`DESCRIPTION_LONGEST` when ``lines``), else
    one ``error`` naming ``where``. A table or array was once taken as its Python repr.

    >>> plain_text("Dragon 7", "bets.toml: bet 'x': name")
    'Dragon 7'
    >>> plain_text("\\x1b[2J", "bets.toml: bet 'x': name")
    Traceback (most recent call last):
    ...
    exact.errors.InputError: bets.toml: bet 'x': name '\\x1b[2J': holds the control character \
U+001B (names are plain text)
    >>> plain_text(["a"], "rules.toml: name")
    Traceback (most recent call last):
    ...
    exact.errors.InputError: rules.toml: name: must be text (a TOML string), not an array
    >>> plain_text("x" * 201, "rules.toml: name")
    Traceback (most recent call last):
    ...
    exact.errors.InputError: rules.toml: name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (201 \
characters): at most 200 characters
    """
    if not isinstance(value, str):
        kind = _TOML_KINDS.get(type(value), "a date or time")
        raise error(f"{where}: must be text (a TOML string), not {kind}")
    longest = DESCRIPTION_LONGEST if lines else NAME_LONGEST
    if len(value) > longest:
        raise error(f"{where} {shown(value)}: at most {longest:,} characters")
    for character in value:
        if lines and character in "\n\t":
            continue
        if (character in BIDI_CONTROLS
                or unicodedata.category(character) in ("Cc", "Zl", "Zp", "Cs")):
            raise error(f"{where} {shown(value)}: holds the control character "
                        f"U+{ord(character):04X} (names are plain text)")
    return value


def shown_all(items: Sequence[object]) -> str:
    """The first :data:`MAX_KEYS_SHOWN` of ``items``, each by :func:`shown`, the rest counted:
    a refusal naming every bad value of a user (a million of them) stays one short line.

    >>> shown_all(["a", "b" * 50, "c", "d", "e", "f", "g"])
    "'a', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…' (50 characters), 'c', 'd', 'e' and 2 more"
    """
    more = len(items) - MAX_KEYS_SHOWN
    return ", ".join(shown(item) for item in items[:MAX_KEYS_SHOWN]) + (
        f" and {more} more" if more > 0 else "")


MAX_READ_SECONDS = 30.0
"""Longest wait for a user file that is not a regular file (a FIFO, ``<(command)``, a
terminal) to be written whole: a FIFO no program ever writes would otherwise hang the run."""


def read_user_file(path: Path | str, what: str, error: type[Exception] = InputError) -> str:
    """The text of a file a user gave (``what``: "bet file", "rules", ...), read as UTF-8 (a
    leading byte-order mark is dropped), at most :data:`MAX_FILE_BYTES` bytes, and, from
    anything but a regular file (a FIFO, a shell's ``<(command)``), within
    :data:`MAX_READ_SECONDS`. Anything else is one line: ``error(f"{path}: cannot read
    {what}: ...")``.

    >>> read_user_file("/nonexistent.toml", "bet file")
    Traceback (most recent call last):
    ...
    exact.errors.InputError: /nonexistent.toml: cannot read bet file: No such file or directory
    """
    prefix = f"{shown_path(path)}: cannot read {what}"
    try:
        # O_NONBLOCK: opening a FIFO waits for a writer, maybe forever; a regular file
        # ignores the flag
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(handle, "rb") as stream:
            if stat.S_ISREG(os.fstat(handle).st_mode):
                os.set_blocking(handle, True)
                data = stream.read(MAX_FILE_BYTES + 1)
            else:
                data = _read_within(handle, prefix, error)
    except OSError as failure:
        raise error(f"{prefix}: {failure.strerror or failure}") from None
    return _decoded(data, prefix, error)


def _read_within(handle: int, prefix: str, error: type[Exception]) -> bytes:
    """At most :data:`MAX_FILE_BYTES` + 1 bytes of a non-blocking ``handle``, until its end,
    within :data:`MAX_READ_SECONDS`."""
    deadline = time.monotonic() + MAX_READ_SECONDS
    chunks: list[bytes] = []
    size = 0
    poller = select.poll()
    poller.register(handle, select.POLLIN)
    while size <= MAX_FILE_BYTES:
        left = deadline - time.monotonic()
        # a FIFO no one has opened for writing yet is not readable (Linux reports no hang-up
        # before a writer came): the wait ends at the deadline
        if left <= 0 or not poller.poll(left * 1000):
            raise error(f"{prefix}: not written whole within {MAX_READ_SECONDS:g} s (a FIFO "
                        "that no program writes?)")
        try:
            chunk = os.read(handle, min(65536, MAX_FILE_BYTES + 1 - size))
        except BlockingIOError:
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_standard_input(what: str, error: type[Exception] = InputError) -> str:
    """Standard input read like a user file (:func:`read_user_file`)."""
    prefix = f"standard input: cannot read {what}"
    if not hasattr(sys.stdin, "buffer"):  # a text stream put in its place (tests, notebooks)
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise error(f"{prefix}: larger than {MAX_FILE_BYTES // 2**20} MiB "
                        "(docs: Input limits)")
        return text
    return _decoded(sys.stdin.buffer.read(MAX_FILE_BYTES + 1), prefix, error)


def _decoded(data: bytes, prefix: str, error: type[Exception]) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{prefix}: larger than {MAX_FILE_BYTES // 2**20} MiB "
                    "(docs: Input limits)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as failure:
        line = data.count(b"\n", 0, failure.start) + 1
        raise error(f"{prefix}: not UTF-8 text (byte 0x{data[failure.start]:02x} on line "
                    f"{line})") from None


# tomllib's memory grows with the square of a dotted key's parts (``a.a.a... = 1``: 20,000 parts,
# a 40 kB file, take 1.6 GB; a 4 MiB file would take terabytes), so a key of more parts is refused
# before it is parsed. A key starts a line or follows ``[``, ``{`` or ``,`` (a value does not): one
# pass, each part matched once (possessive).
MAX_KEY_PARTS = 200
_LONG_DOTTED_KEY = re.compile(
    r"(?:^|(?<=[\[{,]))[ \t]*+(?:(?:[A-Za-z0-9_-]++|\"(?:[^\"\\\n]|\\.)*+\"|'[^'\n]*+')"
    rf"[ \t]*+\.[ \t]*+){{{MAX_KEY_PARTS}}}", re.MULTILINE)


def load_toml(text: str) -> dict[str, object]:
    """The table of a TOML text, its floats as exact :class:`~decimal.Decimal`\\ s (the digits
    written, for :func:`parse_number`). Every failure, including integers past Python's
    int-to-text limit, nesting too deep and a dotted key of more than :data:`MAX_KEY_PARTS`
    parts, is a :class:`tomllib.TOMLDecodeError`.

    >>> load_toml("pays = 0.95")
    {'pays': Decimal('0.95')}
    >>> load_toml("a" + ".a" * 300 + " = 1")
    Traceback (most recent call last):
    ...
    tomllib.TOMLDecodeError: a dotted key of more than 200 parts (line 1)
    """
    long_key = _LONG_DOTTED_KEY.search(text)
    if long_key:
        line = text.count("\n", 0, long_key.start()) + 1
        raise tomllib.TOMLDecodeError(f"a dotted key of more than {MAX_KEY_PARTS} parts "
                                      f"(line {line})")
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        raise
    except (ValueError, RecursionError, MemoryError) as failure:
        message = str(failure).split("\n")[0][:120] or type(failure).__name__
        if "integer string conversion" in message:  # Python's int-to-text limit, 4300 digits
            message = "an integer of thousands of digits"
        elif isinstance(failure, RecursionError):
            message = "nested too deeply"
        raise tomllib.TOMLDecodeError(message) from None


def suggestion(names: Sequence[object], known: Iterable[str]) -> str:
    """`` (did you mean ...?)`` naming the known id nearest each misspelt name (difflib's ratio
    at least 0.6), or ``""``: a clause for a refusal to put after the names it refuses. Names
    longer than 100 characters get none (no id is, and comparing them would cost for nothing).

    >>> suggestion(["dragon7", "tei"], ["dragon-7", "panda-8", "tie"])
    " (did you mean 'dragon-7', 'tie'?)"
    >>> suggestion(["zzz"], ["tie"])
    ''
    """
    import difflib

    choices = sorted(set(known))
    found: list[str] = []
    for name in names[:MAX_KEYS_SHOWN]:
        if isinstance(name, str) and len(name) <= 100:
            found += difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    unique = list(dict.fromkeys(found))
    return f" (did you mean {shown_all(unique)}?)" if unique else ""
