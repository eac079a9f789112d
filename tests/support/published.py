"""The shipped published figures (exact/data/<game>/published.toml), for the tests that
check a figure through another path (a command, an engine, a report, another game)."""

from __future__ import annotations

from exact.reference.published import game_figures

PUNTO_BANCO = game_figures("punto-banco")
NINE_AND_NINES = game_figures("nine-and-nines")
CENTURY21 = game_figures("century21")
CHEMIN_DE_FER = game_figures("chemin-de-fer")
