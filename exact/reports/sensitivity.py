"""The report sections on what moves a house edge: the number of decks, the pays, and the
cards removed (effects of removal), each with its chart.

Layer: reports, above rendering; only the command line and the lab sit above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from exact.analysis.bet_analysis import GameAnalysis, analyze
from exact.core.cards import JOKER, RANKS, Shoe
from exact.model.bets import Bet
from exact.model.game import Game
from exact.render.numbers import decimal, pays_text, percent, scientific
from exact.render.output import SIGN_CONVENTION
from exact.reports import charts
from exact.reports.cover import Context

DECKS = (1, 2, 4, 6, 8)


def analyses_by_decks(game: Game, bets: Sequence[Bet], decks: Sequence[int] = DECKS,
                      shoe_for: Callable[[int], Shoe] = Shoe.standard,
                      ) -> dict[int, GameAnalysis]:
    """The exact analysis of ``bets`` for the shoe of each number of decks."""
    return {d: analyze(game, shoe_for(d), bets) for d in decks}


def group_family(bet: Bet) -> str:
    """The family a wager is charted with when its game's report names none: its group."""
    return f"{bet.group.capitalize()} wagers" if bet.group else "Wagers"


def _family_panels(bets: Sequence[Bet], family: Callable[[Bet], str],
                   lines: Callable[[Bet], list[tuple[str, list[float]]]],
                   x: Sequence[object]) -> list[dict[str, object]]:
    """One chart panel per family of ``bets`` (in order of first appearance), holding the
    ``lines`` of each of its wagers."""
    members: dict[str, list[tuple[str, list[float]]]] = {}
    for bet in bets:
        members.setdefault(family(bet), []).extend(lines(bet))
    return [{"title": name, "x": list(x), "lines": drawn} for name, drawn in members.items()]


def deck_sensitivity(by_decks: Mapping[int, GameAnalysis], context: Context,
                     family: Callable[[Bet], str] = group_family) -> dict[str, object]:
    """House edge of every wager and paytable for each number of decks, with a chart of one
    panel per family of wagers."""
    decks = sorted(by_decks)
    rows = []
    first = by_decks[decks[0]]
    series: dict[str, list[tuple[str, list[float]]]] = {}
    for bet_id, bet_analysis in first.bets.items():
        series[bet_id] = []
        for paytable in bet_analysis.bet.paytables:
            edges = [by_decks[d].bets[bet_id].table(paytable).house_edge for d in decks]
            rows.append({"bet": bet_analysis.bet.name, "paytable": paytable,
                         "edges": [percent(e) for e in edges]})
            series[bet_id].append((f"{bet_analysis.bet.name} ({paytable})",
                                   [float(e) * 100 for e in edges]))
    bets = [b.bet for b in first.bets.values()]
    charts_ = charts.family_lines(_family_panels(bets, family, lambda b: series[b.id], decks),
                                  context.out_dir / "decks.svg",
                                  xlabel="number of 52-card decks", ylabel="house edge (%)")
    return {"decks": [str(d) for d in decks], "rows": rows, "charts": charts_}


def pay_sensitivity(analysis: GameAnalysis, context: Context) -> dict[str, object]:
    """For each paying event of each wager (default paytable): how the edge moves with its
    pay, and the break-even pay, exact; a chart of edge against pay."""
    rows, panels = [], []
    for bet_analysis in analysis.bets.values():
        table = bet_analysis.table()
        for outcome in table.outcomes:
            if outcome.pays <= 0 or not outcome.combinations:
                continue
            # the edge is linear in each pay: slope -probability
            break_even = outcome.pays - table.expected_value / outcome.probability
            rows.append({"bet": table.name, "paytable": table.paytable, "event": outcome.event,
                         "pays": pays_text(outcome.pays),
                         "probability": decimal(outcome.probability),
                         "slope": percent(-outcome.probability, 4, True),
                         "break_even": str(break_even) if break_even.denominator < 10**6
                         else decimal(break_even, 6),
                         "break_even_decimal": decimal(break_even, 6)})
            low = max(Fraction(0), min(outcome.pays, break_even) * Fraction(4, 5))
            high = max(outcome.pays, break_even) * Fraction(6, 5)
            def edge(pay: Fraction, o=outcome, t=table) -> Fraction:
                return -(t.expected_value + o.probability * (pay - o.pays))

            panels.append({"title": f"{table.name}: {outcome.event}",
                           "pays": [float(low), float(high)],
                           "edges": [float(edge(low)) * 100, float(edge(high)) * 100],
                           "current": (float(outcome.pays), float(table.house_edge) * 100),
                           "break_even": float(break_even)})
    return {"rows": rows, "charts": charts.edge_against_pay(panels, context.out_dir / "pays.svg")}


def effects_of_removal(game: Game, bets: Sequence[Bet], shoe: Shoe,
                       context: Context, per_table: int = 5,
                       family: Callable[[Bet], str] = group_family) -> dict[str, object]:
    """Change of each wager's house edge (default paytable) when one card of each rank is
    removed from ``shoe``: every depleted shoe is re-analysed exactly."""
    base = analyze(game, shoe, bets)
    base_edges = {b: base.bets[b].table().house_edge for b in base.bets}
    effects: dict[str, list[Fraction]] = {b: [] for b in base.bets}
    ranks = [*RANKS, *([JOKER] if shoe.jokers else [])]
    for rank in ranks:
        depleted = analyze(game, shoe.remove([rank]), bets)
        for bet_id in effects:
            effects[bet_id].append(depleted.bets[bet_id].table().house_edge - base_edges[bet_id])
    names = {b: base.bets[b].bet.name for b in base.bets}
    ids = list(effects)
    tables = []
    for start in range(0, len(ids), per_table):
        chunk = ids[start:start + per_table]
        tables.append({"bets": [names[b] for b in chunk],
                       "rows": [{"rank": rank, "values": [scientific(float(effects[b][i]) * 100)
                                                          for b in chunk]}
                                for i, rank in enumerate(ranks)]})
    bet_list = [base.bets[b].bet for b in ids]
    chart_names = charts.family_lines(
        _family_panels(bet_list, family, lambda b: [(names[b.id], [float(v) * 100 for v in
                                                                   effects[b.id]])],
                       [str(r) for r in ranks]),
        context.out_dir / "eor.svg", xlabel="rank removed (one card)",
        ylabel="change in house edge (pp)", bars=True)
    return {"shoe": shoe.describe(), "tables": tables, "charts": chart_names,
            "sign_convention": SIGN_CONVENTION,
            "exact": {b: {rank: str(e) for rank, e in zip(ranks, effects[b], strict=True)}
                      for b in ids},
            # exact: removing a card drawn at random from the shoe leaves every expectation
            # unchanged, so the effects weighted by the cards of each rank sum to zero
            "sums": [{"bet": names[b], "sum": str(
                sum(e * shoe.count(r) for e, r in zip(effects[b], ranks, strict=True)))}
                for b in ids]}
