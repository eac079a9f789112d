"""The sections every game's report shares, computed from the library.

Layer: reports, above rendering; only the command line and the lab sit above it.

Each function returns JSON-ready data: exact integers and fractions as text (so nothing is
rounded on the way to the template), decimals formatted here for display only. A game's
report module (``exact/reports/<game module>.py``) calls these and adds what is particular
to its game; the Typst templates only lay the text out.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import subprocess
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from types import ModuleType

from exact import __version__
from exact.analysis.assumptions import report_assumptions
from exact.analysis.bet_analysis import GameAnalysis, analyze
from exact.analysis.statistics import (
    EXACT_BIT_BUDGET,
    METHODS,
    NORMAL_SKEWNESS_LIMIT,
    BetTable,
    normal_quantile,
    one_in_text,
    rounds_interval,
    volatility_index,
)
from exact.core.cards import JOKER, RANKS, Shoe
from exact.core.parsing import source_date_epoch
from exact.errors import PublishedFiguresError
from exact.model.bets import Bet
from exact.model.game import Game
from exact.model.settlement import Wager, settle_round
from exact.reference.published import Figure
from exact.reference.published import load as load_published
from exact.render.numbers import decimal, fixed, grouped, pays_text, percent, scientific
from exact.render.output import SIGN_CONVENTION
from exact.reports import REPOSITORY, ReportError, charts

DECKS = (1, 2, 4, 6, 8)
ROUNDS = tuple(10**k for k in range(1, 9))
LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))


@dataclass(frozen=True)
class Context:
    """Where a report's generated files go and what it is built from."""

    out_dir: Path
    repository: Path = REPOSITORY
    rounds: int | None = None
    """Rounds of the verification simulation (None: ``EXACT_REPORT_ROUNDS``, else 10^8)."""
    workers: int | None = None
    """Its worker processes (None: ``EXACT_REPORT_WORKERS``, else one)."""


# --- cover -----------------------------------------------------------------------------------
def _git(repository: Path, *arguments: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(repository), *arguments], capture_output=True,
                              text=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def build_epoch(repository: Path = REPOSITORY) -> int:
    """The report's date as a Unix time: ``SOURCE_DATE_EPOCH`` if set, else the date of the
    checked-out commit, so that the same inputs give the same bytes."""
    epoch = source_date_epoch(ReportError)
    if epoch is not None:
        return epoch
    committed = _git(repository, "log", "-1", "--format=%ct")
    return int(committed) if committed else 0


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def commit(repository: Path = REPOSITORY) -> str:
    """The checked-out commit of the toolkit, and whether its code has changes beside it."""
    found = _git(repository, "rev-parse", "HEAD") or "unknown (not a git checkout)"
    if _git(repository, "status", "--porcelain", "--", "exact", "reports"):
        found += " + uncommitted changes"
    return found


def cover(game: Game, shoe: Shoe, bets: Sequence[Bet], files: Iterable[Path],
          context: Context) -> dict[str, object]:
    """Game, rule set, paytables, toolkit version and commit, file hashes, date."""
    epoch = build_epoch(context.repository)
    return {
        "game": game.name,
        "game_id": game.id,
        "shoe": shoe.describe(),
        "version": __version__,
        "commit": commit(context.repository),
        "epoch": epoch,
        "date": datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d"),
        "paytables": [{"bet": bet.name, "id": bet.id, "default": bet.paytable,
                       "alternatives": ", ".join(bet.alternatives) or "none"} for bet in bets],
        "files": [{"path": shown_file(path, context.repository), "sha256": sha256(path)}
                  for path in dict.fromkeys(files)],
    }


def shown_file(path: Path, root: Path) -> str:
    """A file's name as a report shows it: relative to the repository, else its name."""
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return path.name


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
    of :data:`LEVELS`, each row naming its method (exact.analysis.statistics.rounds_interval),
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


# --- sensitivity -----------------------------------------------------------------------------
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


# --- verification ----------------------------------------------------------------------------
def published_checks(game: Game, bets: Sequence[Bet], path: Path,
                     only_these: bool = False) -> dict[str, object]:
    """Compare the figures of a published-figures file (exact/data/<game>/published.toml,
    read by :mod:`exact.reference.published`) with the library. Counts must agree exactly;
    rounded figures at their published precision. ``only_these``: the figures of a wager
    not in ``bets`` are left out (a configuration without it), not refused."""
    try:
        published = load_published(path)
    except PublishedFiguresError as error:
        raise ReportError(str(error)) from None
    if only_these:
        ids = {bet.id for bet in bets}
        published = dataclasses.replace(published, figures=tuple(
            f for f in published.figures if f.bet is None or f.bet in ids))
    known = {bet.id: bet for bet in bets}
    cache: dict[int, GameAnalysis] = {}
    tallies = _feature_tallies(game, published.figures)
    rows = []
    for position, figure in enumerate(published.figures, start=1):
        where = f"{path.name}: figure {position}"
        if figure.decks not in cache:
            cache[figure.decks] = analyze(game, Shoe.standard(figure.decks), bets)
        computed, label = _computed_figure(tallies, figure, known, cache[figure.decks], where)
        expressed = figure.expressed(computed)
        rows.append({"figure": label, "decks": str(figure.decks),
                     "published": _published_text(figure.value),
                     "computed": _published_text(expressed), "agrees": expressed == figure.value})
    return {"source": published.source, "rows": rows,
            "all_agree": all(r["agrees"] for r in rows)}


def _published_text(value: int | str) -> str:
    return grouped(value) if isinstance(value, int) else value


def _feature_tallies(game: Game, figures: Sequence[Figure],
                     ) -> dict[int, tuple[list[str], Counter]]:
    """Per number of decks, the exact count of every combination of the features that the
    feature figures name: one pass over the round records instead of one per figure."""
    from exact.engines.compiled import compiled_for  # numpy: loaded when a deal is compiled

    wanted: dict[int, set[str]] = {}
    for figure in figures:
        if figure.features:
            unknown = sorted({name for name, _ in figure.features} - set(game.features))
            if unknown:
                raise ReportError(f"figure {figure.id}: unknown feature(s) {', '.join(unknown)}")
            wanted.setdefault(figure.decks, set()).update(n for n, _ in figure.features)
    tallies = {}
    for decks, names in wanted.items():
        ordered = sorted(names)
        distribution = compiled_for(game, game.needs(ordered)).distribution(Shoe.standard(decks))
        readers = [game.features[n].read for n in ordered]
        tally: Counter = Counter()
        for record, count in distribution.counts.items():
            tally[tuple(read(record) for read in readers)] += count
        tallies[decks] = (ordered, tally)
    return tallies


def _computed_figure(tallies: Mapping[int, tuple[list[str], Counter]], figure: Figure,
                     known: Mapping[str, Bet], analysis: GameAnalysis,
                     where: str) -> tuple[Fraction, str]:
    """The library's exact value of ``figure`` (in the figure's unit) and a row label."""
    per = f" per {grouped(figure.per)}" if figure.per else ""
    if figure.kind == "total":
        return Fraction(analysis.total), "total (denominator)"
    if figure.features:
        names, tally = tallies[figure.decks]
        positions = [(names.index(n), v) for n, v in figure.features]
        count = sum(c for key, c in tally.items() if all(key[i] == v for i, v in positions))
        label = ", ".join(f"{n} = {v}" for n, v in figure.features)
        if figure.kind == "feature_count":
            return figure.in_unit(count, analysis.total), f"{label}{per}"
        return Fraction(count, analysis.total), f"P({label})"
    if figure.bet is None or figure.bet not in known:
        raise ReportError(f"{where}: unknown bet {figure.bet!r}")
    bet_analysis = analysis.bets[figure.bet]
    if figure.paytable is not None and figure.paytable not in bet_analysis.bet.paytables:
        raise ReportError(f"{where}: bet {figure.bet!r} has no paytable {figure.paytable!r}")
    table = bet_analysis.table(figure.paytable)
    name = f"{table.name} ({table.paytable})"
    if figure.kind == "count":
        names = [e.name for e in bet_analysis.bet.events]
        if figure.event not in names:
            raise ReportError(f"{where}: bet {figure.bet!r} has no event {figure.event!r}")
        count = bet_analysis.counts[names.index(figure.event)]
        return figure.in_unit(count, analysis.total), f"{table.name}: {figure.event} (count{per})"
    if figure.kind == "house_edge":
        return table.house_edge, f"{name}: house edge (%)"
    if figure.kind == "house_edge_exact":
        return table.house_edge, f"{name}: house edge (exact)"
    if figure.kind == "return":
        return table.expected_value, f"{name}: return per unit"
    if figure.kind == "house_edge_resolved":
        if table.house_edge_per_resolved_bet is None:
            raise ReportError(f"{where}: bet {figure.bet!r} never resolves (it always pushes)")
        return table.house_edge_per_resolved_bet, f"{name}: edge per resolved bet (%)"
    return table.variance, f"{name}: standard deviation"  # rounded exactly from the variance


def brute_force_checks(game: Game, bets: Sequence[Bet], shoes: Sequence[Shoe],
                       reference_counts: Callable[[Shoe, Sequence[str]], Counter],
                       reference_features: Iterable[str]) -> dict[str, object]:
    """Event counts of the direct enumerator and of the engine the plan chooses (``auto``)
    against a card-by-card brute force on small shoes.
    ``reference_counts(shoe, names)`` counts rounds keyed by the tuple of the named features."""
    known = set(reference_features)
    covered = [bet for bet in bets if bet.features <= known]
    rows = []
    for shoe in shoes:
        names = sorted(set().union(*(bet.features for bet in covered)))
        brute = reference_counts(shoe, names)
        expected = {bet.id: [0] * len(bet.events) for bet in covered}
        for key, count in brute.items():
            values = dict(zip(names, key, strict=True))
            for bet in covered:
                expected[bet.id][bet.settle({n: values[n] for n in bet.features})] += count
        engines = {engine: analyze(game, shoe, covered, engine)
                   for engine in ("direct", "auto")}
        for bet in covered:
            rows.append({"shoe": f"{shoe.size} cards: {_composition(shoe)}", "bet": bet.name,
                         "brute_force": " / ".join(grouped(c) for c in expected[bet.id]),
                         "agrees": all(list(engines[e].bets[bet.id].counts) == expected[bet.id]
                                       for e in engines)})
    return {"rows": rows, "all_agree": all(r["agrees"] for r in rows),
            "not_covered": [bet.name for bet in bets if bet not in covered]}


def _composition(shoe: Shoe) -> str:
    from exact.core.cards import CARDS

    return " ".join(f"{card}×{count}" if count > 1 else str(card)
                    for card, count in zip(CARDS, shoe.counts, strict=True) if count)


def sums_check(by_decks: Mapping[int, GameAnalysis]) -> list[dict[str, object]]:
    """Every wager's event counts sum to the shoe's denominator, for every shoe."""
    rows = []
    for decks, analysis in sorted(by_decks.items()):
        summed = [sum(b.counts) for b in analysis.bets.values()]
        rows.append({"decks": str(decks), "denominator": grouped(analysis.total),
                     "bets": str(len(summed)),
                     "agrees": all(s == analysis.total for s in summed)})
    return rows


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
                             "result": s.result, "net": _net(s.net)}
                            for s in settled.settlements]}


def _net(amount: Fraction) -> str:
    """Display text.

    >>> _net(Fraction(19, 2)), _net(Fraction(-10)), _net(Fraction(0))
    ('+19/2 (+9.5)', '-10', '0')
    """
    text = ("+" if amount > 0 else "") + str(amount)
    if amount.denominator != 1:
        text += f" ({float(amount):+g})"
    return text


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

