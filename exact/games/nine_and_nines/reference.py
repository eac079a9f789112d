"""Independent references for the NINE and NINES wagers: the illustrative tables written out
by hand over physical cards, a card-by-card brute force, a plain combinatorial count for full
shoes, and a simulator of the first four cards. Nothing here uses the toolkit's features,
deals or bet files.

Layer: games, the top: the game's own reference code, which may import every generic layer; it
imports only the core, so it shares no code with the fast paths it checks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

from exact.core.cards import CARDS, JOKER_ID, Card, Shoe


def nine_tier(hand: Sequence[Card]) -> str:
    """Tier of Table NINE for one party's first two cards (the illustrative table)."""
    first, second = hand
    if (first.points + second.points) % 10 != 9:
        return "lose"
    suited = first.suit == second.suit
    low = min(first.points, second.points)  # 0 = a ten-value card with a 9
    if not suited:
        return "ten unsuited" if low == 0 else "unsuited"
    return {0: "ten suited", 1: "A-8 suited", 2: "2-7 suited", 3: "3-6 suited",
            4: "4-5 suited"}[low]


NINE_PAYS = {"A-8 suited": 30, "2-7 suited": 20, "3-6 suited": 20, "4-5 suited": 15,
             "ten suited": 15, "unsuited": 10, "ten unsuited": 2, "lose": -1}


def nines_tier(player: Sequence[Card], banker: Sequence[Card]) -> str:
    """Tier of Table NINES for the first four cards (the illustrative table)."""
    nines = [(a.points + b.points) % 10 == 9 for a, b in (player, banker)]
    if not any(nines):
        return "lose"
    if not all(nines):
        return "single"
    diamond_king = {Card("9", "D"), Card("K", "D")}
    if set(player) == diamond_king and set(banker) == diamond_king:
        return "diamond twins"
    if sorted(player) == sorted(banker) and player[0].suit == player[1].suit:
        return "suited twins"
    if all(card.points != 0 for card in (*player, *banker)):
        return "double without tens"
    return "double"


NINES_PAYS = {"diamond twins": 30000, "suited twins": 10000, "double without tens": 30,
              "double": 20, "single": 2, "lose": -1}

# tier -> event name of the shipped illustrative tables (exact/data/nine_and_nines/bets.toml);
# a tier not named here is the bet's losing event
NINE_EVENTS = {"A-8 suited": "Suited A-8", "2-7 suited": "Suited 2-7", "3-6 suited": "Suited 3-6",
               "4-5 suited": "Suited 4-5", "ten suited": "Suited ten-value 9",
               "unsuited": "Unsuited 9 without a ten", "ten unsuited": "Unsuited ten-value 9"}
NINES_EVENTS = {"diamond twins": "Diamond twins", "suited twins": "Suited twins",
                "double without tens": "Double without tens", "double": "Double",
                "single": "Single"}


# The seed's eleven example rounds (000_b202bb6f02bb29c4.txt), dealt from cards that fit each
# description; the settlement tests and the `settle` command's tests replay them.
LOSE = "lose"
PUSH = "push"

# round: (cards in dealing order P B P B [P3] [B3], expected pays of the NINE (Player), NINE
# (Banker) and NINES wagers as the seed states them, and the main game's winner)
ROUNDS = {
    1: ("2H 4D 3C 2S 4C", (LOSE, LOSE, LOSE), "player"),      # 5 v 6, Player draws to 9
    2: ("4H 3D 5C 3S", (10, LOSE, 2), "player"),              # Player 4-5 unsuited
    3: ("2C KH 5D 9S", (LOSE, 2, 2), "banker"),               # Banker 9 with a ten, unsuited
    4: ("3H 4S 6C 5S", (10, 15, 30), "tie"),                  # 3-6 unsuited, 4-5 suited
    5: ("TC 8H 7D 8C", (LOSE, LOSE, LOSE), "player"),         # 7 v 6, both stand
    6: ("AS 4C AD 3H 3S", (LOSE, LOSE, LOSE), "banker"),      # Player draws to 5, Banker 7
    7: ("8S 5H KC 2C", (LOSE, LOSE, LOSE), "player"),         # natural 8 v 7
    8: ("6C AH KD 8H", (LOSE, 30, 2), "banker"),              # Banker A-8 suited
    9: ("7C 6S 7D TS 2H", (LOSE, LOSE, LOSE), "tie"),         # 6 v 6 after a Player draw
    10: ("JC 2D 9D 7D", (2, 20, 20), "tie"),                  # J-9 unsuited, 2-7 suited
    11: ("5C 5H 5D 5S 9C KH", (LOSE, LOSE, LOSE), "player"),  # 0 v 0, both draw
}
# main bet -> winner of the round -> pays
MAIN_PAYS = {"player": {"player": 1, "banker": LOSE, "tie": PUSH},
             "banker": {"player": LOSE, "banker": Fraction(19, 20), "tie": PUSH},
             "tie": {"player": LOSE, "banker": LOSE, "tie": 8}}


class OrderFree(str):
    """Two cards written ``"9D KD"``, equal to the same two in either order (as the game's
    card-pair features compare), read off the cards here.

    >>> OrderFree("9D KD") == "KD 9D", OrderFree("9D KD") == "9D KH"
    (True, False)
    """

    __slots__ = ()

    def _cards(self) -> list[str]:
        return sorted(self.split())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        return self._cards() == sorted(other.split())

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(tuple(self._cards()))


def _two_card_nine(hand: Sequence[Card]) -> bool:
    return (hand[0].points + hand[1].points) % 10 == 9


def _first_two(hand: Sequence[Card]) -> OrderFree:
    return OrderFree(" ".join(f"{card.rank}{card.suit}" for card in hand[:2]))


def _side_readers(index: int) -> dict[str, Callable[[list[Card], list[Card]], object]]:
    side = ("player", "banker")[index]

    def hand(p: list[Card], b: list[Card]) -> list[Card]:
        return (p, b)[index][:2]

    return {
        f"{side}_two_card_nine": lambda p, b: _two_card_nine(hand(p, b)),
        f"{side}_has_ten_value": lambda p, b: any(card.points == 0 for card in hand(p, b)),
        f"{side}_initial_cards": lambda p, b: _first_two(hand(p, b)),
        f"{side}_suited_nine": lambda p, b: (
            _first_two(hand(p, b)) if _two_card_nine(hand(p, b))
            and hand(p, b)[0].suit == hand(p, b)[1].suit else None),
    }


# The features NINE & NINES adds to Punto Banco's, read off the physical cards of a round
# (player's and banker's hands) for the card-by-card twin (exact.reference.punto_banco's
# brute_force, ``features=``); the game deals Punto Banco's rounds.
NINE_READERS: dict[str, Callable[[list[Card], list[Card]], object]] = {
    **_side_readers(0), **_side_readers(1),
    "two_card_nines": lambda p, b: _two_card_nine(p[:2]) + _two_card_nine(b[:2]),
    "both_two_card_nines": lambda p, b: _two_card_nine(p[:2]) and _two_card_nine(b[:2]),
    "same_initial_cards": lambda p, b: sorted(p[:2]) == sorted(b[:2]),
}


def brute_force_first_four(shoe: Shoe) -> Counter:
    """(NINE Player tier, NINE Banker tier, NINES tier) per ordered 6-card sequence, dealing
    Player, Banker, Player, Banker card by card; the last two places fill (N-4)(N-5) ways."""
    counts = list(shoe.counts)
    size = shoe.size
    out: Counter = Counter()

    def deal(dealt: list[Card], weight: int) -> None:
        if len(dealt) == 4:
            player, banker = (dealt[0], dealt[2]), (dealt[1], dealt[3])
            key = (nine_tier(player), nine_tier(banker), nines_tier(player, banker))
            out[key] += weight * (size - 4) * (size - 5)
            return
        for index, left in enumerate(counts):
            if left:
                counts[index] -= 1
                deal(dealt + [CARDS[index]], weight * left)
                counts[index] += 1

    deal([], 1)
    return out


def nines_by_counting(shoe: Shoe) -> Counter:
    """NINES tiers over ordered 6-card sequences for a jokerless shoe, by direct counting:
    for each ordered pair of Player cards, count the Banker's ordered pairs of each kind in the
    rest of the shoe arithmetically (a two-card 9 pairs values v and 9-v, never equal)."""
    counts = list(shoe.counts[:JOKER_ID])
    size = shoe.size
    out: Counter = Counter()
    nine_d, king_d = CARDS.index(Card("9", "D")), CARDS.index(Card("K", "D"))
    for first in range(JOKER_ID):
        for second in range(JOKER_ID):
            ways = counts[first] * (counts[second] - (first == second))
            if ways <= 0:
                continue
            left = counts.copy()
            left[first] -= 1
            left[second] -= 1
            by_value = [0] * 10
            for index in range(JOKER_ID):
                by_value[CARDS[index].points] += left[index]
            rest = (size - 2) * (size - 3)
            banker_nines = sum(by_value[v] * by_value[9 - v] for v in range(10))
            banker_ten_nines = 2 * by_value[0] * by_value[9]
            player = (CARDS[first], CARDS[second])
            fill = (size - 4) * (size - 5)
            if (player[0].points + player[1].points) % 10 != 9:
                out["single"] += ways * banker_nines * fill
                out["lose"] += ways * (rest - banker_nines) * fill
                continue
            out["single"] += ways * (rest - banker_nines) * fill
            # the Banker holding exactly these two cards (first != second: values differ)
            twins = 2 * left[first] * left[second]
            suited = player[0].suit == player[1].suit
            diamond = {first, second} == {nine_d, king_d}
            special = "diamond twins" if diamond else "suited twins" if suited else None
            if special:
                out[special] += ways * twins * fill
            player_has_ten = 0 in (player[0].points, player[1].points)
            doubles = banker_nines - (twins if special else 0)
            ten_doubles = banker_ten_nines - (twins if special and player_has_ten else 0)
            if player_has_ten:
                out["double"] += ways * doubles * fill
            else:
                out["double"] += ways * ten_doubles * fill
                out["double without tens"] += ways * (doubles - ten_doubles) * fill
    return out


def simulate_first_four(shoe: Shoe, rounds: int, seed: int) -> Counter:
    """(NINE Player tier, NINE Banker tier, NINES tier) of ``rounds`` independent rounds, each
    the first four cards of a freshly shuffled full shoe."""
    generator = random.Random(seed)
    cards = [card for card, count in zip(CARDS, shoe.counts, strict=True) for _ in range(count)]
    out: Counter = Counter()
    for _ in range(rounds):
        p1, b1, p2, b2 = generator.sample(cards, 4)
        out[nine_tier((p1, p2)), nine_tier((b1, b2)), nines_tier((p1, p2), (b1, b2))] += 1
    return out
