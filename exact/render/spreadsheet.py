"""Excel par sheets: a summary sheet and one sheet per wager and paytable, with live formulas.

Layer: render, above the analyses; the reports and the command line print with it.

Each wager sheet is laid out as Event | Pays | Combinations | Probability | Return, with the
exact counts, probabilities and returns as text beside them (an integer of more than 15 digits
does not survive as a spreadsheet number, so nothing is left to a silently rounded cell).
Probability, return, the totals and every statistic below the table are *formulas* over the
counts and the pays, so that a lab can change a pay and see the edge follow; each formula
carries its value as computed exactly by the library (rounded to a float only at the end), so
a viewer that does not recalculate shows the right numbers. The summary's figures are formulas
too, referring to the wager sheets.

Writing needs XlsxWriter (the ``sheets`` extra). The bytes depend only on the inputs: the
workbook's creation date is ``SOURCE_DATE_EPOCH`` (or a fixed date), and XlsxWriter dates the
members of the zip archive with a constant.

>>> from fractions import Fraction
>>> from exact.analysis.statistics import BetTable
>>> coin = BetTable.from_counts("coin", "Coin", "even", [("Heads", Fraction(1), 1),
...                             ("Tails", Fraction(-1), 1)], total=2)
>>> workbook_bytes("Coin", ["a fair coin"], [coin])[:2]
b'PK'
>>> sheet_names([coin, coin])
['coin even', 'coin even (2)']
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

from exact.analysis.statistics import BetTable
from exact.core.files import OutputError, target_of, write_file
from exact.core.parsing import source_date_epoch
from exact.errors import SpreadsheetError as SpreadsheetError
from exact.render.output import SIGN_CONVENTION

# The creation date written when SOURCE_DATE_EPOCH is unset: constant, so same inputs give
# the same bytes.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
HEADER_ROW = 5  # 0-based row of the column headings of a wager sheet
COLUMNS = ("Event", "Pays", "Combinations", "Probability", "Return",
           "Combinations (exact)", "Probability (exact)", "Return (exact)")
SUMMARY_COLUMNS = ("Bet", "Bet id", "Paytable", "House edge", "Return to player",
                   "Hit frequency", "Standard deviation", "Top award", "Top award pays",
                   "Top award odds (1 in)", "House edge (exact, as shipped)", "Sheet")


@dataclass(frozen=True)
class Layout:
    """Where a wager sheet's cells are (A1 references), for the summary's formulas."""

    sheet: str
    first: int  # 1-based rows of the first and last event
    last: int

    @property
    def total_row(self) -> int:
        return self.last + 1

    def statistic_row(self, name: str) -> int:
        return self.total_row + 2 + STATISTICS.index(name)

    def reference(self, cell: str) -> str:
        return f"'{self.sheet.replace(chr(39), chr(39) * 2)}'!{cell}"


STATISTICS = ("House edge", "Return to player", "Hit frequency", "Push frequency",
              "Loss frequency", "Variance", "Standard deviation", "Top award odds (1 in)")


def sheet_names(tables: Sequence[BetTable]) -> list[str]:
    """A valid, unique sheet name per table: ``"<bet id> <paytable>"``, at most 31
    characters, without the characters Excel refuses."""
    names: list[str] = []
    taken = {"summary"}
    for table in tables:
        base = re.sub(r"[\[\]:*?/\\']", "-", f"{table.bet_id} {table.paytable}").strip()[:31]
        name, number = base, 1
        while name.lower() in taken:
            number += 1
            suffix = f" ({number})"
            name = base[:31 - len(suffix)] + suffix
        taken.add(name.lower())
        names.append(name)
    return names


def _creation_date() -> datetime:
    epoch = source_date_epoch(SpreadsheetError)
    return FIXED_DATE if epoch is None else datetime.fromtimestamp(epoch, UTC)


def _xlsxwriter():
    try:
        import xlsxwriter
    except ImportError:
        raise SpreadsheetError("writing .xlsx needs XlsxWriter: pip install 'exact[sheets]'"
                               ) from None
    return xlsxwriter


def _exact_text(value: Fraction | int) -> str:
    return str(value)


def workbook_bytes(title: str, lines: Sequence[str], tables: Sequence[BetTable],
                   created: datetime | None = None) -> bytes:
    """The workbook of ``tables`` (summary first) as .xlsx bytes; ``lines`` describe the game,
    shoe and counting unit at the top of every sheet."""
    xlsxwriter = _xlsxwriter()
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True, "strings_to_numbers": False,
                                        "strings_to_formulas": False, "strings_to_urls": False})
    book.set_properties({"title": f"{title}: par sheet", "author": "exact",
                         "comments": "Exact counts; formulas for every derived figure",
                         "created": (created or _creation_date()).replace(tzinfo=None)})
    formats = {
        "title": book.add_format({"bold": True, "font_size": 13}),
        "head": book.add_format({"bold": True, "bottom": 1, "text_wrap": True}),
        "count": book.add_format({"num_format": "#,##0"}),
        "pays": book.add_format({"num_format": "0.######"}),
        "probability": book.add_format({"num_format": "0.000000000000"}),
        "return": book.add_format({"num_format": "+0.000000000000;-0.000000000000;0"}),
        "percent": book.add_format({"num_format": "0.0000%"}),
        "number": book.add_format({"num_format": "0.000000"}),
        "odds": book.add_format({"num_format": "#,##0.0"}),
        "bold": book.add_format({"bold": True}),
        "total_count": book.add_format({"num_format": "#,##0", "bold": True, "top": 1}),
        "total_probability": book.add_format({"num_format": "0.000000000000", "bold": True,
                                              "top": 1}),
        "total_return": book.add_format({"num_format": "+0.000000000000;-0.000000000000;0",
                                         "bold": True, "top": 1}),
        "total_text": book.add_format({"bold": True, "top": 1}),
    }
    names = sheet_names(tables)
    summary = book.add_worksheet("Summary")
    layouts = [_wager_sheet(book.add_worksheet(name), name, table, title, lines, formats)
               for name, table in zip(names, tables, strict=True)]
    _summary_sheet(summary, tables, layouts, title, lines, formats)
    book.close()
    return buffer.getvalue()


def _heading(sheet, title: str, lines: Sequence[str], formats) -> None:
    sheet.write_string(0, 0, title, formats["title"])
    for row, line in enumerate(lines[:HEADER_ROW - 2], start=1):
        sheet.write_string(row, 0, line)


def _number(sheet, row: int, column: int, value: Fraction | int, style) -> None:
    """A number cell: an integer as itself, a fraction as the formula ``=n/d``."""
    value = Fraction(value)
    if value.denominator == 1:
        sheet.write_number(row, column, int(value), style)
    else:
        sheet.write_formula(row, column, f"={value.numerator}/{value.denominator}", style,
                            float(value))


def _wager_sheet(sheet, name: str, table: BetTable, title: str, lines: Sequence[str],
                 formats) -> Layout:
    _heading(sheet, f"{table.name} [{table.bet_id}], paytable {table.paytable}",
             [title, *lines], formats)
    sheet.write_row(HEADER_ROW, 0, COLUMNS, formats["head"])
    first = HEADER_ROW + 2  # 1-based row of the first event
    last = first + len(table.outcomes) - 1
    total = last + 1
    counts, pays, probabilities, returns = (f"{c}{first}:{c}{last}" for c in "CBDE")
    for index, outcome in enumerate(table.outcomes):
        row = first - 1 + index  # 0-based
        excel_row = row + 1
        sheet.write_string(row, 0, outcome.event)
        _number(sheet, row, 1, outcome.pays, formats["pays"])
        _number(sheet, row, 2, outcome.combinations, formats["count"])
        sheet.write_formula(row, 3, f"=C{excel_row}/C${total}", formats["probability"],
                            float(outcome.probability))
        sheet.write_formula(row, 4, f"=B{excel_row}*D{excel_row}", formats["return"],
                            float(outcome.expected_return))
        sheet.write_string(row, 5, _exact_text(outcome.combinations))
        sheet.write_string(row, 6, _exact_text(outcome.probability))
        sheet.write_string(row, 7, _exact_text(outcome.expected_return))
    sheet.write_string(total - 1, 0, "Total", formats["total_text"])
    sheet.write_blank(total - 1, 1, None, formats["total_text"])
    sheet.write_formula(total - 1, 2, f"=SUM({counts})", formats["total_count"], table.total)
    sheet.write_formula(total - 1, 3, f"=SUM({probabilities})", formats["total_probability"],
                        1.0)
    sheet.write_formula(total - 1, 4, f"=SUM({returns})", formats["total_return"],
                        float(table.expected_value))
    sheet.write_string(total - 1, 5, _exact_text(table.total), formats["total_text"])
    sheet.write_string(total - 1, 6, "1", formats["total_text"])
    sheet.write_string(total - 1, 7, _exact_text(table.expected_value), formats["total_text"])

    layout = Layout(name, first, last)
    top = table.top_award()
    top_row = None if top is None else first + table.outcomes.index(top)
    statistics = {
        "House edge": (f"=-E{total}", table.house_edge, "percent"),
        "Return to player": (f"=1+E{total}", table.return_to_player, "percent"),
        "Hit frequency": (f'=SUMIF({pays},">0",{probabilities})', table.hit_frequency,
                          "percent"),
        "Push frequency": (f'=SUMIF({pays},"=0",{probabilities})', table.push_frequency,
                           "percent"),
        "Loss frequency": (f'=SUMIF({pays},"<0",{probabilities})', table.loss_frequency,
                           "percent"),
        "Variance": (f"=SUMPRODUCT({pays},{pays},{probabilities})-E{total}^2", table.variance,
                     "number"),
    }
    for statistic, (formula, value, style) in statistics.items():
        row = layout.statistic_row(statistic) - 1
        sheet.write_string(row, 0, statistic, formats["bold"])
        sheet.write_formula(row, 1, formula, formats[style], float(value))
        sheet.write_string(row, 2, _exact_text(value))
    row = layout.statistic_row("Standard deviation") - 1
    sheet.write_string(row, 0, "Standard deviation", formats["bold"])
    sheet.write_formula(row, 1, f"=SQRT(B{layout.statistic_row('Variance')})", formats["number"],
                        table.standard_deviation)
    sheet.write_string(row, 2, table.standard_deviation_exact)
    row = layout.statistic_row("Top award odds (1 in)") - 1
    sheet.write_string(row, 0, "Top award odds (1 in)", formats["bold"])
    if top is not None:
        sheet.write_formula(row, 1, f"=1/D{top_row}", formats["odds"],
                            float(1 / top.probability))
        sheet.write_string(row, 2, f"{top.event}: 1 in {_exact_text(1 / top.probability)}")
    sheet.set_column(0, 0, max(14, min(48, max(len(o.event) for o in table.outcomes) + 2)))
    sheet.set_column(1, 1, 12)
    sheet.set_column(2, 2, 24)
    sheet.set_column(3, 4, 17)
    sheet.set_column(5, 7, 30)
    sheet.freeze_panes(HEADER_ROW + 1, 1)
    return layout


def _summary_sheet(sheet, tables: Sequence[BetTable], layouts: Sequence[Layout], title: str,
                   lines: Sequence[str], formats) -> None:
    _heading(sheet, f"{title}: par sheet", lines, formats)
    sheet.write_row(HEADER_ROW, 0, SUMMARY_COLUMNS, formats["head"])
    for index, (table, layout) in enumerate(zip(tables, layouts, strict=True)):
        row = HEADER_ROW + 1 + index
        sheet.write_string(row, 0, table.name)
        sheet.write_string(row, 1, table.bet_id)
        sheet.write_string(row, 2, table.paytable)
        for column, (statistic, value, style) in enumerate((
                ("House edge", float(table.house_edge), "percent"),
                ("Return to player", float(table.return_to_player), "percent"),
                ("Hit frequency", float(table.hit_frequency), "percent"),
                ("Standard deviation", table.standard_deviation, "number")), start=3):
            cell = layout.reference(f"$B${layout.statistic_row(statistic)}")
            sheet.write_formula(row, column, f"={cell}", formats[style], value)
        top = table.top_award()
        if top is not None:
            top_row = layout.first + table.outcomes.index(top)
            sheet.write_string(row, 7, top.event)
            sheet.write_formula(row, 8, f"={layout.reference(f'$B${top_row}')}",
                                formats["pays"], float(top.pays))
            odds = layout.reference(f"$B${layout.statistic_row('Top award odds (1 in)')}")
            sheet.write_formula(row, 9, f"={odds}", formats["odds"], float(1 / top.probability))
        sheet.write_string(row, 10, _exact_text(table.house_edge))
        sheet.write_url(row, 11, f"internal:{layout.reference('A1')}", string=layout.sheet)
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, 2, 16)
    sheet.set_column(3, 6, 14)
    sheet.set_column(7, 7, 30)
    sheet.set_column(8, 9, 14)
    sheet.set_column(10, 10, 34)
    sheet.set_column(11, 11, 24)
    sheet.freeze_panes(HEADER_ROW + 1, 1)


def analysis_tables(analysis) -> list[BetTable]:
    """Every bet's table under every paytable, the bet's own paytable first."""
    return analysis.all_tables()


def analysis_workbook(analysis, created: datetime | None = None) -> bytes:
    """The par sheet of a :class:`exact.analysis.bet_analysis.GameAnalysis`."""
    return workbook_bytes(analysis.game.name, heading_lines(analysis.shoe, analysis.counting_unit),
                          analysis_tables(analysis), created)


def heading_lines(shoe, counting_unit: str) -> list[str]:
    """The lines under a par sheet's title: the shoe, the counting unit and the sign convention
    (the Summary's key; a wager sheet has room for the first two)."""
    return [f"{shoe.describe()} ({shoe.size} cards)", f"Counting unit: {counting_unit}",
            f"Signs: {SIGN_CONVENTION}"]


REPORT_WORKBOOK = "par-sheet.xlsx"  # in a report's work folder; the build puts it beside the PDF


def report_workbook(out_dir: Path, title: str, lines: Sequence[str],
                    tables: Sequence[BetTable], epoch: int) -> None:
    """A report's par sheet, dated like the report (see :func:`exact.reports.build`)."""
    write_bytes(out_dir / REPORT_WORKBOOK,
                workbook_bytes(title, lines, tables, datetime.fromtimestamp(epoch, UTC)))


def write_bytes(path: Path, data: bytes, written_after: Sequence[str | None] = ()) -> None:
    """Write ``data`` to ``path`` as every file a user names is written
    (:func:`exact.core.files.write_file`: whole or not at all, a link followed, a device,
    directory or FIFO refused, never replaced, a replaced file's mode kept); raises
    :class:`SpreadsheetError`. ``written_after``: the files the run writes next (its ``-o``),
    checked first, so that a run refused for one of them leaves no workbook behind."""
    for other in written_after:
        if other is not None:
            target_of(other)
    try:
        write_file(path, data)
    except OutputError as error:
        raise SpreadsheetError(str(error)) from None
