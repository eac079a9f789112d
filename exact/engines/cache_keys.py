"""The disk cache's keys: what decides an entry, as one canonical text.

Layer: engines, above the model; the engines know no game (the games call them).

An entry's key (:class:`Key`, made by :func:`cache_key`) is its kind (the engine that wrote
it) and the canonical text of everything that decides its numbers: JSON of nested lists of
text, integers, booleans and nulls, so that no two different keys have one text (a ``|`` or a
newline in an event name or a condition is a character of a JSON string, not a separator).
It holds the cache format, the toolkit version, the kind, and what the kind's maker gives:
the game (its id, class and every line of its rules), the needs or cards the entry covers,
and each bet's events, each by its name and the canonical form of its parsed condition
(:func:`exact.model.expressions.canonical_form`: two conditions differing only in a comment,
spacing or brackets share an entry; any other difference, a string literal's text included,
does not). Pays never enter a key (they are applied after the counts).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from exact import __version__
from exact.model.expressions import canonical_form


# What a key reads of a bet, as protocols: every engine's bets (exact.model.bets.Bet) and the
# light form's alike.
class _Condition(Protocol):
    @property
    def tree(self) -> ast.expr: ...


class _Event(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def condition(self) -> _Condition | None: ...


class Bet(Protocol):
    """A bet as a key reads it (:class:`exact.model.bets.Bet` is one)."""

    @property
    def events(self) -> Sequence[_Event]: ...


CACHE_FORMAT = "entry-4"  # enters every key: bump when the layout of an entry or a key changes
KIND = re.compile(r"[a-z][a-z-]*")
"""An entry kind: lower-case letters and dashes (the suffix of its file name)."""


@dataclass(frozen=True)
class Key:
    """An entry's key: its ``kind`` (the engine that wrote it) and ``text``, the canonical text
    of everything that decides it (:func:`cache_key`)."""

    kind: str
    text: str

    @property
    def digest(self) -> str:
        """The SHA-256 (hex) of the text: the entry's file name."""
        return hashlib.sha256(self.text.encode()).hexdigest()


def cache_key(kind: str, parts: Sequence[object]) -> Key:
    """The key of an entry of ``kind`` decided by ``parts`` (with the cache format and the
    toolkit version): its text is canonical JSON of nested lists of text, integers, booleans
    and None (tuples are lists; anything else, a float or an object, is a TypeError: its text
    would not be canonical), so two different keys never share a text.

    >>> key = cache_key("compiled", [["game", "punto-banco"], ["needs", [["draws", "value"]]]])
    >>> key.text.endswith('"compiled",[["game","punto-banco"],["needs",[["draws","value"]]]]]')
    True
    >>> len(key.digest), key.text.startswith(f'["{CACHE_FORMAT}","{__version__}"')
    (64, True)
    >>> cache_key("compiled", ["a|b", "c"]) == cache_key("compiled", ["a", "b|c"])
    False
    """
    if not KIND.fullmatch(kind):
        raise ValueError(f"an entry kind is lower-case letters and dashes, not {kind!r}")
    text = json.dumps([CACHE_FORMAT, __version__, kind, _key_value(parts)], ensure_ascii=True,
                      separators=(",", ":"), allow_nan=False)
    return Key(kind, text)


def _key_value(value: object) -> object:
    """``value`` as JSON of one meaning: checked to hold text, integers, booleans, None and
    lists (or tuples) of them only."""
    if value is None or type(value) in (str, int, bool):
        return value
    if isinstance(value, list | tuple):
        return [_key_value(item) for item in value]
    raise TypeError(f"a cache key holds text, integers, booleans and lists, not "
                    f"{type(value).__name__}")


def bet_part(bet: Bet) -> list[object]:
    """What a key holds of a bet: each event's name and the canonical form of its parsed
    condition (None for the ``otherwise`` event), in order; pays do not enter it."""
    return ["bet", [[event.name, None if event.condition is None
                     else canonical_form(event.condition.tree)] for event in bet.events]]
