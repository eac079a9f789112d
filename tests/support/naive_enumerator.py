"""A naive value-level enumerator of the Punto Banco main bets, written as a user would in an
afternoon: the yardstick of ``make bench`` for a fresh ``exact analyze`` (issue 13: a fresh
main-bet analysis must be no slower than this, timed as a fresh process in the same run).

It deals Player, Banker, Player, Banker, then the third cards by the textbook tableau, each
card branching on the ten point values weighted by how many cards of that value are left,
and counts ordered six-card sequences (a round of k cards counts (N-k)...(N-5) times). It
imports nothing from the toolkit.

    python tests/support/naive_enumerator.py 8
"""

from __future__ import annotations

import sys

# Banker's two-card total -> the Player's third-card values on which Banker draws
BANKER_DRAWS = {0: set(range(10)), 1: set(range(10)), 2: set(range(10)),
                3: {0, 1, 2, 3, 4, 5, 6, 7, 9}, 4: {2, 3, 4, 5, 6, 7}, 5: {4, 5, 6, 7},
                6: {6, 7}, 7: set()}


def count(decks: int) -> dict[str, int]:
    """Ordered six-card sequences won by Banker, by Player and tied (tests/engines/test_engine.py
    checks them against the engine)."""
    counts = [16 * decks] + [4 * decks] * 9  # cards of each point value 0-9
    size = 52 * decks
    out = {"banker": 0, "player": 0, "tie": 0}

    def settle(player: int, banker: int, weight: int, used: int) -> None:
        for i in range(used, 6):
            weight *= size - i
        winner = "player" if player > banker else "banker" if banker > player else "tie"
        out[winner] += weight

    def draw(weight: int):
        for value in range(10):
            if counts[value]:
                yield value, weight * counts[value]

    def deal(cards: list[int], weight: int) -> None:
        if len(cards) < 4:
            for value, branch in draw(weight):
                counts[value] -= 1
                deal(cards + [value], branch)
                counts[value] += 1
            return
        player, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
        if player >= 8 or banker >= 8:
            settle(player, banker, weight, 4)
        elif player >= 6:  # Player stands; Banker draws on 0-5
            if banker <= 5:
                for value, branch in draw(weight):
                    settle(player, (banker + value) % 10, branch, 5)
            else:
                settle(player, banker, weight, 4)
        else:
            for third, branch in draw(weight):
                counts[third] -= 1
                drawn = (player + third) % 10
                if third in BANKER_DRAWS[banker]:
                    for value, last in draw(branch):
                        settle(drawn, (banker + value) % 10, last, 6)
                else:
                    settle(drawn, banker, branch, 5)
                counts[third] += 1

    deal([], 1)
    return out


if __name__ == "__main__":
    print(count(int(sys.argv[1]) if len(sys.argv) > 1 else 8))
