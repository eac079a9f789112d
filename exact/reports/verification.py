"""The reports' verification simulation: every wager's exact edge against shuffled shoes dealt
to the cut card by the independent dealer (:mod:`exact.analysis.verification`), and the edge
through the shoe from the same rounds.

Layer: reports, above rendering; only the command line and the lab sit above it.

The number of rounds is the context's (``Context.rounds``), else the environment's
``EXACT_REPORT_ROUNDS``, else :data:`~exact.analysis.verification.ROUNDS` (10^8); worker
processes likewise (``Context.workers``, ``EXACT_REPORT_WORKERS``, else one). The report shows
the rounds it dealt and the seed; the speed is printed, never put in the report (its bytes do
not depend on the machine).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial

from exact.analysis.bet_analysis import GameAnalysis
from exact.analysis.verification import (
    ROUNDS,
    Z_LIMIT,
    Dealer,
    ShoeSpec,
    Verdict,
    WagerSimulation,
    simulate_wagers,
    through_the_shoe,
    verdicts,
)
from exact.core.parsing import parse_integer
from exact.errors import ExactError
from exact.render.numbers import fixed, grouped, percent
from exact.reports import ReportError
from exact.reports.cover import Context

ROUNDS_VARIABLE = "EXACT_REPORT_ROUNDS"
WORKERS_VARIABLE = "EXACT_REPORT_WORKERS"


def setting(given: int | None, variable: str, default: int, what: str) -> int:
    """``given``, else the environment's ``variable`` (a whole number), else ``default``."""
    if given is not None:
        return given
    text = os.environ.get(variable)
    if text is None or not text.strip():
        return default
    try:
        return parse_integer(text, what, where=variable)
    except ExactError as error:
        raise ReportError(str(error)) from None


def for_context(context: Context, dealer: Dealer, seed: int, label: str
                ) -> Callable[[GameAnalysis], dict[str, object]]:
    """The ``verify`` of :func:`~exact.reports.sections.standard_report_data`: the sections
    below, dealt by the game's ``dealer``, with the context's rounds and workers."""
    return partial(simulation_sections, dealer=dealer, seed=seed, rounds=context.rounds,
                   workers=context.workers, label=label)


def simulation_sections(analysis: GameAnalysis, dealer: Dealer, seed: int,
                        rounds: int | None = None, workers: int | None = None,
                        label: str = "") -> dict[str, object]:
    """``{"simulation": ..., "depletion": ...}``: each wager under each paytable, simulated
    against its exact edge, and every wager's simulated edge by depth in the shoe."""
    rounds = setting(rounds, ROUNDS_VARIABLE, ROUNDS, "simulated-rounds")
    workers = setting(workers, WORKERS_VARIABLE, 1, "workers")
    shoe = analysis.shoe
    try:
        spec = ShoeSpec(tuple(shoe.counts))
        simulation = simulate_wagers(dealer, [b.bet for b in analysis.bets.values()], spec,
                                     rounds, seed, workers=workers)
    except ExactError as error:
        raise ReportError(f"verification simulation: {error}") from None
    print(f"{label or 'report'}: verification simulation of {grouped(simulation.rounds)} rounds "
          f"in {fixed(simulation.seconds, 1)} s: {fixed(simulation.rate / 1e6, 2)} million "
          f"rounds/s on {workers} worker(s)", file=sys.stderr, flush=True)
    found = verdicts(simulation, {b: list(a.tables.values()) for b, a in analysis.bets.items()})
    rows = [_row(v) for v in found]
    setup = {"rounds": grouped(simulation.rounds), "shoes": grouped(simulation.shoes),
             "seed": str(seed), "shoe": shoe.describe(), "cut": str(spec.cut_cards),
             "asked": grouped(rounds)}
    return {
        "simulation": {**setup, "limit": str(Z_LIMIT), "rows": rows,
                       "all_agree": all(v.agrees for v in found),
                       "not_simulated": simulation.not_simulated},
        "depletion": {**setup, **_by_depth(simulation)},
    }


def _row(verdict: Verdict) -> dict[str, object]:
    return {"bet": verdict.name, "paytable": verdict.paytable,
            "exact": percent(verdict.exact, 4, True),
            "simulated": percent(verdict.simulated, 4, True),
            "error": percent(Fraction(verdict.error), 4),
            "z": z_text(verdict.z),
            "top": f"{grouped(verdict.top_seen)} / {grouped(verdict.top_expected, 1)}",
            "agrees": verdict.agrees}


def z_text(z: float) -> str:
    """ASCII signs (numbers copy), and an infinite z said as such.

    >>> z_text(-1.234), z_text(0.0), z_text(float("inf"))
    ('-1.23', '+0.00', 'inf')
    """
    return "inf" if z in (float("inf"), float("-inf")) else fixed(z, 2, sign=True)


def _by_depth(simulation: WagerSimulation) -> dict[str, object]:
    columns: list[str] = []
    rows = []
    for bet_id, bet in simulation.bets.items():
        cells, depths = [], []
        for first, last, edge, error, _rounds in through_the_shoe(simulation, bet_id):
            depths.append(f"{first}-{last}")
            spread = "n/a" if math.isnan(error) else percent(Fraction(error), 3)
            cells.append(f"{percent(edge, 3, True)} ({spread})")
        columns = columns or depths
        rows.append({"bet": f"{bet.name} ({bet.paytable})", "cells": cells})
    per_depth: Sequence[int] = [int(n) for n in simulation.rounds_by_job.sum(axis=0)]
    return {"depths": columns, "rounds_by_depth": [grouped(n) for n in per_depth if n],
            "rows": rows}
