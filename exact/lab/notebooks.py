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

from collections.abc import Callable, Mapping, Sequence

from exact.analysis.bet_analysis import GameAnalysis
from exact.analysis.removal import RemovalTable
from exact.core.cards import RANKS
from exact.errors import GameNotAvailable as GameNotAvailable
from exact.games import REGISTRY, get_game
from exact.model.bets import Bet
from exact.model.game import Game


def require_game(game_id: str, **options: object) -> Game:
    """The game, or a clear :class:`GameNotAvailable` that stops the notebook at its first
    cell when the game is not part of this checkout."""
    if game_id not in REGISTRY:
        raise GameNotAvailable(f"game {game_id!r} is not in this checkout of exact (known: "
                               f"{', '.join(sorted(REGISTRY))}); this notebook has nothing to "
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
# A family gathers the bets a reader compares with one another; the first rule that matches a
# bet names its family (a bet file's own bets fall into "Other side bets").
FAMILIES: tuple[tuple[str, Callable[[Bet], bool]], ...] = (
    ("Main bets and commission-free Banker", lambda bet: bet.group in ("main", "variant")),
    ("Pairs", lambda bet: "pair" in bet.id),
    ("Egalité (tie on one total)", lambda bet: bet.id.startswith("egalite-")
     and "group" not in bet.id),
    ("Egalité, grouped totals", lambda bet: bet.id.startswith("egalite-group")),
    ("Big and Small (cards dealt)", lambda bet: bet.id in ("big", "small")),
    ("Dragon Bonus", lambda bet: bet.id.startswith("dragon-bonus")),
)
OTHER_FAMILY = "Other side bets"


def bet_family(bet: Bet) -> str:
    """The family a bet is charted with.

    >>> from exact.analysis.bet_analysis import game_bets
    >>> bets = {b.id: b for b in game_bets(require_game("punto-banco"))}
    >>> [bet_family(bets[b]) for b in ("tie", "either-pair", "dragon-7")]
    ['Main bets and commission-free Banker', 'Pairs', 'Other side bets']
    >>> bet_family(bets["egalite-3"]), bet_family(bets["egalite-group-0"])
    ('Egalité (tie on one total)', 'Egalité, grouped totals')
    """
    return next((name for name, member in FAMILIES if member(bet)), OTHER_FAMILY)


def families(bets: Sequence[Bet]) -> dict[str, list[Bet]]:
    """``bets`` by family, families in the order of :data:`FAMILIES`, bets in their order."""
    order = [name for name, _ in FAMILIES] + [OTHER_FAMILY]
    grouped: dict[str, list[Bet]] = {name: [] for name in order}
    for bet in bets:
        grouped[bet_family(bet)].append(bet)
    return {name: members for name, members in grouped.items() if members}


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
