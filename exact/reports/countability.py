"""The reports' countability section: for every wager of the configuration, the balanced count
derived from its exact effects of removal and what that count wins on real shoes.

Layer: reports, above rendering; only the command line and the lab sit above it.

The figures are those of ``exact simulate`` (:func:`exact.analysis.simulation.simulate`, the same
library call, so the same seed, shoes and wagers give the same numbers): shuffled shoes dealt
round by round to the cut card with the verification simulation's cut card and burn; before
every round the exact edge of every wager on the cards not yet seen. Perfect play bets one unit
whenever that edge favours the player; the count bets one unit whenever its true count reaches
TC*. The gain per 100 rounds dealt is the sum of the exact edges of the rounds bet (what the
player expected to win), with its standard error from the spread between shoes; the units
actually won are shown beside it as a check.

The number of shoes is ``shoes``, else the environment's ``EXACT_REPORT_SHOES``, else
:data:`SHOES`; workers as the verification simulation's (``EXACT_REPORT_WORKERS``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from exact.analysis.counts import counted as counted_config
from exact.analysis.counts import derived_counts
from exact.analysis.shoe_play import ShoeRules
from exact.analysis.simulation import SimulationConfig, shoe_play, simulate
from exact.analysis.tallies import SimulationResult
from exact.analysis.verification import ShoeSpec
from exact.core.cards import Shoe
from exact.engines.batch import supported_bets
from exact.errors import ExactError
from exact.model.bets import Bet
from exact.model.game import Game
from exact.render.numbers import fixed, grouped, percent
from exact.render.output import SIGN_CONVENTION
from exact.reports import ReportError
from exact.reports.cover import Context
from exact.reports.verification import WORKERS_VARIABLE, setting

SHOES_VARIABLE = "EXACT_REPORT_SHOES"
SHOES = 5_000
"""Shoes dealt by default: some 400,000 rounds, about two minutes of one core for every shipped
Punto Banco wager."""
Z = 2
"""A gain is called positive (or negative) when it lies more than this many standard errors
from zero."""
PRACTICAL = 0.1
"""Units per 100 rounds dealt (a thousandth of the flat bet a round) below which a positive
gain is called negligible: a count that wins less is of no use at a table, however sure."""


@dataclass(frozen=True)
class Verdict:
    """The one-line conclusion of a wager: ``kind`` is countable, negligible, not-shown,
    losing, no-trigger or never-triggered."""

    kind: str
    text: str


def conclusion(entry: Mapping[str, Any], trigger_text: str, where: str) -> Verdict:
    """The conclusion that follows from a wager's figures (``entry``: its ``simulate`` summary;
    gains in units per 100 rounds dealt, for the player).

    >>> row = {"count_trigger": 2.5, "perfect_expected_win_per_100_hands": 0.7,
    ...        "perfect_expected_win_per_100_hands_se": 0.1, "count_bets": 10,
    ...        "count_bet_frequency": 0.01,
    ...        "count_expected_win_per_100_hands": 0.5,
    ...        "count_expected_win_per_100_hands_se": 0.1}
    >>> conclusion(row, "+2.50", "here").kind
    'countable'
    >>> conclusion({**row, "count_expected_win_per_100_hands_se": 0.3}, "+2.50", "here").kind
    'not-shown'
    >>> conclusion({**row, "count_expected_win_per_100_hands": 0.05,
    ...             "count_expected_win_per_100_hands_se": 0.01}, "+2.50", "here").kind
    'negligible'
    >>> conclusion({**row, "count_expected_win_per_100_hands": -0.7}, "+2.50", "here").kind
    'losing'
    >>> conclusion({**row, "count_trigger": None}, "none", "here").text[:45]
    'not countable with a count of ranks: by the l'
    """
    if entry["count_trigger"] is None:
        perfect = _with_error(entry["perfect_expected_win_per_100_hands"],
                              entry["perfect_expected_win_per_100_hands_se"])
        return Verdict("no-trigger", "not countable with a count of ranks: by the linear "
                       "estimate the derived count never turns the house edge in the "
                       "player's favour (no TC*); computer-perfect play, which knows every "
                       f"card seen, expects {perfect} units per 100 rounds dealt {where}")
    if not entry["count_bets"]:
        return Verdict("never-triggered", f"not practically countable: the true count never "
                       f"reached TC* = {trigger_text} {where}")
    gain = entry["count_expected_win_per_100_hands"]
    error = entry["count_expected_win_per_100_hands_se"] or 0.0
    betting = percent(entry["count_bet_frequency"], 2)
    digits = _digits(error)
    figure = (f"{fixed(gain, digits, sign=True)} units per 100 rounds dealt "
              f"(SE {fixed(error, digits)})")
    if gain - Z * error > 0 and gain < PRACTICAL:
        return Verdict("negligible", f"not practically countable: the count's {figure} {where} "
                       f"is above zero but below {PRACTICAL} units per 100 rounds")
    if gain - Z * error > 0:
        return Verdict("countable", f"countable: {figure} {where} with the count, betting "
                       f"{betting} of the rounds (true count {trigger_text} or more)")
    if gain + Z * error < 0:
        return Verdict("losing", f"not practically countable: the count loses, {figure}, "
                       f"{where}")
    return Verdict("not-shown", f"not shown countable: the count's {figure} {where} is "
                   f"within {Z} standard errors of zero")


def _signed(value: float | None, digits: int = 4) -> str:
    """Display text, ASCII signs.

    >>> _signed(-0.5), _signed(None), _signed(0.0)
    ('-0.5000', 'n/a', '+0.0000')
    """
    return "n/a" if value is None else fixed(value, digits, sign=True)


def _digits(error: float | None) -> int:
    """Decimals that show a standard error to two significant figures (4 to 8).

    >>> _digits(0.0312), _digits(0.00034), _digits(None), _digits(0.0)
    (4, 5, 4, 4)
    """
    if not error:
        return 4
    return min(8, max(4, 1 - math.floor(math.log10(error))))


def _with_error(value: float | None, error: float | None) -> str:
    """Display text: a figure and, in brackets, its standard error, at the same decimals.

    >>> _with_error(0.00066, 0.00034), _with_error(-1.5, None)
    ('+0.00066 (0.00034)', '-1.5000 (n/a)')
    """
    digits = _digits(error)
    return f"{_signed(value, digits)} ({'n/a' if error is None else f'{error:.{digits}f}'})"


def section(game: Game, bets: Sequence[Bet], shoe: Shoe, seed: int,
            shoes: int | None = None, workers: int | None = None, chosen: bool = True
            ) -> dict[str, object]:
    """The countability section of ``bets`` (each at its own paytable) on ``shoe``: the
    derived count of every wager the simulation serves and its gain on ``shoes`` shoes dealt
    from ``seed``. A shoe that is not whole standard decks is not simulated (said so).
    ``chosen``: the wagers were chosen (the command that gives the same figures names them)."""
    shoes = setting(shoes, SHOES_VARIABLE, SHOES, "shoes")
    workers = setting(workers, WORKERS_VARIABLE, 1, "workers")
    served, others = supported_bets(game, list(bets))
    decks = shoe.size // 52
    spec = ShoeSpec.standard(max(decks, 1))
    base: dict[str, object] = {"seed": str(seed), "asked": grouped(shoes),
                               "variable": SHOES_VARIABLE, "z": str(Z),
                               "practical": str(PRACTICAL),
                               "sign_convention": SIGN_CONVENTION, "rows": [],
                               "not_simulated": [b.name for b in others]}
    if not decks or shoe != Shoe.standard(decks):
        return {**base, "simulated": False, "why": f"the simulation deals shoes of whole "
                f"standard decks; this report's shoe is {shoe.describe()}"}
    if not served:
        return {**base, "simulated": False, "why": "no wager of the configuration is one the "
                "simulation evaluates"}
    rules = ShoeRules(decks=decks, cut_cards=spec.cut_cards, burn=spec.burn)
    config = SimulationConfig(game=game.id, shoe=rules, given_bets=tuple(served))
    try:
        play = shoe_play(config)
        counts = derived_counts(play)
        result = simulate(counted_config(config, counts, play.tag_keys), shoes, seed,
                          workers=workers)
    except ExactError as error:
        raise ReportError(f"countability simulation: {error}") from None
    summary = result.summary()
    cards = int(play.full.sum())
    where = f"at {percent((cards - rules.cut_cards) / cards, 1)} penetration"
    rows = []
    for wager, count in counts.items():
        entry = summary[wager]
        trigger = _signed(count.trigger, 2)
        verdict = conclusion(entry, trigger, where)
        rows.append({
            "id": wager, "bet": entry["name"],
            "tags": [f"{count.tags.get(key, 0):+d}" for key in play.tag_keys],
            "level": str(count.level), "correlation": fixed(count.correlation, 3),
            "trigger": "none" if count.trigger is None else trigger,
            "advantage": percent(entry["player_advantage_frequency"], 3),
            "perfect_gain": _with_error(entry["perfect_expected_win_per_100_hands"],
                                        entry["perfect_expected_win_per_100_hands_se"]),
            "perfect_won": _with_error(entry["perfect_win_per_100_hands"],
                                       entry["perfect_win_per_100_hands_se"]),
            "count_bets": percent(entry["count_bet_frequency"], 3),
            "count_gain": _with_error(entry["count_expected_win_per_100_hands"],
                                      entry["count_expected_win_per_100_hands_se"]),
            "count_won": _with_error(entry["count_win_per_100_hands"],
                                     entry["count_win_per_100_hands_se"]),
            "verdict": verdict.kind, "conclusion": verdict.text,
            "figures": {key: entry[key] for key in FIGURES},
        })
    command = (f"exact simulate {game.id} --shoes {shoes} --seed {seed} --decks {decks} "
               f"--cut {rules.cut_cards} --burn {rules.burn} --workers 1 --json"
               + "".join(f" --bet {wager}" for wager in counts if chosen))
    return {**base, "simulated": True, **_setting_text(result, rules, cards),
            "keys": list(play.tag_keys), "rows": rows, "command": command}


FIGURES = ("player_advantage_frequency", "perfect_expected_win_per_100_hands",
           "perfect_expected_win_per_100_hands_se", "perfect_win_per_100_hands",
           "perfect_win_per_100_hands_se", "count_trigger", "count_bets", "count_bet_frequency",
           "count_expected_win_per_100_hands", "count_expected_win_per_100_hands_se",
           "count_win_per_100_hands", "count_win_per_100_hands_se")
"""The figures of ``exact simulate --json`` each row carries unrounded (the tests compare)."""


def _setting_text(result: SimulationResult, rules: ShoeRules, cards: int) -> dict[str, str]:
    """How the shoes were dealt, in the section's words."""
    return {"shoes": grouped(result.shoes), "rounds": grouped(result.rounds),
            "rounds_per_shoe": fixed(result.rounds / result.shoes, 1),
            "decks": str(rules.decks), "cards": str(cards), "cut": str(rules.cut_cards),
            "penetration": percent((cards - rules.cut_cards) / cards, 1),
            "burn": rules.in_words()["burn"]}


def for_report(game: Game, bets: Sequence[Bet] | None, shoe: Shoe, context: Context,
               seed: int) -> dict[str, object]:
    """The section of a report's configuration (``bets`` None: every wager the game ships, at
    its default paytable)."""
    from exact.analysis.bet_analysis import game_bets

    return section(game, list(game_bets(game) if bets is None else bets), shoe, seed,
                   workers=context.workers, chosen=bets is not None)
