"""Baccara chemin de fer, heads-up: the Player against the Banker, solved exactly.

Layer: games, the top: a game's code may import every generic layer, no other game.

The coup: two cards each (values 0-9, tens and faces 0); a two-card 8 or 9 on either side ends
it. Otherwise the Player draws on 0-4, stands on 6-7 and *chooses* on 5 (its only decision);
then the Banker, seeing its own hand and the Player's third card face up (or that the Player
stood), *chooses* to draw or stand at every decision point. The higher total wins, ties push.
A commission (0 to 1/10) may be taken on Banker wins: the game is then not zero-sum.

What each side sees is the information model (Ethier and Gámez 2013 number them 1-3):
``totals`` (each its own two-card total: Kemeny and Snell 1957), ``banker-cards`` (the Banker
its two-card composition, the Player its total: Downton and Lockwood 1975) and ``cards`` (both
their compositions). Cards are dealt without replacement from a full ``d``-deck shoe (the first
coup), or with replacement in one deck's proportions (Model A of Ethier and Gámez).

The coup is the one of every baccarat game (:class:`~exact.games.baccarat.tree.Coup`, its
choices decision nodes with their information sets); this module makes of it, by the generic
sequence-form walker (:func:`~exact.engines.decisions.decision_table`), the exact summed payoffs
of both sides for every pair of choices, over the ``N(N-1)...(N-5)`` ordered six-card sequences
(``13**6`` with replacement). Best responses, evaluation and the equilibria are the generic
algorithms of :mod:`exact.engines.strategy_games`; the rule file is
:mod:`~exact.games.chemin_de_fer.rules`.

>>> game = sequence_form(RULES, None, "totals")
>>> game.total == 13**6, len(game.sets[0]), len(game.sets[1])
(True, 1, 88)
>>> found = equilibrium(RULES, None, "totals")
>>> found.strategies[0][PLAYER_FIVE]["draw"], found.verified
(Fraction(9, 11), True)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal, get_args

from exact.core.cards import RANKS, Shoe
from exact.core.enumerator import Record
from exact.core.parsing import shown
from exact.engines.decisions import decision_table
from exact.engines.strategy_games import (
    Equilibria,
    Equilibrium,
    InfoSet,
    Leaf,
    SequenceForm,
    Strategy,
    bimatrix_equilibria,
    deviation_gains,
    pure,
    zero_sum_equilibrium,
)
from exact.engines.strategy_games import best_response as generic_best_response
from exact.errors import StrategyError
from exact.games.baccarat.tree import (
    DRAW,
    INFORMATION,
    Chooser,
    Coup,
    Information,
    house_choosers,
    set_parts,
)
from exact.games.chemin_de_fer.rules import FIVE, MAX_DECKS, RULES, Rules
from exact.model.features import Feature
from exact.model.game import Game
from exact.model.strategy_game import Path as StrategyPath
from exact.render.numbers import general
from exact.render.output import csv_text, json_text, spreadsheet_text

# which strategy pair is analysed
StrategyName = Literal["house", "best", "dealer-best", "equilibrium"]
STRATEGIES: tuple[StrategyName, ...] = get_args(StrategyName)
PLAYER_FIVE = ("player", FIVE)
# with replacement, cards come in one deck's proportions: one card of each rank (13 cards)
WITH_REPLACEMENT_SHOE = Shoe.parse(",".join(f"{rank}:1" for rank in RANKS))


# --- the game as a sequence form -----------------------------------------------------------
def sequence_form(rules: Rules, decks: int | None, information: str) -> SequenceForm:
    """The game of ``rules`` on a full ``decks``-deck shoe (None: with replacement)."""
    if information not in INFORMATION:
        raise StrategyError(f"unknown information model {shown(information)}; known: "
                            f"{', '.join(INFORMATION)}")
    if decks is not None and not 1 <= decks <= MAX_DECKS:
        raise StrategyError(f"--decks {decks}: choose 1 to {MAX_DECKS} decks")
    return _sequence_form(rules, decks, information)


@lru_cache(maxsize=32)  # bounded: each commission is a rule set of its own
def _sequence_form(rules: Rules, decks: int | None, information: Information) -> SequenceForm:
    return shoe_sequence_form(rules, Shoe.standard(decks) if decks is not None
                              else WITH_REPLACEMENT_SHOE, information, decks is None)


def shoe_sequence_form(rules: Rules, shoe: Shoe, information: Information,
                       replacement: bool = False) -> SequenceForm:
    """The coup of the baccarat games (:class:`~exact.games.baccarat.tree.Coup`) with the
    Player's choice totals of ``rules``, walked by the generic sequence-form walker over
    every ordered six-card sequence of ``shoe`` (``N**6`` with replacement)."""
    coup = Coup(rules.naturals, rules.player_draws_on, rules.player_chooses_on, information)
    table = decision_table(coup, shoe, replacement=replacement)
    return counted_form(rules, table.total, table.sets, table.parents, table.entries)


def counted_form(rules: Rules, total: int,
                 sets: tuple[Mapping[InfoSet, tuple[str, ...]], Mapping[InfoSet, tuple[str, ...]]],
                 parents: tuple[Mapping[InfoSet, StrategyPath], Mapping[InfoSet, StrategyPath]],
                 entries: Mapping[tuple[StrategyPath, StrategyPath], Mapping[Hashable, int]]
                 ) -> SequenceForm:
    """The sequence form of the coup's outcome counts (the walker's, or the direct loops' of
    :mod:`~exact.games.chemin_de_fer.reference`): each pair's Player wins and Banker wins
    (a tie pushes, a Banker win pays less the commission of ``rules``), the sets in the
    order the reports list them."""
    keep = 1 - rules.commission
    # without a commission the Banker's pay is the integer as a Fraction, made at once (the
    # same value and type as the product: a multiplication and a subtraction of Fractions
    # cost a reduction each, at every leaf)
    banker_pay: Callable[[int, int], Fraction] = (
        (lambda won, lost: Fraction(lost - won)) if keep == 1
        else (lambda won, lost: keep * lost - won))
    leaves = tuple(Leaf(first, second, won - lost, banker_pay(won, lost))
                   for (first, second), counts in entries.items()
                   for won, lost in ((counts.get("player", 0), counts.get("banker", 0)),))
    return SequenceForm(
        total=total,
        sets=({h: sets[0][h] for h in sorted(sets[0], key=repr)},
              {h: sets[1][h] for h in sorted(sets[1], key=_banker_order)}),
        parents=(dict(parents[0]), dict(parents[1])),
        leaves=leaves)


def _banker_order(infoset: InfoSet) -> tuple[str, int]:
    _kind, tag, third = set_parts(infoset)
    return (repr(tag), -1 if third is None else third)


Tag = int | tuple[int, int]  # what a side sees of its two cards: their total, or both values


# --- strategies -------------------------------------------------------------------------------
def house_way(rules: Rules, game: SequenceForm) -> tuple[Strategy, Strategy]:
    """The casino tableau for both sides (the Player's choices as the rule file says)."""
    player, banker = _house_choosers(rules)
    return (pure(game, 0, player), pure(game, 1, banker))


def _house_choosers(rules: Rules) -> tuple[Chooser, Chooser]:
    return house_choosers(rules.house_player_draws_on, rules.house_way.banker_draws)


def equilibrium(rules: Rules, decks: int | None, information: str) -> Equilibrium:
    """The parlor game's (zero-sum) minimax strategies: the generic LP path, exact and verified.

    With a commission use :func:`nash_equilibria`."""
    if rules.commission:
        raise StrategyError("with a commission the game is not zero-sum: use nash_equilibria")
    return zero_sum_equilibrium(sequence_form(rules, decks, information))


def nash_equilibria(rules: Rules, decks: int | None, information: str) -> Equilibria:
    """Every Nash equilibrium, by the generic exact support enumeration (any commission)."""
    return bimatrix_equilibria(sequence_form(rules, decks, information))


@dataclass(frozen=True)
class Analysis:
    """A strategy pair of chemin de fer with its exact values and deviation check."""

    rules: Rules
    decks: int | None
    information: str
    strategy: str
    strategies: tuple[Strategy, Strategy]
    values: tuple[Fraction, Fraction]
    gains: tuple[Fraction, Fraction]
    method: str
    equilibria: int | None = None  # how many equilibria the support enumeration found
    unique: bool | None = None

    @property
    def shoe(self) -> str:
        return ("with replacement (one deck's proportions)" if self.decks is None
                else f"{self.decks} deck{'s' * (self.decks > 1)}, first coup")

    @cached_property
    def game(self) -> SequenceForm:
        return sequence_form(self.rules, self.decks, self.information)

    def tables(self) -> dict[str, list[dict[str, str]]]:
        """Per side and information set, the exact probability of drawing."""
        return {side: [{"information": describe_set(h),
                        "draw": str(self.strategies[index][h][DRAW])}
                       for h in self.game.sets[index]]
                for index, side in enumerate(("player", "banker"))}

    def to_json(self) -> str:
        payload = {
            "game": "chemin-de-fer", "name": self.rules.name, "rules": self.rules.describe(),
            "shoe": self.shoe, "decks": self.decks, "with_replacement": self.decks is None,
            "information": self.information, "commission": str(self.rules.commission),
            "strategy": self.strategy, "method": self.method,
            "player_edge": str(self.values[0]), "player_edge_float": float(self.values[0]),
            "banker_edge": str(self.values[1]), "banker_edge_float": float(self.values[1]),
            "deviation_check": {"player_gain": str(self.gains[0]),
                                "banker_gain": str(self.gains[1]),
                                "equilibrium": self.gains == (0, 0)},
            "equilibria_found": self.equilibria, "unique": self.unique,
            "strategy_tables": self.tables(),
        }
        return str(json_text(payload))

    def to_csv(self) -> str:
        """One row per side and information set: the exact probability of drawing there,
        beside the pair's exact edges and deviation gains (repeated on every row, so a
        spreadsheet filters and pivots them); exact cells are spreadsheet text."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["game", "rules", "shoe", "information", "commission", "strategy",
                         "method", "player_edge", "player_edge_float", "banker_edge",
                         "banker_edge_float", "player_gain", "banker_gain", "side",
                         "information_set", "draw_probability", "draw_probability_float"])
        common = [csv_text(self.rules.name), csv_text(self.shoe), self.information,
                  spreadsheet_text(self.rules.commission), self.strategy, csv_text(self.method),
                  spreadsheet_text(self.values[0]), general(self.values[0]),
                  spreadsheet_text(self.values[1]), general(self.values[1]),
                  spreadsheet_text(self.gains[0]), spreadsheet_text(self.gains[1])]
        for index, side in enumerate(("player", "banker")):
            for h in self.game.sets[index]:
                draw = self.strategies[index][h][DRAW]
                writer.writerow(["chemin-de-fer", *common, side, describe_set(h),
                                 spreadsheet_text(draw), general(draw)])
        return out.getvalue()

    def to_text(self) -> str:
        lines = [f"{self.rules.name}: {self.shoe}, information {self.information}, "
                 f"commission {self.rules.commission}",
                 f"strategy: {self.strategy} ({self.method})",
                 f"Player's edge {self.values[0]} = {float(self.values[0]):+.6%}",
                 f"Banker's edge {self.values[1]} = {float(self.values[1]):+.6%}",
                 f"deviation check: the Player gains {self.gains[0]} by its best deviation, "
                 f"the Banker {self.gains[1]}"
                 + (" (an equilibrium)" if self.gains == (0, 0) else "")]
        if self.equilibria is not None:
            lines.append(f"Nash equilibria found: {self.equilibria}"
                         + ("; unique" if self.unique else "; uniqueness not established"
                            if self.equilibria == 1 else ""))
        lines.append("")
        lines.append("Player: probability of drawing")
        for h in self.game.sets[0]:
            lines.append(f"  {describe_set(h):24} {_cell(self.strategies[0][h][DRAW])}")
        lines.append("")
        lines.append("Banker: D draws, S stands, else the probability of drawing; columns: "
                     "the Player's third card (- stood)")
        grid: dict[Tag, dict[int | None, str]] = {}
        for h in self.game.sets[1]:
            _, tag, third = set_parts(h)
            grid.setdefault(tag, {})[third] = _cell(self.strategies[1][h][DRAW])
        thirds: list[int | None] = [None, *range(10)]
        lines.append(f"  {'Banker':8}" + "".join(f"{'-' if t is None else t:>7}" for t in thirds))
        for tag, row in grid.items():
            label = str(tag) if isinstance(tag, int) else "+".join(map(str, tag))
            lines.append(f"  {label:8}" + "".join(f"{row.get(t, ''):>7}" for t in thirds))
        return "\n".join(lines) + "\n"


def _cell(probability: Fraction) -> str:
    return "D" if probability == 1 else "S" if probability == 0 else str(probability)


def describe_set(infoset: InfoSet) -> str:
    """Words for an information set.

    >>> describe_set(("banker", (1, 2), None)), describe_set(("banker", 3, 9))
    ('Banker 1+2, Player stood', "Banker 3, Player's third card 9")
    """
    kind, tag, third = set_parts(infoset)
    own = str(tag) if isinstance(tag, int) else "+".join(map(str, tag))
    if kind == "player":
        return f"Player {own}"
    return f"Banker {own}, " + ("Player stood" if third is None
                                else f"Player's third card {third}")


def analyze(rules: Rules, decks: int | None, information: str, strategy: str) -> Analysis:
    """``strategy`` = house (the tableau both sides), best (the Player's best response to the
    Banker's tableau), dealer-best (the Banker's best response to the Player's House Way) or
    equilibrium (zero-sum: the LP path; with a commission: exact Nash enumeration)."""
    if strategy not in STRATEGIES:
        raise StrategyError(f"unknown strategy {shown(strategy)}; known: {', '.join(STRATEGIES)}")
    game = sequence_form(rules, decks, information)
    defaults = _house_choosers(rules)
    player, banker = house_way(rules, game)
    count = unique = None
    method = "House Way (casino tableau)"
    if strategy == "best":
        player, method = generic_best_response(game, 0, banker, defaults[0]), "best response"
    elif strategy == "dealer-best":
        banker, method = generic_best_response(game, 1, player, defaults[1]), "best response"
    elif strategy == "equilibrium" and not rules.commission:
        found = zero_sum_equilibrium(game)
        (player, banker), method = found.strategies, found.method
        if len(game.sets[0]) == 1:  # the full enumeration is cheap: say whether it is unique
            every = bimatrix_equilibria(game)
            count, unique = len(every.found), every.unique
    elif strategy == "equilibrium":
        every = bimatrix_equilibria(game)
        if not every.found:
            bound = "" if every.exhaustive else (" within its bound (the game has too many "
                                                 "decision points to search them all)")
            raise StrategyError("no Nash equilibrium found by the exact support enumeration"
                                + bound)
        (player, banker), method = every.found[0].strategies, every.found[0].method
        count, unique = len(every.found), every.unique
    values, gains = deviation_gains(game, player, banker, defaults)
    return Analysis(rules, decks, information, strategy, (player, banker), values, gains,
                    method, count, unique)


# --- the game, as the registry and the command line see it ------------------------------------
@dataclass(frozen=True)
class CheminDeFer(Game[Record]):  # a strategy game: no records of its own
    """Baccara chemin de fer heads-up: a strategy game (no bet file)."""

    rules: Rules = RULES
    id: str = "chemin-de-fer"
    name: str = "Baccara chemin de fer"
    bet_files: tuple[Path, ...] = ()

    @cached_property
    def features(self) -> dict[str, Feature[Record]]:
        return {}

    def describe_rules(self) -> list[str]:
        return self.rules.describe()
