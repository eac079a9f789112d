"""Chemin de fer's rule file: the coup's forced moves and the Player's choice totals, the
default shoe, the commission and House Way, each validated.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from exact.core.parsing import check_keys, parse_number, plain_text, shown
from exact.errors import ExactError, RuleError, RuleInputError
from exact.games.baccarat.coup import FIVE
from exact.games.baccarat.coup import Rules as Tableau
from exact.model.game import read_rule_file

DATA = Path(__file__).resolve().parent / "data"  # the game's data files, beside its code
MAX_DECKS = 64
# the keys of a rule file (exact/games/chemin_de_fer/data/rules.toml): any other is refused
RULE_KEYS = frozenset({"id", "name", "naturals", "player_draws_on", "player_stands_on",
                       "player_chooses_on", "decks", "commission", "house_way"})
HOUSE_KEYS = frozenset({"player_draws_on_five", "player_draws_on_choice",
                        "banker_draws_when_player_stands", "banker_draws_on_player_third"})
THIRD_KEYS = frozenset(str(total) for total in range(10))


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
    # House Way: the choice totals on which the Player draws (it stands on the others)
    house_player_draws_on: frozenset[int]
    house_way: Tableau  # the tableau as loaded: the Banker's House Way

    def __post_init__(self) -> None:
        _check_split(self.id, self.naturals, self.player_draws_on, self.player_stands_on,
                     self.player_chooses_on)
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
        """Read a rule file (TOML); see ``exact/games/chemin_de_fer/data/rules.toml``."""
        path = Path(path)
        data = read_rule_file(path)
        try:
            # a misspelt rule (``comission``) must not leave its default silently in force
            check_keys(data, RULE_KEYS, str(path), RuleError, "rule")
            house = _table(data["house_way"], "[house_way]")
            check_keys(house, HOUSE_KEYS, f"{path}: [house_way]", RuleError, "rule")
            naturals = _totals(data["naturals"], "naturals")
            draws_on = _totals(data["player_draws_on"], "player_draws_on")
            stands_on = _totals(data["player_stands_on"], "player_stands_on")
            chooses_on = _totals(data["player_chooses_on"], "player_chooses_on")
            rule_id = plain_text(data["id"], f"{path}: rule id", RuleError)
            name = plain_text(data.get("name", data["id"]), f"{path}: rule name", RuleError)
            _check_split(rule_id, naturals, draws_on, stands_on, chooses_on)
            house_draws = _house_player_draws(house, chooses_on, path)
            rows = _house_third_rows(house, naturals, bool(draws_on or chooses_on), path)
            return cls(
                id=rule_id,
                name=name,
                naturals=naturals,
                player_draws_on=draws_on,
                player_stands_on=stands_on,
                player_chooses_on=chooses_on,
                decks=_integer(data.get("decks", 6), "decks"),
                commission=parse_commission(str(data.get("commission", "0"))),
                house_player_draws_on=house_draws,
                house_way=Tableau(
                    id=f"{rule_id} House Way", name=f"{name}: House Way", naturals=naturals,
                    player_draws_on=draws_on | house_draws,
                    banker_draws_when_player_stands=_totals(
                        house["banker_draws_when_player_stands"],
                        "banker_draws_when_player_stands"),
                    # a plain dict, as the tableau's own loader gives: a mappingproxy would
                    # make the rules unpicklable (process pools) and impossible to deepcopy
                    banker_draws_on_player_third={total: rows[total] for total in range(10)
                                                  if total not in naturals}),
            )
        except KeyError as error:
            raise RuleError(f"{path}: missing rule {error.args[0]!r}") from None
        except (TypeError, AttributeError, ValueError) as error:
            if isinstance(error, ExactError):
                # a value's own check does not know the file: name it once
                if str(error).startswith(f"{path}: "):
                    raise
                raise RuleError(f"{path}: {error}") from None
            raise RuleError(f"{path}: malformed rule: {error}") from None

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


def _house_player_draws(house: Mapping[str, object], chooses_on: frozenset[int],
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
        if "player_draws_on_five" not in house:
            raise RuleError(f"{where}: missing rule 'player_draws_on_five' (the Player "
                            "chooses on 5: say whether House Way draws there)")
        if _flag(house["player_draws_on_five"], "player_draws_on_five"):
            draws.add(FIVE)
    elif "player_draws_on_five" in house:
        raise RuleError(f"{where}: player_draws_on_five is given but the Player does not "
                        f"choose on 5 (player_chooses_on = {sorted(chooses_on)})")
    others = sorted(chooses_on - {FIVE})
    table = _table(house.get("player_draws_on_choice", {}),
                   "[house_way.player_draws_on_choice]")
    known = [str(total) for total in others]
    check_keys(table, known, f"{path}: [house_way.player_draws_on_choice] (the Player's "
               "choice totals other than 5; 5 is player_draws_on_five)", RuleError, "total")
    missing = [key for key in known if key not in table]
    if missing:
        raise RuleError(f"{where}: House Way for the Player's choice on {', '.join(missing)} "
                        "is missing: give each in [house_way.player_draws_on_choice] "
                        "(true: draw, false: stand)")
    draws.update(total for total in others
                 if _flag(table[str(total)], f"player_draws_on_choice {total}"))
    return frozenset(draws)


def _house_third_rows(house: Mapping[str, object], naturals: frozenset[int], player_draws: bool,
                      path: Path) -> tuple[frozenset[int], ...]:
    """House Way's Banker against a Player's third card, one row per total the Banker decides
    on (every total but the naturals, if the Player ever draws). A row left out is refused,
    not read as "never draw", and so is a row the rules never consult."""
    where = f"{path}: [house_way.banker_draws_on_player_third]"
    needed = [str(total) for total in range(10) if player_draws and total not in naturals]
    if needed and "banker_draws_on_player_third" not in house:
        raise RuleError(f"{path}: [house_way]: missing rule 'banker_draws_on_player_third' "
                        f"(rows {', '.join(needed)})")
    third = _table(house.get("banker_draws_on_player_third", {}),
                   "[house_way.banker_draws_on_player_third]")
    check_keys(third, THIRD_KEYS, where, RuleError, "total")
    unused = sorted(key for key in third if key not in needed)
    if unused:
        raise RuleError(f"{where}: row(s) {', '.join(unused)} are never consulted (naturals "
                        + ("end the coup" if player_draws else "end the coup, and the Player "
                           "never draws") + ")")
    missing = [key for key in needed if key not in third]
    if missing:
        raise RuleError(f"{where}: missing row(s) {', '.join(missing)}: the Banker decides on "
                        "each of these totals against a third card (give [] to stand on all)")
    return tuple(_totals(third.get(str(total), []), f"banker_draws_on_player_third {total}")
                 for total in range(10))


def _totals(values: object, name: str = "totals") -> frozenset[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                               and 0 <= v <= 9 for v in values):
        raise RuleError(f"rule {name}: expected a list of totals 0-9, got {shown(values)}")
    return frozenset(values)


def _table(value: object, name: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise RuleError(f"{name} must be a table, got {shown(value)}")
    return value


def _flag(value: object, name: str = "flag") -> bool:
    if not isinstance(value, bool):  # bool("false") is True
        raise RuleError(f"rule {name}: expected true or false, got {shown(value)}")
    return value


def _integer(value: object, name: str = "number") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError(f"rule {name}: expected an integer, got {shown(value)}")
    return value


def parse_commission(text: object) -> Fraction:
    """A commission from ``"0.05"``, ``"5%"`` or ``"1/20"``, exactly: the number grammar's
    ``commission`` (:mod:`exact.core.parsing`; ``\\d`` took Arabic-Indic digits).

    >>> parse_commission("5%"), parse_commission("1/20"), parse_commission("0.05")
    (Fraction(1, 20), Fraction(1, 20), Fraction(1, 20))
    """
    return parse_number(text, "commission", "commission", RuleInputError)


RULES = Rules.load()
