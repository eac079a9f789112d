"""Progress bars of the long commands (tqdm), drawn only when standard error is a terminal.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.

Output files and standard output never carry a bar, and a run whose standard error is a file
or a pipe (tests, CI, ``2> log``) prints nothing extra.

>>> list(steps([1, 2, 3], "adding"))  # not a terminal here: the items, and no bar
[1, 2, 3]
>>> tracker = Tracker("shoes", "shoe")
>>> tracker(5, 10); tracker(10, 10)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sized
from contextlib import contextmanager
from typing import Any, TypeVar

Item = TypeVar("Item")


def on_terminal() -> bool:
    """Whether to draw: standard error is a terminal, and this is the main process (worker
    processes inherit the terminal, but their bars would fight the parent's)."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed standard error
        return False


def _bar(total: int | None, description: str, unit: str, **options: object) -> Any:  # a tqdm bar
    from tqdm import tqdm

    return tqdm(total=total, desc=description, unit=unit, file=sys.stderr, leave=False,
                dynamic_ncols=True, disable=not on_terminal(), **options)


def steps(items: Iterable[Item], description: str, unit: str = "it",
          total: int | None = None) -> Iterator[Item]:
    """``items``, advancing a bar as each is taken."""
    if not on_terminal():
        yield from items
        return
    if total is None and isinstance(items, Sized):
        total = len(items)
    bar = _bar(total, description, unit)
    try:
        for item in items:
            bar.set_postfix_str(str(item)[:30], refresh=False)
            yield item
            bar.update(1)
    finally:
        bar.close()


@contextmanager
def status(description: str) -> Iterator[None]:
    """A one-line status with the elapsed time while a long step without steps runs (e.g. the
    first compilation of a deal).

    >>> with status("compiling"):
    ...     pass
    """
    if not on_terminal():
        yield
        return
    bar = _bar(None, description, "it", bar_format="{desc} ({elapsed})")
    try:
        yield
    finally:
        bar.close()


class Tracker:
    """A ``progress(done, total)`` callback (as :func:`exact.analysis.simulation.simulate` takes)
    that draws a bar; it closes itself when ``done`` reaches ``total``."""

    def __init__(self, description: str, unit: str = "it") -> None:
        self.description, self.unit = description, unit
        self.bar: Any = None  # a tqdm bar while one is shown

    def __call__(self, done: int, total: int) -> None:
        if not on_terminal():
            return
        if self.bar is None:
            self.bar = _bar(total, self.description, self.unit)
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.bar.close()
            self.bar = None
