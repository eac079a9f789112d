"""The disk cache's entries on disk: one file each, written atomically and read back checked,
holding data only (JSON fields and plain arrays), never code.

Layer: engines, above the model; the engines know no game (the games call them).

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

import hashlib
import hmac
import io
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exact.core.files import remove_stale_temporaries, replace_atomically
from exact.engines.cache_keys import KIND, STALE_TEMPORARY_SECONDS, Key, cache_directory
from exact.errors import CorruptEntry

if TYPE_CHECKING:  # numpy is loaded only to write or read an entry's arrays: an entry of
    import numpy as np  # JSON fields alone (a light form) is read without it

# Bounds on what a read may take (memory about 10x the file at most: tuples of records); the
# largest entry today, century21's compiled deal, is 14 MB with 0.1 MB of metadata. A larger
# entry is not written (only not cached), so a bound never makes an entry fail every run.
MAX_ENTRY_BYTES = 64 * 2**20
MAX_METADATA_BYTES = 8 * 2**20
_MAGIC = b"exact-cache 3\n"
_KEYED_ENTRY = rf"[0-9a-f]{{64}}\.{KIND.pattern}"  # <digest>.<kind>: a name only this cache writes
_PLAIN_KINDS = "biuf"  # bool, signed and unsigned integers, floats: plain numbers
_DECIMAL = re.compile(r"-?[0-9]{1,4300}")  # Python's own int-to-text limit
Arrays = dict[str, "np.ndarray"]
Fields = dict[str, Any]  # an entry's small fields: JSON values


def entry_path(key: Key) -> Path:
    """The file of the entry under ``key``."""
    return cache_directory() / f"{key.digest}.{key.kind}"


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
    remove_stale_temporaries(path.parent, f"{re.escape(path.name)}|{_KEYED_ENTRY}",
                             STALE_TEMPORARY_SECONDS)


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
