"""The command line's parsing: argparse types that read numbers by the one grammar, and a
parser whose refusals are one short line.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

Every option that takes a number reads it by the grammar of :mod:`exact.core.parsing`
(:class:`NumberOption`, a side of a :class:`KeyedOption`, :data:`burn_option`), so a bad
value is one usage line naming the option. :class:`OneLineParser` rewrites argparse's own
refusals (which quote arguments whole and choices as Python reprs) and refuses an option given
twice or two options declared contradictory. The user files and the grammar itself live in
:mod:`exact.core.parsing`; this module only adapts them to argparse.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NoReturn

from exact.core.parsing import (
    QUANTITIES,
    SPACES,
    parse_integer,
    parse_number,
    shown,
    shown_all,
    suggestion,
)
from exact.errors import InputError, UsageError


@dataclass(frozen=True)
class NumberOption:
    """An argparse ``type=`` that reads option ``name`` as ``quantity``; a bad value is one
    usage line naming the option (``argument --decks: '²': not a whole number ...``). The
    parsers mark every option that takes a number so (a test feeds each of them the
    grammar's hard cases).

    >>> number_option("decks", "--decks")("8"), number_option("commission", "--x")("5%")
    (8, Fraction(1, 20))
    """

    quantity: str
    name: str

    def __call__(self, text: str) -> int | Fraction:
        return _option_number(text, self.quantity, self.name, self.name)


def number_option(quantity: str, name: str) -> NumberOption:
    """The ``type=`` of option ``name``, a number of ``quantity`` (:class:`NumberOption`)."""
    return NumberOption(quantity, name)


def _option_number(text: str, quantity: str, where: str, name: str) -> int | Fraction:
    reader = parse_integer if QUANTITIES[quantity].integer else parse_number
    try:
        return reader(text, quantity, where)
    except InputError as error:  # argparse prefixes "argument NAME: " itself
        raise argparse.ArgumentTypeError(str(error).removeprefix(f"{name} ")) from None


@dataclass(frozen=True)
class KeyedOption:
    """An argparse ``type=`` for a repeatable ``KEY=VALUE`` option (``--wager banker=10``,
    ``--trigger dragon-7=4``, ``--seat 3=9S KD``): the pair ``(key, value)``, split at the
    first ``=``, each side stripped and not empty, the side a quantity names read by the
    grammar. Given to :class:`OneLineParser`, the option may be repeated, each key once.

    >>> KeyedOption("--wager", "BET=AMOUNT", value="bet")(" tie = 2.5e-3 ")
    ('tie', Fraction(1, 400))
    >>> KeyedOption("--known", "POSITION=CARD", key="position")("٣=9H")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '٣=9H': position '٣': is not a whole number (ASCII digits \
0-9; e.g. 8)
    """

    name: str
    form: str
    """How the option's argument is written, for messages: ``BET=AMOUNT``."""
    key: str | None = None
    """The quantity of the key, if it is a number (else the key is text)."""
    value: str | None = None
    """The quantity of the value, if it is a number (else the value is text)."""

    def __call__(self, text: str) -> tuple[object, object]:
        key, sep, value = text.partition("=")
        key_name, value_name = (part.lower().replace("_", " ")
                                for part in self.form.split("=", 1))
        if not sep or not key.strip(SPACES) or not value.strip(SPACES):
            raise argparse.ArgumentTypeError(f"{shown(text)}: expected {self.form}")
        return (self._side(text, key, self.key, key_name),
                self._side(text, value, self.value, value_name))

    def _side(self, text: str, side: str, quantity: str | None, what: str) -> object:
        if quantity is None:
            return side.strip(SPACES)
        try:
            return _option_number(side, quantity, what, what)
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentTypeError(f"{shown(text)}: {what} {error}") from None


MAX_USAGE_MESSAGE = 200
"""Characters of an argparse refusal that quotes an argument whole (others are rewritten)."""


_GIVEN = "_exact_options_given"
"""The namespace attribute (removed once parsed) holding the options given, with their values."""


def _given(namespace: argparse.Namespace) -> dict[str, list[Any]]:
    if not hasattr(namespace, _GIVEN):
        setattr(namespace, _GIVEN, {})
    given: dict[str, list[Any]] = getattr(namespace, _GIVEN)
    return given


class _Once(argparse.Action):
    """Mixed into argparse's actions of single-valued options: a second use of the option is
    refused, even with the same value (a command line that says a thing twice was probably
    edited in one place and not the other; stating which one counts would hide that)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        earlier = _given(namespace).setdefault(self.dest, [])
        if earlier and self.option_strings:
            name = option_string or self.option_strings[0]
            twice = "" if self.nargs == 0 else f" ({shown(earlier[0])}, then {shown(values)})"
            raise argparse.ArgumentError(None, f"{name} given twice{twice}: give it once")
        earlier.append(values)
        super().__call__(parser, namespace, values, option_string)  # the store action's


class _OnceStore(_Once, argparse._StoreAction):
    pass


class OldFlag(_OnceStore):
    """``action=OldFlag, old="--table"``: an option whose flag ``old`` (among its
    ``option_strings``) is its old spelling, read as the new one (the longest) with one
    warning line: a flag that meant one thing for one game and another elsewhere keeps
    working while its new name says what it is."""

    def __init__(self, *args: Any, old: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.old = old

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        super().__call__(parser, namespace, values, option_string)
        if option_string == self.old:
            new = max(self.option_strings, key=len)
            warnings.warn(f"{self.old} is the old spelling of {new}", stacklevel=2)


class _OnceConst(_Once, argparse._StoreConstAction):
    pass


class _OnceTrue(_Once, argparse._StoreTrueAction):
    pass


class _OnceFalse(_Once, argparse._StoreFalseAction):
    pass


class _EachOnce(argparse._AppendAction):
    """argparse's ``append``, each value once: ``--bet tie --bet tie`` is refused, and for a
    :class:`KeyedOption` each key (``--trigger tie=1 --trigger tie=2``: which count?)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        earlier = _given(namespace).setdefault(self.dest, [])
        kind = self.type
        keyed = isinstance(kind, KeyedOption)
        key = values[0] if keyed else values
        if key in ((item[0] if keyed else item) for item in earlier):
            name = option_string or self.option_strings[0]
            what = f"{kind.form.split('=')[0].lower()} {shown(key)}" if isinstance(
                kind, KeyedOption) else shown(key)
            raise argparse.ArgumentError(None, f"{name}: {what} given twice: give it once")
        earlier.append(values)
        super().__call__(parser, namespace, values, option_string)


def old_spelling(aliases: Mapping[str, str], option: str) -> Callable[[str], str]:
    """An option's ``type=``: a value spelt the old way (a key of ``aliases``) is read as its
    new spelling, with one warning line (the command line prints it once the run succeeds);
    any other value is kept as typed (for ``choices=`` to check).

    >>> import warnings
    >>> read = old_spelling({"totals": "total"}, "--information")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     read("totals"), read("cards"), str(caught[0].message)
    ('total', 'cards', '--information totals is the old spelling of --information total')
    """
    def read(text: str) -> str:
        new = aliases.get(text)
        if new is None:
            return text
        warnings.warn(f"{option} {text} is the old spelling of {option} {new}", stacklevel=2)
        return new

    read.__name__ = option.lstrip("-")  # argparse names the type in its refusals
    return read


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose refusals are one short :class:`UsageError` line: argparse's
    own quote the user's arguments whole (a 100,000-character value, 100,000 characters
    back) and its choices as Python reprs.

    Every option is given at most once (a single-valued option twice is refused, even with
    the same value), a repeatable one takes each value (or each key of a :class:`KeyedOption`)
    once, and options declared contradictory (:meth:`refuse_together`) are refused together,
    by name.

    >>> parser = OneLineParser(prog="x")
    >>> _ = parser.add_argument("--mode", choices=("fast", "exact"))
    >>> parser.parse_args(["--mode", "slow"])
    Traceback (most recent call last):
    ...
    exact.errors.UsageError: argument --mode: invalid choice 'slow'; choose from fast, exact
    >>> parser.parse_args(["--mode", "fast", "--mode=exact"])
    Traceback (most recent call last):
    ...
    exact.errors.UsageError: --mode given twice ('fast', then 'exact'): give it once
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.contradictions: list[tuple[str, str, str]] = []
        super().__init__(*args, **kwargs)
        for name, action in ((None, _OnceStore), ("store", _OnceStore),
                             ("store_const", _OnceConst), ("store_true", _OnceTrue),
                             ("store_false", _OnceFalse), ("append", _EachOnce)):
            self.register("action", name, action)

    def refuse_together(self, first: str, second: str, why: str) -> None:
        """Options ``first`` and ``second`` (flags, e.g. ``--all``, ``--bet``) contradict each
        other: given together they are refused with one line naming both and ``why``."""
        self.contradictions.append((first, second, why))

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extra = super().parse_known_args(args, namespace)
        given = _given(parsed)
        delattr(parsed, _GIVEN)
        flags = {flag for action in self._actions if action.dest in given
                 for flag in action.option_strings}
        for first, second, why in self.contradictions:
            if first in flags and second in flags:
                self.error(f"{first} and {second} contradict: {why}; give one")
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        # argparse's refusals not rewritten below (an ambiguous abbreviation, a value given to
        # a flag: `--b=VALUE`, `--all=VALUE`) are cut short
        if len(message) > MAX_USAGE_MESSAGE:
            message = message[:MAX_USAGE_MESSAGE] + "…"
        raise UsageError(message)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        # argparse's own refusal of stray arguments quotes them all, whole
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {shown_all(extra)}")
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's refusal of a value outside choices= (an option's, or the command's) quotes
        # the value whole and the choices as reprs; argparse has no public hook for it
        choices = action.choices
        if choices is not None and value not in choices:
            known = [str(choice) for choice in choices]
            raise argparse.ArgumentError(action, f"invalid choice {shown(value)}"
                                                 f"{suggestion([value], known)}; choose from "
                                                 f"{', '.join(known)}")


@dataclass(frozen=True)
class BurnOption:
    """``simulate --burn``: ``first-card``, ``none`` or a number of cards (as its digits),
    the number read as :class:`NumberOption` reads ``quantity``.

    >>> burn_option("none"), burn_option(" 3 "), burn_option("3e1")
    ('none', '3', '30')
    """

    quantity: str = "burn"
    name: str = "--burn"

    def __call__(self, text: str) -> str:
        if text.strip() in ("first-card", "none"):
            return text.strip()
        return str(NumberOption(self.quantity, self.name)(text))


burn_option = BurnOption()
