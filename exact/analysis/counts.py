"""The count systems a shoe simulation plays: per wager, its tags and the true count at which
it bets, derived from the wager's effects of removal or given.

Layer: analysis, above the engines; :mod:`exact.analysis.simulation` plays the counts, the
command line and the reports choose them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from exact.analysis.removal import CountError, best_tags, betting_correlation, break_even_true_count
from exact.analysis.shoe_play import ShoePlay, SimulationConfig
from exact.core.cards import RANKS
from exact.core.parsing import shown_all


@dataclass(frozen=True)
class Count:
    """A wager's count: its tags (by the play's tag keys), their level (the largest tag's size;
    None for a user's tags), betting correlation with the effects of removal, and the true
    count at which it bets (None: never)."""

    tags: dict[str, int]
    level: int | None
    correlation: float
    trigger: float | None


def derived_counts(play: ShoePlay[Any], tags: Mapping[str, int] | None = None,
                   triggers: Mapping[str, float] | None = None) -> dict[str, Count]:
    """Per wager of ``play``: the count ``simulate`` plays. Its tags are ``tags`` for every
    wager, else the balanced ones derived from the wager's effects of removal on the full shoe
    (the level 1-3 of the best betting correlation); its trigger is ``triggers[wager]``, else
    TC*, the true count where the linear estimate of the house edge turns negative (None if it
    never does)."""
    triggers = dict(triggers or {})
    unknown = set(triggers) - set(play.names)
    if unknown:
        raise CountError(f"--trigger for unknown bet(s) {shown_all(sorted(unknown))}")
    table = play.removal()
    out = {}
    for wager in play.names:
        effects = dict(table.effects[wager])
        if tags is None:
            chosen, level, correlation = best_tags(effects, play.weights)
        else:
            chosen, level = dict(tags), None
            correlation = betting_correlation(chosen, effects, play.weights)
        trigger = triggers.get(wager)
        if wager not in triggers:
            found = break_even_true_count(table.base[wager], chosen, effects, play.decks,
                                          play.weights)
            trigger = found if math.isfinite(found) else None
        out[wager] = Count(chosen, level, correlation, trigger)
    return out


def counted(config: SimulationConfig, counts: Mapping[str, Count], keys: Sequence[str]
            ) -> SimulationConfig:
    """``config`` playing ``counts`` (tags by ``keys``, the play's tag keys)."""
    from dataclasses import replace

    return replace(config, tags=tags_tuple({w: c.tags for w, c in counts.items()}, keys),
                   triggers=tuple(sorted((w, c.trigger) for w, c in counts.items()
                                         if c.trigger is not None)))


def tags_tuple(tags: Mapping[str, Mapping[str, int]], keys: Sequence[str] = RANKS
               ) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """Per-wager tags (by rank, or by a game's ``keys``) in the hashable form
    :class:`SimulationConfig` keeps."""
    return tuple((wager, tuple((key, tagged.get(key, 0)) for key in keys))
                 for wager, tagged in tags.items())
