"""The commands of the toolkit's own module: ``analyze`` (a bet game's return tables, by one
shoe or by numbers of decks side by side), ``design``, ``list-bets``, ``features`` and
``games``; a strategy game's own ``analyze`` is its plugin's.

Layer: cli, the top (beside the lab); it may import every layer below.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from exact.analysis.bet_analysis import analyze, game_bets
from exact.cli.configuration import selected_bets, with_tables
from exact.cli.messages import written
from exact.cli.shoe_options import options_shoe
from exact.core.parsing import shown, suggestion
from exact.errors import ExactError
from exact.model.bets import format_pays
from exact.model.contracts import BetGame
from exact.model.game import Game
from exact.model.plugins import game_ids, get_game, own_command, plugin
from exact.render.output import json_text, to_csv, to_json, to_text


def run_analyze(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    own = own_command(game, "analyze")
    if own is not None:  # a game that renders its own analysis (a strategy game)
        for name, default in plugin(game).option_defaults.items():
            if getattr(args, name, None) is None:
                setattr(args, name, default)
        return own(game, args)
    if isinstance(args.decks, tuple):
        return _by_decks(game, args)
    shoe = options_shoe(args)
    bets = selected_bets(game, args, shoe)
    # --engine given (auto or a name): the output says which engine counted each bet and why
    explain = args.engine is not None
    analysis = analyze(game, shoe, bets, engine=args.engine or "auto")
    if args.xlsx:
        from exact.render.spreadsheet import analysis_workbook, write_bytes

        write_bytes(Path(args.xlsx), analysis_workbook(analysis), [args.output])
        written(args.xlsx, "Excel par sheet")
        if not (args.json or args.csv or args.output):
            return ""
    if analysis_view(args) == "summary":
        from exact.render.views import summary_csv, summary_json, summary_text

        return (summary_json(analysis) if args.json else summary_csv(analysis) if args.csv
                else summary_text(analysis))
    return (to_json(analysis, explain) if args.json else to_csv(analysis) if args.csv
            else to_text(analysis, explain))


def analysis_view(args: argparse.Namespace) -> str:
    """``--view``, or else the view a user scanning first wants: the summary (one line per
    bet and paytable) of every bet in text, the full return tables once bets are chosen
    (``--bet``, ``--group``) and in JSON and CSV (whose readers are programs)."""
    if args.view is not None:
        return str(args.view)
    chosen = args.bet or args.group or args.json or args.csv
    return "full" if chosen else "summary"


def _by_decks(game: Game, args: argparse.Namespace) -> str:
    """``analyze GAME --decks 1,2,4,6,8``: the house edge of every bet on each shoe."""
    from exact.render.views import decks_csv, decks_json, decks_text

    for flag, given in (("--view", args.view), ("--xlsx", args.xlsx), ("--shoe", args.shoe)):
        if given is not None:
            raise ExactError(f"--decks {','.join(map(str, args.decks))} compares numbers of "
                             f"decks: {flag} does not apply")
    analyses = {}
    for decks in args.decks:
        one = argparse.Namespace(**{**vars(args), "decks": decks})
        shoe = options_shoe(one)
        analyses[decks] = analyze(game, shoe, selected_bets(game, one, shoe),
                                  engine=args.engine or "auto")
    return (decks_json(analyses) if args.json else decks_csv(analyses) if args.csv
            else decks_text(analyses))


def run_design(args: argparse.Namespace) -> str:
    from exact.analysis.designer import design_json, design_text, parse_edge, solve_pays
    from exact.render.output import shoe_json

    game = get_game(args.game)
    shoe = options_shoe(args)
    bets = {b.id: b for b in with_tables(game, shoe, game_bets(game, args.bets or ()), args)}
    if args.bet not in bets:
        raise ExactError(f"unknown bet {shown(args.bet)}{suggestion([args.bet], bets)}; see "
                         f"`list-bets {game.id}`")
    analysis = analyze(game, shoe, [bets[args.bet]], engine=args.engine)
    tiers = [t for item in args.solve_for for t in item.split(",") if t.strip()]
    design = solve_pays(analysis.bets[args.bet], tiers, parse_edge(args.target_edge),
                        args.paytable)
    if args.json:
        return json_text(design_json(design, shoe_json(analysis)))
    return design_text(design, shoe.describe())


def _no_bet_table(game: Game, what: str) -> str:
    """What ``list-bets`` and ``features`` say of a strategy game (century21, chemin-de-fer):
    a line, not an empty listing or the bet games' advice on --group and --bet."""
    return (f"{game.name} ({game.id}) is a strategy game: it has no {what}; see "
            f"`analyze {game.id} --help` for its options.\n")


def run_list_bets(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    if not isinstance(game, BetGame):
        return _no_bet_table(game, "bet table")
    bets = game_bets(game, args.bets or ())
    groups = list(dict.fromkeys(["main", "variant", "side", *(b.group for b in bets)]))
    lines = ["`analyze` shows every bet; choose with --group GROUP or --bet ID, and pay "
             "another paytable with --paytable BET=NAME."]
    for group in groups:
        members = [b for b in bets if b.group == group]
        if not members:
            continue
        lines.append(f"\n[{group or 'no group'}]")
        for bet in members:
            lines.append(f"  {bet.id:24} {bet.name} [{Path(bet.source).name}]")
            if bet.description:
                lines.append(f"  {'':24} {bet.description}")
            for name in bet.paytables:
                table = bet.with_paytable(name)
                pays = ", ".join(f"{e.name} = {'push' if e.pays == 0 else format_pays(e.pays)}"
                                 for e in table.events[:-1])
                default = " (default)" if name == bet.paytable else ""
                lines.append(f"  {'':24} paytable {name}{default}: {pays}")
    return "\n".join(lines) + "\n"


_TYPE_NAMES = {bool: "true/false", int: "integer", str: "text", type(None): "None"}


def run_features(args: argparse.Namespace) -> str:
    game = get_game(args.game)
    if not isinstance(game, BetGame):
        return _no_bet_table(game, "round features for bet conditions")
    game_bets(game, args.bets or ())  # a --bets file is checked (its conditions name features)
    lines = []
    for feature in game.features.values():
        kind = " or ".join(dict.fromkeys(_TYPE_NAMES.get(t, t.__name__) for t in feature.types))
        lines.append(f"{feature.name:24} {feature.doc}; values: {feature.values}"
                     + (f" [{kind}]" if kind else "") + "\n")
    return "".join(lines)


def run_games(args: argparse.Namespace) -> str:
    return "".join(f"{game_id}: {get_game(game_id).name}\n" for game_id in game_ids())
