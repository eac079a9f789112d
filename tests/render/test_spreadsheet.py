"""The Excel par sheets: read back with openpyxl, their formulas evaluated exactly here."""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze
from exact.analysis.statistics import BetTable
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.render.spreadsheet import (
    CHANGED,
    HEADER_ROW,
    SpreadsheetError,
    analysis_tables,
    analysis_workbook,
    pay_names,
    sheet_names,
)

from tests.support.optional import require_module, required_when_run
from tests.support.published import CENTURY21
from tests.support.workbook import is_input

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


_TOKEN = re.compile(r"'((?:[^']|'')+)'!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?"  # another
                    # sheet's cell or range
                    r"|\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)"  # a range
                    r"|\$?([A-Z]{1,2})\$?(\d+)(?![\d(])"  # a cell
                    r'|("[^"]*")'  # text, a criterion
                    r"|(\d+(?:\.\d+)?(?:E[-+]?\d+)?)"  # a number
                    r"|\b(pay_\w+)"  # a defined name
                    r"|(\^)|(<>|<=|>=|=|<|>)")


class Evaluator:
    """Evaluates the formulas the par sheets use (+ - * / ^, comparisons, SUM, SUMIF, SUMPRODUCT,
    SQRT, ABS, MAX, IF, OR, COUNTIF, references across sheets, defined names) over exact
    fractions, reading the numbers the sheet holds; ``overrides``: cells given other values, as
    a user typing into them; ``number=float``: in double precision, as a spreadsheet does."""

    def __init__(self, book, overrides=None, number=Fraction):
        self.book, self.overrides, self.number = book, overrides or {}, number

    def cell(self, sheet: str, reference: str):
        if (sheet, reference) in self.overrides:
            return self.overrides[sheet, reference]
        value = self.book[sheet][reference].value
        if isinstance(value, str) and value.startswith("="):
            return self.formula(sheet, value)
        if value is None or isinstance(value, str):
            return value  # a blank or a heading inside a range COUNTIF counts over
        assert isinstance(value, int), (sheet, reference, value)  # counts and pays: exact
        return self.number(value)

    def cells(self, sheet: str, column: str, top: str, last: str, bottom: str):
        assert column == last, (column, last)
        return [self.cell(sheet, f"{column}{row}") for row in range(int(top), int(bottom) + 1)]

    def name(self, name: str):
        sheet, cell = next(iter(self.book.defined_names[name].destinations))
        return self.cell(sheet, cell.replace("$", ""))

    def formula(self, sheet: str, text: str):
        def token(match: re.Match) -> str:
            (other, column, row, other_last, other_bottom, first, top, last, bottom, cell,
             cell_row, text, number, name, power, comparison) = match.groups()
            if other:
                other = other.replace(chr(39) * 2, chr(39))
                if other_last:
                    return f"R({other!r}, {column!r}, {row}, {other_last!r}, {other_bottom})"
                return f"V({other!r}, {column + row!r})"
            if first:
                return f"R(S, {first!r}, {top}, {last!r}, {bottom})"
            if cell:
                return f"V(S, {cell + cell_row!r})"
            if text:
                return text
            if number:
                return f"F({number!r})"
            if name:
                return f"N({name!r})"
            if power:
                return "**"
            return {"=": "==", "<>": "!="}.get(comparison, comparison)

        def sumif(values, criterion, summed):
            test = {">0": lambda v: v > 0, "=0": lambda v: v == 0, "<0": lambda v: v < 0}
            return sum((s for v, s in zip(values, summed, strict=True) if test[criterion](v)),
                       Fraction(0))

        python = _TOKEN.sub(token, text[1:])
        names = {"S": sheet, "V": self.cell, "R": self.cells, "N": self.name, "F": self.number,
                 "SUMIF": sumif, "SUM": lambda values: sum(values, Fraction(0)),
                 "SUMPRODUCT": lambda *columns: sum(
                     (math.prod(v) for v in zip(*columns, strict=True)), Fraction(0)),
                 "SQRT": lambda value: math.sqrt(value), "ABS": abs, "MAX": max,
                 "IF": lambda test, yes, no: yes if test else no,
                 "OR": lambda *tests: any(tests),
                 "COUNTIF": lambda values, wanted: sum(value == wanted for value in values)}
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
            assert sheet[f"G{row}"].value == str(outcome.combinations)  # and the exact text
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
            assert evaluator.cell(name, f"J{rows[statistic]}") == ""  # no edit, no flag
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


def _rows(sheet) -> dict[str, int]:
    return {sheet.cell(row, 1).value: row for row in range(1, sheet.max_row + 1)}


def _checks(book) -> dict[tuple[str, str], str]:
    """Every check cell of the workbook (in a wager sheet's column J, the summary's L) and its
    formula."""
    return {(sheet.title, cell.coordinate): cell.value
            for sheet in book.worksheets
            for cell in sheet["L" if sheet.title == "Summary" else "J"][HEADER_ROW + 1:]
            if isinstance(cell.value, str) and cell.value.startswith("=IF(")}


def _flagged(checks, values) -> set[tuple[str, str]]:
    """The check cells whose value (in the ``data_only`` book ``values``) is not empty."""
    return {key for key in checks if values[key[0]][key[1]].value not in (None, "")}


def test_changing_a_pay_in_the_sheet_moves_the_edge_and_flags_the_submitted_figures(written):
    """Banker paid 24/25 instead of 19/20 is the library's 4% commission paytable; the check
    cells say which submitted exact figures no longer hold, the summary which sheet was edited."""
    path, analysis = written
    formulas, _ = _books(path)
    name = sheet_names(analysis_tables(analysis))[0]
    assert name == "banker commission-5%"
    sheet = formulas[name]
    assert sheet["B7"].value == "=19/20"
    rows = _rows(sheet)
    changed = Evaluator(formulas, {(name, "B7"): Fraction(24, 25)})
    assert changed.cell(name, f"B{rows['House edge']}") == \
        analysis.bets["banker"].table("commission-4%").house_edge
    checks = _checks(formulas)
    assert len(checks) > 10 * len(formulas.sheetnames)
    # exactly, and in double precision as a spreadsheet computes (no false alarm from rounding)
    for number in (Fraction, float):
        changed = Evaluator(formulas, {(name, "B7"): number(Fraction(24, 25))}, number)
        flagged = {key for key, formula in checks.items()
                   if changed.formula(key[0], formula) == CHANGED}
        assert flagged == {(name, f"J{rows[row]}") for row in (
            "Banker wins", "Total", "House edge", "Return to player", "Variance",
            "Standard deviation")} | {("Summary", "L7")}, number
        unchanged = Evaluator(formulas, number=number)
        assert all(unchanged.formula(key[0], formula) == "" for key, formula in checks.items())
    # the tiniest edit a lab could mean is seen too: a pay moved by a billionth
    nudged = Evaluator(formulas, {(name, "B8"): Fraction(1, 10**9)})
    assert nudged.cell(name, "J8") == CHANGED and nudged.cell(name, "J7") == ""


def test_pay_cells_are_named_inputs(written):
    path, analysis = written
    formulas, _ = _books(path)
    evaluator = Evaluator(formulas)
    names = {(sheet, cell.replace("$", "")): name for name, defined in
             formulas.defined_names.items() for sheet, cell in defined.destinations}
    tables = analysis_tables(analysis)
    assert len(names) == len(formulas.defined_names) == sum(len(t.outcomes) for t in tables)
    for sheet_name, table in zip(sheet_names(tables), tables, strict=True):
        sheet = formulas[sheet_name]
        first = _rows(sheet)["Event"] + 1
        for row, outcome in enumerate(table.outcomes, start=first):
            name = names[sheet_name, f"B{row}"]
            # a valid Excel name: letters, digits and underscores, not a cell reference
            assert re.fullmatch(r"pay_[a-z0-9_]+", name) and len(name) <= 255, name
            assert name.startswith(f"pay_{table.bet_id.replace('-', '_')}_")
            assert evaluator.name(name) == outcome.pays
            assert is_input(sheet[f"B{row}"])
        inputs = {cell.coordinate for line in sheet.iter_rows() for cell in line
                  if is_input(cell)}
        assert inputs == {"A5"} | {f"B{row}" for row in range(first, first + len(
            table.outcomes))}, sheet_name  # the legend and the pays, nothing else
        assert "pay_" in sheet["B5"].value and CHANGED in sheet["B5"].value
        rules = {(str(ranges.sqref), rule.type) for ranges in sheet.conditional_formatting
                 for rule in ranges.rules}
        total = first + len(table.outcomes)
        assert {(f"J{first}:J{total}", "cellIs"), (f"F{first}:I{total}", "expression")} <= rules
    summary = formulas["Summary"]
    top = tables[0].top_award()
    assert summary["I7"].value == f"={names[sheet_names(tables)[0], 'B7']}"
    assert evaluator.cell("Summary", "I7") == top.pays


def test_headings_name_the_submitted_figures(written):
    formulas, _ = _books(written[0])
    headings = [cell.value for cell in formulas.worksheets[1][HEADER_ROW + 1]]
    assert headings[5:] == [f"{what}, submitted figure (exact)" for what in (
        "Pays", "Combinations", "Probability", "Return")] + ["Live vs submitted"]
    assert formulas["Summary"]["K6"].value == "House edge, submitted figure (exact)"


def test_every_sheet_prints_one_page_wide_on_a4_landscape_with_its_headings_repeated(written):
    from openpyxl.utils import get_column_letter, quote_sheetname

    formulas, _ = _books(written[0])
    for sheet in formulas.worksheets:
        setup = sheet.page_setup
        assert (setup.orientation, setup.paperSize) == ("landscape", 9), sheet.title  # A4
        assert sheet.sheet_properties.pageSetUpPr.fitToPage
        # an absent fitToWidth is the schema's default, 1 (ECMA-376 18.3.1.64): XlsxWriter
        # writes only the attributes that differ from it
        assert (1 if setup.fitToWidth is None else setup.fitToWidth) == 1
        assert setup.fitToHeight == 0  # as many pages tall as it takes
        assert sheet.print_title_rows == f"${HEADER_ROW + 1}:${HEADER_ROW + 1}"
        assert sheet.cell(HEADER_ROW + 1, 1).value in ("Bet", "Event")
        # the print area is every cell written, no more
        last = f"${get_column_letter(sheet.max_column)}${sheet.max_row}"
        assert sheet.print_area == f"{quote_sheetname(sheet.title)}!$A$1:{last}"


# How each number format of the par sheets shows a value (the test's own, to measure widths).
_SHOWN = {"#,##0": lambda v: f"{v:,.0f}", "0.######": lambda v: f"{v:.6f}".rstrip("0."),
          "0.000000000000": lambda v: f"{v:.12f}",
          "+0.000000000000;-0.000000000000;0": lambda v: f"{v:+.12f}",
          "0.0000%": lambda v: f"{v * 100:.4f}%", "0.000000": lambda v: f"{v:.6f}",
          "#,##0.0": lambda v: f"{v:,.1f}", "General": str}


def test_every_label_and_number_fits_its_column(written):
    """Text is never cut ("Standard deviati"): each text fits the width of its column and of
    the empty cells it runs into, or wraps (at most three lines for a column heading); a number
    always fits its own column (a spreadsheet shows ##### otherwise). Widths are in digits of
    the default font: a character of text takes 0.9 of one on average (a space or an ``i``
    half, a capital more; bold a tenth more), a digit one, a separator or sign half of one,
    and a cell pads its content by about a digit."""
    formulas, stored = _books(written[0])
    for sheet in formulas.worksheets:
        values = stored[sheet.title]
        widths = {column: sheet.column_dimensions[column].width
                  for column in "ABCDEFGHIJKLM"[:sheet.max_column]}
        merged = {cell for cells in sheet.merged_cells.ranges for cell in (
            f"{column}{row}" for row in range(cells.min_row, cells.max_row + 1)
            for column in "ABCDEFGHIJKLM"[cells.min_col - 1:cells.max_col])}
        for line in sheet.iter_rows():
            for cell in line:
                shown = values[cell.coordinate].value
                if shown is None or cell.coordinate in merged:
                    continue
                wide = 1.1 if cell.font.b else 1.0
                if isinstance(shown, str):
                    wide *= 0.9
                    room = widths[cell.column_letter]
                    if cell.row == HEADER_ROW + 1 or cell.alignment.wrap_text:
                        assert max(len(word) for word in shown.split()) * wide <= room, (
                            sheet.title, cell.coordinate, shown)
                        continue
                    for right in line[cell.column:]:  # text runs into empty cells on its right
                        if values[right.coordinate].value not in (None, ""):
                            break
                        room += widths[right.column_letter]
                    assert len(shown) * wide <= room, (sheet.title, cell.coordinate, shown)
                else:
                    text = _SHOWN[cell.number_format](shown)
                    digits = sum(1 if c.isdigit() else 0.5 for c in text)
                    assert digits * wide + 1 <= widths[cell.column_letter], (
                        sheet.title, cell.coordinate, text)
        assert widths["A"] >= len("Standard deviation") * 1.1 or sheet.title == "Summary"


# --- LibreOffice, where it is installed: recalculation and printing as a lab would see them --
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
needs_soffice = pytest.mark.skipif(
    SOFFICE is None, reason="LibreOffice (soffice) is not installed: the formulas are evaluated "
    "by this file's Evaluator instead (test_changing_a_pay_..._flags_the_submitted_figures)")


def _convert(files: list[Path], to: str, out_dir: Path) -> list[Path]:
    """``files`` converted by LibreOffice headless (its own profile, so that it runs beside
    any other LibreOffice), as ``to`` files in ``out_dir``."""
    profile = out_dir / "profile"
    subprocess.run([SOFFICE, "--headless", "--norestore",
                    f"-env:UserInstallation={profile.as_uri()}", "--convert-to", to,
                    "--outdir", str(out_dir), *map(str, files)],
                   check=True, capture_output=True, timeout=600)
    converted = [out_dir / file.with_suffix(f".{to.split(':')[0]}").name for file in files]
    assert all(file.is_file() for file in converted), converted
    return converted


@needs_soffice
def test_libreoffice_recalculating_an_edited_pay_flags_the_submitted_figures(written, tmp_path):
    """openpyxl saves the workbook without the values stored beside its formulas, so that
    LibreOffice computes every one (in floating point, as a lab's spreadsheet does): untouched,
    no check fires; with the banker's pay edited, exactly the figures it moves are flagged."""
    openpyxl = require_module("openpyxl")
    path, analysis = written
    book = openpyxl.load_workbook(path)
    book.save(tmp_path / "shipped.xlsx")
    book["banker commission-5%"]["B7"] = "=24/25"
    book.save(tmp_path / "edited.xlsx")
    shipped, edited = (openpyxl.load_workbook(file, data_only=True) for file in _convert(
        [tmp_path / "shipped.xlsx", tmp_path / "edited.xlsx"], "xlsx", tmp_path / "out"))
    tables = analysis_tables(analysis)
    for book_values in (shipped, edited):
        assert book_values["Summary"]["D8"].value == pytest.approx(
            float(tables[1].house_edge), rel=1e-12)  # computed, not left blank
    checks = _checks(book)
    assert _flagged(checks, shipped) == set()
    rows = _rows(shipped["banker commission-5%"])
    assert _flagged(checks, edited) == {
        ("banker commission-5%", f"J{rows[row]}") for row in (
            "Banker wins", "Total", "House edge", "Return to player", "Variance",
            "Standard deviation")} | {("Summary", "L7")}
    assert {edited[sheet][cell].value for sheet, cell in _flagged(checks, edited)} == {CHANGED}
    assert edited["Summary"]["D7"].value == pytest.approx(
        float(analysis.bets["banker"].table("commission-4%").house_edge), rel=1e-12)


@needs_soffice
def test_libreoffice_prints_a_page_per_sheet(written, tmp_path):
    """Printed, the par sheet was 131 pages, the summary split by columns; now each sheet of
    this workbook is one A4 landscape page, and its labels are whole."""
    openpyxl = require_module("openpyxl")
    path, _ = written
    (pdf,) = _convert([path], "pdf", tmp_path)
    data = pdf.read_bytes()
    pages = re.findall(rb"/Type\s*/Page\b(?!s).*?/MediaBox\s*\[([^\]]*)\]", data, re.S)
    sheets = openpyxl.load_workbook(path).sheetnames
    assert len(pages) == len(sheets)
    for box in pages:
        width, height = (float(v) for v in box.split()[2:])
        assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                              capture_output=True, text=True).stdout
        page_texts = text.split("\f")[:len(sheets)]
        book = openpyxl.load_workbook(path)
        for sheet, page in zip(sheets, page_texts, strict=True):
            assert page.lstrip().startswith(sheet)  # the page header names the sheet
            labels = [cell.value for (cell,) in book[sheet].iter_rows(
                min_row=HEADER_ROW + 2, max_col=1) if cell.value]
            assert "Standard deviation" in labels or sheet == "Summary"
            for label in labels:  # every event, statistic and bet name, whole
                assert label in page, (sheet, label)


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


_TEXT = st.text(min_size=1, max_size=80)


@given(st.lists(st.tuples(_TEXT, _TEXT, st.lists(_TEXT, min_size=1, max_size=4)),
                min_size=1, max_size=4))
def test_pay_names_are_valid_excel_names_whatever_the_bet_files_say(bets):
    """Bet ids, paytables and events come from user files: every pay still gets a name Excel
    takes (letters, digits and underscores, at most 255 characters, not a cell reference),
    unique as Excel compares names (ignoring case), and XlsxWriter defines each."""
    xlsxwriter = require_module("xlsxwriter")
    tables = [BetTable.from_counts(bet_id, "Bet", paytable,
                                   [(event, Fraction(index), 1) for index, event in
                                    enumerate(events)], total=len(events))
              for bet_id, paytable, events in bets]
    names = [name for row in pay_names(tables) for name in row]
    assert len(names) == sum(len(events) for _, _, events in bets)
    assert len({name.lower() for name in names}) == len(names)
    book = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
    book.add_worksheet("s")
    for name in names:
        assert re.fullmatch(r"pay_[a-z0-9_]+", name) and len(name) <= 255, name
        assert book.define_name(name, "=s!$B$7") == 0, name  # -1 (and a warning) if refused
