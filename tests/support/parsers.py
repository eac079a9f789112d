"""The command line's parser with every game's own options (each game's parser holds only its
own: exact.cli.parser.add_game_options), for the tests that read every option of a command."""

from __future__ import annotations

from exact.cli.app import build_parser
from exact.games import game_ids, plugin


def full_parser():
    """:func:`exact.cli.app.build_parser` with the options of every game added to each command
    (a flag two games share, once: the first game's, by id)."""
    parser = build_parser()
    for game_id in game_ids():
        for group in plugin(game_id).options:
            for command in group.commands:
                sub = parser.commands[command]
                taken = {flag for action in sub.actions.values()
                         for flag in action.option_strings}
                added = None
                for option in group.options:
                    if not taken & set(option.flags):
                        added = added or sub.add_argument_group(group.title)
                        added.add_argument(*option.flags, **option.settings)
    return parser
