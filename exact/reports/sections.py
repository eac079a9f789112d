"""The sections every game's report shares, computed from the library: the summary, return
tables and statistics, the worked examples and appendices, and the whole standard report
that assembles them with the cover (:mod:`exact.reports.cover`), the sensitivity sections
(:mod:`exact.reports.sensitivity`) and the checks (:mod:`exact.reports.checks`).

Layer: reports, above rendering; only the command line and the lab sit above it.

Each function returns JSON-ready data: exact integers and fractions as text (so nothing is
rounded on the way to the template), decimals formatted here for display only. A game's
report module (its package's ``report.py``) calls these and adds what is particular
to its game; the Typst templates only lay the text out.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import ModuleType

from exact.analysis.assumptions import report_assumptions
from exact.analysis.bet_analysis import GameAnalysis, analyze
from exact.analysis.rarity import one_in_text
from exact.analysis.repeated_play import (
    EXACT_BIT_BUDGET,
    METHODS,
    NORMAL_SKEWNESS_LIMIT,
    normal_quantile,
    rounds_interval,
    volatility_index,
)
from exact.analysis.statistics import BetTable
from exact.core.cards import Shoe
from exact.model.bets import Bet
from exact.model.game import Game
from exact.model.settlement import Wager, settle_round
from exact.render.numbers import decimal, fixed, grouped, net, pays_text, percent
from exact.reports.checks import brute_force_checks, published_checks, sums_check
from exact.reports.cover import Context, build_epoch, cover
from exact.reports.sensitivity import (
    DECKS,
    analyses_by_decks,
    deck_sensitivity,
    effects_of_removal,
    group_family,
    pay_sensitivity,
)

ROUNDS = tuple(10**k for k in range(1, 9))
LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))


# --- summary, return tables, statistics --------------------------------------------------------
def _tables(analysis: GameAnalysis) -> Iterable[tuple[Bet, BetTable]]:
    for bet_analysis in analysis.bets.values():
        for table in bet_analysis.tables.values():
            yield bet_analysis.bet, table


def summary(analysis: GameAnalysis) -> list[dict[str, str]]:
    """One row per wager and paytable: edge, RTP, hit frequency, SD, VI(90%), top award."""
    rows = []
    for bet, table in _tables(analysis):
        top = table.top_award()
        rows.append({
            "bet": bet.name, "paytable": table.paytable,
            "house_edge": percent(table.house_edge),
            "rtp": percent(table.return_to_player),
            "hit": percent(table.hit_frequency, 2),
            "sd": fixed(table.standard_deviation, 4),
            "vi90": fixed(volatility_index(table.variance, LEVELS[0]), 4),
            "top_award": pays_text(top.pays) if top else "none",
            "top_odds": one_in_text(top.probability) if top else "",
        })
    return rows


def top_awards(analysis: GameAnalysis) -> list[dict[str, str]]:
    """Per wager and paytable that can win: its largest pay (exact), the probability of being
    paid it, and its odds (the build adds the payout at the submission's bet limit)."""
    rows = []
    for bet, table in _tables(analysis):
        top = table.top_award()
        if top is not None:
            rows.append({"bet": bet.name, "paytable": table.paytable, "pays": str(top.pays),
                         "pays_text": pays_text(top.pays), "event": top.event,
                         "probability": decimal(top.probability),
                         "odds": one_in_text(top.probability)})
    return rows


def return_tables(analysis: GameAnalysis) -> list[dict[str, object]]:
    """Per wager: every paytable's return table with exact counts and its statistics."""
    out: dict[str, dict[str, object]] = {}
    tables: dict[str, list[dict[str, object]]] = {}  # the "tables" of each entry of out
    for bet, table in _tables(analysis):
        if bet.id not in out:
            tables[bet.id] = []
            out[bet.id] = {"id": bet.id, "name": bet.name, "description": bet.description,
                           "tables": tables[bet.id]}
        tables[bet.id].append({
            "paytable": table.paytable,
            "default": table.paytable == bet.paytable,
            "rows": [{"event": o.event, "pays": pays_text(o.pays),
                      "combinations": grouped(o.combinations),
                      "probability": decimal(o.probability),
                      "return": decimal(o.expected_return)} for o in table.outcomes],
            "total": {"combinations": grouped(sum(o.combinations for o in table.outcomes)),
                      "probability": decimal(sum(o.probability for o in table.outcomes)),
                      "return": decimal(table.expected_value)},
            "house_edge": percent(table.house_edge, 6),
            "house_edge_exact": str(table.house_edge),
            "house_edge_resolved": (percent(table.house_edge_per_resolved_bet, 6)
                                    if table.house_edge_per_resolved_bet is not None else "n/a"),
            "push": percent(table.push_frequency, 4),
        })
    return list(out.values())


def statistics(analysis: GameAnalysis) -> dict[str, object]:
    """Variance, SD and the intervals of the average result after 10..10^8 rounds."""
    bets = []
    for bet, table in _tables(analysis):
        bets.append({
            "bet": bet.name, "paytable": table.paytable,
            "default": table.paytable == bet.paytable,
            "mean": decimal(table.expected_value), "mean_exact": str(table.expected_value),
            "variance": decimal(table.variance), "variance_exact": str(table.variance),
            "sd": fixed(table.standard_deviation, 10), "sd_exact": table.standard_deviation_exact,
            **interval_rows(table)})
    return {**interval_key(), "rounds": [grouped(n) for n in ROUNDS], "bets": bets}


def interval_rows(table: BetTable) -> dict[str, object]:
    """The intervals of ``table``'s average result after each of :data:`ROUNDS` rounds at each
    of :data:`LEVELS`, each row naming its method (exact.analysis.repeated_play.rounds_interval),
    and the range no interval leaves: the lowest and highest pay."""
    one_round = table.one_round
    rows = []
    for n in ROUNDS:
        found = [rounds_interval(one_round, n, level) for level in LEVELS]
        rows.append({"rounds": grouped(n), "method": found[-1].method,
                     "clipped": any(f.clipped for f in found),
                     # one cell per confidence level
                     "cells": [f"{percent(f.low, 3, True)} to {percent(f.high, 3, True)}"
                               for f in found],
                     "bounds": [[float(f.low), float(f.high)] for f in found]})
    # the range at the cells' precision, so a printed end never seems to pass it by rounding
    return {"intervals": rows, "lowest": percent(one_round.pays[0], 3, True),
            "highest": percent(one_round.pays[-1], 3, True),
            "skewness": fixed(one_round.skewness, 4)}


def interval_key() -> dict[str, object]:
    """What the interval tables' methods mean, for the template's key."""
    return {"levels": [percent(level, 0) for level in LEVELS],
            "quantiles": [fixed(normal_quantile(level), 4) for level in LEVELS],
            "methods": METHODS, "skewness_limit": str(float(NORMAL_SKEWNESS_LIMIT)),
            "exact_budget": grouped(EXACT_BIT_BUDGET)}


# --- worked examples and appendices ------------------------------------------------------------
def worked_example(game: Game, cards: str, bets: Sequence[Bet],
                   describe: Callable[[object], list[str]], stake: int = 10) -> dict[str, object]:
    """One round dealt from ``cards`` with ``stake`` units on every wager, settled by the
    same bet definitions the analysis uses. ``describe(record)`` tells the hands."""
    settled = settle_round(game, cards, [Wager(b.id, stake) for b in bets],
                           {b.id: b for b in bets})
    return {"cards": " ".join(str(c) for c in settled.cards),
            "hands": describe(game.record_from_cards(settled.cards)),
            "settlements": [{"bet": next(b.name for b in bets if b.id == s.wager.bet),
                             "stake": str(s.wager.amount), "event": s.event,
                             "result": s.result, "net": net(s.net)}
                            for s in settled.settlements]}


def events_by_decks(by_decks: Mapping[int, GameAnalysis]) -> dict[str, object]:
    """Appendix: exact count of every event of every wager for each number of decks."""
    decks = sorted(by_decks)
    first = by_decks[decks[0]]
    bets = []
    for bet_id, bet_analysis in first.bets.items():
        rows = [{"event": event.name,
                 "counts": [grouped(by_decks[d].bets[bet_id].counts[i]) for d in decks]}
                for i, event in enumerate(bet_analysis.bet.events)]
        bets.append({"bet": bet_analysis.bet.name, "rows": rows})
    return {"decks": [str(d) for d in decks],
            "totals": [grouped(by_decks[d].total) for d in decks], "bets": bets}


# --- the whole standard report -----------------------------------------------------------------
def standard_report_data(game: Game, context: Context, *, decks: int, rule_set: tuple[str, str],
                         rule_files: Sequence[Path] = (), examples: Sequence[str] = (),
                         shoe: Shoe | None = None, bets: Sequence[Bet] | None = None,
                         inputs: Sequence[Path] = (),
                         describe_hands: Callable[[object], list[str]] | None = None,
                         shoe_for: Callable[[int], Shoe] = Shoe.standard,
                         published: Path | None = None, reference: ModuleType | None = None,
                         brute_force_shoes: Sequence[Shoe] = (),
                         verify: Callable[[GameAnalysis], Mapping[str, object]] | None = None,
                         family: Callable[[Bet], str] = group_family) -> dict[str, object]:
    """Every section that ``templates/lib.typ``'s ``standard-report`` lays out, for ``bets``
    (default: every wager the game ships, ``game_bets``) on ``shoe`` (default: ``decks``
    decks; the sensitivity uses 1, 2, 4, 6, 8 and ``decks``). ``inputs`` are the files of the
    configuration besides the game's (hashed on the cover).

    ``reference``, if given, is a slow independent implementation with ``brute_force(shoe,
    names, by=)`` and ``FEATURES`` (like ``exact/games/baccarat/reference.py``): it adds the
    brute-force checks. ``verify(analysis)``, if given, adds its sections (the verification
    simulation and the edge through the shoe:
    :func:`exact.reports.verification.simulation_sections`).
    """
    from exact.analysis.bet_analysis import game_bets

    bets = list(game_bets(game) if bets is None else bets)
    shoe = shoe_for(decks) if shoe is None else shoe
    by_decks = analyses_by_decks(game, bets, sorted({*DECKS, decks}), shoe_for)
    # a shoe of the options (--shoe, --remove) is analysed itself; a standard one is reused
    analysis = by_decks[decks] if shoe == shoe_for(decks) else analyze(game, shoe, bets)
    data: dict[str, object] = {
        "cover": cover(game, shoe, bets, [*rule_files, *game.bet_files, *inputs], context),
        "rules": game.describe_rules(),
        "assumptions": report_assumptions(game),
        "rules_id": rule_set[0],
        "rules_name": rule_set[1],
        "decks": str(decks),
        "cards": str(shoe.size),
        "jokers": str(shoe.jokers),
        "counting_unit": analysis.counting_unit,
        "denominator": grouped(analysis.total),
        "round_cards": str(analysis.round_cards),
        "summary": summary(analysis),
        "awards": top_awards(analysis),
        "bets": return_tables(analysis),
        "statistics": statistics(analysis),
        "examples": [worked_example(game, cards, bets, describe_hands or _no_hands)
                     for cards in examples],
        "decks_sensitivity": deck_sensitivity(by_decks, context, family),
        "pays_sensitivity": pay_sensitivity(analysis, context),
        "removal": effects_of_removal(game, bets, shoe, context, family=family),
        "sums": sums_check(by_decks),
        "events_by_decks": events_by_decks(by_decks),
    }
    from exact.render.spreadsheet import analysis_tables

    par_sheet(context, game.name, shoe, analysis.counting_unit, analysis_tables(analysis))
    if published is not None:
        # the shipped wagers of the configuration (a --table's own bet has no published
        # figures): the library checked against the figures published for them
        own = {bet.id: bet.source for bet in bets}
        shipped = [bet for bet in game_bets(game) if own.get(bet.id) == bet.source]
        data["published"] = published_checks(game, shipped, published, only_these=True)
    if reference is not None:
        data["brute_force"] = brute_force_checks(
            game, bets, brute_force_shoes,
            lambda small, names: reference.brute_force(small, names, by="card"),
            reference.FEATURES)
    if verify is not None:
        data.update(verify(analysis))
    return data


def par_sheet(context: Context, title: str, shoe: Shoe, counting_unit: str,
              tables: Sequence[BetTable]) -> None:
    """The report's Excel par sheet (every table, live formulas), dated like the report; the
    build puts it beside the PDF. Skipped without XlsxWriter (the `sheets` extra)."""
    if importlib.util.find_spec("xlsxwriter") is None:
        return
    from exact.render.spreadsheet import heading_lines, report_workbook

    report_workbook(context.out_dir, title, heading_lines(shoe, counting_unit), tables,
                    build_epoch(context.repository))


def _no_hands(record: object) -> list[str]:
    return []

