"""Rendering analyses: readable text tables, JSON and spreadsheet-ready CSV.

Layer: render, above the analyses; the reports and the command line print with it.

Exact numbers are written as text (``"114753351728/10847218479825"``); floats appear only
beside them, for display. The JSON shape is stable: later games and bets add keys to it.
"""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from typing import Any

from exact import __version__
from exact.analysis.bet_analysis import BetAnalysis, GameAnalysis
from exact.analysis.rarity import tier_frequencies, top_award
from exact.analysis.statistics import BetTable
from exact.model.bets import format_pays
from exact.render.numbers import fixed, general, grouped, percent

SIGN_CONVENTION = ("house edge: positive favours the house; effect of removal: change in house "
                   "edge per card removed")
"""The one sign convention of every output (``analyze``, ``eor``, ``edge``, ``simulate``, the
reports), said once in each output's header or key (``sign_convention`` in JSON)."""


class JsonText(str):
    """JSON text that keeps the data it was written from (``data``, as JSON reads it back) and
    its indent, so that a command's output takes one more field (its assumptions,
    :mod:`exact.analysis.assumptions`) without parsing or writing its text again (some 10 ms
    of a fresh `analyze --json`)."""

    data: Any
    indent: int | None

    def __new__(cls, text: str, data: Any, indent: int | None) -> JsonText:
        made = super().__new__(cls, text)
        made.data, made.indent = data, indent
        return made

    def with_field(self, key: str, value: Any) -> str:
        """The text of ``{**data, key: value}``, as :func:`json_text` writes it: the field's
        text put before the closing brace, as the encoder writes a last member (the same
        bytes, tests/render/test_output.py), or written whole where that cannot be done.

        >>> json_text({"a": [1, 2]}).with_field("b", {"c": None}) == json_text(
        ...     {"a": [1, 2], "b": {"c": None}})
        True
        """
        data = self.data
        if not isinstance(data, dict):
            return str(self)
        if not data or key in data or self.indent != 2 or \
                not all(isinstance(k, str) for k in data):
            return json_text({**data, key: value}, self.indent)
        # an indented object of one member or more ends "\n}\n"; its members are indented 2
        field = json_text(value, 2).rstrip("\n").replace("\n", "\n  ")
        return JsonText(f"{self[:-3]},\n  {json.dumps(key, ensure_ascii=False)}: {field}\n}}\n",
                        {**data, key: _finite_json(value)}, 2)


def json_text(data: Any, indent: int | None = 2) -> JsonText:
    """``data`` as strictly valid JSON (RFC 8259), the one way every command writes JSON.

    JSON has no NaN or infinity: a float without a finite value (a count trigger that is never
    reached, a ratio of nothing) is written as ``null``, and ``json.dumps(allow_nan=False)``
    guarantees that nothing else slips through. NumPy numbers are written as plain numbers.

    >>> json_text({"trigger": float("inf"), "edge": float("nan"), "n": [1, 0.5]}, indent=None)
    '{"trigger": null, "edge": null, "n": [1, 0.5]}\\n'
    """
    finite = _finite_json(data)
    return JsonText(json.dumps(finite, indent=indent, ensure_ascii=False, allow_nan=False) + "\n",
                    finite, indent)


def _finite_json(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_json(item) for item in value]
    if type(value).__module__ == "numpy" and hasattr(value, "item"):  # numpy scalars
        return _finite_json(value.item())
    return value


def fraction_text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def shoe_json(analysis: GameAnalysis) -> dict[str, Any]:
    return analysis.shoe.fields()


def table_json(table: BetTable) -> dict[str, Any]:
    """One bet under one paytable: statistics and the full return table."""
    resolved = table.house_edge_per_resolved_bet
    top = top_award(table)
    return {
        "name": table.name,
        "paytable": table.paytable,
        "house_edge": str(table.house_edge),
        "house_edge_float": float(table.house_edge),
        "return_to_player": str(table.return_to_player),
        "house_edge_per_resolved_bet": fraction_text(resolved),
        "house_edge_per_resolved_bet_float": None if resolved is None else float(resolved),
        "hit_frequency": str(table.hit_frequency),
        "push_frequency": str(table.push_frequency),
        "loss_frequency": str(table.loss_frequency),
        "variance": str(table.variance),
        "standard_deviation": table.standard_deviation,
        "standard_deviation_exact": table.standard_deviation_exact,
        "outcomes": [{"event": o.event, "pays": format_pays(o.pays),
                      "combinations": o.combinations, "probability": str(o.probability),
                      "return": str(o.expected_return)} for o in table.outcomes],
        "tiers": [tier.as_json() for tier in tier_frequencies(table)],
        "top_award": None if top is None else top.as_json(),
    }


def bet_json(analysis: BetAnalysis) -> dict[str, Any]:
    tables = analysis.tables
    main = table_json(tables[analysis.bet.paytable])
    main["description"] = analysis.bet.description
    main["group"] = analysis.bet.group
    main["alternative_paytables"] = {name: table_json(t) for name, t in tables.items()
                                     if name != analysis.bet.paytable}
    return main


def analysis_json(analysis: GameAnalysis) -> dict[str, Any]:
    return {
        "toolkit": {"name": "exact", "version": __version__},
        "game": analysis.game.id,
        "game_name": analysis.game.name,
        "rules": analysis.game.describe_rules(),
        "shoe": shoe_json(analysis),
        "counting_unit": analysis.counting_unit,
        "sign_convention": SIGN_CONVENTION,
        "round_cards": analysis.round_cards,
        "total": analysis.total,
        "bets": {bet_id: bet_json(bet) for bet_id, bet in analysis.bets.items()},
    }


def to_json(analysis: GameAnalysis, engines: bool = False) -> str:
    """The analysis as JSON; ``engines``: with the engine plan (:func:`engines_json`)."""
    data = analysis_json(analysis)
    if engines:
        data["engines"] = engines_json(analysis)
    return json_text(data)


def engines_json(analysis: GameAnalysis) -> list[dict[str, Any]]:
    """Per bet, the engine that counted it, its estimate in work units and the plan's reason
    (which names every other engine's estimate or refusal)."""
    choices = analysis.plan.choices if analysis.plan is not None else ()
    return [{"bet": choice.bet.id, "engine": choice.engine, "units": choice.units,
             "reason": choice.reason} for choice in choices]


def engines_text(analysis: GameAnalysis) -> str:
    """The engine plan as text: a line per bet, its engine and the estimates that chose it."""
    lines = ["Engines (the cheapest estimate per bet, in work units):"]
    lines += [f"  {entry['bet']}: {entry['reason']}" for entry in engines_json(analysis)]
    return "\n".join(lines) + "\n"


def spreadsheet_text(value: object) -> str:
    """An exact number as a CSV cell that a spreadsheet keeps as written: ``="..."`` makes
    Excel, LibreOffice and Google Sheets keep every digit as text.

    >>> spreadsheet_text(Fraction(1, 3))
    '="1/3"'
    """
    return f'="{value}"'


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A text cell (a bet id, paytable or event name from a user file) that a spreadsheet
    shows as written: one starting like a formula gets a leading ``'`` (OWASP's advice against
    CSV injection), since Excel would run ``=HYPERLINK(...)`` opened from a CSV file.

    >>> print(csv_text("=HYPERLINK('http://x')"), csv_text("Banker 6"), sep=" | ")
    '=HYPERLINK('http://x') | Banker 6
    """
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def to_csv(analysis: GameAnalysis) -> str:
    """One row per event of every bet and paytable; exact columns are spreadsheet text, text
    columns are :func:`csv_text` (numbers are written as they are)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "shoe_cards", "counting_unit", "bet", "paytable", "event", "pays",
                     "combinations", "total", "probability", "probability_float", "return",
                     "return_float"])
    unit = f"ordered {analysis.round_cards}-card sequences"
    for bet in analysis.bets.values():
        for table in bet.tables.values():
            for o in table.outcomes:
                writer.writerow([csv_text(analysis.game.id), analysis.shoe.size, csv_text(unit),
                                 csv_text(table.bet_id), csv_text(table.paytable),
                                 csv_text(o.event), spreadsheet_text(format_pays(o.pays)),
                                 spreadsheet_text(o.combinations), spreadsheet_text(table.total),
                                 spreadsheet_text(o.probability), general(o.probability),
                                 spreadsheet_text(o.expected_return),
                                 general(o.expected_return)])
    return out.getvalue()


def table_text(table: BetTable) -> str:
    """A return table with totals and statistics, aligned for a terminal."""
    rows = [("Event", "Pays", "Combinations", "Probability", "Return")]
    rows += [(o.event, format_pays(o.pays), grouped(o.combinations),
              fixed(o.probability, 8), fixed(o.expected_return, 8, sign=True))
             for o in table.outcomes]
    rows.append(("Total", "", grouped(table.total), fixed(1, 8),
                 fixed(table.expected_value, 8, sign=True)))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = [f"{table.name} [{table.bet_id}], paytable {table.paytable}"]
    for index, row in enumerate(rows):
        if index in (1, len(rows) - 1):
            lines.append("  " + "  ".join("-" * w for w in widths))
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                          strict=True)]
        lines.append("  " + "  ".join(cells))
    resolved = table.house_edge_per_resolved_bet
    lines += [
        f"  House edge {percent(table.house_edge)} = {table.house_edge}",
        f"  Return to player {percent(table.return_to_player)}",
        "  House edge per resolved bet (pushes excluded) "
        + ("n/a" if resolved is None else percent(resolved)),
        f"  Hit {percent(table.hit_frequency)}, push {percent(table.push_frequency)}, "
        f"loss {percent(table.loss_frequency)}",
        f"  Variance {fixed(table.variance, 6)} = {table.variance}",
        f"  Standard deviation {fixed(table.standard_deviation, 6)}",
    ]
    top = top_award(table)
    if top is not None and len(tier_frequencies(table)) > 1:
        lines += ["  Tiers:", *(f"    {tier.describe()}" for tier in tier_frequencies(table))]
    if top is not None:
        lines.append(f"  Top award {top.describe()}")
    return "\n".join(lines)


def to_text(analysis: GameAnalysis, engines: bool = False) -> str:
    """The analysis as text; ``engines``: followed by the engine plan (:func:`engines_text`)."""
    text = _analysis_text(analysis)
    return text + "\n" + engines_text(analysis) if engines else text


def _analysis_text(analysis: GameAnalysis) -> str:
    head = [f"{analysis.game.name}: {analysis.shoe.headline()}",
            *(f"  {line}" for line in analysis.game.describe_rules()),
            f"Counting unit: {analysis.counting_unit}", f"Signs: {SIGN_CONVENTION}", ""]
    body: list[str] = []
    for bet in analysis.bets.values():
        body.extend(table_text(t) + "\n" for t in bet.tables.values())
    return "\n".join(head + body)
