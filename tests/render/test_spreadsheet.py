"""The Excel par sheets: read back with openpyxl, their formulas evaluated exactly here."""

from __future__ import annotations

import math
import re
import sys
from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import analyze
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.render.spreadsheet import (
    SpreadsheetError,
    analysis_tables,
    analysis_workbook,
    sheet_names,
)

from tests.support.optional import require_module, required_when_run
from tests.support.published import CENTURY21

_sheets = required_when_run("openpyxl", "xlsxwriter")


@pytest.fixture(scope="module")
def written(punto_banco, tmp_path_factory):
    """``exact analyze punto-banco --decks 8 --xlsx`` and the library's own analysis."""
    path = tmp_path_factory.mktemp("sheets") / "par.xlsx"
    assert main(["analyze", "punto-banco", "--decks", "8", "--xlsx", str(path)]) == 0
    return path, analyze(punto_banco, Shoe.standard(8))


def _books(path):
    openpyxl = require_module("openpyxl")
    return (openpyxl.load_workbook(path), openpyxl.load_workbook(path, data_only=True))


_TOKEN = re.compile(r"'((?:[^']|'')+)'!\$?([A-Z]+)\$?(\d+)"  # another sheet's cell
                    r"|\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)"  # a range
                    r"|\$?([A-Z]{1,2})\$?(\d+)(?![\d(])"  # a cell
                    r'|("[^"]*")'  # a criterion
                    r"|(\d+)"  # a number
                    r"|\^")


class Evaluator:
    """Evaluates the formulas the par sheets use (+ - * / ^, SUM, SUMIF, SUMPRODUCT, SQRT,
    references across sheets) over exact fractions, reading the numbers the sheet holds."""

    def __init__(self, book, overrides=None):
        self.book, self.overrides = book, overrides or {}

    def cell(self, sheet: str, reference: str):
        if (sheet, reference) in self.overrides:
            return self.overrides[sheet, reference]
        value = self.book[sheet][reference].value
        if isinstance(value, str) and value.startswith("="):
            return self.formula(sheet, value)
        assert isinstance(value, int), (sheet, reference, value)  # counts and pays: exact
        return Fraction(value)

    def formula(self, sheet: str, text: str):
        def token(match: re.Match) -> str:
            other, column, row, first, top, last, bottom, cell, cell_row, criterion, number = \
                match.groups()
            if other:
                return f"V({other.replace(chr(39) * 2, chr(39))!r}, {column + row!r})"
            if first:
                assert first == last
                return f"[V(S, '{first}' + str(r)) for r in range({top}, {int(bottom) + 1})]"
            if cell:
                return f"V(S, {cell + cell_row!r})"
            if criterion:
                return criterion
            if number:
                return f"F({number})"
            return "**"

        def sumif(values, criterion, summed):
            test = {">0": lambda v: v > 0, "=0": lambda v: v == 0, "<0": lambda v: v < 0}
            return sum((s for v, s in zip(values, summed, strict=True) if test[criterion](v)),
                       Fraction(0))

        python = _TOKEN.sub(token, text[1:])
        names = {"S": sheet, "V": self.cell, "range": range, "str": str, "F": Fraction,
                 "SUMIF": sumif, "SUM": lambda values: sum(values, Fraction(0)),
                 "SUMPRODUCT": lambda *columns: sum(
                     (math.prod(v) for v in zip(*columns, strict=True)), Fraction(0)),
                 "SQRT": lambda value: math.sqrt(value)}
        return eval(python, {"__builtins__": {}, **names})  # the test's own formulas only


def test_cli_workbook_holds_exact_counts_live_formulas_and_stored_values(written):
    path, analysis = written
    formulas, stored = _books(path)
    tables = analysis_tables(analysis)
    names = sheet_names(tables)
    assert formulas.sheetnames == ["Summary", *names]
    evaluator = Evaluator(formulas)
    for name, table in zip(names, tables, strict=True):
        sheet, values = formulas[name], stored[name]
        rows = {sheet.cell(row, 1).value: row for row in range(1, sheet.max_row + 1)}
        first = rows["Event"] + 1
        for index, outcome in enumerate(table.outcomes):
            row = first + index
            assert sheet[f"A{row}"].value == outcome.event
            assert sheet[f"C{row}"].value == outcome.combinations  # a number, every digit
            assert sheet[f"F{row}"].value == str(outcome.combinations)  # and the exact text
            assert sheet[f"D{row}"].value == f"=C{row}/C${rows['Total']}"
            assert sheet[f"E{row}"].value == f"=B{row}*D{row}"
            # evaluated exactly, the formulas give the library's fractions ...
            assert evaluator.cell(name, f"D{row}") == outcome.probability
            assert evaluator.cell(name, f"E{row}") == outcome.expected_return
            # ... and the values stored for viewers that do not recalculate are theirs
            assert values[f"D{row}"].value == pytest.approx(float(outcome.probability),
                                                            rel=1e-15, abs=1e-300)
        total = rows["Total"]
        assert sheet[f"C{total}"].value.startswith("=SUM(")
        assert evaluator.cell(name, f"C{total}") == table.total
        assert values[f"C{total}"].value == table.total
        for statistic, exact in (("House edge", table.house_edge),
                                 ("Return to player", table.return_to_player),
                                 ("Hit frequency", table.hit_frequency),
                                 ("Variance", table.variance)):
            assert sheet[f"B{rows[statistic]}"].value.startswith("=")
            assert evaluator.cell(name, f"B{rows[statistic]}") == exact, (name, statistic)
            assert values[f"B{rows[statistic]}"].value == pytest.approx(float(exact), rel=1e-12)
            assert sheet[f"C{rows[statistic]}"].value == str(exact)
        assert values[f"B{rows['Standard deviation']}"].value == pytest.approx(
            table.standard_deviation, rel=1e-12)


def test_summary_refers_to_the_wager_sheets(written):
    path, analysis = written
    formulas, stored = _books(path)
    summary, values = formulas["Summary"], stored["Summary"]
    tables = analysis_tables(analysis)
    header = next(row for row in range(1, 20) if summary.cell(row, 1).value == "Bet")
    evaluator = Evaluator(formulas)
    for index, table in enumerate(tables):
        row = header + 1 + index
        assert (summary.cell(row, 2).value, summary.cell(row, 3).value) == (table.bet_id,
                                                                           table.paytable)
        assert summary.cell(row, 4).value.startswith("='")
        assert evaluator.formula("Summary", summary.cell(row, 4).value) == table.house_edge
        assert values.cell(row, 4).value == pytest.approx(float(table.house_edge), rel=1e-12)
        assert values.cell(row, 7).value == pytest.approx(table.standard_deviation, rel=1e-12)
        top = table.top_award()
        assert summary.cell(row, 8).value == top.event
        assert evaluator.formula("Summary", summary.cell(row, 10).value) == 1 / top.probability
        assert summary.cell(row, 11).value == str(table.house_edge)


def test_changing_a_pay_in_the_sheet_moves_the_edge(written):
    """Banker paid 24/25 instead of 19/20 is the library's 4% commission paytable."""
    path, analysis = written
    formulas, _ = _books(path)
    name = sheet_names(analysis_tables(analysis))[0]
    assert name == "banker commission-5%"
    sheet = formulas[name]
    assert sheet["B7"].value == "=19/20"
    rows = {sheet.cell(row, 1).value: row for row in range(1, sheet.max_row + 1)}
    changed = Evaluator(formulas, {(name, "B7"): Fraction(24, 25)})
    assert changed.cell(name, f"B{rows['House edge']}") == \
        analysis.bets["banker"].table("commission-4%").house_edge


def test_same_inputs_give_the_same_bytes(written, tmp_path, monkeypatch):
    path, analysis = written
    assert analysis_workbook(analysis) == path.read_bytes()
    again = tmp_path / "again.xlsx"
    assert main(["analyze", "punto-banco", "--bet", "banker", "--xlsx", str(again)]) == 0
    first = again.read_bytes()
    assert main(["analyze", "punto-banco", "--bet", "banker", "--xlsx", str(again)]) == 0
    assert again.read_bytes() == first
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    assert analysis_workbook(analysis) != path.read_bytes()  # the date is the only input


def test_without_xlsxwriter_a_typed_error_and_exit_status_2(monkeypatch, tmp_path, capsys,
                                                            written):
    _path, analysis = written
    monkeypatch.setitem(sys.modules, "xlsxwriter", None)
    with pytest.raises(SpreadsheetError, match="sheets"):
        analysis_workbook(analysis)
    target = tmp_path / "par.xlsx"
    assert main(["analyze", "punto-banco", "--bet", "tie", "--xlsx", str(target)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip install" in error
    assert not target.exists() and not list(tmp_path.iterdir())


def test_century21_writes_its_strategy_table(tmp_path):
    target = tmp_path / "c21.xlsx"
    assert main(["analyze", "century21", "--xlsx", str(target)]) == 0
    formulas, stored = _books(target)
    assert formulas.sheetnames == ["Summary", "player house"]
    # the house's edge is the opposite of the player's under House Way (the README's figure)
    house_edge = -Fraction(CENTURY21.value("value_exact", strategy="house"))
    assert stored["Summary"]["D7"].value == pytest.approx(float(house_edge), rel=1e-12)
    assert stored["Summary"]["K7"].value == str(house_edge)
