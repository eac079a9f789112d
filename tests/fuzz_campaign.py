"""``make fuzz``: a long fuzz campaign with the strategies of the fuzz suite.

    FUZZ_CASES=20000 FUZZ_SEED=7 python tests/fuzz_campaign.py [COMMAND ...]

Runs FUZZ_CASES generated cases (default 20,000), shared among the commands (default: every
command, in the proportions of tests/system/test_fuzz.py), from FUZZ_SEED (default: a random seed,
printed so that a run can be repeated). Prints each command's depth (cases run, finished with
exit 0, refused with exit 2, other) and the failures grouped by cause with the argv and
files of a few cases each, and writes every failing case to FUZZ_FAILURES (default
``fuzz-failures/``): ``NNN/command.txt`` (the command line, the problems, stderr) beside the
case's files and ``stdin``. Exit status 1 if anything failed.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout

from tests.support.fuzzing import ForkServer, report
from tests.system.test_fuzz import EXAMPLES, run_campaign


def main(commands: list[str]) -> int:
    total = int(os.environ.get("FUZZ_CASES", "20000"))
    seed = int(os.environ.get("FUZZ_SEED", str(random.SystemRandom().randrange(2 ** 32))))
    out = Path(os.environ.get("FUZZ_FAILURES", "fuzz-failures"))
    chosen = commands or list(EXAMPLES)
    unknown = set(chosen) - set(EXAMPLES)
    if unknown:
        print(f"unknown command(s) {sorted(unknown)}; known: {', '.join(EXAMPLES)}",
              file=sys.stderr)
        return 2
    weight = sum(EXAMPLES[c] for c in chosen)
    print(f"fuzz campaign: {total} cases, seed {seed} (FUZZ_SEED={seed} repeats it)", flush=True)
    failures: list = []
    shutil.rmtree(out, ignore_errors=True)

    def write(case, result, problems) -> None:
        """Each failure is written when found, so an interrupted campaign keeps its finds."""
        directory = out / f"{len(failures):03d}"
        directory.mkdir(parents=True)
        for name, data in case.files.items():
            (directory / name).parent.mkdir(parents=True, exist_ok=True)
            (directory / name).write_bytes(data)
        if case.stdin:
            (directory / "stdin").write_bytes(case.stdin)
        (directory / "command.txt").write_text(
            f"{case.describe(10_000)}\n\nproblems: {'; '.join(problems)}\nexit status: "
            f"{result.status}, {result.seconds:.1f} s\n\nstderr:\n{result.stderr}",
            errors="backslashreplace")
        failures.append((case, result, problems))

    started = time.monotonic()
    ran = 0
    with ForkServer() as server:
        for index, command in enumerate(chosen):
            share = max(1, round(total * EXAMPLES[command] / weight))
            count, found, depth = run_campaign(server, command, share, derandomize=False,
                                               seed=seed + index, on_failure=write)
            ran += count
            print(f"  {command:10} {count:6} cases, {len(found):4} failing; depth: {depth} "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
    print(f"{ran} cases in {time.monotonic() - started:.0f} s")
    if not failures:
        print("no failures")
        return 0
    print(report(failures))
    print(f"\n{len(failures)} failing cases written to {out}/ (each: command.txt and files)")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
