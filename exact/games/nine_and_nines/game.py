"""Baccarat with NINE & NINES: Punto Banco plus two wagers settled on the first four cards.

Layer: games, the top: a game's code may import every generic layer, no other game.

NINE is placed on a party (Player or Banker) and wins when that party's first two cards total
9; NINES wins when the Player and/or the Banker has a two-card 9 and pays by a symmetrical
table. The main wagers then play on under the usual Punto Banco rules, so the deal, the rules
and every Punto Banco feature are reused unchanged; this module only adds the features the
NINE and NINES tables are written in. The shipped tables are illustrative (the seed gives
none): see ``exact/data/nine_and_nines/bets.toml``.

>>> from exact.core.cards import parse_cards
>>> game = NineAndNines()
>>> record = game.record_from_cards(parse_cards("9D 4H KD 5C"))
>>> [game.read(record, name) for name in ("player_initial_cards", "two_card_nines",
...                                       "player_has_ten_value", "banker_has_ten_value")]
['9D KD', 2, True, False]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import NoneType

from exact.core.cards import RANKS, SUITS, rank_value
from exact.games.baccarat.coup import DATA as PUNTO_BANCO_DATA
from exact.games.baccarat.coup import FEATURES as PUNTO_BANCO_FEATURES
from exact.games.baccarat.coup import TRUTHS, Hand, PuntoBanco, PuntoRecord, hand_total
from exact.games.baccarat.coup import CardPair as CardPair  # (the pair features' value type)
from exact.model.features import Feature, Needs, by_name

DATA = Path(__file__).resolve().parent / "data"  # the game's data files, beside its code

# The side wagers' own rules, as conditions over the features below: every round a wager wins
# must be paid by some tier of its table, and NINES must pay Player and Banker alike. Paytable
# validation (exact.analysis.validation) checks user tables against these.
WINS_WHEN = {
    "nine-player": "player_two_card_nine",
    "nine-banker": "banker_two_card_nine",
    "nines": "player_two_card_nine or banker_two_card_nine",
}
SYMMETRIC_BETS = frozenset({"nines"})


def _two_card_nine(hand: Hand) -> bool:
    return hand_total(hand[:2]) == 9


def _cards_text(hand: Hand) -> CardPair:
    # seen through the rank-and-suit view here
    return CardPair(" ".join(f"{label.rank}{label.suit}" for label in hand[:2]))


def _suited_nine(hand: Hand) -> CardPair | None:
    first, second = hand[:2]
    return _cards_text(hand) if _two_card_nine(hand) and first.suit == second.suit else None


# The values of the card-pair features (Feature.domain): every two cards a hand may hold (two
# of one card from a shoe of several decks), and those a suited two-card 9 may be.
_CARDS = [rank + suit for rank in RANKS for suit in SUITS]
CARD_PAIRS: tuple[CardPair, ...] = tuple(dict.fromkeys(
    CardPair(f"{first} {second}") for first in _CARDS for second in _CARDS))
SUITED_NINES: tuple[CardPair, ...] = tuple(
    pair for pair in CARD_PAIRS if pair[1] == pair[-1]
    and (rank_value(pair[0]) + rank_value(pair[-2])) % 10 == 9)


def _side_features(side: str, index: int) -> list[Feature[PuntoRecord]]:
    title = side.title()
    return [
        Feature(f"{side}_two_card_nine", f"the {title}'s first two cards total 9",
                Needs.of(**{side: []}), lambda r: _two_card_nine(r[index]), "true/false",
                (bool,), domain=TRUTHS),
        # a ten-value card is the only value 0, and the only way to 9 with one is 9 + ten
        Feature(f"{side}_has_ten_value",
                f"the {title}'s first two cards include a ten-value card (10, J, Q, K)",
                Needs.of(**{side: []}), lambda r: any(label.value == 0 for label in r[index][:2]),
                "true/false", (bool,), domain=TRUTHS),
        Feature(f"{side}_initial_cards", f"the {title}'s first two cards, rank and suit",
                Needs.of(**{side: ["rank", "suit"]}), lambda r: _cards_text(r[index]),
                'order-free pair of cards, e.g. "9D KD" (== "KD 9D")', (str,),
                domain=CARD_PAIRS),
        # Few values (32 suited nines and None), so tables written with it stay fast to
        # evaluate exactly, where the 1,378 values of _initial_cards would not.
        Feature(f"{side}_suited_nine",
                f"the {title}'s first two cards if they are a suited two-card 9, else None",
                Needs.of(**{side: ["rank", "suit"]}), lambda r: _suited_nine(r[index]),
                'None or an order-free pair of cards, e.g. "9D KD"', (str, NoneType),
                domain=(*SUITED_NINES, None)),
    ]


def _same_initial_cards(record: PuntoRecord) -> bool:
    player, banker = record
    return sorted(player[:2]) == sorted(banker[:2])


NINE_FEATURES: dict[str, Feature[PuntoRecord]] = by_name([
    *_side_features("player", 0),
    *_side_features("banker", 1),
    Feature("two_card_nines", "how many of the two hands have a two-card 9",
            Needs.of(player=[], banker=[]),
            lambda r: _two_card_nine(r[0]) + _two_card_nine(r[1]), "0, 1 or 2", (int,),
            domain=(0, 1, 2)),
    Feature("both_two_card_nines", "both hands have a two-card 9",
            Needs.of(player=[], banker=[]),
            lambda r: _two_card_nine(r[0]) and _two_card_nine(r[1]), "true/false", (bool,),
            domain=TRUTHS),
    Feature("same_initial_cards",
            "both hands hold the same two cards (rank and suit), in either order",
            Needs.of(player=["rank", "suit"], banker=["rank", "suit"]), _same_initial_cards,
            "true/false", (bool,), domain=TRUTHS),
])


@dataclass(frozen=True)
class NineAndNines(PuntoBanco):
    """Punto Banco with the NINE (per party) and NINES wagers; same deal, rules and features."""

    id: str = "nine-and-nines"
    name: str = "Baccarat with NINE & NINES"
    bet_files: tuple[Path, ...] = (PUNTO_BANCO_DATA / "bets.toml", DATA / "bets.toml")

    @cached_property
    def features(self) -> dict[str, Feature[PuntoRecord]]:
        return {**PUNTO_BANCO_FEATURES, **NINE_FEATURES}

    @property
    def needs_main_wager(self) -> frozenset[str]:
        """Bet groups placed only beside a main wager: the seed's "Player places an initial
        main wager ... and may also place an optional bet on NINE and/or ... NINES"."""
        return frozenset({"nine", "nines"})

    @property
    def wins_when(self) -> dict[str, str]:
        """When each side wager wins (tables are validated against it)."""
        return WINS_WHEN

    @property
    def symmetric_bets(self) -> frozenset[str]:
        return SYMMETRIC_BETS

    @property
    def symmetric_features(self) -> frozenset[str]:
        """Features that read the same when Player and Banker swap their cards."""
        return frozenset({"two_card_nines", "both_two_card_nines", "same_initial_cards"})

    def describe_rules(self) -> list[str]:
        return [*super().describe_rules(),
                "NINE and NINES are settled on the first four cards; the tables shipped are "
                "ILLUSTRATIVE (the seed gives none)"]
