"""What a shoe simulation asks of a game and its settings: the shoe rules, the settings a worker
rebuilds a play from (:class:`SimulationConfig`), and the :class:`ShoePlay` protocol a game's play
on real shoes follows (:class:`exact.analysis.bet_play.BetPlay` for the bet games, a game's own
such as :class:`exact.games.century21.simulation.Century21Play`).

Layer: analysis, above the games; :mod:`exact.analysis.simulation` runs the shoes. A game's own
play imports this module, not the simulation, which loads that play through the game's plugin
record (:attr:`exact.model.plugins.GamePlugin.simulation`): so the two do not import each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Protocol

import numpy as np

from exact.analysis.bet_analysis import game_bets
from exact.analysis.removal import RemovalTable
from exact.core.cards import CARDS, Card
from exact.core.enumerator import RecordT
from exact.core.parsing import MAX_SIMULATED_DECKS, shown, shown_all
from exact.engines.batch import supported_bets
from exact.errors import SimulationError
from exact.model.bets import Bet, load_bets
from exact.model.game import Game

MAX_DECKS = MAX_SIMULATED_DECKS


@dataclass(frozen=True)
class ShoeRules:
    """How shoes are built, burned and cut (see module docstring)."""

    decks: int | None = 8
    cut_cards: int = 14
    burn: str = "first-card"

    def __post_init__(self) -> None:
        if self.decks is not None and (not isinstance(self.decks, int) or self.decks < 1
                                       or self.decks > MAX_DECKS):
            raise SimulationError(f"decks must be an integer from 1 to {MAX_DECKS:,}, "
                                  f"got {shown(self.decks)}")
        if not isinstance(self.cut_cards, int) or self.cut_cards < 0:
            raise SimulationError(f"cut_cards must be a non-negative integer, "
                                  f"got {shown(self.cut_cards)}")
        if self.burn not in ("first-card", "none") and not (str(self.burn).isascii()
                                                            and str(self.burn).isdigit()):
            raise SimulationError(f"burn must be 'first-card', 'none' or a number of cards, "
                                  f"got {shown(self.burn)}")


    def in_words(self) -> dict[str, str]:
        """The burn and the cut card as the assumptions of ``simulate`` state them."""
        if self.burn == "first-card":
            burn = ("at the start of each shoe the first card is shown, then as many cards as "
                    "its value burned face down (ten for a ten-value card or a joker)")
        elif self.burn == "none":
            burn = "no card is burned"
        else:
            burn = f"at the start of each shoe {self.burn} card(s) are burned face down"
        return {"burn": burn, "cut": str(self.cut_cards)}


@dataclass(frozen=True)
class SimulationConfig:
    """Everything a worker needs to play shoes: picklable, rebuilt into a play in the worker."""

    game: str  # the id of the game played: the games' own, no generic default
    bet_texts: tuple[tuple[str, str], ...] = ()  # (label, TOML text) of extra bet files
    bet_ids: tuple[str, ...] = ()  # tracked wagers (default: every one the game serves)
    tags: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # wager -> (key, tag)s
    triggers: tuple[tuple[str, float], ...] = ()  # wager id -> true count at which to bet
    shoe: ShoeRules = field(default_factory=ShoeRules)
    options: tuple[tuple[str, str], ...] = ()  # a game's own settings (e.g. a rule file's text)
    # The wagers themselves, as a library caller (a report) already holds them, each paid by
    # its own paytable: these are tracked, and bet_texts and bet_ids are not read.
    given_bets: tuple[Bet, ...] = ()

    def bets(self, game: Game) -> list[Bet]:
        if self.given_bets:
            return list(self.given_bets)
        bets = game_bets(game)
        for label, text in self.bet_texts:
            bets += load_bets(label, game.features, text=text)
        if not self.bet_ids:
            return supported_bets(game, bets)[0]
        known = {bet.id: bet for bet in bets}
        missing = [b for b in self.bet_ids if b not in known]
        if missing:
            raise SimulationError(f"unknown bet(s) {shown_all(missing)}")
        return [known[b] for b in self.bet_ids]

    @property
    def play_key(self) -> SimulationConfig:
        """What the play depends on: not the count's tags and triggers."""
        return replace(self, tags=(), triggers=())


# --- what the simulation needs of a game ---------------------------------------------------------
Integers = Sequence[int] | np.ndarray  # exact integers: a list, or an int64 or object array
Edges = Mapping[str, tuple[Integers, Integers]]  # wager -> (numerators, denominators)


class ShoePlay(Protocol[RecordT]):
    """A game's wagers on real shoes. Rounds are read from sequences of card *classes* (the
    attributes the wagers and the deal see): the engine reads each distinct one once.

    Type parameter: ``RecordT``, the type of the rounds the play reads and then settles (the
    engine only carries them from one to the other, so holds any play: ``ShoePlay[Any]``)."""

    # (read-only members, so that a play may hold them as a dict, a tuple or a string)
    @property
    def names(self) -> Mapping[str, str]:
        """Tracked wager id -> name, in report order."""
    @property
    def full(self) -> np.ndarray:
        """The full shoe: counts of the 53 card ids."""
    @property
    def decks(self) -> int:
        """The true count is per deck of full.sum() / decks cards."""
    @property
    def round_cards(self) -> int:
        """The most cards a round uses."""
    @property
    def card_class(self) -> np.ndarray:
        """The class of each card id."""
    @property
    def tag_keys(self) -> Sequence[str]:
        """What count tags name (ranks, or a game's classes)."""
    @property
    def weights(self) -> Mapping[str, int]:
        """Cards of each tag key in a deck."""

    def tag_key(self, card: Card) -> str | None:
        """The tag key of a card (None: tagged 0)."""

    def read_round(self, classes: tuple[int, ...]) -> tuple[RecordT, int]:
        """The round dealt from cards of these classes (in dealing order) and the cards it
        used; it must depend on the first ``used`` classes only."""

    def edges(self, compositions: np.ndarray) -> Edges:
        """Exact expected value per unit of every wager for each row of 53 card counts."""

    def pays(self, records: Sequence[RecordT]) -> Mapping[str, Sequence[Fraction]]:
        """Every wager's pay per unit on each round read."""

    def removal(self) -> RemovalTable:
        """Effects of removal of every wager on the full shoe (for derived counts)."""

    def describe(self) -> dict[str, object]:
        """What the report should say of the game's settings (JSON-ready)."""

    def headline(self) -> Sequence[str]:
        """The game's settings as the text report's first line states them after the shoe
        rules, each in a few words (``"bet 10"``); the game decides which, and their words."""


def representatives(card_class: Sequence[int]) -> list[Card]:
    """One card of each class (the first card id of it)."""
    first: dict[int, Card] = {}
    for card_id, index in enumerate(card_class):
        first.setdefault(int(index), CARDS[card_id])
    return [first[index] for index in range(len(first))]
