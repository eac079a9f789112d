"""Bets as data: loading, validation, safe conditions, and analysis of a new bet."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.errors import BetFileError
from exact.model.bets import load_bets, parse_pays
from exact.model.expressions import Expression, ExpressionError

BOTH_NATURAL_NINES = """
[[bet]]
id = "double-nine"
name = "Both hands a natural 9"
  [[bet.event]]
  name = "Both natural 9"
  when = "player_initial_total == 9 and banker_initial_total == 9"
  pays = 60
"""


def test_a_new_bet_from_a_file_is_analysed_exactly(punto_banco, tmp_path: Path):
    path = tmp_path / "mine.toml"
    path.write_text(BOTH_NATURAL_NINES)
    bets = game_bets(punto_banco, [path])
    result = analyze(punto_banco, Shoe.standard(1), [b for b in bets if b.id == "double-nine"])
    # Two-card 9s: 16 ways per ordered pair of values summing to 9 mod 10 ... counted directly:
    nines = [(a, b) for a in range(10) for b in range(10) if (a + b) % 10 == 9]
    cards = [16 if v == 0 else 4 for v in range(10)]
    ways = 0
    for a, b in nines:
        for c, d in nines:
            left = cards.copy()
            weight = 1
            for v in (a, b, c, d):
                weight *= left[v]
                left[v] -= 1
            ways += weight
    table = result.bets["double-nine"].table()
    assert table.outcomes[0].combinations == ways * 48 * 47
    assert table.expected_value == Fraction(ways * 61, 52 * 51 * 50 * 49) - 1


@pytest.mark.parametrize(("text", "message"), [
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='colour == 1'\npays=1", "unknown feature"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner =='\npays=1", "syntax error"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner'\npays=-3", "negative"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner'\npays='lots'", "not a number"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner'\npays=1\n"
     "[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner'\npays=1", "duplicate id"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='open(1)'\npays=1", "calls are not allowed"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner.x'\npays=1", "attribute access"),
    ("[[bet]]\nid='x'\nnmae='typo'\n[[bet.event]]\nname='a'\nwhen='winner'\npays=1",
     "bet 'x': unknown key(s) 'nmae'; known: description, event, group, id, name, otherwise"),
    ("[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner'\npays=1\ngros=2",
     "bet 'x', event 'a': unknown key(s) 'gros'; known: gross, name, pays, when"),
    ("[[bet]]\nid='x'\n", "needs at least one"),
    ("[[bet]\nid='x'", "not valid TOML"),
    ("title = 'no bets'", "unknown top-level key(s) 'title'; known: bet"),
    ("", "no [[bet]] tables"),
    ("[[bte]]\nid='x'", "unknown top-level key(s) 'bte'; known: bet"),
    ("title = 'mine'\n[[bet]]\nid='x'\n[[bet.event]]\nname='a'\nwhen='winner'\npays=1\n"
     "[[bte]]\nid='y'", "unknown top-level key(s) 'bte', 'title'; known: bet"),
])
def test_malformed_bet_files_name_the_file_bet_and_problem(punto_banco, text, message):
    with pytest.raises(BetFileError, match=r"mine\.toml") as error:
        load_bets("mine.toml", punto_banco.features, text=text)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_pays():
    assert parse_pays("19/20") == parse_pays(0.95) == Fraction(19, 20)
    assert parse_pays("push") == 0 and parse_pays("lose") == -1
    for bad in (True, "x", -1, "1/0"):
        with pytest.raises(BetFileError):
            parse_pays(bad)


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')", "(lambda: 1)()", "[x for x in winner]", "winner[0]",
    "f'{winner}'", "a if b else c", "(x := 1)", "1.5 > winner",
])
def test_conditions_cannot_run_code(text):
    with pytest.raises(ExpressionError):
        Expression.parse(text)


def test_condition_semantics():
    env = {"a": 3, "b": None, "w": "tie"}
    assert Expression.parse("1 < a <= 3 and not (w != 'tie')").evaluate(env) is True
    assert Expression.parse("a in [1, 2, 3] and b == None").evaluate(env) is True
    assert Expression.parse("a / 2 == 3 / 2 and a // 2 == 1 and a % 2 == 1").evaluate(env)
    assert Expression.parse("-a + 4 * 2 - 1 == 4").evaluate(env)


def test_alternative_paytable(punto_banco):
    tie = next(b for b in game_bets(punto_banco) if b.id == "tie")
    assert tie.paytables == ["8-to-1", "9-to-1"]
    assert tie.with_paytable("9-to-1").events[0].pays == 9
    assert tie.with_paytable("9-to-1").with_paytable("8-to-1").events[0].pays == 8


def test_a_bet_loaded_twice_is_the_same_bet(punto_banco, tmp_path: Path):
    """Equal bets from two loads compare and hash equal (the batch and staged caches are keyed
    by bet); a changed condition or pay does not."""
    first, again = game_bets(punto_banco), game_bets(punto_banco)
    assert first == again and [hash(b) for b in first] == [hash(b) for b in again]
    assert Expression.parse("winner == 'tie'") == Expression.parse(" winner == 'tie' ")
    assert Expression.parse("winner == 'tie'") != Expression.parse("winner == 'banker'")
    path = tmp_path / "mine.toml"
    path.write_text(BOTH_NATURAL_NINES)
    mine = load_bets(path, punto_banco.features)[0]
    path.write_text(BOTH_NATURAL_NINES.replace("pays = 60", "pays = 61"))
    assert load_bets(path, punto_banco.features)[0] != mine
    path.write_text(BOTH_NATURAL_NINES.replace("== 9 and", "== 8 and"))
    assert load_bets(path, punto_banco.features)[0] != mine


@pytest.mark.parametrize("game_id", ["punto-banco", "nine-and-nines"])
def test_the_shipped_bets_named_alone_are_those_of_the_whole_files(game_id):
    """A run naming its bets parses only theirs (``game_bets(..., only=...)``): each bet, and
    any subset in the files' order, is the bet the whole files give, and no other is parsed."""
    from exact.games import get_game
    from exact.model import bets as bets_module

    game = get_game(game_id)
    whole = game_bets(game)
    assert len(whole) > 2
    for bet in whole:
        assert game_bets(game, only={bet.id}) == [bet]
    some = {whole[0].id, whole[-1].id, "no-such-bet"}
    bets_module._shipped_bet.cache_clear()
    assert game_bets(game, only=some) == [whole[0], whole[-1]]
    assert bets_module._shipped_bet.cache_info().currsize == 2
