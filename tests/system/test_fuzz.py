"""The fuzz suite (issue 11): generated argument vectors and files for every command, each
run by the real command line in a forked child under a memory and a time limit
(tests/support/fuzzing.py), must end with exit 0 or 2, one line on stderr on 2, no traceback, strict
JSON, no stray file.

Seeded (``derandomize``): the same cases on every run. All failures of a command are collected
and reported together, grouped by cause, with the argv and files to reproduce them; no
shrinking (it would re-run a failing case hundreds of times). ``make fuzz`` runs a long
random campaign with the same strategies (tests/fuzz_campaign.py).
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.support.fuzz_strategies import cases
from tests.support.fuzzing import Differential, ForkServer, problems, report, run_differential

# Cases per command in `make test` (at least 500 in all); FUZZ_SCALE multiplies them.
# (edge: 60, not 80, since most of its cases now run to the end, at about twice the cost)
# Besides the commands, classes of cases across them: "clashes", an input named as an output
# (tests/support/fuzz_strategies.py, clash_case), each refused before any work (cheap);
# "cache", bets run cold and warm (cache_case, six to nine runs a case, issue 26); and
# "engine-overrides", card-level bets under every --engine (engine_override_argv);
# "literals", a feature compared with a literal inside or outside its values (literal_case).
EXAMPLES = {"analyze": 110, "design": 60, "list-bets": 80, "features": 15, "eor": 70,
            "simulate": 60, "edge": 60, "settle": 60, "games": 10, "reports": 50,
            "clashes": 40, "report": 40, "cache": 4, "engine-overrides": 30,
            "literals": 40}
# `make test` runs fewer cases of the costliest class (the counts above stay the proportions of
# `make fuzz`, tests/fuzz_campaign.py): an engine-override case takes up to 10 s of CPU (its
# bet of up to 40 terms planned, or an 8-deck shoe walked to the work bound), 71 s for the 30,
# 24 s for these 10. Seeded, the 10 run auto, direct, staged and factorised (the 30 ran compiled
# but not staged; --engine compiled from the command line: tests/system/test_hostile_inputs.py,
# tests/engines/test_work_bound.py).
IN_MAKE_TEST = {**EXAMPLES, "engine-overrides": 10}
SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


@pytest.fixture(scope="module")
def server():
    with ForkServer() as running:
        yield running


class Depth(Counter):
    """How far a command's cases went: ``run``, ``finished`` (exit 0: past every check, the
    output written), ``refused`` (exit 2), ``other`` (anything else: a failure)."""

    def share(self) -> float:
        """The share of the cases run that finished."""
        return self["finished"] / self["run"] if self["run"] else 0.0

    def __str__(self) -> str:
        return (f"{self['run']} run, {self['finished']} finished ({self.share():.0%}), "
                f"{self['refused']} refused, {self['other']} other")


def run_campaign(server: ForkServer, command: str, examples: int, derandomize: bool = True,
                 seed: int | None = None, on_failure=None) -> tuple[int, list, Depth]:
    """Run ``examples`` generated cases of ``command``; return (cases run, failures, depth).
    ``on_failure(case, result, problems)`` is called as each failure is found. A case drawn
    again (hypothesis mutates the cases it drew: a third of them repeat one exactly) is not
    run twice, nor counted."""
    failures: list = []
    count = 0
    seen: set[str] = set()
    depth = Depth()

    @settings(max_examples=examples, derandomize=derandomize, database=None, deadline=None,
              phases=(Phase.explicit, Phase.generate), print_blob=False,
              suppress_health_check=list(HealthCheck))
    @given(case=cases(command))
    def one(case) -> None:
        nonlocal count
        key = hashlib.sha256(case.to_json().encode("utf-8", "surrogatepass")).hexdigest()
        if key in seen:
            return
        seen.add(key)
        count += 1
        if isinstance(case, Differential):  # runs cold and warm: their cold runs' depth
            results, found_all = run_differential(server, case)
        else:
            result = server.run(case)
            results, found = [result], problems(case, result)
            found_all = [(case, result, found)] if found else []
        for result in results:
            depth["run"] += 1
            depth[{0: "finished", 2: "refused"}.get(result.status, "other")] += 1
        for failure in found_all:
            failures.append(failure)
            if on_failure is not None:
                on_failure(*failure)

    if seed is not None:
        from hypothesis import seed as seed_decorator

        one = seed_decorator(seed)(one)
    one()
    return count, failures, depth


# The least share of the cases of these commands that must run to the end (exit 0; a case
# refused at its first check tests only the parsers): about 60% do (DEEP_SHARE in
# tests/support/fuzz_strategies.py), and tests/system/test_fuzz_depth.py checks the generator
# alone on a larger sample.
DEPTH = {"eor": 0.4, "edge": 0.4, "design": 0.4, "cache": 0.5}


@pytest.mark.parametrize("command", list(IN_MAKE_TEST))
def test_fuzz(server: ForkServer, command: str) -> None:
    count, failures, depth = run_campaign(server, command,
                                          max(1, int(IN_MAKE_TEST[command] * SCALE)))
    assert count >= min(IN_MAKE_TEST[command], 5)  # `games` has only a few distinct cases
    assert not failures, report(failures)
    assert depth.share() >= DEPTH.get(command, 0), f"{command}: too shallow: {depth}"
