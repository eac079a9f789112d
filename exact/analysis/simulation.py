"""Shoe simulation with the exact edge of every tracked wager at every round.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Real shoes are shuffled (seeded), burned and dealt round by round to the cut card. Before each
round the composition of the cards not yet seen is recorded; the round is then dealt from the
physical cards. Once a job's shoes are dealt, every recorded composition is evaluated exactly
in one batch and every round settled. What a game tracks, how it evaluates a composition and
how it deals and settles a round is its :class:`ShoePlay`: :class:`BetPlay` for the games
with a bet table (:mod:`exact.engines.batch`, bets settled by their definitions), or the one a
game declares as its ``shoe-play`` extension (:attr:`exact.model.game.Game.extensions`; 21st
Century Baccarat: the player's wager under a fixed strategy pair). Two players are followed
per wager:

* computer-perfect play: bet one unit whenever the exact edge is positive;
* a count system: bet one unit whenever the true count (running count of the tags of the cards
  seen, per deck unseen) reaches the trigger.

Reproducible and independent of the scale-out: shoe ``i`` is shuffled by a generator seeded
with the ``i``-th child of ``numpy.random.SeedSequence(seed)``, never from a worker's identity;
results are kept per shoe and summed in shoe order (wins are exact fractions, float sums use
:func:`math.fsum`, which does not depend on order). Shoes run inline, on local processes
(``workers``) or on a Dask cluster (``scheduler``), with identical results.

Shoe rules: ``decks`` (``None``: the game's default shoe); ``cut_cards`` cards left behind the
cut card (no round starts with that few cards or fewer in the shoe); burn: ``"first-card"`` (the
first card is shown, then as many cards burned face down as its value, ten for T/J/Q/K and a
joker: baccarat's custom), ``"none"``, or a number of cards burned face down. Seen cards are
those of the rounds and the shown card; the edge is computed for the cards not seen (burned
cards stay unknown).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from exact.analysis.removal import (
    RANK_WEIGHTS,
    CountError,
    RemovalTable,
    best_tags,
    betting_correlation,
    break_even_true_count,
    effects_of_removal,
)
from exact.analysis.shoe_play import MAX_DECKS as MAX_DECKS
from exact.analysis.shoe_play import Edges as Edges
from exact.analysis.shoe_play import Integers as Integers
from exact.analysis.shoe_play import ShoePlay as ShoePlay
from exact.analysis.shoe_play import ShoeRules as ShoeRules
from exact.analysis.shoe_play import SimulationConfig as SimulationConfig
from exact.analysis.shoe_play import representatives as representatives
from exact.core.cards import CARDS, JOKER, JOKER_ID, RANKS, Card, Shoe, View
from exact.core.enumerator import Record, RecordT
from exact.core.parsing import (
    MAX_SIMULATED_CARDS,
    MAX_SIMULATED_SHOES,
    expect,
    shown,
    shown_all,
)
from exact.engines.batch import BetEvaluator
from exact.errors import ShoeError
from exact.errors import SimulationError as SimulationError
from exact.model.game import Game
from exact.model.plugins import get_game, plugin
from exact.model.settling import settle_records

# The bounds are the parsing layer's (docs: Input limits), one number each. Memory does not
# grow with the number of shoes: seeds are made job by job, results summed as they come and
# the rounds read are kept only up to ROUNDS_KEPT per process.
MAX_SHOES = MAX_SIMULATED_SHOES
ROUNDS_KEPT = 200_000
MAX_CARDS = MAX_SIMULATED_CARDS
WORKERS_PER_CORE = 4
"""Local worker processes allowed per core (``--workers``); more only cost memory."""
SCHEDULER_SCHEMES = ("tcp", "tls")


class BetPlay:
    """The games with a bet table: the batch evaluator gives the edges, each round is read by
    the game's ``record_from_cards`` and every bet settled by its definition."""

    round_cards: int
    tag_keys = RANKS
    weights = RANK_WEIGHTS

    def __init__(self, game: Game, config: SimulationConfig) -> None:
        if config.options:
            raise SimulationError(f"--{config.options[0][0]} does not apply to {game.id}")
        self.game, self.bets = game, config.bets(game)
        self.evaluator = BetEvaluator(game, self.bets)
        self.round_cards = self.evaluator.round_cards
        self.decks = 8 if config.shoe.decks is None else config.shoe.decks
        self.full = np.array([self.decks] * JOKER_ID + [0], dtype=np.int64)
        self.names = {bet.id: bet.name for bet in self.bets}
        # The tracked bets see cards only through the attributes their needs name, and the
        # deal decides what to draw from what it sees: a round dealt from one representative
        # card per class settles every tracked bet and uses as many cards as the real one.
        needs = game.needs(set().union(*(bet.features for bet in self.bets)))
        view = View(tuple({a for stage in needs.stages for a in needs.attributes(stage)}))
        self.card_class = np.array(view.card_class, dtype=np.int64)
        self._cards = representatives(view.card_class)

    def tag_key(self, card: Card) -> str | None:
        return None if card.is_joker else card.rank

    def read_round(self, classes: tuple[int, ...]) -> tuple[Record, int]:
        return _cards_used(self.game, [self._cards[c] for c in classes])

    def edges(self, compositions: np.ndarray) -> Edges:
        numerators, denominators = self.evaluator.numerators(compositions)
        return {bet.id: (numerators[bet.id], denominators[bet.id]) for bet in self.bets}

    def pays(self, records: Sequence[Record]) -> dict[str, list[Fraction]]:
        events = settle_records(self.game, self.bets, list(records))
        return {bet.id: [bet.events[int(e)].pays for e in events[index]]
                for index, bet in enumerate(self.bets)}

    def removal(self) -> RemovalTable:
        return effects_of_removal(self.game, Shoe.standard(self.decks), self.bets,
                                  evaluator=self.evaluator)

    def describe(self) -> dict[str, object]:
        return {}


@dataclass
class BetTally:
    """One wager's results over some shoes (summable)."""

    rounds: int = 0
    positive: int = 0
    edge_sum_positive: list[float] = field(default_factory=list)  # fsum'd at the end
    perfect_win: Fraction = Fraction(0)
    count_bets: int = 0
    count_win: Fraction = Fraction(0)
    count_edge: list[float] = field(default_factory=list)
    # Merged shoes: the exact sum of each shoe's fsum'd edges. Its float is the correctly
    # rounded sum, as fsum of the per-shoe sums would be, without a list growing per shoe.
    edge_total: Fraction = Fraction(0)
    count_edge_total: Fraction = Fraction(0)
    # The spread between shoes (the shoe, not the round, is the independent unit: the rounds
    # of a shoe share its cards): the shoes, and the sums over them of the squared rounds and,
    # per figure of SPREAD_FIGURES, of the shoe's figure squared and times its rounds.
    shoes: int = 0
    rounds_square: int = 0
    moments: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)

    def close_shoe(self) -> None:
        """Make this one shoe's tally the spread's first shoe (after its rounds are tallied)."""
        self.shoes, self.rounds_square = 1, self.rounds ** 2
        figures = (self.perfect_win, self.count_win, Fraction(math.fsum(self.edge_sum_positive)),
                   Fraction(math.fsum(self.count_edge)))
        self.moments = {name: (value * value, value * self.rounds)
                        for name, value in zip(SPREAD_FIGURES, figures, strict=True)}

    def merge(self, other: BetTally) -> None:
        """Add one shoe's tally (or a merged one) to this one."""
        self.shoes += other.shoes
        self.rounds_square += other.rounds_square
        for name, (square, cross) in other.moments.items():
            mine = self.moments.get(name, (Fraction(0), Fraction(0)))
            self.moments[name] = (mine[0] + square, mine[1] + cross)
        self.rounds += other.rounds
        self.positive += other.positive
        self.edge_total += other.edge_total + Fraction(math.fsum(other.edge_sum_positive))
        self.perfect_win += other.perfect_win
        self.count_bets += other.count_bets
        self.count_win += other.count_win
        self.count_edge_total += other.count_edge_total + Fraction(math.fsum(other.count_edge))

    def edge_sum(self) -> float:
        """Sum of the edges of the positive rounds."""
        return float(self.edge_total + Fraction(math.fsum(self.edge_sum_positive)))

    def count_edge_sum(self) -> float:
        """Sum of the edges of the rounds the count bet."""
        return float(self.count_edge_total + Fraction(math.fsum(self.count_edge)))

    def per_100_rounds_error(self, figure: str, total: float) -> float | None:
        """Standard error of ``100 * total / rounds``, where ``total`` is the sum over the shoes
        of ``figure`` (one of :data:`SPREAD_FIGURES`): the ratio estimator's, from the spread
        between shoes (None below two shoes, or with no round)."""
        if self.shoes < 2 or not self.rounds or figure not in self.moments:
            return None
        square, cross = self.moments[figure]
        ratio = total / self.rounds
        residual = (float(square) - 2 * ratio * float(cross)
                    + ratio * ratio * self.rounds_square)
        variance = max(residual, 0.0) / (self.shoes - 1) / self.shoes
        return 100 * math.sqrt(variance) / (self.rounds / self.shoes)


SPREAD_FIGURES = ("perfect_win", "count_win", "perfect_expected_win", "count_expected_win")
"""The figures of a shoe whose spread between shoes gives the standard errors: the units
perfect play and the count won, and what each expected to win (the sum of the exact edges of
the rounds it bet)."""


@dataclass
class SimulationResult:
    shoes: int
    rounds: int
    tallies: dict[str, BetTally]
    names: dict[str, str]
    triggers: dict[str, float]

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per wager: frequency of the rounds where the player has the advantage (the exact
        house edge is negative), average house edge when betting, the player's win per shoe and
        per 100 hands dealt, for perfect play and for the count (None where nothing was dealt
        or bet). Signs as every output gives them: the house edge is positive for the house;
        a win is what the player won."""
        out = {}
        hands = self.rounds or None
        for bet_id, tally in self.tallies.items():
            edge_sum = tally.edge_sum()
            count_edge = tally.count_edge_sum()
            out[bet_id] = {
                "name": self.names[bet_id],
                "rounds": tally.rounds,
                "player_advantage_rounds": tally.positive,
                "player_advantage_frequency": tally.positive / tally.rounds if tally.rounds
                else 0.0,
                "perfect_average_house_edge": -edge_sum / tally.positive if tally.positive
                else None,
                "perfect_win": str(tally.perfect_win),
                "perfect_win_per_shoe": float(tally.perfect_win) / self.shoes,
                "perfect_win_per_100_hands": hands and 100 * float(tally.perfect_win) / hands,
                "perfect_expected_win_per_shoe": edge_sum / self.shoes,
                "count_trigger": self.triggers.get(bet_id),
                "count_bets": tally.count_bets,
                "count_average_house_edge": -count_edge / tally.count_bets if tally.count_bets
                else None,
                "count_win": str(tally.count_win),
                "count_win_per_shoe": float(tally.count_win) / self.shoes,
                "count_win_per_100_hands": hands and 100 * float(tally.count_win) / hands,
                "count_expected_win_per_shoe": count_edge / self.shoes,
                "count_bet_frequency": tally.count_bets / tally.rounds if tally.rounds
                else 0.0,
                **self._per_100_rounds(tally, edge_sum, count_edge),
            }
        return out

    def _per_100_rounds(self, tally: BetTally, edge_sum: float, count_edge: float
                        ) -> dict[str, float | None]:
        """Per 100 rounds dealt, with standard errors from the spread between shoes: the
        units won and the units expected (the exact edges of the rounds bet), for perfect play
        and for the count."""
        totals = {"perfect_win": float(tally.perfect_win), "count_win": float(tally.count_win),
                  "perfect_expected_win": edge_sum, "count_expected_win": count_edge}
        out: dict[str, float | None] = {}
        for figure, total in totals.items():
            if figure.endswith("expected_win"):
                out[f"{figure}_per_100_hands"] = (100 * total / tally.rounds if tally.rounds
                                                  else None)
            out[f"{figure}_per_100_hands_se"] = tally.per_100_rounds_error(figure, total)
        return out


# --- one worker's job --------------------------------------------------------------------------
# per process: the play of a configuration and the rounds it has read, keyed by class prefix
_WORKERS: dict[SimulationConfig, tuple[ShoePlay[Any], dict[tuple[int, ...], tuple]]] = {}


def shoe_play(config: SimulationConfig) -> ShoePlay[Any]:
    """The play of ``config``'s game (its own, or :class:`BetPlay`), built once
    per process; checks the settings."""
    return _setup(config)[0]


@dataclass(frozen=True)
class Count:
    """A wager's count: its tags (by the play's tag keys), their level (the largest tag's size;
    None for a user's tags), betting correlation with the effects of removal, and the true
    count at which it bets (None: never)."""

    tags: dict[str, int]
    level: int | None
    correlation: float
    trigger: float | None


def derived_counts(play: ShoePlay[Any], tags: Mapping[str, int] | None = None,
                   triggers: Mapping[str, float] | None = None) -> dict[str, Count]:
    """Per wager of ``play``: the count ``simulate`` plays. Its tags are ``tags`` for every
    wager, else the balanced ones derived from the wager's effects of removal on the full shoe
    (the level 1-3 of the best betting correlation); its trigger is ``triggers[wager]``, else
    TC*, the true count where the linear estimate of the house edge turns negative (None if it
    never does)."""
    triggers = dict(triggers or {})
    unknown = set(triggers) - set(play.names)
    if unknown:
        raise CountError(f"--trigger for unknown bet(s) {shown_all(sorted(unknown))}")
    table = play.removal()
    out = {}
    for wager in play.names:
        effects = dict(table.effects[wager])
        if tags is None:
            chosen, level, correlation = best_tags(effects, play.weights)
        else:
            chosen, level = dict(tags), None
            correlation = betting_correlation(chosen, effects, play.weights)
        trigger = triggers.get(wager)
        if wager not in triggers:
            found = break_even_true_count(table.base[wager], chosen, effects, play.decks,
                                          play.weights)
            trigger = found if math.isfinite(found) else None
        out[wager] = Count(chosen, level, correlation, trigger)
    return out


def counted(config: SimulationConfig, counts: Mapping[str, Count], keys: Sequence[str]
            ) -> SimulationConfig:
    """``config`` playing ``counts`` (tags by ``keys``, the play's tag keys)."""
    from dataclasses import replace

    return replace(config, tags=tags_tuple({w: c.tags for w, c in counts.items()}, keys),
                   triggers=tuple(sorted((w, c.trigger) for w, c in counts.items()
                                         if c.trigger is not None)))


def _setup(config: SimulationConfig) -> tuple[ShoePlay[Any], dict[tuple[int, ...], tuple]]:
    key = config.play_key
    if key not in _WORKERS:
        game = get_game(config.game)
        own = plugin(game).simulation
        play: ShoePlay[Any] = BetPlay(game, config) if own is None else own(game, config)
        cards = int(play.full.sum())
        if cards > MAX_CARDS:  # e.g. a rule file's shoe: every card is dealt physically
            raise SimulationError(f"a simulated shoe holds at most {MAX_CARDS:,} cards "
                                  f"({MAX_DECKS:,} decks with jokers); this one has {cards:,} "
                                  "(docs: Input limits)")
        if config.shoe.cut_cards >= cards:
            raise SimulationError(f"cut_cards must be below the shoe's {cards} cards, "
                                  f"got {config.shoe.cut_cards}")
        _check_a_round_is_dealt(config.shoe, cards, play.round_cards)
        _WORKERS[key] = (play, {})
    return _WORKERS[key]


def _check_a_round_is_dealt(rules: ShoeRules, cards: int, round_cards: int) -> None:
    """Refuse shoe rules under which no shoe can deal a round (the fewest cards burned)."""
    fewest_burned = {"none": 0, "first-card": 2}.get(rules.burn)
    burned = int(rules.burn) if fewest_burned is None else fewest_burned
    if cards - burned <= max(rules.cut_cards, round_cards - 1):
        raise SimulationError(
            f"no round can be dealt: {cards} cards, {burned} burned at least, a round needs "
            f"up to {round_cards} and the cut card leaves {rules.cut_cards}; lower --cut or "
            "--burn, or add decks")


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


def _cards_used(game: Game, cards: Sequence[Card]) -> tuple[Record, int]:
    """The record of the round dealt from the top of ``cards`` and how many cards it used.

    A record normally holds the labels of the cards dealt (:data:`exact.core.cards.Label`), so they
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


def _read(play: ShoePlay[RecordT], rounds_seen: dict[tuple[int, ...], tuple],
          key: tuple[int, ...]) -> tuple[RecordT, int]:
    """The round of a window of classes: a round depends on its first ``used`` cards only, so
    it is kept under that prefix and read once per process."""
    for length in range(1, len(key) + 1):
        found = rounds_seen.get(key[:length])
        if found is not None:
            return found
    record, used = play.read_round(key)
    if len(rounds_seen) >= ROUNDS_KEPT:  # bets on suits have billions of possible rounds
        rounds_seen.clear()
    rounds_seen[key[:used]] = (record, used)
    return record, used


@dataclass
class _Shoe:
    """One shoe dealt: the composition unseen, the round read and the true counts (one per
    wager) before each round."""

    compositions: list[np.ndarray] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    true_counts: list[np.ndarray] = field(default_factory=list)


def _deal_shoe(play: ShoePlay[Any], rounds_seen: dict, rules: ShoeRules,
               seed: np.random.SeedSequence, tag_of_card: np.ndarray) -> _Shoe:
    order = np.random.default_rng(seed).permutation(np.repeat(np.arange(len(CARDS)), play.full))
    position, shown = _burn(rules, order)
    seen = np.bincount(np.array(shown, dtype=np.int64), minlength=len(CARDS))
    deck_cards = play.full.sum() / play.decks
    shoe = _Shoe()
    while len(order) - position > max(rules.cut_cards, play.round_cards - 1):
        shoe.compositions.append(play.full - seen)
        shoe.true_counts.append((seen @ tag_of_card) / ((play.full.sum() - seen.sum())
                                                         / deck_cards))
        window = order[position:position + play.round_cards]
        record, used = _read(play, rounds_seen, tuple(play.card_class[window].tolist()))
        shoe.records.append(record)
        np.add.at(seen, order[position:position + used], 1)
        position += used
    return shoe


def _tally(rounds: range, edges: tuple[Integers, Integers], pays: Sequence[Fraction],
           true_counts: Sequence[float], trigger: float | None) -> BetTally:
    """One wager over one shoe's rounds (indices into the job's batch)."""
    numerators, denominators = edges
    tally = BetTally(rounds=len(rounds))
    for k, true_count in zip(rounds, true_counts, strict=True):
        numerator = int(numerators[k])
        edge = numerator / int(denominators[k])
        if numerator > 0:
            tally.positive += 1
            tally.edge_sum_positive.append(edge)
            tally.perfect_win += pays[k]
        if trigger is not None and true_count >= trigger:
            tally.count_bets += 1
            tally.count_win += pays[k]
            tally.count_edge.append(edge)
    tally.close_shoe()
    return tally


def play_shoes(config: SimulationConfig, seeds: Sequence[np.random.SeedSequence]
               ) -> list[dict[str, BetTally]]:
    """Play one shoe per seed; per shoe, the tallies of every tracked wager."""
    play, rounds_seen = _setup(config)
    triggers = dict(config.triggers)
    wagers = list(play.names)
    tags: dict[str, dict[str | None, int]] = {wager: dict(keys) for wager, keys in config.tags}
    tag_of_card = np.array([[tags.get(wager, {}).get(play.tag_key(card), 0) for wager in wagers]
                            for card in CARDS], dtype=np.int64)  # cards x wagers
    shoes = [_deal_shoe(play, rounds_seen, config.shoe, seed, tag_of_card) for seed in seeds]
    # one batch for every round of every shoe of this job
    compositions = np.array([c for s in shoes for c in s.compositions], dtype=np.int64)
    edges = play.edges(compositions.reshape(-1, len(CARDS)))
    pays = play.pays([r for s in shoes for r in s.records])
    results, offset = [], 0
    for shoe in shoes:
        rounds = range(offset, offset + len(shoe.records))
        results.append({wager: _tally(rounds, edges[wager], pays[wager],
                                      [float(t[index]) for t in shoe.true_counts],
                                      triggers.get(wager))
                        for index, wager in enumerate(wagers)})
        offset += len(rounds)
    return results


# --- scale-out ---------------------------------------------------------------------------------
def simulate(config: SimulationConfig, shoes: int, seed: int, workers: int = 1,
             scheduler: str | None = None, chunk: int = 20,
             progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Play ``shoes`` shoes from the master ``seed``: inline (``workers=1``), on ``workers``
    local processes, or on the Dask cluster at ``scheduler``. Same seed, same result.

    Seeds are made job by job and results summed in shoe order as they come, a few jobs per
    worker in flight: memory does not grow with ``shoes`` (at most :data:`MAX_SHOES`)."""
    expect(config, SimulationConfig, "simulate: config must be a SimulationConfig")
    check_settings(shoes, seed, workers, scheduler)
    names = dict(shoe_play(config).names)  # validates the config and warms the disk cache
    jobs = (range(start, min(start + chunk, shoes)) for start in range(0, shoes, chunk))
    report = progress or (lambda done, total: None)
    tallies = {wager: BetTally() for wager in names}
    rounds = done = 0
    results = map_in_order(play_shoes, ((config, shoe_seeds(seed, job)) for job in jobs),
                           workers, scheduler)
    for result in results:
        for shoe in result:
            for wager, tally in shoe.items():
                tallies[wager].merge(tally)
            rounds += next(iter(shoe.values())).rounds if shoe else 0
        done += len(result)
        report(done, shoes)
    if rounds == 0:
        raise SimulationError(f"no round was dealt in {shoes} shoe(s): the burn and the cut "
                              "card leave too few cards; lower --cut or --burn")
    return SimulationResult(shoes, rounds, tallies, names, dict(config.triggers))


def check_settings(shoes: int, seed: int, workers: int = 1, scheduler: str | None = None
                   ) -> None:
    """Refuse a number of shoes, seed, workers or scheduler address the simulation cannot use,
    before anything is started.

    >>> check_settings(10, 7, 1, "tcp://10.0.0.5:8786")
    >>> check_settings(10, 7, 1, "not a url")
    Traceback (most recent call last):
    ...
    exact.errors.SimulationError: --scheduler 'not a url': expected tcp://HOST:PORT
    """
    for name, value, low, high in (("shoes", shoes, 1, MAX_SHOES), ("seed", seed, 0, None),
                                   ("workers", workers, 1, max_workers())):
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (
                high is not None and value > high):
            bound = f"from {low:,} to {high:,}" if high is not None else f"at least {low}"
            raise SimulationError(f"--{name} must be a whole number {bound}, got {shown(value)}")
    if scheduler is not None:
        check_scheduler(scheduler)


def max_workers() -> int:
    """The most local worker processes: :data:`WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_scheduler(address: str) -> None:
    """A Dask scheduler address must be ``tcp://HOST:PORT`` (or ``tls://``), checked before
    Dask is imported: anything else is one error line, not a Dask traceback."""
    from urllib.parse import urlsplit

    problem = f"--scheduler {shown(address)}: expected tcp://HOST:PORT"
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        raise SimulationError(problem) from None
    if (parts.scheme not in SCHEDULER_SCHEMES or not parts.hostname or port is None
            or not 0 < port < 65536 or parts.path not in ("", "/") or parts.query
            or parts.fragment or parts.username or not address.isprintable()):
        raise SimulationError(problem)


def shoe_seeds(seed: int, shoes: range) -> list[np.random.SeedSequence]:
    """The seeds of shoes ``shoes`` (indices): the same as the children
    ``SeedSequence(seed).spawn(n)[i]``, made without making the others.

    >>> import numpy as np
    >>> shoe_seeds(5, range(3, 4))[0].spawn_key == np.random.SeedSequence(5).spawn(4)[3].spawn_key
    True
    """
    return [np.random.SeedSequence(seed, spawn_key=(index,)) for index in shoes]


def _in_order(futures: Iterator, window: int) -> Iterator:
    """The results of the futures made by ``futures``, in order, with at most ``window`` of
    them made and not yet consumed (so a billion jobs are never submitted at once)."""
    pending: deque = deque()
    for future in futures:
        pending.append(future)
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def map_in_order(function: Callable[..., Any], arguments: Iterator[tuple[Any, ...]],
                 workers: int = 1, scheduler: str | None = None) -> Iterator[Any]:
    """``function(*a)`` for each ``a`` of ``arguments``, in order: inline (``workers=1``), on
    ``workers`` local processes or on the Dask cluster at ``scheduler``, a few jobs per worker
    in flight (``arguments`` may be endless: stop reading when done). ``function`` must be a
    module-level function (pickled by name)."""
    if scheduler:
        yield from _on_dask(function, arguments, scheduler)
    elif workers == 1:
        for argument in arguments:
            yield function(*argument)
    else:
        with _worker_pool(workers) as pool:
            try:
                yield from _in_order((pool.submit(function, *argument)
                                      for argument in arguments), 4 * workers)
            finally:  # a reader that stopped early: the jobs not yet started are dropped
                pool.shutdown(cancel_futures=True)


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


def _on_dask(function: Callable[..., Any], arguments: Iterator[tuple[Any, ...]],
             scheduler: str) -> Iterator[Any]:
    check_scheduler(scheduler)
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs dask[distributed]: "
                              "pip install 'exact[scale]'") from None
    client = _connected(Client, scheduler)
    try:
        window = 4 * max(1, len(client.scheduler_info().get("workers", ())))
        # in job order, whatever order they finish in
        yield from _in_order((client.submit(function, *argument, pure=False)
                              for argument in arguments), window)
    finally:
        client.close()


SCHEDULER_SECONDS = 10
"""How long connecting to a Dask scheduler may take, and again how long its first worker may
take to join: an address that answers nothing, or a scheduler with no worker, would otherwise
hang the run."""


def _connected(client_type: Any, scheduler: str) -> Any:
    """A Dask client of ``scheduler`` with a worker, within bounded time, or one
    :class:`SimulationError`. Dask's own timeout covers the TCP connection only: a server that
    accepts and then says nothing held the run forever, and one that answers with something
    else (an HTTP server) made Dask try to allocate exabytes (a MemoryError traceback). The
    client is made on a daemon thread that is given up on at the deadline."""
    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = client_type(scheduler, timeout=SCHEDULER_SECONDS)
        except BaseException as error:  # whatever Dask raises on a stranger's answer
            outcome["error"] = error

    where = f"cannot reach the Dask scheduler {shown(scheduler)}"
    thread = threading.Thread(target=connect, name="exact-dask-connect", daemon=True)
    thread.start()
    thread.join(2 * SCHEDULER_SECONDS)
    if thread.is_alive():
        raise SimulationError(f"{where}: no answer within {2 * SCHEDULER_SECONDS} s (is it a "
                              "Dask scheduler?)")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, KeyboardInterrupt):
            raise error
        reason = " ".join(str(error).split())[:150] or type(error).__name__
        raise SimulationError(f"{where}: {reason}") from None
    client = outcome["client"]
    try:
        client.wait_for_workers(1, timeout=SCHEDULER_SECONDS)
    except Exception:  # Dask's TimeoutError (which one depends on its version)
        client.close()
        raise SimulationError(f"the Dask scheduler {shown(scheduler)} has no worker (none "
                              f"joined within {SCHEDULER_SECONDS} s)") from None
    return client


def tags_tuple(tags: Mapping[str, Mapping[str, int]], keys: Sequence[str] = RANKS
               ) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """Per-wager tags (by rank, or by a game's ``keys``) in the hashable form
    :class:`SimulationConfig` keeps."""
    return tuple((wager, tuple((key, tagged.get(key, 0)) for key in keys))
                 for wager, tagged in tags.items())
