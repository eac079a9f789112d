"""``-o FILE`` and every file written for a user (exact/core/files.py): written whole or not at all,
beside the real target; symlinks followed, directories/devices/FIFOs/sockets refused with one
line and exit 2 (also as root: nothing is replaced by a regular file); the usual file mode."""

from __future__ import annotations

import argparse
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from exact.cli.app import main
from exact.core.files import OutputError, output_name, replace_atomically, write_file

# the cheapest command with an output: the tie on one deck
COMMAND = ["analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--json"]


def run(*args: str, umask: int | None = None) -> subprocess.CompletedProcess:
    """The real command line, in a fresh process (a FIFO must not block the test run)."""
    return subprocess.run([sys.executable, "-m", "exact", *args], capture_output=True,
                          text=True, timeout=120,
                          preexec_fn=None if umask is None else (lambda: os.umask(umask)))


def refused(capsys, target: str | Path, word: str) -> None:
    assert main([*COMMAND, "-o", str(target)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and word in lines[0], captured.err
    assert captured.out == "" and "Traceback" not in captured.err


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_directory_is_refused(tmp_path: Path, capsys) -> None:
    refused(capsys, tmp_path, "a directory")
    assert tmp_path.is_dir() and list(tmp_path.iterdir()) == []


def test_a_missing_directory_is_one_line(tmp_path: Path, capsys) -> None:
    refused(capsys, tmp_path / "no" / "such" / "out.json", "no directory")
    assert list(tmp_path.iterdir()) == []


def test_empty_output_name(capsys) -> None:
    refused(capsys, "", "--output is empty")


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
def test_devices_are_refused_and_stay_devices(device: str, capsys) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    refused(capsys, device, "a character device")
    assert stat.S_ISCHR(os.stat(device).st_mode)  # as root too: never replaced by a file


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run(*COMMAND, "-o", str(fifo))  # would block forever if the FIFO were opened
    assert result.returncode == 2 and "a FIFO" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and leftovers(tmp_path) == []


def test_a_socket_is_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        refused(capsys, path, "a socket")
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        server.close()


def test_a_symlink_is_followed_and_kept(tmp_path: Path, capsys) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "table.json"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main([*COMMAND, "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["total"] == 14_658_134_400
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # a replaced file keeps its mode
    # the temporary file went beside the real target, and is gone
    assert leftovers(tmp_path) == leftovers(tmp_path / "real") == []


def test_a_symlink_to_another_file_system(tmp_path: Path, capsys) -> None:
    other = Path("/dev/shm")
    if not other.is_dir() or os.stat(other).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second file system to link to")
    target = other / f"exact-test-{os.getpid()}.json"
    try:
        link = tmp_path / "out.json"
        link.symlink_to(target)
        target.write_text("old\n")
        assert main([*COMMAND, "-o", str(link)]) == 0
        assert json.loads(target.read_text())["total"] == 14_658_134_400 and link.is_symlink()
        assert not [p for p in other.iterdir() if p.name.startswith(f".{target.name}.")]
    finally:
        target.unlink(missing_ok=True)


def test_a_dangling_symlink_is_refused(tmp_path: Path, capsys) -> None:
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "missing.json")
    refused(capsys, link, "symbolic link to a missing file")
    assert link.is_symlink() and not (tmp_path / "missing.json").exists()


def test_a_symlink_to_a_device_is_refused(tmp_path: Path, capsys) -> None:
    link = tmp_path / "out.json"
    link.symlink_to("/dev/full")
    refused(capsys, link, "a character device")
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_loop_of_symlinks_is_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    refused(capsys, tmp_path / "a", "Too many levels of symbolic links")


def test_a_read_only_directory(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    kept = folder / "out.json"
    kept.write_text("kept\n")
    folder.chmod(0o555)
    try:
        if os.geteuid() != 0:  # root ignores the permission: nothing to refuse then
            refused(capsys, kept, "Permission denied")
        # a run that fails never clobbers the file, root or not
        assert main(["analyze", "punto-banco", "--remove", "ZZ", "-o", str(kept)]) == 2
        assert kept.read_text() == "kept\n" and leftovers(folder) == []
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_has_the_umask_mode(tmp_path: Path, capsys, umask: int, mode: int) -> None:
    target = tmp_path / "out.json"
    saved = os.umask(umask)
    try:
        assert main([*COMMAND, "-o", str(target)]) == 0
    finally:
        os.umask(saved)
    assert stat.S_IMODE(target.stat().st_mode) == mode  # not mkstemp's 0600


def test_the_real_command_line_writes_with_the_umask_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    result = run(*COMMAND, "-o", str(target), umask=0o027)
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"exact: wrote {str(target)!r} (JSON)\n"  # the one line (issue 31)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert json.loads(target.read_text())["total"] == 14_658_134_400


def test_a_read_only_file_is_kept(tmp_path: Path, capsys) -> None:
    kept = tmp_path / "out.json"
    kept.write_text("kept\n")
    kept.chmod(0o444)
    if os.geteuid() == 0:
        pytest.skip("root may write any file")
    refused(capsys, kept, "Permission denied")
    assert kept.read_text() == "kept\n"


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(tmp_path: Path, capsys,
                                                             monkeypatch) -> None:
    target = tmp_path / "out.json"
    target.write_text("old\n")

    def full_disk(*_: object, **__: object) -> None:  # (it is given the directory's fd)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    refused(capsys, target, "No space left on device")
    assert target.read_text() == "old\n" and leftovers(tmp_path) == []


def test_write_file_api(tmp_path: Path) -> None:
    write_file(tmp_path / "a.bin", b"\x00\x01")
    assert (tmp_path / "a.bin").read_bytes() == b"\x00\x01"
    with pytest.raises(OutputError, match="a directory"):
        write_file(tmp_path, "x")
    with pytest.raises(OutputError, match=r"/a\\nb':"):  # a newline in a name stays one line
        write_file(tmp_path / "missing" / "a\nb", "x")


class _Failure(Exception):
    pass


def _chunks_then(error: BaseException):
    yield b"new, first half\n"
    raise error


def _raising(error: BaseException):
    def fail(*_: object, **__: object) -> None:
        raise error
    return fail


# Where the core writer can fail, and with what: an OSError (a full disk), another error of
# the caller's (its chunks), Ctrl-C; each before anything is in place. Per case: the error,
# and the os function that raises it (None: the chunks raise it after a first chunk).
_FAILURES = {
    "chunks raise": (_Failure, None),
    "chunks interrupted": (KeyboardInterrupt, None),
    "fsync fails": (lambda: OSError(28, "full"), "fsync"),
    "replace fails": (lambda: OSError(13, "no"), "replace"),
    "replace interrupted": (KeyboardInterrupt, "replace"),
}


@pytest.mark.parametrize("failure", _FAILURES)
def test_the_core_writer_leaves_the_old_file_and_no_temporary_on_any_failure(
        tmp_path: Path, monkeypatch, failure: str) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old\n")
    make_error, raiser = _FAILURES[failure]
    planted = make_error()
    with monkeypatch.context() as patch:
        if raiser is None:
            chunks = _chunks_then(planted)
        else:
            patch.setattr(os, raiser, _raising(planted))
            chunks = iter([b"new\n"])
        with pytest.raises(BaseException) as caught:
            replace_atomically(target, chunks)
    assert caught.value is planted  # the caller's error, unchanged
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]  # no temporary, of any name
    assert target.read_bytes() == b"old\n"


def test_the_core_writer_writes_every_chunk_with_the_mode_asked(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    saved = os.umask(0o027)
    try:
        replace_atomically(target, iter([b"a", b"", b"bc"]))
        assert target.read_bytes() == b"abc"
        assert stat.S_IMODE(target.stat().st_mode) == 0o640  # 0666 less the umask
        private = tmp_path / "private"
        replace_atomically(private, [b"x"], new_mode=0o600)  # the cache's entries
        assert stat.S_IMODE(private.stat().st_mode) == 0o600
        private.chmod(0o604)
        replace_atomically(private, [b"y"], like=private.stat())  # a replaced file's mode kept
        assert stat.S_IMODE(private.stat().st_mode) == 0o604 and private.read_bytes() == b"y"
    finally:
        os.umask(saved)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin", "private"]


def test_a_workbook_is_written_as_every_user_file(tmp_path: Path) -> None:
    """The spreadsheet writer refuses what write_file refuses (a directory; a device, which
    replaced by root would be lost) with its own typed error, and follows a link."""
    from exact.render.spreadsheet import SpreadsheetError, write_bytes

    with pytest.raises(SpreadsheetError, match="a directory"):
        write_bytes(tmp_path, b"PK")
    if os.path.exists("/dev/null"):
        with pytest.raises(SpreadsheetError, match="character device"):
            write_bytes(Path("/dev/null"), b"PK")
    real, link = tmp_path / "real.xlsx", tmp_path / "link.xlsx"
    real.write_bytes(b"old")
    link.symlink_to(real)
    write_bytes(link, b"PK")
    assert link.is_symlink() and real.read_bytes() == b"PK" and leftovers(tmp_path) == []


def test_reports_out_that_is_a_file_is_one_line(tmp_path: Path, capsys) -> None:
    from exact.reports.build import main as reports_main

    blocker = tmp_path / "file"
    blocker.write_text("not a folder\n")
    assert reports_main(["punto-banco", "--out", str(blocker)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "cannot write" in lines[0]
    assert blocker.read_text() == "not a folder\n"


@pytest.mark.parametrize(("name", "problem"), [
    ("a\0b", "not a file name"),
    ("x" * 256, "longer than 255 bytes"), ("d/" + "é" * 128, "longer than 255 bytes"),
    ("a/" * 2049, "a path longer than 4,096 bytes"), ("\udcff" * 2, None), ("./b.json", None),
    ("no/such/b.json", "no directory"),
    ("x" * 255, None),
])
def test_an_output_name_no_file_can_have_is_refused_before_any_work(name, problem):
    """The name is checked in bytes as the file system counts them (é is two), and its
    directory must exist; a name that could be written passes (what it names, a directory
    or a device, is checked when it is written)."""
    if problem is None:
        assert output_name(name) == name
    else:
        with pytest.raises(argparse.ArgumentTypeError, match=problem):
            output_name(name)


def _usage_refusal(capsys, *args: str) -> str:
    """The one line of a run refused as argparse read its ``-o``: a usage error, so before
    the command's work started."""
    assert main([*args]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and captured.out == "" and "Traceback" not in captured.err
    assert lines[0].startswith("exact: usage error: argument --"), lines[0]
    return lines[0]


@pytest.mark.parametrize("option", ["-o", "--xlsx"])
def test_what_cannot_be_written_is_refused_before_the_work(tmp_path: Path, capsys,
                                                           option: str) -> None:
    """A directory, a device, a path through a file: refused by argparse (before the analysis
    that would take seconds), short enough that argparse's cut does not hit it."""
    blocker = tmp_path / "file"
    blocker.write_text("kept\n")
    os.mkfifo(tmp_path / "pipe")  # refused before it is opened: nothing blocks
    for name, word in [(str(tmp_path), "a directory"), (str(tmp_path / "pipe"), "a FIFO"),
                       (str(blocker / "out.json"), "Not a directory")]:
        line = _usage_refusal(capsys, "eor", "century21", option, name) if option == "-o" \
            else _usage_refusal(capsys, *COMMAND[:2], option, name)
        assert word in line and line.endswith("(see --help)"), line  # not cut
    assert blocker.read_text() == "kept\n" and sorted(os.listdir(tmp_path)) == ["file", "pipe"]


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "/dev/stderr"])
def test_a_descriptor_name_is_refused_whatever_it_is_open_on(name: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="open file descriptor"):
        output_name(name)


def test_a_descriptor_name_does_not_clobber_the_file_it_is_open_on(tmp_path: Path) -> None:
    """``-o /dev/stdout >> log`` replaced the log by rename (the run meant to append to it)."""
    log = tmp_path / "log"
    log.write_text("earlier\n")
    with open(log, "a") as stream:
        result = subprocess.run([sys.executable, "-m", "exact", *COMMAND, "-o", "/dev/stdout"],
                                stdout=stream, stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 2 and "open file descriptor" in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert log.read_text() == "earlier\n" and leftovers(tmp_path) == []


def test_a_read_only_directory_is_refused_before_the_work(tmp_path: Path, capsys,
                                                           monkeypatch) -> None:
    """The new file is made beside the target: its directory must be writable. (Root may
    write any directory, so the test makes the system say no.)"""
    folder = tmp_path / "ro"
    folder.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False
                        if Path(path) == folder else real_access(path, mode, **kw))
    line = _usage_refusal(capsys, *COMMAND, "-o", str(folder / "out.json"))
    assert "Permission denied (directory" in line
    with pytest.raises(OutputError, match="Permission denied"):
        write_file(folder / "out.json", "x")
    assert list(folder.iterdir()) == []
