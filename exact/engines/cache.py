"""The disk cache, the one module of every cache kind: work worth keeping between runs
(compiled deals, bet-event matrices, settled outcomes, factorised bets, and the light form of a
few bets: :mod:`exact.engines.compiled_python`), stored as data that is checked before it is
used and can never run code.
Every kind goes through :func:`cached` or :func:`load` and :func:`store` here; a kind supplies
only its encoding (fields and arrays) and its checked decoding.

Layer: engines, above the model; the engines know no game (the games call them).

The cache is four modules, this one the door every kind goes through:
:mod:`exact.engines.cache_keys` (what decides an entry: :class:`Key`, :func:`cache_key`),
:mod:`exact.engines.cache_entries` (an entry's file: its layout, the atomic write, the checked
read), :mod:`exact.engines.cache_records` (records and index arrays as data) and this one
(:func:`cached` and :func:`load`: an entry used, or built and stored; a damaged one rebuilt
with one warning).

An entry that fails any check of its read is never used: it is rebuilt and rewritten, with one
warning (a :class:`~exact.errors.CacheWarning`, once per entry and process), which the command
line prints as ``exact: warning: cache entry PATH was corrupt (REASON); rebuilt`` when the run
succeeds, like its other warnings. A missing entry is built silently.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from exact.core.parsing import shown_path

# The names a kind uses, all from this one module (a kind imports the cache, not its parts).
from exact.engines.cache_entries import Arrays as Arrays
from exact.engines.cache_entries import Fields as Fields
from exact.engines.cache_entries import entry_path as entry_path
from exact.engines.cache_entries import read_entry as read_entry
from exact.engines.cache_entries import store as store
from exact.engines.cache_keys import Key as Key
from exact.engines.cache_keys import bet_part as bet_part
from exact.engines.cache_keys import cache_key as cache_key
from exact.engines.cache_records import LazyTuples as LazyTuples
from exact.engines.cache_records import check_indices as check_indices
from exact.engines.cache_records import encode_tuples as encode_tuples
from exact.errors import CacheWarning as CacheWarning
from exact.errors import CorruptEntry as CorruptEntry
from exact.errors import one_line

_WARNED: set[str] = set()
Value = TypeVar("Value")


def cached(key: Key, build: Callable[[], Value],
           encode: Callable[[Value], tuple[Fields, Arrays]],
           decode: Callable[[Fields, Arrays], Value],
           keep: Callable[[Value], bool] | None = None) -> Value:
    """The value kept under ``key``, or ``build()`` stored there (unless ``keep`` says a value
    so cheap to build is not worth an entry).

    ``encode`` turns a value into (JSON-able fields, named arrays); ``decode`` turns them back,
    raising :class:`CorruptEntry` (or ValueError, TypeError, IndexError, KeyError) for data
    that a correct entry cannot hold. A damaged entry is rebuilt with one warning line.

    >>> import os
    >>> import tempfile
    >>> import numpy as np
    >>> saved = os.environ.get("EXACT_CACHE_DIR")
    >>> os.environ["EXACT_CACHE_DIR"] = tempfile.mkdtemp()
    >>> def squares(build):
    ...     return cached(cache_key("example", ["squares"]), build,
    ...                   lambda array: ({"n": len(array)}, {"a": array}),
    ...                   lambda fields, arrays: arrays["a"][:fields["n"]])
    >>> squares(lambda: np.arange(4) ** 2).tolist()  # built and stored
    [0, 1, 4, 9]
    >>> squares(None).tolist()  # read back
    [0, 1, 4, 9]
    >>> _ = (os.environ.pop("EXACT_CACHE_DIR") if saved is None
    ...      else os.environ.update(EXACT_CACHE_DIR=saved))
    """
    found = load(key, decode)
    if found is not None:
        return found[0]
    value = build()
    if keep is None or keep(value):
        fields, arrays = encode(value)
        store(key, fields, arrays)
    return value


def load(key: Key, decode: Callable[[Fields, Arrays], Value]) -> tuple[Value] | None:
    """``(value,)`` from the entry, or None when it is missing or fails a check (warned)."""
    path = entry_path(key)
    try:
        fields, arrays = read_entry(path, key)
        return (decode(fields, arrays),)
    except (FileNotFoundError, NotADirectoryError):
        return None  # not built yet
    except OSError as error:  # the entry may be whole: the place is what fails (a name too
        # long for the system, a directory we may not read), so not called corrupt
        warn(path, str(error.strerror or error), state="could not be read")
    except (CorruptEntry, ValueError, TypeError, IndexError, KeyError, RecursionError,
            MemoryError) as error:
        reason = str(error) if isinstance(error, CorruptEntry) else \
            f"{type(error).__name__}: {error}"
        warn(path, reason)
    return None


def warn(path: Path, reason: str, state: str = "was corrupt") -> None:
    """A :class:`~exact.errors.CacheWarning` of one line, once per entry and process (the
    command line prints it when the run succeeds, as it prints every warning of a run)."""
    if str(path) in _WARNED:
        return
    _WARNED.add(str(path))
    # the path cut as every file name is (a 5,000-character EXACT_CACHE_DIR made three
    # 500-character lines); the reason cut as it comes from the system or the checks
    message = f"cache entry {shown_path(path)} {state} ({reason[:150]}); rebuilt"
    warnings.warn(one_line(message), CacheWarning, stacklevel=3)
