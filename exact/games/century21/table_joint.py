"""The exact joint distribution of the seats' pays at a table of 2 or 3 seats, under a
Player/Dealer that decides from its own cards (House Way, or any strategy of its cards alone):
what makes the Player/Dealer's distribution per hand exact at 3 seats.

Layer: games, the top: the full table's exact distributions (its economics show them).

How. Always deal ``3N + 3`` cards: the up and down cards, the Player/Dealer's third card ``X``
(a dummy, placed last, when it stands), then each seat's two cards and a third card ``t``
(a dummy when the seat stands: summing a card over every class counts every deal alike). A
seat's *unit* is its three classes; the number of ordered card sequences of a unit depends
only on its multiset ``e`` of classes: ``Φ_e(r) = Π_c r_c (r_c - 1) … (r_c - e_c + 1)`` on the
counts ``r`` left, times 2 when the two first cards differ (their two orders). Sequences
concatenate: ``Φ_{e1}(r) Φ_{e2}(r - e1) Φ_{e3}(r - e1 - e2)`` counts three seats' cards. So,
with ``K_s[e, o]`` the orderings of seat ``s``'s units of multiset ``e`` and pay ``o`` (given
the Player/Dealer's final hand), the count of every pay triple is

    Σ_{e1} Φ_{e1}(r) K1[e1, o1] Σ_{e2} Φ_{e2}(r - e1) K2[e2, o2] F3[e1 + e2, o3],
    F3[e12, o3] = Σ_{e3} Φ_{e3}(r - e12) K3[e3, o3],

over the 286 multisets of three classes and the 8,008 of six: numpy integer products per
(up card, down card, Player/Dealer's third card), bounded below 2**63 (each partial sum is at
most the number of ordered sequences of the cards it counts; see :func:`_pays`), the last sum
split in two 27-bit halves. About 30 s of CPU at 3 seats on 424 cards.

A Player/Dealer that sees which seats drew couples every seat's draw with its action: the
sums above then need the seats' draws in the codes (32 per seat, not about 4), about a
thousand times the work; that case keeps the seeded simulation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from itertools import combinations_with_replacement, product
from math import lcm

import numpy as np

from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.engines import cache
from exact.errors import StrategyError
from exact.games.century21.full_table import TableGame, cache_parts, lift_dealer
from exact.games.century21.game import (
    CLASSES,
    DRAW,
    END,
    Mode,
    Strategy,
    class_counts,
    settle,
    two_card_state,
)
from exact.games.century21.rules import Rules, key_data

_HALF = 1 << 27


def _multisets(size: int) -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    """Every multiset of ``size`` classes as count vectors, and the index of each (sorted)."""
    every = list(combinations_with_replacement(CLASSES, size))
    vectors = np.zeros((len(every), 11), dtype=np.int64)
    for i, classes in enumerate(every):
        for c in classes:
            vectors[i, c] += 1
    return vectors, {classes: i for i, classes in enumerate(every)}


_THREE, _THREE_INDEX = _multisets(3)
_SIX, _SIX_INDEX = _multisets(6)
# the index of e1 + e2 among the six-class multisets, for every pair of three-class ones
_SUMS = np.array([[_SIX_INDEX[tuple(sorted(a + b))] for b in _THREE_INDEX] for a in _THREE_INDEX],
                 dtype=np.int64)
# a multiset's falling product as three factors (class, cards of it before)
_FACTORS = [[(c, classes[:k].count(c)) for k, c in enumerate(classes)]
            for classes in _THREE_INDEX]
# each factor as a column of the 33 (class, before) pairs: left[c] - before, for c, before
_COLUMN = np.array([[3 * c + b for c, b in f] for f in _FACTORS], dtype=np.int64)


def _phi(left: np.ndarray) -> np.ndarray:
    """Φ_e(left) for every row of counts ``left`` and every three-class multiset ``e``
    (rows x 286): products of three counts below 424 (a negative count left is no card)."""
    columns = np.maximum(np.repeat(left, 3, axis=1) - np.tile(np.arange(3), 11)[None, :], 0)
    found = columns[:, _COLUMN[:, 0]]
    found *= columns[:, _COLUMN[:, 1]]
    found *= columns[:, _COLUMN[:, 2]]
    return found


def _weighed(left: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``_phi(left) @ kernel`` for many rows (the 8,008 six-class multisets): Φ in int32
    (below 128**3 < 2**31 on any shoe of 128 cards a class or fewer: checked by the caller's
    bound), the product in float64, exact: each term is below 2**24 and each sum, the ordered
    sequences of three cards, below 2**27 < 2**53."""
    columns = np.ascontiguousarray(np.maximum(
        np.repeat(left, 3, axis=1) - np.tile(np.arange(3), 11)[None, :], 0).T.astype(np.int32))
    phi = columns[_COLUMN[:, 0]]
    phi *= columns[_COLUMN[:, 1]]
    phi *= columns[_COLUMN[:, 2]]
    return (kernel.T.astype(np.float64) @ phi.astype(np.float64)).T.astype(np.int64)


def seat_joint(rules: Rules, shoe: Shoe, seats: Sequence[Strategy], dealer: Strategy,
               mode: Mode = "total") -> dict[tuple[Fraction, ...], Fraction]:
    """P(seat ``i`` pays ``v_i`` per unit for every ``i``) at a table of 2 or 3 seats playing
    ``seats`` (pure), against ``dealer``: a heads-up Player/Dealer strategy that must not
    depend on whether the player drew (its own cards only). Exact (module docstring)."""
    n = len(seats)
    if n not in (2, 3):
        raise StrategyError(f"seat_joint takes 2 or 3 seats, got {n}")
    cards = 3 * n + 3
    if shoe.size < cards:
        raise StrategyError(f"a shoe of {shoe.size} cards cannot deal {n} seats with third "
                            "cards")
    if shoe.size >= 1 << 9:  # the int64 bounds below hold for shoes under 512 cards
        raise StrategyError(f"seat_joint takes shoes of fewer than 512 cards, not "
                            f"{shoe.size}")
    one = TableGame(rules, shoe, 1, mode)
    lifted = lift_dealer(dealer, n)  # refuses a strategy that reads the player's draw
    draws = np.zeros((n, 11, 11, 11), dtype=bool)  # seat, up, a, b
    for i, strategy in enumerate(seats):
        for up, a, b in product(CLASSES, CLASSES, CLASSES):
            p = one.seat_draws(strategy, a, b, up)
            if p not in (0, 1):
                raise StrategyError("the seats must play pure strategies for their joint")
            draws[i, up, a, b] = bool(p)
    # seconds at 3 seats on any shoe: kept on disk, between runs and the test workers
    return cache.cached(joint_key(rules, shoe, seats, dealer, one.mode),
                        lambda: _joint(rules, shoe, one, lifted, draws), _encode_joint,
                        partial(_decode_joint, n, joint_unit(shoe, n, lifted)))


def joint_unit(shoe: Shoe, seats: int, lifted: Strategy) -> int:
    """What every probability of the joint is a multiple of one over: the counting unit
    (ordered sequences of ``3N + 3`` cards) times the square of the common denominator of the
    Player/Dealer's probabilities (an action's probability is at most a product of two of
    them: the check's and the draw's)."""
    common = lcm(*(Fraction(p).denominator for actions in lifted.values()
                   for p in actions.values()))
    return falling(shoe.size, 3 * seats + 3) * common * common


def joint_key(rules: Rules, shoe: Shoe, seats: Sequence[Strategy], dealer: Strategy,
              mode: Mode) -> cache.Key:
    """The disk-cache key of :func:`seat_joint`'s result: the game (every rule, the shoe,
    the information mode: :func:`~exact.games.century21.full_table.cache_parts`), each seat's
    strategy in seat order and the Player/Dealer's."""
    return cache.cache_key("seat-joint", [*cache_parts(rules, shoe, mode), ["seats", [
        strategy_part(strategy) for strategy in seats]], ["dealer", strategy_part(dealer)]])


def strategy_part(strategy: Strategy) -> list[object]:
    """A strategy as a key holds it: each information set (its tuple of text, integers and
    booleans) with each action's probability as numerator and denominator, in one order."""
    items = [[key_data(infoset), [[str(action), *Fraction(p).as_integer_ratio()]
                                for action, p in sorted(actions.items())]]
             for infoset, actions in strategy.items()]
    return sorted(items, key=lambda item: json.dumps(item, separators=(",", ":")))


def _encode_joint(joint: dict[tuple[Fraction, ...], Fraction]
                  ) -> tuple[cache.Fields, cache.Arrays]:
    """The joint as JSON fields: each (seats' pays, probability) in order, every fraction as
    [numerator, denominator]."""
    return {"joint": [[[[v.numerator, v.denominator] for v in pays], [p.numerator, p.denominator]]
                      for pays, p in joint.items()]}, {}


def _decode_joint(seats: int, unit: int, fields: cache.Fields, arrays: cache.Arrays
                  ) -> dict[tuple[Fraction, ...], Fraction]:
    """The joint of :func:`_encode_joint`, checked: ``seats`` pays per entry, no pays twice,
    positive probabilities, each a multiple of ``1 / unit`` (:func:`joint_unit`), that sum to
    exactly 1."""
    entries = fields["joint"]
    if arrays or not isinstance(entries, list) or not all(
            isinstance(e, list) and len(e) == 2 and isinstance(e[0], list)
            and len(e[0]) == seats and all(map(_is_fraction, e[0])) and _is_fraction(e[1])
            for e in entries):
        raise cache.CorruptEntry("seat joint malformed")
    # checked on the integers as written, before any Fraction is made: a forged entry of
    # thousands of probabilities over distinct 4,000-digit denominators took minutes to sum
    if any(p[0] <= 0 or unit % p[1] for _pays, p in entries) or \
            sum(p[0] * (unit // p[1]) for _pays, p in entries) != unit:
        raise cache.CorruptEntry("seat joint not a distribution")
    found = {tuple(Fraction(*v) for v in pays): Fraction(*p) for pays, p in entries}
    if len(found) != len(entries):
        raise cache.CorruptEntry("seat joint repeats a tuple of pays")
    return found


def _is_fraction(value: object) -> bool:
    """``[numerator, denominator]``, integers, the denominator positive."""
    return (isinstance(value, list) and len(value) == 2 and type(value[0]) is int
            and type(value[1]) is int and value[1] > 0)


def _joint(rules: Rules, shoe: Shoe, one: TableGame, lifted: Strategy, draws: np.ndarray
           ) -> dict[tuple[Fraction, ...], Fraction]:
    """The computation of :func:`seat_joint` (module docstring), its inputs checked."""
    n = len(draws)
    cards = 3 * n + 3
    counts = list(class_counts(shoe))
    codes: dict[Fraction, int] = {}
    found: dict[tuple[int, ...], Fraction] = {}
    pays: dict[tuple, int] = {}
    kernels: dict[tuple, np.ndarray] = {}

    def code(seat: tuple, hand: tuple, stopped: bool) -> int:
        key = (seat, hand, stopped)
        if key not in pays:
            pays[key] = codes.setdefault(settle(rules, seat, hand, stopped)[0], len(codes))
        return pays[key]

    def add(weight: Fraction | int, joint: dict[tuple[int, ...], int]) -> None:
        for key, count in joint.items():
            found[key] = found.get(key, Fraction(0)) + weight * count

    for up, down in product(CLASSES, CLASSES):
        w = counts[up] * (counts[down] - (up == down))
        if w <= 0:
            continue
        r = list(counts)
        r[up] -= 1
        r[down] -= 1
        actions = one.dealer_actions(lifted, up, down, (False,) * n)  # alike for any draws
        two = two_card_state(up, down)
        for action, p in actions.items():
            if action == DRAW:
                for x in CLASSES:
                    if r[x] <= 0:
                        continue
                    r[x] -= 1
                    hand = (two[0], two[1], x)
                    add(p * w * (r[x] + 1), _pays(n, r, up, draws, hand, False, code, kernels))
                    r[x] += 1
            else:  # the dummy X is the last of the 3N + 3 cards
                stopped = action == END
                add(p * w * (sum(r) - 3 * n), _pays(n, r, up, draws, two, stopped, code, kernels))
    values = {c: v for v, c in codes.items()}
    total = falling(shoe.size, cards)
    return {tuple(values[c] for c in key): count / total
            for key, count in sorted(found.items()) if count}


def _pays(n: int, r: list[int], up: int, draws: np.ndarray, dealer: tuple, stopped: bool,
          code, kernels: dict[tuple, np.ndarray]) -> dict[tuple[int, ...], int]:
    """The count of every pay-code tuple over the seats' units on counts ``r``, against the
    Player/Dealer's final ``dealer`` hand (module docstring). Bounds: a sum of Φ K over units
    is at most the ordered sequences of their cards, below 424**3 < 2**27; so F3, and each
    sum of Φ K F3, is below 2**54; the last sum takes F3 products in two 27-bit halves."""
    matrices = [_kernel(draws[seat, up], dealer, stopped, code, kernels) for seat in range(n)]
    size = max(m.shape[1] for m in matrices)
    matrices = [np.pad(m, ((0, 0), (0, size - m.shape[1]))) for m in matrices]
    counts = np.array(r, dtype=np.int64)
    phi1 = _phi(counts[None, :])[0]  # Φ_{e1}(r)
    phi2 = _phi(counts[None, :] - _THREE)  # [e1, e2]: Φ_{e2}(r - e1)
    if n == 2:
        inner = phi2 @ matrices[1]  # [e1, o2]
        first = phi1[:, None] * matrices[0]  # [e1, o1]
        joint = _exact_product(first, inner[:, None, :])
        return {(o1, o2): v for (o1, _, o2), v in joint.items()}
    f3 = _weighed(counts[None, :] - _SIX, matrices[2])  # [e12, o3]
    gathered = f3[_SUMS]  # [e1, e2, o3]
    inner = np.einsum("ij,jp,ijo->ipo", phi2, matrices[1], gathered)  # [e1, o2, o3]
    first = phi1[:, None] * matrices[0]
    return _exact_product(first, inner)


def _kernel(draws: np.ndarray, dealer: tuple, stopped: bool, code,
            kernels: dict[tuple, np.ndarray]) -> np.ndarray:
    """K[e, o]: the orderings of the seat's units of multiset ``e`` and pay code ``o``
    (``draws[a, b]``: does the seat draw on ``a, b`` against this up card), kept in
    ``kernels`` for one call of :func:`seat_joint` (``code`` is its numbering of pays)."""
    key = (draws.tobytes(), dealer, stopped)
    found = kernels.get(key)
    if found is not None:
        return found
    by_unit: dict[tuple[int, int], int] = {}
    for a in CLASSES:
        for b in range(a, 11):
            hand = two_card_state(a, b)
            seat_draws = not stopped and bool(draws[a, b])
            for t in CLASSES:
                final = (hand[0], hand[1], t) if seat_draws else hand
                unit = (_THREE_INDEX[tuple(sorted((a, b, t)))], code(final, dealer, stopped))
                by_unit[unit] = by_unit.get(unit, 0) + (1 if a == b else 2)
    found = np.zeros((len(_THREE), max(o for _, o in by_unit) + 1), dtype=np.int64)
    for (e, o), m in by_unit.items():
        found[e, o] += m
    kernels[key] = found
    return found


def _exact_product(first: np.ndarray, inner: np.ndarray) -> dict[tuple[int, ...], int]:
    """Σ_e first[e, o1] inner[e, o2, o3] as Python integers: ``inner`` split into 27-bit
    halves, so each int64 sum stays below 2**54."""
    high, low = np.divmod(inner, _HALF)
    sums = [np.einsum("ep,eqo->pqo", first, part) for part in (high, low)]
    found = {}
    for index in zip(*np.nonzero(sums[0] | sums[1]), strict=True):
        value = int(sums[0][index]) * _HALF + int(sums[1][index])
        if value:
            found[tuple(int(i) for i in index)] = value
    return found


__all__ = ("joint_key", "joint_unit", "seat_joint", "strategy_part")
