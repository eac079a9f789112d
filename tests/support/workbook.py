"""A workbook as canonical text, for a golden file: what a reader of the par sheet sees and
what the toolkit chose (sheets in order, their print setup and conditional formats, every
non-empty cell's address and formula or typed value, its number format and whether it is styled
as an input, merged ranges, the workbook's defined names), none of what the writing library adds
on its own (XML layout, styles' internal ids, column widths in its units, dates), so that the
golden holds across XlsxWriter versions."""

from __future__ import annotations

from pathlib import Path

from tests.support.optional import require_module

INPUT_FILL = "FFF2CC"  # the fill of the par sheet's input cells (exact/render/spreadsheet.py)


def is_input(cell) -> bool:
    """Whether ``cell`` is styled as an input (the par sheet's pay cells and its legend)."""
    return str(cell.fill.fgColor.rgb).upper().endswith(INPUT_FILL)


def print_setup(sheet) -> str:
    """The sheet's print setup in one line. ``fitToWidth`` absent is its schema default, 1
    (ECMA-376; XlsxWriter writes only the attributes that differ from it)."""
    setup = sheet.page_setup
    width = 1 if setup.fitToWidth is None else setup.fitToWidth
    height = 1 if setup.fitToHeight is None else setup.fitToHeight
    fit = sheet.sheet_properties.pageSetUpPr is not None and \
        sheet.sheet_properties.pageSetUpPr.fitToPage
    return (f"print {setup.orientation} paper {setup.paperSize} "
            f"fit {'on' if fit else 'off'} {width} wide {height} tall, "
            f"titles {sheet.print_title_rows} area {sheet.print_area}")


def workbook_cells(path: Path) -> str:
    """One line per sheet and per non-empty cell, ``A1<TAB>value<TAB>number format``: a formula
    as written (``=SUM(C9:C11)``), a number as ``int:``/``float:`` and its ``repr``, text as its
    ``repr`` (so that a number stored as text shows), the format left out when ``General``, and
    ``input`` after a cell styled as an input."""
    openpyxl = require_module("openpyxl")
    book = openpyxl.load_workbook(path)  # formulas as written, not their stored values
    lines = []
    for sheet in book.worksheets:
        lines.append(f"== {sheet.title!r} {sheet.dimensions}")
        lines.append(print_setup(sheet))
        for ranges in sheet.conditional_formatting:
            for rule in ranges.rules:
                shown = ",".join(rule.formula or ())
                lines.append(f"conditional {ranges.sqref} {rule.type} {rule.operator} {shown}")
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
                marks = "\tinput" if is_input(cell) else ""
                lines.append(f"{cell.coordinate}\t{shown}\t{number_format}".rstrip("\t") + marks)
    lines += [f"name {name}\t{defined.attr_text}"
              for name, defined in sorted(book.defined_names.items())]
    return "\n".join(lines) + "\n"
