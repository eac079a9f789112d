"""Small helpers that keep the notebooks of ``analyses/`` thin over the library.

>>> require_game("punto-banco").name
'Punto Banco'
>>> require_game("no-such-game")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exact.notebooks.GameNotAvailable: game 'no-such-game' is not in this checkout of exact ...
"""

from __future__ import annotations

from exact.analysis import GameAnalysis
from exact.errors import ExactError
from exact.games import REGISTRY, get_game
from exact.games.base import Game


class GameNotAvailable(ExactError, LookupError):
    """The notebook's game is not registered in this checkout (it has not landed yet)."""


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

    >>> from exact.analysis import analyze
    >>> from exact.cards import Shoe
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
