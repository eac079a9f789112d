"""The condition language of bet files, bounded by design (issue 11): hostile conditions are
refused with one typed error naming the bet and the event, before Python's parser can recurse
or a string can grow; evaluation errors name the bet and the event; sets mean sets; the
vectorised evaluator (staged engine) agrees with the scalar one cell by cell."""

from __future__ import annotations

import contextlib
import resource
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze
from exact.core.cards import Shoe
from exact.errors import BetFileError
from exact.model.bets import Bet, load_bets
from exact.model.expressions import (
    LIMITS,
    MAX_BITS,
    EvaluationError,
    Expression,
    ExpressionError,
    Limits,
)

ROOT = Path(__file__).resolve().parents[2]

BET = """[[bet]]
id = "x"
name = "Mine"
  [[bet.event]]
  name = "Win"
  when = {when}
  pays = 1
"""


def bet_text(condition: str) -> str:
    # a TOML literal string: the condition's quotes and backslashes stay as written
    return BET.format(when="'''" + condition + "'''")


def load(features, condition: str) -> Bet:
    return load_bets("mine.toml", features, text=bet_text(condition))[0]


HOSTILE = {  # condition: what the one-line error says
    "'a' * 100000 * 100000 == winner": "* needs numbers, not text",
    "'%0200000000d' % player_total": "% needs numbers, not text",
    "'%z' % player_total": "% needs numbers, not text",
    "-" * 3000 + "player_total": "at most 2,000",
    "+".join(["player_total"] * 5000): "at most 2,000",
    "-" * 1500 + "player_total": "more than 200 operators",
    "not " * 400 + "winner": "more than 200 operators",
    " + ".join(["player_total"] * 60) + " > 3": "more than 50 levels",
    "-" * 199 + "player_total == 3": "more than 50 levels",
    "2 ** 100000 > player_total": "operator '**' is not allowed",
    "player_total ** 2 > 3": "operator '**' is not allowed",
    "1" * 5000 + " > player_total": "at most 2,000",
    "1" * 30 + " > player_total": "more than 20 characters",
    "player_total < 1e999": "floating-point number inf",
    "player_total == 0.5": "floating-point number 0.5",
    "player_total == nan": "unknown feature(s) 'nan'",
    "(" * 1000 + "winner" + ")" * 1000: "at most 2,000",
    "(" * 30 + "winner" + ")" * 30: "brackets nested more than 20 deep",
    "winner == '" + "a" * 3000 + "'": "at most 2,000",
    "player_total < 'a'": "cannot order a number against text",
    "winner < player_total": "cannot order text against a number",
    "winner + 1 > 2": "+ needs numbers, not text",
    "-player_pair == 1": "unary - needs numbers, not text",
    "player_natural < 'a'": "cannot order True/False against text",
    "winner == 1": "compares text with a number: never equal",
    "player_third < winner": "cannot order a number or None against text",
    "None <= player_total": "cannot order None",
    "winner in 'banker tie'": "in needs a tuple, list or set written out",
    "(player_total, banker_total) == {banker_total, player_total}": "compares a set only",
    "player_total in ((1, 2), 3)": "holds single values",
    "(player_total, banker_total)": "cannot be used in a condition",
    "winner is None": "comparison 'is' is not allowed",
    "~player_total > 1": "operator '~' is not allowed",
    "{'a': 1} == winner": "dict literals are not allowed",
    "f'{winner}' == 'tie'": "f-strings are not allowed",
    "(player_total": "syntax error",
}


@pytest.mark.parametrize("condition", list(HOSTILE))
def test_hostile_conditions_are_refused_with_one_line_naming_bet_and_event(punto_banco,
                                                                            condition):
    with pytest.raises(BetFileError) as error:
        load(punto_banco.features, condition)
    message = str(error.value)
    assert "\n" not in message and len(message) < 600, message
    assert message.startswith("mine.toml: bet 'x', event 'Win': "), message
    assert HOSTILE[condition] in message, message


@pytest.mark.parametrize(("condition", "features", "problem"), [
    ("player_total / (banker_total - 3) > 1", {"player_total": 5, "banker_total": 3},
     "division by zero (5 / 0)"),
    ("player_total // banker_total == 1", {"player_total": 5, "banker_total": 0},
     "division by zero"),
    ("player_total % banker_total == 1", {"player_total": 5, "banker_total": 0},
     "division by zero"),
    ("winner < player_total", {"winner": "tie", "player_total": 3}, "not supported"),
    ("player_third + 1 > 3", {"player_third": None}, "+ needs numbers, not None"),
    ("-winner == 1", {"winner": "tie"}, "unary - needs a number, not text"),
    ("player_total * 10000000000000000000 * 10000000000000000000 * 10000000000000000000"
     " * 10000000000000000000 * 10 > 1", {"player_total": 9}, f"grew past {MAX_BITS} bits"),
])
def test_evaluation_errors_name_the_bet_and_the_event(punto_banco, condition, features,
                                                       problem):
    """Loaded against feature names only (types unknown), what the typed load refuses is
    refused on the first round it fails on, naming the bet and the event."""
    bet = load(list(punto_banco.features), condition)
    with pytest.raises(BetFileError) as error:
        bet.settle(features)
    message = str(error.value)
    assert message.startswith("mine.toml: bet 'x', event 'Win': cannot evaluate "), message
    assert problem in message and "\n" not in message, message


def test_largest_conditions_within_the_limits_load_and_evaluate_quickly(punto_banco):
    """At the limits, a condition still loads (no RecursionError from Python's parser) and an
    evaluation stays cheap: the bounds are what make it so."""
    # every condition can be true and false on some round (else it is refused when loaded)
    members = ", ".join(map(str, range(10, 205)))
    widest = f"{{player_total, {members}}} == {{{members}, 3}}"
    deepest = "(" * 20 + " + ".join(["player_total"] * 45) + ")" * 20 + " > 3"
    signs = "-" * 46 + "player_total == 3"
    longest_text = "winner == 'banker'  # " + "a" * 1970
    start = time.perf_counter()
    for condition, expected in ((widest, True), (deepest, True), (signs, True),
                                (longest_text, False)):
        assert len(condition) <= LIMITS.length
        assert bool(load(punto_banco.features, condition).events[0].condition.evaluate(
            {"player_total": 3, "winner": "tie"})) is expected, condition[:40]
    assert time.perf_counter() - start < 5


def test_sets_are_sets_and_tuples_are_ordered():
    values = {"a": 8, "b": 9, "w": "tie"}
    assert Expression.parse("{a, b} == {b, a}").evaluate(values) is True
    assert Expression.parse("{a, b} == {9, 8, 8}").evaluate(values) is True
    assert Expression.parse("{a, b} != {8}").evaluate(values) is True
    assert Expression.parse("(a, b) == (b, a)").evaluate(values) is False
    assert Expression.parse("[a, b] == (8, 9)").evaluate(values) is True  # a list is a tuple
    assert Expression.parse("w in {'tie', 'banker'} and b not in [1, 2]").evaluate(values)
    # members match with ==, so order-free features match as anywhere else
    from exact.games.baccarat.coup import Ranks
    assert Expression.parse("{r} == {'8A'}").evaluate({"r": Ranks("A8")}) is True


def test_a_set_condition_settles_as_the_condition_written_out(punto_banco):
    """Over every pair of totals, the set condition and its written-out twin settle alike
    (the scalar evaluator of the direct engine and of settlement)."""
    as_set, written_out = (load(punto_banco.features, c) for c in (
        "{player_total, banker_total} == {8, 9}",
        "(player_total == 8 and banker_total == 9) or (player_total == 9 and banker_total == 8)"))
    settled = {(p, b): as_set.settle({"player_total": p, "banker_total": b})
               for p in range(10) for b in range(10)}
    assert settled == {(p, b): written_out.settle({"player_total": p, "banker_total": b})
                       for p in range(10) for b in range(10)}
    assert sorted(pair for pair, event in settled.items() if event == 0) == [(8, 9), (9, 8)]


def test_a_set_condition_counts_as_the_same_condition_written_out(punto_banco):
    """Through the staged evaluator (ranks of both hands) and the direct engine: one count,
    and that of the condition written out."""
    shoe = Shoe.standard(1)
    as_set, written_out = (load(punto_banco.features, c) for c in (
        "{player_initial_ranks, banker_initial_ranks} == {'A8', '9K'}",
        "(player_initial_ranks == 'A8' and banker_initial_ranks == '9K') or "
        "(player_initial_ranks == '9K' and banker_initial_ranks == 'A8')"))
    counts = [analyze(punto_banco, shoe, [bet], engine).bets["x"].counts
              for bet, engine in ((as_set, "compiled"), (written_out, "compiled"),
                                  (as_set, "direct"))]
    assert counts[0] == counts[1] == counts[2] and counts[0][0] > 0


# --- the command line ------------------------------------------------------------------------

def limited() -> None:
    memory = 1536 * 2**20  # 1.5 GB, the bound of issue 11
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


@pytest.mark.parametrize(("condition", "problem"), [
    ("'a' * 100000 * 100000 == winner", "* needs numbers, not text"),
    ("'%z' % player_total", "% needs numbers, not text"),
    ("-" * 3000 + "player_total", "at most 2,000"),
    ("+".join(["player_total"] * 5000), "at most 2,000"),
    # refused on a round, not on loading: analyse this bet alone, or the shipped ones come first
    ("player_paired and 1 / (player_initial_total - player_initial_total) > 1",
     "division by zero (1 / 0)"),
])
def test_command_line_one_line_exit_2(tmp_path, condition, problem):
    path = tmp_path / "hostile.toml"
    path.write_text(bet_text(condition))
    command = [sys.executable, "-m", "exact", "analyze", "punto-banco", "--decks", "1",
               "--bets", str(path), "--bet", "x"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT,
                            preexec_fn=limited)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0] and "bet 'x', event 'Win'" in lines[0], lines[0]
    assert problem in lines[0], lines[0]


# --- generated conditions --------------------------------------------------------------------

NAMES = ("a", "b", "w", "n", "r")
LEAVES = st.one_of(
    st.sampled_from(NAMES),
    st.integers(-10**22, 10**22).map(str),
    st.text(alphabet="ab%d ", max_size=4).map(repr),
    st.sampled_from(["True", "False", "None", "0", "1.5", "1e999", "...", "b'x'", "0x1f"]),
)


def combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(children, children)
    return st.one_of(
        st.builds(lambda p, op: f"({p[0]} {op} {p[1]})", pair, st.sampled_from(
            ["+", "-", "*", "/", "//", "%", "**", "<<", "&", "@", "and", "or", "==", "!=", "<",
             "<=", ">", ">=", "in", "not in", "is"])),
        st.builds(lambda x, op: f"({op}{x})", children, st.sampled_from(["-", "+", "not ", "~"])),
        st.builds(lambda p, c: f"{p[0]} < {p[1]} <= {c}", pair, children),
        st.builds(lambda items, form: form.format(", ".join(items)),
                  st.lists(children, max_size=3), st.sampled_from(["({},)", "[{}]", "{{{}}}"])),
        st.builds(lambda x, form: form.format(x), children, st.sampled_from(
            ["f({})", "{}[0]", "{}.real", "{{{}: 1}}", "(lambda: {})"])),
        st.builds(lambda x, k: "(" * k + x + ")" * k, children, st.integers(1, 25)),
        st.builds(lambda x, k: "-" * k + x, children, st.integers(1, 250)),
    )


CONDITIONS = st.recursive(LEAVES, combine, max_leaves=12)

COLUMN = {"a": [0, 3, 9], "w": ["tie", "banker", "player"], "r": [True, False, True]}
ROW = {"b": [0, 7], "n": [None, 4]}


def arrays() -> dict[str, np.ndarray]:
    result = {}
    for name, values in COLUMN.items():
        result[name] = np.empty((3, 1), dtype=object)
        result[name][:, 0] = values
    for name, values in ROW.items():
        result[name] = np.empty((1, 2), dtype=object)
        result[name][0, :] = values
    return result


@settings(max_examples=300)
@given(CONDITIONS)
def test_generated_conditions_load_or_are_refused_and_both_evaluators_agree(text):
    """Any expression tree either loads or is refused with an ExpressionError; one that loads
    evaluates to a value or an EvaluationError on every round, never another exception, and
    the vectorised evaluator gives the scalar result cell by cell (or the error)."""
    try:
        condition = Expression.parse(text)
    except ExpressionError:
        return
    expected, failed = np.zeros((3, 2), dtype=bool), False
    for row in range(3):
        for column in range(2):
            values = {**{k: v[row] for k, v in COLUMN.items()},
                      **{k: v[column] for k, v in ROW.items()}}
            try:
                expected[row, column] = bool(condition.evaluate(values))
            except EvaluationError:
                failed = True
    if failed:
        with pytest.raises(EvaluationError):
            condition.evaluate_array(arrays())
    else:
        got = np.broadcast_to(condition.evaluate_array(arrays()), (3, 2))
        assert (got == expected).all(), text


TOKENS = st.sampled_from(["(", ")", "[", "]", "{", "}", ",", "-", "+", "*", "/", "%", "**",
                          "not", "and", "or", "in", "==", "<", "a", "w", "'a'", "'%z'", "9",
                          "1" * 25, "1e999", "lambda", ":", "if", "else", "'", '"', "\\", "\n",
                          "#", "\x00", "é", "²"])


@settings(max_examples=200)
@given(st.lists(TOKENS, max_size=60), st.integers(1, 120))
def test_token_soup_loads_or_is_refused(tokens, repeat):
    text = " ".join(tokens) * repeat
    try:
        condition = Expression.parse(text)
    except ExpressionError as error:
        assert "\n" not in str(error)
        return
    with contextlib.suppress(EvaluationError):
        condition.evaluate(dict.fromkeys(condition.names, 3))


def test_composed_limits_serve_the_toolkits_own_long_conditions():
    """Validation composes "not (c1) and (c2) ..." from checked conditions: longer than a
    user's condition may be, and still refused past its nesting bound."""
    long = " or ".join(["(a == 1 and b == 2)"] * 300)
    with pytest.raises(ExpressionError, match="at most 2,000"):
        Expression.parse(long)
    assert Expression.parse(long, Limits(length=None, operators=None)).evaluate(
        {"a": 1, "b": 2}) is True
    with pytest.raises(ExpressionError, match="nested"):
        Expression.parse("(" * 40 + "a" + ")" * 40, Limits(length=None, operators=None))


def test_null_bytes_and_non_strings_are_refused():
    for text in ("winner\x00", "\x00", 5, None, "  "):
        with pytest.raises(ExpressionError):
            Expression.parse(text)


def test_declared_feature_types_match_the_values_read(punto_banco):
    """Every feature of the shipped games declares the types of its values, and every value
    read off 1,500 seeded rounds is of them, each declared type seen (the load-time type
    check relies on the declarations)."""
    from exact.core.cards import CARDS
    from exact.games.nine_and_nines.game import NineAndNines
    generator = np.random.default_rng(11)
    for game in (punto_banco, NineAndNines()):
        features = game.features
        assert all(feature.types for feature in features.values())
        seen: dict[str, set[type]] = {name: set() for name in features}
        for _ in range(1500):
            record = game.record_from_cards([CARDS[i] for i in generator.choice(
                np.repeat(np.arange(len(CARDS)), Shoe.standard(1).counts), 6, replace=False)])
            for name, feature in features.items():
                value = feature.read(record)
                assert isinstance(value, feature.types), (name, value)
                seen[name].add(next(t for t in feature.types if isinstance(value, t)))
        assert all(len(seen[name]) == len(f.types) for name, f in features.items()), seen


def test_division_is_exact():
    assert Expression.parse("a / 3 == 1 / 3 * a").evaluate({"a": 2}) is True
    assert Expression.parse("a / 3 * 3 == a").evaluate({"a": Fraction(7, 2)}) is True


CONDITION_CHARACTERS = st.sampled_from(list("abcxyz_019.eEjJ+-*/%<>=!()[]{},'\" \t#&|~^@:;`?$\\"))


@settings(max_examples=2000, deadline=None)
@given(st.lists(CONDITION_CHARACTERS | st.sampled_from(["player_total", "1e+", "0x", " and ",
                                                        " not ", "((", "))", "'é'", "\n"]),
                max_size=40).map("".join),
       st.sampled_from([LIMITS, Limits(operators=12, brackets=3, number_length=4)]))
def test_a_condition_passed_unread_would_pass_the_token_scan(text, limits):
    """The scan lets a condition by without reading its tokens only where reading them would
    let it by too (one line of ASCII, few brackets, no long number run): the shortcut a fresh
    command takes can never let through what the tokenizer refuses."""
    from exact.model import expressions

    if not expressions._plainly_within(text, limits):
        return
    with pytest.MonkeyPatch.context() as patch:  # the token scan itself, whatever it says
        patch.setattr(expressions, "_plainly_within", lambda text, limits: False)
        expressions._scan(text, limits)
