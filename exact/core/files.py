"""Writing the files a user asks for (``-o FILE``, reports): whole or not at all.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

Every file the toolkit writes for a user goes through :func:`write_file`:

* the text is written to a temporary file beside the real target, then renamed over it, so a
  reader sees the old file or the new one, never half of one, and a failure (Ctrl-C too)
  leaves the old file as it was and no temporary file (:func:`replace_atomically`, which the
  disk cache writes its entries with as well);
* a symbolic link is followed to the file it names (the link itself is kept); a link to a
  missing file, or a loop of links, is refused;
* the target must be a regular file or absent: a directory, a device (``/dev/null``,
  ``/dev/full``), a FIFO or a socket is refused, also when running as root, so none of them
  is ever replaced by a regular file; so is a name of an open file descriptor
  (``/dev/stdout``, ``/dev/fd/1``): the rename would replace the file a shell opened on it
  (``>> log`` clobbered), and standard output is what leaving ``-o`` out gives;
* the command line checks all of this (:func:`output_name`) before it starts any work, so a
  refused ``-o`` costs no minutes of analysis; the write checks it again;
* a new file gets the mode every other program gives it (``0666`` less the umask), a replaced
  file keeps its mode; a file we may not write is refused, as the shell's ``>`` would;
* any failure (no such directory, no permission on the file or its directory, disk full) is
  one :class:`OutputError` naming the file, never a traceback.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> write_file(folder / "table.txt", "exact\\n")
>>> (folder / "table.txt").read_text()
'exact\\n'
>>> write_file(folder, "x")
Traceback (most recent call last):
...
exact.errors.OutputError: cannot write ...: it is a directory, not a regular file
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from exact.core.parsing import shown as shown_text
from exact.core.parsing import shown_path as shown
from exact.errors import OutputError as OutputError

OUTPUT_HELP = ("write to FILE instead of standard output, whole or not at all (a symbolic link "
               "is followed to its file; a directory, device or FIFO is refused)")

# Linux's limits (NAME_MAX, PATH_MAX): a longer name or path can never be opened there
NAME_BYTES, PATH_BYTES = 255, 4096


def output_name(text: str) -> str:
    """``--output FILE`` as the command line reads it: what can be known before any work is
    refused then, not after the analysis it was to hold (``eor century21`` computes for seconds
    first): a name no file can have (a NUL, a part past :data:`NAME_BYTES` bytes, the whole
    past :data:`PATH_BYTES`), and every refusal of :func:`target_of` (no such directory, a
    directory, device or FIFO named, a file or directory we may not write). What only the
    write can tell (a full disk) is refused then; a blank name is refused with every blank
    option. The message is short: argparse cuts its refusals.

    >>> output_name("out.json")
    'out.json'
    >>> output_name("x" * 300)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'xx...' (300 characters): a part of the name is longer than ...
    >>> output_name("/")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '/': it is a directory, not a regular file
    """
    try:
        encoded = os.fsencode(text)
    except UnicodeEncodeError:
        encoded = b"\0"  # not a name the file system can be given
    if b"\0" in encoded:
        problem = "not a file name"
    elif len(encoded) > PATH_BYTES:
        problem = f"a path longer than {PATH_BYTES:,} bytes"
    elif any(len(part) > NAME_BYTES for part in encoded.split(b"/")):
        problem = f"a part of the name is longer than {NAME_BYTES} bytes"
    elif not text.strip():
        return text
    else:
        found = _target(text, shown_text)
        if not isinstance(found, str):
            return text
        problem = found
    raise argparse.ArgumentTypeError(f"{shown_text(text)}: {problem}")  # short: argparse cuts


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


_DESCRIPTORS = re.compile(r"/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/fd")


def _names_a_descriptor(name: str) -> bool:
    """Whether ``name``, or a link on its way, is a process's open file (``/dev/stdout``,
    ``/dev/fd/1``, ``/proc/self/fd/1``). Writing one would replace whatever it is open on by
    rename: ``exact ... -o /dev/stdout >> log`` would clobber the log it meant to append to,
    and a pipe's or terminal's is refused anyway; so every one is refused alike."""
    path = os.path.abspath(name)
    for _ in range(40):  # the kernel's own limit on links followed
        if _DESCRIPTORS.fullmatch(os.path.realpath(os.path.dirname(path))):
            return True
        try:
            link = os.readlink(path)
        except OSError:  # not a link (or nothing there): the end of the chain
            return False
        path = os.path.normpath(os.path.join(os.path.dirname(path), link))
    return False


def target_of(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """The regular file that writing ``path`` replaces (symbolic links followed) and its
    status (None: it does not exist yet); raises :class:`OutputError` for anything else: a
    directory, device, FIFO or socket, a link to nothing, no such directory, a file or a
    directory we may not write.

    >>> target_of("/")
    Traceback (most recent call last):
    ...
    exact.errors.OutputError: cannot write /: it is a directory, not a regular file
    """
    name = os.fspath(path)
    if not name.strip():
        raise OutputError("no output file named (an empty file name)")
    found = _target(name, shown)
    if isinstance(found, str):
        raise OutputError(f"cannot write {shown(name)}: {found}")
    return found


def _target(name: str, quote: Callable[[str], str]
            ) -> tuple[Path, os.stat_result | None] | str:
    """:func:`target_of` for a non-blank ``name``, or why it cannot be written (without the
    name: its callers quote it each their way), quoting the files it names with ``quote``."""
    if _names_a_descriptor(name):
        return ("it names an open file descriptor; leave the option out to write to "
                "standard output")
    target = Path(os.path.realpath(name))
    try:
        status = os.stat(target)
    except FileNotFoundError:
        if os.path.islink(name):
            return (f"it is a symbolic link to a missing file ({quote(str(target))}); "
                    "name the file itself")
        status = None
    except OSError as error:  # a loop of links, a name too long, a component not a directory
        return error.strerror or str(error)
    if status is not None and not stat.S_ISREG(status.st_mode):
        return f"it is {_kind(status.st_mode)}, not a regular file"
    if status is not None and not os.access(target, os.W_OK):  # as `>` would, keep it
        return "Permission denied"
    if not target.parent.is_dir():
        return f"no directory {quote(str(target.parent))}"
    # the new file is made beside the target, then renamed: its directory must be writable
    # (root may write any, but not one on a read-only file system)
    if not os.access(target.parent, os.W_OK | os.X_OK):
        return f"Permission denied (directory {quote(str(target.parent))})"
    return target, status


def write_file(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to ``path`` whole or not at all (see the
    module's docstring for what is followed, refused and kept)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    target, status = target_of(path)
    try:
        replace_atomically(target, [data], like=status)
    except OSError as error:
        raise OutputError(f"cannot write {shown(path)}: {error.strerror or error}") from None


def replace_atomically(target: Path, chunks: Iterable[bytes], *, new_mode: int = 0o666,
                       like: os.stat_result | None = None) -> None:
    """Write ``chunks`` to a new file beside ``target`` and move it over ``target``: a
    reader sees the old file or the whole new one, never part of one, also after a power loss
    (the data reach the disk before the name does).

    The new file is created with ``new_mode`` less the umask (the default, 0666, is what any
    program gives a new file; mkstemp would give 0600), or, given ``like`` (the status of the
    file replaced), with that file's mode and, if we may, its owner. Its name is
    ``.<target name>.<random>.tmp``, which no reader of ``target`` opens.

    Raises OSError; on it, or on any other exception (a chunk iterator's error, Ctrl-C), the
    target is left as it was and the temporary file removed. The caller decides what an
    error means (a user's file: a one-line error; the cache: nothing)."""
    handle, temporary = _temporary(target, new_mode)
    moved = False
    try:
        with os.fdopen(handle, "wb") as stream:
            if like is not None:
                _keep_mode_and_owner(stream.fileno(), like)
            for chunk in chunks:
                stream.write(chunk)
            stream.flush()
            # the data on disk before the name: else a power loss soon after the rename can
            # leave an empty file in place of the old one
            os.fsync(stream.fileno())
        os.replace(temporary, target)
        moved = True
    finally:
        # only a file not moved into place is removed: once moved, its name is free and may
        # already be another writer's temporary file
        if not moved:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _keep_mode_and_owner(handle: int, status: os.stat_result) -> None:
    os.fchmod(handle, stat.S_IMODE(status.st_mode))
    if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.fchown(handle, status.st_uid, status.st_gid)


def _temporary(target: Path, mode: int) -> tuple[int, str]:
    """A new file beside ``target`` (same file system, so the rename is atomic), created with
    ``mode`` for the umask to reduce; raises OSError."""
    for _ in range(100):
        name = str(target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode), name
        except FileExistsError:
            continue
        except OSError as error:
            raise OSError(error.errno, f"{error.strerror} ({shown(target.parent)})") from None
    raise FileExistsError(errno.EEXIST, "no free temporary name beside it")
