"""Chemin de fer's rule file: the coup's forced moves and the Player's choice totals, the
default shoe, the commission and House Way, each validated.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path

import msgspec

from exact.core.parsing import check_keys, parse_number
from exact.core.records import Commission, Decks, FileRecord, Total, TotalKey, TotalRow
from exact.errors import RuleError, RuleInputError
from exact.games.baccarat.coup import FIVE, CoupFile
from exact.games.baccarat.coup import Rules as Tableau
from exact.model.game import read_rule_file

DATA = Path(__file__).resolve().parent / "data"  # the game's data files, beside its code
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


class RuleFile(CoupFile, frozen=True, kw_only=True):
    """A chemin de fer rule file (``data/rules.toml``): the coup's keys, and the totals on
    which the Player stands or chooses, the shoe, the commission and House Way."""

    player_stands_on: frozenset[Total]
    player_chooses_on: frozenset[Total]
    house_way: HouseWayFile
    decks: Decks = Decks(6)
    commission: Commission = Commission(0)


@dataclass(frozen=True)
class Rules:
    """The coup's forced moves, the default shoe, the commission and House Way (validated):
    the Player's House Way on its choice totals, and the casino tableau, the one tableau
    record of the baccarat games (:class:`~exact.games.baccarat.coup.Rules`), for the Banker."""

    id: str
    name: str
    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    player_stands_on: frozenset[int]
    player_chooses_on: frozenset[int]
    decks: int
    commission: Fraction
    # House Way: the choice totals on which the Player draws (it stands on the others), the
    # Banker's totals on which it draws when the Player stood, and, when the Player drew, for
    # each Banker total that is no natural, the Player's third cards it draws against
    house_player_draws_on: frozenset[int]
    house_banker_draws_when_player_stands: frozenset[int]
    house_banker_draws_on_player_third: Mapping[int, frozenset[int]] = field(hash=False)

    def __post_init__(self) -> None:
        _check_split(self.id, self.naturals, self.player_draws_on, self.player_stands_on,
                     self.player_chooses_on)
        self.house_way  # noqa: B018 -- built now, so that a tableau missing a row is refused here
        player_draws = bool(self.player_draws_on | self.house_player_draws_on)
        # as the rule file's reader refuses them (a replace of naturals may leave one); where
        # the Player never draws the reader fills each row empty, which says nothing
        unused = sorted(total for total, row in self.house_banker_draws_on_player_third.items()
                        if total in self.naturals or (row and not player_draws))
        if unused:
            raise RuleError(f"rules {self.id!r}: House Way row(s) {', '.join(map(str, unused))} "
                            "are never consulted (naturals end the coup"
                            + ("" if player_draws else ", and the Player never draws") + ")")
        if not 0 <= self.commission <= Fraction(1, 10):
            raise RuleError(f"commission {self.commission} is outside 0 to 1/10")
        if not 1 <= self.decks <= MAX_DECKS:
            raise RuleError(f"decks {self.decks} is outside 1 to {MAX_DECKS}")
        if not self.house_player_draws_on <= self.player_chooses_on:
            raise RuleError(f"rules {self.id!r}: House Way has the Player draw on "
                            f"{sorted(self.house_player_draws_on - self.player_chooses_on)}, "
                            "where it does not choose")

    @cached_property
    def house_way(self) -> Tableau:
        """House Way as the one tableau record of the baccarat games, read from the fields
        (never stored beside them: a ``dataclasses.replace`` of a field changes it too)."""
        return Tableau(id=f"{self.id} House Way", name=f"{self.name}: House Way",
                       naturals=self.naturals,
                       player_draws_on=self.player_draws_on | self.house_player_draws_on,
                       banker_draws_when_player_stands=self.house_banker_draws_when_player_stands,
                       banker_draws_on_player_third=self.house_banker_draws_on_player_third)

    @classmethod
    def load(cls, path: Path | str = DATA / "rules.toml") -> Rules:
        """Read a rule file (TOML); see ``exact/games/chemin_de_fer/data/rules.toml``."""
        path = Path(path)
        rules = read_rule_file(path, RuleFile)
        house = rules.house_way
        naturals, draws_on = rules.naturals, rules.player_draws_on
        chooses_on = rules.player_chooses_on
        name = rules.id if rules.name is None else rules.name
        try:
            _check_split(rules.id, naturals, draws_on, rules.player_stands_on, chooses_on)
            house_draws = _house_player_draws(house, chooses_on, path)
            rows = _house_third_rows(house, naturals, bool(draws_on or chooses_on), path)
            return cls(
                id=rules.id,
                name=name,
                naturals=naturals,
                player_draws_on=draws_on,
                player_stands_on=rules.player_stands_on,
                player_chooses_on=chooses_on,
                decks=rules.decks,
                commission=rules.commission,
                house_player_draws_on=house_draws,
                house_banker_draws_when_player_stands=house.banker_draws_when_player_stands,
                # a plain dict, as the tableau's own loader gives: a mappingproxy would make
                # the rules unpicklable (process pools) and impossible to deepcopy
                house_banker_draws_on_player_third={total: rows[total] for total in range(10)
                                                    if total not in naturals},
            )
        except RuleError as error:
            if str(error).startswith(f"{path}: "):
                raise
            raise RuleError(f"{path}: {error}") from None  # the rules' own checks name no file

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


def _check_split(rule_id: str, naturals: frozenset[int], draws_on: frozenset[int],
                 stands_on: frozenset[int], chooses_on: frozenset[int]) -> None:
    parts = (naturals, draws_on, stands_on, chooses_on)
    if sorted(t for part in parts for t in part) != list(range(10)):
        raise RuleError(f"rules {rule_id!r}: naturals and the Player's draw, stand and "
                        "choice totals must split 0-9, each total once")


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
