"""Shoe simulation with the exact edge of every tracked wager at every round.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Real shoes are shuffled (seeded), burned and dealt round by round to the cut card. Before each
round the composition of the cards not yet seen is recorded; the round is then dealt from the
physical cards. Once a job's shoes are dealt, every recorded composition is evaluated exactly
in one batch and every round settled. What a game tracks, how it evaluates a composition and
how it deals and settles a round is its :class:`ShoePlay`:
:class:`~exact.analysis.bet_play.BetPlay` for the games with a bet table
(:mod:`exact.engines.batch`, bets settled by their definitions), or the one a game declares
in its plugin record (:attr:`exact.model.plugins.GamePlugin.simulation`; 21st Century
Baccarat: the player's wager under a fixed strategy pair), which reads the game's own options
and says what its settings are. Two players are followed per wager:

* computer-perfect play: bet one unit whenever the exact edge is positive;
* a count system: bet one unit whenever the true count (running count of the tags of the cards
  seen, per deck unseen) reaches the trigger.

Reproducible and independent of the scale-out: shoe ``i`` is shuffled by a generator seeded
with the ``i``-th child of ``numpy.random.SeedSequence(seed)``, never from a worker's identity;
results are kept per shoe and summed in shoe order (wins are exact fractions, float sums use
:func:`math.fsum`, which does not depend on order). Shoes run inline, on local processes
(``workers``) or on a Dask cluster (``scheduler``), with identical results.

This module deals the shoes and runs the simulation; the counts it plays are
:mod:`exact.analysis.counts`, its results :mod:`exact.analysis.tallies`, and the jobs run
through :mod:`exact.analysis.scale_out`.

Shoe rules: ``decks`` (``None``: the game's default shoe); ``cut_cards`` cards left behind the
cut card (no round starts with that few cards or fewer in the shoe); burn: ``"first-card"`` (the
first card is shown, then as many cards burned face down as its value, ten for T/J/Q/K and a
joker: baccarat's custom), ``"none"``, or a number of cards burned face down. Seen cards are
those of the rounds and the shown card; the edge is computed for the cards not seen (burned
cards stay unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from exact.analysis.bet_play import BetPlay
from exact.analysis.scale_out import check_scheduler, map_in_order, max_workers
from exact.analysis.shoe_play import MAX_DECKS as MAX_DECKS
from exact.analysis.shoe_play import Edges as Edges
from exact.analysis.shoe_play import Integers as Integers
from exact.analysis.shoe_play import ShoePlay as ShoePlay
from exact.analysis.shoe_play import ShoeRules as ShoeRules
from exact.analysis.shoe_play import SimulationConfig as SimulationConfig
from exact.analysis.shoe_play import representatives as representatives
from exact.analysis.tallies import BetTally, SimulationResult, tally_shoe
from exact.core.cards import CARDS
from exact.core.enumerator import Record, RecordT
from exact.core.parsing import MAX_SIMULATED_CARDS, MAX_SIMULATED_SHOES, expect, shown
from exact.errors import SimulationError as SimulationError
from exact.model.plugins import get_game, plugin

# The bounds are the parsing layer's (docs: Input limits), one number each. Memory does not
# grow with the number of shoes: seeds are made job by job, results summed as they come and
# the rounds read are kept only up to ROUNDS_KEPT per process.
MAX_SHOES = MAX_SIMULATED_SHOES
ROUNDS_KEPT = 200_000
MAX_CARDS = MAX_SIMULATED_CARDS


# --- one worker's job --------------------------------------------------------------------------
# per process: the play of a configuration and the rounds it has read, keyed by class prefix
_WORKERS: dict[SimulationConfig, tuple[ShoePlay[Any], dict[tuple[int, ...], tuple]]] = {}


def shoe_play(config: SimulationConfig) -> ShoePlay[Any]:
    """The play of ``config``'s game (its own, or :class:`BetPlay`), built once
    per process; checks the settings."""
    return _setup(config)[0]


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
        results.append({wager: tally_shoe(rounds, edges[wager], pays[wager],
                                      [float(t[index]) for t in shoe.true_counts],
                                      triggers.get(wager))
                        for index, wager in enumerate(wagers)})
        offset += len(rounds)
    return results


# --- the run ---------------------------------------------------------------------------------
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


def shoe_seeds(seed: int, shoes: range) -> list[np.random.SeedSequence]:
    """The seeds of shoes ``shoes`` (indices): the same as the children
    ``SeedSequence(seed).spawn(n)[i]``, made without making the others.

    >>> import numpy as np
    >>> shoe_seeds(5, range(3, 4))[0].spawn_key == np.random.SeedSequence(5).spawn(4)[3].spawn_key
    True
    """
    return [np.random.SeedSequence(seed, spawn_key=(index,)) for index in shoes]
