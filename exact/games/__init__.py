"""The games of the toolkit, one package each (``exact/games/<game>/``: its rules, deal,
features, commands, report, reference twin and data), and the shared baccarat coup
(:mod:`exact.games.baccarat`), which the baccarat games use.

Layer: games, the top: a game's code may import every generic layer, no other game.

Each game declares one :class:`~exact.model.plugins.GamePlugin` (its ``plugin`` module),
registered by an entry point of the group ``exact.games`` in pyproject.toml; the registry
itself is generic (:mod:`exact.model.plugins`) and is re-exported here for the notebooks and
the tests (``from exact.games import get_game``). No generic module imports this package.

>>> sorted(game_ids())[:2]
['century21', 'chemin-de-fer']
"""

from __future__ import annotations

from exact.errors import UnknownGameError as UnknownGameError
from exact.model.plugins import GROUP as ENTRY_POINT_GROUP
from exact.model.plugins import GamePlugin as GamePlugin
from exact.model.plugins import game_ids as game_ids
from exact.model.plugins import get_game as get_game
from exact.model.plugins import plugin as plugin
from exact.model.plugins import refresh as refresh
from exact.model.plugins import register as register
from exact.model.plugins import unregister as unregister

__all__ = ["ENTRY_POINT_GROUP", "GamePlugin", "UnknownGameError", "game_ids", "get_game",
           "plugin", "refresh", "register", "unregister"]
