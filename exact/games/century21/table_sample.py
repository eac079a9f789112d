"""The Player/Dealer's best response to a full table where the exact game does not fit the
machine: from a seeded sample of hands, with a confidence per decision and an interval for its
value.

Layer: games, the top: the full table's estimates (its economics show them).

Where. The exact full-table game (:mod:`exact.games.century21.full_table`) stops at 3 seats
with third cards face down. Beyond (4 to 7 seats), and with third cards face up at 2 seats or
more (the Player/Dealer then sees every drawn card: its information sets multiply by 11 per
drawing seat), the Player/Dealer's best response is estimated here.

How. Hands are dealt from the shoe without replacement, seeded (numpy's PCG64), every seat
playing its fixed pure strategy. For each hand the Player/Dealer's three possible plays are
all settled on the same cards (common random numbers): ending at the check where it may,
standing, and drawing the next card. Per information set (its two cards and which seats drew,
and under face-up third cards the cards they drew) the mean gain of drawing over standing is
estimated from a *learning* sample; the best response takes the better action (House Way's
where the sample never met the set or the two are equal), and at the check it ends where
ending beats going on under that choice. Each decision's confidence is the z-score of its
estimated gain. The estimate leaves House Way only where the sample met the set at least
:data:`MIN_HANDS` times and favours the other action by more than 1.96 standard errors. (A
set met by a handful of hands that agree has a sample variance of 0 and an infinite
z-score: without the minimum, such sets made the estimate worse than House Way at 7 seats.
A family-wise threshold over thousands of sets, z about 4, kept House Way everywhere there
and half the gain at 3 seats; 1.96 per set keeps three quarters of the exact gain at 3
seats.) Its value is then measured on an independent *evaluation* sample (another
seed stream): the seats' mean pays with their standard errors. The true best response is
worth at least the chosen strategy's true value, and the learning sample's in-sample value
of the best action per set (an optimistic estimate: the maximum of noisy means is biased
upwards) bounds it from above in expectation; both ends are reported.

Everything is integers until the means: pays are scaled to integers (the rules' pay
denominators), and each mean is a fraction of the sample (exactly the sample's mean, not the
game's value).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm, sqrt

import numpy as np

from exact.core.cards import Shoe
from exact.errors import EconomicsError, StrategyError
from exact.games.century21.game import (
    CLASSES,
    CONTINUE,
    DRAW,
    END,
    STAND,
    CheckSet,
    Mode,
    Strategy,
    class_counts,
    dealer_stops,
    declarations,
    hand_actions,
    settle_declared,
    two_card_state,
)
from exact.games.century21.rules import Rules

LEARN_HANDS = 200_000
"""Hands of the learning sample (the decisions) and, again, of the evaluation sample."""
_CHUNK = 20_000  # hands dealt at once: bounds the arrays' memory (a few MB per chunk)
Z = 1.96  # two-sided 95%
MIN_HANDS = 30
"""A decision met fewer times keeps House Way's action: a handful of hands may agree by chance
(a sample variance of 0 makes any z-score infinite)."""



class SeenTableSet(tuple):
    """A Player/Dealer's information set at a table with third cards face up: its two cards,
    which seats drew, and the card each drawing seat drew (None for a seat that stood)."""

    __slots__ = ()

    def __new__(cls, up: int, down: int, seen: tuple[int | None, ...]) -> SeenTableSet:
        return tuple.__new__(cls, ("table-dealer-seen", up, down, seen))

    @property
    def up(self) -> int:
        return int(self[1])

    @property
    def down(self) -> int:
        return int(self[2])

    @property
    def seen(self) -> tuple[int | None, ...]:
        return tuple(self[3])

    @property
    def drew(self) -> tuple[bool, ...]:
        return tuple(card is not None for card in self.seen)


@dataclass(frozen=True)
class SampledBest:
    """The Player/Dealer's best response to a table estimated from a seeded sample."""

    seats: int
    face_up: bool
    learn_hands: int
    evaluate_hands: int
    seed: int
    choices: dict[tuple[int, int, int], str]
    """(up, down, information code) -> draw or stand, for every set the sample met."""
    ends: dict[tuple[int, int], bool]
    """(up, down) -> whether it ends at the check, for the hands that may end there."""
    confidence: dict[tuple[int, int, int], float]
    """Per decision, the z-score of its estimated gain of drawing over standing."""
    decisions: int
    """Decisions the learning sample met (information sets with a choice)."""
    unsure: int
    """Of those, the ones whose estimated gain is within ``threshold`` standard errors of 0:
    they keep House Way's action."""
    threshold: float
    """The z-score a decision must pass to leave House Way."""
    unsure_mass: float
    """The share of the learning hands that reached an unsure decision."""
    seat_values: tuple[Fraction, ...]
    """Each seat's mean pay per unit under the estimated best response (evaluation sample)."""
    seat_errors: tuple[float, ...]
    """Their standard errors."""
    dealer_value: Fraction
    """The Player/Dealer's mean gain (minus the weighted seats' pays), evaluation sample."""
    dealer_error: float
    optimistic: Fraction
    """The learning sample's value of the best action per set: an upper estimate."""
    optimistic_error: float

    @property
    def interval(self) -> tuple[float, float]:
        """Where the true best response's value lies (about 95%): from the estimated
        strategy's value, less its error, to the optimistic value, plus its error."""
        return (float(self.dealer_value) - Z * self.dealer_error,
                float(self.optimistic) + Z * self.optimistic_error)

    def strategy(self, house_dealer: Strategy) -> Strategy:
        """The estimate as a table strategy (face down: keyed by
        :class:`~exact.games.century21.full_table.TableSet`), House Way's at unmet sets."""
        from exact.games.century21.full_table import TableSet, lift_dealer
        if self.face_up:
            raise StrategyError("a face-up table strategy has no TableSet form")
        found = lift_dealer(house_dealer, self.seats)
        for (up, down, code), choice in self.choices.items():
            infoset = TableSet("table-dealer", up, down,
                               tuple(bool(code >> i & 1) for i in range(self.seats)))
            found[infoset] = {a: Fraction(a == choice) for a in (DRAW, STAND)}
        for (up, down), ends in self.ends.items():
            found[CheckSet("check", up, down)] = {END: Fraction(ends),
                                                 CONTINUE: Fraction(not ends)}
        return found

    def method(self) -> str:
        low, high = self.interval
        return (f"estimated from a seeded sample (seed {self.seed}): decisions from "
                f"{self.learn_hands:,} hands, value from {self.evaluate_hands:,} others; "
                f"House Way left only where a decision met {MIN_HANDS} times or more gains "
                f"beyond z = {self.threshold:.2f}; {self.unsure} of {self.decisions} decisions "
                f"do not (reached in {self.unsure_mass:.2%} of hands); the best response's "
                "value "
                f"per hand lies in [{low:+.5f}, {high:+.5f}] (about 95%)")


@dataclass
class _Sample:
    """Per hand: the information code, (up, down), and each seat's scaled pay if the
    Player/Dealer ends at the check, stands or draws."""

    up: np.ndarray
    down: np.ndarray
    code: np.ndarray
    end: np.ndarray
    stand: np.ndarray
    draw: np.ndarray


class _Table:
    """The fixed parts of a sampled table: seats' draws, pays by declared hands."""

    def __init__(self, rules: Rules, shoe: Shoe, seats: Sequence[Strategy], mode: Mode,
                 face_up: bool) -> None:
        self.rules, self.counts, self.seats = rules, class_counts(shoe), len(seats)
        self.face_up = face_up
        if shoe.size < 3 * self.seats + 3:
            raise EconomicsError(f"a shoe of {shoe.size} cards cannot deal {self.seats} "
                                 "seats and the Player/Dealer with third cards")
        from exact.games.century21.full_table import TableGame
        one = TableGame(rules, shoe, 1, mode)  # its per-hand choice functions
        self.draws = np.zeros((self.seats, 11, 11, 11), dtype=bool)  # seat, up, a, b
        for i, strategy in enumerate(seats):
            for up in CLASSES:
                for a in CLASSES:
                    for b in CLASSES:
                        p = one.seat_draws(strategy, a, b, up)
                        if p not in (0, 1):
                            raise StrategyError("the seats must play pure strategies for the "
                                                "sampled best response of the Player/Dealer")
                        self.draws[i, up, a, b] = bool(p)
        # every hand (a, b, third or none) by what it may declare; pays by declared ids
        declared: dict[tuple, int] = {}
        self.hand_id = np.zeros((11, 11, 12), dtype=np.int64)
        for a in CLASSES:
            for b in CLASSES:
                base, jokers, _ = two_card_state(a, b)
                for third in (None, *CLASSES):
                    found = declarations(rules, (base, jokers, third))
                    self.hand_id[a, b, 0 if third is None else third + 1] = \
                        declared.setdefault(found, len(declared))
        every = list(declared)
        pays = [[[settle_declared(rules, p, d, stopped)[0] for stopped in (False, True)]
                 for d in every] for p in every]
        self.scale = lcm(*(pay.denominator for row in pays for cell in row for pay in cell))
        self.pay = np.array([[[int(pay * self.scale) for pay in cell] for cell in row]
                             for row in pays], dtype=np.int64)
        stops = [[dealer_stops(rules, up, down) for down in CLASSES] for up in CLASSES]
        self.forced_end = np.array([[s == (END,) for s in row] for row in stops])
        self.may_end = np.array([[len(s) == 2 for s in row] for row in stops])
        actions = [[hand_actions(rules, two_card_state(up, down)) for down in CLASSES]
                   for up in CLASSES]
        self.option = np.array([[len(a) == 2 for a in row] for row in actions])
        self.must_draw = np.array([[a == (DRAW,) for a in row] for row in actions])

    def deal(self, rng: np.random.Generator, hands: int) -> _Sample:
        """``hands`` hands, each dealt card by card from the full shoe without replacement:
        the seats' two cards, the up and down cards, the seats' third cards in seat order
        (a standing seat's card is never seen: dealing it changes no probability), then the
        Player/Dealer's third card."""
        n = self.seats
        cards = 3 * n + 3
        left = np.tile(np.array(self.counts, dtype=np.int64), (hands, 1))
        total = sum(self.counts)
        dealt = np.zeros((hands, cards), dtype=np.int64)
        for k in range(cards):
            running = np.cumsum(left, axis=1)
            target = rng.integers(0, total - k, size=hands)
            pick = (running <= target[:, None]).sum(axis=1)
            dealt[:, k] = pick
            left[np.arange(hands), pick] -= 1
        a, b = dealt[:, 0:2 * n:2], dealt[:, 1:2 * n:2]
        up, down = dealt[:, 2 * n], dealt[:, 2 * n + 1]
        thirds, x = dealt[:, 2 * n + 2:3 * n + 2], dealt[:, 3 * n + 2]
        seat_index = np.arange(n)[None, :]
        drew = self.draws[seat_index, up[:, None], a, b]
        seat_two = self.hand_id[a, b, 0]
        seat_final = np.where(drew, self.hand_id[a, b, thirds + 1], seat_two)
        dealer_two = self.hand_id[up, down, 0]
        dealer_three = self.hand_id[up, down, x + 1]
        end = self.pay[seat_two, dealer_two[:, None], 1]
        stand = self.pay[seat_final, dealer_two[:, None], 0]
        draw = self.pay[seat_final, dealer_three[:, None], 0]
        if self.face_up:
            code = np.zeros(hands, dtype=np.int64)
            for i in range(n):  # each seat's card, 0 for a seat that stood
                code = code * 12 + np.where(drew[:, i], thirds[:, i] + 1, 0)
        else:
            code = (drew * (1 << np.arange(n))[None, :]).sum(axis=1)
        return _Sample(up, down, code, end, stand, draw)

    def information(self, up: int, down: int, code: int) -> tuple:
        """The information set of a code (:class:`TableSet` or :class:`SeenTableSet`)."""
        from exact.games.century21.full_table import TableSet
        if not self.face_up:
            return TableSet("table-dealer", up, down,
                            tuple(bool(code >> i & 1) for i in range(self.seats)))
        seen: list[int | None] = []
        for _ in range(self.seats):
            code, card = divmod(code, 12)
            seen.append(None if card == 0 else card - 1)
        return SeenTableSet(up, down, tuple(reversed(seen)))


def sampled_dealer_best(rules: Rules, shoe: Shoe, seats: Sequence[Strategy],
                        house_dealer: Strategy, house_values: Sequence[Fraction],
                        weights: Sequence[Fraction] | None = None,
                        mode: Mode = "total", hands: int = LEARN_HANDS, seed: int = 1,
                        face_up: bool | None = None) -> SampledBest:
    """The Player/Dealer's best response to seats playing ``seats`` (pure), each seat's pay
    weighed by ``weights`` (its wager in action; default 1 each), estimated from ``hands``
    learning hands and ``hands`` evaluation hands of seed ``seed`` (module docstring).
    ``house_dealer`` (the heads-up House Way) decides the sets the sample never meets;
    ``house_values`` are each seat's exact value against it (its heads-up value, whatever the
    other seats: cards are exchangeable), to which the sampled change is added."""
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 2:
        raise EconomicsError(f"a sampled best response needs at least 2 hands, got {hands!r}")
    up_face = rules.third_cards_face_up if face_up is None else face_up
    table = _Table(rules, shoe, seats, mode, up_face)
    w = np.array([1] * table.seats if weights is None else
                 [Fraction(v) for v in weights], dtype=object)
    if len(w) != table.seats or len(house_values) != table.seats:
        raise EconomicsError(f"{len(w)} weights and {len(house_values)} House Way values "
                             f"for {table.seats} seats")
    scale = lcm(*(Fraction(v).denominator for v in w))
    integer_w = [int(Fraction(v) * scale) for v in w]
    common = gcd(*integer_w) or 1
    integer = np.array([v // common for v in integer_w], dtype=np.int64)
    # a gain in money is the integer gain times unit
    unit = Fraction(common, scale * table.scale)
    if int(np.abs(integer).sum()) * int(np.abs(table.pay).max() or 1) >= 2**20:
        # (squares of gains then stay below 2**40, their sums over hands below 2**63)
        raise EconomicsError("the wagers are too unequal for the sampled best response "
                             "(their ratios need more than 20 bits)")
    learning = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 0])))
    evaluating = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 1])))
    house = _house_actions(rules, house_dealer)
    house_draws = np.array([[house.get((up, down), STAND) == DRAW for down in CLASSES]
                            for up in CLASSES])
    house_ends = np.array([[house.get((up, down, END), True) for down in CLASSES]
                           for up in CLASSES])

    def gains(sample: _Sample) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (-(sample.end @ integer), -(sample.stand @ integer), -(sample.draw @ integer))

    # learning: per (up, down, code) the count, sum and sum of squares of draw less stand
    stored: list[tuple[_Sample, np.ndarray, np.ndarray, np.ndarray]] = []
    key_parts, diff_parts = [], []
    for start in range(0, hands, _CHUNK):
        sample = table.deal(learning, min(_CHUNK, hands - start))
        end, stand, draw = gains(sample)
        stored.append((sample, end, stand, draw))
        decide = table.option[sample.up, sample.down] & \
            ~table.forced_end[sample.up, sample.down]
        key_parts.append(_key(sample)[decide])
        diff_parts.append((draw - stand)[decide])
    every_key, every_diff = np.concatenate(key_parts), np.concatenate(diff_parts)
    keys, inverse, counts = np.unique(every_key, return_inverse=True, return_counts=True)
    totals = np.zeros(len(keys), dtype=np.int64)
    squares = np.zeros(len(keys), dtype=np.int64)
    np.add.at(totals, inverse, every_diff)
    np.add.at(squares, inverse, every_diff * every_diff)
    choices: dict[tuple[int, int, int], str] = {}
    confidence: dict[tuple[int, int, int], float] = {}
    draws_at = np.zeros(len(keys), dtype=bool)
    unsure, unsure_hands = 0, 0
    threshold = Z
    for index, (k, count, total, square) in enumerate(zip(
            keys.tolist(), counts.tolist(), totals.tolist(), squares.tolist(), strict=True)):
        up, down, code = _split(k)
        # House Way's action unless the sample favours the other with confidence: a set met
        # a few times would otherwise be decided by noise (most are, at 7 seats face up)
        choice = house.get((up, down), STAND)
        error = _error(total, square, count)
        confidence[up, down, code] = total / count / error if error else (
            0.0 if not total else float("inf") if total > 0 else float("-inf"))
        if count < MIN_HANDS or abs(total / count) <= threshold * error:
            unsure += 1
            unsure_hands += count
        else:
            choice = DRAW if total > 0 else STAND
        choices[up, down, code] = choice
        draws_at[index] = choice == DRAW

    best_at = totals > 0  # the learning sample's better action per set, sure or not

    def drawing(sample: _Sample, at_sets: np.ndarray) -> np.ndarray:
        """Whether the Player/Dealer draws in each hand when it goes on (``at_sets`` at the
        sets the learning sample met, House Way's at the others, forced hands as forced)."""
        key = _key(sample)
        at = np.minimum(np.searchsorted(keys, key), max(len(keys) - 1, 0))
        met = keys[at] == key if len(keys) else np.zeros(len(key), dtype=bool)
        option = table.option[sample.up, sample.down]
        free = np.where(met, at_sets[at] if len(keys) else False,
                        house_draws[sample.up, sample.down])
        return np.where(option, free, table.must_draw[sample.up, sample.down])

    def check(at_sets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where the Player/Dealer ends at the check: where ending beats going on under
        ``at_sets``, summed over the learning hands (House Way's where none met it)."""
        check_end = np.zeros((11, 11), dtype=np.int64)
        check_on = np.zeros((11, 11), dtype=np.int64)
        check_met = np.zeros((11, 11), dtype=bool)
        for sample, end, stand, draw in stored:
            on = np.where(drawing(sample, at_sets), draw, stand)
            may = table.may_end[sample.up, sample.down]
            np.add.at(check_end, (sample.up[may], sample.down[may]), end[may])
            np.add.at(check_on, (sample.up[may], sample.down[may]), on[may])
            check_met[sample.up[may], sample.down[may]] = True
        return np.where(check_met, check_end >= check_on, house_ends), check_met

    ending, check_met = check(draws_at)
    best_ending, _ = check(best_at)
    ends = {(up, down): bool(ending[up, down]) for up in CLASSES for down in CLASSES
            if check_met[up, down]}

    def played(sample: _Sample, end: np.ndarray, stand: np.ndarray, draw: np.ndarray,
               play: str = "best") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each hand's gain, whether it ended at the check, whether it drew: under the
        estimated best response (``best``), the learning sample's better action everywhere
        (``optimistic``) or House Way's Player/Dealer (``house``)."""
        up, down = sample.up, sample.down
        ends_at = {"best": ending, "optimistic": best_ending, "house": house_ends}[play]
        stops = table.forced_end[up, down] | (table.may_end[up, down] & ends_at[up, down])
        draws = np.where(table.option[up, down], house_draws[up, down],
                         table.must_draw[up, down]) if play == "house" else \
            drawing(sample, draws_at if play == "best" else best_at)
        return np.where(stops, end, np.where(draws, draw, stand)), stops, draws

    Item = tuple[_Sample, np.ndarray, np.ndarray, np.ndarray]

    def against_house(item: Item, play: str = "best") -> np.ndarray:
        """The gain over House Way's Player/Dealer, hand by hand (the same cards)."""
        sample, end, stand, draw = item
        return played(sample, end, stand, draw, play)[0] - \
            played(sample, end, stand, draw, "house")[0]

    # the learning sample's own value of its better action everywhere: optimistic
    optimistic = [against_house(item, "optimistic") for item in stored]
    stored.clear()
    seat_sums = [0] * table.seats
    seat_squares = [0] * table.seats
    values: list[np.ndarray] = []
    for start in range(0, hands, _CHUNK):
        sample = table.deal(evaluating, min(_CHUNK, hands - start))
        end, stand, draw = gains(sample)
        values.append(against_house((sample, end, stand, draw)))
        pays = []
        for play in ("best", "house"):
            _gain, stops, draws = played(sample, end, stand, draw, play)
            pays.append(np.where(stops[:, None], sample.end,
                                 np.where(draws[:, None], sample.draw, sample.stand)))
        change = pays[0] - pays[1]
        for i in range(table.seats):  # scaled pays are small: int64 sums are exact
            seat_sums[i] += int(change[:, i].sum())
            seat_squares[i] += int((change[:, i] * change[:, i]).sum())
    # House Way's exact values plus the sampled change: the change is zero wherever the two
    # Player/Dealers play alike, so its error is far below that of the plain mean
    seat_values = tuple(Fraction(v) + Fraction(s, hands * table.scale)
                        for v, s in zip(house_values, seat_sums, strict=True))
    seat_errors = tuple(_error(s, q, hands) / table.scale
                        for s, q in zip(seat_sums, seat_squares, strict=True))
    house_value = -sum((Fraction(v) * Fraction(x) for v, x in zip(house_values, w,
                                                                   strict=True)), Fraction(0))
    value, value_error = _mean(values, hands, unit)
    best, best_error = _mean(optimistic, hands, unit)
    return SampledBest(table.seats, up_face, hands, hands, seed, choices, ends, confidence,
                       len(keys), unsure, threshold, unsure_hands / hands, seat_values, seat_errors,
                       house_value + value, value_error, house_value + best, best_error)


def _key(sample: _Sample) -> np.ndarray:
    return (sample.up * 11 + sample.down) * (1 << 40) + sample.code


def _split(key: int) -> tuple[int, int, int]:
    pair, code = divmod(key, 1 << 40)
    return pair // 11, pair % 11, code


def _house_actions(rules: Rules, dealer: Strategy) -> dict:
    """House Way's Player/Dealer by (up, down) (its own cards only), and at the check by
    (up, down, "end")."""
    found: dict = {}
    for infoset, probabilities in dealer.items():
        if isinstance(infoset, CheckSet):
            found[infoset.up, infoset.down, END] = bool(probabilities.get(END, 0))
        elif hasattr(infoset, "up") and hasattr(infoset, "down"):
            pure = max(probabilities.items(), key=lambda kv: kv[1])[0]
            found.setdefault((infoset.up, infoset.down), pure)
    return found


def _error(total: int, square: int, n: int) -> float:
    mean = Fraction(total, n)
    variance = (Fraction(square, n) - mean * mean) * n / max(n - 1, 1)
    return sqrt(float(variance) / n)


def _mean(chunks: list[np.ndarray], n: int, unit: Fraction) -> tuple[Fraction, float]:
    """The mean of integer gains times ``unit``, and its standard error."""
    total = sum(int(c.sum()) for c in chunks)
    square = sum(int((c * c).sum()) for c in chunks)
    return Fraction(total, n) * unit, _error(total, square, n) * float(unit)


__all__ = ("LEARN_HANDS", "SampledBest", "SeenTableSet", "sampled_dealer_best")
