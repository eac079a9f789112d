"""The compact views of ``analyze``: the summary (one line per bet and paytable) and the house
edge by number of decks side by side (``--decks 1,2,4,6,8``), in text, JSON and CSV. The full
view (every return table) is :mod:`exact.render.output`'s.

Layer: render, above the analyses; the command line prints with it.

Every figure here is read from the exact tables: the float columns are for display, the exact
fraction stands beside each in JSON and CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from exact import __version__
from exact.analysis.bet_analysis import GameAnalysis
from exact.analysis.statistics import BetTable
from exact.render.numbers import fixed, general, percent
from exact.render.output import SIGN_CONVENTION, csv_text, json_text
from exact.render.output import spreadsheet_text as exact_cell

TOOLKIT = {"name": "exact", "version": __version__}

SUMMARY_COLUMNS = ("bet", "paytable", "house edge", "hit", "push", "st. dev.", "name")


def _summary_cells(table: BetTable) -> tuple[str, ...]:
    return (table.bet_id, table.paytable, percent(table.house_edge),
            percent(table.hit_frequency, 2), percent(table.push_frequency, 2),
            fixed(table.standard_deviation, 4), table.name)


def _aligned(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    """``rows`` in columns, each as wide as its widest cell (the last column left ragged)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.rjust(w) if r else cell.ljust(w)
                 for cell, w, r in zip(row, widths, right, strict=True)]
        lines.append(("  ".join(cells[:-1]) + "  " + row[-1].strip()).rstrip())
    return lines


def summary_text(analysis: GameAnalysis) -> str:
    """One line per bet and paytable (each bet's own paytable first): the house edge, the
    hit and push frequencies and the standard deviation of one unit bet."""
    rows = [SUMMARY_COLUMNS] + [_summary_cells(t) for t in analysis.all_tables()]
    head = [f"{analysis.game.name}: {analysis.shoe.headline()}",
            f"Signs: {SIGN_CONVENTION}", ""]
    tail = ["", "Each bet's own paytable first. The return tables, the exact fractions and the "
            "rules: --view full (or --json)."]
    return "\n".join(head + _aligned(rows, (False, False, True, True, True, True, False))
                     + tail) + "\n"


def _summary_record(table: BetTable) -> dict[str, Any]:
    return {"bet": table.bet_id, "name": table.name, "paytable": table.paytable,
            "house_edge": str(table.house_edge), "house_edge_float": float(table.house_edge),
            "hit_frequency": str(table.hit_frequency),
            "push_frequency": str(table.push_frequency),
            "standard_deviation": table.standard_deviation}


def summary_json(analysis: GameAnalysis) -> str:
    return json_text({"toolkit": TOOLKIT, "game": analysis.game.id, "view": "summary",
                      "shoe": analysis.shoe.fields(), "sign_convention": SIGN_CONVENTION,
                      "bets": [_summary_record(t) for t in analysis.all_tables()]})


def summary_csv(analysis: GameAnalysis) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    fields = ("bet", "name", "paytable", "house_edge", "house_edge_float", "hit_frequency",
              "push_frequency", "standard_deviation")
    writer.writerow(("game", "shoe_cards", *fields))
    for table in analysis.all_tables():
        writer.writerow([csv_text(analysis.game.id), analysis.shoe.size, csv_text(table.bet_id),
                         csv_text(table.name), csv_text(table.paytable),
                         exact_cell(table.house_edge), general(table.house_edge),
                         exact_cell(table.hit_frequency), exact_cell(table.push_frequency),
                         general(table.standard_deviation)])
    return out.getvalue()


# --- the house edge by number of decks --------------------------------------------------------
def _by_decks(analyses: Mapping[int, GameAnalysis]) -> list[tuple[BetTable, list[BetTable]]]:
    """Per bet and paytable (in the first analysis's order): its table in every analysis."""
    tables = {decks: {(t.bet_id, t.paytable): t for t in a.all_tables()}
              for decks, a in analyses.items()}
    first = next(iter(analyses.values()))
    return [(t, [tables[d][(t.bet_id, t.paytable)] for d in analyses])
            for t in first.all_tables()]


def _decks_name(decks: int) -> str:
    return f"{decks} deck{'s' * (decks != 1)}"


def decks_text(analyses: Mapping[int, GameAnalysis]) -> str:
    """The house edge of every bet and paytable (rows) on each shoe (columns)."""
    first = next(iter(analyses.values()))
    shoes = ", ".join(a.shoe.describe() for a in analyses.values())
    rows: list[tuple[str, ...]] = [("bet", "paytable", *map(_decks_name, analyses), "")]
    rows += [(t.bet_id, t.paytable, *(percent(e.house_edge) for e in each), "")
             for t, each in _by_decks(analyses)]
    right = (False, False, *([True] * len(analyses)), False)
    return "\n".join([f"{first.game.name}: house edge by number of decks ({shoes})",
                      f"Signs: {SIGN_CONVENTION}", "", *_aligned(rows, right), "",
                      "Exact fractions: --json or --csv."]) + "\n"


def decks_json(analyses: Mapping[int, GameAnalysis]) -> str:
    first = next(iter(analyses.values()))
    return json_text({
        "toolkit": TOOLKIT, "game": first.game.id, "view": "decks",
        "decks": list(analyses), "shoes": [a.shoe.fields() for a in analyses.values()],
        "sign_convention": SIGN_CONVENTION,
        "bets": [{"bet": t.bet_id, "name": t.name, "paytable": t.paytable,
                  "house_edge": {str(d): str(e.house_edge) for d, e in zip(analyses, each,
                                                                           strict=True)},
                  "house_edge_float": {str(d): float(e.house_edge)
                                       for d, e in zip(analyses, each, strict=True)}}
                 for t, each in _by_decks(analyses)]})


def decks_csv(analyses: Mapping[int, GameAnalysis]) -> str:
    """One row per bet, paytable and number of decks (long form: a pivot makes the table)."""
    first = next(iter(analyses.values()))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("game", "bet", "paytable", "decks", "shoe_cards", "house_edge",
                     "house_edge_float"))
    for t, each in _by_decks(analyses):
        for (decks, analysis), table in zip(analyses.items(), each, strict=True):
            writer.writerow([csv_text(first.game.id), csv_text(t.bet_id),
                             csv_text(t.paytable), decks, analysis.shoe.size,
                             exact_cell(table.house_edge),
                             general(table.house_edge)])
    return out.getvalue()
