"""Excel par sheets: a summary sheet and one sheet per wager and paytable, with live formulas.

Layer: render, above the analyses; the reports and the command line print with it.

Each wager sheet is laid out as Event | Pays | Combinations | Probability | Return, then the
submitted figures as exact text (pays, counts, probabilities and returns as the library computed
them: an integer of more than 15 digits does not survive as a spreadsheet number, so nothing is
left to a silently rounded cell) and a check column. Probability, return, the totals and every
statistic below the table are *formulas* over the counts and the pays, so that a lab can change a
pay and see the edge follow; each formula carries its value as computed exactly by the library
(rounded to a float only at the end), so a viewer that does not recalculate shows the right
numbers. The pays are the sheet's inputs: styled as such (a legend on every sheet says so) and
defined as workbook names ``pay_<bet>_<paytable>_<event>``. A check cell compares each live value
with its submitted exact figure and shows ``CHANGED`` (and the stale exact cells turn red) once
an edit moves it, so that an edited sheet never passes off the shipped figures as its own. The
summary's figures are formulas too, referring to the wager sheets, and its check column says
which sheets were edited.

Every sheet prints on A4 landscape, one page wide, its column headings repeated on each page;
columns are as wide as their longest text (up to
:data:`exact.render.sheet_writer.WIDTH_CAP`; longer text wraps); the cells are written through
:mod:`exact.render.sheet_writer`.

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
>>> pay_names([coin, coin])
[['pay_coin_even_heads', 'pay_coin_even_tails'], ['pay_coin_even_heads_2', 'pay_coin_even_tails_2']]
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
from exact.render.sheet_writer import CHANGED, HEADER_ROW, Sheet, Styles

# The creation date written when SOURCE_DATE_EPOCH is unset: constant, so same inputs give
# the same bytes.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
LEGEND_ROW = HEADER_ROW - 1
SUBMITTED = "submitted figure (exact)"
CHECK = "Live vs submitted"
COLUMNS = ("Event", "Pays", "Combinations", "Probability", "Return",
           f"Pays, {SUBMITTED}", f"Combinations, {SUBMITTED}", f"Probability, {SUBMITTED}",
           f"Return, {SUBMITTED}", CHECK)
CHECK_COLUMN = "J"
# the statistics below a wager's table: their exact figures span the table's columns C to I,
# their checks share its column J
STATISTICS_COLUMNS = ("Statistic", "Live value", SUBMITTED.capitalize(), *[""] * 6, CHECK)
SUMMARY_COLUMNS = ("Bet", "Bet id", "Paytable", "House edge", "Return to player",
                   "Hit frequency", "Standard deviation", "Top award", "Top award pays",
                   "Top award odds (1 in)", f"House edge, {SUBMITTED}", CHECK, "Sheet")
LEGEND = ("Input", "cells like this hold the pays (workbook names pay_<bet>_<paytable>_<event>): "
          "change one and every formula follows. The (exact) columns keep the figures as "
          f"submitted; {CHANGED} marks a live value that no longer matches them.")
# A live value "matches" its exact figure within this relative tolerance (absolute below 1):
# the spreadsheet's own double-precision sums are off by ~1e-15, and so is a literal of more
# than 15 digits in a formula, which Excel reads to 15; an edited pay is off by far more.
TOLERANCE = "1E-12"
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

    def checks(self) -> str:
        """The range of the sheet's check cells, the table's and its statistics'."""
        return self.reference(f"${CHECK_COLUMN}${self.first}:"
                              f"${CHECK_COLUMN}${self.statistic_row(STATISTICS[-1])}")


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


def pay_names(tables: Sequence[BetTable]) -> list[list[str]]:
    """A workbook name per pay cell, ``pay_<bet>_<paytable>_<event>``: ASCII letters, digits
    and underscores (valid in every spreadsheet, never a cell reference, since it holds an
    underscore), at most 255 characters, unique ignoring case as Excel compares names."""
    def part(text: str) -> str:
        return re.sub(r"[^a-z0-9]+", "_", text.lower())[:60].strip("_") or "x"

    taken: set[str] = set()
    names = []
    for table in tables:
        row = []
        for outcome in table.outcomes:
            base = f"pay_{part(table.bet_id)}_{part(table.paytable)}_{part(outcome.event)}"
            name, number = base, 1
            while name in taken:
                number += 1
                name = f"{base}_{number}"
            taken.add(name)
            row.append(name)
        names.append(row)
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


def _exact_value(value: Fraction | int) -> str:
    """``value`` as a formula term: ``n/d``, or an integer; a fraction whose terms a double
    cannot hold (over 300 digits) as the nearest double, which is all a spreadsheet computes."""
    value = Fraction(value)
    if max(len(str(abs(value.numerator))), len(str(value.denominator))) > 300:
        return repr(float(value))
    return str(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def differs(live: str, exact: str) -> str:
    """The formula test "the live cell no longer equals the exact figure": relative for large
    figures (counts of 16 digits and more), absolute near zero.

    >>> differs("B7", "19/20")
    'ABS(B7-(19/20))>1E-12*MAX(1,ABS(19/20))'
    """
    term = exact if re.fullmatch(r"\d+|[A-Z]+\(.*\)", exact) else f"({exact})"
    return f"ABS({live}-{term})>{TOLERANCE}*MAX(1,ABS({exact}))"


def _check(tests: Sequence[str]) -> str:
    test = tests[0] if len(tests) == 1 else f"OR({','.join(tests)})"
    return f'=IF({test},"{CHANGED}","")'


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
    styles = Styles(book)
    names = sheet_names(tables)
    pays = pay_names(tables)
    summary = Sheet(book.add_worksheet("Summary"), styles, len(SUMMARY_COLUMNS))
    layouts = []
    for name, table, table_pays in zip(names, tables, pays, strict=True):
        sheet = Sheet(book.add_worksheet(name), styles, len(COLUMNS))
        layouts.append(_wager_sheet(sheet, name, table, title, lines))
        for row, pay in enumerate(table_pays, start=layouts[-1].first):
            book.define_name(pay, f"={layouts[-1].reference(f'$B${row}')}")
        sheet.finish(title)
    _summary_sheet(summary, tables, layouts, pays, title, lines)
    summary.finish(title)
    book.close()
    return buffer.getvalue()


def _heading(sheet: Sheet, title: str, lines: Sequence[str]) -> None:
    sheet.span(0, 0, title, "title")
    for row, line in enumerate(lines[:HEADER_ROW - 2], start=1):
        sheet.span(row, 0, line)
    sheet.text(LEGEND_ROW, 0, LEGEND[0], "input")
    sheet.span(LEGEND_ROW, 1, LEGEND[1])


def _flag_changes(sheet: Sheet, checks: str, stale: str, first_check: str) -> None:
    """Conditional formats: a check cell that says CHANGED stands out, and so do the exact
    figures of its row that no longer hold (``first_check``: the check of the range's first
    row, column absolute)."""
    sheet.worksheet.conditional_format(checks, {
        "type": "cell", "criteria": "==", "value": f'"{CHANGED}"',
        "format": sheet.styles("changed")})
    sheet.worksheet.conditional_format(stale, {
        "type": "formula", "criteria": f'={first_check}="{CHANGED}"',
        "format": sheet.styles("stale")})


def _wager_sheet(sheet: Sheet, name: str, table: BetTable, title: str,
                 lines: Sequence[str]) -> Layout:
    _heading(sheet, f"{table.name} [{table.bet_id}], paytable {table.paytable}",
             [title, *lines])
    sheet.heading(HEADER_ROW, COLUMNS)
    first = HEADER_ROW + 2  # 1-based row of the first event
    last = first + len(table.outcomes) - 1
    total = last + 1
    counts, pays, probabilities, returns = (f"{c}{first}:{c}{last}" for c in "CBDE")
    for index, outcome in enumerate(table.outcomes):
        row = first - 1 + index  # 0-based
        excel_row = row + 1
        sheet.text(row, 0, outcome.event)
        sheet.number(row, 1, outcome.pays, "pays")
        sheet.number(row, 2, outcome.combinations, "count")
        sheet.formula(row, 3, f"=C{excel_row}/C${total}", "probability",
                      float(outcome.probability))
        sheet.formula(row, 4, f"=B{excel_row}*D{excel_row}", "return",
                      float(outcome.expected_return))
        figures = (outcome.pays, outcome.combinations, outcome.probability,
                   outcome.expected_return)
        for column, figure in enumerate(figures, start=5):
            sheet.text(row, column, _exact_text(figure), "exact")
        sheet.formula(row, 9, _check([differs(f"{live}{excel_row}", _exact_value(figure))
                                      for live, figure in zip("BCDE", figures, strict=True)]),
                      "check", "")
    sheet.text(total - 1, 0, "Total", "total_text")
    sheet.blank(total - 1, 1, "total_text")
    sheet.formula(total - 1, 2, f"=SUM({counts})", "total_count", table.total)
    sheet.formula(total - 1, 3, f"=SUM({probabilities})", "total_probability", 1.0)
    sheet.formula(total - 1, 4, f"=SUM({returns})", "total_return", float(table.expected_value))
    sheet.blank(total - 1, 5, "total_text")
    totals: tuple[Fraction | int, ...] = (table.total, Fraction(1), table.expected_value)
    for column, figure in enumerate(totals, start=6):
        sheet.text(total - 1, column, _exact_text(figure), "total_exact")
    sheet.formula(total - 1, 9, _check([differs(f"{live}{total}", _exact_value(figure))
                                        for live, figure in zip("CDE", totals, strict=True)]),
                  "total_check", "")
    _flag_changes(sheet, f"J{first}:J{total}", f"F{first}:I{total}", f"$J{first}")

    layout = Layout(name, first, last)
    sheet.heading(total, STATISTICS_COLUMNS)
    top = table.top_award()
    variance = f"B{layout.statistic_row('Variance')}"
    statistics: dict[str, tuple[str, float, str, str, str]] = {
        "House edge": (f"=-E{total}", float(table.house_edge), "percent",
                       _exact_text(table.house_edge), _exact_value(table.house_edge)),
        "Return to player": (f"=1+E{total}", float(table.return_to_player), "percent",
                             _exact_text(table.return_to_player),
                             _exact_value(table.return_to_player)),
        "Hit frequency": (f'=SUMIF({pays},">0",{probabilities})', float(table.hit_frequency),
                          "percent", _exact_text(table.hit_frequency),
                          _exact_value(table.hit_frequency)),
        "Push frequency": (f'=SUMIF({pays},"=0",{probabilities})',
                           float(table.push_frequency), "percent",
                           _exact_text(table.push_frequency), _exact_value(table.push_frequency)),
        "Loss frequency": (f'=SUMIF({pays},"<0",{probabilities})',
                           float(table.loss_frequency), "percent",
                           _exact_text(table.loss_frequency), _exact_value(table.loss_frequency)),
        "Variance": (f"=SUMPRODUCT({pays},{pays},{probabilities})-E{total}^2",
                     float(table.variance), "number", _exact_text(table.variance),
                     _exact_value(table.variance)),
        "Standard deviation": (f"=SQRT({variance})", table.standard_deviation, "number",
                               table.standard_deviation_exact,
                               f"SQRT({_exact_value(table.variance)})"),
    }
    if top is not None:
        top_row = first + table.outcomes.index(top)
        odds = 1 / top.probability
        statistics["Top award odds (1 in)"] = (
            f"=1/D{top_row}", float(odds), "odds", f"{top.event}: 1 in {_exact_text(odds)}",
            _exact_value(odds))
    for statistic in STATISTICS:
        row = layout.statistic_row(statistic) - 1
        sheet.text(row, 0, statistic, "bold")
        if statistic in statistics:
            formula, value, style, text, exact = statistics[statistic]
            sheet.formula(row, 1, formula, style, value)
            sheet.span(row, 2, text, "exact", last=8)
            sheet.formula(row, 9, _check([differs(f"B{row + 1}", exact)]), "check", "")
    rows = (layout.statistic_row(STATISTICS[0]), layout.statistic_row(STATISTICS[-1]))
    _flag_changes(sheet, f"J{rows[0]}:J{rows[1]}", f"C{rows[0]}:C{rows[1]}", f"$J{rows[0]}")
    return layout


def _summary_sheet(sheet: Sheet, tables: Sequence[BetTable], layouts: Sequence[Layout],
                   pays: Sequence[Sequence[str]], title: str, lines: Sequence[str]) -> None:
    _heading(sheet, f"{title}: par sheet", lines)
    sheet.heading(HEADER_ROW, SUMMARY_COLUMNS)
    first = HEADER_ROW + 2
    for index, (table, layout, names) in enumerate(zip(tables, layouts, pays, strict=True)):
        row = HEADER_ROW + 1 + index
        sheet.text(row, 0, table.name)
        sheet.text(row, 1, table.bet_id)
        sheet.text(row, 2, table.paytable)
        for column, (statistic, value, style) in enumerate((
                ("House edge", float(table.house_edge), "percent"),
                ("Return to player", float(table.return_to_player), "percent"),
                ("Hit frequency", float(table.hit_frequency), "percent"),
                ("Standard deviation", table.standard_deviation, "number")), start=3):
            cell = layout.reference(f"$B${layout.statistic_row(statistic)}")
            sheet.formula(row, column, f"={cell}", style, value)
        top = table.top_award()
        if top is not None:
            sheet.text(row, 7, top.event, "exact")
            sheet.formula(row, 8, f"={names[table.outcomes.index(top)]}", "pays_number",
                          float(top.pays))
            odds = layout.reference(f"$B${layout.statistic_row('Top award odds (1 in)')}")
            sheet.formula(row, 9, f"={odds}", "odds", float(1 / top.probability))
        sheet.text(row, 10, _exact_text(table.house_edge), "exact")
        sheet.formula(row, 11, _check([differs(f"D{row + 1}", _exact_value(table.house_edge)),
                                       f'COUNTIF({layout.checks()},"{CHANGED}")>0']),
                      "check", "")
        sheet.link(row, 12, layout.reference("A1"), layout.sheet)
    last = HEADER_ROW + len(tables)
    if tables:
        _flag_changes(sheet, f"L{first}:L{last + 1}", f"K{first}:K{last + 1}", f"$L{first}")


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
    return [shoe.headline(), f"Counting unit: {counting_unit}",
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
