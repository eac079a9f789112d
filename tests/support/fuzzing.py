"""Fuzz harness: the real command line, in a forked child, under a memory and a time limit.

A fresh ``python -m exact`` spends about a second importing numpy and sympy, and compiling a
game's deal costs seconds more; a fuzz case should cost milliseconds. So a *fork server* (this
file run as a script: ``python tests/support/fuzzing.py --serve``) imports :mod:`exact` once, warms
the in-memory caches with a few valid commands, then for each case forks a child that

* starts its own process group (a hang is killed with everything it spawned),
* sets ``RLIMIT_AS`` (memory), ``RLIMIT_CPU`` (time) and ``RLIMIT_FSIZE`` (no runaway output
  file),
* works in the case's own temporary directory (the case's files are there, by relative name),
* reads standard input from a file, writes standard output and error to files, through text
  streams set up as Python sets them under a UTF-8 locale (stdout strict, stderr
  backslashreplace),
* calls ``exact.cli.app.main(argv)`` (or ``exact.reports.build.main``) exactly as
  ``python -m exact`` does (``sys.exit(main())``: an uncaught exception prints its traceback
  and exits 1) and ``os._exit``\\ s with the status.

The server process is started with one BLAS/OpenMP thread (set before numpy is imported) and
never starts threads itself, so forking it is safe. The test process talks to it by JSON lines
(:class:`ForkServer`); :func:`problems` states what a case's result must satisfy.
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

MEMORY_LIMIT = 1536 * 1024 * 1024  # 1.5 GB of address space per case (issue 11)
TIME_LIMIT = 30.0  # seconds of CPU per case (issue 11's bound), RLIMIT_CPU in the child
# A case blocked without using CPU (a FIFO, a lock) counts as a hang after this many times
# TIME_LIMIT of wall time (at least a minute): CPU time, not wall time, is the bound, so that a
# campaign on a loaded shared machine does not report a case that is merely waiting for a core.
WALL_FACTOR = 4


def wall_limit(timeout: float) -> float:
    """Seconds of wall time after which a case with a CPU limit of ``timeout`` is a hang."""
    return max(WALL_FACTOR * timeout, 60.0)
FILE_SIZE_LIMIT = 256 * 1024 * 1024  # no output file a fuzz case writes needs more
REPOSITORY = Path(__file__).resolve().parents[2]

# Valid commands run once in the server before it forks: their compiled deals, staged grids
# and strategy tables stay in memory, so a case pays only for what is new in it.
WARM_UP = (
    ("analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--bet", "player",
     "--bet", "banker"),
    ("analyze", "punto-banco", "--decks", "1", "--bet", "player-pair", "--bet", "big"),
    ("analyze", "nine-and-nines", "--decks", "1", "--bet", "nines", "--bet", "nine-player"),
    ("eor", "punto-banco", "--decks", "1"),
    ("eor", "nine-and-nines", "--decks", "1", "--bet", "nines"),
    ("edge", "punto-banco", "--decks", "1", "--seen", os.devnull),
    ("edge", "nine-and-nines", "--decks", "1", "--seen", os.devnull),
    ("design", "punto-banco", "--decks", "1", "--bet", "tie", "--solve-for", "Tie",
     "--target-edge", "5%"),
    ("simulate", "punto-banco", "--decks", "1", "--shoes", "1", "--seed", "1",
     "--workers", "1"),
    ("simulate", "nine-and-nines", "--decks", "1", "--shoes", "1", "--seed", "1",
     "--workers", "1"),
    ("analyze", "century21", "--decks", "1"),
    ("analyze", "century21", "--decks", "1", "--strategy", "best"),
    ("analyze", "century21", "--decks", "1", "--strategy", "dealer-best"),
    ("analyze", "century21", "--decks", "1", "--strategy", "equilibrium"),
    ("eor", "century21", "--decks", "1"),
    ("edge", "century21", "--decks", "1", "--seen", os.devnull),
    ("simulate", "century21", "--decks", "1", "--shoes", "1", "--seed", "1", "--workers", "1"),
)


@dataclass
class Case:
    """One run of the command line: ``argv`` (without the program name), files written into
    the case's directory first (name -> bytes; a name may hold a ``/``; special kinds:
    ``fifos``, ``directories``, ``symlinks`` name -> target, ``devices`` name -> (major,
    minor), made only when the server runs as root), and standard input."""

    argv: Sequence[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes = b""
    module: str = "exact"  # or "exact.reports"
    directories: Sequence[str] = ()
    fifos: Sequence[str] = ()
    symlinks: dict[str, str] = field(default_factory=dict)
    devices: dict[str, tuple[int, int]] = field(default_factory=dict)
    read_only: Sequence[str] = ()  # directories made read-only (0555) after the files
    hardlinks: dict[str, str] = field(default_factory=dict)  # name -> an existing file
    # a substring of the one error line the case must be refused with (exit 2), its given
    # files left byte for byte as they were; empty: exit 0 or 2 (issue 26's clashes)
    refused_with: str = ""
    timeout: float = TIME_LIMIT
    keep: bool = False  # keep the case directory (its path is in the result) for inspection
    environment: dict[str, str] = field(default_factory=dict)  # set in the child (a cache dir)
    # a case of the "never-true literals" class: (feature, whether its literal is outside the
    # feature's values); outside, the run must be refused naming the feature, inside it must
    # not be refused for its literal (see literal_problems)
    literal: tuple[str, bool] | None = None

    def to_json(self) -> str:
        return json.dumps({
            "argv": list(self.argv), "module": self.module, "timeout": self.timeout,
            "files": {name: base64.b64encode(data).decode() for name, data in
                      self.files.items()},
            "stdin": base64.b64encode(self.stdin).decode(), "directories": list(self.directories),
            "fifos": list(self.fifos), "symlinks": self.symlinks,
            "devices": {name: list(numbers) for name, numbers in self.devices.items()},
            "read_only": list(self.read_only), "keep": self.keep,
            "hardlinks": self.hardlinks, "refused_with": self.refused_with,
            "environment": self.environment, "literal": self.literal})

    def describe(self, limit: int = 400) -> str:
        """The command and its files, to reproduce a failure (long texts cut)."""
        def cut(text: str) -> str:
            return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"

        module = "exact" if self.module == "exact" else self.module
        lines = [f"python -m {module} " + " ".join(cut(_shell_quote(a)) for a in self.argv)]
        for name, data in self.files.items():
            lines.append(f"  file {name!r} ({len(data)} bytes): {cut(repr(data))}")
        if self.stdin:
            lines.append(f"  stdin ({len(self.stdin)} bytes): {cut(repr(self.stdin))}")
        for kind in ("directories", "fifos", "symlinks", "devices", "read_only", "hardlinks",
                     "environment"):
            if getattr(self, kind):
                lines.append(f"  {kind}: {getattr(self, kind)!r}")
        return "\n".join(lines)


def _shell_quote(text: str) -> str:
    import shlex

    return shlex.quote(text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


@dataclass
class Result:
    """What a case did: exit status (negative: killed by that signal; None: timed out),
    output, wall time, peak memory, the case directory's files after the run (name -> kind,
    size), entries that appeared beside the case directory, and the output file's bytes."""

    status: int | None
    stdout: bytes
    stderr: bytes
    seconds: float
    max_rss_kb: int
    files_after: dict[str, list]
    stray: list[str]
    outputs: dict[str, str]  # file name -> base64 of its content, for regular files written
    directory: str = ""

    @classmethod
    def from_json(cls, text: str) -> Result:
        return cls(**json.loads(text))

    def output(self, name: str) -> bytes | None:
        data = self.outputs.get(name)
        return None if data is None else base64.b64decode(data)


# --- the server -----------------------------------------------------------------------------------
def _prepare(case: dict, directory: Path) -> None:
    for name in case["directories"]:
        (directory / name).mkdir(parents=True, exist_ok=True)
    for name, data in case["files"].items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
    for name in case["fifos"]:
        os.mkfifo(directory / name)
    for name, target in case["symlinks"].items():
        os.symlink(target, directory / name)
    for name, existing in case.get("hardlinks", {}).items():
        os.link(directory / existing, directory / name)
    for name, (major, minor) in case["devices"].items():
        if os.geteuid() == 0:  # a copy of a device node, never the machine's own /dev entry
            os.mknod(directory / name, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    for name in case.get("read_only", ()):
        (directory / name).chmod(0o555)


def _child(case: dict, directory: Path) -> None:
    """In the forked child: set limits and streams, run the command line, exit."""
    import io
    import resource

    status = 70
    try:
        os.setpgid(0, 0)
        os.chdir(directory)
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        cpu_limit = math.ceil(case["timeout"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))
        os.umask(0o022)
        stdin = os.open(directory / ".stdin", os.O_RDONLY)
        stdout = os.open(directory.parent / f"{directory.name}.stdout",
                         os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        stderr = os.open(directory.parent / f"{directory.name}.stderr",
                         os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        for source, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            os.dup2(source, target)
            os.close(source)
        # the streams Python makes for a run under a UTF-8 locale (they live until _exit)
        def stream(descriptor: int, mode: str, errors: str) -> io.TextIOWrapper:
            raw = open(descriptor, mode, closefd=False)  # noqa: SIM115 (lives until _exit)
            return io.TextIOWrapper(raw, encoding="utf-8", errors=errors,
                                    line_buffering=descriptor == 2)

        sys.stdin = stream(0, "rb", "strict")
        sys.stdout = stream(1, "wb", "strict")
        sys.stderr = stream(2, "wb", "backslashreplace")
        sys.argv = ["exact", *case["argv"]]
        os.environ.update(case.get("environment", {}))
        try:
            if case["module"] == "exact.reports":
                from exact.reports.build import main as reports_main

                status = reports_main(case["argv"])
            else:
                from exact.cli.app import main

                status = main(case["argv"])
            status = 0 if status is None else status
        except SystemExit as exit_:  # what sys.exit(main()) and argparse do
            code = exit_.code
            if code is None:
                status = 0
            elif isinstance(code, int):
                status = code
            else:
                print(code, file=sys.stderr)
                status = 1
        except BaseException:  # what the interpreter does with an uncaught exception
            import traceback

            traceback.print_exc()
            status = 1
        try:
            sys.stdout.flush()
        except BaseException:  # a failed flush at exit is what Python reports too
            import traceback

            traceback.print_exc()
            status = 120
        sys.stderr.flush()
    except BaseException:
        try:
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:
            pass
    finally:
        os._exit(status if isinstance(status, int) and 0 <= status < 256 else 1)


def _wait(pid: int, timeout: float) -> tuple[int | None, int]:
    """The child's status (None past :func:`wall_limit` of wall time, after killing its
    process group; -SIGXCPU past ``timeout`` of CPU) and peak RSS."""
    deadline = time.monotonic() + wall_limit(timeout)
    delay = 0.0005
    while True:
        waited, status, usage = os.wait4(pid, os.WNOHANG)
        if waited:
            break
        if time.monotonic() > deadline:
            _kill_group(pid)
            waited, status, usage = os.wait4(pid, 0)
            _kill_group(pid)
            return None, usage.ru_maxrss
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
    _kill_group(pid)  # anything the case left running (worker processes)
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status), usage.ru_maxrss
    return os.WEXITSTATUS(status), usage.ru_maxrss


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _snapshot(directory: Path) -> dict[str, list]:
    found = {}
    for path in sorted(directory.rglob("*")):
        name = str(path.relative_to(directory))
        mode = path.lstat().st_mode
        kind = ("link" if stat.S_ISLNK(mode) else "dir" if stat.S_ISDIR(mode) else
                "file" if stat.S_ISREG(mode) else "fifo" if stat.S_ISFIFO(mode) else
                "char" if stat.S_ISCHR(mode) else "other")
        found[name] = [kind, path.lstat().st_size if kind == "file" else 0,
                       stat.S_IMODE(mode)]
    return found


def _run_case(case: dict, root: Path, number: int) -> dict:
    directory = root / f"case{number}"
    directory.mkdir()
    _prepare(case, directory)
    (directory / ".stdin").write_bytes(base64.b64decode(case["stdin"]))
    before = set(os.listdir(root))
    sys.stdout.flush()
    sys.stderr.flush()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(case, directory)
    status, max_rss = _wait(pid, case["timeout"])
    seconds = time.monotonic() - started
    out_path, err_path = root / f"case{number}.stdout", root / f"case{number}.stderr"
    stdout = out_path.read_bytes() if out_path.exists() else b""
    stderr = err_path.read_bytes() if err_path.exists() else b""
    (directory / ".stdin").unlink()
    files_after = _snapshot(directory)
    outputs = {}  # regular files written by the case: new, or given and changed
    for name, (kind, size, _) in files_after.items():
        if kind == "file" and size <= 8 * 1024 * 1024:
            data = (directory / name).read_bytes()
            given = case["files"].get(name)
            if given is None or base64.b64decode(given) != data:
                outputs[name] = base64.b64encode(data).decode()
    expected = before | {f"case{number}.stdout", f"case{number}.stderr"}
    stray = sorted(set(os.listdir(root)) - expected)
    for name in (out_path, err_path):
        name.unlink(missing_ok=True)
    for name in stray:  # do not let one case's stray file confuse the next
        _remove(root / name)
    if not case.get("keep"):
        _remove(directory)
    return {"status": status, "stdout": stdout.decode("utf-8", "backslashreplace"),
            "stderr": stderr.decode("utf-8", "backslashreplace"), "seconds": seconds,
            "max_rss_kb": max_rss, "files_after": files_after, "stray": stray,
            "outputs": outputs, "directory": str(directory)}


def _remove(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        for child in path.rglob("*"):  # a read-only directory a case made cannot stop us
            if child.is_dir() and not child.is_symlink():
                child.chmod(0o755)
        path.chmod(0o755)
        shutil.rmtree(path, ignore_errors=True)


def _warm_up(commands: Sequence[Sequence[str]]) -> None:
    import contextlib
    import io

    from exact.cli.app import main

    for argv in commands:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(list(argv))


def serve(root: Path) -> None:
    """Read cases (JSON lines) on standard input, answer results (JSON lines)."""
    import gc

    import exact.cli.app
    import exact.reports.build  # noqa: F401
    from exact.cli.app import build_parser
    from exact.games import game_ids, get_game

    build_parser()  # imports what the subcommands import lazily
    for game_id in game_ids():
        get_game(game_id)
    _warm_up(json.loads(os.environ.get("EXACT_FUZZ_WARM_UP", "null")) or WARM_UP)
    gc.collect()
    gc.freeze()  # the children's collections need not touch (and copy) the warmed objects
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    answers.write(b'{"ready": true}\n')
    answers.flush()
    for number, line in enumerate(requests):
        case = json.loads(line)
        result = _run_case(case, root, number)
        answers.write(json.dumps(result).encode() + b"\n")
        answers.flush()


# --- the client -----------------------------------------------------------------------------------
SINGLE_THREADED = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                           "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")}


class ForkServer:
    """A running fork server (see the module docstring); use as a context manager."""

    def __init__(self, root: Path | None = None,
                 warm_up: Sequence[Sequence[str]] | None = None) -> None:
        """``warm_up``: the commands run before forking (default :data:`WARM_UP`; ``[]``
        for none)."""
        self._own_root = root is None
        self.root = Path(tempfile.mkdtemp(prefix="exact-fuzz-")) if root is None else root
        environment = {**os.environ, **SINGLE_THREADED,
                       "PYTHONPATH": os.pathsep.join(
                           [str(REPOSITORY), *filter(None, [os.environ.get("PYTHONPATH")])]),
                       "EXACT_FUZZ_WARM_UP": json.dumps(
                           None if warm_up is None else [list(a) for a in warm_up] or [[
                               "games"]]),
                       "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
        environment.setdefault("EXACT_CACHE_DIR", str(Path.home() / ".cache" / "exact"))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", str(self.root)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment, cwd=self.root)
        ready = self.process.stdout.readline()
        if not ready:
            raise RuntimeError("the fuzz fork server did not start")

    def run(self, case: Case) -> Result:
        self.process.stdin.write(case.to_json().encode() + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the fuzz fork server died on\n{case.describe()}")
        return Result.from_json(answer.decode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._own_root:
            _remove(self.root)

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# --- what every case must satisfy -----------------------------------------------------------------
def _no_constant(name: str) -> object:
    raise ValueError(f"not strict JSON: {name}")


def strict_json(text: str | bytes) -> object:
    """Parse ``text`` as strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` are refused.

    >>> strict_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> strict_json('[NaN]')
    Traceback (most recent call last):
    ...
    ValueError: not strict JSON: NaN
    """
    return json.loads(text, parse_constant=_no_constant)


def option_value(argv: Sequence[str], *names: str) -> str | None:
    """The last value given to one of the options ``names`` (``--x V`` or ``--x=V``).

    >>> option_value(["analyze", "-o", "a", "--output=b"], "-o", "--output")
    'b'
    """
    found = None
    for index, item in enumerate(argv):
        for name in names:
            if item == name and index + 1 < len(argv):
                found = argv[index + 1]
            elif item.startswith(name + "=") and name.startswith("--"):
                found = item[len(name) + 1:]
    return found


LONGEST_ERROR = 600
"""Characters of the one error line: a refusal quotes a hostile value cut short (the case's
file names are short, the values up to thousands of characters)."""


def problems(case: Case, result: Result) -> list[str]:
    """Why ``result`` breaks the contract of issue 11 (empty: it keeps it).

    Exit 0 or 2; on 2 exactly one short line on standard error; never a traceback; on 0 with
    ``--json``, the output (standard output or ``-o`` file) is strict JSON; nothing created
    beside the case's directory; no temporary file left in it; a failed run leaves no output
    file; within the time and memory limits."""
    found = []
    if result.status is None:
        found.append(f"hang: no exit within {wall_limit(case.timeout):.0f} s of wall time")
    elif result.status == -signal.SIGXCPU:
        found.append(f"over {case.timeout:.0f} s of CPU")
    elif result.status < 0:
        found.append(f"killed by signal {-result.status}")
    elif result.status not in (0, 2):
        found.append(f"exit status {result.status}")
    if "Traceback" in result.stderr:
        found.append("traceback on stderr")
    if "MemoryError" in result.stderr or "RecursionError" in result.stderr:
        found.append("MemoryError/RecursionError on stderr")
    if result.status == 2:
        lines = result.stderr.splitlines()
        if len(lines) != 1 or not result.stderr.endswith("\n") or not lines[0].strip():
            found.append(f"exit 2 with {len(lines)} lines on stderr (want exactly one)")
        elif len(lines[0]) > LONGEST_ERROR:
            found.append(f"an error line of {len(lines[0]):,} characters (a value echoed whole?)")
    output = option_value(case.argv, "-o", "--output")
    if result.status == 0 and "--json" in case.argv and case.module == "exact":
        text: str | None = result.stdout
        if output:
            written = case.symlinks.get(output, output)  # a followed symlink: its target
            data = result.output(written)
            kind = result.files_after.get(written, ["missing"])[0]
            text = (data.decode("utf-8", "replace") if data is not None else
                    result.stdout if kind == "missing" and output == "-" else None)
            if text is None and kind == "file":
                found.append(f"output file {written!r} too large or unchanged")
            elif text is None and not Path(written).is_absolute():
                found.append(f"exit 0 but no output file {output!r}")
        if text is not None:
            try:
                data = strict_json(text)
            except ValueError as error:
                found.append(f"--json output is not strict JSON: {str(error)[:200]}")
            else:
                try:
                    found += [f"wrong output: {problem}" for problem in invariants(data)]
                except Exception as error:  # an output of a shape not foreseen: look at it
                    found.append(f"invariants unreadable: {type(error).__name__}: {error}")
    sheet = option_value(case.argv, "--xlsx") if case.module == "exact" else None
    for target in filter(None, (output, sheet)):
        written = case.symlinks.get(target, target)
        if result.status != 0 and written in case.files and result.output(written) is not None:
            found.append(f"a failed run changed the output file {written!r}")
    if case.refused_with:
        if result.status != 2 or case.refused_with not in result.stderr:
            found.append(f"not refused with {case.refused_with!r} (exit {result.status})")
        changed = sorted(name for name in case.files if result.output(name) is not None)
        if changed:
            found.append(f"a refused run changed its input {changed[:3]}")
    if result.stray:
        found.append(f"files created outside the case directory: {result.stray}")
    given = set(case.files) | set(case.directories) | set(case.fifos) | set(case.symlinks) | \
        set(case.devices) | set(case.hardlinks)
    parents = {str(Path(name).parent) for name in given} - {"."}
    new = [name for name in result.files_after if name not in given and name not in parents]
    allowed = {output, sheet} if result.status == 0 else set()
    leftovers = [name for name in new if name not in allowed]
    if leftovers:
        found.append(f"files left in the case directory: {leftovers[:5]}")
    for name in case.fifos:
        if result.files_after.get(name, ["missing"])[0] != "fifo":
            found.append(f"the FIFO {name!r} was replaced")
    for name in case.devices:
        if os.geteuid() == 0 and result.files_after.get(name, ["missing"])[0] != "char":
            found.append(f"the device {name!r} was replaced")
    for name in case.symlinks:
        if result.files_after.get(name, ["missing"])[0] != "link":
            found.append(f"the symlink {name!r} was replaced")
    for name in case.directories:
        if result.files_after.get(name, ["missing"])[0] != "dir":
            found.append(f"the directory {name!r} was replaced")
    return found + literal_problems(case, result)


# How a refusal of a literal reads (exact.model.literals)
LITERAL_REFUSALS = ("is not a value of", "never holds", "always holds")


def literal_problems(case: Case, result: Result) -> list[str]:
    """A case of the never-true literals class: a literal outside its feature's values is
    refused (exit 2) by a line naming the feature; one inside them is not refused for it."""
    if case.literal is None:
        return []
    feature, outside = case.literal
    refused = result.status == 2 and any(r in result.stderr for r in LITERAL_REFUSALS)
    if outside and not (refused and feature in result.stderr):
        return [f"a literal {feature} never takes was not refused naming it (exit "
                f"{result.status})"]
    if not outside and refused:
        return [f"a literal {feature} can take was refused: {result.stderr.strip()[:200]}"]
    return []


@dataclass
class Differential:
    """Runs of one command line, one for each bet (``cases``: label -> case), that must not
    share cache entries (issue 26): each is run cold, in a fresh ``EXACT_CACHE_DIR``, then in
    the directory the next label's cold run warmed, then in its own again (warmed by itself
    and by the other); every run must give what its cold run gave (status, standard output),
    with no cache warning, and keep every rule of :func:`problems`."""

    cases: dict[str, Case]

    def to_json(self) -> str:
        return json.dumps({label: json.loads(case.to_json())
                           for label, case in self.cases.items()})

    def describe(self, limit: int = 400) -> str:
        return "\n".join(f"[{label}] {case.describe(limit)}"
                         for label, case in self.cases.items())


def run_differential(server: ForkServer, differential: Differential
                     ) -> tuple[list[Result], list[tuple[Case, Result, list[str]]]]:
    """Run ``differential``'s schedule (its docstring) in cache directories of a temporary
    folder outside the server's root; the cold runs' results and the failures, each with
    the case as run (its cache directory named in ``environment``)."""
    from dataclasses import replace

    labels = list(differential.cases)
    failures: list[tuple[Case, Result, list[str]]] = []
    cold: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="exact-fuzz-cache-") as folder:
        def run(label: str, directory: str) -> Result:
            case = replace(differential.cases[label],
                           environment={"EXACT_CACHE_DIR": str(Path(folder) / directory)})
            result = server.run(case)
            found = problems(case, result)
            if "cache entry" in result.stderr:
                found.append("a cache warning: an entry met under another key")
            if label in cold and (result.status, result.stdout) != (
                    cold[label].status, cold[label].stdout):
                found.append(f"cache: not the cold run's result (status {result.status} "
                             f"against {cold[label].status}; run after {directory})")
            if found:
                failures.append((case, result, found))
            return result

        for label in labels:
            cold[label] = run(label, label)
        for index, label in enumerate(labels):
            run(label, labels[(index + 1) % len(labels)])
        for label in labels:
            run(label, label)
    return list(cold.values()), failures


def _falling(n: int, k: int) -> int:
    return math.prod(range(n - k + 1, n + 1)) if 0 <= k <= n else 0


def invariants(data: object) -> list[str]:
    """What a --json result must satisfy whatever the inputs, checked without the toolkit (a
    silently wrong result breaks one): an analysis's counting unit is N!/(N-r)! for its shoe
    and every bet's outcomes count it whole, with probabilities summing to 1; the next round's
    counts (edge) sum to the unseen cards' N!/(N-r)!; a settled round's net is its wins less
    its losses, and its stake the sum of its wagers; a strategy game's best response gains
    nothing by deviating (an equilibrium: neither side), and no side gains less than nothing.

    >>> invariants({"totals": {"won": "3", "lost": "1", "net": "1"}})
    ['settle: net 1 is not won 3 less lost 1']
    """
    from fractions import Fraction

    found: list[str] = []
    if not isinstance(data, dict):
        return found
    bets = data.get("bets")
    if isinstance(bets, dict) and "round_cards" in data and isinstance(data.get("shoe"), dict):
        total, unit = data.get("total"), data["round_cards"]
        if total != _falling(data["shoe"].get("cards", -1), unit):
            found.append(f"analyze: total {total} is not N!/(N-{unit})! of the shoe")
        for bet_id, bet in bets.items():
            outcomes = bet.get("outcomes", []) if isinstance(bet, dict) else []
            # (a mixed strategy's combinations are exact fractions, written as text)
            if outcomes and sum(Fraction(str(o["combinations"])) for o in outcomes) != total:
                found.append(f"analyze: the outcomes of {bet_id} do not count the total")
            if outcomes and sum(Fraction(o["probability"]) for o in outcomes) != 1:
                found.append(f"analyze: the probabilities of {bet_id} do not sum to 1")
    if isinstance(bets, dict) and "cards_unseen" in data and not data.get("known"):
        for bet_id, bet in bets.items():
            if isinstance(bet, dict) and "counts" in bet:
                total = int(bet["total"])
                if sum(map(int, bet["counts"])) != total:
                    found.append(f"edge: the counts of {bet_id} do not sum to its total")
                if total != _falling(data["cards_unseen"], 6):  # the two games of six cards
                    found.append(f"edge: total of {bet_id} is not N!/(N-6)! of the unseen cards")
    check, strategy = data.get("deviation_check"), data.get("strategy")
    if isinstance(check, dict):  # a strategy game: a best response gains nothing by deviating
        name = strategy.get("name") if isinstance(strategy, dict) else strategy
        gains = {"player": check.get("player_gain", check.get("player_gain_by_deviating")),
                 "dealer": check.get("banker_gain", check.get("dealer_gain_by_deviating"))}
        best = {"best": ("player",), "dealer-best": ("dealer",),
                "equilibrium": ("player", "dealer")}.get(str(name), ())
        for side, gain in gains.items():
            if gain is not None and (Fraction(gain) < 0 or (side in best and Fraction(gain))):
                found.append(f"{name}: the {side} gains {gain} by deviating")
    totals = data.get("totals")
    if isinstance(totals, dict) and {"won", "lost", "net"} <= set(totals):
        won, lost, net = (Fraction(totals[key]) for key in ("won", "lost", "net"))
        if net != won - lost:
            found.append(f"settle: net {net} is not won {won} less lost {lost}")
        wagers = data.get("wagers", [])
        if "staked" in totals and sum(Fraction(w["amount"]) for w in wagers) != \
                Fraction(totals["staked"]):
            found.append("settle: the stake is not the sum of the wagers")
    return found


def report(failures: Sequence[tuple[Case, Result, list[str]]], limit: int = 30) -> str:
    """Failures grouped by their first problem, each group with a few cases to reproduce."""
    groups: dict[str, list[tuple[Case, Result, list[str]]]] = {}
    for case, result, found in failures:
        key = _cause(found, result)
        groups.setdefault(key, []).append((case, result, found))
    lines = [f"{len(failures)} failing case(s) in {len(groups)} group(s)"]
    for key, members in sorted(groups.items(), key=lambda item: -len(item[1]))[:limit]:
        lines.append(f"\n== {len(members)} x {key}")
        for case, result, found in members[:3]:
            lines.append(case.describe(200))
            lines.append(f"  -> status {result.status}, {result.seconds:.2f} s: {'; '.join(found)}")
            lines.append("  stderr: " + result.stderr[-600:].replace("\n", "\n          "))
    return "\n".join(lines)


def _cause(found: list[str], result: Result) -> str:
    """A short key for grouping: the problem and, for a traceback, its last line."""
    if "Traceback" in result.stderr:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        error = lines[-1].split(":")[0] if lines else "?"
        frames = [line.strip() for line in lines if line.strip().startswith("File ")
                  and "/exact/" in line]
        where = frames[-1].split("/exact/")[-1] if frames else ""
        return f"traceback {error} at {where}"
    return found[0].split(":")[0] if found else "?"


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(Path(sys.argv[2]))
    else:
        sys.exit("usage: python tests/support/fuzzing.py --serve ROOT (started by ForkServer)")
