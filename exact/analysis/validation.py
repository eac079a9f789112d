"""Checks of user-supplied paytables (bet files): a tier missing, a tier that can never occur,
a tier that pays a round the wager does not win, and a symmetrical wager with a one-sided tier.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

A game may state, per bet id, when the wager wins (``wins_when``: a condition over its
features) and which wagers must pay Player and Banker alike (``symmetric_bets``); see
:mod:`exact.games.nine_and_nines.game`. Each check is an exact count through the ordinary analysis,
made by asking a small derived bet, e.g. "rounds the wager wins that no paying tier settles":

* missing tier (error): winning rounds that no paying tier settles (they would lose);
* pays a loss (error): rounds the wager does not win that a paying tier settles;
* asymmetric (error): rounds whose tier changes when Player and Banker swap their cards
  (the condition read with every ``player_…`` feature and its ``banker_…`` twin swapped);
* never occurs (warning): a tier with zero combinations on the shoe. On a shoe holding at least
  a round's worth (6) of every card, every possible deal can happen, so zero there means the
  tier is structurally impossible: no shoe can ever reach it.

>>> from exact.core.cards import Shoe
>>> from exact.games import get_game
>>> game = get_game("nine-and-nines")
>>> text = '''[[bet]]
... id = "nine-player"
... [[bet.event]]
... name = "Any 9 but A-8"
... when = "player_two_card_nine and player_initial_ranks != 'A8'"
... pays = 5
... [[bet.event]]
... name = "Paired 9"
... when = "player_two_card_nine and player_paired"
... pays = 50'''
>>> for issue in validate_bets(game, load_bets("my.toml", game.features, text=text),
...                            Shoe.standard(8)):
...     print(issue.severity, issue.kind, issue.tier, issue.message.split(":")[0])
error missing-tier None a tier is missing
warning impossible Paired 9 can never occur (0 combinations on a shoe with every deal possible
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from exact.analysis.bet_analysis import analyze
from exact.core.cards import JOKER_ID, Shoe
from exact.errors import TableValidationError as TableValidationError
from exact.model.bets import Bet, Event, load_bets
from exact.model.contracts import SymmetricBets, SymmetricFeatures, WinsWhen
from exact.model.expressions import COMPOSED_LIMITS, Expression
from exact.model.game import Game

ROUND_CARDS = 6


@dataclass(frozen=True)
class TableIssue:
    """One finding about one bet (and tier, when it is about one)."""

    severity: str  # "error" or "warning"
    kind: str      # "missing-tier", "pays-a-loss", "asymmetric", "never-occurs", "impossible"
    bet: str
    tier: str | None
    message: str

    @property
    def where(self) -> str:
        return f"bet {self.bet!r}" + (f", tier {self.tier!r}" if self.tier else "")

    @property
    def line(self) -> str:
        return f"{self.severity}: {self.where}: {self.message}"


def with_tables(game: Game, bets: Sequence[Bet], paths: Iterable[Path | str]) -> list[Bet]:
    """``bets`` with each bet of the table files replacing the bet of the same id (or added)."""
    result = list(bets)
    for path in paths:
        for bet in load_bets(path, game.features):
            ids = [b.id for b in result]
            if bet.id in ids:
                result[ids.index(bet.id)] = bet
            else:
                result.append(bet)
    return result


def _settles_at(bet: Bet, index: int, mirror: bool = False) -> str:
    """Condition text: the round is settled by event ``index`` (first match wins)."""
    texts = [_mirrored(e.condition) if mirror else e.condition.text
             for e in bet.events[:index + 1] if e.condition is not None]
    return " and ".join([*(f"not ({t})" for t in texts[:-1]), f"({texts[-1]})"])


def _mirrored(condition: Expression) -> str:
    class Swap(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            for one, other in (("player_", "banker_"), ("banker_", "player_")):
                if node.id.startswith(one):
                    return ast.Name(other + node.id[len(one):], ast.Load())
            return node

    return ast.unparse(Swap().visit(Expression.parse(condition.text).tree))


def _probe(bet_id: str, name: str, condition: str) -> Bet:
    # composed of the bet's checked conditions: long, but each part within the limits
    probe = Expression.parse(condition, COMPOSED_LIMITS)
    return Bet(f"{bet_id}::{name}", name, (Event(name, probe, Fraction(1)),
                                            Event("otherwise", None, Fraction(-1))))


def validate_bets(game: Game, bets: Sequence[Bet], shoe: Shoe, engine: str = "auto",
                  replaced: Mapping[str, Bet] | None = None) -> list[TableIssue]:
    """Every issue of ``bets`` on ``shoe`` (errors first, then warnings, in bet order).
    ``replaced``: the bets they replace, by id; a tier of those that a new table lacks by name
    is a warning (its rounds now settle by another tier)."""
    wins_when: Mapping[str, str] = game.wins_when if isinstance(game, WinsWhen) else {}
    symmetric = game.symmetric_bets if isinstance(game, SymmetricBets) else frozenset()
    # features that read the same with Player and Banker swapped, besides player_/banker_ twins
    unchanged = (game.symmetric_features if isinstance(game, SymmetricFeatures)
                 else frozenset())
    probes: list[tuple[Bet, str, str | None, str]] = []  # (probe, bet id, tier, kind)
    notes: list[TableIssue] = []
    for bet in bets:
        paying = [i for i, e in enumerate(bet.events) if e.pays > 0 and e.condition is not None]
        paid = " or ".join(f"({_settles_at(bet, i)})" for i in paying) or "False"
        if bet.id in wins_when:
            wins = wins_when[bet.id]
            probes.append((_probe(bet.id, "missing", f"({wins}) and not ({paid})"), bet.id,
                           None, "missing-tier"))
            probes.append((_probe(bet.id, "pays-a-loss", f"not ({wins}) and ({paid})"), bet.id,
                           None, "pays-a-loss"))
        if bet.id in symmetric:
            for index, event in enumerate(bet.events[:-1]):
                read = event.condition.names if event.condition is not None else frozenset()
                one_sided = sorted(n for n in read if n not in unchanged
                                   and not n.startswith(("player_", "banker_")))
                if one_sided:
                    notes.append(TableIssue(
                        "warning", "unchecked-symmetry", bet.id, event.name,
                        f"symmetry not checked: {', '.join(one_sided)} may change when Player "
                        "and Banker swap"))
                    continue
                test = f"({_settles_at(bet, index)}) != ({_settles_at(bet, index, True)})"
                probes.append((_probe(bet.id, f"asymmetric-{index}", test), bet.id, event.name,
                               "asymmetric"))
    analysis = analyze(game, shoe, [*bets, *(p for p, *_ in probes)], engine=engine)
    errors = []
    for probe, bet_id, tier, kind in probes:
        count = analysis.bets[probe.id].counts[0]
        if not count:
            continue
        message = {
            "missing-tier": f"a tier is missing: {count:,} winning rounds ({wins_when[bet_id]}) "
                            "match no paying tier",
            "pays-a-loss": f"{count:,} rounds the wager does not win ({wins_when.get(bet_id)}) "
                           "are paid by a tier",
            "asymmetric": f"not symmetrical: {count:,} rounds settle differently when Player "
                          "and Banker swap their cards",
        }[kind]
        errors.append(TableIssue("error", kind, bet_id, tier, message))
    rich = all(count >= ROUND_CARDS for count in shoe.counts[:JOKER_ID])
    warnings = []
    for bet in bets:
        old = (replaced or {}).get(bet.id)
        if old is None:
            continue
        names = {e.name for e in bet.events}
        for event in old.events[:-1]:
            if event.name not in names:
                warnings.append(TableIssue(
                    "warning", "tier-not-in-table", bet.id, event.name,
                    f"this tier of {old.source or 'the replaced table'} is missing from the new "
                    "table; its rounds settle by another tier or lose"))
    for bet in bets:
        for event, count in zip(bet.events, analysis.bets[bet.id].counts, strict=True):
            if count:
                continue
            if rich:
                warnings.append(TableIssue("warning", "impossible", bet.id, event.name,
                                           "can never occur (0 combinations on a shoe with "
                                           "every deal possible: structurally impossible)"))
            else:
                warnings.append(TableIssue("warning", "never-occurs", bet.id, event.name,
                                           f"never occurs on this shoe ({shoe.describe()}): "
                                           "0 combinations"))
    return errors + notes + warnings


def check_bets(game: Game, bets: Sequence[Bet], shoe: Shoe, engine: str = "auto",
               replaced: Mapping[str, Bet] | None = None) -> list[TableIssue]:
    """Raise :class:`TableValidationError` on the first error; return the warnings."""
    issues = validate_bets(game, bets, shoe, engine, replaced)
    for issue in issues:
        if issue.severity == "error":
            raise TableValidationError(f"{issue.where}: {issue.message}")
    return issues
