"""The ``analyze century21 --seats ...`` report: a full table's money per hand, as text, JSON,
CSV and a workbook table.

Layer: games, the top: the full table's figures as text, JSON, CSV and spreadsheet rows.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from math import lcm, sqrt
from typing import Any, cast

from exact.analysis.statistics import BetTable
from exact.games.century21.full_table import MAX_EXACT_SEATS
from exact.games.century21.table import first_position_counts
from exact.games.century21.table_economics import TableFigures


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def _money(value: Fraction | float | None) -> str:
    return "never" if value is None else f"{float(value):+.4f}"


def _checks(figures: TableFigures, seat: int) -> str:
    """Does the seat play other than House Way (its player's checked hand, rule 6)?"""
    if figures.strategy in ("house", "dealer-best"):
        return "no"
    return "yes" if figures.checking[seat] else "no"


def table_json(figures: TableFigures) -> dict[str, Any]:
    """Every figure, exact values as fraction strings (floats beside for reading)."""
    seats = []
    for i in range(figures.seats):
        seats.append({
            "seat": i + 1, "position": i + 2, "owner": figures.owners[i],
            "wager": str(figures.wagers[i]), "checks": _checks(figures, i) == "yes",
            "may_check": figures.checking[i],
            "edge_per_unit_in_action": str(figures.seat_edges[i]),
            "expected_action": str(figures.expected_action[i]),
            "probability_in_action": str(figures.in_action[i]),
            "expected_gross": str(figures.seat_gross[i]),
            "expected_collection": str(figures.seat_collection[i]),
            "expected_net": str(figures.seat_net[i]),
            "expected_net_float": float(figures.seat_net[i]),
            "break_even_wager": _exact(figures.seat_break_even_wagers[i])})
    data: dict[str, Any] = {
        "game": "century21", "table": True, "strategy": figures.strategy,
        "strategies": figures.strategies,
        "dice": {"reading": "three dice, eight positions, the Player/Dealer at position 1, "
                            "counted clockwise; landing on position 1 starts at position 2",
                 "first_position_counts_of_216": {str(p): c for p, c in
                                                  first_position_counts().items()}},
        "dealer_wager": _exact(figures.dealer_wager), "collection": str(figures.fee),
        "dealer_collection_fee": str(figures.dealer_fee), "action_reading": figures.reading,
        "seats": seats,
        "player_dealer": {
            "expected_gross": str(figures.dealer_gross),
            "expected_collection": str(figures.dealer_collection),
            "expected_net": str(figures.dealer_net),
            "expected_net_float": float(figures.dealer_net),
            "probability_of_action": str(figures.any_action),
            "break_even_wager_per_seat": _exact(figures.dealer_break_even_wager)},
        "house_collection": str(figures.house_collection),
        "rotation": {"hands": figures.seats + 1, "expected_result": str(figures.rotation),
                     "meaning": "a player banking once and sitting at each seat once"},
        "exact_to_seats": MAX_EXACT_SEATS,
    }
    if figures.estimate is not None:
        found_estimate = figures.estimate
        data["estimate"] = {
            "exact": False, "method": found_estimate.method,
            "meaning": "the seats' edges and results and the Player/Dealer's are sample means "
                       "of the estimated best response (House Way's exact values plus the "
                       "sampled change), with standard errors",
            "seat_edge_standard_errors": list(found_estimate.seat_edge_errors),
            "seat_gross_standard_errors": list(found_estimate.seat_gross_errors),
            "player_dealer_standard_error": found_estimate.dealer_error,
            "best_response_gross_interval_95": list(found_estimate.interval)}
    if figures.exploitability:
        data["exploitability"] = {
            k: (str(v) if isinstance(v, Fraction) else [str(x) for x in v]
                if isinstance(v, list) else v)
            for k, v in figures.exploitability.items()}
    found = figures.distribution
    if found is not None:
        data["player_dealer"]["distribution"] = {
            "exact": found.exact,
            "method": ("exact (heads-up outcome counts)" if figures.seats == 1 else
                       "exact (the two seats' joint)" if figures.seats == 2 else
                       "exact (the three seats' joint)") if found.exact else
            f"seeded table simulation: {found.hands:,} hands, seed {found.seed}",
            "mean": str(found.mean), "variance": str(found.variance),
            "standard_deviation": sqrt(float(found.variance)),
            "mean_standard_error": found.mean_error,
            "exact_variance": _exact(found.exact_variance),
            "outcomes": {str(v): str(p) for v, p in found.outcomes.items()}}
    return data


def table_text(figures: TableFigures) -> str:
    found = figures.distribution
    covered = ("covers every seat" if figures.dealer_wager is None
               else f"{figures.dealer_wager}")
    lines = [f"21st Century Baccarat at a table of {figures.seats} seat"
             f"{'s' if figures.seats != 1 else ''}: Player/Dealer wager {covered}, collection "
             f"{figures.fee} per circle, action {figures.reading}",
             f"Strategy {figures.strategy}: seats {figures.strategies['seats']}; "
             f"Player/Dealer {figures.strategies['player_dealer']}",
             "Dice: three dice, counted clockwise from the Player/Dealer's position 1; first "
             "position 1-8 in " + ", ".join(map(str, first_position_counts().values()))
             + " of 216 rolls (position 1 starts at 2)", "",
             f"{'Seat':>4} {'Pos':>3} {'Owner':10} {'Wager':>7} {'Chk':>3} {'Edge %':>9} "
             f"{'Action':>9} {'P(act)':>7} {'Gross':>9} {'Coll.':>7} {'Net':>9} {'Break-even':>10}"]
    for i in range(figures.seats):
        even = figures.seat_break_even_wagers[i]
        lines.append(
            f"{i + 1:>4} {i + 2:>3} {figures.owners[i][:10]:10} {float(figures.wagers[i]):>7g} "
            f"{_checks(figures, i):>3} "
            f"{float(figures.seat_edges[i]) * 100:>+9.4f} "
            f"{float(figures.expected_action[i]):>9.3f} "
            f"{float(figures.in_action[i]):>7.4f} {float(figures.seat_gross[i]):>+9.4f} "
            f"{float(figures.seat_collection[i]):>7.4f} {float(figures.seat_net[i]):>+9.4f} "
            f"{'never' if even is None else f'{float(even):.2f}':>10}")
    even = figures.dealer_break_even_wager
    lines += ["",
              f"Player/Dealer per hand: gross {_money(figures.dealer_gross)}, collection "
              f"{float(figures.dealer_collection):.4f}, net {_money(figures.dealer_net)} "
              + (f"(exact {figures.dealer_net})" if figures.estimate is None else
                 f"(ESTIMATED, standard error {figures.estimate.dealer_error:.4f})"),
              "Player/Dealer break-even wager per seat (all in action): "
              + ("never" if even is None else f"{float(even):.2f} ({even})"
                 if figures.estimate is None else f"{float(even):.2f} (estimated)"),
              f"Card room's collection per hand: {float(figures.house_collection):.4f}",
              f"A player over one rotation of the bank ({figures.seats + 1} hands: banking once, "
              f"each seat once): {_money(figures.rotation)} (exact {figures.rotation})"]
    if figures.estimate is not None:
        lines.append(f"Estimate: {figures.estimate.method}. Seat edges' standard errors (%): "
                     + ", ".join(f"{100 * e:.4f}" for e in figures.estimate.seat_edge_errors))
    if figures.exploitability:
        gains = figures.exploitability
        dealer_gain = Fraction(str(gains["player_dealer_gain"]))
        seat_gains = [Fraction(str(g)) for g in cast(list[object], gains["seat_gains"])]
        lines.append(f"Exploitability ({gains['method']}): the Player/Dealer gains "
                     f"{float(dealer_gain):.6g} per hand by deviating; the seats "
                     + ", ".join(f"{float(g):.6g}" for g in seat_gains) + " per unit")
    if found is not None:
        how = ("exact" if found.exact else
               f"estimated: seeded table simulation of {found.hands:,} hands (seed {found.seed}), "
               f"mean's standard error {found.mean_error:.4f}")
        lines += ["", f"Player/Dealer's net per hand ({how}): mean {float(found.mean):+.4f}, "
                  f"variance {float(found.variance):.4f}, SD {sqrt(float(found.variance)):.4f}"]
        if found.exact_variance is not None:
            lines.append(f"  exact variance {float(found.exact_variance):.4f} (SD "
                         f"{sqrt(float(found.exact_variance)):.4f}), from every pair of seats' "
                         f"exact joint: {found.exact_variance}")
        lines += [f"  {float(v):>+10.2f}  {float(p):.6f}" for v, p in found.outcomes.items()]
    lines.append("")
    return "\n".join(lines)


def table_csv(figures: TableFigures) -> str:
    """One row per seat, then the Player/Dealer's and the house's."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["who", "position", "wager", "edge_per_unit", "expected_action",
                     "probability_in_action", "expected_gross", "expected_collection",
                     "expected_net", "break_even_wager"])
    for i, row in enumerate(table_json(figures)["seats"]):
        writer.writerow([f"seat {i + 1}", row["position"], row["wager"],
                         row["edge_per_unit_in_action"], row["expected_action"],
                         row["probability_in_action"], row["expected_gross"],
                         row["expected_collection"], row["expected_net"],
                         row["break_even_wager"] or ""])
    writer.writerow(["player/dealer", 1, figures.dealer_wager or "", "", "",
                     figures.any_action, figures.dealer_gross, figures.dealer_collection,
                     figures.dealer_net, figures.dealer_break_even_wager or ""])
    writer.writerow(["house", "", "", "", "", "", "", figures.house_collection,
                     figures.house_collection, ""])
    return out.getvalue()


def distribution_table(figures: TableFigures) -> BetTable | None:
    """The Player/Dealer's net per hand as a return table (for the workbook)."""
    found = figures.distribution
    if found is None:
        return None
    if found.exact:
        denominator = lcm(*(Fraction(p).denominator for p in found.outcomes.values()))
        rows = [(f"net {float(v):+g}", Fraction(v), int(Fraction(p) * denominator))
                for v, p in found.outcomes.items()]
    else:
        denominator = found.hands
        rows = [(f"net {float(v):+g}", Fraction(v), round(float(p) * found.hands))
                for v, p in found.outcomes.items()]
    return BetTable.from_counts("player-dealer", "Player/Dealer's net per hand",
                                figures.strategy, rows, denominator)
