"""What the build adds to every report's data, whatever its game: the assumptions in plain
words, and the top awards with the exposure at the submission's bet limit.

Layer: reports, above rendering; only the command line and the lab sit above it.

>>> plain_words("depleted shoes are the business of `eor`, `edge` and `simulate`.")
'depleted shoes are the business of the effects-of-removal analysis, the edge-through-the-shoe \
analysis and the shoe simulation.'
>>> plain_words("analysed from a bet file (--table), or with --table or --bets.")
'analysed from a bet file, or with a paytable file or a bet file.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from exact.render.numbers import money

# The toolkit's commands and options as a lab reads them: the assumptions are written for
# every output (the command line's too), the report says them in words. A game words its own
# commands and options (its plugin's ``report_words``).
COMMANDS = {"settle": "the round settlement", "eor": "the effects-of-removal analysis",
            "edge": "the edge-through-the-shoe analysis", "simulate": "the shoe simulation",
            "design": "the paytable designer"}
OPTIONS = {"--table": "a paytable file", "--bets": "a bet file"}


def plain_words(text: str, own: Mapping[str, str] | None = None) -> str:
    """``text`` without command-line jargon: a command in backquotes named in words, an option
    in parentheses dropped, any other option named in words, other backquotes removed; ``own``:
    the game's words for its own commands and options (its plugin's ``report_words``)."""
    own = own or {}
    text = re.sub(r"`([^`]*)`", lambda m: own.get(m[1], COMMANDS.get(m[1], m[1])), text)
    text = re.sub(r"\s*\(--[a-z-]+\)", "", text)
    return re.sub(r"--[a-z-]+", lambda m: own.get(m[0], OPTIONS.get(m[0], m[0].lstrip("-"))),
                  text)


def plain_assumptions(items: Sequence[Mapping[str, str]],
                      own: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """The assumptions as the report shows them: :func:`plain_words` in what it prints."""
    return [{key: plain_words(value, own) if key in ("text", "why", "short") else value
             for key, value in item.items()} for item in items]


def exposure(awards: Sequence[Mapping[str, str]], limit: Fraction | None) -> dict[str, object]:
    """Per wager and paytable: the top award, its odds, and the most one wager at the bet
    ``limit`` can win (the award times the limit); the sum over the wagers bounds what one
    player betting the limit on each can win in a round.

    >>> exposure([{"bet": "Tie", "paytable": "8-to-1", "pays": "8", "odds": "1 in 10.5",
    ...            "probability": "0.0951"}], Fraction(500))["rows"][0]["payout"]
    '4,000'
    """
    rows, total = [], Fraction(0)
    for award in awards:
        pays = Fraction(award["pays"])
        payout = pays * limit if limit is not None else None
        total += payout or 0
        rows.append({**award, "payout": money(payout) if payout is not None else ""})
    return {"limit": money(limit) if limit is not None else "", "rows": rows,
            "total": money(total) if limit is not None else ""}
