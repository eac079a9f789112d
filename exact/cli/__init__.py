"""The command line: one parser, the counting commands, the settle command, the commands a game
runs its own way.

Layer: cli, the top (beside the lab); it may import every layer below.

``main`` is re-exported here: the console script ``exact`` is ``exact.cli:main``."""

from exact.cli.app import main

__all__ = ["main"]
