"""Shoe simulation with the exact edge of every tracked bet at every round.

Real shoes are shuffled (seeded), burned and dealt round by round to the cut card. Before each
round the composition of the cards not yet seen is evaluated exactly (in batches, see
:mod:`exact.batch`); the round is then dealt from the physical cards and every bet settled by
its definition. Two players are followed per bet:

* computer-perfect play: bet one unit whenever the exact edge is positive;
* a count system: bet one unit whenever the true count (running count of the tags of the cards
  seen, per deck unseen) reaches the trigger.

Reproducible and independent of the scale-out: shoe ``i`` is shuffled by a generator seeded
with the ``i``-th child of ``numpy.random.SeedSequence(seed)``, never from a worker's identity;
results are kept per shoe and summed in shoe order (wins are exact fractions, float sums use
:func:`math.fsum`, which does not depend on order). Shoes run inline, on local processes
(``workers``) or on a Dask cluster (``scheduler``), with identical results.

Shoe rules: ``decks``; ``cut_cards`` cards left behind the cut card (no round starts with that
few cards or fewer in the shoe); burn: ``"first-card"`` (the first card is shown, then as many
cards burned face down as its value, ten for T/J/Q/K: baccarat's custom), ``"none"``, or a
number of cards burned face down. Seen cards are those of the rounds and the shown card; the
edge is computed for the cards not seen (burned cards stay unknown).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from exact.analysis import game_bets, settle_records
from exact.batch import BetEvaluator, supported_bets
from exact.bets import Bet, load_bets
from exact.cards import CARDS, JOKER, RANKS, View
from exact.errors import ExactError, ShoeError
from exact.games import get_game
from exact.games.base import Game


class SimulationError(ExactError, ValueError):
    """Bad simulation settings."""


@dataclass(frozen=True)
class ShoeRules:
    """How shoes are built, burned and cut (see module docstring)."""

    decks: int = 8
    cut_cards: int = 14
    burn: str = "first-card"

    def __post_init__(self) -> None:
        if not isinstance(self.decks, int) or self.decks < 1:
            raise SimulationError(f"decks must be a positive integer, got {self.decks!r}")
        if not isinstance(self.cut_cards, int) or not 0 <= self.cut_cards < 52 * self.decks:
            raise SimulationError(f"cut_cards must be 0..{52 * self.decks - 1}, "
                                  f"got {self.cut_cards!r}")
        if self.burn not in ("first-card", "none") and not str(self.burn).isdigit():
            raise SimulationError(f"burn must be 'first-card', 'none' or a number of cards, "
                                  f"got {self.burn!r}")


@dataclass(frozen=True)
class SimulationConfig:
    """Everything a worker needs to play shoes: picklable, rebuilt into bets in the worker."""

    game: str = "punto-banco"
    bet_texts: tuple[tuple[str, str], ...] = ()  # (label, TOML text) of extra bet files
    bet_ids: tuple[str, ...] = ()  # tracked bets (default: every bet)
    tags: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # bet id -> (rank, tag)s
    triggers: tuple[tuple[str, float], ...] = ()  # bet id -> true count at which to bet
    shoe: ShoeRules = field(default_factory=ShoeRules)

    def bets(self, game: Game) -> list[Bet]:
        bets = game_bets(game)
        for label, text in self.bet_texts:
            bets += load_bets(label, game.features, text=text)
        if not self.bet_ids:
            return supported_bets(game, bets)[0]
        known = {bet.id: bet for bet in bets}
        missing = [b for b in self.bet_ids if b not in known]
        if missing:
            raise SimulationError(f"unknown bet(s) {', '.join(missing)}")
        return [known[b] for b in self.bet_ids]


@dataclass
class BetTally:
    """One bet's results over some shoes (summable)."""

    rounds: int = 0
    positive: int = 0
    edge_sum_positive: list[float] = field(default_factory=list)  # fsum'd at the end
    perfect_win: Fraction = Fraction(0)
    count_bets: int = 0
    count_win: Fraction = Fraction(0)
    count_edge: list[float] = field(default_factory=list)

    def merge(self, other: BetTally) -> None:
        self.rounds += other.rounds
        self.positive += other.positive
        self.edge_sum_positive.append(math.fsum(other.edge_sum_positive))
        self.perfect_win += other.perfect_win
        self.count_bets += other.count_bets
        self.count_win += other.count_win
        self.count_edge.append(math.fsum(other.count_edge))


@dataclass
class SimulationResult:
    shoes: int
    rounds: int
    tallies: dict[str, BetTally]
    names: dict[str, str]
    triggers: dict[str, float]

    def summary(self) -> dict[str, dict[str, object]]:
        """Per bet: frequency of positive-edge rounds, average edge when betting, win per shoe
        and per 100 hands dealt, for perfect play and for the count."""
        out = {}
        for bet_id, tally in self.tallies.items():
            edge_sum = math.fsum(tally.edge_sum_positive)
            count_edge = math.fsum(tally.count_edge)
            out[bet_id] = {
                "name": self.names[bet_id],
                "rounds": tally.rounds,
                "positive_rounds": tally.positive,
                "positive_frequency": tally.positive / tally.rounds if tally.rounds else 0.0,
                "perfect_average_edge": edge_sum / tally.positive if tally.positive else None,
                "perfect_win": str(tally.perfect_win),
                "perfect_win_per_shoe": float(tally.perfect_win) / self.shoes,
                "perfect_win_per_100_hands": 100 * float(tally.perfect_win) / self.rounds,
                "perfect_expected_win_per_shoe": edge_sum / self.shoes,
                "count_trigger": self.triggers.get(bet_id),
                "count_bets": tally.count_bets,
                "count_average_edge": count_edge / tally.count_bets if tally.count_bets
                else None,
                "count_win": str(tally.count_win),
                "count_win_per_shoe": float(tally.count_win) / self.shoes,
                "count_win_per_100_hands": 100 * float(tally.count_win) / self.rounds,
                "count_expected_win_per_shoe": count_edge / self.shoes,
            }
        return out


# --- one worker's job --------------------------------------------------------------------------
_WORKERS: dict[SimulationConfig, tuple[Game, list[Bet], BetEvaluator]] = {}


def _setup(config: SimulationConfig) -> tuple[Game, list[Bet], BetEvaluator]:
    if config not in _WORKERS:
        game = get_game(config.game)
        bets = config.bets(game)
        _WORKERS[config] = (game, bets, BetEvaluator(game, bets))
    return _WORKERS[config]


def _burn(rules: ShoeRules, order: np.ndarray) -> tuple[int, list[int]]:
    """Position of the first card dealt and the cards shown while burning."""
    if rules.burn == "none":
        return 0, []
    if rules.burn == "first-card":
        first = int(order[0])
        value = CARDS[first].value or 10
        return 1 + value, [first]
    return int(rules.burn), []


_LABELS_COUNT_CARDS: dict[str, bool | int] = {}  # game id -> its records show every card dealt
_CHECKED_ROUNDS = 50


def _cards_used(game: Game, cards: Sequence) -> tuple[object, int]:
    """The record of the round dealt from the top of ``cards`` and how many cards it used.

    A record normally holds the labels of the cards dealt (:data:`exact.cards.Label`), so they
    are counted; this is checked against the shortest dealable prefix on a game's first rounds
    in each process, and a game whose records fail the check is always searched instead (the
    shortest prefix the game can deal a round from: a longer one gives the same round)."""
    record = game.record_from_cards(cards)
    trusted = _LABELS_COUNT_CARDS.get(game.id)
    if trusted is not False:
        used = _labels_in(record)
        if trusted:
            return record, used
    for shortest in range(1, len(cards) + 1):
        try:
            shorter = game.record_from_cards(cards[:shortest])
        except ShoeError:
            continue
        if trusted is None:
            checks = _LABELS_COUNT_CARDS.get(game.id + "#checks", 0) + 1
            _LABELS_COUNT_CARDS[game.id + "#checks"] = checks
            if used != shortest or shorter != record:
                _LABELS_COUNT_CARDS[game.id] = False
            elif checks >= _CHECKED_ROUNDS:
                _LABELS_COUNT_CARDS[game.id] = True
        return shorter, shortest
    raise ShoeError("the shoe ran out of cards in the middle of a round")


def _labels_in(record: object) -> int:
    if isinstance(record, tuple) and len(record) == 4 and isinstance(record[1], str) \
            and record[1] in RANKS + JOKER:
        return 1
    if isinstance(record, tuple | list):
        return sum(_labels_in(item) for item in record)
    return 0


_ROUNDS: dict[tuple[Game, frozenset[tuple[str, str]]], dict] = {}


def _classes(game: Game, bets: Sequence[Bet]) -> tuple[np.ndarray, list, dict]:
    """Class of each card id, a representative card per class, and the rounds read so far,
    for the card attributes the bets need."""
    needs = game.needs(set().union(*(bet.features for bet in bets)))
    view = View(tuple({a for stage in needs.stages for a in needs.attributes(stage)}))
    representative: list = [None] * len(view.labels)
    for card_id, card in enumerate(CARDS):
        if representative[view.card_class[card_id]] is None:
            representative[view.card_class[card_id]] = card
    rounds_seen = _ROUNDS.setdefault((game, needs.pairs), {})
    return np.array(view.card_class, dtype=np.int64), representative, rounds_seen


def play_shoes(config: SimulationConfig, seeds: Sequence[np.random.SeedSequence]
               ) -> list[dict[str, BetTally]]:
    """Play one shoe per seed; per shoe, the tallies of every tracked bet."""
    game, bets, evaluator = _setup(config)
    rules = config.shoe
    triggers = dict(config.triggers)
    tag_ids = [bet.id for bet in bets]
    tags = {bet_id: dict(ranks) for bet_id, ranks in config.tags}
    tag_of_card = np.array([[tags.get(bet_id, {}).get(card.rank, 0) for bet_id in tag_ids]
                            for card in CARDS], dtype=np.int64)  # cards x bets
    full = np.array([rules.decks] * 52 + [0], dtype=np.int64)
    # The tracked bets see cards only through the attributes their needs name, and the deal
    # decides what to draw from what it sees: a round dealt from one representative card per
    # class settles every tracked bet and uses as many cards as the real one. So a round is
    # read once per sequence of classes of the cards it used.
    class_of_card, representative, rounds_seen = _classes(game, bets)
    deck = np.repeat(np.arange(52), rules.decks)
    shoes = []
    for seed in seeds:
        order = np.random.default_rng(seed).permutation(deck)
        position, shown = _burn(rules, order)
        seen = np.zeros(53, dtype=np.int64)
        for card in shown:
            seen[card] += 1
        compositions, records, true_counts = [], [], []
        while len(order) - position > max(rules.cut_cards, evaluator.round_cards - 1):
            compositions.append(full - seen)
            unseen_decks = (full.sum() - seen.sum()) / 52
            true_counts.append((seen @ tag_of_card) / unseen_decks)
            window = order[position:position + evaluator.round_cards]
            key = tuple(class_of_card[window].tolist())
            # a round depends on its first `used` cards only: it is kept under that prefix
            for length in range(1, len(key) + 1):
                if key[:length] in rounds_seen:
                    record, used = rounds_seen[key[:length]]
                    break
            else:
                record, used = _cards_used(game, [representative[c] for c in key])
                rounds_seen[key[:used]] = (record, used)
            records.append(record)
            for card in order[position:position + used]:
                seen[card] += 1
            position += used
        shoes.append((compositions, records, true_counts))
    # one batch for every round of every shoe of this job
    all_compositions = np.array([c for s in shoes for c in s[0]], dtype=np.int64)
    numerators, denominators = evaluator.numerators(all_compositions.reshape(-1, 53))
    events = settle_records(game, bets, [r for s in shoes for r in s[1]])
    results, offset = [], 0
    for compositions, _, true_counts in shoes:
        rounds = len(compositions)
        tallies = {}
        for index, bet in enumerate(bets):
            tally = BetTally(rounds=rounds)
            pays = [event.pays for event in bet.events]
            trigger = triggers.get(bet.id)
            for k in range(offset, offset + rounds):
                numerator = int(numerators[bet.id][k])
                outcome = pays[int(events[index][k])]
                edge = numerator / int(denominators[bet.id][k])
                if numerator > 0:
                    tally.positive += 1
                    tally.edge_sum_positive.append(edge)
                    tally.perfect_win += outcome
                if trigger is not None and true_counts[k - offset][index] >= trigger:
                    tally.count_bets += 1
                    tally.count_win += outcome
                    tally.count_edge.append(edge)
            tallies[bet.id] = tally
        results.append(tallies)
        offset += rounds
    return results


# --- scale-out ---------------------------------------------------------------------------------
def simulate(config: SimulationConfig, shoes: int, seed: int, workers: int = 1,
             scheduler: str | None = None, chunk: int = 20,
             progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Play ``shoes`` shoes from the master ``seed``: inline (``workers=1``), on ``workers``
    local processes, or on the Dask cluster at ``scheduler``. Same seed, same result."""
    if shoes < 1:
        raise SimulationError(f"shoes must be at least 1, got {shoes}")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, got {workers}")
    _, bets, _ = _setup(config)  # validates the config and warms the disk cache
    children = np.random.SeedSequence(seed).spawn(shoes)
    jobs = [children[i:i + chunk] for i in range(0, shoes, chunk)]
    per_shoe: list[dict[str, BetTally]] = []
    report = progress or (lambda done, total: None)
    if scheduler:
        per_shoe = _on_dask(config, jobs, scheduler, report, shoes)
    elif workers == 1:
        for job in jobs:
            per_shoe += play_shoes(config, job)
            report(len(per_shoe), shoes)
    else:
        with _worker_pool(workers) as pool:
            for result in pool.map(play_shoes, [config] * len(jobs), jobs):
                per_shoe += result
                report(len(per_shoe), shoes)
    tallies = {bet.id: BetTally() for bet in bets}
    for shoe in per_shoe:
        for bet_id, tally in shoe.items():
            tallies[bet_id].merge(tally)
    rounds = sum(next(iter(shoe.values())).rounds for shoe in per_shoe) if bets else 0
    return SimulationResult(shoes, rounds, tallies, {b.id: b.name for b in bets},
                            dict(config.triggers))


_ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                       "MKL_NUM_THREADS")}


@contextmanager
def _worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Fresh (spawned) worker processes whose BLAS runs on one thread: the processes are the
    parallelism, and BLAS threads spinning beside them cost up to 3x on a busy machine."""
    saved = {name: os.environ.get(name) for name in _ONE_THREAD}
    os.environ.update(_ONE_THREAD)  # read by numpy when a spawned worker imports it
    try:
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            yield pool
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _on_dask(config: SimulationConfig, jobs: list, scheduler: str,
             report: Callable[[int, int], None], shoes: int) -> list[dict[str, BetTally]]:
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs dask[distributed]: "
                              "pip install 'exact[scale]'") from None
    try:
        client = Client(scheduler, timeout=10)
    except OSError as error:
        raise SimulationError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    try:
        futures = client.map(play_shoes, [config] * len(jobs), jobs, pure=False)
        per_shoe: list[dict[str, BetTally]] = []
        for future in futures:  # in job order, whatever order they finish in
            per_shoe += future.result()
            report(len(per_shoe), shoes)
        return per_shoe
    finally:
        client.close()


def terminal_progress(done: int, total: int) -> None:
    """A progress bar on standard error, only when it is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 40
    filled = width * done // total
    sys.stderr.write(f"\rshoes {done:>{len(str(total))}}/{total} "
                     f"[{'#' * filled}{'.' * (width - filled)}] {100 * done // total:3d}%")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def tags_tuple(tags: dict[str, dict[str, int]]
               ) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """Per-bet tags in the hashable form :class:`SimulationConfig` keeps."""
    return tuple((bet_id, tuple((rank, ranks.get(rank, 0)) for rank in RANKS))
                 for bet_id, ranks in tags.items())
