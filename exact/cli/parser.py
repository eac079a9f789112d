"""The command line's parser: one short line for a refusal, the options it was given kept by
name, each game's own options added only where that game is given, and the examples of
``--help``.

Layer: cli, the top (beside the lab); it may import every layer below.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from exact.core.options import OneLineParser
from exact.core.parsing import shown_all, suggestion
from exact.errors import ExactError
from exact.model.plugins import GamePlugin, get_game, plugin, plugin_ids


class Parser(OneLineParser):
    """A parser that refuses bad input as a :class:`UsageError` of one short line (its base),
    and keeps what it is given to parse: ``actions`` (argparse name -> the action
    ``add_argument`` returned, its groups' included), ``options`` (argparse name -> the
    option's longest flag) and ``commands`` (subcommand -> its parser), so that a command's
    options are known without argparse's private lists."""

    def __init__(self, *args: Any, examples_of: tuple[str | None, GamePlugin | None] | None = None,
                 **kwargs: Any) -> None:
        self.actions: dict[str, argparse.Action] = {}  # (before argparse adds --help)
        self.options: dict[str, str] = {}
        self.commands: dict[str, Parser] = {}
        # the examples' epilog is made when help is shown: it reads every game's plugin record,
        # which a run of one game must not import
        self.examples_of = examples_of
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        if self.examples_of is not None:
            self.epilog = examples(*self.examples_of)
        return super().format_help()

    def add_argument(self, *flags: Any, **kwargs: Any) -> Any:
        return self._keep(super().add_argument(*flags, **kwargs))

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        # an argument no option takes may be another game's option: refused naming its games
        parsed, extra = self.parse_known_args(args, namespace)
        refuse_unknown_options(self, parsed, extra)
        return parsed

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        return self._kept(super().add_argument_group(*args, **kwargs))

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        return self._kept(super().add_mutually_exclusive_group(**kwargs))

    def add_command(self, commands: Any, name: str, **kwargs: Any) -> Parser:
        """``commands.add_parser(name, ...)`` (``commands``: this parser's subparsers), kept."""
        sub: Parser = commands.add_parser(name, **kwargs)
        self.commands[name] = sub
        return sub

    def _keep(self, action: argparse.Action) -> argparse.Action:
        self.actions[action.dest] = action
        self.options[action.dest] = max(action.option_strings or [action.dest], key=len)
        return action

    def _kept(self, group: Any) -> Any:
        add = group.add_argument

        def add_argument(*flags: Any, **kwargs: Any) -> Any:
            return self._keep(add(*flags, **kwargs))

        setattr(group, "add_argument", add_argument)  # noqa: B010 (an attribute of the group)
        return group


def add_game_options(parser: Parser, command: str, game: GamePlugin | None) -> None:
    """The options of ``game`` (its plugin's groups) on ``command``: only the game the command
    is given shows and takes its own (``exact analyze GAME --help``)."""
    for group in () if game is None else game.options:
        if command in group.commands:
            added = parser.add_argument_group(group.title)
            for option in group.options:
                added.add_argument(*option.flags, **option.settings)


EXAMPLES: dict[str | None, tuple[str, ...]] = {
    None: ("exact games", "exact analyze GAME --help"),
    "games": ("exact games",),
}
"""The generic lines of ``--help``'s examples; each game's own come from its plugin record."""


def example_lines(command: str | None, game: GamePlugin | None = None) -> tuple[str, ...]:
    """The examples of ``command``'s ``--help``: the generic ones, then those of ``game``
    (given: only its own) or of every shipped game."""
    games = [game] if game is not None else [plugin(game_id) for game_id in
                                              plugin_ids(every=False)]
    return (*EXAMPLES.get(command, ()),
            *(line for each in games for line in each.examples.get(command, ())))


def examples(command: str | None, game: GamePlugin | None = None) -> str:
    """The epilog of ``command``'s ``--help`` (None: the top level's)."""
    return "examples:\n" + "".join(f"  {line}\n" for line in example_lines(command, game))


def refuse_unknown_options(parser: Parser, args: argparse.Namespace,
                           unknown: Sequence[str]) -> None:
    """Arguments the parser did not take: an option of another game is refused naming the
    games it belongs to (``analyze punto-banco --strategy best``), anything else as argparse
    would refuse it."""
    if not unknown:
        return
    command = getattr(args, "command", None)
    game = getattr(args, "game", None)
    for argument in unknown:
        flag = argument.partition("=")[0]
        if command is None or not isinstance(game, str) or not flag.startswith("--"):
            continue
        owners = [game_id for game_id in plugin_ids(every=False)
                  if any(command in group.commands and flag in option.flags
                         for group in plugin(game_id).options for option in group.options)]
        if owners:
            get_game(game)  # an unknown id is refused here, by name
            raise ExactError(f"{flag} is an option of {', '.join(owners)}, not of {command} "
                             f"{game}")
    # anything else: the nearest of the command's options (did you mean ...?)
    sub = parser.commands.get(command or "", parser)
    flags = [flag for action in sub.actions.values() for flag in action.option_strings
             if flag.startswith("--")]
    typed = [item.split("=")[0] for item in unknown if item.startswith("--")]
    parser.error(f"unrecognized arguments: {shown_all(list(unknown))}{suggestion(typed, flags)}")
