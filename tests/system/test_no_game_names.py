"""No module outside exact/games/ names a game: no game id, none of a game's stages or hands,
bets or command-line options, in a string constant or a name (docstrings aside), read with
:mod:`ast`. The vocabulary is read from the games themselves (their plugin records, features and
bet files), so a new game's names are checked as soon as it is registered."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from exact.analysis.bet_analysis import game_bets
from exact.games import game_ids, get_game, plugin
from exact.model.contracts import BetGame

from tests.system.test_architecture import _docstrings

PACKAGE = Path(__file__).resolve().parents[2] / "exact"
# Words that are generic code's own before they are any game's: a game's rule set is its
# ``rules`` (exact.model.contracts.HasRules); ``strategy``, ``information`` and ``action`` are the
# strategy-game engine's terms (exact.engines.strategy_games); ``commission`` and ``collection``
# are fields of every settlement (exact.model.settlement); ``big`` and ``small`` are English
# before they are Punto Banco's Big/Small bets; ``dealer`` is the simulation checks' own
# independent dealer (exact.analysis.verification); ``position`` is a card's place in the deal
# (``--known POSITION=CARD``), ``wagers`` every settlement's, ``owners`` a plain variable.
GENERIC = frozenset({"rules", "strategy", "information", "action", "commission", "collection",
                     "big", "small", "dealer", "position", "wagers", "owners"})
@functools.cache
def vocabulary() -> dict[str, str]:
    """Every name of a game (word -> what it is, and whose)."""
    words: dict[str, str] = {}
    for game_id in game_ids():
        words[game_id] = f"the game id {game_id}"
        words[game_id.replace("-", "_")] = f"the game id {game_id}"
        game = get_game(game_id)
        if isinstance(game, BetGame):
            for feature in game.features.values():
                for stage, _ in feature.needs.pairs:
                    words.setdefault(stage, f"a stage of {game_id}")
            for bet in game_bets(game):
                words.setdefault(bet.id, f"a bet of {game_id}")
        for group in plugin(game_id).options:
            for option in group.options:
                for name in (option.dest, *option.flags):
                    words.setdefault(name, f"an option of {game_id}")
    return {word: what for word, what in words.items()
            if word not in GENERIC and word not in _generic_options()}


@functools.cache
def _generic_options() -> frozenset[str]:
    """The options the generic commands offer every game (``--table``, ``--decks``...): a game
    may take one too without making it its own."""
    from exact.cli.app import build_parser

    parser = build_parser()
    return frozenset(name for command in parser.commands.values()
                     for dest, action in command.actions.items()
                     for name in (dest, *action.option_strings))


def named(source: str) -> list[tuple[int, str]]:
    """(line, word) of every game's name ``source`` holds: a string constant that is one (or,
    for a game id, holds one as a word), a name or attribute spelled as one."""
    words = vocabulary()
    ids = {word for word, what in words.items() if what.startswith("the game id")}
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue
            text = node.value
            hits = [text] if text in words else []
            hits += [word for word in ids if word != text and _has_word(text, word)]
        elif isinstance(node, ast.Name):
            hits = [node.id] if node.id in words else []
        elif isinstance(node, ast.Attribute):
            hits = [node.attr] if node.attr in words else []
        else:
            continue
        found += [(getattr(node, "lineno", 0), hit) for hit in hits]
    return found


def _has_word(text: str, word: str) -> bool:
    import re

    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_the_reader_sees_each_kind_of_name() -> None:
    assert {word for _, word in named('x = "century21"\n')} == {"century21"}
    assert {word for _, word in named('help = "(century21: the rules)"\n')} == {"century21"}
    assert {word for _, word in named("args.with_replacement\n")} == {"with_replacement"}
    assert {word for _, word in named('flag = "--bet-size"\n')} == {"--bet-size"}
    assert {word for _, word in named('stage = "banker"\n')} == {"banker"}
    assert named('"""The century21 game."""\n') == []
    assert named('message = "the player decides"\n') == []


def test_no_generic_module_names_a_game() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("games/"):
            continue
        hits = sorted({f"{word} ({vocabulary()[word]})" for line, word in
                       named(path.read_text(encoding="utf-8"))})
        if hits:
            found[relative] = hits
    assert found == {}
