"""The ``analyze century21`` report: outcomes, edges, strategy tables, table economics.

Layer: games, the top: the game's own render code, which may import every generic layer.

The JSON has the shape of every other game's (``toolkit``, ``game``, ``rules``, ``shoe``,
``counting_unit``, ``total``, ``bets`` with return tables and ``outcomes``) and adds
``strategy``, ``strategy_tables`` and ``economics``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from exact import __version__
from exact.analysis.statistics import BetTable
from exact.core.cards import Shoe
from exact.errors import ExactError
from exact.games.century21.economics import TableEconomics, table_economics
from exact.games.century21.game import (
    CLASS_NAMES,
    GameTable,
    Mode,
    PlayerSet,
    Result,
    Strategy,
    describe_set,
    game_table,
    set_order,
)
from exact.games.century21.rules import Rules
from exact.games.century21.solve import strategy_by_name
from exact.model.bets import format_pays
from exact.render.numbers import fixed, grouped
from exact.render.output import SIGN_CONVENTION, table_json


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
        count = (grouped(o.combinations) if isinstance(o.combinations, int)
                 else f"~{grouped(o.combinations, 1)}")
        lines.append(f"{o.event:28} {format_pays(o.pays):>5} {count:>26} "
                     f"{fixed(o.probability, 8):>12} {fixed(o.expected_return, 8, sign=True):>12}")
    lines.append(f"{'Total':28} {'':>5} {grouped(table.total):>26} {fixed(1, 8):>12} "
                 f"{fixed(table.expected_value, 8, sign=True):>12}")
    lines.append(f"Win {fixed(table.hit_frequency, 6)}, push {fixed(table.push_frequency, 6)}, "
                 f"loss {fixed(table.loss_frequency, 6)}; SD {fixed(table.standard_deviation, 6)}")
    return "\n".join(lines)


def strategy_text(table: GameTable, side: str, strategy: Strategy) -> str:
    """A strategy as aligned text: P(draw) (or P(end) at the dealer's check) per set."""
    lines = [f"{side.title()} strategy ({len(strategy)} option information sets)"]
    for row in table.strategy_table(side, strategy):
        probability = row["probability"]
        shown = ("always" if probability == 1 else "never" if probability == 0
                 else f"{fixed(probability, 6)} = {probability}")
        lines.append(f"  {row['information']:48} {row['action']:8} {shown}")
    return "\n".join(lines)


def player_grid_text(strategy: Strategy) -> str:
    """The player's strategy as a grid: own hand (rows) by the dealer's up card (columns);
    D = draw, S = stand, a number = P(draw) of a mixed choice."""
    player_sets = cast(dict[PlayerSet, dict[str, Fraction]], strategy)  # the player's sets
    ups = sorted({h.up for h in player_sets}, key=int)
    rows: dict[str, dict[object, str]] = {}
    for infoset, probabilities in sorted(player_sets.items(),
                                         key=lambda item: set_order(item[0])):
        own = describe_set(infoset).split(" v up ")[0].removeprefix("player ")
        draw = probabilities.get("draw", Fraction(0))
        rows.setdefault(own, {})[infoset.up] = ("D" if draw == 1 else "S" if draw == 0
                                                else fixed(draw, 3))
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


PAIR_WORDS = {
    "house": ("House Way", "House Way"),
    "best": ("each its best response to a House Way Player/Dealer", "House Way"),
    "dealer-best": ("House Way", "its heads-up best response to one House Way player"),
    "equilibrium": ("heads-up minimax", "heads-up minimax"),
}


def pair_words(strategy: str, players: int) -> str:
    """Both sides' strategies of ``--strategy`` in words, for the economics line."""
    seats, dealer = PAIR_WORDS[strategy]
    words = f"seats {seats}, Player/Dealer {dealer}"
    if players > 1 and strategy in ("dealer-best", "equilibrium"):
        words += (" (heads-up figures times the seats; the Player/Dealer's play against the "
                  "whole table: --seats)")
    return words


def economics_json(economics: TableEconomics) -> dict[str, Any]:
    def money(value: Fraction | None) -> str | None:
        return None if value is None else str(value)
    return {
        "counts": economics.describe(),
        "players": economics.players, "bet": str(economics.bet), "collection": str(economics.fee),
        "house_way_seats": economics.house_way_seats,
        "strategies": economics.strategies,
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
           collection: Fraction | None = None, mode: Mode = "total",
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
    # every seat its own player playing the chosen pair (rule 6 restricts only a player with
    # several spots); the Player/Dealer's play named (issue 29)
    economics = table_economics(table, players, bet, fee, dealer_wager=dealer_wager,
                                edge=result.edge, strategies=pair_words(strategy, players))
    from exact.games.century21.solve import deviation_gaps
    value, player_gain, dealer_gain = deviation_gaps(table, player, dealer)
    check = {"value": str(value), "player_gain_by_deviating": str(player_gain),
             "dealer_gain_by_deviating": str(dealer_gain),
             "equilibrium": player_gain == 0 and dealer_gain == 0}
    return {
        "toolkit": {"name": "exact", "version": __version__},
        "game": "century21",
        "game_name": "21st Century Baccarat",
        "rules": rules.describe(),
        "shoe": shoe.fields(),
        "counting_unit": counting_unit(shoe, result.total),
        "round_cards": 6,
        "total": result.total,
        "strategy": {"name": strategy, "player_information": mode},
        "sign_convention": SIGN_CONVENTION,
        "house_edge": str(-result.edge),
        "house_edge_float": float(-result.edge),
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
                  player_grid_text(player) + "\n\n" + strategy_text(table, "player", player),
                  strategy_text(table, "dealer", dealer)],
    }
