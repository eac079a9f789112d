"""The ``analyze century21`` report: outcomes, edges, strategy tables, table economics.

The JSON has the shape of every other game's (``toolkit``, ``game``, ``rules``, ``shoe``,
``counting_unit``, ``total``, ``bets`` with return tables and ``outcomes``) and adds
``strategy``, ``strategy_tables`` and ``economics``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from exact import __version__
from exact.bets import format_pays
from exact.cards import Shoe
from exact.errors import ExactError
from exact.games.century21 import (
    CLASS_NAMES,
    GameTable,
    Result,
    Strategy,
    describe_set,
    game_table,
    set_order,
)
from exact.games.century21_economics import TableEconomics, table_economics
from exact.games.century21_rules import Rules
from exact.games.century21_solve import strategy_by_name
from exact.output import json_text, table_json
from exact.parsing import parse_number
from exact.statistics import BetTable


def counting_unit(shoe: Shoe, total: int) -> str:
    return (f"ordered sequences of 6 cards dealt from the {shoe.size}-card shoe; "
            f"denominator {shoe.size}!/({shoe.size}-6)! = {total}")


def heads_up_table(result: Result, strategy: str) -> BetTable:
    """The player's bet as a return table: one event per (result, how, pay)."""
    rows = [(f"{kind}: {how.replace('_', ' ')}", pay, count)
            for kind, how, pay, count in result.by_how()]
    return BetTable.from_counts("player", "Player v Player/Dealer", strategy, rows, result.total)


def strategy_rows(table: GameTable, side: str, strategy: Strategy) -> list[dict[str, Any]]:
    return [{"information": row["information"], "action": row["action"],
             "probability": str(row["probability"]),
             "probability_float": float(row["probability"])}
            for row in table.strategy_table(side, strategy)]


def outcome_text(table: BetTable) -> str:
    """The player's return table; mixed strategies give expected (fractional) counts."""
    lines = [f"{'Event':28} {'Pays':>5} {'Combinations':>26} {'Probability':>12} {'Return':>12}"]
    for o in table.outcomes:
        count = (f"{o.combinations:,}" if isinstance(o.combinations, int)
                 else f"~{float(o.combinations):,.1f}")
        lines.append(f"{o.event:28} {format_pays(o.pays):>5} {count:>26} "
                     f"{float(o.probability):12.8f} {float(o.expected_return):+12.8f}")
    lines.append(f"{'Total':28} {'':>5} {table.total:>26,} {1:12.8f} "
                 f"{float(table.expected_value):+12.8f}")
    lines.append(f"Win {float(table.hit_frequency):.6f}, push {float(table.push_frequency):.6f}, "
                 f"loss {float(table.loss_frequency):.6f}; SD {table.standard_deviation:.6f}")
    return "\n".join(lines)


def strategy_text(table: GameTable, side: str, strategy: Strategy) -> str:
    """A strategy as aligned text: P(draw) (or P(end) at the dealer's check) per set."""
    lines = [f"{side.title()} strategy ({len(strategy)} option information sets)"]
    for row in table.strategy_table(side, strategy):
        probability = row["probability"]
        shown = ("always" if probability == 1 else "never" if probability == 0
                 else f"{float(probability):.6f} = {probability}")
        lines.append(f"  {row['information']:48} {row['action']:8} {shown}")
    return "\n".join(lines)


def player_grid_text(table: GameTable, strategy: Strategy) -> str:
    """The player's strategy as a grid: own hand (rows) by the dealer's up card (columns);
    D = draw, S = stand, a number = P(draw) of a mixed choice."""
    ups = sorted({h.up for h in strategy}, key=int)
    rows: dict[str, dict[object, str]] = {}
    for infoset, probabilities in sorted(strategy.items(), key=lambda item: set_order(item[0])):
        own = describe_set(infoset).split(" v up ")[0].removeprefix("player ")
        draw = probabilities.get("draw", Fraction(0))
        rows.setdefault(own, {})[infoset.up] = ("D" if draw == 1 else "S" if draw == 0
                                                else f"{float(draw):.3f}")
    width = max([len(own) for own in rows] + [4])
    head = " ".join(f"{CLASS_NAMES[u]:>5}" for u in ups)
    lines = ["Player's option hands by the dealer's up card (D draw, S stand, else P(draw))",
             f"  {'hand':{width}} {head}"]
    for own, cells in rows.items():
        lines.append(f"  {own:{width}} " + " ".join(f"{cells.get(u, '-'):>5}" for u in ups))
    return "\n".join(lines)


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def economics_json(economics: TableEconomics) -> dict[str, Any]:
    def money(value: Fraction | None) -> str | None:
        return None if value is None else str(value)
    return {
        "counts": economics.describe(),
        "players": economics.players, "bet": str(economics.bet), "collection": str(economics.fee),
        "house_way_seats": economics.house_way_seats,
        "checking_seats": 1 if economics.checking else 0,
        "dealer_wager": money(economics.dealer_wager), "action_reading": economics.reading,
        "action_fraction_per_seat": str(economics.action_fraction),
        "seats_in_action": str(economics.seats_in_action),
        "dealer_edge_per_unit_per_seat_counted": str(economics.dealer_edge_per_unit),
        "dealer_collection": str(economics.dealer_fee), "action": economics.action,
        "covered": economics.covered,
        "player_net_per_hand": money(economics.player_net),
        "checking_player_net_per_hand": money(economics.checker_net),
        "dealer_gross_per_hand": money(economics.dealer_gross),
        "dealer_net_per_hand": money(economics.dealer_net),
        "house_collection_per_hand": money(economics.house_collection),
        "dealer_break_even_bet_per_player": money(economics.dealer_break_even_bet),
        "player_break_even_bet": money(economics.player_break_even_bet),
        "checking_player_break_even_bet": money(economics.checker_break_even_bet),
    }


def report(rules: Rules, shoe: Shoe, strategy: str = "house", bet: Fraction | int = 10,
           collection: Fraction | None = None, mode: str = "total",
           players: int = 1, dealer_wager: Fraction | None = None) -> dict[str, Any]:
    """Everything ``analyze century21`` prints, as plain JSON-ready data."""
    table = game_table(rules, shoe, mode)
    player, dealer = strategy_by_name(table, strategy)
    result = table.evaluate(player, dealer)
    fee = rules.collection_fee(bet) if collection is None else collection
    if fee < 0:
        raise ExactError(f"--collection {fee}: the collection cannot be negative")
    bet_table = heads_up_table(result, strategy)
    # a mixed strategy gives expected (fractional) combinations wherever counts appear
    main = _plain(table_json(bet_table))
    main["description"] = "one player against the Player/Dealer, per unit bet"
    main["alternative_paytables"] = {}
    economics = table_economics(table, players, bet, fee, checking=True,
                                dealer_wager=dealer_wager)
    from exact.games.century21_solve import deviation_gaps
    value, player_gain, dealer_gain = deviation_gaps(table, player, dealer)
    check = {"value": str(value), "player_gain_by_deviating": str(player_gain),
             "dealer_gain_by_deviating": str(dealer_gain),
             "equilibrium": player_gain == 0 and dealer_gain == 0}
    return {
        "toolkit": {"name": "exact", "version": __version__},
        "game": "century21",
        "game_name": "21st Century Baccarat",
        "rules": rules.describe(),
        "shoe": {"cards": shoe.size, "description": shoe.describe()},
        "counting_unit": counting_unit(shoe, result.total),
        "round_cards": 6,
        "total": result.total,
        "strategy": {"name": strategy, "player_information": mode},
        "player_edge": str(result.edge),
        "player_edge_float": float(result.edge),
        "bet": str(Fraction(bet)),
        "collection": str(fee),
        "player_edge_with_collection": str(result.edge_with_collection(bet, fee)),
        "player_edge_with_collection_float": float(result.edge_with_collection(bet, fee)),
        "bets": {"player": main},
        "strategy_tables": {"player": strategy_rows(table, "player", player),
                            "dealer": strategy_rows(table, "dealer", dealer)},
        "economics": economics_json(economics),
        "deviation_check": check,
        "_table": bet_table,
        "_text": [outcome_text(bet_table),
                  player_grid_text(table, player) + "\n\n" + strategy_text(table, "player", player),
                  strategy_text(table, "dealer", dealer)],
    }


def run_cli(game, args) -> str:
    """``exact analyze century21 [--strategy ...] [--bet-size 10] [--collection 1] ...``."""
    from exact.shoe_options import options_shoe

    rules = Rules.load(args.rules) if getattr(args, "rules", None) else game.rules
    # the same shoe as eor/edge century21: the rules' jokers stay unless --jokers/--shoe
    shoe = options_shoe(args, rules.decks, rules.jokers)
    # --bet AMOUNT is the old spelling of --bet-size here (--bet is a bet id elsewhere)
    sizes = [("--bet", size) for size in args.bet or []]
    if getattr(args, "bet_size", None) is not None:
        sizes.append(("--bet-size", args.bet_size))
    if len(sizes) > 1:
        raise ExactError("century21: give one --bet-size (the bet per seat)")
    bet = _number(*sizes[0]) if sizes else rules.table.min_bet
    if bet <= 0:
        raise ExactError(f"{sizes[0][0]} {bet}: the bet must be positive")
    fee = None if args.collection is None else _number("--collection", args.collection)
    dealer_wager = getattr(args, "dealer_wager", None)
    data = report(rules, shoe, args.strategy, bet, fee, args.information, args.players,
                  None if dealer_wager is None else _number("--dealer-wager", dealer_wager))
    text = data.pop("_text")
    bet_table = data.pop("_table")
    if getattr(args, "xlsx", None):
        from exact.spreadsheet import heading_lines, workbook_bytes, write_bytes

        write_bytes(Path(args.xlsx), workbook_bytes(
            "21st Century Baccarat", heading_lines(shoe, data["counting_unit"]), [bet_table]))
        if not (args.json or args.output):
            return ""
    if args.json:
        return json_text(data)
    if args.csv:
        raise ExactError("century21: --csv is not supported; use --json")
    head = [f"21st Century Baccarat: {shoe.describe()} ({shoe.size} cards)",
            *(f"  {line}" for line in data["rules"]),
            f"Counting unit: {data['counting_unit']}",
            f"Strategy: {args.strategy} (player decides by its two-card "
            f"{args.information} and the up card)", ""]
    economics = data["economics"]
    tail = [
        f"Player's edge per unit bet: {data['player_edge_float'] * 100:+.4f}% = "
        f"{data['player_edge']}",
        f"With a {data['collection']} collection on a {data['bet']} bet: "
        f"{data['player_edge_with_collection_float'] * 100:+.4f}% of the bet",
        f"Table of {economics['counts']}: Player/Dealer nets "
        f"{float(Fraction(economics['dealer_net_per_hand'])):+.4f} per hand; break-even bet "
        f"per player against the same seats, all in action: "
        f"{_shown(economics['dealer_break_even_bet_per_player'])}",
        "Exact deviation check: player gains "
        f"{float(Fraction(data['deviation_check']['player_gain_by_deviating'])):.3g}, dealer "
        f"gains {float(Fraction(data['deviation_check']['dealer_gain_by_deviating'])):.3g} "
        "per unit bet" + (" (an exact equilibrium)" if data["deviation_check"]["equilibrium"]
                          else ""), ""]
    return "\n".join(head + [text[0], "", *tail, text[1], "", text[2], ""])


def _shown(value: str | None) -> str:
    return "never" if value is None else f"{float(Fraction(value)):.2f} ({value})"


def _number(option: str, text: str) -> Fraction:
    return parse_number(text, "fee" if option == "--collection" else "bet", option)
