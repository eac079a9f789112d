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
* no output may be a file the run reads, or another output of the run (:func:`refuse_clashes`:
  names resolved, links followed, hard links and ``/dev/stdin`` seen through), also before
  any work; the options that name files a run reads are marked with :class:`InputFile`;
* every name valid for the target is valid for the temporary file beside it (its name is cut
  to fit the file system's limit, and it is made and renamed relative to the directory, so
  a long path costs nothing more);
* a new file gets the mode every other program gives it (``0666`` less the umask), a replaced
  file keeps its mode; a file we may not write is refused, as the shell's ``>`` would;
* any failure (no such directory, no permission on the file or its directory, disk full) is
  one :class:`OutputError` naming the file, never a traceback; so is a failure to write
  standard output (:func:`write_standard_output`: a full disk, a closed stream, an encoding
  that cannot hold the text).

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
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

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


class InputFile:
    """The ``type=`` of an option that names a file the run reads (``--bets``, ``--rules``,
    ``--seen``...): it keeps the name as given, and marks the option, so that the command line
    knows every file a run reads before any work (:func:`refuse_clashes`), whatever the
    command. ``stdin``: ``-`` (and the option left out, its default) is standard input.

    >>> InputFile()("bets.toml"), InputFile(stdin=True).stdin
    ('bets.toml', True)
    """

    def __init__(self, stdin: bool = False) -> None:
        self.stdin = stdin
        self.__name__ = "file name"  # what argparse would call it

    def __call__(self, text: str) -> str:
        return text


INPUT_FILE = InputFile()  # the type= of an option naming a file the run reads


# (kind, st_dev, st_ino) of an existing file, or (kind, resolved path) of a name
_Identity = tuple[object, ...]


def _identities(name: str | None) -> set[_Identity]:
    """What makes ``name`` (None: standard input) the same file as another: the path it
    resolves to (links followed, ``..`` applied) and, when it exists, its device and inode
    (a hard link, ``/dev/stdin`` or ``/proc/self/fd/0`` open on it, another spelling on a
    file system that ignores case)."""
    found: set[_Identity] = set()
    try:
        if name is None:
            status = os.fstat(0)
        else:
            found.add(("path", os.path.realpath(name)))
            status = os.stat(name)
    except (OSError, ValueError):  # nothing there (yet), a closed descriptor, a NUL
        return found
    found.add(("file", status.st_dev, status.st_ino))
    return found


def refuse_clashes(reads: Iterable[tuple[str, str | None]],
                   writes: Iterable[tuple[str, str]]) -> None:
    """Refuse a run whose output is a file it reads, or whose two outputs are one file: each
    of ``reads`` is (the option, the file name, None for standard input), each of ``writes``
    (the option, the file name); the names as given, relative to the working directory. A
    clash is one :class:`OutputError` naming both options. Call it before any work: the run
    would replace its own input (the file is read first, then renamed over), or one output
    the other.

    >>> refuse_clashes([("--bets", "a.toml")], [("--output", "./x/../a.toml")]
    ...                )  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exact.errors.OutputError: --output ./x/../a.toml is the file --bets a.toml reads: the run ...
    >>> refuse_clashes([], [("--output", "b.json"), ("--xlsx", "b.json")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exact.errors.OutputError: --output b.json and --xlsx b.json are one file: one output would ...
    """
    read = [(option, name, _identities(name)) for option, name in reads]
    written: list[tuple[str, str, set[_Identity]]] = []
    for option, name in writes:
        identity = _identities(name)
        for other, other_name, known in read:
            if identity & known:
                source = (f"{other} {shown(other_name)}" if other_name is not None else
                          f"standard input ({other})")
                raise OutputError(f"{option} {shown(name)} is the file {source} reads: the "
                                  "run would replace its own input; write to another file")
        for other, other_name, known in written:
            if identity & known:
                raise OutputError(f"{other} {shown(other_name)} and {option} {shown(name)} "
                                  "are one file: one output would replace the other; give "
                                  "each its own file")
        written.append((option, name, identity))


def write_standard_output(text: str, stream: TextIO | None) -> None:
    """Write ``text`` to ``stream`` (``sys.stdout``; None when the shell closed it, ``>&-``)
    and flush it; raises :class:`OutputError` for a closed stream, a full disk
    (``> /dev/full``), an encoding that cannot hold the text (``PYTHONIOENCODING=ascii``;
    nothing is written then), and :class:`BrokenPipeError` for a reader gone. After a
    failure the stream's descriptor is pointed at ``/dev/null``: the interpreter's last flush
    of what stayed in its buffer then succeeds instead of printing a second error."""
    if stream is None:
        raise OutputError("cannot write standard output: it is closed; give -o FILE, or "
                          "leave standard output open")
    try:
        stream.write(text)
        stream.flush()
    except UnicodeEncodeError as error:
        character = error.object[error.start:error.start + 1]
        raise OutputError(f"cannot write standard output: its encoding "
                          f"({getattr(stream, 'encoding', '?')}) has no {character!r}; set "
                          "PYTHONIOENCODING=utf-8, or give -o FILE (always UTF-8)") from None
    except BrokenPipeError:
        _silence(stream)
        raise
    except OSError as error:
        _silence(stream)
        raise OutputError(f"cannot write standard output: {error.strerror or error}") from None


def _silence(stream: TextIO) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):  # a stream with no file
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, stream.fileno())
        os.close(quiet)


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
    longest = _name_max(target.parent)
    if len(os.fsencode(target.name)) > longest:  # a file system of shorter names (eCryptfs)
        return f"a name longer than {longest} bytes, the most its file system takes"
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
    ``.<target name>.<random>.tmp``, which no reader of ``target`` opens, with the target's
    name cut so that it fits the file system's longest name; it is made and renamed relative
    to the directory held open, so any name valid for ``target`` is valid for it.

    Raises OSError; on it, or on any other exception (a chunk iterator's error, Ctrl-C, the
    command line's SIGTERM), the target is left as it was and the temporary file removed.
    The caller decides what an error means (a user's file: a one-line error; the cache:
    nothing)."""
    directory = _open_directory(target.parent)
    try:
        handle, temporary = _temporary(directory, target, new_mode)
        moved = False
        try:
            with os.fdopen(handle, "wb") as stream:
                if like is not None:
                    _keep_mode_and_owner(stream.fileno(), like)
                for chunk in chunks:
                    stream.write(chunk)
                stream.flush()
                # the data on disk before the name: else a power loss soon after the rename
                # can leave an empty file in place of the old one
                os.fsync(stream.fileno())
            os.replace(temporary, target.name, src_dir_fd=directory, dst_dir_fd=directory)
            moved = True
        finally:
            # only a file not moved into place is removed: once moved, its name is free and
            # may already be another writer's temporary file
            if not moved:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=directory)
    finally:
        os.close(directory)


def _keep_mode_and_owner(handle: int, status: os.stat_result) -> None:
    os.fchmod(handle, stat.S_IMODE(status.st_mode))
    if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.fchown(handle, status.st_uid, status.st_gid)


# O_PATH: a directory we may write but not list (mode -wx) still serves as one to work in
_DIRECTORY_FLAGS = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_CLOEXEC


def _open_directory(folder: Path) -> int:
    try:
        return os.open(folder, _DIRECTORY_FLAGS)
    except OSError as error:
        raise OSError(error.errno, f"{error.strerror} ({shown(folder)})") from None


def _name_max(folder: str | os.PathLike[str]) -> int:
    """The longest file name (bytes) the file system of ``folder`` takes."""
    try:
        return min(NAME_BYTES, os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError):  # not known (a file system that does not say)
        return NAME_BYTES


def temporary_name(name: str, longest: int = NAME_BYTES) -> str:
    """The name of the temporary file beside a file ``name``: ``.<name>.<random>.tmp``, the
    name cut (in bytes, as the file system counts them) so that the whole fits ``longest``.

    >>> len(os.fsencode(temporary_name("x" * 255))), temporary_name("out.json")[:10]
    (255, '.out.json.')
    """
    suffix = f".{os.urandom(4).hex()}.tmp"  # (not secrets: its import costs a fresh run 4 ms)
    room = longest - 1 - len(suffix)
    return "." + os.fsdecode(os.fsencode(name)[:room]) + suffix


def remove_stale_temporaries(folder: Path, targets: str, older_than: float) -> None:
    """Remove the temporary files (:func:`temporary_name`) that writers killed mid-write left
    in ``folder`` more than ``older_than`` seconds ago, of the targets whose names fully match
    the regular expression ``targets`` (a live writer finishes within seconds; one removed
    under it only fails to write). Best effort: nothing is raised, no other file is touched.

    >>> import tempfile, time
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in (".ab.x1.tmp", ".notes.txt.x1.tmp"):
    ...     (folder / name).write_bytes(b"")
    ...     os.utime(folder / name, (0, 0))
    0
    0
    >>> remove_stale_temporaries(folder, "[a-z]{2}", 60)
    >>> sorted(path.name for path in folder.iterdir())
    ['.notes.txt.x1.tmp']
    """
    now = time.time()
    mine = re.compile(rf"\.(?:{targets})\..+\.tmp")
    try:
        for leftover in folder.iterdir():
            if mine.fullmatch(leftover.name):
                with contextlib.suppress(OSError):
                    if now - leftover.lstat().st_mtime > older_than:
                        leftover.unlink()
    except OSError:
        pass


def _temporary(directory: int, target: Path, mode: int) -> tuple[int, str]:
    """A new file beside ``target`` (same file system, so the rename is atomic) in the
    ``directory`` held open, created with ``mode`` for the umask to reduce: its descriptor
    and name (relative to ``directory``); raises OSError."""
    longest = _name_max(target.parent)
    for _ in range(100):
        name = temporary_name(target.name, longest)
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
            return os.open(name, flags, mode, dir_fd=directory), name
        except FileExistsError:
            continue
        except OSError as error:
            raise OSError(error.errno, f"{error.strerror} ({shown(target.parent)})") from None
    raise FileExistsError(errno.EEXIST, "no free temporary name beside it")
