"""The baccarat coup, written once, as a game with chance and decision nodes.

Layer: games, the top: a game's code may import every generic layer, no other game.

Two cards each (Player, Banker, Player, Banker); a two-card natural on either side ends the coup.
Otherwise the Player draws on its forced-draw totals, stands on the others and *chooses* on its
choice totals (chemin de fer's 5); then the Banker, seeing its own hand and the Player's third
card face up (or that the Player stood), chooses to draw or stand. The higher total wins.

What a side knows at its choice is the information model: ``totals`` (each side its own
two-card total), ``banker-cards`` (the Banker its two cards' values, the Player its total) or
``cards`` (both their two cards' values). The information sets are plain tuples,
``("player", tag)`` and ``("banker", tag, third)``, the tag a total or two values in order.

The coup is a :class:`~exact.model.strategy_game.DecisionGame`, read by the generic walkers
(:mod:`exact.engines.decisions`, :mod:`exact.engines.fixed_strategy`): chemin de fer's sequence
form is its :func:`~exact.engines.decisions.decision_table`; Punto Banco's fixed tableau is the
coup under House Way for both sides (:func:`house_choices`), a plain deal (:class:`TableauDeal`,
the generic :class:`~exact.engines.fixed_strategy.StrategyDeal` compiled into the coup's steps)
for the enumerator, the compiled and every other engine. The dealing plan (which initial hands are
dealt, through which views, card by card or as a group) is the deal's, as Punto Banco's bets
need it; the sequence form sees values only.

>>> from exact.core.cards import Shoe
>>> from exact.engines.decisions import decision_table
>>> coup = Coup(frozenset({8, 9}), frozenset(range(5)), frozenset({5}))
>>> table = decision_table(coup, Shoe.standard(1))
>>> len(table.sets[0]), len(table.sets[1]), table.total == 52 * 51 * 50 * 49 * 48 * 47
(1, 88, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, get_args

from exact.core.cards import VALUE_VIEW, Label, View
from exact.core.enumerator import Draw
from exact.errors import StrategyError
from exact.model.strategy_game import Decision, InfoSet

if TYPE_CHECKING:  # a type only: Punto Banco's commands need not import the walker
    from exact.engines.fixed_strategy import Choices

Hand = tuple[Label, ...]
PuntoRecord = tuple[Hand, Hand]  # (player's cards, banker's cards); a hand not dealt is ()
Information = Literal["totals", "banker-cards", "cards"]
INFORMATION: tuple[Information, ...] = get_args(Information)
DRAW, STAND = "draw", "stand"
ACTIONS = (DRAW, STAND)
FALLBACK = STAND  # a side's choice where its strategy names none
ROUND_CARDS = 6
# The stages of a coup: the initial cards, the Player's choice, its third card, the Banker's
# choice, its third card, the end. Forced moves are taken as the fourth card is dealt: a
# choice node is met only where the side chooses.
DEALING, PLAYER, PLAYER_CARD, BANKER, BANKER_CARD, OVER = range(6)
State = tuple[Hand, Hand, int]
DrawTable = dict[tuple[int | None, ...], bool]  # the values a decision reads -> it draws
_VALUE_VIEWS: Mapping[str, View] = MappingProxyType(
    {"player": VALUE_VIEW, "banker": VALUE_VIEW, "draws": VALUE_VIEW})


def hand_total(cards: Hand) -> int:
    # the coup deals no joker (accepts_jokers is False), so ``or 0`` never hides a card; a
    # plain loop, as this runs for every state of every walk (about twice as fast as sum)
    total = 0
    for label in cards:
        total += label.value or 0
    return total % 10


def _values(hand: Hand) -> tuple[int, int]:
    """The two first cards' values, in order (the view's class order puts a ten after 9)."""
    first, second = hand[0].value or 0, hand[1].value or 0
    return (first, second) if first <= second else (second, first)


def _infoset(information: Information, state: State) -> tuple[int, InfoSet]:
    """The side choosing at ``state``, a choice stage, and its information set."""
    player, banker, stage = state
    if stage == PLAYER:
        first, second = _values(player)
        tag: object = (first + second) % 10 if information != "cards" else (first, second)
        return 0, ("player", tag)
    first, second = _values(banker)
    tag = (first + second) % 10 if information == "totals" else (first, second)
    return 1, ("banker", tag, player[2].value if len(player) == 3 else None)


@dataclass(frozen=True)
class Coup:
    """The coup as a :class:`~exact.model.strategy_game.DecisionGame` (module docstring): side 0
    the Player, side 1 the Banker. ``order``, ``views``, ``ordered`` and ``draws`` are the
    dealing plan (:func:`exact.games.baccarat.coup.plan_deal`): the initial stages dealt,
    finer views first, those dealt card by card, and whether third cards are dealt at all (a
    bet reading only the first four cards needs none)."""

    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    player_chooses_on: frozenset[int]
    information: Information = "totals"
    order: tuple[str, ...] = ("player", "banker")
    views: Mapping[str, View] = field(default_factory=lambda: _VALUE_VIEWS, hash=False)
    draws: bool = True
    ordered: frozenset[str] = frozenset()
    round_cards: int = ROUND_CARDS
    accepts_jokers: bool = False
    # the dealing plan by the cards dealt so far, at index 3 * (Player's) + (Banker's): the
    # initial stage left (whether it is the Player's, and its draw; no draw once all are dealt)
    _dealing: tuple[tuple[bool, Draw | None], ...] = field(
        init=False, repr=False, compare=False)
    _third: Draw | None = field(init=False, repr=False, compare=False)
    _decisions: dict[object, Decision] = field(init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return hash((self.naturals, self.player_draws_on, self.player_chooses_on,
                     self.information, self.order, tuple(sorted(self.views.items())),
                     self.draws, self.ordered))

    def __post_init__(self) -> None:
        if self.draws and sorted(self.order) != ["banker", "player"]:
            raise ValueError("third cards are drawn on both initial hands: deal both")
        # worked out once: these run at every state of every walk (a hundred thousand for the
        # value-level deal), where building a Draw, a view lookup or a loop over the stages
        # per call shows
        draws = {stage: (Draw(self.views[stage], 1), Draw(self.views[stage], 2))
                 for stage in self.order}  # one object each, as the engines see them
        object.__setattr__(self, "_dealing", tuple(
            self._initial_stage(player, banker, draws) for player in range(3)
            for banker in range(3)))
        object.__setattr__(self, "_third", Draw(self.views["draws"]) if self.draws else None)
        object.__setattr__(self, "_decisions", {})

    @property
    def fixed_stages(self) -> tuple[tuple[str, Draw], ...] | None:
        """Without third cards the deal is a fixed sequence of two-card groups."""
        if self.draws or self.ordered:
            return None
        return tuple((stage, Draw(self.views[stage], 2)) for stage in self.order)

    def start(self) -> State:
        return ((), (), self._after_initial((), ()))

    def step(self, state: State) -> Draw | Decision | None:
        stage = state[2]
        if stage == DEALING:
            return self._dealing[3 * len(state[0]) + len(state[1])][1]
        if stage in (PLAYER_CARD, BANKER_CARD):
            return self._third
        if stage == OVER:
            return None
        # the decisions are looked up by what they read (the walkers ask at every node)
        player, banker = state[0], state[1]
        if stage == PLAYER:
            key: object = player[0].value, player[1].value
        else:
            key = (banker[0].value, banker[1].value,
                   player[2].value if len(player) == 3 else None)
        found = self._decisions.get(key)
        if found is None:
            found = self._decisions[key] = self._decision(state)
        return found

    def _decision(self, state: State) -> Decision:
        return Decision(*_infoset(self.information, state), ACTIONS)

    def _initial_stage(self, player: int, banker: int,
                       draws: Mapping[str, tuple[Draw, Draw]]) -> tuple[bool, Draw | None]:
        """The initial stage left to deal after ``player`` and ``banker`` cards (whether it is
        the Player's, and its draw of ``draws``, by one card or two), no draw once every one is
        dealt: the one statement of the dealing order, tabled once (``_dealing``) for
        :meth:`step` and :meth:`advance`."""
        for stage in self.order:
            is_player = stage == "player"
            dealt = player if is_player else banker
            if stage in self.ordered and dealt < 2:
                return is_player, draws[stage][0]
            if not dealt:
                return is_player, draws[stage][1]
        return False, None

    def _after_initial(self, player: Hand, banker: Hand) -> int:
        """The stage after ``player`` and ``banker``: dealing, or :meth:`_after_dealt`."""
        if self._dealing[3 * len(player) + len(banker)][1] is not None:
            return DEALING
        return self._after_dealt(player, banker)

    def _after_dealt(self, player: Hand, banker: Hand) -> int:
        """The stage once the initial cards are dealt: the end (no third cards, a natural),
        the Player's choice, or its forced move."""
        if not self.draws:
            return OVER
        player_total, banker_total = hand_total(player), hand_total(banker)
        if player_total in self.naturals or banker_total in self.naturals:
            return OVER
        if player_total in self.player_chooses_on:
            return self._player_turn(player, banker)
        if player_total in self.player_draws_on:
            return PLAYER_CARD
        return self._banker_turn(player, banker)

    def _player_turn(self, player: Hand, banker: Hand) -> int:
        """The stage of the Player's choice (a fixed strategy's deal takes it at once)."""
        return PLAYER

    def _banker_turn(self, player: Hand, banker: Hand) -> int:
        """The stage of the Banker's choice (a fixed strategy's deal takes it at once)."""
        return BANKER

    def advance(self, state: State, labels: tuple[Label, ...]) -> State:
        player, banker, stage = state
        if stage == PLAYER_CARD:
            player += labels
            return (player, banker, self._banker_turn(player, banker))
        if stage == BANKER_CARD:
            return (player, banker + labels, OVER)
        if self._dealing[3 * len(player) + len(banker)][0]:
            player += labels
        else:
            banker += labels
        if self._dealing[3 * len(player) + len(banker)][1] is not None:
            return (player, banker, DEALING)  # (the staged engines deal records this way)
        return (player, banker, self._after_dealt(player, banker))

    def act(self, state: State, action: str) -> State:
        player, banker, stage = state
        if stage == PLAYER:
            return (player, banker, PLAYER_CARD if action == DRAW else BANKER)
        return (player, banker, BANKER_CARD if action == DRAW else OVER)

    def record(self, state: State) -> PuntoRecord:
        return (state[0], state[1])

    def outcome(self, state: State) -> str:
        """Who wins: all a pay of the coup depends on."""
        player, banker = hand_total(state[0]), hand_total(state[1])
        return "player" if player > banker else "banker" if banker > player else "tie"

    def future(self, state: State) -> object | None:
        """At a third card, the rest of the coup depends only on the Player's total and what
        the Banker's decision reads of its own hand (module docstring)."""
        player, banker, stage = state
        if stage == BANKER_CARD:  # one card left: the two totals decide the end
            return (hand_total(player), hand_total(banker))
        if stage != PLAYER_CARD:
            return None
        tag = _values(banker) if self.information != "totals" else hand_total(banker)
        return (hand_total(player), tag, None)

    def rest_shape(self, state: State) -> tuple[object, object] | None:
        """The rests after the Player's third card are one per pair of totals
        (:class:`~exact.model.strategy_game.SharedRests`): the Banker's two values, where it
        decides on them, only name its sets (:meth:`renamed`). Each rest of the Banker's third
        card is its own shape, its totals."""
        player, banker, stage = state
        if stage == BANKER_CARD or self.information == "totals":
            return (stage, hand_total(player), hand_total(banker)), None
        return (stage, hand_total(player), hand_total(banker)), _values(banker)

    def renamed(self, infoset: InfoSet, names: object) -> InfoSet:
        """A Banker's set of a rest after the Player's third card, as the rest of the
        Banker's values ``names`` has it (:meth:`rest_shape`)."""
        if names is None or not isinstance(infoset, tuple) or infoset[0] != "banker":
            return infoset
        return ("banker", names, infoset[2])

    def fallback(self, decision: Decision) -> str:
        return FALLBACK


# --- House Way: the tableau as both sides' strategies --------------------------------------
def set_parts(infoset: InfoSet) -> tuple[str, int | tuple[int, int], int | None]:
    """(side, what it sees of its cards, the Player's third card or None) of one of the
    coup's information sets: ``("player", tag)`` or ``("banker", tag, third)``.

    >>> set_parts(("player", 5)), set_parts(("banker", (1, 2), 9))
    (('player', 5, None), ('banker', (1, 2), 9))
    """
    if not isinstance(infoset, tuple) or len(infoset) not in (2, 3):
        raise StrategyError(f"not an information set of the coup: {infoset!r}")
    return infoset[0], infoset[1], infoset[2] if len(infoset) == 3 else None


def own_total(infoset: InfoSet) -> int:
    """The total of the side whose information set this is (Player or Banker).

    >>> own_total(("player", (2, 3))), own_total(("banker", 6, None))
    (5, 6)
    """
    tag = set_parts(infoset)[1]
    return tag if isinstance(tag, int) else sum(tag) % 10


Chooser = Callable[[InfoSet, tuple[str, ...]], str]  # a set and its actions -> one action


def house_choosers(player_draws_on: frozenset[int],
                   banker_draws: Callable[[int, int | None], bool]
                   ) -> tuple[Chooser, Chooser]:
    """House Way as each side's choice at any of its sets: the Player draws on the totals of
    ``player_draws_on``, the Banker when ``banker_draws(its total, the Player's third card or
    None)`` says so (the tableau of :class:`exact.games.baccarat.coup.Rules`)."""
    return (lambda infoset, _actions: DRAW if own_total(infoset) in player_draws_on else STAND,
            lambda infoset, _actions: (DRAW if banker_draws(own_total(infoset),
                                                             set_parts(infoset)[2]) else STAND))


def every_set(coup: Coup) -> tuple[tuple[InfoSet, ...], tuple[InfoSet, ...]]:
    """Every information set of ``coup`` some shoe may reach, per side, in the order of the
    values (a tag of two values lists the lower first)."""
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    chooses = [(a, b) for a, b in pairs if (a + b) % 10 in coup.player_chooses_on]
    decides = [(a, b) for a, b in pairs if (a + b) % 10 not in coup.naturals]
    player_tags: list[object] = list(chooses if coup.information == "cards" else sorted(
        {(a + b) % 10 for a, b in chooses}))
    banker_tags: list[object] = list(decides if coup.information != "totals" else sorted(
        {(a + b) % 10 for a, b in decides}))
    return (tuple(("player", tag) for tag in player_tags),
            tuple(("banker", tag, third) for tag in banker_tags
                  for third in (None, *range(10))))


def house_choices(coup: Coup, choosers: tuple[Chooser, Chooser]) -> tuple[Choices, Choices]:
    """House Way as the pure strategies of a :class:`~exact.engines.fixed_strategy.StrategyDeal`
    over ``coup``: each side's choice at every set it may meet."""
    sets = every_set(coup)
    return (tuple((h, choosers[0](h, ACTIONS)) for h in sets[0]),
            tuple((h, choosers[1](h, ACTIONS)) for h in sets[1]))


@dataclass(frozen=True)
class TableauDeal(Coup):
    """The coup under one pure strategy per side, compiled into a plain deal: each choice the
    strategies make, at every decision key the coup may meet, is read once from the coup's
    own decision nodes and kept in a table, so that the deal's steps take it as they take a
    forced move. The same deal as the generic
    :class:`~exact.engines.fixed_strategy.StrategyDeal` of the coup (the tests hold them equal),
    without a protocol call per decision: Punto Banco's every engine walks this deal, at
    every node. Kept per coup and strategies (:func:`tableau_deal`)."""

    strategies: tuple[Choices, Choices] = ((), ())
    # keyed by the values of the cards the decision reads (a label's value is None only for
    # a joker, which the coup never deals)
    _player_draws: DrawTable = field(init=False, repr=False, compare=False)
    _banker_draws: DrawTable = field(init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return hash((super().__hash__(), self.strategies))

    def __post_init__(self) -> None:
        super().__post_init__()
        # a deal without third cards meets no decision (the bets of the first four cards)
        player_draws, banker_draws = _draw_tables(self.information, self.strategies) \
            if self.draws else ({}, {})
        object.__setattr__(self, "_player_draws", player_draws)
        object.__setattr__(self, "_banker_draws", banker_draws)

    def start(self) -> State:
        return self._start

    @cached_property
    def _start(self) -> State:
        return ((), (), self._after_initial((), ()))

    def next_draw(self, state: State) -> Draw | None:
        stage = state[2]
        if stage == DEALING:
            return self._dealing[3 * len(state[0]) + len(state[1])][1]
        return self._third if stage in (PLAYER_CARD, BANKER_CARD) else None

    def _player_turn(self, player: Hand, banker: Hand) -> int:
        if self._player_draws[player[0].value, player[1].value]:
            return PLAYER_CARD
        return self._banker_turn(player, banker)

    def _banker_turn(self, player: Hand, banker: Hand) -> int:
        return BANKER_CARD if self._banker_draws[
            banker[0].value, banker[1].value,
            player[2].value if len(player) == 3 else None] else OVER


@cache
def _draw_tables(information: Information, strategies: tuple[Choices, Choices]
                 ) -> tuple[DrawTable, DrawTable]:
    """Whether each side draws under ``strategies``, by the values of the cards its decision
    reads (:class:`TableauDeal`): the coup's own decision nodes asked once per pair of cards
    (and third card), once per information model and strategies, whatever the dealing plan."""
    chosen = (dict(strategies[0]), dict(strategies[1]))
    labels = {label.value: label for label in VALUE_VIEW.labels if label.value is not None}

    def draws(state: State) -> bool:
        actor, infoset = _infoset(information, state)
        action = chosen[actor].get(infoset)
        return (action if action is not None else FALLBACK) == DRAW

    # a decision reads two cards order-free: each pair asked once, kept in both orders
    # (a deal's labels come in the view's class order, a ten after the 9)
    player_draws: DrawTable = {}
    banker_draws: DrawTable = {}
    for a in range(10):
        for b in range(a, 10):
            player_draws[a, b] = player_draws[b, a] = draws(
                ((labels[a], labels[b]), (), PLAYER))
            for third in (None, *range(10)):
                banker_draws[a, b, third] = banker_draws[b, a, third] = draws(
                    ((labels[0], labels[0]) + (() if third is None else (labels[third],)),
                     (labels[a], labels[b]), BANKER))
    return player_draws, banker_draws


@cache
def tableau_deal(coup: Coup, strategies: tuple[Choices, Choices]) -> TableauDeal:
    """``coup`` under ``strategies`` as a plain deal, compiled once per coup and strategies
    (everything that decides it): compiled forms and plans are kept by deal."""
    return TableauDeal(coup.naturals, coup.player_draws_on, coup.player_chooses_on,
                       coup.information, coup.order, coup.views, coup.draws, coup.ordered,
                       strategies=strategies)
