"""The games of the toolkit, by command-line id. Each game lives in its own module.

Layer: games, above the engines; the analyses and everything above read the games.

A new game is one module (a class with an ``id``) and its data files; it joins the toolkit by
:func:`register` (a decorator) or, for an installed package, by an entry point of the group
``exact.games`` (``dragon-tiger = "my_package.dragon_tiger:DragonTiger"``), found the first
time a game id is unknown or every game is listed: no module of ``exact`` is edited.

A game whose commands or simulation run its own way (21st Century Baccarat, chemin de fer)
declares that code, which lives above the games, by name in its
:attr:`~exact.model.game.Game.extensions`; :func:`extension` loads it when a command asks. The
registry and the extensions are one mechanism: a dotted name, imported on demand, so that no
generic module names a game and no game imports the layers above it.

>>> sorted(REGISTRY)[:2]
['century21', 'chemin-de-fer']
>>> get_game("baccarat-royale")
Traceback (most recent call last):
...
exact.errors.UnknownGameError: unknown game 'baccarat-royale'; known: century21, ...
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any, TypeVar

from exact.core.parsing import shown, suggestion
from exact.errors import CapabilityError
from exact.errors import UnknownGameError as UnknownGameError
from exact.model.game import EXTENSION_KINDS, Game

# id -> (module, class): imported on demand so that no module needs to know every game.
REGISTRY: dict[str, tuple[str, str]] = {
    "punto-banco": ("exact.games.punto_banco", "PuntoBanco"),
    "nine-and-nines": ("exact.games.nine_and_nines", "NineAndNines"),
    "century21": ("exact.games.century21.game", "Century21"),
    "chemin-de-fer": ("exact.games.chemin_de_fer", "CheminDeFer"),
}
ENTRY_POINT_GROUP = "exact.games"

GameClass = TypeVar("GameClass", bound=type)


def register(game_class: GameClass) -> GameClass:
    """Add ``game_class`` (a :class:`~exact.model.game.Game` with a class-level ``id``) to the
    registry under its ``id``, for :func:`get_game` and every command; returns it, so that it
    serves as a decorator. A shipped game's id cannot be taken.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Toy(Game):
    ...     id: str = "punto-banco"
    >>> register(Toy)
    Traceback (most recent call last):
    ...
    exact.errors.UnknownGameError: game id 'punto-banco' is taken by exact.games.punto_banco
    """
    game_id = getattr(game_class, "id", None)
    if not isinstance(game_id, str) or not game_id:
        raise UnknownGameError(f"{game_class.__name__} has no game id (a class attribute id)")
    where = (game_class.__module__, game_class.__qualname__)
    if REGISTRY.get(game_id, where) != where:
        raise UnknownGameError(f"game id {game_id!r} is taken by {REGISTRY[game_id][0]}")
    REGISTRY[game_id] = where
    _CLASSES[game_id] = game_class
    return game_class


def unregister(game_id: str) -> None:
    """Take a registered (not shipped) game out of the registry again (e.g. after a test)."""
    if game_id in _SHIPPED:
        raise UnknownGameError(f"{game_id} ships with the toolkit and stays registered")
    REGISTRY.pop(game_id, None)
    _CLASSES.pop(game_id, None)


_SHIPPED = frozenset(REGISTRY)
_CLASSES: dict[str, type] = {}  # the registered classes (a test's may live in no package)


@cache
def discover() -> None:
    """Register the games of installed packages (entry points of :data:`ENTRY_POINT_GROUP`),
    once; a shipped id is never replaced. Reading the installed packages' metadata costs a
    quarter of a second, so this runs only when a game id is unknown or all are listed."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        module, _, attribute = entry.value.partition(":")
        if entry.name not in REGISTRY and attribute:
            REGISTRY[entry.name] = (module, attribute)


def game_ids() -> list[str]:
    """Every game id, the installed packages' included, sorted."""
    discover()
    return sorted(REGISTRY)


def get_game(game_id: str, **options: object) -> Game:
    """The game called ``game_id`` (e.g. ``"punto-banco"``), built with ``options``."""
    if isinstance(game_id, str) and game_id not in REGISTRY:
        discover()
    if not isinstance(game_id, str) or game_id not in REGISTRY:  # a list: not even hashable
        raise UnknownGameError(f"unknown game {shown(game_id)}{suggestion([game_id], REGISTRY)}; "
                               f"known: {', '.join(sorted(REGISTRY))}")
    module, name = REGISTRY[game_id]
    game_class = _CLASSES.get(game_id) or getattr(import_module(module), name)
    game: Game = game_class(**options)
    return game


def extension(game: Game, kind: str) -> Any:
    """``game``'s own code of ``kind`` (one of :data:`~exact.model.game.EXTENSION_KINDS`), loaded
    from the ``"module:attribute"`` name its ``extensions`` declare; None when it declares
    none (the common way serves). A kind no layer knows, or a name that does not load, is a
    :class:`~exact.errors.CapabilityError` naming it.

    >>> extension(get_game("chemin-de-fer"), "analyze").__module__
    'exact.cli.chemin_de_fer'
    >>> extension(get_game("punto-banco"), "analyze") is None
    True
    """
    declared = game.extensions
    unknown = sorted({kind, *declared} - set(EXTENSION_KINDS))
    if unknown:
        raise CapabilityError(f"{game.id}: no extension kind {shown(unknown[0])}; kinds: "
                              f"{', '.join(EXTENSION_KINDS)}")
    if kind not in declared:
        return None
    module, _, attribute = declared[kind].partition(":")
    try:
        loaded = import_module(module)
    except ModuleNotFoundError as error:  # the module named, not one it imports, is missing
        if error.name is None or not (module + ".").startswith(error.name + "."):
            raise
        problem = f"no module {module}"
    else:  # (an AttributeError raised while the module is imported is its own bug: not here)
        if hasattr(loaded, attribute):
            return getattr(loaded, attribute)
        problem = f"{module} has no {shown(attribute)}"
    raise CapabilityError(f"{game.id} declares its {kind} as {shown(declared[kind])}: {problem}")
