"""The parsing layer (exact.core.parsing): grammar, bounds, files; and every command-line example of
issue 11 that it covers ends with one line on standard error and exit status 2."""

from __future__ import annotations

import math
import os
import resource
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact.analysis.removal import CountError, parse_tags
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.core.parsing import (
    MAX_CARDS,
    MAX_DIGITS,
    MAX_FILE_BYTES,
    QUANTITIES,
    check_keys,
    load_toml,
    parse_integer,
    parse_number,
    read_user_file,
)
from exact.errors import BetFileError, InputError, RuleError, SettlementError, ShoeError
from exact.games.century21 import game as century21
from exact.games.century21.rules import DEFAULT_RULES, Rules
from exact.model.bets import load_bets, parse_pays

# --- the grammar ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("8", 8), (" 8 ", 8), ("+8", 8), ("19/20", Fraction(19, 20)), ("0.95", Fraction(19, 20)),
    (".5", Fraction(1, 2)), ("5.", 5), ("1e3", 1000), ("2.5E-3", Fraction(1, 400)),
    ("007", 7), ("0/5", 0),
])
def test_the_grammar_reads_exact_values(text, value):
    assert parse_number(text, "pays") == value


@pytest.mark.parametrize("text", [
    "²", "٣", "１", "1²", "nan", "NaN", "inf", "-inf", "Infinity", "1_000", "0x10", "1e", "e5",
    ".", "-", "", " ", "1/0", "1/2/3", "5%", "1 000", "½", "one", "1.2.3", "--1", "1e+", "१",
])
def test_the_grammar_refuses_everything_else(text):
    with pytest.raises(InputError, match="pays"):
        parse_number(text, "pays")


@pytest.mark.parametrize("text", ["1e999999999", "1e-400", "1e61", "9" * (MAX_DIGITS + 1),
                                  "1/" + "3" * MAX_DIGITS, "0." + "0" * MAX_DIGITS + "1"])
def test_huge_texts_are_refused_at_once(text):
    with pytest.raises(InputError, match="docs: Input limits"):
        parse_number(text, "pays")


def test_percent_only_where_the_quantity_allows_it():
    assert parse_number("5%", "target-edge") == parse_number(" 1/20 ", "target-edge")
    assert parse_number("-2.5 %", "target-edge") == Fraction(-1, 40)
    with pytest.raises(InputError):
        parse_number("5%", "pays")


def test_whole_numbers_and_bounds_per_quantity():
    assert parse_integer("1e3", "decks") == 1000
    with pytest.raises(InputError, match=r"--decks '1\.5': is not a whole number"):
        parse_integer("1.5", "decks", "--decks")
    with pytest.raises(InputError, match=r"seed '-1': is negative \(must be at least 0\)"):
        parse_integer("-1", "seed")
    with pytest.raises(InputError, match="simulated-decks '1001': must be at most 1,000 "):
        parse_integer("1001", "simulated-decks")
    with pytest.raises(InputError, match="must be at most 1 "):
        parse_number("2", "target-edge")
    with pytest.raises(InputError, match=r"workers '0': must be at least 1$"):
        parse_integer("0", "workers")
    with pytest.raises(InputError, match="--cut is empty: give a value, or leave the option out"):
        parse_integer(" ", "cut", "--cut")
    with pytest.raises(InputError, match="pays is empty: a number is needed"):
        parse_number("", "pays")
    for text in ("nan", "-inf", "Infinity"):
        with pytest.raises(InputError, match="is not a number \\(not finite\\)"):
            parse_number(text, "true-count")
    for quantity, spec in QUANTITIES.items():  # every bound is itself accepted
        for bound in (spec.minimum, spec.maximum):
            if bound is not None:
                assert parse_number(str(bound), quantity) == bound


def test_numbers_from_toml_are_exact_and_bounded():
    assert parse_number(0.95, "pays") == Fraction(19, 20)  # a Python float: its shortest text
    data = load_toml("a = 0.1\nb = 1e308\nc = 1e400\nd = 1e-400\ne = nan\nf = -inf\ng = 25")
    assert parse_number(data["a"], "pays") == Fraction(1, 10)
    assert parse_number(data["g"], "pays") == 25
    for key in "bcd":
        with pytest.raises(InputError, match="exponent"):
            parse_number(data[key], "pays")
    for key in "ef":
        with pytest.raises(InputError, match="not finite"):
            parse_number(data[key], "pays")
    for value in (float("nan"), float("inf"), True, None, [1], {"a": 1}):
        with pytest.raises(InputError):
            parse_number(value, "pays")
    with pytest.raises(InputError, match="digits"):
        parse_number(10**4000, "pays")


@pytest.mark.parametrize("text", ["x = " + "9" * 5000, "x = " + "[" * 5000, "x = 1\nx = 2"])
def test_every_toml_failure_is_a_decode_error(text):
    with pytest.raises(tomllib.TOMLDecodeError):
        load_toml(text)


@pytest.mark.parametrize("key", [".".join(["a"] * 20_000), ".".join(['"a"'] * 20_000),
                                 " . ".join(["a-1"] * 20_000)])
@pytest.mark.parametrize("form", ["{} = 1", "[{}]", "[[{}]]", "x = {{{} = 1}}",
                                  "x = 1\n  {} = 2"])
def test_a_dotted_key_of_thousands_of_parts_is_refused_before_parsing(key, form):
    """tomllib's memory grows with the square of a key's parts: this 40 kB key took 1.6 GB."""
    with pytest.raises(tomllib.TOMLDecodeError, match="dotted key of more than 200 parts"):
        load_toml(form.format(key))


def test_dotted_keys_within_the_bound_and_dotted_text_in_values_load():
    key = ".".join(["a"] * 200)
    assert load_toml(f"{key} = 1")["a"]["a"]
    text = ".".join(["a"] * 1000)
    assert load_toml(f"when = '{text}'\nx = ['{text}', \"{text}\"]")["when"] == text


fractions_in_bounds = st.fractions(min_value=0, max_value=10**12, max_denominator=10**20)


@given(fractions_in_bounds)
def test_any_fraction_in_bounds_written_as_a_over_b_reads_back(value):
    assert parse_number(f"{value.numerator}/{value.denominator}", "pays") == value
    assert parse_number(str(value), "pays") == value


@given(st.integers(0, 10**12), st.integers(0, 20), st.integers(-20, 20))
def test_any_decimal_in_bounds_reads_back(whole, decimals, exponent):
    digits = str(whole)
    text = (digits[:len(digits) - decimals] or "0") + "." + digits[len(digits) - decimals:] \
        if 0 < decimals < len(digits) else digits
    expected = Fraction(Decimal(text)) * Fraction(10) ** exponent
    if expected <= 10**12:
        assert parse_number(f"{text}e{exponent}", "pays") == expected


@given(st.integers(-10**6, 10**6), st.integers(1, 10**6))
def test_true_counts_read_back(numerator, denominator):
    value = Fraction(numerator, denominator)
    assert parse_number(f"{numerator}/{denominator}", "true-count") == value


# --- where the layer is used ------------------------------------------------------------------


def test_errors_are_input_errors_and_the_error_of_what_was_read(punto_banco):
    text = '[[bet]]\nid = "x"\n[[bet.event]]\nname = "T"\nwhen = "winner == \'tie\'"\npays = {}'
    for pays, message in (('"1e999999999"', "exponent"), ("1e400", "exponent"),
                          ("nan", "not finite"), ('"²"', "ASCII")):
        with pytest.raises(InputError, match=message) as caught:
            load_bets("mine.toml", punto_banco.features, text=text.format(pays))
        assert isinstance(caught.value, BetFileError)
        assert "mine.toml: bet 'x', event 'T': pays" in str(caught.value)
    with pytest.raises(BetFileError, match="is not a number"):
        parse_pays("lots")
    with pytest.raises(ShoeError, match="bad shoe entry 'A:²'"):
        Shoe.parse("A:²")
    with pytest.raises(CountError, match="tag 'A=²'"):
        parse_tags("A=²")
    with pytest.raises(RuleError, match="win_pays"):
        Rules.from_mapping({"win_pays": Decimal("1e999999999")})
    with pytest.raises(RuleError, match="win_pays_by_total key"):
        Rules.from_mapping({"win_pays_by_total": {"²": 2}})


@pytest.mark.parametrize("paytables", ["5", "[1, 2]", '"abc"'])
def test_paytables_that_are_not_tables(punto_banco, paytables):
    text = (f'[[bet]]\nid = "x"\npaytables = {paytables}\n[[bet.event]]\nname = "T"\n'
            "when = \"winner == 'tie'\"\npays = 8")
    with pytest.raises(BetFileError, match=r"mine\.toml: bet 'x': paytables must be a table"):
        load_bets("mine.toml", punto_banco.features, text=text)


def test_the_largest_shoe():
    assert Shoe.parse(f"A:{MAX_CARDS}").size == MAX_CARDS
    with pytest.raises(ShoeError, match="largest"):
        Shoe.parse(f"A:{MAX_CARDS},K:1")
    with pytest.raises(ShoeError, match="largest"):
        Shoe.standard(MAX_CARDS)
    with pytest.raises(RuleError, match="largest shoe"):
        DEFAULT_RULES.replace(decks=10**30)


def test_century21_counts_stay_exact_past_int64(monkeypatch):
    """The sequence-form walk sums short templates in int64 while exact; the Python-integer
    path (forced here on a small shoe) gives the same table, so huge shoes are exact too."""
    from exact.engines import decisions

    shoe = Shoe.parse("A:2,2:2,5:3,9:3,T:5,X:2")
    fast = century21.game_table(DEFAULT_RULES, shoe)
    century21._game_table.cache_clear()
    monkeypatch.setattr(decisions, "_INT64_SAFE", 0)
    exact = century21.game_table(DEFAULT_RULES, shoe)
    century21._game_table.cache_clear()
    assert exact is not fast and exact.entries == fast.entries and exact.total == fast.total


# --- files ----------------------------------------------------------------------------------------


def test_user_files_are_utf8_and_bounded(tmp_path):
    good = tmp_path / "good.toml"
    good.write_bytes("\ufeffname = 'Über'".encode())
    assert read_user_file(good, "bet file") == "name = 'Über'"
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"name = '\xdcber'\n")
    with pytest.raises(InputError, match=r"latin.toml: cannot read rules: not UTF-8 text \(byte "
                       r"0xdc on line 1\)"):
        read_user_file(latin, "rules")
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(RuleError, match="larger than 4 MiB"):
        read_user_file(huge, "rules", RuleError)
    with pytest.raises(InputError, match="cannot read seen cards"):
        read_user_file(tmp_path, "seen cards")



@pytest.mark.parametrize("error", [BetFileError, RuleError, SettlementError, InputError])
@pytest.mark.parametrize(("keys", "named"), [
    (["nmae"], "'nmae'"),
    (["b", "a"], "'a', 'b'"),
    (["x" * 10**6], "'" + "x" * 36 + "…' (1000000 characters)"),
    (["\x1b[2J\n\u202e"], "'\\x1b[2J\\n\\u202e'"),
    ([f"k{i}" for i in range(1000)],  # sorted as text: k0, k1, k10, k100, k101
     ", ".join(map(repr, sorted(f"k{i}" for i in range(1000))[:5])) + " and 995 more"),
])
def test_check_keys_names_unknown_keys_shortly_in_the_callers_error(error, keys, named):
    """An unknown key is named (sorted, as :func:`shown` cuts it: a hostile key of a million
    characters or of control characters stays one short printable line), the known keys are
    listed, and the error is of the caller's type."""
    table = {"id": 1, "name": 2, **dict.fromkeys(keys, 3)}
    check_keys({"id": 1}, {"id", "name"}, "f.toml", error)  # known keys only: no error
    with pytest.raises(error) as raised:
        check_keys(table, {"name", "id"}, "f.toml: bet 'x'", error)
    message = str(raised.value)
    assert type(raised.value) is error
    assert message == f"f.toml: bet 'x': unknown key(s) {named}; known: id, name"
    assert message.isprintable() and len(message) < 300

# --- the command line -------------------------------------------------------------------------

MEMORY = 1536 * 2**20  # the issue's bound: 1.5 GB


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _bet_file(tmp: Path, name: str, lines: str) -> str:
    path = tmp / name
    path.write_text('[[bet]]\nid = "x"\n' + lines + '\n[[bet.event]]\nname = "T"\n'
                    "when = \"winner == 'tie'\"\n" + ("pays = 8\n" if "pays" not in lines else ""))
    return str(path)


def _event_file(tmp: Path, name: str, pays: str) -> str:
    path = tmp / name
    path.write_text('[[bet]]\nid = "x"\n[[bet.event]]\nname = "T"\n'
                    f"when = \"winner == 'tie'\"\npays = {pays}\n")
    return str(path)


def _cases(tmp: Path) -> dict[str, tuple[list[str], str]]:
    """Issue 11's examples in this part: arguments and a text the one line must hold."""
    latin = tmp / "latin.toml"
    latin.write_bytes(b'[[bet]]\nid = "\xe9"\n')
    rules = tmp / "rules.toml"
    rules.write_text("[collection]\ntable_tags = [{min_bet = 10, max_bet = 100, "
                     "fee = \"1e999999999\"}]\n")
    latin_rules = tmp / "latin-rules.toml"
    latin_rules.write_bytes(b"name = '\xe9'\n")
    big_rules = tmp / "big-rules.toml"
    big_rules.write_text("decks = 100000\njokers = 100000\n")
    seen = tmp / "seen.txt"
    seen.write_bytes(b"9H \xff KD\n")
    pb = ["analyze", "punto-banco"]
    sim = ["simulate", "punto-banco", "--shoes", "1", "--bet", "tie", "--workers", "1"]
    return {
        "pays 1e999999999": ([*pb, "--bets", _event_file(tmp, "a.toml", '"1e999999999"')],
                             "exponent"),
        "pays 1e308": ([*pb, "--bets", _event_file(tmp, "b.toml", "1e308")], "exponent"),
        "pays 1e400": ([*pb, "--bets", _event_file(tmp, "c.toml", "1e400")], "exponent"),
        "pays 1e-400": ([*pb, "--bets", _event_file(tmp, "d.toml", "1e-400")], "exponent"),
        "pays nan": ([*pb, "--bets", _event_file(tmp, "e.toml", "nan")], "not finite"),
        "pays 5000 digits": ([*pb, "--bets", _event_file(tmp, "f.toml", "9" * 5000)],
                             "thousands of digits"),
        "pays 4000 digits": ([*pb, "--bets", _event_file(tmp, "g.toml", "9" * 4000)], "digits"),
        "paytables = 5": ([*pb, "--bets", _bet_file(tmp, "h.toml", "paytables = 5")],
                          "paytables must be a table"),
        "paytables = [1,2]": ([*pb, "--bets", _bet_file(tmp, "i.toml", "paytables = [1,2]")],
                              "paytables must be a table"),
        'paytables = "abc"': ([*pb, "--bets", _bet_file(tmp, "j.toml", 'paytables = "abc"')],
                              "paytables must be a table"),
        "non-UTF-8 bet file": ([*pb, "--bets", str(latin)], "not UTF-8"),
        "non-UTF-8 table file": ([*pb, "--table", str(latin)], "not UTF-8"),
        "non-UTF-8 rule file": (["analyze", "century21", "--rules", str(latin_rules)],
                                "not UTF-8"),
        "non-UTF-8 seen file": (["edge", "punto-banco", "--seen", str(seen)], "not UTF-8"),
        "rule fee 1e999999999": (["analyze", "century21", "--rules", str(rules)], "fee"),
        "--target-edge 1e999999999": (["design", "punto-banco", "--bet", "tie", "--solve-for",
                                       "tie", "--target-edge", "1e999999999"], "--target-edge"),
        "century21 --bet 1e999999999": (["analyze", "century21", "--bet", "1e999999999"],
                                        "--bet"),
        "century21 --bet 1e-400": (["analyze", "century21", "--bet", "1e-400"], "--bet"),
        "--shoe A:²": ([*pb, "--shoe", "A:²"], "bad shoe entry"),
        "--shoe ''": ([*pb, "--shoe", ""], "--shoe is empty"),
        "--decks ²": ([*pb, "--decks", "²"], "--decks"),
        "--decks 1e30": ([*pb, "--decks", "1e30"], "--decks"),
        "--tags A=²": (["eor", "punto-banco", "--bet", "tie", "--tags", "A=²"], "tag 'A=²'"),
        "--known ²=9H": (["edge", "punto-banco", "--seen", os.devnull, "--known", "²=9H"],
                         "--known"),
        "--burn ²": ([*sim, "--seed", "1", "--burn", "²"], "--burn"),
        "--seed -1": ([*sim, "--seed", "-1"], "--seed"),
        "--trigger tie=nan": ([*sim, "--seed", "1", "--trigger", "tie=nan"], "--trigger"),
        "simulate --decks 1000000": ([*sim, "--seed", "1", "--decks", "1000000"], "--decks"),
        "--depth ٣": (["eor", "punto-banco", "--depth", "٣"], "--depth"),
        "--players 1e999999999": (["analyze", "century21", "--players", "1e999999999"],
                                  "--players"),
        "century21 --shoe ''": (["analyze", "century21", "--shoe", ""], "--shoe is empty"),
        "simulate a rule file's huge shoe": (["simulate", "century21", "--shoes", "1", "--seed",
                                              "1", "--rules", str(big_rules)],
                                             "at most 54,000 cards"),
    }


def _one_line_and_status_2(name: str, expected: str, status: int, stdout: str,
                           stderr: str) -> str | None:
    """What is wrong with a run that must end with one line naming ``expected``, or None."""
    lines = stderr.splitlines()
    if status != 2 or "Traceback" in stderr or stdout or len(lines) != 1 or \
            expected not in lines[0]:
        return f"{name}: status {status}, stderr {stderr[-300:]!r}"
    return None


def test_issue_examples_give_one_line_and_status_2(tmp_path, capsys, monkeypatch):
    """Through :func:`exact.cli.app.main`, as the command line runs them (a process each would
    cost half a second to start; a sample runs as processes below)."""
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115 (closed by monkeypatch)
    wrong = []
    cases = _cases(tmp_path)
    for name, (arguments, expected) in cases.items():
        status = main(arguments)
        out = capsys.readouterr()
        wrong.append(_one_line_and_status_2(name, expected, status, out.out, out.err))
    assert not [w for w in wrong if w], wrong
    assert len(cases) == 32


IN_PROCESSES = ("pays 1e999999999", "pays 5000 digits", "paytables = 5", "non-UTF-8 seen file",
                "rule fee 1e999999999", "--target-edge 1e999999999", "--shoe A:²", "--seed -1",
                "--trigger tie=nan")


def test_issue_examples_as_processes(tmp_path):
    """A sample as real processes, run at once, each under the issue's bounds: 30 s, 1.5 GB."""
    cases = {name: case for name, case in _cases(tmp_path).items() if name in IN_PROCESSES}

    def run(arguments: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "exact", *arguments], capture_output=True,
                              text=True, timeout=30, preexec_fn=_limited,
                              stdin=subprocess.DEVNULL)

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(zip(cases, pool.map(run, (a for a, _ in cases.values())), strict=True))
    wrong = [_one_line_and_status_2(name, cases[name][1], r.returncode, r.stdout, r.stderr)
             for name, r in results.items()]
    assert not [w for w in wrong if w], wrong
    assert len(results) == len(IN_PROCESSES)


# --- the docs state the bounds the code has --------------------------------------------------
def test_the_documented_input_limits_are_the_codes():
    """One page "Input limits" (docs/explanation); its table is exactly
    :func:`quantities_table`, and every
    other bound it states is the constant the code uses (so neither can drift)."""
    from exact.analysis.scale_out import WORKERS_PER_CORE
    from exact.analysis.simulation import ROUNDS_KEPT
    from exact.core.parsing import (
        MAX_EXPONENT,
        MAX_FILE_BYTES,
        MAX_SIMULATED_CARDS,
        MAX_SIMULATED_DECKS,
        MAX_SIMULATED_SHOES,
        quantities_table,
    )
    from exact.engines.cache_entries import MAX_ENTRY_BYTES, MAX_METADATA_BYTES
    from exact.model.expressions import LIMITS, MAX_BITS

    section = (Path(__file__).parents[2] / "docs" / "explanation" / "input-limits.md").read_text()
    assert section.startswith("# Input limits")
    begin, end = "<!-- generated: exact.core.parsing.quantities_table() -->\n", \
        "\n<!-- end of generated table -->"
    table = section[section.index(begin) + len(begin):section.index(end)]
    assert table == quantities_table(), "Input limits' table is stale: paste quantities_table()"
    flat = " ".join(section.replace("**", "").split())
    stated = [
        f"at most {MAX_DIGITS} digits", f"exponent of at most {MAX_EXPONENT}",
        f"largest shoe holds 10^{round(math.log10(MAX_CARDS))} cards",
        f"at most {MAX_SIMULATED_DECKS:,} decks and {MAX_SIMULATED_CARDS:,} cards a shoe",
        f"at most {MAX_SIMULATED_SHOES:,} shoes", f"at most {ROUNDS_KEPT:,} rounds",
        f"at most {WORKERS_PER_CORE} per core",
        f"at most {LIMITS.length:,} characters, {LIMITS.operators} operators",
        f"brackets {LIMITS.brackets} deep and numbers of {LIMITS.number_length} characters",
        f"at most {LIMITS.depth} levels", f"at most {MAX_BITS} bits",
        f"at most {MAX_FILE_BYTES // 2**20} MiB",
        f"at most {MAX_ENTRY_BYTES // 2**20} MiB with at most {MAX_METADATA_BYTES // 2**20} MiB",
    ]
    assert 10 ** round(math.log10(MAX_CARDS)) == MAX_CARDS
    assert [text for text in stated if text not in flat] == []
