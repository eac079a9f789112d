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

This module only *defines* the game, as a sequence form (:mod:`exact.engines.strategy_games`): the
exact summed payoffs of both sides for every pair of choices, over the ``N(N-1)...(N-5)``
ordered six-card sequences (``13**6`` with replacement). Best responses, evaluation and the
equilibria are the generic algorithms of that module.

>>> game = sequence_form(RULES, None, "totals")
>>> game.total == 13**6, len(game.sets[0]), len(game.sets[1])
(True, 1, 88)
>>> found = equilibrium(RULES, None, "totals")
>>> found.strategies[0][PLAYER_FIVE]["draw"], found.verified
(Fraction(9, 11), True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal, get_args

import msgspec

from exact.core.enumerator import Record, falling
from exact.core.parsing import check_keys, parse_number, shown
from exact.core.records import Commission, Decks, FileRecord, Name, Total, TotalKey, TotalRow
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
from exact.engines.strategy_games import Path as StrategyPath
from exact.engines.strategy_games import best_response as generic_best_response
from exact.errors import RuleError, RuleInputError
from exact.errors import StrategyError as StrategyError
from exact.model.features import Feature
from exact.model.game import Game, read_rule_file

DATA = Path(__file__).resolve().parent / "data"  # the game's data files, beside its code
# what the Player decides by; which strategy pair is analysed
Information = Literal["totals", "banker-cards", "cards"]
INFORMATION: tuple[Information, ...] = get_args(Information)
StrategyName = Literal["house", "best", "dealer-best", "equilibrium"]
STRATEGIES: tuple[StrategyName, ...] = get_args(StrategyName)
DRAW, STAND = "draw", "stand"
ACTIONS = (DRAW, STAND)
PLAYER_FIVE = ("player", 5)
ROUND_CARDS = 6
WITH_REPLACEMENT_DECK = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # one deck's proportions, over 13
MAX_DECKS = 64


class HouseWayFile(FileRecord, frozen=True):
    """``[house_way]`` of a rule file: the casino tableau where the rules leave a choice."""

    key_word = "rule"
    key_form = "rule {}"
    banker_draws_when_player_stands: frozenset[Total]
    player_draws_on_five: bool | None = None
    """Whether House Way's Player draws on 5 (given exactly when the Player chooses on 5)."""
    player_draws_on_choice: dict[TotalKey, bool] = msgspec.field(default_factory=dict)
    """House Way on each other total the Player chooses on (``4 = true``: draw)."""
    banker_draws_on_player_third: dict[TotalRow, frozenset[Total]] | None = None
    """One row per Banker total that is no natural (if the Player ever draws): the Player's
    third cards it draws against."""


class RuleFile(FileRecord, frozen=True):
    """A chemin de fer rule file (``data/rules.toml``)."""

    key_word = "rule"
    key_form = "rule {}"
    id: Name
    naturals: frozenset[Total]
    player_draws_on: frozenset[Total]
    player_stands_on: frozenset[Total]
    player_chooses_on: frozenset[Total]
    house_way: HouseWayFile
    name: Name | None = None
    decks: Decks = Decks(6)
    commission: Commission = Commission(0)


FIVE = 5  # the Player's option of the game as published: the only total its flag speaks of


@dataclass(frozen=True)
class Rules:
    """The coup's forced moves, the default shoe, the commission and House Way (validated)."""

    id: str
    name: str
    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    player_stands_on: frozenset[int]
    player_chooses_on: frozenset[int]
    decks: int
    commission: Fraction
    # House Way: the choice totals on which the Player draws (it stands on the others)
    house_player_draws_on: frozenset[int]
    house_banker_draws_when_player_stands: frozenset[int]
    house_banker_draws_on_player_third: tuple[frozenset[int], ...] = field(hash=True)

    def __post_init__(self) -> None:
        parts = (self.naturals, self.player_draws_on, self.player_stands_on,
                 self.player_chooses_on)
        if sorted(t for part in parts for t in part) != list(range(10)):
            raise RuleError(f"rules {self.id!r}: naturals and the Player's draw, stand and "
                            "choice totals must split 0-9, each total once")
        if not 0 <= self.commission <= Fraction(1, 10):
            raise RuleError(f"commission {self.commission} is outside 0 to 1/10")
        if not 1 <= self.decks <= MAX_DECKS:
            raise RuleError(f"decks {self.decks} is outside 1 to {MAX_DECKS}")
        if not self.house_player_draws_on <= self.player_chooses_on:
            raise RuleError(f"rules {self.id!r}: House Way has the Player draw on "
                            f"{sorted(self.house_player_draws_on - self.player_chooses_on)}, "
                            "where it does not choose")

    @classmethod
    def load(cls, path: Path | str = DATA / "rules.toml") -> Rules:
        """Read a rule file (TOML); see ``exact/data/chemin_de_fer/rules.toml``."""
        path = Path(path)
        rules = read_rule_file(path, RuleFile)
        house = rules.house_way
        draws = bool(rules.player_draws_on or rules.player_chooses_on)
        try:
            return cls(
                id=rules.id, name=rules.id if rules.name is None else rules.name,
                naturals=rules.naturals, player_draws_on=rules.player_draws_on,
                player_stands_on=rules.player_stands_on,
                player_chooses_on=rules.player_chooses_on, decks=rules.decks,
                commission=rules.commission,
                house_player_draws_on=_house_player_draws(house, rules.player_chooses_on, path),
                house_banker_draws_when_player_stands=house.banker_draws_when_player_stands,
                house_banker_draws_on_player_third=_house_third_rows(house, rules.naturals,
                                                                     draws, path))
        except RuleError as error:
            if str(error).startswith(f"{path}: "):
                raise
            raise RuleError(f"{path}: {error}") from None  # the rules' own checks name no file

    def house_banker_draws(self, total: int, third: int | None) -> bool:
        """The casino tableau: whether the Banker draws on ``total`` against the Player's
        third card ``third`` (None: the Player stood).

        >>> RULES.house_banker_draws(3, 8), RULES.house_banker_draws(6, None)
        (False, False)
        """
        if third is None:
            return total in self.house_banker_draws_when_player_stands
        return third in self.house_banker_draws_on_player_third[total]

    def with_commission(self, commission: Fraction) -> Rules:
        from dataclasses import replace
        return replace(self, commission=commission)

    def describe(self) -> list[str]:
        return [f"naturals {sorted(self.naturals)} end the coup",
                f"Player draws on {sorted(self.player_draws_on)}, stands on "
                f"{sorted(self.player_stands_on)}, chooses on {sorted(self.player_chooses_on)}",
                "Banker chooses at every decision point, seeing its hand and the Player's "
                "third card (or that the Player stood)",
                f"ties push; commission on Banker wins {self.commission}"]


def _house_player_draws(house: HouseWayFile, chooses_on: frozenset[int],
                        path: Path) -> frozenset[int]:
    """The choice totals on which House Way's Player draws, each said by the file.

    ``player_draws_on_five`` is the Player's option of the published game (Kemeny and Snell,
    Ethier and Gámez: draw or stand on 5) and speaks of a 5 only; a rule file letting the
    Player choose on other totals gives House Way for each in
    ``[house_way.player_draws_on_choice]`` (``4 = true``). A choice left out, or a row for a
    total the Player does not choose on, is refused: House Way is never guessed."""
    where = f"{path}: [house_way]"
    draws: set[int] = set()
    if FIVE in chooses_on:
        if house.player_draws_on_five is None:
            raise RuleError(f"{where}: missing rule 'player_draws_on_five' (the Player "
                            "chooses on 5: say whether House Way draws there)")
        if house.player_draws_on_five:
            draws.add(FIVE)
    elif house.player_draws_on_five is not None:
        raise RuleError(f"{where}: player_draws_on_five is given but the Player does not "
                        f"choose on 5 (player_chooses_on = {sorted(chooses_on)})")
    others = sorted(chooses_on - {FIVE})
    table = {int(total): flag for total, flag in house.player_draws_on_choice.items()}
    # which totals the table may hold depends on player_chooses_on: no record can say it
    check_keys({str(total): flag for total, flag in table.items()}, map(str, others),
               f"{path}: [house_way.player_draws_on_choice] (the Player's choice totals other "
               "than 5; 5 is player_draws_on_five)", RuleError, "total")
    missing = [str(total) for total in others if total not in table]
    if missing:
        raise RuleError(f"{where}: House Way for the Player's choice on {', '.join(missing)} "
                        "is missing: give each in [house_way.player_draws_on_choice] "
                        "(true: draw, false: stand)")
    draws.update(total for total in others if table[total])
    return frozenset(draws)


def _house_third_rows(house: HouseWayFile, naturals: frozenset[int], player_draws: bool,
                      path: Path) -> tuple[frozenset[int], ...]:
    """House Way's Banker against a Player's third card, one row per total the Banker decides
    on (every total but the naturals, if the Player ever draws). A row left out is refused,
    not read as "never draw", and so is a row the rules never consult."""
    where = f"{path}: [house_way.banker_draws_on_player_third]"
    needed = [total for total in range(10) if player_draws and total not in naturals]
    third = house.banker_draws_on_player_third
    if needed and third is None:
        raise RuleError(f"{path}: [house_way]: missing rule 'banker_draws_on_player_third' "
                        f"(rows {', '.join(map(str, needed))})")
    rows = {int(total): frozenset(map(int, row)) for total, row in (third or {}).items()}
    unused = sorted(total for total in rows if total not in needed)
    if unused:
        raise RuleError(f"{where}: row(s) {', '.join(map(str, unused))} are never consulted "
                        "(naturals " + ("end the coup" if player_draws else "end the coup, and "
                                        "the Player never draws") + ")")
    missing = [str(total) for total in needed if total not in rows]
    if missing:
        raise RuleError(f"{where}: missing row(s) {', '.join(missing)}: the Banker decides on "
                        "each of these totals against a third card (give [] to stand on all)")
    return tuple(rows.get(total, frozenset()) for total in range(10))


def parse_commission(text: object) -> Fraction:
    """A commission from ``"0.05"``, ``"5%"`` or ``"1/20"``, exactly: the number grammar's
    ``commission`` (:mod:`exact.core.parsing`; ``\\d`` took Arabic-Indic digits).

    >>> parse_commission("5%"), parse_commission("1/20"), parse_commission("0.05")
    (Fraction(1, 20), Fraction(1, 20), Fraction(1, 20))
    """
    return parse_number(text, "commission", "commission", RuleInputError)


RULES = Rules.load()


# --- the game as a sequence form -----------------------------------------------------------
def player_set(information: str, first: int, second: int) -> tuple:
    """The Player's information set at a choice: its total (one set per total a rule file
    lets it choose on; the shipped rules' only one is 5, :data:`PLAYER_FIVE`), or its two
    cards."""
    return ("player", (first + second) % 10) if information != "cards" else (
        "player", (first, second))


def banker_set(information: str, first: int, second: int, third: int | None) -> tuple:
    tag = (first + second) % 10 if information == "totals" else (first, second)
    return ("banker", tag, third)


def sequence_form(rules: Rules, decks: int | None, information: str) -> SequenceForm:
    """The game of ``rules`` on a full ``decks``-deck shoe (None: with replacement)."""
    if information not in INFORMATION:
        raise StrategyError(f"unknown information model {shown(information)}; known: "
                            f"{', '.join(INFORMATION)}")
    if decks is not None and not 1 <= decks <= MAX_DECKS:
        raise StrategyError(f"--decks {decks}: choose 1 to {MAX_DECKS} decks")
    return _sequence_form(rules, decks, information)


@lru_cache(maxsize=32)  # bounded: each commission is a rule set of its own
def _sequence_form(rules: Rules, decks: int | None, information: str) -> SequenceForm:
    replace = decks is None
    counts = list(WITH_REPLACEMENT_DECK) if decks is None else [16 * decks, *[4 * decks] * 9]
    size = sum(counts)

    def fill(dealt: int) -> int:  # ways to deal the rest of the six-card unit
        return size ** (ROUND_CARDS - dealt) if replace else falling(size - dealt,
                                                                      ROUND_CARDS - dealt)

    def pair_ways(pool: list[int], a: int, b: int) -> int:
        if a == b:
            return pool[a] * (pool[a] - (not replace))
        return 2 * pool[a] * pool[b]

    def taken(pool: list[int], *cards: int) -> list[int]:
        if replace:
            return pool
        pool = list(pool)
        for card in cards:
            pool[card] -= 1
        return pool

    sums: dict[tuple, list[int]] = {}

    def add(p_path: tuple, b_path: tuple, player: int, banker: int, weight: int) -> None:
        entry = sums.setdefault((p_path, b_path), [0, 0])
        if player > banker:
            entry[0] += weight
        elif banker > player:
            entry[1] += weight

    def banker_turn(p_path: tuple, player_total: int, c: int, e: int, third: int | None,
                    pool: list[int], weight: int, dealt: int) -> None:
        banker_total = (c + e) % 10
        infoset = banker_set(information, c, e, third)
        add(p_path, ((infoset, STAND),), player_total, banker_total, weight * fill(dealt))
        won = lost = 0  # over the Banker's third card, summed before one update (speed)
        for card, n in enumerate(pool):
            final = (banker_total + card) % 10
            if player_total > final:
                won += n
            elif final > player_total:
                lost += n
        entry = sums.setdefault((p_path, ((infoset, DRAW),)), [0, 0])
        entry[0] += won * weight * fill(dealt + 1)
        entry[1] += lost * weight * fill(dealt + 1)

    player_sets: dict[tuple, tuple[str, ...]] = {}
    banker_sets: dict[tuple, tuple[str, ...]] = {}
    for a in range(10):
        for b in range(a, 10):
            p_ways = pair_ways(counts, a, b)
            if not p_ways:
                continue
            after_player = taken(counts, a, b)
            player_total = (a + b) % 10
            for c in range(10):
                for e in range(c, 10):
                    b_ways = pair_ways(after_player, c, e)
                    if not b_ways:
                        continue
                    pool = taken(after_player, c, e)
                    weight = p_ways * b_ways
                    banker_total = (c + e) % 10
                    if player_total in rules.naturals or banker_total in rules.naturals:
                        add((), (), player_total, banker_total, weight * fill(4))
                        continue
                    choices: list[tuple[StrategyPath, bool]]  # (Player's choices, stands)
                    if player_total in rules.player_chooses_on:
                        infoset = player_set(information, a, b)
                        player_sets[infoset] = ACTIONS
                        choices = [(((infoset, DRAW),), False), (((infoset, STAND),), True)]
                    else:
                        choices = [((), player_total not in rules.player_draws_on)]
                    for p_path, stands in choices:
                        if stands:
                            banker_sets[banker_set(information, c, e, None)] = ACTIONS
                            banker_turn(p_path, player_total, c, e, None, pool, weight, 4)
                            continue
                        for third, n in enumerate(pool):
                            if n:
                                banker_sets[banker_set(information, c, e, third)] = ACTIONS
                                banker_turn(p_path, (player_total + third) % 10, c, e, third,
                                            taken(pool, third), weight * n, 5)
    keep = 1 - rules.commission
    leaves = tuple(Leaf(p, b, won - lost, keep * lost - won)
                   for (p, b), (won, lost) in sums.items())
    order = sorted
    return SequenceForm(
        total=fill(0),
        sets=({h: player_sets[h] for h in order(player_sets, key=repr)},
              {h: banker_sets[h] for h in order(banker_sets, key=_banker_order)}),
        parents=({h: () for h in player_sets}, {h: () for h in banker_sets}),
        leaves=leaves)


def _banker_order(infoset: InfoSet) -> tuple[str, int]:
    _kind, tag, third = set_parts(infoset)
    return (repr(tag), -1 if third is None else third)


Tag = int | tuple[int, int]  # what a side sees of its two cards: their total, or both values


def set_parts(infoset: InfoSet) -> tuple[str, Tag, int | None]:
    """(side, what it sees of its cards, the Player's third card or None) of one of this
    game's information sets: ``("player", tag)`` or ``("banker", tag, third)``.

    >>> set_parts(("player", 5)), set_parts(("banker", (1, 2), 9))
    (('player', 5, None), ('banker', (1, 2), 9))
    """
    if not isinstance(infoset, tuple) or len(infoset) not in (2, 3):
        raise StrategyError(f"not an information set of Chemin de Fer: {infoset!r}")
    return infoset[0], infoset[1], infoset[2] if len(infoset) == 3 else None


# --- strategies -------------------------------------------------------------------------------
def own_total(infoset: InfoSet) -> int:
    """The total of the side whose information set this is (Player or Banker).

    >>> own_total(("player", (2, 3))), own_total(("banker", 6, None))
    (5, 6)
    """
    tag = set_parts(infoset)[1]
    return tag if isinstance(tag, int) else sum(tag) % 10


def house_way(rules: Rules, game: SequenceForm) -> tuple[Strategy, Strategy]:
    """The casino tableau for both sides (the Player's choices as the rule file says)."""
    return (pure(game, 0, _house_player(rules)), pure(game, 1, _house_banker(rules)))


def _house_player(rules: Rules):
    return lambda infoset, _actions: (
        DRAW if own_total(infoset) in rules.house_player_draws_on else STAND)


def _house_banker(rules: Rules):
    return lambda infoset, _actions: (
        DRAW if rules.house_banker_draws(own_total(infoset), set_parts(infoset)[2])
        else STAND)


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
        return json.dumps(payload, indent=2) + "\n"

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
    defaults = (_house_player(rules), _house_banker(rules))
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
