"""The verification simulator's dealer: Punto Banco rounds dealt through real shoes, vectorised
with numpy over many shoes at once, and the features of every dealt round as small integer codes.

Layer: games, the top: the game's own analysis code, which may import every generic layer; it
imports only the core (and one value type, below), so it shares no code with the exact paths it
checks: no enumerator, no compiled or batch engine, no game ``Deal``, not even
:mod:`exact.games.baccarat.reference`'s tableau. The third-card rules below are written again from
the seed's rule text ("Third Card Rules"), the features from the words of the bet files; the tests
check every dealt round against the card-by-card reference (:mod:`exact.games.baccarat.reference`)
and the game's own features. The one thing taken from a game is the value type of the NINE & NINES
pair features (:class:`~exact.games.baccarat.coup.CardPair`, which compares order-free with a
bet file's text), so that a condition reads the value as it reads the game's.

A job deals ``shoes`` shoes from one seeded generator: each shoe is shuffled (its own row of
``Generator.permuted``), its first card shown and as many cards burned as its value (ten for
a ten-value card), then rounds are dealt, Player, Banker, Player, Banker and the third cards,
while more than ``cut_cards`` cards are left (the cut card). Every shoe advances one round per
step, all shoes at once.

>>> import numpy as np
>>> spec = ShoeSpec.standard(8)
>>> check(spec)
>>> rounds = deal(spec, np.random.SeedSequence(7), 3)
>>> rounds.cards.shape[0], int(rounds.shoe.max())
(6, 2)
>>> sorted({int(n) for n in (rounds.cards != ABSENT).sum(axis=0)})
[4, 5, 6]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from exact.analysis.verification import ShoeSpec
from exact.core.cards import CARDS, JOKER_ID, RANKS, SUITS
from exact.errors import SimulationError

ABSENT = JOKER_ID + 1
"""The card id of a position the round did not deal (no third card)."""
POSITIONS = ("player1", "player2", "player3", "banker1", "banker2", "banker3")


def _table(read: Callable[[int], int]) -> np.ndarray:
    """A lookup by card id (the 52 cards, the joker, then an absent card as -1)."""
    return np.array([read(card) for card in range(JOKER_ID + 1)] + [-1], dtype=np.int8)


# Written from the seed: "Tens and face cards count as zero", aces one, 2-9 their face value.
VALUE = _table(lambda c: 0 if c == JOKER_ID or CARDS[c].rank in "TJQK"
               else RANKS.index(CARDS[c].rank) + 1)
RANK = _table(lambda c: RANKS.index(CARDS[c].rank) if c != JOKER_ID else 13)
SUIT = _table(lambda c: SUITS.index(CARDS[c].suit or "C") if c != JOKER_ID else -2)
RED = _table(lambda c: int(CARDS[c].suit in ("D", "H")) if c != JOKER_ID else -2)
# The seed's "Third Card Rule" once the Player has drawn (its entries are written for the
# Banker's two-card total, "0 - 1 - 2: Always draws" ... "7: Always stands"): row = Banker's
# total 0-7, column = value of the Player's third card.
BANKER_DRAWS_ON = {0: range(10), 1: range(10), 2: range(10), 3: (0, 1, 2, 3, 4, 5, 6, 7, 9),
                   4: (2, 3, 4, 5, 6, 7), 5: (4, 5, 6, 7), 6: (6, 7), 7: ()}
BANKER_DRAWS = np.zeros((10, 10), dtype=bool)
for _total, _thirds in BANKER_DRAWS_ON.items():
    BANKER_DRAWS[_total, list(_thirds)] = True


def check(spec: ShoeSpec) -> None:
    """Refuse a shoe this dealer cannot deal: a joker, or a cut card that leaves a round short."""
    if spec.counts[JOKER_ID]:
        raise SimulationError("the verification dealer deals Punto Banco: no joker")
    if spec.cut_cards < 6:
        raise SimulationError(f"cut_cards must be at least 6 (a round takes up to 6 cards), "
                              f"got {spec.cut_cards}")
    if spec.size - (11 if spec.burn == "first-card" else 0) <= spec.cut_cards:
        raise SimulationError(f"a shoe of {spec.size} cards with the cut card {spec.cut_cards} "
                              "from the end may deal no round")


@dataclass(frozen=True)
class Rounds:
    """The rounds of a job: ``cards[k]`` the card ids at position ``POSITIONS[k]`` of every
    round (``ABSENT`` where none was dealt), ``depth[r]`` the cards gone from the shoe before
    round ``r`` (the shown and burned cards included), ``shoe[r]`` its shoe's number in the
    job; a shoe's rounds in dealing order, the shoes interleaved."""

    cards: np.ndarray
    depth: np.ndarray
    shoe: np.ndarray


@dataclass(frozen=True)
class Tableau:
    """A tableau other than the seed's, as plain values (the dealer does not read the game's
    rules object; :func:`dealer_for` takes them from it): the naturals, the Player's drawing
    totals, the Banker's when the Player stood, and ``banker_draws[total][third]``."""

    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    banker_draws_when_player_stands: frozenset[int]
    banker_draws: tuple[tuple[bool, ...], ...]

    def table(self) -> np.ndarray:
        return np.array(self.banker_draws, dtype=bool)


def deal(spec: ShoeSpec, seed: np.random.SeedSequence, shoes: int,
         tableau: Tableau | None = None) -> Rounds:
    """Shuffle ``shoes`` shoes with one generator seeded by ``seed`` and deal them to the cut:
    one round of every shoe still before its cut card per step, by the seed's tableau unless
    another is given."""
    generator = np.random.Generator(np.random.PCG64(seed))
    deck = np.repeat(np.arange(JOKER_ID + 1, dtype=np.uint8), spec.counts)
    size = deck.size
    order = generator.permuted(np.tile(deck, (shoes, 1)), axis=1).ravel()
    if spec.burn == "first-card":
        # the first card is shown, then as many burned as it counts (a ten-value card: ten)
        shown = _points(order[::size]).astype(np.int64)
        position = 1 + np.where(shown == 0, 10, shown)
    else:
        position = np.zeros(shoes, dtype=np.int64)
    first = np.arange(shoes) * size  # each shoe's first card in ``order``
    at = first + position
    ends = first + size - spec.cut_cards  # a round starts before the cut card
    columns: list[list[np.ndarray]] = [[] for _ in POSITIONS]
    starts, numbers = [], []
    while True:
        live = at < ends
        if not live.all():
            at, first, ends = at[live], first[live], ends[live]
        if at.size == 0:
            break
        window = [order[at + k] for k in range(6)]  # P B P B, then the third cards
        value = [_points(card) for card in window[:5]]
        player = (value[0] + value[2]) % 10
        banker = (value[1] + value[3]) % 10
        if tableau is None:
            natural = (player >= 8) | (banker >= 8)
            player_draws = ~natural & (player <= 5)
            # Player stands: the Banker draws on 0-5; Player drew: the tableau on his third
            banker_draws = ~natural & np.where(player_draws, _banker_draws(banker, value[4]),
                                               banker <= 5)
        else:
            natural = _among(player, tableau.naturals) | _among(banker, tableau.naturals)
            player_draws = ~natural & _among(player, tableau.player_draws_on)
            banker_draws = ~natural & np.where(
                player_draws, tableau.table()[banker, value[4]],
                _among(banker, tableau.banker_draws_when_player_stands))
        for column, card in zip(columns, (
                window[0], window[2], np.where(player_draws, window[4], ABSENT),
                window[1], window[3],
                np.where(banker_draws, np.where(player_draws, window[5], window[4]), ABSENT)),
                strict=True):
            column.append(card)
        starts.append(at - first)
        numbers.append(first // size)
        at = at + 4 + player_draws + banker_draws
    if not starts:
        return Rounds(np.zeros((6, 0), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64))
    return Rounds(np.stack([np.concatenate(column) for column in columns]),
                  np.concatenate(starts), np.concatenate(numbers))


def _among(totals: np.ndarray, allowed: frozenset[int]) -> np.ndarray:
    return np.isin(totals, np.array(sorted(allowed), dtype=totals.dtype))


def _banker_draws(banker: np.ndarray, third: np.ndarray) -> np.ndarray:
    """BANKER_DRAWS[banker, third], by comparisons (a gather costs more on large arrays): on
    0-2 always; on 3 unless the third card is 8; on 4, 5, 6 from 2, 4, 6 up to 7; never on 7.
    The module checks it against the table when it is imported."""
    middle = (banker >= 4) & (banker <= 6) & (third >= 2 * banker - 6) & (third <= 7)
    return (banker <= 2) | ((banker == 3) & (third != 8)) | middle


_TOTALS = np.repeat(np.arange(8, dtype=np.int8), 10)
_THIRDS = np.tile(np.arange(10, dtype=np.int8), 8)
if not np.array_equal(_banker_draws(_TOTALS, _THIRDS), BANKER_DRAWS[:8].ravel()):
    raise AssertionError("_banker_draws is not the seed's tableau")


# --- features --------------------------------------------------------------------------------
# A card id is 4 x rank + suit (exact.core.cards.CARDS); reading ranks, suits and values from
# it by arithmetic costs less than a lookup. Checked against the tables when imported.
def _rank(cards: np.ndarray) -> np.ndarray:
    return cards >> 2  # 13 for an absent card


def _suit(cards: np.ndarray) -> np.ndarray:
    return cards & 3


def _points(cards: np.ndarray) -> np.ndarray:
    rank = _rank(cards)
    return (rank + 1) * (rank < 9)  # tens and faces, and an absent card: 0


_IDS = np.arange(JOKER_ID, dtype=np.uint8)
_RED_SUITS = (SUITS.index("D"), SUITS.index("H"))
for _read, _table_of in ((_rank, RANK), (_suit, SUIT), (_points, VALUE)):
    if not np.array_equal(_read(_IDS), _table_of[:JOKER_ID]):
        raise AssertionError(f"{_read.__name__} does not read card ids as exact.core.cards")
if not np.array_equal(np.isin(_suit(_IDS), _RED_SUITS), RED[:JOKER_ID] == 1):
    raise AssertionError("the red suits are not exact.core.cards'")


class Reader:
    """Reads the features of one job's rounds as small integer codes, each computed once."""

    def __init__(self, cards: np.ndarray) -> None:
        self.cards = cards
        self._cache: dict[tuple[object, ...], np.ndarray] = {}

    def column(self, key: tuple[object, ...], make: Callable[[], np.ndarray]) -> np.ndarray:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def rank(self, position: int) -> np.ndarray:
        return self.column(("rank", position), lambda: _rank(self.cards[position]))

    def suit(self, position: int) -> np.ndarray:
        return self.column(("suit", position), lambda: _suit(self.cards[position]))

    def red(self, position: int) -> np.ndarray:
        # suits 1 and 2 (D, H): uint8 wraps clubs' 0 - 1 to 255
        return self.column(("red", position), lambda: (self.suit(position) - 1) < 2)

    def value(self, position: int) -> np.ndarray:
        return self.column(("value", position), lambda: _points(self.cards[position]))

    def dealt(self, position: int) -> np.ndarray:
        return self.column(("dealt", position), lambda: self.cards[position] != ABSENT)

    def total(self, side: int, cards: int = 3) -> np.ndarray:
        def make() -> np.ndarray:
            return np.asarray(sum(self.value(3 * side + i) for i in range(cards))) % 10
        return self.column(("total", side, cards), make)


@dataclass(frozen=True)
class Coded:
    """A feature as codes 0..len(values)-1 and the value each code stands for."""

    read: Callable[[Reader], np.ndarray]
    values: tuple[object, ...]


PAIR_KINDS = ("none", "perfect", "colored", "mixed")
RANK_PAIRS = tuple(RANKS[low] + RANKS[high] for low in range(13) for high in range(13))


def _side(side: int) -> dict[str, Coded]:
    first, second, third = 3 * side, 3 * side + 1, 3 * side + 2
    name = ("player", "banker")[side]

    def paired(r: Reader) -> np.ndarray:
        return r.rank(first) == r.rank(second)

    def suited(r: Reader) -> np.ndarray:
        return r.suit(first) == r.suit(second)

    def pair(r: Reader) -> np.ndarray:
        # none 0, perfect 1 (the same card), colored 2, mixed 3
        same_colour = r.red(first) == r.red(second)
        perfect = r.cards[first] == r.cards[second]
        return paired(r) * (3 - same_colour - perfect.astype(np.uint8))

    def ranks(r: Reader) -> np.ndarray:
        a, b = r.rank(first).astype(np.int16), r.rank(second).astype(np.int16)
        return np.minimum(a, b) * 13 + np.maximum(a, b)

    def nine(r: Reader) -> np.ndarray:
        return r.total(side, 2) == 9

    def ten(r: Reader) -> np.ndarray:
        return (r.value(first) == 0) | (r.value(second) == 0)

    def suited_nine(r: Reader) -> np.ndarray:
        # code 0: not a suited two-card 9; else 1 + the pair's index in SUITED_NINES
        a, b = r.rank(first), r.rank(second)
        index = SUITED_NINE_INDEX[np.minimum(a, b), np.maximum(a, b)] * 4 + r.suit(first)
        return np.where(suited(r) & nine(r), 1 + index, 0)

    def third_value(r: Reader) -> np.ndarray:
        return np.where(r.dealt(third), r.value(third), 10)

    return {
        f"{name}_total": Coded(lambda r: r.total(side), tuple(range(10))),
        f"{name}_initial_total": Coded(lambda r: r.total(side, 2), tuple(range(10))),
        f"{name}_cards": Coded(lambda r: r.dealt(third), (2, 3)),
        f"{name}_third": Coded(third_value, (*range(10), None)),
        f"{name}_natural": Coded(lambda r: r.total(side, 2) >= 8, (False, True)),
        f"{name}_pair": Coded(pair, PAIR_KINDS),
        f"{name}_paired": Coded(paired, (False, True)),
        f"{name}_suited": Coded(suited, (False, True)),
        f"{name}_initial_ranks": Coded(ranks, RANK_PAIRS),
        f"{name}_two_card_nine": Coded(nine, (False, True)),
        f"{name}_has_ten_value": Coded(ten, (False, True)),
        f"{name}_suited_nine": Coded(suited_nine, (None, *SUITED_NINES)),
    }


def _suited_nines() -> tuple[tuple[object, ...], np.ndarray]:
    from exact.games.baccarat.coup import CardPair  # the value type only (module docstring)

    index = np.full((13, 13), -1, dtype=np.int64)
    pairs: list[object] = []
    for low in range(13):
        for high in range(low, 13):
            points = [0 if RANKS[i] in "TJQK" else i + 1 for i in (low, high)]
            if sum(points) % 10 == 9 and low != high:
                index[low, high] = len(pairs) // 4
                pairs.extend(CardPair(f"{RANKS[low]}{s} {RANKS[high]}{s}") for s in SUITS)
    return tuple(pairs), index


SUITED_NINES, SUITED_NINE_INDEX = _suited_nines()


def _winner(r: Reader) -> np.ndarray:
    player, banker = r.total(0), r.total(1)
    return (player < banker) + 2 * (player == banker).astype(np.uint8)  # player, banker, tie


def _highest(r: Reader) -> np.ndarray:
    return np.max(np.stack([r.value(i) for i in range(6)]), axis=0)


def _colours(r: Reader) -> np.ndarray:
    dealt = sum(r.dealt(i).astype(np.uint8) for i in range(6))
    red = sum((r.red(i) & r.dealt(i)).astype(np.uint8) for i in range(6))
    return (red == 0) | (red == dealt)


FEATURES: dict[str, Coded] = {
    **_side(0), **_side(1),
    "winner": Coded(_winner, ("player", "banker", "tie")),
    "margin": Coded(lambda r: np.abs(r.total(0).astype(np.int8) - r.total(1).astype(np.int8)),
                    tuple(range(10))),
    "cards_dealt": Coded(lambda r: r.dealt(2).astype(np.uint8) + r.dealt(5), (4, 5, 6)),
    "highest_value": Coded(_highest, tuple(range(10))),
    "all_same_color": Coded(_colours, (False, True)),
    "two_card_nines": Coded(lambda r: (r.total(0, 2) == 9).astype(np.uint8)
                            + (r.total(1, 2) == 9), (0, 1, 2)),
    "both_two_card_nines": Coded(lambda r: (r.total(0, 2) == 9) & (r.total(1, 2) == 9),
                                 (False, True)),
}
"""Every feature the simulator reads, by the game's name for it."""


def codes(rounds: Rounds, names: Sequence[str], reader: Reader | None = None
          ) -> list[np.ndarray]:
    """The codes of the named features for every round of ``rounds``."""
    reader = reader or Reader(rounds.cards)
    return [FEATURES[name].read(reader) for name in names]


class PuntoBancoDealer:
    """The dealer of Punto Banco and its variants for
    :func:`exact.analysis.verification.simulate_wagers` (a class: worker processes receive it
    by name)."""

    features = FEATURES
    check = staticmethod(check)
    deal = staticmethod(deal)

    @staticmethod
    def reader(rounds: Rounds) -> Reader:
        return Reader(rounds.cards)


@dataclass(frozen=True)
class TableauDealer:
    """The dealer of a game of the coup on another tableau than the seed's (an instance, of a
    class worker processes find by name, holding the tableau as plain values)."""

    tableau: Tableau
    features = FEATURES
    check = staticmethod(check)

    def deal(self, spec: ShoeSpec, seed: np.random.SeedSequence, shoes: int) -> Rounds:
        return deal(spec, seed, shoes, self.tableau)

    @staticmethod
    def reader(rounds: Rounds) -> Reader:
        return Reader(rounds.cards)


class _Tableau(Protocol):
    """What :func:`dealer_for` reads of a game's rules (the coup's ``Rules``)."""

    @property
    def naturals(self) -> frozenset[int]: ...

    @property
    def player_draws_on(self) -> frozenset[int]: ...

    @property
    def banker_draws_when_player_stands(self) -> frozenset[int]: ...

    @property
    def banker_draws_on_player_third(self) -> Mapping[int, frozenset[int]]: ...


def dealer_for(rules: _Tableau) -> type[PuntoBancoDealer] | TableauDealer:
    """The dealer of the game's own tableau: :class:`PuntoBancoDealer` (its tableau written
    from the seed) when the rules' tableau is the seed's, else a :class:`TableauDealer` dealing
    the rules' tableau."""
    tableau = Tableau(
        frozenset(rules.naturals), frozenset(rules.player_draws_on),
        frozenset(rules.banker_draws_when_player_stands),
        tuple(tuple(total not in rules.naturals
                    and third in rules.banker_draws_on_player_third.get(total, ())
                    for third in range(10)) for total in range(10)))
    return PuntoBancoDealer if tableau == SEED_TABLEAU else TableauDealer(tableau)


SEED_TABLEAU = Tableau(frozenset({8, 9}), frozenset(range(6)), frozenset(range(6)),
                       tuple(tuple(bool(d) for d in row) for row in BANKER_DRAWS[:8])
                       + ((False,) * 10,) * 2)
"""The seed's tableau as a :class:`Tableau` (no entries for the naturals 8, 9)."""
