"""Analyses as pandas DataFrames and as HTML tables for notebooks.

pandas is optional (the ``frames`` extra) and imported only when a frame is asked for. Exact
values stay exact in the frames: counts are Python integers and probabilities, pays and
returns are :class:`fractions.Fraction` objects (``object`` columns), each with a ``_float``
column beside it for sorting, plotting and display.

The HTML tables need nothing but the standard library.

>>> from fractions import Fraction
>>> from exact.statistics import BetTable
>>> coin = BetTable.from_counts("coin", "Coin", "even", [("Heads", Fraction(1), 1),
...                             ("Tails", Fraction(-1), 1)], total=2)
>>> [row["probability"] for row in table_rows(coin)]
[Fraction(1, 2), Fraction(1, 2)]
>>> ">Heads</td>" in table_html(coin)
True
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from exact.errors import FramesError as FramesError
from exact.statistics import BetTable


def pandas():  # type: ignore[no-untyped-def]
    try:
        import pandas
    except ImportError:
        raise FramesError("DataFrames need pandas: pip install 'exact[frames]'") from None
    return pandas


def table_rows(table: BetTable) -> list[dict[str, Any]]:
    """One row per event of ``table``: exact values and their floats."""
    return [{"bet": table.bet_id, "bet_name": table.name, "paytable": table.paytable,
             "event": o.event, "pays": o.pays, "pays_float": float(o.pays),
             "combinations": o.combinations, "total": table.total,
             "probability": o.probability, "probability_float": float(o.probability),
             "return": o.expected_return, "return_float": float(o.expected_return)}
            for o in table.outcomes]


def summary_row(table: BetTable) -> dict[str, Any]:
    """One row of statistics of ``table``."""
    top = table.top_award()
    return {"bet": table.bet_id, "bet_name": table.name, "paytable": table.paytable,
            "house_edge": table.house_edge, "house_edge_float": float(table.house_edge),
            "return_to_player": table.return_to_player,
            "hit_frequency": table.hit_frequency,
            "hit_frequency_float": float(table.hit_frequency),
            "variance": table.variance, "standard_deviation": table.standard_deviation,
            "top_award": None if top is None else top.event,
            "top_award_pays": None if top is None else top.pays,
            "top_award_one_in": None if top is None else 1 / top.probability,
            "top_award_one_in_float": None if top is None else float(1 / top.probability)}


def frame(rows: Iterable[dict[str, Any]]):  # type: ignore[no-untyped-def]
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
    style = f' style="text-align:{align}"' if align else ""
    return f"<{tag}{style}>{html.escape(str(value))}</{tag}>"


def _html_table(header: list[str], rows: list[list[object]], caption: str) -> str:
    head = "".join(_cell(name, "th") for name in header)
    body = "".join("<tr>" + "".join(_cell(value, align="left" if index == 0 else "right")
                                    for index, value in enumerate(row)) + "</tr>"
                   for row in rows)
    return (f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def table_html(table: BetTable) -> str:
    """The return table with its house edge, exact and as a percentage."""
    rows: list[list[object]] = [[o.event, o.pays, f"{o.combinations:,}",
                                 f"{float(o.probability):.10f}",
                                 f"{float(o.expected_return):+.10f}"] for o in table.outcomes]
    rows.append(["Total", "", f"{table.total:,}", f"{1:.10f}",
                 f"{float(table.expected_value):+.10f}"])
    caption = (f"{table.name} [{table.bet_id}], paytable {table.paytable}: house edge "
               f"{float(table.house_edge) * 100:.4f}% = {table.house_edge}")
    return _html_table(["Event", "Pays", "Combinations", "Probability", "Return"], rows, caption)


def summary_html(tables: Iterable[BetTable], caption: str) -> str:
    """One row per bet and paytable: house edge, hit frequency, SD, top award."""
    rows: list[list[object]] = []
    for table in tables:
        top = table.top_award()
        rows.append([table.name, table.paytable, f"{float(table.house_edge) * 100:.4f}%",
                     table.house_edge, f"{float(table.hit_frequency) * 100:.4f}%",
                     f"{table.standard_deviation:.4f}",
                     "" if top is None else f"{top.event} ({top.pays} to 1)",
                     "" if top is None else f"1 in {float(1 / top.probability):,.1f}"])
    return _html_table(["Bet", "Paytable", "House edge", "House edge (exact)", "Hit frequency",
                        "SD", "Top award", "Odds"], rows, caption)
