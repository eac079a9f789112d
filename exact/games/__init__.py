"""The games of the toolkit, by command-line id. Each game lives in its own module."""

from __future__ import annotations

from importlib import import_module

from exact.errors import UnknownGameError as UnknownGameError
from exact.games.base import Game

# id -> (module, class): imported on demand so that no module needs to know every game.
REGISTRY: dict[str, tuple[str, str]] = {
    "punto-banco": ("exact.games.punto_banco", "PuntoBanco"),
    "nine-and-nines": ("exact.games.nine_and_nines", "NineAndNines"),
    "century21": ("exact.games.century21", "Century21"),
    "chemin-de-fer": ("exact.games.chemin_de_fer", "CheminDeFer"),
}


def get_game(game_id: str, **options: object) -> Game:
    """The game called ``game_id`` (e.g. ``"punto-banco"``), built with ``options``."""
    if game_id not in REGISTRY:
        raise UnknownGameError(f"unknown game {game_id!r}; known: {', '.join(sorted(REGISTRY))}")
    module, name = REGISTRY[game_id]
    return getattr(import_module(module), name)(**options)
