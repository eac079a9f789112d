"""The baccarat reports' shared pieces: the tableau as a grid, the hands of a round, the
report's decks, the worked examples and brute-force shoes of the coup (Punto Banco's report,
:mod:`exact.games.punto_banco.report`, and NINE & NINES', which adds its side wagers).

Layer: games, the top: the game's own reports code, which may import every generic layer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from exact.core.cards import Shoe
from exact.games.baccarat import reference as reference
from exact.games.baccarat.coup import DATA as COUP_DATA
from exact.games.baccarat.coup import STANDARD_RULES, PuntoBanco, hand_total
from exact.games.baccarat.dealer import PuntoBancoDealer, dealer_for
from exact.model.bets import Bet
from exact.render.numbers import decimal, grouped
from exact.reports import countability, sections, verification
from exact.reports.config import ReportConfig
from exact.reports.cover import Context

DECKS = 8
# Rounds shown card by card, in dealing order (Player, Banker, Player, Banker, third cards):
# a natural, both hands drawing, a tie, and the Banker drawing to win.
EXAMPLES = ("9H 5C 9D 2S", "2C KS AD 4D 5H 3C", "7H 6C KD AS", "TC 3H 7S 2D 4D")
# Small, odd shoes for the card-by-card brute force: few distinct cards keep it quick, and
# pairs, suits and colours all occur.
BRUTE_FORCE_SHOES = ("AS:2,5H:2,5D:1,9C:2,KH:2,KS:1", "2C:2,3H:1,4S:2,6D:2,8C:1,TH:2")
SIMULATION_SEED = 20261130


def coup_report_data(config: ReportConfig, context: Context, *, examples: Sequence[str],
                     published: Path, seed: int, family: Callable[[Bet], str]
                     ) -> tuple[dict[str, object], Shoe]:
    """The sections of a baccarat game's report that every game of the coup shares (the
    standard sections, countability, the tableau), with the report's shoe (by default
    :data:`DECKS` decks): a game gives its worked ``examples``, its ``published`` figures,
    its simulation ``seed`` and its charts' bet ``family``, and adds its own sections."""
    game = config.game
    assert isinstance(game, PuntoBanco)  # a game of the coup deals Punto Banco's rounds
    shoe = config.shoe or Shoe.standard(DECKS)
    dealer = dealer_for(game.rules)
    # the published figures and the brute force's tableau (written out from the seed) are the
    # standard tableau's: on another they would check the engines against another game, so
    # they are left out (and the report says so)
    seed_tableau = dealer is PuntoBancoDealer
    data = sections.standard_report_data(
        game, context, decks=report_decks(shoe), rule_set=(game.rules.id, game.rules.name),
        shoe=shoe, bets=config.bets, inputs=config.inputs,
        rule_files=[COUP_DATA / "rules.toml"] if game.rules == STANDARD_RULES else [],
        examples=examples, describe_hands=_hands,
        published=published if seed_tableau else None,
        reference=reference if seed_tableau else None,
        brute_force_shoes=[Shoe.parse(text) for text in BRUTE_FORCE_SHOES],
        verify=verification.for_context(context, dealer, seed, game.id), family=family)
    if not seed_tableau:
        data["other_tableau"] = True
        simulation = data.get("simulation")
        if isinstance(simulation, dict):
            simulation["rule_tableau"] = True
    data["countability"] = countability.for_report(game, config.bets, shoe, context, seed)
    data.update(tableau(game))
    return data, shoe


def tableau(game: PuntoBanco) -> dict[str, object]:
    """The rules as a lab reads them: the Banker's third-card tableau as a grid (rows: its
    two-card total, columns: the Player's third card, or "stood"), and the other rules as
    sentences (the grid replaces the "Banker on N, Player drew" lines).

    >>> from exact.games import get_game
    >>> grid = tableau(get_game("punto-banco"))["tableau"]
    >>> grid["rows"][3]["cells"], grid["rows"][7]["cells"][-1]
    (['D', 'D', 'D', 'D', 'D', 'D', 'D', 'D', 'S', 'D', 'D'], 'S')
    """
    rules = game.rules
    banker_totals = [t for t in range(10) if t not in rules.naturals]
    rows = [{"total": str(total),
             "cells": ["D" if card in rules.banker_draws_on_player_third.get(total, ()) else "S"
                       for card in range(10)]
             + ["D" if total in rules.banker_draws_when_player_stands else "S"]}
            for total in banker_totals]
    lines = [line for line in game.describe_rules() if not line.startswith("Banker on ")]
    return {"rules": lines, "tableau": {"cards": [str(card) for card in range(10)],
                                        "rows": rows}}


def report_decks(shoe: Shoe) -> int:
    """The decks the sensitivity tables mark as this report's: the shoe's own when it is a
    standard one, else the 8 decks it is compared with.

    >>> report_decks(Shoe.standard(6)), report_decks(Shoe.standard(6).remove("5"))
    (6, 8)
    """
    decks = shoe.size // 52
    return decks if decks and shoe == Shoe.standard(decks) else DECKS


def _hands(record) -> list[str]:
    def told(side: str, hand) -> str:
        cards = " ".join(f"{label.rank}{label.suit}" for label in hand)
        third = " (drew a third card)" if len(hand) == 3 else ""
        return f"{side}: {cards}, total {hand_total(hand)}{third}"

    return [told("Player", record[0]), told("Banker", record[1])]


def _final_totals(game: PuntoBanco, shoe: Shoe) -> dict[str, object]:
    """Appendix: exact count of every pair of final totals."""
    distribution = game.round_distribution(shoe, ["player_total", "banker_total"])
    counts: dict[tuple[object, object], int] = {}  # feature values: totals 0-9
    for record, count in distribution.counts.items():
        key = (game.read(record, "player_total"), game.read(record, "banker_total"))
        counts[key] = counts.get(key, 0) + count
    return {"total": grouped(distribution.total),
            "rows": [{"player": str(p), "banker": str(b), "count": grouped(counts.get((p, b), 0)),
                      "probability": decimal(counts.get((p, b), 0) / distribution.total)}
                     for p in range(10) for b in range(10)]}


def _cards_dealt(game: PuntoBanco, shoe: Shoe) -> list[dict[str, str]]:
    distribution = game.round_distribution(shoe, ["cards_dealt"])
    counts: dict[object, int] = {}  # the feature's value: 4, 5 or 6 cards
    for record, count in distribution.counts.items():
        dealt = game.read(record, "cards_dealt")
        counts[dealt] = counts.get(dealt, 0) + count
    return [{"cards": str(n), "count": grouped(c), "probability": decimal(c / distribution.total)}
            for n, c in sorted(counts.items())]
