"""`make bench-compare BASE=<revision>`: the same commands timed for an earlier revision and
for this checkout, so "not slower than before" is a measurement anyone can repeat.

Each command runs as a user meets it: a fresh process (`python -m exact ...`), timed from
process start (interpreter, imports, work, output), bytecode cached per tree, with either an
empty disk cache (a first run ever) or one warmed by an untimed run. The two trees alternate,
and which goes first alternates every round, so a machine that slows down or speeds up part
way weighs on both alike; the figures are medians of wall time and of the child's CPU time
(user + system, from ``getrusage``). The ratios are paired: each round's after/before ratio
of the two runs made side by side, then the median of those ratios with its quartiles, so a
stretch of rounds where the machine ran slow cancels out instead of widening the spread.
Only command-line commands are compared: they are the stable interface, where the library's
modules may have moved between the revisions.

On a shared or virtual machine single runs vary by a third; use enough rounds (the default
is 9) and a quiet machine, or ``--instructions``: each command once per tree under valgrind's
callgrind, counting the instructions it runs, which no other load on the machine changes
(they repeat to within about 1%). It is about fifty times slower than a timed run, and it
does not count time spent waiting on memory.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]

# (label, arguments, cache): "empty" = a fresh cache for every run, "warm" = one kept per tree
COMMANDS: tuple[tuple[str, list[str], str], ...] = (
    ("main bets, empty cache",
     ["analyze", "punto-banco", "--decks", "8", "--bet", "banker", "--bet", "player",
      "--bet", "tie"], "empty"),
    ("main bets, cache on disk",
     ["analyze", "punto-banco", "--decks", "8", "--bet", "banker", "--bet", "player",
      "--bet", "tie"], "warm"),
    ("NINES, empty cache", ["analyze", "nine-and-nines", "--decks", "8", "--bet", "nines"],
     "empty"),
    ("NINE P+B, empty cache",
     ["analyze", "nine-and-nines", "--decks", "8", "--bet", "nine-player", "--bet",
      "nine-banker"], "empty"),
    ("NINE P+B, cache on disk",
     ["analyze", "nine-and-nines", "--decks", "8", "--bet", "nine-player", "--bet",
      "nine-banker"], "warm"),
    ("all PB bets, empty cache", ["analyze", "punto-banco", "--decks", "8"], "empty"),
    ("all PB bets, cache on disk", ["analyze", "punto-banco", "--decks", "8"], "warm"),
    ("eor punto-banco, cache on disk", ["eor", "punto-banco", "--decks", "8"], "warm"),
    ("eor nine-and-nines, cache on disk", ["eor", "nine-and-nines", "--decks", "8"], "warm"),
    ("eor century21", ["eor", "century21"], "warm"),
    ("century21 House Way", ["analyze", "century21"], "warm"),
    ("century21 equilibrium", ["analyze", "century21", "--strategy", "equilibrium"], "warm"),
    ("chemin de fer equilibrium", ["analyze", "chemin-de-fer", "--strategy", "equilibrium"],
     "warm"),
    ("chemin de fer banker-cards, with replacement",
     ["analyze", "chemin-de-fer", "--information", "banker-cards", "--with-replacement",
      "--strategy", "equilibrium"], "warm"),
)


def run(tree: Path, arguments: list[str], cache: str,
        wrapper: tuple[str, ...] = ()) -> tuple[float, float, str]:
    """Wall and CPU seconds and the standard error of ``python -m exact ARGUMENTS`` run from
    ``tree`` (its bytecode kept apart from the other tree's, which has files of the same
    names), under ``wrapper`` (a command such as valgrind's) if given."""
    environment = {name: value for name, value in os.environ.items()
                   if name != "PYTHONDONTWRITEBYTECODE"}
    environment.update(PYTHONPATH=str(tree), EXACT_CACHE_DIR=cache,
                       PYTHONPYCACHEPREFIX=str(Path(tempfile.gettempdir()) / "exact-compare-pyc"
                                               / hashlib.sha256(bytes(tree)).hexdigest()[:16]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*wrapper, sys.executable, "-m", "exact", *arguments], cwd=tree,
                          env=environment, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    errors = done.stderr.decode(errors="replace")
    if done.returncode:
        raise SystemExit(f"{tree}: exact {' '.join(arguments)} failed: {errors[-300:]}")
    return (wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            errors)


# One hash seed: string hashing decides the order of sets and dicts, which moves a command's
# count by about 1% from one seed to another.
CALLGRIND = ("env", "PYTHONHASHSEED=0", "valgrind", "--tool=callgrind",
             "--callgrind-out-file=/dev/null")


def instructions(tree: Path, arguments: list[str], cache: str) -> int:
    """Instructions the command runs (valgrind's callgrind counts them), which unlike time
    do not depend on what else the machine is doing: the same on every run to within about
    1% (memory addresses still vary from run to run)."""
    errors = run(tree, arguments, cache, CALLGRIND)[2]
    counted = re.search(r"Collected\s*:\s*(\d+)", errors)
    if counted is None:
        raise SystemExit(f"{tree}: callgrind printed no count: {errors[-300:]}")
    return int(counted.group(1))


def compare(trees: tuple[Path, Path], rounds: int, only: list[str]) -> None:
    chosen = _chosen(only)
    with tempfile.TemporaryDirectory(prefix="exact-compare-") as scratch:
        warm = _warmed(trees, chosen, scratch)
        samples: dict[tuple[Path, str], list[tuple[float, float]]] = {
            (tree, label): [] for tree in trees for label, _, _ in chosen}
        for number in range(rounds):
            for label, arguments, cache in chosen:
                for tree in trees if number % 2 == 0 else trees[::-1]:
                    directory = warm[tree] if cache == "warm" else tempfile.mkdtemp(dir=scratch)
                    samples[tree, label].append(run(tree, arguments, directory)[:2])
                    if cache == "empty":
                        shutil.rmtree(directory)
            print(f"round {number + 1} of {rounds} done", file=sys.stderr, flush=True)
    print(f"{'command (fresh process, from start)':36} {'before ms':>10} {'after ms':>10} "
          f"{'ratio (quartiles)':>18} {'CPU before':>11} {'CPU after':>10} "
          f"{'ratio (quartiles)':>18}")
    for label, _, _ in chosen:
        before, after = samples[trees[0], label], samples[trees[1], label]
        cells = []
        for i in (0, 1):  # wall, then CPU
            ratio = paired_ratio([sample[i] for sample in before],
                                 [sample[i] for sample in after])
            cells.append(f"{statistics.median(s[i] for s in before) * 1000:10,.0f} "
                         f"{statistics.median(s[i] for s in after) * 1000:10,.0f} "
                         f"{ratio[1]:6.2f} ({ratio[0]:.2f}-{ratio[2]:.2f})")
        print(f"{label:36} {cells[0]} {cells[1]:>41}")


def paired_ratio(before: list[float], after: list[float]) -> tuple[float, float, float]:
    """Lower quartile, median and upper quartile of the round-by-round ratios after/before.

    >>> paired_ratio([1.0, 2.0, 4.0], [0.9, 1.8, 3.6])  # a machine slowing down: still 0.9
    (0.9, 0.9, 0.9)
    """
    ratios = [a / b for a, b in zip(after, before, strict=True)]
    if len(ratios) == 1:
        return ratios[0], ratios[0], ratios[0]
    low, median, high = statistics.quantiles(ratios, n=4, method="inclusive")
    return round(low, 12), round(median, 12), round(high, 12)


def compare_instructions(trees: tuple[Path, Path], only: list[str]) -> None:
    """One run of each command per tree under callgrind: instructions before and after."""
    chosen = _chosen(only)
    with tempfile.TemporaryDirectory(prefix="exact-compare-") as scratch:
        warm = _warmed(trees, chosen, scratch)
        counts = {(tree, label): instructions(tree, arguments, warm[tree] if cache == "warm"
                                              else tempfile.mkdtemp(dir=scratch))
                  for label, arguments, cache in chosen for tree in trees}
    print(f"{'command (fresh process, from start)':36} {'instructions before':>20} "
          f"{'after':>16} {'ratio':>6}")
    for label, _, _ in chosen:
        before, after = (counts[tree, label] for tree in trees)
        print(f"{label:36} {before:20,} {after:16,} {after / before:6.3f}")


def _chosen(only: list[str]) -> list[tuple[str, list[str], str]]:
    return [c for c in COMMANDS if not only or any(word in c[0] for word in only)]


def _warmed(trees: tuple[Path, Path], chosen: list[tuple[str, list[str], str]],
            scratch: str) -> dict[Path, str]:
    """Each tree's cache directory for the "warm" lines, after one untimed run of every
    chosen command (which also writes each tree's bytecode)."""
    warm = {tree: str(Path(scratch) / f"warm-{index}") for index, tree in enumerate(trees)}
    for tree in trees:
        for _, arguments, cache in chosen:
            run(tree, arguments, warm[tree] if cache == "warm" else tempfile.mkdtemp(dir=scratch))
    return warm


def _rounds(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= 1000):
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of rounds, 1 to 1000")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("--rounds", type=_rounds, default=9)
    parser.add_argument("--only", nargs="*", default=[],
                        help="only the commands whose label contains one of these words")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions once per command under valgrind's callgrind "
                             "instead of timing rounds (slow, but they repeat within 1%)")
    options = parser.parse_args()
    if options.instructions and shutil.which("valgrind") is None:
        parser.exit(2, "bench_compare: --instructions needs valgrind, which is not installed\n")
    with tempfile.TemporaryDirectory(prefix="exact-base-") as directory:
        base = Path(directory) / "base"
        added = subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "add", "--detach",
                                "--quiet", str(base), options.base], capture_output=True,
                               text=True)
        if added.returncode:
            parser.exit(2, f"bench_compare: no revision {options.base!r} to compare with: "
                           f"{' '.join(added.stderr.split())[:200]}\n")
        try:
            if options.instructions:
                compare_instructions((base, CHECKOUT), options.only)
            else:
                compare((base, CHECKOUT), options.rounds, options.only)
        finally:
            subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "remove", "--force",
                            str(base)], check=False)


if __name__ == "__main__":
    main()
