"""The end of a run is one line on standard error whatever happens to its streams or to it
(issue 26): standard output full (``> /dev/full``), closed (``>&-``) or of an encoding that
cannot hold the text (``PYTHONIOENCODING=ascii``, ``LC_ALL=C`` without UTF-8 mode) ended in a
traceback; so did Ctrl-C; SIGTERM during a write left its temporary file. Each is run in a real
process. A signal is sent when the child is known to be at the point tested: a patched step
(the analysis, or the writer's fsync) makes a marker file and waits; the test polls for it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exact.cli.app import main

ANALYZE = ["analyze", "punto-banco", "--decks", "1", "--bet", "tie"]
NON_ASCII = ["list-bets", "punto-banco"]  # its bets include "Egalité"


def _environment(**changes: str) -> dict[str, str]:
    """This environment without the settings of the streams' encoding, plus ``changes``."""
    keep = {name: value for name, value in os.environ.items()
            if name not in ("PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LANGUAGE")
            and not name.startswith("LC_")}
    return {**keep, **changes}


def _run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("env", _environment(LC_ALL="C.UTF-8"))
    return subprocess.run([sys.executable, "-m", "exact", *argv], stderr=subprocess.PIPE,
                          timeout=120, **kwargs)


def _one_line(result: subprocess.CompletedProcess, status: int, *words: str) -> str:
    error = result.stderr.decode("utf-8", "backslashreplace")
    lines = error.splitlines()
    assert result.returncode == status, (result.returncode, error)
    assert len(lines) == 1 and "Traceback" not in error and "Exception ignored" not in error, \
        error
    assert all(word in lines[0] for word in words), lines[0]
    return lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_standard_output_is_one_line() -> None:
    with open("/dev/full", "wb") as full:
        result = _run(NON_ASCII, stdout=full)
    _one_line(result, 2, "standard output", "No space left")


def test_a_closed_standard_output_is_one_line() -> None:
    result = _run(NON_ASCII, stdout=None, preexec_fn=lambda: os.close(1))
    _one_line(result, 2, "standard output", "closed")


def test_a_closed_standard_output_does_not_stop_a_run_writing_a_file(tmp_path: Path) -> None:
    result = _run([*ANALYZE, "-o", str(tmp_path / "out.txt")], stdout=None,
                  preexec_fn=lambda: os.close(1))
    assert result.returncode == 0  # the one line names the file written (issue 31)
    assert result.stderr == f"exact: wrote {str(tmp_path / 'out.txt')!r} (text)\n".encode()
    assert "tie" in (tmp_path / "out.txt").read_text().lower()


@pytest.mark.parametrize("environment", [{"PYTHONIOENCODING": "ascii", "LC_ALL": "C.UTF-8"},
                                         {"LC_ALL": "C", "PYTHONUTF8": "0"},
                                         {"PYTHONIOENCODING": "ascii:strict"}],
                         ids=["PYTHONIOENCODING", "C-locale", "strict"])
def test_an_encoding_without_the_characters_is_one_line_and_writes_nothing(
        environment: dict[str, str]) -> None:
    result = _run(NON_ASCII, env=_environment(**environment))
    line = _one_line(result, 2, "standard output", "encoding", "PYTHONIOENCODING=utf-8")
    assert "'\\xe9'" in line and result.stdout == b""  # not half of the listing


def test_the_c_locale_is_utf8_mode_and_works() -> None:
    """Under LC_ALL=C Python runs in UTF-8 mode (PEP 540): the listing is written whole."""
    result = _run(NON_ASCII, env=_environment(LC_ALL="C"))
    assert result.returncode == 0 and "Egalité" in result.stdout.decode()


def test_an_error_with_standard_error_closed_or_ascii_is_still_status_2(tmp_path: Path
                                                                        ) -> None:
    """The one line cannot be printed (stderr closed) or holds a character the encoding
    lacks (escaped): the status is 2 all the same, never a traceback."""
    name = "no/ü.json"
    closed = subprocess.run([sys.executable, "-m", "exact", *ANALYZE, "-o", name],
                            stdout=subprocess.PIPE, stderr=None, timeout=120, cwd=tmp_path,
                            preexec_fn=lambda: os.close(2))
    assert closed.returncode == 2 and closed.stdout == b""
    strict = _run([*ANALYZE, "-o", name], env=_environment(PYTHONIOENCODING="ascii:strict"),
                  cwd=tmp_path)
    _one_line(strict, 2, "no directory", "\\xfc")


def test_a_reader_gone_is_status_1_and_silent() -> None:
    """``exact ... | head -1``: a broken pipe ends the run at once with status 1 and no
    message (as the shell's own tools do), not a traceback or 'Exception ignored'."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = _run(NON_ASCII, stdout=write)
    finally:
        os.close(write)
    assert result.returncode == 1 and result.stderr == b"", result.stderr


@pytest.mark.parametrize("length", [241, 242, 250, 255])
def test_a_long_output_name_is_written(tmp_path: Path, capsys, length: int) -> None:
    """A name of 242 to 255 bytes is valid, but the temporary name beside it (15 bytes
    longer) was not: the run failed after its work. The temporary name is cut to fit."""
    for name in ("x" * length, "é" * (length // 2) + "x" * (length % 2)):
        target = tmp_path / name
        assert main([*ANALYZE, "-o", str(target)]) == 0, capsys.readouterr().err
        assert "tie" in target.read_text().lower()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# A child that runs the command line, but stops at STEP ("work": the analysis; "write": the
# writer's fsync of the output's temporary file, made and filled: not the fsync of a disk-cache
# entry a cold cache writes first), makes the marker file and waits there.
CHILD = """
import os, sys, time
from pathlib import Path
from exact.cli import app, bet_commands
marker, step = Path(sys.argv[1]), sys.argv[2]
synced = os.fsync
def wait(*args, **kwargs):
    if step == "write" and not os.readlink(f"/proc/self/fd/{args[0]}").startswith(
            str(marker.parent)):
        return synced(*args)
    marker.write_text("here")
    time.sleep(600)
if step == "work":
    bet_commands.analyze = wait
else:
    os.fsync = wait
sys.exit(app.main(sys.argv[3:]))
"""


def _stopped(tmp_path: Path, step: str, number: signal.Signals) -> tuple[str, Path]:
    """Run the child to ``step``, send it ``number``; its standard error (it must have
    exited with the shell's status for the signal) and the output file's path."""
    target = tmp_path / "out.txt"
    target.write_text("the old content\n")
    marker = tmp_path / "marker"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(marker), step, *ANALYZE, "-o", str(target)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(LC_ALL="C.UTF-8"),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120  # generous: the child imports, then parses
        while not marker.exists():
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the child never reached its step"
            time.sleep(0.05)
        writing = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert len(writing) == (step == "write"), writing  # the temporary file, being written
        child.send_signal(number)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    error = err.decode()
    assert child.returncode == 128 + number, (child.returncode, error)
    assert len(error.splitlines()) == 1 and "Traceback" not in error, error
    assert out == b""
    return error, target


@pytest.mark.parametrize("step", ["work", "write"])
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_run_in_one_line_and_leaves_no_temporary_file(
        tmp_path: Path, step: str, number: signal.Signals) -> None:
    error, target = _stopped(tmp_path, step, number)
    assert ("interrupted" if number == signal.SIGINT else "terminated") in error
    assert target.read_text() == "the old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marker", "out.txt"]


def test_main_restores_the_sigterm_handler_it_set() -> None:
    """The handler is the command line's for the run only (a program calling main keeps its
    own)."""
    before = signal.getsignal(signal.SIGTERM)
    assert main(["games"]) == 0
    assert signal.getsignal(signal.SIGTERM) is before


def test_main_runs_off_the_main_thread(capsys) -> None:
    """Only the main thread may set a signal handler: elsewhere (a notebook's worker thread)
    the run goes on without one."""
    import threading

    statuses: list[int] = []
    worker = threading.Thread(target=lambda: statuses.append(main(["games"])))
    worker.start()
    worker.join(60)
    assert statuses == [0] and "punto-banco" in capsys.readouterr().out
