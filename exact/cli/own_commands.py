"""The commands a game runs its own way, found by game id: the seam through which a strategy
game's command-line code (``analyze``, ``eor`` and ``edge century21``) joins the command line
while the game definition imports none of it.

Layer: cli, the top (beside the lab); it may import every layer below.

A game registers in :data:`OWN_COMMANDS` the module of its commands, which defines any of
``analyze_command(game, args)``, ``eor_command(game, args)`` and ``edge_command(game, args,
seen)``. A game whose own ``analyze`` needs nothing above the games may offer it as a method
instead (:class:`exact.model.contracts.OwnAnalyze`: chemin de fer).

>>> from exact.games import get_game
>>> own_command(get_game("century21"), "eor").__name__
'eor_command'
>>> own_command(get_game("chemin-de-fer"), "analyze").__name__
'analyze_cli'
>>> own_command(get_game("punto-banco"), "analyze") is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from exact.model.contracts import OwnAnalyze, OwnEdge, OwnEor

# game id -> the module of its own commands, imported only when one of them runs
OWN_COMMANDS: dict[str, str] = {"century21": "exact.cli.century21"}

_CAPABILITIES: dict[str, tuple[type, str]] = {
    "analyze": (OwnAnalyze, "analyze_cli"), "eor": (OwnEor, "eor_cli"),
    "edge": (OwnEdge, "edge_cli")}


def own_command(game: Any, command: str) -> Callable[..., str] | None:
    """The function that runs ``command`` (``"analyze"``, ``"eor"`` or ``"edge"``) ``game``'s
    own way, called with the game first; None when the game runs it the common way."""
    if game.id in OWN_COMMANDS:
        module = import_module(OWN_COMMANDS[game.id])
        found: Callable[..., str] | None = vars(module).get(f"{command}_command")
        return found
    capability, method = _CAPABILITIES[command]
    return getattr(type(game), method) if isinstance(game, capability) else None
