"""Analyses as pandas DataFrames and as HTML tables for notebooks.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

pandas is optional (the ``frames`` extra) and imported only when a frame is asked for. Exact
values stay exact in the frames: counts are Python integers and probabilities, pays and
returns are :class:`fractions.Fraction` objects (``object`` columns), each with a ``_float``
column beside it for sorting, plotting and display.

The HTML tables need nothing but the standard library.

The rows and HTML tables of a bet table are made in :mod:`exact.analysis.statistics`, which uses
this module (and which this module does not know).

>>> html_table(["Event", "Pays"], [["Heads", 1]], "Coin").startswith("<table><caption>Coin")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from exact.errors import FramesError as FramesError


def pandas():
    try:
        import pandas
    except ImportError:
        raise FramesError("DataFrames need pandas: pip install 'exact[frames]'") from None
    return pandas


def frame(rows: Iterable[dict[str, Any]]):
    """A DataFrame of ``rows`` whose exact columns keep their Python objects (no int64 or
    float conversion)."""
    rows = list(rows)
    library = pandas()
    columns = list(rows[0]) if rows else []
    return library.DataFrame({name: library.Series([row[name] for row in rows], dtype=object)
                              if _exact(rows, name) else [row[name] for row in rows]
                              for name in columns}, columns=columns)


def _exact(rows: list[dict[str, Any]], name: str) -> bool:
    return any(isinstance(row[name], Fraction | int) and not isinstance(row[name], bool)
               for row in rows)


# --- HTML, for notebooks ------------------------------------------------------------------------
def _cell(value: object, tag: str = "td", align: str = "") -> str:
    import html  # for notebooks only: a command's fresh process skips it

    style = f' style="text-align:{align}"' if align else ""
    return f"<{tag}{style}>{html.escape(str(value))}</{tag}>"


def html_table(header: list[str], rows: list[list[object]], caption: str) -> str:
    head = "".join(_cell(name, "th") for name in header)
    body = "".join("<tr>" + "".join(_cell(value, align="left" if index == 0 else "right")
                                    for index, value in enumerate(row)) + "</tr>"
                   for row in rows)
    import html

    return (f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")
