"""Small helpers that keep the notebooks of ``analyses/`` thin over the library.

Layer: lab, the top (beside the command line); the notebooks of ``analyses/`` import it.

>>> require_game("punto-banco").name
'Punto Banco'
>>> require_game("no-such-game")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exact.errors.GameNotAvailable: game 'no-such-game' is not in this checkout of exact ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from exact.analysis.bet_analysis import GameAnalysis
from exact.analysis.removal import RemovalTable
from exact.core.cards import RANKS
from exact.errors import GameNotAvailable as GameNotAvailable
from exact.model.bets import Bet
from exact.model.game import Game
from exact.model.plugins import game_ids, get_game
from exact.reports.charts import FAMILIES as FAMILIES
from exact.reports.charts import OTHER_FAMILY as OTHER_FAMILY
from exact.reports.charts import bet_family as bet_family
from exact.reports.charts import families as families


def require_game(game_id: str, **options: object) -> Game:
    """The game, or a clear :class:`GameNotAvailable` that stops the notebook at its first
    cell when the game is not part of this checkout."""
    known = game_ids()
    if game_id not in known:
        raise GameNotAvailable(f"game {game_id!r} is not in this checkout of exact (known: "
                               f"{', '.join(known)}); this notebook has nothing to "
                               "analyse yet")
    return get_game(game_id, **options)


def edge_table(analysis: GameAnalysis) -> str:
    """The summary of every wager and paytable as a Markdown table (display it with
    ``IPython.display.Markdown``).

    >>> from exact.analysis.bet_analysis import analyze
    >>> from exact.core.cards import Shoe
    >>> table = edge_table(analyze(require_game("punto-banco"), Shoe.standard(8)))
    >>> print(table.splitlines()[2])  # doctest: +NORMALIZE_WHITESPACE
    | Banker | commission-5% | 1.0579% | 98.9421% | 45.86% | 0.9274 | 1.5254 | 19/20 to 1
      | 1 in 2.181 |
    """
    from exact.reports.sections import summary

    header = ("Wager", "Paytable", "House edge", "RTP", "Hit frequency", "SD", "VI 90%",
              "Top award", "Odds")
    keys = ("bet", "paytable", "house_edge", "rtp", "hit", "sd", "vi90", "top_award",
            "top_odds")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row[k] for k in keys) + " |" for row in summary(analysis)]
    return "\n".join(lines)


# --- charts people read --------------------------------------------------------------------------
# The families of bets are the reports' (exact.reports.charts), so a notebook's charts
# and a report's gather the same bets.
def _panels(count: int, columns: int = 2, width: float = 5.2, height: float = 3.2):
    import matplotlib.pyplot as plt

    rows = max(1, -(-count // columns))
    figure, axes = plt.subplots(rows, columns, figsize=(width * columns, height * rows),
                                squeeze=False)
    flat = [axis for row in axes for axis in row]
    for axis in flat[count:]:
        axis.set_visible(False)
    return figure, flat[:count]


def edge_by_decks_figure(by_decks: Mapping[int, GameAnalysis], bets: Sequence[Bet]):
    """House edge (%) against the number of decks: one panel per bet family, one line per
    bet (its own paytable), each panel on its own scale."""
    decks = sorted(by_decks)
    grouped = families(bets)
    figure, axes = _panels(len(grouped))
    for axis, (family, members) in zip(axes, grouped.items(), strict=True):
        for bet in members:
            edges = [float(by_decks[d].bets[bet.id].table().house_edge) * 100 for d in decks]
            axis.plot(decks, edges, "o-", markersize=3.5, linewidth=1.2, label=bet.name)
        axis.set_xticks(decks)
        axis.set_title(family)
        axis.set_xlabel("number of 52-card decks")
        axis.set_ylabel("house edge (%)")
        axis.legend(fontsize=7, ncol=2 if len(members) > 5 else 1)
    figure.tight_layout()
    return figure


def removal_figure(table: RemovalTable, keys: Sequence[str] = RANKS):
    """One bar chart per bet: change of the house edge (percentage points) when one card of
    each rank is removed (red: the removal hurts the player)."""
    figure, axes = _panels(len(table.effects), columns=3, width=3.6, height=2.7)
    for axis, (bet_id, effects) in zip(axes, table.effects.items(), strict=True):
        # the house edge is minus the expected value
        changes = [-float(effects.get(key, 0)) * 100 for key in keys]
        axis.bar(list(keys), changes, width=0.7,
                 color=["#c00000" if change > 0 else "#1f4e79" for change in changes])
        axis.axhline(0, color="grey", linewidth=0.8)
        axis.set_title(table.names.get(bet_id, bet_id))
        axis.set_xlabel("rank removed (one card)")
        axis.set_ylabel("change in house edge (pp)")
    figure.tight_layout()
    return figure
