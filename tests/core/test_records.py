"""The typed records of the user files (exact.core.records): every record refuses a key it does
not declare, a value of the wrong type and a number past its bound, in one typed line naming the
file, the key path and the problem, and one exit status 2 from the command line; numbers are
read by the one grammar (exact fractions, never a binary float)."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import exact.games
from exact.analysis.assumptions import _read as read_assumptions
from exact.cli.app import main
from exact.core.records import FileRecord, Pays, structure
from exact.errors import (
    AssumptionError,
    BetFileError,
    BetFileInputError,
    InputError,
    PublishedFiguresError,
    RuleError,
    RuleInputError,
    SettlementError,
)
from exact.games.baccarat.coup import Rules as PuntoRules
from exact.games.century21.rules import Rules as Century21Rules
from exact.games.century21.settle import read_table_file
from exact.games.chemin_de_fer.rules import Rules as ChemRules
from exact.model.bets import load_bets
from exact.reference.published import loads as load_figures

GAMES = Path(exact.games.__file__).parent


def _all_records() -> list[type[FileRecord]]:
    for module in pkgutil.walk_packages(exact.games.__path__, "exact.games."):
        importlib.import_module(module.name)  # every game's records, with the generic ones
    found: list[type[FileRecord]] = []
    pending = [FileRecord]
    while pending:
        for subclass in pending.pop().__subclasses__():
            found.append(subclass)
            pending.append(subclass)
    return found


def test_every_record_is_frozen_and_refuses_unknown_keys():
    records = _all_records()
    assert len(records) >= 15, [record.__name__ for record in records]
    for record in records:
        config = record.__struct_config__
        assert config.frozen and config.forbid_unknown_fields, record


def test_no_record_field_is_a_float():
    """Floats never enter: a number is an int, a Fraction of a quantity or text."""
    for record in _all_records():
        for info in msgspec.structs.fields(record):
            assert "float" not in repr(info.type), (record, info.name)


# --- each file kind: an unknown key, a wrong type, a number past its bound -----------------
def _refused(error: type[Exception], call, message: str) -> None:
    """``call()`` raises ``error``: one line holding ``message``."""
    with pytest.raises(error) as caught:
        call()
    assert message in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


BET = "[[bet]]\nid = 'x'\n[[bet.event]]\nname = 'a'\nwhen = \"winner == 'tie'\"\npays = 8\n"


def _bets(text: str) -> None:
    load_bets("mine.toml", exact.games.get_game("punto-banco").features, text=text)


@pytest.mark.parametrize(("text", "error", "message"), [
    (BET + "gros = 2\n", BetFileError,
     "mine.toml: bet 'x', event 'a': unknown key(s) 'gros'; known: gross, name, pays, when"),
    (BET.replace("id = 'x'", "id = 'x'\ngroup = 3"), BetFileError,
     "mine.toml: bet 'x': group: must be text"),
    (BET + "gross = true\n", BetFileInputError,
     "mine.toml: bet 'x', event 'a': gross True: is not a number"),
    (BET.replace("pays = 8", "pays = '1/3'"), None, None),
    (BET.replace("pays = 8", "pays = 1e13"), BetFileInputError,
     "mine.toml: bet 'x', event 'a': pays '1E+13': must be at most 10**12"),
    (BET.replace("pays = 8", "pays = 8\n[bet.paytables.alt]\na = 'lots'"), BetFileInputError,
     "mine.toml: bet 'x', paytables 'alt', 'a' 'lots': is not a number"),
])
def test_bet_file_records(text, error, message):
    if error is None:
        _bets(text)
        return
    _refused(error, lambda: _bets(text), message)


def _rule_file(tmp_path: Path, game: str, old: str, new: str) -> Path:
    text = (GAMES / game / "data" / "rules.toml").read_text()
    assert old in text, old
    path = tmp_path / "rules.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("game", "load", "old", "new", "error", "message"), [
    ("baccarat", PuntoRules.load, "naturals =", "naturls = [8, 9]\nnaturals =", RuleError,
     "unknown rule(s) 'naturls'"),
    ("baccarat", PuntoRules.load, "naturals = [8, 9]", "naturals = 8", RuleError,
     "rules.toml: rule naturals must be an array, not a whole number"),
    ("baccarat", PuntoRules.load, "naturals = [8, 9]", "naturals = [8, 10]", RuleInputError,
     "rules.toml: rule naturals 10: must be at most 9"),
    ("baccarat", PuntoRules.load, "naturals = [8, 9]", "naturals = [8, '1/2']", RuleInputError,
     "rule naturals '1/2': is not a whole number"),
    ("chemin_de_fer", ChemRules.load, "[house_way]", "[house_way]\nplayer_draws_on_6 = true",
     RuleError, "rules.toml: [house_way]: unknown rule(s) 'player_draws_on_6'"),
    ("chemin_de_fer", ChemRules.load, "decks = 6", "decks = 'six'", RuleInputError,
     "rules.toml: rule decks 'six': is not a whole number"),
    ("chemin_de_fer", ChemRules.load, 'commission = "0"', 'commission = "1/5"', RuleInputError,
     "rules.toml: rule commission '1/5': must be at most 1/10"),
    ("chemin_de_fer", ChemRules.load, "[house_way.banker_draws_on_player_third]\n",
     "[house_way.banker_draws_on_player_third]\n10 = [1]\n", RuleError,
     "[house_way.banker_draws_on_player_third]: unknown total(s) '10'; known: 0, 1, 2"),
    ("century21", Century21Rules.load, "[drawing]", "[drawing]\nmust_draw = 4", RuleError,
     "rules.toml: [drawing]: unknown rule(s) 'must_draw'"),
    ("century21", Century21Rules.load, "third_cards_face_up = false",
     "third_cards_face_up = 'no'", RuleError,
     "rules.toml: [drawing]: rule third_cards_face_up must be true or false"),
    ("century21", Century21Rules.load, "{ min_bet = 10, max_bet = 100, fee = 1 }",
     "{ min_bet = 10, max_bet = 100, fee = 1e13 }", RuleInputError,
     "[collection] table_tags entry 1: fee '1E+13': must be at most 10**12"),
    ("century21", Century21Rules.load, "natural_pays = 1", "natural_pays = '1/3'", None, None),
])
def test_rule_file_records(tmp_path, game, load, old, new, error, message):
    path = _rule_file(tmp_path, game, old, new)
    if error is None:
        assert load(path).natural_pays == Fraction(1, 3)
        return
    _refused(error, lambda: load(path), message)


TABLE = """dealer = "9H 9S"
dealer_wager = 300
[[seat]]
seat = 1
cards = "4C 5D"
[[wager]]
seat = 1
circle = 1
amount = 100
"""


@pytest.mark.parametrize(("old", "new", "message"), [
    ("amount = 100", "amount = 100\namont = 5", "wager entry 1: unknown key(s) 'amont'"),
    ('cards = "4C 5D"', "cards = 45", "seat entry 1: cards must be text"),
    ("circle = 1", "circle = 4", "wager entry 1: circle 4: must be at most 3"),
    ("amount = 100", "amount = -1", "wager entry 1: amount: amount must be positive"),
    ("dealer_wager = 300", "dealer_wager = 300\ntable = 1001", "table 1001: must be at most"),
])
def test_table_file_records(tmp_path, old, new, message):
    path = tmp_path / "hand.toml"
    path.write_text(TABLE.replace(old, new))
    _refused(SettlementError, lambda: read_table_file(path), message)


ASSUMPTION = '[[assumption]]\nid = "a"\ntext = "t"\nsource = "method"\nwhy = "w"\n'


@pytest.mark.parametrize(("text", "message"), [
    (ASSUMPTION + "qoute = 'q'\n", "assumption 'a': unknown key(s) 'qoute'"),
    (ASSUMPTION + "commands = 'analyze'\n", "assumption 'a': commands must be an array"),
    (ASSUMPTION + "commands = ['analyse']\n", "commands must be one of analyze, design"),
    (ASSUMPTION.replace('"t"', '"x" ') + "short = '" + "s" * 5001 + "'\n",
     "short 'sss"),
])
def test_assumptions_file_records(tmp_path, text, message):
    path = tmp_path / "assumptions.toml"
    path.write_text(text)
    _refused(AssumptionError, lambda: read_assumptions(path), message)


FIGURE = "[[figure]]\nwhat = 'house_edge'\nbet = 'tie'\nvalue = '14.3596'\n"


@pytest.mark.parametrize(("text", "message"), [
    (FIGURE + "valeu = 1\n", "figure entry 1: unknown key(s) 'valeu'"),
    (FIGURE + "decks = '8'\n", "'decks' must be a whole number, not text"),
    (FIGURE + "decks = 1001\n", "'decks' must be a whole number from 1 to 1000"),
    (FIGURE.replace("house_edge", "edge"), "'what' must be one of count, total"),
])
def test_published_file_records(text, message):
    _refused(PublishedFiguresError, lambda: load_figures(text, "figures.toml"), message)


def test_a_bad_record_is_one_line_and_status_2_from_the_command_line(tmp_path, capsys):
    bets = tmp_path / "bets.toml"
    bets.write_text(BET.replace("pays = 8", "pays = 8\npyas = 9"))
    rules = _rule_file(tmp_path, "chemin_de_fer", "naturals = [8, 9]", "naturals = [8, 99]")
    for argv, message in (
            (["analyze", "punto-banco", "--bets", str(bets)], "unknown key(s) 'pyas'"),
            (["analyze", "chemin-de-fer", "--rules", str(rules)], "rule naturals 99: must be at "
                                                                "most 9")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and str(tmp_path) in err, err


# --- the number grammar, kept --------------------------------------------------------------
class _Paid(FileRecord, frozen=True):
    pays: Pays


@given(st.fractions(min_value=0, max_value=10**12, max_denominator=10**6))
def test_a_pay_written_as_a_fraction_or_a_decimal_reads_exactly(pays: Fraction):
    as_text = structure({"pays": f"{pays.numerator}/{pays.denominator}"}, _Paid, "t", InputError)
    assert as_text.pays == pays and type(as_text.pays.numerator) is int
    # a plain Fraction once pickled or printed: caches and outputs see no record type
    assert repr(as_text.pays) == repr(pays)
    if 10**6 % pays.denominator == 0:  # a finite decimal: a TOML float, read as written
        decimal = Decimal(pays.numerator) / Decimal(pays.denominator)
        assert structure({"pays": decimal}, _Paid, "t", InputError).pays == pays


def test_a_binary_float_is_read_as_the_decimal_it_shows_and_nan_is_refused():
    assert structure({"pays": 0.95}, _Paid, "t", InputError).pays == Fraction(19, 20)
    with pytest.raises(InputError, match="t: pays nan: is not a number"):
        structure({"pays": float("nan")}, _Paid, "t", InputError)


def test_records_are_frozen():
    record = structure({"pays": 1}, _Paid, "t", InputError)
    with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
        record.pays = Pays(2)  # type: ignore[misc]
