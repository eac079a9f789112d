"""A workbook as canonical text, for a golden file: what a reader of the par sheet sees and
what the toolkit chose (sheets in order, every non-empty cell's address and formula or typed
value, its number format, merged ranges), none of what the writing library adds on its own
(XML layout, styles' internal ids, column widths in its units, dates), so that the golden
holds across XlsxWriter versions."""

from __future__ import annotations

from pathlib import Path

from tests.support.optional import require_module


def workbook_cells(path: Path) -> str:
    """One line per sheet and per non-empty cell, ``A1<TAB>value<TAB>number format``: a formula
    as written (``=SUM(C9:C11)``), a number as ``int:``/``float:`` and its ``repr``, text as its
    ``repr`` (so that a number stored as text shows), the format left out when ``General``."""
    openpyxl = require_module("openpyxl")
    book = openpyxl.load_workbook(path)  # formulas as written, not their stored values
    lines = []
    for sheet in book.worksheets:
        lines.append(f"== {sheet.title!r} {sheet.dimensions}")
        lines += [f"merged {merged}" for merged in sorted(map(str, sheet.merged_cells.ranges))]
        for row in sheet.iter_rows():
            for cell in row:
                if cell.value is None:
                    continue
                value = cell.value
                if isinstance(value, str) and value.startswith("="):
                    shown = value
                elif isinstance(value, bool | int | float):
                    shown = f"{type(value).__name__}:{value!r}"
                else:
                    shown = repr(value)
                number_format = "" if cell.number_format == "General" else cell.number_format
                lines.append(f"{cell.coordinate}\t{shown}\t{number_format}".rstrip("\t"))
    return "\n".join(lines) + "\n"
