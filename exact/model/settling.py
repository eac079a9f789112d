"""Settling the records of a deal: which event of each bet each round record falls in, the work
that costs, and what of the cards a bet reads.

Layer: model, above the core; every engine and analysis settles its deal's records here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exact.core.enumerator import RecordT
from exact.core.parsing import shown
from exact.core.work import CONDITION_UNITS, READ_UNITS, spend
from exact.errors import BetFileError
from exact.model.bets import Bet
from exact.model.features import ORDER
from exact.model.game import Game

if TYPE_CHECKING:
    import numpy as np


def value_only(game: Game[Any], bet: Bet) -> bool:
    """Whether ``bet`` reads nothing of the cards but their point values (the cheapest deals).

    >>> from exact.games import get_game
    >>> from exact.model.bets import game_bets
    >>> game = get_game("punto-banco")
    >>> bets = {bet.id: bet for bet in game_bets(game)}
    >>> value_only(game, bets["banker"]), value_only(game, bets["perfect-pairs"])
    (True, False)
    """
    return all(attribute == "value" for _, attribute in game.needs(bet.features).pairs)


def values_only(game: Game[Any], bet: Bet) -> bool:
    """Whether ``bet`` reads the cards' point values only, some of them maybe by position (a
    hand's first card's value): the deals of values, their pairs ordered where read so.

    >>> from exact.games import get_game
    >>> from exact.model.bets import load_bets
    >>> game = get_game("punto-banco")
    >>> first_nine = load_bets("x.toml", game.features, text='''[[bet]]
    ... id = "x"
    ... [[bet.event]]
    ... name = "Yes"
    ... when = "player_card1_value == 9"
    ... pays = 8''')[0]
    >>> value_only(game, first_nine), values_only(game, first_nine)
    (False, True)
    """
    return all(attribute in ("value", ORDER) for _, attribute in game.needs(bet.features).pairs)


def settlement_units(bet: Bet) -> int:
    """The work of settling ``bet`` once (:mod:`exact.core.work` units): reading its features,
    then, at worst, every event's condition evaluated (the nodes of its tree)."""
    return CONDITION_UNITS + sum(event.condition.nodes for event in bet.events
                                 if event.condition is not None)


def spend_reads(records: int, features: int) -> None:
    """Draw reading ``features`` features off each of ``records`` records from the run's work
    budget, before they are read."""
    spend(records * features * READ_UNITS,
          f"{features} feature{'s' * (features != 1)} read off {records:,} rounds")


def spend_settlements(bet: Bet, times: int) -> None:
    """Draw ``times`` settlements of ``bet`` from the run's work budget, before they run: a
    condition near the operator bound run on millions of signatures is refused up front."""
    spend(times * settlement_units(bet),
          f"{bet.source}: bet {shown(bet.id)}: {times:,} settlements of "
          f"{settlement_units(bet):,} units each")


EVENT_DTYPE = "int16"
"""The event index of each record, per bet: a bet has at most :data:`MOST_EVENTS` events, and
a file of 1,000 bets settled over a deal's hundred thousand records kept one int64 array each
(800 MB); int16 keeps them in a quarter of that."""


def settle_records(game: Game[RecordT], bets: Sequence[Bet], records: Sequence[RecordT]
                   ) -> list[np.ndarray]:
    """Event index of each bet for each record (records of ``game``'s type: its features read
    them).

    Each feature is read once per record and coded as a small integer; a bet's condition then
    runs once per distinct combination of the features it uses (found with numpy), not once
    per record: a few hundred settlements instead of millions for a large deal.
    """
    import numpy as np  # loaded when records are settled (a fresh analysis may never need it)

    names = sorted(set().union(*(bet.features for bet in bets)))
    spend_reads(len(records), len(names))
    columns: dict[str, tuple[list[object], np.ndarray]] = {}
    for name in names:
        read = game.features[name].read
        codes: dict[object, int] = {}
        column = np.fromiter((codes.setdefault(read(record), len(codes)) for record in records),
                             dtype=np.int64, count=len(records))
        columns[name] = (list(codes), column)
    events = []
    for bet in bets:
        wanted = sorted(bet.features)
        key, radix = np.zeros(len(records), dtype=np.int64), 1
        for name in wanted:
            values, column = columns[name]
            radix *= len(values)
            if radix >= 2**62:  # the combined code would wrap in int64: never for real bets
                raise BetFileError(f"{bet.source}: bet {shown(bet.id)}: combines too many "
                                   "feature values")
            key = key * len(values) + column
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        spend_settlements(bet, len(first))
        settled = [bet.settle({name: columns[name][0][columns[name][1][position]]
                               for name in wanted}) for position in first]
        events.append(np.asarray(settled, dtype=EVENT_DTYPE)[inverse.reshape(-1)]
                      if len(records) else np.empty(0, dtype=EVENT_DTYPE))
    return events
