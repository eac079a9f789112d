"""The 21st Century Baccarat report's data. The game has no bet file: its analysis is a
strategy analysis of one player against the Player/Dealer (:mod:`exact.games.century21.game`), so
this module builds its own sections from the game table (strategy pairs, return tables by how
the hand was decided, strategy tables and maps, table economics, statistics, sensitivity to
rule options, verification) and reuses the shared cover, formatting and intervals.

Layer: games, the top: the game's own reports code, which may import every generic layer.

The template is ``exact/reports/templates/century21.typ``.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from fractions import Fraction
from types import ModuleType
from typing import Any

from exact.analysis.assumptions import report_assumptions
from exact.analysis.statistics import BetTable
from exact.analysis.verification import ROUNDS, Z_LIMIT
from exact.core.cards import Shoe
from exact.core.parsing import parse_number
from exact.errors import ExactError
from exact.games.century21 import dealer as century21_dealer
from exact.games.century21 import reference as century21_reference
from exact.games.century21.dealer import HouseWayRules
from exact.games.century21.economics import table_economics
from exact.games.century21.game import (
    CLASS_NAMES,
    Century21,
    GameTable,
    Result,
    Strategy,
    describe_set,
    game_table,
    set_order,
)
from exact.games.century21.render import counting_unit, heads_up_table
from exact.games.century21.rules import DATA, DEFAULT_RULES, Rules
from exact.games.century21.solve import Equilibrium, deviation_gaps, equilibrium
from exact.games.century21.table import CircleWager, settle_table
from exact.render.numbers import decimal, fixed, grouped, net, pays_text, percent, signed
from exact.render.output import SIGN_CONVENTION
from exact.reports import ReportError, charts, checks, sections
from exact.reports.config import ReportConfig
from exact.reports.cover import Context
from exact.reports.verification import ROUNDS_VARIABLE, WORKERS_VARIABLE, setting, z_text

STRATEGIES = {
    "house": ("House Way", "House Way", "Both sides play House Way"),
    "best": ("Best response", "House Way",
             "The player's exact best response to the dealer's House Way"),
    "dealer-best": ("House Way", "Best response",
                    "The dealer's exact best response to the player's House Way"),
    "equilibrium": ("Equilibrium", "Equilibrium", "Minimax strategies of both sides (mixed)"),
}
BET, FEE = 10, 1  # the seed's example table: $10 bet, $1 collection
# a table whose action exceeds the Player/Dealer's wager: 6 seats of $100 against $300
LIMITED = (6, 100, 300)
PLAYERS = (1, 2, 3, 4, 5, 6, 7)
DECKS = (1, 2, 4, 6, 8)
NATURAL_PAYS = (1, 2, 3, 5, 10)
# Hands at a table, settled by exact.games.century21.table: (dealer's cards with the up card
# first, seats' cards, wagers as (seat, circle, amount), the Player/Dealer's wager).
EXAMPLES = (
    ("9H 7C", {1: "X 2S", 2: "5D KS 3C"}, ((1, 1, 10), (1, 2, 20), (2, 1, 10)), 100),
    ("9C KD", {1: "X X", 2: "KH KC", 3: "4S 5S"}, ((1, 1, 10), (2, 1, 10), (3, 1, 10)), 30),
    ("KC KD TD", {1: "KH QH JH"}, ((1, 1, 10),), 10),
    ("KH 7C", {1: "9S KD", 2: "8C KD"}, ((1, 1, 50), (2, 1, 60)), 100),
    # the table's action exceeds the Player/Dealer's wager: seat by seat from the dice's seat 3
    ("KH 7C", {1: "KC QD 5S", 2: "3C KH 9S", 3: "9S KD", 4: "8C KD", 5: "KC 4D 2S",
               6: "9H KS"}, tuple((seat, 1, 100) for seat in range(1, 7)), 300, 3),
)
TINY_SHOE = "A:1,2:1,5:1,6:2,9:1,K:2,X:2"  # ten cards, two jokers (tests/games/test_century21.py)
SIMULATION_SEED = 20261130
HOW = {"higher_total": "higher total", "natural": "Natural (two jokers)",
       "natural_push": "Natural against Natural", "tie": "tie", "dealer_natural":
       "dealer's Natural", "dealer_nine": "dealer's 9 ends the deal",
       "lower_total": "lower total", "ties_on_zero": "tie on 0 (dealer wins)"}


def _stake(config: ReportConfig, option: str, quantity: str) -> Fraction | None:
    """``--bet-size`` (positive) or ``--collection`` (at least 0) of the report's settings,
    exactly; None if not given (checked before any work)."""
    text = dict(config.settings).get(option)
    if text is None:
        return None
    flag = "--" + option.replace("_", "-")
    # the option's type read it by the number grammar already; a library caller may give text
    amount = Fraction(text) if isinstance(text, int | Fraction) else Fraction(
        parse_number(text, quantity, where=flag))
    if quantity == "bet" and amount <= 0:
        raise ExactError(f"{flag} {amount}: the bet must be positive")
    return amount


def report_data(config: ReportConfig, context: Context) -> dict[str, object]:
    """The report of the configuration's rules (``--rules``: the game's rules as loaded)."""
    game = config.game
    assert isinstance(game, Century21)
    given_bet, given_fee = _stake(config, "bet_size", "bet"), _stake(config, "collection", "fee")
    rules = game.rules
    shoe = Shoe.standard(rules.decks, rules.jokers)
    table = game_table(rules, shoe)
    found = equilibrium(table)
    pairs = strategy_pairs(table, found)
    files = [DATA / "rules.toml"] if rules == DEFAULT_RULES else []
    files += config.inputs
    # the rule text's example table unless a bet is given (its fee: the rules' table tag)
    bet = Fraction(BET) if given_bet is None else given_bet
    fee = (given_fee if given_fee is not None else Fraction(FEE) if given_bet is None
           else Fraction(rules.collection_fee(bet)))
    cover = sections.cover(game, shoe, [], files, context)
    results = {name: table.evaluate(*pair) for name, pair in pairs.items()}
    tables = {name: heads_up_table(results[name], name) for name in pairs}
    data: dict[str, object] = {
        "cover": cover,
        "rules": rules.describe(),
        "assumptions": report_assumptions(game),
        "rules_id": rules.id,
        "rules_name": rules.name,
        "sign_convention": SIGN_CONVENTION,
        "options": options(rules),
        "decks": str(rules.decks), "jokers": str(rules.jokers), "cards": str(shoe.size),
        "round_cards": "6",
        "denominator": grouped(table.total),
        "denominator_product": "·".join(str(shoe.size - k) for k in range(6)),
        "bet": _amount(bet), "fee": _amount(fee),
        "summary": [summary_row(name, results[name], tables[name], bet, fee)
                    for name in pairs],
        "examples": [example(rules, *hand) for hand in EXAMPLES],
        "returns": [return_table(name, tables[name]) for name in pairs],
        "strategies": strategy_tables(table, pairs),
        "strategy_map": strategy_map(table, pairs, context),
        "economics": economics(table, bet, fee),
        "full_table": full_table(rules, shoe),
        "statistics": statistics(tables),
        "sensitivity": sensitivity(rules, context),
        "verification": verification(table, found, results, context),
    }
    sections.par_sheet(context, game.name, shoe, counting_unit(shoe, table.total),
                       list(tables.values()))
    return data


def _amount(amount: Fraction) -> str:
    """A stake as the report prints it.

    >>> _amount(Fraction(10)), _amount(Fraction(25, 2))
    ('10', '12.5')
    """
    return str(amount.numerator) if amount.denominator == 1 else f"{float(amount):g}"


# --- strategies and their results ----------------------------------------------------------------
def strategy_pairs(table: GameTable, found: Equilibrium,
                   ) -> dict[str, tuple[Strategy, Strategy]]:
    """House Way, the two best responses and the equilibrium ``found``."""
    player, dealer = table.house_way()
    return {"house": (player, dealer), "best": (table.player_best_response(dealer), dealer),
            "dealer-best": (player, table.dealer_best_response(player)),
            "equilibrium": (found.player, found.dealer)}


def summary_row(name: str, result: Result, table: BetTable, bet: Fraction = Fraction(BET),
                fee: Fraction = Fraction(FEE)) -> dict[str, str]:
    """One strategy pair's headline figures. Signs: the house edge is minus the player's
    expected result per unit bet (positive: the player loses to the Player/Dealer), as
    ``exact analyze century21`` prints it."""
    player, dealer, meaning = STRATEGIES[name]
    with_fee = -result.edge_with_collection(bet, fee)
    return {"id": name, "player": player, "dealer": dealer, "meaning": meaning,
            "house_edge": percent(-result.edge, 4, True),
            "house_edge_exact": str(-result.edge),
            "win": percent(result.probability("win"), 3),
            "push": percent(result.probability("push"), 3),
            "loss": percent(result.probability("loss"), 3),
            "sd": fixed(table.standard_deviation, 4),
            "house_edge_with_collection": percent(with_fee, 4, True)}


def return_table(name: str, table: BetTable) -> dict[str, object]:
    """Player's return per unit bet by result and how the hand was decided. Mixed strategies
    give expected counts (exact fractions), shown as decimals."""
    def count_text(value: Fraction | int) -> str:
        if isinstance(value, int):
            return grouped(value)
        return f"≈ {grouped(value, 1)}"

    rows = []
    for o in table.outcomes:
        result, _, how = o.event.partition(": ")
        key = how.replace(" ", "_")
        rows.append({"result": result, "how": HOW.get(key, how), "pays": pays_text(
            o.pays), "combinations": count_text(o.combinations),
            "probability": decimal(o.probability), "return": decimal(o.expected_return)})
    return {"id": name, "title": STRATEGIES[name][2], "rows": rows,
            "exact_counts": all(isinstance(o.combinations, int) for o in table.outcomes),
            "total": grouped(table.total), "return": decimal(table.expected_value),
            "house_edge": percent(-table.expected_value, 6, True),
            "house_edge_exact": str(-table.expected_value)}


def options(rules: Rules) -> list[dict[str, str]]:
    """Every rule option with its value, as the rule file names it.

    >>> [(o["option"], o["value"]) for o in options(DEFAULT_RULES)][2:5]
    [('decks', '8'), ('jokers', '8'), ('joker_values', '0, 1, 2, 3, 4, 5, 6, 7, 8, 9')]
    """
    def shown(value: object) -> str:
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            return "; ".join(f"{t.min_bet}–{t.max_bet}, fee {t.fee}" for t in value)
        if isinstance(value, tuple):
            return ", ".join(map(str, value))
        if isinstance(value, dict):
            return ", ".join(f"{k}: {v}" for k, v in sorted(value.items())) or "none"
        return str(value).lower() if isinstance(value, bool) else str(value)

    return [{"option": field.name, "value": shown(getattr(rules, field.name))}
            for field in dataclasses.fields(rules)]


def example(rules: Rules, dealer: str, seats: dict[int, str],
            wagers: tuple[tuple[int, int, int], ...], dealer_wager: int,
            dice: int | None = None) -> dict[str, object]:
    hand = settle_table(rules, dealer, seats, [CircleWager(*w) for w in wagers],
                        dealer_wager=dealer_wager, dice_start=dice)
    return {"dealer": dealer, "seats": [f"seat {s}: {c}" for s, c in seats.items()],
            "dealer_wager": str(dealer_wager), "action": hand.action,
            "order": ", ".join(map(str, hand.order)), "reading": hand.reading,
            "rows": [{"wager": s.wager.bet, "stake": str(s.wager.amount),
                      "event": s.event.replace("_", " "), "reason": s.reason.split(": ", 1)[-1],
                      "net": net(s.net),
                      "collection": str(hand.collections.get(s.wager.bet, 0))}
                     for s in hand.settlements],
            "dealer_net": net(hand.dealer_net),
            "house_collection": str(hand.house_collection),
            "credits": ", ".join(hand.free_collection_credits)}


def strategy_tables(table: GameTable, pairs: Mapping[str, tuple[Strategy, Strategy]]
                    ) -> dict[str, object]:
    """P(draw) (or P(end) at the dealer's check) per information set, per strategy."""
    out: dict[str, object] = {}
    for side, index, names in (("player", 0, ("house", "best", "equilibrium")),
                               ("dealer", 1, ("house", "dealer-best", "equilibrium"))):
        rows: dict[str, dict[str, Any]] = {}
        for name in names:
            for row in table.strategy_table(side, pairs[name][index]):
                probability: Fraction = row["probability"]
                if probability not in (0, 1):
                    shown = fixed(probability, 4)
                elif row["action"] == "end":
                    shown = "end" if probability == 1 else "continue"
                else:
                    shown = "draw" if probability == 1 else "stand"
                entry = rows.setdefault(row["information"], {"information": str(
                    row["information"]).removeprefix(side + " "), "cells": [], "exact": ""})
                entry["cells"].append(shown)
                if probability not in (0, 1) and not entry["exact"]:
                    entry["exact"] = str(probability)
        out[side] = {"columns": [STRATEGIES[n][index] for n in names],
                     "rows": list(rows.values())}
    return out


def strategy_map(table: GameTable, pairs, context: Context) -> str:
    """Chart: the player's P(draw) by own hand (rows) and the dealer's up card (columns)."""
    panels = []
    hands: list[str] = []
    ups = sorted({h.up for h in table.player_sets})
    for name in ("house", "best", "equilibrium"):
        player = pairs[name][0]
        grid: dict[str, dict[object, float]] = {}
        for infoset in sorted(table.player_sets, key=set_order):
            own = describe_set(infoset).split(" v up ")[0].removeprefix("player ")
            grid.setdefault(own, {})[infoset.up] = float(player[infoset].get("draw", 0))
        hands = list(grid)
        panels.append({"title": f"{STRATEGIES[name][0]} (player)",
                       "values": [[grid[h].get(u, float("nan")) for u in ups] for h in hands]})
    labels = [CLASS_NAMES[u] for u in ups]
    return charts.strategy_map(hands, labels, panels, context.out_dir / "strategy-map.svg")


# --- economics, statistics, sensitivity ---------------------------------------------------------
def full_table(rules: Rules, shoe: Shoe) -> dict[str, object]:
    """The full table (issue 29): each position's dice share and net with 7 House Way seats
    of 100 against a 300 Player/Dealer; the Player/Dealer's exact best response to 1 and 2
    covered seats of 10 (it sees which seats drew) against its House Way."""
    from exact.games.century21.table_economics import table_figures

    seats = table_figures(rules, shoe, [LIMITED[1]] * 7, "house", LIMITED[2], exact_pairs=False)
    positions = [{"seat": str(i + 1), "position": str(i + 2),
                  "share": fixed(seats.expected_action[i] / seats.wagers[i], 4),
                  "exact": str(seats.expected_action[i] / seats.wagers[i]),
                  "net": signed(seats.seat_net[i])} for i in range(7)]
    best = []
    for n in (1, 2):
        # the means only: the exact two-seat distribution is analyze --seats's
        house = table_figures(rules, shoe, [Fraction(BET)] * n, "house", exact_pairs=False)
        found = table_figures(rules, shoe, [Fraction(BET)] * n, "dealer-best",
                              exact_pairs=False)
        best.append({"seats": str(n), "house": signed(house.dealer_net),
                     "best": signed(found.dealer_net),
                     "edge": percent(found.seat_edges[0], 4, sign=True)})
    return {"positions": positions, "dealer_net": signed(seats.dealer_net),
            "bet": str(LIMITED[1]), "dealer_wager": str(LIMITED[2]), "best": best,
            "best_bet": str(BET)}


def economics(table: GameTable, bet: Fraction = Fraction(BET),
              fee: Fraction = Fraction(FEE)) -> dict[str, object]:
    rows = []
    for players in PLAYERS:
        e = table_economics(table, players, bet, fee, checking=False)
        rows.append({"players": str(players),
                     "player_net": signed(e.player_net), "dealer_gross": signed(e.dealer_gross),
                     "dealer_net": signed(e.dealer_net), "house": signed(e.house_collection),
                     "break_even": ("never" if e.dealer_break_even_bet is None
                                    else fixed(e.dealer_break_even_bet, 2))})
    first = table_economics(table, 1, bet, fee, checking=True)
    limited = []
    for reading in ("seat-by-seat", "whole-hand"):
        e = table_economics(table, LIMITED[0], LIMITED[1], checking=False,
                            dealer_wager=LIMITED[2], reading=reading)
        limited.append({"reading": reading, "fraction": str(e.action_fraction),
                        "seats": str(e.seats_in_action), "player_net": signed(e.player_net),
                        "dealer_gross": signed(e.dealer_gross),
                        "dealer_net": signed(e.dealer_net), "house": signed(e.house_collection)})
    return {"bet": _amount(bet), "fee": _amount(fee), "rows": rows, "limited": limited,
            "limited_players": str(LIMITED[0]), "limited_bet": str(LIMITED[1]),
            "limited_dealer_wager": str(LIMITED[2]),
            "limited_fee": str(table.rules.collection_fee(LIMITED[1])),
            "default_reading": table.rules.action,
            "player_break_even": ("never (the house edge is positive)"
                                  if first.player_break_even_bet is None
                                  else fixed(first.player_break_even_bet, 2)),
            "checker_net": signed(first.checker_net)}


def statistics(tables: dict[str, BetTable]) -> dict[str, object]:
    bets = []
    for name, table in tables.items():
        bets.append({
            "strategy": STRATEGIES[name][2],
            "mean": decimal(table.expected_value), "mean_exact": str(table.expected_value),
            "variance": decimal(table.variance), "variance_exact": str(table.variance),
            "sd": fixed(table.standard_deviation, 10), **sections.interval_rows(table)})
    return {**sections.interval_key(), "bets": bets}


def _edges(rules: Rules, shoe: Shoe) -> tuple[Fraction, Fraction]:
    """The house edges (minus the player's expected result) of House Way and of the
    equilibrium, exact."""
    table = game_table(rules, shoe)
    return -table.value(*table.house_way()), -equilibrium(table).value


def sensitivity(rules: Rules, context: Context) -> dict[str, object]:
    decks = [(n, *_edges(rules, Shoe.standard(n, n))) for n in DECKS]  # (decks, house, value)
    shoe = Shoe.standard(rules.decks, rules.jokers)
    variants = [("Natural pays " + f"{pay} to 1", rules.replace(natural_pays=Fraction(pay)))
                for pay in NATURAL_PAYS]
    variants += [
        ("Ties on 0 " + ("push" if rules.dealer_wins_ties_on_zero else "dealer wins"),
         rules.replace(dealer_wins_ties_on_zero=not rules.dealer_wins_ties_on_zero)),
        ("A two-card 9 beats a three-card 9",
         rules.replace(three_card_nine_pushes_two_card_nine=False)),
        ("Third cards dealt face up", rules.replace(third_cards_face_up=True)),
        ("Drawn joker wild (not a 9)", rules.replace(drawn_joker_is_nine=False)),
    ]
    rows = []
    for label, changed in variants:
        house, value = _edges(changed, shoe)
        rows.append({"rule": label, "house": percent(house, 4, True),
                     "equilibrium": percent(value, 4, True), "default": changed == rules})
    chart = charts.edge_against_decks_lines(
        [n for n, _, _ in decks],
        {"House Way": [float(house) * 100 for _, house, _ in decks],
         "Equilibrium": [float(value) * 100 for _, _, value in decks]},
        context.out_dir / "decks.svg")
    return {"decks": [{"label": f"{n} + {n}", "house": percent(house, 4, True),
                       "house_exact": str(house),
                       "equilibrium": percent(value, 4, True)} for n, house, value in decks],
            "rules": rows, "chart": chart}


# --- verification ---------------------------------------------------------------------------------
def verification(table: GameTable, found: Equilibrium, results: dict[str, Result],
                 context: Context) -> dict[str, object]:
    size = table.shoe.size
    product = 1
    for k in range(6):
        product *= size - k
    sums = [{"strategy": STRATEGIES[name][2], "sum": _count_sum(r), "agrees":
             sum(Fraction(c) for c in r.counts.values()) == product == r.total}
            for name, r in results.items()]
    # recomputed here, not taken from the solver: both best responses against the equilibrium
    value, player_gain, dealer_gain = deviation_gaps(table, found.player, found.dealer)
    out: dict[str, object] = {
        "product": grouped(product), "sums": sums,
        "equilibrium": {"value": str(value), "value_percent": percent(value, 6, True),
                        "lp_value": fixed(found.lp_value, 12),
                        "player_gain": str(player_gain), "dealer_gain": str(dealer_gain),
                        "agrees": player_gain == 0 and dealer_gain == 0},
    }
    out["brute_force"] = brute_force(century21_reference)
    out["simulation"] = simulation(house_way_rules(table.rules), results["house"], context)
    return out


def _count_sum(result: Result) -> str:
    summed = sum(Fraction(c) for c in result.counts.values())
    return grouped(int(summed)) if summed.denominator == 1 else str(summed)


def brute_force(reference: ModuleType) -> dict[str, object]:
    """House Way on a ten-card shoe with two jokers: the engine against the reference's
    card-by-card deal of every ordered sequence of physical cards."""
    shoe = Shoe.parse(TINY_SHOE)
    table = game_table(DEFAULT_RULES, shoe)
    engine = dict(table.evaluate(*table.house_way()).counts)
    cards = [v for v, count in enumerate(shoe.by_value()) for _ in range(count)]
    cards += [reference.X] * shoe.jokers
    brute = dict(reference.brute_force(cards))
    keys = sorted(set(engine) | set(brute), key=lambda k: (-k[1], k[0]))
    return {"shoe": checks.composition(shoe), "cards": str(shoe.size),
            "rows": [{"how": HOW.get(how, how), "pays": pays_text(pay),
                      "brute_force": grouped(brute.get((how, pay), 0)),
                      "engine": grouped(engine.get((how, pay), 0)),
                      "agrees": brute.get((how, pay), 0) == engine.get((how, pay), 0)}
                     for how, pay in keys],
            "all_agree": brute == engine}


def house_way_rules(rules: Rules) -> HouseWayRules:
    """The options the verification dealer plays, as plain values (it does not read the
    game's rules object: :mod:`exact.games.century21.dealer`), the same names; the shoe is
    the rules' decks and jokers, as the report's."""
    values = {f.name: getattr(rules, f.name) for f in dataclasses.fields(HouseWayRules)}
    values["joker_values"] = tuple(rules.joker_values)
    values["win_pays_by_total"] = tuple(sorted(rules.win_pays_by_total.items()))
    try:
        return HouseWayRules(**values)
    except ExactError as error:
        raise ReportError(f"verification simulation: {error}") from None

def simulation(rules: HouseWayRules, result: Result, context: Context,
               seed: int = SIMULATION_SEED) -> dict[str, object]:
    """House Way hands dealt by the independent numpy dealer, each from a freshly shuffled
    shoe (what the exact figure means: one hand from the full shoe), against the exact house
    edge of ``result``: the z-score, "disagrees" beyond |z| = Z_LIMIT as in the other reports,
    and each pay's simulated frequency against its exact probability. The hands are the
    context's (``EXACT_REPORT_ROUNDS``, else 10^8), on the context's workers."""
    hands = setting(context.rounds, ROUNDS_VARIABLE, ROUNDS, "simulated-rounds")
    workers = setting(context.workers, WORKERS_VARIABLE, 1, "workers")
    try:
        found = century21_dealer.simulate(rules, hands, seed, workers=workers)
    except ExactError as error:
        raise ReportError(f"verification simulation: {error}") from None
    print(f"century21: House Way verification simulation of {grouped(found.hands)} hands "
          f"in {fixed(found.seconds, 1)} s: {fixed(found.rate / 1e6, 2)} million hands/s on "
          f"{workers} worker(s)", file=sys.stderr, flush=True)
    by_pay: dict[Fraction, Fraction] = {}
    for (_how, pay), count in result.counts.items():
        by_pay[pay] = by_pay.get(pay, Fraction(0)) + Fraction(count) / result.total
    checked = century21_dealer.check(found, by_pay)
    dealt = dict(zip(found.pays, (int(n) for n in found.counts.sum(axis=0)), strict=True))
    pays = [{"pays": pays_text(pay), "exact": decimal(by_pay.get(pay, Fraction(0))),
             "simulated": decimal(Fraction(dealt.get(pay, 0), found.hands)),
             "hands": grouped(dealt.get(pay, 0))}
            for pay in sorted(set(by_pay) | set(dealt), reverse=True)]
    return {"rounds": grouped(found.hands), "asked": grouped(hands), "seed": str(seed),
            "shoe": f"{rules.decks} decks + {rules.jokers} jokers",
            "cards": str(century21_dealer.shoe_classes(rules).size),
            "jobs": str(found.counts.shape[0]),
            "exact": percent(checked.exact, 4, True), "exact_fraction": str(checked.exact),
            "simulated": percent(checked.simulated, 4, True),
            "error": percent(Fraction(checked.error), 4), "z": z_text(checked.z),
            "limit": str(Z_LIMIT), "agrees": checked.agrees, "pays": pays}

