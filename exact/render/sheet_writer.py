"""Writing an xlsx worksheet: the workbook's named styles, how each number format shows a
value, column widths estimated from the text, wrapped rows, and the print setup.

Layer: render, above the analyses; the par sheets (:mod:`exact.render.spreadsheet`) write
their cells through it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from exact.render.numbers import fixed, grouped, percent, trimmed

HEADER_ROW = 5  # 0-based row of the column headings of a wager sheet
CHANGED = "CHANGED"  # what a check cell shows once an edit moves a live value
WIDTH_CAP = 50.0  # a column's width in characters at most; longer text wraps
HEADING_LINES = 3  # a column heading wraps to at most this many lines
LINE_HEIGHT = 15.0  # points per line of a wrapped row (Calibri 11)
MAX_ROW_HEIGHT = 409.0  # points, Excel's limit
INPUT = {"bg_color": "#FFF2CC", "font_color": "#0000FF", "border": 1, "border_color": "#BF9000"}
STYLES: dict[str, dict[str, Any]] = {
    "text": {},
    "title": {"bold": True, "font_size": 13},
    "head": {"bold": True, "bottom": 1, "text_wrap": True, "valign": "bottom"},
    "count": {"num_format": "#,##0"},
    "pays": {"num_format": "0.######", **INPUT},
    "input": {"bold": True, "valign": "top", **INPUT},
    # text set off from the right-aligned number before it (an exact figure, an event)
    "exact": {"indent": 1},
    "total_exact": {"indent": 1, "bold": True, "top": 1},
    "pays_number": {"num_format": "0.######"},
    "probability": {"num_format": "0.000000000000"},
    "return": {"num_format": "+0.000000000000;-0.000000000000;0"},
    "percent": {"num_format": "0.0000%"},
    "number": {"num_format": "0.000000"},
    "odds": {"num_format": "#,##0.0"},
    "bold": {"bold": True},
    "check": {"bold": True, "font_color": "#C00000"},
    "total_count": {"num_format": "#,##0", "bold": True, "top": 1},
    "total_probability": {"num_format": "0.000000000000", "bold": True, "top": 1},
    "total_return": {"num_format": "+0.000000000000;-0.000000000000;0", "bold": True,
                     "top": 1},
    "total_text": {"bold": True, "top": 1},
    "total_check": {"bold": True, "top": 1, "font_color": "#C00000"},
    # conditional formats: the check cell that says CHANGED, the exact cells it disowns
    "changed": {"bold": True, "font_color": "#FFFFFF", "bg_color": "#C00000"},
    "stale": {"font_color": "#9C0006", "bg_color": "#FFC7CE", "font_strikeout": True},
}
# How each number format shows a value, for the width of its column (Excel shows ##### in a
# column too narrow for a number, so numbers are never capped).
SHOWN: dict[str, Callable[[float], str]] = {
    "count": lambda v: grouped(round(v)),
    "pays": trimmed,
    "pays_number": trimmed,
    "probability": lambda v: fixed(v, 12),
    "return": lambda v: fixed(v, 12, sign=True),
    "percent": percent,
    "number": lambda v: fixed(v, 6),
    "odds": lambda v: grouped(v, 1),
}


# --- widths: estimated in Excel's unit, the width of a digit of the default font ------------
_NARROW = frozenset(" .,:;'!|()[]/-ijlftI1")


def _text_width(text: str, bold: bool = False) -> float:
    """The width ``text`` takes, in digits, generously (a viewer without Calibri substitutes a
    wider font: DejaVu Sans in LibreOffice on Linux), with the cell's padding."""
    width = sum(0.6 if c in _NARROW else 1.25 if c.isupper() or c in "mw%@" else 1.0
                for c in text)
    return width * (1.15 if bold else 1.05) + 1.5


def _wrapped_lines(text: str, width: float, bold: bool) -> int:
    """How many lines ``text`` takes wrapped at spaces in a column ``width`` digits wide."""
    lines, line = 1, ""
    for word in text.split():
        longer = f"{line} {word}" if line else word
        if line and _text_width(longer, bold) > width:
            lines, line = lines + 1, word
        else:
            line = longer
    return lines


def _heading_width(text: str) -> float:
    """The narrowest width, at least the longest word's, that wraps a column heading to at
    most :data:`HEADING_LINES` lines."""
    width = max(_text_width(word, True) for word in text.split()) if text.split() else 0
    while _wrapped_lines(text, width, True) > HEADING_LINES:
        width += 1
    return width


class Styles:
    """The workbook's formats by name, each also in a wrapping variant, made on first use (in
    the order of use, so the bytes stay the same)."""

    def __init__(self, book) -> None:
        self.book = book
        self.made: dict[tuple[str, bool], Any] = {}

    def __call__(self, name: str, wrap: bool = False):
        if (name, wrap) not in self.made:
            properties = dict(STYLES[name])
            if wrap:
                properties.update(text_wrap=True, valign="top")
            self.made[name, wrap] = self.book.add_format(properties)
        return self.made[name, wrap]

    @staticmethod
    def width(text: str, name: str) -> float:
        """The width ``text`` takes in a cell of style ``name`` (bold, larger, indented or
        not)."""
        style = STYLES[name]
        return (_text_width(text, bool(style.get("bold"))) * style.get("font_size", 11) / 11
                + 1.5 * style.get("indent", 0))


class Sheet:
    """A worksheet being written, and what its layout needs once every cell is in: each
    column's widest text, the rows that wrap, the heading lines to write across the table."""

    def __init__(self, worksheet, styles: Styles, columns: int) -> None:
        self.worksheet, self.styles = worksheet, styles
        self.widths = [0.0] * columns
        self.lines: dict[int, int] = {}
        self.headings: dict[int, list[str]] = {}
        self.spans: list[tuple[int, int, int, str, str]] = []
        self.last_row = 0

    def _fit(self, row: int, column: int, width: float) -> bool:
        """Record a cell's width; True if it must wrap."""
        self.last_row = max(self.last_row, row)
        if width <= WIDTH_CAP:
            self.widths[column] = max(self.widths[column], width)
            return False
        self.widths[column] = WIDTH_CAP
        lines = math.ceil(width / (WIDTH_CAP - 1.5))
        self.lines[row] = max(self.lines.get(row, 1), lines)
        return True

    def text(self, row: int, column: int, text: str, style: str = "text") -> None:
        wrap = self._fit(row, column, self.styles.width(text, style))
        self.worksheet.write_string(row, column, text, self.styles(style, wrap))

    def number(self, row: int, column: int, value: Fraction | int, style: str) -> None:
        """A number cell: an integer as itself, a fraction as the formula ``=n/d``."""
        value = Fraction(value)
        self._fit(row, column, self.styles.width(SHOWN[style](float(value)), style))
        if value.denominator == 1:
            self.worksheet.write_number(row, column, int(value), self.styles(style))
        else:
            self.worksheet.write_formula(row, column, f"={value.numerator}/{value.denominator}",
                                         self.styles(style), float(value))

    def formula(self, row: int, column: int, formula: str, style: str,
                value: float | str) -> None:
        # a text formula is a check: CHANGED is the widest it shows
        shown = CHANGED if isinstance(value, str) else SHOWN[style.removeprefix("total_")](value)
        self._fit(row, column, self.styles.width(shown, style))
        self.worksheet.write_formula(row, column, formula, self.styles(style), value)

    def blank(self, row: int, column: int, style: str) -> None:
        self.worksheet.write_blank(row, column, None, self.styles(style))

    def link(self, row: int, column: int, target: str, text: str) -> None:
        self._fit(row, column, _text_width(text))
        self.worksheet.write_url(row, column, f"internal:{target}", string=text)

    def heading(self, row: int, texts: Sequence[str]) -> None:
        """Column headings: bold, wrapped to at most :data:`HEADING_LINES` lines."""
        self.headings[row] = list(texts)
        for column, text in enumerate(texts):
            if not text:  # under a span: its rule still runs across
                self.worksheet.write_blank(row, column, None, self.styles("head"))
                continue
            self.widths[column] = max(self.widths[column], _heading_width(text))
            self.worksheet.write_string(row, column, text, self.styles("head"))
        self.last_row = max(self.last_row, row)

    def span(self, row: int, column: int, text: str, style: str = "text",
             last: int | None = None) -> None:
        """A line of text from ``column`` to column ``last`` (the table's right edge by default),
        whatever the columns' widths: written at the end, merged and wrapped when longer."""
        self.last_row = max(self.last_row, row)
        self.spans.append((row, column, len(self.widths) - 1 if last is None else last, text,
                           style))

    def finish(self, title: str) -> None:
        """Widths, wrapped rows' heights, the spans, and the print setup."""
        sheet, last_column = self.worksheet, len(self.widths) - 1
        widths = [round(max(width, 4.0), 1) for width in self.widths]
        for column, width in enumerate(widths):
            sheet.set_column(column, column, width)
        for row, texts in self.headings.items():
            lines = max(_wrapped_lines(text, width, True) for text, width in zip(
                texts, widths, strict=False) if text)
            self.lines[row] = max(self.lines.get(row, 1), lines)
        for row, column, last, text, style in self.spans:
            room = sum(widths[column:last + 1])
            width = self.styles.width(text, style)
            if width <= room or column == last:
                sheet.write_string(row, column, text, self.styles(style))
            else:
                sheet.merge_range(row, column, row, last, text, self.styles(style, True))
                self.lines[row] = max(self.lines.get(row, 1), math.ceil(width / room))
        for row, lines in sorted(self.lines.items()):
            if lines > 1:
                sheet.set_row(row, min(MAX_ROW_HEIGHT, LINE_HEIGHT * lines))
        sheet.set_landscape()
        sheet.set_paper(9)  # A4
        sheet.fit_to_pages(1, 0)  # one page wide, as many tall as it takes
        sheet.repeat_rows(HEADER_ROW)
        sheet.print_area(0, 0, self.last_row, last_column)
        sheet.set_margins(left=0.5, right=0.5, top=0.75, bottom=0.75)
        footer = title.replace("&", "&&")[:120]
        sheet.set_header("&L&A")  # the sheet's name
        sheet.set_footer(f"&L{footer}&RPage &P of &N")
        sheet.freeze_panes(HEADER_ROW + 1, 1)
