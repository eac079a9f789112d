"""The disk cache's keys: what decides an entry, as one canonical text.

Layer: engines, above the model; the engines know no game (the games call them).

An entry's key (:class:`Key`, made by :func:`cache_key`) is its kind (the engine that wrote
it) and the canonical text of everything that decides its numbers: JSON of nested lists of
text, integers, booleans and nulls, so that no two different keys have one text (a ``|`` or a
newline in an event name or a condition is a character of a JSON string, not a separator).
It holds the cache format, the toolkit version, a stamp of the toolkit's files
(:func:`code_stamp`), the kind, and what the kind's maker gives:
the game (its id, class and every line of its rules), the needs or cards the entry covers,
and each bet's events, each by its name and the canonical form of its parsed condition
(:func:`exact.model.expressions.canonical_form`: two conditions differing only in a comment,
spacing or brackets share an entry; any other difference, a string literal's text included,
does not). Pays never enter a key (they are applied after the counts).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from exact import __version__
from exact.core.files import remove_stale_temporaries, replace_atomically
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


CACHE_FORMAT = "entry-5"  # enters every key: bump when the layout of an entry or a key changes
STALE_TEMPORARY_SECONDS = 3600  # a writer's temporary file this old: its writer was killed
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


PACKAGE = Path(__file__).resolve().parents[1]


def cache_directory() -> Path:
    """Where entries are kept: ``$EXACT_CACHE_DIR`` or ``~/.cache/exact``."""
    configured = os.environ.get("EXACT_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "exact"


@cache
def code_stamp(package: Path = PACKAGE) -> str:
    """A digest of the bytes of every file of the toolkit's package (``exact/``, its data
    included, its bytecode not), by relative path, found by the files' status.

    The version alone does not decide an entry: on a checkout, or an installed copy someone
    edits, the code changes under one version, and an entry an earlier code wrote would be
    read as this code's. Reading the bytes takes 20 ms, against 0.5 ms for the files' status
    (relative path, size, modification and change time in nanoseconds), on every run that
    reads the cache: so the digest of the bytes is kept in the cache folder under a digest of
    the status (``code/<status digest>``, 16 hexadecimal digits, nothing else read) and read
    once the status is known. Writing a file's bytes sets its change time to the kernel's clock
    (which no user call can set back; it moves by ticks of a few milliseconds), so code edited
    after a run has another status and its bytes are read anew; a fresh clone or a reinstall
    of the same code reads them once and then shares the entries of that code. (Each state
    of the code leaves one such file of 16 bytes.)

    >>> code_stamp() == code_stamp(PACKAGE) and len(code_stamp())
    16
    """
    files = _files(package)  # one walk: the status and the bytes of the same files
    status = json.dumps([(name, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
                         for name, _, stat in files])
    kept = cache_directory() / "code" / hashlib.sha256(status.encode()).hexdigest()[:32]
    with contextlib.suppress(OSError, UnicodeError):
        text = kept.read_text(encoding="ascii")
        if re.fullmatch("[0-9a-f]{16}", text):
            return text
    digest = hashlib.sha256()
    for name, path, _ in files:
        with open(path, "rb") as stream:
            data = stream.read()
        # each file's name and length before its bytes: no two packages share one text
        digest.update(f"{name}\0{len(data)}\0".encode() + data)
    text = digest.hexdigest()[:16]
    with contextlib.suppress(OSError):  # best effort, as every cache write
        kept.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(kept, [text.encode("ascii")], new_mode=0o600)
    # a writer killed mid-write (rare: once per state of the code) leaves its temporary file
    remove_stale_temporaries(kept.parent, "[0-9a-f]{32}", STALE_TEMPORARY_SECONDS)
    return text


def _files(package: Path) -> list[tuple[str, str, os.stat_result]]:
    """(relative name, path, status) of every file of ``package`` but bytecode, by name."""
    found: list[tuple[str, str, os.stat_result]] = []

    def walk(folder: str, relative: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = f"{relative}/{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        walk(entry.path, name)
                elif not entry.name.endswith(".pyc"):
                    found.append((name, entry.path, entry.stat()))

    walk(str(package), "")
    return sorted(found, key=lambda file: file[0])


def cache_key(kind: str, parts: Sequence[object]) -> Key:
    """The key of an entry of ``kind`` decided by ``parts`` (with the cache format, the
    toolkit version and :func:`code_stamp`): its text is canonical JSON of nested lists of
    text, integers, booleans and None (tuples are lists; anything else, a float or an object,
    is a TypeError: its text would not be canonical), so two different keys never share a
    text.

    >>> key = cache_key("compiled", [["game", "punto-banco"], ["needs", [["draws", "value"]]]])
    >>> key.text.endswith('"compiled",[["game","punto-banco"],["needs",[["draws","value"]]]]]')
    True
    >>> len(key.digest), key.text.startswith(f'["{CACHE_FORMAT}","{__version__}","{code_stamp()}"')
    (64, True)
    >>> cache_key("compiled", ["a|b", "c"]) == cache_key("compiled", ["a", "b|c"])
    False
    """
    if not KIND.fullmatch(kind):
        raise ValueError(f"an entry kind is lower-case letters and dashes, not {kind!r}")
    text = json.dumps([CACHE_FORMAT, __version__, code_stamp(), kind, _key_value(parts)],
                      ensure_ascii=True, separators=(",", ":"), allow_nan=False)
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
