"""The command line: one parser, the counting commands, the settle command, the commands a game
runs its own way.

Layer: cli, the top (beside the lab); it may import every layer below.

``main`` is defined here: the console script ``exact`` is ``exact.cli:main``, and a Python that
lacks a package the toolkit needs (numpy...) gets one line saying which, not a traceback from
the imports (:mod:`exact.cli.missing`)."""

from __future__ import annotations

from collections.abc import Sequence

from exact.cli.missing import missing_package


def main(argv: Sequence[str] | None = None) -> int:
    """``exact ...``: :func:`exact.cli.app.main`, once its imports succeed."""
    try:
        from exact.cli.app import main as run
    except ModuleNotFoundError as error:
        return missing_package(error)
    return run(argv)


__all__ = ["main"]
