"""No module outside exact/games/ names a game: no game id, none of a game's stages or hands,
bets, command-line options and their values, published-figure keys and their values, in a
string constant or a name (docstrings aside), read with :mod:`ast`. The vocabulary is read from
the games themselves (their plugin records, features, bet files and published-figure records),
so a new game's names are checked as soon as it is registered."""

from __future__ import annotations

import ast
import functools
import typing
from pathlib import Path

import msgspec

from exact.analysis.bet_analysis import game_bets
from exact.games import game_ids, get_game, plugin
from exact.model.contracts import BetGame
from exact.reference.published import FigureEntry

from tests.system.test_architecture import _docstrings

PACKAGE = Path(__file__).resolve().parents[2] / "exact"
# Words that are generic code's own before they are any game's: a game's rule set is its
# ``rules`` (exact.model.contracts.HasRules); ``action`` and ``best`` (best response) are the
# strategy-game engine's terms (exact.engines.strategy_games), ``strategy`` too but only in the
# engine's own modules (ENGINE_TERMS);
# ``commission`` and ``collection`` are fields of every settlement (exact.model.settlement);
# ``replacement`` is the decision engine's shoe dealt with replacement (exact.engines.decisions);
# ``total`` and ``totals`` are a hand's points (exact.model.settlement), a settlement's sums and
# the number of deals (a ``total`` figure, exact.reference.published); ``big`` and ``small`` are
# English before they are Punto Banco's Big/Small bets, ``at`` (and numpy's ``ufunc.at``) before
# it is a published figure's information set; ``dealer`` is the simulation checks' own
# independent dealer (exact.analysis.verification); ``position`` is a card's place in the deal
# (``--known POSITION=CARD``), ``wagers`` every settlement's, ``owners`` a plain variable. None of
# them may name a game's published-figure key in the published-figures reader
# (test_the_published_reader_names_no_game_key).
GENERIC = frozenset({"rules", "action", "best", "commission",
                     "collection", "replacement", "total", "totals", "big", "small", "at",
                     "dealer", "position", "wagers", "owners"})
# Words a game takes as an option that are generic only in the modules named: the strategy-game
# engines hold a side's ``strategy`` (a mapping of information sets to actions) as their own
# term. Elsewhere the word is a game's option (21st Century's --strategy), which reaches
# generic code only through the game's plugin record (simulate: exact.cli.counting).
ENGINE_TERMS = {"strategy": frozenset({"engines/strategy_games.py", "engines/fixed_strategy.py"})}


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
                for value in option.settings.get("choices", ()):
                    words.setdefault(str(value), f"a value of {game_id}'s {option.flags[0]}")
        for key, values in _figure_keys(game_id).items():
            words.setdefault(key, f"a key of {game_id}'s published figures")
            for value in values:
                words.setdefault(value, f"a value of {game_id}'s published {key!r}")
    return {word: what for word, what in words.items()
            if word not in GENERIC and word not in _generic_options()}


def _figure_keys(game_id: str) -> dict[str, set[str]]:
    """The keys a game's published figures have of its own (the fields its figure record,
    ``GamePlugin.figures``, adds to the generic :class:`FigureEntry`), with the words they take
    (their ``Literal`` values)."""
    record = plugin(game_id).figures
    if record is None:
        return {}
    generic = {field.name for field in msgspec.structs.fields(FigureEntry)}
    return {field.name: set(_words(field.type)) for field in msgspec.structs.fields(record)
            if field.name not in generic}


def _words(annotation: object) -> list[str]:
    """The string values of a ``Literal`` in a type (through unions and their like)."""
    if typing.get_origin(annotation) is typing.Literal:
        return [value for value in typing.get_args(annotation) if isinstance(value, str)]
    return [word for argument in typing.get_args(annotation) for word in _words(argument)]


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
    assert {word for _, word in named('seen = "banker-cards"\n')} == {"banker-cards"}
    assert {word for _, word in named('Strategy = Literal["dealer-best"]\n')} == {"dealer-best"}
    # a game's option that is also the strategy engines' term is still the game's elsewhere
    assert {word for _, word in named('names = ("strategy", "information")\n')} == {
        "strategy", "information"}
    assert named('"""The century21 game."""\n') == []
    assert named('message = "the player decides"\n') == []


def test_no_generic_module_names_a_game() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("games/"):
            continue
        hits = sorted({f"{word} ({vocabulary()[word]})" for line, word in
                       named(path.read_text(encoding="utf-8"))
                       if relative not in ENGINE_TERMS.get(word, ())})
        if hits:
            found[relative] = hits
    assert found == {}


def test_the_published_reader_names_no_game_key() -> None:
    """The published-figures reader knows only the keys every game's figures may have
    (:class:`FigureEntry`'s): a game's own keys and their values (chemin de fer's ``commission``,
    ``information = "banker-cards"``...) are the game's declaration, even where the word is
    generic elsewhere."""
    own = {key: f"a key of {game_id}'s published figures" for game_id in game_ids()
           for key in _figure_keys(game_id)}
    own |= {value: f"a value of {game_id}'s published {key!r}" for game_id in game_ids()
            for key, values in _figure_keys(game_id).items() for value in values}
    source = (PACKAGE / "reference" / "published.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            word = None if id(node) in docstrings else node.value
        elif isinstance(node, ast.Name | ast.arg):
            word = node.id if isinstance(node, ast.Name) else node.arg
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.keyword):
            word = node.arg
        else:
            continue
        if word in own:
            found.add(f"{word} ({own[word]}), line {getattr(node, 'lineno', 0)}")
    assert sorted(found) == []
