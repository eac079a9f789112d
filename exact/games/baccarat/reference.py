"""Slow, obviously correct references for the tests and the reports: a card-by-card brute
force and a Monte Carlo round simulator.

Layer: games, the top: the game's own reference code, which may import every generic layer; it
imports only the core, so it shares no code with the fast paths it checks.

Both deal physical cards in the real order (Player, Banker, Player, Banker, then third
cards) and apply the textbook tableau written out here by hand, independently of the rule
file and of the enumerator's staging, views and grouping.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from exact.core.cards import CARDS, Card, Shoe

# Textbook tableau: Banker's two-card total -> Player third-card values on which Banker draws.
BANKER_DRAWS = {
    0: set(range(10)), 1: set(range(10)), 2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9}, 4: {2, 3, 4, 5, 6, 7}, 5: {4, 5, 6, 7}, 6: {6, 7}, 7: set(),
}


def total(cards: Sequence[Card]) -> int:
    return sum(card.points for card in cards) % 10


def play(cards: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """Play one round from the top of ``cards`` (at least six); return the two hands."""
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    position = 4
    if total(player) >= 8 or total(banker) >= 8:
        return player, banker
    player_third = None
    if total(player) <= 5:
        player.append(cards[position])
        player_third = cards[position].points
        position += 1
    if player_third is None:
        if total(banker) <= 5:
            banker.append(cards[position])
    elif player_third in BANKER_DRAWS[total(banker)]:
        banker.append(cards[position])
    return player, banker


def pair_kind(hand: Sequence[Card]) -> str:
    first, second = hand[0], hand[1]
    if first.rank != second.rank:
        return "none"
    if first.suit == second.suit:
        return "perfect"
    return "colored" if first.colour == second.colour else "mixed"


Reader = Callable[[list[Card], list[Card]], object]

FEATURES: dict[str, Reader] = {
    "winner": lambda p, b: ("player" if total(p) > total(b)
                            else "banker" if total(b) > total(p) else "tie"),
    "player_total": lambda p, b: total(p),
    "banker_total": lambda p, b: total(b),
    "player_cards": lambda p, b: len(p),
    "banker_cards": lambda p, b: len(b),
    "cards_dealt": lambda p, b: len(p) + len(b),
    "player_initial_total": lambda p, b: total(p[:2]),
    "banker_initial_total": lambda p, b: total(b[:2]),
    "player_third": lambda p, b: p[2].points if len(p) == 3 else None,
    "banker_third": lambda p, b: b[2].points if len(b) == 3 else None,
    "player_pair": lambda p, b: pair_kind(p),
    "banker_pair": lambda p, b: pair_kind(b),
    "player_suited": lambda p, b: p[0].suit == p[1].suit,
    "banker_suited": lambda p, b: b[0].suit == b[1].suit,
    "all_same_color": lambda p, b: len({c.colour for c in p + b}) == 1,
    "highest_value": lambda p, b: max(c.points for c in p + b),
    "margin": lambda p, b: abs(total(p) - total(b)),
    "player_initial_ranks": lambda p, b: "".join(sorted((p[0].rank, p[1].rank),
                                                        key="A23456789TJQK".index)),
    "banker_initial_ranks": lambda p, b: "".join(sorted((b[0].rank, b[1].rank),
                                                        key="A23456789TJQK".index)),
    # side bets: a pair is two cards of one rank (10, J, Q, K differ); a natural is 8 or 9
    "player_paired": lambda p, b: p[0].rank == p[1].rank,
    "banker_paired": lambda p, b: b[0].rank == b[1].rank,
    "player_natural": lambda p, b: total(p[:2]) >= 8,
    "banker_natural": lambda p, b: total(b[:2]) >= 8,
}


def _card_at(hands: tuple[list[Card], list[Card]], side: str, number: int) -> Card | None:
    hand = hands[0] if side == "player" else hands[1]
    return hand[number - 1] if number <= len(hand) else None


def _attribute(card: Card | None, attribute: str) -> object:
    return None if card is None else getattr(card, attribute)




def _card_reader(side: str, number: int, attribute: str) -> Reader:
    return lambda p, b: _attribute(_card_at((p, b), side, number), attribute)


def _count_reader(group: Callable[[list[Card], list[Card]], list[Card]], attribute: str,
                  wanted: str) -> Reader:
    return lambda p, b: sum(getattr(card, attribute) == wanted for card in group(p, b))


# the card-level vocabulary, read off the physical cards: each card by position ...
for _side in ("player", "banker"):
    for _number in (1, 2, 3):
        for _name in ("rank", "suit", "colour", "value"):
            FEATURES[f"{_side}_card{_number}_{_name}"] = _card_reader(_side, _number, _name)
# ... and counts over groups of cards
_GROUPS: dict[str, Callable[[list[Card], list[Card]], list[Card]]] = {
    "first_four": lambda p, b: p[:2] + b[:2], "player": lambda p, b: p,
    "banker": lambda p, b: b, "dealt": lambda p, b: p + b}
_COUNTED = {"aces": ("rank", "A"), "twos": ("rank", "2"), "threes": ("rank", "3"),
            "fours": ("rank", "4"), "fives": ("rank", "5"), "sixes": ("rank", "6"),
            "sevens": ("rank", "7"), "eights": ("rank", "8"), "nines": ("rank", "9"),
            "tens": ("rank", "T"), "jacks": ("rank", "J"), "queens": ("rank", "Q"),
            "kings": ("rank", "K"), "clubs": ("suit", "C"), "diamonds": ("suit", "D"),
            "hearts": ("suit", "H"), "spades": ("suit", "S"), "reds": ("colour", "red"),
            "blacks": ("colour", "black")}
for _group, _cards in _GROUPS.items():
    for _plural, (_name, _wanted) in _COUNTED.items():
        FEATURES[f"{_group}_{_plural}"] = _count_reader(_cards, _name, _wanted)

# Seeing cards by value only: one representative card per value (suits and ranks unknown).
VALUE_CARDS = [Card("TJQK"[0] if v == 0 else "A23456789"[v - 1]) for v in range(10)]


def brute_force(shoe: Shoe, names: Sequence[str], *, by: str = "card",
                known: Mapping[int, Card] | None = None,
                features: Mapping[str, Reader] = FEATURES) -> Counter:
    """Count ordered 6-card sequences by the named features, branching card by card.

    Branches over the distinct cards left (``by="card"``: rank and suit; ``by="value"``:
    point value only, for value features), weighted by how many are left, in the real dealing
    order; a round that used k cards counts (N-k)…(N-5) times.

    ``known`` forces cards at positions of the sequence (1 = the first card dealt): a known
    card leaves the shoe first, its position holds it (weight 1) and no other card, whether
    the round deals it or not; so the sequences number (N-j)…(N-5) for j known positions.
    ``features``: the readers of the names (another game dealing Punto Banco's rounds adds
    its own, e.g. :data:`exact.reference.nine_and_nines.FEATURES`).
    """
    known = dict(known or {})
    if by == "card":
        kinds, counts = list(CARDS), list(shoe.counts)
    else:
        kinds, counts = VALUE_CARDS, list(shoe.by_value())
        known = {position: VALUE_CARDS[card.points] for position, card in known.items()}
    for card in known.values():
        index = kinds.index(card)
        if counts[index] == 0:
            raise ValueError(f"known card {card} is not in the shoe")
        counts[index] -= 1
    readers = [features[name] for name in names]
    left = sum(counts)
    out: Counter = Counter()

    def fill_weight(used: int) -> int:
        """The ways to fill the positions after the first ``used`` that no known card holds."""
        weight, pool = 1, left - used + sum(1 for position in known if position <= used)
        for position in range(used + 1, 7):
            if position not in known:
                weight *= pool
                pool -= 1
        return weight

    def deal(dealt: list[Card], weight: int) -> None:
        if _cards_needed(dealt) == len(dealt):
            player, banker = play(dealt)  # exactly the cards the round reads
            out[tuple(read(player, banker) for read in readers)] += weight * fill_weight(len(dealt))
            return
        position = len(dealt) + 1
        if position in known:
            deal(dealt + [known[position]], weight)
            return
        for index in [i for i, count in enumerate(counts) if count]:
            available = counts[index]
            counts[index] -= 1
            deal(dealt + [kinds[index]], weight * available)
            counts[index] += 1

    deal([], 1)
    return out


def _cards_needed(dealt: list[Card]) -> int:
    """How many cards the round needs, knowing the first ``len(dealt)`` (at least as many)."""
    if len(dealt) < 4:
        return 4
    player, banker = [dealt[0], dealt[2]], [dealt[1], dealt[3]]
    if total(player) >= 8 or total(banker) >= 8:
        return 4
    if total(player) <= 5:
        if len(dealt) < 5:
            return 5
        return 6 if dealt[4].points in BANKER_DRAWS[total(banker)] else 5
    return 5 if total(banker) <= 5 else 4


def simulate(shoe: Shoe, rounds: int, seed: int, names: Sequence[str]) -> Counter:
    """Deal ``rounds`` independent rounds, each from a freshly shuffled full ``shoe``."""
    generator = random.Random(seed)
    cards = [card for card, count in zip(CARDS, shoe.counts, strict=True) for _ in range(count)]
    readers = [FEATURES[name] for name in names]
    out: Counter = Counter()
    for _ in range(rounds):
        player, banker = play(generator.sample(cards, 6))
        out[tuple(read(player, banker) for read in readers)] += 1
    return out
