"""The disk cache, the one module of every cache kind: work worth keeping between runs
(compiled deals, bet-event matrices, settled outcomes, factorised bets, and the light form of a
few bets: :mod:`exact.engines.compiled_python`), stored as data that is checked before it is
used and can never run code.
Every kind goes through :func:`cached` or :func:`load` and :func:`store` here; a kind supplies
only its encoding (fields and arrays) and its checked decoding.

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

Every entry is one file, ``$EXACT_CACHE_DIR/<digest>.<kind>`` (default ``~/.cache/exact``),
``digest`` the SHA-256 (hex) of the key's text:

* a first line ``exact-cache 3``;
* a second line, the SHA-256 (hex) of the entry's key text followed by everything after this
  line;
* a line with the length in bytes of the metadata, then the metadata: JSON (an object with the
  entry's ``kind``, its full ``key`` text, its small fields and the name and length of every
  array);
* the arrays, one after the other, each a ``.npy`` blob (numpy's own format): numbers or
  fixed-width text only. An array of Python integers past int64 (numpy's object dtype) is
  stored as decimal text and read back as integers; nothing of object dtype is ever written or
  read, so loading only ever reads numbers and text.

Reading checks, in order: a regular file of at most :data:`MAX_ENTRY_BYTES` (its metadata at
most :data:`MAX_METADATA_BYTES`; a larger entry is not written), the first line,
the hash (which binds the entry to the key it is read for: a file copied from another key,
or with bytes flipped, truncated or altered, fails it), the JSON, its kind and its full key
text, equal to the key asked for (so that not even two keys of one digest share an entry), each
array's header (plain dtype, and a shape that fills exactly the bytes given), and then the
reader's own structural checks (indices in range, lengths that agree). An entry that fails any
of them is never used: it is rebuilt and rewritten, with one warning (a
:class:`~exact.errors.CacheWarning`, once per entry and process), which the command line
prints as ``exact: warning: cache entry PATH was corrupt (REASON); rebuilt`` when the run
succeeds, like its other warnings. A missing entry is built silently. The hash detects damage
and misplaced files, not a deliberate forgery (anyone who can write the cache directory can
also compute it); even a forged entry can do no more than a well-formed one: data, checked
for shape and range, never code.

Writing is best effort (a cache that cannot be written only costs the next run the work) and
atomic (:func:`exact.core.files.replace_atomically`): a temporary file beside the entry
(``.<entry name>.<random>.tmp``, which no reader opens), flushed to disk and moved into place
with :func:`os.replace`, so that processes building the same entry at once (test or
simulation workers) each leave a complete file and a reader sees either the old entry or a new
one, never a torn one (after a power loss too: at worst the entry is missing, and built again
silently).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import hmac
import io
import json
import os
import re
import stat
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, overload

from exact import __version__
from exact.core.cards import Label
from exact.core.enumerator import without_collections
from exact.core.files import replace_atomically
from exact.core.parsing import shown_path
from exact.errors import CacheWarning as CacheWarning
from exact.errors import CorruptEntry as CorruptEntry
from exact.errors import one_line
from exact.model.expressions import canonical_form

if TYPE_CHECKING:  # numpy is loaded only to write or read an entry's arrays: an entry of
    import numpy as np  # JSON fields alone (a light form) is read without it



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
# Bounds on what a read may take (memory about 10x the file at most: tuples of records); the
# largest entry today, century21's compiled deal, is 14 MB with 0.1 MB of metadata. A larger
# entry is not written (only not cached), so a bound never makes an entry fail every run.
MAX_ENTRY_BYTES = 64 * 2**20
MAX_METADATA_BYTES = 8 * 2**20
_MAGIC = b"exact-cache 3\n"
STALE_TEMPORARY_SECONDS = 3600  # a writer's temporary file this old: its writer was killed
_KIND = re.compile(r"[a-z][a-z-]*")
_KEYED_ENTRY = rf"[0-9a-f]{{64}}\.{_KIND.pattern}"  # <digest>.<kind>: a name only this cache writes
_PLAIN_KINDS = "biuf"  # bool, signed and unsigned integers, floats: plain numbers
_DECIMAL = re.compile(r"-?[0-9]{1,4300}")  # Python's own int-to-text limit
_WARNED: set[str] = set()
Value = TypeVar("Value")
Arrays = dict[str, "np.ndarray"]
Fields = dict[str, Any]  # an entry's small fields: JSON values


def cache_directory() -> Path:
    """Where entries are kept: ``$EXACT_CACHE_DIR`` or ``~/.cache/exact``."""
    configured = os.environ.get("EXACT_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "exact"


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
    if not _KIND.fullmatch(kind):
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


def entry_path(key: Key) -> Path:
    """The file of the entry under ``key``."""
    return cache_directory() / f"{key.digest}.{key.kind}"


def cached(key: Key, build: Callable[[], Value],
           encode: Callable[[Value], tuple[Fields, Arrays]],
           decode: Callable[[Fields, Arrays], Value],
           keep: Callable[[Value], bool] | None = None) -> Value:
    """The value kept under ``key``, or ``build()`` stored there (unless ``keep`` says a value
    so cheap to build is not worth an entry).

    ``encode`` turns a value into (JSON-able fields, named arrays); ``decode`` turns them back,
    raising :class:`CorruptEntry` (or ValueError, TypeError, IndexError, KeyError) for data
    that a correct entry cannot hold. A damaged entry is rebuilt with one warning line.

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


def store(key: Key, fields: Mapping[str, object], arrays: Mapping[str, np.ndarray]) -> None:
    """Write the entry (best effort, atomic); see the module docstring for the layout."""
    import numpy as np

    blobs, names, decimal = [], [], []
    for name, array in arrays.items():
        plain, as_decimal = _plain(array)
        buffer = io.BytesIO()
        np.lib.format.write_array(buffer, plain)  # a plain dtype (checked): raw bytes
        blobs.append(buffer.getvalue())
        names.append([name, len(blobs[-1])])
        if as_decimal:
            decimal.append(name)
    metadata = json.dumps({"kind": key.kind, "key": key.text, "fields": dict(fields),
                           "arrays": names,
                           "decimal": decimal}, separators=(",", ":"), allow_nan=False,
                          ensure_ascii=True).encode()
    payload = b"".join([b"%d\n" % len(metadata), metadata, *blobs])
    if len(metadata) > MAX_METADATA_BYTES or len(_MAGIC) + 65 + len(payload) > MAX_ENTRY_BYTES:
        return  # too large to be read back: not cached
    digest = _digest(key, payload).encode()
    write_atomically(entry_path(key), [_MAGIC, digest, b"\n", payload])


def read_entry(path: Path, key: Key) -> tuple[Fields, Arrays]:
    """The fields and arrays of the entry at ``path``, checked (module docstring); raises
    :class:`CorruptEntry` for any entry that fails a check, OSError when it cannot be read."""
    data = _read_regular(path)
    if not data.startswith(_MAGIC):
        raise CorruptEntry("not an entry of this format")
    start = len(_MAGIC) + 65
    digest = bytes(data[len(_MAGIC):start])
    payload = memoryview(data)[start:]
    if digest[-1:] != b"\n" or not hmac.compare_digest(digest[:-1],
                                                        _digest(key, payload).encode()):
        raise CorruptEntry("content hash does not match")
    header_end = data.find(b"\n", start, start + 21)
    if header_end < 0 or not data[start:header_end].isdigit():
        raise CorruptEntry("no metadata length")
    metadata_length = int(data[start:header_end])
    if metadata_length > MAX_METADATA_BYTES:
        raise CorruptEntry(f"metadata larger than {MAX_METADATA_BYTES} bytes")
    metadata_end = header_end + 1 + metadata_length
    if metadata_end > len(data):
        raise CorruptEntry("truncated")
    metadata = json.loads(bytes(data[header_end + 1:metadata_end]))
    if not isinstance(metadata, dict) or metadata.get("kind") != key.kind:
        raise CorruptEntry(f"not a {key.kind} entry")
    if metadata.get("key") != key.text:  # the full key: not even one digest of two keys
        raise CorruptEntry(f"the {key.kind} entry of another key")
    fields, names, decimal = (metadata.get(n) for n in ("fields", "arrays", "decimal"))
    if not (isinstance(fields, dict) and isinstance(names, list) and isinstance(decimal, list)):
        raise CorruptEntry("metadata incomplete")
    arrays: Arrays = {}
    offset = metadata_end
    for item in names:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                and type(item[1]) is int and 0 <= item[1] <= len(data) - offset):
            raise CorruptEntry("array list malformed")
        name, length = item
        arrays[name] = _array(payload[offset - start:offset - start + length],
                              name in decimal)
        offset += length
    if offset != len(data):
        raise CorruptEntry("trailing bytes")
    return fields, arrays


def write_atomically(path: Path, chunks: Iterable[bytes]) -> None:
    """Write through a temporary file beside ``path`` moved into place, so concurrent writers
    never leave a torn file; best effort: an unwritable cache only costs the next run the
    work.

    The temporary file is ``.<entry name>.<random>.tmp``: no reader opens it (entries are
    read by their exact name), and every write removes those that killed writers left more than
    :data:`STALE_TEMPORARY_SECONDS` ago, of this entry or of any entry keyed by
    :func:`cache_key` (other files in the folder are never touched). An interrupt (Ctrl-C)
    stops the run with no temporary file left behind."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # 0600: an entry is private to its user (as tempfile.mkstemp made them)
        replace_atomically(path, chunks, new_mode=0o600)
    except OSError:
        return
    _remove_stale_temporaries(path)


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files that killed writers left behind: of ``path``'s entry, or of
    any entry named by a :func:`cache_key` (a live writer finishes within seconds; one removed
    under it only fails to write, quietly). Those of keyed entries are found whatever entry
    the run writes, so a leftover of an entry only ever read again does not stay for good."""
    now = time.time()
    mine = re.compile(rf"\.{re.escape(path.name)}\..+|\.{_KEYED_ENTRY}\..+\.tmp")
    try:
        for leftover in path.parent.iterdir():
            if mine.fullmatch(leftover.name):
                with contextlib.suppress(OSError):
                    if now - leftover.lstat().st_mtime > STALE_TEMPORARY_SECONDS:
                        leftover.unlink()
    except OSError:
        pass


def _digest(key: Key, payload: bytes | memoryview) -> str:
    hasher = hashlib.sha256(key.text.encode())
    hasher.update(b"\n")
    hasher.update(payload)
    return hasher.hexdigest()


def _read_regular(path: Path) -> bytearray:
    """The bytes of a regular file of bounded size (a FIFO, device, symlink, directory or huge
    file is refused without blocking, opening or reading it).

    Checked twice: by ``lstat`` before the open (opening a device can act on it; an entry is
    never a symlink, as entries are moved into place), and by ``fstat`` of what was opened
    (non-blocking, not following a link) in case the entry was swapped in between."""
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise CorruptEntry("not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(path, flags)
    with os.fdopen(handle, "rb", buffering=0) as stream:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            raise CorruptEntry("not a regular file")
        if status.st_size > MAX_ENTRY_BYTES:
            raise CorruptEntry(f"larger than {MAX_ENTRY_BYTES} bytes")
        data = bytearray(status.st_size)
        view, read = memoryview(data), 0
        while read < len(data):
            chunk = stream.readinto(view[read:])
            if not chunk:
                break
            read += chunk
        view.release()
        if read != len(data) or stream.read(1):
            raise CorruptEntry("changed while read")
    return data


def _plain(array: np.ndarray) -> tuple[np.ndarray, bool]:
    """``array`` as a plain array, and whether it was Python integers kept as decimal text."""
    import numpy as np

    array = np.asarray(array)
    if array.dtype == object:
        if not all(type(value) is int for value in array.flat):
            raise TypeError("the cache stores numbers, text or Python integers only")
        return np.array([str(value) for value in array.flat], dtype=str).reshape(
            array.shape), True
    if array.dtype.kind not in _PLAIN_KINDS + "U":
        raise TypeError(f"the cache does not store arrays of dtype {array.dtype}")
    return array, False


def _array(blob: memoryview, as_decimal: bool) -> np.ndarray:
    """One ``.npy`` blob, read without ever unpickling: its header must name a plain dtype and
    a shape whose data fills exactly the rest of the blob."""
    import numpy as np

    stream = io.BytesIO(blob)
    try:  # numpy's parser of the header (a Python literal) raises errors of several kinds
        major, _ = np.lib.format.read_magic(stream)
        read_header = {1: np.lib.format.read_array_header_1_0,
                       2: np.lib.format.read_array_header_2_0}[major]
        shape, fortran_order, dtype = read_header(stream)
    except Exception as error:
        raise CorruptEntry(f"array header unreadable ({type(error).__name__})") from None
    if dtype.hasobject or dtype.kind not in _PLAIN_KINDS + "U" or dtype.itemsize == 0:
        raise CorruptEntry(f"array of dtype {dtype}")
    count = 1
    for size in shape:
        if size < 0:
            raise CorruptEntry("array of negative shape")
        count *= size
    start = stream.tell()
    if count * dtype.itemsize != len(blob) - start:
        raise CorruptEntry("array size does not match its shape")
    array = np.frombuffer(blob, dtype=dtype, count=count, offset=start)
    array = array.reshape(shape, order="F" if fortran_order else "C")
    if as_decimal:
        if dtype.kind != "U" or not all(_DECIMAL.fullmatch(text) for text in array.flat):
            raise CorruptEntry("integers not in decimal")
        integers = np.empty(count, dtype=object)
        integers[:] = [int(text) for text in array.flat]
        return integers.reshape(shape)
    return np.require(array, requirements=["A", "W"])  # aligned, writable: like a fresh array


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


# --- nested tuples (records) -------------------------------------------------------------------
def encode_tuples(items: Sequence[object]) -> tuple[list[object], np.ndarray]:
    """Tuples of one length, nested of ints, bools, text and None (e.g. the records of a
    compiled deal), as (a table of their distinct parts, JSON-able, children before parents;
    an (items x length) array of references into it).

    >>> table, rows = encode_tuples([((1, "A"), False), ((1, "A"), 0)])
    >>> table, rows.tolist()
    ([1, 'A', [0, 1], False, 0], [[2, 3], [2, 4]])
    >>> list(LazyTuples(table, rows))
    [((1, 'A'), False), ((1, 'A'), 0)]
    """
    import numpy as np

    # A part is known by its type and value for an atom (equal values such as 0 and False
    # must not merge), by its type and its children's indices for a tuple: equal such keys
    # are equal parts of one type. ``memo`` keeps the index of each tuple by ``id`` (every
    # part is alive throughout): the hands of a compiled deal share a few dozen labels.
    table: dict[tuple[object, ...], int] = {}
    values: list[object] = []
    memo: dict[int, int] = {}

    def reference(item: object) -> int:
        kind = type(item)
        if kind is tuple or kind is Label:  # a Label stays a Label: features read its fields
            found = memo.get(id(item))
            if found is not None:
                return found
            children = [reference(part) for part in cast(tuple[object, ...], item)]
            key: tuple[object, ...] = (kind, *children)
            value: object = children if kind is tuple else {"label": children}
        elif item is None or kind in (bool, int, str):
            key, value = (kind, item), item
        else:
            raise TypeError(f"the cache stores tuples of ints, text and None, not {item!r}")
        index = table.get(key)
        if index is None:
            index = table[key] = len(values)
            values.append(value)
        if kind is tuple or kind is Label:
            memo[id(item)] = index
        return index

    if set(map(type, items)) - {tuple}:
        raise TypeError("the cache stores a list of tuples of one length")
    rows_in = cast(Sequence[tuple[object, ...]], items)  # tuples: checked just above
    length = len(rows_in[0]) if rows_in else 0
    if set(map(len, rows_in)) - {length}:
        raise TypeError("the cache stores a list of tuples of one length")
    rows = np.empty((len(items), length), dtype=np.int64)
    with without_collections():
        for column in range(length):
            _encode_column(list(map(itemgetter(column), rows_in)), reference, rows[:, column])
    return values, rows


def _encode_column(parts: Sequence[object], reference: Callable[[object], int],
                   out: np.ndarray) -> None:
    """The references of one column's ``parts`` into ``out``. Parts are first told apart by
    identity (all alive throughout; a compiled deal makes its records' tuple parts built of
    the same objects one object), then each distinct object by a shallow key: a tuple's type
    and the identities of its parts (equal keys are equal values of one type), an atom's type
    and value. A compiled deal's hundred thousand records hold a few hundred hand objects and
    shallow keys (their labels are shared objects), so ``reference`` walks those alone; the
    identities are told apart by numpy (addresses: unsigned 64-bit)."""
    import numpy as np

    identities = np.fromiter(map(id, parts), dtype=np.uint64, count=len(parts))
    _, first, inverse = np.unique(identities, return_index=True, return_inverse=True)
    by_key: dict[tuple[object, ...], int] = {}
    references = np.empty(len(first), dtype=np.int64)
    # in order of first appearance, not of address: the table's order, so the entry's bytes,
    # must not depend on where objects happen to live
    for distinct in np.argsort(first, kind="stable").tolist():
        part = parts[first[distinct]]
        key = ((type(part), *map(id, part)) if isinstance(part, tuple)
               else (type(part), part))
        found = by_key.get(key)
        if found is None:
            found = by_key[key] = reference(part)
        references[distinct] = found
    out[:] = references[inverse.reshape(-1)]


class LazyTuples(Sequence[tuple[object, ...]]):
    """The tuples of :func:`encode_tuples` as a sequence, checked at once (every reference
    points backwards, every row in range) but built only when first read: a command that
    loads a compiled deal for its counts alone (the records' events cached too) never pays
    for the hundred thousand tuples.

    >>> table, rows = encode_tuples([((1, "A"), False), ((1, "A"), 0)])
    >>> lazy = LazyTuples(table, rows)
    >>> len(lazy), lazy[1], list(lazy) == [((1, 'A'), False), ((1, 'A'), 0)]
    (2, ((1, 'A'), 0), True)
    """

    def __init__(self, values: object, rows: np.ndarray) -> None:
        if not isinstance(values, list):
            raise CorruptEntry("tuple table malformed")
        table: list[object] = []
        for value in values:
            if type(value) is list:
                if value and min(value) < 0:  # a reference forwards is an IndexError
                    raise CorruptEntry("tuple table malformed")
                table.append(tuple([table[i] for i in value]))
            elif (type(value) is dict and list(value) == ["label"]
                  and type(value["label"]) is list):
                table.append(_label([table[i] for i in value["label"] if i >= 0]))
            elif value is None or type(value) in (bool, int, str):
                table.append(value)
            else:
                raise CorruptEntry("tuple table malformed")
        self._rows = check_indices(rows, len(table), "tuple rows", ndim=2)
        self._table = table

    def __len__(self) -> int:
        return int(self._rows.shape[0])

    @overload
    def __getitem__(self, index: int) -> tuple[object, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[object, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[object, ...] | list[tuple[object, ...]]:
        return self._tuples[index]

    def __iter__(self) -> Iterator[tuple[object, ...]]:
        return iter(self._tuples)

    def __repr__(self) -> str:
        return repr(self._tuples)

    @cached_property
    def _tuples(self) -> list[tuple[object, ...]]:
        import numpy as np

        rows = self._rows
        if rows.shape[1] == 0:
            return [()] * rows.shape[0]
        parts = np.empty(len(self._table), dtype=object)
        for index, value in enumerate(self._table):  # one by one: numpy would unpack tuples
            parts[index] = value
        with without_collections():
            return list(zip(*(parts[rows[:, column]].tolist()
                              for column in range(rows.shape[1])), strict=True))


def _label(parts: list[object]) -> Label:
    """The :class:`~exact.core.cards.Label` of decoded ``parts``, checked field by field."""
    if len(parts) != len(Label._fields):
        raise CorruptEntry("tuple table malformed")
    value, rank, colour, suit = parts
    if not (value is None or type(value) is int) or not (
            (rank is None or type(rank) is str) and (colour is None or type(colour) is str)
            and (suit is None or type(suit) is str)):
        raise CorruptEntry("tuple table malformed")
    return Label(value, rank, colour, suit)


def check_indices(array: np.ndarray, bound: int, name: str, ndim: int = 1) -> np.ndarray:
    """``array`` when it is an int64 array of ``ndim`` dimensions whose values are in
    ``range(bound)``, else :class:`CorruptEntry`.

    >>> import numpy as np
    >>> check_indices(np.array([0, 2]), 3, "leaves").tolist()
    [0, 2]
    >>> check_indices(np.array([0, 3]), 3, "leaves")
    Traceback (most recent call last):
    exact.errors.CorruptEntry: leaves: out of range
    """
    import numpy as np

    if array.dtype != np.int64 or array.ndim != ndim:
        raise CorruptEntry(f"{name}: not int64 of {ndim} dimensions")
    if array.size and (int(array.min()) < 0 or int(array.max()) >= bound):
        raise CorruptEntry(f"{name}: out of range")
    return array
