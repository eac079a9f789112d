"""The game plugins: one typed record per game, and the one registry of them.

Layer: model, above the core; every layer above finds a game's code here, by its id, and the
games (the top layer, ``exact/games/<game>/``) declare their records.

A game joins the toolkit as one :class:`GamePlugin`: its class, its data folder, its assumptions,
the code of its own that replaces a generic command (``analyze``, ``eor``, ``edge``,
``settle``), its command-line options, its report and its play on real shoes. Nothing else
attaches a game: no module path by name, no folder by id, no list of option names elsewhere.

Records are found two ways, one door each:

* **entry points** of the group :data:`GROUP` (``[project.entry-points."exact.games"]`` in a
  package's ``pyproject.toml``: ``dragon-tiger = "my_package.plugin:PLUGIN"``); the shipped
  games are declared so too. The toolkit's own are read first, from its own distribution's
  metadata (cheap); those of other installed packages only when an id is unknown or every game
  is listed (reading every package's metadata costs a quarter of a second). A checkout run
  without being installed (no ``exact`` distribution on the path, or one whose metadata
  predates the group) reads the same declarations from the checkout's ``pyproject.toml``, so
  ``python -m exact`` works from a bare clone;
* :func:`register`, in process (tests, notebooks): a record, or a game class (a decorator),
  which is then wrapped in a record with no code of its own.

A shipped id is never replaced.

>>> sorted(plugin_ids())[:2]
['century21', 'chemin-de-fer']
>>> get_game("baccarat-royale")
Traceback (most recent call last):
...
exact.errors.UnknownGameError: unknown game 'baccarat-royale'; known: century21, ...
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from exact.core.parsing import shown, suggestion
from exact.errors import UnknownGameError
from exact.model.game import Game

GROUP = "exact.games"
"""The entry-point group of the game plugins."""
DISTRIBUTION = "exact"
"""The toolkit's own distribution, whose entry points are the shipped games."""

COMMANDS = ("analyze", "eor", "edge", "settle")
"""The commands a game may run its own way (:attr:`GamePlugin.commands`)."""


@dataclass(frozen=True)
class Option:
    """One command-line option of a game: its flags and the keyword arguments of
    :meth:`argparse.ArgumentParser.add_argument` (``help``, ``choices``, ``type``...)."""

    flags: tuple[str, ...]
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def dest(self) -> str:
        """The argparse name of the option (``--bet-size`` -> ``bet_size``)."""
        return max(self.flags, key=len).lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class OptionGroup:
    """A titled group of a game's options, shown by ``exact COMMAND GAME --help`` on the
    commands named."""

    title: str
    commands: tuple[str, ...]
    options: tuple[Option, ...]


@dataclass(frozen=True)
class GamePlugin:
    """Everything the toolkit needs of one game, declared once by the game's package.

    ``game``: the game class (a :class:`~exact.model.game.Game` with a class-level ``id``).
    ``data``: its data folder (``published.toml``, rule files); None for none.
    ``figures``: the record of its published figures when they have keys of their own (a
    subclass of :class:`exact.reference.published.FigureEntry` declaring them, and the values
    they take); None: the keys every game's figures have.
    ``assumptions``: the assumption files every result of the game carries, in order, less the
    ids in ``omitted_assumptions`` (a variant restating a shared assumption its own way).
    ``commands``: per command of :data:`COMMANDS`, the game's own implementation, called as
    ``(game, args)`` (``edge``: ``(game, args, seen)``) and returning the command's text; a
    command not named runs the generic way.
    ``options``: the game's own command-line options, by group (shown and taken only when the
    command is given this game).
    ``command_options``: per command, the options (argparse names) the game takes besides the
    shared ones, when they are not those of a bet game; its ``options`` are added.
    ``report``: ``(config, context) -> dict``, the data of its PDF report, with ``template`` the
    Typst template laying it out; None for no report.
    ``simulation``: its play on real shoes in ``simulate``, ``(game, config) -> ShoePlay``;
    None for the bet games' common play. The options of its groups on ``simulate`` reach the
    play as ``config.options`` (argparse name, value; an option naming a file, its text).
    ``option_defaults``: defaults of its options filled in before its own commands run.
    ``round_hands``: ``(game, record, features) -> {hand: {"cards": [...], ...}}``, the game's
    own description of a dealt round for the generic ``settle`` (its JSON ``hands``); None:
    one entry per stage the game names (``stages``), with its cards.
    ``hand_text``: ``(name, hand) -> str``, a hand's line in ``settle``'s text; None: the
    name, its cards and any other field of the hand.
    ``examples``: a few command lines per command (``None``: the top level), shown at the end
    of ``--help`` and run by the tests.
    ``report_words``: how its report says, in plain words, a command line (in backquotes) or
    an option of its own that its assumptions name (``"settle GAME"``: "the toolkit's table
    settlement"); the toolkit's own commands and options are worded by the report already.
    """

    game: type
    data: Path | None = None
    figures: type | None = None
    assumptions: tuple[Path, ...] = ()
    omitted_assumptions: frozenset[str] = frozenset()
    commands: Mapping[str, Callable[..., str]] = field(
        default_factory=lambda: MappingProxyType({}))
    options: tuple[OptionGroup, ...] = ()
    command_options: Mapping[str, frozenset[str]] = field(
        default_factory=lambda: MappingProxyType({}))
    report: Callable[..., dict[str, object]] | None = None
    template: Path | None = None
    simulation: Callable[..., Any] | None = None
    option_defaults: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    round_hands: Callable[[Any, Any, Mapping[str, object]], dict[str, dict[str, Any]]] | None = None
    hand_text: Callable[[str, Mapping[str, Any]], str] | None = None
    examples: Mapping[str | None, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    report_words: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        game_id = getattr(self.game, "id", None)
        if not isinstance(game_id, str) or not game_id:
            raise UnknownGameError(f"{getattr(self.game, '__name__', self.game)!r} has no game "
                                   "id (a class attribute id)")
        unknown = sorted(set(self.commands) - set(COMMANDS))
        if unknown:
            raise UnknownGameError(f"{game_id}: no command {shown(unknown[0])} of its own; "
                                   f"commands: {', '.join(COMMANDS)}")

    @property
    def id(self) -> str:
        game_id: str = getattr(self.game, "id")  # noqa: B009 (checked a str on creation)
        return game_id

    def options_on(self, command: str) -> tuple[Option, ...]:
        """The options of its own the game declares on ``command`` (its option groups), in
        order."""
        return tuple(option for group in self.options if command in group.commands
                     for option in group.options)

    def own_options(self, command: str) -> frozenset[str] | None:
        """The options (argparse names) the game takes on ``command`` by its own declaration,
        or None when it declares none there (a bet game then takes the bet games' options)."""
        listed = [option.dest for option in self.options_on(command)]
        if command not in self.command_options and not listed:
            return None
        return self.command_options.get(command, frozenset()) | frozenset(listed)


_PLUGINS: dict[str, GamePlugin] = {}  # the records loaded (or registered in process)
_ENTRIES: dict[str, str] = {}  # id -> "module:attribute" of the entry points not loaded yet
_SHIPPED: set[str] = set()
_LOADED = {"shipped": False, "installed": False}
PluginT = TypeVar("PluginT", bound=Any)


def _entry_points(every: bool) -> list[tuple[str, str]]:
    """(name, "module:attribute") of the group's entry points: the toolkit's own (``every``:
    those of every installed package)."""
    if not every:
        own = _own_dist_info_entry_points()
        if own:
            return own
    from importlib.metadata import PackageNotFoundError, distribution, entry_points

    if every:
        return [(entry.name, entry.value) for entry in entry_points(group=GROUP)]
    try:
        own = [(entry.name, entry.value) for entry in
               distribution(DISTRIBUTION).entry_points.select(group=GROUP)]
    except PackageNotFoundError:
        own = []
    return own or _checkout_entry_points()


def _own_dist_info_entry_points() -> list[tuple[str, str]] | None:
    """The group's entry points in the toolkit's own metadata folder (``exact-VERSION.dist-info``,
    or the ``exact.egg-info`` an editable build leaves in a checkout), the first on
    ``sys.path``, where :func:`importlib.metadata.distribution` finds it; None when there is
    none, or anything less plain (two candidates in one folder, another name, a line not
    plainly a section or a pair): then importlib.metadata reads it. Why not importlib.metadata
    itself: importing it (email, zipfile, csv) is some 15 ms of a fresh command's 130 ms, which
    a naive enumerator of the main bets does not pay (issue 30)."""
    import os
    import re
    import sys

    plain = re.compile(rf"{DISTRIBUTION}(-[^-]+\.dist-info|\.egg-info)")
    for entry in sys.path:
        try:
            found = [name for name in os.listdir(entry or ".")
                     if name.lower().startswith((f"{DISTRIBUTION}-", f"{DISTRIBUTION}."))
                     and name.endswith((".dist-info", ".egg-info"))]
        except OSError:  # a zip file, a folder gone: importlib.metadata's case
            continue
        if not found:
            continue
        if len(found) > 1 or not plain.fullmatch(found[0]):
            return None
        try:
            text = (Path(entry or ".") / found[0] / "entry_points.txt").read_text("utf-8")
        except (OSError, UnicodeError):
            return None
        return _group_of(text)
    return None


def _group_of(text: str) -> list[tuple[str, str]] | None:
    """The ``[GROUP]`` pairs of an entry_points.txt, or None for a line not plainly a section,
    a pair, a comment or blank.

    >>> _group_of("[console_scripts]\\nexact = exact.cli:main\\n\\n[exact.games]\\na = m:P\\n")
    [('a', 'm:P')]
    """
    section, pairs = None, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif "=" in line and section is not None:
            name, _, value = line.partition("=")
            if section == GROUP:
                pairs.append((name.strip(), value.strip()))
        else:
            return None
    return pairs


def _checkout_entry_points() -> list[tuple[str, str]]:
    """The group's entry points declared in the checkout's ``pyproject.toml`` (a checkout run
    uninstalled, or installed before the group existed)."""
    project = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if not project.is_file():
        return []
    declared = tomllib.loads(project.read_text(encoding="utf-8"))
    group = declared.get("project", {}).get("entry-points", {}).get(GROUP, {})
    return [(name, value) for name, value in group.items() if isinstance(value, str)]


def _load(name: str, value: str) -> GamePlugin:
    """The record an entry point names (a game class alone is wrapped in one)."""
    module, _, attribute = value.partition(":")
    loaded = getattr(import_module(module), attribute, None) if attribute else None
    if isinstance(loaded, type):
        loaded = GamePlugin(loaded)
    if not isinstance(loaded, GamePlugin) or loaded.id != name:
        raise UnknownGameError(f"entry point {name} = {shown(value)} of group {GROUP} is no "
                               f"game plugin of id {name}")
    return loaded


def _discover(every: bool = False) -> None:
    """Note the shipped entry points once, and (``every``) those of other installed packages;
    a record is loaded (its module imported) only when its game is asked for, so that a
    command imports the code of its own game only."""
    if not _LOADED["shipped"]:
        _LOADED["shipped"] = True
        for name, value in _entry_points(every=False):
            if name not in _PLUGINS:
                _ENTRIES.setdefault(name, value)
                _SHIPPED.add(name)
    if every and not _LOADED["installed"]:
        _LOADED["installed"] = True
        for name, value in _entry_points(every=True):
            if name not in _PLUGINS:
                _ENTRIES.setdefault(name, value)


def _known() -> set[str]:
    return set(_PLUGINS) | set(_ENTRIES)


def register(item: PluginT) -> PluginT:
    """Register a :class:`GamePlugin`, or a game class (then wrapped in a plugin with no code
    of its own), in process; returns it, so that it serves as a decorator. A shipped game's
    id cannot be taken.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Toy(Game):
    ...     id: str = "punto-banco"
    >>> register(Toy)
    Traceback (most recent call last):
    ...
    exact.errors.UnknownGameError: game id 'punto-banco' is taken by exact.games.baccarat.coup
    """
    _discover()
    record = item if isinstance(item, GamePlugin) else GamePlugin(item)
    if record.id in _SHIPPED:
        taken: GamePlugin | None = plugin(record.id)
    else:
        taken = _PLUGINS.get(record.id)
    if taken is not None and taken.game is not record.game and (
            record.id in _SHIPPED or (taken.game.__module__, taken.game.__qualname__)
            != (record.game.__module__, record.game.__qualname__)):
        raise UnknownGameError(f"game id {record.id!r} is taken by {taken.game.__module__}")
    _PLUGINS[record.id] = record
    _ENTRIES.pop(record.id, None)
    return item


def unregister(game_id: str) -> None:
    """Take a registered (not shipped) game out of the registry again (e.g. after a test)."""
    if game_id in _SHIPPED:
        raise UnknownGameError(f"{game_id} ships with the toolkit and stays registered")
    _PLUGINS.pop(game_id, None)
    _ENTRIES.pop(game_id, None)


def refresh() -> None:
    """Read the installed packages' entry points again when next needed (a package installed,
    or put on ``sys.path``, after the first look)."""
    _LOADED["installed"] = False


def plugin_ids(every: bool = True) -> list[str]:
    """Every game id, sorted: those of the installed packages too (``every``), else those
    registered so far (the shipped ones and any registered in process)."""
    _discover(every)
    return sorted(_known())


def plugin(game: object) -> GamePlugin:
    """The plugin of ``game`` (a game, or a game id)."""
    game_id = game if isinstance(game, str) else getattr(game, "id", None)
    _discover()
    if isinstance(game_id, str) and game_id not in _known():
        _discover(every=True)
    if not isinstance(game_id, str) or game_id not in _known():  # a list: not even hashable
        raise UnknownGameError(f"unknown game {shown(game_id)}"
                               f"{suggestion([game_id], _known())}; "
                               f"known: {', '.join(sorted(_known()))}")
    if game_id not in _PLUGINS:
        _PLUGINS[game_id] = _load(game_id, _ENTRIES.pop(game_id))
    return _PLUGINS[game_id]


def get_game(game_id: str, **options: object) -> Game[Any]:
    """The game called ``game_id`` (e.g. ``"punto-banco"``), built with ``options``."""
    game: Game[Any] = plugin(game_id).game(**options)
    return game


def game_ids() -> list[str]:
    """Every game id, the installed packages' included, sorted."""
    return plugin_ids(every=True)


def own_command(game: object, command: str) -> Callable[..., str] | None:
    """``game``'s own implementation of ``command`` (one of :data:`COMMANDS`), or None when
    the generic command serves it.

    >>> own_command(get_game("chemin-de-fer"), "analyze").__module__
    'exact.games.chemin_de_fer.plugin'
    >>> own_command(get_game("punto-banco"), "analyze") is None
    True
    """
    return plugin(game).commands.get(command)
