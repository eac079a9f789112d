"""Punto Banco: the deal, its drawing rules (read from data) and its round features.

Layer: games, the top: a game's code may import every generic layer, no other game.

The deal is staged: the Player's two cards, the Banker's two cards, then the third cards by
the tableau. Only the stages a bet set needs are dealt, each seen through the card attributes
its features need (see :mod:`exact.model.features`); the counting unit is always six ordered cards,
so every bet of every stage shares one denominator.

>>> game = PuntoBanco()
>>> rounds = game.round_distribution(Shoe.standard(8), ["winner"])
>>> sum(c for r, c in rounds.counts.items() if game.read(r, "winner") == "tie")
475627426473216
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType, NoneType
from typing import TYPE_CHECKING, Any, ClassVar

from exact.core.cards import RANKS, SUITS, Card, Label, Shoe, View
from exact.core.enumerator import Distribution
from exact.core.parsing import shown
from exact.core.records import FileRecord, Name, Total, TotalKey
from exact.errors import RuleError, ShoeError
from exact.games.baccarat.tree import (
    Chooser,
    Coup,
    Hand,
    PuntoRecord,
    TableauDeal,
    hand_total,
    house_choices,
    house_choosers,
    tableau_deal,
)
from exact.model.features import ORDER, Feature, Needs, by_name
from exact.model.game import Game, read_rule_file

if TYPE_CHECKING:  # a type only: Punto Banco's commands need not import the walker
    from exact.engines.fixed_strategy import Choices

DATA = Path(__file__).resolve().parent / "data"  # the game's data files, beside its code
TOTALS = range(10)


class CoupFile(FileRecord, frozen=True):
    """What every baccarat rule file says of the coup (Punto Banco's, chemin de fer's): its
    id and name, the naturals and the totals on which the Player draws."""

    key_word = "rule"
    key_form = "rule {}"
    id: Name
    naturals: frozenset[Total]
    player_draws_on: frozenset[Total]
    name: Name | None = None
    """Shown with every analysis (default: the id)."""


class RuleFile(CoupFile, frozen=True, kw_only=True):
    """A Punto Banco rule file (``data/rules.toml``): the tableau, as :class:`Rules` holds it."""

    banker_draws_when_player_stands: frozenset[Total]
    banker_draws_on_player_third: dict[TotalKey, frozenset[Total]]
    """For each Banker total that is no natural, the Player's third-card values it draws on."""


@dataclass(frozen=True)
class Rules:
    """The tableau: when each hand draws a third card. Every field is validated.

    Attributes:
        id: short name of the rule set.
        name: human-readable name.
        naturals: two-card totals that end the round at once (standard: 8, 9).
        player_draws_on: Player's two-card totals on which the Player draws.
        banker_draws_when_player_stands: Banker's totals on which it draws if the Player stood.
        banker_draws_on_player_third: for each Banker two-card total that is not a natural, the
            Player third-card values on which the Banker draws.
    """

    id: str
    name: str
    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    banker_draws_when_player_stands: frozenset[int]
    banker_draws_on_player_third: Mapping[int, frozenset[int]] = field(hash=False)

    def __post_init__(self) -> None:
        for label, totals in (("naturals", self.naturals),
                              ("player_draws_on", self.player_draws_on),
                              ("banker_draws_when_player_stands",
                               self.banker_draws_when_player_stands)):
            _check_totals(label, totals)
        if self.player_draws_on & self.naturals:
            raise RuleError(f"rules {shown(self.id)}: the Player cannot draw on a natural "
                            f"total ({_listed(self.player_draws_on & self.naturals)})")
        missing = [t for t in TOTALS if t not in self.naturals
                   and t not in self.banker_draws_on_player_third]
        if missing:
            raise RuleError(f"rules {shown(self.id)}: banker_draws_on_player_third has no "
                            f"entry for banker total(s) {_listed(missing)}")
        for total, values in self.banker_draws_on_player_third.items():
            _check_totals(f"banker_draws_on_player_third[{total}]", values)
            _check_totals("banker_draws_on_player_third key", [total])

    def __hash__(self) -> int:
        return hash((self.id, self.naturals, self.player_draws_on,
                     self.banker_draws_when_player_stands,
                     tuple(sorted(self.banker_draws_on_player_third.items()))))

    @classmethod
    def load(cls, path: Path | str = DATA / "rules.toml") -> Rules:
        """Read a rule file (TOML); see ``exact/data/punto_banco/rules.toml``."""
        path = Path(path)
        rules = read_rule_file(path, RuleFile)
        try:
            return cls(id=rules.id, name=rules.id if rules.name is None else rules.name,
                       naturals=rules.naturals, player_draws_on=rules.player_draws_on,
                       banker_draws_when_player_stands=rules.banker_draws_when_player_stands,
                       banker_draws_on_player_third={
                           int(total): frozenset(map(int, values))
                           for total, values in rules.banker_draws_on_player_third.items()})
        except RuleError as error:  # the tableau's own checks (a draw on a natural) name no file
            raise RuleError(f"{path}: {error}") from None

    def player_draws(self, player_total: int) -> bool:
        return player_total in self.player_draws_on

    def banker_draws(self, banker_total: int, player_third: int | None) -> bool:
        if player_third is None:
            return banker_total in self.banker_draws_when_player_stands
        return player_third in self.banker_draws_on_player_third[banker_total]


def _check_totals(label: str, totals: Iterable[object]) -> None:
    for total in totals:
        if not isinstance(total, int) or isinstance(total, bool) or total not in TOTALS:
            raise RuleError(f"rule {label}: {shown(total)} is not a total 0-9")


STANDARD_RULES = Rules.load()

# --- the deal: the coup (exact.games.baccarat.tree) under the tableau --------------------
PuntoBancoDeal = TableauDeal  # the deal of Punto Banco's bets
FIVE = 5  # the Player's option in chemin de fer as published; the tableau decides it here


def tableau_coup(rules: Rules, **plan: Any) -> Coup:
    """The coup whose forced moves are the tableau's: the Player chooses on 5 (as in chemin de
    fer; the tableau decides how), the Banker at every decision point. ``plan``: the dealing
    plan (:class:`~exact.games.baccarat.tree.Coup`)."""
    chooses = frozenset({FIVE}) - rules.naturals
    return Coup(rules.naturals, rules.player_draws_on - chooses, chooses, **plan)


def house_way(rules: Rules) -> tuple[Chooser, Chooser]:
    """The tableau as both sides' choice at any set of the coup."""
    return house_choosers(rules.player_draws_on, rules.banker_draws)


def plan_deal(rules: Rules, needs: Needs) -> PuntoBancoDeal:
    """The cheapest deal that provides ``needs``: only needed stages, coarsest views; the coup
    under the tableau for both sides."""
    draws = "draws" in needs.stages
    initial = [s for s in ("player", "banker") if draws or s in needs.stages]
    # Views may only get coarser along the deal, so the finer initial stage goes first (the
    # Player on a tie: the key is whole, not left to the sort's stability) and every stage
    # sees at least what the stages after it see.
    initial.sort(key=lambda s: (-len(needs.attributes(s)), s != "player"))
    later: set[str] = set(needs.attributes("draws")) if draws else set()
    views: dict[str, View] = {"draws": View(tuple(later))}
    for stage in reversed(initial):
        later |= set(needs.attributes(stage))
        views[stage] = View(tuple(later))
    ordered = frozenset(stage for stage in initial if needs.ordered(stage))
    # read-only: the deal works its Draws out of the views once (and hashes them)
    coup = tableau_coup(rules, order=tuple(initial), views=MappingProxyType(views), draws=draws,
                        ordered=ordered)
    return tableau_deal(coup, _house_choices(rules))


@cache
def _house_choices(rules: Rules) -> tuple[Choices, Choices]:
    return house_choices(tableau_coup(rules), house_way(rules))


# --- features --------------------------------------------------------------------------------
class Ranks(str):
    """Two ranks, order-free: ``Ranks("8A") == "A8"``; compare with a plain string."""

    _ORDER = "A23456789TJQK"

    def __new__(cls, text: str) -> Ranks:
        return super().__new__(cls, "".join(sorted(text.upper(), key=cls._ORDER.find)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str.__eq__(self, "".join(sorted(other.upper(), key=self._ORDER.find)))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = str.__hash__


# The values each feature can take (Feature.domain), for any shoe and tableau of the game.
DIGITS: tuple[int, ...] = tuple(range(10))
TRUTHS: tuple[bool, ...] = (False, True)
RANK_PAIRS: tuple[Ranks, ...] = tuple(dict.fromkeys(
    Ranks(first + second) for first in RANKS for second in RANKS))
_ATTRIBUTE_DOMAINS: dict[str, tuple[object, ...]] = {
    "value": DIGITS, "rank": tuple(RANKS), "colour": ("red", "black"), "suit": tuple(SUITS)}


class CardPair(str):
    """Two cards, order-free, as ``"9D KD"``; compares equal to either order of the text.

    >>> CardPair("KD 9D") == "9d kd", CardPair("KD 9D")
    (True, '9D KD')
    """

    @staticmethod
    def _canonical(text: str) -> str:
        cards = [Card.parse(item) for item in text.replace(",", " ").split()]
        cards.sort(key=lambda card: (RANKS.find(card.rank), SUITS.find(card.suit or "")))
        return " ".join(map(str, cards))

    def __new__(cls, text: str) -> CardPair:
        return super().__new__(cls, cls._canonical(text))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            try:
                return str.__eq__(self, self._canonical(other))
            except ValueError:
                return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = str.__hash__


def _winner(record: PuntoRecord) -> str:
    player, banker = hand_total(record[0]), hand_total(record[1])
    return "player" if player > banker else "banker" if banker > player else "tie"


def _pair_kind(hand: Hand) -> str:
    first, second = hand[:2]
    if first.rank != second.rank:
        return "none"
    if first.suit == second.suit:
        return "perfect"
    return "colored" if first.colour == second.colour else "mixed"


def _initial_ranks(hand: Hand) -> Ranks:
    first, second = hand[0].rank, hand[1].rank
    if first is None or second is None:  # never when dealt for the feature (it needs ranks)
        raise TypeError("the ranks of this hand were not dealt")
    return Ranks(first + second)


def _third(hand: Hand) -> int | None:
    return hand[2].value if len(hand) == 3 else None


def _margin(record: PuntoRecord) -> int:
    return abs(hand_total(record[0]) - hand_total(record[1]))


def _side_features(side: str, index: int) -> list[Feature[PuntoRecord]]:
    own: dict[str, list[str]] = {side: []}
    first_two: dict[str, Any] = {"cards": frozenset({(index, 0), (index, 1)}),
                                 "order_free": True}
    return [
        Feature(f"{side}_total", f"{side.title()}'s final total", Needs.of(draws=[]),
                lambda r: hand_total(r[index]), "0-9", (int,), domain=DIGITS),
        Feature(f"{side}_initial_total", f"{side.title()}'s two-card total", Needs.of(**own),
                lambda r: hand_total(r[index][:2]), "0-9", (int,), domain=DIGITS),
        Feature(f"{side}_cards", f"cards in the {side.title()}'s final hand", Needs.of(draws=[]),
                lambda r: len(r[index]), "2 or 3", (int,), domain=(2, 3)),
        Feature(f"{side}_natural", f"{side.title()}'s two-card total is 8 or 9", Needs.of(**own),
                lambda r: hand_total(r[index][:2]) in (8, 9), "true/false", (bool,),
                domain=TRUTHS),
        Feature(f"{side}_third", f"value of the {side.title()}'s third card, or none",
                Needs.of(draws=[]), lambda r: _third(r[index]), "0-9 or None", (int, NoneType),
                domain=(*DIGITS, None)),
        Feature(f"{side}_pair", f"kind of pair of the {side.title()}'s first two cards",
                Needs.of(**{side: ["rank", "suit"]}), lambda r: _pair_kind(r[index]),
                '"none", "mixed" (same rank, different colours), "colored" (same rank and '
                'colour, different suits), "perfect" (same rank and suit)', (str,),
                domain=("none", "mixed", "colored", "perfect"), **first_two),
        Feature(f"{side}_paired", f"the {side.title()}'s first two cards have the same rank",
                Needs.of(**{side: ["rank"]}), lambda r: r[index][0].rank == r[index][1].rank,
                "true/false", (bool,), domain=TRUTHS, **first_two),
        Feature(f"{side}_suited", f"the {side.title()}'s first two cards have the same suit",
                Needs.of(**{side: ["suit"]}), lambda r: r[index][0].suit == r[index][1].suit,
                "true/false", (bool,), domain=TRUTHS, **first_two),
        Feature(f"{side}_initial_ranks", f"the ranks of the {side.title()}'s first two cards",
                Needs.of(**{side: ["rank"]}), lambda r: _initial_ranks(r[index]),
                'order-free pair of ranks, e.g. "A8" (== "8A"), "9K"', (str,),
                domain=RANK_PAIRS, **first_two),
    ]


# --- card-level vocabulary: each dealt card by position, and counts over groups of cards ---
# A position is (hand, index): hand 0 the Player's, 1 the Banker's; index 0-2 the first,
# second and third card. A card is read by its label's field (exact.core.cards.Label).
POSITIONS = tuple((hand, index) for hand in (0, 1) for index in range(3))
_SIDES = ("player", "banker")
_ATTRIBUTE_VALUES = {"value": "0-9", "rank": '"A", "2"-"9", "T", "J", "Q", "K"',
                     "colour": '"red" or "black"', "suit": '"C", "D", "H" or "S"'}
_ORDINALS = ("first", "second", "third")


def _stage_of(position: tuple[int, int]) -> str:
    hand, index = position
    return "draws" if index == 2 else _SIDES[hand]


def _card_feature(position: tuple[int, int], attribute: str) -> Feature[PuntoRecord]:
    hand, index = position
    field = attrgetter(attribute)
    name = f"{_SIDES[hand]}_card{index + 1}_{attribute}"

    def read(record: PuntoRecord) -> object:
        cards = record[hand]
        return field(cards[index]) if index < len(cards) else None

    fine = [] if attribute == "value" else [attribute]
    scalar: tuple[type, ...] = (int,) if attribute == "value" else (str,)
    dealt = index < 2
    # the first and second cards of a hand are told apart: that stage is dealt in order
    needs = Needs.of(**{_stage_of(position): fine + ([ORDER] if dealt else [])})
    domain = _ATTRIBUTE_DOMAINS[attribute]
    return Feature(name, f"{attribute} of the {_SIDES[hand].title()}'s {_ORDINALS[index]} card"
                   + ("" if dealt else " (None when not dealt)"), needs, read,
                   _ATTRIBUTE_VALUES[attribute] + ("" if dealt else " or None"),
                   scalar if dealt else (*scalar, NoneType),
                   cards=frozenset({position}) if fine else None,
                   domain=domain if dealt else (*domain, None))


# groups of cards counted by the counting features: name -> (positions, description)
CARD_GROUPS = {
    "first_four": (((0, 0), (0, 1), (1, 0), (1, 1)), "the first four cards"),
    "player": (((0, 0), (0, 1), (0, 2)), "the Player's cards"),
    "banker": (((1, 0), (1, 1), (1, 2)), "the Banker's cards"),
    "dealt": (POSITIONS, "all cards dealt"),
}
# what is counted: plural name -> (attribute, its value)
COUNTED = {
    **{plural: ("rank", rank) for plural, rank in zip(
        ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
         "tens", "jacks", "queens", "kings"), "A23456789TJQK", strict=True)},
    "clubs": ("suit", "C"), "diamonds": ("suit", "D"), "hearts": ("suit", "H"),
    "spades": ("suit", "S"), "reds": ("colour", "red"), "blacks": ("colour", "black"),
}


def _count_feature(group: str, plural: str) -> Feature[PuntoRecord]:
    positions, described = CARD_GROUPS[group]
    attribute, wanted = COUNTED[plural]
    field = attrgetter(attribute)
    stages = {_stage_of(position) for position in positions}

    def read(record: PuntoRecord) -> int:
        return sum(1 for hand, index in positions if index < len(record[hand])
                   and field(record[hand][index]) == wanted)

    return Feature(f"{group}_{plural}", f"how many {plural} among {described}",
                   Needs.of(**{stage: [attribute] for stage in stages}), read,
                   f"0-{len(positions)}", (int,), cards=frozenset(positions), order_free=True,
                   counts=(attribute, wanted), domain=tuple(range(len(positions) + 1)))


CARD_FEATURES = [*(_card_feature(position, attribute) for position in POSITIONS
                   for attribute in Label._fields),
                 *(_count_feature(group, plural) for group in CARD_GROUPS for plural in COUNTED)]

FEATURES: dict[str, Feature[PuntoRecord]] = by_name([
    Feature("winner", "which hand has the higher final total", Needs.of(draws=[]), _winner,
            '"player", "banker" or "tie"', (str,), domain=("player", "banker", "tie")),
    Feature("cards_dealt", "cards dealt in the round", Needs.of(draws=[]),
            lambda r: len(r[0]) + len(r[1]), "4, 5 or 6", (int,), domain=(4, 5, 6)),
    Feature("margin", "winner's final total minus the loser's (0 on a tie)", Needs.of(draws=[]),
            _margin, "0-9", (int,), domain=DIGITS),
    Feature("all_same_color", "every card dealt in the round has one colour",
            Needs.of(draws=["colour"]),
            lambda r: len({label.colour for hand in r for label in hand}) == 1, "true/false",
            (bool,), cards=frozenset(POSITIONS), order_free=True, domain=TRUTHS),
    Feature("highest_value", "largest point value among all cards dealt", Needs.of(draws=[]),
            # ``or 0`` never hides a card: Punto Banco deals no joker (see hand_total)
            lambda r: max(label.value or 0 for hand in r for label in hand), "0-9", (int,),
            domain=DIGITS),
    *_side_features("player", 0),
    *_side_features("banker", 1),
    *CARD_FEATURES,
])


@dataclass(frozen=True)
class PuntoBanco(Game[PuntoRecord]):
    """Punto Banco under a given tableau."""

    rules: Rules = STANDARD_RULES
    id: str = "punto-banco"
    name: str = "Punto Banco"
    bet_files: tuple[Path, ...] = (DATA / "bets.toml", DATA / "side_bets.toml")
    # where each card sits in a record, for the factorised counter (exact.engines.factorised)
    card_positions: ClassVar[tuple[tuple[int, int], ...]] = POSITIONS
    stage_positions: ClassVar[Mapping[str, tuple[tuple[int, int], ...]]] = MappingProxyType(
        {"player": ((0, 0), (0, 1)), "banker": ((1, 0), (1, 1)), "draws": ((0, 2), (1, 2))})
    # the stages by role, which the engines read (exact.model.contracts.StageRoles)
    hand_stages: ClassVar[tuple[str, ...]] = ("player", "banker")
    draw_stages: ClassVar[frozenset[str]] = frozenset({"draws"})

    @cached_property
    def features(self) -> dict[str, Feature[PuntoRecord]]:
        return FEATURES

    def deal(self, needs: Needs) -> PuntoBancoDeal:
        return _planned(self.rules, needs)

    # the stage that deals each position of a round (1 = first card dealt): Player, Banker,
    # Player, Banker, then the third cards (exact.engines.live forces known cards there)
    position_stages: ClassVar[tuple[str, ...]] = ("player", "banker", "player", "banker",
                                                  "draws", "draws")

    def dealt_positions(self, before: Any, after: Any) -> tuple[int, ...]:
        """The positions (1 = first card dealt) of the cards ``after`` adds to ``before`` (two
        records, or two states of the deal: the hands come first), in the order of their
        labels: Player, Banker, Player, Banker, then the third cards, the Player's first.

        >>> PuntoBanco().dealt_positions(((), ()), (((2, None, None, None),) * 2, ()))
        (1, 3)
        >>> record = ((0, None, None, None),) * 2
        >>> PuntoBanco().dealt_positions((record, record), (record, record * 2)[:1] + (
        ...     record + record[:1],))
        (5,)
        """
        positions = []
        for hand, (old, new) in enumerate(zip(before[:2], after[:2], strict=True)):
            for index in range(len(old), len(new)):
                positions.append(1 + hand + 2 * index if index < 2
                                 else 5 if hand == 0 or len(after[0]) < 3 else 6)
        return tuple(positions)

    def round_distribution(self, shoe: Shoe, feature_names: Iterable[str]) -> Distribution:
        """Exact counts of every round record that the named features can tell apart."""
        from exact.engines.compiled_store import compiled_for  # numpy: loaded on compiling

        return compiled_for(self, self.needs(feature_names)).distribution(shoe)

    def record_from_cards(self, cards: Sequence[Card]) -> PuntoRecord:
        """Deal Player, Banker, Player, Banker, then third cards by the tableau.

        >>> from exact.core.cards import parse_cards
        >>> game = PuntoBanco()
        >>> game.read(game.record_from_cards(parse_cards("9H 5C 9D 2S")), "winner")
        'player'
        """
        view = View(("rank", "suit"))
        labels = [view.label(card) for card in cards]
        if any(card.is_joker for card in cards):
            raise ShoeError("Punto Banco has no jokers")
        deal = _planned(self.rules, _EVERY_CARD)
        if len(labels) < 4:
            raise ShoeError(f"a round needs at least 4 cards, got {len(labels)}")
        # the initial hands, each in the order dealt (a group keeps the order it is given
        # in), taken in the order the deal takes the stages (the finer view first)
        hands = {"player": (labels[0], labels[2]), "banker": (labels[1], labels[3])}
        state = deal.start()
        for stage in deal.order:
            state = deal.advance(state, hands[stage])
        used = 4
        while deal.next_draw(state) is not None:
            if used == len(labels):
                raise ShoeError(f"the round needs a card after {' '.join(map(str, cards))}")
            state = deal.advance(state, (labels[used],))
            used += 1
        return deal.record(state)

    def describe_rules(self) -> list[str]:
        rules = self.rules
        lines = [f"Tableau: {rules.name} ({rules.id})",
                 f"Naturals: {_listed(rules.naturals)}; nobody draws on a natural",
                 f"Player draws on {_listed(rules.player_draws_on)}, stands otherwise",
                 f"Banker, Player stood: draws on {_listed(rules.banker_draws_when_player_stands)}"]
        for total, values in sorted(rules.banker_draws_on_player_third.items()):
            lines.append(f"Banker on {total}, Player drew: draws when the third card is "
                         f"{_listed(values) or 'never'}")
        return lines


def _listed(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in sorted(values))


_EVERY_CARD = Needs.of(player=["rank", "suit"], banker=["rank", "suit"], draws=["rank", "suit"])


@cache
def _planned(rules: Rules, needs: Needs) -> PuntoBancoDeal:
    return plan_deal(rules, needs)
