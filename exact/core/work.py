"""The work budget: one bound on all the work a run does, whatever engine does it.

Layer: core, the lowest; it imports only :mod:`exact.errors`.

A bound per bet or per condition is not a bound per run: a file of many bets, each within its
own limits, or one condition near the operator bound evaluated on every round of a fine deal,
could still take minutes and gigabytes. So the work of a run is counted in one unit (about the
cost of one node of a condition's tree evaluated once: about half a microsecond on a loaded
2-core machine) and drawn
from one budget. Each engine says what a step will cost *before* taking it (the factorised
patterns to settle, the signatures a bet's conditions will run on, ...) and the walks of a deal
draw as they go, so the run is refused with one line (:class:`~exact.errors.TooFine`) before
the step that would pass the bound, never after minutes. A run holds one budget
(:func:`budget`); outside one, each step is held to the bound on its own.

>>> with budget(1_000):
...     spend(600, "first step")
...     try:
...         spend(600, "second step")
...     except TooFine as error:
...         print(error)  # doctest: +ELLIPSIS
second step: about 600 units of work, with the 600 spent, past the bound of 1,000 ...
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from exact.errors import TooFine

WORK_LIMIT = 50_000_000
"""Units of work one run may do (docs: Input limits): about 25 seconds at most, and well
under 1.5 GB, on a loaded 2-core machine (the estimates are upper bounds: most runs take less),
within the fuzz campaign's 30 seconds of CPU a case."""

CONDITION_UNITS = 10
"""Units of one settlement of a bet beyond its conditions' nodes (reading the features)."""
READ_UNITS = 2
"""Units of one feature read off one record (a Python call per record and feature)."""
PATTERN_UNITS = 20
"""Units of one factorised pattern walked, before any condition is evaluated on it."""
LEAF_UNITS = 30
"""Units of one leaf of a deal walked card by card (the direct and compiled walks): 10 to 15
microseconds and about 160 bytes kept (measured: ranks and colours of six cards, 8 decks), so a
walk stops within 4 million leaves and under a gigabyte."""


@dataclass
class Budget:
    """Units of work left to a run."""

    limit: int
    spent: int = 0

    def spend(self, units: int, what: str) -> None:
        self.check(units, what)
        self.spent += units

    def check(self, units: int, what: str) -> None:
        if self.spent + units > self.limit:
            raise TooFine(f"{what}: about {units:,} units of work, with the {self.spent:,} "
                          f"spent, past the bound of {self.limit:,} a run may do (docs: "
                          "Input limits); refused before that step (a smaller shoe, fewer "
                          "bets, or conditions reading fewer cards stay within it)")


_CURRENT: ContextVar[Budget | None] = ContextVar("exact_work_budget", default=None)


@contextmanager
def budget(limit: int = WORK_LIMIT) -> Iterator[Budget]:
    """The run's budget: a new one, or the one already open (a command calling the analysis
    several times draws from one budget)."""
    current = _CURRENT.get()
    if current is not None:
        yield current
        return
    token = _CURRENT.set(Budget(limit))
    try:
        yield _CURRENT.get() or Budget(limit)
    finally:
        _CURRENT.reset(token)


def spend(units: int, what: str) -> None:
    """Draw ``units`` from the run's budget (outside a run: from a budget of its own), or
    raise :class:`TooFine` naming ``what``, before the work is done."""
    _current().spend(units, what)


def check(units: int, what: str) -> None:
    """Refuse (:class:`TooFine`) work estimated at ``units`` that the budget cannot pay, drawing
    nothing: the work draws as it goes (a walk's :class:`Meter`)."""
    _current().check(units, what)


def _current() -> Budget:
    current = _CURRENT.get()
    return current if current is not None else Budget(WORK_LIMIT)


class Meter:
    """Draws a walk's steps from the budget in chunks, each chunk before its steps are taken,
    as the walk goes (its size is known only by walking): the walk stops before the chunk that
    would pass the bound."""

    CHUNK = 1 << 14

    def __init__(self, what: str, units: int = LEAF_UNITS) -> None:
        self.what, self.units, self.count = what, units, 0
        self.outside = Budget(WORK_LIMIT)  # the walk's own bound when no run is open
        # a chunk is at most a hundredth of the bound, however costly one step is (a
        # settlement of a thousand bets' conditions)
        self.chunk = max(1, min(self.CHUNK, WORK_LIMIT // (100 * max(units, 1))))

    def tick(self) -> None:
        """One step done; every chunk of steps drawn, before the next chunk is taken."""
        if self.count % self.chunk == 0:
            current = _CURRENT.get()
            (current if current is not None else self.outside).spend(
                self.chunk * self.units, f"{self.what} (past {self.count:,} steps)")
        self.count += 1
