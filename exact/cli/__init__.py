"""The command line: one parser, the counting commands, the settle command, the commands a game
runs its own way.

Layer: cli, the top (beside the lab); it may import every layer below.

``main`` is defined here: the console script ``exact`` is ``exact.cli:main``, and a Python that
lacks a package the toolkit needs (numpy...) gets one line saying which, not a traceback from
the imports."""

from __future__ import annotations

import sys
from collections.abc import Sequence

EXIT_MISSING = 1
"""The exit status when a package the toolkit needs is missing (not the input's fault: 2 is)."""


def main(argv: Sequence[str] | None = None) -> int:
    """``exact ...``: :func:`exact.cli.app.main`, once its imports succeed."""
    try:
        from exact.cli.app import main as run
    except ModuleNotFoundError as error:
        return missing_package(error)
    return run(argv)


def missing_package(error: ModuleNotFoundError) -> int:
    """One line naming the package ``error`` found missing, on standard error; a module of the
    toolkit itself missing is a broken installation, raised as it is."""
    name = (error.name or "").partition(".")[0]
    if not name or name == "exact":
        raise error
    try:
        sys.stderr.write(f"exact: error: the Python package {name!r} is not installed in "
                         f"{sys.executable}: run `make install` and use .venv/bin/python, or "
                         f"`pip install exact` (README: Set-up)\n")
    except (OSError, ValueError, AttributeError):  # standard error closed or absent
        pass
    return EXIT_MISSING


__all__ = ["main", "missing_package"]
