"""What a parsed command line may not hold, refused before any work with one line: an
option of another game, an empty value, several numbers of decks where one is meant, an
output that is one of the run's inputs or another output.

Layer: cli, the top (beside the lab); it may import every layer below.
"""

from __future__ import annotations

import argparse

from exact.cli.configuration import CONFIGURATION_OPTIONS
from exact.cli.parser import Parser
from exact.core.files import InputFile, output_name, refuse_clashes
from exact.errors import ExactError
from exact.model.contracts import BetGame
from exact.model.plugins import get_game, plugin, plugin_ids

# Per command, the options of a bet game (argparse names); a game with options of its own
# declares them (its plugin record, exact.model.plugins.GamePlugin), and a strategy game takes
# none on a command it declares nothing for (`design` of a strategy game with --bet...). Any
# other option given is refused, so that one game's options are never silently accepted by
# another.
SHARED_OPTIONS = frozenset({"game", "command", "run", "json", "output", "pdf", "submission"})
_SHOE = frozenset({"decks", "jokers", "shoe", "remove"})


BET_GAME_OPTIONS: dict[str, frozenset[str]] = {
    "analyze": _SHOE | {"bets", "bet", "group", "all", "paytable", "table", "engine", "csv",
                        "xlsx", "view"},
    "design": _SHOE | {"bets", "bet", "solve_for", "target_edge", "paytable", "engine", "table"},
    "list-bets": frozenset({"bets"}),
    "features": frozenset({"bets"}),
    "eor": frozenset({"bets", "bet", "decks", "shoe", "remove", "depth", "removal_set", "tags"}),
    "simulate": frozenset({"bets", "bet", "shoes", "seed", "decks", "cut", "burn", "workers",
                           "scheduler", "tags", "trigger"}),
    "edge": frozenset({"bets", "bet", "decks", "shoe", "seen", "known"}),
    "settle": frozenset({"bets", "cards", "wager", "paytable", "decks", "jokers", "shoe"}),
    "report": CONFIGURATION_OPTIONS | {"bets", "xlsx"},
}


def game_options(game: object, command: str) -> frozenset[str]:
    """The options (argparse names) ``game`` takes on ``command``, besides the shared ones.

    >>> "strategy" in game_options(get_game("century21"), "analyze")
    True
    >>> "strategy" in game_options(get_game("punto-banco"), "analyze")
    False
    >>> sorted(game_options(get_game("punto-banco"), "list-bets")), game_options(get_game(
    ...     "century21"), "list-bets")
    (['bets'], frozenset())
    """
    own = plugin(game).own_options(command)
    if own is not None:
        return own
    if isinstance(game, BetGame):
        return BET_GAME_OPTIONS.get(command, frozenset())
    return frozenset()


def refuse_foreign_options(parser: Parser, args: argparse.Namespace) -> None:
    """An option given (not left at its default) that the chosen game does not take is an
    error naming the games that do: ``analyze punto-banco --strategy best`` is refused."""
    command_parser = parser.commands.get(getattr(args, "command", ""))
    if command_parser is None or not isinstance(getattr(args, "game", None), str):
        return
    game = get_game(args.game)  # an unknown id is refused here, by name
    taken = SHARED_OPTIONS | game_options(game, args.command)
    given = vars(args)
    for dest, flag in command_parser.options.items():
        if (dest in taken or dest not in given
                or given[dest] == command_parser.get_default(dest)):
            continue
        owners = [game_id for game_id in plugin_ids(every=False)
                  if _owns(get_game(game_id), args.command, dest)]
        where = f"an option of {', '.join(owners)}" if owners else "an option of no game"
        raise ExactError(f"{flag} is {where}, not of {args.command} {game.id}")


def _owns(game: object, command: str, option: str) -> bool:
    """Whether ``game`` has ``option`` on ``command`` as its own (a strategy game without
    options declared for a command owns none there)."""
    declared = plugin(game).own_options(command) is not None
    return (declared or isinstance(game, BetGame)) and option in game_options(game, command)


def refuse_deck_columns(args: argparse.Namespace) -> None:
    """Several numbers of ``--decks`` (side by side) are for ``analyze`` of a bet game; the
    strategy games and the report take one."""
    decks = getattr(args, "decks", None)
    if isinstance(decks, tuple) and not (args.command == "analyze"
                                         and isinstance(get_game(args.game), BetGame)):
        raise ExactError(f"--decks {','.join(map(str, decks))}: several numbers of decks side "
                         f"by side are for `analyze` of a bet game, not {args.command} "
                         f"{args.game}")


def refuse_empty_options(args: argparse.Namespace) -> None:
    """An option given an empty (or blank) value is an error, never its default: ``--shoe ""``
    must not analyse 8 decks. (A value that must be a number is refused by its parser.)"""
    for name, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        if any(isinstance(item, str) and not item.strip() for item in values):
            what = "the game id" if name == "game" else f"--{name.replace('_', '-')}"
            raise ExactError(f"{what} is empty: give a value, or leave the option out")


def refuse_clashing_files(parser: Parser, args: argparse.Namespace) -> None:
    """No output of the run may be a file it reads, nor another of its outputs: refused
    before any work (:func:`exact.core.files.refuse_clashes`). The files are those of the
    command's options, whatever the command: an option typed
    :class:`~exact.core.files.InputFile` names files read (``-`` is standard input where it
    says so), one typed :func:`~exact.core.files.output_name` a file written."""
    command_parser = parser.commands.get(getattr(args, "command", ""))
    if command_parser is None:
        return
    given = vars(args)
    reads: list[tuple[str, str | None]] = []
    writes: list[tuple[str, str]] = []
    for dest, action in command_parser.actions.items():
        value = given.get(dest)
        names = value if isinstance(value, list) else [value]
        flag = command_parser.options[dest]
        for name in (n for n in names if isinstance(n, str)):
            if isinstance(action.type, InputFile):
                reads.append((flag, None if action.type.stdin and name == "-" else name))
            elif action.type is output_name:
                writes.append((flag, name))
    refuse_clashes(reads, writes)
