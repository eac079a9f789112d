"""The ``eor`` report of a removal table (:class:`exact.analysis.removal.RemovalTable`): its
JSON (effects of removal, the derived balanced count and the user's, removal sets) and its text,
by rank or by a game's card classes.

Layer: render, above the analyses; the reports and the command line print with it. The common
``eor`` command and a game's own (21st Century Baccarat's) both print with it, so neither command
module imports the other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from exact.analysis.removal import (
    RANK_WEIGHTS,
    RemovalTable,
    balanced,
    best_tags,
    betting_correlation,
    break_even_true_count,
)
from exact.core.cards import RANKS
from exact.render.numbers import fixed, percent, points
from exact.render.output import SIGN_CONVENTION


def exact_and_float(value: Fraction) -> dict[str, object]:
    return {"exact": str(value), "float": float(value)}


def finite_or_none(value: float) -> float | None:
    """JSON has no infinity: a count that never turns the edge positive has no trigger."""
    return value if math.isfinite(value) else None


def shown_or_none(value: float | None) -> str:
    return "none" if value is None else fixed(value, 2)


def eor_report(table: RemovalTable, user_tags: dict[str, int] | None, decks: int,
               weights: Mapping[str, int] = RANK_WEIGHTS, key_name: str = "rank"
               ) -> dict[str, Any]:
    """The ``eor`` JSON; ``weights`` are the cards of each key (a rank, or a game's card
    class: ``key_name``) in a deck.

    Signs as every output gives them (:data:`exact.render.output.SIGN_CONVENTION`): the house
    edge (the negated expected value of a unit wager) and the effects of removal as changes in
    it, so a card whose removal helps the player has a negative effect and a positive tag."""
    bets = {}
    for bet_id, effects in table.effects.items():
        tags, level, correlation = best_tags(dict(effects), weights)
        entry: dict[str, object] = {
            "name": table.names[bet_id],
            "house_edge": exact_and_float(-table.base[bet_id]),
            "eor_house_edge": {rank: exact_and_float(-e) for rank, e in effects.items()},
            "derived_count": {"level": level, "tags": tags, "balanced": balanced(tags, weights),
                              "betting_correlation": correlation,
                              "break_even_true_count": finite_or_none(break_even_true_count(
                                  table.base[bet_id], tags, effects, decks, weights))},
            "removal_sets": {name: {"change_in_house_edge": exact_and_float(-exact),
                                    "linear_estimate": exact_and_float(-linear)}
                             for name, (exact, linear) in table.removals[bet_id].items()},
        }
        if user_tags is not None:
            entry["user_count"] = {"tags": user_tags, "balanced": balanced(user_tags, weights),
                                   "betting_correlation": betting_correlation(user_tags, effects,
                                                                              weights),
                                   "break_even_true_count": finite_or_none(break_even_true_count(
                                       table.base[bet_id], user_tags, effects, decks, weights))}
        bets[bet_id] = entry
    return {"shoe": table.shoe.describe(), "cards": table.shoe.size,
            "shoe_composition": table.shoe.fields(),
            f"cards_removed_per_{key_name}": table.depth,
            "sign_convention": SIGN_CONVENTION,
            "unit": "house edge per unit wagered; eor_house_edge: change in house edge per "
                    "card removed", "count_tags": COUNT_TAGS, "bets": bets}


COUNT_TAGS = ("a tag is + for a card whose removal helps the player (lowers the house edge); "
              "TC* = true count where the linear estimate of the house edge turns negative")


def eor_text(table: RemovalTable, report: Mapping[str, Any],
             keys: Sequence[str] = RANKS, key_name: str = "rank") -> str:
    """The readable ``eor`` report: effects by ``keys`` (ranks, or a game's card classes)."""
    lines = [f"Effects of removal, {table.shoe.headline()}; change in "
             f"house edge per card removed ({table.depth} of the {key_name} at a time), in %",
             f"Signs: {SIGN_CONVENTION}"]
    header = f"{'bet':22} {'edge %':>9} " + " ".join(f"{r:>8}" for r in keys)
    lines.append(header)
    for bet_id, effects in table.effects.items():
        # negated as floats: a zero effect shows as -0.00000, as it always has
        lines.append(f"{bet_id:22} {points(-float(table.base[bet_id]), 4):>9} "
                     + " ".join(f"{points(-float(effects[r]), 5):>8}" if r in effects else
                                f"{'-':>8}" for r in keys))
    lines.append("")
    lines.append(f"Derived balanced counts (tags by {key_name}; BC = betting correlation; "
                 f"{COUNT_TAGS})")
    for bet_id, entry in report["bets"].items():
        count = entry["derived_count"]
        tags = " ".join(f"{r}={count['tags'][r]:+d}" for r in keys)
        lines.append(f"{bet_id:22} L{count['level']} {tags}  "
                     f"BC {fixed(count['betting_correlation'], 3)}"
                     f"  TC* {shown_or_none(count['break_even_true_count'])}")
        if "user_count" in entry:
            user = entry["user_count"]
            lines.append(f"{'':22} your tags: BC {fixed(user['betting_correlation'], 3)}, "
                         f"{'balanced' if user['balanced'] else 'UNBALANCED'}, "
                         f"TC* {shown_or_none(user['break_even_true_count'])}")
        for name, change in entry["removal_sets"].items():
            lines.append(f"{'':22} remove {name}: change in house edge "
                         f"{percent(change['change_in_house_edge']['float'], 5, sign=True)}, "
                         f"linear estimate {percent(change['linear_estimate']['float'], 5, True)}")
    return "\n".join(lines) + "\n"
