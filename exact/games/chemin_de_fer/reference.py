"""A direct-loop reference for chemin de fer's sequence form (tests and the benchmark).

Layer: games, the top: the game's own reference code, which may import every generic layer; it
imports only the core, so it shares no code with the coup and the generic walker it checks.

Plain loops over the cards by value: the Player's two cards and the Banker's two (each pair
order-free, weighed by its ordered ways), then the Player's choice or forced move, its third
card, the Banker's choice and its third card, as the rule text says them, counting each pair of
choice sequences' Player wins, Banker wins and ties over the ordered six-card sequences of the
shoe (the rest of the six cards, past the coup's, filled by their falling count; with
replacement every card from the whole shoe, ``N**6`` sequences). These are the loops chemin de
fer's sequence form was built by before the coup was written once (counting ties too), kept as
its twin: ``make bench`` times the walk against them (``strategy_walks_benchmark``).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable

from exact.core.cards import CARDS, Shoe

ROUND_CARDS = 6
DRAW, STAND = "draw", "stand"
ACTIONS = (DRAW, STAND)
InfoSet = tuple[object, ...]
Path = tuple[tuple[InfoSet, str], ...]
Entries = dict[tuple[Path, Path], dict[Hashable, int]]


def value_counts(shoe: Shoe) -> list[int]:
    """The shoe's cards by point value, 0 to 9 (tens and faces 0); the coup deals no joker."""
    counts = [0] * 10
    for card, count in zip(CARDS, shoe.counts, strict=True):
        if count:
            if card.value is None:
                raise ValueError("chemin de fer deals no joker")
            counts[card.value] += count
    return counts


def player_set(information: str, first: int, second: int) -> InfoSet:
    """The Player's set at its choice: its total, or its two cards' values (``cards``)."""
    return ("player", (first + second) % 10) if information != "cards" else (
        "player", (first, second))


def banker_set(information: str, first: int, second: int, third: int | None) -> InfoSet:
    """The Banker's set: its total (``totals``) or its two values, and the Player's third."""
    tag = (first + second) % 10 if information == "totals" else (first, second)
    return ("banker", tag, third)


def sequence_table(naturals: Collection[int], player_draws_on: Collection[int],
                   player_chooses_on: Collection[int], information: str, shoe: Shoe,
                   replacement: bool = False
                   ) -> tuple[int, tuple[dict[InfoSet, tuple[str, ...]],
                                         dict[InfoSet, tuple[str, ...]]],
                              tuple[dict[InfoSet, Path], dict[InfoSet, Path]], Entries]:
    """(the counting unit, each side's sets with their actions, their parent sequences, and per
    pair of choice sequences the count of each outcome, ``"player"``, ``"banker"`` or
    ``"tie"``, positive counts only): the coup of these forced and choice totals dealt from
    ``shoe``."""
    counts = value_counts(shoe)
    size = sum(counts)
    if not replacement and size < ROUND_CARDS:
        raise ValueError(f"a shoe of {size} cards cannot deal a six-card round")

    fill = [1] * (ROUND_CARDS + 1)  # by cards dealt: the ways to deal the rest of the unit
    for dealt in range(ROUND_CARDS - 1, -1, -1):
        fill[dealt] = fill[dealt + 1] * (size if replacement else size - dealt)

    def pair_ways(pool: list[int], a: int, b: int) -> int:
        if a == b:
            return pool[a] * (pool[a] - (not replacement))
        return 2 * pool[a] * pool[b]

    def taken(pool: list[int], *cards: int) -> list[int]:
        if replacement:
            return pool
        pool = list(pool)
        for card in cards:
            pool[card] -= 1
        return pool

    entries: Entries = {}

    def add(pair: tuple[Path, Path], outcome: str, weight: int) -> None:
        if weight:
            entry = entries.setdefault(pair, {})
            entry[outcome] = entry.get(outcome, 0) + weight

    def winner(player: int, banker: int) -> str:
        return "player" if player > banker else "banker" if banker > player else "tie"

    player_sets: dict[InfoSet, tuple[str, ...]] = {}
    banker_sets: dict[InfoSet, tuple[str, ...]] = {}

    def banker_turn(p_path: Path, player_total: int, c: int, e: int, third: int | None,
                    pool: list[int], weight: int, dealt: int) -> None:
        banker_total = (c + e) % 10
        infoset = banker_set(information, c, e, third)
        banker_sets[infoset] = ACTIONS
        add((p_path, ((infoset, STAND),)), winner(player_total, banker_total),
            weight * fill[dealt])
        won = lost = tied = 0  # over the Banker's third card, summed before one update
        for card, n in enumerate(pool):
            final = (banker_total + card) % 10
            if player_total > final:
                won += n
            elif final > player_total:
                lost += n
            else:
                tied += n
        weight *= fill[dealt + 1]
        for outcome, n in (("player", won), ("banker", lost), ("tie", tied)):
            add((p_path, ((infoset, DRAW),)), outcome, n * weight)

    def pairs(pool: list[int]) -> list[tuple[int, int, int, list[int]]]:
        """Each two-card hand ``pool`` can deal (values in order), its ordered ways and the
        pool left."""
        return [(a, b, ways, taken(pool, a, b)) for a in range(10) for b in range(a, 10)
                for ways in (pair_ways(pool, a, b),) if ways > 0]

    for a, b, p_ways, after_player in pairs(counts):
        player_total = (a + b) % 10
        for c, e, b_ways, pool in pairs(after_player):
            weight = p_ways * b_ways
            banker_total = (c + e) % 10
            if player_total in naturals or banker_total in naturals:
                add(((), ()), winner(player_total, banker_total), weight * fill[4])
                continue
            choices: list[tuple[Path, bool]]  # (the Player's choices, it stands)
            if player_total in player_chooses_on:
                infoset = player_set(information, a, b)
                player_sets[infoset] = ACTIONS
                choices = [(((infoset, DRAW),), False), (((infoset, STAND),), True)]
            else:
                choices = [((), player_total not in player_draws_on)]
            for p_path, stands in choices:
                if stands:
                    banker_turn(p_path, player_total, c, e, None, pool, weight, 4)
                    continue
                for third, n in enumerate(pool):
                    if n > 0:
                        banker_turn(p_path, (player_total + third) % 10, c, e, third,
                                    taken(pool, third), weight * n, 5)
    return (fill[0], (player_sets, banker_sets),
            ({h: () for h in player_sets}, {h: () for h in banker_sets}), entries)
