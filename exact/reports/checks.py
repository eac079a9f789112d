"""The report sections that check the library: the published figures compared, the
brute-force twin on small shoes, and the sums every return table must make.

Layer: reports, above rendering; only the command line and the lab sit above it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from exact.analysis.bet_analysis import GameAnalysis, analyze
from exact.core.cards import Shoe
from exact.errors import PublishedFiguresError
from exact.model.bets import Bet
from exact.model.game import Game
from exact.reference.published import Figure
from exact.reference.published import load as load_published
from exact.render.numbers import grouped
from exact.reports import ReportError


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
        decks = _decks(figure)
        if decks not in cache:
            cache[decks] = analyze(game, Shoe.standard(decks), bets)
        computed, label = _computed_figure(tallies, figure, known, cache[decks], where)
        expressed = figure.expressed(computed)
        rows.append({"figure": label, "decks": str(decks),
                     "published": _published_text(figure.value),
                     "computed": _published_text(expressed), "agrees": expressed == figure.value})
    return {"source": published.source, "rows": rows,
            "all_agree": all(r["agrees"] for r in rows)}


def _decks(figure: Figure) -> int:
    """The figure's number of decks: a bet game's figures each have one (only a game's own
    keys, which the generic record of the bet games has none of, set a figure on none)."""
    if figure.decks is None:
        raise ReportError(f"figure {figure.id}: on no count of decks, no bet game's figure")
    return figure.decks


def _published_text(value: int | str) -> str:
    return grouped(value) if isinstance(value, int) else value


def _feature_tallies(game: Game, figures: Sequence[Figure],
                     ) -> dict[int, tuple[list[str], Counter]]:
    """Per number of decks, the exact count of every combination of the features that the
    feature figures name: one pass over the round records instead of one per figure."""
    from exact.engines.compiled_store import compiled_for  # numpy: loaded on compiling

    wanted: dict[int, set[str]] = {}
    for figure in figures:
        if figure.features:
            unknown = sorted({name for name, _ in figure.features} - set(game.features))
            if unknown:
                raise ReportError(f"figure {figure.id}: unknown feature(s) {', '.join(unknown)}")
            wanted.setdefault(_decks(figure), set()).update(n for n, _ in figure.features)
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
        names, tally = tallies[_decks(figure)]
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
            rows.append({"shoe": f"{shoe.size} cards: {composition(shoe)}", "bet": bet.name,
                         "brute_force": " / ".join(grouped(c) for c in expected[bet.id]),
                         "agrees": all(list(engines[e].bets[bet.id].counts) == expected[bet.id]
                                       for e in engines)})
    return {"rows": rows, "all_agree": all(r["agrees"] for r in rows),
            "not_covered": [bet.name for bet in bets if bet not in covered]}


def composition(shoe: Shoe) -> str:
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
