"""Running jobs in order: inline, on local worker processes or on a Dask cluster.

Layer: analysis, above the engines; the simulations (:mod:`exact.analysis.simulation`, the
verification's and the games' own) hand it their jobs.

A job is a module-level function and its arguments (pickled by name); results come back in
job order whatever order they finish in, with a few jobs per worker in flight, so an endless
stream of jobs never sits in memory. Local workers are spawned fresh, their BLAS on one
thread; a Dask scheduler's address is checked before Dask is imported, and connecting to it
is bounded in time.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from exact.core.parsing import shown
from exact.errors import SimulationError

WORKERS_PER_CORE = 4
"""Local worker processes allowed per core (``--workers``); more only cost memory."""
SCHEDULER_SCHEMES = ("tcp", "tls")


def max_workers() -> int:
    """The most local worker processes: :data:`WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_scheduler(address: str) -> None:
    """A Dask scheduler address must be ``tcp://HOST:PORT`` (or ``tls://``), checked before
    Dask is imported: anything else is one error line, not a Dask traceback."""
    from urllib.parse import urlsplit

    problem = f"--scheduler {shown(address)}: expected tcp://HOST:PORT"
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        raise SimulationError(problem) from None
    if (parts.scheme not in SCHEDULER_SCHEMES or not parts.hostname or port is None
            or not 0 < port < 65536 or parts.path not in ("", "/") or parts.query
            or parts.fragment or parts.username or not address.isprintable()):
        raise SimulationError(problem)


def _in_order(futures: Iterator, window: int) -> Iterator:
    """The results of the futures made by ``futures``, in order, with at most ``window`` of
    them made and not yet consumed (so a billion jobs are never submitted at once)."""
    pending: deque = deque()
    for future in futures:
        pending.append(future)
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def map_in_order(function: Callable[..., Any], arguments: Iterator[tuple[Any, ...]],
                 workers: int = 1, scheduler: str | None = None) -> Iterator[Any]:
    """``function(*a)`` for each ``a`` of ``arguments``, in order: inline (``workers=1``), on
    ``workers`` local processes or on the Dask cluster at ``scheduler``, a few jobs per worker
    in flight (``arguments`` may be endless: stop reading when done). ``function`` must be a
    module-level function (pickled by name)."""
    if scheduler:
        yield from _on_dask(function, arguments, scheduler)
    elif workers == 1:
        for argument in arguments:
            yield function(*argument)
    else:
        with _worker_pool(workers) as pool:
            try:
                yield from _in_order((pool.submit(function, *argument)
                                      for argument in arguments), 4 * workers)
            finally:  # a reader that stopped early: the jobs not yet started are dropped
                pool.shutdown(cancel_futures=True)


_ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                       "MKL_NUM_THREADS")}


@contextmanager
def _worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Fresh (spawned) worker processes whose BLAS runs on one thread: the processes are the
    parallelism, and BLAS threads spinning beside them cost up to 3x on a busy machine."""
    saved = {name: os.environ.get(name) for name in _ONE_THREAD}
    os.environ.update(_ONE_THREAD)  # read by numpy when a spawned worker imports it
    try:
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            yield pool
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _on_dask(function: Callable[..., Any], arguments: Iterator[tuple[Any, ...]],
             scheduler: str) -> Iterator[Any]:
    check_scheduler(scheduler)
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs dask[distributed]: "
                              "pip install 'exact[scale]'") from None
    client = _connected(Client, scheduler)
    try:
        window = 4 * max(1, len(client.scheduler_info().get("workers", ())))
        # in job order, whatever order they finish in
        yield from _in_order((client.submit(function, *argument, pure=False)
                              for argument in arguments), window)
    finally:
        client.close()


SCHEDULER_SECONDS = 10
"""How long connecting to a Dask scheduler may take, and again how long its first worker may
take to join: an address that answers nothing, or a scheduler with no worker, would otherwise
hang the run."""


def _connected(client_type: Any, scheduler: str) -> Any:
    """A Dask client of ``scheduler`` with a worker, within bounded time, or one
    :class:`SimulationError`. Dask's own timeout covers the TCP connection only: a server that
    accepts and then says nothing held the run forever, and one that answers with something
    else (an HTTP server) made Dask try to allocate exabytes (a MemoryError traceback). The
    client is made on a daemon thread that is given up on at the deadline."""
    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = client_type(scheduler, timeout=SCHEDULER_SECONDS)
        except BaseException as error:  # whatever Dask raises on a stranger's answer
            outcome["error"] = error

    where = f"cannot reach the Dask scheduler {shown(scheduler)}"
    thread = threading.Thread(target=connect, name="exact-dask-connect", daemon=True)
    thread.start()
    thread.join(2 * SCHEDULER_SECONDS)
    if thread.is_alive():
        raise SimulationError(f"{where}: no answer within {2 * SCHEDULER_SECONDS} s (is it a "
                              "Dask scheduler?)")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, KeyboardInterrupt):
            raise error
        reason = " ".join(str(error).split())[:150] or type(error).__name__
        raise SimulationError(f"{where}: {reason}") from None
    client = outcome["client"]
    try:
        client.wait_for_workers(1, timeout=SCHEDULER_SECONDS)
    except Exception:  # Dask's TimeoutError (which one depends on its version)
        client.close()
        raise SimulationError(f"the Dask scheduler {shown(scheduler)} has no worker (none "
                              f"joined within {SCHEDULER_SECONDS} s)") from None
    return client
