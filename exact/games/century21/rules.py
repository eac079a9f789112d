"""The rules of 21st Century Baccarat as data: read from TOML, validated, frozen.

Layer: games, the top: a game's code may import every generic layer, no other game.

>>> rules = Rules.load()
>>> rules.decks, rules.jokers, rules.option_totals, rules.collection_fee(10)
(8, 8, (5, 6), Fraction(1, 1))
>>> rules.replace(jokers=-1)
Traceback (most recent call last):
...
exact.errors.RuleError: rule jokers: must be a non-negative integer, got -1
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from exact.core.parsing import QUANTITIES, parse_number, shown, shown_all
from exact.core.records import (
    Decks,
    Fee,
    FileRecord,
    Jokers,
    Money,
    Name,
    Pays,
    Total,
    TotalKey,
    structure,
)
from exact.errors import RuleError, RuleInputError
from exact.model.game import read_rule_table

DATA = Path(__file__).resolve().parent / "data"  # the game's data files, beside its code
TOTALS = range(10)
ACTIONS = ("seat-by-seat", "whole-hand")


# A rule file (DATA / "rules.toml"), as records: a key left out keeps the default of
# :class:`Rules` (UNSET here, so that the defaults are written once, there).
class ShowdownFile(FileRecord, frozen=True):
    """``[showdown]``: who wins which hands."""

    key_word = "rule"
    key_form = "rule {}"
    stop_on_dealer_joker_up: bool | UnsetType = UNSET
    stop_on_dealer_nine: bool | UnsetType = UNSET
    dealer_wins_ties_on_zero: bool | UnsetType = UNSET
    three_card_nine_pushes_two_card_nine: bool | UnsetType = UNSET
    natural_any_two_jokers: bool | UnsetType = UNSET


class DrawingFile(FileRecord, frozen=True):
    """``[drawing]``: the forced draws and House Way."""

    key_word = "rule"
    key_form = "rule {}"
    must_draw_max: Total | UnsetType = UNSET
    must_stand_min: Total | UnsetType = UNSET
    house_way_draw_max: Total | UnsetType = UNSET
    dealer_house_way_draw_max: Total | UnsetType = UNSET
    third_cards_face_up: bool | UnsetType = UNSET


class SettlementFile(FileRecord, frozen=True):
    """``[settlement]``: how a short Player/Dealer wager takes action."""

    key_word = "rule"
    key_form = "rule {}"
    action: Name | UnsetType = UNSET


class TableTagFile(FileRecord, frozen=True):
    """An entry of ``table_tags``: a table's limits and collection fee."""

    min_bet: Money
    max_bet: Money
    fee: Fee


class CollectionFile(FileRecord, frozen=True):
    """``[collection]``: the fee each seat pays, by table."""

    key_word = "rule"
    key_form = "rule {}"
    dealer_pays: bool | UnsetType = UNSET
    table_tags: tuple[TableTagFile, ...] | UnsetType = UNSET
    """The first is the default table."""


class RuleFile(FileRecord, frozen=True):
    """A 21st Century Baccarat rule file (the fields of :class:`Rules`, in sections)."""

    key_word = "rule"
    key_form = "rule {}"
    id: Name | UnsetType = UNSET
    name: Name | UnsetType = UNSET
    decks: Decks | UnsetType = UNSET
    jokers: Jokers | UnsetType = UNSET
    joker_values: tuple[Total, ...] | UnsetType = UNSET
    drawn_joker_is_nine: bool | UnsetType = UNSET
    natural_pays: Pays | UnsetType = UNSET
    win_pays: Pays | UnsetType = UNSET
    win_pays_by_total: dict[TotalKey, Pays] | UnsetType = UNSET
    showdown: ShowdownFile = ShowdownFile()
    drawing: DrawingFile = DrawingFile()
    settlement: SettlementFile = SettlementFile()
    collection: CollectionFile = CollectionFile()


def _given(record: FileRecord) -> dict[str, Any]:
    """The keys of ``record`` that its file gives."""
    return {key: value for key, value in msgspec.structs.asdict(record).items()
            if value is not UNSET}


_LARGEST_SHOE = QUANTITIES["decks"].maximum or 0  # (the decks' bound is set: 10**22)


class RuleWarning(UserWarning):
    """A setting that the other settings make moot (e.g. a Natural bonus with no jokers)."""


@dataclass(frozen=True)
class TableTag:
    """A table's limits and collection: a player's wager must lie in [min_bet, max_bet]."""

    min_bet: Fraction
    max_bet: Fraction
    fee: Fraction


@dataclass(frozen=True)
class Rules:
    """Every rule option of the game (see ``exact/data/century21/rules.toml`` for the prose).

    Attributes:
        id, name: short and human-readable names of the rule set.
        decks, jokers: the default shoe.
        joker_values: values a wild joker may stand for (the holder's optimal choice).
        drawn_joker_is_nine: a joker drawn as third card makes the hand a three-card 9.
        natural_pays: pay of a player's Natural (two jokers); 1 = even money, more = a bonus.
        win_pays: pay of any other player win.
        win_pays_by_total: pay of a player's win by final total, overriding ``win_pays``.
        stop_on_dealer_joker_up: a joker as the dealer's up card ends the deal.
        stop_on_dealer_nine: a dealer two-card 9 (or Natural) ends the deal.
        dealer_wins_ties_on_zero: the dealer wins ties on 0 (false: they push).
        three_card_nine_pushes_two_card_nine: equal 9s push whatever the card counts
            (false: a two-card 9 beats a three-card 9).
        natural_any_two_jokers: the seed's literal Natural, "a hand containing two Jokers":
            a three-card hand holding two jokers (one dealt, one drawn) is a Natural too
            (default false: a Natural is the two-card pair of jokers, a drawn joker a 9).
        must_draw_max, must_stand_min: everyone draws on totals <= must_draw_max, stands on
            totals >= must_stand_min; totals in between are option hands.
        house_way_draw_max, dealer_house_way_draw_max: House Way draws on totals up to these.
        third_cards_face_up: the dealer sees players' third cards (default: only who drew).
        dealer_pays_collection: the Player/Dealer pays the collection fee too.
        table_tags: table limits and collection fee; the first is the default table.
        action: how the Player/Dealer's wager takes action when it does not cover the
            players' total: ``"seat-by-seat"`` in dice order up to the wager (default), or
            ``"whole-hand"`` (the whole hand is no action).
    """

    id: str = "century21"
    name: str = "21st Century Baccarat"
    decks: int = 8
    jokers: int = 8
    joker_values: tuple[int, ...] = tuple(TOTALS)
    drawn_joker_is_nine: bool = True
    natural_pays: Fraction = Fraction(1)
    win_pays: Fraction = Fraction(1)
    win_pays_by_total: Mapping[int, Fraction] = field(default_factory=dict, hash=False)
    stop_on_dealer_joker_up: bool = True
    stop_on_dealer_nine: bool = True
    dealer_wins_ties_on_zero: bool = True
    three_card_nine_pushes_two_card_nine: bool = True
    natural_any_two_jokers: bool = False
    must_draw_max: int = 4
    must_stand_min: int = 7
    house_way_draw_max: int = 5
    dealer_house_way_draw_max: int = 5
    third_cards_face_up: bool = False
    dealer_pays_collection: bool = True
    table_tags: tuple[TableTag, ...] = (TableTag(Fraction(10), Fraction(100), Fraction(1)),)
    action: str = "seat-by-seat"

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise RuleError(f"rule action: {', '.join(ACTIONS)}, got {shown(self.action)}")
        for name in ("decks", "jokers", "must_draw_max", "must_stand_min", "house_way_draw_max",
                     "dealer_house_way_draw_max"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RuleError(f"rule {name}: must be a non-negative integer, got "
                                f"{shown(value)}")
            if value > _LARGEST_SHOE:
                raise RuleError(f"rule {name}: {shown(value)} is past the largest shoe "
                                "(docs: Input limits)")
        if self.decks == 0 and self.jokers == 0:
            raise RuleError("rules decks, jokers: the shoe would be empty")
        given = tuple(self.joker_values)
        if len(given) > len(TOTALS):
            # each total once: a list of 200,000 repeats was once read and kept in full
            raise RuleError(f"rule joker_values: {len(given):,} values, at most {len(TOTALS)} "
                            "(each total 0-9 at most once)")
        values = tuple(sorted(set(given)))
        if not values or any(not isinstance(v, int) or isinstance(v, bool) or v not in TOTALS
                             for v in values):
            raise RuleError(f"rule joker_values: a non-empty list of totals 0-9, got "
                            f"{shown(list(given))}")
        if len(values) != len(given):
            raise RuleError(f"rule joker_values: each total at most once, got {shown(list(given))}")
        object.__setattr__(self, "joker_values", values)
        for name in ("natural_pays", "win_pays"):
            object.__setattr__(self, name, _positive(name, getattr(self, name)))
        pays = {}
        for total, pay in dict(self.win_pays_by_total).items():
            if total not in TOTALS:
                raise RuleError(f"rule win_pays_by_total: {shown(total)} is not a total 0-9")
            pays[total] = _positive(f"win_pays_by_total[{total}]", pay)
        object.__setattr__(self, "win_pays_by_total", pays)
        if not self.must_draw_max < self.must_stand_min <= 9:
            raise RuleError(f"rules must_draw_max={self.must_draw_max}, must_stand_min="
                            f"{self.must_stand_min}: need must_draw_max < must_stand_min <= 9")
        for name in ("house_way_draw_max", "dealer_house_way_draw_max"):
            value = getattr(self, name)
            if not self.must_draw_max <= value < self.must_stand_min:
                raise RuleError(f"rule {name}={value}: House Way must obey the forced rules "
                                f"({self.must_draw_max} <= {name} < {self.must_stand_min})")
        if not self.table_tags:
            raise RuleError("rule table_tags: at least one table tag is needed")
        for tag in self.table_tags:
            if tag.fee < 0:
                raise RuleError(f"rule table_tags: collection fee {tag.fee} is negative")
            if not 0 < tag.min_bet <= tag.max_bet:
                raise RuleError(f"rule table_tags: limits {tag.min_bet}-{tag.max_bet} need "
                                "0 < min_bet <= max_bet")
        self._warn_moot()
        object.__setattr__(self, "_hash", hash(tuple(
            getattr(self, f.name) if f.name != "win_pays_by_total"
            else tuple(sorted(self.win_pays_by_total.items()))
            for f in dataclasses.fields(self))))

    def _warn_moot(self) -> None:
        if self.jokers < 2 and self.natural_pays != 1:
            warnings.warn(f"rules {self.id!r}: a Natural bonus ({self.natural_pays}) with "
                          f"{self.jokers} joker(s) in the shoe never pays", RuleWarning,
                          stacklevel=3)
        if self.jokers == 0 and self.joker_values != tuple(TOTALS):
            warnings.warn(f"rules {self.id!r}: joker_values set but the shoe has no jokers",
                          RuleWarning, stacklevel=3)

    def __hash__(self) -> int:
        hashed: int = self.__dict__["_hash"]  # set in __post_init__; no field: it is no rule
        return hashed

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Rules) and hash(self) == hash(other) and all(
            getattr(self, f.name) == getattr(other, f.name) for f in dataclasses.fields(self)))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again: the values may be anything)."""
        return dataclasses.replace(self, **changes)

    def key_data(self) -> list[object]:
        """Every rule as data a disk-cache key holds (text, integers, booleans, lists; a pay
        as its numerator and denominator), field by field: two rule sets share it only when
        they are equal, the names and the table tags included (unlike :meth:`describe`, no
        field is left to a sentence's wording).

        >>> DEFAULT_RULES.key_data()[6]
        ['natural_pays', ['fraction', 1, 1]]
        """
        return [[f.name, key_data(getattr(self, f.name))] for f in dataclasses.fields(self)]

    @property
    def option_totals(self) -> tuple[int, ...]:
        return tuple(range(self.must_draw_max + 1, self.must_stand_min))

    @property
    def table(self) -> TableTag:
        return self.table_tags[0]

    def win_pay(self, total: int) -> Fraction:
        return self.win_pays_by_total.get(total, self.win_pays)

    def collection_fee(self, bet: Fraction | int) -> Fraction:
        """The fee of the first table tag whose limits admit ``bet``."""
        bet = parse_number(bet, "bet", "wager")
        for tag in self.table_tags:
            if tag.min_bet <= bet <= tag.max_bet:
                return tag.fee
        raise RuleError(f"a wager of {bet} fits no table tag "
                        f"({shown_all([f'{t.min_bet}-{t.max_bet}' for t in self.table_tags])})")

    @classmethod
    def load(cls, path: Path | str = DATA / "rules.toml") -> Rules:
        """Read a rule file (TOML); see ``exact/data/century21/rules.toml``."""
        path = Path(path)
        return cls.from_mapping(read_rule_table(path), str(path))

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], source: str = "rules") -> Rules:
        """The rules of a rule file's table (:class:`RuleFile`); a key left out keeps its
        default."""
        rules = structure(data, RuleFile, source, RuleError, RuleInputError)
        flat = {key: value for key, value in _given(rules).items()
                if not isinstance(value, FileRecord)}
        for section in (rules.showdown, rules.drawing, rules.settlement):
            flat.update(_given(section))
        collection = _given(rules.collection)
        if "dealer_pays" in collection:
            flat["dealer_pays_collection"] = collection["dealer_pays"]
        if "table_tags" in collection:
            flat["table_tags"] = tuple(TableTag(tag.min_bet, tag.max_bet, tag.fee)
                                       for tag in collection["table_tags"])
        by_total = data.get("win_pays_by_total")
        if isinstance(by_total, Mapping) and len(by_total) != len(flat["win_pays_by_total"]):
            # 9 and "9" from the library: one total, one of its pays would be lost unseen
            totals = [int(str(key)) for key in by_total]
            twice = next(total for total in totals if totals.count(total) > 1)
            raise RuleError(f"{source}: rule win_pays_by_total: total {twice} is given twice")
        return cls(**flat)

    def describe(self) -> list[str]:
        """The modelled rules, one assumption per line (printed with every analysis)."""
        draw, stand = self.must_draw_max, self.must_stand_min
        lines = [
            f"Rules: {self.name} ({self.id})",
            f"Shoe default: {self.decks} decks + {self.jokers} jokers",
            f"Jokers wild ({_listed(self.joker_values)}), value chosen by exact search for the "
            "holder's best expected result"
            + ("; a drawn joker makes a three-card 9" if self.drawn_joker_is_nine else ""),
            ("Natural (any hand holding two jokers, three-card ones too: the seed's literal "
             "reading)" if self.natural_any_two_jokers else "Natural (two jokers)")
            + f" beats all, pushes a Natural, pays {self.natural_pays} to 1",
            f"Other wins pay {self.win_pays} to 1"
            + "".join(f"; a win on {t} pays {p}"
                      for t, p in sorted(self.win_pays_by_total.items())),
            "Deal ends before draws when the dealer's "
            + " or ".join(x for x, on in (("up card is a joker", self.stop_on_dealer_joker_up),
                                          ("two cards make 9", self.stop_on_dealer_nine)) if on),
            f"Everyone draws on 0-{draw}, stands on {stand}-9, option on "
            f"{_listed(self.option_totals) or 'none'}",
            f"House Way: player draws on 0-{self.house_way_draw_max}, "
            f"dealer on 0-{self.dealer_house_way_draw_max}",
            "Dealer wins ties on 0" if self.dealer_wins_ties_on_zero else "Ties on 0 push",
            "Dealer's three-card 9 pushes a two-card 9" if self.three_card_nine_pushes_two_card_nine
            else "A two-card 9 beats a three-card 9",
            "Third cards face " + ("up: the dealer sees them" if self.third_cards_face_up
                                   else "down: the dealer sees only who drew"),
            f"Collection {self.table.fee} per seat per hand at the {self.table.min_bet}-"
            f"{self.table.max_bet} table" + (", Player/Dealer included"
                                             if self.dealer_pays_collection else ""),
        ]
        return lines


def _positive(name: str, value: object) -> Fraction:
    number = parse_number(value, "pays", f"rule {name}", RuleInputError)
    if number <= 0:
        raise RuleError(f"rule {name}: a pay must be positive, got {number}")
    return number


def key_data(value: object) -> object:
    """``value`` (a rule's, an information set's) as plain data a disk-cache key holds: a
    checked count or name (a subclass of int or str) as the int or str it is, a pay as its
    numerator and denominator, a tuple as a list."""
    if isinstance(value, Fraction):
        return ["fraction", value.numerator, value.denominator]
    if isinstance(value, TableTag):
        return ["table", *(key_data(getattr(value, f.name)) for f in dataclasses.fields(value))]
    if isinstance(value, Mapping):
        return ["mapping", sorted([key_data(k), key_data(v)] for k, v in value.items())]
    if isinstance(value, tuple):
        return [key_data(item) for item in value]
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | str):  # a checked name or count (a subclass): as the plain one
        return int(value) if isinstance(value, int) else str(value)
    raise TypeError(f"a rule of type {type(value).__name__} has no key data")


def _listed(values) -> str:
    return ", ".join(str(v) for v in sorted(values))


DEFAULT_RULES = Rules.load()
